//! Bytes that mark inline markup in [`RawBlock::shown`](super::RawBlock::shown) (with HTML5
//! syntax): emphasis (`em`, `i`), strong emphasis (`strong`, `b`), code (`code`, `kbd`,
//! `samp`, `tt` outside `pre`) and links (`a href`, the `n`-th of
//! [`RawBlock::links`](super::RawBlock::links) for the `n`-th opening). They are ASCII
//! controls, which no text keeps (they are not XML characters): the page's own are dropped
//! from `shown`, and every text but the Markdown writer's drops these.

/// Start of emphasis (`em`, `i`).
pub(crate) const EM: u8 = 0x01;
/// End of emphasis.
pub(crate) const EM_END: u8 = 0x02;
/// Start of strong emphasis (`strong`, `b`).
pub(crate) const STRONG: u8 = 0x03;
/// End of strong emphasis.
pub(crate) const STRONG_END: u8 = 0x04;
/// Start of code (`code`, `kbd`, `samp`, `tt` outside `pre`).
pub const CODE: u8 = 0x05;
/// End of code.
pub(crate) const CODE_END: u8 = 0x06;
/// Start of a link (`a href`).
pub(crate) const LINK: u8 = 0x0e;
/// End of a link.
pub(crate) const LINK_END: u8 = 0x0f;

/// Whether a byte is a mark (or a control the page's text may not keep in `shown`).
pub(crate) fn is_mark(b: u8) -> bool {
    matches!(b, 0x01..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f)
}

//! A block as the segmenter leaves it ([`RawBlock`], [`Container`]), and how bytes are
//! appended to its shown text: collapsed, or verbatim for preformatted text.

use super::mark;
use crate::document::Kind;

/// The break tag that opened a block (texrex's container types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Container {
    /// Opened by none of the tags below (by `body`, two `<br>`, another block tag, …).
    #[default]
    Unknown,
    /// `article`.
    Article,
    /// `section`.
    Section,
    /// `div`.
    Div,
    /// `p`.
    P,
    /// `h1`…`h6`.
    H,
    /// `blockquote`.
    Blockquote,
    /// `td`.
    Td,
    /// `li`.
    Li,
}

impl Container {
    /// The container a break tag (its name without `/`) opens, if it is one of texrex's.
    pub(super) fn from_tag(name: &[u8]) -> Option<Container> {
        Some(match name {
            b"article" => Container::Article,
            b"section" => Container::Section,
            b"div" => Container::Div,
            b"p" => Container::P,
            b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6" => Container::H,
            b"blockquote" => Container::Blockquote,
            b"td" => Container::Td,
            b"li" => Container::Li,
            _ => return None,
        })
    }

    /// 1-based index in texrex's one-hot encoding (0 = unknown).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A block as the segmenter leaves it: text still in the source encoding, entities undecoded.
#[derive(Debug, Clone, Default)]
pub struct RawBlock {
    /// Text bytes, whitespace collapsed to single spaces, no leading space.
    pub text: Vec<u8>,
    /// The text as a browser lays it out, when that differs from `text`: a line break for
    /// each `<br>` after text, and the whitespace and lines of preformatted text (`pre`,
    /// `listing`, `code`) as they are.
    pub shown: Option<Vec<u8>>,
    /// Some of its text is preformatted.
    pub pre: bool,
    /// The `href`s of the links whose text `shown` marks ([`mark`]), in order
    /// (HTML5 syntax).
    pub links: Vec<Vec<u8>>,
    /// What it is (heading, paragraph, list item, …), from the elements around its first text.
    pub kind: Kind,
    /// Position right after the tag that opened the block.
    pub(crate) first_raw: usize,
    /// Position of the `>` of the tag that closed the block.
    pub(crate) last_raw: usize,
    /// Start tags in the block (texrex counts every tag, whatever its name).
    pub(crate) open_tags: u32,
    /// End tags in the block.
    pub(crate) close_tags: u32,
    /// Tags in the block whose name starts with `a` (texrex's anchors).
    pub anchors: u32,
    /// Empty potential blocks skipped right before this one.
    pub(crate) skipped_divs: u32,
    /// The break tag that opened the block.
    pub(crate) container: Container,
    /// The block was opened by an end tag (`</div>` etc.).
    pub(crate) closing_start: bool,
    /// Text bytes inside `<a>` elements (whitespace collapsed, entities undecoded).
    pub(crate) link_bytes: u32,
    /// Words that start inside `<a>` elements: whitespace-separated, as texrex's collapsed
    /// text has them (`analyze::analyze` counts them again, by [`crate::words`], in a block
    /// with characters of a script written without spaces, from
    /// [`Segmentation::link_spans`](super::Segmentation::link_spans)).
    pub link_words: u32,
    /// [`cue`](super::cue) bits of the elements around the block's text, OR-ed over all of it.
    pub cues: u32,
    /// [`cue`](super::cue) bits of the innermost [`NEAR`] elements around its first text
    /// alone: what the block's own container says, apart from what the page around it says.
    pub near_cues: u32,
    /// The block starts a jusText paragraph: it was opened by one of jusText's block tags, by
    /// two `<br>`, or it is the first block. Blocks opened otherwise (`article`, `nav`, …)
    /// continue the paragraph before them.
    pub(crate) paragraph_start: bool,
    /// The path (tag names and classes) of the element its first text is in: blocks of
    /// repeated elements of one kind (the items of a list, a grid of teasers) share it.
    pub path: u64,
    /// Open elements around its first text.
    pub depth: u16,
    /// The [`markup_token`](super::markup_token)s of the `class` and `id` values of the
    /// elements around its first text (at most `MAX_BLOCK_TOKENS`, the innermost elements'
    /// first), sorted, distinct. `analyze::analyze` moves them into its blocks.
    pub markup: Vec<u32>,
}

/// How many of the innermost open elements make a block's [`RawBlock::near_cues`].
pub const NEAR: usize = 3;

/// Whitespace as texrex collapses it in a block's text.
#[inline]
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | b' ')
}

/// Append `bytes` to a block's shown text with whitespace runs collapsed to one space, none
/// at the start of a line.
pub(super) fn push_collapsed(shown: &mut Vec<u8>, bytes: &[u8]) {
    let mut in_word = shown.last().is_some_and(|&l| !is_ws(l));
    shown.reserve(bytes.len());
    for &b in bytes {
        if mark::is_mark(b) {
            continue;
        }
        if !is_ws(b) {
            shown.push(b);
            in_word = true;
        } else if in_word {
            shown.push(b' ');
            in_word = false;
        }
    }
}

/// Append preformatted `bytes`, found at `at` in the raw text when they come from it, to a
/// block's shown text as they are, except that the raw text's line ends become line breaks
/// and the space [`raw_text`](super::raw_text) put before each line goes.
pub(super) fn push_verbatim(
    shown: &mut Vec<u8>,
    bytes: &[u8],
    at: Option<usize>,
    line_ends: &[usize],
) {
    let Some(at) = at else {
        shown.extend(bytes.iter().filter(|&&b| !mark::is_mark(b)));
        return;
    };
    let is_end = |p: usize| line_ends.binary_search(&p).is_ok();
    for (k, &b) in bytes.iter().enumerate() {
        let p = at + k;
        if mark::is_mark(b) {
            continue;
        } else if is_end(p) {
            shown.push(b'\n');
        } else if !(b == b' ' && (p == 0 || is_end(p - 1))) {
            shown.push(b);
        }
    }
}

//! Block segmentation: texrex's block rules (`TTrHtmlStripper`) over a linear-time HTML tokenizer.
//!
//! The segmenter works on the *raw text* of a record as texrex builds it ([`raw_text`]): every
//! line (LF or CR ends a line) becomes `' ' + line + ' '`. Block positions (`first_raw`,
//! `last_raw`) index into that text, so `MarkupProp` and the window features match texrex's.
//!
//! Block rules are texrex's: text starts after the first `<body>`; `</body>` ends it; the
//! break tags open a new block; drop containers (`script`, `style`, `head`, `form`, `applet`,
//! `code`, `audio`, `video`) write no text; empty blocks are reused and counted as skipped;
//! every tag counts as an open or close tag of the current block, tags whose name starts with
//! `a` as anchors; `<br>` writes a space; whitespace is collapsed.
//!
//! With [`Syntax::Html5`] (the default) the tokenizer is more robust than texrex's, and where
//! texrex loses text a browser shows it recovers as HTML5 does: quotes count only around
//! attribute values; `script`/`style`-like elements are raw text up to their end tag, and end
//! at once when there is none; a page without `<body>` still yields its text (texrex yields
//! nothing); a later `<body>` or `</body>` does not end the text; an element that cannot be in
//! the head ends it; `form` and `code` write their text (`select` and `textarea` do not). The element stack
//! behind the cues and regions closes `p`, `li`, `dd` and `dt` where HTML5 implies their end. Its cost is
//! linear in the input whatever the nesting; depth, block count and work are capped ([`Limits`]).
//!
//! Where each part is, from the bottom up (a file uses only those above it in this list, and
//! `segmenter.rs`, whose state the files after it work on):
//!
//! - `raw.rs`: the raw text ([`raw_text`], [`raw_text_lines`]) that block positions index into.
//! - `tags.rs`: the lists of element names the tokenizers and the block rules go by.
//! - `scan.rs`: scanning inside markup, shared within the crate: where a tag or an element
//!   ends, [`attributes`], HTML whitespace.
//! - `mark.rs`: the [`mark`]s of inline markup in a block's shown text.
//! - `markup.rs`: the words of `class` and `id` values ([`markup_token`], [`markup_words`]).
//! - `cue.rs`: the structural [`cue`]s, and the cues of tag names and attributes.
//! - `kind.rs`: what a block is ([`Kind`](crate::document::Kind)).
//! - `block.rs`: a block ([`RawBlock`], [`Container`]) and how its shown text is appended to.
//! - `clues.rs`: clues to metadata in the markup ([`Clues`]).
//! - `doctype.rs`: the document type by texrex's patterns ([`Doctype`](crate::document::Doctype)).
//! - `segmenter.rs`: [`segment`] and its results ([`Segmentation`], [`HeadMeta`],
//!   [`Anchor`], [`Limits`], [`Cap`](crate::document::Cap), [`Syntax`]); the segmenter's state (an open element
//!   included); the walk from tag to tag; texrex's block rules: where the text starts and
//!   ends, drop containers, break tags, `NewDiv`.
//! - `tokenizer.rs`: HTML5 tokenizing: comments, CDATA, tags, raw-text and RCDATA content.
//! - `texrex_syntax.rs`: texrex's own scanner, bugs included ([`Syntax::Texrex`]).
//! - `elements.rs`: the stack of open elements: pushing, implied and bounded closing, tables.
//! - `text.rs`: writing text, line breaks and marks into blocks.
//! - `head.rs`: what head tags, `<meta>` and `<link>` clues and JSON-LD say about the page.

mod block;
mod clues;
pub mod cue;
mod doctype;
mod elements;
mod head;
mod kind;
pub mod mark;
mod markup;
mod raw;
mod scan;
mod segmenter;
mod tags;
mod texrex_syntax;
mod text;
mod tokenizer;

pub use block::{Container, NEAR, RawBlock};
pub use clues::{Clue, ClueKind, Clues};
pub use markup::{markup_token, markup_words};
pub use raw::{raw_text, raw_text_lines};
pub use scan::attributes;
pub(crate) use scan::{find_end_tag, find_tag_end, is_html_ws};
pub use segmenter::{Anchor, HeadMeta, Limits, Segmentation, Syntax, segment, segment_lines};
pub(crate) use tags::{RAW_TEXT, VOID};

//! The lists of element names that the tokenizer and the block rules go by: void, raw-text
//! and RCDATA elements; texrex's break tags and drop containers; jusText's block tags; further
//! HTML5 blocks; what may be in the head; the start tags that close a `p`. [`tag_sets`] tells
//! which lists a name is on in one lookup.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

/// texrex's drop containers: elements whose content writes no text.
const TEXREX_DROP: [&[u8]; 8] = [
    b"script", b"style", b"head", b"form", b"applet", b"code", b"audio", b"video",
];

/// Drop containers with HTML5 syntax: texrex's, except `form`, which on many sites (ASP.NET's
/// page-wide form) wraps the whole page, and `code`, whose text the page shows (code samples
/// and commands are the text of documentation pages); the form controls with text of their
/// own are dropped instead.
const HTML5_DROP: [&[u8]; 8] = [
    b"script",
    b"style",
    b"head",
    b"applet",
    b"audio",
    b"video",
    b"select",
    b"textarea",
];

/// texrex's break tags: each opens a new block.
const BREAK_TAGS: [&[u8]; 13] = [
    b"div",
    b"p",
    b"li",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"blockquote",
    b"td",
    b"article",
    b"section",
];

/// jusText's block tags (seed 001); with HTML5 syntax they open blocks too, and each starts a
/// jusText paragraph.
const JUSTEXT_TAGS: [&[u8]; 31] = [
    b"blockquote",
    b"caption",
    b"center",
    b"col",
    b"colgroup",
    b"dd",
    b"div",
    b"dl",
    b"dt",
    b"fieldset",
    b"form",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"legend",
    b"li",
    b"optgroup",
    b"option",
    b"p",
    b"pre",
    b"table",
    b"td",
    b"textarea",
    b"tfoot",
    b"th",
    b"thead",
    b"tr",
    b"ul",
];

/// Further HTML5 block elements that open blocks with HTML5 syntax (as boilerpipe's atomic
/// blocks end at every block element), without starting a jusText paragraph.
const HTML5_BLOCKS: [&[u8]; 12] = [
    b"article",
    b"section",
    b"nav",
    b"header",
    b"footer",
    b"aside",
    b"main",
    b"figure",
    b"figcaption",
    b"ol",
    b"address",
    b"tbody",
];

/// Elements that may appear in the head (HTML5's "in head" insertion mode).
const HEAD_CONTENT: [&[u8]; 11] = [
    b"base",
    b"basefont",
    b"bgsound",
    b"link",
    b"meta",
    b"title",
    b"noscript",
    b"script",
    b"style",
    b"template",
    b"head",
];

/// Elements whose content is not markup: skipped up to their end tag.
pub(crate) const RAW_TEXT: [&[u8]; 6] = [
    b"script",
    b"style",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
];
/// Elements whose content is text but not markup.
const RCDATA: [&[u8]; 2] = [b"title", b"textarea"];

/// Void elements: they have no content and no end tag.
pub(crate) const VOID: [&[u8]; 16] = [
    b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta", b"param",
    b"source", b"track", b"wbr", b"keygen", b"command",
];

/// Start tags that end an open `<p>` (HTML5's "close a p element").
const CLOSE_P: [&[u8]; 35] = [
    b"li",
    b"dd",
    b"dt",
    b"pre",
    b"section",
    b"ul",
    b"table",
    b"address",
    b"article",
    b"aside",
    b"blockquote",
    b"center",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"form",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"header",
    b"hr",
    b"main",
    b"menu",
    b"nav",
    b"ol",
    b"p",
];

/// Bits of [`tag_sets`]: one per list of tag names above.
pub(super) mod set {
    /// On `VOID`: void elements.
    pub(crate) const VOID: u16 = 1 << 0;
    /// On `RAW_TEXT`: raw-text elements.
    pub(crate) const RAW_TEXT: u16 = 1 << 1;
    /// On `RCDATA`: elements whose content is text but not markup.
    pub(crate) const RCDATA: u16 = 1 << 2;
    /// On `CLOSE_P`: start tags that end an open `<p>`.
    pub(crate) const CLOSE_P: u16 = 1 << 3;
    /// On `TEXREX_DROP`: texrex's drop containers.
    pub(crate) const TEXREX_DROP: u16 = 1 << 4;
    /// On `HTML5_DROP`: drop containers with HTML5 syntax.
    pub(crate) const HTML5_DROP: u16 = 1 << 5;
    /// On `BREAK_TAGS`: texrex's break tags.
    pub(crate) const BREAK: u16 = 1 << 6;
    /// On `JUSTEXT_TAGS`: jusText's block tags.
    pub(crate) const JUSTEXT: u16 = 1 << 7;
    /// On `HTML5_BLOCKS`: further HTML5 block elements.
    pub(crate) const HTML5_BLOCK: u16 = 1 << 8;
    /// On `HEAD_CONTENT`: elements that may appear in the head.
    pub(crate) const HEAD_CONTENT: u16 = 1 << 9;
}

/// The lists a lower-case tag name (without `/`) is on, as [`set`] bits: one hash lookup per
/// tag instead of a scan of every list.
pub(super) fn tag_sets(name: &[u8]) -> u16 {
    static SETS: OnceLock<FxHashMap<&'static [u8], u16>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        let lists: [(&[&[u8]], u16); 10] = [
            (&VOID, set::VOID),
            (&RAW_TEXT, set::RAW_TEXT),
            (&RCDATA, set::RCDATA),
            (&CLOSE_P, set::CLOSE_P),
            (&TEXREX_DROP, set::TEXREX_DROP),
            (&HTML5_DROP, set::HTML5_DROP),
            (&BREAK_TAGS, set::BREAK),
            (&JUSTEXT_TAGS, set::JUSTEXT),
            (&HTML5_BLOCKS, set::HTML5_BLOCK),
            (&HEAD_CONTENT, set::HEAD_CONTENT),
        ];
        let mut sets = FxHashMap::default();
        for (list, bit) in lists {
            for name in list {
                *sets.entry(*name).or_insert(0) |= bit;
            }
        }
        sets
    });
    sets.get(name).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html5_blocks_include_texrex_break_tags() {
        assert!(
            BREAK_TAGS
                .iter()
                .all(|t| JUSTEXT_TAGS.contains(t) || HTML5_BLOCKS.contains(t))
        );
    }
}

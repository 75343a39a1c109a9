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

use std::sync::OnceLock;

use memchr::{memchr, memmem};
use rustc_hash::FxHashMap;

mod clues;
mod kind;
pub use clues::{Clue, ClueKind, Clues};
pub use kind::Kind;

/// The raw text of a record as texrex's reader builds it: each line, terminated by LF or CR
/// (a CR right after LF belongs to that LF; NUL bytes are dropped), becomes `' ' + line + ' '`.
/// An empty last line (the record ends in two line ends) is not counted, as in texrex's
/// output for its own training pages.
pub fn raw_text(record: &[u8]) -> Vec<u8> {
    raw_text_lines(record).0
}

/// [`raw_text`] and the positions of its line ends (the space after each line), which
/// [`segment_lines`] needs to keep the lines of preformatted text.
pub fn raw_text_lines(record: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::with_capacity(record.len() + record.len() / 32 + 16);
    let mut line_ends = Vec::new();
    let mut i = 0;
    let n = record.len();
    while i < n {
        let end = memchr::memchr2(b'\n', b'\r', &record[i..]).map_or(n, |o| i + o);
        if end == i && end + 1 == n {
            break;
        }
        out.push(b' ');
        let line = &record[i..end];
        if memchr(0, line).is_some() {
            out.extend(line.iter().copied().filter(|&b| b != 0));
        } else {
            out.extend_from_slice(line);
        }
        line_ends.push(out.len());
        out.push(b' ');
        if end == n {
            break;
        }
        i = end + 1;
        if record[end] == b'\n' && i < n && record[i] == b'\r' {
            i += 1;
        }
    }
    (out, line_ends)
}

/// Document type found in the part before `<body>` (texrex's regexes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Doctype {
    #[default]
    Unknown,
    Xhtml,
    Html4,
    Html5,
}

impl Doctype {
    /// Name as written in `sourcedoctype`.
    pub fn as_str(self) -> &'static str {
        match self {
            Doctype::Unknown => "UNKNOWN",
            Doctype::Xhtml => "XHTML",
            Doctype::Html4 => "HTML4",
            Doctype::Html5 => "HTML5",
        }
    }
}

/// The break tag that opened a block (texrex's container types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Container {
    #[default]
    Unknown,
    Article,
    Section,
    Div,
    P,
    H,
    Blockquote,
    Td,
    Li,
}

impl Container {
    fn from_tag(name: &[u8]) -> Option<Container> {
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
    /// The `href`s of the links whose text `shown` marks ([`mark`]), in order (HTML5 syntax).
    pub links: Vec<Vec<u8>>,
    /// What it is (heading, paragraph, list item, …), from the elements around its first text.
    pub kind: Kind,
    /// Position right after the tag that opened the block.
    pub first_raw: usize,
    /// Position of the `>` of the tag that closed the block.
    pub last_raw: usize,
    pub open_tags: u32,
    pub close_tags: u32,
    pub anchors: u32,
    /// Empty potential blocks skipped right before this one.
    pub skipped_divs: u32,
    pub container: Container,
    /// The block was opened by an end tag (`</div>` etc.).
    pub closing_start: bool,
    /// Text bytes inside `<a>` elements (whitespace collapsed, entities undecoded).
    pub link_bytes: u32,
    /// Words that start inside `<a>` elements.
    pub link_words: u32,
    /// [`cue`] bits of the elements around the block's text, OR-ed over all of it.
    pub cues: u32,
    /// [`cue`] bits of the innermost [`NEAR`] elements around its first text alone: what the
    /// block's own container says, apart from what the page around it says.
    pub near_cues: u32,
    /// The block starts a jusText paragraph: it was opened by one of jusText's block tags, by
    /// two `<br>`, or it is the first block. Blocks opened otherwise (`article`, `nav`, …)
    /// continue the paragraph before them.
    pub paragraph_start: bool,
    /// The path (tag names and classes) of the element its first text is in: blocks of
    /// repeated elements of one kind (the items of a list, a grid of teasers) share it.
    pub path: u64,
    /// Open elements around its first text.
    pub depth: u16,
    /// The [`markup_token`]s of the `class` and `id` values of the elements around its first
    /// text (at most `MAX_BLOCK_TOKENS`, the innermost elements' first), sorted, distinct.
    pub markup: Vec<u32>,
}

/// Bytes that mark inline markup in [`RawBlock::shown`] (with HTML5 syntax): emphasis
/// (`em`, `i`), strong emphasis (`strong`, `b`), code (`code`, `kbd`, `samp`, `tt` outside
/// `pre`) and links (`a href`, the `n`-th of [`RawBlock::links`] for the `n`-th opening).
/// They are ASCII controls, which no text keeps (they are not XML characters): the page's
/// own are dropped from `shown`, and every text but the Markdown writer's drops these.
pub mod mark {
    pub const EM: u8 = 0x01;
    pub const EM_END: u8 = 0x02;
    pub const STRONG: u8 = 0x03;
    pub const STRONG_END: u8 = 0x04;
    pub const CODE: u8 = 0x05;
    pub const CODE_END: u8 = 0x06;
    pub const LINK: u8 = 0x0e;
    pub const LINK_END: u8 = 0x0f;

    /// Whether a byte is a mark (or a control the page's text may not keep in `shown`).
    pub fn is_mark(b: u8) -> bool {
        matches!(b, 0x01..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f)
    }
}

/// How many of the innermost open elements make a block's [`RawBlock::near_cues`].
pub const NEAR: usize = 3;

/// Structural cues of a block: bits for the elements its text is in (tag names, and tokens of
/// their `class`, `id` and `role` attributes), inherited from all ancestors.
pub mod cue {
    /// Inside `<a>`.
    pub const LINK: u32 = 1 << 0;
    /// Inside `h1`.
    pub const H1: u32 = 1 << 1;
    /// Inside `h1`…`h6`.
    pub const HEADING: u32 = 1 << 2;
    /// Inside `ul`, `ol` or `dl`.
    pub const LIST: u32 = 1 << 3;
    pub const TABLE: u32 = 1 << 4;
    pub const FORM: u32 = 1 << 5;
    /// `<nav>`, or a token like nav, menu, breadcrumb, pagination.
    pub const NAV: u32 = 1 << 6;
    /// `<header>`, or header, masthead, banner, topbar.
    pub const HEADER: u32 = 1 << 7;
    /// `<footer>`, or footer, copyright, contentinfo.
    pub const FOOTER: u32 = 1 << 8;
    /// `<aside>`, or sidebar, widget, related, recommended, popular, promo, sponsor, advert.
    pub const ASIDE: u32 = 1 << 9;
    /// comment, reply, respond, discuss, disqus.
    pub const COMMENT: u32 = 1 << 10;
    /// share, social, facebook, twitter, newsletter, subscribe, follow.
    pub const SHARE: u32 = 1 << 11;
    /// `<article>` or `<main>`, or article, content, post, entry, story, main, body, text.
    pub const ARTICLE: u32 = 1 << 12;
    /// byline, author, date, time, meta, tags, caption, credit.
    pub const META: u32 = 1 << 13;
    /// `blockquote`, `pre`, `figure`, `figcaption`, `caption`.
    pub const QUOTE: u32 = 1 << 14;
    /// `p`: running text markup.
    pub const P: u32 = 1 << 15;
    /// `<main>` or `role="main"`: the page's own statement of its main content.
    pub const MAIN: u32 = 1 << 16;
    /// An `<article>` element (the tag itself, not a class name).
    pub const ARTICLE_TAG: u32 = 1 << 17;
    /// `itemprop` articleBody, text, reviewBody or description: the body of a schema.org item.
    pub const BODY_PROP: u32 = 1 << 18;
    /// Not rendered: the `hidden` attribute, `aria-hidden="true"`, an inline `display:none` or
    /// `visibility:hidden`, `<template>`, or text for screen readers only (sr-only,
    /// visually-hidden, screen-reader).
    pub const HIDDEN: u32 = 1 << 19;
    /// `<dialog>`, or cookie, consent, gdpr, modal, popup, overlay.
    pub const MODAL: u32 = 1 << 20;
    /// Controls: `<button>`, `<label>`, `<option>`, or `role` button, tab, menuitem, switch.
    pub const CONTROL: u32 = 1 << 21;
    /// Number of cue bits.
    pub const COUNT: usize = 22;
    /// The cues' names, bit by bit.
    pub const NAMES: [&str; COUNT] = [
        "link",
        "h1",
        "heading",
        "list",
        "table",
        "form",
        "nav",
        "header",
        "footer",
        "aside",
        "comment",
        "share",
        "article",
        "meta",
        "quote",
        "p",
        "main",
        "article_tag",
        "body_prop",
        "hidden",
        "modal",
        "control",
    ];
}

/// Values from `<title>` and `<meta name=…>` before `<body>`, in the source encoding.
#[derive(Debug, Clone, Default)]
pub struct HeadMeta {
    pub title: Option<Vec<u8>>,
    pub keywords: Option<Vec<u8>>,
    pub description: Option<Vec<u8>>,
    pub author: Option<Vec<u8>>,
    /// `<meta property="og:title">`.
    pub og_title: Option<Vec<u8>>,
    /// `<meta property="og:type">`.
    pub og_type: Option<Vec<u8>>,
    /// `<base href=…>`.
    pub base: Option<Vec<u8>>,
}

/// An `<a>` tag in the text: the block it is in and where its attributes are in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Anchor {
    pub block: usize,
    pub attrs: (usize, usize),
}

/// Why segmentation stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    Depth,
    Blocks,
    Work,
}

impl Cap {
    /// The cap's name in the statistics (`capped`).
    pub fn name(self) -> &'static str {
        match self {
            Cap::Depth => "depth",
            Cap::Blocks => "blocks",
            Cap::Work => "work",
        }
    }
}

/// How tags are recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Syntax {
    /// HTML5 tokenizing: quotes only around attribute values, `script`/`style` and similar
    /// elements are raw text, tag names end at white space or `/`.
    #[default]
    Html5,
    /// texrex's own scanner, bugs included (a stray quote swallows markup up to the next
    /// matching quote; `<` inside scripts starts tags; names end only at a space or `>`).
    /// Reproduces texrex's features on the pages its networks were trained on.
    Texrex,
}

/// Caps that bound the work per document.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Limits {
    /// Maximum number of open (unclosed, non-void) elements.
    pub max_depth: usize,
    /// Maximum number of blocks (each costs a few KB of memory while the page is analysed;
    /// the largest of the 3,901 development pages has 3,362).
    pub max_blocks: usize,
    /// The work budget of a page ([`Segmentation::work`]): tags, plus for every block the
    /// elements open where it starts (what the cues, regions and features of a block cost).
    /// Counted, not timed, so a page is cut at the same place on every machine.
    pub max_work: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 10_000,
            max_blocks: 20_000,
            max_work: 10_000_000,
        }
    }
}

/// The result of segmenting one record.
#[derive(Debug, Clone, Default)]
pub struct Segmentation {
    /// All blocks in order; the last one may be empty (texrex keeps it, invalid).
    pub blocks: Vec<RawBlock>,
    pub doctype: Doctype,
    pub head: HeadMeta,
    /// False when the page has no `<body>` and the text was taken after the head.
    pub body_found: bool,
    /// Set when a cap stopped segmentation; the blocks so far are kept.
    pub capped: Option<Cap>,
    /// The work counted against [`Limits::max_work`].
    pub work: u64,
    /// `<a>` tags in the text, in order (HTML5 syntax only).
    pub anchors: Vec<Anchor>,
    /// Elements whose text spans more than one block: the first and last block with their
    /// text (indices into `blocks`), in the order the elements closed.
    pub regions: Vec<(u32, u32)>,
    /// The contents of `<script type="application/ld+json">` elements, up to
    /// `MAX_JSON_LD` bytes in all (HTML5 syntax only).
    pub json_ld: Vec<Vec<u8>>,
    /// What the markup says about the page: meta values, dates, authors.
    pub clues: Clues,
}

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

pub(crate) const VOID: [&[u8]; 16] = [
    b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta", b"param",
    b"source", b"track", b"wbr", b"keygen", b"command",
];

/// Bits of [`tag_sets`]: one per list of tag names above.
mod set {
    pub const VOID: u16 = 1 << 0;
    pub const RAW_TEXT: u16 = 1 << 1;
    pub const RCDATA: u16 = 1 << 2;
    pub const CLOSE_P: u16 = 1 << 3;
    pub const TEXREX_DROP: u16 = 1 << 4;
    pub const HTML5_DROP: u16 = 1 << 5;
    pub const BREAK: u16 = 1 << 6;
    pub const JUSTEXT: u16 = 1 << 7;
    pub const HTML5_BLOCK: u16 = 1 << 8;
    pub const HEAD_CONTENT: u16 = 1 << 9;
}

/// The lists a lower-case tag name (without `/`) is on, as [`set`] bits: one hash lookup per
/// tag instead of a scan of every list.
fn tag_sets(name: &[u8]) -> u16 {
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    OutsideDoc,
    Markup,
    Text,
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | b' ')
}

#[inline]
pub(crate) fn is_html_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | b' ' | 0x0c)
}

struct Stripper<'a> {
    raw: &'a [u8],
    /// Positions of the raw text's line ends ([`raw_text_lines`]).
    line_ends: &'a [usize],
    syntax: Syntax,
    limits: Limits,
    blocks: Vec<RawBlock>,
    cur: Option<usize>,
    skipped: u32,
    state: State,
    drop_close: Option<Vec<u8>>,
    depth: usize,
    capped: Option<Cap>,
    /// Work so far ([`Limits::max_work`]).
    work: u64,
    head: HeadMeta,
    clues: Clues,
    /// For each of `clues.found`, where the text of its element goes besides ([`Open::capture`]
    /// of its parent), so that an author link's text is also its byline's.
    clue_parents: Vec<u16>,
    /// Position right after the `<body>` tag (end of texrex's RawHeader).
    header_end: Option<usize>,
    /// Position right after the first `</head>`, for pages without `<body>`.
    head_end: Option<usize>,
    name: Vec<u8>,
    /// Raw-text and RCDATA elements with no end tag at or after the given position.
    unclosed: Vec<(Vec<u8>, usize)>,
    anchors: Vec<Anchor>,
    /// Open elements.
    stack: Vec<Open>,
    /// Open elements from this index on have no text yet.
    untexted: usize,
    /// The block that got text last.
    last_text: u32,
    regions: Vec<(u32, u32)>,
    /// Where the current tag's attributes are in the input (empty with texrex syntax).
    attrs: (usize, usize),
    /// The last start tag was a `<br>` and no text followed it (jusText's double-br rule).
    br_pending: bool,
    json_ld: Vec<Vec<u8>>,
    json_ld_bytes: usize,
    /// The markup tokens of the open elements, outermost first ([`Open::tokens`]).
    tokens: Vec<u32>,
    /// The last block's window of `tokens` and its sorted, deduplicated set: consecutive
    /// blocks often start under the same elements.
    block_tokens: (Vec<u32>, Vec<u32>),
}

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

/// Elements an implied end tag is not searched beyond (HTML5's scope boundaries, roughly), as
/// [`name_key`]s.
const SCOPE_KEYS: [u64; 10] = {
    let names: [&[u8]; 10] = [
        b"table",
        b"td",
        b"th",
        b"caption",
        b"button",
        b"html",
        b"object",
        b"template",
        b"ul",
        b"ol",
    ];
    let mut keys = [0; 10];
    let mut i = 0;
    while i < 10 {
        keys[i] = name_key(names[i]);
        i += 1;
    }
    keys
};
/// An open element: its name key ([`name_key`]), the [`cue`] bits of it and its ancestors,
/// and the first block with its text ([`NO_TEXT`] while it has none).
#[derive(Debug, Clone, Copy)]
struct Open {
    key: u64,
    cues: u32,
    /// The [`cue`] bits of the element itself (not inherited).
    own: u32,
    first: u32,
    /// The path of tag names and classes from the root ([`path_key`]).
    path: u64,
    /// Where its markup tokens start in the stripper's token stack.
    tokens: u32,
    /// It or an element around it keeps its whitespace (`pre`, `listing`, `code`).
    pre: bool,
    /// The kind of text inside it.
    ctx: kind::Context,
    /// Stack position of the innermost `table` it is in or is ([`NO_TABLE`] outside tables).
    table: u32,
    /// For a `table`: its rows so far, and the columns so far of its last row.
    rows: u32,
    cols: u32,
    /// 1 + the index of the clue ([`Clues::found`]) its text goes to, 0 for none.
    capture: u16,
    /// The [`mark`] that ends it, written into block `mark_block`'s shown text when it
    /// closes in that block (0: none).
    mark_end: u8,
    mark_block: u32,
}

const NO_TABLE: u32 = u32::MAX;

const NO_TEXT: u32 = u32::MAX;

/// Elements searched for a matching end tag: an end tag that matches nothing this close to
/// the top of the stack is ignored, which keeps segmentation linear in the input.
const STACK_SEARCH: usize = 256;

/// Up to 8 bytes of a lower-case tag name, packed.
const fn name_key(name: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    let mut i = 0;
    while i < name.len() && i < 8 {
        k[i] = name[i];
        i += 1;
    }
    u64::from_le_bytes(k)
}

/// The [`cue`] bits a tag name sets.
fn tag_cues(name: &[u8]) -> u32 {
    match name {
        b"a" => cue::LINK,
        b"h1" => cue::H1 | cue::HEADING,
        b"h2" | b"h3" | b"h4" | b"h5" | b"h6" => cue::HEADING,
        b"ul" | b"ol" | b"dl" => cue::LIST,
        b"table" => cue::TABLE,
        b"form" => cue::FORM,
        b"nav" => cue::NAV,
        b"header" => cue::HEADER,
        b"footer" => cue::FOOTER,
        b"aside" => cue::ASIDE,
        b"article" => cue::ARTICLE | cue::ARTICLE_TAG,
        b"main" => cue::ARTICLE | cue::MAIN,
        b"template" => cue::HIDDEN,
        b"dialog" => cue::MODAL,
        b"button" | b"label" | b"option" => cue::CONTROL,
        b"time" | b"address" => cue::META,
        b"blockquote" | b"pre" | b"figure" | b"figcaption" | b"caption" => cue::QUOTE,
        b"p" => cue::P,
        _ => 0,
    }
}

/// Substrings of `class`, `id` and `role` values, with the cue each sets (0: none, a word of
/// [`clues::element_clue`]'s datelines only).
const ATTR_CUES: [(&str, u32); 60] = [
    ("nav", cue::NAV),
    ("menu", cue::NAV),
    ("breadcrumb", cue::NAV),
    ("pagination", cue::NAV),
    ("pager", cue::NAV),
    ("toolbar", cue::NAV),
    ("skip", cue::NAV),
    ("header", cue::HEADER),
    ("masthead", cue::HEADER),
    ("banner", cue::HEADER),
    ("topbar", cue::HEADER),
    ("logo", cue::HEADER),
    ("footer", cue::FOOTER),
    ("copyright", cue::FOOTER),
    ("contentinfo", cue::FOOTER),
    ("legal", cue::FOOTER),
    ("sidebar", cue::ASIDE),
    ("widget", cue::ASIDE),
    ("related", cue::ASIDE),
    ("recommend", cue::ASIDE),
    ("popular", cue::ASIDE),
    ("promo", cue::ASIDE),
    ("sponsor", cue::ASIDE),
    ("advert", cue::ASIDE),
    ("complementary", cue::ASIDE),
    ("teaser", cue::ASIDE),
    ("comment", cue::COMMENT),
    ("reply", cue::COMMENT),
    ("respond", cue::COMMENT),
    ("discuss", cue::COMMENT),
    ("disqus", cue::COMMENT),
    ("share", cue::SHARE),
    ("social", cue::SHARE),
    ("facebook", cue::SHARE),
    ("twitter", cue::SHARE),
    ("newsletter", cue::SHARE),
    ("subscribe", cue::SHARE),
    ("article", cue::ARTICLE),
    ("content", cue::ARTICLE),
    ("post", cue::ARTICLE),
    ("entry", cue::ARTICLE),
    ("story", cue::ARTICLE),
    ("main", cue::ARTICLE),
    ("byline", cue::META),
    ("author", cue::META),
    ("date", cue::META),
    ("publish", 0),
    ("posted", 0),
    ("timestamp", 0),
    ("caption", cue::META),
    ("cookie", cue::MODAL),
    ("consent", cue::MODAL),
    ("gdpr", cue::MODAL),
    ("modal", cue::MODAL),
    ("popup", cue::MODAL),
    ("overlay", cue::MODAL),
    ("sr-only", cue::HIDDEN),
    ("visually-hidden", cue::HIDDEN),
    ("visuallyhidden", cue::HIDDEN),
    ("screen-reader", cue::HIDDEN),
];

/// The [`cue`] bits of a start tag's attributes: tokens of `class`, `id` and `role`; `role`
/// main and control roles; `itemprop` of an item's body; and what hides an element (`hidden`,
/// `aria-hidden="true"`, an inline `display:none` or `visibility:hidden`). Also whether the
/// tag may give a clue to metadata ([`clues::element_clue`]: an `itemprop` or `rel`
/// attribute, or a byline or dateline word in `class` or `id`), so that only those are read
/// again.
fn attr_cues(attrs: &[u8], tokens: &mut Vec<u32>) -> (u32, u64, bool) {
    use std::sync::LazyLock;
    static FINDER: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(ATTR_CUES.iter().map(|(p, _)| p))
            .expect("valid patterns")
    });
    if attrs.len() < 4 {
        return (0, 0, false);
    }
    let (mut cues, mut class, mut clue) = (0, 0, false);
    let is = |k: &[u8], name: &[u8]| k.eq_ignore_ascii_case(name);
    for (k, v) in attributes(attrs) {
        if is(k, b"class") {
            class = class_key(v);
        }
        if is(k, b"class") || is(k, b"id") {
            markup_tokens(v, tokens);
        }
        if is(k, b"class") || is(k, b"id") || is(k, b"role") {
            for m in FINDER.find_overlapping_iter(v) {
                let c = ATTR_CUES[m.pattern().as_usize()].1;
                cues |= c;
                clue |= c == 0 || c == cue::META;
            }
            if is(k, b"role") {
                for t in v.split(|&b| is_html_ws(b)) {
                    if is(t, b"main") {
                        cues |= cue::MAIN;
                    } else if [&b"button"[..], b"tab", b"menuitem", b"switch"]
                        .iter()
                        .any(|r| is(t, r))
                    {
                        cues |= cue::CONTROL;
                    }
                }
            }
        } else if is(k, b"hidden") || (is(k, b"aria-hidden") && is(v, b"true")) {
            cues |= cue::HIDDEN;
        } else if is(k, b"style") {
            let style: Vec<u8> = v
                .iter()
                .filter(|b| !is_html_ws(**b))
                .map(u8::to_ascii_lowercase)
                .collect();
            if memmem::find(&style, b"display:none").is_some()
                || memmem::find(&style, b"visibility:hidden").is_some()
            {
                cues |= cue::HIDDEN;
            }
        } else if is(k, b"rel") {
            clue = true;
        } else if is(k, b"itemprop") {
            clue = true;
            let body = [&b"articlebody"[..], b"text", b"reviewbody", b"description"];
            if v.split(|&b| is_html_ws(b))
                .any(|t| body.iter().any(|n| is(t, n)))
            {
                cues |= cue::BODY_PROP;
            }
        }
    }
    (cues, class, clue)
}

/// The words of a `class` or `id` value as [`markup_token`]s, appended to `out`.
fn markup_tokens(v: &[u8], out: &mut Vec<u32>) {
    split_markup(v, |word| out.push(markup_token(word)));
}

/// The words of a `class` or `id` value: runs of ASCII letters, split where a lower-case letter
/// meets an upper-case one (`postBody` is post and body), of 2 to 24 letters.
fn split_markup(v: &[u8], mut each: impl FnMut(&[u8])) {
    let mut start = None;
    let mut push = |word: &[u8]| {
        if (2..=24).contains(&word.len()) {
            each(word);
        }
    };
    for (i, &b) in v.iter().enumerate() {
        let letter = b.is_ascii_alphabetic();
        let camel = letter && b.is_ascii_uppercase() && i > 0 && v[i - 1].is_ascii_lowercase();
        match start {
            Some(s) if !letter || camel => {
                push(&v[s..i]);
                start = letter.then_some(i);
            }
            None if letter => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        push(&v[s..]);
    }
}

/// The distinct words of every `class` and `id` value of a page, lower-cased (the words
/// behind the [`markup_token`]s of its blocks).
pub fn markup_words(page: &[u8]) -> Vec<Vec<u8>> {
    let mut words = std::collections::BTreeSet::new();
    let mut pos = 0;
    while let Some(lt) = memchr(b'<', &page[pos..]).map(|o| pos + o) {
        let mut i = lt + 1;
        while i < page.len() && page[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i == lt + 1 {
            pos = lt + 1;
            continue;
        }
        let (gt, _) = find_tag_end(page, i);
        let Some(gt) = gt else { break };
        for (k, v) in attributes(&page[i..gt]) {
            if k.eq_ignore_ascii_case(b"class") || k.eq_ignore_ascii_case(b"id") {
                split_markup(v, |w| {
                    words.insert(w.to_ascii_lowercase());
                });
            }
        }
        pos = gt + 1;
    }
    words.into_iter().collect()
}

/// The token of a word of markup (its lower-case letters hashed): what the markup model
/// ([`crate::classify::markup`]) knows words of `class` and `id` values by.
pub fn markup_token(word: &[u8]) -> u32 {
    let mut lower = [0u8; 64];
    if word.len() <= lower.len() {
        let lower = &mut lower[..word.len()];
        lower.copy_from_slice(word);
        lower.make_ascii_lowercase();
        xxhash_rust::xxh3::xxh3_64(lower) as u32
    } else {
        xxhash_rust::xxh3::xxh3_64(&word.to_ascii_lowercase()) as u32
    }
}

/// The most markup tokens kept per block (the innermost elements' first).
const MAX_BLOCK_TOKENS: usize = 64;

/// A hash of a `class` value without its digits, so that repeated elements of one kind
/// (`item-1`, `item-2`) share it.
fn class_key(v: &[u8]) -> u64 {
    if !v.iter().any(u8::is_ascii_digit) {
        return xxhash_rust::xxh3::xxh3_64(v);
    }
    let letters: Vec<u8> = v.iter().copied().filter(|b| !b.is_ascii_digit()).collect();
    xxhash_rust::xxh3::xxh3_64(&letters)
}

/// The path key of an element: its parent's, its name and its class ([`class_key`]) mixed.
fn path_key(parent: u64, name: u64, class: u64) -> u64 {
    (parent.rotate_left(7) ^ name ^ class.rotate_left(31)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Whether a `<script>` tag's attributes say it holds JSON-LD.
fn is_json_ld(attrs: &[u8]) -> bool {
    attributes(attrs).any(|(k, v)| {
        k.eq_ignore_ascii_case(b"type")
            && v.trim_ascii().eq_ignore_ascii_case(b"application/ld+json")
    })
}

/// The most JSON-LD kept per page, in bytes (the rest is ignored).
const MAX_JSON_LD: usize = 1 << 20;

/// Segment the raw text of a record (see [`raw_text`]) into blocks.
pub fn segment(raw: &[u8], limits: Limits, syntax: Syntax) -> Segmentation {
    segment_lines(raw, &[], limits, syntax)
}

/// [`segment`] a raw text whose line ends are known ([`raw_text_lines`]), so that
/// preformatted text keeps its lines in [`RawBlock::shown`].
pub fn segment_lines(
    raw: &[u8],
    line_ends: &[usize],
    limits: Limits,
    syntax: Syntax,
) -> Segmentation {
    let mut s = Stripper {
        raw,
        line_ends,
        syntax,
        limits,
        blocks: Vec::new(),
        cur: None,
        skipped: 0,
        state: State::OutsideDoc,
        drop_close: None,
        depth: 0,
        capped: None,
        work: 0,
        head: HeadMeta::default(),
        clues: Clues::default(),
        clue_parents: Vec::new(),
        header_end: None,
        head_end: None,
        name: Vec::with_capacity(16),
        unclosed: Vec::new(),
        anchors: Vec::new(),
        stack: Vec::new(),
        untexted: 0,
        last_text: 0,
        regions: Vec::new(),
        attrs: (0, 0),
        br_pending: false,
        json_ld: Vec::new(),
        json_ld_bytes: 0,
        tokens: Vec::new(),
        block_tokens: (Vec::new(), Vec::new()),
    };
    let mut end = s.run(0);
    let body_found = s.header_end.is_some();
    if !body_found && s.capped.is_none() {
        // No <body>: take the text after the head, as an HTML5 parser would.
        let start = s.head_end.unwrap_or(0);
        s.header_end = Some(start);
        s.state = State::Text;
        s.new_div(start, b"");
        end = s.run(start);
    }
    if s.cur.is_some() {
        s.new_div(end, b"");
    }
    s.close_to(0);
    let header = &raw[..s.header_end.unwrap_or(raw.len()).min(raw.len())];
    Segmentation {
        blocks: s.blocks,
        doctype: detect_doctype(header),
        head: s.head,
        clues: s.clues,
        body_found,
        capped: s.capped,
        work: s.work,
        anchors: s.anchors,
        regions: s.regions,
        json_ld: s.json_ld,
    }
}

/// The document type by texrex's patterns, the first that matches anywhere in the header:
/// `<!doctype.*xhtml 1.*>`, `<!doctype.*html 4.*>`, `<!doctype +html *>` (ASCII case
/// ignored, `.` not a line break). Matched by hand: every match starts at a `<!doctype` and
/// ends on its line, and on a minified page that line is the whole header.
fn detect_doctype(header: &[u8]) -> Doctype {
    let lines: Vec<&[u8]> = memmem::find_iter(header, b"<!")
        .filter(|&start| {
            header.len() >= start + 9
                && header[start + 2..start + 9].eq_ignore_ascii_case(b"doctype")
        })
        .map(|start| {
            let rest = &header[start..];
            &rest[..memchr(b'\n', rest).unwrap_or(rest.len())]
        })
        .collect();
    // `<!doctype.*WORD.*>`: WORD after the `<!doctype`, a `>` after WORD.
    let word_then_gt = |line: &[u8], word: &[u8]| {
        let Some(gt) = memchr::memrchr(b'>', line) else {
            return false;
        };
        let hay = &line[9..gt];
        memchr::memchr2_iter(word[0], word[0].to_ascii_uppercase(), hay).any(|i| {
            hay.get(i..i + word.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(word))
        })
    };
    // `<!doctype +html *>` from the line's start.
    let html5 = |line: &[u8]| {
        let spaces = |v: &[u8]| v.iter().take_while(|&&b| b == b' ').count();
        let rest = &line[9..];
        let n = spaces(rest);
        n > 0
            && rest.len() >= n + 4
            && rest[n..n + 4].eq_ignore_ascii_case(b"html")
            && rest[n + 4 + spaces(&rest[n + 4..])..].first() == Some(&b'>')
    };
    if lines.iter().any(|l| word_then_gt(l, b"xhtml 1")) {
        Doctype::Xhtml
    } else if lines.iter().any(|l| word_then_gt(l, b"html 4")) {
        Doctype::Html4
    } else if lines.iter().any(|l| html5(l)) {
        Doctype::Html5
    } else {
        Doctype::Unknown
    }
}

impl Stripper<'_> {
    /// Tokenize from `pos`; returns the position where segmentation stopped.
    fn run(&mut self, mut pos: usize) -> usize {
        let raw = self.raw;
        let n = raw.len();
        while pos < n {
            let lt = match memchr(b'<', &raw[pos..]) {
                Some(o) => pos + o,
                None => {
                    self.write_text(&raw[pos..]);
                    return n;
                }
            };
            self.write_text(&raw[pos..lt]);
            let Some(&c) = raw.get(lt + 1) else {
                self.write_text(b"<");
                return n;
            };
            if self.syntax == Syntax::Texrex {
                match self.texrex_tag(lt) {
                    Some(after) => {
                        pos = after;
                        if !self.on_tag(after, false) {
                            return after;
                        }
                    }
                    None => {
                        // A `<` that starts no tag: texrex writes it and the next character.
                        self.write_text(&raw[lt..lt + 2]);
                        pos = lt + 2;
                    }
                }
                continue;
            }
            if !(c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?')) {
                self.write_text(b"<");
                pos = lt + 1;
                continue;
            }
            // Comments and CDATA sections.
            if raw[lt + 1..].starts_with(b"!--") {
                let body = lt + 4;
                let end = if raw[body..].starts_with(b">") {
                    body + 1
                } else if raw[body..].starts_with(b"->") {
                    body + 2
                } else {
                    memmem::find(&raw[body..], b"-->").map_or(n, |o| body + o + 3)
                };
                self.name.clear();
                self.name.extend_from_slice(b"!--");
                pos = end;
                if !self.on_tag(end, false) {
                    return end;
                }
                continue;
            }
            if raw.len() >= lt + 9 && raw[lt + 1..lt + 9].eq_ignore_ascii_case(b"![cdata[") {
                // A CDATA section (in SVG or MathML) ends at `]]>`; anywhere else HTML5 reads
                // `<![CDATA[` as a bogus comment that ends at the first `>`. A stray one would
                // otherwise hide the rest of the page: the section is taken when its `]]>`
                // comes before the next tag.
                let body = lt + 9;
                let close = memmem::find(&raw[body..], b"]]>").map(|o| body + o + 3);
                let next_tag = memchr(b'<', &raw[body..]).map_or(n, |o| body + o);
                let end = match close {
                    Some(c) if c <= next_tag => c,
                    _ => memchr(b'>', &raw[body..]).map_or(n, |o| body + o + 1),
                };
                self.name.clear();
                self.name.extend_from_slice(b"![cdata[");
                pos = end;
                if !self.on_tag(end, false) {
                    return end;
                }
                continue;
            }
            // Regular tags, end tags, doctype and processing instructions.
            self.name.clear();
            let mut i = lt + 1;
            if c == b'/' {
                self.name.push(b'/');
                i += 1;
            }
            while i < n && !is_html_ws(raw[i]) && raw[i] != b'>' && raw[i] != b'/' {
                self.name.push(raw[i].to_ascii_lowercase());
                i += 1;
            }
            let bogus = matches!(c, b'!' | b'?') || (c == b'/' && self.name.len() == 1);
            let (gt, self_closing) = if bogus {
                (memchr(b'>', &raw[i..]).map(|o| i + o), false)
            } else {
                find_tag_end(raw, i)
            };
            let Some(gt) = gt else {
                // A tag cut off by the end of the input is dropped.
                return n;
            };
            let after = gt + 1;
            if !bogus && c != b'/' {
                if self.state == State::OutsideDoc {
                    self.collect_head(i, gt);
                } else if self.name == b"meta" || self.name == b"link" {
                    self.collect_clue_tag(i, gt);
                }
            }
            if self.name == b"a"
                && self.state == State::Text
                && let Some(block) = self.cur
            {
                self.anchors.push(Anchor {
                    block,
                    attrs: (i, gt),
                });
            }
            pos = after;
            self.attrs = if bogus { (0, 0) } else { (i, gt) };
            if !self.on_tag(after, self_closing) {
                return after;
            }
            self.attrs = (0, 0);
            // Raw text and RCDATA elements: their content is not markup.
            if c != b'/' && !self_closing {
                let name = self.name.as_slice();
                let sets = tag_sets(name);
                let rcdata = sets & set::RCDATA != 0;
                if rcdata || sets & set::RAW_TEXT != 0 {
                    // Without an end tag the element is taken to end right here (browsers of
                    // old did so for an unclosed `<title>`); otherwise one typo in the head
                    // would swallow the page. A failed search is remembered, so the cost stays
                    // linear however many such tags there are.
                    let unclosed = self
                        .unclosed
                        .iter()
                        .any(|(e, from)| e == name && *from <= after);
                    let Some(close) = (!unclosed)
                        .then(|| find_end_tag(raw, after, name))
                        .flatten()
                    else {
                        if !unclosed {
                            self.unclosed.push((name.to_vec(), after));
                        }
                        continue;
                    };
                    if name == b"script"
                        && self.json_ld_bytes + (close - after) <= MAX_JSON_LD
                        && is_json_ld(&raw[i..gt])
                    {
                        self.json_ld.push(raw[after..close].to_vec());
                        self.json_ld_bytes += close - after;
                    }
                    if rcdata {
                        let content = &raw[after..close];
                        if self.state == State::OutsideDoc
                            && name == b"title"
                            && self.head.title.is_none()
                        {
                            self.head.title = Some(collapse(content));
                        }
                        self.write_text(content);
                    }
                    pos = close;
                }
            }
        }
        n
    }

    /// texrex's `AdvanceToNextTag` from the `<` at `lt`: reads the tag name into `self.name`
    /// and returns the position after the tag, or None when the `<` starts no tag.
    fn texrex_tag(&mut self, lt: usize) -> Option<usize> {
        let raw = self.raw;
        let n = raw.len();
        self.name.clear();
        let mut i = lt + 1;
        // Reading the name.
        loop {
            if self.name == b"!--" {
                return Some(memmem::find(&raw[i..], b"-->").map_or(n, |o| i + o + 3));
            }
            if self.name.eq_ignore_ascii_case(b"![cdata[") {
                return Some(memmem::find(&raw[i..], b"]]>").map_or(n, |o| i + o + 3));
            }
            if i >= n {
                self.name.make_ascii_lowercase();
                return Some(n);
            }
            match raw[i] {
                b' ' => break,
                b'>' => {
                    self.name.make_ascii_lowercase();
                    return Some(i + 1);
                }
                b if i == lt + 1
                    && !(b.is_ascii_alphabetic() || matches!(b, b'/' | b'!' | b'?')) =>
                {
                    return None;
                }
                b => self.name.push(b),
            }
            i += 1;
        }
        self.name.make_ascii_lowercase();
        if self.state == State::OutsideDoc && self.name == b"meta" {
            let end = memchr(b'>', &raw[i..]).map_or(n, |o| i + o);
            self.collect_head(i, end);
        }
        // Skipping the rest, with quotes toggled wherever they appear.
        let mut quote = 0u8;
        while i < n {
            let b = raw[i];
            if quote == 0 {
                if b == b'\'' || b == b'"' {
                    quote = b;
                } else if b == b'>' {
                    return Some(i + 1);
                }
            } else if b == quote {
                quote = 0;
            }
            i += 1;
        }
        Some(n)
    }

    /// Apply texrex's per-tag rules to the tag in `self.name`; `after` is the position right
    /// after its `>`. Returns false when segmentation must stop.
    fn on_tag(&mut self, after: usize, self_closing: bool) -> bool {
        let name = std::mem::take(&mut self.name);
        let keep_going = self.on_tag_named(&name, after, self_closing);
        self.name = name;
        keep_going
    }

    fn on_tag_named(&mut self, name: &[u8], after: usize, self_closing: bool) -> bool {
        if name.is_empty() {
            return true;
        }
        self.work += 1;
        if self.work > self.limits.max_work {
            self.capped = Some(Cap::Work);
            return false;
        }
        if let Some(cur) = self.cur {
            let b = &mut self.blocks[cur];
            if name[0] == b'/' {
                b.close_tags += 1;
            } else {
                b.open_tags += 1;
            }
            if name[0] == b'a' {
                b.anchors += 1;
            }
        }
        let bare = name.strip_prefix(b"/");
        let start = bare.is_none();
        let bare = bare.unwrap_or(name);
        let sets = tag_sets(bare);
        let br = name == b"br" || name == b"br/";
        let double_br = br && self.br_pending && self.syntax == Syntax::Html5;
        if name[0] != b'/' {
            self.br_pending = br;
        }
        if br {
            self.write_text(b" ");
            self.line_break();
        }
        // Depth of open elements, for the nesting cap; the element stack, for the cues.
        if !start {
            self.depth = self.depth.saturating_sub(1);
            let k = name_key(bare);
            let from = self.stack.len().saturating_sub(STACK_SEARCH);
            if let Some(p) = self.stack[from..].iter().rposition(|e| e.key == k) {
                self.close_to(from + p);
            }
        } else if name[0].is_ascii_alphabetic() && !self_closing && sets & set::VOID == 0 {
            self.depth += 1;
            if self.depth > self.limits.max_depth {
                self.capped = Some(Cap::Depth);
                return false;
            }
            let k = name_key(name);
            // As in HTML5, these start tags end an open `p`, `li`, `dd` or `dt`.
            if sets & set::CLOSE_P != 0 {
                self.close_implied(b"p");
            }
            match name {
                b"li" => self.close_implied(b"li"),
                b"dd" | b"dt" => {
                    self.close_implied(b"dd");
                    self.close_implied(b"dt");
                }
                _ => {}
            }
            if name == b"a" {
                // As in HTML5, an `<a>` closes an open one.
                let from = self.stack.len().saturating_sub(STACK_SEARCH);
                if let Some(p) = self.stack[from..].iter().rposition(|e| e.key == k) {
                    self.close_to(from + p);
                }
            }
            if self.stack.len() < self.limits.max_depth {
                let (parent, parent_path, parent_pre, parent_ctx, parent_table, parent_capture) =
                    self.stack
                        .last()
                        .map_or((0, 0, false, kind::Context::default(), NO_TABLE, 0), |e| {
                            (e.cues, e.path, e.pre, e.ctx, e.table, e.capture)
                        });
                let tokens = self.tokens.len() as u32;
                let attrs = &self.raw[self.attrs.0..self.attrs.1];
                let (attr, class, clue) = attr_cues(attrs, &mut self.tokens);
                let (ctx, table) = self.element_context(name, attrs, parent_ctx, parent_table);
                let capture = if clue || name == b"time" {
                    self.element_clue(name, parent_capture)
                } else {
                    parent_capture
                };
                let (mark_end, mark_block) = self.inline_mark(name, parent_pre);
                let own = tag_cues(name) | attr;
                self.stack.push(Open {
                    key: k,
                    cues: parent | own,
                    own,
                    first: NO_TEXT,
                    path: path_key(parent_path, k, class),
                    tokens,
                    pre: parent_pre || matches!(name, b"pre" | b"listing" | b"code"),
                    ctx,
                    table,
                    rows: 0,
                    cols: 0,
                    capture,
                    mark_end,
                    mark_block,
                });
            }
        }
        match self.state {
            State::OutsideDoc => {
                if name == b"body" {
                    self.state = State::Text;
                    self.header_end = Some(after);
                    self.new_div(after, name);
                } else if name == b"/head" && self.head_end.is_none() {
                    self.head_end = Some(after);
                }
            }
            _ => {
                if name == b"/body" || name == b"body" {
                    if self.syntax == Syntax::Texrex {
                        self.state = State::OutsideDoc;
                        return false;
                    }
                    // As in HTML5, a later `<body>` or `</body>` does not end the body.
                    return true;
                }
                if self.syntax == Syntax::Html5
                    && self.drop_close.as_deref() == Some(b"/head")
                    && name[0].is_ascii_alphabetic()
                    && sets & set::HEAD_CONTENT == 0
                {
                    // As in HTML5, an element that cannot be in the head ends it.
                    self.state = State::Text;
                    self.drop_close = None;
                }
                let drop = match self.syntax {
                    Syntax::Texrex => set::TEXREX_DROP,
                    Syntax::Html5 => set::HTML5_DROP,
                };
                if self.drop_close.is_none() && start && sets & drop != 0 {
                    self.state = State::Markup;
                    let mut close = Vec::with_capacity(name.len() + 1);
                    close.push(b'/');
                    close.extend_from_slice(name);
                    self.drop_close = Some(close);
                } else if self.drop_close.as_deref() == Some(name) {
                    self.state = State::Text;
                    self.drop_close = None;
                } else if self.state == State::Text {
                    let breaks = match self.syntax {
                        Syntax::Texrex => sets & set::BREAK != 0,
                        // texrex's break tags are among these (a test checks it).
                        Syntax::Html5 => double_br || sets & (set::JUSTEXT | set::HTML5_BLOCK) != 0,
                    };
                    if breaks {
                        self.new_div(after, name);
                        if self.blocks.len() > self.limits.max_blocks {
                            self.capped = Some(Cap::Blocks);
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// The kind context of a start tag's element and the stack position of its innermost
    /// table; counts rows and cells in that table.
    fn element_context(
        &mut self,
        name: &[u8],
        attrs: &[u8],
        parent: kind::Context,
        parent_table: u32,
    ) -> (kind::Context, u32) {
        let mut ctx = kind::Context::child(parent, name);
        let mut table = parent_table;
        let open_table = self.stack.get_mut(parent_table as usize);
        match name {
            b"table" => table = self.stack.len() as u32,
            b"tr" => {
                if let Some(t) = open_table {
                    t.rows = t.rows.saturating_add(1);
                    t.cols = 0;
                }
            }
            b"td" | b"th" => {
                let (row, col) = match open_table {
                    Some(t) => {
                        t.rows = t.rows.max(1);
                        let col = t.cols;
                        t.cols = t.cols.saturating_add(colspan(attrs));
                        (t.rows - 1, col)
                    }
                    None => (0, 0),
                };
                ctx.kind = Kind::Cell {
                    row,
                    col,
                    header: name == b"th" || ctx.thead,
                };
            }
            _ => {}
        }
        (ctx, table)
    }

    /// Mark the start of inline markup in the current block's shown text ([`mark`], HTML5
    /// syntax); returns the mark that ends it and the block, for [`Open::mark_end`].
    fn inline_mark(&mut self, name: &[u8], pre: bool) -> (u8, u32) {
        if self.syntax != Syntax::Html5 || self.state != State::Text {
            return (0, 0);
        }
        let Some(cur) = self.cur else { return (0, 0) };
        let (start, end) = match name {
            b"em" | b"i" => (mark::EM, mark::EM_END),
            b"strong" | b"b" => (mark::STRONG, mark::STRONG_END),
            b"code" | b"kbd" | b"samp" | b"tt" if !pre => (mark::CODE, mark::CODE_END),
            b"a" => {
                let attrs = &self.raw[self.attrs.0..self.attrs.1];
                let href = attributes(attrs)
                    .find(|(k, _)| k.eq_ignore_ascii_case(b"href"))
                    .map(|(_, v)| v)
                    .filter(|v| !v.is_empty() && v.len() <= 2048);
                let Some(href) = href else { return (0, 0) };
                self.blocks[cur].links.push(collapse(href));
                (mark::LINK, mark::LINK_END)
            }
            _ => return (0, 0),
        };
        self.push_mark(start);
        (end, cur as u32)
    }

    /// Append a [`mark`] to the current block's shown text.
    fn push_mark(&mut self, m: u8) {
        let Some(cur) = self.cur else { return };
        let block = &mut self.blocks[cur];
        block
            .shown
            .get_or_insert_with(|| block.text.clone())
            .push(m);
    }

    /// Record the clue a start tag gives ([`clues::element_clue`], HTML5 syntax); returns where
    /// the element's text goes ([`Open::capture`]): to its own clue, or where its parent's goes.
    fn element_clue(&mut self, name: &[u8], parent_capture: u16) -> u16 {
        if self.syntax != Syntax::Html5 || self.clues.found.len() >= clues::MAX_CLUES {
            return parent_capture;
        }
        let attrs = &self.raw[self.attrs.0..self.attrs.1];
        match clues::element_clue(name, attrs) {
            Some(clues::ElementClue::Value(what, v)) => {
                let mut value = collapse(v);
                value.truncate(clues::MAX_CLUE_BYTES);
                self.clues.found.push(Clue {
                    what,
                    value,
                    text: false,
                });
                parent_capture
            }
            Some(clues::ElementClue::Text(what)) => {
                self.clues.found.push(Clue {
                    what,
                    value: Vec::new(),
                    text: true,
                });
                self.clue_parents.resize(self.clues.found.len(), 0);
                *self.clue_parents.last_mut().expect("just pushed") = parent_capture;
                self.clues.found.len() as u16
            }
            None => parent_capture,
        }
    }

    /// Close the open element `name` and those inside it, if it is open within the nearest
    /// scope boundary ([`SCOPE_KEYS`]) and [`STACK_SEARCH`] elements.
    fn close_implied(&mut self, name: &[u8]) {
        let key = name_key(name);
        let from = self.stack.len().saturating_sub(STACK_SEARCH);
        for p in (from..self.stack.len()).rev() {
            let k = self.stack[p].key;
            if k == key {
                self.close_to(p);
                return;
            }
            if SCOPE_KEYS.contains(&k) {
                return;
            }
        }
    }

    /// Close the open elements from `len` on, recording the regions they span.
    fn close_to(&mut self, len: usize) {
        if let Some(e) = self.stack.get(len) {
            self.tokens.truncate(e.tokens as usize);
        }
        for i in (len..self.stack.len()).rev() {
            let e = self.stack[i];
            if e.mark_end != 0 && self.cur == Some(e.mark_block as usize) {
                self.push_mark(e.mark_end);
            }
        }
        for e in self.stack.drain(len..) {
            if e.first != NO_TEXT && self.last_text > e.first {
                self.regions.push((e.first, self.last_text));
            }
        }
        self.untexted = self.untexted.min(len);
    }

    /// texrex's `NewDiv`: close the current block if it has text, else reuse it.
    fn new_div(&mut self, pos: usize, name: &[u8]) {
        let cur = match self.cur {
            None => {
                self.blocks.push(RawBlock::default());
                self.work += self.stack.len() as u64;
                self.skipped = 0;
                self.blocks.len() - 1
            }
            Some(cur) => cur,
        };
        let paragraph = {
            let bare = name.strip_prefix(b"/").unwrap_or(name);
            bare.is_empty()
                || bare == b"br"
                || bare == b"body"
                || tag_sets(bare) & set::JUSTEXT != 0
        };
        let cur = if !self.blocks[cur].text.is_empty() {
            let b = &mut self.blocks[cur];
            b.last_raw = pos.saturating_sub(1);
            b.skipped_divs = self.skipped;
            self.blocks.push(RawBlock::default());
            self.work += self.stack.len() as u64;
            self.skipped = 0;
            self.blocks.len() - 1
        } else {
            self.skipped += 1;
            cur
        };
        self.cur = Some(cur);
        let b = &mut self.blocks[cur];
        b.first_raw = pos;
        b.paragraph_start |= paragraph || cur == 0;
        let (closing, bare) = match name.strip_prefix(b"/") {
            Some(bare) => (true, bare),
            None => (false, name),
        };
        b.closing_start = closing;
        if let Some(c) = Container::from_tag(bare) {
            b.container = c;
        }
    }

    fn write_text(&mut self, bytes: &[u8]) {
        if self.state != State::Text || bytes.is_empty() {
            return;
        }
        let Some(cur) = self.cur else { return };
        let (cues, pre, capture) = self
            .stack
            .last()
            .map_or((0, false, 0), |e| (e.cues, e.pre, e.capture));
        let mut capture = capture as usize;
        while capture != 0 {
            clues::push_text(&mut self.clues.found[capture - 1].value, bytes);
            capture = self.clue_parents[capture - 1] as usize;
        }
        // Where `bytes` are in the raw text (they may be a literal instead).
        let at = self
            .raw
            .as_ptr_range()
            .contains(&bytes.as_ptr())
            .then(|| bytes.as_ptr() as usize - self.raw.as_ptr() as usize);
        let block = &mut self.blocks[cur];
        if pre && block.shown.is_none() {
            block.shown = Some(block.text.clone());
        }
        if let Some(shown) = &mut block.shown {
            if pre {
                block.pre = true;
                push_verbatim(shown, bytes, at, self.line_ends);
            } else {
                push_collapsed(shown, bytes);
            }
        }
        let t = &mut block.text;
        let (before, mut words, mut texted) = (t.len(), 0u32, false);
        // Whether the text so far ends in a word.
        let mut in_word = t.last().is_some_and(|&l| !is_ws(l));
        t.reserve(bytes.len());
        for &b in bytes {
            if !is_ws(b) {
                words += u32::from(!in_word);
                t.push(b);
                (in_word, texted) = (true, true);
            } else if in_word {
                t.push(b' ');
                in_word = false;
            }
        }
        if texted {
            self.br_pending = false;
            if before == 0 {
                block.path = self.stack.last().map_or(0, |e| e.path);
                block.kind = self.stack.last().map_or(Kind::Other, |e| e.ctx.kind);
                block.depth = self.stack.len().min(u16::MAX as usize) as u16;
                let near = self.stack.len().saturating_sub(NEAR);
                block.near_cues = self.stack[near..].iter().fold(0, |c, e| c | e.own);
                let from = self.tokens.len().saturating_sub(MAX_BLOCK_TOKENS);
                let (window, set) = &mut self.block_tokens;
                if window[..] != self.tokens[from..] {
                    window.clear();
                    window.extend_from_slice(&self.tokens[from..]);
                    set.clear();
                    set.extend_from_slice(window);
                    set.sort_unstable();
                    set.dedup();
                }
                block.markup.clear();
                block.markup.extend_from_slice(set);
            }
            block.cues |= cues;
            if cues & cue::LINK != 0 {
                block.link_bytes += (t.len() - before) as u32;
                block.link_words += words;
            }
            for e in &mut self.stack[self.untexted..] {
                e.first = cur as u32;
            }
            self.untexted = self.stack.len();
            self.last_text = cur as u32;
        }
    }

    /// A `<br>`: the current block's shown text goes on on a new line (nothing before its
    /// first text).
    fn line_break(&mut self) {
        if self.state != State::Text {
            return;
        }
        let Some(cur) = self.cur else { return };
        let block = &mut self.blocks[cur];
        if block.text.is_empty() {
            return;
        }
        let shown = block.shown.get_or_insert_with(|| block.text.clone());
        while shown.last() == Some(&b' ') {
            shown.pop();
        }
        shown.push(b'\n');
    }

    /// Record `<meta name=… content=…>` values from the head, `<base href>`, and the clues of
    /// `<html lang>`, `<link rel=canonical>` and every `<meta>`.
    fn collect_head(&mut self, attrs_start: usize, gt: usize) {
        if self.name == b"base" && self.head.base.is_none() {
            let mut attrs = attributes(&self.raw[attrs_start..gt]);
            if let Some((_, href)) = attrs.find(|(k, _)| k.eq_ignore_ascii_case(b"href")) {
                self.head.base = Some(collapse(href));
            }
            return;
        }
        if !matches!(self.name.as_slice(), b"meta" | b"link" | b"html") {
            return;
        }
        let Some((name, content)) = self.collect_clue_tag(attrs_start, gt) else {
            return;
        };
        let slot = match name.as_slice() {
            b"keywords" => &mut self.head.keywords,
            b"description" => &mut self.head.description,
            b"author" => &mut self.head.author,
            b"og:title" => &mut self.head.og_title,
            b"og:type" => &mut self.head.og_type,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(collapse(&content));
        }
    }

    /// Record the clues of an `<html lang>`, `<link rel=canonical>` or `<meta>` tag; returns a
    /// meta tag's `name` or `property` (lower-cased) and content.
    fn collect_clue_tag(&mut self, attrs_start: usize, gt: usize) -> Option<(Vec<u8>, Vec<u8>)> {
        let attrs = parse_attributes(&self.raw[attrs_start..gt]);
        let get = |key: &[u8]| {
            attrs
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| *v)
        };
        let bounded = |v: &[u8]| {
            let mut v = collapse(v);
            v.truncate(clues::MAX_CLUE_BYTES);
            v
        };
        match self.name.as_slice() {
            b"html" => {
                if let Some(lang) = get(b"lang").filter(|l| !l.is_empty()) {
                    self.clues.lang.get_or_insert_with(|| bounded(lang));
                }
                None
            }
            b"link" => {
                let canonical = get(b"rel").is_some_and(|r| r.eq_ignore_ascii_case(b"canonical"));
                if canonical && let Some(href) = get(b"href").filter(|h| !h.is_empty()) {
                    self.clues.canonical.get_or_insert_with(|| bounded(href));
                }
                None
            }
            _ => {
                let content = get(b"content")?;
                let named = get(b"name").or(get(b"property"));
                let key = named.or(get(b"itemprop")).or(get(b"http-equiv"))?;
                if self.clues.meta.len() < clues::MAX_CLUES {
                    self.clues
                        .meta
                        .push((key.to_ascii_lowercase(), bounded(content)));
                }
                // The head's slots take `name` and `property` only (what the models learnt).
                named.map(|n| (n.to_ascii_lowercase(), content.to_vec()))
            }
        }
    }
}

/// Append `bytes` to a block's shown text with whitespace runs collapsed to one space, none
/// at the start of a line.
fn push_collapsed(shown: &mut Vec<u8>, bytes: &[u8]) {
    let mut in_word = shown.last().is_some_and(|&l| !is_ws(l));
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
/// and the space [`raw_text`] put before each line goes.
fn push_verbatim(shown: &mut Vec<u8>, bytes: &[u8], at: Option<usize>, line_ends: &[usize]) {
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

/// Collapse whitespace runs to one space and trim.
fn collapse(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for &b in bytes {
        if !is_html_ws(b) {
            out.push(b);
        } else if out.last().is_some_and(|&l| l != b' ') {
            out.push(b' ');
        }
    }
    if out.last() == Some(&b' ') {
        out.pop();
    }
    out
}

/// Find the `>` that ends a tag whose attributes start at `i`, honouring quoted attribute
/// values (HTML5). Returns the position of `>` (None at end of input) and whether the tag
/// ends with `/>`.
pub(crate) fn find_tag_end(raw: &[u8], mut i: usize) -> (Option<usize>, bool) {
    let n = raw.len();
    let mut last_slash = false;
    while i < n {
        match raw[i] {
            b'>' => return (Some(i), last_slash),
            b'=' => {
                last_slash = false;
                i += 1;
                while i < n && is_html_ws(raw[i]) {
                    i += 1;
                }
                if i < n && (raw[i] == b'"' || raw[i] == b'\'') {
                    let q = raw[i];
                    match memchr(q, &raw[i + 1..]) {
                        Some(o) => i = i + 1 + o + 1,
                        None => return (None, false),
                    }
                }
            }
            b'/' => {
                last_slash = true;
                i += 1;
            }
            b => {
                if !is_html_ws(b) {
                    last_slash = false;
                }
                i += 1;
            }
        }
    }
    (None, false)
}

/// Position of the `<` of the end tag `</name` (case-insensitive) at or after `from`.
pub(crate) fn find_end_tag(raw: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let finder = memmem::Finder::new(b"</");
    for o in finder.find_iter(&raw[from..]) {
        let p = from + o + 2;
        if raw.len() >= p + name.len()
            && raw[p..p + name.len()].eq_ignore_ascii_case(name)
            && raw
                .get(p + name.len())
                .is_none_or(|&b| is_html_ws(b) || b == b'/' || b == b'>')
        {
            return Some(from + o);
        }
    }
    None
}

/// The columns a cell spans: its `colspan` (1 to 1,000), else 1.
fn colspan(attrs: &[u8]) -> u32 {
    if !attrs.windows(7).any(|w| w.eq_ignore_ascii_case(b"colspan")) {
        return 1;
    }
    attributes(attrs)
        .find(|(k, _)| k.eq_ignore_ascii_case(b"colspan"))
        .and_then(|(_, v)| std::str::from_utf8(v).ok()?.trim().parse::<u32>().ok())
        .map_or(1, |n| n.clamp(1, 1000))
}

/// Parse `key=value` attributes of a tag (values unquoted, entities left as they are).
pub fn parse_attributes(s: &[u8]) -> Vec<(&[u8], &[u8])> {
    attributes(s).collect()
}

/// The `key=value` attributes of a tag, in order, as [`parse_attributes`] finds them.
pub fn attributes(s: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let n = s.len();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < n {
            while i < n && (is_html_ws(s[i]) || s[i] == b'/') {
                i += 1;
            }
            let ks = i;
            while i < n && !is_html_ws(s[i]) && s[i] != b'=' && s[i] != b'/' {
                i += 1;
            }
            let key = &s[ks..i];
            while i < n && is_html_ws(s[i]) {
                i += 1;
            }
            let mut val: &[u8] = b"";
            if i < n && s[i] == b'=' {
                i += 1;
                while i < n && is_html_ws(s[i]) {
                    i += 1;
                }
                if i < n && (s[i] == b'"' || s[i] == b'\'') {
                    let q = s[i];
                    let vs = i + 1;
                    let ve = memchr(q, &s[vs..]).map_or(n, |o| vs + o);
                    val = &s[vs..ve];
                    i = (ve + 1).min(n);
                } else {
                    let vs = i;
                    while i < n && !is_html_ws(s[i]) {
                        i += 1;
                    }
                    val = &s[vs..i];
                }
            }
            if !key.is_empty() {
                return Some((key, val));
            } else if i < n {
                i += 1;
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(html: &str) -> Vec<String> {
        texts_with(html, Syntax::Html5)
    }

    fn texts_with(html: &str, syntax: Syntax) -> Vec<String> {
        let raw = raw_text(html.as_bytes());
        segment(&raw, Limits::default(), syntax)
            .blocks
            .iter()
            .filter(|b| !b.text.is_empty())
            .map(|b| String::from_utf8_lossy(&b.text).into_owned())
            .collect()
    }

    fn blocks(html: &str) -> Vec<RawBlock> {
        let raw = raw_text(html.as_bytes());
        segment(&raw, Limits::default(), Syntax::Html5)
            .blocks
            .into_iter()
            .filter(|b| !b.text.is_empty())
            .collect()
    }

    /// The shown text of each block with text ([`RawBlock::shown`], else `text`).
    fn shown(html: &str) -> Vec<String> {
        let (raw, line_ends) = raw_text_lines(html.as_bytes());
        segment_lines(&raw, &line_ends, Limits::default(), Syntax::Html5)
            .blocks
            .iter()
            .filter(|b| !b.text.is_empty())
            .map(|b| String::from_utf8_lossy(b.shown.as_deref().unwrap_or(&b.text)).into_owned())
            .collect()
    }

    #[test]
    fn line_breaks_and_preformatted_text_are_shown_as_they_are() {
        let html = "<body><p>line one<br>line two <br/> line three</p>\n\
                    <pre>def f(x):\n    return x + 1\n\n\tprint(f(2))</pre>\n\
                    <p><br>after a break at the start</p></body>";
        assert_eq!(
            shown(html),
            [
                "line one\nline two\nline three",
                "def f(x):\n    return x + 1\n\n\tprint(f(2))",
                "after a break at the start",
            ]
        );
        // The text the features and scorers read does not change.
        assert_eq!(
            texts(html),
            [
                "line one line two line three",
                "def f(x): return x + 1 print(f(2))",
                "after a break at the start",
            ]
        );
        let b = blocks(html);
        assert_eq!(
            b.iter().map(|b| b.pre).collect::<Vec<_>>(),
            [false, true, false]
        );
        // Without line ends ([`segment`]), preformatted text keeps its spaces on one line.
        assert_eq!(
            b[1].shown.as_deref(),
            Some(&b"def f(x):      return x + 1    \tprint(f(2))"[..])
        );
        assert_eq!(
            raw_text_lines(b"ab\ncd\r\ne"),
            (b" ab  cd    e ".to_vec(), vec![3, 7, 9, 12])
        );
    }

    #[test]
    fn blocks_know_their_kind() {
        let html = "<body><h2><a href=/>Title</a></h2><p>Para <b>bold</b></p>\
            <ol><li>one<ul><li>inner</ul><li><p>two</p></ol><dl><dt>term<dd>definition</dl>\
            <table><caption>Cap</caption><thead><tr><th>A<th colspan=2>B<th>C</thead>\
            <tr><td>1<td>2<td>3</table><table>loose</table>\
            <blockquote><p>Quoted</p></blockquote><pre>code</pre><figure><figcaption>Fig</figcaption></figure>\
            <div>plain <span>text</span></div></body>";
        let kinds: Vec<(String, Kind)> = blocks(html)
            .iter()
            .map(|b| (String::from_utf8_lossy(&b.text).trim().to_owned(), b.kind))
            .collect();
        let item = |ordered, depth| Kind::Item { ordered, depth };
        let cell = |row, col, header| Kind::Cell { row, col, header };
        assert_eq!(
            kinds,
            [
                ("Title".into(), Kind::Heading(2)),
                ("Para bold".into(), Kind::Paragraph),
                ("one".into(), item(true, 1)),
                ("inner".into(), item(false, 2)),
                ("two".into(), item(true, 1)),
                ("term".into(), item(false, 1)),
                ("definition".into(), item(false, 1)),
                ("Cap".into(), Kind::Caption),
                ("A".into(), cell(0, 0, true)),
                ("B".into(), cell(0, 1, true)),
                ("C".into(), cell(0, 3, true)),
                ("1".into(), cell(1, 0, false)),
                ("2".into(), cell(1, 1, false)),
                ("3".into(), cell(1, 2, false)),
                ("loose".into(), Kind::Table),
                ("Quoted".into(), Kind::Quote),
                ("code".into(), Kind::Code),
                ("Fig".into(), Kind::Caption),
                ("plain text".into(), Kind::Other),
            ]
        );
    }

    #[test]
    fn kinds_of_hostile_structure() {
        // A heading inside a link, an unclosed `pre` (the rest of the page is preformatted).
        let b = blocks("<body><a href=/><h2>Linked heading</h2></a><pre>open\n  code<p>after");
        let kinds: Vec<Kind> = b.iter().map(|b| b.kind).collect();
        assert_eq!(kinds, [Kind::Heading(2), Kind::Code, Kind::Code]);
        // Tables nested 1,000 deep: each cell is at row 0, column 0 of its own table.
        let nested = format!("<body>{}x", "<table><tr><td>".repeat(1000));
        let b = blocks(&nested);
        assert_eq!(b.len(), 1);
        assert_eq!(
            b[0].kind,
            Kind::Cell {
                row: 0,
                col: 0,
                header: false
            }
        );
        // A 100 x 100 table (the block cap stops larger ones): positions counted to the last
        // cell; a colspan beyond 1,000 counts 1,000.
        let row = format!("<tr>{}</tr>", "<td>c</td>".repeat(100));
        let big = format!(
            "<body><table>{}<tr><td colspan=99999>a</td><td>b</table>",
            row.repeat(100)
        );
        let b = blocks(&big);
        assert_eq!(b.len(), 100 * 100 + 2);
        assert_eq!(
            b[100 * 100 - 1].kind,
            Kind::Cell {
                row: 99,
                col: 99,
                header: false
            }
        );
        assert_eq!(
            b[100 * 100 + 1].kind,
            Kind::Cell {
                row: 100,
                col: 1000,
                header: false
            }
        );
    }

    #[test]
    fn clues_to_metadata_are_gathered() {
        let html = "<html lang=en-GB><head><meta property=\"og:site_name\" content=\"The Daily\">\
            <link rel=\"canonical\" href=\"https://example.org/a\"></head><body>\
            <article><h1>Head</h1><div class=\"post-byline\">By <a rel=author href=/u>Jane   Doe</a></div>\
            <time datetime=\"2024-05-01T10:00:00Z\">1 May</time><span class=entry-date>May 1, 2024</span>\
            <meta itemprop=\"dateModified\" content=\"2024-05-02\"><p>Text</p></article></body></html>";
        let raw = raw_text(html.as_bytes());
        let c = segment(&raw, Limits::default(), Syntax::Html5).clues;
        let s = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
        assert_eq!(c.lang.as_deref().map(s), Some("en-GB".into()));
        assert_eq!(
            c.canonical.as_deref().map(s),
            Some("https://example.org/a".into())
        );
        let meta: Vec<(String, String)> = c.meta.iter().map(|(k, v)| (s(k), s(v))).collect();
        assert_eq!(
            meta,
            [
                ("og:site_name".into(), "The Daily".into()),
                ("datemodified".into(), "2024-05-02".into())
            ]
        );
        let found: Vec<(ClueKind, String, bool)> = c
            .found
            .iter()
            .map(|c| (c.what, s(&c.value).trim().to_owned(), c.text))
            .collect();
        assert_eq!(
            found,
            [
                (ClueKind::Byline, "By Jane Doe".into(), true),
                (ClueKind::AuthorLink, "Jane Doe".into(), true),
                (ClueKind::Time, "2024-05-01T10:00:00Z".into(), false),
                (ClueKind::Dateline, "May 1, 2024".into(), true),
            ]
        );
        // texrex's scanner gathers none of the body's clues.
        assert!(
            segment(&raw, Limits::default(), Syntax::Texrex)
                .clues
                .found
                .is_empty()
        );
    }

    #[test]
    fn code_is_text_the_page_shows() {
        let html = "<body><p>Call <code>f(x)</code> twice</p>\n\
                    <pre><code>let a  = 1;\n  f(a)</code></pre></body>";
        let unmarked: Vec<String> = shown(html)
            .iter()
            .map(|t| t.replace(|c: char| c.is_ascii() && mark::is_mark(c as u8), ""))
            .collect();
        assert_eq!(unmarked, ["Call f(x) twice", "let a  = 1;\n  f(a)"]);
        assert_eq!(texts(html), ["Call f(x) twice", "let a = 1; f(a)"]);
        // texrex's scanner drops `code` as texrex does.
        assert_eq!(texts_with(html, Syntax::Texrex), ["Call twice"]);
    }

    #[test]
    fn regions_are_the_block_ranges_of_elements() {
        let seg = segment(
            &raw_text(
                b"<body><nav><a>A</a> <a>B</a></nav><div id=main><p>one<p>two <b>bold</b>\
                  <div><p>three<p>four</div></div><p>five</body>",
            ),
            Limits::default(),
            Syntax::Html5,
        );
        let texts: Vec<_> = seg.blocks.iter().map(|b| b.text.clone()).collect();
        assert_eq!(
            texts[..5],
            [&b"A B"[..], b"one", b"two bold", b"three", b"four"]
        );
        let mut regions = seg.regions.clone();
        regions.sort();
        regions.dedup();
        // <div id=main> spans blocks 1..=4, the inner div 3..=4, body and html 0..=5; the
        // nav, the p elements and `b` have their text in one block.
        assert_eq!(regions, [(0, 5), (1, 4), (3, 4)]);
    }

    #[test]
    fn link_text_and_structural_cues() {
        let b = blocks(
            r#"<body><nav class="site-menu"><ul><li><a href="/">Home</a></li></ul></nav>
            <div id="content"><p>Some <a href="x">linked words</a> in a sentence.
            <a name="unclosed">more</div><p>after the div</p>
            <div class="comments"><h2>Reply</h2></div>
            <footer><table><tr><td>© 2024</td></tr></table></footer></body>"#,
        );
        let texts: Vec<_> = b.iter().map(|b| String::from_utf8_lossy(&b.text)).collect();
        assert_eq!(
            texts,
            [
                "Home",
                "Some linked words in a sentence. more",
                "after the div",
                "Reply",
                "© 2024"
            ]
        );
        assert_eq!((b[0].link_bytes, b[0].link_words), (4, 1));
        assert_eq!(b[0].cues, cue::NAV | cue::LIST | cue::LINK);
        // "linked words" and "more" (an `<a>` that the closing `</div>` ends).
        assert_eq!(b[1].link_words, 3);
        assert_eq!(b[1].link_bytes, "linked wordsmore".len() as u32);
        assert_eq!(b[1].cues, cue::ARTICLE | cue::P | cue::LINK);
        assert_eq!(b[2].cues, cue::P);
        assert_eq!(b[3].cues, cue::COMMENT | cue::HEADING);
        assert_eq!(b[4].cues, cue::FOOTER | cue::TABLE);
    }

    #[test]
    fn html5_blocks_include_texrex_break_tags() {
        assert!(
            BREAK_TAGS
                .iter()
                .all(|t| JUSTEXT_TAGS.contains(t) || HTML5_BLOCKS.contains(t))
        );
    }

    #[test]
    fn justext_block_tags_and_double_br() {
        let b = blocks(
            "<body><div>One<br>still one<br> <br>two<article>three</article>four</div>\
             <section><p>five</p></section><table><tr><th>six</th></tr></table></body>",
        );
        let texts: Vec<_> = b.iter().map(|b| String::from_utf8_lossy(&b.text)).collect();
        assert_eq!(
            texts,
            ["One still one ", "two", "three", "four", "five", "six"]
        );
        let starts: Vec<_> = b.iter().map(|b| b.paragraph_start).collect();
        // `article` opens blocks but not jusText paragraphs; two `<br>`, `p` and `tr` do.
        assert_eq!(starts, [true, true, false, false, true, true]);
        // texrex's syntax keeps texrex's blocks.
        assert_eq!(
            texts_with(
                "<body><div>a<br><br>b</div><table><tr><td>c",
                Syntax::Texrex
            ),
            ["a b", "c "]
        );
    }

    #[test]
    fn raw_text_joins_lines_like_texrex() {
        assert_eq!(raw_text(b"ab\ncd"), b" ab  cd ");
        // CRLF gives an empty line; LF CR is one line end.
        assert_eq!(raw_text(b"a\r\nb"), b" a    b ");
        assert_eq!(raw_text(b"a\n\rb"), b" a  b ");
        assert_eq!(raw_text(b"a\0b\n"), b" ab ");
        assert_eq!(raw_text(b"a\n\n"), b" a ");
        assert_eq!(raw_text(b"a\n\n\n"), b" a   ");
    }

    #[test]
    fn break_tags_split_blocks_and_drop_containers_write_nothing() {
        let t = texts(
            "<html><head><title>T</title></head><body><div>One <b>two</b></div><script>var x='<div>';</script><p>Three<br>four</p><select><option>x</select><textarea>y</textarea></body></html>",
        );
        assert_eq!(t, vec!["One two", "Three four"]);
    }

    #[test]
    fn forms_keep_their_text_except_in_texrex_syntax() {
        let html = "<body><form action=x><div>Whole page in a form</div><select><option>Menu</option></select></form></body>";
        assert_eq!(texts(html), vec!["Whole page in a form"]);
        assert!(texts_with(html, Syntax::Texrex).is_empty());
    }

    #[test]
    fn html5_recovery_from_broken_pages() {
        // A stray </body> (pages pasted into pages) does not end the text.
        let html = "<body><p>One</p></body><p>Two</p><body><p>Three</p></body>";
        assert_eq!(texts(html), vec!["One", "Two", "Three"]);
        assert_eq!(texts_with(html, Syntax::Texrex), vec!["One"]);
        // An unclosed <title> or <script> does not swallow the page.
        assert_eq!(
            texts("<head><title>T</head><body><p>Text</p><script>x</body>"),
            vec!["Text"]
        );
        // A broken attribute hides <body>, and an element that cannot be in the head ends it.
        assert_eq!(
            texts("<head><meta content=\"x></head><body onload=\"f()\"><div>Text</div>"),
            vec!["Text"]
        );
        // Many unclosed raw-text elements stay linear (each search is done once).
        let many = format!("<body>{}<p>end</p>", "<title>x".repeat(5_000));
        assert_eq!(texts(&many).last().map(String::as_str), Some("end"));
    }

    #[test]
    fn block_positions_follow_texrex() {
        // From texrex's own output: "Home" in `<li><a href="/" title="">Home</a></li>` has
        // LengthRaw 33.
        let raw = raw_text(br#"<body><li class="x"><a href="/" title="">Home</a></li></body>"#);
        let seg = segment(&raw, Limits::default(), Syntax::Html5);
        let b = &seg.blocks[0];
        assert_eq!(b.text, b"Home");
        assert_eq!(b.last_raw - b.first_raw, 33);
        // <li> and <a> open, </a> and </li> close; body's new block and <li> were skipped.
        assert_eq!((b.open_tags, b.close_tags, b.anchors), (2, 2, 1));
        assert_eq!(b.container, Container::Li);
        assert_eq!(b.skipped_divs, 2);
    }

    #[test]
    fn quotes_only_count_in_attribute_values() {
        let t = texts("<body><p title=don't>It's <a href='x>y'>fine</a></p></body>");
        assert_eq!(t, vec!["It's fine"]);
    }

    #[test]
    fn literal_less_than_and_comments() {
        let t = texts("<body><p>a < b <!-- <p>hidden</p> --> c</p></body>");
        assert_eq!(t, vec!["a < b c"]);
    }

    #[test]
    fn texrex_syntax_keeps_texrex_bugs() {
        let html = b"<body><p>One</p><p title=x\">lost</p><p>\"Two</p><script>if(a<b)x();</script><p>Three</p></body>";
        let run = |syntax| -> Vec<String> {
            segment(&raw_text(html), Limits::default(), syntax)
                .blocks
                .iter()
                .filter(|b| !b.text.is_empty())
                .map(|b| String::from_utf8_lossy(&b.text).into_owned())
                .collect()
        };
        assert_eq!(run(Syntax::Html5), vec!["One", "lost", "\"Two", "Three"]);
        // The stray quote swallows markup up to the next quote, so `lost` and `Two` are inside
        // one long tag; `<b)x();</script>` is a tag that hides the end of the script, so
        // nothing after it is text.
        assert_eq!(run(Syntax::Texrex), vec!["One"]);
    }

    #[test]
    fn page_without_body_still_yields_text() {
        let t = texts("<html><head><title>x</title></head><p>Hello</p><p>World</p>");
        assert_eq!(t, vec!["Hello", "World"]);
    }

    #[test]
    fn head_meta_and_doctype() {
        let raw = raw_text(b"<!DOCTYPE html><html><head><title> A  title </title><meta name=\"Description\" content=\"Desc\"><meta name=keywords content='k1, k2'></head><body>x</body>");
        let seg = segment(&raw, Limits::default(), Syntax::Html5);
        assert_eq!(seg.doctype, Doctype::Html5);
        assert_eq!(seg.head.title.as_deref(), Some(&b"A title"[..]));
        assert_eq!(seg.head.description.as_deref(), Some(&b"Desc"[..]));
        assert_eq!(seg.head.keywords.as_deref(), Some(&b"k1, k2"[..]));
        assert_eq!(seg.head.og_title, None);
    }

    #[test]
    fn doctype_is_texrex_patterns_over_the_whole_header() {
        // texrex's definition: the first of the three patterns that matches anywhere.
        let patterns = [
            r"(?i-u)<!doctype.*xhtml 1.*>",
            r"(?i-u)<!doctype.*html 4.*>",
            r"(?i-u)<!doctype +html *>",
        ]
        .map(|p| regex::bytes::Regex::new(p).unwrap());
        let texrex = |h: &[u8]| {
            [Doctype::Xhtml, Doctype::Html4, Doctype::Html5]
                .into_iter()
                .zip(&patterns)
                .find(|(_, re)| re.is_match(h))
                .map_or(Doctype::Unknown, |(d, _)| d)
        };
        let parts: [&[u8]; 16] = [
            b"<!DOCTYPE html>",
            b"<!doctype  HTML >",
            b"<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\">",
            b"<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"",
            b"\n",
            b">",
            b"<!-- x -->",
            b"<!doc",
            b"type html>",
            b" xhtml 1 ",
            b"<html><head>",
            b"<!DOCTYPE",
            b"<!doctypehtml>",
            b" XhTmL",
            b" 1 html 4",
            b" ",
        ];
        // Every sequence of up to four parts (16^4 headers).
        let mut header = Vec::new();
        for n in 0..16usize.pow(4) {
            header.clear();
            let mut k = n;
            for _ in 0..4 {
                header.extend_from_slice(parts[k % 16]);
                k /= 16;
            }
            assert_eq!(
                detect_doctype(&header),
                texrex(&header),
                "{}",
                String::from_utf8_lossy(&header)
            );
        }
    }

    #[test]
    fn cdata_outside_foreign_content_is_a_bogus_comment() {
        // A stray `<![CDATA[` without `]]>` (seen on XenForo forums) ends at the first `>`,
        // as in a browser, instead of hiding the rest of the page.
        assert_eq!(
            texts("<body><![CDATA[\n<div id=top></div><p>First</p><p>Second</p></body>"),
            ["First", "Second"]
        );
        // A section closed before the next tag is skipped whole, `>` and all.
        assert_eq!(
            texts("<body><p>a<svg><![CDATA[ g > path {} ]]></svg>b</p></body>"),
            ["ab"]
        );
    }

    #[test]
    fn og_title_and_json_ld() {
        let raw = raw_text(
            br#"<html><head><meta property="og:title" content="The  headline">
            <script type="application/ld+json">{"articleBody": "a < b"}</script>
            <script>var x = "<p>not data</p>";</script></head><body><p>x
            <script type=' application/LD+JSON '>[1]</script></body>"#,
        );
        let seg = segment(&raw, Limits::default(), Syntax::Html5);
        assert_eq!(seg.head.og_title.as_deref(), Some(&b"The headline"[..]));
        let scripts: Vec<&[u8]> = seg.json_ld.iter().map(|s| s.as_slice()).collect();
        assert_eq!(scripts, [&br#"{"articleBody": "a < b"}"#[..], b"[1]"]);
        // texrex's syntax keeps no JSON-LD.
        assert!(
            segment(&raw, Limits::default(), Syntax::Texrex)
                .json_ld
                .is_empty()
        );
    }

    #[test]
    fn semantic_hidden_and_control_cues() {
        let b = blocks(
            r#"<body><main><p>In main</p></main><div role="main"><p>Role main</div>
            <article><p>In an article</p></article>
            <div itemprop="articleBody"><p>Body</p></div><div itemprop="name"><p>Name</div>
            <div hidden><p>Hidden</div><div aria-hidden="true"><p>Aria</div>
            <div style="color: red; display : none"><p>Styled</div><span class="sr-only">Skip</span>
            <template><p>Inert</template><div class="cookie-notice"><p>Cookies</div>
            <button>Buy</button><div role="tab"><p>Tab</div><div aria-hidden="false"><p>Shown</div></body>"#,
        );
        let cues: Vec<(String, u32)> = b
            .iter()
            .map(|b| {
                (
                    String::from_utf8_lossy(&b.text).trim().to_owned(),
                    b.cues & !cue::P,
                )
            })
            .collect();
        let want = [
            ("In main", cue::MAIN | cue::ARTICLE),
            ("Role main", cue::MAIN | cue::ARTICLE),
            ("In an article", cue::ARTICLE_TAG | cue::ARTICLE),
            ("Body", cue::BODY_PROP),
            ("Name", 0),
            ("Hidden", cue::HIDDEN),
            ("Aria", cue::HIDDEN),
            ("Styled", cue::HIDDEN),
            ("Skip", cue::HIDDEN),
            ("Inert", cue::HIDDEN),
            ("Cookies", cue::MODAL),
            ("Buy", cue::CONTROL),
            ("Tab", cue::CONTROL),
            ("Shown", 0),
        ];
        let want: Vec<(String, u32)> = want.iter().map(|(t, c)| (t.to_string(), *c)).collect();
        assert_eq!(cues, want);
    }

    #[test]
    fn markup_words_and_tokens() {
        let b = blocks(
            r#"<body><div id="mainContent" class="post-body x1 a"><ul class="related-posts"><li>Item</ul>
            <p>Text</p></div><p>Outside</p></body>"#,
        );
        let t = |w: &str| markup_token(w.as_bytes());
        let mut want: Vec<u32> = ["main", "content", "post", "body", "related", "posts"]
            .iter()
            .map(|w| t(w))
            .collect();
        want.sort_unstable();
        assert_eq!(b[0].markup, want);
        let mut want: Vec<u32> = ["main", "content", "post", "body"]
            .iter()
            .map(|w| t(w))
            .collect();
        want.sort_unstable();
        assert_eq!(b[1].markup, want);
        assert!(b[2].markup.is_empty());
        assert_eq!(t("Main"), t("main"));
        let words = markup_words(
            br#"<div id="mainContent" class="post-body x1 a"><a class=Related>x</a><!-- class="no" -->"#,
        );
        let words: Vec<&[u8]> = words.iter().map(|w| w.as_slice()).collect();
        assert_eq!(
            words,
            [&b"body"[..], b"content", b"main", b"post", b"related"]
        );
    }

    #[test]
    fn repeated_elements_share_a_path() {
        let b = blocks(
            r#"<body><ul class="cards"><li class="card-1"><a>One</a><li class="card-2"><a>Two</a>
            <li class="card-3 new"><a>Three</a></ul><div class="text"><p>A</p><p>B</p></div>
            <div class="other"><p>C</p></div></body>"#,
        );
        let path: Vec<u64> = b.iter().map(|b| b.path).collect();
        // The classes' digits do not count; another class does.
        assert_eq!(path[0], path[1]);
        assert_ne!(path[1], path[2]);
        // Paragraphs of one element share their path, not those of another.
        assert_eq!(path[3], path[4]);
        assert_ne!(path[4], path[5]);
        assert!(b[0].depth > b[3].depth, "{} {}", b[0].depth, b[3].depth);
    }

    #[test]
    fn deep_nesting_is_capped_in_linear_time() {
        let html = format!("<body>{}x", "<span>".repeat(100_000));
        let raw = raw_text(html.as_bytes());
        let seg = segment(
            &raw,
            Limits {
                max_depth: 1000,
                max_blocks: 10,
                max_work: u64::MAX,
            },
            Syntax::Html5,
        );
        assert_eq!(seg.capped, Some(Cap::Depth));
        let html = format!("<body>{}", "<p>x</p>".repeat(100));
        let seg = segment(
            &raw_text(html.as_bytes()),
            Limits {
                max_depth: 1000,
                max_blocks: 10,
                max_work: u64::MAX,
            },
            Syntax::Html5,
        );
        assert_eq!(seg.capped, Some(Cap::Blocks));
    }

    #[test]
    fn work_is_counted_and_capped_where_it_is_spent() {
        // 5 tags; blocks start inside 1 (`body`), 3 (`body div p`) and, after `</div>`, 1 open
        // elements: 10 units.
        let raw = raw_text(b"<body><div><p>a<p>b</div>");
        let seg = segment(&raw, Limits::default(), Syntax::Html5);
        assert_eq!(seg.capped, None);
        let texts = |s: &Segmentation| -> Vec<String> {
            s.blocks
                .iter()
                .map(|b| String::from_utf8_lossy(&b.text).trim().to_string())
                .filter(|t| !t.is_empty())
                .collect()
        };
        assert_eq!(texts(&seg), ["a", "b"]);
        assert_eq!(seg.work, 10);
        // Deep nesting costs per block: 1,000 blocks inside 1,000 open elements.
        let deep = format!("<body>{}{}", "<div>".repeat(1000), "<p>x</p>".repeat(1000));
        let raw = raw_text(deep.as_bytes());
        let all = segment(&raw, Limits::default(), Syntax::Html5).work;
        let divs = format!("<body>{}", "<div>".repeat(1000));
        let before = segment(&raw_text(divs.as_bytes()), Limits::default(), Syntax::Html5).work;
        assert!(all - before > 1_000_000, "{before} {all}");
        let limits = Limits {
            max_work: (before + all) / 2,
            ..Limits::default()
        };
        let seg = segment(&raw, limits, Syntax::Html5);
        assert_eq!(seg.capped, Some(Cap::Work));
        // Cut where the budget ran out, the same on every run: about half the blocks.
        let kept = texts(&seg).len();
        assert!((400..600).contains(&kept), "{kept}");
        assert_eq!(texts(&segment(&raw, limits, Syntax::Html5)).len(), kept);
    }
}

//! Segmentation: [`segment`] and what it yields ([`Segmentation`], [`HeadMeta`], [`Anchor`]),
//! the syntax and the caps; the segmenter's state ([`Stripper`], with its [`Open`] elements);
//! the walk from tag to tag; and texrex's block rules (`TTrHtmlStripper`): where the text
//! starts and ends, which elements write no text, which tags open a block (`NewDiv`). The
//! files above this one in `mod.rs`'s list hold the rest of the segmenter's methods.

use std::ops::ControlFlow::{self, Break, Continue};

use memchr::memchr;

use crate::document::{Cap, Doctype};

use super::block::{Container, RawBlock};
use super::clues::Clues;
use super::cue::ClassCues;
use super::doctype::detect_doctype;
use super::kind;
use super::tags::{set, tag_sets};

/// An `<a>` tag in the text: the block it is in and where its attributes are in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Anchor {
    /// The block it is in (an index into [`Segmentation::blocks`]).
    pub block: usize,
    /// Where its attributes are in the input: from after its name to its `>`.
    pub(crate) attrs: (usize, usize),
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
    /// The work budget of a page: tags, plus for every block the
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
    /// The document type, from the part before `<body>`.
    pub(crate) doctype: Doctype,
    /// Values from the head.
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
    pub(crate) regions: Vec<(u32, u32)>,
    /// Where the text inside `<a>` elements is: `(block, start, end)`, byte ranges of a
    /// block's [`RawBlock::text`], in the order of the blocks and of their text, adjoining
    /// ones merged.
    pub link_spans: Vec<(u32, u32, u32)>,
    /// The contents of `<script type="application/ld+json">` elements, up to
    /// `MAX_JSON_LD` bytes in all (HTML5 syntax only).
    pub(crate) json_ld: Vec<Vec<u8>>,
    /// What the markup says about the page: meta values, dates, authors.
    pub(crate) clues: Clues,
}

/// Values from `<title>` and `<meta name=…>` before `<body>`, in the source encoding.
#[derive(Debug, Clone, Default)]
pub struct HeadMeta {
    /// The first `<title>`, whitespace collapsed.
    pub title: Option<Vec<u8>>,
    /// `<meta name="keywords">`.
    pub keywords: Option<Vec<u8>>,
    /// `<meta name="description">`.
    pub description: Option<Vec<u8>>,
    /// `<meta name="author">`.
    pub author: Option<Vec<u8>>,
    /// `<meta property="og:title">`.
    pub(crate) og_title: Option<Vec<u8>>,
    /// `<meta property="og:type">`.
    pub(crate) og_type: Option<Vec<u8>>,
    /// `<base href=…>`.
    pub base: Option<Vec<u8>>,
}

/// Where the segmenter is: before the text (texrex's state outside the document), in an
/// element whose content writes no text, or in the text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Before the text (the head), or after it with texrex's syntax.
    OutsideDoc,
    /// Inside a drop container, up to its end tag.
    Markup,
    /// In the text.
    Text,
}

/// An open element: its name key, the [`cue`](super::cue) bits of it and its ancestors, and
/// the first block with its text ([`NO_TEXT`] while it has none). The element stack
/// (`elements.rs`) pushes and closes them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Open {
    /// Its name: up to 8 bytes of it, packed (`name_key`).
    pub(super) key: u64,
    /// The [`cue`](super::cue) bits of it and its ancestors.
    pub(super) cues: u32,
    /// The [`cue`](super::cue) bits of the element itself (not inherited).
    pub(super) own: u32,
    /// The first block with its text ([`NO_TEXT`] while it has none).
    pub(super) first: u32,
    /// The path of tag names and classes from the root (`path_key`).
    pub(super) path: u64,
    /// Where its markup tokens start in the stripper's token stack.
    pub(super) tokens: u32,
    /// It or an element around it keeps its whitespace (`pre`, `listing`, `code`).
    pub(super) pre: bool,
    /// The kind of text inside it.
    pub(super) ctx: kind::Context,
    /// Stack position of the innermost `table` it is in or is ([`NO_TABLE`] outside tables).
    pub(super) table: u32,
    /// For a `table`: its rows so far.
    pub(super) rows: u32,
    /// For a `table`: the columns so far of its last row.
    pub(super) cols: u32,
    /// 1 + the index of the clue ([`Clues::found`](super::Clues::found)) its text goes to, 0
    /// for none.
    pub(super) capture: u16,
    /// The [`mark`](super::mark) that ends it, written into block `mark_block`'s shown text
    /// when it closes in that block (0: none).
    pub(super) mark_end: u8,
    /// The block its mark was written into.
    pub(super) mark_block: u32,
}

/// [`Open::table`] outside tables.
pub(super) const NO_TABLE: u32 = u32::MAX;

/// [`Open::first`] while the element has no text.
pub(super) const NO_TEXT: u32 = u32::MAX;

/// The segmenter (texrex's `TTrHtmlStripper`) over one page: where it is, the blocks so far,
/// the open elements, and what the page said about itself. Its methods are spread over the
/// files of this module, one concern each.
pub(super) struct Stripper<'a> {
    /// The raw text ([`raw_text`](super::raw_text)).
    pub(super) raw: &'a [u8],
    /// Positions of the raw text's line ends ([`raw_text_lines`](super::raw_text_lines)).
    pub(super) line_ends: &'a [usize],
    /// How tags are recognised.
    pub(super) syntax: Syntax,
    /// The caps.
    pub(super) limits: Limits,
    /// The blocks so far.
    pub(super) blocks: Vec<RawBlock>,
    /// The current block (the one text goes to).
    pub(super) cur: Option<usize>,
    /// Empty potential blocks skipped since the last block with text.
    pub(super) skipped: u32,
    /// Where it is in the page.
    pub(super) state: State,
    /// The end tag that ends the drop container it is in.
    pub(super) drop_close: Option<Vec<u8>>,
    /// Open elements, for [`Limits::max_depth`].
    pub(super) depth: usize,
    /// The cap that stopped it.
    pub(super) capped: Option<Cap>,
    /// Work so far ([`Limits::max_work`]).
    pub(super) work: u64,
    /// Values from the head.
    pub(super) head: HeadMeta,
    /// Clues to metadata so far.
    pub(super) clues: Clues,
    /// For each of `clues.found`, where the text of its element goes besides ([`Open::capture`]
    /// of its parent), so that an author link's text is also its byline's.
    pub(super) clue_parents: Vec<u16>,
    /// Position right after the `<body>` tag (end of texrex's RawHeader).
    pub(super) header_end: Option<usize>,
    /// Position right after the first `</head>`, for pages without `<body>`.
    pub(super) head_end: Option<usize>,
    /// The name of the current tag, lower-cased, with `/` before an end tag's.
    pub(super) name: Vec<u8>,
    /// Raw-text and RCDATA elements with no end tag at or after the given position.
    pub(super) unclosed: Vec<(Vec<u8>, usize)>,
    /// `<a>` tags in the text.
    pub(super) anchors: Vec<Anchor>,
    /// Open elements.
    pub(super) stack: Vec<Open>,
    /// Open elements from this index on have no text yet.
    pub(super) untexted: usize,
    /// The block that got text last.
    pub(super) last_text: u32,
    /// [`Segmentation::regions`] so far.
    pub(super) regions: Vec<(u32, u32)>,
    /// [`Segmentation::link_spans`] so far.
    pub(super) link_spans: Vec<(u32, u32, u32)>,
    /// Where the current tag's attributes are in the input (empty with texrex syntax).
    pub(super) attrs: (usize, usize),
    /// The last start tag was a `<br>` and no text followed it (jusText's double-br rule).
    pub(super) br_pending: bool,
    /// [`Segmentation::json_ld`] so far.
    pub(super) json_ld: Vec<Vec<u8>>,
    /// The bytes of `json_ld`.
    pub(super) json_ld_bytes: usize,
    /// The markup tokens of the open elements, outermost first ([`Open::tokens`]).
    pub(super) tokens: Vec<u32>,
    /// The last block's window of `tokens` and its sorted, deduplicated set: consecutive
    /// blocks often start under the same elements.
    pub(super) block_tokens: (Vec<u32>, Vec<u32>),
    /// What the page's `class` values said, once per value.
    pub(super) classes: ClassCues,
}

/// Segment the raw text of a record (see [`raw_text`](super::raw_text)) into blocks.
pub fn segment(raw: &[u8], limits: Limits, syntax: Syntax) -> Segmentation {
    segment_lines(raw, &[], limits, syntax)
}

/// [`segment`] a raw text whose line ends are known
/// ([`raw_text_lines`](super::raw_text_lines)), so that preformatted text keeps its lines in
/// [`RawBlock::shown`].
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
        link_spans: Vec::new(),
        attrs: (0, 0),
        br_pending: false,
        json_ld: Vec::new(),
        json_ld_bytes: 0,
        tokens: Vec::new(),
        block_tokens: (Vec::new(), Vec::new()),
        classes: ClassCues::default(),
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
        link_spans: s.link_spans,
        json_ld: s.json_ld,
    }
}

impl Stripper<'_> {
    /// Walk the page from `pos`: the text between tags is written, the markup at each `<`
    /// read by the scanner of the syntax ([`Self::html5_markup`], [`Self::texrex_markup`]).
    /// Returns the position where segmentation stopped.
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
            let next = match self.syntax {
                Syntax::Texrex => self.texrex_markup(lt),
                Syntax::Html5 => self.html5_markup(lt, c),
            };
            match next {
                Continue(next) => pos = next,
                Break(stop) => return stop,
            }
        }
        n
    }

    /// Apply texrex's per-tag rules to the tag in `self.name`; `after` is the position right
    /// after its `>`. Returns false when segmentation must stop.
    pub(super) fn on_tag(&mut self, after: usize, self_closing: bool) -> bool {
        let name = std::mem::take(&mut self.name);
        let keep_going = self.on_tag_named(&name, after, self_closing);
        self.name = name;
        keep_going
    }

    /// [`Self::on_tag`] as a step of [`Self::run`]: go on after the tag, or stop there.
    pub(super) fn tag_step(
        &mut self,
        after: usize,
        self_closing: bool,
    ) -> ControlFlow<usize, usize> {
        if self.on_tag(after, self_closing) {
            Continue(after)
        } else {
            Break(after)
        }
    }

    /// [`Self::on_tag`] for the tag `name`: the work cap, the block's tag counts, `<br>`, the
    /// element stack and the block rules.
    fn on_tag_named(&mut self, name: &[u8], after: usize, self_closing: bool) -> bool {
        if name.is_empty() {
            return true;
        }
        self.work += 1;
        if self.work > self.limits.max_work {
            self.capped = Some(Cap::Work);
            return false;
        }
        self.count_tag(name);
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
            self.end_element(bare);
        } else if name[0].is_ascii_alphabetic()
            && !self_closing
            && sets & set::VOID == 0
            && !self.start_element(name, sets)
        {
            return false;
        }
        self.block_rules(name, after, start, sets, double_br)
    }

    /// Count the tag `name` in the current block: as an open or a close tag, and as an anchor
    /// when its name starts with `a` (texrex's counts).
    fn count_tag(&mut self, name: &[u8]) {
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
    }

    /// texrex's block rules for the tag `name` (a start tag when `start`, on the lists `sets`;
    /// `double_br` for a second `<br>` with no text between): `<body>` starts the text; drop
    /// containers write none up to their end tag; break tags open a block. Returns false when
    /// segmentation must stop.
    fn block_rules(
        &mut self,
        name: &[u8],
        after: usize,
        start: bool,
        sets: u16,
        double_br: bool,
    ) -> bool {
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
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::html::raw_text;
    use crate::html::raw_text_lines;

    pub(in crate::html) fn texts(html: &str) -> Vec<String> {
        texts_with(html, Syntax::Html5)
    }

    pub(in crate::html) fn texts_with(html: &str, syntax: Syntax) -> Vec<String> {
        let raw = raw_text(html.as_bytes());
        segment(&raw, Limits::default(), syntax)
            .blocks
            .iter()
            .filter(|b| !b.text.is_empty())
            .map(|b| String::from_utf8_lossy(&b.text).into_owned())
            .collect()
    }

    pub(in crate::html) fn blocks(html: &str) -> Vec<RawBlock> {
        let raw = raw_text(html.as_bytes());
        segment(&raw, Limits::default(), Syntax::Html5)
            .blocks
            .into_iter()
            .filter(|b| !b.text.is_empty())
            .collect()
    }

    /// The shown text of each block with text ([`RawBlock::shown`], else `text`).
    pub(in crate::html) fn shown(html: &str) -> Vec<String> {
        let (raw, line_ends) = raw_text_lines(html.as_bytes());
        segment_lines(&raw, &line_ends, Limits::default(), Syntax::Html5)
            .blocks
            .iter()
            .filter(|b| !b.text.is_empty())
            .map(|b| String::from_utf8_lossy(b.shown.as_deref().unwrap_or(&b.text)).into_owned())
            .collect()
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
    fn page_without_body_still_yields_text() {
        let t = texts("<html><head><title>x</title></head><p>Hello</p><p>World</p>");
        assert_eq!(t, vec!["Hello", "World"]);
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

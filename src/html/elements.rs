//! The stack of open elements behind a block's cues, kind, path, markup tokens, clues and
//! regions: an element is pushed with what it inherits and what its own tag and attributes
//! say, and closed by its end tag or where HTML5 implies its end. Searches for the element to
//! close are bounded ([`STACK_SEARCH`], [`SCOPE_KEYS`]), so the cost stays linear in the
//! input whatever the nesting.

use super::clues::{self, Clue};
use super::cue::{attr_cues, tag_cues};
use super::kind;
use super::scan::{attributes, collapse};
use super::segmenter::{NO_TABLE, NO_TEXT, Open, Stripper, Syntax};
use super::tags::set;
use crate::document::{Cap, Kind};

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

/// The path key of an element: its parent's, its name and its class
/// ([`class_key`](super::markup::class_key)) mixed.
fn path_key(parent: u64, name: u64, class: u64) -> u64 {
    (parent.rotate_left(7) ^ name ^ class.rotate_left(31)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
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

impl Stripper<'_> {
    /// An end tag (`bare`, its name without the `/`): one element less deep, and the
    /// element it ends closed with those inside it, if it is open within [`STACK_SEARCH`]
    /// elements of the top.
    pub(super) fn end_element(&mut self, bare: &[u8]) {
        self.depth = self.depth.saturating_sub(1);
        let k = name_key(bare);
        let from = self.stack.len().saturating_sub(STACK_SEARCH);
        if let Some(p) = self.stack[from..].iter().rposition(|e| e.key == k) {
            self.close_to(from + p);
        }
    }

    /// A start tag of an element with content (`name` on the lists `sets`, neither void nor
    /// self-closing): one element deeper, the open elements it ends closed, and the element
    /// pushed unless the stack is full. Returns false when the depth cap stops segmentation.
    pub(super) fn start_element(&mut self, name: &[u8], sets: u16) -> bool {
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
            self.push_open(name, k);
        }
        true
    }

    /// Push the element `name` (key `k`) with what it inherits from its parent and what its
    /// tag and attributes (`self.attrs`) say: cues, path, markup tokens, kind, table position,
    /// clue and mark.
    fn push_open(&mut self, name: &[u8], k: u64) {
        let (parent, parent_path, parent_pre, parent_ctx, parent_table, parent_capture) = self
            .stack
            .last()
            .map_or((0, 0, false, kind::Context::default(), NO_TABLE, 0), |e| {
                (e.cues, e.path, e.pre, e.ctx, e.table, e.capture)
            });
        let tokens = self.tokens.len() as u32;
        let attrs = &self.raw[self.attrs.0..self.attrs.1];
        let (attr, class, clue) = attr_cues(attrs, &mut self.tokens, &mut self.classes);
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
    pub(super) fn close_to(&mut self, len: usize) {
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
}

#[cfg(test)]
mod tests {
    use crate::document::Kind;
    use crate::html::segmenter::tests::blocks;
    use crate::html::{Limits, Syntax, raw_text, segment};

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
}

//! Markdown of a document's content: CommonMark with GFM's pipe tables.
//!
//! The content blocks ([`blocks`]) by kind: headings as `#` headings,
//! list items as (nested) `-` and `1.` lists, the cells of a table as a pipe table (its first
//! row the header), preformatted text as fenced code, quotes with `>`, everything else as
//! paragraphs, and a run of comment blocks, when they are content, as a quote of those; within a
//! block, emphasis (`*`), strong emphasis (`**`), code spans and links (`[text](url)`, unless
//! left out) from the page's inline markup, and its line breaks as hard breaks. Text is
//! escaped so that a CommonMark parser gives it back as it is.

use crate::document::Kind;
use crate::document::{Block, Document};
use crate::html::mark;

/// At most this many columns in a table; the text of cells further right goes to the last.
const MAX_COLUMNS: usize = 64;

/// The blocks Markdown writes: those of [`Document::text`].
pub fn blocks(doc: &Document) -> impl Iterator<Item = &Block> {
    doc.blocks.iter().filter(|b| doc.is_content(b))
}

/// The document's content as Markdown (empty without content); `links` keeps the links.
pub fn write(doc: &Document, links: bool) -> String {
    let blocks: Vec<&Block> = blocks(doc).collect();
    let base = links.then(|| link_base(doc)).flatten();
    let links = Links {
        on: links,
        base: base.as_ref(),
    };
    write_blocks(&blocks, links, true)
}

/// Blocks as Markdown, each by its kind, and with `quote_comments` a run of comment blocks as
/// a quote; ends in a line break unless empty.
fn write_blocks(blocks: &[&Block], links: Links<'_>, quote_comments: bool) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < blocks.len() {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        let b = blocks[i];
        if b.comment && quote_comments {
            // Comments are content only when asked for (`Comments::Keep`, `Scored`): a quote
            // sets them apart from the article, their kinds within it.
            let n = run(&blocks[i..], |_, next| next.comment);
            let inner = write_blocks(&blocks[i..i + n], links, false);
            for (k, line) in inner.trim_end_matches('\n').split('\n').enumerate() {
                if k > 0 {
                    out.push('\n');
                }
                out.push('>');
                if !line.is_empty() {
                    out.push(' ');
                    out.push_str(line);
                }
            }
            i += n;
            continue;
        }
        match b.kind {
            Kind::Cell { .. } => {
                let n = run(
                    &blocks[i..],
                    |prev, next| matches!((prev.kind.cell(), next.kind.cell()), (Some(a), Some(b)) if b >= a),
                );
                let cells = &blocks[i..i + n];
                if is_data_table(cells) {
                    table(&mut out, cells, links);
                } else {
                    // A table that lays out the page: its cells' blocks as paragraphs.
                    for (k, b) in cells.iter().enumerate() {
                        if k > 0 {
                            out.push_str("\n\n");
                        }
                        out.push_str(&inline(b, links, Line::Breaks));
                    }
                }
                i += n;
                continue;
            }
            Kind::Item { .. } => {
                let n = run(&blocks[i..], |_, next| {
                    matches!(next.kind, Kind::Item { .. })
                });
                list(&mut out, &blocks[i..i + n], links);
                i += n;
                continue;
            }
            Kind::Heading(level) => {
                out.push_str(&"#".repeat(level.clamp(1, 6) as usize));
                out.push(' ');
                out.push_str(&inline(b, links, Line::One));
            }
            Kind::Code => code_block(&mut out, &b.text),
            Kind::Quote => {
                let text = inline(b, links, Line::Breaks);
                for (k, line) in text.split('\n').enumerate() {
                    if k > 0 {
                        out.push('\n');
                    }
                    out.push_str("> ");
                    out.push_str(line);
                }
            }
            _ => out.push_str(&inline(b, links, Line::Breaks)),
        }
        i += 1;
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Whether links are written, and what relative ones are relative to.
#[derive(Clone, Copy)]
struct Links<'a> {
    on: bool,
    base: Option<&'a url::Url>,
}

impl Links<'_> {
    /// A link's target, absolute where the base allows.
    fn resolve(&self, href: &str) -> String {
        self.base
            .and_then(|b| b.join(href).ok())
            .map_or_else(|| href.to_owned(), String::from)
    }
}

/// What the page's links are relative to: its `<base href>`, else its URL.
fn link_base(doc: &Document) -> Option<url::Url> {
    let page = url::Url::parse(&doc.meta.url).ok()?;
    Some(
        doc.base
            .as_deref()
            .and_then(|b| page.join(b.trim()).ok())
            .unwrap_or(page),
    )
}

/// How many blocks from the first form a run, each joined to the one before by `joins`.
fn run(blocks: &[&Block], joins: impl Fn(&Block, &Block) -> bool) -> usize {
    1 + blocks.windows(2).take_while(|w| joins(w[0], w[1])).count()
}

/// Consecutive list items as a list, nested by their depth.
fn list(out: &mut String, items: &[&Block], links: Links<'_>) {
    // Per depth: the width of the item's marker (where nested items start) and the number of
    // the next item of an ordered list.
    let mut widths: Vec<usize> = Vec::new();
    let mut numbers: Vec<u32> = Vec::new();
    // Depths relative to the first item's, each at most one deeper than the item before (a
    // list indented further would be code).
    let base = match items.first().map(|b| b.kind) {
        Some(Kind::Item { depth, .. }) => depth as usize,
        _ => 1,
    };
    let mut last = 0;
    for (k, b) in items.iter().enumerate() {
        let Kind::Item { ordered, depth } = b.kind else {
            continue;
        };
        let depth = (depth as usize + 1)
            .saturating_sub(base)
            .clamp(1, last + 1)
            .min(16);
        last = depth;
        widths.truncate(depth - 1);
        widths.resize(depth - 1, 2);
        numbers.resize(depth, 0);
        numbers.truncate(depth);
        let indent: usize = widths.iter().sum();
        let marker = if ordered {
            numbers[depth - 1] += 1;
            format!("{}. ", numbers[depth - 1])
        } else {
            numbers[depth - 1] = 0;
            "- ".to_owned()
        };
        if k > 0 {
            out.push('\n');
        }
        out.push_str(&" ".repeat(indent));
        out.push_str(&marker);
        let text = inline(b, links, Line::Breaks);
        for (j, line) in text.split('\n').enumerate() {
            if j > 0 {
                out.push('\n');
                out.push_str(&" ".repeat(indent + marker.len()));
            }
            out.push_str(line);
        }
        widths.push(marker.len());
    }
}

/// Whether the cells of a table hold data (written as a pipe table) rather than lay out a
/// page: at least two rows and two columns, and no cell of more than [`MAX_CELL_CHARS`]
/// (a page's text laid out in columns).
fn is_data_table(cells: &[&Block]) -> bool {
    let mut size: std::collections::BTreeMap<(u32, u32), usize> = Default::default();
    for b in cells {
        if let Some(p) = b.kind.cell() {
            *size.entry(p).or_default() += b.text.chars().count();
        }
    }
    let rows = size
        .keys()
        .map(|p| p.0)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let cols = size
        .keys()
        .map(|p| p.1)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    rows >= 2 && cols >= 2 && size.values().all(|&n| n <= MAX_CELL_CHARS)
}

/// The most text a cell of a data table holds.
const MAX_CELL_CHARS: usize = 1000;

/// A table's cells as a pipe table: rows in order, each cell in its column, the first row as
/// the header.
fn table(out: &mut String, cells: &[&Block], links: Links<'_>) {
    let mut rows: Vec<(u32, Vec<String>)> = Vec::new();
    for b in cells {
        let Some((row, col)) = b.kind.cell() else {
            continue;
        };
        if rows.last().is_none_or(|(r, _)| *r != row) {
            rows.push((row, Vec::new()));
        }
        let cols = &mut rows.last_mut().expect("a row").1;
        let col = (col as usize).min(MAX_COLUMNS - 1);
        if cols.len() <= col {
            cols.resize(col + 1, String::new());
        }
        let text = inline(b, links, Line::Cell);
        let cell = &mut cols[col];
        if !cell.is_empty() {
            cell.push(' ');
        }
        cell.push_str(&text);
    }
    let width = rows.iter().map(|(_, c)| c.len()).max().unwrap_or(1).max(1);
    for (k, (_, cols)) in rows.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push('|');
        for c in 0..width {
            out.push(' ');
            out.push_str(cols.get(c).map_or("", String::as_str));
            out.push_str(" |");
        }
        if k == 0 {
            out.push_str("\n|");
            out.push_str(&" --- |".repeat(width));
        }
    }
}

/// Preformatted text as a fenced code block, the fence longer than any run of backticks in it.
fn code_block(out: &mut String, text: &str) {
    let fence = "`".repeat(3.max(longest_run(text, '`') + 1));
    out.push_str(&fence);
    out.push('\n');
    out.push_str(text);
    out.push('\n');
    out.push_str(&fence);
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for ch in text.chars() {
        cur = if ch == c { cur + 1 } else { 0 };
        best = best.max(cur);
    }
    best
}

/// Where a block's text goes, which decides what becomes of its line breaks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Line {
    /// A paragraph, list item or quote: line breaks are hard breaks (`\` at the line's end).
    Breaks,
    /// A heading: one line.
    One,
    /// A table cell: one line, `|` escaped in code spans too.
    Cell,
}

/// Inline markup of a block's text: a tree of the spans its marks open and close.
enum Node {
    Text(String),
    Span(u8, Option<usize>, Vec<Node>),
}

/// The block's text with its emphasis, code and links, escaped.
fn inline(b: &Block, links: Links<'_>, line: Line) -> String {
    let marked = b.marked.as_deref().unwrap_or(&b.text);
    let nodes = parse(marked);
    let mut out = String::new();
    render(&nodes, b, links, line, &mut out);
    // Lines: trimmed, no blank ones, and each (but the first) marked as a hard break.
    let lines: Vec<&str> = out
        .split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    match line {
        Line::Breaks => lines.join("\\\n"),
        Line::One | Line::Cell => lines.join(" "),
    }
}

/// The tree of a marked text; a mark that ends nothing open is dropped, and spans still open
/// at the end are closed there.
fn parse(marked: &str) -> Vec<Node> {
    let mut stack: Vec<(u8, Option<usize>, Vec<Node>)> = vec![(0, None, Vec::new())];
    let mut link = 0;
    let mut text = String::new();
    let flush = |text: &mut String, stack: &mut Vec<(u8, Option<usize>, Vec<Node>)>| {
        if !text.is_empty() {
            stack
                .last_mut()
                .expect("root")
                .2
                .push(Node::Text(std::mem::take(text)));
        }
    };
    for c in marked.chars() {
        let m = c as u32;
        if m >= 0x20 || !mark::is_mark(m as u8) {
            text.push(c);
            continue;
        }
        let m = m as u8;
        flush(&mut text, &mut stack);
        match m {
            mark::EM | mark::STRONG | mark::CODE => stack.push((m, None, Vec::new())),
            mark::LINK => {
                stack.push((m, Some(link), Vec::new()));
                link += 1;
            }
            mark::EM_END | mark::STRONG_END | mark::CODE_END | mark::LINK_END => {
                let open = m - 1;
                if let Some(p) = stack.iter().rposition(|(k, _, _)| *k == open)
                    && p > 0
                {
                    while stack.len() > p {
                        let (k, l, nodes) = stack.pop().expect("open span");
                        stack
                            .last_mut()
                            .expect("root")
                            .2
                            .push(Node::Span(k, l, nodes));
                    }
                }
            }
            _ => {}
        }
    }
    flush(&mut text, &mut stack);
    while stack.len() > 1 {
        let (k, l, nodes) = stack.pop().expect("open span");
        stack
            .last_mut()
            .expect("root")
            .2
            .push(Node::Span(k, l, nodes));
    }
    stack.pop().expect("root").2
}

fn render(nodes: &[Node], b: &Block, links: Links<'_>, line: Line, out: &mut String) {
    let mut k = 0;
    while k < nodes.len() {
        let node = &nodes[k];
        k += 1;
        match node {
            Node::Text(t) => escape(out, t),
            Node::Span(mark::CODE, _, inner) => {
                // Code spans next to each other are one (their backticks would run together).
                let mut text = String::new();
                plain(inner, &mut text);
                while let Some(Node::Span(mark::CODE, _, next)) = nodes.get(k) {
                    plain(next, &mut text);
                    k += 1;
                }
                code_span(out, &text, line);
            }
            Node::Span(kind, link, inner) => {
                let mut text = String::new();
                render(inner, b, links, line, &mut text);
                let trimmed = text.trim();
                let (lead, trail) = (
                    &text[..text.len() - text.trim_start().len()],
                    &text[text.trim_end().len()..],
                );
                let target = link
                    .and_then(|l| b.links.get(l))
                    .filter(|_| links.on)
                    .map(|href| links.resolve(href));
                let delim = match *kind {
                    mark::EM => "*",
                    mark::STRONG => "**",
                    _ => "",
                };
                out.push_str(lead);
                if trimmed.is_empty() {
                } else if let Some(url) = target {
                    out.push('[');
                    out.push_str(trimmed);
                    out.push_str("](");
                    link_target(out, &url);
                    out.push(')');
                } else if !delim.is_empty() && can_emphasise(trimmed) && !out.ends_with('*') {
                    out.push_str(delim);
                    out.push_str(trimmed);
                    out.push_str(delim);
                } else {
                    out.push_str(trimmed);
                }
                out.push_str(trail);
            }
        }
    }
}

/// Emphasis delimiters around `text` open and close whatever is around them (CommonMark's
/// flanking rules) when it starts and ends with a letter or digit (and they do not follow
/// another `*`, which would make one delimiter run of both).
fn can_emphasise(text: &str) -> bool {
    let ok = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    ok(text.chars().next()) && ok(text.chars().last())
}

/// The text of a tree without its markup.
fn plain(nodes: &[Node], out: &mut String) {
    for node in nodes {
        match node {
            Node::Text(t) => out.push_str(t),
            Node::Span(_, _, inner) => plain(inner, out),
        }
    }
}

/// A code span: backticks one more than the longest run inside, a space inside them where the
/// text starts or ends with a backtick (CommonMark strips one).
fn code_span(out: &mut String, text: &str, line: Line) {
    let text = text.replace('\n', " ");
    if text.trim().is_empty() {
        out.push_str(&text);
        return;
    }
    let lead = &text[..text.len() - text.trim_start().len()];
    let trail = &text[text.trim_end().len()..];
    let text = text.trim();
    let text = if line == Line::Cell {
        text.replace('|', "\\|")
    } else {
        text.to_owned()
    };
    let ticks = "`".repeat(longest_run(&text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    out.push_str(lead);
    out.push_str(&ticks);
    out.push_str(pad);
    out.push_str(&text);
    out.push_str(pad);
    out.push_str(&ticks);
    out.push_str(trail);
}

/// A link's destination: spaces, controls and `<>` percent-encoded, `\`, `(`, `)` escaped.
fn link_target(out: &mut String, url: &str) {
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\\' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
}

/// Append text with everything Markdown could read as markup escaped: ASCII punctuation that
/// is markup anywhere, and at a line's start (after a line break, which stays as `\n`) what
/// starts a block (`-`, `+`, `=`, digits and `.` or `)`). Tabs become spaces.
fn escape(out: &mut String, text: &str) {
    // Where `out` stands: at a line's start (nothing but spaces on it yet), or after only
    // digits at a line's start.
    let line = out.rsplit('\n').next().unwrap_or("").trim();
    let mut at_start = line.is_empty();
    let mut digits = !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit());
    for c in text.chars() {
        let c = if c == '\t' { ' ' } else { c };
        if at_start && c == ' ' {
            out.push(c);
            continue;
        }
        let line_start_markup = at_start && matches!(c, '-' | '+' | '=');
        let list_number = digits && matches!(c, '.' | ')');
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '!' | '|' | '~' | '&'
        ) || line_start_markup
            || list_number
        {
            out.push('\\');
        }
        out.push(c);
        digits = c.is_ascii_digit() && (at_start || digits);
        at_start = c == '\n';
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    fn doc(html: &str) -> Document {
        let ex = crate::Extractor::new(&crate::Options {
            config: crate::analyze::Config {
                threshold: Some(1.0),
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap();
        ex.extract(html.as_bytes(), Some("https://example.org/dir/page"))
    }

    #[test]
    fn blocks_become_markdown_by_kind() {
        let d = doc(
            "<body><h2>Title <em>here</em></h2><p>Some <b>bold</b>, <i>it</i> and \
            <code>x()</code> with <a href=/a>a link</a>.<br>Next line</p>\
            <ul><li>one<ol><li>first</li><li>second</li></ol></li><li>two</li></ul>\
            <table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2 | 3</td></tr></table>\
            <pre>let x = `y`;\n  z</pre><blockquote>Quoted</blockquote></body>",
        );
        assert_eq!(
            write(&d, true),
            "## Title *here*\n\n\
             Some **bold**, *it* and `x()` with [a link](https://example.org/a).\\\nNext line\n\n\
             - one\n  1. first\n  2. second\n- two\n\n\
             | A | B |\n| --- | --- |\n| 1 | 2 \\| 3 |\n\n\
             ```\nlet x = `y`;\n  z\n```\n\n\
             > Quoted\n"
        );
        assert!(write(&d, false).contains(" with a link.\\\n"));
    }

    #[test]
    fn comments_kept_are_a_quote() {
        let mut d = doc(
            "<body><h2>Tomatoes</h2><p>Plant them late.</p><h3>2 Comments</h3>\
             <ul><li>Mary: thanks.</li><li>Tom: and bush ones?</li></ul><p>Reply</p></body>",
        );
        for b in &mut d.blocks[2..] {
            b.comment = true;
        }
        d.comments = crate::Comments::Keep;
        assert_eq!(
            write(&d, true),
            "## Tomatoes\n\nPlant them late.\n\n\
             > ### 2 Comments\n>\n> - Mary: thanks.\n> - Tom: and bush ones?\n>\n> Reply\n"
        );
        d.comments = crate::Comments::Drop;
        assert_eq!(write(&d, true), "## Tomatoes\n\nPlant them late.\n");
    }

    #[test]
    fn tables_that_lay_out_a_page_are_paragraphs() {
        let long = "word ".repeat(250);
        let d = doc(&format!(
            "<body><table><tr><td>Menu<td>{long}</tr><tr><td>x<td>y</table>\
             <table><tr><td>only one row<td>two cells</table></body>"
        ));
        let md = write(&d, true);
        assert!(!md.contains('|'), "{md}");
        assert!(md.starts_with("Menu\n\nword word"), "{md}");
        assert!(md.ends_with("y\n\nonly one row\n\ntwo cells\n"), "{md}");
    }

    #[test]
    fn text_is_escaped() {
        let mut s = String::new();
        escape(
            &mut s,
            "1. not a list *or* _emphasis_ [x](y) <b> # & | ~ `c` \\",
        );
        assert_eq!(
            s,
            "1\\. not a list \\*or\\* \\_emphasis\\_ \\[x\\](y) \\<b\\> \\# \\& \\| \\~ \\`c\\` \\\\"
        );
        let mut s = String::new();
        escape(&mut s, "- dash\n+ plus\n= eq\n2024) year");
        assert_eq!(s, "\\- dash\n\\+ plus\n\\= eq\n2024\\) year");
    }
}

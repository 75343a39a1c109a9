//! HTML5 tokenizing: how the segmenter reads the markup at a `<` with
//! [`Syntax::Html5`](super::Syntax::Html5): comments, CDATA sections, tags, and the content of
//! raw-text and RCDATA elements, which is not markup.

use std::ops::ControlFlow::{self, Break, Continue};

use memchr::{memchr, memmem};

use super::scan::{collapse, find_end_tag, find_tag_end, is_html_ws};
use super::segmenter::{Anchor, State, Stripper};
use super::tags::{set, tag_sets};

impl Stripper<'_> {
    /// HTML5's reading of the markup at the `<` at `lt` (`c` is the byte after it): a
    /// comment, a CDATA section, a tag, or a `<` that starts none and is text. Continues at
    /// the position after it, or breaks where segmentation stops.
    pub(super) fn html5_markup(&mut self, lt: usize, c: u8) -> ControlFlow<usize, usize> {
        let raw = self.raw;
        if !(c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?')) {
            self.write_text(b"<");
            return Continue(lt + 1);
        }
        // Comments and CDATA sections.
        if raw[lt + 1..].starts_with(b"!--") {
            return self.declaration(b"!--", comment_end(raw, lt));
        }
        if raw.len() >= lt + 9 && raw[lt + 1..lt + 9].eq_ignore_ascii_case(b"![cdata[") {
            return self.declaration(b"![cdata[", cdata_end(raw, lt));
        }
        self.html5_tag(lt, c)
    }

    /// A comment or CDATA section that ends at `end`, handed to the block rules as a tag
    /// named `name`.
    fn declaration(&mut self, name: &[u8], end: usize) -> ControlFlow<usize, usize> {
        self.name.clear();
        self.name.extend_from_slice(name);
        self.tag_step(end, false)
    }

    /// A start tag, end tag, doctype or processing instruction at `lt` (`c` after the `<`):
    /// its name is read into `self.name`, what it says about the page recorded, the block
    /// rules applied, and the content of a raw-text or RCDATA element read with it.
    fn html5_tag(&mut self, lt: usize, c: u8) -> ControlFlow<usize, usize> {
        let raw = self.raw;
        let i = self.read_tag_name(lt, c);
        let bogus = matches!(c, b'!' | b'?') || (c == b'/' && self.name.len() == 1);
        let (gt, self_closing) = if bogus {
            (memchr(b'>', &raw[i..]).map(|o| i + o), false)
        } else {
            find_tag_end(raw, i)
        };
        let Some(gt) = gt else {
            // A tag cut off by the end of the input is dropped.
            return Break(raw.len());
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
        self.attrs = if bogus { (0, 0) } else { (i, gt) };
        if !self.on_tag(after, self_closing) {
            return Break(after);
        }
        self.attrs = (0, 0);
        if c != b'/' && !self_closing {
            return Continue(self.raw_text_content((i, gt), after));
        }
        Continue(after)
    }

    /// Read the name of the tag at `lt` (`c` after the `<`) into `self.name`, lower-cased,
    /// with a `/` before an end tag's; returns where its attributes start.
    fn read_tag_name(&mut self, lt: usize, c: u8) -> usize {
        let raw = self.raw;
        let n = raw.len();
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
        i
    }

    /// After the start tag in `self.name` (attributes at `attrs`, content from `after`): the
    /// content of a raw-text or RCDATA element is not markup, and is skipped (RCDATA written
    /// as text) up to its end tag. Returns where markup goes on: at that end tag, or at
    /// `after` for other elements and for one without an end tag.
    fn raw_text_content(&mut self, attrs: (usize, usize), after: usize) -> usize {
        let raw = self.raw;
        let name = self.name.as_slice();
        let sets = tag_sets(name);
        let rcdata = sets & set::RCDATA != 0;
        if !rcdata && sets & set::RAW_TEXT == 0 {
            return after;
        }
        // Without an end tag the element is taken to end right here (browsers of old did so
        // for an unclosed `<title>`); otherwise one typo in the head would swallow the page. A
        // failed search is remembered, so the cost stays linear however many such tags there
        // are.
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
            return after;
        };
        let (script, title) = (name == b"script", name == b"title");
        if script {
            self.collect_json_ld(attrs, after, close);
        }
        if rcdata {
            let content = &raw[after..close];
            if self.state == State::OutsideDoc && title && self.head.title.is_none() {
                self.head.title = Some(collapse(content));
            }
            self.write_text(content);
        }
        close
    }
}

/// The end of the comment whose `<!--` is at `lt`: after its `-->`, or after the `<!-->` or
/// `<!--->` that HTML5 takes for an empty comment; the end of the input when it has none.
fn comment_end(raw: &[u8], lt: usize) -> usize {
    let body = lt + 4;
    if raw[body..].starts_with(b">") {
        body + 1
    } else if raw[body..].starts_with(b"->") {
        body + 2
    } else {
        memmem::find(&raw[body..], b"-->").map_or(raw.len(), |o| body + o + 3)
    }
}

/// The end of the CDATA section whose `<![CDATA[` is at `lt`. A CDATA section (in SVG or
/// MathML) ends at `]]>`; anywhere else HTML5 reads `<![CDATA[` as a bogus comment that ends
/// at the first `>`. A stray one would otherwise hide the rest of the page: the section is
/// taken when its `]]>` comes before the next tag.
fn cdata_end(raw: &[u8], lt: usize) -> usize {
    let n = raw.len();
    let body = lt + 9;
    let close = memmem::find(&raw[body..], b"]]>").map(|o| body + o + 3);
    let next_tag = memchr(b'<', &raw[body..]).map_or(n, |o| body + o);
    match close {
        Some(c) if c <= next_tag => c,
        _ => memchr(b'>', &raw[body..]).map_or(n, |o| body + o + 1),
    }
}

#[cfg(test)]
mod tests {
    use crate::html::segmenter::tests::texts;

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
}

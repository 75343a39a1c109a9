//! Writing into blocks: the text the page shows, with whitespace collapsed and as it is
//! shown (line breaks, preformatted text); the [`mark`]s of inline markup and the links they
//! stand for; and what a block's first text takes from the elements around it (path, kind,
//! depth, cues, markup tokens).

use super::block::{NEAR, is_ws, push_collapsed, push_verbatim};
use super::clues;
use super::cue;
use super::mark;
use super::markup::MAX_BLOCK_TOKENS;
use super::scan::{attributes, collapse};
use super::segmenter::{State, Stripper, Syntax};
use crate::document::Kind;

impl Stripper<'_> {
    /// Write text the page shows (`bytes`, in the text state only) into the current block:
    /// its clue captures, its shown text, its text with whitespace collapsed, and, with its
    /// first text, what the elements around it say (path, kind, depth, cues, markup tokens)
    /// and which open elements got text.
    pub(super) fn write_text(&mut self, bytes: &[u8]) {
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
        // A block's text mostly grows by several writes: its first buffer holds 64 bytes.
        t.reserve(if t.capacity() == 0 {
            bytes.len().max(64)
        } else {
            bytes.len()
        });
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
                let (start, end) = (before as u32, t.len() as u32);
                block.link_bytes += end - start;
                block.link_words += words;
                match self.link_spans.last_mut() {
                    Some(last) if (last.0, last.2) == (cur as u32, start) => last.2 = end,
                    _ => self.link_spans.push((cur as u32, start, end)),
                }
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
    pub(super) fn line_break(&mut self) {
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

    /// Mark the start of inline markup in the current block's shown text ([`mark`], HTML5
    /// syntax); returns the mark that ends it and the block, for
    /// [`Open::mark_end`](super::segmenter::Open::mark_end).
    pub(super) fn inline_mark(&mut self, name: &[u8], pre: bool) -> (u8, u32) {
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
    pub(super) fn push_mark(&mut self, m: u8) {
        let Some(cur) = self.cur else { return };
        let block = &mut self.blocks[cur];
        block
            .shown
            .get_or_insert_with(|| block.text.clone())
            .push(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::segmenter::tests::{blocks, shown, texts, texts_with};
    use crate::html::{Syntax, raw_text_lines};

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
    fn link_text_and_structural_cues() {
        let html = r#"<body><nav class="site-menu"><ul><li><a href="/">Home</a></li></ul></nav>
            <div id="content"><p>Some <a href="x">linked words</a> in a sentence.
            <a name="unclosed">more</div><p>after the div</p>
            <div class="comments"><h2>Reply</h2></div>
            <footer><table><tr><td>© 2024</td></tr></table></footer></body>"#;
        let b = blocks(html);
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
        // Where the link text is: its block and bytes.
        let raw = crate::html::raw_text(html.as_bytes());
        let seg = crate::html::segment(&raw, Default::default(), Syntax::Html5);
        let spans: Vec<String> = (seg.link_spans.iter())
            .map(|&(b, s, e)| {
                let block = &seg.blocks[b as usize].text;
                format!(
                    "{}:{}",
                    String::from_utf8_lossy(block),
                    String::from_utf8_lossy(&block[s as usize..e as usize])
                )
            })
            .collect();
        assert_eq!(
            spans,
            [
                "Home:Home",
                "Some linked words in a sentence. more:linked words",
                "Some linked words in a sentence. more:more"
            ]
        );
        assert_eq!(b[1].cues, cue::ARTICLE | cue::P | cue::LINK);
        assert_eq!(b[2].cues, cue::P);
        assert_eq!(b[3].cues, cue::COMMENT | cue::HEADING);
        assert_eq!(b[4].cues, cue::FOOTER | cue::TABLE);
    }
}

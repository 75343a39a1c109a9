//! texrex's own scanner ([`Syntax::Texrex`](super::Syntax::Texrex)), bugs included: quotes
//! toggle wherever they appear in a tag, so a stray one swallows markup up to the next
//! matching quote; `<` inside scripts starts tags; names end only at a space or `>`; a `<`
//! that starts no tag is written with the character after it. It reproduces texrex's
//! features on the pages its networks were trained on.

use std::ops::ControlFlow::{self, Continue};

use memchr::{memchr, memmem};

use super::segmenter::{State, Stripper};

impl Stripper<'_> {
    /// texrex's reading of the markup at the `<` at `lt`: a tag is handed to the block rules;
    /// a `<` that starts no tag is text. Continues at the position after it, or breaks where
    /// segmentation stops.
    pub(super) fn texrex_markup(&mut self, lt: usize) -> ControlFlow<usize, usize> {
        match self.texrex_tag(lt) {
            Some(after) => self.tag_step(after, false),
            None => {
                // A `<` that starts no tag: texrex writes it and the next character.
                let raw = self.raw;
                self.write_text(&raw[lt..lt + 2]);
                Continue(lt + 2)
            }
        }
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
}

#[cfg(test)]
mod tests {
    use crate::html::{Limits, Syntax, raw_text, segment};

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
}

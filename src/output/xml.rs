//! texrex's XML corpus format: one tag per line, no declaration and no root element.
//!
//! ```text
//! <doc url="…" id="…" ip="…" sourcecharset="…" sourcedoctype="…" bdc="…" bdv="…" nbc="…" nbcprop="…" nbd="…" nbdprop="…" avgbpc="…" avgbpd="…" host="…" tld="…" language="…" bpt="…" date="…" last-modified="…" warc-date="…" warc-record-id="…" author="…" published="…" modified="…" sitename="…" canonical="…" declared-language="…">
//! <meta name="arcfile" content="…" />
//! <meta name="arcoffset" content="…" />
//! <meta name="arclength" content="…" />
//! <meta name="signals" content="gopher_words=412 gopher_non_symbol_words=371 …" />
//! <title>
//! …
//! </title>
//! <div idx="0" bpc="…" bpv="…" mlp="…" ngram="…" justext="…" justextcf="…" stopwords="…" boilerpipe="…" bpdensity="…" linkdensity="…" textdensity="…" kind="…">
//! text
//! </div>
//! </doc>
//! ```
//! `signals` holds the quality signals (docs/formats.md#quality-signals) as `name=value`
//! pairs, when they are on; a content block whose lines C4's rules drop has `c4="…"` after its
//! other attributes. Only some documents have `truncated`, `declared-charset` and `duplicate-of`, in this order
//! after `declared-language`. Escaping is texrex's (`& " ' < >`); the text is already free of
//! XML-illegal characters.
//!
//! The same writer makes VRT (CWB's vertical format): the same lines, with every text line
//! replaced by its tokens, one per line (Unicode word boundaries, UAX #29), and a block's
//! tokens in `<s>` elements, one per sentence (`src/sentences.rs`).

use unicode_segmentation::UnicodeSegmentation;

use super::number::{format_general, write_general};
use crate::analyze::DupBlocks;
use crate::classify::quality;
pub use crate::document::bpc;
use crate::document::{Document, Language};
use std::fmt::Write as _;
use std::io::Write;

/// Which of the two line formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// texrex's XML: one text line per block.
    Xml,
    /// VRT: one token per line.
    Vrt,
}

/// Append a text line (XML) or its tokens, one per line (VRT).
fn text_lines(out: &mut Vec<u8>, text: &str, lines: Lines) {
    match lines {
        Lines::Xml => {
            escape_into(out, text);
            out.push(b'\n');
        }
        Lines::Vrt => tokens(out, text),
    }
}

/// Append the tokens of `text`, one per line (Unicode word boundaries, UAX #29).
fn tokens(out: &mut Vec<u8>, text: &str) {
    for tok in text.split_word_bounds() {
        if tok.chars().all(char::is_whitespace) {
            continue;
        }
        escape_into(out, tok);
        out.push(b'\n');
    }
}

/// Append a block's text: a line (XML), or its sentences as `<s>` elements of a token per line
/// (VRT), with the abbreviations of the language `iso639_1` (`src/sentences.rs`).
fn block_lines(out: &mut Vec<u8>, text: &str, lines: Lines, iso639_1: Option<&str>) {
    if lines == Lines::Xml {
        return text_lines(out, text, lines);
    }
    for s in crate::sentences::sentences(text, iso639_1) {
        if s.trim().is_empty() {
            continue;
        }
        out.extend_from_slice(b"<s>\n");
        tokens(out, s);
        out.extend_from_slice(b"</s>\n");
    }
}

/// Append `s` with texrex's XML escaping, leaving out the characters XML 1.0 does not allow
/// (the text has none; a header value or a file name may).
pub(crate) fn escape_into(out: &mut Vec<u8>, s: &str) {
    // The bytes that may need escaping or leaving out.
    static SPECIAL: [bool; 256] = {
        let mut t = [false; 256];
        let mut c = 0;
        while c < 0x20 {
            t[c] = !matches!(c, 0x09 | 0x0a | 0x0d);
            c += 1;
        }
        t[b'&' as usize] = true;
        t[b'"' as usize] = true;
        t[b'\'' as usize] = true;
        t[b'<' as usize] = true;
        t[b'>' as usize] = true;
        t[0xef] = true;
        t
    };
    let b = s.as_bytes();
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        if !SPECIAL[b[i] as usize] {
            i += 1;
            continue;
        }
        let (rep, len): (&[u8], usize) = match b[i] {
            b'&' => (b"&amp;", 1),
            b'"' => (b"&quot;", 1),
            b'\'' => (b"&apos;", 1),
            b'<' => (b"&lt;", 1),
            b'>' => (b"&gt;", 1),
            0..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f => (b"", 1),
            // U+FFFE and U+FFFF
            0xef if b[i + 1] == 0xbf && b[i + 2] >= 0xbe => (b"", 3),
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(&b[last..i]);
        out.extend_from_slice(rep);
        i += len;
        last = i;
    }
    out.extend_from_slice(&b[last..]);
}

fn attr(out: &mut Vec<u8>, name: &str, value: &str) {
    out.push(b' ');
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"=\"");
    escape_into(out, value);
    out.push(b'"');
}

fn opt(v: &Option<String>) -> &str {
    v.as_deref().filter(|s| !s.is_empty()).unwrap_or("unknown")
}

/// ` duplicate-of="ID"`, the attribute that marks a duplicate of document `ID` (the last one of
/// `<doc>`).
pub fn duplicate_mark(id: &str) -> Vec<u8> {
    let mut mark = Vec::new();
    attr(&mut mark, "duplicate-of", id);
    mark
}

/// Append one document in texrex's line format (or VRT), with `duplicate-of` when
/// [`Document::duplicate_of`] is set. Returns the position of the `>` that ends the `<doc …>`
/// start tag: a document that is not a duplicate becomes a duplicate with its duplicate
/// mark inserted there.
pub fn write_doc(out: &mut Vec<u8>, doc: &Document, lines: Lines, dup_blocks: DupBlocks) -> usize {
    let f = &doc.figures;
    out.extend_from_slice(b"<doc");
    attr(out, "url", &doc.meta.url);
    attr(out, "id", &doc.id);
    attr(out, "ip", opt(&doc.meta.ip));
    attr(out, "sourcecharset", &doc.source_charset);
    attr(out, "sourcedoctype", doc.doctype.as_str());
    // Without profiles texrex writes 0/"a" (text assessment off).
    let bdv = doc.badness.unwrap_or(0.0);
    attr(out, "bdc", &quality::bdc(bdv).to_string());
    attr(out, "bdv", &format_general(bdv));
    attr(out, "nbc", &f.nbc.to_string());
    attr(out, "nbcprop", &format_general(f.nbcprop));
    attr(out, "nbd", &f.nbd.to_string());
    attr(out, "nbdprop", &format_general(f.nbdprop));
    attr(out, "avgbpc", &format_general(f.avgbpc));
    attr(out, "avgbpd", &format_general(f.avgbpd));
    attr(
        out,
        "host",
        if doc.host.is_empty() {
            "unknown"
        } else {
            &doc.host
        },
    );
    attr(
        out,
        "tld",
        if doc.tld.is_empty() {
            "unknown"
        } else {
            &doc.tld
        },
    );
    attr(out, "language", Language::code_of(doc.language.as_ref()));
    attr(
        out,
        "language-script",
        doc.language.and_then(|l| l.script).unwrap_or(""),
    );
    let score = doc.language.as_ref().map(super::language_score);
    attr(
        out,
        "language-score",
        &score.map(format_general).unwrap_or_default(),
    );
    attr(out, "bpt", &format_general(doc.threshold as f64));
    attr(out, "date", opt(&doc.meta.http_date));
    attr(out, "last-modified", opt(&doc.meta.last_modified));
    attr(out, "warc-date", opt(&doc.meta.warc_date));
    attr(out, "warc-record-id", opt(&doc.meta.record_id));
    let m = &doc.metadata;
    attr(out, "author", opt(&m.author));
    attr(out, "published", opt(&m.published));
    attr(out, "modified", opt(&m.modified));
    attr(out, "sitename", opt(&m.sitename));
    attr(out, "canonical", opt(&m.canonical));
    attr(out, "declared-language", opt(&m.declared_language));
    if let Some(t) = &doc.meta.truncated {
        attr(out, "truncated", t);
    }
    if let Some(c) = &doc.declared_charset {
        attr(out, "declared-charset", c);
    }
    let mark_at = out.len();
    if let Some(id) = &doc.duplicate_of {
        out.extend_from_slice(&duplicate_mark(id));
    }
    out.extend_from_slice(b">\n");
    let meta = |out: &mut Vec<u8>, name: &str, content: &str| {
        out.extend_from_slice(b"<meta name=\"");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"\" content=\"");
        escape_into(out, content);
        out.extend_from_slice(b"\" />\n");
    };
    meta(out, "arcfile", &doc.meta.arcfile);
    meta(out, "arcoffset", &doc.meta.arcoffset.to_string());
    meta(out, "arclength", &doc.meta.arclength.to_string());
    if let Some(d) = &m.description {
        meta(out, "description", d);
    }
    if let Some(sig) = &doc.signals {
        let mut content = String::new();
        for (i, (name, v)) in sig.iter().enumerate() {
            if i > 0 {
                content.push(' ');
            }
            write!(content, "{name}={v}").expect("writing to a String");
        }
        meta(out, "signals", &content);
    }
    for (tag, value) in [("title", &m.title), ("keywords", &doc.keywords)] {
        if let Some(v) = value {
            writeln!(out, "<{tag}>").expect("writing to a Vec");
            text_lines(out, v, lines);
            writeln!(out, "</{tag}>").expect("writing to a Vec");
        }
    }
    for b in &doc.blocks {
        if let Some(of) = b.dup_of {
            if dup_blocks == DupBlocks::Mark {
                write!(
                    out,
                    "<dup idx=\"{}\" of=\"{of}\">\ndupblank\n</dup>\n",
                    b.idx
                )
                .expect("writing to a Vec");
            }
            continue;
        }
        out.extend_from_slice(b"<div idx=\"");
        out.extend_from_slice(itoa::Buffer::new().format(b.idx).as_bytes());
        out.extend_from_slice(b"\" bpc=\"");
        out.push(bpc(b.bpv) as u8);
        out.extend_from_slice(b"\" bpv=\"");
        write_general(out, b.bpv as f64);
        out.push(b'"');
        let fields = super::block_scores(b)
            .chain(super::kind_fields(b))
            .chain(super::block_language(b));
        for (name, score) in fields {
            out.push(b' ');
            // XML's names of two words have a hyphen.
            let name = if name == "language_score" {
                "language-score"
            } else {
                name
            };
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b"=\"");
            score.write_into(out);
            out.push(b'"');
        }
        if let Some(c4) = &b.c4 {
            attr(out, "c4", c4);
        }
        out.extend_from_slice(b">\n");
        let language = b.language.or(doc.language).and_then(|l| l.iso639_1);
        block_lines(out, &b.text, lines, language);
        out.extend_from_slice(b"</div>\n");
    }
    out.extend_from_slice(b"</doc>\n");
    mark_at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_classes() {
        let mut v = Vec::new();
        escape_into(&mut v, "a&b\"c'd<e>f");
        assert_eq!(v, b"a&amp;b&quot;c&apos;d&lt;e&gt;f");
        // Characters XML forbids are left out; tabs, line breaks and the rest stay.
        v.clear();
        escape_into(
            &mut v,
            "\u{0}a\u{1}\tb\u{1f}\u{fffe}c\u{fffd}\u{ffff}\r\n\u{10000}&",
        );
        assert_eq!(v, "a\tbc\u{fffd}\r\n\u{10000}&amp;".as_bytes());
        // Halves round to even: 2.5 → 2, 7.5 → 8.
        assert_eq!(
            (
                bpc(-1.0),
                bpc(0.0),
                bpc(0.25),
                bpc(0.75),
                bpc(0.5),
                bpc(1.0)
            ),
            ('a', 'a', 'c', 'i', 'f', 'k')
        );
    }
}

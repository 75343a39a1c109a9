//! The document type by texrex's patterns over the part of a page before `<body>`.

use crate::document::Doctype;
use memchr::{memchr, memmem};

/// The document type by texrex's patterns, the first that matches anywhere in the header:
/// `<!doctype.*xhtml 1.*>`, `<!doctype.*html 4.*>`, `<!doctype +html *>` (ASCII case
/// ignored, `.` not a line break). Matched by hand: every match starts at a `<!doctype` and
/// ends on its line, and on a minified page that line is the whole header.
pub(super) fn detect_doctype(header: &[u8]) -> Doctype {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

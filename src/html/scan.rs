//! Scanning inside markup, shared by the tokenizer, the readers of cues and clues, and the rest
//! of the crate: HTML whitespace, where a tag ends (honouring quoted attribute values), where
//! an element's end tag is, a tag's attributes, and whitespace collapsed in their values.

use memchr::{memchr, memmem};

/// HTML5's ASCII whitespace: tab, line feed, form feed, carriage return, space.
#[inline]
pub(crate) fn is_html_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | b' ' | 0x0c)
}

/// Collapse whitespace runs to one space and trim.
pub(super) fn collapse(bytes: &[u8]) -> Vec<u8> {
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

/// The `key=value` attributes of a tag, in order (values unquoted, entities left as they
/// are).
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

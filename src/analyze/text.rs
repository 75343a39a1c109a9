//! A block's text as the page shows it: whitespace as a browser collapses it, masks,
//! line collapsing, and NFC for the writers ([`shown_text`], [`output_text`]).

use std::borrow::Cow;

use crate::decode;
use crate::features::texrex as tx;
use crate::html;

use super::Mask;

/// A block's text as the page shows it, from its shown text in the page's encoding decoded
/// ([`html::RawBlock::shown`]): entities decoded once (so `&amp;lt;` is `&lt;`, and decoded
/// text that looks like markup stays); soft hyphens, zero-width spaces, word joiners and
/// byte-order marks removed (zero-width joiners and non-joiners stay: scripts and emoji need
/// them); what `mask` names masked as texrex masks it; runs of spaces collapsed and lines
/// trimmed, except in preformatted text, which keeps its spaces and loses only blank lines at
/// its start and whitespace at its end; NFC and XML-safe.
pub fn shown_text(shown: &str, pre: bool, mask: Mask) -> String {
    shown_text_marked(shown, pre, mask, false)
}

/// Whether a block's text (with no line breaks or tabs, as the segmenter writes it) reads the
/// same as its [`shown_text`] and after texrex's second pass and [`output_text`]: no
/// character reference, tag, or anything the masks could match (`@`, `#`, a URI's `://` or
/// `www.`), no control character, nothing either path removes (characters XML forbids, soft
/// hyphens, zero-width spaces, word joiners, byte-order marks), and no other space than
/// U+0020 at its end (the shown text trims every kind).
pub(super) fn is_plain(text: &str) -> bool {
    let plain_char = |c: char| {
        !matches!(
            c,
            '\0'..='\u{1f}'
                | '&'
                | '<'
                | '@'
                | '#'
                | '\u{ad}'
                | '\u{200b}'
                | '\u{2060}'
                | '\u{feff}'
        ) && !decode::is_xml_illegal(c)
    };
    let plain_chars = if text.is_ascii() {
        text.bytes().all(|b| plain_char(b as char))
    } else {
        text.chars().all(plain_char)
    };
    plain_chars
        && !text.trim_end_matches(' ').ends_with(char::is_whitespace)
        && !tx::may_hold_uri(text)
}

/// [`shown_text`], keeping the segmenter's [`html::mark`]s of inline markup when `marks`.
pub(super) fn shown_text_marked(shown: &str, pre: bool, mask: Mask, marks: bool) -> String {
    let mut text = if shown.contains('&') {
        tx::unescape(shown)
    } else {
        shown.to_owned()
    };
    if !text.is_ascii() {
        text.retain(|c| !matches!(c, '\u{ad}' | '\u{200b}' | '\u{2060}' | '\u{feff}'));
    }
    if marks {
        text.retain(|c| {
            !decode::is_xml_illegal(c) || html::mark::is_mark(c as u32 as u8) && (c as u32) < 0x20
        });
    } else {
        decode::strip_xml_illegal(&mut text);
    }
    if mask.any() {
        text = tx::mask(&text, mask.email, mask.uri, mask.hashtag);
    }
    let text = if pre && !mask.any() {
        let start = text
            .find(|c: char| !c.is_whitespace())
            .map_or(text.len(), |i| text[..i].rfind('\n').map_or(0, |n| n + 1));
        text[start..].trim_end().to_owned()
    } else {
        collapse_lines(&mut text);
        text
    };
    nfc_owned(text)
}

/// Lines of shown text, in place: each line trimmed of spaces and their runs collapsed, the
/// empty lines before the first text dropped, trailing whitespace removed.
fn collapse_lines(text: &mut String) {
    // Only ASCII spaces and line feeds go, so what is left is UTF-8.
    let mut bytes = std::mem::take(text).into_bytes();
    let (mut w, mut r, n) = (0, 0, bytes.len());
    while r <= n {
        let end = memchr::memchr(b'\n', &bytes[r..]).map_or(n, |i| r + i);
        let (mut s, mut e) = (r, end);
        while s < e && bytes[s] == b' ' {
            s += 1;
        }
        while e > s && bytes[e - 1] == b' ' {
            e -= 1;
        }
        if w != 0 || s < e {
            if w != 0 {
                bytes[w] = b'\n';
                w += 1;
            }
            let mut last = b'\n';
            for i in s..e {
                let c = bytes[i];
                if !(c == b' ' && last == b' ') {
                    bytes[w] = c;
                    w += 1;
                }
                last = c;
            }
        }
        r = end + 1;
    }
    bytes.truncate(w);
    *text = String::from_utf8(bytes).expect("only ASCII bytes were removed");
    text.truncate(text.trim_end().len());
}

/// texrex's output text: runs of spaces collapsed, trimmed; then NFC and XML-safe.
pub fn output_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim_matches(' ').chars() {
        if c == ' ' && out.ends_with(' ') {
            continue;
        }
        out.push(c);
    }
    nfc_xml_safe(out)
}

/// [`output_text`] of an owned text, which comes back as it is when it has nothing to change.
pub(super) fn into_output_text(text: String) -> String {
    let spaced = text.starts_with(' ')
        || text.ends_with(' ')
        || memchr::memmem::find(text.as_bytes(), b"  ").is_some();
    if spaced {
        output_text(&text)
    } else {
        nfc_xml_safe(text)
    }
}

/// `text` in NFC, without the characters XML does not allow.
fn nfc_xml_safe(text: String) -> String {
    let mut out = nfc_owned(text);
    decode::strip_xml_illegal(&mut out);
    out
}

/// `text` in NFC: itself when it already is.
fn nfc_owned(text: String) -> String {
    match decode::nfc(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(s) => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_its_own_shown_text_and_second_pass() {
        // Random texts over an alphabet with every character that matters; each one that
        // `is_plain` accepts must read the same by both paths, masked or not.
        let alphabet = [
            "a", "b", " ", "  ", "Z", "9", ".", ":", "/", "w", "W", "&", "<", "@", "#", ";", "-",
            "\x01", "\t", "&lt;", "&amp;", "://", "www.", "<b>", ">", "me@x.org", "é", "e\u{301}",
            "\u{a0}", "\u{3000}", "\u{ad}", "\u{200b}", "\u{2060}", "\u{feff}", "\u{fffe}", "’",
            "\u{85}", "\u{200d}", "\n", " \n ",
        ];
        let all = Mask {
            email: true,
            uri: true,
            hashtag: true,
        };
        let (mut seed, mut plain) = (0x9e37_79b9_7f4a_7c15u64, 0);
        for _ in 0..200_000 {
            let mut s = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for k in 0..seed % 25 {
                s.push_str(alphabet[(seed >> (k * 2 % 56)) as usize % alphabet.len()]);
                seed = seed.rotate_left(5) ^ k;
            }
            if !is_plain(&s) {
                continue;
            }
            plain += 1;
            let second = output_text(&tx::second_pass(&s).text);
            assert_eq!(shown_text(&s, false, all), second, "{s:?}");
            assert_eq!(shown_text(&s, false, Mask::default()), second, "{s:?}");
        }
        assert!(plain > 10_000, "{plain} plain texts");
    }

    #[test]
    fn lines_collapse_in_place_as_line_by_line() {
        // The lines put together one by one, as a reference.
        fn by_lines(text: &str) -> String {
            let mut out = String::new();
            for line in text.split('\n') {
                let line = line.trim_matches(' ');
                if !out.is_empty() || !line.is_empty() {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    let mut last = '\n';
                    for c in line.chars() {
                        if !(c == ' ' && last == ' ') {
                            out.push(c);
                        }
                        last = c;
                    }
                }
            }
            out.truncate(out.trim_end().len());
            out
        }
        let alphabet = [
            " ", "  ", "\n", "a", "é", "\u{a0}", "\u{3000}", "\t", "\n \n",
        ];
        for s in random_texts(0x853c_49e6_748f_ea9b, &alphabet, 11) {
            let mut t = s.clone();
            collapse_lines(&mut t);
            assert_eq!(t, by_lines(&s), "{s:?}");
        }
    }

    /// 50,000 pseudo-random texts of up to `parts` pieces of `alphabet`, from `seed`.
    fn random_texts(mut seed: u64, alphabet: &[&str], parts: u64) -> Vec<String> {
        let mut texts = Vec::new();
        for _ in 0..50_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let piece = |k: u64| alphabet[(seed >> (k * 5 % 60)) as usize % alphabet.len()];
            texts.push((0..seed % (parts + 1)).map(piece).collect());
        }
        texts
    }

    #[test]
    fn output_text_collapses_and_normalises() {
        assert_eq!(output_text("  a   b\u{1}e\u{301} "), "a bé");
        // An owned text reads the same, whether it has anything to change or not.
        let alphabet = [
            " ", "  ", "a", "\u{1}", "e\u{301}", "é", "\u{fffe}", "\t", "\n",
        ];
        for s in random_texts(0x2545_f491_4f6c_dd1d, &alphabet, 8) {
            assert_eq!(into_output_text(s.clone()), output_text(&s), "{s:?}");
        }
    }
}

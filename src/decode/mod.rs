//! Charset sniffing and decoding, Unicode normalisation and XML-safe text.
//!
//! Order of evidence: byte-order mark, then the HTTP `Content-Type` charset, then a `<meta>`
//! prescan of the first 8 KiB, then `chardetng` on at most 16 KiB. Labels are resolved by the
//! WHATWG Encoding Standard (`encoding_rs`), so ISO-8859-1 is read as windows-1252.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};
use memchr::memmem;

/// Bytes of the page given to `chardetng` at most.
pub const DETECT_PREFIX: usize = 16 * 1024;
/// Bytes searched for a `<meta>` charset declaration.
pub const META_PREFIX: usize = 8 * 1024;

/// Where the encoding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// A byte-order mark.
    Bom,
    /// The `charset` parameter of the HTTP `Content-Type`.
    Http,
    /// A `<meta>` charset declaration in the first [`META_PREFIX`] bytes.
    Meta,
    /// None of those: valid UTF-8, else `chardetng`'s guess.
    Detected,
}

/// The encoding chosen for a page.
#[derive(Debug, Clone, Copy)]
pub struct Sniffed {
    /// The encoding to decode the page with.
    pub encoding: &'static Encoding,
    /// Where the encoding came from.
    pub evidence: Evidence,
    /// Length of the byte-order mark to skip.
    pub bom_len: usize,
}

impl Sniffed {
    /// Upper-cased name as written in `sourcecharset` (texrex upper-cases it too).
    pub fn name(&self) -> String {
        self.encoding.name().to_ascii_uppercase()
    }
}

/// Choose the encoding of an HTML payload.
pub fn sniff(payload: &[u8], http_charset: Option<&str>, tld: Option<&str>) -> Sniffed {
    if let Some((enc, bom_len)) = Encoding::for_bom(payload) {
        return Sniffed {
            encoding: enc,
            evidence: Evidence::Bom,
            bom_len,
        };
    }
    if let Some(enc) = http_charset.and_then(|l| Encoding::for_label(l.trim().as_bytes())) {
        return Sniffed {
            encoding: fix_utf16(enc),
            evidence: Evidence::Http,
            bom_len: 0,
        };
    }
    if let Some(enc) = meta_charset(&payload[..payload.len().min(META_PREFIX)]) {
        return Sniffed {
            encoding: fix_utf16(enc),
            evidence: Evidence::Meta,
            bom_len: 0,
        };
    }
    // UTF-8 fast path: valid UTF-8 needs no detector.
    let window_start = if payload[..payload.len().min(DETECT_PREFIX)].is_ascii() {
        if std::str::from_utf8(payload).is_ok() {
            return Sniffed {
                encoding: UTF_8,
                evidence: Evidence::Detected,
                bom_len: 0,
            };
        }
        payload.iter().position(|b| !b.is_ascii()).unwrap_or(0)
    } else {
        0
    };
    let window = &payload[window_start..payload.len().min(window_start + DETECT_PREFIX)];
    match std::str::from_utf8(window) {
        Ok(_) => {
            return Sniffed {
                encoding: UTF_8,
                evidence: Evidence::Detected,
                bom_len: 0,
            };
        }
        // A character cut by the end of the window is still UTF-8.
        Err(e) if e.error_len().is_none() && window.len() < payload.len() - window_start => {
            return Sniffed {
                encoding: UTF_8,
                evidence: Evidence::Detected,
                bom_len: 0,
            };
        }
        Err(_) => {}
    }
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(window, window_start + window.len() == payload.len());
    let tld = tld
        .map(str::as_bytes)
        .filter(|t| t.iter().all(u8::is_ascii_alphanumeric));
    Sniffed {
        encoding: det.guess(tld, chardetng::Utf8Detection::Allow),
        evidence: Evidence::Detected,
        bom_len: 0,
    }
}

/// A `<meta>` declaring UTF-16 in an ASCII-readable page is wrong by definition (HTML spec).
fn fix_utf16(enc: &'static Encoding) -> &'static Encoding {
    if enc == UTF_16LE || enc == UTF_16BE {
        UTF_8
    } else {
        enc
    }
}

/// Find `charset=` in `<meta …>` tags (both `<meta charset>` and `http-equiv` forms).
pub fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let finder = memmem::Finder::new(b"<meta");
    let lower: Vec<u8>;
    let hay = if head.iter().any(u8::is_ascii_uppercase) {
        lower = head.to_ascii_lowercase();
        &lower[..]
    } else {
        head
    };
    for start in finder.find_iter(hay) {
        let end = memchr::memchr(b'>', &hay[start..]).map_or(hay.len(), |o| start + o);
        let tag = &hay[start..end];
        if let Some(p) = memmem::find(tag, b"charset") {
            let mut rest = &tag[p + 7..];
            rest = rest.trim_ascii_start();
            let Some(r) = rest.strip_prefix(b"=") else {
                continue;
            };
            let r = r.trim_ascii_start();
            let r = r
                .strip_prefix(b"\"")
                .or_else(|| r.strip_prefix(b"'"))
                .unwrap_or(r);
            let label_end = r
                .iter()
                .position(|&b| {
                    matches!(b, b'"' | b'\'' | b';' | b' ' | b'/' | b'\t' | b'\n' | b'\r')
                })
                .unwrap_or(r.len());
            if let Some(enc) = Encoding::for_label(&r[..label_end]) {
                return Some(enc);
            }
        }
    }
    None
}

/// Decode bytes in `enc` to a string, replacing malformed sequences. Returns whether
/// anything was malformed. UTF-8 that is already valid is borrowed, not copied.
pub fn decode<'a>(bytes: &'a [u8], enc: &'static Encoding) -> (std::borrow::Cow<'a, str>, bool) {
    if enc == UTF_8 {
        return match std::str::from_utf8(bytes) {
            Ok(s) => (std::borrow::Cow::Borrowed(s), false),
            Err(_) => (String::from_utf8_lossy(bytes), true),
        };
    }
    enc.decode_without_bom_handling(bytes)
}

/// True for characters XML 1.0 does not allow.
#[inline]
pub fn is_xml_illegal(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// Remove characters XML does not allow (in place, only when there are any).
pub fn strip_xml_illegal(s: &mut String) {
    if may_hold_xml_illegal(s.as_bytes()) && s.chars().any(is_xml_illegal) {
        s.retain(|c| !is_xml_illegal(c));
    }
}

/// Whether UTF-8 `bytes` may hold a character XML does not allow: all such characters are
/// ASCII controls or U+FFFE/U+FFFF (`EF BF BE/BF`), so this is true for an ASCII control other
/// than tab, line feed and carriage return, and for any `EF` (which also starts allowed
/// characters). The bytes are read 32 at a time without branching, which the compiler turns
/// into vector comparisons.
fn may_hold_xml_illegal(bytes: &[u8]) -> bool {
    let suspicious = |b: u8| (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r') | (b == 0xEF);
    let mut chunks = bytes.chunks_exact(32);
    chunks.any(|c| c.iter().fold(false, |any, &b| any | suspicious(b)))
        || chunks.remainder().iter().any(|&b| suspicious(b))
}

/// NFC-normalise (borrowing when the text is already in NFC, which is the usual case).
pub fn nfc(s: &str) -> std::borrow::Cow<'_, str> {
    icu_normalizer::ComposingNormalizerBorrowed::new_nfc().normalize(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_order() {
        let page = b"<html><head><meta charset=\"iso-8859-2\"></head><body>\xe9</body>";
        assert_eq!(
            sniff(b"\xef\xbb\xbf<p>x", Some("latin1"), None).evidence,
            Evidence::Bom
        );
        let s = sniff(page, Some("ISO-8859-1"), None);
        assert_eq!(
            (s.evidence, s.name().as_str()),
            (Evidence::Http, "WINDOWS-1252")
        );
        let s = sniff(page, None, None);
        assert_eq!(
            (s.evidence, s.name().as_str()),
            (Evidence::Meta, "ISO-8859-2")
        );
        let s = sniff(b"<p>caf\xc3\xa9</p>", None, None);
        assert_eq!(
            (s.evidence, s.name().as_str()),
            (Evidence::Detected, "UTF-8")
        );
    }

    #[test]
    fn http_equiv_form_and_unknown_labels() {
        let m =
            meta_charset(b"<META http-equiv=Content-Type content='text/html; charset=Shift_JIS'>");
        assert_eq!(m.map(|e| e.name()), Some("Shift_JIS"));
        assert!(meta_charset(b"<meta charset=bogus>").is_none());
    }

    #[test]
    fn decoding_and_cleaning() {
        let (s, bad) = decode(b"caf\xe9", encoding_rs::WINDOWS_1252);
        assert_eq!((s.as_ref(), bad), ("café", false));
        let (s, bad) = decode(b"a\xffb", UTF_8);
        assert_eq!((s.as_ref(), bad), ("a\u{fffd}b", true));
        let mut t = String::from("a\u{1}b\u{c}c");
        strip_xml_illegal(&mut t);
        assert_eq!(t, "abc");
        // Every byte, at every position of a text longer than one 32-byte chunk.
        for b in 0..=255u8 {
            for at in [0, 5, 31, 32, 40, 63, 64, 70] {
                let mut bytes = vec![b'x'; 71];
                bytes[at] = b;
                let want = (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0xEF;
                assert_eq!(may_hold_xml_illegal(&bytes), want, "{b:#x} at {at}");
            }
        }
        let mut t = "y".repeat(40) + "\u{fffe}z\u{ffff}" + &"y".repeat(30);
        strip_xml_illegal(&mut t);
        assert_eq!(t, "y".repeat(40) + "z" + &"y".repeat(30));
        assert_eq!(nfc("e\u{301}"), "é");
    }
}

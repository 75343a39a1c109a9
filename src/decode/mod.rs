//! Charset sniffing and decoding, Unicode normalisation and XML-safe text.
//!
//! Order of evidence: byte-order mark, then the HTTP `Content-Type` charset, then a `<meta>`
//! prescan of the first 8 KiB, then `chardetng` on at most 16 KiB. Labels are resolved by the
//! WHATWG Encoding Standard (`encoding_rs`), so ISO-8859-1 is read as windows-1252.

use crate::document::CharsetEvidence;
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};
use memchr::memmem;

/// Bytes of the page given to `chardetng` at most.
pub(crate) const DETECT_PREFIX: usize = 16 * 1024;
/// Bytes searched for a `<meta>` charset declaration.
pub const META_PREFIX: usize = 8 * 1024;

/// The encoding chosen for a page.
#[derive(Debug, Clone, Copy)]
pub struct Sniffed {
    /// The encoding to decode the page with.
    pub encoding: &'static Encoding,
    /// Where the encoding came from.
    pub(crate) evidence: CharsetEvidence,
    /// Length of the byte-order mark to skip.
    pub bom_len: usize,
    /// The declared encoding that the bytes overrode (only with [`CharsetEvidence::ValidUtf8`]).
    pub declared: Option<&'static Encoding>,
}

impl Sniffed {
    /// Upper-cased name as written in `sourcecharset` (texrex upper-cases it too).
    pub fn name(&self) -> String {
        self.encoding.name().to_ascii_uppercase()
    }

    /// The overridden declaration's upper-cased name, as written in `declared-charset`.
    pub(crate) fn declared_name(&self) -> Option<String> {
        self.declared.map(|e| e.name().to_ascii_uppercase())
    }
}

/// Choose the encoding of an HTML payload: a byte-order mark, else the HTTP charset, else a
/// `<meta>` declaration, else detection (the [module](self)'s order of evidence).
///
/// A declaration of a charset other than UTF-8 gives way to the bytes when they are valid
/// UTF-8 from start to end (a last character cut by the end of the payload, as in a truncated
/// record, included) and hold at least one multi-byte character ([`CharsetEvidence::ValidUtf8`]).
/// Such bytes are almost never text in another charset:
///
/// - In a single-byte charset (windows-1252, ISO-8859-x, KOI8, windows-125x, …) every byte
///   from 0x80 up would have to fall into UTF-8's patterns: each letter from 0xC0 up followed
///   by as many symbols from 0x80–0xBF as UTF-8 wants, and no such symbol alone. Of about
///   140,000 stretches (up to 200 characters) of the development pages' text re-encoded in
///   windows-1252, -1250, -1251, -1253, ISO-8859-2, -7 and KOI8-R, the valid UTF-8 ones were
///   text that was mojibake already (`â€™`, `Ã©`, `Ć±`), which reading as UTF-8 repairs, and
///   one brand name, `NESCAFÉ®`; a whole page must be valid, not a stretch.
/// - In the double-byte charsets (GBK, Big5, Shift_JIS, EUC-JP, EUC-KR) a character can be
///   valid UTF-8 by chance. Of stretches of the development pages' Chinese, Japanese and
///   Korean text re-encoded in them, those with a single ideograph or syllable were valid in
///   0 % (Shift_JIS) to 4 % (GBK) of cases, with two or three in at most 1.6 %, and with four
///   to twelve in none of about 50,000. So the rule can misread only a page whose whole
///   non-ASCII text is one to three such characters, where a page written in UTF-8 that
///   declares GB2312 and has a single `©` or `’` is the commoner case. Asking for more than
///   one multi-byte character would leave those pages in mojibake, so one is enough.
///
/// A pure-ASCII page keeps its declaration (it decodes the same). A declared UTF-16 is read
/// as UTF-8 anyway (the HTML standard: a page whose declaration can be read is not UTF-16).
/// Only pages declaring another charset than UTF-8 are validated here, once, and validation
/// stops at their first byte that is not UTF-8, which in a legacy page comes early; a page
/// declaring UTF-8 is not read here at all.
pub fn sniff(payload: &[u8], http_charset: Option<&str>, tld: Option<&str>) -> Sniffed {
    if let Some((enc, bom_len)) = Encoding::for_bom(payload) {
        return Sniffed {
            encoding: enc,
            evidence: CharsetEvidence::Bom,
            bom_len,
            declared: None,
        };
    }
    if let Some(enc) = http_charset.and_then(|l| Encoding::for_label(l.trim().as_bytes())) {
        return declared(payload, fix_utf16(enc), CharsetEvidence::Http);
    }
    if let Some(enc) = meta_charset(&payload[..payload.len().min(META_PREFIX)]) {
        return declared(payload, fix_utf16(enc), CharsetEvidence::Meta);
    }
    // UTF-8 fast path: valid UTF-8 needs no detector.
    let window_start = if payload[..payload.len().min(DETECT_PREFIX)].is_ascii() {
        if std::str::from_utf8(payload).is_ok() {
            return Sniffed {
                encoding: UTF_8,
                evidence: CharsetEvidence::Detected,
                bom_len: 0,
                declared: None,
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
                evidence: CharsetEvidence::Detected,
                bom_len: 0,
                declared: None,
            };
        }
        // A character cut by the end of the window is still UTF-8.
        Err(e) if e.error_len().is_none() && window.len() < payload.len() - window_start => {
            return Sniffed {
                encoding: UTF_8,
                evidence: CharsetEvidence::Detected,
                bom_len: 0,
                declared: None,
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
        evidence: CharsetEvidence::Detected,
        bom_len: 0,
        declared: None,
    }
}

/// The encoding `enc` declared by `evidence`, or UTF-8 when the payload is UTF-8 with
/// multi-byte characters and `enc` is not ([`sniff`]).
fn declared(payload: &[u8], enc: &'static Encoding, evidence: CharsetEvidence) -> Sniffed {
    if enc != UTF_8 && is_multibyte_utf8(payload) {
        return Sniffed {
            encoding: UTF_8,
            evidence: CharsetEvidence::ValidUtf8,
            bom_len: 0,
            declared: Some(enc),
        };
    }
    Sniffed {
        encoding: enc,
        evidence,
        bom_len: 0,
        declared: None,
    }
}

/// Whether `bytes` are valid UTF-8, but for a character cut by their end, with at least one
/// multi-byte character. An ASCII page takes one pass; a page in a legacy charset is
/// mostly read only up to its first non-ASCII byte that UTF-8 does not allow.
fn is_multibyte_utf8(bytes: &[u8]) -> bool {
    if bytes.is_ascii() {
        return false;
    }
    match std::str::from_utf8(bytes) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none() && !bytes[..e.valid_up_to()].is_ascii(),
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
pub(crate) fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
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
            CharsetEvidence::Bom
        );
        let s = sniff(page, Some("ISO-8859-1"), None);
        assert_eq!(
            (s.evidence, s.name().as_str()),
            (CharsetEvidence::Http, "WINDOWS-1252")
        );
        let s = sniff(page, None, None);
        assert_eq!(
            (s.evidence, s.name().as_str()),
            (CharsetEvidence::Meta, "ISO-8859-2")
        );
        let s = sniff(b"<p>caf\xc3\xa9</p>", None, None);
        assert_eq!(
            (s.evidence, s.name().as_str()),
            (CharsetEvidence::Detected, "UTF-8")
        );
    }

    /// The name of the encoding, how it was found and the declaration it overrode.
    fn sniffed(payload: &[u8], http: Option<&str>) -> (String, CharsetEvidence, Option<String>) {
        let s = sniff(payload, http, None);
        (s.name(), s.evidence, s.declared_name())
    }

    #[test]
    fn valid_utf8_overrides_a_declared_legacy_charset() {
        // Chinese in UTF-8 under a GB2312 <meta> (GB2312 is GBK by the WHATWG standard).
        let page = "<html><head><meta charset=\"gb2312\"><title>中文网页</title></head>\
                    <body><p>这是一个用UTF-8写成的网页。</p></body></html>";
        let s = sniff(page.as_bytes(), None, None);
        assert_eq!(
            (s.name(), s.evidence, s.declared_name(), s.bom_len),
            (
                "UTF-8".into(),
                CharsetEvidence::ValidUtf8,
                Some("GBK".into()),
                0
            )
        );
        let (text, malformed) = decode(page.as_bytes(), s.encoding);
        assert_eq!((text.as_ref(), malformed), (page, false));
        // French in UTF-8 under an HTTP ISO-8859-1, the <meta> agreeing with the header.
        let page = "<meta charset=iso-8859-1><p>Le café est à côté.</p>".as_bytes();
        assert_eq!(
            sniffed(page, Some("ISO-8859-1")),
            (
                "UTF-8".into(),
                CharsetEvidence::ValidUtf8,
                Some("WINDOWS-1252".into())
            )
        );
        // Any declared charset but UTF-8, a double-byte one or a 7-bit one.
        for label in ["Shift_JIS", "koi8-r", "iso-2022-jp", "euc-kr"] {
            assert_eq!(
                sniffed(page, Some(label)).1,
                CharsetEvidence::ValidUtf8,
                "{label}"
            );
        }
        // A last character cut by the end of the payload (a truncated record) is UTF-8 still.
        assert_eq!(
            sniffed(&"<p>café 中".as_bytes()[..11], Some("latin1")).1,
            CharsetEvidence::ValidUtf8
        );
    }

    #[test]
    fn a_declaration_stands_without_multibyte_utf8() {
        // A real windows-1252 page: é is 0xE9, not UTF-8.
        let page = b"<meta charset=windows-1252><p>Le caf\xe9 est \xe0 c\xf4t\xe9.</p>";
        assert_eq!(
            sniffed(page, None),
            ("WINDOWS-1252".into(), CharsetEvidence::Meta, None)
        );
        // Pure ASCII keeps its declaration (it decodes the same).
        let page = b"<p>Plain ASCII text.</p>";
        assert_eq!(
            sniffed(page, Some("ISO-8859-1")),
            ("WINDOWS-1252".into(), CharsetEvidence::Http, None)
        );
        // Mostly UTF-8, one byte that is not: the declaration stands.
        let mut bytes = "<meta charset=gb2312><p>中文 ".as_bytes().to_vec();
        bytes.extend_from_slice(b"\xd6\xd0</p>");
        assert_eq!(
            sniffed(&bytes, None),
            ("GBK".into(), CharsetEvidence::Meta, None)
        );
        // ASCII and a cut character only: nothing multi-byte is complete.
        assert_eq!(
            sniffed(b"<p>abc\xe4\xb8", Some("latin1")).1,
            CharsetEvidence::Http
        );
        // A declared UTF-8 is taken as it is, valid or not; a declared UTF-16 is UTF-8.
        assert_eq!(
            sniffed(b"<p>caf\xe9", Some("utf-8")),
            ("UTF-8".into(), CharsetEvidence::Http, None)
        );
        assert_eq!(
            sniffed("<meta charset=utf-16le><p>café".as_bytes(), None),
            ("UTF-8".into(), CharsetEvidence::Meta, None)
        );
        // A byte-order mark comes first.
        assert_eq!(
            sniffed(b"\xff\xfe<\x00p\x00", Some("iso-8859-1")),
            ("UTF-16LE".into(), CharsetEvidence::Bom, None)
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

//! texrex's 37 block features (`TTrDeboilerplater.PrepareValues*`) and the second pass that
//! precedes them (`TTrSecondPass`): entities decoded twice, then tags, e-mail addresses, URIs
//! and hashtags counted and replaced by placeholders.
//!
//! texrex's quirks are kept because the shipped networks were trained with them:
//! [`utf8_size`] drops the last byte, the window features double the running sum at invalid
//! neighbours and *assign* at the document edges.

use regex::Regex;
use std::sync::LazyLock;
use unicode_general_category::{GeneralCategory as Gc, get_general_category};

use super::{cleanse, entities};
use crate::document::Doctype;
use crate::html::{Container, RawBlock};

pub use crate::document::{Features, N_FEATURES};

/// The feature names, in order (from texrex's ARFF files).
pub(crate) const FEATURE_NAMES: [&str; N_FEATURES] = [
    "Length",
    "PageProp",
    "PercText",
    "PercDiv",
    "DocMarkupProp",
    "MarkupProp",
    "PunctProp",
    "LetterProp",
    "NumberProp",
    "TagProp",
    "EmailProp",
    "UriProp",
    "HashProp",
    "YearProp",
    "AnchorProp",
    "UpperProp",
    "SentBogus",
    "SentLength",
    "SentCount",
    "Copy",
    "EndsPunct",
    "DtXhtml",
    "DtHtml4",
    "DtHtml5",
    "ContArticle",
    "ContSection",
    "ContDiv",
    "ContP",
    "ContH",
    "ContBlock",
    "ContTd",
    "ContLi",
    "ContClose",
    "OpenProp",
    "SkippedDivs",
    "Window1",
    "Window2",
];

/// Index of `MarkupProp`, the feature the window features smooth.
const MARK_IDX: usize = 5;
const TEXT_CLAMP: f64 = 1000.0;
const SENTENCE_CLAMP: f64 = 10.0;
const SENTENCE_LENGTH_CLAMP: f64 = 100.0;
const SKIPPED_CLAMP: f64 = 20.0;

/// Block text after the second pass, with the counts it produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Cleansed {
    /// The text: entities decoded, XML-illegal characters removed, the matches replaced.
    pub text: String,
    /// Tags left in the text, each replaced by a space.
    pub tags: u32,
    /// E-mail addresses, each replaced by ` emailblank `.
    pub(crate) emails: u32,
    /// URIs, each replaced by ` uriblank `.
    pub(crate) uris: u32,
    /// Hashtags, each replaced by ` hashtagblank `.
    pub hashtags: u32,
}

/// The byte ranges of texrex's pattern for tags left in text (the other patterns of the second
/// pass are matched in [`super::cleanse`]).
fn tags(text: &str) -> Vec<(usize, usize)> {
    static TAG: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i) *<[A-Za-z!?/][^>]*> *").unwrap());
    TAG.find_iter(text).map(|m| (m.start(), m.end())).collect()
}

/// Replace the matches `find` gives (byte ranges, in order) and count them (texrex's
/// `MatchCount` + `Replace`).
fn replace(text: &mut String, find: cleanse::Finder, replacement: &str) -> u32 {
    let matches = find(text);
    if matches.is_empty() {
        return 0;
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for &(start, end) in &matches {
        out.push_str(&text[copied..start]);
        out.push_str(replacement);
        copied = end;
    }
    out.push_str(&text[copied..]);
    *text = out;
    matches.len() as u32
}

/// Decode HTML entities twice, as texrex does (so `&amp;eacute;` becomes `é`).
pub(crate) fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let once = unescape(text);
    if !once.contains('&') {
        return once;
    }
    unescape(&once)
}

/// Decode character references as texrex's converter does: `&` followed by at most 7
/// characters of `[#A-Za-z0-9]` and `;`; named references from HTML 4.01, decimal ones, and
/// hexadecimal ones of 1–4 digits. Code points 0x80–0x9F are read as windows-1252; a
/// reference that yields nothing or a plain space (`&#32;`) stays as it is.
pub(crate) fn unescape(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(o) = memchr::memchr(b'&', &b[i..]) {
        let start = i + o;
        let mut j = start + 1;
        while j < b.len() && j - start <= 7 && (b[j].is_ascii_alphanumeric() || b[j] == b'#') {
            j += 1;
        }
        if j < b.len() && b[j] == b';' && j - start > 2 {
            if let Some(c) = reference_char(&text[start + 1..j]) {
                out.push_str(&text[copied..start]);
                out.push(c);
                copied = j + 1;
            }
            i = j + 1;
        } else {
            // texrex resumes after the character that ended the candidate, even an `&`.
            i = (j + 1).min(b.len());
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The character of a reference body (between `&` and `;`), if texrex would replace it.
fn reference_char(body: &str) -> Option<char> {
    let code = if let Some(num) = body.strip_prefix('#') {
        match num.strip_prefix(['x', 'X']) {
            Some(hex) if (1..=4).contains(&hex.len()) => u32::from_str_radix(hex, 16).ok()?,
            Some(_) => return None,
            None => num.parse::<u32>().ok()?,
        }
    } else {
        let k = entities::HTML4_ENTITIES
            .binary_search_by(|(n, _)| n.cmp(&body))
            .ok()?;
        entities::HTML4_ENTITIES[k].1
    };
    let code = match code {
        0x80 => 0x20ac,
        0x82 => 0x201a,
        0x83 => 0x0192,
        0x84 => 0x201e,
        0x85 => 0x2026,
        0x86 => 0x2020,
        0x87 => 0x2021,
        0x88 => 0x02c6,
        0x89 => 0x2030,
        0x8a => 0x0160,
        0x8b => 0x2039,
        0x8c => 0x0152,
        0x8e => 0x017d,
        0x91 => 0x2018,
        0x92 => 0x2019,
        0x93 => 0x201c,
        0x94 => 0x201d,
        0x95 => 0x2022,
        0x96 => 0x2013,
        0x97 => 0x2014,
        0x98 => 0x02dc,
        0x99 => 0x2122,
        0x9a => 0x0161,
        0x9b => 0x203a,
        0x9c => 0x0153,
        0x9e => 0x017e,
        0x9f => 0x0178,
        c => c,
    };
    match char::from_u32(code) {
        Some(' ') => None,
        Some(c) => Some(c),
        None => Some('\u{fffd}'),
    }
}

/// texrex's second pass on one block of decoded text.
pub(crate) fn second_pass(text: &str) -> Cleansed {
    let mut text = decode_entities(text);
    crate::decode::strip_xml_illegal(&mut text);
    let mut c = Cleansed::default();
    if text.contains('<') {
        c.tags = replace(&mut text, tags, " ");
    }
    if text.contains('@') {
        c.emails = replace(&mut text, cleanse::emails, " emailblank ");
    }
    if may_hold_uri(&text) {
        c.uris = replace(&mut text, cleanse::uris, " uriblank ");
    }
    if text.contains('#') {
        c.hashtags = replace(&mut text, cleanse::hashtags, " hashtagblank ");
    }
    c.text = text;
    c
}

/// Whether texrex's URI pattern can match in a text: each of its matches holds `://`, or
/// `www.` in any mix of cases.
pub(crate) fn may_hold_uri(text: &str) -> bool {
    let b = text.as_bytes();
    text.contains("://")
        || memchr::memchr_iter(b'.', b)
            .any(|i| i >= 2 && (b[i - 2] | 0x20) == b'w' && (b[i - 1] | 0x20) == b'w')
}

/// Mask e-mail addresses, URIs and hashtags (those asked for) as texrex's second pass does,
/// with ` emailblank `, ` uriblank ` and ` hashtagblank `, in text that is already decoded.
pub fn mask(text: &str, email: bool, uri: bool, hashtag: bool) -> String {
    let mut text = text.to_owned();
    if email && text.contains('@') {
        replace(&mut text, cleanse::emails, " emailblank ");
    }
    if uri && may_hold_uri(&text) {
        replace(&mut text, cleanse::uris, " uriblank ");
    }
    if hashtag && text.contains('#') {
        replace(&mut text, cleanse::hashtags, " hashtagblank ");
    }
    text
}

/// texrex's `TrUtf8Length`: code points in all but the last byte (so one less than the true
/// count when the text ends in ASCII).
pub(crate) fn utf8_size(text: &str) -> usize {
    let b = text.as_bytes();
    if b.len() < 2 {
        return 0;
    }
    b[..b.len() - 1]
        .iter()
        .filter(|&&x| (x & 0xC0) != 0x80)
        .count()
}

/// ICU's `\s`: `[\t\n\f\r\p{Z}]`.
#[inline]
fn is_icu_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ');
    }
    matches!(
        get_general_category(c),
        Gc::SpaceSeparator | Gc::LineSeparator | Gc::ParagraphSeparator
    )
}

/// Per-character counts that the features need.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct CharCounts {
    space: usize,
    upper: usize,
    lower: usize,
    number: usize,
    punct: usize,
    sentences: usize,
    years: usize,
    copyright: bool,
}

fn ascii_class(c: u8) -> (bool, bool, bool, bool) {
    // (upper, lower, number, punct) by Unicode general category for ASCII.
    let punct = matches!(
        c,
        b'!' | b'"'
            | b'#'
            | b'%'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b','
            | b'-'
            | b'.'
            | b'/'
            | b':'
            | b';'
            | b'?'
            | b'@'
            | b'['
            | b'\\'
            | b']'
            | b'_'
            | b'{'
            | b'}'
    );
    (
        c.is_ascii_uppercase(),
        c.is_ascii_lowercase(),
        c.is_ascii_digit(),
        punct,
    )
}

/// What the features count of a block's characters (classes by Unicode general category).
fn count_chars(text: &str) -> CharCounts {
    if text.is_ascii() {
        count_ascii(text.as_bytes())
    } else {
        count_unicode(text)
    }
}

/// [`ascii_class`] and ASCII whitespace of every byte, as bits: upper, lower, number, punct,
/// space.
static ASCII_BITS: LazyLock<[u8; 128]> = LazyLock::new(|| {
    std::array::from_fn(|c| {
        let (u, l, d, p) = ascii_class(c as u8);
        let space = matches!(c as u8, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
        u as u8 | (l as u8) << 1 | (d as u8) << 2 | (p as u8) << 3 | (space as u8) << 4
    })
});

/// [`count_chars`] of an ASCII text, a byte at a time through [`ASCII_BITS`].
fn count_ascii(text: &[u8]) -> CharCounts {
    let bits = &*ASCII_BITS;
    let mut n = [0usize; 5];
    let mut sentences = 0;
    for (i, &c) in text.iter().enumerate() {
        let b = bits[c as usize];
        for (j, n) in n.iter_mut().enumerate() {
            *n += (b >> j & 1) as usize;
        }
        if matches!(c, b'.' | b'?' | b'!')
            && text.get(i + 1).is_none_or(|&n| bits[n as usize] & 16 != 0)
        {
            sentences += 1;
        }
    }
    CharCounts {
        upper: n[0],
        lower: n[1],
        number: n[2],
        punct: n[3],
        space: n[4],
        sentences,
        years: count_years(text),
        copyright: false,
    }
}

/// [`count_chars`] character by character.
fn count_unicode(text: &str) -> CharCounts {
    let mut k = CharCounts::default();
    let mut it = text.chars().peekable();
    while let Some(c) = it.next() {
        if c.is_ascii() {
            let (u, l, d, p) = ascii_class(c as u8);
            k.upper += u as usize;
            k.lower += l as usize;
            k.number += d as usize;
            k.punct += p as usize;
            if matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ') {
                k.space += 1;
            }
        } else {
            match get_general_category(c) {
                Gc::UppercaseLetter => k.upper += 1,
                Gc::LowercaseLetter => k.lower += 1,
                Gc::DecimalNumber | Gc::LetterNumber | Gc::OtherNumber => k.number += 1,
                Gc::ConnectorPunctuation
                | Gc::DashPunctuation
                | Gc::OpenPunctuation
                | Gc::ClosePunctuation
                | Gc::InitialPunctuation
                | Gc::FinalPunctuation
                | Gc::OtherPunctuation => k.punct += 1,
                Gc::SpaceSeparator | Gc::LineSeparator | Gc::ParagraphSeparator => k.space += 1,
                _ => {}
            }
            if c == '©' {
                k.copyright = true;
            }
        }
        // `[.?!](?:\s|$)`, non-overlapping (the following space is never one of `.?!`).
        if matches!(c, '.' | '?' | '!') && it.peek().is_none_or(|&n| is_icu_space(n)) {
            k.sentences += 1;
        }
    }
    k.years = if text.contains("20") {
        count_years(&text.chars().collect::<Vec<char>>())
    } else {
        0
    };
    k
}

/// Non-overlapping matches of `[^0-9](20[01][0-9])([^0-9]|$)` in a text's characters (or
/// bytes, when they are ASCII).
fn count_years<C: Copy + Into<u32>>(chars: &[C]) -> usize {
    let digit = |c: C| (u32::from(b'0')..=u32::from(b'9')).contains(&c.into());
    let is = |c: C, want: u8| c.into() == u32::from(want);
    let n = chars.len();
    let mut count = 0;
    let mut i = 0;
    while i + 5 <= n {
        let ok = !digit(chars[i])
            && is(chars[i + 1], b'2')
            && is(chars[i + 2], b'0')
            && (is(chars[i + 3], b'0') || is(chars[i + 3], b'1'))
            && digit(chars[i + 4]);
        if ok {
            if i + 5 == n {
                count += 1;
                break;
            }
            if !digit(chars[i + 5]) {
                count += 1;
                i += 6;
                continue;
            }
        }
        i += 1;
    }
    count
}

/// `.*[.?!] *$`: the text ends in sentence punctuation, ignoring trailing spaces.
fn ends_in_punct(text: &str) -> bool {
    text.trim_end_matches(' ').ends_with(['.', '?', '!'])
}

/// What the feature extractor needs to know about one block.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BlockInput<'a> {
    /// The block as segmented (positions and tag counts).
    pub block: &'a RawBlock,
    /// The block's text after the second pass (empty for blocks the second pass invalidated).
    pub cleansed: &'a Cleansed,
}

/// Compute the 37 features for every block of a document; `None` marks blocks texrex treats
/// as invalid (empty, or nothing but white space). Returns `None` for the whole document when
/// it has no text (texrex invalidates the document then).
pub(crate) fn document_features(
    blocks: &[BlockInput<'_>],
    doctype: Doctype,
    raw_size: usize,
) -> Option<Vec<Option<Features>>> {
    let doc_len: usize = blocks.iter().map(|b| utf8_size(&b.cleansed.text)).sum();
    if raw_size <= 1 || doc_len <= 1 {
        return None;
    }
    let doc_len_f = doc_len as f64;
    let number = blocks.len() as f64;
    let mut out: Vec<Option<Features>> = Vec::with_capacity(blocks.len());
    let mut text_mass = 0usize;
    for (i, input) in blocks.iter().enumerate() {
        let (b, c) = (input.block, input.cleansed);
        let text = &c.text;
        if text.is_empty() {
            out.push(None);
            continue;
        }
        let mut m = [0.0f64; N_FEATURES];
        let length_raw = b.last_raw.saturating_sub(b.first_raw).max(1) as f64;
        let len_text_us = utf8_size(text).max(1);
        let len_text = len_text_us as f64;
        m[0] = if len_text > TEXT_CLAMP {
            1.0
        } else {
            len_text / TEXT_CLAMP
        };
        let k = count_chars(text);
        let true_len = len_text_us as i64 - k.space as i64;
        if true_len < 1 {
            out.push(None);
            continue;
        }
        let true_len = true_len as f64;
        m[1] = len_text / doc_len_f;
        let p = (text_mass as f64 + len_text / 2.0) / doc_len_f;
        m[2] = (p - 0.5).abs() * 2.0;
        text_mass += len_text_us;
        let p = i as f64 / number;
        m[3] = (p - 0.5).abs() * 2.0;
        m[4] = doc_len_f / raw_size as f64;
        m[5] = (length_raw - len_text) / length_raw;
        m[6] = k.punct as f64 / len_text;
        m[7] = (k.upper + k.lower) as f64 / true_len;
        m[8] = k.number as f64 / true_len;
        m[9] = c.tags as f64 / true_len;
        m[10] = c.emails as f64 / true_len;
        m[11] = c.uris as f64 / true_len;
        m[12] = c.hashtags as f64 / true_len;
        m[13] = k.years as f64 / true_len;
        m[14] = b.anchors as f64 / true_len;
        m[15] = if k.upper + k.lower > 0 {
            k.upper as f64 / (k.upper + k.lower) as f64
        } else {
            0.0
        };
        let sentences = if k.sentences > 0 { k.sentences } else { 1 };
        m[16] = if k.sentences > 0 { 0.0 } else { 1.0 };
        let sent_len = (len_text_us / sentences) as f64;
        m[17] = if sent_len > SENTENCE_LENGTH_CLAMP {
            1.0
        } else {
            sent_len / SENTENCE_LENGTH_CLAMP
        };
        m[18] = if sentences as f64 > SENTENCE_CLAMP {
            1.0
        } else {
            sentences as f64 / SENTENCE_CLAMP
        };
        m[19] = if k.copyright { 1.0 } else { 0.0 };
        m[20] = if ends_in_punct(text) { 1.0 } else { 0.0 };
        match doctype {
            Doctype::Xhtml => m[21] = 1.0,
            Doctype::Html4 => m[22] = 1.0,
            Doctype::Html5 => m[23] = 1.0,
            Doctype::Unknown => {}
        }
        if b.container != Container::Unknown {
            m[23 + b.container.index()] = 1.0;
        }
        m[32] = if b.closing_start { 1.0 } else { 0.0 };
        let tags = b.open_tags + b.close_tags;
        m[33] = if tags > 0 {
            b.open_tags as f64 / tags as f64
        } else {
            0.0
        };
        let skipped = b.skipped_divs as f64;
        m[34] = if skipped > SKIPPED_CLAMP {
            1.0
        } else {
            skipped / SKIPPED_CLAMP
        };
        out.push(Some(m));
    }
    add_windows(&mut out);
    Some(out)
}

/// Window1 and Window2, exactly as `PrepareValuesSecondPass` (quirks included).
fn add_windows(m: &mut [Option<Features>]) {
    let n = m.len();
    let mark = |m: &[Option<Features>], j: usize| m[j].map(|f| f[MARK_IDX]);
    for i in 0..n {
        let Some(own) = mark(m, i) else { continue };
        let mut ratio = own;
        let left = if i > 0 { i - 1 } else { 0 };
        match mark(m, left) {
            Some(v) => ratio += v,
            None => ratio += ratio,
        }
        let right = if i + 1 < n { i + 1 } else { n - 1 };
        match mark(m, right) {
            Some(v) => ratio += v,
            None => ratio += ratio,
        }
        let w1 = ratio / 3.0;
        let mut w2 = 0.0;
        if i > 1 {
            match mark(m, i - 2) {
                Some(v) => w2 += v,
                None => w2 += ratio / 2.0,
            }
        } else {
            match mark(m, 0) {
                Some(v) => w2 = v,
                None => w2 += ratio / 2.0,
            }
        }
        if i + 2 < n {
            match mark(m, i + 2) {
                Some(v) => w2 += v,
                None => w2 += ratio / 2.0,
            }
        } else {
            match mark(m, n - 1) {
                Some(v) => w2 = v,
                None => w2 += ratio / 2.0,
            }
        }
        let f = m[i].as_mut().expect("checked above");
        f[35] = w1;
        f[36] = (ratio + w2) / 5.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::format_general;

    #[test]
    fn utf8_size_has_texrex_off_by_one() {
        assert_eq!(utf8_size("Home"), 3);
        assert_eq!(utf8_size("Café"), 4); // ends in a multi-byte character: exact
        assert_eq!(utf8_size("a"), 0);
    }

    #[test]
    fn second_pass_counts_and_replaces() {
        let c = second_pass("Mail me@example.org or see http://x.org/a?b=1 &amp;lt;b&amp;gt; #tag");
        assert_eq!((c.emails, c.uris, c.tags, c.hashtags), (1, 1, 1, 1));
        assert_eq!(c.text, "Mail emailblank or see uriblank hashtagblank ");
        // `www.` in any mix of cases, as the pattern matches it.
        for www in ["www", "WWW", "wWw", "wwW"] {
            assert_eq!(
                second_pass(&format!("see {www}.x.org now")).uris,
                1,
                "{www}"
            );
        }
        assert_eq!(second_pass("see w.x.org now").uris, 0);
        assert_eq!(second_pass("caf&eacute; &amp;eacute;").text, "café é");
        assert_eq!(
            unescape("&nbsp &#233;&#x41;&bogus; & &#032;&#150;"),
            "&nbsp éA&bogus; & &#032;–"
        );
        // Too long for texrex, and an `&` right after an `&` is not a new start.
        assert_eq!(unescape("&thetasym; &&amp;"), "&thetasym; &&amp;");
    }

    #[test]
    fn years_are_non_overlapping() {
        // " 2001 " consumes the space before 2002.
        assert_eq!(count_years(" 2001 2002 x2010".as_bytes()), 2);
        let chars: Vec<char> = " 2001 2002 x2010".chars().collect();
        assert_eq!(count_years(&chars), 2);
    }

    #[test]
    fn ascii_texts_count_as_characters_do() {
        for text in [
            "",
            "Home",
            "Is it? Yes! No. (c) 2019,2018 x20190 2001",
            "end.",
            "A.B. c\td\r\n e?\x0cf!\x0b",
            "2001",
            "#tag @me [x] {y} a_b \\ ; : / - * ' \" % & , $ + < = > ^ ` | ~ \x7f\x00",
        ] {
            assert_eq!(
                count_ascii(text.as_bytes()),
                count_unicode(text),
                "{text:?}"
            );
        }
        let k = count_ascii(b"Is it? Yes! 2019 x");
        assert_eq!((k.sentences, k.years, k.upper, k.punct), (2, 1, 2, 2));
    }

    #[test]
    fn features_of_texrex_example_block() {
        // Block 0 of texrex's en/0006 has Length 0.003, LetterProp 1.333333, AnchorProp
        // 0.666667, MarkupProp 0.909091 for "Home" with LengthRaw 33 and two anchors.
        let c = Cleansed {
            text: "Home".into(),
            ..Default::default()
        };
        let other = Cleansed {
            text: "x".repeat(100),
            ..Default::default()
        };
        let home = RawBlock {
            first_raw: 10,
            last_raw: 43,
            open_tags: 18,
            close_tags: 5,
            anchors: 2,
            skipped_divs: 13,
            container: Container::Li,
            ..Default::default()
        };
        let para = RawBlock {
            first_raw: 50,
            last_raw: 250,
            open_tags: 1,
            close_tags: 1,
            container: Container::P,
            ..Default::default()
        };
        let blocks = [
            BlockInput {
                block: &home,
                cleansed: &c,
            },
            BlockInput {
                block: &para,
                cleansed: &other,
            },
        ];
        let f = document_features(&blocks, Doctype::Xhtml, 1000).unwrap();
        let f0 = f[0].unwrap();
        assert_eq!(format_general(f0[0]), "0.003");
        assert_eq!(format_general(f0[5]), "0.909091");
        assert_eq!(format_general(f0[7]), "1.33333");
        assert_eq!(format_general(f0[14]), "0.666667");
        assert_eq!(format_general(f0[33]), "0.782609");
        assert_eq!(format_general(f0[34]), "0.65");
        assert_eq!((f0[21], f0[31]), (1.0, 1.0));
    }
}

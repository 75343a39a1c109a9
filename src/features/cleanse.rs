//! texrex's second-pass patterns for e-mail addresses, URIs and hashtags, matched by hand: the
//! regex crate takes milliseconds to compile their Unicode classes, longer than `cowrex
//! extract` needs for a whole page. The matches are the regexes' (leftmost-first, greedy,
//! non-overlapping), which the tests check against the regexes themselves on generated texts:
//!
//! ```text
//! email    (?i) *[\p{L}0-9._-]+@[\p{L}0-9._-]+\.[\p{L}]{2,8} *
//! uri      (?i) *\p{L}{2,6}://[\p{L}\p{N}_/%$&,=?~#.+:;-]+[\p{L}\p{N}_/%$=?~#-] *
//!             | *www\.[\p{L}\p{N}_/%$&,=?~#.+:;-]+[\p{L}\p{N}_/%$=?~#-] *
//! hashtag  (?i) *#[\p{L}\p{N}]*[\p{L}][\p{L}\p{N}]* *
//! ```
//!
//! The character classes are the regex crate's own (case folding included), written by
//! `build.rs` with its parser.

/// Finds a pattern's matches in a text: their byte ranges, in order.
pub(crate) type Finder = fn(&str) -> Vec<(usize, usize)>;

/// A set of characters: ranges of code points, sorted, and the ASCII ones as bits.
pub struct Class {
    ascii: u128,
    ranges: &'static [(u32, u32)],
}

impl Class {
    fn has(&self, c: char) -> bool {
        let c = c as u32;
        if c < 128 {
            return self.ascii >> c & 1 == 1;
        }
        self.ranges
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

mod classes {
    use super::Class;
    include!(concat!(env!("OUT_DIR"), "/classes.rs"));
}
use classes::{EMAIL, LETTER, LETTER_OR_NUMBER, URI, URI_END};

/// A text's characters with their byte offsets (and the text's length at the end).
struct Chars {
    c: Vec<char>,
    at: Vec<usize>,
}

impl Chars {
    fn new(text: &str) -> Chars {
        let (mut at, c): (Vec<usize>, Vec<char>) = text.char_indices().unzip();
        at.push(text.len());
        Chars { c, at }
    }

    /// From `i`, back over spaces, not before `floor`.
    fn spaces_before(&self, mut i: usize, floor: usize) -> usize {
        while i > floor && self.c[i - 1] == ' ' {
            i -= 1;
        }
        i
    }

    /// From `i`, on over spaces.
    fn spaces_after(&self, mut i: usize) -> usize {
        while i < self.c.len() && self.c[i] == ' ' {
            i += 1;
        }
        i
    }

    /// From `i`, on over characters of `class`.
    fn run(&self, mut i: usize, class: &Class) -> usize {
        while i < self.c.len() && class.has(self.c[i]) {
            i += 1;
        }
        i
    }

    /// The byte ranges of matches given in characters.
    fn bytes(&self, matches: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
        matches
            .into_iter()
            .map(|(s, e)| (self.at[s], self.at[e]))
            .collect()
    }
}

/// The byte ranges of the e-mail pattern's matches.
pub(crate) fn emails(text: &str) -> Vec<(usize, usize)> {
    let t = Chars::new(text);
    let (mut out, mut from) = (Vec::new(), 0);
    for a in 0..t.c.len() {
        if t.c[a] != '@' || a < from {
            continue;
        }
        // The local part: the run of its characters before the `@`.
        let mut q = a;
        while q > from && EMAIL.has(t.c[q - 1]) {
            q -= 1;
        }
        if q == a {
            continue;
        }
        // The domain: its run after the `@`, given back from the end until a `.` follows
        // at least one of its characters and precedes two letters.
        let e = t.run(a + 1, &EMAIL);
        let Some(dot) = (a + 2..e).rev().find(|&k| {
            t.c[k] == '.' && k + 2 < e && LETTER.has(t.c[k + 1]) && LETTER.has(t.c[k + 2])
        }) else {
            continue;
        };
        let mut end = dot + 1;
        while end < t.c.len() && end - dot <= 8 && LETTER.has(t.c[end]) {
            end += 1;
        }
        let m = (t.spaces_before(q, from), t.spaces_after(end));
        from = m.1;
        out.push(m);
    }
    t.bytes(out)
}

/// The byte ranges of the URI pattern's matches.
pub(crate) fn uris(text: &str) -> Vec<(usize, usize)> {
    let t = Chars::new(text);
    let n = t.c.len();
    let is = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| t.c.get(i + k) == Some(&c))
    };
    let www = |i: usize| {
        i + 4 <= n && t.c[i..i + 3].iter().all(|&c| c == 'w' || c == 'W') && t.c[i + 3] == '.'
    };
    // The end of a URI's rest starting at `i`: its characters, given back until the last is
    // one a URI may end with, at least one before it.
    let rest = |i: usize| {
        let e = t.run(i, &URI);
        (i + 1..e)
            .rev()
            .find(|&j| URI_END.has(t.c[j]))
            .map(|j| t.spaces_after(j + 1))
    };
    let (mut out, mut from) = (Vec::new(), 0);
    let mut i = 0;
    // Anchors in text order give matches in text order: what a match holds before its
    // anchor (spaces, the scheme's letters) holds no other anchor.
    while i < n {
        let found = if is(i, "://") {
            // The scheme: two to six letters right before `://`, as many as there are.
            let mut q = i;
            while q > from && i - q < 6 && LETTER.has(t.c[q - 1]) {
                q -= 1;
            }
            (i - q >= 2)
                .then(|| rest(i + 3))
                .flatten()
                .map(|end| (t.spaces_before(q, from), end))
        } else if i >= from && www(i) {
            rest(i + 4).map(|end| (t.spaces_before(i, from), end))
        } else {
            None
        };
        match found {
            Some(m) => {
                out.push(m);
                from = m.1;
                i = from.max(i + 1);
            }
            None => i += 1,
        }
    }
    t.bytes(out)
}

/// The byte ranges of the hashtag pattern's matches.
pub fn hashtags(text: &str) -> Vec<(usize, usize)> {
    let t = Chars::new(text);
    let (mut out, mut from) = (Vec::new(), 0);
    for h in 0..t.c.len() {
        if t.c[h] != '#' || h < from {
            continue;
        }
        let e = t.run(h + 1, &LETTER_OR_NUMBER);
        if t.c[h + 1..e].iter().any(|&c| LETTER.has(c)) {
            let m = (t.spaces_before(h, from), t.spaces_after(e));
            from = m.1;
            out.push(m);
        }
    }
    t.bytes(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    const EMAIL_RE: &str = r"(?i) *[\p{L}0-9._-]+@[\p{L}0-9._-]+\.[\p{L}]{2,8} *";
    const URI_RE: &str = r"(?i) *\p{L}{2,6}://[\p{L}\p{N}_/%$&,=?~#.+:;-]+[\p{L}\p{N}_/%$=?~#-] *| *www\.[\p{L}\p{N}_/%$&,=?~#.+:;-]+[\p{L}\p{N}_/%$=?~#-] *";
    const HASHTAG_RE: &str = r"(?i) *#[\p{L}\p{N}]*[\p{L}][\p{L}\p{N}]* *";

    fn regex_matches(re: &Regex, text: &str) -> Vec<(usize, usize)> {
        re.find_iter(text).map(|m| (m.start(), m.end())).collect()
    }

    /// Texts of characters that matter to the patterns: letters (also the non-letter that
    /// case-folds to one, U+0345, and the Kelvin sign), numbers that are not ASCII digits,
    /// punctuation inside and outside the classes, and the anchors.
    fn texts(seed: u64, count: usize) -> Vec<String> {
        let pieces = [
            " ", " ", "  ", "a", "b", "W", "w", "www", "WwW", "http", "https", "x", "é", "ß",
            "\u{345}", "\u{212a}", "٣", "½", "Ⅻ", "1", "0", ".", ".", "..", "-", "_", "@", "@",
            "#", "#", ":", "://", "://", "/", "?", "=", "&", ",", ";", "+", "~", "%", "$", "!",
            "(", ")", "<", ">", "'", "\"", "\t", "\n", "中", "ab.cd", "x@y.org", "www.",
        ];
        let mut state = seed;
        let mut next = move || {
            // SplitMix64: deterministic texts on every machine.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        (0..count)
            .map(|_| {
                let len = next() % 24;
                (0..len)
                    .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn matches_are_the_regexes() {
        let cases: [(&str, Finder); 3] =
            [(EMAIL_RE, emails), (URI_RE, uris), (HASHTAG_RE, hashtags)];
        for (pattern, matcher) in cases {
            let re = Regex::new(pattern).unwrap();
            let mut matched = 0;
            for text in texts(pattern.len() as u64, 100_000) {
                let want = regex_matches(&re, &text);
                matched += usize::from(!want.is_empty());
                assert_eq!(matcher(&text), want, "{pattern} on {text:?}");
            }
            // The generated texts exercise the patterns.
            assert!(matched > 5_000, "{pattern}: {matched} texts with matches");
        }
    }

    #[test]
    fn classes_are_the_regexes() {
        let cases = [
            (&EMAIL, r"(?i)^[\p{L}0-9._-]$"),
            (&LETTER, r"(?i)^\p{L}$"),
            (&LETTER_OR_NUMBER, r"(?i)^[\p{L}\p{N}]$"),
            (&URI, r"(?i)^[\p{L}\p{N}_/%$&,=?~#.+:;-]$"),
            (&URI_END, r"(?i)^[\p{L}\p{N}_/%$=?~#-]$"),
        ];
        for (class, pattern) in cases {
            let re = Regex::new(pattern).unwrap();
            let mut buf = [0u8; 4];
            for c in (0..=0x10ffff).filter_map(char::from_u32) {
                assert_eq!(
                    class.has(c),
                    re.is_match(c.encode_utf8(&mut buf)),
                    "{pattern} {c:?}"
                );
            }
        }
    }

    #[test]
    fn typical_texts() {
        let t = "Mail me@example.org or see http://x.org/a?b=1, www.y.com. #tag #123";
        let text =
            |m: Vec<(usize, usize)>| -> Vec<&str> { m.iter().map(|&(s, e)| &t[s..e]).collect() };
        assert_eq!(text(emails(t)), [" me@example.org "]);
        assert_eq!(text(uris(t)), [" http://x.org/a?b=1", " www.y.com"]);
        assert_eq!(text(hashtags(t)), [" #tag "]);
    }
}

//! Words: the one definition of a word that every detector and feature counting words uses
//! (boilerpipe's words, link and text density, jusText's stop-word density, the combined
//! model's word features, the expected-F1 threshold, shingles and text quality, and the
//! evaluation's bag of words).
//!
//! A word is a whitespace-separated token ([`words`]), or a run of the characters a tokenizer
//! takes ([`tokens`]: letters for shingles, letters and digits for the combined model), with
//! one exception: scripts written without spaces between words. In those, every character is
//! a word of its own, as Unicode word segmentation (UAX #29) has it for ideographs and
//! Hiragana, which it cannot split further without a dictionary:
//!
//! - Han ideographs (with the CJK extensions, the compatibility ideographs and the iteration
//!   marks 々 〆 〇), Hiragana, Thai, Lao, Khmer and Myanmar: each letter is a word. Thai,
//!   Lao, Khmer and Myanmar have no segmentation without a dictionary, so they are counted by
//!   characters too.
//! - Katakana: a run of Katakana letters (with the prolonged sound mark ー and the half-width
//!   forms) is one word, as UAX #29's rule WB13 joins them (タワー is one word): Katakana
//!   mostly spells loanwords and names, one run each, and VRT's tokens (UAX #29) split them
//!   the same way.
//! - A combining mark (a Thai vowel or tone mark, a Myanmar medial, a voicing mark, a
//!   variation selector) and the zero-width (non-)joiner belong to the character before them.
//! - Digits (Thai digits too) and punctuation are not words of those scripts: digits stay
//!   words of their own (`2024年` is `2024` and `年`), and in a token with such characters
//!   the stretches between them count only when they hold a letter or digit, so full-width
//!   punctuation (`、`, `。`, `「`) is not a word.
//!
//! Hangul is not among them: Korean puts spaces between words. Which characters these are is
//! Unicode's (the regex crate's tables, written at build time by `build.rs`): letters
//! (`\p{Alphabetic}`, not marks) of the scripts Han, Hiragana, Thai, Lao, Khmer and Myanmar
//! and of Katakana's script extensions.
//!
//! Text without such characters has the words it always had, at about the cost it had: an
//! ASCII text never reaches the code here beyond `ascii_words`, a non-ASCII text or token is
//! looked at character by character only when one of its UTF-8 lead bytes is that of a
//! Unicode block of those scripts (typographic punctuation like ’ “ – is not), and there a
//! range check comes before any table lookup.

/// The word units of scripts written without spaces, from `build.rs`: `UNITS`, sorted
/// `(first, last, kind)` ranges of the characters of [`Unit::Ideograph`] (kind 1),
/// [`Unit::Katakana`] (2) and [`Unit::Letter`] (3); `MARKS`, the characters that belong to
/// the character before them (`\p{M}`, ZWNJ, ZWJ).
mod table {
    include!(concat!(env!("OUT_DIR"), "/words.rs"));
}

/// What a character is to the words of scripts written without spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Not a letter of such a script.
    None,
    /// A Han ideograph or a Hiragana letter: a word of its own, as in UAX #29.
    Ideograph,
    /// A Katakana letter: a run of them is one word.
    Katakana,
    /// A Thai, Lao, Khmer or Myanmar letter: a word of its own for want of a dictionary that
    /// would find the words it is part of.
    Letter,
}

/// What `c` is to the words of scripts written without spaces ([the module](self)).
#[inline]
pub fn unit(c: char) -> Unit {
    let u = c as u32;
    match u {
        // The common blocks first: CJK Unified Ideographs and extension A, Hiragana, Katakana.
        0x4e00..=0x9fff | 0x3400..=0x4dbf | 0x3041..=0x3096 => Unit::Ideograph,
        0x30a1..=0x30fa => Unit::Katakana,
        // Where the others are: Thai and Lao, Myanmar, Khmer, the CJK symbols, kana and their
        // extensions, Myanmar's extensions, the compatibility ideographs, half-width
        // Katakana, and the ideographs and kana of the supplementary planes.
        0x0e00..=0x0eff
        | 0x1000..=0x109f
        | 0x1780..=0x17ff
        | 0x3000..=0x31ff
        | 0xa9e0..=0xaa7f
        | 0xf900..=0xfaff
        | 0xff66..=0xff9f
        | 0x16fe0..=0x1b2ff
        | 0x20000..=0x323af => lookup(u),
        _ => Unit::None,
    }
}

/// [`unit`] from the table.
fn lookup(u: u32) -> Unit {
    match find(table::UNITS, u, |&(lo, hi, _)| (lo, hi)) {
        Some(&(_, _, 1)) => Unit::Ideograph,
        Some(&(_, _, 2)) => Unit::Katakana,
        Some(_) => Unit::Letter,
        None => Unit::None,
    }
}

/// The range of a sorted table that holds `u`.
fn find<T>(table: &[T], u: u32, range: impl Fn(&T) -> (u32, u32)) -> Option<&T> {
    use std::cmp::Ordering;
    table
        .binary_search_by(|r| {
            let (lo, hi) = range(r);
            if hi < u {
                Ordering::Less
            } else if lo > u {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .ok()
        .map(|i| &table[i])
}

/// Whether `c` belongs to the character before it (a combining mark, ZWNJ, ZWJ).
fn is_mark(c: char) -> bool {
    find(table::MARKS, c as u32, |&r| r).is_some()
}

/// Where a character goes among the word units of a text ([`Units::step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Not in a unit (a unit before it, if any, ends before it).
    Outside,
    /// It starts a unit (whatever came before ends before it).
    Start,
    /// It belongs to the unit before it (a mark, or Katakana after Katakana).
    Within,
}

/// Reads a text character by character and tells where the word units of scripts written
/// without spaces start and end.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Units {
    /// The kind of the unit being read, if any.
    cur: Option<Unit>,
}

impl Units {
    /// Where the next character, `c`, goes.
    #[inline]
    pub(crate) fn step(&mut self, c: char) -> Step {
        if (c as u32) < 0x0e00 && self.cur.is_none() {
            return Step::Outside;
        }
        self.step_unit(c)
    }

    /// [`Units::step`] of a character that may be or follow a unit.
    #[inline(never)]
    fn step_unit(&mut self, c: char) -> Step {
        match unit(c) {
            Unit::None => {
                if self.cur.is_some() && is_mark(c) {
                    Step::Within
                } else {
                    self.cur = None;
                    Step::Outside
                }
            }
            Unit::Katakana if self.cur == Some(Unit::Katakana) => Step::Within,
            u => {
                self.cur = Some(u);
                Step::Start
            }
        }
    }
}

/// Whether a text may have characters of scripts written without spaces: it has a UTF-8 lead
/// byte of one of them (U+0800–U+1FFF, U+3000–U+AFFF, U+F000–U+3FFFF; not U+2000–U+2FFF, the
/// punctuation and symbols of alphabetic text: ’ “ – € …). Cheap, and false for almost all
/// text in alphabetic scripts.
#[inline]
fn may_have_units(text: &str) -> bool {
    // The lead bytes e0, e1, e3–ea, ef and f0, by comparisons that vectorise; most texts are
    // ASCII, which the first scan tells at once.
    let lead = |x: u8| (x.wrapping_sub(0xe0) <= 0x10) & (x != 0xe2) & (x.wrapping_sub(0xeb) > 3);
    let b = text.as_bytes();
    !b.is_ascii() && b.iter().fold(false, |any, &x| any | lead(x))
}

/// Whether a text has a character of a script written without spaces.
pub(crate) fn has_units(text: &str) -> bool {
    may_have_units(text) && text.chars().any(|c| unit(c) != Unit::None)
}

/// The words of a whitespace-separated token ([the module](self)): the token itself when it
/// has no character of a script written without spaces; else each unit of those scripts, and
/// each stretch between them that has a letter or digit.
pub fn split(token: &str) -> Split<'_> {
    Split {
        token,
        chars: token.char_indices(),
        units: Units::default(),
        pending: None,
        whole: !may_have_units(token),
    }
}

/// The iterator of [`split`].
#[derive(Debug, Clone)]
pub struct Split<'a> {
    token: &'a str,
    chars: std::str::CharIndices<'a>,
    units: Units,
    /// The character that ended the last piece: where it is, what it is and its step.
    pending: Option<(usize, char, Step)>,
    /// The token has no unit: it is one word (or, once yielded, none).
    whole: bool,
}

impl<'a> Iterator for Split<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.whole {
            self.whole = false;
            self.chars = "".char_indices();
            return (!self.token.is_empty()).then_some(self.token);
        }
        loop {
            let (start, first, step) = match self.pending.take() {
                Some(p) => p,
                None => {
                    let (i, c) = self.chars.next()?;
                    (i, c, self.units.step(c))
                }
            };
            let unit = step != Step::Outside;
            let mut keep = unit || first.is_alphanumeric();
            let mut end = self.token.len();
            for (i, c) in self.chars.by_ref() {
                let s = self.units.step(c);
                let same = if unit {
                    s == Step::Within
                } else {
                    s == Step::Outside
                };
                if !same {
                    self.pending = Some((i, c, s));
                    end = i;
                    break;
                }
                keep |= c.is_alphanumeric();
            }
            // A stretch without units from the token's start to its end is the whole token.
            if keep || (start == 0 && end == self.token.len()) {
                return Some(&self.token[start..end]);
            }
        }
    }
}

/// The words of a text: its whitespace-separated tokens ([`str::split_whitespace`]), each
/// [`split`] around the characters of scripts written without spaces.
pub fn words(text: &str) -> Words<'_> {
    Words {
        tokens: text.split_whitespace(),
        split: None,
        units: may_have_units(text),
    }
}

/// The iterator of [`words`].
#[derive(Debug, Clone)]
pub struct Words<'a> {
    tokens: std::str::SplitWhitespace<'a>,
    /// The pieces of the current token.
    split: Option<Split<'a>>,
    /// The text may have characters of scripts written without spaces (else its tokens are
    /// its words).
    units: bool,
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        if !self.units {
            return self.tokens.next();
        }
        loop {
            if let Some(w) = self.split.as_mut().and_then(Iterator::next) {
                return Some(w);
            }
            self.split = Some(split(self.tokens.next()?));
        }
    }
}

/// The number of [`words`] of a text.
pub fn count(text: &str) -> usize {
    words(text).count()
}

/// What [`tokens`] tells, character by character.
pub trait TokenSink {
    /// The next character of the current token.
    fn push(&mut self, c: char);
    /// The current token ends (after at least one character).
    fn end(&mut self);
}

/// The tokens of a text that a tokenizer takes as maximal runs of characters for which
/// `is_word` holds (letters, letters and digits, …), with each unit of a script written
/// without spaces a token of its own, whether `is_word` holds for it or not. They are told
/// to `sink` character by character, so that a tokenizer that lower-cases and hashes each
/// token (the combined model's) or copies it upper-cased (the shingles') passes over the
/// text once, as it did over plain runs.
#[inline]
pub fn tokens(text: &str, mut is_word: impl FnMut(char) -> bool, sink: &mut impl TokenSink) {
    // A token is open, and it is a unit.
    let (mut open, mut unit) = (false, false);
    if !may_have_units(text) {
        for c in text.chars() {
            if is_word(c) {
                sink.push(c);
                open = true;
            } else if open {
                sink.end();
                open = false;
            }
        }
    } else {
        let mut units = Units::default();
        for c in text.chars() {
            match units.step(c) {
                Step::Within => sink.push(c),
                Step::Start => {
                    if open {
                        sink.end();
                    }
                    sink.push(c);
                    (open, unit) = (true, true);
                }
                Step::Outside => {
                    let word = is_word(c);
                    if open && (unit || !word) {
                        sink.end();
                        open = false;
                    }
                    if word {
                        sink.push(c);
                        (open, unit) = (true, false);
                    }
                }
            }
        }
    }
    if open {
        sink.end();
    }
}

/// The words of an ASCII text as [`str::split_whitespace`] splits it: its whitespace is
/// [`char::is_whitespace`]'s ASCII whitespace (which, unlike [`u8::is_ascii_whitespace`],
/// includes the vertical tab). An ASCII text has no characters of scripts written without
/// spaces, so these are its [`words`].
pub(crate) fn ascii_words(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    text.split(space).filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<&str> {
        words(text).collect()
    }

    #[test]
    fn ascii_and_spaced_scripts_keep_their_whitespace_words() {
        for text in [
            "",
            " a  b ",
            "a\x0bb\x0cc\rd\ne\tf",
            "\x1f x\x1f",
            "Home | About us - (c) 2024.",
            "Ça va ? « très bien » — don’t, naïve café",
            "Привет, мир! Γειά σου κόσμε",
            "안녕하세요 세계 한국어는 띄어 씁니다",
            "a\u{a0}b\u{3000}c \u{2019}\u{201c} € ½",
        ] {
            let spaced: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(w(text), spaced, "{text:?}");
            if text.is_ascii() {
                let ascii: Vec<&[u8]> = ascii_words(text.as_bytes()).collect();
                let bytes: Vec<&[u8]> = spaced.iter().map(|s| s.as_bytes()).collect();
                assert_eq!(ascii, bytes, "{text:?}");
            }
        }
    }

    #[test]
    fn ideographs_and_hiragana_are_a_word_each() {
        assert_eq!(w("東京都"), ["東", "京", "都"]);
        assert_eq!(w("我们的新闻"), ["我", "们", "的", "新", "闻"]);
        assert_eq!(count("東京の新しい図書館"), 9);
        // Extensions, compatibility ideographs and the iteration marks.
        assert_eq!(w("𠀋㐀丽時々〇"), ["𠀋", "㐀", "丽", "時", "々", "〇"]);
        assert_eq!(w("ひらがな"), ["ひ", "ら", "が", "な"]);
    }

    #[test]
    fn a_katakana_run_is_one_word() {
        assert_eq!(w("東京タワーabc"), ["東", "京", "タワー", "abc"]);
        assert_eq!(
            w("コンピューターを使う"),
            ["コンピューター", "を", "使", "う"]
        );
        // Half-width Katakana with its voicing mark; the middle dot separates names.
        assert_eq!(w("ｶﾞｲﾄﾞ"), ["ｶﾞｲﾄﾞ"]);
        assert_eq!(w("ジョン・スミス"), ["ジョン", "スミス"]);
        // A combining voicing mark stays with its letter.
        assert_eq!(w("か\u{3099}く"), ["か\u{3099}", "く"]);
    }

    #[test]
    fn punctuation_between_units_is_not_a_word_but_digits_and_latin_are() {
        assert_eq!(w("東京、大阪。"), ["東", "京", "大", "阪"]);
        assert_eq!(
            w("「東京」（とうきょう）！"),
            ["東", "京", "と", "う", "き", "ょ", "う"]
        );
        assert_eq!(w("2024年5月"), ["2024", "年", "5", "月"]);
        assert_eq!(w("２０２４年"), ["２０２４", "年"]);
        assert_eq!(w("iPhone15を買った"), ["iPhone15", "を", "買", "っ", "た"]);
        assert_eq!(w("(東京)"), ["東", "京"]);
        // A token without units is a word, punctuation or not.
        assert_eq!(w("東京 。 abc。"), ["東", "京", "。", "abc。"]);
    }

    #[test]
    fn thai_lao_khmer_and_myanmar_count_by_characters_marks_with_their_letter() {
        // ภาษาไทย: ภ า ษ า ไ ท ย, all letters.
        assert_eq!(count("ภาษาไทย"), 7);
        // กิน: the vowel sign ิ belongs to ก; ที่: both marks belong to ท.
        assert_eq!(w("กินที่"), ["กิ", "น", "ที่"]);
        // Thai digits are digits, not letters: one word.
        assert_eq!(w("๒๕๖๗"), ["๒๕๖๗"]);
        assert_eq!(w("ສະບາຍດີ"), ["ສ", "ະ", "ບ", "າ", "ຍ", "ດີ"]);
        // Khmer: ខ្មែរ is ខ, ្ (a mark, with ខ), ម, ែ (a mark), រ.
        assert_eq!(w("ខ្មែរ"), ["ខ្", "មែ", "រ"]);
        // Myanmar: မြန်မာ is မ ြ(mark) န ်(mark) မ ာ(mark).
        assert_eq!(w("မြန်မာ"), ["မြ", "န်", "မာ"]);
    }

    /// The tokens told to a [`TokenSink`].
    #[derive(Default)]
    struct Collect(Vec<String>, String);

    impl TokenSink for Collect {
        fn push(&mut self, c: char) {
            self.1.push(c);
        }
        fn end(&mut self) {
            assert!(!self.1.is_empty(), "an empty token");
            self.0.push(std::mem::take(&mut self.1));
        }
    }

    #[test]
    fn tokens_of_runs_split_out_units() {
        fn letters(t: &str) -> Vec<String> {
            let mut v = Collect::default();
            tokens(t, char::is_alphabetic, &mut v);
            v.0
        }
        assert_eq!(letters("Hello, wörld!"), ["Hello", "wörld"]);
        assert_eq!(
            letters("東京タワーabc、ok"),
            ["東", "京", "タワー", "abc", "ok"]
        );
        // A unit is a token even where the tokenizer takes no such character.
        fn latin(t: &str) -> Vec<String> {
            let mut v = Collect::default();
            tokens(t, |c| c.is_ascii_alphabetic(), &mut v);
            v.0
        }
        assert_eq!(latin("ab東京cd"), ["ab", "東", "京", "cd"]);
        assert_eq!(latin("กิน"), ["กิ", "น"]);
        assert_eq!(latin(" x "), ["x"]);
        assert!(latin("").is_empty() && latin("。").is_empty());
        // Without units, the runs of the tokenizer.
        let text = "Ça va ? « très bien » — l’été 2024";
        let runs: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|r| !r.is_empty())
            .collect();
        let mut alnum = Collect::default();
        tokens(text, char::is_alphanumeric, &mut alnum);
        assert_eq!(alnum.0, runs);
    }

    #[test]
    fn the_range_check_covers_the_table() {
        // Every character of the table passes the range check, the fast paths agree with the
        // table, and every unit is a letter (`char::is_alphabetic`).
        let mut buf = [0u8; 4];
        for &(lo, hi, kind) in table::UNITS {
            for u in lo..=hi {
                let c = char::from_u32(u).unwrap();
                assert!(may_have_units(c.encode_utf8(&mut buf)), "U+{u:04X}");
                let want = [Unit::Ideograph, Unit::Katakana, Unit::Letter][kind as usize - 1];
                assert_eq!(unit(c), want, "U+{u:04X}");
                assert!(c.is_alphabetic(), "U+{u:04X}");
            }
        }
        // Typographic punctuation and symbols do not send a text down the slow path.
        assert!(!may_have_units("“Don’t” – 5 € … •"));
        assert!(may_have_units("a 東") && may_have_units("ก") && !may_have_units("é Я"));
        for c in ['a', 'é', 'ß', 'Я', '한', '、', '。', '・', '１', '๑', 'ー'] {
            let want = if c == 'ー' {
                Unit::Katakana
            } else {
                Unit::None
            };
            assert_eq!(unit(c), want, "{c}");
        }
        assert_eq!(
            (0..=0x10ffff)
                .filter_map(char::from_u32)
                .filter(|&c| unit(c) != Unit::None)
                .count(),
            table::UNITS
                .iter()
                .map(|&(lo, hi, _)| (hi - lo + 1) as usize)
                .sum::<usize>()
        );
        // No mark is a unit, and the marks are the combining marks.
        for &(lo, hi) in table::MARKS {
            for u in lo..=hi {
                let c = char::from_u32(u).unwrap();
                assert_eq!(unit(c), Unit::None, "U+{u:04X}");
            }
        }
        assert!(is_mark('\u{301}') && is_mark('\u{e48}') && is_mark('\u{fe00}'));
        assert!(!is_mark('a') && !is_mark('東') && !is_mark('\u{200b}'));
    }

    #[test]
    fn the_table_is_unicodes() {
        // The classes as the regex crate has them.
        let ideograph = regex::Regex::new(
            r"^[[[\p{scx=Han}\p{scx=Hiragana}]&&[\p{Alphabetic}&&\P{M}]]--\p{scx=Katakana}]$",
        )
        .unwrap();
        let kana = regex::Regex::new(r"^[\p{scx=Katakana}&&\p{Alphabetic}&&\P{M}]$").unwrap();
        let letter = regex::Regex::new(
            r"^[[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]&&[\p{Alphabetic}&&\P{M}]]$",
        )
        .unwrap();
        let mark = regex::Regex::new(r"^[\p{M}\u{200C}\u{200D}]$").unwrap();
        let mut buf = [0u8; 4];
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let s = c.encode_utf8(&mut buf);
            let want = if ideograph.is_match(s) {
                Unit::Ideograph
            } else if kana.is_match(s) {
                Unit::Katakana
            } else if letter.is_match(s) {
                Unit::Letter
            } else {
                Unit::None
            };
            assert_eq!(unit(c), want, "U+{:04X}", c as u32);
            assert_eq!(is_mark(c), mark.is_match(s), "U+{:04X}", c as u32);
        }
    }
}

//! Quality signals for pretraining data: the figures datatrove's `GopherQualityFilter`,
//! `GopherRepetitionFilter`, `C4QualityFilter` and `FineWebQualityFilter` compute, and
//! RedPajama-V2's counting signals, on the text cowrex keeps ([`compute`]); the filters'
//! decisions from those figures ([`Preset`], [`Rule`]), as `cowrex filter --preset` and Python
//! apply them later.
//!
//! Words are spaCy's blank English tokenizer's ([`tokens`]), as datatrove runs it for English,
//! for every language; lines are Python's `str.splitlines`; lengths are in characters (code
//! points). docs/formats.md#quality-signals defines each signal and says where cowrex's figures
//! differ from datatrove's.

pub mod tokens;

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use crate::document::{Block, N_SIGNALS, SIGNALS, Signals};

/// C4's policy phrases (datatrove's `POLICY_SUBSTRINGS`).
const POLICY: [&str; 6] = [
    "terms of use",
    "privacy policy",
    "cookie policy",
    "uses cookies",
    "use of cookies",
    "use cookies",
];

/// Set the signal `$name` of the values `$v`, its position found at compile time.
macro_rules! set_signal {
    ($v:expr, $name:literal, $x:expr) => {
        $v[const { at($name) }] = $x
    };
}

/// What Gopher's figures count that RedPajama-V2's count too.
#[derive(Clone, Copy)]
struct Counted {
    /// Lines ([`splitlines`]).
    lines: usize,
    /// Lines ending with `...` or `…` (spaces after them aside).
    ellipsis_lines: usize,
    /// `#` in the text.
    hashes: usize,
    /// `...` and `…` in the text.
    ellipses: usize,
}

/// The position of a signal in [`SIGNALS`] (a compile-time check of the name).
const fn at(name: &str) -> usize {
    let mut i = 0;
    while i < N_SIGNALS {
        if crate::classify::registry::same(SIGNALS[i], name) {
            return i;
        }
        i += 1;
    }
    panic!("not a signal")
}

/// Python's `str.splitlines`: lines split at `\n`, `\r`, `\r\n` and Unicode's other line
/// boundaries, without a last empty line.
pub fn splitlines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if is_line_break(c) {
            out.push(&text[start..i]);
            start = i + c.len_utf8();
            if c == '\r' && it.peek().is_some_and(|&(_, n)| n == '\n') {
                it.next();
                start += 1;
            }
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// A line boundary of Python's `str.splitlines`.
fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\x0b'
            | '\x0c'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Characters (code points) of `s`.
fn chars(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// `(duplicates, their characters)` of `items`: datatrove's `find_duplicates`, every
/// occurrence after the first counted.
fn find_duplicates<'a>(items: impl IntoIterator<Item = &'a str>) -> (usize, usize) {
    let mut seen = rustc_hash::FxHashSet::default();
    let (mut n, mut c) = (0, 0);
    for s in items {
        if !seen.insert(s) {
            n += 1;
            c += chars(s);
        }
    }
    (n, c)
}

/// Whether a character is one of datatrove's `PUNCTUATION_SET` (punctuation, control
/// characters and the few symbols it lists), approximated by Unicode's categories: a word of
/// only these is a symbol.
fn is_symbol_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation()
            || c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r');
    }
    // Punctuation that datatrove's list leaves out (the ones met in the development pages).
    if matches!(
        c,
        '‘' | '•' | '·' | '‑' | '§' | '″' | '¶' | '‚' | '′' | '†' | '‡' | '¡' | '¿'
    ) {
        return false;
    }
    tokens::is_punctuation(c)
        || c.is_control()
        || matches!(c, '━' | '►' | '％' | '１' | '～' | '´' | '$')
}

/// The C4 fate of one line under C4's rules (`any_end`: without the terminal-punctuation rule,
/// as FineWeb runs it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum C4Line {
    /// Kept, with this many sentences.
    Kept(usize),
    /// A word longer than 1,000 characters.
    TooLongWord,
    /// Does not end in `.` `?` `!` `"` `'`, or ends in `...`.
    NoTerminalPunct,
    /// Fewer than 3 words.
    TooFewWords,
    /// Holds `lorem ipsum`: the document goes.
    LoremIpsum,
    /// Mentions `javascript`.
    Javascript,
    /// Holds `{`: the document goes.
    CurlyBracket,
    /// Holds a cookie or terms-of-use phrase.
    Policy,
}

impl C4Line {
    /// The name cowrex writes (datatrove's statistic's name).
    pub fn name(self) -> &'static str {
        match self {
            C4Line::Kept(_) => "kept",
            C4Line::TooLongWord => "too_long_word",
            C4Line::NoTerminalPunct => "no_terminal_punc",
            C4Line::TooFewWords => "too_few_words",
            C4Line::LoremIpsum => "lorem_ipsum",
            C4Line::Javascript => "javascript",
            C4Line::CurlyBracket => "curly_bracket",
            C4Line::Policy => "policy",
        }
    }
}

/// Remove Wikipedia's citation marks (`[1]`, `[edit]`, `[citation needed]`), as C4's
/// `remove_citations` does.
fn remove_citations(line: &str) -> Cow<'_, str> {
    if !line.contains('[') {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let skip = if after[digits..].starts_with(']') {
            Some(digits + 1)
        } else if after.starts_with("edit]") {
            Some(5)
        } else if after.starts_with("citation needed]") {
            Some(16)
        } else {
            None
        };
        match skip {
            Some(n) => rest = &after[n..],
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// C4's phrases, ASCII letters matched without case: `lorem ipsum`, `javascript`, then
/// [`POLICY`].
static PHRASES: std::sync::LazyLock<aho_corasick::AhoCorasick> = std::sync::LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(["lorem ipsum", "javascript"].iter().chain(&POLICY))
        .expect("C4's phrases")
});

/// C4's rules on one line ([`C4Line`]), with and without the terminal-punctuation rule
/// (`(strict, any_end)`); `sentences` counts the sentences of the line as it is after
/// citations are removed, when it is kept.
fn c4_rules(line: &str, sentences: impl FnOnce(&str) -> usize) -> (C4Line, C4Line) {
    let line = line.trim();
    let mut n_words = 0;
    for w in line.split_whitespace() {
        if w.len() > 1000 && chars(w) > 1000 {
            return (C4Line::TooLongWord, C4Line::TooLongWord);
        }
        n_words += 1;
    }
    let line = remove_citations(line);
    let ends = line.ends_with(['.', '?', '!', '"', '\'']) && !line.ends_with("...");
    let any_end = if n_words < 3 {
        C4Line::TooFewWords
    } else {
        // Which of C4's phrases the line holds: bit 0 `lorem ipsum`, 1 `javascript`, 2 a
        // policy.
        let mut found = 0u8;
        for m in PHRASES.find_overlapping_iter(line.as_bytes()) {
            found |= 1 << m.pattern().as_usize().min(2);
        }
        if found & 1 != 0 {
            C4Line::LoremIpsum
        } else if found & 2 != 0 {
            C4Line::Javascript
        } else if line.contains('{') {
            C4Line::CurlyBracket
        } else if found & 4 != 0 {
            C4Line::Policy
        } else {
            C4Line::Kept(sentences(&line))
        }
    };
    let strict = if ends {
        any_end
    } else {
        C4Line::NoTerminalPunct
    };
    (strict, any_end)
}

/// C4's rules on one line ([`C4Line`]), its sentences counted from its words (`any_end`:
/// without the terminal-punctuation rule, as FineWeb runs them).
pub fn c4_line(line: &str, any_end: bool) -> C4Line {
    let (strict, any) = c4_rules(line, |l| tokens::sentences(&tokens::words(l)));
    if any_end { any } else { strict }
}

/// C4's cascade over a document's lines: `(sentences, kept lines, the rule that drops the
/// document)`, as `C4QualityFilter.filter` counts them up to the first line that drops it.
fn c4_document(fates: impl IntoIterator<Item = C4Line>) -> (usize, usize, Option<C4Line>) {
    let (mut sentences, mut kept) = (0, 0);
    for fate in fates {
        match fate {
            C4Line::Kept(s) => {
                sentences += s;
                kept += 1;
            }
            C4Line::LoremIpsum | C4Line::CurlyBracket => return (sentences, kept, Some(fate)),
            _ => {}
        }
    }
    (sentences, kept, None)
}

/// Multiplier of the n-grams' rolling hash.
const GRAM_MUL: u64 = 0x9E37_79B9_7F4A_7C15;

/// The top n-gram's characters (`len(" ".join(gram)) * count` of the most frequent, the first
/// seen among equals) for n = 2, 3, 4, and the characters of duplicated n-grams for n = 5–10,
/// as datatrove's `find_top_duplicate` and `find_all_duplicate` count them, with n-grams
/// compared as word sequences (by a 64-bit hash of the sequence). `ids`: the words as numbers,
/// `lens` their characters, `once[i]`: word `i` occurs once in the text.
///
/// An n-gram that occurs once is never a repeat, and remembering it changes nothing, so only
/// the n-grams that may occur twice are hashed and looked up: those whose two (n − 1)-grams
/// (the n-gram less its last word, less its first) each occur more than once, which for
/// n = 2 are the pairs of words that occur more than once.
fn ngram_chars(ids: &[u32], lens: &[usize], once: &[bool]) -> ([usize; 3], [usize; 6]) {
    let mut top = [0; 3];
    let mut dup = [0; 6];
    let hash = |i: usize, n: usize| {
        ids[i..i + n].iter().fold(0u64, |h, &id| {
            h.wrapping_mul(GRAM_MUL)
                .rotate_left(29)
                .wrapping_add(u64::from(id) + 1)
        })
    };
    // repeated[i]: the (n − 1)-gram at i occurs more than once (n = 2: the word).
    let mut repeated: Vec<bool> = once.iter().map(|&o| !o).collect();
    let mut candidates: Vec<(u32, u64)> = Vec::with_capacity(ids.len());
    let mut counts: FxHashMap<u64, (u32, u32)> =
        FxHashMap::with_capacity_and_hasher(ids.len(), Default::default());
    let mut seen: rustc_hash::FxHashSet<u64> =
        rustc_hash::FxHashSet::with_capacity_and_hasher(ids.len() / 4, Default::default());
    for n in 2..=10usize {
        if ids.len() < n {
            break;
        }
        let grams = ids.len() + 1 - n;
        candidates.clear();
        candidates.extend(
            (0..grams)
                .filter(|&i| repeated[i] && repeated[i + 1])
                .map(|i| (i as u32, hash(i, n))),
        );
        counts.clear();
        // count, first; an n-gram that occurs once: the first n-gram.
        let mut best: (u32, u32) = (1, 0);
        for &(i, h) in &candidates {
            let e = counts.entry(h).or_insert((0, i));
            e.0 += 1;
            let (c, first) = *e;
            if c > best.0 || (c == best.0 && first < best.1) {
                best = (c, first);
            }
        }
        if n <= 4 {
            let s = best.1 as usize;
            let len: usize = lens[s..s + n].iter().sum::<usize>() + n - 1;
            top[n - 2] = len * best.0 as usize;
        } else {
            // Left to right, a repeat of an n-gram seen before counts and is skipped whole.
            seen.clear();
            let mut next = 0;
            for &(i, h) in &candidates {
                let i = i as usize;
                if i < next || counts[&h].0 < 2 || seen.insert(h) {
                    continue;
                }
                dup[n - 5] += lens[i..i + n].iter().sum::<usize>();
                next = i + n;
            }
        }
        // The n-grams that occur more than once, for n + 1.
        repeated[..grams].fill(false);
        repeated.truncate(grams);
        for &(i, h) in &candidates {
            repeated[i as usize] = counts[&h].0 > 1;
        }
    }
    (top, dup)
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Gopher's stop word (datatrove's `STOP_WORDS`; a document needs two) that `w` is, as a bit,
/// 0 for another word.
fn stop_word_bit(w: &str) -> u8 {
    match w {
        "the" => 1,
        "be" => 2,
        "to" => 4,
        "of" => 8,
        "and" => 16,
        "that" => 32,
        "have" => 64,
        "with" => 128,
        _ => 0,
    }
}

/// The quality signals of `text` (a document's text: its content blocks, one per line), and
/// the C4 fate of each of `blocks`' lines (the content blocks whose lines make `text`), in
/// their order: `None` for a block whose lines C4 keeps, else each line's fate's name, joined
/// by `,`.
pub fn compute<'b>(
    text: &str,
    blocks: impl IntoIterator<Item = &'b Block>,
) -> (Signals, Vec<Option<Cow<'static, str>>>) {
    let mut v = [0.0; N_SIGNALS];
    macro_rules! set {
        ($name:literal, $x:expr) => {
            set_signal!(v, $name, $x)
        };
    }
    let text_chars = chars(text);
    let lines = splitlines(text);
    // The words of each line (no token spans lines): `line_words[l]..line_words[l + 1]`.
    let mut words: Vec<&str> = Vec::with_capacity(text.len() / 5);
    let mut line_words = Vec::with_capacity(lines.len() + 1);
    for l in &lines {
        line_words.push(words.len());
        tokens::push_words(l, &mut words);
    }
    line_words.push(words.len());
    let n_words = words.len();

    // Gopher quality.
    let (mut non_symbol, mut non_symbol_chars, mut alpha, mut stop) = (0, 0, 0, 0u8);
    let mut lens = Vec::with_capacity(n_words);
    for w in &words {
        let len = chars(w);
        lens.push(len);
        if w.chars().any(|c| !is_symbol_char(c)) {
            non_symbol += 1;
            non_symbol_chars += len;
        }
        if w.chars().any(tokens::is_alpha) {
            alpha += 1;
        }
        stop |= stop_word_bit(w);
    }
    set!("gopher_words", n_words as f64);
    set!("gopher_non_symbol_words", non_symbol as f64);
    set!(
        "gopher_mean_word_length",
        ratio(non_symbol_chars, non_symbol)
    );
    let hashes = memchr::memchr_iter(b'#', text.as_bytes()).count();
    set!("gopher_hash_ratio", ratio(hashes, n_words));
    let ellipses = memchr::memmem::find_iter(text.as_bytes(), "...").count()
        + memchr::memmem::find_iter(text.as_bytes(), "…").count();
    set!("gopher_ellipsis_ratio", ratio(ellipses, n_words));
    let bullets = lines
        .iter()
        .filter(|l| l.trim_start().starts_with(['•', '-']))
        .count();
    set!("gopher_bullet_lines_ratio", ratio(bullets, lines.len()));
    let ellipsis_lines = lines
        .iter()
        .filter(|l| {
            let t = l.trim_end();
            t.ends_with("...") || t.ends_with('…')
        })
        .count();
    set!(
        "gopher_ellipsis_lines_ratio",
        ratio(ellipsis_lines, lines.len())
    );
    set!("gopher_alpha_words_ratio", ratio(alpha, n_words));
    set!("gopher_stop_words", stop.count_ones() as f64);

    // Gopher repetition.
    let paragraphs: Vec<&str> = split_newline_runs(text.trim(), 2);
    let (pd, pc) = find_duplicates(paragraphs.iter().copied());
    set!("gopher_dup_para_frac", ratio(pd, paragraphs.len()));
    set!("gopher_dup_para_char_frac", ratio(pc, text_chars));
    let rep_lines = split_newline_runs(text, 1);
    let (ld, lc) = find_duplicates(rep_lines.iter().copied());
    set!("gopher_dup_line_frac", ratio(ld, rep_lines.len()));
    set!("gopher_dup_line_char_frac", ratio(lc, text_chars));
    let mut interned: FxHashMap<&str, u32> =
        FxHashMap::with_capacity_and_hasher(n_words / 2, Default::default());
    let mut freq: Vec<u32> = Vec::new();
    let ids: Vec<u32> = words
        .iter()
        .map(|w| {
            let next = interned.len() as u32;
            let id = *interned.entry(w).or_insert(next);
            if id == next {
                freq.push(0);
            }
            freq[id as usize] += 1;
            id
        })
        .collect();
    let once: Vec<bool> = ids.iter().map(|&id| freq[id as usize] == 1).collect();
    let (top, dup) = ngram_chars(&ids, &lens, &once);
    for (k, t) in top.into_iter().enumerate() {
        v[const { at("gopher_top_2gram_char_frac") } + k] = ratio(t, text_chars);
    }
    for (k, d) in dup.into_iter().enumerate() {
        v[const { at("gopher_dup_5gram_char_frac") } + k] = ratio(d, text_chars);
    }

    // C4, strict and without the terminal-punctuation rule.
    let (strict, any_end): (Vec<C4Line>, Vec<C4Line>) = lines
        .iter()
        .enumerate()
        .map(|(l, line)| {
            c4_rules(line, |cleaned| {
                if cleaned.len() == line.trim().len() {
                    tokens::sentences(&words[line_words[l]..line_words[l + 1]])
                } else {
                    tokens::sentences(&tokens::words(cleaned))
                }
            })
        })
        .unzip();
    let (s, kept, drop) = c4_document(strict.iter().copied());
    set!("c4_lines", lines.len() as f64);
    set!("c4_kept_lines", kept as f64);
    set!("c4_sentences", s as f64);
    set!(
        "c4_lorem_ipsum",
        f64::from(drop == Some(C4Line::LoremIpsum))
    );
    set!(
        "c4_curly_bracket",
        f64::from(drop == Some(C4Line::CurlyBracket))
    );
    let javascript = strict.iter().filter(|&&f| f == C4Line::Javascript).count();
    set!("c4_javascript_lines", javascript as f64);
    let policy = strict.iter().filter(|&&f| f == C4Line::Policy).count();
    set!("c4_policy_lines", policy as f64);
    let (s, _, drop) = c4_document(any_end.iter().copied());
    set!("c4_sentences_any_end", s as f64);
    set!(
        "c4_lorem_ipsum_any_end",
        f64::from(drop == Some(C4Line::LoremIpsum))
    );
    set!(
        "c4_curly_bracket_any_end",
        f64::from(drop == Some(C4Line::CurlyBracket))
    );
    let mut fates = Vec::new();
    let mut at_line = 0;
    for b in blocks {
        let n = if b.text.contains(is_line_break) {
            splitlines(&b.text).len()
        } else {
            1
        };
        let mine = &strict[at_line.min(strict.len())..(at_line + n).min(strict.len())];
        at_line += n;
        let dropped = mine.iter().any(|f| !matches!(f, C4Line::Kept(_)));
        fates.push(dropped.then(|| {
            match mine {
                [one] => one.name().into(),
                _ => mine
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(",")
                    .into(),
            }
        }));
    }

    // FineWeb, on the text C4 (without its terminal-punctuation rule) leaves, as FineWeb's
    // pipeline runs it: the kept lines, trimmed, without citations.
    let mut kept_lines: Vec<Cow<'_, str>> = Vec::new();
    let mut kept_words = 0;
    for (l, fate) in any_end.iter().enumerate() {
        if let C4Line::Kept(_) = fate {
            let line = remove_citations(lines[l].trim());
            kept_words += if line.len() == lines[l].trim().len() {
                line_words[l + 1] - line_words[l]
            } else {
                tokens::words(&line).len()
            };
            kept_lines.push(line);
        }
    }
    set!("fineweb_lines", kept_lines.len() as f64);
    let punct = kept_lines
        .iter()
        .filter(|l| l.chars().next_back().is_some_and(tokens::is_terminal))
        .count();
    set!("fineweb_line_punct_ratio", ratio(punct, kept_lines.len()));
    let kept_chars: Vec<usize> = kept_lines.iter().map(|l| chars(l)).collect();
    let short = kept_chars.iter().filter(|&&c| c <= 30).count();
    set!("fineweb_short_line_ratio", ratio(short, kept_lines.len()));
    set!(
        "fineweb_char_dup_ratio",
        ratio(
            find_duplicates(kept_lines.iter().map(|l| &**l)).1,
            kept_chars.iter().sum(),
        )
    );
    set!(
        "fineweb_newline_ratio",
        ratio(kept_lines.len().saturating_sub(1), kept_words)
    );

    let counted = Counted {
        lines: lines.len(),
        ellipsis_lines,
        hashes,
        ellipses,
    };
    rpv2(text, counted, &mut v);
    (Signals { values: v }, fates)
}

/// `re.split(r"\n{min,}", text)`: the parts between runs of at least `min` newlines.
fn split_newline_runs(text: &str, min: usize) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while let Some(j) = memchr::memchr(b'\n', &b[i..]) {
        let at = i + j;
        let run = b[at..].iter().take_while(|&&x| x == b'\n').count();
        if run >= min {
            out.push(&text[start..at]);
            start = at + run;
        }
        i = at + run;
    }
    out.push(&text[start..]);
    out
}

/// RedPajama-V2's counting signals (`rps_doc_*`). Normalised words: the text's
/// whitespace-separated words lower-cased, without ASCII punctuation, those left empty left
/// out. `counted`: what Gopher's figures counted already.
fn rpv2(text: &str, counted: Counted, v: &mut [f64; N_SIGNALS]) {
    macro_rules! set {
        ($name:literal, $x:expr) => {
            set_signal!(v, $name, $x)
        };
    }
    let mut counts: FxHashMap<u64, u32> =
        FxHashMap::with_capacity_and_hasher(text.len() / 12, Default::default());
    let (mut n, mut total, mut no_alpha, mut lorem) = (0usize, 0usize, 0usize, 0usize);
    let (mut raw_words, mut caps) = (0usize, 0usize);
    let mut word: Vec<u8> = Vec::with_capacity(64);
    let mut prev_lorem = false;
    for raw in text.split_whitespace() {
        raw_words += 1;
        word.clear();
        let mut alpha = false;
        let len;
        if raw.is_ascii() {
            let (mut upper, mut lower) = (false, false);
            for &b in raw.as_bytes() {
                upper |= b.is_ascii_uppercase();
                lower |= b.is_ascii_lowercase();
                if !b.is_ascii_punctuation() {
                    word.push(b.to_ascii_lowercase());
                }
            }
            caps += usize::from(upper && !lower);
            alpha = upper || lower;
            len = word.len();
        } else {
            if raw.chars().any(char::is_uppercase) && !raw.chars().any(char::is_lowercase) {
                caps += 1;
            }
            let mut buf = [0u8; 4];
            let mut n_chars = 0;
            for c in raw.chars().filter(|c| !c.is_ascii_punctuation()) {
                for l in c.to_lowercase() {
                    word.extend_from_slice(l.encode_utf8(&mut buf).as_bytes());
                    n_chars += 1;
                }
                alpha |= tokens::is_alpha(c);
            }
            len = n_chars;
        }
        if word.is_empty() {
            continue;
        }
        n += 1;
        total += len;
        no_alpha += usize::from(!alpha);
        if prev_lorem && word.starts_with(b"ipsum") {
            lorem += 1;
        }
        prev_lorem = word.ends_with(b"lorem");
        let mut h = rustc_hash::FxHasher::default();
        std::hash::Hasher::write(&mut h, &word);
        *counts.entry(std::hash::Hasher::finish(&h)).or_default() += 1;
    }
    set!("rps_doc_word_count", n as f64);
    set!("rps_doc_mean_word_length", ratio(total, n));
    set!("rps_doc_frac_unique_words", ratio(counts.len(), n));
    // Summed in the order of the counts, the same whatever the map's.
    let mut freqs: Vec<u32> = counts.values().copied().collect();
    freqs.sort_unstable();
    let entropy = freqs
        .iter()
        .map(|&c| {
            let p = f64::from(c) / n as f64;
            -p * p.ln()
        })
        .sum();
    set!("rps_doc_unigram_entropy", entropy);
    set!("rps_doc_frac_all_caps_words", ratio(caps, raw_words));
    set!("rps_doc_frac_no_alph_words", ratio(no_alpha, n));
    set!(
        "rps_doc_frac_lines_end_with_ellipsis",
        ratio(counted.ellipsis_lines, counted.lines)
    );
    set!(
        "rps_doc_symbol_to_word_ratio",
        ratio(counted.hashes + counted.ellipses, raw_words)
    );
    // The normalised text: its words, one space between them.
    set!(
        "rps_doc_lorem_ipsum",
        ratio(lorem, (total + n).saturating_sub(1))
    );
    let braces = memchr::memchr2_iter(b'{', b'}', text.as_bytes()).count();
    set!("rps_doc_curly_bracket", ratio(braces, chars(text)));
    // `\b[^.!?]+[.!?]*`: runs of text between sentence marks.
    let sentences = text
        .split(['.', '!', '?'])
        .filter(|s| s.chars().any(|c| c.is_alphanumeric() || c == '_'))
        .count();
    set!("rps_doc_num_sentences", sentences as f64);
}

/// One of a filter's checks: a signal against a threshold, and the reason datatrove gives
/// when a document fails it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// The signal ([`SIGNALS`]).
    pub signal: &'static str,
    /// How the document fails.
    pub fails: Fails,
    /// The threshold.
    pub threshold: f64,
    /// datatrove's reason (`gopher_short_doc`, `dup_line_frac`, `too_few_sentences`, …).
    pub reason: &'static str,
}

/// How a document fails a [`Rule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fails {
    /// The signal is below the threshold.
    Below,
    /// The signal is above the threshold.
    Above,
}

impl Rule {
    const fn new(signal: &'static str, fails: Fails, threshold: f64, reason: &'static str) -> Rule {
        let _ = at(signal);
        Rule {
            signal,
            fails,
            threshold,
            reason,
        }
    }

    /// Whether a document with this value of the signal fails.
    pub fn fails(&self, value: f64) -> bool {
        match self.fails {
            Fails::Below => value < self.threshold,
            Fails::Above => value > self.threshold,
        }
    }
}

use Fails::{Above, Below};

/// datatrove's `GopherQualityFilter` with its defaults, in its order.
pub const GOPHER_QUALITY: &[Rule] = &[
    Rule::new("gopher_non_symbol_words", Below, 50.0, "gopher_short_doc"),
    Rule::new(
        "gopher_non_symbol_words",
        Above,
        100_000.0,
        "gopher_long_doc",
    ),
    Rule::new(
        "gopher_mean_word_length",
        Below,
        3.0,
        "gopher_below_avg_threshold",
    ),
    Rule::new(
        "gopher_mean_word_length",
        Above,
        10.0,
        "gopher_above_avg_threshold",
    ),
    Rule::new("gopher_hash_ratio", Above, 0.1, "gopher_too_many_hashes"),
    Rule::new(
        "gopher_ellipsis_ratio",
        Above,
        0.1,
        "gopher_too_many_ellipsis",
    ),
    Rule::new(
        "gopher_bullet_lines_ratio",
        Above,
        0.9,
        "gopher_too_many_bullets",
    ),
    Rule::new(
        "gopher_ellipsis_lines_ratio",
        Above,
        0.3,
        "gopher_too_many_end_ellipsis",
    ),
    Rule::new(
        "gopher_alpha_words_ratio",
        Below,
        0.8,
        "gopher_below_alpha_threshold",
    ),
    Rule::new("gopher_stop_words", Below, 2.0, "gopher_enough_stop_words"),
];

/// datatrove's `GopherRepetitionFilter` with its defaults (Gopher's table A1), in its order.
pub const GOPHER_REPETITION: &[Rule] = &[
    Rule::new("gopher_words", Below, 0.5, "empty"),
    Rule::new("gopher_dup_para_frac", Above, 0.3, "dup_para_frac"),
    Rule::new(
        "gopher_dup_para_char_frac",
        Above,
        0.2,
        "dup_para_char_frac",
    ),
    Rule::new("gopher_dup_line_frac", Above, 0.3, "dup_line_frac"),
    Rule::new(
        "gopher_dup_line_char_frac",
        Above,
        0.2,
        "dup_line_char_frac",
    ),
    Rule::new("gopher_top_2gram_char_frac", Above, 0.2, "top_2_gram"),
    Rule::new("gopher_top_3gram_char_frac", Above, 0.18, "top_3_gram"),
    Rule::new("gopher_top_4gram_char_frac", Above, 0.16, "top_4_gram"),
    Rule::new(
        "gopher_dup_5gram_char_frac",
        Above,
        0.15,
        "duplicated_5_n_grams",
    ),
    Rule::new(
        "gopher_dup_6gram_char_frac",
        Above,
        0.14,
        "duplicated_6_n_grams",
    ),
    Rule::new(
        "gopher_dup_7gram_char_frac",
        Above,
        0.13,
        "duplicated_7_n_grams",
    ),
    Rule::new(
        "gopher_dup_8gram_char_frac",
        Above,
        0.12,
        "duplicated_8_n_grams",
    ),
    Rule::new(
        "gopher_dup_9gram_char_frac",
        Above,
        0.11,
        "duplicated_9_n_grams",
    ),
    Rule::new(
        "gopher_dup_10gram_char_frac",
        Above,
        0.10,
        "duplicated_10_n_grams",
    ),
];

/// datatrove's `C4QualityFilter` with its defaults.
pub const C4: &[Rule] = &[
    Rule::new("c4_lorem_ipsum", Above, 0.5, "lorem_ipsum"),
    Rule::new("c4_curly_bracket", Above, 0.5, "curly_bracket"),
    Rule::new("c4_sentences", Below, 5.0, "too_few_sentences"),
];

/// `C4QualityFilter(filter_no_terminal_punct=False)`, as FineWeb's pipeline runs it.
pub const C4_ANY_END: &[Rule] = &[
    Rule::new("c4_lorem_ipsum_any_end", Above, 0.5, "lorem_ipsum"),
    Rule::new("c4_curly_bracket_any_end", Above, 0.5, "curly_bracket"),
    Rule::new("c4_sentences_any_end", Below, 5.0, "too_few_sentences"),
];

/// datatrove's `FineWebQualityFilter` with its defaults, in its order.
pub const FINEWEB: &[Rule] = &[
    Rule::new("fineweb_lines", Below, 0.5, "empty"),
    Rule::new("fineweb_line_punct_ratio", Below, 0.12, "line_punct_ratio"),
    Rule::new("fineweb_short_line_ratio", Above, 0.67, "short_line_ratio"),
    Rule::new("fineweb_char_dup_ratio", Above, 0.01, "char_dup_ratio"),
    Rule::new("fineweb_newline_ratio", Above, 0.3, "list_ratio"),
];

/// A filter pipeline: filters applied in order, the first that fails a document names why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// FineWeb's: Gopher repetition, Gopher quality, C4 without its terminal-punctuation rule,
    /// FineWeb quality.
    Fineweb,
    /// Gopher repetition, then Gopher quality.
    Gopher,
    /// C4's quality rules.
    C4,
}

crate::choice::choice!(Preset, "preset", [
    Preset::Fineweb, "fineweb", "Gopher repetition and quality, C4 without its punctuation rule, FineWeb";
    Preset::Gopher, "gopher", "Gopher repetition, then Gopher quality";
    Preset::C4, "c4", "C4's quality rules";
]);

impl Preset {
    /// Its filters, in order: `(filter name, rules)`.
    pub fn filters(self) -> &'static [(&'static str, &'static [Rule])] {
        match self {
            Preset::Fineweb => &[
                ("gopher_repetition", GOPHER_REPETITION),
                ("gopher_quality", GOPHER_QUALITY),
                ("c4", C4_ANY_END),
                ("fineweb", FINEWEB),
            ],
            Preset::Gopher => &[
                ("gopher_repetition", GOPHER_REPETITION),
                ("gopher_quality", GOPHER_QUALITY),
            ],
            Preset::C4 => &[("c4", C4)],
        }
    }

    /// Why a document with these signals is dropped (`filter/reason`, such as
    /// `gopher_quality/gopher_short_doc`), `None` when it is kept. `get` gives a signal's value
    /// (a missing one fails no rule).
    pub fn reason(self, get: impl Fn(&str) -> Option<f64>) -> Option<String> {
        for (filter, rules) in self.filters() {
            for r in *rules {
                if get(r.signal).is_some_and(|v| r.fails(v)) {
                    return Some(format!("{filter}/{}", r.reason));
                }
            }
        }
        None
    }
}

/// A condition a document must meet, such as `gopher_words>=50`: a signal, a comparison
/// (`<`, `<=`, `>`, `>=`, `==`, `!=`) and a number.
#[derive(Debug, Clone, PartialEq)]
pub struct Requirement {
    /// The signal ([`SIGNALS`]).
    pub signal: &'static str,
    /// The comparison.
    pub op: &'static str,
    /// The number.
    pub value: f64,
}

impl Requirement {
    /// Parse `NAME OP NUMBER` (spaces allowed around the parts).
    pub fn parse(text: &str) -> Result<Requirement, String> {
        const OPS: [&str; 6] = ["<=", ">=", "==", "!=", "<", ">"];
        let (at, op) = OPS
            .iter()
            .filter_map(|op| text.find(op).map(|i| (i, *op)))
            .min_by_key(|&(i, op)| (i, std::cmp::Reverse(op.len())))
            .ok_or_else(|| {
                format!("{text:?}: expected SIGNAL OP NUMBER with OP one of < <= > >= == !=")
            })?;
        let name = text[..at].trim();
        let signal = SIGNALS.iter().find(|&&n| n == name).ok_or_else(|| {
            format!("{text:?}: no signal {name:?} (the signals: docs/formats.md#quality-signals)")
        })?;
        let number = text[at + op.len()..].trim();
        let value = number
            .parse::<f64>()
            .map_err(|_| format!("{text:?}: {number:?} is not a number"))?;
        Ok(Requirement { signal, op, value })
    }

    /// Whether a value of the signal meets it.
    pub fn holds(&self, v: f64) -> bool {
        match self.op {
            "<" => v < self.value,
            "<=" => v <= self.value,
            ">" => v > self.value,
            ">=" => v >= self.value,
            "==" => v == self.value,
            _ => v != self.value,
        }
    }
}

impl std::fmt::Display for Requirement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}{}", self.signal, self.op, self.value)
    }
}

/// What decides, from its signals, whether a document stays: a preset's filters, then
/// requirements of one's own.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judge {
    /// The preset's filters, applied first.
    pub preset: Option<Preset>,
    /// Every one must hold.
    pub require: Vec<Requirement>,
}

impl Judge {
    /// Why a document with these signals goes (`filter/reason` of the preset, or
    /// `require/CONDITION`), `None` when it stays.
    pub fn reason(&self, get: impl Fn(&str) -> Option<f64>) -> Option<String> {
        if let Some(r) = self.preset.and_then(|p| p.reason(&get)) {
            return Some(r);
        }
        self.require
            .iter()
            .find(|r| !get(r.signal).is_some_and(|v| r.holds(v)))
            .map(|r| format!("require/{r}"))
    }

    /// Whether it judges anything.
    pub fn is_active(&self) -> bool {
        self.preset.is_some() || !self.require.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signals(text: &str) -> Signals {
        compute(text, std::iter::empty()).0
    }

    #[test]
    fn gopher_figures_of_a_small_text() {
        let s = signals("The cat sat on the mat.\nThe cat sat on the mat.\n- a list item ...");
        assert_eq!(s.get("gopher_words"), Some(19.0));
        // "." twice and "-" and "..." are symbols.
        assert_eq!(s.get("gopher_non_symbol_words"), Some(15.0));
        assert_eq!(s.get("gopher_stop_words"), Some(1.0));
        assert_eq!(s.get("gopher_dup_line_frac"), Some(1.0 / 3.0));
        assert!((s.get("gopher_bullet_lines_ratio").unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert!((s.get("gopher_ellipsis_lines_ratio").unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.get("c4_lines"), Some(3.0));
        // FineWeb reads the lines C4 keeps without its terminal-punctuation rule: all three
        // (≥ 3 words), each ending in `.`; the repeated line is 23 of the 63 characters.
        assert_eq!(s.get("fineweb_lines"), Some(3.0));
        assert_eq!(s.get("fineweb_line_punct_ratio"), Some(1.0));
        assert_eq!(s.get("fineweb_char_dup_ratio"), Some(23.0 / 63.0));
        assert_eq!(s.get("fineweb_newline_ratio"), Some(2.0 / 19.0));
        // The strict C4 drops the last line (it ends in `...`): 2 sentences kept.
        assert_eq!(s.get("c4_sentences"), Some(2.0));
        assert_eq!(s.get("c4_sentences_any_end"), Some(3.0));
    }

    #[test]
    fn c4_rules_in_order() {
        assert_eq!(c4_line("Too short.", false), C4Line::TooFewWords);
        assert_eq!(
            c4_line("no end here at all", false),
            C4Line::NoTerminalPunct
        );
        assert_eq!(
            c4_line("it ends... like this...", false),
            C4Line::NoTerminalPunct
        );
        assert_eq!(
            c4_line("Enable JavaScript to see it.", false),
            C4Line::Javascript
        );
        assert_eq!(c4_line("See {this} one here.", false), C4Line::CurlyBracket);
        assert_eq!(
            c4_line("We use cookies on this site.", false),
            C4Line::Policy
        );
        assert_eq!(
            c4_line("One two three. Four five six!", false),
            C4Line::Kept(2)
        );
        assert_eq!(c4_line("One two three four [1]", true), C4Line::Kept(1));
        assert_eq!(remove_citations("a[1] b[edit] c[x]"), "a b c[x]");
    }

    #[test]
    fn repetition_counts_ngrams_as_datatrove_does() {
        // "a b" is the top 2-gram: 3 times, 3 characters each.
        let ids = [0, 1, 0, 1, 0, 1];
        let lens = [1; 6];
        let (top, dup) = ngram_chars(&ids, &lens, &[false; 6]);
        assert_eq!(top[0], 9);
        assert_eq!(dup, [0; 6]);
        // Words that occur once: every 2-gram once, the first counts.
        let (top, _) = ngram_chars(&[0, 1, 2], &[3, 1, 1], &[true; 3]);
        assert_eq!(top[0], 5);
        let ids: Vec<u32> = (0..5).chain(0..5).collect();
        let (_, dup) = ngram_chars(&ids, &[2; 10], &[false; 10]);
        assert_eq!(dup[0], 10);
        // A repeat found, the next n words are skipped: "a b c d e a b c d e a" has one.
        let ids: Vec<u32> = (0..5).chain(0..5).chain(0..1).collect();
        let (_, dup) = ngram_chars(&ids, &[1; 11], &[false; 11]);
        assert_eq!(dup[0], 5);
    }

    /// datatrove's `find_top_duplicate` and `find_all_duplicate`, word for word: every n-gram
    /// counted, compared as word sequences.
    fn ngram_chars_by_the_book(ids: &[u32], lens: &[usize]) -> ([usize; 3], [usize; 6]) {
        let (mut top, mut dup) = ([0; 3], [0; 6]);
        for n in 2..=10 {
            if ids.len() < n {
                break;
            }
            let grams: Vec<&[u32]> = ids.windows(n).collect();
            if n <= 4 {
                let mut counts: Vec<(&[u32], usize, usize)> = Vec::new();
                for (i, g) in grams.iter().enumerate() {
                    match counts.iter_mut().find(|(h, _, _)| h == g) {
                        Some(e) => e.1 += 1,
                        None => counts.push((g, 1, i)),
                    }
                }
                // The most frequent, the first seen among equals.
                let best = counts
                    .iter()
                    .fold(counts[0], |b, &e| if e.1 > b.1 { e } else { b });
                let chars: usize = lens[best.2..best.2 + n].iter().sum::<usize>() + n - 1;
                top[n - 2] = chars * best.1;
            } else {
                let mut seen: Vec<&[u32]> = Vec::new();
                let mut i = 0;
                while i < grams.len() {
                    if seen.contains(&grams[i]) {
                        dup[n - 5] += lens[i..i + n].iter().sum::<usize>();
                        i += n;
                    } else {
                        seen.push(grams[i]);
                        i += 1;
                    }
                }
            }
        }
        (top, dup)
    }

    /// The n-grams that cannot repeat are left out without changing a figure: on texts of a
    /// few words, much repeated, the figures are those of counting every n-gram.
    #[test]
    fn leaving_out_ngrams_that_cannot_repeat_changes_nothing() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        for case in 0..300 {
            let vocab = 2 + next(10);
            let n = 1 + next(60) as usize;
            // Some texts repeat a passage whole, as pages repeat a paragraph.
            let mut ids: Vec<u32> = (0..n).map(|_| next(vocab) as u32).collect();
            if case % 3 == 0 {
                let copy = ids[..n / 2].to_vec();
                ids.extend(copy);
            }
            let lens: Vec<usize> = (0..vocab).map(|_| 1 + next(9) as usize).collect();
            let lens: Vec<usize> = ids.iter().map(|&id| lens[id as usize]).collect();
            let once: Vec<bool> = ids
                .iter()
                .map(|id| ids.iter().filter(|&j| j == id).count() == 1)
                .collect();
            assert_eq!(
                ngram_chars(&ids, &lens, &once),
                ngram_chars_by_the_book(&ids, &lens),
                "{ids:?}"
            );
        }
    }

    #[test]
    fn presets_name_the_first_failing_rule() {
        // Repetition comes first: the one 2-gram "Hello world" is 11 of 12 characters.
        let s = signals("Hello world.");
        let reason = Preset::Gopher.reason(|n| s.get(n));
        assert_eq!(reason.as_deref(), Some("gopher_repetition/top_2_gram"));
        let words: Vec<String> = (0..45).map(|i| format!("word{i}")).collect();
        let s = signals(&words.join(" "));
        let reason = Preset::Gopher.reason(|n| s.get(n));
        assert_eq!(reason.as_deref(), Some("gopher_quality/gopher_short_doc"));
        let reason = Preset::C4.reason(|n| s.get(n));
        assert_eq!(reason.as_deref(), Some("c4/too_few_sentences"));
        assert_eq!("fineweb".parse::<Preset>().unwrap(), Preset::Fineweb);
        assert!(Preset::Fineweb.reason(|_| None).is_none());
    }

    #[test]
    fn requirements_parse_and_judge() {
        let r = Requirement::parse("gopher_words >= 50").unwrap();
        assert_eq!((r.signal, r.op, r.value), ("gopher_words", ">=", 50.0));
        assert!(r.holds(50.0) && !r.holds(49.0));
        assert_eq!(Requirement::parse("c4_lines<3").unwrap().op, "<");
        assert!(
            Requirement::parse("nope>1")
                .unwrap_err()
                .contains("no signal")
        );
        assert!(
            Requirement::parse("c4_lines>x")
                .unwrap_err()
                .contains("not a number")
        );
        assert!(Requirement::parse("c4_lines").is_err());
        let judge = Judge {
            preset: None,
            require: vec![r],
        };
        assert_eq!(
            judge.reason(|_| Some(10.0)).as_deref(),
            Some("require/gopher_words>=50")
        );
        assert_eq!(judge.reason(|_| Some(60.0)), None);
    }

    #[test]
    fn splitlines_is_pythons() {
        assert_eq!(splitlines("a\r\nb\rc\n\nd\n"), ["a", "b", "c", "", "d"]);
        assert_eq!(split_newline_runs("a\n\n\nb\nc", 2), ["a", "b\nc"]);
        assert_eq!(split_newline_runs("a\nb\n", 1), ["a", "b", ""]);
    }
}

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
    /// Characters of the text.
    chars: usize,
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
pub(crate) fn splitlines(text: &str) -> Vec<&str> {
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
    let items = items.into_iter();
    let mut seen =
        rustc_hash::FxHashSet::with_capacity_and_hasher(items.size_hint().0, Default::default());
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
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .build(["lorem ipsum", "javascript"].iter().chain(&POLICY))
        .expect("C4's phrases")
});

/// What C4's rules need of a line's whitespace-separated words ([`tokens::chunks`]).
#[derive(Clone, Copy, Default)]
struct Chunks {
    /// How many.
    n: usize,
    /// One is longer than 1,000 characters.
    too_long: bool,
}

/// Parts of C4's phrases in lower case, one in each phrase.
const PHRASE_PARTS: [&str; 5] = [
    "lorem ipsum",
    "javascript",
    "terms of use",
    "privacy policy",
    "cookie",
];

/// Which of `lines` (of `text`) may hold one of C4's phrases: those where one of
/// [`PHRASE_PARTS`] is, searched in the whole text in lower case (no phrase spans lines).
fn phrase_lines(text: &str, lines: &[&str]) -> Vec<bool> {
    static FINDERS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::LazyLock::new(|| {
            PHRASE_PARTS
                .iter()
                .map(memchr::memmem::Finder::new)
                .collect()
        });
    let mut out = vec![false; lines.len()];
    let lower = text.as_bytes().to_ascii_lowercase();
    let base = text.as_ptr() as usize;
    let starts: Vec<usize> = lines.iter().map(|l| l.as_ptr() as usize - base).collect();
    for finder in FINDERS.iter() {
        for at in finder.find_iter(&lower) {
            // The last line starting at or before the part.
            out[starts.partition_point(|&s| s <= at) - 1] = true;
        }
    }
    out
}

/// C4's rules on one line ([`C4Line`]), with and without the terminal-punctuation rule
/// (`(strict, any_end)`); `chunks`: the line's words' figures, `phrases`: whether the line
/// may hold one of C4's phrases ([`phrase_lines`]); `sentences` counts the sentences of the
/// line as it is after citations are removed, when it is kept.
fn c4_rules(
    line: &str,
    chunks: Chunks,
    phrases: bool,
    sentences: impl FnOnce(&str) -> usize,
) -> (C4Line, C4Line) {
    if chunks.too_long {
        return (C4Line::TooLongWord, C4Line::TooLongWord);
    }
    let line = remove_citations(line.trim());
    let ends = line.ends_with(['.', '?', '!', '"', '\'']) && !line.ends_with("...");
    let any_end = if chunks.n < 3 {
        C4Line::TooFewWords
    } else {
        // Which of C4's phrases the line holds: bit 0 `lorem ipsum`, 1 `javascript`, 2 a
        // policy. Removing citations may join one.
        let mut found = 0u8;
        if phrases || matches!(line, Cow::Owned(_)) {
            for m in PHRASES.find_overlapping_iter(line.as_bytes()) {
                found |= 1 << m.pattern().as_usize().min(2);
            }
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
    let mut chunks = Chunks::default();
    for chunk in tokens::chunks(line) {
        chunks.n += 1;
        chunks.too_long |= chars(chunk) > 1000;
    }
    let (strict, any) = c4_rules(line, chunks, true, |l| tokens::sentences(&tokens::words(l)));
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
    // The hash of an n-gram: its (n − 1)-gram's, then its last word.
    let step = |h: u64, id: u32| {
        h.wrapping_mul(GRAM_MUL)
            .rotate_left(29)
            .wrapping_add(u64::from(id) + 1)
    };
    // hashes[i]: the hash of the (n − 1)-gram at i, where it may repeat.
    let mut hashes: Vec<u64> = ids.iter().map(|&id| step(0, id)).collect();
    // repeated[i]: the (n − 1)-gram at i occurs more than once (n = 2: the word), and a last
    // `false`; `rep`: those i in order. The loops below keep them without branching on them.
    let mut repeated: Vec<bool> = once.iter().map(|&o| !o).chain([false]).collect();
    let mut rep: Vec<u32> = (0..ids.len() as u32)
        .filter(|&i| repeated[i as usize])
        .collect();
    let mut at: Vec<u32> = Vec::with_capacity(ids.len());
    // The candidates: (position, slot); a slot: (count, first position) of one n-gram.
    let mut candidates: Vec<(u32, u32)> = Vec::with_capacity(ids.len());
    let mut slots: Vec<(u32, u32)> = Vec::with_capacity(ids.len());
    let mut slot_of: FxHashMap<u64, u32> =
        FxHashMap::with_capacity_and_hasher(ids.len(), Default::default());
    let mut seen: Vec<bool> = Vec::with_capacity(ids.len());
    for n in 2..=10usize {
        if ids.len() < n {
            break;
        }
        let grams = ids.len() + 1 - n;
        candidates.clear();
        slots.clear();
        slot_of.clear();
        // count, first; an n-gram that occurs once: the first n-gram.
        let mut best: (u32, u32) = (1, 0);
        // An n-gram whose (n − 1)-grams both repeat: its (n − 1)-gram was a candidate, so
        // `hashes[i]` holds that one's hash.
        at.resize(rep.len(), 0);
        let mut k = 0;
        for &i in &rep {
            at[k] = i;
            k += usize::from(((i as usize) < grams) & repeated[i as usize + 1]);
        }
        at.truncate(k);
        for &i in &at {
            let i = i as usize;
            let h = step(hashes[i], ids[i + n - 1]);
            hashes[i] = h;
            let slot = *slot_of.entry(h).or_insert_with(|| {
                slots.push((0, i as u32));
                slots.len() as u32 - 1
            });
            candidates.push((i as u32, slot));
            let e = &mut slots[slot as usize];
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
            seen.resize(slots.len(), false);
            let mut next = 0;
            for &(i, slot) in &candidates {
                let i = i as usize;
                if i < next || slots[slot as usize].0 < 2 {
                    continue;
                }
                if !seen[slot as usize] {
                    seen[slot as usize] = true;
                    continue;
                }
                dup[n - 5] += lens[i..i + n].iter().sum::<usize>();
                next = i + n;
            }
        }
        // The n-grams that occur more than once, for n + 1.
        for &i in &rep {
            repeated[i as usize] = false;
        }
        rep.resize(candidates.len(), 0);
        let mut k = 0;
        for &(i, slot) in &candidates {
            let r = slots[slot as usize].0 > 1;
            repeated[i as usize] = r;
            rep[k] = i;
            k += usize::from(r);
        }
        rep.truncate(k);
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
    // One pass over each line's whitespace-separated chunks: spaCy's words of each line (no
    // token spans lines), `line_words[l]..line_words[l + 1]`, and Gopher's figures of them;
    // C4's figures of each line's chunks; RedPajama-V2's words. The chunks of the text are
    // those of its lines unless a line break that is not whitespace (`\x1c`–`\x1e`) joins
    // two.
    let mut words: Vec<&str> = Vec::with_capacity(text.len() / 5);
    let mut line_words = Vec::with_capacity(lines.len() + 1);
    let mut line_chunks: Vec<Chunks> = Vec::with_capacity(lines.len());
    let mut vocab = Vocab::new(text.len());
    let mut gw = GopherWords::default();
    let mut rp = Rpv2::new();
    let joined = memchr::memchr3(0x1c, 0x1d, 0x1e, text.as_bytes()).is_some();
    for l in &lines {
        line_words.push(words.len());
        let mut c = Chunks::default();
        for chunk in tokens::chunks(l) {
            c.n += 1;
            c.too_long |= chunk.len() > 1000 && chars(chunk) > 1000;
            let classes = byte_classes(chunk);
            let normalised = if joined {
                None
            } else {
                rp.word(chunk, classes, &mut vocab)
            };
            // A word that is the chunk's normalised form has its slot.
            let slot = |w: &str, vocab: &mut Vocab| match normalised {
                Some((form, slot)) if form == w.as_bytes() => slot,
                _ => vocab.slot(w.as_bytes()),
            };
            let first = words.len();
            // A chunk is not empty: it has a class.
            let letters = classes & !(UPPER | LOWER) == 0;
            tokens::push_chunk_words_known(chunk, classes == DIGIT, letters, &mut words);
            if words.len() == first + 1 && (classes == LOWER || classes == DIGIT) {
                // The chunk is one word.
                let slot = slot(chunk, &mut vocab);
                gw.add_plain(chunk, classes == LOWER, slot, &mut vocab);
            } else {
                for w in &words[first..] {
                    let slot = slot(w, &mut vocab);
                    gw.add(w, slot, &mut vocab);
                }
            }
        }
        line_chunks.push(c);
    }
    if joined {
        for chunk in tokens::chunks(text) {
            rp.word(chunk, byte_classes(chunk), &mut vocab);
        }
    }
    line_words.push(words.len());
    let n_words = words.len();
    let GopherWords {
        ids,
        lens,
        non_symbol,
        non_symbol_chars,
        alpha,
        stop,
    } = gw;

    // Gopher quality.
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
    let once: Vec<bool> = ids
        .iter()
        .map(|&id| vocab.words[id as usize] == 1)
        .collect();
    let (top, dup) = ngram_chars(&ids, &lens, &once);
    for (k, t) in top.into_iter().enumerate() {
        v[const { at("gopher_top_2gram_char_frac") } + k] = ratio(t, text_chars);
    }
    for (k, d) in dup.into_iter().enumerate() {
        v[const { at("gopher_dup_5gram_char_frac") } + k] = ratio(d, text_chars);
    }

    // C4, strict and without the terminal-punctuation rule.
    let phrases = phrase_lines(text, &lines);
    let (strict, any_end): (Vec<C4Line>, Vec<C4Line>) = lines
        .iter()
        .enumerate()
        .map(|(l, line)| {
            c4_rules(line, line_chunks[l], phrases[l], |cleaned| {
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
        chars: text_chars,
        lines: lines.len(),
        ellipsis_lines,
        hashes,
        ellipses,
    };
    rp.finish(&vocab, text, counted, &mut v);
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

/// Byte classes ([`byte_classes`]): an ASCII upper-case letter, a lower-case one, a digit,
/// ASCII punctuation, a byte of a non-ASCII character, another (controls, whitespace).
const UPPER: u8 = 1;
const LOWER: u8 = 2;
const DIGIT: u8 = 4;
const PUNCT: u8 = 8;
const NON_ASCII: u8 = 16;
const OTHER: u8 = 32;

/// The class of each byte.
static BYTE_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b.is_ascii_uppercase() {
            UPPER
        } else if b.is_ascii_lowercase() {
            LOWER
        } else if b.is_ascii_digit() {
            DIGIT
        } else if b.is_ascii_punctuation() {
            PUNCT
        } else if b >= 0x80 {
            NON_ASCII
        } else {
            OTHER
        };
        i += 1;
    }
    t
};

/// The classes of the bytes of `s`, or-ed.
fn byte_classes(s: &str) -> u8 {
    s.bytes().fold(0, |c, b| c | BYTE_CLASS[usize::from(b)])
}

/// The distinct words of a text: spaCy's (Gopher's) and RedPajama-V2's normalised words in one
/// table, by a 64-bit hash of their bytes, so a word that is both is looked up once.
struct Vocab {
    slot_of: FxHashMap<u64, u32>,
    /// Occurrences of each as one of spaCy's words.
    words: Vec<u32>,
    /// Occurrences of each as a normalised word.
    normalised: Vec<u32>,
    /// Distinct normalised words.
    distinct_normalised: usize,
}

impl Vocab {
    fn new(text_len: usize) -> Vocab {
        Vocab {
            slot_of: FxHashMap::with_capacity_and_hasher(text_len / 8, Default::default()),
            words: Vec::with_capacity(text_len / 8),
            normalised: Vec::with_capacity(text_len / 8),
            distinct_normalised: 0,
        }
    }

    /// The slot of a word.
    fn slot(&mut self, bytes: &[u8]) -> u32 {
        let mut h = rustc_hash::FxHasher::default();
        std::hash::Hasher::write(&mut h, bytes);
        let next = self.words.len() as u32;
        let slot = *self
            .slot_of
            .entry(std::hash::Hasher::finish(&h))
            .or_insert(next);
        if slot == next {
            self.words.push(0);
            self.normalised.push(0);
        }
        slot
    }

    /// Count a normalised word.
    fn add_normalised(&mut self, slot: u32) {
        let n = &mut self.normalised[slot as usize];
        self.distinct_normalised += usize::from(*n == 0);
        *n += 1;
    }
}

/// Gopher's figures of spaCy's words, counted one word at a time.
#[derive(Default)]
struct GopherWords {
    /// The words' slots ([`Vocab`]) and characters.
    ids: Vec<u32>,
    lens: Vec<usize>,
    /// Words with a character that is not a symbol, their characters.
    non_symbol: usize,
    non_symbol_chars: usize,
    /// Words with a letter.
    alpha: usize,
    /// The stop words met ([`stop_word_bit`]).
    stop: u8,
}

impl GopherWords {
    /// Count a word of ASCII letters (`alpha`) or digits.
    fn add_plain(&mut self, w: &str, alpha: bool, slot: u32, vocab: &mut Vocab) {
        self.non_symbol += 1;
        self.non_symbol_chars += w.len();
        self.alpha += usize::from(alpha);
        self.stop |= stop_word_bit(w);
        self.push(w.len(), slot, vocab);
    }

    /// Count any word.
    fn add(&mut self, w: &str, slot: u32, vocab: &mut Vocab) {
        let len = chars(w);
        if w.chars().any(|c| !is_symbol_char(c)) {
            self.non_symbol += 1;
            self.non_symbol_chars += len;
        }
        self.alpha += usize::from(w.chars().any(tokens::is_alpha));
        self.stop |= stop_word_bit(w);
        self.push(len, slot, vocab);
    }

    fn push(&mut self, len: usize, slot: u32, vocab: &mut Vocab) {
        self.lens.push(len);
        self.ids.push(slot);
        vocab.words[slot as usize] += 1;
    }
}

/// RedPajama-V2's counting signals (`rps_doc_*`), counted one whitespace-separated word
/// ([`tokens::chunks`]) at a time ([`Rpv2::word`]). Normalised words: the words lower-cased,
/// without ASCII punctuation, those left empty left out.
struct Rpv2 {
    /// Normalised words, their characters, those without a letter, `lorem ipsum`s.
    n: usize,
    total: usize,
    no_alpha: usize,
    lorem: usize,
    /// Words before normalising, and those of only upper-case letters.
    raw_words: usize,
    caps: usize,
    /// The normalised word before ends with `lorem`.
    prev_lorem: bool,
    /// The normalised word, when it differs from the word.
    buf: Vec<u8>,
}

impl Rpv2 {
    fn new() -> Rpv2 {
        Rpv2 {
            n: 0,
            total: 0,
            no_alpha: 0,
            lorem: 0,
            raw_words: 0,
            caps: 0,
            prev_lorem: false,
            buf: Vec::with_capacity(64),
        }
    }

    /// Count one whitespace-separated word, its bytes' [`byte_classes`] `classes`, its
    /// normalised form in `vocab`: that form and its slot, `None` for an empty one.
    fn word<'w>(
        &'w mut self,
        raw: &'w str,
        classes: u8,
        vocab: &mut Vocab,
    ) -> Option<(&'w [u8], u32)> {
        self.raw_words += 1;
        let bytes = raw.as_bytes();
        let (word, len, alpha): (&[u8], usize, bool) = if classes & NON_ASCII == 0 {
            self.caps += usize::from(classes & (UPPER | LOWER) == UPPER);
            let alpha = classes & (UPPER | LOWER) != 0;
            if classes & (UPPER | PUNCT) == 0 {
                (bytes, bytes.len(), alpha)
            } else {
                self.buf.clear();
                self.buf.extend(
                    bytes
                        .iter()
                        .filter(|b| !b.is_ascii_punctuation())
                        .map(u8::to_ascii_lowercase),
                );
                (&self.buf, self.buf.len(), alpha)
            }
        } else {
            if raw.chars().any(char::is_uppercase) && !raw.chars().any(char::is_lowercase) {
                self.caps += 1;
            }
            self.buf.clear();
            let mut buf = [0u8; 4];
            let (mut n_chars, mut alpha) = (0, false);
            for c in raw.chars().filter(|c| !c.is_ascii_punctuation()) {
                for l in c.to_lowercase() {
                    self.buf
                        .extend_from_slice(l.encode_utf8(&mut buf).as_bytes());
                    n_chars += 1;
                }
                alpha |= tokens::is_alpha(c);
            }
            (&self.buf, n_chars, alpha)
        };
        if word.is_empty() {
            return None;
        }
        self.n += 1;
        self.total += len;
        self.no_alpha += usize::from(!alpha);
        if self.prev_lorem && word.starts_with(b"ipsum") {
            self.lorem += 1;
        }
        self.prev_lorem = word.ends_with(b"lorem");
        let slot = vocab.slot(word);
        vocab.add_normalised(slot);
        Some((word, slot))
    }

    /// Set the signals of the words counted and of `text`, the text they are the words of.
    /// `counted`: what Gopher's figures counted already.
    fn finish(self, vocab: &Vocab, text: &str, counted: Counted, v: &mut [f64; N_SIGNALS]) {
        macro_rules! set {
            ($name:literal, $x:expr) => {
                set_signal!(v, $name, $x)
            };
        }
        let n = self.n;
        set!("rps_doc_word_count", n as f64);
        set!("rps_doc_mean_word_length", ratio(self.total, n));
        set!(
            "rps_doc_frac_unique_words",
            ratio(vocab.distinct_normalised, n)
        );
        // Summed in the order of the counts, the same whatever the table's.
        let mut freqs: Vec<u32> = vocab
            .normalised
            .iter()
            .copied()
            .filter(|&c| c > 0)
            .collect();
        freqs.sort_unstable();
        let entropy = freqs
            .iter()
            .map(|&c| {
                let p = f64::from(c) / n as f64;
                -p * p.ln()
            })
            .sum();
        set!("rps_doc_unigram_entropy", entropy);
        set!(
            "rps_doc_frac_all_caps_words",
            ratio(self.caps, self.raw_words)
        );
        set!("rps_doc_frac_no_alph_words", ratio(self.no_alpha, n));
        set!(
            "rps_doc_frac_lines_end_with_ellipsis",
            ratio(counted.ellipsis_lines, counted.lines)
        );
        set!(
            "rps_doc_symbol_to_word_ratio",
            ratio(counted.hashes + counted.ellipses, self.raw_words)
        );
        // The normalised text: its words, one space between them.
        set!(
            "rps_doc_lorem_ipsum",
            ratio(self.lorem, (self.total + n).saturating_sub(1))
        );
        let braces = memchr::memchr2_iter(b'{', b'}', text.as_bytes()).count();
        set!("rps_doc_curly_bracket", ratio(braces, counted.chars));
        set!("rps_doc_num_sentences", rpv2_sentences(text) as f64);
    }
}

/// RedPajama-V2's sentences, `\b[^.!?]+[.!?]*`: the runs of text between sentence marks that
/// hold a word character (a letter, a digit or `_`).
fn rpv2_sentences(text: &str) -> usize {
    let b = text.as_bytes();
    let word_char = |s: &str| {
        for (i, &x) in s.as_bytes().iter().enumerate() {
            if x.is_ascii_alphanumeric() || x == b'_' {
                return true;
            }
            if x >= 0x80 {
                return s[i..].chars().any(|c| c.is_alphanumeric() || c == '_');
            }
        }
        false
    };
    let (mut n, mut start) = (0, 0);
    for end in memchr::memchr3_iter(b'.', b'!', b'?', b).chain([b.len()]) {
        n += usize::from(word_char(&text[start..end]));
        start = end + 1;
    }
    n
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
pub(crate) const GOPHER_QUALITY: &[Rule] = &[
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
pub(crate) const GOPHER_REPETITION: &[Rule] = &[
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
pub(crate) const C4_ANY_END: &[Rule] = &[
    Rule::new("c4_lorem_ipsum_any_end", Above, 0.5, "lorem_ipsum"),
    Rule::new("c4_curly_bracket_any_end", Above, 0.5, "curly_bracket"),
    Rule::new("c4_sentences_any_end", Below, 5.0, "too_few_sentences"),
];

/// datatrove's `FineWebQualityFilter` with its defaults, in its order.
pub(crate) const FINEWEB: &[Rule] = &[
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
    pub(crate) op: &'static str,
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

    /// Texts that the one pass over the chunks ([`compute`]) may get wrong: capitals, digits,
    /// punctuation, contractions, controls, Unicode's whitespace and line breaks, a line break
    /// that is not whitespace (`\x1c`), C4's phrases in any case or joined by a citation.
    const TRICKY: &[&str] = &[
        "The cat's hat. THE END!\nDon't stop, 2024 items (ok) — naïve Ünïcode ÉCOLE.",
        "Lorem ipsum dolor sit amet.\nEnable JavaScript in this browser.\nWe USE COOKIES here.",
        "It says lorem[1] ipsum there now.\nSee our terms[2] of use and more text.",
        "tab\tsep\u{a0}nbsp\u{2028}ls\u{85}nel a\x1cb c\x1dd one two three.\r\nx",
        "ctrl\x01word and\x7f del; cannot gonna dont im 5km $10 e.g. U.S. well-known.",
        "",
        "   \n\n  ",
    ];

    #[test]
    fn one_pass_counts_as_separate_passes() {
        for &text in TRICKY {
            let s = signals(text);
            let get = |name| s.get(name).unwrap();
            // RedPajama-V2: the text's whitespace-separated words, normalised.
            let raw: Vec<&str> = text.split_whitespace().collect();
            let norm: Vec<String> = raw
                .iter()
                .map(|w| {
                    w.chars()
                        .filter(|c| !c.is_ascii_punctuation())
                        .flat_map(char::to_lowercase)
                        .collect::<String>()
                })
                .filter(|w| !w.is_empty())
                .collect();
            let distinct: std::collections::HashSet<&String> = norm.iter().collect();
            assert_eq!(get("rps_doc_word_count"), norm.len() as f64, "{text:?}");
            let unique = ratio(distinct.len(), norm.len());
            assert_eq!(get("rps_doc_frac_unique_words"), unique, "{text:?}");
            let caps = raw
                .iter()
                .filter(|w| w.chars().any(char::is_uppercase) && !w.chars().any(char::is_lowercase))
                .count();
            let caps = ratio(caps, raw.len());
            assert_eq!(get("rps_doc_frac_all_caps_words"), caps, "{text:?}");
            // Gopher: spaCy's words of each line.
            let words: Vec<&str> = splitlines(text)
                .into_iter()
                .flat_map(tokens::words)
                .collect();
            assert_eq!(get("gopher_words"), words.len() as f64, "{text:?}");
            let alpha = words
                .iter()
                .filter(|w| w.chars().any(tokens::is_alpha))
                .count();
            assert_eq!(get("gopher_alpha_words_ratio"), ratio(alpha, words.len()));
            let non_symbol = words
                .iter()
                .filter(|w| w.chars().any(|c| !is_symbol_char(c)));
            assert_eq!(get("gopher_non_symbol_words"), non_symbol.count() as f64);
            // C4: each line on its own.
            let fates: Vec<C4Line> = splitlines(text).iter().map(|l| c4_line(l, false)).collect();
            let count = |f: C4Line| fates.iter().filter(|&&x| x == f).count() as f64;
            assert_eq!(
                get("c4_javascript_lines"),
                count(C4Line::Javascript),
                "{text:?}"
            );
            assert_eq!(get("c4_policy_lines"), count(C4Line::Policy), "{text:?}");
            let lorem = fates.contains(&C4Line::LoremIpsum);
            assert_eq!(get("c4_lorem_ipsum"), f64::from(lorem), "{text:?}");
        }
        // The phrases were found where they are, in any case and across a citation.
        let s = signals(TRICKY[1]);
        assert_eq!(s.get("c4_javascript_lines"), Some(1.0));
        assert_eq!(s.get("c4_policy_lines"), Some(1.0));
        assert_eq!(s.get("c4_lorem_ipsum"), Some(1.0));
        let s = signals(TRICKY[2]);
        assert_eq!(s.get("c4_lorem_ipsum"), Some(1.0));
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

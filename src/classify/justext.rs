//! jusText's block classification (Pomikálek; seed 001): context-free classes from length,
//! link density and stop-word density, context-sensitive reclassification of the SHORT and
//! NEAR_GOOD blocks between reliable ones (document edges count as BAD), and the heading pre-
//! and post-processing.
//!
//! The input is a page's paragraphs in document order ([`Paragraph`]); the segmentation into
//! them is the caller's. Stop words come from the `stop-words` crate (Stopwords ISO lists),
//! chosen by the document's language ([`stop_words()`]).
//!
//! Words are [`crate::words`]: in Chinese and Japanese each ideograph and kana is a word, so
//! the stop-word density is the share of characters that are one-character stop words
//! (的, 了, 是; の, は, を), and only those entries of a list that are one word count. In
//! Thai, Lao, Khmer and Myanmar, where every letter counts as a word, no entry does, so
//! Thai pages are classified as for a language without a list.

use std::borrow::Cow;

use crate::document::{self, Language};
use super::Block;
use super::detector::{self, Column, Cut, Decision, Shown};
use crate::html::cue;
use crate::words::{self, Unit};

use rustc_hash::FxHashSet;

/// A block class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Boilerplate.
    Bad,
    /// Content.
    Good,
    /// Too short to judge alone (context-free only).
    Short,
    /// Perhaps content (context-free only).
    NearGood,
}

impl Class {
    /// jusText's name of the class.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Bad => "bad",
            Class::Good => "good",
            Class::Short => "short",
            Class::NearGood => "neargood",
        }
    }
}

/// jusText's parameters, with its defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Characters below which a block is SHORT (or BAD with a link).
    pub(crate) length_low: usize,
    /// Characters above which a block of stop-word density at least `stopwords_high` is GOOD
    /// rather than NEAR_GOOD.
    pub(crate) length_high: usize,
    /// Stop-word density from which a block is at least NEAR_GOOD.
    pub(crate) stopwords_low: f64,
    /// Stop-word density from which a long block is GOOD.
    pub(crate) stopwords_high: f64,
    /// Link density above which a block is BAD.
    pub(crate) max_link_density: f64,
    /// Characters at most between a heading and the GOOD block after it for the heading
    /// processing.
    pub(crate) max_heading_distance: usize,
    /// Skip the heading pre- and post-processing.
    pub(crate) no_headings: bool,
    /// Do not classify `h1` blocks as GOOD outright.
    pub(crate) no_headlines: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            length_low: 70,
            length_high: 200,
            stopwords_low: 0.30,
            stopwords_high: 0.32,
            max_link_density: 0.2,
            max_heading_distance: 200,
            no_headings: false,
            no_headlines: false,
        }
    }
}

/// One block of a page as jusText sees it.
#[derive(Debug, Clone, Default)]
pub struct Paragraph<'a> {
    /// The text, whitespace collapsed (borrowed from a block when only one of its blocks has
    /// text).
    pub text: Cow<'a, str>,
    /// Characters of the text inside `<a>` elements.
    pub(crate) link_chars: usize,
    /// Inside `h1`…`h6`.
    pub heading: bool,
    /// Inside `h1` (jusText's headline).
    pub headline: bool,
    /// Inside `<select>`.
    pub select: bool,
    /// An image block.
    pub image: bool,
}

impl Paragraph<'_> {
    /// Length in characters.
    pub fn length(&self) -> usize {
        self.text.chars().count()
    }

    /// Share of the characters inside links.
    pub fn link_density(&self) -> f64 {
        match self.length() {
            0 => 0.0,
            n => self.link_chars as f64 / n as f64,
        }
    }

    /// Share of the words ([`crate::words`]) that are stop words (compared in lower case).
    pub(crate) fn stopword_density(&self, stop: &FxHashSet<&str>) -> f64 {
        let (words, hits) = if self.text.is_ascii() {
            ascii_stop_words(self.text.as_bytes(), stop)
        } else {
            stop_words_in(&self.text, stop)
        };
        if words == 0 {
            0.0
        } else {
            hits as f64 / words as f64
        }
    }
}

/// The words ([`crate::words`]) of `text` and how many of them are in `stop` (compared in
/// lower case).
fn stop_words_in(text: &str, stop: &FxHashSet<&str>) -> (usize, usize) {
    let mut words = 0usize;
    let mut hits = 0usize;
    let mut lower = String::new();
    for w in words::words(text) {
        words += 1;
        lower.clear();
        if w.is_ascii() {
            lower.push_str(w);
            lower.make_ascii_lowercase();
        } else {
            lower.extend(w.chars().flat_map(char::to_lowercase));
        }
        hits += stop.contains(lower.as_str()) as usize;
    }
    (words, hits)
}

/// [`stop_words_in`] of an ASCII text, without decoding it ([`words::ascii_words`]).
fn ascii_stop_words(text: &[u8], stop: &FxHashSet<&str>) -> (usize, usize) {
    let mut words = 0usize;
    let mut hits = 0usize;
    let mut buf = [0u8; 64];
    for w in words::ascii_words(text) {
        words += 1;
        if w.len() > buf.len() {
            continue; // longer than any stop word (a test checks the lists)
        }
        let lower = &mut buf[..w.len()];
        lower.copy_from_slice(w);
        lower.make_ascii_lowercase();
        hits += stop.contains(std::str::from_utf8(lower).expect("ASCII")) as usize;
    }
    (words, hits)
}

/// The result for one paragraph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judgement {
    /// The context-free class (after the heading pre-processing).
    pub(crate) context_free: Class,
    /// The final class: GOOD or BAD.
    pub class: Class,
    /// Share of its words that are stop words.
    pub(crate) stopword_density: f64,
}

impl Default for Judgement {
    fn default() -> Self {
        Judgement {
            context_free: Class::Bad,
            class: Class::Bad,
            stopword_density: 0.0,
        }
    }
}

/// The stop words of a language (ISO 639-1 code) that can match a word: of the crate's list
/// for it, the entries that are one word ([`crate::words`]; 我们 is two words, 我 and 们,
/// and never matches). A Thai, Lao, Khmer or Myanmar letter is a word only for want of a
/// dictionary, so no entry in those scripts is kept. None when the crate has no list for the
/// language or none of its entries is kept (Thai's).
pub fn stop_words(iso639_1: &str) -> Option<FxHashSet<&'static str>> {
    let one_word = |w: &&str| {
        !words::has_units(w)
            || words::words(w).eq([*w]) && w.chars().all(|c| words::unit(c) != Unit::Letter)
    };
    let list: FxHashSet<&str> = stop_words::lookup(iso639_1)?
        .iter()
        .copied()
        .filter(one_word)
        .collect();
    (!list.is_empty()).then_some(list)
}

/// The stop list jusText uses for a document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StopList {
    words: &'static FxHashSet<&'static str>,
}

impl StopList {
    /// The stop words (empty for a language the crate has no list for).
    pub fn words(&self) -> &'static FxHashSet<&'static str> {
        self.words
    }

    /// The parameters for this list: without stop words (a language the crate has no list
    /// for), both stop-word thresholds are 0, jusText's language-independent mode.
    pub fn params(&self, p: Params) -> Params {
        if self.words.is_empty() {
            Params {
                stopwords_low: 0.0,
                stopwords_high: 0.0,
                ..p
            }
        } else {
            p
        }
    }
}

/// The stop list for a document in `lang`: its language's list (by its ISO 639-1 code);
/// English when the language is not identified (as for the MLP); empty when the crate has no
/// list for the language.
pub(crate) fn stop_words_for(lang: Option<&Language>) -> StopList {
    use crate::lid::labels::ISO639_1_TO_3;
    use std::sync::{LazyLock, OnceLock};
    // Each language's list is made when a document first asks for it: making all of them
    // took a millisecond of a one-page run's start.
    type List = Option<FxHashSet<&'static str>>;
    static LISTS: [OnceLock<List>; ISO639_1_TO_3.len()] =
        [const { OnceLock::new() }; ISO639_1_TO_3.len()];
    static EMPTY: LazyLock<FxHashSet<&'static str>> = LazyLock::new(FxHashSet::default);
    let code = match lang {
        None => Some("en"),
        Some(l) => l.iso639_1,
    };
    let list = code
        .and_then(|c| ISO639_1_TO_3.iter().position(|&(l1, _)| l1 == c))
        .and_then(|i| LISTS[i].get_or_init(|| stop_words(ISO639_1_TO_3[i].0)).as_ref());
    StopList {
        words: list.unwrap_or(&EMPTY),
    }
}

/// The context-free class of a paragraph with stop-word density `density`.
pub(crate) fn classify_context_free(p: &Paragraph<'_>, density: f64, params: &Params) -> Class {
    if p.image || p.link_density() > params.max_link_density {
        return Class::Bad;
    }
    if p.text.contains('©') || p.text.contains("&copy;") {
        return Class::Bad;
    }
    if !params.no_headlines && p.headline {
        return Class::Good;
    }
    if p.select {
        return Class::Bad;
    }
    let length = p.length();
    if length < params.length_low {
        return if p.link_chars > 0 {
            Class::Bad
        } else {
            Class::Short
        };
    }
    if density >= params.stopwords_high {
        return if length > params.length_high {
            Class::Good
        } else {
            Class::NearGood
        };
    }
    if density >= params.stopwords_low {
        return Class::NearGood;
    }
    Class::Bad
}

/// Classify a page's paragraphs.
pub fn classify(
    paragraphs: &[Paragraph<'_>],
    stop: &FxHashSet<&str>,
    params: &Params,
) -> Vec<Judgement> {
    let densities: Vec<f64> = paragraphs
        .iter()
        .map(|p| p.stopword_density(stop))
        .collect();
    let mut cf: Vec<Class> = paragraphs
        .iter()
        .zip(&densities)
        .map(|(p, &d)| classify_context_free(p, d, params))
        .collect();
    // Heading pre-processing: a SHORT heading followed by a GOOD block within
    // `max_heading_distance` characters becomes NEAR_GOOD.
    if !params.no_headings {
        for i in 0..paragraphs.len() {
            if paragraphs[i].heading
                && cf[i] == Class::Short
                && good_follows(paragraphs, &cf, i, params.max_heading_distance)
            {
                cf[i] = Class::NearGood;
            }
        }
    }
    let mut class = context_sensitive(&cf);
    // Heading post-processing: a heading that is not context-free BAD, followed by a GOOD block
    // within the distance, is GOOD (once, in document order: not iterated).
    if !params.no_headings {
        let before = class.clone();
        for i in 0..paragraphs.len() {
            if paragraphs[i].heading
                && before[i] == Class::Bad
                && cf[i] != Class::Bad
                && good_follows(paragraphs, &before, i, params.max_heading_distance)
            {
                class[i] = Class::Good;
            }
        }
    }
    (0..paragraphs.len())
        .map(|i| Judgement {
            context_free: cf[i],
            class: class[i],
            stopword_density: densities[i],
        })
        .collect()
}

/// Whether a GOOD block follows paragraph `i` with at most `max` characters between them.
fn good_follows(paragraphs: &[Paragraph<'_>], class: &[Class], i: usize, max: usize) -> bool {
    let mut distance = 0;
    for (p, &c) in paragraphs.iter().zip(class).skip(i + 1) {
        if distance > max {
            return false;
        }
        if c == Class::Good {
            return true;
        }
        distance += p.length();
    }
    false
}

/// Reclassify each run of SHORT and NEAR_GOOD blocks by the GOOD or BAD blocks around it
/// (document edges count as BAD): between two GOOD blocks all are GOOD, between two BAD
/// blocks all are BAD; between a GOOD and a BAD block, the blocks from the BAD one up to the
/// NEAR_GOOD block closest to it are BAD and the rest GOOD, or all BAD without a NEAR_GOOD.
pub(crate) fn context_sensitive(cf: &[Class]) -> Vec<Class> {
    let mut out = cf.to_vec();
    let reliable = |c: Class| matches!(c, Class::Good | Class::Bad);
    let mut i = 0;
    while i < cf.len() {
        if reliable(cf[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < cf.len() && !reliable(cf[i]) {
            i += 1;
        }
        let run = start..i;
        let left = if start == 0 {
            Class::Bad
        } else {
            cf[start - 1]
        };
        let right = if i == cf.len() { Class::Bad } else { cf[i] };
        match (left, right) {
            (Class::Good, Class::Good) => out[run].fill(Class::Good),
            (Class::Bad, Class::Bad) => out[run].fill(Class::Bad),
            _ => {
                let first_near = run.clone().find(|&k| cf[k] == Class::NearGood);
                let last_near = run.clone().rev().find(|&k| cf[k] == Class::NearGood);
                match (first_near, last_near) {
                    (Some(first), _) if left == Class::Bad => {
                        // BAD on the left: up to the first NEAR_GOOD (exclusive) is BAD.
                        out[start..first].fill(Class::Bad);
                        out[first..i].fill(Class::Good);
                    }
                    (_, Some(last)) => {
                        // BAD on the right: after the last NEAR_GOOD is BAD.
                        out[start..=last].fill(Class::Good);
                        out[last + 1..i].fill(Class::Bad);
                    }
                    _ => out[run].fill(Class::Bad),
                }
            }
        }
    }
    out
}

/// jusText as a detector ([`crate::classify::detector`]) over the paragraphs the blocks make
/// up (a block that does not start a paragraph joins the one before), with the stop words of
/// the page's language; every block gets its paragraph's judgement in three columns: `justext`
/// (the final class), `justextcf` (the context-free class) and `stopwords` (the stop-word
/// density).
pub struct Detector;

/// Its name in the registry.
pub const NAME: &str = "justext";

/// Its columns.
pub const COLUMNS: &[Column] = &[
    Column {
        name: "justext",
        shown: Shown::Class(CLASS_NAMES),
    },
    Column {
        name: "justextcf",
        shown: Shown::Class(CLASS_NAMES),
    },
    Column {
        name: "stopwords",
        shown: Shown::Rounded,
    },
];

/// The classes by their index in the table, and their names.
const CLASSES: [Class; 4] = [Class::Bad, Class::Good, Class::Short, Class::NearGood];
const CLASS_NAMES: &[&str] = &["bad", "good", "short", "neargood"];

/// Its columns in the table.
const AT: document::Cols = super::registry::cols(NAME);

/// A block's judgement: its paragraph's.
pub fn of(b: &Block) -> Judgement {
    let class = |k| CLASSES[b.scores.get(AT, k) as usize];
    Judgement {
        class: class(0),
        context_free: class(1),
        stopword_density: b.scores.get(AT, 2),
    }
}

/// Whether jusText judges a block GOOD.
pub(crate) fn is_good(b: &Block) -> bool {
    of(b).class == Class::Good
}

impl detector::Detector for Detector {
    fn score(&self, blocks: &mut [Block], page: &detector::Scoring<'_>) {
        let stop = stop_words_for(page.language);
        let mut paragraphs: Vec<Paragraph> = Vec::new();
        let mut owner = Vec::with_capacity(blocks.len());
        for b in blocks.iter() {
            if b.paragraph_start || paragraphs.is_empty() {
                paragraphs.push(Paragraph::default());
            }
            let p = paragraphs.last_mut().expect("pushed");
            if p.text.is_empty() {
                p.text = Cow::Borrowed(&b.cleansed);
            } else {
                let text = p.text.to_mut();
                text.push(' ');
                text.push_str(&b.cleansed);
            }
            // Link bytes are counted in the segmenter's text; scale them to characters.
            let share = if b.raw_bytes > 0 {
                (b.link_bytes as f64 / b.raw_bytes as f64).min(1.0)
            } else {
                0.0
            };
            p.link_chars += (share * b.chars as f64).round() as usize;
            p.heading |= b.cues & cue::HEADING != 0;
            p.headline |= b.cues & cue::H1 != 0;
            owner.push(paragraphs.len() - 1);
        }
        let params = stop.params(Params::default());
        let judged = classify(&paragraphs, stop.words(), &params);
        let index = |c: Class| CLASSES.iter().position(|&x| x == c).expect("every class") as f64;
        for (b, p) in blocks.iter_mut().zip(owner) {
            let j = judged[p];
            b.scores.set(AT, 0, index(j.class));
            b.scores.set(AT, 1, index(j.context_free));
            b.scores.set(AT, 2, j.stopword_density);
        }
    }

    fn decisions(&self) -> &'static [Decision] {
        &[Decision {
            name: "justext",
            about: "jusText: GOOD paragraphs (bpv 0), the others 1",
            bpv: |b| detector::verdict(is_good(b)),
            cut: Cut::Half,
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lid::labels::ISO639_1_TO_3;

    /// A language identified with certainty, by its ISO 639-1 code.
    fn language(iso639_1: &str) -> Language {
        let l1 = ISO639_1_TO_3.iter().find(|(l1, _)| *l1 == iso639_1).unwrap();
        Language {
            code: l1.1,
            iso639_1: Some(l1.0),
            script: None,
            score: 1.0,
        }
    }

    #[test]
    fn the_table_names_each_class_as_justext_does() {
        let names: Vec<&str> = CLASSES.iter().map(|c| c.as_str()).collect();
        assert_eq!(names, CLASS_NAMES);
    }
    use Class::*;

    fn para(text: &str) -> Paragraph<'static> {
        Paragraph {
            text: text.to_string().into(),
            ..Paragraph::default()
        }
    }

    fn english() -> FxHashSet<&'static str> {
        stop_words("en").expect("English stop words")
    }

    #[test]
    fn context_free_rules_and_their_order() {
        let p = Params::default();
        let stop = english();
        let cf = |para: &Paragraph| classify_context_free(para, para.stopword_density(&stop), &p);
        // Long, many stop words: GOOD; the same text up to 200 characters: NEAR_GOOD.
        let prose = "The council said that it would open the library in the evening and that the \
                     staff would be there for all of the people who want to read in the town. \
                     It is one of the things that they have been asked for by many of them.";
        assert!(prose.chars().count() > 200);
        assert_eq!(cf(&para(prose)), Good);
        assert_eq!(cf(&para(&prose[..150])), NearGood);
        // Few stop words: BAD, at any length.
        let list = "Home News Sport Weather Business Technology Science Health Education \
                    Entertainment Arts Travel Culture Future Music Football Cricket Tennis Golf";
        assert!(list.chars().count() >= 70);
        assert_eq!(cf(&para(list)), Bad);
        // Short: SHORT, or BAD with any link text.
        assert_eq!(cf(&para("Read more")), Short);
        let linked = Paragraph {
            link_chars: 4,
            ..para("Read more about it")
        };
        assert_eq!(cf(&linked), Bad);
        // Link density above 0.2, ©, images and select are BAD before anything else.
        let dense = Paragraph {
            link_chars: prose.chars().count() / 4,
            ..para(prose)
        };
        assert_eq!(cf(&dense), Bad);
        assert_eq!(cf(&para(&format!("{prose} © 2024"))), Bad);
        assert_eq!(cf(&para(&format!("{prose} &copy; 2024"))), Bad);
        let select = Paragraph {
            select: true,
            ..para(prose)
        };
        assert_eq!(cf(&select), Bad);
        // An h1 is GOOD unless it is BAD by links, © or image, or headlines are off.
        let headline = Paragraph {
            headline: true,
            heading: true,
            ..para("Breaking")
        };
        assert_eq!(cf(&headline), Good);
        let off = Params {
            no_headlines: true,
            ..p
        };
        assert_eq!(
            classify_context_free(&headline, 0.0, &off),
            Short,
            "without headlines an h1 is an ordinary short block"
        );
    }

    #[test]
    fn stop_word_density_splits_at_whitespace_in_lower_case() {
        let stop = english();
        let d = para("The cat AND the dog").stopword_density(&stop);
        assert!((d - 3.0 / 5.0).abs() < 1e-9, "{d}");
        assert_eq!(para("").stopword_density(&stop), 0.0);
        // Lower case beyond ASCII too.
        let de = stop_words("de").unwrap();
        let d = para("ÜBER Über über Xylophon").stopword_density(&de);
        assert!((d - 3.0 / 4.0).abs() < 1e-9, "{d}");
        // At least 20 languages have lists.
        let langs = [
            "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "pl", "cs", "sk",
            "hu", "ro", "ru", "uk", "bg", "el", "tr", "ar", "he", "ja", "zh", "ko", "hi", "id",
        ];
        assert!(
            langs
                .iter()
                .all(|l| stop_words(l).is_some_and(|s| s.len() > 20))
        );
    }

    #[test]
    fn chinese_and_japanese_stop_words_are_characters() {
        // Only the one-word entries are kept: 我 and 们 are, 我们 (two words) is not.
        let zh = stop_words("zh").unwrap();
        assert!(zh.contains("的") && zh.contains("我") && !zh.contains("我们"));
        // 这 是 我 们 的 of 这是我们的新图书馆 (9 words) are stop words; the period is no word.
        let d = para("这是我们的新图书馆。").stopword_density(&zh);
        assert!((d - 5.0 / 9.0).abs() < 1e-9, "{d}");
        // れ は し い で of これは新しい図書館です (11 words).
        let ja = stop_words("ja").unwrap();
        let d = para("これは新しい図書館です").stopword_density(&ja);
        assert!((d - 5.0 / 11.0).abs() < 1e-9, "{d}");
        // No Thai entry is one word: Thai is classified as a language without a list.
        assert!(stop_words_lookup_has("th") && stop_words("th").is_none());
        let th = stop_words_for(Some(&language("th")));
        assert!(th.words().is_empty());
        // Lists without such characters are the crate's.
        for l in ["en", "de", "ko"] {
            let list: FxHashSet<&str> = stop_words::lookup(l).unwrap().iter().copied().collect();
            assert_eq!(stop_words(l).unwrap(), list, "{l}");
        }
    }

    fn stop_words_lookup_has(l: &str) -> bool {
        stop_words::lookup(l).is_some_and(|w| !w.is_empty())
    }

    #[test]
    fn ascii_texts_split_and_match_as_unicode_ones_do() {
        let stop = english();
        let long = format!("the {} THE", "x".repeat(100));
        for text in [
            "",
            " \t ",
            "The cat AND the dog",
            "the\x0bcat\x0cand\rthe\ndog\t",
            "  Of  of OF oF  ",
            long.as_str(),
        ] {
            assert_eq!(
                ascii_stop_words(text.as_bytes(), &stop),
                stop_words_in(text, &stop),
                "{text:?}"
            );
        }
        assert_eq!(ascii_stop_words(long.as_bytes(), &stop), (3, 2));
        // Words longer than the ASCII path's buffer are never stop words.
        let lists: Vec<_> = ISO639_1_TO_3
            .iter()
            .filter_map(|(l1, _)| stop_words(l1))
            .collect();
        assert!(lists.len() > 20);
        assert!(lists.iter().flatten().all(|w| w.len() <= 64));
    }

    #[test]
    fn stop_list_by_identified_language() {
        let de = stop_words_for(Some(&language("de")));
        assert!(de.words().contains("und") && !de.words().contains("the"));
        // Unidentified: English, as for the MLP.
        assert!(stop_words_for(None).words().contains("the"));
        let with_lists = ISO639_1_TO_3
            .iter()
            .filter(|(l1, _)| !stop_words_for(Some(&language(l1))).words().is_empty())
            .count();
        assert!(with_lists >= 50, "{with_lists} languages with stop words");
        // A language without an ISO 639-1 code, or without a list: length and links alone
        // (both thresholds 0).
        let no_code = Language {
            iso639_1: None,
            ..language("de")
        };
        assert!(stop_words_for(Some(&no_code)).words().is_empty());
        let none = ISO639_1_TO_3
            .iter()
            .map(|(l1, _)| language(l1))
            .find(|l| stop_words_for(Some(l)).words().is_empty())
            .expect("some language has no list");
        let p = stop_words_for(Some(&none)).params(Params::default());
        assert_eq!((p.stopwords_low, p.stopwords_high), (0.0, 0.0));
        assert_eq!(de.params(Params::default()), Params::default());
    }

    #[test]
    fn context_sensitive_runs() {
        // Between GOOD blocks: GOOD; between BAD ones (or edges): BAD.
        assert_eq!(
            context_sensitive(&[Good, Short, NearGood, Good]),
            [Good, Good, Good, Good]
        );
        assert_eq!(
            context_sensitive(&[Bad, NearGood, Short, Bad]),
            [Bad, Bad, Bad, Bad]
        );
        // Edges are BAD.
        assert_eq!(context_sensitive(&[NearGood, Good]), [Good, Good]);
        assert_eq!(context_sensitive(&[Short, Good, Short]), [Bad, Good, Bad]);
        // GOOD … BAD: the NEAR_GOOD closest to the BAD block delimits the areas.
        assert_eq!(
            context_sensitive(&[Good, Short, NearGood, Short, NearGood, Short, Short, Bad]),
            [Good, Good, Good, Good, Good, Bad, Bad, Bad]
        );
        assert_eq!(
            context_sensitive(&[Bad, Short, NearGood, Short, NearGood, Short, Good]),
            [Bad, Bad, Good, Good, Good, Good, Good]
        );
        // Only SHORT blocks between GOOD and BAD: BAD.
        assert_eq!(
            context_sensitive(&[Good, Short, Short, Bad]),
            [Good, Bad, Bad, Bad]
        );
        assert_eq!(context_sensitive(&[]), Vec::<Class>::new());
    }

    #[test]
    fn headings_are_kept_before_good_text() {
        let p = Params {
            no_headlines: true,
            ..Params::default()
        };
        let stop = english();
        let prose = "The council said that it would open the library in the evening and that the \
                     staff would be there for all of the people who want to read in the town. \
                     It is one of the things that they have been asked for by many of them.";
        let heading = |t: &str| Paragraph {
            heading: true,
            ..para(t)
        };
        let list = "Home News Sport Weather Business Technology Science Health Education \
                    Entertainment Arts Travel Culture Future Music Football Cricket Tennis Golf";
        // BAD, heading, GOOD: pre-processing makes the SHORT heading NEAR_GOOD, which the
        // context-sensitive stage turns GOOD (it is next to the GOOD block).
        let page = [para(list), heading("Library hours"), para(prose)];
        let j = classify(&page, &stop, &p);
        assert_eq!(j[1].context_free, NearGood);
        assert_eq!(
            j.iter().map(|j| j.class).collect::<Vec<_>>(),
            [Bad, Good, Good]
        );
        // Without the heading processing the SHORT heading between BAD and GOOD is BAD.
        let off = Params {
            no_headings: true,
            ..p
        };
        let j = classify(&page, &stop, &off);
        assert_eq!(j[1].class, Bad);
        // The pre-processing's purpose (seed): a SHORT block between the heading and the GOOD
        // text is kept with them. (Python's justext 3.0.2 copies the context-free classes in
        // the same loop that looks ahead for GOOD blocks, so its pre-processing never fires
        // and it drops such a block.)
        let dateline = [
            para(list),
            heading("Library hours"),
            para("Updated in May."),
            para(prose),
        ];
        let j = classify(&dateline, &stop, &p);
        assert_eq!(j[2].context_free, Short);
        assert_eq!(
            j.iter().map(|j| j.class).collect::<Vec<_>>(),
            [Bad, Good, Good, Good]
        );
        let j = classify(&dateline, &stop, &off);
        assert_eq!(
            j[2].class, Bad,
            "without the pre-processing the run has no NEAR_GOOD"
        );
        // Too far: more than 200 characters of other blocks before the GOOD one.
        let far = [
            para(list),
            heading("Library hours"),
            para(list),
            para(list),
            para(list),
            para(prose),
        ];
        let j = classify(&far, &stop, &p);
        assert_eq!(j[1].context_free, Short);
        assert_eq!(j[1].class, Bad);
        // Post-processing: a heading BAD by context but not context-free BAD, with GOOD text
        // close after it (a short block in between), becomes GOOD.
        let post = [
            para(list),
            heading("Library hours"),
            para("Updated today"),
            para(list),
            para(prose),
        ];
        let j = classify(
            &post,
            &stop,
            &Params {
                max_heading_distance: 300,
                ..p
            },
        );
        assert_eq!(j[1].context_free, NearGood);
        assert_eq!(j[1].class, Good);
        assert_eq!(j[2].class, Bad);
    }
}

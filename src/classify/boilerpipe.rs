//! boilerpipe's shallow-text classifiers (Kohlschütter, Fankhauser and Nejdl 2010; seed 002):
//! per block the number of words, link density (words inside `<a>` / words) and text density
//! (words per line after wrapping at 80 columns, the last line left out unless it is the only
//! one); the two simplified C4.8 decision trees over the previous, current and next block
//! (Algorithm 1, densitometric; Algorithm 2, number of words), the rule trained on CleanEval
//! (text density ≥ 7 and link density ≤ 0.35), and the largest-content filter.
//!
//! The blocks are the caller's; cowrex's segmenter ends a block at every block element but not
//! at `<a>`, as boilerpipe's atomic text blocks do. Words are [`crate::words`]: white-space
//! separated tokens, and in scripts written without spaces each ideograph, kana or letter
//! (a run of Katakana), so a Chinese or Japanese paragraph has as many words as characters.

use crate::document;
use crate::document::{Block, WordStats};
use super::detector::{self, Column, Cut, Decision, Shown};
use crate::words;

/// The column width text is wrapped at for text density.
pub(crate) const WRAP: usize = 80;

/// boilerpipe's features of a block's text, `link_words` of whose words are inside links.
pub fn stats(text: &str, link_words: u32) -> WordStats {
        // Word lengths in characters; an ASCII text's without decoding it.
        if text.is_ascii() {
            let lengths = words::ascii_words(text.as_bytes()).map(<[u8]>::len);
            stats_of_words(lengths, link_words)
        } else {
            let lengths = words::words(text).map(|w| w.chars().count());
            stats_of_words(lengths, link_words)
        }
    }

/// [`stats`] of a text whose words have these `lengths` in characters. Text density lays
/// them out as if one space separated each from the next.
fn stats_of_words(lengths: impl Iterator<Item = usize>, link_words: u32) -> WordStats {
        let (mut words, mut lines, mut line_len, mut line_words) = (0u32, 0u32, 0usize, 0u32);
        for len in lengths {
            words += 1;
            if lines == 0 {
                lines = 1;
                line_len = len;
                line_words = 1;
            } else if line_len + 1 + len > WRAP {
                lines += 1;
                line_len = len;
                line_words = 1;
            } else {
                line_len += 1 + len;
                line_words += 1;
            }
        }
        let text_density = match lines {
            0 => 0.0,
            1 => words as f64,
            n => (words - line_words) as f64 / (n - 1) as f64,
        };
        WordStats {
            words,
            link_words: link_words.min(words),
            text_density,
        }
    }

/// Algorithm 1, the densitometric classifier: true = content.
pub(crate) fn densitometric(prev: &WordStats, cur: &WordStats, next: &WordStats) -> bool {
    if cur.link_density() > 0.333333 {
        return false;
    }
    if prev.link_density() <= 0.555556 {
        if cur.text_density <= 9.0 {
            if next.text_density <= 10.0 {
                prev.text_density > 4.0
            } else {
                true
            }
        } else {
            next.text_density != 0.0
        }
    } else {
        next.text_density > 11.0
    }
}

/// Algorithm 2, the classifier based on the number of words: true = content.
pub(crate) fn num_words(prev: &WordStats, cur: &WordStats, next: &WordStats) -> bool {
    if cur.link_density() > 0.333333 {
        return false;
    }
    if prev.link_density() <= 0.555556 {
        if cur.words <= 16 {
            if next.words <= 15 {
                prev.words > 4
            } else {
                true
            }
        } else {
            true
        }
    } else if cur.words <= 40 {
        next.words > 17
    } else {
        true
    }
}

/// The rule trained on CleanEval: text density at least 7 and link density at most 0.35.
pub fn cleaneval(cur: &WordStats) -> bool {
    cur.text_density >= 7.0 && cur.link_density() <= 0.35
}

/// All of boilerpipe's decisions for one block (true = content).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Decisions {
    /// Algorithm 1, the densitometric classifier ([`densitometric`]).
    pub(crate) densitometric: bool,
    /// Algorithm 2, the number-of-words classifier ([`num_words`]).
    pub(crate) num_words: bool,
    /// The rule trained on CleanEval ([`cleaneval`]).
    pub cleaneval: bool,
    /// The block is in the largest run of consecutive content blocks (by [`num_words`]): the
    /// largest-content filter over blocks fused as boilerpipe fuses adjacent ones.
    pub(crate) largest: bool,
}

/// Classify a page's blocks (in document order). The blocks before the first and after the
/// last are empty, as boilerpipe's start and end markers.
pub fn classify(blocks: &[WordStats]) -> Vec<Decisions> {
    let empty = WordStats::default();
    let at = |i: Option<usize>| i.and_then(|i| blocks.get(i)).unwrap_or(&empty);
    let mut out: Vec<Decisions> = (0..blocks.len())
        .map(|i| {
            let (prev, cur, next) = (at(i.checked_sub(1)), &blocks[i], at(Some(i + 1)));
            Decisions {
                densitometric: densitometric(prev, cur, next),
                num_words: num_words(prev, cur, next),
                cleaneval: cleaneval(cur),
                largest: false,
            }
        })
        .collect();
    // Runs of consecutive content blocks; the first of the largest wins a tie.
    let mut best: Option<(u32, std::ops::Range<usize>)> = None;
    let mut i = 0;
    while i < blocks.len() {
        if !out[i].num_words {
            i += 1;
            continue;
        }
        let start = i;
        let mut words = 0;
        while i < blocks.len() && out[i].num_words {
            words += blocks[i].words;
            i += 1;
        }
        if best.as_ref().is_none_or(|(w, _)| words > *w) {
            best = Some((words, start..i));
        }
    }
    if let Some((_, run)) = best {
        for d in &mut out[run] {
            d.largest = true;
        }
    }
    out
}

/// boilerpipe as a detector ([`crate::classify::detector`]): its [`Decisions`] over the
/// blocks' [`WordStats`] ([`Block::stats`]) in four columns, `boilerpipe` (Algorithm 2),
/// `bpdensity` (Algorithm 1), and `bpcleaneval` and `bplargest` (not printed), 0 for content
/// and 1 for boilerplate; and the `linkdensity` and `textdensity` they read.
pub struct Detector;

/// Its name in the registry.
pub const NAME: &str = "boilerpipe";

/// Its columns.
pub const COLUMNS: &[Column] = {
    const fn column(name: &'static str, shown: Shown) -> Column {
        Column { name, shown }
    }
    &[
        column("boilerpipe", Shown::Verdict),
        column("bpdensity", Shown::Verdict),
        column("bpcleaneval", Shown::Hidden),
        column("bplargest", Shown::Hidden),
        column("linkdensity", Shown::Rounded),
        column("textdensity", Shown::Rounded),
    ]
};

/// Its columns in the table.
const AT: document::Cols = super::registry::cols(NAME);

/// A block's decisions.
pub fn of(b: &Block) -> Decisions {
    let content = |k| b.scores.get(AT, k) == 0.0;
    Decisions {
        num_words: content(0),
        densitometric: content(1),
        cleaneval: content(2),
        largest: content(3),
    }
}

impl detector::Detector for Detector {
    fn score(&self, blocks: &mut [Block], _: &detector::Scoring<'_>) {
        let stats: Vec<WordStats> = blocks.iter().map(|b| b.stats).collect();
        for (b, d) in blocks.iter_mut().zip(classify(&stats)) {
            let verdicts = [d.num_words, d.densitometric, d.cleaneval, d.largest];
            for (k, content) in verdicts.into_iter().enumerate() {
                b.scores.set(AT, k, detector::verdict(content).into());
            }
            b.scores.set(AT, 4, b.stats.link_density());
            b.scores.set(AT, 5, b.stats.text_density);
        }
    }

    fn decisions(&self) -> &'static [Decision] {
        &[
            Decision {
                name: "boilerpipe",
                about: "boilerpipe's Algorithm 2 (number of words): content 0, boilerplate 1",
                bpv: |b| detector::verdict(of(b).num_words),
                cut: Cut::Half,
            },
            Decision {
                name: "boilerpipe-density",
                about: "boilerpipe's Algorithm 1 (densitometric)",
                bpv: |b| detector::verdict(of(b).densitometric),
                cut: Cut::Half,
            },
            Decision {
                name: "boilerpipe-cleaneval",
                about: "boilerpipe's CleanEval rule (text density ≥ 7, link density ≤ 0.35)",
                bpv: |b| detector::verdict(of(b).cleaneval),
                cut: Cut::Half,
            },
            Decision {
                name: "boilerpipe-largest",
                about: "boilerpipe's largest run of Algorithm 2's content blocks",
                bpv: |b| detector::verdict(of(b).largest),
                cut: Cut::Half,
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(words: u32, link_words: u32, text_density: f64) -> WordStats {
        WordStats {
            words,
            link_words,
            text_density,
        }
    }

    #[test]
    fn text_density_wraps_at_80_and_drops_the_last_line() {
        // One line: density = words.
        assert_eq!(stats("a few short words", 0).text_density, 4.0);
        assert_eq!(stats("", 0), WordStats::default());
        // 10-character words: 7 fit on a line (7·10 + 6 = 76; one more would be 87).
        let text = vec!["abcdefghij"; 17].join(" ");
        let s = stats(&text, 3);
        // Lines of 7, 7 and 3 words: the last is left out, (7 + 7) / 2.
        assert_eq!((s.words, s.text_density), (17, 7.0));
        assert!((s.link_density() - 3.0 / 17.0).abs() < 1e-12);
        // Exactly 80 columns still fit on one line.
        let full = format!("{} {}", "a".repeat(39), "b".repeat(40));
        assert_eq!(stats(&full, 0).text_density, 2.0);
        let over = format!("{} {}", "a".repeat(40), "b".repeat(40));
        assert_eq!(stats(&over, 0).text_density, 1.0);
        // An ASCII text is measured as its characters are, and a non-ASCII one in characters.
        let spaced = text.replace(' ', "\x0b \t") + &format!("\r\n{over}\x0c{full}");
        let by_chars = stats_of_words(spaced.split_whitespace().map(|w| w.chars().count()), 3);
        assert_eq!(stats(&spaced, 3), by_chars);
        assert_eq!(stats(&text.replace('j', "é"), 3), stats(&text, 3));
    }

    #[test]
    fn chinese_and_japanese_words_are_characters() {
        // 30 ideographs and 3 full-width punctuation marks: 30 words, not one.
        let zh = "今天上午，市政府召开新闻发布会，宣布将在明年春天开放新的城市公园。";
        let s = stats(zh, 0);
        assert_eq!((s.words, s.text_density), (30, 30.0));
        // 47 ideographs and kana: one-character words, 40 to a line of 80 columns; the last
        // line (7) is left out.
        let ja = "東京の新しい図書館が来月開館します。館内には約五十万冊の本があり、子ども向けの読書室も設けられます。";
        let s = stats(ja, 0);
        assert_eq!((s.words, s.text_density), (47, 40.0));
        // A Katakana run is one word: ニュース, 一, 覧.
        assert_eq!(stats("ニュース一覧", 0).words, 3);
        // Link words beyond the words (counted on the raw text) are capped.
        let menu = stats("首页 新闻 体育", 9);
        assert_eq!(
            (menu.words, menu.link_words, menu.link_density()),
            (6, 6, 1.0)
        );
    }

    #[test]
    fn densitometric_tree_every_leaf() {
        let d = densitometric;
        let none = st(0, 0, 0.0);
        // Current link density above 1/3: boilerplate.
        assert!(!d(&none, &st(10, 4, 20.0), &none));
        // prev link density ≤ 0.555556, cur density ≤ 9, next density ≤ 10: prev decides at 4.
        assert!(!d(&st(4, 0, 4.0), &st(5, 0, 5.0), &st(5, 0, 10.0)));
        assert!(d(&st(5, 0, 4.5), &st(5, 0, 5.0), &st(5, 0, 10.0)));
        // … next density > 10: content.
        assert!(d(&none, &st(5, 0, 9.0), &st(20, 0, 10.5)));
        // cur density > 9: content unless the next block is empty.
        assert!(!d(&none, &st(20, 0, 9.5), &none));
        assert!(d(&none, &st(20, 0, 9.5), &st(1, 0, 1.0)));
        // prev link density > 0.555556: next density decides at 11.
        let linked = st(10, 6, 10.0);
        assert!(!d(&linked, &st(50, 0, 30.0), &st(20, 0, 11.0)));
        assert!(d(&linked, &st(50, 0, 30.0), &st(20, 0, 11.5)));
        // The threshold is 0.333333: 10 of 31 linked words pass, 10 of 30 do not.
        assert!(d(&none, &st(31, 10, 12.0), &st(1, 0, 1.0)));
        assert!(!d(&none, &st(30, 10, 12.0), &st(1, 0, 1.0)));
    }

    #[test]
    fn num_words_tree_every_leaf() {
        let n = |p: WordStats, c: WordStats, x: WordStats| num_words(&p, &c, &x);
        let w = |words| st(words, 0, 0.0);
        assert!(!n(w(0), st(30, 11, 0.0), w(0)));
        assert!(!n(w(4), w(16), w(15)));
        assert!(n(w(5), w(16), w(15)));
        assert!(n(w(0), w(16), w(16)));
        assert!(n(w(0), w(17), w(0)));
        let linked = st(9, 6, 0.0);
        assert!(!n(linked, w(40), w(17)));
        assert!(n(linked, w(40), w(18)));
        assert!(n(linked, w(41), w(0)));
    }

    #[test]
    fn cleaneval_rule_and_largest_content() {
        assert!(cleaneval(&st(20, 7, 7.0)));
        assert!(!cleaneval(&st(20, 8, 7.0)));
        assert!(!cleaneval(&st(6, 0, 6.9)));
        let blocks = [
            st(60, 0, 12.0),
            st(3, 3, 3.0),
            st(30, 0, 10.0),
            st(50, 0, 12.0),
            st(3, 3, 3.0),
            st(70, 0, 12.0),
        ];
        let d = classify(&blocks);
        assert_eq!(
            d.iter().map(|d| d.num_words).collect::<Vec<_>>(),
            [true, false, true, true, false, true]
        );
        // The run of 30 + 50 words beats the single blocks of 60 and 70.
        assert_eq!(
            d.iter().map(|d| d.largest).collect::<Vec<_>>(),
            [false, false, true, true, false, false]
        );
        assert!(classify(&[]).is_empty());
    }
}

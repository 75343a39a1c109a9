//! The comment detector: the probability that a block belongs to a page's comment section
//! (readers' comments, their authors' names and dates, "Reply" lines, the section's heading and
//! counts, the comment form), from gradient-boosted trees ([`super::gbt`]) over the markup's
//! cues around the block (`comment`, `reply`, `disqus`, … in ids and classes:
//! [`crate::html::cue::COMMENT`]), where it is on the page and among its regions, and what
//! its text and its neighbours' say ([`TextCues`]: date lines, reply and report links, comment
//! counts, "… says:"). The trees are learnt from the development sets' comment labels
//! ([`crate::eval::page_comment_labels`]: L3S-GN1's user comments, Dragnet's comment sections,
//! WCXB's forum pages as threads that are not comment sections), not from a list of sites.
//!
//! A block whose probability is at least [`THRESHOLD`] is a comment: the writers call its kind
//! `comment`, and [`crate::Comments`] decides whether comments are content.

use std::sync::LazyLock;

use regex::Regex;

use super::detector::{self, Column, ModelFile, Shown};
use super::gbt::Gbt;
use super::combined::{self, SharedRows};
use super::{Block, boilerpipe, justext, markup, registry};
use crate::document;
use crate::html::cue;

/// A block with at least this probability is a comment.
pub const THRESHOLD: f32 = 0.5;

/// [`TextCues::date`]'s pattern.
static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?-u:\b)\d{1,2}:\d{2}(?-u:\b)|(?-u:\b)(\d+|an?|one)\s+(sec|second|min|minute|hour|day|week|month|year)s?\s+ago(?-u:\b)|(?-u:\b)vor\s+\d+\s+(minuten|stunden|tagen|wochen|monaten|jahren)(?-u:\b)|(?-u:\b)il y a\s+\d+\s|(?-u:\b)hace\s+\d+\s|(?-u:\b)(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(st|nd|rd|th)?,?\s+\d{4}(?-u:\b)|(?-u:\b)\d{1,2}(st|nd|rd|th)?\.?\s+(jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[a-zé]*\.?,?\s+\d{4}(?-u:\b)|(?-u:\b)\d{1,2}[./-]\d{1,2}[./-](\d{4}|\d{2})(?-u:\b)|(?-u:\b)\d{4}-\d{2}-\d{2}(?-u:\b)",
    )
    .expect("a valid pattern")
});

/// [`TextCues::reply`]'s pattern.
static REPLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\W*(reply|report|flag|permalink|quote|like|upvote|downvote|antworten|melden|zitieren|répondre|signaler|responder|reportar|odpowiedz|rispondi|reageer)(?-u:\b)",
    )
    .expect("a valid pattern")
});

/// [`TextCues::count`]'s pattern.
static COUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?-u:\b)(comments?|replies|responses|reactions|kommentare?|commentaires?|comentarios?|commenti|komentarz[ey]?|reacties)(?-u:\b)|(?-u:\b)(leave|post|add|write|submit)\s+(a|your)\s+(reply|comment|response)(?-u:\b)|(?-u:\b)join the (discussion|conversation)(?-u:\b)",
    )
    .expect("a valid pattern")
});

/// [`TextCues::says`]'s pattern.
static SAYS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(says|said|wrote|writes|schreibt|schrieb|écrit|dice|dijo)\s*:?\s*$")
        .expect("a valid pattern")
});

/// What a block's text says of comments: each is a yes-or-no cue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextCues {
    /// A date or time line: a time of day (`07:52`), a relative date (`2 days ago`), or a
    /// date with its year (`March 3, 2010`, `3.10.2010`, `2010-03-03`), in a short block.
    pub date: bool,
    /// A short control of a comment: reply, report, flag, permalink, quote, like, in a few
    /// languages.
    pub(crate) reply: bool,
    /// A comment section's heading or count: `10 Comments`, `Leave a reply`, `Post a
    /// comment`, `Kommentare (3)`, ….
    pub count: bool,
    /// A comment's author line: a short block that ends in `says:`, `said:`, `wrote:`, ….
    pub says: bool,
}

impl TextCues {
    /// The cues of a block's shown text with `words` words. Word boundaries are ASCII's
    /// (`(?-u:\b)`), which the regex crate's DFAs match: Unicode's take its slow engines.
    pub fn of(text: &str, words: u32) -> TextCues {
        TextCues {
            date: words <= 16 && datelike(text) && DATE.is_match(text),
            reply: words <= 4 && REPLY.is_match(text),
            count: words <= 8 && countlike(text) && COUNT.is_match(text),
            says: words <= 10 && sayslike(text) && SAYS.is_match(text),
        }
    }

    fn values(self) -> [f32; 4] {
        [self.date, self.reply, self.count, self.says].map(|b| f32::from(u8::from(b)))
    }
}

// Prefilters: whether a text may match a cue's pattern, cheaper than the pattern and never
// `false` where it matches (the outputs are the same with them as without).

/// Every date pattern has a digit or "ago": most short blocks (menus) skip the pattern.
fn datelike(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter().any(u8::is_ascii_digit)
        || b.windows(3).any(|w| w.eq_ignore_ascii_case(b"ago"))
        || (!text.is_ascii() && text.chars().any(char::is_numeric))
}

/// The needles of [`countlike`]: each match of [`COUNT`] holds one. They are matched in ASCII's
/// cases only, so none holds a letter that the pattern's Unicode case folding also matches
/// outside ASCII (as `k` matches the Kelvin sign and `s` the long s; a test checks).
const COUNT_NEEDLES: &[&str] = &["omment", "oment", "repl", "pon", "reacti", "join"];

/// Whether a text holds one of [`COUNT_NEEDLES`].
fn countlike(text: &str) -> bool {
    static NEEDLES: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(COUNT_NEEDLES)
            .expect("valid needles")
    });
    NEEDLES.is_match(text)
}

/// The ASCII words of [`SAYS`].
const SAYS_WORDS: &[&str] = &[
    "says", "said", "wrote", "writes", "schreibt", "schrieb", "dice", "dijo",
];

/// Whether a text ends, before white space and a colon, in one of [`SAYS_WORDS`] (in ASCII's
/// cases) or in bytes that are not all ASCII (`écrit`, or a letter in another case, `ſays`).
fn sayslike(text: &str) -> bool {
    let end = text.trim_end();
    let end = end.strip_suffix(':').unwrap_or(end).trim_end();
    let tail = &end.as_bytes()[end.len().saturating_sub(9)..];
    !tail.is_ascii()
        || SAYS_WORDS.iter().any(|w| {
            tail.len() >= w.len() && tail[tail.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
        })
}

/// Features of a block's own ([`OWN`]), of the blocks around it ([`AROUND`] blocks either
/// side, [`WINDOW`]) and the combined model's cue, kind and region groups.
const OWN: usize = 13;
/// Blocks either side that the window features read.
const AROUND: usize = 3;
const WINDOW: usize = 10;
/// Features of the innermost and second innermost region around a block ([`REGION`] each).
const REGION: usize = 6;

/// Number of features per block.
pub const N_FEATURES: usize = OWN
    + WINDOW
    + 2 * REGION
    + combined::CUE_FEATURES
    + combined::KIND_FEATURES
    + combined::REGION_FEATURES;

/// The features of a page's blocks, [`N_FEATURES`] per block, row by row: the one definition
/// of the model's input, for training and for scoring. `regions` as
/// [`crate::document::Document::regions`], `shared` the rows the combined model reads too.
pub fn features(blocks: &[Block], regions: &[(u32, u32)], shared: &SharedRows) -> Vec<f32> {
    let n = blocks.len();
    let cues: Vec<TextCues> = blocks
        .iter()
        .map(|b| TextCues::of(&b.text, b.stats.words))
        .collect();
    let words = |b: &Block| b.stats.words as f64;
    let total_words = blocks.iter().map(words).sum::<f64>().max(1.0);
    let total_chars = blocks.iter().map(|b| b.chars).sum::<usize>().max(1) as f64;
    let good = |b: &Block| justext::is_good(b);
    let good_words = blocks.iter().filter(|b| good(b)).map(words).sum::<f64>();
    // Prefix sums over the blocks of their text cues, the markup's comment cue and the words
    // jusText keeps, for the regions' features.
    let mut sums = vec![[0f32; 6]; n + 1];
    for (i, (b, c)) in blocks.iter().zip(&cues).enumerate() {
        let [date, reply, count, says] = c.values();
        let row = [
            date,
            reply,
            count,
            says,
            f32::from(u8::from(b.near_cues & cue::COMMENT != 0)),
            if good(b) { words(b) as f32 } else { 0.0 },
        ];
        for k in 0..6 {
            sums[i + 1][k] = sums[i][k] + row[k];
        }
    }
    let held = combined::enclosing(n, regions);
    let mut out = Vec::with_capacity(n * N_FEATURES);
    let (mut chars_before, mut good_before, mut count_before) = (0usize, 0f64, 0f32);
    for (i, b) in blocks.iter().enumerate() {
        let own_good = if good(b) { words(b) } else { 0.0 };
        let m = markup::of(b);
        out.extend_from_slice(&[
            (chars_before as f64 / total_chars) as f32,
            (words(b) + 1.0).ln() as f32,
            b.stats.link_density() as f32,
            f32::from(u8::from(good(b))),
            f32::from(u8::from(boilerpipe::of(b).num_words)),
            (good_before / good_words.max(1.0)) as f32,
            ((good_words - good_before - own_good) / total_words) as f32,
            f32::from(u8::from(matches!(b.kind, document::Kind::Heading(_)))),
            m.sum,
            m.min,
            m.max,
            count_before.min(3.0),
            f32::from(u8::from(b.cues & cue::FORM != 0)),
        ]);
        out.extend_from_slice(&cues[i].values());
        // Around it: its neighbours' text cues, how many carry the markup's comment cue, and
        // those before and after it apart.
        let (lo, hi) = (i.saturating_sub(AROUND), (i + AROUND + 1).min(n));
        let mut around = [0f32; 4];
        for (k, c) in cues.iter().enumerate().take(hi).skip(lo) {
            if k != i {
                for (a, v) in around.iter_mut().zip(c.values()) {
                    *a += v;
                }
            }
        }
        out.extend_from_slice(&around);
        let commented = |r: std::ops::Range<usize>| {
            blocks[r]
                .iter()
                .filter(|b| b.near_cues & cue::COMMENT != 0)
                .count() as f32
        };
        out.extend_from_slice(&[commented(lo..i), commented(i + 1..hi)]);
        // Its regions: the share of their blocks with each text cue and the comment cue, and
        // the share of the page's kept words before them (a comment section follows the
        // article; a forum's thread is the page).
        for r in held[i].0 {
            let Some((first, last)) = r else {
                out.extend_from_slice(&[0.0; REGION]);
                continue;
            };
            let (first, last) = (first as usize, last as usize);
            let blocks_in = (last - first + 1) as f32;
            out.extend((0..5).map(|k| (sums[last + 1][k] - sums[first][k]) / blocks_in));
            out.push(sums[first][5] / good_words.max(1.0) as f32);
        }
        for rows in shared.row(i) {
            out.extend_from_slice(rows);
        }
        chars_before += b.chars;
        good_before += own_good;
        count_before += f32::from(u8::from(cues[i].count));
    }
    debug_assert_eq!(out.len(), n * N_FEATURES);
    out
}

/// The names of the [`features`], in order.
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "position",
        "log_words",
        "link_density",
        "justext_good",
        "boilerpipe_kept",
        "good_words_before",
        "good_words_after",
        "heading",
        "markup_sum",
        "markup_min",
        "markup_max",
        "counts_before",
        "form",
        "date",
        "reply",
        "count",
        "says",
        "date_around",
        "reply_around",
        "count_around",
        "says_around",
        "comment_cue_before",
        "comment_cue_after",
    ]
    .map(str::to_owned)
    .to_vec();
    for level in ["region1", "region2"] {
        for n in [
            "date",
            "reply",
            "count",
            "says",
            "comment_cue",
            "good_words_before",
        ] {
            names.push(format!("{level}_{n}"));
        }
    }
    names.extend(combined::cue_feature_names());
    names.extend(combined::kind_feature_names());
    names.extend(combined::region_feature_names());
    names
}

/// How the trees of both stages are trained (`cowrex train comment`): small trees, as they
/// run on every page, each split on half the features, which left out of each source found
/// more comments at the same precision than trees on all of them (docs/models.md).
pub fn train_config() -> super::gbt::TrainConfig {
    super::gbt::TrainConfig {
        trees: 120,
        depth: 4,
        learning_rate: 0.1,
        colsample: 0.5,
        ..Default::default()
    }
}

/// The comment detector ([`crate::classify::detector`]): one column, `comment`, the
/// probability that the block belongs to a comment section.
pub struct Detector;

/// Its name in the registry.
pub const NAME: &str = "comment";

/// Its columns.
pub const COLUMNS: &[Column] = &[Column {
    name: "comment",
    shown: Shown::Rounded,
}];

/// Its columns in the table.
const AT: document::Cols = registry::cols(NAME);

/// `--comment-model`: a comment model instead of the built-in one
/// ([`crate::classify::Models::comment`]).
pub static MODEL_FILE: ModelFile = ModelFile {
    option: "comment_model",
    help: "Comment model (from `cowrex train comment`) instead of the built-in one",
    load: |bytes| {
        let text = super::model_text(bytes)?;
        Ok(Box::new(Model::parse(&text)?))
    },
};

/// Number of [`context`] features per block.
pub const N_CONTEXT: usize = 8;

/// The context of each block from first-stage probabilities `p`, [`N_CONTEXT`] per block, row
/// by row: its own, its neighbours', the means (weighted by words) over three and ten blocks
/// either side and over its innermost and second innermost region, and the mean over the
/// blocks of its kind (the same [`Block::path`]: one comment's text repeats its siblings'
/// path). A comment section is a run of blocks, so a block between comments is likely one.
pub fn context(blocks: &[Block], regions: &[(u32, u32)], p: &[f32]) -> Vec<f32> {
    let n = blocks.len();
    let weight = |i: usize| 1.0 + blocks[i].stats.words as f64;
    let mut sums = vec![(0f64, 0f64); n + 1];
    for i in 0..n {
        let (w, wp) = sums[i];
        sums[i + 1] = (w + weight(i), wp + weight(i) * p[i] as f64);
    }
    let mean = |a: usize, b: usize| {
        let (w, wp) = (sums[b].0 - sums[a].0, sums[b].1 - sums[a].1);
        (wp / w.max(f64::MIN_POSITIVE)) as f32
    };
    let mut paths: rustc_hash::FxHashMap<u64, (f64, f64)> = Default::default();
    for (i, b) in blocks.iter().enumerate() {
        let e = paths.entry(b.path).or_default();
        e.0 += weight(i);
        e.1 += weight(i) * p[i] as f64;
    }
    let mut out = Vec::with_capacity(n * N_CONTEXT);
    for (i, (held, _)) in combined::enclosing(n, regions).into_iter().enumerate() {
        let region = |r: Option<(u32, u32)>, or: f32| {
            r.map_or(or, |(a, b)| mean(a as usize, b as usize + 1))
        };
        let inner = region(held[0], p[i]);
        let (w, wp) = paths[&blocks[i].path];
        out.extend_from_slice(&[
            p[i],
            if i > 0 { p[i - 1] } else { 0.0 },
            p.get(i + 1).copied().unwrap_or(0.0),
            mean(i.saturating_sub(3), (i + 4).min(n)),
            mean(i.saturating_sub(10), (i + 11).min(n)),
            inner,
            region(held[1], inner),
            (wp / w) as f32,
        ]);
    }
    out
}

/// Rows of [`features`] followed by their [`context`]: the second stage's input.
pub fn stacked(x: &[f32], context: &[f32]) -> Vec<f32> {
    super::gbt::stack_rows(x, N_FEATURES, context, N_CONTEXT)
}

/// The comment model, in two stages: a first model over [`features`], and the main model
/// over the same features followed by their [`context`] from the first model's
/// probabilities. Text format: the two `cowrex-gbt` models one after the other.
#[derive(Debug, Clone)]
pub struct Model {
    /// The first stage, over [`features`] ([`N_FEATURES`] inputs).
    pub first: Gbt,
    /// The main model, over [`features`] and [`context`] ([`N_FEATURES`] + [`N_CONTEXT`]
    /// inputs).
    pub second: Gbt,
}

impl Model {
    /// Read a model in the text format; an error unless it holds both stages with the feature
    /// counts cowrex computes.
    pub fn parse(text: &str) -> Result<Model, super::ModelError> {
        let [first, second] =
            super::gbt::parse_stages(text, NAME, [N_FEATURES, N_FEATURES + N_CONTEXT])?;
        Ok(Model { first, second })
    }

    /// The model in its text format.
    pub fn to_text(&self) -> String {
        self.first.to_text() + &self.second.to_text()
    }

    /// P(comment) of each block.
    pub fn predict(
        &self,
        blocks: &[Block],
        regions: &[(u32, u32)],
        shared: &SharedRows,
    ) -> Vec<f32> {
        let x = features(blocks, regions, shared);
        let p = self.first.predict_rows(&x);
        self.second
            .predict_rows(&stacked(&x, &context(blocks, regions, &p)))
    }
}

/// A block's probability of belonging to a comment section (NaN when the detector did not
/// run).
pub fn of(b: &Block) -> f32 {
    b.scores.get(AT, 0) as f32
}

/// Set a block's probability (`cowrex train comment --cv` scores with cross-validated models).
pub fn set(b: &mut Block, p: f32) {
    b.scores.set(AT, 0, p.into());
}

impl detector::Detector for Detector {
    fn score(&self, blocks: &mut [Block], page: &detector::Scoring<'_>) {
        if blocks.is_empty() {
            return;
        }
        let p = page
            .models
            .comment()
            .predict(blocks, page.regions, SharedRows::of_page(blocks, page));
        for (b, p) in blocks.iter_mut().zip(p) {
            set(b, p);
        }
    }

    fn model_file(&self) -> Option<&'static ModelFile> {
        Some(&MODEL_FILE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cues() {
        let cues = |t: &str| TextCues::of(t, t.split_whitespace().count() as u32);
        assert!(cues("2 days ago at 07:52 am").date);
        assert!(cues("March 3, 2010").date);
        assert!(cues("am 3. März 2010").date);
        assert!(!cues("The rain in Spain falls mainly on the plain.").date);
        assert!(cues("Reply").reply && cues("Report abuse").reply);
        assert!(!cues("Replying to the minister, she said no.").reply);
        assert!(cues("10 Comments").count && cues("Leave a Reply").count);
        assert!(cues("Kommentare (3)").count);
        assert!(!cues("Comments are what this long paragraph is about, not a count.").count);
        assert!(cues("John Smith says:").says);
        assert!(!cues("The minister says the plan works.").says);
    }

    #[test]
    fn prefilter_needles_have_no_other_cases() {
        let letters: String = COUNT_NEEDLES
            .concat()
            .chars()
            .filter(char::is_ascii_alphabetic)
            .collect();
        let any = Regex::new(&format!("(?i)[{letters}]")).unwrap();
        let mut buf = [0u8; 4];
        for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
            let c = c.encode_utf8(&mut buf);
            assert!(!any.is_match(c), "{c:?} is a case of one of {letters}");
        }
    }

    #[test]
    fn prefilters_pass_every_match() {
        let texts = [
            "2 days ago at 07:52 am",
            "AN HOUR AGO",
            "vor 3 Tagen",
            "il y a 2 jours",
            "hace 3 días",
            "March 3, 2010",
            "am 3. März 2010",
            "3.10.2010",
            "2010-03-03",
            "١٢:٣٠",
            "10 Comments",
            "Leave a Reply",
            "KOMMENTARE (3)",
            "3 commentaires",
            "2 comentarios",
            "commenti",
            "komentarze",
            "reacties",
            "Responses",
            "Post your comment",
            "Join the discussion",
            "\u{212A}ommentare",
            "John Smith says:",
            "Mary wrote :  ",
            "Anna schrieb:",
            "Jean écrit :",
            "Tom ſays:",
            "Tom SAID",
            "El dice",
            "says:\u{a0}",
        ];
        let mut matched = [0; 3];
        for t in texts
            .iter()
            .flat_map(|t| [t.to_string(), t.to_lowercase(), t.to_uppercase()])
        {
            let each = [
                (DATE.is_match(&t), datelike(&t)),
                (COUNT.is_match(&t), countlike(&t)),
                (SAYS.is_match(&t), sayslike(&t)),
            ];
            for (k, (pattern, prefilter)) in each.into_iter().enumerate() {
                assert!(!pattern || prefilter, "pattern {k} matches {t:?}, its prefilter not");
                matched[k] += usize::from(pattern);
            }
        }
        assert!(matched.iter().all(|&n| n >= 15), "{matched:?}");
        assert!(!countlike("Home | About us") && !sayslike("The plan works."));
        assert!(!datelike("Home"));
    }

    /// A blog post with a WordPress comment section, as WordPress's default theme writes it.
    const BLOG: &str = r#"<html><head><title>Planting tomatoes in spring | Garden notes</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Planting tomatoes in spring</h1>
<p>Tomatoes want warm soil, so wait until the nights stay above ten degrees before you plant them out. Dig a deep hole and bury the stem up to the first leaves: the buried stem grows roots and the plant stands firmer in the wind.</p>
<p>Water the plants deeply twice a week rather than a little every day, and mulch the soil to keep it moist. Pinch out the side shoots that grow between the stem and the leaves, so that the plant puts its strength into the fruit.</p>
<p>In a cool summer, a sheet of fleece on cold nights keeps the flowers from dropping. Pick the fruit when it is fully coloured and slightly soft.</p>
</article>
<div id="comments" class="comments-area">
<h2 class="comments-title">3 Comments</h2>
<ol class="comment-list">
<li class="comment"><div class="comment-author vcard"><b class="fn">Mary</b> <span class="says">says:</span></div>
<div class="comment-metadata"><time>March 3, 2021 at 7:52 am</time></div>
<div class="comment-content"><p>Thanks for this, I always wondered why my plants fell over in the wind. I will bury the stems deeper this year.</p></div>
<div class="reply"><a class="comment-reply-link">Reply</a></div></li>
<li class="comment"><div class="comment-author vcard"><b class="fn">Tom</b> <span class="says">says:</span></div>
<div class="comment-metadata"><time>March 4, 2021 at 9:15 pm</time></div>
<div class="comment-content"><p>Do you pinch out the side shoots on bush varieties too, or only on the tall ones?</p></div>
<div class="reply"><a class="comment-reply-link">Reply</a></div></li>
</ol>
<div id="respond"><h3 class="comment-reply-title">Leave a Reply</h3>
<form><p>Your email address will not be published.</p><textarea></textarea><p><input type="submit" value="Post Comment"></p></form></div>
</div>
<footer><p>Copyright 2021 Garden notes</p></footer>
</body></html>"#;

    #[test]
    fn a_comment_section_is_found_and_dropped_or_kept() {
        use crate::{Comments, Extractor};
        let doc = Extractor::builtin().extract(BLOG.as_bytes(), None);
        let kind = |start: &str| {
            doc.blocks
                .iter()
                .find(|b| b.text.starts_with(start))
                .map(|b| b.kind_name())
        };
        assert_eq!(kind("Tomatoes want warm soil"), Some("p"));
        assert_eq!(kind("3 Comments"), Some("comment"));
        assert_eq!(kind("Thanks for this"), Some("comment"));
        assert_eq!(kind("Do you pinch out"), Some("comment"));
        assert_eq!(kind("Leave a Reply"), Some("comment"));
        // Dropped by default, kept with `keep` whatever their bpv, the scores the same.
        assert_eq!(doc.comments, Comments::Drop);
        assert!(doc.text().contains("Pick the fruit") && !doc.text().contains("Thanks for this"));
        let kept = Extractor::builder()
            .comments(Comments::Keep)
            .build()
            .unwrap()
            .extract(BLOG.as_bytes(), None);
        assert!(kept.text().contains("Pick the fruit") && kept.text().contains("Thanks for this"));
        assert!(!kept.text().contains("Copyright"));
        let bpv = |d: &crate::Document| d.blocks.iter().map(|b| b.bpv).collect::<Vec<_>>();
        assert_eq!(bpv(&doc), bpv(&kept));
    }

    #[test]
    fn feature_names_match_the_features() {
        assert_eq!(feature_names().len(), N_FEATURES);
    }
}

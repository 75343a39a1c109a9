//! The combined model: gradient-boosted trees ([`super::gbt`]) over every detector's output and
//! the cues around a block — texrex's 37 features and MLP score, the n-gram score, jusText's
//! classes and stop-word density, boilerpipe's word counts, link and text densities of the
//! previous, current and next block and its decisions, the structural cues of the markup
//! ([`crate::html::cue`]), the block's position in the page, its neighbours' scores, the
//! regions of the page it is in (the elements whose text spans several blocks), how often its
//! kind of element repeats on the page, and how its words relate to what the page says of
//! itself elsewhere ([`PageText`]: its title and its structured data).
//!
//! [`features`] is the one definition of the model's input, for training and for scoring.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::document;
use super::ModelError;
use super::detector::{self, Column, Cut, Decision, ModelFile, Shown};
use super::gbt::Gbt;
use super::justext::Class;
pub use crate::document::{PageText, page_text::page_kind};
use super::{Block, boilerpipe, justext, markup, mlp, ngram, registry};
use crate::html::cue;
use crate::words;

/// Number of features per block.
pub const N_FEATURES: usize = 147 + CUE_FEATURES;

/// Hashes of the lower-cased words of a text: runs of alphanumeric characters, and each
/// ideograph, kana or letter of a script written without spaces ([`words::tokens`]); `word`
/// is a buffer the caller keeps from one text to the next.
fn word_hashes(text: &str, word: &mut String, each: impl FnMut(u64)) {
    /// Lower-cases each word into `word` and hashes it.
    struct Hasher<'w, F> {
        word: &'w mut String,
        each: F,
    }
    impl<F: FnMut(u64)> words::TokenSink for Hasher<'_, F> {
        fn push(&mut self, c: char) {
            if c.is_ascii() {
                self.word.push(c.to_ascii_lowercase());
            } else {
                self.word.extend(c.to_lowercase());
            }
        }
        fn end(&mut self) {
            (self.each)(xxhash_rust::xxh3::xxh3_64(self.word.as_bytes()));
            self.word.clear();
        }
    }
    word.clear();
    words::tokens(text, char::is_alphanumeric, &mut Hasher { word, each });
}

fn word_set(text: &str, word: &mut String) -> FxHashSet<u64> {
    let mut set = FxHashSet::default();
    word_hashes(text, word, |h| {
        set.insert(h);
    });
    set
}

/// Features of the blocks from the page's own text ([`PageText`]), [`TEXT_FEATURES`] per
/// block: the share of the title's words the block has and of the block's words in the
/// title, whether it is the title block (the block that best matches the title), its signed
/// distance to that block (in blocks, over the page's blocks), and whether it comes before it;
/// whether the page has a structured-data body, and the share of the block's words in that
/// body and in the page's descriptions (−1 without one).
const TEXT_FEATURES: usize = 8;

fn text_features(blocks: &[Block], page: &PageText) -> Vec<[f32; TEXT_FEATURES]> {
    let n = blocks.len();
    // The title's distinct words, each with a bit (up to 64).
    let mut title: FxHashMap<u64, u32> = FxHashMap::default();
    let mut word = String::new();
    word_hashes(&page.title, &mut word, |h| {
        let next = title.len() as u32;
        if next < 64 {
            title.entry(h).or_insert(next);
        }
    });
    let body = word_set(&page.body, &mut word);
    let description = word_set(&page.description, &mut word);
    let mut rows = vec![[0f32; TEXT_FEATURES]; n];
    let mut match_of = vec![0f32; n];
    for (i, b) in blocks.iter().enumerate() {
        let (mut words, mut in_title, mut in_body, mut in_description) = (0u32, 0u32, 0u32, 0u32);
        let mut seen = 0u64;
        word_hashes(&b.cleansed, &mut word, |h| {
            words += 1;
            if let Some(&bit) = title.get(&h) {
                in_title += 1;
                seen |= 1 << bit;
            }
            in_body += u32::from(body.contains(&h));
            in_description += u32::from(description.contains(&h));
        });
        let share = |k: u32| k as f32 / words.max(1) as f32;
        let cover = if title.is_empty() {
            0.0
        } else {
            seen.count_ones() as f32 / title.len() as f32
        };
        let row = &mut rows[i];
        row[0] = cover;
        row[1] = share(in_title);
        row[5] = f32::from(u8::from(!body.is_empty()));
        row[6] = if body.is_empty() {
            -1.0
        } else {
            share(in_body)
        };
        row[7] = if description.is_empty() {
            -1.0
        } else {
            share(in_description)
        };
        match_of[i] = cover * share(in_title);
    }
    // The title block: the best match, the first of equals; none when nothing matches.
    let best = (0..n).fold(None, |best: Option<usize>, i| match best {
        Some(b) if match_of[b] >= match_of[i] => Some(b),
        _ if match_of[i] > 0.0 => Some(i),
        _ => best,
    });
    if let Some(t) = best {
        for (i, row) in rows.iter_mut().enumerate() {
            row[2] = f32::from(u8::from(i == t));
            row[3] = (i as f32 - t as f32) / n as f32;
            row[4] = f32::from(u8::from(i < t));
        }
    }
    rows
}

/// Features of the cues around a block and on its page ([`cue`] bits), [`CUE_FEATURES`] per
/// block: the cues of its innermost elements ([`Block::near_cues`]); the share of the page's
/// words under each cue (what kind of page it is: an article with a comment section, a
/// forum, a shop's grid); and the shares of the page's words in running text (`p`, outside
/// comments, navigation, sidebars and footers) before and after the block and in comments
/// before it.
pub(crate) const CUE_FEATURES: usize = 2 * cue::COUNT + 3;

pub(crate) fn cue_features(blocks: &[Block]) -> Vec<[f32; CUE_FEATURES]> {
    let words = |b: &Block| b.stats.words as f64;
    let total = blocks.iter().map(words).sum::<f64>().max(1.0);
    let mut share = [0f64; cue::COUNT];
    for b in blocks {
        for (bit, s) in share.iter_mut().enumerate() {
            if b.cues & (1 << bit) != 0 {
                *s += words(b);
            }
        }
    }
    let outside = cue::COMMENT | cue::NAV | cue::ASIDE | cue::FOOTER;
    let running = |b: &Block| b.cues & cue::P != 0 && b.cues & outside == 0;
    let all_running: f64 = blocks.iter().filter(|b| running(b)).map(words).sum();
    let (mut running_before, mut comments_before) = (0f64, 0f64);
    blocks
        .iter()
        .map(|b| {
            let mut row = [0f32; CUE_FEATURES];
            for bit in 0..cue::COUNT {
                row[bit] = f32::from(u8::from(b.near_cues & (1 << bit) != 0));
                row[cue::COUNT + bit] = (share[bit] / total) as f32;
            }
            let own = if running(b) { words(b) } else { 0.0 };
            row[2 * cue::COUNT] = (running_before / total) as f32;
            row[2 * cue::COUNT + 1] = ((all_running - running_before - own) / total) as f32;
            row[2 * cue::COUNT + 2] = (comments_before / total) as f32;
            running_before += own;
            if b.cues & cue::COMMENT != 0 {
                comments_before += words(b);
            }
            row
        })
        .collect()
}

/// Features of a block from the other blocks of its kind ([`Block::path`]: the same tag names
/// and classes from the root), [`KIND_FEATURES`] per block: how many blocks share its path,
/// their share of the page's words, their link density and their mean words per block; how
/// many blocks have the same text; and its depth among the open elements, as it is and over
/// the page's deepest.
pub(crate) const KIND_FEATURES: usize = 7;

pub(crate) fn kind_features(blocks: &[Block]) -> Vec<[f32; KIND_FEATURES]> {
    // Per path: blocks, words, link words.
    let mut paths: FxHashMap<u64, (u32, f64, f64)> = FxHashMap::default();
    let mut texts: FxHashMap<&str, u32> = FxHashMap::default();
    for b in blocks {
        let e = paths.entry(b.path).or_default();
        e.0 += 1;
        e.1 += b.stats.words as f64;
        e.2 += b.stats.link_words as f64;
        *texts.entry(b.cleansed.as_str()).or_default() += 1;
    }
    let total: f64 = blocks
        .iter()
        .map(|b| b.stats.words as f64)
        .sum::<f64>()
        .max(1.0);
    let deepest = blocks.iter().map(|b| b.depth).max().unwrap_or(0).max(1) as f32;
    blocks
        .iter()
        .map(|b| {
            let (count, words, links) = paths[&b.path];
            [
                log1p(count as f64 - 1.0),
                (words / total) as f32,
                (links / words.max(1.0)) as f32,
                log1p(words / count as f64),
                log1p(texts[b.cleansed.as_str()] as f64 - 1.0),
                log1p(b.depth as f64),
                b.depth as f32 / deepest,
            ]
        })
        .collect()
}

/// `ln(1 + x)` as `f32`. Most arguments are small counts, which come from a table (the
/// same values, computed once; `ln_1p` was 1.3 % of `process`'s CPU time).
fn log1p(x: f64) -> f32 {
    const N: usize = 4096;
    static TABLE: std::sync::LazyLock<Vec<f32>> =
        std::sync::LazyLock::new(|| (0..N).map(|i| (i as f64).ln_1p() as f32).collect());
    if x >= 0.0 && x < N as f64 && x == x.trunc() {
        TABLE[x as usize]
    } else {
        x.ln_1p() as f32
    }
}

/// Features of a block from the regions around it: for its innermost and second innermost
/// region, the region's blocks, its share of the page's words, its link density, the share of
/// its words in blocks jusText keeps, and the block's share of its words; then whether the
/// block is in the main region (the smallest region whose words in blocks jusText or
/// boilerpipe keep most outnumber the rest), that region's share of the words, and how many regions hold the
/// block. `regions` are inclusive block ranges sorted by start, outer first.
pub(crate) const REGION_FEATURES: usize = 13;

/// An inclusive range of blocks.
pub(crate) type Region = (u32, u32);

/// For each of `n` blocks, the innermost and second innermost of `regions` holding it (sorted by
/// start, outer first) and how many regions hold it.
pub(crate) fn enclosing(n: usize, regions: &[Region]) -> Vec<([Option<Region>; 2], usize)> {
    let (mut open, mut next) = (Vec::new(), 0);
    (0..n as u32)
        .map(|at| {
            while next < regions.len() && regions[next].0 <= at {
                while open.last().is_some_and(|r: &Region| r.1 < regions[next].0) {
                    open.pop();
                }
                open.push(regions[next]);
                next += 1;
            }
            while open.last().is_some_and(|r| r.1 < at) {
                open.pop();
            }
            let mut holding = open.iter().rev().filter(|r| r.1 >= at).copied();
            let held = [holding.next(), holding.next()];
            (held, held.iter().flatten().count() + holding.count())
        })
        .collect()
}

pub(crate) fn region_features(blocks: &[Block], regions: &[(u32, u32)]) -> Vec<[f32; REGION_FEATURES]> {
    let n = blocks.len();
    // Prefix sums of words, link words, words jusText keeps, and kept minus other words.
    let mut sums = vec![[0f64; 4]; n + 1];
    for (i, b) in blocks.iter().enumerate() {
        let words = b.stats.words as f64;
        let good = justext::is_good(b);
        let kept = good || boilerpipe::of(b).num_words;
        let row = [
            words,
            b.stats.link_words as f64,
            if good { words } else { 0.0 },
            if kept { words } else { -words },
        ];
        for k in 0..4 {
            sums[i + 1][k] = sums[i][k] + row[k];
        }
    }
    let sum = |r: (u32, u32), k: usize| sums[r.1 as usize + 1][k] - sums[r.0 as usize][k];
    let total = sums[n][0].max(1.0);
    let main = regions.iter().copied().max_by(|a, b| {
        // Ties: the smaller region, then the earlier one.
        let smaller = (b.1 - b.0, b.0).cmp(&(a.1 - a.0, a.0));
        sum(*a, 3).total_cmp(&sum(*b, 3)).then(smaller)
    });
    let mut out = vec![[0f32; REGION_FEATURES]; n];
    for (i, (row, (held, count))) in out.iter_mut().zip(enclosing(n, regions)).enumerate() {
        let at = i as u32;
        let words = blocks[i].stats.words as f64;
        for (level, r) in held.iter().enumerate() {
            let Some(r) = *r else { break };
            let w = sum(r, 0).max(1.0);
            row[level * 5..level * 5 + 5].copy_from_slice(&[
                log1p((r.1 - r.0 + 1) as f64),
                (sum(r, 0) / total) as f32,
                (sum(r, 1) / w) as f32,
                (sum(r, 2) / w) as f32,
                (words / w) as f32,
            ]);
        }
        if let Some(m) = main {
            row[10] = f32::from(u8::from(m.0 <= at && at <= m.1));
            row[11] = (sum(m, 0) / total) as f32;
        }
        row[12] = log1p(count as f64);
    }
    out
}

/// The rows of a page's blocks that the comment detector's features and the combined model's
/// share (its cue, kind and region feature groups), computed once a page
/// ([`SharedRows::of_page`]). They read the blocks' text, markup and jusText's and
/// boilerpipe's columns, which both detectors come after.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedRows {
    cues: Vec<[f32; CUE_FEATURES]>,
    kind: Vec<[f32; KIND_FEATURES]>,
    region: Vec<[f32; REGION_FEATURES]>,
}

impl SharedRows {
    /// The rows of a page's blocks; `regions` as in [`crate::document::Document::regions`].
    pub fn of(blocks: &[Block], regions: &[(u32, u32)]) -> SharedRows {
        SharedRows {
            cues: cue_features(blocks),
            kind: kind_features(blocks),
            region: region_features(blocks, regions),
        }
    }

    /// The rows of a page's blocks as the detectors score it: made once a page, for the
    /// first of the comment detector and the combined model that asks.
    pub fn of_page<'a>(blocks: &[Block], page: &detector::Scoring<'a>) -> &'a SharedRows {
        page.once(|| SharedRows::of(blocks, page.regions))
    }

    /// Block `i`'s cue, kind and region features, in that order.
    pub(crate) fn row(&self, i: usize) -> [&[f32]; 3] {
        [&self.cues[i], &self.kind[i], &self.region[i]]
    }
}

/// What the feature groups read: a page's blocks and what is computed once per page.
struct View<'a> {
    blocks: &'a [Block],
    page: &'a PageText,
    shared: &'a SharedRows,
    text: Vec<[f32; TEXT_FEATURES]>,
    /// Characters of the blocks before each block.
    chars_before: Vec<usize>,
    total_chars: usize,
    total_words: u32,
    /// The block with the most words (the first of equals).
    largest: usize,
    /// Words of the blocks jusText keeps.
    good_words: f32,
    /// Blocks inside `<article>`.
    article_blocks: f32,
    /// The first and last blocks jusText keeps.
    first_good: usize,
    last_good: usize,
    /// Words in main content (`<main>`), in an item's body (`itemprop`) and hidden.
    marked: [f32; 3],
    /// The page's highest text density (at least 1).
    densest: f64,
}

impl<'a> View<'a> {
    fn new(blocks: &'a [Block], page: &'a PageText, shared: &'a SharedRows) -> View<'a> {
        let n = blocks.len();
        let marked = |bits: u32| {
            blocks
                .iter()
                .filter(|b| b.cues & bits != 0)
                .map(|b| b.stats.words as f32)
                .sum::<f32>()
        };
        let good = |b: &Block| justext::is_good(b);
        let mut chars_before = Vec::with_capacity(n);
        let mut chars = 0usize;
        for b in blocks {
            chars_before.push(chars);
            chars += b.chars;
        }
        View {
            blocks,
            page,
            shared,
            text: text_features(blocks, page),
            chars_before,
            total_chars: chars.max(1),
            total_words: blocks.iter().map(|b| b.stats.words).sum::<u32>().max(1),
            largest: (0..n)
                .max_by_key(|&i| (blocks[i].stats.words, std::cmp::Reverse(i)))
                .unwrap_or(0),
            good_words: blocks
                .iter()
                .filter(|b| good(b))
                .map(|b| b.stats.words as f32)
                .sum(),
            article_blocks: blocks.iter().filter(|b| b.cues & cue::ARTICLE != 0).count() as f32,
            first_good: blocks.iter().position(good).unwrap_or(n),
            last_good: blocks.iter().rposition(good).unwrap_or(0),
            marked: [
                marked(cue::MAIN),
                marked(cue::BODY_PROP),
                marked(cue::HIDDEN),
            ],
            densest: blocks
                .iter()
                .map(|b| b.stats.text_density)
                .fold(0f64, f64::max)
                .max(1.0),
        }
    }

    /// The previous block, the block and the next.
    fn around(&self, i: usize) -> [Option<&'a Block>; 3] {
        let at = |k: Option<usize>| k.and_then(|k| self.blocks.get(k));
        [at(i.checked_sub(1)), self.blocks.get(i), at(Some(i + 1))]
    }

    /// The blocks up to `r` before and after block `i`.
    fn window(&self, i: usize, r: usize) -> &'a [Block] {
        &self.blocks[i.saturating_sub(r)..(i + r + 1).min(self.blocks.len())]
    }
}

/// The n-gram score the model reads: clamped to ±10, 0 without one.
fn ngram_score(b: &Block) -> f32 {
    ngram::of(b).map_or(0.0, |s| s.clamp(-10.0, 10.0))
}

fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

/// A group of the model's features: their names, and how a block's values are computed (one
/// per name, in the same order).
struct Group {
    names: fn() -> Vec<String>,
    values: fn(&View, usize, &mut Vec<f32>),
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|n| n.to_string()).collect()
}

fn cue_names(prefix: &str, suffix: &str) -> Vec<String> {
    cue::NAMES
        .iter()
        .map(|n| format!("{prefix}{n}{suffix}"))
        .collect()
}

/// The names of [`cue_features`], in order.
pub(crate) fn cue_feature_names() -> Vec<String> {
    let mut out = cue_names("near_", "");
    out.extend(cue_names("page_", "_share"));
    out.extend(names(&[
        "running_before",
        "running_after",
        "comments_before",
    ]));
    out
}

/// The names of [`kind_features`], in order.
pub(crate) fn kind_feature_names() -> Vec<String> {
    names(&[
        "kind_blocks",
        "kind_words_share",
        "kind_link_density",
        "kind_mean_words",
        "same_text_blocks",
        "depth",
        "relative_depth",
    ])
}

/// The names of [`region_features`], in order.
pub(crate) fn region_feature_names() -> Vec<String> {
    let mut out = Vec::new();
    for level in ["region1", "region2"] {
        for n in [
            "blocks",
            "words_share",
            "link_density",
            "justext_good",
            "block_share",
        ] {
            out.push(format!("{level}_{n}"));
        }
    }
    out.extend(names(&[
        "in_main_region",
        "main_region_words_share",
        "regions_holding",
    ]));
    out
}

/// The model's features per block, group by group: the one definition of its input, for
/// training, scoring and [`feature_names`].
static GROUPS: [Group; 23] = [
    // texrex's 37 block features.
    Group {
        names: || {
            crate::features::texrex::FEATURE_NAMES
                .iter()
                .map(|n| format!("texrex.{n}"))
                .collect()
        },
        values: |v, i, out| out.extend(v.blocks[i].features.iter().map(|&f| f as f32)),
    },
    // The MLP's and NCleaner's scores.
    Group {
        names: || names(&["mlp", "ngram", "ngram_missing"]),
        values: |v, i, out| {
            let b = &v.blocks[i];
            out.extend([mlp::of(b), ngram_score(b), flag(ngram::of(b).is_none())]);
        },
    },
    // jusText's context-free class.
    Group {
        names: || {
            names(&[
                "justext_cf_bad",
                "justext_cf_good",
                "justext_cf_short",
                "justext_cf_neargood",
            ])
        },
        values: |v, i, out| {
            let cf = justext::of(&v.blocks[i]).context_free;
            out.extend(
                [Class::Bad, Class::Good, Class::Short, Class::NearGood].map(|c| flag(cf == c)),
            );
        },
    },
    // jusText's final class and stop-word density.
    Group {
        names: || names(&["justext_good", "justext_stopword_density"]),
        values: |v, i, out| {
            let jt = justext::of(&v.blocks[i]);
            out.extend([flag(jt.class == Class::Good), jt.stopword_density as f32]);
        },
    },
    // boilerpipe's words, link density and text density of the previous, current and next
    // block.
    Group {
        names: || names(&["words_prev", "words", "words_next"]),
        values: |v, i, out| {
            out.extend(
                v.around(i)
                    .map(|nb| nb.map_or(0.0, |x| log1p(x.stats.words as f64))),
            );
        },
    },
    Group {
        names: || names(&["link_density_prev", "link_density", "link_density_next"]),
        values: |v, i, out| {
            out.extend(
                v.around(i)
                    .map(|nb| nb.map_or(0.0, |x| x.stats.link_density() as f32)),
            );
        },
    },
    Group {
        names: || names(&["text_density_prev", "text_density", "text_density_next"]),
        values: |v, i, out| {
            out.extend(
                v.around(i)
                    .map(|nb| nb.map_or(0.0, |x| x.stats.text_density as f32)),
            );
        },
    },
    // boilerpipe's four decisions.
    Group {
        names: || {
            names(&[
                "boilerpipe_densitometric",
                "boilerpipe_num_words",
                "boilerpipe_cleaneval",
                "boilerpipe_largest",
            ])
        },
        values: |v, i, out| {
            let d = boilerpipe::of(&v.blocks[i]);
            out.extend([d.densitometric, d.num_words, d.cleaneval, d.largest].map(flag));
        },
    },
    // The structural cues of the elements around the block.
    Group {
        names: || cue_names("cue_", ""),
        values: |v, i, out| {
            let cues = v.blocks[i].cues;
            out.extend((0..cue::COUNT).map(|bit| flag(cues & (1 << bit) != 0)));
        },
    },
    // Its position and size in the page.
    Group {
        names: || names(&["position_blocks", "position_chars", "chars", "chars_share"]),
        values: |v, i, out| {
            let b = &v.blocks[i];
            out.extend([
                i as f32 / v.blocks.len() as f32,
                v.chars_before[i] as f32 / v.total_chars as f32,
                log1p(b.chars as f64),
                b.chars as f32 / v.total_chars as f32,
            ]);
        },
    },
    // The neighbours' MLP and n-gram scores.
    Group {
        names: || names(&["mlp_prev", "mlp_next", "ngram_prev", "ngram_next"]),
        values: |v, i, out| {
            let [prev, _, next] = v.around(i);
            out.extend([
                prev.map_or(1.0, mlp::of),
                next.map_or(1.0, mlp::of),
                prev.map_or(0.0, ngram_score),
                next.map_or(0.0, ngram_score),
            ]);
        },
    },
    // Whether it starts a jusText paragraph, the page's blocks, and the mean MLP and n-gram
    // scores over a window of five blocks.
    Group {
        names: || {
            names(&[
                "paragraph_start",
                "page_blocks",
                "window5_mlp",
                "window5_ngram",
            ])
        },
        values: |v, i, out| {
            let window = v.window(i, 2);
            let k = window.len() as f32;
            out.extend([
                flag(v.blocks[i].paragraph_start),
                log1p(v.blocks.len() as f64),
                window.iter().map(mlp::of).sum::<f32>() / k,
                window.iter().map(ngram_score).sum::<f32>() / k,
            ]);
        },
    },
    // Its share of the page's words and its distance from the largest block.
    Group {
        names: || names(&["words_share", "from_largest"]),
        values: |v, i, out| {
            out.extend([
                v.blocks[i].stats.words as f32 / v.total_words as f32,
                (i as f32 - v.largest as f32) / v.blocks.len() as f32,
            ]);
        },
    },
    // A window of seven blocks: how much of it the other detectors keep.
    Group {
        names: || {
            names(&[
                "window7_justext_good",
                "window7_boilerpipe",
                "window7_mlp_content",
                "window7_link_density",
                "window7_stopword_density",
            ])
        },
        values: |v, i, out| {
            let wide = v.window(i, 3);
            let k = wide.len() as f32;
            let share =
                |f: &dyn Fn(&Block) -> bool| wide.iter().filter(|x| f(x)).count() as f32 / k;
            out.extend([
                share(&justext::is_good),
                share(&|x| boilerpipe::of(x).num_words),
                share(&|x| mlp::of(x) <= 0.5),
                wide.iter()
                    .map(|x| x.stats.link_density() as f32)
                    .sum::<f32>()
                    / k,
                wide.iter()
                    .map(|x| justext::of(x).stopword_density as f32)
                    .sum::<f32>()
                    / k,
            ]);
        },
    },
    // The page as jusText sees it: the share of words it keeps, the share of blocks in
    // `<article>`, and whether the block is after the last (1) or before the first (2) block
    // jusText keeps.
    Group {
        names: || {
            names(&[
                "page_justext_good_share",
                "page_article_blocks",
                "outside_justext",
            ])
        },
        values: |v, i, out| {
            out.extend([
                v.good_words / v.total_words as f32,
                v.article_blocks / v.blocks.len() as f32,
                flag(i > v.last_good) + flag(i < v.first_good) * 2.0,
            ]);
        },
    },
    // The regions around it ([`region_features`]).
    Group {
        names: region_feature_names,
        values: |v, i, out| out.extend_from_slice(&v.shared.region[i]),
    },
    // The page's own text ([`text_features`]).
    Group {
        names: || {
            names(&[
                "title_cover",
                "title_share",
                "title_block",
                "title_distance",
                "before_title",
                "has_structured_body",
                "structured_body_share",
                "description_share",
            ])
        },
        values: |v, i, out| out.extend_from_slice(&v.text[i]),
    },
    // Blocks of the same kind ([`kind_features`]).
    Group {
        names: kind_feature_names,
        values: |v, i, out| out.extend_from_slice(&v.shared.kind[i]),
    },
    // The shares of the page's words in main content, in an item's body and hidden, and the
    // block's text density over the page's highest.
    Group {
        names: || {
            names(&[
                "main_words_share",
                "body_prop_words_share",
                "hidden_words_share",
                "text_density_over_densest",
            ])
        },
        values: |v, i, out| {
            let words = v.total_words as f32;
            out.extend(v.marked.map(|m| m / words));
            out.push((v.blocks[i].stats.text_density / v.densest) as f32);
        },
    },
    // The markup model's view of its ancestors' `class` and `id` words.
    Group {
        names: || names(&["markup_sum", "markup_min", "markup_max", "markup_known"]),
        values: |v, i, out| {
            let m = markup::of(&v.blocks[i]);
            out.extend([m.sum, m.min, m.max, log1p(m.known as f64)]);
        },
    },
    // What the page says it is ([`page_kind`]).
    Group {
        names: || {
            names(&[
                "page_article",
                "page_product",
                "page_list",
                "page_discussion",
                "page_guide",
            ])
        },
        values: |v, _, out| {
            let kinds = v.page.kinds;
            out.extend((0..page_kind::COUNT).map(|bit| flag(kinds & (1 << bit) != 0)));
        },
    },
    // The page's language, which says what the language-bound detectors' scores mean: English
    // (NCleaner's standard model and texrex's English MLP), one of the other languages with
    // their own MLP (de, fr, sv), or none identified.
    Group {
        names: || names(&["lang_english", "lang_own_mlp", "lang_unknown"]),
        values: |v, _, out| {
            let code = v.page.language.map(|l| l.code);
            out.extend([
                flag(code == Some("eng")),
                flag(matches!(code, Some("eng" | "deu" | "fra" | "swe"))),
                flag(code.is_none()),
            ]);
        },
    },
    // The cues of its own container and of its page ([`cue_features`]).
    Group {
        names: cue_feature_names,
        values: |v, i, out| out.extend_from_slice(&v.shared.cues[i]),
    },
];

/// The model's input rows for a document's blocks, row-major ([`N_FEATURES`] per block), with
/// their [`SharedRows`].
pub fn features(blocks: &[Block], page: &PageText, shared: &SharedRows) -> Vec<f32> {
    let view = View::new(blocks, page, shared);
    let mut out = Vec::with_capacity(blocks.len() * N_FEATURES);
    for i in 0..blocks.len() {
        let start = out.len();
        for g in &GROUPS {
            (g.values)(&view, i, &mut out);
        }
        assert_eq!(out.len() - start, N_FEATURES, "feature count");
    }
    out
}

/// The names of the features: [`features`] (in their order, [`N_FEATURES`]), then the second
/// stage's [`context`] ([`N_CONTEXT`], named `first.…`).
pub fn feature_names() -> Vec<String> {
    let mut out: Vec<String> = GROUPS.iter().flat_map(|g| (g.names)()).collect();
    out.extend(names(&[
        "first.p",
        "first.p_prev",
        "first.p_next",
        "first.window3",
        "first.window7",
        "first.region1",
        "first.region2",
        "first.page",
        "first.below",
        "first.page_lowest",
        "first.nearest_kept",
        "first.kept_share",
    ]));
    out
}

/// The column of a feature of [`features`] by its name.
pub fn feature_index(name: &str) -> Option<usize> {
    feature_names()[..N_FEATURES].iter().position(|n| n == name)
}

/// Number of features per block that the second stage adds: the [`context`] of the first
/// stage's probabilities.
pub const N_CONTEXT: usize = 12;

/// The second stage's inputs from the first stage's probabilities `p` (one per block):
/// the block's own, its neighbours', means over windows of 3 and 7 blocks, word-weighted means
/// over its innermost and second innermost region and the page, the share of the page's words
/// in blocks with a lower probability, the page's lowest, the distance to the nearest block
/// below 0.5, and the share of the page's words below 0.5. [`N_CONTEXT`] per block.
pub fn context(blocks: &[Block], regions: &[(u32, u32)], p: &[f32]) -> Vec<f32> {
    let n = blocks.len();
    let weight = |i: usize| 1.0 + blocks[i].stats.words as f64;
    // Prefix sums of weights and weighted probabilities.
    let mut sums = vec![(0f64, 0f64); n + 1];
    for i in 0..n {
        let (w, wp) = sums[i];
        sums[i + 1] = (w + weight(i), wp + weight(i) * p[i] as f64);
    }
    let mean = |a: usize, b: usize| {
        let (w, wp) = (sums[b].0 - sums[a].0, sums[b].1 - sums[a].1);
        (wp / w.max(f64::MIN_POSITIVE)) as f32
    };
    let total = sums[n].0;
    // Weight of the blocks below each probability: sort once, prefix sums over the order.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut below = vec![0f32; n];
    let mut acc = 0.0;
    let mut k = 0;
    while k < n {
        let mut j = k;
        while j < n && p[order[j]] == p[order[k]] {
            j += 1;
        }
        for &i in &order[k..j] {
            below[i] = (acc / total) as f32;
        }
        acc += order[k..j].iter().map(|&i| weight(i)).sum::<f64>();
        k = j;
    }
    let low = p.iter().copied().fold(1f32, f32::min);
    let content: f64 = (0..n).filter(|&i| p[i] < 0.5).map(weight).sum();
    // Distance to the nearest block below 0.5, from both sides.
    let mut near = vec![n; n];
    let mut last = None;
    for i in 0..n {
        if p[i] < 0.5 {
            last = Some(i);
        }
        if let Some(l) = last {
            near[i] = i - l;
        }
    }
    last = None;
    for i in (0..n).rev() {
        if p[i] < 0.5 {
            last = Some(i);
        }
        if let Some(l) = last {
            near[i] = near[i].min(l - i);
        }
    }
    let mut out = Vec::with_capacity(n * N_CONTEXT);
    for (i, (held, _)) in enclosing(n, regions).into_iter().enumerate() {
        let start = out.len();
        let region = |r: Option<(u32, u32)>, or: f32| {
            r.map_or(or, |(a, b)| mean(a as usize, b as usize + 1))
        };
        let inner = region(held[0], p[i]);
        out.extend_from_slice(&[
            p[i],
            if i > 0 { p[i - 1] } else { 1.0 },
            p.get(i + 1).copied().unwrap_or(1.0),
            mean(i.saturating_sub(1), (i + 2).min(n)),
            mean(i.saturating_sub(3), (i + 4).min(n)),
            inner,
            region(held[1], inner),
            mean(0, n),
            below[i],
            low,
            log1p(near[i] as f64),
            (content / total) as f32,
        ]);
        assert_eq!(out.len() - start, N_CONTEXT, "context feature count");
    }
    out
}

/// The combined model, in two stages: a small first model over [`features`], and the main
/// model over the same features followed by their [`context`] from the first model's
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
    pub fn parse(text: &str) -> Result<Model, ModelError> {
        let [first, second] =
            super::gbt::parse_stages(text, NAME, [N_FEATURES, N_FEATURES + N_CONTEXT])?;
        Ok(Model { first, second })
    }

    /// The model in its text format.
    pub fn to_text(&self) -> String {
        self.first.to_text() + &self.second.to_text()
    }

    /// Why the model scores each block as it does: for each block, the `top` features that
    /// move its main-stage margin most ([`Gbt::contributions`]), as (index into
    /// [`feature_names`], contribution), largest magnitude first; positive pushes towards
    /// boilerplate.
    pub fn explain(
        &self,
        blocks: &[Block],
        regions: &[(u32, u32)],
        page: &PageText,
        shared: &SharedRows,
        top: usize,
    ) -> Vec<Vec<(usize, f32)>> {
        let rows = self.main_rows(blocks, regions, page, shared);
        let width = N_FEATURES + N_CONTEXT;
        self.second
            .contributions(&rows)
            .chunks_exact(width)
            .map(|c| {
                let mut order: Vec<(usize, f32)> = c
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|&(_, v)| v != 0.0)
                    .collect();
                order.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
                order.truncate(top);
                order
            })
            .collect()
    }

    /// P(boilerplate) of each block.
    pub fn predict(
        &self,
        blocks: &[Block],
        regions: &[(u32, u32)],
        page: &PageText,
        shared: &SharedRows,
    ) -> Vec<f32> {
        self.second
            .predict_rows(&self.main_rows(blocks, regions, page, shared))
    }

    /// The main stage's input rows: [`features`] and the [`context`] of the first stage.
    fn main_rows(
        &self,
        blocks: &[Block],
        regions: &[(u32, u32)],
        page: &PageText,
        shared: &SharedRows,
    ) -> Vec<f32> {
        let x = features(blocks, page, shared);
        let p = self.first.predict_rows(&x);
        stacked(&x, &context(blocks, regions, &p))
    }
}

/// Rows of [`features`] followed by their [`context`]: the second stage's input.
pub fn stacked(x: &[f32], context: &[f32]) -> Vec<f32> {
    super::gbt::stack_rows(x, N_FEATURES, context, N_CONTEXT)
}

/// The combined model as a detector ([`crate::classify::detector`]): one column the writers do
/// not print, `combined`, the model's probability that the block is boilerplate (the `bpv` of
/// its decision, cut at the page's expected-F threshold). It reads every other detector's
/// columns and runs only when it decides.
pub struct Detector;

/// Its name in the registry.
pub const NAME: &str = "combined";

/// Its columns.
pub const COLUMNS: &[Column] = &[Column {
    name: "combined",
    shown: Shown::Hidden,
}];

/// Its columns in the table.
const AT: document::Cols = registry::cols(NAME);

/// Its decision, the default.
pub(crate) const DECISION: Decision = Decision {
    name: "combined",
    about: "the combined model over every detector and the markup's cues (bpv ≤ the page's expected-F threshold, bpt)",
    bpv: of,
    cut: Cut::ExpectedF,
};

/// `--combined-model`: a combined model instead of the built-in one
/// ([`crate::classify::Models::combined`]).
pub static MODEL_FILE: ModelFile = ModelFile {
    option: "combined_model",
    help: "Combined model (from `cowrex train combined`) instead of the built-in one",
    load: |bytes| {
        let text = super::model_text(bytes)?;
        Ok(Box::new(Model::parse(&text)?))
    },
};

/// A block's probability of being boilerplate under the combined model.
pub fn of(b: &Block) -> f32 {
    b.scores.get(AT, 0) as f32
}

/// Set a block's probability (`eval` scores with cross-validated models).
pub fn set(b: &mut Block, p: f32) {
    b.scores.set(AT, 0, p.into());
}

impl detector::Detector for Detector {
    fn score(&self, blocks: &mut [Block], page: &detector::Scoring<'_>) {
        let p = page
            .models
            .combined()
            .predict(blocks, page.regions, page.text, SharedRows::of_page(blocks, page));
        for (b, p) in blocks.iter_mut().zip(p) {
            b.scores.set(AT, 0, p.into());
        }
    }

    fn decisions(&self) -> &'static [Decision] {
        &[DECISION]
    }

    fn always(&self) -> bool {
        false
    }

    fn model_file(&self) -> Option<&'static ModelFile> {
        Some(&MODEL_FILE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page's blocks and its own text, analysed with the built-in models.
    fn analyzed(html: &str) -> crate::document::Document {
        use crate::document::Meta;
        use crate::analyze::{Config, Page, StageTimes, analyze};
        let page = Page {
            raw: html.as_bytes(),
            payload: html.as_bytes(),
            http_charset: None,
            meta: Meta::default(),
        };
        let models = crate::classify::Models::builtin();
        analyze(
            page,
            &models,
            &Config::default(),
            &mut StageTimes::default(),
        )
        .unwrap()
    }

    #[test]
    fn blocks_against_the_title_and_structured_data() {
        let doc = analyzed(
            r#"<html><head><title>Site | Ignored</title><meta property="og:title" content="Rain in Spain">
            <meta name="description" content="Where the rain falls.">
            <meta property="og:type" content="website">
            <script type="application/ld+json">{"@graph": [{"@type": ["https://schema.org/NewsArticle", "Thing"], "articleBody": "The rain in Spain falls mainly on the plain."}, {"@type": "FAQPage"}]}</script>
            </head><body><nav><a>Home</a></nav><h1>The Rain in Spain</h1>
            <p>The rain in Spain falls mainly on the plain, they say.</p><p>Rain falls where?</p></body></html>"#,
        );
        assert_eq!(doc.page_text.title, "Rain in Spain");
        assert_eq!(
            doc.page_text.body,
            "The rain in Spain falls mainly on the plain.\n"
        );
        assert_eq!(doc.page_text.description, "Where the rain falls.");
        assert_eq!(doc.page_text.kinds, page_kind::ARTICLE | page_kind::GUIDE);
        assert_eq!(page_kind::of("product.item"), page_kind::PRODUCT);
        assert_eq!(page_kind::of("video.movie"), 0);
        assert_eq!(
            page_kind::of("http://schema.org/Product"),
            page_kind::PRODUCT
        );
        let rows = text_features(&doc.blocks, &doc.page_text);
        let texts: Vec<&str> = doc.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts.len(), 4, "{texts:?}");
        // The heading has every title word and only title words: the title block.
        assert_eq!(rows[1][..3], [1.0, 0.75, 1.0]);
        // Distances to it, over 4 blocks, and before it.
        assert_eq!(
            rows.iter().map(|r| r[3]).collect::<Vec<_>>(),
            [-0.25, 0.0, 0.25, 0.5]
        );
        assert_eq!(
            rows.iter().map(|r| r[4]).collect::<Vec<_>>(),
            [1.0, 0.0, 0.0, 0.0]
        );
        // The paragraph's words in the body (9 of 11); the last block's words are all in the
        // description.
        assert!(rows.iter().all(|r| r[5] == 1.0));
        assert!((rows[2][6] - 9.0 / 11.0).abs() < 1e-6, "{}", rows[2][6]);
        assert_eq!(rows[3][7], 1.0);
        // "The", "rain", "falls" and "the": words are counted as often as they occur.
        assert!((rows[2][7] - 4.0 / 11.0).abs() < 1e-6, "{}", rows[2][7]);
        // Without a title, structured data or description: no title block, and −1 shares.
        let bare = text_features(&doc.blocks, &PageText::default());
        assert!(
            bare.iter()
                .all(|r| r[..5] == [0.0; 5] && r[5..] == [0.0, -1.0, -1.0])
        );
    }

    #[test]
    fn chinese_words_against_the_title_are_characters() {
        let doc = analyzed(
            r#"<html><head><title>新图书馆下月开放</title></head><body><nav><a>首页</a></nav>
            <h1>新图书馆下月开放</h1><p>市政府宣布，新图书馆将于明年开放。</p></body></html>"#,
        );
        let rows = text_features(&doc.blocks, &doc.page_text);
        assert_eq!(rows.len(), 3);
        // The heading has all 8 title words (characters) and nothing else: the title block.
        assert_eq!(rows[1][..3], [1.0, 1.0, 1.0]);
        // The paragraph has 6 of the title's 8 characters (not 下 and 月) among its 15 words.
        assert!((rows[2][0] - 6.0 / 8.0).abs() < 1e-6, "{}", rows[2][0]);
        assert!((rows[2][1] - 6.0 / 15.0).abs() < 1e-6, "{}", rows[2][1]);
        // The menu has none.
        assert_eq!(rows[0][..2], [0.0, 0.0]);
    }

    #[test]
    fn log1p_of_counts_from_the_table_is_ln_1p() {
        for x in [
            0.0, 1.0, 2.0, 17.0, 4095.0, 4096.0, 1e6, 0.5, 2.25, -0.5, -1.0,
        ] {
            assert_eq!(log1p(x).to_bits(), (x.ln_1p() as f32).to_bits(), "{x}");
        }
        for i in 0..5000 {
            let x = i as f64;
            assert_eq!(log1p(x).to_bits(), (x.ln_1p() as f32).to_bits(), "{x}");
        }
    }

    #[test]
    fn blocks_of_the_same_kind() {
        let doc = analyzed(
            r#"<body><ul class="cards"><li class="c1"><a href=/1>First card</a><li class="c2"><a href=/2>Second card</a>
            <li class="c3"><a href=/3>First card</a></ul>
            <div class="text"><p>One paragraph of words here.</p><p>Another one.</p></div></body>"#,
        );
        let rows = kind_features(&doc.blocks);
        assert_eq!(rows.len(), 5);
        let total = 6.0 + 7.0;
        // Three cards of 2 words, all linked; two paragraphs of 5 and 2 words.
        assert!((rows[0][0] - 2f32.ln_1p()).abs() < 1e-6);
        assert!((rows[0][1] - (6.0 / total) as f32).abs() < 1e-6);
        assert_eq!(rows[0][2], 1.0);
        assert!((rows[0][3] - 2f32.ln_1p()).abs() < 1e-6);
        assert!((rows[3][0] - 1f32.ln_1p()).abs() < 1e-6 && rows[3][2] == 0.0);
        // The first and third card have the same text.
        assert!(rows[0][4] > 0.0 && rows[2][4] == rows[0][4] && rows[1][4] == 0.0);
        // Cards sit deeper than paragraphs; the deepest block's relative depth is 1.
        assert!(rows[0][5] > rows[3][5] && rows[0][6] == 1.0 && rows[3][6] < 1.0);
    }

    #[test]
    fn every_feature_has_a_name() {
        let names = feature_names();
        assert_eq!(names.len(), N_FEATURES + N_CONTEXT);
        let distinct: FxHashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "names repeat");
        assert_eq!(names[N_FEATURES], "first.p");
        assert_eq!(feature_index("in_main_region"), Some(IN_MAIN_REGION_AT));
        assert_eq!(feature_index("first.p"), None, "a second-stage input");
    }

    /// Where `in_main_region` was before the features were named (the shipped model's
    /// column): naming them moved nothing.
    const IN_MAIN_REGION_AT: usize = 113;

    /// Each group writes one value per name, on every block of a page.
    #[test]
    fn each_feature_group_writes_a_value_per_name() {
        let doc = analyzed(
            r#"<html><head><title>Rain</title></head><body><nav><a href=/>Home</a></nav>
            <main><h1>Rain</h1><p>The rain in Spain falls mainly on the plain.</p>
            <ul><li>One item</li><li>Another item</li></ul></main>
            <footer>Copyright 2024 Example</footer></body></html>"#,
        );
        let shared = SharedRows::of(&doc.blocks, &doc.regions);
        let view = View::new(&doc.blocks, &doc.page_text, &shared);
        for (g, group) in GROUPS.iter().enumerate() {
            let names = (group.names)();
            for i in 0..doc.blocks.len() {
                let mut out = Vec::new();
                (group.values)(&view, i, &mut out);
                assert_eq!(out.len(), names.len(), "group {g} ({names:?}), block {i}");
            }
        }
    }

    #[test]
    fn explanations_add_up_to_the_margin() {
        let doc = analyzed(
            r#"<html><head><title>Rain</title></head><body><nav><a href=/>Home</a> <a href=/b>About us</a></nav>
            <article><h1>Rain</h1><p>The rain in Spain falls mainly on the plain, and it has done
            so for as long as anyone here remembers, they say.</p></article>
            <footer>Copyright 2024 Example</footer></body></html>"#,
        );
        let model = crate::classify::Models::builtin();
        let model = model.combined();
        let shared = SharedRows::of(&doc.blocks, &doc.regions);
        let all = model.explain(&doc.blocks, &doc.regions, &doc.page_text, &shared, usize::MAX);
        let x = features(&doc.blocks, &doc.page_text, &shared);
        let p = model.first.predict_rows(&x);
        let rows = stacked(&x, &context(&doc.blocks, &doc.regions, &p));
        let bias = model.second.expected_margin();
        for ((b, why), row) in doc
            .blocks
            .iter()
            .zip(&all)
            .zip(rows.chunks_exact(N_FEATURES + N_CONTEXT))
        {
            let margin: f32 = bias + why.iter().map(|(_, v)| v).sum::<f32>();
            let p = model.second.predict_rows(row)[0];
            assert!(
                (1.0 / (1.0 + (-margin).exp()) - p).abs() < 1e-4,
                "{margin} {p}"
            );
            assert!((b.bpv - p).abs() < 1e-6);
            assert!(why.windows(2).all(|w| w[0].1.abs() >= w[1].1.abs()));
        }
        let top = model.explain(&doc.blocks, &doc.regions, &doc.page_text, &shared, 3);
        assert!(
            top.iter()
                .zip(&all)
                .all(|(t, a)| t.len() <= 3 && t[..] == a[..t.len()])
        );
    }

    #[test]
    fn cues_of_the_block_and_of_its_page() {
        let doc = analyzed(
            r#"<body><nav><ul><li><a href=/>Home</a></li></ul></nav>
            <div class="entry"><p>One two three four five six seven eight.</p></div>
            <div id="comments"><p>Nine ten eleven twelve.</p><p>Thirteen fourteen.</p></div>
            <footer><p>Fifteen sixteen.</p></footer></body>"#,
        );
        let texts: Vec<&str> = doc.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts.len(), 5, "{texts:?}");
        let rows = cue_features(&doc.blocks);
        let bit = |c: u32| c.trailing_zeros() as usize;
        let total = 1.0 + 8.0 + 4.0 + 2.0 + 2.0;
        // The page: a seventeenth of its words in navigation, six in comments.
        for row in &rows {
            assert!((row[cue::COUNT + bit(cue::NAV)] - 1.0 / total).abs() < 1e-6);
            assert!((row[cue::COUNT + bit(cue::COMMENT)] - 6.0 / total).abs() < 1e-6);
        }
        // Near cues: the comment's paragraphs sit in the comments' div, the footer's text in
        // the footer; the article's paragraph in neither.
        assert_eq!(rows[2][bit(cue::COMMENT)], 1.0);
        assert_eq!(rows[1][bit(cue::COMMENT)], 0.0);
        assert_eq!(rows[4][bit(cue::FOOTER)], 1.0);
        // Running text: only the article's paragraph is (the comments and footer are not).
        let k = 2 * cue::COUNT;
        assert_eq!(rows[1][k..], [0.0, 0.0, 0.0]);
        assert!((rows[2][k] - 8.0 / total).abs() < 1e-6 && rows[2][k + 1] == 0.0);
        assert!(rows[0][k] == 0.0 && (rows[0][k + 1] - 8.0 / total).abs() < 1e-6);
        // Comment words before: none before the first comment, its 4 words before the second.
        assert_eq!(rows[2][k + 2], 0.0);
        assert!((rows[3][k + 2] - 4.0 / total).abs() < 1e-6);
    }

    fn stage(features: usize, leaf: f32) -> String {
        format!("cowrex-gbt 1 {features} 1 0.0\n={leaf:?}\n")
    }

    #[test]
    fn two_stage_models_parse_and_check_their_widths() {
        let text = stage(N_FEATURES, 0.5) + &stage(N_FEATURES + N_CONTEXT, -2.0);
        let m = Model::parse(&text).unwrap();
        assert_eq!(m.to_text(), text);
        assert_eq!(m.predict(&[], &[], &PageText::default(), &SharedRows::of(&[], &[])), Vec::<f32>::new());
        let err = |t: &str| Model::parse(t).unwrap_err().0;
        assert!(err(&stage(N_FEATURES, 0.5)).contains("two cowrex-gbt models"));
        let swapped = stage(N_FEATURES + N_CONTEXT, 0.5) + &stage(N_FEATURES, 0.5);
        assert!(
            err(&swapped).contains(&format!(
                "cowrex computes {N_FEATURES} and {}",
                N_FEATURES + N_CONTEXT
            )),
            "{}",
            err(&swapped)
        );
        assert!(Model::parse(&(stage(N_FEATURES, 0.5) + "cowrex-gbt 1\n")).is_err());
    }

    #[test]
    fn stacked_rows_append_the_context() {
        let x: Vec<f32> = (0..2 * N_FEATURES).map(|v| v as f32).collect();
        let c: Vec<f32> = (0..2 * N_CONTEXT).map(|v| -(v as f32)).collect();
        let rows = stacked(&x, &c);
        assert_eq!(rows.len(), 2 * (N_FEATURES + N_CONTEXT));
        let second = &rows[N_FEATURES + N_CONTEXT..];
        assert_eq!(second[0], N_FEATURES as f32);
        assert_eq!(second[N_FEATURES], -(N_CONTEXT as f32));
    }
}

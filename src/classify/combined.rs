//! The combined model: gradient-boosted trees ([`super::gbt`]) over every detector's output and
//! the cues around a block — texrex's 37 features and MLP score, the n-gram score, jusText's
//! classes and stop-word density, boilerpipe's word counts, link and text densities of the
//! previous, current and next block and its decisions, the structural cues of the markup
//! ([`crate::html::cue`]), the block's position in the page, its neighbours' scores, and the
//! regions of the page it is in (the elements whose text spans several blocks).
//!
//! [`features`] is the one definition of the model's input, for training and for scoring.

use super::gbt::Gbt;
use super::justext::Class;
use crate::document::Block;
use crate::html::cue;

/// Number of features per block.
pub const N_FEATURES: usize = 110;

fn log1p(x: f64) -> f32 {
    (x.ln_1p()) as f32
}

/// Features of a block from the regions around it: for its innermost and second innermost
/// region, the region's blocks, its share of the page's words, its link density, the share of
/// its words in blocks jusText keeps, and the block's share of its words; then whether the
/// block is in the main region (the smallest region whose words in blocks jusText or
/// boilerpipe keep most outnumber the rest), that region's share of the words, and how many regions hold the
/// block. `regions` are inclusive block ranges sorted by start, outer first.
const REGION_FEATURES: usize = 13;

fn region_features(blocks: &[Block], regions: &[(u32, u32)]) -> Vec<[f32; REGION_FEATURES]> {
    let n = blocks.len();
    // Prefix sums of words, link words, words jusText keeps, and kept minus other words.
    let mut sums = vec![[0f64; 4]; n + 1];
    for (i, b) in blocks.iter().enumerate() {
        let words = b.boilerpipe.0.words as f64;
        let good = b.justext.class == Class::Good;
        let kept = good || b.boilerpipe.1.num_words;
        let row = [
            words,
            b.boilerpipe.0.link_words as f64,
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
    let (mut open, mut next) = (Vec::new(), 0);
    for (i, row) in out.iter_mut().enumerate() {
        let at = i as u32;
        while next < regions.len() && regions[next].0 <= at {
            while open
                .last()
                .is_some_and(|r: &(u32, u32)| r.1 < regions[next].0)
            {
                open.pop();
            }
            open.push(regions[next]);
            next += 1;
        }
        while open.last().is_some_and(|r| r.1 < at) {
            open.pop();
        }
        let words = blocks[i].boilerpipe.0.words as f64;
        let holding = || open.iter().rev().filter(|r| r.1 >= at);
        for (level, r) in holding().take(2).enumerate() {
            let w = sum(*r, 0).max(1.0);
            row[level * 5..level * 5 + 5].copy_from_slice(&[
                log1p((r.1 - r.0 + 1) as f64),
                (sum(*r, 0) / total) as f32,
                (sum(*r, 1) / w) as f32,
                (sum(*r, 2) / w) as f32,
                (words / w) as f32,
            ]);
        }
        if let Some(m) = main {
            row[10] = f32::from(u8::from(m.0 <= at && at <= m.1));
            row[11] = (sum(m, 0) / total) as f32;
        }
        row[12] = log1p(holding().count() as f64);
    }
    out
}

/// The model's input rows for a document's blocks, row-major ([`N_FEATURES`] per block);
/// `regions` as in [`crate::document::Document::regions`].
pub fn features(blocks: &[Block], regions: &[(u32, u32)]) -> Vec<f32> {
    let n = blocks.len();
    let region = region_features(blocks, regions);
    let mut out = Vec::with_capacity(n * N_FEATURES);
    let total_chars: usize = blocks.iter().map(|b| b.chars).sum::<usize>().max(1);
    let total_words: u32 = blocks
        .iter()
        .map(|b| b.boilerpipe.0.words)
        .sum::<u32>()
        .max(1);
    let largest = (0..n)
        .max_by_key(|&i| (blocks[i].boilerpipe.0.words, std::cmp::Reverse(i)))
        .unwrap_or(0);
    let ngram = |b: &Block| b.ngram.map_or(0.0, |s| s.clamp(-10.0, 10.0));
    let good = |b: &Block| b.justext.class == Class::Good;
    let good_words: f32 = blocks
        .iter()
        .filter(|b| good(b))
        .map(|b| b.boilerpipe.0.words as f32)
        .sum();
    let article_blocks = blocks.iter().filter(|b| b.cues & cue::ARTICLE != 0).count() as f32;
    // The first and last blocks jusText keeps: before the first is 2, after the last 1.
    let first_good = blocks.iter().position(good).unwrap_or(n);
    let last_good = blocks.iter().rposition(good).unwrap_or(0);
    let mut chars_before = 0usize;
    for (i, b) in blocks.iter().enumerate() {
        let start = out.len();
        out.extend(b.features.iter().map(|&f| f as f32));
        out.push(b.mlp);
        out.push(ngram(b));
        out.push(f32::from(u8::from(b.ngram.is_none())));
        let jt = b.justext;
        for c in [Class::Bad, Class::Good, Class::Short, Class::NearGood] {
            out.push(f32::from(u8::from(jt.context_free == c)));
        }
        out.push(f32::from(u8::from(jt.class == Class::Good)));
        out.push(jt.stopword_density as f32);
        let at = |k: Option<usize>| k.and_then(|k| blocks.get(k));
        let around = [at(i.checked_sub(1)), Some(b), at(Some(i + 1))];
        for nb in around {
            out.push(nb.map_or(0.0, |x| log1p(x.boilerpipe.0.words as f64)));
        }
        for nb in around {
            out.push(nb.map_or(0.0, |x| x.boilerpipe.0.link_density() as f32));
        }
        for nb in around {
            out.push(nb.map_or(0.0, |x| x.boilerpipe.0.text_density as f32));
        }
        let d = b.boilerpipe.1;
        for flag in [d.densitometric, d.num_words, d.cleaneval, d.largest] {
            out.push(f32::from(u8::from(flag)));
        }
        for bit in 0..cue::COUNT {
            out.push(f32::from(u8::from(b.cues & (1 << bit) != 0)));
        }
        out.push(i as f32 / n as f32);
        out.push(chars_before as f32 / total_chars as f32);
        out.push(log1p(b.chars as f64));
        out.push(b.chars as f32 / total_chars as f32);
        for nb in [around[0], around[2]] {
            out.push(nb.map_or(1.0, |x| x.mlp));
        }
        for nb in [around[0], around[2]] {
            out.push(nb.map_or(0.0, ngram));
        }
        out.push(f32::from(u8::from(b.paragraph_start)));
        out.push(log1p(n as f64));
        // A window of five blocks: mean MLP and n-gram scores.
        let window = blocks[i.saturating_sub(2)..(i + 3).min(n)].iter();
        let k = window.len() as f32;
        out.push(window.clone().map(|x| x.mlp).sum::<f32>() / k);
        out.push(window.map(ngram).sum::<f32>() / k);
        out.push(b.boilerpipe.0.words as f32 / total_words as f32);
        out.push((i as f32 - largest as f32) / n as f32);
        // A window of seven blocks: how much of it the other detectors keep.
        let wide = &blocks[i.saturating_sub(3)..(i + 4).min(n)];
        let k = wide.len() as f32;
        let share = |f: &dyn Fn(&Block) -> bool| wide.iter().filter(|x| f(x)).count() as f32 / k;
        out.push(share(&|x| x.justext.class == Class::Good));
        out.push(share(&|x| x.boilerpipe.1.num_words));
        out.push(share(&|x| x.mlp <= 0.5));
        out.push(
            wide.iter()
                .map(|x| x.boilerpipe.0.link_density() as f32)
                .sum::<f32>()
                / k,
        );
        out.push(
            wide.iter()
                .map(|x| x.justext.stopword_density as f32)
                .sum::<f32>()
                / k,
        );
        // The page as a whole.
        out.push(good_words / total_words as f32);
        out.push(article_blocks / n as f32);
        out.push(f32::from(u8::from(i > last_good)) + f32::from(u8::from(i < first_good)) * 2.0);
        out.extend_from_slice(&region[i]);
        chars_before += b.chars;
        assert_eq!(out.len() - start, N_FEATURES, "feature count");
    }
    out
}

/// Set every block's `bpv` to the model's probability that it is boilerplate.
pub fn score(blocks: &mut [Block], regions: &[(u32, u32)], model: &Gbt) {
    let x = features(blocks, regions);
    for (b, p) in blocks.iter_mut().zip(model.predict_rows(&x)) {
        b.bpv = p;
    }
}

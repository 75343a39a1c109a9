//! Training from the development sets (`../shared/data`): the combined model (two stages,
//! stacked, calibrated), the markup model, the n-gram models' counts, and the cross-validation
//! of each by folds of pages, sites or sources. The gold pages, their block labels and the
//! measures are [`crate::eval`]'s.

use crate::classify::ngram::{Counts, NgramModel};
use crate::classify::{Models, combined, comment, gbt, markup, ngram};
use crate::document::{self, Block, Document};
use crate::error::Error;
use crate::eval::{GoldPage, blocks_of, read_page};

/// Training rows of `width` values per block from the labelled blocks of the pages `use_page`
/// selects (a block's label is its share of content; [`crate::eval::page_block_labels`]); `rows` gives page
/// `i`'s rows. Each page weighs as many blocks as it has labelled, spread over them by their
/// words, as the bag-of-words F1 per page weighs them. A block enters as content with its
/// weight times its share and as boilerplate with the rest (a soft target for the logistic
/// loss); a block labelled 1 or 0 enters once.
fn training_data(
    docs: &[Option<Document>],
    labels: &[Vec<Option<f32>>],
    page_weight: &[f64],
    use_page: impl Fn(usize) -> bool,
    width: usize,
    rows: impl Fn(usize) -> Vec<f32>,
) -> gbt::Data {
    let mut data = gbt::Data::new(width);
    for (i, (d, l)) in docs.iter().zip(labels).enumerate() {
        if !use_page(i) {
            continue;
        }
        let blocks = blocks_of(d);
        let x = rows(i);
        let (words, labelled) = labelled_weight(blocks, l);
        for ((b, label), row) in blocks.iter().zip(l).zip(x.chunks_exact(width)) {
            if let Some(share) = label {
                let w = page_weight[i] * labelled * (1.0 + b.stats.words as f64) / words;
                let share = f64::from(*share);
                if share > 0.0 {
                    data.push(row, false, (w * share) as f32);
                }
                if share < 1.0 {
                    data.push(row, true, (w * (1.0 - share)) as f32);
                }
            }
        }
    }
    data
}

/// Each of `jobs` training jobs' size: the labelled blocks (`page_size[i]`: page `i`'s) of the
/// pages job `j` trains on (`in_job(j, i)`), to start the largest first
/// ([`crate::parallel::map_largest_first`]).
fn job_sizes(jobs: usize, page_size: &[u64], in_job: impl Fn(usize, usize) -> bool) -> Vec<u64> {
    (0..jobs)
        .map(|j| {
            (0..page_size.len())
                .filter(|&i| in_job(j, i))
                .map(|i| page_size[i])
                .sum()
        })
        .collect()
}

/// Whether training job `job` takes page `i` (of fold `fold[i]`): job 0 every page with a
/// fold, job `f + 1` those out of fold `f`.
fn in_job(fold: &[Option<usize>], job: usize, i: usize) -> bool {
    fold[i].is_some_and(|f| f + 1 != job)
}

/// Each page's labelled blocks, for [`job_sizes`].
fn labelled_blocks(labels: &[Vec<Option<f32>>]) -> Vec<u64> {
    labels
        .iter()
        .map(|l| l.iter().filter(|l| l.is_some()).count() as u64)
        .collect()
}

/// Each page's blocks with comment labels, for [`job_sizes`].
fn comment_labelled_blocks(labels: &[Option<Vec<bool>>]) -> Vec<u64> {
    labels
        .iter()
        .map(|l| l.as_ref().map_or(0, |l| l.len() as u64))
        .collect()
}

/// Folds over the training pages for the first stage's out-of-fold probabilities.
const STACK_FOLDS: usize = 3;

/// The fold of every page (`None` for pages `used` leaves out) and the number of folds:
/// [`STACK_FOLDS`] folds by the used pages' order or, `by_source` when the used pages come from
/// two sources (development sets) or more, one fold per source, numbered in the sources' order.
fn folds(used: &[bool], sources: &[usize], by_source: bool) -> (Vec<Option<usize>>, usize) {
    let mut kinds: Vec<usize> = (0..used.len())
        .filter(|&i| used[i])
        .map(|i| sources[i])
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    if by_source && kinds.len() >= 2 {
        let fold_of = (0..used.len())
            .map(|i| used[i].then(|| kinds.binary_search(&sources[i]).expect("a used source")))
            .collect();
        return (fold_of, kinds.len());
    }
    let mut next = 0;
    let fold_of = used
        .iter()
        .map(|&u| {
            u.then(|| {
                next += 1;
                (next - 1) % STACK_FOLDS
            })
        })
        .collect();
    (fold_of, STACK_FOLDS)
}

/// The first stage's training: a smaller, cheaper model than the second's `cfg`.
fn first_stage(cfg: gbt::TrainConfig) -> gbt::TrainConfig {
    gbt::TrainConfig {
        trees: 100,
        depth: 6,
        learning_rate: 0.2,
        ..cfg
    }
}

/// How the combined model is trained.
#[derive(Debug, Clone, Copy, Default)]
pub struct CombinedTraining {
    /// The main stage's trees (the first stage's are smaller: `first_stage`).
    pub gbt: gbt::TrainConfig,
    /// Each page weighs as many blocks as it has labelled, so sources (development sets) of
    /// long pages weigh more; by default every source weighs the same.
    pub weigh_blocks: bool,
}

/// Each page's weight in training: what makes every source's labelled blocks among the `used`
/// pages weigh the same in all, or 1 without `balance`.
fn page_weights(
    labels: &[Vec<Option<f32>>],
    sources: &[usize],
    used: &[bool],
    balance: bool,
) -> Vec<f64> {
    if !balance {
        return vec![1.0; labels.len()];
    }
    let mut per_source: std::collections::BTreeMap<usize, f64> = Default::default();
    let labelled = |i: usize| labels[i].iter().filter(|l| l.is_some()).count() as f64;
    for i in (0..labels.len()).filter(|&i| used[i]) {
        *per_source.entry(sources[i]).or_default() += labelled(i);
    }
    let mean = per_source.values().sum::<f64>() / per_source.len().max(1) as f64;
    (0..labels.len())
        .map(|i| match per_source.get(&sources[i]) {
            Some(&total) if total > 0.0 => mean / total,
            _ => 1.0,
        })
        .collect()
}

/// Train the combined model on the labelled blocks of the pages `use_page` selects; page `i`
/// comes from source (development set) `sources[i]`. The second stage learns from
/// first-stage probabilities that models trained without the page give it (`STACK_FOLDS`
/// folds over the training pages, trained on up to `threads` threads), as unseen pages will
/// get. The main stage's probabilities are calibrated: its margins are divided by the
/// `calibration_temperature` of the probabilities that main models trained without the
/// page's source give it (one fold per source; `STACK_FOLDS` folds over the pages when they
/// come from one source), so that they are calibrated for pages of a source the model has not
/// seen. The temperature is fitted on the pages whose every block has its chance of a label
/// (not `partial[i]`): a page with snippet gold labels only the blocks its snippets touch, a
/// sample of the clearest content and of boilerplate chosen to be hard, which says little about
/// how sure the model should be of a block. `rows[i]` are page `i`'s [`combined::features`].
/// Returns the model and that temperature.
#[allow(clippy::too_many_arguments)]
pub fn train_combined(
    docs: &[Option<Document>],
    labels: &[Vec<Option<f32>>],
    rows: &[Vec<f32>],
    sources: &[usize],
    partial: &[bool],
    use_page: impl Fn(usize) -> bool,
    training: CombinedTraining,
    threads: usize,
) -> (combined::Model, f32) {
    let cfg = training.gbt;
    let selected: Vec<bool> = (0..docs.len()).map(&use_page).collect();
    let weight = page_weights(labels, sources, &selected, !training.weigh_blocks);
    let (stack_fold, stack_folds) = folds(&selected, sources, false);
    let (calibration_fold, calibration_folds) = folds(&selected, sources, true);
    let first_cfg = first_stage(cfg);
    let base = |i: usize| rows[i].clone();
    // Job 0 trains a stage on every used page (a page has a fold if and only if it is used),
    // job f + 1 on the pages out of fold f, all beside each other, the largest first.
    let page_size = labelled_blocks(labels);
    let sizes = job_sizes(stack_folds + 1, &page_size, |j, i| {
        in_job(&stack_fold, j, i)
    });
    let mut models = crate::parallel::map_largest_first(&sizes, threads, |job| {
        let out_of_fold = |i: usize| in_job(&stack_fold, job, i);
        let data = training_data(
            docs,
            labels,
            &weight,
            out_of_fold,
            combined::N_FEATURES,
            base,
        );
        gbt::train(&data, first_cfg)
    });
    let first = models.remove(0);
    let p: Vec<Vec<f32>> = (0..docs.len())
        .map(|i| stack_fold[i].map_or_else(Vec::new, |f| models[f].predict_rows(&rows[i])))
        .collect();
    let used = |i: usize| selected[i];
    let width = combined::N_FEATURES + combined::N_CONTEXT;
    let stacked = |i: usize| {
        let (blocks, regions) = (blocks_of(&docs[i]), regions_of(&docs[i]));
        combined::stacked(&rows[i], &combined::context(blocks, regions, &p[i]))
    };
    // The main stage's probabilities for sources it was not trained on, to calibrate the final
    // one's; job 0 trains that final one, as in the first stage.
    let sizes = job_sizes(calibration_folds + 1, &page_size, |j, i| {
        in_job(&calibration_fold, j, i)
    });
    let mut mains = crate::parallel::map_largest_first(&sizes, threads, |job| {
        let out_of_fold = |i: usize| in_job(&calibration_fold, job, i);
        gbt::train(
            &training_data(docs, labels, &weight, out_of_fold, width, stacked),
            cfg,
        )
    });
    let second = mains.remove(0);
    // Rows of one value: the block's probability from the main model trained without its fold.
    let held = training_data(
        docs,
        labels,
        &weight,
        |i| used(i) && !partial[i],
        1,
        |i| mains[calibration_fold[i].expect("a training page")].predict_rows(&stacked(i)),
    );
    let temperature = calibration_temperature(&held.x, &held.y, &held.w);
    let model = combined::Model {
        first,
        second: second.tempered(temperature),
    };
    (model, temperature)
}

/// The temperature `T` that makes probabilities `p` (of the positive class `y`, with weights
/// `w`) best calibrated: the one minimising the weighted log loss of `sigmoid(logit(p) / T)`,
/// to 0.01 between 0.5 and 5.
fn calibration_temperature(p: &[f32], y: &[bool], w: &[f32]) -> f32 {
    let logits: Vec<f64> = p
        .iter()
        .map(|&p| {
            let p = (p as f64).clamp(1e-7, 1.0 - 1e-7);
            (p / (1.0 - p)).ln()
        })
        .collect();
    let loss = |t: f64| -> f64 {
        logits
            .iter()
            .zip(y)
            .zip(w)
            .map(|((&z, &y), &w)| {
                // -log sigmoid(±z/t), computed stably.
                let m = if y { z / t } else { -z / t };
                w as f64 * ((-m.abs()).exp().ln_1p() + (-m).max(0.0))
            })
            .sum()
    };
    (50..=500)
        .map(|k| k as f64 / 100.0)
        .map(|t| (t, loss(t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(1.0, |(t, _)| t as f32)
}

/// The combined model's input rows of each page ([`combined::features`]).
pub fn feature_rows(docs: &[Option<Document>]) -> Vec<Vec<f32>> {
    docs.iter()
        .map(|d| match d {
            Some(d) => combined::features(&d.blocks, &d.page_text, &shared_rows(d)),
            None => Vec::new(),
        })
        .collect()
}

fn regions_of(doc: &Option<Document>) -> &[(u32, u32)] {
    doc.as_ref().map_or(&[][..], |d| &d.regions[..])
}

/// The site of a page for [`Folds::by_site`]: the host name of its URL, else of the canonical
/// URL its markup gives, without a leading `www.`.
pub fn site(url: &str, doc: Option<&Document>) -> Option<String> {
    let host = |u: &str| {
        let h = u
            .contains("://")
            .then(|| crate::document::host_and_tld(u).0)?;
        (!h.is_empty()).then_some(h)
    };
    let h = host(url).or_else(|| doc?.metadata.canonical.as_deref().and_then(host))?;
    Some(h.strip_prefix("www.").map(str::to_owned).unwrap_or(h))
}

/// An assignment of pages to folds for cross-validation: page `i` is in fold `of[i]`, and
/// each fold is scored by models trained on the other folds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folds {
    /// Each page's fold.
    pub of: Vec<usize>,
    /// Number of folds.
    pub count: usize,
}

impl Folds {
    /// `k` folds by page: page `i` in fold `i mod k`.
    pub fn by_page(pages: usize, k: usize) -> Folds {
        Folds {
            of: (0..pages).map(|i| i % k).collect(),
            count: k,
        }
    }

    /// `k` folds by site, so that no page is scored by a model trained on a page of its site:
    /// the pages of one site (`sites[i]`, a host name) share the fold a hash of the host picks;
    /// a page without a site is in fold `i mod k`, as by page.
    pub fn by_site(sites: &[Option<String>], k: usize) -> Folds {
        Folds {
            of: sites
                .iter()
                .enumerate()
                .map(|(i, s)| match s {
                    Some(host) => (xxhash_rust::xxh3::xxh3_64(host.as_bytes()) % k as u64) as usize,
                    None => i % k,
                })
                .collect(),
            count: k,
        }
    }

    /// One fold per source (leave one source out): page `i` in fold `sources[i]`, numbered in
    /// the sources' order; sources without pages get no fold.
    pub fn by_source(sources: &[usize]) -> Folds {
        let mut kinds = sources.to_vec();
        kinds.sort_unstable();
        kinds.dedup();
        Folds {
            of: sources
                .iter()
                .map(|s| kinds.binary_search(s).expect("a listed source"))
                .collect(),
            count: kinds.len(),
        }
    }
}

/// Cross-validate the combined model: each page's blocks' `bpv` are replaced by a model
/// trained on the labelled pages of the other folds ([`train_combined`]; page `i` comes from
/// source `sources[i]`, its labels are `partial[i]`). Folds train on up to `threads` threads.
pub fn cross_validate_combined(
    docs: &mut [Option<Document>],
    labels: &[Vec<Option<f32>>],
    sources: &[usize],
    partial: &[bool],
    folds: &Folds,
    training: CombinedTraining,
    threads: usize,
) {
    let k = folds.count;
    let shared: &[Option<Document>] = docs;
    let rows = feature_rows(shared);
    let sizes = job_sizes(k, &labelled_blocks(labels), |fold, i| folds.of[i] != fold);
    let models = crate::parallel::map_largest_first(&sizes, threads, |fold| {
        let (model, temperature) = train_combined(
            shared,
            labels,
            &rows,
            sources,
            partial,
            |i| folds.of[i] != fold,
            training,
            1,
        );
        eprintln!("cowrex: fold {fold}: calibrated at temperature {temperature}");
        model
    });
    for (i, d) in docs.iter_mut().enumerate() {
        if let Some(d) = d {
            let p =
                models[folds.of[i]].predict(&d.blocks, &d.regions, &d.page_text, &shared_rows(d));
            for (b, p) in d.blocks.iter_mut().zip(p) {
                combined::set(b, p);
                b.bpv = p;
            }
        }
    }
}

/// The comment detector's training rows of `width` values per block (`rows(i)`: page `i`'s)
/// from the pages `use_page` selects that have comment labels
/// ([`crate::eval::page_comment_labels`]): each source weighs the same in all, and within a
/// source each block as its words (plus one), so that a long comment weighs more than a
/// "Reply" line.
fn comment_data(
    docs: &[Option<Document>],
    labels: &[Option<Vec<bool>>],
    sources: &[usize],
    use_page: impl Fn(usize) -> bool,
    width: usize,
    rows: impl Fn(usize) -> Vec<f32>,
) -> gbt::Data {
    let used = |i: usize| use_page(i) && labels[i].is_some() && docs[i].is_some();
    let mut per_source: std::collections::BTreeMap<usize, f64> = Default::default();
    for i in (0..docs.len()).filter(|&i| used(i)) {
        let words: f64 = blocks_of(&docs[i])
            .iter()
            .map(|b| 1.0 + b.stats.words as f64)
            .sum();
        *per_source.entry(sources[i]).or_default() += words;
    }
    let mut data = gbt::Data::new(width);
    for i in (0..docs.len()).filter(|&i| used(i)) {
        let weight = 1e6 / per_source[&sources[i]];
        let page = labels[i].as_deref().unwrap_or_default();
        let x = rows(i);
        for ((b, &y), row) in blocks_of(&docs[i])
            .iter()
            .zip(page)
            .zip(x.chunks_exact(width))
        {
            data.push(row, y, (weight * (1.0 + b.stats.words as f64)) as f32);
        }
    }
    data
}

/// Train the comment detector on the comment-labelled blocks of the pages `use_page` selects
/// (page `i` comes from source `sources[i]`), with [`comment::train_config`]. The main stage
/// learns from the context of first-stage probabilities that models trained without the page
/// give it (`STACK_FOLDS` folds over the training pages), as unseen pages will get; the
/// first stage and its fold models train on up to `threads` threads.
pub fn train_comment(
    docs: &[Option<Document>],
    labels: &[Option<Vec<bool>>],
    sources: &[usize],
    use_page: impl Fn(usize) -> bool,
    threads: usize,
) -> comment::Model {
    let cfg = comment::train_config();
    let selected: Vec<bool> = (0..docs.len())
        .map(|i| use_page(i) && labels[i].is_some())
        .collect();
    let (stack_fold, stack_folds) = folds(&selected, sources, false);
    let x: Vec<Vec<f32>> = docs
        .iter()
        .map(|d| {
            d.as_ref().map_or_else(Vec::new, |d| {
                comment::features(&d.blocks, &d.regions, &shared_rows(d))
            })
        })
        .collect();
    let base = |i: usize| x[i].clone();
    let width = comment::N_FEATURES;
    // Job 0 trains the first stage on every used page, job f + 1 on the pages out of fold f
    // (as in `train_combined`).
    let page_size = comment_labelled_blocks(labels);
    let sizes = job_sizes(stack_folds + 1, &page_size, |j, i| {
        in_job(&stack_fold, j, i)
    });
    let mut firsts = crate::parallel::map_largest_first(&sizes, threads, |job| {
        let out_of_fold = |i: usize| in_job(&stack_fold, job, i);
        gbt::train(
            &comment_data(docs, labels, sources, out_of_fold, width, base),
            cfg,
        )
    });
    let first = firsts.remove(0);
    let stacked = |i: usize| {
        let Some(fold) = stack_fold[i] else {
            return Vec::new();
        };
        let (blocks, regions) = (blocks_of(&docs[i]), regions_of(&docs[i]));
        let p = firsts[fold].predict_rows(&x[i]);
        comment::stacked(&x[i], &comment::context(blocks, regions, &p))
    };
    let used = |i: usize| selected[i];
    comment::Model {
        first,
        second: gbt::train(
            &comment_data(
                docs,
                labels,
                sources,
                used,
                width + comment::N_CONTEXT,
                stacked,
            ),
            cfg,
        ),
    }
}

/// How well comment blocks are found on one source's labelled pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CommentFigures {
    /// Pages with comment labels.
    pub pages: usize,
    /// Labelled blocks.
    pub blocks: usize,
    /// Comment blocks found (labelled comment, detected as one)…
    pub found: usize,
    /// …and missed.
    pub missed: usize,
    /// Blocks detected as comments that are not.
    pub false_comments: usize,
    /// The words of those found, missed and falsely detected blocks.
    pub words: [u64; 3],
}

/// Cross-validate the comment detector: each page's blocks get comment probabilities (the
/// `comment` column and [`Block::comment`]) from a model trained on the comment labels of the
/// other folds' pages (by source: leave one source out), trained on up to `threads` threads;
/// returns each source's [`CommentFigures`], in the sources' order.
pub fn cross_validate_comment(
    docs: &mut [Option<Document>],
    labels: &[Option<Vec<bool>>],
    sources: &[usize],
    folds: &Folds,
    threads: usize,
) -> Vec<(usize, CommentFigures)> {
    let shared: &[Option<Document>] = docs;
    let page_size = comment_labelled_blocks(labels);
    let sizes = job_sizes(folds.count, &page_size, |fold, i| folds.of[i] != fold);
    let models = crate::parallel::map_largest_first(&sizes, threads, |fold| {
        train_comment(shared, labels, sources, |i| folds.of[i] != fold, 1)
    });
    let mut figures: std::collections::BTreeMap<usize, CommentFigures> = Default::default();
    for (i, d) in docs.iter_mut().enumerate() {
        let Some(d) = d else { continue };
        let p = models[folds.of[i]].predict(&d.blocks, &d.regions, &shared_rows(d));
        for (b, p) in d.blocks.iter_mut().zip(p) {
            comment::set(b, p);
            b.comment = p >= comment::THRESHOLD;
        }
        let Some(page) = &labels[i] else { continue };
        let f = figures.entry(sources[i]).or_default();
        f.pages += 1;
        for (b, &y) in d.blocks.iter().zip(page) {
            f.blocks += 1;
            let k = match (y, b.comment) {
                (true, true) => {
                    f.found += 1;
                    0
                }
                (true, false) => {
                    f.missed += 1;
                    1
                }
                (false, true) => {
                    f.false_comments += 1;
                    2
                }
                (false, false) => continue,
            };
            f.words[k] += u64::from(b.stats.words);
        }
    }
    figures.into_iter().collect()
}

/// Cross-validate the n-gram models: every block's n-gram score is replaced by one from a
/// model trained (like the one that scored it) on the pages of the other folds. `gold[i]` is
/// the gold text of the page `docs[i]` came from (`None`: the page has snippet gold only and
/// trains nothing).
pub fn cross_validate_ngram(
    gold: &[Option<&str>],
    docs: &mut [Option<Document>],
    models: &Models,
    folds: &Folds,
) {
    for loaded in models.ngram_models() {
        let p = loaded.params;
        let new = || Counts::new(p.order, p.folding);
        let count = |docs: &[Option<Document>], fold: Option<usize>| {
            let (mut clean, mut raw) = (new(), new());
            for (i, (g, d)) in gold.iter().zip(docs.iter()).enumerate() {
                if let Some(g) = g.filter(|_| fold.is_none_or(|f| folds.of[i] == f)) {
                    count_page(g, blocks_of(d), &mut clean, &mut raw);
                }
            }
            (clean, raw)
        };
        let (clean, raw) = count(docs, None);
        for fold in 0..folds.count {
            let (fold_clean, fold_raw) = count(docs, Some(fold));
            let (mut c, mut r) = (clean.clone(), raw.clone());
            c.merge(&fold_clean, -1);
            r.merge(&fold_raw, -1);
            let model = NgramModel::new(p, &c, &Counts::difference(&r, &c));
            for (i, d) in docs.iter_mut().enumerate() {
                let Some(d) = d.as_mut().filter(|_| folds.of[i] == fold) else {
                    continue;
                };
                if !models
                    .ngram(d.language.as_ref())
                    .is_some_and(|m| std::ptr::eq(m, loaded))
                {
                    continue; // scored by the other model
                }
                for b in &mut d.blocks {
                    ngram::set(b, model.score(&b.cleansed));
                }
            }
        }
    }
}

/// Of a page's labelled blocks: their words, each block counted as one word more, and their
/// number. A page weighs as many blocks as it has labelled, spread over them by these words.
fn labelled_weight(blocks: &[Block], labels: &[Option<f32>]) -> (f64, f64) {
    let words: f64 = blocks
        .iter()
        .zip(labels)
        .filter(|(_, l)| l.is_some())
        .map(|(b, _)| 1.0 + b.stats.words as f64)
        .sum();
    let labelled = labels.iter().filter(|l| l.is_some()).count() as f64;
    (words, labelled)
}

/// A hash of a page's host (of its page id when it has no URL), for the markup model's count
/// of hosts.
fn host_key(page: &GoldPage) -> u64 {
    let (host, _) = document::host_and_tld(&page.url);
    let key = if host.is_empty() { &page.id } else { &host };
    xxhash_rust::xxh3::xxh3_64(key.as_bytes())
}

/// The markup model's counts of the labelled blocks of the pages `use_page` selects (hard
/// labels: content when at least half of a block is), each page weighing as many blocks as it
/// has labelled, spread over them by their words (the combined model's `--weigh-blocks`).
fn markup_counts(
    pages: &[&GoldPage],
    docs: &[Option<Document>],
    labels: &[Vec<Option<f32>>],
    use_page: impl Fn(usize) -> bool,
) -> markup::Counts {
    let mut counts = markup::Counts::default();
    for (i, (d, l)) in docs.iter().zip(labels).enumerate() {
        if !use_page(i) {
            continue;
        }
        let blocks = blocks_of(d);
        let (words, labelled) = labelled_weight(blocks, l);
        let host = host_key(pages[i]);
        for (b, label) in blocks.iter().zip(l) {
            if let Some(share) = label {
                let w = labelled * (1.0 + b.stats.words as f64) / words;
                counts.add(&b.markup, *share >= 0.5, w, host);
            }
        }
    }
    counts
}

/// The markup words of the pages (read from their files), to name a model's tokens.
fn markup_words(pages: &[&GoldPage]) -> Result<Vec<Vec<u8>>, Error> {
    let mut words = std::collections::BTreeSet::new();
    for p in pages {
        let html = read_page(&p.path).map_err(|e| Error::input(p.path.display(), e))?;
        words.extend(crate::html::markup_words(&html));
    }
    Ok(words.into_iter().collect())
}

/// Train the markup model on the labelled blocks of the pages ([`crate::eval::page_block_labels`]).
pub fn train_markup(
    pages: &[&GoldPage],
    docs: &[Option<Document>],
    labels: &[Vec<Option<f32>>],
) -> Result<markup::MarkupModel, Error> {
    let mut counts = markup_counts(pages, docs, labels, |_| true);
    counts.name(markup_words(pages)?);
    Ok(counts.model())
}

/// Cross-validate the markup model: every block's markup score is replaced by one from a model
/// trained on the labelled pages of the other folds (words count as seen on a host only on
/// those pages).
pub fn cross_validate_markup(
    pages: &[&GoldPage],
    docs: &mut [Option<Document>],
    labels: &[Vec<Option<f32>>],
    folds: &Folds,
) -> Result<(), Error> {
    let words = markup_words(pages)?;
    for fold in 0..folds.count {
        let mut counts = markup_counts(pages, docs, labels, |i| folds.of[i] != fold);
        counts.name(words.iter().cloned());
        let model = counts.model();
        for (i, d) in docs.iter_mut().enumerate() {
            let Some(d) = d.as_mut().filter(|_| folds.of[i] == fold) else {
                continue;
            };
            for b in &mut d.blocks {
                markup::set(b, model.score(&b.markup));
            }
        }
    }
    Ok(())
}

/// Count a page for NCleaner's differential training: its gold lines as clean segments and
/// every block cowrex found as raw segments.
pub fn count_page(gold: &str, blocks: &[Block], clean: &mut Counts, raw: &mut Counts) {
    for line in gold.lines().map(str::trim).filter(|l| !l.is_empty()) {
        clean.add_segment(line);
    }
    for b in blocks {
        raw.add_segment(&b.cleansed);
    }
}

/// The rows a page's comment and combined features share.
fn shared_rows(d: &Document) -> combined::SharedRows {
    combined::SharedRows::of(&d.blocks, &d.regions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{self, Config, Page, StageTimes};
    use crate::document::Meta;

    #[test]
    fn calibration_temperature_undoes_overconfidence() {
        // Labels drawn with probability q; reported as sigmoid(k · logit q), overconfident for
        // k > 1: the fitted temperature is k.
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        for k in [1.0, 2.0, 3.0] {
            let (mut p, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..40_000 {
                let q = 0.02 + 0.96 * next();
                let z = (q / (1.0 - q)).ln() * k;
                p.push((1.0 / (1.0 + (-z).exp())) as f32);
                y.push(next() < q);
                w.push(1.0);
            }
            let t = calibration_temperature(&p, &y, &w);
            assert!((t as f64 - k).abs() < 0.1 * k, "k {k}: temperature {t}");
        }
    }

    #[test]
    fn folds_by_site_keep_a_site_together() {
        let url = |u: &str| site(u, None);
        assert_eq!(
            url("https://www.example.org/a?b"),
            Some("example.org".into())
        );
        assert_eq!(
            url("http://Blog.Example.org"),
            Some("blog.example.org".into())
        );
        assert_eq!(url(""), None);
        let sites: Vec<Option<String>> = (0..200)
            .map(|i| (i % 4 != 3).then(|| format!("site{}.example", i % 10)))
            .collect();
        let f = Folds::by_site(&sites, 5);
        assert_eq!(f.count, 5);
        for (i, a) in sites.iter().enumerate() {
            match a {
                None => assert_eq!(f.of[i], i % 5),
                Some(_) => {
                    let first = sites.iter().position(|b| b == a).unwrap();
                    assert_eq!(f.of[i], f.of[first], "page {i} left its site's fold");
                }
            }
        }
        // Ten sites spread over more than one fold.
        let used: std::collections::BTreeSet<_> = (0..10).map(|i| f.of[i]).collect();
        assert!(used.len() > 1, "{used:?}");
    }

    #[test]
    fn folds_by_page_order_or_by_source() {
        let used = [true, true, false, true, true, true];
        let sources = [4, 2, 7, 4, 9, 2];
        // Three sources among the used pages (source 7 only on an unused page): one fold each,
        // numbered in the sources' order.
        let (fold_of, n) = folds(&used, &sources, true);
        assert_eq!(n, 3);
        assert_eq!(fold_of, [Some(1), Some(0), None, Some(1), Some(2), Some(0)]);
        // By page order, the unused pages skipped.
        let by_order = (
            vec![Some(0), Some(1), None, Some(2), Some(0), Some(1)],
            STACK_FOLDS,
        );
        assert_eq!(folds(&used, &sources, false), by_order);
        // One source: by page order as well.
        assert_eq!(folds(&used, &[5, 5, 6, 5, 5, 5], true), by_order);
    }

    #[test]
    fn every_source_weighs_the_same() {
        let l = |n: usize| vec![Some(1.0); n];
        // Source 0: 2 + 6 labelled blocks; source 1: 4 (and an unlabelled block); page 2 unused.
        let labels = [l(2), l(6), l(100), [l(4), vec![None]].concat()];
        let (sources, used) = ([0, 0, 1, 1], [true, true, false, true]);
        // A mean of 6 labelled blocks per source: source 0's pages weigh 6/8, source 1's 6/4;
        // the unused page's source counts only its used pages.
        assert_eq!(
            page_weights(&labels, &sources, &used, true),
            [0.75, 0.75, 1.5, 1.5]
        );
        assert_eq!(page_weights(&labels, &sources, &used, false), [1.0; 4]);
    }

    #[test]
    fn training_weighs_pages_by_labelled_blocks_spread_by_words() {
        let html = "<body><div><a href=/>Home</a></div><p>The article itself, long enough to be \
                    content on any reading of the page.</p><p>One more line.</p></body>";
        let page = Page {
            raw: html.as_bytes(),
            payload: html.as_bytes(),
            http_charset: None,
            meta: Meta::default(),
        };
        let cfg = Config::default();
        let doc = analyze::analyze(page, &Models::builtin(), &cfg, &mut StageTimes::default());
        let docs = [doc.ok()];
        let words: Vec<f64> = blocks_of(&docs[0])
            .iter()
            .map(|b| 1.0 + b.stats.words as f64)
            .collect();
        assert_eq!(words.len(), 3);
        // Boilerplate, content, unlabelled: two rows that weigh 2 together, by their words.
        let labels = vec![vec![Some(0.0), Some(1.0), None]];
        let rows = |_| vec![0.5f32; 3];
        let data = training_data(&docs, &labels, &[1.0], |_| true, 1, rows);
        assert_eq!(data.y, [true, false]);
        for k in 0..2 {
            let share = 2.0 * words[k] / (words[0] + words[1]);
            assert!(
                (data.w[k] as f64 - share).abs() < 1e-6,
                "row {k}: {}",
                data.w[k]
            );
        }
        // The two rows' words differ enough that weights ignoring them would fail the above.
        assert!(words[1] > 2.0 * words[0]);
        // Pages not selected give no rows.
        assert!(training_data(&docs, &labels, &[1.0], |_| false, 1, rows).is_empty());
        // A soft label: the block enters as content by its share and as boilerplate by the
        // rest, with the weight of a hard label between them.
        let soft = vec![vec![Some(0.0), Some(0.75), None]];
        let data = training_data(&docs, &soft, &[1.0], |_| true, 1, rows);
        assert_eq!(data.y, [true, false, true]);
        assert_eq!(
            data.w[0],
            training_data(&docs, &labels, &[1.0], |_| true, 1, rows).w[0]
        );
        let whole = 2.0 * words[1] / (words[0] + words[1]);
        assert!(
            (data.w[1] as f64 - 0.75 * whole).abs() < 1e-6,
            "{}",
            data.w[1]
        );
        assert!(
            (data.w[2] as f64 - 0.25 * whole).abs() < 1e-6,
            "{}",
            data.w[2]
        );
    }
}

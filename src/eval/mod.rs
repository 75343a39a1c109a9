//! Evaluation against pages with gold text, in the layout of `../shared/data/pages`:
//! `html/<set>/<page_id>.html[.gz]` and `ground-truth/<set>.jsonl` (one
//! `{"page_id", "plaintext", "url"?, "page_type"?, "with"?, "without"?}` per line).
//!
//! The measure is bag-of-words overlap (`docs/accuracy.md`): lower-cased `\w+` tokens, each
//! ideograph, kana or letter of a script written without spaces a token of its own
//! ([`tokens`]), multiset intersection. Per page, precision = common / extracted tokens, recall = common / gold tokens,
//! F1 = 2·common / (extracted + gold); a page where both are empty scores 1, a page where only
//! one is empty scores 0. Sets report the mean over their pages and the micro-averaged
//! (pooled) figures; the macro figure is the mean over sets.
//!
//! A page may have snippet gold only (`plaintext` null, as in `../shared/data/snippets`):
//! snippets a correct extraction contains (`with`) and snippets it does not (`without`),
//! counted as trafilatura's evaluation counts them ([`Snippets`]). Such pages have no
//! bag-of-words figures, and training takes partial block labels from their snippets
//! ([`labels::snippet_labels`]).
//!
//! Gold text is the page's main content. Dragnet's gold text goes on, after a marker line
//! (`!@#$%^&*()  COMMENTS` and misspellings of it), with the page's user comments; a comment
//! section under an article is not main content (L3S-GN1 labels it boilerplate too), so the gold
//! text ends at that line ([`main_content`]).

pub mod labels;
pub mod sets;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::analyze;
use crate::analyze::{Config, Page, StageTimes};
use crate::classify::mlp::Confusion;
use crate::classify::ngram::{Counts, NgramModel};
use crate::classify::{Models, combined, gbt, markup, ngram};
use crate::document::{self, Block, Document, Meta};
use crate::error::{Error, ErrorKind};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One page with its gold text.
#[derive(Debug, Clone)]
pub struct GoldPage {
    /// The set's `page_id`.
    pub id: String,
    /// The page's URL (empty when the set gives none).
    pub url: String,
    /// The gold text (`plaintext`), cut before a comment section ([`main_content`]); `None`
    /// for a page with snippet gold only.
    pub gold: Option<String>,
    /// The page's HTML file (`html/<set>/<page_id>.html[.gz]`).
    pub path: PathBuf,
    /// The kind of page (WCXB's `page_type`: article, forum, product, …), when the set says.
    pub kind: Option<String>,
    /// Snippets a correct extraction contains (WCXB's `with`)…
    pub with: Vec<String>,
    /// …and snippets it does not contain (`without`).
    pub without: Vec<String>,
}

/// The sets under `dir` (names of `ground-truth/*.jsonl`), sorted.
pub fn list_sets(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut sets: Vec<String> = std::fs::read_dir(dir.join("ground-truth"))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".jsonl"))
                .map(str::to_owned)
        })
        .collect();
    sets.sort();
    Ok(sets)
}

/// The JSON objects of a JSONL text read from `file`, each with its line number (from 1); blank
/// lines are skipped, and a line that is not JSON is an input error naming the file and line.
pub fn jsonl_lines<'a>(
    file: &'a Path,
    text: &'a str,
) -> impl Iterator<Item = Result<(usize, serde_json::Value), Error>> + 'a {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(move |(n, line)| {
            serde_json::from_str(line).map(|v| (n + 1, v)).map_err(|e| {
                Error::new(
                    ErrorKind::Input,
                    format!("{}:{}: {e}", file.display(), n + 1),
                )
                .caused_by(e)
            })
        })
}

/// The pages of one set, in the order of its ground-truth file. Lines without a page file are
/// reported in the second value.
pub fn load_set(dir: &Path, set: &str) -> Result<(Vec<GoldPage>, Vec<String>), Error> {
    let gt = dir.join("ground-truth").join(format!("{set}.jsonl"));
    let text = std::fs::read_to_string(&gt).map_err(|e| Error::input(gt.display(), e))?;
    let (mut pages, mut missing) = (Vec::new(), Vec::new());
    for line in jsonl_lines(&gt, &text) {
        let (n, v) = line?;
        let field = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_owned);
        let list = |k: &str| -> Vec<String> {
            v.get(k)
                .and_then(|x| x.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str())
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        let (with, without) = (list("with"), list("without"));
        let gold = field("plaintext");
        let Some(id) =
            field("page_id").filter(|_| gold.is_some() || with.len() + without.len() > 0)
        else {
            return Err(Error::new(
                ErrorKind::Input,
                format!(
                    "{}:{n}: needs page_id and plaintext, or page_id and with/without snippets",
                    gt.display()
                ),
            ));
        };
        let base = dir.join("html").join(set);
        let path = [format!("{id}.html.gz"), format!("{id}.html")]
            .into_iter()
            .map(|f| base.join(f))
            .find(|p| p.is_file());
        match path {
            Some(path) => pages.push(GoldPage {
                url: field("url").unwrap_or_default(),
                kind: field("page_type"),
                with,
                without,
                id,
                gold: gold.map(|g| main_content(&g).to_owned()),
                path,
            }),
            None => missing.push(id),
        }
    }
    Ok((pages, missing))
}

/// A gold text up to the line that starts its comment section, if it has one: a line that
/// starts with `!` and holds `^&*()` (Dragnet's marker, `!@#$%^&*()  COMMENTS`, and the
/// misspellings in its files).
pub fn main_content(gold: &str) -> &str {
    let mut at = 0;
    for line in gold.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('!') && t.contains("^&*()") {
            return &gold[..at];
        }
        at += line.len();
    }
    gold
}

/// Directory pairs (original page, annotated page) a block-label directory may hold per set:
/// L3S-GN1's and BoilerNet's layouts.
const LABEL_DIRS: [(&str, &str); 2] = [("original", "annotated"), ("raw_html", "prepared_html")];

/// The annotated pages of `set` under a block-label directory (`DIR/<set>/original/NAME` with
/// `DIR/<set>/annotated/NAME`, or `raw_html/` with `prepared_html/`), keyed by page id: the
/// SHA-256 (hex) of the original page's bytes, as in the pages layout, and also the file name
/// without `.html[.gz]`. Empty when the set has no labels there.
pub fn load_block_labels(dir: &Path, set: &str) -> Result<HashMap<String, PathBuf>, Error> {
    use sha2::Digest;
    let mut out = HashMap::new();
    for (orig, ann) in LABEL_DIRS {
        let (orig, ann) = (dir.join(set).join(orig), dir.join(set).join(ann));
        if !orig.is_dir() || !ann.is_dir() {
            continue;
        }
        let entries = std::fs::read_dir(&orig).map_err(|e| Error::input(orig.display(), e))?;
        for e in entries.filter_map(|e| e.ok()) {
            let annotated = ann.join(e.file_name());
            if !annotated.is_file() {
                continue;
            }
            let bytes =
                read_page(&e.path()).map_err(|err| Error::input(e.path().display(), err))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.trim_end_matches(".gz").trim_end_matches(".html");
            out.insert(stem.to_owned(), annotated.clone());
            out.insert(crate::digest::hex(&sha2::Sha256::digest(&bytes)), annotated);
        }
    }
    Ok(out)
}

/// The bytes of a page file, gunzipped when it ends in `.gz`.
pub fn read_page(path: &Path) -> std::io::Result<Vec<u8>> {
    let raw = std::fs::read(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut v = Vec::with_capacity(raw.len() * 4);
        flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut v)?;
        Ok(v)
    } else {
        Ok(raw)
    }
}

static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").expect("valid"));

/// The tokens of a text (lower-case it first) that the measure counts: its `\w+` runs, each
/// [split](crate::words::split) around the characters of scripts written without spaces, so
/// that every ideograph and kana (a Katakana run as one) and every Thai, Lao, Khmer or
/// Myanmar letter is a token, not the whole run of a Chinese or Japanese sentence.
pub fn tokens(text: &str) -> impl Iterator<Item = &str> {
    WORD.find_iter(text)
        .flat_map(|m| crate::words::split(m.as_str()))
}

/// Lower-cased [`tokens`] with their counts.
pub fn bag_of_words(text: &str) -> HashMap<String, u32> {
    let mut bag = HashMap::new();
    for t in tokens(&text.to_lowercase()) {
        *bag.entry(t.to_owned()).or_insert(0) += 1;
    }
    bag
}

/// Token counts of one page: extracted, gold and common (multiset intersection).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Overlap {
    /// Tokens of the extracted text.
    pub extracted: u64,
    /// Tokens of the gold text.
    pub gold: u64,
    /// Tokens in both (multiset intersection).
    pub common: u64,
}

impl Overlap {
    /// The counts of an extracted text against a gold text.
    pub fn of(extracted: &str, gold: &str) -> Overlap {
        let (e, g) = (bag_of_words(extracted), bag_of_words(gold));
        Overlap {
            extracted: e.values().map(|&v| v as u64).sum(),
            gold: g.values().map(|&v| v as u64).sum(),
            common: e
                .iter()
                .map(|(w, &n)| n.min(g.get(w).copied().unwrap_or(0)) as u64)
                .sum(),
        }
    }

    fn ratio(a: u64, b: u64, both_empty: bool) -> f64 {
        if b > 0 {
            a as f64 / b as f64
        } else if both_empty {
            1.0
        } else {
            0.0
        }
    }

    fn both_empty(&self) -> bool {
        self.extracted == 0 && self.gold == 0
    }

    /// common / extracted (1 when both texts are empty, 0 when only the extracted one is).
    pub fn precision(&self) -> f64 {
        Self::ratio(self.common, self.extracted, self.both_empty())
    }

    /// common / gold (1 when both texts are empty, 0 when only the gold one is).
    pub fn recall(&self) -> f64 {
        Self::ratio(self.common, self.gold, self.both_empty())
    }

    /// 2·common / (extracted + gold) (1 when both texts are empty).
    pub fn f1(&self) -> f64 {
        Self::ratio(
            2 * self.common,
            self.extracted + self.gold,
            self.both_empty(),
        )
    }

    /// Add another page's counts (pooling).
    pub fn add(&mut self, o: &Overlap) {
        self.extracted += o.extracted;
        self.gold += o.gold;
        self.common += o.common;
    }
}

/// Snippet checks on one page, as trafilatura's evaluation counts them
/// (`tests/eval_common.py`): a snippet is found when, its runs of white space made one space
/// and trimmed, it is a substring of the text with its white space made one space (case
/// matters); invisible characters (soft hyphens, zero-width spaces and joiners) are left out
/// of both. Found `with` snippets are true positives, found `without` snippets false positives; pooled over pages, precision = tp / (tp + fp) and recall = tp / `with`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Snippets {
    /// `with` snippets found in the text (true positives).
    pub with_found: usize,
    /// `with` snippets checked.
    pub with: usize,
    /// `without` snippets found in the text (false positives).
    pub without_found: usize,
    /// `without` snippets checked.
    pub without: usize,
}

/// A text with its runs of white space made one space, trimmed (trafilatura's `norm`), and
/// without the invisible characters a page's shown text leaves out (soft hyphens, zero-width
/// spaces and joiners, word joiners, byte-order marks), which some extractors keep.
pub(crate) fn normalise_space(s: &str) -> String {
    let invisible = |c: char| {
        matches!(
            c,
            '\u{ad}' | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}'
        )
    };
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(w.chars().filter(|&c| !invisible(c)));
    }
    out
}

impl Snippets {
    /// The checks of an extracted text against a page's snippets.
    pub fn of(text: &str, page: &GoldPage) -> Snippets {
        let text = normalise_space(text);
        let found = |s: &String| text.contains(&normalise_space(s));
        Snippets {
            with_found: page.with.iter().filter(|s| found(s)).count(),
            with: page.with.len(),
            without_found: page.without.iter().filter(|s| found(s)).count(),
            without: page.without.len(),
        }
    }

    /// Add another page's counts.
    pub fn add(&mut self, o: &Snippets) {
        self.with_found += o.with_found;
        self.with += o.with;
        self.without_found += o.without_found;
        self.without += o.without;
    }

    /// tp / (tp + fp): of the snippets found, those that belong (0 when none is found).
    pub fn precision(&self) -> f64 {
        let found = self.with_found + self.without_found;
        if found == 0 {
            0.0
        } else {
            self.with_found as f64 / found as f64
        }
    }

    /// tp / `with`: the share of the snippets that belong that were found (0 without any).
    pub fn recall(&self) -> f64 {
        if self.with == 0 {
            0.0
        } else {
            self.with_found as f64 / self.with as f64
        }
    }

    /// 2·tp / (2·tp + fp + fn), trafilatura's F1 (0 when nothing counts).
    pub fn f1(&self) -> f64 {
        let d = self.with_found + self.with + self.without_found;
        if d == 0 {
            0.0
        } else {
            2.0 * self.with_found as f64 / d as f64
        }
    }

    /// Share of the `with` snippets found (`None` without any).
    pub fn with_share(&self) -> Option<f64> {
        (self.with > 0).then(|| self.recall())
    }

    /// Share of the `without` snippets absent (`None` without any).
    pub fn without_share(&self) -> Option<f64> {
        (self.without > 0).then(|| 1.0 - self.without_found as f64 / self.without as f64)
    }
}

/// Figures of one set: means over pages and pooled (micro) counts.
#[derive(Debug, Clone, Default)]
pub struct SetFigures {
    /// Number of pages.
    pub pages: usize,
    /// Mean precision over the pages.
    pub precision: f64,
    /// Mean recall over the pages.
    pub recall: f64,
    /// Mean F1 over the pages.
    pub f1: f64,
    /// The pages' counts summed, for the micro-averaged figures.
    pub pooled: Overlap,
}

impl SetFigures {
    /// The figures of a set's pages (all 0 without pages).
    pub fn of(pages: &[Overlap]) -> SetFigures {
        let n = pages.len().max(1) as f64;
        let mut s = SetFigures {
            pages: pages.len(),
            ..Default::default()
        };
        for o in pages {
            s.precision += o.precision() / n;
            s.recall += o.recall() / n;
            s.f1 += o.f1() / n;
            s.pooled.add(o);
        }
        s
    }
}

/// Analyse pages on `threads` threads; the result is in page order. `Ok(None)`: the page has
/// no text.
pub fn analyze_pages(
    pages: &[&GoldPage],
    models: &Models,
    cfg: &Config,
    threads: usize,
) -> Vec<Result<Option<Document>, Error>> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Result<Option<Document>, Error>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(p) = pages.get(i) else { return out };
                        let r = read_page(&p.path)
                            .map_err(|e| Error::input(p.path.display(), e))
                            .map(|bytes| {
                                let page = Page {
                                    raw: &bytes,
                                    payload: &bytes,
                                    http_charset: None,
                                    meta: Meta {
                                        url: p.url.clone(),
                                        ..Default::default()
                                    },
                                };
                                analyze::analyze(page, models, cfg, &mut StageTimes::default()).ok()
                            });
                        out.push((i, r));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .expect("analysis catches nothing; a panic is a bug")
            })
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The blocks of an analysed page (none when it had no text).
pub fn blocks_of(doc: &Option<Document>) -> &[Block] {
    doc.as_ref().map_or(&[][..], |d| &d.blocks[..])
}

/// Block-level figures of one set against block labels (boilerplate = positive class).
#[derive(Debug, Clone, Copy, Default)]
pub struct BlockFigures {
    /// Pages with labels.
    pub pages: usize,
    /// Blocks of those pages with a label ([`labels::Alignment::label`]).
    pub blocks: usize,
    /// Blocks too little of which aligns with the annotated page to carry a label.
    pub unlabelled: usize,
    /// The labelled blocks' decisions against their labels (boilerplate = positive).
    pub confusion: Confusion,
}

/// Compare the decisions `content(block)` on analysed pages with the labels of their annotated
/// pages (see [`load_block_labels`]), for pages with their analyses. Pages without an
/// annotated page are left out.
pub fn block_figures<'a>(
    labels: &HashMap<String, PathBuf>,
    pages: impl IntoIterator<Item = (&'a GoldPage, &'a Option<Document>)>,
    kept: impl Fn(&[Block]) -> Vec<bool>,
) -> Result<BlockFigures, Error> {
    let mut f = BlockFigures::default();
    for (p, d) in pages {
        let Some(annotated) = labels.get(&p.id) else {
            continue;
        };
        let html = read_page(annotated).map_err(|e| Error::input(annotated.display(), e))?;
        let Some(reference) = labels::labelled_words(&html) else {
            continue;
        };
        f.pages += 1;
        let blocks = blocks_of(d);
        let texts: Vec<&str> = blocks.iter().map(|b| b.cleansed.as_str()).collect();
        for (keep, a) in kept(blocks)
            .into_iter()
            .zip(labels::align(&texts, &reference))
        {
            match a.label() {
                Some(is_content) => {
                    f.blocks += 1;
                    f.confusion.add(!keep, !is_content);
                }
                None => f.unlabelled += 1,
            }
        }
    }
    Ok(f)
}

/// Block labels of analysed pages, for training the combined model: each block's share of
/// content, 1 or 0 (None = no label). A page with an annotated copy in `annotated` (by page id)
/// takes its labels from it ([`labels::align`], [`labels::Alignment::label`]); a page with
/// snippet gold only from its snippets ([`labels::snippet_labels`], hard labels); any other
/// page's blocks are aligned with its gold text ([`labels::align_gold`]). With `soft`, a label is the
/// share itself: of the block's aligned words, those aligned with content
/// ([`labels::Alignment::content_share`]); of a block's words, those aligned with the gold text
/// ([`labels::gold_shares`]).
pub fn page_block_labels(
    annotated: &HashMap<String, PathBuf>,
    pages: &[&GoldPage],
    docs: &[Option<Document>],
    soft: bool,
) -> Result<Vec<Vec<Option<f32>>>, Error> {
    let hard = |label: Option<bool>| label.map(|content| if content { 1.0 } else { 0.0 });
    pages
        .iter()
        .zip(docs)
        .map(|(p, d)| {
            let blocks = blocks_of(d);
            let texts: Vec<&str> = blocks.iter().map(|b| b.cleansed.as_str()).collect();
            if let Some(path) = annotated.get(&p.id) {
                let html = read_page(path).map_err(|e| Error::input(path.display(), e))?;
                if let Some(reference) = labels::labelled_words(&html) {
                    let aligned = labels::align(&texts, &reference);
                    return Ok(aligned
                        .iter()
                        .map(|a| {
                            if soft {
                                a.content_share()
                            } else {
                                hard(a.label())
                            }
                        })
                        .collect());
                }
            }
            let Some(gold) = &p.gold else {
                let shown: Vec<&str> = blocks.iter().map(|b| b.text.as_str()).collect();
                let title = d.as_ref().and_then(|d| d.metadata.title.as_deref());
                return Ok(labels::snippet_labels(&shown, &p.with, &p.without, title)
                    .into_iter()
                    .map(hard)
                    .collect());
            };
            if soft {
                return Ok(labels::gold_shares(&texts, gold));
            }
            Ok(labels::align_gold(&texts, gold)
                .into_iter()
                .map(hard)
                .collect())
        })
        .collect()
}

/// Training rows of `width` values per block from the labelled blocks of the pages `use_page`
/// selects (a block's label is its share of content; [`page_block_labels`]); `rows` gives page
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
    let models = train_folds(threads, stack_folds, |fold| {
        let out_of_fold = |i: usize| stack_fold[i].is_some_and(|f| f != fold);
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
    let p: Vec<Vec<f32>> = (0..docs.len())
        .map(|i| stack_fold[i].map_or_else(Vec::new, |f| models[f].predict_rows(&rows[i])))
        .collect();
    let used = |i: usize| selected[i];
    let first = gbt::train(
        &training_data(docs, labels, &weight, used, combined::N_FEATURES, base),
        first_cfg,
    );
    let width = combined::N_FEATURES + combined::N_CONTEXT;
    let stacked = |i: usize| {
        let (blocks, regions) = (blocks_of(&docs[i]), regions_of(&docs[i]));
        combined::stacked(&rows[i], &combined::context(blocks, regions, &p[i]))
    };
    // The main stage's probabilities for sources it was not trained on, to calibrate the final
    // one's.
    let mains = train_folds(threads, calibration_folds, |fold| {
        let out_of_fold = |i: usize| calibration_fold[i].is_some_and(|f| f != fold);
        gbt::train(
            &training_data(docs, labels, &weight, out_of_fold, width, stacked),
            cfg,
        )
    });
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
    let second = gbt::train(
        &training_data(docs, labels, &weight, used, width, stacked),
        cfg,
    );
    let model = combined::Model {
        first,
        second: second.tempered(temperature),
    };
    (model, temperature)
}

/// Train one model for each of `folds` folds, on up to `threads` threads; `train(fold)`
/// trains the model for `fold`.
fn train_folds(
    threads: usize,
    folds: usize,
    train: impl Fn(usize) -> gbt::Gbt + Sync,
) -> Vec<gbt::Gbt> {
    let train = &train;
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.clamp(1, folds))
            .map(|t| {
                s.spawn(move || {
                    (t..folds)
                        .step_by(threads.max(1))
                        .map(|fold| (fold, train(fold)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(usize, gbt::Gbt)> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("training does not panic"))
            .collect();
        all.sort_by_key(|(fold, _)| *fold);
        all.into_iter().map(|(_, m)| m).collect()
    })
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
            Some(d) => combined::features(&d.blocks, &d.regions, &d.page_text),
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
    let next = AtomicUsize::new(0);
    let shared: &[Option<Document>] = docs;
    let rows = feature_rows(shared);
    let mut models: Vec<(usize, combined::Model)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.clamp(1, k))
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let fold = next.fetch_add(1, Ordering::Relaxed);
                        if fold >= k {
                            return out;
                        }
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
                        out.push((fold, model));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("training does not panic"))
            .collect()
    });
    models.sort_by_key(|(f, _)| *f);
    for (i, d) in docs.iter_mut().enumerate() {
        if let Some(d) = d {
            let p = models[folds.of[i]]
                .1
                .predict(&d.blocks, &d.regions, &d.page_text);
            for (b, p) in d.blocks.iter_mut().zip(p) {
                combined::set(b, p);
                b.bpv = p;
            }
        }
    }
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

/// Train the markup model on the labelled blocks of the pages ([`page_block_labels`]).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_text_ends_before_its_comment_section() {
        let gold = "Title\r\n\r\nThe article.\r\n\r\n!@#$%^&*()  COMMENTS\r\n\r\nFirst!\r\n";
        assert_eq!(main_content(gold), "Title\r\n\r\nThe article.\r\n\r\n");
        assert_eq!(main_content("A\n\n  !#@$%^&*()  COMMNENTS\nB"), "A\n\n");
        assert_eq!(main_content("A\n!@#$%$%^&*()\nB"), "A\n");
        // No marker, or an exclamation that is not one: the whole text.
        assert_eq!(
            main_content("Wow! ^&*() is rare\n!Yes\n"),
            "Wow! ^&*() is rare\n!Yes\n"
        );
    }

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
    fn bag_of_words_overlap() {
        let o = Overlap::of("The cat, the HAT.", "the cat sat on the mat");
        assert_eq!(
            o,
            Overlap {
                extracted: 4,
                gold: 6,
                common: 3
            }
        );
        assert!((o.precision() - 0.75).abs() < 1e-12);
        assert!((o.recall() - 0.5).abs() < 1e-12);
        assert!((o.f1() - 0.6).abs() < 1e-12);
        assert_eq!(Overlap::of("", "").f1(), 1.0);
        assert_eq!(Overlap::of("x", "").f1(), 0.0);
        assert_eq!(Overlap::of("", "x").precision(), 0.0);
        // Unicode words, lower-cased.
        assert_eq!(Overlap::of("Größe Ärger", "größe ärger").common, 2);
    }

    #[test]
    fn chinese_and_japanese_tokens_are_characters() {
        // A run of ideographs is a token per ideograph; punctuation is none; a Katakana run,
        // digits and Latin words are one token each.
        assert_eq!(
            tokens("東京タワーは2024年、abcで。").collect::<Vec<_>>(),
            ["東", "京", "タワー", "は", "2024", "年", "abc", "で"]
        );
        assert_eq!(tokens("今天天气很好").count(), 6);
        // So a Chinese text that shares most of its characters with the gold text scores
        // most of them, not 0 because its one "word" differs.
        let o = Overlap::of("今天天气很好。", "今天天气不好。");
        assert_eq!((o.extracted, o.gold, o.common), (6, 6, 5));
        // The bag counts each character as often as it occurs.
        assert_eq!(bag_of_words("天天")["天"], 2);
    }

    #[test]
    fn set_means_and_pooling() {
        let a = Overlap::of("a b", "a b");
        let b = Overlap::of("c", "d e f");
        let s = SetFigures::of(&[a, b]);
        assert_eq!(s.pages, 2);
        assert!((s.f1 - 0.5).abs() < 1e-12);
        assert_eq!(s.pooled.common, 2);
        assert!((s.pooled.precision() - 2.0 / 3.0).abs() < 1e-12);
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

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
pub mod report;
pub mod sets;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::analyze;
use crate::analyze::{Config, Page, StageTimes};
use crate::classify::Models;
use crate::classify::mlp::Confusion;
use crate::document::{Block, Document, Meta};
use crate::error::{Error, ErrorKind};

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
    /// The gold text's comment section, after its marker ([`comment_section`]), when it has
    /// one.
    pub comments: Option<String>,
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
pub(crate) fn list_sets(dir: &Path) -> std::io::Result<Vec<String>> {
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
                comments: gold.as_deref().and_then(comment_section).map(str::to_owned),
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
    &gold[..comment_marker(gold).map_or(gold.len(), |(start, _)| start)]
}

/// A gold text's comment section: what follows the line of its marker ([`main_content`]),
/// `None` without a marker.
pub fn comment_section(gold: &str) -> Option<&str> {
    comment_marker(gold).map(|(_, end)| &gold[end..])
}

/// Where the line of a gold text's comment marker starts and ends.
fn comment_marker(gold: &str) -> Option<(usize, usize)> {
    let mut at = 0;
    for line in gold.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('!') && t.contains("^&*()") {
            return Some((at, at + line.len()));
        }
        at += line.len();
    }
    None
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
pub(crate) fn bag_of_words(text: &str) -> HashMap<String, u32> {
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
    pub(crate) fn with_share(&self) -> Option<f64> {
        (self.with > 0).then(|| self.recall())
    }

    /// Share of the `without` snippets absent (`None` without any).
    pub(crate) fn without_share(&self) -> Option<f64> {
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
    crate::parallel::map(pages.len(), threads, |i| {
        let p = pages[i];
        read_page(&p.path)
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
            })
    })
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

/// Comment labels of the pages' blocks (true: the block belongs to a comment section), where
/// the data says, for the comment detector ([`crate::classify::comment`]):
/// - an annotated page that marks user comments (L3S-GN1's class 5, [`labels::comment_words`]):
///   a block is a comment when most of its words align with comment words;
/// - a page of a source whose gold texts mark their comment sections (Dragnet's marker,
///   [`comment_section`]): a block is a comment when most of its words align with the gold's
///   comment section; every block is false on such a source's pages without a section;
/// - a forum page (WCXB's `page_type` forum): every block is false, as its posts are its
///   content, not comments.
///
/// Other pages have no labels (`None`). `sources[i]` is page `i`'s source.
pub fn page_comment_labels(
    annotated: &HashMap<String, PathBuf>,
    pages: &[&GoldPage],
    docs: &[Option<Document>],
    sources: &[usize],
) -> Result<Vec<Option<Vec<bool>>>, Error> {
    let marking: std::collections::BTreeSet<usize> = pages
        .iter()
        .zip(sources)
        .filter(|(p, _)| p.comments.is_some())
        .map(|(_, &s)| s)
        .collect();
    let majority = |aligned: Vec<labels::Alignment>| -> Vec<bool> {
        aligned
            .iter()
            .map(|a| a.words > 0 && 2 * a.content > a.words)
            .collect()
    };
    let mut out = Vec::with_capacity(pages.len());
    for ((p, d), source) in pages.iter().zip(docs).zip(sources) {
        let blocks = blocks_of(d);
        let texts: Vec<&str> = blocks.iter().map(|b| b.cleansed.as_str()).collect();
        if let Some(path) = annotated.get(&p.id) {
            let html = read_page(path).map_err(|e| Error::input(path.display(), e))?;
            if let Some(reference) = labels::comment_words(&html) {
                out.push(Some(majority(labels::align(&texts, &reference))));
                continue;
            }
        }
        out.push(match (&p.gold, &p.comments) {
            (Some(gold), Some(comments)) => {
                let words = |text: &str, comment: bool| {
                    tokens(&text.to_lowercase())
                        .map(|t| (t.to_owned(), comment))
                        .collect::<Vec<_>>()
                };
                let mut reference = words(gold, false);
                reference.extend(words(comments, true));
                Some(majority(labels::align(&texts, &reference)))
            }
            (Some(_), None) if marking.contains(source) => Some(vec![false; blocks.len()]),
            _ if p.kind.as_deref() == Some("forum") => Some(vec![false; blocks.len()]),
            _ => None,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_text_ends_before_its_comment_section() {
        let gold = "Title\r\n\r\nThe article.\r\n\r\n!@#$%^&*()  COMMENTS\r\n\r\nFirst!\r\n";
        assert_eq!(main_content(gold), "Title\r\n\r\nThe article.\r\n\r\n");
        assert_eq!(comment_section(gold), Some("\r\nFirst!\r\n"));
        assert_eq!(comment_section("A\nB"), None);
        assert_eq!(main_content("A\n\n  !#@$%^&*()  COMMNENTS\nB"), "A\n\n");
        assert_eq!(main_content("A\n!@#$%$%^&*()\nB"), "A\n");
        // No marker, or an exclamation that is not one: the whole text.
        assert_eq!(
            main_content("Wow! ^&*() is rare\n!Yes\n"),
            "Wow! ^&*() is rare\n!Yes\n"
        );
    }

    #[test]
    fn comment_labels_from_gold_sections_and_forum_pages() {
        let html = "<html><body><p>The rain in Spain falls mainly on the plain, they say \
                    today.</p><div id=comments><p>Great article, thanks for writing it \
                    up.</p><p>I disagree with every single word of this one.</p></div></body>\
                    </html>";
        let doc = || Some(crate::Extractor::builtin().extract(html.as_bytes(), None));
        let page = |gold: Option<&str>, comments: Option<&str>, kind: Option<&str>| GoldPage {
            id: String::new(),
            url: String::new(),
            gold: gold.map(str::to_owned),
            comments: comments.map(str::to_owned),
            path: PathBuf::new(),
            kind: kind.map(str::to_owned),
            with: Vec::new(),
            without: Vec::new(),
        };
        let article = "The rain in Spain falls mainly on the plain, they say today.";
        let thread = "Great article, thanks for writing it up.\nI disagree with every single \
                      word of this one.";
        let pages = [
            // A page with a marked comment section; a page of the same source without one.
            page(Some(article), Some(thread), None),
            page(Some(article), None, None),
            // A forum page of another source, and a page of a source that marks nothing.
            page(None, None, Some("forum")),
            page(Some(article), None, None),
        ];
        let list: Vec<&GoldPage> = pages.iter().collect();
        let docs = vec![doc(), doc(), doc(), doc()];
        let labels = page_comment_labels(&HashMap::new(), &list, &docs, &[0, 0, 1, 2]).unwrap();
        assert_eq!(labels[0].as_deref(), Some(&[false, true, true][..]));
        assert_eq!(labels[1].as_deref(), Some(&[false, false, false][..]));
        assert_eq!(labels[2].as_deref(), Some(&[false, false, false][..]));
        assert_eq!(labels[3], None);
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
}

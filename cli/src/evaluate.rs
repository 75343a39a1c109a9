//! `cowrex eval`: cowrex's scorers or another tool's texts against the gold texts of development
//! sets, by page and by block.

use std::path::{Path, PathBuf};

use clap::Args;
use clap::builder::TypedValueParser;

use super::train::GbtArgs;
use super::{
    BiasArg, CliResult, ModelArgs, OutFile, doc_config, load_models, load_pages, threads_or_cores,
};
use cowrex::analyze::Config;
use cowrex::choice::Choice;
use cowrex::classify::detector::Cut;
use cowrex::classify::{self, Scorer};
use cowrex::error::{EXIT_OK, Error, ErrorKind};
use cowrex::eval;
use cowrex::eval::sets::SetPages;
use cowrex::{analyze, document};

/// How `eval --cv` folds the pages.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum CvBy {
    /// Page `i` in fold `i mod K`.
    Page,
    /// The pages of one site share a fold.
    Site,
}

#[derive(Args)]
pub(super) struct EvalArgs {
    /// Directories with html/<set>/<id>.html[.gz] and ground-truth/<set>.jsonl, as
    /// ../shared/data/pages (gold text) and ../shared/data/snippets (snippet gold only).
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// Only these sets (comma-separated; default: all).
    #[arg(long, value_delimiter = ',', value_name = "SET")]
    sets: Vec<String>,
    /// Which blocks make up the extracted text: those a detector's decision keeps, or all. A
    /// decision keeps the blocks whose bpv is at most --threshold, by default each page's
    /// expected-F1 threshold for combined and 0.5 for the others (ngram: a score of at least
    /// --bias).
    #[arg(long, value_parser = chosen(), default_value = "combined")]
    scorer: Chosen,
    /// n-gram and combined scorers: cross-validate, so that no page is scored by a
    /// model trained on it (K folds over the pages of all evaluated sets, as --cv-by says).
    /// The combined model takes its block labels from --blocks where a page has an
    /// annotated copy, from its gold text otherwise.
    #[arg(long, value_name = "K")]
    cv: Option<usize>,
    /// How --cv folds the pages: `page` (page i in fold i mod K) or `site` (the pages of one
    /// host, from the gold URL or else the page's canonical URL, share a fold, so no page is
    /// scored by a model that saw its site; pages without either fold by page).
    #[arg(long, value_enum, default_value_t = CvBy::Page, requires = "cv")]
    cv_by: CvBy,
    /// n-gram and combined scorers: leave one source out, so that no page is scored by a model
    /// trained on its set: each set is scored by models trained on the other sets (how a model
    /// does on pages of a source it has not seen).
    #[arg(long, conflicts_with = "cv")]
    loso: bool,
    /// The combined model's training under --cv and --loso.
    #[command(flatten)]
    gbt: GbtArgs,
    /// Worker threads (default: available cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
    /// Also report block-level figures against the annotated pages in this directory
    /// (`<set>/original/` with `<set>/annotated/`, or `raw_html/` with `prepared_html/`, as in
    /// `../shared/data/blocks`); pages are matched by page id (SHA-256 of the original or
    /// the file name).
    #[arg(long, value_name = "LABELS")]
    blocks: Option<PathBuf>,
    /// Score another tool's extractions instead of a cowrex scorer: JSON lines with
    /// `page_id` and `text`; a page without a line counts as extracting nothing.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scorer", "cv", "loso", "blocks"])]
    texts: Option<PathBuf>,
    /// Also write the figures as JSON to this file, with every page's figures under `pages`.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write every page's blocks as JSON lines to this file (`set`, `page_id`, and
    /// `blocks`: each block's `text`, `bpv`, whether it was kept, whether the scorer kept it
    /// before --comments (`scored`), its `comment` probability (null when the detector did not
    /// run), its `words`, structural `cues` (bits of the html module's `cue`), a hash of its
    /// path of tag names and classes (`path`, as a string), its `depth`, and, under --cv and
    /// --loso with the combined scorer, the combined model's training `label`: 1 content, 0
    /// boilerplate, null unlabelled), to study decisions.
    #[arg(long, value_name = "FILE", conflicts_with = "texts")]
    dump_blocks: Option<PathBuf>,
    /// Also write the combined model's input rows of every block to this file, as
    /// little-endian f32, row after row in the pages' and blocks' order (the features of
    /// `src/classify/combined.rs`, with the n-gram and markup scores of --cv or --loso), to
    /// study the model with other tools.
    #[arg(long, value_name = "FILE", conflicts_with = "texts")]
    dump_features: Option<PathBuf>,
    #[command(flatten)]
    bias: BiasArg,
    #[command(flatten)]
    model: ModelArgs,
}

/// `eval --scorer`: a decision, or `None` for every block (`all`).
#[derive(Clone, Copy)]
struct Chosen(Option<classify::Scorer>);

/// `eval --scorer`'s values: the library's scorers and `all`.
fn chosen() -> impl TypedValueParser<Value = Chosen> {
    use clap::builder::{PossibleValue, PossibleValuesParser};
    let scorers = Scorer::values()
        .iter()
        .map(|v| PossibleValue::new(v.name).help(v.help));
    let all = PossibleValue::new("all").help("every block (no boilerplate removal): the baseline");
    PossibleValuesParser::new(scorers.chain([all])).map(|name| Chosen(name.parse().ok()))
}

impl EvalArgs {
    /// The decision chosen (`None`: every block).
    fn decision(&self) -> Option<classify::Scorer> {
        self.scorer.0
    }
}

/// Which blocks of a page the scorer chosen for `eval` keeps before --comments: those whose
/// `bpv` under its decision is at most --threshold, the bias's equivalent for `ngram`, or the
/// decision's own cut ([`analyze::decision_threshold`]).
fn scored(a: &EvalArgs, blocks: &[document::Block]) -> Vec<bool> {
    let Some(scorer) = a.decision() else {
        return vec![true; blocks.len()];
    };
    let bpv = scorer.decision().bpv;
    let threshold = a.model.threshold.unwrap_or_else(|| {
        if scorer == Scorer::NGRAM {
            // A score of at least `bias` bits is a bpv of at most this.
            1.0 / (1.0 + a.bias.bias.exp())
        } else {
            analyze::decision_threshold(blocks, scorer, a.model.favor)
        }
    });
    blocks.iter().map(|b| bpv(b) <= threshold).collect()
}

/// Which blocks of a page `eval` keeps: those [`scored`] keeps, comment blocks as --comments
/// says.
pub(super) fn kept(a: &EvalArgs, blocks: &[document::Block]) -> Vec<bool> {
    with_comments(a, blocks, &scored(a, blocks))
}

/// The blocks kept of those `scored` keeps, comment blocks as --comments says (all of them
/// when no decision is made).
fn with_comments(a: &EvalArgs, blocks: &[document::Block], scored: &[bool]) -> Vec<bool> {
    if a.decision().is_none() {
        return vec![true; blocks.len()];
    }
    blocks
        .iter()
        .zip(scored)
        .map(|(b, &s)| a.model.comments.decide(b.comment, s))
        .collect()
}

/// A scorer's description, the text it extracted from each page, cowrex's analyses of the pages
/// (none for another tool's texts), the combined model's training labels of each page's
/// blocks (`None` when no model was trained), and the cross-validated comment detector's
/// figures per set (`None` when it was not cross-validated).
pub(super) type Extraction = (
    String,
    Vec<String>,
    Vec<Option<document::Document>>,
    Option<Vec<Vec<Option<f32>>>>,
    Option<Vec<(usize, cowrex::train::CommentFigures)>>,
);

/// Analyse the pages and extract each one's text with the chosen cowrex scorer; returns the
/// scorer's description, the texts and the analyses.
pub(super) fn cowrex_texts(
    a: &EvalArgs,
    sets: &[String],
    pages: &SetPages,
) -> Result<Extraction, Error> {
    let models = load_models(&a.model, a.decision().unwrap_or_default())?;
    let cross_validated = [Some(Scorer::NGRAM), Some(Scorer::COMBINED)];
    if (a.cv.is_some() || a.loso) && !cross_validated.contains(&a.decision()) {
        return Err(Error::usage(
            "--cv and --loso apply to --scorer ngram and combined (the MLPs are \
                    cross-validated by `train mlp --cv`)",
        ));
    }
    let threads = threads_or_cores(a.threads);
    let cfg = Config {
        signals: Config::for_scores().signals,
        ..doc_config(&a.model, false)
    };
    let mut docs = eval::sets::analyze_sets(pages, &models, &cfg, threads)?;
    let sources = eval::sets::page_sources(pages);
    let folds = match a.cv {
        Some(k) if k < 2 || k > pages.len() => {
            return Err(Error::usage(format!(
                "--cv needs 2 ≤ K ≤ {} pages",
                pages.len()
            )));
        }
        Some(k) if a.cv_by == CvBy::Site => {
            let sites: Vec<Option<String>> = pages
                .iter()
                .zip(&docs)
                .map(|((_, p), d)| cowrex::train::site(&p.url, d.as_ref()))
                .collect();
            let without = sites.iter().filter(|s| s.is_none()).count();
            if without > 0 {
                eprintln!(
                    "cowrex eval: {without} of {} pages have no URL and no canonical URL; they \
                     are folded by page",
                    pages.len()
                );
            }
            Some(cowrex::train::Folds::by_site(&sites, k))
        }
        Some(k) => Some(cowrex::train::Folds::by_page(pages.len(), k)),
        None if a.loso && sets.len() < 2 => {
            return Err(Error::usage("--loso needs two sets or more"));
        }
        None => a.loso.then(|| cowrex::train::Folds::by_source(&sources)),
    };
    let (mut trained_labels, mut comment_figures) = (None, None);
    if let Some(folds) = &folds {
        let gold: Vec<Option<&str>> = pages.iter().map(|(_, p)| p.gold.as_deref()).collect();
        cowrex::train::cross_validate_ngram(&gold, &mut docs, &models, folds);
        if a.decision() == Some(Scorer::COMBINED) {
            // The combined model's features read the cross-validated n-gram and markup scores.
            let labels = eval::sets::block_labels(
                a.blocks.as_deref(),
                sets,
                pages,
                &docs,
                a.gbt.soft_labels,
            )?;
            let list: Vec<&eval::GoldPage> = pages.iter().map(|(_, p)| p).collect();
            cowrex::train::cross_validate_markup(&list, &mut docs, &labels, folds)?;
            // The comment detector reads the cross-validated markup scores too.
            let comments = eval::sets::comment_labels(a.blocks.as_deref(), sets, pages, &docs)?;
            comment_figures = Some(cowrex::train::cross_validate_comment(
                &mut docs, &comments, &sources, folds, threads,
            ));
            if let Some(path) = &a.dump_features {
                dump_features(path, &docs)?;
            }
            let training = a.gbt.training();
            let partial = eval::sets::partial_labels(pages);
            cowrex::train::cross_validate_combined(
                &mut docs, &labels, &sources, &partial, folds, training, threads,
            );
            trained_labels = Some(labels);
        }
    }
    if let (Some(path), None) = (&a.dump_features, &trained_labels) {
        dump_features(path, &docs)?;
    }
    let texts = docs
        .iter()
        .map(|d| {
            let blocks = eval::blocks_of(d);
            let keep = kept(a, blocks);
            document::content_text(blocks.iter().zip(keep).filter(|(_, k)| *k).map(|(b, _)| b))
        })
        .collect();
    let cv = match a.cv {
        Some(k) if a.cv_by == CvBy::Site => format!(", {k}-fold cv by site"),
        Some(k) => format!(", {k}-fold cv by page"),
        None if a.loso => ", each set scored by models trained on the others".to_string(),
        None => String::new(),
    };
    let scorer = match (a.decision(), a.model.threshold) {
        (None, _) => "all blocks".to_string(),
        (Some(s), Some(t)) => format!("{} (threshold {t}{cv})", s.name()),
        (Some(s), None) if s == Scorer::NGRAM => format!("ngram (bias {}{cv})", a.bias.bias),
        (Some(s), None) => match s.decision().cut {
            Cut::ExpectedF => format!(
                "{} (expected-F threshold per page, favouring {}{cv})",
                s.name(),
                a.model.favor
            ),
            Cut::Half => format!("{}{cv}", s.decision().about),
        },
    };
    Ok((scorer, texts, docs, trained_labels, comment_figures))
}

/// Write the combined model's input rows of every block (`eval --dump-features`).
pub(super) fn dump_features(path: &Path, docs: &[Option<document::Document>]) -> CliResult {
    let mut out = OutFile::create(path)?;
    for rows in cowrex::train::feature_rows(docs) {
        for v in rows {
            out.write_all(&v.to_le_bytes())?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

/// Print block-level figures per set against the annotated pages under `dir`; returns them as
/// JSON.
pub(super) fn block_level(
    dir: &Path,
    sets: &[String],
    pages: &[(usize, eval::GoldPage)],
    docs: &[Option<document::Document>],
    kept: impl Fn(&[document::Block]) -> Vec<bool> + Copy,
) -> Result<serde_json::Value, Error> {
    if !dir.is_dir() {
        return Err(Error::new(
            ErrorKind::Input,
            format!("--blocks {}: no such directory", dir.display()),
        ));
    }
    println!(
        "block level (labels: {}; boilerplate = positive)",
        dir.display()
    );
    println!(
        "{:<20} {:>6} {:>7} {:>10} {:>9} {:>9} {:>9} {:>9}",
        "set", "pages", "blocks", "unlabelled", "accuracy", "precision", "recall", "f1"
    );
    let mut out = serde_json::Map::new();
    for (i, set) in sets.iter().enumerate() {
        let labels = eval::load_block_labels(dir, set)?;
        if labels.is_empty() {
            continue;
        }
        let set_pages = pages
            .iter()
            .zip(docs)
            .filter(|((s, _), _)| *s == i)
            .map(|((_, p), d)| (p, d));
        let f = eval::block_figures(&labels, set_pages, kept)?;
        let c = f.confusion;
        println!(
            "{set:<20} {:>6} {:>7} {:>10} {:>9.4} {:>9.4} {:>9.4} {:>9.4}",
            f.pages,
            f.blocks,
            f.unlabelled,
            c.accuracy(),
            c.precision(),
            c.recall(),
            c.f1()
        );
        out.insert(
            set.clone(),
            serde_json::json!({
                "pages": f.pages, "blocks": f.blocks, "unlabelled": f.unlabelled,
                "accuracy": c.accuracy(), "precision": c.precision(), "recall": c.recall(),
                "f1": c.f1(),
            }),
        );
    }
    if out.is_empty() {
        println!("(no annotated pages for these sets)");
    }
    Ok(serde_json::Value::Object(out))
}

pub(super) fn evaluate(a: EvalArgs) -> CliResult {
    let (sets, pages) = load_pages(&a.dirs, &a.sets)?;
    let (scorer, texts, docs, labels, comments) = match &a.texts {
        Some(file) => (
            format!("texts of {}", file.display()),
            eval::sets::read_texts(file, &pages)?,
            Vec::new(),
            None,
            None,
        ),
        None => cowrex_texts(&a, &sets, &pages)?,
    };
    let languages = snippet_languages(&a, &pages, &docs)?;
    let report = eval::report::Report::of(scorer, &sets, &pages, &texts, &languages);
    print_report(&report);
    let mut json = report.to_json();
    if let Some(figures) = comments {
        json["comments"] = super::train::print_comment_figures(&sets, &figures);
    }
    if let Some(dial) = favor_dial(&a, &sets, &pages, &docs) {
        json["favor"] = dial;
    }
    if let Some(dir) = &a.blocks {
        json["blocks"] = block_level(dir, &sets, &pages, &docs, |b| kept(&a, b))?;
    }
    if let Some(p) = &a.dump_blocks {
        let mut out = OutFile::create(p)?;
        for (i, ((set, page), d)) in pages.iter().zip(&docs).enumerate() {
            let blocks = eval::blocks_of(d);
            let label = |j: usize| labels.as_ref().and_then(|l| l[i].get(j).copied().flatten());
            let scored = scored(&a, blocks);
            let kept = with_comments(&a, blocks, &scored);
            let line = serde_json::json!({
                "set": sets[*set], "page_id": page.id,
                "blocks": blocks.iter().zip(kept).zip(scored).enumerate().map(|(j, ((b, k), s))| {
                    let p = classify::comment::of(b);
                    serde_json::json!({
                        "text": b.text, "bpv": b.bpv, "kept": k, "scored": s,
                        "comment": (!p.is_nan()).then_some(p),
                        "words": b.stats.words, "cues": b.cues,
                        "path": b.path.to_string(), "depth": b.depth, "label": label(j),
                    })
                }).collect::<Vec<_>>(),
            });
            writeln!(out, "{line}")?;
        }
        out.flush()?;
    }
    if let Some(p) = &a.json {
        std::fs::write(p, format!("{json:#}\n")).map_err(|e| Error::output(p.display(), e))?;
    }
    if report.gold_sets > 0 {
        let (p, r, f) = report.macro_figures;
        println!(
            "macro precision={p:.4} recall={r:.4} f1={f:.4} ({} sets with gold text)",
            report.gold_sets
        );
    }
    Ok(EXIT_OK)
}

/// Print an evaluation's tables: the figures of each set and kind of page, then the snippets
/// of each set and language.
fn print_report(report: &eval::report::Report) {
    println!("scorer: {}", report.scorer);
    println!(
        "{:<20} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "set", "pages", "precision", "recall", "f1", "micro-p", "micro-r", "micro-f1"
    );
    let row = |name: &str, f: &eval::SetFigures| {
        println!(
            "{name:<20} {:>6} {:>9.4} {:>9.4} {:>9.4} {:>9.4} {:>9.4} {:>9.4}",
            f.pages,
            f.precision,
            f.recall,
            f.f1,
            f.pooled.precision(),
            f.pooled.recall(),
            f.pooled.f1()
        );
    };
    for set in &report.sets {
        match &set.figures {
            Some(f) => row(&set.name, f),
            None => println!(
                "{:<20} {:>6} (snippet gold only: below)",
                set.name, set.pages
            ),
        }
        for (kind, f) in &set.kinds {
            row(&format!("  {kind}"), f);
        }
    }
    if report.sets.iter().all(|s| s.snippets.is_none()) {
        return;
    }
    println!(
        "snippets (found `with` snippets are true positives, found `without` snippets false \
         positives)"
    );
    println!(
        "{:<20} {:>6} {:>6} {:>8} {:>9} {:>9} {:>9}",
        "set / language", "pages", "with", "without", "precision", "recall", "f1"
    );
    let sn_row = |name: &str, pages: usize, sn: &eval::Snippets| {
        println!(
            "{name:<20} {pages:>6} {:>6} {:>8} {:>9.4} {:>9.4} {:>9.4}",
            sn.with,
            sn.without,
            sn.precision(),
            sn.recall(),
            sn.f1()
        );
    };
    for set in &report.sets {
        let Some((pages, sn)) = &set.snippets else {
            continue;
        };
        sn_row(&set.name, *pages, sn);
        let mut langs: Vec<_> = set.by_language.iter().collect();
        langs.sort_by(|a, b| b.1.1.with.cmp(&a.1.1.with).then(a.0.cmp(b.0)));
        for (lang, (n, sn)) in langs {
            sn_row(&format!("  {lang}"), *n, sn);
        }
    }
}

/// The language cowrex identifies for each page with snippet gold only (ISO 639-3, `unknown`
/// without one; empty for the other pages), from the analyses, or, when another tool's texts
/// are scored, from an analysis with the built-in models.
fn snippet_languages(
    a: &EvalArgs,
    pages: &SetPages,
    docs: &[Option<document::Document>],
) -> Result<Vec<&'static str>, Error> {
    let snippet_only = |p: &eval::GoldPage| p.gold.is_none();
    if !docs.is_empty() {
        return Ok(pages
            .iter()
            .zip(docs)
            .map(|((_, p), d)| match d {
                Some(d) if snippet_only(p) => d.language_code(),
                None if snippet_only(p) => document::Language::code_of(None),
                _ => "",
            })
            .collect());
    }
    let list: Vec<&eval::GoldPage> = pages
        .iter()
        .map(|(_, p)| p)
        .filter(|p| snippet_only(p))
        .collect();
    let models = load_models(&a.model, classify::Scorer::default())?;
    let cfg = Config {
        signals: Config::for_scores().signals,
        ..doc_config(&a.model, false)
    };
    let mut analysed =
        eval::analyze_pages(&list, &models, &cfg, threads_or_cores(a.threads)).into_iter();
    pages
        .iter()
        .map(|(_, p)| {
            if !snippet_only(p) {
                return Ok("");
            }
            let doc = analysed.next().expect("one analysis per page")?;
            Ok(doc.map_or(document::Language::code_of(None), |d| d.language_code()))
        })
        .collect()
}

/// For a decision cut at the expected-F threshold without a fixed --threshold: the figures at
/// each `--favor` from the same scores (macro precision, recall and F1 over the sets with gold
/// text, and the snippets of each set with snippet gold only), printed, and returned as JSON
/// with each set's figures too.
fn favor_dial(
    a: &EvalArgs,
    sets: &[String],
    pages: &SetPages,
    docs: &[Option<document::Document>],
) -> Option<serde_json::Value> {
    let scorer = a.decision()?;
    if docs.is_empty() || a.model.threshold.is_some() || scorer.decision().cut != Cut::ExpectedF {
        return None;
    }
    let snippet_sets: Vec<usize> = (0..sets.len())
        .filter(|&i| pages.iter().any(|(s, p)| *s == i && p.gold.is_none()))
        .collect();
    println!("favor (the same scores, cut at each expected F_β)");
    print!(
        "{:<10} {:>9} {:>9} {:>9}",
        "favor", "macro-p", "macro-r", "macro-f1"
    );
    for &i in &snippet_sets {
        print!(" {:>30}", format!("{} snippets p/r/f", sets[i]));
    }
    println!();
    let mut out = serde_json::Map::new();
    for favor in classify::Favor::ALL {
        let mut overlaps: Vec<Vec<eval::Overlap>> = vec![Vec::new(); sets.len()];
        let mut snippets = vec![eval::Snippets::default(); sets.len()];
        for ((set, p), d) in pages.iter().zip(docs) {
            let blocks = eval::blocks_of(d);
            let t = analyze::decision_threshold(blocks, scorer, favor);
            let text = document::content_text(
                blocks
                    .iter()
                    .filter(|b| a.model.comments.decide(b.comment, b.bpv <= t)),
            );
            match &p.gold {
                Some(gold) => overlaps[*set].push(eval::Overlap::of(&text, gold)),
                None => snippets[*set].add(&eval::Snippets::of(&text, p)),
            }
        }
        let mut v = serde_json::json!({});
        let mut figures = Vec::new();
        for (i, o) in overlaps.iter().enumerate().filter(|(_, o)| !o.is_empty()) {
            let f = eval::SetFigures::of(o);
            v[sets[i].as_str()] = serde_json::json!({
                "precision": f.precision, "recall": f.recall, "f1": f.f1,
            });
            figures.push(f);
        }
        if figures.is_empty() {
            print!("{:<10} {:>9} {:>9} {:>9}", favor.name(), "–", "–", "–");
        } else {
            let n = figures.len() as f64;
            let mean = |f: fn(&eval::SetFigures) -> f64| figures.iter().map(f).sum::<f64>() / n;
            let (p, r, f) = (mean(|s| s.precision), mean(|s| s.recall), mean(|s| s.f1));
            print!("{:<10} {p:>9.4} {r:>9.4} {f:>9.4}", favor.name());
            v["macro"] = serde_json::json!({"precision": p, "recall": r, "f1": f});
        }
        for &i in &snippet_sets {
            let sn = &snippets[i];
            print!(
                " {:>30}",
                format!(
                    "{:.4} / {:.4} / {:.4}",
                    sn.precision(),
                    sn.recall(),
                    sn.f1()
                )
            );
            v[sets[i].as_str()] = serde_json::json!({
                "precision": sn.precision(), "recall": sn.recall(), "f1": sn.f1(),
            });
        }
        println!();
        out.insert(favor.name().to_owned(), v);
    }
    Some(out.into())
}

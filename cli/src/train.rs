//! `cowrex train`: the MLPs, n-gram models, the combined model and the markup model, from the
//! project's data, byte for byte reproducibly.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};

use super::corpus::expand;
use super::{CliResult, load_pages, threads_or_cores};
use cowrex::analyze::Config;
use cowrex::classify::quality::Profile;
use cowrex::classify::{self, LangChoice, ModelLang, Models, NgramChoice, mlp, ngram};
use cowrex::error::{EXIT_OK, Error, ErrorKind};
use cowrex::eval;

#[derive(Subcommand)]
pub(super) enum TrainCommand {
    /// Train texrex's MLP (37-H-1) with RPROP.
    Mlp(TrainMlpArgs),
    /// Train NCleaner's clean and dirty character n-gram models.
    Ngram(TrainNgramArgs),
    /// Compute a text-quality profile (texrex's badness) from good text of one language.
    Profile(TrainProfileArgs),
    /// Train the markup model (what the words of `class` and `id` values say about a block)
    /// on pages with gold text and, where there are, block labels.
    Markup(TrainMarkupArgs),
    /// Train the combined model on pages with gold text and, where there are, block labels.
    Combined(TrainCombinedArgs),
    /// Train the comment detector on the pages whose data marks comments (L3S-GN1's user
    /// comments, Dragnet's comment sections, WCXB's forum pages as pages without one).
    Comment(TrainCommentArgs),
}

/// The pages the markup and combined models learn from.
#[derive(Args)]
pub(super) struct PagesArgs {
    /// Directory in the layout of ../shared/data/pages (html/<set>/, ground-truth/<set>.jsonl);
    /// repeatable. Pages with snippet gold only (as ../shared/data/snippets) give partial block
    /// labels: the blocks their `with` snippets touch are content, those their `without`
    /// snippets touch boilerplate.
    #[arg(long, value_name = "DIR", required = true)]
    pages: Vec<PathBuf>,
    /// Annotated pages (as ../shared/data/blocks) whose labels replace the gold-text alignment
    /// for the pages they cover.
    #[arg(long, value_name = "DIR")]
    blocks: Option<PathBuf>,
    /// Only these sets (comma-separated; default: all).
    #[arg(long, value_delimiter = ',', value_name = "SET")]
    sets: Vec<String>,
}

#[derive(Args)]
pub(super) struct TrainMarkupArgs {
    #[command(flatten)]
    data: PagesArgs,
    /// Where to write the model (gzipped when it ends in .gz).
    #[arg(short, long, value_name = "MODEL")]
    out: PathBuf,
    /// Worker threads (default: available cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Args)]
pub(super) struct TrainCommentArgs {
    #[command(flatten)]
    data: PagesArgs,
    /// Where to write the model (gzipped when it ends in .gz).
    #[arg(short, long, value_name = "MODEL", required_unless_present = "cv")]
    out: Option<PathBuf>,
    /// Print, for each source, the comment blocks that a model trained on the other sources
    /// finds and misses (leave one source out); with --out, the model is written too.
    #[arg(long)]
    cv: bool,
    /// Worker threads (default: available cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Args)]
pub(super) struct TrainCombinedArgs {
    #[command(flatten)]
    data: PagesArgs,
    #[command(flatten)]
    gbt: GbtArgs,
    /// Where to write the model (gzipped when it ends in .gz).
    #[arg(short, long, value_name = "MODEL")]
    out: PathBuf,
    /// Worker threads (default: available cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// How the combined model's trees are trained.
#[derive(Args)]
pub(super) struct GbtArgs {
    /// Number of trees of the combined model.
    #[arg(long, default_value_t = classify::gbt::TrainConfig::default().trees)]
    trees: usize,
    /// Maximum depth of its trees.
    #[arg(long, default_value_t = classify::gbt::TrainConfig::default().depth)]
    depth: usize,
    /// Shrinkage of every tree's values.
    #[arg(long, default_value_t = classify::gbt::TrainConfig::default().learning_rate)]
    learning_rate: f32,
    /// Share of the labelled blocks each tree is grown on (drawn per tree).
    #[arg(long, default_value_t = classify::gbt::TrainConfig::default().subsample, value_parser = share)]
    subsample: f32,
    /// Share of the features each tree may split on (drawn per tree).
    #[arg(long, default_value_t = classify::gbt::TrainConfig::default().colsample, value_parser = share)]
    colsample: f32,
    /// L2 penalty on the trees' leaf values (above 0: an empty leaf's value is 0 / lambda).
    #[arg(long, default_value_t = classify::gbt::TrainConfig::default().lambda, value_parser = positive)]
    lambda: f64,
    /// Minimum weight (summed hessian) of a leaf.
    #[arg(long, default_value_t = classify::gbt::TrainConfig::default().min_leaf, value_parser = non_negative)]
    min_leaf: f64,
    /// Oblivious trees: every level of a tree splits on one feature and threshold (cheaper to
    /// score); `false` grows each node's best split instead.
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set,
          default_value_t = classify::gbt::TrainConfig::default().oblivious)]
    oblivious: bool,
    /// Learn each block as content by its share of content words and as boilerplate by the
    /// rest, instead of by the label of most of its words.
    #[arg(long)]
    pub(super) soft_labels: bool,
    /// Each page weighs as many blocks as it has labelled, so sets of long pages weigh more
    /// (by default every set weighs the same in training).
    #[arg(long)]
    weigh_blocks: bool,
}

/// A share: a number above 0 and at most 1.
pub(super) fn share(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err(format!(
            "{s:?} is not a share (a number above 0 and at most 1)"
        )),
    }
}

/// A finite number of at least 0.
pub(super) fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("{s:?} is not a number of at least 0")),
    }
}

/// A finite number above 0.
pub(super) fn positive(s: &str) -> Result<f64, String> {
    match non_negative(s) {
        Ok(x) if x > 0.0 => Ok(x),
        _ => Err(format!("{s:?} is not a number above 0")),
    }
}

impl GbtArgs {
    pub(super) fn training(&self) -> cowrex::train::CombinedTraining {
        cowrex::train::CombinedTraining {
            gbt: self.config(),
            weigh_blocks: self.weigh_blocks,
        }
    }

    fn config(&self) -> classify::gbt::TrainConfig {
        classify::gbt::TrainConfig {
            trees: self.trees,
            depth: self.depth,
            learning_rate: self.learning_rate,
            subsample: self.subsample,
            colsample: self.colsample,
            oblivious: self.oblivious,
            lambda: self.lambda,
            min_leaf: self.min_leaf,
            ..Default::default()
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum FoldingArg {
    Standard,
    Nonlexical,
}

#[derive(Args)]
pub(super) struct TrainNgramArgs {
    /// Where to write the model (gzipped when the name ends in .gz).
    #[arg(short, long, value_name = "MODEL")]
    out: PathBuf,
    /// standard: ASCII kept, the rest folded to `~` (n = 3, q = 0.5 by default);
    /// nonlexical: letters → `a`, digits → `0` as well (n = 6, q = 0.4).
    #[arg(long, value_enum, default_value_t = FoldingArg::Standard)]
    folding: FoldingArg,
    /// n-gram order (1-7).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=7))]
    order: Option<u32>,
    /// Interpolation parameter q in (0, 1).
    #[arg(long, value_name = "Q")]
    q: Option<f64>,
    /// Clean text (paragraphs separated by blank lines); repeatable.
    #[arg(long, value_name = "FILE")]
    clean: Vec<PathBuf>,
    /// Dirty text (boilerplate); repeatable.
    #[arg(long, value_name = "FILE")]
    dirty: Vec<PathBuf>,
    /// Raw text dumps: their counts minus the clean counts (clamped at 0) are added to the dirty
    /// model (NCleaner's differential training); repeatable.
    #[arg(long, value_name = "FILE")]
    raw: Vec<PathBuf>,
    /// A directory in the layout of ../shared/data/pages: each page's gold text is clean, and
    /// every block cowrex finds in the page is raw (differential training); repeatable. Pages
    /// with snippet gold only are left out.
    #[arg(long, value_name = "DIR")]
    pages: Vec<PathBuf>,
    /// Only these sets of --pages (comma-separated; default: all).
    #[arg(long, value_delimiter = ',', value_name = "SET")]
    sets: Vec<String>,
}

#[derive(Args)]
pub(super) struct TrainMlpArgs {
    /// Training data: a FANN .dat file, or TSV (features then label per line, 1 = boilerplate).
    #[arg(long, value_name = "FILE")]
    data: PathBuf,
    /// Where to write the model (compact format).
    #[arg(
        short,
        long,
        value_name = "MODEL",
        required_unless_present_any = ["evaluate", "cv"]
    )]
    out: Option<PathBuf>,
    #[arg(long, default_value_t = 18)]
    hidden: usize,
    #[arg(long, default_value_t = 500)]
    epochs: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Report K-fold cross-validated figures; the last line printed is
    /// `accuracy=… precision=… recall=… f1=…` (boilerplate = positive class).
    #[arg(long, value_name = "K")]
    cv: Option<usize>,
    /// Error function whose gradient RPROP follows (texrex's networks: tanh, FANN's default).
    #[arg(long, value_parser = super::choice::<mlp::ErrorFunction>(), default_value_t = mlp::ErrorFunction::Tanh)]
    error: mlp::ErrorFunction,
    /// Only evaluate this existing model on the data.
    #[arg(long, value_name = "MODEL")]
    evaluate: Option<PathBuf>,
    /// Decision threshold for the reported figures.
    #[arg(long, default_value_t = 0.5)]
    threshold: f32,
}

pub(super) fn load_dataset(p: &Path) -> Result<mlp::Dataset, Error> {
    let text = std::fs::read_to_string(p).map_err(|e| Error::input(p.display(), e))?;
    let first = text.lines().next().unwrap_or("");
    let d = if first.split_whitespace().count() == 3 && !first.contains('\t') {
        mlp::Dataset::from_fann_dat(&text)
    } else {
        mlp::Dataset::from_tsv(&text)
    }
    .map_err(|e| Error::new(ErrorKind::Input, format!("{}: {e}", p.display())).caused_by(e))?;
    if d.is_empty() {
        return Err(Error::new(
            ErrorKind::Input,
            format!("{}: no examples", p.display()),
        ));
    }
    Ok(d)
}

pub(super) fn print_figures(label: &str, c: &mlp::Confusion) {
    println!(
        "{label}accuracy={:.4} precision={:.4} recall={:.4} f1={:.4}",
        c.accuracy(),
        c.precision(),
        c.recall(),
        c.f1()
    );
}

pub(super) fn train_mlp(a: TrainMlpArgs) -> CliResult {
    let data = load_dataset(&a.data)?;
    if let Some(m) = &a.evaluate {
        let model = mlp::Mlp::load(m)?;
        print_figures("", &mlp::evaluate(&model, &data, a.threshold));
        return Ok(EXIT_OK);
    }
    let cfg = mlp::TrainConfig {
        hidden: a.hidden,
        epochs: a.epochs,
        seed: a.seed,
        error: a.error,
    };
    if let Some(out) = &a.out {
        let m = mlp::train(&data, cfg);
        std::fs::write(out, m.to_compact()).map_err(|e| Error::output(out.display(), e))?;
        print_figures("training set: ", &mlp::evaluate(&m, &data, a.threshold));
    }
    if let Some(k) = a.cv {
        if k < 2 || k > data.len() {
            return Err(Error::usage(format!(
                "--cv needs 2 ≤ K ≤ {} examples",
                data.len()
            )));
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let outputs = mlp::cross_validate(&data, cfg, k, threads);
        if let Some((th, c)) = mlp::balanced_threshold(&outputs, &data.y) {
            println!(
                "{k}-fold cv, threshold where precision = recall: {th:.2} (precision={:.4} recall={:.4} accuracy={:.4})",
                c.precision(),
                c.recall(),
                c.accuracy()
            );
        }
        println!("{k}-fold cv at threshold {}:", a.threshold);
        print_figures("", &mlp::confusion(&outputs, &data.y, a.threshold));
    }
    Ok(EXIT_OK)
}

pub(super) fn ngram_params(
    folding: FoldingArg,
    order: Option<u32>,
    q: Option<f64>,
) -> Result<ngram::Params, String> {
    let mut p = match folding {
        FoldingArg::Standard => ngram::Params::STANDARD,
        FoldingArg::Nonlexical => ngram::Params::NON_LEXICAL,
    };
    if let Some(n) = order {
        p.order = n as usize;
    }
    if let Some(q) = q {
        if !(q > 0.0 && q < 1.0) {
            return Err(format!("--q must be in (0, 1), not {q}"));
        }
        p.q = q;
    }
    Ok(p)
}

pub(super) fn read_text(p: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(p).map_err(|e| Error::input(p.display(), e))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

pub(super) fn train_ngram(a: TrainNgramArgs) -> CliResult {
    let params = ngram_params(a.folding, a.order, a.q).map_err(Error::usage)?;
    if a.clean.is_empty() && a.pages.is_empty() {
        return Err(Error::usage("give clean text: --clean FILE or --pages DIR"));
    }
    if a.dirty.is_empty() && a.raw.is_empty() && a.pages.is_empty() {
        return Err(Error::usage(
            "give dirty text: --dirty FILE, --raw FILE (differential) or --pages DIR",
        ));
    }
    let new = || ngram::Counts::new(params.order, params.folding);
    let (mut clean, mut dirty, mut raw) = (new(), new(), new());
    for (files, counts) in [
        (&a.clean, &mut clean),
        (&a.dirty, &mut dirty),
        (&a.raw, &mut raw),
    ] {
        for f in files {
            for p in ngram::paragraphs(&read_text(f)?) {
                counts.add_segment(&p);
            }
        }
    }
    if !a.pages.is_empty() {
        let (sets, pages) = load_pages(&a.pages, &a.sets)?;
        let models = Models::new(LangChoice::Fixed(ModelLang::En), NgramChoice::Off);
        let docs = eval::sets::analyze_sets(
            &pages,
            &models,
            &Config::for_scores(),
            threads_or_cores(None),
        )?;
        for ((_, p), d) in pages.iter().zip(&docs) {
            if let Some(gold) = &p.gold {
                cowrex::train::count_page(gold, eval::blocks_of(d), &mut clean, &mut raw);
            }
        }
        eprintln!("cowrex: {} pages of {}", pages.len(), sets.join(", "));
    }
    dirty.merge(&ngram::Counts::difference(&raw, &clean), 1);
    eprintln!(
        "cowrex: clean model {} characters, dirty model {} characters",
        clean.chars(),
        dirty.chars()
    );
    write_model(&a.out, &ngram::model_text(&params, &clean, &dirty))
}

pub(super) fn train_combined(a: TrainCombinedArgs) -> CliResult {
    let (sets, pages) = load_pages(&a.data.pages, &a.data.sets)?;
    let models = Models::builtin();
    let threads = threads_or_cores(a.threads);
    let mut docs = eval::sets::analyze_sets(&pages, &models, &Config::for_scores(), threads)?;
    // The built-in n-gram models were trained on these pages: train on the scores that models
    // trained without each page give it (10 folds), as unseen pages will get.
    let gold: Vec<Option<&str>> = pages.iter().map(|(_, p)| p.gold.as_deref()).collect();
    cowrex::train::cross_validate_ngram(
        &gold,
        &mut docs,
        &models,
        &cowrex::train::Folds::by_page(gold.len(), 10),
    );
    let labels = eval::sets::block_labels(
        a.data.blocks.as_deref(),
        &sets,
        &pages,
        &docs,
        a.gbt.soft_labels,
    )?;
    // The built-in markup model was trained on these pages too: the same, 10 folds.
    let list: Vec<&eval::GoldPage> = pages.iter().map(|(_, p)| p).collect();
    cowrex::train::cross_validate_markup(
        &list,
        &mut docs,
        &labels,
        &cowrex::train::Folds::by_page(list.len(), 10),
    )?;
    let labelled = labels.iter().flatten().flatten();
    let positive = labelled.clone().filter(|&&share| share < 0.5).count();
    eprintln!(
        "cowrex: {} pages of {}; {} labelled blocks, {} boilerplate",
        pages.len(),
        sets.join(", "),
        labelled.count(),
        positive
    );
    let rows = cowrex::train::feature_rows(&docs);
    let sources = eval::sets::page_sources(&pages);
    let (model, temperature) = cowrex::train::train_combined(
        &docs,
        &labels,
        &rows,
        &sources,
        &eval::sets::partial_labels(&pages),
        |_| true,
        a.gbt.training(),
        threads,
    );
    eprintln!("cowrex: main stage calibrated at temperature {temperature}");
    write_model(&a.out, &model.to_text())
}

pub(super) fn train_comment(a: TrainCommentArgs) -> CliResult {
    let (sets, pages) = load_pages(&a.data.pages, &a.data.sets)?;
    let threads = threads_or_cores(a.threads);
    let mut docs =
        eval::sets::analyze_sets(&pages, &Models::builtin(), &Config::for_scores(), threads)?;
    let labels = eval::sets::comment_labels(a.data.blocks.as_deref(), &sets, &pages, &docs)?;
    let sources = eval::sets::page_sources(&pages);
    let labelled: Vec<bool> = labels.iter().flatten().flatten().copied().collect();
    eprintln!(
        "cowrex: {} of {} pages of {} have comment labels; {} labelled blocks, {} comments",
        labels.iter().filter(|l| l.is_some()).count(),
        pages.len(),
        sets.join(", "),
        labelled.len(),
        labelled.iter().filter(|&&c| c).count()
    );
    if let Some(out) = &a.out {
        let model = cowrex::train::train_comment(&docs, &labels, &sources, |_| true, threads);
        write_model(out, &model.to_text())?;
    }
    if a.cv {
        let folds = cowrex::train::Folds::by_source(&sources);
        let figures =
            cowrex::train::cross_validate_comment(&mut docs, &labels, &sources, &folds, threads);
        print_comment_figures(&sets, &figures);
    }
    Ok(EXIT_OK)
}

/// Print how many comment blocks cross-validated models found and missed, source by source
/// (`train comment --cv`, `eval --cv`/`--loso`); returns the figures as JSON.
pub(super) fn print_comment_figures(
    sets: &[String],
    figures: &[(usize, cowrex::train::CommentFigures)],
) -> serde_json::Value {
    println!("comment blocks (each page scored by comment models trained without its fold)");
    println!(
        "{:<20} {:>6} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "set", "pages", "blocks", "found", "missed", "false", "recall", "prec"
    );
    let mut out = serde_json::Map::new();
    for (source, f) in figures {
        let ratio = |a: usize, b: usize| (b > 0).then(|| a as f64 / b as f64);
        let shown = |r: Option<f64>| r.map_or("–".to_owned(), |r| format!("{r:.3}"));
        let (recall, precision) = (
            ratio(f.found, f.found + f.missed),
            ratio(f.found, f.found + f.false_comments),
        );
        println!(
            "{:<20} {:>6} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
            sets[*source],
            f.pages,
            f.blocks,
            f.found,
            f.missed,
            f.false_comments,
            shown(recall),
            shown(precision)
        );
        out.insert(
            sets[*source].clone(),
            serde_json::json!({
                "pages": f.pages, "blocks": f.blocks, "found": f.found, "missed": f.missed,
                "false": f.false_comments, "recall": recall, "precision": precision,
                "words": {"found": f.words[0], "missed": f.words[1], "false": f.words[2]},
            }),
        );
    }
    if figures.is_empty() {
        println!("(no pages with comment labels)");
    }
    serde_json::Value::Object(out)
}

pub(super) fn train_markup(a: TrainMarkupArgs) -> CliResult {
    let (sets, pages) = load_pages(&a.data.pages, &a.data.sets)?;
    let models = Models::builtin();
    let docs = eval::sets::analyze_sets(
        &pages,
        &models,
        &Config::for_scores(),
        threads_or_cores(a.threads),
    )?;
    let labels = eval::sets::block_labels(a.data.blocks.as_deref(), &sets, &pages, &docs, false)?;
    let list: Vec<&eval::GoldPage> = pages.iter().map(|(_, p)| p).collect();
    let model = cowrex::train::train_markup(&list, &docs, &labels)?;
    eprintln!(
        "cowrex: {} pages of {}; {} words of class and id values seen on {} hosts or more",
        pages.len(),
        sets.join(", "),
        model.len(),
        classify::markup::MIN_HOSTS
    );
    write_model(&a.out, &model.to_text())
}

/// Write a model's text, gzipped when the file name ends in `.gz` (deterministic bytes).
pub(super) fn write_model(out: &Path, text: &str) -> CliResult {
    let bytes = if out.extension().is_some_and(|e| e == "gz") {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(text.as_bytes())
            .and_then(|()| enc.finish())
            .expect("gzip into memory")
    } else {
        text.as_bytes().to_vec()
    };
    std::fs::write(out, bytes).map_err(|e| Error::output(out.display(), e))?;
    Ok(EXIT_OK)
}

#[derive(Args)]
pub(super) struct TrainProfileArgs {
    /// Text: JSONL files (the `text` or `plaintext` key of each line is a document), other
    /// files (each one document), or directories of such files.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Language of the profile, ISO 639-3 as in the `language` attribute (eng, deu, fra, swe …).
    #[arg(long, value_name = "CODE")]
    lang: String,
    /// Profile file to write.
    #[arg(short, long, value_name = "FILE")]
    out: PathBuf,
    /// Profile words (texrex: 10).
    #[arg(long, default_value_t = 10, value_name = "N")]
    words: usize,
    /// Most badness one word adds (texrex: 5).
    #[arg(long, default_value_t = 5.0, value_name = "X")]
    limit: f64,
    /// Leave out documents with fewer tokens.
    #[arg(long, default_value_t = 100, value_name = "N")]
    min_tokens: usize,
    /// Use every document, not only those identified as `--lang`.
    #[arg(long)]
    all_languages: bool,
}

fn train_profile(a: TrainProfileArgs) -> CliResult {
    let lang = a.lang.as_str();
    if !cowrex::lid::labels::known(lang) {
        return Err(Error::usage(format!(
            "unknown language code {lang:?}; use ISO 639-3 (eng, deu, fra, swe …)"
        )));
    }
    let identifier = classify::Models::builtin();
    let identifier = identifier.identifier();
    let files = expand(&a.inputs, |_| true, false)?;
    let mut docs: Vec<String> = Vec::new();
    for f in &files {
        let name = f.to_string_lossy();
        let mut text = String::new();
        cowrex::output::gz::open(f)
            .and_then(|mut r| std::io::Read::read_to_string(&mut r, &mut text))
            .map_err(|e| Error::input(f.display(), e))?;
        if name.ends_with(".jsonl") || name.ends_with(".jsonl.gz") {
            for line in cowrex::eval::jsonl_lines(f, &text) {
                let (_, v) = line?;
                let t = v
                    .get("text")
                    .or_else(|| v.get("plaintext"))
                    .and_then(|t| t.as_str());
                docs.extend(t.map(str::to_string));
            }
        } else {
            docs.push(text);
        }
    }
    let total = docs.len();
    let kept: Vec<&str> = docs
        .iter()
        .map(String::as_str)
        .filter(|d| {
            a.all_languages
                || cowrex::analyze::identify_texts([*d], identifier).map(|l| l.code) == Some(lang)
        })
        .collect();
    let p = Profile::train(lang, kept.iter().copied(), a.words, a.limit, a.min_tokens)?;
    std::fs::write(&a.out, p.to_text()).map_err(|e| Error::output(a.out.display(), e))?;
    eprintln!(
        "cowrex: {} documents read, {} in {}, {} with at least {} tokens; profile of {} words in {}",
        total,
        kept.len(),
        lang,
        p.docs,
        a.min_tokens,
        p.words.len(),
        a.out.display()
    );
    Ok(EXIT_OK)
}

/// Run a `train` subcommand.
pub(super) fn train(t: TrainCommand) -> CliResult {
    match t {
        TrainCommand::Mlp(a) => train_mlp(a),
        TrainCommand::Ngram(a) => train_ngram(a),
        TrainCommand::Profile(a) => train_profile(a),
        TrainCommand::Combined(a) => train_combined(a),
        TrainCommand::Markup(a) => train_markup(a),
        TrainCommand::Comment(a) => train_comment(a),
    }
}

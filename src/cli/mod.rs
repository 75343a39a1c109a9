//! The command line: one function per subcommand, each a thin layer over the library.

mod batch;
mod corpus;
mod inspect;

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::classify::{self, LangChoice, ModelLang, Models, NgramChoice, mlp, ngram};
use crate::document::{self, Config, DocFilter, DupBlocks};
use crate::error::{EXIT_INPUT_FAILED, EXIT_INTERRUPTED, EXIT_OK, Error};
use crate::eval;
use crate::extractor::{Extractor, Options};
use crate::features::texrex::format_general;
use crate::html::{Limits, Syntax};
use crate::output::xml;
use crate::pipeline::{self, ExactDups, Formats, Input, Progress, RunConfig};
use crate::warc::{Location, Retry};

#[derive(Parser)]
#[command(
    name = "cowrex",
    version,
    about = "Turn WARC files into texrex-style XML web corpora, every text block scored for boilerplate."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Process WARC files into corpus files (S.xml.gz, S.stats.json, S.done.json per input S).
    Process(ProcessArgs),
    /// Extract the text of one HTML page (non-boilerplate blocks, or every block with scores).
    Extract(ExtractArgs),
    /// Write one page (or one record of a WARC file) as an HTML file that shows every block,
    /// its kind, its scores and whether it is kept.
    Inspect(inspect::InspectArgs),
    /// Write a report of a whole run (from its output directory) as an HTML file: fates,
    /// documents, languages, hosts, score histograms, duplicates, throughput per input.
    Report(inspect::ReportArgs),
    /// Print texrex's 37 features of every block of one HTML page.
    Features(FeaturesArgs),
    /// Train models.
    #[command(subcommand)]
    Train(TrainCommand),
    /// Measure extraction against gold texts (bag-of-words precision, recall and F1 per set).
    Eval(EvalArgs),
    /// Count the inputs of a manifest that are done, failed or missing in an output directory.
    Status(batch::StatusArgs),
    /// Find near-duplicate documents in shingle files; write a blacklist of the shorter ones.
    Dedup(corpus::DedupArgs),
    /// Remove blacklisted documents (and repeated ids) from corpus files.
    Filter(corpus::FilterArgs),
    /// Work with S.stats.json files.
    #[command(subcommand)]
    Stats(StatsCommand),
}

#[derive(Subcommand)]
enum StatsCommand {
    /// Sum the per-file statistics of a run into one JSON object (stdout, or -o).
    Merge(corpus::StatsMergeArgs),
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LangArg {
    Auto,
    En,
    De,
    Fr,
    Sv,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum NgramArg {
    Auto,
    Standard,
    Nonlexical,
    Off,
}

/// The n-gram decision, for the commands that make one (`process` only writes scores).
#[derive(Args, Clone, Copy)]
struct BiasArg {
    /// A segment is clean when its n-gram score (bits per character) is at least this.
    #[arg(
        long,
        default_value_t = 0.0,
        value_name = "BITS",
        allow_negative_numbers = true
    )]
    bias: f32,
}

#[derive(Args, Clone)]
struct ModelArgs {
    /// Which built-in MLP scores a document: `auto` identifies the document's language
    /// (whatlang) and uses the en/de/fr/sv model, English for other or unidentified languages.
    #[arg(long, value_enum, default_value_t = LangArg::Auto)]
    lang: LangArg,
    /// Boilerplate MLP for every document instead of the built-in ones (cowrex compact format
    /// or FANN .net).
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// NCleaner n-gram score per block: `auto` uses the standard (English) model for English
    /// documents and the non-lexical model for the rest.
    #[arg(long, value_enum, default_value_t = NgramArg::Auto)]
    ngram: NgramArg,
    /// N-gram model file (from `cowrex train ngram`) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    ngram_model: Option<PathBuf>,
    /// A block whose score (bpv) is above this is boilerplate. Default: for the combined model,
    /// each document's threshold that maximises the expected bag-of-words F1 of its content
    /// (written as `bpt`); 0.5 for the other scorers.
    #[arg(long, value_name = "T")]
    threshold: Option<f32>,
    /// Stop segmenting a page at this many open elements.
    #[arg(long, default_value_t = Limits::default().max_depth, value_name = "N")]
    max_depth: usize,
    /// Stop segmenting a page at this many blocks.
    #[arg(long, default_value_t = Limits::default().max_blocks, value_name = "N")]
    max_blocks: usize,
    /// Stop segmenting a page when its work reaches N units: one per tag, plus for every block
    /// the elements open where it starts (counted, so the cut is the same on every machine).
    #[arg(long, default_value_t = Limits::default().max_work, value_name = "N")]
    max_work: u64,
    /// Recognise tags as texrex does, bugs included (a stray quote hides markup up to the next
    /// quote, `<` in scripts starts tags) instead of HTML5 tokenizing.
    #[arg(long)]
    texrex_syntax: bool,
    /// Mask these in the output text as texrex does (` emailblank `, ` uriblank `,
    /// ` hashtagblank `), comma-separated; the scorers always read texrex's masked text.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "WHAT")]
    mask: Vec<MaskArg>,
    /// Write texrex's second-pass text instead of the page's: entities decoded twice, tags,
    /// e-mail addresses, URIs and hashtags masked, every block on one line (with
    /// --texrex-syntax, the text texrex writes).
    #[arg(long, conflicts_with = "mask")]
    texrex_text: bool,
    /// Text-quality profile (from `cowrex train profile`) instead of the built-in en, de, fr
    /// and sv ones; repeat for several languages.
    #[arg(long, value_name = "FILE")]
    profile: Vec<PathBuf>,
    /// Combined model (from `cowrex train combined`) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    combined_model: Option<PathBuf>,
    /// Markup model (from `cowrex train markup`) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    markup_model: Option<PathBuf>,
}

/// Which scorer decides a block's `bpv` (the others' results are written all the same).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DecideArg {
    /// The combined model over all detectors and structural cues.
    Combined,
    /// texrex's MLP (by language).
    Mlp,
    /// NCleaner's n-gram score: bpv = 1 / (1 + e^score).
    Ngram,
    /// jusText: GOOD = 0, BAD = 1.
    Justext,
    /// boilerpipe's number-of-words classifier (Algorithm 2): content = 0, boilerplate = 1.
    Boilerpipe,
}

impl DecideArg {
    fn scorer(self) -> classify::Scorer {
        match self {
            DecideArg::Combined => classify::Scorer::Combined,
            DecideArg::Mlp => classify::Scorer::Mlp,
            DecideArg::Ngram => classify::Scorer::Ngram,
            DecideArg::Justext => classify::Scorer::Justext,
            DecideArg::Boilerpipe => classify::Scorer::Boilerpipe,
        }
    }
}

#[derive(Args)]
#[command(
    after_help = "Exit codes: 0 all inputs done; 1 some input could not be read (the others \
were processed); 2 usage error; 74 an output could not be written; 75 stopped by SIGTERM, \
SIGUSR1 or SIGINT: the input in progress was dropped, the finished ones kept; run the same \
command again to go on."
)]
struct ProcessArgs {
    /// WARC files (.warc, .warc.gz), directories (their WARC files, sorted), http(s) URLs
    /// (streamed), or - for stdin.
    #[arg(required_unless_present = "manifest", value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// A list of inputs, one per line (gzipped or not), such as Common Crawl's
    /// warc.paths.gz: paths relative to --input-base, absolute paths, file:// or http(s)://
    /// URLs. Outputs mirror each line's relative path under -o.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// What relative manifest lines are relative to: a directory (default: the current one)
    /// or an http(s) URL, such as https://data.commoncrawl.org/.
    #[arg(long, value_name = "BASE", requires = "manifest")]
    input_base: Option<String>,
    /// Process only the manifest lines whose number (from 0) mod --task-count is this
    /// (default: $SLURM_ARRAY_TASK_ID − $SLURM_ARRAY_TASK_MIN, else 0).
    #[arg(long, value_name = "I", requires = "manifest")]
    task_index: Option<usize>,
    /// Number of tasks the manifest is shared by (default: $SLURM_ARRAY_TASK_COUNT, else 1).
    #[arg(long, value_name = "N", requires = "manifest")]
    task_count: Option<usize>,
    /// Redo inputs whose S.done.json says they were done with the same configuration (by
    /// default they are skipped).
    #[arg(long)]
    force: bool,
    /// Output directory.
    #[arg(short, long, value_name = "DIR")]
    out: PathBuf,
    /// Worker threads (default: available cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
    /// The scorer whose result is `bpv` and decides what is boilerplate.
    #[arg(long, value_enum, default_value_t = DecideArg::Combined)]
    scorer: DecideArg,
    #[command(flatten)]
    model: ModelArgs,
    /// Retries of an http(s) input after a failed request or a broken connection (the count
    /// restarts once bytes arrive); a download resumes from the byte it had reached.
    #[arg(long, default_value_t = Retry::default().retries, value_name = "N")]
    http_retries: u32,
    /// Seconds before the first retry; the wait doubles with each retry, up to 60 s.
    #[arg(long, default_value_t = Retry::default().wait.as_secs_f64(), value_name = "SECS")]
    http_retry_wait: f64,
    /// Seconds without a response or a byte after which a connection counts as failed.
    #[arg(long, default_value_t = Retry::default().timeout.as_secs_f64(), value_name = "SECS")]
    http_timeout: f64,
    /// Skip records whose block is larger than this many bytes.
    #[arg(long, default_value_t = pipeline::MAX_PAYLOAD, value_name = "BYTES")]
    max_payload: u64,
    /// Drop documents with too little content (texrex's thresholds: at least 1 content block,
    /// 500 content characters, 25 % content characters, 10 % content blocks).
    #[arg(long)]
    filter: bool,
    /// gzip level of the outputs: 0 (stored) to 12 (libdeflate's levels; 6 is about zlib's
    /// default). Shingles get at most 1.
    #[arg(long, default_value_t = crate::output::gz::DEFAULT_LEVEL, value_name = "L", value_parser = clap::value_parser!(u32).range(0..=12))]
    compression: u32,
    /// Corpus formats, comma-separated: xml (texrex's), jsonl (one document per line), vrt
    /// (one token per line, for cwb-encode).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "xml",
        value_name = "FORMATS"
    )]
    format: Vec<CorpusFormat>,
    /// Do not write S.shingles.gz (w-shingles for `cowrex dedup`).
    #[arg(long)]
    no_shingles: bool,
    /// Write S.links.gz: document URL, link, relation, document badness, block bpv.
    #[arg(long)]
    links: bool,
    /// JSONL documents get a `markdown` field: the content as Markdown.
    #[arg(long)]
    markdown: bool,
    /// Markdown without links (their text stays).
    #[arg(long, requires = "markdown")]
    no_markdown_links: bool,
    /// Blocks repeating an earlier block of their document: mark (`<dup idx of>`), drop, or
    /// keep (not detected).
    #[arg(long, value_enum, default_value_t = DupBlocksArg::Mark, value_name = "HOW")]
    dup_blocks: DupBlocksArg,
    /// Documents with the same text as an earlier one of their input file: mark (`duplicate-of`), skip
    /// (fate `skipped.duplicate`), or keep (not detected).
    #[arg(long, value_enum, default_value_t = ExactDupsArg::Mark, value_name = "HOW")]
    exact_dups: ExactDupsArg,
    /// Skip documents whose badness (text quality, 0 best … 50) is above this (texrex: 35).
    #[arg(long, value_name = "B")]
    max_badness: Option<f64>,
    /// Content blocks for shingles and badness: bpv at most the threshold and at least this
    /// many bytes (texrex's MinLength).
    #[arg(long, default_value_t = 100, value_name = "BYTES")]
    min_length: usize,
    /// Progress on stderr: a progress line on a terminal (auto, bar), JSON lines for log
    /// collectors (jsonl: every --progress-interval seconds and at the end), or none (off).
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto, value_name = "HOW")]
    progress: ProgressArg,
    /// Seconds between two `--progress jsonl` lines.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    progress_interval: f64,
    /// The same as --progress off.
    #[arg(long)]
    no_progress: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ProgressArg {
    Auto,
    Bar,
    Jsonl,
    Off,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CorpusFormat {
    Xml,
    Jsonl,
    Vrt,
}

/// What `--mask` masks.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MaskArg {
    /// E-mail addresses.
    Email,
    /// URIs (`scheme://…` and `www.…`).
    Uri,
    /// Hashtags.
    Hashtag,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DupBlocksArg {
    Mark,
    Drop,
    Keep,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ExactDupsArg {
    Mark,
    Skip,
    Keep,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Tsv,
    Json,
    /// The content as Markdown (CommonMark with GFM tables).
    Markdown,
}

#[derive(Args)]
struct ExtractArgs {
    /// HTML file (may start with an ARC or HTTP header), or - for stdin.
    #[arg(default_value = "-", value_name = "FILE")]
    file: PathBuf,
    /// text: the non-boilerplate blocks, one per line; markdown: the same as Markdown;
    /// tsv/json: every block with its scores.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Markdown without links (their text stays).
    #[arg(long)]
    no_markdown_links: bool,
    /// URL of the page (for host and charset hints).
    #[arg(long, default_value = "")]
    url: String,
    /// FILE is plain text (a text dump), not HTML: its paragraphs (separated by blank lines)
    /// are scored with the n-gram model; `text` prints those scoring at least `--bias`.
    #[arg(long)]
    plain_text: bool,
    /// The scorer whose result is `bpv` and decides what is boilerplate.
    #[arg(long, value_enum, default_value_t = DecideArg::Combined)]
    scorer: DecideArg,
    #[command(flatten)]
    bias: BiasArg,
    #[command(flatten)]
    model: ModelArgs,
}

#[derive(Args)]
struct FeaturesArgs {
    /// HTML file (may start with an ARC or HTTP header), or - for stdin. Features are computed
    /// exactly as texrex does, with texrex's tag scanner.
    #[arg(long, value_name = "FILE")]
    texrex: PathBuf,
    /// Segment with the HTML5 tokenizer (as `process` does by default) instead of texrex's.
    #[arg(long)]
    html5: bool,
}

#[derive(Subcommand)]
enum TrainCommand {
    /// Train texrex's MLP (37-H-1) with RPROP.
    Mlp(TrainMlpArgs),
    /// Train NCleaner's clean and dirty character n-gram models.
    Ngram(TrainNgramArgs),
    /// Compute a text-quality profile (texrex's badness) from good text of one language.
    Profile(corpus::TrainProfileArgs),
    /// Train the markup model (what the words of `class` and `id` values say about a block)
    /// on pages with gold text and, where there are, block labels.
    Markup(TrainMarkupArgs),
    /// Train the combined model on pages with gold text and, where there are, block labels.
    Combined(TrainCombinedArgs),
}

#[derive(Args)]
struct TrainMarkupArgs {
    /// Directory in the layout of ../shared/data/pages (html/<set>/, ground-truth/<set>.jsonl).
    #[arg(long, value_name = "DIR")]
    pages: PathBuf,
    /// Annotated pages (as ../shared/data/blocks) whose labels replace the gold-text alignment
    /// for the pages they cover.
    #[arg(long, value_name = "DIR")]
    blocks: Option<PathBuf>,
    /// Only these sets (comma-separated; default: all).
    #[arg(long, value_delimiter = ',', value_name = "SET")]
    sets: Vec<String>,
    /// Where to write the model (gzipped when it ends in .gz).
    #[arg(short, long, value_name = "MODEL")]
    out: PathBuf,
    /// Worker threads (default: available cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Args)]
struct TrainCombinedArgs {
    /// Directory in the layout of ../shared/data/pages (html/<set>/, ground-truth/<set>.jsonl).
    #[arg(long, value_name = "DIR")]
    pages: PathBuf,
    /// Annotated pages (as ../shared/data/blocks) whose labels replace the gold-text alignment
    /// for the pages they cover.
    #[arg(long, value_name = "DIR")]
    blocks: Option<PathBuf>,
    /// Only these sets (comma-separated; default: all).
    #[arg(long, value_delimiter = ',', value_name = "SET")]
    sets: Vec<String>,
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
struct GbtArgs {
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
    soft_labels: bool,
    /// Each page weighs as many blocks as it has labelled, so sets of long pages weigh more
    /// (by default every set weighs the same in training).
    #[arg(long)]
    weigh_blocks: bool,
}

/// A share: a number above 0 and at most 1.
fn share(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err(format!(
            "{s:?} is not a share (a number above 0 and at most 1)"
        )),
    }
}

/// A finite number of at least 0.
fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("{s:?} is not a number of at least 0")),
    }
}

/// A finite number above 0.
fn positive(s: &str) -> Result<f64, String> {
    match non_negative(s) {
        Ok(x) if x > 0.0 => Ok(x),
        _ => Err(format!("{s:?} is not a number above 0")),
    }
}

impl GbtArgs {
    fn training(&self) -> eval::CombinedTraining {
        eval::CombinedTraining {
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
enum FoldingArg {
    Standard,
    Nonlexical,
}

#[derive(Args)]
struct TrainNgramArgs {
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
    /// every block cowrex finds in the page is raw (differential training).
    #[arg(long, value_name = "DIR")]
    pages: Option<PathBuf>,
    /// Only these sets of --pages (comma-separated; default: all).
    #[arg(long, value_delimiter = ',', value_name = "SET")]
    sets: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ScorerArg {
    /// Blocks whose combined-model score is at most --threshold (default: each page's
    /// expected-F1 threshold).
    Combined,
    /// Blocks whose MLP score is at most --threshold (default 0.5).
    Mlp,
    /// Blocks whose n-gram score is at least --bias.
    Ngram,
    /// Blocks jusText classifies GOOD.
    Justext,
    /// Content by boilerpipe's number-of-words classifier (Algorithm 2).
    Boilerpipe,
    /// Content by boilerpipe's densitometric classifier (Algorithm 1).
    BoilerpipeDensity,
    /// Content by boilerpipe's CleanEval rule (text density ≥ 7, link density ≤ 0.35).
    BoilerpipeCleaneval,
    /// Only the largest content block of Algorithm 2 (boilerpipe's largest-content filter).
    BoilerpipeLargest,
    /// Every block (no boilerplate removal): the baseline.
    All,
}

impl ScorerArg {
    /// The scorer that sets `bpv` while evaluating this one.
    fn scorer(self) -> classify::Scorer {
        match self {
            ScorerArg::Mlp => classify::Scorer::Mlp,
            ScorerArg::Ngram => classify::Scorer::Ngram,
            ScorerArg::Justext => classify::Scorer::Justext,
            ScorerArg::Boilerpipe => classify::Scorer::Boilerpipe,
            _ => classify::Scorer::Combined,
        }
    }
}

#[derive(Args)]
struct EvalArgs {
    /// Directory with html/<set>/<id>.html[.gz] and ground-truth/<set>.jsonl.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Only these sets (comma-separated; default: all).
    #[arg(long, value_delimiter = ',', value_name = "SET")]
    sets: Vec<String>,
    /// Which blocks make up the extracted text.
    #[arg(long, value_enum, default_value_t = ScorerArg::Combined)]
    scorer: ScorerArg,
    /// n-gram and combined scorers: cross-validate by page, so that no page is scored by a
    /// model trained on it (K folds over the pages of all evaluated sets; page i is in fold
    /// i mod K). The combined model takes its block labels from --blocks where a page has an
    /// annotated copy, from its gold text otherwise.
    #[arg(long, value_name = "K")]
    cv: Option<usize>,
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
    /// `blocks`: each block's `text`, `bpv`, whether it was kept, its `words`, structural `cues`
    /// (bits of the html module's `cue`), a hash of its path of tag names and classes (`path`,
    /// as a string), its `depth`, and, under --cv and --loso with the combined scorer, the
    /// combined model's training `label`: 1 content, 0 boilerplate, null unlabelled), to study
    /// decisions.
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

#[derive(Args)]
struct TrainMlpArgs {
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
    #[arg(long, value_enum, default_value_t = ErrorArg::Tanh)]
    error: ErrorArg,
    /// Only evaluate this existing model on the data.
    #[arg(long, value_name = "MODEL")]
    evaluate: Option<PathBuf>,
    /// Decision threshold for the reported figures.
    #[arg(long, default_value_t = 0.5)]
    threshold: f32,
}

#[derive(Clone, Copy, ValueEnum)]
enum ErrorArg {
    Linear,
    Tanh,
}

impl From<ErrorArg> for mlp::ErrorFunction {
    fn from(e: ErrorArg) -> Self {
        match e {
            ErrorArg::Linear => mlp::ErrorFunction::Linear,
            ErrorArg::Tanh => mlp::ErrorFunction::Tanh,
        }
    }
}

/// Run the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Process(a) => process(a),
        Command::Extract(a) => extract(a),
        Command::Features(a) => features(a),
        Command::Inspect(a) => inspect::inspect(a),
        Command::Report(a) => inspect::report(a),
        Command::Train(TrainCommand::Mlp(a)) => train_mlp(a),
        Command::Train(TrainCommand::Ngram(a)) => train_ngram(a),
        Command::Eval(a) => evaluate(a),
        Command::Dedup(a) => corpus::dedup(a),
        Command::Status(a) => batch::status(a),
        Command::Filter(a) => corpus::filter(a),
        Command::Stats(StatsCommand::Merge(a)) => corpus::stats_merge(a),
        Command::Train(TrainCommand::Profile(a)) => corpus::train_profile(a),
        Command::Train(TrainCommand::Combined(a)) => train_combined(a),
        Command::Train(TrainCommand::Markup(a)) => train_markup(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("cowrex: {e}");
            e.exit_code()
        }
    }
}

/// A subcommand's exit code, or the error that ends it.
type CliResult = Result<i32, Error>;

/// A buffered writer whose write errors are [`Error::Output`] errors naming what it writes.
struct Sink<W: Write> {
    w: io::BufWriter<W>,
    name: String,
}

impl Sink<io::StdoutLock<'static>> {
    fn stdout() -> Self {
        Sink {
            w: io::BufWriter::new(io::stdout().lock()),
            name: "standard output".into(),
        }
    }
}

impl Sink<std::fs::File> {
    fn create(path: &Path) -> Result<Self, Error> {
        let f = std::fs::File::create(path).map_err(|e| Error::output(path.display(), e))?;
        Ok(Sink {
            w: io::BufWriter::new(f),
            name: path.display().to_string(),
        })
    }
}

impl<W: Write> Sink<W> {
    fn fail(&self, e: io::Error) -> Error {
        Error::output(&self.name, e)
    }

    /// For `write!` and `writeln!`.
    fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> Result<(), Error> {
        self.w.write_fmt(args).map_err(|e| self.fail(e))
    }

    fn write_all(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.w.write_all(bytes).map_err(|e| self.fail(e))
    }

    fn flush(&mut self) -> Result<(), Error> {
        self.w.flush().map_err(|e| self.fail(e))
    }
}

/// The library's options for these arguments.
fn options(a: &ModelArgs, scorer: classify::Scorer) -> Options {
    Options {
        scorer,
        lang: match a.lang {
            LangArg::Auto => LangChoice::Auto,
            LangArg::En => LangChoice::Fixed(ModelLang::En),
            LangArg::De => LangChoice::Fixed(ModelLang::De),
            LangArg::Fr => LangChoice::Fixed(ModelLang::Fr),
            LangArg::Sv => LangChoice::Fixed(ModelLang::Sv),
        },
        ngram: match a.ngram {
            NgramArg::Auto => NgramChoice::Auto,
            NgramArg::Standard => NgramChoice::Standard,
            NgramArg::Nonlexical => NgramChoice::NonLexical,
            NgramArg::Off => NgramChoice::Off,
        },
        mlp_model: a.model.clone(),
        ngram_model: a.ngram_model.clone(),
        combined_model: a.combined_model.clone(),
        markup_model: a.markup_model.clone(),
        profiles: a.profile.clone(),
        config: doc_config(a, false),
    }
}

fn load_models(a: &ModelArgs, scorer: classify::Scorer) -> Result<Models, Error> {
    options(a, scorer).models()
}

fn doc_config(m: &ModelArgs, filter: bool) -> Config {
    Config {
        threshold: m.threshold,
        limits: Limits {
            max_depth: m.max_depth,
            max_blocks: m.max_blocks,
            max_work: m.max_work,
        },
        syntax: if m.texrex_syntax {
            Syntax::Texrex
        } else {
            Syntax::Html5
        },
        filter: filter.then(DocFilter::default),
        mask: document::Mask {
            email: m.mask.contains(&MaskArg::Email),
            uri: m.mask.contains(&MaskArg::Uri),
            hashtag: m.mask.contains(&MaskArg::Hashtag),
        },
        texrex_text: m.texrex_text,
        shingles: false,
        ..Config::default()
    }
}

fn is_warc_name(p: &Path) -> bool {
    let n = p
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    n.ends_with(".warc") || n.ends_with(".warc.gz")
}

fn process(a: ProcessArgs) -> CliResult {
    crate::signals::install()
        .map_err(|e| Error::Output(format!("cannot install signal handlers: {e}")))?;
    let models = load_models(&a.model, a.scorer.scorer())?;
    std::fs::create_dir_all(&a.out).map_err(|e| {
        Error::Output(format!(
            "cannot create output directory {}: {e}",
            a.out.display()
        ))
    })?;
    let mut inputs = Vec::new();
    let mut failed: Vec<(String, String)> = Vec::new();
    let mut spooled: Option<PathBuf> = None;
    for p in &a.inputs {
        if p.as_os_str() == "-" {
            // fastwarc needs a seekable input: spool stdin to a file in the output directory.
            let tmp = a.out.join(".stdin.warc.tmp");
            let mut f = std::fs::File::create(&tmp).map_err(|e| Error::output(tmp.display(), e))?;
            io::copy(&mut io::stdin().lock(), &mut f)
                .map_err(|e| Error::input("standard input", e))?;
            inputs.push(Input {
                location: Location::File(tmp.clone()),
                stem: "stdin".into(),
                arcfile: "-".into(),
            });
            spooled = Some(tmp);
        } else if let Some(url) = p.to_str().filter(|s| pipeline::manifest::is_url(s)) {
            match pipeline::manifest::resolve(url, None) {
                Ok(i) => inputs.push(i),
                Err(e) => {
                    eprintln!("cowrex: {e}");
                    failed.push((url.to_string(), e.to_string()));
                }
            }
        } else if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| Error::input(format!("directory {}", p.display()), e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && is_warc_name(f))
                .collect();
            files.sort();
            if files.is_empty() {
                eprintln!(
                    "cowrex: warning: no .warc or .warc.gz files in {}",
                    p.display()
                );
            }
            inputs.extend(files.into_iter().map(Input::file));
        } else if let Err(e) = std::fs::File::open(p) {
            eprintln!("cowrex: cannot read {}: {e}", p.display());
            failed.push((p.display().to_string(), e.to_string()));
        } else {
            inputs.push(Input::file(p.clone()));
        }
    }
    if let Some(m) = &a.manifest {
        let (index, count) = batch::task(a.task_index, a.task_count)?;
        let lines = pipeline::manifest::read(m)
            .map_err(|e| Error::input(format!("manifest {}", m.display()), e))?;
        for line in pipeline::manifest::shard(lines, index, count) {
            match pipeline::manifest::resolve(&line, a.input_base.as_deref()) {
                Ok(i) => inputs.push(i),
                Err(e) => {
                    eprintln!("cowrex: {e}");
                    failed.push((line, e.to_string()));
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    for i in &inputs {
        if !seen.insert(i.stem.clone()) {
            return Err(Error::Usage(format!(
                "two inputs would both write {}.xml.gz; process them into different output directories",
                i.stem
            )));
        }
    }
    let threads = threads_or_cores(a.threads);
    let progress = match (a.no_progress, a.progress) {
        (true, _) | (_, ProgressArg::Off) => Progress::Off,
        (_, ProgressArg::Bar) => Progress::Bar,
        (_, ProgressArg::Jsonl) => Progress::Jsonl {
            interval: std::time::Duration::from_secs_f64(a.progress_interval.clamp(0.0, 1e6)),
        },
        (_, ProgressArg::Auto) if io::IsTerminal::is_terminal(&io::stderr()) => Progress::Bar,
        (_, ProgressArg::Auto) => Progress::Off,
    };
    let cfg = RunConfig {
        inputs,
        out_dir: a.out.clone(),
        threads,
        doc: Config {
            max_badness: a.max_badness,
            min_length: a.min_length,
            shingles: !a.no_shingles,
            links: a.links,
            markdown: a.markdown.then_some(!a.no_markdown_links),
            // Inline markup only for the Markdown asked for.
            marks: a.markdown,
            dup_blocks: match a.dup_blocks {
                DupBlocksArg::Mark => DupBlocks::Mark,
                DupBlocksArg::Drop => DupBlocks::Drop,
                DupBlocksArg::Keep => DupBlocks::Keep,
            },
            ..doc_config(&a.model, a.filter)
        },
        max_payload: a.max_payload,
        progress,
        compression: a.compression,
        formats: Formats {
            xml: a.format.contains(&CorpusFormat::Xml),
            jsonl: a.format.contains(&CorpusFormat::Jsonl),
            vrt: a.format.contains(&CorpusFormat::Vrt),
        },
        exact_dups: match a.exact_dups {
            ExactDupsArg::Mark => ExactDups::Mark,
            ExactDupsArg::Skip => ExactDups::Skip,
            ExactDupsArg::Keep => ExactDups::Keep,
        },
        retry: Retry {
            retries: a.http_retries,
            wait: seconds(a.http_retry_wait, "--http-retry-wait")?,
            timeout: seconds(a.http_timeout, "--http-timeout")?,
            ..Retry::default()
        },
    };
    let mut cfg = cfg;
    let mut skipped = 0;
    if !a.force {
        let hash = pipeline::config_hash(&cfg, models.checksum());
        let before = cfg.inputs.len();
        cfg.inputs
            .retain(|i| !pipeline::is_done(&cfg.out_dir, i, &hash));
        skipped = before - cfg.inputs.len();
        if skipped > 0 {
            eprintln!(
                "cowrex: {skipped} inputs were done before with this configuration, skipped (--force redoes them)"
            );
        }
    }
    let result = pipeline::run(&cfg, Arc::new(models));
    if let Some(tmp) = spooled {
        let _ = std::fs::remove_file(tmp);
    }
    let summary = result.map_err(|e| Error::output(a.out.display(), e))?;
    for (input, e) in &summary.files_failed {
        eprintln!("cowrex: {input}: {e}");
    }
    failed.extend(summary.files_failed.iter().cloned());
    let secs = summary.elapsed.as_secs_f64().max(1e-9);
    eprintln!(
        "cowrex: {} files done, {} skipped, {} failed; {} records, {} documents, {:.1} MB in {:.1} s ({:.0} docs/s)",
        summary.files_done,
        skipped,
        failed.len(),
        summary.records,
        summary.documents,
        summary.bytes as f64 / 1e6,
        secs,
        summary.documents as f64 / secs
    );
    if summary.interrupted {
        eprintln!(
            "cowrex: stopped by a signal; the input in progress was dropped, run the same command again to go on (exit code {})",
            EXIT_INTERRUPTED
        );
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(if failed.is_empty() {
        EXIT_OK
    } else {
        EXIT_INPUT_FAILED
    })
}

/// A duration option in seconds.
fn seconds(s: f64, option: &str) -> Result<std::time::Duration, Error> {
    std::time::Duration::try_from_secs_f64(s)
        .map_err(|_| Error::Usage(format!("{option}: {s} is not a number of seconds")))
}

fn read_input(p: &Path) -> Result<Vec<u8>, Error> {
    if p.as_os_str() == "-" {
        let mut v = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut v)
            .map_err(|e| Error::input("standard input", e))?;
        Ok(v)
    } else {
        std::fs::read(p).map_err(|e| Error::input(p.display(), e))
    }
}

fn extract(a: ExtractArgs) -> CliResult {
    let extractor = Extractor::new(&options(&a.model, a.scorer.scorer()))?;
    let bytes = read_input(&a.file)?;
    if a.plain_text {
        if matches!(a.format, Format::Markdown) {
            return Err(Error::usage(
                "--plain-text has no structure to write as Markdown; use --format text",
            ));
        }
        return extract_plain_text(&bytes, extractor.models(), a.format, a.bias.bias);
    }
    let doc = extractor.extract(&bytes, Some(&a.url));
    let found = !doc.blocks.is_empty();
    let (blocks, threshold) = (&doc.blocks[..], doc.threshold);
    let mut out = Sink::stdout();
    match a.format {
        Format::Text => {
            let text = doc.text();
            if !text.is_empty() {
                writeln!(out, "{text}")?;
            }
        }
        Format::Markdown => write!(out, "{}", doc.markdown(!a.no_markdown_links))?,
        Format::Tsv => {
            writeln!(
                out,
                "idx\tbpv\tbpc\tboilerplate\t{}\tkind\ttext",
                crate::output::SCORE_NAMES.join("\t")
            )?;
            for b in blocks {
                let text = b.text.replace(['\t', '\n'], " ");
                let scores = crate::output::block_scores(b);
                let columns: Vec<String> = crate::output::SCORE_NAMES
                    .iter()
                    .map(|name| {
                        scores
                            .iter()
                            .find(|(k, _)| k == name)
                            .map_or(String::new(), |(_, v)| v.text())
                    })
                    .collect();
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    b.idx,
                    format_general(b.bpv as f64),
                    xml::bpc(b.bpv),
                    u8::from(b.bpv > threshold),
                    columns.join("\t"),
                    b.kind.name(),
                    text
                )?;
            }
        }
        Format::Json => {
            let v = serde_json::json!({
                "title": doc.metadata.title,
                "author": doc.metadata.author,
                "published": doc.metadata.published,
                "modified": doc.metadata.modified,
                "sitename": doc.metadata.sitename,
                "canonical": doc.metadata.canonical,
                "description": doc.metadata.description,
                "declared_language": doc.metadata.declared_language,
                "markdown": doc.markdown(!a.no_markdown_links),
                "sourcecharset": found.then_some(&doc.source_charset),
                "language": found.then(|| doc.language_code()),
                "capped": doc.capped.map(crate::html::Cap::name),
                "blocks": blocks.iter().map(|b| {
                    let mut v = serde_json::json!({
                        "idx": b.idx,
                        "bpv": b.bpv,
                        "bpc": xml::bpc(b.bpv).to_string(),
                        "boilerplate": b.bpv > threshold,
                    });
                    for (k, s) in crate::output::block_scores(b)
                        .into_iter()
                        .chain(crate::output::kind_fields(b.kind))
                    {
                        v[k] = s.json();
                    }
                    v["text"] = serde_json::json!(b.text);
                    v
                }).collect::<Vec<_>>(),
            });
            writeln!(out, "{v}")?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

fn features(a: FeaturesArgs) -> CliResult {
    let bytes = read_input(&a.texrex)?;
    let extractor = Extractor::new(&Options {
        lang: LangChoice::Fixed(ModelLang::En),
        ngram: NgramChoice::Off,
        config: Config {
            syntax: if a.html5 {
                Syntax::Html5
            } else {
                Syntax::Texrex
            },
            // The text the features are computed on.
            texrex_text: true,
            ..Config::default()
        },
        ..Options::default()
    })?;
    let doc = extractor.extract(&bytes, None);
    let mut out = Sink::stdout();
    for b in &doc.blocks {
        write!(out, "{}\t{}", b.idx, b.text.replace(['\t', '\n'], " "))?;
        for v in &b.features {
            write!(out, "\t{}", format_general(*v))?;
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(EXIT_OK)
}

fn load_dataset(p: &Path) -> Result<mlp::Dataset, Error> {
    let text = std::fs::read_to_string(p).map_err(|e| Error::input(p.display(), e))?;
    let first = text.lines().next().unwrap_or("");
    let d = if first.split_whitespace().count() == 3 && !first.contains('\t') {
        mlp::Dataset::from_fann_dat(&text)
    } else {
        mlp::Dataset::from_tsv(&text)
    }
    .map_err(|e| Error::Input(format!("{}: {e}", p.display())))?;
    if d.is_empty() {
        return Err(Error::Input(format!("{}: no examples", p.display())));
    }
    Ok(d)
}

fn print_figures(label: &str, c: &mlp::Confusion) {
    println!(
        "{label}accuracy={:.4} precision={:.4} recall={:.4} f1={:.4}",
        c.accuracy(),
        c.precision(),
        c.recall(),
        c.f1()
    );
}

fn train_mlp(a: TrainMlpArgs) -> CliResult {
    let data = load_dataset(&a.data)?;
    if let Some(m) = &a.evaluate {
        let (model, _) = crate::extractor::load_mlp(m)?;
        print_figures("", &mlp::evaluate(&model, &data, a.threshold));
        return Ok(EXIT_OK);
    }
    let cfg = mlp::TrainConfig {
        hidden: a.hidden,
        epochs: a.epochs,
        seed: a.seed,
        error: a.error.into(),
    };
    if let Some(out) = &a.out {
        let m = mlp::train(&data, cfg);
        std::fs::write(out, m.to_compact()).map_err(|e| Error::output(out.display(), e))?;
        print_figures("training set: ", &mlp::evaluate(&m, &data, a.threshold));
    }
    if let Some(k) = a.cv {
        if k < 2 || k > data.len() {
            return Err(Error::Usage(format!(
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

fn extract_plain_text(bytes: &[u8], models: &Models, format: Format, bias: f32) -> CliResult {
    let text = String::from_utf8_lossy(bytes);
    let paras = ngram::paragraphs(&text);
    let lang = classify::identify_language(paras.iter().map(String::as_str));
    let Some(model) = models.ngram(lang) else {
        return Err(Error::usage(
            "--plain-text scores with the n-gram model; drop --ngram off",
        ));
    };
    let scores: Vec<Option<f32>> = paras.iter().map(|p| model.score(p)).collect();
    let clean = |s: &Option<f32>| s.is_some_and(|s| s >= bias);
    let mut out = Sink::stdout();
    match format {
        Format::Text | Format::Markdown => {
            let kept: Vec<&str> = paras
                .iter()
                .zip(&scores)
                .filter(|(_, s)| clean(s))
                .map(|(p, _)| p.as_str())
                .collect();
            if !kept.is_empty() {
                writeln!(out, "{}", kept.join("\n\n"))?;
            }
        }
        Format::Tsv => {
            writeln!(out, "idx\tngram\tclean\ttext")?;
            for (i, (p, s)) in paras.iter().zip(&scores).enumerate() {
                let score = s.map(|v| format_general(v as f64)).unwrap_or_default();
                writeln!(
                    out,
                    "{i}\t{score}\t{}\t{}",
                    u8::from(clean(s)),
                    p.replace('\t', " ")
                )?;
            }
        }
        Format::Json => {
            let v = serde_json::json!({
                "language": xml::language_code(lang),
                "model": model.params.folding.as_str(),
                "paragraphs": paras.iter().zip(&scores).enumerate().map(|(i, (p, s))| serde_json::json!({
                    "idx": i,
                    "ngram": s,
                    "clean": clean(s),
                    "text": p,
                })).collect::<Vec<_>>(),
            });
            writeln!(out, "{v}")?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

fn ngram_params(
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

/// Pages with the index of their set.
type SetPages = Vec<(usize, eval::GoldPage)>;

/// The set (by its index) each page comes from.
fn page_sources(pages: &SetPages) -> Vec<usize> {
    pages.iter().map(|(set, _)| *set).collect()
}

/// The selected sets of a pages directory and their pages.
fn load_pages(dir: &Path, only: &[String]) -> Result<(Vec<String>, SetPages), Error> {
    let all = eval::list_sets(dir).map_err(|e| {
        Error::Input(format!(
            "{}: no ground-truth/ directory: {e}",
            dir.display()
        ))
    })?;
    for s in only {
        if !all.contains(s) {
            return Err(Error::Usage(format!(
                "no set {s:?} in {} (sets: {})",
                dir.display(),
                all.join(", ")
            )));
        }
    }
    let sets: Vec<String> = all
        .into_iter()
        .filter(|s| only.is_empty() || only.contains(s))
        .collect();
    if sets.is_empty() {
        return Err(Error::Input(format!(
            "{}: no sets (ground-truth/*.jsonl)",
            dir.display()
        )));
    }
    let mut pages = Vec::new();
    for (i, set) in sets.iter().enumerate() {
        let (p, missing) = eval::load_set(dir, set)?;
        if !missing.is_empty() {
            eprintln!(
                "cowrex: warning: {set}: {} pages have no HTML file (first: {})",
                missing.len(),
                missing[0]
            );
        }
        pages.extend(p.into_iter().map(|p| (i, p)));
    }
    Ok((sets, pages))
}

fn threads_or_cores(n: Option<usize>) -> usize {
    n.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Analyse pages for training and evaluation (no n-gram scores needed there: they are added
/// per fold or read from the built-in models).
fn analyze_gold_pages(
    pages: &[(usize, eval::GoldPage)],
    models: &Models,
    cfg: &Config,
    threads: usize,
) -> Result<Vec<Option<document::Document>>, Error> {
    let list: Vec<&eval::GoldPage> = pages.iter().map(|(_, p)| p).collect();
    eval::analyze_pages(&list, models, cfg, threads)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
}

/// Which blocks of a page the scorer chosen for `eval` keeps.
fn kept(a: &EvalArgs, blocks: &[document::Block]) -> Vec<bool> {
    let threshold = a
        .model
        .threshold
        .unwrap_or_else(|| document::decision_threshold(blocks, classify::Scorer::Combined));
    blocks.iter().map(|b| keeps(a, b, threshold)).collect()
}

/// Whether the scorer chosen for `eval` keeps a block, on a page whose combined-model threshold
/// is `threshold`.
fn keeps(a: &EvalArgs, b: &document::Block, threshold: f32) -> bool {
    let bp = b.boilerpipe.1;
    match a.scorer {
        ScorerArg::Combined => b.bpv <= threshold,
        ScorerArg::Mlp => b.mlp <= a.model.threshold.unwrap_or(0.5),
        ScorerArg::Ngram => b.ngram.is_some_and(|s| s >= a.bias.bias),
        ScorerArg::Justext => b.justext.class == classify::justext::Class::Good,
        ScorerArg::Boilerpipe => bp.num_words,
        ScorerArg::BoilerpipeDensity => bp.densitometric,
        ScorerArg::BoilerpipeCleaneval => bp.cleaneval,
        ScorerArg::BoilerpipeLargest => bp.largest,
        ScorerArg::All => true,
    }
}

/// A scorer's description, the text it extracted from each page, cowrex's analyses of the pages
/// (none for another tool's texts), and the combined model's training labels of each page's
/// blocks (`None` when no model was trained).
type Extraction = (
    String,
    Vec<String>,
    Vec<Option<document::Document>>,
    Option<Vec<Vec<Option<f32>>>>,
);

/// Analyse the pages and extract each one's text with the chosen cowrex scorer; returns the
/// scorer's description, the texts and the analyses.
fn cowrex_texts(a: &EvalArgs, sets: &[String], pages: &SetPages) -> Result<Extraction, Error> {
    let models = load_models(&a.model, a.scorer.scorer())?;
    if (a.cv.is_some() || a.loso) && !matches!(a.scorer, ScorerArg::Ngram | ScorerArg::Combined) {
        return Err(Error::usage(
            "--cv and --loso apply to --scorer ngram and combined (the MLPs are \
                    cross-validated by `train mlp --cv`)",
        ));
    }
    let threads = threads_or_cores(a.threads);
    let cfg = doc_config(&a.model, false);
    let mut docs = analyze_gold_pages(pages, &models, &cfg, threads)?;
    let sources = page_sources(pages);
    let folds = match a.cv {
        Some(k) if k < 2 || k > pages.len() => {
            return Err(Error::Usage(format!(
                "--cv needs 2 ≤ K ≤ {} pages",
                pages.len()
            )));
        }
        Some(k) => Some(eval::Folds::by_page(pages.len(), k)),
        None if a.loso && sets.len() < 2 => {
            return Err(Error::usage("--loso needs two sets or more"));
        }
        None => a.loso.then(|| eval::Folds::by_source(&sources)),
    };
    let mut trained_labels = None;
    if let Some(folds) = &folds {
        let gold: Vec<&str> = pages.iter().map(|(_, p)| p.gold.as_str()).collect();
        eval::cross_validate_ngram(&gold, &mut docs, &models, folds);
        if a.scorer == ScorerArg::Combined {
            // The combined model's features read the cross-validated n-gram and markup scores.
            let labels =
                combined_labels(a.blocks.as_deref(), sets, pages, &docs, a.gbt.soft_labels)?;
            let list: Vec<&eval::GoldPage> = pages.iter().map(|(_, p)| p).collect();
            eval::cross_validate_markup(&list, &mut docs, &labels, folds)?;
            if let Some(path) = &a.dump_features {
                dump_features(path, &docs)?;
            }
            let training = a.gbt.training();
            eval::cross_validate_combined(&mut docs, &labels, &sources, folds, training, threads);
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
            blocks
                .iter()
                .zip(kept(a, blocks))
                .filter(|(_, k)| *k)
                .map(|(b, _)| b)
                .map(|b| b.text.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    let cv = match a.cv {
        Some(k) => format!(", {k}-fold cv by page"),
        None if a.loso => ", each set scored by models trained on the others".to_string(),
        None => String::new(),
    };
    let scorer = match a.scorer {
        ScorerArg::Combined => match a.model.threshold {
            Some(t) => format!("combined (threshold {t}{cv})"),
            None => format!("combined (expected-F1 threshold per page{cv})"),
        },
        ScorerArg::Mlp => format!("mlp (threshold {})", a.model.threshold.unwrap_or(0.5)),
        ScorerArg::Justext => "justext".to_string(),
        ScorerArg::Boilerpipe => "boilerpipe, number of words (Algorithm 2)".to_string(),
        ScorerArg::BoilerpipeDensity => "boilerpipe, densitometric (Algorithm 1)".to_string(),
        ScorerArg::BoilerpipeCleaneval => "boilerpipe, CleanEval rule".to_string(),
        ScorerArg::BoilerpipeLargest => "boilerpipe, largest content block".to_string(),
        ScorerArg::Ngram => format!("ngram (bias {}{cv})", a.bias.bias),
        ScorerArg::All => "all blocks".to_string(),
    };
    Ok((scorer, texts, docs, trained_labels))
}

/// Write the combined model's input rows of every block (`eval --dump-features`).
fn dump_features(path: &Path, docs: &[Option<document::Document>]) -> CliResult {
    let mut out = Sink::create(path)?;
    for rows in eval::feature_rows(docs) {
        for v in rows {
            out.write_all(&v.to_le_bytes())?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

/// Block labels of the analysed pages for the combined model: from the annotated copies under
/// `blocks` where there are, from the gold texts otherwise; shares of content with `soft`
/// ([`eval::page_block_labels`]).
fn combined_labels(
    blocks: Option<&Path>,
    sets: &[String],
    pages: &SetPages,
    docs: &[Option<document::Document>],
    soft: bool,
) -> Result<Vec<Vec<Option<f32>>>, Error> {
    let mut annotated = std::collections::HashMap::new();
    if let Some(dir) = blocks {
        for set in sets {
            annotated.extend(eval::load_block_labels(dir, set)?);
        }
    }
    let list: Vec<&eval::GoldPage> = pages.iter().map(|(_, p)| p).collect();
    eval::page_block_labels(&annotated, &list, docs, soft)
}

/// The texts another tool extracted from the pages (`eval --texts`), in page order.
fn external_texts(file: &Path, pages: &SetPages) -> Result<Vec<String>, Error> {
    let content = read_text(file)?;
    let mut by_id: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for (n, line) in content
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| Error::Input(format!("{}:{}: {e}", file.display(), n + 1)))?;
        let (Some(id), Some(text)) = (v["page_id"].as_str(), v["text"].as_str()) else {
            return Err(Error::Input(format!(
                "{}:{}: needs page_id and text",
                file.display(),
                n + 1
            )));
        };
        by_id.insert(id.to_owned(), text.to_owned());
    }
    Ok(pages
        .iter()
        .map(|(_, p)| by_id.remove(&p.id).unwrap_or_default())
        .collect())
}

/// Print block-level figures per set against the annotated pages under `dir`; returns them as
/// JSON.
fn block_level(
    dir: &Path,
    sets: &[String],
    pages: &[(usize, eval::GoldPage)],
    docs: &[Option<document::Document>],
    kept: impl Fn(&[document::Block]) -> Vec<bool> + Copy,
) -> Result<serde_json::Value, Error> {
    if !dir.is_dir() {
        return Err(Error::Input(format!(
            "--blocks {}: no such directory",
            dir.display()
        )));
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

fn read_text(p: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(p).map_err(|e| Error::input(p.display(), e))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn train_ngram(a: TrainNgramArgs) -> CliResult {
    let params = ngram_params(a.folding, a.order, a.q).map_err(Error::Usage)?;
    if a.clean.is_empty() && a.pages.is_none() {
        return Err(Error::usage("give clean text: --clean FILE or --pages DIR"));
    }
    if a.dirty.is_empty() && a.raw.is_empty() && a.pages.is_none() {
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
    if let Some(dir) = &a.pages {
        let (sets, pages) = load_pages(dir, &a.sets)?;
        let models = Models::new(
            LangChoice::Fixed(ModelLang::En),
            None,
            NgramChoice::Off,
            None,
        );
        let docs = analyze_gold_pages(&pages, &models, &Config::default(), threads_or_cores(None))?;
        for ((_, p), d) in pages.iter().zip(&docs) {
            eval::count_page(&p.gold, eval::blocks_of(d), &mut clean, &mut raw);
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

fn train_combined(a: TrainCombinedArgs) -> CliResult {
    let (sets, pages) = load_pages(&a.pages, &a.sets)?;
    let models = Models::builtin();
    let threads = threads_or_cores(a.threads);
    let mut docs = analyze_gold_pages(&pages, &models, &Config::default(), threads)?;
    // The built-in n-gram models were trained on these pages: train on the scores that models
    // trained without each page give it (10 folds), as unseen pages will get.
    let gold: Vec<&str> = pages.iter().map(|(_, p)| p.gold.as_str()).collect();
    eval::cross_validate_ngram(
        &gold,
        &mut docs,
        &models,
        &eval::Folds::by_page(gold.len(), 10),
    );
    let labels = combined_labels(a.blocks.as_deref(), &sets, &pages, &docs, a.gbt.soft_labels)?;
    // The built-in markup model was trained on these pages too: the same, 10 folds.
    let list: Vec<&eval::GoldPage> = pages.iter().map(|(_, p)| p).collect();
    eval::cross_validate_markup(
        &list,
        &mut docs,
        &labels,
        &eval::Folds::by_page(list.len(), 10),
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
    let rows = eval::feature_rows(&docs);
    let sources = page_sources(&pages);
    let (model, temperature) = eval::train_combined(
        &docs,
        &labels,
        &rows,
        &sources,
        |_| true,
        a.gbt.training(),
        threads,
    );
    eprintln!("cowrex: main stage calibrated at temperature {temperature}");
    write_model(&a.out, &model.to_text())
}

fn train_markup(a: TrainMarkupArgs) -> CliResult {
    let (sets, pages) = load_pages(&a.pages, &a.sets)?;
    let models = Models::builtin();
    let docs = analyze_gold_pages(
        &pages,
        &models,
        &Config::default(),
        threads_or_cores(a.threads),
    )?;
    let labels = combined_labels(a.blocks.as_deref(), &sets, &pages, &docs, false)?;
    let list: Vec<&eval::GoldPage> = pages.iter().map(|(_, p)| p).collect();
    let model = eval::train_markup(&list, &docs, &labels)?;
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
fn write_model(out: &Path, text: &str) -> CliResult {
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

fn evaluate(a: EvalArgs) -> CliResult {
    let (sets, pages) = load_pages(&a.dir, &a.sets)?;
    let (scorer, texts, docs, labels) = match &a.texts {
        Some(file) => (
            format!("texts of {}", file.display()),
            external_texts(file, &pages)?,
            Vec::new(),
            None,
        ),
        None => cowrex_texts(&a, &sets, &pages)?,
    };
    let mut per_set: Vec<Vec<eval::Overlap>> = vec![Vec::new(); sets.len()];
    // Per set: page kinds (in order of first appearance) with their pages' figures.
    let mut per_kind: Vec<Vec<(String, Vec<eval::Overlap>)>> = vec![Vec::new(); sets.len()];
    let mut snippets = vec![eval::Snippets::default(); sets.len()];
    let mut json_pages = Vec::with_capacity(pages.len());
    for ((set, p), text) in pages.iter().zip(&texts) {
        let o = eval::Overlap::of(text, &p.gold);
        let sn = eval::Snippets::of(text, p);
        let mut page = serde_json::json!({
            "set": sets[*set], "page_id": p.id, "precision": o.precision(),
            "recall": o.recall(), "f1": o.f1(),
        });
        if let Some(kind) = &p.kind {
            page["kind"] = kind.as_str().into();
            let kinds = &mut per_kind[*set];
            match kinds.iter_mut().find(|(k, _)| k == kind) {
                Some((_, v)) => v.push(o),
                None => kinds.push((kind.clone(), vec![o])),
            }
        }
        if sn.with + sn.without > 0 {
            page["snippets"] = serde_json::json!({
                "with": sn.with, "with_found": sn.with_found,
                "without": sn.without, "without_absent": sn.without_absent,
            });
        }
        snippets[*set].add(&sn);
        json_pages.push(page);
        per_set[*set].push(o);
    }
    println!("scorer: {scorer}");
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
    let figures_json = |f: &eval::SetFigures| {
        serde_json::json!({
            "pages": f.pages, "precision": f.precision, "recall": f.recall, "f1": f.f1,
            "micro_precision": f.pooled.precision(), "micro_recall": f.pooled.recall(),
            "micro_f1": f.pooled.f1(),
        })
    };
    let mut json_sets = serde_json::Map::new();
    let mut macro_f = (0f64, 0f64, 0f64);
    for (i, (set, overlaps)) in sets.iter().zip(&per_set).enumerate() {
        let f = eval::SetFigures::of(overlaps);
        row(set, &f);
        macro_f.0 += f.precision / sets.len() as f64;
        macro_f.1 += f.recall / sets.len() as f64;
        macro_f.2 += f.f1 / sets.len() as f64;
        let mut v = figures_json(&f);
        let mut kinds = per_kind[i].clone();
        kinds.sort_by(|a, b| a.0.cmp(&b.0));
        if !kinds.is_empty() {
            let mut json_kinds = serde_json::Map::new();
            for (kind, overlaps) in &kinds {
                let f = eval::SetFigures::of(overlaps);
                row(&format!("  {kind}"), &f);
                json_kinds.insert(kind.clone(), figures_json(&f));
            }
            v["kinds"] = json_kinds.into();
        }
        let sn = snippets[i];
        if let (Some(w), Some(wo)) = (sn.with_share(), sn.without_share()) {
            println!(
                "  snippets: {:.4} of {} found that belong, {:.4} of {} absent that do not",
                w, sn.with, wo, sn.without
            );
        }
        if sn.with + sn.without > 0 {
            v["snippets"] = serde_json::json!({
                "with": sn.with, "with_found": sn.with_found, "with_share": sn.with_share(),
                "without": sn.without, "without_absent": sn.without_absent,
                "without_share": sn.without_share(),
            });
        }
        json_sets.insert(set.clone(), v);
    }
    let mut json = serde_json::json!({
        "scorer": scorer, "sets": json_sets,
        "macro": {"precision": macro_f.0, "recall": macro_f.1, "f1": macro_f.2},
        "pages": json_pages,
    });
    if let Some(dir) = &a.blocks {
        json["blocks"] = block_level(dir, &sets, &pages, &docs, |b| kept(&a, b))?;
    }
    if let Some(p) = &a.dump_blocks {
        let mut out = Sink::create(p)?;
        for (i, ((set, page), d)) in pages.iter().zip(&docs).enumerate() {
            let blocks = eval::blocks_of(d);
            let label = |j: usize| labels.as_ref().and_then(|l| l[i].get(j).copied().flatten());
            let line = serde_json::json!({
                "set": sets[*set], "page_id": page.id,
                "blocks": blocks.iter().zip(kept(&a, blocks)).enumerate().map(|(j, (b, k))| {
                    serde_json::json!({
                        "text": b.text, "bpv": b.bpv, "kept": k,
                        "words": b.boilerpipe.0.words, "cues": b.cues,
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
    println!(
        "macro precision={:.4} recall={:.4} f1={:.4}",
        macro_f.0, macro_f.1, macro_f.2
    );
    Ok(EXIT_OK)
}

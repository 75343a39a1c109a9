//! The `cowrex` command line: one function per subcommand, each a thin layer over the library.
//! [`run`] is the whole command line; the `cowrex` binary (`main.rs`) and the Python package's
//! `cowrex` console script (`python/`) call it, so both are the same code.

mod batch;
mod corpus;
mod evaluate;
mod extract;
mod inputs;
mod inspect;
mod process;
mod report;
mod signals;
mod train;

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use cowrex::Options;
use cowrex::analyze::{self, Config, DocFilter};
use cowrex::classify::{self, LangChoice, ModelLang, Models, NgramChoice};
use cowrex::error::{Error, ErrorKind};
use cowrex::html::{Limits, Syntax};

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
    /// Process WARC and ARC files into corpus files (S.xml.gz, S.stats.json, S.done.json per
    /// input S).
    Process(process::ProcessArgs),
    /// Extract the text of one HTML page (non-boilerplate blocks, or every block with scores).
    Extract(extract::ExtractArgs),
    /// Write one page (or one record of a WARC file) as an HTML file that shows every block,
    /// its kind, its scores and whether it is kept.
    Inspect(inspect::InspectArgs),
    /// Write a report of a whole run (from its output directory) as an HTML file: fates,
    /// documents, languages, hosts, score histograms, duplicates, throughput per input.
    Report(inspect::ReportArgs),
    /// Print texrex's 37 features of every block of one HTML page.
    Features(extract::FeaturesArgs),
    /// Train models.
    #[command(subcommand)]
    Train(train::TrainCommand),
    /// Measure extraction against gold texts (bag-of-words precision, recall and F1 per set).
    Eval(evaluate::EvalArgs),
    /// Count the inputs of a manifest that are done, failed or missing in an output directory.
    Status(batch::StatusArgs),
    /// Find near-duplicate documents in shingle files; write a blacklist of the shorter ones.
    Dedup(corpus::DedupArgs),
    /// Remove documents from corpus files: blacklisted, repeated ids, or by their quality signals (--preset fineweb).
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
enum FavorArg {
    Precision,
    Balanced,
    Recall,
}

impl From<FavorArg> for classify::Favor {
    fn from(f: FavorArg) -> classify::Favor {
        match f {
            FavorArg::Precision => classify::Favor::Precision,
            FavorArg::Balanced => classify::Favor::Balanced,
            FavorArg::Recall => classify::Favor::Recall,
        }
    }
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
    /// Which built-in MLP scores a document: `auto` uses the en/de/fr/sv model of the
    /// document's identified language, English for other languages.
    #[arg(long, value_enum, default_value_t = LangArg::Auto)]
    lang: LangArg,
    /// NCleaner n-gram score per block: `auto` uses the standard (English) model for English
    /// documents and the non-lexical model for the rest.
    #[arg(long, value_enum, default_value_t = NgramArg::Auto)]
    ngram: NgramArg,
    /// A block whose score (bpv) is above this share (0 to 1) is boilerplate. Default: for the
    /// combined model, each document's threshold that maximises the expected bag-of-words F1
    /// of its content (written as `bpt`); 0.5 for the other scorers.
    #[arg(long, value_name = "T")]
    threshold: Option<f32>,
    /// Where the combined model cuts each document without --threshold: `balanced` keeps the
    /// blocks that maximise the expected F1 of its content, `precision` the expected F0.5
    /// (less boilerplate, less content), `recall` the expected F2 (more of both). The scores
    /// do not change; docs/accuracy.md has the precision and recall of each.
    #[arg(long, value_enum, default_value_t = FavorArg::Balanced)]
    favor: FavorArg,
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
    /// A fastText language identification model (OpenLID's, GlotLID's, `.bin` or `.ftz`)
    /// instead of the built-in identifier (fastText's lid.176 with cowrex's rules); its labels
    /// (`__label__deu_Latn`, `__label__en`) give `language` and its script.
    #[arg(long, value_name = "FILE")]
    lid_model: Option<PathBuf>,
    /// The detectors' model files.
    #[command(flatten)]
    files: ModelFiles,
}

/// The detectors' model files, one option each as the registry declares them
/// ([`classify::registry::model_files`]): `--model`, `--ngram-model`, `--markup-model`,
/// `--combined-model`, …
#[derive(Clone, Default)]
struct ModelFiles(Vec<(&'static str, PathBuf)>);

impl clap::FromArgMatches for ModelFiles {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let given = classify::registry::model_files()
            .filter_map(|f| Some((f.option, m.get_one::<PathBuf>(f.option)?.clone())));
        Ok(ModelFiles(given.collect()))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = ModelFiles::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for ModelFiles {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        classify::registry::model_files().fold(cmd, |cmd, f| {
            // clap takes a name it keeps for the run: a few bytes per option, once.
            let flag: &'static str = Box::leak(f.flag().into_boxed_str());
            cmd.arg(
                clap::Arg::new(f.option)
                    .long(flag)
                    .value_name("FILE")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help(f.help),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        ModelFiles::augment_args(cmd)
    }
}

/// `--scorer`'s values: the detectors' decisions ([`classify::registry::decisions`]), each
/// with what it keeps as its help, and `extra` (`eval`'s `all`); each is the decision of that
/// name, `None` for `extra`'s.
fn scorer_values(
    extra: &[(&'static str, &'static str)],
) -> impl clap::builder::TypedValueParser<Value = Option<classify::Scorer>> {
    use clap::builder::TypedValueParser;
    let decisions = classify::registry::decisions().map(|d| (d.name, d.about));
    clap::builder::PossibleValuesParser::new(
        decisions
            .chain(extra.iter().copied())
            .map(|(name, about)| clap::builder::PossibleValue::new(name).help(about)),
    )
    .map(|name| classify::Scorer::named(&name))
}

/// `--scorer`'s values for the commands that take a decision: [`scorer_values`] without
/// `extra`.
fn scorer_parser() -> impl clap::builder::TypedValueParser<Value = classify::Scorer> {
    use clap::builder::TypedValueParser;
    scorer_values(&[]).map(|s| s.expect("every value is a decision's name"))
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

/// Run the command line on these arguments (the first names the program, as `argv[0]`) and
/// return the exit code ([`cowrex::error`]). `--help`, `--version` and a wrong argument print
/// as clap prints them and return 0 or 2 instead of exiting, so a caller that is not a binary
/// of its own (Python's console script) ends the process itself. Standard output is flushed.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let code = match Cli::try_parse_from(args) {
        Ok(cli) => run_command(cli.command),
        Err(e) => {
            // As `Cli::parse` would, without exiting: help and version on stdout, errors on
            // stderr.
            let _ = e.print();
            e.exit_code()
        }
    };
    let _ = io::stdout().flush();
    code
}

fn run_command(command: Command) -> i32 {
    let result = match command {
        Command::Process(a) => process::process(a),
        Command::Extract(a) => extract::extract(a),
        Command::Features(a) => extract::features(a),
        Command::Inspect(a) => inspect::inspect(a),
        Command::Report(a) => inspect::report(a),
        Command::Train(t) => train::train(t),
        Command::Eval(a) => evaluate::evaluate(a),
        Command::Dedup(a) => corpus::dedup(a),
        Command::Status(a) => batch::status(a),
        Command::Filter(a) => corpus::filter(a),
        Command::Stats(StatsCommand::Merge(a)) => corpus::stats_merge(a),
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

/// Create an output directory (and its parents).
fn create_out_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::new(
            ErrorKind::Output,
            format!("cannot create output directory {}: {e}", dir.display()),
        )
        .caused_by(e)
    })
}

/// A buffered writer whose write errors are [`ErrorKind::Output`] errors naming what it writes.
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
        model_files: a
            .files
            .0
            .iter()
            .map(|(option, path)| (option.to_string(), path.clone()))
            .collect(),
        profiles: a.profile.clone(),
        lid_model: a.lid_model.clone(),
        config: doc_config(a, false),
    }
}

fn load_models(a: &ModelArgs, scorer: classify::Scorer) -> Result<Models, Error> {
    options(a, scorer).models()
}

fn doc_config(m: &ModelArgs, filter: bool) -> Config {
    Config {
        threshold: m.threshold,
        favor: m.favor.into(),
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
        mask: analyze::Mask {
            email: m.mask.contains(&MaskArg::Email),
            uri: m.mask.contains(&MaskArg::Uri),
            hashtag: m.mask.contains(&MaskArg::Hashtag),
        },
        texrex_text: m.texrex_text,
        shingles: false,
        ..Config::default()
    }
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

fn threads_or_cores(n: Option<usize>) -> usize {
    n.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The selected sets of a pages directory and their pages, with a warning on stderr for pages
/// without HTML.
fn load_pages(
    dirs: &[PathBuf],
    only: &[String],
) -> Result<(Vec<String>, cowrex::eval::sets::SetPages), Error> {
    let (sets, pages, warnings) = cowrex::eval::sets::load_sets(dirs, only)?;
    for w in warnings {
        eprintln!("cowrex: warning: {w}");
    }
    Ok((sets, pages))
}

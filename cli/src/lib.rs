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

use clap::{Args, Parser, Subcommand};

use cowrex::analyze::{self, Config, DocFilter};
use cowrex::choice::Choice;
use cowrex::classify::{self, Favor, LangChoice, Models, NgramChoice};
use cowrex::error::{Error, ErrorKind};
use cowrex::html::{Limits, Syntax};
use cowrex::{Comments, Options};

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

/// clap's parser of an option whose values the library names ([`Choice`]): the library's
/// names and their help in `--help`, its parsing, and its message for a wrong value (the one
/// `FromStr` and Python give).
struct ChoiceParser<T>(std::marker::PhantomData<T>);

impl<T> Clone for ChoiceParser<T> {
    fn clone(&self) -> Self {
        ChoiceParser(std::marker::PhantomData)
    }
}

fn choice<T: Choice + Send + Sync>() -> ChoiceParser<T> {
    ChoiceParser(std::marker::PhantomData)
}

impl<T: Choice + Send + Sync> clap::builder::TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let value = value.to_string_lossy();
        cowrex::choice::parse::<T>(&value).map_err(|e| {
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{e}\n")).with_cmd(cmd)
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(T::values().iter().map(|v| {
            clap::builder::PossibleValue::new(v.name).help(v.help)
        })))
    }
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
    /// Which built-in MLP scores a document.
    #[arg(long, value_parser = choice::<LangChoice>(), default_value_t = LangChoice::Auto)]
    lang: LangChoice,
    /// Which NCleaner n-gram model scores each block.
    #[arg(long, value_parser = choice::<NgramChoice>(), default_value_t = NgramChoice::Auto)]
    ngram: NgramChoice,
    /// A block whose score (bpv) is above this share (0 to 1) is boilerplate. Default: for the
    /// combined model, each document's threshold that maximises the expected bag-of-words F1
    /// of its content (written as `bpt`); 0.5 for the other scorers.
    #[arg(long, value_name = "T")]
    threshold: Option<f32>,
    /// Where the combined model cuts each document without --threshold: it keeps the blocks
    /// that maximise this expected F of its content. The scores do not change;
    /// docs/accuracy.md has the precision and recall of each.
    #[arg(long, value_parser = choice::<Favor>(), default_value_t = Favor::Balanced)]
    favor: Favor,
    /// Whether the blocks of a page's comment section (kind `comment`) are content: `drop`
    /// leaves readers' comments out of the text, `keep` keeps them whatever their bpv,
    /// `scored` decides them by their bpv as any other block (the scores do not change; a
    /// forum's posts are not a comment section).
    #[arg(long, value_parser = choice::<Comments>(), default_value_t = Comments::Drop)]
    comments: Comments,
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
    #[arg(long, value_parser = choice::<analyze::Mask>(), value_delimiter = ',', value_name = "WHAT")]
    mask: Vec<analyze::Mask>,
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
struct OutFile<W: Write> {
    w: io::BufWriter<W>,
    name: String,
}

impl OutFile<io::StdoutLock<'static>> {
    fn stdout() -> Self {
        OutFile {
            w: io::BufWriter::new(io::stdout().lock()),
            name: "standard output".into(),
        }
    }
}

impl OutFile<std::fs::File> {
    fn create(path: &Path) -> Result<Self, Error> {
        let f = std::fs::File::create(path).map_err(|e| Error::output(path.display(), e))?;
        Ok(OutFile {
            w: io::BufWriter::new(f),
            name: path.display().to_string(),
        })
    }
}

impl<W: Write> OutFile<W> {
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
        lang: a.lang,
        ngram: a.ngram,
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
        favor: m.favor,
        comments: m.comments,
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
        mask: m
            .mask
            .iter()
            .fold(analyze::Mask::NONE, |all, &one| all | one),
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

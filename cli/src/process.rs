//! `cowrex process`: WARC files to corpus files, through the library's pipeline.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use super::{CliResult, ModelArgs, batch, doc_config, load_models, threads_or_cores};
use crate::inputs::{Inputs, ManifestShare};
use cowrex::analyze::{Config, DupBlocks};
use cowrex::error::{EXIT_INPUT_FAILED, EXIT_INTERRUPTED, EXIT_OK, Error};
use cowrex::pipeline::{self, ExactDups, Formats, Input, Progress, RunConfig, Split};
use cowrex::stop::Stop;
use cowrex::warc::Retry;

#[derive(Args)]
#[command(
    after_help = "Exit codes: 0 all inputs done; 1 some input could not be read (the others \
were processed); 2 usage error; 74 an output could not be written; 75 stopped by SIGTERM, \
SIGUSR1 or SIGINT: the input in progress was dropped, the finished ones kept; run the same \
command again to go on."
)]
pub(super) struct ProcessArgs {
    /// WARC files (.warc, .warc.gz, .warc.zst), ARC files (.arc, .arc.gz), directories (their
    /// WARC and ARC files, sorted), http(s) URLs (streamed), s3://bucket/key URLs (streamed;
    /// credentials, region and endpoint from the AWS_* variables and ~/.aws as AWS's tools read
    /// them, anonymous without credentials), s3://bucket/prefix/ (its WARC and ARC objects, as
    /// a directory), or - for stdin.
    #[arg(required_unless_present = "manifest", value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// A list of inputs, one per line (gzipped or not), such as Common Crawl's
    /// warc.paths.gz: paths relative to --input-base, absolute paths, file://, http(s):// or
    /// s3:// URLs. Outputs mirror each line's relative path under -o.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// What relative manifest lines are relative to: a directory (default: the current one),
    /// an http(s) URL, such as https://data.commoncrawl.org/, or an s3:// URL, such as
    /// s3://commoncrawl/.
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
    #[arg(long, value_parser = super::choice::<cowrex::classify::Scorer>(), default_value = "combined")]
    scorer: cowrex::classify::Scorer,
    #[command(flatten)]
    model: ModelArgs,
    /// Retries of an http(s) or s3:// input after a failed request or a broken connection (the
    /// count restarts once bytes arrive); a download resumes from the byte it had reached.
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
    #[arg(long, default_value_t = cowrex::output::gz::DEFAULT_LEVEL, value_name = "L", value_parser = clap::value_parser!(u32).range(0..=12))]
    compression: u32,
    /// Corpus formats, comma-separated (parquet: for Hugging Face datasets, datatrove, Spark).
    #[arg(
        long,
        value_parser = super::choice::<Formats>(),
        value_delimiter = ',',
        default_value = "xml",
        value_name = "FORMATS"
    )]
    format: Vec<Formats>,
    /// Do not write S.shingles.gz (w-shingles for `cowrex dedup`).
    #[arg(long)]
    no_shingles: bool,
    /// Write S.links.gz: document URL, link, relation, document badness, block bpv.
    #[arg(long)]
    links: bool,
    /// Do not compute the quality signals (Gopher, C4, FineWeb, RedPajama-V2) of each
    /// document's text (docs/formats.md#quality-signals).
    #[arg(long)]
    no_signals: bool,
    /// JSONL documents get a `markdown` field: the content as Markdown.
    #[arg(long)]
    markdown: bool,
    /// Markdown without links (their text stays).
    #[arg(long, requires = "markdown")]
    no_markdown_links: bool,
    /// What happens to blocks that repeat an earlier block of their document.
    #[arg(long, value_parser = super::choice::<DupBlocks>(), default_value_t = DupBlocks::Mark, value_name = "HOW")]
    dup_blocks: DupBlocks,
    /// What happens to documents with the same text as an earlier one of their input file.
    #[arg(long, value_parser = super::choice::<ExactDups>(), default_value_t = ExactDups::Mark, value_name = "HOW")]
    exact_dups: ExactDups,
    /// Write a corpus per language: each document to the files of its language's directory
    /// (`-o OUT` gets `OUT/deu/S.xml.gz`, `OUT/eng/S.xml.gz`, …; ISO 639-3 codes), a document
    /// whose language score is below --split-min-score, or without a language, to `OUT/und/`.
    /// S.stats.json and S.done.json stay in OUT.
    #[arg(long, value_enum, value_name = "WHAT")]
    split_by: Option<SplitArg>,
    /// The least language score of a document that --split-by language puts in its
    /// language's corpus (FineWeb keeps documents from 0.65).
    #[arg(
        long,
        default_value_t = 0.65,
        value_name = "SCORE",
        requires = "split_by"
    )]
    split_min_score: f32,
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
pub(super) enum ProgressArg {
    Auto,
    Bar,
    Jsonl,
    Off,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum SplitArg {
    Language,
}

pub(super) fn process(a: ProcessArgs) -> CliResult {
    let stop = Stop::new();
    let _signals = crate::signals::install(&stop)?;
    let models = load_models(&a.model, a.scorer)?;
    super::create_out_dir(&a.out)?;
    let manifest = match &a.manifest {
        Some(path) => {
            let (index, count) = batch::task(a.task_index, a.task_count)?;
            Some(ManifestShare {
                path,
                base: a.input_base.as_deref(),
                index,
                count,
            })
        }
        None => None,
    };
    let Inputs {
        inputs,
        mut failed,
        spooled,
        warnings,
    } = crate::inputs::resolve(&a.inputs, manifest, &a.out, retry(&a)?, &stop)?;
    for w in &warnings {
        eprintln!("cowrex: warning: {w}");
    }
    for (_, e) in &failed {
        eprintln!("cowrex: {e}");
    }
    let mut cfg = run_config(&a, inputs, stop)?;
    let skipped = if a.force {
        0
    } else {
        pipeline::drop_done(&mut cfg, models.checksum())
    };
    if skipped > 0 {
        eprintln!(
            "cowrex: {skipped} inputs were done before with this configuration, skipped (--force redoes them)"
        );
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
    Ok(report(&summary, skipped, failed.len()))
}

/// The run's settings from `process`'s arguments, for `inputs`, stopped by `stop`.
fn run_config(a: &ProcessArgs, inputs: Vec<Input>, stop: Stop) -> Result<RunConfig, Error> {
    if formats(a).parquet && !cowrex::output::parquet::AVAILABLE {
        return Err(Error::usage(format!(
            "--format parquet: {}",
            cowrex::output::parquet::UNAVAILABLE
        )));
    }
    Ok(RunConfig {
        inputs,
        out_dir: a.out.clone(),
        threads: threads_or_cores(a.threads),
        doc: Config {
            max_badness: a.max_badness,
            min_length: a.min_length,
            shingles: !a.no_shingles,
            links: a.links,
            signals: !a.no_signals,
            markdown: a.markdown.then_some(!a.no_markdown_links),
            // Inline markup only for the Markdown asked for.
            marks: a.markdown,
            dup_blocks: a.dup_blocks,
            ..doc_config(&a.model, a.filter)
        },
        max_payload: a.max_payload,
        progress: progress(a),
        compression: a.compression,
        formats: formats(a),
        exact_dups: a.exact_dups,
        split: match a.split_by {
            None => None,
            Some(SplitArg::Language) => Some(Split::language(a.split_min_score)?),
        },
        retry: retry(a)?,
        stop,
    })
}

/// `--format`'s formats.
fn formats(a: &ProcessArgs) -> Formats {
    a.format.iter().fold(Formats::NONE, |all, &one| all | one)
}

/// The retries of URL inputs: `--http-retries`, `--http-retry-wait`, `--http-timeout`.
fn retry(a: &ProcessArgs) -> Result<Retry, Error> {
    Ok(Retry {
        retries: a.http_retries,
        wait: seconds(a.http_retry_wait, "--http-retry-wait")?,
        timeout: seconds(a.http_timeout, "--http-timeout")?,
        ..Retry::default()
    })
}

/// How the run reports progress: `--progress`, a bar on a terminal for `auto`.
fn progress(a: &ProcessArgs) -> Progress {
    match (a.no_progress, a.progress) {
        (true, _) | (_, ProgressArg::Off) => Progress::Off,
        (_, ProgressArg::Bar) => bar(),
        (_, ProgressArg::Jsonl) => Progress::Jsonl {
            interval: std::time::Duration::from_secs_f64(a.progress_interval.clamp(0.0, 1e6)),
        },
        (_, ProgressArg::Auto) if io::IsTerminal::is_terminal(&io::stderr()) => bar(),
        (_, ProgressArg::Auto) => Progress::Off,
    }
}

/// A one-line progress display on stderr (for terminals).
fn bar() -> Progress {
    let pb = indicatif::ProgressBar::new_spinner();
    pb.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
            .expect("valid template"),
    );
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    Progress::Call {
        interval: std::time::Duration::from_millis(250),
        to: std::sync::Arc::new(move |s: &pipeline::Snapshot| {
            if s.last {
                pb.finish_and_clear();
            } else {
                pb.set_message(format!(
                    "{}/{} files, {} records, {} documents, {:.1} MB/s, {:.0} docs/s",
                    s.files_done + s.files_failed,
                    s.files_total,
                    s.records,
                    s.documents,
                    s.mb_per_s(),
                    s.docs_per_s()
                ));
            }
        }),
    }
}

/// Print the run's summary line; returns the exit code: interrupted, some input failed, or
/// all done.
fn report(summary: &pipeline::Summary, skipped: usize, failed: usize) -> i32 {
    let secs = summary.elapsed.as_secs_f64().max(1e-9);
    eprintln!(
        "cowrex: {} files done, {} skipped, {} failed; {} records, {} documents, {:.1} MB in {:.1} s ({:.0} docs/s)",
        summary.files_done,
        skipped,
        failed,
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
        EXIT_INTERRUPTED
    } else if failed == 0 {
        EXIT_OK
    } else {
        EXIT_INPUT_FAILED
    }
}

/// A duration option in seconds.
pub(super) fn seconds(s: f64, option: &str) -> Result<std::time::Duration, Error> {
    std::time::Duration::try_from_secs_f64(s)
        .map_err(|_| Error::usage(format!("{option}: {s} is not a number of seconds")))
}

//! The command line: one function per subcommand, each a thin layer over the library.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::classify::{self, mlp};
use crate::document::{self, Config, DocFilter, Meta, Page, StageTimes};
use crate::features::texrex::format_general;
use crate::html::{Limits, Syntax};
use crate::pipeline::{self, Input, RunConfig};
use crate::warc::http;

/// Exit code when some input could not be read (the others were processed).
pub const EXIT_INPUT_FAILED: i32 = 1;
/// Exit code for usage errors and unusable settings.
pub const EXIT_USAGE: i32 = 2;

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
    /// Print texrex's 37 features of every block of one HTML page.
    Features(FeaturesArgs),
    /// Train models.
    #[command(subcommand)]
    Train(TrainCommand),
}

#[derive(Args, Clone)]
struct ModelArgs {
    /// Boilerplate MLP (cowrex compact format or FANN .net); default: the built-in English model.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// A block whose score is above this is boilerplate.
    #[arg(long, default_value_t = 0.5, value_name = "T")]
    threshold: f32,
    /// Stop segmenting a page at this many open elements.
    #[arg(long, default_value_t = Limits::default().max_depth, value_name = "N")]
    max_depth: usize,
    /// Stop segmenting a page at this many blocks.
    #[arg(long, default_value_t = Limits::default().max_blocks, value_name = "N")]
    max_blocks: usize,
    /// Recognise tags as texrex does, bugs included (a stray quote hides markup up to the next
    /// quote, `<` in scripts starts tags) instead of HTML5 tokenizing.
    #[arg(long)]
    texrex_syntax: bool,
}

#[derive(Args)]
struct ProcessArgs {
    /// WARC files (.warc, .warc.gz), directories (their WARC files, sorted) or - for stdin.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Output directory.
    #[arg(short, long, value_name = "DIR")]
    out: PathBuf,
    /// Worker threads (default: available cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
    #[command(flatten)]
    model: ModelArgs,
    /// Skip records whose block is larger than this many bytes.
    #[arg(long, default_value_t = 16 << 20, value_name = "BYTES")]
    max_payload: u64,
    /// Drop documents with too little content (texrex's thresholds: at least 1 content block,
    /// 500 content characters, 25 % content characters, 10 % content blocks).
    #[arg(long)]
    filter: bool,
    /// gzip level of the XML output (0-9).
    #[arg(long, default_value_t = 3, value_name = "L", value_parser = clap::value_parser!(u32).range(0..=9))]
    compression: u32,
    /// Never show a progress bar (it is shown only on a terminal anyway).
    #[arg(long)]
    no_progress: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Tsv,
    Json,
}

#[derive(Args)]
struct ExtractArgs {
    /// HTML file (may start with an ARC or HTTP header), or - for stdin.
    #[arg(default_value = "-", value_name = "FILE")]
    file: PathBuf,
    /// text: the non-boilerplate blocks, one per line; tsv/json: every block with its scores.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// URL of the page (for host and charset hints).
    #[arg(long, default_value = "")]
    url: String,
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
        required_unless_present = "evaluate"
    )]
    out: Option<PathBuf>,
    #[arg(long, default_value_t = 18)]
    hidden: usize,
    #[arg(long, default_value_t = 500)]
    epochs: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Report K-fold cross-validated figures (before training on all data).
    #[arg(long, value_name = "K")]
    cv: Option<usize>,
    /// Only evaluate this existing model on the data.
    #[arg(long, value_name = "MODEL")]
    evaluate: Option<PathBuf>,
    /// Decision threshold for the reported figures.
    #[arg(long, default_value_t = 0.5)]
    threshold: f32,
}

/// Run the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Process(a) => process(a),
        Command::Extract(a) => extract(a),
        Command::Features(a) => features(a),
        Command::Train(TrainCommand::Mlp(a)) => train_mlp(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("cowrex: {e}");
            EXIT_USAGE
        }
    }
}

type CliResult = Result<i32, Box<dyn std::error::Error>>;

fn load_model(path: Option<&Path>) -> Result<(mlp::Mlp, String), Box<dyn std::error::Error>> {
    match path {
        None => Ok((classify::default_mlp(), classify::DEFAULT_MLP.to_string())),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read model {}: {e}", p.display()))?;
            let m = mlp::Mlp::parse(&text).map_err(|e| format!("{}: {e}", p.display()))?;
            if m.inputs != crate::features::texrex::N_FEATURES {
                return Err(format!(
                    "{}: model has {} inputs, texrex features are 37",
                    p.display(),
                    m.inputs
                )
                .into());
            }
            Ok((m, text))
        }
    }
}

fn doc_config(m: &ModelArgs, filter: bool) -> Config {
    Config {
        threshold: m.threshold,
        limits: Limits {
            max_depth: m.max_depth,
            max_blocks: m.max_blocks,
        },
        syntax: if m.texrex_syntax {
            Syntax::Texrex
        } else {
            Syntax::Html5
        },
        filter: filter.then(DocFilter::default),
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
    let (model, model_text) = load_model(a.model.model.as_deref())?;
    std::fs::create_dir_all(&a.out)
        .map_err(|e| format!("cannot create output directory {}: {e}", a.out.display()))?;
    let mut inputs = Vec::new();
    let mut failed: Vec<(String, String)> = Vec::new();
    let mut spooled: Option<PathBuf> = None;
    for p in &a.inputs {
        if p.as_os_str() == "-" {
            // fastwarc needs a seekable input: spool stdin to a file in the output directory.
            let tmp = a.out.join(".stdin.warc.tmp");
            let mut f = std::fs::File::create(&tmp)?;
            io::copy(&mut io::stdin().lock(), &mut f)?;
            inputs.push(Input {
                path: tmp.clone(),
                stem: "stdin".into(),
                arcfile: "-".into(),
            });
            spooled = Some(tmp);
        } else if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("cannot read directory {}: {e}", p.display()))?
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
    let mut seen = std::collections::HashSet::new();
    for i in &inputs {
        if !seen.insert(i.stem.clone()) {
            return Err(format!("two inputs would both write {}.xml.gz; process them into different output directories", i.stem).into());
        }
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let progress = !a.no_progress && io::IsTerminal::is_terminal(&io::stderr());
    let cfg = RunConfig {
        inputs,
        out_dir: a.out.clone(),
        threads,
        doc: doc_config(&a.model, a.filter),
        max_payload: a.max_payload,
        progress,
        compression: a.compression,
    };
    let sum = pipeline::model_checksum(&model_text);
    let result = pipeline::run(&cfg, Arc::new(model), &sum);
    if let Some(tmp) = spooled {
        let _ = std::fs::remove_file(tmp);
    }
    let summary = result.map_err(|e| format!("writing to {}: {e}", a.out.display()))?;
    for (input, e) in &summary.files_failed {
        eprintln!("cowrex: {input}: {e}");
    }
    failed.extend(summary.files_failed.iter().cloned());
    let secs = summary.elapsed.as_secs_f64().max(1e-9);
    eprintln!(
        "cowrex: {} files done, {} failed; {} records, {} documents, {:.1} MB in {:.1} s ({:.0} docs/s)",
        summary.files_done,
        failed.len(),
        summary.records,
        summary.documents,
        summary.bytes as f64 / 1e6,
        secs,
        summary.documents as f64 / secs
    );
    Ok(if failed.is_empty() {
        0
    } else {
        EXIT_INPUT_FAILED
    })
}

fn read_input(p: &Path) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    if p.as_os_str() == "-" {
        let mut v = Vec::new();
        io::stdin().lock().read_to_end(&mut v)?;
        Ok(v)
    } else {
        std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()).into())
    }
}

/// Split a page file into its header (ARC line and/or HTTP head, if any) and the HTML.
/// Returns the payload offset and the HTTP charset.
pub fn split_page(bytes: &[u8]) -> (usize, Option<String>) {
    let mut p = 0;
    if !bytes.starts_with(b"HTTP/") {
        // An ARC header line (`url ip date mime length`) followed by an HTTP head.
        if let Some(nl) = memchr::memchr(b'\n', bytes) {
            let first = &bytes[..nl];
            if !first.contains(&b'<') && bytes[nl + 1..].starts_with(b"HTTP/") {
                p = nl + 1;
            }
        }
    }
    if !bytes[p..].starts_with(b"HTTP/") {
        return (0, None);
    }
    let resp = http::parse(&bytes[p..]);
    (p + resp.body_start, resp.charset().map(str::to_string))
}

fn analyze_file(
    bytes: &[u8],
    url: &str,
    model: &mlp::Mlp,
    cfg: &Config,
) -> Result<document::Document, Box<dyn std::error::Error>> {
    let (start, charset) = split_page(bytes);
    let page = Page {
        raw: bytes,
        payload: &bytes[start..],
        http_charset: charset.as_deref(),
        meta: Meta {
            url: url.to_string(),
            ..Default::default()
        },
    };
    document::analyze(page, model, cfg, &mut StageTimes::default())
        .map_err(|s| format!("no document: {}", s.reason()).into())
}

fn extract(a: ExtractArgs) -> CliResult {
    let (model, _) = load_model(a.model.model.as_deref())?;
    let bytes = read_input(&a.file)?;
    let cfg = doc_config(&a.model, false);
    let doc = analyze_file(&bytes, &a.url, &model, &cfg).ok();
    let blocks = doc.as_ref().map_or(&[][..], |d| &d.blocks[..]);
    let mut out = io::BufWriter::new(io::stdout().lock());
    match a.format {
        Format::Text => {
            for b in blocks.iter().filter(|b| b.bpv <= a.model.threshold) {
                writeln!(out, "{}", b.text)?;
            }
        }
        Format::Tsv => {
            writeln!(out, "idx\tbpv\tbpc\tboilerplate\ttext")?;
            for b in blocks {
                let text = b.text.replace(['\t', '\n'], " ");
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}",
                    b.idx,
                    format_general(b.bpv as f64),
                    crate::output::xml::bpc(b.bpv),
                    u8::from(b.bpv > a.model.threshold),
                    text
                )?;
            }
        }
        Format::Json => {
            let v = serde_json::json!({
                "title": doc.as_ref().and_then(|d| d.title.clone()),
                "sourcecharset": doc.as_ref().map(|d| d.source_charset.clone()),
                "blocks": blocks.iter().map(|b| serde_json::json!({
                    "idx": b.idx,
                    "bpv": b.bpv,
                    "bpc": crate::output::xml::bpc(b.bpv).to_string(),
                    "boilerplate": b.bpv > a.model.threshold,
                    "text": b.text,
                })).collect::<Vec<_>>(),
            });
            writeln!(out, "{v}")?;
        }
    }
    out.flush()?;
    Ok(0)
}

fn features(a: FeaturesArgs) -> CliResult {
    let bytes = read_input(&a.texrex)?;
    let model = classify::default_mlp();
    let cfg = Config {
        syntax: if a.html5 {
            Syntax::Html5
        } else {
            Syntax::Texrex
        },
        ..Config::default()
    };
    let doc = match analyze_file(&bytes, "", &model, &cfg) {
        Ok(d) => d,
        Err(_) => return Ok(0),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    for b in &doc.blocks {
        write!(out, "{}\t{}", b.idx, b.text.replace(['\t', '\n'], " "))?;
        for v in &b.features {
            write!(out, "\t{}", format_general(*v))?;
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(0)
}

fn load_dataset(p: &Path) -> Result<mlp::Dataset, Box<dyn std::error::Error>> {
    let text =
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    let first = text.lines().next().unwrap_or("");
    let d = if first.split_whitespace().count() == 3 && !first.contains('\t') {
        mlp::Dataset::from_fann_dat(&text)
    } else {
        mlp::Dataset::from_tsv(&text)
    }
    .map_err(|e| format!("{}: {e}", p.display()))?;
    if d.is_empty() {
        return Err(format!("{}: no examples", p.display()).into());
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
        let (model, _) = load_model(Some(m))?;
        print_figures("", &mlp::evaluate(&model, &data, a.threshold));
        return Ok(0);
    }
    let cfg = mlp::TrainConfig {
        hidden: a.hidden,
        epochs: a.epochs,
        seed: a.seed,
    };
    if let Some(k) = a.cv {
        if k < 2 || k > data.len() {
            return Err(format!("--cv needs 2 ≤ K ≤ {} examples", data.len()).into());
        }
        let mut total = mlp::Confusion::default();
        for fold in 0..k {
            let (mut train, mut test) = (
                mlp::Dataset {
                    inputs: data.inputs,
                    ..Default::default()
                },
                mlp::Dataset {
                    inputs: data.inputs,
                    ..Default::default()
                },
            );
            for i in 0..data.len() {
                let d = if i % k == fold { &mut test } else { &mut train };
                d.x.extend_from_slice(data.row(i));
                d.y.push(data.y[i]);
            }
            let m = mlp::train(&train, cfg);
            let c = mlp::evaluate(&m, &test, a.threshold);
            eprintln!("fold {}/{k}: accuracy={:.4}", fold + 1, c.accuracy());
            total.tp += c.tp;
            total.fp += c.fp;
            total.tn += c.tn;
            total.fn_ += c.fn_;
        }
        print_figures("cv: ", &total);
    }
    let m = mlp::train(&data, cfg);
    let out = a.out.expect("required by clap unless --evaluate");
    std::fs::write(&out, m.to_compact())
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    print_figures("training set: ", &mlp::evaluate(&m, &data, a.threshold));
    Ok(0)
}

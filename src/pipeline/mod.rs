//! The threaded pipeline: one reader thread → N worker threads → one writer thread, with
//! bounded channels in between and a window of sequence numbers that bounds how far the
//! reader may run ahead of the writer (so memory does not grow with the input).
//!
//! Every item carries a sequence number; the writer puts items back in input order, so the
//! output is byte-identical whatever the number of workers. Items travel in batches (up to
//! `BATCH` items or `BATCH_BYTES` of records), so that threads wake once per batch
//! rather than once per record.

pub mod manifest;
pub mod select;
pub mod stream;

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File};
use std::io::{self, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded};
use md5::{Digest, Md5};
use serde::Serialize;

use crate::classify::{Models, quality};
use crate::document::{self, Config, StageTimes};
use crate::fate::Fate;
use crate::hex;
use crate::output::gz::GzMembers;
use crate::output::stats::FileStats;
use crate::output::{jsonl, xml};
use crate::shingle;
use crate::warc::{self, Location, ReadItem, ReadOptions, Record, Retry, Source};
use select::record_page;

/// The default cap on a record's block, in bytes (`--max-payload`).
pub const MAX_PAYLOAD: u64 = 16 << 20;

/// Settings of a `process` run. Its serialised form, less the fields marked `skip` (which do
/// not change what is written), is what [`config_hash`] hashes.
#[derive(Debug, Clone, Serialize)]
pub struct RunConfig {
    #[serde(skip)]
    pub inputs: Vec<Input>,
    #[serde(skip)]
    pub out_dir: PathBuf,
    /// Outputs are the same at any number of threads.
    #[serde(skip)]
    pub threads: usize,
    pub doc: Config,
    /// Record blocks above this many bytes are skipped (`skipped.payload_too_large`).
    pub max_payload: u64,
    #[serde(skip)]
    pub progress: Progress,
    /// gzip level of the outputs: changes their bytes, not what they hold.
    #[serde(skip)]
    pub compression: u32,
    pub formats: Formats,
    /// What happens to a document whose text equals an earlier document's of its input file.
    pub exact_dups: ExactDups,
    /// Retries of http(s) inputs.
    #[serde(skip)]
    pub retry: Retry,
}

/// How a run reports progress on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    Off,
    /// A one-line progress display (for terminals).
    Bar,
    /// A JSON object per line every `interval` (for log collectors), and one at the end.
    Jsonl {
        interval: Duration,
    },
}

/// Shows a run's progress.
struct Reporter {
    mode: Progress,
    bar: Option<indicatif::ProgressBar>,
    started: Instant,
    last: Instant,
    files_total: usize,
}

impl Reporter {
    fn new(mode: Progress, files_total: usize) -> Reporter {
        let bar = (mode == Progress::Bar).then(|| {
            let pb = indicatif::ProgressBar::new_spinner();
            pb.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("valid template"),
            );
            pb.enable_steady_tick(Duration::from_millis(200));
            pb
        });
        let now = Instant::now();
        Reporter {
            mode,
            bar,
            started: now,
            last: now,
            files_total,
        }
    }

    /// Report if it is time to (`last`: the final report).
    fn update(&mut self, s: &Summary, bytes: u64, last: bool) {
        let every = match self.mode {
            Progress::Off => return,
            Progress::Bar => Duration::from_millis(250),
            Progress::Jsonl { interval } => interval,
        };
        if !last && self.last.elapsed() < every {
            return;
        }
        self.last = Instant::now();
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        if let Some(pb) = &self.bar {
            if last {
                pb.finish_and_clear();
            } else {
                pb.set_message(format!(
                    "{}/{} files, {} records, {} documents, {:.1} MB/s, {:.0} docs/s",
                    s.files_done + s.files_failed.len(),
                    self.files_total,
                    s.records,
                    s.documents,
                    bytes as f64 / secs / 1e6,
                    s.documents as f64 / secs
                ));
            }
            return;
        }
        let line = serde_json::json!({
            "event": if last { "done" } else { "progress" },
            "elapsed_s": (secs * 1000.0).round() / 1000.0,
            "files_total": self.files_total,
            "files_done": s.files_done,
            "files_failed": s.files_failed.len(),
            "records": s.records,
            "documents": s.documents,
            "bytes": bytes,
            "mb_per_s": (bytes as f64 / secs / 1e4).round() / 100.0,
            "docs_per_s": (s.documents as f64 / secs).round(),
        });
        eprintln!("{line}");
    }
}

/// Corpus formats to write (at least one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Formats {
    pub xml: bool,
    pub jsonl: bool,
    pub vrt: bool,
}

/// Handling of exact duplicate documents (the same text as an earlier document of the same
/// input file; across files, `cowrex dedup` finds them). Per file, so that an input's outputs
/// do not depend on how a manifest is sharded or on which inputs a resumed run skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum ExactDups {
    /// Written with `duplicate-of="ID"` (XML, VRT) or `"duplicate_of"` (JSONL).
    #[default]
    Mark,
    /// Not written; the record's fate is `skipped.duplicate`.
    Skip,
    /// Not detected.
    Keep,
}

/// One input: a WARC file, an http(s) URL, or standard input spooled to a temporary file.
#[derive(Debug, Clone)]
pub struct Input {
    pub location: Location,
    /// Output stem (`S` in `S.xml.gz`); a relative path for the inputs of a manifest.
    pub stem: String,
    /// Name written as `arcfile`.
    pub arcfile: String,
}

impl Input {
    /// An input file; the stem is its name without `.gz` and `.warc`.
    pub fn file(path: PathBuf) -> Input {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "input".into());
        let mut stem = name.as_str();
        for ext in [".gz", ".warc", ".arc"] {
            stem = stem.strip_suffix(ext).unwrap_or(stem);
        }
        Input {
            stem: stem.to_string(),
            arcfile: name.clone(),
            location: Location::File(path),
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub files_done: usize,
    pub files_failed: Vec<(String, String)>,
    pub records: u64,
    pub documents: u64,
    pub bytes: u64,
    pub elapsed: Duration,
    /// The run was stopped by a signal (see [`crate::signals`]) before its last input.
    pub interrupted: bool,
}

pub(crate) enum Job {
    Start {
        file: usize,
    },
    /// A record and the index of its input.
    Record(Box<Record>, usize),
    TooLarge(Box<Record>),
    Broken(Box<Record>),
    Skipped {
        reason: &'static str,
        bytes: u64,
    },
    /// The end of an input: `bytes` is its length.
    End {
        error: Option<String>,
        bytes: u64,
    },
    /// The run stops in the middle of an input; its outputs are dropped.
    Abort,
}

enum Done {
    Start {
        file: usize,
    },
    Record {
        warc_type: String,
        fate: Fate,
        block_bytes: u64,
        truncated: Option<String>,
        doc: Option<Box<DocOut>>,
        /// The cap that stopped segmentation, whether the document was written or skipped.
        capped: Option<&'static str>,
        times: StageTimes,
    },
    Skipped {
        reason: &'static str,
        bytes: u64,
    },
    End {
        error: Option<String>,
        bytes: u64,
    },
    Abort,
}

/// A rendered corpus document and where the `duplicate-of` mark goes.
struct Rendered {
    bytes: Vec<u8>,
    mark_at: usize,
}

struct DocOut {
    id: String,
    fingerprint: u128,
    xml: Option<Rendered>,
    jsonl: Option<Rendered>,
    vrt: Option<Rendered>,
    /// Shingle lines and link lines.
    shingles: Vec<u8>,
    links: Vec<u8>,
    dup_blocks: u64,
    bdc: char,
    blocks_found: u64,
    blocks_written: u64,
    capped: Option<&'static str>,
    charset: String,
    evidence: &'static str,
    malformed: bool,
    language: &'static str,
    model: &'static str,
}

/// Hash of everything that changes the output, for `done.json`: the run's settings as
/// serialised (every field of [`RunConfig`] not marked `skip`) and the models' checksum.
pub fn config_hash(cfg: &RunConfig, model_checksum: &str) -> String {
    let settings = serde_json::to_string(cfg).expect("settings serialise");
    let s = format!("v9 {settings} model={model_checksum}");
    hex(&Md5::digest(s.as_bytes()))
}

/// Run the pipeline over all inputs.
pub fn run(cfg: &RunConfig, models: Arc<Models>) -> io::Result<Summary> {
    let model_sum = models.checksum();
    fs::create_dir_all(&cfg.out_dir)?;
    let started = Instant::now();
    let threads = cfg.threads.max(1);
    let Channels {
        job_tx,
        job_rx,
        done_tx,
        done_rx,
        token_tx,
        token_rx,
    } = channels::<Done>(threads);
    let summary = std::thread::scope(|s| {
        let inputs = &cfg.inputs;
        let max_payload = cfg.max_payload;
        let retry = cfg.retry;
        s.spawn(move || reader(inputs, max_payload, retry, job_tx, token_rx));
        for _ in 0..threads {
            let (rx, tx, models) = (job_rx.clone(), done_tx.clone(), Arc::clone(&models));
            let (doc_cfg, formats) = (cfg.doc, cfg.formats);
            let inputs = &cfg.inputs;
            s.spawn(move || worker(inputs, &models, &doc_cfg, formats, max_payload, rx, tx));
        }
        drop(done_tx);
        drop(job_rx);
        writer(cfg, model_sum, done_rx, token_tx)
    })?;
    // A stop between two inputs aborts none, but leaves inputs unread.
    let finished = summary.files_done + summary.files_failed.len();
    let interrupted =
        summary.interrupted || (crate::signals::stop_requested() && finished < cfg.inputs.len());
    Ok(Summary {
        elapsed: started.elapsed(),
        interrupted,
        ..summary
    })
}

/// The channels between the reader, the workers and the consumer of their results (the
/// writer, or [`stream::Documents`]), and the tokens of the window: the reader takes one per
/// item, the consumer gives it back once the item is consumed in order.
pub(crate) struct Channels<D> {
    pub job_tx: Sender<Vec<(u64, Job)>>,
    pub job_rx: Receiver<Vec<(u64, Job)>>,
    pub done_tx: Sender<Vec<(u64, D)>>,
    pub done_rx: Receiver<Vec<(u64, D)>>,
    pub token_tx: Sender<()>,
    pub token_rx: Receiver<()>,
}

/// [`Channels`] for `threads` workers, the window full of tokens.
pub(crate) fn channels<D>(threads: usize) -> Channels<D> {
    let window = 64 * threads + 64;
    let (job_tx, job_rx) = bounded(2 * threads);
    let (done_tx, done_rx) = bounded(2 * threads);
    let (token_tx, token_rx) = bounded(window);
    for _ in 0..window {
        token_tx.send(()).expect("fresh channel");
    }
    Channels {
        job_tx,
        job_rx,
        done_tx,
        done_rx,
        token_tx,
        token_rx,
    }
}

/// The id of the first document of the current input with this text `fingerprint`, or `None`
/// when this one (`id`) is the first, which `seen` then remembers.
pub(crate) fn first_with_text<S: std::hash::BuildHasher>(
    seen: &mut HashMap<u128, String, S>,
    fingerprint: u128,
    id: &str,
) -> Option<String> {
    match seen.entry(fingerprint) {
        std::collections::hash_map::Entry::Occupied(e) => Some(e.get().clone()),
        std::collections::hash_map::Entry::Vacant(e) => {
            e.insert(id.to_string());
            None
        }
    }
}

/// Items per batch between the threads; less than the window, so a batch being filled never
/// holds an item the writer waits for while the reader waits for a token.
const BATCH: usize = 16;

/// A batch is sent once its records hold this many bytes.
const BATCH_BYTES: usize = 256 << 10;

pub(crate) fn reader(
    inputs: &[Input],
    max_payload: u64,
    retry: Retry,
    tx: Sender<Vec<(u64, Job)>>,
    tokens: Receiver<()>,
) {
    let mut seq = 0u64;
    let (mut batch, mut bytes) = (Vec::with_capacity(BATCH), 0usize);
    // Queue a job; the batch goes when it is full, at an input's end, or on a stop.
    let mut send = |job: Job| -> bool {
        if tokens.recv().is_err() {
            return false;
        }
        let flush = match &job {
            Job::Record(r, _) | Job::TooLarge(r) | Job::Broken(r) => {
                bytes += r.block.len();
                bytes >= BATCH_BYTES
            }
            Job::Skipped { .. } | Job::Start { .. } => false,
            Job::End { .. } | Job::Abort => true,
        };
        batch.push((seq, job));
        seq += 1;
        if flush || batch.len() >= BATCH || crate::signals::stop_requested() {
            bytes = 0;
            return tx.send(std::mem::take(&mut batch)).is_ok();
        }
        true
    };
    for (i, input) in inputs.iter().enumerate() {
        if crate::signals::stop_requested() || !send(Job::Start { file: i }) {
            return;
        }
        let src = Source::new(input.location.clone(), retry);
        let result = warc::read(&src, ReadOptions { max_payload }, |item| {
            !crate::signals::stop_requested()
                && send(match item {
                    ReadItem::Record(r) => Job::Record(Box::new(r), i),
                    ReadItem::TooLarge(r) => Job::TooLarge(Box::new(r)),
                    ReadItem::Broken(r, _) => Job::Broken(Box::new(r)),
                    ReadItem::Skipped { reason, bytes } => Job::Skipped { reason, bytes },
                })
        });
        let end = if crate::signals::stop_requested() {
            Job::Abort
        } else {
            match result {
                Ok(bytes) => Job::End { error: None, bytes },
                Err(e) => Job::End {
                    error: Some(e.to_string()),
                    bytes: src.size().unwrap_or(0),
                },
            }
        };
        let abort = matches!(end, Job::Abort);
        if !send(end) || abort {
            return;
        }
    }
}

fn worker(
    inputs: &[Input],
    models: &Models,
    cfg: &Config,
    formats: Formats,
    max_payload: u64,
    rx: Receiver<Vec<(u64, Job)>>,
    tx: Sender<Vec<(u64, Done)>>,
) {
    for batch in rx {
        let done = batch.into_iter().map(|(seq, job)| {
            let done = match job {
                Job::Start { file } => Done::Start { file },
                Job::End { error, bytes } => Done::End { error, bytes },
                Job::Abort => Done::Abort,
                Job::Skipped { reason, bytes } => Done::Skipped { reason, bytes },
                Job::TooLarge(r) => plain(&r, Fate::PayloadTooLarge),
                Job::Broken(r) => plain(&r, Fate::ReadError),
                Job::Record(r, file) => {
                    let mut times = StageTimes::default();
                    let arcfile = &inputs[file].arcfile;
                    let res = catch_unwind(AssertUnwindSafe(|| {
                        process_record(&r, arcfile, models, cfg, formats, max_payload, &mut times)
                    }));
                    let (fate, capped, doc) = match res {
                        Ok(Ok(doc)) => (Fate::Written, doc.capped, Some(doc)),
                        Ok(Err(r)) => (r.fate, r.capped.map(crate::html::Cap::name), None),
                        Err(_) => (Fate::Panic, None, None),
                    };
                    Done::Record {
                        warc_type: r.warc_type.clone(),
                        fate,
                        block_bytes: r.block.len() as u64,
                        truncated: r.truncated.clone(),
                        doc: doc.map(Box::new),
                        capped,
                        times,
                    }
                }
            };
            (seq, done)
        });
        if tx.send(done.collect()).is_err() {
            return;
        }
    }
}

fn plain(r: &Record, fate: Fate) -> Done {
    Done::Record {
        warc_type: r.warc_type.clone(),
        fate,
        block_bytes: r.block.len() as u64,
        truncated: r.truncated.clone(),
        doc: None,
        capped: None,
        times: StageTimes::default(),
    }
}

/// Why an input read to its end holds nothing for cowrex: no WARC record in its bytes (random
/// bytes, a text or HTML file, an empty file), or only the records of a WET or WAT file. `None`
/// for a WARC file (even one without HTML responses).
pub(crate) fn not_a_warc(records_by_type: &BTreeMap<String, u64>, bytes: u64) -> Option<String> {
    if records_by_type.values().sum::<u64>() == 0 {
        return Some(if bytes == 0 {
            "empty file: no WARC record".into()
        } else {
            format!("no WARC record in its {bytes} bytes: not a WARC file")
        });
    }
    let only = |kind: &str| {
        records_by_type.contains_key(kind)
            && records_by_type.keys().all(|k| k == kind || k == "warcinfo")
    };
    if only("conversion") {
        Some(
            "a WET file (extracted text, no HTML): cowrex reads WARC files of HTTP responses"
                .into(),
        )
    } else if only("metadata") {
        Some("a WAT file (metadata, no HTML): cowrex reads WARC files of HTTP responses".into())
    } else {
        None
    }
}

/// Why a record gives no document: its fate, and the cap that stopped its segmentation.
struct Rejected {
    fate: Fate,
    capped: Option<crate::html::Cap>,
}

impl From<Fate> for Rejected {
    fn from(fate: Fate) -> Rejected {
        Rejected { fate, capped: None }
    }
}

/// Decide a record's fate and, for HTML responses, analyse it.
fn process_record(
    r: &Record,
    arcfile: &str,
    models: &Models,
    cfg: &Config,
    formats: Formats,
    max_payload: u64,
    times: &mut StageTimes,
) -> Result<DocOut, Rejected> {
    let mut decoded = Vec::new();
    let page = record_page(r, arcfile, max_payload, &mut decoded)?;
    let doc = document::analyze(page, models, cfg, times).map_err(|s| Rejected {
        fate: s.fate(),
        capped: match s {
            document::Skip::Capped(c) => Some(c),
            _ => None,
        },
    })?;
    let t = Instant::now();
    let lines = |l: xml::Lines| {
        let mut bytes = Vec::with_capacity(4096);
        let mark_at = xml::write_doc(&mut bytes, &doc, l, cfg.dup_blocks);
        Rendered { bytes, mark_at }
    };
    let xml_out = formats.xml.then(|| lines(xml::Lines::Xml));
    let vrt = formats.vrt.then(|| lines(xml::Lines::Vrt));
    let jsonl = formats.jsonl.then(|| {
        let mut bytes = Vec::with_capacity(4096);
        let mark_at = jsonl::write_doc(&mut bytes, &doc, cfg.dup_blocks, cfg.markdown);
        Rendered { bytes, mark_at }
    });
    let mut shingles = Vec::new();
    if let Some(h) = &doc.shingles {
        shingle::write_lines(&mut shingles, h, &doc.id, doc.content_size)
            .expect("writing to memory");
    }
    let mut links = Vec::new();
    crate::output::links::write_lines(&mut links, &doc).expect("writing to memory");
    times.write += t.elapsed().as_nanos() as u64;
    Ok(DocOut {
        id: doc.id.clone(),
        fingerprint: doc.fingerprint,
        xml: xml_out,
        jsonl,
        vrt,
        shingles,
        links,
        dup_blocks: doc.blocks.iter().filter(|b| b.dup_of.is_some()).count() as u64,
        bdc: quality::bdc(doc.badness.unwrap_or(0.0)),
        blocks_found: doc.blocks_total as u64,
        blocks_written: doc.blocks.len() as u64,
        capped: doc.capped.map(crate::html::Cap::name),
        charset: doc.source_charset.clone(),
        evidence: match doc.evidence {
            Some(crate::decode::Evidence::Bom) => "bom",
            Some(crate::decode::Evidence::Http) => "http",
            Some(crate::decode::Evidence::Meta) => "meta",
            _ => "detected",
        },
        malformed: doc.malformed,
        language: xml::language_code(doc.language),
        model: doc.model.map_or("custom", |m| m.code()),
    })
}

/// One gzip output file of an input, written under a temporary name.
struct GzOut {
    name: String,
    tmp: PathBuf,
    enc: GzMembers<File>,
}

impl GzOut {
    fn create(dir: &Path, name: String, level: u32) -> io::Result<GzOut> {
        let tmp = tmp_name(dir, &name);
        let f = File::create(&tmp)?;
        Ok(GzOut {
            name,
            tmp,
            enc: GzMembers::new(f, level),
        })
    }

    fn write(&mut self, b: &[u8]) -> io::Result<()> {
        self.enc.write_all(b)
    }

    /// Write a rendered document, with `mark` inserted when it is a duplicate.
    fn write_doc(&mut self, r: &Rendered, mark: Option<&[u8]>) -> io::Result<()> {
        match mark {
            None => self.write(&r.bytes),
            Some(m) => {
                self.write(&r.bytes[..r.mark_at])?;
                self.write(m)?;
                self.write(&r.bytes[r.mark_at..])
            }
        }
    }

    fn finish(self, dir: &Path) -> io::Result<String> {
        self.enc.finish()?.sync_all()?;
        fs::rename(&self.tmp, dir.join(&self.name))?;
        Ok(self.name)
    }
}

/// Output files of one input.
struct FileOut {
    stem: String,
    stats: FileStats,
    xml: Option<GzOut>,
    jsonl: Option<GzOut>,
    vrt: Option<GzOut>,
    shingles: Option<GzOut>,
    links: Option<GzOut>,
    started: Instant,
    times: StageTimes,
}

impl FileOut {
    fn create(cfg: &RunConfig, input: &Input) -> io::Result<FileOut> {
        // A manifest's inputs mirror their relative path under the output directory.
        if let Some(parent) = cfg.out_dir.join(&input.stem).parent() {
            fs::create_dir_all(parent)?;
        }
        let open = |on: bool, ext: &str| -> io::Result<Option<GzOut>> {
            // Shingle lines are mostly random digits: higher levels cost much CPU and save
            // little, so they get level 1 at most.
            let level = if ext == "shingles" {
                cfg.compression.min(1)
            } else {
                cfg.compression
            };
            on.then(|| GzOut::create(&cfg.out_dir, format!("{}.{ext}.gz", input.stem), level))
                .transpose()
        };
        let stats = FileStats {
            input: input.location.to_string(),
            ..Default::default()
        };
        Ok(FileOut {
            stem: input.stem.clone(),
            stats,
            xml: open(cfg.formats.xml, "xml")?,
            jsonl: open(cfg.formats.jsonl, "jsonl")?,
            vrt: open(cfg.formats.vrt, "vrt")?,
            shingles: open(cfg.doc.shingles, "shingles")?,
            links: open(cfg.doc.links, "links")?,
            started: Instant::now(),
            times: StageTimes::default(),
        })
    }

    /// Remove the temporary files.
    fn discard(&mut self) {
        for o in self.outputs() {
            drop(o.enc);
            let _ = fs::remove_file(&o.tmp);
        }
    }

    fn outputs(&mut self) -> impl Iterator<Item = GzOut> {
        [
            self.xml.take(),
            self.jsonl.take(),
            self.vrt.take(),
            self.shingles.take(),
            self.links.take(),
        ]
        .into_iter()
        .flatten()
    }
}

#[derive(Serialize)]
struct DoneFile<'a> {
    tool: &'static str,
    version: &'static str,
    input: &'a str,
    config_hash: &'a str,
    model_md5: &'a str,
    outputs: Vec<String>,
    records: u64,
    documents: u64,
}

/// The temporary name of output `name` (which may contain directories) under `dir`.
fn tmp_name(dir: &Path, name: &str) -> PathBuf {
    tmp_path(&dir.join(name))
}

/// Where a file is written before it is renamed to `p`: `.NAME.tmp` beside it.
pub fn tmp_path(p: &Path) -> PathBuf {
    let file = p
        .file_name()
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    p.with_file_name(format!(".{file}.tmp"))
}

/// Where `S.done.json` of an input goes.
pub fn done_path(out_dir: &Path, input: &Input) -> PathBuf {
    out_dir.join(format!("{}.done.json", input.stem))
}

/// Whether an input was done before with this configuration (its `S.done.json` has `hash`).
pub fn is_done(out_dir: &Path, input: &Input, hash: &str) -> bool {
    std::fs::read(done_path(out_dir, input))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| v["config_hash"] == hash)
}

/// Write `bytes` to `dir/name` through a temporary file and a rename.
fn publish(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let tmp = tmp_name(dir, name);
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, dir.join(name))
}

fn writer(
    cfg: &RunConfig,
    model_sum: &str,
    rx: Receiver<Vec<(u64, Done)>>,
    tokens: Sender<()>,
) -> io::Result<Summary> {
    let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
    let mut next = 0u64;
    let mut cur: Option<FileOut> = None;
    let mut summary = Summary::default();
    let hash = config_hash(cfg, model_sum);
    // Text fingerprints of the current input's documents, with the id of the first one.
    let mut seen: HashMap<u128, String> = HashMap::new();
    let mut progress = Reporter::new(cfg.progress, cfg.inputs.len());
    let mut bytes_read = 0u64;
    for (seq, done) in rx.into_iter().flatten() {
        pending.insert(seq, done);
        while let Some(done) = pending.remove(&next) {
            next += 1;
            let _ = tokens.try_send(());
            match done {
                Done::Start { file } => {
                    seen.clear();
                    cur = Some(FileOut::create(cfg, &cfg.inputs[file])?);
                }
                Done::Record {
                    warc_type,
                    mut fate,
                    block_bytes,
                    truncated,
                    mut doc,
                    capped,
                    times,
                } => {
                    let out = cur.as_mut().expect("records come between Start and End");
                    let st = &mut out.stats;
                    st.records += 1;
                    summary.records += 1;
                    bytes_read += block_bytes;
                    st.bytes.records += block_bytes;
                    FileStats::bump(&mut st.records_by_type, &warc_type, 1);
                    if let Some(t) = truncated {
                        FileStats::bump(&mut st.warc_truncated, &t, 1);
                    }
                    let t = &mut out.times;
                    t.decode += times.decode;
                    t.segment += times.segment;
                    t.features += times.features;
                    t.language += times.language;
                    t.score += times.score;
                    t.document += times.document;
                    t.write += times.write;
                    let first = match &doc {
                        Some(d) if cfg.exact_dups != ExactDups::Keep => {
                            first_with_text(&mut seen, d.fingerprint, &d.id)
                        }
                        _ => None,
                    };
                    if first.is_some() && cfg.exact_dups == ExactDups::Skip {
                        fate = Fate::Duplicate;
                        doc = None;
                    }
                    st.fate(fate, block_bytes);
                    if let Some(c) = capped {
                        FileStats::bump(&mut st.capped, c, 1);
                    }
                    if let Some(d) = doc {
                        let (xml_mark, json_mark) = match &first {
                            Some(id) => {
                                st.duplicates += 1;
                                (
                                    Some(format!(" duplicate-of=\"{id}\"").into_bytes()),
                                    Some(format!(",\"duplicate_of\":\"{id}\"").into_bytes()),
                                )
                            }
                            None => (None, None),
                        };
                        if let (Some(o), Some(r)) = (&mut out.xml, &d.xml) {
                            o.write_doc(r, xml_mark.as_deref())?;
                        }
                        if let (Some(o), Some(r)) = (&mut out.vrt, &d.vrt) {
                            o.write_doc(r, xml_mark.as_deref())?;
                        }
                        if let (Some(o), Some(r)) = (&mut out.jsonl, &d.jsonl) {
                            o.write_doc(r, json_mark.as_deref())?;
                        }
                        if let Some(o) = &mut out.shingles {
                            o.write(&d.shingles)?;
                        }
                        if let Some(o) = &mut out.links {
                            o.write(&d.links)?;
                        }
                        st.bytes.xml += d.xml.as_ref().map_or(0, |r| r.bytes.len() as u64);
                        st.documents += 1;
                        summary.documents += 1;
                        st.blocks_found += d.blocks_found;
                        st.blocks_written += d.blocks_written;
                        st.dup_blocks += d.dup_blocks;
                        st.shingled += !d.shingles.is_empty() as u64;
                        st.links += d.links.iter().filter(|&&b| b == b'\n').count() as u64;
                        FileStats::bump(&mut st.text_quality, &d.bdc.to_string(), 1);
                        FileStats::bump(&mut st.charsets, &d.charset, 1);
                        FileStats::bump(&mut st.charset_evidence, d.evidence, 1);
                        FileStats::bump(&mut st.languages, d.language, 1);
                        FileStats::bump(&mut st.models, d.model, 1);
                        st.malformed_text += d.malformed as u64;
                    }
                }
                Done::Skipped { reason, bytes } => {
                    let out = cur.as_mut().expect("inside a file");
                    FileStats::bump(&mut out.stats.stream_errors, reason, 1);
                    out.stats.stream_error_bytes += bytes;
                }
                Done::End { error, bytes } => {
                    let mut out = cur.take().expect("End after Start");
                    out.stats.bytes.input = bytes;
                    let failure = match error {
                        Some(e) => Some(("io_error", e)),
                        None => not_a_warc(&out.stats.records_by_type, bytes).map(|why| {
                            if out.stats.records == 0 {
                                // No byte of it was a record.
                                let st = &mut out.stats;
                                st.stream_error_bytes +=
                                    bytes.saturating_sub(st.stream_error_bytes);
                            }
                            ("not_warc", why)
                        }),
                    };
                    finish_file(cfg, &hash, model_sum, out, failure, &mut summary)?;
                }
                Done::Abort => {
                    let mut out = cur.take().expect("Abort after Start");
                    out.discard();
                    summary.interrupted = true;
                }
            }
            progress.update(&summary, bytes_read, false);
        }
    }
    progress.update(&summary, bytes_read, true);
    summary.bytes = bytes_read;
    Ok(summary)
}

fn finish_file(
    cfg: &RunConfig,
    hash: &str,
    model_sum: &str,
    mut out: FileOut,
    error: Option<(&'static str, String)>,
    summary: &mut Summary,
) -> io::Result<()> {
    let dir = &cfg.out_dir;
    let ms = |ns: u64| ns / 1_000_000;
    let t = &out.times;
    out.stats.time_ms = BTreeMap::from([
        ("decode".to_string(), ms(t.decode)),
        ("segment".to_string(), ms(t.segment)),
        ("features".to_string(), ms(t.features)),
        ("language".to_string(), ms(t.language)),
        ("score".to_string(), ms(t.score)),
        ("document".to_string(), ms(t.document)),
        ("write".to_string(), ms(t.write)),
        (
            "total".to_string(),
            out.started.elapsed().as_millis() as u64,
        ),
    ]);
    let mut outputs = Vec::new();
    if let Some((reason, e)) = &error {
        FileStats::bump(&mut out.stats.stream_errors, reason, 1);
        summary
            .files_failed
            .push((out.stats.input.clone(), e.clone()));
        // An input that could not be read to its end gets no `.done.json`: a rerun redoes it.
        // Without any record, only a file that is not a WARC file keeps its statistics (they
        // say how many bytes it had), so that `status` counts it as failed.
        if out.stats.records == 0 {
            out.discard();
            if *reason == "io_error" {
                return Ok(());
            }
        }
    }
    for o in out.outputs() {
        outputs.push(o.finish(dir)?);
    }
    let stats_name = format!("{}.stats.json", out.stem);
    publish(
        dir,
        &stats_name,
        &serde_json::to_vec_pretty(&out.stats).map_err(io::Error::other)?,
    )?;
    outputs.push(stats_name);
    if error.is_none() {
        let done = DoneFile {
            tool: "cowrex",
            version: env!("CARGO_PKG_VERSION"),
            input: &out.stats.input,
            config_hash: hash,
            model_md5: model_sum,
            outputs,
            records: out.stats.records,
            documents: out.stats.documents,
        };
        publish(
            dir,
            &format!("{}.done.json", out.stem),
            &serde_json::to_vec_pretty(&done).map_err(io::Error::other)?,
        )?;
        summary.files_done += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> RunConfig {
        RunConfig {
            inputs: Vec::new(),
            out_dir: PathBuf::from("out"),
            threads: 1,
            doc: Config::default(),
            max_payload: MAX_PAYLOAD,
            progress: Progress::Off,
            compression: 6,
            formats: Formats {
                xml: true,
                jsonl: false,
                vrt: false,
            },
            exact_dups: ExactDups::default(),
            retry: Retry::default(),
        }
    }

    /// How many values the settings serialise to (nested objects counted by their values).
    fn leaves(v: &serde_json::Value) -> usize {
        match v {
            serde_json::Value::Object(m) => m.values().map(leaves).sum(),
            _ => 1,
        }
    }

    /// A change of any setting that changes the output changes the hash; the settings that do
    /// not are left out. A new field of `RunConfig` or `Config` is hashed unless marked
    /// `#[serde(skip)]`, and fails this test until it is given a change below.
    #[test]
    fn the_configuration_hash_covers_every_setting_that_changes_the_output() {
        type Change = fn(&mut RunConfig);
        let changes: [Change; 22] = [
            |c| c.doc.threshold = Some(0.5),
            |c| c.doc.limits.max_depth += 1,
            |c| c.doc.limits.max_blocks += 1,
            |c| c.doc.limits.max_work += 1,
            |c| c.doc.syntax = crate::html::Syntax::Texrex,
            |c| c.doc.filter = Some(document::DocFilter::default()),
            |c| c.doc.max_badness = Some(30.0),
            |c| c.doc.min_length += 1,
            |c| c.doc.shingles = !c.doc.shingles,
            |c| c.doc.links = !c.doc.links,
            |c| c.doc.dup_blocks = document::DupBlocks::Drop,
            |c| c.doc.markdown = Some(true),
            |c| c.doc.mask.email = true,
            |c| c.doc.mask.uri = true,
            |c| c.doc.mask.hashtag = true,
            |c| c.doc.texrex_text = true,
            |c| c.doc.marks = !c.doc.marks,
            |c| c.max_payload += 1,
            |c| c.formats.xml = false,
            |c| c.formats.jsonl = true,
            |c| c.formats.vrt = true,
            |c| c.exact_dups = ExactDups::Skip,
        ];
        let base = settings();
        let serialised = serde_json::to_value(&base).unwrap();
        assert_eq!(
            leaves(&serialised),
            changes.len(),
            "a setting without a change in this test: {serialised}"
        );
        let hash = config_hash(&base, "m");
        assert_eq!(hash, config_hash(&settings(), "m"), "deterministic");
        assert_ne!(hash, config_hash(&base, "n"), "the models count");
        let mut seen = std::collections::HashSet::from([hash.clone()]);
        for (i, change) in changes.iter().enumerate() {
            let mut c = settings();
            change(&mut c);
            assert!(
                seen.insert(config_hash(&c, "m")),
                "change {i} is not hashed"
            );
        }
        let unhashed: [Change; 6] = [
            |c| c.inputs.push(Input::file(PathBuf::from("a.warc.gz"))),
            |c| c.out_dir = PathBuf::from("elsewhere"),
            |c| c.threads = 8,
            |c| c.progress = Progress::Bar,
            |c| c.compression = 1,
            |c| c.retry.retries = 0,
        ];
        for (i, change) in unhashed.iter().enumerate() {
            let mut c = settings();
            change(&mut c);
            assert_eq!(
                config_hash(&c, "m"),
                hash,
                "setting {i} does not change the output"
            );
        }
    }
}

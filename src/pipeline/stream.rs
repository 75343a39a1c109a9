//! Documents of WARC inputs as an iterator, for library users: the reader thread and worker
//! threads of [`super::run`], with the consumer in place of the writer. Documents come in
//! input order whatever the number of workers, and memory stays bounded: the reader waits
//! while the consumer is more than a window of records behind.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};
use rustc_hash::FxHashMap;

use super::config::{Input, MAX_PAYLOAD};
use super::dups::first_with_text;
use super::order::{Channels, Reorder, channels};
use super::reader::{Job, not_a_warc, reader};
use super::select::record_page;
use crate::classify::Models;
use crate::document::{self, Config, Document, StageTimes};
use crate::fate::Fate;
use crate::warc::Retry;

/// Settings of a stream.
#[derive(Debug, Clone)]
pub struct StreamConfig {
    /// Settings of document analysis.
    pub doc: Config,
    /// Worker threads (at least one).
    pub threads: usize,
    /// Record blocks above this many bytes are skipped (`skipped.payload_too_large`).
    pub max_payload: u64,
    /// Retries of http(s) inputs.
    pub retry: Retry,
}

impl Default for StreamConfig {
    fn default() -> Self {
        StreamConfig {
            doc: Config::default(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_payload: MAX_PAYLOAD,
            retry: Retry::default(),
        }
    }
}

/// What became of the records read so far, as `process` counts them in its stats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamStats {
    /// Records read.
    pub records: u64,
    /// Documents yielded.
    pub documents: u64,
    /// Records by fate (`written`, `skipped.not_html`, …).
    pub fates: BTreeMap<String, u64>,
    /// Damaged stretches of the inputs that held no readable record, by reason.
    pub stream_errors: BTreeMap<String, u64>,
}

/// An input that could not be read to its end (the documents read before it were yielded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The input as given.
    pub input: String,
    /// Why reading stopped.
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.input, self.message)
    }
}

impl std::error::Error for InputError {}

enum Out {
    Start(usize),
    /// A record's `WARC-Type` and its document or fate.
    Record(String, Result<Box<Document>, Fate>),
    Skipped(&'static str),
    /// The end of an input: the error that stopped reading it, and its length.
    End(Option<String>, u64),
    Abort,
}

/// The documents of a stream's inputs in input order; see [`stream`].
pub struct Documents {
    inputs: Arc<Vec<Input>>,
    rx: Receiver<Vec<(u64, Out)>>,
    /// The results in input order, tokens back to the reader.
    order: Reorder<Out>,
    /// Text fingerprints of the current input's documents, with the id of the first one.
    seen: FxHashMap<u128, String>,
    current: usize,
    /// The current input's records by `WARC-Type`.
    types: BTreeMap<String, u64>,
    stats: StreamStats,
    /// A file to remove when the stream is dropped (standard input spooled to disk).
    spooled: Option<PathBuf>,
}

/// Read `inputs` on a reader thread and analyse their HTML responses on `cfg.threads` worker
/// threads. Each document is yielded once the ones before it have been; a document with the
/// same text as an earlier one of its input gets [`Document::duplicate_of`]. An input that
/// cannot be read to its end, or that holds no WARC record (or only a WET or WAT file's), yields
/// an [`InputError`] after its readable documents, and the stream goes on with the next input.
/// Dropping the iterator stops the threads.
pub fn stream(inputs: Vec<Input>, models: Arc<Models>, cfg: &StreamConfig) -> Documents {
    let threads = cfg.threads.max(1);
    let Channels {
        job_tx,
        job_rx,
        done_tx,
        done_rx,
        token_tx,
        token_rx,
    } = channels::<Out>(threads);
    let inputs = Arc::new(inputs);
    let (max_payload, retry) = (cfg.max_payload, cfg.retry);
    {
        let inputs = Arc::clone(&inputs);
        std::thread::spawn(move || reader(&inputs, max_payload, retry, job_tx, token_rx));
    }
    for _ in 0..threads {
        let (rx, tx, models) = (job_rx.clone(), done_tx.clone(), Arc::clone(&models));
        let (inputs, doc_cfg) = (Arc::clone(&inputs), cfg.doc);
        std::thread::spawn(move || worker(&inputs, &models, &doc_cfg, max_payload, rx, tx));
    }
    Documents {
        inputs,
        rx: done_rx,
        order: Reorder::new(token_tx),
        seen: FxHashMap::default(),
        current: 0,
        types: BTreeMap::new(),
        stats: StreamStats::default(),
        spooled: None,
    }
}

fn worker(
    inputs: &[Input],
    models: &Models,
    cfg: &Config,
    max_payload: u64,
    rx: Receiver<Vec<(u64, Job)>>,
    tx: Sender<Vec<(u64, Out)>>,
) {
    for batch in rx {
        let out = batch.into_iter().map(|(seq, job)| {
            let out = match job {
                Job::Start { file } => Out::Start(file),
                Job::End { error, bytes } => Out::End(error, bytes),
                Job::Abort => Out::Abort,
                Job::Skipped { reason, .. } => Out::Skipped(reason),
                Job::TooLarge(r) => Out::Record(r.warc_type, Err(Fate::PayloadTooLarge)),
                Job::Broken(r) => Out::Record(r.warc_type, Err(Fate::ReadError)),
                Job::Record(r, file) => {
                    let res = catch_unwind(AssertUnwindSafe(|| {
                        let mut decoded = Vec::new();
                        let page =
                            record_page(&r, &inputs[file].arcfile, max_payload, &mut decoded)?;
                        document::analyze(page, models, cfg, &mut StageTimes::default())
                            .map_err(|s| s.fate())
                    }));
                    let warc_type = r.warc_type.clone();
                    Out::Record(
                        warc_type,
                        match res {
                            Ok(r) => r.map(Box::new),
                            Err(_) => Err(Fate::Panic),
                        },
                    )
                }
            };
            (seq, out)
        });
        if tx.send(out.collect()).is_err() {
            return;
        }
    }
}

impl Documents {
    /// What became of the records read so far.
    pub fn stats(&self) -> &StreamStats {
        &self.stats
    }

    /// Remove `path` when the stream is dropped.
    pub(crate) fn remove_on_drop(&mut self, path: PathBuf) {
        self.spooled = Some(path);
    }
}

impl Iterator for Documents {
    type Item = Result<Document, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            while let Some(out) = self.order.pop() {
                match out {
                    Out::Start(file) => {
                        self.current = file;
                        self.seen.clear();
                        self.types.clear();
                    }
                    Out::Record(warc_type, result) => {
                        self.stats.records += 1;
                        *self.types.entry(warc_type).or_default() += 1;
                        let mut doc = match result {
                            Ok(doc) => doc,
                            Err(fate) => {
                                *self.stats.fates.entry(fate.name().into()).or_default() += 1;
                                continue;
                            }
                        };
                        self.stats.documents += 1;
                        *self
                            .stats
                            .fates
                            .entry(Fate::Written.name().into())
                            .or_default() += 1;
                        doc.duplicate_of =
                            first_with_text(&mut self.seen, doc.fingerprint, &doc.id);
                        return Some(Ok(*doc));
                    }
                    Out::Skipped(reason) => {
                        *self.stats.stream_errors.entry(reason.into()).or_default() += 1;
                    }
                    Out::Abort => {}
                    Out::End(error, bytes) => {
                        let failure = error.or_else(|| not_a_warc(&self.types, bytes));
                        if let Some(message) = failure {
                            return Some(Err(InputError {
                                input: self.inputs[self.current].location.to_string(),
                                message,
                            }));
                        }
                    }
                }
            }
            match self.rx.recv() {
                Ok(batch) => self.order.extend(batch),
                Err(_) => return None,
            }
        }
    }
}

impl Drop for Documents {
    fn drop(&mut self) {
        if let Some(p) = &self.spooled {
            let _ = std::fs::remove_file(p);
        }
    }
}

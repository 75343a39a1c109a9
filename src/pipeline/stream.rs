//! Documents of WARC inputs as an iterator, for library users: the pipeline of [`super::run`]
//! with a queue of documents in place of the file writer. Documents come in input order
//! whatever the number of workers, and memory stays bounded: the reader waits while the
//! consumer is more than a window of records behind.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use super::config::{Input, MAX_PAYLOAD};
use super::dups::ExactDups;
use super::sink::{Failure, Sink, Tally};
use super::threads::{Running, Setup, start};
use crate::analyze::Config;
use crate::classify::Models;
use crate::document::Document;
use crate::error::{Error, ErrorKind};
use crate::output::stats::FileStats;
use crate::stop::Stop;
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
    /// The stream's stop: once requested, reading ends and the iterator ends after the
    /// documents already read ([`Stop`]).
    pub stop: Stop,
}

impl Default for StreamConfig {
    fn default() -> Self {
        StreamConfig {
            doc: Config::default(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_payload: MAX_PAYLOAD,
            retry: Retry::default(),
            stop: Stop::new(),
        }
    }
}

impl StreamConfig {
    /// The threads' setup of a stream, or of a run into a sink, over `inputs`.
    pub(super) fn setup(&self, inputs: Arc<Vec<Input>>, models: Arc<Models>) -> Setup {
        Setup {
            inputs,
            models,
            doc: self.doc,
            threads: self.threads,
            max_payload: self.max_payload,
            retry: self.retry,
            stop: self.stop.clone(),
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
    /// Damaged stretches of the inputs that held no readable record, and inputs that failed
    /// (`io_error`, `not_warc`), by reason.
    pub stream_errors: BTreeMap<String, u64>,
}

impl StreamStats {
    /// Add an input's statistics.
    fn add(&mut self, s: &FileStats) {
        self.records += s.records;
        self.documents += s.documents;
        for (map, from) in [
            (&mut self.fates, &s.fates),
            (&mut self.stream_errors, &s.stream_errors),
        ] {
            for (k, n) in from {
                FileStats::bump(map, k, *n);
            }
        }
    }
}

/// The sink of a stream: documents and errors queued for [`Documents::next`], and the
/// statistics of the inputs ended.
struct Queue {
    items: VecDeque<Result<Document, Error>>,
    /// The input being read, for its error.
    input: String,
    ended: StreamStats,
}

impl Sink for Queue {
    type Doc = Document;

    fn start(&mut self, input: &Input) -> io::Result<()> {
        self.input = input.location.to_string();
        Ok(())
    }

    fn document(
        &mut self,
        mut doc: Document,
        first: Option<String>,
        _: &mut FileStats,
    ) -> io::Result<()> {
        doc.duplicate_of = first;
        self.items.push_back(Ok(doc));
        Ok(())
    }

    fn end(&mut self, stats: &FileStats, failure: Option<&Failure>) -> io::Result<()> {
        self.ended.add(stats);
        if let Some(f) = failure {
            // The words `process` prints for a failed input.
            let message = format!("{}: {}", self.input, f.message);
            let e = Error::new(ErrorKind::Input, message).concerning(&self.input);
            self.items.push_back(Err(e));
        }
        Ok(())
    }

    fn abort(&mut self) {}
}

/// The documents of a stream's inputs in input order:
/// [`Extractor::read_warc`](crate::Extractor::read_warc), or [`stream`] for many inputs.
pub struct Documents {
    running: Running<Document>,
    tally: Tally<Queue>,
    /// A file to remove when the stream is dropped (standard input spooled to disk).
    spooled: Option<PathBuf>,
    stop: Stop,
}

/// Read `inputs` on a reader thread and analyse their HTML responses on `cfg.threads` worker
/// threads. Each document is yielded once the ones before it have been; a document with the
/// same text as an earlier one of its input gets [`Document::duplicate_of`]. An input that
/// cannot be read to its end, or that holds no WARC record (or only a WET or WAT file's), yields
/// an input [`Error`] after its readable documents, and the stream goes on with the next input.
/// Dropping the iterator stops the threads.
pub fn stream(inputs: Vec<Input>, models: Arc<Models>, cfg: &StreamConfig) -> Documents {
    let inputs = Arc::new(inputs);
    let running = start(cfg.setup(Arc::clone(&inputs), models), |d| d);
    let queue = Queue {
        items: VecDeque::new(),
        input: String::new(),
        ended: StreamStats::default(),
    };
    Documents {
        running,
        tally: Tally::new(inputs, ExactDups::Mark, queue),
        spooled: None,
        stop: cfg.stop.clone(),
    }
}

impl Documents {
    /// What became of the records read so far.
    pub fn stats(&self) -> StreamStats {
        let mut s = self.tally.sink.ended.clone();
        if let Some(current) = self.tally.current() {
            s.add(current);
        }
        s
    }

    /// The stream's stop ([`StreamConfig::stop`]), for another thread to end the stream with:
    /// once it is requested, the iterator ends after the documents already read.
    pub fn stop(&self) -> Stop {
        self.stop.clone()
    }

    /// Remove `path` when the stream is dropped.
    pub(crate) fn remove_on_drop(&mut self, path: PathBuf) {
        self.spooled = Some(path);
    }
}

impl Iterator for Documents {
    type Item = Result<Document, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.tally.sink.items.pop_front() {
                return Some(item);
            }
            let done = self.running.next()?;
            self.tally.take(done).expect("the queue writes nothing");
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

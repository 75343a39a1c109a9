//! The reader thread: reads the inputs in order with [`crate::warc::read`] and sends each item
//! (an input's start, a record, a damaged stretch, an input's end) as a [`Job`] with its
//! sequence number, in batches, taking a token of the window per item. Also [`not_a_warc`],
//! what the consumer makes of an input read to its end without a WARC record.

use std::collections::BTreeMap;

use crossbeam_channel::{Receiver, Sender};

use super::config::Input;
use crate::stop::Stop;
use crate::warc::{self, ReadItem, ReadOptions, Record, Retry, Source};

/// Items per batch between the threads; less than the window, so a batch being filled never
/// holds an item the writer waits for while the reader waits for a token.
const BATCH: usize = 16;

/// A batch is sent once its records hold this many bytes.
const BATCH_BYTES: usize = 256 << 10;

/// An item of the reader, for a worker.
pub(crate) enum Job {
    /// The start of input `file` (its index in the inputs).
    Start { file: usize },
    /// A record and the index of its input.
    Record(Box<Record>, usize),
    /// A record whose block is over the payload cap (not held).
    TooLarge(Box<Record>),
    /// A record whose block could not be read.
    Broken(Box<Record>),
    /// A damaged stretch of the input, skipped.
    Skipped { reason: &'static str, bytes: u64 },
    /// The end of an input: `bytes` is its length.
    End { error: Option<String>, bytes: u64 },
    /// The run stops in the middle of an input; its outputs are dropped.
    Abort,
}

/// Read `inputs` in order and send their items to the workers through `tx`, one token of
/// `tokens` per item. Returns at the end of the inputs, on a stop request, or when the
/// consumer is gone.
pub(crate) fn reader(
    inputs: &[Input],
    max_payload: u64,
    retry: Retry,
    stop: &Stop,
    tx: Sender<Vec<(u64, Job)>>,
    tokens: Receiver<()>,
) {
    let mut out = Batcher::new(tx, tokens, stop.clone());
    for (i, input) in inputs.iter().enumerate() {
        if stop.requested() || !out.send(Job::Start { file: i }) {
            return;
        }
        let end = read_input(input, i, max_payload, retry, &mut out);
        let abort = matches!(end, Job::Abort);
        if !out.send(end) || abort {
            return;
        }
    }
}

/// Send the items of input `i` and return the job that ends it: [`Job::End`] with its length
/// and the error that stopped reading it, if any, or [`Job::Abort`] on a stop request.
fn read_input(input: &Input, i: usize, max_payload: u64, retry: Retry, out: &mut Batcher) -> Job {
    let stop = out.stop.clone();
    let src = Source::new(input.location.clone(), retry, stop.clone());
    let result = warc::read(&src, ReadOptions { max_payload }, |item| {
        !stop.requested()
            && out.send(match item {
                ReadItem::Record(r) => Job::Record(Box::new(r), i),
                ReadItem::TooLarge(r) => Job::TooLarge(Box::new(r)),
                ReadItem::Broken(r, _) => Job::Broken(Box::new(r)),
                ReadItem::Skipped { reason, bytes } => Job::Skipped { reason, bytes },
            })
    });
    if stop.requested() {
        return Job::Abort;
    }
    match result {
        Ok(bytes) => Job::End { error: None, bytes },
        Err(e) => Job::End {
            error: Some(e.to_string()),
            bytes: src.size().unwrap_or(0),
        },
    }
}

/// Numbers the jobs and sends them in batches: a batch goes when it is full, at an input's
/// end, or on a stop.
struct Batcher {
    tx: Sender<Vec<(u64, Job)>>,
    tokens: Receiver<()>,
    seq: u64,
    batch: Vec<(u64, Job)>,
    /// Bytes of the records in `batch`.
    bytes: usize,
    /// The run's stop, which sends the batch at once.
    stop: Stop,
}

impl Batcher {
    fn new(tx: Sender<Vec<(u64, Job)>>, tokens: Receiver<()>, stop: Stop) -> Batcher {
        Batcher {
            tx,
            tokens,
            stop,
            seq: 0,
            batch: Vec::with_capacity(BATCH),
            bytes: 0,
        }
    }

    /// Queue a job once a token is free; `false` when the consumer is gone.
    fn send(&mut self, job: Job) -> bool {
        if self.tokens.recv().is_err() {
            return false;
        }
        let flush = match &job {
            Job::Record(r, _) | Job::TooLarge(r) | Job::Broken(r) => {
                self.bytes += r.block.len();
                self.bytes >= BATCH_BYTES
            }
            Job::Skipped { .. } | Job::Start { .. } => false,
            Job::End { .. } | Job::Abort => true,
        };
        self.batch.push((self.seq, job));
        self.seq += 1;
        if flush || self.batch.len() >= BATCH || self.stop.requested() {
            self.bytes = 0;
            return self.tx.send(std::mem::take(&mut self.batch)).is_ok();
        }
        true
    }
}

/// Why an input read to its end holds nothing for cowrex: no WARC or ARC record in its bytes (random
/// bytes, a text or HTML file, an empty file), or only the records of a WET or WAT file. `None`
/// for a WARC file (even one without HTML responses).
pub(crate) fn not_a_warc(records_by_type: &BTreeMap<String, u64>, bytes: u64) -> Option<String> {
    if records_by_type.values().sum::<u64>() == 0 {
        return Some(if bytes == 0 {
            "empty file: no WARC or ARC record".into()
        } else {
            format!("no WARC or ARC record in its {bytes} bytes: not a web archive")
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

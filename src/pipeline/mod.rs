//! The threaded pipeline of `cowrex process`: one reader thread → N worker threads → one
//! writer thread, with bounded channels in between and a window of sequence numbers that
//! bounds how far the reader may run ahead of the writer (so memory does not grow with the
//! input).
//!
//! Every item carries a sequence number; the writer puts items back in input order, so the
//! output is byte-identical whatever the number of workers. Items travel in batches (up to 16
//! items or 256 KiB of records), so that threads wake once per batch rather than once per
//! record.
//!
//! Where each part lives:
//! - `config.rs`: a run's settings ([`RunConfig`], [`Input`], [`Formats`], [`MAX_PAYLOAD`])
//!   and [`config_hash`];
//! - `reader.rs`: the reader thread, which reads the inputs into numbered batches of jobs;
//! - `worker.rs`: the worker threads, which select, analyse and render each record;
//! - `order.rs`: the channels between the threads and the ordering window;
//! - `writer.rs`: the writer thread, which counts every record, marks or skips exact
//!   duplicates and writes the documents;
//! - `files.rs`: an input's output files, written under temporary names and renamed once
//!   complete, its `S.stats.json` and `S.done.json` ([`tmp_path`], [`done_path`], [`is_done`],
//!   [`drop_done`]);
//! - `dups.rs`: exact duplicates within an input ([`ExactDups`]);
//! - `progress.rs`: progress reports ([`Progress`], [`Snapshot`]);
//! - [`select`]: which records hold an HTML page; [`manifest`]: lists of inputs; [`stream`]:
//!   the reader and the workers with an iterator of documents in place of the writer.
//!
//! This file holds [`run`], which starts the threads, and [`Summary`], what a run did.

mod config;
mod dups;
mod files;
pub mod manifest;
mod order;
mod progress;
mod reader;
pub mod select;
pub mod stream;
mod worker;
mod writer;

use std::fs;
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use config::{Formats, Input, MAX_PAYLOAD, RunConfig, config_hash};
pub use dups::ExactDups;
pub use files::{done_path, drop_done, is_done, tmp_path};
pub use progress::{Progress, Snapshot};

use crate::classify::Models;
use order::{Channels, channels};
use reader::reader;
use worker::{Done, worker};
use writer::writer;

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Inputs read to their end, with their `S.done.json`.
    pub files_done: usize,
    /// Inputs that failed: the input and why.
    pub files_failed: Vec<(String, String)>,
    /// Records read.
    pub records: u64,
    /// Documents written.
    pub documents: u64,
    /// Bytes of the records' blocks.
    pub bytes: u64,
    /// Time of the whole run.
    pub elapsed: Duration,
    /// The run was stopped by a signal (SIGTERM, SIGUSR1, SIGINT) before its last input.
    pub interrupted: bool,
}

/// Run the pipeline over all inputs.
pub fn run(cfg: &RunConfig, models: Arc<Models>) -> io::Result<Summary> {
    let model_sum = models.checksum();
    fs::create_dir_all(&cfg.out_dir)?;
    let started = Instant::now();
    let summary = run_threads(cfg, &models, model_sum)?;
    Ok(Summary {
        elapsed: started.elapsed(),
        interrupted: interrupted(&summary, cfg.inputs.len()),
        ..summary
    })
}

/// Start the reader and the workers, and write their results on this thread until the last
/// one.
fn run_threads(cfg: &RunConfig, models: &Arc<Models>, model_sum: &str) -> io::Result<Summary> {
    let threads = cfg.threads.max(1);
    let Channels {
        job_tx,
        job_rx,
        done_tx,
        done_rx,
        token_tx,
        token_rx,
    } = channels::<Done>(threads);
    std::thread::scope(|s| {
        let inputs = &cfg.inputs;
        let max_payload = cfg.max_payload;
        let retry = cfg.retry;
        s.spawn(move || reader(inputs, max_payload, retry, job_tx, token_rx));
        for _ in 0..threads {
            let (rx, tx, models) = (job_rx.clone(), done_tx.clone(), Arc::clone(models));
            let (doc_cfg, formats) = (cfg.doc, cfg.formats);
            s.spawn(move || worker(inputs, &models, &doc_cfg, formats, max_payload, rx, tx));
        }
        drop(done_tx);
        drop(job_rx);
        writer(cfg, model_sum, done_rx, token_tx)
    })
}

/// Whether the run was stopped: an input was aborted, or a stop came between two inputs,
/// which aborts none but leaves inputs unread.
fn interrupted(summary: &Summary, inputs: usize) -> bool {
    let finished = summary.files_done + summary.files_failed.len();
    summary.interrupted || (crate::stop::requested() && finished < inputs)
}

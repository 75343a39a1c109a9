//! The threaded pipeline: one reader thread → N worker threads → one consumer, with bounded
//! channels in between and a window of sequence numbers that bounds how far the reader may
//! run ahead of the consumer (so memory does not grow with the input). The consumer is
//! `process`'s file writer ([`run`]), the documents iterator that library and Python users
//! read ([`stream`]), or a user's own output ([`run_into`]); each is a [`Sink`] behind the
//! same counting.
//!
//! Every item carries a sequence number; the consumer takes items in input order, so the
//! output is byte-identical whatever the number of workers. Items travel in batches (up to 16
//! items or 256 KiB of records), so that threads wake once per batch rather than once per
//! record.
//!
//! Where each part lives:
//! - `config.rs`: a run's settings ([`RunConfig`], [`Input`], [`Formats`], [`MAX_PAYLOAD`])
//!   and [`config_hash`];
//! - `threads.rs`: the one thread setup, and the ordering window;
//! - `reader.rs`: the reader thread, which reads the inputs into numbered batches of jobs;
//! - `worker.rs`: the worker threads, which select and analyse each record and make its
//!   document into what the consumer takes;
//! - `sink.rs`: the consumer, which counts every record in its input's statistics and finds
//!   exact duplicates, and the [`Sink`] interface it hands documents to;
//! - `writer.rs`: the file writer, the sink of `process`, with the rendering its workers do;
//! - `files.rs`: an input's output files, written under temporary names and renamed once
//!   complete, its `S.stats.json` and `S.done.json` ([`tmp_path`], [`done_path`], [`is_done`],
//!   [`drop_done`]);
//! - `dups.rs`: exact duplicates within an input ([`ExactDups`]);
//! - `progress.rs`: progress reports ([`Progress`], [`Snapshot`]);
//! - [`select`]: which records hold an HTML page; [`manifest`]: lists of inputs; [`stream`]:
//!   the documents iterator.
//!
//! This file holds [`run`], which runs the file writer, [`run_into`], which runs a sink of
//! one's own, and [`Summary`], what a run did.

mod config;
mod dups;
mod files;
pub mod manifest;
mod progress;
mod reader;
pub mod select;
mod sink;
pub mod stream;
mod threads;
mod worker;
mod writer;

use std::fs;
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use config::{Formats, Input, MAX_PAYLOAD, RunConfig, Split, config_hash};
pub use dups::ExactDups;
pub use files::{done_path, drop_done, is_done, tmp_path};
pub use progress::{Progress, Snapshot};
pub use sink::{Failure, Sink};

use crate::classify::Models;
use crate::document::Document;
use progress::Reporter;
use sink::Tally;
use threads::{Setup, start};
use writer::{Files, render};

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

/// Run the pipeline over all inputs, writing their output files.
pub fn run(cfg: &RunConfig, models: Arc<Models>) -> io::Result<Summary> {
    let model_sum = models.checksum().to_string();
    fs::create_dir_all(&cfg.out_dir)?;
    let started = Instant::now();
    let inputs = Arc::new(cfg.inputs.clone());
    let (doc, formats, split) = (cfg.doc, cfg.formats, cfg.split);
    let mut running = start(
        Setup {
            inputs: Arc::clone(&inputs),
            models,
            doc,
            threads: cfg.threads,
            max_payload: cfg.max_payload,
            retry: cfg.retry,
            stop: cfg.stop.clone(),
        },
        move |d| render(&d, &doc, formats, split),
    );
    let mut tally = Tally::new(inputs, cfg.exact_dups, Files::new(cfg, &model_sum));
    let mut progress = Reporter::new(cfg.progress.clone(), cfg.inputs.len());
    while let Some(done) = running.next() {
        tally.take(done)?;
        progress.update(&tally.summary, false);
    }
    progress.update(&tally.summary, true);
    running.join();
    let summary = tally.summary;
    Ok(Summary {
        elapsed: started.elapsed(),
        interrupted: interrupted(&summary, cfg.inputs.len(), cfg.stop.requested()),
        ..summary
    })
}

/// Run the pipeline over `inputs` into a sink of one's own ([`Sink`], which has an example):
/// the reader and the `cfg.threads` workers of [`run`], `make` turning each analysed document
/// into the sink's `Doc` on the workers, exact duplicates marked (the id of the input's first
/// document with the same text is `document`'s `first`). Returns the sink and what the run did;
/// an error of the sink ends the run with it.
pub fn run_into<S: Sink>(
    inputs: Vec<Input>,
    models: Arc<Models>,
    cfg: &stream::StreamConfig,
    make: impl Fn(Document) -> S::Doc + Send + Sync + 'static,
    sink: S,
) -> io::Result<(S, Summary)> {
    let started = Instant::now();
    let count = inputs.len();
    let inputs = Arc::new(inputs);
    let mut running = start(cfg.setup(Arc::clone(&inputs), models), make);
    let mut tally = Tally::new(inputs, ExactDups::Mark, sink);
    while let Some(done) = running.next() {
        tally.take(done)?;
    }
    running.join();
    let summary = Summary {
        elapsed: started.elapsed(),
        interrupted: interrupted(&tally.summary, count, cfg.stop.requested()),
        ..tally.summary
    };
    Ok((tally.sink, summary))
}

/// Whether the run was stopped: an input was aborted, or a stop came between two inputs,
/// which aborts none but leaves inputs unread.
fn interrupted(summary: &Summary, inputs: usize, stopped: bool) -> bool {
    let finished = summary.files_done + summary.files_failed.len();
    summary.interrupted || (stopped && finished < inputs)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::pipeline::stream::{StreamConfig, stream};
    use crate::stop::Stop;

    fn sample() -> Input {
        Input::file(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sample.warc.gz"))
    }

    /// A sink of one's own gets what the documents iterator gives, in the same order, with
    /// each input's statistics; its error ends the run.
    #[test]
    fn a_sink_of_ones_own_gets_every_document_in_order() {
        #[derive(Default)]
        struct Ids {
            ids: Vec<(String, Option<String>)>,
            inputs: Vec<(String, u64)>,
            fail_after: Option<usize>,
        }
        impl Sink for Ids {
            type Doc = String;
            fn start(&mut self, input: &Input) -> io::Result<()> {
                self.inputs.push((input.arcfile.clone(), 0));
                Ok(())
            }
            fn document(
                &mut self,
                id: String,
                first: Option<String>,
                _: &mut crate::output::stats::FileStats,
            ) -> io::Result<()> {
                if self.fail_after == Some(self.ids.len()) {
                    return Err(io::Error::other("disk full"));
                }
                self.ids.push((id, first));
                Ok(())
            }
            fn end(
                &mut self,
                stats: &crate::output::stats::FileStats,
                failure: Option<&Failure>,
            ) -> io::Result<()> {
                assert!(failure.is_none());
                self.inputs.last_mut().unwrap().1 = stats.documents;
                Ok(())
            }
        }
        let models = Arc::new(Models::builtin());
        let cfg = StreamConfig {
            threads: 3,
            ..StreamConfig::default()
        };
        let id = |d: Document| d.id;
        let (sink, summary) = run_into(
            vec![sample(), sample()],
            Arc::clone(&models),
            &cfg,
            id,
            Ids::default(),
        )
        .unwrap();
        let streamed: Vec<(String, Option<String>)> =
            stream(vec![sample(), sample()], Arc::clone(&models), &cfg)
                .map(|d| d.unwrap())
                .map(|d| (d.id, d.duplicate_of))
                .collect();
        assert_eq!(sink.ids, streamed);
        assert_eq!(summary.documents as usize, streamed.len());
        assert_eq!((summary.files_done, summary.interrupted), (2, false));
        let per_input = streamed.len() as u64 / 2;
        assert_eq!(
            sink.inputs,
            [
                ("sample.warc.gz".into(), per_input),
                ("sample.warc.gz".into(), per_input)
            ]
        );
        let failing = Ids {
            fail_after: Some(3),
            ..Ids::default()
        };
        match run_into(vec![sample()], models, &cfg, id, failing) {
            Err(e) => assert_eq!(e.to_string(), "disk full"),
            Ok(_) => panic!("the sink's error ends the run"),
        }
    }

    /// A stop belongs to its run: a process that stopped one run (a Python session, a
    /// datatrove task) runs the next one to its end.
    #[test]
    fn a_stop_stops_its_run_and_no_other() {
        let out = std::env::temp_dir().join(format!("cowrex-stop-{}", std::process::id()));
        let models = Arc::new(Models::builtin());
        let mut cfg = RunConfig {
            inputs: vec![sample()],
            out_dir: out.clone(),
            threads: 2,
            doc: Default::default(),
            max_payload: MAX_PAYLOAD,
            progress: Progress::Off,
            compression: 1,
            formats: Formats {
                xml: true,
                jsonl: false,
                vrt: false,
                parquet: false,
            },
            exact_dups: ExactDups::default(),
            split: None,
            retry: Default::default(),
            stop: Stop::new(),
        };
        cfg.stop.request();
        let stopped = run(&cfg, Arc::clone(&models)).unwrap();
        assert!(stopped.interrupted);
        assert_eq!((stopped.files_done, stopped.documents), (0, 0));
        assert!(!out.join("sample.done.json").exists());
        cfg.stop = Stop::new();
        let next = run(&cfg, Arc::clone(&models)).unwrap();
        assert!(!next.interrupted);
        assert_eq!(next.files_done, 1);
        assert!(next.documents > 1);
        assert!(out.join("sample.done.json").exists());
        std::fs::remove_dir_all(&out).unwrap();

        // The same for streams: a stopped stream reads nothing more; the next one reads every
        // document.
        let stopped = StreamConfig::default();
        let docs = stream(vec![sample()], Arc::clone(&models), &stopped);
        docs.stop().request();
        assert!(
            stopped.stop.requested(),
            "the stream's stop is its configuration's"
        );
        assert_eq!(
            stream(vec![sample()], Arc::clone(&models), &stopped).count(),
            0
        );
        let all = stream(vec![sample()], models, &StreamConfig::default()).count();
        assert_eq!(all as u64, next.documents);
    }
}

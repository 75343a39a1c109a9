//! The one consumer of a run's results: [`Tally`] takes the workers' results in input order,
//! counts every record in its input's statistics, finds exact duplicates, and hands the
//! documents and the end of each input to a [`Sink`]: the file writer ([`super::writer`]) or
//! the documents iterator ([`super::stream`]), or a user's own ([`super::run_into`]).

use std::collections::BTreeMap;
use std::io;
use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::Summary;
use super::config::Input;
use super::dups::{ExactDups, first_with_text};
use super::reader::not_a_warc;
use super::worker::{Done, Figures, RecordDone};
use crate::analyze::StageTimes;
use crate::fate::Fate;
use crate::output::stats::FileStats;

/// What becomes of the documents of a run, and of each input once it ends: the file writer of
/// [`run`](crate::run), the iterator of [`Documents`](crate::Documents), or an output of one's
/// own, run by [`run_into`](crate::run_into). It takes the documents in input order,
/// whatever the number of workers, after the run has counted each record in its input's statistics.
///
/// A sink that writes each document's URL and number of words, a line each:
///
/// ```
/// use std::io::{self, Write};
/// use std::sync::Arc;
///
/// use cowrex::{Failure, FileStats, Input, Models, Sink, StreamConfig};
///
/// struct Lines<W: Write>(W);
///
/// impl<W: Write> Sink for Lines<W> {
///     // The line, made on the worker threads.
///     type Doc = String;
///
///     fn start(&mut self, input: &Input) -> io::Result<()> {
///         writeln!(self.0, "# {}", input.arcfile)
///     }
///
///     fn document(&mut self, line: String, _: Option<String>, _: &mut FileStats) -> io::Result<()> {
///         self.0.write_all(line.as_bytes())
///     }
///
///     fn end(&mut self, stats: &FileStats, failure: Option<&Failure>) -> io::Result<()> {
///         match failure {
///             Some(f) => writeln!(self.0, "# failed: {}", f.message),
///             None => writeln!(self.0, "# {} records", stats.records),
///         }
///     }
/// }
///
/// let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/sample.warc.gz");
/// let models = Arc::new(Models::builtin());
/// let line = |doc: cowrex::Document| {
///     format!("{}\t{}\n", doc.meta.url, doc.text().split_whitespace().count())
/// };
/// let inputs = vec![Input::file(sample.into())];
/// let (out, summary) =
///     cowrex::run_into(inputs, models, &StreamConfig::default(), line, Lines(Vec::new()))?;
/// let out = String::from_utf8(out.0).unwrap();
/// assert_eq!(out.lines().filter(|l| l.starts_with("http")).count() as u64, summary.documents);
/// assert!(out.starts_with("# sample.warc.gz\n"));
/// # Ok::<(), io::Error>(())
/// ```
pub trait Sink {
    /// What a worker thread makes of a document for this sink (rendered bytes, a row), so
    /// that the work is shared between the workers; [`Document`](crate::Document) to take it
    /// as it is.
    type Doc: Send + 'static;

    /// Input `input` starts.
    fn start(&mut self, input: &Input) -> io::Result<()>;

    /// A document of the current input. `first`: the id of the input's first document with the
    /// same text, when the document is to be marked as its duplicate. `stats`: the input's
    /// statistics, for what only the sink counts.
    fn document(
        &mut self,
        doc: Self::Doc,
        first: Option<String>,
        stats: &mut FileStats,
    ) -> io::Result<()>;

    /// The current input ended, with its statistics, read to its end unless `failure` says
    /// why not.
    fn end(&mut self, stats: &FileStats, failure: Option<&Failure>) -> io::Result<()>;

    /// The run stops in the middle of the current input.
    fn abort(&mut self) {}
}

/// Why an input failed.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The stream error it counts as: `io_error` (reading stopped) or `not_warc` (read to its
    /// end without a WARC record, or only a WET or WAT file's).
    pub reason: &'static str,
    /// What went wrong.
    pub message: String,
}

/// The consumer of a run's results; see the module.
pub(super) struct Tally<S> {
    inputs: Arc<Vec<Input>>,
    exact_dups: ExactDups,
    /// The input being read.
    current: Option<Current>,
    /// Text fingerprints of the current input's documents, with the id of the first one.
    seen: FxHashMap<u128, String>,
    /// What the run did so far.
    pub summary: Summary,
    /// Where the documents go.
    pub(crate) sink: S,
}

/// The input being read: its statistics, its stages' times, and when it started.
struct Current {
    stats: FileStats,
    times: StageTimes,
    started: Instant,
}

impl<S: Sink> Tally<S> {
    /// Nothing taken yet.
    pub(super) fn new(inputs: Arc<Vec<Input>>, exact_dups: ExactDups, sink: S) -> Tally<S> {
        Tally {
            inputs,
            exact_dups,
            current: None,
            seen: FxHashMap::default(),
            summary: Summary::default(),
            sink,
        }
    }

    /// The statistics of the input being read, if one is.
    pub(super) fn current(&self) -> Option<&FileStats> {
        self.current.as_ref().map(|c| &c.stats)
    }

    /// Take the next result in input order.
    pub(super) fn take(&mut self, done: Done<S::Doc>) -> io::Result<()> {
        match done {
            Done::Start { file } => {
                let input = &self.inputs[file];
                self.seen.clear();
                self.sink.start(input)?;
                self.current = Some(Current {
                    stats: FileStats {
                        input: input.location.to_string(),
                        ..FileStats::default()
                    },
                    times: StageTimes::default(),
                    started: Instant::now(),
                });
            }
            Done::Record(r) => self.record(r)?,
            Done::Skipped { reason, bytes } => {
                let st = &mut self.current_mut().stats;
                FileStats::bump(&mut st.stream_errors, reason, 1);
                st.stream_error_bytes += bytes;
            }
            Done::End { error, bytes } => self.end(error, bytes)?,
            Done::Abort => {
                self.current = None;
                self.sink.abort();
                self.summary.interrupted = true;
            }
        }
        Ok(())
    }

    fn current_mut(&mut self) -> &mut Current {
        self.current
            .as_mut()
            .expect("records come between Start and End")
    }

    /// Count a record, and hand its document to the sink unless it is a duplicate to skip.
    fn record(&mut self, r: RecordDone<S::Doc>) -> io::Result<()> {
        let exact_dups = self.exact_dups;
        let cur = self
            .current
            .as_mut()
            .expect("records come between Start and End");
        count_read(cur, &r);
        self.summary.records += 1;
        self.summary.bytes += r.block_bytes;
        let RecordDone {
            mut fate,
            block_bytes,
            mut doc,
            capped,
            ..
        } = r;
        // The id of the first document of the input with the same text.
        let first = match &doc {
            Some(d) if exact_dups != ExactDups::Keep => {
                first_with_text(&mut self.seen, d.figures.fingerprint, &d.figures.id)
            }
            _ => None,
        };
        if first.is_some() && exact_dups == ExactDups::Skip {
            fate = Fate::Duplicate;
            doc = None;
        }
        let st = &mut cur.stats;
        st.fate(fate, block_bytes);
        if let Some(c) = capped {
            FileStats::bump(&mut st.capped, c, 1);
        }
        if let Some(d) = doc {
            if first.is_some() {
                st.duplicates += 1;
            }
            let d = *d;
            count_doc(st, &d.figures);
            self.sink.document(d.doc, first, st)?;
            self.summary.documents += 1;
        }
        Ok(())
    }

    /// The end of the current input: its length, and the error that stopped reading it.
    fn end(&mut self, error: Option<String>, bytes: u64) -> io::Result<()> {
        let Current {
            mut stats,
            times,
            started,
        } = self.current.take().expect("End after Start");
        stats.bytes.input = bytes;
        let failure = match error {
            Some(message) => Some(Failure {
                reason: "io_error",
                message,
            }),
            None => not_a_warc(&stats.records_by_type, bytes).map(|message| {
                if stats.records == 0 {
                    // No byte of it was a record.
                    stats.stream_error_bytes += bytes.saturating_sub(stats.stream_error_bytes);
                }
                Failure {
                    reason: "not_warc",
                    message,
                }
            }),
        };
        stats.time_ms = time_ms(&times, started);
        if let Some(f) = &failure {
            FileStats::bump(&mut stats.stream_errors, f.reason, 1);
            self.summary
                .files_failed
                .push((stats.input.clone(), f.message.clone()));
        }
        self.sink.end(&stats, failure.as_ref())?;
        if failure.is_none() {
            self.summary.files_done += 1;
        }
        Ok(())
    }
}

/// Count a record read in its input's statistics and times, whatever its fate.
fn count_read<D>(cur: &mut Current, r: &RecordDone<D>) {
    let st = &mut cur.stats;
    st.records += 1;
    st.bytes.records += r.block_bytes;
    FileStats::bump(&mut st.records_by_type, &r.warc_type, 1);
    if let Some(t) = &r.truncated {
        FileStats::bump(&mut st.warc_truncated, t, 1);
    }
    add_times(&mut cur.times, &r.times);
}

/// Count a document in its input's statistics.
fn count_doc(st: &mut FileStats, d: &Figures) {
    st.documents += 1;
    st.blocks_found += d.blocks_found;
    st.blocks_written += d.blocks_written;
    st.dup_blocks += d.dup_blocks;
    st.shingled += d.shingled as u64;
    st.links += d.links;
    FileStats::bump(&mut st.text_quality, &d.bdc.to_string(), 1);
    FileStats::bump(&mut st.charsets, &d.charset, 1);
    FileStats::bump(&mut st.charset_evidence, d.evidence, 1);
    FileStats::bump(&mut st.languages, d.language, 1);
    FileStats::bump(&mut st.models, d.model, 1);
    st.malformed_text += d.malformed as u64;
}

/// Add a record's stage times to its input's.
fn add_times(t: &mut StageTimes, times: &StageTimes) {
    t.decode += times.decode;
    t.segment += times.segment;
    t.features += times.features;
    t.language += times.language;
    t.score += times.score;
    t.document += times.document;
    t.signals += times.signals;
    t.write += times.write;
}

/// `time_ms` of an input's statistics: its stages' times, and its whole time since `started`.
fn time_ms(t: &StageTimes, started: Instant) -> BTreeMap<String, u64> {
    let ms = |ns: u64| ns / 1_000_000;
    BTreeMap::from([
        ("decode".to_string(), ms(t.decode)),
        ("segment".to_string(), ms(t.segment)),
        ("features".to_string(), ms(t.features)),
        ("language".to_string(), ms(t.language)),
        ("score".to_string(), ms(t.score)),
        ("document".to_string(), ms(t.document)),
        ("signals".to_string(), ms(t.signals)),
        ("write".to_string(), ms(t.write)),
        ("total".to_string(), started.elapsed().as_millis() as u64),
    ])
}

//! The writer thread of `process`: takes the workers' results in input order, counts every
//! record in its input's statistics, marks or skips exact duplicates, appends the rendered
//! documents to the input's output files, and publishes them at the input's end.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};

use super::Summary;
use super::config::{RunConfig, config_hash};
use super::dups::{ExactDups, first_with_text};
use super::files::FileOut;
use super::order::Reorder;
use super::progress::Reporter;
use super::reader::not_a_warc;
use super::worker::{DocOut, Done, RecordDone};
use crate::document::StageTimes;
use crate::fate::Fate;
use crate::output::stats::FileStats;
use crate::output::{jsonl, xml};

/// Write the results from `rx` in input order, giving each one's token back through `tokens`,
/// until the workers are done. `model_sum` is the models' checksum, for `S.done.json`.
pub(super) fn writer(
    cfg: &RunConfig,
    model_sum: &str,
    rx: Receiver<Vec<(u64, Done)>>,
    tokens: Sender<()>,
) -> io::Result<Summary> {
    let mut w = Writer::new(cfg, model_sum);
    let mut order = Reorder::new(tokens);
    for (seq, done) in rx.into_iter().flatten() {
        order.insert(seq, done);
        while let Some(done) = order.pop() {
            w.take(done)?;
            w.progress.update(&w.summary, w.bytes_read, false);
        }
    }
    Ok(w.finish())
}

/// The writer's state.
struct Writer<'a> {
    cfg: &'a RunConfig,
    model_sum: &'a str,
    /// [`config_hash`] of the run, for `S.done.json`.
    hash: String,
    /// The outputs of the current input.
    cur: Option<FileOut>,
    /// Text fingerprints of the current input's documents, with the id of the first one.
    seen: HashMap<u128, String>,
    summary: Summary,
    progress: Reporter,
    bytes_read: u64,
}

impl<'a> Writer<'a> {
    fn new(cfg: &'a RunConfig, model_sum: &'a str) -> Writer<'a> {
        Writer {
            cfg,
            model_sum,
            hash: config_hash(cfg, model_sum),
            cur: None,
            seen: HashMap::new(),
            summary: Summary::default(),
            progress: Reporter::new(cfg.progress.clone(), cfg.inputs.len()),
            bytes_read: 0,
        }
    }

    /// Take the next result in input order.
    fn take(&mut self, done: Done) -> io::Result<()> {
        match done {
            Done::Start { file } => {
                self.seen.clear();
                self.cur = Some(FileOut::create(self.cfg, &self.cfg.inputs[file])?);
            }
            Done::Record(r) => self.record(r)?,
            Done::Skipped { reason, bytes } => {
                let out = self.cur.as_mut().expect("inside a file");
                FileStats::bump(&mut out.stats.stream_errors, reason, 1);
                out.stats.stream_error_bytes += bytes;
            }
            Done::End { error, bytes } => self.end(error, bytes)?,
            Done::Abort => {
                let mut out = self.cur.take().expect("Abort after Start");
                out.discard();
                self.summary.interrupted = true;
            }
        }
        Ok(())
    }

    /// Count a record, and write its document unless it is a duplicate to skip.
    fn record(&mut self, r: RecordDone) -> io::Result<()> {
        let out = self
            .cur
            .as_mut()
            .expect("records come between Start and End");
        count_read(out, &r);
        self.summary.records += 1;
        self.bytes_read += r.block_bytes;
        let RecordDone {
            mut fate,
            block_bytes,
            mut doc,
            capped,
            ..
        } = r;
        // The id of the first document of the input with the same text.
        let first = match &doc {
            Some(d) if self.cfg.exact_dups != ExactDups::Keep => {
                first_with_text(&mut self.seen, d.fingerprint, &d.id)
            }
            _ => None,
        };
        if first.is_some() && self.cfg.exact_dups == ExactDups::Skip {
            fate = Fate::Duplicate;
            doc = None;
        }
        let st = &mut out.stats;
        st.fate(fate, block_bytes);
        if let Some(c) = capped {
            FileStats::bump(&mut st.capped, c, 1);
        }
        if let Some(d) = doc {
            if first.is_some() {
                st.duplicates += 1;
            }
            let xml_bytes = write_doc(out, &d, first.as_deref())?;
            count_doc(&mut out.stats, &d, xml_bytes);
            self.summary.documents += 1;
        }
        Ok(())
    }

    /// The end of the current input: publish its outputs, or count it as failed.
    fn end(&mut self, error: Option<String>, bytes: u64) -> io::Result<()> {
        let mut out = self.cur.take().expect("End after Start");
        out.stats.bytes.input = bytes;
        let failure = match error {
            Some(e) => Some(("io_error", e)),
            None => not_a_warc(&out.stats.records_by_type, bytes).map(|why| {
                if out.stats.records == 0 {
                    // No byte of it was a record.
                    let st = &mut out.stats;
                    st.stream_error_bytes += bytes.saturating_sub(st.stream_error_bytes);
                }
                ("not_warc", why)
            }),
        };
        self.finish_file(out, failure)
    }

    /// Publish an input's outputs and statistics, and `S.done.json` unless it failed (`error`:
    /// the stream error it counts as, and the message).
    fn finish_file(
        &mut self,
        mut out: FileOut,
        error: Option<(&'static str, String)>,
    ) -> io::Result<()> {
        out.stats.time_ms = time_ms(&out.times, out.started);
        if let Some((reason, e)) = &error {
            FileStats::bump(&mut out.stats.stream_errors, reason, 1);
            self.summary
                .files_failed
                .push((out.stats.input.clone(), e.clone()));
            // An input that could not be read to its end gets no `.done.json`: a rerun redoes
            // it. Without any record, only a file that is not a WARC file keeps its statistics
            // (they say how many bytes it had), so that `status` counts it as failed.
            if out.stats.records == 0 {
                out.discard();
                if *reason == "io_error" {
                    return Ok(());
                }
            }
        }
        let dir = &self.cfg.out_dir;
        let outputs = out.publish(dir)?;
        if error.is_none() {
            out.publish_done(dir, &self.hash, self.model_sum, outputs)?;
            self.summary.files_done += 1;
        }
        Ok(())
    }

    /// The final report; what the run did.
    fn finish(mut self) -> Summary {
        self.progress.update(&self.summary, self.bytes_read, true);
        self.summary.bytes = self.bytes_read;
        self.summary
    }
}

/// Append a document to the outputs, with the `duplicate-of` mark when `first` (the id of the
/// first document with its text) is given. Returns the bytes of XML written.
fn write_doc(out: &mut FileOut, d: &DocOut, first: Option<&str>) -> io::Result<u64> {
    let (xml_mark, json_mark) = match first {
        Some(id) => (
            Some(xml::duplicate_mark(id)),
            Some(jsonl::duplicate_mark(id)),
        ),
        None => (None, None),
    };
    let r = &d.rendered;
    let mut xml_bytes = 0;
    if let (Some(o), Some(r)) = (&mut out.xml, &r.xml) {
        o.write_doc(r, xml_mark.as_deref())?;
        xml_bytes = (r.bytes.len() + xml_mark.as_ref().map_or(0, Vec::len)) as u64;
    }
    if let (Some(o), Some(r)) = (&mut out.vrt, &r.vrt) {
        o.write_doc(r, xml_mark.as_deref())?;
    }
    if let (Some(o), Some(r)) = (&mut out.jsonl, &r.jsonl) {
        o.write_doc(r, json_mark.as_deref())?;
    }
    if let Some(o) = &mut out.shingles {
        o.write(&r.shingles)?;
    }
    if let Some(o) = &mut out.links {
        o.write(&r.links)?;
    }
    Ok(xml_bytes)
}

/// Count a record read in its input's statistics and times, whatever its fate.
fn count_read(out: &mut FileOut, r: &RecordDone) {
    let st = &mut out.stats;
    st.records += 1;
    st.bytes.records += r.block_bytes;
    FileStats::bump(&mut st.records_by_type, &r.warc_type, 1);
    if let Some(t) = &r.truncated {
        FileStats::bump(&mut st.warc_truncated, t, 1);
    }
    add_times(&mut out.times, &r.times);
}

/// Count a written document, of `xml_bytes` bytes of XML, in its input's statistics.
fn count_doc(st: &mut FileStats, d: &DocOut, xml_bytes: u64) {
    let r = &d.rendered;
    st.bytes.xml += xml_bytes;
    st.documents += 1;
    st.blocks_found += d.blocks_found;
    st.blocks_written += d.blocks_written;
    st.dup_blocks += d.dup_blocks;
    st.shingled += !r.shingles.is_empty() as u64;
    st.links += r.links.iter().filter(|&&b| b == b'\n').count() as u64;
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
        ("write".to_string(), ms(t.write)),
        ("total".to_string(), started.elapsed().as_millis() as u64),
    ])
}

//! The worker threads of `process`: each turns a batch of [`Job`]s into a batch of [`Done`]s.
//! A record is selected ([`super::select`]), analysed ([`crate::document::analyze`]) and
//! rendered in every format asked for, so that the writer only counts and copies bytes. A
//! panic on a record becomes its fate (`error.panic`).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};

use super::config::{Formats, Input};
use super::reader::Job;
use super::select::record_page;
use crate::classify::{Models, quality};
use crate::document::{self, Config, Document, StageTimes};
use crate::fate::Fate;
use crate::output::{jsonl, xml};
use crate::shingle;
use crate::warc::Record;

/// A worker's result of one [`Job`], for the writer.
pub(super) enum Done {
    /// The start of input `file`.
    Start { file: usize },
    /// What became of a record.
    Record(RecordDone),
    /// A damaged stretch of the input, skipped.
    Skipped { reason: &'static str, bytes: u64 },
    /// The end of an input: the error that stopped reading it, and its length.
    End { error: Option<String>, bytes: u64 },
    /// The run stops in the middle of an input.
    Abort,
}

/// What became of a record: its fate, its document if it gives one, and the figures the
/// writer counts.
pub(super) struct RecordDone {
    /// The record's `WARC-Type`.
    pub warc_type: String,
    /// What became of the record.
    pub fate: Fate,
    /// Bytes of the record's block.
    pub block_bytes: u64,
    /// Why the record's block is incomplete, if it is (`Record::truncated`).
    pub truncated: Option<String>,
    /// The document, when the record gives one.
    pub doc: Option<Box<DocOut>>,
    /// The cap that stopped segmentation, whether the document was written or skipped.
    pub capped: Option<&'static str>,
    /// Time spent on the record, by stage.
    pub times: StageTimes,
}

/// A rendered corpus document and where the `duplicate-of` mark goes.
pub(super) struct Rendered {
    /// The document in its format.
    pub bytes: Vec<u8>,
    /// Byte offset where `duplicate-of` goes: the `>` that ends `<doc …>`, or the JSON
    /// line's final `}`.
    pub mark_at: usize,
}

/// A document rendered in every format asked for, with its shingle and link lines.
pub(super) struct Renders {
    /// The document in texrex's XML, if asked for.
    pub xml: Option<Rendered>,
    /// The document as a JSON line, if asked for.
    pub jsonl: Option<Rendered>,
    /// The document in VRT, if asked for.
    pub vrt: Option<Rendered>,
    /// Shingle lines (empty without shingles).
    pub shingles: Vec<u8>,
    /// Link lines.
    pub links: Vec<u8>,
}

/// A document as the writer needs it: its bytes in every format, and its figures for the
/// statistics.
pub(super) struct DocOut {
    /// The document id.
    pub id: String,
    /// xxh3-128 of the document's block texts (equal texts, equal fingerprints).
    pub fingerprint: u128,
    /// The document in every format asked for, with its shingle and link lines.
    pub rendered: Renders,
    /// Blocks that repeat an earlier block of the document.
    pub dup_blocks: u64,
    /// The text-quality class (`bdc`, `a` best).
    pub bdc: char,
    /// Blocks found by segmentation.
    pub blocks_found: u64,
    /// Blocks written.
    pub blocks_written: u64,
    /// The name of the cap that stopped segmentation, if one did.
    pub capped: Option<&'static str>,
    /// The charset the page was decoded from (`sourcecharset`).
    pub charset: String,
    /// How the charset was found ([`crate::decode::Evidence::name`]).
    pub evidence: &'static str,
    /// The page has bytes that are malformed in its charset.
    pub malformed: bool,
    /// The identified language: ISO 639-3, or `unknown`.
    pub language: &'static str,
    /// The MLP that scored the document: `en`, `de`, `fr`, `sv`, or `custom` for `--model`.
    pub model: &'static str,
}

/// Turn the batches of jobs from `rx` into batches of results on `tx`, until either channel
/// closes.
pub(super) fn worker(
    inputs: &[Input],
    models: &Models,
    cfg: &Config,
    formats: Formats,
    max_payload: u64,
    rx: Receiver<Vec<(u64, Job)>>,
    tx: Sender<Vec<(u64, Done)>>,
) {
    let work = Work {
        inputs,
        models,
        cfg,
        formats,
        max_payload,
    };
    for batch in rx {
        let done = batch.into_iter().map(|(seq, job)| (seq, work.done(job)));
        if tx.send(done.collect()).is_err() {
            return;
        }
    }
}

/// What a worker needs to process a record.
struct Work<'a> {
    inputs: &'a [Input],
    models: &'a Models,
    cfg: &'a Config,
    formats: Formats,
    max_payload: u64,
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

impl From<document::Skip> for Rejected {
    fn from(s: document::Skip) -> Rejected {
        Rejected {
            fate: s.fate(),
            capped: match s {
                document::Skip::Capped(c) => Some(c),
                _ => None,
            },
        }
    }
}

impl Work<'_> {
    /// The result of one job.
    fn done(&self, job: Job) -> Done {
        match job {
            Job::Start { file } => Done::Start { file },
            Job::End { error, bytes } => Done::End { error, bytes },
            Job::Abort => Done::Abort,
            Job::Skipped { reason, bytes } => Done::Skipped { reason, bytes },
            Job::TooLarge(r) => plain(&r, Fate::PayloadTooLarge),
            Job::Broken(r) => plain(&r, Fate::ReadError),
            Job::Record(r, file) => self.record(&r, file),
        }
    }

    /// A record of input `file` processed, a panic caught as its fate.
    fn record(&self, r: &Record, file: usize) -> Done {
        let mut times = StageTimes::default();
        let arcfile = &self.inputs[file].arcfile;
        let res = catch_unwind(AssertUnwindSafe(|| {
            self.process_record(r, arcfile, &mut times)
        }));
        let (fate, capped, doc) = match res {
            Ok(Ok(doc)) => (Fate::Written, doc.capped, Some(doc)),
            Ok(Err(r)) => (r.fate, r.capped.map(crate::html::Cap::name), None),
            Err(_) => (Fate::Panic, None, None),
        };
        Done::Record(RecordDone {
            warc_type: r.warc_type.clone(),
            fate,
            block_bytes: r.block.len() as u64,
            truncated: r.truncated.clone(),
            doc: doc.map(Box::new),
            capped,
            times,
        })
    }

    /// Decide a record's fate and, for HTML responses, analyse and render it.
    fn process_record(
        &self,
        r: &Record,
        arcfile: &str,
        times: &mut StageTimes,
    ) -> Result<DocOut, Rejected> {
        let mut decoded = Vec::new();
        let page = record_page(r, arcfile, self.max_payload, &mut decoded)?;
        let doc = document::analyze(page, self.models, self.cfg, times)?;
        let t = Instant::now();
        let rendered = render(&doc, self.cfg, self.formats);
        times.write += t.elapsed().as_nanos() as u64;
        Ok(doc_out(&doc, rendered))
    }
}

/// The result of a record that is not analysed: its fate alone.
fn plain(r: &Record, fate: Fate) -> Done {
    Done::Record(RecordDone {
        warc_type: r.warc_type.clone(),
        fate,
        block_bytes: r.block.len() as u64,
        truncated: r.truncated.clone(),
        doc: None,
        capped: None,
        times: StageTimes::default(),
    })
}

/// Render `doc` in `formats`, with its shingle and link lines.
fn render(doc: &Document, cfg: &Config, formats: Formats) -> Renders {
    let lines = |l: xml::Lines| {
        let mut bytes = Vec::with_capacity(4096);
        let mark_at = xml::write_doc(&mut bytes, doc, l, cfg.dup_blocks);
        Rendered { bytes, mark_at }
    };
    let xml_out = formats.xml.then(|| lines(xml::Lines::Xml));
    let vrt = formats.vrt.then(|| lines(xml::Lines::Vrt));
    let jsonl = formats.jsonl.then(|| {
        let mut bytes = Vec::with_capacity(4096);
        let mark_at = jsonl::write_doc(&mut bytes, doc, cfg.dup_blocks, cfg.markdown);
        Rendered { bytes, mark_at }
    });
    let mut shingles = Vec::new();
    if let Some(h) = &doc.shingles {
        shingle::write_lines(&mut shingles, h, &doc.id, doc.content_size)
            .expect("writing to memory");
    }
    let mut links = Vec::new();
    crate::output::links::write_lines(&mut links, doc).expect("writing to memory");
    Renders {
        xml: xml_out,
        jsonl,
        vrt,
        shingles,
        links,
    }
}

/// The rendered document with its figures for the statistics.
fn doc_out(doc: &Document, rendered: Renders) -> DocOut {
    DocOut {
        id: doc.id.clone(),
        fingerprint: doc.fingerprint,
        rendered,
        dup_blocks: doc.blocks.iter().filter(|b| b.dup_of.is_some()).count() as u64,
        bdc: quality::bdc(doc.badness.unwrap_or(0.0)),
        blocks_found: doc.blocks_total as u64,
        blocks_written: doc.blocks.len() as u64,
        capped: doc.capped.map(crate::html::Cap::name),
        charset: doc.source_charset.clone(),
        evidence: doc
            .evidence
            .map_or("detected", crate::decode::Evidence::name),
        malformed: doc.malformed,
        language: crate::document::language_code(doc.language),
        model: doc.model.map_or("custom", |m| m.code()),
    }
}

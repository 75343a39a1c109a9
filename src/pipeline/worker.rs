//! The worker threads: each turns a batch of [`Job`]s into a batch of [`Done`]s. A record is
//! selected ([`super::select`]) and analysed ([`crate::analyze::analyze`]), and its document
//! made into what the consumer takes ([`Work::make`]: rendered in every format for the file
//! writer, the document itself for the documents iterator). A panic on a record becomes its
//! fate (`error.panic`).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};

use super::config::Input;
use super::reader::Job;
use super::select::record_page;
use crate::analyze;
use crate::analyze::{Config, StageTimes};
use crate::classify::{Models, quality};
use crate::document::Document;
use crate::fate::Fate;
use crate::warc::Record;

/// A worker's result of one [`Job`], for the consumer; `D` is what the worker made of a
/// document.
pub(super) enum Done<D> {
    /// The start of input `file`.
    Start { file: usize },
    /// What became of a record.
    Record(RecordDone<D>),
    /// A damaged stretch of the input, skipped.
    Skipped { reason: &'static str, bytes: u64 },
    /// The end of an input: the error that stopped reading it, and its length.
    End { error: Option<String>, bytes: u64 },
    /// The run stops in the middle of an input.
    Abort,
}

/// What became of a record: its fate, its document if it gives one, and the figures its
/// input's statistics count.
pub(super) struct RecordDone<D> {
    /// The record's `WARC-Type`.
    pub warc_type: String,
    /// What became of the record.
    pub fate: Fate,
    /// Bytes of the record's block.
    pub block_bytes: u64,
    /// Why the record's block is incomplete, if it is (`Record::truncated`).
    pub truncated: Option<String>,
    /// The document, when the record gives one.
    pub doc: Option<Box<DocDone<D>>>,
    /// The cap that stopped segmentation, whether the document was written or skipped.
    pub capped: Option<&'static str>,
    /// Time spent on the record, by stage.
    pub times: StageTimes,
}

/// A document as the consumer takes it, with its figures.
pub(super) struct DocDone<D> {
    /// What the statistics count of it.
    pub figures: Figures,
    /// What the worker made of it.
    pub doc: D,
}

/// What an input's statistics count of a document.
pub(super) struct Figures {
    /// The document id.
    pub id: String,
    /// xxh3-128 of the document's block texts (equal texts, equal fingerprints).
    pub fingerprint: u128,
    /// Blocks that repeat an earlier block of the document.
    pub dup_blocks: u64,
    /// The text-quality class (`bdc`, `a` best).
    pub bdc: char,
    /// Blocks found by segmentation.
    pub blocks_found: u64,
    /// Blocks written.
    pub blocks_written: u64,
    /// The document has shingles.
    pub shingled: bool,
    /// Its links.
    pub links: u64,
    /// The charset the page was decoded from (`sourcecharset`).
    pub charset: String,
    /// How the charset was found ([`crate::document::CharsetEvidence::name`]).
    pub evidence: &'static str,
    /// The page has bytes that are malformed in its charset.
    pub malformed: bool,
    /// The identified language: ISO 639-3, or `unknown`.
    pub language: &'static str,
    /// The MLP that scored the document: `en`, `de`, `fr`, `sv`, or `custom` for `--model`.
    pub model: &'static str,
}

impl Figures {
    fn of(doc: &Document) -> Figures {
        Figures {
            id: doc.id.clone(),
            fingerprint: doc.fingerprint,
            dup_blocks: doc.blocks.iter().filter(|b| b.dup_of.is_some()).count() as u64,
            bdc: quality::bdc(doc.badness.unwrap_or(0.0)),
            blocks_found: doc.blocks_total as u64,
            blocks_written: doc.blocks.len() as u64,
            shingled: doc.shingles.as_ref().is_some_and(|h| !h.is_empty()),
            links: doc.links.len() as u64,
            charset: doc.source_charset.clone(),
            evidence: doc
                .evidence
                .map_or("detected", crate::document::CharsetEvidence::name),
            malformed: doc.malformed,
            language: crate::document::Language::code_of(doc.language.as_ref()),
            model: doc.model.unwrap_or("custom"),
        }
    }
}

/// What the workers share: the inputs, the models, the settings, and `make`, which turns an
/// analysed document into what the consumer takes.
pub(super) struct Work<M> {
    pub inputs: Arc<Vec<Input>>,
    pub models: Arc<Models>,
    pub cfg: Config,
    pub max_payload: u64,
    pub make: M,
}

/// Turn the batches of jobs from `rx` into batches of results on `tx`, until either channel
/// closes.
pub(super) fn worker<D, M: Fn(Document) -> D>(
    work: &Work<M>,
    rx: Receiver<Vec<(u64, Job)>>,
    tx: Sender<Vec<(u64, Done<D>)>>,
) {
    for batch in rx {
        let done = batch.into_iter().map(|(seq, job)| (seq, work.done(job)));
        if tx.send(done.collect()).is_err() {
            return;
        }
    }
}

/// Why a record gives no document: its fate, and the cap that stopped its segmentation.
struct Rejected {
    fate: Fate,
    capped: Option<crate::document::Cap>,
}

impl From<Fate> for Rejected {
    fn from(fate: Fate) -> Rejected {
        Rejected { fate, capped: None }
    }
}

impl From<analyze::Skip> for Rejected {
    fn from(s: analyze::Skip) -> Rejected {
        Rejected {
            fate: s.fate(),
            capped: match s {
                analyze::Skip::Capped(c) => Some(c),
                _ => None,
            },
        }
    }
}

impl<D, M: Fn(Document) -> D> Work<M> {
    /// The result of one job.
    fn done(&self, job: Job) -> Done<D> {
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
    fn record(&self, r: &Record, file: usize) -> Done<D> {
        let mut times = StageTimes::default();
        let arcfile = &self.inputs[file].arcfile;
        let res = catch_unwind(AssertUnwindSafe(|| {
            self.process_record(r, arcfile, &mut times)
        }));
        let (fate, capped, doc) = match res {
            Ok(Ok((capped, doc))) => (Fate::Written, capped, Some(doc)),
            Ok(Err(r)) => (r.fate, r.capped.map(crate::document::Cap::name), None),
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

    /// Decide a record's fate and, for HTML responses, analyse it and make it into what the
    /// consumer takes; with the cap that stopped its segmentation.
    fn process_record(
        &self,
        r: &Record,
        arcfile: &str,
        times: &mut StageTimes,
    ) -> Result<(Option<&'static str>, DocDone<D>), Rejected> {
        let mut decoded = Vec::new();
        let page = record_page(r, arcfile, self.max_payload, &mut decoded)?;
        let doc = analyze::analyze(page, &self.models, &self.cfg, times)?;
        let t = Instant::now();
        let figures = Figures::of(&doc);
        let capped = doc.capped.map(crate::document::Cap::name);
        let doc = (self.make)(doc);
        times.write += t.elapsed().as_nanos() as u64;
        Ok((capped, DocDone { figures, doc }))
    }
}

/// The result of a record that is not analysed: its fate alone.
fn plain<D>(r: &Record, fate: Fate) -> Done<D> {
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

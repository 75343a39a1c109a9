//! The file writer, the [`Sink`] of `process`: the workers render each document in every
//! format asked for ([`render`]), so that the writer only copies bytes into the input's
//! output files (marking exact duplicates), and publishes them with the input's statistics
//! and `S.done.json` at the input's end. Parquet is the exception: a row group is a table of
//! many documents, so the writer encodes and compresses its columns as it fills.

use std::io;

use super::config::{Formats, Input, RunConfig, Split};
use super::files::{FileOut, Rendered};
use super::sink::{Failure, Sink};
use crate::analyze::Config;
use crate::document::Document;
use crate::output::stats::FileStats;
use crate::output::{jsonl, parquet, xml};
use crate::shingle;

/// A document rendered in every format asked for, with its shingle and link lines.
pub(super) struct Renders {
    /// The document in texrex's XML, if asked for.
    pub xml: Option<Rendered>,
    /// The document as a JSON line, if asked for.
    pub jsonl: Option<Rendered>,
    /// The document in VRT, if asked for.
    pub vrt: Option<Rendered>,
    /// The document as a Parquet row, if asked for.
    pub parquet: Option<parquet::Row>,
    /// Shingle lines (empty without shingles).
    pub shingles: Vec<u8>,
    /// Link lines.
    pub links: Vec<u8>,
    /// The part of the input's outputs it goes to (`""` without a split).
    pub part: &'static str,
}

/// Render `doc` in `formats`, with its shingle and link lines, for its part of the outputs
/// (on a worker thread).
pub(super) fn render(
    doc: &Document,
    cfg: &Config,
    formats: Formats,
    split: Option<Split>,
) -> Renders {
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
    let parquet = formats.parquet.then(|| parquet::Row::of(doc, cfg.markdown));
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
        parquet,
        shingles,
        links,
        part: split.map_or("", |s| s.part(doc)),
    }
}

/// The file writer: the output files of the current input.
pub(super) struct Files<'a> {
    cfg: &'a RunConfig,
    model_sum: &'a str,
    /// [`super::config_hash`] of the run, for `S.done.json`.
    hash: String,
    /// The outputs of the current input.
    cur: Option<FileOut>,
}

impl<'a> Files<'a> {
    /// Write the outputs of `cfg`'s inputs; `model_sum` is the models' checksum, for
    /// `S.done.json`.
    pub(super) fn new(cfg: &'a RunConfig, model_sum: &'a str) -> Files<'a> {
        Files {
            cfg,
            model_sum,
            hash: super::config_hash(cfg, model_sum),
            cur: None,
        }
    }
}

impl Sink for Files<'_> {
    type Doc = Renders;

    fn start(&mut self, input: &Input) -> io::Result<()> {
        self.cur = Some(FileOut::create(self.cfg, input)?);
        Ok(())
    }

    /// Append a document to the outputs, with the `duplicate-of` mark when `first` is given.
    fn document(
        &mut self,
        r: Renders,
        first: Option<String>,
        stats: &mut FileStats,
    ) -> io::Result<()> {
        let (xml_mark, json_mark) = match &first {
            Some(id) => (
                Some(xml::duplicate_mark(id)),
                Some(jsonl::duplicate_mark(id)),
            ),
            None => (None, None),
        };
        if !r.part.is_empty() {
            FileStats::bump(&mut stats.parts, r.part, 1);
        }
        let out = self
            .cur
            .as_mut()
            .expect("documents come between start and end")
            .part(self.cfg, r.part)?;
        if let (Some(o), Some(r)) = (&mut out.xml, &r.xml) {
            o.write_doc(r, xml_mark.as_deref())?;
            stats.bytes.xml += (r.bytes.len() + xml_mark.as_ref().map_or(0, Vec::len)) as u64;
        }
        if let (Some(o), Some(r)) = (&mut out.vrt, &r.vrt) {
            o.write_doc(r, xml_mark.as_deref())?;
        }
        if let (Some(o), Some(r)) = (&mut out.jsonl, &r.jsonl) {
            o.write_doc(r, json_mark.as_deref())?;
        }
        if let (Some(o), Some(mut row)) = (&mut out.parquet, r.parquet) {
            if let Some(id) = &first {
                row.mark_duplicate(id);
            }
            o.push(row)?;
        }
        if let Some(o) = &mut out.shingles {
            o.write(&r.shingles)?;
        }
        if let Some(o) = &mut out.links {
            o.write(&r.links)?;
        }
        Ok(())
    }

    /// Publish the input's outputs and statistics, and `S.done.json` unless it failed.
    fn end(&mut self, stats: &FileStats, failure: Option<&Failure>) -> io::Result<()> {
        let mut out = self.cur.take().expect("end after start");
        if let Some(f) = failure {
            // An input that could not be read to its end gets no `.done.json`: a rerun redoes
            // it. Without any record, only a file that is not a WARC file keeps its statistics
            // (they say how many bytes it had), so that `status` counts it as failed.
            if stats.records == 0 {
                out.discard();
                if f.reason == "io_error" {
                    return Ok(());
                }
            }
        }
        let dir = &self.cfg.out_dir;
        let outputs = out.publish(dir, stats)?;
        if failure.is_none() {
            out.publish_done(dir, &self.hash, self.model_sum, outputs, stats)?;
        }
        Ok(())
    }

    fn abort(&mut self) {
        if let Some(mut out) = self.cur.take() {
            out.discard();
        }
    }
}

//! `cowrex inspect` (one page, or one record of a WARC file, as the inspector's HTML) and
//! `cowrex report` (a whole run as one HTML file).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{CliResult, ModelArgs, options};
use cowrex::Extractor;
use cowrex::document::Document;
use cowrex::error::{EXIT_OK, Error, ErrorKind};
use cowrex::eval;
use cowrex::output::inspect;

#[derive(Args)]
pub(super) struct InspectArgs {
    /// HTML file (may start with an ARC or HTTP header; `.gz` is read as gzip), or - for stdin;
    /// with --warc, none.
    #[arg(
        value_name = "PAGE",
        required_unless_present = "warc",
        conflicts_with = "warc"
    )]
    page: Option<PathBuf>,
    /// Where to write the HTML file.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// The page's URL; with --warc, the record to show (its WARC-Target-URI).
    #[arg(long)]
    url: Option<String>,
    /// Take the page from this WARC file (path or http(s) URL): the record named by --url,
    /// --record-id or --offset.
    #[arg(long, value_name = "WARC")]
    warc: Option<String>,
    /// With --warc: the record with this WARC-Record-ID.
    #[arg(long, requires = "warc", value_name = "ID")]
    record_id: Option<String>,
    /// With --warc: the record at this offset of the file (of its gzip member).
    #[arg(long, requires = "warc", value_name = "BYTES")]
    offset: Option<u64>,
    /// The page's gold text: a text file, or a ground-truth JSONL file of `cowrex eval`'s
    /// layout (`ground-truth/<set>.jsonl`), whose line with the page's id (its file name without
    /// `.html.gz`) is taken. Marks kept text that is not in it and gold text not kept, with
    /// the page's precision, recall and F1.
    #[arg(long, value_name = "FILE")]
    gold: Option<PathBuf>,
    #[command(flatten)]
    model: ModelArgs,
}

pub(super) fn inspect(a: InspectArgs) -> CliResult {
    let extractor = Extractor::new(&options(&a.model, cowrex::classify::Scorer::combined()))?;
    let doc = match &a.warc {
        Some(warc) => warc_record(&extractor, warc, &a)?,
        None => {
            let page = a
                .page
                .as_deref()
                .expect("clap requires PAGE without --warc");
            let html = if page.as_os_str() == "-" {
                super::read_input(page)?
            } else {
                eval::read_page(page).map_err(|e| Error::input(page.display(), e))?
            };
            extractor.extract(&html, a.url.as_deref())
        }
    };
    let gold = match &a.gold {
        Some(g) => Some(gold_text(g, a.page.as_deref())?),
        None => None,
    };
    let html = inspect::page(&doc, gold.as_deref(), Some(extractor.models().combined()));
    std::fs::write(&a.output, html).map_err(|e| Error::output(a.output.display(), e))?;
    eprintln!(
        "cowrex: {} blocks of {} in {}",
        doc.blocks.len(),
        if doc.meta.url.is_empty() {
            "the page"
        } else {
            &doc.meta.url
        },
        a.output.display()
    );
    Ok(EXIT_OK)
}

/// The document of the record of `warc` that --url, --record-id or --offset names.
fn warc_record(ex: &Extractor, warc: &str, a: &InspectArgs) -> Result<Document, Error> {
    if a.url.is_none() && a.record_id.is_none() && a.offset.is_none() {
        return Err(Error::usage(
            "--warc needs --url, --record-id or --offset to choose a record",
        ));
    }
    let docs = ex.read_warc(warc, 1)?;
    for d in docs {
        let d = d.map_err(|e| Error::new(ErrorKind::Input, e.to_string()))?;
        let m = &d.meta;
        if a.url.as_deref().is_some_and(|u| u == m.url)
            || a.record_id
                .as_deref()
                .is_some_and(|id| Some(id) == m.record_id.as_deref())
            || a.offset.is_some_and(|o| o == m.arcoffset)
        {
            return Ok(d);
        }
    }
    Err(Error::new(
        ErrorKind::Input,
        format!(
            "{warc} has no HTML document with that {} (records that are not written, such as \
         non-HTML or empty pages, cannot be inspected)",
            if a.url.is_some() {
                "URL"
            } else if a.record_id.is_some() {
                "record id"
            } else {
                "offset"
            }
        ),
    ))
}

/// The gold text of `--gold`: a text file, or the line of a ground-truth JSONL file whose
/// `page_id` is the page's file name without its extensions.
fn gold_text(gold: &Path, page: Option<&Path>) -> Result<String, Error> {
    let text = std::fs::read_to_string(gold).map_err(|e| Error::input(gold.display(), e))?;
    if gold.extension().is_none_or(|e| e != "jsonl") {
        return Ok(text);
    }
    let id = page
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .map(|n| n.split('.').next().unwrap_or(n))
        .ok_or_else(|| {
            Error::usage(
                "--gold with a ground-truth JSONL file needs the page as a file named by its id",
            )
        })?;
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["page_id"] == id {
            let gold = v["plaintext"].as_str().unwrap_or("");
            return Ok(eval::main_content(gold).to_owned());
        }
    }
    Err(Error::new(
        ErrorKind::Input,
        format!("{} has no page_id {id}", gold.display()),
    ))
}

#[derive(Args)]
pub(super) struct ReportArgs {
    /// The output directory of a run (its `*.stats.json`, also in subdirectories, and its JSONL
    /// or XML corpus files).
    #[arg(value_name = "OUT_DIR")]
    dir: PathBuf,
    /// Where to write the HTML file.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// A blacklist of `cowrex dedup`: its near duplicates are counted.
    #[arg(long, value_name = "FILE")]
    blacklist: Option<PathBuf>,
}

pub(super) fn report(a: ReportArgs) -> CliResult {
    let run = crate::report::gather(&a.dir, a.blacklist.as_deref())?;
    std::fs::write(&a.output, crate::report::render(&run))
        .map_err(|e| Error::output(a.output.display(), e))?;
    eprintln!(
        "cowrex: {} inputs, {} documents in {}",
        run.inputs.len(),
        run.documents,
        a.output.display()
    );
    Ok(EXIT_OK)
}

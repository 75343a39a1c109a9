//! cowrex turns crawled web pages (WARC files) into texrex-style XML corpora, with every text
//! block kept and scored for boilerplate.
//!
//! Everything a user needs is here at the root:
//!
//! - **Pages.** [`Extractor`] is the front door: build one ([`Extractor::builder`], or
//!   [`Extractor::builtin`] for the built-in models and defaults), then analyse pages
//!   ([`Extractor::analyze_html`]) or stream the documents of a WARC file
//!   ([`Extractor::read_warc`], a [`Documents`] iterator; [`stream`] for many [`Input`]s).
//! - **Settings.** [`Options`] (what [`Builder`] sets), [`Config`] (a page's analysis:
//!   [`Scorer`], [`Favor`], [`Comments`], [`Mask`], [`DocFilter`], [`DupBlocks`], [`Limits`],
//!   [`Syntax`]), [`Models`] with [`LangChoice`] and [`NgramChoice`], and a run's
//!   [`StreamConfig`] or [`RunConfig`] ([`Formats`], [`Split`], [`ExactDups`], [`Progress`],
//!   [`Retry`]). Each option whose value is one of a few names parses from its name
//!   ([`Choice`]), the same names the command line and Python take.
//! - **Documents.** A [`Document`] holds its [`Meta`], [`Metadata`], [`Language`]s,
//!   [`Signals`] and [`DocFigures`], and its [`Block`]s: each with its text and [`Kind`],
//!   every detector's values ([`block_scores`]) and `bpv`, the deciding scorer's boilerplate
//!   value.
//! - **Output.** [`write_xml`] and [`write_jsonl`] render a document as `cowrex process`
//!   writes it. [`run`] is `cowrex process`: a whole run over many inputs on threads, in input
//!   order, into corpus files. [`run_into`] runs the same pipeline into a [`Sink`] of one's
//!   own, which gets each input's [`FileStats`] with every record's [`Fate`].
//! - **Stops and errors.** A run's [`Stop`] ends it cleanly; an [`Error`] has an
//!   [`ErrorKind`] and the command line's exit code.
//!
//! The modules are hidden from these docs: what the command line, the Python package and the
//! fuzz targets use besides the above (segmentation, the detectors' models, training and
//! evaluation) is reachable for them, and not part of the library's interface.

#![warn(missing_docs)]

#[doc(hidden)]
pub mod analyze;
#[doc(hidden)]
pub mod choice;
#[doc(hidden)]
pub mod classify;
#[doc(hidden)]
pub mod decode;
mod digest;
#[doc(hidden)]
pub mod document;
#[doc(hidden)]
pub mod error;
#[doc(hidden)]
pub mod eval;
mod extractor;
#[doc(hidden)]
pub mod fate;
mod features;
#[doc(hidden)]
pub mod html;
#[doc(hidden)]
pub mod lid;
#[doc(hidden)]
pub mod output;
mod parallel;
#[doc(hidden)]
pub mod pipeline;
mod sentences;
#[doc(hidden)]
pub mod shingle;
#[doc(hidden)]
pub mod signals;
#[doc(hidden)]
pub mod stop;
#[doc(hidden)]
pub mod train;
#[doc(hidden)]
pub mod warc;
#[doc(hidden)]
pub mod words;

// The front door: the extractor and its settings.
pub use analyze::{Config, DocFilter, DupBlocks, Mask};
pub use choice::{Choice, Named};
pub use classify::{Favor, LangChoice, ModelLang, Models, NgramChoice, Scorer};
pub use error::{Cause, Error, ErrorKind};
pub use extractor::{Builder, Extractor, Options};
pub use fate::Fate;
pub use html::{Limits, Syntax};
pub use stop::Stop;

// The document model.
pub use document::{
    Block, Cap, CharsetEvidence, Comments, DocFigures, Doctype, Document, Features, Kind, Language,
    Link, LinkRelation, Meta, Metadata, PageText, SIGNALS, Scores, Signals, WordStats,
};

// A block's scores by their names, as the writers print them.
pub use output::{Score, block_scores, score_names};

// Runs: inputs, the documents iterator, a run into files or a sink of one's own.
pub use output::stats::{Bytes, FileStats};
pub use pipeline::stream::{Documents, StreamConfig, StreamStats, stream};
pub use pipeline::{
    ExactDups, Failure, Formats, Input, Progress, RunConfig, Sink, Snapshot, Split, Summary, run,
    run_into,
};
pub use warc::{Location, Retry};

// Writing documents as the formats of a run.
pub use output::jsonl::write_doc as write_jsonl;
pub use output::xml::{Lines, write_doc as write_xml};

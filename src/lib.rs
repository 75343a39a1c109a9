//! cowrex turns crawled web pages (WARC files) into texrex-style XML corpora, with every text
//! block kept and scored for boilerplate.
//!
//! The front door is [`Extractor`]: build one ([`Extractor::builder`]), then analyse pages
//! ([`Extractor::analyze_html`]) or stream the documents of WARC files
//! ([`Extractor::read_warc`]). A [`Document`] holds its [`Block`]s, each with every
//! detector's values and `bpv`, and its metadata; [`output`] writes documents as XML, VRT,
//! JSON lines, Parquet and Markdown; [`pipeline::run`] is `cowrex process`, a whole run over
//! many inputs on threads, in input order, and [`pipeline::run_into`] runs the same pipeline
//! into a [`Sink`] of one's own. The types a user sets or reads most are here at the root:
//! the settings ([`Options`], [`Config`], [`Limits`], [`Syntax`], [`Scorer`], [`Favor`],
//! [`LangChoice`], [`NgramChoice`]; each named option parses from its name, [`Choice`]),
//! [`Models`], the inputs ([`Input`]), a stream's settings ([`StreamConfig`]) and a run's stop
//! ([`Stop`]).
//!
//! Inside: [`warc`] reads records → the charset is sniffed and the page segmented into blocks
//! → texrex's block features → [`classify`] scores each block with every detector
//! ([`classify::detector`]) → [`document`] adds document-level figures, [`lid`] the languages
//! and [`signals`] the quality signals → [`output`] writes the corpus. [`shingle`] makes and
//! compares w-shingles; [`words`] is what every detector and feature that counts words counts,
//! in scripts written without spaces too. The modules the command line's `train` and `eval`
//! and the fuzz targets use (`decode`, `html`, `eval`, `train`) are public for them and left
//! out of these docs.

#![warn(missing_docs)]

pub mod analyze;
pub mod choice;
pub mod classify;
#[doc(hidden)]
pub mod decode;
mod digest;
pub mod document;
pub mod error;
#[doc(hidden)]
pub mod eval;
mod extractor;
pub mod fate;
mod features;
#[doc(hidden)]
pub mod html;
pub mod lid;
pub mod output;
mod parallel;
pub mod pipeline;
pub mod sentences;
pub mod shingle;
pub mod signals;
pub mod stop;
#[doc(hidden)]
pub mod train;
pub mod warc;
pub mod words;

pub use analyze::Config;
pub use choice::Choice;
pub use classify::{Favor, LangChoice, Models, NgramChoice, Scorer};
pub use document::{Block, Comments, Document};
pub use error::Error;
pub use extractor::{Builder, Extractor, Options};
pub use html::{Limits, Syntax};
pub use pipeline::stream::{Documents, StreamConfig, StreamStats};
pub use pipeline::{Input, Sink};
pub use stop::Stop;

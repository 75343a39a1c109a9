//! cowrex turns crawled web pages (WARC files) into texrex-style XML corpora, with every text
//! block kept and scored for boilerplate.
//!
//! The front door is [`Extractor`]: build one ([`Extractor::builder`]), then analyse pages
//! ([`Extractor::analyze_html`]) or stream the documents of WARC files
//! ([`Extractor::read_warc`]). A [`Document`] holds its [`Block`]s, each with every
//! detector's values and `bpv`, and its metadata; [`output`] writes documents as XML, VRT,
//! JSON lines and Markdown; [`pipeline::run`] is `cowrex process`, a whole run over many
//! inputs on threads, in input order.
//!
//! Inside: [`warc`] reads records → [`decode`] picks the charset → [`html`] segments the page
//! into blocks → texrex's block features → [`classify`] scores each block with every detector
//! ([`classify::detector`]) → [`document`] adds document-level figures → [`output`] writes
//! the corpus. [`eval`] measures extraction against gold texts; [`shingle`] makes and compares
//! w-shingles. [`words`] is what every detector and feature that counts words counts, in
//! scripts written without spaces too.

#![warn(missing_docs)]

pub mod analyze;
pub mod choice;
pub mod classify;
pub mod decode;
mod digest;
pub mod document;
pub mod error;
pub mod eval;
mod extractor;
pub mod fate;
mod features;
pub mod html;
pub mod lid;
pub mod output;
mod parallel;
pub mod pipeline;
pub mod sentences;
pub mod shingle;
pub mod signals;
pub mod stop;
pub mod train;
pub mod warc;
pub mod words;

pub use document::{Block, Document};
pub use error::Error;
pub use extractor::{Builder, Extractor, Options};
pub use pipeline::stream::{Documents, StreamStats};

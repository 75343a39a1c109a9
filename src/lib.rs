//! cowrex turns crawled web pages (WARC files) into texrex-style XML corpora, with every text
//! block kept and scored for boilerplate.
//!
//! The pipeline: [`warc`] reads records → [`decode`] picks the charset → [`html`] segments the
//! page into blocks → [`features`] computes texrex's block features → [`classify`] scores each
//! block → [`document`] adds document-level figures → [`output`] writes the corpus;
//! [`pipeline`] runs it all on threads in input order.

pub mod classify;
pub mod cli;
pub mod decode;
pub mod document;
pub mod eval;
pub mod features;
pub mod html;
pub mod output;
pub mod pipeline;
pub mod shingle;
pub mod warc;

/// Lower-case hexadecimal of bytes (checksums, ids).
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

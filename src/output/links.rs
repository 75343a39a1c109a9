//! The links file (`S.links.gz`, `--links`): texrex's five tab-separated columns per link.

use std::io::{self, Write};

use super::format_general;
use crate::document::Document;

/// Write a document's links, one line each: the document's URL, the link, its relation, the
/// document's badness and the `bpv` of the block the link is in.
pub fn write_lines(out: &mut impl Write, doc: &Document) -> io::Result<()> {
    let badness = format_general(doc.badness.unwrap_or(0.0));
    for l in &doc.links {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}",
            doc.meta.url,
            l.url,
            l.relation.as_str(),
            badness,
            format_general(l.bpv as f64)
        )?;
    }
    Ok(())
}

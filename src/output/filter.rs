//! Removing documents from corpus files by id: texrex's `tecl`.
//!
//! XML and VRT files are read line by line as texrex's tools do: a document starts on a line
//! beginning `<doc ` and ends on the line `</doc>`; its id is the `id="…"` attribute. JSONL files
//! (`.jsonl`, `.jsonl.gz`) have one document per line with an `id` key. Documents keep their
//! order; a document cut off by the end of the file is dropped, so the output stays well formed.
//!
//! Documents can also be judged by their quality signals ([`crate::signals::Judge`]): the
//! JSONL `signals` object, or XML's and VRT's `<meta name="signals" …/>` line. A document
//! without signals is dropped as `no_signals` when a judge is set.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};
use std::path::Path;

use super::gz;
use crate::shingle::ID_LEN;
use crate::signals::Judge;
use crate::stop::Stop;

/// What filtering one file did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FilterStats {
    /// Documents read.
    pub documents: u64,
    /// Documents dropped because their id is on the blacklist.
    pub blacklisted: u64,
    /// Documents whose id was already written (dropped to keep ids unique).
    pub repeated_ids: u64,
    /// Documents cut off by the end of the file, or without an id.
    pub broken: u64,
    /// Documents dropped by the judge of their signals ([`Filter::judge`]).
    pub judged: u64,
    /// Documents written.
    pub written: u64,
}

impl FilterStats {
    /// Add another file's counts to these.
    pub fn add(&mut self, o: &FilterStats) {
        self.documents += o.documents;
        self.blacklisted += o.blacklisted;
        self.repeated_ids += o.repeated_ids;
        self.broken += o.broken;
        self.judged += o.judged;
        self.written += o.written;
    }
}

/// Settings of a filter run.
pub struct Filter {
    /// Ids of the documents to drop.
    pub blacklist: HashSet<[u8; ID_LEN]>,
    /// Drop documents whose id was written before (texrex's `tecl -u`).
    pub unique: bool,
    /// Ids written so far (across files).
    pub written: HashSet<[u8; ID_LEN]>,
    /// The run's stop: a file stops with [`crate::stop::stopped`] once it is requested.
    pub stop: Stop,
    /// Drop documents by their signals.
    pub judge: Judge,
    /// How many documents each reason of the judge dropped (across files).
    pub reasons: BTreeMap<String, u64>,
    /// Where `id<TAB>reason` of each document the judge drops is written.
    pub dropped: Option<Box<dyn Write>>,
}

impl Filter {
    /// Whether to keep a document with this id and signals; counts it.
    fn keep(
        &mut self,
        id: Option<&[u8]>,
        signals: Option<&HashMap<String, f64>>,
        st: &mut FilterStats,
    ) -> io::Result<bool> {
        st.documents += 1;
        let Some(id) = id.and_then(|i| <[u8; ID_LEN]>::try_from(i).ok()) else {
            st.broken += 1;
            return Ok(false);
        };
        if self.blacklist.contains(&id) {
            st.blacklisted += 1;
            return Ok(false);
        }
        if self.unique && self.written.contains(&id) {
            st.repeated_ids += 1;
            return Ok(false);
        }
        let reason = match (self.judge.is_active(), signals) {
            (false, _) => None,
            (true, Some(s)) => self.judge.reason(|name| s.get(name).copied()),
            (true, None) => Some("no_signals".to_string()),
        };
        if let Some(reason) = reason {
            if let Some(w) = &mut self.dropped {
                w.write_all(&id)?;
                writeln!(w, "\t{reason}")?;
            }
            *self.reasons.entry(reason).or_default() += 1;
            st.judged += 1;
            return Ok(false);
        }
        if self.unique {
            self.written.insert(id);
        }
        st.written += 1;
        Ok(true)
    }

    /// Filter `input` into `output`; the output is gzipped and read as JSONL when the
    /// input's name says so (`.gz`, `.jsonl`, `.jsonl.gz`).
    pub fn file(&mut self, input: &Path, output: &Path) -> io::Result<FilterStats> {
        let reader = gz::open(input)?;
        let f = BufWriter::with_capacity(1 << 16, File::create(output)?);
        let name = input.to_string_lossy();
        let jsonl = name.ends_with(".jsonl") || name.ends_with(".jsonl.gz");
        let st = if name.ends_with(".gz") {
            let mut w = gz::GzMembers::new(f, gz::DEFAULT_LEVEL);
            let st = self.copy(reader, &mut w, jsonl)?;
            w.finish()?.flush()?;
            st
        } else {
            let mut w = f;
            let st = self.copy(reader, &mut w, jsonl)?;
            w.flush()?;
            st
        };
        Ok(st)
    }

    fn copy(
        &mut self,
        reader: Box<dyn BufRead>,
        w: &mut impl Write,
        jsonl: bool,
    ) -> io::Result<FilterStats> {
        let mut st = FilterStats::default();
        let mut doc: Vec<u8> = Vec::new();
        let mut in_doc = false;
        for line in reader.split(b'\n') {
            let line = line?;
            self.stop.check()?;
            if jsonl {
                if line.trim_ascii().is_empty() {
                    continue;
                }
                let id = serde_json::from_slice::<Id>(&line).ok();
                let keep = self.keep(
                    id.as_ref().map(|i| i.id.as_bytes()),
                    id.as_ref().and_then(|i| i.signals.as_ref()),
                    &mut st,
                )?;
                if keep {
                    w.write_all(&line)?;
                    w.write_all(b"\n")?;
                }
                continue;
            }
            if line.starts_with(b"<doc ") {
                if in_doc {
                    // The previous document has no `</doc>`: dropped.
                    st.documents += 1;
                    st.broken += 1;
                }
                in_doc = true;
                doc.clear();
            }
            if !in_doc {
                // Text between documents (there is none in cowrex's files) is kept.
                w.write_all(&line)?;
                w.write_all(b"\n")?;
                continue;
            }
            doc.extend_from_slice(&line);
            doc.push(b'\n');
            if line == b"</doc>" {
                in_doc = false;
                let first = doc.split(|&b| b == b'\n').next().unwrap_or(&[]);
                let signals = doc
                    .split(|&b| b == b'\n')
                    .find(|l| l.starts_with(SIGNALS_META))
                    .map(meta_signals);
                if self.keep(doc_id(first), signals.as_ref(), &mut st)? {
                    w.write_all(&doc)?;
                }
            }
        }
        if in_doc {
            // Cut off by the end of the file: not written.
            st.documents += 1;
            st.broken += 1;
        }
        Ok(st)
    }
}

/// The `id` key of a JSON line, and its signals.
#[derive(serde::Deserialize)]
struct Id {
    id: String,
    signals: Option<HashMap<String, f64>>,
}

/// How the line of a document's signals starts in XML and VRT.
const SIGNALS_META: &[u8] = b"<meta name=\"signals\" content=\"";

/// The `name=value` pairs of a `<meta name="signals" content="…" />` line.
fn meta_signals(line: &[u8]) -> HashMap<String, f64> {
    let rest = &line[SIGNALS_META.len()..];
    let content = &rest[..memchr::memchr(b'"', rest).unwrap_or(rest.len())];
    String::from_utf8_lossy(content)
        .split(' ')
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            Some((k.to_string(), v.parse().ok()?))
        })
        .collect()
}

/// The `id` attribute of a `<doc …>` line.
fn doc_id(line: &[u8]) -> Option<&[u8]> {
    let p = memchr::memmem::find(line, b" id=\"")? + 5;
    let end = memchr::memchr(b'"', &line[p..])? + p;
    Some(&line[p..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_doc_line() {
        assert_eq!(
            doc_id(br#"<doc url="u" id="abc" ip="x">"#),
            Some(&b"abc"[..])
        );
        assert_eq!(doc_id(b"<doc url=\"u\">"), None);
    }

    #[test]
    fn signals_come_from_the_meta_line() {
        let s = meta_signals(br#"<meta name="signals" content="gopher_words=12 c4_lines=0.5" />"#);
        assert_eq!(s.get("gopher_words"), Some(&12.0));
        assert_eq!(s.get("c4_lines"), Some(&0.5));
    }
}

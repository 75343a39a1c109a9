//! JSON lines: one document per line, for datatrove, dolma and similar tools.
//!
//! ```text
//! {"id":"…","url":"…","language":"eng","language_script":"Latn","language_score":0.98,"text":"…","title":"…","author":"…","published":"…",
//!  "modified":"…","sitename":"…","canonical":"…","description":"…","declared_language":"…","host":"…","tld":"…",
//!  "bdv":3.2,"bdc":"c","nbc":812,"nbcprop":0.41,"nbd":3,"nbdprop":0.2,"avgbpc":0.5,"avgbpd":0.7,"bpt":0.62,
//!  "signals":{"gopher_words":412,"gopher_non_symbol_words":371,…},
//!  "blocks":[{"idx":0,"bpv":0.93,"bpc":"j","ngram":-1.2,"kind":"li","list":"ul","depth":1,"text":"Home"},
//!            {"idx":2,"bpv":0.1,"bpc":"b","kind":"p","c4":"no_terminal_punc","text":"Read more"},
//!            {"idx":4,"bpv":0.02,"bpc":"a","kind":"p","language":"eng","language_score":0.99,"dup_of":1,"text":"…"}],
//!  "provenance":{"warc_file":"…","warc_record_id":"…","warc_date":"…","offset":0,"length":1234,
//!                "ip":"…","http_date":"…","last_modified":"…","charset":"UTF-8","doctype":"HTML5"}}
//! ```
//!
//! `text` is the blocks whose `bpv` is at most `bpt` (the document's threshold), repeats
//! included, joined by newlines; `signals` are its quality signals (docs/formats.md#quality-signals)
//! and a content block's `c4` its lines' fates under C4's rules where one is dropped; `blocks`
//! lists every block. Keys without a value (`title`, `ngram`, `dup_of`,
//! provenance fields) are left out. A duplicate of an earlier document gets `duplicate_of`.

use serde::Serialize;

use crate::analyze::DupBlocks;
use crate::classify::quality;
use crate::document::{Document, Language, Signals};
use crate::output::xml::bpc;

#[derive(Serialize)]
struct Line<'a> {
    id: &'a str,
    url: &'a str,
    /// ISO 639-3, `unknown` for a document without letters.
    language: &'a str,
    /// ISO 15924.
    #[serde(skip_serializing_if = "Option::is_none")]
    language_script: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    language_score: Option<f64>,
    text: String,
    /// The headline and the rest of [`crate::document::Metadata`], each left out when unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    author: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    published: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    modified: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sitename: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    canonical: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    declared_language: Option<&'a str>,
    host: &'a str,
    tld: &'a str,
    bdv: f64,
    bdc: String,
    nbc: usize,
    nbcprop: f64,
    nbd: usize,
    nbdprop: f64,
    avgbpc: f64,
    avgbpd: f64,
    /// The document's decision threshold: `text` is the blocks whose `bpv` is at most this.
    bpt: f32,
    /// Quality signals of `text` ([`crate::document::SIGNALS`]), when they are on.
    #[serde(skip_serializing_if = "Option::is_none")]
    signals: Option<SignalsJson<'a>>,
    /// The content as Markdown, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    markdown: Option<String>,
    blocks: Vec<BlockLine<'a>>,
    provenance: Provenance<'a>,
}

/// The signals as a JSON object in [`crate::document::SIGNALS`]' order.
struct SignalsJson<'a>(&'a Signals);

impl Serialize for SignalsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = ser.serialize_map(Some(crate::document::N_SIGNALS))?;
        for (name, v) in self.0.iter() {
            map.serialize_entry(name, &super::signal_json(v))?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct BlockLine<'a> {
    idx: usize,
    bpv: f32,
    bpc: String,
    /// Every other scorer's result ([`super::block_scores`]).
    #[serde(flatten)]
    scores: serde_json::Map<String, serde_json::Value>,
    /// Its kind ([`super::kind_fields`]).
    #[serde(flatten)]
    kind: serde_json::Map<String, serde_json::Value>,
    /// Its own language ([`super::block_language`]).
    #[serde(flatten)]
    language: serde_json::Map<String, serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dup_of: Option<usize>,
    /// Its lines' C4 fates, when C4's rules drop one ([`crate::document::Block::c4`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    c4: Option<&'a str>,
    text: &'a str,
}

#[derive(Serialize)]
struct Provenance<'a> {
    warc_file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    warc_record_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warc_date: Option<&'a str>,
    offset: u64,
    length: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    ip: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    http_date: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_modified: Option<&'a str>,
    charset: &'a str,
    /// The declaration that `charset` overrode ([`Document::declared_charset`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    declared_charset: Option<&'a str>,
    doctype: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated: Option<&'a str>,
}

/// Append one document as a JSON line (with `duplicate_of` when [`Document::duplicate_of`] is
/// set). Returns the position of the line's final `}`: the line of a document that is not a
/// duplicate becomes a duplicate's with its duplicate mark inserted there.
/// `markdown`: with a `markdown` field, `Some(links)` with or without its links.
pub fn write_doc(
    out: &mut Vec<u8>,
    doc: &Document,
    dup_blocks: DupBlocks,
    markdown: Option<bool>,
) -> usize {
    let f = &doc.figures;
    let m = &doc.meta;
    let md = &doc.metadata;
    let bdv = doc.badness.unwrap_or(0.0);
    let line = Line {
        id: &doc.id,
        url: &m.url,
        language: Language::code_of(doc.language.as_ref()),
        language_script: doc.language.and_then(|l| l.script),
        language_score: doc.language.as_ref().map(super::language_score),
        text: doc.text(),
        title: md.title.as_deref(),
        author: md.author.as_deref(),
        published: md.published.as_deref(),
        modified: md.modified.as_deref(),
        sitename: md.sitename.as_deref(),
        canonical: md.canonical.as_deref(),
        description: md.description.as_deref(),
        declared_language: md.declared_language.as_deref(),
        host: &doc.host,
        tld: &doc.tld,
        bdv,
        bdc: quality::bdc(bdv).to_string(),
        nbc: f.nbc,
        nbcprop: f.nbcprop,
        nbd: f.nbd,
        nbdprop: f.nbdprop,
        avgbpc: f.avgbpc,
        avgbpd: f.avgbpd,
        bpt: doc.threshold,
        signals: doc.signals.as_ref().map(SignalsJson),
        markdown: markdown.map(|links| super::markdown::write(doc, links)),
        blocks: doc
            .blocks
            .iter()
            .filter(|b| b.dup_of.is_none() || dup_blocks != DupBlocks::Drop)
            .map(|b| BlockLine {
                idx: b.idx,
                bpv: b.bpv,
                bpc: bpc(b.bpv).to_string(),
                scores: super::block_scores(b)
                    .map(|(k, v)| (k.to_string(), v.json()))
                    .collect(),
                kind: super::kind_fields(b)
                    .map(|(k, v)| (k.to_string(), v.json()))
                    .collect(),
                language: super::block_language(b)
                    .map(|(k, v)| (k.to_string(), v.json()))
                    .collect(),
                dup_of: b.dup_of,
                c4: b.c4.as_deref(),
                text: &b.text,
            })
            .collect(),
        provenance: Provenance {
            warc_file: &m.arcfile,
            warc_record_id: m.record_id.as_deref(),
            warc_date: m.warc_date.as_deref(),
            offset: m.arcoffset,
            length: m.arclength,
            ip: m.ip.as_deref(),
            http_date: m.http_date.as_deref(),
            last_modified: m.last_modified.as_deref(),
            charset: &doc.source_charset,
            declared_charset: doc.declared_charset.as_deref(),
            doctype: doc.doctype.as_str(),
            truncated: m.truncated.as_deref(),
        },
    };
    serde_json::to_writer(&mut *out, &line).expect("serialising to memory");
    let mark_at = out.len() - 1;
    if let Some(id) = &doc.duplicate_of {
        out.splice(mark_at..mark_at, duplicate_mark(id));
    }
    out.push(b'\n');
    mark_at
}

/// `,"duplicate_of":"ID"`, the field that marks a duplicate of document `ID` (the last one).
pub fn duplicate_mark(id: &str) -> Vec<u8> {
    let mut mark = b",\"duplicate_of\":".to_vec();
    serde_json::to_writer(&mut mark, id).expect("serialising to memory");
    mark
}

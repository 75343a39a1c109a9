//! The document model: a [`Document`] with its [`Block`]s and their score table ([`Scores`]),
//! its provenance ([`Meta`]), metadata ([`Metadata`]) and what the page says of itself
//! ([`PageText`]), as analysis (`crate::analyze`) makes them and the writers read them.
//!
//! A leaf: it holds data and what follows from it alone, and imports nothing from the rest of
//! the crate but the registry's width of the score table, a compile-time constant
//! (`scores.rs`). Detectors, analysis, writers and evaluation depend down on it.

use md5::{Digest, Md5};

mod block;
mod kind;
mod language;
mod metadata;
mod page;
pub mod page_text;
mod scores;
mod signals;

pub use block::{Block, Features, N_FEATURES, WordStats, bpc};
pub use kind::Kind;
pub use language::Language;
pub use metadata::Metadata;
pub use page::{Cap, CharsetEvidence, Doctype};
pub use page_text::PageText;
pub use scores::{Cols, N_COLUMNS, Scores};
pub use signals::{N_SIGNALS, SIGNALS, Signals};

/// Provenance and metadata of a document.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    /// The page's URL (a record's `WARC-Target-URI`).
    pub url: String,
    /// The server's IP address (`WARC-IP-Address`).
    pub ip: Option<String>,
    /// `WARC-Record-ID`.
    pub record_id: Option<String>,
    /// `WARC-Date`, as written.
    pub warc_date: Option<String>,
    /// The HTTP `Date` header.
    pub http_date: Option<String>,
    /// The HTTP `Last-Modified` header.
    pub last_modified: Option<String>,
    /// The input file's name as written in the outputs (`-` for standard input).
    pub arcfile: String,
    /// Where the record starts in the file, in bytes (the gzip member for `.warc.gz`).
    pub arcoffset: u64,
    /// The record's length in the file, in bytes.
    pub arclength: u64,
    /// Why the record's block is incomplete, if it is.
    pub truncated: Option<String>,
}

/// Document-level boilerplate figures (texrex's `DecideMlp`/`DecideThreshs`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DocFigures {
    /// Characters of the content (non-boilerplate) blocks.
    pub nbc: usize,
    /// Number of content blocks.
    pub nbd: usize,
    /// Share of the characters in content blocks, −1 without blocks.
    pub nbcprop: f64,
    /// Share of the blocks that are content, −1 without blocks.
    pub nbdprop: f64,
    /// Character-weighted mean `bpv` of the blocks (0 without characters).
    pub avgbpc: f64,
    /// Mean `bpv` of the blocks (0 without blocks).
    pub avgbpd: f64,
}

/// An analysed document.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// Provenance and HTTP metadata of its record.
    pub meta: Meta,
    /// 36 characters: MD5(url) in hex and 4 hex digits from the record's identity.
    pub id: String,
    /// The charset the page was decoded from, upper-cased (`sourcecharset`).
    pub source_charset: String,
    /// The charset the HTTP header or a `<meta>` declared, upper-cased, when the page was
    /// decoded as UTF-8 against it (`declared-charset`, [`CharsetEvidence::ValidUtf8`]).
    pub declared_charset: Option<String>,
    /// The page's doctype.
    pub doctype: Doctype,
    /// Headline, author, dates, site name, canonical URL, description, declared language.
    pub metadata: Metadata,
    /// `<meta name=keywords>`.
    pub keywords: Option<String>,
    /// `<base href>`, what the page's links are relative to (else its URL).
    pub base: Option<String>,
    /// The URL's host, lower-cased.
    pub host: String,
    /// The host's last label (empty for an IP address).
    pub tld: String,
    /// The identified language of its blocks' text together (`None`: no letters).
    pub language: Option<Language>,
    /// The language of the built-in MLP that scored the blocks, ISO 639-1 (`en`, `de`, `fr`,
    /// `sv`; `None`: a model file given with `--model`).
    pub model: Option<&'static str>,
    /// The valid blocks, scored, in document order.
    pub blocks: Vec<Block>,
    /// The elements whose text spans several of `blocks`: their first and last block
    /// (positions in `blocks`), without repeats, sorted by start and outer first.
    pub regions: Vec<(u32, u32)>,
    /// What the page says of itself outside its blocks (title, structured data), which the
    /// combined model compares its blocks with.
    pub page_text: PageText,
    /// Blocks found by segmentation, valid or not.
    pub blocks_total: usize,
    /// The name of the decision that set the blocks' `bpv` (`--scorer`).
    pub scorer: &'static str,
    /// Blocks whose `bpv` is at most this are the document's content, as [`Comments`] says
    /// for comment blocks ([`Document::is_content`]).
    pub threshold: f32,
    /// Whether comment blocks ([`Block::comment`]) are content.
    pub comments: Comments,
    /// Document-level boilerplate figures at `threshold`.
    pub figures: DocFigures,
    /// Why segmentation stopped early, if it did (the blocks after that are missing).
    pub capped: Option<Cap>,
    /// Some bytes could not be decoded in the chosen charset.
    pub malformed: bool,
    /// Where the charset came from (always set by analysis).
    pub evidence: Option<CharsetEvidence>,
    /// texrex's badness (text quality; 0 is best), `None` without profiles.
    pub badness: Option<f64>,
    /// Quality signals of [`Document::text`] (`crate::signals`), `None` when they are off.
    pub signals: Option<Signals>,
    /// Min-hash fingerprint of the content (`None` when shingling is off or there are fewer
    /// tokens than a shingle needs).
    pub shingles: Option<Vec<u64>>,
    /// Bytes of the content blocks that were tokenized (shingles' document size).
    pub content_size: usize,
    /// xxh3-128 of all block texts: documents with the same text have the same fingerprint.
    pub fingerprint: u128,
    /// Links, when link extraction is on.
    pub links: Vec<Link>,
    /// The id of the first document of the same input with the same text, when the
    /// streaming reader ([`Documents`](crate::Documents)) found one; the writers render it as
    /// `duplicate-of`. (`process` decides on its writer thread, after rendering, and inserts
    /// the same mark where the renderers say.)
    pub duplicate_of: Option<String>,
}

impl Document {
    /// Whether a block is content: a comment block as the document's [`Comments`] says, any
    /// other when its `bpv` is at most the document's threshold.
    pub fn is_content(&self, b: &Block) -> bool {
        self.comments.content(b, self.threshold)
    }

    /// The content: the texts of the content blocks, one per line (what `cowrex extract`
    /// prints and the JSONL `text`). A block that repeats an earlier one is content or not as
    /// any other block is: a repeated table cell or paragraph of the content stays, a menu
    /// repeated in the footer goes with the boilerplate (docs/formats.md, "Repeated blocks").
    pub fn text(&self) -> String {
        content_text(self.blocks.iter().filter(|b| self.is_content(b)))
    }

    /// The identified language as an ISO 639-3 code, `unknown` without one.
    pub fn language_code(&self) -> &'static str {
        Language::code_of(self.language.as_ref())
    }
}

/// Whether the blocks of a page's comment section ([`Block::comment`]) are content: readers'
/// comments are user-written text that corpus linguists often want and article extraction
/// leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Comments {
    /// Comment blocks are boilerplate, whatever their `bpv`.
    #[default]
    Drop,
    /// Comment blocks are content, whatever their `bpv`.
    Keep,
    /// Comment blocks are content when their `bpv` is at most the threshold, as any other
    /// block (one scorer's decision alone, as before comments had a kind).
    Scored,
}

crate::choice::choice!(Comments, "comments", [
    Comments::Drop, "drop", "comment blocks are not content";
    Comments::Keep, "keep", "comment blocks are content, whatever their bpv";
    Comments::Scored, "scored", "comment blocks are content by their bpv, as any other block";
]);

impl Comments {
    /// Whether a block is content at `threshold`: a comment block as this says, any other
    /// when its `bpv` is at most the threshold.
    pub fn content(self, b: &Block, threshold: f32) -> bool {
        self.decide(b.comment, b.bpv <= threshold)
    }

    /// Whether a block is content: a `comment` block as this says, any other when its scorer
    /// keeps it (`kept`).
    pub fn decide(self, comment: bool, kept: bool) -> bool {
        match (comment, self) {
            (false, _) | (true, Comments::Scored) => kept,
            (true, Comments::Drop) => false,
            (true, Comments::Keep) => true,
        }
    }
}

/// The texts of content blocks, one per line ([`Document::text`]).
pub fn content_text<'a>(content: impl IntoIterator<Item = &'a Block>) -> String {
    let mut text = String::new();
    for b in content {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&b.text);
    }
    text
}

/// How a link's host relates to the document's (texrex's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkRelation {
    /// The same host.
    SameFullHost,
    /// Same last two host labels (`a.example.org` and `b.example.org`).
    SameNonVirtualHost,
    /// Any other host.
    DifferentHosts,
}

impl LinkRelation {
    /// texrex's name (`trlSameFullHost`, `trlSameNonVirtualHost`, `trlDifferentHosts`).
    pub fn as_str(self) -> &'static str {
        match self {
            LinkRelation::SameFullHost => "trlSameFullHost",
            LinkRelation::SameNonVirtualHost => "trlSameNonVirtualHost",
            LinkRelation::DifferentHosts => "trlDifferentHosts",
        }
    }
}

/// A link from an `<a href>` in the text, resolved to an absolute http(s) URL.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The absolute URL.
    pub url: String,
    /// How its host relates to the document's.
    pub relation: LinkRelation,
    /// `bpv` of the block the link is in (−1 when that block has no text).
    pub bpv: f32,
}

/// Host and top-level domain of a URL (`""` when there is none).
pub fn host_and_tld(url: &str) -> (String, String) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port.split_inclusive(']').next().unwrap_or(host_port)
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let tld = if host.starts_with('[') || host.parse::<std::net::Ipv4Addr>().is_ok() {
        String::new()
    } else {
        host.rsplit('.').next().unwrap_or("").to_string()
    };
    (host, tld)
}

/// texrex's 36-character id, made deterministic: MD5(url) in hex, then the first 4 hex digits
/// of MD5 of the record's identity (record id, else file and offset).
pub(crate) fn doc_id(meta: &Meta) -> String {
    let url_hash = Md5::digest(meta.url.as_bytes());
    let identity = match &meta.record_id {
        Some(id) => id.clone(),
        None => format!("{}@{}", meta.arcfile, meta.arcoffset),
    };
    let suffix = Md5::digest(identity.as_bytes());
    let mut s = String::with_capacity(36);
    for b in url_hash.iter().chain(&suffix[..2]) {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_decide_for_comment_blocks_only() {
        for kept in [false, true] {
            assert_eq!(Comments::Drop.decide(false, kept), kept);
            assert_eq!(Comments::Keep.decide(false, kept), kept);
            assert!(!Comments::Drop.decide(true, kept));
            assert!(Comments::Keep.decide(true, kept));
            assert_eq!(Comments::Scored.decide(true, kept), kept);
        }
        assert_eq!("keep".parse::<Comments>().unwrap(), Comments::Keep);
        assert_eq!(Comments::default().to_string(), "drop");
    }

    #[test]
    fn ids_are_deterministic_and_36_chars() {
        let m = Meta {
            url: "http://example.org/a".into(),
            record_id: Some("<urn:uuid:1>".into()),
            ..Default::default()
        };
        let id = doc_id(&m);
        assert_eq!(id.len(), 36);
        assert!(id.starts_with("6209df8e22630794e94481e14df5d213"));
        assert_eq!(id, doc_id(&m));
        let other = Meta {
            record_id: Some("<urn:uuid:2>".into()),
            ..m.clone()
        };
        assert_eq!(&doc_id(&other)[..32], &id[..32]);
    }

    #[test]
    fn host_and_tld_from_urls() {
        assert_eq!(
            host_and_tld("https://user@WWW.Example.co.uk:8080/x?y"),
            ("www.example.co.uk".into(), "uk".into())
        );
        assert_eq!(
            host_and_tld("http://192.168.0.1/"),
            ("192.168.0.1".into(), "".into())
        );
        assert_eq!(host_and_tld(""), ("".into(), "".into()));
    }
}

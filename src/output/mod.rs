//! Writers: texrex XML corpus lines and VRT, JSON lines, run statistics.

pub mod filter;
pub mod gz;
pub mod inspect;
pub mod jsonl;
pub mod links;
pub mod markdown;
pub mod stats;
pub mod xml;

use crate::document::Block;
use crate::features::texrex::{format_general, write_general};
use crate::html::Kind;

/// One scorer's result for a block, as the writers print it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Score {
    Num(f64),
    Int(u32),
    Text(&'static str),
}

impl Score {
    /// The value as text: numbers as texrex prints them.
    pub fn text(&self) -> String {
        match *self {
            Score::Num(x) => format_general(x),
            Score::Int(n) => n.to_string(),
            Score::Text(t) => t.to_string(),
        }
    }

    /// Append [`Score::text`] to `out`.
    pub fn write_into(&self, out: &mut Vec<u8>) {
        match *self {
            Score::Num(x) => write_general(out, x),
            Score::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            Score::Text(t) => out.extend_from_slice(t.as_bytes()),
        }
    }

    pub fn json(&self) -> serde_json::Value {
        match *self {
            Score::Num(x) => serde_json::json!(x),
            Score::Int(n) => serde_json::json!(n),
            Score::Text(t) => serde_json::json!(t),
        }
    }
}

/// Every scorer's result for a block besides `bpv`, by the name the writers use (XML
/// attributes, JSON keys, TSV columns): `mlp` (texrex's MLP), `ngram` (NCleaner, bits per
/// character; absent when off or without letters), `justext` and `justextcf` (jusText's final
/// and context-free class), `stopwords` (stop-word density), `boilerpipe` (Algorithm 2) and
/// `bpdensity` (Algorithm 1), `linkdensity` and `textdensity` (boilerpipe's features).
pub fn block_scores(b: &Block) -> Vec<(&'static str, Score)> {
    let (stats, decisions) = b.boilerpipe;
    let bp = |content: bool| Score::Text(if content { "content" } else { "boilerplate" });
    let round = |x: f64| (x * 1e4).round() / 1e4;
    let mut out = vec![("mlp", Score::Num(b.mlp as f64))];
    if let Some(n) = b.ngram {
        out.push(("ngram", Score::Num(n as f64)));
    }
    out.extend([
        ("justext", Score::Text(b.justext.class.as_str())),
        ("justextcf", Score::Text(b.justext.context_free.as_str())),
        ("stopwords", Score::Num(round(b.justext.stopword_density))),
        ("boilerpipe", bp(decisions.num_words)),
        ("bpdensity", bp(decisions.densitometric)),
        ("linkdensity", Score::Num(round(stats.link_density()))),
        ("textdensity", Score::Num(round(stats.text_density))),
    ]);
    out
}

/// A block's kind by the names the writers use: `kind` ([`Kind::name`]), and `list` (`ol` or
/// `ul`) and `depth` of a list item, `row` and `col` of a table cell.
pub fn kind_fields(kind: Kind) -> Vec<(&'static str, Score)> {
    let mut out = vec![("kind", Score::Text(kind.name()))];
    if let (Some(list), Some(depth)) = (kind.list(), kind.depth()) {
        out.extend([
            ("list", Score::Text(list)),
            ("depth", Score::Int(depth.into())),
        ]);
    }
    if let Some((row, col)) = kind.cell() {
        out.extend([("row", Score::Int(row)), ("col", Score::Int(col))]);
    }
    out
}

/// The names of every score [`block_scores`] may give, in its order.
pub const SCORE_NAMES: [&str; 9] = [
    "mlp",
    "ngram",
    "justext",
    "justextcf",
    "stopwords",
    "boilerpipe",
    "bpdensity",
    "linkdensity",
    "textdensity",
];

//! Writers: texrex XML corpus lines and VRT, JSON lines, Parquet rows, run statistics.

pub mod filter;
pub mod gz;
pub mod inspect;
pub mod jsonl;
pub mod links;
pub mod markdown;
mod number;
pub mod parquet;
pub mod stats;
pub mod xml;

pub use number::format_general;

use std::sync::LazyLock;

use crate::classify::detector::{Column, Shown};
use crate::classify::registry;
use crate::document;
use crate::document::{Block, Language};
use number::write_general;

/// One scorer's result for a block, as the writers print it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Score {
    /// A number, printed as texrex prints numbers.
    Num(f64),
    /// A whole number.
    Int(u32),
    /// A name (a class, a verdict, a kind).
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
    pub(crate) fn write_into(&self, out: &mut Vec<u8>) {
        match *self {
            Score::Num(x) => write_general(out, x),
            Score::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            Score::Text(t) => out.extend_from_slice(t.as_bytes()),
        }
    }

    /// The value as JSON: a number or a string.
    pub fn json(&self) -> serde_json::Value {
        match *self {
            Score::Num(x) => serde_json::json!(x),
            Score::Int(n) => serde_json::json!(n),
            Score::Text(t) => serde_json::json!(t),
        }
    }
}

/// Every detector's values for a block that the writers print, by their columns' names
/// (XML attributes, JSON keys, TSV columns), in the detectors' order: `mlp`,
/// `ngram` (absent when off or without letters), `justext`, `justextcf`, `stopwords`,
/// `boilerpipe`, `bpdensity`, `linkdensity`, `textdensity`.
pub fn block_scores(b: &Block) -> impl Iterator<Item = (&'static str, Score)> + '_ {
    SHOWN.iter().filter_map(|&(column, at, k)| {
        let v = b.scores.get(at, k);
        let score = match column.shown {
            _ if v.is_nan() => return None,
            Shown::Number => Score::Num(v),
            Shown::Rounded => Score::Num((v * 1e4).round() / 1e4),
            Shown::Class(names) => Score::Text(names[v as usize]),
            Shown::Verdict => Score::Text(if v == 0.0 { "content" } else { "boilerplate" }),
            Shown::Hidden => return None,
        };
        Some((column.name, score))
    })
}

/// The columns the writers print, found once.
static SHOWN: LazyLock<Vec<(&Column, document::Cols, usize)>> =
    LazyLock::new(|| registry::shown_columns().collect());

/// The names of every score [`block_scores`] may give, in its order.
pub fn score_names() -> impl Iterator<Item = &'static str> {
    SHOWN.iter().map(|(c, _, _)| c.name)
}

/// A language identification's score as the writers print it: four decimal places.
pub fn language_score(language: &Language) -> f64 {
    (f64::from(language.score) * 1e4).round() / 1e4
}

/// A block's own language by the names the writers use: `language` (ISO 639-3) and
/// `language_score` (XML and VRT: `language-score`), for a block with enough letters.
pub fn block_language(b: &Block) -> impl Iterator<Item = (&'static str, Score)> {
    b.language.into_iter().flat_map(|l| {
        [
            ("language", Score::Text(l.code)),
            ("language_score", Score::Num(language_score(&l))),
        ]
    })
}

/// A quality signal's value as JSON: a whole number as an integer, any other at full
/// precision (a threshold applied to the output decides as it would on the value).
pub(crate) fn signal_json(v: f64) -> serde_json::Value {
    match crate::document::Signals::whole(v) {
        Some(n) => serde_json::json!(n),
        None => serde_json::json!(v),
    }
}

/// A block's kind by the names the writers use: `kind` ([`Block::kind_name`]: `comment` for
/// a comment block), and `list` (`ol` or `ul`) and `depth` of a list item, `row` and `col` of
/// a table cell (a comment block's too: a comment may be a list item).
pub fn kind_fields(b: &Block) -> impl Iterator<Item = (&'static str, Score)> {
    let kind = b.kind;
    let list = kind.list().zip(kind.depth());
    let cell = kind.cell();
    [
        Some(("kind", Score::Text(b.kind_name()))),
        list.map(|(list, _)| ("list", Score::Text(list))),
        list.map(|(_, depth)| ("depth", Score::Int(depth.into()))),
        cell.map(|(row, _)| ("row", Score::Int(row))),
        cell.map(|(_, col)| ("col", Score::Int(col))),
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::{jsonl, xml};
    use crate::analyze::DupBlocks;

    /// `process` renders a document on a worker before its writer knows whether it is a
    /// duplicate, and inserts the mark where the renderer says: that must give the bytes the
    /// renderer writes for the duplicate itself.
    #[test]
    fn a_mark_inserted_where_the_renderer_says_makes_the_duplicates_rendering() {
        let page = b"<html><head><title>T</title></head><body><p>Some text of a page, long \
                     enough to be a paragraph of its own & with an ampersand.</p></body></html>";
        let mut doc = crate::Extractor::builtin().extract(page, Some("http://a.example/x"));
        let id = "0123456789abcdef0123456789abcdef0a1b";
        type Render = fn(&mut Vec<u8>, &crate::document::Document) -> usize;
        type Mark = fn(&str) -> Vec<u8>;
        let formats: [(Render, Mark, &str); 3] = [
            (
                |o, d| xml::write_doc(o, d, xml::Lines::Xml, DupBlocks::Mark),
                xml::duplicate_mark,
                "duplicate-of=\"0123456789abcdef0123456789abcdef0a1b\">",
            ),
            (
                |o, d| xml::write_doc(o, d, xml::Lines::Vrt, DupBlocks::Mark),
                xml::duplicate_mark,
                "duplicate-of=\"0123456789abcdef0123456789abcdef0a1b\">",
            ),
            (
                |o, d| jsonl::write_doc(o, d, DupBlocks::Mark, Some(true)),
                jsonl::duplicate_mark,
                ",\"duplicate_of\":\"0123456789abcdef0123456789abcdef0a1b\"}\n",
            ),
        ];
        for (render, mark, shows) in formats {
            doc.duplicate_of = None;
            let mut plain = Vec::new();
            let at = render(&mut plain, &doc);
            doc.duplicate_of = Some(id.to_string());
            let mut marked = Vec::new();
            assert_eq!(render(&mut marked, &doc), at);
            let text = String::from_utf8(marked.clone()).unwrap();
            assert!(text.contains(shows), "{text}");
            plain.splice(at..at, mark(id));
            assert_eq!(String::from_utf8(plain).unwrap(), text);
        }
    }
}

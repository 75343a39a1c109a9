//! Parquet: a row per document, for the Hugging Face world (`datasets.load_dataset("parquet",
//! …)`, datatrove's `ParquetReader`, pyarrow, Spark, DuckDB).
//!
//! ```text
//! id  url  date  language  language_script  language_score  text  duplicate_of  markdown
//! metadata: {title, author, published, modified, sitename, canonical, description,
//!            declared_language, host, tld, bdv, bdc, nbc, nbcprop, nbd, nbdprop, avgbpc,
//!            avgbpd, bpt, warc_file, warc_record_id, offset, length, ip, http_date,
//!            last_modified, charset, declared_charset, doctype, truncated}
//! signals:  {gopher_words, …}   (every name of crate::document::SIGNALS, as doubles)
//! ```
//!
//! The fields are JSONL's ([`super::jsonl`]), less the blocks: `date` is the record's
//! WARC-Date, `metadata` holds the rest of the document's fields and its provenance (flat),
//! `signals` is null when they are off, `markdown` unless `--markdown`, `duplicate_of` but
//! for a duplicate; every other field JSONL leaves out is null. The schema is the same in every
//! file of every run, so that a directory of them is one dataset. Pages are zstd-compressed
//! (level 3; none with `--compression 0`), a row group holds at most [`GROUP_ROWS`] documents
//! or about [`GROUP_BYTES`] of their strings.
//!
//! The writer is the `parquet` cargo feature's (on by default, [`AVAILABLE`]); the rows are
//! made without it.

use std::sync::LazyLock;

use crate::classify::quality;
use crate::document::{Document, Language, SIGNALS};

/// Whether this build writes Parquet (the `parquet` feature).
pub const AVAILABLE: bool = cfg!(feature = "parquet");

/// A row group ends after this many documents …
pub const GROUP_ROWS: usize = 20_000;
/// … or once its strings reach this many bytes.
pub const GROUP_BYTES: usize = 64 << 20;

/// A leaf column's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    Str,
    F64,
    F32,
    I64,
}

/// A leaf column of the schema.
#[derive(Debug)]
struct Column {
    name: &'static str,
    ty: Ty,
    /// Its group (`metadata`, `signals`), `None` at the top.
    group: Option<&'static str>,
    /// Whether a row may have no value (the column or its group is optional).
    nullable: bool,
}

/// The top-level columns before the groups, and whether each is optional.
const TOP: [(&str, Ty, bool); 9] = [
    ("id", Ty::Str, false),
    ("url", Ty::Str, false),
    ("date", Ty::Str, true),
    ("language", Ty::Str, false),
    ("language_script", Ty::Str, true),
    ("language_score", Ty::F64, true),
    ("text", Ty::Str, false),
    ("duplicate_of", Ty::Str, true),
    ("markdown", Ty::Str, true),
];

/// Where `duplicate_of` is in a row.
const DUPLICATE_OF: usize = 7;

/// The `metadata` group's columns, and whether each is optional.
const METADATA: [(&str, Ty, bool); 30] = [
    ("title", Ty::Str, true),
    ("author", Ty::Str, true),
    ("published", Ty::Str, true),
    ("modified", Ty::Str, true),
    ("sitename", Ty::Str, true),
    ("canonical", Ty::Str, true),
    ("description", Ty::Str, true),
    ("declared_language", Ty::Str, true),
    ("host", Ty::Str, false),
    ("tld", Ty::Str, false),
    ("bdv", Ty::F64, false),
    ("bdc", Ty::Str, false),
    ("nbc", Ty::I64, false),
    ("nbcprop", Ty::F64, false),
    ("nbd", Ty::I64, false),
    ("nbdprop", Ty::F64, false),
    ("avgbpc", Ty::F64, false),
    ("avgbpd", Ty::F64, false),
    ("bpt", Ty::F32, false),
    ("warc_file", Ty::Str, false),
    ("warc_record_id", Ty::Str, true),
    ("offset", Ty::I64, false),
    ("length", Ty::I64, false),
    ("ip", Ty::Str, true),
    ("http_date", Ty::Str, true),
    ("last_modified", Ty::Str, true),
    ("charset", Ty::Str, false),
    ("declared_charset", Ty::Str, true),
    ("doctype", Ty::Str, false),
    ("truncated", Ty::Str, true),
];

/// Every leaf column, in the schema's order: [`TOP`], `metadata`, `signals`.
static COLUMNS: LazyLock<Vec<Column>> = LazyLock::new(|| {
    let top = TOP.iter().map(|&(name, ty, nullable)| Column {
        name,
        ty,
        group: None,
        nullable,
    });
    let metadata = METADATA.iter().map(|&(name, ty, nullable)| Column {
        name,
        ty,
        group: Some("metadata"),
        nullable,
    });
    // The group is optional (null when the signals are off), its values are not.
    let signals = SIGNALS.iter().map(|&name| Column {
        name,
        ty: Ty::F64,
        group: Some("signals"),
        nullable: true,
    });
    top.chain(metadata).chain(signals).collect()
});

/// The schema in Parquet's message syntax.
pub fn schema() -> String {
    let mut s = String::from("message document {\n");
    let mut open: Option<&str> = None;
    for c in COLUMNS.iter() {
        if c.group != open {
            if open.is_some() {
                s.push_str("  }\n");
            }
            if let Some(g) = c.group {
                // `metadata` is always there; `signals` is null when they are off.
                let rep = if g == "signals" {
                    "optional"
                } else {
                    "required"
                };
                s.push_str(&format!("  {rep} group {g} {{\n"));
            }
            open = c.group;
        }
        let indent = if c.group.is_some() { "    " } else { "  " };
        let rep = if c.nullable && c.group != Some("signals") {
            "optional"
        } else {
            "required"
        };
        let ty = match c.ty {
            Ty::Str => "binary",
            Ty::F64 => "double",
            Ty::F32 => "float",
            Ty::I64 => "int64",
        };
        let utf8 = if c.ty == Ty::Str { " (UTF8)" } else { "" };
        s.push_str(&format!("{indent}{rep} {ty} {}{utf8};\n", c.name));
    }
    if open.is_some() {
        s.push_str("  }\n");
    }
    s.push_str("}\n");
    s
}

/// One value of a row.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    /// No value.
    Null,
    Str(String),
    F64(f64),
    F32(f32),
    I64(i64),
}

/// A document as a row: a value (or none) per leaf column of [`schema`], in its order.
#[derive(Debug, Clone, PartialEq)]
pub struct Row(Vec<Cell>);

impl Row {
    /// The row of `doc`; `markdown`: with its Markdown, `Some(links)` with or without links.
    pub fn of(doc: &Document, markdown: Option<bool>) -> Row {
        let f = &doc.figures;
        let m = &doc.meta;
        let md = &doc.metadata;
        let bdv = doc.badness.unwrap_or(0.0);
        let s = |v: &str| Cell::Str(v.to_string());
        let opt = |v: Option<&str>| v.map_or(Cell::Null, |v| Cell::Str(v.to_string()));
        let mut cells = vec![
            s(&doc.id),
            s(&m.url),
            opt(m.warc_date.as_deref()),
            s(Language::code_of(doc.language.as_ref())),
            opt(doc.language.and_then(|l| l.script)),
            doc.language
                .as_ref()
                .map_or(Cell::Null, |l| Cell::F64(super::language_score(l))),
            Cell::Str(doc.text()),
            opt(doc.duplicate_of.as_deref()),
            markdown.map_or(Cell::Null, |links| {
                Cell::Str(super::markdown::write(doc, links))
            }),
            opt(md.title.as_deref()),
            opt(md.author.as_deref()),
            opt(md.published.as_deref()),
            opt(md.modified.as_deref()),
            opt(md.sitename.as_deref()),
            opt(md.canonical.as_deref()),
            opt(md.description.as_deref()),
            opt(md.declared_language.as_deref()),
            s(&doc.host),
            s(&doc.tld),
            Cell::F64(bdv),
            Cell::Str(quality::bdc(bdv).to_string()),
            Cell::I64(f.nbc as i64),
            Cell::F64(f.nbcprop),
            Cell::I64(f.nbd as i64),
            Cell::F64(f.nbdprop),
            Cell::F64(f.avgbpc),
            Cell::F64(f.avgbpd),
            Cell::F32(doc.threshold),
            s(&m.arcfile),
            opt(m.record_id.as_deref()),
            Cell::I64(m.arcoffset as i64),
            Cell::I64(m.arclength as i64),
            opt(m.ip.as_deref()),
            opt(m.http_date.as_deref()),
            opt(m.last_modified.as_deref()),
            s(&doc.source_charset),
            opt(doc.declared_charset.as_deref()),
            s(doc.doctype.as_str()),
            opt(m.truncated.as_deref()),
        ];
        match &doc.signals {
            Some(sig) => cells.extend(sig.values.iter().map(|&v| Cell::F64(v))),
            None => cells.extend(SIGNALS.iter().map(|_| Cell::Null)),
        }
        debug_assert_eq!(cells.len(), COLUMNS.len());
        Row(cells)
    }

    /// Mark the row as a duplicate of document `id`.
    pub(crate) fn mark_duplicate(&mut self, id: &str) {
        self.0[DUPLICATE_OF] = Cell::Str(id.to_string());
    }

    /// The bytes of its strings.
    #[cfg(feature = "parquet")]
    fn string_bytes(&self) -> usize {
        self.0
            .iter()
            .map(|c| match c {
                Cell::Str(s) => s.len(),
                _ => 0,
            })
            .sum()
    }
}

#[cfg(feature = "parquet")]
pub use writer::Writer;

#[cfg(feature = "parquet")]
mod writer {
    use std::io::{self, Write};
    use std::sync::Arc;

    use parquet::basic::{Compression, ZstdLevel};
    use parquet::column::writer::ColumnWriter;
    use parquet::data_type::ByteArray;
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;

    use super::{COLUMNS, Cell, GROUP_BYTES, GROUP_ROWS, Row};

    /// A Parquet file of [`Row`]s, written a row group at a time.
    pub struct Writer<W: Write + Send> {
        file: SerializedFileWriter<W>,
        rows: Vec<Row>,
        bytes: usize,
        /// Rows of a row group ([`GROUP_ROWS`]).
        group_rows: usize,
    }

    fn err(e: parquet::errors::ParquetError) -> io::Error {
        io::Error::other(e)
    }

    impl<W: Write + Send> Writer<W> {
        /// A file written to `out`, its pages zstd-compressed unless `compress` is false.
        pub fn new(out: W, compress: bool) -> io::Result<Writer<W>> {
            Writer::with_group_rows(out, compress, GROUP_ROWS)
        }

        /// [`Writer::new`] with row groups of `group_rows` rows at most.
        fn with_group_rows(out: W, compress: bool, group_rows: usize) -> io::Result<Writer<W>> {
            let schema = parquet::schema::parser::parse_message_type(&super::schema())
                .expect("the schema parses");
            let compression = if compress {
                Compression::ZSTD(ZstdLevel::try_new(3).expect("a zstd level"))
            } else {
                Compression::UNCOMPRESSED
            };
            let props = WriterProperties::builder()
                .set_compression(compression)
                .build();
            let file =
                SerializedFileWriter::new(out, Arc::new(schema), Arc::new(props)).map_err(err)?;
            Ok(Writer {
                file,
                rows: Vec::new(),
                bytes: 0,
                group_rows,
            })
        }

        /// Append a row; a row group is written once enough are in.
        pub fn push(&mut self, row: Row) -> io::Result<()> {
            self.bytes += row.string_bytes();
            self.rows.push(row);
            if self.rows.len() >= self.group_rows || self.bytes >= GROUP_BYTES {
                self.flush()?;
            }
            Ok(())
        }

        /// Write the rows in as a row group.
        fn flush(&mut self) -> io::Result<()> {
            if self.rows.is_empty() {
                return Ok(());
            }
            let mut group = self.file.next_row_group().map_err(err)?;
            for (i, col) in COLUMNS.iter().enumerate() {
                let mut w = group
                    .next_column()
                    .map_err(err)?
                    .expect("a column writer per leaf");
                let defs: Option<Vec<i16>> = col.nullable.then(|| {
                    self.rows
                        .iter()
                        .map(|r| i16::from(!matches!(r.0[i], Cell::Null)))
                        .collect()
                });
                let defs = defs.as_deref();
                let cells = self
                    .rows
                    .iter_mut()
                    .map(|r| std::mem::replace(&mut r.0[i], Cell::Null));
                // The values of variant `$cell` (converted by `$into`), written by `$writer`.
                macro_rules! values {
                    ($writer:expr, $cell:ident, $into:expr) => {{
                        let v: Vec<_> = cells
                            .filter_map(|c| match c {
                                Cell::$cell(x) => Some($into(x)),
                                _ => None,
                            })
                            .collect();
                        $writer.write_batch(&v, defs, None)
                    }};
                }
                match w.untyped() {
                    ColumnWriter::ByteArrayColumnWriter(c) => {
                        values!(c, Str, |s: String| ByteArray::from(s.into_bytes()))
                    }
                    ColumnWriter::DoubleColumnWriter(c) => values!(c, F64, f64::from),
                    ColumnWriter::FloatColumnWriter(c) => values!(c, F32, f32::from),
                    ColumnWriter::Int64ColumnWriter(c) => values!(c, I64, i64::from),
                    _ => unreachable!("the schema has strings, doubles, floats and int64s"),
                }
                .map_err(err)?;
                w.close().map_err(err)?;
            }
            group.close().map_err(err)?;
            self.rows.clear();
            self.bytes = 0;
            Ok(())
        }

        /// Write the rows still in and the footer; returns the output.
        pub fn finish(mut self) -> io::Result<W> {
            self.flush()?;
            self.file.into_inner().map_err(err)
        }
    }

    #[cfg(test)]
    mod tests {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::Field;

        use super::super::{COLUMNS, Cell, Row, Ty};
        use super::Writer;
        use crate::document::Document;

        fn page(i: usize, text: &str) -> Document {
            let html = format!(
                "<html><head><title>Page {i}</title></head><body><p>{text}</p></body></html>"
            );
            crate::Extractor::builtin()
                .extract(html.as_bytes(), Some(&format!("http://a.example/{i}")))
        }

        const TEXT: &str = "A paragraph long enough to be the content of its page, with a few \
                            words that repeat: the cat sat on the mat, the cat sat on the mat.";

        /// A document's row has a value of its column's type for every column, and no value
        /// only where the column may have none.
        #[test]
        fn a_row_fits_the_schema() {
            let row = Row::of(&page(0, TEXT), Some(true));
            assert_eq!(row.0.len(), COLUMNS.len());
            for (c, col) in row.0.iter().zip(COLUMNS.iter()) {
                let ty = match c {
                    Cell::Null => {
                        assert!(col.nullable, "{} is null", col.name);
                        continue;
                    }
                    Cell::Str(_) => Ty::Str,
                    Cell::F64(_) => Ty::F64,
                    Cell::F32(_) => Ty::F32,
                    Cell::I64(_) => Ty::I64,
                };
                assert_eq!(ty, col.ty, "{}", col.name);
            }
            let schema =
                parquet::schema::parser::parse_message_type(&super::super::schema()).unwrap();
            let leaves = parquet::schema::types::SchemaDescriptor::new(schema.into()).num_columns();
            assert_eq!(leaves, COLUMNS.len());
        }

        /// Rows written in row groups read back as written, with nulls, the duplicate mark and
        /// the signals; the same rows give the same bytes.
        #[test]
        fn rows_read_back_as_written() {
            let docs: Vec<Document> = (0..5).map(|i| page(i, TEXT)).collect();
            let write = || {
                let mut w = Writer::with_group_rows(Vec::new(), true, 2).unwrap();
                for (i, d) in docs.iter().enumerate() {
                    let mut d = d.clone();
                    if i == 4 {
                        d.signals = None;
                    }
                    let mut row = Row::of(&d, None);
                    if i == 3 {
                        row.mark_duplicate(&docs[0].id);
                    }
                    w.push(row).unwrap();
                }
                w.finish().unwrap()
            };
            let bytes = write();
            assert_eq!(bytes, write(), "the same rows, the same bytes");
            let reader = SerializedFileReader::new(bytes::Bytes::from(bytes)).unwrap();
            assert_eq!(reader.metadata().num_row_groups(), 3);
            let rows: Vec<_> = reader
                .get_row_iter(None)
                .unwrap()
                .map(|r| r.unwrap())
                .collect();
            assert_eq!(rows.len(), 5);
            for (i, (row, doc)) in rows.iter().zip(&docs).enumerate() {
                let field = |name: &str| {
                    row.get_column_iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, f)| f.clone())
                        .unwrap()
                };
                assert_eq!(field("id"), Field::Str(doc.id.clone()));
                assert_eq!(field("text"), Field::Str(doc.text()));
                assert!(doc.text().contains("the cat sat on the mat"));
                assert_eq!(field("markdown"), Field::Null);
                let dup = if i == 3 {
                    Field::Str(docs[0].id.clone())
                } else {
                    Field::Null
                };
                assert_eq!(field("duplicate_of"), dup);
                let Field::Group(meta) = field("metadata") else {
                    panic!("metadata is a group")
                };
                let title = meta
                    .get_column_iter()
                    .find(|(n, _)| *n == "title")
                    .unwrap()
                    .1;
                assert_eq!(title, &Field::Str(format!("Page {i}")));
                match field("signals") {
                    Field::Null => assert_eq!(i, 4),
                    Field::Group(sig) => {
                        let signals = doc.signals.as_ref().unwrap();
                        let got: Vec<(String, Field)> = sig
                            .get_column_iter()
                            .map(|(n, f)| (n.clone(), f.clone()))
                            .collect();
                        let want: Vec<(String, Field)> = signals
                            .iter()
                            .map(|(n, v)| (n.to_string(), Field::Double(v)))
                            .collect();
                        assert_eq!(got, want);
                        assert!(signals.get("gopher_words").unwrap() > 20.0);
                    }
                    other => panic!("signals: {other:?}"),
                }
            }
        }
    }
}

/// Without the `parquet` feature: a writer that cannot be made.
#[cfg(not(feature = "parquet"))]
pub struct Writer<W>(std::marker::PhantomData<W>);

#[cfg(not(feature = "parquet"))]
impl<W: std::io::Write + Send> Writer<W> {
    /// Always an error: this build has no Parquet writer.
    pub fn new(_out: W, _compress: bool) -> std::io::Result<Writer<W>> {
        Err(std::io::Error::other(UNAVAILABLE))
    }

    /// Never called: there is no writer.
    pub fn push(&mut self, _row: Row) -> std::io::Result<()> {
        Err(std::io::Error::other(UNAVAILABLE))
    }

    /// Never called: there is no writer.
    pub fn finish(self) -> std::io::Result<W> {
        Err(std::io::Error::other(UNAVAILABLE))
    }
}

/// Why a build without the `parquet` feature writes no Parquet.
pub const UNAVAILABLE: &str =
    "this cowrex was built without Parquet output (the `parquet` cargo feature)";

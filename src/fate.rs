//! What becomes of a record: written, skipped and why, or failed and why. The names are
//! stable: they key `fates` and `fate_bytes` in the statistics files and the Python API's
//! stream statistics.

/// What became of one WARC record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fate {
    /// A document was written.
    Written,
    /// Neither a `response` record nor a `resource` record (a page captured without its HTTP
    /// exchange), nor a `revisit`.
    NotResponse,
    /// A `revisit` record: a capture that repeats an earlier one, without its payload.
    Revisit,
    /// An HTTP status other than 2xx.
    HttpStatus,
    /// Not HTML by its media type (or, without one, by its first bytes).
    NotHtml,
    /// Binary data served as HTML (judged after a `Content-Encoding` is undone).
    Binary,
    /// Compressed with an encoding cowrex cannot undo.
    ContentEncoded,
    /// The record's block, or its payload once inflated, is over `--max-payload`.
    PayloadTooLarge,
    /// No text at all.
    NoText,
    /// A cap stopped the page's segmentation before any text.
    Capped,
    /// Rejected by the document filter (`--filter`).
    Filtered,
    /// Badness above `--max-badness`.
    BadQuality,
    /// Its text equals an earlier document's of the same input (`--exact-dups skip`).
    Duplicate,
    /// The record's block could not be read.
    ReadError,
    /// Its `Content-Encoding` could not be undone although it looked encoded.
    ContentDecodingError,
    /// Analysing it panicked (a bug; the record is dropped, the run goes on).
    Panic,
}

impl Fate {
    /// Every fate, in the order of the documentation.
    pub const ALL: [Fate; 16] = [
        Fate::Written,
        Fate::NotResponse,
        Fate::Revisit,
        Fate::HttpStatus,
        Fate::NotHtml,
        Fate::Binary,
        Fate::ContentEncoded,
        Fate::PayloadTooLarge,
        Fate::NoText,
        Fate::Capped,
        Fate::Filtered,
        Fate::BadQuality,
        Fate::Duplicate,
        Fate::ReadError,
        Fate::ContentDecodingError,
        Fate::Panic,
    ];

    /// The stable name: `written`, `skipped.<reason>` or `error.<reason>`.
    pub fn name(self) -> &'static str {
        match self {
            Fate::Written => "written",
            Fate::NotResponse => "skipped.not_response",
            Fate::Revisit => "skipped.revisit",
            Fate::HttpStatus => "skipped.http_status",
            Fate::NotHtml => "skipped.not_html",
            Fate::Binary => "skipped.binary",
            Fate::ContentEncoded => "skipped.content_encoded",
            Fate::PayloadTooLarge => "skipped.payload_too_large",
            Fate::NoText => "skipped.no_text",
            Fate::Capped => "skipped.capped",
            Fate::Filtered => "skipped.filtered",
            Fate::BadQuality => "skipped.bad_quality",
            Fate::Duplicate => "skipped.duplicate",
            Fate::ReadError => "error.read",
            Fate::ContentDecodingError => "error.content_decoding",
            Fate::Panic => "error.panic",
        }
    }
}

impl std::fmt::Display for Fate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_well_formed() {
        let names: std::collections::BTreeSet<&str> = Fate::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names.len(), Fate::ALL.len());
        for f in Fate::ALL {
            let n = f.name();
            assert!(
                n == "written" || n.starts_with("skipped.") || n.starts_with("error."),
                "{n}"
            );
            assert_eq!(f.to_string(), n);
        }
    }
}

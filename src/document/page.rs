//! What segmentation and decoding say of a page as a whole: its doctype, where its charset
//! came from, why segmentation stopped early.

/// Document type found in the part before `<body>` (texrex's regexes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Doctype {
    /// None of texrex's patterns matched.
    #[default]
    Unknown,
    /// XHTML 1.
    Xhtml,
    /// HTML 4.
    Html4,
    /// HTML5 (`<!doctype html>`).
    Html5,
}

impl Doctype {
    /// Name as written in `sourcedoctype`.
    pub fn as_str(self) -> &'static str {
        match self {
            Doctype::Unknown => "UNKNOWN",
            Doctype::Xhtml => "XHTML",
            Doctype::Html4 => "HTML4",
            Doctype::Html5 => "HTML5",
        }
    }
}

/// Why segmentation stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    /// More open elements than [`Limits::max_depth`](crate::html::Limits::max_depth).
    Depth,
    /// More blocks than [`Limits::max_blocks`](crate::html::Limits::max_blocks).
    Blocks,
    /// More work than [`Limits::max_work`](crate::html::Limits::max_work).
    Work,
}

impl Cap {
    /// The cap's name in the statistics (`capped`).
    pub fn name(self) -> &'static str {
        match self {
            Cap::Depth => "depth",
            Cap::Blocks => "blocks",
            Cap::Work => "work",
        }
    }
}

/// Where a page's encoding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharsetEvidence {
    /// A byte-order mark.
    Bom,
    /// The `charset` parameter of the HTTP `Content-Type`.
    Http,
    /// A `<meta>` charset declaration in the first 8 KiB.
    Meta,
    /// The bytes themselves: they are valid UTF-8 with multi-byte characters although the
    /// HTTP header or a `<meta>` declares another charset, which the
    /// document's `declared_charset` keeps.
    ValidUtf8,
    /// None of those: valid UTF-8, else `chardetng`'s guess.
    Detected,
}

impl CharsetEvidence {
    /// The name in the statistics' `charset_evidence`: `bom`, `http`, `meta`, `valid_utf8` or
    /// `detected`.
    pub fn name(self) -> &'static str {
        match self {
            CharsetEvidence::Bom => "bom",
            CharsetEvidence::Http => "http",
            CharsetEvidence::Meta => "meta",
            CharsetEvidence::ValidUtf8 => "valid_utf8",
            CharsetEvidence::Detected => "detected",
        }
    }
}

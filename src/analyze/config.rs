//! The settings of document analysis ([`Config`]): the threshold, caps, filter, what is
//! computed, and how blocks and text are written.

use crate::classify::detector::Favor;
use crate::document::Comments;
use crate::html::{Limits, Syntax};

/// What happens to blocks whose text repeats an earlier block's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum DupBlocks {
    /// Written as `<dup idx="…" of="…">` (texrex).
    #[default]
    Mark,
    /// Not written.
    Drop,
    /// Not detected: written as ordinary blocks.
    Keep,
}

crate::choice::choice!(DupBlocks, "dup_blocks", [
    DupBlocks::Mark, "mark", "written as <dup idx of> (texrex)";
    DupBlocks::Drop, "drop", "left out";
    DupBlocks::Keep, "keep", "not detected: written as ordinary blocks";
]);

/// texrex's document filter (`DecideThreshs`); off unless configured.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct DocFilter {
    /// Fewest content blocks ([`super::DocFigures::nbd`]).
    pub min_divs: usize,
    /// Fewest characters in content blocks ([`super::DocFigures::nbc`]).
    pub min_chars: usize,
    /// Lowest share of characters in content blocks ([`super::DocFigures::nbcprop`]).
    pub min_char_prop: f64,
    /// Lowest share of blocks that are content ([`super::DocFigures::nbdprop`]).
    pub min_div_prop: f64,
}

impl Default for DocFilter {
    /// texrex's INI values: 1 block, 500 characters, 0.25 and 0.1.
    fn default() -> Self {
        DocFilter {
            min_divs: 1,
            min_chars: 500,
            min_char_prop: 0.25,
            min_div_prop: 0.1,
        }
    }
}

/// Analysis settings.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Config {
    /// A block with `bpv` above this is boilerplate; `None`: each document's own
    /// threshold: where the page's expected F is highest ([`Favor`]'s β) for a decision of
    /// calibrated probabilities (the combined model's), else 0.5.
    pub threshold: Option<f32>,
    /// What that threshold favours, where it is the expected-F cut ([`Favor`]).
    pub favor: Favor,
    /// Whether comment blocks are content ([`Comments`]).
    pub comments: Comments,
    /// Caps that bound segmentation's work per document.
    pub limits: Limits,
    /// How the segmenter recognises tags.
    pub syntax: Syntax,
    /// texrex's document filter; `None`: off.
    pub filter: Option<DocFilter>,
    /// Documents with a badness above this are skipped (`skipped.bad_quality`).
    pub max_badness: Option<f64>,
    /// Blocks of at least this many bytes (and `bpv` ≤ the threshold) are the content that
    /// shingles and badness are computed from (texrex's `MinLength`, 100).
    pub min_length: usize,
    /// Compute each document's min-hash fingerprint ([`super::Document::shingles`]).
    pub shingles: bool,
    /// Extract links ([`super::Document::links`]).
    pub links: bool,
    /// Compute each document's quality signals ([`super::Document::signals`]).
    pub signals: bool,
    /// What happens to blocks whose text repeats an earlier block's.
    pub dup_blocks: DupBlocks,
    /// JSONL documents have a `markdown` field: `Some(links)`, with links or without.
    pub markdown: Option<bool>,
    /// What the output text masks (texrex's placeholders), [`super::Block::text`].
    pub mask: Mask,
    /// The output text is texrex's second-pass text ([`super::Block::cleansed`]) instead of the
    /// page's: texrex's output, for comparisons with texrex's corpora.
    pub texrex_text: bool,
    /// Blocks keep their inline markup ([`super::Block::marked`]) for Markdown's emphasis, code
    /// spans and links; without it Markdown has the blocks' plain text.
    pub marks: bool,
}

/// What the output text masks with texrex's placeholders (`emailblank`, `uriblank`,
/// `hashtagblank`), by texrex's patterns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Mask {
    /// E-mail addresses become `emailblank`.
    pub email: bool,
    /// URIs become `uriblank`.
    pub uri: bool,
    /// Hashtags become `hashtagblank`.
    pub hashtag: bool,
}

crate::choice::choice_set!(Mask, "mask", [
    email, "email", "e-mail addresses";
    uri, "uri", "URIs (scheme://… and www.…)";
    hashtag, "hashtag", "hashtags";
]);

impl Mask {
    /// Whether anything is masked.
    pub fn any(self) -> bool {
        self.email || self.uri || self.hashtag
    }
}

impl Config {
    /// Check what a caller may set wrong, with the error every entry point (the command line,
    /// [`Builder`](crate::Builder), Python) gives: a fixed threshold is a share between 0 and 1.
    pub fn validate(&self) -> Result<(), crate::Error> {
        if let Some(t) = self.threshold
            && !(0.0..=1.0).contains(&t)
        {
            return Err(crate::Error::usage(format!(
                "invalid value '{t}' for threshold: a share between 0 and 1"
            )));
        }
        Ok(())
    }

    /// The defaults without the work that no block's score depends on (the quality
    /// signals): what training and evaluation analyse pages with.
    pub fn for_scores() -> Config {
        Config {
            signals: false,
            ..Config::default()
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threshold: None,
            favor: Favor::Balanced,
            comments: Comments::Drop,
            limits: Limits::default(),
            syntax: Syntax::Html5,
            filter: None,
            max_badness: None,
            min_length: 100,
            shingles: true,
            links: false,
            signals: true,
            dup_blocks: DupBlocks::Mark,
            markdown: None,
            mask: Mask::default(),
            texrex_text: false,
            marks: true,
        }
    }
}

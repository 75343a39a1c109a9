//! The block every detector scores: its text in the forms the writers and the scorers read,
//! its features and cues, and its score table.

use super::{Kind, Language, Scores};

/// Number of texrex's block features.
pub const N_FEATURES: usize = 37;

/// texrex's block features in texrex's order (`cowrex features --texrex` prints them by name).
pub type Features = [f64; N_FEATURES];

/// texrex's boilerplate class (`bpc`) of a `bpv`: `a` + round(10·bpv) with round-half-to-even
/// (texrex's FPC `Round`), `a` for bpv ≤ 0: `a` (0) to `k` (1) in steps of 0.1.
pub fn bpc(bpv: f32) -> char {
    if bpv <= 0.0 {
        return 'a';
    }
    let r = (bpv.min(1.0) as f64 * 10.0).round_ties_even() as u8;
    (b'a' + r) as char
}

/// One text block that survived segmentation and the second pass.
#[derive(Debug, Clone)]
pub struct Block {
    /// Index among all blocks of the document (texrex's `idx`, gaps for invalid blocks).
    pub idx: usize,
    /// The text as the page shows it: entities decoded once, whitespace collapsed except in
    /// preformatted text, a line break for each `<br>`, soft hyphens and zero-width spaces
    /// removed, trimmed, NFC. What every output writes.
    pub text: String,
    /// The text with the segmenter's marks (`html::mark`) of emphasis, code and links, when it has
    /// any and [`Config::marks`](crate::analyze::Config::marks) asks for them (what
    /// the Markdown writer writes from).
    pub marked: Option<String>,
    /// The targets of its links (`href`s, entities decoded), in the order of their marks.
    pub links: Vec<String>,
    /// texrex's second-pass text (entities decoded twice, tags, e-mail addresses, URIs and hashtags masked, whitespace
    /// collapsed): what the scorers read and were trained on.
    pub cleansed: String,
    /// What it is: heading, paragraph, list item, table cell, … ([`Kind`]).
    pub kind: Kind,
    /// It belongs to the page's comment section (the comment detector's verdict,
    /// `crate::classify::comment`); the writers call its kind `comment`
    /// ([`Block::kind_name`]).
    pub comment: bool,
    /// texrex's 37 block features in texrex's order (`cowrex features --texrex` prints them),
    /// the MLP's inputs.
    pub features: Features,
    /// Boilerplate score of the deciding scorer (`--scorer`; 0 = content, 1 = boilerplate).
    pub bpv: f32,
    /// Every detector's values (the registry's `DETECTORS`); each detector's file reads
    /// its own.
    pub scores: Scores,
    /// Its words, link words and text density (boilerpipe's features, which the detectors and
    /// the expected-F1 threshold count with).
    pub stats: WordStats,
    /// Structural cues (`html::cue` bits).
    pub cues: u32,
    /// Those of its innermost elements alone (`html::RawBlock::near_cues`).
    pub near_cues: u32,
    /// Bytes of the segmenter's text inside links (jusText's link density)…
    pub link_bytes: u32,
    /// …and of all of it.
    pub raw_bytes: u32,
    /// The block starts a jusText paragraph.
    pub paragraph_start: bool,
    /// The path of tag names and classes to its first text (`html::RawBlock::path`).
    pub path: u64,
    /// Open elements around its first text.
    pub depth: u16,
    /// The words of the `class` and `id` values around its first text
    /// (`html::RawBlock::markup`).
    pub markup: Vec<u32>,
    /// Characters (code points) of `cleansed` (texrex's figures count these).
    pub chars: usize,
    /// `idx` of an earlier block with the same text (texrex's in-document duplicates).
    pub dup_of: Option<usize>,
    /// Its own identified language, when it has enough letters
    /// (30 letters).
    pub language: Option<Language>,
    /// For a content block with a line that C4's rules drop, each of its lines' C4 fate
    /// (`kept`, `no_terminal_punc`, …; `crate::signals::C4Line`), joined by `,`.
    pub c4: Option<std::borrow::Cow<'static, str>>,
}

impl Block {
    /// Its kind's name in every output: `comment` for a comment block, else its
    /// [`Kind::name`].
    pub fn kind_name(&self) -> &'static str {
        if self.comment {
            "comment"
        } else {
            self.kind.name()
        }
    }

    /// texrex's boilerplate class of its `bpv`: `a` (0) to `k` (1) in steps of 0.1.
    pub fn bpc(&self) -> char {
        bpc(self.bpv)
    }
}

/// A block's words, link words and text density: boilerpipe's shallow text features, which
/// the detectors and the expected-F1 threshold count with.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WordStats {
    /// Words, as every detector counts them.
    pub words: u32,
    /// Of those, the words inside links.
    pub link_words: u32,
    /// Words per line wrapped at 80 columns (`crate::classify::boilerpipe::WRAP`), the last
    /// line left out unless it is the only one.
    pub text_density: f64,
}

impl WordStats {
    /// Share of the words inside links (0 for an empty block).
    pub fn link_density(&self) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            self.link_words as f64 / self.words as f64
        }
    }
}

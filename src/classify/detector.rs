//! What a detector is. A detector scores a page's blocks and writes its values into its
//! columns of each block's score table ([`Scores`]); its [`Decision`]s turn its values into a
//! block's `bpv` (0 content, 1 boilerplate). The registry ([`super::registry`]) runs the
//! detectors in order, each reading the columns of those before it; `process --scorer` and
//! `eval --scorer` choose a decision, the writers print the columns, and the combined model
//! reads them.
//!
//! One detector is one file: its algorithm, a unit type implementing [`Detector`], its place
//! in the table, and functions that read its values from a block for the detectors and
//! writers after it. Adding one touches its file and one line of the registry
//! (`docs/architecture.md`).

use super::page_text::PageText;
use super::{Block, Models};

/// A boilerplate detector.
pub trait Detector: Sync {
    /// Its name, unique among the detectors: the key of its columns in the table.
    fn name(&self) -> &'static str;
    /// The per-block values it writes, in order.
    fn columns(&self) -> &'static [Column];
    /// Where its columns are in the table: right after those of the detector before it in
    /// the registry (a test checks).
    fn at(&self) -> Cols;
    /// Score a page's blocks: write its columns of every block. The columns of the detectors
    /// before it in the registry are written.
    fn score(&self, blocks: &mut [Block], page: &Page<'_>);
    /// The ways it can decide what is boilerplate (none: it only informs others).
    fn decisions(&self) -> &'static [Decision] {
        &[]
    }
    /// Whether it runs on every page; `false`: only when one of its decisions decides (a
    /// detector that others do not read and that costs time).
    fn always(&self) -> bool {
        true
    }
}

/// What a detector reads besides the blocks.
#[derive(Debug, Clone, Copy)]
pub struct Page<'a> {
    /// The run's models.
    pub models: &'a Models,
    /// The page's identified language (`None` when no model needs it or none was found).
    pub language: Option<whatlang::Lang>,
    /// The page's regions ([`crate::document::Document::regions`]).
    pub regions: &'a [(u32, u32)],
    /// What the page says of itself outside its blocks.
    pub text: &'a PageText,
}

/// One per-block value a detector writes, by the name the writers use (XML attribute, JSON
/// key, TSV column) and how they show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Its name in the writers' output.
    pub name: &'static str,
    /// How the writers show its value.
    pub shown: Shown,
}

/// How the writers show a column's value. A block without a value (NaN) has none written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// A number as texrex prints it.
    Number,
    /// A number rounded to four decimal places.
    Rounded,
    /// The name at the value's index.
    Class(&'static [&'static str]),
    /// 0 as `content`, 1 as `boilerplate`.
    Verdict,
    /// Not written: read by later detectors and the inspector.
    Hidden,
}

/// One way of deciding what is boilerplate from a detector's values.
#[derive(Debug)]
pub struct Decision {
    /// `--scorer`'s value for it.
    pub name: &'static str,
    /// What it keeps, in a few words (help texts, the inspector, `eval`'s report).
    pub about: &'static str,
    /// A block's `bpv` under it: 0 content … 1 boilerplate.
    pub bpv: fn(&Block) -> f32,
    /// Where it cuts when no threshold is configured.
    pub cut: Cut,
}

/// Where a decision cuts a page's blocks when no threshold is configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// At 0.5.
    Half,
    /// At the page's expected-F threshold ([`crate::document::expected_f_threshold`]), with
    /// the β of the configured [`Favor`]: for calibrated probabilities.
    ExpectedF,
}

/// What the expected-F cut ([`Cut::ExpectedF`]) favours: the same model and scores, another
/// rule for where a page is cut. Each keeps the blocks that maximise the page's expected F_β
/// of the content: β = 1 balances precision and recall, β = ½ weighs precision twice as much
/// (less boilerplate, for corpus builders who would rather lose a paragraph than keep a menu),
/// β = 2 weighs recall twice as much. Decisions cut at 0.5 ([`Cut::Half`]) do not change.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Favor {
    /// β = ½: less boilerplate, less content.
    Precision,
    /// β = 1, the default.
    #[default]
    Balanced,
    /// β = 2: more content, more boilerplate.
    Recall,
}

impl Favor {
    /// Every value, in the order of precision first.
    pub const ALL: [Favor; 3] = [Favor::Precision, Favor::Balanced, Favor::Recall];

    /// The β of the expected F_β.
    pub fn beta(self) -> f64 {
        match self {
            Favor::Precision => 0.5,
            Favor::Balanced => 1.0,
            Favor::Recall => 2.0,
        }
    }

    /// Its name, as `--favor` and Python's `favor=` take it.
    pub fn name(self) -> &'static str {
        match self {
            Favor::Precision => "precision",
            Favor::Balanced => "balanced",
            Favor::Recall => "recall",
        }
    }

    /// The value of a name ([`Favor::name`]).
    pub fn from_name(name: &str) -> Option<Favor> {
        Favor::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Room for columns in a block's table; a test checks the registry's detectors fit.
pub const MAX_COLUMNS: usize = 20;

/// A block's score table: every detector's values at the places it says ([`Detector::at`]); NaN
/// where a detector wrote none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scores([f64; MAX_COLUMNS]);

impl Default for Scores {
    fn default() -> Self {
        Scores([f64::NAN; MAX_COLUMNS])
    }
}

impl Scores {
    /// Column `k` of a detector's columns `at`.
    pub fn get(&self, at: Cols, k: usize) -> f64 {
        debug_assert!(k < at.len);
        self.0[at.start + k]
    }

    /// Set column `k` of a detector's columns `at`.
    pub fn set(&mut self, at: Cols, k: usize, value: f64) {
        debug_assert!(k < at.len);
        self.0[at.start + k] = value;
    }
}

/// Where a detector's columns are in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cols {
    start: usize,
    len: usize,
}

impl Cols {
    /// `len` columns from `start`.
    pub const fn new(start: usize, len: usize) -> Cols {
        Cols { start, len }
    }
}

/// 0.0 when `content`, else 1.0: a yes-or-no decision as a `bpv`.
pub fn verdict(content: bool) -> f32 {
    if content { 0.0 } else { 1.0 }
}

//! Detectors and their registry. A detector scores a page's blocks and writes its values into
//! each block's score table ([`Scores`]); [`DETECTORS`] lists them in the order they run, each
//! reading the columns of those before it. A detector's [`Decision`]s turn its values into a
//! block's `bpv` (0 content, 1 boilerplate): `process --scorer` and `eval --scorer` choose one,
//! the writers print the columns, and the combined model reads them.
//!
//! One detector is one file: its algorithm, a unit type implementing [`Detector`], and
//! functions that read its values from a block's table for the detectors and writers after it.
//! Adding one touches its file and one line of [`DETECTORS`] (`docs/architecture.md`).

use std::sync::LazyLock;

use super::combined::PageText;
use super::{Block, Models, boilerpipe, combined, justext, markup, mlp, ngram};

/// Every detector, in the order they run.
pub static DETECTORS: [&dyn Detector; 6] = [
    &mlp::Detector,
    &ngram::Detector,
    &markup::Detector,
    &justext::Detector,
    &boilerpipe::Detector,
    &combined::Detector,
];

/// A boilerplate detector.
pub trait Detector: Sync {
    /// Its name, unique among the detectors: the key of its columns in the table.
    fn name(&self) -> &'static str;
    /// The per-block values it writes, in order.
    fn columns(&self) -> &'static [Column];
    /// Score a page's blocks: write its columns (at `at` in the table) of every block. The
    /// columns of the detectors before it in [`DETECTORS`] are written.
    fn score(&self, blocks: &mut [Block], page: &Page<'_>, at: Cols);
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
    /// At the page's expected-F1 threshold ([`crate::document::f1_threshold`]): for
    /// calibrated probabilities.
    ExpectedF1,
}

/// Room for columns in a block's table; a test checks [`DETECTORS`] fit.
pub const MAX_COLUMNS: usize = 20;

/// A block's score table: every detector's values at the places [`cols`] gives; NaN where a
/// detector wrote none.
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

/// The start of each detector's columns, in [`DETECTORS`]' order.
static LAYOUT: LazyLock<Vec<Cols>> = LazyLock::new(|| {
    let mut start = 0;
    let layout: Vec<Cols> = DETECTORS
        .iter()
        .map(|d| {
            let at = Cols {
                start,
                len: d.columns().len(),
            };
            start += at.len;
            at
        })
        .collect();
    assert!(
        start <= MAX_COLUMNS,
        "the detectors' columns do not fit a block's table"
    );
    layout
});

/// Where the columns of the detector named `name` are. Panics for a name no detector has (a
/// detector asks for its own or another's columns by a name written in the code).
pub fn cols(name: &str) -> Cols {
    let i = DETECTORS
        .iter()
        .position(|d| d.name() == name)
        .unwrap_or_else(|| panic!("no detector is named {name:?}"));
    LAYOUT[i]
}

/// Every decision of every detector, in [`DETECTORS`]' order.
pub fn decisions() -> impl Iterator<Item = &'static Decision> {
    DETECTORS.iter().flat_map(|d| d.decisions())
}

/// The decision named `name`.
pub fn decision(name: &str) -> Option<&'static Decision> {
    decisions().find(|d| d.name == name)
}

/// The columns the writers print (not [`Shown::Hidden`]), with where they are, in order.
pub fn shown_columns() -> impl Iterator<Item = (&'static Column, Cols, usize)> {
    DETECTORS
        .iter()
        .zip(LAYOUT.iter())
        .flat_map(|(d, &at)| d.columns().iter().enumerate().map(move |(k, c)| (c, at, k)))
        .filter(|(c, _, _)| c.shown != Shown::Hidden)
}

/// Which decision sets `bpv`; every detector's values are kept either way.
#[derive(Clone, Copy)]
pub struct Scorer(&'static Decision);

impl PartialEq for Scorer {
    fn eq(&self, other: &Scorer) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Scorer {}

impl Scorer {
    /// The combined model, which decides by default.
    pub fn combined() -> Scorer {
        Scorer::named("combined").expect("the combined model decides")
    }

    /// The decision named `name`.
    pub fn named(name: &str) -> Option<Scorer> {
        decision(name).map(Scorer)
    }

    /// Its decision.
    pub fn decision(self) -> &'static Decision {
        self.0
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        self.0.name
    }
}

impl Default for Scorer {
    fn default() -> Self {
        Scorer::combined()
    }
}

impl std::fmt::Debug for Scorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

/// Run the detectors on a page's blocks, then set every block's `bpv` by `scorer`.
pub fn run(blocks: &mut [Block], page: &Page<'_>, scorer: Scorer) {
    for (d, &at) in DETECTORS.iter().zip(LAYOUT.iter()) {
        if d.always() || d.decisions().iter().any(|x| std::ptr::eq(x, scorer.0)) {
            d.score(blocks, page, at);
        }
    }
    let bpv = scorer.0.bpv;
    for b in blocks {
        b.bpv = bpv(b);
    }
}

/// 0.0 when `content`, else 1.0: a yes-or-no decision as a `bpv`.
pub fn verdict(content: bool) -> f32 {
    if content { 0.0 } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_columns_fit() {
        for names in [
            DETECTORS.iter().map(|d| d.name()).collect::<Vec<_>>(),
            decisions().map(|d| d.name).collect(),
        ] {
            let mut unique = names.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), names.len(), "{names:?}");
        }
        let mut columns: Vec<&str> = DETECTORS
            .iter()
            .flat_map(|d| d.columns().iter().map(|c| c.name))
            .collect();
        let n = columns.len();
        columns.sort();
        columns.dedup();
        assert_eq!(columns.len(), n, "column names are unique");
        assert!(
            LAYOUT
                .last()
                .is_some_and(|c| c.start + c.len <= MAX_COLUMNS)
        );
        for (i, d) in DETECTORS.iter().enumerate() {
            assert_eq!(cols(d.name()), LAYOUT[i]);
        }
    }

    #[test]
    fn every_decision_is_found_by_its_name() {
        for d in decisions() {
            assert_eq!(Scorer::named(d.name).map(|s| s.name()), Some(d.name));
        }
        assert!(Scorer::named("nothing").is_none());
        assert_eq!(Scorer::default().name(), "combined");
    }
}

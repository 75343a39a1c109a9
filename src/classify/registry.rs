//! The registry of detectors: [`DETECTORS`] in the order they run, their decisions by name
//! ([`Scorer`]), the columns the writers print, and [`run`], which scores a page's blocks with
//! them all. A detector is one file ([`super::detector`]); adding one is a line here.

use super::detector::{Cols, Column, Decision, Detector, Page, Shown};
use super::{Block, boilerpipe, combined, justext, markup, mlp, ngram};

/// Every detector, in the order they run.
pub static DETECTORS: [&dyn Detector; 6] = [
    &mlp::Detector,
    &ngram::Detector,
    &markup::Detector,
    &justext::Detector,
    &boilerpipe::Detector,
    &combined::Detector,
];

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
        .flat_map(|d| {
            d.columns()
                .iter()
                .enumerate()
                .map(move |(k, c)| (c, d.at(), k))
        })
        .filter(|(c, _, _)| c.shown != Shown::Hidden)
}

/// Which decision sets `bpv`; every detector's values are kept either way.
#[derive(Clone, Copy)]
pub struct Scorer(&'static Decision);

/// Decisions are told apart by their names, which are unique (a test checks); their
/// addresses need not be (a decision is a constant, which may be copied).
impl PartialEq for Scorer {
    fn eq(&self, other: &Scorer) -> bool {
        self.0.name == other.0.name
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
    for d in DETECTORS {
        if d.always() || d.decisions().iter().any(|x| x.name == scorer.name()) {
            d.score(blocks, page);
        }
    }
    let bpv = scorer.0.bpv;
    for b in blocks {
        b.bpv = bpv(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::detector::MAX_COLUMNS;

    #[test]
    fn names_are_unique_and_the_columns_follow_each_other() {
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
        // Each detector's columns follow the ones before it in the table, as many as it names.
        let mut next = 0;
        for d in DETECTORS {
            assert_eq!(d.at(), Cols::new(next, d.columns().len()), "{}", d.name());
            next += d.columns().len();
        }
        assert!(next <= MAX_COLUMNS, "the columns fit a block's table");
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

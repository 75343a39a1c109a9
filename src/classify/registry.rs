//! The registry of detectors: `detectors!` declares them, in the order they run
//! ([`DETECTORS`]); from that list follow where each one's columns are in a block's table
//! ([`cols`], at compile time), the decisions by name ([`Scorer`]), the columns the writers
//! print ([`shown_columns`]), the model files' options ([`model_files`]), and [`run`], which
//! scores a page's blocks with them all. A detector is one file ([`super::detector`]);
//! adding one is a line of the list in `classify/mod.rs`.

use super::detector::{Column, Decision, Detector, ModelFile, Scoring, Shown};
use super::{REGISTERED, combined, ngram};
use crate::document::{Block, Cols};

/// Declares the detectors, in the order they run: for each, its module (its file, which
/// defines `NAME`, `COLUMNS` and `Detector`, see [`super::detector`]) and its entry in
/// [`DETECTORS`]. An entry may carry a `#[cfg(...)]`, for both.
macro_rules! detectors {
    ($($(#[cfg($c:meta)])? $m:ident),* $(,)?) => {
        $(
            $(#[cfg($c)])?
            pub mod $m;
        )*

        /// The detectors, in the order they run ([`registry::DETECTORS`]).
        const REGISTERED: &[registry::Entry] = &[$(
            $(#[cfg($c)])?
            registry::Entry {
                name: $m::NAME,
                columns: $m::COLUMNS,
                detector: &$m::Detector,
            }
        ),*];
    };
}
pub(crate) use detectors;

/// A detector in the registry.
pub struct Entry {
    /// Its name, unique among the detectors: the key of its columns.
    pub name: &'static str,
    /// The per-block values it writes, in order.
    pub columns: &'static [Column],
    /// How it scores and decides.
    pub detector: &'static dyn Detector,
}

impl Entry {
    /// Where its columns are in the table.
    pub const fn at(&self) -> Cols {
        cols(self.name)
    }
}

/// Every detector, in the order they run.
pub static DETECTORS: &[Entry] = REGISTERED;

/// Whether two strings are equal, in a `const` context.
pub(crate) const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Where the columns of the detector `name` are in a block's table: right after those of the
/// detectors before it in the registry. A detector's file computes its place once, at compile
/// time (`const AT: Cols = registry::cols(NAME);`); a name not in the registry does not
/// compile there.
pub const fn cols(name: &str) -> Cols {
    let mut start = 0;
    let mut i = 0;
    while i < REGISTERED.len() {
        let e = &REGISTERED[i];
        if same(e.name, name) {
            return Cols::new(start, e.columns.len());
        }
        start += e.columns.len();
        i += 1;
    }
    panic!("a detector's name is in the registry (classify/mod.rs)")
}

/// The number of columns of every detector together: the width of a block's table.
pub const fn width() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < REGISTERED.len() {
        n += REGISTERED[i].columns.len();
        i += 1;
    }
    n
}

/// Every decision of every detector, in [`DETECTORS`]' order.
pub fn decisions() -> impl Iterator<Item = &'static Decision> {
    DETECTORS.iter().flat_map(|d| d.detector.decisions())
}

/// The decision named `name`.
pub fn decision(name: &str) -> Option<&'static Decision> {
    decisions().find(|d| d.name == name)
}

/// The model files the detectors read, in [`DETECTORS`]' order.
pub fn model_files() -> impl Iterator<Item = &'static ModelFile> {
    DETECTORS.iter().filter_map(|d| d.detector.model_file())
}

/// The model file whose option is `option` ([`ModelFile::option`]).
pub fn model_file(option: &str) -> Option<&'static ModelFile> {
    model_files().find(|f| f.option == option)
}

/// The columns the writers print (not [`Shown::Hidden`]), with where they are, in order.
pub fn shown_columns() -> impl Iterator<Item = (&'static Column, Cols, usize)> {
    DETECTORS
        .iter()
        .flat_map(|d| {
            d.columns
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
    /// The combined model's decision, the default.
    pub const COMBINED: Scorer = Scorer(&combined::DECISION);
    /// NCleaner's n-gram decision.
    pub const NGRAM: Scorer = Scorer(&ngram::DECISION);

    /// The combined model, which decides by default ([`Scorer::COMBINED`]).
    pub fn combined() -> Scorer {
        Scorer::COMBINED
    }

    /// The decision named `name`.
    pub fn named(name: &str) -> Option<Scorer> {
        decision(name).map(Scorer)
    }

    /// Its decision.
    #[doc(hidden)]
    pub fn decision(self) -> &'static Decision {
        self.0
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        self.0.name
    }
}

/// `--scorer`'s values: every decision of the registry, by its name.
impl crate::choice::Choice for Scorer {
    const OPTION: &'static str = "scorer";

    fn values() -> &'static [crate::choice::Named<Scorer>] {
        static VALUES: std::sync::OnceLock<Vec<crate::choice::Named<Scorer>>> =
            std::sync::OnceLock::new();
        VALUES.get_or_init(|| {
            decisions()
                .map(|d| crate::choice::Named {
                    name: d.name,
                    help: d.about,
                    value: Scorer(d),
                })
                .collect()
        })
    }

    fn name(self) -> &'static str {
        self.0.name
    }
}

crate::choice::text_of_choice!(Scorer);

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
pub fn run(blocks: &mut [Block], page: &Scoring<'_>, scorer: Scorer) {
    for d in DETECTORS {
        let d = d.detector;
        if d.always() || d.decisions().iter().any(|x| Scorer(x) == scorer) {
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
    use crate::document::N_COLUMNS;

    #[test]
    fn names_are_unique_and_the_columns_follow_each_other() {
        for names in [
            DETECTORS.iter().map(|d| d.name).collect::<Vec<_>>(),
            decisions().map(|d| d.name).collect(),
            model_files().map(|f| f.option).collect(),
        ] {
            let mut unique = names.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), names.len(), "{names:?}");
        }
        let mut columns: Vec<&str> = DETECTORS
            .iter()
            .flat_map(|d| d.columns.iter().map(|c| c.name))
            .collect();
        let n = columns.len();
        columns.sort();
        columns.dedup();
        assert_eq!(columns.len(), n, "column names are unique");
        // Each detector's columns follow the ones before it in the table, as many as it names.
        let mut next = 0;
        for d in DETECTORS {
            assert_eq!(d.at(), Cols::new(next, d.columns.len()), "{}", d.name);
            next += d.columns.len();
        }
        assert_eq!(
            next, N_COLUMNS,
            "the table has room for every column, no more"
        );
    }

    #[test]
    fn every_decision_is_found_by_its_name() {
        for d in decisions() {
            assert_eq!(Scorer::named(d.name).map(|s| s.name()), Some(d.name));
        }
        assert!(Scorer::named("nothing").is_none());
        assert_eq!(Scorer::default().name(), "combined");
        assert_eq!(Scorer::NGRAM.name(), "ngram");
        assert_eq!(Scorer::named("ngram"), Some(Scorer::NGRAM));
    }

    #[test]
    fn model_files_are_found_by_their_options() {
        for f in model_files() {
            assert!(std::ptr::eq(model_file(f.option).unwrap(), f));
            assert!(
                !f.option.contains('-') && !f.help.ends_with('.'),
                "{}",
                f.option
            );
        }
        let options: Vec<&str> = model_files().map(|f| f.option).collect();
        for o in ["model", "ngram_model", "markup_model", "combined_model"] {
            assert!(options.contains(&o), "{options:?}");
        }
    }
}

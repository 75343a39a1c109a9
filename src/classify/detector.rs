//! What a detector is. A detector scores a page's blocks and writes its values into its
//! columns of each block's score table ([`Scores`](crate::document::Scores)); its [`Decision`]s turn its values into a
//! block's `bpv` (0 content, 1 boilerplate). The registry ([`super::registry`]) runs the
//! detectors in order, each reading the columns of those before it; `process --scorer` and
//! `eval --scorer` choose a decision, the writers print the columns, and the combined model
//! reads them.
//!
//! One detector is one file, a module of `classify` with
//!
//! - `pub const NAME: &str`, its name, unique among the detectors (the key of its columns);
//! - `pub const COLUMNS: &[Column]`, the per-block values it writes, in order;
//! - `pub struct Detector`, a unit type implementing [`Detector`]: how it scores, its
//!   decisions and its model file ([`ModelFile`]), if it reads one;
//! - functions that read its values from a block for the detectors and writers after it, at
//!   `const AT: Cols = registry::cols(NAME)`: where its columns are in the table, computed
//!   at compile time from the registry's order.
//!
//! Adding one is its file and one line of the registry (`registry::detectors!` in
//! `classify/mod.rs`; `docs/architecture.md`): the writers' columns, `--scorer`'s values and
//! the model file's option of the library, the command line and Python follow from them.

use std::any::Any;
use std::cell::OnceCell;

use super::{ModelError, Models};
use crate::document::{Block, Language, PageText};

/// A boilerplate detector: how it scores and decides. Its name and columns are constants of
/// its module (above).
pub trait Detector: Sync {
    /// Score a page's blocks: write its columns of every block. The columns of the detectors
    /// before it in the registry are written.
    fn score(&self, blocks: &mut [Block], page: &Scoring<'_>);
    /// The ways it can decide what is boilerplate (none: it only informs others).
    fn decisions(&self) -> &'static [Decision] {
        &[]
    }
    /// Whether it runs on every page; `false`: only when one of its decisions decides (a
    /// detector that others do not read and that costs time).
    fn always(&self) -> bool {
        true
    }
    /// The model file that replaces its built-in model, if it reads one.
    fn model_file(&self) -> Option<&'static ModelFile> {
        None
    }
}

/// A model file that replaces a detector's built-in model. Its option follows from it
/// everywhere: the library's [`Options::model_files`](crate::Options::model_files), the
/// command line's `--OPTION` (with dashes), Python's keyword argument and the type stub.
/// The detector finds the loaded model with [`Models::file`].
#[derive(Debug)]
pub struct ModelFile {
    /// The option's name, as Python and [`Options::model_files`](crate::Options::model_files)
    /// take it (`markup_model`); the command line's is the same with dashes
    /// (`--markup-model`).
    pub option: &'static str,
    /// What the file is, in a sentence without its full stop (`--help`, the type stub).
    pub help: &'static str,
    /// The model in the file's bytes; the caller names the file in the error
    /// ("model PATH: CAUSE").
    pub load: fn(&[u8]) -> Result<LoadedModel, ModelError>,
}

/// A model read from a model file ([`ModelFile::load`]); its detector knows its type
/// ([`Models::file`]).
pub(crate) type LoadedModel = Box<dyn Any + Send + Sync>;

impl ModelFile {
    /// The command line's option: [`ModelFile::option`] with dashes.
    pub fn flag(&self) -> String {
        self.option.replace('_', "-")
    }
}

/// What a detector reads besides the blocks.
#[derive(Debug, Clone, Copy)]
pub struct Scoring<'a> {
    /// The run's models.
    pub models: &'a Models,
    /// The page's identified language (`None` when no model needs it or none was found).
    pub language: Option<&'a Language>,
    /// The page's regions ([`Document::regions`](crate::document::Document::regions)).
    pub(crate) regions: &'a [(u32, u32)],
    /// What the page says of itself outside its blocks.
    pub text: &'a PageText,
    /// What the page computes once for more than one detector ([`Scoring::once`]): an empty
    /// cell for each page.
    pub(crate) memo: &'a OnceCell<Box<dyn Any>>,
}

impl<'a> Scoring<'a> {
    /// The page's value that `make` makes, made for the first detector that asks and kept for
    /// the others: the rows the comment detector and the combined model share
    /// ([`super::combined::SharedRows`]). A page keeps one type of value; another panics.
    pub fn once<T: Any>(&self, make: impl FnOnce() -> T) -> &'a T {
        self.memo
            .get_or_init(|| Box::new(make()))
            .downcast_ref()
            .expect("a page keeps one type of value")
    }
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
    /// At the page's expected-F threshold
    /// ([`expected_f_threshold`](crate::analyze::expected_f_threshold)), with the β of the
    /// configured [`Favor`]: for calibrated probabilities.
    ExpectedF,
}

/// What the expected-F cut favours: the same model and scores, another
/// rule for where a page is cut. Each keeps the blocks that maximise the page's expected F_β
/// of the content: β = 1 balances precision and recall, β = ½ weighs precision twice as much
/// (less boilerplate, for corpus builders who would rather lose a paragraph than keep a menu),
/// β = 2 weighs recall twice as much. Decisions cut at 0.5 do not change.
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
    pub(crate) fn beta(self) -> f64 {
        match self {
            Favor::Precision => 0.5,
            Favor::Balanced => 1.0,
            Favor::Recall => 2.0,
        }
    }
}

crate::choice::choice!(Favor, "favor", [
    Favor::Precision, "precision", "the expected F0.5: less boilerplate, less content";
    Favor::Balanced, "balanced", "the expected F1";
    Favor::Recall, "recall", "the expected F2: more content, more boilerplate";
]);

/// 0.0 when `content`, else 1.0: a yes-or-no decision as a `bpv`.
pub(crate) fn verdict(content: bool) -> f32 {
    if content { 0.0 } else { 1.0 }
}

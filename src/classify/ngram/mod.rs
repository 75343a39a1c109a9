//! NCleaner (Evert 2007, 2008): character n-gram models of clean and dirty text (`model.rs`,
//! shared with `build.rs`; its items are re-exported here) and the detector that scores
//! blocks with them.

mod model;

pub use model::*;

use crate::document;
use super::detector::{self, Column, Cut, Decision, ModelFile, Shown};
use super::{Block, ModelError, binary, registry};

/// NCleaner as a detector ([`crate::classify::detector`]): one column, `ngram`, the block's
/// score in bits per character (positive = clean) under the model for the page's language
/// ([`crate::classify::Models::ngram`]); none when n-gram scoring is off or the text has no
/// letters.
pub struct Detector;

/// Its name in the registry.
pub const NAME: &str = "ngram";

/// Its columns.
pub const COLUMNS: &[Column] = &[Column {
    name: "ngram",
    shown: Shown::Number,
}];

/// Its columns in the table.
const AT: document::Cols = registry::cols(NAME);

/// Its decision.
pub(crate) const DECISION: Decision = Decision {
    name: "ngram",
    about: "NCleaner's n-gram score: bpv = 1 / (1 + e^score), so ≥ 0 bits is kept",
    bpv,
    cut: Cut::Half,
};

/// `--ngram-model`: an n-gram model for every document instead of the built-in ones
/// ([`crate::classify::Models::ngram`]).
pub static MODEL_FILE: ModelFile = ModelFile {
    option: "ngram_model",
    help: "N-gram model file (from `cowrex train ngram`) instead of the built-in one",
    load: |bytes| Ok(Box::new(super::read_ngram(bytes)?)),
};

/// A block's n-gram score, if it has one.
pub fn of(b: &Block) -> Option<f32> {
    let v = b.scores.get(AT, 0);
    (!v.is_nan()).then_some(v as f32)
}

/// Set a block's n-gram score (`eval` scores with cross-validated models).
pub fn set(b: &mut Block, score: Option<f32>) {
    b.scores.set(AT, 0, score.map_or(f64::NAN, f64::from));
}

/// The `bpv` of the `ngram` decision: the score mapped onto (0, 1), 0.5 at 0 bits; 1 without
/// a score.
fn bpv(b: &Block) -> f32 {
    of(b).map_or(1.0, |s| 1.0 / (1.0 + s.exp()))
}

impl detector::Detector for Detector {
    fn score(&self, blocks: &mut [Block], page: &detector::Scoring<'_>) {
        let model = page.models.ngram(page.language);
        for b in blocks {
            let s = model.and_then(|m| m.score(&b.cleansed));
            b.scores.set(AT, 0, s.map_or(f64::NAN, f64::from));
        }
    }

    fn decisions(&self) -> &'static [Decision] {
        &[DECISION]
    }

    fn model_file(&self) -> Option<&'static ModelFile> {
        Some(&MODEL_FILE)
    }
}

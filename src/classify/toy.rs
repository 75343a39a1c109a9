//! A toy detector, only in builds with the `toy-detector` feature: the test that a detector
//! is one file and one line of the registry (`tests/toy.rs`, `python/tests/test_api.py`).
//! Nothing else in the project names it, yet its column is in every output, its decision is a
//! `--scorer` and its model file an option of the command line and of Python.
//!
//! It writes one column, `toy`: the share of letters among a block's characters, times a
//! weight, 1 or the number in its model file (`--toy-model`).

use crate::document;
use super::detector::{self, Column, Cut, Decision, ModelFile, Shown};
use super::{Block, ModelError, registry};

/// The toy as a detector ([`crate::classify::detector`]).
pub struct Detector;

/// Its name in the registry.
pub const NAME: &str = "toy";

/// Its columns.
pub const COLUMNS: &[Column] = &[Column {
    name: "toy",
    shown: Shown::Rounded,
}];

/// Its columns in the table.
const AT: document::Cols = registry::cols(NAME);

/// A block's toy score.
pub fn of(b: &Block) -> f64 {
    b.scores.get(AT, 0)
}

/// `--toy-model`: a file with the weight, a number.
pub static MODEL_FILE: ModelFile = ModelFile {
    option: "toy_model",
    help: "The toy detector's weight (a number) instead of 1",
    load: |bytes| {
        let text = std::str::from_utf8(bytes).map_err(|_| ModelError("not UTF-8".into()))?;
        let weight: f64 = text
            .trim()
            .parse()
            .map_err(|_| ModelError(format!("not a number: {:?}", text.trim())))?;
        Ok(Box::new(weight))
    },
};

impl detector::Detector for Detector {
    fn score(&self, blocks: &mut [Block], page: &detector::Scoring<'_>) {
        let weight = page.models.file::<f64>(&MODEL_FILE).copied().unwrap_or(1.0);
        for b in blocks {
            let chars = b.text.chars().count().max(1);
            let letters = b.text.chars().filter(|c| c.is_alphabetic()).count();
            b.scores.set(AT, 0, weight * letters as f64 / chars as f64);
        }
    }

    fn decisions(&self) -> &'static [Decision] {
        &[Decision {
            name: "toy",
            about: "the toy detector: blocks of letters (bpv = 1 − toy)",
            bpv: |b| (1.0 - of(b)).clamp(0.0, 1.0) as f32,
            cut: Cut::Half,
        }]
    }

    fn model_file(&self) -> Option<&'static ModelFile> {
        Some(&MODEL_FILE)
    }
}

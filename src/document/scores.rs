//! A block's score table: every detector's values, each at its place. The table is as wide as
//! the registry's columns (`crate::classify::registry`), known at compile time: the one import of
//! the document model from above it.

/// Columns in a block's table: every detector's, as the registry counts them.
pub const N_COLUMNS: usize = crate::classify::registry::width();

/// A block's score table: every detector's values at its place, read by name with
/// [`block_scores`](crate::block_scores);
/// NaN where a detector wrote none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scores([f64; N_COLUMNS]);

impl Default for Scores {
    fn default() -> Self {
        Scores([f64::NAN; N_COLUMNS])
    }
}

impl Scores {
    /// Column `k` of a detector's columns `at`.
    #[doc(hidden)]
    pub fn get(&self, at: Cols, k: usize) -> f64 {
        debug_assert!(k < at.len);
        self.0[at.start + k]
    }

    /// Set column `k` of a detector's columns `at`.
    #[doc(hidden)]
    pub fn set(&mut self, at: Cols, k: usize, value: f64) {
        debug_assert!(k < at.len);
        self.0[at.start + k] = value;
    }
}

/// Where a detector's columns are in the table (the registry's `cols`).
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

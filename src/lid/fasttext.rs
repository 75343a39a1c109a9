//! fastText inference in pure Rust: a supervised model file (`.bin`, or `.ftz` after
//! `fasttext quantize`) read into memory and its `predict`, with the same tokens, the same
//! hashes and the same arithmetic as fastText 0.9.2 (`src/dictionary.cc`, `src/model.cc`,
//! `src/loss.cc`, `src/quantmatrix.cc`, `src/productquantizer.cc`), so that the labels and
//! probabilities are the ones the Python `fasttext` package prints.
//!
//! The text of a document can be read in pieces: [`Model::add_text`] adds the input rows of a
//! text to a [`Hidden`] (their sum and count), [`Hidden::merge`] adds two of them, and
//! [`Model::predict`] turns a sum into labels. fastText's document vector is the mean of its
//! input rows, so the prediction from the merged sums of a page's blocks is the prediction of
//! the page's text, and the text is tokenised once.
//!
//! # Tokens, as fastText makes them
//! - Words are split at ASCII space, `\t`, `\n`, `\v`, `\f`, `\r` and NUL only (not at other
//!   Unicode spaces); a line ends with the end-of-sentence word `</s>` (fastText reads `\n` as
//!   `</s>`; Python's `predict` adds the `\n`). A token equal to `</s>` also ends a line.
//! - A word in the dictionary adds its own row; every word (in the dictionary or not) adds the
//!   rows of its character n-grams of `minn..=maxn` characters (UTF-8 sequences counted as one)
//!   of `<word>`, hashed with 32-bit FNV-1a over bytes taken as *signed* chars, modulo `bucket`.
//!   `</s>` has no n-grams.
//! - A token that starts with `__label__` is a label, never input.
//! - With `wordNgrams` > 1, each run of up to `wordNgrams` word hashes of a line adds a row.
//! - A quantised model keeps only some n-gram buckets (the pruned-id map); others add nothing.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// fastText's file magic number (`FASTTEXT_FILEFORMAT_MAGIC_INT32`).
const MAGIC: i32 = 793_712_314;
/// The newest file format version fastText writes.
const VERSION: i32 = 12;
/// The end-of-sentence word.
const EOS: &[u8] = b"</s>";
/// The label prefix (fastText's default `-label`; it is not stored in the file).
pub(crate) const LABEL_PREFIX: &str = "__label__";
/// Centroids per sub-quantiser (8-bit codes).
const KSUB: usize = 256;
/// Slots of a thread's [`WordCache`] (a power of two).
const CACHE_SLOTS: usize = 1 << 14;
/// Slots of a new [`WordCache`] (a power of two): it takes [`CACHE_SLOTS`] once it has missed
/// more words than it has slots, so that a run of one small page does not clear 2 MiB.
const FIRST_CACHE_SLOTS: usize = 1 << 10;
/// The bytes of a [`Slot`]'s word: what is left of a cache line after its four numbers.
const SLOT_BYTES: usize = 48;
/// Longer words are not cached (a long token rarely repeats): eight bytes under
/// [`SLOT_BYTES`], so the last eight-byte comparison of [`Slot::holds`] stays in the slot.
const CACHED_LEN: usize = SLOT_BYTES - 8;
/// A [`WordCache`] entry's row count for a label.
const LABEL: u32 = u32::MAX;
/// Each model's number, which a thread's [`WordCache`] belongs to.
static MODELS: AtomicU64 = AtomicU64::new(0);

/// A thread's row sums of the words it read last (a word's own row and its n-grams' rows):
/// words repeat, and a sum looked up costs a fraction of hashing the word's n-grams again. A
/// word's sum is always made apart and then added, so a text's hidden sum is the same whether
/// or not its words were cached (the rows are added in another order than fastText's, which
/// moves probabilities by under 1e-6).
///
/// Direct-mapped by [`quick_hash`] (FNV, which fastText needs, goes a byte at a time and is
/// computed only for a new word): a word takes its slot from whatever word had it. A slot is
/// one cache line holding the word's bytes, so a look-up touches that line and the sum's; the
/// table (1 MiB, and 1 MiB of sums for lid.176's 16 dimensions) stays in a core's cache.
/// It starts at [`FIRST_CACHE_SLOTS`].
#[derive(Default)]
struct WordCache {
    /// The model the sums are of.
    model: u64,
    /// A power of two of slots (empty: `len == 0`).
    slots: Vec<Slot>,
    /// Words not found since the last reset.
    misses: usize,
    /// Slot `i`'s sum at `i * dim`.
    sums: Vec<f32>,
    /// Scratch: `<word>`.
    word: Vec<u8>,
    /// Scratch: a long word's sum.
    scratch: Vec<f32>,
}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot {
    /// [`quick_hash`] of the word.
    hash: u32,
    /// Its FNV hash (fastText's).
    fnv: u32,
    /// Rows added ([`LABEL`]: a label).
    rows: u32,
    len: u32,
    /// The word, zeros after it.
    bytes: [u8; SLOT_BYTES],
}

const EMPTY: Slot = Slot {
    hash: 0,
    fnv: 0,
    rows: 0,
    len: 0,
    bytes: [0; SLOT_BYTES],
};

impl WordCache {
    /// Forget every word, and take `slots` slots for `model`, whose rows have `dim` values.
    fn reset(&mut self, model: u64, dim: usize, slots: usize) {
        self.model = model;
        self.misses = 0;
        self.slots.clear();
        self.slots.resize(slots, EMPTY);
        // A slot's sum is written when a word takes it, before it is read: the zeroed pages
        // of a new vector are only touched as words come.
        self.sums = vec![0.0; slots * dim];
    }
}

impl Slot {
    /// Whether it holds `token` (at most [`CACHED_LEN`] bytes), whose hash is `h`: compared
    /// eight bytes at a time, the zeros after the word included.
    #[inline]
    fn holds(&self, token: &[u8], h: u32) -> bool {
        if self.hash != h || self.len as usize != token.len() {
            return false;
        }
        let mut chunks = token.chunks_exact(8);
        let mut at = 0;
        for c in &mut chunks {
            if u64::from_le_bytes(c.try_into().unwrap())
                != u64::from_le_bytes(self.bytes[at..at + 8].try_into().unwrap())
            {
                return false;
            }
            at += 8;
        }
        let mut last = 0u64;
        for (k, &b) in chunks.remainder().iter().enumerate() {
            last |= (b as u64) << (8 * k);
        }
        last == u64::from_le_bytes(self.bytes[at..at + 8].try_into().unwrap())
    }
}

thread_local! {
    static WORDS: RefCell<WordCache> = RefCell::default();
}

/// The loss a model was trained with, which decides how scores become probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// Hierarchical softmax (lid.176's): a Huffman tree over the labels' counts.
    HierarchicalSoftmax,
    /// Negative sampling: a sigmoid per label.
    NegativeSampling,
    /// Softmax over all labels (OpenLID's, GlotLID's).
    Softmax,
    /// One-vs-all: a sigmoid per label.
    OneVsAll,
}

/// A label and its probability, as fastText's `predict` gives them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    /// The label's index (see [`Model::label`]).
    pub label: usize,
    /// Its probability, `exp` of fastText's score (`log(p + 1e-5)`, summed along the tree's
    /// path for hierarchical softmax), so it can exceed 1 by a little.
    pub prob: f32,
}

/// The input rows of a text added up: what fastText averages into the hidden vector.
///
/// Sums of different texts (blocks of a page) can be merged; [`Model::predict`] divides by the
/// count. Reusing one `Hidden` (after [`Hidden::clear`]) avoids allocation.
#[derive(Debug, Clone, Default)]
pub struct Hidden {
    sum: Vec<f32>,
    count: u64,
    /// Scratch: the current line's word hashes (only with word n-grams).
    hashes: Vec<i32>,
}

impl Hidden {
    /// An empty sum for vectors of `dim` values.
    pub fn new(dim: usize) -> Hidden {
        Hidden {
            sum: vec![0.0; dim],
            count: 0,
            hashes: Vec::new(),
        }
    }

    /// How many input rows were added (0: nothing to predict from).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The sum of the rows added.
    pub fn sum(&self) -> &[f32] {
        &self.sum
    }

    /// Forget what was added.
    pub fn clear(&mut self) {
        self.sum.iter_mut().for_each(|x| *x = 0.0);
        self.count = 0;
        self.hashes.clear();
    }

    /// Add another sum (of another text, for the same model) to this one.
    pub fn merge(&mut self, other: &Hidden) {
        if self.sum.len() < other.sum.len() {
            self.sum.resize(other.sum.len(), 0.0);
        }
        for (a, b) in self.sum.iter_mut().zip(&other.sum) {
            *a += *b;
        }
        self.count += other.count;
    }
}

/// A fastText supervised model, ready to predict.
#[derive(Debug, Clone)]
pub struct Model {
    /// This model's number (copies share it): whose words a [`WordCache`] holds.
    uid: u64,
    dim: usize,
    word_ngrams: usize,
    loss: Loss,
    bucket: u32,
    bucket_mod: FastMod,
    minn: usize,
    maxn: usize,
    dict: Dictionary,
    input: Matrix,
    output: Matrix,
    /// Hierarchical softmax: the tree over the labels (leaves `0..nlabels`, root last).
    tree: Vec<Node>,
}

/// A node of the hierarchical softmax tree (`-1`: none).
#[derive(Debug, Clone, Copy)]
struct Node {
    left: i32,
    right: i32,
    parent: i32,
    /// It is its parent's right child.
    is_right: bool,
}

#[derive(Debug, Clone)]
struct Dictionary {
    /// All entries' bytes, one after the other (`spans` cuts them).
    bytes: Vec<u8>,
    spans: Vec<(u32, u32)>,
    is_label: Vec<bool>,
    nwords: usize,
    /// Label names without the prefix, in label order.
    labels: Vec<String>,
    /// Open addressing over the entries by fastText's word hash (`u32::MAX`: empty).
    table: Vec<u32>,
    /// `None`: not pruned, bucket `b`'s row is `b` after the words; `Some`: the buckets kept.
    pruned: Option<Kept>,
}

/// A pruned model's n-gram buckets: one bit each, whether it is kept, and for each 64 bits how
/// many buckets before them are kept. The input matrix's n-gram rows are put in bucket order
/// when the model is read, so a kept bucket's row (after the words) is its rank among the kept
/// ones: a bit and a count instead of a lookup in fastText's bucket-to-row map.
#[derive(Debug, Clone)]
struct Kept {
    bits: Vec<u64>,
    before: Vec<u32>,
}

impl Kept {
    /// From fastText's map of n-gram bucket to row (its `pruneidx`, pairs with distinct
    /// buckets); negative buckets are never asked for. Also the rows in bucket order (the map's
    /// values), to reorder the matrix by.
    fn new(map: &[(i32, i32)]) -> Result<(Kept, Vec<usize>), String> {
        let pairs = || {
            map.iter()
                .filter_map(|&(b, r)| Some((usize::try_from(b).ok()?, usize::try_from(r).ok()?)))
        };
        let words = pairs().map(|(b, _)| b / 64 + 1).max().unwrap_or(0);
        let mut bits = vec![0u64; words];
        for (b, _) in pairs() {
            if bits[b / 64] >> (b % 64) & 1 == 1 {
                return Err(format!("n-gram bucket {b} twice in the pruned map"));
            }
            bits[b / 64] |= 1 << (b % 64);
        }
        let mut before = Vec::with_capacity(words);
        let mut n = 0u32;
        for w in &bits {
            before.push(n);
            n += w.count_ones();
        }
        let kept = Kept { bits, before };
        let mut rows = vec![0; n as usize];
        for (b, r) in pairs() {
            rows[kept.row(b).expect("its bit is set")] = r;
        }
        Ok((kept, rows))
    }

    /// The row of n-gram bucket `b` after the words, if it is kept.
    #[inline]
    fn row(&self, b: usize) -> Option<usize> {
        let w = *self.bits.get(b / 64)?;
        let bit = b % 64;
        if w >> bit & 1 == 0 {
            return None;
        }
        Some(self.before[b / 64] as usize + (w & ((1u64 << bit) - 1)).count_ones() as usize)
    }
}

impl Dictionary {
    fn entry(&self, id: usize) -> &[u8] {
        let (a, b) = self.spans[id];
        &self.bytes[a as usize..b as usize]
    }

    /// The entry of `token` (whose fastText hash is `h`), if any.
    fn find(&self, token: &[u8], h: u32) -> Option<usize> {
        let mask = self.table.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let id = self.table[i];
            if id == u32::MAX {
                return None;
            }
            if self.entry(id as usize) == token {
                return Some(id as usize);
            }
            i = (i + 1) & mask;
        }
    }

    fn build_table(&mut self) {
        let size = (self.spans.len() * 2).next_power_of_two().max(8);
        self.table = vec![u32::MAX; size];
        let mask = size - 1;
        for id in 0..self.spans.len() {
            let mut i = fnv(self.entry(id)) as usize & mask;
            while self.table[i] != u32::MAX {
                i = (i + 1) & mask;
            }
            self.table[i] = id as u32;
        }
    }
}

#[derive(Debug, Clone)]
enum Matrix {
    Dense {
        rows: usize,
        cols: usize,
        data: Vec<f32>,
    },
    Quant(Box<QuantMatrix>),
    /// Decoded rows laid out before the run ([`Model::input_layout`]): little-endian `f32`s,
    /// row after row.
    Laid {
        rows: usize,
        cols: usize,
        data: &'static [u8],
    },
}

#[derive(Debug, Clone)]
struct QuantMatrix {
    rows: usize,
    cols: usize,
    codes: Vec<u8>,
    pq: ProductQuantizer,
    /// `qnorm`: each row's norm, quantised by a one-dimensional quantiser.
    norms: Option<(Vec<u8>, ProductQuantizer)>,
}

#[derive(Debug, Clone)]
struct ProductQuantizer {
    nsubq: usize,
    dsub: usize,
    lastdsub: usize,
    centroids: Vec<f32>,
}

impl QuantMatrix {
    /// The matrix of rows `order[0]`, `order[1]`, … of this one.
    fn take_rows(&self, order: &[usize]) -> QuantMatrix {
        let n = self.pq.nsubq;
        QuantMatrix {
            rows: order.len(),
            cols: self.cols,
            codes: order
                .iter()
                .flat_map(|&i| &self.codes[i * n..(i + 1) * n])
                .copied()
                .collect(),
            pq: self.pq.clone(),
            norms: self
                .norms
                .as_ref()
                .map(|(c, npq)| (order.iter().map(|&i| c[i]).collect(), npq.clone())),
        }
    }

    /// Row `i`'s norm (1 without `qnorm`) and its sub-quantisers' codes.
    fn row(&self, i: usize) -> (f32, &[u8]) {
        let norm = self
            .norms
            .as_ref()
            .map_or(1.0, |(c, npq)| npq.centroids(0, c[i])[0]);
        (
            norm,
            &self.codes[i * self.pq.nsubq..(i + 1) * self.pq.nsubq],
        )
    }
}

impl ProductQuantizer {
    fn centroids(&self, m: usize, code: u8) -> &[f32] {
        let code = code as usize;
        if m == self.nsubq - 1 {
            let at = m * KSUB * self.dsub + code * self.lastdsub;
            &self.centroids[at..at + self.lastdsub]
        } else {
            let at = (m * KSUB + code) * self.dsub;
            &self.centroids[at..at + self.dsub]
        }
    }
}

impl Matrix {
    fn rows(&self) -> usize {
        match self {
            Matrix::Dense { rows, .. } | Matrix::Laid { rows, .. } => *rows,
            Matrix::Quant(q) => q.rows,
        }
    }

    fn cols(&self) -> usize {
        match self {
            Matrix::Dense { cols, .. } | Matrix::Laid { cols, .. } => *cols,
            Matrix::Quant(q) => q.cols,
        }
    }

    /// `x += row i` (fastText's `addRowToVector`).
    #[inline]
    fn add_row(&self, x: &mut [f32], i: usize) {
        match self {
            Matrix::Dense { cols, data, .. } => {
                for (a, b) in x.iter_mut().zip(&data[i * cols..(i + 1) * cols]) {
                    *a += *b;
                }
            }
            Matrix::Quant(q) => {
                let (norm, code) = q.row(i);
                for (m, &c) in code.iter().enumerate() {
                    let cent = q.pq.centroids(m, c);
                    let x = &mut x[m * q.pq.dsub..];
                    for (a, b) in x.iter_mut().zip(cent) {
                        *a += norm * *b;
                    }
                }
            }
            Matrix::Laid { cols, data, .. } => {
                let row = &data[i * cols * 4..(i + 1) * cols * 4];
                for (a, b) in x.iter_mut().zip(row.chunks_exact(4)) {
                    *a += f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                }
            }
        }
    }

    /// `row i · x` (fastText's `dotRow`).
    fn dot_row(&self, x: &[f32], i: usize) -> f32 {
        match self {
            Matrix::Dense { cols, data, .. } => {
                let mut d = 0.0f32;
                for (a, b) in data[i * cols..(i + 1) * cols].iter().zip(x) {
                    d += *a * *b;
                }
                d
            }
            Matrix::Quant(q) => {
                let (norm, code) = q.row(i);
                let mut d = 0.0f32;
                for (m, &c) in code.iter().enumerate() {
                    let cent = q.pq.centroids(m, c);
                    for (a, b) in x[m * q.pq.dsub..].iter().zip(cent) {
                        d += *a * *b;
                    }
                }
                d * norm
            }
            Matrix::Laid { cols, data, .. } => {
                let row = &data[i * cols * 4..(i + 1) * cols * 4];
                let mut d = 0.0f32;
                for (b, a) in row.chunks_exact(4).zip(x) {
                    d += f32::from_le_bytes([b[0], b[1], b[2], b[3]]) * *a;
                }
                d
            }
        }
    }
}

/// `a % d` for a fixed `d` without a division (Lemire, Kaser and Kurz, "Faster remainder by
/// direct computation", 2019): exact for every `u32`.
#[derive(Debug, Clone, Copy)]
struct FastMod {
    d: u32,
    m: u64,
}

impl FastMod {
    fn new(d: u32) -> FastMod {
        FastMod {
            d,
            m: if d == 0 {
                0
            } else {
                (u64::MAX / d as u64).wrapping_add(1)
            },
        }
    }

    #[inline]
    fn of(self, a: u32) -> u32 {
        let low = self.m.wrapping_mul(a as u64);
        ((low as u128 * self.d as u128) >> 64) as u32
    }
}

/// fastText's word hash: 32-bit FNV-1a over the bytes, each taken as a *signed* char.
#[inline]
pub(crate) fn fnv(bytes: &[u8]) -> u32 {
    bytes.iter().fold(2_166_136_261u32, |h, &b| fnv_step(h, b))
}

/// A hash of a word for [`WordCache`]'s table, eight bytes at a time (FxHash's step).
#[inline]
fn quick_hash(bytes: &[u8]) -> u32 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h.rotate_left(5) ^ u64::from_le_bytes(c.try_into().unwrap())).wrapping_mul(K);
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h.rotate_left(5) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    (h >> 32) as u32
}

#[inline(always)]
fn fnv_step(h: u32, b: u8) -> u32 {
    (h ^ (b as i8 as i32 as u32)).wrapping_mul(16_777_619)
}

/// fastText's `std_log`: `log(x + 1e-5)`.
#[inline]
fn std_log(x: f32) -> f32 {
    (x as f64 + 1e-5).ln() as f32
}

/// Whitespace to fastText's `readWord`.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c | 0)
}

impl Model {
    /// Read a model file (fastText's `.bin`, or `.ftz` after `fasttext quantize`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, String> {
        Model::read(bytes, None)
    }

    /// [`Model::from_bytes`] with the input rows given decoded: `rows` is
    /// [`Model::input_layout`] of the same file (`build.rs` lays lid.176's out, so that they
    /// are not decoded at every start).
    pub(crate) fn from_bytes_with_rows(bytes: &[u8], rows: &'static [u8]) -> Result<Model, String> {
        Model::read(bytes, Some(rows))
    }

    /// The input matrix's rows in the order the model reads them, decoded (a row added to
    /// zeros), as little-endian `f32`s: what [`Model::from_bytes_with_rows`] takes.
    #[cfg_attr(not(test), allow(dead_code))] // `build.rs` calls it
    pub(crate) fn input_layout(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.input.rows() * self.dim * 4);
        let mut row = vec![0.0f32; self.dim];
        for i in 0..self.input.rows() {
            row.fill(0.0);
            self.input.add_row(&mut row, i);
            out.extend(row.iter().flat_map(|v| v.to_le_bytes()));
        }
        out
    }

    fn read(bytes: &[u8], rows: Option<&'static [u8]>) -> Result<Model, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.i32()? != MAGIC {
            return Err("not a fastText model file (bad magic number)".into());
        }
        let version = r.i32()?;
        if version > VERSION {
            return Err(format!(
                "fastText file format version {version} is newer than 12"
            ));
        }
        // Args, in fastText's order.
        let dim = r.count("dim")?;
        let _ws = r.i32()?;
        let _epoch = r.i32()?;
        let _min_count = r.i32()?;
        let _neg = r.i32()?;
        let word_ngrams = r.count("wordNgrams")?;
        let loss = match r.i32()? {
            1 => Loss::HierarchicalSoftmax,
            2 => Loss::NegativeSampling,
            3 => Loss::Softmax,
            4 => Loss::OneVsAll,
            n => return Err(format!("unknown loss {n}")),
        };
        if r.i32()? != 3 {
            return Err(
                "not a supervised model (a word vector model cannot predict labels)".into(),
            );
        }
        let bucket = r.count("bucket")? as u32;
        let minn = r.count("minn")?;
        let maxn = r.count("maxn")?;
        // Version 11 supervised models had no character n-grams.
        let maxn = if version == 11 { 0 } else { maxn };
        let _lr_update_rate = r.i32()?;
        let _t = r.f64()?;
        if (maxn > 0 || word_ngrams > 1) && bucket == 0 {
            return Err("n-grams without buckets".into());
        }

        let LoadedDictionary {
            dictionary: mut dict,
            counts_for_tree,
            pruned,
        } = read_dictionary(&mut r)?;
        let quant_input = r.u8()? != 0;
        let input = if quant_input {
            read_quant(&mut r)?
        } else {
            if pruned.is_some() {
                return Err("a pruned dictionary with a dense input matrix".into());
            }
            read_dense(&mut r)?
        };
        let qout = r.u8()? != 0;
        let output = if quant_input && qout {
            read_quant(&mut r)?
        } else {
            read_dense(&mut r)?
        };

        // Every row an input can reach must exist.
        let nwords = dict.nwords;
        let nlabels = dict.labels.len();
        let reach = match &pruned {
            None if maxn > 0 || word_ngrams > 1 => nwords + bucket as usize,
            None => nwords,
            Some(map) => nwords + map.iter().map(|&(_, v)| v as usize + 1).max().unwrap_or(0),
        };
        if input.rows() < reach || input.cols() != dim {
            return Err(format!(
                "input matrix is {}x{}, the dictionary needs {reach}x{dim}",
                input.rows(),
                input.cols()
            ));
        }
        if nlabels == 0 || output.rows() < nlabels || output.cols() != dim {
            return Err(format!(
                "output matrix is {}x{} for {nlabels} labels of dimension {dim}",
                output.rows(),
                output.cols()
            ));
        }
        if pruned
            .as_ref()
            .is_some_and(|m| m.iter().any(|&(_, v)| v < 0))
        {
            return Err("negative pruned row".into());
        }
        let order = match &pruned {
            Some(map) => {
                let (kept, rows) = Kept::new(map)?;
                dict.pruned = Some(kept);
                Some(
                    (0..nwords)
                        .chain(rows.iter().map(|r| nwords + r))
                        .collect::<Vec<usize>>(),
                )
            }
            None => None,
        };
        let input = match rows {
            None => dequantize(input, order.as_deref()),
            Some(data) => {
                let rows = order.as_ref().map_or(input.rows(), Vec::len);
                if data.len() != rows * dim * 4 {
                    return Err(format!(
                        "{} bytes of decoded rows for {rows} rows of {dim} values",
                        data.len()
                    ));
                }
                Matrix::Laid {
                    rows,
                    cols: dim,
                    data,
                }
            }
        };

        let tree = if loss == Loss::HierarchicalSoftmax {
            build_tree(&counts_for_tree)
        } else {
            Vec::new()
        };
        Ok(Model {
            uid: MODELS.fetch_add(1, Ordering::Relaxed) + 1,
            dim,
            word_ngrams,
            loss,
            bucket,
            bucket_mod: FastMod::new(bucket),
            minn,
            maxn,
            dict,
            input,
            output,
            tree,
        })
    }

    /// The dimension of the hidden vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The loss the model was trained with.
    pub fn loss(&self) -> Loss {
        self.loss
    }

    /// How many labels the model has.
    pub fn num_labels(&self) -> usize {
        self.dict.labels.len()
    }

    /// Label `i`, without the `__label__` prefix (`en`, `deu_Latn`).
    pub fn label(&self, i: usize) -> &str {
        &self.dict.labels[i]
    }

    /// All labels, in the model's order (the most frequent in training first).
    pub fn labels(&self) -> &[String] {
        &self.dict.labels
    }

    /// The index of a label (without the prefix).
    pub fn label_index(&self, label: &str) -> Option<usize> {
        self.dict.labels.iter().position(|l| l == label)
    }

    /// An empty [`Hidden`] for this model.
    pub fn hidden(&self) -> Hidden {
        Hidden::new(self.dim)
    }

    /// Add the input rows of `text` to `hidden`, as fastText reads a file: each `\n` (and the
    /// end of the text, unless it ends with `\n`) ends a line with `</s>`.
    pub fn add_text(&self, text: &str, hidden: &mut Hidden) {
        self.add_bytes(text.as_bytes(), hidden, false);
    }

    /// Add the input rows of the first line of `text` only, as Python's `predict(text)` does
    /// (it reads one line: up to the first `\n`, which Python refuses, or `</s>` token).
    pub fn add_line(&self, text: &str, hidden: &mut Hidden) {
        self.add_bytes(text.as_bytes(), hidden, true);
    }

    fn add_bytes(&self, text: &[u8], hidden: &mut Hidden, first_line_only: bool) {
        if hidden.sum.len() != self.dim {
            hidden.sum.resize(self.dim, 0.0);
        }
        hidden.hashes.clear();
        WORDS.with(|cache| {
            let cache = &mut *cache.borrow_mut();
            if cache.model != self.uid || cache.slots.is_empty() {
                cache.reset(self.uid, self.dim, FIRST_CACHE_SLOTS);
            } else if cache.misses > cache.slots.len() && cache.slots.len() < CACHE_SLOTS {
                cache.reset(self.uid, self.dim, CACHE_SLOTS);
            }
            let mut i = 0;
            loop {
                // readWord: skip spaces; a `\n` before a word is `</s>`.
                while i < text.len() && is_space(text[i]) && text[i] != b'\n' {
                    i += 1;
                }
                let token: &[u8] = if i >= text.len() {
                    // Python's predict adds "\n": the line ends with `</s>` unless it did.
                    if text.last() == Some(&b'\n') {
                        break;
                    }
                    EOS
                } else if text[i] == b'\n' {
                    i += 1;
                    EOS
                } else {
                    let start = i;
                    while i < text.len() && !is_space(text[i]) {
                        i += 1;
                    }
                    &text[start..i]
                };
                let is_eos = token == EOS;
                self.add_token(token, hidden, cache);
                if is_eos {
                    self.add_word_ngrams(hidden);
                    hidden.hashes.clear();
                    if first_line_only || i >= text.len() {
                        break;
                    }
                }
            }
        });
    }

    /// One token of a line: its word row and n-gram rows, and its hash for word n-grams.
    #[inline]
    fn add_token(&self, token: &[u8], hidden: &mut Hidden, cache: &mut WordCache) {
        if token.len() > CACHED_LEN {
            let h = fnv(token);
            let mut sum = std::mem::take(&mut cache.scratch);
            sum.clear();
            sum.resize(self.dim, 0.0);
            if let Some(rows) = self.word_rows(token, h, &mut sum, &mut cache.word) {
                for (a, b) in hidden.sum.iter_mut().zip(&sum) {
                    *a += *b;
                }
                hidden.count += rows as u64;
                if self.word_ngrams > 1 {
                    hidden.hashes.push(h as i32);
                }
            }
            cache.scratch = sum;
            return;
        }
        let key = quick_hash(token);
        let i = key as usize & (cache.slots.len() - 1);
        let at = i * self.dim;
        if !cache.slots[i].holds(token, key) {
            cache.misses += 1;
            let h = fnv(token);
            let sum = &mut cache.sums[at..at + self.dim];
            sum.fill(0.0);
            let rows = self.word_rows(token, h, sum, &mut cache.word);
            let mut bytes = [0; SLOT_BYTES];
            bytes[..token.len()].copy_from_slice(token);
            cache.slots[i] = Slot {
                hash: key,
                fnv: h,
                rows: rows.unwrap_or(LABEL),
                len: token.len() as u32,
                bytes,
            };
        }
        let Slot { rows, fnv, .. } = cache.slots[i];
        if rows == LABEL {
            return;
        }
        let sum = &cache.sums[at..at + self.dim];
        for (a, b) in hidden.sum.iter_mut().zip(sum) {
            *a += *b;
        }
        hidden.count += rows as u64;
        if self.word_ngrams > 1 {
            hidden.hashes.push(fnv as i32);
        }
    }

    /// The sum of a token's rows (its own, if in the dictionary, and its character n-grams')
    /// into `sum` (zeros), and how many there were; `None` for a label, which is never input.
    /// `word` is scratch.
    fn word_rows(&self, token: &[u8], h: u32, sum: &mut [f32], word: &mut Vec<u8>) -> Option<u32> {
        let mut rows = 0;
        match self.dict.find(token, h) {
            Some(id) if self.dict.is_label[id] => return None,
            Some(id) => {
                self.input.add_row(sum, id);
                rows += 1;
            }
            None if token.starts_with(LABEL_PREFIX.as_bytes()) => return None,
            None => {}
        }
        if token == EOS || self.maxn == 0 {
            return Some(rows);
        }
        // fastText's `computeSubwords` over `<token>`.
        word.clear();
        word.push(b'<');
        word.extend_from_slice(token);
        word.push(b'>');
        let len = word.len();
        for i in 0..len {
            if word[i] & 0xC0 == 0x80 {
                continue;
            }
            let mut h = 2_166_136_261u32;
            let mut j = i;
            let mut n = 1;
            while j < len && n <= self.maxn {
                h = fnv_step(h, word[j]);
                j += 1;
                while j < len && word[j] & 0xC0 == 0x80 {
                    h = fnv_step(h, word[j]);
                    j += 1;
                }
                if n >= self.minn && !(n == 1 && (i == 0 || j == len)) {
                    rows += self.add_bucket(self.bucket_mod.of(h) as i32, sum);
                }
                n += 1;
            }
        }
        Some(rows)
    }

    /// fastText's `addWordNgrams` over the line's word hashes.
    fn add_word_ngrams(&self, hidden: &mut Hidden) {
        if self.word_ngrams <= 1 {
            return;
        }
        let hashes = std::mem::take(&mut hidden.hashes);
        for i in 0..hashes.len() {
            let mut h = hashes[i] as i64 as u64;
            for &hj in hashes.iter().take(i + self.word_ngrams).skip(i + 1) {
                h = h.wrapping_mul(116_049_371).wrapping_add(hj as i64 as u64);
                hidden.count +=
                    self.add_bucket((h % self.bucket as u64) as i32, &mut hidden.sum) as u64;
            }
        }
        hidden.hashes = hashes;
    }

    /// fastText's `pushHash`: add the row of n-gram bucket `id` to `sum` if the model kept
    /// it; how many rows were added (0 or 1).
    #[inline]
    fn add_bucket(&self, id: i32, sum: &mut [f32]) -> u32 {
        let row = match &self.dict.pruned {
            None => id as usize,
            Some(kept) => match kept.row(id as usize) {
                Some(r) => r,
                None => return 0,
            },
        };
        self.input.add_row(sum, self.dict.nwords + row);
        1
    }

    /// fastText's hidden vector: the mean of the rows (`None` if there are none).
    pub fn mean(&self, hidden: &Hidden) -> Option<Vec<f32>> {
        if hidden.count == 0 {
            return None;
        }
        // fastText multiplies by `1.0 / n` rounded to a float.
        let inv = (1.0 / hidden.count as f64) as f32;
        Some(hidden.sum.iter().map(|x| x * inv).collect())
    }

    /// The `k` most probable labels for the text summed in `hidden`, most probable first,
    /// leaving out those below `threshold` (fastText's `predict(k, threshold)`; its threshold
    /// 0 still leaves out labels under about 1e-5). Empty if nothing was added.
    pub fn predict(&self, hidden: &Hidden, k: usize, threshold: f32) -> Vec<Prediction> {
        let Some(h) = self.mean(hidden) else {
            return Vec::new();
        };
        let k = k.max(1);
        // (score, label), kept sorted best first.
        let mut best: Vec<(f32, usize)> = Vec::with_capacity(k + 1);
        match self.loss {
            Loss::HierarchicalSoftmax => {
                let root = self.tree.len() - 1;
                self.dfs(&h, k, std_log(threshold), root, 0.0, &mut best);
            }
            _ => {
                let out = self.output_probs(&h);
                for (i, &p) in out.iter().enumerate() {
                    if p < threshold {
                        continue;
                    }
                    push_best(&mut best, k, std_log(p), i);
                }
            }
        }
        best.into_iter()
            .map(|(score, label)| Prediction {
                label,
                prob: score.exp(),
            })
            .collect()
    }

    /// Python `predict(text, k)` for one line of text (see [`Model::add_line`]).
    pub fn predict_line(&self, text: &str, k: usize, threshold: f32) -> Vec<Prediction> {
        let mut hidden = self.hidden();
        self.add_line(text, &mut hidden);
        self.predict(&hidden, k, threshold)
    }

    /// The log-probability of every label (natural log, `log(p + 1e-5)` as fastText scores),
    /// for combining with other evidence. Empty if nothing was added.
    pub(crate) fn log_probs(&self, hidden: &Hidden) -> Vec<f32> {
        let Some(h) = self.mean(hidden) else {
            return Vec::new();
        };
        match self.loss {
            Loss::HierarchicalSoftmax => {
                let mut out = vec![0.0f32; self.num_labels()];
                self.walk(&h, self.tree.len() - 1, 0.0, &mut out);
                out
            }
            _ => self.output_probs(&h).into_iter().map(std_log).collect(),
        }
    }

    /// The labels whose probability is at least `min`, with it: for hierarchical softmax only
    /// the subtrees that hold that much are visited, so a text the model is sure of costs a
    /// path or two instead of the whole tree. Empty if nothing was added.
    pub(crate) fn probs_at_least(&self, hidden: &Hidden, min: f32) -> Vec<(usize, f32)> {
        let Some(h) = self.mean(hidden) else {
            return Vec::new();
        };
        match self.loss {
            Loss::HierarchicalSoftmax => {
                let mut out = Vec::new();
                self.walk_at_least(&h, self.tree.len() - 1, 1.0, min, &mut out);
                out
            }
            _ => self
                .output_probs(&h)
                .into_iter()
                .enumerate()
                .filter(|&(_, p)| p >= min)
                .collect(),
        }
    }

    /// The probability of one label, as [`Model::probs_at_least`] gives it: for hierarchical
    /// softmax the product along its path alone (a few dot products instead of a walk). 0 if
    /// nothing was added.
    pub(crate) fn label_prob(&self, hidden: &Hidden, label: usize) -> f32 {
        let Some(h) = self.mean(hidden) else {
            return 0.0;
        };
        match self.loss {
            Loss::HierarchicalSoftmax => {
                let mut path = [(0usize, false); 64];
                let mut depth = 0;
                let mut node = label;
                while self.tree[node].parent >= 0 && depth < path.len() {
                    path[depth] = (self.tree[node].parent as usize, self.tree[node].is_right);
                    node = self.tree[node].parent as usize;
                    depth += 1;
                }
                // From the root down, multiplied in the order the walk multiplies.
                let mut p = 1.0f32;
                for &(parent, is_right) in path[..depth].iter().rev() {
                    let f = self.node_prob(&h, parent);
                    p *= if is_right { f } else { 1.0 - f };
                }
                p
            }
            _ => self.output_probs(&h)[label],
        }
    }

    fn walk_at_least(&self, h: &[f32], node: usize, p: f32, min: f32, out: &mut Vec<(usize, f32)>) {
        if p < min {
            return;
        }
        let n = self.tree[node];
        if n.left < 0 {
            out.push((node, p));
            return;
        }
        let f = self.node_prob(h, node);
        self.walk_at_least(h, n.left as usize, p * (1.0 - f), min, out);
        self.walk_at_least(h, n.right as usize, p * f, min, out);
    }

    fn walk(&self, h: &[f32], node: usize, score: f32, out: &mut [f32]) {
        let n = self.tree[node];
        if n.left < 0 {
            out[node] = score;
            return;
        }
        let f = self.node_prob(h, node);
        self.walk(h, n.left as usize, score + std_log(1.0 - f), out);
        self.walk(h, n.right as usize, score + std_log(f), out);
    }

    /// The probability of going right at an inner node.
    fn node_prob(&self, h: &[f32], node: usize) -> f32 {
        let f = self.output.dot_row(h, node - self.num_labels());
        (1.0 / (1.0 + (-f).exp()) as f64) as f32
    }

    fn dfs(
        &self,
        h: &[f32],
        k: usize,
        log_threshold: f32,
        node: usize,
        score: f32,
        best: &mut Vec<(f32, usize)>,
    ) {
        if score < log_threshold {
            return;
        }
        if best.len() == k && score < best[k - 1].0 {
            return;
        }
        let n = self.tree[node];
        if n.left < 0 && n.right < 0 {
            push_best(best, k, score, node);
            return;
        }
        let f = self.node_prob(h, node);
        self.dfs(
            h,
            k,
            log_threshold,
            n.left as usize,
            score + std_log(1.0 - f),
            best,
        );
        self.dfs(
            h,
            k,
            log_threshold,
            n.right as usize,
            score + std_log(f),
            best,
        );
    }

    /// Softmax or sigmoids over the output rows.
    fn output_probs(&self, h: &[f32]) -> Vec<f32> {
        let mut out: Vec<f32> = (0..self.num_labels())
            .map(|i| self.output.dot_row(h, i))
            .collect();
        if self.loss == Loss::Softmax {
            let max = out.iter().copied().fold(out[0], f32::max);
            let mut z = 0.0f32;
            for x in out.iter_mut() {
                *x = (*x - max).exp();
                z += *x;
            }
            for x in out.iter_mut() {
                *x /= z;
            }
        } else {
            for x in out.iter_mut() {
                *x = table_sigmoid(*x);
            }
        }
        out
    }
}

/// Keep `best` sorted, best first, at most `k` long (fastText's heap of the k best).
fn push_best(best: &mut Vec<(f32, usize)>, k: usize, score: f32, label: usize) {
    if best.len() == k && score < best[k - 1].0 {
        return;
    }
    let at = best.partition_point(|&(s, _)| s >= score);
    best.insert(at, (score, label));
    best.truncate(k);
}

/// fastText's table sigmoid (512 steps over -8..8), which its sigmoid losses predict with.
fn table_sigmoid(x: f32) -> f32 {
    const MAX: f32 = 8.0;
    const SIZE: usize = 512;
    if x < -MAX {
        0.0
    } else if x > MAX {
        1.0
    } else {
        let i = ((x + MAX) * SIZE as f32 / MAX / 2.0) as usize;
        let t = (i * 16) as f32 / SIZE as f32 - MAX;
        (1.0 / (1.0 + (-t).exp() as f64)) as f32
    }
}

/// The Huffman tree over label counts (fastText's `buildTree`): leaves `0..n`, inner nodes
/// `n..2n-1`, each with its two least frequent orphans as children.
fn build_tree(counts: &[i64]) -> Vec<Node> {
    let n = counts.len();
    let mut tree = vec![
        Node {
            left: -1,
            right: -1,
            parent: -1,
            is_right: false,
        };
        2 * n - 1
    ];
    let mut count: Vec<i64> = vec![1_000_000_000_000_000; 2 * n - 1];
    count[..n].copy_from_slice(counts);
    let mut leaf = n as i64 - 1;
    let mut node = n;
    for i in n..2 * n - 1 {
        let mut mini = [0usize; 2];
        for m in mini.iter_mut() {
            if leaf >= 0 && count[leaf as usize] < count[node] {
                *m = leaf as usize;
                leaf -= 1;
            } else {
                *m = node;
                node += 1;
            }
        }
        tree[i].left = mini[0] as i32;
        tree[i].right = mini[1] as i32;
        tree[mini[0]].parent = i as i32;
        tree[mini[1]].parent = i as i32;
        tree[mini[1]].is_right = true;
        count[i] = count[mini[0]] + count[mini[1]];
    }
    tree
}

struct LoadedDictionary {
    dictionary: Dictionary,
    counts_for_tree: Vec<i64>,
    /// fastText's `pruneidx` (n-gram bucket -> row after the words, each bucket once), if
    /// pruned.
    pruned: Option<Vec<(i32, i32)>>,
}

fn read_dictionary(r: &mut Reader) -> Result<LoadedDictionary, String> {
    let size = r.count("dictionary size")?;
    let nwords = r.count("nwords")?;
    let nlabels = r.count("nlabels")?;
    let _ntokens = r.i64()?;
    let prune_size = r.i64()?;
    if nwords + nlabels != size {
        return Err("dictionary sizes disagree".into());
    }
    let mut bytes = Vec::new();
    let mut spans = Vec::with_capacity(size);
    let mut is_label = Vec::with_capacity(size);
    let mut labels = Vec::with_capacity(nlabels);
    let mut counts = Vec::with_capacity(nlabels);
    for _ in 0..size {
        let word = r.cstr()?;
        let count = r.i64()?;
        let label = match r.u8()? {
            0 => false,
            1 => true,
            t => return Err(format!("unknown dictionary entry type {t}")),
        };
        let start = bytes.len() as u32;
        bytes.extend_from_slice(word);
        spans.push((start, bytes.len() as u32));
        is_label.push(label);
        if label {
            let name = String::from_utf8_lossy(word);
            labels.push(name.strip_prefix(LABEL_PREFIX).unwrap_or(&name).to_string());
            counts.push(count);
        }
    }
    // fastText sorts words before labels; the rows are numbered so.
    if is_label[..nwords].iter().any(|&l| l) {
        return Err("labels before words in the dictionary".into());
    }
    let pruned = if prune_size >= 0 {
        let n = usize::try_from(prune_size).map_err(|_| "bad pruned size")?;
        let mut map = Vec::with_capacity(n.min(r.bytes.len() / 8));
        for _ in 0..n {
            map.push((r.i32()?, r.i32()?));
        }
        Some(map)
    } else {
        None
    };
    let mut dictionary = Dictionary {
        bytes,
        spans,
        is_label,
        nwords,
        labels,
        table: Vec::new(),
        pruned: None,
    };
    dictionary.build_table();
    Ok(LoadedDictionary {
        dictionary,
        counts_for_tree: counts,
        pruned,
    })
}

/// A quantised matrix as a dense one (up to 64 Mi values; larger ones stay quantised), of
/// rows `order[0]`, `order[1]`, … if an order is given (a dense matrix is left as it is).
///
/// Adding a decoded row is the same float arithmetic as fastText's `addCode` (each value
/// `norm * centroid` rounded once, then added), and faster: lid.176's rows kept quantised
/// made its identification take 1.07 times the CPU (docs/performance.md).
fn dequantize(m: Matrix, order: Option<&[usize]>) -> Matrix {
    let Matrix::Quant(q) = &m else { return m };
    let rows = order.map_or(q.rows, <[usize]>::len);
    if rows * q.cols > 64 << 20 {
        return match order {
            Some(order) => Matrix::Quant(Box::new(q.take_rows(order))),
            None => m,
        };
    }
    let mut data = vec![0.0f32; rows * q.cols];
    for (i, row) in data.chunks_exact_mut(q.cols).enumerate() {
        m.add_row(row, order.map_or(i, |o| o[i]));
    }
    Matrix::Dense {
        rows,
        cols: q.cols,
        data,
    }
}

fn read_dense(r: &mut Reader) -> Result<Matrix, String> {
    let rows = r.dim64("rows")?;
    let cols = r.dim64("cols")?;
    let n = rows.checked_mul(cols).ok_or("matrix too large")?;
    let data = r.f32s(n)?;
    Ok(Matrix::Dense { rows, cols, data })
}

fn read_pq(r: &mut Reader) -> Result<(usize, ProductQuantizer), String> {
    let dim = r.count("pq dim")?;
    let nsubq = r.count("pq nsubq")?;
    let dsub = r.count("pq dsub")?;
    let lastdsub = r.count("pq lastdsub")?;
    if nsubq == 0 || (nsubq - 1) * dsub + lastdsub != dim || lastdsub > dsub {
        return Err("inconsistent product quantiser".into());
    }
    let centroids = r.f32s(dim * KSUB)?;
    Ok((
        dim,
        ProductQuantizer {
            nsubq,
            dsub,
            lastdsub,
            centroids,
        },
    ))
}

fn read_quant(r: &mut Reader) -> Result<Matrix, String> {
    let qnorm = r.u8()? != 0;
    let rows = r.dim64("rows")?;
    let cols = r.dim64("cols")?;
    let codesize = r.count("codesize")?;
    let codes = r.take(codesize)?.to_vec();
    let (dim, pq) = read_pq(r)?;
    if dim != cols || codesize != rows * pq.nsubq {
        return Err("quantised matrix and its codes disagree".into());
    }
    let norms = if qnorm {
        let codes = r.take(rows)?.to_vec();
        let (ndim, npq) = read_pq(r)?;
        if ndim != 1 {
            return Err("norm quantiser is not one-dimensional".into());
        }
        Some((codes, npq))
    } else {
        None
    };
    Ok(Matrix::Quant(Box::new(QuantMatrix {
        rows,
        cols,
        codes,
        pq,
        norms,
    })))
}

/// Little-endian reads over a byte slice, with errors instead of panics.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("model file truncated at byte {}", self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }

    fn i64(&mut self) -> Result<i64, String> {
        Ok(i64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }

    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }

    /// A non-negative `i32`.
    fn count(&mut self, what: &str) -> Result<usize, String> {
        let n = self.i32()?;
        usize::try_from(n).map_err(|_| format!("negative {what}: {n}"))
    }

    /// A non-negative `i64` that fits the file.
    fn dim64(&mut self, what: &str) -> Result<usize, String> {
        let n = self.i64()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.bytes.len())
            .ok_or_else(|| format!("bad {what}: {n}"))
    }

    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, String> {
        let bytes = self.take(n.checked_mul(4).ok_or("matrix too large")?)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect())
    }

    /// A NUL-terminated string.
    fn cstr(&mut self) -> Result<&'a [u8], String> {
        let rest = &self.bytes[self.at..];
        let n = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or("model file truncated in the dictionary")?;
        self.at += n + 1;
        Ok(&rest[..n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(word: &[u8]) -> Slot {
        let mut bytes = [0; SLOT_BYTES];
        bytes[..word.len()].copy_from_slice(word);
        Slot {
            hash: 7,
            fnv: 0,
            rows: 0,
            len: word.len() as u32,
            bytes,
        }
    }

    /// A slot holds its word only: every length up to the longest cached, a word differing in
    /// its last byte or in length, the same hash given to all.
    #[test]
    fn a_slot_holds_its_word_only() {
        let long: Vec<u8> = (0..CACHED_LEN as u8).map(|i| b'a' + i % 26).collect();
        for n in 1..=CACHED_LEN {
            let w = &long[..n];
            let s = slot(w);
            assert!(s.holds(w, 7), "{n}");
            assert!(!s.holds(w, 8), "another hash");
            let mut other = w.to_vec();
            other[n - 1] ^= 1;
            assert!(!s.holds(&other, 7), "last byte of {n}");
            if n > 1 {
                assert!(!s.holds(&w[..n - 1], 7), "shorter than {n}");
            }
            if n < CACHED_LEN {
                assert!(!s.holds(&long[..n + 1], 7), "longer than {n}");
            }
        }
        assert!(!EMPTY.holds(b"a", 0));
    }

    /// A pruned map's kept buckets give their rows by rank, in bucket order; a bucket named
    /// twice is an error, not a row silently lost.
    #[test]
    fn kept_buckets_give_their_rows_in_bucket_order() {
        let (kept, rows) = Kept::new(&[(130, 0), (5, 2), (-1, 3), (64, 1)]).unwrap();
        assert_eq!(rows, [2, 1, 0]);
        assert_eq!(
            [5, 64, 130, 6, 0].map(|b| kept.row(b)),
            [Some(0), Some(1), Some(2), None, None]
        );
        assert!(kept.row(1 << 20).is_none());
        let err = Kept::new(&[(7, 0), (9, 1), (7, 2)]).unwrap_err();
        assert!(err.contains("bucket 7 twice"), "{err}");
    }
}

//! NCleaner (Evert 2007, 2008): character n-gram language models of clean and dirty text.
//!
//! A segment is clean when the dirty model finds it less likely than the clean model by at least
//! `bias` bits per character: `H_dirty − H_clean ≥ bias`, where `H` is the cross-entropy of the
//! segment under a model. Probabilities are geometrically interpolated over all orders,
//!
//! ```text
//! P*(c | c1…cn−1) = (1−q)/(1−qⁿ) · ( P(c | c1…cn−1) + q·P(c | c2…cn−1) + … + qⁿ⁻¹·P(c) )
//! ```
//!
//! with maximum-likelihood estimates for the conditional probabilities and add-one smoothed
//! unigrams. Characters are folded first: [`Folding::Standard`] keeps ASCII and turns everything
//! else into `~`; [`Folding::NonLexical`] maps letters to `a` and digits to `0` as well. Each
//! segment is preceded by n−1 boundary symbols (newline).
//!
//! The dirty model can be trained differentially, from raw text minus clean text: each n-gram's
//! dirty count is its raw count minus its clean count, clamped at 0.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use rustc_hash::FxHashMap;

use super::ModelError;
use super::binary::{Reader, Writer};

/// The longest supported n-gram (keys pack n bytes and the order into a `u64`).
pub const MAX_ORDER: usize = 7;
/// Size of the folded alphabet, for add-one smoothing of unigrams.
const ALPHABET: f64 = 128.0;
const BOUNDARY: u8 = b'\n';

/// How characters are folded before counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folding {
    /// ASCII kept, whitespace → space, other characters → `~`.
    Standard,
    /// Letters → `a`, digits → `0`, whitespace → space, other ASCII kept, the rest → `~`.
    NonLexical,
}

impl Folding {
    /// Its name in the model's text format (`standard`, `nonlexical`).
    pub fn as_str(self) -> &'static str {
        match self {
            Folding::Standard => "standard",
            Folding::NonLexical => "nonlexical",
        }
    }

    fn code(self) -> u8 {
        match self {
            Folding::Standard => 0,
            Folding::NonLexical => 1,
        }
    }

    fn parse(s: &str) -> Option<Folding> {
        match s {
            "standard" => Some(Folding::Standard),
            "nonlexical" => Some(Folding::NonLexical),
            _ => None,
        }
    }

    /// The folded symbol for one character.
    #[inline]
    pub fn fold(self, c: char) -> u8 {
        if c.is_ascii() {
            let b = c as u8;
            return match self {
                _ if b.is_ascii_whitespace() || b.is_ascii_control() => b' ',
                Folding::NonLexical if b.is_ascii_alphabetic() => b'a',
                Folding::NonLexical if b.is_ascii_digit() => b'0',
                _ => b,
            };
        }
        if c.is_whitespace() || c.is_control() {
            return b' ';
        }
        if self == Folding::NonLexical {
            if c.is_alphabetic() {
                return b'a';
            }
            if c.is_numeric() {
                return b'0';
            }
        }
        if c.is_ascii() { c as u8 } else { b'~' }
    }
}

/// Training parameters and the defaults from the papers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// n, the longest n-gram (1 to [`MAX_ORDER`]).
    pub order: usize,
    /// The interpolation weight: each shorter order's weight is `q` times the next longer one's.
    pub q: f64,
    /// How characters are folded before counting.
    pub folding: Folding,
}

impl Params {
    /// NCleaner's standard model: n = 3, q = 0.5.
    pub const STANDARD: Params = Params {
        order: 3,
        q: 0.5,
        folding: Folding::Standard,
    };
    /// The non-lexical model: n = 6, q = 0.4.
    pub const NON_LEXICAL: Params = Params {
        order: 6,
        q: 0.4,
        folding: Folding::NonLexical,
    };
}

/// The table key of the k-gram ending `history` (one byte per symbol): the order in the top
/// byte, the last k symbols below (k ≤ 7).
fn key(k: usize, history: u64) -> u64 {
    ((k as u64) << 56) | (history & ((1u64 << (8 * k)) - 1))
}

fn key_order(key: u64) -> usize {
    (key >> 56) as usize
}

/// Counts of all k-grams, k = 1..=order, of folded segments.
#[derive(Debug, Clone, PartialEq)]
pub struct Counts {
    order: usize,
    folding: Folding,
    grams: FxHashMap<u64, i64>,
}

impl Counts {
    /// No counts yet, for k-grams up to `order` (1 to [`MAX_ORDER`]; panics otherwise).
    pub fn new(order: usize, folding: Folding) -> Counts {
        assert!((1..=MAX_ORDER).contains(&order), "order 1..=7");
        Counts {
            order,
            folding,
            grams: FxHashMap::default(),
        }
    }

    /// Count one segment.
    pub fn add_segment(&mut self, text: &str) {
        let folding = self.folding;
        let mut h = 0u64;
        for _ in 1..self.order {
            h = (h << 8) | BOUNDARY as u64;
        }
        for c in text.chars() {
            h = (h << 8) | folding.fold(c) as u64;
            for k in 1..=self.order {
                *self.grams.entry(key(k, h)).or_insert(0) += 1;
            }
        }
    }

    /// Add (`sign` = 1) or remove (`sign` = −1) another table's counts.
    pub fn merge(&mut self, other: &Counts, sign: i64) {
        for (k, v) in &other.grams {
            *self.grams.entry(*k).or_insert(0) += sign * v;
        }
    }

    /// Raw minus clean, clamped at 0 (NCleaner's differential training).
    pub fn difference(raw: &Counts, clean: &Counts) -> Counts {
        let mut d = raw.clone();
        d.merge(clean, -1);
        d.grams.retain(|_, v| *v > 0);
        d
    }

    /// Total number of characters counted.
    pub fn chars(&self) -> i64 {
        self.grams
            .iter()
            .filter(|(k, _)| key_order(**k) == 1)
            .map(|(_, v)| (*v).max(0))
            .sum()
    }
}

/// A trained pair of models, ready to score.
#[derive(Debug)]
pub struct NgramModel {
    /// The parameters it was trained with.
    pub params: Params,
    scorer: Scorer,
    /// Models of order ≤ [`DENSE_MAX_ORDER`]: both log-probabilities of every n-gram of folded
    /// symbols, indexed by [`dense_code`]s, so that scoring is one array read per character.
    /// Built once [`DENSE_AFTER_BYTES`] of text have been scored: building it takes longer than
    /// scoring one page from the lookups (`cowrex extract`).
    dense: OnceLock<Vec<[f32; 2]>>,
    /// Bytes of text scored so far, until the dense table is built.
    scored: AtomicUsize,
}

fn not_binary() -> ModelError {
    ModelError("not a cowrex n-gram model in its binary layout".into())
}

/// The parameters and scorer of [`NgramModel::to_bytes`]'s layout (its table still to be
/// set), and the table's slots and size in bits.
fn read_layout(bytes: &[u8]) -> Result<(Params, Scorer, &[u8], u32), ModelError> {
    let bad = not_binary;
    let mut r = Reader(bytes);
    let order = r.u8().ok_or_else(bad)? as usize;
    let q = r.f64().ok_or_else(bad)?;
    let folding = match r.u8().ok_or_else(bad)? {
        0 => Folding::Standard,
        1 => Folding::NonLexical,
        _ => return Err(bad()),
    };
    if !(1..=MAX_ORDER).contains(&order) {
        return Err(bad());
    }
    let mut log_backoff = [0f32; MAX_ORDER + 1];
    for v in &mut log_backoff {
        *v = r.f32().ok_or_else(bad)?;
    }
    let log_unseen = [r.f32().ok_or_else(bad)?, r.f32().ok_or_else(bad)?];
    let bits = u32::from(r.u8().ok_or_else(bad)?);
    if !(2..=32).contains(&bits) || r.0.len() != 16 << bits {
        return Err(bad());
    }
    let scorer = Scorer {
        order,
        log_p: LogP::Map(FxHashMap::default()),
        log_backoff,
        log_unseen,
    };
    Ok((Params { order, q, folding }, scorer, r.0, bits))
}

impl Clone for NgramModel {
    fn clone(&self) -> NgramModel {
        NgramModel {
            params: self.params,
            scorer: self.scorer.clone(),
            dense: self.dense.clone(),
            scored: AtomicUsize::new(self.scored.load(Ordering::Relaxed)),
        }
    }
}

/// How much text a model of low order scores from its lookups before it builds its dense
/// table (which takes as long as scoring about this much text from the lookups).
const DENSE_AFTER_BYTES: usize = 256 << 10;

/// The highest order scored from a dense table (96³ entries of 8 bytes: 7 MB).
const DENSE_MAX_ORDER: usize = 3;
/// The symbols a folded character or the boundary can be: `\n`, space and printable ASCII.
const DENSE_SYMBOLS: usize = 96;

/// How many characters ahead [`NgramModel::score`] asks for a dense table entry.
const PREFETCH_AHEAD: usize = 16;

/// Ask the processor to bring `entry` into its caches (a hint; nothing is read).
#[inline(always)]
fn prefetch<T>(entry: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint that never faults, and SSE is part of x86-64.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((entry as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = entry;
}

/// A folded symbol's place among the [`DENSE_SYMBOLS`]; `None` for bytes folding never gives
/// (a model file may hold them; no text reaches them).
fn dense_code(b: u8) -> Option<usize> {
    match b {
        BOUNDARY => Some(0),
        b' '..=b'~' => Some((b - b' ') as usize + 1),
        _ => None,
    }
}

/// log₂ P*ₖ of the n-grams either model has seen (NaN where one has not): a hash map, or a
/// built-in model's table read in place from its binary layout ([`NgramModel::to_bytes`]).
#[derive(Debug, Clone)]
enum LogP {
    Map(FxHashMap<u64, [f32; 2]>),
    /// An open-addressing table of `1 << bits` slots of 16 bytes (key, clean and dirty
    /// log-probabilities; key 0 marks an empty slot), probed linearly from [`slot`].
    Laid {
        slots: &'static [u8],
        bits: u32,
    },
}

/// Where the probing for a key starts in a table of `1 << bits` slots (Fibonacci hashing).
fn slot(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}

/// A slot of a laid-out table: its key and log-probabilities.
fn read_slot(slots: &[u8], i: usize) -> (u64, [f32; 2]) {
    let s = &slots[16 * i..16 * i + 16];
    let word = |a: usize| f32::from_le_bytes(s[a..a + 4].try_into().unwrap());
    (
        u64::from_le_bytes(s[..8].try_into().unwrap()),
        [word(8), word(12)],
    )
}

impl LogP {
    #[inline]
    fn get(&self, key: u64) -> Option<[f32; 2]> {
        match self {
            LogP::Map(map) => map.get(&key).copied(),
            LogP::Laid { slots, bits } => {
                let mask = (1usize << bits) - 1;
                let mut i = slot(key, *bits);
                // Bounded, should a table have no empty slot.
                for _ in 0..=mask {
                    match read_slot(slots, i) {
                        (k, lp) if k == key => return Some(lp),
                        (0, _) => return None,
                        _ => i = (i + 1) & mask,
                    }
                }
                None
            }
        }
    }

    fn iter(&self) -> Box<dyn Iterator<Item = (u64, [f32; 2])> + '_> {
        match self {
            LogP::Map(map) => Box::new(map.iter().map(|(k, v)| (*k, *v))),
            LogP::Laid { slots, bits } => Box::new(
                (0..1usize << bits)
                    .map(|i| read_slot(slots, i))
                    .filter(|(k, _)| *k != 0),
            ),
        }
    }

    fn len(&self) -> usize {
        match self {
            LogP::Map(map) => map.len(),
            LogP::Laid { .. } => self.iter().count(),
        }
    }
}

/// Both models in one table: log₂ P*ₖ of every k-gram observed in either (NaN where a model
/// has not seen it), so that one lookup usually serves both; and the back-off weights.
#[derive(Debug, Clone)]
struct Scorer {
    order: usize,
    log_p: LogP,
    /// log₂ of q·(1−qᵏ⁻¹)/(1−qᵏ), indexed by k: the weight left when the k-gram is unseen.
    log_backoff: [f32; MAX_ORDER + 1],
    /// log₂ of the add-one probability of an unseen character, per model.
    log_unseen: [f32; 2],
}

impl Scorer {
    fn new(clean: &Counts, dirty: &Counts, q: f64) -> Scorer {
        let (c, unseen_c) = Self::table(clean, q);
        let (d, unseen_d) = Self::table(dirty, q);
        let mut log_p: FxHashMap<u64, [f32; 2]> = FxHashMap::default();
        for (k, v) in c {
            log_p.insert(k, [v, f32::NAN]);
        }
        for (k, v) in d {
            log_p.entry(k).or_insert([f32::NAN; 2])[1] = v;
        }
        let mut log_backoff = [0f32; MAX_ORDER + 1];
        for (k, b) in log_backoff.iter_mut().enumerate().skip(2) {
            let k = k as i32;
            *b = (q * (1.0 - q.powi(k - 1)) / (1.0 - q.powi(k))).log2() as f32;
        }
        Scorer {
            order: clean.order,
            log_p: LogP::Map(log_p),
            log_backoff,
            log_unseen: [unseen_c, unseen_d],
        }
    }

    /// log₂ P*ₖ of every observed k-gram of one model, and log₂ of an unseen character's
    /// probability.
    fn table(counts: &Counts, q: f64) -> (FxHashMap<u64, f32>, f32) {
        // Context totals: for each (k−1)-gram, the sum of the counts of the k-grams it begins.
        let mut context: FxHashMap<u64, f64> = FxHashMap::default();
        let mut total = 0f64;
        for (&k, &v) in &counts.grams {
            let order = key_order(k);
            let v = v.max(0) as f64;
            if order == 1 {
                total += v;
            } else {
                *context
                    .entry(key(order - 1, (k & !(0xffu64 << 56)) >> 8))
                    .or_insert(0.0) += v;
            }
        }
        let ml = |order: usize, h: u64| -> f64 {
            let c = counts
                .grams
                .get(&key(order, h))
                .map_or(0.0, |v| (*v).max(0) as f64);
            if order == 1 {
                (c + 1.0) / (total + ALPHABET)
            } else {
                match context.get(&key(order - 1, h >> 8)) {
                    Some(t) if *t > 0.0 => c / t,
                    _ => 0.0,
                }
            }
        };
        let mut log_p = FxHashMap::default();
        for (&k, &v) in &counts.grams {
            if v <= 0 {
                continue;
            }
            let order = key_order(k);
            let h = k & !(0xffu64 << 56);
            let mut sum = 0f64;
            for j in 0..order {
                sum += q.powi(j as i32) * ml(order - j, h);
            }
            let p = (1.0 - q) / (1.0 - q.powi(order as i32)) * sum;
            log_p.insert(k, p.log2() as f32);
        }
        (log_p, (1.0 / (total + ALPHABET)).log2() as f32)
    }

    /// [`Scorer::log_probs`] of every n-gram of [`DENSE_SYMBOLS`], the n-gram with codes
    /// (s₁ … sₙ) at Σ sᵢ·96ⁿ⁻ⁱ; the same f32 operations, so the same values. Built order by
    /// order: an n-gram a model has not seen takes its suffix's value plus the back-off weight.
    fn dense(&self) -> Vec<[f32; 2]> {
        // acc[k]: the back-off weights summed (as `log_probs` sums them) before order k is
        // looked up.
        let mut acc = [0f32; MAX_ORDER + 2];
        for k in (1..=self.order).rev() {
            acc[k - 1] = acc[k] + self.log_backoff[k];
        }
        let mut by_order: Vec<Vec<(usize, [f32; 2])>> = vec![Vec::new(); self.order + 1];
        'entries: for (key, lp) in self.log_p.iter() {
            let k = key_order(key);
            if k == 0 || k > self.order {
                continue;
            }
            let mut index = 0;
            for i in (0..k).rev() {
                let Some(code) = dense_code((key >> (8 * i)) as u8) else {
                    continue 'entries;
                };
                index = index * DENSE_SYMBOLS + code;
            }
            by_order[k].push((index, lp));
        }
        let unseen = [0, 1].map(|m| acc[0] + self.log_unseen[m]);
        let mut table = vec![unseen];
        for (k, entries) in by_order.iter().enumerate().skip(1) {
            // Every k-gram starts from its (k−1)-suffix's value: the suffix is the index modulo
            // 96^(k−1), so the lower table repeats once per first symbol.
            let mut next = Vec::with_capacity(table.len() * DENSE_SYMBOLS);
            for _ in 0..DENSE_SYMBOLS {
                next.extend_from_slice(&table);
            }
            for &(index, lp) in entries {
                for (m, v) in lp.iter().enumerate() {
                    if !v.is_nan() {
                        next[index][m] = acc[k] + v;
                    }
                }
            }
            table = next;
        }
        table
    }

    /// log₂ P*(last symbol of `h` | the symbols before it) under the clean and the dirty model.
    #[inline]
    fn log_probs(&self, h: u64) -> [f32; 2] {
        let mut acc = 0f32;
        let mut out = [f32::NAN; 2];
        for k in (1..=self.order).rev() {
            if let Some(lp) = self.log_p.get(key(k, h)) {
                for (o, v) in out.iter_mut().zip(lp) {
                    if o.is_nan() && !v.is_nan() {
                        *o = acc + v;
                    }
                }
                if !out[0].is_nan() && !out[1].is_nan() {
                    return out;
                }
            }
            acc += self.log_backoff[k];
        }
        for (o, u) in out.iter_mut().zip(self.log_unseen) {
            if o.is_nan() {
                *o = acc + u;
            }
        }
        out
    }
}

impl NgramModel {
    /// Build from clean and dirty counts (same order and folding as `params`).
    pub fn new(params: Params, clean: &Counts, dirty: &Counts) -> NgramModel {
        assert_eq!(clean.order, params.order);
        assert_eq!(dirty.order, params.order);
        NgramModel::from_scorer(params, Scorer::new(clean, dirty, params.q))
    }

    fn from_scorer(params: Params, scorer: Scorer) -> NgramModel {
        NgramModel {
            params,
            scorer,
            dense: OnceLock::new(),
            scored: AtomicUsize::new(0),
        }
    }

    /// Read [`model_text`]'s format.
    pub fn parse(text: &str) -> Result<NgramModel, ModelError> {
        let (params, clean, dirty) = parse_counts(text)?;
        Ok(NgramModel::new(params, &clean, &dirty))
    }

    /// The model ready to score, in the binary layout of `classify::binary` (how `build.rs`
    /// hands over the built-in models): order, q, folding, the back-off weights and the unseen
    /// character's log-probabilities, then the n-grams' table (`LogP::Laid`): its size in
    /// bits and its slots, at most two thirds of them used.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.u8(self.params.order as u8);
        w.f64(self.params.q);
        w.u8(self.params.folding.code());
        for v in self
            .scorer
            .log_backoff
            .iter()
            .chain(&self.scorer.log_unseen)
        {
            w.f32(*v);
        }
        let log_p = &self.scorer.log_p;
        let bits = (log_p.len() * 3 / 2)
            .max(4)
            .next_power_of_two()
            .trailing_zeros();
        let mut table = vec![(0u64, [0f32; 2]); 1 << bits];
        // Inserted in key order, so the table is the same however the entries are held.
        let mut entries: Vec<(u64, [f32; 2])> = log_p.iter().collect();
        entries.sort_unstable_by_key(|e| e.0);
        for (k, lp) in entries {
            let mut i = slot(k, bits);
            while table[i].0 != 0 {
                i = (i + 1) & ((1 << bits) - 1);
            }
            table[i] = (k, lp);
        }
        w.u8(bits as u8);
        for (k, [c, d]) in table {
            w.u64(k);
            w.f32(c);
            w.f32(d);
        }
        w.0
    }

    /// Read [`NgramModel::to_bytes`]'s layout into a hash map, every entry checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<NgramModel, ModelError> {
        let (params, mut scorer, slots, bits) = read_layout(bytes)?;
        let mut map = FxHashMap::default();
        for i in 0..1usize << bits {
            match read_slot(slots, i) {
                (0, _) => {}
                (k, lp) if (1..=params.order).contains(&key_order(k)) => {
                    map.insert(k, lp);
                }
                _ => return Err(not_binary()),
            }
        }
        scorer.log_p = LogP::Map(map);
        Ok(NgramModel::from_scorer(params, scorer))
    }

    /// A built-in model from [`NgramModel::to_bytes`]'s layout, its table read in place:
    /// nothing to build before the first page is scored. `build.rs` wrote the layout, and a
    /// test checks each built-in model with [`NgramModel::from_bytes`].
    pub(crate) fn from_static(bytes: &'static [u8]) -> Result<NgramModel, ModelError> {
        let (params, mut scorer, slots, bits) = read_layout(bytes)?;
        scorer.log_p = LogP::Laid { slots, bits };
        Ok(NgramModel::from_scorer(params, scorer))
    }

    /// NCleaner's score of a segment: `H_dirty − H_clean` in bits per character; positive means
    /// the clean model fits better. `None` for empty text. The dense table and the lookups give
    /// the same values, bit for bit.
    pub fn score(&self, text: &str) -> Option<f32> {
        match (self.dense_table(text.len()), self.params.order) {
            (Some(dense), 1) => self.score_dense::<1>(dense, text),
            (Some(dense), 2) => self.score_dense::<2>(dense, text),
            (Some(dense), 3) => self.score_dense::<3>(dense, text),
            _ => self.score_hashed(text),
        }
    }

    /// The dense table, once the model has scored enough text for it to pay (`bytes` more
    /// now); `None` before and for orders above [`DENSE_MAX_ORDER`].
    fn dense_table(&self, bytes: usize) -> Option<&[[f32; 2]]> {
        if self.params.order > DENSE_MAX_ORDER {
            return None;
        }
        if let Some(dense) = self.dense.get() {
            return Some(dense);
        }
        if self.scored.fetch_add(bytes, Ordering::Relaxed) + bytes < DENSE_AFTER_BYTES {
            return None;
        }
        Some(self.dense.get_or_init(|| self.scorer.dense()))
    }

    /// [`NgramModel::score`] from the dense table of a model of order `N`. Each character's
    /// entry is asked for [`PREFETCH_AHEAD`] characters before it is added, so that the reads
    /// of the 7 MB table overlap instead of waiting one by one; the sums keep the text's order.
    fn score_dense<const N: usize>(&self, dense: &[[f32; 2]], text: &str) -> Option<f32> {
        // Indices of the N−1 last symbols wrap at 96^(N−1) (a constant, so no division); the
        // boundaries are code 0.
        let context = DENSE_SYMBOLS.pow(N as u32 - 1);
        let folding = self.params.folding;
        let mut pending = [0usize; PREFETCH_AHEAD];
        let (mut index, mut clean, mut dirty, mut chars) = (0usize, 0f64, 0f64, 0usize);
        let mut add = |index: usize| {
            let [c, d] = dense[index];
            clean += c as f64;
            dirty += d as f64;
        };
        for c in text.chars() {
            let code = dense_code(folding.fold(c)).expect("folding gives printable ASCII");
            index = index % context * DENSE_SYMBOLS + code;
            prefetch(&dense[index]);
            let slot = &mut pending[chars % PREFETCH_AHEAD];
            if chars >= PREFETCH_AHEAD {
                add(*slot);
            }
            *slot = index;
            chars += 1;
        }
        for k in chars.saturating_sub(PREFETCH_AHEAD)..chars {
            add(pending[k % PREFETCH_AHEAD]);
        }
        (chars > 0).then(|| ((clean - dirty) / chars as f64) as f32)
    }

    /// [`NgramModel::score`] with a table lookup per order.
    fn score_hashed(&self, text: &str) -> Option<f32> {
        let n = self.params.order;
        let mut h = 0u64;
        for _ in 1..n {
            h = (h << 8) | BOUNDARY as u64;
        }
        let (mut clean, mut dirty, mut chars) = (0f64, 0f64, 0usize);
        for c in text.chars() {
            h = (h << 8) | self.params.folding.fold(c) as u64;
            let [c, d] = self.scorer.log_probs(h);
            clean += c as f64;
            dirty += d as f64;
            chars += 1;
        }
        (chars > 0).then(|| ((clean - dirty) / chars as f64) as f32)
    }
}

/// A model as text: a header, then every k-gram (hex of its folded bytes) with its clean
/// and dirty counts, sorted.
pub fn model_text(p: &Params, clean: &Counts, dirty: &Counts) -> String {
    let mut rows: BTreeMap<(usize, u64), (i64, i64)> = BTreeMap::new();
    for (which, counts) in [clean, dirty].into_iter().enumerate() {
        for (&k, &v) in &counts.grams {
            if v > 0 {
                let e = rows.entry((key_order(k), k)).or_default();
                if which == 0 {
                    e.0 = v;
                } else {
                    e.1 = v;
                }
            }
        }
    }
    let mut s = format!(
        "cowrex-ngram 1\norder {}\nq {}\nfolding {}\n",
        p.order,
        p.q,
        p.folding.as_str()
    );
    for ((order, k), (c, d)) in rows {
        for i in (0..order).rev() {
            let _ = write!(s, "{:02x}", (k >> (8 * i)) & 0xff);
        }
        let _ = writeln!(s, "\t{c}\t{d}");
    }
    s
}

/// Read [`model_text`]'s format: the parameters and the clean and dirty counts.
pub(crate) fn parse_counts(text: &str) -> Result<(Params, Counts, Counts), ModelError> {
    let bad = |m: &str| ModelError(format!("not a cowrex n-gram model: {m}"));
    let mut lines = text.lines();
    if lines.next() != Some("cowrex-ngram 1") {
        return Err(bad("missing header `cowrex-ngram 1`"));
    }
    let mut field = |name: &str| -> Result<String, ModelError> {
        lines
            .next()
            .and_then(|l| l.strip_prefix(name))
            .and_then(|l| l.strip_prefix(' '))
            .map(str::to_owned)
            .ok_or_else(|| bad(&format!("missing `{name}`")))
    };
    let order: usize = field("order")?.parse().map_err(|_| bad("order"))?;
    let q: f64 = field("q")?.parse().map_err(|_| bad("q"))?;
    let folding = Folding::parse(&field("folding")?).ok_or_else(|| bad("folding"))?;
    if !(1..=MAX_ORDER).contains(&order) {
        return Err(bad("order must be 1..=7"));
    }
    let params = Params { order, q, folding };
    let (mut clean, mut dirty) = (Counts::new(order, folding), Counts::new(order, folding));
    for (i, line) in lines.enumerate() {
        let mut f = line.split('\t');
        let (Some(g), Some(c), Some(d), None) = (f.next(), f.next(), f.next(), f.next()) else {
            return Err(bad(&format!("line {}: expected 3 fields", i + 5)));
        };
        if g.is_empty() || g.len() % 2 != 0 || g.len() / 2 > order {
            return Err(bad(&format!("line {}: bad n-gram {g:?}", i + 5)));
        }
        let h = u64::from_str_radix(g, 16).map_err(|_| bad(&format!("line {}", i + 5)))?;
        let k = key(g.len() / 2, h);
        let num = |s: &str| {
            s.parse::<i64>()
                .map_err(|_| bad(&format!("line {}", i + 5)))
        };
        let (c, d) = (num(c)?, num(d)?);
        if c > 0 {
            clean.grams.insert(k, c);
        }
        if d > 0 {
            dirty.grams.insert(k, d);
        }
    }
    Ok((params, clean, dirty))
}

/// Paragraphs of a plain text: runs of non-blank lines, joined with a space.
pub fn paragraphs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(line);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(params: Params) -> (Counts, Counts) {
        let mut clean = Counts::new(params.order, params.folding);
        let mut dirty = Counts::new(params.order, params.folding);
        for _ in 0..20 {
            clean.add_segment("The committee discussed the proposal at length and agreed.");
            clean.add_segment("Researchers found that the river had changed its course.");
            dirty.add_segment("Home | About us | Contact | Login");
            dirty.add_segment("Copyright 2015 All rights reserved. Click here");
        }
        (clean, dirty)
    }

    fn model(params: Params) -> NgramModel {
        let (clean, dirty) = counts(params);
        NgramModel::new(params, &clean, &dirty)
    }

    #[test]
    fn folding() {
        let s = |f: Folding, t: &str| -> String { t.chars().map(|c| f.fold(c) as char).collect() };
        assert_eq!(s(Folding::Standard, "É 42.\tx"), "~ 42. x");
        assert_eq!(
            s(Folding::NonLexical, "The answer is 42."),
            "aaa aaaaaa aa 00."
        );
        assert_eq!(s(Folding::NonLexical, "Ça — é"), "aa ~ a");
    }

    #[test]
    fn interpolated_probabilities_sum_to_one() {
        let m = model(Params::STANDARD);
        // Over the whole alphabet, P*(c | "th") must sum to 1 (add-one unigrams included).
        let h = ((b't' as u64) << 16) | ((b'h' as u64) << 8);
        let sum: f64 = (0u64..128)
            .map(|c| (m.scorer.log_probs(h | c)[0] as f64).exp2())
            .sum();
        assert!((sum - 1.0).abs() < 1e-3, "{sum}");
    }

    #[test]
    fn separates_clean_from_dirty() {
        for p in [Params::STANDARD, Params::NON_LEXICAL] {
            let m = model(p);
            let clean = m.score("The researchers discussed the course of the river.");
            let dirty = m.score("Contact | Login | Home");
            assert!(clean.unwrap() > 0.0 && dirty.unwrap() < 0.0, "{p:?}");
        }
        assert_eq!(model(Params::STANDARD).score(""), None);
    }

    #[test]
    fn dense_table_scores_exactly_as_the_lookups() {
        // Longer than the characters read ahead.
        let long = "The committee discussed the proposal | Home ».".repeat(7);
        let texts = [
            "The committee discussed the proposal.",
            "Home | About us | Contact | Login",
            "Ça — é\tüber\u{7f}\u{0}\n 42 ~ {x} zzqx",
            "a",
            "",
            long.as_str(),
            // Exactly as long.
            "0123456789abcdef",
        ];
        for order in 1..=DENSE_MAX_ORDER {
            for folding in [Folding::Standard, Folding::NonLexical] {
                let m = model(Params {
                    order,
                    q: 0.5,
                    folding,
                });
                assert!(m.dense_table(DENSE_AFTER_BYTES).is_some());
                for t in texts {
                    // Bit for bit: the scores are model inputs.
                    assert_eq!(
                        m.score(t).map(f32::to_bits),
                        m.score_hashed(t).map(f32::to_bits),
                        "order {order}, {folding:?}: {t:?}"
                    );
                }
            }
        }
        assert!(
            model(Params::NON_LEXICAL)
                .dense_table(DENSE_AFTER_BYTES)
                .is_none()
        );
        // A model builds its table only once it has scored enough text.
        let m = model(Params::STANDARD);
        let t = "The committee discussed the proposal.";
        let before = m.score(t);
        assert!(m.dense.get().is_none());
        assert!(m.dense_table(DENSE_AFTER_BYTES).is_some());
        assert_eq!(m.score(t).map(f32::to_bits), before.map(f32::to_bits));
    }

    #[test]
    fn binary_layout_round_trips() {
        // A model that has seen nothing still lays out a table with room to probe.
        let empty = Counts::new(3, Folding::Standard);
        let m = NgramModel::new(Params::STANDARD, &empty, &empty);
        let again = NgramModel::from_bytes(&m.to_bytes()).unwrap();
        assert_eq!(
            again.score("x").map(f32::to_bits),
            m.score("x").map(f32::to_bits)
        );
        for p in [Params::STANDARD, Params::NON_LEXICAL] {
            let m = model(p);
            let bytes = m.to_bytes();
            let again = NgramModel::from_bytes(&bytes).unwrap();
            assert_eq!(again.params, p);
            assert_eq!(again.to_bytes(), bytes);
            for t in ["The committee discussed the proposal.", "Home | Login", ""] {
                assert_eq!(
                    again.score(t).map(f32::to_bits),
                    m.score(t).map(f32::to_bits)
                );
            }
            for cut in [0, 10, bytes.len() - 1] {
                assert!(NgramModel::from_bytes(&bytes[..cut]).is_err());
            }
        }
    }

    #[test]
    fn text_format_round_trips() {
        let p = Params::NON_LEXICAL;
        let (clean, dirty) = counts(p);
        let t = model_text(&p, &clean, &dirty);
        let (p2, c2, d2) = parse_counts(&t).unwrap();
        assert_eq!(model_text(&p2, &c2, &d2), t);
        let s = "Some text, 12 words.";
        assert_eq!(NgramModel::parse(&t).unwrap().score(s), model(p).score(s));
        assert!(NgramModel::parse("cowrex-ngram 1\norder 9\nq 0.5\nfolding standard\n").is_err());
    }

    #[test]
    fn differential_counts_are_clamped() {
        let mut raw = Counts::new(2, Folding::Standard);
        raw.add_segment("ab ab menu");
        let mut clean = Counts::new(2, Folding::Standard);
        clean.add_segment("ab ab ab");
        let d = Counts::difference(&raw, &clean);
        assert!(d.grams.values().all(|v| *v > 0));
        assert_eq!(d.grams.get(&key(1, b'a' as u64)), None);
        assert_eq!(d.grams.get(&key(1, b'm' as u64)), Some(&1));
    }

    #[test]
    fn paragraphs_split_on_blank_lines() {
        assert_eq!(paragraphs("a\nb\n\n\n c \n"), vec!["a b", "c"]);
    }
}

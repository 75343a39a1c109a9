//! A compact character n-gram model over a fixed set of languages: for each language the
//! conditional log-probabilities `ln P(c | up to order-1 preceding letters of the word)` of
//! some n-grams (built from lingua-rs's published language models by `src/bin/ngram_build.rs`),
//! scored as a Markov chain with back-off to shorter contexts.
//!
//! Words are runs of letters, lowercased; each Han, Hiragana or Katakana letter is a word of
//! its own (as lingua splits them). Each letter of a word is scored in each candidate language
//! by its longest known n-gram ending there (at most `order` letters, within the word), less
//! `backoff` per letter of context given up; a letter a language does not know at all costs
//! `floor`.
//!
//! File format (little-endian): `CWNG`, version `u32` (1), `u32` languages, `u32` order,
//! `f32` quantisation step, `f32` floor, `f32` backoff, per language 8 bytes of code (ASCII,
//! NUL-padded), `u32` keys; then the keys (`u64` hash of the n-gram's UTF-8 bytes), sorted,
//! one `u32` offset each into the entries (and one more at the end), and the entries: pairs
//! `(language u8, quantised -ln P u8)`.

use rustc_hash::FxHashMap;

const MAGIC: &[u8; 4] = b"CWNG";

/// Languages a model can hold (a bit set of `u128`).
pub(crate) const MAX_LANGS: usize = 128;

/// A set of the model's languages (bit `i`: language `i`).
pub(crate) type LangSet = u128;

/// The n-gram model.
#[derive(Debug, Clone)]
pub struct NgramModel {
    codes: Vec<String>,
    order: usize,
    step: f32,
    floor: f32,
    backoff: f32,
    /// n-gram hash -> range of `entries`.
    index: FxHashMap<u64, (u32, u32)>,
    entries: Vec<(u8, u8)>,
}

/// The scores of a text: per language, the sum of its letters' log-probabilities.
#[derive(Debug, Clone)]
pub struct NgramScores {
    /// Per language (the model's order), `ln P(text | language)` as the model scores it.
    pub(crate) log_prob: Vec<f32>,
    /// How many letters were scored.
    pub letters: u32,
}

/// The 64-bit hash the model keys n-grams by (FNV-1a over the UTF-8 bytes).
pub(crate) fn ngram_hash(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h | 1 // never 0
}

/// Split `text` into lingua-style words: lowercased runs of letters, each Han/kana letter alone.
pub fn words(text: &str, mut f: impl FnMut(&[char])) {
    let mut word: Vec<char> = Vec::with_capacity(32);
    for c in text.chars() {
        if c.is_alphabetic() {
            if is_single_letter_word(c) {
                if !word.is_empty() {
                    f(&word);
                    word.clear();
                }
                f(&[c]);
                continue;
            }
            if c.is_uppercase() {
                word.extend(c.to_lowercase());
            } else {
                word.push(c);
            }
        } else if !word.is_empty() {
            f(&word);
            word.clear();
        }
    }
    if !word.is_empty() {
        f(&word);
    }
}

/// Han, Hiragana and Katakana letters are words of their own.
fn is_single_letter_word(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x31F0..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF
        | 0xFF66..=0xFF9F | 0x20000..=0x2FA1F)
}

impl NgramModel {
    /// Read a model file.
    pub fn from_bytes(bytes: &[u8]) -> Result<NgramModel, String> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], String> {
            let s = bytes.get(at..at + n).ok_or("n-gram model truncated")?;
            at += n;
            Ok(s)
        };
        if take(4)? != MAGIC {
            return Err("not an n-gram model".into());
        }
        let u32_ = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap());
        let f32_ = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
        if u32_(take(4)?) != 1 {
            return Err("unknown n-gram model version".into());
        }
        let nlang = u32_(take(4)?) as usize;
        if nlang > MAX_LANGS {
            return Err("too many languages".into());
        }
        let order = u32_(take(4)?) as usize;
        let step = f32_(take(4)?);
        let floor = f32_(take(4)?);
        let backoff = f32_(take(4)?);
        let mut codes = Vec::with_capacity(nlang);
        for _ in 0..nlang {
            let c = take(8)?;
            let end = c.iter().position(|&b| b == 0).unwrap_or(8);
            codes.push(String::from_utf8_lossy(&c[..end]).into_owned());
        }
        let nkeys = u32_(take(4)?) as usize;
        let keys = take(nkeys * 8)?;
        let offsets = take((nkeys + 1) * 4)?;
        let offsets: Vec<u32> = offsets.chunks_exact(4).map(u32_).collect();
        let nentries = *offsets.last().unwrap() as usize;
        let raw = take(nentries * 2)?;
        let entries: Vec<(u8, u8)> = raw.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        if entries.iter().any(|&(l, _)| l as usize >= nlang) {
            return Err("n-gram entry for an unknown language".into());
        }
        let mut index = FxHashMap::with_capacity_and_hasher(nkeys, Default::default());
        for (i, k) in keys.chunks_exact(8).enumerate() {
            let (a, b) = (offsets[i], offsets[i + 1]);
            if a > b || b as usize > nentries {
                return Err("bad n-gram offsets".into());
            }
            index.insert(u64::from_le_bytes(k.try_into().unwrap()), (a, b));
        }
        Ok(NgramModel {
            codes,
            order,
            step,
            floor,
            backoff,
            index,
            entries,
        })
    }

    /// The languages' codes (ISO 639-1), in the model's order.
    pub fn codes(&self) -> &[String] {
        &self.codes
    }

    /// Every language of the model.
    pub fn all(&self) -> LangSet {
        if self.codes.len() == MAX_LANGS {
            !0
        } else {
            (1u128 << self.codes.len()) - 1
        }
    }

    /// Score `text` in the languages of `candidates`; others get 0.
    pub fn score(&self, text: &str, candidates: LangSet) -> NgramScores {
        let n = self.codes.len();
        let mut log_prob = vec![0.0f32; n];
        let mut letters = 0u32;
        let mut buf = [0u8; 64];
        let mut found = vec![0.0f32; n];
        words(text, |w| {
            for i in 0..w.len() {
                letters += 1;
                let mut todo = candidates;
                for k in (1..=self.order.min(i + 1)).rev() {
                    if todo == 0 {
                        break;
                    }
                    let mut len = 0;
                    let mut fits = true;
                    for &c in &w[i + 1 - k..=i] {
                        let l = c.len_utf8();
                        if len + l > buf.len() {
                            fits = false;
                            break;
                        }
                        c.encode_utf8(&mut buf[len..]);
                        len += l;
                    }
                    if !fits {
                        continue;
                    }
                    let Some(&(a, b)) = self.index.get(&ngram_hash(&buf[..len])) else {
                        continue;
                    };
                    let penalty = (self.order.min(i + 1) - k) as f32 * self.backoff;
                    for &(lang, q) in &self.entries[a as usize..b as usize] {
                        let bit = 1u128 << lang;
                        if todo & bit != 0 {
                            todo &= !bit;
                            found[lang as usize] = -(q as f32) * self.step - penalty;
                        }
                    }
                }
                for (lang, lp) in log_prob.iter_mut().enumerate() {
                    let bit = 1u128 << lang;
                    if candidates & bit == 0 {
                        continue;
                    }
                    *lp += if todo & bit != 0 {
                        self.floor
                    } else {
                        found[lang]
                    };
                }
            }
        });
        NgramScores { log_prob, letters }
    }
}

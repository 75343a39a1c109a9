//! texrex's w-shingles (reference §1(b)) and the near-duplicate detection that uses them.
//!
//! Tokens are maximal runs of Latin letters (texrex's `TTrUnicodeLetterRangeTokenizer`
//! ranges), upper-cased, and each ideograph, kana or letter of a script written without
//! spaces, a run of Katakana as one ([`crate::words`]), which texrex left out. Every run of [`NGRAM`] consecutive tokens, concatenated without a
//! separator and left-padded with spaces to 9 bytes (texrex's quirk, kept), is hashed; a
//! document's fingerprint is the minimum of each of [`HASHES`] hash functions over its n-grams.
//! Where texrex used 100 Rabin polynomials, cowrex hashes each n-gram once with xxh3-64 and
//! derives the 100 hash functions from that hash by seeded affine maps (see [`fingerprint`]).
//!
//! The shingles file has one line of 68 characters per hash, as texrex's:
//! `HHHHHHHHHHHHHHHHHHHH IIII…(36)…IIII SSSSSSSSSS` (20-digit hash, document id, 10-digit size).

pub mod dedup;

use std::io::Write;

use xxhash_rust::xxh3::xxh3_64_with_seed;

/// Tokens per shingle (texrex's `NGramSize`).
pub const NGRAM: usize = 5;
/// Min-hashes per document (texrex's `HashesNumber`).
pub const HASHES: usize = 100;
/// Length of a shingle line without its newline.
pub(crate) const LINE_LEN: usize = 68;
/// Length of a document id.
pub(crate) const ID_LEN: usize = 36;

/// texrex's letter ranges: Basic Latin letters, Latin-1 Supplement from À (× and ÷ included,
/// as texrex), Latin Extended-A and -B, Latin Extended-C, Latin Extended Additional and the
/// Latin ligatures.
pub fn is_letter(c: char) -> bool {
    matches!(c as u32,
        0x41..=0x5a | 0x61..=0x7a | 0xc0..=0xff | 0x100..=0x24f | 0x2c60..=0x2c7f
        | 0x1e00..=0x1eff | 0xfb00..=0xfb06)
}

/// Upper-cased tokens of a text (runs of [`is_letter`]s, and the words of scripts written
/// without spaces, [`crate::words::tokens`]), stored in one string.
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    text: String,
    spans: Vec<(u32, u32)>,
}

impl Tokens {
    /// Append the tokens of `text`.
    pub fn add(&mut self, text: &str) {
        /// Appends each token upper-cased.
        struct Upper<'t>(&'t mut Tokens);
        impl crate::words::TokenSink for Upper<'_> {
            fn push(&mut self, c: char) {
                if c.is_ascii() {
                    self.0.text.push(c.to_ascii_uppercase());
                } else {
                    self.0.text.extend(c.to_uppercase());
                }
            }
            fn end(&mut self) {
                let start = self.0.spans.last().map_or(0, |s| s.1);
                self.0.spans.push((start, self.0.text.len() as u32));
            }
        }
        crate::words::tokens(text, is_letter, &mut Upper(self));
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are no tokens.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The tokens in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.spans
            .iter()
            .map(|&(a, b)| &self.text[a as usize..b as usize])
    }

    /// The tokens of a text.
    pub fn of(text: &str) -> Tokens {
        let mut t = Tokens::default();
        t.add(text);
        t
    }
}

/// Multiplier and increment of hash function `i`: odd `a`, any `b`, from xxh3 seeded with `i`.
fn hash_params(hashes: usize) -> Vec<(u64, u64)> {
    (0..hashes as u64)
        .map(|i| {
            let a = xxh3_64_with_seed(b"cowrex shingle a", i) | 1;
            let b = xxh3_64_with_seed(b"cowrex shingle b", i);
            (a, b)
        })
        .collect()
}

/// The min-hash fingerprint of a token sequence; `None` with fewer than `n` tokens.
///
/// Each n-gram is hashed once with xxh3-64 (seed 0); hash function `i` maps that hash `h` to
/// `a_i·h + b_i mod 2^64` (a bijection, as `a_i` is odd), with `a_i` and `b_i` from xxh3 seeded
/// with `i`. One full hash per n-gram instead of 100 keeps shingling cheap.
pub fn fingerprint(tokens: &Tokens, n: usize, hashes: usize) -> Option<Vec<u64>> {
    use std::sync::OnceLock;
    static PARAMS: OnceLock<Vec<(u64, u64)>> = OnceLock::new();
    if n == 0 || tokens.len() < n {
        return None;
    }
    let params = PARAMS.get_or_init(|| hash_params(HASHES));
    let own;
    let params: &[(u64, u64)] = if hashes <= params.len() {
        &params[..hashes]
    } else {
        own = hash_params(hashes);
        &own
    };
    let mut gram = Vec::with_capacity(64);
    let grams: Vec<u64> = tokens
        .spans
        .windows(n)
        .map(|w| {
            gram.clear();
            let len = (w[n - 1].1 - w[0].0) as usize;
            gram.resize(9usize.saturating_sub(len), b' ');
            gram.extend_from_slice(&tokens.text.as_bytes()[w[0].0 as usize..w[n - 1].1 as usize]);
            xxh3_64_with_seed(&gram, 0)
        })
        .collect();
    Some(min_hashes(&grams, params))
}

/// Hash functions at a time in [`min_hashes`]: their minima stay in registers (one 256-bit
/// register each).
const HASH_LANES: usize = 4;

/// For each hash function `(a, b)`, the least `a·h + b` over the n-gram hashes `grams`.
fn min_hashes(grams: &[u64], params: &[(u64, u64)]) -> Vec<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
        {
            // SAFETY: the processor has AVX-512 F and DQ.
            return unsafe { min_hashes_avx512(grams, params) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            return unsafe { min_hashes_avx2(grams, params) };
        }
    }
    min_hashes_kernel::<HASH_LANES>(grams, params)
}

/// [`min_hashes_kernel`] compiled for AVX-512, eight hash functions at a time: AVX-512 DQ
/// multiplies 64-bit lanes and AVX-512 F takes their unsigned minima in one instruction each,
/// which AVX2 emulates in several (the same values).
///
/// # Safety
/// The processor must have AVX-512 F and DQ.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn min_hashes_avx512(grams: &[u64], params: &[(u64, u64)]) -> Vec<u64> {
    min_hashes_kernel::<{ 2 * HASH_LANES }>(grams, params)
}

/// [`min_hashes_kernel`] compiled for AVX2: the four lanes' multiplications and minima in one
/// register each (the same values; in a micro-benchmark of 1,500 n-grams, twice as fast as the
/// portable body and three times as fast as one hash function at a time).
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn min_hashes_avx2(grams: &[u64], params: &[(u64, u64)]) -> Vec<u64> {
    min_hashes_kernel::<HASH_LANES>(grams, params)
}

/// The body of [`min_hashes`]: `L` hash functions at a time over all n-grams.
#[inline(always)]
fn min_hashes_kernel<const L: usize>(grams: &[u64], params: &[(u64, u64)]) -> Vec<u64> {
    let mut mins = Vec::with_capacity(params.len());
    for chunk in params.chunks(L) {
        let (mut a, mut b) = ([0u64; L], [0u64; L]);
        for (k, &(pa, pb)) in chunk.iter().enumerate() {
            (a[k], b[k]) = (pa, pb);
        }
        let mut m = [u64::MAX; L];
        for &h in grams {
            for k in 0..L {
                m[k] = m[k].min(a[k].wrapping_mul(h).wrapping_add(b[k]));
            }
        }
        mins.extend_from_slice(&m[..chunk.len()]);
    }
    mins
}

/// Write a fingerprint as shingle lines.
pub fn write_lines(
    out: &mut impl Write,
    hashes: &[u64],
    id: &str,
    size: usize,
) -> std::io::Result<()> {
    for h in hashes {
        writeln!(out, "{h:020} {id} {size:010}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Tokens {
        Tokens::of(s)
    }

    #[test]
    fn tokens_are_letter_runs_upper_cased() {
        assert_eq!(
            tokens("Grüße, l'été 2024: x×y straße ΑΒΓ")
                .iter()
                .collect::<Vec<_>>(),
            ["GRÜSSE", "L", "ÉTÉ", "X×Y", "STRASSE"]
        );
    }

    #[test]
    fn ideographs_and_kana_are_a_token_each() {
        // texrex took no token from them; a Katakana run is one token.
        assert_eq!(
            tokens("東京タワーは、iPhoneで撮影した。")
                .iter()
                .collect::<Vec<_>>(),
            [
                "東",
                "京",
                "タワー",
                "は",
                "IPHONE",
                "で",
                "撮",
                "影",
                "し",
                "た"
            ]
        );
        assert_eq!(tokens("今天下雨了").len(), 5);
        // So a Chinese paragraph has shingles, and a changed character changes them.
        let a = fingerprint(&tokens("今天上午市政府召开新闻发布会"), 5, 100).unwrap();
        let b = fingerprint(&tokens("今天下午市政府召开新闻发布会"), 5, 100).unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn fingerprints_need_n_tokens_and_are_stable() {
        assert_eq!(fingerprint(&tokens("a b c d"), 5, 3), None);
        let a = fingerprint(&tokens("a b c d e f"), 5, 100).unwrap();
        assert_eq!(a.len(), 100);
        assert_eq!(a, fingerprint(&tokens("A b, c. d e f!"), 5, 100).unwrap());
        // Short n-grams are padded: "ABCDE" is hashed as "    ABCDE".
        let one = fingerprint(&tokens("a b c d e"), 5, 1).unwrap();
        let (pa, pb) = hash_params(1)[0];
        let h = xxh3_64_with_seed(b"    ABCDE", 0);
        assert_eq!(one[0], pa.wrapping_mul(h).wrapping_add(pb));
        assert_ne!(a, fingerprint(&tokens("a b c d e g"), 5, 100).unwrap());
    }

    #[test]
    fn min_hashes_are_each_functions_minimum() {
        let grams: Vec<u64> = (0..37u64).map(|i| xxh3_64_with_seed(b"gram", i)).collect();
        // 13 functions: a last chunk shorter than 4 and than 8 lanes.
        let params = hash_params(13);
        let want: Vec<u64> = params
            .iter()
            .map(|&(a, b)| {
                let all = grams.iter().map(|&h| a.wrapping_mul(h).wrapping_add(b));
                all.min().unwrap()
            })
            .collect();
        assert_eq!(min_hashes(&grams, &params), want);
        // The portable body at both widths, and each compiled variant this processor runs,
        // whichever `min_hashes` dispatched to.
        assert_eq!(min_hashes_kernel::<HASH_LANES>(&grams, &params), want);
        assert_eq!(
            min_hashes_kernel::<{ 2 * HASH_LANES }>(&grams, &params),
            want
        );
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: checked just above.
                assert_eq!(unsafe { min_hashes_avx2(&grams, &params) }, want);
            }
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512dq")
            {
                // SAFETY: checked just above.
                assert_eq!(unsafe { min_hashes_avx512(&grams, &params) }, want);
            }
        }
        let (a, b) = params[0];
        let one = a.wrapping_mul(grams[0]).wrapping_add(b);
        assert_eq!(min_hashes(&grams[..1], &params[..1]), [one]);
    }

    #[test]
    fn lines_have_texrex_layout() {
        let mut v = Vec::new();
        write_lines(&mut v, &[42, u64::MAX], &"a".repeat(36), 1234).unwrap();
        let s = String::from_utf8(v).unwrap();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.len() == LINE_LEN));
        assert_eq!(&lines[0][..21], "00000000000000000042 ");
        assert_eq!(&lines[1][..20], "18446744073709551615");
        assert_eq!(&lines[0][57..], " 0000001234");
    }
}

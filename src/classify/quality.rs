//! Text quality: texrex's badness (reference §1(d)).
//!
//! A profile lists a language's most frequent words with the mean and standard deviation of
//! their log10 relative frequency in good documents. A document's badness adds, for each
//! profile word, `min(|d / stdev|, limit)` when its log frequency `d` below the mean is
//! negative, and `limit` when the word is absent: text that lacks the function words of
//! running text (lists, tables, spam, another language) scores high. With 10 words and limit 5
//! badness runs from 0 to 50; `bdc` is `a` + round(badness / 2).
//!
//! Profile files are texrex's: `#` comments (cowrex writes `#lang=CODE` and `#n=DOCS`), `!`
//! stop-word lines (ignored), and `WORD|mean|stdev|limit` lines with upper-case words.

use std::collections::HashMap;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::{Error, ErrorKind};
use crate::shingle;

/// One profile word.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileWord {
    /// The word, upper-cased as the tokens are.
    pub word: String,
    /// Mean of its log10 relative frequency in good documents.
    pub mean: f64,
    /// Standard deviation of that log10 relative frequency.
    pub(crate) stdev: f64,
    /// The most it adds to a document's badness.
    pub limit: f64,
}

/// A language's text-quality profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// ISO 639-3 code, as in the `language` attribute (`eng`, `deu`, …).
    pub lang: String,
    /// Documents the profile was computed from.
    pub docs: usize,
    /// The words the badness checks (trained ones most frequent first).
    pub words: Vec<ProfileWord>,
}

/// Token counts of a document's text.
#[derive(Debug, Clone, Default)]
pub struct TokenCounts {
    /// Occurrences of each token.
    pub counts: FxHashMap<String, u32>,
    /// Number of tokens.
    pub total: u64,
}

impl TokenCounts {
    /// Count all tokens.
    pub fn all(tokens: &shingle::Tokens) -> TokenCounts {
        let mut c = TokenCounts::default();
        for t in tokens.iter() {
            *c.counts.entry(t.to_string()).or_default() += 1;
        }
        c.total = tokens.len() as u64;
        c
    }
}

impl Profile {
    /// Parse a profile file; `lang` is used when the file has no `#lang=` line. A text that
    /// is not a profile is a model error (its message says which line).
    pub fn parse(text: &str, lang: &str) -> Result<Profile, Error> {
        let bad = |m: String| Error::new(ErrorKind::Model, m);
        let mut p = Profile {
            lang: lang.to_string(),
            docs: 0,
            words: Vec::new(),
        };
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if let Some(c) = line.strip_prefix('#') {
                if let Some(l) = c.strip_prefix("lang=") {
                    p.lang = l.trim().to_string();
                } else if let Some(d) = c.strip_prefix("n=") {
                    p.docs = d.trim().parse().unwrap_or(0);
                }
                continue;
            }
            if line.is_empty() || line.starts_with('!') {
                continue;
            }
            let f: Vec<&str> = line.split('|').collect();
            let num = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite());
            let (Some(mean), Some(stdev), Some(limit)) = (
                f.get(1).and_then(|s| num(s)),
                f.get(2).and_then(|s| num(s)),
                f.get(3).and_then(|s| num(s)),
            ) else {
                return Err(bad(format!(
                    "line {}: expected WORD|mean|stdev|limit",
                    n + 1
                )));
            };
            if f.len() != 4 || f[0].is_empty() {
                return Err(bad(format!(
                    "line {}: expected WORD|mean|stdev|limit",
                    n + 1
                )));
            }
            p.words.push(ProfileWord {
                word: f[0].to_string(),
                mean,
                stdev,
                limit,
            });
        }
        if p.words.is_empty() {
            return Err(bad("no profile words".into()));
        }
        Ok(p)
    }

    /// The file text of a profile.
    pub fn to_text(&self) -> String {
        let mut s = format!("#lang={}\n#n={}\n", self.lang, self.docs);
        for w in &self.words {
            s.push_str(&format!("{}|{}|{}|{}\n", w.word, w.mean, w.stdev, w.limit));
        }
        s
    }

    /// texrex's badness of a document with these token counts.
    pub fn badness(&self, tokens: &TokenCounts) -> f64 {
        let mut bad = 0.0;
        for w in &self.words {
            match tokens.counts.get(&w.word) {
                Some(&c) if c > 0 && tokens.total > 0 => {
                    let d = (c as f64 / tokens.total as f64).log10() - w.mean;
                    if d < 0.0 {
                        bad += if w.stdev > 0.0 {
                            (d / w.stdev).abs().min(w.limit)
                        } else {
                            w.limit
                        };
                    }
                }
                _ => bad += w.limit,
            }
        }
        bad
    }

    /// Compute a profile from documents: the `words` words with the greatest summed relative
    /// frequency, with the mean and (sample) standard deviation of their log10 relative
    /// frequency over the documents that contain them. Documents with fewer than `min_tokens`
    /// tokens are left out.
    pub fn train<'a>(
        lang: &str,
        docs: impl IntoIterator<Item = &'a str>,
        words: usize,
        limit: f64,
        min_tokens: usize,
    ) -> Result<Profile, Error> {
        let mut freqs: Vec<HashMap<String, f64>> = Vec::new();
        for d in docs {
            let tokens = shingle::Tokens::of(d);
            if tokens.len() < min_tokens.max(1) {
                continue;
            }
            let c = TokenCounts::all(&tokens);
            let total = c.total as f64;
            freqs.push(
                c.counts
                    .into_iter()
                    .map(|(w, n)| (w, n as f64 / total))
                    .collect(),
            );
        }
        if freqs.len() < 2 {
            return Err(Error::usage(format!(
                "{} documents with at least {min_tokens} tokens; a profile needs 2 or more",
                freqs.len()
            )));
        }
        let mut sums: HashMap<&str, f64> = HashMap::new();
        for f in &freqs {
            for (w, r) in f {
                *sums.entry(w.as_str()).or_default() += r;
            }
        }
        let mut ranked: Vec<(&str, f64)> = sums.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        let mut out = Vec::new();
        for (w, _) in ranked.into_iter().take(words) {
            let logs: Vec<f64> = freqs
                .iter()
                .filter_map(|f| f.get(w))
                .map(|r| r.log10())
                .collect();
            let n = logs.len() as f64;
            let mean = logs.iter().sum::<f64>() / n;
            let var = if logs.len() > 1 {
                logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
            } else {
                0.0
            };
            out.push(ProfileWord {
                word: w.to_string(),
                mean,
                stdev: var.sqrt(),
                limit,
            });
        }
        Ok(Profile {
            lang: lang.to_string(),
            docs: freqs.len(),
            words: out,
        })
    }
}

/// The profiles of a run.
#[derive(Debug, Clone, Default)]
pub struct Profiles {
    list: Vec<Profile>,
    /// Every profile word.
    words: FxHashSet<String>,
}

const BUILTIN: [(&str, &str); 4] = [
    ("eng", include_str!("../../models/profile-en.prof")),
    ("deu", include_str!("../../models/profile-de.prof")),
    ("fra", include_str!("../../models/profile-fr.prof")),
    ("swe", include_str!("../../models/profile-sv.prof")),
];

impl Profiles {
    /// The built-in en, de, fr and sv profiles (`docs/models.md`).
    pub fn builtin() -> Profiles {
        Profiles::new(
            BUILTIN
                .iter()
                .map(|(lang, text)| Profile::parse(text, lang).expect("built-in profile"))
                .collect(),
        )
    }

    /// The profiles of a list.
    pub fn new(list: Vec<Profile>) -> Profiles {
        let words = list
            .iter()
            .flat_map(|p| p.words.iter().map(|w| w.word.clone()))
            .collect();
        Profiles { list, words }
    }

    /// Whether there are no profiles (no badness then).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Badness of a document: with its language's profile when there is one, else the lowest
    /// over all profiles (texrex's `TTrTextAssessmentMulti`). `None` without profiles.
    pub fn badness(&self, lang: Option<&str>, tokens: &TokenCounts) -> Option<f64> {
        if let Some(p) = lang.and_then(|l| self.list.iter().find(|p| p.lang == l)) {
            return Some(p.badness(tokens));
        }
        self.lowest(tokens).map(|(_, b)| b)
    }

    /// The profile with the lowest badness (the first on ties) and that badness.
    pub fn lowest(&self, tokens: &TokenCounts) -> Option<(&str, f64)> {
        self.list
            .iter()
            .map(|p| (p.lang.as_str(), p.badness(tokens)))
            .fold(None, |best, (l, b)| match best {
                Some((_, bb)) if bb <= b => best,
                _ => Some((l, b)),
            })
    }

    /// Count the tokens, keeping only the profile words (all that badness needs).
    pub fn count(&self, tokens: &shingle::Tokens) -> TokenCounts {
        let mut c = TokenCounts {
            counts: FxHashMap::default(),
            total: tokens.len() as u64,
        };
        for t in tokens.iter() {
            if let Some(n) = c.counts.get_mut(t) {
                *n += 1;
            } else if self.words.contains(t) {
                c.counts.insert(t.to_string(), 1);
            }
        }
        c
    }

    /// Text of all profiles, for the configuration hash.
    pub fn text(&self) -> String {
        self.list.iter().map(Profile::to_text).collect()
    }
}

/// `bdc`: `a` + round(badness / 2), half to even (texrex's FPC `Round`), at most `z`.
pub fn bdc(badness: f64) -> char {
    let r = (badness.max(0.0) / 2.0).round_ties_even().min(25.0) as u8;
    (b'a' + r) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: &str = "#n=1000\nTHE|-1.19860272214163|0.13703034421693|5\nOF|-1.47235067703795|0.15949039862343|5\n!A\n";

    fn counts(s: &str) -> TokenCounts {
        TokenCounts::all(&shingle::Tokens::of(s))
    }

    #[test]
    fn texrex_profiles_parse_and_score() {
        let p = Profile::parse(EN, "eng").unwrap();
        assert_eq!((p.lang.as_str(), p.docs, p.words.len()), ("eng", 1000, 2));
        // Both words absent: 2 × limit.
        assert_eq!(p.badness(&counts("nothing here")), 10.0);
        // "the" at 1/4 is above its mean (log10 0.25 = −0.60 > −1.20): no penalty; "of" absent.
        assert_eq!(p.badness(&counts("the cat sat down")), 5.0);
        // "of" at 1/100: d = −2 + 1.47235 = −0.52765, /0.15949 = 3.30835.
        let mut text = "of ".to_string();
        text.push_str(&"the x y z ".repeat(24));
        text.push_str("a b c");
        let b = p.badness(&counts(&text));
        assert!((b - 3.30835).abs() < 1e-4, "{b}");
        assert_eq!(Profile::parse(&p.to_text(), "x").unwrap(), p);
        assert!(Profile::parse("THE|1|2\n", "eng").is_err());
    }

    #[test]
    fn bdc_classes() {
        assert_eq!(
            (bdc(0.0), bdc(1.0), bdc(3.0), bdc(50.0), bdc(99.0)),
            ('a', 'a', 'c', 'z', 'z')
        );
    }

    #[test]
    fn training_picks_frequent_words() {
        let docs = [
            "the cat and the dog of the house",
            "the man and the woman of the town",
            "a the and of",
        ];
        let p = Profile::train("eng", docs.iter().copied(), 3, 5.0, 4).unwrap();
        let w: Vec<&str> = p.words.iter().map(|w| w.word.as_str()).collect();
        assert_eq!(w, ["THE", "AND", "OF"]);
        assert_eq!(p.docs, 3);
        let the = &p.words[0];
        let logs = [
            (3f64 / 8.0).log10(),
            (3f64 / 8.0).log10(),
            (1f64 / 4.0).log10(),
        ];
        assert!((the.mean - logs.iter().sum::<f64>() / 3.0).abs() < 1e-12);
        assert!(Profile::train("eng", ["x y"].iter().copied(), 3, 5.0, 4).is_err());
        // Good text of the kind the profile was trained on scores better than a list.
        assert!(p.badness(&counts(docs[0])) < p.badness(&counts("cat dog house town")));
    }
}

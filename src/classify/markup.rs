//! The markup model: what the words of the `class` and `id` values around a block say about it
//! (`sidebar`, `related`, `comment`, `article`, `body`, `price`, …), learnt from labelled
//! blocks. Each word ([`crate::html::markup_token`]) has a weight, the log-odds of content
//! among the blocks inside elements that carry it, over the log-odds of content among all
//! blocks (a naive Bayes model over the words of a block's ancestors); a block's score is
//! summed up from the weights of the words around it ([`MarkupScore`]).
//!
//! Only words seen on pages of at least [`MIN_HOSTS`] different hosts are kept, so that the
//! model learns the vocabulary of many sites rather than one site's template.
//!
//! Text format (`cowrex-markup 1`): a header line `cowrex-markup 1 <words>`, then one line
//! per word, `word<TAB>weight`, sorted by word.

use crate::document;
use super::detector::{self, Column, ModelFile, Shown};
use super::{Block, registry};

use rustc_hash::{FxHashMap, FxHashSet};

use super::ModelError;
use crate::html::markup_token;

/// Hosts a word must have been seen on to be kept.
pub const MIN_HOSTS: usize = 3;

/// Pseudo-weight of the prior in each word's estimate: a word seen around fewer labelled words
/// than this stays close to weight 0.
const PRIOR_WEIGHT: f64 = 100.0;

/// Weights are kept within ±this.
const MAX_WEIGHT: f64 = 5.0;

/// What the markup words around a block say: the sum, lowest and highest of their weights
/// (0 when none is known) and how many are known.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MarkupScore {
    /// Sum of the known words' weights (positive = content).
    pub sum: f32,
    /// The lowest known weight (0 when none is known).
    pub min: f32,
    /// The highest known weight (0 when none is known).
    pub max: f32,
    /// How many of the words the model knows.
    pub known: u16,
}

/// Word weights by token.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MarkupModel {
    weights: FxHashMap<u32, f32>,
    /// The words with their weights, sorted by word (for the text format).
    words: Vec<(String, f32)>,
}

impl MarkupModel {
    /// Read a model in the text format (`cowrex-markup 1`).
    pub fn parse(text: &str) -> Result<MarkupModel, ModelError> {
        let mut lines = text.lines();
        let header = lines.next().unwrap_or("");
        let count: usize = header
            .strip_prefix("cowrex-markup 1 ")
            .and_then(|n| n.trim().parse().ok())
            .ok_or_else(|| ModelError(format!("not a cowrex-markup 1 model: {header:?}")))?;
        let mut words = Vec::with_capacity(count);
        for (n, line) in lines.enumerate() {
            let (word, weight) = line
                .split_once('\t')
                .and_then(|(w, v)| Some((w, v.parse::<f32>().ok()?)))
                .filter(|(w, v)| !w.is_empty() && v.is_finite())
                .ok_or_else(|| ModelError(format!("line {}: not `word<TAB>weight`", n + 2)))?;
            words.push((word.to_owned(), weight));
        }
        if words.len() != count {
            return Err(ModelError(format!(
                "the header says {count} words, the model has {}",
                words.len()
            )));
        }
        Ok(MarkupModel::from_words(words))
    }

    fn from_words(mut words: Vec<(String, f32)>) -> MarkupModel {
        words.sort_by(|a, b| a.0.cmp(&b.0));
        let weights = words
            .iter()
            .map(|(w, v)| (markup_token(w.as_bytes()), *v))
            .collect();
        MarkupModel { weights, words }
    }

    /// The model in its text format.
    pub fn to_text(&self) -> String {
        let mut out = format!("cowrex-markup 1 {}\n", self.words.len());
        for (w, v) in &self.words {
            out.push_str(&format!("{w}\t{v}\n"));
        }
        out
    }

    /// Number of words the model knows.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the model knows no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The weight of one word, if the model knows it.
    pub fn weight(&self, word: &str) -> Option<f32> {
        self.weights.get(&markup_token(word.as_bytes())).copied()
    }

    /// The score of a block whose elements carry the markup `tokens`.
    pub fn score(&self, tokens: &[u32]) -> MarkupScore {
        let mut s = MarkupScore {
            min: f32::INFINITY,
            max: f32::NEG_INFINITY,
            ..Default::default()
        };
        for t in tokens {
            if let Some(&w) = self.weights.get(t) {
                s.sum += w;
                s.min = s.min.min(w);
                s.max = s.max.max(w);
                s.known += 1;
            }
        }
        if s.known == 0 {
            s.min = 0.0;
            s.max = 0.0;
        }
        s
    }
}

/// Labelled weight around each markup word, for training a [`MarkupModel`].
#[derive(Debug, Clone, Default)]
pub struct Counts {
    /// Per token: weight of content and of boilerplate blocks, and up to [`MIN_HOSTS`] hosts.
    tokens: FxHashMap<u32, (f64, f64, Vec<u64>)>,
    content: f64,
    boilerplate: f64,
    /// The words behind the tokens.
    words: FxHashMap<u32, String>,
}

impl Counts {
    /// Count a block of `weight` (content or not) whose elements carry `tokens`, on a page of
    /// `host` (a hash).
    pub fn add(&mut self, tokens: &[u32], content: bool, weight: f64, host: u64) {
        if content {
            self.content += weight;
        } else {
            self.boilerplate += weight;
        }
        for &t in tokens {
            let e = self.tokens.entry(t).or_default();
            if content {
                e.0 += weight;
            } else {
                e.1 += weight;
            }
            if e.2.len() < MIN_HOSTS && !e.2.contains(&host) {
                e.2.push(host);
            }
        }
    }

    /// Learn the words behind tokens (from [`crate::html::markup_words`]), for the model's text.
    pub fn name(&mut self, words: impl IntoIterator<Item = Vec<u8>>) {
        for w in words {
            self.words
                .entry(markup_token(&w))
                .or_insert_with(|| String::from_utf8_lossy(&w).to_ascii_lowercase());
        }
    }

    /// The model: each named word seen on [`MIN_HOSTS`] hosts, with the log-odds of content
    /// around it (smoothed towards the prior by `PRIOR_WEIGHT`) over the prior log-odds.
    pub fn model(&self) -> MarkupModel {
        let total = self.content + self.boilerplate;
        if total <= 0.0 {
            return MarkupModel::default();
        }
        let prior = (self.content / total).clamp(1e-6, 1.0 - 1e-6);
        let prior_logit = (prior / (1.0 - prior)).ln();
        let mut words = Vec::new();
        let mut seen = FxHashSet::default();
        for (t, (c, b, hosts)) in &self.tokens {
            let Some(word) = self.words.get(t) else {
                continue;
            };
            if hosts.len() < MIN_HOSTS || !seen.insert(word.as_str()) {
                continue;
            }
            let (c, b) = (c.max(0.0), b.max(0.0));
            let odds = (c + PRIOR_WEIGHT * prior) / (b + PRIOR_WEIGHT * (1.0 - prior));
            let w = (odds.ln() - prior_logit).clamp(-MAX_WEIGHT, MAX_WEIGHT);
            // Four decimals: the model's text stays small and the same on every machine.
            let w = ((w * 1e4).round() / 1e4) as f32;
            if w != 0.0 {
                words.push((word.clone(), w));
            }
        }
        MarkupModel::from_words(words)
    }
}

/// The markup model as a detector ([`crate::classify::detector`]): the block's
/// [`MarkupScore`] in four columns the writers do not print (`markup`, `markupmin`,
/// `markupmax`, `markupknown`); the combined model reads them.
pub struct Detector;

/// Its name in the registry.
pub const NAME: &str = "markup";

/// Its columns.
pub const COLUMNS: &[Column] = {
    const fn hidden(name: &'static str) -> Column {
        Column {
            name,
            shown: Shown::Hidden,
        }
    }
    &[
        hidden("markup"),
        hidden("markupmin"),
        hidden("markupmax"),
        hidden("markupknown"),
    ]
};

/// Its columns in the table.
const AT: document::Cols = registry::cols(NAME);

/// `--markup-model`: a markup model instead of the built-in one
/// ([`crate::classify::Models::markup`]).
pub static MODEL_FILE: ModelFile = ModelFile {
    option: "markup_model",
    help: "Markup model (from `cowrex train markup`) instead of the built-in one",
    load: |bytes| {
        let text = super::model_text(bytes)?;
        Ok(Box::new(MarkupModel::parse(&text)?))
    },
};

/// A block's markup score.
pub fn of(b: &Block) -> MarkupScore {
    let v = |k| b.scores.get(AT, k);
    MarkupScore {
        sum: v(0) as f32,
        min: v(1) as f32,
        max: v(2) as f32,
        known: v(3) as u16,
    }
}

/// Set a block's markup score (`eval` scores with cross-validated models).
pub fn set(b: &mut Block, s: MarkupScore) {
    for (k, v) in [s.sum, s.min, s.max, f32::from(s.known)]
        .into_iter()
        .enumerate()
    {
        b.scores.set(AT, k, v.into());
    }
}

impl detector::Detector for Detector {
    fn score(&self, blocks: &mut [Block], page: &detector::Scoring<'_>) {
        let model = page.models.markup();
        for b in blocks {
            let s = model.score(&b.markup);
            set(b, s);
        }
    }

    fn model_file(&self) -> Option<&'static ModelFile> {
        Some(&MODEL_FILE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(words: &[&str]) -> Vec<u32> {
        words.iter().map(|w| markup_token(w.as_bytes())).collect()
    }

    #[test]
    fn words_of_many_hosts_learn_their_log_odds() {
        let mut c = Counts::default();
        c.name(["sidebar", "article", "rare", "page"].map(|w| w.as_bytes().to_vec()));
        for host in 0..4 {
            c.add(&tokens(&["article", "page"]), true, 100.0, host);
            c.add(&tokens(&["sidebar", "page"]), false, 100.0, host);
        }
        // Seen on one host only.
        c.add(&tokens(&["rare"]), false, 10.0, 9);
        let m = c.model();
        let (article, sidebar) = (m.weight("article").unwrap(), m.weight("sidebar").unwrap());
        assert!(article > 1.0 && sidebar < -1.0, "{article} {sidebar}");
        assert_eq!(m.weight("rare"), None);
        // On every block, content or not: close to 0, left out when it rounds to 0.
        assert!(m.weight("page").is_none_or(|w| w.abs() < 0.1));
        // Unnamed tokens are not kept.
        let mut unnamed = c.clone();
        unnamed.add(&tokens(&["nameless"]), true, 50.0, 1);
        assert_eq!(unnamed.model().len(), m.len());
        // Round trip through the text format.
        let again = MarkupModel::parse(&m.to_text()).unwrap();
        assert_eq!(again, m);
        // A block's score.
        let s = m.score(&tokens(&["sidebar", "article", "unknown"]));
        assert_eq!(s.known, 2);
        assert!((s.sum - (article + sidebar)).abs() < 1e-6);
        assert_eq!((s.min, s.max), (sidebar, article));
        assert_eq!(m.score(&tokens(&["unknown"])), MarkupScore::default());
    }

    #[test]
    fn models_that_do_not_parse() {
        assert!(MarkupModel::parse("cowrex-gbt 1\n").is_err());
        assert!(MarkupModel::parse("cowrex-markup 1 2\nx\t1\n").is_err());
        assert!(MarkupModel::parse("cowrex-markup 1 1\nx 1\n").is_err());
        assert!(MarkupModel::parse("cowrex-markup 1 1\nx\tNaN\n").is_err());
        let m = MarkupModel::parse("cowrex-markup 1 1\nsidebar\t-1.5\n").unwrap();
        assert_eq!(m.weight("Sidebar"), Some(-1.5));
    }
}

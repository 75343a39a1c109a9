//! texrex's multi-layer perceptron: 37 inputs, one hidden layer of symmetric sigmoid units
//! (steepness 0.5) and one linear-piecewise symmetric output (steepness 0.5), as FANN 2.1
//! builds it. Reads FANN `.net` files, reads and writes the project's compact format, runs
//! inference, and trains with iRPROP− (FANN's default algorithm) from FANN `.dat` files.
//!
//! Compact format (text, one line each):
//! ```text
//! cowrex-mlp 1
//! inputs 37 hidden 18 steepness 0.5 0.5
//! h <bias> <w_1> … <w_37>        (one line per hidden unit)
//! o <bias> <w_1> … <w_hidden>
//! ```

use crate::document;
use super::Block;
use super::detector::{self, Column, Cut, Decision, ModelFile, Shown};
use super::registry;

use std::fmt::Write as _;

pub use super::ModelError;

/// A trained network.
#[derive(Debug, Clone, PartialEq)]
pub struct Mlp {
    /// Number of input features.
    pub inputs: usize,
    /// Number of hidden units.
    pub hidden: usize,
    /// Steepness of the hidden units' symmetric sigmoid.
    pub(crate) hidden_steepness: f32,
    /// Steepness of the linear-piecewise symmetric output.
    pub(crate) output_steepness: f32,
    /// `hidden × (inputs + 1)`: weights of each hidden unit, bias last.
    pub(crate) w_hidden: Vec<f32>,
    /// `hidden + 1`: output weights, bias last.
    pub(crate) w_output: Vec<f32>,
}

fn err(msg: impl Into<String>) -> ModelError {
    ModelError(msg.into())
}

impl Mlp {
    /// Score one feature vector: FANN's `fann_run`.
    pub fn run(&self, x: &[f32]) -> f32 {
        let ni = self.inputs;
        let mut sum_out = self.w_output[self.hidden];
        for h in 0..self.hidden {
            let w = &self.w_hidden[h * (ni + 1)..(h + 1) * (ni + 1)];
            let s = w[ni] + dot(&w[..ni], &x[..ni]);
            sum_out += self.w_output[h] * sigmoid_symmetric(s, self.hidden_steepness);
        }
        linear_piece_symmetric(sum_out, self.output_steepness)
    }

    /// Parse a FANN 2.1 float network (`FANN_FLO_2.1`) with one hidden layer.
    pub(crate) fn from_fann(text: &str) -> Result<Mlp, ModelError> {
        let mut lines = text.lines();
        if !lines.next().is_some_and(|l| l.starts_with("FANN_FLO")) {
            return Err(err(
                "not a FANN float network (first line is not FANN_FLO_…)",
            ));
        }
        let mut layer_sizes = None;
        let mut neurons = None;
        let mut connections = None;
        for line in lines {
            if let Some(v) = line.strip_prefix("layer_sizes=") {
                let v: Result<Vec<usize>, _> = v.split_whitespace().map(str::parse).collect();
                layer_sizes = Some(v.map_err(|e| err(format!("bad layer_sizes: {e}")))?);
            } else if let Some(v) = line
                .strip_prefix("neurons (num_inputs, activation_function, activation_steepness)=")
            {
                neurons = Some(parse_triples(v)?);
            } else if let Some(v) = line.strip_prefix("connections (connected_to_neuron, weight)=")
            {
                connections = Some(parse_pairs(v)?);
            }
        }
        let sizes = layer_sizes.ok_or_else(|| err("missing layer_sizes"))?;
        let neurons = neurons.ok_or_else(|| err("missing neurons"))?;
        let connections = connections.ok_or_else(|| err("missing connections"))?;
        if sizes.len() != 3 {
            return Err(err(format!("expected 3 layers, found {}", sizes.len())));
        }
        let (ni, nh) = (sizes[0] - 1, sizes[1] - 1);
        if sizes[2] != 2 {
            return Err(err("expected one output neuron"));
        }
        let hidden = &neurons[ni + 1..ni + 1 + nh];
        let output = neurons[ni + 1 + nh + 1];
        if hidden.iter().any(|n| n.1 != 5) || output.1 != 13 {
            return Err(err(
                "expected symmetric sigmoid hidden units (5) and a linear piece symmetric output (13)",
            ));
        }
        let mut mlp = Mlp {
            inputs: ni,
            hidden: nh,
            hidden_steepness: hidden[0].2,
            output_steepness: output.2,
            w_hidden: vec![0.0; nh * (ni + 1)],
            w_output: vec![0.0; nh + 1],
        };
        let mut c = connections.iter();
        for (h, unit) in hidden.iter().enumerate() {
            for _ in 0..unit.0 {
                let &(src, w) = c.next().ok_or_else(|| err("too few connections"))?;
                // Sources 0..ni are inputs, ni is the input bias.
                if src > ni {
                    return Err(err(format!("hidden unit {h} connects to neuron {src}")));
                }
                mlp.w_hidden[h * (ni + 1) + src] = w;
            }
        }
        for _ in 0..output.0 {
            let &(src, w) = c.next().ok_or_else(|| err("too few connections"))?;
            let j = src
                .checked_sub(ni + 1)
                .filter(|&j| j <= nh)
                .ok_or_else(|| err("bad output connection"))?;
            mlp.w_output[j] = w;
        }
        Ok(mlp)
    }

    /// Parse the compact format.
    pub(crate) fn from_compact(text: &str) -> Result<Mlp, ModelError> {
        let mut lines = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
        if lines.next().map(str::trim) != Some("cowrex-mlp 1") {
            return Err(err("not a cowrex MLP (first line must be `cowrex-mlp 1`)"));
        }
        let head: Vec<&str> = lines
            .next()
            .ok_or_else(|| err("missing shape line"))?
            .split_whitespace()
            .collect();
        let [_, ni, _, nh, _, sh, so] = head[..] else {
            return Err(err("bad shape line"));
        };
        let p = |s: &str| {
            s.parse::<usize>()
                .map_err(|e| err(format!("bad number {s}: {e}")))
        };
        let f = |s: &str| {
            s.parse::<f32>()
                .map_err(|e| err(format!("bad number {s}: {e}")))
        };
        let (ni, nh) = (p(ni)?, p(nh)?);
        let mut mlp = Mlp {
            inputs: ni,
            hidden: nh,
            hidden_steepness: f(sh)?,
            output_steepness: f(so)?,
            w_hidden: Vec::with_capacity(nh * (ni + 1)),
            w_output: Vec::with_capacity(nh + 1),
        };
        for line in lines {
            let mut it = line.split_whitespace();
            let kind = it.next();
            let vals: Vec<f32> = it.map(f).collect::<Result<_, _>>()?;
            let (bias, rest) = vals.split_first().ok_or_else(|| err("empty weight line"))?;
            match kind {
                Some("h") if rest.len() == ni => {
                    mlp.w_hidden.extend_from_slice(rest);
                    mlp.w_hidden.push(*bias);
                }
                Some("o") if rest.len() == nh => {
                    mlp.w_output.extend_from_slice(rest);
                    mlp.w_output.push(*bias);
                }
                _ => {
                    return Err(err(format!(
                        "bad weight line: {}",
                        &line[..line.len().min(40)]
                    )));
                }
            }
        }
        if mlp.w_hidden.len() != nh * (ni + 1) || mlp.w_output.len() != nh + 1 {
            return Err(err("wrong number of weight lines"));
        }
        Ok(mlp)
    }

    /// Write the compact format (weights with 9 significant digits: exact for f32).
    pub fn to_compact(&self) -> String {
        let ni = self.inputs;
        let mut s = format!(
            "cowrex-mlp 1\ninputs {} hidden {} steepness {} {}\n",
            ni, self.hidden, self.hidden_steepness, self.output_steepness
        );
        for h in 0..self.hidden {
            let w = &self.w_hidden[h * (ni + 1)..(h + 1) * (ni + 1)];
            s.push('h');
            let _ = write!(s, " {:e}", w[ni]);
            for v in &w[..ni] {
                let _ = write!(s, " {v:e}");
            }
            s.push('\n');
        }
        s.push('o');
        let _ = write!(s, " {:e}", self.w_output[self.hidden]);
        for v in &self.w_output[..self.hidden] {
            let _ = write!(s, " {v:e}");
        }
        s.push('\n');
        s
    }

    /// Read an MLP file (cowrex compact format or FANN `.net`) for texrex's 37 features.
    pub fn load(p: &std::path::Path) -> Result<Mlp, crate::Error> {
        let bytes = std::fs::read(p).map_err(|e| crate::Error::model(p, e))?;
        Mlp::from_bytes(&bytes).map_err(|e| crate::Error::model(p, e.to_string()))
    }

    /// Read a model file's bytes (UTF-8 text in either format) into an MLP of texrex's 37
    /// features.
    pub fn from_bytes(bytes: &[u8]) -> Result<Mlp, ModelError> {
        let text = std::str::from_utf8(bytes).map_err(|_| ModelError("not UTF-8".into()))?;
        let m = Mlp::parse(text)?;
        if m.inputs != crate::features::texrex::N_FEATURES {
            return Err(ModelError(format!(
                "model has {} inputs, texrex features are 37",
                m.inputs
            )));
        }
        Ok(m)
    }

    /// Read either format, by its first line.
    pub fn parse(text: &str) -> Result<Mlp, ModelError> {
        if text.starts_with("FANN_FLO") {
            Mlp::from_fann(text)
        } else {
            Mlp::from_compact(text)
        }
    }
}

fn parse_triples(s: &str) -> Result<Vec<(usize, u32, f32)>, ModelError> {
    s.split(')')
        .map(|t| t.trim().trim_start_matches('('))
        .filter(|t| !t.is_empty())
        .map(|t| {
            let v: Vec<&str> = t.split(',').map(str::trim).collect();
            match v[..] {
                [a, b, c] => Ok((
                    a.parse().map_err(|_| err("bad neuron"))?,
                    b.parse().map_err(|_| err("bad neuron"))?,
                    c.parse().map_err(|_| err("bad neuron"))?,
                )),
                _ => Err(err("bad neuron triple")),
            }
        })
        .collect()
}

fn parse_pairs(s: &str) -> Result<Vec<(usize, f32)>, ModelError> {
    s.split(')')
        .map(|t| t.trim().trim_start_matches('('))
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (a, b) = t.split_once(',').ok_or_else(|| err("bad connection"))?;
            Ok((
                a.trim().parse().map_err(|_| err("bad connection source"))?,
                b.trim().parse().map_err(|_| err("bad connection weight"))?,
            ))
        })
        .collect()
}

/// Dot product in eight independent lanes (a fixed order, so results are reproducible), which
/// the compiler can vectorise; a single running sum cannot be.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let rest: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    lanes.iter().sum::<f32>() + rest
}

/// FANN_SIGMOID_SYMMETRIC: `2/(1+exp(−2·s·x)) − 1` = `tanh(s·x)`.
#[inline]
fn sigmoid_symmetric(x: f32, steepness: f32) -> f32 {
    let y = steepness * x;
    if y.abs() >= TANH_SATURATED {
        1f32.copysign(y)
    } else {
        y.tanh()
    }
}

/// From here on `tanh` in `f32` is ±1 exactly (1 − tanh(y) ≈ 2e^−2y is less than half an ulp
/// of 1 beyond 9.02), so [`sigmoid_symmetric`] skips the call for the hidden units that
/// saturate (`tanhf` was 3.5 % of `process`'s time, 2.8 % with this).
const TANH_SATURATED: f32 = 9.1;

/// FANN_LINEAR_PIECE_SYMMETRIC: `s·x` clamped to [−1, 1].
#[inline]
fn linear_piece_symmetric(x: f32, steepness: f32) -> f32 {
    (steepness * x).clamp(-1.0, 1.0)
}

/// Training examples: rows of `inputs` features and one target each.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// Number of features per row.
    pub inputs: usize,
    /// Row-major, `inputs` values per row.
    pub x: Vec<f32>,
    /// Each row's target (above 0.5 = boilerplate).
    pub y: Vec<f32>,
}

impl Dataset {
    /// Number of examples.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// Whether there are no examples.
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// The features of example `i`.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.x[i * self.inputs..(i + 1) * self.inputs]
    }

    /// Parse a FANN `.dat` file: a header `N inputs outputs`, then per example a line of inputs
    /// and a line of outputs (only the first output is used).
    pub fn from_fann_dat(text: &str) -> Result<Dataset, ModelError> {
        let mut it = text.split_ascii_whitespace();
        let mut next_num = |what: &str| -> Result<f64, ModelError> {
            it.next()
                .ok_or_else(|| err(format!("unexpected end of file reading {what}")))?
                .parse::<f64>()
                .map_err(|e| err(format!("bad {what}: {e}")))
        };
        let n = next_num("example count")? as usize;
        let ni = next_num("input count")? as usize;
        let no = next_num("output count")? as usize;
        let mut d = Dataset {
            inputs: ni,
            x: Vec::with_capacity(n * ni),
            y: Vec::with_capacity(n),
        };
        for _ in 0..n {
            for _ in 0..ni {
                d.x.push(next_num("input")? as f32);
            }
            d.y.push(next_num("output")? as f32);
            for _ in 1..no {
                next_num("output")?;
            }
        }
        Ok(d)
    }

    /// Parse a TSV of features and a label: each line `f1 … fN <TAB> label` (label last,
    /// 1 = boilerplate); lines starting with `#` are comments.
    pub fn from_tsv(text: &str) -> Result<Dataset, ModelError> {
        let mut d = Dataset::default();
        for (ln, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let v: Vec<f32> = line
                .split(['\t', ' '])
                .filter(|s| !s.is_empty())
                .map(|s| {
                    s.parse::<f32>()
                        .map_err(|e| err(format!("line {}: {e}", ln + 1)))
                })
                .collect::<Result<_, _>>()?;
            let (label, feats) = v
                .split_last()
                .ok_or_else(|| err(format!("line {}: empty", ln + 1)))?;
            if d.inputs == 0 {
                d.inputs = feats.len();
            } else if d.inputs != feats.len() {
                return Err(err(format!(
                    "line {}: {} features, expected {}",
                    ln + 1,
                    feats.len(),
                    d.inputs
                )));
            }
            d.x.extend_from_slice(feats);
            d.y.push(*label);
        }
        Ok(d)
    }
}

/// Training settings.
#[derive(Debug, Clone, Copy)]
pub struct TrainConfig {
    /// Number of hidden units.
    pub hidden: usize,
    /// Passes over the whole data set (one batch update each).
    pub epochs: usize,
    /// Seed of the initial weights.
    pub seed: u64,
    /// The error whose gradient training follows.
    pub error: ErrorFunction,
}

/// The error whose gradient training follows (FANN's `train_error_function`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorFunction {
    /// Squared error: the slope is the difference itself.
    Linear,
    /// FANN's default, which texrex's networks were trained with: the difference `d` (halved,
    /// as FANN does for symmetric outputs) becomes `ln((1+d)/(1−d))`, so large errors weigh more.
    #[default]
    Tanh,
}

crate::choice::choice!(ErrorFunction, "error", [
    ErrorFunction::Linear, "linear", "squared error";
    ErrorFunction::Tanh, "tanh", "FANN's default: large errors weigh more";
]);

impl ErrorFunction {
    fn slope(self, diff: f32) -> f64 {
        let d = diff as f64;
        match self {
            ErrorFunction::Linear => d,
            ErrorFunction::Tanh => {
                let d = d / 2.0;
                if d <= -0.9999999 {
                    -17.0
                } else if d >= 0.9999999 {
                    17.0
                } else {
                    ((1.0 + d) / (1.0 - d)).ln()
                }
            }
        }
    }
}

/// SplitMix64: a tiny, well-known generator for reproducible weight initialisation (a whole
/// RNG crate for 700 uniform numbers is not worth a dependency).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// Train a network with batch iRPROP− (FANN's parameters: increase 1.2, decrease 0.5,
/// delta 0.1 initially, within [0, 50]) on the mean squared error, deterministically.
pub fn train(data: &Dataset, cfg: TrainConfig) -> Mlp {
    let (ni, nh) = (data.inputs, cfg.hidden);
    let mut rng = SplitMix64(cfg.seed);
    let mut mlp = Mlp {
        inputs: ni,
        hidden: nh,
        hidden_steepness: 0.5,
        output_steepness: 0.5,
        w_hidden: (0..nh * (ni + 1)).map(|_| rng.uniform(-0.1, 0.1)).collect(),
        w_output: (0..nh + 1).map(|_| rng.uniform(-0.1, 0.1)).collect(),
    };
    let nw = mlp.w_hidden.len() + mlp.w_output.len();
    let mut grad = vec![0f64; nw];
    let mut prev_grad = vec![0f64; nw];
    let mut step = vec![0.1f64; nw];
    let mut hidden_out = vec![0f32; nh];
    for _ in 0..cfg.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let (gh, go) = grad.split_at_mut(mlp.w_hidden.len());
        for i in 0..data.len() {
            let x = data.row(i);
            let mut sum_out = mlp.w_output[nh];
            for ((out_h, w), wo) in hidden_out
                .iter_mut()
                .zip(mlp.w_hidden.chunks_exact(ni + 1))
                .zip(&mlp.w_output)
            {
                let mut s = w[ni];
                for (wi, xi) in w[..ni].iter().zip(x) {
                    s += wi * xi;
                }
                *out_h = sigmoid_symmetric(s, mlp.hidden_steepness);
                sum_out += wo * *out_h;
            }
            let out = linear_piece_symmetric(sum_out, mlp.output_steepness);
            // d(error)/d(sum_out), with FANN's derivative of the linear piece (its steepness).
            let delta_out = cfg.error.slope(out - data.y[i]) * mlp.output_steepness as f64;
            let units = go
                .iter_mut()
                .zip(&hidden_out)
                .zip(&mlp.w_output)
                .zip(gh.chunks_exact_mut(ni + 1));
            for (((go_h, &out_h), &wo), g) in units {
                *go_h += delta_out * out_h as f64;
                let dh = delta_out
                    * wo as f64
                    * mlp.hidden_steepness as f64
                    * (1.0 - (out_h as f64).powi(2));
                for (gi, xi) in g[..ni].iter_mut().zip(x) {
                    *gi += dh * *xi as f64;
                }
                g[ni] += dh;
            }
            go[nh] += delta_out;
        }
        let weights = mlp.w_hidden.iter_mut().chain(mlp.w_output.iter_mut());
        for (k, w) in weights.enumerate() {
            let g = grad[k];
            let sign = g * prev_grad[k];
            if sign > 0.0 {
                step[k] = (step[k] * 1.2).min(50.0);
            } else if sign < 0.0 {
                step[k] = (step[k] * 0.5).max(1e-6);
                prev_grad[k] = 0.0;
                continue;
            }
            if g > 0.0 {
                *w -= step[k] as f32;
            } else if g < 0.0 {
                *w += step[k] as f32;
            }
            prev_grad[k] = g;
        }
    }
    mlp
}

/// Binary classification figures with boilerplate (target > 0.5) as the positive class.
#[derive(Debug, Clone, Copy, Default)]
pub struct Confusion {
    /// True positives: boilerplate predicted as boilerplate.
    pub tp: usize,
    /// False positives: content predicted as boilerplate.
    pub fp: usize,
    /// True negatives: content predicted as content.
    pub(crate) tn: usize,
    /// False negatives: boilerplate predicted as content.
    pub(crate) fn_: usize,
}

impl Confusion {
    /// Count one example (true = boilerplate).
    pub fn add(&mut self, predicted: bool, actual: bool) {
        match (predicted, actual) {
            (true, true) => self.tp += 1,
            (true, false) => self.fp += 1,
            (false, false) => self.tn += 1,
            (false, true) => self.fn_ += 1,
        }
    }

    /// Share of the examples predicted right (0 with none).
    pub fn accuracy(&self) -> f64 {
        (self.tp + self.tn) as f64 / (self.tp + self.tn + self.fp + self.fn_).max(1) as f64
    }

    /// Share of the predicted boilerplate that is boilerplate (0 with none predicted).
    pub fn precision(&self) -> f64 {
        self.tp as f64 / (self.tp + self.fp).max(1) as f64
    }

    /// Share of the boilerplate predicted as boilerplate (0 with none).
    pub fn recall(&self) -> f64 {
        self.tp as f64 / (self.tp + self.fn_).max(1) as f64
    }

    /// Harmonic mean of precision and recall (0 when both are 0).
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

/// The rows of `data` whose index is (or is not) `fold` modulo `k`.
fn fold_split(data: &Dataset, k: usize, fold: usize) -> (Dataset, Dataset) {
    let empty = || Dataset {
        inputs: data.inputs,
        ..Default::default()
    };
    let (mut train, mut test) = (empty(), empty());
    for i in 0..data.len() {
        let d = if i % k == fold { &mut test } else { &mut train };
        d.x.extend_from_slice(data.row(i));
        d.y.push(data.y[i]);
    }
    (train, test)
}

/// K-fold cross-validation: row `i` falls in fold `i mod k` (the rows of one page stay spread
/// over the folds, as in texrex's own evaluation). Returns each row's output from the network
/// trained without its fold. Folds train on up to `threads` threads; the result does not
/// depend on the thread count.
pub fn cross_validate(data: &Dataset, cfg: TrainConfig, k: usize, threads: usize) -> Vec<f32> {
    assert!(k >= 2 && k <= data.len(), "2 ≤ k ≤ rows");
    let folds = crate::parallel::map(k, threads, |fold| {
        let (train_set, test) = fold_split(data, k, fold);
        let m = train(&train_set, cfg);
        (0..test.len()).map(|i| m.run(test.row(i))).collect::<Vec<_>>()
    });
    let mut outputs = vec![0f32; data.len()];
    for (fold, out) in folds.into_iter().enumerate() {
        for (j, o) in out.into_iter().enumerate() {
            outputs[fold + j * k] = o;
        }
    }
    outputs
}

/// Figures for precomputed outputs at a threshold.
pub fn confusion(outputs: &[f32], targets: &[f32], threshold: f32) -> Confusion {
    let mut c = Confusion::default();
    for (o, t) in outputs.iter().zip(targets) {
        c.add(*o > threshold, *t > 0.5);
    }
    c
}

/// The threshold (in steps of 0.01 over [0, 1), as in texrex's paper) where precision and
/// recall are closest, with its figures; thresholds that predict no boilerplate at all are left
/// out.
pub fn balanced_threshold(outputs: &[f32], targets: &[f32]) -> Option<(f32, Confusion)> {
    (0..100)
        .map(|t| {
            let th = t as f32 / 100.0;
            (th, confusion(outputs, targets, th))
        })
        .filter(|(_, c)| c.tp + c.fp > 0)
        .min_by(|a, b| {
            let gap = |c: &Confusion| (c.precision() - c.recall()).abs();
            gap(&a.1).total_cmp(&gap(&b.1))
        })
}

/// Evaluate a network on a data set at a threshold.
pub fn evaluate(mlp: &Mlp, data: &Dataset, threshold: f32) -> Confusion {
    let mut c = Confusion::default();
    for i in 0..data.len() {
        c.add(mlp.run(data.row(i)) > threshold, data.y[i] > 0.5);
    }
    c
}

/// texrex's MLP as a detector ([`crate::classify::detector`]): one column, `mlp`, the network's
/// output for the block's 37 features (0 content, 1 boilerplate), with the model of the page's
/// language ([`crate::classify::Models::mlp`]).
pub struct Detector;

/// Its name in the registry.
pub const NAME: &str = "mlp";

/// Its columns.
pub const COLUMNS: &[Column] = &[Column {
    name: "mlp",
    shown: Shown::Number,
}];

/// Its columns in the table.
const AT: document::Cols = registry::cols(NAME);

/// Its decision.
pub(crate) const DECISION: Decision = Decision {
    name: "mlp",
    about: "texrex's MLP, by language (bpv ≤ 0.5)",
    bpv: of,
    cut: Cut::Half,
};

/// `--model`: an MLP for every document instead of the built-in ones.
pub static MODEL_FILE: ModelFile = ModelFile {
    option: "model",
    help: "Boilerplate MLP for every document instead of the built-in ones (cowrex compact \
           format or FANN .net)",
    load: |bytes| Ok(Box::new(Mlp::from_bytes(bytes)?)),
};

/// A block's MLP score.
pub fn of(b: &Block) -> f32 {
    b.scores.get(AT, 0) as f32
}

impl detector::Detector for Detector {
    fn score(&self, blocks: &mut [Block], page: &detector::Scoring<'_>) {
        let (_, mlp) = page.models.mlp(page.language);
        let mut x = [0f32; crate::features::texrex::N_FEATURES];
        for b in blocks {
            for (xi, fi) in x.iter_mut().zip(&b.features) {
                *xi = *fi as f32;
            }
            b.scores.set(AT, 0, mlp.run(&x) as f64);
        }
    }

    fn decisions(&self) -> &'static [Decision] {
        &[DECISION]
    }

    fn model_file(&self) -> Option<&'static ModelFile> {
        Some(&MODEL_FILE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturated_activation_equals_tanh() {
        // Every f32 from 8 to 30 (stride 7 ulps), both signs, and the edges.
        let (from, to) = (8f32.to_bits(), 30f32.to_bits());
        let sweep = (from..to).step_by(7).map(f32::from_bits);
        let edges = [0.0, -0.0, 1.0, 9.0, 9.02, 9.1, f32::INFINITY, f32::MAX];
        for y in sweep.chain(edges) {
            for y in [y, -y] {
                let want = y.tanh();
                assert_eq!(sigmoid_symmetric(y, 1.0).to_bits(), want.to_bits(), "{y}");
                assert_eq!(
                    sigmoid_symmetric(y * 2.0, 0.5).to_bits(),
                    want.to_bits(),
                    "{y}"
                );
            }
        }
        assert!(sigmoid_symmetric(f32::NAN, 0.5).is_nan());
    }

    fn toy() -> Dataset {
        // Boilerplate when the first feature is high.
        let mut d = Dataset {
            inputs: 3,
            ..Default::default()
        };
        for i in 0..200 {
            let a = (i % 20) as f32 / 20.0;
            let b = ((i * 7) % 13) as f32 / 13.0;
            d.x.extend_from_slice(&[a, b, 0.5]);
            d.y.push(if a > 0.5 { 1.0 } else { 0.0 });
        }
        d
    }

    #[test]
    fn training_is_deterministic_and_learns() {
        let d = toy();
        let cfg = TrainConfig {
            hidden: 4,
            epochs: 300,
            seed: 7,
            error: ErrorFunction::Tanh,
        };
        let a = train(&d, cfg);
        assert_eq!(a, train(&d, cfg));
        assert!(evaluate(&a, &d, 0.5).accuracy() > 0.95);
    }

    #[test]
    fn compact_format_round_trips() {
        let m = train(
            &toy(),
            TrainConfig {
                hidden: 3,
                epochs: 5,
                seed: 1,
                error: ErrorFunction::Linear,
            },
        );
        assert_eq!(Mlp::parse(&m.to_compact()).unwrap(), m);
    }

    #[test]
    fn reads_fann_networks() {
        let net = "FANN_FLO_2.1\nnum_layers=3\nlayer_sizes=3 2 2\nneurons (num_inputs, activation_function, activation_steepness)=(0, 0, 0.00000000000000000000e+00) (0, 0, 0.00000000000000000000e+00) (0, 0, 0.00000000000000000000e+00) (3, 5, 5.00000000000000000000e-01) (0, 5, 0.00000000000000000000e+00) (2, 13, 5.00000000000000000000e-01) (0, 13, 0.00000000000000000000e+00) \nconnections (connected_to_neuron, weight)=(0, 1.0e+00) (1, -2.0e+00) (2, 5.0e-01) (3, 3.0e+00) (4, -1.0e+00) \n";
        let m = Mlp::from_fann(net).unwrap();
        assert_eq!((m.inputs, m.hidden), (2, 1));
        assert_eq!(m.w_hidden, vec![1.0, -2.0, 0.5]);
        // h = tanh(0.5·(1·1 − 2·0 + 0.5)) ; out = clamp(0.5·(3h − 1))
        let h = (0.5f32 * 1.5).tanh();
        assert!((m.run(&[1.0, 0.0]) - (0.5 * (3.0 * h - 1.0))).abs() < 1e-6);
    }
}

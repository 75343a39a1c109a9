//! Gradient-boosted decision trees for binary classification (logistic loss, second-order
//! leaf values, histogram split finding), small enough to run on every block of a crawl. By
//! default the trees are oblivious ([`TrainConfig::oblivious`]), which makes them cheap to
//! score; any model whose levels each split on one condition is scored that way.
//!
//! Written here rather than taken from a crate: the Rust GBT crates either bind C++ libraries
//! (LightGBM, XGBoost) or cannot read weighted training data; ours is a few hundred lines, trains
//! deterministically, and its text format is diffable.
//!
//! Text format (`cowrex-gbt 1`): a header line `cowrex-gbt 1 <features> <trees> <base>`, then
//! one line per tree: its nodes in order, `f:threshold:left:right` for a split (go left when
//! `x[f] <= threshold`) and `=value` for a leaf.

use std::sync::OnceLock;

use super::ModelError;
use super::binary::{Reader, Writer};

/// One node of a tree.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Node {
    Split {
        feature: u16,
        threshold: f32,
        left: u32,
        right: u32,
    },
    Leaf(f32),
}

/// A trained ensemble: P(positive) = sigmoid(base + Σ tree(x)).
#[derive(Debug, Clone)]
pub struct Gbt {
    /// Number of input features (the width of a row).
    pub features: usize,
    base: f32,
    trees: Trees,
    /// The same trees laid out for scoring many rows; `None` when they are too deep for it.
    flat: Option<Flat>,
}

impl PartialEq for Gbt {
    fn eq(&self, other: &Gbt) -> bool {
        (self.features, self.base.to_bits(), self.trees(), &self.flat)
            == (
                other.features,
                other.base.to_bits(),
                other.trees(),
                &other.flat,
            )
    }
}

/// The trees as nodes, which scoring many rows does not need ([`Flat`] serves it): a built-in
/// model ([`Gbt::from_static`]) decodes them from its binary layout when first walked.
#[derive(Debug, Clone)]
struct Trees {
    nodes: OnceLock<Vec<Vec<Node>>>,
    /// The trees' part of the binary layout, while `nodes` is not yet decoded from it.
    layout: &'static [u8],
    count: usize,
}

/// Trees deeper than this are scored by walking their nodes.
const MAX_FLAT_DEPTH: usize = 10;

/// The trees as complete binary trees of one depth, in arrays: a row takes `depth` steps of
/// `i = 2i + 2 - (x[feature[i]] <= threshold[i])` with no branch to mispredict. A leaf above
/// the full depth is padded with splits whose both sides lead to copies of it.
#[derive(Debug, Clone, PartialEq)]
struct Flat {
    depth: usize,
    feature: Vec<u16>,
    threshold: Vec<f32>,
    leaf: Vec<f32>,
    /// When every level of every tree splits on one condition (oblivious trees): each tree's
    /// conditions, `depth` per tree, so a row's leaf is read off `depth` independent
    /// comparisons.
    levels: Option<(Vec<u16>, Vec<f32>)>,
}

impl Flat {
    fn new(trees: &[Vec<Node>]) -> Option<Flat> {
        let depth = trees.iter().map(|t| tree_depth(t)).max().unwrap_or(0);
        if depth > MAX_FLAT_DEPTH {
            return None;
        }
        let (inner, leaves) = ((1usize << depth) - 1, 1usize << depth);
        let mut flat = Flat {
            depth,
            feature: vec![0; inner * trees.len()],
            threshold: vec![0.0; inner * trees.len()],
            leaf: vec![0.0; leaves * trees.len()],
            levels: None,
        };
        // Each level's condition, while all its splits agree; padding agrees with any.
        let mut levels: Option<Vec<Option<(u16, f32)>>> = Some(vec![None; depth * trees.len()]);
        for (t, tree) in trees.iter().enumerate() {
            // (node, position in the complete tree, level)
            let mut stack = vec![(0usize, 0usize, 0usize)];
            while let Some((node, pos, level)) = stack.pop() {
                match tree[node] {
                    Node::Split {
                        feature,
                        threshold,
                        left,
                        right,
                    } => {
                        flat.feature[t * inner + pos] = feature;
                        flat.threshold[t * inner + pos] = threshold;
                        if let Some(conditions) = &mut levels {
                            let known =
                                conditions[t * depth + level].get_or_insert((feature, threshold));
                            if known.0 != feature || known.1.to_bits() != threshold.to_bits() {
                                levels = None;
                            }
                        }
                        stack.push((left as usize, 2 * pos + 1, level + 1));
                        stack.push((right as usize, 2 * pos + 2, level + 1));
                    }
                    Node::Leaf(v) if level == depth => flat.leaf[t * leaves + pos - inner] = v,
                    Node::Leaf(_) => {
                        stack.push((node, 2 * pos + 1, level + 1));
                        stack.push((node, 2 * pos + 2, level + 1));
                    }
                }
            }
        }
        flat.levels = levels.map(|conditions| {
            // A level of padding only: any condition leads to the same leaf.
            let conditions = conditions.iter().map(|c| c.unwrap_or((0, 0.0)));
            conditions.unzip()
        });
        Some(flat)
    }

    /// Add every tree's value to the margins `z` of the rows (`nf` values each).
    fn add(&self, rows: &[f32], nf: usize, z: &mut [f32]) {
        if let Some(levels) = &self.levels {
            return self.add_by_levels(levels, rows, nf, z);
        }
        let mut rows = rows.chunks_exact(nf * LANES);
        let mut z = z.chunks_exact_mut(LANES);
        for (rows, z) in (&mut rows).zip(&mut z) {
            self.add_lanes::<LANES>(rows, nf, z);
        }
        for (row, z) in rows.remainder().chunks_exact(nf).zip(z.into_remainder()) {
            self.add_lanes::<1>(row, nf, std::slice::from_mut(z));
        }
    }

    /// [`Flat::add`] for oblivious trees, [`LANES`] rows at a time: their features are laid
    /// out by column, so each level compares `LANES` values to one threshold (which the
    /// compiler vectorises), and the comparisons' bits, first level highest, index the leaf.
    fn add_by_levels(&self, levels: &(Vec<u16>, Vec<f32>), rows: &[f32], nf: usize, z: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            return unsafe { self.add_by_levels_avx2(levels, rows, nf, z) };
        }
        self.levels_kernel(levels, rows, nf, z)
    }

    /// [`Flat::levels_kernel`] in AVX2's instructions: a tree's eight leaves are gathered by
    /// one instruction instead of eight bounds-checked loads (the same values: each lane adds
    /// the same leaves in the same order, no fused operations).
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn add_by_levels_avx2(
        &self,
        levels: &(Vec<u16>, Vec<f32>),
        rows: &[f32],
        nf: usize,
        z: &mut [f32],
    ) {
        use std::arch::x86_64::*;
        const _: () = assert!(LANES == 8, "one AVX2 register of f32");
        let (depth, leaves) = (self.depth, 1usize << self.depth);
        let (feature, threshold) = levels;
        assert!(
            feature.len() == threshold.len() && feature.len() * leaves == depth * self.leaf.len()
        );
        assert!(feature.iter().all(|&f| (f as usize) < nf));
        let mut columns = vec![0f32; nf * LANES];
        for (rows, z) in rows.chunks(nf * LANES).zip(z.chunks_mut(LANES)) {
            to_columns(rows, nf, z.len(), &mut columns);
            let mut lanes = [0f32; LANES];
            lanes[..z.len()].copy_from_slice(z);
            // SAFETY: AVX2 is enabled; every load reads LANES floats of `columns` at a
            // feature below `nf` (asserted above) or of `lanes`, and every gathered index is
            // below `leaves` (`depth` bits) within the tree's own leaves.
            unsafe {
                let mut sum = _mm256_loadu_ps(lanes.as_ptr());
                for (t, leaf) in self.leaf.chunks_exact(leaves).enumerate() {
                    let mut at = _mm256_setzero_si256();
                    for level in t * depth..(t + 1) * depth {
                        let x =
                            _mm256_loadu_ps(columns.as_ptr().add(feature[level] as usize * LANES));
                        let th = _mm256_set1_ps(threshold[level]);
                        // Right (bit 1) when not x <= t, NaN too, as in the walk: all ones
                        // (-1) where right, so 2 at - that.
                        let right = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_NLE_UQ>(x, th));
                        at = _mm256_sub_epi32(_mm256_add_epi32(at, at), right);
                    }
                    sum = _mm256_add_ps(sum, _mm256_i32gather_ps::<4>(leaf.as_ptr(), at));
                }
                _mm256_storeu_ps(lanes.as_mut_ptr(), sum);
            }
            z.copy_from_slice(&lanes[..z.len()]);
        }
    }

    /// The body of [`Flat::add_by_levels`].
    #[inline(always)]
    fn levels_kernel(&self, levels: &(Vec<u16>, Vec<f32>), rows: &[f32], nf: usize, z: &mut [f32]) {
        let (depth, leaves) = (self.depth, 1usize << self.depth);
        let (feature, threshold) = levels;
        let mut columns = vec![0f32; nf * LANES];
        for (rows, z) in rows.chunks(nf * LANES).zip(z.chunks_mut(LANES)) {
            to_columns(rows, nf, z.len(), &mut columns);
            let mut sum = [0f32; LANES];
            sum[..z.len()].copy_from_slice(z);
            for (t, leaf) in self.leaf.chunks_exact(leaves).enumerate() {
                let mut at = [0u32; LANES];
                for level in t * depth..(t + 1) * depth {
                    let f = feature[level] as usize;
                    let x: &[f32; LANES] = columns[f * LANES..(f + 1) * LANES].try_into().unwrap();
                    let th = threshold[level];
                    for k in 0..LANES {
                        // Right (bit 1) when not x <= t, NaN too, as in the walk.
                        at[k] = 2 * at[k] + 1 - u32::from(x[k] <= th);
                    }
                }
                for (s, i) in sum.iter_mut().zip(at) {
                    *s += leaf[i as usize];
                }
            }
            z.copy_from_slice(&sum[..z.len()]);
        }
    }

    /// [`Flat::add`] for `K` rows at once: their walks are independent, so the processor
    /// overlaps them.
    fn add_lanes<const K: usize>(&self, rows: &[f32], nf: usize, z: &mut [f32]) {
        let (inner, leaves) = ((1usize << self.depth) - 1, 1usize << self.depth);
        for (t, leaf) in self.leaf.chunks_exact(leaves).enumerate() {
            let feature = &self.feature[t * inner..(t + 1) * inner];
            let threshold = &self.threshold[t * inner..(t + 1) * inner];
            let mut at = [0usize; K];
            for _ in 0..self.depth {
                for (k, i) in at.iter_mut().enumerate() {
                    let x = rows[k * nf + feature[*i] as usize];
                    // Left child 2i + 1 when x <= t, else (NaN too, as in the walk) 2i + 2.
                    *i = 2 * *i + 2 - usize::from(x <= threshold[*i]);
                }
            }
            for (zk, i) in z.iter_mut().zip(at) {
                *zk += leaf[i - inner];
            }
        }
    }
}

/// Rows scored together by [`Flat::add`].
const LANES: usize = 8;

/// The number of splits on the longest path from the root (nodes point forward, see `parse`).
fn tree_depth(tree: &[Node]) -> usize {
    let mut level = vec![0usize; tree.len()];
    let mut deepest = 0;
    for (i, node) in tree.iter().enumerate() {
        if let Node::Split { left, right, .. } = *node {
            for child in [left, right] {
                level[child as usize] = level[child as usize].max(level[i] + 1);
            }
            deepest = deepest.max(level[i] + 1);
        }
    }
    deepest
}

/// Training settings.
#[derive(Debug, Clone, Copy)]
pub struct TrainConfig {
    /// Number of trees (boosting rounds).
    pub trees: usize,
    /// Maximum levels of splits from a tree's root to a leaf.
    pub depth: usize,
    /// Shrinkage: the factor on every leaf value.
    pub learning_rate: f32,
    /// L2 penalty on leaf values.
    pub lambda: f64,
    /// Minimum summed hessian (weight) in a leaf.
    pub min_leaf: f64,
    /// Histogram bins per feature (2 to 256).
    pub bins: usize,
    /// Share of the rows each tree is grown on, drawn anew per tree (stochastic gradient
    /// boosting, Friedman 2002); 1 grows every tree on all rows.
    pub subsample: f32,
    /// Share of the features each tree may split on, drawn anew per tree; 1 allows all.
    pub colsample: f32,
    /// Oblivious trees (as CatBoost's): all nodes of a level split on one feature and
    /// threshold, the one that gains most summed over the level. Scoring a row then takes
    /// `depth` independent comparisons instead of a chain of dependent loads.
    pub oblivious: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            trees: 300,
            depth: 8,
            learning_rate: 0.2,
            lambda: 1.0,
            min_leaf: 5.0,
            bins: 64,
            subsample: 1.0,
            colsample: 1.0,
            oblivious: true,
        }
    }
}

/// Up to [`LANES`] rows (`nf` features each, `used` of them) laid out by column, `LANES` values
/// per feature, for the level kernels; a short chunk repeats its last row in the unused lanes.
#[inline(always)]
fn to_columns(rows: &[f32], nf: usize, used: usize, columns: &mut [f32]) {
    for k in 0..LANES {
        let row = k.min(used - 1) * nf;
        for (f, &x) in rows[row..row + nf].iter().enumerate() {
            columns[f * LANES + k] = x;
        }
    }
}

/// Rows of `x` (`width` values each) each followed by its row of `context` (`context_width`
/// values): a stacked model's second-stage input.
pub(crate) fn stack_rows(
    x: &[f32],
    width: usize,
    context: &[f32],
    context_width: usize,
) -> Vec<f32> {
    let mut rows = Vec::with_capacity(x.len() + context.len());
    for (a, b) in x
        .chunks_exact(width)
        .zip(context.chunks_exact(context_width))
    {
        rows.extend_from_slice(a);
        rows.extend_from_slice(b);
    }
    rows
}

/// The two stages of a stacked model in the text format, the two `cowrex-gbt` models one after
/// the other; an error unless they read `widths` features, the first stage's and the main
/// model's as cowrex computes them. `name` is the model's in errors, and its `cowrex train`
/// subcommand's.
pub(crate) fn parse_stages(
    text: &str,
    name: &str,
    widths: [usize; 2],
) -> Result<[Gbt; 2], ModelError> {
    let retrain = format!("retrain it with `cowrex train {name}`");
    let at = text.match_indices("\ncowrex-gbt ").next().ok_or_else(|| {
        ModelError(format!(
            "a {name} model needs two cowrex-gbt models, its first stage and its main model \
             ({retrain})"
        ))
    })?;
    let stages = [
        Gbt::parse(&text[..at.0 + 1])?,
        Gbt::parse(&text[at.0 + 1..])?,
    ];
    if stages.each_ref().map(|g| g.features) != widths {
        return Err(ModelError(format!(
            "the {name} model has {} and {} features, cowrex computes {} and {} ({retrain})",
            stages[0].features, stages[1].features, widths[0], widths[1]
        )));
    }
    Ok(stages)
}

/// Rows of features with labels (true = positive) and weights.
#[derive(Debug, Clone, Default)]
pub struct Data {
    /// Number of features per row.
    pub features: usize,
    /// Row-major, `features` values per row.
    pub x: Vec<f32>,
    /// Each row's label (true = positive).
    pub y: Vec<bool>,
    /// Each row's weight.
    pub w: Vec<f32>,
}

impl Data {
    /// No rows, `features` values per row.
    pub fn new(features: usize) -> Data {
        Data {
            features,
            ..Default::default()
        }
    }

    /// Add a row with its label and weight; panics unless it has `features` values.
    pub fn push(&mut self, row: &[f32], y: bool, w: f32) {
        assert_eq!(row.len(), self.features, "row width");
        self.x.extend_from_slice(row);
        self.y.push(y);
        self.w.push(w);
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// The values of row `i`.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.x[i * self.features..(i + 1) * self.features]
    }
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

impl Gbt {
    /// The raw score (log-odds) of one row.
    pub fn margin(&self, x: &[f32]) -> f32 {
        let mut z = self.base;
        for tree in self.trees() {
            let mut i = 0;
            loop {
                match tree[i] {
                    Node::Leaf(v) => {
                        z += v;
                        break;
                    }
                    Node::Split {
                        feature,
                        threshold,
                        left,
                        right,
                    } => {
                        i = if x[feature as usize] <= threshold {
                            left
                        } else {
                            right
                        } as usize
                    }
                }
            }
        }
        z
    }

    /// P(positive) for one row.
    pub fn predict(&self, x: &[f32]) -> f32 {
        sigmoid(self.margin(x))
    }

    /// P(positive) for each of the rows (row-major, `features` values per row); the same
    /// values as [`Gbt::predict`] on each, computed tree by tree over all rows.
    pub(crate) fn predict_rows(&self, rows: &[f32]) -> Vec<f32> {
        let mut z = vec![self.base; rows.len() / self.features];
        match &self.flat {
            Some(flat) => flat.add(rows, self.features, &mut z),
            None => {
                for (zi, row) in z.iter_mut().zip(rows.chunks_exact(self.features)) {
                    *zi = self.margin(row);
                }
            }
        }
        z.into_iter().map(sigmoid).collect()
    }

    /// Each node's value when the two sides of every split below it weigh the same: a leaf's
    /// own value, a split's the mean of its children's (the model keeps no training covers).
    fn node_means(tree: &[Node]) -> Vec<f32> {
        let mut mean = vec![0f32; tree.len()];
        // Children come after their parents (`parse` checks it): fill from the end.
        for i in (0..tree.len()).rev() {
            mean[i] = match tree[i] {
                Node::Leaf(v) => v,
                Node::Split { left, right, .. } => {
                    (mean[left as usize] + mean[right as usize]) / 2.0
                }
            };
        }
        mean
    }

    /// The margin of a row about which nothing is known: the base plus every tree's
    /// root value as [`Gbt::contributions`] weighs it.
    pub fn expected_margin(&self) -> f32 {
        self.base
            + self
                .trees()
                .iter()
                .map(|t| Self::node_means(t)[0])
                .sum::<f32>()
    }

    /// What each feature adds to each row's margin (`features` per row, row after row): at
    /// every split a row passes, the change from the node's value to its child's goes to the
    /// split's feature (Saabas's attribution, each split's sides weighing the same). A row's
    /// contributions add up to its margin less [`Gbt::expected_margin`].
    pub fn contributions(&self, rows: &[f32]) -> Vec<f32> {
        let nf = self.features;
        let means: Vec<Vec<f32>> = self.trees().iter().map(|t| Self::node_means(t)).collect();
        let mut out = vec![0f32; rows.len()];
        for (x, c) in rows.chunks_exact(nf).zip(out.chunks_exact_mut(nf)) {
            for (tree, mean) in self.trees().iter().zip(&means) {
                let mut i = 0;
                while let Node::Split {
                    feature,
                    threshold,
                    left,
                    right,
                } = tree[i]
                {
                    let next = if x[feature as usize] <= threshold {
                        left
                    } else {
                        right
                    } as usize;
                    c[feature as usize] += mean[next] - mean[i];
                    i = next;
                }
            }
        }
        out
    }

    /// The same model at temperature `t`: P = sigmoid(margin / t), by dividing the base and
    /// every leaf by `t` (t > 1 makes the probabilities less extreme).
    pub(crate) fn tempered(&self, t: f32) -> Gbt {
        let trees = self
            .trees()
            .iter()
            .map(|tree| {
                tree.iter()
                    .map(|n| match *n {
                        Node::Leaf(v) => Node::Leaf(v / t),
                        split => split,
                    })
                    .collect()
            })
            .collect();
        Gbt::new(self.features, self.base / t, trees)
    }

    fn new(features: usize, base: f32, trees: Vec<Vec<Node>>) -> Gbt {
        Gbt {
            features,
            base,
            flat: Flat::new(&trees),
            trees: Trees {
                count: trees.len(),
                nodes: trees.into(),
                layout: &[],
            },
        }
    }

    /// The trees' nodes, decoded first if the model came from [`Gbt::from_static`].
    fn trees(&self) -> &[Vec<Node>] {
        self.trees.nodes.get_or_init(|| {
            decode_trees(
                &mut Reader(self.trees.layout),
                self.features,
                self.trees.count,
            )
            .expect("built-in models are valid (tested)")
        })
    }

    /// The model in its text format.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "cowrex-gbt 1 {} {} {:?}\n",
            self.features,
            self.trees().len(),
            self.base
        );
        for tree in self.trees() {
            let nodes: Vec<String> = tree
                .iter()
                .map(|n| match *n {
                    Node::Leaf(v) => format!("={v:?}"),
                    Node::Split {
                        feature,
                        threshold,
                        left,
                        right,
                    } => format!("{feature}:{threshold:?}:{left}:{right}"),
                })
                .collect();
            out.push_str(&nodes.join(" "));
            out.push('\n');
        }
        out
    }

    /// Read a model in the text format.
    pub fn parse(text: &str) -> Result<Gbt, ModelError> {
        let bad = |m: &str| ModelError(format!("not a cowrex-gbt model: {m}"));
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let [magic, version, features, trees, base] = head[..] else {
            return Err(bad("header"));
        };
        if magic != "cowrex-gbt" || version != "1" {
            return Err(bad("header"));
        }
        let features: usize = features.parse().map_err(|_| bad("feature count"))?;
        let n_trees: usize = trees.parse().map_err(|_| bad("tree count"))?;
        let base: f32 = base.parse().map_err(|_| bad("base"))?;
        let mut trees = Vec::with_capacity(n_trees);
        for (n, line) in lines.enumerate() {
            let mut tree = Vec::new();
            for tok in line.split_whitespace() {
                let node = if let Some(v) = tok.strip_prefix('=') {
                    Node::Leaf(v.parse().map_err(|_| bad(&format!("tree {n}: leaf")))?)
                } else {
                    let p: Vec<&str> = tok.split(':').collect();
                    let parsed = (p.len() == 4)
                        .then(|| {
                            Some(Node::Split {
                                feature: p[0].parse().ok()?,
                                threshold: p[1].parse().ok()?,
                                left: p[2].parse().ok()?,
                                right: p[3].parse().ok()?,
                            })
                        })
                        .flatten();
                    parsed.ok_or_else(|| bad(&format!("tree {n}: node {tok}")))?
                };
                tree.push(node);
            }
            if !well_formed(&tree, features) {
                return Err(bad(&format!("tree {n} is malformed")));
            }
            trees.push(tree);
        }
        if trees.len() != n_trees {
            return Err(bad("tree count"));
        }
        Ok(Gbt::new(features, base, trees))
    }

    /// The model in the binary layout of `classify::binary` (how `build.rs` hands over the
    /// built-in model): features, base and tree count; the flat layout (a presence byte,
    /// then depth, features, thresholds and leaves, and the levels behind their own presence
    /// byte); then each tree's node count and nodes, a leaf as tag 0 and its value, a split as
    /// tag 1, feature, threshold, left and right.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        let trees = self.trees();
        w.u32(self.features as u32);
        w.f32(self.base);
        w.u32(trees.len() as u32);
        w.u8(self.flat.is_some().into());
        if let Some(flat) = &self.flat {
            w.u32(flat.depth as u32);
            flat.feature.iter().for_each(|&f| w.u16(f));
            flat.threshold.iter().for_each(|&t| w.f32(t));
            flat.leaf.iter().for_each(|&v| w.f32(v));
            w.u8(flat.levels.is_some().into());
            if let Some((feature, threshold)) = &flat.levels {
                feature.iter().for_each(|&f| w.u16(f));
                threshold.iter().for_each(|&t| w.f32(t));
            }
        }
        for tree in trees {
            w.u32(tree.len() as u32);
            for node in tree {
                match *node {
                    Node::Leaf(v) => {
                        w.u8(0);
                        w.f32(v);
                    }
                    Node::Split {
                        feature,
                        threshold,
                        left,
                        right,
                    } => {
                        w.u8(1);
                        w.u16(feature);
                        w.f32(threshold);
                        w.u32(left);
                        w.u32(right);
                    }
                }
            }
        }
        w.0
    }

    /// Read [`Gbt::to_bytes`]'s layout, checked as [`Gbt::parse`] checks the text (and the
    /// flat layout against the trees).
    pub fn from_bytes(bytes: &[u8]) -> Result<Gbt, ModelError> {
        let mut r = Reader(bytes);
        let (features, base, count, flat) = read_head(&mut r)?;
        let trees = decode_trees(&mut r, features, count)?;
        if !r.is_empty() || Flat::new(&trees) != flat {
            return Err(not_binary());
        }
        Ok(Gbt {
            features,
            base,
            flat,
            trees: Trees {
                nodes: trees.into(),
                layout: &[],
                count,
            },
        })
    }

    /// A built-in model from [`Gbt::to_bytes`]'s layout, read without decoding its trees:
    /// they are decoded when first walked (explanations). `build.rs` wrote the layout, and a
    /// test checks each built-in model with [`Gbt::from_bytes`].
    pub(crate) fn from_static(bytes: &'static [u8]) -> Result<Gbt, ModelError> {
        let mut r = Reader(bytes);
        let (features, base, count, flat) = read_head(&mut r)?;
        Ok(Gbt {
            features,
            base,
            flat,
            trees: Trees {
                nodes: OnceLock::new(),
                layout: r.0,
                count,
            },
        })
    }
}

fn not_binary() -> ModelError {
    ModelError("not a cowrex-gbt model in its binary layout".into())
}

/// The features, base, tree count and [`Flat`] layout at the start of [`Gbt::to_bytes`]'s
/// layout.
fn read_head(r: &mut Reader) -> Result<(usize, f32, usize, Option<Flat>), ModelError> {
    let bad = not_binary;
    let features = r.u32().ok_or_else(bad)? as usize;
    let base = r.f32().ok_or_else(bad)?;
    let count = r.u32().ok_or_else(bad)? as usize;
    if r.u8().ok_or_else(bad)? == 0 {
        return Ok((features, base, count, None));
    }
    let depth = r.u32().ok_or_else(bad)? as usize;
    if depth > MAX_FLAT_DEPTH {
        return Err(bad());
    }
    let (inner, leaves) = (((1usize << depth) - 1) * count, (1usize << depth) * count);
    // Each vector made at its size (collecting `Option`s grows it step by step: copies and
    // page faults at every start). Features within the rows, so that scoring cannot index
    // past a row.
    let feature = |r: &mut Reader, n: usize| -> Option<Vec<u16>> {
        let mut v = Vec::with_capacity(n.min(r.0.len() / 2));
        for _ in 0..n {
            v.push(r.u16().filter(|&f| (f as usize) < features)?);
        }
        Some(v)
    };
    let float = |r: &mut Reader, n: usize| -> Option<Vec<f32>> {
        let mut v = Vec::with_capacity(n.min(r.0.len() / 4));
        for _ in 0..n {
            v.push(r.f32()?);
        }
        Some(v)
    };
    let mut flat = Flat {
        depth,
        feature: feature(r, inner).ok_or_else(bad)?,
        threshold: float(r, inner).ok_or_else(bad)?,
        leaf: float(r, leaves).ok_or_else(bad)?,
        levels: None,
    };
    if r.u8().ok_or_else(bad)? != 0 {
        let n = depth * count;
        flat.levels = Some((feature(r, n).ok_or_else(bad)?, float(r, n).ok_or_else(bad)?));
    }
    Ok((features, base, count, Some(flat)))
}

/// `count` trees of [`Gbt::to_bytes`]'s layout, each checked.
fn decode_trees(
    r: &mut Reader,
    features: usize,
    count: usize,
) -> Result<Vec<Vec<Node>>, ModelError> {
    let bad = not_binary;
    let mut trees = Vec::with_capacity(count.min(r.0.len()));
    for _ in 0..count {
        let n = r.u32().ok_or_else(bad)? as usize;
        let mut tree = Vec::with_capacity(n.min(r.0.len()));
        for _ in 0..n {
            tree.push(match r.u8().ok_or_else(bad)? {
                0 => Node::Leaf(r.f32().ok_or_else(bad)?),
                1 => Node::Split {
                    feature: r.u16().ok_or_else(bad)?,
                    threshold: r.f32().ok_or_else(bad)?,
                    left: r.u32().ok_or_else(bad)?,
                    right: r.u32().ok_or_else(bad)?,
                },
                _ => return Err(bad()),
            });
        }
        if !well_formed(&tree, features) {
            return Err(bad());
        }
        trees.push(tree);
    }
    Ok(trees)
}

/// Whether a tree can be walked: not empty, and every split points forward to nodes of the
/// tree, on features that exist.
fn well_formed(tree: &[Node], features: usize) -> bool {
    !tree.is_empty()
        && tree.iter().enumerate().all(|(i, node)| match *node {
            Node::Leaf(_) => true,
            Node::Split {
                feature,
                left,
                right,
                ..
            } => {
                (feature as usize) < features
                    && left as usize > i
                    && right as usize > i
                    && (left as usize) < tree.len()
                    && (right as usize) < tree.len()
            }
        })
}

/// Per feature, the thresholds between histogram bins: up to `bins - 1` distinct quantiles.
fn bin_edges(data: &Data, bins: usize) -> Vec<Vec<f32>> {
    let n = data.len();
    (0..data.features)
        .map(|f| {
            let mut v: Vec<f32> = (0..n).map(|i| data.x[i * data.features + f]).collect();
            v.sort_by(f32::total_cmp);
            v.dedup();
            if v.len() <= bins {
                // Thresholds at the distinct values themselves (all but the largest).
                v.pop();
                return v;
            }
            let mut edges: Vec<f32> = (1..bins).map(|k| v[k * v.len() / bins]).collect();
            edges.dedup();
            edges
        })
        .collect()
}

/// Train a model. Deterministic: the same data and settings give the same model.
pub fn train(data: &Data, cfg: TrainConfig) -> Gbt {
    let (n, nf) = (data.len(), data.features);
    let bins = cfg.bins.clamp(2, 256);
    let edges = bin_edges(data, bins);
    // Bin index of every value: the number of edges below it.
    let binned: Vec<u8> = (0..n * nf)
        .map(|k| edges[k % nf].partition_point(|&e| e < data.x[k]) as u8)
        .collect();
    let (mut pos, mut total) = (0f64, 0f64);
    for i in 0..n {
        total += data.w[i] as f64;
        if data.y[i] {
            pos += data.w[i] as f64;
        }
    }
    let prior = ((pos + 1.0) / (total + 2.0)).clamp(1e-6, 1.0 - 1e-6);
    let base = (prior / (1.0 - prior)).ln() as f32;
    let mut margin = vec![base; n];
    let (mut g, mut h) = (vec![0f64; n], vec![0f64; n]);
    let mut trees = Vec::with_capacity(cfg.trees);
    for t in 0..cfg.trees {
        for i in 0..n {
            let p = sigmoid(margin[i]) as f64;
            let w = data.w[i] as f64;
            g[i] = w * (p - f64::from(u8::from(data.y[i])));
            h[i] = w * (p * (1.0 - p)).max(1e-6);
        }
        let mut tree = Vec::new();
        // The tree's rows and features: fixed draws from its index, so training is repeatable.
        let mut draw = SplitMix(t as u64);
        let rows: Vec<u32> = (0..n as u32)
            .filter(|_| cfg.subsample >= 1.0 || draw.unit() < cfg.subsample)
            .collect();
        let allowed: Vec<bool> = (0..nf)
            .map(|_| cfg.colsample >= 1.0 || draw.unit() < cfg.colsample)
            .collect();
        let mut grower = Grower {
            binned: &binned,
            nf,
            allowed: &allowed,
            edges: &edges,
            g: &g,
            h: &h,
            cfg,
            tree: &mut tree,
            stride: bins,
        };
        if cfg.oblivious {
            grower.grow_oblivious(rows);
        } else {
            grower.grow(rows, 0, None);
        }
        for (i, m) in margin.iter_mut().enumerate() {
            *m += leaf_of(&tree, &binned[i * nf..(i + 1) * nf]);
        }
        trees.push(tree);
    }
    // Thresholds in the stored model are values: go left when x <= edge.
    let trees = trees
        .into_iter()
        .map(|t| {
            t.into_iter()
                .map(|node| match node {
                    BinNode::Leaf(v) => Node::Leaf(v),
                    BinNode::Split {
                        feature,
                        bin,
                        left,
                        right,
                    } => Node::Split {
                        feature: feature as u16,
                        threshold: edges[feature][bin as usize],
                        left,
                        right,
                    },
                })
                .collect()
        })
        .collect();
    Gbt::new(nf, base, trees)
}

/// SplitMix64 (Steele et al. 2014): the draws of rows and features, seeded per tree.
struct SplitMix(u64);

impl SplitMix {
    /// A uniform draw from [0, 1).
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A node during training: splits on bin indices (left when bin <= `bin`).
enum BinNode {
    Split {
        feature: usize,
        bin: u8,
        left: u32,
        right: u32,
    },
    Leaf(f32),
}

fn leaf_of(tree: &[BinNode], bins: &[u8]) -> f32 {
    let mut i = 0;
    loop {
        match tree[i] {
            BinNode::Leaf(v) => return v,
            BinNode::Split {
                feature,
                bin,
                left,
                right,
            } => i = if bins[feature] <= bin { left } else { right } as usize,
        }
    }
}

/// Sums of gradients and hessians per feature and bin.
type Histogram = Vec<(f64, f64)>;

/// The rows of a split's left and right child, with their histograms when wanted.
type Children = ((Vec<u32>, Option<Histogram>), (Vec<u32>, Option<Histogram>));

/// Append the complete tree below `level` whose levels split on `splits` and whose leaves, in
/// order from the left, are `leaves`; `index` is the node's position within its level.
/// Returns the node's index.
fn complete_tree(
    tree: &mut Vec<BinNode>,
    splits: &[(usize, u8)],
    leaves: &[f32],
    level: usize,
    index: usize,
) -> u32 {
    let at = tree.len() as u32;
    tree.push(BinNode::Leaf(leaves[index]));
    if let Some(&(feature, bin)) = splits.get(level) {
        let left = complete_tree(tree, splits, leaves, level + 1, 2 * index);
        let right = complete_tree(tree, splits, leaves, level + 1, 2 * index + 1);
        tree[at as usize] = BinNode::Split {
            feature,
            bin,
            left,
            right,
        };
    }
    at
}

struct Grower<'a> {
    binned: &'a [u8],
    nf: usize,
    /// The features this tree may split on.
    allowed: &'a [bool],
    edges: &'a [Vec<f32>],
    g: &'a [f64],
    h: &'a [f64],
    cfg: TrainConfig,
    tree: &'a mut Vec<BinNode>,
    /// Histogram cells per feature (the number of bins).
    stride: usize,
}

impl Grower<'_> {
    fn histogram(&self, rows: &[u32]) -> Histogram {
        let mut hist = vec![(0f64, 0f64); self.nf * self.stride];
        for &r in rows {
            let r = r as usize;
            let (g, h) = (self.g[r], self.h[r]);
            let bins = &self.binned[r * self.nf..(r + 1) * self.nf];
            for (f, &b) in bins.iter().enumerate() {
                let cell = &mut hist[f * self.stride + b as usize];
                cell.0 += g;
                cell.1 += h;
            }
        }
        hist
    }

    /// Grow the subtree over `rows` (the histogram of the rows, when the caller has it) and
    /// return its node index.
    fn grow(&mut self, rows: Vec<u32>, depth: usize, hist: Option<Histogram>) -> u32 {
        let (gs, hs) = rows.iter().fold((0f64, 0f64), |(a, b), &r| {
            (a + self.g[r as usize], b + self.h[r as usize])
        });
        let lambda = self.cfg.lambda;
        let leaf = (-gs / (hs + lambda)) as f32 * self.cfg.learning_rate;
        let at = self.tree.len() as u32;
        self.tree.push(BinNode::Leaf(leaf));
        if depth >= self.cfg.depth || hs < 2.0 * self.cfg.min_leaf {
            return at;
        }
        let hist = hist.unwrap_or_else(|| self.histogram(&rows));
        let score = |g: f64, h: f64| g * g / (h + lambda);
        let parent = score(gs, hs);
        let mut best: Option<(f64, usize, u8)> = None;
        for f in (0..self.nf).filter(|&f| self.allowed[f]) {
            let (mut gl, mut hl) = (0f64, 0f64);
            for b in 0..self.edges[f].len() {
                let (g, h) = hist[f * self.stride + b];
                gl += g;
                hl += h;
                let (gr, hr) = (gs - gl, hs - hl);
                if hl < self.cfg.min_leaf || hr < self.cfg.min_leaf {
                    continue;
                }
                let gain = score(gl, hl) + score(gr, hr) - parent;
                if gain > 1e-9 && best.is_none_or(|(bg, _, _)| gain > bg) {
                    best = Some((gain, f, b as u8));
                }
            }
        }
        let Some((_, feature, bin)) = best else {
            return at;
        };
        let ((left, hl), (right, hr)) = self.split(&rows, Some(hist), feature, bin);
        let l = self.grow(left, depth + 1, hl);
        let r = self.grow(right, depth + 1, hr);
        self.tree[at as usize] = BinNode::Split {
            feature,
            bin,
            left: l,
            right: r,
        };
        at
    }

    /// The rows going left and right at `bin` of `feature`, with their histograms when the
    /// rows' `hist` is given: the smaller child's is built, the larger one's derived from it.
    fn split(&self, rows: &[u32], hist: Option<Histogram>, feature: usize, bin: u8) -> Children {
        let (left, right): (Vec<u32>, Vec<u32>) = rows
            .iter()
            .partition(|&&r| self.binned[r as usize * self.nf + feature] <= bin);
        let Some(hist) = hist else {
            return ((left, None), (right, None));
        };
        let small_left = left.len() <= right.len();
        let small = self.histogram(if small_left { &left } else { &right });
        let large: Histogram = hist
            .iter()
            .zip(&small)
            .map(|(p, s)| (p.0 - s.0, p.1 - s.1))
            .collect();
        let (hl, hr) = if small_left {
            (small, large)
        } else {
            (large, small)
        };
        ((left, Some(hl)), (right, Some(hr)))
    }

    /// Grow an oblivious tree over `rows` (see [`TrainConfig::oblivious`]): level by level,
    /// the feature and bin of largest gain summed over the level's nodes (a node gains nothing
    /// where a side would weigh less than the minimum leaf weight); growth stops at the depth
    /// or when no split gains. The nodes are a complete tree, each level on one condition.
    fn grow_oblivious(&mut self, rows: Vec<u32>) {
        let lambda = self.cfg.lambda;
        let min_leaf = self.cfg.min_leaf;
        let score = |g: f64, h: f64| g * g / (h + lambda);
        let sums = |rows: &[u32]| {
            rows.iter().fold((0f64, 0f64), |(a, b), &r| {
                (a + self.g[r as usize], b + self.h[r as usize])
            })
        };
        let hist = self.histogram(&rows);
        let mut level: Vec<(Vec<u32>, Option<Histogram>)> = vec![(rows, Some(hist))];
        let mut splits: Vec<(usize, u8)> = Vec::new();
        while splits.len() < self.cfg.depth {
            let totals: Vec<(f64, f64)> = level.iter().map(|(r, _)| sums(r)).collect();
            let mut best: Option<(f64, usize, u8)> = None;
            for f in (0..self.nf).filter(|&f| self.allowed[f]) {
                let mut gain = vec![0f64; self.edges[f].len()];
                for ((_, hist), &(gs, hs)) in level.iter().zip(&totals) {
                    let Some(hist) = hist else { continue };
                    if hs < 2.0 * min_leaf {
                        continue;
                    }
                    let parent = score(gs, hs);
                    let (mut gl, mut hl) = (0f64, 0f64);
                    for (b, gain) in gain.iter_mut().enumerate() {
                        let (g, h) = hist[f * self.stride + b];
                        gl += g;
                        hl += h;
                        let (gr, hr) = (gs - gl, hs - hl);
                        if hl >= min_leaf && hr >= min_leaf {
                            *gain += score(gl, hl) + score(gr, hr) - parent;
                        }
                    }
                }
                for (b, &g) in gain.iter().enumerate() {
                    if g > 1e-9 && best.is_none_or(|(bg, _, _)| g > bg) {
                        best = Some((g, f, b as u8));
                    }
                }
            }
            let Some((_, feature, bin)) = best else {
                break;
            };
            splits.push((feature, bin));
            // The last level's nodes need no histograms.
            let last = splits.len() == self.cfg.depth;
            let mut next = Vec::with_capacity(2 * level.len());
            for (rows, hist) in level {
                let (l, r) = self.split(&rows, hist.filter(|_| !last), feature, bin);
                next.extend([l, r]);
            }
            level = next;
        }
        let leaves: Vec<f32> = level
            .iter()
            .map(|(rows, _)| {
                let (gs, hs) = sums(rows);
                (-gs / (hs + lambda)) as f32 * self.cfg.learning_rate
            })
            .collect();
        complete_tree(self.tree, &splits, &leaves, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points in [0,1)² from a fixed sequence; positive inside a circle plus a noisy feature.
    fn circle(n: usize) -> Data {
        let mut d = Data::new(3);
        let mut s = 12345u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 24) as f32
        };
        for _ in 0..n {
            let (a, b, noise) = (next(), next(), next());
            let y = (a - 0.5).powi(2) + (b - 0.5).powi(2) < 0.1;
            d.push(&[a, b, noise], y, 1.0);
        }
        d
    }

    /// How many of rows 4000..6000 of `circle(6000)` (rows the training set of 4000 lacks)
    /// the model classifies right.
    fn unseen_correct(m: &Gbt, test_set: &Data) -> usize {
        (4000..6000)
            .filter(|&i| (m.predict(test_set.row(i)) > 0.5) == test_set.y[i])
            .count()
    }

    #[test]
    fn learns_a_nonlinear_boundary_and_round_trips() {
        let train_set = circle(4000);
        let test_set = circle(6000);
        let cfg = TrainConfig {
            trees: 60,
            depth: 4,
            oblivious: false,
            ..TrainConfig::default()
        };
        let m = train(&train_set, cfg);
        // The test rows continue the sequence: rows 4000.. are unseen.
        let correct = unseen_correct(&m, &test_set);
        assert!(correct > 1900, "accuracy {correct}/2000");
        let again = Gbt::parse(&m.to_text()).unwrap();
        assert_eq!(again, m);
        let bytes = m.to_bytes();
        assert_eq!(Gbt::from_bytes(&bytes).unwrap(), m);
        for cut in [0, 5, bytes.len() / 2, bytes.len() - 1] {
            assert!(Gbt::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        assert!(Gbt::from_bytes(&[bytes.as_slice(), &[0]].concat()).is_err());
        assert_eq!(train(&train_set, cfg).to_text(), m.to_text());
    }

    #[test]
    fn subsampled_trees_still_learn_and_repeat() {
        let train_set = circle(4000);
        let test_set = circle(6000);
        let cfg = TrainConfig {
            trees: 60,
            depth: 4,
            subsample: 0.5,
            colsample: 0.5,
            oblivious: false,
            ..TrainConfig::default()
        };
        let m = train(&train_set, cfg);
        let correct = unseen_correct(&m, &test_set);
        assert!(correct > 1880, "accuracy {correct}/2000");
        assert_eq!(train(&train_set, cfg).to_text(), m.to_text());
        // The draws change the trees, and each tree sees only some of the features.
        let full = train(
            &train_set,
            TrainConfig {
                subsample: 1.0,
                colsample: 1.0,
                ..cfg
            },
        );
        assert_ne!(full.to_text(), m.to_text());
        let lacks_one = m.to_text().lines().skip(1).any(|tree| {
            let tree = format!(" {tree}");
            !(tree.contains(" 0:") && tree.contains(" 1:"))
        });
        assert!(lacks_one, "some tree may not split on feature 0 or 1");
    }

    #[test]
    fn oblivious_trees_learn_and_score_by_their_levels() {
        let train_set = circle(4000);
        let test_set = circle(6000);
        let cfg = TrainConfig {
            trees: 60,
            depth: 4,
            oblivious: true,
            ..TrainConfig::default()
        };
        let m = train(&train_set, cfg);
        let correct = unseen_correct(&m, &test_set);
        assert!(correct > 1880, "accuracy {correct}/2000");
        assert_eq!(train(&train_set, cfg).to_text(), m.to_text());
        // Every level of every tree splits on one condition, so the level layout scores it.
        for tree in m.trees() {
            let mut level = vec![0usize; tree.len()];
            let mut conditions: Vec<Option<(u16, f32)>> = vec![None; cfg.depth];
            for (i, node) in tree.iter().enumerate() {
                if let Node::Split {
                    feature,
                    threshold,
                    left,
                    right,
                } = *node
                {
                    let c = conditions[level[i]].get_or_insert((feature, threshold));
                    assert_eq!(*c, (feature, threshold), "level {}", level[i]);
                    level[left as usize] = level[i] + 1;
                    level[right as usize] = level[i] + 1;
                }
            }
        }
        assert!(m.flat.as_ref().is_some_and(|f| f.levels.is_some()));
        let mut rows = test_set.x[4000 * 3..4300 * 3].to_vec();
        rows[4] = f32::NAN;
        rows[9] = f32::INFINITY;
        for (p, row) in m.predict_rows(&rows).iter().zip(rows.chunks_exact(3)) {
            assert_eq!(p.to_bits(), m.predict(row).to_bits());
        }
        // The portable body too, whichever `add_by_levels` dispatched to.
        let flat = m.flat.as_ref().unwrap();
        let mut z = vec![m.base; 300];
        flat.levels_kernel(flat.levels.as_ref().unwrap(), &rows, 3, &mut z);
        for (z, row) in z.iter().zip(rows.chunks_exact(3)) {
            assert_eq!(sigmoid(*z).to_bits(), m.predict(row).to_bits());
        }
        // Trees that are not oblivious are not scored by levels.
        let plain = train(
            &train_set,
            TrainConfig {
                oblivious: false,
                ..cfg
            },
        );
        assert!(plain.flat.as_ref().is_some_and(|f| f.levels.is_none()));
    }

    #[test]
    fn batch_scoring_equals_the_node_walk() {
        let data = circle(3000);
        let m = train(
            &data,
            TrainConfig {
                trees: 30,
                depth: 5,
                oblivious: false,
                ..TrainConfig::default()
            },
        );
        assert!(m.flat.as_ref().is_some_and(|f| f.levels.is_none()));
        let mut rows = data.x[..300 * 3].to_vec();
        rows[4] = f32::NAN;
        rows[9] = f32::INFINITY;
        let batch = m.predict_rows(&rows);
        for (p, row) in batch.iter().zip(rows.chunks_exact(3)) {
            assert_eq!(p.to_bits(), m.predict(row).to_bits());
        }
        // A chain deeper than the flat layout allows is scored by walking it.
        let deep: Vec<String> = (0..=MAX_FLAT_DEPTH)
            .map(|k| format!("0:{}.0:{}:{}", k, 2 * k + 1, 2 * k + 2) + &format!(" ={k}.0"))
            .collect();
        let deep = Gbt::parse(&format!("cowrex-gbt 1 1 1 0.0\n{} =9.0\n", deep.join(" ")));
        let deep = deep.unwrap();
        assert!(deep.flat.is_none());
        let rows = [0.5f32, 3.5, 100.0];
        let want: Vec<f32> = rows.iter().map(|x| deep.predict(&[*x])).collect();
        assert_eq!(deep.predict_rows(&rows), want);
        assert_eq!(
            want[1],
            sigmoid(4.0),
            "3.5 > 3.0 goes on to the split at 4.0"
        );
    }

    #[test]
    fn tempering_divides_the_margin() {
        let data = circle(2000);
        let m = train(
            &data,
            TrainConfig {
                trees: 20,
                depth: 4,
                ..TrainConfig::default()
            },
        );
        let t = m.tempered(2.5);
        let rows = &data.x[..200 * 3];
        for (p, q) in m.predict_rows(rows).iter().zip(t.predict_rows(rows)) {
            let z = (p / (1.0 - p)).ln();
            assert!((sigmoid(z / 2.5) - q).abs() < 1e-4, "{p} at 2.5: {q}");
            // Less extreme, same side of 0.5.
            assert!((q - 0.5).abs() <= (p - 0.5).abs() + 1e-6);
            assert_eq!(q > 0.5, *p > 0.5);
        }
        assert_eq!(m.tempered(1.0), m);
        assert_eq!(Gbt::parse(&t.to_text()).unwrap(), t);
    }

    #[test]
    fn weights_move_the_decision() {
        // Identical rows, 3 negatives and 1 positive: weight decides.
        let mut d = Data::new(1);
        for (y, w) in [(false, 1.0), (false, 1.0), (false, 1.0), (true, 10.0)] {
            d.push(&[0.5], y, w);
        }
        let m = train(&d, TrainConfig::default());
        assert!(m.predict(&[0.5]) > 0.5);
    }

    #[test]
    fn contributions_follow_the_splits_a_row_takes() {
        // Tree 1: x1 <= 0.5 ? (x0 <= 2 ? -1 : 3) : 5; tree 2: a leaf, 0.25.
        let m = Gbt::parse("cowrex-gbt 1 2 2 0.5\n1:0.5:1:4 0:2.0:2:3 =-1.0 =3.0 =5.0\n=0.25\n")
            .unwrap();
        // Means: the inner split (−1 + 3) / 2 = 1, the root (1 + 5) / 2 = 3.
        assert_eq!(m.expected_margin(), 0.5 + 3.0 + 0.25);
        let c = m.contributions(&[0.0, 0.0, 9.0, 0.0, 9.0, 9.0]);
        // Row 1: root → inner (1 − 3 on x1), inner → −1 (−1 − 1 on x0).
        assert_eq!(c[..2], [-2.0, -2.0]);
        // Row 2: inner → 3 (+2 on x0); row 3: root → 5 (+2 on x1), x0 never asked.
        assert_eq!(c[2..], [2.0, -2.0, 0.0, 2.0]);
        for (row, c) in [[0.0, 0.0], [9.0, 0.0], [9.0, 9.0]].iter().zip(c.chunks(2)) {
            assert_eq!(m.expected_margin() + c[0] + c[1], m.margin(row));
        }
    }

    #[test]
    fn rejects_malformed_models() {
        assert!(Gbt::parse("cowrex-gbt 1 2 1 0.0\n0:0.5:1:2 =1.0\n").is_err());
        assert!(Gbt::parse("cowrex-gbt 1 2 1 0.0\n5:0.5:1:2 =1.0 =2.0\n").is_err());
        assert!(Gbt::parse("cowrex-gbt 1 2 2 0.0\n=1.0\n").is_err());
        assert!(Gbt::parse("cowrex-mlp 1\n").is_err());
        // A split that points back to itself, in the binary layout.
        let looping = Gbt::parse("cowrex-gbt 1 2 1 0.0\n1:0.5:1:2 =-1.0 =2.0\n").unwrap();
        let mut bytes = looping.to_bytes();
        // features, base, tree count, flat layout (depth 1: one split, two leaves, levels),
        // node count, the split's tag, feature and threshold
        let left = 4 + 4 + 4 + (1 + 4 + 2 + 4 + 8 + 1 + 2 + 4) + 4 + 1 + 2 + 4;
        bytes[left..left + 4].copy_from_slice(&0u32.to_le_bytes());
        assert!(Gbt::from_bytes(&bytes).is_err());
        let m = Gbt::parse("cowrex-gbt 1 2 1 0.0\n1:0.5:1:2 =-1.0 =2.0\n").unwrap();
        assert!(m.predict(&[9.0, 0.4]) < 0.5 && m.predict(&[0.0, 0.6]) > 0.5);
    }
}

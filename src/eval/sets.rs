//! The development sets as a whole: the sets of a pages directory with their pages, their
//! analyses, their blocks' labels and another tool's texts of them (for `cowrex eval` and
//! `cowrex train`).

use std::collections::HashMap;
use std::path::Path;

use super::{
    GoldPage, analyze_pages, jsonl_lines, list_sets, load_block_labels, load_set, page_block_labels,
};
use crate::classify::Models;
use crate::document::{Config, Document};
use crate::error::Error;

/// Pages with the index of their set.
pub type SetPages = Vec<(usize, GoldPage)>;

/// The set (by its index) each page comes from.
pub fn page_sources(pages: &SetPages) -> Vec<usize> {
    pages.iter().map(|(set, _)| *set).collect()
}

/// The selected sets of a pages directory (all with `only` empty) and their pages, and a
/// warning for each set with pages that have no HTML file.
pub fn load_sets(
    dir: &Path,
    only: &[String],
) -> Result<(Vec<String>, SetPages, Vec<String>), Error> {
    let all = list_sets(dir).map_err(|e| {
        Error::Input(format!(
            "{}: no ground-truth/ directory: {e}",
            dir.display()
        ))
    })?;
    for s in only {
        if !all.contains(s) {
            return Err(Error::Usage(format!(
                "no set {s:?} in {} (sets: {})",
                dir.display(),
                all.join(", ")
            )));
        }
    }
    let sets: Vec<String> = all
        .into_iter()
        .filter(|s| only.is_empty() || only.contains(s))
        .collect();
    if sets.is_empty() {
        return Err(Error::Input(format!(
            "{}: no sets (ground-truth/*.jsonl)",
            dir.display()
        )));
    }
    let mut pages = Vec::new();
    let mut warnings = Vec::new();
    for (i, set) in sets.iter().enumerate() {
        let (p, missing) = load_set(dir, set)?;
        if !missing.is_empty() {
            warnings.push(format!(
                "{set}: {} pages have no HTML file (first: {})",
                missing.len(),
                missing[0]
            ));
        }
        pages.extend(p.into_iter().map(|p| (i, p)));
    }
    Ok((sets, pages, warnings))
}

/// Analyse pages for training and evaluation (no n-gram scores needed there: they are added
/// per fold or read from the built-in models).
pub fn analyze_sets(
    pages: &[(usize, GoldPage)],
    models: &Models,
    cfg: &Config,
    threads: usize,
) -> Result<Vec<Option<Document>>, Error> {
    let list: Vec<&GoldPage> = pages.iter().map(|(_, p)| p).collect();
    analyze_pages(&list, models, cfg, threads)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
}

/// Block labels of the analysed pages for the combined model: from the annotated copies under
/// `blocks` where there are, from the gold texts otherwise; shares of content with `soft`
/// ([`page_block_labels`]).
pub fn block_labels(
    blocks: Option<&Path>,
    sets: &[String],
    pages: &SetPages,
    docs: &[Option<Document>],
    soft: bool,
) -> Result<Vec<Vec<Option<f32>>>, Error> {
    let mut annotated = HashMap::new();
    if let Some(dir) = blocks {
        for set in sets {
            annotated.extend(load_block_labels(dir, set)?);
        }
    }
    let list: Vec<&GoldPage> = pages.iter().map(|(_, p)| p).collect();
    page_block_labels(&annotated, &list, docs, soft)
}

/// The texts another tool extracted from the pages (`eval --texts`), in page order.
pub fn read_texts(file: &Path, pages: &SetPages) -> Result<Vec<String>, Error> {
    let bytes = std::fs::read(file).map_err(|e| Error::input(file.display(), e))?;
    let content = String::from_utf8_lossy(&bytes);
    let mut by_id: HashMap<String, String> = HashMap::new();
    for line in jsonl_lines(file, &content) {
        let (n, v) = line?;
        let (Some(id), Some(text)) = (v["page_id"].as_str(), v["text"].as_str()) else {
            return Err(Error::Input(format!(
                "{}:{n}: needs page_id and text",
                file.display()
            )));
        };
        by_id.insert(id.to_owned(), text.to_owned());
    }
    Ok(pages
        .iter()
        .map(|(_, p)| by_id.remove(&p.id).unwrap_or_default())
        .collect())
}

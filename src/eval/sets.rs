//! The development sets as a whole: the sets of a pages directory with their pages, their
//! analyses, their blocks' labels and another tool's texts of them (for `cowrex eval` and
//! `cowrex train`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{
    GoldPage, analyze_pages, jsonl_lines, list_sets, load_block_labels, load_set, page_block_labels,
};
use crate::analyze::Config;
use crate::classify::Models;
use crate::document::Document;
use crate::error::{Error, ErrorKind};

/// Pages with the index of their set.
pub type SetPages = Vec<(usize, GoldPage)>;

/// Whether each page's block labels are partial: pages with snippet gold only label just the
/// blocks their snippets touch ([`crate::train::train_combined`]).
pub fn partial_labels(pages: &SetPages) -> Vec<bool> {
    pages.iter().map(|(_, p)| p.gold.is_none()).collect()
}

/// The set (by its index) each page comes from.
pub fn page_sources(pages: &SetPages) -> Vec<usize> {
    pages.iter().map(|(set, _)| *set).collect()
}

/// The selected sets of one or more pages directories (all with `only` empty) and their pages,
/// and a warning for each set with pages that have no HTML file. Sets are numbered in the
/// order of the directories, then of their names; a set name may occur in one directory only.
pub fn load_sets(
    dirs: &[PathBuf],
    only: &[String],
) -> Result<(Vec<String>, SetPages, Vec<String>), Error> {
    let mut all: Vec<(String, &Path)> = Vec::new();
    for dir in dirs {
        let names = list_sets(dir).map_err(|e| {
            Error::new(
                ErrorKind::Input,
                format!("{}: no ground-truth/ directory: {e}", dir.display()),
            )
            .caused_by(e)
        })?;
        for name in names {
            if let Some((_, other)) = all.iter().find(|(n, _)| *n == name) {
                return Err(Error::usage(format!(
                    "set {name:?} is in both {} and {}",
                    other.display(),
                    dir.display()
                )));
            }
            all.push((name, dir));
        }
    }
    let where_ = || {
        dirs.iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for s in only {
        if !all.iter().any(|(n, _)| n == s) {
            return Err(Error::usage(format!(
                "no set {s:?} in {} (sets: {})",
                where_(),
                all.iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    all.retain(|(n, _)| only.is_empty() || only.contains(n));
    if all.is_empty() {
        return Err(Error::new(
            ErrorKind::Input,
            format!("{}: no sets (ground-truth/*.jsonl)", where_()),
        ));
    }
    let mut pages = Vec::new();
    let mut warnings = Vec::new();
    for (i, (set, dir)) in all.iter().enumerate() {
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
    let sets = all.into_iter().map(|(n, _)| n).collect();
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

/// Comment labels of the analysed pages for the comment detector
/// ([`super::page_comment_labels`]), with the annotated copies under `blocks` (as
/// ../shared/data/blocks) of the `sets`.
pub fn comment_labels(
    blocks: Option<&Path>,
    sets: &[String],
    pages: &SetPages,
    docs: &[Option<Document>],
) -> Result<Vec<Option<Vec<bool>>>, Error> {
    let mut annotated = HashMap::new();
    if let Some(dir) = blocks {
        for set in sets {
            annotated.extend(load_block_labels(dir, set)?);
        }
    }
    let list: Vec<&GoldPage> = pages.iter().map(|(_, p)| p).collect();
    super::page_comment_labels(&annotated, &list, docs, &page_sources(pages))
}

/// The texts another tool extracted from the pages (`eval --texts`), in page order; pages of
/// the same id (a set may hold a page twice) get the same text.
pub fn read_texts(file: &Path, pages: &SetPages) -> Result<Vec<String>, Error> {
    let bytes = std::fs::read(file).map_err(|e| Error::input(file.display(), e))?;
    let content = String::from_utf8_lossy(&bytes);
    let mut by_id: HashMap<String, String> = HashMap::new();
    for line in jsonl_lines(file, &content) {
        let (n, v) = line?;
        let (Some(id), Some(text)) = (v["page_id"].as_str(), v["text"].as_str()) else {
            return Err(Error::new(
                ErrorKind::Input,
                format!("{}:{n}: needs page_id and text", file.display()),
            ));
        };
        by_id.insert(id.to_owned(), text.to_owned());
    }
    Ok(pages
        .iter()
        .map(|(_, p)| by_id.get(&p.id).cloned().unwrap_or_default())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_twice_gets_its_text_twice() {
        let page = |id: &str| GoldPage {
            id: id.to_owned(),
            url: String::new(),
            gold: Some("gold".to_owned()),
            comments: None,
            path: PathBuf::new(),
            kind: None,
            with: Vec::new(),
            without: Vec::new(),
        };
        let pages: SetPages = vec![(0, page("a")), (0, page("b")), (1, page("a"))];
        let file = std::env::temp_dir().join(format!("cowrex-texts-{}.jsonl", std::process::id()));
        std::fs::write(&file, "{\"page_id\": \"a\", \"text\": \"Text of a.\"}\n").unwrap();
        let texts = read_texts(&file, &pages);
        std::fs::remove_file(&file).unwrap();
        assert_eq!(texts.unwrap(), ["Text of a.", "", "Text of a."]);
    }
}

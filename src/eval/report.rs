//! An evaluation's figures, for `cowrex eval` to print and write as JSON (`--json`): per set,
//! per kind of page and per language of the pages with snippet gold, the macro means, and
//! each page's.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::sets::SetPages;
use super::{Overlap, SetFigures, Snippets};

/// The figures of one text per page of some sets.
#[derive(Debug, Clone)]
pub struct Report {
    /// What extracted the texts.
    pub scorer: String,
    /// Each set's figures, in the sets' order.
    pub sets: Vec<SetReport>,
    /// Mean precision, recall and F1 over the sets with gold text (zero without any).
    pub macro_figures: (f64, f64, f64),
    /// The number of sets with gold text.
    pub gold_sets: usize,
    /// Each page's figures, in the pages' order.
    pub pages: Vec<PageReport>,
}

/// One set's figures.
#[derive(Debug, Clone)]
pub struct SetReport {
    /// The set's name.
    pub name: String,
    /// Its pages.
    pub pages: usize,
    /// The bag-of-words figures of its pages with gold text (`None`: snippet gold only).
    pub figures: Option<SetFigures>,
    /// The figures of each kind of page, by kind.
    pub kinds: BTreeMap<String, SetFigures>,
    /// The snippets of its pages, with the number of pages that have any (`None`: no
    /// snippets).
    pub snippets: Option<(usize, Snippets)>,
    /// Of its pages with snippet gold only, by language: their number and snippets.
    pub by_language: BTreeMap<String, (usize, Snippets)>,
}

/// One page's figures.
#[derive(Debug, Clone)]
pub struct PageReport {
    /// Its set, an index into [`Report::sets`].
    pub set: usize,
    /// Its id.
    pub page_id: String,
    /// Its bag-of-words overlap with the gold text (`None`: snippet gold only).
    pub(crate) overlap: Option<Overlap>,
    /// Its kind, for a page with gold text whose set says.
    pub kind: Option<String>,
    /// Its language, for a page with snippet gold only.
    pub language: Option<String>,
    /// Its snippets found and checked.
    pub snippets: Snippets,
}

impl Report {
    /// The figures of `texts[i]`, the text extracted from `pages[i]` (of set `sets[pages[i].0]`);
    /// `languages[i]` is the language of page `i` when it has snippet gold only.
    pub fn of(
        scorer: String,
        sets: &[String],
        pages: &SetPages,
        texts: &[String],
        languages: &[&str],
    ) -> Report {
        let mut per_set: Vec<Vec<Overlap>> = vec![Vec::new(); sets.len()];
        let mut per_kind: Vec<BTreeMap<String, Vec<Overlap>>> = vec![BTreeMap::new(); sets.len()];
        let mut snippets = vec![(0, Snippets::default()); sets.len()];
        let mut by_language: Vec<BTreeMap<String, (usize, Snippets)>> =
            vec![BTreeMap::new(); sets.len()];
        let mut page_reports = Vec::with_capacity(pages.len());
        for (i, ((set, p), text)) in pages.iter().zip(texts).enumerate() {
            let sn = Snippets::of(text, p);
            let overlap = p.gold.as_ref().map(|gold| Overlap::of(text, gold));
            let mut kind = None;
            let mut language = None;
            match overlap {
                Some(o) => {
                    if let Some(k) = &p.kind {
                        per_kind[*set].entry(k.clone()).or_default().push(o);
                        kind = Some(k.clone());
                    }
                    per_set[*set].push(o);
                }
                None => {
                    let entry = by_language[*set]
                        .entry(languages[i].to_owned())
                        .or_default();
                    entry.0 += 1;
                    entry.1.add(&sn);
                    language = Some(languages[i].to_owned());
                }
            }
            if p.with.len() + p.without.len() > 0 {
                snippets[*set].0 += 1;
            }
            snippets[*set].1.add(&sn);
            page_reports.push(PageReport {
                set: *set,
                page_id: p.id.clone(),
                overlap,
                kind,
                language,
                snippets: sn,
            });
        }
        let gold_sets = per_set.iter().filter(|o| !o.is_empty()).count();
        let mut macro_figures = (0f64, 0f64, 0f64);
        let mut set_reports = Vec::with_capacity(sets.len());
        for (i, name) in sets.iter().enumerate() {
            let figures = (!per_set[i].is_empty()).then(|| SetFigures::of(&per_set[i]));
            if let Some(f) = &figures {
                macro_figures.0 += f.precision / gold_sets as f64;
                macro_figures.1 += f.recall / gold_sets as f64;
                macro_figures.2 += f.f1 / gold_sets as f64;
            }
            let (with_snippets, sn) = snippets[i];
            set_reports.push(SetReport {
                name: name.clone(),
                pages: pages.iter().filter(|(s, _)| *s == i).count(),
                figures,
                kinds: per_kind[i]
                    .iter()
                    .map(|(k, o)| (k.clone(), SetFigures::of(o)))
                    .collect(),
                snippets: (sn.with + sn.without > 0).then_some((with_snippets, sn)),
                by_language: std::mem::take(&mut by_language[i]),
            });
        }
        Report {
            scorer,
            sets: set_reports,
            macro_figures,
            gold_sets,
            pages: page_reports,
        }
    }

    /// As `eval --json` writes it: `scorer`, `sets` (by name), `macro`, `pages`.
    pub fn to_json(&self) -> Value {
        let sets: serde_json::Map<String, Value> = self
            .sets
            .iter()
            .map(|s| (s.name.clone(), s.to_json()))
            .collect();
        let (p, r, f) = self.macro_figures;
        let pages: Vec<Value> = self.pages.iter().map(|pr| pr.to_json(self)).collect();
        json!({
            "scorer": self.scorer, "sets": sets,
            "macro": {"precision": p, "recall": r, "f1": f, "sets": self.gold_sets},
            "pages": pages,
        })
    }
}

impl SetReport {
    fn to_json(&self) -> Value {
        let mut v = self
            .figures
            .as_ref()
            .map_or_else(|| json!({}), figures_json);
        if !self.kinds.is_empty() {
            let kinds: serde_json::Map<String, Value> = self
                .kinds
                .iter()
                .map(|(k, f)| (k.clone(), figures_json(f)))
                .collect();
            v["kinds"] = kinds.into();
        }
        if let Some((pages, sn)) = &self.snippets {
            v["snippets"] = snippets_json(*pages, sn);
            if !self.by_language.is_empty() {
                let langs: serde_json::Map<String, Value> = self
                    .by_language
                    .iter()
                    .map(|(l, (n, sn))| (l.clone(), snippets_json(*n, sn)))
                    .collect();
                v["snippets"]["by_language"] = langs.into();
            }
        }
        v
    }
}

impl PageReport {
    fn to_json(&self, report: &Report) -> Value {
        let mut page = json!({"set": report.sets[self.set].name, "page_id": self.page_id});
        if let Some(o) = &self.overlap {
            page["precision"] = o.precision().into();
            page["recall"] = o.recall().into();
            page["f1"] = o.f1().into();
        }
        if let Some(kind) = &self.kind {
            page["kind"] = kind.as_str().into();
        }
        if let Some(lang) = &self.language {
            page["language"] = lang.as_str().into();
        }
        let sn = &self.snippets;
        if sn.with + sn.without > 0 {
            page["snippets"] = json!({
                "with": sn.with, "with_found": sn.with_found,
                "without": sn.without, "without_found": sn.without_found,
            });
        }
        page
    }
}

fn figures_json(f: &SetFigures) -> Value {
    json!({
        "pages": f.pages, "precision": f.precision, "recall": f.recall, "f1": f.f1,
        "micro_precision": f.pooled.precision(), "micro_recall": f.pooled.recall(),
        "micro_f1": f.pooled.f1(),
    })
}

fn snippets_json(pages: usize, sn: &Snippets) -> Value {
    json!({
        "pages": pages, "with": sn.with, "with_found": sn.with_found,
        "with_share": sn.with_share(), "without": sn.without,
        "without_found": sn.without_found, "without_share": sn.without_share(),
        "precision": sn.precision(), "recall": sn.recall(), "f1": sn.f1(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::GoldPage;

    fn page(id: &str, gold: Option<&str>, kind: Option<&str>, with: &[&str]) -> GoldPage {
        GoldPage {
            comments: None,
            id: id.into(),
            url: String::new(),
            gold: gold.map(str::to_owned),
            path: Default::default(),
            kind: kind.map(str::to_owned),
            with: with.iter().map(|s| s.to_string()).collect(),
            without: Vec::new(),
        }
    }

    #[test]
    fn figures_per_set_kind_and_language() {
        let sets = vec!["gold".to_string(), "snippets".to_string()];
        let pages: SetPages = vec![
            (0, page("a", Some("one two"), Some("forum"), &[])),
            (0, page("b", Some("three four"), Some("article"), &[])),
            (1, page("c", None, None, &["found here"])),
            (1, page("d", None, None, &["missing"])),
        ];
        let texts = ["one two", "three", "it was found here", "nothing"].map(String::from);
        let report = Report::of("x".into(), &sets, &pages, &texts, &["", "", "deu", "eng"]);
        assert_eq!(report.gold_sets, 1);
        let gold = report.sets[0].figures.as_ref().unwrap();
        assert_eq!((gold.pages, gold.precision, gold.recall), (2, 1.0, 0.75));
        assert_eq!(report.macro_figures, (1.0, 0.75, gold.f1));
        assert_eq!(
            report.sets[0].kinds.keys().collect::<Vec<_>>(),
            ["article", "forum"]
        );
        let snippets = &report.sets[1];
        assert!(snippets.figures.is_none() && snippets.kinds.is_empty());
        assert_eq!(
            snippets.snippets.map(|(n, s)| (n, s.with, s.with_found)),
            Some((2, 2, 1))
        );
        assert_eq!(snippets.by_language["deu"].1.with_found, 1);
        assert_eq!(snippets.by_language["eng"].1.with_found, 0);
        let json = report.to_json();
        assert_eq!(json["macro"]["sets"], 1);
        assert_eq!(json["sets"]["gold"]["kinds"]["forum"]["f1"], 1.0);
        assert!(json["sets"]["gold"].get("snippets").is_none());
        assert_eq!(
            json["sets"]["snippets"]["snippets"]["by_language"]["deu"]["pages"],
            1
        );
        assert_eq!(json["pages"][1]["recall"], 0.5);
        assert_eq!(json["pages"][2]["language"], "deu");
        assert!(json["pages"][0].get("language").is_none());
    }
}

//! The models and their commands: per-language MLPs, NCleaner's n-gram models, `train`,
//! `eval` and `extract --plain-text`.

mod common;

use std::path::Path;

use common::*;

fn run_ok(args: &[&str], paths: &[&Path]) -> String {
    let o = cowrex().args(args).args(paths).output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

const ARTICLE: &str = "The council met on Tuesday to discuss the new bridge over the river. \
    Several residents argued that the old crossing should be repaired instead, because the \
    plans would take years to complete and cost far more than expected.";
const ARTICLE2: &str = "Scientists at the university have found that the lake has warmed \
    steadily over the last thirty years, and they expect the trend to continue as winters \
    become shorter and the ice melts earlier in the spring.";

#[test]
fn plain_text_mode_keeps_running_text() {
    let dir = tempdir("plain");
    let f = dir.join("dump.txt");
    std::fs::write(
        &f,
        format!(
            "Home | News | Contact | Login\n\n{ARTICLE}\n\nCopyright 2024 Example Ltd. All rights reserved. Privacy | Terms\n\n{ARTICLE2}\n"
        ),
    )
    .unwrap();
    let text = run_ok(&["extract", "--plain-text"], &[&f]);
    assert!(
        text.contains("new bridge") && text.contains("lake has warmed"),
        "{text}"
    );
    assert!(
        !text.contains("Login") && !text.contains("Copyright"),
        "{text}"
    );
    let tsv = run_ok(&["extract", "--plain-text", "--format", "tsv"], &[&f]);
    let rows: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0], ["idx", "ngram", "clean", "text"]);
    assert_eq!(rows.len(), 5);
    let clean: Vec<&str> = rows[1..].iter().map(|r| r[2]).collect();
    assert_eq!(clean, ["0", "1", "0", "1"]);
    // A high bias drops everything; the score is the same, only the decision moves.
    let text = run_ok(&["extract", "--plain-text", "--bias", "100"], &[&f]);
    assert_eq!(text, "");
    // Without n-gram models plain-text mode cannot work, and says so.
    let o = cowrex()
        .args(["extract", "--plain-text", "--ngram", "off"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("n-gram"));
}

#[test]
fn train_ngram_from_text_files_and_use_it() {
    let dir = tempdir("train-ngram");
    let (clean, dirty, raw) = (dir.join("c.txt"), dir.join("d.txt"), dir.join("r.txt"));
    std::fs::write(&clean, format!("{ARTICLE}\n\n{ARTICLE2}\n")).unwrap();
    std::fs::write(
        &dirty,
        "Home | Login | Contact\n\nCopyright 2024. All rights reserved.\n",
    )
    .unwrap();
    std::fs::write(
        &raw,
        format!("{ARTICLE}\n\nShare on Facebook | Tweet | Email\n"),
    )
    .unwrap();
    for (name, extra) in [
        ("m.ngram", vec!["--dirty"]),
        ("m2.ngram.gz", vec!["--raw"]),
        (
            "m3.ngram",
            vec![
                "--folding",
                "nonlexical",
                "--order",
                "4",
                "--q",
                "0.3",
                "--dirty",
            ],
        ),
    ] {
        let out = dir.join(name);
        let src = if extra.contains(&"--raw") {
            &raw
        } else {
            &dirty
        };
        let o = cowrex()
            .args(["train", "ngram", "--clean"])
            .arg(&clean)
            .args(&extra)
            .arg(src)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let bytes = std::fs::read(&out).unwrap();
        let text = if name.ends_with(".gz") {
            String::from_utf8(gunzip_bytes(&bytes)).unwrap()
        } else {
            String::from_utf8(bytes).unwrap()
        };
        assert!(text.starts_with("cowrex-ngram 1\norder "), "{name}");
        if name == "m3.ngram" {
            assert!(text.starts_with("cowrex-ngram 1\norder 4\nq 0.3\nfolding nonlexical\n"));
        }
        // The trained model scores with `--ngram-model`.
        let page = dir.join("p.txt");
        std::fs::write(
            &page,
            format!("{ARTICLE}\n\nHome | Login | Contact | Share on Facebook\n"),
        )
        .unwrap();
        let tsv = run_ok(
            &[
                "extract",
                "--plain-text",
                "--format",
                "tsv",
                "--ngram-model",
            ],
            &[&out, &page],
        );
        let scores: Vec<f64> = tsv
            .lines()
            .skip(1)
            .map(|l| l.split('\t').nth(1).unwrap().parse().unwrap())
            .collect();
        assert!(scores[0] > 0.0 && scores[1] < 0.0, "{name}: {scores:?}");
    }
    // Training needs both kinds of text, and a sensible q.
    let o = cowrex()
        .args(["train", "ngram", "-o"])
        .arg(dir.join("x"))
        .arg("--clean")
        .arg(&clean)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = cowrex()
        .args(["train", "ngram", "--q", "1.5", "-o"])
        .arg(dir.join("x"))
        .arg("--clean")
        .arg(&clean)
        .arg("--dirty")
        .arg(&dirty)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// A pages directory in the layout of ../shared/data/pages with one set of three pages.
fn make_pages(dir: &Path) {
    let html = dir.join("html").join("news");
    std::fs::create_dir_all(&html).unwrap();
    std::fs::create_dir_all(dir.join("ground-truth")).unwrap();
    let nav: String = ["Home", "World", "Business", "Sport", "Contact", "Login"]
        .iter()
        .map(|n| format!("<li><a href=\"/{n}\">{n}</a></li>"))
        .collect();
    let mut gt = String::new();
    for (i, body) in [ARTICLE, ARTICLE2, &format!("{ARTICLE2} {ARTICLE}")]
        .iter()
        .enumerate()
    {
        let id = format!("page{i}");
        let page = format!(
            "<html><head><title>News</title></head><body><ul>{nav}</ul><div><p>{body}</p><p>{body}</p></div><div class=\"footer\"><a href=\"/c\">Copyright 2024</a> | <a href=\"/p\">Privacy</a></div></body></html>"
        );
        if i == 0 {
            std::fs::write(html.join(format!("{id}.html")), page).unwrap();
        } else {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            std::io::Write::write_all(&mut e, page.as_bytes()).unwrap();
            std::fs::write(html.join(format!("{id}.html.gz")), e.finish().unwrap()).unwrap();
        }
        let gold = format!("{body}\n{body}");
        gt.push_str(&serde_json::json!({"page_id": id, "plaintext": gold}).to_string());
        gt.push('\n');
    }
    std::fs::write(dir.join("ground-truth").join("news.jsonl"), gt).unwrap();
}

fn figures(out: &str, set: &str) -> Vec<f64> {
    let row = out.lines().find(|l| l.starts_with(set)).unwrap();
    row.split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn eval_reports_bag_of_words_figures() {
    let dir = tempdir("eval");
    make_pages(&dir);
    let all = run_ok(&["eval", "--scorer", "all"], &[&dir]);
    let f_all = figures(&all, "news");
    // pages, precision, recall, f1, micro-p, micro-r, micro-f1
    assert_eq!(f_all[0], 3.0);
    assert_eq!(f_all[2], 1.0, "every block keeps every gold word:\n{all}");
    assert!(f_all[1] < 1.0);
    let mlp = run_ok(&["eval", "--scorer", "mlp", "-j", "1"], &[&dir]);
    let f_mlp = figures(&mlp, "news");
    assert!(f_mlp[1] > f_all[1], "the MLP removes navigation:\n{mlp}");
    assert_eq!(
        mlp,
        run_ok(&["eval", "--scorer", "mlp", "-j", "2"], &[&dir]),
        "thread count changes nothing"
    );
    let last = mlp.lines().last().unwrap();
    assert!(last.starts_with("macro precision="), "{last}");
    // The n-gram scorer, cross-validated by page, and JSON output.
    let json = dir.join("eval.json");
    let ng = run_ok(
        &["eval", "--scorer", "ngram", "--cv", "3", "--json"],
        &[&json, &dir],
    );
    assert!(ng.contains("3-fold cv by page"), "{ng}");
    // By site: these pages have no URL, so they fold by page, and eval says so.
    let o = cowrex()
        .args(["eval", "--scorer", "ngram", "--cv", "3", "--cv-by", "site"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("3-fold cv by site"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("3 of 3 pages have no URL"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["sets"]["news"]["pages"], 3);
    assert!(v["macro"]["f1"].as_f64().unwrap() > 0.0);
    // Another tool's texts: page0 extracted exactly, page1 half, page2 missing (nothing).
    let texts = dir.join("texts.jsonl");
    let lines = [
        serde_json::json!({"page_id": "page0", "text": format!("{ARTICLE}\n{ARTICLE}")}),
        serde_json::json!({"page_id": "page1", "text": ARTICLE2}),
    ];
    std::fs::write(
        &texts,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let ext = run_ok(&["eval", "--texts"], &[&texts, &dir]);
    let f = figures(&ext, "news");
    // precision: 1, 1 and 0 (nothing extracted, gold not empty); recall 1, 0.5, 0.
    assert!((f[1] - 2.0 / 3.0).abs() < 1e-4, "{ext}");
    assert!((f[2] - 0.5).abs() < 1e-4, "{ext}");
    assert!(ext.contains("texts of"), "{ext}");
    // Unknown sets, misplaced --cv and --texts with a scorer are usage errors.
    for args in [
        vec!["eval", "--sets", "nope"],
        vec!["eval", "--scorer", "mlp", "--cv", "3"],
        vec!["eval", "--scorer", "ngram", "--cv-by", "site"],
        vec!["eval", "--scorer", "mlp", "--texts", "x.jsonl"],
    ] {
        let o = cowrex().args(&args).arg(&dir).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

/// Leave one source out: with a second set whose pages have types and snippets, and a third,
/// in a second directory, with snippet gold only, each set is scored by models trained on the
/// others; page types, snippet checks (by language for the third set) and the figures at each
/// `--favor` are reported, and the third set's blocks are labelled by their snippets.
#[test]
fn eval_leaves_one_source_out_with_page_types_and_snippets() {
    let dir = tempdir("eval-loso");
    make_pages(&dir);
    // A second set: the same pages, typed, with snippets; page1's gold is only its first
    // sentence.
    let html = dir.join("html");
    std::fs::create_dir_all(html.join("typed")).unwrap();
    let mut gt = String::new();
    for (i, kind) in ["article", "forum", "article"].iter().enumerate() {
        for ext in ["html", "html.gz"] {
            let src = html.join("news").join(format!("page{i}.{ext}"));
            if src.exists() {
                std::fs::copy(&src, html.join("typed").join(format!("t{i}.{ext}"))).unwrap();
            }
        }
        let body = [ARTICLE, ARTICLE2, ARTICLE2][i];
        gt.push_str(
            &serde_json::json!({
                "page_id": format!("t{i}"), "plaintext": format!("{body}\n{body}"),
                "page_type": kind, "with": [&body[..30]], "without": ["Copyright 2024"],
            })
            .to_string(),
        );
        gt.push('\n');
    }
    std::fs::write(dir.join("ground-truth/typed.jsonl"), gt).unwrap();
    // The third set: the same pages with snippet gold only, in a directory of its own.
    let snippets = dir.join("snippets");
    std::fs::create_dir_all(snippets.join("html/snips")).unwrap();
    std::fs::create_dir_all(snippets.join("ground-truth")).unwrap();
    let mut gt = String::new();
    for i in 0..3 {
        for ext in ["html", "html.gz"] {
            let src = html.join("news").join(format!("page{i}.{ext}"));
            if src.exists() {
                let to = snippets.join("html/snips").join(format!("s{i}.{ext}"));
                std::fs::copy(&src, to).unwrap();
            }
        }
        let body = [ARTICLE, ARTICLE2, ARTICLE2][i];
        let line = serde_json::json!({
            "page_id": format!("s{i}"), "plaintext": null,
            "with": [&body[..40]], "without": ["Copyright 2024", "Privacy"],
        });
        gt.push_str(&format!("{line}\n"));
    }
    std::fs::write(snippets.join("ground-truth/snips.jsonl"), gt).unwrap();
    let json = dir.join("loso.json");
    let dump = dir.join("blocks.jsonl");
    let features = dir.join("features.f32");
    let out = run_ok(
        &[
            "eval", "--scorer", "combined", "--loso", "--trees", "5", "--json",
        ],
        &[
            &json,
            Path::new("--dump-blocks"),
            &dump,
            Path::new("--dump-features"),
            &features,
            &dir,
            &snippets,
        ],
    );
    assert!(
        out.contains("each set scored by models trained on the others"),
        "{out}"
    );
    assert!(
        out.contains("snips                     3 (snippet gold only: below)"),
        "{out}"
    );
    for set in ["news", "typed", "  article", "  forum"] {
        assert_eq!(
            figures(&out, set)[0],
            if set == "  forum" {
                1.0
            } else if set == "  article" {
                2.0
            } else {
                3.0
            },
            "{out}"
        );
    }
    assert!(out.contains("snippets (found `with` snippets"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("typed ") && l.contains(" 3 ")),
        "{out}"
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let typed = &v["sets"]["typed"];
    assert_eq!(typed["kinds"]["forum"]["pages"], 1);
    assert_eq!(typed["snippets"]["with"], 3);
    assert_eq!(typed["snippets"]["without"], 3);
    assert!(v["sets"]["news"].get("snippets").is_none());
    // The set with snippet gold only: no bag-of-words figures, its snippets counted as
    // trafilatura counts them, by language; the macro figures are over the other two sets.
    let snips = &v["sets"]["snips"];
    assert!(snips.get("f1").is_none(), "{snips}");
    assert_eq!(snips["snippets"]["with"], 3);
    assert_eq!(snips["snippets"]["without"], 6);
    let eng = &snips["snippets"]["by_language"]["eng"];
    assert_eq!(eng["pages"], 3, "{snips}");
    let (tp, fp) = (
        eng["with_found"].as_f64().unwrap(),
        eng["without_found"].as_f64().unwrap(),
    );
    assert_eq!(eng["precision"].as_f64().unwrap(), tp / (tp + fp).max(1.0));
    assert_eq!(v["macro"]["sets"], 2);
    // The same scores cut at each favour: precision's cut keeps no more than recall's.
    let dial = &v["favor"];
    let words = |f: &str| dial[f]["macro"]["recall"].as_f64().unwrap();
    assert!(words("precision") <= words("balanced") && words("balanced") <= words("recall"));
    assert!(dial["recall"]["snips"]["recall"].is_number(), "{dial}");
    // Each set with gold text has its own figures; the macro figures are their means.
    let b = &dial["balanced"];
    let p = |s: &str| b[s]["precision"].as_f64().unwrap();
    let mean = (p("news") + p("typed")) / 2.0;
    assert!(
        (b["macro"]["precision"].as_f64().unwrap() - mean).abs() < 1e-12,
        "{dial}"
    );
    let page = v["pages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["page_id"] == "t1")
        .unwrap();
    assert_eq!(page["kind"], "forum");
    // The dump has every page's blocks with their scores and decisions.
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&dump)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 9);
    let blocks = lines[0]["blocks"].as_array().unwrap();
    assert!(
        blocks.len() > 3
            && blocks
                .iter()
                .all(|b| b["bpv"].is_number() && b["kept"].is_boolean())
    );
    // Each block's comment probability and the scorer's own decision, of which `kept` follows
    // under --comments drop: a block is kept when the scorer keeps it and it is no comment.
    for l in &lines {
        for b in l["blocks"].as_array().unwrap() {
            let p = b["comment"].as_f64().unwrap_or_else(|| panic!("{b}"));
            assert!((0.0..=1.0).contains(&p), "{b}");
            let scored = b["scored"].as_bool().unwrap();
            let cut = f64::from(cowrex::classify::comment::THRESHOLD);
            assert_eq!(b["kept"].as_bool().unwrap(), scored && p < cut, "{b}");
        }
    }
    // With the words, cues, path and depth of each block and the label it was trained with:
    // the article's own words are content, the navigation and footer boilerplate.
    let label = |needle: &str| {
        let b = blocks
            .iter()
            .find(|b| b["text"].as_str().unwrap().contains(needle))
            .unwrap_or_else(|| panic!("{needle} in {blocks:?}"));
        assert!(b["words"].as_u64().unwrap() > 0 && b["cues"].is_u64() && b["depth"].is_u64());
        assert!(b["path"].as_str().unwrap().parse::<u64>().is_ok(), "{b}");
        b["label"].as_f64()
    };
    assert_eq!(label(&ARTICLE[..30]), Some(1.0));
    assert_eq!(label("Copyright 2024"), Some(0.0));
    // A page with snippet gold only: the blocks its snippets touch are labelled, the rest
    // (the navigation) are not.
    let snip = lines.iter().find(|l| l["page_id"] == "s0").unwrap();
    let labels: Vec<(String, Option<f64>)> = snip["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["text"].as_str().unwrap().to_owned(), b["label"].as_f64()))
        .collect();
    for (text, label) in &labels {
        let want = if text.starts_with(&ARTICLE[..40]) {
            // The paragraph is there twice: a `with` snippet found twice labels neither copy.
            None
        } else if text.contains("Copyright 2024") {
            Some(0.0)
        } else {
            None
        };
        assert_eq!(*label, want, "{text}: {labels:?}");
    }
    // The features: one row of the combined model's inputs per dumped block.
    let rows: usize = lines
        .iter()
        .map(|l| l["blocks"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        std::fs::metadata(&features).unwrap().len() as usize,
        rows * cowrex::classify::combined::N_FEATURES * 4
    );
    // The snippets of another tool's texts: the gold text has every `with` snippet and none
    // of the `without` ones; all blocks have every one of both.
    let ext = run_ok(&["eval", "--sets", "typed", "--scorer", "all"], &[&dir]);
    let table = ext
        .split("snippets (found")
        .nth(1)
        .expect("a snippet table");
    // pages, with, without, precision, recall, f1
    let row = figures(table, "typed");
    assert_eq!(row[..5], [3.0, 3.0, 3.0, 0.5, 1.0], "{ext}");
    assert!((row[5] - 2.0 / 3.0).abs() < 1e-4, "{ext}");
    // One set cannot be left out, and --loso goes with neither --cv nor another tool's texts.
    for args in [
        vec!["eval", "--sets", "news", "--loso"],
        vec!["eval", "--loso", "--cv", "3"],
        vec!["eval", "--scorer", "mlp", "--loso"],
    ] {
        let o = cowrex().args(&args).arg(&dir).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

/// The row of `set` in the block-level table of `eval --blocks`.
fn block_row(out: &str, set: &str) -> Vec<f64> {
    let table = out.split("block level").nth(1).unwrap();
    figures(table, set)
}

#[test]
fn eval_reports_block_level_figures() {
    let dir = tempdir("eval-blocks");
    make_pages(&dir);
    // Annotated copies of the pages in L3S-GN1's layout, matched by file name: the articles
    // are full text (class 2), the navigation is marked not content (class 0) and the footer
    // is left unmarked.
    let labels = dir.join("labels");
    for (sub, annotate) in [("original", false), ("annotated", true)] {
        let out = labels.join("news").join(sub);
        std::fs::create_dir_all(&out).unwrap();
        for i in 0..3 {
            let src = dir.join("html/news").join(format!("page{i}.html"));
            let page = if src.exists() {
                std::fs::read_to_string(&src).unwrap()
            } else {
                let gz = std::fs::read(src.with_extension("html.gz")).unwrap();
                let mut s = String::new();
                std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut s)
                    .unwrap();
                s
            };
            let page = if annotate {
                page.replace("<ul>", "<ul><span class=\"x-nc-sel0\">")
                    .replace("</ul>", "</span></ul>")
                    .replace("<p>", "<p><span class=\"x-nc-sel2\">")
                    .replace("</p>", "</span></p>")
            } else {
                page
            };
            std::fs::write(out.join(format!("page{i}.html")), page).unwrap();
        }
    }
    let json = dir.join("blocks.json");
    let all = run_ok(
        &["eval", "--scorer", "all", "--blocks"],
        &[&labels, Path::new("--json"), &json, &dir],
    );
    // pages, blocks, unlabelled, accuracy, precision, recall, f1: per page, six navigation
    // items and the footer are boilerplate, the two paragraphs content.
    let b = block_row(&all, "news");
    assert_eq!(&b[..3], &[3.0, 27.0, 0.0], "{all}");
    assert!(
        (b[3] - 6.0 / 27.0).abs() < 1e-4,
        "keeping all blocks: {all}"
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["blocks"]["news"]["blocks"], 27);
    let mlp = run_ok(&["eval", "--scorer", "mlp", "--blocks"], &[&labels, &dir]);
    let m = block_row(&mlp, "news");
    assert!(
        m[3] > b[3] && m[5] > 0.5,
        "the MLP finds the navigation: {mlp}"
    );
    assert!(mlp.lines().last().unwrap().starts_with("macro "));
    let o = cowrex()
        .args(["eval", "--blocks"])
        .arg(dir.join("nope"))
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "an input that cannot be read");
}

/// The texts of the blocks labelled content, one per line.
fn labelled_content(texts: &[&str], labels: &[Option<bool>]) -> String {
    texts
        .iter()
        .zip(labels)
        .filter(|(_, l)| **l == Some(true))
        .map(|(t, _)| *t)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The block labels of every set reproduce its gold text: those of L3S-GN1 and
/// Google-Trends-2017 aligned from their annotated copies, those of CleanEval and Dragnet from
/// the gold text itself. The aligner and the label rules are right, and the diff behind them
/// finds the gold text where the page has it (a page whose content blocks the labels all miss
/// would teach the combined model to drop content).
#[test]
fn block_labels_reproduce_gold_text() {
    let (Some(pages), Some(blocks)) = (shared_data("pages"), shared_data("blocks")) else {
        return;
    };
    use cowrex::eval;
    let models = cowrex::classify::Models::builtin();
    let cfg = cowrex::analyze::Config::default();
    // Pooled and mean per-page F1 floors; measured: l3s-gn1 0.9904 / 0.9822,
    // google-trends-2017 0.9836 / 0.9873, cleaneval 0.9850 / 0.9820, dragnet 0.9958 / 0.9924
    // (its gold text up to the comments).
    // With a Myers diff, which gives up on an optimal alignment on long pages, Dragnet's labels
    // reached only 0.9734 / 0.9342.
    for (set, floor, page_floor) in [
        ("l3s-gn1", 0.98, 0.975),
        ("google-trends-2017", 0.975, 0.98),
        ("cleaneval", 0.98, 0.975),
        ("dragnet", 0.985, 0.98),
    ] {
        let (gold, missing) = eval::load_set(&pages, set).unwrap();
        assert!(missing.is_empty());
        let list: Vec<&eval::GoldPage> = gold.iter().collect();
        let docs = eval::analyze_pages(&list, &models, &cfg, 2);
        let labels = eval::load_block_labels(&blocks, set).unwrap_or_default();
        let mut pooled = eval::Overlap::default();
        let mut per_page = 0.0;
        for (p, d) in gold.iter().zip(&docs) {
            let d = d.as_ref().unwrap();
            let g = p.gold.as_deref().expect("a set with gold text");
            let texts: Vec<&str> = eval::blocks_of(d)
                .iter()
                .map(|b| b.cleansed.as_str())
                .collect();
            let label: Vec<Option<bool>> = match labels.get(&p.id) {
                Some(annotated) => {
                    let html = eval::read_page(annotated).unwrap();
                    let reference = eval::labels::labelled_words(&html).unwrap();
                    let aligned = eval::labels::align(&texts, &reference);
                    aligned.iter().map(eval::labels::Alignment::label).collect()
                }
                None => eval::labels::align_gold(&texts, g),
            };
            let o = eval::Overlap::of(&labelled_content(&texts, &label), g);
            per_page += o.f1() / gold.len() as f64;
            pooled.add(&o);
        }
        eprintln!(
            "{set}: {} pages, labelled content against gold: P={:.4} R={:.4} F1={:.4}, mean F1 per page {per_page:.4}",
            gold.len(),
            pooled.precision(),
            pooled.recall(),
            pooled.f1()
        );
        assert_eq!(labels.is_empty(), matches!(set, "cleaneval" | "dragnet"));
        assert!(pooled.f1() >= floor, "{set}: F1 {}", pooled.f1());
        assert!(per_page >= page_floor, "{set}: mean F1 per page {per_page}");
    }
}

/// The snippet gold of trafilatura's evaluation pages labels cowrex's blocks: the blocks a
/// `with` snippet touches are content, those a `without` snippet touches boilerplate. Most
/// snippets are found in the blocks (white space, entities and decoding as the page shows
/// them), most pages get labels of both kinds, and the content-labelled blocks alone give
/// every `with` snippet they hold and no `without` snippet.
#[test]
fn snippet_labels_find_the_snippets_of_real_pages() {
    let Some(dir) = shared_data("snippets") else {
        return;
    };
    use cowrex::eval;
    let models = cowrex::classify::Models::builtin();
    let cfg = cowrex::analyze::Config::default();
    let (pages, missing) = eval::load_set(&dir, "trafilatura-eval-dev").unwrap();
    assert!(missing.is_empty(), "{missing:?}");
    assert!(pages.iter().all(|p| p.gold.is_none()));
    let list: Vec<&eval::GoldPage> = pages.iter().collect();
    let docs: Vec<_> = eval::analyze_pages(&list, &models, &cfg, 2)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let labels = eval::page_block_labels(&Default::default(), &list, &docs, false).unwrap();
    let (mut all, mut labelled) = (eval::Snippets::default(), eval::Snippets::default());
    let (mut with_content, mut with_boilerplate) = (0, 0);
    for ((p, d), l) in pages.iter().zip(&docs).zip(&labels) {
        let blocks = eval::blocks_of(d);
        let text = |keep: &dyn Fn(usize) -> bool| {
            cowrex::document::content_text(
                (0..blocks.len()).filter(|&i| keep(i)).map(|i| &blocks[i]),
            )
        };
        all.add(&eval::Snippets::of(&text(&|_| true), p));
        labelled.add(&eval::Snippets::of(&text(&|i| l[i] == Some(1.0)), p));
        with_content += l.contains(&Some(1.0)) as usize;
        with_boilerplate += l.contains(&Some(0.0)) as usize;
    }
    eprintln!(
        "{} pages: snippets in all blocks: {} of {} with, {} of {} without; in the \
         content-labelled blocks: {} with, {} without; pages with content labels {with_content}, \
         with boilerplate labels {with_boilerplate}",
        pages.len(),
        all.with_found,
        all.with,
        all.without_found,
        all.without,
        labelled.with_found,
        labelled.without_found
    );
    assert!(all.recall() >= 0.98, "{all:?}");
    // The rest are in text cowrex does not make blocks of (forms, hidden elements).
    assert!(
        all.without_found as f64 >= 0.85 * all.without as f64,
        "{all:?}"
    );
    assert!(labelled.recall() >= 0.9, "{labelled:?}");
    assert_eq!(labelled.without_found, 0, "{labelled:?}");
    assert!(with_content as f64 >= 0.95 * pages.len() as f64);
    assert!(with_boilerplate as f64 >= 0.9 * pages.len() as f64);
}

/// `scripts/train/texrex_pages.py` turns texrex's annotated documents into pages with gold text
/// (`scripts/accuracy/unseen.py` measures the shipped models on them). The conversion is right when
/// cowrex's blocks, labelled by aligning them with that gold text, give it back: headers cut,
/// pages decoded (umlauts and accents intact), the annotators' content blocks in the gold.
#[test]
fn texrex_pages_convert_to_gold_text_cowrex_reproduces() {
    let Some(_) = shared_data("texrex-boilerplate/training_data") else {
        return;
    };
    use cowrex::eval;
    let dir = tempdir("texrex-pages");
    let script =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("scripts/train/texrex_pages.py");
    let o = std::process::Command::new("python3")
        .arg(&script)
        .arg(&dir)
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let models = cowrex::classify::Models::builtin();
    let cfg = cowrex::analyze::Config::default();
    // Mean F1 per page of the aligned content blocks against the gold text, measured: de 0.9976,
    // en 0.9996, fr 0.9988, sv 0.9965. Every page whose gold text has the non-ASCII letter has
    // it in cowrex's text too (before invalid UTF-8 was replaced rather than the page decoded
    // as windows-1252, one German page lost its umlauts).
    for (set, pages, letter) in [
        ("texrex-de", 99, 'ü'),
        ("texrex-en", 125, '£'),
        ("texrex-fr", 102, 'é'),
        ("texrex-sv", 100, 'ä'),
    ] {
        let (gold, missing) = eval::load_set(&dir, set).unwrap();
        assert!(missing.is_empty(), "{set}: {missing:?}");
        assert_eq!(gold.len(), pages, "{set}");
        let list: Vec<&eval::GoldPage> = gold.iter().collect();
        let docs = eval::analyze_pages(&list, &models, &cfg, 2);
        let (mut per_page, mut with_letter, mut kept_letter) = (0.0, 0, 0);
        for (p, d) in gold.iter().zip(&docs) {
            let d = d.as_ref().unwrap();
            let g = p.gold.as_deref().expect("texrex's pages have gold text");
            let texts: Vec<&str> = eval::blocks_of(d)
                .iter()
                .map(|b| b.cleansed.as_str())
                .collect();
            let label = eval::labels::align_gold(&texts, g);
            per_page += eval::Overlap::of(&labelled_content(&texts, &label), g).f1() / pages as f64;
            if g.contains(letter) {
                with_letter += 1;
                kept_letter += texts.iter().any(|t| t.contains(letter)) as usize;
            }
        }
        eprintln!(
            "{set}: aligned blocks against gold text, mean F1 per page {per_page:.4}; \
             '{letter}' kept on {kept_letter} of {with_letter} pages"
        );
        assert!(per_page >= 0.95, "{set}: mean F1 per page {per_page}");
        assert!(
            with_letter >= 5,
            "{set}: {with_letter} pages with '{letter}'"
        );
        assert_eq!(
            kept_letter, with_letter,
            "{set}: '{letter}' lost in decoding"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The MLPs that scored a file's documents, from its stats.
fn model_names(stats: &serde_json::Value) -> Vec<&str> {
    stats["models"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn train_ngram_from_pages_and_language_choice() {
    let dir = tempdir("pages-train");
    make_pages(&dir);
    let model = dir.join("m.ngram");
    run_ok(
        &["train", "ngram", "-o"],
        &[&model, Path::new("--pages"), &dir],
    );
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(text.lines().count() > 100);
    // --lang fixes the MLP; the language is still identified and written.
    let out = dir.join("out");
    let sample = fixture("sample.warc.gz");
    assert!(
        process(&[&sample], &out, &["--lang", "sv"])
            .status
            .success()
    );
    let stats = check_outputs(&out, "sample");
    assert_eq!(model_names(&stats), ["sv"]);
    assert!(
        stats["languages"]["eng"].as_u64().unwrap() >= 1,
        "{}",
        stats["languages"]
    );
    let custom = dir.join("custom");
    let de = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("models/texrex-de.mlp");
    assert!(
        process(&[&sample], &custom, &["--model", de.to_str().unwrap()])
            .status
            .success()
    );
    let stats = check_outputs(&custom, "sample");
    assert_eq!(model_names(&stats), ["custom"]);
    let auto = dir.join("auto");
    assert!(
        process(&[&sample], &auto, &["--scorer", "mlp"])
            .status
            .success()
    );
    let stats = check_outputs(&auto, "sample");
    assert!(stats["models"]["en"].as_u64().unwrap() >= 1);
    let xml = String::from_utf8(gunzip(&auto.join("sample.xml.gz"))).unwrap();
    assert!(xml.contains(" language=\"eng\" "));
    let divs = xml.lines().filter(|l| l.starts_with("<div ")).count();
    assert_eq!(
        divs,
        xml.matches(" ngram=\"").count(),
        "every block has an n-gram score"
    );
    // Without n-gram scoring the attribute is gone and the MLP scores are unchanged.
    let off = dir.join("off");
    assert!(
        process(&[&sample], &off, &["--ngram", "off", "--scorer", "mlp"])
            .status
            .success()
    );
    let xml_off = String::from_utf8(gunzip(&off.join("sample.xml.gz"))).unwrap();
    assert!(!xml_off.contains(" ngram=\""));
    let strip = |s: &str| -> String {
        s.lines()
            .map(|l| match l.split_once(" ngram=\"") {
                Some((a, b)) => format!("{a}{}", &b[b.find('"').unwrap() + 1..]),
                None => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&xml), strip(&xml_off));
}

/// texrex's Table 4 (correct classifications, 10-fold CV, threshold 0.5) and what the shipped
/// models reach; fr and sv fall short of the paper (see docs/models.md), so they are held to
/// the measured value minus a margin.
#[test]
fn mlp_cross_validation_and_reproducible_models() {
    let Some(data) = shared_data("texrex") else {
        return;
    };
    let dir = tempdir("mlp-cv");
    for (lang, floor) in [("en", 0.976), ("de", 0.952), ("fr", 0.965), ("sv", 0.965)] {
        let out = dir.join(format!("{lang}.mlp"));
        let stdout = run_ok(
            &["train", "mlp", "--cv", "10", "--data"],
            &[
                &data.join(format!("boilerplate.{lang}.dat")),
                Path::new("-o"),
                &out,
            ],
        );
        eprintln!("{lang}:\n{stdout}");
        assert!(
            stdout.contains("threshold where precision = recall: 0."),
            "{stdout}"
        );
        let last = stdout.lines().last().unwrap();
        let acc: f64 = last
            .strip_prefix("accuracy=")
            .and_then(|r| r.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(last.contains(" precision=") && last.contains(" recall=") && last.contains(" f1="));
        assert!(acc >= floor, "{lang}: {acc} < {floor}");
        let shipped = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join(format!("models/texrex-{lang}.mlp"));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&shipped).unwrap(),
            "{lang}: docs/models.md's command no longer reproduces the shipped model"
        );
    }
}

#[test]
fn ncleaner_models_reproduce_and_clean_cleaneval() {
    let Some(pages) = shared_data("pages") else {
        return;
    };
    let dir = tempdir("ngram-shipped");
    for (folding, name) in [("standard", "standard"), ("nonlexical", "nonlexical")] {
        let out = dir.join(format!("{name}.ngram.gz"));
        run_ok(
            &["train", "ngram", "--folding", folding, "--pages"],
            &[&pages, Path::new("-o"), &out],
        );
        let shipped = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join(format!("models/ncleaner-en-{name}.ngram.gz"));
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(&shipped).unwrap(),
            "{name}: docs/models.md's command no longer reproduces the shipped model"
        );
    }
    // NCleaner alone on CleanEval, cross-validated by page (Evert 2008: precision 94.70 %,
    // recall 90.83 % on the official CLEANEVAL test set); alone: comment blocks by their score.
    let out = run_ok(
        &[
            "eval",
            "--sets",
            "cleaneval",
            "--scorer",
            "ngram",
            "--ngram",
            "standard",
            "--comments",
            "scored",
            "--cv",
            "10",
        ],
        &[&pages],
    );
    eprintln!("{out}");
    let f = figures(&out, "cleaneval");
    let (micro_p, micro_r) = (f[4], f[5]);
    assert!(micro_p >= 0.94, "micro precision {micro_p}");
    assert!(micro_r >= 0.92, "micro recall {micro_r}");
}

/// The built-in markup model is reproduced by docs/models.md's command, and its weights say
/// what the words mean: `sidebar` and `footer` boilerplate, `article` content.
#[test]
fn train_markup_reproduces_the_built_in_model() {
    let (Some(pages), Some(snippets), Some(blocks)) = (
        shared_data("pages"),
        shared_data("snippets"),
        shared_data("blocks"),
    ) else {
        return;
    };
    let dir = tempdir("markup-shipped");
    let out = dir.join("markup.words.gz");
    run_ok(
        &["train", "markup", "--pages"],
        &[
            &pages,
            Path::new("--pages"),
            &snippets,
            Path::new("--blocks"),
            &blocks,
            Path::new("-o"),
            &out,
        ],
    );
    let shipped =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("models/markup.words.gz");
    let built = std::fs::read(&out).unwrap();
    assert!(
        built == std::fs::read(&shipped).unwrap(),
        "docs/models.md's command no longer reproduces the shipped markup model"
    );
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&built[..]), &mut text)
        .unwrap();
    let weight = |word: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{word}\t")))
            .unwrap_or_else(|| panic!("{word} not in the markup model"))
            .parse()
            .unwrap()
    };
    assert!(weight("sidebar") < -0.5, "sidebar {}", weight("sidebar"));
    assert!(weight("footer") < -0.5, "footer {}", weight("footer"));
    assert!(weight("article") > 0.2, "article {}", weight("article"));
}

/// The built-in comment model is reproduced by docs/models.md's command, and left out of each
/// source it finds most comment blocks of the other at a precision that makes dropping them
/// safe (docs/models.md has the figures).
#[test]
fn train_comment_reproduces_the_built_in_model_and_finds_comments() {
    let (Some(pages), Some(blocks)) = (shared_data("pages"), shared_data("blocks")) else {
        return;
    };
    let dir = tempdir("comment-shipped");
    let out = dir.join("comment.gbt.gz");
    let report = run_ok(
        &["train", "comment", "--cv", "--pages"],
        &[
            &pages,
            Path::new("--blocks"),
            &blocks,
            Path::new("-o"),
            &out,
        ],
    );
    let shipped =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("models/comment.gbt.gz");
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(&shipped).unwrap(),
        "docs/models.md's command no longer reproduces the shipped comment model"
    );
    // `set pages blocks found missed false recall prec`, per source left out.
    let row = |set: &str| -> Vec<String> {
        report
            .lines()
            .find(|l| l.split_whitespace().next() == Some(set))
            .unwrap_or_else(|| panic!("no {set} row in:\n{report}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect()
    };
    let ratio = |set: &str, k: usize| row(set)[k].parse::<f64>().unwrap();
    assert!(
        ratio("dragnet", 6) >= 0.7,
        "dragnet recall: {:?}",
        row("dragnet")
    );
    assert!(
        ratio("dragnet", 7) >= 0.7,
        "dragnet precision: {:?}",
        row("dragnet")
    );
    assert!(
        ratio("l3s-gn1", 6) >= 0.55,
        "l3s-gn1 recall: {:?}",
        row("l3s-gn1")
    );
    assert!(
        ratio("l3s-gn1", 7) >= 0.9,
        "l3s-gn1 precision: {:?}",
        row("l3s-gn1")
    );
}

/// xxh3-128 digests (hex) of the shipped combined model, `models/combined.gbt.gz`, and of the
/// model that docs/models.md's command trains on three of its six sets
/// (`--sets google-trends-2017,l3s-gn1,trafilatura-eval-dev`). They change together: any
/// change to the training, the features or the models they read changes both models.
/// `sh scripts/train/train_models.sh` retrains the shipped model in full (20 to 29 minutes on
/// 2 cores); the test below prints both new digests.
const SHIPPED_COMBINED: &str = "3348f82b6e4cf4a0f106721ee87e5cc8";
const PINNED_COMBINED: &str = "5d44118ee269427567d018c4f6f748f8";

fn xxh3_hex(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// The combined model's training is pinned: docs/models.md's command, on three of the six
/// sets (two page sets with block labels and the snippet set, so both kinds of labels; 2½
/// minutes), gives the model of [`PINNED_COMBINED`], recorded together with the shipped
/// model's digest. The full command takes too long for every CI run. On the other three page
/// sets, which it was not trained on, that model beats every single scorer.
#[test]
fn combined_model_training_is_pinned_and_beats_each_detector() {
    let (Some(pages), Some(snippets), Some(blocks)) = (
        shared_data("pages"),
        shared_data("snippets"),
        shared_data("blocks"),
    ) else {
        return;
    };
    let dir = tempdir("combined-pinned");
    let out = dir.join("combined.gbt.gz");
    run_ok(
        &["train", "combined", "--pages"],
        &[
            &pages,
            Path::new("--pages"),
            &snippets,
            Path::new("--blocks"),
            &blocks,
            Path::new("--sets"),
            Path::new("google-trends-2017,l3s-gn1,trafilatura-eval-dev"),
            Path::new("-o"),
            &out,
        ],
    );
    let shipped =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("models/combined.gbt.gz");
    let (pinned, shipped) = (
        xxh3_hex(&std::fs::read(&out).unwrap()),
        xxh3_hex(&std::fs::read(&shipped).unwrap()),
    );
    assert!(
        (pinned.as_str(), shipped.as_str()) == (PINNED_COMBINED, SHIPPED_COMBINED),
        "the combined model's training or the shipped model changed: retrain the shipped model \
         (sh scripts/train/train_models.sh), then set PINNED_COMBINED to {pinned} and \
         SHIPPED_COMBINED to the retrained model's digest (now {shipped})"
    );
    let macro_f1 = |args: &[&str]| -> f64 {
        let json = dir.join("eval.json");
        let mut all = args.to_vec();
        all.extend(["--json", json.to_str().unwrap()]);
        run_ok(&all, &[&pages]);
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        v["macro"]["f1"].as_f64().unwrap()
    };
    // The three page sets the pinned model did not see, scored by it and by each single scorer
    // (the n-gram one cross-validated, as its built-in model saw them).
    let sets = "cleaneval,dragnet,wcxb-dev";
    let model = out.to_str().unwrap();
    let combined = macro_f1(&["eval", "--sets", sets, "--combined-model", model]);
    eprintln!("combined, trained on three other sets, on {sets}: macro F1 {combined:.4}");
    for scorer in ["mlp", "justext", "boilerpipe", "boilerpipe-density", "all"] {
        let f = macro_f1(&["eval", "--sets", sets, "--scorer", scorer]);
        assert!(
            combined > f + 0.03,
            "{scorer}: {f:.4} vs combined {combined:.4}"
        );
    }
    let ngram = macro_f1(&["eval", "--sets", sets, "--scorer", "ngram", "--cv", "5"]);
    assert!(combined > ngram + 0.03, "ngram {ngram:.4} vs {combined:.4}");
    // Measured 0.8824 (boilerpipe, the best single scorer, 0.8214; docs/models.md).
    assert!(combined >= 0.875, "macro F1 {combined:.4}");
}

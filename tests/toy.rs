//! A detector is one file and one registry line: the toy detector (`src/classify/toy.rs`,
//! the `toy-detector` feature), which nothing else in the project names, has its column in
//! `extract`'s TSV and in `process`'s JSONL and XML, its decision among `--scorer`'s values
//! and its model file as `--toy-model`. Python's side is `python/tests/test_api.py`'s toy test.
//!
//!     cargo test -p cowrex-cli --features toy-detector --test toy
//!
//! (a debug build, so that the release binary stays without the toy; `scripts/test.sh` runs
//! it.)

mod common;

use std::io::Read;
use std::path::Path;

use common::{cowrex, root, tempdir};

const PAGE: &str = "<html><body><nav><a href=/>Home</a> | <a href=/a>About 2026</a></nav>\
    <p>Ducks are water birds of the family Anatidae. They live in fresh and salt water.</p>\
    <p>Call 555-0100 (9-17 h)</p></body></html>";

/// The letters' share of `text`'s characters, as the writers round it.
fn toy(text: &str, weight: f64) -> f64 {
    let chars = text.chars().count().max(1) as f64;
    let letters = text.chars().filter(|c| c.is_alphabetic()).count() as f64;
    (weight * letters / chars * 1e4).round() / 1e4
}

/// `cowrex extract --format tsv` of [`PAGE`] with `args`: each block's text and `toy` column.
fn tsv(dir: &Path, args: &[&str]) -> Vec<(String, String)> {
    let page = dir.join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    let o = cowrex()
        .args(["extract", "--format", "tsv"])
        .args(args)
        .arg(&page)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let column = |name| header.iter().position(|c| *c == name).unwrap();
    let (at, text) = (column("toy"), column("text"));
    // After every other detector's shown columns (the comment detector's is the last of
    // those; the combined model's is hidden): last in the registry.
    assert_eq!(header[at - 1], "comment", "{header:?}");
    lines
        .map(|l| {
            let row: Vec<&str> = l.split('\t').collect();
            (row[text].to_string(), row[at].to_string())
        })
        .collect()
}

#[test]
fn the_toy_column_is_in_the_tsv_and_its_model_file_an_option() {
    let dir = tempdir("toy-tsv");
    let rows = tsv(&dir, &[]);
    assert!(rows.len() >= 2, "{rows:?}");
    for (text, value) in &rows {
        assert_eq!(value.parse::<f64>().unwrap(), toy(text, 1.0), "{text}");
    }
    let weight = dir.join("weight.toy");
    std::fs::write(&weight, "0.5\n").unwrap();
    let halved = tsv(&dir, &["--toy-model", weight.to_str().unwrap()]);
    for (text, value) in &halved {
        assert_eq!(value.parse::<f64>().unwrap(), toy(text, 0.5), "{text}");
    }
    // Its decision is a scorer: the blocks with fewer than half letters are boilerplate.
    assert_eq!(tsv(&dir, &["--scorer", "toy"]), rows);
    // A model file that is not one: "model PATH: CAUSE", exit 2.
    std::fs::write(&weight, "heavy").unwrap();
    let o = cowrex()
        .args(["extract", "--toy-model"])
        .arg(&weight)
        .arg(root().join("fixtures/cjk-ja.html"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let want = format!("model {}: not a number: \"heavy\"", weight.display());
    assert!(err.contains(&want), "{err}");
}

#[test]
fn the_toy_column_is_in_the_jsonl_and_xml() {
    let dir = tempdir("toy-process");
    let o = cowrex()
        .args([
            "process",
            "--no-progress",
            "--format",
            "jsonl,xml",
            "--scorer",
            "toy",
        ])
        .arg(root().join("fixtures/sample.warc.gz"))
        .arg("-o")
        .arg(&*dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let gunzip = |name: &str| {
        let mut s = String::new();
        let f = std::fs::File::open(dir.join(name)).unwrap();
        flate2::read::MultiGzDecoder::new(f)
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    let mut blocks = 0;
    for line in gunzip("sample.jsonl.gz").lines() {
        let doc: serde_json::Value = serde_json::from_str(line).unwrap();
        for b in doc["blocks"].as_array().unwrap() {
            let text = b["text"].as_str().unwrap();
            assert_eq!(b["toy"].as_f64(), Some(toy(text, 1.0)), "{b}");
            // It decided.
            let bpv = b["bpv"].as_f64().unwrap();
            assert!((bpv - (1.0 - toy(text, 1.0))).abs() < 1e-3, "{b}");
            blocks += 1;
        }
    }
    assert!(blocks > 10, "{blocks} blocks");
    // Every block with scores has its toy score (a duplicate block has none).
    let xml = gunzip("sample.xml.gz");
    let toys = xml.matches(" toy=\"").count();
    assert!(
        toys > 10 && toys == xml.matches(" mlp=\"").count(),
        "{toys}"
    );
}

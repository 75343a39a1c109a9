//! Batch runs: manifests, sharding, resume and `cowrex status`.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;

/// Four WARCs under `base/crawl-data/…` and a gzipped manifest of their relative paths.
fn crawl(dir: &Path, pages: usize) -> (PathBuf, PathBuf) {
    let base = dir.join("base");
    let mut lines = String::new();
    for i in 0..4u64 {
        let rel = format!(
            "crawl-data/CC-TEST/segments/{}/warc/part-{i}.warc.gz",
            i % 2
        );
        let p = base.join(&rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        article_warc(&p, 100 + i, pages);
        lines.push_str(&rel);
        lines.push('\n');
    }
    let manifest = dir.join("warc.paths.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&manifest).unwrap(),
        flate2::Compression::fast(),
    );
    std::io::Write::write_all(&mut gz, lines.as_bytes()).unwrap();
    gz.finish().unwrap();
    (base, manifest)
}

fn run(manifest: &Path, base: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let o = cowrex()
        .args(["process", "--no-progress", "--manifest"])
        .arg(manifest)
        .arg("--input-base")
        .arg(base)
        .arg("-o")
        .arg(out)
        .args(extra)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_COUNT")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn status(manifest: &Path, base: &Path, out: &Path, missing: &Path) -> String {
    let o = cowrex()
        .args(["status", "--manifest"])
        .arg(manifest)
        .arg("--input-base")
        .arg(base)
        .arg("--out")
        .arg(out)
        .arg("--emit-missing")
        .arg(missing)
        .output()
        .unwrap();
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn a_manifest_as_one_task_or_two_gives_the_same_outputs_and_reruns_skip() {
    let dir = tempdir("manifest");
    let (base, manifest) = crawl(&dir, 20);
    let (one, two) = (dir.join("one"), dir.join("two"));
    run(&manifest, &base, &one, &[]);
    run(
        &manifest,
        &base,
        &two,
        &["--task-index", "0", "--task-count", "2"],
    );
    // Task 1 of 2 from Slurm's variables (an array 1-2: ids count from the minimum).
    let o = cowrex()
        .args(["process", "--no-progress", "--manifest"])
        .arg(&manifest)
        .arg("--input-base")
        .arg(&base)
        .arg("-o")
        .arg(&two)
        .env("SLURM_ARRAY_TASK_ID", "2")
        .env("SLURM_ARRAY_TASK_MIN", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "2")
        .output()
        .unwrap();
    assert!(o.status.success());
    let files = tree(&one);
    assert_eq!(files, tree(&two));
    // Outputs mirror the manifest's paths.
    for i in 0..4 {
        let stem = format!("crawl-data/CC-TEST/segments/{}/warc/part-{i}", i % 2);
        assert!(files.contains_key(&format!("{stem}.xml.gz")));
        check_outputs(&one, &stem);
    }
    assert_eq!(
        files.len(),
        4 * 4,
        "xml, shingles, stats and done per input"
    );
    let xml = String::from_utf8(gunzip(
        &one.join("crawl-data/CC-TEST/segments/1/warc/part-1.xml.gz"),
    ))
    .unwrap();
    assert!(xml.contains(
        "<meta name=\"arcfile\" content=\"crawl-data/CC-TEST/segments/1/warc/part-1.warc.gz\" />"
    ));
    // A rerun skips all four; --force redoes them; another configuration is not skipped.
    let o = run(&manifest, &base, &one, &[]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("4 inputs were done before"));
    assert_eq!(tree(&one), files);
    let o = run(&manifest, &base, &one, &["--force"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("4 files done, 0 skipped"));
    let o = run(&manifest, &base, &one, &["--threshold", "0.4"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("4 files done, 0 skipped"));
    // Status: four done; one without done.json is failed, one without outputs missing.
    let left = dir.join("left.paths");
    assert_eq!(
        status(&manifest, &base, &one, &left),
        "4 inputs: 4 done, 0 failed, 0 missing\n"
    );
    assert_eq!(std::fs::read_to_string(&left).unwrap(), "");
    std::fs::remove_file(one.join("crawl-data/CC-TEST/segments/1/warc/part-1.done.json")).unwrap();
    for f in ["xml.gz", "shingles.gz", "stats.json", "done.json"] {
        std::fs::remove_file(one.join(format!("crawl-data/CC-TEST/segments/0/warc/part-2.{f}")))
            .unwrap();
    }
    assert_eq!(
        status(&manifest, &base, &one, &left),
        "4 inputs: 2 done, 1 failed, 1 missing\n"
    );
    assert_eq!(
        std::fs::read_to_string(&left).unwrap(),
        "crawl-data/CC-TEST/segments/1/warc/part-1.warc.gz\ncrawl-data/CC-TEST/segments/0/warc/part-2.warc.gz\n"
    );
    // Bad task settings are usage errors.
    let o = cowrex()
        .args(["process", "--manifest"])
        .arg(&manifest)
        .args(["--task-index", "2", "--task-count", "2", "-o"])
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_killed_run_resumes_to_the_same_outputs() {
    let dir = tempdir("killed");
    let (base, manifest) = crawl(&dir, 600);
    let clean = dir.join("clean");
    run(&manifest, &base, &clean, &["-j1"]);
    let out = dir.join("out");
    let mut child = cowrex()
        .args(["process", "--no-progress", "-j1", "--manifest"])
        .arg(&manifest)
        .arg("--input-base")
        .arg(&base)
        .arg("-o")
        .arg(&out)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_COUNT")
        .spawn()
        .unwrap();
    // Wait until the first input is done, then kill in the middle of the next.
    let first_done = out.join("crawl-data/CC-TEST/segments/0/warc/part-0.done.json");
    let t = std::time::Instant::now();
    while !first_done.exists() && t.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // Nothing half-written under a final name: every file under a final name is complete
    // (equal to the clean run's; the kill may fall between an input's renames, before its
    // done.json), and an input with a done.json has all its outputs. Temporary names start
    // with a dot.
    let partial = tree(&out);
    let clean_files = tree(&clean);
    assert!(partial.len() < clean_files.len(), "killed before the end");
    for name in partial.keys() {
        let file = Path::new(name)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if file.starts_with('.') {
            continue;
        }
        assert_eq!(partial[name], clean_files[name], "{name}");
        if let Some(stem) = name.strip_suffix(".done.json") {
            for ext in ["xml.gz", "shingles.gz", "stats.json"] {
                assert!(
                    partial.contains_key(&format!("{stem}.{ext}")),
                    "{stem}.{ext}"
                );
            }
        }
    }
    run(&manifest, &base, &out, &["-j1"]);
    assert_eq!(tree(&out), tree(&clean));
}

/// `--split-by language`: each document goes to the corpus files of its language's directory,
/// or to `und` below the least score; the statistics count the parts; resuming, `status` and
/// the thread count work as without a split.
#[test]
fn a_run_split_by_language_writes_a_corpus_per_language() {
    use std::io::Write;
    let dir = tempdir("split");
    let texts = [
        "The council approved the new budget for the city's schools on Tuesday evening, after a \
         long debate about teachers' salaries and the cost of repairing old buildings.",
        "Der Stadtrat hat am Dienstagabend den neuen Haushalt für die Schulen der Stadt \
         beschlossen, nach einer langen Debatte über die Gehälter der Lehrer.",
        "Le conseil municipal a approuvé mardi soir le nouveau budget des écoles de la ville, \
         après un long débat sur les salaires des enseignants.",
        "Heavy rain flooded several streets in the old town, and the fire brigade pumped water \
         out of dozens of cellars until late at night.",
        "Starker Regen hat mehrere Straßen in der Altstadt überflutet, und die Feuerwehr pumpte \
         bis spät in die Nacht Wasser aus Dutzenden Kellern.",
    ];
    let warc = dir.join("news.warc.gz");
    let mut out = std::fs::File::create(&warc).unwrap();
    for (i, t) in texts.iter().enumerate() {
        let html = format!("<html><body><h1>News {i}</h1><p>{t}</p></body></html>");
        let rec = warc_record(&format!("http://news.example/{i}"), &html, i);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&rec).unwrap();
        out.write_all(&gz.finish().unwrap()).unwrap();
    }
    drop(out);
    let split = ["--split-by", "language", "--format", "xml,jsonl,parquet"];
    let (one, two) = (dir.join("one"), dir.join("two"));
    assert!(
        process(&[&warc], &one, &[&split[..], &["-j1"]].concat())
            .status
            .success()
    );
    assert!(
        process(&[&warc], &two, &[&split[..], &["-j2"]].concat())
            .status
            .success()
    );
    let files = tree(&one);
    assert_eq!(files, tree(&two), "the same at any thread count");
    let done: serde_json::Value =
        serde_json::from_slice(&std::fs::read(one.join("news.done.json")).unwrap()).unwrap();
    let outputs: Vec<&str> = done["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    assert_eq!(
        outputs,
        [
            "deu/news.xml.gz",
            "deu/news.jsonl.gz",
            "deu/news.parquet",
            "deu/news.shingles.gz",
            "eng/news.xml.gz",
            "eng/news.jsonl.gz",
            "eng/news.parquet",
            "eng/news.shingles.gz",
            "fra/news.xml.gz",
            "fra/news.jsonl.gz",
            "fra/news.parquet",
            "fra/news.shingles.gz",
            "news.stats.json"
        ]
    );
    for o in &outputs {
        assert!(files.contains_key(*o), "{o}");
    }
    // Each corpus holds its language's documents, as the JSONL says.
    for (lang, n) in [("eng", 2), ("deu", 2), ("fra", 1)] {
        let jsonl = String::from_utf8(gunzip(&one.join(lang).join("news.jsonl.gz"))).unwrap();
        let docs: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(docs.len(), n, "{lang}");
        for d in &docs {
            assert_eq!(d["language"], lang);
            assert!(d["language_score"].as_f64().unwrap() >= 0.65);
            assert_eq!(d["language_script"], "Latn");
        }
        check_xml(&gunzip(&one.join(lang).join("news.xml.gz")));
    }
    let stats: serde_json::Value =
        serde_json::from_slice(&std::fs::read(one.join("news.stats.json")).unwrap()).unwrap();
    assert_eq!(
        stats["parts"],
        serde_json::json!({"deu": 2, "eng": 2, "fra": 1})
    );
    // No document is sure enough of its language for a least score of 1: all are `und`.
    let und = dir.join("und");
    let o = process(
        &[&warc],
        &und,
        &[&split[..], &["--split-min-score", "1"]].concat(),
    );
    assert!(o.status.success());
    assert_eq!(
        gunzip(&und.join("und/news.jsonl.gz"))
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        5
    );
    // A rerun skips the input; without the split it is another configuration.
    let o = process(&[&warc], &one, &split);
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 inputs were done before"));
    assert_eq!(tree(&one), files);
    let o = process(&[&warc], &one, &["--format", "xml,jsonl"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 files done, 0 skipped"));
    // Bad scores are usage errors.
    let o = process(
        &[&warc],
        &one,
        &[&split[..], &["--split-min-score", "2"]].concat(),
    );
    assert_eq!(o.status.code(), Some(2));
}

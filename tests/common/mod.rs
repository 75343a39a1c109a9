//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The project's root directory (the tests are the `cowrex-cli` package's, in `cli/`).
pub fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The `cowrex` binary under test, run in the project's root directory.
pub fn cowrex() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cowrex"));
    c.current_dir(root());
    c
}

/// The project's shared data directory, or None (with a message) when it is absent.
pub fn shared_data(sub: &str) -> Option<PathBuf> {
    let p = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("../shared/data")
        .join(sub);
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "SKIPPED: {} is absent; this test needs ../shared/data",
            p.display()
        );
        None
    }
}

/// A fresh temporary directory, removed when dropped (also when a test fails and unwinds).
pub fn tempdir(name: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("cowrex-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

/// See [`tempdir`].
pub struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("fixtures")
        .join(name)
}

pub fn process(inputs: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let mut c = cowrex();
    c.arg("process")
        .arg("--no-progress")
        .args(inputs)
        .arg("-o")
        .arg(out)
        .args(extra);
    let o = c.output().unwrap();
    if !o.status.success() {
        eprintln!("stderr: {}", String::from_utf8_lossy(&o.stderr));
    }
    o
}

pub fn gunzip(p: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut v = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(p).unwrap())
        .read_to_end(&mut v)
        .unwrap();
    v
}

/// Parse a texrex XML corpus file wrapped in one root element; returns the number of docs.
pub fn check_xml(xml: &[u8]) -> usize {
    let mut wrapped = b"<corpus>\n".to_vec();
    wrapped.extend_from_slice(xml);
    wrapped.extend_from_slice(b"</corpus>\n");
    let mut r = quick_xml::Reader::from_reader(&wrapped[..]);
    let mut buf = Vec::new();
    let mut docs = 0;
    loop {
        match r.read_event_into(&mut buf) {
            Ok(quick_xml::events::Event::Start(e)) if e.name().as_ref() == "doc" => {
                assert!(e.try_get_attribute("language").unwrap().is_some());
                docs += 1
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("XML error at {}: {e}", r.buffer_position()),
        }
        buf.clear();
    }
    // One tag per line: every line is a tag or text, never a tag followed by more.
    for line in xml.split(|&b| b == b'\n').filter(|l| l.starts_with(b"<")) {
        assert!(
            line.ends_with(b">"),
            "tag line does not end with >: {}",
            String::from_utf8_lossy(line)
        );
    }
    docs
}

/// Check the outputs of one input: XML parses, stats add up, done.json lists the outputs.
/// Returns the parsed stats.
pub fn check_outputs(dir: &Path, stem: &str) -> serde_json::Value {
    let xml = gunzip(&dir.join(format!("{stem}.xml.gz")));
    let docs = check_xml(&xml);
    let stats: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(format!("{stem}.stats.json"))).unwrap())
            .unwrap();
    let sum = |k: &str| {
        stats[k]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum::<u64>()
    };
    let records = stats["records"].as_u64().unwrap();
    assert_eq!(
        sum("fates"),
        records,
        "fates must add up to records: {stats}"
    );
    assert_eq!(
        sum("records_by_type"),
        records,
        "types must add up to records: {stats}"
    );
    assert_eq!(stats["fates"]["written"].as_u64().unwrap_or(0), docs as u64);
    assert_eq!(stats["documents"].as_u64().unwrap(), docs as u64);
    assert_eq!(
        stats["bytes"]["xml"].as_u64().unwrap(),
        xml.len() as u64,
        "bytes.xml must be the XML written"
    );
    let done: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(format!("{stem}.done.json"))).unwrap())
            .unwrap();
    assert_eq!(done["records"], stats["records"]);
    for o in done["outputs"].as_array().unwrap() {
        assert!(dir.join(o.as_str().unwrap()).exists());
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    stats
}

/// Stats without the (non-deterministic) timings.
pub fn stats_without_time(dir: &Path, stem: &str) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(format!("{stem}.stats.json"))).unwrap())
            .unwrap();
    v.as_object_mut().unwrap().remove("time_ms");
    v
}

/// Decompress one gzip member.
pub fn gunzip_bytes(b: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut v = Vec::new();
    flate2::read::GzDecoder::new(b).read_to_end(&mut v).unwrap();
    v
}

// Generated pages and WARC records.

/// A deterministic pseudo-random generator (64-bit LCG).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SYLLABLES: [&str; 16] = [
    "ka", "lo", "mi", "ne", "ra", "su", "ti", "vo", "pe", "da", "gu", "fi", "ho", "ze", "bi", "ro",
];

pub fn word(rng: &mut Rng) -> String {
    (0..2 + rng.below(2))
        .map(|_| SYLLABLES[rng.below(16)])
        .collect()
}

/// A paragraph of running text: 5 sentences of 8 to 17 words.
pub fn paragraph(rng: &mut Rng) -> Vec<String> {
    let mut words = Vec::new();
    for _ in 0..5 {
        let n = 8 + rng.below(10);
        for i in 0..n {
            let mut w = word(rng);
            if i == 0 {
                w[..1].make_ascii_uppercase();
            }
            if i == n - 1 {
                w.push('.');
            } else if rng.below(7) == 0 {
                w.push(',');
            }
            words.push(w);
        }
    }
    words
}

pub fn page(title: &str, nav: &[String], paragraphs: &[Vec<String>]) -> String {
    let mut h = format!("<!DOCTYPE html><html><head><title>{title}</title></head><body><ul>");
    for n in nav {
        h.push_str(&format!("<li><a href=\"/{n}\">{n}</a></li>"));
    }
    h.push_str(&format!("</ul><h1>{title}</h1>"));
    for p in paragraphs {
        h.push_str(&format!("<p>{}</p>", p.join(" ")));
    }
    h.push_str("<div class=\"footer\">Copyright 2024 | Imprint | Privacy</div></body></html>");
    h
}

pub fn warc_record(url: &str, html: &str, n: usize) -> Vec<u8> {
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n{html}",
        html.len()
    );
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012}>\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    r.extend_from_slice(http.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A WARC (gzip per record) of `pages` generated articles, different for every `seed`.
pub fn article_warc(path: &Path, seed: u64, pages: usize) {
    use std::io::Write;
    let mut rng = Rng(seed);
    let mut out = std::fs::File::create(path).unwrap();
    let nav: Vec<String> = ["home", "news", "about"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for i in 0..pages {
        let paragraphs: Vec<Vec<String>> = (0..4).map(|_| paragraph(&mut rng)).collect();
        let url = format!("http://site{seed}.example/article/{i}");
        let rec = warc_record(&url, &page(&format!("Article {i}"), &nav, &paragraphs), i);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&rec).unwrap();
        out.write_all(&gz.finish().unwrap()).unwrap();
    }
}

/// Every file under `dir` (relative paths) with its bytes; `.stats.json` without timings.
pub fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
                continue;
            }
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let bytes = if rel.ends_with(".stats.json") {
                let mut v: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
                v.as_object_mut().unwrap().remove("time_ms");
                v.to_string().into_bytes()
            } else {
                std::fs::read(&p).unwrap()
            };
            out.insert(rel, bytes);
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The output files of a run in `dir`, with the stats' `input` (a path or a URL) left out, to
/// compare the outputs of one input read from different places.
pub fn outputs(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    tree(dir)
        .into_iter()
        .map(|(k, v)| {
            if !k.ends_with(".json") {
                return (k, v);
            }
            let mut j: serde_json::Value = serde_json::from_slice(&v).unwrap();
            j.as_object_mut().unwrap().remove("input");
            (k, j.to_string().into_bytes())
        })
        .collect()
}

//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `cowrex` binary under test.
pub fn cowrex() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cowrex"))
}

/// The project's shared data directory, or None (with a message) when it is absent.
pub fn shared_data(sub: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
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

/// A fresh temporary directory.
pub fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cowrex-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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

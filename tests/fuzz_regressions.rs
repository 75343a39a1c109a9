//! The fuzz targets' checks (`fuzz/checks.rs`) on the inputs the fuzzers found failing (each
//! kept in `fuzz/regressions/<target>/`, see `fuzz/README.md`) and on the repository's own
//! fixtures, so that what the fuzzers check stays true in the normal test suite.

#[path = "../fuzz/checks.rs"]
mod checks;
use crate::common;

use std::path::Path;

/// Every file of `fuzz/regressions/<target>/`, through the target's check.
fn regressions(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("fuzz/regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut n = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        eprintln!("{}", path.display());
        check(&std::fs::read(&path).unwrap());
        n += 1;
    }
    n
}

#[test]
fn warc_reader() {
    regressions("warc", checks::warc);
    for fixture in ["sample.warc.gz", "broken.warc.gz"] {
        let bytes = std::fs::read(common::fixture(fixture)).unwrap();
        checks::warc(&bytes);
        // Cut anywhere, still no panic and everything within the file.
        for cut in (0..bytes.len()).step_by(997) {
            checks::warc(&bytes[..cut]);
        }
    }
}

#[test]
fn http_and_charsets() {
    regressions("http", checks::http);
    checks::http(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"shift_jis\r\n\r\n\x93\x8c",
    );
    checks::http(b"\xef\xbb\xbfno header at all \x00\x01");
}

#[test]
fn segmenter() {
    regressions("segment", checks::segment);
    let page = b"<div title='x\"><p>a<b>b</p><script>1<2</script><table><tr><td>c</table>";
    checks::segment(&[[0].as_slice(), page].concat());
    checks::segment(&[[1].as_slice(), page].concat());
    let deep = "<div><p>x</p>".repeat(300);
    checks::segment(&[[0].as_slice(), deep.as_bytes()].concat());
}

#[test]
fn writers() {
    regressions("writers", checks::writers);
    checks::writers(
        b"https://example.org/a?b=1&c=\"2\" \x01\xef\xbf\xbe\n<title>A & B</title><p>Text with <b>bold</b> & more, a@b.org.</p><pre>x\n  y</pre>",
    );
}

#[test]
fn shingle_lines() {
    regressions("shingles", checks::shingles);
    let mut lines = Vec::new();
    cowrex::shingle::write_lines(&mut lines, &[0, 42, u64::MAX], &"a".repeat(36), 7).unwrap();
    checks::shingles(&lines);
    let accepted = lines
        .split(|&b| b == b'\n')
        .filter(|l| cowrex::shingle::dedup::parse_line(l).is_some())
        .count();
    assert_eq!(accepted, 3);
}

#[test]
fn manifests() {
    regressions("manifest", checks::manifest);
    checks::manifest(b"a/b.warc.gz\n../c.warc\n/abs/d.warc\nfile:///e.warc\nhttps://x.org/%2e%2e/f.warc.gz\n.gz\n");
}

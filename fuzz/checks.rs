//! What each fuzz target checks, shared by the targets (`fuzz_targets/`) and by the normal
//! test suite (`tests/fuzz_regressions.rs`), which runs the inputs of `fuzz/regressions/`.
#![allow(dead_code)]

use cowrex::Extractor;
use cowrex::analyze::DupBlocks;
use cowrex::html::{self, Limits, Syntax};
use cowrex::output::{jsonl, xml};
use cowrex::pipeline::manifest;
use cowrex::shingle::{self, dedup};
use cowrex::warc::{self, ReadItem, ReadOptions};
use cowrex::{decode, warc::http};
use std::path::{Component, Path};
use std::sync::LazyLock;

/// A file name of this process and thread, in the RAM disk where there is one.
fn scratch(what: &str) -> std::path::PathBuf {
    let dir = Path::new("/dev/shm");
    let dir = if dir.is_dir() {
        dir.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    dir.join(format!(
        "cowrex-fuzz-{what}-{}-{thread}",
        std::process::id()
    ))
}

/// The WARC reader with recovery: any bytes give records or counted damage, never a panic or
/// a loop, and what it reports stays within the file.
pub fn warc(data: &[u8]) {
    // The reader reads files.
    let path = scratch("warc");
    std::fs::write(&path, data).unwrap();
    let len = data.len() as u64;
    let (mut items, mut record_bytes, mut skipped_bytes, mut last_offset) =
        (0u64, 0u64, 0u64, 0u64);
    // A small payload cap, so that the fuzzer reaches records over it.
    let opts = ReadOptions {
        max_payload: 1 << 12,
    };
    let read = warc::read_file(&path, opts, |item| {
        items += 1;
        match item {
            ReadItem::Record(r) | ReadItem::TooLarge(r) | ReadItem::Broken(r, _) => {
                assert!(r.offset >= last_offset, "records in file order");
                assert!(r.offset + r.length <= len, "a record within the file");
                last_offset = r.offset;
                record_bytes += r.length;
            }
            ReadItem::Skipped { bytes, .. } => skipped_bytes += bytes,
        }
        true
    });
    let _ = std::fs::remove_file(&path);
    assert_eq!(read.unwrap(), len);
    assert!(record_bytes <= len && skipped_bytes <= len);
    assert!(items <= len + 2, "{items} items from {len} bytes");
}

/// The HTTP header and charset path: any response block gives headers, a MIME type, a
/// charset and decoded text, with no XML-illegal character left after stripping.
pub fn http(data: &[u8]) {
    let resp = http::parse(data);
    assert!(resp.body_start <= data.len());
    let _ = resp.mime();
    let charset = resp.charset();
    let payload = &data[resp.body_start..];
    for tld in [None, Some("de"), Some("jp"), Some("ru")] {
        let sniffed = decode::sniff(payload, charset, tld);
        assert!(sniffed.bom_len <= payload.len());
        let (text, _) = decode::decode(&payload[sniffed.bom_len..], sniffed.encoding);
        let mut text = decode::nfc(&text).into_owned();
        decode::strip_xml_illegal(&mut text);
        assert!(!text.chars().any(decode::is_xml_illegal));
    }
}

/// The HTML segmenter in both syntaxes (HTML5 and texrex's scanner), with caps low enough
/// that the fuzzer meets them: no panic, the caps hold.
pub fn segment(data: &[u8]) {
    let Some((&first, page)) = data.split_first() else {
        return;
    };
    let syntax = if first & 1 == 0 {
        Syntax::Html5
    } else {
        Syntax::Texrex
    };
    let limits = Limits {
        max_depth: 64,
        max_blocks: 200,
        max_work: 20_000,
    };
    let seg = html::segment(page, limits, syntax);
    // The last block may be an empty one after the cap (texrex keeps it).
    assert!(
        seg.blocks.len() <= limits.max_blocks + 1,
        "{} blocks",
        seg.blocks.len()
    );
    let _ = html::markup_words(page);
    let _ = html::raw_text_lines(page);
}

/// The writers: any page, with any header values, gives XML that parses, with one start tag per
/// line and no character XML forbids; VRT whose structural tags balance; and a JSON line that
/// parses. Attribute values read back as they were.
pub fn writers(data: &[u8]) {
    // The first line: a header value (URL, dates, record id); the rest: the page.
    let cut = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    // A header value holds no line break (the header ends at one).
    let value: String = String::from_utf8_lossy(&data[..cut]).replace(['\r', '\n'], "");
    let page = data.get(cut + 1..).unwrap_or_default();
    let mut doc = EXTRACTOR.extract(page, Some(&value));
    doc.meta.url = value.clone();
    doc.meta.record_id = Some(value.clone());
    doc.meta.warc_date = Some(value.clone());
    doc.meta.http_date = Some(value.clone());

    let mut out = Vec::new();
    xml::write_doc(&mut out, &doc, xml::Lines::Xml, DupBlocks::Mark);
    let text = std::str::from_utf8(&out).expect("XML is UTF-8");
    assert!(
        !text.chars().any(cowrex::decode::is_xml_illegal),
        "{text:?}"
    );
    let mut reader = quick_xml::Reader::from_str(text);
    let mut url = None;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(e)) if e.name().as_ref() == "doc" => {
                let a = e
                    .try_get_attribute("url")
                    .unwrap()
                    .expect("a url attribute");
                url = Some(
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .unwrap()
                        .into_owned(),
                );
            }
            Ok(_) => {}
            Err(e) => panic!("XML does not parse: {e}: {text:?}"),
        }
    }
    // Characters XML forbids are left out of the attribute; an XML reader reads a tab in it
    // as a space.
    let mut legal = value.clone();
    cowrex::decode::strip_xml_illegal(&mut legal);
    assert_eq!(url, Some(legal.replace('\t', " ")));
    for line in text.lines() {
        // Elements are lines of their own: texrex's format is line-oriented.
        assert!(!line.contains('<') || line.starts_with('<'), "{line:?}");
        assert!(!line.starts_with('<') || line.ends_with('>'), "{line:?}");
    }

    let mut out = Vec::new();
    xml::write_doc(&mut out, &doc, xml::Lines::Vrt, DupBlocks::Mark);
    let vrt = std::str::from_utf8(&out).expect("VRT is UTF-8");
    let mut open: Vec<&str> = Vec::new();
    for line in vrt.lines() {
        assert!(!line.is_empty(), "an empty VRT line");
        if let Some(name) = line.strip_prefix("</") {
            assert_eq!(open.pop(), Some(name.trim_end_matches('>')), "{vrt}");
        } else if let Some(tag) = line.strip_prefix('<') {
            assert!(tag.ends_with('>'), "{line:?}");
            if !tag.ends_with("/>") {
                open.push(tag.split([' ', '>']).next().unwrap());
            }
        } else {
            assert!(!line.contains('<'), "{line:?}");
        }
    }
    assert!(open.is_empty(), "unclosed {open:?}");

    let mut out = Vec::new();
    jsonl::write_doc(&mut out, &doc, DupBlocks::Mark, Some(true));
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
    assert_eq!(out.last(), Some(&b'\n'));
    let json: serde_json::Value = serde_json::from_slice(&out).expect("JSONL parses");
    assert_eq!(json["url"].as_str(), Some(value.as_str()));
}

static EXTRACTOR: LazyLock<Extractor> = LazyLock::new(Extractor::builtin);

/// The shingle line reader of `dedup`: a line it accepts is a well-formed shingle line and
/// reads back exactly as `shingle::write_lines` writes it.
pub fn shingles(data: &[u8]) {
    for line in data.split(|&b| b == b'\n') {
        if let Some(s) = dedup::parse_line(line) {
            let id = std::str::from_utf8(&s.id).expect("an accepted id is ASCII");
            let mut again = Vec::new();
            shingle::write_lines(&mut again, &[s.hash], id, s.size as usize).unwrap();
            assert_eq!(&again[..again.len() - 1], line);
        }
    }
}

/// The manifest reader: any manifest reads; every line it resolves mirrors to a path under
/// the output directory (no root, no `..`).
pub fn manifest(data: &[u8]) {
    let path = scratch("manifest");
    std::fs::write(&path, data).unwrap();
    let lines = manifest::read(&path);
    let _ = std::fs::remove_file(&path);
    let Ok(lines) = lines else {
        return;
    };
    for base in [
        None,
        Some("/data/in"),
        Some("https://data.example.org/crawl/"),
    ] {
        for line in &lines {
            if let Ok(input) = manifest::resolve(line, base) {
                let stem = Path::new(&input.stem);
                assert!(
                    !input.stem.is_empty()
                        && stem.components().all(|c| matches!(c, Component::Normal(_))),
                    "{line:?} under {base:?} mirrors to {:?}",
                    input.stem
                );
            }
        }
    }
}

//! End-to-end tests of `cowrex process`, `extract` and `features`.

use crate::common;

use std::path::Path;

use common::*;

#[test]
fn sample_is_processed_and_deterministic_across_thread_counts() {
    let (a, b) = (tempdir("det-j1"), tempdir("det-j4"));
    assert!(
        process(&[&fixture("sample.warc.gz")], &a, &["-j1"])
            .status
            .success()
    );
    assert!(
        process(&[&fixture("sample.warc.gz")], &b, &["-j4"])
            .status
            .success()
    );
    let stats = check_outputs(&a, "sample");
    check_outputs(&b, "sample");
    assert_eq!(
        std::fs::read(a.join("sample.xml.gz")).unwrap(),
        std::fs::read(b.join("sample.xml.gz")).unwrap()
    );
    assert_eq!(
        stats_without_time(&a, "sample"),
        stats_without_time(&b, "sample")
    );
    // The sample's pages: 6 HTML responses written, the image, the 404 and the rest counted.
    assert_eq!(stats["fates"]["written"], 6);
    assert_eq!(stats["fates"]["skipped.not_html"], 1);
    assert_eq!(stats["fates"]["skipped.http_status"], 1);
    assert_eq!(stats["records_by_type"]["revisit"], 1);
    // Charsets from BOM, HTTP header, meta and detection, all decoded.
    let xml = String::from_utf8(gunzip(&a.join("sample.xml.gz"))).unwrap();
    for text in [
        "Café Müller öffnet wieder",
        "Zażółć gęślą jaźń",
        "東京の新しい図書館",
        "The river festival returns",
    ] {
        assert!(xml.contains(text), "missing {text}");
    }
    assert!(
        xml.contains(r#"sourcecharset="SHIFT_JIS""#)
            && xml.contains(r#"sourcecharset="ISO-8859-2""#)
    );
    assert!(!xml.contains("not text"), "script content leaked");
    // texrex's line format: one tag per line, 36-character ids, provenance metas.
    let first = xml.lines().next().unwrap();
    assert!(first.starts_with(r#"<doc url="https://example.org/news/festival" id=""#));
    let id = &first[first.find(" id=\"").unwrap() + 5..][..36];
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(xml.contains("<meta name=\"arcfile\" content=\"sample.warc.gz\" />"));
    assert!(xml.contains("<title>\nThe river festival returns\n</title>"));
}

#[test]
fn arc_offsets_point_at_the_records() {
    let out = tempdir("offsets");
    assert!(
        process(&[&fixture("sample.warc.gz")], &out, &[])
            .status
            .success()
    );
    let xml = String::from_utf8(gunzip(&out.join("sample.xml.gz"))).unwrap();
    let warc = std::fs::read(fixture("sample.warc.gz")).unwrap();
    let num = |l: &str| {
        l.split("content=\"")
            .nth(1)
            .unwrap()
            .trim_end_matches("\" />")
            .parse::<usize>()
            .unwrap()
    };
    let offsets: Vec<usize> = xml
        .lines()
        .filter(|l| l.starts_with("<meta name=\"arcoffset\""))
        .map(num)
        .collect();
    let lengths: Vec<usize> = xml
        .lines()
        .filter(|l| l.starts_with("<meta name=\"arclength\""))
        .map(num)
        .collect();
    let urls: Vec<&str> = xml
        .lines()
        .filter(|l| l.starts_with("<doc "))
        .map(|l| l.split('"').nth(1).unwrap())
        .collect();
    for ((o, l), url) in offsets.iter().zip(&lengths).zip(&urls) {
        let member = common::gunzip_bytes(&warc[*o..o + l]);
        let text = String::from_utf8_lossy(&member);
        assert!(text.starts_with("WARC/1.1"));
        assert!(text.contains(&format!("WARC-Target-URI: {url}")));
    }
}

/// The documents of `dir/stem.jsonl.gz`, without their provenance (and id, unless `keep_id`):
/// what two copies of a crawl in different containers must agree on.
fn documents_apart_from_provenance(
    dir: &Path,
    stem: &str,
    keep_id: bool,
) -> Vec<serde_json::Value> {
    let jsonl = String::from_utf8(gunzip(&dir.join(format!("{stem}.jsonl.gz")))).unwrap();
    jsonl
        .lines()
        .map(|l| {
            let mut d: serde_json::Value = serde_json::from_str(l).unwrap();
            let o = d.as_object_mut().unwrap();
            o.remove("provenance");
            if !keep_id {
                o.remove("id");
            }
            d
        })
        .collect()
}

#[test]
fn arc_files_give_the_documents_of_their_warc_twin() {
    let pairs = [
        Some((fixture("sample-arc.arc.gz"), fixture("sample.warc.gz"), 6)),
        shared_data("warc").map(|d| {
            let stem = "ukwa_IAH-20080430204825-00000-blackbook-truncated";
            (
                d.join(format!("{stem}.arc.gz")),
                d.join(format!("{stem}.warc.gz")),
                2,
            )
        }),
    ];
    for (arc, warc, documents) in pairs.into_iter().flatten() {
        let (a, w) = (tempdir("arc"), tempdir("arc-warc"));
        for (input, out) in [(&arc, &a), (&warc, &w)] {
            assert!(
                process(&[input], out, &["--format", "jsonl,xml", "-j2"])
                    .status
                    .success()
            );
        }
        let stem = cowrex::pipeline::Input::file(arc.clone()).stem;
        let warc_stem = cowrex::pipeline::Input::file(warc.clone()).stem;
        let from_arc = documents_apart_from_provenance(&a, &stem, false);
        assert_eq!(from_arc.len(), documents, "{}", arc.display());
        assert_eq!(
            from_arc,
            documents_apart_from_provenance(&w, &warc_stem, false),
            "{}",
            arc.display()
        );
        // The provenance names the ARC file, and its offset and length are the record's member.
        let bytes = std::fs::read(&arc).unwrap();
        let jsonl = String::from_utf8(gunzip(&a.join(format!("{stem}.jsonl.gz")))).unwrap();
        for l in jsonl.lines() {
            let d: serde_json::Value = serde_json::from_str(l).unwrap();
            let p = &d["provenance"];
            let name = arc.file_name().unwrap().to_str().unwrap();
            assert_eq!(p["warc_file"], name);
            assert!(p["warc_date"].as_str().unwrap().ends_with('Z'), "{p}");
            let (o, n) = (
                p["offset"].as_u64().unwrap() as usize,
                p["length"].as_u64().unwrap() as usize,
            );
            let member =
                String::from_utf8_lossy(&common::gunzip_bytes(&bytes[o..o + n])).into_owned();
            assert!(
                member.starts_with(&format!("{} ", d["url"].as_str().unwrap())),
                "{member:.80}"
            );
        }
        let stats = check_outputs(&a, &stem);
        assert_eq!(
            stats["records_by_type"]["warcinfo"], 1,
            "the filedesc record: {stats}"
        );
        assert_eq!(stats["fates"]["written"], documents as u64);
    }
}

/// The records of a `.warc.gz`, each decompressed.
fn records_of(warc: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(warc).unwrap();
    let mut records = Vec::new();
    cowrex::warc::read_file(
        warc,
        cowrex::warc::ReadOptions {
            max_payload: 1 << 30,
        },
        |item| {
            if let cowrex::warc::ReadItem::Record(r) = item {
                let (o, n) = (r.offset as usize, r.length as usize);
                records.push(common::gunzip_bytes(&bytes[o..o + n]));
            }
            true
        },
    )
    .unwrap();
    records
}

#[test]
fn zstd_warcs_give_the_documents_of_their_gzip_twin() {
    let records = records_of(&fixture("sample.warc.gz"));
    assert!(records.len() > 20);
    let dict = zstd::dict::from_samples(&records, 2048).unwrap();
    let frame = |r: &[u8], d: Option<&[u8]>| {
        let mut c = match d {
            Some(d) => zstd::bulk::Compressor::with_dictionary(9, d).unwrap(),
            None => zstd::bulk::Compressor::new(9).unwrap(),
        };
        c.include_checksum(true).unwrap();
        c.compress(r).unwrap()
    };
    let mut dictionary_frame = vec![0x5d, 0x2a, 0x4d, 0x18];
    dictionary_frame.extend_from_slice(&(dict.len() as u32).to_le_bytes());
    dictionary_frame.extend_from_slice(&dict);
    let gz = tempdir("zst-gz");
    assert!(
        process(&[&fixture("sample.warc.gz")], &gz, &["--format", "jsonl"])
            .status
            .success()
    );
    let expected = documents_apart_from_provenance(&gz, "sample", true);
    let dir = tempdir("zst");
    for (name, head, d) in [
        ("plain", Vec::new(), None),
        ("dict", dictionary_frame.clone(), Some(&dict[..])),
    ] {
        let frames: Vec<Vec<u8>> = records.iter().map(|r| frame(r, d)).collect();
        let mut file = head.clone();
        for f in &frames {
            file.extend_from_slice(f);
        }
        let path = dir.join(format!("{name}.warc.zst"));
        std::fs::write(&path, &file).unwrap();
        let out = dir.join(name);
        assert!(
            process(&[&path], &out, &["--format", "jsonl", "-j2"])
                .status
                .success()
        );
        assert_eq!(
            documents_apart_from_provenance(&out, name, true),
            expected,
            "{name}"
        );
        assert_eq!(
            stats_without_time(&out, name)["fates"],
            stats_without_time(&gz, "sample")["fates"]
        );
        // Each document's offset and length are its record's frame.
        let jsonl = String::from_utf8(gunzip(&out.join(format!("{name}.jsonl.gz")))).unwrap();
        for l in jsonl.lines() {
            let p = &serde_json::from_str::<serde_json::Value>(l).unwrap()["provenance"];
            let (o, n) = (
                p["offset"].as_u64().unwrap() as usize,
                p["length"].as_u64().unwrap() as usize,
            );
            let record = match d {
                Some(d) => zstd::bulk::Decompressor::with_dictionary(d)
                    .unwrap()
                    .decompress(&file[o..o + n], 1 << 20)
                    .unwrap(),
                None => zstd::bulk::decompress(&file[o..o + n], 1 << 20).unwrap(),
            };
            assert!(record.starts_with(b"WARC/1.1"), "{name} at {o}");
        }
        // Damage in one frame costs that frame's record only.
        let target = records
            .iter()
            .position(|r| {
                let r = String::from_utf8_lossy(r);
                r.contains("WARC-Type: response") && r.contains("https://example.pl/park")
            })
            .unwrap();
        let at = head.len()
            + frames[..target].iter().map(Vec::len).sum::<usize>()
            + frames[target].len() / 2;
        let mut damaged = file.clone();
        damaged[at] ^= 0x55;
        let path = dir.join(format!("{name}-damaged.warc.zst"));
        std::fs::write(&path, &damaged).unwrap();
        let out = dir.join(format!("{name}-damaged"));
        assert!(
            process(&[&path], &out, &["--format", "jsonl"])
                .status
                .success()
        );
        let got = documents_apart_from_provenance(&out, &format!("{name}-damaged"), true);
        assert_eq!(got.len(), expected.len() - 1, "{name}");
        assert!(got.iter().all(|d| d["url"] != "https://example.pl/park"));
        let stats = stats_without_time(&out, &format!("{name}-damaged"));
        assert_eq!(
            stats["stream_errors"]["corrupt_zstd_or_record"], 1,
            "{stats}"
        );
    }
}

#[test]
fn broken_input_loses_nothing_else() {
    let out = tempdir("broken");
    let o = process(&[&fixture("broken.warc.gz")], &out, &["-j2"]);
    assert!(o.status.success());
    let stats = check_outputs(&out, "broken");
    let xml = String::from_utf8(gunzip(&out.join("broken.xml.gz"))).unwrap();
    for i in 1..=5 {
        assert!(
            xml.contains(&format!("url=\"https://example.org/good/{i}\"")),
            "good/{i} lost"
        );
    }
    assert!(xml.contains("url=\"https://example.org/bad-utf8\""));
    let fates = &stats["fates"];
    assert_eq!(fates["skipped.payload_too_large"], 1, "{stats}");
    // Two damaged stretches: the garbage between members and the cut member, each alone (the
    // whole records before them are not counted as damage).
    assert_eq!(
        stats["stream_errors"]["corrupt_gzip_or_record"], 2,
        "{stats}"
    );
    assert_eq!(fates["skipped.capped"], 1, "the 100,000-deep page: {stats}");
    assert_eq!(
        stats["capped"]["depth"], 1,
        "capped and fates agree: {stats}"
    );
    assert_eq!(fates["skipped.binary"], 1, "{stats}");
    assert_eq!(stats["malformed_text"], 1);
    // Garbage between members and the truncated member are skipped and reported.
    assert!(
        stats["stream_errors"]["corrupt_gzip_or_record"]
            .as_u64()
            .unwrap()
            >= 2,
        "{stats}"
    );
}

#[test]
fn a_file_cut_in_its_last_record_says_so() {
    let dir = tempdir("cut");
    let whole = dir.join("whole.warc.gz");
    article_warc(&whole, 11, 3);
    let bytes = std::fs::read(&whole).unwrap();
    // Where the last gzip member starts.
    let last = memchr::memmem::rfind(&bytes, &[0x1f, 0x8b, 0x08]).unwrap();
    let cut = dir.join("cut.warc.gz");
    std::fs::write(&cut, &bytes[..last + (bytes.len() - last) * 3 / 4]).unwrap();
    let out = dir.join("out");
    let o = process(&[&cut], &out, &["--format", "xml,jsonl"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stats = check_outputs(&out, "cut");
    assert_eq!(stats["fates"]["written"], 3, "{stats}");
    assert_eq!(stats["warc_truncated"]["end_of_input"], 1, "{stats}");
    assert_eq!(stats["stream_errors"]["truncated_record"], 1, "{stats}");
    let cut_len = std::fs::metadata(&cut).unwrap().len() - last as u64;
    assert_eq!(stats["stream_error_bytes"], cut_len, "{stats}");
    let xml = String::from_utf8(gunzip(&out.join("cut.xml.gz"))).unwrap();
    let heads: Vec<&str> = xml.lines().filter(|l| l.starts_with("<doc ")).collect();
    assert_eq!(heads.len(), 3);
    assert!(heads[..2].iter().all(|h| !h.contains("truncated=")));
    assert!(
        heads[2].contains(" truncated=\"end_of_input\""),
        "{}",
        heads[2]
    );
    let jsonl = String::from_utf8(gunzip(&out.join("cut.jsonl.gz"))).unwrap();
    let marks: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["provenance"]["truncated"].clone()
        })
        .collect();
    assert_eq!(
        marks,
        [
            serde_json::Value::Null,
            serde_json::Value::Null,
            "end_of_input".into()
        ]
    );
}

#[test]
fn the_work_budget_cuts_pages_the_same_way_everywhere() {
    let dir = tempdir("work");
    let page = dir.join("deep.html");
    let html = format!(
        "<html><body>{}{}</body></html>",
        "<div>".repeat(500),
        "<p>some text here</p>".repeat(400)
    );
    std::fs::write(&page, &html).unwrap();
    let extract = |extra: &[&str]| -> serde_json::Value {
        let o = cowrex()
            .args(["extract", "--format", "json"])
            .args(extra)
            .arg(&page)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let whole = extract(&[]);
    assert_eq!(whole["capped"], serde_json::Value::Null);
    let cut = extract(&["--max-work", "100000"]);
    assert_eq!(cut["capped"], "work");
    let (n, m) = (
        whole["blocks"].as_array().unwrap().len(),
        cut["blocks"].as_array().unwrap().len(),
    );
    assert!(m > 0 && m < n, "{m} of {n} blocks");
    assert_eq!(extract(&["--max-work", "100000"]), cut);
    // In a run: written documents cut by the budget and records it left without text are
    // both counted under `capped.work`, the latter as `skipped.capped`.
    let warc = dir.join("articles.warc.gz");
    article_warc(&warc, 5, 4);
    let out = dir.join("out");
    let o = process(&[&warc], &out, &["--max-work", "3"]);
    assert!(o.status.success());
    let stats = check_outputs(&out, "articles");
    assert_eq!(stats["fates"]["skipped.capped"], 4, "{stats}");
    assert_eq!(stats["capped"]["work"], 4, "{stats}");
}

#[test]
fn caps_are_configurable() {
    let out = tempdir("caps");
    let o = process(
        &[&fixture("broken.warc.gz")],
        &out,
        &[
            "--max-payload",
            "60000000",
            "--max-depth",
            "200000",
            "--max-blocks",
            "1000",
        ],
    );
    assert!(o.status.success());
    let stats = check_outputs(&out, "broken");
    assert!(stats["fates"].get("skipped.payload_too_large").is_none());
    assert_eq!(
        stats["capped"]["blocks"], 1,
        "the 50 MB page hits the block cap: {stats}"
    );
    let xml = String::from_utf8(gunzip(&out.join("broken.xml.gz"))).unwrap();
    assert!(
        xml.contains("\ndeep text\n"),
        "with a higher depth cap the deep page is written"
    );
}

#[test]
fn unreadable_inputs_fail_clearly_without_stopping_the_batch() {
    let out = tempdir("unreadable");
    let missing = std::path::Path::new("/nonexistent/crawl.warc.gz");
    let o = process(&[missing, &fixture("sample.warc.gz")], &out, &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot read /nonexistent/crawl.warc.gz"),
        "{err}"
    );
    check_outputs(&out, "sample");
}

/// A record of any type with a plain-text block.
fn raw_record(warc_type: &str, content_type: &str, block: &[u8], n: usize) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {warc_type}\r\nWARC-Target-URI: https://example.org/{n}\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012}>\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A page stored as a `resource` record (as browser-based crawlers store pages) is analysed
/// as a response's page is; a `revisit` record has its own fate; every record is counted.
#[test]
fn resource_records_are_pages_and_revisits_have_their_own_fate() {
    let out = tempdir("record-types");
    let warc = out.join("types.warc");
    let article = sample_page();
    let mut bytes = raw_record(
        "resource",
        "text/html; charset=utf-8",
        article.as_bytes(),
        1,
    );
    bytes.extend(raw_record(
        "resource",
        "image/png",
        b"\x89PNG\r\n\x1a\n....",
        2,
    ));
    bytes.extend(raw_record(
        "revisit",
        "application/http; msgtype=response",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
        3,
    ));
    bytes.extend(warc_record("https://example.org/4", &article, 4));
    std::fs::write(&warc, &bytes).unwrap();
    let o = process(&[&warc], &out, &["--format", "jsonl"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stats = stats_without_time(&out, "types");
    assert_eq!(stats["records"], 4, "{stats}");
    assert_eq!(stats["fates"]["written"], 2, "{stats}");
    assert_eq!(stats["fates"]["skipped.not_html"], 1, "{stats}");
    assert_eq!(stats["fates"]["skipped.revisit"], 1, "{stats}");
    assert_eq!(stats["records_by_type"]["resource"], 2, "{stats}");
    let lines = String::from_utf8(gunzip(&out.join("types.jsonl.gz"))).unwrap();
    let docs: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), 2);
    // The resource record's page gives the text the response's gives, from its own URL.
    assert_eq!(docs[0]["url"], "https://example.org/1");
    assert_eq!(docs[1]["url"], "https://example.org/4");
    assert!(!docs[0]["text"].as_str().unwrap().is_empty());
    assert_eq!(docs[0]["text"], docs[1]["text"]);
    // The documents iterator selects the same records.
    let mut stream = cowrex::Extractor::builtin()
        .read_warc(warc.to_str().unwrap(), 1)
        .unwrap();
    let urls: Vec<String> = (&mut stream).map(|d| d.unwrap().meta.url).collect();
    assert_eq!(urls, ["https://example.org/1", "https://example.org/4"]);
    assert_eq!(stream.stats().fates["skipped.revisit"], 1);
}

#[test]
fn inputs_without_warc_records_fail_with_their_reason() {
    let dir = tempdir("not-warc");
    let out = dir.join("out");
    let junk = dir.join("junk.warc");
    std::fs::write(&junk, b"this is not a warc file\n").unwrap();
    let random = dir.join("random.warc.gz");
    let mut rng = Rng(7);
    let bytes: Vec<u8> = (0..100_000).map(|_| rng.next() as u8).collect();
    std::fs::write(&random, &bytes).unwrap();
    let empty = dir.join("empty.warc");
    std::fs::write(&empty, b"").unwrap();
    let wet = dir.join("text.warc");
    let mut w = raw_record("warcinfo", "application/warc-fields", b"software: x\r\n", 0);
    w.extend(raw_record(
        "conversion",
        "text/plain",
        b"Some extracted text.",
        1,
    ));
    std::fs::write(&wet, &w).unwrap();
    let inputs = [&junk, &random, &empty, &wet, &fixture("sample.warc.gz")];
    let paths: Vec<&std::path::Path> = inputs.iter().map(|p| p.as_path()).collect();
    let o = process(&paths, &out, &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    for line in [
        "junk.warc: no WARC or ARC record in its 24 bytes: not a web archive",
        "random.warc.gz: no WARC or ARC record in its 100000 bytes: not a web archive",
        "empty.warc: empty file: no WARC or ARC record",
        "text.warc: a WET file",
    ] {
        assert!(err.contains(line), "{line}: {err}");
    }
    assert!(err.contains("1 files done, 0 skipped, 4 failed"), "{err}");
    for (stem, input_bytes) in [("junk", 24), ("random", 100_000), ("empty", 0)] {
        let stats: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join(format!("{stem}.stats.json"))).unwrap())
                .unwrap();
        assert_eq!(stats["records"], 0, "{stem}");
        assert_eq!(stats["stream_errors"]["not_warc"], 1, "{stem}");
        assert_eq!(stats["stream_error_bytes"], input_bytes, "{stem}");
        assert_eq!(stats["bytes"]["input"], input_bytes, "{stem}");
        assert!(!out.join(format!("{stem}.done.json")).exists(), "{stem}");
        assert!(!out.join(format!("{stem}.xml.gz")).exists(), "{stem}");
    }
    assert!(!out.join("text.done.json").exists());
    assert!(out.join("sample.done.json").exists());
    // `status` counts them as failed; the library stream says why.
    let manifest = dir.join("inputs.txt");
    let lines: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    std::fs::write(&manifest, lines.join("\n") + "\n").unwrap();
    let status = cowrex()
        .args(["status", "--manifest"])
        .arg(&manifest)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&status.stdout).trim(),
        "5 inputs: 1 done, 4 failed, 0 missing"
    );
    let extractor = cowrex::Extractor::builtin();
    for p in [&junk, &empty, &wet] {
        let mut docs = extractor.read_warc(p.to_str().unwrap(), 1).unwrap();
        let items: Vec<_> = (&mut docs).collect();
        let input = p.display().to_string();
        assert!(
            matches!(items.last(), Some(Err(e)) if e.kind() == cowrex::error::ErrorKind::Input
                && e.concerns() == Some(input.as_str())
                && (e.message().contains("WARC") || e.message().contains("WET"))),
            "{input}: {items:?}"
        );
        assert_eq!(docs.stats().stream_errors["not_warc"], 1, "{input}");
    }
}

#[test]
fn compressed_payloads_are_decoded_and_capped_by_what_they_hold() {
    use std::io::Write;
    let dir = tempdir("content-encoding");
    let gzip = |data: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let response = |body: &[u8]| {
        let mut b = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Encoding: gzip\r\n\
             Content-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        b.extend_from_slice(body);
        b
    };
    let page = b"<html><body><p>This page was stored as the server sent it, compressed with gzip, \
        and its text is still read in full by the pipeline.</p></body></html>";
    let mut bomb = b"<html><body><p>".to_vec();
    bomb.extend(std::iter::repeat_n(b' ', 2_000_000));
    let mut warc = raw_record(
        "response",
        "application/http; msgtype=response",
        &response(&gzip(page)),
        1,
    );
    warc.extend(raw_record(
        "response",
        "application/http; msgtype=response",
        &response(&gzip(&bomb)),
        2,
    ));
    let input = dir.join("encoded.warc");
    std::fs::write(&input, &warc).unwrap();
    let o = process(&[&input], &dir.join("out"), &["--max-payload", "1000000"]);
    assert!(o.status.success());
    let stats = check_outputs(&dir.join("out"), "encoded");
    assert_eq!(stats["fates"]["written"], 1, "{stats}");
    assert_eq!(stats["fates"]["skipped.payload_too_large"], 1, "{stats}");
    let xml = String::from_utf8(gunzip(&dir.join("out").join("encoded.xml.gz"))).unwrap();
    assert!(xml.contains("compressed with gzip"));
}

#[test]
fn utf8_pages_declaring_a_legacy_charset_are_read_as_utf8() {
    let dir = tempdir("declared-charset");
    let chinese = "这是一个用UTF-8写成的中文网页，它的元标记却说它是GB2312编码。";
    let utf8_page = format!(
        "<html><head><meta charset=\"gb2312\"><title>中文网页</title></head>\
         <body><p>{chinese}</p></body></html>"
    );
    // The same declaration over GBK bytes: 中文网页，用GBK写成。
    let mut gbk_page = b"<html><head><meta charset=\"gb2312\"></head><body><p>".to_vec();
    gbk_page.extend_from_slice(
        b"\xd6\xd0\xce\xc4\xcd\xf8\xd2\xb3\xa3\xac\xd3\xc3GBK\xd0\xb4\xb3\xc9\xa1\xa3",
    );
    gbk_page.extend_from_slice(b"</p></body></html>");
    // No charset in the HTTP header: the <meta> declares it.
    let response = |body: &[u8]| {
        let mut b = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        b.extend_from_slice(body);
        b
    };
    let http = "application/http; msgtype=response";
    let mut warc = raw_record("response", http, &response(utf8_page.as_bytes()), 1);
    warc.extend(raw_record("response", http, &response(&gbk_page), 2));
    let input = dir.join("declared.warc");
    std::fs::write(&input, &warc).unwrap();
    let out = dir.join("out");
    assert!(
        process(&[&input], &out, &["--format", "xml,jsonl"])
            .status
            .success()
    );
    let stats = check_outputs(&out, "declared");
    assert_eq!(stats["fates"]["written"], 2, "{stats}");
    assert_eq!(stats["charset_evidence"]["valid_utf8"], 1, "{stats}");
    assert_eq!(stats["charset_evidence"]["meta"], 1, "{stats}");
    assert_eq!(stats["charsets"]["UTF-8"], 1, "{stats}");
    assert_eq!(stats["charsets"]["GBK"], 1, "{stats}");

    let xml = String::from_utf8(gunzip(&out.join("declared.xml.gz"))).unwrap();
    let docs: Vec<&str> = xml.split("</doc>\n").filter(|d| !d.is_empty()).collect();
    assert_eq!(docs.len(), 2);
    let first = docs[0].lines().next().unwrap();
    assert!(first.contains(r#" sourcecharset="UTF-8" "#), "{first}");
    assert!(first.contains(r#" declared-charset="GBK""#), "{first}");
    assert!(docs[0].contains(&format!("\n{chinese}\n")), "{}", docs[0]);
    let second = docs[1].lines().next().unwrap();
    assert!(second.contains(r#" sourcecharset="GBK" "#), "{second}");
    assert!(!second.contains("declared-charset"), "{second}");
    assert!(docs[1].contains("\n中文网页，用GBK写成。\n"), "{}", docs[1]);

    let jsonl = String::from_utf8(gunzip(&out.join("declared.jsonl.gz"))).unwrap();
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["provenance"]["charset"], "UTF-8");
    assert_eq!(lines[0]["provenance"]["declared_charset"], "GBK");
    assert!(lines[0]["text"].as_str().unwrap().contains(chinese));
    assert_eq!(lines[1]["provenance"]["charset"], "GBK");
    assert!(lines[1]["provenance"].get("declared_charset").is_none());

    // `extract --format json` says so too, and only for such a page.
    let extract = |page: &[u8]| -> serde_json::Value {
        let file = dir.join("page.html");
        std::fs::write(&file, page).unwrap();
        let o = cowrex()
            .args(["extract", "--format", "json"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let v = extract(utf8_page.as_bytes());
    assert_eq!(
        (&v["sourcecharset"], &v["declared_charset"]),
        (&"UTF-8".into(), &"GBK".into())
    );
    assert!(
        v["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["text"] == chinese)
    );
    let v = extract(&gbk_page);
    assert_eq!(v["sourcecharset"], "GBK");
    assert!(v.get("declared_charset").is_none());
}

#[test]
fn stdin_and_directories_are_inputs() {
    let out = tempdir("stdin");
    let mut c = cowrex();
    c.args(["process", "--no-progress", "-", "-o"]).arg(&out);
    c.stdin(std::fs::File::open(fixture("sample.warc.gz")).unwrap());
    assert!(c.output().unwrap().status.success());
    let stats = check_outputs(&out, "stdin");
    assert_eq!(stats["fates"]["written"], 6);
    let dir_out = tempdir("dir");
    assert!(process(&[&fixture("")], &dir_out, &[]).status.success());
    check_outputs(&dir_out, "sample");
    check_outputs(&dir_out, "broken");
}

#[test]
fn shared_warc_files_are_processed() {
    let Some(dir) = shared_data("warc") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let p = p.to_string_lossy();
            p.ends_with(".warc.gz") || p.ends_with(".arc.gz")
        })
        .collect();
    files.sort();
    assert!(files.len() > 1);
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let stem = cowrex::pipeline::Input::file(f.clone()).stem;
        let (a, b) = (
            tempdir(&format!("shared-1-{stem}")),
            tempdir(&format!("shared-2-{stem}")),
        );
        assert!(process(&[&f], &a, &["-j1"]).status.success(), "{name}");
        assert!(process(&[&f], &b, &["-j2"]).status.success(), "{name}");
        let stats = check_outputs(&a, &stem);
        assert!(stats["records"].as_u64().unwrap() > 0, "{name}: no records");
        assert_eq!(
            std::fs::read(a.join(format!("{stem}.xml.gz"))).unwrap(),
            std::fs::read(b.join(format!("{stem}.xml.gz"))).unwrap(),
            "{name}"
        );
        eprintln!("{name}: {}", stats["fates"]);
    }
}

/// A small but realistic page: a head full of markup, navigation, and an article.
fn sample_page() -> String {
    let nav: String = ["Home", "News", "Sport", "Weather", "Login"]
        .iter()
        .map(|n| {
            format!("<li class=\"menu-item\"><a class=\"menu-link\" href=\"/{n}\">{n}</a></li>\n")
        })
        .collect();
    let para = "<p>This is a long paragraph of running text about the river festival, with several sentences. It should be kept as content by the model. Visitors come from far away, and the organisers expect more people than ever before.</p>\n";
    format!(
        "<!DOCTYPE html><html><head><title>T</title><link rel=\"stylesheet\" href=\"/a.css\"><style>{}</style></head><body><div id=\"nav\"><ul>{nav}</ul></div><div id=\"main\" class=\"article-body\">{}</div></body></html>",
        ".x { color: red; }\n".repeat(40),
        para.repeat(4)
    )
}

#[test]
fn extract_prints_text_or_every_block() {
    let dir = tempdir("extract");
    let page = dir.join("p.html");
    std::fs::write(&page, sample_page()).unwrap();
    let run = |fmt: &str| {
        let o = cowrex()
            .args(["extract", "--format", fmt])
            .arg(&page)
            .output()
            .unwrap();
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let text = run("text");
    assert!(text.contains("This is a long paragraph"));
    assert!(!text.contains("Login"), "{text}");
    let tsv = run("tsv");
    let rows: Vec<&str> = tsv.lines().collect();
    assert_eq!(
        rows[0],
        "idx\tbpv\tbpc\tboilerplate\tmlp\tngram\tjustext\tjustextcf\tstopwords\tboilerpipe\t\
         bpdensity\tlinkdensity\ttextdensity\tcomment\tkind\tlanguage\ttext"
    );
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().skip(1).all(|r| r.split('\t').count() == 17));
    let col = |needle: &str, name: &str| -> String {
        let k = rows[0].split('\t').position(|c| c == name).unwrap();
        let row = rows.iter().find(|r| r.ends_with(needle)).unwrap();
        row.split('\t').nth(k).unwrap().to_string()
    };
    let num = |needle: &str, name: &str| -> f64 { col(needle, name).parse().unwrap() };
    // Every scorer finds the running text better than the menu entries.
    let (text, menu) = ("than ever before.", "Login");
    assert!(num(text, "ngram") > num(menu, "ngram"), "{tsv}");
    assert!(num(text, "mlp") < num(menu, "mlp"), "{tsv}");
    assert!(num(text, "bpv") < 0.5 && num(menu, "bpv") > 0.5, "{tsv}");
    assert_eq!(
        (col(text, "justext"), col(menu, "justext")),
        ("good".into(), "bad".into())
    );
    assert_eq!(col(text, "justextcf"), "good");
    // The paragraph has its language, the menu entry too little text for one.
    assert_eq!(
        (col(text, "language"), col(menu, "language")),
        ("eng".into(), "".into())
    );
    assert!(num(text, "stopwords") > 0.3);
    assert_eq!(col(text, "boilerpipe"), "content");
    assert_eq!(col(menu, "boilerpipe"), "boilerplate");
    assert_eq!(
        (col(text, "kind"), col(menu, "kind")),
        ("p".into(), "li".into())
    );
    assert_eq!(num(menu, "linkdensity"), 1.0);
    assert!(num(text, "textdensity") > 10.0);
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(json["blocks"].as_array().unwrap().len(), 9);
    assert_eq!(json["title"], "T");
    assert_eq!(json["language"], "eng");
    let last = &json["blocks"][8];
    assert!(last["ngram"].is_number() && last["mlp"].is_number());
    assert_eq!(last["justext"], "good");
    assert_eq!(last["boilerpipe"], "content");
    assert_eq!(last["kind"], "p");
    let first = &json["blocks"][0];
    assert_eq!(
        (&first["kind"], &first["list"], &first["depth"]),
        (&"li".into(), &"ul".into(), &1.into())
    );
    // The page's metadata: headline, author, dates, site name, canonical URL, languages.
    let meta_page = dir.join("meta.html");
    std::fs::write(
        &meta_page,
        "<html lang=en><head><title>Rain in Spain | The Daily</title>\
         <meta property=og:site_name content=\"The Daily\"><meta name=author content=\"Ann Lee\">\
         <meta property=article:published_time content=\"2024-03-02T08:00:00+01:00\">\
         <link rel=canonical href=/rain></head><body><h1>Rain in Spain</h1>\
         <p>The rain in Spain falls mainly on the plain, they say.</p></body></html>",
    )
    .unwrap();
    let o = cowrex()
        .args([
            "extract",
            "--format",
            "json",
            "--url",
            "https://daily.example/x?y",
        ])
        .arg(&meta_page)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        [
            &v["title"],
            &v["author"],
            &v["published"],
            &v["modified"],
            &v["sitename"],
            &v["canonical"],
            &v["declared_language"]
        ],
        [
            &"Rain in Spain".into(),
            &"Ann Lee".into(),
            &"2024-03-02T08:00:00+01:00".into(),
            &serde_json::Value::Null,
            &"The Daily".into(),
            &"https://daily.example/rain".into(),
            &"en".into()
        ]
    );
    // --scorer chooses what bpv is: jusText's decision is 0 or 1.
    let o = cowrex()
        .args(["extract", "--format", "json", "--scorer", "justext"])
        .arg(&page)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for b in v["blocks"].as_array().unwrap() {
        let expect = if b["justext"] == "good" { 0.0 } else { 1.0 };
        assert_eq!(b["bpv"].as_f64(), Some(expect), "{b}");
    }
    let o = cowrex()
        .args(["extract", "--format", "json", "--scorer", "mlp"])
        .arg(&page)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| (b["bpv"].as_f64().unwrap() - b["mlp"].as_f64().unwrap()).abs() < 1e-6)
    );
    // --threshold changes the decision; everything is content at 1.0.
    let o = cowrex()
        .args(["extract", "--threshold", "1.0"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(String::from_utf8(o.stdout).unwrap().contains("Login"));
}

#[test]
fn features_prints_37_values_per_block() {
    let dir = tempdir("features");
    let page = dir.join("p.html");
    std::fs::write(&page, sample_page()).unwrap();
    let o = cowrex()
        .args(["features", "--texrex"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9);
    for (i, l) in lines.iter().enumerate() {
        let cols: Vec<&str> = l.split('\t').collect();
        assert_eq!(cols.len(), 39, "{l}");
        assert_eq!(cols[0], i.to_string());
        assert!(cols[2..].iter().all(|v| v.parse::<f64>().is_ok()));
    }
    assert!(lines[0].starts_with("0\tHome\t0.003\t"), "{}", lines[0]);
}

#[test]
fn bad_arguments_are_usage_errors() {
    let o = cowrex().args(["process", "x.warc.gz"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    // A threshold is a share (the library's check, as Builder and Python give it).
    let out = tempdir("threshold");
    for command in [&["extract"][..], &["process", "-o", out.to_str().unwrap()]] {
        let o = cowrex()
            .args(command)
            .args(["--threshold", "1.5"])
            .arg(fixture("sample.warc.gz"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{command:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr)
                .contains("invalid value '1.5' for threshold: a share between 0 and 1"),
            "{command:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!out.join("sample.xml.gz").exists());
    }
    // A wrong name for a named option: the library's message (`FromStr`, as a `Builder` user
    // parses a name and as Python gives it), and no output.
    use cowrex::analyze::{DupBlocks, Mask};
    use cowrex::classify::{Favor, LangChoice, NgramChoice, Scorer};
    let wrong: [(&str, &str, cowrex::Error); 7] = [
        ("--favor", "fast", "fast".parse::<Favor>().unwrap_err()),
        ("--lang", "xx", "xx".parse::<LangChoice>().unwrap_err()),
        ("--ngram", "on", "on".parse::<NgramChoice>().unwrap_err()),
        ("--scorer", "gpt", "gpt".parse::<Scorer>().unwrap_err()),
        (
            "--mask",
            "email,url",
            "email,url".parse::<Mask>().unwrap_err(),
        ),
        (
            "--dup-blocks",
            "hide",
            "hide".parse::<DupBlocks>().unwrap_err(),
        ),
        (
            "--format",
            "xml,docx",
            "xml,docx".parse::<cowrex::pipeline::Formats>().unwrap_err(),
        ),
    ];
    for (option, value, e) in wrong {
        assert_eq!(e.kind(), cowrex::error::ErrorKind::Usage);
        let o = cowrex()
            .args(["process", option, value])
            .args(["-o", out.to_str().unwrap()])
            .arg(fixture("sample.warc.gz"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{option}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), format!("error: {e}\n"));
        assert!(!out.join("sample.xml.gz").exists());
    }
    // A least language score outside 0-1: the library's check (`Split::language`).
    let o = cowrex()
        .args([
            "process",
            "--split-by",
            "language",
            "--split-min-score",
            "1.5",
        ])
        .args(["-o", out.to_str().unwrap()])
        .arg(fixture("sample.warc.gz"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = cowrex::pipeline::Split::language(1.5).unwrap_err();
    assert_eq!(String::from_utf8_lossy(&o.stderr), format!("cowrex: {e}\n"));
    assert!(cowrex::pipeline::Split::language(0.65).is_ok());
    assert!(!out.join("sample.xml.gz").exists());
    // `Builder::scorer` takes a name: the same message.
    let e = cowrex::Extractor::builder()
        .scorer("gpt")
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "gpt".parse::<Scorer>().unwrap_err().to_string()
    );
    let dir = tempdir("badmodel");
    let m = dir.join("m.mlp");
    std::fs::write(&m, "not a model").unwrap();
    let o = cowrex()
        .args(["extract", "--model"])
        .arg(&m)
        .arg(fixture("sample.warc.gz"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a cowrex MLP"));
    // A model file that is missing is a usage error too (exit 2), for every model option, and
    // the message names the file.
    let missing = dir.join("missing.model");
    for option in [
        "--model",
        "--ngram-model",
        "--profile",
        "--combined-model",
        "--markup-model",
    ] {
        let o = cowrex()
            .args(["extract", option])
            .arg(&missing)
            .arg(fixture("sample.warc.gz"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{option}: {err}");
        assert!(err.contains("missing.model"), "{option}: {err}");
    }
    // A training option's bad value: a usage error naming the problem.
    let train_with = |option: &str, value: &str, says: &str| {
        let args = [
            "train", "combined", "--pages", "p", "-o", "m", option, value,
        ];
        let o = cowrex().args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{option} {value}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{err}");
    };
    // A share of the blocks or features to grow a tree on must be in (0, 1].
    for bad in ["0", "1.5", "half"] {
        train_with("--subsample", bad, "is not a share");
    }
    // The L2 penalty must be above 0 (an empty leaf's value is 0 / lambda), the least leaf
    // weight at least 0.
    for bad in ["0", "x", "inf"] {
        train_with("--lambda", bad, "is not a number above 0");
    }
    train_with("--min-leaf", "inf", "is not a number of at least 0");
    // Oblivious trees or not takes true or false.
    train_with("--oblivious", "yes", "--oblivious");
}

/// Exit codes by the kind of error: 2 usage, 1 an input, 74 an output, each with its message.
#[test]
fn exit_codes_say_whose_side_an_error_is_on() {
    let dir = tempdir("exit-codes");
    let page = dir.join("page.html");
    std::fs::write(
        &page,
        "<html><body><p>Some text of a page.</p></body></html>",
    )
    .unwrap();
    let run = |args: &[&str], stdout: Option<std::fs::File>| {
        let mut c = cowrex();
        c.args(args);
        if let Some(f) = stdout {
            c.stdout(f);
        }
        let o = c.output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let page = page.to_str().unwrap();
    // Options that do not go together.
    let (code, err) = run(
        &["extract", "--plain-text", "--format", "markdown", page],
        None,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--plain-text"), "{err}");
    // An input that cannot be read, for one page and for a whole run.
    let missing = dir.join("missing.html");
    let (code, err) = run(&["extract", missing.to_str().unwrap()], None);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("cannot read") && err.contains("missing.html"),
        "{err}"
    );
    let out = dir.join("out");
    let (code, err) = run(
        &[
            "process",
            "--no-progress",
            "-o",
            out.to_str().unwrap(),
            "missing.warc.gz",
        ],
        None,
    );
    assert_eq!(code, Some(1), "{err}");
    // Outputs that cannot be written: a full standard output, an output directory under a file.
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let (code, err) = run(&["extract", page], Some(full));
        assert_eq!(code, Some(74), "{err}");
        assert!(err.contains("cannot write standard output"), "{err}");
    }
    let under_file = format!("{page}/out");
    let sample = fixture("sample.warc.gz");
    let (code, err) = run(
        &[
            "process",
            "--no-progress",
            "-o",
            &under_file,
            sample.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, Some(74), "{err}");
    assert!(err.contains("cannot create output directory"), "{err}");
    let (code, err) = run(&["extract", "--format", "tsv", "-o"], None);
    assert_eq!(code, Some(2), "clap's own usage errors: {err}");
}

#[test]
fn progress_as_json_lines_and_merged_stats() {
    let dir = tempdir("progress");
    let (a, b) = (dir.join("a.warc.gz"), dir.join("b.warc.gz"));
    std::fs::copy(fixture("sample.warc.gz"), &a).unwrap();
    std::fs::copy(fixture("sample.warc.gz"), &b).unwrap();
    let out = dir.join("out");
    let o = cowrex()
        .args(["process", "--progress", "jsonl", "--progress-interval", "0"])
        .args([&a, &b])
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(o.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() > 2, "a line per update with interval 0");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l["event"] == "progress")
    );
    let last = lines.last().unwrap();
    assert_eq!(last["event"], "done");
    assert_eq!(
        (last["files_total"].as_u64(), last["files_done"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(
        (last["records"].as_u64(), last["documents"].as_u64()),
        (Some(52), Some(12))
    );
    // The per-file stats sum up.
    let o = cowrex()
        .args(["stats", "merge"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    let merged: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let one = check_outputs(&out, "a");
    assert_eq!(merged["files"], 2);
    assert_eq!(
        merged["records"].as_u64().unwrap(),
        2 * one["records"].as_u64().unwrap()
    );
    assert_eq!(
        merged["fates"]["written"].as_u64().unwrap(),
        2 * one["fates"]["written"].as_u64().unwrap()
    );
    assert_eq!(merged["inputs"].as_array().unwrap().len(), 2);
}

#[test]
fn the_library_streams_the_documents_process_writes() {
    let out = tempdir("library-stream");
    for input in ["sample.warc.gz", "broken.warc.gz"] {
        let o = process(&[&fixture(input)], &out, &["--format", "jsonl", "-j2"]);
        assert!(o.status.success());
        let stem = input.trim_end_matches(".warc.gz");
        let expected = String::from_utf8(gunzip(&out.join(format!("{stem}.jsonl.gz")))).unwrap();
        let stats: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join(format!("{stem}.stats.json"))).unwrap())
                .unwrap();
        let extractor = cowrex::Extractor::builtin();
        for threads in [1, 4] {
            let mut docs = extractor
                .read_warc(fixture(input).to_str().unwrap(), threads)
                .unwrap();
            let mut lines = String::new();
            for d in &mut docs {
                let mut line = Vec::new();
                cowrex::output::jsonl::write_doc(&mut line, &d.unwrap(), Default::default(), None);
                lines.push_str(std::str::from_utf8(&line).unwrap());
            }
            assert_eq!(lines, expected, "{input} with {threads} threads");
            let s = docs.stats();
            assert_eq!(s.records, stats["records"].as_u64().unwrap());
            for (fate, n) in &s.fates {
                assert_eq!(stats["fates"][fate].as_u64(), Some(*n), "{input}: {fate}");
            }
        }
    }
}

//! Corpus-level features end to end: shingles, `dedup`, `filter`, duplicates, text quality,
//! JSONL, VRT and links.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::io::Write;

use common::*;

/// (url, id) of every document of an XML corpus, in order.
fn doc_ids(xml: &str) -> Vec<(String, String)> {
    xml.lines()
        .filter(|l| l.starts_with("<doc "))
        .map(|l| {
            let attr = |name: &str| {
                let p = l.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                l[p..p + l[p..].find('"').unwrap()].to_string()
            };
            (attr("url"), attr("id"))
        })
        .collect()
}

#[test]
fn near_duplicate_copies_are_blacklisted_and_filtered_out() {
    let dir = tempdir("neardup");
    let mut rng = Rng(7);
    let mut warc = Vec::new();
    let mut n = 0;
    let mut articles = Vec::new();
    for i in 0..30 {
        let paragraphs: Vec<Vec<String>> = (0..5).map(|_| paragraph(&mut rng)).collect();
        let nav: Vec<String> = ["home", "news", "sport", "about"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let url = format!("http://site{}.example/article/{i}", i % 7);
        warc.extend(warc_record(
            &url,
            &page(&format!("Article {i}"), &nav, &paragraphs),
            n,
        ));
        n += 1;
        articles.push(paragraphs);
    }
    let mut copies = Vec::new();
    for i in (0..30).step_by(3) {
        // One paragraph dropped, three words changed, a different navigation.
        let mut paragraphs = articles[i].clone();
        paragraphs.remove(2);
        for (p, w) in [(0, 3), (1, 10), (3, 20)] {
            paragraphs[p][w] = "changed".to_string();
        }
        let nav: Vec<String> = ["start", "latest", "weather", "contact", "archive", "shop"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let url = format!("http://mirror.example/copy/{i}");
        warc.extend(warc_record(
            &url,
            &page(&format!("Copy of {i}"), &nav, &paragraphs),
            n,
        ));
        n += 1;
        copies.push(url);
    }
    let input = dir.join("news.warc");
    std::fs::write(&input, &warc).unwrap();
    let out = dir.join("out");
    // The paragraphs are random pseudo-words, on which a trained model's judgement means
    // nothing; boilerpipe's rules keep them (long, no links), so every copy's content is
    // shorter than its original's, as the test needs.
    let scorer = ["--scorer", "boilerpipe"];
    assert!(process(&[&input], &out, &scorer).status.success());
    check_outputs(&out, "news");
    let xml = String::from_utf8(gunzip(&out.join("news.xml.gz"))).unwrap();
    let docs = doc_ids(&xml);
    assert_eq!(docs.len(), 40);

    let blacklist = dir.join("blacklist.txt");
    let o = cowrex()
        .args(["dedup", "--memory", "1"])
        .arg(&out)
        .arg("-o")
        .arg(&blacklist)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let listed: HashSet<String> = std::fs::read_to_string(&blacklist)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let copy_ids: HashSet<String> = docs
        .iter()
        .filter(|(u, _)| copies.contains(u))
        .map(|(_, id)| id.clone())
        .collect();
    assert_eq!(listed, copy_ids, "exactly the 10 shorter copies");
    // A directory above the run's: its subdirectories' shingle files are found too.
    let above = dir.join("above.txt");
    let o = cowrex()
        .arg("dedup")
        .arg(&*dir)
        .arg("-o")
        .arg(&above)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&above).unwrap(),
        std::fs::read(&blacklist).unwrap()
    );

    // The run's report counts its documents on a blacklist that also lists another run's and
    // lists one of this run's twice (two runs' blacklists joined): each document once.
    let wider = dir.join("wider.txt");
    let other = "0".repeat(36);
    std::fs::write(
        &wider,
        format!(
            "{other}\n{}\n{}",
            copy_ids.iter().next().unwrap(),
            std::fs::read_to_string(&blacklist).unwrap()
        ),
    )
    .unwrap();
    let report = dir.join("report.html");
    let o = cowrex()
        .arg("report")
        .arg(&out)
        .arg("--blacklist")
        .arg(&wider)
        .arg("-o")
        .arg(&report)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains("10 of this run&#39;s documents (the blacklist lists 12)"),
        "{}",
        &html[html.find("near duplicates").unwrap_or(0)..][..300]
    );

    let kept = filter_news(&blacklist, &out, &dir.join("filtered"));
    assert_eq!(check_xml(&kept), 30);
    let kept = doc_ids(&String::from_utf8(kept).unwrap());
    let originals: Vec<(String, String)> = docs
        .iter()
        .filter(|(u, _)| !copies.contains(u))
        .cloned()
        .collect();
    assert_eq!(kept, originals, "the 30 originals, in order");

    spark_dedup_agrees(&dir, &out, &blacklist);
}

/// With `COWREX_SPARK_SUBMIT` (the path of pyspark's `spark-submit`, as
/// `scripts/spark/local-run.sh` sets it), the Spark job's blacklist of the run in `out` is
/// byte-identical to `cowrex dedup`'s, and `filter` takes it as it is. Without it, a message.
fn spark_dedup_agrees(dir: &std::path::Path, out: &std::path::Path, blacklist: &std::path::Path) {
    let Ok(submit) = std::env::var("COWREX_SPARK_SUBMIT") else {
        eprintln!("SKIPPED: the Spark dedup job (COWREX_SPARK_SUBMIT is not set)");
        return;
    };
    let spark = dir.join("spark.blacklist");
    let o = std::process::Command::new(submit)
        .args(["--master", "local[2]", "--conf", "spark.ui.enabled=false"])
        .args(["--conf", "spark.driver.host=127.0.0.1"])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scripts/spark/cowrex_dedup_spark.py"
        ))
        .arg(out)
        .arg(&spark)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&spark).unwrap(),
        std::fs::read(blacklist).unwrap()
    );
    let kept = filter_news(&spark, out, &dir.join("filtered-spark"));
    assert_eq!(check_xml(&kept), 30);
}

/// `cowrex filter --blacklist BLACKLIST` on the run's `news.xml.gz` into `filtered`: the
/// filtered corpus file.
fn filter_news(
    blacklist: &std::path::Path,
    out: &std::path::Path,
    filtered: &std::path::Path,
) -> Vec<u8> {
    let o = cowrex()
        .arg("filter")
        .arg("--blacklist")
        .arg(blacklist)
        .arg(out.join("news.xml.gz"))
        .arg("-o")
        .arg(filtered)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    gunzip(&filtered.join("news.xml.gz"))
}

#[test]
fn filter_keeps_ids_unique_and_drops_cut_off_documents() {
    let dir = tempdir("filter");
    let doc =
        |id: &str| format!("<doc url=\"u\" id=\"{id}\">\n<div idx=\"0\">\nx\n</div>\n</doc>\n");
    let a = "a".repeat(36);
    let b = "b".repeat(36);
    let c = "c".repeat(36);
    let text = format!(
        "{}{}{}{}<doc url=\"u\" id=\"{c}\">\n<div",
        doc(&a),
        doc(&b),
        doc(&a),
        doc(&c)
    );
    let input = dir.join("in.xml");
    std::fs::write(&input, text).unwrap();
    let jsonl = dir.join("in.jsonl.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&jsonl).unwrap(),
        flate2::Compression::fast(),
    );
    for id in [&a, &b, &c, &b] {
        writeln!(gz, "{{\"id\":\"{id}\",\"text\":\"t\"}}").unwrap();
    }
    gz.finish().unwrap();
    let bl = dir.join("bl");
    std::fs::write(&bl, format!("{b}\n")).unwrap();
    let out = dir.join("out");
    let o = cowrex()
        .arg("filter")
        .arg("-b")
        .arg(&bl)
        .args([&input, &jsonl])
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("9 documents: 2 written, 3 blacklisted, 3 repeated ids, 1 broken"),
        "{err}"
    );
    let xml = std::fs::read_to_string(out.join("in.xml")).unwrap();
    assert_eq!(xml, format!("{}{}", doc(&a), doc(&c)));
    let lines = String::from_utf8(gunzip(&out.join("in.jsonl.gz"))).unwrap();
    // Ids are unique across files: a and c were written by the XML file already.
    assert_eq!(lines, "");
    // A filter run into the input's own directory is refused.
    let o = cowrex()
        .arg("filter")
        .arg("-b")
        .arg(&bl)
        .arg(&input)
        .arg("-o")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// Checks the nesting of a VRT or XML file's structural tags; returns the number of `<doc>`s.
fn balanced(lines: &str) -> usize {
    let mut stack: Vec<String> = Vec::new();
    let mut docs = 0;
    for l in lines.lines() {
        if let Some(name) = l.strip_prefix("</") {
            let name = name.trim_end_matches('>');
            assert_eq!(stack.pop().as_deref(), Some(name), "unbalanced </{name}>");
        } else if l.starts_with('<') && l.ends_with("/>") {
            assert!(l.starts_with("<meta "), "{l}");
        } else if let Some(rest) = l.strip_prefix('<') {
            let name = rest.split([' ', '>']).next().unwrap();
            assert!(
                ["doc", "div", "dup", "title", "keywords", "s"].contains(&name),
                "{l}"
            );
            if name == "doc" {
                assert!(stack.is_empty());
                docs += 1;
            }
            stack.push(name.to_string());
        } else {
            assert!(!l.is_empty() && !l.contains(' '), "a token line: {l:?}");
            assert!(stack.len() >= 2, "tokens inside a structure: {l}");
        }
    }
    assert!(stack.is_empty());
    docs
}

#[test]
fn jsonl_vrt_links_and_shingles_of_the_sample() {
    let out = tempdir("formats");
    let o = process(
        &[&fixture("sample.warc.gz")],
        &out,
        &["--format", "xml,jsonl,vrt", "--links", "--markdown"],
    );
    assert!(o.status.success());
    let stats = check_outputs(&out, "sample");
    let done: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("sample.done.json")).unwrap()).unwrap();
    let outputs: Vec<&str> = done["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        outputs,
        [
            "sample.xml.gz",
            "sample.jsonl.gz",
            "sample.vrt.gz",
            "sample.shingles.gz",
            "sample.links.gz",
            "sample.stats.json"
        ]
    );
    let xml = String::from_utf8(gunzip(&out.join("sample.xml.gz"))).unwrap();
    let vrt = String::from_utf8(gunzip(&out.join("sample.vrt.gz"))).unwrap();
    let jsonl = String::from_utf8(gunzip(&out.join("sample.jsonl.gz"))).unwrap();
    let ids = doc_ids(&xml);
    assert_eq!(ids.len(), 6);

    // VRT: balanced tags, one token per line, the XML's structure and attributes, and each
    // block's tokens in sentences (`<s>`), which are inside blocks only.
    assert_eq!(balanced(&vrt), 6);
    let tags = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with('<') && !matches!(*l, "<s>" | "</s>"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(tags(&vrt), tags(&xml));
    let mut open: Vec<&str> = Vec::new();
    let mut sentences = 0;
    for l in vrt
        .lines()
        .filter(|l| l.starts_with('<') && !l.starts_with("<meta "))
    {
        let name = l[1..].split([' ', '>']).next().unwrap();
        if let Some(end) = name.strip_prefix('/') {
            assert_eq!(open.pop(), Some(end), "{l}");
        } else {
            if name == "s" {
                assert_eq!(open.last(), Some(&"div"), "a sentence is inside a block");
                sentences += 1;
            }
            open.push(name);
        }
    }
    assert!(open.is_empty());
    assert!(
        sentences > vrt.matches("<div ").count(),
        "blocks of several sentences"
    );
    assert!(!vrt.contains("<s>\n</s>"), "no empty sentence");
    assert!(vrt.contains("<title>\nThe\nriver\nfestival\nreturns\n</title>"));
    // UAX #29 has no dictionary: ideographs and kana are one token each.
    assert!(vrt.contains("\n東\n京\nの\n"));

    // In-document duplicates point back at an earlier block of the same document.
    assert_eq!(stats["dup_blocks"], 6);
    let mut divs = HashSet::new();
    for l in xml.lines() {
        if l.starts_with("<doc ") {
            divs.clear();
        } else if let Some(r) = l.strip_prefix("<div idx=\"") {
            divs.insert(r[..r.find('"').unwrap()].to_string());
        } else if let Some(r) = l.strip_prefix("<dup idx=\"") {
            let of = &r[r.find("of=\"").unwrap() + 4..];
            assert!(divs.contains(&of[..of.find('"').unwrap()]), "{l}");
        }
    }
    assert!(xml.contains("\ndupblank\n</dup>\n"));
    // Every block has its kind: the headline, the menu's list items, the paragraphs.
    // (a content headline without a full stop: C4's rules would drop its line).
    assert!(
        xml.contains(" kind=\"h1\" c4=\"no_terminal_punc\">\nThe river festival returns\n</div>")
    );
    assert!(xml.contains(" kind=\"li\" list=\"ul\" depth=\"1\">\nHome\n</div>"));
    // … and the paragraph its language (the menu items are too short for one).
    assert!(xml.contains(" kind=\"p\" language=\"eng\" language-score=\"0."));
    assert!(xml.contains("\">\nAfter a two-year pause"));
    // Metadata without a value is `unknown`, as texrex writes missing values.
    assert!(xml.contains(
        " author=\"unknown\" published=\"unknown\" modified=\"unknown\" sitename=\"unknown\" \
         canonical=\"unknown\" declared-language=\"unknown\">"
    ));
    assert!(xml.contains("<title>\nThe river festival returns\n</title>"));
    assert!(
        xml.lines()
            .filter(|l| l.starts_with("<div "))
            .all(|l| l.contains(" kind=\""))
    );

    // JSONL: one document per line, the documented keys, the same ids and texts.
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    for (j, (url, id)) in lines.iter().zip(&ids) {
        assert_eq!(
            (j["url"].as_str().unwrap(), j["id"].as_str().unwrap()),
            (url.as_str(), id.as_str())
        );
        let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
        for k in [
            "id",
            "url",
            "language",
            "text",
            "host",
            "tld",
            "bdv",
            "bdc",
            "nbc",
            "nbcprop",
            "nbd",
            "nbdprop",
            "avgbpc",
            "avgbpd",
            "bpt",
            "blocks",
            "provenance",
        ] {
            assert!(keys.contains(&k), "{k} missing");
        }
        // `text` is the blocks at or below the document's threshold, which the XML also gives.
        let bpt = j["bpt"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&bpt), "bpt {bpt}");
        let kept: Vec<&serde_json::Value> = j["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["bpv"].as_f64().unwrap() <= bpt)
            .collect();
        assert_eq!(j["nbd"].as_u64().unwrap() as usize, kept.len());
        assert!(
            j["blocks"]
                .as_array()
                .unwrap()
                .iter()
                .all(|b| b["kind"].is_string())
        );
        // The fixture's pages have a <title> and the same h1, a description, no author or date.
        assert!(j["title"].is_string() && j["description"].is_string());
        assert!(j.get("author").is_none() && j.get("published").is_none());
        // --markdown: the content as Markdown, its headline a heading (a line of its own).
        let md = j["markdown"].as_str().unwrap();
        let heading = format!("# {}", j["title"].as_str().unwrap());
        assert!(md.lines().any(|l| l == heading), "{md}");
        // The text is every kept block, repeats of the content too (formats.md, Repeated
        // blocks).
        let text: Vec<&str> = kept.iter().map(|b| b["text"].as_str().unwrap()).collect();
        assert_eq!(j["text"].as_str().unwrap(), text.join("\n"));
        let doc_line = xml.lines().find(|l| l.contains(id.as_str())).unwrap();
        let xml_bpt: f64 = doc_line
            .split(" bpt=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((xml_bpt - bpt).abs() < 1e-5, "{doc_line}");
        let bdv = j["bdv"].as_f64().unwrap();
        let class = (b'a' + ((bdv / 2.0).round_ties_even() as u8).min(25)) as char;
        assert_eq!(j["bdc"].as_str().unwrap(), class.to_string());
        assert_eq!(j["provenance"]["warc_file"], "sample.warc.gz");
        assert!(j["provenance"]["offset"].as_u64().is_some());
    }
    // The key order is fixed (documented in docs/formats.md).
    assert!(jsonl.starts_with(&format!(
        "{{\"id\":\"{}\",\"url\":\"https://example.org/news/festival\",\"language\":\"eng\",\"language_script\":\"Latn\",\"language_score\":0.9337,\"text\":\"The river festival returns\\nAfter a two-year pause",
        ids[0].1
    )));
    let raw_first = jsonl.lines().next().unwrap();
    let order: Vec<usize> = [
        "\"title\":",
        "\"host\":",
        "\"bdv\":",
        "\"nbc\":",
        "\"avgbpd\":",
        "\"blocks\":[{\"idx\":0,\"bpv\":",
        "\"provenance\":{\"warc_file\":",
    ]
    .iter()
    .map(|k| raw_first.find(k).unwrap_or_else(|| panic!("{k}")))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    let first = &lines[0];
    assert_eq!(first["language"], "eng");
    assert_eq!(first["title"], "The river festival returns");
    assert!(
        first["text"]
            .as_str()
            .unwrap()
            .starts_with("The river festival returns\nAfter a two-year pause, the river")
    );

    // Shingles: texrex's 68-character lines, 100 per document with enough content.
    let shingles = String::from_utf8(gunzip(&out.join("sample.shingles.gz"))).unwrap();
    let known: HashSet<&str> = ids.iter().map(|(_, id)| id.as_str()).collect();
    let mut per_doc: HashMap<&str, usize> = HashMap::new();
    for l in shingles.lines() {
        assert_eq!(l.len(), 68);
        assert!(known.contains(&l[21..57]));
        *per_doc.entry(&l[21..57]).or_default() += 1;
    }
    assert!(per_doc.values().all(|&n| n == 100));
    assert_eq!(per_doc.len() as u64, stats["shingled"].as_u64().unwrap());

    // Links: five columns, absolute URLs, texrex's relation names.
    let links = String::from_utf8(gunzip(&out.join("sample.links.gz"))).unwrap();
    assert_eq!(
        links.lines().count() as u64,
        stats["links"].as_u64().unwrap()
    );
    assert!(links.lines().count() > 0);
    for l in links.lines() {
        let cols: Vec<&str> = l.split('\t').collect();
        assert_eq!(cols.len(), 5, "{l}");
        assert!(cols[1].starts_with("http"));
        assert!(
            [
                "trlSameFullHost",
                "trlSameNonVirtualHost",
                "trlDifferentHosts"
            ]
            .contains(&cols[2])
        );
        cols[3].parse::<f64>().unwrap();
        cols[4].parse::<f64>().unwrap();
    }
    assert!(links.contains(
        "https://example.org/news/festival\thttps://example.org/about\ttrlSameFullHost\t"
    ));
}

#[test]
fn exact_duplicate_documents_are_marked_or_skipped() {
    let dir = tempdir("exactdup");
    // The sample's records twice in one file (gzip members concatenated), and a copy of it.
    let sample = std::fs::read(fixture("sample.warc.gz")).unwrap();
    let (a, b) = (dir.join("a.warc.gz"), dir.join("b.warc.gz"));
    std::fs::write(&a, [sample.clone(), sample].concat()).unwrap();
    std::fs::copy(&a, &b).unwrap();
    let out = dir.join("mark");
    assert!(
        process(&[&a, &b], &out, &["--format", "xml,jsonl,vrt"])
            .status
            .success()
    );
    let xml = String::from_utf8(gunzip(&out.join("a.xml.gz"))).unwrap();
    let ids = doc_ids(&xml);
    let heads: Vec<&str> = xml.lines().filter(|l| l.starts_with("<doc ")).collect();
    assert_eq!(heads.len(), 12);
    let (first, second) = heads.split_at(6);
    for ((_, id), line) in ids.iter().zip(second) {
        assert!(
            line.ends_with(&format!(" duplicate-of=\"{id}\">")),
            "{line}"
        );
    }
    assert!(first.iter().all(|l| !l.contains("duplicate-of")));
    // VRT's documents start with the same tags.
    let vrt = String::from_utf8(gunzip(&out.join("a.vrt.gz"))).unwrap();
    let vrt_heads: Vec<&str> = vrt.lines().filter(|l| l.starts_with("<doc ")).collect();
    assert_eq!(vrt_heads, heads);
    // Per file: the copy is marked the same way, not as a duplicate of the first file.
    let copy = String::from_utf8(gunzip(&out.join("b.xml.gz"))).unwrap();
    assert!(
        copy == xml.replace("\"a.warc.gz\"", "\"b.warc.gz\""),
        "b.xml.gz differs"
    );
    assert_eq!(check_outputs(&out, "a")["duplicates"], 6);
    assert_eq!(check_outputs(&out, "b")["duplicates"], 6);
    let jsonl = String::from_utf8(gunzip(&out.join("a.jsonl.gz"))).unwrap();
    let marked: Vec<bool> = jsonl
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["duplicate_of"].as_str().is_some_and(|id| id.len() == 36)
        })
        .collect();
    assert_eq!(marked, [[false; 6], [true; 6]].concat());
    let out = dir.join("skip");
    assert!(
        process(&[&a], &out, &["--exact-dups", "skip"])
            .status
            .success()
    );
    let st = check_outputs(&out, "a");
    assert_eq!(
        (
            st["fates"]["skipped.duplicate"].as_u64(),
            st["documents"].as_u64()
        ),
        (Some(6), Some(6))
    );
    // Text quality as a document filter: nothing passes badness 0.
    let out = dir.join("quality");
    assert!(
        process(&[&a], &out, &["--max-badness", "0"])
            .status
            .success()
    );
    assert_eq!(check_outputs(&out, "a")["fates"]["skipped.bad_quality"], 12);
}

/// Documents of unique tokens: a pair sharing a prefix of `p` tokens, each `len` long, has
/// `p − 4` of its `2(len − 4) − (p − 4)` distinct 5-grams in common.
#[test]
fn detection_follows_jaccard_similarity() {
    use cowrex::shingle::{self, dedup};
    let dir = tempdir("jaccard");
    let len = 404; // 400 5-grams per document
    let mut rng = Rng(3);
    let mut pairs = Vec::new();
    let mut lines = Vec::new();
    let mut next_token = 0u64;
    let mut token = || {
        next_token += 1;
        format!("W{}", radix26(next_token))
    };
    for k in 0..400 {
        // Jaccard similarity spread over [0, 1].
        let target = rng.below(1001) as f64 / 1000.0;
        // J = s / (800 − s) for s shared 5-grams, so s = 800 J / (1 + J).
        let shared = (800.0 * target / (1.0 + target)).round() as usize;
        let prefix = if shared == 0 { 0 } else { shared + 4 };
        let common: Vec<String> = (0..prefix).map(|_| token()).collect();
        let doc = |own: Vec<String>| {
            let mut d = common.clone();
            d.extend(own);
            d.join(" ")
        };
        let a = doc((0..len - prefix).map(|_| token()).collect());
        let b = doc((0..len - prefix).map(|_| token()).collect());
        let s = shared as f64;
        let jaccard = s / (800.0 - s);
        let (ida, idb) = (format!("{:036}", 2 * k), format!("{:036}", 2 * k + 1));
        for (id, text, size) in [(&ida, &a, 2000), (&idb, &b, 1000)] {
            let fp = shingle::fingerprint(&shingle::Tokens::of(text), 5, 100).unwrap();
            shingle::write_lines(&mut lines, &fp, id, size).unwrap();
        }
        pairs.push((jaccard, idb));
    }
    let input = dir.join("pairs.shingles");
    std::fs::write(&input, &lines).unwrap();
    println!("threshold | pairs with J ≥ threshold/100 | precision | recall");
    for threshold in [5u32, 10, 25, 50, 80] {
        let cfg = dedup::DedupConfig {
            threshold,
            max_redundancy: 200,
            memory: 64 << 20,
            threads: 2,
            tmp_dir: dir.to_path_buf(),
            previous: HashSet::new(),
            stop: cowrex::stop::Stop::new(),
        };
        let mut out = Vec::new();
        dedup::dedup(std::slice::from_ref(&input), &cfg, &mut out, &mut |_| {}).unwrap();
        let found: HashSet<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let want = |j: f64| j >= threshold as f64 / 100.0;
        let tp = pairs
            .iter()
            .filter(|(j, id)| want(*j) && found.contains(id))
            .count() as f64;
        let relevant = pairs.iter().filter(|(j, _)| want(*j)).count() as f64;
        let precision = tp / found.len() as f64;
        let recall = tp / relevant;
        println!("{threshold} | {relevant} | {precision:.3} | {recall:.3}");
        // Only the second (shorter) document of a pair is ever listed.
        assert!(found.iter().all(|id| id.parse::<u64>().unwrap() % 2 == 1));
        assert!(
            precision >= 0.9 && recall >= 0.9,
            "threshold {threshold}: P {precision} R {recall}"
        );
        // Pairs far from the threshold are always decided right.
        for (j, id) in &pairs {
            if *j >= threshold as f64 / 100.0 + 0.2 {
                assert!(found.contains(id), "J {j} missed at {threshold}");
            }
            if *j <= threshold as f64 / 100.0 - 0.2 || *j == 0.0 {
                assert!(!found.contains(id), "J {j} found at {threshold}");
            }
        }
    }
}

/// Letters only (tokens are letter runs).
fn radix26(mut n: u64) -> String {
    let mut s = String::new();
    while n > 0 {
        s.push((b'A' + (n % 26) as u8) as char);
        n /= 26;
    }
    s
}

#[test]
fn trained_profiles_score_their_language() {
    let dir = tempdir("profile");
    let texts = [
        "The committee met on Monday to discuss the plans for the new school. It was agreed that \
         the building work should start in the spring, and that the council would pay for most of it.",
        "Parents have been asked to share their views before the end of the month. The head teacher \
         said that the school had been waiting for a new hall for more than ten years.",
        "A spokesman for the council said the cost of the project was not yet known, but that it \
         would be met from the budget for the next two years.",
        "The plans will be on show in the town library for the rest of the week, and a public \
         meeting is to be held in the school hall on Thursday evening.",
    ];
    let jsonl = dir.join("docs.jsonl");
    let mut f = std::fs::File::create(&jsonl).unwrap();
    for t in &texts[..3] {
        writeln!(f, "{}", serde_json::json!({ "text": t })).unwrap();
    }
    writeln!(f, "{}", serde_json::json!({ "plaintext": texts[3] })).unwrap();
    drop(f);
    let prof = dir.join("en.prof");
    let o = cowrex()
        .args([
            "train",
            "profile",
            "--lang",
            "eng",
            "--words",
            "5",
            "--min-tokens",
            "20",
        ])
        .arg(&jsonl)
        .arg("-o")
        .arg(&prof)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&prof).unwrap();
    assert!(text.starts_with("#lang=eng\n#n=4\nTHE|"), "{text}");
    assert_eq!(text.lines().count(), 7);
    // The profile is used by process: the English article scores better than the others.
    let out = dir.join("out");
    let p = prof.to_str().unwrap();
    assert!(
        process(&[&fixture("sample.warc.gz")], &out, &["--profile", p])
            .status
            .success()
    );
    let xml = String::from_utf8(gunzip(&out.join("sample.xml.gz"))).unwrap();
    let bdv: Vec<f64> = xml
        .lines()
        .filter(|l| l.starts_with("<doc "))
        .map(|l| {
            let p = l.find(" bdv=\"").unwrap() + 6;
            l[p..p + l[p..].find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert!(
        bdv[0] < 25.0 && bdv.iter().skip(1).any(|&b| b == 25.0),
        "{bdv:?}"
    );
    let bad = cowrex()
        .args(["train", "profile", "--lang", "xx", "-o"])
        .arg(&prof)
        .arg(&jsonl)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// `cowrex filter --preset` and `--require` judge the documents of JSONL and XML outputs by
/// their signals alike, write the kept ones, and list each dropped one with its reason.
#[test]
fn filter_by_signals_keeps_and_explains() {
    let dir = tempdir("filter-signals");
    let out = dir.join("out");
    let o = process(
        &[&fixture("sample.warc.gz")],
        &out,
        &["--format", "xml,jsonl"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines = String::from_utf8(gunzip(&out.join("sample.jsonl.gz"))).unwrap();
    let docs: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The reason of each document by the C4 preset, and by a requirement, from its signals.
    let words = |d: &serde_json::Value| d["signals"]["gopher_words"].as_f64().unwrap();
    let c4_drops = |d: &serde_json::Value| d["signals"]["c4_sentences"].as_f64().unwrap() < 5.0;
    assert!(docs.iter().any(c4_drops) && docs.iter().any(|d| !c4_drops(d)));
    let min = docs.iter().map(words).fold(f64::MAX, f64::min) + 1.0;
    for input in ["sample.jsonl.gz", "sample.xml.gz"] {
        let kept = dir.join(format!("kept-{input}"));
        let o = cowrex()
            .arg("filter")
            .args([
                "--preset",
                "c4",
                "--require",
                &format!("gopher_words >= {min}"),
            ])
            .arg(out.join(input))
            .arg("-o")
            .arg(&kept)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let dropped = std::fs::read_to_string(kept.join("sample.dropped.tsv")).unwrap();
        let reasons: std::collections::BTreeMap<&str, &str> = dropped
            .lines()
            .map(|l| l.split_once('\t').unwrap())
            .collect();
        for d in &docs {
            let id = d["id"].as_str().unwrap();
            let want = if c4_drops(d) {
                Some("c4/too_few_sentences".to_string())
            } else if words(d) < min {
                Some(format!("require/gopher_words>={min}"))
            } else {
                None
            };
            assert_eq!(reasons.get(id).map(|r| r.to_string()), want, "{input} {id}");
        }
        let written = gunzip(&kept.join(input));
        let n_written = if input.ends_with(".xml.gz") {
            check_xml(&written)
        } else {
            written
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count()
        };
        assert_eq!(n_written, docs.len() - reasons.len(), "{input}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("c4/too_few_sentences"), "{err}");
    }
    // A condition on no signal is a usage error; so is a filter with nothing to filter by.
    let o = cowrex()
        .args(["filter", "--require", "gopher_wordz>1"])
        .arg(out.join("sample.jsonl.gz"))
        .arg("-o")
        .arg(dir.join("bad"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no signal"));
    let o = cowrex()
        .arg("filter")
        .arg(out.join("sample.jsonl.gz"))
        .arg("-o")
        .arg(dir.join("bad"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    // A Parquet file is refused with where its rows are selected, not read as text.
    let pq = dir.join("pq");
    assert!(
        process(&[&fixture("sample.warc.gz")], &pq, &["--format", "parquet"])
            .status
            .success()
    );
    let o = cowrex()
        .args(["filter", "--preset", "fineweb"])
        .arg(pq.join("sample.parquet"))
        .arg("-o")
        .arg(dir.join("bad"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("`signals` column"));
}

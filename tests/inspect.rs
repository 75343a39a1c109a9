//! `cowrex inspect` in a real browser: headless Chromium opens the file from disk, runs its
//! script under its Content-Security-Policy, shows one element per block with the decision of
//! `extract --format json`, draws a non-blank screenshot and logs nothing to the console;
//! hostile page text stays text.
//!
//! Chromium is `$COWREX_CHROMIUM`, else `chromium` on the PATH. Without it the browser checks
//! are skipped with a message, unless `COWREX_BROWSER_TESTS=1` (`.ci/run` sets it after
//! installing Debian's chromium), when its absence fails the test.

use crate::common;
use common::{cowrex, tempdir, warc_record};

use std::path::{Path, PathBuf};
use std::process::Command;

/// The browser, or None (with a message) when it is absent and not required.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("COWREX_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join("chromium"))
                    .find(|p| p.is_file())
            })
        });
    if path.is_none() {
        assert!(
            std::env::var("COWREX_BROWSER_TESTS").as_deref() != Ok("1"),
            "COWREX_BROWSER_TESTS=1 but no chromium (set COWREX_CHROMIUM or install chromium)"
        );
        eprintln!("SKIPPED: no chromium on the PATH (or $COWREX_CHROMIUM); browser checks not run");
    }
    path
}

/// Run headless Chromium on a file with `args`; returns stdout and the console lines of its log.
fn browse(chromium: &Path, profile: &Path, file: &Path, args: &[&str]) -> (String, Vec<String>) {
    browse_url(
        chromium,
        profile,
        &format!("file://{}", file.display()),
        args,
    )
}

/// [`browse`] a URL (a file's with a fragment, say).
fn browse_url(chromium: &Path, profile: &Path, url: &str, args: &[&str]) -> (String, Vec<String>) {
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--log-level=0",
            "--window-size=1200,800",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let console = String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_owned)
        .collect();
    (String::from_utf8_lossy(&o.stdout).into_owned(), console)
}

/// The class attributes of the DOM's block elements, in order.
fn block_classes(dom: &str) -> Vec<String> {
    dom.split("<li class=\"block ")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
        .collect()
}

const HOSTILE: &str = "<html><head><title>\"><img src=x onerror=alert(1)></title>\
    <meta name=author content=\"<script>alert(2)</script>\"></head><body>\
    <nav><a href=/>Home</a> <a href=/a>About</a></nav>\
    <h1>&lt;script&gt;alert(3)&lt;/script&gt;</h1>\
    <p>Click <a href=\"javascript:alert(4)\">here</a> &lt;img src=x onerror=alert(5)&gt; for the \
    long text of this page, which goes on for a while, so that it is the page's content.</p>\
    <p>A second paragraph with \"><svg onload=alert(6)> in it, and more running text.</p></body></html>";

#[test]
fn the_inspector_shows_every_block_in_a_browser() {
    let dir = tempdir("inspect");
    let page = dir.join("hostile.html");
    std::fs::write(&page, HOSTILE).unwrap();
    let gold = dir.join("gold.txt");
    std::fs::write(&gold, "Click here for the long text of this page").unwrap();
    let out = dir.join("hostile-inspect.html");
    let o = cowrex()
        .args(["inspect", "--url", "javascript:alert(7)", "--gold"])
        .arg(&gold)
        .arg(&page)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    // Page text is text: one script (the inspector's), no element from the page.
    assert_eq!(html.matches("<script").count(), 1);
    for tag in ["<img", "<svg", "href="] {
        assert!(!html.contains(tag), "{tag}");
    }
    assert!(html.contains("&lt;script&gt;alert(3)&lt;/script&gt;"));
    assert!(html.contains("javascript:alert(7)") && html.contains("precision"));

    // A record of a WARC file, chosen by its URL.
    let record = dir.join("record.html");
    let o = cowrex()
        .args(["inspect", "--warc", "fixtures/sample.warc.gz", "--url"])
        .arg("https://example.org/news/festival")
        .arg("-o")
        .arg(&record)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The same record by its record id and by its offset (both from `extract --format json`
    // of the WARC's JSONL), and the page file from standard input: the same files.
    let jsonl = dir.join("run");
    let o = cowrex()
        .args([
            "process",
            "--format",
            "jsonl",
            "--no-shingles",
            "-j1",
            "--no-progress",
        ])
        .arg("fixtures/sample.warc.gz")
        .arg("-o")
        .arg(&jsonl)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let corpus = flate2::read::MultiGzDecoder::new(
        std::fs::File::open(jsonl.join("sample.jsonl.gz")).unwrap(),
    );
    let doc: serde_json::Value = std::io::BufRead::lines(std::io::BufReader::new(corpus))
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .find(|d: &serde_json::Value| d["url"] == "https://example.org/news/festival")
        .expect("the festival page in the sample's corpus");
    let by_url = std::fs::read(&record).unwrap();
    for (flag, value) in [
        (
            "--record-id",
            doc["provenance"]["warc_record_id"]
                .as_str()
                .unwrap()
                .to_owned(),
        ),
        (
            "--offset",
            doc["provenance"]["offset"].as_u64().unwrap().to_string(),
        ),
    ] {
        let other = dir.join("other.html");
        let o = cowrex()
            .args([
                "inspect",
                "--warc",
                "fixtures/sample.warc.gz",
                flag,
                &value,
                "-o",
            ])
            .arg(&other)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{flag}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            std::fs::read(&other).unwrap() == by_url,
            "{flag} chose another record"
        );
    }
    let piped = dir.join("piped.html");
    let mut child = cowrex()
        .args(["inspect", "--url", "javascript:alert(7)", "--gold"])
        .arg(&gold)
        .args(["-", "-o"])
        .arg(&piped)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), HOSTILE.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(std::fs::read(&piped).unwrap() == std::fs::read(&out).unwrap());
    let o = cowrex()
        .args([
            "inspect",
            "--warc",
            "fixtures/sample.warc.gz",
            "--url",
            "https://nowhere.example/",
            "-o",
        ])
        .arg(dir.join("none.html"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "an input error");
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no HTML document with that URL"));

    let Some(chromium) = chromium() else { return };
    for (file, source, url) in [
        (&out, page.clone(), "javascript:alert(7)"),
        (&record, PathBuf::new(), "https://example.org/news/festival"),
    ] {
        let profile = dir.join("profile");
        let (dom, console) = browse(&chromium, &profile, file, &["--dump-dom"]);
        assert!(console.is_empty(), "console: {console:?}");
        // The script ran (the policy allowed it), and added nothing from the page.
        assert!(
            dom.contains("data-ready=\"1\""),
            "the inspector's script did not run"
        );
        assert_eq!(dom.matches("<script").count(), 1);
        assert!(!dom.contains("<img") && !dom.contains("<svg"));
        // One element per block, kept or dropped as `extract --format json` decides.
        let json = if source.as_os_str().is_empty() {
            None
        } else {
            let o = cowrex()
                .args(["extract", "--format", "json", "--url", url])
                .arg(&source)
                .output()
                .unwrap();
            Some(serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap())
        };
        let classes = block_classes(&dom);
        assert!(!classes.is_empty());
        if let Some(j) = json {
            let blocks = j["blocks"].as_array().unwrap();
            assert_eq!(classes.len(), blocks.len());
            for (c, b) in classes.iter().zip(blocks) {
                let kept = !b["boilerplate"].as_bool().unwrap();
                assert_eq!(
                    c.split(' ').next().unwrap(),
                    if kept { "kept" } else { "dropped" }
                );
            }
            assert!(classes.iter().any(|c| c.contains("kept")));
        }
        // A block's detectors, opened, become a table (the script fills it in).
        let opened = dir.join("opened.html");
        let html = std::fs::read_to_string(file).unwrap();
        std::fs::write(
            &opened,
            html.replacen("<details data-s", "<details open data-s", 1),
        )
        .unwrap();
        // A block opened when the page loads gets its table from the script's start, not from
        // the `toggle` event, which may fire after the DOM is dumped.
        let (dom, console) = browse(&chromium, &profile, &opened, &["--dump-dom"]);
        assert!(console.is_empty(), "console: {console:?}");
        assert!(
            dom.contains("<summary>detectors</summary><table><tbody><tr><td>mlp</td><td>"),
            "the opened detectors have no table"
        );
        // The fragment sets both controls: dropped blocks hidden, jusText's decision shown,
        // as `extract --scorer justext` decides.
        if let Some(url_of_page) = (!source.as_os_str().is_empty()).then_some(url) {
            let view = format!("file://{}#hide&decision=justext", file.display());
            let (dom, console) = browse_url(&chromium, &profile, &view, &["--dump-dom"]);
            assert!(console.is_empty(), "console: {console:?}");
            assert!(dom.contains("class=\"hide-dropped\""), "not hidden");
            let o = cowrex()
                .args([
                    "extract", "--format", "json", "--scorer", "justext", "--url",
                ])
                .arg(url_of_page)
                .arg(&source)
                .output()
                .unwrap();
            let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let justext: Vec<&str> = j["blocks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| {
                    if b["boilerplate"].as_bool().unwrap() {
                        "dropped"
                    } else {
                        "kept"
                    }
                })
                .collect();
            // The script moves the class it sets to the end: look for it among them.
            let decision = |c: &String| {
                if c.split(' ').any(|t| t == "kept") {
                    "kept"
                } else {
                    "dropped"
                }
            };
            let shown: Vec<&str> = block_classes(&dom).iter().map(decision).collect();
            assert_eq!(shown, justext);
            assert!(
                justext != classes.iter().map(decision).collect::<Vec<_>>(),
                "jusText decides like the combined model on this page: the check shows nothing"
            );
        }
        let png = dir.join("shot.png");
        let arg = format!("--screenshot={}", png.display());
        let (_, console) = browse(&chromium, &profile, file, &[&arg]);
        assert!(console.is_empty(), "console: {console:?}");
        let shot = std::fs::read(&png).unwrap();
        assert!(shot.starts_with(b"\x89PNG"), "not a PNG");
        // A blank 1200 x 800 page compresses to a few KB; a drawn one to tens.
        assert!(
            shot.len() > 15_000,
            "screenshot of {} bytes looks blank",
            shot.len()
        );
    }
}

#[test]
fn the_report_draws_a_run_in_a_browser() {
    let dir = tempdir("report");
    // A hostile input: its host and page text try to become markup.
    let hostile = dir.join("hostile.warc");
    let mut warc = warc_record(
        "http://x\"><img src=x onerror=alert(1)>.example/",
        HOSTILE,
        1,
    );
    warc.extend(warc_record("https://ok.example/a", HOSTILE, 2));
    std::fs::write(&hostile, warc).unwrap();
    let out = dir.join("out");
    for format in ["xml,jsonl", "xml"] {
        let _ = std::fs::remove_dir_all(&out);
        let o = cowrex()
            .args(["process", "--no-progress", "--format", format, "-o"])
            .arg(&out)
            .args(["fixtures/sample.warc.gz", "fixtures/broken.warc.gz"])
            .arg(&hostile)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let report = dir.join("report.html");
        let o = cowrex()
            .arg("report")
            .arg(&out)
            .arg("-o")
            .arg(&report)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let html = std::fs::read_to_string(&report).unwrap();
        // Fates with their bytes, the hosts, the charts; nothing from the pages as markup.
        assert!(html.contains("skipped.not_response") && html.contains("corrupt_gzip_or_record"));
        assert!(
            html.contains("ok.example") && html.contains("x&quot;&gt;&lt;img"),
            "{format}"
        );
        assert_eq!(html.matches("<svg").count(), 6, "{format}");
        assert!(!html.contains("<img") && !html.contains("<script"));
        assert!(html.contains(if format == "xml" { "(xml)" } else { "(jsonl)" }));
    }
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = cowrex()
        .arg("report")
        .arg(&empty)
        .arg("-o")
        .arg(dir.join("r.html"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "an input error");
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a cowrex output directory"));
    // A manifest run mirrors its inputs' paths under the output directory: the report finds
    // every input's files below it.
    let manifest = dir.join("inputs.paths");
    std::fs::write(
        &manifest,
        "fixtures/sample.warc.gz\nfixtures/broken.warc.gz\n",
    )
    .unwrap();
    let mirrored = dir.join("mirrored");
    let o = cowrex()
        .args([
            "process",
            "--no-progress",
            "--format",
            "jsonl",
            "--manifest",
        ])
        .arg(&manifest)
        .arg("--input-base")
        .arg(".")
        .arg("-o")
        .arg(&mirrored)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(mirrored.join("fixtures/sample.stats.json").exists());
    let o = cowrex()
        .arg("report")
        .arg(&mirrored)
        .arg("-o")
        .arg(dir.join("m.html"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(dir.join("m.html")).unwrap();
    assert!(html.contains("sample.warc.gz") && html.contains("broken.warc.gz"));
    assert!(html.contains("corrupt_gzip_or_record") && html.contains("(jsonl)"));

    let Some(chromium) = chromium() else { return };
    let report = dir.join("report.html");
    let profile = dir.join("profile");
    let (dom, console) = browse(&chromium, &profile, &report, &["--dump-dom"]);
    assert!(console.is_empty(), "console: {console:?}");
    assert_eq!(dom.matches("<svg").count(), 6);
    assert!(!dom.contains("<img") && !dom.contains("<script"));
    let png = dir.join("report.png");
    let (_, console) = browse(
        &chromium,
        &profile,
        &report,
        &[&format!("--screenshot={}", png.display())],
    );
    assert!(console.is_empty(), "console: {console:?}");
    let shot = std::fs::read(&png).unwrap();
    assert!(
        shot.starts_with(b"\x89PNG") && shot.len() > 15_000,
        "{} bytes",
        shot.len()
    );
}

//! The run report (`cowrex report`): one self-contained HTML file about a whole run, from its
//! `S.stats.json` files and corpus files: record fates with their bytes, documents, languages,
//! top hosts, histograms of block `bpv`, badness, content length and content share, exact and
//! near duplicates, per-input throughput and stream errors. Charts are SVG drawn by
//! `plotters`. Memory stays bounded whatever the run's size: corpus files are streamed into
//! fixed histograms and a bounded host counter.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use plotters::prelude::*;
use serde_json::Value;

use cowrex::error::{Error, ErrorKind};
use cowrex::output::inspect::{csp_hash, esc};

/// Counters of the most frequent hosts, at most this many (the space-saving algorithm).
pub const HOST_COUNTERS: usize = 10_000;
/// Hosts and inputs listed.
const TOP: usize = 20;

/// Histogram bins: `bpv` and content share over 0–1, badness over 0–50, content length over
/// 10^0–10^6 characters in quarter decades.
const SHARE_BINS: usize = 20;
const BADNESS_BINS: usize = 25;
const LENGTH_BINS: usize = 24;

/// One input of the run.
#[derive(Debug, Clone)]
pub struct InputRow {
    /// The input as its `S.stats.json` names it.
    pub input: String,
    /// Records read.
    pub records: u64,
    /// Documents written.
    pub documents: u64,
    /// Size of the input file in bytes.
    pub bytes: u64,
    /// Time spent on the input in milliseconds.
    pub ms: u64,
    /// Bytes of the damaged stretches skipped.
    pub stream_error_bytes: u64,
    /// Its `S.done.json` exists: it was read to its end.
    pub done: bool,
}

/// What [`gather`] finds in a run's output directory.
#[derive(Debug, Default)]
pub struct Run {
    /// The output directory.
    pub dir: PathBuf,
    /// The sum of the `S.stats.json` files ([`cowrex::output::stats::merge`]).
    pub totals: Value,
    /// One row per `S.stats.json`, in path order.
    pub inputs: Vec<InputRow>,
    /// Documents read from the corpus files.
    pub documents: u64,
    /// The format they were read from: `jsonl`, `xml`, or `none`.
    pub format: &'static str,
    /// Blocks by `bpv`, 0–1 in 20 bins.
    pub bpv: [u64; SHARE_BINS],
    /// Documents by badness, 0–50 in 25 bins (the last takes the rest).
    pub badness: [u64; BADNESS_BINS],
    /// Documents by content length, 10^0–10^6 characters in 24 bins of a quarter decade.
    pub length: [u64; LENGTH_BINS],
    /// Documents by content share, 0–1 in 20 bins.
    pub share: [u64; SHARE_BINS],
    /// Documents by host (`unknown` when there is none).
    pub hosts: HostCounter,
    /// With a near-duplicate blacklist (`cowrex dedup`): this run's documents on it, and the
    /// ids it lists.
    pub blacklisted: Option<(u64, u64)>,
    /// Hashes of the documents' ids, while a blacklist is to be matched (8 bytes a document).
    ids: Option<rustc_hash::FxHashSet<u64>>,
}

/// The most frequent hosts in bounded memory (Metwally et al.'s space-saving): a host's count
/// is exact while fewer than [`HOST_COUNTERS`] hosts are seen, and otherwise at most the
/// run's documents / [`HOST_COUNTERS`] too high.
#[derive(Debug, Default)]
pub struct HostCounter {
    counts: std::collections::HashMap<String, u64>,
    /// The same counters ordered by count, then host.
    order: std::collections::BTreeSet<(u64, String)>,
    /// Whether a counter was ever taken over (the counts are then upper bounds).
    pub approximate: bool,
}

impl HostCounter {
    /// Count one document of `host`.
    pub fn add(&mut self, host: &str) {
        let count = match self.counts.get(host) {
            Some(&c) => {
                self.order.remove(&(c, host.to_owned()));
                c + 1
            }
            None if self.counts.len() < HOST_COUNTERS => 1,
            None => {
                // Take over the smallest counter (the first by name among equals).
                let (min, old) = self.order.pop_first().expect("full");
                self.counts.remove(&old);
                self.approximate = true;
                min + 1
            }
        };
        self.counts.insert(host.to_owned(), count);
        self.order.insert((count, host.to_owned()));
    }

    /// The `n` most frequent hosts, most frequent first (ties by name).
    pub fn top(&self, n: usize) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = self.counts.iter().map(|(h, &c)| (h.as_str(), c)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        v.truncate(n);
        v
    }
}

fn bin(x: f64, lo: f64, hi: f64, n: usize) -> usize {
    (((x - lo) / (hi - lo) * n as f64).floor().max(0.0) as usize).min(n - 1)
}

/// The hash [`Run`] keeps of a document id.
fn id_hash(id: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(id.as_bytes())
}

impl Run {
    fn document(&mut self, id: &str, host: &str, badness: f64, content_chars: f64, share: f64) {
        if let Some(ids) = &mut self.ids {
            ids.insert(id_hash(id));
        }
        self.documents += 1;
        self.hosts
            .add(if host.is_empty() { "unknown" } else { host });
        self.badness[bin(badness, 0.0, 50.0, BADNESS_BINS)] += 1;
        self.length[bin(content_chars.max(1.0).log10(), 0.0, 6.0, LENGTH_BINS)] += 1;
        self.share[bin(share, 0.0, 1.0, SHARE_BINS)] += 1;
    }

    fn block(&mut self, bpv: f64) {
        self.bpv[bin(bpv, 0.0, 1.0, SHARE_BINS)] += 1;
    }
}

/// The `*.stats.json` files under `dir` and its subdirectories (a manifest run mirrors its
/// inputs' paths), in path order; symbolic links are not followed.
fn stats_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::input(dir.display(), e))?;
    let mut paths: Vec<(PathBuf, bool)> = entries
        .filter_map(|e| e.ok())
        .map(|e| (e.path(), e.file_type().is_ok_and(|t| t.is_dir())))
        .collect();
    paths.sort();
    for (path, is_dir) in paths {
        if is_dir {
            stats_files(&path, out)?;
        } else if path.to_string_lossy().ends_with(".stats.json") {
            out.push(path);
        }
    }
    Ok(())
}

/// Read a run's output directory: every `S.stats.json` in it or below it, and each input's
/// JSONL corpus file (else its XML); `blacklist` is a blacklist of `cowrex dedup`.
pub fn gather(dir: &Path, blacklist: Option<&Path>) -> Result<Run, Error> {
    let mut names = Vec::new();
    stats_files(dir, &mut names)?;
    if names.is_empty() {
        return Err(Error::new(
            ErrorKind::Input,
            format!(
                "{} has no *.stats.json: not a cowrex output directory",
                dir.display()
            ),
        ));
    }
    let mut run = Run {
        dir: dir.to_owned(),
        format: "none",
        ids: blacklist.map(|_| Default::default()),
        ..Run::default()
    };
    let mut stats = Vec::with_capacity(names.len());
    for path in &names {
        let v: Value = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
            .map_err(|e| Error::input(path.display(), e))?;
        let stem = path
            .to_string_lossy()
            .trim_end_matches(".stats.json")
            .to_owned();
        let n = |k: &str| v[k].as_u64().unwrap_or(0);
        run.inputs.push(InputRow {
            input: v["input"].as_str().unwrap_or("").to_owned(),
            records: n("records"),
            documents: n("documents"),
            bytes: v["bytes"]["input"].as_u64().unwrap_or(0),
            ms: v["time_ms"]["total"].as_u64().unwrap_or(0),
            stream_error_bytes: n("stream_error_bytes"),
            done: Path::new(&format!("{stem}.done.json")).exists(),
        });
        // The corpus files: those S.done.json lists (a run split by language has one per
        // language), else S.jsonl.gz or S.xml.gz beside the statistics.
        // Its names are relative to the run's output directory, which the statistics' own
        // name, listed last, tells (a mirrored input's stem has directories).
        let names: Vec<String> = std::fs::read(format!("{stem}.done.json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|d| d["outputs"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|o| o.as_str().map(str::to_owned))
            .collect();
        let full = path.to_string_lossy();
        let root = names
            .iter()
            .find(|n| n.ends_with(".stats.json") && full.ends_with(n.as_str()))
            .map(|n| PathBuf::from(&full[..full.len() - n.len()]))
            .unwrap_or_else(|| path.parent().unwrap_or(Path::new("")).to_path_buf());
        let listed: Vec<PathBuf> = names.iter().map(|o| root.join(o)).collect();
        let corpus = |ext: &str| -> Vec<PathBuf> {
            let of = listed.iter().filter(|p| p.to_string_lossy().ends_with(ext));
            let files: Vec<PathBuf> = of.cloned().collect();
            if !files.is_empty() || !listed.is_empty() {
                return files;
            }
            let beside = PathBuf::from(format!("{stem}{ext}"));
            if beside.exists() {
                vec![beside]
            } else {
                Vec::new()
            }
        };
        let (jsonl, xml) = (corpus(".jsonl.gz"), corpus(".xml.gz"));
        if !jsonl.is_empty() {
            for f in &jsonl {
                read_jsonl(f, &mut run)?;
            }
            run.format = "jsonl";
        } else if !xml.is_empty() {
            for f in &xml {
                read_xml(f, &mut run)?;
            }
            if run.format == "none" {
                run.format = "xml";
            }
        }
        stats.push(v);
    }
    run.totals = cowrex::output::stats::merge(&stats)?;
    if let (Some(b), Some(mut ids)) = (blacklist, run.ids.take()) {
        // The blacklist is streamed: only the run's ids are held (as hashes), each counted once
        // however often the blacklist (say, several runs' joined) lists it.
        let f = std::fs::File::open(b).map_err(|e| Error::input(b.display(), e))?;
        let (mut listed, mut here) = (0u64, 0u64);
        for line in std::io::BufReader::new(f).lines() {
            let line = line.map_err(|e| Error::input(b.display(), e))?;
            if let Some(id) = line.split_whitespace().next() {
                listed += 1;
                here += u64::from(ids.remove(&id_hash(id)));
            }
        }
        run.blacklisted = Some((here, listed));
    }
    Ok(run)
}

fn lines(path: &Path) -> Result<impl Iterator<Item = std::io::Result<String>>, Error> {
    let f = std::fs::File::open(path).map_err(|e| Error::input(path.display(), e))?;
    Ok(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(f)).lines())
}

fn read_jsonl(path: &Path, run: &mut Run) -> Result<(), Error> {
    for line in lines(path)? {
        let line = line.map_err(|e| Error::input(path.display(), e))?;
        let Ok(d) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let f = |k: &str| d[k].as_f64().unwrap_or(0.0);
        run.document(
            d["id"].as_str().unwrap_or(""),
            d["host"].as_str().unwrap_or(""),
            f("bdv"),
            f("nbc"),
            f("nbcprop").max(0.0),
        );
        for b in d["blocks"].as_array().into_iter().flatten() {
            run.block(b["bpv"].as_f64().unwrap_or(0.0));
        }
    }
    Ok(())
}

/// An attribute value of texrex's XML unescaped (`&amp;`, `&quot;`, `&apos;`, `&lt;`, `&gt;`).
fn unescape_xml(v: &str) -> String {
    if !v.contains('&') {
        return v.to_owned();
    }
    v.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The value of attribute `name` in a texrex XML tag line.
fn attr<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = line.find(&key)? + key.len();
    line[at..].split('"').next()
}

fn read_xml(path: &Path, run: &mut Run) -> Result<(), Error> {
    for line in lines(path)? {
        let line = line.map_err(|e| Error::input(path.display(), e))?;
        let num = |k: &str| {
            attr(&line, k)
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        if line.starts_with("<doc ") {
            let host = attr(&line, "host").unwrap_or("");
            run.document(
                &unescape_xml(attr(&line, "id").unwrap_or("")),
                &unescape_xml(host),
                num("bdv"),
                num("nbc"),
                num("nbcprop").max(0.0),
            );
        } else if line.starts_with("<div ") {
            run.block(num("bpv"));
        }
    }
    Ok(())
}

const STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 1em;color:#222}\
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.6em;border-bottom:1px solid #ddd}\
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.15em .8em .15em 0;text-align:left}\
td.n,th.n{text-align:right}.charts{display:flex;flex-wrap:wrap;gap:1em}\
.note{color:#666;font-size:.9em}svg{max-width:100%;height:auto}";

/// A vertical bar chart of `values` over `labels` as SVG.
fn bars(title: &str, x_desc: &str, labels: &[String], values: &[u64]) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (520, 260)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let max = values.iter().copied().max().unwrap_or(0).max(1);
        let n = values.len().max(1) as u32;
        if let Ok(mut chart) = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 15))
            .margin(6)
            .x_label_area_size(34)
            .y_label_area_size(48)
            .build_cartesian_2d((0u32..n).into_segmented(), 0u64..max + max / 10 + 1)
        {
            let _ = chart
                .configure_mesh()
                .disable_x_mesh()
                .x_desc(x_desc)
                .x_labels(labels.len().min(12))
                .x_label_formatter(&|v| match v {
                    SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                        labels.get(*i as usize).cloned().unwrap_or_default()
                    }
                    SegmentValue::Last => String::new(),
                })
                .draw();
            let _ = chart.draw_series(
                Histogram::vertical(&chart)
                    .style(RGBColor(70, 120, 180).filled())
                    .margin(1)
                    .data(values.iter().enumerate().map(|(i, &v)| (i as u32, v))),
            );
        }
        let _ = root.present();
    }
    svg
}

fn range_labels(n: usize, lo: f64, hi: f64, fmt: impl Fn(f64) -> String) -> Vec<String> {
    (0..n)
        .map(|i| fmt(lo + (hi - lo) * i as f64 / n as f64))
        .collect()
}

/// The report's HTML.
pub fn render(run: &Run) -> String {
    let t = &run.totals;
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src ");
    out.push_str(&csp_hash(STYLE));
    out.push_str("\">\n<title>cowrex report: ");
    esc(&mut out, &run.dir.display().to_string());
    out.push_str("</title>\n<style>");
    out.push_str(STYLE);
    out.push_str("</style></head>\n<body>\n<h1>cowrex run: ");
    esc(&mut out, &run.dir.display().to_string());
    out.push_str("</h1>\n");

    // Summary.
    let done = run.inputs.iter().filter(|i| i.done).count();
    let mb = n(&t["bytes"]["input"]) as f64 / 1e6;
    let ms: u64 = run.inputs.iter().map(|i| i.ms).sum();
    let mut rows: Vec<(String, String)> = vec![
        (
            "inputs".into(),
            format!(
                "{} ({} read to their end, {} without S.done.json)",
                run.inputs.len(),
                done,
                run.inputs.len() - done
            ),
        ),
        (
            "input".into(),
            format!("{mb:.1} MB, {} records", n(&t["records"])),
        ),
        ("documents written".into(), n(&t["documents"]).to_string()),
        (
            "exact duplicates (marked)".into(),
            n(&t["duplicates"]).to_string(),
        ),
        (
            "near duplicates (blacklisted)".into(),
            run.blacklisted
                .map_or("– (no --blacklist)".into(), |(here, listed)| {
                    format!("{here} of this run's documents (the blacklist lists {listed})")
                }),
        ),
        (
            "damaged input skipped".into(),
            format!("{} bytes", n(&t["stream_error_bytes"])),
        ),
        (
            "processing time".into(),
            format!(
                "{:.1} s of the workers (sum of S.stats.json time_ms.total)",
                ms as f64 / 1e3
            ),
        ),
        (
            "read from the corpus".into(),
            format!("{} documents ({})", run.documents, run.format),
        ),
    ];
    out.push_str("<table>\n");
    for (k, v) in rows.drain(..) {
        out.push_str("<tr><th>");
        esc(&mut out, &k);
        out.push_str("</th><td>");
        esc(&mut out, &v);
        out.push_str("</td></tr>\n");
    }
    out.push_str("</table>\n");

    // Fates.
    out.push_str("<h2>Records by fate</h2>\n<table><tr><th>fate</th><th class=\"n\">records</th><th class=\"n\">bytes</th><th class=\"n\">share</th></tr>\n");
    let records = n(&t["records"]).max(1);
    let map = |v: &Value| -> BTreeMap<String, u64> {
        v.as_object()
            .map(|o| o.iter().map(|(k, v)| (k.clone(), n(v))).collect())
            .unwrap_or_default()
    };
    let fate_bytes = map(&t["fate_bytes"]);
    for (fate, count) in map(&t["fates"]) {
        out.push_str("<tr><td>");
        esc(&mut out, &fate);
        out.push_str(&format!(
            "</td><td class=\"n\">{count}</td><td class=\"n\">{}</td><td class=\"n\">{:.1} %</td></tr>\n",
            fate_bytes.get(&fate).copied().unwrap_or(0),
            100.0 * count as f64 / records as f64
        ));
    }
    out.push_str("</table>\n");
    let errors = map(&t["stream_errors"]);
    if !errors.is_empty() {
        out.push_str("<p>Damaged stretches skipped (stream errors): ");
        let list: Vec<String> = errors.iter().map(|(k, v)| format!("{k} {v}")).collect();
        esc(&mut out, &list.join(", "));
        out.push_str("</p>\n");
    }

    // A run split by language: each corpus's documents.
    let mut parts: Vec<(String, u64)> = map(&t["parts"]).into_iter().collect();
    if !parts.is_empty() {
        parts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let documents = n(&t["documents"]).max(1);
        out.push_str("<h2>Corpora (--split-by)</h2>\n<table><tr><th>directory</th><th class=\"n\">documents</th><th class=\"n\">share</th></tr>\n");
        for (part, count) in parts {
            out.push_str("<tr><td>");
            esc(&mut out, &part);
            out.push_str(&format!(
                "/</td><td class=\"n\">{count}</td><td class=\"n\">{:.1} %</td></tr>\n",
                100.0 * count as f64 / documents as f64
            ));
        }
        out.push_str("</table>\n");
    }

    // Languages and hosts.
    out.push_str("<h2>Documents</h2>\n<div class=\"charts\">\n");
    let mut langs: Vec<(String, u64)> = map(&t["languages"]).into_iter().collect();
    langs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    langs.truncate(12);
    let (labels, values): (Vec<String>, Vec<u64>) = langs.into_iter().unzip();
    out.push_str(&bars(
        "Languages (the 12 most frequent)",
        "language",
        &labels,
        &values,
    ));
    out.push_str(&bars(
        "Content length",
        "characters of content (log scale)",
        &range_labels(LENGTH_BINS, 0.0, 6.0, |x| format!("{:.0}", 10f64.powf(x))),
        &run.length,
    ));
    out.push_str(&bars(
        "Content share",
        "share of the document's characters kept",
        &range_labels(SHARE_BINS, 0.0, 1.0, |x| format!("{x:.2}")),
        &run.share,
    ));
    out.push_str(&bars(
        "Badness (text quality; 0 is best)",
        "badness",
        &range_labels(BADNESS_BINS, 0.0, 50.0, |x| format!("{x:.0}")),
        &run.badness,
    ));
    out.push_str(&bars(
        "Block bpv (all blocks)",
        "bpv (0 content, 1 boilerplate)",
        &range_labels(SHARE_BINS, 0.0, 1.0, |x| format!("{x:.2}")),
        &run.bpv,
    ));
    out.push_str(
        "</div>\n<h2>Top hosts</h2>\n<table><tr><th>host</th><th class=\"n\">documents</th></tr>\n",
    );
    for (host, count) in run.hosts.top(TOP) {
        out.push_str("<tr><td>");
        esc(&mut out, host);
        out.push_str(&format!("</td><td class=\"n\">{count}</td></tr>\n"));
    }
    out.push_str("</table>\n");
    if run.hosts.approximate {
        out.push_str(&format!(
            "<p class=\"note\">More than {HOST_COUNTERS} hosts: counts are upper bounds, each at \
             most {} too high (space-saving counters).</p>\n",
            run.documents / HOST_COUNTERS as u64
        ));
    }

    // Inputs.
    out.push_str("<h2>Inputs</h2>\n");
    let speeds: Vec<f64> = run
        .inputs
        .iter()
        .filter(|i| i.ms > 0)
        .map(|i| i.bytes as f64 / 1e3 / i.ms as f64)
        .collect();
    // Inputs too small to time (0 ms) are left out.
    let hi = speeds.iter().copied().fold(0.0, f64::max).max(1e-9);
    let mut bins = [0u64; 20];
    for s in &speeds {
        bins[bin(*s, 0.0, hi * 1.0001, 20)] += 1;
    }
    out.push_str(&bars(
        "Throughput per input",
        "MB of input per second of its worker time",
        &range_labels(20, 0.0, hi, |x| format!("{x:.1}")),
        &bins,
    ));
    out.push_str(&format!(
        "<table><tr><th>the {TOP} slowest inputs</th><th class=\"n\">records</th><th class=\"n\">documents</th><th class=\"n\">MB</th><th class=\"n\">s</th><th class=\"n\">damaged bytes</th><th>done</th></tr>\n"
    ));
    let mut slow: Vec<&InputRow> = run.inputs.iter().collect();
    slow.sort_by(|a, b| {
        let rate = |i: &InputRow| i.bytes as f64 / i.ms.max(1) as f64;
        rate(a)
            .total_cmp(&rate(b))
            .then_with(|| a.input.cmp(&b.input))
    });
    for i in slow.into_iter().take(TOP) {
        out.push_str("<tr><td>");
        esc(&mut out, &i.input);
        out.push_str(&format!(
            "</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.1}</td><td class=\"n\">{:.1}</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
            i.records,
            i.documents,
            i.bytes as f64 / 1e6,
            i.ms as f64 / 1e3,
            i.stream_error_bytes,
            if i.done { "yes" } else { "no" }
        ));
    }
    out.push_str("</table>\n</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_counted_in_bounded_memory() {
        let mut h = HostCounter::default();
        for i in 0..3 * HOST_COUNTERS {
            h.add(&format!("rare{i}.example"));
            h.add("big.example");
        }
        assert_eq!(h.counts.len(), HOST_COUNTERS);
        assert!(h.approximate);
        assert_eq!(h.top(1), [("big.example", 3 * HOST_COUNTERS as u64)]);
        let mut exact = HostCounter::default();
        for host in ["a", "b", "a"] {
            exact.add(host);
        }
        assert_eq!(exact.top(5), [("a", 2), ("b", 1)]);
        assert!(!exact.approximate);
    }

    #[test]
    fn bins_hold_their_ranges() {
        assert_eq!(bin(0.0, 0.0, 1.0, 20), 0);
        assert_eq!(bin(1.0, 0.0, 1.0, 20), 19);
        assert_eq!(bin(0.5, 0.0, 1.0, 20), 10);
        assert_eq!(bin(-3.0, 0.0, 1.0, 20), 0);
        assert_eq!(bin(f64::NAN, 0.0, 1.0, 20), 0);
        assert_eq!(
            attr("<doc url=\"u\" host=\"a.b\" bdv=\"3.5\">", "bdv"),
            Some("3.5")
        );
    }
}

//! The threaded pipeline: one reader thread → N worker threads → one writer thread, with
//! bounded channels in between and a window of sequence numbers that bounds how far the
//! reader may run ahead of the writer (so memory does not grow with the input).
//!
//! Every item carries a sequence number; the writer puts items back in input order, so the
//! output is byte-identical whatever the number of workers.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded};
use flate2::Compression;
use flate2::write::GzEncoder;
use md5::{Digest, Md5};
use serde::Serialize;

use crate::classify::Models;
use crate::document::{self, Config, Meta, Page, StageTimes};
use crate::hex;
use crate::output::stats::FileStats;
use crate::output::xml;
use crate::warc::{self, ReadItem, ReadOptions, Record, http};

/// Settings of a `process` run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    pub inputs: Vec<Input>,
    pub out_dir: PathBuf,
    pub threads: usize,
    pub doc: Config,
    /// Record blocks above this many bytes are skipped (`skipped.payload_too_large`).
    pub max_payload: u64,
    pub progress: bool,
    /// gzip level of the XML output.
    pub compression: u32,
}

/// One input: a WARC file, or standard input spooled to a temporary file.
#[derive(Debug, Clone)]
pub struct Input {
    pub path: PathBuf,
    /// Output stem (`S` in `S.xml.gz`).
    pub stem: String,
    /// Name written as `arcfile`.
    pub arcfile: String,
}

impl Input {
    /// An input file; the stem is its name without `.gz` and `.warc`.
    pub fn file(path: PathBuf) -> Input {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "input".into());
        let mut stem = name.as_str();
        for ext in [".gz", ".warc", ".arc"] {
            stem = stem.strip_suffix(ext).unwrap_or(stem);
        }
        Input {
            stem: stem.to_string(),
            arcfile: name.clone(),
            path,
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub files_done: usize,
    pub files_failed: Vec<(String, String)>,
    pub records: u64,
    pub documents: u64,
    pub bytes: u64,
    pub elapsed: Duration,
}

enum Job {
    Start {
        file: usize,
    },
    /// A record and the index of its input.
    Record(Box<Record>, usize),
    TooLarge(Box<Record>),
    Broken(Box<Record>),
    Skipped {
        reason: &'static str,
        bytes: u64,
    },
    End {
        error: Option<String>,
    },
}

enum Done {
    Start {
        file: usize,
    },
    Record {
        warc_type: String,
        fate: String,
        block_bytes: u64,
        truncated: Option<String>,
        doc: Option<Box<DocOut>>,
        times: StageTimes,
    },
    Skipped {
        reason: &'static str,
        bytes: u64,
    },
    End {
        error: Option<String>,
    },
}

struct DocOut {
    xml: Vec<u8>,
    blocks_found: u64,
    blocks_written: u64,
    capped: Option<&'static str>,
    charset: String,
    evidence: &'static str,
    malformed: bool,
    language: &'static str,
    model: &'static str,
}

/// Hash of everything that changes the output (model included), for `done.json`.
pub fn config_hash(cfg: &RunConfig, model_checksum: &str) -> String {
    let s = format!(
        "v1 threshold={} max_depth={} max_blocks={} filter={:?} max_payload={} model={}",
        cfg.doc.threshold,
        cfg.doc.limits.max_depth,
        cfg.doc.limits.max_blocks,
        cfg.doc.filter,
        cfg.max_payload,
        model_checksum
    );
    hex(&Md5::digest(s.as_bytes()))
}

/// Run the pipeline over all inputs.
pub fn run(cfg: &RunConfig, models: Arc<Models>) -> io::Result<Summary> {
    let model_sum = models.checksum.as_str();
    fs::create_dir_all(&cfg.out_dir)?;
    let started = Instant::now();
    let threads = cfg.threads.max(1);
    let window = 64 * threads + 64;
    let (job_tx, job_rx) = bounded::<(u64, Job)>(4 * threads);
    let (done_tx, done_rx) = bounded::<(u64, Done)>(4 * threads);
    let (token_tx, token_rx) = bounded::<()>(window);
    for _ in 0..window {
        token_tx.send(()).expect("fresh channel");
    }
    let summary = std::thread::scope(|s| {
        let inputs = &cfg.inputs;
        let max_payload = cfg.max_payload;
        s.spawn(move || reader(inputs, max_payload, job_tx, token_rx));
        for _ in 0..threads {
            let (rx, tx, models) = (job_rx.clone(), done_tx.clone(), Arc::clone(&models));
            let doc_cfg = cfg.doc;
            let inputs = &cfg.inputs;
            s.spawn(move || worker(inputs, &models, &doc_cfg, max_payload, rx, tx));
        }
        drop(done_tx);
        drop(job_rx);
        writer(cfg, model_sum, done_rx, token_tx)
    })?;
    Ok(Summary {
        elapsed: started.elapsed(),
        ..summary
    })
}

fn reader(inputs: &[Input], max_payload: u64, tx: Sender<(u64, Job)>, tokens: Receiver<()>) {
    let mut seq = 0u64;
    let mut send = |job: Job| -> bool {
        if tokens.recv().is_err() {
            return false;
        }
        let ok = tx.send((seq, job)).is_ok();
        seq += 1;
        ok
    };
    for (i, input) in inputs.iter().enumerate() {
        if !send(Job::Start { file: i }) {
            return;
        }
        let mut alive = true;
        let result = warc::read_file(&input.path, ReadOptions { max_payload }, |item| {
            if alive {
                alive = send(match item {
                    ReadItem::Record(r) => Job::Record(Box::new(r), i),
                    ReadItem::TooLarge(r) => Job::TooLarge(Box::new(r)),
                    ReadItem::Broken(r, _) => Job::Broken(Box::new(r)),
                    ReadItem::Skipped { reason, bytes } => Job::Skipped { reason, bytes },
                });
            }
        });
        if !send(Job::End {
            error: result.err().map(|e| e.to_string()),
        }) {
            return;
        }
    }
}

fn worker(
    inputs: &[Input],
    models: &Models,
    cfg: &Config,
    max_payload: u64,
    rx: Receiver<(u64, Job)>,
    tx: Sender<(u64, Done)>,
) {
    for (seq, job) in rx {
        let done = match job {
            Job::Start { file } => Done::Start { file },
            Job::End { error } => Done::End { error },
            Job::Skipped { reason, bytes } => Done::Skipped { reason, bytes },
            Job::TooLarge(r) => plain(&r, "skipped.payload_too_large"),
            Job::Broken(r) => plain(&r, "error.read"),
            Job::Record(r, file) => {
                let mut times = StageTimes::default();
                let arcfile = &inputs[file].arcfile;
                let res = catch_unwind(AssertUnwindSafe(|| {
                    process_record(&r, arcfile, models, cfg, max_payload, &mut times)
                }));
                let (fate, doc) = match res {
                    Ok(Ok(doc)) => ("written".to_string(), Some(doc)),
                    Ok(Err(fate)) => (fate, None),
                    Err(_) => ("error.panic".to_string(), None),
                };
                Done::Record {
                    warc_type: r.warc_type.clone(),
                    fate,
                    block_bytes: r.block.len() as u64,
                    truncated: r.truncated.clone(),
                    doc: doc.map(Box::new),
                    times,
                }
            }
        };
        if tx.send((seq, done)).is_err() {
            return;
        }
    }
}

fn plain(r: &Record, fate: &str) -> Done {
    Done::Record {
        warc_type: r.warc_type.clone(),
        fate: fate.to_string(),
        block_bytes: r.block.len() as u64,
        truncated: r.truncated.clone(),
        doc: None,
        times: StageTimes::default(),
    }
}

/// Whether a media type is HTML.
fn is_html_mime(m: &str) -> bool {
    matches!(m, "text/html" | "application/xhtml+xml")
}

/// Decide a record's fate and, for HTML responses, analyse it.
fn process_record(
    r: &Record,
    arcfile: &str,
    models: &Models,
    cfg: &Config,
    max_payload: u64,
    times: &mut StageTimes,
) -> Result<DocOut, String> {
    if r.warc_type != "response" {
        return Err("skipped.not_response".into());
    }
    let resp = http::parse(&r.block);
    if let Some(status) = resp.status
        && !(200..300).contains(&status)
    {
        return Err("skipped.http_status".into());
    }
    let payload = &r.block[resp.body_start..];
    let html = match (
        resp.mime(),
        r.identified_payload_type.as_deref().map(http::mime_of),
    ) {
        (Some(m), _) if is_html_mime(&m) => true,
        (_, Some(m)) if is_html_mime(&m) => true,
        (None, None) => looks_like_html(payload),
        _ => false,
    };
    if !html {
        return Err("skipped.not_html".into());
    }
    if looks_binary(payload) {
        return Err("skipped.binary".into());
    }
    // Payloads still compressed by the server (crawlers normally store them decoded, often
    // without removing the header).
    let decoded;
    let (raw, payload): (&[u8], &[u8]) = match resp.header("Content-Encoding").map(str::trim) {
        Some(enc) if !enc.is_empty() && !enc.eq_ignore_ascii_case("identity") => {
            match decode_content(enc, payload, max_payload)? {
                Some(body) => {
                    let mut v = r.block[..resp.body_start].to_vec();
                    v.extend_from_slice(&body);
                    decoded = v;
                    (&decoded[..], &decoded[resp.body_start..])
                }
                None => (&r.block[..], payload),
            }
        }
        _ => (&r.block[..], payload),
    };
    let meta = Meta {
        url: r.target_uri.clone().unwrap_or_default(),
        ip: r.ip.clone(),
        record_id: r.record_id.clone(),
        warc_date: r.warc_date.clone(),
        http_date: resp.header("Date").map(str::to_string),
        last_modified: resp.header("Last-Modified").map(str::to_string),
        arcfile: arcfile.to_string(),
        arcoffset: r.offset,
        arclength: r.length,
    };
    let page = Page {
        raw,
        payload,
        http_charset: resp.charset(),
        meta,
    };
    let doc = document::analyze(page, models, cfg, times)
        .map_err(|s| format!("skipped.{}", s.reason()))?;
    let mut out = Vec::with_capacity(4096);
    xml::write_doc(&mut out, &doc);
    Ok(DocOut {
        xml: out,
        blocks_found: doc.blocks_total as u64,
        blocks_written: doc.blocks.len() as u64,
        capped: doc.capped.map(|c| match c {
            crate::html::Cap::Depth => "depth",
            crate::html::Cap::Blocks => "blocks",
        }),
        charset: doc.source_charset.clone(),
        evidence: match doc.evidence {
            Some(crate::decode::Evidence::Bom) => "bom",
            Some(crate::decode::Evidence::Http) => "http",
            Some(crate::decode::Evidence::Meta) => "meta",
            _ => "detected",
        },
        malformed: doc.malformed,
        language: xml::language_code(doc.language),
        model: doc.model.map_or("custom", |m| m.code()),
    })
}

/// Undo a `Content-Encoding`. `Ok(None)`: the payload is not actually encoded (stored
/// decoded); `Err`: it is encoded in a way that cannot be undone here.
fn decode_content(encoding: &str, payload: &[u8], cap: u64) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read as _;
    let enc = encoding.to_ascii_lowercase();
    let mut out = Vec::new();
    let result = match enc.as_str() {
        "gzip" | "x-gzip" if payload.starts_with(&[0x1f, 0x8b]) => {
            flate2::read::MultiGzDecoder::new(payload)
                .take(cap + 1)
                .read_to_end(&mut out)
        }
        "deflate"
            if payload.first().is_some_and(|b| b & 0x0f == 8) && !looks_like_html(payload) =>
        {
            flate2::read::ZlibDecoder::new(payload)
                .take(cap + 1)
                .read_to_end(&mut out)
        }
        _ if looks_like_html(payload) || payload.trim_ascii_start().starts_with(b"<") => {
            return Ok(None);
        }
        _ => return Err("skipped.content_encoded".into()),
    };
    match result {
        Ok(_) if out.len() as u64 > cap => Err("skipped.payload_too_large".into()),
        Ok(_) => Ok(Some(out)),
        Err(_) => Err("error.content_decoding".into()),
    }
}

/// Binary data served as HTML: many control characters (NUL and the like) in the first 4 KiB.
fn looks_binary(payload: &[u8]) -> bool {
    let head = &payload[..payload.len().min(4096)];
    let control = head
        .iter()
        .filter(|&&b| b < 0x09 || (0x0e..0x1b).contains(&b))
        .count();
    !head.is_empty() && control * 20 > head.len()
}

/// Payloads without any Content-Type: HTML if they start like HTML.
fn looks_like_html(payload: &[u8]) -> bool {
    let head = payload[..payload.len().min(512)]
        .trim_ascii_start()
        .to_ascii_lowercase();
    head.starts_with(b"<!doctype html")
        || head.starts_with(b"<html")
        || head.starts_with(b"<head")
        || head.starts_with(b"<body")
}

/// Output files of one input, written under temporary names.
struct FileOut {
    stem: String,
    stats: FileStats,
    xml: Option<GzEncoder<BufWriter<File>>>,
    xml_tmp: PathBuf,
    started: Instant,
    times: StageTimes,
}

#[derive(Serialize)]
struct DoneFile<'a> {
    tool: &'static str,
    version: &'static str,
    input: &'a str,
    config_hash: &'a str,
    model_md5: &'a str,
    outputs: Vec<String>,
    records: u64,
    documents: u64,
}

fn tmp_name(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.tmp"))
}

/// Write `bytes` to `dir/name` through a temporary file and a rename.
fn publish(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let tmp = tmp_name(dir, name);
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, dir.join(name))
}

fn writer(
    cfg: &RunConfig,
    model_sum: &str,
    rx: Receiver<(u64, Done)>,
    tokens: Sender<()>,
) -> io::Result<Summary> {
    let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
    let mut next = 0u64;
    let mut cur: Option<FileOut> = None;
    let mut summary = Summary::default();
    let hash = config_hash(cfg, model_sum);
    let progress = cfg.progress.then(|| {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .expect("valid template"),
        );
        pb.enable_steady_tick(Duration::from_millis(200));
        pb
    });
    let started = Instant::now();
    let mut bytes_read = 0u64;
    let mut last_update = Instant::now();
    for (seq, done) in rx {
        pending.insert(seq, done);
        while let Some(done) = pending.remove(&next) {
            next += 1;
            let _ = tokens.try_send(());
            match done {
                Done::Start { file } => {
                    let input = &cfg.inputs[file];
                    let xml_tmp = tmp_name(&cfg.out_dir, &format!("{}.xml.gz", input.stem));
                    let f = File::create(&xml_tmp)?;
                    let stats = FileStats {
                        input: input.path.display().to_string(),
                        bytes: crate::output::stats::Bytes {
                            input: fs::metadata(&input.path).map(|m| m.len()).unwrap_or(0),
                            ..Default::default()
                        },
                        ..Default::default()
                    };
                    cur = Some(FileOut {
                        stem: input.stem.clone(),
                        stats,
                        xml: Some(GzEncoder::new(
                            BufWriter::with_capacity(1 << 16, f),
                            Compression::new(cfg.compression),
                        )),
                        xml_tmp,
                        started: Instant::now(),
                        times: StageTimes::default(),
                    });
                }
                Done::Record {
                    warc_type,
                    fate,
                    block_bytes,
                    truncated,
                    doc,
                    times,
                } => {
                    let out = cur.as_mut().expect("records come between Start and End");
                    let st = &mut out.stats;
                    st.records += 1;
                    summary.records += 1;
                    bytes_read += block_bytes;
                    st.bytes.records += block_bytes;
                    FileStats::bump(&mut st.records_by_type, &warc_type, 1);
                    if let Some(t) = truncated {
                        FileStats::bump(&mut st.warc_truncated, &t, 1);
                    }
                    st.fate(&fate);
                    out.times.decode += times.decode;
                    out.times.segment += times.segment;
                    out.times.features += times.features;
                    out.times.language += times.language;
                    out.times.score += times.score;
                    if let Some(d) = doc {
                        out.xml.as_mut().expect("open").write_all(&d.xml)?;
                        st.bytes.xml += d.xml.len() as u64;
                        st.documents += 1;
                        summary.documents += 1;
                        st.blocks_found += d.blocks_found;
                        st.blocks_written += d.blocks_written;
                        if let Some(c) = d.capped {
                            FileStats::bump(&mut st.capped, c, 1);
                        }
                        FileStats::bump(&mut st.charsets, &d.charset, 1);
                        FileStats::bump(&mut st.charset_evidence, d.evidence, 1);
                        FileStats::bump(&mut st.languages, d.language, 1);
                        FileStats::bump(&mut st.models, d.model, 1);
                        st.malformed_text += d.malformed as u64;
                    }
                }
                Done::Skipped { reason, bytes } => {
                    let out = cur.as_mut().expect("inside a file");
                    FileStats::bump(&mut out.stats.stream_errors, reason, 1);
                    out.stats.stream_error_bytes += bytes;
                }
                Done::End { error } => {
                    let out = cur.take().expect("End after Start");
                    finish_file(cfg, &hash, model_sum, out, error, &mut summary)?;
                }
            }
            if let Some(pb) = &progress
                && last_update.elapsed() > Duration::from_millis(250)
            {
                last_update = Instant::now();
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                pb.set_message(format!(
                    "{} records, {} documents, {:.1} MB/s, {:.0} docs/s",
                    summary.records,
                    summary.documents,
                    bytes_read as f64 / secs / 1e6,
                    summary.documents as f64 / secs
                ));
            }
        }
    }
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    summary.bytes = bytes_read;
    Ok(summary)
}

fn finish_file(
    cfg: &RunConfig,
    hash: &str,
    model_sum: &str,
    mut out: FileOut,
    error: Option<String>,
    summary: &mut Summary,
) -> io::Result<()> {
    let dir = &cfg.out_dir;
    let xml_name = format!("{}.xml.gz", out.stem);
    out.xml
        .take()
        .expect("open")
        .finish()?
        .into_inner()
        .map_err(|e| e.into_error())?
        .sync_all()?;
    let ms = |ns: u64| ns / 1_000_000;
    let t = &out.times;
    out.stats.time_ms = BTreeMap::from([
        ("decode".to_string(), ms(t.decode)),
        ("segment".to_string(), ms(t.segment)),
        ("features".to_string(), ms(t.features)),
        ("language".to_string(), ms(t.language)),
        ("score".to_string(), ms(t.score)),
        (
            "total".to_string(),
            out.started.elapsed().as_millis() as u64,
        ),
    ]);
    if let Some(e) = &error {
        FileStats::bump(&mut out.stats.stream_errors, "io_error", 1);
        summary
            .files_failed
            .push((out.stats.input.clone(), e.clone()));
        // An input that could not be read to its end gets no `.done.json`: a rerun redoes it.
        if out.stats.records == 0 {
            let _ = fs::remove_file(&out.xml_tmp);
            return Ok(());
        }
    }
    fs::rename(&out.xml_tmp, dir.join(&xml_name))?;
    let stats_name = format!("{}.stats.json", out.stem);
    publish(
        dir,
        &stats_name,
        &serde_json::to_vec_pretty(&out.stats).map_err(io::Error::other)?,
    )?;
    if error.is_none() {
        let done = DoneFile {
            tool: "cowrex",
            version: env!("CARGO_PKG_VERSION"),
            input: &out.stats.input,
            config_hash: hash,
            model_md5: model_sum,
            outputs: vec![xml_name, stats_name],
            records: out.stats.records,
            documents: out.stats.documents,
        };
        publish(
            dir,
            &format!("{}.done.json", out.stem),
            &serde_json::to_vec_pretty(&done).map_err(io::Error::other)?,
        )?;
        summary.files_done += 1;
    }
    Ok(())
}

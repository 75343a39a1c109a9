//! http(s) inputs (the `http` feature): an [`Http`] opens [`HttpReader`]s, each one `GET` with
//! `Range: bytes=OFFSET-` streamed on its own thread, reconnecting from the byte it reached.
//! The same reader serves s3:// objects (the `s3` feature), whose URL is signed anew for each
//! request.

use std::io::{self, Read};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, bounded};

use super::remote::Retry;
use crate::stop::Stop;

/// One HTTP agent and what it learnt of its file.
pub(super) struct Http {
    agent: ureq::Agent,
    retry: Retry,
    stop: Stop,
    /// The file's length, once a response has told it.
    len: Arc<OnceLock<u64>>,
}

/// What a fetch requests.
#[derive(Clone)]
pub(super) enum Target {
    /// An http(s) URL.
    Url(String),
    /// A URL signed for each request (an S3 object: a signature expires, and a download with
    /// retries may outlast it).
    #[cfg_attr(not(feature = "s3"), allow(dead_code))]
    Signed(Arc<dyn Signed>),
}

/// A location whose requests are signed one by one.
pub(super) trait Signed: Send + Sync {
    /// The URL as given, for messages.
    fn url(&self) -> &str;
    /// The URL of the next request, signed.
    fn request_url(&self) -> String;
    /// What a response with this status and body (the server's explanation) means.
    fn error_message(&self, status: u16, body: &str) -> String;
}

impl Target {
    /// The name in messages: the URL as given.
    fn name(&self) -> &str {
        match self {
            Target::Url(u) => u,
            Target::Signed(s) => s.url(),
        }
    }

    /// The URL of the next request.
    fn request_url(&self) -> String {
        match self {
            Target::Url(u) => u.clone(),
            Target::Signed(s) => s.request_url(),
        }
    }
}

/// An agent whose requests time out as `retry` says and that returns every HTTP status as a
/// response.
pub(super) fn agent(retry: &Retry) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_connect(Some(retry.timeout))
        .timeout_recv_response(Some(retry.timeout))
        .timeout_per_read(Some(retry.timeout))
        .http_status_as_error(false)
        .user_agent(concat!("cowrex/", env!("CARGO_PKG_VERSION")))
        .build()
        .new_agent()
}

impl Http {
    /// An agent whose requests time out and retry as `retry` says, and stop at `stop`.
    pub(super) fn new(retry: Retry, stop: Stop) -> Http {
        Http {
            agent: agent(&retry),
            retry,
            stop,
            len: Arc::new(OnceLock::new()),
        }
    }

    /// The file's length, once a response has told it.
    pub(super) fn len(&self) -> Option<u64> {
        self.len.get().copied()
    }

    /// A reader of `target` from byte `offset` to the end.
    pub(super) fn open_at(&self, target: &Target, offset: u64) -> io::Result<HttpReader> {
        HttpReader::start(Fetch {
            agent: self.agent.clone(),
            target: target.clone(),
            retry: self.retry,
            stop: self.stop.clone(),
            len: Arc::clone(&self.len),
            pos: offset,
            body: None,
            done: false,
        })
    }
}

/// A streamed HTTP body that reconnects from where it was on failure. It runs on its own
/// thread (see [`HttpReader`]).
struct Fetch {
    agent: ureq::Agent,
    target: Target,
    retry: Retry,
    stop: Stop,
    len: Arc<OnceLock<u64>>,
    /// The absolute position of the next byte.
    pos: u64,
    body: Option<ureq::BodyReader<'static>>,
    /// The end was reached.
    done: bool,
}

/// Reads what a [`Fetch`] on its own thread sends, a chunk at a time. Waiting for the network
/// never blocks a stop request: the reader returns `Interrupted` at once and the download
/// thread ends at its next chunk (or with the process).
pub(super) struct HttpReader {
    rx: Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
    len: Arc<OnceLock<u64>>,
    done: bool,
    stop: Stop,
}

impl HttpReader {
    /// Record the file's length where its body ended without telling it.
    pub(super) fn set_len(&self, len: u64) {
        let _ = self.len.set(len);
    }

    /// Start the download and wait for its first bytes, so that a missing file is an error
    /// here and not at the first read.
    fn start(mut fetch: Fetch) -> io::Result<HttpReader> {
        let (tx, rx) = bounded(4);
        let len = Arc::clone(&fetch.len);
        let stop = fetch.stop.clone();
        std::thread::Builder::new()
            .name("cowrex-http".into())
            .spawn(move || {
                let result = fetch.connect();
                if let Err(e) = result {
                    let _ = tx.send(Err(e));
                    return;
                }
                loop {
                    let mut buf = vec![0u8; 1 << 16];
                    let msg = fetch.read(&mut buf).map(|n| {
                        buf.truncate(n);
                        buf
                    });
                    let last = !matches!(&msg, Ok(b) if !b.is_empty());
                    if tx.send(msg).is_err() || last {
                        return;
                    }
                }
            })?;
        let mut r = HttpReader {
            rx,
            chunk: Vec::new(),
            at: 0,
            len,
            done: false,
            stop,
        };
        r.next_chunk()?;
        Ok(r)
    }

    fn next_chunk(&mut self) -> io::Result<()> {
        loop {
            match self.rx.recv_timeout(Duration::from_millis(100)) {
                Ok(msg) => {
                    self.chunk = msg?;
                    self.at = 0;
                    self.done = self.chunk.is_empty();
                    return Ok(());
                }
                Err(RecvTimeoutError::Timeout) => self.stop.check()?,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(io::Error::other("the download thread ended"));
                }
            }
        }
    }
}

impl Read for HttpReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            if self.done || buf.is_empty() {
                return Ok(0);
            }
            self.next_chunk()?;
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Whether an HTTP status is worth retrying (server trouble, rate limits, timeouts).
pub(super) fn transient_status(status: u16) -> bool {
    matches!(status, 408 | 425 | 429 | 500 | 502 | 503 | 504)
}

/// Whether a request's failure is worth retrying (the network, not the request).
pub(super) fn transient_error(e: &ureq::Error) -> bool {
    !matches!(
        e,
        ureq::Error::BadUri(_) | ureq::Error::HostNotFound | ureq::Error::Http(_)
    )
}

impl Fetch {
    /// Connect (with retries) so that `body` yields bytes from `pos`.
    fn connect(&mut self) -> io::Result<()> {
        let mut attempt = 0;
        loop {
            match self.try_connect() {
                Ok(()) => return Ok(()),
                Err((e, transient)) => {
                    attempt += 1;
                    if !transient || attempt > self.retry.retries {
                        return Err(e);
                    }
                    self.pause(attempt, &e)?;
                }
            }
        }
    }

    /// Sleep before retry `attempt` of the request that failed with `e`.
    fn pause(&self, attempt: u32, e: &io::Error) -> io::Result<()> {
        let failure = format!("{}: {e}", self.target.name());
        self.retry
            .pause(attempt, &failure, Some(self.pos), &self.stop)
    }

    /// One request; `Err((error, transient))`.
    fn try_connect(&mut self) -> Result<(), (io::Error, bool)> {
        self.body = None;
        if self.len.get().is_some_and(|&l| self.pos >= l) {
            self.done = true;
            return Ok(());
        }
        let mut req = self.agent.get(&self.target.request_url());
        if self.pos > 0 {
            req = req.header("Range", format!("bytes={}-", self.pos));
        }
        let resp = req
            .call()
            .map_err(|e| (io::Error::other(e.to_string()), transient_error(&e)))?;
        let status = resp.status().as_u16();
        let header = |k: &str| {
            resp.headers()
                .get(k)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let skip = match status {
            206 => {
                // `Content-Range: bytes FIRST-LAST/TOTAL`
                let range = header("Content-Range").unwrap_or_default();
                let total = range.rsplit('/').next().and_then(|t| t.trim().parse().ok());
                let first = range
                    .trim_start_matches("bytes")
                    .trim()
                    .split('-')
                    .next()
                    .and_then(|f| f.parse::<u64>().ok());
                if first != Some(self.pos) {
                    return Err((
                        io::Error::other(format!("unexpected Content-Range {range:?}")),
                        false,
                    ));
                }
                if let Some(t) = total {
                    let _ = self.len.set(t);
                }
                0
            }
            200 => {
                if let Some(l) = header("Content-Length").and_then(|l| l.trim().parse().ok()) {
                    let _ = self.len.set(l);
                }
                // A server that ignores ranges sends the whole file: skip what we have.
                self.pos
            }
            416 if self.pos > 0 => {
                self.done = true;
                return Ok(());
            }
            s => {
                let message = match &self.target {
                    Target::Url(_) => format!("HTTP status {s}"),
                    // S3 says why in an XML body (NoSuchKey, InvalidAccessKeyId, ...).
                    Target::Signed(signed) => {
                        let mut body = String::new();
                        let _ = resp
                            .into_body()
                            .into_reader()
                            .take(1 << 16)
                            .read_to_string(&mut body);
                        signed.error_message(s, &body)
                    }
                };
                return Err((io::Error::other(message), transient_status(s)));
            }
        };
        let mut body = resp.into_body().into_reader();
        if skip > 0 {
            let skipped =
                io::copy(&mut (&mut body).take(skip), &mut io::sink()).map_err(|e| (e, true))?;
            if skipped < skip {
                return Err((io::Error::other("response shorter than the offset"), true));
            }
        }
        self.body = Some(body);
        Ok(())
    }
}

impl Read for Fetch {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let mut attempt = 0;
        loop {
            if self.done {
                return Ok(0);
            }
            if self.body.is_none() {
                self.connect()?;
                continue;
            }
            let result = self.body.as_mut().expect("connected").read(buf);
            let error = match result {
                Ok(0) => match self.len.get() {
                    Some(&l) if self.pos < l => io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("connection closed at byte {} of {l}", self.pos),
                    ),
                    _ => {
                        self.done = true;
                        return Ok(0);
                    }
                },
                Ok(n) => {
                    self.pos += n as u64;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => e,
            };
            self.body = None;
            attempt += 1;
            if attempt > self.retry.retries {
                return Err(error);
            }
            self.pause(attempt, &error)?;
        }
    }
}

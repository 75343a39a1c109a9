//! Where WARC bytes come from: a local file, or an http(s) URL streamed with range requests.
//!
//! A [`Source`] opens readers at any byte offset, which is all the WARC reader needs (it
//! reopens the input after damage). Over HTTP each reader is one `GET` with `Range:
//! bytes=OFFSET-`; when a connection fails, times out, or ends early, the reader waits
//! (exponential backoff with jitter) and resumes from the byte it had reached, so a long
//! download survives a flaky network without starting over and without touching the disk.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, bounded};

/// A WARC file's location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A local file (or anything that opens as one).
    File(PathBuf),
    /// An `http://` or `https://` URL.
    Url(String),
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::File(p) => write!(f, "{}", p.display()),
            Location::Url(u) => f.write_str(u),
        }
    }
}

/// Retries of HTTP requests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Retry {
    /// Attempts after the first one, per failure (the count restarts once bytes arrive).
    pub retries: u32,
    /// Wait before the first retry; it doubles with each further retry, up to `max_wait`.
    pub wait: Duration,
    /// Longest wait between two retries.
    pub max_wait: Duration,
    /// A connection that delivers nothing for this long counts as failed.
    pub timeout: Duration,
}

impl Default for Retry {
    fn default() -> Self {
        Retry {
            retries: 8,
            wait: Duration::from_secs(2),
            max_wait: Duration::from_secs(60),
            timeout: Duration::from_secs(60),
        }
    }
}

impl Retry {
    /// The wait before retry `attempt` (from 1): doubling, capped, plus up to 25 % jitter so
    /// that the tasks of a cluster job do not retry in step.
    fn wait(&self, attempt: u32) -> Duration {
        let base = self
            .wait
            .saturating_mul(1u32 << (attempt - 1).min(20))
            .min(self.max_wait);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        base + base.mul_f64(f64::from(nanos % 1000) / 4000.0)
    }
}

/// Opens readers on one location.
pub struct Source {
    location: Location,
    http: Option<Http>,
}

struct Http {
    agent: ureq::Agent,
    retry: Retry,
    /// The file's length, once a response has told it.
    len: Arc<OnceLock<u64>>,
}

impl Source {
    /// A source for `location`; `retry` applies to URLs (one HTTP agent per source).
    pub fn new(location: Location, retry: Retry) -> Source {
        let http = matches!(location, Location::Url(_)).then(|| {
            let config = ureq::Agent::config_builder()
                .timeout_connect(Some(retry.timeout))
                .timeout_recv_response(Some(retry.timeout))
                .timeout_per_read(Some(retry.timeout))
                .http_status_as_error(false)
                .user_agent(concat!("cowrex/", env!("CARGO_PKG_VERSION")))
                .build();
            Http {
                agent: config.new_agent(),
                retry,
                len: Arc::new(OnceLock::new()),
            }
        });
        Source { location, http }
    }

    /// The length in bytes, if known yet (for URLs: after the first response).
    pub fn size(&self) -> Option<u64> {
        match (&self.location, &self.http) {
            (Location::File(p), _) => std::fs::metadata(p).ok().map(|m| m.len()),
            (_, Some(h)) => h.len.get().copied(),
            _ => None,
        }
    }

    /// A reader from byte `offset` to the end.
    pub fn open_at(&self, offset: u64) -> io::Result<Reader> {
        let inner = match (&self.location, &self.http) {
            (Location::File(p), _) => {
                let mut f = File::open(p)?;
                f.seek(SeekFrom::Start(offset))?;
                Inner::File(f)
            }
            (Location::Url(url), Some(h)) => {
                let fetch = Fetch {
                    agent: h.agent.clone(),
                    url: url.clone(),
                    retry: h.retry,
                    len: Arc::clone(&h.len),
                    pos: offset,
                    body: None,
                    done: false,
                };
                Inner::Http(Box::new(HttpReader::start(fetch)?))
            }
            (Location::Url(_), None) => unreachable!("URL sources have an agent"),
        };
        Ok(Reader { inner, pos: offset })
    }
}

/// Reads a [`Source`] from some offset. It seeks like a file, except that over HTTP it can
/// only seek forward (by reading), which is all a sequential WARC reader does.
pub struct Reader {
    inner: Inner,
    /// The absolute position of the next byte.
    pos: u64,
}

enum Inner {
    File(File),
    Http(Box<HttpReader>),
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &mut self.inner {
            Inner::File(f) => f.read(buf)?,
            Inner::Http(h) => {
                let n = h.read(buf)?;
                if n == 0 && !buf.is_empty() {
                    // The end of a body that did not tell its length.
                    let _ = h.len.set(self.pos);
                }
                n
            }
        };
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Reader {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        if let Inner::File(f) = &mut self.inner {
            self.pos = f.seek(to)?;
            return Ok(self.pos);
        }
        let target = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(_) => None,
        };
        match target {
            Some(t) if t >= self.pos => {
                let want = t - self.pos;
                let got = io::copy(&mut self.by_ref().take(want), &mut io::sink())?;
                if got < want {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "seek past the end",
                    ));
                }
                Ok(self.pos)
            }
            _ => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "an HTTP input can only be read forward",
            )),
        }
    }
}

/// A streamed HTTP body that reconnects from where it was on failure. It runs on its own
/// thread (see [`HttpReader`]).
struct Fetch {
    agent: ureq::Agent,
    url: String,
    retry: Retry,
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
struct HttpReader {
    rx: Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
    len: Arc<OnceLock<u64>>,
    done: bool,
}

impl HttpReader {
    /// Start the download and wait for its first bytes, so that a missing file is an error
    /// here and not at the first read.
    fn start(mut fetch: Fetch) -> io::Result<HttpReader> {
        let (tx, rx) = bounded(4);
        let len = Arc::clone(&fetch.len);
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
                Err(RecvTimeoutError::Timeout) => crate::signals::check()?,
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
fn transient_status(status: u16) -> bool {
    matches!(status, 408 | 425 | 429 | 500 | 502 | 503 | 504)
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

    /// Sleep before retry `attempt`, in short steps so a stop request is not held up.
    fn pause(&self, attempt: u32, e: &io::Error) -> io::Result<()> {
        let wait = self.retry.wait(attempt);
        eprintln!(
            "cowrex: {}: {e}; retry {attempt}/{} from byte {} in {:.1} s",
            self.url,
            self.retry.retries,
            self.pos,
            wait.as_secs_f64()
        );
        let until = std::time::Instant::now() + wait;
        while std::time::Instant::now() < until {
            if crate::signals::stop_requested() {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "stop requested"));
            }
            std::thread::sleep(Duration::from_millis(50).min(wait));
        }
        Ok(())
    }

    /// One request; `Err((error, transient))`.
    fn try_connect(&mut self) -> Result<(), (io::Error, bool)> {
        self.body = None;
        if self.len.get().is_some_and(|&l| self.pos >= l) {
            self.done = true;
            return Ok(());
        }
        let mut req = self.agent.get(&self.url);
        if self.pos > 0 {
            req = req.header("Range", format!("bytes={}-", self.pos));
        }
        let resp = req.call().map_err(|e| {
            let transient = !matches!(
                e,
                ureq::Error::BadUri(_) | ureq::Error::HostNotFound | ureq::Error::Http(_)
            );
            (io::Error::other(e.to_string()), transient)
        })?;
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
                return Err((
                    io::Error::other(format!("HTTP status {s}")),
                    transient_status(s),
                ));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let r = Retry {
            retries: 5,
            wait: Duration::from_secs(1),
            max_wait: Duration::from_secs(5),
            timeout: Duration::from_secs(1),
        };
        for (attempt, base) in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (30, 5.0)] {
            let w = r.wait(attempt).as_secs_f64();
            assert!(
                (base..=base * 1.25).contains(&w),
                "attempt {attempt}: {w} s"
            );
        }
    }
}

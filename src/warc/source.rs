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
use std::time::Duration;

#[cfg(feature = "http")]
use super::fetch::{Http, HttpReader};

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
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(super) fn wait(&self, attempt: u32) -> Duration {
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
    #[cfg(feature = "http")]
    http: Option<Http>,
}

impl Source {
    /// A source for `location`; `retry` applies to URLs (one HTTP agent per source).
    pub fn new(location: Location, retry: Retry) -> Source {
        #[cfg(feature = "http")]
        let http = matches!(location, Location::Url(_)).then(|| Http::new(retry));
        #[cfg(not(feature = "http"))]
        let _ = retry;
        Source {
            location,
            #[cfg(feature = "http")]
            http,
        }
    }

    /// The length in bytes, if known yet (for URLs: after the first response).
    pub fn size(&self) -> Option<u64> {
        match &self.location {
            Location::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            #[cfg(feature = "http")]
            Location::Url(_) => self.http.as_ref().and_then(Http::len),
            #[cfg(not(feature = "http"))]
            Location::Url(_) => None,
        }
    }

    /// A reader from byte `offset` to the end.
    pub fn open_at(&self, offset: u64) -> io::Result<Reader> {
        let inner = match &self.location {
            Location::File(p) => {
                let mut f = File::open(p)?;
                f.seek(SeekFrom::Start(offset))?;
                Inner::File(f)
            }
            #[cfg(feature = "http")]
            Location::Url(url) => Inner::Http(Box::new(
                self.http
                    .as_ref()
                    .expect("URL sources have an agent")
                    .open_at(url, offset)?,
            )),
            #[cfg(not(feature = "http"))]
            Location::Url(url) => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    format!("{url}: this cowrex was built without the `http` feature"),
                ));
            }
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
    #[cfg(feature = "http")]
    Http(Box<HttpReader>),
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &mut self.inner {
            Inner::File(f) => f.read(buf)?,
            #[cfg(feature = "http")]
            Inner::Http(h) => {
                let n = h.read(buf)?;
                if n == 0 && !buf.is_empty() {
                    // The end of a body that did not tell its length.
                    h.set_len(self.pos);
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
        match &mut self.inner {
            Inner::File(f) => {
                self.pos = f.seek(to)?;
                Ok(self.pos)
            }
            #[cfg(feature = "http")]
            Inner::Http(_) => self.seek_forward(to),
        }
    }
}

impl Reader {
    /// Seek by reading: an HTTP input can only go forward.
    #[cfg(feature = "http")]
    fn seek_forward(&mut self, to: SeekFrom) -> io::Result<u64> {
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

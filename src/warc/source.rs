//! Where WARC bytes come from: a local file, or an http(s) or s3:// URL streamed with range
//! requests.
//!
//! A [`Source`] opens readers at any byte offset, which is all the WARC reader needs (it
//! reopens the input after damage). Over HTTP each reader is one `GET` with `Range:
//! bytes=OFFSET-`; when a connection fails, times out, or ends early, the reader waits
//! (exponential backoff with jitter) and resumes from the byte it had reached, so a long
//! download survives a flaky network without starting over and without touching the disk.
//! An s3:// object is read the same way, each request signed anew (`s3`).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::time::Duration;

use crate::stop::Stop;

#[cfg(feature = "http")]
use super::fetch::{Http, HttpReader, Target};

/// A WARC file's location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A local file (or anything that opens as one).
    File(PathBuf),
    /// An `http://` or `https://` URL.
    Url(String),
    /// An `s3://bucket/key` URL.
    S3(String),
}

/// The bucket and key of an `s3://bucket/key` URL (the key as written, not percent-decoded,
/// as AWS's tools take it); `None` when it is not one, names no bucket, or has a `.` or `..`
/// segment in its key (a path, not a key, as URLs resolve them).
pub fn s3_parts(url: &str) -> Option<(&str, &str)> {
    let rest = url
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("s3://"))
        .map(|_| &url[5..])?;
    let (bucket, key) = rest.split_once('/').unwrap_or((rest, ""));
    let bad = bucket.is_empty()
        || bucket.contains(['?', '#', '@', ':'])
        || key.split('/').any(|s| s == "." || s == "..");
    (!bad).then_some((bucket, key))
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::File(p) => write!(f, "{}", p.display()),
            Location::Url(u) | Location::S3(u) => f.write_str(u),
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

    /// Say that `failure` (what failed and why) is retried, and sleep before retry `attempt`
    /// (resuming `from_byte` when given) in short steps, so a stop request is not held up: it
    /// ends the wait with an `Interrupted` error.
    #[cfg(feature = "http")]
    pub(super) fn pause(
        &self,
        attempt: u32,
        failure: &str,
        from_byte: Option<u64>,
        stop: &Stop,
    ) -> io::Result<()> {
        let wait = self.wait(attempt);
        let from = from_byte
            .map(|b| format!(" from byte {b}"))
            .unwrap_or_default();
        eprintln!(
            "cowrex: {failure}; retry {attempt}/{}{from} in {:.1} s",
            self.retries,
            wait.as_secs_f64()
        );
        let until = std::time::Instant::now() + wait;
        while std::time::Instant::now() < until {
            stop.check()?;
            std::thread::sleep(Duration::from_millis(50).min(wait));
        }
        Ok(())
    }
}

/// Opens readers on one location.
pub struct Source {
    location: Location,
    /// The run's stop, which ends a read or a wait for the network.
    stop: Stop,
    /// For a URL: its agent, and what it requests (or why it cannot).
    #[cfg(feature = "http")]
    remote: Option<(Http, Result<Target, String>)>,
}

impl Source {
    /// A source for `location`; `retry` applies to URLs (one HTTP agent per source); a read
    /// ends with [`crate::stop::stopped`] once `stop` is requested.
    pub fn new(location: Location, retry: Retry, stop: Stop) -> Source {
        #[cfg(feature = "http")]
        let remote = match &location {
            Location::File(_) => None,
            Location::Url(u) => Some((Http::new(retry, stop.clone()), Ok(Target::Url(u.clone())))),
            #[cfg(feature = "s3")]
            Location::S3(u) => Some((
                Http::new(retry, stop.clone()),
                super::s3::Object::new(u).map(|o| Target::S3(std::sync::Arc::new(o))),
            )),
            #[cfg(not(feature = "s3"))]
            Location::S3(_) => Some((
                Http::new(retry, stop.clone()),
                Err("this cowrex was built without the `s3` feature".into()),
            )),
        };
        #[cfg(not(feature = "http"))]
        let _ = retry;
        Source {
            location,
            stop,
            #[cfg(feature = "http")]
            remote,
        }
    }

    /// The run's stop.
    pub fn stop(&self) -> &Stop {
        &self.stop
    }

    /// The length in bytes, if known yet (for URLs: after the first response).
    pub fn size(&self) -> Option<u64> {
        match &self.location {
            Location::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            #[cfg(feature = "http")]
            Location::Url(_) | Location::S3(_) => self.remote.as_ref().and_then(|(h, _)| h.len()),
            #[cfg(not(feature = "http"))]
            Location::Url(_) | Location::S3(_) => None,
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
            Location::Url(_) | Location::S3(_) => {
                let (http, target) = self.remote.as_ref().expect("URL sources have an agent");
                let target = target.as_ref().map_err(|e| io::Error::other(e.clone()))?;
                Inner::Http(Box::new(http.open_at(target, offset)?))
            }
            #[cfg(not(feature = "http"))]
            Location::Url(url) | Location::S3(url) => {
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
    fn s3_urls_split_into_bucket_and_key() {
        assert_eq!(
            s3_parts("s3://cc/a/b c.warc.gz"),
            Some(("cc", "a/b c.warc.gz"))
        );
        assert_eq!(s3_parts("S3://cc"), Some(("cc", "")));
        assert_eq!(s3_parts("s3://cc/"), Some(("cc", "")));
        assert_eq!(s3_parts("s3:///k"), None);
        assert_eq!(s3_parts("s3://cc/a/../k"), None);
        assert_eq!(s3_parts("s3://cc/./k"), None);
        assert_eq!(s3_parts("https://cc/k"), None);
    }

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

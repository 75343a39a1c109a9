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

use super::remote::Retry;
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

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::File(p) => write!(f, "{}", p.display()),
            Location::Url(u) | Location::S3(u) => f.write_str(u),
        }
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
                super::s3::Object::new(u).map(|o| Target::Signed(std::sync::Arc::new(o))),
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
    pub(crate) fn open_at(&self, offset: u64) -> io::Result<Reader> {
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

//! Manifests: lists of input files, one per line, as Common Crawl's `*.paths.gz`.
//!
//! A line is a path relative to the input base (Common Crawl's `crawl-data/…/X.warc.gz`), an
//! absolute path, a `file://` URL, an `http(s)://` URL or an `s3://bucket/key` URL; the input
//! base is a directory, an http(s) URL (`https://data.commoncrawl.org/`) or an s3:// URL
//! (`s3://commoncrawl/`). Outputs mirror a line's relative path under the output directory
//! (`crawl-data/…/X.xml.gz`); an absolute path outside the input base keeps only its file name,
//! a URL outside it its whole path (an s3:// URL its key).

use std::io::{self, BufRead};
use std::path::{Path, PathBuf};

use super::config::Input;
use crate::error::{Error, ErrorKind};
use crate::output::gz;
use crate::warc::{Location, s3_parts};

/// The non-empty lines of a manifest (gzipped or not), trimmed.
pub fn read(path: &Path) -> io::Result<Vec<String>> {
    let mut lines = Vec::new();
    for line in gz::open(path)?.lines() {
        let line = line?;
        let line = line.trim();
        if !line.is_empty() {
            lines.push(line.to_string());
        }
    }
    Ok(lines)
}

/// The lines of task `index` of `count`: those whose number (from 0) mod `count` is `index`.
pub fn shard(lines: Vec<String>, index: usize, count: usize) -> Vec<String> {
    lines
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % count.max(1) == index)
        .map(|(_, l)| l)
        .collect()
}

/// Whether a manifest line or input base is an http(s) URL.
pub fn is_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Whether a manifest line or input base is an `s3://` URL.
pub fn is_s3(s: &str) -> bool {
    s.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("s3://"))
}

/// The input a manifest line names: a path or `file://` URL (relative lines are joined to a
/// directory `base`), an http(s) URL (relative lines are joined to a URL `base`, such as
/// `https://data.commoncrawl.org/`), or an s3:// URL (relative lines are joined to an s3://
/// `base`, such as `s3://commoncrawl/`). `Err` for lines that cannot be read or mirrored.
pub fn resolve(line: &str, base: Option<&str>) -> Result<Input, Error> {
    let relative = !line.contains("://") && !line.starts_with('/');
    let base_s3 = base.filter(|b| is_s3(b));
    if is_s3(line) || (base_s3.is_some() && relative) {
        return resolve_s3(line, base_s3);
    }
    let base_url = base.filter(|b| is_url(b));
    if is_url(line) || (base_url.is_some() && relative) {
        return resolve_url(line, base_url);
    }
    if line.contains("://") && !line.starts_with("file://") {
        return Err(Error::new(
            ErrorKind::Input,
            format!("{line}: only local paths, file://, http(s):// and s3:// URLs can be read"),
        ));
    }
    let base = base.map(|b| Path::new(b.strip_prefix("file://").unwrap_or(b)));
    let local = line.strip_prefix("file://").unwrap_or(line);
    let given = Path::new(local);
    let (path, rel) = if given.is_absolute() {
        let rel = base
            .and_then(|b| given.strip_prefix(b).ok())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(given.file_name().unwrap_or_default()));
        (given.to_path_buf(), rel)
    } else {
        let path = base.map_or_else(|| given.to_path_buf(), |b| b.join(given));
        (path, given.to_path_buf())
    };
    let mut input = Input::file(path);
    mirror(&mut input, &rel.to_string_lossy(), line)?;
    Ok(input)
}

/// An http(s) input; its outputs mirror the URL's path (below the base, if it is under it).
fn resolve_url(line: &str, base: Option<&str>) -> Result<Input, Error> {
    let url = match base {
        Some(b) if !is_url(line) => {
            let b = if b.ends_with('/') {
                b.to_string()
            } else {
                format!("{b}/")
            };
            url::Url::parse(&b).and_then(|b| b.join(line))
        }
        _ => url::Url::parse(line),
    }
    .map_err(|e| {
        Error::new(ErrorKind::Input, format!("{line}: not a valid URL: {e}")).caused_by(e)
    })?;
    let path = url.path();
    let rel = base
        .and_then(|b| url::Url::parse(b).ok())
        .and_then(|b| path.strip_prefix(b.path()).map(str::to_string))
        .unwrap_or_else(|| path.to_string());
    let rel = percent_encoding::percent_decode_str(rel.trim_start_matches('/'))
        .decode_utf8_lossy()
        .into_owned();
    let mut input = Input {
        location: Location::Url(url.to_string()),
        stem: String::new(),
        arcfile: String::new(),
    };
    mirror(&mut input, &rel, line)?;
    Ok(input)
}

/// An s3:// input; its outputs mirror its key (below the base's key, if it is under it).
fn resolve_s3(line: &str, base: Option<&str>) -> Result<Input, Error> {
    let url = match base {
        Some(b) if !is_s3(line) => {
            let sep = if b.ends_with('/') { "" } else { "/" };
            format!("{b}{sep}{line}")
        }
        _ => line.to_string(),
    };
    let invalid = || {
        Error::new(
            ErrorKind::Input,
            format!("{line}: not an s3://bucket/key URL (a bucket, and no `.` or `..` in the key)"),
        )
    };
    let (bucket, key) = s3_parts(&url).ok_or_else(invalid)?;
    let rel = base
        .and_then(s3_parts)
        .filter(|&(b, _)| b == bucket)
        .and_then(|(_, prefix)| {
            let prefix = prefix.trim_end_matches('/');
            if prefix.is_empty() {
                Some(key)
            } else {
                key.strip_prefix(prefix)?.strip_prefix('/')
            }
        })
        .unwrap_or(key);
    let mut input = Input {
        location: Location::S3(format!("s3://{bucket}/{key}")),
        stem: String::new(),
        arcfile: String::new(),
    };
    mirror(&mut input, rel, line)?;
    Ok(input)
}

/// Set the stem and `arcfile` of an input to its mirrored relative path `rel`, which must
/// stay under the output directory (no `..`, no root).
fn mirror(input: &mut Input, rel: &str, line: &str) -> Result<(), Error> {
    let rel_path = Path::new(rel);
    if rel.is_empty()
        || rel_path
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(Error::new(
            ErrorKind::Input,
            format!("{line}: cannot mirror this path under the output directory"),
        ));
    }
    let stem = super::config::stem(rel);
    // A name that is only extensions (`.warc.gz`, `..gz`) leaves no stem to name the outputs.
    if stem.is_empty()
        || stem.ends_with('/')
        || Path::new(stem)
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(Error::new(
            ErrorKind::Input,
            format!("{line}: no file name to name the outputs after"),
        ));
    }
    input.stem = stem.to_string();
    input.arcfile = rel.to_string();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_resolve_and_shard() {
        let base = "/data";
        let i = resolve("crawl-data/CC/segments/1/warc/X.warc.gz", Some(base)).unwrap();
        assert_eq!(
            i.location,
            Location::File("/data/crawl-data/CC/segments/1/warc/X.warc.gz".into())
        );
        assert_eq!(i.stem, "crawl-data/CC/segments/1/warc/X");
        assert_eq!(i.arcfile, "crawl-data/CC/segments/1/warc/X.warc.gz");
        let i = resolve("file:///data/a/Y.warc.gz", Some(base)).unwrap();
        assert_eq!(
            (i.location.to_string(), i.stem.as_str()),
            ("/data/a/Y.warc.gz".to_string(), "a/Y")
        );
        assert_eq!(resolve("/elsewhere/Z.warc", Some(base)).unwrap().stem, "Z");
        assert!(resolve("ftp://h/x.warc.gz", None).is_err());
        assert!(resolve("../x.warc.gz", None).is_err());
        // Nothing but extensions: no name for the outputs.
        assert!(resolve(".warc.gz", None).is_err());
        assert!(resolve("a/.gz", Some("/data")).is_err());
        assert!(resolve("..gz", None).is_err());
        // URLs, absolute or joined to a URL base; outputs mirror the path below the base.
        let cc = Some("https://data.commoncrawl.org");
        let i = resolve("crawl-data/CC/X.warc.gz", cc).unwrap();
        assert_eq!(
            (i.location.to_string(), i.stem.as_str()),
            (
                "https://data.commoncrawl.org/crawl-data/CC/X.warc.gz".to_string(),
                "crawl-data/CC/X"
            )
        );
        let i = resolve("http://127.0.0.1:8080/a/b%20c.warc.gz", None).unwrap();
        assert_eq!(
            (i.stem.as_str(), i.arcfile.as_str()),
            ("a/b c", "a/b c.warc.gz")
        );
        let i = resolve("https://h/pub/cc/x/Y.warc", Some("https://h/pub/")).unwrap();
        assert_eq!(i.stem, "cc/x/Y");
        assert!(resolve("https://h/a%2F..%2F..%2Fx.warc", None).is_err());
        assert!(resolve("https://h/", None).is_err());
        // s3:// URLs, absolute or joined to an s3:// base; outputs mirror the key below it.
        let cc = Some("s3://commoncrawl/");
        let i = resolve("crawl-data/CC/X.warc.gz", cc).unwrap();
        assert_eq!(
            (i.location.clone(), i.stem.as_str(), i.arcfile.as_str()),
            (
                Location::S3("s3://commoncrawl/crawl-data/CC/X.warc.gz".into()),
                "crawl-data/CC/X",
                "crawl-data/CC/X.warc.gz"
            )
        );
        let i = resolve("s3://b/pre/fix/Y.warc", Some("s3://b/pre")).unwrap();
        assert_eq!(
            (i.stem.as_str(), i.location.to_string().as_str()),
            ("fix/Y", "s3://b/pre/fix/Y.warc")
        );
        let i = resolve("s3://other/pre/Z.warc.gz", Some("s3://b/pre/")).unwrap();
        assert_eq!(i.stem, "pre/Z");
        assert_eq!(
            resolve("s3://b/a b%20c.warc", None).unwrap().stem,
            "a b%20c"
        );
        assert!(resolve("s3://b/a/../x.warc.gz", None).is_err());
        assert!(resolve("s3://b/", None).is_err());
        assert!(resolve("s3:///x.warc", None).is_err());
        let lines: Vec<String> = (0..5).map(|i| i.to_string()).collect();
        assert_eq!(shard(lines.clone(), 1, 2), ["1", "3"]);
        assert_eq!(shard(lines, 0, 2), ["0", "2", "4"]);
    }
}

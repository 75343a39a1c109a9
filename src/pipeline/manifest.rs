//! Manifests: lists of input files, one per line, as Common Crawl's `*.paths.gz`.
//!
//! A line is a path relative to the input base (Common Crawl's `crawl-data/…/X.warc.gz`), an
//! absolute path, or a `file://` URL. Outputs mirror a line's relative path under the output
//! directory (`crawl-data/…/X.xml.gz`); an absolute path outside the input base keeps only its
//! file name.

use std::io::{self, BufRead};
use std::path::{Path, PathBuf};

use super::Input;
use crate::open_maybe_gz;

/// The non-empty lines of a manifest (gzipped or not), trimmed.
pub fn read(path: &Path) -> io::Result<Vec<String>> {
    let mut lines = Vec::new();
    for line in open_maybe_gz(path)?.lines() {
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

/// The input a manifest line names. `Err` for lines cowrex cannot read (remote URLs).
pub fn resolve(line: &str, base: Option<&Path>) -> Result<Input, String> {
    let local = line.strip_prefix("file://").unwrap_or(line);
    if local.contains("://") {
        return Err(format!(
            "{line}: only local paths and file:// URLs can be read (remote inputs are not supported yet)"
        ));
    }
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
    // No `..` or root in the mirrored path: outputs stay under the output directory.
    if rel.as_os_str().is_empty()
        || rel
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(format!(
            "{line}: cannot mirror this path under the output directory"
        ));
    }
    let mut input = Input::file(path);
    let rel_str = rel.to_string_lossy().into_owned();
    let mut stem = rel_str.as_str();
    for ext in [".gz", ".warc", ".arc"] {
        stem = stem.strip_suffix(ext).unwrap_or(stem);
    }
    input.stem = stem.to_string();
    input.arcfile = rel_str.clone();
    Ok(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_resolve_and_shard() {
        let base = Path::new("/data");
        let i = resolve("crawl-data/CC/segments/1/warc/X.warc.gz", Some(base)).unwrap();
        assert_eq!(
            i.path,
            Path::new("/data/crawl-data/CC/segments/1/warc/X.warc.gz")
        );
        assert_eq!(i.stem, "crawl-data/CC/segments/1/warc/X");
        assert_eq!(i.arcfile, "crawl-data/CC/segments/1/warc/X.warc.gz");
        let i = resolve("file:///data/a/Y.warc.gz", Some(base)).unwrap();
        assert_eq!(
            (i.path.to_str().unwrap(), i.stem.as_str()),
            ("/data/a/Y.warc.gz", "a/Y")
        );
        assert_eq!(resolve("/elsewhere/Z.warc", Some(base)).unwrap().stem, "Z");
        assert!(resolve("https://data.commoncrawl.org/x.warc.gz", None).is_err());
        assert!(resolve("../x.warc.gz", None).is_err());
        let lines: Vec<String> = (0..5).map(|i| i.to_string()).collect();
        assert_eq!(shard(lines.clone(), 1, 2), ["1", "3"]);
        assert_eq!(shard(lines, 0, 2), ["0", "2", "4"]);
    }
}

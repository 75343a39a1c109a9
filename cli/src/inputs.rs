//! The inputs of a `process` run as its arguments name them: WARC files, directories of WARC
//! files, http(s) URLs, s3:// objects and prefixes, standard input (spooled to a file: the
//! reader seeks) and this task's share of a manifest's lines.

use std::io;
use std::path::{Path, PathBuf};

use cowrex::error::Error;
use cowrex::pipeline::{Input, manifest};
use cowrex::stop::Stop;
use cowrex::warc::{Location, Retry};

/// What a run's arguments name.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The inputs to process, in order.
    pub inputs: Vec<Input>,
    /// Those that cannot be read, with the reason; a run counts them as failed.
    pub failed: Vec<(String, String)>,
    /// The file standard input was spooled to, to remove after the run.
    pub spooled: Option<PathBuf>,
    /// Directories without WARC files.
    pub warnings: Vec<String>,
}

/// A manifest, the base its relative lines are joined to, and this task's share of it (task
/// `index` of `count`, see [`manifest::shard`]).
#[derive(Debug, Clone, Copy)]
pub struct ManifestShare<'a> {
    /// The manifest file.
    pub path: &'a Path,
    /// The input base relative lines are joined to: a directory, an http(s) or an s3:// URL.
    pub base: Option<&'a str>,
    /// This task's number, from 0.
    pub index: usize,
    /// The number of tasks the manifest is shared among.
    pub count: usize,
}

/// Whether a file name is a web archive's (`.warc`, `.arc`, each maybe followed by `.gz`, and
/// `.warc.zst`; any case).
fn is_warc_name(p: &Path) -> bool {
    let n = p
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    [".warc", ".warc.gz", ".warc.zst", ".arc", ".arc.gz"]
        .iter()
        .any(|ext| n.ends_with(ext))
}

/// Resolve the arguments (`-` is standard input, spooled into `spool_dir`) and the manifest's
/// share; s3:// prefixes are listed with `retry` (a wait for a retry ends at `stop`). An input that cannot be read (or an s3://
/// prefix that cannot be listed) is listed in [`Inputs::failed`]; `Err` when a directory or
/// the manifest cannot be read, standard input cannot be spooled, or two inputs would write the
/// same output files.
pub fn resolve(
    args: &[PathBuf],
    manifest: Option<ManifestShare>,
    spool_dir: &Path,
    retry: Retry,
    stop: &Stop,
) -> Result<Inputs, Error> {
    let mut out = Inputs::default();
    for p in args {
        if p.as_os_str() == "-" {
            let tmp = spool_dir.join(".stdin.warc.tmp");
            let mut f = std::fs::File::create(&tmp).map_err(|e| Error::output(tmp.display(), e))?;
            io::copy(&mut io::stdin().lock(), &mut f)
                .map_err(|e| Error::input("standard input", e))?;
            out.inputs.push(Input {
                location: Location::File(tmp.clone()),
                stem: "stdin".into(),
                arcfile: "-".into(),
            });
            out.spooled = Some(tmp);
        } else if let Some(url) = p.to_str().filter(|s| manifest::is_s3(s)) {
            s3_argument(url, retry, stop, &mut out);
        } else if let Some(url) = p.to_str().filter(|s| manifest::is_url(s)) {
            match manifest::resolve(url, None) {
                Ok(i) => out.inputs.push(i),
                Err(e) => out.failed.push((url.to_string(), e.to_string())),
            }
        } else if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| Error::input(format!("directory {}", p.display()), e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && is_warc_name(f))
                .collect();
            files.sort();
            if files.is_empty() {
                out.warnings
                    .push(format!("no WARC or ARC files in {}", p.display()));
            }
            out.inputs.extend(files.into_iter().map(Input::file));
        } else if let Err(e) = std::fs::File::open(p) {
            out.failed.push((
                p.display().to_string(),
                Error::input(p.display(), e).to_string(),
            ));
        } else {
            out.inputs.push(Input::file(p.clone()));
        }
    }
    if let Some(m) = manifest {
        let lines = manifest::read(m.path)
            .map_err(|e| Error::input(format!("manifest {}", m.path.display()), e))?;
        for line in manifest::shard(lines, m.index, m.count) {
            match manifest::resolve(&line, m.base) {
                Ok(i) => out.inputs.push(i),
                Err(e) => out.failed.push((line, e.to_string())),
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    for i in &out.inputs {
        if !seen.insert(i.stem.as_str()) {
            return Err(Error::usage(format!(
                "two inputs would both write {}.xml.gz; process them into different output directories",
                i.stem
            )));
        }
    }
    Ok(out)
}

/// An s3:// argument: an object, or a prefix as a directory (its WARC objects, sorted). A URL
/// ending in `/` (or naming only the bucket) is a prefix; one whose last part is not a WARC
/// file's name is a prefix if it has WARC objects under `URL/`, else an object.
fn s3_argument(url: &str, retry: Retry, stop: &Stop, out: &mut Inputs) {
    let object = |out: &mut Inputs| match manifest::resolve(url, None) {
        Ok(i) => out.inputs.push(i),
        Err(e) => out.failed.push((url.to_string(), e.to_string())),
    };
    let key = cowrex::warc::s3_parts(url).map_or("", |(_, k)| k);
    let (dir, maybe_object) = if key.is_empty() || key.ends_with('/') {
        (url.to_string(), false)
    } else if is_warc_name(Path::new(key)) {
        return object(out);
    } else {
        (format!("{url}/"), true)
    };
    match list_warcs(&dir, retry, stop) {
        Ok(urls) if urls.is_empty() && maybe_object => object(out),
        Err(_) if maybe_object => object(out),
        Ok(urls) => {
            if urls.is_empty() {
                out.warnings
                    .push(format!("no .warc or .warc.gz objects in {dir}"));
            }
            for u in urls {
                match manifest::resolve(&u, Some(&dir)) {
                    Ok(i) => out.inputs.push(i),
                    Err(e) => out.failed.push((u, e.to_string())),
                }
            }
        }
        Err(e) => out.failed.push((dir, e.to_string())),
    }
}

/// The WARC objects directly under an s3:// prefix.
#[cfg(feature = "s3")]
fn list_warcs(dir: &str, retry: Retry, stop: &Stop) -> Result<Vec<String>, Error> {
    let urls = cowrex::warc::s3::list_dir(dir, retry, stop)?;
    Ok(urls
        .into_iter()
        .filter(|u| is_warc_name(Path::new(u)))
        .collect())
}

#[cfg(not(feature = "s3"))]
fn list_warcs(dir: &str, _: Retry, _: &Stop) -> Result<Vec<String>, Error> {
    Err(Error::new(
        cowrex::error::ErrorKind::Input,
        format!("cannot list {dir}: this cowrex was built without the `s3` feature"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_files_and_missing_inputs() {
        let dir = std::env::temp_dir().join(format!("cowrex-inputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("d")).unwrap();
        for name in [
            "b.warc.gz",
            "a.warc",
            "notes.txt",
            "c.arc.gz",
            "d.warc.zst",
            "e.ARC",
        ] {
            std::fs::write(dir.join("d").join(name), b"").unwrap();
        }
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        let args = [
            dir.join("d"),
            dir.join("empty"),
            dir.join("missing.warc.gz"),
        ];
        let r = resolve(&args, None, &dir, Retry::default(), &Stop::new()).unwrap();
        let stems: Vec<&str> = r.inputs.iter().map(|i| i.stem.as_str()).collect();
        assert_eq!(
            stems,
            ["a", "b", "c", "d", "e.ARC"],
            "sorted, web archives only"
        );
        assert_eq!(r.failed.len(), 1);
        assert!(r.failed[0].1.contains("missing.warc.gz"), "{:?}", r.failed);
        assert_eq!(r.warnings.len(), 1);
        assert!(r.warnings[0].contains("empty"));
        // The same file twice would write the same outputs.
        let twice = [dir.join("d/a.warc"), dir.join("d/a.warc")];
        assert!(
            matches!(resolve(&twice, None, &dir, Retry::default(), &Stop::new()), Err(e) if e.kind() == cowrex::error::ErrorKind::Usage)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! The output files of one input: gzip and Parquet files written under temporary names
//! ([`GzOut`], [`ParquetOut`]; an input's corpus in a [`Corpus`], one per part with a
//! [`super::Split`], all of them in [`FileOut`]) and renamed once complete, `S.stats.json`, and
//! `S.done.json`, written last, which tells a rerun the input is done ([`done_path`],
//! [`is_done`]).

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::config::{Input, RunConfig};
use crate::output::gz::GzMembers;
use crate::output::parquet;
use crate::output::stats::FileStats;

/// A rendered corpus document and where the `duplicate-of` mark goes.
pub(super) struct Rendered {
    /// The document in its format.
    pub bytes: Vec<u8>,
    /// Byte offset where `duplicate-of` goes: the `>` that ends `<doc …>`, or the JSON
    /// line's final `}`.
    pub(crate) mark_at: usize,
}

/// One gzip output file of an input, written under a temporary name.
pub(super) struct GzOut {
    name: String,
    tmp: PathBuf,
    enc: GzMembers<File>,
}

impl GzOut {
    /// Create `dir/name`'s temporary file, compressed at `level`.
    fn create(dir: &Path, name: String, level: u32) -> io::Result<GzOut> {
        let tmp = tmp_name(dir, &name);
        let f = File::create(&tmp)?;
        Ok(GzOut {
            name,
            tmp,
            enc: GzMembers::new(f, level),
        })
    }

    /// Append bytes.
    pub(super) fn write(&mut self, b: &[u8]) -> io::Result<()> {
        self.enc.write_all(b)
    }

    /// Write a rendered document, with `mark` inserted when it is a duplicate.
    pub(super) fn write_doc(&mut self, r: &Rendered, mark: Option<&[u8]>) -> io::Result<()> {
        match mark {
            None => self.write(&r.bytes),
            Some(m) => {
                self.write(&r.bytes[..r.mark_at])?;
                self.write(m)?;
                self.write(&r.bytes[r.mark_at..])
            }
        }
    }
}

/// The Parquet output file of an input (`S.parquet`), written under a temporary name.
pub(super) struct ParquetOut {
    name: String,
    tmp: PathBuf,
    writer: parquet::Writer<BufWriter<File>>,
}

impl ParquetOut {
    /// Create `dir/name`'s temporary file, compressed unless `level` is 0.
    fn create(dir: &Path, name: String, level: u32) -> io::Result<ParquetOut> {
        let tmp = tmp_name(dir, &name);
        let f = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        let writer = parquet::Writer::new(f, level > 0).inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })?;
        Ok(ParquetOut { name, tmp, writer })
    }

    /// Append a document's row.
    pub(super) fn push(&mut self, row: parquet::Row) -> io::Result<()> {
        self.writer.push(row)
    }
}

/// An output file being written.
enum Out {
    Gz(GzOut),
    Parquet(ParquetOut),
}

impl Out {
    /// Complete the file, sync it and give it its name; returns the name.
    fn finish(self, dir: &Path) -> io::Result<String> {
        let (tmp, name) = match self {
            Out::Gz(o) => {
                o.enc.finish()?.sync_all()?;
                (o.tmp, o.name)
            }
            Out::Parquet(o) => {
                let f = o
                    .writer
                    .finish()?
                    .into_inner()
                    .map_err(|e| e.into_error())?;
                f.sync_all()?;
                (o.tmp, o.name)
            }
        };
        fs::rename(&tmp, dir.join(&name))?;
        Ok(name)
    }

    /// Close the file and remove it.
    fn discard(self) {
        let tmp = match self {
            Out::Gz(o) => o.tmp,
            Out::Parquet(o) => o.tmp,
        };
        let _ = fs::remove_file(tmp);
    }
}

/// The corpus files of one input, or of one part of it ([`super::Split`]): `PART/S.xml.gz`, ….
pub(super) struct Corpus {
    /// The XML corpus file (`S.xml.gz`), if asked for.
    pub xml: Option<GzOut>,
    /// The JSONL corpus file (`S.jsonl.gz`), if asked for.
    pub jsonl: Option<GzOut>,
    /// The VRT corpus file (`S.vrt.gz`), if asked for.
    pub vrt: Option<GzOut>,
    /// The Parquet corpus file (`S.parquet`), if asked for.
    pub parquet: Option<ParquetOut>,
    /// The shingles file (`S.shingles.gz`), if asked for.
    pub shingles: Option<GzOut>,
    /// The links file (`S.links.gz`), if asked for.
    pub links: Option<GzOut>,
}

impl Corpus {
    /// Create the temporary files of `input`'s corpus under `dir`, for the formats of `cfg`.
    fn create(cfg: &RunConfig, dir: &Path, input: &Input) -> io::Result<Corpus> {
        // A manifest's inputs mirror their relative path under the output directory.
        if let Some(parent) = dir.join(&input.stem).parent() {
            fs::create_dir_all(parent)?;
        }
        let open = |on: bool, ext: &str| -> io::Result<Option<GzOut>> {
            // Shingle lines are mostly random digits: higher levels cost much CPU and save
            // little, so they get level 1 at most.
            let level = if ext == "shingles" {
                cfg.compression.min(1)
            } else {
                cfg.compression
            };
            on.then(|| GzOut::create(dir, format!("{}.{ext}.gz", input.stem), level))
                .transpose()
        };
        Ok(Corpus {
            xml: open(cfg.formats.xml, "xml")?,
            jsonl: open(cfg.formats.jsonl, "jsonl")?,
            vrt: open(cfg.formats.vrt, "vrt")?,
            parquet: cfg
                .formats
                .parquet
                .then(|| {
                    ParquetOut::create(dir, format!("{}.parquet", input.stem), cfg.compression)
                })
                .transpose()?,
            shingles: open(cfg.doc.shingles, "shingles")?,
            links: open(cfg.doc.links, "links")?,
        })
    }

    /// Its files still open, taken out of `self`.
    fn files(&mut self) -> impl Iterator<Item = Out> {
        let gz = |o: Option<GzOut>| o.map(Out::Gz);
        [
            gz(self.xml.take()),
            gz(self.jsonl.take()),
            gz(self.vrt.take()),
            self.parquet.take().map(Out::Parquet),
            gz(self.shingles.take()),
            gz(self.links.take()),
        ]
        .into_iter()
        .flatten()
    }
}

/// Output files of one input: its corpus files, one set per part with `--split-by`, and its
/// statistics and `S.done.json`.
pub(super) struct FileOut {
    /// The name of the input's output files before their extension (`S` of `S.xml.gz`).
    pub stem: String,
    input: Input,
    /// The corpus files by part (`""` without a split; each part's in a directory of its
    /// name), in the order of the parts' names.
    parts: BTreeMap<&'static str, Corpus>,
}

impl FileOut {
    /// Create the temporary output files of `input`, for the formats of `cfg`: its corpus
    /// files now without a split, each part's at its first document with one.
    pub(super) fn create(cfg: &RunConfig, input: &Input) -> io::Result<FileOut> {
        let mut out = FileOut {
            stem: input.stem.clone(),
            input: input.clone(),
            parts: BTreeMap::new(),
        };
        if cfg.split.is_none() {
            out.part(cfg, "")?;
        }
        Ok(out)
    }

    /// The corpus files of part `name` (`""`: the input's own), created at the first call.
    pub(super) fn part(&mut self, cfg: &RunConfig, name: &'static str) -> io::Result<&mut Corpus> {
        if !self.parts.contains_key(name) {
            let corpus = Corpus::create(cfg, &cfg.out_dir.join(name), &self.input)?;
            self.parts.insert(name, corpus);
        }
        Ok(self.parts.get_mut(name).expect("inserted"))
    }

    /// Remove the temporary files.
    pub(super) fn discard(&mut self) {
        for c in self.parts.values_mut() {
            for o in c.files() {
                o.discard();
            }
        }
    }

    /// Give the gzip files still open their final names, then write `S.stats.json` of
    /// `stats`; returns the names written (relative to `dir`), in that order.
    pub(super) fn publish(&mut self, dir: &Path, stats: &FileStats) -> io::Result<Vec<String>> {
        let mut outputs = Vec::new();
        for (part, c) in &mut self.parts {
            for o in c.files() {
                let name = o.finish(&dir.join(part))?;
                outputs.push(if part.is_empty() {
                    name
                } else {
                    format!("{part}/{name}")
                });
            }
        }
        let stats_name = format!("{}.stats.json", self.stem);
        publish(
            dir,
            &stats_name,
            &serde_json::to_vec_pretty(stats).map_err(io::Error::other)?,
        )?;
        outputs.push(stats_name);
        Ok(outputs)
    }

    /// Write `S.done.json`, which lists `outputs`: the input, of statistics `stats`, is done
    /// with the configuration of hash `config_hash` and the models of checksum `model_md5`.
    pub(super) fn publish_done(
        &self,
        dir: &Path,
        config_hash: &str,
        model_md5: &str,
        outputs: Vec<String>,
        stats: &FileStats,
    ) -> io::Result<()> {
        let done = DoneFile {
            tool: "cowrex",
            version: env!("CARGO_PKG_VERSION"),
            input: &stats.input,
            config_hash,
            model_md5,
            outputs,
            records: stats.records,
            documents: stats.documents,
        };
        publish(
            dir,
            &format!("{}.done.json", self.stem),
            &serde_json::to_vec_pretty(&done).map_err(io::Error::other)?,
        )
    }
}

/// `S.done.json`.
#[derive(Serialize)]
struct DoneFile<'a> {
    tool: &'static str,
    version: &'static str,
    input: &'a str,
    config_hash: &'a str,
    model_md5: &'a str,
    outputs: Vec<String>,
    records: u64,
    documents: u64,
}

/// The temporary name of output `name` (which may contain directories) under `dir`.
fn tmp_name(dir: &Path, name: &str) -> PathBuf {
    tmp_path(&dir.join(name))
}

/// Where a file is written before it is renamed to `p`: `.NAME.tmp` beside it.
pub fn tmp_path(p: &Path) -> PathBuf {
    let file = p
        .file_name()
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    p.with_file_name(format!(".{file}.tmp"))
}

/// Where `S.done.json` of an input goes.
pub fn done_path(out_dir: &Path, input: &Input) -> PathBuf {
    out_dir.join(format!("{}.done.json", input.stem))
}

/// Whether an input was done before with this configuration (its `S.done.json` has `hash`).
pub fn is_done(out_dir: &Path, input: &Input, hash: &str) -> bool {
    std::fs::read(done_path(out_dir, input))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| v["config_hash"] == hash)
}

/// Drop the inputs of `cfg` that were done before with this configuration and models
/// ([`is_done`]); returns how many.
pub fn drop_done(cfg: &mut super::RunConfig, model_checksum: &str) -> usize {
    let hash = super::config_hash(cfg, model_checksum);
    let before = cfg.inputs.len();
    cfg.inputs.retain(|i| !is_done(&cfg.out_dir, i, &hash));
    before - cfg.inputs.len()
}

/// Write `bytes` to `dir/name` through a temporary file and a rename.
fn publish(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let tmp = tmp_name(dir, name);
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, dir.join(name))
}

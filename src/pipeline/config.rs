//! A run's settings: [`RunConfig`], its [`Input`]s and [`Formats`], and [`config_hash`], the
//! hash of the settings that change what is written (kept in `S.done.json`).

use std::path::PathBuf;

use md5::{Digest, Md5};
use serde::Serialize;

use super::dups::ExactDups;
use super::progress::Progress;
use crate::analyze::Config;
use crate::digest::hex;
use crate::document::Document;
use crate::stop::Stop;
use crate::warc::{Location, Retry};

/// The default cap on a record's block, in bytes (`--max-payload`).
pub const MAX_PAYLOAD: u64 = 16 << 20;

/// Settings of a `process` run. Its serialised form, less the fields marked `skip` (which do
/// not change what is written), is what the run's configuration hash (`S.done.json`) covers.
#[derive(Debug, Clone, Serialize)]
pub struct RunConfig {
    /// The inputs, read in this order.
    #[serde(skip)]
    pub inputs: Vec<Input>,
    /// Where the outputs go.
    #[serde(skip)]
    pub out_dir: PathBuf,
    /// Worker threads. Outputs are the same at any number of threads.
    #[serde(skip)]
    pub threads: usize,
    /// How each page is analysed.
    pub doc: Config,
    /// Record blocks above this many bytes are skipped (`skipped.payload_too_large`).
    pub max_payload: u64,
    /// How the run reports progress.
    #[serde(skip)]
    pub progress: Progress,
    /// gzip level of the outputs: changes their bytes, not what they hold.
    #[serde(skip)]
    pub compression: u32,
    /// The corpus formats written.
    pub formats: Formats,
    /// What happens to a document whose text equals an earlier document's of its input file.
    pub exact_dups: ExactDups,
    /// Documents go to corpus files of their part (`--split-by`), each part's in a directory
    /// of its own.
    pub split: Option<Split>,
    /// Retries of http(s) inputs.
    #[serde(skip)]
    pub retry: Retry,
    /// The run's stop: once requested, the run drops the input it is in the middle of and
    /// ends ([`Stop`]).
    #[serde(skip)]
    pub stop: Stop,
}

/// How a run's documents are split into corpora of their own (`--split-by`), as the COW
/// corpora and FineWeb-2 are built one per language.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Split {
    /// By language: a document goes to the directory of its language's ISO 639-3 code
    /// (`deu/S.xml.gz`), or to `und` without a language or with a language score below
    /// `min_score`.
    Language {
        /// The least language score of a document that is not `und`.
        min_score: f32,
    },
}

impl Split {
    /// By language, with a least score between 0 and 1 (a usage error otherwise, the
    /// command line's `--split-min-score` message).
    pub fn language(min_score: f32) -> Result<Split, crate::Error> {
        if !(0.0..=1.0).contains(&min_score) {
            return Err(crate::Error::usage(format!(
                "invalid value '{min_score}' for split_min_score: a score between 0 and 1"
            )));
        }
        Ok(Split::Language { min_score })
    }

    /// The part `doc` goes to.
    pub fn part(&self, doc: &Document) -> &'static str {
        match *self {
            Split::Language { min_score } => doc
                .language
                .filter(|l| l.score >= min_score)
                .map_or("und", |l| l.code),
        }
    }
}

/// Corpus formats to write (at least one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Formats {
    /// `S.xml.gz`, texrex's XML.
    pub xml: bool,
    /// `S.jsonl.gz`, a JSON object per document.
    pub jsonl: bool,
    /// `S.vrt.gz`, one token per line.
    pub vrt: bool,
    /// `S.parquet`, a row per document (the `parquet` feature). Left out of the
    /// configuration's hash when off, so that earlier runs' `S.done.json` still match.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub parquet: bool,
}

crate::choice::choice_set!(Formats, "format", [
    xml, "xml", "texrex's XML";
    jsonl, "jsonl", "one document per line";
    vrt, "vrt", "one token per line, for cwb-encode";
    parquet, "parquet", "a row per document, without its blocks";
]);

/// One input: a WARC file, an http(s) URL, or standard input spooled to a temporary file.
#[derive(Debug, Clone)]
pub struct Input {
    /// Where the input is read from.
    pub location: Location,
    /// Output stem (`S` in `S.xml.gz`); a relative path for the inputs of a manifest.
    pub stem: String,
    /// Name written as `arcfile`.
    pub arcfile: String,
}

impl Input {
    /// An input file; the stem is its name without the extensions of web archives (`.warc`,
    /// `.arc`, each maybe followed by `.gz` or `.zst`).
    pub fn file(path: PathBuf) -> Input {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "input".into());
        Input {
            stem: stem(&name).to_string(),
            arcfile: name.clone(),
            location: Location::File(path),
        }
    }
}

/// A file name without the extensions of web archives (`.warc`, `.arc`, each maybe followed by
/// `.gz` or `.zst`), which names a run's outputs.
pub(crate) fn stem(name: &str) -> &str {
    let mut stem = name;
    for ext in [".gz", ".zst", ".warc", ".arc"] {
        stem = stem.strip_suffix(ext).unwrap_or(stem);
    }
    stem
}

/// Hash of everything that changes the output, for `done.json`: the run's settings as
/// serialised (every field of [`RunConfig`] not marked `skip`) and the models' checksum. Its
/// leading `vN` goes up when cowrex writes differently with the same settings, so that a
/// resumed run redoes its inputs.
pub fn config_hash(cfg: &RunConfig, model_checksum: &str) -> String {
    let settings = serde_json::to_string(cfg).expect("settings serialise");
    let s = format!("v12 {settings} model={model_checksum}");
    hex(&Md5::digest(s.as_bytes()))
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze;

    fn settings() -> RunConfig {
        RunConfig {
            inputs: Vec::new(),
            out_dir: PathBuf::from("out"),
            threads: 1,
            doc: Config::default(),
            max_payload: MAX_PAYLOAD,
            progress: Progress::Off,
            compression: 6,
            formats: Formats {
                xml: true,
                jsonl: false,
                vrt: false,
                parquet: false,
            },
            exact_dups: ExactDups::default(),
            split: None,
            retry: Retry::default(),
            stop: Stop::new(),
        }
    }

    /// How many values the settings serialise to (nested objects counted by their values).
    fn leaves(v: &serde_json::Value) -> usize {
        match v {
            serde_json::Value::Object(m) => m.values().map(leaves).sum(),
            _ => 1,
        }
    }

    /// A change of any setting that changes the output changes the hash; the settings that do
    /// not are left out. A new field of `RunConfig` or `Config` is hashed unless marked
    /// `#[serde(skip)]`, and fails this test until it is given a change below.
    #[test]
    fn the_configuration_hash_covers_every_setting_that_changes_the_output() {
        type Change = fn(&mut RunConfig);
        let changes: [Change; 26] = [
            |c| c.doc.threshold = Some(0.5),
            |c| c.doc.favor = crate::classify::Favor::Precision,
            |c| c.doc.comments = crate::Comments::Keep,
            |c| c.doc.limits.max_depth += 1,
            |c| c.doc.limits.max_blocks += 1,
            |c| c.doc.limits.max_work += 1,
            |c| c.doc.syntax = crate::html::Syntax::Texrex,
            |c| c.doc.filter = Some(analyze::DocFilter::default()),
            |c| c.doc.max_badness = Some(30.0),
            |c| c.doc.min_length += 1,
            |c| c.doc.shingles = !c.doc.shingles,
            |c| c.doc.links = !c.doc.links,
            |c| c.doc.signals = !c.doc.signals,
            |c| c.doc.dup_blocks = analyze::DupBlocks::Drop,
            |c| c.doc.markdown = Some(true),
            |c| c.doc.mask.email = true,
            |c| c.doc.mask.uri = true,
            |c| c.doc.mask.hashtag = true,
            |c| c.doc.texrex_text = true,
            |c| c.doc.marks = !c.doc.marks,
            |c| c.max_payload += 1,
            |c| c.formats.xml = false,
            |c| c.formats.jsonl = true,
            |c| c.formats.vrt = true,
            |c| c.exact_dups = ExactDups::Skip,
            |c| c.split = Some(Split::Language { min_score: 0.65 }),
        ];
        let base = settings();
        let serialised = serde_json::to_value(&base).unwrap();
        assert_eq!(
            leaves(&serialised),
            changes.len(),
            "a setting without a change in this test: {serialised}"
        );
        let hash = config_hash(&base, "m");
        assert_eq!(hash, config_hash(&settings(), "m"), "deterministic");
        assert_ne!(hash, config_hash(&base, "n"), "the models count");
        let split = |min_score| RunConfig {
            split: Some(Split::Language { min_score }),
            ..settings()
        };
        assert_ne!(config_hash(&split(0.5), "m"), config_hash(&split(0.6), "m"));
        let mut seen = std::collections::HashSet::from([hash.clone()]);
        for (i, change) in changes.iter().enumerate() {
            let mut c = settings();
            change(&mut c);
            assert!(
                seen.insert(config_hash(&c, "m")),
                "change {i} is not hashed"
            );
        }
        let unhashed: [Change; 6] = [
            |c| c.inputs.push(Input::file(PathBuf::from("a.warc.gz"))),
            |c| c.out_dir = PathBuf::from("elsewhere"),
            |c| c.threads = 8,
            |c| {
                c.progress = Progress::Jsonl {
                    interval: std::time::Duration::from_secs(1),
                }
            },
            |c| c.compression = 1,
            |c| c.retry.retries = 0,
        ];
        for (i, change) in unhashed.iter().enumerate() {
            let mut c = settings();
            change(&mut c);
            assert_eq!(
                config_hash(&c, "m"),
                hash,
                "setting {i} does not change the output"
            );
        }
    }
}

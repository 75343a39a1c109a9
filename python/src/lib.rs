//! `cowrex._cowrex`: the Python classes over cowrex's library API ([`cowrex::Extractor`]).
//! The GIL is released while Rust analyses pages; a Rust panic becomes a `RuntimeError`.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use cowrex::analyze::{Config, DupBlocks, Mask};
use cowrex::choice::Choice;
use cowrex::classify::registry;
use cowrex::html::{Limits, Syntax};
use cowrex::output::{Score, block_scores, jsonl};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

fn to_py_err(e: cowrex::Error) -> PyErr {
    use cowrex::error::ErrorKind;
    // A file that cannot be read is an OSError whatever it holds; a model that is not one, a
    // ValueError.
    match e.kind() {
        ErrorKind::Input | ErrorKind::Output => PyOSError::new_err(e.to_string()),
        _ if e.io_error().is_some() => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Run `f`, turning a panic into a `RuntimeError`.
fn guarded<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        PyRuntimeError::new_err(format!("cowrex failed (a bug, please report it): {what}"))
    })
}

/// The value of an option given by name, or `default`; a wrong name is the library's
/// `ValueError`, the command line's message.
fn choice<T: Choice>(value: Option<&str>, default: T) -> PyResult<T> {
    value.map_or(Ok(default), |v| cowrex::choice::parse(v).map_err(to_py_err))
}

/// The options every entry point takes, as keyword arguments.
#[derive(Default)]
struct Kwargs {
    scorer: Option<String>,
    threshold: Option<f32>,
    favor: Option<String>,
    comments: Option<String>,
    lang: Option<String>,
    ngram: Option<String>,
    /// The detectors' model files, by their options ([`cowrex::classify::registry::model_files`]).
    model_files: BTreeMap<String, PathBuf>,
    profiles: Option<Vec<PathBuf>>,
    lid_model: Option<PathBuf>,
    max_depth: Option<usize>,
    max_blocks: Option<usize>,
    max_work: Option<u64>,
    texrex_syntax: Option<bool>,
    mask: Option<Vec<String>>,
    texrex_text: Option<bool>,
    shingles: Option<bool>,
    signals: Option<bool>,
    min_length: Option<usize>,
    dup_blocks: Option<String>,
}

/// The options' names: these, the detectors' model files ([`Kwargs::model_files`]), and
/// [`OPTION_NAMES_AFTER`].
const OPTION_NAMES_BEFORE: [&str; 6] =
    ["scorer", "threshold", "favor", "comments", "lang", "ngram"];

const OPTION_NAMES_AFTER: [&str; 12] = [
    "profiles",
    "lid_model",
    "max_depth",
    "max_blocks",
    "max_work",
    "texrex_syntax",
    "mask",
    "texrex_text",
    "shingles",
    "signals",
    "min_length",
    "dup_blocks",
];

impl Kwargs {
    fn of(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Kwargs> {
        let mut k = Kwargs::default();
        let Some(d) = kwargs else {
            return Ok(k);
        };
        for (key, value) in d.iter() {
            let key: String = key.extract()?;
            if value.is_none() {
                continue;
            }
            let typed =
                |e: PyErr| PyTypeError::new_err(format!("option {key}: {}", e.value(value.py())));
            match key.as_str() {
                "scorer" => k.scorer = Some(value.extract().map_err(typed)?),
                "threshold" => k.threshold = Some(value.extract().map_err(typed)?),
                "favor" => k.favor = Some(value.extract().map_err(typed)?),
                "comments" => k.comments = Some(value.extract().map_err(typed)?),
                "lang" => k.lang = Some(value.extract().map_err(typed)?),
                "ngram" => k.ngram = Some(value.extract().map_err(typed)?),
                "profiles" => k.profiles = Some(value.extract().map_err(typed)?),
                "lid_model" => k.lid_model = Some(value.extract().map_err(typed)?),
                "max_depth" => k.max_depth = Some(value.extract().map_err(typed)?),
                "max_blocks" => k.max_blocks = Some(value.extract().map_err(typed)?),
                "max_work" => k.max_work = Some(value.extract().map_err(typed)?),
                "texrex_syntax" => k.texrex_syntax = Some(value.extract().map_err(typed)?),
                "mask" => k.mask = Some(value.extract().map_err(typed)?),
                "texrex_text" => k.texrex_text = Some(value.extract().map_err(typed)?),
                "shingles" => k.shingles = Some(value.extract().map_err(typed)?),
                "signals" => k.signals = Some(value.extract().map_err(typed)?),
                "min_length" => k.min_length = Some(value.extract().map_err(typed)?),
                "dup_blocks" => k.dup_blocks = Some(value.extract().map_err(typed)?),
                file if registry::model_file(file).is_some() => {
                    let path = value.extract().map_err(typed)?;
                    k.model_files.insert(key.clone(), path);
                }
                _ => {
                    let files = registry::model_files().map(|f| f.option);
                    let names: Vec<&str> = OPTION_NAMES_BEFORE
                        .into_iter()
                        .chain(files)
                        .chain(OPTION_NAMES_AFTER)
                        .collect();
                    return Err(PyTypeError::new_err(format!(
                        "unknown option '{key}'; cowrex takes {}",
                        names.join(", ")
                    )));
                }
            }
        }
        Ok(k)
    }
}

fn options(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<cowrex::Options> {
    let k = Kwargs::of(kwargs)?;
    let d = cowrex::Options::default();
    let scorer = choice(k.scorer.as_deref(), d.scorer)?;
    let lang = choice(k.lang.as_deref(), d.lang)?;
    let ngram = choice(k.ngram.as_deref(), d.ngram)?;
    let favor = choice(k.favor.as_deref(), d.config.favor)?;
    let comments = choice(k.comments.as_deref(), d.config.comments)?;
    let dup_blocks = choice(k.dup_blocks.as_deref(), d.config.dup_blocks)?;
    let mut mask = Mask::NONE;
    for m in k.mask.iter().flatten() {
        mask = mask | choice(Some(m), Mask::NONE)?;
    }
    if k.texrex_text == Some(true) && mask.any() {
        return Err(PyValueError::new_err(
            "mask and texrex_text exclude each other (texrex's text masks everything)",
        ));
    }
    let limits = Limits::default();
    Ok(cowrex::Options {
        scorer,
        lang,
        ngram,
        model_files: k.model_files,
        profiles: k.profiles.unwrap_or_default(),
        lid_model: k.lid_model,
        config: Config {
            threshold: k.threshold,
            favor,
            comments,
            limits: Limits {
                max_depth: k.max_depth.unwrap_or(limits.max_depth),
                max_blocks: k.max_blocks.unwrap_or(limits.max_blocks),
                max_work: k.max_work.unwrap_or(limits.max_work),
            },
            syntax: if k.texrex_syntax.unwrap_or(false) {
                Syntax::Texrex
            } else {
                Syntax::Html5
            },
            shingles: k.shingles.unwrap_or(d.config.shingles),
            signals: k.signals.unwrap_or(d.config.signals),
            min_length: k.min_length.unwrap_or(d.config.min_length),
            dup_blocks,
            mask,
            texrex_text: k.texrex_text.unwrap_or(false),
            ..d.config
        },
    })
}

/// The extractor of [`extract`] and [`read_warc`] without options, built on first use.
fn default_extractor() -> &'static cowrex::Extractor {
    static DEFAULT: OnceLock<cowrex::Extractor> = OnceLock::new();
    DEFAULT.get_or_init(cowrex::Extractor::builtin)
}

/// A page given as `str` (read as UTF-8) or `bytes` (its charset sniffed).
enum Html<'py> {
    Text(std::borrow::Cow<'py, str>),
    Bytes(&'py [u8]),
}

impl<'py> Html<'py> {
    fn of(html: &'py Bound<'py, PyAny>) -> PyResult<Html<'py>> {
        if let Ok(s) = html.cast::<PyString>() {
            Ok(Html::Text(s.to_cow()?))
        } else if let Ok(b) = html.cast::<PyBytes>() {
            Ok(Html::Bytes(b.as_bytes()))
        } else {
            Err(PyTypeError::new_err(format!(
                "html must be str or bytes, not {}",
                html.get_type().name()?
            )))
        }
    }
}

fn run_extract(
    py: Python<'_>,
    extractor: &cowrex::Extractor,
    dup_blocks: DupBlocks,
    html: &Bound<'_, PyAny>,
    url: Option<&str>,
) -> PyResult<Document> {
    let html = Html::of(html)?;
    let doc = py.detach(|| {
        guarded(|| match &html {
            Html::Text(s) => extractor.extract_str(s, url),
            Html::Bytes(b) => extractor.extract(b, url),
        })
    })?;
    Ok(Document {
        doc,
        dup_blocks,
        models: extractor.models().clone(),
    })
}

/// Analyses pages with one set of models and options; build it once and share it between
/// threads (loading the models takes a moment).
#[pyclass(module = "cowrex", frozen)]
struct Extractor {
    inner: cowrex::Extractor,
    dup_blocks: DupBlocks,
}

#[pymethods]
impl Extractor {
    #[new]
    #[pyo3(signature = (**kwargs))]
    fn new(py: Python<'_>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Extractor> {
        let opts = options(kwargs)?;
        let dup_blocks = opts.config.dup_blocks;
        let inner = py
            .detach(|| guarded(|| cowrex::Extractor::new(&opts)))?
            .map_err(to_py_err)?;
        Ok(Extractor { inner, dup_blocks })
    }

    /// Analyse one HTML page (`str` or `bytes`; bytes may start with an HTTP head).
    #[pyo3(signature = (html, url=None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
    ) -> PyResult<Document> {
        run_extract(py, &self.inner, self.dup_blocks, html, url)
    }

    /// The documents of a WARC file, URL or `-` (standard input), in order; `source` is
    /// relative to `input_base` (a directory or URL) when given, as a manifest line.
    #[pyo3(signature = (source, threads=0, input_base=None))]
    fn read_warc(
        &self,
        py: Python<'_>,
        source: PathBuf,
        threads: usize,
        input_base: Option<String>,
    ) -> PyResult<WarcReader> {
        open_warc(
            py,
            &self.inner,
            self.dup_blocks,
            source,
            threads,
            input_base,
        )
    }
}

fn open_warc(
    py: Python<'_>,
    extractor: &cowrex::Extractor,
    dup_blocks: DupBlocks,
    source: PathBuf,
    threads: usize,
    input_base: Option<String>,
) -> PyResult<WarcReader> {
    let source = source.to_string_lossy().into_owned();
    let base = input_base.as_deref();
    let docs = py
        .detach(|| guarded(|| extractor.read_warc_line(&source, base, threads)))?
        .map_err(to_py_err)?;
    Ok(WarcReader {
        docs: Mutex::new(docs),
        dup_blocks,
        models: extractor.models().clone(),
    })
}

/// Why a document with these quality signals (`Document.signals`, or a JSONL line's
/// `signals`) is dropped by `preset` (`fineweb`, `gopher`, `c4`) and the conditions of
/// `require` (such as `"gopher_words>=100"`), as `cowrex filter` drops it: `filter/reason`
/// (e.g. `gopher_quality/gopher_short_doc`, `require/gopher_words>=100`), or `None` when it
/// stays.
#[pyfunction]
#[pyo3(signature = (signals, preset=None, require=Vec::new()))]
fn filter_reason(
    signals: HashMap<String, f64>,
    preset: Option<&str>,
    require: Vec<String>,
) -> PyResult<Option<String>> {
    let preset = preset
        .map(cowrex::choice::parse::<cowrex::signals::Preset>)
        .transpose()
        .map_err(to_py_err)?;
    let require = require
        .iter()
        .map(|r| cowrex::signals::Requirement::parse(r).map_err(PyValueError::new_err))
        .collect::<PyResult<_>>()?;
    let judge = cowrex::signals::Judge { preset, require };
    Ok(judge.reason(|name| signals.get(name).copied()))
}

/// Analyse one HTML page with the built-in models (or with `options`, which loads models for
/// this call: use an `Extractor` for many pages).
#[pyfunction]
#[pyo3(signature = (html, url=None, **kwargs))]
fn extract(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<&str>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Document> {
    match kwargs.filter(|k| !k.is_empty()) {
        None => {
            let extractor = py.detach(default_extractor);
            run_extract(py, extractor, DupBlocks::Mark, html, url)
        }
        Some(k) => Extractor::new(py, Some(k))?.extract(py, html, url),
    }
}

/// The documents of a WARC or ARC file (`.warc`, `.warc.gz`, `.warc.zst`, `.arc`, `.arc.gz`),
/// an http(s) or s3:// URL of one, or `-`
/// (standard input), analysed on `threads` worker threads (0: one per core), in order;
/// `source` is relative to `input_base` (a directory or URL) when given, as a manifest line,
/// and is then the documents' `warc_file`.
#[pyfunction]
#[pyo3(signature = (source, threads=0, input_base=None, **kwargs))]
fn read_warc(
    py: Python<'_>,
    source: PathBuf,
    threads: usize,
    input_base: Option<String>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<WarcReader> {
    match kwargs.filter(|k| !k.is_empty()) {
        None => {
            let extractor = py.detach(default_extractor);
            open_warc(py, extractor, DupBlocks::Mark, source, threads, input_base)
        }
        Some(k) => Extractor::new(py, Some(k))?.read_warc(py, source, threads, input_base),
    }
}

/// An iterator over the documents of a WARC input.
#[pyclass(module = "cowrex", frozen)]
struct WarcReader {
    docs: Mutex<cowrex::Documents>,
    dup_blocks: DupBlocks,
    /// The models that analysed the documents (for `Document.to_html`).
    models: Arc<cowrex::classify::Models>,
}

#[pymethods]
impl WarcReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Document>> {
        let next = py.detach(|| {
            guarded(|| {
                let mut docs = self.docs.lock().unwrap_or_else(|e| e.into_inner());
                docs.next()
            })
        })?;
        match next {
            None => Ok(None),
            Some(Ok(doc)) => Ok(Some(Document {
                doc,
                dup_blocks: self.dup_blocks,
                models: self.models.clone(),
            })),
            Some(Err(e)) => Err(to_py_err(e)),
        }
    }

    /// What became of the records read so far: `records`, `documents`, `fates` (records by
    /// fate, as in `process`'s stats) and `stream_errors`.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let docs = self.docs.lock().unwrap_or_else(|e| e.into_inner());
        let s = docs.stats();
        let d = PyDict::new(py);
        d.set_item("records", s.records)?;
        d.set_item("documents", s.documents)?;
        d.set_item("fates", s.fates.clone())?;
        d.set_item("stream_errors", s.stream_errors.clone())?;
        Ok(d)
    }
}

/// An analysed page: every block with its scores, and the page's metadata.
#[pyclass(module = "cowrex", frozen)]
struct Document {
    doc: cowrex::Document,
    /// What the JSONL record does with repeated blocks.
    dup_blocks: DupBlocks,
    /// The models that analysed it (the inspector explains the combined model's scores).
    models: Arc<cowrex::classify::Models>,
}

#[pymethods]
impl Document {
    /// The content: the text of every content block (`bpv` at most `threshold`), repeated
    /// blocks included, one per line.
    #[getter]
    fn text(&self) -> String {
        self.doc.text()
    }

    /// Every block in page order, content and boilerplate.
    #[getter]
    fn blocks(&self) -> Vec<Block> {
        self.doc
            .blocks
            .iter()
            .map(|b| Block {
                block: b.clone(),
                boilerplate: !self.doc.is_content(b),
            })
            .collect()
    }

    /// ISO 639-3 code of the identified language of the page's text (`eng`, `deu`), `None`
    /// for a page without letters.
    #[getter]
    fn language(&self) -> Option<&'static str> {
        self.doc.language.map(|l| l.code)
    }

    /// The identified language's ISO 639-1 code (`en`, `de`), where it has one.
    #[getter]
    fn language_iso639_1(&self) -> Option<&'static str> {
        self.doc.language.and_then(|l| l.iso639_1)
    }

    /// The identified language's script, ISO 15924 (`Latn`, `Cyrl`, `Hans`).
    #[getter]
    fn language_script(&self) -> Option<&'static str> {
        self.doc.language.and_then(|l| l.script)
    }

    /// How sure the identification is, 0–1 (FineWeb keeps documents from 0.65).
    #[getter]
    fn language_score(&self) -> Option<f64> {
        self.doc
            .language
            .as_ref()
            .map(cowrex::output::language_score)
    }

    /// The headline: the page's `h1` its metadata confirm, its JSON-LD headline, `og:title`
    /// or `<title>` without the site name.
    #[getter]
    fn title(&self) -> Option<&str> {
        self.doc.metadata.title.as_deref()
    }

    #[getter]
    fn author(&self) -> Option<&str> {
        self.doc.metadata.author.as_deref()
    }

    /// Publication date, ISO 8601 (`2024-05-17`, or with time and offset).
    #[getter]
    fn published(&self) -> Option<&str> {
        self.doc.metadata.published.as_deref()
    }

    /// Modification date, ISO 8601.
    #[getter]
    fn modified(&self) -> Option<&str> {
        self.doc.metadata.modified.as_deref()
    }

    /// The page's date, for dating a text: its publication date, else its modification date
    /// (ISO 8601).
    #[getter]
    fn date(&self) -> Option<&str> {
        let m = &self.doc.metadata;
        m.published.as_deref().or(m.modified.as_deref())
    }

    #[getter]
    fn sitename(&self) -> Option<&str> {
        self.doc.metadata.sitename.as_deref()
    }

    /// The canonical URL (`<link rel=canonical>`, else `og:url`).
    #[getter]
    fn canonical(&self) -> Option<&str> {
        self.doc.metadata.canonical.as_deref()
    }

    #[getter]
    fn description(&self) -> Option<&str> {
        self.doc.metadata.description.as_deref()
    }

    /// The language the page declares (`<html lang>`), as written.
    #[getter]
    fn declared_language(&self) -> Option<&str> {
        self.doc.metadata.declared_language.as_deref()
    }

    #[getter]
    fn keywords(&self) -> Option<&str> {
        self.doc.keywords.as_deref()
    }

    #[getter]
    fn url(&self) -> &str {
        &self.doc.meta.url
    }

    /// 36 hex digits: MD5 of the URL and 4 digits from the record's identity.
    #[getter]
    fn id(&self) -> &str {
        &self.doc.id
    }

    #[getter]
    fn host(&self) -> &str {
        &self.doc.host
    }

    #[getter]
    fn charset(&self) -> &str {
        &self.doc.source_charset
    }

    /// The charset the page declared, when its bytes were read as UTF-8 against it.
    #[getter]
    fn declared_charset(&self) -> Option<&str> {
        self.doc.declared_charset.as_deref()
    }

    /// The decision threshold: blocks whose `bpv` is above it are boilerplate.
    #[getter]
    fn threshold(&self) -> f32 {
        self.doc.threshold
    }

    /// texrex's badness (text quality, 0 is best); `None` without a profile for the language.
    #[getter]
    fn badness(&self) -> Option<f64> {
        self.doc.badness
    }

    /// The quality signals of `text` (Gopher, C4, FineWeb, RedPajama-V2; docs/formats.md,
    /// "Quality signals"), by name; `None` with `signals=False`.
    #[getter]
    fn signals<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(s) = &self.doc.signals else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        for (name, v) in s.iter() {
            match cowrex::document::Signals::whole(v) {
                Some(n) => d.set_item(name, n)?,
                None => d.set_item(name, v)?,
            }
        }
        Ok(Some(d))
    }

    /// Min-hash fingerprint of the content (with `shingles=True` and enough text).
    #[getter]
    fn shingles(&self) -> Option<Vec<u64>> {
        self.doc.shingles.clone()
    }

    /// The id of an earlier document of the same WARC input with the same text.
    #[getter]
    fn duplicate_of(&self) -> Option<&str> {
        self.doc.duplicate_of.as_deref()
    }

    /// The WARC file name (empty for a page given to `extract`).
    #[getter]
    fn warc_file(&self) -> &str {
        &self.doc.meta.arcfile
    }

    #[getter]
    fn record_id(&self) -> Option<&str> {
        self.doc.meta.record_id.as_deref()
    }

    #[getter]
    fn warc_date(&self) -> Option<&str> {
        self.doc.meta.warc_date.as_deref()
    }

    /// Offset of the record in the WARC file (of its gzip member, when gzipped).
    #[getter]
    fn offset(&self) -> u64 {
        self.doc.meta.arcoffset
    }

    /// Length of the record in the WARC file.
    #[getter]
    fn length(&self) -> u64 {
        self.doc.meta.arclength
    }

    /// Why the record's block is incomplete, if it is: the crawler's `WARC-Truncated` reason,
    /// or `end_of_input` when the file ended inside the record.
    #[getter]
    fn truncated(&self) -> Option<&str> {
        self.doc.meta.truncated.as_deref()
    }

    /// The content as Markdown (CommonMark with GFM tables), links kept.
    #[getter]
    fn markdown(&self) -> String {
        cowrex::output::markdown::write(&self.doc, true)
    }

    /// The content as Markdown, with or without its links.
    #[pyo3(signature = (links = true))]
    fn to_markdown(&self, links: bool) -> String {
        cowrex::output::markdown::write(&self.doc, links)
    }

    /// The inspector's page of the document (`cowrex inspect`): a self-contained HTML file
    /// that shows every block, its kind and scores and whether it is kept; with `gold`, the
    /// page's gold text, what was kept that is not in it and what of it was dropped.
    #[pyo3(signature = (gold = None))]
    fn to_html(&self, gold: Option<&str>) -> String {
        cowrex::output::inspect::page(&self.doc, gold, Some(self.models.combined()))
    }

    /// The document as `cowrex process --format jsonl` writes it.
    fn to_json(&self) -> String {
        let mut out = Vec::new();
        jsonl::write_doc(&mut out, &self.doc, self.dup_blocks, None);
        out.pop();
        String::from_utf8(out).expect("JSON is UTF-8")
    }

    /// The document as a dict: the JSONL record of `cowrex process --format jsonl`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (self.to_json(),))
    }

    fn __repr__(&self) -> String {
        format!(
            "<cowrex.Document url={:?} blocks={} content_chars={}>",
            self.doc.meta.url,
            self.doc.blocks.len(),
            self.doc.text().chars().count()
        )
    }
}

/// One text block of a page with every detector's view of it.
#[pyclass(module = "cowrex", frozen)]
struct Block {
    block: cowrex::Block,
    boilerplate: bool,
}

impl Block {
    fn score<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        block_scores(&self.block)
            .find(|(k, _)| *k == name)
            .map(|(_, s)| score(py, s))
            .transpose()
    }
}

fn score<'py>(py: Python<'py>, s: Score) -> PyResult<Bound<'py, PyAny>> {
    Ok(match s {
        Score::Num(x) => x.into_pyobject(py)?.into_any(),
        Score::Int(n) => n.into_pyobject(py)?.into_any(),
        Score::Text(t) => t.into_pyobject(py)?.into_any(),
    })
}

#[pymethods]
impl Block {
    /// Index among all blocks of the page (gaps where segmentation found no valid text).
    #[getter]
    fn idx(&self) -> usize {
        self.block.idx
    }

    /// The block's own identified language, ISO 639-3, when it has enough letters (30).
    #[getter]
    fn language(&self) -> Option<&'static str> {
        self.block.language.map(|l| l.code)
    }

    /// How sure the block's own identification is, 0–1.
    #[getter]
    fn language_score(&self) -> Option<f64> {
        self.block
            .language
            .as_ref()
            .map(cowrex::output::language_score)
    }

    #[getter]
    fn text(&self) -> &str {
        &self.block.text
    }

    /// For a content block with a line that C4's rules drop: each of its lines' fate (`kept`,
    /// `no_terminal_punc`, `too_few_words`, `javascript`, `policy`, …), joined by `,`.
    #[getter]
    fn c4(&self) -> Option<&str> {
        self.block.c4.as_deref()
    }

    /// What the block is: `comment` for a block of the page's comment section, else `h1`…`h6`,
    /// `p`, `li`, `td`, `th`, `table`, `pre`, `quote`, `caption` or `other`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.block.kind_name()
    }

    /// A list item's list, `ol` or `ul` (`None` for other blocks; a comment may be a list
    /// item).
    #[getter]
    fn list(&self) -> Option<&'static str> {
        self.block.kind.list()
    }

    /// A list item's depth, 1 in a top-level list (`None` for other blocks).
    #[getter]
    fn depth(&self) -> Option<u8> {
        self.block.kind.depth()
    }

    /// A table cell's row, from 0 (`None` for other blocks).
    #[getter]
    fn row(&self) -> Option<u32> {
        self.block.kind.cell().map(|c| c.0)
    }

    /// A table cell's column, from 0, cells spanning columns counted (`None` for other blocks).
    #[getter]
    fn col(&self) -> Option<u32> {
        self.block.kind.cell().map(|c| c.1)
    }

    /// Boilerplate score of the deciding scorer (0: content, 1: boilerplate).
    #[getter]
    fn bpv(&self) -> f32 {
        self.block.bpv
    }

    /// texrex's class of `bpv`: `a` (0) to `k` (1).
    #[getter]
    fn bpc(&self) -> String {
        self.block.bpc().to_string()
    }

    /// `bpv` is above the document's threshold.
    #[getter]
    fn boilerplate(&self) -> bool {
        self.boilerplate
    }

    /// `idx` of an earlier block with the same text.
    #[getter]
    fn dup_of(&self) -> Option<usize> {
        self.block.dup_of
    }

    /// texrex's MLP score (0: content, 1: boilerplate).
    #[getter]
    fn mlp(&self) -> f32 {
        cowrex::classify::mlp::of(&self.block)
    }

    /// NCleaner's score in bits per character (positive: clean); `None` when off.
    #[getter]
    fn ngram(&self) -> Option<f32> {
        cowrex::classify::ngram::of(&self.block)
    }

    /// jusText's class: `good`, `bad`, `short`, `neargood`.
    #[getter]
    fn justext<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.score(py, "justext")
    }

    /// jusText's context-free class.
    #[getter]
    fn justextcf<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.score(py, "justextcf")
    }

    /// boilerpipe's Algorithm 2 (number of words): `content` or `boilerplate`.
    #[getter]
    fn boilerpipe<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.score(py, "boilerpipe")
    }

    /// Every scorer's result besides `bpv`, by the names of the JSONL and XML outputs.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, s) in block_scores(&self.block) {
            d.set_item(k, score(py, s)?)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<cowrex.Block idx={} bpv={:.3} boilerplate={} text={:?}>",
            self.block.idx,
            self.block.bpv,
            if self.boilerplate { "True" } else { "False" },
            self.block.text.chars().take(40).collect::<String>()
        )
    }
}

/// The `cowrex` command line ([`cowrex_cli::run`]), for the console script
/// (`cowrex._cli.main`): runs it on `argv` (`argv[0]` names the program) with the GIL released
/// and returns its exit code. It writes to the process's standard output and error and, in
/// `process`, installs the command line's signal handlers; a panic, which the binary would
/// end on with exit code 101, returns 101.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> i32 {
    py.detach(|| catch_unwind(AssertUnwindSafe(|| cowrex_cli::run(argv))).unwrap_or(101))
}

#[pymodule]
fn _cowrex(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Extractor>()?;
    m.add_class::<Document>()?;
    m.add_class::<Block>()?;
    m.add_class::<WarcReader>()?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(filter_reason, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

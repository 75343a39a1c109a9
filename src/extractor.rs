//! The front door of the library: build an [`Extractor`] once from [`Options`], share it
//! between threads, and analyse pages with [`Extractor::extract`] or stream the documents of
//! WARC files with [`Extractor::read_warc`]. The command line and the Python package are
//! layers over it.
//!
//! ```
//! let extractor = cowrex::Extractor::builtin();
//! let html = b"<html><head><title>Ducks</title></head><body>\
//!     <nav><a href='/'>Home</a> | <a href='/about'>About</a></nav>\
//!     <p>Ducks are water birds of the family Anatidae. They live in fresh and salt water, \
//!     eat plants, insects and small fish, and most species migrate in large flocks.</p>\
//!     <footer>Copyright 2026</footer></body></html>";
//! let doc = extractor.extract(html, Some("https://example.org/ducks"));
//! assert_eq!(doc.metadata.title.as_deref(), Some("Ducks"));
//! assert!(doc.text().starts_with("Ducks are water birds"));
//! for b in &doc.blocks {
//!     println!("{} {} {:.2} {}", b.idx, b.bpc(), b.bpv, b.text);
//! }
//! ```

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::analyze;
use crate::analyze::{Config, Page, StageTimes};
use crate::classify::{self, LangChoice, Models, NgramChoice, Scorer, registry};
use crate::document::{self, Document, Meta};
use crate::error::ErrorKind;
use crate::fate::Fate;
use crate::pipeline::stream::{Documents, StreamConfig};
use crate::pipeline::{Input, manifest};
use crate::warc::Location;

/// What an [`Extractor`] loads and how it analyses pages.
#[derive(Debug, Clone)]
pub struct Options {
    /// The scorer whose result is `bpv` and decides what is boilerplate.
    pub scorer: Scorer,
    /// Which built-in MLP scores a document (`Auto`: by its identified language).
    pub lang: LangChoice,
    /// Which n-gram model scores blocks.
    pub ngram: NgramChoice,
    /// Model files that replace the detectors' built-in models, by the option each detector
    /// declares: `model` (an MLP for every document),
    /// `ngram_model`, `markup_model`, `combined_model`, ….
    pub model_files: BTreeMap<String, PathBuf>,
    /// Text-quality profiles (from `cowrex train profile`) instead of the built-in ones.
    pub profiles: Vec<PathBuf>,
    /// A fastText language identification model (OpenLID's, GlotLID's, …) instead of the
    /// built-in identifier.
    pub lid_model: Option<PathBuf>,
    /// Thresholds, caps, syntax and what is computed per document.
    pub config: Config,
}

impl Default for Options {
    /// The built-in models; the combined model decides with each document's own threshold;
    /// no shingles.
    fn default() -> Self {
        Options {
            scorer: Scorer::combined(),
            lang: LangChoice::Auto,
            ngram: NgramChoice::Auto,
            model_files: BTreeMap::new(),
            profiles: Vec::new(),
            lid_model: None,
            config: Config {
                shingles: false,
                ..Config::default()
            },
        }
    }
}

pub use crate::error::Error;

/// A model file's bytes.
fn read_model(p: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(p).map_err(|e| Error::model(p, e))
}

impl Options {
    /// Load the models these options name, after checking the settings
    /// ([`Config::validate`]).
    pub fn models(&self) -> Result<Models, Error> {
        self.config.validate()?;
        let bad = |p: &Path, e: &dyn std::fmt::Display| Error::model(p, e.to_string());
        if let Some(option) = self
            .model_files
            .keys()
            .find(|o| registry::model_file(o).is_none())
        {
            let options: Vec<&str> = registry::model_files().map(|f| f.option).collect();
            return Err(Error::usage(format!(
                "unknown model file option {option:?}: one of {}",
                options.join(", ")
            )));
        }
        let mut models = Models::new(self.lang, self.ngram);
        for file in registry::model_files() {
            if let Some(p) = self.model_files.get(file.option) {
                let bytes = read_model(p)?;
                let model = (file.load)(&bytes).map_err(|e| bad(p, &e))?;
                models.set_file(file, model, &bytes);
            }
        }
        if !self.profiles.is_empty() {
            let mut profiles = Vec::new();
            for p in &self.profiles {
                let text = String::from_utf8(read_model(p)?).map_err(|_| bad(p, &"not UTF-8"))?;
                let stem = p
                    .file_stem()
                    .map_or(String::new(), |s| s.to_string_lossy().into_owned());
                profiles
                    .push(classify::quality::Profile::parse(&text, &stem).map_err(|e| bad(p, &e))?);
            }
            models.set_profiles(classify::quality::Profiles::new(profiles));
        }
        if let Some(p) = &self.lid_model {
            let bytes = read_model(p)?;
            models.set_lid_model(&bytes).map_err(|e| bad(p, &e))?;
        }
        if self.scorer == Scorer::NGRAM && self.ngram == NgramChoice::Off {
            return Err(Error::usage(
                "--scorer ngram needs n-gram scoring; drop --ngram off",
            ));
        }
        models.set_scorer(self.scorer);
        Ok(models)
    }
}

/// Builds an [`Extractor`] from settings given one by one ([`Extractor::builder`]); what is
/// not set is [`Options::default`]'s.
///
/// ```
/// let extractor = cowrex::Extractor::builder()
///     .scorer("combined")
///     .threshold(0.4)
///     .shingles(true)
///     .build()
///     .unwrap();
/// assert_eq!(extractor.config().threshold, Some(0.4));
/// assert!(cowrex::Extractor::builder().scorer("nothing").build().is_err());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Builder {
    options: Options,
    scorer: Option<String>,
}

impl Builder {
    /// The decision that sets `bpv`, by its name as `process --scorer` takes it
    /// ([`Scorer`]'s names): `combined` (the default), `mlp`, `ngram`,
    /// `justext`, `boilerpipe`, …; an unknown name fails [`Builder::build`].
    pub fn scorer(mut self, name: &str) -> Builder {
        self.scorer = Some(name.to_owned());
        self
    }

    /// Blocks whose `bpv` is at most this are content (default: each page's own threshold).
    pub fn threshold(mut self, threshold: f32) -> Builder {
        self.options.config.threshold = Some(threshold);
        self
    }

    /// Where the combined model cuts a page without a fixed threshold (default: balanced).
    pub fn favor(mut self, favor: crate::classify::Favor) -> Builder {
        self.options.config.favor = favor;
        self
    }

    /// Whether the blocks of a page's comment section are content (default: drop).
    pub fn comments(mut self, comments: crate::Comments) -> Builder {
        self.options.config.comments = comments;
        self
    }

    /// Which built-in MLP scores a page (default: by its identified language).
    pub fn lang(mut self, lang: LangChoice) -> Builder {
        self.options.lang = lang;
        self
    }

    /// Which n-gram model scores blocks (default: by the page's language).
    pub fn ngram(mut self, ngram: NgramChoice) -> Builder {
        self.options.ngram = ngram;
        self
    }

    /// A model file for the detector that declares `option` ([`Options::model_files`]):
    /// `.model_file("combined_model", path)`; an unknown option fails [`Builder::build`].
    pub fn model_file(mut self, option: &str, path: impl Into<PathBuf>) -> Builder {
        self.options
            .model_files
            .insert(option.to_owned(), path.into());
        self
    }

    /// A fastText language identification model file (OpenLID's, GlotLID's, …) instead of the
    /// built-in identifier; its labels (`__label__deu_Latn`, `__label__en`) give the language
    /// and script.
    pub fn lid_model(mut self, path: impl Into<PathBuf>) -> Builder {
        self.options.lid_model = Some(path.into());
        self
    }

    /// A text-quality profile (from `cowrex train profile`); with one or more, the built-in
    /// profiles are not used.
    pub fn profile(mut self, path: impl Into<PathBuf>) -> Builder {
        self.options.profiles.push(path.into());
        self
    }

    /// Compute each document's w-shingles (default: no).
    pub fn shingles(mut self, shingles: bool) -> Builder {
        self.options.config.shingles = shingles;
        self
    }

    /// Every analysis setting at once (thresholds, caps, syntax, masks, …); replaces what
    /// [`Builder::threshold`], [`Builder::favor`] and [`Builder::shingles`] set before it.
    pub fn config(mut self, config: Config) -> Builder {
        self.options.config = config;
        self
    }

    /// Load the models: `Err` for an unknown scorer
    /// ([`ErrorKind::Usage`]) or a model file that cannot be
    /// read or parsed ([`ErrorKind::Model`]).
    pub fn build(mut self) -> Result<Extractor, Error> {
        if let Some(name) = &self.scorer {
            self.options.scorer = name.parse()?;
        }
        Extractor::new(&self.options)
    }
}

/// Analyses pages with one set of models and settings. Cheap to clone and `Send + Sync`:
/// build it once (loading the models takes a moment) and use it from any thread.
#[derive(Debug, Clone)]
pub struct Extractor {
    models: Arc<Models>,
    config: Config,
}

impl Extractor {
    /// Load the models `options` name.
    pub fn new(options: &Options) -> Result<Extractor, Error> {
        Ok(Extractor {
            models: Arc::new(options.models()?),
            config: options.config,
        })
    }

    /// Start building one from settings given one by one.
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// The built-in models with [`Options::default`].
    pub fn builtin() -> Extractor {
        Extractor::new(&Options::default()).expect("the built-in models load (tested)")
    }

    /// The models, shared.
    pub fn models(&self) -> &Arc<Models> {
        &self.models
    }

    /// The analysis settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Analyse one page: HTML, or an HTML file that starts with an ARC line or an HTTP head
    /// (its charset is then a hint). Every block is scored, none removed; a page without text
    /// (empty, binary) gives a document without blocks. `url` gives the host and the
    /// top-level domain (a charset hint).
    pub fn extract(&self, html: &[u8], url: Option<&str>) -> Document {
        let (start, charset) = analyze::split_page(html);
        self.analyse(html, start, charset.as_deref(), url)
            .unwrap_or_else(|_| self.empty(url))
    }

    /// [`Extractor::extract`] for a page that is already text (decoded by the caller): it is
    /// read as UTF-8 whatever its `<meta charset>` says.
    pub fn extract_str(&self, html: &str, url: Option<&str>) -> Document {
        self.analyse(html.as_bytes(), 0, Some("utf-8"), url)
            .unwrap_or_else(|_| self.empty(url))
    }

    /// Analyse one page as [`Extractor::extract`] does, but a page that gives no document is
    /// an error ([`ErrorKind::Input`]) naming its fate as `process` counts it
    /// ([`Fate`]): `skipped.binary`, `skipped.no_text`, `skipped.capped`,
    /// `skipped.filtered` or `skipped.bad_quality`.
    ///
    /// ```
    /// let extractor = cowrex::Extractor::builder().scorer("boilerpipe").build().unwrap();
    /// let page = b"<html><body><p>Ducks are water birds of the family Anatidae. They live in \
    ///     fresh and salt water and eat plants, insects and small fish.</p></body></html>";
    /// let doc = extractor.analyze_html(page, Some("https://example.org/ducks")).unwrap();
    /// assert_eq!(doc.scorer, "boilerpipe");
    /// assert!(doc.text().contains("water birds"));
    /// let err = extractor.analyze_html(b"<html><body></body></html>", None).unwrap_err();
    /// assert_eq!(err.to_string(), "the page gives no document: skipped.no_text");
    /// ```
    pub fn analyze_html(&self, html: &[u8], url: Option<&str>) -> Result<Document, Error> {
        let (start, charset) = analyze::split_page(html);
        self.analyse(html, start, charset.as_deref(), url)
            .map_err(|fate| {
                Error::new(
                    ErrorKind::Input,
                    format!("the page gives no document: {}", fate.name()),
                )
            })
    }

    /// Analyse one page for [`Extractor::analyze_html`]: the document, or `Err` with the fate
    /// of a page that gives none (binary, no text, filtered out).
    fn analyse(
        &self,
        raw: &[u8],
        start: usize,
        charset: Option<&str>,
        url: Option<&str>,
    ) -> Result<Document, Fate> {
        let page = Page {
            raw,
            payload: &raw[start..],
            http_charset: charset,
            meta: Meta {
                url: url.unwrap_or_default().to_string(),
                ..Default::default()
            },
        };
        if crate::pipeline::select::looks_binary(page.payload) {
            return Err(Fate::Binary);
        }
        analyze::analyze(page, &self.models, &self.config, &mut StageTimes::default())
            .map_err(|skip| skip.fate())
    }

    /// A document without blocks for a page that gives none ([`Extractor::extract`]).
    fn empty(&self, url: Option<&str>) -> Document {
        let meta = Meta {
            url: url.unwrap_or_default().to_string(),
            ..Default::default()
        };
        let (host, tld) = document::host_and_tld(&meta.url);
        Document {
            id: document::doc_id(&meta),
            meta,
            host,
            tld,
            scorer: self.models.scorer().name(),
            threshold: self.config.threshold.unwrap_or(0.5),
            ..Document::default()
        }
    }

    /// Stream the documents of a WARC file (`.warc`, `.warc.gz`), an http(s) or
    /// `s3://bucket/key` URL of one, or `-` for standard input, analysed on `threads` worker threads (0: one per core) in
    /// input order. `Err` when the input cannot be opened; damage inside it is skipped and
    /// counted ([`Documents::stats`]).
    ///
    /// ```
    /// let extractor = cowrex::Extractor::builtin();
    /// let mut docs = extractor.read_warc("fixtures/sample.warc.gz", 2).unwrap();
    /// for doc in &mut docs {
    ///     let doc = doc.unwrap();
    ///     println!("{} {} {}", doc.meta.url, doc.language_code(), doc.text().len());
    /// }
    /// assert!(docs.stats().documents > 0);
    /// assert_eq!(docs.stats().fates["written"], docs.stats().documents);
    /// assert!(extractor.read_warc("no/such.warc.gz", 1).is_err());
    /// ```
    pub fn read_warc(&self, input: &str, threads: usize) -> Result<Documents, Error> {
        self.read_warc_line(input, None, threads)
    }

    /// [`Extractor::read_warc`] for a line of a manifest: a path or URL relative to `base` (a
    /// directory, an http(s) URL such as `https://data.commoncrawl.org/`, or an s3:// URL such
    /// as `s3://commoncrawl/`) when given. The
    /// documents' `arcfile` is then the line, as `process --manifest --input-base` writes it.
    pub fn read_warc_line(
        &self,
        input: &str,
        base: Option<&str>,
        threads: usize,
    ) -> Result<Documents, Error> {
        let mut spooled = None;
        let input = if input == "-" {
            let path = std::env::temp_dir().join(format!(
                "cowrex-stdin-{}-{:x}.warc",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos())
            ));
            let spool = |e: std::io::Error| {
                Error::new(
                    ErrorKind::Input,
                    format!("cannot spool standard input: {e}"),
                )
                .caused_by(e)
            };
            let mut f = std::fs::File::create(&path).map_err(spool)?;
            let copied = std::io::copy(&mut std::io::stdin().lock(), &mut f);
            spooled = Some(path.clone());
            if let Err(e) = copied {
                let _ = std::fs::remove_file(&path);
                return Err(spool(e));
            }
            Input {
                location: Location::File(path),
                stem: "stdin".into(),
                arcfile: "-".into(),
            }
        } else {
            let input = if base.is_none() && !manifest::is_url(input) && !manifest::is_s3(input) {
                Input::file(PathBuf::from(input))
            } else {
                manifest::resolve(input, base)?
            };
            if let Location::File(p) = &input.location {
                std::fs::File::open(p)
                    .and_then(|mut f| f.read(&mut [0u8; 1]))
                    .map_err(|e| Error::input(p.display(), e))?;
            }
            input
        };
        let cfg = StreamConfig {
            doc: self.config,
            threads: if threads == 0 {
                StreamConfig::default().threads
            } else {
                threads
            },
            ..StreamConfig::default()
        };
        let mut docs = crate::pipeline::stream::stream(vec![input], Arc::clone(&self.models), &cfg);
        if let Some(p) = spooled {
            docs.remove_on_drop(p);
        }
        Ok(docs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed threshold outside 0–1 is refused when the models load, with the message the
    /// command line and Python give; the bounds themselves are allowed.
    #[test]
    fn a_threshold_is_a_share() {
        for t in [1.5, -0.1, f32::NAN] {
            let Err(e) = Extractor::builder().threshold(t).build() else {
                panic!("{t} accepted")
            };
            assert_eq!(e.kind(), ErrorKind::Usage);
            assert_eq!(
                e.to_string(),
                format!("invalid value '{t}' for threshold: a share between 0 and 1")
            );
        }
        for t in [0.0, 1.0] {
            assert!(Extractor::builder().threshold(t).build().is_ok());
        }
    }

    /// Whole pages with hostile metadata and structure: each gives a sensible value or none,
    /// and the caps hold.
    #[test]
    fn hostile_pages_give_sensible_metadata_and_stop_at_the_caps() {
        let ex = Extractor::new(&Options::default()).unwrap();
        // A 1 MB title, an author that is a URL, an impossible date and one in the future.
        let title = "Headline ".repeat(120_000);
        let page = format!(
            "<html><head><title>{title}</title><meta name=author content=\"https://example.org/me\">\
             <meta property=article:published_time content=\"2024-02-31\">\
             <meta property=article:modified_time content=\"2999-01-01\"></head>\
             <body><p>Some running text of the page, long enough to be its content here.</p></body></html>"
        );
        let doc = ex.extract(page.as_bytes(), None);
        let t = doc.metadata.title.as_deref().expect("a title");
        assert!(
            t.starts_with("Headline") && t.chars().count() <= 500,
            "{}",
            t.len()
        );
        assert_eq!(doc.metadata.author, None);
        assert_eq!(doc.metadata.published, None);
        assert_eq!(doc.blocks.len(), 1);
        // A table of 10^3 x 10^3 cells: cut at the block cap, the rest of the page is not read.
        let row = format!("<tr>{}</tr>", "<td>cell</td>".repeat(1000));
        let table = format!("<body><table>{}</table><p>After</p>", row.repeat(1000));
        let doc = ex.extract(table.as_bytes(), None);
        assert_eq!(doc.capped, Some(crate::document::Cap::Blocks));
        assert_eq!(doc.blocks.len(), crate::html::Limits::default().max_blocks);
    }
}

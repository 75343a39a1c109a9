//! Boilerplate detection: the block every detector scores ([`Block`], in `document`), what a detector is
//! ([`detector`]), the detectors, one file each (texrex's MLP, NCleaner's n-gram models, the
//! markup model, jusText, boilerpipe, the combined model), the registry that runs them
//! ([`registry`]), the built-in models ([`Models`]) and the language identification that
//! picks them.

mod binary;
pub mod detector;
pub mod gbt;
pub mod quality;
pub mod registry;

// The registry: every detector, in the order they run. A line here is a detector's module (its
// file) and its place; see `detector` for what the file defines.
registry::detectors! {
    mlp,
    ngram,
    markup,
    justext,
    boilerpipe,
    comment,
    combined,
    #[cfg(feature = "toy-detector")]
    toy,
}

use std::any::Any;
use std::borrow::Cow;
use std::io::Read;
use std::sync::{Arc, OnceLock};

use crate::document::Block;
pub use detector::Favor;
use detector::ModelFile;
use gbt::Gbt;
use md5::{Digest, Md5};
use mlp::Mlp;
use ngram::NgramModel;
use quality::Profiles;
pub use registry::Scorer;

use crate::document::Language;
use crate::lid::{self, Identifier};

/// The languages with a built-in MLP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelLang {
    /// English.
    En,
    /// German.
    De,
    /// French.
    Fr,
    /// Swedish.
    Sv,
}

impl ModelLang {
    /// Every language with a built-in MLP.
    pub const ALL: [ModelLang; 4] = [ModelLang::En, ModelLang::De, ModelLang::Fr, ModelLang::Sv];

    /// The ISO 639-1 code (`en`, `de`, `fr`, `sv`).
    pub fn code(self) -> &'static str {
        match self {
            ModelLang::En => "en",
            ModelLang::De => "de",
            ModelLang::Fr => "fr",
            ModelLang::Sv => "sv",
        }
    }

    /// The language with ISO 639-1 code `s`, if it has a built-in MLP.
    pub(crate) fn from_code(s: &str) -> Option<ModelLang> {
        Self::ALL.into_iter().find(|l| l.code() == s)
    }

    /// The model for an identified language: its own where there is one, English otherwise.
    pub(crate) fn for_language(lang: Option<&Language>) -> ModelLang {
        lang.and_then(|l| l.iso639_1)
            .and_then(ModelLang::from_code)
            .unwrap_or(ModelLang::En)
    }

    fn builtin_text(self) -> &'static str {
        match self {
            ModelLang::En => include_str!("../../models/texrex-en.mlp"),
            ModelLang::De => include_str!("../../models/texrex-de.mlp"),
            ModelLang::Fr => include_str!("../../models/texrex-fr.mlp"),
            ModelLang::Sv => include_str!("../../models/texrex-sv.mlp"),
        }
    }
}

/// Which MLP scores a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LangChoice {
    /// Identify the document's language and use its model (English when there is none).
    Auto,
    /// Use this language's model for every document.
    Fixed(ModelLang),
}

/// The built-in combined model, gzipped text (see `docs/models.md`); only its checksum is
/// taken from it.
const COMBINED: &[u8] = include_bytes!("../../models/combined.gbt.gz");
/// The built-in combined model's two stages in their binary layout (made by `build.rs`).
const COMBINED_FIRST: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/combined-first.bin"));
const COMBINED_SECOND: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/combined-second.bin"));
/// The built-in comment model, gzipped text; only its checksum is taken from it.
const COMMENT: &[u8] = include_bytes!("../../models/comment.gbt.gz");
/// The built-in comment model's two stages in their binary layout (made by `build.rs`).
const COMMENT_FIRST: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/comment-first.bin"));
const COMMENT_SECOND: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/comment-second.bin"));
/// The built-in markup model, gzipped text.
const MARKUP: &[u8] = include_bytes!("../../models/markup.words.gz");
/// fastText's language identification model lid.176, quantised (see `docs/models.md`).
const LID176: &[u8] = include_bytes!("../../models/lid.176.ftz");
/// lid.176's input rows decoded, as `build.rs` lays them out.
const LID176_ROWS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/lid176-rows.bin"));

/// A file's bytes as text, gunzipped when they are gzipped.
pub fn model_text(bytes: &[u8]) -> Result<String, ModelError> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        // Room for the text at once: gzip ends with its length (modulo 4 GiB), taken as a
        // hint of at most 64 MiB, since a file's last bytes can claim anything.
        let size = bytes
            .last_chunk::<4>()
            .map_or(0, |b| u32::from_le_bytes(*b) as usize);
        let mut s = String::with_capacity(size.min(64 << 20));
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut s)
            .map_err(|e| ModelError(format!("bad gzip: {e}")))?;
        Ok(s)
    } else {
        String::from_utf8(bytes.to_vec()).map_err(|_| ModelError("not UTF-8".into()))
    }
}

crate::choice::choice!(LangChoice, "lang", [
    LangChoice::Auto, "auto", "the model of the document's language, English for the others";
    LangChoice::Fixed(ModelLang::En), "en", "English";
    LangChoice::Fixed(ModelLang::De), "de", "German";
    LangChoice::Fixed(ModelLang::Fr), "fr", "French";
    LangChoice::Fixed(ModelLang::Sv), "sv", "Swedish";
]);

/// Which n-gram model scores blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NgramChoice {
    /// No n-gram scoring.
    Off,
    /// The standard (lexical) model for English documents, the non-lexical one for the rest.
    Auto,
    /// The standard (lexical) model for every document.
    Standard,
    /// The non-lexical model for every document.
    NonLexical,
}

crate::choice::choice!(NgramChoice, "ngram", [
    NgramChoice::Auto, "auto", "standard for English documents, non-lexical for the others";
    NgramChoice::Standard, "standard", "the lexical model for every document";
    NgramChoice::NonLexical, "nonlexical", "the non-lexical model for every document";
    NgramChoice::Off, "off", "no n-gram scores";
]);

/// A built-in n-gram model: its file (gzipped text, see `docs/models.md`), which the
/// checksum covers, and the model in its binary layout (made by `build.rs`), which is loaded.
struct BuiltinNgram {
    file: &'static [u8],
    layout: &'static [u8],
}

/// The built-in English standard n-gram model.
const NGRAM_STANDARD: BuiltinNgram = BuiltinNgram {
    file: include_bytes!("../../models/ncleaner-en-standard.ngram.gz"),
    layout: include_bytes!(concat!(env!("OUT_DIR"), "/ngram-standard.bin")),
};
/// The built-in English non-lexical n-gram model.
const NGRAM_NON_LEXICAL: BuiltinNgram = BuiltinNgram {
    file: include_bytes!("../../models/ncleaner-en-nonlexical.ngram.gz"),
    layout: include_bytes!(concat!(env!("OUT_DIR"), "/ngram-nonlexical.bin")),
};

/// What is wrong with a model's bytes: the error of the model parsers, which see bytes, not a
/// file. Loading a model file turns it into an [`crate::Error`] of kind
/// [`crate::error::ErrorKind::Model`] that names the file ("model PATH: CAUSE") and has this
/// as its `source()`. (`build.rs` compiles two of the parsers too, with a `ModelError` of its
/// own.)
#[derive(Debug)]
pub struct ModelError(pub String);

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ModelError {}

/// Read an n-gram model file, gzipped or not.
pub(crate) fn read_ngram(bytes: &[u8]) -> Result<NgramModel, ModelError> {
    NgramModel::parse(&model_text(bytes)?)
}

/// An n-gram model loaded on first use: loading one's table takes milliseconds, and a run (or
/// `cowrex extract` on one page) often needs only the standard or the non-lexical one.
#[derive(Debug, Clone)]
struct LazyNgram {
    /// The built-in model's binary layout.
    bytes: &'static [u8],
    model: OnceLock<NgramModel>,
}

impl LazyNgram {
    fn builtin(bytes: &'static [u8]) -> LazyNgram {
        LazyNgram {
            bytes,
            model: OnceLock::new(),
        }
    }

    fn get(&self) -> &NgramModel {
        self.model.get_or_init(|| {
            NgramModel::from_static(self.bytes).expect("built-in models are valid (tested)")
        })
    }
}

/// The models' checksum: MD5 over every model's file and the choices, then once more over
/// that and each later change. Computed when first asked for (only runs that write
/// `done.json` need it, and hashing the built-in models' files takes milliseconds).
#[derive(Debug, Clone)]
struct Checksum {
    covers: Vec<Cow<'static, [u8]>>,
    changes: Vec<Vec<u8>>,
    value: OnceLock<String>,
}

impl Checksum {
    fn value(&self) -> &str {
        self.value.get_or_init(|| {
            let mut sum = Md5::new();
            for part in &self.covers {
                sum.update(part);
            }
            let mut hex = crate::digest::hex(&sum.finalize());
            for change in &self.changes {
                let mut sum = Md5::new();
                sum.update(&hex);
                sum.update(change);
                hex = crate::digest::hex(&sum.finalize());
            }
            hex
        })
    }

    fn change(&mut self, more: &[u8]) {
        self.changes.push(more.to_vec());
        self.value = OnceLock::new();
    }
}

/// All scorers of a run: the built-in models, and the model files that replace them
/// ([`Builder::model_file`](crate::Builder::model_file)).
#[derive(Debug, Clone)]
pub struct Models {
    /// One MLP per built-in language.
    mlps: Vec<(ModelLang, Mlp)>,
    /// Which MLP scores a document.
    lang: LangChoice,
    /// Which n-gram model scores blocks.
    ngram: NgramChoice,
    standard: Option<LazyNgram>,
    non_lexical: Option<LazyNgram>,
    /// Text-quality profiles (badness), set by [`Models::set_profiles`].
    profiles: Profiles,
    /// The scorer that sets `bpv`, set by [`Models::set_scorer`].
    scorer: Scorer,
    combined: combined::Model,
    comment: comment::Model,
    markup: markup::MarkupModel,
    /// The model files read ([`Models::set_file`]), each with what it declared.
    files: Vec<(&'static ModelFile, Arc<dyn Any + Send + Sync>)>,
    /// The language identifier: the built-in one, made on first use, or a model file's
    /// ([`Models::set_lid_model`]).
    lid: Arc<OnceLock<Identifier>>,
    checksum: Checksum,
}

impl Models {
    /// The built-in models: the MLPs that `lang` chooses from, the n-gram models that `ngram`
    /// selects.
    pub fn new(lang: LangChoice, ngram: NgramChoice) -> Models {
        let mut covers: Vec<Cow<'static, [u8]>> = vec![
            format!("lang={lang:?} ngram={ngram:?}\n")
                .into_bytes()
                .into(),
        ];
        let mlps = ModelLang::ALL
            .into_iter()
            .map(|l| {
                covers.push(l.builtin_text().as_bytes().into());
                let m = Mlp::parse(l.builtin_text()).expect("built-in models are valid (tested)");
                (l, m)
            })
            .collect();
        let mut load = |model: BuiltinNgram| {
            covers.push(model.file.into());
            LazyNgram::builtin(model.layout)
        };
        let (mut standard, mut non_lexical) = (None, None);
        match ngram {
            NgramChoice::Off => {}
            NgramChoice::Standard => standard = Some(load(NGRAM_STANDARD)),
            NgramChoice::NonLexical => non_lexical = Some(load(NGRAM_NON_LEXICAL)),
            NgramChoice::Auto => {
                standard = Some(load(NGRAM_STANDARD));
                non_lexical = Some(load(NGRAM_NON_LEXICAL));
            }
        }
        let profiles = Profiles::builtin();
        covers.push(profiles.text().as_bytes().to_vec().into());
        covers.push(COMBINED.into());
        covers.push(MARKUP.into());
        covers.push(COMMENT.into());
        covers.push(LID176.into());
        let stage = |bytes| Gbt::from_static(bytes).expect("built-in models are valid (tested)");
        Models {
            mlps,
            lang,
            ngram,
            standard,
            non_lexical,
            profiles,
            scorer: Scorer::combined(),
            combined: combined::Model {
                first: stage(COMBINED_FIRST),
                second: stage(COMBINED_SECOND),
            },
            comment: comment::Model {
                first: stage(COMMENT_FIRST),
                second: stage(COMMENT_SECOND),
            },
            markup: model_text(MARKUP)
                .and_then(|t| markup::MarkupModel::parse(&t))
                .expect("built-in models are valid (tested)"),
            files: Vec::new(),
            lid: Arc::new(OnceLock::new()),
            checksum: Checksum {
                covers,
                changes: Vec::new(),
                value: OnceLock::new(),
            },
        }
    }

    /// The scorer that sets `bpv`.
    pub fn scorer(&self) -> Scorer {
        self.scorer
    }

    /// The text-quality profiles (badness).
    #[doc(hidden)]
    pub fn profiles(&self) -> &Profiles {
        &self.profiles
    }

    /// Choose the scorer that sets `bpv` (the checksum covers the choice).
    pub(crate) fn set_scorer(&mut self, scorer: Scorer) {
        self.rehash(format!("scorer={scorer:?}").as_bytes());
        self.scorer = scorer;
    }

    /// Use a model read from a model file (`model`, from [`ModelFile::load`] of `bytes`)
    /// instead of the built-in one of the detector that declared `file`; the file's bytes go
    /// into the checksum.
    #[doc(hidden)]
    pub fn set_file(
        &mut self,
        file: &'static ModelFile,
        model: detector::LoadedModel,
        bytes: &[u8],
    ) {
        self.rehash(bytes);
        self.files.retain(|(f, _)| f.option != file.option);
        self.files.push((file, model.into()));
    }

    /// The model read from the model file `file` declares ([`Models::set_file`]), if one was
    /// read and it is a `T`. A detector asks once per page.
    #[doc(hidden)]
    pub fn file<T: 'static>(&self, file: &ModelFile) -> Option<&T> {
        self.files
            .iter()
            .find(|(f, _)| f.option == file.option)
            .and_then(|(_, m)| m.downcast_ref())
    }

    /// The combined model: `--combined-model`'s, or the built-in one.
    #[doc(hidden)]
    pub fn combined(&self) -> &combined::Model {
        self.file(&combined::MODEL_FILE).unwrap_or(&self.combined)
    }

    /// The comment model: `--comment-model`'s, or the built-in one.
    #[doc(hidden)]
    pub fn comment(&self) -> &comment::Model {
        self.file(&comment::MODEL_FILE).unwrap_or(&self.comment)
    }

    /// The markup model: `--markup-model`'s, or the built-in one.
    #[doc(hidden)]
    pub fn markup(&self) -> &markup::MarkupModel {
        self.file(&markup::MODEL_FILE).unwrap_or(&self.markup)
    }

    fn rehash(&mut self, more: &[u8]) {
        self.checksum.change(more);
    }

    /// MD5 over every model's file and the choices, for `done.json`.
    pub fn checksum(&self) -> &str {
        self.checksum.value()
    }

    /// Replace the text-quality profiles (the checksum covers them).
    pub(crate) fn set_profiles(&mut self, profiles: Profiles) {
        self.rehash(profiles.text().as_bytes());
        self.profiles = profiles;
    }

    /// The built-in models with language identification and n-gram scoring on.
    pub fn builtin() -> Models {
        Models::new(LangChoice::Auto, NgramChoice::Auto)
    }

    /// Identify languages with a fastText model file (`--lid-model`: OpenLID's, GlotLID's, …)
    /// instead of the built-in identifier; its bytes go into the checksum.
    pub(crate) fn set_lid_model(&mut self, bytes: &[u8]) -> Result<(), ModelError> {
        let model = lid::fasttext::Model::from_bytes(bytes).map_err(ModelError)?;
        if model.num_labels() == 0 {
            return Err(ModelError("a fastText model without labels".into()));
        }
        self.rehash(bytes);
        self.lid = Arc::new(OnceLock::from(Identifier::new(model, None)));
        Ok(())
    }

    /// The language identifier ([`crate::lid`]): lid.176 with its script rules, or a model
    /// file's.
    #[doc(hidden)]
    pub fn identifier(&self) -> &Identifier {
        self.lid.get_or_init(|| {
            let model = lid::fasttext::Model::from_bytes_with_rows(LID176, LID176_ROWS)
                .expect("the built-in models are valid (tested)");
            Identifier::new(model, None)
        })
    }

    /// The MLP for a document in `lang` (the identified language, if any), and which built-in
    /// model it is (`None` for a model file, which replaces every language's).
    #[doc(hidden)]
    pub fn mlp(&self, lang: Option<&Language>) -> (Option<ModelLang>, &Mlp) {
        if let Some(m) = self.file(&mlp::MODEL_FILE) {
            return (None, m);
        }
        let want = match self.lang {
            LangChoice::Fixed(l) => l,
            LangChoice::Auto => ModelLang::for_language(lang),
        };
        let (l, m) = self
            .mlps
            .iter()
            .find(|(l, _)| *l == want)
            .expect("one per language");
        (Some(*l), m)
    }

    /// The n-gram model file's model (`--ngram-model`), if one was read and n-gram scoring is
    /// on: it scores every document.
    fn ngram_file(&self) -> Option<&NgramModel> {
        (self.ngram != NgramChoice::Off)
            .then(|| self.file(&ngram::MODEL_FILE))
            .flatten()
    }

    /// The n-gram models in use (none with n-gram scoring off).
    pub(crate) fn ngram_models(&self) -> impl Iterator<Item = &NgramModel> {
        let file = self.ngram_file();
        let builtin = self.standard.iter().chain(&self.non_lexical);
        file.into_iter()
            .chain(builtin.filter(move |_| file.is_none()).map(LazyNgram::get))
    }

    /// The n-gram model for a document in `lang`, if n-gram scoring is on.
    #[doc(hidden)]
    pub fn ngram(&self, lang: Option<&Language>) -> Option<&NgramModel> {
        if let Some(m) = self.ngram_file() {
            return Some(m);
        }
        match self.ngram {
            NgramChoice::Off => None,
            NgramChoice::Standard => self.standard.as_ref(),
            NgramChoice::NonLexical => self.non_lexical.as_ref(),
            NgramChoice::Auto if lang.is_some_and(|l| l.code == "eng") => self.standard.as_ref(),
            NgramChoice::Auto => self.non_lexical.as_ref().or(self.standard.as_ref()),
        }
        .map(LazyNgram::get)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A language identified with certainty.
    fn lang(code: &'static str, iso639_1: &'static str) -> Language {
        Language {
            code,
            iso639_1: Some(iso639_1),
            script: Some("Latn"),
            score: 1.0,
        }
    }

    #[test]
    fn builtin_models_load() {
        let m = Models::builtin();
        for l in ModelLang::ALL {
            let (got, mlp) = m.mlp(Some(&match l {
                ModelLang::En => lang("eng", "en"),
                ModelLang::De => lang("deu", "de"),
                ModelLang::Fr => lang("fra", "fr"),
                ModelLang::Sv => lang("swe", "sv"),
            }));
            assert_eq!((got, mlp.inputs, mlp.hidden), (Some(l), 37, 18));
        }
        assert_eq!(m.mlp(Some(&lang("jpn", "ja"))).0, Some(ModelLang::En));
        assert_eq!(m.mlp(None).0, Some(ModelLang::En));
        let std = m.ngram(Some(&lang("eng", "en"))).unwrap();
        assert_eq!(std.params, ngram::Params::STANDARD);
        let nl = m.ngram(Some(&lang("deu", "de"))).unwrap();
        assert_eq!(nl.params, ngram::Params::NON_LEXICAL);
        assert_eq!(m.combined().first.features, combined::N_FEATURES);
        assert!(m.markup().weight("sidebar").is_some_and(|w| w < 0.0));
        assert_eq!(
            m.combined().second.features,
            combined::N_FEATURES + combined::N_CONTEXT
        );
    }

    #[test]
    fn builtin_layouts_are_the_model_files() {
        let m = combined::Model::parse(&model_text(COMBINED).unwrap()).unwrap();
        assert_eq!(Gbt::from_bytes(COMBINED_FIRST).unwrap(), m.first);
        // Compared, the lazily read model decodes its trees.
        assert_eq!(Gbt::from_static(COMBINED_SECOND).unwrap(), m.second);
        assert_eq!(Gbt::from_bytes(COMBINED_SECOND).unwrap(), m.second);
        let m = comment::Model::parse(&model_text(COMMENT).unwrap()).unwrap();
        assert_eq!(Gbt::from_static(COMMENT_FIRST).unwrap(), m.first);
        assert_eq!(Gbt::from_static(COMMENT_SECOND).unwrap(), m.second);
        // The layout is lid.176's rows as decoding the file gives them, and a model that
        // reads the layout gives them back; a layout of the wrong size is refused.
        let lid = lid::fasttext::Model::from_bytes(LID176).unwrap();
        assert!(lid.input_layout() == LID176_ROWS);
        let laid = lid::fasttext::Model::from_bytes_with_rows(LID176, LID176_ROWS).unwrap();
        assert!(laid.input_layout() == LID176_ROWS);
        assert!(lid::fasttext::Model::from_bytes_with_rows(LID176, &LID176_ROWS[4..]).is_err());
        for model in [NGRAM_STANDARD, NGRAM_NON_LEXICAL] {
            let file = read_ngram(model.file).unwrap();
            let layout = NgramModel::from_bytes(model.layout).unwrap();
            assert_eq!(layout.params, file.params);
            assert_eq!(layout.to_bytes(), file.to_bytes());
            // Read in place, the table scores as the file's model does.
            let in_place = NgramModel::from_static(model.layout).unwrap();
            for text in [
                "The committee met on Tuesday.",
                "Home | Login | ©2024",
                "Ça va ?",
            ] {
                assert_eq!(in_place.score(text), file.score(text), "{text}");
            }
        }
    }

    #[test]
    fn fixed_language_and_checksums() {
        let fixed = Models::new(LangChoice::Fixed(ModelLang::Sv), NgramChoice::Off);
        assert_eq!(fixed.mlp(Some(&lang("eng", "en"))).0, Some(ModelLang::Sv));
        let en = ModelLang::En.builtin_text().as_bytes();
        let mut custom = Models::new(LangChoice::Auto, NgramChoice::Off);
        let file = &mlp::MODEL_FILE;
        custom.set_file(file, (file.load)(en).unwrap(), en);
        assert_eq!(custom.mlp(Some(&lang("deu", "de"))).0, None);
        assert_ne!(custom.checksum(), fixed.checksum());
        assert!(fixed.ngram(Some(&lang("eng", "en"))).is_none());
        assert_ne!(fixed.checksum(), Models::builtin().checksum());
    }

    #[test]
    fn identifies_languages() {
        let de = "Die Bundesregierung hat am Mittwoch beschlossen, die Förderung für den Ausbau \
                  der erneuerbaren Energien deutlich zu erhöhen, wie ein Sprecher mitteilte.";
        let sv = "Regeringen meddelade på onsdagen att stödet till förnybar energi ska öka \
                  kraftigt under de kommande åren, enligt ett pressmeddelande.";
        let id = Models::builtin();
        let id = id.identifier();
        let g = id.identify(de).unwrap();
        assert_eq!(
            (g.iso639_3, g.iso639_1, g.script),
            ("deu", Some("de"), Some("Latn"))
        );
        assert!(g.score > 0.9, "{}", g.score);
        assert_eq!(id.identify(sv).unwrap().iso639_3, "swe");
        assert!(
            id.identify("12 345 !!").is_none(),
            "no letters, no language"
        );
        assert!(id.num_languages() >= 150);
    }

    #[test]
    fn a_lid_model_file_replaces_the_identifier() {
        let mut m = Models::builtin();
        let before = m.checksum().to_string();
        assert!(m.set_lid_model(b"not a fastText model").is_err());
        m.set_lid_model(LID176).unwrap();
        assert_ne!(m.checksum(), before, "the file is in the checksum");
        assert_eq!(
            m.identifier()
                .identify("Das ist ein Haus.")
                .unwrap()
                .iso639_3,
            "deu"
        );
    }
}

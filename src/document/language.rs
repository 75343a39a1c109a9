//! A language identified for a text: a document's, or a block's own.

/// A language identified for a text: its code, script and how sure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Language {
    /// ISO 639-3 (`eng`, `deu`, `cmn`): every output's `language`. A user's model label
    /// without an ISO 639 code is written as it is.
    pub code: &'static str,
    /// ISO 639-1 (`en`, `de`), where the language has one: datatrove's `language`.
    pub iso639_1: Option<&'static str>,
    /// ISO 15924 (`Latn`, `Cyrl`, `Hans`, `Jpan`): the model label's, else the text's letters'.
    pub script: Option<&'static str>,
    /// How sure, 0–1: the language's probability among all the identifier knows.
    pub score: f32,
}

impl Language {
    /// The ISO 639-3 code of a language, `unknown` for none (the writers' `language`).
    pub fn code_of(language: Option<&Language>) -> &'static str {
        language.map_or("unknown", |l| l.code)
    }
}

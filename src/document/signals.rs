//! Quality signals of a document's text: the figures of datatrove's Gopher, C4 and FineWeb
//! filters and RedPajama-V2's counting signals ([`SIGNALS`]), computed by `crate::signals`.

/// The signals' names, in the order of [`Signals::values`] and of every output.
/// docs/formats.md#quality-signals defines each.
pub const SIGNALS: [&str; N_SIGNALS] = [
    // Gopher quality (datatrove's GopherQualityFilter)
    "gopher_words",
    "gopher_non_symbol_words",
    "gopher_mean_word_length",
    "gopher_hash_ratio",
    "gopher_ellipsis_ratio",
    "gopher_bullet_lines_ratio",
    "gopher_ellipsis_lines_ratio",
    "gopher_alpha_words_ratio",
    "gopher_stop_words",
    // Gopher repetition (GopherRepetitionFilter)
    "gopher_dup_para_frac",
    "gopher_dup_para_char_frac",
    "gopher_dup_line_frac",
    "gopher_dup_line_char_frac",
    "gopher_top_2gram_char_frac",
    "gopher_top_3gram_char_frac",
    "gopher_top_4gram_char_frac",
    "gopher_dup_5gram_char_frac",
    "gopher_dup_6gram_char_frac",
    "gopher_dup_7gram_char_frac",
    "gopher_dup_8gram_char_frac",
    "gopher_dup_9gram_char_frac",
    "gopher_dup_10gram_char_frac",
    // C4 (C4QualityFilter)
    "c4_lines",
    "c4_kept_lines",
    "c4_sentences",
    "c4_lorem_ipsum",
    "c4_curly_bracket",
    "c4_javascript_lines",
    "c4_policy_lines",
    "c4_sentences_any_end",
    "c4_lorem_ipsum_any_end",
    "c4_curly_bracket_any_end",
    // FineWeb (FineWebQualityFilter)
    "fineweb_lines",
    "fineweb_line_punct_ratio",
    "fineweb_short_line_ratio",
    "fineweb_char_dup_ratio",
    "fineweb_newline_ratio",
    // RedPajama-V2
    "rps_doc_word_count",
    "rps_doc_mean_word_length",
    "rps_doc_frac_unique_words",
    "rps_doc_unigram_entropy",
    "rps_doc_frac_all_caps_words",
    "rps_doc_frac_no_alph_words",
    "rps_doc_frac_lines_end_with_ellipsis",
    "rps_doc_symbol_to_word_ratio",
    "rps_doc_lorem_ipsum",
    "rps_doc_curly_bracket",
    "rps_doc_num_sentences",
];

/// Number of signals.
pub const N_SIGNALS: usize = 48;

/// A document's quality signals: [`SIGNALS`]' values, in that order.
#[derive(Debug, Clone, PartialEq)]
pub struct Signals {
    /// The values, in the order of [`SIGNALS`]. Counts are whole numbers.
    pub values: [f64; N_SIGNALS],
}

impl Default for Signals {
    fn default() -> Self {
        Signals {
            values: [0.0; N_SIGNALS],
        }
    }
}

impl Signals {
    /// The value of the signal `name`, `None` for a name not in [`SIGNALS`].
    pub fn get(&self, name: &str) -> Option<f64> {
        SIGNALS
            .iter()
            .position(|&n| n == name)
            .map(|i| self.values[i])
    }

    /// A value as the whole number it is (a count, or a ratio of 0 or 1), `None` for another
    /// value: the outputs write these as integers.
    pub fn whole(v: f64) -> Option<i64> {
        (v.fract() == 0.0 && v.abs() < 9e15).then_some(v as i64)
    }

    /// `(name, value)` in the order of [`SIGNALS`].
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        SIGNALS.iter().copied().zip(self.values.iter().copied())
    }
}

//! Sentences of a text, for the VRT's `<s>` elements: Unicode's sentence boundaries (UAX #29,
//! `unicode-segmentation`), less the boundaries after an abbreviation or an initial.
//!
//! UAX #29 ends a sentence at a full stop followed by a space and a capital letter, so it
//! splits "Dr. Smith" and "J. R. R. Tolkien". A boundary is dropped where the text before it
//! ends in a word and a full stop, and that word (with its full stop) is
//!
//! - a single letter (an initial: `J.`), or letters each followed by a full stop (`e.g.`,
//!   `z.B.`, `U.S.`), or
//! - an abbreviation of the text's language ([`abbreviations`]: English, German, French and
//!   Swedish, the languages of texrex's MLPs, and Dutch, Spanish and Italian), compared without
//!   case.
//!
//! A sentence keeps its trailing white space, so the sentences of a text put together are the
//! text.

use unicode_segmentation::UnicodeSegmentation;

/// The abbreviations of a language (ISO 639-1) that a sentence does not end after, lower-case
/// and without their final full stop; empty for a language without a list.
pub fn abbreviations(iso639_1: &str) -> &'static [&'static str] {
    match iso639_1 {
        "en" => &[
            "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "no", "nos", "vol",
            "vols", "p", "pp", "ch", "fig", "figs", "ed", "eds", "etc", "vs", "approx", "dept",
            "est", "inc", "ltd", "co", "corp", "gov", "gen", "col", "capt", "lt", "sgt", "rev",
            "hon", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
            "dec", "ave", "blvd", "rd", "univ", "assn", "bros", "al", "cf",
        ],
        "de" => &[
            "dr", "prof", "hr", "fr", "hrn", "nr", "bzw", "usw", "ca", "vgl", "ggf", "inkl",
            "evtl", "bspw", "sog", "str", "tel", "abs", "abb", "bd", "jh", "jhd", "mio", "mrd",
            "geb", "gest", "verh", "dipl", "ing", "min", "max", "st", "dt", "engl", "franz", "jan",
            "feb", "apr", "aug", "sept", "okt", "nov", "dez", "etc", "zzgl", "gem", "lt", "zt",
            "inh", "co",
        ],
        "fr" => &[
            "m", "mm", "mme", "mmes", "mlle", "mlles", "dr", "pr", "me", "st", "ste", "no", "nos",
            "vol", "p", "pp", "ch", "fig", "éd", "etc", "cf", "env", "av", "bd", "janv", "févr",
            "avr", "juil", "sept", "oct", "nov", "déc", "art", "apr", "hab", "tél",
        ],
        "sv" => &[
            "dr", "prof", "nr", "st", "bl.a", "t.ex", "m.fl", "m.m", "resp", "osv", "dvs", "mfl",
            "ca", "kap", "jfr", "tel", "jan", "feb", "mar", "apr", "aug", "sept", "okt", "nov",
            "dec", "kl", "tex", "sek", "milj", "mdr", "ang", "avd", "fr",
        ],
        "nl" => &[
            "dhr", "mevr", "mr", "dr", "prof", "ir", "ing", "drs", "nr", "blz", "bijv", "ca",
            "enz", "jl", "jan", "feb", "apr", "aug", "sept", "okt", "nov", "dec", "vs", "zgn",
            "resp", "evt", "st",
        ],
        "es" => &[
            "sr", "sra", "sres", "srta", "dr", "dra", "prof", "lic", "ing", "d", "dña", "núm",
            "pág", "págs", "cap", "etc", "vol", "ej", "aprox", "av", "avda", "ene", "feb", "abr",
            "jun", "jul", "ago", "sept", "oct", "nov", "dic", "ud", "uds", "vd", "vds",
        ],
        "it" => &[
            "sig", "sigg", "sig.ra", "dott", "dr", "prof", "ing", "avv", "arch", "geom", "n", "nr",
            "pag", "pagg", "cap", "ecc", "es", "vol", "gen", "feb", "apr", "giu", "lug", "ago",
            "sett", "ott", "nov", "dic", "ca", "sec",
        ],
        _ => &[],
    }
}

/// The sentences of `text`, a text in the language `iso639_1` (the abbreviations' language;
/// `None`: initials only).
pub fn sentences<'a>(text: &'a str, iso639_1: Option<&str>) -> Vec<&'a str> {
    let abbreviations = iso639_1.map_or(&[][..], abbreviations);
    let mut out: Vec<&'a str> = Vec::new();
    let mut start = 0;
    let mut end = 0;
    for s in text.split_sentence_bounds() {
        end += s.len();
        if end < text.len() && goes_on(&text[start..end], abbreviations) {
            continue;
        }
        out.push(&text[start..end]);
        start = end;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Whether a sentence that UAX #29 ends here goes on: it ends in an initial, letters each
/// followed by a full stop, or one of `abbreviations`, with its full stop.
fn goes_on(sentence: &str, abbreviations: &[&str]) -> bool {
    let s = sentence.trim_end();
    let Some(s) = s.strip_suffix('.') else {
        return false;
    };
    // The word before the full stop: back to white space or an opening bracket or quote.
    let word = s
        .rsplit(|c: char| c.is_whitespace() || "([{\"'«„“‘".contains(c))
        .next()
        .unwrap_or("");
    if word.is_empty() || !word.chars().any(char::is_alphabetic) {
        return false;
    }
    // `J`, `e.g`, `z.B`, `U.S`: single letters between full stops.
    if word.split('.').all(|part| {
        let mut chars = part.chars();
        chars.next().is_some_and(char::is_alphabetic) && chars.next().is_none()
    }) {
        return true;
    }
    let lower = word.to_lowercase();
    abbreviations.contains(&lower.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_boundaries_less_abbreviations_and_initials() {
        let text = "Dr. Smith met J. R. R. Tolkien in Oxford. They talked, e.g. about trees! \
                    Did they? Yes.";
        assert_eq!(
            sentences(text, Some("en")),
            [
                "Dr. Smith met J. R. R. Tolkien in Oxford. ",
                "They talked, e.g. about trees! ",
                "Did they? ",
                "Yes."
            ]
        );
        // Without the language's list, only initials hold a sentence together.
        assert_eq!(sentences("Dr. Smith came.", None), ["Dr. ", "Smith came."]);
        assert_eq!(
            sentences(
                "Das kostet ca. Zehn Euro. Prof. Müller kam z.B. Gestern.",
                Some("de")
            ),
            [
                "Das kostet ca. Zehn Euro. ",
                "Prof. Müller kam z.B. Gestern."
            ]
        );
        assert_eq!(
            sentences("M. Dupont est là. Mme. Roux aussi.", Some("fr")),
            ["M. Dupont est là. ", "Mme. Roux aussi."]
        );
        assert_eq!(
            sentences("Det gäller bl.a. Stockholm. Osv.", Some("sv")),
            ["Det gäller bl.a. Stockholm. ", "Osv."]
        );
    }

    #[test]
    fn the_sentences_are_the_text() {
        for text in [
            "",
            "   ",
            "no full stop",
            "Ends here. ",
            "一句。二句。",
            "Mr. X. Y.",
        ] {
            let s = sentences(text, Some("en"));
            assert_eq!(s.concat(), text, "{text:?}");
            assert!(s.iter().all(|s| !s.is_empty()), "{text:?}: {s:?}");
        }
        // A year before a full stop ends a sentence: numbers are no abbreviations.
        assert_eq!(sentences("It was 1990. Then.", Some("en")).len(), 2);
    }
}

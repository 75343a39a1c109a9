//! Language codes: lid.176's labels mapped to ISO 639-3 (cowrex's `language`) and ISO 639-1
//! (datatrove's `LanguageFilter` writes lid.176's own label), with the scripts each language
//! is written in; and the same for labels of other fastText models (OpenLID/GlotLID style,
//! `deu_Latn`).
//!
//! Choices, where ISO offers more than one code:
//! - A macrolanguage keeps its macrolanguage code (`ara`, `msa`, `swa`, `est`, `lav`, `aze`,
//!   `uzb`, `sqi`, `fas` ...), except where cowrex's outputs have always used an individual
//!   language: `zh` -> `cmn`, `fa` -> `pes`, `no` -> `nob` (lid.176's `no` is
//!   Bokmål in practice; it has `nn` beside it).
//! - Wikipedia-style labels of lid.176 that are not ISO 639-1 are read as the ISO 639-3 codes
//!   of their languages: `als` (Alemannic) -> `gsw`, `bh` (Bihari, in practice Bhojpuri) ->
//!   `bho`, `sh` (Serbo-Croatian) -> `hbs`, `kv` -> `kom`; `eml` and `nah` stay as they are
//!   (a retired code and a collective one: ISO 639-3 has no single code for them).

/// lid.176's labels: (label, ISO 639-3, scripts written in, space-separated ISO 15924).
/// The ISO 639-1 code is the label where it has two letters.
pub const LID176: &[(&str, &str, &str)] = &[
    ("af", "afr", "Latn"),
    ("als", "gsw", "Latn"),
    ("am", "amh", "Ethi"),
    ("an", "arg", "Latn"),
    ("ar", "ara", "Arab"),
    ("arz", "arz", "Arab"),
    ("as", "asm", "Beng"),
    ("ast", "ast", "Latn"),
    ("av", "ava", "Cyrl"),
    ("az", "aze", "Latn Cyrl"),
    ("azb", "azb", "Arab"),
    ("ba", "bak", "Cyrl"),
    ("bar", "bar", "Latn"),
    ("bcl", "bcl", "Latn"),
    ("be", "bel", "Cyrl"),
    ("bg", "bul", "Cyrl"),
    ("bh", "bho", "Deva"),
    ("bn", "ben", "Beng"),
    ("bo", "bod", "Tibt"),
    ("bpy", "bpy", "Beng"),
    ("br", "bre", "Latn"),
    ("bs", "bos", "Latn Cyrl"),
    ("bxr", "bxr", "Cyrl"),
    ("ca", "cat", "Latn"),
    ("cbk", "cbk", "Latn"),
    ("ce", "che", "Cyrl"),
    ("ceb", "ceb", "Latn"),
    ("ckb", "ckb", "Arab"),
    ("co", "cos", "Latn"),
    ("cs", "ces", "Latn"),
    ("cv", "chv", "Cyrl"),
    ("cy", "cym", "Latn"),
    ("da", "dan", "Latn"),
    ("de", "deu", "Latn"),
    ("diq", "diq", "Latn"),
    ("dsb", "dsb", "Latn"),
    ("dty", "dty", "Deva"),
    ("dv", "div", "Thaa"),
    ("el", "ell", "Grek"),
    ("eml", "eml", "Latn"),
    ("en", "eng", "Latn"),
    ("eo", "epo", "Latn"),
    ("es", "spa", "Latn"),
    ("et", "est", "Latn"),
    ("eu", "eus", "Latn"),
    ("fa", "pes", "Arab"),
    ("fi", "fin", "Latn"),
    ("fr", "fra", "Latn"),
    ("frr", "frr", "Latn"),
    ("fy", "fry", "Latn"),
    ("ga", "gle", "Latn"),
    ("gd", "gla", "Latn"),
    ("gl", "glg", "Latn"),
    ("gn", "grn", "Latn"),
    ("gom", "gom", "Deva Latn"),
    ("gu", "guj", "Gujr"),
    ("gv", "glv", "Latn"),
    ("he", "heb", "Hebr"),
    ("hi", "hin", "Deva"),
    ("hif", "hif", "Latn Deva"),
    ("hr", "hrv", "Latn"),
    ("hsb", "hsb", "Latn"),
    ("ht", "hat", "Latn"),
    ("hu", "hun", "Latn"),
    ("hy", "hye", "Armn"),
    ("ia", "ina", "Latn"),
    ("id", "ind", "Latn"),
    ("ie", "ile", "Latn"),
    ("ilo", "ilo", "Latn"),
    ("io", "ido", "Latn"),
    ("is", "isl", "Latn"),
    ("it", "ita", "Latn"),
    ("ja", "jpn", "Jpan Hani"),
    ("jbo", "jbo", "Latn"),
    ("jv", "jav", "Latn"),
    ("ka", "kat", "Geor"),
    ("kk", "kaz", "Cyrl Latn"),
    ("km", "khm", "Khmr"),
    ("kn", "kan", "Knda"),
    ("ko", "kor", "Hang Kore"),
    ("krc", "krc", "Cyrl"),
    ("ku", "kur", "Latn Arab"),
    ("kv", "kom", "Cyrl"),
    ("kw", "cor", "Latn"),
    ("ky", "kir", "Cyrl"),
    ("la", "lat", "Latn"),
    ("lb", "ltz", "Latn"),
    ("lez", "lez", "Cyrl"),
    ("li", "lim", "Latn"),
    ("lmo", "lmo", "Latn"),
    ("lo", "lao", "Laoo"),
    ("lrc", "lrc", "Arab"),
    ("lt", "lit", "Latn"),
    ("lv", "lav", "Latn"),
    ("mai", "mai", "Deva"),
    ("mg", "mlg", "Latn"),
    ("mhr", "mhr", "Cyrl"),
    ("min", "min", "Latn"),
    ("mk", "mkd", "Cyrl"),
    ("ml", "mal", "Mlym"),
    ("mn", "mon", "Cyrl Mong"),
    ("mr", "mar", "Deva"),
    ("mrj", "mrj", "Cyrl"),
    ("ms", "msa", "Latn"),
    ("mt", "mlt", "Latn"),
    ("mwl", "mwl", "Latn"),
    ("my", "mya", "Mymr"),
    ("myv", "myv", "Cyrl"),
    ("mzn", "mzn", "Arab"),
    ("nah", "nah", "Latn"),
    ("nap", "nap", "Latn"),
    ("nds", "nds", "Latn"),
    ("ne", "nep", "Deva"),
    ("new", "new", "Deva"),
    ("nl", "nld", "Latn"),
    ("nn", "nno", "Latn"),
    ("no", "nob", "Latn"),
    ("oc", "oci", "Latn"),
    ("or", "ori", "Orya"),
    ("os", "oss", "Cyrl"),
    ("pa", "pan", "Guru"),
    ("pam", "pam", "Latn"),
    ("pfl", "pfl", "Latn"),
    ("pl", "pol", "Latn"),
    ("pms", "pms", "Latn"),
    ("pnb", "pnb", "Arab"),
    ("ps", "pus", "Arab"),
    ("pt", "por", "Latn"),
    ("qu", "que", "Latn"),
    ("rm", "roh", "Latn"),
    ("ro", "ron", "Latn"),
    ("ru", "rus", "Cyrl"),
    ("rue", "rue", "Cyrl"),
    ("sa", "san", "Deva"),
    ("sah", "sah", "Cyrl"),
    ("sc", "srd", "Latn"),
    ("scn", "scn", "Latn"),
    ("sco", "sco", "Latn"),
    ("sd", "snd", "Arab"),
    ("sh", "hbs", "Latn Cyrl"),
    ("si", "sin", "Sinh"),
    ("sk", "slk", "Latn"),
    ("sl", "slv", "Latn"),
    ("so", "som", "Latn"),
    ("sq", "sqi", "Latn"),
    ("sr", "srp", "Cyrl Latn"),
    ("su", "sun", "Latn"),
    ("sv", "swe", "Latn"),
    ("sw", "swa", "Latn"),
    ("ta", "tam", "Taml"),
    ("te", "tel", "Telu"),
    ("tg", "tgk", "Cyrl"),
    ("th", "tha", "Thai"),
    ("tk", "tuk", "Latn"),
    ("tl", "tgl", "Latn"),
    ("tr", "tur", "Latn"),
    ("tt", "tat", "Cyrl Latn"),
    ("tyv", "tyv", "Cyrl"),
    ("ug", "uig", "Arab"),
    ("uk", "ukr", "Cyrl"),
    ("ur", "urd", "Arab"),
    ("uz", "uzb", "Latn Cyrl"),
    ("vec", "vec", "Latn"),
    ("vep", "vep", "Latn"),
    ("vi", "vie", "Latn"),
    ("vls", "vls", "Latn"),
    ("vo", "vol", "Latn"),
    ("wa", "wln", "Latn"),
    ("war", "war", "Latn"),
    ("wuu", "wuu", "Hani"),
    ("xal", "xal", "Cyrl"),
    ("xmf", "xmf", "Geor"),
    ("yi", "yid", "Hebr"),
    ("yo", "yor", "Latn"),
    ("yue", "yue", "Hani"),
    ("zh", "cmn", "Hani"),
];

/// ISO 639-1 codes and their ISO 639-3 codes (a macrolanguage's code for a macrolanguage),
/// plus the individual languages of macrolanguages that fastText models label (OpenLID's
/// `arb`, `zsm`, `pes` ...), each with the macrolanguage's ISO 639-1 code.
pub(crate) const ISO639_1_TO_3: &[(&str, &str)] = &[
    ("aa", "aar"),
    ("ab", "abk"),
    ("ae", "ave"),
    ("af", "afr"),
    ("ak", "aka"),
    ("am", "amh"),
    ("an", "arg"),
    ("ar", "ara"),
    ("as", "asm"),
    ("av", "ava"),
    ("ay", "aym"),
    ("az", "aze"),
    ("ba", "bak"),
    ("be", "bel"),
    ("bg", "bul"),
    ("bi", "bis"),
    ("bm", "bam"),
    ("bn", "ben"),
    ("bo", "bod"),
    ("br", "bre"),
    ("bs", "bos"),
    ("ca", "cat"),
    ("ce", "che"),
    ("ch", "cha"),
    ("co", "cos"),
    ("cr", "cre"),
    ("cs", "ces"),
    ("cu", "chu"),
    ("cv", "chv"),
    ("cy", "cym"),
    ("da", "dan"),
    ("de", "deu"),
    ("dv", "div"),
    ("dz", "dzo"),
    ("ee", "ewe"),
    ("el", "ell"),
    ("en", "eng"),
    ("eo", "epo"),
    ("es", "spa"),
    ("et", "est"),
    ("eu", "eus"),
    ("fa", "fas"),
    ("ff", "ful"),
    ("fi", "fin"),
    ("fj", "fij"),
    ("fo", "fao"),
    ("fr", "fra"),
    ("fy", "fry"),
    ("ga", "gle"),
    ("gd", "gla"),
    ("gl", "glg"),
    ("gn", "grn"),
    ("gu", "guj"),
    ("gv", "glv"),
    ("ha", "hau"),
    ("he", "heb"),
    ("hi", "hin"),
    ("ho", "hmo"),
    ("hr", "hrv"),
    ("ht", "hat"),
    ("hu", "hun"),
    ("hy", "hye"),
    ("hz", "her"),
    ("ia", "ina"),
    ("id", "ind"),
    ("ie", "ile"),
    ("ig", "ibo"),
    ("ii", "iii"),
    ("ik", "ipk"),
    ("io", "ido"),
    ("is", "isl"),
    ("it", "ita"),
    ("iu", "iku"),
    ("ja", "jpn"),
    ("jv", "jav"),
    ("ka", "kat"),
    ("kg", "kon"),
    ("ki", "kik"),
    ("kj", "kua"),
    ("kk", "kaz"),
    ("kl", "kal"),
    ("km", "khm"),
    ("kn", "kan"),
    ("ko", "kor"),
    ("kr", "kau"),
    ("ks", "kas"),
    ("ku", "kur"),
    ("kv", "kom"),
    ("kw", "cor"),
    ("ky", "kir"),
    ("la", "lat"),
    ("lb", "ltz"),
    ("lg", "lug"),
    ("li", "lim"),
    ("ln", "lin"),
    ("lo", "lao"),
    ("lt", "lit"),
    ("lu", "lub"),
    ("lv", "lav"),
    ("mg", "mlg"),
    ("mh", "mah"),
    ("mi", "mri"),
    ("mk", "mkd"),
    ("ml", "mal"),
    ("mn", "mon"),
    ("mr", "mar"),
    ("ms", "msa"),
    ("mt", "mlt"),
    ("my", "mya"),
    ("na", "nau"),
    ("nb", "nob"),
    ("nd", "nde"),
    ("ne", "nep"),
    ("ng", "ndo"),
    ("nl", "nld"),
    ("nn", "nno"),
    ("no", "nor"),
    ("nr", "nbl"),
    ("nv", "nav"),
    ("ny", "nya"),
    ("oc", "oci"),
    ("oj", "oji"),
    ("om", "orm"),
    ("or", "ori"),
    ("os", "oss"),
    ("pa", "pan"),
    ("pi", "pli"),
    ("pl", "pol"),
    ("ps", "pus"),
    ("pt", "por"),
    ("qu", "que"),
    ("rm", "roh"),
    ("rn", "run"),
    ("ro", "ron"),
    ("ru", "rus"),
    ("rw", "kin"),
    ("sa", "san"),
    ("sc", "srd"),
    ("sd", "snd"),
    ("se", "sme"),
    ("sg", "sag"),
    ("si", "sin"),
    ("sk", "slk"),
    ("sl", "slv"),
    ("sm", "smo"),
    ("sn", "sna"),
    ("so", "som"),
    ("sq", "sqi"),
    ("sr", "srp"),
    ("ss", "ssw"),
    ("st", "sot"),
    ("su", "sun"),
    ("sv", "swe"),
    ("sw", "swa"),
    ("ta", "tam"),
    ("te", "tel"),
    ("tg", "tgk"),
    ("th", "tha"),
    ("ti", "tir"),
    ("tk", "tuk"),
    ("tl", "tgl"),
    ("tn", "tsn"),
    ("to", "ton"),
    ("tr", "tur"),
    ("ts", "tso"),
    ("tt", "tat"),
    ("tw", "twi"),
    ("ty", "tah"),
    ("ug", "uig"),
    ("uk", "ukr"),
    ("ur", "urd"),
    ("uz", "uzb"),
    ("ve", "ven"),
    ("vi", "vie"),
    ("vo", "vol"),
    ("wa", "wln"),
    ("wo", "wol"),
    ("xh", "xho"),
    ("yi", "yid"),
    ("yo", "yor"),
    ("za", "zha"),
    ("zh", "zho"),
    ("zu", "zul"),
    // Individual languages of macrolanguages, and the codes cowrex's outputs use.
    ("ar", "arb"),
    ("az", "azj"),
    ("et", "ekk"),
    ("fa", "pes"),
    ("fa", "prs"),
    ("gn", "gug"),
    ("ku", "kmr"),
    ("lv", "lvs"),
    ("mg", "plt"),
    ("mn", "khk"),
    ("ms", "zsm"),
    ("ne", "npi"),
    ("or", "ory"),
    ("ps", "pbt"),
    ("qu", "quy"),
    ("sq", "als"),
    ("sw", "swh"),
    ("uz", "uzn"),
    ("yi", "ydd"),
    ("zh", "cmn"),
    ("om", "gaz"),
];

/// What a model's label says about a language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LabelInfo<'a> {
    /// The label as the model has it, without `__label__` (`en`, `deu_Latn`).
    pub label: &'a str,
    /// ISO 639-3 (or the label's own language part if it is no code known here).
    pub(crate) iso639_3: &'a str,
    /// ISO 639-1, if the language has one.
    pub iso639_1: Option<&'static str>,
    /// The script the label names (`deu_Latn` -> `Latn`); lid.176's labels name none.
    pub script: Option<&'a str>,
}

/// Whether `code` is an ISO 639-3 code that lid.176 or the ISO 639-1 table here knows.
pub fn known(code: &str) -> bool {
    ISO639_1_TO_3.iter().any(|(_, three)| *three == code)
        || LID176.iter().any(|(_, three, _)| *three == code)
}

/// A language code as a `&'static str`: the tables' own, or a model label's language part
/// kept once per process (a user's model may name languages no table here has).
pub(crate) fn intern(code: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{LazyLock, Mutex};
    static KEPT: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Default::default);
    if let Some(&(_, three)) = ISO639_1_TO_3.iter().find(|(_, three)| *three == code) {
        return three;
    }
    if let Some(&(_, three, _)) = LID176.iter().find(|(_, three, _)| *three == code) {
        return three;
    }
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&k) = kept.get(code) {
        return k;
    }
    let k: &'static str = Box::leak(code.to_owned().into_boxed_str());
    kept.insert(k);
    k
}

/// The ISO 639-1 code of an ISO 639-3 code (individual languages of a macrolanguage get the
/// macrolanguage's), if there is one.
pub(crate) fn iso639_1_of(iso639_3: &str) -> Option<&'static str> {
    ISO639_1_TO_3
        .iter()
        .find(|(_, three)| *three == iso639_3)
        .map(|(one, _)| *one)
}

/// The ISO 639-3 code of an ISO 639-1 code.
pub(crate) fn iso639_3_of(iso639_1: &str) -> Option<&'static str> {
    ISO639_1_TO_3
        .iter()
        .find(|(one, _)| *one == iso639_1)
        .map(|(_, three)| *three)
}

/// lid.176's entry for a label: (ISO 639-3, scripts).
pub fn lid176(label: &str) -> Option<(&'static str, &'static str)> {
    LID176
        .binary_search_by(|(l, _, _)| (*l).cmp(label))
        .ok()
        .map(|i| (LID176[i].1, LID176[i].2))
}

/// Read a label of lid.176 (`en`, `als`) or of an OpenLID/GlotLID-style model (`deu_Latn`,
/// `zho_Hans`), or a bare ISO 639-1/639-3 code.
pub(crate) fn label_info(label: &str) -> LabelInfo<'_> {
    let label = label
        .strip_prefix(super::fasttext::LABEL_PREFIX)
        .unwrap_or(label);
    if let Some((lang, script)) = label.split_once(['_', '-'])
        && script.len() == 4
    {
        let iso639_3 = if lang.len() == 2 {
            iso639_3_of(lang).unwrap_or(lang)
        } else {
            lang
        };
        return LabelInfo {
            label,
            iso639_3,
            iso639_1: iso639_1_of(iso639_3).or_else(|| iso639_1_static(lang)),
            script: Some(script),
        };
    }
    if let Some((iso639_3, _)) = lid176(label) {
        return LabelInfo {
            label,
            iso639_3,
            iso639_1: iso639_1_static(label),
            script: None,
        };
    }
    let iso639_3 = if label.len() == 2 {
        iso639_3_of(label).unwrap_or(label)
    } else {
        label
    };
    LabelInfo {
        label,
        iso639_3,
        iso639_1: iso639_1_of(iso639_3),
        script: None,
    }
}

/// `code` as a `&'static str` if it is an ISO 639-1 code (or lid.176's `sh`).
fn iso639_1_static(code: &str) -> Option<&'static str> {
    if code == "sh" {
        return Some("sh");
    }
    ISO639_1_TO_3
        .iter()
        .find(|(one, _)| *one == code)
        .map(|(one, _)| *one)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lid176_table_is_sorted_and_complete() {
        assert!(LID176.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(LID176.len(), 176);
        assert!(
            LID176
                .iter()
                .all(|(_, three, scripts)| three.len() == 3 && !scripts.is_empty())
        );
    }

    #[test]
    fn lid176_labels() {
        let en = label_info("en");
        assert_eq!(
            (en.iso639_3, en.iso639_1, en.script),
            ("eng", Some("en"), None)
        );
        assert_eq!(label_info("zh").iso639_3, "cmn");
        assert_eq!(label_info("fa").iso639_3, "pes");
        let no = label_info("no");
        assert_eq!((no.iso639_3, no.iso639_1), ("nob", Some("no")));
        let als = label_info("__label__als");
        assert_eq!((als.iso639_3, als.iso639_1), ("gsw", None));
        assert_eq!(label_info("ceb").iso639_1, None);
        assert_eq!(label_info("sh").iso639_3, "hbs");
    }

    #[test]
    fn openlid_labels() {
        let de = label_info("__label__deu_Latn");
        assert_eq!(
            (de.iso639_3, de.iso639_1, de.script),
            ("deu", Some("de"), Some("Latn"))
        );
        let zh = label_info("zho_Hans");
        assert_eq!(
            (zh.iso639_3, zh.iso639_1, zh.script),
            ("zho", Some("zh"), Some("Hans"))
        );
        assert_eq!(label_info("arb_Arab").iso639_1, Some("ar"));
        assert_eq!(label_info("zsm_Latn").iso639_1, Some("ms"));
        // Tosk Albanian in OpenLID, not lid.176's Alemannic.
        assert_eq!(label_info("als_Latn").iso639_1, Some("sq"));
        let x = label_info("xyz_Zzzz");
        assert_eq!((x.iso639_3, x.iso639_1), ("xyz", None));
    }

    #[test]
    fn bare_codes() {
        assert_eq!(label_info("lg").iso639_3, "lug");
        assert_eq!(label_info("zul").iso639_1, Some("zu"));
        assert_eq!(iso639_1_of("cmn"), Some("zh"));
        assert_eq!(iso639_3_of("nb"), Some("nob"));
    }
}

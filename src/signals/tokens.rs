//! Words and sentences as datatrove's quality filters see them: spaCy's blank English tokenizer
//! (`spacy.blank("en")`, which datatrove's `split_into_words` runs for English) and its
//! `sentencizer`, rebuilt from their published rules, not a copy of their tables.
//!
//! A token is a whitespace-separated chunk with its prefixes (opening punctuation, quotes,
//! currency signs, symbols) and suffixes (closing punctuation, quotes, `'s`, a full stop after
//! a lower-case letter, a digit or punctuation, units and currency after a digit) split off
//! one by one, then split at its infixes (`..`, `…`, a hyphen, comma, `/`, `:`, `<`, `>` or
//! `=` between letters, an operator between digits, a full stop between a lower-case and an
//! upper-case letter). URLs and e-mail-like chunks, common abbreviations with a full stop
//! (`Mr.`, `e.g.`, `Jan.`) and emoticons stay whole, and are joined again where splitting cut
//! them (`''`, `and/or`); English contractions split as spaCy's exceptions split them
//! (`don't` → `do` `n't`, `dont` → `do` `nt`, `I'm` → `I` `'m`). What spaCy's exception tables
//! hold beyond this (of some 1,300 entries) is not rebuilt: `scripts/accuracy/signals_agreement.py`
//! (which `python/tests/test_signals.py` runs) measures how far the figures and decisions agree.

/// Units spaCy splits off a number (`5km` → `5` `km`).
const UNITS: &[&str] = &[
    "km", "km²", "km³", "m", "m²", "m³", "dm", "dm²", "dm³", "cm", "cm²", "cm³", "mm", "mm²",
    "mm³", "ha", "µm", "nm", "yd", "in", "ft", "kg", "g", "mg", "µg", "t", "lb", "oz", "m/s",
    "km/h", "kmh", "mph", "hPa", "Pa", "mbar", "mb", "MB", "kb", "KB", "gb", "GB", "tb", "TB", "T",
    "G", "M", "K", "%",
];

/// Abbreviations that keep their full stop (spaCy's English exceptions, the common ones).
const ABBREVIATIONS: &[&str] = &[
    "Mr.", "Mrs.", "Ms.", "Dr.", "St.", "Mt.", "Jr.", "Inc.", "Ltd.", "Co.", "Corp.", "Bros.",
    "Gov.", "Gen.", "Rep.", "Sen.", "Rev.", "Prof.", "Messrs.", "Adm.", "Jan.", "Feb.", "Mar.",
    "Apr.", "Jun.", "Jul.", "Aug.", "Sep.", "Sept.", "Oct.", "Nov.", "Dec.", "e.g.", "E.g.",
    "E.G.", "i.e.", "I.e.", "I.E.", "vs.", "a.m.", "p.m.", "Ph.D.", "U.S.", "D.C.", "N.Y.", "U.K.",
    "co.", "Ala.", "Ariz.", "Ark.", "Calif.", "Colo.", "Conn.", "Del.", "Fla.", "Ga.", "Ill.",
    "Ind.", "Kan.", "Ky.", "La.", "Md.", "Mass.", "Mich.", "Minn.", "Miss.", "Mo.", "Mont.",
    "Neb.", "Nev.", "Okla.", "Ore.", "Pa.", "Tenn.", "Va.", "Wash.", "Wis.", "a.", "b.", "c.",
    "d.", "e.", "f.", "g.", "h.", "i.", "j.", "k.", "l.", "m.", "n.", "o.", "p.", "q.", "r.", "s.",
    "t.", "u.", "v.", "w.", "x.", "y.", "z.", "ä.", "ö.", "ü.",
];

/// Emoticons and other tokens of punctuation that stay one token.
const EMOTICONS: &[&str] = &[
    "''", "’’", "):", ":*", "(:", "(;", ":))", ":((", ":]", "(=", "=/", ";-)", "and/or", "'em",
    "'bout", "'cause", "'cos", "'coz", "'cuz", "'nuff", ":)", ":(", ":-)", ":-(", ";)", ";-)",
    ":D", ":-D", ":P", ":-P", ":p", ":/", ":-/", "<3", ":'(", "=)", "=(", "^_^", "-_-", ":o", ":O",
    "xD", "XD", "8)", ":|", ":-|",
];

/// Whether `c` is a letter (Python's `str.isalpha`: categories L*).
pub(crate) fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
    )
}

/// A letter without case, or a lower-case one (spaCy's `ALPHA_LOWER` has both).
fn is_lower(c: char) -> bool {
    c.is_lowercase() || (is_alpha(c) && !c.is_uppercase())
}

/// An upper-case letter, or one without case (spaCy's `ALPHA_UPPER`).
fn is_upper(c: char) -> bool {
    c.is_uppercase() || (is_alpha(c) && !c.is_lowercase())
}

/// Punctuation characters of spaCy's prefix and suffix lists (`LIST_PUNCT`, `LIST_QUOTES`).
fn is_affix_punct(c: char) -> bool {
    matches!(
        c,
        ',' | ':'
            | ';'
            | '!'
            | '?'
            | '¿'
            | '؟'
            | '¡'
            | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '<'
            | '>'
            | '_'
            | '#'
            | '*'
            | '&'
            | '。'
            | '？'
            | '！'
            | '，'
            | '、'
            | '；'
            | '：'
            | '～'
            | '·'
            | '।'
            | '،'
            | '۔'
            | '؛'
            | '٪'
            | '\''
            | '"'
            | '”'
            | '“'
            | '`'
            | '‘'
            | '´'
            | '’'
            | '‚'
            | '„'
            | '»'
            | '«'
            | '「'
            | '」'
            | '『'
            | '』'
            | '（'
            | '）'
            | '〔'
            | '〕'
            | '【'
            | '】'
            | '《'
            | '》'
            | '〈'
            | '〉'
            | '⟦'
            | '⟧'
    )
}

/// Quotes (spaCy's `CONCAT_QUOTES`).
fn is_quote(c: char) -> bool {
    matches!(
        c,
        '\'' | '"' | '”' | '“' | '`' | '‘' | '´' | '’' | '‚' | ',' | '„' | '»' | '«'
    )
}

/// Currency signs (spaCy's `LIST_CURRENCY`, the single characters).
fn is_currency(c: char) -> bool {
    matches!(
        c,
        '$' | '£' | '€' | '¥' | '฿' | '₽' | '﷼' | '\u{20a0}'..='\u{20bf}'
    )
}

/// Symbols spaCy splits off either side (`LIST_ICONS`: the "other symbol" category, less a
/// few; approximated by the category).
fn is_icon(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    matches!(get_general_category(c), G::OtherSymbol) || c == '°' || c == '¦'
}

/// Length in bytes of the prefix spaCy splits off the front of `s`, 0 for none.
fn prefix_len(s: &str) -> usize {
    let mut it = s.chars();
    let Some(c) = it.next() else { return 0 };
    if c == '.' {
        let dots = s.bytes().take_while(|&b| b == b'.').count();
        return if dots >= 2 { dots } else { 0 };
    }
    if c == '+' {
        return if it.next().is_some_and(|d| d.is_ascii_digit()) {
            0
        } else {
            1
        };
    }
    for cur in ["US$", "C$", "A$"] {
        if s.starts_with(cur) {
            return cur.len();
        }
    }
    if c == '…'
        || matches!(c, '§' | '%' | '=' | '—' | '–')
        || is_affix_punct(c)
        || is_currency(c)
        || is_icon(c)
    {
        return c.len_utf8();
    }
    0
}

/// Length in bytes of the suffix spaCy splits off the end of `s`, 0 for none: the leftmost of
/// the suffixes that end the string, as spaCy's `suffix_search` finds it.
fn suffix_len(s: &str) -> usize {
    let b = s.as_bytes();
    let Some(last) = s.chars().next_back() else {
        return 0;
    };
    let before: &str = &s[..s.len() - last.len_utf8()];
    let prev = before.chars().next_back();
    // The longest candidates first (leftmost match).
    if last == '.' {
        let dots = b.iter().rev().take_while(|&&x| x == b'.').count();
        if dots >= 2 {
            return dots;
        }
        // `°C.`
        let mut r = before.chars().rev();
        if let (Some(u), Some('°')) = (r.next(), r.next())
            && matches!(u, 'F' | 'f' | 'C' | 'c' | 'K' | 'k')
        {
            return 1;
        }
        if let Some(p) = prev {
            if p.is_ascii_digit()
                || is_lower(p) && !is_upper(p)
                || matches!(p, '%' | '²' | '-' | '+' | '|')
                || is_affix_punct(p)
                || p == '…'
            {
                return 1;
            }
            let mut r = before.chars().rev();
            if let (Some(a), Some(z)) = (r.next(), r.next())
                && is_upper(a)
                && is_upper(z)
                && is_alpha(a)
                && is_alpha(z)
            {
                return 1;
            }
        }
        return 0;
    }
    for q in ["'s", "'S", "’s", "’S"] {
        if s.len() > q.len() && s.ends_with(q) {
            return q.len();
        }
    }
    if last == '…' || matches!(last, '—' | '–') || is_affix_punct(last) || is_icon(last) {
        return last.len_utf8();
    }
    // After a digit: `+`, a currency, a unit.
    if last == '+' && prev.is_some_and(|p| p.is_ascii_digit()) {
        return 1;
    }
    if is_currency(last) && prev.is_some_and(|p| p.is_ascii_digit()) {
        return last.len_utf8();
    }
    // A unit right after a digit.
    if !b.iter().any(u8::is_ascii_digit) {
        return 0;
    }
    let tail = s.trim_end_matches(|c: char| !c.is_ascii_digit());
    if tail.is_empty() || tail.len() == s.len() {
        return 0;
    }
    let after = &s[tail.len()..];
    if UNITS.contains(&after) {
        after.len()
    } else {
        0
    }
}

/// Whether `s` stays one token as a URL, a host name or an e-mail address: spaCy's URL
/// pattern (`[scheme://][user@]label.….tld[:port][/…]`, a top-level domain of at least two
/// lower-case letters), less its IP-address branch.
fn is_url(s: &str) -> bool {
    if !s.contains('.') {
        return false;
    }
    let mut rest = s;
    if let Some(i) = rest.find("://") {
        let scheme = &rest[..i];
        if scheme.len() < 2
            || !scheme
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '+' | '-' | '.'))
        {
            return false;
        }
        rest = &rest[i + 3..];
    }
    // The host ends at the first `/`, `?` or `#`; a user part before the last `@` in it.
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let mut host = &rest[..host_end];
    if let Some(at) = host.rfind('@') {
        if at == 0 {
            return false;
        }
        host = &host[at + 1..];
    }
    if let Some((h, port)) = host.rsplit_once(':') {
        if !(2..=5).contains(&port.len()) || !port.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        host = h;
    }
    let Some((labels, tld)) = host.rsplit_once('.') else {
        return false;
    };
    let tld_ok = (2..=63).contains(&tld.chars().count())
        && tld
            .chars()
            .all(|c| c.is_ascii_lowercase() || !c.is_ascii() && is_lower(c));
    let label_ok = |l: &str| {
        let ok = |c: char| c.is_ascii_alphanumeric() || c as u32 >= 0xa1 && c as u32 <= 0xffff;
        !l.is_empty()
            && l.chars().next().is_some_and(ok)
            && l.chars().next_back().is_some_and(ok)
            && l.chars().all(|c| ok(c) || c == '_' || c == '-')
    };
    tld_ok && labels.split('.').all(label_ok)
}

/// The lower-case forms of English contractions written without an apostrophe that spaCy
/// splits (`gonna` → `gon` `na`), as `(stem, suffixes)`.
const BARE_CONTRACTIONS: &[(&str, &[&str])] = &[
    ("can", &["not"]),
    ("gon", &["na"]),
    ("got", &["ta"]),
    ("y", &["all"]),
];

/// Stems of `n't` written `nt` (`dont`, `cant`), and whether `…ntve` splits too.
const NT_STEMS: &[(&str, bool)] = &[
    ("ai", false),
    ("are", false),
    ("ca", true),
    ("could", true),
    ("dare", false),
    ("did", true),
    ("does", true),
    ("do", true),
    ("had", true),
    ("has", false),
    ("have", false),
    ("is", false),
    ("may", true),
    ("might", true),
    ("must", true),
    ("need", true),
    ("ought", true),
    ("sha", true),
    ("should", true),
    ("was", false),
    ("were", false),
    ("wo", true),
    ("would", true),
];

/// Stems of pronouns and question words with the clitics spaCy splits off them (`d`, `ll`,
/// `re`, `s`, `ve`, `m`, `ma`; `dve` is `d` `ve`, `llve` is `ll` `ve`): written with an
/// apostrophe or without (`I'm`, `im`; `thats`), and those split only with one (`we're`, but
/// not `were`).
const CLITIC_STEMS: &[(&str, &[&str], &[&str])] = &[
    ("he", &["d", "dve", "s", "llve"], &["ll"]),
    ("i", &["d", "dve", "m", "ma", "ve", "llve"], &["ll"]),
    ("it", &["d", "dve", "ll", "llve"], &["s"]),
    ("she", &["s", "dve", "llve"], &["d", "ll"]),
    ("that", &["d", "dve", "ll", "llve", "s"], &[]),
    ("there", &["d", "dve", "ll", "llve", "re", "s", "ve"], &[]),
    ("these", &["d", "dve", "ll", "llve", "re", "ve"], &[]),
    ("they", &["d", "dve", "ll", "llve", "re", "ve"], &[]),
    ("this", &["d", "dve", "ll", "llve", "s"], &[]),
    ("those", &["d", "dve", "ll", "llve", "re", "ve"], &[]),
    ("we", &["d", "dve", "llve", "ve"], &["ll", "re"]),
    ("what", &["d", "dve", "ll", "llve", "re", "s", "ve"], &[]),
    ("when", &["d", "dve", "ll", "llve", "re", "s", "ve"], &[]),
    ("where", &["d", "dve", "ll", "llve", "re", "s", "ve"], &[]),
    ("who", &["d", "dve", "ll", "llve", "s", "ve"], &["re"]),
    ("why", &["d", "dve", "ll", "llve", "re", "s", "ve"], &[]),
    ("how", &["d", "dve", "ll", "llve", "re", "s", "ve"], &[]),
    ("you", &["d", "dve", "ll", "llve", "re", "ve"], &[]),
    ("could", &["ve"], &[]),
    ("might", &["ve"], &[]),
    ("must", &["ve"], &[]),
    ("should", &["ve"], &[]),
    ("would", &["ve"], &[]),
    ("not", &["ve"], &[]),
];

/// The token lengths of a contraction spaCy splits (`don't` → [2, 3], `dont` → [2, 2],
/// `I'd've` → [1, 2, 3]), for a word in lower case or capitalised; `None` for other words. The
/// forms: [`NT_STEMS`] with `n't` (or `nt`, and `n't've`), [`CLITIC_STEMS`] with their
/// clitics (`'d`, `'ll`, `'re`, `'s`, `'ve`, `'m`, or without the apostrophe), and
/// [`BARE_CONTRACTIONS`].
fn contraction(s: &str) -> Option<&'static [usize]> {
    // The forms by their bytes packed into a number ([`pack`]).
    type Forms = (rustc_hash::FxHashMap<u128, Vec<usize>>, Ends);
    static FORMS: std::sync::LazyLock<Forms> = std::sync::LazyLock::new(|| {
        let mut forms = rustc_hash::FxHashMap::default();
        // `parts`: the tokens after the stem, without apostrophes.
        let mut add = |stem: &str, parts: &[&str], bare_too: bool| {
            for apostrophe in ["'", "’"] {
                let tokens: Vec<String> = parts
                    .iter()
                    .map(|p| match *p {
                        "nt" => format!("n{apostrophe}t"),
                        "not" | "na" | "ta" | "all" => p.to_string(),
                        _ => format!("{apostrophe}{p}"),
                    })
                    .collect();
                let mut lens = vec![stem.len()];
                lens.extend(tokens.iter().map(String::len));
                forms.insert(format!("{stem}{}", tokens.concat()), lens);
            }
            if bare_too {
                let mut lens = vec![stem.len()];
                lens.extend(parts.iter().map(|p| p.len()));
                forms.insert(format!("{stem}{}", parts.concat()), lens);
            }
        };
        let split = |suffix: &'static str| -> &'static [&'static str] {
            match suffix {
                "dve" => &["d", "ve"],
                "llve" => &["ll", "ve"],
                "d" => &["d"],
                "ll" => &["ll"],
                "re" => &["re"],
                "s" => &["s"],
                "ve" => &["ve"],
                "m" => &["m"],
                "ma" => &["ma"],
                _ => &[],
            }
        };
        for (stem, both, apostrophe_only) in CLITIC_STEMS {
            for suffix in *both {
                add(stem, split(suffix), true);
            }
            for suffix in *apostrophe_only {
                add(stem, split(suffix), false);
            }
        }
        for &(stem, ve) in NT_STEMS {
            add(stem, &["nt"], true);
            if ve {
                add(stem, &["nt", "ve"], true);
            }
        }
        for (stem, suffixes) in BARE_CONTRACTIONS {
            for suffix in *suffixes {
                let mut lens = vec![stem.len()];
                lens.push(suffix.len());
                forms.insert(format!("{stem}{suffix}"), lens);
            }
        }
        let ends = Ends::of(forms.keys().map(String::as_str));
        let packed = forms
            .into_iter()
            .map(|(form, lens)| (pack(form.as_bytes()), lens))
            .collect();
        (packed, ends)
    });
    let b = s.as_bytes();
    if !(2..=16).contains(&b.len())
        || !b[0].is_ascii_alphabetic()
        || !FORMS
            .1
            .may_hold(b[0].to_ascii_lowercase(), b[b.len() - 1], b.len())
    {
        return None;
    }
    // Lower case after the first letter: ASCII letters and apostrophes (’ is E2 80 99).
    if !b[1..]
        .iter()
        .all(|&c| c.is_ascii_lowercase() || c == b'\'' || matches!(c, 0xe2 | 0x80 | 0x99))
    {
        return None;
    }
    // The word with its first letter in lower case.
    let key = pack(b) | u128::from(b[0].to_ascii_lowercase() ^ b[0]);
    FORMS.0.get(&key).map(Vec::as_slice)
}

/// The bytes of a string of at most 16 bytes as one number, the first in the lowest byte
/// (strings of different lengths differ: none of their bytes is 0).
fn pack(b: &[u8]) -> u128 {
    let mut buf = [0u8; 16];
    buf[..b.len()].copy_from_slice(b);
    u128::from_le_bytes(buf)
}

/// Which (first byte, last byte, length) triples some of `words` have, as bits of a table of
/// 2¹⁶ that two triples may share: a quick test that rules out most strings before a hash
/// lookup.
struct Ends(Vec<u64>);

impl Ends {
    fn of<'a>(words: impl IntoIterator<Item = &'a str>) -> Ends {
        let mut bits = vec![0u64; 1024];
        for w in words {
            let b = w.as_bytes();
            let i = Ends::index(b[0], b[b.len() - 1], b.len());
            bits[i / 64] |= 1 << (i % 64);
        }
        Ends(bits)
    }

    fn index(first: u8, last: u8, len: usize) -> usize {
        (usize::from(first) << 8 | usize::from(last)) ^ ((len & 0x1f) << 11)
    }

    /// Whether a word with the first byte `first`, the last `last` and `len` bytes may be one
    /// of them.
    fn may_hold(&self, first: u8, last: u8, len: usize) -> bool {
        let i = Ends::index(first, last, len);
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
}

/// Whether `s` is one of the exceptions that stay whole.
fn is_special(s: &str) -> bool {
    static SPECIAL: std::sync::LazyLock<(rustc_hash::FxHashSet<&'static str>, Ends)> =
        std::sync::LazyLock::new(|| {
            let all = || ABBREVIATIONS.iter().chain(EMOTICONS).copied();
            (all().collect(), Ends::of(all()))
        });
    let b = s.as_bytes();
    // Every exception is at most 8 bytes long.
    !b.is_empty()
        && b.len() <= 8
        && SPECIAL.1.may_hold(b[0], b[b.len() - 1], b.len())
        && SPECIAL.0.contains(s)
}

/// Push `s` split at its infixes.
fn push_infixed<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    if s.is_ascii() && s.bytes().all(|b| b.is_ascii_alphanumeric()) {
        out.push(s);
        return;
    }
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let (pos, c) = chars[i];
        let prev = if i > 0 { Some(chars[i - 1].1) } else { None };
        let next = chars.get(i + 1).map(|&(_, c)| c);
        // The length in characters of an infix starting here.
        let len = if c == '.' && next == Some('.') {
            chars[i..].iter().take_while(|&&(_, c)| c == '.').count()
        } else if c == '…' || is_icon(c) {
            1
        } else if let (Some(p), Some(n)) = (prev, next) {
            let alpha_both = is_alpha(p) && is_alpha(n);
            // An operator between digits, a full stop between a lower-case letter and an
            // upper-case one (or quotes), a comma between letters.
            if p.is_ascii_digit()
                && matches!(c, '+' | '-' | '*' | '^')
                && (n.is_ascii_digit() || n == '-')
                || c == '.'
                    && (is_lower(p) && is_alpha(p) || is_quote(p))
                    && (is_upper(n) && is_alpha(n) || is_quote(n))
                || alpha_both && c == ','
            {
                1
            } else if (is_alpha(p) || p.is_ascii_digit()) && matches!(c, '-' | '–' | '—' | '~')
            {
                // A hyphen (or a run of them) between letters.
                let run = chars[i..]
                    .iter()
                    .take_while(|&&(_, c)| matches!(c, '-' | '–' | '—' | '~'))
                    .count();
                match chars.get(i + run) {
                    Some(&(_, n)) if is_alpha(n) && run <= 3 => run,
                    _ => 0,
                }
            } else if (is_alpha(p) || p.is_ascii_digit())
                && matches!(c, ':' | '<' | '>' | '=' | '/')
                && is_alpha(n)
            {
                1
            } else {
                0
            }
        } else {
            0
        };
        if len == 0 {
            i += 1;
            continue;
        }
        if pos > start {
            out.push(&s[start..pos]);
        }
        let end = chars.get(i + len).map_or(s.len(), |&(p, _)| p);
        out.push(&s[pos..end]);
        start = end;
        i += len;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
}

/// Where an hour of 1–12 ends in `6pm`, `11a.m.` (spaCy's exceptions split them).
fn clock_time(s: &str) -> Option<usize> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let hour: u32 = s[..digits].parse().ok()?;
    let rest = &s[digits..];
    ((1..=12).contains(&hour)
        && !s.starts_with('0')
        && matches!(rest, "am" | "pm" | "a.m." | "p.m."))
    .then_some(digits)
}

/// Push what is left of a chunk after its prefixes and suffixes: an exception's tokens, a URL,
/// or the string split at its infixes.
fn push_attached<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    if is_special(s) || is_url(s) {
        out.push(s);
    } else if let Some(at) = clock_time(s) {
        out.push(&s[..at]);
        out.push(&s[at..]);
    } else if let Some(lens) = contraction(s) {
        let mut at = 0;
        for &len in lens {
            out.push(&s[at..at + len]);
            at += len;
        }
    } else {
        push_infixed(s, out);
    }
}

/// Push the tokens of one whitespace-separated chunk.
fn push_chunk<'a>(chunk: &'a str, out: &mut Vec<&'a str>) {
    // Letters only, not ASCII (so not a contraction): no prefix, suffix, infix or exception
    // is made of letters, so the chunk is one token ([`split_chunk`] is the general way).
    if !chunk.is_ascii() && chunk.chars().all(is_alpha) {
        out.push(chunk);
        return;
    }
    if let Some(at) = letters_and_mark(chunk) {
        out.push(&chunk[..at]);
        out.push(&chunk[at..]);
        return;
    }
    split_chunk(chunk, out);
}

/// Where [`split_chunk`] splits a chunk of ASCII letters and one mark it takes off as a suffix
/// (`word,` `word.` `Word)`): before the mark. `None` for another chunk, or one the rules
/// treat otherwise (an exception, a contraction, a full stop they leave on).
///
/// Such a chunk has no prefix; its one suffix is the mark when the mark is one of the
/// punctuation marks spaCy splits off (not `$`, a suffix only after a digit), or a full stop
/// after a lower-case letter or two upper-case ones; the letters then have no affix, are no
/// URL or time, and with the mark spell no exception.
fn letters_and_mark(chunk: &str) -> Option<usize> {
    let b = chunk.as_bytes();
    let (&mark, letters) = b.split_last()?;
    let &last = letters.last()?;
    if !letters.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    let splits = if mark == b'.' {
        // `last` is a letter: if not lower-case, upper-case.
        last.is_ascii_lowercase()
            || letters.len() >= 2 && letters[letters.len() - 2].is_ascii_uppercase()
    } else {
        // After ASCII letters, a `str`'s last byte is an ASCII character.
        is_affix_punct(char::from(mark))
    };
    let letters = &chunk[..letters.len()];
    (splits && !is_special(chunk) && contraction(letters).is_none()).then_some(letters.len())
}

/// [`push_chunk`] by spaCy's rules, whatever the chunk.
fn split_chunk<'a>(chunk: &'a str, out: &mut Vec<&'a str>) {
    let first = out.len();
    let mut s = chunk;
    let mut suffixes: Vec<&'a str> = Vec::new();
    loop {
        if s.is_empty() || is_special(s) {
            break;
        }
        let pre = prefix_len(s);
        let rest = &s[pre..];
        let suf = suffix_len(rest);
        if pre == 0 && suf == 0 {
            break;
        }
        if pre > 0 && !rest.is_empty() && is_special(rest) {
            out.push(&s[..pre]);
            s = rest;
            break;
        }
        if suf > 0 {
            let minus = &s[..s.len() - suf];
            if !minus.is_empty() && is_special(minus) {
                suffixes.push(&s[s.len() - suf..]);
                s = minus;
                break;
            }
        }
        if pre > 0 && suf > 0 && pre + suf <= s.len() {
            out.push(&s[..pre]);
            suffixes.push(&s[s.len() - suf..]);
            s = &s[pre..s.len() - suf];
        } else if pre > 0 {
            out.push(&s[..pre]);
            s = rest;
        } else {
            suffixes.push(&s[s.len() - suf..]);
            s = &s[..s.len() - suf];
        }
    }
    if !s.is_empty() {
        push_attached(s, out);
    }
    out.extend(suffixes.iter().rev());
    if out.len() - first > 1 {
        merge_specials(chunk, first, out);
    }
}

/// Join the tokens of `chunk` (`out[first..]`) that together spell an exception (`''`,
/// `and/or`, `:)`), as spaCy's matcher of exceptions with affixes does after splitting: the
/// longest run from each token on.
fn merge_specials<'a>(chunk: &'a str, first: usize, out: &mut Vec<&'a str>) {
    let base = chunk.as_ptr() as usize;
    let start = |t: &str| t.as_ptr() as usize - base;
    let mut merged: Vec<&'a str> = Vec::with_capacity(out.len() - first);
    let mut i = first;
    while i < out.len() {
        let from = start(out[i]);
        let run = (i + 2..=(i + 4).min(out.len())).rev().find(|&j| {
            let last = out[j - 1];
            is_special(&chunk[from..start(last) + last.len()])
        });
        match run {
            Some(j) => {
                let last = out[j - 1];
                merged.push(&chunk[from..start(last) + last.len()]);
                i = j;
            }
            None => {
                merged.push(out[i]);
                i += 1;
            }
        }
    }
    out.truncate(first);
    out.extend(merged);
}

/// The words of `text` as datatrove's `split_into_words` gives them for English: spaCy's
/// tokens, whitespace left out.
pub fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::with_capacity(text.len() / 5);
    push_words(text, &mut out);
    out
}

/// Append the [`words`] of `text` to `out`.
pub(crate) fn push_words<'a>(text: &'a str, out: &mut Vec<&'a str>) {
    for chunk in chunks(text) {
        let b = chunk.as_bytes();
        let digits = b.iter().all(u8::is_ascii_digit);
        let letters = b.iter().all(u8::is_ascii_alphabetic);
        push_chunk_words_known(chunk, digits, letters, out);
    }
}

/// The whitespace-separated chunks of `text`, as `str::split_whitespace` gives them (Unicode's
/// `White_Space`), ASCII read by the byte.
pub fn chunks(text: &str) -> impl Iterator<Item = &str> {
    /// ASCII whitespace and the first bytes of other characters.
    const STOP: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            t[b] = matches!(b, 0x09..=0x0d | 0x20 | 0x80..);
            b += 1;
        }
        t
    };
    // The length of the whitespace character at `i`, 0 for another.
    let space = move |i: usize| -> usize {
        let c = text.as_bytes()[i];
        if c < 0x80 {
            usize::from(STOP[usize::from(c)])
        } else {
            let ch = text[i..].chars().next().expect("a char boundary");
            if ch.is_whitespace() { ch.len_utf8() } else { 0 }
        }
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            match space(i) {
                0 => break,
                n => i += n,
            }
        }
        if i == bytes.len() {
            return None;
        }
        let start = i;
        loop {
            match bytes[i..].iter().position(|&b| STOP[usize::from(b)]) {
                None => {
                    i = bytes.len();
                    break;
                }
                Some(j) => i += j,
            }
            if space(i) > 0 {
                break;
            }
            // A character of more than one byte that is not whitespace.
            i += text[i..]
                .chars()
                .next()
                .expect("a char boundary")
                .len_utf8();
        }
        Some(&text[start..i])
    })
}

/// Append the [`words`] of one of the [`chunks`], known to be of ASCII `digits` only, or of
/// ASCII `letters` only (or neither).
pub(crate) fn push_chunk_words_known<'a>(
    chunk: &'a str,
    digits: bool,
    letters: bool,
    out: &mut Vec<&'a str>,
) {
    if digits || letters && contraction(chunk).is_none() {
        out.push(chunk);
    } else {
        push_chunk(chunk, out);
    }
}

/// Sentence-ending characters of spaCy's `sentencizer` and datatrove's `TERMINAL_PUNCTUATION`
/// (Unicode's `Sentence_Terminal`, the characters of the scripts a web corpus meets).
pub fn is_terminal(c: char) -> bool {
    matches!(
        c,
        '!' | '.'
            | '?'
            | '։'
            | '؟'
            | '۔'
            | '܀'
            | '܁'
            | '܂'
            | '߹'
            | '।'
            | '॥'
            | '၊'
            | '။'
            | '።'
            | '፧'
            | '፨'
            | '᙮'
            | '᜵'
            | '᜶'
            | '᠃'
            | '᠉'
            | '᥄'
            | '᥅'
            | '‼'
            | '‽'
            | '⁇'
            | '⁈'
            | '⁉'
            | '⸮'
            | '⸼'
            | '꓿'
            | '꘎'
            | '꘏'
            | '꛳'
            | '꛷'
            | '﹒'
            | '﹖'
            | '﹗'
            | '！'
            | '．'
            | '？'
            | '｡'
            | '。'
    )
}

/// Whether `c` is punctuation (Unicode's categories P*).
pub(crate) fn is_punctuation(c: char) -> bool {
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    matches!(
        get_general_category(c),
        G::ConnectorPunctuation
            | G::DashPunctuation
            | G::OpenPunctuation
            | G::ClosePunctuation
            | G::InitialPunctuation
            | G::FinalPunctuation
            | G::OtherPunctuation
    )
}

/// Whether every character of `s` is punctuation (spaCy's `is_punct`).
fn is_punct_token(s: &str) -> bool {
    s.chars().all(is_punctuation)
}

/// Sentences of `tokens` as spaCy's `sentencizer` splits them: a sentence starts at the first
/// token that is not punctuation after a token that is a sentence-ending character.
pub fn sentences(tokens: &[&str]) -> usize {
    if tokens.is_empty() {
        return 0;
    }
    let mut n = 1;
    let mut seen_end = false;
    for t in tokens {
        let mut cs = t.chars();
        let ending = matches!((cs.next(), cs.next()), (Some(c), None) if is_terminal(c));
        if seen_end && !ending && !is_punct_token(t) {
            n += 1;
            seen_end = false;
        } else if ending {
            seen_end = true;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_as_spacy_splits_them() {
        assert_eq!(
            words("Hello, world! (This is \"it\".) Don't stop... well-known U.S. 5km $10"),
            [
                "Hello", ",", "world", "!", "(", "This", "is", "\"", "it", "\"", ".", ")", "Do",
                "n't", "stop", "...", "well", "-", "known", "U.S.", "5", "km", "$", "10"
            ]
        );
        assert_eq!(
            words("see https://example.org/a?b=c, Mr. Smith's end.Next"),
            [
                "see",
                "https://example.org/a?b=c",
                ",",
                "Mr.",
                "Smith",
                "'s",
                "end",
                ".",
                "Next"
            ]
        );
        assert_eq!(words("  \n "), Vec::<&str>::new());
    }

    /// A chunk of letters is one token, as the rules split it: the shortcut of
    /// [`push_chunk`] changes nothing (contractions are ASCII and take the rules' way).
    #[test]
    fn a_chunk_of_letters_is_split_as_the_rules_split_it() {
        for chunk in [
            "Straße",
            "München",
            "été",
            "ÉTÉ",
            "Ελλάδα",
            "москва",
            "日本語",
            "ﬁne",
            "çà",
            "xD",
            "dont",
            "Cannot",
            "gonna",
            "naïve",
            "l’été",
            "don’t",
            "Köln.",
            "«été»",
            "été-là",
            "ä.",
            "km²",
            "5€",
            "Æ",
            "ǅemal",
        ] {
            let (mut fast, mut rules) = (Vec::new(), Vec::new());
            push_chunk(chunk, &mut fast);
            split_chunk(chunk, &mut rules);
            assert_eq!(fast, rules, "{chunk}");
        }
        assert_eq!(words("Straße été"), ["Straße", "été"]);
    }

    /// A chunk of ASCII letters and one mark is split as the rules split it
    /// ([`letters_and_mark`]), whatever the mark: exceptions, contractions, full stops after
    /// either case, and pseudo-random letters.
    #[test]
    fn letters_and_a_mark_split_as_the_rules_split_them() {
        let mut stems: Vec<String> = [
            "a", "A", "I", "e", "Mr", "mr", "MR", "Ab", "aB", "AB", "US", "C", "xD", "XD", "dont",
            "Dont", "cannot", "gonna", "im", "Im", "the", "Hello", "em", "and", "co", "vs", "eg",
            "pm", "Sept", "Calif", "Ph", "hPa", "km", "s", "S", "Ma", "youre",
        ]
        .map(String::from)
        .into();
        let mut x: u32 = 2463534242;
        for _ in 0..400 {
            let mut stem = String::new();
            loop {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                stem.push(char::from(b"aAeEiImMsStTdDxXnNoOlLcC"[(x % 24) as usize]));
                if stem.len() == 6 || x.is_multiple_of(5) {
                    break;
                }
            }
            stems.push(stem);
        }
        let mut split = 0;
        for stem in &stems {
            for mark in (0x21u8..0x7f).filter(|b| !b.is_ascii_alphanumeric()) {
                let chunk = format!("{stem}{}", char::from(mark));
                let (mut fast, mut rules) = (Vec::new(), Vec::new());
                push_chunk(&chunk, &mut fast);
                split_chunk(&chunk, &mut rules);
                assert_eq!(fast, rules, "{chunk}");
                split += usize::from(letters_and_mark(&chunk).is_some());
            }
        }
        // The shortcut is taken for most of them.
        assert!(split > stems.len() * 15, "{split}");
    }

    #[test]
    fn sentences_follow_the_sentencizer() {
        assert_eq!(sentences(&words("One. Two! Three? \"Four.\" Five")), 5);
        assert_eq!(sentences(&words("Mr. Smith went to e.g. Paris.")), 1);
        assert_eq!(sentences(&[]), 0);
    }
}

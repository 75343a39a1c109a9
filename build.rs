//! Hands the built-in models to the crate in a binary layout that loads without parsing text
//! (`src/classify/binary.rs`), so that `cowrex extract` starts in milliseconds. The models stay
//! committed in their text formats (`models/`); the layouts are made here from them by the
//! crate's own parsers, shared by path.

use std::io::Read;
use std::path::Path;

#[allow(dead_code)]
#[path = "src/classify/binary.rs"]
mod binary;
#[allow(dead_code)]
#[path = "src/lid/fasttext.rs"]
mod fasttext;
#[allow(dead_code)]
#[path = "src/classify/gbt.rs"]
mod gbt;
#[allow(dead_code)]
#[path = "src/classify/ngram/model.rs"]
mod ngram;

/// `gbt` and `ngram` report errors as `super::ModelError`.
#[derive(Debug)]
pub struct ModelError(pub String);

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn gunzipped(path: &str) -> String {
    println!("cargo::rerun-if-changed={path}");
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect(path))
        .read_to_string(&mut text)
        .expect(path);
    text
}

/// The `(first, last)` ranges of a character class as the regex crate reads it.
fn class_ranges(pattern: &str) -> Vec<(u32, u32)> {
    let hir = regex_syntax::Parser::new().parse(pattern).expect(pattern);
    let regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(class)) = hir.kind()
    else {
        panic!("{pattern} is not a class");
    };
    class
        .ranges()
        .iter()
        .map(|r| (r.start() as u32, r.end() as u32))
        .collect()
}

/// The characters of scripts written without spaces between words (`src/words.rs`), in one
/// sorted table of `(first, last, kind)`: the ideographs and Hiragana that are a word each
/// (kind 1), the Katakana whose runs are one word (2), and the letters of Thai, Lao, Khmer
/// and Myanmar (3); and the marks that belong to the character before them.
fn word_units(out: &Path) {
    const IDEOGRAPH: &str =
        r"[[[\p{scx=Han}\p{scx=Hiragana}]&&[\p{Alphabetic}&&\P{M}]]--\p{scx=Katakana}]";
    const KANA: &str = r"[\p{scx=Katakana}&&\p{Alphabetic}&&\P{M}]";
    const LETTER: &str =
        r"[[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]&&[\p{Alphabetic}&&\P{M}]]";
    const MARKS: &str = r"[\p{M}\u{200C}\u{200D}]";
    let mut units: Vec<(u32, u32, u8)> = [IDEOGRAPH, KANA, LETTER]
        .iter()
        .zip(1..)
        .flat_map(|(class, kind)| {
            class_ranges(class)
                .into_iter()
                .map(move |(lo, hi)| (lo, hi, kind))
        })
        .collect();
    units.sort_unstable();
    let rs = format!(
        "/// `{IDEOGRAPH}` (1), `{KANA}` (2), `{LETTER}` (3)\n\
         pub const UNITS: &[(u32, u32, u8)] = &{units:?};\n\
         /// `{MARKS}`\npub const MARKS: &[(u32, u32)] = &{:?};\n",
        class_ranges(MARKS)
    );
    std::fs::write(out.join("words.rs"), rs).unwrap();
}

/// The character classes of texrex's second-pass patterns (`src/features/cleanse.rs`), as the
/// regex crate reads them, case folding included: a Rust file of `(first, last)` ranges and
/// an ASCII bitmap per class.
fn character_classes(out: &Path) {
    let classes = [
        ("EMAIL", r"(?i)[\p{L}0-9._-]"),
        ("LETTER", r"(?i)\p{L}"),
        ("LETTER_OR_NUMBER", r"(?i)[\p{L}\p{N}]"),
        ("URI", r"(?i)[\p{L}\p{N}_/%$&,=?~#.+:;-]"),
        ("URI_END", r"(?i)[\p{L}\p{N}_/%$=?~#-]"),
    ];
    let mut rs = String::new();
    for (name, pattern) in classes {
        let ranges = class_ranges(pattern);
        let ascii = (0u32..128)
            .filter(|c| ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(c)))
            .fold(0u128, |bits, c| bits | 1 << c);
        rs.push_str(&format!(
            "/// `{pattern}`\npub const {name}: Class = Class {{ ascii: {ascii:#x}, ranges: &{ranges:?} }};\n"
        ));
    }
    std::fs::write(out.join("classes.rs"), rs).unwrap();
}

/// The crate's sources that this script compiles in (the `#[path]`s above): it runs again when
/// one of them changes. Each must exist, or cargo takes it as changed at every build and rebuilds
/// the whole crate (`tests/project.rs` checks the list against the `#[path]`s).
const SOURCES: [&str; 4] = [
    "src/classify/binary.rs",
    "src/classify/gbt.rs",
    "src/classify/ngram/model.rs",
    "src/lid/fasttext.rs",
];

fn main() {
    for path in SOURCES {
        assert!(
            Path::new(path).is_file(),
            "build.rs names {path}, which is not a file"
        );
        println!("cargo::rerun-if-changed={path}");
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let out = Path::new(&out);
    character_classes(out);
    word_units(out);
    // The combined and comment models: each its first stage, then its main model.
    for model in ["combined", "comment"] {
        let path = format!("models/{model}.gbt.gz");
        let text = gunzipped(&path);
        let at = text.find("\ncowrex-gbt ").expect("two models") + 1;
        for (name, part) in [("first", &text[..at]), ("second", &text[at..])] {
            let stage = gbt::Gbt::parse(part).expect(&path);
            std::fs::write(out.join(format!("{model}-{name}.bin")), stage.to_bytes()).unwrap();
        }
    }
    // lid.176's input rows decoded (3.2 MB), so that a run does not decode them at its start.
    let path = "models/lid.176.ftz";
    println!("cargo::rerun-if-changed={path}");
    let lid = fasttext::Model::from_bytes(&std::fs::read(path).unwrap()).expect(path);
    std::fs::write(out.join("lid176-rows.bin"), lid.input_layout()).unwrap();
    for name in ["standard", "nonlexical"] {
        let path = format!("models/ncleaner-en-{name}.ngram.gz");
        let model = ngram::NgramModel::parse(&gunzipped(&path)).expect(&path);
        std::fs::write(out.join(format!("ngram-{name}.bin")), model.to_bytes()).unwrap();
    }
}

//! Checks of the project itself, not of what it does.

use std::collections::BTreeSet;

use crate::common;

/// The string literals of `build.rs` between `open` and the next `"`.
fn literals<'a>(text: &'a str, open: &str) -> BTreeSet<&'a str> {
    text.split(open)
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect()
}

/// `build.rs` is run again only when a source it compiles in changes: its `SOURCES` are exactly
/// the files of its `#[path]`s, and each exists. A missing one makes cargo rerun the script, and
/// rebuild the whole crate, at every build.
#[test]
fn build_script_watches_the_files_it_compiles_in() {
    let build = std::fs::read_to_string(common::root().join("build.rs")).unwrap();
    let paths = literals(&build, "#[path = \"");
    let sources = &build[build.find("const SOURCES").unwrap()..];
    let sources = literals(&sources[..sources.find("];").unwrap()], "    \"");
    assert!(!paths.is_empty());
    assert_eq!(paths, sources, "build.rs: #[path]s and SOURCES differ");
    for path in &paths {
        assert!(
            common::root().join(path).is_file(),
            "build.rs names {path}, which is not a file"
        );
    }
}

/// The code's licence (MIT OR Apache-2.0) is in every package's metadata, and its texts are
/// in the repository.
#[test]
fn every_package_says_its_licence() {
    for file in ["LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(common::root().join(file).is_file(), "{file} is missing");
    }
    for manifest in [
        "Cargo.toml",
        "cli/Cargo.toml",
        "python/Cargo.toml",
        "fuzz/Cargo.toml",
        "python/pyproject.toml",
    ] {
        let text = std::fs::read_to_string(common::root().join(manifest)).unwrap();
        assert!(
            text.lines()
                .any(|l| l == r#"license = "MIT OR Apache-2.0""#),
            "{manifest} does not say `license = \"MIT OR Apache-2.0\"`"
        );
    }
}

//! The documentation against the code, so that they cannot drift apart:
//!
//! - `docs/cli.md` is every command's `--help` as the binary prints it. After changing a
//!   command, regenerate it with `COWREX_BLESS=1 cargo test --release --test integration docs::`.
//! - `docs/formats.md` names every record fate and every exit code.
//! - Every relative link in `README.md`, `python/README.md` and `docs/*.md` points to a file
//!   that exists, and to a heading of it where the link names one.
//! - The type stub of the Python package (`python/pysrc/cowrex/_cowrex.pyi`) has the
//!   registry's decisions (`Scorer`) and model files (the options of `Options`); the same
//!   command regenerates those parts.
//! - The library depends on none of the command line's crates, and on `ureq` only with its
//!   `http` feature, as `docs/architecture.md` says.
//!
//! Nothing here needs more than the repository and the binary cargo builds for it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use cowrex::error::{EXIT_INPUT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT_FAILED, EXIT_USAGE};
use cowrex::fate::Fate;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// What `cowrex ARGS` prints on standard output; it must succeed.
fn cowrex(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cowrex"))
        .args(args)
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cowrex {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The commands a help text lists under `Commands:`, without `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim_end() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A description wrapped onto a line of its own is indented further.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// Every command, as the words after `cowrex`, in the order `cowrex help` lists them, each
/// group followed by its subcommands (found by asking `cowrex help GROUP`).
fn commands() -> Vec<Vec<String>> {
    fn walk(path: Vec<String>, all: &mut Vec<Vec<String>>) {
        let mut args = vec!["help"];
        args.extend(path.iter().map(String::as_str));
        let listing = cowrex(&args);
        all.push(path.clone());
        for c in subcommands(&listing) {
            let mut sub = path.clone();
            sub.push(c);
            walk(sub, all);
        }
    }
    let mut all = Vec::new();
    walk(Vec::new(), &mut all);
    all
}

/// `docs/cli.md` as the current binary's help texts make it.
fn cli_md() -> String {
    let mut md = String::from(
        "# Command-line reference\n\
         \n\
         <!-- Generated from the binary by tests/docs.rs; do not edit. After changing a command, run\n\
         \x20    COWREX_BLESS=1 cargo test --release --test integration docs:: -->\n\
         \n\
         Every command's `--help`, as `cowrex` prints it. What the options do beyond this is on the\n\
         page of their topic: [formats](formats.md) (outputs, statistics, fates, exit codes),\n\
         [batch runs](batch.md), [deduplication](dedup.md), [models](models.md) (`train`),\n\
         [accuracy](accuracy.md) (`eval`), [inspect and report](inspect.md).\n",
    );
    for path in commands() {
        let name = std::iter::once("cowrex")
            .chain(path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = cowrex(&args);
        assert!(!help.contains("```"), "{name}: a fence in the help text");
        md.push_str(&format!(
            "\n## `{name}`\n\n```text\n{}\n```\n",
            help.trim_end_matches('\n')
        ));
    }
    md
}

#[test]
fn cli_md_is_the_help_of_every_command() {
    let path = root().join("docs/cli.md");
    let want = cli_md();
    if std::env::var_os("COWREX_BLESS").is_some() {
        fs::write(&path, &want).unwrap();
        return;
    }
    let have = fs::read_to_string(&path).unwrap_or_default();
    if have != want {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.lines().count().min(want.lines().count()));
        panic!(
            "docs/cli.md is not the binary's help (first difference at line {}: {:?} should be \
             {:?}); regenerate it with `COWREX_BLESS=1 cargo test --release --test integration docs::`",
            line + 1,
            have.lines().nth(line).unwrap_or(""),
            want.lines().nth(line).unwrap_or(""),
        );
    }
}

/// `text` with the lines between the line `start` and the line `end` (leading white space
/// aside) replaced by `lines`.
fn generated(text: &str, start: &str, end: &str, lines: &[String]) -> String {
    let mut out = String::new();
    let (mut inside, mut found) = (false, false);
    for line in text.lines() {
        if inside && line.trim_start() == end {
            inside = false;
            for l in lines {
                out.push_str(l);
                out.push('\n');
            }
        }
        if !inside {
            out.push_str(line);
            out.push('\n');
        }
        if line.trim_start() == start {
            assert!(!inside, "{start:?} twice");
            inside = true;
            found = true;
        }
    }
    assert!(found && !inside, "a line {start:?}, then a line {end:?}");
    out
}

/// The type stub with the registry's decisions and model files.
fn stub(have: &str) -> String {
    use cowrex::classify::registry;
    let scorers: Vec<String> = registry::decisions()
        .map(|d| format!("    {:?},", d.name))
        .collect();
    let files: Vec<String> = registry::model_files()
        .flat_map(|f| {
            [
                format!("    {}: Union[str, os.PathLike[str]]", f.option),
                format!("    \"\"\"{}.\"\"\"", f.help),
            ]
        })
        .collect();
    let text = generated(have, "Scorer = Literal[", "]", &scorers);
    generated(
        &text,
        "# the detectors' model files.",
        "# End of the detectors' model files.",
        &files,
    )
}

#[test]
fn the_type_stub_has_the_registrys_decisions_and_model_files() {
    let path = root().join("python/pysrc/cowrex/_cowrex.pyi");
    let have = fs::read_to_string(&path).unwrap();
    let want = stub(&have);
    if std::env::var_os("COWREX_BLESS").is_some() {
        fs::write(&path, &want).unwrap();
        return;
    }
    assert!(
        have == want,
        "{} lacks the registry's decisions or model files; regenerate it with \
         `COWREX_BLESS=1 cargo test --release --test integration docs::`",
        path.display()
    );
}

#[test]
fn every_command_is_found() {
    let all = commands();
    for c in ["process", "extract", "dedup", "filter", "stats", "train"] {
        assert!(
            all.contains(&vec![c.to_string()]),
            "{c} missing from {all:?}"
        );
    }
    assert!(all.contains(&vec!["train".to_string(), "combined".to_string()]));
    assert!(all.contains(&vec!["stats".to_string(), "merge".to_string()]));
}

/// The rows of the Markdown table that follows `heading` in `md`, as their cells.
fn table_after(md: &str, heading: &str) -> Vec<Vec<String>> {
    let start = md
        .lines()
        .position(|l| l.trim() == heading)
        .unwrap_or_else(|| panic!("no heading {heading:?}"));
    md.lines()
        .skip(start + 1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // the header and its rule
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn formats_md_lists_every_fate_in_order() {
    let md = fs::read_to_string(root().join("docs/formats.md")).unwrap();
    let documented: Vec<String> = table_after(&md, "## Record fates")
        .into_iter()
        .map(|row| row[0].trim_matches('`').to_string())
        .collect();
    let fates: Vec<String> = Fate::ALL.iter().map(|f| f.name().to_string()).collect();
    assert_eq!(
        documented, fates,
        "docs/formats.md's table of fates is not cowrex::fate::Fate::ALL"
    );
}

#[test]
fn formats_md_lists_every_exit_code() {
    let md = fs::read_to_string(root().join("docs/formats.md")).unwrap();
    let documented: Vec<(String, String)> = table_after(&md, "## Exit codes")
        .into_iter()
        .map(|row| (row[0].clone(), row[1].trim_matches('`').to_string()))
        .collect();
    let codes: Vec<(String, String)> = [
        (EXIT_OK, "EXIT_OK"),
        (EXIT_INPUT_FAILED, "EXIT_INPUT_FAILED"),
        (EXIT_USAGE, "EXIT_USAGE"),
        (EXIT_OUTPUT_FAILED, "EXIT_OUTPUT_FAILED"),
        (EXIT_INTERRUPTED, "EXIT_INTERRUPTED"),
    ]
    .into_iter()
    .map(|(code, name)| (code.to_string(), name.to_string()))
    .collect();
    assert_eq!(
        documented, codes,
        "docs/formats.md's table of exit codes is not cowrex::error's"
    );
}

/// GitHub's anchor of a heading: lower-cased, spaces to `-`, punctuation but `-` and `_`
/// dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A Markdown file's links (destinations) and the anchors of its headings.
fn links_and_anchors(md: &str) -> (Vec<String>, BTreeSet<String>) {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let (mut links, mut anchors) = (Vec::new(), BTreeSet::new());
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push(dest_url.to_string())
            }
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = &mut heading {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let mut anchor = base.clone();
                let mut n = 0;
                while anchors.contains(&anchor) {
                    n += 1;
                    anchor = format!("{base}-{n}");
                }
                anchors.insert(anchor);
            }
            _ => {}
        }
    }
    (links, anchors)
}

#[test]
fn relative_links_point_to_files_and_headings() {
    let mut files = vec![root().join("README.md"), root().join("python/README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut broken = Vec::new();
    for file in &files {
        let md = fs::read_to_string(file).unwrap();
        let (links, own_anchors) = links_and_anchors(&md);
        for link in links {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match link.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let shown = file.strip_prefix(root()).unwrap().display();
            if !target.exists() {
                broken.push(format!("{shown}: {link} (no such file)"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let anchors = if path.is_empty() {
                own_anchors.clone()
            } else if path.ends_with(".md") {
                links_and_anchors(&fs::read_to_string(&target).unwrap()).1
            } else {
                continue;
            };
            if !anchors.contains(anchor) {
                broken.push(format!("{shown}: {link} (no such heading)"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("Record fates"), "record-fates");
    assert_eq!(slug("`cowrex train combined`"), "cowrex-train-combined");
    assert_eq!(
        slug("Shingles and links (`--links`)"),
        "shingles-and-links---links"
    );
    assert_eq!(
        slug("What was tried and not shipped"),
        "what-was-tried-and-not-shipped"
    );
}

/// The crates `cargo tree` lists for the library's normal build with `args`.
fn library_crates(args: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "-p",
            "cowrex",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .args(["--format", "{p}"])
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_library_needs_no_command_line_crate() {
    let with_http = library_crates(&[]);
    assert!(with_http.contains("fastwarc") && with_http.contains("ureq"));
    assert!(with_http.contains("parquet"), "Parquet is on by default");
    for binary_only in ["clap", "indicatif", "plotters", "signal-hook"] {
        assert!(
            !with_http.contains(binary_only),
            "the library depends on {binary_only}"
        );
    }
    let without = library_crates(&["--no-default-features"]);
    assert!(without.contains("fastwarc"));
    assert!(!without.contains("ureq"), "ureq without the http feature");
    assert!(
        !without.contains("parquet"),
        "parquet without the parquet feature"
    );
}

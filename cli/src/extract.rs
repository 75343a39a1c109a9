//! `cowrex extract` and `cowrex features`: one page to its text, blocks or texrex features.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{BiasArg, CliResult, ModelArgs, OutFile, options, read_input};
use cowrex::analyze::{self, Config};
use cowrex::classify::{self, LangChoice, ModelLang, Models, NgramChoice, ngram};
use cowrex::error::{EXIT_OK, Error};
use cowrex::html::Syntax;
use cowrex::output::format_general;
use cowrex::output::{markdown, xml};
use cowrex::{Extractor, Options};

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum Format {
    Text,
    Tsv,
    Json,
    /// The content as Markdown (CommonMark with GFM tables).
    Markdown,
}

#[derive(Args)]
pub(super) struct ExtractArgs {
    /// HTML file (may start with an ARC or HTTP header), or - for stdin.
    #[arg(default_value = "-", value_name = "FILE")]
    file: PathBuf,
    /// text: the non-boilerplate blocks, one per line; markdown: the same as Markdown;
    /// tsv/json: every block with its scores.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Markdown without links (their text stays).
    #[arg(long)]
    no_markdown_links: bool,
    /// URL of the page (for host and charset hints).
    #[arg(long, default_value = "")]
    url: String,
    /// FILE is plain text (a text dump), not HTML: its paragraphs (separated by blank lines)
    /// are scored with the n-gram model; `text` prints those scoring at least `--bias`.
    #[arg(long)]
    plain_text: bool,
    /// The scorer whose result is `bpv` and decides what is boilerplate.
    #[arg(long, value_parser = super::choice::<classify::Scorer>(), default_value = "combined")]
    scorer: classify::Scorer,
    #[command(flatten)]
    bias: BiasArg,
    #[command(flatten)]
    model: ModelArgs,
}

#[derive(Args)]
pub(super) struct FeaturesArgs {
    /// HTML file (may start with an ARC or HTTP header), or - for stdin. Features are computed
    /// exactly as texrex does, with texrex's tag scanner.
    #[arg(long, value_name = "FILE")]
    texrex: PathBuf,
    /// Segment with the HTML5 tokenizer (as `process` does by default) instead of texrex's.
    #[arg(long)]
    html5: bool,
}

pub(super) fn extract(a: ExtractArgs) -> CliResult {
    let extractor = Extractor::new(&options(&a.model, a.scorer))?;
    let bytes = read_input(&a.file)?;
    if a.plain_text {
        if matches!(a.format, Format::Markdown) {
            return Err(Error::usage(
                "--plain-text has no structure to write as Markdown; use --format text",
            ));
        }
        return extract_plain_text(&bytes, extractor.models(), a.format, a.bias.bias);
    }
    let doc = extractor.extract(&bytes, Some(&a.url));
    let found = !doc.blocks.is_empty();
    let blocks = &doc.blocks[..];
    let mut out = OutFile::stdout();
    match a.format {
        Format::Text => {
            let text = doc.text();
            if !text.is_empty() {
                writeln!(out, "{text}")?;
            }
        }
        Format::Markdown => write!(out, "{}", markdown::write(&doc, !a.no_markdown_links))?,
        Format::Tsv => {
            writeln!(
                out,
                "idx\tbpv\tbpc\tboilerplate\t{}\tkind\tlanguage\ttext",
                cowrex::output::score_names().collect::<Vec<_>>().join("\t")
            )?;
            for b in blocks {
                let text = b.text.replace(['\t', '\n'], " ");
                let scores: Vec<_> = cowrex::output::block_scores(b).collect();
                let columns: Vec<String> = cowrex::output::score_names()
                    .map(|name| {
                        scores
                            .iter()
                            .find(|(k, _)| *k == name)
                            .map_or(String::new(), |(_, v)| v.text())
                    })
                    .collect();
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    b.idx,
                    format_general(b.bpv as f64),
                    xml::bpc(b.bpv),
                    u8::from(!doc.is_content(b)),
                    columns.join("\t"),
                    b.kind_name(),
                    b.language.map_or("", |l| l.code),
                    text
                )?;
            }
        }
        Format::Json => {
            let mut v = serde_json::json!({
                "title": doc.metadata.title,
                "author": doc.metadata.author,
                "published": doc.metadata.published,
                "modified": doc.metadata.modified,
                "sitename": doc.metadata.sitename,
                "canonical": doc.metadata.canonical,
                "description": doc.metadata.description,
                "declared_language": doc.metadata.declared_language,
                "markdown": markdown::write(&doc, !a.no_markdown_links),
                "sourcecharset": found.then_some(&doc.source_charset),
                "language": found.then(|| doc.language_code()),
                "language_script": doc.language.and_then(|l| l.script),
                "language_score": doc.language.as_ref().map(cowrex::output::language_score),
                "capped": doc.capped.map(cowrex::document::Cap::name),
                "blocks": blocks.iter().map(|b| {
                    let mut v = serde_json::json!({
                        "idx": b.idx,
                        "bpv": b.bpv,
                        "bpc": xml::bpc(b.bpv).to_string(),
                        "boilerplate": !doc.is_content(b),
                    });
                    let fields = cowrex::output::block_scores(b)
                        .chain(cowrex::output::kind_fields(b))
                        .chain(cowrex::output::block_language(b));
                    for (k, s) in fields {
                        v[k] = s.json();
                    }
                    v["text"] = serde_json::json!(b.text);
                    v
                }).collect::<Vec<_>>(),
            });
            // Only on a page read as UTF-8 against its declaration (formats.md).
            if let Some(c) = &doc.declared_charset {
                v["declared_charset"] = serde_json::json!(c);
            }
            writeln!(out, "{v}")?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

pub(super) fn features(a: FeaturesArgs) -> CliResult {
    let bytes = read_input(&a.texrex)?;
    let extractor = Extractor::new(&Options {
        lang: LangChoice::Fixed(ModelLang::En),
        ngram: NgramChoice::Off,
        config: Config {
            syntax: if a.html5 {
                Syntax::Html5
            } else {
                Syntax::Texrex
            },
            // The text the features are computed on.
            texrex_text: true,
            ..Config::default()
        },
        ..Options::default()
    })?;
    let doc = extractor.extract(&bytes, None);
    let mut out = OutFile::stdout();
    for b in &doc.blocks {
        write!(out, "{}\t{}", b.idx, b.text.replace(['\t', '\n'], " "))?;
        for v in &b.features {
            write!(out, "\t{}", format_general(*v))?;
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(EXIT_OK)
}

pub(super) fn extract_plain_text(
    bytes: &[u8],
    models: &Models,
    format: Format,
    bias: f32,
) -> CliResult {
    let text = String::from_utf8_lossy(bytes);
    let paras = ngram::paragraphs(&text);
    let lang = analyze::identify_texts(paras.iter().map(String::as_str), models.identifier());
    let Some(model) = models.ngram(lang.as_ref()) else {
        return Err(Error::usage(
            "--plain-text scores with the n-gram model; drop --ngram off",
        ));
    };
    let scores: Vec<Option<f32>> = paras.iter().map(|p| model.score(p)).collect();
    let clean = |s: &Option<f32>| s.is_some_and(|s| s >= bias);
    let mut out = OutFile::stdout();
    match format {
        Format::Text | Format::Markdown => {
            let kept: Vec<&str> = paras
                .iter()
                .zip(&scores)
                .filter(|(_, s)| clean(s))
                .map(|(p, _)| p.as_str())
                .collect();
            if !kept.is_empty() {
                writeln!(out, "{}", kept.join("\n\n"))?;
            }
        }
        Format::Tsv => {
            writeln!(out, "idx\tngram\tclean\ttext")?;
            for (i, (p, s)) in paras.iter().zip(&scores).enumerate() {
                let score = s.map(|v| format_general(v as f64)).unwrap_or_default();
                writeln!(
                    out,
                    "{i}\t{score}\t{}\t{}",
                    u8::from(clean(s)),
                    p.replace('\t', " ")
                )?;
            }
        }
        Format::Json => {
            let v = serde_json::json!({
                "language": cowrex::document::Language::code_of(lang.as_ref()),
                "model": model.params.folding.as_str(),
                "paragraphs": paras.iter().zip(&scores).enumerate().map(|(i, (p, s))| serde_json::json!({
                    "idx": i,
                    "ngram": s,
                    "clean": clean(s),
                    "text": p,
                })).collect::<Vec<_>>(),
            });
            writeln!(out, "{v}")?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

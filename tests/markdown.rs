//! Markdown parses back to the text it was written from (a CommonMark parser, pulldown-cmark
//! with GFM tables, reads the same words as the content's blocks have).

use crate::common;
use common::shared_data;

use cowrex::{Document, Extractor, Options};

/// The text pulldown-cmark reads from Markdown, whitespace collapsed; raw HTML fails.
fn parsed_text(md: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser};
    let mut text = String::new();
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            // Blocks and table cells start and end words; emphasis and links do not.
            Event::Start(tag) if !is_inline(tag.to_end()) => text.push(' '),
            Event::End(tag) if !is_inline(tag) => text.push(' '),
            Event::Html(h) | Event::InlineHtml(h) => panic!("raw HTML in Markdown: {h}"),
            _ => {}
        }
    }
    words(&text)
}

fn is_inline(tag: pulldown_cmark::TagEnd) -> bool {
    use pulldown_cmark::TagEnd::*;
    matches!(tag, Emphasis | Strong | Strikethrough | Link | Image)
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Markdown, with and without links, reads back as the text of the blocks it writes.
fn round_trips(d: &Document) -> Result<(), String> {
    let text: Vec<&str> = cowrex::output::markdown::blocks(d)
        .map(|b| b.text.as_str())
        .collect();
    for links in [true, false] {
        let md = cowrex::output::markdown::write(d, links);
        if parsed_text(&md) != words(&text.join(" ")) {
            return Err(md);
        }
    }
    Ok(())
}

#[test]
fn markdown_of_hostile_text_parses_back_to_it() {
    let hostile = [
        "1. not a list",
        "- not an item",
        "+ plus",
        "= equals",
        "# not a heading",
        "*not emphasis* _nor this_ **nor** __this__",
        "[not](a link) ![nor](an image)",
        "<div> &amp;amp; &amp;lt;b&amp;gt; &amp;#42; &amp;copy;",
        "a | b | c",
        "`tick` ``two``",
        "back\\slash",
        "~~strike~~ ~tilde~",
        "> not a quote",
        "    four spaces",
        "\ttab",
        "<http://x.y>",
        "trailing backslash \\",
        "#hash",
        "2024) year",
        "***",
        "---",
        "___",
        "**\"quoted\"**x",
    ];
    let mut html = String::from("<body>");
    for (k, t) in hostile.iter().enumerate() {
        let t = t.replace('<', "&lt;");
        html.push_str(&match k % 6 {
            0 => format!("<p>{t}</p>"),
            1 => format!("<h3>{t}</h3>"),
            2 => format!("<ul><li>{t}<li><em>{t}</em><ol><li><b>{t}</b></ol></ul>"),
            3 => format!("<table><tr><td>{t}<td><b>{t}</b></table>"),
            4 => format!("<blockquote>{t}<br>{t}</blockquote>"),
            _ => format!(
                "<p><a href=\"/x y(z)\">{t}</a> and <code>{t}</code> <i>{t}</i><b>x</b><br>next</p>"
            ),
        });
    }
    html.push_str("<pre>```\n  code ``` here\n</pre></body>");
    let ex = Extractor::new(&Options {
        config: cowrex::analyze::Config {
            threshold: Some(1.0),
            ..Default::default()
        },
        ..Default::default()
    })
    .unwrap();
    let d = ex.extract(html.as_bytes(), Some("https://example.org/"));
    assert!(d.blocks.len() > hostile.len(), "{:?}", d.text());
    round_trips(&d).unwrap_or_else(|md| panic!("{md}"));
}

#[test]
fn markdown_of_the_development_pages_parses_back_to_their_text() {
    let Some(pages) = shared_data("pages") else {
        return;
    };
    let ex = Extractor::new(&Options::default()).unwrap();
    let (mut checked, mut failed) = (0, Vec::new());
    for set in [
        "wcxb-dev",
        "cleaneval",
        "dragnet",
        "google-trends-2017",
        "l3s-gn1",
    ] {
        let (gold, _) = cowrex::eval::load_set(&pages, set).unwrap();
        let take = if set == "wcxb-dev" { 600 } else { 100 };
        for p in gold.iter().take(take) {
            let html = cowrex::eval::read_page(&p.path).unwrap();
            let d = ex.extract(&html, Some(p.url.as_str()));
            checked += 1;
            if let Err(md) = round_trips(&d) {
                failed.push((p.id.clone(), md));
            }
        }
    }
    eprintln!(
        "{checked} pages, {} whose Markdown does not parse back",
        failed.len()
    );
    assert!(checked >= 900);
    assert!(failed.is_empty(), "{:?}", &failed[..failed.len().min(3)]);
}

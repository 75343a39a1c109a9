//! Scripts written without spaces between words (`cowrex::words`): a Chinese and a Japanese
//! news page (`fixtures/cjk-zh.html`, `fixtures/cjk-ja.html`, made by
//! `scripts/gen/make_fixtures.py`), analysed with the built-in models, have a word per ideograph
//! and kana, and their articles are kept while their menus and footers are not.

use std::path::Path;

use cowrex::{Document, Extractor};

fn page(lang: &str) -> (String, Document) {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join(format!("fixtures/cjk-{lang}.html"));
    let html = std::fs::read_to_string(path).unwrap();
    let doc = Extractor::builtin().extract(html.as_bytes(), Some("https://news.example/2024/1"));
    (html, doc)
}

/// The words of a text counted apart from `cowrex::words`, for the characters of the
/// fixtures: in a whitespace-separated token with ideographs or kana, each ideograph and
/// Hiragana letter is a word, each run of Katakana (with ー) is one, and so is each stretch
/// between them with a letter or digit; any other token is one word.
fn words(text: &str) -> usize {
    #[derive(PartialEq)]
    enum Run {
        None,
        Katakana,
        Other { alnum: bool },
    }
    let single = |c: char| matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3041}'..='\u{3096}');
    let kana = |c: char| matches!(c, '\u{30a1}'..='\u{30fa}' | 'ー');
    let mut n = 0;
    for token in text.split_whitespace() {
        if !token.chars().any(|c| single(c) || kana(c)) {
            n += 1;
            continue;
        }
        let mut run = Run::None;
        for c in token.chars() {
            if single(c) || kana(c) && run != Run::Katakana {
                n += usize::from(run == Run::Other { alnum: true });
                n += 1;
                run = if kana(c) { Run::Katakana } else { Run::None };
            } else if !kana(c) {
                let alnum = c.is_alphanumeric() || matches!(run, Run::Other { alnum: true });
                run = Run::Other { alnum };
            }
        }
        n += usize::from(run == Run::Other { alnum: true });
    }
    n
}

#[test]
fn chinese_and_japanese_pages_have_a_word_per_character_and_keep_their_articles() {
    // The words of the headline and of the article's four paragraphs, by character.
    for (lang, article_words) in [("zh", [11, 76, 81, 77, 56]), ("ja", [14, 87, 81, 84, 61])] {
        let (html, doc) = page(lang);
        let article = &html[html.find("<article>").unwrap()..html.find("</article>").unwrap()];
        let report: Vec<String> = (doc.blocks.iter())
            .map(|b| format!("{:.3} {} {}", b.bpv, b.stats.words, b.text))
            .collect();
        let report = format!(
            "{lang}, threshold {}:\n{}",
            doc.threshold,
            report.join("\n")
        );
        for b in &doc.blocks {
            assert_eq!(b.stats.words as usize, words(&b.cleansed), "{}", b.text);
            assert!(b.stats.link_words <= b.stats.words);
        }
        let (inside, outside): (Vec<_>, Vec<_>) = doc
            .blocks
            .iter()
            .partition(|b| article.contains(&format!(">{}</", b.text)));
        assert_eq!(
            inside.iter().map(|b| b.stats.words).collect::<Vec<_>>(),
            article_words,
            "{report}"
        );
        // A paragraph is dozens of words, not one, and none of them is in a link.
        assert!(inside[1..].iter().all(|b| b.stats.words > 50));
        assert!(inside.iter().all(|b| b.stats.link_words == 0));
        // The menu: links of a few words each, every word in the link.
        let menu: Vec<_> = outside
            .iter()
            .filter(|b| html.contains(&format!(">{}</a></li>", b.text)))
            .collect();
        assert_eq!(menu.len(), 6, "{report}");
        assert!(menu.iter().all(|b| (1..=6).contains(&b.stats.words)));
        assert!(
            menu.iter().all(|b| b.stats.link_density() == 1.0),
            "{report}"
        );
        // The article's paragraphs are kept; its headline (a dozen characters) is scored as
        // more likely content than any block of the logo, the menu and the footer, which are
        // not kept.
        assert!(inside[1..].iter().all(|b| doc.is_content(b)), "{report}");
        let least_boilerplate = outside.iter().map(|b| b.bpv).fold(1.0f32, f32::min);
        assert!(inside[0].bpv < least_boilerplate, "{report}");
        assert!(outside.iter().all(|b| !doc.is_content(b)), "{report}");
        assert_eq!(outside.len(), 9, "{report}");
    }
}

#[test]
fn the_independent_count_agrees_on_mixed_text() {
    // The stretch between タワー and the end is one word, as one token without ideographs.
    assert_eq!(words("東京タワーabc、ok"), 4);
    assert_eq!(words("「東京」 。 abc"), 4);
    assert_eq!(words("© 2024 みなと新聞社"), 8);
    for text in [
        "東京タワーabc、ok",
        "「東京」 。 abc",
        "ニュース一覧 (2024年)",
    ] {
        assert_eq!(words(text), cowrex::words::count(text), "{text}");
    }
}

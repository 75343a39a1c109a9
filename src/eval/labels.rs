//! Block labels from annotated pages, aligned onto cowrex's blocks.
//!
//! Annotated pages mark content in the markup itself:
//! - L3S-GN1 wraps text runs in `<span class="x-nc-selK">`; K = 1 (headline), 2 (full text) and
//!   3 (supplemental) are content, as in the set's gold text; 0 (not content), 4 (related
//!   content) and 5 (user comments) are boilerplate.
//! - BoilerNet (Google-Trends-2017) marks leaf elements with `__boilernet_label="1"` (content)
//!   or `"0"`.
//!
//! Text outside any labelled element is boilerplate. [`labelled_words`] turns such a page into
//! a sequence of words with their labels; [`align`] aligns the words of cowrex's blocks on the
//! *original* page with that sequence (a word-level diff), and [`Alignment::label`] gives each
//! block the majority label of its aligned words.

use std::collections::HashMap;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::tokens;
use crate::features::texrex::unescape;
use crate::html::{RAW_TEXT, VOID, find_end_tag, find_tag_end, is_html_ws};

/// The label an element's attributes give its text, if any.
fn element_label(attrs: &[u8]) -> Option<bool> {
    let find = |needle: &[u8]| memchr::memmem::find(attrs, needle);
    if let Some(p) = find(b"x-nc-sel") {
        return attrs
            .get(p + 8)
            .filter(|b| b.is_ascii_digit())
            .map(|&k| matches!(k, b'1'..=b'3'));
    }
    if let Some(p) = find(b"__boilernet_label") {
        let rest = &attrs[p + 17..];
        let value = rest
            .iter()
            .position(|b| b.is_ascii_digit())
            .map(|o| rest[o]);
        return value.map(|v| v == b'1');
    }
    None
}

/// The comment label an element's attributes give its text, if any: L3S-GN1's class 5 (user
/// comments) is a comment, its other classes are not.
fn comment_label(attrs: &[u8]) -> Option<bool> {
    let p = memchr::memmem::find(attrs, b"x-nc-sel")?;
    attrs
        .get(p + 8)
        .filter(|b| b.is_ascii_digit())
        .map(|&k| k == b'5')
}

/// The words (lower-cased [`tokens`]) of an annotated page with their labels
/// (true = content), in document order; None when the page carries no labels at all.
/// Comments and the content of `script`, `style` and other raw-text elements are skipped.
pub fn labelled_words(html: &[u8]) -> Option<Vec<(String, bool)>> {
    words_labelled_by(html, element_label)
}

/// The words of an annotated page labelled as [`labelled_words`] labels them, but true for
/// the words of user comments (L3S-GN1's class 5); None when the page carries no such labels
/// (BoilerNet's pages say nothing of comments).
pub fn comment_words(html: &[u8]) -> Option<Vec<(String, bool)>> {
    words_labelled_by(html, comment_label)
}

fn words_labelled_by(
    html: &[u8],
    element_label: fn(&[u8]) -> Option<bool>,
) -> Option<Vec<(String, bool)>> {
    let n = html.len();
    // Open elements: name and the label their attributes set.
    let mut open: Vec<(Vec<u8>, Option<bool>)> = Vec::new();
    let mut words = Vec::new();
    let mut labelled = false;
    let mut push_text = |bytes: &[u8], open: &[(Vec<u8>, Option<bool>)]| {
        let label = open.iter().rev().find_map(|(_, l)| *l).unwrap_or(false);
        let text = unescape(&String::from_utf8_lossy(bytes)).to_lowercase();
        for t in tokens(&text) {
            words.push((t.to_owned(), label));
        }
    };
    let mut pos = 0;
    while pos < n {
        let Some(lt) = memchr::memchr(b'<', &html[pos..]).map(|o| pos + o) else {
            push_text(&html[pos..], &open);
            break;
        };
        push_text(&html[pos..lt], &open);
        let rest = &html[lt + 1..];
        if rest.starts_with(b"!--") {
            pos = memchr::memmem::find(&rest[3..], b"-->").map_or(n, |o| lt + 4 + o + 3);
            continue;
        }
        let Some(&c) = rest.first() else { break };
        if matches!(c, b'!' | b'?') {
            pos = memchr::memchr(b'>', rest).map_or(n, |o| lt + 1 + o + 1);
            continue;
        }
        let closing = c == b'/';
        let start = lt + 1 + usize::from(closing);
        let mut i = start;
        while i < n && !is_html_ws(html[i]) && html[i] != b'>' && html[i] != b'/' {
            i += 1;
        }
        if i == start || !html[start].is_ascii_alphabetic() {
            // Not a tag: the `<` is text.
            push_text(b"<", &open);
            pos = lt + 1;
            continue;
        }
        let name = html[start..i].to_ascii_lowercase();
        let (Some(gt), self_closing) = find_tag_end(html, i) else {
            break;
        };
        pos = gt + 1;
        if closing {
            if let Some(k) = open.iter().rposition(|(e, _)| *e == name) {
                open.truncate(k);
            }
            continue;
        }
        if RAW_TEXT.contains(&name.as_slice()) && !self_closing {
            pos = find_end_tag(html, pos, &name).unwrap_or(pos);
            continue;
        }
        let label = element_label(&html[i..gt]);
        labelled |= label.is_some();
        if !self_closing && !VOID.contains(&name.as_slice()) {
            open.push((name, label));
        }
    }
    labelled.then_some(words)
}

/// How the words of one block align with a labelled reference.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Alignment {
    /// Words in the block.
    pub words: u32,
    /// Of those, words aligned with a reference word.
    pub aligned: u32,
    /// Of those, words aligned with a content word.
    pub content: u32,
}

impl Alignment {
    /// The block's label against a fully labelled reference: true (content) when most of its
    /// aligned words are content; None when fewer than half of its words align (or it has none).
    pub fn label(&self) -> Option<bool> {
        (self.words > 0 && 2 * self.aligned >= self.words)
            .then_some(2 * self.content > self.aligned)
    }

    /// The share of the block's aligned words that are content, for a block with a
    /// [`label`](Self::label); None otherwise.
    pub fn content_share(&self) -> Option<f32> {
        self.label()
            .map(|_| self.content as f32 / self.aligned as f32)
    }
}

/// Align the words of `blocks` (in page order) with `reference` by a word-level diff and count,
/// for every block, its words, aligned words and words aligned with content. The diff is
/// Patience's, anchored on words that occur once in both: `similar`'s Myers diff, which this
/// used before, aligned the gold text's first words with stray words of a long page's menus
/// and left the article itself unaligned on dozens of Dragnet pages.
pub fn align(blocks: &[&str], reference: &[(String, bool)]) -> Vec<Alignment> {
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut intern = |w: &str| -> u32 {
        let next = ids.len() as u32;
        *ids.entry(w.to_owned()).or_insert(next)
    };
    let mut page = Vec::new();
    let mut owner = Vec::new();
    let mut out = vec![Alignment::default(); blocks.len()];
    for (b, text) in blocks.iter().enumerate() {
        for t in tokens(&text.to_lowercase()) {
            page.push(intern(t));
            owner.push(b);
            out[b].words += 1;
        }
    }
    let refs: Vec<u32> = reference.iter().map(|(w, _)| intern(w)).collect();
    for op in capture_diff_slices(Algorithm::Patience, &page, &refs) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for k in 0..len {
                let a = &mut out[owner[old_index + k]];
                a.aligned += 1;
                a.content += u32::from(reference[new_index + k].1);
            }
        }
    }
    out
}

/// Block labels from a page's gold text (CleanEval, Dragnet): the blocks' words are aligned
/// with the gold text's words ([`align_with_gold`]), and a block is content when at least half
/// of its words align; None for a block without words.
pub fn align_gold(blocks: &[&str], gold: &str) -> Vec<Option<bool>> {
    align_with_gold(blocks, gold)
        .iter()
        .map(|a| (a.words > 0).then_some(2 * a.aligned >= a.words))
        .collect()
}

/// Soft block labels from a page's gold text: the share of each block's words that align with
/// the gold text ([`align_with_gold`]); None for a block without words.
pub fn gold_shares(blocks: &[&str], gold: &str) -> Vec<Option<f32>> {
    align_with_gold(blocks, gold)
        .iter()
        .map(|a| (a.words > 0).then(|| a.aligned as f32 / a.words as f32))
        .collect()
}

/// How the words of `blocks` align with a page's gold text ([`align`], every gold word being
/// content).
pub fn align_with_gold(blocks: &[&str], gold: &str) -> Vec<Alignment> {
    let reference: Vec<(String, bool)> = tokens(&gold.to_lowercase())
        .map(|t| (t.to_owned(), true))
        .collect();
    align(blocks, &reference)
}

/// Partial block labels from a page's snippets (`blocks`: the blocks' shown texts): the blocks
/// that an occurrence of a `with` snippet touches are content, those an occurrence of a
/// `without` snippet touches are boilerplate, and the rest have no label. Snippets are found
/// as [`super::Snippets`] finds them, in the blocks' texts joined by spaces, so a snippet may
/// span blocks. A `with` snippet found more than once labels nothing (one of its copies may be
/// a teaser elsewhere on the page), while every copy of a `without` snippet is boilerplate; a
/// block touched by both kinds has no label. Nor has a block whose text is the page's `title`
/// (the headline of [`crate::document::Metadata`]) and that only a `without` snippet touches:
/// trafilatura's gold leaves the headline out of the text (its extraction keeps it as
/// metadata), while cowrex's main content has an article's title.
pub fn snippet_labels(
    blocks: &[&str],
    with: &[String],
    without: &[String],
    title: Option<&str>,
) -> Vec<Option<bool>> {
    let mut joined = String::new();
    let mut spans = Vec::with_capacity(blocks.len());
    for b in blocks {
        let text = super::normalise_space(b);
        if !joined.is_empty() && !text.is_empty() {
            joined.push(' ');
        }
        let start = joined.len();
        joined.push_str(&text);
        spans.push((start, joined.len()));
    }
    let mut marked = vec![(false, false); blocks.len()];
    let mut mark = |snippet: &String, content: bool| {
        let snippet = super::normalise_space(snippet);
        if snippet.is_empty() {
            return;
        }
        let found: Vec<usize> = joined.match_indices(&snippet).map(|(at, _)| at).collect();
        if content && found.len() != 1 {
            return;
        }
        for at in found {
            let end = at + snippet.len();
            for (m, &(s, e)) in marked.iter_mut().zip(&spans) {
                if s < end && e > at {
                    if content {
                        m.0 = true;
                    } else {
                        m.1 = true;
                    }
                }
            }
        }
    };
    for s in with {
        mark(s, true);
    }
    for s in without {
        mark(s, false);
    }
    let title = title.map(super::normalise_space);
    marked
        .into_iter()
        .zip(blocks)
        .map(|((content, boilerplate), b)| match (content, boilerplate) {
            (true, false) => Some(true),
            (false, true) if title.as_deref() != Some(super::normalise_space(b).as_str()) => {
                Some(false)
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[(String, bool)]) -> Vec<String> {
        v.iter()
            .map(|(w, l)| format!("{w}{}", if *l { "+" } else { "" }))
            .collect()
    }

    #[test]
    fn l3s_spans() {
        let html = br#"<html><body><span class="x-nc-sel0">Home News</span>
            <h1><span class="x-nc-sel1">Big &amp; Bold</span></h1>
            <p><span class="x-nc-sel2">Text <a href="x">link</span> after
            <span class="x-nc-sel5">a comment</span><script>var x = "<span class='x-nc-sel2'>";</script>
            <!-- <span class="x-nc-sel2">hidden</span> --> end</p></body></html>"#;
        let w = labelled_words(html).unwrap();
        assert_eq!(
            words(&w),
            [
                "home", "news", "big+", "bold+", "text+", "link+", "after", "a", "comment", "end"
            ]
        );
        // Comment labels: class 5 only.
        let c = comment_words(html).unwrap();
        assert_eq!(
            words(&c),
            [
                "home", "news", "big", "bold", "text", "link", "after", "a+", "comment+", "end"
            ]
        );
    }

    #[test]
    fn boilernet_labels_and_unlabelled_pages() {
        let html = br#"<body><div><a><span __boilernet_label="0">Menu</span></a>
            <p><span __boilernet_label="1">Main text<br/>here</span></p>
            <img src=x><span>plain</span></div></body>"#;
        let w = labelled_words(html).unwrap();
        assert_eq!(words(&w), ["menu", "main+", "text+", "here+", "plain"]);
        assert_eq!(labelled_words(b"<p>no labels</p>"), None);
        assert_eq!(comment_words(html), None);
    }

    #[test]
    fn chinese_blocks_align_by_character() {
        // Without one token per character, each block would be one word that the gold
        // text's one word never equals.
        let gold = "市政府宣布新图书馆明年开放。馆内藏书五十万册。";
        let blocks = [
            "首页 新闻",
            "市政府宣布，新图书馆明年开放。",
            "馆内藏书五十万册。",
        ];
        assert_eq!(
            align_gold(&blocks, gold),
            [Some(false), Some(true), Some(true)]
        );
        let a = align_with_gold(&blocks, gold);
        assert_eq!((a[1].words, a[1].aligned), (13, 13));
        assert_eq!((a[0].words, a[0].aligned), (4, 0));
    }

    #[test]
    fn gold_text_labels_blocks() {
        let gold = "The Storm\nThe storm hit the coast on Monday. Roads were closed.\n";
        let blocks = [
            "Home | News | Sport",
            "The Storm",
            "The storm hit the coast on Monday.",
            "Roads were closed, police said.",
            "Share this story",
            "",
            // Gold words that the blocks before have aligned with do not align again.
            "coast closed Monday roads storm were",
        ];
        assert_eq!(
            align_gold(&blocks, gold),
            [
                Some(false),
                Some(true),
                Some(true),
                Some(true),
                Some(false),
                None,
                Some(false)
            ]
        );
        let shares = gold_shares(&blocks, gold);
        assert_eq!(shares[..3], [Some(0.0), Some(1.0), Some(1.0)]);
        // "police said" are not in the gold text: content by its majority, 3/5 by its share.
        assert_eq!(shares[3], Some(0.6));
        assert_eq!(shares[5..], [None, Some(0.0)]);
    }

    #[test]
    fn alignment_labels_blocks() {
        let reference: Vec<(String, bool)> = [
            ("home", false),
            ("news", false),
            ("the", true),
            ("storm", true),
            ("hit", true),
            ("the", true),
            ("coast", true),
            ("share", false),
            ("this", false),
        ]
        .iter()
        .map(|&(w, l)| (w.to_owned(), l))
        .collect();
        let blocks = [
            "Home | News",
            "The storm hit the COAST.",
            "Share this now",
            "zzz qqq",
        ];
        let a = align(&blocks, &reference);
        assert_eq!(
            a[1],
            Alignment {
                words: 5,
                aligned: 5,
                content: 5
            }
        );
        let labels: Vec<_> = a.iter().map(Alignment::label).collect();
        assert_eq!(labels, [Some(false), Some(true), Some(false), None]);
        // A block with some words lost (here: "now") keeps the majority label.
        assert_eq!(a[2].aligned, 2);
        let shares: Vec<_> = a.iter().map(Alignment::content_share).collect();
        assert_eq!(shares, [Some(0.0), Some(1.0), Some(0.0), None]);
        // A block of both kinds: half of its words are content, which is not a majority.
        let mixed = align(
            &["Home news. The storm", "hit the coast", "Share this"],
            &reference,
        );
        assert_eq!(
            (mixed[0].label(), mixed[0].content_share()),
            (Some(false), Some(0.5))
        );
        assert_eq!(mixed[1].content_share(), Some(1.0));
    }

    #[test]
    fn snippets_label_the_blocks_they_touch() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let blocks = [
            "Home  News",
            "The article starts here",
            "and goes on here.",
            "Share on Facebook",
            "Teaser",
            "Teaser",
            "Mixed: the end. Share",
            "",
        ];
        let labels = snippet_labels(
            &blocks,
            &s(&["starts here and goes", "Teaser", "the end."]),
            &s(&["Home News", "Share", "share on facebook"]),
            None,
        );
        assert_eq!(
            labels,
            [
                // Found across the double space, made one.
                Some(false),
                // A `with` snippet spanning two blocks labels both.
                Some(true),
                Some(true),
                // Every copy of a `without` snippet; case matters, so only "Share" finds it.
                Some(false),
                // A `with` snippet found twice labels nothing.
                None,
                None,
                // Touched by both kinds.
                None,
                None,
            ]
        );
        // Snippets found nowhere label nothing.
        assert_eq!(
            snippet_labels(&blocks[..2], &s(&["absent"]), &s(&[" "]), None),
            [None, None]
        );
        // The headline is not boilerplate by a `without` snippet; other blocks still are.
        let blocks = ["Home", "The  Headline", "Text of the article."];
        assert_eq!(
            snippet_labels(
                &blocks,
                &s(&["Text of"]),
                &s(&["Home", "The Headline"]),
                Some("The Headline ")
            ),
            [Some(false), None, Some(true)]
        );
    }
}

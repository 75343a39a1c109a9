//! Structural cues of a block: bits for the elements its text is in (tag names, and tokens of
//! their `class`, `id` and `role` attributes), inherited from all ancestors.
//!
//! The bits are set here: by tag names (`tag_cues`) and by the `class`, `id`, `role`,
//! `itemprop`, `hidden` and `style` attributes of start tags (`attr_cues`).

use super::markup::{class_key, markup_tokens};
use super::scan::{attributes, is_html_ws};

/// Inside `<a>`.
pub(crate) const LINK: u32 = 1 << 0;
/// Inside `h1`.
pub(crate) const H1: u32 = 1 << 1;
/// Inside `h1`…`h6`.
pub(crate) const HEADING: u32 = 1 << 2;
/// Inside `ul`, `ol` or `dl`.
pub(crate) const LIST: u32 = 1 << 3;
/// Inside `table`.
pub(crate) const TABLE: u32 = 1 << 4;
/// Inside `form`.
pub(crate) const FORM: u32 = 1 << 5;
/// `<nav>`, or a token like nav, menu, breadcrumb, pagination.
pub(crate) const NAV: u32 = 1 << 6;
/// `<header>`, or header, masthead, banner, topbar.
pub(crate) const HEADER: u32 = 1 << 7;
/// `<footer>`, or footer, copyright, contentinfo.
pub(crate) const FOOTER: u32 = 1 << 8;
/// `<aside>`, or sidebar, widget, related, recommended, popular, promo, sponsor, advert.
pub(crate) const ASIDE: u32 = 1 << 9;
/// comment, reply, respond, discuss, disqus.
pub const COMMENT: u32 = 1 << 10;
/// share, social, facebook, twitter, newsletter, subscribe, follow.
pub(crate) const SHARE: u32 = 1 << 11;
/// `<article>` or `<main>`, or article, content, post, entry, story, main, body, text.
pub const ARTICLE: u32 = 1 << 12;
/// byline, author, date, time, meta, tags, caption, credit.
pub(crate) const META: u32 = 1 << 13;
/// `blockquote`, `pre`, `figure`, `figcaption`, `caption`.
pub(crate) const QUOTE: u32 = 1 << 14;
/// `p`: running text markup.
pub const P: u32 = 1 << 15;
/// `<main>` or `role="main"`: the page's own statement of its main content.
pub const MAIN: u32 = 1 << 16;
/// An `<article>` element (the tag itself, not a class name).
pub(crate) const ARTICLE_TAG: u32 = 1 << 17;
/// `itemprop` articleBody, text, reviewBody or description: the body of a schema.org item.
pub(crate) const BODY_PROP: u32 = 1 << 18;
/// Not rendered: the `hidden` attribute, `aria-hidden="true"`, an inline `display:none` or
/// `visibility:hidden`, `<template>`, or text for screen readers only (sr-only,
/// visually-hidden, screen-reader).
pub const HIDDEN: u32 = 1 << 19;
/// `<dialog>`, or cookie, consent, gdpr, modal, popup, overlay.
pub(crate) const MODAL: u32 = 1 << 20;
/// Controls: `<button>`, `<label>`, `<option>`, or `role` button, tab, menuitem, switch.
pub(crate) const CONTROL: u32 = 1 << 21;
/// Number of cue bits.
pub(crate) const COUNT: usize = 22;
/// The cues' names, bit by bit.
pub(crate) const NAMES: [&str; COUNT] = [
    "link",
    "h1",
    "heading",
    "list",
    "table",
    "form",
    "nav",
    "header",
    "footer",
    "aside",
    "comment",
    "share",
    "article",
    "meta",
    "quote",
    "p",
    "main",
    "article_tag",
    "body_prop",
    "hidden",
    "modal",
    "control",
];

/// The [`cue`](self) bits a tag name sets.
pub(super) fn tag_cues(name: &[u8]) -> u32 {
    match name {
        b"a" => LINK,
        b"h1" => H1 | HEADING,
        b"h2" | b"h3" | b"h4" | b"h5" | b"h6" => HEADING,
        b"ul" | b"ol" | b"dl" => LIST,
        b"table" => TABLE,
        b"form" => FORM,
        b"nav" => NAV,
        b"header" => HEADER,
        b"footer" => FOOTER,
        b"aside" => ASIDE,
        b"article" => ARTICLE | ARTICLE_TAG,
        b"main" => ARTICLE | MAIN,
        b"template" => HIDDEN,
        b"dialog" => MODAL,
        b"button" | b"label" | b"option" => CONTROL,
        b"time" | b"address" => META,
        b"blockquote" | b"pre" | b"figure" | b"figcaption" | b"caption" => QUOTE,
        b"p" => P,
        _ => 0,
    }
}

/// Substrings of `class`, `id` and `role` values, with the cue each sets (0: none, a word of
/// [`clues::element_clue`](super::clues::element_clue)'s datelines only).
const ATTR_CUES: [(&str, u32); 60] = [
    ("nav", NAV),
    ("menu", NAV),
    ("breadcrumb", NAV),
    ("pagination", NAV),
    ("pager", NAV),
    ("toolbar", NAV),
    ("skip", NAV),
    ("header", HEADER),
    ("masthead", HEADER),
    ("banner", HEADER),
    ("topbar", HEADER),
    ("logo", HEADER),
    ("footer", FOOTER),
    ("copyright", FOOTER),
    ("contentinfo", FOOTER),
    ("legal", FOOTER),
    ("sidebar", ASIDE),
    ("widget", ASIDE),
    ("related", ASIDE),
    ("recommend", ASIDE),
    ("popular", ASIDE),
    ("promo", ASIDE),
    ("sponsor", ASIDE),
    ("advert", ASIDE),
    ("complementary", ASIDE),
    ("teaser", ASIDE),
    ("comment", COMMENT),
    ("reply", COMMENT),
    ("respond", COMMENT),
    ("discuss", COMMENT),
    ("disqus", COMMENT),
    ("share", SHARE),
    ("social", SHARE),
    ("facebook", SHARE),
    ("twitter", SHARE),
    ("newsletter", SHARE),
    ("subscribe", SHARE),
    ("article", ARTICLE),
    ("content", ARTICLE),
    ("post", ARTICLE),
    ("entry", ARTICLE),
    ("story", ARTICLE),
    ("main", ARTICLE),
    ("byline", META),
    ("author", META),
    ("date", META),
    ("publish", 0),
    ("posted", 0),
    ("timestamp", 0),
    ("caption", META),
    ("cookie", MODAL),
    ("consent", MODAL),
    ("gdpr", MODAL),
    ("modal", MODAL),
    ("popup", MODAL),
    ("overlay", MODAL),
    ("sr-only", HIDDEN),
    ("visually-hidden", HIDDEN),
    ("visuallyhidden", HIDDEN),
    ("screen-reader", HIDDEN),
];

/// The [`cue`](self) bits of a start tag's attributes: tokens of `class`, `id` and `role`;
/// `role` main and control roles; `itemprop` of an item's body; and what hides an element
/// (`hidden`, `aria-hidden="true"`, an inline `display:none` or `visibility:hidden`). Also
/// whether the tag may give a clue to metadata
/// ([`clues::element_clue`](super::clues::element_clue): an `itemprop` or `rel` attribute, or a
/// byline or dateline word in `class` or `id`), so that only those are read again. Returns
/// the bits, the [`class_key`] and the clue; appends the markup tokens of `class` and `id` to
/// `tokens`. `classes` remembers what the page's `class` values said.
pub(super) fn attr_cues(
    attrs: &[u8],
    tokens: &mut Vec<u32>,
    classes: &mut ClassCues,
) -> (u32, u64, bool) {
    if attrs.len() < 4 {
        return (0, 0, false);
    }
    let (mut cues, mut class, mut clue) = (0, 0, false);
    let is = |k: &[u8], name: &[u8]| k.eq_ignore_ascii_case(name);
    for (k, v) in attributes(attrs) {
        if is(k, b"class") {
            class = class_key(v);
            let (c, l) = classes.of(v, tokens);
            cues |= c;
            clue |= l;
        } else if is(k, b"id") || is(k, b"role") {
            if is(k, b"id") {
                markup_tokens(v, tokens);
            }
            let (c, l) = word_cues(v);
            cues |= c;
            clue |= l;
            if is(k, b"role") {
                for t in v.split(|&b| is_html_ws(b)) {
                    if is(t, b"main") {
                        cues |= MAIN;
                    } else if [&b"button"[..], b"tab", b"menuitem", b"switch"]
                        .iter()
                        .any(|r| is(t, r))
                    {
                        cues |= CONTROL;
                    }
                }
            }
        } else if is(k, b"hidden")
            || (is(k, b"aria-hidden") && is(v, b"true"))
            || (is(k, b"style") && style_hides(v))
        {
            cues |= HIDDEN;
        } else if is(k, b"rel") {
            clue = true;
        } else if is(k, b"itemprop") {
            clue = true;
            let body = [&b"articlebody"[..], b"text", b"reviewbody", b"description"];
            if v.split(|&b| is_html_ws(b))
                .any(|t| body.iter().any(|n| is(t, n)))
            {
                cues |= BODY_PROP;
            }
        }
    }
    (cues, class, clue)
}

/// A `style` value says `display:none` or `visibility:hidden` (ASCII case ignored, HTML
/// whitespace anywhere). Read in one pass without a copy: each pattern's first byte occurs
/// nowhere else in it, so a mismatch can only restart a match at that byte.
fn style_hides(v: &[u8]) -> bool {
    const PATTERNS: [&[u8]; 2] = [b"display:none", b"visibility:hidden"];
    let mut matched = [0usize; 2];
    for b in v
        .iter()
        .filter(|b| !is_html_ws(**b))
        .map(u8::to_ascii_lowercase)
    {
        for (m, p) in matched.iter_mut().zip(PATTERNS) {
            *m = if p[*m] == b {
                *m + 1
            } else {
                usize::from(p[0] == b)
            };
            if *m == p.len() {
                return true;
            }
        }
    }
    false
}

/// The cue bits of the [`ATTR_CUES`] words in an attribute value, and whether one of them is a
/// byline or dateline word (a clue to metadata).
fn word_cues(v: &[u8]) -> (u32, bool) {
    use std::sync::LazyLock;
    static FINDER: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(ATTR_CUES.iter().map(|(p, _)| p))
            .expect("valid patterns")
    });
    let (mut cues, mut clue) = (0, false);
    for m in FINDER.find_overlapping_iter(v) {
        let c = ATTR_CUES[m.pattern().as_usize()].1;
        cues |= c;
        clue |= c == 0 || c == META;
    }
    (cues, clue)
}

/// What the `class` values of a page say ([`word_cues`] and markup tokens), read once per
/// distinct value: pages repeat a few classes on many elements.
#[derive(Default)]
pub(super) struct ClassCues {
    /// A value: its cue bits, its clue, and where its tokens are in `tokens`.
    seen: rustc_hash::FxHashMap<Box<[u8]>, (u32, bool, u32, u32)>,
    /// The markup tokens of the values seen.
    tokens: Vec<u32>,
}

impl ClassCues {
    /// Values longer than this are read each time, not remembered.
    const MAX_VALUE: usize = 256;

    /// The cue bits and clue of `class` value `v`; appends its markup tokens to `out`.
    fn of(&mut self, v: &[u8], out: &mut Vec<u32>) -> (u32, bool) {
        if let Some(&(cues, clue, at, n)) = self.seen.get(v) {
            out.extend_from_slice(&self.tokens[at as usize..(at + n) as usize]);
            return (cues, clue);
        }
        if v.len() > Self::MAX_VALUE {
            markup_tokens(v, out);
            return word_cues(v);
        }
        let at = self.tokens.len();
        markup_tokens(v, &mut self.tokens);
        out.extend_from_slice(&self.tokens[at..]);
        let (cues, clue) = word_cues(v);
        let n = self.tokens.len() - at;
        self.seen
            .insert(v.into(), (cues, clue, at as u32, n as u32));
        (cues, clue)
    }
}

#[cfg(test)]
mod tests {
    use crate::html::cue;
    use crate::html::segmenter::tests::blocks;

    #[test]
    fn semantic_hidden_and_control_cues() {
        let b = blocks(
            r#"<body><main><p>In main</p></main><div role="main"><p>Role main</div>
            <article><p>In an article</p></article>
            <div itemprop="articleBody"><p>Body</p></div><div itemprop="name"><p>Name</div>
            <div hidden><p>Hidden</div><div aria-hidden="true"><p>Aria</div>
            <div style="color: red; display : none"><p>Styled</div><span class="sr-only">Skip</span>
            <template><p>Inert</template><div class="cookie-notice"><p>Cookies</div>
            <button>Buy</button><div role="tab"><p>Tab</div><div aria-hidden="false"><p>Shown</div></body>"#,
        );
        let cues: Vec<(String, u32)> = b
            .iter()
            .map(|b| {
                (
                    String::from_utf8_lossy(&b.text).trim().to_owned(),
                    b.cues & !cue::P,
                )
            })
            .collect();
        let want = [
            ("In main", cue::MAIN | cue::ARTICLE),
            ("Role main", cue::MAIN | cue::ARTICLE),
            ("In an article", cue::ARTICLE_TAG | cue::ARTICLE),
            ("Body", cue::BODY_PROP),
            ("Name", 0),
            ("Hidden", cue::HIDDEN),
            ("Aria", cue::HIDDEN),
            ("Styled", cue::HIDDEN),
            ("Skip", cue::HIDDEN),
            ("Inert", cue::HIDDEN),
            ("Cookies", cue::MODAL),
            ("Buy", cue::CONTROL),
            ("Tab", cue::CONTROL),
            ("Shown", 0),
        ];
        let want: Vec<(String, u32)> = want.iter().map(|(t, c)| (t.to_string(), *c)).collect();
        assert_eq!(cues, want);
    }

    /// [`style_hides`](super::style_hides) says what a search of the value without its
    /// whitespace, lower-cased, says.
    #[test]
    fn style_hides_as_a_search_of_the_stripped_value() {
        let copied = |v: &[u8]| {
            let s: Vec<u8> = (v.iter())
                .filter(|b| !crate::html::is_html_ws(**b))
                .map(u8::to_ascii_lowercase)
                .collect();
            memchr::memmem::find(&s, b"display:none").is_some()
                || memchr::memmem::find(&s, b"visibility:hidden").is_some()
        };
        let values = [
            "color: red; display : none",
            "DISPLAY:\tNone",
            "display:display:none",
            "ddisplay:none",
            "display:nonE;visibility:visible",
            "visibility:visibility:hidden",
            "visibility: hidde n",
            "display:non",
            "display:block; visibility:hiddeN",
            "",
            "vv isibility:hidden",
            "display:nnone",
        ];
        for v in values {
            assert_eq!(
                super::style_hides(v.as_bytes()),
                copied(v.as_bytes()),
                "{v}"
            );
        }
    }

    /// A `class` value read again from [`cue::ClassCues`] says what it said the first time,
    /// and so does one too long to be remembered.
    #[test]
    fn a_class_value_remembered_says_the_same() {
        let long = format!("author {}", "x".repeat(300));
        for attrs in [
            " class=\"post-byline cookieBar\" id=\"mainContent\"".to_string(),
            format!(" class=\"{long}\" id=\"nav\""),
        ] {
            let mut classes = cue::ClassCues::default();
            let mut first = Vec::new();
            let got = cue::attr_cues(attrs.as_bytes(), &mut first, &mut classes);
            assert!(got.0 != 0 && got.1 != 0 && got.2, "{got:?}");
            for _ in 0..2 {
                let mut again = Vec::new();
                let fresh = cue::attr_cues(attrs.as_bytes(), &mut again, &mut classes);
                assert_eq!((fresh, &again), (got, &first));
            }
            // Tokens of the class come before those of the id, as the attributes are.
            let mut id_only = Vec::new();
            let id = &attrs[attrs.find(" id=").unwrap()..];
            cue::attr_cues(id.as_bytes(), &mut id_only, &mut cue::ClassCues::default());
            assert!(first.ends_with(&id_only) && first.len() > id_only.len());
        }
    }
}

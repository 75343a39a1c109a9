//! Clues to a page's metadata in its markup, gathered while segmenting: `<meta>` values,
//! `<link rel=canonical>`, `<html lang>`, the dates of `<time>` and `itemprop` elements, and
//! the text of elements that name an author or a date. [`crate::analyze::metadata`] reads
//! them.

use super::markup::split_markup;
use super::scan::{attributes, is_html_ws};

/// At most this many `<meta>` values and this many element clues per page.
pub(crate) const MAX_CLUES: usize = 128;
/// At most this many bytes of a value or an element's text.
pub(crate) const MAX_CLUE_BYTES: usize = 512;

/// What the markup of a page says about the page (HTML5 syntax; `<meta>` values of the head
/// with texrex's scanner too). Values are in the page's encoding, entities undecoded.
#[derive(Debug, Clone, Default)]
pub struct Clues {
    /// `<meta>` values anywhere in the page: the `name`, `property`, `itemprop` or
    /// `http-equiv`, lower-cased, and the `content`, in page order.
    pub meta: Vec<(Vec<u8>, Vec<u8>)>,
    /// `<link rel=canonical href>`.
    pub canonical: Option<Vec<u8>>,
    /// `<html lang>`.
    pub lang: Option<Vec<u8>>,
    /// Dates and names in the body, in page order.
    pub found: Vec<Clue>,
}

/// One date or name in the body of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clue {
    /// What the clue is evidence of.
    pub what: ClueKind,
    /// An attribute's value (`datetime`, `content`), or the element's text, whitespace
    /// collapsed.
    pub value: Vec<u8>,
    /// The value is the element's text rather than an attribute's.
    pub text: bool,
}

/// What a [`Clue`] is evidence of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClueKind {
    /// `itemprop="datePublished"` or `"dateCreated"`.
    Published,
    /// `itemprop="dateModified"`.
    Modified,
    /// A `<time datetime>` (or a `<time>`'s text) without `itemprop`.
    Time,
    /// `itemprop="author"` or `"creator"`.
    Author,
    /// A link with `rel="author"`.
    AuthorLink,
    /// An element whose `class` or `id` names an author or byline.
    Byline,
    /// An element whose `class` or `id` names a publication date.
    Dateline,
}

/// What an element's start tag says: a value to keep as it is, or a kind of clue its text is
/// evidence of.
pub(crate) enum ElementClue<'a> {
    /// An attribute's value (`datetime`, `content`), kept as it is, and what it is evidence of.
    Value(ClueKind, &'a [u8]),
    /// The element's text is evidence of this.
    Text(ClueKind),
}

/// The clue a start tag gives, if any. The segmenter asks only for `time` and the tags its
/// attribute scan flags (`attr_cues`).
pub(crate) fn element_clue<'a>(name: &[u8], attrs: &'a [u8]) -> Option<ElementClue<'a>> {
    let time = name == b"time";
    let get = |key: &[u8]| {
        attributes(attrs)
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    };
    let value = get(b"datetime").or_else(|| get(b"content"));
    let has = |v: Option<&[u8]>, word: &[u8]| {
        v.is_some_and(|v| {
            v.split(|&b| is_html_ws(b))
                .any(|t| t.eq_ignore_ascii_case(word))
        })
    };
    let itemprop = get(b"itemprop");
    let by_prop = if has(itemprop, b"datePublished") || has(itemprop, b"dateCreated") {
        Some(ClueKind::Published)
    } else if has(itemprop, b"dateModified") {
        Some(ClueKind::Modified)
    } else if has(itemprop, b"author") || has(itemprop, b"creator") {
        Some(ClueKind::Author)
    } else {
        None
    };
    let kind = by_prop.or_else(|| {
        if time {
            Some(ClueKind::Time)
        } else if has(get(b"rel"), b"author") {
            Some(ClueKind::AuthorLink)
        } else {
            // The words of `class` and `id` values (`post-author`, `entryDate`).
            let (mut byline, mut dateline) = (false, false);
            for v in [get(b"class"), get(b"id")].into_iter().flatten() {
                split_markup(v, |w| {
                    let is = |x: &[u8]| w.eq_ignore_ascii_case(x);
                    byline |= is(b"byline") || is(b"author");
                    dateline |= is(b"date")
                        || is(b"dateline")
                        || is(b"pubdate")
                        || is(b"published")
                        || is(b"posted")
                        || is(b"timestamp");
                });
            }
            if byline {
                Some(ClueKind::Byline)
            } else if dateline {
                Some(ClueKind::Dateline)
            } else {
                None
            }
        }
    })?;
    // Attribute values serve dates and `itemprop` authors; bylines are read from the text.
    match (kind, value) {
        (ClueKind::Published | ClueKind::Modified | ClueKind::Time | ClueKind::Author, Some(v))
            if !v.is_empty() =>
        {
            Some(ElementClue::Value(kind, v))
        }
        _ => Some(ElementClue::Text(kind)),
    }
}

/// Append text to a clue's value with whitespace collapsed, up to [`MAX_CLUE_BYTES`].
pub(crate) fn push_text(value: &mut Vec<u8>, bytes: &[u8]) {
    if value.len() < MAX_CLUE_BYTES {
        super::block::push_collapsed(value, &bytes[..bytes.len().min(MAX_CLUE_BYTES)]);
        value.truncate(MAX_CLUE_BYTES);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(name: &str, attrs: &str) -> Option<(ClueKind, Option<String>)> {
        element_clue(name.as_bytes(), attrs.as_bytes()).map(|c| match c {
            ElementClue::Value(k, v) => (k, Some(String::from_utf8_lossy(v).into_owned())),
            ElementClue::Text(k) => (k, None),
        })
    }

    #[test]
    fn start_tags_give_their_clues() {
        use ClueKind::*;
        let v = |k, s: &str| Some((k, Some(s.to_owned())));
        assert_eq!(
            kind("time", r#" datetime="2024-05-01""#),
            v(Time, "2024-05-01")
        );
        assert_eq!(kind("time", ""), Some((Time, None)));
        assert_eq!(
            kind("meta", r#" itemprop="datePublished" content="2024-05-01""#),
            v(Published, "2024-05-01")
        );
        assert_eq!(kind("span", r#" itemprop="author""#), Some((Author, None)));
        assert_eq!(
            kind("a", r#" href="/u/1" rel="author""#),
            Some((AuthorLink, None))
        );
        assert_eq!(kind("div", r#" class="post-byline""#), Some((Byline, None)));
        assert_eq!(
            kind("span", r#" class="entry-date""#),
            Some((Dateline, None))
        );
        assert_eq!(kind("span", r#" class="postedOn""#), Some((Dateline, None)));
        assert_eq!(kind("div", r#" class="content""#), None);
        assert_eq!(kind("div", r#" class="candidate update""#), None);
        assert_eq!(kind("p", ""), None);
    }
}

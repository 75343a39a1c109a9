//! What a page's tags say about it outside its text: the head's `<meta>` and `<base>` values
//! ([`HeadMeta`](super::HeadMeta)), the clues of `<html lang>`, `<link rel=canonical>` and
//! `<meta>` tags, and its JSON-LD scripts.

use super::clues;
use super::scan::{attributes, collapse};
use super::segmenter::Stripper;

/// Whether a `<script>` tag's attributes say it holds JSON-LD.
fn is_json_ld(attrs: &[u8]) -> bool {
    attributes(attrs).any(|(k, v)| {
        k.eq_ignore_ascii_case(b"type")
            && v.trim_ascii().eq_ignore_ascii_case(b"application/ld+json")
    })
}

/// The most JSON-LD kept per page, in bytes (the rest is ignored).
const MAX_JSON_LD: usize = 1 << 20;

impl Stripper<'_> {
    /// Record `<meta name=… content=…>` values from the head, `<base href>`, and the clues of
    /// `<html lang>`, `<link rel=canonical>` and every `<meta>`.
    pub(super) fn collect_head(&mut self, attrs_start: usize, gt: usize) {
        if self.name == b"base" && self.head.base.is_none() {
            let mut attrs = attributes(&self.raw[attrs_start..gt]);
            if let Some((_, href)) = attrs.find(|(k, _)| k.eq_ignore_ascii_case(b"href")) {
                self.head.base = Some(collapse(href));
            }
            return;
        }
        if !matches!(self.name.as_slice(), b"meta" | b"link" | b"html") {
            return;
        }
        let Some((name, content)) = self.collect_clue_tag(attrs_start, gt) else {
            return;
        };
        let slot = match name.as_slice() {
            b"keywords" => &mut self.head.keywords,
            b"description" => &mut self.head.description,
            b"author" => &mut self.head.author,
            b"og:title" => &mut self.head.og_title,
            b"og:type" => &mut self.head.og_type,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(collapse(&content));
        }
    }

    /// Record the clues of an `<html lang>`, `<link rel=canonical>` or `<meta>` tag; returns a
    /// meta tag's `name` or `property` (lower-cased) and content.
    pub(super) fn collect_clue_tag(
        &mut self,
        attrs_start: usize,
        gt: usize,
    ) -> Option<(Vec<u8>, Vec<u8>)> {
        let attrs = &self.raw[attrs_start..gt];
        let get = |key: &[u8]| {
            attributes(attrs)
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v)
        };
        let bounded = |v: &[u8]| {
            let mut v = collapse(v);
            v.truncate(clues::MAX_CLUE_BYTES);
            v
        };
        match self.name.as_slice() {
            b"html" => {
                if let Some(lang) = get(b"lang").filter(|l| !l.is_empty()) {
                    self.clues.lang.get_or_insert_with(|| bounded(lang));
                }
                None
            }
            b"link" => {
                let canonical = get(b"rel").is_some_and(|r| r.eq_ignore_ascii_case(b"canonical"));
                if canonical && let Some(href) = get(b"href").filter(|h| !h.is_empty()) {
                    self.clues.canonical.get_or_insert_with(|| bounded(href));
                }
                None
            }
            _ => {
                let content = get(b"content")?;
                let named = get(b"name").or(get(b"property"));
                let key = named.or(get(b"itemprop")).or(get(b"http-equiv"))?;
                if self.clues.meta.len() < clues::MAX_CLUES {
                    self.clues
                        .meta
                        .push((key.to_ascii_lowercase(), bounded(content)));
                }
                // The head's slots take `name` and `property` only (what the models learnt).
                named.map(|n| (n.to_ascii_lowercase(), content.to_vec()))
            }
        }
    }

    /// Keep the content (`after..close`) of a `<script>` whose attributes (at `attrs`) say it
    /// holds JSON-LD, while the page's JSON-LD stays within [`MAX_JSON_LD`] bytes.
    pub(super) fn collect_json_ld(&mut self, attrs: (usize, usize), after: usize, close: usize) {
        let raw = self.raw;
        if self.json_ld_bytes + (close - after) <= MAX_JSON_LD && is_json_ld(&raw[attrs.0..attrs.1])
        {
            self.json_ld.push(raw[after..close].to_vec());
            self.json_ld_bytes += close - after;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::document::Doctype;
    use crate::html::{ClueKind, Limits, Syntax, raw_text, segment};

    #[test]
    fn head_meta_and_doctype() {
        let raw = raw_text(b"<!DOCTYPE html><html><head><title> A  title </title><meta name=\"Description\" content=\"Desc\"><meta name=keywords content='k1, k2'></head><body>x</body>");
        let seg = segment(&raw, Limits::default(), Syntax::Html5);
        assert_eq!(seg.doctype, Doctype::Html5);
        assert_eq!(seg.head.title.as_deref(), Some(&b"A title"[..]));
        assert_eq!(seg.head.description.as_deref(), Some(&b"Desc"[..]));
        assert_eq!(seg.head.keywords.as_deref(), Some(&b"k1, k2"[..]));
        assert_eq!(seg.head.og_title, None);
    }

    #[test]
    fn og_title_and_json_ld() {
        let raw = raw_text(
            br#"<html><head><meta property="og:title" content="The  headline">
            <script type="application/ld+json">{"articleBody": "a < b"}</script>
            <script>var x = "<p>not data</p>";</script></head><body><p>x
            <script type=' application/LD+JSON '>[1]</script></body>"#,
        );
        let seg = segment(&raw, Limits::default(), Syntax::Html5);
        assert_eq!(seg.head.og_title.as_deref(), Some(&b"The headline"[..]));
        let scripts: Vec<&[u8]> = seg.json_ld.iter().map(|s| s.as_slice()).collect();
        assert_eq!(scripts, [&br#"{"articleBody": "a < b"}"#[..], b"[1]"]);
        // texrex's syntax keeps no JSON-LD.
        assert!(
            segment(&raw, Limits::default(), Syntax::Texrex)
                .json_ld
                .is_empty()
        );
    }

    #[test]
    fn clues_to_metadata_are_gathered() {
        let html = "<html lang=en-GB><head><meta property=\"og:site_name\" content=\"The Daily\">\
            <link rel=\"canonical\" href=\"https://example.org/a\"></head><body>\
            <article><h1>Head</h1><div class=\"post-byline\">By <a rel=author href=/u>Jane   Doe</a></div>\
            <time datetime=\"2024-05-01T10:00:00Z\">1 May</time><span class=entry-date>May 1, 2024</span>\
            <meta itemprop=\"dateModified\" content=\"2024-05-02\"><p>Text</p></article></body></html>";
        let raw = raw_text(html.as_bytes());
        let c = segment(&raw, Limits::default(), Syntax::Html5).clues;
        let s = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
        assert_eq!(c.lang.as_deref().map(s), Some("en-GB".into()));
        assert_eq!(
            c.canonical.as_deref().map(s),
            Some("https://example.org/a".into())
        );
        let meta: Vec<(String, String)> = c.meta.iter().map(|(k, v)| (s(k), s(v))).collect();
        assert_eq!(
            meta,
            [
                ("og:site_name".into(), "The Daily".into()),
                ("datemodified".into(), "2024-05-02".into())
            ]
        );
        let found: Vec<(ClueKind, String, bool)> = c
            .found
            .iter()
            .map(|c| (c.what, s(&c.value).trim().to_owned(), c.text))
            .collect();
        assert_eq!(
            found,
            [
                (ClueKind::Byline, "By Jane Doe".into(), true),
                (ClueKind::AuthorLink, "Jane Doe".into(), true),
                (ClueKind::Time, "2024-05-01T10:00:00Z".into(), false),
                (ClueKind::Dateline, "May 1, 2024".into(), true),
            ]
        );
        // texrex's scanner gathers none of the body's clues.
        assert!(
            segment(&raw, Limits::default(), Syntax::Texrex)
                .clues
                .found
                .is_empty()
        );
    }
}

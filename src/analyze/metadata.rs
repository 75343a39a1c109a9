//! A page's metadata: its headline, author, publication and modification dates, site name,
//! canonical URL and declared language, from what its markup says of it ([`Clues`]),
//! its JSON-LD and its headings, each in a documented order of evidence (the first that gives
//! a usable value wins):
//!
//! - **title** (the headline): the first of the page's first three `h1`s that its own
//!   statements confirm (its words are, at word boundaries, in the JSON-LD headline,
//!   `og:title`, `twitter:title` or `<title>`); else the JSON-LD headline (of the page's main
//!   item: an article or posting, else a product, recipe, …, or a question when it is the
//!   page's only one, by its `name`), `og:title`, `twitter:title`, `<title>`, each without the
//!   site name and a tagline; else the first `h1`. Of a title's parts between separators
//!   (`|`, and ` - `, `–`, `—`, `·`, `•`, `::`, `»` between spaces), those that name the site
//!   (the site name, or words all found in the host name) go from its start and end; then
//!   the last part when it has at most 5 words and 10 characters stay before it (`Mesh
//!   Office Chair | NBF`, `… | Reviews, Features, Pricing`), and the first part when it has
//!   at most 2 words and under 20 characters and the rest is longer (`View topic - …`).
//! - **author**: the JSON-LD `author` (or `creator`) of the main item (names of persons,
//!   joined by `, `); `<meta>` `author`, `article:author`, `dc.creator`, `citation_author`,
//!   `parsely-author`, `sailthru.author`, `byl`, and `twitter:data1` where `twitter:label1`
//!   says "by" or "author" ("Written by", "Interview by"); an `itemprop="author"` element; a
//!   `rel="author"` link; an element whose `class` or `id` says byline or author; a short
//!   block near the first `h1` that starts like a byline ("By …", "Written by …"); the
//!   JSON-LD author that is an organisation. A value that is the site's name
//!   (`og:site_name`, the JSON-LD `WebSite` or publisher) is taken only when no other value
//!   gives a name. A value is cleaned of a byline's start ("By", "Posted by"), of dates (also
//!   glued to the name: `Dec 17, 2025Jane Doe`), cut at a separator or a word that ends a name
//!   (`on`, `updated`), and dropped when it does not look like a name or a list of names: it
//!   does not start with a letter; it has more than 8 words or 80 characters (a list: a name
//!   of more than 5 words or 60 characters, more than 20 names); characters names do not
//!   have (`*`, `=`, `<`, `#`), a time of day, a URL; only label words and numbers
//!   ("Author", "View more posts", "5 min read"); an admin account ("NOC Admin"); or it ends
//!   like a comment's ("Jane says").
//! - Values from JSON-LD and `<meta>` have the character references left in them decoded
//!   (`&amp;`, `&#038;`).
//! - **published**: the JSON-LD `datePublished` (or `dateCreated`) of the main item;
//!   `<meta>` `article:published_time` and the other publication-date names
//!   ([`PUBLISHED_META`]); an `itemprop="datePublished"` element; the first `<time>`; a date
//!   in the URL (`/2024/05/17/`, `/2024-05-17`, `/20240517/`); a date written in an element
//!   whose `class` or `id` says date, published or posted, then in a byline; a date written
//!   in a short block near the first `h1` (the 6 blocks after it, then the 3 before).
//! - **modified**: the JSON-LD `dateModified`; `<meta>` `article:modified_time`,
//!   `og:updated_time`, `dateModified`, `dcterms.modified`, `last-modified`; an
//!   `itemprop="dateModified"` element.
//! - **sitename**: `og:site_name`; the JSON-LD `WebSite`'s or publisher's `name`;
//!   `application-name`.
//! - **canonical**: `<link rel=canonical>`, else `og:url`, resolved against the page's URL
//!   (http and https only).
//! - **declared language**: `<html lang>`, else `<meta http-equiv=content-language>`.
//!
//! Dates are ISO 8601: `YYYY-MM-DD`, with the time and offset when the page gives both
//! (`2024-05-17T10:30:00+02:00`). Dates are read as ISO 8601 / RFC 3339, RFC 2822, `YYYYMMDD`,
//! `YYYY/MM/DD`, `DD.MM.YYYY`, English month names (`May 17, 2024`, `17 May 2024`), and
//! `MM/DD/YYYY` or `DD/MM/YYYY` only where the day is over 12 (`01/02/2024` is ambiguous and
//! gives no date). Impossible dates (`31/02`), dates before 1990 and dates after the record's
//! own date (`WARC-Date`, else the HTTP `Date`) give none.

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate};
use serde_json::Value;
use std::sync::LazyLock;

use crate::document::{Kind, Metadata};
use crate::html::{ClueKind, Clues};

/// What [`find`] reads: the page's clues with their values decoded to text (entities decoded,
/// whitespace collapsed), its JSON-LD, `<title>`, `h1` texts, URL and the record's date.
#[derive(Debug, Clone, Default)]
pub struct Sources<'a> {
    /// `<meta>` names (lower-case) and contents.
    pub meta: Vec<(String, String)>,
    /// `<link rel=canonical href>`.
    pub canonical: Option<String>,
    /// `<html lang>`.
    pub lang: Option<String>,
    /// The body's clues ([`crate::html::Clue`]): kind, value, and whether the value is text.
    pub found: Vec<(ClueKind, String, bool)>,
    /// The page's JSON-LD scripts that parse.
    pub(crate) json_ld: &'a [Value],
    /// The `<title>` element.
    pub title: Option<&'a str>,
    /// `<meta name=description>` of the head.
    pub description: Option<&'a str>,
    /// The page's blocks: kind and text, in order.
    pub blocks: Vec<(Kind, &'a str)>,
    /// The page's URL.
    pub url: &'a str,
    /// The record's date (`WARC-Date`, else the HTTP `Date`), as the record gives it.
    pub(crate) record_date: Option<&'a str>,
}

impl Sources<'_> {
    /// Decode a page's clues with `text` (bytes of the page's encoding to text, entities
    /// decoded, whitespace collapsed).
    pub(crate) fn read_clues(&mut self, clues: &Clues, mut text: impl FnMut(&[u8]) -> String) {
        self.meta = clues
            .meta
            .iter()
            .map(|(k, v)| (String::from_utf8_lossy(k).into_owned(), text(v)))
            .collect();
        self.canonical = clues.canonical.as_deref().map(&mut text);
        self.lang = clues.lang.as_deref().map(&mut text);
        self.found = clues
            .found
            .iter()
            .map(|c| (c.what, text(&c.value), c.text))
            .collect();
    }

    fn meta(&self, names: &[&str]) -> impl Iterator<Item = &str> {
        names.iter().flat_map(move |n| {
            self.meta
                .iter()
                .filter(move |(k, v)| k == n && !v.is_empty())
                .map(|(_, v)| v.as_str())
        })
    }

    /// Short blocks (at most 120 characters) near the first `h1`: the 3 before it and the 6
    /// after it, nearest first; where a dateline is written without markup to tell.
    fn near_headline(&self) -> impl Iterator<Item = &str> {
        let at = self.blocks.iter().position(|(k, _)| *k == Kind::Heading(1));
        let order: Vec<usize> = match at {
            Some(h) => (h + 1..self.blocks.len().min(h + 7))
                .chain((h.saturating_sub(3)..h).rev())
                .collect(),
            None => Vec::new(),
        };
        order
            .into_iter()
            .map(|i| self.blocks[i].1)
            .filter(|t| t.chars().count() <= 120)
    }

    fn found(&self, kind: ClueKind) -> impl Iterator<Item = (&str, bool)> {
        self.found
            .iter()
            .filter(move |(k, v, _)| *k == kind && !v.is_empty())
            .map(|(_, v, text)| (v.as_str(), *text))
    }
}

/// `<meta>` names of a publication date, most specific first.
pub const PUBLISHED_META: [&str; 23] = [
    "article:published_time",
    "published",
    "og:published_time",
    "datepublished",
    "datecreated",
    "publishdate",
    "publish-date",
    "publish_date",
    "published_time",
    "pubdate",
    "article.published",
    "citation_publication_date",
    "citation_date",
    "citation_online_date",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date",
    "dcterms.date",
    "dcterms.created",
    "parsely-pub-date",
    "sailthru.date",
    "release_date",
    "date",
];

const MODIFIED_META: [&str; 6] = [
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dcterms.modified",
    "last-modified",
    "lastmod",
];

const AUTHOR_META: [&str; 8] = [
    "author",
    "article:author",
    "dc.creator",
    "dcterms.creator",
    "citation_author",
    "parsely-author",
    "sailthru.author",
    "byl",
];

/// Find a page's metadata in its evidence.
pub fn find(e: &Sources<'_>) -> Metadata {
    let ld = JsonLd::of(e.json_ld);
    let limit = e.record_date.and_then(parse_date).map(|d| d.date);
    let date = |s: &str| parse_date(s).filter(|d| in_range(d.date, limit));
    let text_date = |s: &str| find_date(s).filter(|d| in_range(d.date, limit));

    let sitename = e
        .meta(&["og:site_name"])
        .chain(ld.sitename.as_deref())
        .chain(e.meta(&["application-name"]))
        .map(clean_text)
        .find(|s| !s.is_empty() && s.chars().count() <= 100);
    let title = headline(e, &ld, sitename.as_deref());

    let sitenames: Vec<String> = e
        .meta(&["og:site_name", "application-name"])
        .chain(ld.sitename.as_deref())
        .map(normalise)
        .filter(|s| !s.is_empty())
        .collect();
    // A name that is the site's (`USA TODAY`) is the publisher's: taken only when nothing
    // else names an author.
    let names_site = |a: &str| {
        let n = normalise(a);
        sitenames.contains(&n)
    };
    let by_label = e.meta(&["twitter:label1"]).next().is_some_and(|l| {
        normalise(l)
            .split(' ')
            .any(|w| matches!(w, "by" | "author" | "authors" | "writer"))
    });
    let mut publisher = None;
    let author = ld
        .author
        .iter()
        .map(String::as_str)
        .chain(e.meta(&AUTHOR_META).filter(|v| !is_url(v)))
        // `twitter:data1` where `twitter:label1` says it is the author ("Written by").
        .chain(e.meta(&["twitter:data1"]).filter(|_| by_label))
        .chain(e.found(ClueKind::Author).map(|(v, _)| v))
        .chain(e.found(ClueKind::AuthorLink).map(|(v, _)| v))
        .chain(e.found(ClueKind::Byline).map(|(v, _)| v))
        .chain(e.near_headline().filter(|t| BYLINE.is_match(t)))
        .chain(ld.organisations.iter().map(String::as_str))
        .filter_map(clean_author)
        .find(|a| {
            let site = names_site(a);
            if site && publisher.is_none() {
                publisher = Some(a.clone());
            }
            !site
        })
        .or(publisher);

    let published = ld
        .published
        .iter()
        .map(String::as_str)
        .chain(e.meta(&PUBLISHED_META))
        .chain(e.found(ClueKind::Published).map(|(v, _)| v))
        .find_map(date)
        .or_else(|| {
            e.found(ClueKind::Published)
                .chain(e.found(ClueKind::Time))
                .find_map(|(v, text)| if text { text_date(v) } else { date(v) })
        })
        .or_else(|| url_date(e.url).filter(|d| in_range(d.date, limit)))
        .or_else(|| {
            e.found(ClueKind::Dateline)
                .chain(e.found(ClueKind::Byline))
                .find_map(|(v, _)| text_date(v))
        })
        .or_else(|| e.near_headline().find_map(text_date));
    let modified = ld
        .modified
        .iter()
        .map(String::as_str)
        .chain(e.meta(&MODIFIED_META))
        .chain(e.found(ClueKind::Modified).map(|(v, _)| v))
        .find_map(|v| date(v).or_else(|| text_date(v)));

    let canonical = e
        .canonical
        .as_deref()
        .into_iter()
        .chain(e.meta(&["og:url"]))
        .find_map(|u| absolute_url(e.url, u));
    let declared_language = e
        .lang
        .as_deref()
        .into_iter()
        .chain(e.meta(&["content-language"]))
        .map(str::trim)
        .find(|l| !l.is_empty() && l.len() <= 35)
        .map(str::to_owned);
    let description = e
        .description
        .into_iter()
        .chain(e.meta(&["og:description"]))
        .map(clean_text)
        .find(|d| !d.is_empty());
    Metadata {
        title,
        author,
        published: published.map(|d| d.iso()),
        modified: modified.map(|d| d.iso()),
        sitename,
        canonical,
        description,
        declared_language,
    }
}

/// The headline (the module's documentation gives the order).
fn headline(e: &Sources<'_>, ld: &JsonLd, sitename: Option<&str>) -> Option<String> {
    let statements: Vec<String> = ld
        .headline
        .iter()
        .map(String::as_str)
        .chain(e.meta(&["og:title", "twitter:title"]))
        .chain(e.title)
        .map(clean_text)
        .filter(|s| !s.is_empty())
        .collect();
    let host = crate::document::host_and_tld(e.url).0;
    let h1: Vec<&str> = e
        .blocks
        .iter()
        .filter(|(k, _)| *k == Kind::Heading(1))
        .map(|(_, t)| *t)
        .collect();
    let confirmed = h1.iter().take(3).map(|h| clean_text(h)).find(|h| {
        let n = normalise(h);
        !n.is_empty()
            && !is_site_name(h, sitename, &host)
            && statements.iter().any(|s| has_words(&normalise(s), &n))
    });
    let bare = |t: &str| without_tagline(&without_site_name(t, sitename, &host)).to_owned();
    confirmed
        .or_else(|| ld.headline.as_deref().map(bare))
        .or_else(|| e.meta(&["og:title", "twitter:title"]).map(bare).next())
        .or_else(|| e.title.map(bare))
        .or_else(|| h1.first().map(|h| clean_text(h)))
        .filter(|t| !t.is_empty())
        .map(|t| truncate_chars(t, 500))
}

/// What the JSON-LD says of the page's main item.
#[derive(Debug, Default)]
struct JsonLd {
    headline: Option<String>,
    author: Vec<String>,
    organisations: Vec<String>,
    published: Vec<String>,
    modified: Vec<String>,
    sitename: Option<String>,
}

impl JsonLd {
    fn of(scripts: &[Value]) -> JsonLd {
        // Items by rank: 0 an article or posting, 1 another main item (product, question, …),
        // 2 a web page.
        let mut items: Vec<(u8, &serde_json::Map<String, Value>)> = Vec::new();
        let mut sitename = None;
        let mut stack: Vec<&Value> = scripts.iter().rev().collect();
        let mut seen = 0;
        while let Some(v) = stack.pop() {
            seen += 1;
            if seen > 10_000 {
                break;
            }
            match v {
                Value::Array(a) => stack.extend(a.iter().rev()),
                Value::Object(o) => {
                    let types = types(o);
                    let rank = types.iter().filter_map(|t| rank(t)).min();
                    if let Some(r) = rank {
                        items.push((r, o));
                    }
                    if sitename.is_none() {
                        let named = |o: &serde_json::Map<String, Value>| {
                            o.get("name").and_then(Value::as_str).map(str::to_owned)
                        };
                        if types.iter().any(|t| t == "WebSite") {
                            sitename = named(o);
                        } else if let Some(Value::Object(p)) = o.get("publisher") {
                            sitename = named(p);
                        }
                    }
                    // The items of a graph and an item's main entity after this one (not its
                    // reviews, answers, comments or parts).
                    for key in ["mainEntity", "@graph"] {
                        if let Some(v) = o.get(key) {
                            stack.push(v);
                        }
                    }
                }
                _ => {}
            }
        }
        // Several questions are a page's FAQ, not its main item (a QAPage has one).
        let is_question =
            |o: &serde_json::Map<String, Value>| types(o).iter().any(|t| t == "Question");
        if items.iter().filter(|(_, o)| is_question(o)).count() > 1 {
            items.retain(|(_, o)| !is_question(o));
        }
        items.sort_by_key(|&(rank, _)| rank);
        let first = |f: &dyn Fn(&serde_json::Map<String, Value>) -> Vec<String>| {
            items
                .iter()
                .map(|(_, o)| f(o))
                .find(|v| !v.is_empty())
                .unwrap_or_default()
        };
        let strings = |keys: &'static [&'static str]| {
            move |o: &serde_json::Map<String, Value>| -> Vec<String> {
                keys.iter()
                    .filter_map(|k| o.get(*k).and_then(Value::as_str))
                    .map(str::to_owned)
                    .collect()
            }
        };
        let headline = items
            .iter()
            .find_map(|&(rank, o)| {
                let keys: &[&str] = if rank == 0 {
                    &["headline", "name"]
                } else {
                    &["name", "headline"]
                };
                keys.iter().find_map(|k| o.get(*k).and_then(Value::as_str))
            })
            .map(str::to_owned);
        JsonLd {
            headline,
            author: first(&|o| names(o.get("author").or_else(|| o.get("creator"))).0),
            organisations: first(&|o| names(o.get("author").or_else(|| o.get("creator"))).1),
            published: first(&strings(&["datePublished", "dateCreated"])),
            modified: first(&strings(&["dateModified"])),
            sitename,
        }
    }
}

/// An item's `@type`s.
fn types(o: &serde_json::Map<String, Value>) -> Vec<String> {
    let short = |s: &str| s.rsplit('/').next().unwrap_or(s).to_owned();
    match o.get("@type") {
        Some(Value::String(s)) => vec![short(s)],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(short).collect(),
        _ => Vec::new(),
    }
}

/// The rank of an item's type as the page's main item (lower is likelier).
fn rank(t: &str) -> Option<u8> {
    match t {
        "BlogPosting"
        | "Report"
        | "SocialMediaPosting"
        | "DiscussionForumPosting"
        | "LiveBlogPosting"
        | "Review" => Some(0),
        t if t.ends_with("Article") => Some(0),
        "Product"
        | "Question"
        | "Recipe"
        | "HowTo"
        | "Event"
        | "Course"
        | "Book"
        | "Movie"
        | "SoftwareApplication"
        | "JobPosting"
        | "VideoObject"
        | "PodcastEpisode"
        | "CreativeWork" => Some(1),
        t if t.ends_with("Page") => Some(2),
        _ => None,
    }
}

/// Names of an `author` value (strings that are not URLs, `name`s of objects, in arrays
/// too), each cleaned ([`clean_author`]): those of persons joined by `, `, and apart those of
/// organisations (an object whose `@type` is an `…Organization`, `Corporation` or `Brand`).
fn names(v: Option<&Value>) -> (Vec<String>, Vec<String>) {
    let (mut persons, mut organisations) = (Vec::new(), Vec::new());
    let mut one = |v: &Value| match v {
        Value::String(s) if !is_url(s) => persons.extend(clean_author(s)),
        Value::Object(o) => {
            let organisation = types(o)
                .iter()
                .any(|t| t.ends_with("Organization") || t == "Corporation" || t == "Brand");
            let name = o.get("name").and_then(Value::as_str).and_then(clean_author);
            if organisation {
                organisations.extend(name);
            } else {
                persons.extend(name);
            }
        }
        _ => {}
    };
    match v {
        Some(Value::Array(a)) => a.iter().take(20).for_each(&mut one),
        Some(v) => one(v),
        None => {}
    }
    let joined = |names: Vec<String>| {
        if names.is_empty() {
            names
        } else {
            vec![names.join(", ")]
        }
    };
    (joined(persons), joined(organisations))
}

fn is_url(s: &str) -> bool {
    let s = s.trim_start();
    s.starts_with("http://")
        || s.starts_with("https://")
        || s.starts_with("www.")
        || s.starts_with('/')
}

/// Text with character references decoded (JSON-LD strings are not decoded by the HTML
/// parser, and `<meta>` values are often escaped twice: `Q&amp;amp;A`), whitespace collapsed
/// and trimmed.
fn clean_text(s: &str) -> String {
    let decoded;
    let s = if s.contains('&') {
        decoded = crate::features::texrex::unescape(s);
        decoded.as_str()
    } else {
        s
    };
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn truncate_chars(s: String, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => s[..i].to_owned(),
        None => s,
    }
}

/// Lower-cased words joined by single spaces, for comparing texts.
fn normalise(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Separators of a title's parts: `|`, and ` - `, `–`, `—`, `·`, `•`, `::`, `»` between spaces.
static SEPARATORS: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"\s+(?:[|·•»–—]|::|-{1,2})\s+|\s*\|\s*").expect("valid pattern")
});

/// The parts of a title between [`SEPARATORS`].
fn title_parts(title: &str) -> Vec<&str> {
    SEPARATORS.split(title).filter(|p| !p.is_empty()).collect()
}

/// A title without a short part that pages add to a headline: its last part after a
/// separator when it has at most 5 words (a site or section name, a tagline: `Mesh Office
/// Chair | NBF`, `… | Reviews, Features, Pricing`) and at least 10 characters stay before
/// it; then its first part when it has at most 2 words and under 20 characters (`View topic
/// - …`) and the rest is longer.
fn without_tagline(title: &str) -> &str {
    let seps: Vec<(usize, usize)> = SEPARATORS
        .find_iter(title)
        .map(|m| (m.start(), m.end()))
        .collect();
    let words = |s: &str| s.split_whitespace().count();
    let chars = |s: &str| s.chars().count();
    let mut end = title.len();
    if let Some(&(s, e)) = seps.last()
        && words(&title[e..]) <= 5
        && chars(&title[..s]) >= 10
    {
        end = s;
    }
    let mut start = 0;
    if let Some(&(s, e)) = seps.first()
        && e <= end
    {
        let (head, rest) = (&title[..s], &title[e..end]);
        if words(head) <= 2 && chars(head) < 20 && chars(rest) > chars(head) {
            start = e;
        }
    }
    title[start..end].trim()
}

/// Whether `text` has `words` (both normalised) at word boundaries.
fn has_words(text: &str, words: &str) -> bool {
    format!(" {text} ").contains(&format!(" {words} "))
}

/// A title without the site name: of its parts between separators ([`title_parts`]), those
/// that name the site (the site name, or words all found in the host name) are dropped from
/// its start and end.
fn without_site_name(title: &str, sitename: Option<&str>, host: &str) -> String {
    let title = clean_text(title);
    let parts = title_parts(&title);
    if parts.len() < 2 {
        return title;
    }
    let is_site = |p: &str| is_site_name(p, sitename, host);
    let (mut lo, mut hi) = (0, parts.len());
    while hi - lo > 1 && is_site(parts[hi - 1]) {
        hi -= 1;
    }
    while hi - lo > 1 && is_site(parts[lo]) {
        lo += 1;
    }
    if (lo, hi) == (0, parts.len()) {
        return title;
    }
    // The kept parts as the title wrote them, separators included.
    let start = title.find(parts[lo]).unwrap_or(0);
    let last = parts[hi - 1];
    let end = title[start..]
        .find(last)
        .map_or(title.len(), |i| start + i + last.len());
    title[start..end].to_owned()
}

/// Whether a text names the site: it is empty of words, is (or is in, or holds) the site
/// name, is the host name without its dots, or all its words are labels of the host name.
fn is_site_name(text: &str, sitename: Option<&str>, host: &str) -> bool {
    let n = normalise(text);
    if n.is_empty() {
        return true;
    }
    let squashed: String = n.chars().filter(|c| c.is_alphanumeric()).collect();
    let squashed_host: String = host.chars().filter(|c| c.is_alphanumeric()).collect();
    sitename
        .map(normalise)
        .is_some_and(|s| !s.is_empty() && (s.contains(&n) || n.contains(&s)))
        || (squashed.len() >= 3 && squashed_host.contains(&squashed))
        || n.split(' ')
            .all(|w| host.split('.').any(|label| label == w))
}

/// A byline's start: "By", "Written by", "Author:" and the like, in a few languages; "Posted
/// by" also glued to the name ("Posted byJane Doe", the name kept as group 1).
static BYLINE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)^(?:(?:(?:written|posted|published|reviewed|edited|authored|article|words|story)\s+by|by|author|authors|von|par|door|av)(?:\s*:\s*|\s+)|(?:written|posted|published|reviewed|edited|authored)\s+by((?-i:\p{Lu})))",
    )
    .expect("valid pattern")
});

/// An author's name (or several, separated by `, ` or `; `) from a value, or none when it
/// does not look like one. The value is cleaned of a byline's start ([`BYLINE`]) and of
/// dates, even glued to the name (`Dec 17, 2025Jane Doe`, `Jane Doe2022-11-23T08:10`: the
/// first piece between dates that has a word is kept), then cut at a separator (` - `, `|`,
/// `•`, …), a numeric date, or a word that ends a name (`on`, `posted`, `updated`). It is
/// dropped when it does not start with a letter; is longer than 8 words or 80 characters (a
/// list: more than 20 names, 400 characters, or a name of more than 5 words or 60
/// characters); has characters names do not have (`*`, `=`, `<`, `#`, …), a time of day, a
/// URL; has only label words and numbers ("Author", "View more posts", "5 min read"); names
/// an admin account ("NOC Admin"); or ends like a comment's ("Jane says").
fn clean_author(v: &str) -> Option<String> {
    static DATE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?ix)
            (?:\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?
            (?: (?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?
                  |sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)
                \.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}
              | \b\d{1,2}(?:st|nd|rd|th)?\.?\s+
                (?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?
                  |sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)
                \.?,?\s+\d{4}
              | \d{4}-\d{2}-\d{2}(?:[T\s][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?
              | \b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b )",
        )
        .expect("valid pattern")
    });
    static TIME: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"\d:\d\d").expect("valid pattern"));
    static CUT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\s+(?:[-–—]|on|published|posted)\s+|(?:last\s+)?updated?\b|\s+\d{1,4}[./-]\d|\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|[|•·●⋅∙▪]",
        )
        .expect("valid pattern")
    });
    const LABELS: [&str; 20] = [
        "author",
        "authors",
        "by",
        "written",
        "posted",
        "published",
        "updated",
        "article",
        "view",
        "more",
        "posts",
        "post",
        "profile",
        "read",
        "min",
        "share",
        "follow",
        "about",
        "your",
        "name",
    ];
    let trim = |s: &str| -> String {
        s.trim_matches(|c: char| c.is_whitespace() || ",;:|&-–—·•*".contains(c))
            .to_owned()
    };
    let v = clean_text(v);
    let v = BYLINE.replace(&v, "$1");
    // The first piece between dates that has a word.
    let v = DATE.split(&v).find(|p| !trim(p).is_empty()).unwrap_or("");
    let v = trim(CUT.split(v).next().unwrap_or(""));
    let words: Vec<String> = v
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    static NAMES: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"[,;]\s+").expect("valid pattern"));
    let names: Vec<&str> = NAMES.split(&v).filter(|n| !n.is_empty()).collect();
    let chars = |s: &str| s.chars().count();
    let short = if names.len() > 1 {
        names.len() <= 20
            && chars(&v) <= 400
            && names
                .iter()
                .all(|n| n.split_whitespace().count() <= 5 && chars(n) <= 60)
    } else {
        words.len() <= 8 && chars(&v) <= 80
    };
    // Label words, and numbers ("5 min read", "10mins read").
    let label = |w: &String| {
        LABELS.contains(&w.as_str())
            || w.starts_with(|c: char| c.is_ascii_digit())
                && w.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                    .bytes()
                    .all(|b| b.is_ascii_digit())
    };
    let ok = short
        && v.starts_with(char::is_alphabetic)
        && !v.contains(['*', '=', '<', '>', '{', '}', '#'])
        && !TIME.is_match(&v)
        && !is_url(&v)
        && !v.contains("://")
        && !words.iter().all(label)
        && !words
            .iter()
            .any(|w| matches!(w.as_str(), "admin" | "administrator" | "webmaster"))
        && !matches!(words.last().map(String::as_str), Some("says" | "wrote"));
    ok.then_some(v)
}

/// A date found in a value, with its time and offset when the value gives both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Found {
    date: NaiveDate,
    at: Option<DateTime<FixedOffset>>,
}

impl Found {
    fn day(date: NaiveDate) -> Found {
        Found { date, at: None }
    }

    /// ISO 8601: the date, or the date, time and offset.
    fn iso(&self) -> String {
        match self.at {
            Some(t) => t.format("%Y-%m-%dT%H:%M:%S%:z").to_string(),
            None => self.date.format("%Y-%m-%d").to_string(),
        }
    }
}

/// Dates from 1990 up to the record's own date.
fn in_range(date: NaiveDate, limit: Option<NaiveDate>) -> bool {
    date.year() >= 1990 && limit.is_none_or(|l| date <= l)
}

/// A value that is a date as a whole (machine-readable forms, or a date in words).
fn parse_date(s: &str) -> Option<Found> {
    let s = s.trim();
    if s.len() > 64 {
        return None;
    }
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(Found {
            date: t.date_naive(),
            at: Some(t),
        });
    }
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f%z",
        "%Y-%m-%dT%H:%M%z",
        "%Y-%m-%d %H:%M:%S%.f%z",
    ] {
        if let Ok(t) = DateTime::parse_from_str(s, f) {
            return Some(Found {
                date: t.date_naive(),
                at: Some(t),
            });
        }
    }
    if let Ok(t) = DateTime::parse_from_rfc2822(s) {
        return Some(Found {
            date: t.date_naive(),
            at: Some(t),
        });
    }
    if s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit()) {
        return NaiveDate::parse_from_str(s, "%Y%m%d").ok().map(Found::day);
    }
    // A date and a time without an offset: the date.
    if let Some(day) = s.get(..10)
        && matches!(s.as_bytes().get(10), Some(b'T' | b' '))
        && let Ok(date) = NaiveDate::parse_from_str(day, "%Y-%m-%d")
    {
        return Some(Found::day(date));
    }
    find_date(s)
}

/// The first date written in a text: ISO (`2024-05-17`, also with `/` or `.`), `DD.MM.YYYY`,
/// English month names, or `MM/DD/YYYY` / `DD/MM/YYYY` where the day is over 12. An ISO date,
/// and the year after a month name, may be glued to letters (inline elements' texts run
/// together: `Jane Doe2022-11-23T08:10`, `Dec 17, 2025Jane Doe`), not to other digits.
fn find_date(s: &str) -> Option<Found> {
    static DATE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?ix)
            (?:^|\D)(?P<iy>\d{4})[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})(?:\D|$)
            | \b(?P<ed>\d{1,2})\.\s?(?P<em>\d{1,2})\.\s?(?P<ey>\d{4})\b
            | \b(?P<na>\d{1,2})/(?P<nb>\d{1,2})/(?P<ny>\d{4})\b
            | \b(?P<md>\d{1,2})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?(?P<mm>[a-z]{3,9})\.?,?\s+(?P<my>\d{4})(?:\D|$)
            | \b(?P<wm>[a-z]{3,9})\.?\s+(?P<wd>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<wy>\d{4})(?:\D|$)",
        )
        .expect("valid pattern")
    });
    let num = |m: Option<regex::Match<'_>>| m.and_then(|m| m.as_str().parse::<u32>().ok());
    for c in DATE.captures_iter(s).take(8) {
        let ymd = if let (Some(y), Some(m), Some(d)) =
            (num(c.name("iy")), num(c.name("im")), num(c.name("id")))
        {
            Some((y, m, d))
        } else if let (Some(d), Some(m), Some(y)) =
            (num(c.name("ed")), num(c.name("em")), num(c.name("ey")))
        {
            Some((y, m, d))
        } else if let (Some(a), Some(b), Some(y)) =
            (num(c.name("na")), num(c.name("nb")), num(c.name("ny")))
        {
            // Only where one of the two can only be the day.
            match (a > 12, b > 12) {
                (true, false) => Some((y, b, a)),
                (false, true) => Some((y, a, b)),
                _ => None,
            }
        } else if let (Some(d), Some(m), Some(y)) = (
            num(c.name("md")),
            c.name("mm").and_then(|m| month(m.as_str())),
            num(c.name("my")),
        ) {
            Some((y, m, d))
        } else if let (Some(m), Some(d), Some(y)) = (
            c.name("wm").and_then(|m| month(m.as_str())),
            num(c.name("wd")),
            num(c.name("wy")),
        ) {
            Some((y, m, d))
        } else {
            None
        };
        if let Some((y, m, d)) = ymd
            && let Some(date) = NaiveDate::from_ymd_opt(y as i32, m, d)
        {
            return Some(Found::day(date));
        }
    }
    None
}

/// An English month name or its abbreviation.
fn month(name: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let n = name.to_ascii_lowercase();
    let n = if n == "sept" { "sep".to_owned() } else { n };
    MONTHS
        .iter()
        .position(|m| {
            n.len() >= 3 && m.starts_with(n.as_str()) && (n.len() == 3 || n.len() == m.len())
        })
        .map(|i| i as u32 + 1)
}

/// A date in a URL's path: `/2024/05/17/`, `/2024-05-17`, `/20240517/`.
fn url_date(url: &str) -> Option<Found> {
    static PATH: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"/((?:19|20)\d{2})[/_-]?(\d{2})[/_-]?(\d{2})(?:[/_.-]|$)")
            .expect("valid pattern")
    });
    let path = url.split_once("://").map_or(url, |(_, r)| r);
    let path = &path[path.find('/').unwrap_or(path.len())..];
    let path = path.split(['?', '#']).next().unwrap_or("");
    let c = PATH.captures(path)?;
    let n = |i: usize| c[i].parse::<u32>().ok();
    NaiveDate::from_ymd_opt(n(1)? as i32, n(2)?, n(3)?).map(Found::day)
}

/// A link resolved against the page's URL, http or https only.
fn absolute_url(base: &str, link: &str) -> Option<String> {
    let link = link.trim();
    let resolved = match url::Url::parse(base) {
        Ok(b) => b.join(link).ok()?,
        Err(_) => url::Url::parse(link).ok()?,
    };
    matches!(resolved.scheme(), "http" | "https").then(|| resolved.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn dates_are_read_in_their_forms_and_bounded() {
        let d = |s: &str| parse_date(s).map(|f| f.iso());
        assert_eq!(d("2024-05-17"), Some("2024-05-17".into()));
        assert_eq!(
            d("2024-05-17T10:30:00+02:00"),
            Some("2024-05-17T10:30:00+02:00".into())
        );
        assert_eq!(
            d("2024-05-17T10:30:00Z"),
            Some("2024-05-17T10:30:00+00:00".into())
        );
        assert_eq!(
            d("2024-05-17T10:30:00.123+0200"),
            Some("2024-05-17T10:30:00+02:00".into())
        );
        assert_eq!(d("2024-05-17T10:30:00"), Some("2024-05-17".into()));
        assert_eq!(
            d("Tue, 28 Jul 2015 10:00:00 GMT"),
            Some("2015-07-28T10:00:00+00:00".into())
        );
        assert_eq!(d("20240517"), Some("2024-05-17".into()));
        assert_eq!(d("May 17, 2024"), Some("2024-05-17".into()));
        assert_eq!(d("17th of Sept. 2024"), Some("2024-09-17".into()));
        assert_eq!(d("17.05.2024"), Some("2024-05-17".into()));
        assert_eq!(d("05/17/2024"), Some("2024-05-17".into()));
        assert_eq!(d("17/05/2024"), Some("2024-05-17".into()));
        // Ambiguous, impossible, or not a date.
        assert_eq!(d("01/02/2024"), None);
        assert_eq!(d("01/02/03"), None);
        assert_eq!(d("31/02/2024"), None);
        assert_eq!(d("2024-02-31"), None);
        assert_eq!(d("Mayday 17, 2024"), None);
        assert_eq!(d("yesterday"), None);
        assert_eq!(
            find_date("Posted by Jane on March 3, 2021 at 10:00").map(|f| f.iso()),
            Some("2021-03-03".into())
        );
        let found = |s: &str| find_date(s).map(|f| f.iso());
        assert_eq!(found("Dec 17, 2025Jane Doe"), Some("2025-12-17".into()));
        assert_eq!(
            found("Jane Doe2022-11-23T08:10+02:00"),
            Some("2022-11-23".into())
        );
        assert_eq!(found("Dec 17, 20236:01 PM"), None);
        assert_eq!(found("item 12024-05-17"), None);
        assert_eq!(
            url_date("https://x.org/2024/05/17/story").map(|f| f.iso()),
            Some("2024-05-17".into())
        );
        assert_eq!(
            url_date("https://x.org/news/20240517-story").map(|f| f.iso()),
            Some("2024-05-17".into())
        );
        assert_eq!(url_date("https://x.org/item/20241399/"), None);
        assert_eq!(url_date("https://x.org/?d=2024/05/17"), None);
        // Never after the record's date, never before 1990.
        let e = Sources {
            meta: meta(&[
                ("article:published_time", "2031-01-01"),
                ("date", "1985-01-01"),
                ("dc.date", "2020-02-02"),
            ]),
            record_date: Some("2024-05-01T00:00:00Z"),
            ..Sources::default()
        };
        assert_eq!(find(&e).published.as_deref(), Some("2020-02-02"));
    }

    #[test]
    fn evidence_in_its_order() {
        let ld: Vec<Value> = vec![
            serde_json::json!({"@context": "https://schema.org", "@graph": [
                {"@type": "WebSite", "name": "The Daily"},
                {"@type": "WebPage", "name": "Rain in Spain | The Daily"},
                {"@type": "NewsArticle", "headline": "Rain in Spain falls mainly", "datePublished": "2024-03-02T08:00:00+01:00",
                 "dateModified": "2024-03-03", "author": [{"@type": "Person", "name": "Ann Lee"}, {"name": "Bo Li"}]}
            ]}),
        ];
        let e = Sources {
            json_ld: &ld,
            meta: meta(&[
                ("author", "Someone Else"),
                ("og:title", "Rain in Spain | The Daily"),
            ]),
            title: Some("Rain in Spain | The Daily"),
            blocks: vec![
                (Kind::Heading(1), "The Daily"),
                (Kind::Heading(1), "Rain in Spain"),
            ],
            url: "https://www.thedaily.com/news/rain",
            canonical: Some("/news/rain?x=1".into()),
            lang: Some("en-GB".into()),
            ..Sources::default()
        };
        let m = find(&e);
        assert_eq!(
            m,
            Metadata {
                title: Some("Rain in Spain".into()),
                author: Some("Ann Lee, Bo Li".into()),
                published: Some("2024-03-02T08:00:00+01:00".into()),
                modified: Some("2024-03-03".into()),
                sitename: Some("The Daily".into()),
                canonical: Some("https://www.thedaily.com/news/rain?x=1".into()),
                description: None,
                declared_language: Some("en-GB".into()),
            }
        );
        // Without JSON-LD and h1: og:title without the site name, the meta author, the URL's date.
        let e = Sources {
            meta: meta(&[
                ("author", "By Jane Doe | Staff"),
                ("og:title", "Best Headphones 2025 – Headphones.com"),
            ]),
            url: "https://www.headphones.com/blog/2025/01/05/best",
            ..Sources::default()
        };
        let m = find(&e);
        assert_eq!(m.title.as_deref(), Some("Best Headphones 2025"));
        assert_eq!(m.author.as_deref(), Some("Jane Doe"));
        assert_eq!(m.published.as_deref(), Some("2025-01-05"));
        // Bylines and time elements of the body.
        let e = Sources {
            found: vec![
                (
                    ClueKind::Byline,
                    "Written by Sam Poe on 3 June 2023".into(),
                    true,
                ),
                (ClueKind::Time, "June 3, 2023".into(), true),
            ],
            title: Some("Docs :: Getting started - GitHub Docs"),
            url: "https://docs.github.com/en/get-started",
            ..Sources::default()
        };
        let m = find(&e);
        assert_eq!(m.author.as_deref(), Some("Sam Poe"));
        assert_eq!(m.published.as_deref(), Some("2023-06-03"));
        assert_eq!(m.title.as_deref(), Some("Getting started"));
    }

    #[test]
    fn bad_values_give_none() {
        for v in [
            "https://example.org/author/jane",
            "",
            "   ",
            "1234",
            &"word ".repeat(20),
        ] {
            assert_eq!(clean_author(v), None, "{v:?}");
        }
        assert_eq!(
            clean_author("by Jane Doe - 5 min read").as_deref(),
            Some("Jane Doe")
        );
        // Malformed JSON-LD items are skipped; deep nesting is bounded.
        let mut deep = serde_json::json!({"headline": "x"});
        for _ in 0..200 {
            deep = serde_json::json!([deep]);
        }
        let ld = vec![deep, serde_json::json!({"@type": 5, "author": {"name": 7}})];
        let e = Sources {
            json_ld: &ld,
            ..Sources::default()
        };
        assert_eq!(find(&e), Metadata::default());
        // A 1 MB title is cut.
        let long = "word ".repeat(200_000);
        let e = Sources {
            title: Some(&long),
            ..Sources::default()
        };
        assert_eq!(find(&e).title.unwrap().chars().count(), 500);
    }

    #[test]
    fn titles_lose_a_site_name_and_a_tagline() {
        // A short last part goes (once), while 10 characters stay before it.
        assert_eq!(
            without_tagline("Mesh Office Chair | NBF"),
            "Mesh Office Chair"
        );
        assert_eq!(
            without_tagline("ML Software Ranking 2025 | Reviews, Features, Pricing"),
            "ML Software Ranking 2025"
        );
        assert_eq!(
            without_tagline("Electrical Work - Overview | OSHA"),
            "Electrical Work - Overview"
        );
        assert_eq!(without_tagline("Rust | Docs"), "Rust | Docs");
        // A long last part is the headline's own.
        let long = "The Complete Guide - Everything You Need to Know About Rust";
        assert_eq!(without_tagline(long), long);
        // A first part of at most 2 words goes when the rest is longer.
        assert_eq!(
            without_tagline("View topic - 2025 Football Season: MLS is Back Again"),
            "2025 Football Season: MLS is Back Again"
        );
        assert_eq!(without_tagline("No separators here"), "No separators here");
        // The JSON-LD name of a web page loses the site name; references left in it are
        // decoded.
        let ld = vec![serde_json::json!({"@graph": [
            {"@type": "WebSite", "name": "The Daily"},
            {"@type": "WebPage", "name": "Rain &amp; Snow in Spain | The Daily"}
        ]})];
        let e = Sources {
            json_ld: &ld,
            url: "https://thedaily.example/rain",
            ..Sources::default()
        };
        assert_eq!(find(&e).title.as_deref(), Some("Rain & Snow in Spain"));
        // `<meta>` values escaped twice.
        let e = Sources {
            meta: meta(&[("og:title", "Full &#038; Part Time Programs")]),
            ..Sources::default()
        };
        assert_eq!(find(&e).title.as_deref(), Some("Full & Part Time Programs"));
    }

    #[test]
    fn faq_questions_are_not_the_headline_and_h1s_match_whole_words() {
        let faq = vec![serde_json::json!({"@type": "FAQPage", "mainEntity": [
            {"@type": "Question", "name": "How much do movers cost?"},
            {"@type": "Question", "name": "How long does a move take?"}
        ]})];
        let e = Sources {
            json_ld: &faq,
            title: Some("Local Movers in Jackson, NJ | HireAHelper"),
            url: "https://www.hireahelper.com/movers/jackson",
            ..Sources::default()
        };
        assert_eq!(
            find(&e).title.as_deref(),
            Some("Local Movers in Jackson, NJ")
        );
        // The one question of a Q&A page is its main item.
        let qa = vec![serde_json::json!({"@type": "QAPage", "mainEntity":
            {"@type": "Question", "name": "Why is except: pass bad?"}})];
        let e = Sources {
            json_ld: &qa,
            ..Sources::default()
        };
        assert_eq!(find(&e).title.as_deref(), Some("Why is except: pass bad?"));
        // An h1 is confirmed by its words, not by letters inside a word.
        let e = Sources {
            title: Some("Backpacks for Overnight Trips"),
            blocks: vec![(Kind::Heading(1), "Pack")],
            ..Sources::default()
        };
        assert_eq!(
            find(&e).title.as_deref(),
            Some("Backpacks for Overnight Trips")
        );
        let e = Sources {
            title: Some("Hiking Boots: Shop Boots for Hiking"),
            blocks: vec![(Kind::Heading(1), "Hiking Boots")],
            ..Sources::default()
        };
        assert_eq!(find(&e).title.as_deref(), Some("Hiking Boots"));
    }

    #[test]
    fn authors_are_cleaned_of_dates_labels_and_separators() {
        let a = |s: &str| clean_author(s);
        for (v, name) in [
            ("Dec 17, 2025Julian K. Arni", "Julian K. Arni"),
            ("Nick van Mead2022-11-23T08:10+02:00", "Nick van Mead"),
            (
                "Team SimplyThrilledSeptember 4, 2025",
                "Team SimplyThrilled",
            ),
            ("Posted byDamien Walter", "Damien Walter"),
            ("By: Jane Doe", "Jane Doe"),
            ("SupermoveLast update", "Supermove"),
            ("Meaghan Weeden ●", "Meaghan Weeden"),
            ("& Zackery Cuevas", "Zackery Cuevas"),
            ("Angela Holliday-Bell, MD*", "Angela Holliday-Bell, MD"),
            ("jane.doe@example.org", "jane.doe@example.org"),
        ] {
            assert_eq!(a(v).as_deref(), Some(name), "{v:?}");
        }
        for v in [
            "Author",
            "Article by",
            "View more posts",
            "5 min read",
            "10mins read",
            "NOC Admin",
            "Jiobal says",
            "Name *",
            "Your Name",
            "October 17, 20236:01 PM ET Heard",
            "Sat, 20 Dec, 2025",
            "@handle",
        ] {
            assert_eq!(a(v), None, "{v:?}");
        }
        // A list of names: each short, the whole longer than one name may be.
        let list = "Nicholas Collins, Scott Munro, Matt De La O, Vineet Asthana, Rory O'Sullivan";
        assert_eq!(a(list).as_deref(), Some(list));
        assert_eq!(
            a("I have nothing smart in my apartment, so I want to start with something"),
            None
        );
    }

    #[test]
    fn authors_prefer_persons_to_the_site_and_organisations() {
        // A JSON-LD author that is an organisation gives way to a byline.
        let ld = vec![serde_json::json!({"@type": "BlogPosting",
            "author": {"@type": "Organization", "name": "GlossGenius"}})];
        let byline = vec![(ClueKind::Byline, "By Shauna Mitchell".to_owned(), true)];
        let e = Sources {
            json_ld: &ld,
            found: byline.clone(),
            ..Sources::default()
        };
        assert_eq!(find(&e).author.as_deref(), Some("Shauna Mitchell"));
        // Without one, the organisation is the author.
        let e = Sources {
            json_ld: &ld,
            ..Sources::default()
        };
        assert_eq!(find(&e).author.as_deref(), Some("GlossGenius"));
        // So is a name that is the site's.
        let site = meta(&[("og:site_name", "Five Books"), ("author", "Five Books")]);
        let e = Sources {
            meta: site.clone(),
            found: byline,
            ..Sources::default()
        };
        assert_eq!(find(&e).author.as_deref(), Some("Shauna Mitchell"));
        let e = Sources {
            meta: site,
            ..Sources::default()
        };
        assert_eq!(find(&e).author.as_deref(), Some("Five Books"));
        // Persons of a JSON-LD array, each checked on its own.
        let ld = vec![serde_json::json!({"@type": "Report", "author": [
            {"@type": "Person", "name": "Nicholas Collins"}, {"@type": "Person", "name": "Scott Munro"},
            {"@type": "Person", "name": "Matt De La O"}, {"@type": "Person", "name": "Vineet Asthana"},
            {"@type": "Person", "name": "https://example.org/x"}]})];
        let e = Sources {
            json_ld: &ld,
            ..Sources::default()
        };
        assert_eq!(
            find(&e).author.as_deref(),
            Some("Nicholas Collins, Scott Munro, Matt De La O, Vineet Asthana")
        );
        // `twitter:data1` under a label that says "by".
        let e = Sources {
            meta: meta(&[
                ("twitter:label1", "Interview by"),
                ("twitter:data1", "Sylvia Bishop"),
            ]),
            ..Sources::default()
        };
        assert_eq!(find(&e).author.as_deref(), Some("Sylvia Bishop"));
        // A byline written under the headline, only when it says "By".
        let blocks = |line| {
            vec![
                (Kind::Heading(1), "How to lose weight"),
                (Kind::Paragraph, line),
            ]
        };
        let e = Sources {
            blocks: blocks("By Angela Williams"),
            ..Sources::default()
        };
        assert_eq!(find(&e).author.as_deref(), Some("Angela Williams"));
        let e = Sources {
            blocks: blocks("Angela Williams"),
            ..Sources::default()
        };
        assert_eq!(find(&e).author, None);
    }
}

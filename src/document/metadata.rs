//! A page's metadata, as analysis finds it (`crate::analyze::metadata`).

/// A page's metadata: title, authors, dates, … (docs/formats.md says where each comes from).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The headline.
    pub title: Option<String>,
    /// The author's name (several joined by `, `).
    pub author: Option<String>,
    /// Publication date, ISO 8601.
    pub published: Option<String>,
    /// Modification date, ISO 8601.
    pub modified: Option<String>,
    /// The site's name.
    pub sitename: Option<String>,
    /// The canonical URL, resolved against the page's URL.
    pub canonical: Option<String>,
    /// `<meta name=description>`, else `og:description`.
    pub description: Option<String>,
    /// The language the page declares (`<html lang>`), as written.
    pub declared_language: Option<String>,
}

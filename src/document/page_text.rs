//! What a page says of itself outside its blocks (its title, structured data and kind), and
//! its identified language, which the combined model reads its blocks with.

/// What a page says of itself outside its blocks, which the features compare its blocks with,
/// and the language cowrex identified for it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageText {
    /// The document's identified language
    /// ([`Document::language`](crate::document::Document::language)), which says which models
    /// the language-bound detectors used (texrex's MLP of en/de/fr/sv or English's, NCleaner's
    /// standard model for English or the non-lexical one).
    pub language: Option<super::Language>,
    /// The page's title: `og:title`, else `<title>`.
    pub title: String,
    /// The body of the page's structured data: JSON-LD `articleBody`, `text` and `reviewBody`.
    pub body: String,
    /// Its descriptions: `<meta name=description>` and JSON-LD `description`s.
    pub description: String,
    /// What kind of page it says it is (`page_kind` bits, from its JSON-LD `@type`s and
    /// `og:type`).
    pub kinds: u8,
}

/// Kinds of page, from the schema.org types and `og:type` a page declares.
pub mod page_kind {
    /// Article, NewsArticle, BlogPosting, Report, …; `og:type` article.
    pub const ARTICLE: u8 = 1 << 0;
    /// Product, Offer, ProductGroup; `og:type` product.
    pub(crate) const PRODUCT: u8 = 1 << 1;
    /// ItemList, CollectionPage, SearchResultsPage, OfferCatalog.
    pub(crate) const LIST: u8 = 1 << 2;
    /// QAPage, Question, Answer, DiscussionForumPosting, SocialMediaPosting, Comment.
    pub(crate) const DISCUSSION: u8 = 1 << 3;
    /// Recipe, HowTo, FAQPage.
    pub(crate) const GUIDE: u8 = 1 << 4;
    /// Number of kinds.
    pub(crate) const COUNT: usize = 5;

    /// The kind a schema.org type name (with or without its `https://schema.org/`) or an
    /// `og:type` value (`product.item` counts as `product`) stands for (0 for any other).
    pub fn of(name: &str) -> u8 {
        let name = name.rsplit(['/', ':']).next().unwrap_or(name);
        let name = name.split('.').next().unwrap_or(name).trim();
        match name.to_ascii_lowercase().as_str() {
            "article"
            | "newsarticle"
            | "blogposting"
            | "report"
            | "scholarlyarticle"
            | "techarticle"
            | "liveblogposting"
            | "analysisnewsarticle"
            | "opinionnewsarticle"
            | "reportagenewsarticle"
            | "reviewnewsarticle" => ARTICLE,
            "product" | "offer" | "aggregateoffer" | "productgroup" | "item" => PRODUCT,
            "itemlist" | "collectionpage" | "searchresultspage" | "offercatalog" => LIST,
            "qapage"
            | "question"
            | "answer"
            | "discussionforumposting"
            | "socialmediaposting"
            | "comment" => DISCUSSION,
            "recipe" | "howto" | "faqpage" => GUIDE,
            _ => 0,
        }
    }
}

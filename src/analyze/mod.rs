//! The analysis of a page: decode → segment → second pass → features → language → score →
//! document-level figures, from a record's bytes to a [`Document`] ([`analyze`]). Its settings
//! are [`Config`] (`config.rs`); the text of a block as it is shown is in `text.rs`; the
//! page's metadata is found by [`metadata`].

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::time::Instant;

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::Xxh3;

use crate::classify::detector::{self, Cut, Favor};
use crate::classify::registry;
use crate::classify::{Models, Scorer, boilerpipe, comment};
use crate::decode;
use crate::document::{
    Block, Cap, DocFigures, Document, Language, Link, LinkRelation, Meta, Metadata, PageText,
    doc_id, host_and_tld, page_text,
};
use crate::features::texrex::{self as tx, BlockInput, Cleansed, Features};
use crate::html;
use crate::lid::{self, Identifier};
use crate::shingle;

mod config;
pub mod metadata;
mod text;

pub use config::{Config, DocFilter, DupBlocks, Mask};
use text::{into_output_text, is_plain, shown_text_marked};
pub use text::{output_text, shown_text};

/// Split a page file into its header (ARC line and/or HTTP head, if any) and the HTML.
/// Returns the payload offset and the HTTP charset.
pub fn split_page(bytes: &[u8]) -> (usize, Option<String>) {
    let mut p = 0;
    if !bytes.starts_with(b"HTTP/") {
        // An ARC header line (`url ip date mime length`) followed by an HTTP head.
        if let Some(nl) = memchr::memchr(b'\n', bytes) {
            let first = &bytes[..nl];
            if !first.contains(&b'<') && bytes[nl + 1..].starts_with(b"HTTP/") {
                p = nl + 1;
            }
        }
    }
    if !bytes[p..].starts_with(b"HTTP/") {
        return (0, None);
    }
    let resp = crate::warc::http::parse(&bytes[p..]);
    (p + resp.body_start, resp.charset().map(str::to_string))
}

/// Why a page yields no document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// No text at all (texrex: document length ≤ 1).
    NoText,
    /// Rejected by the document filter (texrex's thresholds).
    Filtered,
    /// Badness above the configured maximum.
    BadQuality,
    /// A cap stopped segmentation before any text was found.
    Capped(Cap),
}

impl Skip {
    /// The record's fate.
    pub fn fate(self) -> crate::fate::Fate {
        use crate::fate::Fate;
        match self {
            Skip::NoText => Fate::NoText,
            Skip::Filtered => Fate::Filtered,
            Skip::BadQuality => Fate::BadQuality,
            Skip::Capped(_) => Fate::Capped,
        }
    }
}

/// Time spent per stage, in nanoseconds.
#[derive(Debug, Clone, Copy, Default)]
pub struct StageTimes {
    /// Choosing the charset and decoding.
    pub decode: u64,
    /// Segmentation into blocks.
    pub segment: u64,
    /// The blocks' second pass and features, regions and the page's head.
    pub features: u64,
    /// Language identification.
    pub language: u64,
    /// The detectors, the threshold and the document figures.
    pub score: u64,
    /// In-document duplicates, tokens, badness, shingles, links.
    pub document: u64,
    /// Quality signals ([`crate::signals`]).
    pub signals: u64,
    /// Rendering the output formats.
    pub write: u64,
}

/// Input to [`analyze`]: the bytes texrex calls the raw record, and where the HTML starts.
pub struct Page<'a> {
    /// HTTP head and payload (or the HTML file as it is).
    pub raw: &'a [u8],
    /// The HTML payload within `raw`.
    pub payload: &'a [u8],
    /// The `charset` of the HTTP `Content-Type`, if any.
    pub http_charset: Option<&'a str>,
    /// Provenance and metadata of the record.
    pub meta: Meta,
}

fn elapsed(t: &mut Instant) -> u64 {
    let now = Instant::now();
    let d = now.duration_since(*t).as_nanos() as u64;
    *t = now;
    d
}

/// Analyse one page: every block is scored, nothing is removed.
pub fn analyze(
    page: Page<'_>,
    models: &Models,
    cfg: &Config,
    times: &mut StageTimes,
) -> Result<Document, Skip> {
    let mut t = Instant::now();
    let (host, tld) = host_and_tld(&page.meta.url);
    let sniffed = decode::sniff(page.payload, page.http_charset, Some(&tld));
    let (seg_input, mut dec) = to_segment(&page, &sniffed);
    times.decode += elapsed(&mut t);
    let (raw_text, line_ends) = html::raw_text_lines(&seg_input);
    let mut seg = html::segment_lines(&raw_text, &line_ends, cfg.limits, cfg.syntax);
    times.segment += elapsed(&mut t);

    let no_text = seg.capped.map_or(Skip::NoText, Skip::Capped);
    let blocks_total = seg.blocks.len();
    let mut blocks = make_blocks(&mut seg, raw_text.len(), cfg, &mut dec).ok_or(no_text)?;
    let regions = block_regions(&blocks, &seg.regions);
    let mut head = read_head(&seg, &blocks, &page.meta, &mut dec);
    times.features += elapsed(&mut t);
    let language = identify_language(&mut blocks, models.identifier());
    head.page_text.language = language;
    times.language += elapsed(&mut t);
    let scoring = detector::Scoring {
        models,
        language: language.as_ref(),
        regions: &regions,
        text: &head.page_text,
        memo: &Default::default(),
    };
    registry::run(&mut blocks, &scoring, models.scorer());
    for b in &mut blocks {
        b.comment = comment::of(b) >= comment::THRESHOLD;
    }
    let threshold = cfg
        .threshold
        .unwrap_or_else(|| decision_threshold(&blocks, models.scorer(), cfg.favor));
    let figures = figures(&blocks, threshold);
    times.score += elapsed(&mut t);

    if blocks.is_empty() {
        return Err(no_text);
    }
    if let Some(flt) = cfg.filter
        && !passes(&figures, &flt)
    {
        return Err(Skip::Filtered);
    }
    if cfg.dup_blocks != DupBlocks::Keep {
        mark_duplicates(&mut blocks);
    }
    let content = |b: &Block| cfg.comments.content(b, threshold);
    let (tokens, content_size) = content_tokens(&blocks, content, cfg.min_length);
    let badness = (!models.profiles().is_empty()).then(|| {
        let counts = models.profiles().count(&tokens);
        models
            .profiles()
            .badness(language.map(|l| l.code), &counts)
            .unwrap_or(0.0)
    });
    if let (Some(max), Some(b)) = (cfg.max_badness, badness)
        && b > max
    {
        return Err(Skip::BadQuality);
    }
    let shingles = if cfg.shingles {
        shingle::fingerprint(&tokens, shingle::NGRAM, shingle::HASHES)
    } else {
        None
    };
    let base = seg.head.base.as_deref().map(|b| dec.text(b));
    let links = if cfg.links {
        let anchors = &seg.anchors;
        let mut text = |b: &[u8]| dec.text(b);
        extract_links(
            &page.meta.url,
            base.as_deref(),
            &raw_text,
            anchors,
            &blocks,
            &mut text,
        )
    } else {
        Vec::new()
    };
    let fingerprint = fingerprint(&blocks);
    times.document += elapsed(&mut t);
    let signals = cfg.signals.then(|| quality_signals(&mut blocks, content));
    times.signals += elapsed(&mut t);
    Ok(Document {
        id: doc_id(&page.meta),
        meta: page.meta,
        source_charset: sniffed.name(),
        declared_charset: sniffed.declared_name(),
        doctype: seg.doctype,
        metadata: head.metadata,
        keywords: head.keywords,
        base,
        host,
        tld,
        model: models.mlp(language.as_ref()).0.map(|m| m.code()),
        language,
        regions,
        page_text: head.page_text,
        blocks_total,
        blocks,
        scorer: models.scorer().name(),
        threshold,
        comments: cfg.comments,
        figures,
        capped: seg.capped,
        malformed: dec.malformed,
        evidence: Some(sniffed.evidence),
        badness,
        signals,
        shingles,
        content_size,
        fingerprint,
        links,
        duplicate_of: None,
    })
}

/// The quality signals of the text of the blocks that are `content` ([`Document::text`]), and
/// the C4 fates of those blocks' lines ([`Block::c4`]).
fn quality_signals(
    blocks: &mut [Block],
    content: impl Fn(&Block) -> bool,
) -> crate::document::Signals {
    let text = crate::document::content_text(blocks.iter().filter(|b| content(b)));
    let (signals, fates) = crate::signals::compute(&text, blocks.iter().filter(|b| content(b)));
    let kept = blocks.iter_mut().filter(|b| content(b));
    for (b, fate) in kept.zip(fates) {
        b.c4 = fate;
    }
    signals
}

/// Letters a block needs for a language of its own ([`Block::language`]).
pub const BLOCK_LANGUAGE_LETTERS: u32 = 30;

/// The identifier reads at most this many bytes of a block (cut before a word): plenty for a
/// block's language, and long blocks cost no more than this.
pub const BLOCK_LANGUAGE_BYTES: usize = 256;

/// Under this many letters in the blocks with a language of their own, a document's language
/// also reads its shorter blocks.
const DOCUMENT_LANGUAGE_LETTERS: u32 = 200;

/// Identify the language of each block ([`Block::language`]) and of the document
/// ([`identify_blocks`]).
fn identify_language(blocks: &mut [Block], id: &Identifier) -> Option<Language> {
    let (doc, each) = identify_blocks(blocks.iter().map(|b| b.text.as_str()), id);
    for (b, l) in blocks.iter_mut().zip(each) {
        b.language = l;
    }
    doc
}

/// The language of each of a document's blocks (`texts`) with enough letters, from its first
/// [`BLOCK_LANGUAGE_BYTES`], and of the document from the sum of those blocks' evidence (each
/// block read once). The shorter blocks (menus and buttons, often in another language than
/// the text) count for the document only where the longer ones have too few letters. A block
/// is decided after the document, as most likely in the document's language
/// ([`Identifier::decide_expecting`]). The document's language is `None` without letters; a
/// block's, under [`BLOCK_LANGUAGE_LETTERS`].
pub fn identify_blocks<'a>(
    texts: impl IntoIterator<Item = &'a str>,
    id: &Identifier,
) -> (Option<Language>, Vec<Option<Language>>) {
    let texts: Vec<&str> = texts
        .into_iter()
        .map(|t| prefix_before_word(t, BLOCK_LANGUAGE_BYTES))
        .collect();
    let mut doc = id.evidence();
    let mut read: Vec<(usize, lid::Evidence)> = Vec::new();
    let mut ev = id.evidence();
    for (i, text) in texts.iter().enumerate() {
        if id.add_if_letters(text, BLOCK_LANGUAGE_LETTERS, &mut ev) {
            doc.merge(&ev);
            read.push((i, std::mem::replace(&mut ev, id.evidence())));
        }
    }
    if doc.letters() < DOCUMENT_LANGUAGE_LETTERS {
        // Every block, the few letters of the longer ones read again.
        doc.clear();
        for text in &texts {
            id.add_if_letters(text, 1, &mut doc);
        }
    }
    let guess = id.decide(&doc);
    let mut each = vec![None; texts.len()];
    for (i, ev) in read {
        each[i] = match &guess {
            Some(g) => id.decide_expecting(&ev, g),
            None => id.decide(&ev),
        }
        .map(language);
    }
    (guess.map(language), each)
}

/// `text` up to `max` bytes, cut before the word that crosses it (at a char boundary if one
/// word is that long).
fn prefix_before_word(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind(char::is_whitespace) {
        Some(i) if i > 0 => &text[..i],
        _ => &text[..end],
    }
}

/// The language of some texts together (paragraphs of a plain text, a document's text).
pub fn identify_texts<'a>(
    texts: impl IntoIterator<Item = &'a str>,
    id: &Identifier,
) -> Option<Language> {
    let mut ev = id.evidence();
    for t in texts {
        id.add(t, &mut ev);
    }
    id.decide(&ev).map(language)
}

/// The document model's language of an identifier's guess.
fn language(g: lid::Guess) -> Language {
    Language {
        code: g.iso639_3,
        iso639_1: g.iso639_1,
        script: g.script,
        score: g.score,
    }
}

/// Decodes the bytes of a page's parts in its encoding, noting whether any were malformed.
struct Decoder {
    encoding: &'static encoding_rs::Encoding,
    malformed: bool,
}

impl Decoder {
    fn text(&mut self, bytes: &[u8]) -> String {
        self.text_cow(bytes).into_owned()
    }

    /// [`Decoder::text`], borrowing `bytes` when they are already UTF-8.
    fn text_cow<'b>(&mut self, bytes: &'b [u8]) -> Cow<'b, str> {
        let (s, bad) = decode::decode(bytes, self.encoding);
        self.malformed |= bad;
        s
    }
}

/// What the segmenter reads, and the decoder of its parts: the source bytes when the encoding
/// keeps ASCII in place (texrex's positions are source positions), else the page decoded to
/// UTF-8 first.
fn to_segment<'a>(page: &Page<'a>, sniffed: &decode::Sniffed) -> (Cow<'a, [u8]>, Decoder) {
    let decoder = |encoding| Decoder {
        encoding,
        malformed: false,
    };
    if sniffed.encoding.is_ascii_compatible() {
        return (Cow::Borrowed(page.raw), decoder(sniffed.encoding));
    }
    let head_len = page.raw.len() - page.payload.len();
    let (text, _) = decode::decode(&page.payload[sniffed.bom_len..], sniffed.encoding);
    let mut v = page.raw[..head_len].to_vec();
    v.extend_from_slice(text.as_bytes());
    (Cow::Owned(v), decoder(encoding_rs::UTF_8))
}

/// The blocks of a segmented page that pass texrex's second pass, with their features and
/// texts, unscored; `None` for a page without text (`raw_len`: bytes of its raw text). The
/// blocks take their markup tokens from the segmentation's blocks.
fn make_blocks(
    seg: &mut html::Segmentation,
    raw_len: usize,
    cfg: &Config,
    dec: &mut Decoder,
) -> Option<Vec<Block>> {
    let mut markups: Vec<Vec<u32>> = seg
        .blocks
        .iter_mut()
        .map(|b| std::mem::take(&mut b.markup))
        .collect();
    let decoded: Vec<Cow<'_, str>> = seg.blocks.iter().map(|b| dec.text_cow(&b.text)).collect();
    let cleansed: Vec<Cleansed> = decoded.iter().map(|t| tx::second_pass(t)).collect();
    let inputs: Vec<BlockInput<'_>> = seg
        .blocks
        .iter()
        .zip(&cleansed)
        .map(|(block, cleansed)| BlockInput { block, cleansed })
        .collect();
    let feats = tx::document_features(&inputs, seg.doctype, raw_len)?;
    drop(inputs);
    let mut blocks = Vec::new();
    let mut paragraph_start = false;
    let blocks_in =
        (feats.iter().zip(cleansed).zip(&seg.blocks)).zip(decoded.iter().zip(&mut markups));
    for (idx, (((f, c), raw), (decoded, markup))) in blocks_in.enumerate() {
        paragraph_start |= raw.paragraph_start;
        let Some(f) = f else { continue };
        let text = into_output_text(c.text);
        let mut b = make_block(idx, f, raw, decoded, text, cfg, dec);
        if raw.link_bytes > 0
            && let Some(n) = unit_link_words(raw, spans_of(&seg.link_spans, idx), decoded, dec)
        {
            b.stats = boilerpipe::stats(&b.cleansed, n);
        }
        b.markup = std::mem::take(markup);
        b.paragraph_start = std::mem::take(&mut paragraph_start);
        blocks.push(b);
    }
    Some(blocks)
}

/// Block `idx` with its `features`, from the segmenter's `raw` block, its text `decoded` and
/// after texrex's second pass (`cleansed`); its markup tokens and whether it starts a
/// paragraph are the caller's.
fn make_block(
    idx: usize,
    features: &Features,
    raw: &html::RawBlock,
    decoded: &str,
    cleansed: String,
    cfg: &Config,
    dec: &mut Decoder,
) -> Block {
    let shown_decoded;
    let shown = match &raw.shown {
        Some(s) => {
            shown_decoded = dec.text(s);
            &shown_decoded
        }
        None => decoded,
    };
    // Plain text reads the same shown and after texrex's second pass.
    let text = if cfg.texrex_text || raw.shown.is_none() && is_plain(decoded) {
        cleansed.clone()
    } else {
        shown_text(shown, raw.pre, cfg.mask)
    };
    // The text with its inline markup, for Markdown, when it has any.
    let marked = (cfg.marks && !cfg.texrex_text && shown.bytes().any(html::mark::is_mark))
        .then(|| shown_text_marked(shown, raw.pre, cfg.mask, true));
    let links = raw.links.iter().map(|href| link(href, dec)).collect();
    Block {
        idx,
        features: *features,
        bpv: 0.0,
        scores: Default::default(),
        stats: boilerpipe::stats(&cleansed, raw.link_words),
        cues: raw.cues,
        near_cues: raw.near_cues,
        link_bytes: raw.link_bytes,
        raw_bytes: raw.text.len() as u32,
        paragraph_start: false,
        path: raw.path,
        depth: raw.depth,
        markup: Vec::new(),
        text,
        marked,
        links,
        chars: cleansed.chars().count(),
        cleansed,
        kind: raw.kind,
        comment: false,
        dup_of: None,
        language: None,
        c4: None,
    }
}

/// The link spans of block `idx` among a page's ([`html::Segmentation::link_spans`]).
fn spans_of(spans: &[(u32, u32, u32)], idx: usize) -> &[(u32, u32, u32)] {
    let from = spans.partition_point(|s| (s.0 as usize) < idx);
    let to = from + spans[from..].partition_point(|s| s.0 as usize == idx);
    &spans[from..to]
}

/// The words that start inside links of a block with characters of a script written without
/// spaces: its [`words`](crate::words) whose first character is in one of its link `spans`
/// ([`html::Segmentation::link_spans`]), on its text decoded piece by piece at the links'
/// ends (the segmenter's text may be in the page's encoding). None for any other block, whose
/// whitespace-separated words the segmenter counted ([`html::RawBlock::link_words`]).
fn unit_link_words(
    raw: &html::RawBlock,
    spans: &[(u32, u32, u32)],
    decoded: &str,
    dec: &mut Decoder,
) -> Option<u32> {
    if spans.is_empty() || !crate::words::has_units(decoded) {
        return None;
    }
    // Decoding the pieces says nothing new of the page's bytes.
    let malformed = dec.malformed;
    let mut text = String::with_capacity(decoded.len());
    let mut links = Vec::with_capacity(spans.len());
    let mut at = 0;
    for &(_, start, end) in spans {
        let (start, end) = (start as usize, end as usize);
        text.push_str(&dec.text_cow(&raw.text[at..start]));
        let from = text.len();
        text.push_str(&dec.text_cow(&raw.text[start..end]));
        links.push((from, text.len()));
        at = end;
    }
    text.push_str(&dec.text_cow(&raw.text[at..]));
    dec.malformed = malformed;
    let mut links = links.into_iter().peekable();
    let mut n = 0;
    for w in crate::words::words(&text) {
        let at = w.as_ptr() as usize - text.as_ptr() as usize;
        while links.next_if(|&(_, end)| end <= at).is_some() {}
        n += u32::from(links.peek().is_some_and(|&(start, _)| start <= at));
    }
    Some(n)
}

/// A link's target as written in the page: decoded, unescaped and trimmed.
fn link(href: &[u8], dec: &mut Decoder) -> String {
    let href = dec.text_cow(href);
    // Unescaping copies a text without references as it is.
    let link = if href.contains('&') {
        tx::unescape(&href)
    } else {
        href.into_owned()
    };
    let trimmed = link.trim();
    if trimmed.len() == link.len() {
        link
    } else {
        trimmed.to_owned()
    }
}

/// What a page's head, structured data and clues say of it.
struct Head {
    keywords: Option<String>,
    metadata: Metadata,
    page_text: PageText,
}

/// Read a page's title, description, keywords, `og:` tags, JSON-LD and metadata clues.
fn read_head(seg: &html::Segmentation, blocks: &[Block], meta: &Meta, dec: &mut Decoder) -> Head {
    let mut head = |v: &Option<Vec<u8>>| {
        v.as_deref()
            .map(|b| output_text(&tx::decode_entities(&dec.text(b))))
            .filter(|s| !s.is_empty())
    };
    let (title, keywords, description, og_title, og_type) = (
        head(&seg.head.title),
        head(&seg.head.keywords),
        head(&seg.head.description),
        head(&seg.head.og_title),
        head(&seg.head.og_type),
    );
    let json_ld: Vec<serde_json::Value> = seg
        .json_ld
        .iter()
        .filter_map(|s| serde_json::from_str(dec.text(s).trim()).ok())
        .collect();
    let mut sources = metadata::Sources {
        json_ld: &json_ld,
        title: title.as_deref(),
        description: description.as_deref(),
        blocks: blocks.iter().map(|b| (b.kind, b.text.as_str())).collect(),
        url: &meta.url,
        record_date: meta.warc_date.as_deref().or(meta.http_date.as_deref()),
        ..Default::default()
    };
    sources.read_clues(&seg.clues, |b| output_text(&tx::unescape(&dec.text(b))));
    let metadata = metadata::find(&sources);
    let mut page_text = structured_text(&json_ld);
    page_text.title = og_title.or(title).unwrap_or_default();
    if let Some(t) = &og_type {
        page_text.kinds |= page_text::page_kind::of(t);
    }
    if let Some(d) = &description {
        page_text.description.push_str(d);
    }
    Head {
        keywords,
        metadata,
        page_text,
    }
}

/// Content tokens and bytes: texrex tokenizes the `content` blocks of at least `min_length`
/// bytes.
fn content_tokens(
    blocks: &[Block],
    content: impl Fn(&Block) -> bool,
    min_length: usize,
) -> (shingle::Tokens, usize) {
    let mut tokens = shingle::Tokens::default();
    let mut content_size = 0;
    for b in blocks {
        if content(b) && b.text.len() >= min_length {
            tokens.add(&b.text);
            content_size += b.text.len();
        }
    }
    (tokens, content_size)
}

/// XXH3-128 of the blocks' texts, each ended by a newline.
fn fingerprint(blocks: &[Block]) -> u128 {
    let mut h = Xxh3::new();
    for b in blocks {
        h.update(b.text.as_bytes());
        h.update(b"\n");
    }
    h.digest128()
}

/// The threshold that decides a document's content when none is configured, by the scorer's
/// [`Cut`]: the [`expected_f_threshold`] with `favor`'s β for calibrated probabilities (the
/// combined model), else 0.5.
pub fn decision_threshold(blocks: &[Block], scorer: Scorer, favor: Favor) -> f32 {
    match scorer.decision().cut {
        Cut::ExpectedF => {
            expected_f_threshold(blocks.iter().map(|b| (b.bpv, b.stats.words)), favor.beta())
        }
        Cut::Half => 0.5,
    }
}

/// The threshold on `bpv` (the probability that a block is boilerplate) that maximises the
/// expected bag-of-words F_β of the content it keeps (F1, the measure of `docs/accuracy.md`,
/// for β = 1), for a page's blocks given as (`bpv`, words). With `q` = 1 − `bpv` and `w` a
/// block's words, keeping the set `S` gives an expected F_β of about
/// (1 + β²)·Σ_S w·q / (Σ_S w + β²·Σ_all w·q) (Jansche 2007; Nan Ye et al. 2012); the best `S`
/// are the blocks of lowest `bpv`, so the threshold is the `bpv` of the last block of the best
/// such prefix. On a page the model is sure of, that keeps about what 0.5 would; on an
/// uncertain one it keeps more, since keeping a doubtful block costs less expected F than
/// losing the content, and the more so the greater β. 0.5 for a page without words.
pub fn expected_f_threshold(blocks: impl Iterator<Item = (f32, u32)>, beta: f64) -> f32 {
    let mut order: Vec<(f32, f64)> = blocks
        .filter(|&(_, w)| w > 0)
        .map(|(bpv, w)| (bpv, w as f64))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let b2 = beta * beta;
    let expected: f64 = order.iter().map(|&(bpv, w)| w * (1.0 - bpv as f64)).sum();
    let (mut kept, mut kept_content) = (0.0, 0.0);
    let (mut best, mut threshold) = (0.0, 0.5);
    for (bpv, w) in order {
        kept += w;
        kept_content += w * (1.0 - bpv as f64);
        let f = (1.0 + b2) * kept_content / (kept + b2 * expected);
        if f > best {
            (best, threshold) = (f, bpv);
        }
    }
    threshold
}

/// The body, descriptions and kinds of a page's JSON-LD scripts (the title is left empty): the
/// strings under `articleBody`, `text` and `reviewBody` keys, those under `description` keys,
/// and the kinds of the `@type`s, anywhere in the data. Scripts that do not parse are
/// ignored.
pub(crate) fn structured_text(json_ld: &[serde_json::Value]) -> PageText {
    fn walk(v: &serde_json::Value, out: &mut PageText) {
        match v {
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            serde_json::Value::Object(o) => {
                for (k, v) in o {
                    if k == "@type" {
                        let names = match v {
                            serde_json::Value::String(s) => vec![s.as_str()],
                            serde_json::Value::Array(a) => {
                                a.iter().filter_map(|s| s.as_str()).collect()
                            }
                            _ => Vec::new(),
                        };
                        for name in names {
                            out.kinds |= page_text::page_kind::of(name);
                        }
                        continue;
                    }
                    let slot = match k.as_str() {
                        "articleBody" | "text" | "reviewBody" => Some(&mut out.body),
                        "description" => Some(&mut out.description),
                        _ => None,
                    };
                    match (slot, v) {
                        (Some(slot), serde_json::Value::String(s)) => {
                            slot.push_str(s);
                            slot.push('\n');
                        }
                        _ => walk(v, out),
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = PageText::default();
    for v in json_ld {
        walk(v, &mut out);
    }
    out
}

/// The segmenter's regions (inclusive ranges of raw block indices) as ranges of `blocks`
/// positions, keeping those of two blocks or more, sorted by start, outer first.
fn block_regions(blocks: &[Block], raw: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = raw
        .iter()
        .filter_map(|&(first, last)| {
            let lo = blocks.partition_point(|b| (b.idx as u32) < first);
            let hi = blocks.partition_point(|b| (b.idx as u32) <= last);
            (hi >= lo + 2).then(|| (lo as u32, hi as u32 - 1))
        })
        .collect();
    out.sort_by_key(|&(first, last)| (first, std::cmp::Reverse(last)));
    out.dedup();
    out
}

/// Mark blocks whose text repeats an earlier block's (texrex: at least 3 bytes).
fn mark_duplicates(blocks: &mut [Block]) {
    let mut first: FxHashMap<&str, usize> = FxHashMap::default();
    let dup_of: Vec<Option<usize>> = blocks
        .iter()
        .map(|b| {
            if b.text.len() < 3 {
                return None;
            }
            match first.entry(b.text.as_str()) {
                Entry::Occupied(e) => Some(*e.get()),
                Entry::Vacant(e) => {
                    e.insert(b.idx);
                    None
                }
            }
        })
        .collect();
    for (b, d) in blocks.iter_mut().zip(dup_of) {
        b.dup_of = d;
    }
}

/// Links of `<a href>` tags, resolved against `<base href>` or the document's URL; only http
/// and https URLs of 16 to 1024 bytes (texrex's limits), without fragments.
fn extract_links(
    doc_url: &str,
    base: Option<&str>,
    raw: &[u8],
    anchors: &[html::Anchor],
    blocks: &[Block],
    dec: &mut dyn FnMut(&[u8]) -> String,
) -> Vec<Link> {
    let Ok(doc) = url::Url::parse(doc_url) else {
        return Vec::new();
    };
    let base = base
        .and_then(|b| doc.join(tx::decode_entities(b).trim()).ok())
        .unwrap_or_else(|| doc.clone());
    let host = doc.host_str().unwrap_or("").to_ascii_lowercase();
    let mut out = Vec::new();
    for a in anchors {
        let mut attrs = html::attributes(&raw[a.attrs.0..a.attrs.1]);
        let Some((_, href)) = attrs.find(|(k, _)| k.eq_ignore_ascii_case(b"href")) else {
            continue;
        };
        let href = tx::decode_entities(&dec(href));
        let Ok(mut u) = base.join(href.trim()) else {
            continue;
        };
        if !matches!(u.scheme(), "http" | "https") {
            continue;
        }
        u.set_fragment(None);
        let link_host = u.host_str().unwrap_or("").to_ascii_lowercase();
        let s = String::from(u);
        if !(16..=1024).contains(&s.len()) || s.chars().any(char::is_control) {
            continue;
        }
        let relation = if link_host == host {
            LinkRelation::SameFullHost
        } else if last_two_labels(&link_host) == last_two_labels(&host) {
            LinkRelation::SameNonVirtualHost
        } else {
            LinkRelation::DifferentHosts
        };
        let bpv = blocks
            .binary_search_by_key(&a.block, |b| b.idx)
            .map_or(-1.0, |i| blocks[i].bpv);
        out.push(Link {
            url: s,
            relation,
            bpv,
        });
    }
    out
}

fn last_two_labels(host: &str) -> &str {
    match host.rmatch_indices('.').nth(1) {
        Some((i, _)) => &host[i + 1..],
        None => host,
    }
}

/// Document figures from block scores (`DecideMlp`). Characters are true code point counts.
pub fn figures(blocks: &[Block], threshold: f32) -> DocFigures {
    let (mut bc, mut nbc, mut bd, mut nbd) = (0usize, 0usize, 0usize, 0usize);
    let (mut sum_c, mut sum_d) = (0f64, 0f64);
    for b in blocks {
        if b.bpv > threshold {
            bc += b.chars;
            bd += 1;
        } else {
            nbc += b.chars;
            nbd += 1;
        }
        sum_d += b.bpv as f64;
        sum_c += b.bpv as f64 * b.chars as f64;
    }
    let prop = |a: usize, b: usize| {
        if a + b > 0 {
            a as f64 / (a + b) as f64
        } else {
            -1.0
        }
    };
    DocFigures {
        nbc,
        nbd,
        nbcprop: prop(nbc, bc),
        nbdprop: prop(nbd, bd),
        avgbpc: if bc + nbc > 0 {
            sum_c / (bc + nbc) as f64
        } else {
            0.0
        },
        avgbpd: if bd + nbd > 0 {
            sum_d / (bd + nbd) as f64
        } else {
            0.0
        },
    }
}

fn passes(f: &DocFigures, t: &DocFilter) -> bool {
    f.nbd >= t.min_divs
        && f.nbc >= t.min_chars
        && f.nbcprop >= t.min_char_prop
        && f.nbdprop >= t.min_div_prop
}

#[cfg(test)]
mod tests {
    use super::Mask;
    use super::*;

    fn f1_threshold(blocks: impl Iterator<Item = (f32, u32)>) -> f32 {
        expected_f_threshold(blocks, 1.0)
    }

    #[test]
    fn favouring_precision_keeps_less_and_recall_more() {
        // Sure content, a doubtful block and sure boilerplate.
        let page = [(0.02, 300), (0.45, 120), (0.7, 80), (0.97, 200)];
        let cut = |f: Favor| expected_f_threshold(page.into_iter(), f.beta());
        assert_eq!(cut(Favor::Precision), 0.02);
        assert_eq!(cut(Favor::Balanced), 0.45);
        assert_eq!(cut(Favor::Recall), 0.7);
        // On a page the model is sure of, every rule cuts in the same place.
        let sure = [(0.01, 200), (0.03, 100), (0.98, 50), (0.99, 80)];
        for f in Favor::ALL {
            assert_eq!(expected_f_threshold(sure.into_iter(), f.beta()), 0.03);
        }
    }

    #[test]
    fn f1_threshold_keeps_what_pays_off_in_expected_f1() {
        // A page the model is sure of: the threshold falls between its content and the rest.
        let sure = [(0.02, 200), (0.05, 100), (0.97, 30), (0.99, 10), (0.98, 50)];
        assert_eq!(f1_threshold(sure.into_iter()), 0.05);
        // Content at 0.6 (doubtful) beside sure boilerplate: keeping it is worth more expected
        // F1 than keeping nothing, which threshold 0.5 would do.
        let doubtful = [(0.6, 300), (0.62, 100), (0.99, 40), (0.995, 60)];
        assert_eq!(f1_threshold(doubtful.into_iter()), 0.62);
        // A doubtful block beside sure content is kept only when it is long enough to matter
        // more than it dilutes: 0.55 with few words stays out at this content's certainty.
        let mixed = [(0.01, 500), (0.55, 5), (0.9, 100)];
        assert_eq!(f1_threshold(mixed.into_iter()), 0.01);
        // Ties keep the same threshold whatever the order of the blocks.
        let a = [(0.3, 10), (0.7, 10), (0.3, 20)];
        let b = [(0.3, 20), (0.3, 10), (0.7, 10)];
        assert_eq!(f1_threshold(a.into_iter()), f1_threshold(b.into_iter()));
        // No words: the plain 0.5.
        assert_eq!(f1_threshold([(0.2, 0), (0.9, 0)].into_iter()), 0.5);
        assert_eq!(f1_threshold(std::iter::empty()), 0.5);
    }

    #[test]
    fn links_are_decoded_unescaped_and_trimmed() {
        let mut dec = Decoder {
            encoding: encoding_rs::WINDOWS_1252,
            malformed: false,
        };
        assert_eq!(link(b" /a?b=1&amp;c=\xe9 ", &mut dec), "/a?b=1&c=é");
        assert_eq!(link(b"/a&b\t", &mut dec), "/a&b");
        assert_eq!(link(b"\xe9", &mut dec), "é");
        dec.encoding = encoding_rs::UTF_8;
        assert_eq!(link(b"/plain", &mut dec), "/plain");
        assert_eq!(link(b"&#32; /x", &mut dec), "&#32; /x");
        assert!(!dec.malformed);
    }

    /// A page analysed with the built-in models and the default configuration.
    fn analyze_html(html: &str) -> Document {
        let page = Page {
            raw: html.as_bytes(),
            payload: html.as_bytes(),
            http_charset: None,
            meta: Meta::default(),
        };
        analyze(
            page,
            &Models::builtin(),
            &Config::default(),
            &mut StageTimes::default(),
        )
        .unwrap()
    }

    #[test]
    fn link_words_of_chinese_and_japanese_blocks_are_characters() {
        let html = "<html><body><ul><li><a href='/'>首页</a> <a href='/n'>新闻</a></li></ul>\
                    <p>详情请见<a href='/x'>官方网站</a>。</p><p>東京<a href='/t'>タワー</a>へ</p>\
                    <p>Read <a href='/r'>more</a> here</p></body></html>";
        // In UTF-8, and in GB18030, which the segmenter reads undecoded.
        for encoding in [encoding_rs::UTF_8, encoding_rs::GB18030] {
            let (bytes, _, _) = encoding.encode(html);
            let page = Page {
                raw: &bytes,
                payload: &bytes,
                http_charset: Some(encoding.name()),
                meta: Meta::default(),
            };
            let config = Config::default();
            let doc = analyze(
                page,
                &Models::builtin(),
                &config,
                &mut StageTimes::default(),
            );
            let doc = doc.unwrap();
            let stats: Vec<(&str, u32, u32)> = (doc.blocks.iter())
                .map(|b| (b.text.as_str(), b.stats.words, b.stats.link_words))
                .collect();
            assert_eq!(
                stats,
                [
                    ("首页 新闻", 4, 4),
                    // The link's four characters are words of their own, though no space
                    // comes before them.
                    ("详情请见官方网站。", 8, 4),
                    ("東京タワーへ", 4, 1),
                    ("Read more here", 3, 1),
                ],
                "{}",
                encoding.name()
            );
            assert!(!doc.malformed);
        }
    }

    /// Each decision of the registry sets `bpv` and cuts where it says; every detector that
    /// runs fills its columns; the combined model runs only when it decides; the writers print
    /// the shown columns in the registry's order.
    #[test]
    fn every_decision_of_the_registry_decides() {
        let html = "<html><body><nav><a href='/'>Home</a> | <a href='/a'>About us</a></nav>\
            <h1>Rain</h1><p>Rain falls in Spain mostly on the plain, as the song says, and the \
            farmers there are glad of it every spring.</p><p>It falls in the mountains too, in \
            long grey showers that fill the rivers.</p><footer>© 2026 Example</footer></body></html>";
        let mut seen = Vec::new();
        for d in registry::decisions() {
            let page = Page {
                raw: html.as_bytes(),
                payload: html.as_bytes(),
                http_charset: None,
                meta: Meta::default(),
            };
            let mut models = Models::builtin();
            models.set_scorer(Scorer::named(d.name).unwrap());
            let cfg = Config::default();
            let doc = analyze(page, &models, &cfg, &mut StageTimes::default()).unwrap();
            assert_eq!(doc.scorer, d.name);
            for b in &doc.blocks {
                assert_eq!(b.bpv, (d.bpv)(b), "{}", d.name);
                assert!((-1.0..=1.0).contains(&b.bpv), "{}: {}", d.name, b.bpv);
                assert_eq!(
                    crate::classify::combined::of(b).is_nan(),
                    d.name != "combined",
                    "the combined model runs only when it decides"
                );
                let names: Vec<&str> = crate::output::block_scores(b).map(|s| s.0).collect();
                assert_eq!(names, crate::output::score_names().collect::<Vec<_>>());
            }
            let threshold = match d.cut {
                Cut::Half => 0.5,
                Cut::ExpectedF => {
                    expected_f_threshold(doc.blocks.iter().map(|b| (b.bpv, b.stats.words)), 1.0)
                }
            };
            assert_eq!(doc.threshold, threshold, "{}", d.name);
            seen.push(
                doc.blocks
                    .iter()
                    .map(|b| doc.is_content(b))
                    .collect::<Vec<_>>(),
            );
        }
        assert!(seen.len() >= 8, "every detector's decisions");
        assert!(
            seen.iter().any(|k| k != &seen[0]),
            "the decisions differ on this page"
        );
    }

    #[test]
    fn analyze_scores_every_block() {
        let html = "<html><head><title>T &amp; U</title></head><body><div>Home</div><p>This is a long sentence of real content. It has two sentences.</p></body></html>";
        let doc = analyze_html(html);
        assert_eq!(doc.blocks.len(), 2);
        assert_eq!(doc.metadata.title.as_deref(), Some("T & U"));
        assert!(doc.blocks.iter().all(|b| (-1.0..=1.0).contains(&b.bpv)));
        // The figures count the blocks the document's threshold keeps.
        assert_eq!(
            doc.figures.nbd + doc.blocks.iter().filter(|b| b.bpv > doc.threshold).count(),
            2
        );
        assert!(doc.figures.nbd >= 1, "the paragraph is content");
    }

    #[test]
    fn blocks_and_the_document_have_languages() {
        // An English article with German navigation: each long block says its own language,
        // the short menu items have none and no say in the document's.
        let html = "<html><body><ul><li>Startseite</li><li>Kontakt</li><li>Impressum</li></ul>\
            <p>Willkommen auf unserer Seite, hier finden Sie alle Neuigkeiten des Vereins.</p>\
            <p>The committee met on Tuesday to discuss the budget for the coming year, and \
            agreed to fund the new library.</p><p>Members who could not attend will receive \
            the minutes by post next week, together with the annual report.</p></body></html>";
        let doc = analyze_html(html);
        let langs: Vec<Option<&str>> = doc
            .blocks
            .iter()
            .map(|b| b.language.map(|l| l.code))
            .collect();
        assert_eq!(
            langs,
            [None, None, None, Some("deu"), Some("eng"), Some("eng")]
        );
        let l = doc.language.unwrap();
        assert_eq!((l.code, l.script), ("eng", Some("Latn")));
        assert!(l.score > 0.5 && l.score <= 1.0, "{}", l.score);
        // Only short blocks: they are read for the document.
        let doc =
            analyze_html("<html><body><p>Das Haus</p><p>ist schön und groß</p></body></html>");
        assert!(doc.blocks.iter().all(|b| b.language.is_none()));
        assert_eq!(doc.language.map(|l| l.code), Some("deu"));
    }

    #[test]
    fn block_text_is_cut_before_a_word() {
        assert_eq!(prefix_before_word("one two three", 9), "one two");
        assert_eq!(prefix_before_word("one two", 9), "one two");
        assert_eq!(prefix_before_word("abcdefgh", 4), "abcd");
        assert_eq!(prefix_before_word("ééé", 3), "é");
    }

    #[test]
    fn broken_json_ld_is_skipped_and_the_rest_is_read() {
        let html = r#"<html><head><title>Fallback | Site</title>
            <script type="application/ld+json">{"@type": "NewsArticle", "headline": "Cut</script>
            <script type="application/ld+json">{"@type": "NewsArticle", "author": {"name": "Jane Roe"}}</script>
            <meta property="article:published_time" content="2021-03-04T05:06:07Z">
            </head><body><h1>Fallback</h1><p>Some words of the article, long enough to be text.</p></body></html>"#;
        let doc = analyze_html(html);
        assert_eq!(doc.metadata.author.as_deref(), Some("Jane Roe"));
        assert_eq!(
            doc.metadata.published.as_deref(),
            Some("2021-03-04T05:06:07+00:00")
        );
        assert_eq!(doc.metadata.title.as_deref(), Some("Fallback"));
    }

    /// A page of a nav list of 3 links, a post of a title and `para` three times, and a footer.
    #[test]
    fn the_text_is_what_the_page_shows() {
        let html = "<body>\
            <p>Visit https://example.com/page or write to jane.doe@example.com about the #festival plans</p>\
            <p>Use the &lt;div&gt; element and a &lt;b&gt;bold&lt;/b&gt; word</p>\
            <p>The &amp;amp; sign is written as &amp;amp;amp;</p>\
            <pre>\ndef f(x):\n    return x + 1\n\nprint(f(2))</pre>\
            <p>line one<br>line two<br/>line three</p>\
            <p>co&shy;operation, Zero&#8203;width, a&#8205;b and a&#8204;b</p></body>";
        let texts = |cfg: &Config| -> Vec<String> {
            let page = Page {
                raw: html.as_bytes(),
                payload: html.as_bytes(),
                http_charset: None,
                meta: Meta::default(),
            };
            let doc = analyze(page, &Models::builtin(), cfg, &mut StageTimes::default()).unwrap();
            doc.blocks.iter().map(|b| b.text.clone()).collect()
        };
        assert_eq!(
            texts(&Config::default()),
            [
                "Visit https://example.com/page or write to jane.doe@example.com about the #festival plans",
                "Use the <div> element and a <b>bold</b> word",
                "The &amp; sign is written as &amp;amp;",
                "def f(x):\n    return x + 1\n\nprint(f(2))",
                "line one\nline two\nline three",
                "cooperation, Zerowidth, a\u{200d}b and a\u{200c}b",
            ]
        );
        let masked = Config {
            mask: Mask {
                email: true,
                uri: true,
                hashtag: false,
            },
            ..Config::default()
        };
        assert_eq!(
            texts(&masked)[0],
            "Visit uriblank or write to emailblank about the #festival plans"
        );
        // texrex's text: what the scorers read, as texrex writes it.
        let texrex = texts(&Config {
            texrex_text: true,
            ..Config::default()
        });
        assert_eq!(
            texrex[..5],
            [
                "Visit uriblank or write to emailblank about the hashtagblank plans",
                "Use the element and a bold word",
                "The & sign is written as &amp;",
                "def f(x): return x + 1 print(f(2))",
                "line one line two line three",
            ]
        );
    }

    fn nav_post_footer(para: &str) -> Document {
        analyze_html(&format!(
            "<body><nav><ul><li><a href=/>Home</a><li><a href=/a>About</a><li><a href=/c>Contact</a></ul></nav>\
             <div class=post><h1>A title</h1>{para}{para}{para}</div><footer><p>(c) 2024 <a href=/>Site</a></footer></body>"
        ))
    }

    #[test]
    fn regions_and_the_main_region() {
        let doc = nav_post_footer(
            "<p>This is a long sentence of real content, and it is written for the people who \
             read the page. It has more than one sentence, which is what they came for.</p>",
        );
        let texts: Vec<&str> = doc.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts.len(), 8, "{texts:?}");
        // body (all blocks), the list in the nav (0..=2), the post (3..=6). The footer's 3
        // words (kept by boilerpipe) make up for the nav's 3 (kept by neither), so body and post
        // tie as the main region: the smaller one is it.
        assert_eq!(doc.regions, [(0, 7), (0, 2), (3, 6)]);
        let shared = crate::classify::combined::SharedRows::of(&doc.blocks, &doc.regions);
        let x = crate::classify::combined::features(&doc.blocks, &doc.page_text, &shared);
        let column = crate::classify::combined::feature_index("in_main_region").unwrap();
        let in_main: Vec<f32> = x
            .chunks_exact(crate::classify::combined::N_FEATURES)
            .map(|row| row[column])
            .collect();
        assert_eq!(in_main, [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0]);
    }

    #[test]
    fn context_of_first_stage_probabilities() {
        use crate::classify::combined::{N_CONTEXT, context};
        let doc = nav_post_footer(
            "<p>This is a long sentence of real content, and it is written for the people who \
             read the page.</p>",
        );
        assert_eq!(doc.regions, [(0, 7), (0, 2), (3, 6)]);
        let p = [0.9, 0.9, 0.9, 0.1, 0.2, 0.3, 0.4, 0.8];
        let c = context(&doc.blocks, &doc.regions, &p);
        let row = |i: usize| &c[i * N_CONTEXT..(i + 1) * N_CONTEXT];
        let w: Vec<f64> = doc
            .blocks
            .iter()
            .map(|b| 1.0 + b.stats.words as f64)
            .collect();
        let total: f64 = w.iter().sum();
        let mean = |a: usize, b: usize| {
            ((a..b).map(|i| w[i] * p[i] as f64).sum::<f64>() / w[a..b].iter().sum::<f64>()) as f32
        };
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        // Own, previous and next probability; windows of 3 and 7.
        assert_eq!(row(0)[..3], [0.9, 1.0, 0.9]);
        assert_eq!(row(7)[..3], [0.8, 0.4, 1.0]);
        assert!(close(row(4)[3], mean(3, 6)) && close(row(4)[4], mean(1, 8)));
        // Innermost region (the post, 3..=6), second (the body), the page.
        assert!(close(row(4)[5], mean(3, 7)) && close(row(4)[6], mean(0, 8)));
        assert!(close(row(7)[5], mean(0, 8)) && close(row(7)[6], mean(0, 8)));
        assert!(close(row(0)[7], mean(0, 8)));
        // Words in lower-probability blocks: none below the lowest; ties do not count.
        assert_eq!(row(3)[8], 0.0);
        assert!(close(
            row(0)[8],
            ((total - w[0] - w[1] - w[2]) / total) as f32
        ));
        assert!(c.chunks_exact(N_CONTEXT).all(|r| r[9] == 0.1));
        // Distance to the nearest block below 0.5, and the share of words below it.
        assert!(close(row(0)[10], 3f32.ln_1p()) && row(5)[10] == 0.0);
        assert!(close(row(7)[10], 1f32.ln_1p()));
        assert!(close(
            row(0)[11],
            ((w[3] + w[4] + w[5] + w[6]) / total) as f32
        ));
    }
}

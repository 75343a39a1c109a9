//! Record selection: which WARC records hold an HTML page to analyse, and that page. A record
//! is selected when it is a `response` with a 2xx status (or none), HTML by its media type (or,
//! without one, by its first bytes), not binary, and its `Content-Encoding`, if any, can be
//! undone; or a `resource` record (a page captured without its HTTP exchange, as browser-based
//! crawlers store pages) that is HTML by its `Content-Type` (or, without one, by its first
//! bytes) and not binary. Otherwise its [`Fate`] says why not: a `revisit` record has its own.

use crate::document::Meta;

use crate::analyze::Page;
use crate::fate::Fate;
use crate::warc::{Record, http};

/// Whether a media type is HTML.
fn is_html_mime(m: &str) -> bool {
    matches!(m, "text/html" | "application/xhtml+xml")
}

/// A record's HTML page, ready for [`crate::analyze::analyze`], or the record's fate when it has
/// none: not a response, an HTTP error, not HTML, binary, or a payload that cannot be
/// decoded. A payload the server compressed is inflated into `decoded`.
pub(crate) fn record_page<'r>(
    r: &'r Record,
    arcfile: &str,
    max_payload: u64,
    decoded: &'r mut Vec<u8>,
) -> Result<Page<'r>, Fate> {
    match r.warc_type.as_str() {
        "response" => {}
        "resource" => return resource_page(r, arcfile),
        "revisit" => return Err(Fate::Revisit),
        _ => return Err(Fate::NotResponse),
    }
    let resp = http::parse(&r.block);
    if let Some(status) = resp.status
        && !(200..300).contains(&status)
    {
        return Err(Fate::HttpStatus);
    }
    let payload = &r.block[resp.body_start..];
    let html = match (
        resp.mime(),
        r.identified_payload_type.as_deref().map(http::mime_of),
    ) {
        (Some(m), _) if is_html_mime(&m) => true,
        (_, Some(m)) if is_html_mime(&m) => true,
        (None, None) => looks_like_html(payload),
        _ => false,
    };
    if !html {
        return Err(Fate::NotHtml);
    }
    // Payloads still compressed by the server (crawlers normally store them decoded, often
    // without removing the header).
    let (raw, payload): (&[u8], &[u8]) = match resp.header("Content-Encoding").map(str::trim) {
        Some(enc) if !enc.is_empty() && !enc.eq_ignore_ascii_case("identity") => {
            match decode_content(enc, payload, max_payload)? {
                Some(body) => {
                    decoded.clear();
                    decoded.extend_from_slice(&r.block[..resp.body_start]);
                    decoded.extend_from_slice(&body);
                    let decoded: &'r Vec<u8> = decoded;
                    (&decoded[..], &decoded[resp.body_start..])
                }
                None => (&r.block[..], payload),
            }
        }
        _ => (&r.block[..], payload),
    };
    // Checked on the decoded payload, so that a compressed one is judged by what it holds.
    if looks_binary(payload) {
        return Err(Fate::Binary);
    }
    let mut meta = record_meta(r, arcfile);
    meta.http_date = resp.header("Date").map(str::to_string);
    meta.last_modified = resp.header("Last-Modified").map(str::to_string);
    Ok(Page {
        raw,
        payload,
        http_charset: resp.charset(),
        meta,
    })
}

/// The page of a `resource` record: its block is the page itself, its media type and charset
/// the record's `Content-Type`.
fn resource_page<'r>(r: &'r Record, arcfile: &str) -> Result<Page<'r>, Fate> {
    let html = match r.content_type.as_deref().map(http::mime_of) {
        Some(m) => is_html_mime(&m),
        None => looks_like_html(&r.block),
    };
    if !html {
        return Err(Fate::NotHtml);
    }
    if looks_binary(&r.block) {
        return Err(Fate::Binary);
    }
    Ok(Page {
        raw: &r.block,
        payload: &r.block,
        http_charset: r.content_type.as_deref().and_then(http::charset_of),
        meta: record_meta(r, arcfile),
    })
}

/// A record's provenance, without the HTTP headers.
fn record_meta(r: &Record, arcfile: &str) -> Meta {
    Meta {
        url: r.target_uri.clone().unwrap_or_default(),
        ip: r.ip.clone(),
        record_id: r.record_id.clone(),
        warc_date: r.warc_date.clone(),
        http_date: None,
        last_modified: None,
        arcfile: arcfile.to_string(),
        arcoffset: r.offset,
        arclength: r.length,
        truncated: r.truncated.clone(),
    }
}

/// Undo a `Content-Encoding`. `Ok(None)`: the payload is not actually encoded (stored
/// decoded); `Err`: it is encoded in a way that cannot be undone here.
fn decode_content(encoding: &str, payload: &[u8], cap: u64) -> Result<Option<Vec<u8>>, Fate> {
    use std::io::Read as _;
    let enc = encoding.to_ascii_lowercase();
    let mut out = Vec::new();
    let result = match enc.as_str() {
        "gzip" | "x-gzip" if payload.starts_with(&[0x1f, 0x8b]) => {
            flate2::read::MultiGzDecoder::new(payload)
                .take(cap + 1)
                .read_to_end(&mut out)
        }
        "deflate"
            if payload.first().is_some_and(|b| b & 0x0f == 8) && !looks_like_html(payload) =>
        {
            flate2::read::ZlibDecoder::new(payload)
                .take(cap + 1)
                .read_to_end(&mut out)
        }
        _ if looks_like_html(payload) || payload.trim_ascii_start().starts_with(b"<") => {
            return Ok(None);
        }
        _ => return Err(Fate::ContentEncoded),
    };
    match result {
        Ok(_) if out.len() as u64 > cap => Err(Fate::PayloadTooLarge),
        Ok(_) => Ok(Some(out)),
        Err(_) => Err(Fate::ContentDecodingError),
    }
}

/// Binary data served as HTML: many control characters (NUL and the like) in the first 4 KiB.
pub(crate) fn looks_binary(payload: &[u8]) -> bool {
    let head = &payload[..payload.len().min(4096)];
    let control = head
        .iter()
        .filter(|&&b| b < 0x09 || (0x0e..0x1b).contains(&b))
        .count();
    !head.is_empty() && control * 20 > head.len()
}

/// Payloads without any Content-Type: HTML if they start like HTML.
fn looks_like_html(payload: &[u8]) -> bool {
    let head = payload[..payload.len().min(512)]
        .trim_ascii_start()
        .to_ascii_lowercase();
    head.starts_with(b"<!doctype html")
        || head.starts_with(b"<html")
        || head.starts_with(b"<head")
        || head.starts_with(b"<body")
}

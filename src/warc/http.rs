//! HTTP response header parsing for `response` record blocks.

use memchr::memmem;

/// A parsed HTTP response head.
#[derive(Debug, Clone, Default)]
pub struct Response<'a> {
    /// Status code of the status line, if it has one.
    pub status: Option<u16>,
    /// Header fields in order (names as sent).
    pub headers: Vec<(&'a str, &'a str)>,
    /// Offset of the payload in the block.
    pub body_start: usize,
}

impl<'a> Response<'a> {
    /// First value of a header field (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&'a str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }

    /// Media type of `Content-Type`, lower-cased, without parameters.
    pub fn mime(&self) -> Option<String> {
        self.header("Content-Type").map(mime_of)
    }

    /// `charset` parameter of `Content-Type`.
    pub fn charset(&self) -> Option<&'a str> {
        self.header("Content-Type").and_then(charset_of)
    }
}

/// Media type of a `Content-Type` value, lower-cased, without parameters.
pub(crate) fn mime_of(ct: &str) -> String {
    ct.split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The `charset` parameter of a `Content-Type` value.
pub(crate) fn charset_of(ct: &str) -> Option<&str> {
    ct.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(['"', '\'']))
    })
}

/// Parse the head of an HTTP response. A block that does not start with `HTTP/` has no head
/// (the whole block is payload).
pub fn parse(block: &[u8]) -> Response<'_> {
    if !block.starts_with(b"HTTP/") {
        return Response::default();
    }
    let (head_end, body_start) = match (
        memmem::find(block, b"\r\n\r\n"),
        memmem::find(block, b"\n\n"),
    ) {
        (Some(a), Some(b)) if b + 2 < a + 4 => (b, b + 2),
        (Some(a), _) => (a, a + 4),
        (None, Some(b)) => (b, b + 2),
        (None, None) => (block.len(), block.len()),
    };
    // Header values are ASCII in practice; a head that is not UTF-8 yields no fields.
    let Ok(head_str) = std::str::from_utf8(&block[..head_end]) else {
        return Response {
            status: None,
            headers: Vec::new(),
            body_start,
        };
    };
    let mut lines = head_str.split('\n').map(|l| l.trim_end_matches('\r'));
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok());
    let headers = lines
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim(), v.trim()))
        })
        .collect();
    Response {
        status,
        headers,
        body_start,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_status_headers_and_body() {
        let b = b"HTTP/1.1 200 OK\r\nContent-Type: text/HTML; Charset=\"ISO-8859-1\"\r\nDate: Mon\r\n\r\n<p>x";
        let r = parse(b);
        assert_eq!(r.status, Some(200));
        assert_eq!(r.mime().as_deref(), Some("text/html"));
        assert_eq!(r.charset(), Some("ISO-8859-1"));
        assert_eq!(r.header("date"), Some("Mon"));
        assert_eq!(&b[r.body_start..], b"<p>x");
        assert_eq!(parse(b"<html>").body_start, 0);
    }
}

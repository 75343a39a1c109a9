//! ARC files (the Internet Archive's format before WARC, version 1 and 2), read into the same
//! [`Record`]s as WARC files.
//!
//! An ARC file is a `filedesc://` record (the file's header, as a WARC's `warcinfo`), then one
//! record per capture: a header line `URL IP-address Archive-date Content-type Archive-length`
//! (version 2 has five more fields before the length), the captured bytes (for http(s), the
//! HTTP response with its headers) and a newline. A capture whose bytes start with an HTTP
//! status line becomes a `response` record, any other (a `dns:` lookup, a page stored without
//! its HTTP headers) a `resource` record with the header line's content type. ARC records have
//! no record id; a document's id then comes from the file and offset (see
//! [`crate::document::doc_id`]).

use std::io::{self, Read};

use fastwarc::stream_io::traits::WarcRead;

use super::{END_OF_INPUT, Handover, Pass, ReadItem, ReadOptions, Record, stopped};

/// The longest header line read; a longer one is damage.
pub(super) const MAX_LINE: usize = 64 << 10;

/// Whether `head` (the first decompressed bytes of a file) starts an ARC file.
pub(super) fn is_arc(head: &[u8]) -> bool {
    head.starts_with(b"filedesc://")
}

/// An ARC header line's fields.
#[derive(Debug, PartialEq)]
pub(super) struct Header {
    url: String,
    ip: String,
    date: String,
    mime: String,
    length: u64,
}

/// Parse an ARC header line (without its newline): version 1's five fields or version 2's
/// ten, the URL being what is left of the line (URLs with spaces occur). `None` when it is not
/// one: a field missing, a date that is not 8 to 17 digits, a length that is not a number, or
/// a URL without a scheme.
pub(super) fn parse_header(line: &[u8], version2: bool) -> Option<Header> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line)
        .map(std::borrow::Cow::Borrowed)
        .unwrap_or_else(|_| String::from_utf8_lossy(line));
    let fields: Vec<&str> = text.split(' ').filter(|f| !f.is_empty()).collect();
    // Fields after the URL: IP, date, type, then (version 2) result code, checksum, location,
    // offset and file name, then the length.
    let after = if version2 { 9 } else { 4 };
    if fields.len() <= after {
        return None;
    }
    let n = fields.len();
    let url = fields[..n - after].join(" ");
    let (ip, date, mime) = (
        fields[n - after],
        fields[n - after + 1],
        fields[n - after + 2],
    );
    let length = fields[n - 1];
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(date) && (8..=17).contains(&date.len()) && digits(length) && url.contains(':')) {
        return None;
    }
    Some(Header {
        url,
        ip: ip.to_string(),
        date: date.to_string(),
        mime: mime.to_string(),
        length: length.parse().ok()?,
    })
}

/// Whether `bytes` start with an ARC header line (a complete one, up to its newline).
pub(super) fn starts_record(bytes: &[u8]) -> bool {
    let end = bytes.len().min(MAX_LINE);
    memchr::memchr(b'\n', &bytes[..end]).is_some_and(|nl| {
        [false, true]
            .iter()
            .any(|&v2| parse_header(&bytes[..nl], v2).is_some())
    })
}

/// An ARC date (`YYYYMMDDhhmmss`) as a WARC date (`YYYY-MM-DDThh:mm:ssZ`); a shorter one is
/// completed with zeros (a date of 8 digits is that day's midnight).
fn warc_date(d: &str) -> String {
    let mut full = [b'0'; 14];
    for (to, from) in full.iter_mut().zip(d.bytes()) {
        *to = from;
    }
    let f = |a: usize, b: usize| std::str::from_utf8(&full[a..b]).unwrap_or("00");
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        f(0, 4),
        f(4, 6),
        f(6, 8),
        f(8, 10),
        f(10, 12),
        f(12, 14)
    )
}

/// The record of a header line, before its block is read.
fn record(h: Header, offset: u64) -> Record {
    let filedesc = h.url.starts_with("filedesc:");
    Record {
        warc_type: if filedesc { "warcinfo" } else { "response" }.into(),
        target_uri: Some(h.url),
        warc_date: Some(warc_date(&h.date)),
        ip: Some(h.ip),
        content_type: Some(h.mime),
        offset,
        ..Record::default()
    }
}

/// Settle what a record's block tells: a capture without an HTTP status line is a `resource`
/// record with the header line's content type; one with it, an HTTP `response`.
fn settle(r: &mut Record) {
    if r.warc_type != "response" {
        return;
    }
    if r.block.starts_with(b"HTTP/") {
        r.content_type = Some("application/http; msgtype=response".into());
    } else {
        r.warc_type = "resource".into();
    }
}

/// Read a line into `line` (with its newline), at most [`MAX_LINE`] bytes; the bytes read.
fn read_line(r: &mut dyn WarcRead, line: &mut Vec<u8>) -> io::Result<usize> {
    line.clear();
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(line.len());
        }
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let take = take.min(MAX_LINE + 1 - line.len());
        line.extend_from_slice(&buf[..take]);
        r.consume(take);
        if done || line.len() > MAX_LINE {
            return Ok(line.len());
        }
    }
}

/// The ARC version the file's `filedesc://` record declares (the first field of its block).
fn version_of(block: &[u8]) -> Option<u8> {
    match block.split(|&b| b == b' ' || b == b'\n').next()? {
        b"1" => Some(1),
        b"2" => Some(2),
        _ => None,
    }
}

/// Read the ARC records from `reader`, which is at `start` in the file, handing them to
/// `out`, up to the end of the input or the first damage (a line that is not a header, or a
/// read error). `version2` is the file's version as its `filedesc://` record declares it
/// (kept across the passes over one file).
pub(super) fn read_pass<F: FnMut(ReadItem) -> bool>(
    mut reader: Box<dyn WarcRead>,
    start: u64,
    opts: ReadOptions,
    version2: &mut bool,
    out: &mut Handover<F>,
) -> io::Result<Pass> {
    let r = reader.as_mut();
    let mut last_offset = start;
    let mut line = Vec::with_capacity(256);
    let damaged = |at: u64| {
        Ok(Pass {
            failed_at: Some(at),
            last_offset: at,
        })
    };
    loop {
        if !out.go_on {
            return Err(stopped());
        }
        // The newline after each record's block, and any blank line.
        let mut offset = match skip_blank(r) {
            Ok(Some(p)) => p,
            Ok(None) => {
                return Ok(Pass {
                    failed_at: None,
                    last_offset,
                });
            }
            // In the frame (gzip member) the read failed in, if after the last record.
            Err(_) => {
                let frame = r.frame_start_position().ok().flatten();
                return damaged(frame.filter(|&p| p > last_offset).unwrap_or(last_offset));
            }
        };
        if read_line(r, &mut line).is_err() {
            return damaged(offset);
        }
        // As for WARC records: the start of the frame (gzip member) the line is in.
        if let Ok(Some(p)) = r.frame_start_position()
            && p > 0
        {
            offset = p;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let Some(header) = parse_header(text, *version2) else {
            return damaged(offset);
        };
        let len = header.length;
        let mut record = record(header, offset);
        last_offset = offset;
        out.flush(offset);
        let result = if len > opts.max_payload {
            io::copy(&mut (&mut *r).take(len), &mut io::sink()).map(|n| (n, false))
        } else {
            let mut buf = Vec::with_capacity(len as usize);
            (&mut *r).take(len).read_to_end(&mut buf).map(|n| {
                record.block = buf;
                (n as u64, true)
            })
        };
        match result {
            Ok((n, whole)) => {
                if n < len {
                    record.truncated = Some(END_OF_INPUT.into());
                }
                if record.warc_type == "warcinfo"
                    && let Some(v) = version_of(&record.block)
                {
                    *version2 = v == 2;
                }
                settle(&mut record);
                out.pending = Some(if whole {
                    ReadItem::Record(record)
                } else {
                    ReadItem::TooLarge(record)
                });
            }
            Err(e) => {
                out.pending = Some(ReadItem::Broken(record, e.to_string()));
                return damaged(offset);
            }
        }
    }
}

/// Skip newlines (the one after a record's block, and blank lines); the stream position of
/// the next byte, `None` at the end of the input.
fn skip_blank(r: &mut dyn WarcRead) -> io::Result<Option<u64>> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let blank = buf
            .iter()
            .take_while(|&&b| b == b'\n' || b == b'\r')
            .count();
        if blank < buf.len() {
            r.consume(blank);
            return r.inner_stream_position().map(Some);
        }
        let n = buf.len();
        r.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_of_both_versions() {
        let h = parse_header(
            b"http://example.com/ 93.184.216.119 20140216050221 text/html 1591",
            false,
        )
        .unwrap();
        assert_eq!(
            h,
            Header {
                url: "http://example.com/".into(),
                ip: "93.184.216.119".into(),
                date: "20140216050221".into(),
                mime: "text/html".into(),
                length: 1591,
            }
        );
        // A URL with a space, a CR before the newline.
        let h = parse_header(b"http://x/a b 1.2.3.4 20140216050221 text/html 7\r", false).unwrap();
        assert_eq!((h.url.as_str(), h.length), ("http://x/a b", 7));
        let v2 = b"http://x/ 1.2.3.4 20080430204826 text/html 200 ABCD - 0 f.arc 680";
        let h = parse_header(v2, true).unwrap();
        assert_eq!(
            (h.url.as_str(), h.mime.as_str(), h.length),
            ("http://x/", "text/html", 680)
        );
        for bad in [
            &b"<p>some text of a page</p>"[..],
            b"http://x/ 1.2.3.4 2008 text/html 680",
            b"http://x/ 1.2.3.4 20080430204826 text/html 68O",
            b"nourl 1.2.3.4 20080430204826 text/html 680",
            b"",
        ] {
            assert_eq!(
                parse_header(bad, false),
                None,
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        assert!(starts_record(
            b"dns:x 1.2.3.4 20080430204825 text/dns 56\nbody"
        ));
        assert!(!starts_record(b"dns:x 1.2.3.4 20080430204825 text/dns 56"));
    }

    #[test]
    fn dates_become_warc_dates() {
        assert_eq!(warc_date("20080430204825"), "2008-04-30T20:48:25Z");
        assert_eq!(warc_date("20080430"), "2008-04-30T00:00:00Z");
        assert_eq!(warc_date("2008043020482512"), "2008-04-30T20:48:25Z");
    }
}

//! WARC reading on top of `fastwarc`, with recovery: when a gzip member or a record header is
//! broken, the reader skips to the next gzip member (or `WARC/` line) that starts a record
//! and goes on, so one bad record never costs the rest of the file.

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use fastwarc::stream_io::traits::IntoWarcReader;
use fastwarc::warc::iter::{ArchiveIterator, ArchiveIteratorOptions};
use fastwarc::warc::record::{SharedWarcRecord, WarcRecord};
use memchr::memmem;

#[cfg(feature = "http")]
mod fetch;
pub mod http;
mod members;
#[cfg(feature = "s3")]
pub mod s3;
pub mod source;

pub use source::{Location, Retry, Source, s3_parts};

/// One WARC record as the pipeline sees it.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// `WARC-Type` (lower case; `unknown` when missing or unrecognised).
    pub warc_type: String,
    /// `WARC-Target-URI`, without angle brackets.
    pub target_uri: Option<String>,
    /// `WARC-Record-ID`.
    pub record_id: Option<String>,
    /// `WARC-Date`, as written.
    pub warc_date: Option<String>,
    /// `WARC-IP-Address`.
    pub ip: Option<String>,
    /// `WARC-Identified-Payload-Type`.
    pub identified_payload_type: Option<String>,
    /// The record's `Content-Type`: of its block (`application/http; msgtype=response` for a
    /// response, the page's own media type for a `resource` record).
    pub content_type: Option<String>,
    /// Why the record's block is incomplete, if it is: the crawler's `WARC-Truncated` reason
    /// (`length`, `time`, `disconnect`, `unspecified`), or [`END_OF_INPUT`] when the input
    /// ended inside the block.
    pub truncated: Option<String>,
    /// The record block (for `response` records: HTTP headers and payload).
    pub block: Vec<u8>,
    /// Where the record starts in the file (the gzip member for `.warc.gz`).
    pub offset: u64,
    /// The record's length in the file (filled in when the next record is found).
    pub length: u64,
}

/// [`Record::truncated`] of a record whose block the input ended inside of (a file cut in its
/// last record or gzip member). Such a record is also reported as a damaged stretch,
/// [`TRUNCATED_RECORD`], with its bytes in the file.
pub const END_OF_INPUT: &str = "end_of_input";

/// The [`ReadItem::Skipped`] reason that follows a record the input ended inside of.
pub const TRUNCATED_RECORD: &str = "truncated_record";

/// What happened to one record while reading it.
#[derive(Debug)]
pub enum ReadItem {
    /// A record whose block was read completely.
    Record(Record),
    /// A record whose block exceeded the payload cap (not buffered).
    TooLarge(Record),
    /// A record whose block could not be read (truncated or corrupt stream).
    Broken(Record, String),
    /// A damaged stretch of the file that was skipped, with its reason and length in bytes.
    Skipped {
        /// Why: `corrupt_record`, `corrupt_gzip_or_record` or [`TRUNCATED_RECORD`].
        reason: &'static str,
        /// Length of the stretch in bytes.
        bytes: u64,
    },
}

/// Reader options.
#[derive(Debug, Clone, Copy)]
pub struct ReadOptions {
    /// Record blocks larger than this are not buffered (see [`ReadItem::TooLarge`]).
    pub max_payload: u64,
}

/// Read every record of a WARC file (plain or gzip, per-record or whole-file), calling `f`
/// for each item in file order. Records are handed over with their length known. `f` returns
/// `false` to stop reading (the result is then an `Interrupted` error). Returns the file's
/// length in bytes.
pub fn read_file(
    path: &Path,
    opts: ReadOptions,
    f: impl FnMut(ReadItem) -> bool,
) -> io::Result<u64> {
    read(
        &Source::new(Location::File(path.to_path_buf()), Retry::default()),
        opts,
        f,
    )
}

/// [`read_file`] on any source.
pub fn read(src: &Source, opts: ReadOptions, f: impl FnMut(ReadItem) -> bool) -> io::Result<u64> {
    // The first pass's reader tells whether the file is gzipped (one request over HTTP).
    let (first_reader, gzip) = open_first(src)?;
    let mut first_reader = Some(first_reader);
    let mut out = Handover {
        f,
        go_on: true,
        pending: None,
    };
    let mut start = 0u64;
    loop {
        let reader = match first_reader.take() {
            Some(r) => r,
            None => BufReader::with_capacity(1 << 17, src.open_at(start)?),
        };
        let pass = if gzip {
            let head = reader.buffer().to_vec();
            let members = members::Members::new(reader.into_inner(), start, head);
            read_pass(members, start, opts, &mut out)?
        } else {
            read_pass(reader, start, opts, &mut out)?
        };
        // A stop request can surface as a read error; it is not damage to recover from.
        if crate::stop::requested() {
            return Err(stopped());
        }
        let Some(from) = pass.failed_at else {
            let file_len = src.size().unwrap_or(pass.last_offset);
            out.flush(file_len);
            return out.result(file_len);
        };
        if !out.go_on {
            return Err(stopped());
        }
        let (next, file_len) = skip_damage(src, from, gzip, &mut out)?;
        match next {
            Some(n) if n > start => start = n,
            _ => return out.result(file_len),
        }
    }
}

/// The error of a read that the caller stopped.
fn stopped() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "stopped")
}

/// A reader of `src` from its start, and whether the file is gzipped (by its first bytes).
fn open_first(src: &Source) -> io::Result<(BufReader<source::Reader>, bool)> {
    let mut reader = BufReader::with_capacity(1 << 17, src.open_at(0)?);
    let head = reader.fill_buf()?;
    let gzip = if head.len() == 1 {
        // Rare: a first read of one byte; look again from the start.
        let mut magic = [0u8; 2];
        read_full(&mut src.open_at(0)?, &mut magic)? == 2 && magic == [0x1f, 0x8b]
    } else {
        head.starts_with(&[0x1f, 0x8b])
    };
    Ok((reader, gzip))
}

/// Hands the items to the caller's callback in file order, each record held back until the
/// next one tells its length. Once the callback returns `false`, nothing more is handed over.
struct Handover<F> {
    f: F,
    /// The callback has not asked to stop.
    go_on: bool,
    /// The record read last, held back until the next one tells its length.
    pending: Option<ReadItem>,
}

impl<F: FnMut(ReadItem) -> bool> Handover<F> {
    /// Hand `item` over, unless the callback asked to stop.
    fn give(&mut self, item: ReadItem) {
        if self.go_on {
            self.go_on = (self.f)(item);
        }
    }

    /// Hand over the record held back, which ends at `next_offset`; one that the input ended
    /// inside of is followed by its damaged stretch ([`TRUNCATED_RECORD`]).
    fn flush(&mut self, next_offset: u64) {
        if let Some(mut item) = self.pending.take() {
            let mut cut = None;
            if let ReadItem::Record(r) | ReadItem::TooLarge(r) | ReadItem::Broken(r, _) = &mut item
            {
                r.length = next_offset.saturating_sub(r.offset);
                if r.truncated.as_deref() == Some(END_OF_INPUT) {
                    cut = Some(r.length);
                }
            }
            self.give(item);
            if let Some(bytes) = cut {
                self.give(ReadItem::Skipped {
                    reason: TRUNCATED_RECORD,
                    bytes,
                });
            }
        }
    }

    /// The result of a read that ends here: the file's length, or the error of a stopped read.
    fn result(&self, file_len: u64) -> io::Result<u64> {
        if self.go_on {
            Ok(file_len)
        } else {
            Err(stopped())
        }
    }
}

/// Where a pass over the records ended.
struct Pass {
    /// Where the damage was met: the start of the last record read (or of the pass); `None`
    /// when the pass read to the end of the input.
    failed_at: Option<u64>,
    /// The start of the last record read (or of the pass).
    last_offset: u64,
}

/// Read the records from `reader`, which is at `start` in the file, handing them to `out`, up
/// to the end of the input or the first damage. A record whose block could not be read is
/// held back as [`ReadItem::Broken`]. An `Interrupted` error when the callback asked to stop.
fn read_pass<F: FnMut(ReadItem) -> bool>(
    reader: impl IntoWarcReader,
    start: u64,
    opts: ReadOptions,
    out: &mut Handover<F>,
) -> io::Result<Pass> {
    let options = ArchiveIteratorOptions {
        parse_http: false,
        quirks_mode: true,
        max_header_len: 1 << 20,
        ..Default::default()
    };
    let iter = ArchiveIterator::with_options(reader, options);
    let mut last_offset = start;
    for item in iter {
        if !out.go_on {
            return Err(stopped());
        }
        let Ok(rec) = item else {
            return Ok(Pass {
                failed_at: Some(last_offset),
                last_offset,
            });
        };
        let (record, result) = rec.with_mut(|r| take_record(r, r.stream_pos(), opts.max_payload));
        last_offset = record.offset;
        out.flush(record.offset);
        match result {
            Ok(true) => out.pending = Some(ReadItem::Record(record)),
            Ok(false) => out.pending = Some(ReadItem::TooLarge(record)),
            Err(e) => {
                out.pending = Some(ReadItem::Broken(record, e.to_string()));
                return Ok(Pass {
                    failed_at: Some(last_offset),
                    last_offset,
                });
            }
        }
    }
    Ok(Pass {
        failed_at: None,
        last_offset,
    })
}

/// The record that starts at `offset`: its headers, and its block unless that is over
/// `max_payload`. With it, `Ok(true)` when the block was read (to the end of the input at
/// most), `Ok(false)` when it is over the cap, or the error that stopped reading it.
fn take_record(r: &mut WarcRecord, offset: u64, max_payload: u64) -> (Record, io::Result<bool>) {
    let h = r.headers();
    let get = |k: &str| h.get(k).map(|v| v.trim().to_string());
    let mut record = Record {
        warc_type: r.record_type().as_str().to_ascii_lowercase(),
        target_uri: get("WARC-Target-URI").map(|u| u.trim_matches(['<', '>']).to_string()),
        record_id: get("WARC-Record-ID"),
        warc_date: get("WARC-Date"),
        ip: get("WARC-IP-Address"),
        identified_payload_type: get("WARC-Identified-Payload-Type"),
        content_type: get("Content-Type"),
        truncated: get("WARC-Truncated"),
        offset,
        ..Default::default()
    };
    if record.warc_type.is_empty() || record.warc_type == "notype" {
        record.warc_type = "unknown".into();
    }
    let len = r.content_length();
    let result = if len > max_payload {
        Ok(false)
    } else if let Some(reader) = r.reader_mut() {
        let mut buf = Vec::with_capacity(len as usize);
        reader.take(len).read_to_end(&mut buf).map(|n| {
            if (n as u64) < len {
                record.truncated = Some(END_OF_INPUT.into());
            }
            record.block = buf;
            true
        })
    } else {
        Ok(true)
    };
    (record, result)
}

/// After damage met at `from`: find where the next record starts, then hand over the record
/// held back, which ends there, and the damaged stretch. Returns where the next record starts
/// (`None` at the end of the input) and the file's length.
fn skip_damage<F: FnMut(ReadItem) -> bool>(
    src: &Source,
    from: u64,
    gzip: bool,
    out: &mut Handover<F>,
) -> io::Result<(Option<u64>, u64)> {
    let (next, end) = resync(src, from + 1, gzip)?;
    let file_len = src.size().unwrap_or(end);
    let next_offset = next.unwrap_or(file_len);
    let record_end = match &out.pending {
        Some(ReadItem::Broken(r, _)) => r.offset,
        _ => from,
    };
    out.flush(next_offset);
    let skipped = next_offset.saturating_sub(record_end.max(from));
    out.give(ReadItem::Skipped {
        reason: if gzip {
            "corrupt_gzip_or_record"
        } else {
            "corrupt_record"
        },
        bytes: skipped,
    });
    Ok((next, file_len))
}

/// The next position at or after `from` where a record starts: a gzip member whose content
/// begins with `WARC/`, or (plain files) a line `WARC/1.x`; `None` and the file's end if
/// there is none.
fn resync(src: &Source, from: u64, gzip: bool) -> io::Result<(Option<u64>, u64)> {
    let mut r = src.open_at(from)?;
    let needle: &[u8] = if gzip { b"\x1f\x8b\x08" } else { b"WARC/1." };
    let mut buf = vec![0u8; 1 << 20];
    // `buf[..keep]` holds the end of the previous chunk, so a match across chunks is found;
    // `base` is the file position of `buf[0]`.
    let (mut base, mut keep) = (from, 0usize);
    loop {
        let n = keep + read_full(&mut r, &mut buf[keep..])?;
        if n == keep {
            return Ok((None, base + n as u64));
        }
        for o in memmem::find_iter(&buf[..n], needle) {
            let pos = base + o as u64;
            if !gzip {
                if o == 0 && pos == from || o > 0 && buf[o - 1] == b'\n' || pos == 0 {
                    return Ok((Some(pos), pos));
                }
                continue;
            }
            if member_starts_record(src, pos)? {
                return Ok((Some(pos), pos));
            }
        }
        if n < buf.len() {
            return Ok((None, base + n as u64));
        }
        // Keep the last bytes (one short of a needle, plus the byte before it for `\n`).
        keep = needle.len();
        buf.copy_within(n - keep.., 0);
        base += (n - keep) as u64;
    }
}

/// Read until `buf` is full or the input ends; the number of bytes read. A stop asked for by
/// a signal ends it with the reader's `Interrupted` error.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted && !crate::stop::is_stop(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

fn member_starts_record(src: &Source, pos: u64) -> io::Result<bool> {
    let fh = src.open_at(pos)?;
    let mut dec = flate2::read::GzDecoder::new(BufReader::new(fh.take(64 * 1024)));
    let mut head = [0u8; 8];
    let mut got = 0;
    while got < head.len() {
        match dec.read(&mut head[got..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => got += k,
        }
    }
    Ok(got >= 6 && head.starts_with(b"WARC/"))
}

/// Data for the tests of reading.
#[cfg(test)]
mod test_data {
    use std::io::Write;

    /// `data` as one gzip member.
    pub fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// Bytes that gzip cannot shrink (a 64-bit LCG's high bytes).
    pub fn noise(n: usize) -> Vec<u8> {
        let mut x = 1u64;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 56) as u8
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::test_data::{gz, noise};
    use super::*;

    fn record(uri: &str, body: &str) -> Vec<u8> {
        let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}");
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Record-ID: <urn:uuid:{uri}>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        )
        .into_bytes()
    }

    fn read_all(bytes: &[u8]) -> Vec<ReadItem> {
        let dir = std::env::temp_dir().join(format!(
            "cowrex-warc-test-{}-{}",
            std::process::id(),
            bytes.len()
        ));
        std::fs::write(&dir, bytes).unwrap();
        let mut items = Vec::new();
        read_file(
            &dir,
            ReadOptions {
                max_payload: 1 << 20,
            },
            |i| {
                items.push(i);
                true
            },
        )
        .unwrap();
        std::fs::remove_file(&dir).unwrap();
        items
    }

    #[test]
    fn offsets_and_lengths_of_gzip_members() {
        let members: Vec<Vec<u8>> = (0..3)
            .map(|i| gz(&record(&format!("http://x/{i}"), "<p>hi</p>")))
            .collect();
        let file: Vec<u8> = members.concat();
        let items = read_all(&file);
        let mut expect = 0u64;
        assert_eq!(items.len(), 3);
        for (item, m) in items.iter().zip(&members) {
            let ReadItem::Record(r) = item else {
                panic!("{item:?}")
            };
            assert_eq!((r.offset, r.length), (expect, m.len() as u64));
            assert!(r.block.ends_with(b"<p>hi</p>"));
            expect += m.len() as u64;
        }
    }

    /// The offset and length of a record read (of any fate).
    fn place(item: &ReadItem) -> (u64, u64) {
        match item {
            ReadItem::Record(r) | ReadItem::TooLarge(r) | ReadItem::Broken(r, _) => {
                (r.offset, r.length)
            }
            ReadItem::Skipped { .. } => panic!("{item:?}"),
        }
    }

    #[test]
    fn members_beyond_the_window_and_beyond_the_largest_whole_member_are_read() {
        // b's compressed size is over half the first window, so it is read with a larger
        // one; c decompresses to more than `MAX_MEMBER`, so `GzipReader` reads c and d.
        let big = "<p>the same words</p>".repeat(17 << 20 >> 4);
        let hex: String = noise(350_000).iter().map(|b| format!("{b:02x}")).collect();
        let members = [
            gz(&record("http://x/a", "<p>a</p>")),
            gz(&record("http://x/b", &hex)),
            gz(&record("http://x/c", &big)),
            gz(&record("http://x/d", "<p>d</p>")),
        ];
        assert!(members[1].len() > 256 << 10 && big.len() > 16 << 20);
        let items = read_all(&members.concat());
        assert_eq!(items.len(), 4, "{items:?}");
        let mut expect = 0u64;
        for (item, m) in items.iter().zip(&members) {
            assert_eq!(place(item), (expect, m.len() as u64));
            expect += m.len() as u64;
        }
        assert!(matches!(&items[2], ReadItem::TooLarge(_)));
        let ReadItem::Record(b) = &items[1] else {
            panic!("{:?}", items[1])
        };
        assert!(b.block.ends_with(hex.as_bytes()));
        let ReadItem::Record(d) = &items[3] else {
            panic!("{:?}", items[3])
        };
        assert!(d.block.ends_with(b"<p>d</p>"));
    }

    #[test]
    fn damage_deep_in_a_member_costs_that_member_only() {
        let body: String = (0..40_000).map(|i| format!("<p>line {i}</p>")).collect();
        let a = gz(&record("http://x/a", "<p>a</p>"));
        let mut b = gz(&record("http://x/b", &body));
        let c = gz(&record("http://x/c", "<p>c</p>"));
        let at = b.len() * 3 / 4;
        b[at] ^= 0x55;
        let file = [a.clone(), b.clone(), c.clone()].concat();
        let items = read_all(&file);
        // b is read as far as its damage, and its bytes are the damaged stretch.
        assert_eq!(items.len(), 4, "{items:?}");
        assert!(matches!(&items[0], ReadItem::Record(r) if r.block.ends_with(b"<p>a</p>")));
        assert!(matches!(&items[1], ReadItem::Broken(..)));
        let stretch = b.len() as u64;
        assert_eq!(place(&items[1]), (a.len() as u64, stretch));
        assert!(matches!(&items[2], ReadItem::Skipped { bytes, .. } if *bytes == stretch));
        assert!(matches!(&items[3], ReadItem::Record(r) if r.block.ends_with(b"<p>c</p>")));
        assert_eq!(
            place(&items[3]),
            ((a.len() + b.len()) as u64, c.len() as u64)
        );
    }

    #[test]
    fn empty_members_and_members_of_several_records_lose_nothing() {
        // Two records in the first member, an empty member, then a member per record.
        let two = gz(&[
            record("http://x/a", "<p>a</p>"),
            record("http://x/b", "<p>b</p>"),
        ]
        .concat());
        let empty = gz(b"");
        let c = gz(&record("http://x/c", "<p>c</p>"));
        let d = gz(&record("http://x/d", "<p>d</p>"));
        let file = [two.clone(), empty.clone(), c.clone(), d.clone()].concat();
        let items = read_all(&file);
        let uris: Vec<&str> = items
            .iter()
            .map(|i| match i {
                ReadItem::Record(r) => r.target_uri.as_deref().unwrap(),
                _ => panic!("{i:?}"),
            })
            .collect();
        assert_eq!(
            uris,
            ["http://x/a", "http://x/b", "http://x/c", "http://x/d"]
        );
        // Inside the first member, b's offset is where its content is in proportion.
        let places: Vec<(u64, u64)> = items.iter().map(place).collect();
        assert_eq!(places[0].0, 0);
        assert!(
            places[1].0 > 0 && places[1].0 < two.len() as u64,
            "{places:?}"
        );
        let c_at = (two.len() + empty.len()) as u64;
        assert_eq!(places[2], (c_at, c.len() as u64));
        assert_eq!(places[3], (c_at + c.len() as u64, d.len() as u64));
        let total: u64 = places.iter().map(|p| p.1).sum();
        assert_eq!(total, file.len() as u64);
    }

    #[test]
    fn garbage_and_truncated_members_lose_nothing_else() {
        let a = gz(&record("http://x/a", "<p>a</p>"));
        let b = gz(&record("http://x/b", "<p>b</p>"));
        let c = gz(&record("http://x/c", "<p>c</p>"));
        let mut file = a.clone();
        file.extend_from_slice(b"some garbage between members");
        file.extend_from_slice(&b[..b.len() / 2]); // truncated member
        file.extend_from_slice(&c);
        let items = read_all(&file);
        let uris: Vec<String> = items
            .iter()
            .filter_map(|i| match i {
                ReadItem::Record(r) => r.target_uri.clone(),
                _ => None,
            })
            .collect();
        assert_eq!(uris, vec!["http://x/a", "http://x/c"]);
        assert!(items.iter().any(|i| matches!(i, ReadItem::Skipped { .. })));
    }

    #[test]
    fn a_record_the_input_ends_inside_is_marked_and_counted() {
        let body: String = (0..400).map(|i| format!("<p>word {i} of it</p>")).collect();
        for gzipped in [false, true] {
            let pack = |r: Vec<u8>| if gzipped { gz(&r) } else { r };
            let a = pack(record("http://x/a", "<p>a</p>"));
            let b = pack(record("http://x/b", &body));
            let mut file = a.clone();
            file.extend_from_slice(&b[..b.len() * 2 / 3]);
            let items = read_all(&file);
            assert_eq!(items.len(), 3, "gzip {gzipped}: {items:?}");
            let ReadItem::Record(first) = &items[0] else {
                panic!("{:?}", items[0])
            };
            assert_eq!(first.truncated, None);
            let ReadItem::Record(cut) = &items[1] else {
                panic!("gzip {gzipped}: {:?}", items[1])
            };
            assert_eq!(cut.truncated.as_deref(), Some(END_OF_INPUT));
            assert_eq!(
                (cut.offset, cut.length),
                (a.len() as u64, (file.len() - a.len()) as u64)
            );
            assert!(!cut.block.is_empty() && cut.block.len() < body.len());
            let ReadItem::Skipped { reason, bytes } = &items[2] else {
                panic!("{:?}", items[2])
            };
            assert_eq!((*reason, *bytes), (TRUNCATED_RECORD, cut.length));
        }
    }
}

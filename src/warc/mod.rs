//! Reading web archives: WARC files on top of `fastwarc`, and ARC files (`arc.rs`), plain,
//! gzipped (per record or whole) or zstd-compressed (per record, with or without a dictionary
//! frame), with recovery: when a gzip member, a zstd frame or a record header is broken, the
//! reader skips to the next member (or frame, or line) that starts a record and goes on, so one
//! bad record never costs the rest of the file.

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::stop::{Stop, stopped};
use fastwarc::stream_io::traits::{IntoWarcReader, WarcRead};
use fastwarc::stream_io::zstd::ZstdReader;
use fastwarc::warc::iter::{ArchiveIterator, ArchiveIteratorOptions};
use fastwarc::warc::record::{SharedWarcRecord, WarcRecord};
use memchr::memmem;

mod arc;
#[cfg(feature = "http")]
mod fetch;
pub mod http;
mod members;
mod remote;
#[cfg(feature = "s3")]
pub mod s3;
pub mod source;

pub use remote::{Retry, s3_parts};
pub use source::{Location, Source};

/// One WARC record as the pipeline sees it (an ARC record is read into one too).
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
    /// Where the record starts in the file (the gzip member for `.warc.gz`, the zstd frame for
    /// `.warc.zst`).
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
        /// Why: `corrupt_record`, `corrupt_gzip_or_record`, `corrupt_zstd_or_record` or
        /// [`TRUNCATED_RECORD`].
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

/// Read every record of a WARC or ARC file (plain, gzip per record or whole, or zstd per
/// record), calling `f`
/// for each item in file order. Records are handed over with their length known. `f` returns
/// `false` to stop reading (the result is then an `Interrupted` error). Returns the file's
/// length in bytes.
pub fn read_file(
    path: &Path,
    opts: ReadOptions,
    f: impl FnMut(ReadItem) -> bool,
) -> io::Result<u64> {
    read(
        &Source::new(
            Location::File(path.to_path_buf()),
            Retry::default(),
            Stop::new(),
        ),
        opts,
        f,
    )
}

/// [`read_file`] on any source.
pub fn read(src: &Source, opts: ReadOptions, f: impl FnMut(ReadItem) -> bool) -> io::Result<u64> {
    // The first pass's reader tells how the file is compressed (one request over HTTP).
    let (first_reader, packing, mut start) = open_first(src)?;
    let mut format = format_of(first_reader.buffer(), &packing);
    let mut first_reader = Some(first_reader);
    let mut out = Handover {
        f,
        go_on: true,
        pending: None,
    };
    loop {
        let reader = match first_reader.take() {
            Some(r) => r,
            None => BufReader::with_capacity(1 << 17, src.open_at(start)?),
        };
        let stream: Box<dyn WarcRead> = match &packing {
            Packing::Gzip => {
                let head = reader.buffer().to_vec();
                Box::new(members::Members::new(reader.into_inner(), start, head))
            }
            Packing::Zstd(Some(dict)) => {
                Box::new(ZstdReader::with_dictionary(reader, dict.clone(), None))
            }
            Packing::Zstd(None) => Box::new(ZstdReader::new(reader)),
            Packing::Plain => reader.into_warc_reader(),
        };
        let pass = read_pass(stream, start, opts, &mut format, &mut out)?;
        // A stop request can surface as a read error; it is not damage to recover from.
        if src.stop().requested() {
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
        let (next, file_len) = skip_damage(src, from, &packing, format, &mut out)?;
        match next {
            Some(n) if n > start => start = n,
            _ => return out.result(file_len),
        }
    }
}

/// The records' format by a file's first bytes (decompressing the start of a gzip member; zstd
/// holds WARC files only); `None` when they do not tell (an empty or damaged start).
fn format_of(head: &[u8], packing: &Packing) -> Option<Format> {
    let mut content = Vec::new();
    let content: &[u8] = match packing {
        Packing::Zstd(_) => return Some(Format::Warc),
        Packing::Plain => head,
        Packing::Gzip => {
            let mut dec = flate2::read::GzDecoder::new(head);
            let _ = dec.by_ref().take(16).read_to_end(&mut content);
            &content
        }
    };
    if arc::is_arc(content) {
        Some(Format::Arc { version2: false })
    } else if content.starts_with(b"WARC/") {
        Some(Format::Warc)
    } else {
        None
    }
}

/// How a file's bytes are compressed, by its first bytes.
enum Packing {
    /// Not compressed.
    Plain,
    /// gzip members (one per record, or one for the whole file).
    Gzip,
    /// zstd frames, one per record (the IIPC's `.warc.zst`), with the dictionary of the
    /// file's dictionary frame, if it starts with one.
    Zstd(Option<Vec<u8>>),
}

/// The start of a gzip member.
const GZIP_MAGIC: &[u8] = b"\x1f\x8b\x08";

/// The start of a zstd frame.
const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];

/// The start of the skippable frame that holds a `.warc.zst`'s dictionary.
const ZSTD_DICTIONARY_FRAME: &[u8] = &[0x5d, 0x2a, 0x4d, 0x18];

/// The start of a zstd dictionary.
const ZSTD_DICTIONARY: &[u8] = &[0x37, 0xa4, 0x30, 0xec];

/// The largest dictionary frame read.
const MAX_DICTIONARY: u32 = 64 << 20;

/// The records' format.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Format {
    Warc,
    /// An ARC file, of version 2 or (if not) 1.
    Arc {
        version2: bool,
    },
}

/// A reader of `src` from its start, how the file is compressed (by its first bytes), and where
/// its first record may start: after a zstd dictionary frame, which the reader is then past.
fn open_first(src: &Source) -> io::Result<(BufReader<source::Reader>, Packing, u64)> {
    let mut reader = BufReader::with_capacity(1 << 17, src.open_at(0)?);
    let head = reader.fill_buf()?;
    let mut magic = [0u8; 4];
    let got = if head.len() < magic.len() {
        // Rare: a first read of a few bytes; look again from the start.
        read_full(&mut src.open_at(0)?, &mut magic)?
    } else {
        magic.copy_from_slice(&head[..4]);
        4
    };
    let magic = &magic[..got];
    if magic.starts_with(&GZIP_MAGIC[..2]) {
        Ok((reader, Packing::Gzip, 0))
    } else if magic == ZSTD_MAGIC {
        Ok((reader, Packing::Zstd(None), 0))
    } else if magic == ZSTD_DICTIONARY_FRAME {
        let (dict, frame_len) = zstd_dictionary(&mut reader)?;
        Ok((reader, Packing::Zstd(Some(dict)), frame_len))
    } else {
        Ok((reader, Packing::Plain, 0))
    }
}

/// Read a `.warc.zst`'s dictionary frame: the dictionary (decompressed if the frame holds it
/// compressed) and the frame's length.
fn zstd_dictionary(r: &mut impl Read) -> io::Result<(Vec<u8>, u64)> {
    let bad = |what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("zstd dictionary frame: {what}"),
        )
    };
    let mut head = [0u8; 8];
    r.read_exact(&mut head).map_err(|_| bad("cut short"))?;
    let len = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    if len > MAX_DICTIONARY {
        return Err(bad("over 64 MiB"));
    }
    let mut content = vec![0u8; len as usize];
    r.read_exact(&mut content).map_err(|_| bad("cut short"))?;
    if content.starts_with(ZSTD_MAGIC) {
        content = zstd::stream::decode_all(&content[..]).map_err(|e| bad(&e.to_string()))?;
    }
    if !content.starts_with(ZSTD_DICTIONARY) {
        return Err(bad("not a zstd dictionary"));
    }
    Ok((content, 8 + u64::from(len)))
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

/// Read the records from `reader` (the decompressed content), which is at `start` in the
/// file, handing them to `out`, up to the end of the input or the first damage. A record whose
/// block could not be read is held back as [`ReadItem::Broken`]. An `Interrupted` error when
/// the callback asked to stop. A pass after damage decides the `format` by the bytes it starts
/// with, if the file's first bytes did not tell.
fn read_pass<F: FnMut(ReadItem) -> bool>(
    mut reader: Box<dyn WarcRead>,
    start: u64,
    opts: ReadOptions,
    format: &mut Option<Format>,
    out: &mut Handover<F>,
) -> io::Result<Pass> {
    if format.is_none() && start > 0 {
        // After damage in the first record: the first record found tells.
        if let Ok(head) = reader.fill_buf() {
            *format = Some(if arc::is_arc(head) || arc::starts_record(head) {
                Format::Arc { version2: false }
            } else {
                Format::Warc
            });
        }
    }
    match format {
        Some(Format::Arc { version2 }) => arc::read_pass(reader, start, opts, version2, out),
        _ => warc_pass(reader, start, opts, out),
    }
}

/// [`read_pass`] of WARC records.
fn warc_pass<F: FnMut(ReadItem) -> bool>(
    reader: Box<dyn WarcRead>,
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
    let failed_in = Arc::new(AtomicU64::new(u64::MAX));
    let reader = Noting {
        inner: reader,
        failed_in: failed_in.clone(),
    };
    let iter = ArchiveIterator::with_options(reader, options);
    let mut last_offset = start;
    for item in iter {
        if !out.go_on {
            return Err(stopped());
        }
        let Ok(rec) = item else {
            // A record that could not be read: in the frame (gzip member, zstd frame) the read
            // failed in, if that is after the last record read.
            let frame = failed_in.load(Ordering::Relaxed);
            return Ok(Pass {
                failed_at: Some(if frame != u64::MAX && frame > last_offset {
                    frame
                } else {
                    last_offset
                }),
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

/// A decompressed stream that notes the start of the frame (gzip member, zstd frame) a read
/// failed in, which `fastwarc`'s iterator does not tell.
struct Noting {
    inner: Box<dyn WarcRead>,
    /// The frame's file offset; `u64::MAX` while no read failed. (Shared with the pass, which
    /// hands the stream to the iterator; atomic because a `WarcRead` is `Send`.)
    failed_in: Arc<AtomicU64>,
}

impl Noting {
    fn note<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if result.is_err()
            && let Ok(Some(p)) = self.inner.frame_start_position()
        {
            self.failed_in.store(p, Ordering::Relaxed);
        }
        result
    }
}

impl Read for Noting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let r = self.inner.read(buf);
        self.note(r)
    }
}

impl BufRead for Noting {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        // The buffer is asked for again only when it holds bytes (which it then returns
        // unchanged): an empty one may be a decoder's sign of a frame's end.
        let empty = match self.inner.fill_buf() {
            Ok(b) => b.is_empty(),
            Err(e) => return self.note(Err(e)),
        };
        if empty {
            Ok(&[])
        } else {
            self.inner.fill_buf()
        }
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
    }
}

impl std::io::Seek for Noting {
    fn seek(&mut self, to: std::io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(to)
    }
}

impl WarcRead for Noting {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }

    fn inner_seek(&mut self, to: std::io::SeekFrom) -> io::Result<u64> {
        self.inner.inner_seek(to)
    }

    fn inner_stream_position(&mut self) -> io::Result<u64> {
        self.inner.inner_stream_position()
    }

    fn frame_start_position(&mut self) -> io::Result<Option<u64>> {
        self.inner.frame_start_position()
    }

    fn is_stream_decoder(&self) -> bool {
        self.inner.is_stream_decoder()
    }
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
    packing: &Packing,
    format: Option<Format>,
    out: &mut Handover<F>,
) -> io::Result<(Option<u64>, u64)> {
    let (next, end) = resync(src, from + 1, packing, format)?;
    let file_len = src.size().unwrap_or(end);
    let next_offset = next.unwrap_or(file_len);
    let record_end = match &out.pending {
        Some(ReadItem::Broken(r, _)) => r.offset,
        _ => from,
    };
    // A record read whole before the damage ends where the damage starts; a broken one, at
    // the next record.
    out.flush(match &out.pending {
        Some(ReadItem::Record(r) | ReadItem::TooLarge(r)) if from > r.offset => from,
        _ => next_offset,
    });
    let skipped = next_offset.saturating_sub(record_end.max(from));
    out.give(ReadItem::Skipped {
        reason: match packing {
            Packing::Plain => "corrupt_record",
            Packing::Gzip => "corrupt_gzip_or_record",
            Packing::Zstd(_) => "corrupt_zstd_or_record",
        },
        bytes: skipped,
    });
    Ok((next, file_len))
}

/// The next position at or after `from` where a record starts: a gzip member or zstd frame
/// whose content begins with a record, or (plain files) a line that starts one (`WARC/1.x`, an
/// ARC header line); `None` and the file's end if there is none.
fn resync(
    src: &Source,
    from: u64,
    packing: &Packing,
    format: Option<Format>,
) -> io::Result<(Option<u64>, u64)> {
    let arc_lines = matches!(packing, Packing::Plain) && matches!(format, Some(Format::Arc { .. }));
    let needle: &[u8] = match packing {
        Packing::Gzip => GZIP_MAGIC,
        Packing::Zstd(_) => ZSTD_MAGIC,
        Packing::Plain if arc_lines => b"\n",
        Packing::Plain => b"WARC/1.",
    };
    // What is kept of a chunk for the next: a needle cut at the end (and the byte before it,
    // for a line's start), or a whole ARC header line.
    let overlap = if arc_lines {
        arc::MAX_LINE + 1
    } else {
        needle.len()
    };
    let mut r = src.open_at(from)?;
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
            let found = match packing {
                Packing::Plain if arc_lines => {
                    if arc::starts_record(&buf[o + 1..n]) {
                        return Ok((Some(pos + 1), pos + 1));
                    }
                    false
                }
                Packing::Plain => o == 0 && pos == from || o > 0 && buf[o - 1] == b'\n' || pos == 0,
                _ => frame_starts_record(src, pos, packing, format)?,
            };
            if found {
                return Ok((Some(pos), pos));
            }
        }
        if n < buf.len() {
            return Ok((None, base + n as u64));
        }
        keep = overlap;
        buf.copy_within(n - keep.., 0);
        base += (n - keep) as u64;
    }
}
/// Read until `buf` is full or the input ends; the number of bytes read. A stop asked for by
/// the run ends it with the reader's [`crate::stop::stopped`] error.
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

/// Whether the gzip member or zstd frame at `pos` holds the start of a record of `format`
/// (of either format, if that is not known yet).
fn frame_starts_record(
    src: &Source,
    pos: u64,
    packing: &Packing,
    format: Option<Format>,
) -> io::Result<bool> {
    let fh = BufReader::new(src.open_at(pos)?.take(64 * 1024));
    // Enough for a WARC line; an ARC header line is read whole.
    let want = if format == Some(Format::Warc) {
        8
    } else {
        8 << 10
    };
    let mut head = Vec::with_capacity(want);
    let mut dec: Box<dyn Read> = match packing {
        Packing::Zstd(Some(dict)) => match zstd::stream::read::Decoder::with_dictionary(fh, dict) {
            Ok(d) => Box::new(d),
            Err(_) => return Ok(false),
        },
        Packing::Zstd(None) => match zstd::stream::read::Decoder::with_buffer(fh) {
            Ok(d) => Box::new(d),
            Err(_) => return Ok(false),
        },
        _ => Box::new(flate2::read::GzDecoder::new(fh)),
    };
    // A damaged frame yields what it decoded before the damage.
    let _ = dec.by_ref().take(want as u64).read_to_end(&mut head);
    let warc = head.len() >= 6 && head.starts_with(b"WARC/");
    Ok(match format {
        Some(Format::Warc) => warc,
        Some(Format::Arc { .. }) => arc::starts_record(&head),
        None => warc || arc::starts_record(&head),
    })
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

    /// `data` as one zstd frame, with `dict` if given.
    pub fn zst(data: &[u8], dict: Option<&[u8]>) -> Vec<u8> {
        let mut c = match dict {
            Some(d) => zstd::bulk::Compressor::with_dictionary(3, d).unwrap(),
            None => zstd::bulk::Compressor::new(3).unwrap(),
        };
        c.include_checksum(true).unwrap();
        c.compress(data).unwrap()
    }

    /// The IIPC's dictionary frame holding `dict`.
    pub fn dictionary_frame(dict: &[u8]) -> Vec<u8> {
        let mut f = vec![0x5d, 0x2a, 0x4d, 0x18];
        f.extend_from_slice(&(dict.len() as u32).to_le_bytes());
        f.extend_from_slice(dict);
        f
    }

    /// Bytes that gzip cannot shrink (a 64-bit LCG's high bytes).
    pub(crate) fn noise(n: usize) -> Vec<u8> {
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
    use super::test_data::{dictionary_frame, gz, noise, zst};
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

    /// An ARC (version 1) record of an HTTP response.
    fn arc_record(uri: &str, body: &str) -> Vec<u8> {
        let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}");
        format!(
            "{uri} 192.0.2.1 20080430204826 text/html {}\n{block}\n",
            block.len()
        )
        .into_bytes()
    }

    /// An ARC file's `filedesc://` record.
    fn filedesc() -> Vec<u8> {
        let block = "1 0 cowrex\nURL IP-address Archive-date Content-type Archive-length\n";
        format!(
            "filedesc://test.arc 0.0.0.0 20080430204825 text/plain {}\n{block}\n",
            block.len()
        )
        .into_bytes()
    }

    /// The URLs of the records read, `-` for other items.
    fn uris(items: &[ReadItem]) -> Vec<String> {
        items
            .iter()
            .map(|i| match i {
                ReadItem::Record(r) | ReadItem::TooLarge(r) | ReadItem::Broken(r, _) => {
                    r.target_uri.clone().unwrap_or_default()
                }
                ReadItem::Skipped { .. } => "-".into(),
            })
            .collect()
    }

    #[test]
    fn arc_files_plain_and_gzipped_give_records_with_their_places() {
        let parts = [
            filedesc(),
            arc_record("http://x/a", "<p>a</p>"),
            arc_record("http://x/b c", "<p>b</p>"),
            b"dns:x 192.0.2.1 20080430204826 text/dns 14\n20080430204826\n".to_vec(),
        ];
        for gzipped in [false, true] {
            let parts: Vec<Vec<u8>> = parts
                .iter()
                .map(|p| if gzipped { gz(p) } else { p.clone() })
                .collect();
            let items = read_all(&parts.concat());
            assert_eq!(
                uris(&items),
                ["filedesc://test.arc", "http://x/a", "http://x/b c", "dns:x"],
                "gzip {gzipped}"
            );
            let mut at = 0u64;
            for (item, p) in items.iter().zip(&parts) {
                assert_eq!(place(item), (at, p.len() as u64), "gzip {gzipped}");
                at += p.len() as u64;
            }
            let ReadItem::Record(a) = &items[1] else {
                panic!("{:?}", items[1])
            };
            assert_eq!(a.warc_type, "response");
            assert!(a.block.starts_with(b"HTTP/1.1 200") && a.block.ends_with(b"<p>a</p>"));
            assert_eq!(a.warc_date.as_deref(), Some("2008-04-30T20:48:26Z"));
            assert_eq!(a.ip.as_deref(), Some("192.0.2.1"));
            assert_eq!(a.record_id, None);
            let types: Vec<&str> = items
                .iter()
                .map(|i| match i {
                    ReadItem::Record(r) => r.warc_type.as_str(),
                    _ => "?",
                })
                .collect();
            assert_eq!(types, ["warcinfo", "response", "response", "resource"]);
        }
    }

    #[test]
    fn damaged_arc_records_cost_only_themselves() {
        let head = filedesc();
        let a = arc_record("http://x/a", "<p>a</p>");
        // A length that is too short: the rest of its block is not a header line.
        let mut short = arc_record("http://x/short", "<p>a longer body</p>");
        let at = memchr::memchr(b'\n', &short).unwrap();
        let line = String::from_utf8(short[..at].to_vec()).unwrap();
        let (fields, len) = line.rsplit_once(' ').unwrap();
        let fixed = format!("{fields} {}", len.parse::<usize>().unwrap() - 12);
        short.splice(..at, fixed.bytes());
        let c = arc_record("http://x/c", "<p>c</p>");
        for gzipped in [false, true] {
            let pack = |p: &Vec<u8>| if gzipped { gz(p) } else { p.clone() };
            let garbage = b"garbage that is no header line\n".to_vec();
            let file = [pack(&head), pack(&a), pack(&short), garbage, pack(&c)].concat();
            let items = read_all(&file);
            let got = uris(&items);
            assert_eq!(
                got.iter()
                    .filter(|u| u.starts_with("http://x/"))
                    .collect::<Vec<_>>(),
                ["http://x/a", "http://x/short", "http://x/c"],
                "gzip {gzipped}: {items:?}"
            );
            assert!(got.contains(&"-".to_string()), "gzip {gzipped}: {items:?}");
            // The damaged stretch runs from the line that is no header to c, where c is found.
            let c_at = (file.len() - pack(&c).len()) as u64;
            let Some(ReadItem::Skipped { bytes, .. }) = items.get(items.len() - 2) else {
                panic!("gzip {gzipped}: {items:?}")
            };
            assert!(*bytes > 0 && *bytes < c_at, "gzip {gzipped}: {items:?}");
            assert_eq!(place(items.last().unwrap()).0, c_at, "gzip {gzipped}");
            let ReadItem::Record(last) = items.last().unwrap() else {
                panic!("{items:?}")
            };
            assert!(last.block.ends_with(b"<p>c</p>"));
        }
        // An ARC file cut inside its last record.
        let file = [head.clone(), a.clone(), c[..c.len() - 5].to_vec()].concat();
        let items = read_all(&file);
        let ReadItem::Record(cut) = &items[2] else {
            panic!("{items:?}")
        };
        assert_eq!(cut.truncated.as_deref(), Some(END_OF_INPUT));
        assert!(matches!(
            items[3],
            ReadItem::Skipped {
                reason: TRUNCATED_RECORD,
                ..
            }
        ));
    }

    /// A dictionary trained on records like the tests'.
    fn dictionary() -> Vec<u8> {
        let samples: Vec<Vec<u8>> = (0..300)
            .map(|i| {
                record(
                    &format!("http://x/{i}"),
                    &format!("<p>page {i} of {}</p>", i * 7),
                )
            })
            .collect();
        zstd::dict::from_samples(&samples, 4096).unwrap()
    }

    #[test]
    fn zstd_frames_with_and_without_a_dictionary_give_records_with_their_places() {
        let dict = dictionary();
        let records: Vec<Vec<u8>> = ["a", "b", "c"]
            .iter()
            .map(|n| record(&format!("http://x/{n}"), &format!("<p>{n}</p>")))
            .collect();
        let compressed = zstd::bulk::compress(&dict, 3).unwrap();
        for (head, d) in [
            (Vec::new(), None),
            (dictionary_frame(&dict), Some(&dict[..])),
            (dictionary_frame(&compressed), Some(&dict[..])),
        ] {
            let frames: Vec<Vec<u8>> = records.iter().map(|r| zst(r, d)).collect();
            let file = [vec![head.clone()], frames.clone()].concat().concat();
            let items = read_all(&file);
            assert_eq!(uris(&items), ["http://x/a", "http://x/b", "http://x/c"]);
            let mut at = head.len() as u64;
            for (item, f) in items.iter().zip(&frames) {
                assert_eq!(place(item), (at, f.len() as u64));
                at += f.len() as u64;
            }
            assert!(matches!(&items[2], ReadItem::Record(r) if r.block.ends_with(b"<p>c</p>")));
        }
    }

    #[test]
    fn damage_in_a_zstd_frame_costs_that_frame_only() {
        let dict = dictionary();
        let body: String = (0..4000).map(|i| format!("<p>line {i}</p>")).collect();
        let a = zst(&record("http://x/a", "<p>a</p>"), Some(&dict));
        let mut b = zst(&record("http://x/b", &body), Some(&dict));
        let c = zst(&record("http://x/c", "<p>c</p>"), Some(&dict));
        let at = b.len() * 3 / 4;
        b[at] ^= 0x55;
        let head = dictionary_frame(&dict);
        let file = [head.clone(), a.clone(), b.clone(), c.clone()].concat();
        let items = read_all(&file);
        let got = uris(&items);
        assert_eq!(
            got.first().map(String::as_str),
            Some("http://x/a"),
            "{items:?}"
        );
        assert_eq!(
            got.last().map(String::as_str),
            Some("http://x/c"),
            "{items:?}"
        );
        assert!(items.iter().any(|i| matches!(
            i,
            ReadItem::Skipped {
                reason: "corrupt_zstd_or_record",
                ..
            }
        )));
        let c_at = (head.len() + a.len() + b.len()) as u64;
        assert_eq!(place(items.last().unwrap()), (c_at, c.len() as u64));
        // A dictionary frame that holds no dictionary fails the file with a clear error.
        let path = std::env::temp_dir().join(format!("cowrex-zst-{}", std::process::id()));
        std::fs::write(&path, [dictionary_frame(b"not a dictionary"), a].concat()).unwrap();
        let err = read_file(
            &path,
            ReadOptions {
                max_payload: 1 << 20,
            },
            |_| true,
        )
        .unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(err.to_string().contains("zstd dictionary frame"), "{err}");
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

//! The gzip members of a `.warc.gz`, each decompressed whole by libdeflate rather than
//! streamed through `fastwarc`'s `GzipReader` (about 2 % less CPU in `process`;
//! docs/performance.md, "Input decompression").
//!
//! A member that libdeflate cannot decompress whole (corrupt, cut by the end of the input,
//! over [`MAX_WINDOW`] bytes compressed or over [`MAX_MEMBER`] decompressed, or with a header
//! checksum, which libdeflate skips unchecked) hands the rest of the pass to `GzipReader`,
//! from that member's start. So a damaged or cut member yields the same bytes and errors as
//! `GzipReader` alone gives, and the reader's recovery (`super::read`) is unchanged.
//!
//! To `fastwarc` this is a stream decoder like `GzipReader`: a record's offset is the start
//! of the member its `WARC/` line is in ([`WarcRead::frame_start_position`]).

use std::any::Any;
use std::io::{self, BufRead, Read, Seek, SeekFrom};

use fastwarc::stream_io::gzip::GzipReader;
use fastwarc::stream_io::traits::WarcRead;

/// How much compressed input is first kept ahead of the next member (at least half of it,
/// unless the input ends first). A member that may be longer doubles it, up to
/// [`MAX_WINDOW`]. A Common Crawl member (a record of at most about 1 MiB of payload) is
/// mostly far smaller.
const FIRST_WINDOW: usize = 256 << 10;

/// The largest compressed member decompressed whole.
const MAX_WINDOW: usize = 2 << 20;

/// The largest member content decompressed whole.
const MAX_MEMBER: usize = 16 << 20;

/// The gzip header flag of a header CRC.
const FHCRC: u8 = 0x02;

/// The output room a member is first given, doubled while it is too small.
const FIRST_ROOM: usize = 256 << 10;

/// A reader of the decompressed content of a gzip file's members, from a member's start;
/// `R` reads the file from there (a [`super::source::Reader`]).
pub(crate) struct Members<R: Read + Send + 'static> {
    /// Where compressed input comes from, after `input`; `None` once `GzipReader` has it.
    src: Option<R>,
    /// Compressed input read and not yet decompressed, from `input[in_at]`.
    input: Vec<u8>,
    /// The file offset of `input[0]`.
    in_base: u64,
    /// Where the next member starts in `input`.
    in_at: usize,
    /// `src` has no more bytes.
    eof: bool,
    /// How much input is kept ahead (see [`FIRST_WINDOW`]).
    window: usize,
    /// The current member's content is `out[out_at..out_len]` (what is not yet consumed).
    out: Vec<u8>,
    out_at: usize,
    out_len: usize,
    /// The file offset and compressed length of the current member.
    member_start: u64,
    member_len: u64,
    /// Decompressed bytes consumed.
    pos: u64,
    decompressor: Decompressor,
    /// The rest of the pass, once a member could not be decompressed whole.
    fallback: Option<GzipReader<Rest<R>>>,
    /// A read of the input failed: every later one fails too.
    failed: bool,
}

impl<R: Read + Send + 'static> Members<R> {
    /// The members of a file from offset `start`, where `head` holds the bytes already read
    /// from there and `src` is positioned after them.
    pub fn new(src: R, start: u64, head: Vec<u8>) -> Members<R> {
        Members {
            src: Some(src),
            input: head,
            in_base: start,
            in_at: 0,
            eof: false,
            window: FIRST_WINDOW,
            out: Vec::new(),
            out_at: 0,
            out_len: 0,
            member_start: start,
            member_len: 0,
            pos: 0,
            decompressor: Decompressor::new(),
            fallback: None,
            failed: false,
        }
    }

    /// Keep at least half the window of input ahead of the next member (all of it when
    /// `full`), unless the input ends first.
    fn top_up(&mut self, full: bool) -> io::Result<()> {
        let want = if full { self.window } else { self.window / 2 };
        let Some(src) = self.src.as_mut() else {
            return Ok(());
        };
        if self.eof || self.input.len() - self.in_at >= want {
            return Ok(());
        }
        self.input.drain(..self.in_at);
        self.in_base += self.in_at as u64;
        self.in_at = 0;
        let have = self.input.len();
        self.input.resize(self.window, 0);
        match super::read_full(src, &mut self.input[have..]) {
            Ok(n) => {
                self.input.truncate(have + n);
                self.eof = self.input.len() < self.window;
                Ok(())
            }
            Err(e) => {
                // What was read before the error is lost, so nothing after it is read.
                self.input.truncate(have);
                self.failed = true;
                Err(e)
            }
        }
    }

    /// Decompress the next member into `out`; at the end of the input, leave `out` empty. A
    /// member libdeflate cannot decompress whole starts the fallback.
    fn next_member(&mut self) -> io::Result<()> {
        self.out_at = 0;
        self.out_len = 0;
        self.top_up(false)?;
        if self.in_at == self.input.len() {
            return Ok(());
        }
        if self
            .input
            .get(self.in_at + 3)
            .is_some_and(|flags| flags & FHCRC != 0)
        {
            // libdeflate skips the header's CRC without checking it; GzipReader checks it.
            return self.fall_back();
        }
        if self.out.is_empty() {
            self.out.resize(FIRST_ROOM, 0);
        }
        loop {
            match self
                .decompressor
                .gzip(&self.input[self.in_at..], &mut self.out)
            {
                Inflated::Whole { used, len } => {
                    self.member_start = self.in_base + self.in_at as u64;
                    self.member_len = used as u64;
                    self.in_at += used;
                    self.out_len = len;
                    return Ok(());
                }
                Inflated::NoRoom if self.out.len() < MAX_MEMBER => {
                    let room = (self.out.len() * 2).min(MAX_MEMBER);
                    self.out.resize(room, 0);
                }
                Inflated::Bad
                    if !self.eof
                        && self.input.len() - self.in_at < MAX_WINDOW
                        && goes_on(&self.input[self.in_at..]) =>
                {
                    // The member goes on past the input read so far.
                    if self.input.len() - self.in_at == self.window {
                        self.window = (self.window * 2).min(MAX_WINDOW);
                    }
                    self.top_up(true)?;
                }
                Inflated::NoRoom | Inflated::Bad => return self.fall_back(),
            }
        }
    }

    /// Hand the rest of the input, from the next member's start, to `GzipReader`.
    fn fall_back(&mut self) -> io::Result<()> {
        let Some(src) = self.src.take() else {
            return Ok(());
        };
        let rest = Rest {
            pos: self.in_base + self.in_at as u64,
            head: self.input.split_off(self.in_at),
            at: 0,
            src,
        };
        self.input = Vec::new();
        self.in_base += self.in_at as u64;
        self.in_at = 0;
        self.out = Vec::new();
        self.fallback = Some(GzipReader::new(rest));
        Ok(())
    }
}

impl<R: Read + Send + 'static> BufRead for Members<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.failed {
            // Not `Interrupted`, which readers retry.
            return Err(io::Error::other("an earlier read of the input failed"));
        }
        // A member may be empty: go on to the next one with content, or the end.
        while self.fallback.is_none() && self.out_at == self.out_len {
            let before = self.in_base + self.in_at as u64;
            self.next_member()?;
            if self.in_base + self.in_at as u64 == before {
                break; // the end of the input, or the fallback took over
            }
        }
        match &mut self.fallback {
            Some(gz) => gz.fill_buf(),
            None => Ok(&self.out[self.out_at..self.out_len]),
        }
    }

    fn consume(&mut self, amount: usize) {
        match &mut self.fallback {
            Some(gz) => gz.consume(amount),
            None => self.out_at = (self.out_at + amount).min(self.out_len),
        }
        self.pos += amount as u64;
    }
}

impl<R: Read + Send + 'static> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.read(buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read + Send + 'static> Seek for Members<R> {
    /// Only tells the position in the decompressed content (`fastwarc` asks nothing more of
    /// a stream decoder while reading records).
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        tell(self.pos, to)
    }
}

/// A seek that only tells the position `pos`.
fn tell(pos: u64, to: SeekFrom) -> io::Result<u64> {
    match to {
        SeekFrom::Current(0) => Ok(pos),
        _ => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "a gzip input is read forward",
        )),
    }
}

impl<R: Read + Send + 'static> WarcRead for Members<R> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }

    fn inner_seek(&mut self, _pos: SeekFrom) -> io::Result<u64> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "the reader seeks by opening the file again",
        ))
    }

    /// The file offset of what is read next: the next member's start between members; inside
    /// a member (which only a member of several records asks), the offset in proportion to
    /// how much of its content was read.
    fn inner_stream_position(&mut self) -> io::Result<u64> {
        if let Some(gz) = &mut self.fallback {
            return gz.inner_stream_position();
        }
        if self.out_at == self.out_len {
            return Ok(self.in_base + self.in_at as u64);
        }
        let share = self.member_len as u128 * self.out_at as u128 / self.out_len as u128;
        Ok(self.member_start + share as u64)
    }

    fn frame_start_position(&mut self) -> io::Result<Option<u64>> {
        match &mut self.fallback {
            Some(gz) => gz.frame_start_position(),
            None => Ok(Some(self.member_start)),
        }
    }

    fn is_stream_decoder(&self) -> bool {
        true
    }
}

/// The compressed input from a member's start, for `GzipReader`: the bytes read ahead, then
/// the source. It tells its file offset, which `GzipReader` reports members by.
struct Rest<R> {
    head: Vec<u8>,
    at: usize,
    src: R,
    /// The file offset of the next byte.
    pos: u64,
}

impl<R: Read> Read for Rest<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = if self.at < self.head.len() {
            let n = (&self.head[self.at..]).read(buf)?;
            self.at += n;
            n
        } else {
            self.src.read(buf)?
        };
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read> Seek for Rest<R> {
    /// Only tells the file offset (all `GzipReader` asks).
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        tell(self.pos, to)
    }
}

/// Whether `input` is the intact start of a gzip member that goes on past its end, as a
/// streaming inflate finds. libdeflate does not tell a cut member from a damaged one; only a
/// cut one is worth reading more input for.
fn goes_on(input: &[u8]) -> bool {
    if !input.starts_with(b"\x1f\x8b\x08") {
        return false;
    }
    let mut inflate = flate2::Decompress::new_gzip(15);
    let mut scratch = [0u8; 32 << 10];
    loop {
        let at = inflate.total_in() as usize;
        let out_before = inflate.total_out();
        match inflate.decompress(&input[at..], &mut scratch, flate2::FlushDecompress::None) {
            Ok(flate2::Status::Ok) => {}
            // The end of the member, or an error: nothing more to read for.
            Ok(flate2::Status::StreamEnd) | Err(_) => return false,
            Ok(flate2::Status::BufError) => return inflate.total_in() as usize == input.len(),
        }
        if inflate.total_in() as usize == input.len() && inflate.total_out() == out_before {
            return true;
        }
    }
}

/// What one call of libdeflate made of the input.
enum Inflated {
    /// A whole member: `used` bytes of input, `len` bytes of content.
    Whole { used: usize, len: usize },
    /// The content does not fit the output.
    NoRoom,
    /// Not a whole, intact gzip member (bad header, data or checksum, or cut short).
    Bad,
}

/// A libdeflate decompressor.
struct Decompressor(*mut libdeflate_sys::libdeflate_decompressor);

// SAFETY: a libdeflate decompressor holds no reference to thread-local state; it is used by
// one thread at a time (`&mut self`).
unsafe impl Send for Decompressor {}

impl Decompressor {
    fn new() -> Decompressor {
        // SAFETY: no arguments; the result is checked.
        let d = unsafe { libdeflate_sys::libdeflate_alloc_decompressor() };
        assert!(!d.is_null(), "libdeflate could not allocate a decompressor");
        Decompressor(d)
    }

    /// Decompress the gzip member at the start of `input` into `out`.
    fn gzip(&mut self, input: &[u8], out: &mut [u8]) -> Inflated {
        let (mut used, mut len) = (0usize, 0usize);
        // SAFETY: the pointers and lengths are those of live slices; libdeflate writes at
        // most `out.len()` bytes and reads at most `input.len()`.
        let result = unsafe {
            libdeflate_sys::libdeflate_gzip_decompress_ex(
                self.0,
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                &mut used,
                &mut len,
            )
        };
        match result {
            libdeflate_sys::libdeflate_result_LIBDEFLATE_SUCCESS => Inflated::Whole { used, len },
            libdeflate_sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE => Inflated::NoRoom,
            _ => Inflated::Bad,
        }
    }
}

impl Drop for Decompressor {
    fn drop(&mut self) {
        // SAFETY: allocated by `libdeflate_alloc_decompressor`, freed once.
        unsafe { libdeflate_sys::libdeflate_free_decompressor(self.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_data::gz;
    use super::*;

    /// Bytes gzip cannot shrink.
    fn noise(n: usize) -> Vec<u8> {
        super::super::test_data::noise(n)
    }

    type Over = Members<io::Cursor<Vec<u8>>>;

    /// `Members` over `file` from `start`, given `head` bytes read ahead.
    fn members(file: &[u8], start: usize, head: usize) -> Over {
        let src = io::Cursor::new(file[start + head..].to_vec());
        Members::new(src, start as u64, file[start..start + head].to_vec())
    }

    /// Read one member's content through `fill_buf`: the content, the member start it
    /// reports, and whether libdeflate decompressed it (in one piece).
    fn next_content(m: &mut Over) -> (Vec<u8>, u64, bool) {
        let mut got = m.fill_buf().unwrap().to_vec();
        let at = m.frame_start_position().unwrap().unwrap();
        let whole = m.fallback.is_none();
        m.consume(got.len());
        // GzipReader may hand a member over in several pieces.
        if !whole {
            loop {
                let more = m.fill_buf().unwrap().to_vec();
                if more.is_empty() || m.frame_start_position().unwrap() != Some(at) {
                    break;
                }
                m.consume(more.len());
                got.extend(more);
            }
        }
        (got, at, whole)
    }

    #[test]
    fn members_are_whole_until_one_is_too_large_then_gzip_reader_goes_on() {
        let contents: Vec<Vec<u8>> = vec![
            b"first".to_vec(),
            noise(300 << 10), // more than half the first window, compressed
            vec![b'x'; MAX_MEMBER + 1], // more than a whole member
            b"after the fallback".to_vec(),
        ];
        let packed: Vec<Vec<u8>> = contents.iter().map(|c| gz(c)).collect();
        let file = packed.concat();
        let mut m = members(&file, 0, 100);
        let mut start = 0u64;
        for (i, (content, member)) in contents.iter().zip(&packed).enumerate() {
            let (got, at, whole) = next_content(&mut m);
            assert_eq!((got.len(), at), (content.len(), start), "member {i}");
            assert!(got == *content, "member {i}");
            // libdeflate decompresses the first two; GzipReader the rest.
            assert_eq!(whole, i < 2, "member {i}");
            start += member.len() as u64;
        }
        assert!(m.fill_buf().unwrap().is_empty());
        assert!(m.window > FIRST_WINDOW);
    }

    #[test]
    fn a_damaged_member_goes_to_gzip_reader_without_reading_ahead() {
        let mut damaged = gz(&noise(100 << 10));
        let mid = damaged.len() / 2;
        damaged[mid] ^= 0xff;
        let after: Vec<u8> = (0..24).flat_map(|_| gz(&noise(256 << 10))).collect();
        let file = [gz(b"first"), damaged, gz(&noise(MAX_WINDOW + 1000)), after].concat();
        assert!(file.len() > 2 * MAX_WINDOW);
        let mut m = members(&file, 0, 0);
        let mut all = Vec::new();
        assert!(m.read_to_end(&mut all).is_err());
        assert!(all.starts_with(b"first"));
        assert!(m.fallback.is_some());
        assert_eq!(m.window, FIRST_WINDOW);
    }

    #[test]
    fn only_a_member_that_goes_on_is_read_for() {
        let text: Vec<u8> = (0..50_000)
            .flat_map(|i| format!("{i} ").into_bytes())
            .collect();
        let member = gz(&text);
        assert!(goes_on(&member[..member.len() / 2]));
        assert!(!goes_on(&member));
        let mut damaged = member[..member.len() / 2].to_vec();
        damaged[20..40].fill(0xff);
        assert!(!goes_on(&damaged));
        // A whole member followed by more input; a member cut inside its trailer.
        assert!(!goes_on(&[&member[..], &gz(b"next")[..]].concat()));
        assert!(goes_on(&member[..member.len() - 3]));
        assert!(!goes_on(b"WARC/1.0\r\n"));
    }

    /// Reads `first`, then fails with `error`.
    struct Failing {
        first: io::Cursor<Vec<u8>>,
        error: io::ErrorKind,
    }

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.first.read(buf)? {
                0 => Err(io::Error::new(self.error, "failed")),
                n => Ok(n),
            }
        }
    }

    #[test]
    fn after_a_failed_read_every_read_fails() {
        // More than the first window: its first read does not fail.
        let first = [gz(b"one"), gz(&noise(400 << 10))].concat();
        let src = Failing {
            first: io::Cursor::new(first),
            error: io::ErrorKind::ConnectionReset,
        };
        let mut m = Members::new(src, 0, Vec::new());
        // The first member is whole in what was read; the second needs the failed read.
        assert_eq!(m.fill_buf().unwrap(), b"one");
        m.consume(3);
        let e = m.fill_buf().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::ConnectionReset);
        for _ in 0..2 {
            let e = m.fill_buf().unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::Other, "{e}");
        }
        assert!(m.fallback.is_none());
    }

    #[test]
    fn a_header_crc_is_left_to_gzip_reader() {
        // The same member with FHCRC set and a header CRC that does not match: libdeflate
        // would skip it; GzipReader finds it.
        let plain = gz(b"content");
        let mut flagged = plain[..10].to_vec();
        flagged[3] |= FHCRC;
        flagged.extend_from_slice(&[0, 0]);
        flagged.extend_from_slice(&plain[10..]);
        let mut m = members(&flagged, 0, 0);
        assert!(m.fill_buf().is_err());
        assert!(m.fallback.is_some());
    }

    #[test]
    fn a_member_over_the_largest_window_goes_to_gzip_reader() {
        let big = noise(MAX_WINDOW + 1000);
        let packed = [gz(b"first"), gz(&big), gz(b"last")];
        assert!(packed[1].len() > MAX_WINDOW);
        let mut m = members(&packed.concat(), 0, 0);
        let (first, _, whole) = next_content(&mut m);
        assert!(first == b"first" && whole);
        let (got, at, whole) = next_content(&mut m);
        assert!(got == big && !whole);
        assert_eq!(at, packed[0].len() as u64);
        let (last, at, _) = next_content(&mut m);
        assert_eq!(
            (&last[..], at),
            (&b"last"[..], (packed[0].len() + packed[1].len()) as u64)
        );
    }

    #[test]
    fn a_member_from_the_middle_reports_its_file_offset() {
        let packed = [gz(b"one"), gz(b""), gz(b"two"), gz(b"three")];
        let file = packed.concat();
        let skip = packed[0].len();
        let mut m = members(&file, skip, 3);
        assert_eq!(m.inner_stream_position().unwrap(), skip as u64);
        let mut all = Vec::new();
        m.read_to_end(&mut all).unwrap();
        assert_eq!(all, b"twothree");
        assert!(m.fallback.is_none());
        assert_eq!(
            m.frame_start_position().unwrap(),
            Some((file.len() - packed[3].len()) as u64)
        );
        assert_eq!(m.inner_stream_position().unwrap(), file.len() as u64);
    }

    #[test]
    fn a_cut_member_goes_to_gzip_reader_which_reads_what_it_can() {
        let text: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let a = gz(b"whole");
        let b = gz(&text);
        let file = [&a[..], &b[..b.len() / 2]].concat();
        let mut m = members(&file, 0, 0);
        let mut all = Vec::new();
        // GzipReader ends a cut member as the end of the input, with what it could inflate.
        m.read_to_end(&mut all).unwrap();
        assert!(m.fallback.is_some());
        assert!(all.starts_with(b"wholeline 0\n") && all.len() > 5 && all.len() < 5 + text.len());
        assert!(text.starts_with(&all[5..]));
    }
}

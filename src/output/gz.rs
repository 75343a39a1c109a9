//! Gzip files: [`open`] reads a file that may be gzipped; [`GzMembers`] writes output as a
//! series of gzip members of about 1 MiB of text each, compressed by libdeflate.
//!
//! libdeflate compresses a whole buffer at a time, about 2.5 times faster than zlib-rs's
//! streaming encoder at the same size (`scripts/bench/bench.py`; `docs/performance.md`, "Output compression"). Concatenated
//! members are one valid gzip stream (RFC 1952): `zcat`, Python's `gzip` and
//! `flate2::read::MultiGzDecoder` read them as one text. Where the members end depends only on
//! the sequence of writes, so the output stays deterministic.

use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;

use libdeflater::{CompressionLvl, Compressor};

/// Open a file to read, gunzipping it if it starts like gzip (`.gz` or not).
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead>> {
    let mut f = BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let gz = f.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    Ok(if gz {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(f),
        ))
    } else {
        Box::new(f)
    })
}

/// Text compressed into one member once this much is pending.
pub const MEMBER_BYTES: usize = 1 << 20;

/// The outputs' compression level unless `--compression` says otherwise: libdeflate's level 1
/// gives files about as small as zlib's level 3 (3 % larger) in 40 % of its time.
pub const DEFAULT_LEVEL: u32 = 1;

/// Highest compression level (libdeflate's range is 0–12; 0 stores the text uncompressed).
pub const MAX_LEVEL: u32 = 12;

/// A gzip writer that compresses its input in members of at least [`MEMBER_BYTES`] (the last
/// may be shorter).
pub struct GzMembers<W: Write> {
    inner: W,
    compressor: Compressor,
    pending: Vec<u8>,
    compressed: Vec<u8>,
    members: u64,
}

impl<W: Write> GzMembers<W> {
    /// A writer at compression `level` (0–[`MAX_LEVEL`]; higher levels are capped).
    pub fn new(inner: W, level: u32) -> GzMembers<W> {
        let level = CompressionLvl::new(level.min(MAX_LEVEL) as i32)
            .expect("level within libdeflate's range");
        GzMembers {
            inner,
            compressor: Compressor::new(level),
            pending: Vec::with_capacity(MEMBER_BYTES + (MEMBER_BYTES >> 2)),
            compressed: Vec::new(),
            members: 0,
        }
    }

    /// Compress the pending text into one member and write it.
    fn write_member(&mut self) -> io::Result<()> {
        let bound = self.compressor.gzip_compress_bound(self.pending.len());
        self.compressed.resize(bound, 0);
        let n = self
            .compressor
            .gzip_compress(&self.pending, &mut self.compressed)
            .map_err(|e| io::Error::other(format!("gzip compression: {e:?}")))?;
        self.inner.write_all(&self.compressed[..n])?;
        self.pending.clear();
        self.members += 1;
        Ok(())
    }

    /// Write the last member (an empty one if nothing was written, so that the file is
    /// valid gzip) and return the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        if !self.pending.is_empty() || self.members == 0 {
            self.write_member()?;
        }
        Ok(self.inner)
    }
}

impl<W: Write> Write for GzMembers<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if self.pending.len() >= MEMBER_BYTES {
            self.write_member()?;
        }
        Ok(buf.len())
    }

    /// Compress what is pending into a member (ending it early) and flush the inner writer.
    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            self.write_member()?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn unzip(gz: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(gz)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn members_decompress_to_the_text_written() {
        // About 3.5 members of text in writes of varying sizes.
        let mut text = Vec::new();
        let mut i = 0u64;
        while text.len() < MEMBER_BYTES * 7 / 2 {
            text.extend_from_slice(format!("<p n=\"{i}\">block {}</p>\n", i * i % 977).as_bytes());
            i += 1;
        }
        for level in [0, 1, 6, MAX_LEVEL] {
            let mut w = GzMembers::new(Vec::new(), level);
            for chunk in text.chunks(40_000 + level as usize) {
                w.write_all(chunk).unwrap();
            }
            let members = w.members;
            let gz = w.finish().unwrap();
            assert_eq!(members, 3, "level {level}: full members before finish");
            assert_eq!(unzip(&gz), text, "level {level}");
            if level > 0 {
                assert!(gz.len() * 4 < text.len(), "level {level} compresses");
            }
        }
    }

    #[test]
    fn nothing_written_is_one_empty_member() {
        let gz = GzMembers::new(Vec::new(), 1).finish().unwrap();
        assert_eq!(&gz[..2], &[0x1f, 0x8b]);
        assert!(unzip(&gz).is_empty());
    }

    #[test]
    fn same_writes_give_the_same_bytes() {
        let write = || {
            let mut w = GzMembers::new(Vec::new(), 1);
            for i in 0..200_000 {
                write!(w, "{i} ").unwrap();
            }
            w.finish().unwrap()
        };
        assert_eq!(write(), write());
    }
}

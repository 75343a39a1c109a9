//! The raw text of a record as texrex's reader builds it: the text that block positions
//! ([`RawBlock::first_raw`](super::RawBlock::first_raw), `last_raw`) index into, so that
//! `MarkupProp` and the window features match texrex's.

use memchr::memchr;

/// The raw text of a record as texrex's reader builds it: each line, terminated by LF or CR
/// (a CR right after LF belongs to that LF; NUL bytes are dropped), becomes `' ' + line + ' '`.
/// An empty last line (the record ends in two line ends) is not counted, as in texrex's
/// output for its own training pages.
pub fn raw_text(record: &[u8]) -> Vec<u8> {
    raw_text_lines(record).0
}

/// [`raw_text`] and the positions of its line ends (the space after each line), which
/// [`segment_lines`](super::segment_lines) needs to keep the lines of preformatted text.
pub fn raw_text_lines(record: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let n = record.len();
    // One search for NUL bytes over the record, and one pass over its line ends, rather than
    // a search of each line for both.
    let nul = memchr(0, record).is_some();
    let mut out = Vec::with_capacity(n + n / 32 + 16);
    let mut line_ends = Vec::new();
    let mut terminators = memchr::memchr2_iter(b'\n', b'\r', record);
    let mut i = 0;
    while i < n {
        let end = terminators.by_ref().find(|&e| e >= i).unwrap_or(n);
        if end == i && end + 1 == n {
            break;
        }
        out.push(b' ');
        let line = &record[i..end];
        if nul {
            out.extend(line.iter().copied().filter(|&b| b != 0));
        } else {
            out.extend_from_slice(line);
        }
        line_ends.push(out.len());
        out.push(b' ');
        if end == n {
            break;
        }
        i = end + 1;
        if record[end] == b'\n' && i < n && record[i] == b'\r' {
            i += 1;
        }
    }
    (out, line_ends)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_text_joins_lines_like_texrex() {
        assert_eq!(raw_text(b"ab\ncd"), b" ab  cd ");
        // CRLF gives an empty line; LF CR is one line end.
        assert_eq!(raw_text(b"a\r\nb"), b" a    b ");
        assert_eq!(raw_text(b"a\n\rb"), b" a  b ");
        assert_eq!(raw_text(b"a\0b\n"), b" ab ");
        assert_eq!(raw_text(b"a\n\n"), b" a ");
        assert_eq!(raw_text(b"a\n\n\n"), b" a   ");
        // NUL bytes are dropped from the lines that have them, wherever they are.
        assert_eq!(raw_text(b"a\nb\0c\r\0\n"), b" a  bc   ");
        assert_eq!(
            raw_text_lines(b"\n\ra\r\n\rb\n"),
            (b"   a    b ".to_vec(), vec![1, 4, 6, 9])
        );
    }
}

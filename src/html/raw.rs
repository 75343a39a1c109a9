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
    let mut out = Vec::with_capacity(record.len() + record.len() / 32 + 16);
    let mut line_ends = Vec::new();
    let mut i = 0;
    let n = record.len();
    while i < n {
        let end = memchr::memchr2(b'\n', b'\r', &record[i..]).map_or(n, |o| i + o);
        if end == i && end + 1 == n {
            break;
        }
        out.push(b' ');
        let line = &record[i..end];
        if memchr(0, line).is_some() {
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
    }
}

//! Digests as text: the lower-case hexadecimal of a checksum's bytes (the models' checksum,
//! a run's configuration hash, a page's key).

/// Lower-case hexadecimal of bytes.
pub(crate) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

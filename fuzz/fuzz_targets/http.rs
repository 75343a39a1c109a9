//! The HTTP header and charset path: any response block gives headers, a MIME type, a
//! charset and decoded text, with no XML-illegal character left after stripping.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::http(data));

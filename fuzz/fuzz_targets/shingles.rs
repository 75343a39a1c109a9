//! The shingle line reader of `dedup`: a line it accepts is a well-formed shingle line and
//! reads back exactly as `shingle::write_lines` writes it.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::shingles(data));

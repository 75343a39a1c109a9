//! The WARC reader with recovery: any bytes give records or counted damage, never a panic or
//! a loop, and what it reports stays within the file.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::warc(data));

//! The manifest reader: any manifest reads; every line it resolves mirrors to a path under
//! the output directory (no root, no `..`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::manifest(data));

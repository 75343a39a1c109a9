//! The HTML segmenter in both syntaxes (HTML5 and texrex's scanner), with caps low enough
//! that the fuzzer meets them: no panic, the caps hold.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::segment(data));

//! The writers: any page, with any header values, gives XML that parses, with one start tag per
//! line and no character XML forbids; VRT whose structural tags balance; and a JSON line that
//! parses. Attribute values read back as they were.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::writers(data));

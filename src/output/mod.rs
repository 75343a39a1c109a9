//! Writers: texrex XML corpus lines and VRT, JSON lines, run statistics.

pub mod filter;
pub mod jsonl;
pub mod stats;
pub mod xml;

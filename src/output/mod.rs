//! Writers: texrex XML corpus lines, run statistics.

pub mod stats;
pub mod xml;

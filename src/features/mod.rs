//! Block features. [`texrex`] holds texrex's second pass (entity decoding and cleansing) and
//! its 37 features, computed exactly as texrex-behindthecow does.

mod cleanse;
mod entities;
pub mod texrex;

//! The integration tests, one module per file of `tests/`, built as one binary: each test
//! binary links the whole library (about 35 s with thin LTO on 2 cores), so one binary instead
//! of twelve saves minutes of every test build. `cargo test --release --test integration
//! docs::` runs one file's tests. Apart, each in a binary of its own: `models.rs` (the slow
//! reproductions), `s3.rs` (it sets the process's environment) and `toy.rs` (the
//! `toy-detector` feature).

mod batch;
mod common;
mod corpus;
mod docs;
mod fuzz_regressions;
mod inspect;
mod lid;
mod markdown;
mod pipeline;
mod project;
mod remote;
mod texrex_reference;
mod words;

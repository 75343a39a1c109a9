//! The crate's error and the exit codes of the command line.
//!
//! An [`Error`] says what went wrong in words and, by its kind, whose side it is on: the
//! arguments, an input, or the outputs. The kind decides the exit code
//! ([`Error::exit_code`]); the codes are documented in `docs/formats.md`.

use std::fmt;

/// Everything went as asked.
pub const EXIT_OK: i32 = 0;
/// An input could not be read or held nothing to work on; the other inputs were processed.
pub const EXIT_INPUT_FAILED: i32 = 1;
/// Arguments or options that do not go together, or a model that cannot be used.
pub const EXIT_USAGE: i32 = 2;
/// An output could not be written (sysexits' `EX_IOERR`).
pub const EXIT_OUTPUT_FAILED: i32 = 74;
/// Stopped by a signal before the last input; running the same command again goes on
/// (sysexits' `EX_TEMPFAIL`; SIGTERM, SIGUSR1 and SIGINT stop a run cleanly).
pub const EXIT_INTERRUPTED: i32 = 75;

/// What went wrong, by whose side it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Arguments or options that do not go together or are out of range, or a model file
    /// that cannot be read or is not a model.
    Usage(String),
    /// An input (a page, WARC file, URL, manifest, output directory to read, training or
    /// evaluation data) could not be read or holds nothing to work on.
    Input(String),
    /// An output (corpus file, report, model, blacklist) could not be written.
    Output(String),
}

impl Error {
    /// A usage error.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    /// An input error: `what` could not be read because of `cause`.
    pub fn input(what: impl fmt::Display, cause: impl fmt::Display) -> Error {
        Error::Input(format!("cannot read {what}: {cause}"))
    }

    /// An output error: `what` could not be written because of `cause`.
    pub fn output(what: impl fmt::Display, cause: impl fmt::Display) -> Error {
        Error::Output(format!("cannot write {what}: {cause}"))
    }

    /// The message, without the kind.
    pub fn message(&self) -> &str {
        match self {
            Error::Usage(m) | Error::Input(m) | Error::Output(m) => m,
        }
    }

    /// The command line's exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => EXIT_USAGE,
            Error::Input(_) => EXIT_INPUT_FAILED,
            Error::Output(_) => EXIT_OUTPUT_FAILED,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_own_exit_code() {
        let codes = [
            Error::usage("u").exit_code(),
            Error::input("x", "gone").exit_code(),
            Error::output("y", "full").exit_code(),
        ];
        assert_eq!(codes, [EXIT_USAGE, EXIT_INPUT_FAILED, EXIT_OUTPUT_FAILED]);
        let all = [
            EXIT_OK,
            EXIT_INPUT_FAILED,
            EXIT_USAGE,
            EXIT_OUTPUT_FAILED,
            EXIT_INTERRUPTED,
        ];
        let distinct: std::collections::BTreeSet<i32> = all.into_iter().collect();
        assert_eq!(distinct.len(), all.len());
        assert_eq!(Error::input("x", "gone").to_string(), "cannot read x: gone");
        assert_eq!(
            Error::output("y", "full").to_string(),
            "cannot write y: full"
        );
    }
}

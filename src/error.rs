//! The crate's error and the exit codes of the command line.
//!
//! An [`Error`] says what went wrong in words, what it concerns (a path, a URL, a record), the
//! error that caused it, and by its [`ErrorKind`] whose side it is on: the arguments, a model,
//! an input, or the outputs. The kind decides the exit code ([`Error::exit_code`]); the codes
//! are documented in `docs/formats.md`.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

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

/// Whose side a failure is on; it decides the exit code ([`Error::exit_code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Arguments or options that do not go together or are out of range.
    Usage,
    /// A model file that cannot be read or is not a model.
    Model,
    /// An input (a page, WARC file, URL, manifest, output directory to read, training or
    /// evaluation data) could not be read or holds nothing to work on.
    Input,
    /// An output (corpus file, report, model, blacklist) could not be written.
    Output,
}

/// What went wrong: its [`ErrorKind`], a message in words, what it concerns (a path, a URL, a
/// record), and the error that caused it ([`std::error::Error::source`]).
#[derive(Debug, Clone)]
pub struct Error(Box<Inner>);

#[derive(Debug, Clone)]
struct Inner {
    kind: ErrorKind,
    message: String,
    concerns: Option<String>,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

/// The cause of an [`Error`]: any error, or a message (`&str`, `String`).
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

impl Error {
    /// An error of `kind` with `message` and no cause.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error(Box::new(Inner {
            kind,
            message: message.into(),
            concerns: None,
            source: None,
        }))
    }

    /// A usage error.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Usage, message)
    }

    /// A model error: the model file `path` cannot be read or used because of `cause`
    /// ("model PATH: CAUSE").
    pub fn model(path: &Path, cause: impl Into<Cause>) -> Error {
        let cause = cause.into();
        Error::new(
            ErrorKind::Model,
            format!("model {}: {cause}", path.display()),
        )
        .concerning(path.display())
        .caused_by(cause)
    }

    /// An input error: `what` could not be read because of `cause`.
    pub fn input(what: impl fmt::Display, cause: impl Into<Cause>) -> Error {
        let cause = cause.into();
        Error::new(ErrorKind::Input, format!("cannot read {what}: {cause}"))
            .concerning(what)
            .caused_by(cause)
    }

    /// An output error: `what` could not be written because of `cause`.
    pub fn output(what: impl fmt::Display, cause: impl Into<Cause>) -> Error {
        let cause = cause.into();
        Error::new(ErrorKind::Output, format!("cannot write {what}: {cause}"))
            .concerning(what)
            .caused_by(cause)
    }

    /// This error, concerning `what` (a path, a URL, a record).
    pub(crate) fn concerning(mut self, what: impl fmt::Display) -> Error {
        self.0.concerns = Some(what.to_string());
        self
    }

    /// This error, caused by `cause`.
    pub fn caused_by(mut self, cause: impl Into<Cause>) -> Error {
        self.0.source = Some(Arc::from(cause.into()));
        self
    }

    /// Whose side the failure is on.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// What the error concerns (a path, a URL, a record), when it names one.
    pub fn concerns(&self) -> Option<&str> {
        self.0.concerns.as_deref()
    }

    /// The message, in words (with its cause's).
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The I/O error at the root of this one, if any.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        let mut e: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(self);
        while let Some(x) = e {
            if let Some(io) = x.downcast_ref::<std::io::Error>() {
                return Some(io);
            }
            e = x.source();
        }
        None
    }

    /// The command line's exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self.0.kind {
            ErrorKind::Usage | ErrorKind::Model => EXIT_USAGE,
            ErrorKind::Input => EXIT_INPUT_FAILED,
            ErrorKind::Output => EXIT_OUTPUT_FAILED,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

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
            Error::model(Path::new("m.gbt"), "not a model").exit_code(),
            EXIT_USAGE
        );
        assert_eq!(
            Error::output("y", "full").to_string(),
            "cannot write y: full"
        );
    }

    #[test]
    fn an_error_keeps_its_cause_and_what_it_concerns() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = Error::input("a.warc.gz", io);
        assert_eq!(e.kind(), ErrorKind::Input);
        assert_eq!(e.concerns(), Some("a.warc.gz"));
        assert_eq!(
            e.io_error().map(|io| io.kind()),
            Some(std::io::ErrorKind::NotFound)
        );
        let source = std::error::Error::source(&e).expect("a cause");
        assert_eq!(source.to_string(), "no such file");
        let wrapped = Error::usage("bad --flag").caused_by(e.clone());
        assert_eq!(
            wrapped.io_error().map(|io| io.kind()),
            Some(std::io::ErrorKind::NotFound)
        );
        assert_eq!(Error::usage("u").concerns(), None);
        assert!(std::error::Error::source(&Error::usage("u")).is_none());
    }
}

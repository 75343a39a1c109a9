//! Clean stops: a long run (a `process` run, the documents iterator, dedup, filter) stops when
//! the [`Stop`] in its settings is requested, from another thread or a signal handler (the
//! command line routes SIGTERM, SIGUSR1 and SIGINT to the [`Stop`] of its run). `process` then
//! drops the input it is in the middle of (removing its temporary files), keeps the inputs it
//! finished, and a rerun carries on where it stopped.
//!
//! A stop belongs to its run: one request stops the runs that share that [`Stop`] (its clones),
//! no other, so a process (a Python session, a datatrove task) can run again after stopping
//! a run.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A run's stop request, shared by its threads (a clone is the same request).
///
/// ```
/// let stop = cowrex::Stop::new();
/// let for_the_run = stop.clone();
/// assert!(!for_the_run.requested());
/// stop.request();
/// assert!(for_the_run.requested());
/// assert!(!cowrex::Stop::new().requested(), "another run's stop is its own");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A stop not requested yet.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Ask the run to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag a request sets, for a signal handler to set (`signal_hook::flag::register`).
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.0
    }

    /// `Err(Interrupted)` once a stop was asked for: for loops that can stop anywhere and let
    /// their callers' clean-up remove what they wrote.
    pub fn check(&self) -> io::Result<()> {
        if self.requested() {
            return Err(stopped());
        }
        Ok(())
    }
}

/// The error of a stopped run or read ([`Stop::check`]).
pub fn stopped() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, Stopped)
}

/// Whether an error is a stop ([`stopped`]), not a failure (an interrupted system call is not).
pub fn is_stop(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::Interrupted && e.get_ref().is_some_and(|i| i.is::<Stopped>())
}

/// What [`stopped`] carries, which tells a stop from other errors.
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped by request")
    }
}

impl std::error::Error for Stopped {}

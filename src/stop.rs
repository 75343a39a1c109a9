//! Clean stops: a long run (a `process` run, dedup, filter, a remote input) stops when
//! [`request`] is called or [`flag`] is set, from another thread or a signal handler (the
//! command line routes SIGTERM, SIGUSR1 and SIGINT here). `process` then drops the input it is
//! in the middle of (removing its temporary files), keeps the inputs it finished, and a rerun
//! carries on where it stopped.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// The flag a stop sets, for a signal handler to set (such as `signal_hook::flag::register`).
pub fn flag() -> &'static AtomicBool {
    &STOP
}

/// Ask the running work of this process to stop.
pub fn request() {
    STOP.store(true, Ordering::Relaxed);
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once a stop was asked for: for loops that can stop anywhere and let
/// their callers' clean-up remove what they wrote.
pub fn check() -> std::io::Result<()> {
    if requested() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "stopped by a signal",
        ));
    }
    Ok(())
}

/// Whether an error is a stop asked for by [`check`] (or by the pipeline's reader).
pub fn is_stop(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::Interrupted && requested()
}

//! Clean stops: SIGTERM, SIGUSR1 (Slurm's warning before a time limit) and SIGINT ask the
//! running command to stop. `process` then drops the input it is in the middle of (removing its
//! temporary files), keeps the inputs it finished, and exits with [`EXIT_INTERRUPTED`]; a rerun
//! carries on where it stopped. A second SIGINT ends the process at once.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<()> = OnceLock::new();

/// Route SIGTERM, SIGUSR1 and SIGINT to [`stop_requested`] (once per process).
pub fn install() -> std::io::Result<()> {
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    use signal_hook::consts::{SIGINT, SIGTERM, SIGUSR1};
    // Order matters: the conditional shutdown sees the flag before this SIGINT sets it.
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, &STOP)?;
    for sig in [SIGTERM, SIGUSR1, SIGINT] {
        signal_hook::flag::register(sig, &STOP)?;
    }
    let _ = INSTALLED.set(());
    Ok(())
}

/// Whether a stop was asked for by a signal.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once a stop was asked for: for loops that can stop anywhere and let
/// their callers' clean-up remove what they wrote.
pub fn check() -> std::io::Result<()> {
    if stop_requested() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "stopped by a signal",
        ));
    }
    Ok(())
}

/// Whether an error is a stop asked for by [`check`] (or by the pipeline's reader).
pub fn is_stop(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::Interrupted && stop_requested()
}

//! Clean stops: SIGTERM, SIGUSR1 (Slurm's warning before a time limit) and SIGINT set the
//! library's stop flag ([`cowrex::stop`]). `process` then drops the input it is in the middle
//! of, keeps the inputs it finished, and exits with [`cowrex::error::EXIT_INTERRUPTED`]; a
//! rerun carries on where it stopped. A second SIGINT ends the process at once.

use std::sync::OnceLock;

static INSTALLED: OnceLock<()> = OnceLock::new();

use cowrex::Error;
use cowrex::error::ErrorKind;

/// Route SIGTERM, SIGUSR1 and SIGINT to [`cowrex::stop::flag`] (once per process).
pub fn install() -> Result<(), Error> {
    register().map_err(|e| {
        Error::new(
            ErrorKind::Output,
            format!("cannot install signal handlers: {e}"),
        )
        .caused_by(e)
    })
}

fn register() -> std::io::Result<()> {
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    use signal_hook::consts::{SIGINT, SIGTERM, SIGUSR1};
    let stop = cowrex::stop::flag();
    // Order matters: the conditional shutdown sees the flag before this SIGINT sets it.
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, stop)?;
    for sig in [SIGTERM, SIGUSR1, SIGINT] {
        signal_hook::flag::register(sig, stop)?;
    }
    let _ = INSTALLED.set(());
    Ok(())
}

//! Clean stops: SIGTERM, SIGUSR1 (Slurm's warning before a time limit) and SIGINT request the
//! stop of the command's run ([`cowrex::stop::Stop`]). `process` then drops the input it is in
//! the middle of, keeps the inputs it finished, and exits with
//! [`cowrex::error::EXIT_INTERRUPTED`]; a rerun carries on where it stopped. A second SIGINT
//! ends the process at once.

use cowrex::Error;
use cowrex::error::ErrorKind;
use cowrex::stop::Stop;
use signal_hook::SigId;

/// The signal handlers of one run: while it lives, SIGTERM, SIGUSR1 and SIGINT request its
/// stop; dropped, they are removed (the command line runs in a Python process too, which may
/// run another command after it).
pub struct Signals(Vec<SigId>);

impl Drop for Signals {
    fn drop(&mut self) {
        for id in self.0.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// Route SIGTERM, SIGUSR1 and SIGINT to `stop` while the result lives.
pub fn install(stop: &Stop) -> Result<Signals, Error> {
    register(stop).map_err(|e| {
        Error::new(
            ErrorKind::Output,
            format!("cannot install signal handlers: {e}"),
        )
        .caused_by(e)
    })
}

fn register(stop: &Stop) -> std::io::Result<Signals> {
    use signal_hook::consts::{SIGINT, SIGTERM, SIGUSR1};
    let flag = stop.flag();
    let mut signals = Signals(Vec::with_capacity(4));
    // Order matters: the conditional shutdown sees the flag before this SIGINT sets it.
    signals
        .0
        .push(signal_hook::flag::register_conditional_shutdown(
            SIGINT,
            130,
            flag.clone(),
        )?);
    for sig in [SIGTERM, SIGUSR1, SIGINT] {
        signals
            .0
            .push(signal_hook::flag::register(sig, flag.clone())?);
    }
    Ok(signals)
}

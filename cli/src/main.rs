//! The `cowrex` binary: the command line of [`cowrex_cli::run`] on the process's arguments.

fn main() {
    std::process::exit(cowrex_cli::run(std::env::args_os()));
}

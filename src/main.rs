//! The `cowrex` binary: the command line of the library ([`cowrex::run_cli`]).

fn main() {
    std::process::exit(cowrex::run_cli());
}

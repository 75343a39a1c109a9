fn main() {
    std::process::exit(cowrex::cli::main());
}

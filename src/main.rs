fn main() {
    std::process::exit(cowrex::run_cli());
}

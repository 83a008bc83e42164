fn main() -> std::process::ExitCode {
    constree::cli::main()
}

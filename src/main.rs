//! The `constree` binary: the command line of [`constree::cli`].

/// A faster allocator for the many small allocations of the assembler.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Like other command-line tools, end quietly when the reader of our
    // output goes away (`constree ... | head`).
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal before any thread
    // starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    constree::cli::main()
}

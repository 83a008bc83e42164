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
    // No transparent huge pages: mimalloc asks for them, and the kernel then
    // zeroes 2 MiB at the first touch of each, which was most of the time
    // of `constree asm` (docs/performance.md, "The assembler").
    #[cfg(target_os = "linux")]
    // SAFETY: a process-wide flag, set before any thread starts.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    constree::cli::main()
}

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
    // Freed memory goes back to the system after 10 ms (and 100 ms for
    // mimalloc's arenas) instead of its default 1 s (10 s): the phases of
    // `constree asm` free most of what the one before built, and without
    // this the peak is what they built together (105 MB against 65 MB,
    // docs/performance.md, "Issue 20, fifth round"). A default only:
    // `MIMALLOC_PURGE_DELAY` still sets it.
    // SAFETY: sets a number in mimalloc's option table, before any thread
    // starts.
    unsafe {
        mi_option_set_default(MI_OPTION_PURGE_DELAY, 10);
    }
    constree::cli::main()
}

/// `mi_option_purge_delay` in the `mi_option_t` of mimalloc 3
/// (`libmimalloc-sys` 0.1.49, `c_src/mimalloc/v3/include/mimalloc.h`),
/// which `libmimalloc-sys` does not name without its `extended` feature.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

unsafe extern "C" {
    /// mimalloc's default for an option, which its `MIMALLOC_...`
    /// environment variable overrides (linked in by `libmimalloc-sys`).
    fn mi_option_set_default(option: std::ffi::c_int, value: std::ffi::c_long);
}

//! The `constree` binary: the command line of [`constree::cli`].

use std::alloc::GlobalAlloc;

/// A faster allocator for the many small allocations of the assembler.
#[global_allocator]
static ALLOCATOR: Mimalloc = Mimalloc;

/// mimalloc, asked for word-aligned blocks through its plain `mi_malloc`
/// and `mi_realloc`. `mimalloc::MiMalloc` asks for every block through
/// `mi_malloc_aligned`, whose fast path only takes a block that happens to
/// be aligned: for a size that is not a power of two it falls to the
/// over-allocating path at every call (a block of another size class, so
/// the size's own pages are never refilled), 112 instructions an
/// allocation in `constree check` (docs/performance.md, "Issue 20, sixth
/// round: check"). Every mimalloc block is aligned to at least a word, and
/// mimalloc's own `mi_realloc_aligned` uses `mi_realloc` for such
/// alignments; larger alignments still go through `MiMalloc`.
struct Mimalloc;

impl Mimalloc {
    /// The alignment every block of mimalloc has (`MI_INTPTR_SIZE`).
    const WORD: usize = std::mem::size_of::<usize>();
}

// SAFETY: blocks of alignment at most a word come from `mi_malloc`,
// `mi_zalloc` and `mi_realloc`, which return word-aligned blocks (or null)
// of at least the size asked; every block, whichever function made it, is
// freed by `mi_free` and may be resized by `mi_realloc` (mimalloc's own
// `mi_realloc_aligned` does so for word alignments), so `dealloc` and
// `realloc` accept the blocks of both paths.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.align() <= Mimalloc::WORD {
            // SAFETY: see the impl.
            let p = unsafe { mi_malloc(layout.size()) }.cast::<u8>();
            debug_assert!(p.align_offset(layout.align()) == 0);
            p
        } else {
            // SAFETY: the caller's contract, passed on.
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.align() <= Mimalloc::WORD {
            // SAFETY: see the impl.
            let p = unsafe { mi_zalloc(layout.size()) }.cast::<u8>();
            debug_assert!(p.align_offset(layout.align()) == 0);
            p
        } else {
            // SAFETY: the caller's contract, passed on.
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: the caller's contract, passed on (`mi_free` frees the
        // blocks of both paths).
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= Mimalloc::WORD {
            // SAFETY: see the impl; `ptr` is a live block of this allocator.
            let p = unsafe { mi_realloc(ptr.cast(), new_size) }.cast::<u8>();
            debug_assert!(p.align_offset(layout.align()) == 0);
            p
        } else {
            // SAFETY: the caller's contract, passed on.
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

fn main() -> std::process::ExitCode {
    // Like other command-line tools, end quietly when the reader of our
    // output goes away (`constree ... | head`).
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal before any thread
    // starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Where there is no `.init_array` to call it before the runtime, as
    // early as the program can.
    #[cfg(not(target_os = "linux"))]
    set_memory_options();
    constree::cli::main()
}

/// Sets the process's memory options before anything is allocated: it runs
/// from the executable's `.init_array`, before Rust's runtime makes its
/// first allocation (which, from `main`, was too late: mimalloc's first
/// arena had already taken two transparent huge pages, 4 MiB the kernel
/// zeroed at every start; docs/performance.md, "Issue 20, seventh round").
///
/// No transparent huge pages: mimalloc asks for them, and the kernel then
/// zeroes 2 MiB at the first touch of each, which was most of the time of
/// `constree asm` (docs/performance.md, "The assembler").
///
/// Freed memory goes back to the system after 10 ms (and 100 ms for
/// mimalloc's arenas) instead of its default 1 s (10 s): the phases of
/// `constree asm` free most of what the one before built, and without this
/// the peak is what they built together (105 MB against 65 MB,
/// docs/performance.md, "Issue 20, fifth round"). A default only:
/// `MIMALLOC_PURGE_DELAY` still sets it.
extern "C" fn set_memory_options() {
    #[cfg(target_os = "linux")]
    // SAFETY: a process-wide flag, set before any thread starts.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    // SAFETY: sets a number in mimalloc's option table, before any thread
    // starts and before mimalloc has allocated.
    unsafe {
        mi_option_set_default(MI_OPTION_PURGE_DELAY, 10);
    }
}

/// [`set_memory_options`], called by the loader before `main` (and before
/// the runtime's first allocation).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SET_MEMORY_OPTIONS: extern "C" fn() = set_memory_options;

/// `mi_option_purge_delay` in the `mi_option_t` of mimalloc 3
/// (`libmimalloc-sys` 0.1.49, `c_src/mimalloc/v3/include/mimalloc.h`),
/// which `libmimalloc-sys` does not name without its `extended` feature.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

unsafe extern "C" {
    /// mimalloc's default for an option, which its `MIMALLOC_...`
    /// environment variable overrides (linked in by `libmimalloc-sys`).
    fn mi_option_set_default(option: std::ffi::c_int, value: std::ffi::c_long);
    /// mimalloc's `malloc`: a block of at least `size` bytes, or null.
    fn mi_malloc(size: usize) -> *mut std::ffi::c_void;
    /// mimalloc's `calloc` of one element: `mi_malloc`, zeroed.
    fn mi_zalloc(size: usize) -> *mut std::ffi::c_void;
    /// mimalloc's `realloc`.
    fn mi_realloc(p: *mut std::ffi::c_void, size: usize) -> *mut std::ffi::c_void;
}

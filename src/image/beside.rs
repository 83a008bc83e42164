//! Work done beside other work: on a second thread when one starts, else
//! before it on this one. The image's source texts are hashed and
//! compressed this way while the rest of the image is built or written:
//! that work needs only the texts (`&str`, which threads can share), not
//! the trees (which belong to this thread).

use std::sync::Mutex;

/// Below this many bytes of texts the work is not worth a thread (starting
/// one costs tens of microseconds).
const WORTH_A_THREAD: usize = 1 << 16;

/// Runs `background`, work on `bytes` bytes of texts, on a scoped thread
/// while `foreground` runs on this one, and gives both results. When the
/// work is small or no thread can be started, `background` runs here
/// first: the results are the same either way.
pub(crate) fn beside<A: Send, B>(
    bytes: usize,
    background: impl FnOnce() -> A + Send,
    foreground: impl FnOnce() -> B,
) -> (A, B) {
    if bytes < WORTH_A_THREAD {
        return (background(), foreground());
    }
    // Taken once: by the thread, or here when the thread does not start
    // (the lock is held only to take it, so it is never poisoned).
    let work = Mutex::new(Some(background));
    let run = || {
        let background = work.lock().ok().and_then(|mut w| w.take());
        background.map(|background| background())
    };
    let (a, b) =
        std::thread::scope(
            |scope| match std::thread::Builder::new().spawn_scoped(scope, run) {
                Ok(handle) => {
                    let b = foreground();
                    match handle.join() {
                        Ok(a) => (a, b),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
                Err(_) => {
                    let a = run();
                    (a, foreground())
                }
            },
        );
    (a.expect("the work runs once"), b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_results_come_back_for_small_and_large_work() {
        let text = "x".repeat(WORTH_A_THREAD);
        for bytes in [0, text.len()] {
            let mut here = 0;
            let (a, b) = beside(
                bytes,
                || text[..bytes].len(),
                || {
                    here += 1;
                    "done"
                },
            );
            assert_eq!((a, b, here), (bytes, "done", 1));
        }
    }
}

//! A large file parsed on a second thread, ahead of its expansion: the
//! expander takes the nodes of a file one at a time (`macros`), and on a
//! machine with two cores, parsing the next lines while the expander works
//! on the ones before takes the parser's time off the assembly's
//! (docs/performance.md, "Issue 20, eighth round: parsing ahead").
//!
//! The nodes come in the same order, and the errors are exactly those a
//! parser on the expander's thread would have found by the time the
//! expander stopped taking nodes: what the assembly reports does not depend
//! on which thread parsed, nor on how far ahead it got.

use super::ast::Node;
use super::parser::{ErrorMark, Nodes};
use super::source::FileId;
use crate::diagnostic::Diagnostic;
use std::ops::ControlFlow;
use std::sync::mpsc::sync_channel;

/// Files of at least this many bytes are parsed on a thread of their own
/// (below it, starting a thread costs more than it saves).
const AHEAD_BYTES: usize = 256 << 10;
/// Nodes handed from the parser's thread to the expander's at a time
/// (fewer batches wake the parser fewer times: 256 took 6 ms more than
/// 1,024 on the benchmark, docs/performance.md).
const BATCH: usize = 1024;
/// The first batch, smaller: the expander waits for it.
const FIRST_BATCH: usize = 64;
/// Batches the parser may be ahead of the expander: what parsing ahead
/// holds in memory is bounded.
const BATCHES_AHEAD: usize = 4;

/// Gives the top-level nodes of `text` (the file `file`) to `take`, in
/// order, until `take` breaks, and returns the parser's errors up to there
/// (all of them when `take` took every node).
pub fn each_node(
    file: FileId,
    text: &str,
    take: impl FnMut(Node) -> ControlFlow<()>,
) -> Vec<Diagnostic> {
    // On a single core the two threads take turns, a batch at a time.
    if text.len() >= AHEAD_BYTES {
        ahead(file, text, take)
    } else {
        here(file, text, take)
    }
}

/// [`each_node`] on this thread.
fn here(
    file: FileId,
    text: &str,
    mut take: impl FnMut(Node) -> ControlFlow<()>,
) -> Vec<Diagnostic> {
    let mut nodes = Nodes::new(file, text);
    for node in nodes.by_ref() {
        if take(node).is_break() {
            break;
        }
    }
    nodes.into_diagnostics()
}

/// [`each_node`] with the parser on a thread of its own. Each node comes
/// with the parser's [`ErrorMark`] taken right after it was parsed, so that
/// the errors kept when `take` breaks at a node are the ones [`here`] would
/// have found when it gave out that node.
fn ahead(
    file: FileId,
    text: &str,
    mut take: impl FnMut(Node) -> ControlFlow<()>,
) -> Vec<Diagnostic> {
    std::thread::scope(|scope| {
        let (sender, receiver) = sync_channel::<Vec<(Node, ErrorMark)>>(BATCHES_AHEAD);
        let parser = scope.spawn(move || {
            let mut nodes = Nodes::new(file, text);
            let mut batch = Vec::with_capacity(FIRST_BATCH);
            while let Some(node) = nodes.next() {
                batch.push((node, nodes.mark()));
                if batch.len() == batch.capacity() {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    if sender.send(full).is_err() {
                        // The expander stopped taking nodes.
                        return nodes;
                    }
                }
            }
            if !batch.is_empty() {
                let _ = sender.send(batch);
            }
            nodes
        });
        let mut stopped = None;
        'taking: for batch in &receiver {
            for (node, mark) in batch {
                if take(node).is_break() {
                    stopped = Some(mark);
                    break 'taking;
                }
            }
        }
        // The parser, if still going, stops at its next batch.
        drop(receiver);
        let nodes = parser
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        nodes.into_diagnostics_up_to(stopped)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `blocks` blocks of lines with every kind of error the
    /// parser and the lexer report: a stray character, a line that does not
    /// parse, an `end` with nothing open, a `block` and an `if` nesting
    /// lines, and a `macro` left open at the end of the file.
    fn text(blocks: usize) -> String {
        let mut text = String::new();
        for k in 0..blocks {
            text.push_str(&format!("label{k}:   ; block {k}\n    construct a, b, a\n"));
            match k % 7 {
                0 => text.push_str("    mov a, $\n"),
                1 => text.push_str("    construct a,, b\n"),
                2 => text.push_str("end\n"),
                3 => text.push_str("block b{k}\n    push b, a\nend\n"),
                4 => text.push_str("if 1 == 1\n    pop b, a\nelse\n    halt\nend\n"),
                _ => text.push_str("    load a, [1, 2 | 3]\n"),
            }
        }
        text.push_str("macro open x\n    mov x, x\n");
        text
    }

    /// [`here`] or [`ahead`].
    type Parse = fn(FileId, &str, &mut dyn FnMut(Node) -> ControlFlow<()>) -> Vec<Diagnostic>;

    /// The nodes `run` gives (until `stop` of them were taken) and the
    /// errors it returns, as text.
    fn taken(run: Parse, text: &str, stop: usize) -> (Vec<String>, Vec<String>) {
        let mut nodes = Vec::new();
        let errors = run(FileId(1), text, &mut |node| {
            if nodes.len() == stop {
                return ControlFlow::Break(());
            }
            nodes.push(format!("{node:?}"));
            ControlFlow::Continue(())
        });
        (nodes, errors.iter().map(|e| format!("{e:?}")).collect())
    }

    #[test]
    fn parsing_ahead_gives_the_nodes_and_errors_of_parsing_here_wherever_taking_stops() {
        let text = text(12_000);
        assert!(text.len() > 64 << 10);
        let (all, errors) = taken(|f, t, take| here(f, t, take), &text, usize::MAX);
        assert!(all.len() > 3 * BATCH * BATCHES_AHEAD, "{}", all.len());
        assert!(errors.len() > 1000, "{}", errors.len());
        for stop in [
            0,
            1,
            FIRST_BATCH,
            FIRST_BATCH + 1,
            BATCH - 1,
            BATCH,
            BATCH + 1,
            2000,
            all.len() - 1,
            all.len(),
            usize::MAX,
        ] {
            let here = taken(|f, t, take| here(f, t, take), &text, stop);
            let ahead = taken(|f, t, take| ahead(f, t, take), &text, stop);
            assert_eq!(here.0.len(), stop.min(all.len()));
            assert!(here.1.len() <= errors.len());
            assert_eq!(here, ahead, "taking stopped after {stop} nodes");
        }
    }
}

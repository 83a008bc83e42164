//! Folding ranges (`textDocument/foldingRange`): a `macro`, `block` or
//! `if` up to its `end`, a label's code up to the next label (or the end
//! of what holds it), and a run of two or more comment lines.
//!
//! They are read from the text as the editor has it, with the assembler's
//! lexer (its logical lines: a statement continued over several lines is
//! one), whatever the last check made of it; nesting is kept on a stack,
//! never by recursion.

use super::text::Lines;
use super::{RequestError, Server};
use crate::asm::lexer::{self, Token};
use crate::diagnostic::FileId;
use lsp_types::{FoldingRange, FoldingRangeKind, FoldingRangeParams};

impl Server {
    pub(super) fn folding_ranges(
        &self,
        params: FoldingRangeParams,
    ) -> Result<Option<Vec<FoldingRange>>, RequestError> {
        let text = &self.document(&params.text_document.uri)?.text;
        Ok(Some(folds(text)))
    }
}

/// An open label's code: its first line, and how deep in `macro`, `block`
/// and `if` it is.
struct OpenLabel {
    line: u32,
    depth: usize,
}

/// The folding ranges of a text, by where each starts.
fn folds(text: &str) -> Vec<FoldingRange> {
    let lines = Lines::new(text);
    let mut out = Vec::new();
    // The first lines of the `macro`, `block` and `if` not yet ended.
    let mut open: Vec<u32> = Vec::new();
    let mut labels: Vec<OpenLabel> = Vec::new();
    // The last line with code so far.
    let mut last = 0;
    for statement in lexer::Lines::new(FileId(0), text) {
        let Some(&(first, span)) = statement.first() else {
            continue;
        };
        let line = lines.line(span.start as usize);
        let end_line = statement
            .last()
            .map_or(line, |(_, s)| lines.line(s.end as usize));
        let word = match first {
            Token::Ident(word) => word,
            _ => "",
        };
        let label = matches!(statement.get(1), Some((Token::Colon, _))) && !word.is_empty();
        match word {
            _ if label => {
                close_labels(&mut out, &mut labels, open.len(), last);
                labels.push(OpenLabel {
                    line,
                    depth: open.len(),
                });
            }
            // A label's code is inside an `if`, not inside a definition.
            "macro" | "block" => {
                close_labels(&mut out, &mut labels, open.len(), last);
                open.push(line);
            }
            "if" => open.push(line),
            "end" => {
                close_labels(&mut out, &mut labels, open.len(), last);
                if let Some(start) = open.pop() {
                    out.push(fold(start, line, None));
                }
            }
            _ => {}
        }
        last = end_line;
    }
    close_labels(&mut out, &mut labels, 0, last);
    out.extend(comment_runs(text));
    out.retain(|f| f.end_line > f.start_line);
    out.sort_by_key(|f| (f.start_line, std::cmp::Reverse(f.end_line)));
    out
}

/// Ends the labels open at `depth` or deeper at the line `end`.
fn close_labels(out: &mut Vec<FoldingRange>, labels: &mut Vec<OpenLabel>, depth: usize, end: u32) {
    while let Some(label) = labels.pop_if(|l| l.depth >= depth) {
        out.push(fold(label.line, end, None));
    }
}

fn fold(start: u32, end: u32, kind: Option<FoldingRangeKind>) -> FoldingRange {
    FoldingRange {
        start_line: start,
        end_line: end,
        kind,
        ..FoldingRange::default()
    }
}

/// Runs of lines that are comments alone.
fn comment_runs(text: &str) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut run: Option<(u32, u32)> = None;
    for (n, line) in text.split('\n').enumerate() {
        let n = n as u32;
        if line.trim_start().starts_with(';') {
            run = Some(run.map_or((n, n), |(start, _)| (start, n)));
        } else if let Some((start, end)) = run.take() {
            out.push(fold(start, end, Some(FoldingRangeKind::Comment)));
        }
    }
    out.extend(run.map(|(start, end)| fold(start, end, Some(FoldingRangeKind::Comment))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(u32, u32, bool)> {
        folds(text)
            .into_iter()
            .map(|f| (f.start_line, f.end_line, f.kind.is_some()))
            .collect()
    }

    #[test]
    fn macros_blocks_labels_and_comment_runs_fold() {
        let text = "\
; one
; two
macro twice r
again:
    construct r, r, r
    nilify r
end

main:
    twice x

.loop:
    nilify x
";
        assert_eq!(
            spans(text),
            [
                (0, 1, true),
                (2, 6, false),
                (3, 5, false),
                (8, 9, false),
                (11, 12, false)
            ]
        );
    }

    #[test]
    fn deep_nesting_and_unended_structures_fold_without_recursion() {
        let depth = 10_000;
        let text = "macro m\n".repeat(depth);
        let found = folds(&text);
        assert!(found.is_empty(), "nothing ends: {}", found.len());
        let text = format!("{}{}", "if 1\n".repeat(depth), "end\n".repeat(depth));
        let found = folds(&text);
        assert_eq!(found.len(), depth);
        assert_eq!(found[0].end_line, 2 * depth as u32 - 1);
    }
}

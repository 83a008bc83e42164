//! From rows to text: blank lines normalised, operands and comments
//! aligned in columns.

use super::rows::{Kind, Row};
use super::{COMMENT_ALIGN_WIDTH, COMMENT_TAB, MNEMONIC_ALIGN_WIDTH};

/// Gives the rows to `emit` as lines of text, one at a time, each ended
/// by a newline; stops at the first error `emit` returns. Nothing but one
/// line is held: a file of 100,000 nested bodies is hundreds of megabytes
/// of spaces, written without being gathered.
pub fn render<E>(rows: Vec<Row>, mut emit: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    let mut rows = without_extra_blanks(rows);
    align_operands(&mut rows);
    let columns = comment_columns(&rows);
    let mut line = String::new();
    for (row, column) in rows.into_iter().zip(columns) {
        line.clear();
        let spaces = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n));
        if row.kind != Kind::Blank {
            spaces(&mut line, row.indent);
        }
        if !matches!(row.kind, Kind::Blank | Kind::Comment) {
            line.push_str(&row.head);
            if !row.operands.is_empty() {
                line.push(' ');
                line.push_str(&row.operands);
            }
        }
        if let Some(comment) = &row.comment {
            spaces(&mut line, padding(&row, column));
            line.push_str(comment);
        }
        line.push('\n');
        emit(&line)?;
    }
    Ok(())
}

/// Drops blank lines that do not separate: all but one of several in a
/// row, those at the start and the end, after a line that opens a body
/// (`if`, `else`, `macro`, `block`) and before `else` or `end`.
fn without_extra_blanks(mut rows: Vec<Row>) -> Vec<Row> {
    // For each row, the kind of the next row that is not blank.
    let mut next_kinds = vec![None; rows.len()];
    let mut next = None;
    for (i, row) in rows.iter().enumerate().rev() {
        next_kinds[i] = next;
        if row.kind != Kind::Blank {
            next = Some(row.kind);
        }
    }
    // The kind of the last row kept, a statement's later lines counting as
    // its first.
    let mut after = None;
    let mut next_kinds = next_kinds.into_iter();
    rows.retain(|row| {
        let next = next_kinds.next().flatten();
        if row.kind == Kind::Blank {
            let separates = matches!(
                after,
                Some(k) if !matches!(k, Kind::Blank | Kind::Opens | Kind::Else)
            ) && matches!(next, Some(k) if !matches!(k, Kind::Else | Kind::End));
            if !separates {
                return false;
            }
        }
        if row.kind != Kind::Continuation {
            after = Some(row.kind);
        }
        true
    });
    rows
}

/// In each run of instructions (broken by anything but instructions,
/// comments alone on their lines and the later lines of a statement), the
/// mnemonics are padded so that the operands start in one column, one
/// space after the longest mnemonic (those longer than
/// [`MNEMONIC_ALIGN_WIDTH`] left out, and not padded).
fn align_operands(rows: &mut [Row]) {
    let breaks = |row: &Row| {
        !matches!(
            row.kind,
            Kind::Instruction | Kind::Comment | Kind::Continuation
        )
    };
    let aligned = |row: &Row| {
        row.kind == Kind::Instruction
            && !row.operands.is_empty()
            && row.head.chars().count() <= MNEMONIC_ALIGN_WIDTH
    };
    for group in rows.split_mut(breaks) {
        let width = group
            .iter()
            .filter(|r| aligned(r))
            .map(|r| r.head.chars().count())
            .max()
            .unwrap_or(0);
        for row in group.iter_mut().filter(|r| aligned(r)) {
            let pad = width - row.head.chars().count();
            row.head.push_str(&" ".repeat(pad));
        }
    }
}

/// The spaces between a row's code and its comment, which starts in
/// `column` or two spaces after the code (none for a comment alone).
fn padding(row: &Row, column: usize) -> usize {
    if row.kind == Kind::Comment {
        return 0;
    }
    let width = code_width(row);
    column.max(width + 2) - width
}

/// The width of a row's code as written (no comment), in characters.
fn code_width(row: &Row) -> usize {
    match row.kind {
        Kind::Blank | Kind::Comment => 0,
        _ if row.operands.is_empty() => row.indent + row.head.chars().count(),
        _ => row.indent + row.head.chars().count() + 1 + row.operands.chars().count(),
    }
}

/// For each row, the column its trailing comment starts in: in each run
/// of lines without a blank line, the first multiple of [`COMMENT_TAB`]
/// at least two spaces after the longest code that has a comment (code
/// longer than [`COMMENT_ALIGN_WIDTH`] left out).
fn comment_columns(rows: &[Row]) -> Vec<usize> {
    let mut columns = vec![0; rows.len()];
    let mut start = 0;
    for end in 1..=rows.len() {
        if end < rows.len() && rows[end].kind != Kind::Blank {
            continue;
        }
        let widest = (start..end)
            .filter(|&i| rows[i].kind != Kind::Comment && rows[i].comment.is_some())
            .map(|i| code_width(&rows[i]))
            .filter(|&w| w <= COMMENT_ALIGN_WIDTH)
            .max()
            .unwrap_or(0);
        let column = (widest + 2).div_ceil(COMMENT_TAB) * COMMENT_TAB;
        columns[start..end].fill(column);
        start = end;
    }
    columns
}

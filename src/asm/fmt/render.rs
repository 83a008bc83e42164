//! From rows to text: blank lines normalised, operands and comments
//! aligned in columns.

use super::rows::{Kind, Row};

/// Trailing comments start at a multiple of this column, at least two
/// spaces after the longest code of their group.
const COMMENT_TAB: usize = 4;

/// Code longer than this does not push the comments of its group to the
/// right: its own comment follows it after two spaces.
const COMMENT_ALIGN_WIDTH: usize = 60;

/// Mnemonics longer than this (macro names, mostly) do not push the
/// operands of their run to the right: their operands follow one space
/// after them.
const MNEMONIC_ALIGN_WIDTH: usize = 8;

/// The text of the rows, each line ended by a newline.
pub fn render(rows: Vec<Row>) -> String {
    let mut rows = without_extra_blanks(rows);
    align_operands(&mut rows);
    let codes: Vec<String> = rows.iter().map(code).collect();
    let columns = comment_columns(&rows, &codes);
    let mut out = String::new();
    for ((row, code), column) in rows.iter().zip(&codes).zip(columns) {
        out.push_str(code);
        if let Some(comment) = &row.comment {
            if row.kind == Kind::Comment {
                out.push_str(&" ".repeat(row.indent));
            } else {
                let width = code.chars().count();
                out.push_str(&" ".repeat(column.max(width + 2) - width));
            }
            out.push_str(comment);
        }
        out.push('\n');
    }
    out
}

/// Drops blank lines that do not separate: all but one of several in a
/// row, those at the start and the end, after a line that opens a body
/// (`if`, `else`, `macro`, `block`) and before `else` or `end`.
fn without_extra_blanks(rows: Vec<Row>) -> Vec<Row> {
    // For each row, the kind of the next row that is not blank.
    let mut next_kinds = vec![None; rows.len()];
    let mut next = None;
    for (i, row) in rows.iter().enumerate().rev() {
        next_kinds[i] = next;
        if row.kind != Kind::Blank {
            next = Some(row.kind);
        }
    }
    let mut kept: Vec<Row> = Vec::with_capacity(rows.len());
    for (row, next) in rows.into_iter().zip(next_kinds) {
        if row.kind == Kind::Blank {
            let after = kept.last().map(|r| r.kind);
            let separates = matches!(
                after,
                Some(k) if !matches!(k, Kind::Blank | Kind::Opens | Kind::Else)
            ) && matches!(next, Some(k) if !matches!(k, Kind::Else | Kind::End));
            if !separates {
                continue;
            }
        }
        kept.push(row);
    }
    kept
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

/// The code of a row as written (no comment).
fn code(row: &Row) -> String {
    match row.kind {
        Kind::Blank | Kind::Comment => String::new(),
        _ if row.operands.is_empty() => format!("{}{}", " ".repeat(row.indent), row.head),
        _ => format!("{}{} {}", " ".repeat(row.indent), row.head, row.operands),
    }
}

/// For each row, the column its trailing comment starts in: in each run
/// of lines without a blank line, the first multiple of [`COMMENT_TAB`]
/// at least two spaces after the longest code that has a comment (code
/// longer than [`COMMENT_ALIGN_WIDTH`] left out).
fn comment_columns(rows: &[Row], codes: &[String]) -> Vec<usize> {
    let mut columns = vec![0; rows.len()];
    let mut start = 0;
    for end in 1..=rows.len() {
        if end < rows.len() && rows[end].kind != Kind::Blank {
            continue;
        }
        let widest = (start..end)
            .filter(|&i| rows[i].kind != Kind::Comment && rows[i].comment.is_some())
            .map(|i| codes[i].chars().count())
            .filter(|&w| w <= COMMENT_ALIGN_WIDTH)
            .max()
            .unwrap_or(0);
        let column = (widest + 2).div_ceil(COMMENT_TAB) * COMMENT_TAB;
        columns[start..end].fill(column);
        start = end;
    }
    columns
}

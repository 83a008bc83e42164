//! The formatter (`constree fmt`): one canonical layout for `.cta` sources.
//!
//! A file is parsed first, and one that does not lex or parse is refused
//! with its errors rather than laid out. Formatting then changes only what
//! lies between tokens: spaces, line breaks between statements and inside
//! them where the author broke a statement over lines, blank lines, and
//! where comments stand. The tokens, and so what the file assembles to,
//! stay as they were; every comment is kept, its text trimmed at the end.
//! The rules, each with an example, are in `docs/fmt.md`:
//!
//! - labels stand alone in column 0 (`main: halt` becomes two lines);
//! - statements are indented [`INDENT`] spaces, and each body of `if`,
//!   `else`, `macro` and `block` one level more (at most
//!   [`MAX_INDENT_LEVELS`] levels); an instruction or macro invocation
//!   at the top level is indented one level in code (after a label, up to
//!   the next declaration) and stands in column 0 outside it, as the
//!   declarations a macro there writes do;
//! - the operands of consecutive instructions start in one column;
//! - trailing comments of consecutive lines start in one column;
//! - tokens are spaced one way (`mov x, [1, -2 | t]`, `#5`, `@(B + 1)`,
//!   `cons(a, b)`, `use std/control`);
//! - a statement broken over lines keeps its breaks, each later line
//!   indented one level per bracket open at its start;
//! - at most one blank line in a row, none at the start or end of the file,
//!   after a line that opens a body or before its `else` or `end`.
//!
//! Nothing here recurses on the input: lines are read one at a time and the
//! parsed nodes are walked with explicit stacks.

mod render;
mod rows;

use super::ast::{Expr, ExprKind, Node, Stmt};
use super::parser::Nodes;
use super::source::FileId;
use crate::diagnostic::Diagnostic;
use std::collections::HashSet;

/// Spaces per level of indentation.
pub const INDENT: usize = 4;

/// Bodies nested deeper than this are indented as deep as this: a file of
/// 100,000 nested `if`s is formatted without writing gigabytes of spaces.
pub const MAX_INDENT_LEVELS: usize = 32;

/// Mnemonics longer than this (macro names, mostly) do not push the
/// operands of their run to the right: their operands follow one space
/// after them.
pub const MNEMONIC_ALIGN_WIDTH: usize = 8;

/// Trailing comments start at a multiple of this column, at least two
/// spaces after the longest code of their group.
pub const COMMENT_TAB: usize = 4;

/// Code longer than this does not push the comments of its group to the
/// right: its own comment follows it after two spaces.
pub const COMMENT_ALIGN_WIDTH: usize = 60;

/// The file's text in the canonical layout, or, for a file that does not
/// lex or parse, its errors (nothing is formatted then).
pub fn format(file: FileId, text: &str) -> Result<String, Vec<Diagnostic>> {
    let mut out = String::with_capacity(text.len());
    let Ok(()) = format_with(file, text, |line| {
        out.push_str(line);
        Ok::<(), std::convert::Infallible>(())
    })?;
    Ok(out)
}

/// [`format`], giving the formatted text to `emit` a line at a time rather
/// than gathering it (for standard output, and for `--check`, which only
/// compares): memory then follows the input's size, not the output's.
/// The outer error is the file's errors (nothing emitted then), the inner
/// one the first error of `emit`.
pub fn format_with<E>(
    file: FileId,
    text: &str,
    emit: impl FnMut(&str) -> Result<(), E>,
) -> Result<Result<(), E>, Vec<Diagnostic>> {
    let unary = parse(file, text)?;
    let rows = rows::rows(file, text, &unary);
    Ok(render::render(rows, emit))
}

/// Parses the whole file: the byte offsets of the minus signs that negate
/// (rather than subtract), or every error.
fn parse(file: FileId, text: &str) -> Result<HashSet<u32>, Vec<Diagnostic>> {
    let mut nodes = Nodes::new(file, text);
    let mut unary = HashSet::new();
    for node in nodes.by_ref() {
        negations(&node, &mut unary);
    }
    let errors: Vec<Diagnostic> = nodes
        .into_diagnostics()
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    if errors.is_empty() {
        Ok(unary)
    } else {
        Err(errors)
    }
}

/// Adds where each negation in `node` (and the nodes it holds) starts.
fn negations(node: &Node, found: &mut HashSet<u32>) {
    let mut nodes = vec![node];
    let mut exprs: Vec<&Expr> = Vec::new();
    while let Some(node) = nodes.pop() {
        match node {
            Node::Line(line) => statement_exprs(&line.stmt, &mut exprs),
            Node::If { condition, .. } => exprs.push(condition),
            Node::Macro { .. } => {}
            Node::Block { header, .. } => statement_exprs(&header.stmt, &mut exprs),
        }
        for body in node.bodies() {
            nodes.extend(body.iter());
        }
        while let Some(e) = exprs.pop() {
            if matches!(e.kind, ExprKind::Neg(_)) {
                found.insert(e.span.start);
            }
            exprs.extend(e.children());
        }
    }
}

/// The expressions written in a statement.
fn statement_exprs<'a>(stmt: &'a Stmt, out: &mut Vec<&'a Expr>) {
    match stmt {
        Stmt::Op { args, .. } => out.extend(args),
        Stmt::Reg {
            index, limit, init, ..
        } => out.extend(
            index
                .as_deref()
                .into_iter()
                .chain(limit.as_ref().and_then(Option::as_deref))
                .chain(init.as_deref()),
        ),
        Stmt::Resize { limit, .. } => out.push(limit),
        Stmt::Const { value, .. } => out.push(value),
        Stmt::If(condition) => out.push(condition),
        Stmt::Block { index, limit, .. } => {
            out.extend(index.as_deref().into_iter().chain(limit.as_deref()))
        }
        Stmt::Label(_)
        | Stmt::Macro { .. }
        | Stmt::Else
        | Stmt::End
        | Stmt::Use(_)
        | Stmt::Include(_)
        | Stmt::Entry(_)
        | Stmt::CallStack { .. }
        | Stmt::Tail(_) => {}
    }
}

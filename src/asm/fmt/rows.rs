//! From tokens to rows: each output line with its kind, indentation, code
//! and comment, before the columns are aligned ([`super::render`]).
//!
//! The text between two tokens (spaces, line breaks, comments) is read
//! from the source by the tokens' spans; a lexed file has nothing else
//! there.

use super::{INDENT, MAX_INDENT_LEVELS};
use crate::asm::lexer::{Lines, Token};
use crate::asm::source::{FileId, Span};
use std::collections::HashSet;

/// What a row is, for the rules that depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An empty line.
    Blank,
    /// A comment alone on its line.
    Comment,
    /// `name:`.
    Label,
    /// The first line of an instruction or macro invocation.
    Instruction,
    /// The first line of any other statement that does not nest.
    Directive,
    /// `if`, `macro` or `block`: a body follows.
    Opens,
    /// `else`.
    Else,
    /// `end`.
    End,
    /// A later line of a statement broken over lines.
    Continuation,
}

/// One line of output.
#[derive(Debug, Clone)]
pub struct Row {
    /// What it is.
    pub kind: Kind,
    /// Spaces before it.
    pub indent: usize,
    /// An instruction's mnemonic, or the whole code of any other row.
    pub head: String,
    /// An instruction's operands on its first line (empty for other rows).
    pub operands: String,
    /// A comment after the code (or the comment of a [`Kind::Comment`]).
    pub comment: Option<String>,
}

impl Row {
    fn new(kind: Kind, indent: usize) -> Row {
        Row {
            kind,
            indent,
            head: String::new(),
            operands: String::new(),
            comment: None,
        }
    }
}

/// The rows of a file that parses, given where its negations are.
pub fn rows(file: FileId, text: &str, unary: &HashSet<u32>) -> Vec<Row> {
    let mut builder = Builder {
        text,
        unary,
        rows: Vec::new(),
        depth: 0,
        code: false,
        end: 0,
        started: false,
    };
    for line in Lines::new(file, text) {
        builder.logical_line(&line);
    }
    builder.gap(text.len(), 0, true);
    builder.rows
}

/// Rows made so far, and where the source has been read up to.
struct Builder<'t> {
    text: &'t str,
    unary: &'t HashSet<u32>,
    rows: Vec<Row>,
    /// Bodies open (`if`, `macro`, `block`).
    depth: usize,
    /// Whether the top level is in code: after a label, up to the next
    /// declaration or `macro` written at the top level.
    code: bool,
    /// The end of the last token read.
    end: usize,
    /// Whether a token has been read (the text before the first token is
    /// whole lines).
    started: bool,
}

/// The indentation of a statement in bodies this deep.
fn statement_indent(depth: usize) -> usize {
    INDENT * depth.min(MAX_INDENT_LEVELS)
}

fn opens(token: Token<'_>) -> bool {
    matches!(token, Token::LParen | Token::CallOpen | Token::LBracket)
}

fn closes(token: Token<'_>) -> bool {
    matches!(token, Token::RParen | Token::RBracket)
}

impl Builder<'_> {
    /// The source text of a token.
    fn token_text(&self, span: Span) -> &str {
        &self.text[span.range()]
    }

    /// Reads the text from the last token to `to`: a comment on the last
    /// token's line goes to the last row; comments alone on their lines
    /// become rows indented `indent`, blank lines blank rows (when
    /// `blanks`).
    fn gap(&mut self, to: usize, indent: usize, blanks: bool) {
        let gap = &self.text[self.end..to];
        let at_end = to == self.text.len();
        let segments: Vec<&str> = gap.split('\n').collect();
        let last = segments.len() - 1;
        for (i, segment) in segments.iter().enumerate() {
            let trimmed = segment.trim();
            if i == 0 && self.started {
                if trimmed.starts_with(';')
                    && let Some(row) = self.rows.last_mut()
                {
                    row.comment = Some(trimmed.to_string());
                }
                continue;
            }
            if i == last && (!at_end || trimmed.is_empty()) {
                // The start of the next token's line (or the end of the file).
                continue;
            }
            if trimmed.starts_with(';') {
                let mut row = Row::new(Kind::Comment, indent);
                row.comment = Some(trimmed.to_string());
                self.rows.push(row);
            } else if blanks {
                self.rows.push(Row::new(Kind::Blank, 0));
            }
        }
        self.end = to;
    }

    /// The rows of one logical line: a label, a statement, or both.
    fn logical_line(&mut self, line: &[(Token<'_>, Span)]) {
        let Some(&(first, first_span)) = line.first() else {
            return;
        };
        let label =
            matches!(first, Token::Ident(_)) && matches!(line.get(1), Some((Token::Colon, _)));
        let statement = if label { &line[2..] } else { line };
        let head = statement.first().map(|t| t.0);
        let top = self.depth == 0;
        if top && label {
            self.code = true;
        }
        let kind = match head {
            Some(Token::Ident("if" | "macro" | "block")) => Kind::Opens,
            Some(Token::Ident("else")) => Kind::Else,
            Some(Token::Ident("end")) => Kind::End,
            // A macro invocation at the top level outside code stands for
            // the declarations it writes, and stands as they do.
            Some(Token::Ident(word)) if !crate::asm::ast::KEYWORDS.contains(&word) => {
                if top && !self.code {
                    Kind::Directive
                } else {
                    Kind::Instruction
                }
            }
            _ => Kind::Directive,
        };
        if top
            && head.is_some()
            && (kind == Kind::Directive
                || kind == Kind::Opens && head == Some(Token::Ident("macro")))
        {
            self.code = false;
        }
        let depth = match kind {
            Kind::Else | Kind::End => self.depth.saturating_sub(1),
            _ => self.depth,
        };
        // Instructions (in code) never stand in column 0.
        let indent = match kind {
            Kind::Instruction => statement_indent(depth.max(1)),
            _ => statement_indent(depth),
        };
        // Comments alone before a line go with it; before `else` or `end`,
        // with the body they end.
        let comments = match kind {
            _ if label => 0,
            Kind::Else | Kind::End => statement_indent(self.depth),
            _ => indent,
        };
        self.gap(first_span.start as usize, comments, true);
        self.started = true;
        if label {
            let mut row = Row::new(Kind::Label, 0);
            row.head = format!("{}:", self.token_text(first_span));
            self.rows.push(row);
            self.end = line[1].1.end as usize;
        }
        if statement.is_empty() {
            return;
        }
        self.depth = match kind {
            Kind::Opens => self.depth + 1,
            Kind::End => depth,
            _ => self.depth,
        };
        self.statement(statement, kind, indent);
    }

    /// The rows of a statement (no label) of this kind, indented `base`.
    fn statement(&mut self, tokens: &[(Token<'_>, Span)], kind: Kind, base: usize) {
        let module = matches!(tokens[0].0, Token::Ident("use" | "include"));
        let mut row = Row::new(kind, base);
        let mut code = String::new();
        let mut brackets = 0usize;
        let mut previous: Option<(Token<'_>, Span)> = None;
        for &(token, span) in tokens {
            if let Some((before, before_span)) = previous {
                let between = &self.text[before_span.end as usize..span.start as usize];
                if between.contains('\n') {
                    finish(&mut row, &mut code);
                    self.rows.push(row);
                    let levels = if closes(token) {
                        brackets.saturating_sub(1)
                    } else {
                        brackets.max(1)
                    };
                    let indent = base + INDENT * levels;
                    self.gap(span.start as usize, indent, false);
                    row = Row::new(Kind::Continuation, indent);
                } else if spaced(
                    before,
                    self.unary.contains(&before_span.start),
                    token,
                    module,
                ) {
                    code.push(' ');
                }
            } else {
                self.gap(span.start as usize, base, true);
            }
            code.push_str(self.token_text(span));
            if row.kind == Kind::Instruction && previous.is_none() {
                row.head = std::mem::take(&mut code);
            }
            if opens(token) {
                brackets += 1;
            } else if closes(token) {
                brackets = brackets.saturating_sub(1);
            }
            previous = Some((token, span));
            self.end = span.end as usize;
        }
        finish(&mut row, &mut code);
        self.rows.push(row);
    }
}

/// Puts the code gathered into the row: an instruction's operands, or the
/// whole code of any other row.
fn finish(row: &mut Row, code: &mut String) {
    let code = std::mem::take(code);
    if row.kind == Kind::Instruction {
        row.operands = code.trim_start().to_string();
    } else {
        row.head = code;
    }
}

/// Whether one space goes between two tokens of a line: none inside
/// brackets next to them, before `,`, after a prefix (`#`, `@`, a minus
/// that negates) or around `/` in a module path, and none between a name
/// and the `(` of its call (a space there would make it an argument in
/// parentheses); one everywhere else.
fn spaced(before: Token<'_>, negates: bool, next: Token<'_>, module: bool) -> bool {
    let tight_before = matches!(
        next,
        Token::Comma | Token::RParen | Token::RBracket | Token::CallOpen
    );
    let tight_after = matches!(
        before,
        Token::LParen | Token::CallOpen | Token::LBracket | Token::Hash | Token::At
    ) || (before == Token::Minus && negates);
    let path = module && (before == Token::Slash || next == Token::Slash);
    !(tight_before || tight_after || path)
}

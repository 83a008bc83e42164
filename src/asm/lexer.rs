//! The lexer (logos): source text to tokens.
//!
//! The language is line-oriented: a newline ends a statement, except after
//! a line that ends with `=` or a binary operator, and, inside brackets,
//! after a line that ends with an opening bracket, `,` or `|` or before a
//! line that starts with a closing bracket, `,` or `|`. Comments run from
//! `;` to the end of the line.

use super::source::{FileId, Span};
use crate::diagnostic::{Code, Diagnostic};
use logos::Logos;
use std::fmt;

/// A token.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\f]+")]
#[logos(skip(r";[^\n]*", allow_greedy = true))]
pub enum Token<'src> {
    /// End of a line.
    #[token("\n")]
    Newline,
    /// A name: registers, labels, macros, constants, keywords.
    #[regex(r"[A-Za-z_.][A-Za-z0-9_.]*")]
    Ident(&'src str),
    /// A decimal, `0x` hexadecimal or `0b` binary number (`_` separators).
    #[regex(r"[0-9][0-9_]*", |lex| parse_number(lex.slice(), 10))]
    #[regex(r"0[xX][0-9a-fA-F_]+", |lex| parse_number(&lex.slice()[2..], 16))]
    #[regex(r"0[bB][01_]+", |lex| parse_number(&lex.slice()[2..], 2))]
    Int(Number),
    /// A string in double quotes (`\"` and `\\` escapes).
    #[regex(r#""([^"\\\n]|\\.)*""#, |lex| { let s = lex.slice(); &s[1..s.len() - 1] })]
    Str(&'src str),
    /// `,`
    #[token(",")]
    Comma,
    /// `:`
    #[token(":")]
    Colon,
    /// `(`
    #[token("(")]
    LParen,
    /// `(` written directly after a name: the start of a call `name(...)`
    /// (made by [`lex`], not by the token rules).
    CallOpen,
    /// `)`
    #[token(")")]
    RParen,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `|`
    #[token("|")]
    Bar,
    /// `=`
    #[token("=")]
    Eq,
    /// `==`
    #[token("==")]
    EqEq,
    /// `!=`
    #[token("!=")]
    NotEq,
    /// `<`
    #[token("<")]
    Lt,
    /// `<=`
    #[token("<=")]
    Le,
    /// `>`
    #[token(">")]
    Gt,
    /// `>=`
    #[token(">=")]
    Ge,
    /// `+`
    #[token("+")]
    Plus,
    /// `-`
    #[token("-")]
    Minus,
    /// `*`
    #[token("*")]
    Star,
    /// `/`
    #[token("/")]
    Slash,
    /// `%`
    #[token("%")]
    Percent,
    /// `<<`
    #[token("<<")]
    Shl,
    /// `>>`
    #[token(">>")]
    Shr,
    /// `#`: the constant register holding a value.
    #[token("#")]
    Hash,
    /// `@`: an explicit register index.
    #[token("@")]
    At,
}

/// A number as written: its magnitude, or `None` if it does not fit 64 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Number(pub Option<u64>);

fn parse_number(digits: &str, radix: u32) -> Number {
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    Number(u64::from_str_radix(&clean, radix).ok())
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Newline => f.write_str("end of line"),
            Token::Ident(s) => write!(f, "`{s}`"),
            Token::Int(Number(Some(n))) => write!(f, "`{n}`"),
            Token::Int(Number(None)) => f.write_str("a number"),
            Token::Str(s) => write!(f, "\"{s}\""),
            Token::Comma => f.write_str("`,`"),
            Token::Colon => f.write_str("`:`"),
            Token::LParen | Token::CallOpen => f.write_str("`(`"),
            Token::RParen => f.write_str("`)`"),
            Token::LBracket => f.write_str("`[`"),
            Token::RBracket => f.write_str("`]`"),
            Token::Bar => f.write_str("`|`"),
            Token::Eq => f.write_str("`=`"),
            Token::EqEq => f.write_str("`==`"),
            Token::NotEq => f.write_str("`!=`"),
            Token::Lt => f.write_str("`<`"),
            Token::Le => f.write_str("`<=`"),
            Token::Gt => f.write_str("`>`"),
            Token::Ge => f.write_str("`>=`"),
            Token::Plus => f.write_str("`+`"),
            Token::Minus => f.write_str("`-`"),
            Token::Star => f.write_str("`*`"),
            Token::Slash => f.write_str("`/`"),
            Token::Percent => f.write_str("`%`"),
            Token::Shl => f.write_str("`<<`"),
            Token::Shr => f.write_str("`>>`"),
            Token::Hash => f.write_str("`#`"),
            Token::At => f.write_str("`@`"),
        }
    }
}

/// Brackets may nest at most this deep; deeper nesting is an error (so no
/// later phase can run out of stack on it).
pub const MAX_NESTING: usize = 200;

/// An expression may be at most this deep, counted as [`expression_depth`]
/// counts it; deeper is an error (so that neither the parser nor any phase
/// after it can run out of stack on a long chain of operators).
pub const MAX_EXPRESSION_DEPTH: usize = 500;

/// A logical line: the tokens of one statement, without the newline.
pub type Line<'src> = Vec<(Token<'src>, Span)>;

/// Whether a statement goes on past a line that ends with this token,
/// inside brackets or not: `=` or a binary operator (`-` at the end of a
/// line is a minus between two operands).
fn continues_after(token: Token<'_>) -> bool {
    matches!(
        token,
        Token::Eq
            | Token::EqEq
            | Token::NotEq
            | Token::Lt
            | Token::Le
            | Token::Gt
            | Token::Ge
            | Token::Plus
            | Token::Minus
            | Token::Star
            | Token::Slash
            | Token::Percent
            | Token::Shl
            | Token::Shr
            | Token::Ident("and" | "or")
    )
}

/// Whether a statement inside brackets goes on past a line that ends with
/// this token: an opening bracket, `,` or `|`.
fn continues_inside_after(token: Token<'_>) -> bool {
    matches!(
        token,
        Token::LBracket | Token::LParen | Token::CallOpen | Token::Comma | Token::Bar
    )
}

/// Whether a statement inside brackets goes on with the next line that has
/// a token: it does when that token is a closing bracket, `,` or `|`.
fn continues_before<'src>(lexer: &logos::Lexer<'src, Token<'src>>) -> bool {
    let mut ahead = lexer.clone();
    loop {
        match ahead.next() {
            Some(Ok(Token::Newline)) => continue,
            Some(Ok(Token::RBracket | Token::RParen | Token::Comma | Token::Bar)) => return true,
            _ => return false,
        }
    }
}

/// A bound on the depth of the syntax tree a line parses to: for each
/// bracket, the tokens of each of its items (between commas) are counted,
/// and a path into the line adds up the counts of the items it passes
/// through. Every node on the way down (an operator, a prefix, an
/// application, a bracket) has its own token in one of those items, so no
/// tree built from the line is deeper. Gives the first place where the
/// count passes `cap` (the token it is counted at), if any.
pub fn expression_depth(line: &[(Token<'_>, Span)], cap: usize) -> Option<Span> {
    /// One open bracket (or the line itself).
    #[derive(Default)]
    struct Group {
        /// The depth counted by the enclosing items.
        outer: usize,
        /// Tokens of the current item.
        tokens: usize,
        /// The deepest count found inside the current item's brackets,
        /// beyond its own tokens.
        inner: usize,
        /// The deepest of the items before the current one.
        best: usize,
    }
    // Every count is of distinct tokens of the line: a line of at most
    // `cap` tokens is never over.
    if line.len() <= cap {
        return None;
    }
    let mut groups = vec![Group::default()];
    for &(token, span) in line {
        let over = |g: &Group| g.outer + g.tokens + g.inner > cap;
        match token {
            Token::Comma | Token::Bar => {
                if let Some(g) = groups.last_mut() {
                    g.best = g.best.max(g.tokens + g.inner);
                    g.tokens = 0;
                    g.inner = 0;
                }
                continue;
            }
            Token::RParen | Token::RBracket if groups.len() > 1 => {
                let closed = groups.pop().unwrap_or_default();
                let depth = closed.best.max(closed.tokens + closed.inner);
                if let Some(g) = groups.last_mut() {
                    g.inner = g.inner.max(depth);
                    if over(g) {
                        return Some(span);
                    }
                }
                continue;
            }
            _ => {}
        }
        let Some(g) = groups.last_mut() else {
            continue;
        };
        g.tokens += 1;
        if over(g) {
            return Some(span);
        }
        if matches!(token, Token::LParen | Token::CallOpen | Token::LBracket) {
            let outer = g.outer + g.tokens;
            groups.push(Group {
                outer,
                ..Group::default()
            });
        }
    }
    None
}

/// Whether a finished logical line is kept: not when an error dropped it,
/// nor when it is too deep an expression (reported).
fn keep_line(line: &[(Token<'_>, Span)], dropped: bool, errors: &mut Vec<Diagnostic>) -> bool {
    if dropped || line.is_empty() {
        return false;
    }
    if let Some(span) = expression_depth(line, MAX_EXPRESSION_DEPTH) {
        errors.push(
            Diagnostic::error(
                Code::E0004,
                span,
                format!(
                    "expression too deep: more than {MAX_EXPRESSION_DEPTH} nested operators, values and brackets"
                ),
            )
            .label("too deep here"),
        );
        return false;
    }
    true
}

/// Splits a file into logical lines of tokens, one at a time (a file may
/// have millions: only the lines being parsed are held). Unknown
/// characters, numbers too large for 64 bits, nesting deeper than
/// [`MAX_NESTING`] and expressions deeper than [`MAX_EXPRESSION_DEPTH`] are
/// reported; a line with a number, nesting or depth error is dropped.
pub struct Lines<'src> {
    file: FileId,
    lexer: logos::Lexer<'src, Token<'src>>,
    /// Errors found so far.
    pub errors: Vec<Diagnostic>,
    done: bool,
}

impl<'src> Lines<'src> {
    /// The logical lines of `text`, the file `file`.
    pub fn new(file: FileId, text: &'src str) -> Lines<'src> {
        Lines {
            file,
            lexer: Token::lexer(text),
            errors: Vec::new(),
            done: false,
        }
    }
}

impl<'src> Lines<'src> {
    /// Appends the tokens of the next logical line to `tokens` (what is
    /// there already stays): false, adding nothing, at the end of the
    /// file. A parser reads many lines into one buffer this way, instead of
    /// a vector a line.
    pub fn next_into(&mut self, tokens: &mut Vec<(Token<'src>, Span)>) -> bool {
        // The current line is `tokens[start..]`.
        let start = tokens.len();
        let mut depth = 0usize;
        let mut too_deep = false; // the current line is dropped
        let errors = &mut self.errors;
        let lexer = &mut self.lexer;
        while !self.done {
            let Some(token) = lexer.next() else {
                self.done = true;
                break;
            };
            let span = Span::new(self.file, lexer.span());
            let token = match token {
                Ok(t) => t,
                Err(()) => {
                    let bad = lexer.slice();
                    let message = if bad.starts_with('"') {
                        "unterminated string".to_string()
                    } else {
                        format!(
                            "unexpected character {:?}",
                            bad.chars().next().unwrap_or(' ')
                        )
                    };
                    errors.push(
                        Diagnostic::error(Code::E0001, span, message)
                            .label("not part of the language"),
                    );
                    continue;
                }
            };
            let last = tokens[start..].last().copied();
            // `name(` with nothing between: a call.
            let token = match token {
                Token::LParen
                    if last.is_some_and(|(t, s)| {
                        matches!(t, Token::Ident(_)) && s.end == span.start
                    }) =>
                {
                    Token::CallOpen
                }
                other => other,
            };
            match token {
                Token::Newline if last.is_some_and(|t| continues_after(t.0)) => continue,
                Token::Newline
                    if depth > 0
                        && (last.is_some_and(|t| continues_inside_after(t.0))
                            || continues_before(lexer)) =>
                {
                    continue;
                }
                Token::Newline => {
                    // An unclosed bracket ends with its line: the parser reports it.
                    if keep_line(&tokens[start..], too_deep, errors) {
                        return true;
                    }
                    tokens.truncate(start);
                    depth = 0;
                    too_deep = false;
                    continue;
                }
                Token::Int(Number(None)) => {
                    // The line is dropped, as for too deep nesting: the number
                    // has no value to go on with.
                    too_deep = true;
                    errors.push(
                        Diagnostic::error(Code::E0002, span, "number too large")
                            .label("does not fit in 64 bits")
                            .note("numbers are the report's `Int`: 64-bit, from -2^63 to 2^63 - 1"),
                    );
                }
                Token::LParen | Token::CallOpen | Token::LBracket => {
                    depth += 1;
                    if depth > MAX_NESTING && !too_deep {
                        too_deep = true;
                        errors.push(
                            Diagnostic::error(
                                Code::E0003,
                                span,
                                format!("brackets nested deeper than {MAX_NESTING} levels"),
                            )
                            .label("too deep here"),
                        );
                    }
                }
                Token::RParen | Token::RBracket => depth = depth.saturating_sub(1),
                _ => {}
            }
            tokens.push((token, span));
        }
        if keep_line(&tokens[start..], too_deep, errors) {
            return true;
        }
        tokens.truncate(start);
        false
    }
}

impl<'src> Iterator for Lines<'src> {
    type Item = Line<'src>;

    fn next(&mut self) -> Option<Line<'src>> {
        // Room for a usual line's tokens at once (an instruction and three
        // operands), not grown from four.
        let mut line: Line<'_> = Vec::with_capacity(8);
        self.next_into(&mut line).then_some(line)
    }
}

/// Every logical line of a file at once, and the errors (see [`Lines`]).
pub fn lex(file: FileId, text: &str) -> (Vec<Line<'_>>, Vec<Diagnostic>) {
    let mut lines = Lines::new(file, text);
    let all = lines.by_ref().collect();
    (all, lines.errors)
}

//! The parser (chumsky): tokens to statements, one logical line each, and
//! statements to [`Node`]s (`if`, `macro` and `block` hold what they nest,
//! up to their `end`).
//!
//! A file is parsed in one run with a cheap error type; a line that does not
//! parse is skipped up to its end and parsing goes on, so one run finds
//! every bad line. Each bad line is then parsed again on its own with rich
//! errors, to say what was expected there.

use super::ast::{
    BinOp, Body, Expr, ExprKind, Ident, KEYWORDS, Line, ModuleRef, Name, Node, Stmt, Text,
};
use super::lexer::{self, Number, Token};
use super::source::{FileId, Span};
use crate::diagnostic::{Code, Diagnostic};
use chumsky::error::{Cheap, LabelError, Rich, RichPattern, RichReason};
use chumsky::extra::ParserExtra;
use chumsky::input::ValueInput;
use chumsky::prelude::*;
use rustc_hash::FxHashSet;
use std::cell::RefCell;

/// How many logical lines are parsed in one run of the parser: a file of
/// millions of lines is never held as tokens all at once.
const CHUNK_LINES: usize = 4096;

/// The top-level nodes of a file, one at a time (a file may have millions
/// of lines: only the lines being parsed and the nodes still open are
/// held). Nesting is followed with an explicit stack of the nodes open, so
/// input never deepens the Rust stack; what is still open at the end of the
/// file is reported and closed there.
pub struct Nodes<'t> {
    file: FileId,
    eoi: SimpleSpan,
    lines: lexer::Lines<'t>,
    /// The tokens of the chunk being parsed, its lines one after another
    /// (one buffer, kept from chunk to chunk).
    tokens: Vec<(Token<'t>, Span)>,
    /// Where each line of the chunk ends in `tokens`.
    ends: Vec<usize>,
    /// Lines parsed and not given out yet (a chunk's, taken in order).
    parsed: std::vec::IntoIter<Line>,
    /// The distinct names parsed so far (see [`Interning`]).
    names: FxHashSet<Text>,
    /// The nodes open (`if`, `macro`, `block` without their `end` yet),
    /// outermost first.
    open: Vec<Open>,
    diagnostics: Vec<Diagnostic>,
}

/// How many errors the parser and the lexer of a file had found at some
/// point ([`Nodes::mark`]).
#[derive(Debug, Clone, Copy)]
pub struct ErrorMark {
    parser: usize,
    lexer: usize,
}

/// A node whose `end` has not come yet, and what it holds so far.
struct Open {
    kind: OpenKind,
    /// The nodes of its current part.
    nodes: Vec<Node>,
}

/// What kind of node is open.
enum OpenKind {
    /// `if`: its condition, the span of its line, and the parts before
    /// each `else` so far.
    If {
        condition: Box<Expr>,
        span: Span,
        parts: Vec<Vec<Node>>,
    },
    /// `macro`: its name, parameters and the span of its line.
    Macro {
        name: Ident,
        params: Vec<Ident>,
        span: Span,
    },
    /// `block`: its line.
    Block { header: Line },
}

impl Open {
    /// The node, ended here.
    fn close(self) -> Node {
        match self.kind {
            OpenKind::If {
                condition,
                span,
                mut parts,
            } => {
                parts.push(self.nodes);
                // Parts after a second `else` are never assembled.
                let mut parts = parts.into_iter();
                Node::If {
                    condition,
                    span,
                    then: Body::new(parts.next().unwrap_or_default()),
                    otherwise: Body::new(parts.next().unwrap_or_default()),
                }
            }
            OpenKind::Macro { name, params, span } => Node::Macro {
                name,
                params,
                span,
                body: Body::new(self.nodes),
            },
            OpenKind::Block { header } => Node::Block {
                header,
                body: Body::new(self.nodes),
            },
        }
    }

    /// The error for a node never ended.
    fn unclosed(&self) -> Diagnostic {
        match &self.kind {
            OpenKind::If { span, .. } => {
                Diagnostic::error(Code::E0205, *span, "`if` without `end`")
                    .label("this `if` is never closed")
            }
            OpenKind::Macro { span, .. } => {
                Diagnostic::error(Code::E0208, *span, "`macro` without `end`")
                    .label("this macro is never closed")
            }
            OpenKind::Block { header } => {
                Diagnostic::error(Code::E0206, header.span, "`block` without `end`")
                    .label("this block is never closed")
            }
        }
    }
}

impl<'t> Nodes<'t> {
    /// The nodes of `text`, the file `file`.
    pub fn new(file: FileId, text: &'t str) -> Nodes<'t> {
        Nodes {
            file,
            eoi: (text.len()..text.len()).into(),
            lines: lexer::Lines::new(file, text),
            tokens: Vec::new(),
            ends: Vec::new(),
            parsed: Vec::new().into_iter(),
            names: FxHashSet::default(),
            open: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Every error found (call once the nodes are all taken).
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.into_diagnostics_up_to(None)
    }

    /// How many errors have been found so far: taken after a node was
    /// given out, it says which errors the parser had found by then.
    pub fn mark(&self) -> ErrorMark {
        ErrorMark {
            parser: self.diagnostics.len(),
            lexer: self.lines.errors.len(),
        }
    }

    /// The errors found up to `mark` (all of them for `None`): what
    /// [`Nodes::into_diagnostics`] gives when the nodes are taken only up to
    /// the one after which `mark` was taken.
    pub fn into_diagnostics_up_to(self, mark: Option<ErrorMark>) -> Vec<Diagnostic> {
        let (mut diagnostics, mut lexer) = (self.diagnostics, self.lines.errors);
        if let Some(mark) = mark {
            diagnostics.truncate(mark.parser);
            lexer.truncate(mark.lexer);
        }
        diagnostics.extend(lexer);
        diagnostics
    }

    /// The next statement, parsing the next lines when none is left.
    fn next_line(&mut self) -> Option<Line> {
        loop {
            if let Some(line) = self.parsed.next() {
                return Some(line);
            }
            self.tokens.clear();
            self.ends.clear();
            while self.ends.len() < CHUNK_LINES && self.lines.next_into(&mut self.tokens) {
                self.ends.push(self.tokens.len());
            }
            if self.ends.is_empty() {
                return None;
            }
            self.parsed = parse_chunk(
                self.file,
                Chunk {
                    tokens: &self.tokens,
                    ends: &self.ends,
                },
                self.eoi,
                &mut self.names,
                &mut self.diagnostics,
            )
            .into_iter();
        }
    }

    /// A node into the one open, or out as a top-level node.
    fn attach(&mut self, node: Node) -> Option<Node> {
        match self.open.last_mut() {
            Some(open) => {
                open.nodes.push(node);
                None
            }
            None => Some(node),
        }
    }

    /// Takes one statement in; gives the top-level node it ends, if any.
    fn feed(&mut self, line: Line) -> Option<Node> {
        let Line { stmt, span } = line;
        let kind = match stmt {
            Stmt::If(condition) => OpenKind::If {
                condition,
                span,
                parts: Vec::new(),
            },
            Stmt::Macro { name, params } => OpenKind::Macro { name, params, span },
            Stmt::Block { .. } => OpenKind::Block {
                header: Line { stmt, span },
            },
            Stmt::Else => {
                match self.open.last_mut() {
                    Some(Open {
                        kind:
                            OpenKind::If {
                                parts, span: at, ..
                            },
                        nodes,
                    }) => {
                        if !parts.is_empty() {
                            let d = Diagnostic::error(
                                Code::E0201,
                                span,
                                "a second `else` for one `if`",
                            )
                            .with_label(*at, "this `if`");
                            self.diagnostics.push(d);
                        }
                        parts.push(std::mem::take(nodes));
                    }
                    _ => self.diagnostics.push(
                        Diagnostic::error(Code::E0202, span, "`else` without `if`")
                            .label("no `if` is open here"),
                    ),
                }
                return None;
            }
            Stmt::End => {
                let Some(open) = self.open.pop() else {
                    self.diagnostics.push(
                        Diagnostic::error(
                            Code::E0203,
                            span,
                            "`end` without an open `if`, `macro` or `block`",
                        )
                        .label("nothing to end here"),
                    );
                    return None;
                };
                return self.attach(open.close());
            }
            stmt => return self.attach(Node::Line(Line { stmt, span })),
        };
        self.open.push(Open {
            kind,
            nodes: Vec::new(),
        });
        None
    }
}

impl Iterator for Nodes<'_> {
    type Item = Node;

    fn next(&mut self) -> Option<Node> {
        while let Some(line) = self.next_line() {
            if let Some(node) = self.feed(line) {
                return Some(node);
            }
        }
        // The end of the file ends what is still open, innermost first.
        while let Some(open) = self.open.pop() {
            self.diagnostics.push(open.unclosed());
            if let Some(node) = self.attach(open.close()) {
                return Some(node);
            }
        }
        None
    }
}

/// Logical lines, their tokens one after another.
#[derive(Clone, Copy)]
struct Chunk<'c, 's> {
    /// The tokens of every line.
    tokens: &'c [(Token<'s>, Span)],
    /// Where each line ends in `tokens` (increasing).
    ends: &'c [usize],
}

impl<'c, 's> Chunk<'c, 's> {
    /// How many lines.
    fn len(self) -> usize {
        self.ends.len()
    }

    /// The lines' tokens, in order.
    fn lines(self) -> impl Iterator<Item = &'c [(Token<'s>, Span)]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends)
            .map(move |(start, &end)| &self.tokens[start..end])
    }
}

/// Parses some logical lines: those of the common shapes by hand
/// ([`plain_line`]), the others in one run of chumsky.
fn parse_chunk(
    file: FileId,
    chunk: Chunk<'_, '_>,
    eoi: SimpleSpan,
    names: &mut FxHashSet<Text>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Line> {
    // For each line, how many statements it gave by hand, or `None` when
    // chumsky parses it.
    let mut by_hand = Vec::with_capacity(chunk.len());
    // A statement a line, and room for some labels in front of them.
    let mut plain = Vec::with_capacity(chunk.len() + chunk.len() / 4);
    let mut others: Vec<&[(Token<'_>, Span)]> = Vec::new();
    for line in chunk.lines() {
        let before = plain.len();
        if plain_line(file, line, names, &mut plain) {
            by_hand.push(Some(plain.len() - before));
        } else {
            by_hand.push(None);
            others.push(line);
        }
    }
    if others.is_empty() {
        return plain;
    }
    let _interning = Interning::start(names);
    let mut errors = Vec::new();
    let parsed = parse_lines(file, &others, eoi, &mut errors);
    if parsed.len() != others.len() {
        // Not one result per line (never seen): chumsky parses it all.
        let all: Vec<&[(Token<'_>, Span)]> = chunk.lines().collect();
        return parse_lines(file, &all, eoi, diagnostics)
            .into_iter()
            .flatten()
            .collect();
    }
    diagnostics.append(&mut errors);
    let mut out = Vec::with_capacity(plain.len() + parsed.len());
    let mut plain = plain.into_iter();
    let mut parsed = parsed.into_iter();
    for given in by_hand {
        match given {
            Some(n) => out.extend(plain.by_ref().take(n)),
            None => out.extend(parsed.next().into_iter().flatten()),
        }
    }
    out
}

/// Parses logical lines in one run of chumsky with a cheap error type,
/// one list of statements per line (empty for a bad line); then explains
/// each bad line with rich errors.
fn parse_lines(
    file: FileId,
    lines: &[&[(Token<'_>, Span)]],
    eoi: SimpleSpan,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Vec<Line>> {
    // One token stream for the lines, each ended by a newline.
    let mut tokens: Vec<(Token<'_>, SimpleSpan)> =
        Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    let mut starts = Vec::with_capacity(lines.len());
    for line in lines {
        starts.push(tokens.len());
        tokens.extend(line.iter().map(|&(t, s)| (t, SimpleSpan::from(s.range()))));
        let end = line.last().map_or(0, |t| t.1.end as usize);
        tokens.push((Token::Newline, (end..end).into()));
    }
    let chunk_end = tokens.last().map_or(eoi, |t| t.1);
    let (parsed, errors) = file_parser::<_, extra::Err<Cheap<SimpleSpan>>>(file)
        .parse(tokens.as_slice().map(chunk_end, |(t, s)| (t, s)))
        .into_output_errors();
    // Explain each bad line with rich errors.
    let mut explained: Vec<usize> = Vec::new();
    for error in errors {
        let at = error.span().start;
        let line = starts
            .partition_point(|&s| tokens[s].1.start <= at)
            .saturating_sub(1);
        if explained.last() == Some(&line) {
            continue;
        }
        explained.push(line);
        let start = starts[line];
        let stop = starts.get(line + 1).copied().unwrap_or(tokens.len());
        let slice = &tokens[start..stop];
        let line_end: SimpleSpan = slice.last().map_or(eoi, |t| t.1);
        let rich = line_parser::<_, extra::Err<Rich<Token<'_>>>>(file)
            .then_ignore(just(Token::Newline))
            .then_ignore(end())
            .parse(slice.map(line_end, |(t, s)| (t, s)))
            .into_errors();
        match rich.into_iter().next() {
            Some(e) => diagnostics.push(syntax_error(file, e)),
            None => diagnostics.push(
                Diagnostic::error(
                    Code::E0100,
                    Span::new(file, error.span().into_range()),
                    "this line does not parse",
                )
                .label("here"),
            ),
        }
    }
    parsed.unwrap_or_default()
}

/// A name as [`ident`] takes it (not a keyword), with where it is.
fn plain_name<'s>(token: Option<&(Token<'s>, Span)>) -> Option<(&'s str, Span)> {
    match token {
        Some(&(Token::Ident(s), span)) if !KEYWORDS.contains(&s) => Some((s, span)),
        _ => None,
    }
}

/// An operand that is a lone name or number, as [`name_expr`] and
/// [`number`] take it.
fn plain_operand(token: Token<'_>, span: Span, names: &mut FxHashSet<Text>) -> Option<Expr> {
    let kind = match token {
        Token::Ident(s) if !KEYWORDS.contains(&s) => ExprKind::Name(Name {
            text: intern(names, s),
            scope: super::ast::ScopeId::ROOT,
        }),
        Token::Int(Number(Some(n))) => ExprKind::Number(n),
        _ => return None,
    };
    Some(Expr { kind, span })
}

/// Parses a line of the common shapes by hand into `out`: an optional
/// label (`name:`), then optionally an instruction or macro whose operands
/// are each a lone name or number (`halt`, `mov a, 42`). Gives false, and
/// adds nothing, for any other line. Chumsky gives the same statements for
/// these lines (see the tests).
fn plain_line(
    file: FileId,
    line: &[(Token<'_>, Span)],
    names: &mut FxHashSet<Text>,
    out: &mut Vec<Line>,
) -> bool {
    let label = match (plain_name(line.first()), line.get(1)) {
        (Some(name), Some(&(Token::Colon, colon))) => Some((name, colon)),
        _ => None,
    };
    let rest = if label.is_some() { &line[2..] } else { line };
    let op = plain_name(rest.first());
    let operands = rest.get(1..).unwrap_or_default();
    // Operands at even places, commas between them, none after the last.
    let commas = operands.iter().skip(1).step_by(2);
    let shaped = rest.is_empty()
        || (op.is_some()
            && operands.len() % 2 == usize::from(!operands.is_empty())
            && commas.into_iter().all(|t| t.0 == Token::Comma));
    if !shaped {
        return false;
    }
    let mut args = Vec::with_capacity(operands.len().div_ceil(2));
    for &(token, span) in operands.iter().step_by(2) {
        match plain_operand(token, span, names) {
            Some(arg) => args.push(arg),
            None => return false,
        }
    }
    let mut ident = |(text, span): (&str, Span)| {
        let name = Name {
            text: intern(names, text),
            scope: super::ast::ScopeId::ROOT,
        };
        Ident::new(name, span)
    };
    if let Some((name, colon)) = label {
        out.push(Line {
            span: Span::new(file, name.1.join(colon).range()),
            stmt: Stmt::Label(ident(name)),
        });
    }
    if let Some(name) = op {
        let end = rest.last().map_or(name.1, |t| t.1);
        out.push(Line {
            span: Span::new(file, name.1.join(end).range()),
            stmt: Stmt::Op {
                name: ident(name),
                args,
            },
        });
    }
    true
}

/// Every line of a file; a bad line is skipped to its end.
fn file_parser<'tok, 'src: 'tok, I, E>(file: FileId) -> impl Parser<'tok, I, Vec<Vec<Line>>, E>
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
    E: ParserExtra<'tok, I> + 'tok,
    E::Error: LabelError<'tok, I, &'static str>,
    E::State: 'tok,
    E::Context: 'tok,
{
    let newline = just(Token::Newline);
    let rest_of_line = any().and_is(newline.not()).repeated().then_ignore(newline);
    line_parser(file)
        .then_ignore(newline)
        .recover_with(via_parser(rest_of_line.to(Vec::new())))
        .repeated()
        .collect()
        .then_ignore(end())
}

fn syntax_error(file: FileId, error: Rich<'_, Token<'_>>) -> Diagnostic {
    let span = Span::new(file, error.span().into_range());
    let found = match error.found() {
        Some(Token::Newline) | None => "end of line".to_string(),
        Some(t) => t.to_string(),
    };
    match error.reason() {
        RichReason::Custom(message) => {
            Diagnostic::error(Code::E0101, span, message.clone()).label("here")
        }
        RichReason::ExpectedFound { expected, .. } => {
            let mut names: Vec<String> = expected
                .iter()
                .map(describe_pattern)
                .filter(|n| !matches!(n.as_str(), "and" | "or" | "not" | "something else"))
                .collect();
            names.sort();
            names.dedup();
            let expected = match names.len() {
                0 => "something else".to_string(),
                1 => names.remove(0),
                _ => {
                    let last = names.pop().unwrap_or_default();
                    format!("{} or {last}", names.join(", "))
                }
            };
            let diagnostic = Diagnostic::error(
                Code::E0100,
                span,
                format!("expected {expected}, found {found}"),
            )
            .label(format!("unexpected {found} here"));
            match error.found() {
                Some(Token::Ident(word))
                    if expected.contains("a name") && crate::asm::ast::KEYWORDS.contains(word) =>
                {
                    diagnostic.help(format!(
                        "`{word}` is a reserved word ({}): choose another name",
                        crate::asm::ast::KEYWORDS.join(", ")
                    ))
                }
                _ => diagnostic,
            }
        }
    }
}

fn describe_pattern(pattern: &RichPattern<'_, Token<'_>>) -> String {
    match pattern {
        RichPattern::Token(t) if **t == Token::Newline => "end of line".to_string(),
        RichPattern::Token(t) => t.to_string(),
        RichPattern::Label(l) => l.to_string(),
        RichPattern::EndOfInput => "end of line".to_string(),
        other => other.to_string(),
    }
}

/// A name that is not a keyword.
fn ident<'tok, 'src: 'tok, I, E>(file: FileId) -> impl Parser<'tok, I, Ident, E> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
    E: ParserExtra<'tok, I>,
    E::Error: LabelError<'tok, I, &'static str>,
{
    select! { Token::Ident(s) if !KEYWORDS.contains(&s) => s }
        .map_with(move |s: &str, e| {
            let at: SimpleSpan = e.span();
            let name = Name {
                text: interned(s),
                scope: super::ast::ScopeId::ROOT,
            };
            Ident::new(name, Span::new(file, at.into_range()))
        })
        .labelled("a name")
}

thread_local! {
    /// The names of the file whose lines are being parsed on this thread
    /// (see [`Interning`]), or none.
    static NAMES: RefCell<Option<FxHashSet<Text>>> = const { RefCell::new(None) };
}

/// While it lives, names parsed on this thread share their text with the
/// equal names parsed before them in the same file: one allocation per
/// distinct name, not per occurrence.
struct Interning<'n> {
    /// The file's names, given back when parsing stops.
    names: &'n mut FxHashSet<Text>,
    /// What was interning before (nothing, unless parsers nest).
    outer: Option<FxHashSet<Text>>,
}

impl<'n> Interning<'n> {
    fn start(names: &'n mut FxHashSet<Text>) -> Interning<'n> {
        let taken = std::mem::take(names);
        let outer = NAMES.with_borrow_mut(|current| current.replace(taken));
        Interning { names, outer }
    }
}

impl Drop for Interning<'_> {
    fn drop(&mut self) {
        let outer = self.outer.take();
        if let Some(names) = NAMES.with_borrow_mut(|current| std::mem::replace(current, outer)) {
            *self.names = names;
        }
    }
}

/// The text of a name, shared with an equal one parsed before when
/// [`Interning`].
fn interned(text: &str) -> Text {
    NAMES.with_borrow_mut(|names| match names {
        Some(names) => intern(names, text),
        None => Text::from(text),
    })
}

/// The text of a name, shared with an equal one in `names` (added there
/// when new).
fn intern(names: &mut FxHashSet<Text>, text: &str) -> Text {
    match names.get(text) {
        Some(shared) => shared.clone(),
        None => {
            let shared = Text::from(text);
            names.insert(shared.clone());
            shared
        }
    }
}

fn keyword<'tok, 'src: 'tok, I, E>(word: &'static str) -> impl Parser<'tok, I, (), E> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
    E: ParserExtra<'tok, I>,
    E::Error: LabelError<'tok, I, &'static str>,
{
    just(Token::Ident(word)).ignored().labelled(word)
}

/// A number, as an expression.
fn number<'tok, 'src: 'tok, I, E>(file: FileId) -> impl Parser<'tok, I, Expr, E> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
    E: ParserExtra<'tok, I>,
    E::Error: LabelError<'tok, I, &'static str>,
{
    select! { Token::Int(Number(Some(n))) => n }.map_with(move |n, e| {
        let at: SimpleSpan = e.span();
        Expr {
            kind: ExprKind::Number(n),
            span: Span::new(file, at.into_range()),
        }
    })
}

/// A name, as an expression.
fn name_expr<'tok, 'src: 'tok, I, E>(file: FileId) -> impl Parser<'tok, I, Expr, E> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
    E: ParserExtra<'tok, I>,
    E::Error: LabelError<'tok, I, &'static str>,
{
    ident(file).map(|n| Expr {
        kind: ExprKind::Name(n.name()),
        span: n.span,
    })
}

fn binary_expr(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Binary(Box::new((op, a, b))),
        span,
    }
}

/// Assembly-time expressions.
pub fn expr<'tok, 'src: 'tok, I, E>(file: FileId) -> impl Parser<'tok, I, Expr, E> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
    E: ParserExtra<'tok, I> + 'tok,
    E::Error: LabelError<'tok, I, &'static str>,
    E::State: 'tok,
    E::Context: 'tok,
{
    let span = move |s: SimpleSpan| Span::new(file, s.into_range());
    recursive(move |expr| {
        let number = number(file);
        let string = select! { Token::Str(s) => s }.map_with(move |s: &str, e| Expr {
            kind: ExprKind::Str(Text::from(unescape(s).as_str())),
            span: span(e.span()),
        });
        let name = name_expr(file);
        let items = expr.clone().separated_by(just(Token::Comma)).allow_trailing().collect::<Vec<_>>();
        let list = items
            .clone()
            .then(just(Token::Bar).ignore_then(expr.clone()).or_not())
            .delimited_by(just(Token::LBracket), just(Token::RBracket))
            .map_with(move |(items, tail), e| Expr {
                kind: ExprKind::List(Box::new((items, tail))),
                span: span(e.span()),
            });
        let parens = items
            .clone()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map_with(move |mut items, e| {
                let span = span(e.span());
                match items.len() {
                    0 => Expr {
                        kind: ExprKind::List(Box::default()),
                        span,
                    },
                    1 => items.remove(0),
                    _ => Expr {
                        kind: ExprKind::Tuple(Box::new(items)),
                        span,
                    },
                }
            });
        // `name(a, b)` with no space before `(` is a call: the name applied
        // to the arguments, as one atom (so `Register 5 bits("100")` works).
        let call = ident(file)
            .then(items.delimited_by(just(Token::CallOpen), just(Token::RParen)))
            .map_with(move |(head, args), e| Expr {
                kind: ExprKind::Apply(Box::new((head, args))),
                span: span(e.span()),
            });
        // `@i`: register number i, written as `reg NAME @INDEX` writes it.
        let register_index = just(Token::At)
            .ignore_then(choice((number.clone(), name.clone(), parens.clone())))
            .map_with(move |index, e| Expr {
                kind: ExprKind::RegisterIndex(Box::new(index)),
                span: span(e.span()),
            });
        let atom = choice((number, string, call, name, list, parens)).labelled("a value");

        let apply = atom.clone().foldl_with(atom.repeated(), move |head, arg, e| {
            let span = span(e.span());
            match head.kind {
                ExprKind::Apply(mut application) => {
                    application.1.push(arg);
                    Expr {
                        kind: ExprKind::Apply(application),
                        span,
                    }
                }
                ExprKind::Name(n) => Expr {
                    kind: ExprKind::Apply(Box::new((Ident::new(n, head.span), vec![arg]))),
                    span,
                },
                // Applying something that is not a name: reported when the
                // value is computed.
                _ => Expr {
                    kind: ExprKind::Apply(Box::new((
                        Ident::new(Name::root(""), head.span),
                        vec![head, arg],
                    ))),
                    span,
                },
            }
        });

        let unary = recursive(|unary| {
            let prefix = choice((just(Token::Minus).to(true), just(Token::Hash).to(false)))
                .then(unary)
                .map_with(move |(negate, e): (bool, Expr), x| Expr {
                    kind: if negate {
                        ExprKind::Neg(Box::new(e))
                    } else {
                        ExprKind::Pool(Box::new(e))
                    },
                    span: span(x.span()),
                });
            prefix.or(register_index).or(apply)
        });

        let product = unary.clone().foldl_with(
            select! { Token::Star => BinOp::Mul, Token::Slash => BinOp::Div, Token::Percent => BinOp::Rem }
                .then(unary)
                .repeated(),
            move |a, (op, b), e| binary_expr(op, a, b, span(e.span())),
        );
        let sum = product.clone().foldl_with(
            select! { Token::Plus => BinOp::Add, Token::Minus => BinOp::Sub }.then(product).repeated(),
            move |a, (op, b), e| binary_expr(op, a, b, span(e.span())),
        );
        let shift = sum.clone().foldl_with(
            select! { Token::Shl => BinOp::Shl, Token::Shr => BinOp::Shr }.then(sum).repeated(),
            move |a, (op, b), e| binary_expr(op, a, b, span(e.span())),
        );
        let comparison = shift
            .clone()
            .then(
                select! {
                    Token::EqEq => BinOp::Eq, Token::NotEq => BinOp::Ne, Token::Lt => BinOp::Lt,
                    Token::Le => BinOp::Le, Token::Gt => BinOp::Gt, Token::Ge => BinOp::Ge,
                }
                .then(shift)
                .or_not(),
            )
            .map_with(move |(a, rest), e| match rest {
                None => a,
                Some((op, b)) => binary_expr(op, a, b, span(e.span())),
            });
        let negation = recursive(|negation| {
            keyword("not")
                .ignore_then(negation)
                .map_with(move |e: Expr, x| Expr {
                    kind: ExprKind::Not(Box::new(e)),
                    span: span(x.span()),
                })
                .or(comparison)
        });
        let conjunction = negation.clone().foldl_with(keyword("and").ignore_then(negation).repeated(), move |a, b, e| {
            binary_expr(BinOp::And, a, b, span(e.span()))
        });
        conjunction.clone().foldl_with(keyword("or").ignore_then(conjunction).repeated(), move |a, b, e| {
            binary_expr(BinOp::Or, a, b, span(e.span()))
        })
    })
    .labelled("an expression")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A module path: `std/NAME`, a bare `a/b/c` path, or a string.
fn module<'tok, 'src: 'tok, I, E>() -> impl Parser<'tok, I, ModuleRef, E> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
    E: ParserExtra<'tok, I>,
    E::Error: LabelError<'tok, I, &'static str>,
{
    let segment = select! { Token::Ident(s) => s };
    let path = segment
        .separated_by(just(Token::Slash))
        .at_least(1)
        .collect::<Vec<&str>>()
        .map(|parts| match parts.as_slice() {
            ["std", rest @ ..] if !rest.is_empty() => ModuleRef::Std(rest.join("/")),
            _ => ModuleRef::File(format!("{}.cta", parts.join("/"))),
        });
    let string = select! { Token::Str(s) => ModuleRef::File(unescape(s)) };
    string
        .or(path)
        .labelled("a module (std/NAME or \"path.cta\")")
}

/// One logical line: an optional label, then an optional statement.
fn line_parser<'tok, 'src: 'tok, I, E>(file: FileId) -> impl Parser<'tok, I, Vec<Line>, E>
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
    E: ParserExtra<'tok, I> + 'tok,
    E::Error: LabelError<'tok, I, &'static str>,
    E::State: 'tok,
    E::Context: 'tok,
{
    let span = move |s: SimpleSpan| Span::new(file, s.into_range());
    let name = ident(file);
    let expr = expr(file);
    // `@N`: a number, a name or a parenthesised expression, so that a limit
    // can follow (`reg r @7 16`).
    let index_value = choice((
        number(file),
        name_expr(file),
        expr.clone()
            .delimited_by(just(Token::LParen), just(Token::RParen)),
    ));
    let index = just(Token::At)
        .ignore_then(index_value)
        .map(Box::new)
        .or_not();
    let limit = keyword("auto")
        .to(None)
        .or(expr.clone().map(|e| Some(Box::new(e))));

    let reg = keyword("reg")
        .ignore_then(name.clone())
        .then(index.clone())
        .then(limit.or_not())
        .then(
            just(Token::Eq)
                .ignore_then(expr.clone())
                .map(Box::new)
                .or_not(),
        )
        .map(|(((name, index), limit), init)| Stmt::Reg {
            name,
            index,
            limit,
            init,
        });
    let resize = keyword("resize")
        .ignore_then(name.clone())
        .then(expr.clone().map(Box::new))
        .map(|(name, limit)| Stmt::Resize { name, limit });
    let constant = keyword("const")
        .ignore_then(name.clone())
        .then_ignore(just(Token::Eq))
        .then(expr.clone().map(Box::new))
        .map(|(name, value)| Stmt::Const { name, value });
    let macro_def = keyword("macro")
        .ignore_then(name.clone())
        .then(
            name.clone()
                .separated_by(just(Token::Comma))
                .collect::<Vec<_>>(),
        )
        .map(|(name, params)| Stmt::Macro { name, params });
    let conditional = keyword("if")
        .ignore_then(expr.clone())
        .map(|e| Stmt::If(Box::new(e)));
    let otherwise = keyword("else").to(Stmt::Else);
    let end_block = keyword("end").to(Stmt::End);
    let use_ = keyword("use").ignore_then(module()).map(Stmt::Use);
    let include = keyword("include").ignore_then(module()).map(Stmt::Include);
    let entry = keyword("entry").ignore_then(name.clone()).map(Stmt::Entry);
    let callstack = keyword("callstack")
        .ignore_then(name.clone())
        .then_ignore(just(Token::Comma))
        .then(name.clone())
        .map(|(stack, link)| Stmt::CallStack { stack, link });
    let block = keyword("block")
        .ignore_then(name.clone())
        .then(index)
        .then(expr.clone().map(Box::new).or_not())
        .map(|((name, index), limit)| Stmt::Block { name, index, limit });
    let tail = keyword("tail").ignore_then(name.clone()).map(Stmt::Tail);
    // Most operands are a lone name or number: taken at once when the
    // operand ends right after it, without going through every level of
    // the expression grammar (which gives the same expression).
    let operand_end = just(Token::Comma).or(just(Token::Newline)).rewind();
    let plain_operand = name_expr(file)
        .or(number(file))
        .then_ignore(operand_end)
        .labelled("an expression");
    let op = name
        .clone()
        .then(
            plain_operand
                .or(expr)
                .separated_by(just(Token::Comma))
                .collect::<Vec<_>>(),
        )
        .map(|(name, mut args)| {
            // Exactly as many as written: collecting leaves room for four,
            // and a program may have millions of instructions.
            let mut exact = Vec::with_capacity(args.len());
            exact.append(&mut args);
            Stmt::Op { name, args: exact }
        });

    let statement = choice((
        reg,
        resize,
        constant,
        macro_def,
        conditional,
        otherwise,
        end_block,
        use_,
        include,
        entry,
        callstack,
        block,
        tail,
        op,
    ))
    .map_with(move |stmt, e| Line {
        stmt,
        span: span(e.span()),
    });
    let label = name
        .then_ignore(just(Token::Colon))
        .map_with(move |n, e| Line {
            stmt: Stmt::Label(n),
            span: span(e.span()),
        });
    label
        .or_not()
        .then(statement.or_not())
        .map(|(label, statement)| label.into_iter().chain(statement).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What chumsky and [`plain_line`] give for each line of `text`: the
    /// statements and errors of chumsky, and the hand's statements, if it
    /// takes the line.
    fn both(text: &str) -> Vec<(Vec<Line>, usize, Option<Vec<Line>>)> {
        let file = FileId(3);
        let (lines, errors) = lexer::lex(file, text);
        assert!(errors.is_empty(), "{errors:?}");
        let (mut names, mut by_hand) = (FxHashSet::default(), FxHashSet::default());
        let _interning = Interning::start(&mut names);
        let eoi: SimpleSpan = (text.len()..text.len()).into();
        lines
            .iter()
            .map(|line| {
                let mut diagnostics = Vec::new();
                let mut parsed = parse_lines(file, &[line.as_slice()], eoi, &mut diagnostics);
                let mut hand = Vec::new();
                let taken = plain_line(file, line, &mut by_hand, &mut hand);
                assert!(taken || hand.is_empty());
                (
                    parsed.pop().unwrap_or_default(),
                    diagnostics.len(),
                    taken.then_some(hand),
                )
            })
            .collect()
    }

    #[test]
    fn the_hand_parses_the_common_shapes_as_chumsky_does() {
        let text = "block0:          ; block 0\n    construct a, b, a\n  halt\n\
                    x: mov out, STEP\nl: halt\n  load a, 42\n  jnil a, block0\n\
                    x: y\n_.q: .r 0x1F, 0b101, 1_000\n";
        let results = both(text);
        assert_eq!(results.len(), 9);
        for (chumsky, errors, hand) in results {
            assert_eq!(errors, 0);
            assert_eq!(hand.as_ref(), Some(&chumsky), "{chumsky:?}");
        }
    }

    #[test]
    fn the_hand_leaves_every_other_shape_to_chumsky() {
        let text = "mov a, b c\nmov a,\nmov , a\nmov a b\nmov f(1)\nmov -1\nmov [1]\n\
                    reg a\nend\nx: else\nmov a, not\nmov and, a\nx: : y\nmov \"s\"\n\
                    x: mov a, b + 1\nmov a,, b\nx y: z\nmov a, (b)\n";
        let results = both(text);
        assert_eq!(results.len(), 18);
        for (chumsky, _, hand) in results {
            assert_eq!(hand, None, "{chumsky:?}");
        }
    }
}

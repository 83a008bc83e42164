//! The parser (chumsky): one logical line of tokens at a time, to a
//! statement. A line that does not parse is reported and skipped, so one run
//! reports an error for every bad line.

use super::ast::{BinOp, Expr, ExprKind, KEYWORDS, Line, ModuleRef, Name, Stmt};
use super::diagnostics::Diagnostic;
use super::lexer::{self, Number, Token};
use super::source::{FileId, Span};
use chumsky::error::{Rich, RichPattern, RichReason};
use chumsky::input::ValueInput;
use chumsky::prelude::*;

type Err<'tok, 'src> = extra::Err<Rich<'tok, Token<'src>>>;

/// Parses a whole file into statements (labels in front of a statement on the
/// same line become statements of their own).
pub fn parse_file(file: FileId, text: &str) -> (Vec<Line>, Vec<Diagnostic>) {
    let (lines, mut diagnostics) = lexer::lex(file, text);
    // All tokens in one vector, so that one parser serves every line.
    let mut tokens: Vec<(Token<'_>, SimpleSpan)> = Vec::new();
    let mut bounds = Vec::with_capacity(lines.len());
    for line in &lines {
        let start = tokens.len();
        tokens.extend(line.iter().map(|&(t, s)| (t, SimpleSpan::from(s.range()))));
        bounds.push(start..tokens.len());
    }
    let parser = line_parser(file);
    let mut statements = Vec::with_capacity(lines.len());
    for range in bounds {
        let line = &tokens[range];
        let Some(last) = line.last() else { continue };
        let eoi: SimpleSpan = (last.1.end..last.1.end).into();
        let (parsed, errors) = parser
            .parse(line.map(eoi, |(t, s)| (t, s)))
            .into_output_errors();
        if let Some(first_error) = errors.into_iter().next() {
            diagnostics.push(syntax_error(file, first_error));
            continue;
        }
        if let Some(parsed) = parsed {
            statements.extend(parsed);
        }
    }
    (statements, diagnostics)
}

fn syntax_error(file: FileId, error: Rich<'_, Token<'_>>) -> Diagnostic {
    let span = Span::new(file, error.span().into_range());
    let found = match error.found() {
        Some(t) => t.to_string(),
        None => "end of line".to_string(),
    };
    match error.reason() {
        RichReason::Custom(message) => {
            Diagnostic::error("E0101", span, message.clone()).label("here")
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
            Diagnostic::error("E0100", span, format!("expected {expected}, found {found}"))
                .label(format!("unexpected {found} here"))
        }
    }
}

fn describe_pattern(pattern: &RichPattern<'_, Token<'_>>) -> String {
    match pattern {
        RichPattern::Token(t) => t.to_string(),
        RichPattern::Label(l) => l.to_string(),
        RichPattern::EndOfInput => "end of line".to_string(),
        other => other.to_string(),
    }
}

/// A name that is not a keyword.
fn ident<'tok, 'src: 'tok, I>(file: FileId) -> impl Parser<'tok, I, Name, Err<'tok, 'src>> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
{
    select! { Token::Ident(s) if !KEYWORDS.contains(&s) => s }
        .map_with(move |s: &str, e| {
            let at: SimpleSpan = e.span();
            Name {
                text: s.to_string(),
                span: Span::new(file, at.into_range()),
            }
        })
        .labelled("a name")
}

fn keyword<'tok, 'src: 'tok, I>(
    word: &'static str,
) -> impl Parser<'tok, I, (), Err<'tok, 'src>> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
{
    just(Token::Ident(word)).ignored().labelled(word)
}

/// Assembly-time expressions.
pub fn expr<'tok, 'src: 'tok, I>(
    file: FileId,
) -> impl Parser<'tok, I, Expr, Err<'tok, 'src>> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
{
    let span = move |s: SimpleSpan| Span::new(file, s.into_range());
    recursive(move |expr| {
        let number = select! { Token::Int(Number(Some(n))) => n }.map_with(move |n, e| Expr {
            kind: ExprKind::Number(n),
            span: span(e.span()),
        });
        let string = select! { Token::Str(s) => s }.map_with(move |s: &str, e| Expr {
            kind: ExprKind::Str(unescape(s)),
            span: span(e.span()),
        });
        let name = ident(file).map(|n| Expr {
            kind: ExprKind::Name(n.text),
            span: n.span,
        });
        let items = expr
            .clone()
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<_>>();
        let list = items
            .clone()
            .then(just(Token::Bar).ignore_then(expr.clone()).or_not())
            .delimited_by(just(Token::LBracket), just(Token::RBracket))
            .map_with(move |(items, tail), e| Expr {
                kind: ExprKind::List(items, tail.map(Box::new)),
                span: span(e.span()),
            });
        let parens = items
            .clone()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map_with(move |mut items, e| {
                let span = span(e.span());
                match items.len() {
                    0 => Expr {
                        kind: ExprKind::List(Vec::new(), None),
                        span,
                    },
                    1 => items.remove(0),
                    _ => Expr {
                        kind: ExprKind::Tuple(items),
                        span,
                    },
                }
            });
        // `name(a, b)` with no space before `(` is a call: the name applied
        // to the arguments, as one atom (so `Register 5 bits("100")` works).
        let call = ident(file)
            .then(
                just(Token::LParen)
                    .map_with(|_, e| e.span())
                    .then(items.clone().then_ignore(just(Token::RParen))),
            )
            .try_map(
                move |(head, (open, args)): (Name, (SimpleSpan, Vec<Expr>)), at| {
                    if head.span.end as usize == open.start {
                        Ok(Expr {
                            kind: ExprKind::Apply(head, args),
                            span: span(at),
                        })
                    } else {
                        Err(Rich::custom(at, "not a call"))
                    }
                },
            );
        let atom = choice((number, string, call, name, list, parens)).labelled("a value");

        let apply = atom
            .clone()
            .foldl_with(atom.repeated(), move |head, arg, e| {
                let span = span(e.span());
                match head.kind {
                    ExprKind::Apply(f, mut args) => {
                        args.push(arg);
                        Expr {
                            kind: ExprKind::Apply(f, args),
                            span,
                        }
                    }
                    ExprKind::Name(n) => Expr {
                        kind: ExprKind::Apply(
                            Name {
                                text: n,
                                span: head.span,
                            },
                            vec![arg],
                        ),
                        span,
                    },
                    // Applying something that is not a name: reported when the
                    // value is computed.
                    _ => Expr {
                        kind: ExprKind::Apply(
                            Name {
                                text: String::new(),
                                span: head.span,
                            },
                            vec![head, arg],
                        ),
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
            prefix.or(apply)
        });

        let binary =
            |ops: Vec<(Token<'src>, BinOp)>,
             operand: chumsky::Boxed<'tok, 'tok, I, Expr, Err<'tok, 'src>>| {
                let op = select! { t => t }.try_map(move |t: Token<'src>, s| {
                    ops.iter()
                        .find(|(tok, _)| *tok == t)
                        .map(|(_, op)| *op)
                        .ok_or_else(|| Rich::custom(s, "not an operator"))
                });
                operand
                    .clone()
                    .foldl_with(op.then(operand).repeated(), move |a, (op, b), e| Expr {
                        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                        span: span(e.span()),
                    })
                    .boxed()
            };
        let product = binary(
            vec![
                (Token::Star, BinOp::Mul),
                (Token::Slash, BinOp::Div),
                (Token::Percent, BinOp::Rem),
            ],
            unary.boxed(),
        );
        let sum = binary(
            vec![(Token::Plus, BinOp::Add), (Token::Minus, BinOp::Sub)],
            product,
        );
        let shift = binary(
            vec![(Token::Shl, BinOp::Shl), (Token::Shr, BinOp::Shr)],
            sum,
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
                Some((op, b)) => Expr {
                    kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    span: span(e.span()),
                },
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
        let conjunction = negation.clone().foldl_with(
            keyword("and").ignore_then(negation).repeated(),
            move |a, b, e| Expr {
                kind: ExprKind::Binary(BinOp::And, Box::new(a), Box::new(b)),
                span: span(e.span()),
            },
        );
        conjunction.clone().foldl_with(
            keyword("or").ignore_then(conjunction).repeated(),
            move |a, b, e| Expr {
                kind: ExprKind::Binary(BinOp::Or, Box::new(a), Box::new(b)),
                span: span(e.span()),
            },
        )
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
fn module<'tok, 'src: 'tok, I>() -> impl Parser<'tok, I, ModuleRef, Err<'tok, 'src>> + Clone
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
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
fn line_parser<'tok, 'src: 'tok, I>(
    file: FileId,
) -> impl Parser<'tok, I, Vec<Line>, Err<'tok, 'src>>
where
    I: ValueInput<'tok, Token = Token<'src>, Span = SimpleSpan>,
{
    let span = move |s: SimpleSpan| Span::new(file, s.into_range());
    let name = ident(file);
    let expr = expr(file);
    let index = just(Token::At).ignore_then(expr.clone()).or_not();
    let limit = keyword("auto").to(None).or(expr.clone().map(Some));

    let reg = keyword("reg")
        .ignore_then(name.clone())
        .then(index.clone())
        .then(limit.clone().or_not())
        .then(just(Token::Eq).ignore_then(expr.clone()).or_not())
        .map(|(((name, index), limit), init)| Stmt::Reg {
            name,
            index,
            limit,
            init,
        });
    let resize = keyword("resize")
        .ignore_then(name.clone())
        .then(expr.clone())
        .map(|(name, limit)| Stmt::Resize { name, limit });
    let constant = keyword("const")
        .ignore_then(name.clone())
        .then_ignore(just(Token::Eq))
        .then(expr.clone())
        .map(|(name, value)| Stmt::Const { name, value });
    let macro_def = keyword("macro")
        .ignore_then(name.clone())
        .then(
            name.clone()
                .separated_by(just(Token::Comma))
                .collect::<Vec<_>>(),
        )
        .map(|(name, params)| Stmt::Macro { name, params });
    let conditional = keyword("if").ignore_then(expr.clone()).map(Stmt::If);
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
        .then(expr.clone().or_not())
        .map(|((name, index), limit)| Stmt::Block { name, index, limit });
    let tail = keyword("tail").ignore_then(name.clone()).map(Stmt::Tail);
    let op = name
        .clone()
        .then(expr.separated_by(just(Token::Comma)).collect::<Vec<_>>())
        .map(|(name, args)| Stmt::Op { name, args });

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
        .then_ignore(end())
        .map(|(label, statement)| label.into_iter().chain(statement).collect())
}

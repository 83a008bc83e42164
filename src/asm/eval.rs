//! Assembly-time values: constants, literals and integer expressions.
//!
//! A value is a number, a boolean, one of the report's types (directions,
//! colours, frames, items, registers, instructions, commands, actions,
//! robots, memories), a raw tree, a list or a tuple. Every value that
//! reaches a register is encoded with the engine's own encoders.

use super::ast::{BinOp, Expr, ExprKind, Ident, Name};
use super::source::Span;
use crate::diagnostic::{Code, Diagnostic};
use crate::encoding::Encode;
use crate::machine::{Instruction, Memory, Register};
use crate::tree::Tree;
use crate::world::{Action, Color, Command, Direction, Frame, Item, Processor, Robot};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;
use std::rc::Rc;

/// An assembly-time value.
#[derive(Debug, Clone)]
pub enum Value {
    /// A number (the report's `Int`).
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string (only as an argument of `bits` or `image`).
    Str(String),
    /// A tree as it is.
    Tree(Tree),
    /// `N` ... `NW`.
    Direction(Direction),
    /// `Red` ... `White`.
    Color(Color),
    /// `Frame COLOR STRENGTH`.
    Frame(Frame),
    /// `Processor SPEED`.
    Processor(Processor),
    /// `Register LIMIT CONTENTS`.
    Register(Register),
    /// An item.
    Item(Item),
    /// An instruction, as data.
    Instruction(Instruction),
    /// A command.
    Command(Command),
    /// An action.
    Action(Action),
    /// `Robot FRAME INVENTORY` (encoded as the report does: frame and
    /// inventory only).
    Robot(Robot),
    /// A whole memory: a compiled program.
    Memory(Memory),
    /// `[a, b]`, or `[a, b | tail]`.
    List(Rc<[Value]>, Option<Rc<Value>>),
    /// `(a, b, ...)`: nested pairs without a terminal Nil.
    Tuple(Rc<[Value]>),
    /// `none` or `some x`.
    Maybe(Option<Rc<Value>>),
}

/// Values are equal when they are the same kind of value with equal parts.
/// Parts shared by reference are compared once for each pair of them, so
/// two lists doubled 60 times, built apart, compare in 60 steps.
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        equal(self, other, &mut HashSet::default())
    }
}

impl Eq for Value {}

/// [`Value`] equality, remembering the pairs of shared parts already
/// compared (equal, since a difference ends the comparison).
fn equal(a: &Value, b: &Value, compared: &mut HashSet<(usize, usize)>) -> bool {
    let all = |x: &[Value], y: &[Value], compared: &mut HashSet<_>| {
        x.len() == y.len() && x.iter().zip(y).all(|(x, y)| equal(x, y, compared))
    };
    let pair = |x: *const Value, y: *const Value| (x as usize, y as usize);
    match (a, b) {
        // A list's items and tail are made together: its items name it.
        (Value::List(xs, xt), Value::List(ys, yt)) => {
            !compared.insert(pair(xs.as_ptr(), ys.as_ptr()))
                || (all(xs, ys, compared)
                    && match (xt, yt) {
                        (None, None) => true,
                        (Some(x), Some(y)) => equal(x, y, compared),
                        _ => false,
                    })
        }
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            !compared.insert(pair(xs.as_ptr(), ys.as_ptr())) || all(xs, ys, compared)
        }
        (Value::Maybe(Some(x)), Value::Maybe(Some(y))) => {
            !compared.insert(pair(Rc::as_ptr(x), Rc::as_ptr(y))) || equal(x, y, compared)
        }
        (Value::Maybe(None), Value::Maybe(None)) => true,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Tree(x), Value::Tree(y)) => x == y,
        (Value::Direction(x), Value::Direction(y)) => x == y,
        (Value::Color(x), Value::Color(y)) => x == y,
        (Value::Frame(x), Value::Frame(y)) => x == y,
        (Value::Processor(x), Value::Processor(y)) => x == y,
        (Value::Register(x), Value::Register(y)) => x == y,
        (Value::Item(x), Value::Item(y)) => x == y,
        (Value::Instruction(x), Value::Instruction(y)) => x == y,
        (Value::Command(x), Value::Command(y)) => x == y,
        (Value::Action(x), Value::Action(y)) => x == y,
        (Value::Robot(x), Value::Robot(y)) => x == y,
        (Value::Memory(x), Value::Memory(y)) => x == y,
        _ => false,
    }
}

/// Why a value cannot be put in a register: a string has no constree
/// encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a string has no constree encoding")]
pub struct NoEncoding;

impl Value {
    /// "a number", "a direction", ...: for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Value::Int(_) => "a number",
            Value::Bool(_) => "a boolean",
            Value::Str(_) => "a string",
            Value::Tree(_) => "a tree",
            Value::Direction(_) => "a direction",
            Value::Color(_) => "a colour",
            Value::Frame(_) => "a frame",
            Value::Processor(_) => "a processor",
            Value::Register(_) => "a register value",
            Value::Item(_) => "an item",
            Value::Instruction(_) => "an instruction",
            Value::Command(_) => "a command",
            Value::Action(_) => "an action",
            Value::Robot(_) => "a robot",
            Value::Memory(_) => "a memory",
            Value::List(..) => "a list",
            Value::Tuple(_) => "a tuple",
            Value::Maybe(_) => "a maybe",
        }
    }

    /// The value's constree encoding, as the engine encodes it.
    ///
    /// A value shares its parts with the constants it was made of (a list,
    /// tuple or maybe holds them by reference, so `[t | t]` holds `t` once);
    /// each part is encoded once, and the encodings share its tree, so the
    /// work grows with the distinct parts, never with the logical size.
    pub fn encode(&self) -> Result<Tree, NoEncoding> {
        self.encode_sharing(&mut HashMap::default())
    }

    /// [`Value::encode`], reusing the encodings of the shared parts already
    /// encoded (by the address of the part).
    fn encode_sharing(&self, done: &mut HashMap<(usize, usize), Tree>) -> Result<Tree, NoEncoding> {
        let key = match self {
            Value::List(items, tail) => Some((
                items.as_ptr() as usize,
                tail.as_ref().map_or(0, |t| Rc::as_ptr(t) as usize),
            )),
            Value::Tuple(items) => Some((items.as_ptr() as usize, 0)),
            Value::Maybe(Some(inner)) => Some((Rc::as_ptr(inner) as usize, 0)),
            _ => None,
        };
        if let Some(tree) = key.and_then(|k| done.get(&k)) {
            return Ok(tree.clone());
        }
        let tree = self.encode_parts(done)?;
        if let Some(k) = key {
            done.insert(k, tree.clone());
        }
        Ok(tree)
    }

    fn encode_parts(&self, done: &mut HashMap<(usize, usize), Tree>) -> Result<Tree, NoEncoding> {
        Ok(match self {
            Value::Int(n) => n.encode(),
            Value::Bool(b) => b.encode(),
            Value::Str(_) => return Err(NoEncoding),
            Value::Tree(t) => t.clone(),
            Value::Direction(d) => d.encode(),
            Value::Color(c) => c.encode(),
            Value::Frame(f) => f.encode(),
            Value::Processor(p) => p.encode(),
            Value::Register(r) => r.encode(),
            Value::Item(i) => i.encode(),
            Value::Instruction(i) => i.encode(),
            Value::Command(c) => c.encode(),
            Value::Action(a) => a.encode(),
            Value::Robot(r) => r.encode(),
            Value::Memory(m) => m.encode(),
            Value::List(items, tail) => {
                let tail = match tail {
                    Some(t) => t.encode_sharing(done)?,
                    None => Tree::NIL,
                };
                let trees = items
                    .iter()
                    .map(|v| v.encode_sharing(done))
                    .collect::<Result<Vec<_>, _>>()?;
                trees.into_iter().rev().fold(tail, |t, h| Tree::cons(h, t))
            }
            Value::Tuple(items) => {
                let mut trees = items
                    .iter()
                    .map(|v| v.encode_sharing(done))
                    .collect::<Result<Vec<_>, _>>()?;
                let last = trees.pop().unwrap_or_default();
                trees.into_iter().rev().fold(last, |t, h| Tree::cons(h, t))
            }
            Value::Maybe(m) => match m {
                None => Tree::NIL,
                Some(v) => Tree::cons(Tree::NIL, v.encode_sharing(done)?),
            },
        })
    }
}

/// Register names to indices.
pub type RegisterLookup<'a> = &'a dyn Fn(&Name) -> Option<i64>;
/// The code tree that starts at a label.
pub type CodeLookup<'a> = &'a dyn Fn(&Ident) -> Result<Tree, Diagnostic>;
/// Compiles another program (`image("file.cta")`).
pub type ImageCompiler<'a> = &'a dyn Fn(&str, Span) -> Result<Memory, Diagnostic>;

/// What names mean while evaluating.
pub struct Env<'a> {
    consts: &'a HashMap<Name, (Expr, Span)>,
    /// Register names to indices (after registers are allocated).
    pub registers: Option<RegisterLookup<'a>>,
    /// The code tree of a label (after layout).
    pub code: Option<CodeLookup<'a>>,
    /// Compiles another program (`image("file.cta")`).
    pub image: Option<ImageCompiler<'a>>,
    evaluating: RefCell<Vec<Name>>,
    /// Constants evaluated (or failed) in this environment.
    cache: RefCell<HashMap<Name, EvalResult>>,
    /// How deep each constant's value may nest lists, tuples and `some`s
    /// (a bound worked out from the definitions, see [`nesting_of`]).
    nesting: RefCell<HashMap<Name, usize>>,
}

/// A constant's value may nest lists, tuples and `some`s at most this deep
/// (counted through the constants it names), so that encoding, comparing
/// and dropping values never runs out of stack.
pub const MAX_VALUE_NESTING: usize = 1000;

/// Why evaluation stopped.
pub type EvalResult = Result<Value, Diagnostic>;

impl<'a> Env<'a> {
    /// While expanding: only constants (and built-ins) are known.
    pub fn expanding(consts: &'a HashMap<Name, (Expr, Span)>) -> Env<'a> {
        Env {
            consts,
            registers: None,
            code: None,
            image: None,
            evaluating: RefCell::new(Vec::new()),
            cache: RefCell::new(HashMap::default()),
            nesting: RefCell::new(HashMap::default()),
        }
    }
}

/// Whether a name has a fixed meaning as a value (`N`, `Red`, `nil`, ...):
/// a name the user wrote (a macro's local label is never one).
pub fn is_builtin_name(name: &Name) -> bool {
    builtin(name).is_some()
}

/// The fixed meaning of a name the user wrote, if it has one.
fn builtin(name: &Name) -> Option<Value> {
    if name.scope.is_root() {
        builtin_name(&name.text)
    } else {
        None
    }
}

/// The names with a fixed meaning (directions, colours, `true`, `Pass`,
/// ...) and the constructors that take arguments (`Move`, `Lift`, ...):
/// candidates for "did you mean".
pub fn builtin_names() -> Vec<String> {
    let values = [
        "true", "false", "nil", "none", "Pass", "Shield", "Created", "Passed", "Invalid",
    ];
    Direction::ALL
        .iter()
        .map(|d| d.name().to_string())
        .chain(Color::ALL.iter().map(|c| format!("{c:?}")))
        .chain(values.iter().map(|s| s.to_string()))
        .chain(
            super::constructors::CONSTRUCTORS
                .iter()
                .map(|c| c.name.to_string()),
        )
        .collect()
}

/// Names with a fixed meaning.
fn builtin_name(name: &str) -> Option<Value> {
    if let Some(d) = Direction::ALL.iter().find(|d| d.name() == name) {
        return Some(Value::Direction(*d));
    }
    if let Some(c) = Color::ALL.iter().find(|c| format!("{c:?}") == name) {
        return Some(Value::Color(*c));
    }
    Some(match name {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "nil" => Value::Tree(Tree::NIL),
        "none" => Value::Maybe(None),
        "Pass" => Value::Command(Command::Pass),
        "Shield" => Value::Item(Item::Shield),
        "Created" => Value::Action(Action::Created),
        "Passed" => Value::Action(Action::Passed),
        "Invalid" => Value::Action(Action::Invalid),
        _ => return None,
    })
}

/// Evaluates an expression.
pub fn eval(expr: &Expr, env: &Env<'_>) -> EvalResult {
    let err = |code, message: String| Diagnostic::error(code, expr.span, message);
    match &expr.kind {
        ExprKind::Number(n) => i64::try_from(*n).map(Value::Int).map_err(|_| {
            err(Code::E0401, format!("{n} does not fit the report's 64-bit Int")).label("too large")
        }),
        ExprKind::Str(s) => Ok(Value::Str(s.to_string())),
        ExprKind::Name(name) => eval_name(name, expr.span, env),
        ExprKind::Neg(inner) => {
            // -9223372036854775808 is written as the negation of 2^63.
            if let ExprKind::Number(n) = inner.kind
                && n == 1u64 << 63
            {
                return Ok(Value::Int(i64::MIN));
            }
            let n = expect_int(&eval(inner, env)?, inner.span)?;
            n.checked_neg().map(Value::Int).ok_or_else(|| {
                err(Code::E0402, "the negation overflows 64 bits".into())
                    .label(format!("this is -({n})"))
            })
        }
        ExprKind::Not(inner) => match eval(inner, env)? {
            Value::Bool(b) => Ok(Value::Bool(!b)),
            Value::Int(n) => Ok(Value::Bool(n == 0)),
            other => Err(type_error(inner.span, "a boolean", &other)),
        },
        ExprKind::Binary(binary_expr) => {
            let (op, a, b) = &**binary_expr;
            binary(*op, a, b, expr.span, env)
        }
        ExprKind::List(list) => {
            let (items, tail) = &**list;
            let items = items
                .iter()
                .map(|e| eval(e, env))
                .collect::<Result<Vec<_>, _>>()?;
            let tail = match tail {
                Some(t) => Some(Rc::new(eval(t, env)?)),
                None => None,
            };
            Ok(Value::List(items.into(), tail))
        }
        ExprKind::Tuple(items) => Ok(Value::Tuple(
            items
                .iter()
                .map(|e| eval(e, env))
                .collect::<Result<Rc<[Value]>, _>>()?,
        )),
        ExprKind::Apply(application) => apply(&application.0, &application.1, expr.span, env),
        ExprKind::Pool(_) => Err(err(
            Code::E0403,
            "`#` makes a constant register: it is not a value".into(),
        )
        .label("only an instruction operand can be `#...`")),
        ExprKind::RegisterIndex(_) => Err(err(
            Code::E0403,
            "`@` names a register by its number: it is not a value".into(),
        )
        .label("only an instruction operand can be `@...`")
        .note("in an instruction written as a value, `Construct @3 @4 @5` and `Construct 3 4 5` are the same")),
    }
}

fn eval_name(name: &Name, span: Span, env: &Env<'_>) -> EvalResult {
    if let Some((expr, _)) = env.consts.get(name) {
        if let Some(v) = env.cache.borrow().get(name) {
            return v.clone();
        }
        prepare(name, env);
        return eval_constant(name, expr, span, env);
    }
    if let Some(v) = builtin(name) {
        return Ok(v);
    }
    if env.registers.and_then(|r| r(name)).is_some() {
        return Err(Diagnostic::error(
            Code::E0405,
            span,
            format!("`{name}` is a register, not a value"),
        )
        .label("a register (or a label's code register)"));
    }
    if let Some(usage) = super::constructors::usage(&name.text) {
        return Err(
            Diagnostic::error(Code::E0410, span, format!("`{name}` needs arguments"))
                .label("given none")
                .help(usage),
        );
    }
    let d =
        Diagnostic::error(Code::E0406, span, format!("unknown name `{name}`")).label("not defined");
    let builtins = builtin_names();
    let known = env
        .consts
        .keys()
        .map(|n| &*n.text)
        .chain(builtins.iter().map(String::as_str));
    let d = match crate::asm::suggest::nearest(&name.text, known) {
        Some(s) if Direction::ALL.iter().any(|d| d.name() == s) => d.help(format!(
            "did you mean `{s}`? directions are N, NE, E, SE, S, SW, W, NW (capitals)"
        )),
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => d,
    };
    Err(if env.registers.is_none() {
        d.note("while expanding (in `if` conditions), only constants defined above are known")
    } else {
        d
    })
}

/// A constant's value: from the cache, or evaluated now (a cycle, or a
/// value nested too deep, is an error).
fn eval_constant(name: &Name, expr: &Expr, span: Span, env: &Env<'_>) -> EvalResult {
    if let Some(v) = env.cache.borrow().get(name) {
        return v.clone();
    }
    if env.evaluating.borrow().iter().any(|n| n == name) {
        let cycle = env
            .evaluating
            .borrow()
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" -> ");
        return Err(Diagnostic::error(
            Code::E0404,
            span,
            format!("constant `{name}` is defined in terms of itself"),
        )
        .label("used here")
        .note(format!("the chain: {cycle} -> {name}")));
    }
    let nesting = nesting_of(expr, env);
    env.nesting.borrow_mut().insert(name.clone(), nesting);
    let value = if nesting > MAX_VALUE_NESTING {
        Err(Diagnostic::error(
            Code::E0424,
            expr.span,
            format!("the value of `{name}` nests more than {MAX_VALUE_NESTING} levels deep"),
        )
        .label(format!(
            "lists, tuples and `some`s {nesting} levels deep, counting the constants it names"
        )))
    } else {
        env.evaluating.borrow_mut().push(name.clone());
        let value = eval(expr, env);
        env.evaluating.borrow_mut().pop();
        value
    };
    env.cache.borrow_mut().insert(name.clone(), value.clone());
    value
}

/// Evaluates the constants that `name`'s definition needs (and that are
/// not known yet), each after the constants it names, with an explicit
/// stack: evaluating `name` then finds them in the cache and recurses no
/// deeper than its own expression, however long the chain of constants.
/// While they are evaluated, `name` counts as being evaluated, so that a
/// cycle through it is reported from `name` on, as plain recursion would.
fn prepare(name: &Name, env: &Env<'_>) {
    env.evaluating.borrow_mut().push(name.clone());
    let mut seen: HashSet<&Name> = HashSet::default();
    // `(constant, whether the constants it names are on the stack above)`.
    let mut stack: Vec<(&Name, bool)> = vec![(name, false)];
    while let Some((next, ready)) = stack.pop() {
        let Some((key, (expr, _))) = env.consts.get_key_value(next) else {
            continue;
        };
        if ready {
            if next != name {
                // Its error, if any, is cached and reported where it is used.
                let _ = eval_constant(key, expr, expr.span, env);
            }
            continue;
        }
        if !seen.insert(key) {
            continue;
        }
        stack.push((key, true));
        for dependency in names_in(expr) {
            let waiting = env.cache.borrow().contains_key(dependency)
                || env.evaluating.borrow().iter().any(|n| n == dependency);
            if env.consts.contains_key(dependency) && !waiting && !seen.contains(dependency) {
                stack.push((dependency, false));
            }
        }
    }
    env.evaluating.borrow_mut().pop();
}

/// Every name an expression uses as a value (without recursion).
fn names_in(expr: &Expr) -> Vec<&Name> {
    let mut names = Vec::new();
    let mut pending = vec![expr];
    while let Some(e) = pending.pop() {
        match &e.kind {
            ExprKind::Name(n) => names.push(n),
            _ => pending.extend(e.children()),
        }
    }
    names
}

/// A bound on how deep the value of `expr` nests lists, tuples and `some`s:
/// the constructors on the way down to each name, plus the bound of the
/// constant it names (constants are prepared first, so theirs are known).
fn nesting_of(expr: &Expr, env: &Env<'_>) -> usize {
    let known = env.nesting.borrow();
    let mut deepest = 0;
    let mut pending = vec![(expr, 0usize)];
    while let Some((e, depth)) = pending.pop() {
        let inside = depth + 1;
        match &e.kind {
            ExprKind::Name(n) => deepest = deepest.max(depth + known.get(n).copied().unwrap_or(0)),
            ExprKind::Number(_) | ExprKind::Str(_) => {}
            ExprKind::Neg(x)
            | ExprKind::Not(x)
            | ExprKind::Pool(x)
            | ExprKind::RegisterIndex(x) => pending.push((x, depth)),
            ExprKind::Binary(binary) => pending.extend([(&binary.1, depth), (&binary.2, depth)]),
            ExprKind::List(list) => {
                deepest = deepest.max(inside);
                pending.extend(list.0.iter().chain(&list.1).map(|x| (x, inside)));
            }
            ExprKind::Tuple(items) => {
                deepest = deepest.max(inside);
                pending.extend(items.iter().map(|x| (x, inside)));
            }
            ExprKind::Apply(application) => {
                let (head, args) = &**application;
                let depth = if *head.text == *"some" { inside } else { depth };
                deepest = deepest.max(depth);
                pending.extend(args.iter().map(|x| (x, depth)));
            }
        }
    }
    deepest
}

fn type_error(span: Span, expected: &str, found: &Value) -> Diagnostic {
    Diagnostic::error(
        Code::E0407,
        span,
        format!("expected {expected}, found {}", found.describe()),
    )
    .label("wrong kind of value")
}

fn expect_int(v: &Value, span: Span) -> Result<i64, Diagnostic> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(type_error(span, "a number", other)),
    }
}

fn binary(op: BinOp, a: &Expr, b: &Expr, span: Span, env: &Env<'_>) -> EvalResult {
    let left = eval(a, env)?;
    let right = eval(b, env)?;
    let overflow = || {
        Diagnostic::error(Code::E0408, span, "the result overflows 64 bits")
            .label("this computation")
    };
    let boolean = |v: &Value, s: Span| match v {
        Value::Bool(b) => Ok(*b),
        Value::Int(n) => Ok(*n != 0),
        other => Err(type_error(s, "a boolean", other)),
    };
    match op {
        BinOp::And => {
            return Ok(Value::Bool(
                boolean(&left, a.span)? && boolean(&right, b.span)?,
            ));
        }
        BinOp::Or => {
            return Ok(Value::Bool(
                boolean(&left, a.span)? || boolean(&right, b.span)?,
            ));
        }
        BinOp::Eq => return Ok(Value::Bool(left == right)),
        BinOp::Ne => return Ok(Value::Bool(left != right)),
        _ => {}
    }
    let (x, y) = (expect_int(&left, a.span)?, expect_int(&right, b.span)?);
    let value = match op {
        BinOp::Add => x.checked_add(y).ok_or_else(overflow)?,
        BinOp::Sub => x.checked_sub(y).ok_or_else(overflow)?,
        BinOp::Mul => x.checked_mul(y).ok_or_else(overflow)?,
        BinOp::Div | BinOp::Rem if y == 0 => {
            return Err(
                Diagnostic::error(Code::E0409, b.span, "division by zero").label("this is zero")
            );
        }
        BinOp::Div => x.checked_div(y).ok_or_else(overflow)?,
        // The remainder always fits: -2^63 % -1 is 0.
        BinOp::Rem => x.wrapping_rem(y),
        BinOp::Shl | BinOp::Shr if y < 0 => {
            return Err(
                Diagnostic::error(Code::E0408, b.span, format!("cannot shift by {y}"))
                    .label("a negative shift"),
            );
        }
        BinOp::Shl => shift_left(x, y).ok_or_else(overflow)?,
        BinOp::Shr => shift_right(x, y),
        BinOp::Lt => return Ok(Value::Bool(x < y)),
        BinOp::Le => return Ok(Value::Bool(x <= y)),
        BinOp::Gt => return Ok(Value::Bool(x > y)),
        BinOp::Ge => return Ok(Value::Bool(x >= y)),
        BinOp::And | BinOp::Or | BinOp::Eq | BinOp::Ne => unreachable!("handled above"),
    };
    Ok(Value::Int(value))
}

/// `x << s` for `s >= 0`: `x * 2^s`, or `None` when that does not fit 64
/// bits (so `0 << s` is 0 for every `s`).
fn shift_left(x: i64, s: i64) -> Option<i64> {
    if x == 0 {
        return Some(0);
    }
    let s = u32::try_from(s).ok().filter(|&s| s < 64)?;
    let shifted = x << s;
    (shifted >> s == x).then_some(shifted)
}

/// `x >> s` for `s >= 0`: `x / 2^s` rounded down (toward minus infinity),
/// so shifting by 64 or more gives 0, or -1 for a negative `x`.
fn shift_right(x: i64, s: i64) -> i64 {
    x >> s.min(63)
}

/// The arguments of an application, checked by kind (what a
/// [`super::constructors::Constructor`] builds its value from).
pub(super) struct Args<'e, 'a> {
    /// The constructor's name, as written.
    pub(super) head: &'e Ident,
    /// The arguments.
    pub(super) args: &'e [Expr],
    /// The whole application.
    pub(super) span: Span,
    /// What names mean.
    pub(super) env: &'e Env<'a>,
}

impl Args<'_, '_> {
    fn arity(&self, n: usize) -> Result<(), Diagnostic> {
        if self.args.len() == n {
            return Ok(());
        }
        let d = Diagnostic::error(
            Code::E0410,
            self.span,
            format!(
                "`{}` takes {n} argument{}, found {}",
                self.head.text,
                if n == 1 { "" } else { "s" },
                self.args.len()
            ),
        )
        .label("here");
        Err(match super::constructors::usage(&self.head.text) {
            Some(usage) => d.help(usage),
            None => d,
        })
    }

    pub(super) fn value(&self, k: usize) -> EvalResult {
        eval(&self.args[k], self.env)
    }

    pub(super) fn span(&self, k: usize) -> Span {
        self.args[k].span
    }

    pub(super) fn int(&self, k: usize) -> Result<i64, Diagnostic> {
        expect_int(&self.value(k)?, self.span(k))
    }

    pub(super) fn tree(&self, k: usize) -> Result<Tree, Diagnostic> {
        let v = self.value(k)?;
        v.encode()
            .map_err(|m| Diagnostic::error(Code::E0411, self.span(k), m).label("cannot be encoded"))
    }

    pub(super) fn direction(&self, k: usize) -> Result<Direction, Diagnostic> {
        match self.value(k)? {
            Value::Direction(d) => Ok(d),
            Value::Int(n) => Direction::from_index(n).ok_or_else(|| {
                Diagnostic::error(Code::E0412, self.span(k), format!("{n} is not a direction"))
                    .label("directions are 0 (N) to 7 (NW)")
            }),
            other => Err(type_error(
                self.span(k),
                "a direction (N, NE, E, SE, S, SW, W, NW)",
                &other,
            )),
        }
    }

    pub(super) fn color(&self, k: usize) -> Result<Color, Diagnostic> {
        match self.value(k)? {
            Value::Color(c) => Ok(c),
            other => Err(type_error(
                self.span(k),
                "a colour (Red, Orange, Yellow, Green, Blue, Violet, Black, White)",
                &other,
            )),
        }
    }

    pub(super) fn frame(&self, k: usize) -> Result<Frame, Diagnostic> {
        match self.value(k)? {
            Value::Frame(f) => Ok(f),
            other => Err(type_error(
                self.span(k),
                "a frame (Frame COLOUR STRENGTH)",
                &other,
            )),
        }
    }

    pub(super) fn processor(&self, k: usize) -> Result<Processor, Diagnostic> {
        match self.value(k)? {
            Value::Processor(p) => Ok(p),
            Value::Int(speed) => Ok(Processor { speed }),
            other => Err(type_error(
                self.span(k),
                "a processor (Processor SPEED)",
                &other,
            )),
        }
    }

    pub(super) fn register(&self, k: usize) -> Result<Register, Diagnostic> {
        match self.value(k)? {
            Value::Register(r) => Ok(r),
            other => Err(type_error(
                self.span(k),
                "a register (Register LIMIT CONTENTS)",
                &other,
            )),
        }
    }

    pub(super) fn item(&self, k: usize) -> Result<Item, Diagnostic> {
        to_item(self.value(k)?, self.span(k))
    }

    pub(super) fn ints(&self, k: usize) -> Result<Vec<i64>, Diagnostic> {
        match self.value(k)? {
            Value::List(items, None) => items.iter().map(|v| expect_int(v, self.span(k))).collect(),
            Value::Tree(t) if t.is_nil() => Ok(Vec::new()),
            other => Err(type_error(self.span(k), "a list of numbers", &other)),
        }
    }

    pub(super) fn memory(&self, k: usize) -> Result<Memory, Diagnostic> {
        to_memory(self.value(k)?, self.span(k))
    }

    pub(super) fn items(&self, k: usize) -> Result<Vec<Item>, Diagnostic> {
        match self.value(k)? {
            Value::List(items, None) => items
                .iter()
                .map(|v| to_item(v.clone(), self.span(k)))
                .collect(),
            Value::Tree(t) if t.is_nil() => Ok(Vec::new()),
            other => Err(type_error(self.span(k), "a list of items", &other)),
        }
    }

    pub(super) fn robot(&self, k: usize) -> Result<Robot, Diagnostic> {
        match self.value(k)? {
            Value::Robot(r) => Ok(r),
            other => Err(type_error(
                self.span(k),
                "a robot (Robot FRAME INVENTORY)",
                &other,
            )),
        }
    }

    /// A register operand of an instruction constructor: a register or
    /// label name (its number), a number, or `@` and a number.
    pub(super) fn register_index(&self, k: usize) -> Result<i64, Diagnostic> {
        if let Some(name) = self.args[k].as_name()
            && let Some(index) = self.env.registers.and_then(|r| r(name))
        {
            return Ok(index);
        }
        if let ExprKind::RegisterIndex(index) = &self.args[k].kind {
            return expect_int(&eval(index, self.env)?, index.span);
        }
        self.int(k)
    }

    pub(super) fn string(&self, k: usize) -> Result<String, Diagnostic> {
        match self.value(k)? {
            Value::Str(s) => Ok(s),
            other => Err(type_error(self.span(k), "a string", &other)),
        }
    }

    /// Arguments 0, 1 and 2 as register numbers.
    pub(super) fn register_indices(&self) -> Result<(i64, i64, i64), Diagnostic> {
        Ok((
            self.register_index(0)?,
            self.register_index(1)?,
            self.register_index(2)?,
        ))
    }
}

fn to_item(v: Value, span: Span) -> Result<Item, Diagnostic> {
    match v {
        Value::Item(i) => Ok(i),
        Value::Frame(f) => Ok(Item::FramePart(f)),
        Value::Processor(p) => Ok(Item::ProcessorPart(p)),
        Value::Register(r) => Ok(Item::RegisterPart(r)),
        other => Err(type_error(span, "an item", &other)),
    }
}

fn to_memory(v: Value, span: Span) -> Result<Memory, Diagnostic> {
    match v {
        Value::Memory(m) => Ok(m),
        Value::List(items, None) => items
            .iter()
            .map(|v| match v {
                Value::Register(r) => Ok(r.clone()),
                other => Err(type_error(
                    span,
                    "a register (Register LIMIT CONTENTS)",
                    other,
                )),
            })
            .collect(),
        Value::Tree(t) if t.is_nil() => Ok(Vec::new()),
        other => Err(type_error(
            span,
            "a memory (a list of registers, or image(\"file.cta\"))",
            &other,
        )),
    }
}

/// `head args...`: constructors of the report's types and built-ins (see
/// [`super::constructors::CONSTRUCTORS`]).
fn apply(head: &Ident, args: &[Expr], span: Span, env: &Env<'_>) -> EvalResult {
    if head.text.is_empty() {
        return Err(Diagnostic::error(
            Code::E0416,
            span,
            "only a constructor or built-in can be applied to arguments",
        )
        .label("this is not a name"));
    }
    // A macro's local label is never a constructor.
    let found = if head.scope.is_root() {
        super::constructors::find(&head.text)
    } else {
        None
    };
    let Some(constructor) = found else {
        return Err(not_a_constructor(head, env));
    };
    // Built-ins take one argument, which may be a tuple: cons(a, b).
    let unpacked: Vec<Expr>;
    let args = match args {
        [
            Expr {
                kind: ExprKind::Tuple(items),
                ..
            },
        ] if constructor.builtin && constructor.arity > 1 => {
            unpacked = Vec::clone(items);
            &unpacked[..]
        }
        _ => args,
    };
    let a = Args {
        head,
        args,
        span,
        env,
    };
    a.arity(constructor.arity)?;
    constructor.build(&a)
}

/// E0417: a name applied to arguments that is no constructor.
fn not_a_constructor(head: &Ident, env: &Env<'_>) -> Diagnostic {
    let known = builtin(&head.name()).is_some() || env.consts.contains_key(&head.name());
    let d = Diagnostic::error(
        Code::E0417,
        head.span,
        format!("`{}` cannot be applied to arguments", head.text),
    )
    .label(if known {
        "a value, not a constructor"
    } else {
        "not a constructor"
    });
    if known {
        d.help("to put values side by side, write a list [a, b] or a tuple (a, b)")
    } else {
        d.note(super::constructors::note())
    }
}

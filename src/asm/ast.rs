//! The syntax tree of a `.cta` source, with a span on every node.

use super::source::Span;
use std::sync::Arc;

/// The scope that introduced a name: [`ScopeId::ROOT`] for the names the
/// user wrote, or one macro expansion (each expansion has its own, so the
/// labels of two expansions of one macro are different names).
///
/// The number is kept as a `char` (numbers from 0xD800 on moved past the
/// surrogates): the values a `char` cannot take are where an [`ExprKind`]
/// keeps which kind it is, so that an expression with a name in it is 32
/// bytes (see the size test). Order, equality and hash are the number's.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScopeId(char);

impl ScopeId {
    /// The scope of the names written outside any macro expansion.
    pub const ROOT: ScopeId = ScopeId('\0');

    /// The largest number a scope can have: expansions beyond it share it
    /// (expansion stops long before, at `macros::MAX_INVOCATIONS`).
    pub const MAX: u32 = char::MAX as u32 - 0x800;

    /// The scope of the `n`th macro expansion (counted from 1).
    pub fn expansion(n: u32) -> ScopeId {
        let n = n.clamp(1, ScopeId::MAX);
        let code = if n < 0xD800 { n } else { n + 0x800 };
        ScopeId(char::from_u32(code).unwrap_or(char::MAX))
    }

    /// Its number: 0 for [`ScopeId::ROOT`], `n` for the `n`th expansion.
    pub fn number(self) -> u32 {
        let code = u32::from(self.0);
        if code < 0xD800 { code } else { code - 0x800 }
    }

    /// Whether this is [`ScopeId::ROOT`].
    pub fn is_root(self) -> bool {
        self == ScopeId::ROOT
    }
}

impl std::fmt::Debug for ScopeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("ScopeId").field(&self.number()).finish()
    }
}

/// The text of a name or a string, shared by its copies (the parser makes
/// one per distinct name of a file). A thin pointer, so that a name is 16
/// bytes and an expression 32; compared, ordered and hashed as its text
/// (equal texts that are one allocation compare by address first). Shared
/// across threads: a large file is parsed on a thread of its own
/// ([`super::parse_ahead`]).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Arc<Box<str>>);

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(Arc::new(Box::from(text)))
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// A name as the program knows it: its text, and the scope that introduced
/// it. Two names are the same name when both are equal.
///
/// Users see the text alone (`Display`); an image spells a name local to an
/// expansion with its scope after a dot ([`Name::image_text`]).
#[derive(Debug, Clone, Eq, PartialOrd, Ord)]
pub struct Name {
    /// The text, as written (shared by every copy of the name).
    pub text: Text,
    /// The scope that introduced it.
    pub scope: ScopeId,
}

impl Name {
    /// A name the user wrote, outside any macro expansion.
    pub fn root(text: &str) -> Name {
        Name {
            text: Text::from(text),
            scope: ScopeId::ROOT,
        }
    }

    /// The name as an image's symbols spell it: the text, then for a name
    /// local to a macro expansion a dot and the expansion's number
    /// (`ready.7`), a name the language can spell.
    pub fn image_text(&self) -> String {
        if self.scope.is_root() {
            self.text.to_string()
        } else {
            format!("{}.{}", self.text, self.scope.number())
        }
    }
}

/// Equal scopes and texts: the scopes compared first (a number; texts
/// that are not one allocation are compared byte by byte).
impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.scope == other.scope && self.text == other.text
    }
}

/// The hash of the text, then of the scope (as derived: equal names hash
/// equally).
impl std::hash::Hash for Name {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
        self.scope.hash(state);
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// A name as written: its text and scope (the [`Name`]), and where.
///
/// The fields are the name's, side by side with the span, so that a
/// statement stays small (see [`Stmt`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The text, as written.
    pub text: Text,
    /// The scope that introduced it.
    pub scope: ScopeId,
    /// Where it was written.
    pub span: Span,
}

impl Ident {
    /// A name, written at `span`.
    pub fn new(name: Name, span: Span) -> Ident {
        Ident {
            text: name.text,
            scope: name.scope,
            span,
        }
    }

    /// The name (sharing its text).
    pub fn name(&self) -> Name {
        Name {
            text: self.text.clone(),
            scope: self.scope,
        }
    }

    /// Gives it another name, keeping where it was written.
    pub fn rename(&mut self, name: Name) {
        self.text = name.text;
        self.scope = name.scope;
    }
}

/// Binary operators of assembly-time expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (rounds toward zero)
    Div,
    /// `%`
    Rem,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `and`
    And,
    /// `or`
    Or,
}

/// An expression: an operand, a literal or an assembly-time computation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    /// A number as written (its sign comes from `Neg`).
    Number(u64),
    /// A string (file names for `image`, bit strings for `bits`).
    Str(Text),
    /// A name: register, label, constant, macro parameter or built-in.
    Name(Name),
    /// `-e`
    Neg(Box<Expr>),
    /// `not e`
    Not(Box<Expr>),
    /// `a OP b` (boxed, so that every expression stays small).
    Binary(Box<(BinOp, Expr, Expr)>),
    /// `[a, b]` or `[a, b | tail]`: the items and the tail (boxed, so
    /// that every expression stays small).
    List(Box<(Vec<Expr>, Option<Expr>)>),
    /// `(a, b, ...)`: two or more elements (`()` is Nil, `(a)` is `a`;
    /// boxed, so that every expression stays small).
    Tuple(Box<Vec<Expr>>),
    /// `Head a b ...`: a constructor or built-in applied to arguments
    /// (boxed, so that every expression stays small).
    Apply(Box<(Ident, Vec<Expr>)>),
    /// `#e`: the constant register that holds the value of `e`.
    Pool(Box<Expr>),
    /// `@i`: register number `i` (a number, a constant's name or an
    /// expression in parentheses), as an operand.
    RegisterIndex(Box<Expr>),
}

impl Expr {
    /// The expressions directly inside this one (an application's head is
    /// a name, not one of them).
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Number(_) | ExprKind::Str(_) | ExprKind::Name(_) => Vec::new(),
            ExprKind::Neg(x)
            | ExprKind::Not(x)
            | ExprKind::Pool(x)
            | ExprKind::RegisterIndex(x) => {
                vec![x]
            }
            ExprKind::Binary(binary) => vec![&binary.1, &binary.2],
            ExprKind::List(list) => list.0.iter().chain(&list.1).collect(),
            ExprKind::Apply(application) => application.1.iter().collect(),
            ExprKind::Tuple(items) => items.iter().collect(),
        }
    }

    /// How many expressions this one is made of (itself included) and how
    /// deep it nests (1 for a number or a name), counted without recursion.
    pub fn shape(&self) -> (usize, usize) {
        self.shape_with(&|_| None)
    }

    /// [`Expr::shape`] of the expression this one becomes when each name
    /// for which `stands_for` gives a shape is replaced by an expression of
    /// that shape (a macro's arguments), without building it.
    pub fn shape_with(
        &self,
        stands_for: &dyn Fn(&Name) -> Option<(usize, usize)>,
    ) -> (usize, usize) {
        // Most operands are a name or a number: answered without the walk
        // (the walk gives the same: the name's shape, or one term one deep).
        match &self.kind {
            ExprKind::Number(_) | ExprKind::Str(_) => return (1, 1),
            ExprKind::Name(n) => return stands_for(n).unwrap_or((1, 1)),
            _ => {}
        }
        let (mut terms, mut deepest) = (0usize, 0usize);
        let mut pending = Vec::new();
        let mut first = Some((self, 1usize));
        while let Some((e, depth)) = first.take().or_else(|| pending.pop()) {
            if let ExprKind::Name(n) = &e.kind
                && let Some((t, d)) = stands_for(n)
            {
                terms = terms.saturating_add(t);
                deepest = deepest.max(depth - 1 + d);
                continue;
            }
            terms = terms.saturating_add(1);
            deepest = deepest.max(depth);
            pending.extend(e.children().into_iter().map(|c| (c, depth + 1)));
        }
        (terms, deepest)
    }

    /// The name, if this expression is just a name.
    pub fn as_name(&self) -> Option<&Name> {
        match &self.kind {
            ExprKind::Name(n) => Some(n),
            _ => None,
        }
    }
}

/// Where a module comes from, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModuleRef {
    /// `std/NAME`
    Std(String),
    /// `"relative/path.cta"`
    File(String),
}

/// One statement (one logical line, or the label in front of one).
///
/// Programs may have millions of statements: expressions are boxed so that
/// every statement costs about as much as the smallest (see the size test).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stmt {
    /// `name:`
    Label(Ident),
    /// An instruction or a macro invocation: `name arg, arg`.
    Op {
        /// The mnemonic or macro name.
        name: Ident,
        /// The operands.
        args: Vec<Expr>,
    },
    /// `reg NAME [@INDEX] [LIMIT | auto] [= VALUE]`
    Reg {
        /// The register's name.
        name: Ident,
        /// An explicit index.
        index: Option<Box<Expr>>,
        /// The limit (`None`: the default; `Some(None)`: `auto`).
        limit: Option<Option<Box<Expr>>>,
        /// Initial contents.
        init: Option<Box<Expr>>,
    },
    /// `resize NAME LIMIT`: a new limit for a declared register.
    Resize {
        /// The register.
        name: Ident,
        /// Its new limit.
        limit: Box<Expr>,
    },
    /// `const NAME = VALUE`
    Const {
        /// The constant.
        name: Ident,
        /// Its value.
        value: Box<Expr>,
    },
    /// `macro NAME [PARAM, ...]` (the body follows, up to `end`; the parser
    /// makes it a [`Node::Macro`]).
    Macro {
        /// The macro.
        name: Ident,
        /// Its parameters.
        params: Vec<Ident>,
    },
    /// `if CONDITION` (the parser makes it a [`Node::If`]).
    If(Box<Expr>),
    /// `else` (part of a [`Node::If`]).
    Else,
    /// `end` (ends a [`Node`] that nests).
    End,
    /// `use MODULE`: read a module once.
    Use(ModuleRef),
    /// `include MODULE`: read a file in place, every time.
    Include(ModuleRef),
    /// `entry LABEL`: where the program starts.
    Entry(Ident),
    /// `callstack STACK, LINK`: the call convention's registers.
    CallStack {
        /// The register holding return continuations.
        stack: Ident,
        /// The scratch register `ret` uses.
        link: Ident,
    },
    /// `block NAME [@INDEX] [LIMIT]`: a register whose code is laid out by
    /// hand (the body follows, up to `end`; the parser makes it a
    /// [`Node::Block`]).
    Block {
        /// The register.
        name: Ident,
        /// An explicit index.
        index: Option<Box<Expr>>,
        /// Its limit (`None`: the size of its code).
        limit: Option<Box<Expr>>,
    },
    /// `tail NAME`: inside a block, the code continues with the contents of
    /// another register.
    Tail(Ident),
}

/// A statement and the span of its whole line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The statement.
    pub stmt: Stmt,
    /// The span of the statement.
    pub span: Span,
}

/// A file as the parser gives it: lines, and what `if`, `macro` and
/// `block` nest up to their `end`.
#[derive(Debug, Clone)]
pub enum Node {
    /// A statement that does not nest (never `if`, `else`, `end`, `macro`
    /// or `block`).
    Line(Line),
    /// `if CONDITION` ... [`else` ...] `end`.
    If {
        /// The condition.
        condition: Box<Expr>,
        /// The span of the `if` line.
        span: Span,
        /// What is assembled when the condition holds.
        then: Body,
        /// What is assembled otherwise.
        otherwise: Body,
    },
    /// `macro NAME [PARAM, ...]` ... `end`.
    Macro {
        /// The macro.
        name: Ident,
        /// Its parameters.
        params: Vec<Ident>,
        /// The span of the `macro` line.
        span: Span,
        /// Its body.
        body: Body,
    },
    /// `block NAME [@INDEX] [LIMIT]` ... `end`.
    Block {
        /// The `block` line (a [`Stmt::Block`]).
        header: Line,
        /// The lines inside.
        body: Body,
    },
}

impl Node {
    /// The bodies nested directly in this node.
    fn bodies_mut(&mut self) -> Vec<&mut Body> {
        match self {
            Node::Line(_) => Vec::new(),
            Node::If {
                then, otherwise, ..
            } => vec![then, otherwise],
            Node::Macro { body, .. } | Node::Block { body, .. } => vec![body],
        }
    }

    /// The bodies nested directly in this node.
    pub fn bodies(&self) -> Vec<&Body> {
        match self {
            Node::Line(_) => Vec::new(),
            Node::If {
                then, otherwise, ..
            } => vec![then, otherwise],
            Node::Macro { body, .. } | Node::Block { body, .. } => vec![body],
        }
    }
}

/// The nodes nested in a [`Node`], shared (a macro's body is not copied to
/// be expanded). Input may nest without bound: a body is dropped with an
/// explicit stack, never by recursion.
#[derive(Debug, Clone, Default)]
pub struct Body(Arc<Vec<Node>>);

impl Body {
    /// A body of these nodes.
    pub fn new(nodes: Vec<Node>) -> Body {
        Body(Arc::new(nodes))
    }
}

impl std::ops::Deref for Body {
    type Target = [Node];

    fn deref(&self) -> &[Node] {
        &self.0
    }
}

impl Drop for Body {
    fn drop(&mut self) {
        let Some(nodes) = Arc::get_mut(&mut self.0) else {
            return;
        };
        let mut pending = std::mem::take(nodes);
        while let Some(mut node) = pending.pop() {
            for body in node.bodies_mut() {
                if let Some(inner) = Arc::get_mut(&mut body.0) {
                    pending.append(inner);
                }
            }
            // `node` goes here, its bodies empty or still shared.
        }
    }
}

/// Words that begin a directive and cannot name an instruction or macro.
pub const KEYWORDS: &[&str] = &[
    "reg",
    "resize",
    "const",
    "macro",
    "if",
    "else",
    "end",
    "use",
    "include",
    "entry",
    "callstack",
    "block",
    "tail",
    "and",
    "or",
    "not",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_keeps_its_number_and_order_past_the_surrogates() {
        let numbers = [
            1,
            2,
            0xD7FF,
            0xD800,
            0xDFFF,
            0xE000,
            crate::asm::macros::MAX_INVOCATIONS,
            ScopeId::MAX,
        ];
        assert_eq!(ScopeId::ROOT.number(), 0);
        assert_eq!(ScopeId::expansion(0).number(), 1);
        let mut previous = ScopeId::ROOT;
        for n in numbers {
            let scope = ScopeId::expansion(n);
            assert_eq!(scope.number(), n);
            assert!(previous < scope, "{previous:?} < {scope:?}");
            previous = scope;
        }
        assert_eq!(ScopeId::expansion(u32::MAX).number(), ScopeId::MAX);
        assert_eq!(
            format!("{:?}", ScopeId::expansion(0xE000)),
            "ScopeId(57344)"
        );
    }

    #[test]
    fn an_expression_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Name>(), 16);
        assert_eq!(std::mem::size_of::<Expr>(), 32);
    }
}

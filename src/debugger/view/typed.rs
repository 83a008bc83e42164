//! Reading a tree as a value of a type the author names: `print moves :
//! [((int, int), int)]` in the debugger, `--show 'moves:[((int, int), int)]'`
//! in `constree exec`.
//!
//! A tree alone does not say what it means (`Cons Nil Nil` is `true`, the
//! list `[0]`, the pair `(0, 0)` and an Int 0 written with a trailing zero
//! bit), so the guesses of `/auto` stop at numbers, commands,
//! lists of numbers and code. An author knows the shape of their data; a
//! type written like the language's literals reads it whole, in the syntax
//! that assembles back to the same tree, and where the tree does not have
//! the shape the error names the path to the part that does not fit
//! (`moves.1.0.~1`, a path `print` accepts).
//!
//! Types: `int`, `bool`, `dir` (a direction), `command`, `instr` (an
//! instruction), `tree` (any tree, in the readable form), `[T]` (a list),
//! `(T1, T2, ...)` (a tuple: nested pairs without a final Nil, as the
//! language and the report encode them), `maybe T`. Each part is read as
//! the engine decodes it (an Int need not be canonical).
//!
//! Bounded: the walk follows the type, lists show at most
//! [`LIST_SHOWN`] elements, the text stops at [`TYPED_CHARS`] characters,
//! and Ints with long spines are not read; work is in proportion to the
//! text shown, whatever the tree's logical size.

use super::path::Step;
use super::{ELEMENT_CHARS, LIST_SHOWN, ViewContext, decode_command, length, small_int};
use crate::asm::show;
use crate::encoding::Decode;
use crate::machine::Instruction;
use crate::tree::Tree;
use crate::world::decode::decode;
use crate::world::{Direction, ObservedAction};
use std::fmt;

/// Characters of a typed reading before it is cut with `…`.
const TYPED_CHARS: usize = 4000;
/// How deeply types may nest (a guard for the parser's recursion).
const TYPE_DEPTH: usize = 32;

/// The type of a value, written as in the language's literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueType {
    /// `int`: the report's Int.
    Int,
    /// `bool`: Nil is false, `Cons Nil Nil` true.
    Bool,
    /// `dir`: a direction, an Int 0..7 (N, NE, E, ...).
    Dir,
    /// `command`: what an output register holds.
    Command,
    /// `instr`: one instruction.
    Instr,
    /// `action`: an action of the input's action list, `(tag, argument)`.
    Action,
    /// `tree`: any tree, shown in the readable form.
    Tree,
    /// `[T]`: a list of T.
    List(Box<ValueType>),
    /// `(T1, ..., Tn)`, n >= 2: `Cons t1 (Cons t2 ... tn)`.
    Tuple(Vec<ValueType>),
    /// `maybe T`: Nil for none, `Cons Nil x` for some x.
    Maybe(Box<ValueType>),
}

impl ValueType {
    /// The words of the type language (for completion).
    pub const WORDS: [&'static str; 8] = [
        "int", "bool", "dir", "command", "instr", "action", "tree", "maybe",
    ];

    /// Parses a type: `int`, `bool`, `dir`, `command`, `instr`, `tree`,
    /// `[T]`, `(T1, T2, ...)`, `maybe T`.
    pub fn parse(text: &str) -> Result<ValueType, TypeError> {
        let text = text.trim();
        let mut parser = TypeParser { text, at: 0 };
        let ty = parser.ty(0)?;
        parser.skip_space();
        if parser.at < text.len() {
            return Err(parser.error("the type ends before it"));
        }
        Ok(ty)
    }
}

impl fmt::Display for ValueType {
    /// The type as it is typed (`[(int, dir)]`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueType::Int => f.write_str("int"),
            ValueType::Bool => f.write_str("bool"),
            ValueType::Dir => f.write_str("dir"),
            ValueType::Command => f.write_str("command"),
            ValueType::Instr => f.write_str("instr"),
            ValueType::Action => f.write_str("action"),
            ValueType::Tree => f.write_str("tree"),
            ValueType::List(t) => write!(f, "[{t}]"),
            ValueType::Tuple(ts) => {
                let parts: Vec<String> = ts.iter().map(ValueType::to_string).collect();
                write!(f, "({})", parts.join(", "))
            }
            ValueType::Maybe(t) => write!(f, "maybe {t}"),
        }
    }
}

/// Why a type does not parse: the type's text, the column (from 1) and
/// the problem there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError {
    /// The type as typed.
    pub text: String,
    /// Where, in characters from 1.
    pub column: usize,
    /// What is wrong there.
    pub problem: TypeProblem,
}

/// What is wrong at a column of a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeProblem {
    /// Something else was expected; what came (`None`: the end).
    Expected {
        /// What should have come.
        expected: &'static str,
        /// What came instead.
        found: Option<char>,
    },
    /// Types nested deeper than [`TYPE_DEPTH`].
    TooDeep,
    /// A word that is no type.
    NotAType(String),
}

/// `in the type `T`, at column N: <problem>` and the list of types.
impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "in the type `{}`, at column {}: ",
            self.text, self.column
        )?;
        match &self.problem {
            TypeProblem::Expected {
                expected,
                found: Some(c),
            } => write!(f, "{expected}, found `{c}`")?,
            TypeProblem::Expected {
                expected,
                found: None,
            } => write!(f, "{expected}, found the end")?,
            TypeProblem::TooDeep => write!(f, "types nest at most {TYPE_DEPTH} deep")?,
            TypeProblem::NotAType(word) => write!(f, "`{word}` is not a type")?,
        }
        write!(
            f,
            " (types: int, bool, dir, command, instr, tree, [T], (T1, T2, ...), maybe T)"
        )
    }
}

/// A part of a value that does not fit the type it is read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The part's path (`moves.1.~1`).
    pub at: String,
    /// What it should have been (`a direction (an Int 0..7)`).
    pub expected: String,
    /// What it is instead (`it is Nil`).
    pub found: String,
}

/// `moves.1.~1 is not a direction (an Int 0..7): it is Nil`.
impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not {}: {}", self.at, self.expected, self.found)
    }
}

/// A recursive-descent parser over the type's text (its depth is bounded
/// by [`TYPE_DEPTH`]).
struct TypeParser<'a> {
    text: &'a str,
    at: usize,
}

impl TypeParser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    /// What was expected here, and what was found instead.
    fn error(&self, expected: &'static str) -> TypeError {
        let found = self.rest().chars().next();
        self.error_here(TypeProblem::Expected { expected, found })
    }

    /// The problem at the parser's column.
    fn error_here(&self, problem: TypeProblem) -> TypeError {
        TypeError {
            text: self.text.to_string(),
            column: self.text[..self.at].chars().count() + 1,
            problem,
        }
    }

    /// Consumes `c` (after spaces) if it comes next.
    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        let found = self.rest().starts_with(c);
        if found {
            self.at += c.len_utf8();
        }
        found
    }

    fn ty(&mut self, depth: usize) -> Result<ValueType, TypeError> {
        if depth > TYPE_DEPTH {
            return Err(self.error_here(TypeProblem::TooDeep));
        }
        if self.eat('[') {
            let element = self.ty(depth + 1)?;
            if !self.eat(']') {
                return Err(self.error("expected `]` to close the list type"));
            }
            return Ok(ValueType::List(Box::new(element)));
        }
        if self.eat('(') {
            let mut parts = vec![self.ty(depth + 1)?];
            while self.eat(',') {
                parts.push(self.ty(depth + 1)?);
            }
            if !self.eat(')') {
                return Err(self.error("expected `,` or `)` in the tuple type"));
            }
            // `(T)` is T, as in the language's literals.
            return Ok(match parts.len() {
                1 => parts.remove(0),
                _ => ValueType::Tuple(parts),
            });
        }
        self.skip_space();
        let word: String = self
            .rest()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let ty = match word.as_str() {
            "int" => ValueType::Int,
            "bool" => ValueType::Bool,
            "dir" => ValueType::Dir,
            "command" => ValueType::Command,
            "instr" => ValueType::Instr,
            "action" => ValueType::Action,
            "tree" => ValueType::Tree,
            "maybe" => {
                self.at += word.len();
                return Ok(ValueType::Maybe(Box::new(self.ty(depth + 1)?)));
            }
            "" => return Err(self.error("expected a type")),
            _ => return Err(self.error_here(TypeProblem::NotAType(word))),
        };
        self.at += word.len();
        Ok(ty)
    }
}

/// The tree read as a value of `ty`, in the language's literal syntax (cut
/// with `…` past [`TYPED_CHARS`]); where a part does not fit the type, an
/// error naming the part's path from `name` (`moves.1.~1`).
pub fn show_as(
    tree: &Tree,
    ty: &ValueType,
    name: &str,
    ctx: &ViewContext,
) -> Result<String, ReadError> {
    let mut reader = Reader {
        out: String::new(),
        chars: 0,
        path: Vec::new(),
        ctx,
    };
    match reader.value(tree, ty) {
        Ok(()) | Err(Stop::Full) => Ok(reader.out),
        Err(Stop::Mismatch(expected, found)) => {
            let path: String = reader.path.iter().map(Step::to_string).collect();
            Err(ReadError {
                at: format!("{name}{path}"),
                expected,
                found,
            })
        }
    }
}

/// Why a reading stopped early.
enum Stop {
    /// The text reached its limit (and ends with `…`).
    Full,
    /// The part at the reader's path is not of the type: what was
    /// expected, and what it is instead (a clause: "it is Nil").
    Mismatch(String, String),
}

struct Reader<'a> {
    out: String,
    /// The characters in `out`.
    chars: usize,
    /// Where the reader is, from the register (kept at the failing part
    /// on a mismatch).
    path: Vec<Step>,
    ctx: &'a ViewContext<'a>,
}

impl Reader<'_> {
    fn push(&mut self, text: &str) -> Result<(), Stop> {
        let room = TYPED_CHARS - self.chars;
        let length = text.chars().count();
        if length > room {
            self.out.extend(text.chars().take(room));
            self.out.push('…');
            return Err(Stop::Full);
        }
        self.out.push_str(text);
        self.chars += length;
        Ok(())
    }

    fn mismatch(expected: &str, tree: &Tree) -> Stop {
        let found = match tree.split() {
            None => "it is Nil".to_string(),
            Some(_) => format!("it is `{}`", tree.readable().limit(ELEMENT_CHARS)),
        };
        Stop::Mismatch(expected.to_string(), found)
    }

    /// Reads `tree` as `ty` at the current path (the path is restored
    /// unless the reading fails).
    fn value(&mut self, tree: &Tree, ty: &ValueType) -> Result<(), Stop> {
        match ty {
            ValueType::Int => {
                let n = small_int(tree).ok_or_else(|| Self::mismatch("an Int", tree))?;
                self.push(&n.to_string())
            }
            ValueType::Bool => {
                let b = bool::decode(tree).ok_or_else(|| Self::mismatch("a bool", tree))?;
                self.push(if b { "true" } else { "false" })
            }
            ValueType::Dir => {
                let d = small_int(tree)
                    .and_then(Direction::from_index)
                    .ok_or_else(|| Self::mismatch("a direction (an Int 0..7)", tree))?;
                self.push(d.name())
            }
            ValueType::Command => {
                let c = decode_command(tree)
                    .map_err(|why| Stop::Mismatch("a command".to_string(), why.to_string()))?;
                self.push(&show::summary(&c))
            }
            ValueType::Instr => {
                let i = (tree.size() <= 1 << 16)
                    .then(|| Instruction::decode(tree))
                    .flatten()
                    .ok_or_else(|| Self::mismatch("an instruction", tree))?;
                self.push(&show::instruction(i, self.ctx.register_names))
            }
            ValueType::Action => {
                let a = decode::<ObservedAction>(tree)
                    .map_err(|_| Self::mismatch("an action (tag, argument)", tree))?;
                self.push(&a.to_string())
            }
            // Whole, up to the room left in the text.
            ValueType::Tree => {
                let room = TYPED_CHARS - self.chars;
                self.push(&tree.readable().limit(room).to_string())
            }
            ValueType::List(element) => self.list(tree, element),
            ValueType::Tuple(parts) => self.tuple(tree, parts),
            ValueType::Maybe(inner) => match tree.split() {
                None => self.push("none"),
                Some((tag, x)) if tag.is_nil() => {
                    self.push("some ")?;
                    self.argument(|reader| reader.within(Step::Back, x, inner))
                }
                Some(_) => Err(Self::mismatch("a maybe (Nil, or Cons Nil x)", tree)),
            },
        }
    }

    /// Reads a constructor's argument, in parentheses when its text is an
    /// application or a negative number (`some (Move N)`, `some (-3)`), as
    /// the language needs it.
    fn argument(&mut self, read: impl FnOnce(&mut Self) -> Result<(), Stop>) -> Result<(), Stop> {
        let start = self.out.len();
        read(self)?;
        let text = &self.out[start..];
        let mut depth = 0i32;
        let spaced = text.chars().any(|c| {
            match c {
                '[' | '(' => depth += 1,
                ']' | ')' => depth -= 1,
                _ => {}
            }
            c == ' ' && depth == 0
        });
        if spaced || text.starts_with('-') {
            self.out.insert(start, '(');
            self.chars += 1;
            self.push(")")?;
        }
        Ok(())
    }

    /// Reads `tree` as `ty` one step further down the path.
    fn within(&mut self, step: Step, tree: &Tree, ty: &ValueType) -> Result<(), Stop> {
        self.path.push(step);
        self.value(tree, ty)?;
        self.path.pop();
        Ok(())
    }

    fn list(&mut self, tree: &Tree, element: &ValueType) -> Result<(), Stop> {
        self.push("[")?;
        let mut rest = tree;
        let mut k = 0;
        while let Some((head, tail)) = rest.split() {
            if k == LIST_SHOWN {
                return self.push(&format!(", … {} more]", length(rest)));
            }
            if k > 0 {
                self.push(", ")?;
            }
            self.within(Step::Element(k), head, element)?;
            rest = tail;
            k += 1;
        }
        self.push("]")
    }

    fn tuple(&mut self, tree: &Tree, parts: &[ValueType]) -> Result<(), Stop> {
        self.push("(")?;
        let mut rest = tree;
        let last = parts.len() - 1;
        for (k, part) in parts[..last].iter().enumerate() {
            let Some((front, back)) = rest.split() else {
                let expected = if k == 0 {
                    format!("a {}-tuple (a cons)", parts.len())
                } else {
                    self.path.push(Step::Tail(k));
                    format!("the rest of a {}-tuple (a cons)", parts.len())
                };
                return Err(Self::mismatch(&expected, rest));
            };
            if k > 0 {
                self.push(", ")?;
            }
            self.within(Step::Element(k), front, part)?;
            rest = back;
        }
        self.push(", ")?;
        self.within(Step::Tail(last), rest, &parts[last])?;
        self.push(")")
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::ctx;
    use super::*;
    use crate::asm::parse_literal;
    use crate::encoding::Encode;

    fn read(literal: &str, ty: &str) -> Result<String, String> {
        let tree = parse_literal(literal).unwrap();
        show_as(&tree, &ValueType::parse(ty).unwrap(), "r", &ctx()).map_err(|e| e.to_string())
    }

    #[test]
    fn types_parse_and_print_back() {
        for text in [
            "int",
            "[(int, dir)]",
            "maybe [bool]",
            "((int, int), int)",
            "[[tree]]",
        ] {
            assert_eq!(ValueType::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(ValueType::parse(" ( int ) ").unwrap(), ValueType::Int);
        assert_eq!(
            ValueType::parse("[ (int ,command) ]").unwrap().to_string(),
            "[(int, command)]"
        );
    }

    #[test]
    fn bad_types_say_where() {
        let cases = [
            ("", "at column 1: expected a type, found the end"),
            (
                "[int",
                "at column 5: expected `]` to close the list type, found the end",
            ),
            (
                "(int int)",
                "at column 6: expected `,` or `)` in the tuple type, found `i`",
            ),
            ("integer", "at column 1: `integer` is not a type"),
            ("int]", "at column 4: the type ends before it, found `]`"),
        ];
        for (text, message) in cases {
            let error = ValueType::parse(text).unwrap_err().to_string();
            assert!(error.contains(message), "{text}: {error}");
        }
        let deep = format!("{}int{}", "[".repeat(100), "]".repeat(100));
        assert!(
            ValueType::parse(&deep)
                .unwrap_err()
                .to_string()
                .contains("at most 32 deep")
        );
    }

    #[test]
    fn values_read_in_the_literal_syntax() {
        let cases = [
            (
                "[((0, 0), 2), ((3, 0), 6)]",
                "[((int, int), int)]",
                "[((0, 0), 2), ((3, 0), 6)]",
            ),
            ("[((0, 0), 2)]", "[((int, int), dir)]", "[((0, 0), E)]"),
            (
                "(true, false, -3)",
                "(bool, bool, int)",
                "(true, false, -3)",
            ),
            ("[some 4, none]", "[maybe int]", "[some 4, none]"),
            ("some (Move N)", "maybe command", "some (Move N)"),
            ("Move NE", "command", "Move NE"),
            ("(1, [[]])", "(int, tree)", "(1, [[]])"),
            // The same tree, four ways.
            ("true", "bool", "true"),
            ("true", "[int]", "[0]"),
            ("true", "(int, int)", "(0, 0)"),
            ("true", "int", "0"),
        ];
        for (literal, ty, shown) in cases {
            assert_eq!(read(literal, ty).unwrap(), shown, "{literal} as {ty}");
        }
    }

    #[test]
    fn a_part_that_does_not_fit_is_named_by_its_path() {
        assert_eq!(
            read("[((0, 0), 2), ((3, 0), 9)]", "[((int, int), dir)]").unwrap_err(),
            "r.1.~1 is not a direction (an Int 0..7): it is `[[[]], [], [], [[]]]`"
        );
        // 1 is `Cons (Cons Nil Nil) Nil`: a pair of Ints 0 and 0.
        assert_eq!(read("[1]", "[(int, int)]").unwrap(), "[(0, 0)]");
        assert_eq!(
            read("[0]", "[(int, int)]").unwrap_err(),
            "r.0 is not a 2-tuple (a cons): it is Nil"
        );
        assert_eq!(
            read("[(1, 0)]", "[(int, int, int)]").unwrap_err(),
            "r.0.~1 is not the rest of a 3-tuple (a cons): it is Nil"
        );
        assert!(read("[[[]]]", "[bool]").is_ok());
        assert!(
            read("[[[], []]]", "[bool]")
                .unwrap_err()
                .starts_with("r.0 is not a bool")
        );
        assert!(
            read("[[[]] | [[]]]", "maybe int")
                .unwrap_err()
                .starts_with("r is not a maybe")
        );
    }

    #[test]
    fn a_tree_reads_whole_up_to_the_limit_of_the_text() {
        let list = |n: usize| Tree::list((0..n).map(|_| Tree::unit()));
        // 300 elements: `[[[]], [[]], ...]`, 1,802 characters.
        let whole = list(300).readable().to_string();
        assert!(whole.len() > 1000);
        let tree = ValueType::Tree;
        assert_eq!(show_as(&list(300), &tree, "r", &ctx()).unwrap(), whole);
        let pair = ValueType::parse("(int, tree)").unwrap();
        let value = Tree::cons(7i64.encode(), list(300));
        assert_eq!(
            show_as(&value, &pair, "r", &ctx()).unwrap(),
            format!("(7, {whole})")
        );
        // 1,000 elements: cut at the limit.
        let shown = show_as(&list(1000), &tree, "r", &ctx()).unwrap();
        assert_eq!(shown.chars().count(), TYPED_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert!(
            list(1000)
                .readable()
                .to_string()
                .starts_with(&shown[..TYPED_CHARS])
        );
    }

    #[test]
    fn long_and_shared_values_stay_bounded() {
        // A list of 2^20 elements shows its first ones and a count.
        let ones = Tree::list((0..1 << 20).map(|_| Tree::unit()));
        let shown = show_as(&ones, &ValueType::parse("[int]").unwrap(), "r", &ctx()).unwrap();
        assert!(
            shown.ends_with(&format!(", … {} more]", (1 << 20) - LIST_SHOWN)),
            "{shown}"
        );
        // A tree doubled 60 times (2^60 conses), read as a list of trees:
        // the text is cut, the work stays small.
        let mut doubled = Tree::unit();
        for _ in 0..60 {
            doubled = Tree::cons(doubled.clone(), doubled);
        }
        let shown = show_as(&doubled, &ValueType::parse("[tree]").unwrap(), "r", &ctx()).unwrap();
        assert_eq!(shown.chars().count(), TYPED_CHARS + 1);
        assert!(shown.ends_with('…'));
    }
}

//! Paths into a register's tree: a register, by name or number, and the
//! steps into its tree (`in.1.0`, `r7.f.b`, `list.a.~2`).

use super::count;
use crate::tree::Tree;
use std::fmt;

/// A register of the machine, by name or number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegisterRef {
    /// Register number N (typed `N` or `rN`).
    Index(usize),
    /// A register name of the program (`in`, `list.a`).
    Name(String),
}

impl fmt::Display for RegisterRef {
    /// `rN` for a number, the name otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterRef::Index(i) => write!(f, "r{i}"),
            RegisterRef::Name(n) => f.write_str(n),
        }
    }
}

/// A step into a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `.N`: element N of a list (the front after N backs); also component
    /// N of a tuple (but the last component of a tuple is a tail: use `~N`).
    Element(usize),
    /// `~N`: the tree after N backs (the last component of an N+1-tuple;
    /// `~0` is the tree itself).
    Tail(usize),
    /// `.f` (also `.front`): the front of a cons.
    Front,
    /// `.b` (also `.back`): the back of a cons.
    Back,
}

impl fmt::Display for Step {
    /// As typed: `.N`, `.~N`, `.f`, `.b`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Element(n) => write!(f, ".{n}"),
            Step::Tail(n) => write!(f, ".~{n}"),
            Step::Front => f.write_str(".f"),
            Step::Back => f.write_str(".b"),
        }
    }
}

/// `REG` followed by steps: `in.1.0` is component 1 of the input tuple,
/// element 0 of that list; `in.~4` is the 5th (last) component of the input
/// 5-tuple (the private input); `r7.f.b` front then back of register 7; `3`
/// or `r3` register 3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// The register the path starts from.
    pub register: RegisterRef,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

impl fmt::Display for Path {
    /// The path as it can be typed again (`in.1.0`, `r7.f.b`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.register)?;
        self.steps.iter().try_for_each(|s| write!(f, "{s}"))
    }
}

/// Parses a path. Register names may contain dots (`list.a`, `int.x`), so
/// the register is the longest prefix, ending before a `.` or `~` (or at
/// the end), that is one of `register_names`: `list.a.0` is register
/// `list.a`, step `.0`. When no prefix is a name, the path must start with
/// a number `N` or `rN`. Steps are `.N`, `.~N` (or `~N`), `.f`, `.front`,
/// `.b`, `.back`.
pub fn parse_path(text: &str, register_names: &[String]) -> Result<Path, PathError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(PathError::Empty);
    }
    let (register, rest) = parse_register(text, register_names)?;
    let steps = parse_steps(rest).map_err(|error| PathError::Step {
        path: text.to_string(),
        error,
    })?;
    Ok(Path { register, steps })
}

/// Why a path does not parse, or cannot be followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// Nothing was typed.
    Empty,
    /// The text starts with no register (`.1`).
    NoRegister(String),
    /// The first word is neither a register's name nor a number.
    NoRegisterNamed(String),
    /// `rN` with N past the index type.
    RegisterTooLarge(String),
    /// A step of the path (the whole path's text) does not parse.
    Step {
        /// The path as typed.
        path: String,
        /// What is wrong with the step.
        error: StepError,
    },
    /// A step met Nil: the path up to that step, the part before it.
    Missing {
        /// The path up to the step that failed (`in.1.3`).
        here: String,
        /// The path before it (`in.1`).
        shown: String,
        /// Why it failed.
        missing: Missing,
    },
}

/// What is wrong with a path's steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// Text that starts with neither `.` nor `~`.
    Expected(String),
    /// A word that is no step.
    NotAStep(String),
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::Expected(at) => write!(f, "expected a step at `{at}`: {PATH_HELP}"),
            StepError::NotAStep(word) => write!(f, "`{word}` is not a step: {PATH_HELP}"),
        }
    }
}

/// Today's texts: `no register named `foo`: give a register ...`,
/// `in.1.3: the list has only 3 elements`.
impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::Empty => write!(f, "empty path: {PATH_HELP}"),
            PathError::NoRegister(text) => write!(f, "`{text}` names no register: {PATH_HELP}"),
            PathError::NoRegisterNamed(name) => {
                write!(f, "no register named `{name}`: {PATH_HELP}")
            }
            PathError::RegisterTooLarge(number) => {
                write!(f, "register number `{number}` is too large")
            }
            PathError::Step { path, error } => write!(f, "`{path}`: {error}"),
            PathError::Missing {
                here,
                shown,
                missing,
            } => match missing {
                Missing::Nil => write!(f, "{here}: {shown} is Nil"),
                Missing::Elements(n) => write!(
                    f,
                    "{here}: the list has only {}",
                    count(*n as u64, "element")
                ),
                Missing::Backs(n) => {
                    write!(
                        f,
                        "{here}: {shown} is Nil after {}",
                        count(*n as u64, "back")
                    )
                }
            },
        }
    }
}

const PATH_HELP: &str = "give a register (its name, its number N or rN) followed by \
    steps: .N (element N), .~N (the tree after N backs), .f (front), .b (back)";

/// The register at the start of a path, and the text of the steps.
fn parse_register<'t>(
    text: &'t str,
    names: &[String],
) -> Result<(RegisterRef, &'t str), PathError> {
    let ends = text
        .char_indices()
        .filter(|&(_, c)| c == '.' || c == '~')
        .map(|(i, _)| i)
        .chain([text.len()]);
    let ends: Vec<usize> = ends.collect();
    if let Some(&end) = ends
        .iter()
        .rev()
        .find(|&&end| names.iter().any(|n| n == &text[..end]))
    {
        return Ok((RegisterRef::Name(text[..end].to_string()), &text[end..]));
    }
    let first = &text[..ends[0]];
    let digits = first.strip_prefix('r').unwrap_or(first);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let index = digits
            .parse()
            .map_err(|_| PathError::RegisterTooLarge(first.to_string()))?;
        return Ok((RegisterRef::Index(index), &text[ends[0]..]));
    }
    if first.is_empty() {
        return Err(PathError::NoRegister(text.to_string()));
    }
    Err(PathError::NoRegisterNamed(first.to_string()))
}

/// The steps of a path (the text after its register, which starts with
/// `.` or `~`).
fn parse_steps(mut text: &str) -> Result<Vec<Step>, StepError> {
    let mut steps = Vec::new();
    while !text.is_empty() {
        let body = match text.strip_prefix('.') {
            Some(body) => body,
            None if text.starts_with('~') => text,
            None => return Err(StepError::Expected(text.to_string())),
        };
        // A step runs to the next separator; its own leading `~` belongs to it.
        let skip = usize::from(body.starts_with('~'));
        let end = body[skip..]
            .find(['.', '~'])
            .map_or(body.len(), |i| i + skip);
        steps.push(parse_step(&body[..end])?);
        text = &body[end..];
    }
    Ok(steps)
}

/// One step without its leading dot: `3`, `~3`, `f`, `front`, `b`, `back`.
fn parse_step(word: &str) -> Result<Step, StepError> {
    let number = |digits: &str| -> Option<usize> {
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())
            .flatten()
    };
    match word {
        "f" | "front" => Ok(Step::Front),
        "b" | "back" => Ok(Step::Back),
        _ => match word.strip_prefix('~') {
            Some(digits) => number(digits).map(Step::Tail),
            None => number(word).map(Step::Element),
        }
        .ok_or_else(|| StepError::NotAStep(word.to_string())),
    }
}

/// Follows the steps from the register's tree. Errors say which step met
/// Nil: `in.1.3: the list has only 3 elements`, `r4.f: r4 is Nil`,
/// `in.~7: in is Nil after 4 backs`.
pub fn follow(tree: &Tree, path: &Path) -> Result<Tree, PathError> {
    let mut current = tree;
    let mut shown = path.register.to_string();
    for step in &path.steps {
        let here = format!("{shown}{step}");
        current = take_step(current, *step).map_err(|missing| PathError::Missing {
            here: here.clone(),
            shown: shown.clone(),
            missing,
        })?;
        shown = here;
    }
    Ok(current.clone())
}

/// The tree the steps lead to from `tree`, if they all can be taken (the
/// quiet form of [`follow`], for tests run before every instruction).
pub fn reach<'t>(tree: &'t Tree, steps: &[Step]) -> Option<&'t Tree> {
    steps
        .iter()
        .try_fold(tree, |t, step| take_step(t, *step).ok())
}

/// Why a step could not be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// The tree is Nil.
    Nil,
    /// The list has only this many elements (at least 1).
    Elements(usize),
    /// The tree is Nil after this many backs (at least 1).
    Backs(usize),
}

fn take_step(tree: &Tree, step: Step) -> Result<&Tree, Missing> {
    match step {
        Step::Front => tree.front().ok_or(Missing::Nil),
        Step::Back => tree.back().ok_or(Missing::Nil),
        Step::Element(n) => backs(tree, n).ok().and_then(Tree::front).ok_or_else(|| {
            match tree.iter_list().take(n).count() {
                0 => Missing::Nil,
                k => Missing::Elements(k),
            }
        }),
        Step::Tail(n) => backs(tree, n).map_err(|k| match k {
            0 => Missing::Nil,
            k => Missing::Backs(k),
        }),
    }
}

/// The tree after `n` backs, or the number of backs taken before Nil.
fn backs(tree: &Tree, n: usize) -> Result<&Tree, usize> {
    let mut t = tree;
    for k in 0..n {
        t = t.back().ok_or(k)?;
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::super::tests::strings;
    use super::*;
    use crate::encoding::Encode;

    fn name(n: &str) -> RegisterRef {
        RegisterRef::Name(n.to_string())
    }

    fn path(register: RegisterRef, steps: &[Step]) -> Path {
        Path {
            register,
            steps: steps.to_vec(),
        }
    }

    #[test]
    fn paths_take_the_longest_register_name() {
        use Step::*;
        let names = strings(&["prog", "in", "out", "list", "list.a", "list.b", "spin.3"]);
        let p = |text: &str| parse_path(text, &names).unwrap();
        assert_eq!(p("in.1.0"), path(name("in"), &[Element(1), Element(0)]));
        assert_eq!(p("in.~4"), path(name("in"), &[Tail(4)]));
        assert_eq!(p("in~4"), path(name("in"), &[Tail(4)]));
        assert_eq!(
            p("in.1~2.f"),
            path(name("in"), &[Element(1), Tail(2), Front])
        );
        assert_eq!(p("list.a.0"), path(name("list.a"), &[Element(0)]));
        assert_eq!(p("list.b.b"), path(name("list.b"), &[Back]));
        assert_eq!(p("list.back"), path(name("list"), &[Back]));
        assert_eq!(p("spin.3.front.back"), path(name("spin.3"), &[Front, Back]));
        assert_eq!(p("r7.f.b"), path(RegisterRef::Index(7), &[Front, Back]));
        assert_eq!(p("3"), path(RegisterRef::Index(3), &[]));
        assert_eq!(p(" r3 "), path(RegisterRef::Index(3), &[]));
        assert_eq!(p("12.~0"), path(RegisterRef::Index(12), &[Tail(0)]));
        // A name wins over the number it looks like.
        let r_names = strings(&["r0", "r1"]);
        assert_eq!(
            parse_path("r1.0", &r_names),
            Ok(path(name("r1"), &[Element(0)]))
        );
        assert_eq!(
            parse_path("r2.0", &[]),
            Ok(path(RegisterRef::Index(2), &[Element(0)]))
        );
        for (text, shown) in [
            ("in.1.0", "in.1.0"),
            ("in~4", "in.~4"),
            ("7.front.back", "r7.f.b"),
            ("list.a.2", "list.a.2"),
        ] {
            assert_eq!(p(text).to_string(), shown);
        }
    }

    #[test]
    fn bad_paths_are_errors() {
        let names = strings(&["in", "list.a"]);
        for bad in [
            "",
            "foo",
            "foo.1",
            "in.",
            "in..1",
            "in.x",
            "in.~",
            "in.~x",
            "in.-1",
            "in.1.",
            "r",
            "rx",
            ".1",
            "~1",
            "in.f b",
            "in .1",
            "list",
            "r99999999999999999999999",
            "in.99999999999999999999999",
        ] {
            assert!(parse_path(bad, &names).is_err(), "{bad:?} parsed");
        }
        assert_eq!(
            parse_path("foo.1", &names).map_err(|e| e.to_string()),
            Err(format!("no register named `foo`: {PATH_HELP}"))
        );
        assert_eq!(
            parse_path("in.x", &names).map_err(|e| e.to_string()),
            Err(format!("`in.x`: `x` is not a step: {PATH_HELP}"))
        );
        assert_eq!(parse_path("  ", &names), Err(PathError::Empty));
    }

    #[test]
    fn follow_says_which_step_met_nil() {
        let list = vec![10i64, 20, 30].encode();
        let input = (2i64, list.clone(), Tree::NIL, Tree::unit(), 1i64).encode();
        let names = strings(&["in"]);
        let at = |text: &str| follow(&input, &parse_path(text, &names).unwrap());
        assert_eq!(at("in.0"), Ok(2i64.encode()));
        assert_eq!(at("in.1.2"), Ok(30i64.encode()));
        assert_eq!(at("in.~4"), Ok(1i64.encode()));
        assert_eq!(at("in.~1.f"), Ok(list));
        assert_eq!(at("in.~0"), Ok(input.clone()));
        assert_eq!(at("in.1.~3"), Ok(Tree::NIL));
        let error = |text: &str| at(text).unwrap_err().to_string();
        assert_eq!(error("in.1.3"), "in.1.3: the list has only 3 elements");
        assert_eq!(error("in.3.1"), "in.3.1: the list has only 1 element");
        assert_eq!(error("in.2.0"), "in.2.0: in.2 is Nil");
        assert_eq!(error("in.2.f"), "in.2.f: in.2 is Nil");
        assert_eq!(error("in.2.b.f"), "in.2.b: in.2 is Nil");
        assert_eq!(error("in.2.~1"), "in.2.~1: in.2 is Nil");
        assert_eq!(error("in.1.~7"), "in.1.~7: in.1 is Nil after 3 backs");
        assert_eq!(error("in.3.~2"), "in.3.~2: in.3 is Nil after 1 back");
        let r4 = path(RegisterRef::Index(4), &[Step::Front]);
        assert_eq!(
            follow(&Tree::NIL, &r4).map_err(|e| e.to_string()),
            Err("r4.f: r4 is Nil".to_string())
        );
        assert_eq!(
            follow(&Tree::NIL, &path(RegisterRef::Index(4), &[])),
            Ok(Tree::NIL)
        );
    }
}

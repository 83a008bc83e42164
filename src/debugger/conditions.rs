//! Conditions of breakpoints and watchpoints: tests over the values of
//! registers and of paths into them, joined by `and` and `or`.
//!
//! ```text
//! COND := TEST (and TEST | or TEST)*      `and` binds tighter than `or`
//! TEST := PATH is nil | PATH is cons
//!       | size(PATH) OP N                 OP: < <= > >= == !=
//!       | PATH == LITERAL | PATH != LITERAL
//!       | PATH OP N                       the path read as an int
//! ```
//!
//! There are no parentheses: a condition is a list of alternatives, each a
//! list of tests, so parsing and testing take no recursion however long it
//! is. A path that does not reach a tree (`in.2.0` of an empty list) fails
//! every test but `!=`.

use super::error::{DebugError, PointError, SelectError};
use super::points::Comparison;
use super::view::{self, RegisterRef, Step};
use crate::encoding::Decode;
use crate::machine::Register;
use crate::tree::Tree;

/// Tests in one condition at most.
pub const MAX_TESTS: usize = 64;

/// A register and the steps into its tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The register's index.
    pub register: usize,
    /// The steps into its tree.
    pub steps: Vec<Step>,
}

impl Place {
    /// Parses `REG.STEPS` against the focused robot's register names.
    pub fn parse(text: &str, names: &[String]) -> Result<Place, DebugError> {
        let path = view::parse_path(text, names)?;
        let register = match &path.register {
            RegisterRef::Index(i) if *i < names.len() => *i,
            RegisterRef::Index(i) => {
                return Err(SelectError::NoRegister {
                    index: *i,
                    count: names.len(),
                }
                .into());
            }
            RegisterRef::Name(n) => names
                .iter()
                .position(|x| x == n)
                .ok_or_else(|| SelectError::UnknownRegister(n.clone()))?,
        };
        Ok(Place {
            register,
            steps: path.steps,
        })
    }

    /// The tree at the place during a run (register 0 lives apart, in
    /// `prog`), if the path reaches one.
    pub fn value<'a>(&self, prog: &'a Tree, memory: &'a [Register]) -> Option<&'a Tree> {
        view::reach(self.register_tree(prog, memory)?, &self.steps)
    }

    /// The whole register the place is in.
    pub fn register_tree<'a>(&self, prog: &'a Tree, memory: &'a [Register]) -> Option<&'a Tree> {
        if self.register == 0 {
            Some(prog)
        } else {
            memory.get(self.register).map(|r| &r.contents)
        }
    }
}

/// One test of a condition.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Test {
    IsNil(Place),
    IsCons(Place),
    Size(Place, Comparison, u64),
    /// `==` (true) or `!=` (false) a value.
    Equals(Place, bool, Tree),
    /// The place read as an int, compared with a number.
    Int(Place, Comparison, i64),
}

impl Test {
    fn parse(text: &str, names: &[String]) -> Result<Test, DebugError> {
        let place = |t: &str| Place::parse(t.trim(), names);
        if let Some(subject) = text.strip_suffix(" is nil") {
            return Ok(Test::IsNil(place(subject)?));
        }
        if let Some(subject) = text.strip_suffix(" is cons") {
            return Ok(Test::IsCons(place(subject)?));
        }
        let Some((left, op, right)) = split_comparison(text) else {
            return Err(PointError::BadTest(text.to_string()).into());
        };
        if let Some(inner) = left.strip_prefix("size(").and_then(|l| l.strip_suffix(')')) {
            let n = right
                .parse::<u64>()
                .map_err(|_| PointError::NotASize(right.to_string()))?;
            return Ok(Test::Size(place(inner)?, op, n));
        }
        let subject = place(left)?;
        if let Ok(n) = right.parse::<i64>() {
            return Ok(Test::Int(subject, op, n));
        }
        let equal = match op {
            Comparison::Equal => true,
            Comparison::NotEqual => false,
            _ => {
                return Err(PointError::NotOrdered(right.to_string()).into());
            }
        };
        let value = crate::asm::parse_literal(right).map_err(|error| PointError::BadValue {
            text: right.to_string(),
            error,
        })?;
        Ok(Test::Equals(subject, equal, value))
    }

    fn holds(&self, prog: &Tree, memory: &[Register]) -> bool {
        match self {
            Test::IsNil(p) => p.value(prog, memory).is_some_and(Tree::is_nil),
            Test::IsCons(p) => p.value(prog, memory).is_some_and(Tree::is_cons),
            Test::Size(p, op, n) => p
                .value(prog, memory)
                .is_some_and(|t| op.holds(t.size(), *n)),
            Test::Equals(p, equal, v) => p.value(prog, memory).is_some_and(|t| t == v) == *equal,
            Test::Int(p, op, n) => p
                .value(prog, memory)
                .and_then(i64::decode)
                .is_some_and(|i| op.holds(i, *n)),
        }
    }
}

/// The operator of a comparison and the text on either side, trimmed.
fn split_comparison(text: &str) -> Option<(&str, Comparison, &str)> {
    // Two-character operators first, so that `<=` is not read as `<`.
    for op in ["<=", ">=", "==", "!=", "<", ">"] {
        if let Some((left, right)) = text.split_once(op) {
            return Some((left.trim(), Comparison::parse(op)?, right.trim()));
        }
    }
    None
}

/// A condition, as typed and as tests: alternatives (`or`) of tests that
/// must all hold (`and`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    /// As typed.
    pub text: String,
    alternatives: Vec<Vec<Test>>,
}

impl Condition {
    /// Parses a condition against the focused robot's register names.
    pub fn parse(text: &str, names: &[String]) -> Result<Condition, DebugError> {
        let text = text.trim();
        let mut alternatives: Vec<Vec<Test>> = vec![Vec::new()];
        let mut tests = 0;
        for (word, part) in connected(text) {
            tests += 1;
            if tests > MAX_TESTS {
                return Err(PointError::TooManyTests(MAX_TESTS).into());
            }
            if part.is_empty() {
                return Err(PointError::MissingTest(text.to_string()).into());
            }
            if word == Some("or") {
                alternatives.push(Vec::new());
            }
            let test = Test::parse(&part, names)?;
            alternatives.last_mut().expect("one at least").push(test);
        }
        Ok(Condition {
            text: text.to_string(),
            alternatives,
        })
    }

    /// Whether it holds during a run.
    pub fn holds(&self, prog: &Tree, memory: &[Register]) -> bool {
        self.alternatives
            .iter()
            .any(|tests| tests.iter().all(|t| t.holds(prog, memory)))
    }
}

/// The tests of a condition, each with the word before it (`and`, `or`;
/// none for the first). Only words outside brackets join tests, so that a
/// value (`[Pass, Pass]`) keeps its own.
fn connected(text: &str) -> Vec<(Option<&'static str>, String)> {
    let mut parts: Vec<(Option<&'static str>, String)> = vec![(None, String::new())];
    let mut depth = 0i64;
    for word in text.split_whitespace() {
        let joins = match word {
            "and" if depth == 0 => Some("and"),
            "or" if depth == 0 => Some("or"),
            _ => None,
        };
        if joins.is_some() {
            parts.push((joins, String::new()));
            continue;
        }
        for c in word.chars() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
        }
        let part = &mut parts.last_mut().expect("one at least").1;
        if !part.is_empty() {
            part.push(' ');
        }
        part.push_str(word);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Register;

    fn names() -> Vec<String> {
        ["prog", "in", "out", "next", "plan"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn memory(values: &[&str]) -> Vec<Register> {
        values
            .iter()
            .map(|v| Register {
                limit: 10_000,
                contents: crate::asm::parse_literal(v).unwrap(),
            })
            .collect()
    }

    fn holds(condition: &str, memory: &[Register]) -> bool {
        let c = Condition::parse(condition, &names()).unwrap();
        c.holds(&Tree::NIL, memory)
    }

    #[test]
    fn tests_read_values_and_paths() {
        let m = memory(&[
            "[]",
            "(0, [[], [1]], 0)",
            "Pass",
            "Move W",
            "[Move W, Pass]",
        ]);
        assert!(holds("next == Move W", &m));
        assert!(!holds("next != Move W", &m));
        assert!(holds("plan.1 == Pass", &m));
        assert!(holds("in.1.1 is cons and in.1.0 is nil", &m));
        assert!(!holds("in.1.0 is cons", &m));
        assert!(holds("in.1.0 is cons or size(plan) > 3", &m));
        assert!(holds("in.0 == 0 and in.0 < 1", &m));
        // `and` binds tighter: false and false or true.
        assert!(holds("out is nil and next is nil or plan is cons", &m));
        // A path that reaches nothing fails the test, but `!=`.
        assert!(!holds("plan.5 is nil", &m));
        assert!(holds("plan.5 != Pass", &m));
        assert!(holds("plan == [Move W, Pass]", &m));
    }

    #[test]
    fn bad_conditions_say_why() {
        for (text, why) in [
            ("next ~ 3", "bad test"),
            ("nothing is nil", "no register named"),
            ("next is nil and", "a test is missing"),
            ("next < Pass", "only == and != compare values"),
            ("size(next) > x", "is not a size"),
        ] {
            let e = Condition::parse(text, &names()).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
        let long = vec!["next is nil"; MAX_TESTS + 1].join(" and ");
        assert!(Condition::parse(&long, &names()).is_err());
    }
}

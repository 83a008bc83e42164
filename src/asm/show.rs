//! Showing trees and code in the language's own syntax: for listings, the
//! disassembler and the debugger.

use crate::encoding::{Decode, Encode};
use crate::machine::Instruction;
use crate::tree::Tree;
use crate::world::{Command, Direction};

/// An instruction with register names (`names[i]` for register `i`, or the
/// number when there is no name).
pub fn instruction(instr: Instruction, names: &[String]) -> String {
    let name = |r: i64| {
        usize::try_from(r)
            .ok()
            .and_then(|i| names.get(i))
            .filter(|n| !n.is_empty())
            .cloned()
            .unwrap_or_else(|| r.to_string())
    };
    match instr {
        Instruction::Nilify(a) => format!("nilify {}", name(a)),
        Instruction::Construct(a, b, c) => {
            format!("construct {}, {}, {}", name(a), name(b), name(c))
        }
        Instruction::Deconstruct(a, b, c) => {
            format!("deconstruct {}, {}, {}", name(a), name(b), name(c))
        }
        Instruction::CopyIfNil(a, b, c) => {
            format!("copyifnil {}, {}, {}", name(a), name(b), name(c))
        }
    }
}

/// The instructions of a code tree, if every element of its list decodes
/// as one.
pub fn code(tree: &Tree) -> Option<Vec<Instruction>> {
    tree.iter_list().map(Instruction::decode).collect()
}

/// More conses than any Int or command without a memory has (an Int has at
/// most 64 bits and a sign; a command one Int or direction and a tag).
pub const LARGEST_SCALAR: u64 = 256;

/// A literal in the language that assembles to exactly this tree, at most
/// about `max` characters (`None` if it would be longer).
///
/// Bounded work: only a small tree is tried as a number or a command, and a
/// tree of more than `max / 2` conses is not looked into further.
pub fn literal(tree: &Tree, max: usize) -> Option<String> {
    if tree.size() <= LARGEST_SCALAR {
        if let Some(n) = canonical_int(tree) {
            return Some(n.to_string());
        }
        if let Some(c) = canonical_command(tree)
            && let Some(text) = command(&c)
        {
            return Some(text);
        }
    }
    if tree.size() > (max as u64) / 2 {
        return None;
    }
    // A list of numbers.
    if let Some(numbers) = tree
        .iter_list()
        .map(canonical_int)
        .collect::<Option<Vec<i64>>>()
    {
        let shown: Vec<String> = numbers
            .iter()
            .map(|n| {
                if *n < 0 {
                    format!("({n})")
                } else {
                    n.to_string()
                }
            })
            .collect();
        return Some(format!("[{}]", shown.join(", ")));
    }
    Some(tree.readable().to_string())
}

/// A command as a literal, for the commands without a memory.
pub fn command(c: &Command) -> Option<String> {
    Some(match c {
        Command::Move(d) => format!("Move {}", d.name()),
        Command::Lift(i) => format!("Lift {}", signed(*i)),
        Command::Drop(i) => format!("Drop {}", signed(*i)),
        Command::Inspect(i) => format!("Inspect {}", signed(*i)),
        Command::Destroy(i) => format!("Destroy {}", signed(*i)),
        Command::Pass => "Pass".to_string(),
        Command::Build(..) => return None,
    })
}

/// A command in one short line: its literal, or for a `Build` the item
/// indices and the number of registers of its memory.
pub fn summary(c: &Command) -> String {
    match c {
        Command::Build(is, m) => format!(
            "Build {} ({} registers)",
            crate::world::Indices(is),
            m.len()
        ),
        other => command(other).unwrap_or_default(),
    }
}

fn signed(n: i64) -> String {
    if n < 0 {
        format!("({n})")
    } else {
        n.to_string()
    }
}

/// A short description of a tree for people: what it reads as (a number,
/// a command, a list of numbers, code), with the other readings when it has
/// several, or the readable form cut at `max` characters. An Int that also
/// reads as a command is a direction too (`int 4 (or direction S, or
/// command Move E)`): directions are Ints, and the command's direction is
/// not the Int's.
pub fn guess(tree: &Tree, max: usize) -> String {
    if tree.is_nil() {
        return "nil".to_string();
    }
    let mut readings = Vec::new();
    let int = canonical_int(tree);
    let as_command = canonical_command(tree);
    if let Some(n) = int {
        readings.push(format!("int {n}"));
        if let Some(d) = Direction::from_index(n).filter(|_| as_command.is_some()) {
            readings.push(format!("direction {}", d.name()));
        }
    }
    if let Some(c) = as_command {
        readings.push(match command(&c) {
            Some(text) => format!("command {text}"),
            None => format!("command Build ({} registers)", build_size(&c)),
        });
    }
    if let Some(numbers) = tree
        .iter_list()
        .map(canonical_int)
        .collect::<Option<Vec<i64>>>()
    {
        let shown: Vec<String> = numbers.iter().take(20).map(i64::to_string).collect();
        let more = if numbers.len() > 20 { ", …" } else { "" };
        readings.push(format!("list [{}{more}]", shown.join(", ")));
    }
    if let Some(instrs) = code(tree) {
        let plural = if instrs.len() == 1 { "" } else { "s" };
        readings.push(format!("code, {} instruction{plural}", instrs.len()));
    }
    if *tree == true.encode() {
        readings.push("true".to_string());
    }
    match readings.len() {
        0 => tree.readable().limit(max).to_string(),
        1 => readings.remove(0),
        _ => {
            let first = readings.remove(0);
            format!("{first} (or {})", readings.join(", or "))
        }
    }
}

fn build_size(c: &Command) -> usize {
    match c {
        Command::Build(_, m) => m.len(),
        _ => 0,
    }
}

/// The Int a tree is the canonical encoding of, if any.
fn canonical_int(tree: &Tree) -> Option<i64> {
    i64::decode(tree).filter(|n| &n.encode() == tree)
}

/// The command a tree is the canonical encoding of, if any.
fn canonical_command(tree: &Tree) -> Option<Command> {
    Command::decode(tree).filter(|c| &c.encode() == tree)
}

/// The kinds of value a literal writes, as far as [`like`] tells them
/// apart.
#[derive(Clone, Copy)]
enum Written<'a> {
    /// `nil`: shown as a tree of nils (`[nil, [nil]]`).
    Nil,
    /// A number.
    Int,
    /// A direction name (an Int 0 to 7).
    Direction,
    /// A command.
    Command,
    /// A list, and its first element's text, if it has one.
    List(Option<&'a str>),
    /// Anything else (a pair, `true`, a constant).
    Other,
}

impl<'a> Written<'a> {
    fn of(text: &'a str) -> Written<'a> {
        let text = text.trim();
        if text == "nil" {
            return Written::Nil;
        }
        if Direction::ALL.iter().any(|d| d.name() == text) {
            return Written::Direction;
        }
        match text.chars().next() {
            Some('[') => Written::List(first_element(&text[1..])),
            Some(c) if c.is_ascii_digit() || c == '-' => Written::Int,
            Some(c) if c.is_ascii_uppercase() => Written::Command,
            _ => Written::Other,
        }
    }

    /// How a description of this kind starts.
    fn label(self) -> &'static str {
        match self {
            Written::Int => "int ",
            Written::Direction => "direction ",
            Written::Command => "command ",
            Written::List(_) => "list ",
            Written::Nil | Written::Other => "",
        }
    }

    /// Whether nil is shown as a number in this kind.
    fn numeric(self) -> bool {
        matches!(self, Written::Int | Written::Direction)
    }
}

/// A description of `tree` in the kind of value `written` (a literal of the
/// language) is: an Int as an Int, a direction as a direction, a command as
/// a command, a list as a list whose elements are shown in the kind of
/// `written`'s first element, nil as a tree of nils; [`guess`] when `tree`
/// is not of that kind (or `written`'s kind is none of these). For a value
/// found where `written` was expected.
pub fn like(tree: &Tree, written: &str, max: usize) -> String {
    let kind = Written::of(written);
    if tree.is_nil() && !kind.numeric() {
        return "nil".to_string();
    }
    match literal_like(tree, kind, max) {
        Some(text) => format!("{}{text}", kind.label()),
        None => guess(tree, max),
    }
}

/// `tree` as a literal of a kind ([`like`]), if it is of that kind and
/// has at most `max` conses.
fn literal_like(tree: &Tree, kind: Written<'_>, max: usize) -> Option<String> {
    if tree.size() > max as u64 {
        return None;
    }
    if tree.is_nil() && !kind.numeric() {
        return Some("nil".to_string());
    }
    match kind {
        Written::Nil => Some(nil_tree(tree)),
        Written::Int => canonical_int(tree).map(|n| n.to_string()),
        Written::Direction => canonical_int(tree)
            .and_then(Direction::from_index)
            .map(|d| d.name().to_string()),
        Written::Command => canonical_command(tree).map(|c| summary(&c)),
        Written::List(first) => {
            let element = first.map_or(Written::Other, Written::of);
            let items = tree
                .iter_list()
                .map(|e| literal_like(e, element, max).or_else(|| literal(e, max)))
                .collect::<Option<Vec<String>>>()?;
            Some(format!("[{}]", items.join(", ")))
        }
        Written::Other => None,
    }
}

/// A tree as lists of nils: `nil`, `[nil]`, `[nil, [nil]]`.
fn nil_tree(tree: &Tree) -> String {
    if tree.is_nil() {
        return "nil".to_string();
    }
    let items: Vec<String> = tree.iter_list().map(nil_tree).collect();
    format!("[{}]", items.join(", "))
}

/// The text of the first element of a list literal whose `[` is cut off:
/// up to the first `,` or `]` outside brackets and parentheses (`None` for
/// an empty list).
fn first_element(inner: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in inner.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' if depth > 0 => depth -= 1,
            ',' | ']' if depth == 0 => {
                let first = inner[..i].trim();
                return (!first.is_empty()).then_some(first);
            }
            _ => {}
        }
    }
    None
}

/// What an output register holds, as the engine reads it: a command, or why
/// it is not one (the engine then takes the robot's action as `Invalid`).
pub fn output(tree: &Tree) -> String {
    match Command::decode(tree) {
        Some(c) => summary(&c),
        None if tree.is_nil() => "nothing (Invalid)".to_string(),
        None => format!("not a command (Invalid): {}", guess(tree, 60)),
    }
}

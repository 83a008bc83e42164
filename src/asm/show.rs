//! Showing trees and code in the language's own syntax: for listings, the
//! disassembler and the debugger.

use crate::encoding::{Decode, Encode};
use crate::machine::Instruction;
use crate::tree::Tree;
use crate::world::Command;

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

/// A literal in the language that assembles to exactly this tree, at most
/// about `max` characters (`None` if it would be longer).
pub fn literal(tree: &Tree, max: usize) -> Option<String> {
    if let Some(n) = i64::decode(tree)
        && &n.encode() == tree
    {
        return Some(n.to_string());
    }
    if let Some(c) = Command::decode(tree)
        && &c.encode() == tree
        && let Some(text) = command(&c)
    {
        return Some(text);
    }
    if tree.size() > (max as u64) / 2 {
        return None;
    }
    // A list of numbers.
    if let Some(numbers) = tree
        .iter_list()
        .map(|t| i64::decode(t).filter(|n| &n.encode() == t))
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
/// several, or the readable form cut at `max` characters.
pub fn guess(tree: &Tree, max: usize) -> String {
    if tree.is_nil() {
        return "nil".to_string();
    }
    let mut readings = Vec::new();
    if let Some(n) = i64::decode(tree)
        && &n.encode() == tree
    {
        readings.push(format!("int {n}"));
    }
    if let Some(c) = Command::decode(tree)
        && &c.encode() == tree
    {
        readings.push(match command(&c) {
            Some(text) => format!("command {text}"),
            None => format!("command Build ({} registers)", build_size(&c)),
        });
    }
    if let Some(numbers) = tree
        .iter_list()
        .map(|t| i64::decode(t).filter(|n| &n.encode() == t))
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

/// What an output register holds, as the engine reads it: a command, or why
/// it is not one (the engine then takes the robot's action as `Invalid`).
pub fn output(tree: &Tree) -> String {
    match Command::decode(tree) {
        Some(c) => summary(&c),
        None if tree.is_nil() => "nothing (Invalid)".to_string(),
        None => format!("not a command (Invalid): {}", guess(tree, 60)),
    }
}

//! Proptest strategies for the report's values, shared by the property
//! tests (`tests/properties.rs`, `tests/asm_literals.rs`).

#![allow(dead_code)]

use constree::machine::{Instruction, Memory, Register};
use constree::tree::Tree;
use constree::world::{Command, Direction};
use proptest::prelude::*;
use std::ops::Range;

/// Trees of Nil and conses, at most `depth` levels deep and of about
/// `size` nodes.
pub fn tree(depth: u32, size: u32) -> impl Strategy<Value = Tree> {
    Just(Tree::NIL).prop_recursive(depth, size, 2, |inner| {
        (inner.clone(), inner).prop_map(|(f, b)| Tree::cons(f, b))
    })
}

/// Registers of any limit whose contents are drawn from `contents`.
pub fn register(contents: impl Strategy<Value = Tree>) -> impl Strategy<Value = Register> {
    (any::<i64>(), contents).prop_map(|(limit, contents)| Register::new(limit, contents))
}

/// Any of the eight directions.
pub fn direction() -> impl Strategy<Value = Direction> {
    (0usize..8).prop_map(|i| Direction::ALL[i])
}

/// Any instruction, with any operands.
pub fn instruction() -> impl Strategy<Value = Instruction> {
    let i = any::<i64>;
    prop_oneof![
        i().prop_map(Instruction::Nilify),
        (i(), i(), i()).prop_map(|(a, b, c)| Instruction::Construct(a, b, c)),
        (i(), i(), i()).prop_map(|(a, b, c)| Instruction::Deconstruct(a, b, c)),
        (i(), i(), i()).prop_map(|(a, b, c)| Instruction::CopyIfNil(a, b, c)),
    ]
}

/// Any command; a `Build` has a number of item indices in `indices` and a
/// memory drawn from `memory`.
pub fn command(
    indices: Range<usize>,
    memory: impl Strategy<Value = Memory>,
) -> impl Strategy<Value = Command> {
    let i = any::<i64>;
    prop_oneof![
        direction().prop_map(Command::Move),
        i().prop_map(Command::Lift),
        i().prop_map(Command::Drop),
        i().prop_map(Command::Inspect),
        i().prop_map(Command::Destroy),
        (prop::collection::vec(i(), indices), memory).prop_map(|(is, m)| Command::Build(is, m)),
        Just(Command::Pass),
    ]
}

//! Commands, which robots leave in their output register.

use super::Direction;
use crate::encoding::{Decode, Encode};
use crate::machine::Memory;
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// What a robot asks to do in the next step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Move to the neighbouring cell in a direction.
    Move(Direction),
    /// Lift the item at an index of the square's item list.
    Lift(i64),
    /// Drop the item at an index of the robot's inventory.
    Drop(i64),
    /// Read the machine of the robot at an index of the square's robot list.
    Inspect(i64),
    /// Destroy the robot at an index.
    Destroy(i64),
    /// Build a robot from the items at these indices, with this memory.
    Build(Vec<i64>, Memory),
    /// Do nothing.
    Pass,
}

/// `(tag, argument)`: `Move d` = `(0, fromEnum d)`, `Lift i` = `(1, i)`,
/// `Drop` 2, `Inspect` 3, `Destroy` 4, `Build is m` = `(5, is, m)`,
/// `Pass` = `(6, Nil)`.
impl Encode for Command {
    fn encode(&self) -> Tree {
        match self {
            Command::Move(d) => (0i64, d).encode(),
            Command::Lift(i) => (1i64, *i).encode(),
            Command::Drop(i) => (2i64, *i).encode(),
            Command::Inspect(i) => (3i64, *i).encode(),
            Command::Destroy(i) => (4i64, *i).encode(),
            Command::Build(is, m) => (5i64, is, m).encode(),
            Command::Pass => (6i64, Tree::NIL).encode(),
        }
    }
}

/// The tag is read as an `Int`; `Pass` needs exactly `Nil` as argument.
impl Decode for Command {
    fn decode(tree: &Tree) -> Option<Self> {
        let (tag, arg) = tree.split()?;
        match i64::decode(tag)? {
            0 => Direction::decode(arg).map(Command::Move),
            1 => i64::decode(arg).map(Command::Lift),
            2 => i64::decode(arg).map(Command::Drop),
            3 => i64::decode(arg).map(Command::Inspect),
            4 => i64::decode(arg).map(Command::Destroy),
            5 => <(Vec<i64>, Memory)>::decode(arg).map(|(is, m)| Command::Build(is, m)),
            6 if arg.is_nil() => Some(Command::Pass),
            _ => None,
        }
    }
}

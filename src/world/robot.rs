//! Robots and the three ways the world touches a robot's machine
//! (the report's "Robot/machine interactions"): it is written when the robot
//! is built ([`Robot::initialize`]), its output register is read and cleared
//! at the start of a step ([`Robot::take_output`]), and its input register is
//! set before it runs ([`Robot::set_input`]).

use super::{Command, Frame, Item, Processor};
use crate::encoding::{Decode, Encode};
use crate::machine::{Memory, Register};
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// Index of the program register.
pub const PROGRAM: usize = 0;
/// Index of the input register.
pub const INPUT: usize = 1;
/// Index of the output register.
pub const OUTPUT: usize = 2;

/// A robot: a frame, what it carries, and its register machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Robot {
    /// Colour and strength.
    pub frame: Frame,
    /// What the robot carries.
    pub inventory: Vec<Item>,
    /// Ticks per step.
    pub processor: Processor,
    /// The registers.
    pub memory: Memory,
}

impl Robot {
    /// The report's `canLift`: strength covers the item plus everything
    /// already carried (weights summed with GHC's wrapping `Int`).
    pub fn can_lift(&self, item: &Item) -> bool {
        let total = self
            .inventory
            .iter()
            .fold(item.weight(), |sum, i| sum.wrapping_add(i.weight()));
        self.frame.strength >= total
    }

    /// The number of shields carried.
    pub fn shields(&self) -> usize {
        self.inventory.iter().filter(|i| i.is_shield()).count()
    }

    /// The report's `initialize`: the robot's own registers (and their
    /// limits) receive the contents of `m`, each forced (too large becomes
    /// Nil). Registers of `m` beyond the robot's are ignored; robot registers
    /// beyond `m` are emptied.
    pub fn initialize(&mut self, m: &[Register]) {
        for (k, register) in self.memory.iter_mut().enumerate() {
            let contents = m.get(k).map(|r| r.contents.clone()).unwrap_or_default();
            register.force(contents);
        }
    }

    /// The report's `takeOutput`: decode the output register as a command and
    /// clear it. A robot without an output register gives no command.
    pub fn take_output(&mut self) -> Option<Command> {
        let output = self.memory.get_mut(OUTPUT)?;
        let command = Command::decode(&output.contents);
        output.force(Tree::NIL);
        command
    }

    /// The report's `setInput`: fit the input into register 1 (trimmed from
    /// the right); a robot without an input register is left alone.
    pub fn set_input(&mut self, input: Tree) {
        if let Some(register) = self.memory.get_mut(INPUT) {
            register.fit_tree(input);
        }
    }
}

/// Only the frame and the inventory are visible: `encode (f, i)`.
impl Encode for Robot {
    fn encode(&self) -> Tree {
        (&self.frame, &self.inventory).encode()
    }
}

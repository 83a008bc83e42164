//! What a robot sees: the input the engine writes into register 1 before the
//! robot runs (the report's `run`: `(index, allRobots, allActions, items,
//! privateInput action)`), as values.
//!
//! The encoding hides things (the report's appendix "Encoding and
//! Decoding"): a robot shows only its frame and inventory
//! ([`ObservedRobot`]), `Passed` and `Invalid` look alike, and `Dropped`,
//! `Inspected` and `Built` hide their item or robot ([`ObservedAction`]).
//! These types are what survives, so that [`decode`](super::decode) can read
//! an input back whole. The words for actions live here too, in one table
//! ([`ActionWords`]) that the engine's own account of an [`Action`] and the
//! debugger's reading of an input share.

use super::action::Indices;
use super::{Action, Direction, Frame, Item, Processor, Robot};
use crate::encoding::Encode;
use crate::machine::Register;
use crate::tree::Tree;
use std::fmt;

/// A robot as the others see it: `encode (Robot f i _ _) = encode (f, i)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObservedRobot {
    /// Colour and strength.
    pub frame: Frame,
    /// What it carries.
    pub inventory: Vec<Item>,
}

impl From<&Robot> for ObservedRobot {
    fn from(robot: &Robot) -> ObservedRobot {
        ObservedRobot {
            frame: robot.frame,
            inventory: robot.inventory.clone(),
        }
    }
}

/// `(frame, inventory)`, as [`Robot`] encodes.
impl Encode for ObservedRobot {
    fn encode(&self) -> Tree {
        (&self.frame, &self.inventory).encode()
    }
}

/// An action as robots see it in their input: the report's `Encodable
/// Action`, one variant per tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObservedAction {
    /// Tag 0: `Passed` or `Invalid` (they encode alike).
    PassedOrInvalid,
    /// Tag 1: `Created`.
    Created,
    /// Tag 2: `MovedOut`.
    MovedOut(Direction),
    /// Tag 3: `MovedIn`.
    MovedIn(Direction),
    /// Tag 4: `MoveBlocked`.
    MoveBlocked(Direction),
    /// Tag 5: `Lifted`.
    Lifted(i64),
    /// Tag 6: `CannotFit`.
    CannotFit(i64),
    /// Tag 7: `GrappledOver`.
    GrappledOver(i64),
    /// Tag 8: `Dropped`, the item hidden.
    Dropped,
    /// Tag 9: `InspectTargetFled`.
    InspectTargetFled(i64),
    /// Tag 10: `InspectBlocked`.
    InspectBlocked(i64),
    /// Tag 11: `Inspected`, the robot hidden.
    Inspected(i64),
    /// Tag 12: `DestroyTargetFled`.
    DestroyTargetFled(i64),
    /// Tag 13: `DestroyBlocked`.
    DestroyBlocked(i64),
    /// Tag 14: `Destroyed`.
    Destroyed(i64),
    /// Tag 15: `Built`, the robot hidden.
    Built(Vec<i64>),
    /// Tag 16: `BuildInterrupted`.
    BuildInterrupted(Vec<i64>),
}

impl ObservedAction {
    /// The tag of `Inspected`.
    pub const INSPECTED: i64 = 11;

    /// The tag: the front of the encoding.
    pub fn tag(&self) -> i64 {
        match self {
            ObservedAction::PassedOrInvalid => 0,
            ObservedAction::Created => 1,
            ObservedAction::MovedOut(_) => 2,
            ObservedAction::MovedIn(_) => 3,
            ObservedAction::MoveBlocked(_) => 4,
            ObservedAction::Lifted(_) => 5,
            ObservedAction::CannotFit(_) => 6,
            ObservedAction::GrappledOver(_) => 7,
            ObservedAction::Dropped => 8,
            ObservedAction::InspectTargetFled(_) => 9,
            ObservedAction::InspectBlocked(_) => 10,
            ObservedAction::Inspected(_) => ObservedAction::INSPECTED,
            ObservedAction::DestroyTargetFled(_) => 12,
            ObservedAction::DestroyBlocked(_) => 13,
            ObservedAction::Destroyed(_) => 14,
            ObservedAction::Built(_) => 15,
            ObservedAction::BuildInterrupted(_) => 16,
        }
    }
}

/// What the encoding keeps of an action.
impl From<&Action> for ObservedAction {
    fn from(action: &Action) -> ObservedAction {
        match action {
            Action::Passed | Action::Invalid => ObservedAction::PassedOrInvalid,
            Action::Created => ObservedAction::Created,
            Action::MovedOut(d) => ObservedAction::MovedOut(*d),
            Action::MovedIn(d) => ObservedAction::MovedIn(*d),
            Action::MoveBlocked(d) => ObservedAction::MoveBlocked(*d),
            Action::Lifted(i) => ObservedAction::Lifted(*i),
            Action::CannotFit(i) => ObservedAction::CannotFit(*i),
            Action::GrappledOver(i) => ObservedAction::GrappledOver(*i),
            Action::Dropped(_) => ObservedAction::Dropped,
            Action::InspectTargetFled(i) => ObservedAction::InspectTargetFled(*i),
            Action::InspectBlocked(i) => ObservedAction::InspectBlocked(*i),
            Action::Inspected(i, _) => ObservedAction::Inspected(*i),
            Action::DestroyTargetFled(i) => ObservedAction::DestroyTargetFled(*i),
            Action::DestroyBlocked(i) => ObservedAction::DestroyBlocked(*i),
            Action::Destroyed(i) => ObservedAction::Destroyed(*i),
            Action::Built(is, _) => ObservedAction::Built(is.clone()),
            Action::BuildInterrupted(is) => ObservedAction::BuildInterrupted(is.clone()),
        }
    }
}

/// `(tag, argument)`, exactly as [`Action`] encodes.
impl Encode for ObservedAction {
    fn encode(&self) -> Tree {
        let tag = self.tag();
        match self {
            ObservedAction::PassedOrInvalid | ObservedAction::Created | ObservedAction::Dropped => {
                (tag, Tree::NIL).encode()
            }
            ObservedAction::MovedOut(d)
            | ObservedAction::MovedIn(d)
            | ObservedAction::MoveBlocked(d) => (tag, d).encode(),
            ObservedAction::Lifted(i)
            | ObservedAction::CannotFit(i)
            | ObservedAction::GrappledOver(i)
            | ObservedAction::InspectTargetFled(i)
            | ObservedAction::InspectBlocked(i)
            | ObservedAction::Inspected(i)
            | ObservedAction::DestroyTargetFled(i)
            | ObservedAction::DestroyBlocked(i)
            | ObservedAction::Destroyed(i) => (tag, *i).encode(),
            ObservedAction::Built(is) | ObservedAction::BuildInterrupted(is) => (tag, is).encode(),
        }
    }
}

/// What is known of an action beyond what robots see: the engine knows it
/// all, a robot knows whether its own Passed was an Invalid.
#[derive(Debug, Clone, Copy, Default)]
pub enum Detail<'a> {
    /// Nothing more than the input shows.
    #[default]
    Unknown,
    /// Tag 0 was a `Passed`.
    Passed,
    /// Tag 0 was an `Invalid`.
    Invalid,
    /// The item dropped.
    Dropped(&'a Item),
    /// The robot inspected or built.
    Robot(&'a Robot),
}

/// The words for an action: the one table of action texts. `moved out N`,
/// `lifted item 2`, `destroyed robot 1`, `built a GRN robot from items [0,
/// 1, ..., 16]`; what [`Detail`] does not tell is left out (`passed or
/// invalid`, `dropped an item`, `built a robot from items [0, 2]`).
pub struct ActionWords<'a> {
    /// The action as robots see it.
    pub action: &'a ObservedAction,
    /// What more is known.
    pub detail: Detail<'a>,
}

impl fmt::Display for ActionWords<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ObservedAction as A;
        match (self.action, self.detail) {
            (A::PassedOrInvalid, Detail::Passed) => write!(f, "passed"),
            (A::PassedOrInvalid, Detail::Invalid) => write!(f, "invalid command"),
            (A::PassedOrInvalid, _) => write!(f, "passed or invalid"),
            (A::Created, _) => write!(f, "created"),
            (A::MovedOut(d), _) => write!(f, "moved out {}", d.name()),
            (A::MovedIn(d), _) => write!(f, "moved in from {}", d.name()),
            (A::MoveBlocked(d), _) => write!(f, "move {} blocked by a wall", d.name()),
            (A::Lifted(i), _) => write!(f, "lifted item {i}"),
            (A::CannotFit(i), _) => write!(f, "too weak to lift item {i}"),
            (A::GrappledOver(i), _) => write!(f, "grappled over item {i}"),
            (A::Dropped, Detail::Dropped(item)) => write!(f, "dropped {item}"),
            (A::Dropped, _) => write!(f, "dropped an item"),
            (A::InspectTargetFled(i), _) => write!(f, "inspect: robot {i} fled"),
            (A::InspectBlocked(i), _) => write!(f, "inspect: robot {i}'s shields held"),
            (A::Inspected(i), Detail::Robot(r)) => write!(
                f,
                "inspected robot {i} ({} frame, {} registers)",
                r.frame.color.code(),
                r.memory.len()
            ),
            (A::Inspected(i), _) => write!(f, "inspected robot {i}"),
            (A::DestroyTargetFled(i), _) => write!(f, "destroy: robot {i} fled"),
            (A::DestroyBlocked(i), _) => write!(f, "destroy: robot {i}'s shields held"),
            (A::Destroyed(i), _) => write!(f, "destroyed robot {i}"),
            (A::Built(is), Detail::Robot(r)) => write!(
                f,
                "built a {} robot from items {}",
                r.frame.color.code(),
                Indices(is)
            ),
            (A::Built(is), _) => write!(f, "built a robot from items {}", Indices(is)),
            (A::BuildInterrupted(is), _) => {
                write!(f, "build interrupted over items {}", Indices(is))
            }
        }
    }
}

/// The words robots could say: what the input shows and nothing more.
impl fmt::Display for ObservedAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = ActionWords {
            action: self,
            detail: Detail::Unknown,
        };
        words.fmt(f)
    }
}

/// A destroyed robot's items in the input: its parts (the report's
/// `shatter`) and what it carried, shields left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallen {
    /// Frame, processor and emptied registers.
    pub parts: Vec<Item>,
    /// What it carried, without its shields.
    pub carried: Vec<Item>,
}

/// `(parts, carried)`.
impl Encode for Fallen {
    fn encode(&self) -> Tree {
        (&self.parts, &self.carried).encode()
    }
}

/// The items of the input, in three groups: `(unaffected, dropped,
/// fallen)`. The next step's item list is their concatenation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputItems {
    /// The square's items nobody lifted or built with.
    pub unaffected: Vec<Item>,
    /// The items robots dropped.
    pub dropped: Vec<Item>,
    /// The items of each destroyed robot.
    pub fallen: Vec<Fallen>,
}

/// `(unaffected, dropped, fallen)`.
impl Encode for InputItems {
    fn encode(&self) -> Tree {
        (&self.unaffected, &self.dropped, &self.fallen).encode()
    }
}

/// The private part of the input (the report's `privateInput`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Private {
    /// `0`: nothing to report.
    Nothing,
    /// `1`: the robot's last command was invalid.
    Invalid,
    /// After a successful `Inspect`: the inspected robot's `(processor,
    /// number of registers, registers)`.
    Inspection {
        /// Its processor.
        processor: Processor,
        /// The number of its registers.
        count: i64,
        /// Its registers.
        memory: Vec<Register>,
    },
}

/// `0`, `1` or `(processor, count, memory)`.
impl Encode for Private {
    fn encode(&self) -> Tree {
        match self {
            Private::Nothing => 0i64.encode(),
            Private::Invalid => 1i64.encode(),
            Private::Inspection {
                processor,
                count,
                memory,
            } => (processor, *count, memory).encode(),
        }
    }
}

/// A robot's input: the 5-tuple `(index, robots, actions, items, private)`
/// the engine writes into register 1 (before trimming it to the register's
/// limit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The robot's own index in `robots` and `actions`.
    pub index: i64,
    /// Every robot of the square this step: those that stayed, those that
    /// arrived, those that were built.
    pub robots: Vec<ObservedRobot>,
    /// Their actions, in the same order.
    pub actions: Vec<ObservedAction>,
    /// The square's items.
    pub items: InputItems,
    /// What only this robot sees.
    pub private: Private,
}

/// `(index, robots, actions, items, private)`, with no terminal Nil.
impl Encode for Input {
    fn encode(&self) -> Tree {
        (
            self.index,
            &self.robots,
            &self.actions,
            &self.items,
            &self.private,
        )
            .encode()
    }
}

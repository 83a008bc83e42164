//! Actions: what robots actually did in a step.

use super::observed::{ActionWords, Detail, ObservedAction};
use super::{Direction, Item, Robot};
use crate::encoding::Encode;
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// The outcome of a robot's command (or of its arrival or creation).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Built in this square this step.
    Created,
    /// Did nothing, as asked.
    Passed,
    /// Tried to move into a wall.
    MoveBlocked(Direction),
    /// Left the square.
    MovedOut(Direction),
    /// Arrived from the neighbour in this direction.
    MovedIn(Direction),
    /// Too weak to lift the item.
    CannotFit(i64),
    /// Another robot wanted the same item.
    GrappledOver(i64),
    /// Lifted the item.
    Lifted(i64),
    /// Dropped this item.
    Dropped(Item),
    /// The inspected robot moved away.
    InspectTargetFled(i64),
    /// The inspected robot's shields held.
    InspectBlocked(i64),
    /// Read the robot's machine.
    Inspected(i64, Robot),
    /// The target moved away.
    DestroyTargetFled(i64),
    /// The target's shields held.
    DestroyBlocked(i64),
    /// Destroyed the robot.
    Destroyed(i64),
    /// Another robot wanted one of the parts.
    BuildInterrupted(Vec<i64>),
    /// Built this robot.
    Built(Vec<i64>, Robot),
    /// The command could not be decoded or made no sense.
    Invalid,
}

/// A readable one-line account: `moved out N`, `lifted item 2`,
/// `destroyed robot 1`, `built a GRN robot from items [0, 2, 3]`, from the
/// one table of action texts ([`ActionWords`]). Robots carried by
/// `Inspected` and `Built` are named by their frame, not printed whole.
impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let detail = match self {
            Action::Passed => Detail::Passed,
            Action::Invalid => Detail::Invalid,
            Action::Dropped(item) => Detail::Dropped(item),
            Action::Inspected(_, r) | Action::Built(_, r) => Detail::Robot(r),
            _ => Detail::Unknown,
        };
        let action = ObservedAction::from(self);
        ActionWords {
            action: &action,
            detail,
        }
        .fmt(f)
    }
}

/// `(tag, argument)` as in the report's table. `Passed` and `Invalid` encode
/// alike (`(0, Nil)`), and `Dropped`, `Inspected` and `Built` hide their item
/// or robot.
impl Encode for Action {
    fn encode(&self) -> Tree {
        let nil = Tree::NIL;
        match self {
            Action::Passed | Action::Invalid => (0i64, nil).encode(),
            Action::Created => (1i64, nil).encode(),
            Action::MovedOut(d) => (2i64, d).encode(),
            Action::MovedIn(d) => (3i64, d).encode(),
            Action::MoveBlocked(d) => (4i64, d).encode(),
            Action::Lifted(i) => (5i64, *i).encode(),
            Action::CannotFit(i) => (6i64, *i).encode(),
            Action::GrappledOver(i) => (7i64, *i).encode(),
            Action::Dropped(_) => (8i64, nil).encode(),
            Action::InspectTargetFled(i) => (9i64, *i).encode(),
            Action::InspectBlocked(i) => (10i64, *i).encode(),
            Action::Inspected(i, _) => (11i64, *i).encode(),
            Action::DestroyTargetFled(i) => (12i64, *i).encode(),
            Action::DestroyBlocked(i) => (13i64, *i).encode(),
            Action::Destroyed(i) => (14i64, *i).encode(),
            Action::Built(is, _) => (15i64, is).encode(),
            Action::BuildInterrupted(is) => (16i64, is).encode(),
        }
    }
}

/// A list of item indices for people: `[0, 1, 2]`, a long run of
/// consecutive indices shortened to `[0, 1, ..., 130]`, and at most
/// [`Indices::SHOWN`] of any other list (`[4, 0, …]`).
pub struct Indices<'a>(pub &'a [i64]);

impl Indices<'_> {
    /// The most indices written out.
    pub const SHOWN: usize = 50;
}

impl std::fmt::Display for Indices<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let is = self.0;
        let run = is.len() > 4 && is.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]));
        match (run, is.first(), is.last()) {
            (true, Some(a), Some(b)) => write!(f, "[{a}, {}, ..., {b}]", a + 1),
            _ => {
                let shown: Vec<String> = is.iter().take(Self::SHOWN).map(i64::to_string).collect();
                let more = if is.len() > Self::SHOWN { ", …" } else { "" };
                write!(f, "[{}{more}]", shown.join(", "))
            }
        }
    }
}

//! Actions: what robots actually did in a step.

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
/// `destroyed robot 1`, `built robot from items [0, 2, 3]`. Robots carried
/// by `Inspected` and `Built` are named by their frame, not printed whole.
impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Created => write!(f, "created"),
            Action::Passed => write!(f, "passed"),
            Action::MoveBlocked(d) => write!(f, "move {d:?} blocked by a wall"),
            Action::MovedOut(d) => write!(f, "moved out {d:?}"),
            Action::MovedIn(d) => write!(f, "moved in from {d:?}"),
            Action::CannotFit(i) => write!(f, "too weak to lift item {i}"),
            Action::GrappledOver(i) => write!(f, "grappled over item {i}"),
            Action::Lifted(i) => write!(f, "lifted item {i}"),
            Action::Dropped(item) => write!(f, "dropped {item}"),
            Action::InspectTargetFled(i) => write!(f, "inspect: robot {i} fled"),
            Action::InspectBlocked(i) => write!(f, "inspect: robot {i}'s shields held"),
            Action::Inspected(i, r) => write!(
                f,
                "inspected robot {i} ({} frame, {} registers)",
                r.frame.color.code(),
                r.memory.len()
            ),
            Action::DestroyTargetFled(i) => write!(f, "destroy: robot {i} fled"),
            Action::DestroyBlocked(i) => write!(f, "destroy: robot {i}'s shields held"),
            Action::Destroyed(i) => write!(f, "destroyed robot {i}"),
            Action::BuildInterrupted(is) => {
                write!(f, "build interrupted over items {}", Indices(is))
            }
            Action::Built(is, r) => write!(
                f,
                "built a {} robot from items {}",
                r.frame.color.code(),
                Indices(is)
            ),
            Action::Invalid => write!(f, "invalid command"),
        }
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

/// A list of item indices for people: `[0, 1, 2]`, and a long run of
/// consecutive indices shortened to `[0, 1, ..., 130]`.
pub struct Indices<'a>(pub &'a [i64]);

impl std::fmt::Display for Indices<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let is = self.0;
        let run = is.len() > 4 && is.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]));
        match (run, is.first(), is.last()) {
            (true, Some(a), Some(b)) => write!(f, "[{a}, {}, ..., {b}]", a + 1),
            _ => write!(f, "{is:?}"),
        }
    }
}

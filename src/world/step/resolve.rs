//! The report's `resolve`: from a robot's command to the action it takes.

use super::conflicts::Conflicts;
use super::{Openings, TakenSquare, fled, nth};
use crate::world::item::construct;
use crate::world::{Action, Command};

/// The action of the robot at `index` of a square.
pub fn resolve(here: &TakenSquare, open: &Openings, conflicts: &Conflicts, index: usize) -> Action {
    let robot = &here.robots[index];
    let Some(command) = &here.intents[index] else {
        // Output that does not decode is an invalid command.
        return Action::Invalid;
    };
    match command {
        // A move fails only into a wall.
        Command::Move(d) => {
            if open[d.index()] {
                Action::MovedOut(*d)
            } else {
                Action::MoveBlocked(*d)
            }
        }
        // Out of range: invalid; contested: grappled over; too heavy: cannot
        // fit. (`itemTargets` is indexed by request order; see `Conflicts`.)
        Command::Lift(i) => match nth(&conflicts.targets, *i) {
            None => Action::Invalid,
            Some(None) => Action::GrappledOver(*i),
            Some(Some(k)) if robot.can_lift(&here.items[*k]) => Action::Lifted(*i),
            Some(Some(_)) => Action::CannotFit(*i),
        },
        // A drop succeeds whenever the robot has the item.
        Command::Drop(i) => {
            nth(&robot.inventory, *i).map_or(Action::Invalid, |item| Action::Dropped(item.clone()))
        }
        // No such robot: invalid; it moved away: fled; shields: blocked.
        Command::Inspect(i) => match nth(&here.robots, *i) {
            None => Action::Invalid,
            Some(_) if fled(here.intents[*i as usize].as_ref(), open) => {
                Action::InspectTargetFled(*i)
            }
            Some(_) if conflicts.shielded[*i as usize] => Action::InspectBlocked(*i),
            Some(target) => Action::Inspected(*i, target.clone()),
        },
        // Robots can destroy themselves.
        Command::Destroy(i) => match nth(&here.robots, *i) {
            None => Action::Invalid,
            Some(_) if fled(here.intents[*i as usize].as_ref(), open) => {
                Action::DestroyTargetFled(*i)
            }
            Some(_) if conflicts.shielded[*i as usize] => Action::DestroyBlocked(*i),
            Some(_) => Action::Destroyed(*i),
        },
        // Every index must name a target, none contested, and the parts must
        // make a robot; the child's machine is initialised from `m`.
        Command::Build(is, m) => {
            let Some(parts) = is
                .iter()
                .map(|&i| nth(&conflicts.targets, i).copied())
                .collect::<Option<Vec<_>>>()
            else {
                return Action::Invalid;
            };
            let Some(parts) = parts.into_iter().collect::<Option<Vec<usize>>>() else {
                return Action::BuildInterrupted(is.clone());
            };
            match construct(parts.iter().map(|&k| &here.items[k])) {
                None => Action::Invalid,
                Some(mut child) => {
                    child.initialize(m);
                    Action::Built(is.clone(), child)
                }
            }
        }
        Command::Pass => Action::Passed,
    }
}

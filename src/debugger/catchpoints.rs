//! Event catchpoints: stop when something happens to a robot (it is
//! destroyed, inspected, builds a child, lifts or drops an item) or when it
//! gives a command or takes an action of a kind.
//!
//! The events are read from the engine's own account of a step
//! ([`StepReport::began`]: the command and the action of every robot that
//! began the step in each square, the report's `localActions`), so they are
//! the report's: a robot is destroyed when another robot's action in its
//! square is `Destroyed` with its index, inspected when one is `Inspected`
//! with it, and a child starts running in the step its parent's action is
//! `Built` (children run their machines in the step they are built).
//! A catchpoint is tested as each step begins, after the engine's phases:
//! a run stops at the step's tick 0 (or after the step, when the focused
//! robot is gone).

use super::error::PointError;
use super::points::Settings;
use super::session::{Place, Session};
use crate::world::{Action, Command, StepReport};

/// What a catchpoint looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Happening {
    /// The robot is destroyed.
    Destroyed,
    /// Another robot (or itself) reads its machine.
    Inspected,
    /// It builds a child (whose machine starts running in the step).
    Built,
    /// It lifts an item.
    Lifted,
    /// It drops an item.
    Dropped,
    /// It gives a command of this kind ([`COMMAND_KINDS`]).
    Command(&'static str),
    /// It takes an action of this kind ([`ACTION_KINDS`]).
    Action(&'static str),
}

/// The kinds `catch command` takes: the report's commands, and `invalid`
/// for an output that is no command.
pub const COMMAND_KINDS: &[&str] = &[
    "move", "lift", "drop", "inspect", "destroy", "build", "pass", "invalid",
];

/// The kinds `catch action` takes: the report's actions.
pub const ACTION_KINDS: &[&str] = &[
    "created",
    "passed",
    "move-blocked",
    "moved-out",
    "moved-in",
    "cannot-fit",
    "grappled-over",
    "lifted",
    "dropped",
    "inspect-fled",
    "inspect-blocked",
    "inspected",
    "destroy-fled",
    "destroy-blocked",
    "destroyed",
    "build-interrupted",
    "built",
    "invalid",
];

/// A command's kind, as `catch command` names it.
fn command_kind(command: Option<&Command>) -> &'static str {
    match command {
        Some(Command::Move(_)) => "move",
        Some(Command::Lift(_)) => "lift",
        Some(Command::Drop(_)) => "drop",
        Some(Command::Inspect(_)) => "inspect",
        Some(Command::Destroy(_)) => "destroy",
        Some(Command::Build(..)) => "build",
        Some(Command::Pass) => "pass",
        None => "invalid",
    }
}

/// An action's kind, as `catch action` names it.
fn action_kind(action: &Action) -> &'static str {
    match action {
        Action::Created => "created",
        Action::Passed => "passed",
        Action::MoveBlocked(_) => "move-blocked",
        Action::MovedOut(_) => "moved-out",
        Action::MovedIn(_) => "moved-in",
        Action::CannotFit(_) => "cannot-fit",
        Action::GrappledOver(_) => "grappled-over",
        Action::Lifted(_) => "lifted",
        Action::Dropped(_) => "dropped",
        Action::InspectTargetFled(_) => "inspect-fled",
        Action::InspectBlocked(_) => "inspect-blocked",
        Action::Inspected(..) => "inspected",
        Action::DestroyTargetFled(_) => "destroy-fled",
        Action::DestroyBlocked(_) => "destroy-blocked",
        Action::Destroyed(_) => "destroyed",
        Action::BuildInterrupted(_) => "build-interrupted",
        Action::Built(..) => "built",
        Action::Invalid => "invalid",
    }
}

impl Happening {
    /// Parses `destroyed`, `command move`, `action moved-out`, ...
    pub fn parse(words: &[&str]) -> Result<Happening, PointError> {
        let kind = |kinds: &'static [&'static str], what: &'static str, word: Option<&&str>| {
            let Some(word) = word else {
                return Err(PointError::CatchKind { what, kinds });
            };
            kinds
                .iter()
                .find(|k| *k == word)
                .copied()
                .ok_or_else(|| PointError::NoKind {
                    what,
                    word: word.to_string(),
                    kinds,
                })
        };
        let (happening, used) = match words.first().copied() {
            Some("destroyed") => (Happening::Destroyed, 1),
            Some("inspected") => (Happening::Inspected, 1),
            Some("built") => (Happening::Built, 1),
            Some("lifted") => (Happening::Lifted, 1),
            Some("dropped") => (Happening::Dropped, 1),
            Some("command") => (
                Happening::Command(kind(COMMAND_KINDS, "command", words.get(1))?),
                2,
            ),
            Some("action") => (
                Happening::Action(kind(ACTION_KINDS, "action", words.get(1))?),
                2,
            ),
            _ => return Err(PointError::CatchUsage),
        };
        if let Some(extra) = words.get(used) {
            return Err(PointError::CatchExtra(extra.to_string()));
        }
        Ok(happening)
    }
}

impl std::fmt::Display for Happening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Happening::Destroyed => f.write_str("destroyed"),
            Happening::Inspected => f.write_str("inspected"),
            Happening::Built => f.write_str("built"),
            Happening::Lifted => f.write_str("lifted"),
            Happening::Dropped => f.write_str("dropped"),
            Happening::Command(k) => write!(f, "command {k}"),
            Happening::Action(k) => write!(f, "action {k}"),
        }
    }
}

/// How `catch` is used.
pub(crate) const CATCH_HELP: &str = "catch destroyed | inspected | built | lifted | dropped \
    | command KIND | action KIND, then `any` for any robot";

/// A catchpoint.
#[derive(Debug, Clone)]
pub struct Catchpoint {
    /// Its number.
    pub id: usize,
    /// What it looks for.
    pub happening: Happening,
    /// For any robot, not only the focused one.
    pub any: bool,
    /// Condition (over the focused robot's registers), ignore count,
    /// commands.
    pub settings: Settings,
}

impl Catchpoint {
    /// Parses `catch`'s arguments: `HAPPENING [any]`.
    pub fn parse(args: &str) -> Result<(Happening, bool), PointError> {
        let mut words: Vec<&str> = args.split_whitespace().collect();
        let any = words.last() == Some(&"any");
        if any {
            words.pop();
        }
        Ok((Happening::parse(&words)?, any))
    }

    /// What it looks for, as `info breakpoints` shows it.
    pub fn what(&self) -> String {
        let whose = if self.any {
            "any robot"
        } else {
            "the focused robot"
        };
        format!("{} ({whose})", self.happening)
    }
}

/// Something that happened to a robot (by its place as the step began)
/// in a step, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The robot's place as the step began.
    pub robot: Place,
    /// What happened.
    pub happening: Happening,
    /// What the report says of it, without the robot's name.
    pub text: String,
}

/// Every occurrence of `happening` in the step `report` tells of; robots
/// named by `name` (a place as the step began, or one after it).
pub fn occurrences(
    report: &StepReport,
    happening: Happening,
    name: &dyn Fn(Place, bool) -> String,
) -> Vec<Occurrence> {
    let mut found = Vec::new();
    for (cell, began) in report.began.iter().enumerate() {
        for (k, (command, action)) in began.iter().enumerate() {
            let me = (cell, k);
            let mut add = |robot: Place, text: String| {
                found.push(Occurrence {
                    robot,
                    happening,
                    text,
                });
            };
            match (happening, action) {
                (Happening::Command(kind), _) if command_kind(command.as_ref()) == kind => {
                    let given = command.as_ref().map_or_else(
                        || "no command".to_string(),
                        |c| format!("the command {}", crate::asm::show::summary(c)),
                    );
                    add(me, format!("gave {given} ({action})"));
                }
                (Happening::Action(kind), _) if action_kind(action) == kind => {
                    add(me, format!("took the action: {action}"));
                }
                (Happening::Lifted, Action::Lifted(_))
                | (Happening::Dropped, Action::Dropped(_)) => {
                    add(me, format!("{action}"));
                }
                (Happening::Inspected, Action::Inspected(i, _)) => {
                    add(
                        (cell, *i as usize),
                        format!("was inspected by {}", name(me, false)),
                    );
                }
                (Happening::Destroyed, Action::Destroyed(i)) => {
                    add(
                        (cell, *i as usize),
                        format!("was destroyed by {}", name(me, false)),
                    );
                }
                (Happening::Built, Action::Built(..)) => {
                    let child = report.cells[cell]
                        .iter()
                        .position(|s| s.origin == crate::world::step::Origin::Built(k));
                    let at = child.map_or_else(String::new, |j| {
                        format!(": its child {} starts running", name((cell, j), true))
                    });
                    add(me, format!("{action}{at}"));
                }
                _ => {}
            }
        }
    }
    found
}

/// A robot as the step began (`after`: as it ended), by its place and
/// its scenario name if it has one.
fn robot_name(session: &Session, (cell, k): Place, after: bool) -> String {
    let (x, y) = session.world().shape().position(cell);
    let places = if after {
        session.robots()
    } else {
        session.began().1
    };
    match places.iter().position(|p| *p == Some((cell, k))) {
        Some(i) => format!("{} at ({x}, {y})#{k}", session.scenario.robots[i].name),
        None => format!("the robot at ({x}, {y})#{k}"),
    }
}

/// The first enabled catchpoint whose happening is in the step the
/// session has just begun (for the robot focused as it began, or any
/// robot), with what happened. A condition is tested on the focused
/// robot's registers; a `forward` run uses up ignore counts.
pub fn caught(catches: &[Catchpoint], session: &Session, forward: bool) -> Option<(usize, String)> {
    let focus = session.began().0;
    let memory = session.focused().map_or(&[][..], |r| &r.memory[..]);
    let prog = memory
        .first()
        .map(|r| r.contents.clone())
        .unwrap_or_default();
    let name = |place, after| robot_name(session, place, after);
    for (i, c) in catches.iter().enumerate() {
        if !c.settings.enabled || !(c.any || focus.is_some()) {
            continue;
        }
        for o in occurrences(session.report(), c.happening, &name) {
            if (c.any || Some(o.robot) == focus) && c.settings.stops(&prog, memory, forward) {
                return Some((i, format!("{} {}", name(o.robot, false), o.text)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_parses_and_shows_as_typed() {
        for text in ["destroyed", "inspected", "built", "lifted", "dropped"] {
            let h = Happening::parse(&[text]).unwrap();
            assert_eq!(h.to_string(), text);
        }
        for k in COMMAND_KINDS {
            let h = Happening::parse(&["command", k]).unwrap();
            assert_eq!(h.to_string(), format!("command {k}"));
        }
        for k in ACTION_KINDS {
            let h = Happening::parse(&["action", k]).unwrap();
            assert_eq!(h.to_string(), format!("action {k}"));
        }
        assert_eq!(
            Catchpoint::parse("destroyed any").unwrap(),
            (Happening::Destroyed, true)
        );
        assert!(Happening::parse(&["command", "fly"]).is_err());
        assert!(Happening::parse(&["destroyed", "twice"]).is_err());
        assert!(Happening::parse(&[]).is_err());
    }
}

//! The step function: how one square changes in one game step.
//!
//! This follows the report's `step` line by line; each rule lives in one
//! place:
//!
//! 1. Every robot's output register is read and cleared, giving its command
//!    ([`take_outputs`]).
//! 2. Commands are resolved to actions, after working out contested items and
//!    shields ([`conflicts`], [`resolve`]).
//! 3. Inventories are updated: lifts, drops, destroyed shields
//!    ([`inventory`]).
//! 4. Robots arriving from the neighbours are collected ([`movement`]).
//! 5. Built robots are added.
//! 6. The item list is computed: unaffected, dropped, fallen ([`inventory`]).
//! 7. Every robot that stays gets its input register set ([`input`]).
//! 8. Robots that left or were destroyed are removed; the others run their
//!    machines ([`SettledSquare::run`]).
//!
//! The phases are separate functions so that a debugger can stop between
//! them; [`step`] runs them all.

mod conflicts;
mod input;
mod inventory;
mod movement;
mod remembered;
mod resolve;

use super::{Action, Command, Direction, Item, Robot, Square};
use crate::machine::{MachineError, RunReport, run_machine};

pub use input::private_input;
pub use movement::{Arrival, depart, order_arrivals};

/// A square after step 1: every robot's output was taken.
#[derive(Debug, Clone)]
pub struct TakenSquare {
    /// The robots, their output registers now Nil.
    pub robots: Vec<Robot>,
    /// Their commands (`None`: the output did not decode).
    pub intents: Vec<Option<Command>>,
    /// The square's items, unchanged.
    pub items: Vec<Item>,
}

/// Step 1: read and clear every robot's output register; their commands.
pub fn take_outputs(robots: &mut [Robot]) -> Vec<Option<Command>> {
    robots.iter_mut().map(Robot::take_output).collect()
}

/// Which of a square's eight neighbours (`N .. NW`) are squares rather than
/// walls: all a square needs to know of its neighbours to resolve its
/// robots' commands.
pub type Openings = [bool; 8];

/// Where a robot of the new square came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// It was already here, at this index of the old robot list.
    Stayed(usize),
    /// It arrived from the neighbour in direction `from`, where it was at
    /// index `index`.
    Arrived {
        /// Direction of the square it came from, seen from here.
        from: Direction,
        /// Its index in that square's old robot list.
        index: usize,
    },
    /// It was built here by the robot at this index of the old robot list.
    Built(usize),
}

impl Origin {
    /// Where the robot was before the step, `(cell, index)`, given the cell
    /// it is in now; `None` for a robot built in the step.
    pub fn source(self, shape: &super::Shape, cell: usize) -> Option<(usize, usize)> {
        match self {
            Origin::Stayed(i) => Some((cell, i)),
            Origin::Arrived { from, index } => shape.neighbour(cell, from).map(|n| (n, index)),
            Origin::Built(_) => None,
        }
    }
}

/// What happened to one robot of the new square during the step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotStep {
    /// Where it came from.
    pub origin: Origin,
    /// The command it gave (`None` for a child, or an undecodable output).
    pub command: Option<Command>,
    /// Its action, as the other robots saw it in their input.
    pub action: Action,
    /// How its machine run ended. On an error the robot was wiped.
    pub run: Result<RunReport, MachineError>,
}

/// A square after steps 2 to 6: actions resolved, inventories, arrivals,
/// children and items known.
#[derive(Debug, Clone)]
pub struct ResolvedSquare {
    /// `survived`: per original robot, `None` if it left, else whether it
    /// was not destroyed.
    pub survived: Vec<Option<bool>>,
    /// `allRobots`: veterans (updated inventories), travelers, children.
    pub all_robots: Vec<Robot>,
    /// `allActions`, matching `all_robots`: first `localActions`, one per
    /// robot that began the step here (see [`ResolvedSquare::local_actions`]).
    pub all_actions: Vec<Action>,
    /// Where each of `all_robots` came from.
    pub origins: Vec<Origin>,
    /// The command each of `all_robots` gave.
    pub commands: Vec<Option<Command>>,
    /// Items nobody took.
    pub unaffected: Vec<Item>,
    /// Items dropped this step.
    pub dropped: Vec<Item>,
    /// Parts and cargo of destroyed robots: `(shatter r, non-shields)`.
    pub fallen: Vec<(Vec<Item>, Vec<Item>)>,
}

impl ResolvedSquare {
    /// Steps 2 to 6 for one square, given which neighbours are open and the
    /// robots that enter it.
    pub fn resolve(here: TakenSquare, open: &Openings, arrivals: Vec<Arrival>) -> ResolvedSquare {
        if here.robots.is_empty() && arrivals.is_empty() {
            return ResolvedSquare::unvisited(here.items);
        }
        let conflicts = conflicts::Conflicts::new(&here);
        let local_actions: Vec<Action> = (0..here.robots.len())
            .map(|i| resolve::resolve(&here, open, &conflicts, i))
            .collect();
        let survived = survivors(&local_actions);
        let TakenSquare {
            robots,
            intents,
            items,
        } = here;
        let veterans = inventory::veterans(robots, &items, &conflicts, &local_actions);
        let (unaffected, dropped) = inventory::remaining_items(items, &local_actions);
        let fallen = inventory::fallen(&veterans, &survived);
        let children: Vec<(usize, Robot)> = local_actions
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Built(_, r) => Some((i, r.clone())),
                _ => None,
            })
            .collect();

        // The veterans' lists are the first part of each list.
        let later = arrivals.len() + children.len();
        let mut origins = Vec::with_capacity(veterans.len() + later);
        origins.extend((0..veterans.len()).map(Origin::Stayed));
        let mut all_robots = veterans;
        let mut all_actions = local_actions;
        let mut commands = intents;
        all_robots.reserve(later);
        all_actions.reserve(later);
        commands.reserve(later);
        for arrival in arrivals {
            all_robots.push(arrival.robot);
            all_actions.push(Action::MovedIn(arrival.from));
            origins.push(Origin::Arrived {
                from: arrival.from,
                index: arrival.index,
            });
            commands.push(Some(Command::Move(arrival.from.opposite())));
        }
        for (builder, child) in children {
            all_robots.push(child);
            all_actions.push(Action::Created);
            origins.push(Origin::Built(builder));
            commands.push(None);
        }
        ResolvedSquare {
            survived,
            all_robots,
            all_actions,
            origins,
            commands,
            unaffected,
            dropped,
            fallen,
        }
    }

    /// What steps 2 to 6 make of a square that no robot began the step in
    /// or entered: its items untouched, nothing else (no allocation).
    fn unvisited(items: Vec<Item>) -> ResolvedSquare {
        ResolvedSquare {
            survived: Vec::new(),
            all_robots: Vec::new(),
            all_actions: Vec::new(),
            origins: Vec::new(),
            commands: Vec::new(),
            unaffected: items,
            dropped: Vec::new(),
            fallen: Vec::new(),
        }
    }

    /// `localActions`: the action of every robot that began the step here
    /// (by its index then), the first of `all_actions`.
    pub fn local_actions(&self) -> &[Action] {
        &self.all_actions[..self.survived.len()]
    }

    /// The report's `present`: robots that left or were destroyed are
    /// dropped; arrivals and children always stay.
    pub fn present(&self, index: usize) -> bool {
        present(&self.survived, index)
    }

    /// The report's `items'`: unaffected, dropped, then each destroyed
    /// robot's parts followed by its cargo.
    pub fn new_items(&self) -> Vec<Item> {
        let mut items = self.unaffected.clone();
        items.extend(self.dropped.iter().cloned());
        for (parts, cargo) in &self.fallen {
            items.extend(parts.iter().cloned());
            items.extend(cargo.iter().cloned());
        }
        items
    }

    /// Step 7: the robots that stay, each with its input register set.
    pub fn settle(self) -> SettledSquare {
        let began = self.commands[..self.survived.len()]
            .iter()
            .cloned()
            .zip(self.local_actions().iter().cloned())
            .collect();
        let (robots, items) = self.settle_each(|pending| pending);
        SettledSquare {
            robots,
            items,
            began,
        }
    }

    /// Steps 7 and 8 with nothing reported: the square after every robot
    /// that stays ran its machine ([`PendingRobot::run`]'s robot).
    pub fn settle_and_run(self) -> Square {
        let (robots, items) = self.settle_each(PendingRobot::run_robot);
        Square { robots, items }
    }

    /// Step 7, each robot that stays handed to `each` with its input
    /// register set, in order; and the new item list.
    fn settle_each<T>(mut self, mut each: impl FnMut(PendingRobot) -> T) -> (Vec<T>, Vec<Item>) {
        // The input's shared parts are encoded only if some robot reads them.
        let staying = (0..self.all_robots.len()).any(|i| self.present(i));
        let shared = staying.then(|| input::SharedInput::new(&self));
        let items = if self.dropped.is_empty() && self.fallen.is_empty() {
            std::mem::take(&mut self.unaffected)
        } else {
            self.new_items()
        };
        let mut settled = Vec::with_capacity(self.all_robots.len());
        let robots = self
            .all_robots
            .into_iter()
            .zip(self.all_actions)
            .zip(self.origins.into_iter().zip(self.commands));
        for (i, ((mut robot, action), (origin, command))) in robots.enumerate() {
            if !present(&self.survived, i) {
                continue;
            }
            // `shared` is there whenever a robot stays.
            if let Some(shared) = &shared {
                robot.set_input(shared.input_for(i, &action));
            }
            settled.push(each(PendingRobot {
                robot,
                origin,
                command,
                action,
            }));
        }
        (settled, items)
    }
}

/// [`ResolvedSquare::present`], given its `survived`.
fn present(survived: &[Option<bool>], index: usize) -> bool {
    match survived.get(index) {
        None => true,
        Some(stayed) => stayed.unwrap_or(false),
    }
}

fn survivors(local_actions: &[Action]) -> Vec<Option<bool>> {
    let destroyed: Vec<i64> = local_actions
        .iter()
        .filter_map(|a| match a {
            Action::Destroyed(i) => Some(*i),
            _ => None,
        })
        .collect();
    local_actions
        .iter()
        .enumerate()
        .map(|(n, a)| match a {
            Action::MovedOut(_) => None,
            _ => Some(!destroyed.contains(&(n as i64))),
        })
        .collect()
}

/// A robot that stays, with its input written, before its machine runs.
#[derive(Debug, Clone)]
pub struct PendingRobot {
    /// The robot, input register set.
    pub robot: Robot,
    /// Where it came from.
    pub origin: Origin,
    /// The command it gave.
    pub command: Option<Command>,
    /// Its action.
    pub action: Action,
}

impl PendingRobot {
    /// Step 8 for one robot: run its machine (wiping it on error).
    pub fn run(mut self) -> (Robot, RobotStep) {
        let run = run_machine(self.robot.processor.speed, &mut self.robot.memory);
        let step = RobotStep {
            origin: self.origin,
            command: self.command,
            action: self.action,
            run,
        };
        (self.robot, step)
    }

    /// [`PendingRobot::run`]'s robot, without its step.
    pub fn run_robot(mut self) -> Robot {
        // On an error `run_machine` wiped the memory; the report is not kept.
        let _ = run_machine(self.robot.processor.speed, &mut self.robot.memory);
        self.robot
    }
}

/// A square after step 7: its new items, and its robots ready to run.
#[derive(Debug, Clone)]
pub struct SettledSquare {
    /// The robots that stay, in order.
    pub robots: Vec<PendingRobot>,
    /// The new item list.
    pub items: Vec<Item>,
    /// Every robot that began the step here (by its index then, destroyed
    /// or gone or not): its command and its action (`localActions`).
    pub began: Vec<(Option<Command>, Action)>,
}

impl SettledSquare {
    /// Step 8: run every machine.
    pub fn run(self) -> (Square, Vec<RobotStep>) {
        self.run_with(&mut PendingRobot::run)
    }

    /// Step 8 with another way of running each machine (a debugger runs one
    /// tick by tick; a tracer watches one).
    pub fn run_with(
        self,
        runner: &mut dyn FnMut(PendingRobot) -> (Robot, RobotStep),
    ) -> (Square, Vec<RobotStep>) {
        let (robots, steps) = self.robots.into_iter().map(runner).unzip();
        (
            Square {
                robots,
                items: self.items,
            },
            steps,
        )
    }
}

/// The whole step for one square: the report's `step`.
pub fn step(
    here: TakenSquare,
    open: &Openings,
    arrivals: Vec<Arrival>,
) -> (Square, Vec<RobotStep>) {
    ResolvedSquare::resolve(here, open, arrivals).settle().run()
}

/// Whether a command moves the robot out: the report's `fled`, which relies
/// on moves into non-wall cells always succeeding.
fn fled(intent: Option<&Command>, open: &Openings) -> bool {
    matches!(intent, Some(Command::Move(d)) if open[d.index()])
}

/// Bounds-checked list access with the report's `Int` indices (`!!?`).
fn nth<T>(list: &[T], index: i64) -> Option<&T> {
    usize::try_from(index).ok().and_then(|i| list.get(i))
}

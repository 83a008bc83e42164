//! The debugger's engine: a game in progress whose focused robot's machine
//! runs under control, and the snapshots that take it back in time.
//!
//! A game step runs in the report's phases: every robot's output is read,
//! actions are resolved, inventories and items updated, inputs written, and
//! the machines run. The debugger runs all of that, and every machine but
//! the focused robot's, in one go ([`Session::begin_step`]); then the
//! focused machine runs instruction by instruction. When its run ends (its
//! ticks are spent, it halts, or it fails and the report wipes it) the step
//! is complete, and the world is exactly the one the plain engine gives.
//!
//! Time is a [`Pos`]: a game step and the ticks the focused machine has
//! run in it. Snapshots are kept at the start and end of every step and,
//! inside a step, every [`checkpoint_spacing`] ticks (4,096, or more in a
//! step of more than a million ticks, so that a step holds at most
//! [`CHECKPOINTS_PER_STEP`]), for the last [`STEPS_WITH_CHECKPOINTS`] steps.
//! Going back to a position restores the snapshot before it and runs
//! forward again, which is exact because the engine is deterministic. Trees
//! are shared, so a snapshot costs the world's cells and robots, not its
//! registers' trees.

use super::positions::{Position, Tracker};
use crate::machine::{MachineError, Memory, Pause, Register, run_until, tick_budget, wipe};
use crate::scenario::Scenario;
use crate::scenario::game::moves;
use crate::tree::Tree;
use crate::world::step::{Origin, RobotStep};
use crate::world::{Action, Command, Robot, StepReport, World, update_with};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::atomic::Ordering;

/// A robot's place in the world: its cell and its index in the square.
pub type Place = (usize, usize);

/// The `tick` of a [`Pos`] whose step is complete.
pub const DONE: u64 = u64::MAX;

/// Snapshots inside a step are at least this many ticks apart.
pub const CHECKPOINT_TICKS: u64 = 1 << 12;

/// A step holds at most this many snapshots inside it.
pub const CHECKPOINTS_PER_STEP: u64 = 256;

/// Snapshots inside a step are kept for this many of the last steps (those
/// of older steps are dropped: going back there replays from the step's
/// start).
pub const STEPS_WITH_CHECKPOINTS: u64 = 8;

/// The ticks between snapshots inside a step of `budget` ticks.
pub fn checkpoint_spacing(budget: u64) -> u64 {
    CHECKPOINT_TICKS.max(budget.div_ceil(CHECKPOINTS_PER_STEP))
}

/// A moment of the game: during game step `step` after the focused machine
/// has run `tick` instructions, or after the step (`tick == DONE`). The
/// start of the game is step 0, done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// The game step (1 for the first).
    pub step: u64,
    /// Instructions the focused machine has run in it, or [`DONE`].
    pub tick: u64,
}

impl Pos {
    /// After game step `step`.
    pub fn done(step: u64) -> Pos {
        Pos { step, tick: DONE }
    }

    /// Whether the step is complete.
    pub fn is_done(&self) -> bool {
        self.tick == DONE
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_done() && self.step == 0 {
            write!(f, "at the start")
        } else if self.is_done() {
            write!(f, "after step {}", self.step)
        } else {
            write!(f, "step {}, tick {}", self.step, self.tick)
        }
    }
}

/// The focused robot's machine run in the current step.
#[derive(Debug, Clone)]
pub struct FocusRun {
    /// Its ticks for the step (the report's `runFor speed`).
    pub budget: u64,
    /// The command the engine read from it at the start of the step.
    pub command: Option<Command>,
    /// What that command did.
    pub action: Action,
    /// The next instruction fails: the run paused before it.
    pub fault: Option<MachineError>,
}

/// How the focused robot's run in a step ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// Its ticks were spent.
    Spent,
    /// The program register became Nil.
    Halted,
    /// An instruction failed and the engine wiped every register.
    Wiped(MachineError),
}

/// Why a forward run stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The stop test held before the next instruction.
    Stopped,
    /// The instructions or steps asked for are done.
    Reached,
    /// The focused robot's run ended and its step is complete.
    StepDone(RunEnd),
    /// The next instruction fails (nothing has been wiped yet).
    Fault(MachineError),
    /// The focused robot is gone: it left no trace in this step.
    FocusLost,
    /// The scenario's last step is done.
    GameOver,
    /// Interrupted (Ctrl-C).
    Interrupted,
    /// A step began with something a catchpoint looks for.
    Caught,
    /// A step began in which the focused robot built a robot (with
    /// [`Session::catch_built`] set).
    Built,
}

/// A test run after the engine's phases of each step a forward run begins
/// (`Session::report` tells what happened): whether to stop there.
pub type StepTest<'a> = &'a mut dyn FnMut(&Session) -> bool;

/// A test run before each instruction of the focused machine: the program
/// register and the memory (whose register 0 is empty while it runs).
pub type StopTest<'a> = &'a mut dyn FnMut(&Tree, &[Register]) -> bool;

/// How far a forward run may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Until the stop test holds, the focus is lost or the game is over.
    Unlimited,
    /// At most this many instructions.
    Ticks(u64),
    /// Until this many more steps are complete.
    Steps(u64),
    /// Until this position (or the first stop before it).
    To(Pos),
}

#[derive(Clone)]
struct Snapshot {
    world: World,
    focus: Option<Place>,
    run: Option<FocusRun>,
    robots: Vec<Option<Place>>,
    tracker: Option<Tracker>,
    adopt: Option<Place>,
}

/// A game under the debugger.
pub struct Session {
    /// The scenario being played.
    pub scenario: Scenario,
    world: World,
    pos: Pos,
    focus: Option<Place>,
    run: Option<FocusRun>,
    /// Where each scenario robot is now.
    robots: Vec<Option<Place>>,
    snapshots: BTreeMap<Pos, Snapshot>,
    /// Per complete step: how the focused run ended and its ticks.
    ends: BTreeMap<u64, (u64, RunEnd)>,
    /// What happened in the last step begun.
    report: StepReport,
    /// As the last step begun began: the focused robot's place, and each
    /// scenario robot's.
    began: (Option<Place>, Vec<Option<Place>>),
    /// The earliest position that can be gone back to.
    origin: Pos,
    /// The user's changes (`set`): the state at each position as changed.
    /// A run passing one of these positions takes the changed state, so
    /// that going back and forth replays the game as changed.
    edits: BTreeMap<Pos, Snapshot>,
    /// Counts the changes a run has taken on its way, so that its stop
    /// test can tell a change by the user from one by the machine.
    edits_taken: Rc<Cell<u64>>,
    /// Follows the focused machine through the source positions of its
    /// image (see [`super::positions`]).
    tracker: Option<Tracker>,
    /// The tracker's position before the instruction a run checks next,
    /// for the run's stop test.
    here: Rc<Cell<Option<Position>>>,
    /// Forward runs stop as a step begins in which the focused robot built
    /// a robot (`catch build`).
    pub catch_built: bool,
    /// Between steps: the robot (its place) whose child, built as the
    /// next step begins, is focused then (see [`Session::focus_child`]).
    adopt: Option<Place>,
}

impl Session {
    /// The scenario's starting world, with the robot at `focus` focused.
    pub fn new(
        scenario: Scenario,
        world: World,
        starts: Vec<Place>,
        focus: Option<Place>,
    ) -> Session {
        let robots = starts.into_iter().map(Some).collect();
        let mut session = Session {
            scenario,
            world,
            pos: Pos::done(0),
            focus,
            run: None,
            robots,
            snapshots: BTreeMap::new(),
            ends: BTreeMap::new(),
            report: StepReport::default(),
            began: (None, Vec::new()),
            origin: Pos::done(0),
            edits: BTreeMap::new(),
            edits_taken: Rc::default(),
            tracker: None,
            here: Rc::default(),
            catch_built: false,
            adopt: None,
        };
        session.snapshot();
        session
    }

    /// The world now. During a step, every robot but the focused one has
    /// already run its machine.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The position now.
    pub fn pos(&self) -> Pos {
        self.pos
    }

    /// The focused robot's place, if it is still there.
    pub fn focus(&self) -> Option<Place> {
        self.focus
    }

    /// The focused robot's run in the current step (`None` between steps).
    pub fn run(&self) -> Option<&FocusRun> {
        self.run.as_ref()
    }

    /// Where each scenario robot is now (`None`: destroyed).
    pub fn robots(&self) -> &[Option<Place>] {
        &self.robots
    }

    /// What happened to every robot in the last step begun.
    pub fn report(&self) -> &StepReport {
        &self.report
    }

    /// As the last step begun began: the focused robot's place and each
    /// scenario robot's (places of the world before the step, as the
    /// report's [`began`](StepReport::began) lists them).
    pub fn began(&self) -> (Option<Place>, &[Option<Place>]) {
        (self.began.0, &self.began.1)
    }

    /// How the focused run of a complete step ended, with its ticks.
    pub fn end_of(&self, step: u64) -> Option<&(u64, RunEnd)> {
        self.ends.get(&step)
    }

    /// The robot at a place.
    pub fn robot_at(&self, (cell, k): Place) -> Option<&Robot> {
        self.world.cells.get(cell)?.as_ref()?.robots.get(k)
    }

    /// The focused robot.
    pub fn focused(&self) -> Option<&Robot> {
        self.robot_at(self.focus?)
    }

    /// The focused robot's memory, to change it (`set`; [`Session::edited`]
    /// records the change). Snapshots and changes after the present are
    /// dropped: the future is no longer what they hold.
    pub fn focused_memory_mut(&mut self) -> Option<&mut Memory> {
        self.focus?;
        let now = self.pos;
        self.snapshots.retain(|p, _| *p <= now);
        self.edits.retain(|p, _| *p <= now);
        self.ends.retain(|s, _| *s < now.step);
        self.memory_mut()
    }

    /// Records the present state as changed by the user: every later run
    /// through this position (going back replays from an earlier
    /// snapshot) takes it.
    pub fn edited(&mut self) {
        let prog = self
            .focused()
            .and_then(|r| r.memory.first())
            .map(|r| r.contents.node_id());
        if let (Some(t), Some(prog)) = (&mut self.tracker, prog)
            && !self.pos.is_done()
            && self.here.get().and_then(|p| t.map().node(p)) != Some(prog)
        {
            t.lose_context();
            t.stamp = None;
            self.observe_now();
        }
        self.snapshot();
        let snapshot = self.snapshots[&self.pos].clone();
        self.edits.insert(self.pos, snapshot);
    }

    /// A counter of the user's changes runs have taken on their way: a
    /// stop test that sees it move knows the memory was changed by the
    /// user, not by the machine.
    pub fn edits_taken(&self) -> Rc<Cell<u64>> {
        self.edits_taken.clone()
    }

    /// Takes the user's change at the present position, if there is one.
    fn take_edit(&mut self) {
        if let Some(snapshot) = self.edits.get(&self.pos) {
            let snapshot = snapshot.clone();
            self.snapshots.insert(self.pos, snapshot.clone());
            self.restore(self.pos, snapshot);
            self.edits_taken.set(self.edits_taken.get() + 1);
        }
    }

    /// Ticks from the present to the next change of the user in this step.
    fn to_next_edit(&self) -> u64 {
        let after = Pos {
            step: self.pos.step,
            tick: self.pos.tick + 1,
        };
        self.edits
            .range(after..Pos::done(self.pos.step))
            .next()
            .map_or(u64::MAX, |(p, _)| p.tick - self.pos.tick)
    }

    /// Takes a snapshot of the present (after a change of state).
    pub fn snapshot(&mut self) {
        self.snapshots.insert(
            self.pos,
            Snapshot {
                world: self.world.clone(),
                focus: self.focus,
                run: self.run.clone(),
                robots: self.robots.clone(),
                tracker: self.tracker.clone(),
                adopt: self.adopt,
            },
        );
    }

    /// Follows the focused machine with `tracker` from now on (after a
    /// change of focus): part of the present's state, as the focus is.
    pub fn set_tracker(&mut self, tracker: Option<Tracker>) {
        self.tracker = tracker;
        self.observe_now();
        let now = self.pos;
        if let Some(s) = self.snapshots.get_mut(&now) {
            s.tracker = self.tracker.clone();
        }
        if let Some(s) = self.edits.get_mut(&now) {
            s.tracker = self.tracker.clone();
        }
    }

    /// The source position of the focused machine's next instruction,
    /// when its program is tracked and the step is under way.
    pub fn position(&self) -> Option<Position> {
        if self.pos.is_done() {
            return None;
        }
        self.tracker.as_ref()?.at()
    }

    /// The tracker of the focused machine, if it has one.
    pub fn tracker(&self) -> Option<&Tracker> {
        self.tracker.as_ref()
    }

    /// The focused machine's source position as a run goes, for its stop
    /// test: before each instruction checked, that instruction's.
    pub fn position_cell(&self) -> Rc<Cell<Option<Position>>> {
        self.here.clone()
    }

    /// Has the tracker follow the instruction at the present position
    /// (once: an instruction already followed is not followed again).
    fn observe_now(&mut self) {
        if self.pos.is_done() {
            return;
        }
        let stamp = (self.pos.step, self.pos.tick);
        let prog = self
            .focused()
            .and_then(|r| r.memory.first())
            .map(|r| r.contents.clone())
            .unwrap_or_default();
        if let Some(t) = &mut self.tracker {
            if t.stamp != Some(stamp) {
                t.observe(&prog);
                t.stamp = Some(stamp);
            }
            self.here.set(t.at());
        }
    }

    /// Focuses another robot (the place is in the world after the current
    /// step: a robot's machine runs under control only when it is focused
    /// as its step begins, so the step is finished first). The change is
    /// part of history, as a `set` is: going back before it follows the
    /// robot focused then, and runs through it take it again.
    pub fn set_focus(&mut self, place: Option<Place>) {
        self.finish_step();
        let now = self.pos;
        self.snapshots.retain(|p, _| *p <= now);
        self.edits.retain(|p, _| *p < now);
        self.ends.retain(|s, _| *s <= now.step);
        self.focus = place;
        self.edited();
    }

    /// Focuses the robot at `child`, built in the present step, from its
    /// first instruction: back to the end of the step before, where the
    /// robot that built it (`builder`, its place then) is followed into
    /// its child as the step begins; a change of history, as
    /// [`Session::set_focus`]. The position is then the start of the
    /// child's first run (`false`, nothing changed, when it did not run).
    pub fn focus_child(&mut self, builder: Place) -> bool {
        let step = self.pos.step;
        self.goto(Pos::done(step - 1));
        let now = self.pos;
        self.snapshots.retain(|p, _| *p <= now);
        self.edits.retain(|p, _| *p < now);
        self.ends.retain(|s, _| *s <= now.step);
        self.focus = None;
        self.adopt = Some(builder);
        self.tracker = None;
        self.edited();
        self.advance(Limit::To(Pos { step, tick: 0 }), false, &mut |_, _| false);
        self.focus.is_some() && self.pos == Pos { step, tick: 0 }
    }

    /// Runs the current step to its end (nothing to do between steps).
    pub fn finish_step(&mut self) {
        if !self.pos.is_done() {
            let end = Pos::done(self.pos.step);
            self.advance(Limit::To(end), false, &mut |_, _| false);
        }
    }

    /// The earliest position reverse execution can reach.
    pub fn origin(&mut self) -> Pos {
        self.origin
    }

    fn memory_mut(&mut self) -> Option<&mut Memory> {
        robot_memory(&mut self.world, self.focus?)
    }

    /// Runs the next game step up to the focused machine: every phase of the
    /// report, and every other robot's machine. The position becomes tick 0
    /// of the new step (or its end, when there is no focused machine to run).
    pub fn begin_step(&mut self) {
        debug_assert!(self.pos.is_done());
        super::STEPS_BEGUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let world = std::mem::take(&mut self.world);
        let shape = world.shape();
        let focus = self.focus;
        let adopt = self.adopt.take();
        let mut captured: Option<(Option<Command>, Action)> = None;
        let (world, report) = update_with(world, &mut |cell, pending| {
            let child = adopt.is_some_and(|(c, b)| c == cell && pending.origin == Origin::Built(b));
            if child || (focus.is_some() && pending.origin.source(&shape, cell) == focus) {
                captured = Some((pending.command.clone(), pending.action.clone()));
                let step = RobotStep {
                    origin: pending.origin,
                    command: pending.command,
                    action: pending.action,
                    run: Ok(Default::default()),
                };
                return (pending.robot, step);
            }
            pending.run()
        });
        let moved = moves(&shape, &report);
        self.began = (focus, self.robots.clone());
        self.focus = focus.and_then(|p| moved.get(&p).copied());
        if let Some((cell, b)) = adopt {
            self.focus = report.cells.get(cell).and_then(|steps| {
                let k = steps.iter().position(|s| s.origin == Origin::Built(b))?;
                Some((cell, k))
            });
        }
        for place in &mut self.robots {
            *place = place.and_then(|p| moved.get(&p).copied());
        }
        self.world = world;
        self.report = report;
        let step = self.pos.step + 1;
        // Snapshots inside an old step are dropped (memory stays bounded).
        if let Some(old) = step.checked_sub(STEPS_WITH_CHECKPOINTS) {
            let inside = Pos { step: old, tick: 1 }..Pos::done(old);
            let drop: Vec<Pos> = self.snapshots.range(inside).map(|(p, _)| *p).collect();
            for p in drop {
                self.snapshots.remove(&p);
            }
        }
        match (captured, self.focused().map(|r| r.processor.speed)) {
            (Some((command, action)), Some(speed)) => {
                self.run = Some(FocusRun {
                    budget: tick_budget(speed),
                    command,
                    action,
                    fault: None,
                });
                self.pos = Pos { step, tick: 0 };
                self.observe_now();
                self.snapshot();
            }
            _ => {
                self.run = None;
                self.pos = Pos::done(step);
                self.snapshot();
            }
        }
    }

    /// Ends the step: the focused run is over.
    fn end_step(&mut self, end: RunEnd) {
        self.ends.insert(self.pos.step, (self.pos.tick, end));
        self.run = None;
        self.pos = Pos::done(self.pos.step);
        self.snapshot();
    }

    /// Runs the focused machine in the current step: at most `max`
    /// instructions, testing `stop` before each (but the first, when
    /// `skip_first`).
    fn run_focus(&mut self, max: u64, skip_first: bool, stop: StopTest<'_>) -> Option<Event> {
        let Some(run) = self.run.clone() else {
            self.end_step(RunEnd::Spent);
            return Some(Event::StepDone(RunEnd::Spent));
        };
        if let Some(e) = run.fault {
            // The failing instruction runs now: the report wipes the machine.
            if let Some(memory) = self.memory_mut() {
                wipe(memory);
            }
            self.end_step(RunEnd::Wiped(e.clone()));
            return Some(Event::StepDone(RunEnd::Wiped(e)));
        }
        let left = run.budget - self.pos.tick;
        let spacing = checkpoint_spacing(run.budget);
        let to_checkpoint = spacing - self.pos.tick % spacing;
        let chunk = max.min(left).min(to_checkpoint).min(self.to_next_edit());
        let tick = self.pos.tick;
        let memory = self.memory_mut()?;
        let before = memory.clone();
        let tracker_before = self.tracker.clone();
        let (ticks, pause) = self.run_tracked(chunk, skip_first, stop)?;
        self.pos.tick = tick + ticks;
        let event = match pause {
            Pause::Halted => {
                self.end_step(RunEnd::Halted);
                Some(Event::StepDone(RunEnd::Halted))
            }
            Pause::Budget if self.pos.tick == run.budget => {
                self.end_step(RunEnd::Spent);
                Some(Event::StepDone(RunEnd::Spent))
            }
            Pause::Budget => {
                self.observe_now();
                if self.pos.tick.is_multiple_of(spacing) {
                    self.snapshot();
                }
                (ticks == max).then_some(Event::Reached)
            }
            Pause::Stopped => Some(Event::Stopped),
            Pause::Failed(e) => {
                // Back to just before the failing instruction.
                *self.memory_mut()? = before;
                self.tracker = tracker_before;
                self.pos.tick = tick;
                self.run_tracked(ticks, false, &mut |_, _| false)?;
                self.pos.tick = tick + ticks;
                if let Some(r) = self.run.as_mut() {
                    r.fault = Some(e.clone());
                }
                Some(Event::Fault(e))
            }
        };
        self.observe_now();
        event
    }

    /// Runs the focused machine from the present tick (see
    /// [`run_until`]), the tracker following every instruction before the
    /// stop test sees it.
    fn run_tracked(
        &mut self,
        max: u64,
        skip_first: bool,
        stop: StopTest<'_>,
    ) -> Option<(u64, Pause)> {
        let memory = robot_memory(&mut self.world, self.focus?)?;
        let Some(tracker) = self.tracker.as_mut() else {
            return Some(run_until(memory, max, skip_first, stop));
        };
        let (step, mut tick) = (self.pos.step, self.pos.tick + u64::from(skip_first));
        let here = &self.here;
        let mut tracked = |prog: &Tree, memory: &[Register]| {
            let stamp = Some((step, tick));
            tick += 1;
            if tracker.stamp != stamp {
                tracker.observe(prog);
                tracker.stamp = stamp;
            }
            here.set(tracker.at());
            stop(prog, memory)
        };
        Some(run_until(memory, max, skip_first, &mut tracked))
    }

    /// Runs forward until `stop` holds, `limit` is reached, or something
    /// else ends the run (see [`Event`]). `skip_first` lets the run leave a
    /// place where `stop` holds (a breakpoint it is stopped at).
    pub fn advance(&mut self, limit: Limit, skip_first: bool, stop: StopTest<'_>) -> Event {
        self.advance_catching(limit, skip_first, stop, &mut |_| false)
    }

    /// [`advance`](Session::advance), also stopping (with
    /// [`Event::Caught`]) as a step begins when `caught` holds.
    pub fn advance_catching(
        &mut self,
        limit: Limit,
        skip_first: bool,
        stop: StopTest<'_>,
        caught: StepTest<'_>,
    ) -> Event {
        let start = self.pos;
        let (goal, exact) = match limit {
            Limit::To(target) => (Some(target), true),
            Limit::Steps(n) => {
                let last = if start.is_done() {
                    start.step + n
                } else {
                    start.step + n.max(1) - 1
                };
                (Some(Pos::done(last)), false)
            }
            Limit::Ticks(_) | Limit::Unlimited => (None, false),
        };
        let mut ticks_left = match limit {
            Limit::Ticks(n) => n,
            _ => u64::MAX,
        };
        // Leaving the present instruction; a new step starts unskipped.
        let mut skip = skip_first && !self.pos.is_done();
        loop {
            if goal.is_some_and(|g| self.pos >= g) || ticks_left == 0 {
                return Event::Reached;
            }
            if super::INTERRUPT.load(Ordering::Relaxed) {
                return Event::Interrupted;
            }
            // Without a focused machine there are no instructions to count
            // or stop at: only whole steps can be run.
            if self.focus.is_none() && matches!(limit, Limit::Ticks(_) | Limit::Unlimited) {
                return Event::FocusLost;
            }
            if self.pos.is_done() {
                if self.pos.step >= self.scenario.steps && limit == Limit::Unlimited {
                    return Event::GameOver;
                }
                let had_focus = self.focus.is_some();
                self.begin_step();
                self.take_edit();
                if caught(self) {
                    return Event::Caught;
                }
                if had_focus && self.focus.is_none() && !exact {
                    return Event::FocusLost;
                }
                let built = self
                    .run
                    .as_ref()
                    .is_some_and(|r| matches!(r.action, Action::Built(..)));
                if self.catch_built && built && !exact {
                    return Event::Built;
                }
                continue;
            }
            let max = match goal {
                Some(g) if g.step == self.pos.step => g.tick.saturating_sub(self.pos.tick),
                _ => ticks_left,
            };
            let before = self.pos.tick;
            let event = self.run_focus(max, skip, stop);
            self.take_edit();
            skip = false;
            let ran = if self.pos.is_done() {
                match self.ends.get(&self.pos.step) {
                    Some((ticks, RunEnd::Wiped(_))) => ticks + 1 - before,
                    Some((ticks, _)) => ticks - before,
                    None => 0,
                }
            } else {
                self.pos.tick - before
            };
            ticks_left = ticks_left.saturating_sub(ran);
            match event {
                None | Some(Event::Reached) => {}
                Some(Event::StepDone(end)) => {
                    let halted = end != RunEnd::Spent;
                    let stops = match limit {
                        Limit::Ticks(_) => ticks_left == 0 || halted,
                        Limit::Unlimited => halted,
                        Limit::Steps(_) | Limit::To(_) => false,
                    };
                    if stops {
                        return Event::StepDone(end);
                    }
                }
                Some(Event::Fault(_)) if exact => {}
                Some(event) => return event,
            }
        }
    }

    /// Goes to a position of the past or the future, exactly: from the
    /// last snapshot before it, running forward (Ctrl-C does not stop it:
    /// it is kept for the command that asked).
    pub fn goto(&mut self, target: Pos) {
        let interrupted = super::INTERRUPT.swap(false, Ordering::Relaxed);
        self.goto_exactly(target);
        if interrupted {
            super::INTERRUPT.store(true, Ordering::Relaxed);
        }
    }

    fn goto_exactly(&mut self, target: Pos) {
        let target = target.max(self.origin);
        let (at, snapshot) = self
            .snapshots
            .range(..=target)
            .next_back()
            .map(|(p, s)| (*p, s.clone()))
            .expect("the start of the game is always kept");
        self.restore(at, snapshot);
        self.advance(Limit::To(target), false, &mut |_, _| false);
    }

    fn restore(&mut self, at: Pos, snapshot: Snapshot) {
        self.world = snapshot.world;
        self.focus = snapshot.focus;
        self.run = snapshot.run;
        self.robots = snapshot.robots;
        self.tracker = snapshot.tracker;
        self.adopt = snapshot.adopt;
        self.pos = at;
        self.here.set(self.position());
    }

    /// The position of the instruction run before the present one (`None`
    /// at the start of history).
    pub fn previous_instruction(&mut self) -> Option<Pos> {
        self.instructions_back(1)
    }

    /// The position `n` instructions before the present one, or `None`
    /// when history starts less than `n` instructions back. Costs nothing
    /// but the lengths of the steps crossed (known once they have run).
    pub fn instructions_back(&mut self, n: u64) -> Option<Pos> {
        let mut pos = self.pos;
        let mut left = n;
        let target = loop {
            if pos.is_done() {
                if pos.step == 0 || pos <= self.origin {
                    return None;
                }
                // The end of a step counts as the tick after its last.
                let ticks = self.ticks_of(pos.step).unwrap_or(0);
                pos = Pos {
                    step: pos.step,
                    tick: ticks,
                };
            }
            if pos.tick >= left {
                break Pos {
                    step: pos.step,
                    tick: pos.tick - left,
                };
            }
            left -= pos.tick;
            pos = Pos::done(pos.step - 1);
        };
        (target >= self.origin).then_some(target)
    }

    /// The latest position before `pos` (and not before the origin) a
    /// replay can start from: a snapshot at the end of a step or inside
    /// one (a step's tick 0 is reached from the end of the step before).
    pub fn replay_start_before(&self, pos: Pos) -> Option<Pos> {
        self.snapshots
            .range(self.origin..pos)
            .rev()
            .map(|(p, _)| *p)
            .find(|p| p.tick != 0)
    }

    /// The instructions the focused machine ran in a complete step (a
    /// failing one counted), replaying it if needed.
    fn ticks_of(&mut self, step: u64) -> Option<u64> {
        if step == 0 {
            return None;
        }
        if !self.ends.contains_key(&step) {
            let here = self.pos;
            self.goto(Pos::done(step));
            self.goto(here);
        }
        self.ends.get(&step).map(|(ticks, end)| match end {
            RunEnd::Wiped(_) => ticks + 1,
            _ => *ticks,
        })
    }
}

/// The memory of the robot at `(cell, index)` of a world.
fn robot_memory(world: &mut World, (cell, k): (usize, usize)) -> Option<&mut Memory> {
    Some(
        &mut world
            .cells
            .get_mut(cell)?
            .as_mut()?
            .robots
            .get_mut(k)?
            .memory,
    )
}

//! The debugger: one robot's machine single-stepped inside live game
//! steps, with breakpoints, watchpoints, views of its registers as values,
//! and reverse execution.
//!
//! [`session`] owns the game and moves it through time, [`positions`]
//! following the focused machine through the source positions of code
//! that several places share; [`points`] holds breakpoints and
//! watchpoints and the test run before each instruction, [`conditions`]
//! their conditions, [`catchpoints`] the events of a step a run can stop
//! at;
//! [`source`] speaks of code in source terms; [`view`] shows trees as
//! values; [`commands`] is the command language, which the command line's
//! front ends (interactive or batch) drive.

pub mod catchpoints;
pub mod children;
pub mod commands;
pub mod conditions;
pub mod error;
pub mod points;
pub mod positions;
pub mod session;
pub mod source;
pub mod view;

use catchpoints::Catchpoint;
use commands::Block;
pub use error::{DebugError, PointError, SelectError};
use points::{Breakpoint, Settings, Watchpoint};
use session::{Place, Session};
use source::Program;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;

/// Set by the Ctrl-C handler: a long run stops at the next check.
pub static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Game steps begun by any session, ever: a front end watches it to show
/// the progress of a long command (`gstep 2000000`).
pub static STEPS_BEGUN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A game under the debugger, with everything the user has set up.
pub struct Debugger {
    /// The game.
    pub session: Session,
    /// Per scenario robot: its program's symbols and sources.
    programs: Vec<Option<Rc<Program>>>,
    breakpoints: Vec<Breakpoint>,
    watches: Vec<Watchpoint>,
    catches: Vec<Catchpoint>,
    displays: Vec<(usize, String)>,
    next_id: usize,
    /// Displays are numbered apart from breakpoints, as in gdb.
    next_display: usize,
    /// The lines `list` has shown since the last stop (file, first,
    /// last): `list` again goes on after them, `list -` before them.
    listed: Option<(u32, u32, u32)>,
    /// The program the breakpoints' code nodes are of.
    bound_to: Option<*const Program>,
    /// Positions remembered by `checkpoint`.
    checkpoints: Vec<session::Pos>,
    /// Files `source` is reading, one inside another.
    sourcing: usize,
    /// The lines of a `commands` or `define` being typed, until `end`.
    block: Option<Block>,
    /// User commands (`define`): name and body.
    defined: Vec<(String, Vec<String>)>,
    /// The commands of the breakpoint the last stop hit, still to run.
    pending: Vec<String>,
    /// User commands running, one inside another.
    calling: usize,
    /// The images robots built during the game are matched against.
    library: children::Library,
    /// `catch build`: its number and hits.
    catch_build: Option<(usize, u64)>,
}

impl Debugger {
    /// A debugger on a session; `programs` per scenario robot.
    pub fn new(session: Session, programs: Vec<Option<Rc<Program>>>) -> Debugger {
        Debugger {
            session,
            programs,
            breakpoints: Vec::new(),
            watches: Vec::new(),
            catches: Vec::new(),
            displays: Vec::new(),
            next_id: 1,
            next_display: 1,
            listed: None,
            bound_to: None,
            checkpoints: Vec::new(),
            sourcing: 0,
            block: None,
            defined: Vec::new(),
            pending: Vec::new(),
            calling: 0,
            library: children::Library::default(),
            catch_build: None,
        }
    }

    /// A debugger on a scenario's starting world, focused on its first
    /// robot. Sources are the texts the images carry, or found among
    /// `builtins` (`(file name, text)`) and the embedded standard library.
    pub fn for_scenario(
        scenario: crate::scenario::Scenario,
        builtins: Vec<(String, String)>,
    ) -> Result<Debugger, DebugError> {
        let (world, starts) = scenario.world(scenario.seed);
        let programs = scenario
            .robots
            .iter()
            .map(|r| {
                r.image
                    .clone()
                    .map(|image| Rc::new(Program::new(image, builtins.clone())))
            })
            .collect();
        let Some(&first) = starts.first() else {
            return Err(SelectError::NoRobots.into());
        };
        let session = Session::new(scenario, world, starts, Some(first));
        let mut debugger = Debugger::new(session, programs);
        for robot in &debugger.session.scenario.robots {
            if let Some(image) = &robot.image {
                debugger.library.add(image.clone());
            }
        }
        debugger.bound_to = debugger.program().as_ref().map(Rc::as_ptr);
        debugger.track_focus();
        Ok(debugger)
    }

    /// Follows another robot (see [`Session::set_focus`]), its machine
    /// through the source positions of its program.
    pub fn set_focus(&mut self, place: Option<Place>) {
        self.session.set_focus(place);
        self.track_focus();
    }

    /// Has the session follow the focused machine through the positions
    /// of its program.
    pub(crate) fn track_focus(&mut self) {
        let tracker = self
            .program()
            .map(|p| positions::Tracker::new(p.positions.clone()));
        self.session.set_tracker(tracker);
    }

    /// The scenario robot focused, if the focus is one.
    pub fn focus_robot(&self) -> Option<usize> {
        let focus = self.session.focus()?;
        self.session.robots().iter().position(|p| *p == Some(focus))
    }

    /// The focused robot's program: its image's, for a robot of the
    /// scenario; else that of the image its memory came from (see
    /// [`children`]).
    pub fn program(&self) -> Option<Rc<Program>> {
        match self.focus_robot() {
            Some(k) => self.programs.get(k)?.clone(),
            None => self.child_program(),
        }
    }

    /// The focused robot's program, or why there is none to work with.
    pub(crate) fn source_program(&self, without: &str) -> Result<Rc<Program>, DebugError> {
        if self.session.focus().is_none() {
            return Err(SelectError::NoFocusPick.into());
        }
        self.program()
            .ok_or_else(|| SelectError::NoSourceMap(without.to_string()).into())
    }

    /// The focused robot's register names (`rN` where the image has none).
    pub fn register_names(&self) -> Vec<String> {
        let count = self.session.focused().map_or(0, |r| r.memory.len());
        let program = self.program();
        (0..count)
            .map(|i| {
                program
                    .as_ref()
                    .and_then(|p| p.image.registers.get(i))
                    .map_or_else(|| format!("r{i}"), |r| r.name.clone())
            })
            .collect()
    }

    /// Labels and register names, for completion.
    pub fn symbols(&self) -> Vec<String> {
        let mut names = self.register_names();
        if let Some(p) = self.program() {
            names.extend(p.image.labels.iter().map(|l| l.name.clone()));
        }
        names.extend(self.session.scenario.robots.iter().map(|r| r.name.clone()));
        names.sort();
        names.dedup();
        names
    }

    /// The prompt's position: `step 3 tick 17` or `after step 3`.
    pub fn position(&self) -> String {
        self.session.pos().to_string()
    }

    /// The settings of breakpoint, watchpoint or catchpoint `id`.
    fn settings(&self, id: usize) -> Result<&Settings, DebugError> {
        let b = self.breakpoints.iter().find(|b| b.id == id);
        let w = self.watches.iter().find(|w| w.id == id);
        let c = self.catches.iter().find(|c| c.id == id);
        b.map(|b| &b.settings)
            .or(w.map(|w| &w.settings))
            .or(c.map(|c| &c.settings))
            .ok_or(PointError::NoPoint(id).into())
    }

    /// The settings of `id`, to change them.
    fn settings_mut(&mut self, id: usize) -> Result<&mut Settings, DebugError> {
        self.settings(id)?;
        let b = self.breakpoints.iter_mut().find(|b| b.id == id);
        let w = self.watches.iter_mut().find(|w| w.id == id);
        let c = self.catches.iter_mut().find(|c| c.id == id);
        Ok(b.map(|b| &mut b.settings)
            .or(w.map(|w| &mut w.settings))
            .or(c.map(|c| &mut c.settings))
            .expect("found above"))
    }

    /// Every point's settings, to change them all.
    fn all_settings(&mut self) -> impl Iterator<Item = &mut Settings> {
        let b = self.breakpoints.iter_mut().map(|b| &mut b.settings);
        let w = self.watches.iter_mut().map(|w| &mut w.settings);
        let c = self.catches.iter_mut().map(|c| &mut c.settings);
        b.chain(w).chain(c)
    }

    /// Parses every condition again for the focused robot's registers
    /// (after a change of focus); one that names a register it has not
    /// keeps its old reading.
    pub(crate) fn rebind_conditions(&mut self) {
        let names = self.register_names();
        for s in self.all_settings() {
            if let Some(c) = &s.condition
                && let Ok(again) = conditions::Condition::parse(&c.text, &names)
            {
                s.condition = Some(again);
            }
        }
    }

    pub(crate) fn new_id(&mut self) -> usize {
        self.next_id += 1;
        self.next_id - 1
    }

    /// Finds a robot: a scenario robot's name, or `X,Y` / `X,Y#I`.
    pub fn select(&self, sel: &str) -> Result<Place, DebugError> {
        if let Some(k) = self
            .session
            .scenario
            .robots
            .iter()
            .position(|r| r.name == sel)
        {
            return self.session.robots()[k]
                .ok_or_else(|| SelectError::Destroyed(sel.to_string()).into());
        }
        let (xy, index) = match sel.split_once('#') {
            Some((xy, i)) => (
                xy,
                i.trim()
                    .parse::<usize>()
                    .map_err(|_| SelectError::NotAnIndex(i.to_string()))?,
            ),
            None => (sel, 0),
        };
        let Some((x, y)) = xy.split_once(',') else {
            let names: Vec<&str> = self
                .session
                .scenario
                .robots
                .iter()
                .map(|r| r.name.as_str())
                .collect();
            return Err(SelectError::NoSuchRobot {
                selection: sel.to_string(),
                names: names.join(", "),
            }
            .into());
        };
        let parse = |v: &str| {
            v.trim()
                .parse::<i64>()
                .map_err(|_| SelectError::NotACoordinate(v.to_string()))
        };
        let (x, y) = (parse(x)?, parse(y)?);
        let shape = self.session.world().shape();
        if !shape.contains((x, y)) {
            return Err(SelectError::OffGrid(x, y).into());
        }
        let cell = shape.locate((x, y));
        let count = self.session.world().cells[cell]
            .as_ref()
            .map_or(0, |s| s.robots.len());
        if index >= count {
            return Err(SelectError::NoRobotAt { index, x, y, count }.into());
        }
        Ok((cell, index))
    }
}

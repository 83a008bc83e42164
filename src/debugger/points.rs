//! Breakpoints, watchpoints and the test run before every instruction.
//!
//! A breakpoint is a set of code nodes: the machine is at a breakpoint when
//! its program register *is* one of them (the same node, since jumping
//! copies a code tree without copying its nodes). So the test before each
//! instruction is one hash lookup, and `continue` runs near full speed.

use super::conditions::{Condition, Place};
use super::positions::Position;
use super::source::{LineKey, Program};
use crate::machine::Register;
use crate::tree::Tree;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::Cell;
use std::rc::Rc;

/// A comparison of two numbers (`size(REG) > 3`, `x <= 2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// `<`
    Less,
    /// `<=`
    AtMost,
    /// `>`
    Greater,
    /// `>=`
    AtLeast,
    /// `==`
    Equal,
    /// `!=`
    NotEqual,
}

impl Comparison {
    /// Parses an operator.
    pub fn parse(op: &str) -> Option<Comparison> {
        Some(match op {
            "<" => Comparison::Less,
            "<=" => Comparison::AtMost,
            ">" => Comparison::Greater,
            ">=" => Comparison::AtLeast,
            "==" | "=" => Comparison::Equal,
            "!=" => Comparison::NotEqual,
            _ => return None,
        })
    }

    /// Whether `a OP b`.
    pub fn holds<T: Ord>(self, a: T, b: T) -> bool {
        match self {
            Comparison::Less => a < b,
            Comparison::AtMost => a <= b,
            Comparison::Greater => a > b,
            Comparison::AtLeast => a >= b,
            Comparison::Equal => a == b,
            Comparison::NotEqual => a != b,
        }
    }
}

/// The contents of register `r` during a run (register 0 lives apart).
fn register<'a>(prog: &'a Tree, memory: &'a [Register], r: usize) -> Option<&'a Tree> {
    if r == 0 {
        Some(prog)
    } else {
        memory.get(r).map(|reg| &reg.contents)
    }
}

/// What every breakpoint, watchpoint and catchpoint has besides what it
/// looks for: gdb's `condition`, `ignore`, `enable`/`disable` and
/// `commands`.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Disabled points are kept but never hit.
    pub enabled: bool,
    /// A hit stops only when this holds.
    pub condition: Option<Condition>,
    /// Hits still to pass over (`ignore N COUNT`), going forward.
    pub ignore: Cell<u64>,
    /// Times hit (a hit passed over by `ignore` counts, as in gdb).
    pub hits: Cell<u64>,
    /// Commands run when it stops the program (`commands N`).
    pub commands: Vec<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            enabled: true,
            condition: None,
            ignore: Cell::new(0),
            hits: Cell::new(0),
            commands: Vec::new(),
        }
    }
}

impl Settings {
    /// Whether a hit (the machine before the instruction at the front of
    /// `prog`) stops the run: the condition holds, and no ignore count is
    /// left (`forward` runs use one up, counting the hit).
    pub fn stops(&self, prog: &Tree, memory: &[Register], forward: bool) -> bool {
        if !self
            .condition
            .as_ref()
            .is_none_or(|c| c.holds(prog, memory))
        {
            return false;
        }
        if forward && self.ignore.get() > 0 {
            self.ignore.set(self.ignore.get() - 1);
            self.hits.set(self.hits.get() + 1);
            return false;
        }
        true
    }

    /// Counts a stop.
    pub fn count_hit(&self) {
        self.hits.set(self.hits.get() + 1);
    }

    /// `info breakpoints`' notes: the condition, the ignore count,
    /// whether disabled, the commands.
    pub fn notes(&self) -> String {
        let mut out = String::new();
        if let Some(c) = &self.condition {
            out.push_str(&format!(" if {}", c.text));
        }
        if self.ignore.get() > 0 {
            out.push_str(&format!(" (ignore next {})", self.ignore.get()));
        }
        for c in &self.commands {
            out.push_str(&format!("\n        {c}"));
        }
        out
    }
}

/// A breakpoint.
#[derive(Debug, Clone)]
pub struct Breakpoint {
    /// Its number.
    pub id: usize,
    /// As the user wrote it.
    pub spec: String,
    /// The code nodes it stops at.
    pub nodes: FxHashSet<usize>,
    /// The source positions it stops at, where its nodes are shared with
    /// other places (empty: wherever its nodes run).
    pub positions: FxHashSet<Position>,
    /// Where, for `info breakpoints`.
    pub place: String,
    /// Deleted when hit (`tbreak`).
    pub temporary: bool,
    /// Condition, ignore count, commands.
    pub settings: Settings,
}

/// A watchpoint: stop when the tree at a place (a register, or a path
/// into one) changes.
#[derive(Debug, Clone)]
pub struct Watchpoint {
    /// Its number.
    pub id: usize,
    /// The place watched.
    pub place: Place,
    /// The place as it is shown (`in.2.0`, `plan`).
    pub name: String,
    /// Condition, ignore count, commands.
    pub settings: Settings,
}

/// What else a run looks for, besides breakpoints and watchpoints.
#[derive(Debug, Clone)]
pub enum Goal {
    /// Nothing else.
    None,
    /// A different source line, as shown (the line that invoked the
    /// macros), in this frame or an outer one when `frame` is given
    /// (`next`).
    Line {
        /// The line the run starts on.
        from: Option<LineKey>,
        /// The frame calls made from run whole in.
        frame: Option<Frame>,
    },
    /// The current call returns: the program register is the return
    /// continuation (this node) and the stack register one of these nodes
    /// (the tails of the start's stack, without it).
    Return {
        /// The stack register.
        stack: usize,
        /// The stack's tails below the current frame.
        tails: FxHashSet<usize>,
        /// The code the call returns to.
        to: usize,
    },
    /// The output register (its index, and the node it holds now) is
    /// written with something other than Nil.
    Output(usize, usize),
    /// The program register is one of these code nodes, or (when
    /// `returns` is given, as for [`Goal::Return`]: the stack register,
    /// the tails of the stack below the current frame, the code returned
    /// to) the current call returns (`until LOCATION`, `advance`).
    Reach {
        /// The code nodes.
        nodes: FxHashSet<usize>,
        /// The source positions among them (empty: wherever the nodes
        /// run), as a breakpoint's.
        positions: FxHashSet<Position>,
        /// The return.
        returns: Option<(usize, FxHashSet<usize>, usize)>,
    },
}

/// The frame a `next` runs in: a call made from it runs whole, until
/// control is back in it.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The stack register.
    stack: usize,
    /// The nodes of the frame's stack and its tails: the machine is in the
    /// frame (or an outer one) when the stack is one of them.
    tails: FxHashSet<usize>,
    /// While a call made from the frame runs: the code it returns to. The
    /// call has returned when the program register is that code again (as
    /// for `finish`), not when its `ret` has popped the stack.
    returns_to: Option<usize>,
}

impl Frame {
    /// The frame whose stack (register `stack`) is `now`.
    pub fn new(stack: usize, now: &Tree) -> Frame {
        Frame {
            stack,
            tails: tails(now, true),
            returns_to: None,
        }
    }

    /// Whether control is in this frame or an outer one, before the
    /// instruction at the front of `prog`; follows the calls made from it.
    fn holds(&mut self, prog: &Tree, memory: &[Register]) -> bool {
        let Some(stack) = register(prog, memory, self.stack) else {
            return true;
        };
        if !self.tails.contains(&stack.node_id()) {
            if self.returns_to.is_none() {
                self.returns_to = self.continuation(stack);
            }
            return false;
        }
        match self.returns_to {
            Some(to) if prog.node_id() != to => false,
            _ => {
                self.returns_to = None;
                true
            }
        }
    }

    /// The code the outermost call on a deeper `stack` returns to: the
    /// element pushed onto the frame's stack is the code of the call's
    /// jump, and the call returns to the code after it.
    fn continuation(&self, stack: &Tree) -> Option<usize> {
        let mut rest = stack;
        loop {
            let back = rest.back()?;
            if self.tails.contains(&back.node_id()) {
                return rest.front()?.back().map(Tree::node_id);
            }
            rest = back;
        }
    }
}

/// Why the test stopped the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hit {
    /// A breakpoint (its index in the list).
    Breakpoint(usize),
    /// A watchpoint (its index), the old and the new value (`None`: the
    /// path reached no tree).
    Watch(usize, Option<Tree>, Option<Tree>),
    /// A catchpoint (its index), and what happened.
    Catch(usize, String),
    /// The goal of the command.
    Goal,
}

/// What a probe knows of a watched place: the register's tree and the
/// value at the place when last seen.
struct Watched {
    /// The watchpoint's index in the list.
    index: usize,
    register: Tree,
    value: Option<Tree>,
}

/// The test run before each instruction.
pub struct Probe<'a> {
    breaks: FxHashMap<usize, Vec<usize>>,
    breakpoints: &'a [Breakpoint],
    watchpoints: &'a [Watchpoint],
    watched: Vec<Watched>,
    goal: Goal,
    program: Option<&'a Program>,
    /// The code node of the instruction run before the one checked next.
    previous: Option<usize>,
    /// The source position of the instruction checked, as the session's
    /// tracker found it, and of the one run before it.
    at: Option<Rc<Cell<Option<Position>>>>,
    previous_at: Option<Position>,
    /// The session's count of the user's changes a run has taken, and its
    /// value at the last check.
    edits: Option<(Rc<Cell<u64>>, u64)>,
    /// A forward run (ignore counts are used up): not a search of the past.
    forward: bool,
    /// Why it stopped.
    pub hit: Option<Hit>,
}

impl<'a> Probe<'a> {
    /// A probe for the breakpoints and watchpoints given (with the memory
    /// as it is now, for the watchpoints) and a goal; `previous` is the
    /// code node of the instruction run before the first one checked.
    /// Disabled ones are left out.
    pub fn new(
        breakpoints: &'a [Breakpoint],
        watchpoints: &'a [Watchpoint],
        memory: Option<&[Register]>,
        goal: Goal,
        program: Option<&'a Program>,
        previous: Option<usize>,
    ) -> Probe<'a> {
        let mut breaks: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for (i, b) in breakpoints.iter().enumerate() {
            if b.settings.enabled {
                for &n in &b.nodes {
                    breaks.entry(n).or_default().push(i);
                }
            }
        }
        let mut probe = Probe {
            breaks,
            breakpoints,
            watchpoints,
            watched: Vec::new(),
            goal,
            program,
            previous,
            at: None,
            previous_at: None,
            edits: None,
            forward: true,
            hit: None,
        };
        let memory = memory.unwrap_or_default();
        let prog = memory
            .first()
            .map(|r| r.contents.clone())
            .unwrap_or_default();
        probe.watched = (watchpoints.iter().enumerate())
            .filter(|(_, w)| w.settings.enabled)
            .map(|(index, _)| Watched {
                index,
                register: Tree::NIL,
                value: None,
            })
            .collect();
        probe.look_again(&prog, memory);
        probe
    }

    /// Follows the source positions the session's tracker finds (its
    /// [`position_cell`](super::session::Session::position_cell)), from
    /// the position of the instruction run before the first one checked.
    pub fn with_positions(
        mut self,
        cell: Rc<Cell<Option<Position>>>,
        previous: Option<Position>,
    ) -> Probe<'a> {
        self.at = Some(cell);
        self.previous_at = previous;
        self
    }

    /// The source position of the code at the front of `prog`: where the
    /// tracker found it, else its first.
    fn position(&self, prog: &Tree) -> Option<Position> {
        let program = self.program?;
        program.position(prog, self.at.as_ref().and_then(|c| c.get()))
    }

    /// Follows the user's changes a run takes on its way (the session's
    /// [`edits_taken`](super::session::Session::edits_taken)): a register
    /// changed by `set` is no watchpoint's change.
    pub fn with_edits(mut self, counter: Rc<Cell<u64>>) -> Probe<'a> {
        let seen = counter.get();
        self.edits = Some((counter, seen));
        self
    }

    /// A search of the past: ignore counts are not used up.
    pub fn searching(mut self) -> Probe<'a> {
        self.forward = false;
        self
    }

    /// Takes the watched places' values as they are now.
    fn look_again(&mut self, prog: &Tree, memory: &[Register]) {
        for w in &mut self.watched {
            let place = &self.watchpoints[w.index].place;
            w.register = place
                .register_tree(prog, memory)
                .cloned()
                .unwrap_or_default();
            w.value = place.value(prog, memory).cloned();
        }
    }

    /// The test: whether to stop before the instruction at the front of
    /// `prog`. (When it stops, that instruction is the one run before the
    /// next check: a run goes on by running it unchecked.)
    pub fn check(&mut self, prog: &Tree, memory: &[Register]) -> bool {
        let previous = self.previous.replace(prog.node_id());
        let here = self.position(prog);
        let previous_at = std::mem::replace(&mut self.previous_at, here);
        if let Some((counter, seen)) = &mut self.edits
            && counter.get() != *seen
        {
            *seen = counter.get();
            self.look_again(prog, memory);
        }
        for w in &mut self.watched {
            let watchpoint = &self.watchpoints[w.index];
            let Some(register) = watchpoint.place.register_tree(prog, memory) else {
                continue;
            };
            if register.ptr_eq(&w.register) {
                continue;
            }
            w.register = register.clone();
            let now = watchpoint.place.value(prog, memory);
            let same = match (&w.value, now) {
                (Some(old), Some(now)) => old.ptr_eq(now) || old == now,
                (None, None) => true,
                _ => false,
            };
            if same {
                continue;
            }
            let old = std::mem::replace(&mut w.value, now.cloned());
            if watchpoint.settings.stops(prog, memory, self.forward) {
                self.hit = Some(Hit::Watch(w.index, old, now.cloned()));
                return true;
            }
        }
        if let Some(list) = self.breaks.get(&prog.node_id())
            && self.arrives(prog, previous, here, previous_at)
        {
            for &i in list {
                let b = &self.breakpoints[i];
                let there = b.positions.is_empty() || here.is_none_or(|p| b.positions.contains(&p));
                if there && b.settings.stops(prog, memory, self.forward) {
                    self.hit = Some(Hit::Breakpoint(i));
                    return true;
                }
            }
        }
        if self.goal_reached(prog, memory, here) {
            self.hit = Some(Hit::Goal);
            return true;
        }
        false
    }

    /// Whether control arrives at `prog` from elsewhere: from another
    /// source line than its own (as shown), not by a loop confined to that
    /// line going round again (`wait_step`'s spin).
    fn arrives(
        &self,
        prog: &Tree,
        previous: Option<usize>,
        here: Option<Position>,
        previous_at: Option<Position>,
    ) -> bool {
        let (Some(program), Some(previous)) = (self.program, previous) else {
            return true;
        };
        let line = match here {
            Some(p) => program.line_at(p),
            None => program.outer_line(prog),
        };
        let before = match previous_at {
            Some(p) if program.positions.node(p) == Some(previous) => program.line_at(p),
            _ => program.line_of(previous),
        };
        line.is_none() || before != line
    }

    fn goal_reached(&mut self, prog: &Tree, memory: &[Register], here: Option<Position>) -> bool {
        match &mut self.goal {
            Goal::None => false,
            Goal::Line { from, frame } => {
                if frame.as_mut().is_some_and(|f| !f.holds(prog, memory)) {
                    return false;
                }
                let Some(program) = self.program else {
                    return true;
                };
                let line = match here {
                    Some(p) => program.line_at(p),
                    None => program.outer_line(prog),
                };
                line.is_some() && line != *from
            }
            Goal::Return { stack, tails, to } => returned(prog, memory, *stack, tails, *to),
            Goal::Reach {
                nodes,
                positions,
                returns,
            } => {
                let there = positions.is_empty() || here.is_none_or(|p| positions.contains(&p));
                (there && nodes.contains(&prog.node_id()))
                    || returns.as_ref().is_some_and(|(stack, tails, to)| {
                        returned(prog, memory, *stack, tails, *to)
                    })
            }
            Goal::Output(out, last) => {
                let Some(now) = register(prog, memory, *out) else {
                    return false;
                };
                let written = now.node_id() != *last && now.is_cons();
                *last = now.node_id();
                written
            }
        }
    }
}

/// Whether a call has returned: the program register is the code it
/// returns to (`to`) and the stack register one of the `tails` below it.
fn returned(
    prog: &Tree,
    memory: &[Register],
    stack: usize,
    tails: &FxHashSet<usize>,
    to: usize,
) -> bool {
    prog.node_id() == to
        && register(prog, memory, stack).is_some_and(|s| tails.contains(&s.node_id()))
}

/// The node ids of a list's tails: the list itself (when `with_self`), its
/// back, its back's back, ... down to Nil (id 0).
pub fn tails(list: &Tree, with_self: bool) -> FxHashSet<usize> {
    let mut set = FxHashSet::default();
    let mut rest = list;
    if !with_self {
        match rest.back() {
            Some(b) => rest = b,
            None => return set,
        }
    }
    loop {
        set.insert(rest.node_id());
        match rest.back() {
            Some(b) => rest = b,
            None => break,
        }
    }
    set
}

//! Running: stepping by instruction, line and game step, continuing,
//! reverse execution, and the profile of a step.

use super::super::error::DebugError;
use super::super::points::{Frame, Goal, Hit, Probe, tails};
use super::super::positions::Position;
use super::super::session::{Event, Limit, Pos, RunEnd};
use super::super::source::{LineKey, Program};
use super::super::{Debugger, catchpoints};
use super::RunError;
use crate::machine::MachineError;
use crate::tree::Tree;
use rustc_hash::FxHashMap;

/// A search interrupted by Ctrl-C.
struct Interrupted;

/// Whether Ctrl-C was pressed during the present command.
fn interrupted() -> bool {
    super::super::INTERRUPT.load(std::sync::atomic::Ordering::Relaxed)
}

impl Debugger {
    /// Runs forward and reports why it stopped.
    fn go(&mut self, limit: Limit, use_points: bool, goal: Goal) -> Result<String, DebugError> {
        let (event, hit) = self.run_probe(limit, use_points, goal);
        Ok(self.stop_report(&event, hit))
    }

    /// Runs forward: why it stopped, and what the test found.
    pub(crate) fn run_probe(
        &mut self,
        limit: Limit,
        use_points: bool,
        goal: Goal,
    ) -> (Event, Option<Hit>) {
        self.rebind_breakpoints();
        let program = self.program();
        let memory = self.session.focused().map(|r| r.memory.clone());
        let (previous, previous_at) = self.last_run(use_points);
        let (bps, watches) = if use_points {
            (&self.breakpoints[..], &self.watches[..])
        } else {
            (&[][..], &[][..])
        };
        let mut probe = Probe::new(
            bps,
            watches,
            memory.as_deref(),
            goal,
            program.as_deref(),
            previous,
        )
        .with_edits(self.session.edits_taken())
        .with_positions(self.session.position_cell(), previous_at);
        let catches = if use_points {
            &self.catches[..]
        } else {
            &[][..]
        };
        let mut caught = None;
        let event = self.session.advance_catching(
            limit,
            true,
            &mut |p, m| probe.check(p, m),
            &mut |session| {
                caught = catchpoints::caught(catches, session, true);
                caught.is_some()
            },
        );
        let hit = match caught {
            Some((i, text)) if event == Event::Caught => Some(Hit::Catch(i, text)),
            _ => probe.hit.take(),
        };
        (event, hit)
    }

    /// The code node and source position of the instruction run just
    /// before the first one a run from here checks: the present one during
    /// a step (the run leaves it unchecked), else the last one the focused
    /// machine ran, found only when breakpoints need it (`None` at the
    /// start of history).
    fn last_run(&mut self, for_breakpoints: bool) -> (Option<usize>, Option<Position>) {
        let here = self.session.pos();
        if !here.is_done() {
            return (Some(self.prog().node_id()), self.session.position());
        }
        if !for_breakpoints || self.breakpoints.is_empty() {
            return (None, None);
        }
        let Some(before) = self.session.previous_instruction() else {
            return (None, None);
        };
        self.session.goto(before);
        let node = self.prog().node_id();
        let at = self.session.position();
        self.session.goto(here);
        (Some(node), at)
    }

    /// The source line shown for the focused machine's next instruction:
    /// at the position the session's tracker found it.
    pub(crate) fn line_here(&self, program: &Program) -> Option<LineKey> {
        program
            .position(&self.prog(), self.session.position())
            .and_then(|p| program.line_at(p))
    }

    /// What a stop shows: why, where, and the displays.
    pub(crate) fn stop_report(&mut self, event: &Event, hit: Option<Hit>) -> String {
        self.listed = None;
        let mut lines = Vec::new();
        match (event, hit) {
            (Event::Stopped | Event::Caught, Some(hit)) => lines.extend(self.record_hit(hit)),
            (Event::StepDone(end), _) => lines.push(self.end_text(end)),
            (Event::Fault(e), _) => {
                lines.push(format!("Machine error: {}", self.error_text(e)));
                lines.push(
                    "  the next instruction fails; when it runs the engine wipes every register"
                        .to_string(),
                );
            }
            (Event::FocusLost, _) => lines.push(format!(
                "The focused robot is gone: it was destroyed (or left no trace) in step {}. `focus` picks another.",
                self.session.pos().step
            )),
            (Event::GameOver, _) => lines.push(format!(
                "The game is over: its {} steps are played. `gstep` plays further steps.",
                self.session.scenario.steps
            )),
            (Event::Interrupted, _) => lines.push("Interrupted.".to_string()),
            (Event::Built, _) => lines.push(self.built_text()),
            _ => {}
        }
        lines.push(self.here());
        lines.extend(self.show_displays());
        lines.join("\n")
    }

    /// Counts a breakpoint's, watchpoint's or catchpoint's hit (a
    /// temporary breakpoint is deleted), says what was hit, and leaves its
    /// commands to run.
    fn record_hit(&mut self, hit: Hit) -> Vec<String> {
        let (lines, commands) = match hit {
            Hit::Breakpoint(i) => {
                let b = &self.breakpoints[i];
                let kind = if b.temporary {
                    "Temporary breakpoint"
                } else {
                    "Breakpoint"
                };
                let line = format!("{kind} {}, {}", b.id, b.place);
                b.settings.count_hit();
                let commands = b.settings.commands.clone();
                if b.temporary {
                    self.breakpoints.remove(i);
                }
                (vec![line], commands)
            }
            Hit::Watch(k, old, new) => {
                let w = &self.watches[k];
                let by = if self.session.pos().tick == 0 {
                    " (written by the engine as the step began)"
                } else {
                    ""
                };
                let shown = |value: Option<Tree>| {
                    value.map_or_else(
                        || format!("nothing (the path {} reaches no tree)", w.name),
                        |t| super::super::view::summary(&t, 70),
                    )
                };
                let lines = vec![
                    format!("Watchpoint {}: {} changed{by}", w.id, w.name),
                    format!("  old: {}", shown(old)),
                    format!("  new: {}", shown(new)),
                ];
                w.settings.count_hit();
                (lines, w.settings.commands.clone())
            }
            Hit::Catch(k, text) => {
                let c = &self.catches[k];
                let line = format!("Catchpoint {} ({}): {text}", c.id, c.what());
                c.settings.count_hit();
                (vec![line], c.settings.commands.clone())
            }
            Hit::Goal => return Vec::new(),
        };
        self.pending = commands;
        lines
    }

    fn end_text(&self, end: &RunEnd) -> String {
        let pos = self.session.pos();
        let ticks = self.session.end_of(pos.step).map_or(0, |(t, _)| *t);
        match end {
            RunEnd::Spent => format!(
                "Step {} is complete: the machine ran its {ticks} ticks.",
                pos.step
            ),
            RunEnd::Halted => format!(
                "The machine halted (its program register is Nil) after {ticks} ticks of step {}.",
                pos.step
            ),
            RunEnd::Wiped(e) => format!(
                "The machine failed in step {} ({}): the engine wiped every register.",
                pos.step,
                self.error_text(e)
            ),
        }
    }

    /// Where the focused machine is: the position, the next instruction
    /// and its source line.
    pub(crate) fn here(&self) -> String {
        let pos = self.session.pos();
        let Some(robot) = self.session.focused() else {
            return format!("{pos}: no robot in focus");
        };
        if pos.is_done() {
            let how = match self.session.end_of(pos.step) {
                Some((t, RunEnd::Spent)) => format!("its machine ran {t} ticks"),
                Some((t, RunEnd::Halted)) => format!("its machine halted after {t} ticks"),
                Some((t, RunEnd::Wiped(e))) => {
                    format!(
                        "its machine failed after {t} ticks ({})",
                        self.error_text(e)
                    )
                }
                None if pos.step == 0 => "before the first game step".to_string(),
                None => return pos.to_string(),
            };
            return format!("{pos}: {how}");
        }
        let prog = robot
            .memory
            .first()
            .map(|r| r.contents.clone())
            .unwrap_or_default();
        let budget = self.session.run().map_or(0, |r| r.budget);
        let at = self.session.position();
        let mut out = format!("{pos} of {budget}: {}", self.instruction_text_at(&prog, at));
        if let Some(program) = self.program()
            && let Some(key) = self.line_here(&program)
            && let Some(text) = program.source_line(key)
        {
            out.push_str(&format!("\n{:>5} | {}", key.1, text));
        }
        if let Some(e) = self.session.run().and_then(|r| r.fault.as_ref()) {
            out.push_str(&format!(
                "\n  the next instruction fails: {}",
                self.error_text(e)
            ));
        }
        out
    }

    /// A machine error, naming its register as the program does.
    fn error_text(&self, e: &MachineError) -> String {
        match self.program() {
            Some(program) => program.image.error_text(e),
            None => e.to_string(),
        }
    }

    /// `label+k `instruction` at file:line (macros)` for a piece of code,
    /// at the source position `at` when that is one of the code's (else
    /// at its first).
    pub(crate) fn instruction_text_at(&self, code: &Tree, at: Option<Position>) -> String {
        if code.is_nil() {
            return "halted (the program register is Nil)".to_string();
        }
        let names = self.register_names();
        let instr = code
            .front()
            .and_then(crate::encoding::Decode::decode)
            .map_or_else(
                || "(not an instruction)".to_string(),
                |i| crate::asm::show::instruction(i, &names),
            );
        let Some(program) = self.program() else {
            return format!("`{instr}`");
        };
        let position = program.position(code, at);
        let name = match position {
            Some(p) => program.name_at(p),
            None => program.name(code),
        };
        match name {
            Some(name) => {
                let at = position
                    .and_then(|p| program.location_at(p))
                    .map_or_else(String::new, |l| format!(" at {}", program.describe(l)));
                format!("{name} `{instr}`{at}")
            }
            None => format!("`{instr}` (code built at run time)"),
        }
    }

    pub(crate) fn stepi(&mut self, n: u64) -> Result<String, DebugError> {
        self.go(Limit::Ticks(n), true, Goal::None)
    }

    pub(crate) fn tick(&mut self, n: u64) -> Result<String, DebugError> {
        self.go(Limit::Ticks(n), false, Goal::None)
    }

    /// `continue N`: on to the Nth breakpoint or watchpoint hit (the
    /// hits on the way are counted), or the first other stop.
    pub(crate) fn cont(&mut self, n: u64) -> Result<String, DebugError> {
        for _ in 1..n {
            match self.run_probe(Limit::Unlimited, true, Goal::None) {
                (Event::Stopped, Some(hit)) => {
                    self.record_hit(hit);
                }
                (event, hit) => return Ok(self.stop_report(&event, hit)),
            }
        }
        self.go(Limit::Unlimited, true, Goal::None)
    }

    pub(crate) fn gstep(&mut self, n: u64) -> Result<String, DebugError> {
        self.go(Limit::Steps(n), false, Goal::None)
    }

    pub(crate) fn until_output(&mut self) -> Result<String, DebugError> {
        let out = self.session.focused().and_then(|r| r.memory.get(2));
        let Some(out) = out else {
            return Err(RunError::NoOutputRegister.into());
        };
        let goal = Goal::Output(2, out.contents.node_id());
        self.go(Limit::Unlimited, true, goal)
    }

    /// The focused machine's program register now.
    pub(crate) fn prog(&self) -> Tree {
        self.session
            .focused()
            .and_then(|r| r.memory.first())
            .map(|r| r.contents.clone())
            .unwrap_or_default()
    }

    /// The call stack register and its contents, if the image has a call
    /// convention.
    pub(crate) fn stack(&self) -> Option<(usize, Tree)> {
        let cs = self.program()?.image.callstack?;
        let tree = self
            .session
            .focused()?
            .memory
            .get(cs.stack)?
            .contents
            .clone();
        Some((cs.stack, tree))
    }

    /// `step` (into calls) or `next` (`over` them): N times, until the
    /// line shown changes.
    pub(crate) fn step_line(&mut self, n: u64, over: bool) -> Result<String, DebugError> {
        let program = self.source_program(": use stepi")?;
        let mut left = n;
        loop {
            left = left.saturating_sub(1);
            let from = self.line_here(&program);
            let frame = if over {
                self.stack().map(|(r, s)| Frame::new(r, &s))
            } else {
                None
            };
            let (event, hit) = self.run_probe(Limit::Unlimited, true, Goal::Line { from, frame });
            // Any other stop (a breakpoint, the end of the game) ends the
            // count, as in gdb.
            if left == 0 || !matches!((&event, &hit), (Event::Stopped, Some(Hit::Goal))) {
                return Ok(self.stop_report(&event, hit));
            }
        }
    }

    /// The call stack register and its contents, inside a call (an
    /// error otherwise: no call stack in the image, or an empty one).
    pub(crate) fn call_stack(&self) -> Result<(usize, Tree), DebugError> {
        let (register, stack) = self.stack().ok_or(RunError::NoCallStack)?;
        if stack.is_nil() {
            return Err(RunError::EmptyStack.into());
        }
        Ok((register, stack))
    }

    pub(crate) fn finish(&mut self) -> Result<String, DebugError> {
        let (register, stack) = self.call_stack()?;
        // A frame is the code of the call's jump; the call returns to the
        // code after it.
        let to = stack.front().and_then(Tree::back).map_or(0, Tree::node_id);
        let goal = Goal::Return {
            stack: register,
            tails: tails(&stack, false),
            to,
        };
        self.go(Limit::Unlimited, true, goal)
    }

    /// `reverse-stepi N`: one replay, from the snapshot nearest before
    /// the position N instructions back.
    pub(crate) fn reverse_stepi(&mut self, n: u64) -> Result<String, DebugError> {
        match self.session.instructions_back(n) {
            Some(p) => {
                self.session.goto(p);
                Ok(self.stop_report(&Event::Reached, None))
            }
            None => {
                let origin = self.session.origin();
                self.session.goto(origin);
                Ok(format!("At the start of history.\n{}", self.here()))
            }
        }
    }

    pub(crate) fn reverse_gstep(&mut self, n: u64) -> Result<String, DebugError> {
        let pos = self.session.pos();
        let origin = self.session.origin();
        let target = Pos::done(pos.step.saturating_sub(n));
        if target < origin || pos == origin {
            self.session.goto(origin);
            return Ok(format!("At the start of history.\n{}", self.here()));
        }
        self.session.goto(target);
        Ok(self.stop_report(&Event::Reached, None))
    }

    /// `reverse-continue N`: back to the Nth last breakpoint or
    /// watchpoint hit (the hits on the way are counted).
    pub(crate) fn reverse_continue(&mut self, n: u64) -> Result<String, DebugError> {
        let here = self.session.pos();
        for k in 1..=n {
            let Ok(last) = self.last_hit() else {
                self.session.goto(here);
                return Ok(self.stop_report(&Event::Interrupted, None));
            };
            match last {
                Some((pos, hit)) => {
                    self.session.goto(pos);
                    if k == n {
                        return Ok(self.stop_report(&Event::Stopped, hit));
                    }
                    if let Some(hit) = hit {
                        self.record_hit(hit);
                    }
                }
                None => break,
            }
        }
        let origin = self.session.origin();
        self.session.goto(origin);
        Ok(format!(
            "No breakpoint, watchpoint or catchpoint was hit before: at the start of history.\n{}",
            self.here()
        ))
    }

    /// The last breakpoint or watchpoint hit before now, if any, and what
    /// was hit (the position is left anywhere). History is searched back
    /// from the present a stretch at a time, each stretch replayed from
    /// the snapshot at its start: the cost is the ticks searched, not a
    /// whole step's.
    fn last_hit(&mut self) -> Result<Option<(Pos, Option<Hit>)>, Interrupted> {
        let here = self.session.pos();
        let mut end = here;
        while let Some(start) = self.session.replay_start_before(end) {
            if interrupted() {
                return Err(Interrupted);
            }
            // The memory and code just before the stretch's first check.
            let (memory, (previous, previous_at)) = if start.is_done() {
                self.session.goto(start);
                let memory = self.session.focused().map(|r| r.memory.clone());
                (memory, self.last_run(true))
            } else {
                // The state before the stretch costs a replay from the
                // snapshot before it: only watchpoints (their values then)
                // and a breakpoint at the stretch's first instruction (did
                // control arrive there?) need it.
                self.session.goto(start);
                self.rebind_breakpoints();
                let first = self.prog().node_id();
                let watching = self.watches.iter().any(|w| w.settings.enabled);
                if watching || self.breakpoints.iter().any(|b| b.nodes.contains(&first)) {
                    self.session.goto(Pos {
                        tick: start.tick - 1,
                        ..start
                    });
                    let memory = self.session.focused().map(|r| r.memory.clone());
                    let node = self.prog().node_id();
                    let at = self.session.position();
                    self.session.goto(start);
                    (memory, (Some(node), at))
                } else {
                    (None, (None, None))
                }
            };
            // History may hold another robot in focus here.
            self.rebind_breakpoints();
            let program = self.program();
            let mut probe = Probe::new(
                &self.breakpoints,
                &self.watches,
                memory.as_deref(),
                Goal::None,
                program.as_deref(),
                previous,
            )
            .with_edits(self.session.edits_taken())
            .with_positions(self.session.position_cell(), previous_at)
            .searching();
            let mut found = None;
            let mut skip = false;
            loop {
                let mut caught = None;
                let event = self.session.advance_catching(
                    Limit::To(end),
                    skip,
                    &mut |p, m| probe.check(p, m),
                    &mut |session| {
                        caught = catchpoints::caught(&self.catches, session, false);
                        caught.is_some()
                    },
                );
                if !matches!(event, Event::Stopped | Event::Caught) || self.session.pos() >= end {
                    break;
                }
                let hit = match caught {
                    Some((i, text)) if event == Event::Caught => Some(Hit::Catch(i, text)),
                    _ => probe.hit.take(),
                };
                found = Some((self.session.pos(), hit));
                skip = true;
            }
            if found.is_some() {
                return Ok(found);
            }
            end = start;
        }
        Ok(None)
    }

    pub(crate) fn profile(&mut self, n: u64) -> Result<String, DebugError> {
        let here = self.session.pos();
        let last = if here.is_done() {
            here.step
        } else {
            here.step - 1
        };
        let first = last
            .saturating_sub(n - 1)
            .max(self.session.origin().step + 1);
        if last < first {
            return Err(RunError::NothingToProfile.into());
        }
        let program = self.program();
        // Per instruction (its node, and its source position where the
        // session's tracker found one).
        let mut counts: FxHashMap<(usize, Option<Position>), u64> = FxHashMap::default();
        let at = self.session.position_cell();
        let mut total = 0u64;
        let mut spent = 0u64;
        // Per step: the ticks run before `out` last changed, if it holds a
        // command at the end of the step.
        let mut written: Vec<Option<u64>> = Vec::new();
        self.session.goto(Pos::done(first - 1));
        for step in first..=last {
            let (mut ticks, mut out, mut changed) = (0u64, Tree::NIL, 0u64);
            self.session
                .advance(Limit::To(Pos::done(step)), false, &mut |prog, memory| {
                    *counts.entry((prog.node_id(), at.get())).or_default() += 1;
                    let now = memory.get(2).map(|r| &r.contents);
                    if now.is_some_and(|t| *t != out) {
                        out = now.cloned().unwrap_or_default();
                        changed = ticks;
                    }
                    ticks += 1;
                    total += 1;
                    false
                });
            let end = self.session.focused().and_then(|r| r.memory.get(2));
            if end.is_some_and(|r| r.contents != out) {
                changed = ticks;
            }
            written.push(end.filter(|r| !r.contents.is_nil()).map(|_| changed));
            if let Some((_, RunEnd::Spent)) = self.session.end_of(step) {
                spent += 1;
            }
        }
        self.session.goto(here);
        let budget = self.session.focused().map_or(0, |r| r.processor.speed);
        // Node ids to blocks: the label each instruction belongs to.
        let mut blocks: FxHashMap<String, u64> = FxHashMap::default();
        if let Some(program) = &program {
            for ((node, at), c) in counts {
                let block = match at.filter(|&p| program.positions.node(p) == Some(node)) {
                    Some(p) => program.block_at(p),
                    None => program.block(node),
                };
                let name = block.map_or_else(|| "(code built at run time)".to_string(), |b| b.0);
                *blocks.entry(name).or_default() += c;
            }
        } else {
            blocks.insert("(no source map)".to_string(), total);
        }
        let mut rows: Vec<(String, u64)> = blocks.into_iter().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let steps = last - first + 1;
        let mut out = format!(
            "Profile of step{} {first}{}: {total} ticks, speed {budget} per step\n  ticks   share  block",
            if steps > 1 { "s" } else { "" },
            if steps > 1 {
                format!(" to {last}")
            } else {
                String::new()
            }
        );
        for (name, c) in rows {
            let share = if total == 0 {
                0.0
            } else {
                c as f64 * 100.0 / total as f64
            };
            out.push_str(&format!("\n{c:>7} {share:>6.1}%  {name}"));
        }
        let plural = |n: u64| if n == 1 { "" } else { "s" };
        out.push_str(&format!(
            "\nThe machine ran all its ticks in {spent} of {steps} step{} (spinning in `wait_step` counts).",
            plural(steps)
        ));
        let ready: Vec<u64> = written.iter().flatten().copied().collect();
        if let (Some(min), Some(max)) = (ready.iter().min(), ready.iter().max()) {
            out.push_str(&format!(
                "\nThe next command was in `out` after {} ticks{}.",
                if min == max {
                    min.to_string()
                } else {
                    format!("{min} to {max}")
                },
                if ready.len() as u64 == steps {
                    String::new()
                } else {
                    format!(" in {} of the {steps} steps", ready.len())
                }
            ));
        }
        let missing: Vec<String> = (first..=last)
            .zip(&written)
            .filter(|(_, w)| w.is_none())
            .map(|(s, _)| s.to_string())
            .collect();
        if !missing.is_empty() {
            out.push_str(&format!(
                "\n`out` was Nil at the end of step{} {}: the robot gives no command (Invalid) in the step after.",
                plural(missing.len() as u64),
                missing.join(", ")
            ));
        }
        Ok(out)
    }
}

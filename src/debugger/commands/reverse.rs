//! Going back by source lines and frames (`reverse-step`, `reverse-next`,
//! `reverse-finish`), and forward to a place (`until`, `advance`).
//!
//! History is searched back a stretch at a time: each stretch (from a
//! snapshot to the end of the part not yet searched) is replayed once,
//! noting for each instruction what the search needs (its source line,
//! whether it runs in the frame), and the notes are read from the latest
//! back. So going back over a call of a million instructions costs one
//! replay of them, not a million.

use super::super::Debugger;
use super::super::error::DebugError;
use super::super::points::{Frame, Goal, Hit, tails};
use super::super::session::{Event, Limit, Pos};
use super::super::source::LineKey;
use super::RunError;
use crate::machine::Register;
use crate::tree::Tree;

/// What a search back sees of each instruction.
#[derive(Debug, Clone, Copy)]
struct Seen {
    /// The source line shown for it.
    line: Option<LineKey>,
    /// The depth of the call stack (frames on it, counted up to one more
    /// than the present's), if the image has one.
    depth: Option<usize>,
    /// The depth of the instruction run before it in the same replay (a
    /// `ret`'s last instruction runs with its frame popped, after one that
    /// ran deeper).
    before: Option<usize>,
}

/// What a search back does at an instruction.
enum Search {
    /// Go on back.
    Back,
    /// Found: stop the search.
    Found,
}

impl Debugger {
    /// Visits the instructions of the past, the latest first, with what
    /// `see` notes of each, until `visit` finds one (`false` when history
    /// starts first, or Ctrl-C stops the search). The position is left
    /// anywhere.
    fn search_back(&mut self, mut visit: impl FnMut(Pos, Seen) -> Search) -> bool {
        let program = self.program();
        let stack = program
            .as_ref()
            .and_then(|p| p.image.callstack)
            .map(|c| c.stack);
        let deepest = self.stack().map_or(0, |(_, s)| depth(&s, usize::MAX)) + 1;
        // The source position the session's tracker finds for each
        // instruction as the replay runs it.
        let positions = self.session.position_cell();
        let mut end = self.session.pos();
        while let Some(start) = self.session.replay_start_before(end) {
            if super::super::INTERRUPT.load(std::sync::atomic::Ordering::Relaxed) {
                return false;
            }
            self.session.goto(start);
            let (step, first) = if start.is_done() {
                (start.step + 1, 0)
            } else {
                (start.step, start.tick)
            };
            let mut seen: Vec<Seen> = Vec::new();
            let mut note = |prog: &Tree, memory: &[Register]| {
                let register = |r: usize| {
                    if r == 0 {
                        Some(prog)
                    } else {
                        memory.get(r).map(|m| &m.contents)
                    }
                };
                let before = seen.last().and_then(|s| s.depth);
                let at = positions.get();
                seen.push(Seen {
                    line: program
                        .as_ref()
                        .and_then(|p| p.position(prog, at).and_then(|x| p.line_at(x))),
                    depth: stack.and_then(register).map(|s| depth(s, deepest)),
                    before,
                });
                false
            };
            self.session.advance(Limit::To(end), false, &mut note);
            for (i, s) in seen.into_iter().enumerate().rev() {
                let pos = Pos {
                    step,
                    tick: first + i as u64,
                };
                if pos >= end {
                    continue;
                }
                if let Search::Found = visit(pos, s) {
                    return true;
                }
            }
            end = start;
        }
        false
    }

    /// The start of the source line before the present one (in the
    /// present frame or an outer one when `frame`: where the stack is no
    /// deeper than now), if history has one. The position is left
    /// anywhere.
    fn line_back(&mut self, frame: bool) -> Option<Pos> {
        let program = self.program()?;
        let from = self.line_here(&program);
        // Frames are told by depth: a replay builds the stack's conses
        // anew, so the present stack's nodes are not found in it.
        let outer = frame.then(|| self.stack().map_or(0, |(_, s)| depth(&s, usize::MAX)));
        let mut line: Option<LineKey> = None;
        let mut best = None;
        self.search_back(|pos, seen| {
            let in_frame = match (outer, seen.depth) {
                (Some(outer), Some(depth)) => {
                    depth <= outer && seen.before.is_none_or(|b| b <= outer)
                }
                _ => true,
            };
            if !in_frame {
                return Search::Back;
            }
            match (line, seen.line) {
                (None, Some(now)) if Some(now) != from => {
                    line = Some(now);
                    best = Some(pos);
                }
                (Some(l), now) if now == Some(l) => best = Some(pos),
                (Some(_), _) => return Search::Found,
                _ => {}
            }
            Search::Back
        });
        best
    }

    /// `reverse-step N` (`over`: `reverse-next N`): back to the start of
    /// the line before, N times; `reverse-next` runs calls whole.
    pub(crate) fn reverse_line(&mut self, n: u64, over: bool) -> Result<String, DebugError> {
        self.source_program(": use reverse-stepi")?;
        for _ in 0..n {
            let frame = over && self.stack().is_some();
            let now = self.session.pos();
            match self.line_back(frame) {
                Some(p) => self.session.goto(p),
                None => {
                    self.session.goto(now);
                    if super::super::INTERRUPT.load(std::sync::atomic::Ordering::Relaxed) {
                        return Ok(self.stop_report(&Event::Interrupted, None));
                    }
                    return Ok(format!("At the start of history.\n{}", self.here()));
                }
            }
        }
        Ok(self.stop_report(&Event::Reached, None))
    }

    /// `reverse-finish`: back to the call of the present routine (the last
    /// instruction run with the stack without its top frame).
    pub(crate) fn reverse_finish(&mut self) -> Result<String, DebugError> {
        let (_, stack) = self.call_stack()?;
        let callers = depth(&stack, usize::MAX);
        let here = self.session.pos();
        let mut call = None;
        self.search_back(|pos, seen| match seen.depth {
            Some(d) if d < callers => {
                call = Some(pos);
                Search::Found
            }
            _ => Search::Back,
        });
        match call {
            Some(p) => {
                self.session.goto(p);
                Ok(self.stop_report(&Event::Reached, None))
            }
            None => {
                self.session.goto(here);
                Err(RunError::BeforeHistory.into())
            }
        }
    }

    /// `until` (without a place: as `next`, but a jump back to an earlier
    /// line does not stop it) and `until LOCATION` / `advance LOCATION`:
    /// on to the place, or until the present call returns.
    pub(crate) fn until(&mut self, args: &str) -> Result<String, DebugError> {
        let program = self.source_program(": use stepi")?;
        let args = args.trim();
        if args.is_empty() {
            return self.step_ahead();
        }
        let place = self.resolve(&program, args)?;
        let returns = self.stack().filter(|(_, s)| !s.is_nil()).map(|(r, s)| {
            let to = s.front().and_then(Tree::back).map_or(0, Tree::node_id);
            (r, tails(&s, false), to)
        });
        let goal = Goal::Reach {
            nodes: place.nodes,
            positions: place.positions,
            returns,
        };
        let (event, hit) = self.run_probe(Limit::Unlimited, true, goal);
        Ok(self.stop_report(&event, hit))
    }

    /// `until` without a place: `next` until a line after the present one
    /// (or in another file, or in an outer frame), or another stop.
    fn step_ahead(&mut self) -> Result<String, DebugError> {
        let program = self.source_program(": use stepi")?;
        let start = self.line_here(&program);
        loop {
            let from = self.line_here(&program);
            let frame = self.stack().map(|(r, s)| Frame::new(r, &s));
            let (event, hit) = self.run_probe(Limit::Unlimited, true, Goal::Line { from, frame });
            let goal = matches!((&event, &hit), (Event::Stopped, Some(Hit::Goal)));
            let now = self.line_here(&program);
            let back = matches!((start, now), (Some(f), Some(n)) if f.0 == n.0 && n.1 <= f.1);
            if !goal || !back {
                return Ok(self.stop_report(&event, hit));
            }
        }
    }
}

/// The length of a list, counted up to `most`.
fn depth(list: &Tree, most: usize) -> usize {
    list.iter_list().take(most).count()
}

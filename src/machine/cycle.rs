//! The cycle fast path: a machine whose memory comes back to a state it
//! had earlier in the same run (every register the same tree, the program
//! at the same node) repeats itself from there on, so the rest of its
//! ticks can be skipped modulo the cycle's length, leaving exactly the
//! state the full run leaves.
//!
//! States are compared by node identity, which is cheap and exact: nodes
//! never change, so the same node is the same tree. While the machine
//! runs, a flag records whether any register but the program changed to
//! another node since the last snapshot; a snapshot is then only the
//! program's node (held, so its address is not reused) and the tick it
//! was taken at. Before every tick, with no register changed since the
//! snapshot, the program at the snapshot's node is the snapshot's state
//! again. A change drops the snapshot, and a new one is taken after a few
//! ticks without a change, and again `span` ticks after a snapshot without
//! a match, the span doubling up to [`MAX_SPAN`] (Brent's cycle finding):
//! a cycle of at most [`MAX_SPAN`] ticks that changes no register but the
//! program (a robot spinning until its output is read, `wait_step`) is
//! found within two of its turns (and a few ticks) once the machine is in
//! it. A cycle costs nothing to skip whatever its number of turns, and it
//! ran once without error, so the skipped turns run without error too.
//!
//! The fast path is on by default; [`set_cycle_skip`] turns it off for
//! the whole process (the `CONSTREE_CYCLE_SKIP=off` environment
//! variable of the command line).

use crate::tree::Tree;
use std::sync::atomic::{AtomicBool, Ordering};

/// The longest cycle looked for, in ticks.
pub const MAX_SPAN: u64 = 1 << 12;

/// Whether [`super::run_for`] skips cycles.
static CYCLE_SKIP: AtomicBool = AtomicBool::new(true);

/// Turns the cycle fast path of [`super::run_for`] (and so of the world's
/// robots) on or off, for every thread.
pub fn set_cycle_skip(on: bool) {
    CYCLE_SKIP.store(on, Ordering::Relaxed);
}

/// Whether the cycle fast path is on.
pub fn cycle_skip() -> bool {
    CYCLE_SKIP.load(Ordering::Relaxed)
}

/// The environment variable that turns the fast path off (`off`) or on
/// (`on`, the default).
pub const CYCLE_SKIP_VARIABLE: &str = "CONSTREE_CYCLE_SKIP";

/// A value of [`CYCLE_SKIP_VARIABLE`] other than `on` and `off` (the value).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{CYCLE_SKIP_VARIABLE}={0}: the value must be `on` or `off`")]
pub struct BadCycleSkip(pub String);

/// Sets the fast path from [`CYCLE_SKIP_VARIABLE`], if it is set; any value
/// but `on` and `off` is an error that says so.
pub fn cycle_skip_from_environment() -> Result<(), BadCycleSkip> {
    let Some(value) = std::env::var_os(CYCLE_SKIP_VARIABLE) else {
        return Ok(());
    };
    match value.to_str() {
        Some("on") => set_cycle_skip(true),
        Some("off") => set_cycle_skip(false),
        _ => return Err(BadCycleSkip(value.to_string_lossy().into_owned())),
    }
    Ok(())
}

/// The state of the search for a cycle.
pub(super) struct Watch {
    /// The program at the snapshot.
    snapshot: Tree,
    /// The tick of the snapshot.
    at: u64,
    /// Ticks after the snapshot before it is taken again; 0 while there is
    /// no snapshot (at first, and after a change).
    span: u64,
    /// Looks since the last change.
    quiet: u64,
}

/// Looks without a change before a snapshot is taken: a machine that
/// changes a register every few ticks costs no reference counting here.
const QUIET_LOOKS: u64 = 8;

impl Watch {
    /// No snapshot yet: the first look takes one.
    pub(super) fn new() -> Watch {
        Watch {
            snapshot: Tree::NIL,
            at: 0,
            span: 0,
            quiet: 0,
        }
    }

    /// Before tick `ticks`, with `program` at the front of register 0 and
    /// `changed` saying whether another register changed since the last
    /// look (cleared here): the length of the cycle the machine is in, if
    /// its state is the snapshot's again.
    ///
    /// A change drops the snapshot without taking a new one; the
    /// [`QUIET_LOOKS`]-th look in a row without a change takes it.
    #[inline(always)]
    pub(super) fn look(&mut self, ticks: u64, program: &Tree, changed: &mut bool) -> Option<u64> {
        if *changed {
            *changed = false;
            self.span = 0;
            self.quiet = 0;
            return None;
        }
        if self.span == 0 {
            self.quiet += 1;
            if self.quiet < QUIET_LOOKS {
                return None;
            }
        }
        if self.span > 0 && ticks > self.at && program.ptr_eq(&self.snapshot) {
            return Some(ticks - self.at);
        }
        if self.span == 0 || ticks - self.at >= self.span {
            self.span = (self.span * 2).clamp(1, MAX_SPAN);
            self.snapshot = program.clone();
            self.at = ticks;
        }
        None
    }
}

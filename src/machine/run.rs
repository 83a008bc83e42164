//! Running a machine: `execute`, `runFor` and `runMachine` of the report.

use super::arena::COPY_LIMIT;
use super::cycle::{Watch, cycle_skip};
use super::instruction::memoised;
use super::store::{Checked, Store, execute_instruction, execute_parts};
use super::{Instruction, MachineError, Register, run_capped};
use crate::encoding::Decode;
use crate::tree::{SpineCursor, Tree};

/// The ticks a processor with a negative speed gets per run.
///
/// The report's `runFor` counts a negative speed down forever, so such a
/// machine runs until it halts or fails, and a looping one never returns.
/// constree gives it this many ticks instead (about a second of work), so a
/// world step always ends. Programs that halt within the budget behave exactly
/// as in the report.
pub const NEGATIVE_SPEED_TICKS: u64 = 100_000_000;

/// The number of ticks `runFor speed` may execute.
pub fn tick_budget(speed: i64) -> u64 {
    if speed < 0 {
        NEGATIVE_SPEED_TICKS
    } else {
        speed as u64
    }
}

/// What one tick did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// The memory is empty or the program register is Nil: nothing ran.
    Halted,
    /// An instruction was popped from register 0 and executed.
    Executed(Instruction),
}

/// How a successful run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunReport {
    /// Instructions executed.
    pub ticks: u64,
    /// Whether the machine stopped on a Nil program (or an empty memory)
    /// before its ticks ran out.
    pub halted: bool,
}

/// A memory while it runs: register 0's contents live in a cursor, so that
/// popping an instruction is a pointer move. With `WATCH`, writes that put
/// another tree in a register but the program are noted in `changed`
/// (for [`Watch`]).
pub(super) struct Running<'m, const WATCH: bool> {
    program: SpineCursor,
    memory: &'m mut [Register],
    changed: bool,
}

impl<'m, const WATCH: bool> Running<'m, WATCH> {
    /// Starts running; `memory` must not be empty.
    pub(super) fn new(memory: &'m mut [Register]) -> Running<'m, WATCH> {
        let program = SpineCursor::new(std::mem::take(&mut memory[0].contents));
        Running {
            program,
            memory,
            changed: false,
        }
    }

    /// Puts register 0's contents back.
    pub(super) fn stop(self) {
        self.memory[0].contents = self.program.into_current();
    }

    /// The tree in register `slot` (below the memory's length).
    #[inline(always)]
    fn tree(&self, slot: usize) -> &Tree {
        match slot {
            0 => self.program.current(),
            i => &self.memory[i].contents,
        }
    }

    /// Pops the next instruction off register 0, or `None` when the program
    /// is Nil.
    #[inline(always)]
    fn fetch(&mut self) -> Result<Option<Instruction>, MachineError> {
        let Some(head) = self.program.current().front() else {
            return Ok(None);
        };
        let Some(instruction) = Instruction::decode(head) else {
            return Err(MachineError::BadInstruction(self.program.current().clone()));
        };
        // Register 0 holds the rest of the program before the instruction
        // runs (no limit check: the rest is smaller than what was there).
        self.program.advance();
        Ok(Some(instruction))
    }

    /// One tick: `Ok(false)` when the program is Nil (nothing ran). An
    /// instruction whose decoding is memoised with operands that all name
    /// registers runs without decoding or checking them again; any other
    /// is decoded and checked as the report does.
    #[inline(always)]
    fn step(&mut self) -> Result<bool, MachineError> {
        let Some(head) = self.program.current().front() else {
            return Ok(false);
        };
        if let Some((tag, operands)) = memoised(head, self.memory.len()) {
            self.program.advance();
            return execute_parts(self, tag, operands.map(Checked)).map(|()| true);
        }
        match self.fetch()? {
            Some(instruction) => execute_instruction(self, instruction).map(|()| true),
            None => Ok(false),
        }
    }

    /// Up to `budget` ticks: the ticks executed, and whether the program
    /// halted (a Nil program) or the error of the instruction that failed
    /// (not counted).
    #[inline(always)]
    pub(super) fn run(&mut self, budget: u64) -> (u64, Result<bool, MachineError>) {
        let mut ticks = 0;
        while ticks < budget {
            match self.step() {
                Ok(true) => ticks += 1,
                Ok(false) => return (ticks, Ok(true)),
                Err(e) => return (ticks, Err(e)),
            }
        }
        (ticks, Ok(false))
    }
}

impl<const WATCH: bool> Store for Running<'_, WATCH> {
    type Tree = Tree;

    #[inline(always)]
    fn len(&self) -> usize {
        self.memory.len()
    }

    #[inline(always)]
    fn get(&self, slot: usize) -> Tree {
        self.tree(slot).clone()
    }

    #[inline(always)]
    fn is_nil(&self, slot: usize) -> bool {
        self.tree(slot).is_nil()
    }

    #[inline(always)]
    fn split(&self, slot: usize) -> Option<(Tree, Tree)> {
        let (front, back) = self.tree(slot).split()?;
        Some((front.clone(), back.clone()))
    }

    #[inline(always)]
    fn nil(&self) -> Tree {
        Tree::NIL
    }

    #[inline(always)]
    fn cons(&mut self, front: Tree, back: Tree) -> Tree {
        Tree::cons(front, back)
    }

    /// With `WATCH`, a write that puts another tree in a register but the
    /// program is noted in `changed`.
    #[inline(always)]
    fn write(&mut self, slot: usize, tree: Tree) -> bool {
        let register = &mut self.memory[slot];
        if !tree.fits(register.limit) {
            return false;
        }
        if slot == 0 {
            self.program.reset(tree);
        } else {
            if WATCH && !register.contents.ptr_eq(&tree) {
                self.changed = true;
            }
            register.contents = tree;
        }
        true
    }
}

impl Running<'_, true> {
    /// [`Running::run`] with the cycle fast path ([`super::cycle`]): once
    /// the machine is found in a cycle, the whole turns of it left in the
    /// budget are counted without being run, and the rest is run.
    fn run_skipping(&mut self, budget: u64) -> (u64, Result<bool, MachineError>) {
        let mut watch = Watch::new();
        let mut ticks = 0;
        while ticks < budget {
            if let Some(length) = watch.look(ticks, self.program.current(), &mut self.changed) {
                ticks += (budget - ticks) / length * length;
                let (rest, result) = self.run(budget - ticks);
                return (ticks + rest, result);
            }
            match self.step() {
                Ok(true) => ticks += 1,
                Ok(false) => return (ticks, Ok(true)),
                Err(e) => return (ticks, Err(e)),
            }
        }
        (ticks, Ok(false))
    }
}

/// The report's `execute`, in place. On error the memory may be partly
/// written; callers discard it (the run fails and the robot is wiped).
pub fn execute(instruction: Instruction, memory: &mut [Register]) -> Result<(), MachineError> {
    if memory.is_empty() {
        // Every instruction names at least one register.
        let index = match instruction {
            Instruction::Nilify(t) => t,
            Instruction::Construct(a, ..)
            | Instruction::Deconstruct(a, ..)
            | Instruction::CopyIfNil(a, ..) => a,
        };
        return Err(MachineError::NoSuchRegister(index));
    }
    let mut running = Running::<false>::new(memory);
    let result = execute_instruction(&mut running, instruction);
    running.stop();
    result
}

/// One tick of `runFor`: pop the next instruction off register 0 and run it.
pub fn tick(memory: &mut [Register]) -> Result<Tick, MachineError> {
    if memory.is_empty() {
        return Ok(Tick::Halted);
    }
    let mut running = Running::<false>::new(memory);
    let result = running.fetch().and_then(|fetched| match fetched {
        None => Ok(Tick::Halted),
        Some(instruction) => {
            execute_instruction(&mut running, instruction).map(|()| Tick::Executed(instruction))
        }
    });
    running.stop();
    result
}

/// The report's `runFor`: at most `speed` ticks (see [`tick_budget`] for
/// negative speeds), stopping early on a Nil program; with the cycle fast
/// path ([`super::cycle`]) when it is on.
pub fn run_for(speed: i64, memory: &mut [Register]) -> Result<RunReport, MachineError> {
    run_for_with(speed, memory, cycle_skip())
}

/// [`run_for`], skipping cycles ([`super::cycle`]) or not, as asked: the
/// memory, ticks and error are the same either way.
pub fn run_for_with(
    speed: i64,
    memory: &mut [Register],
    skip_cycles: bool,
) -> Result<RunReport, MachineError> {
    let budget = tick_budget(speed);
    if memory.is_empty() || budget == 0 {
        return Ok(RunReport {
            ticks: 0,
            halted: memory.is_empty() && budget > 0,
        });
    }
    let (ticks, result) = if skip_cycles {
        let mut running = Running::<true>::new(memory);
        let outcome = running.run_skipping(budget);
        running.stop();
        outcome
    } else if arena_pays(budget, memory) {
        run_in_arena(memory, budget)
    } else {
        let mut running = Running::<false>::new(memory);
        let outcome = running.run(budget);
        running.stop();
        outcome
    };
    result.map(|halted| RunReport { ticks, halted })
}

/// A run pays for loading its memory into the machine-private arena and
/// unloading it when the memory has at most this many conses (its
/// registers' sizes added up) per [`ARENA_PER_TICKS`] ticks of the budget:
/// measured on the benchmark worlds (`docs/performance.md`, "Issue 20,
/// fifth round"): the small world's robots (about 550 conses, 1,000 ticks
/// a step) run in the arena; the large world's (the same memories, 500
/// ticks) take 22% fewer instructions there but more processor time
/// (median of 15 runs 101 ms against 78 ms on plain trees: the copies and
/// the cache touch more memory than the ticks save), so they stay on
/// plain trees. The sixth round (registers loaded only when read, shared
/// trees cached when met twice) measured them again at 2 conses a tick:
/// 331 M instructions against 481 M, but still 5% more processor time
/// (56.7 ms against 54.0 ms): copying each robot's own trees reads nodes
/// that a plain run never reads.
const ARENA_CONSES: u64 = 3;

/// See [`ARENA_CONSES`].
const ARENA_PER_TICKS: u64 = 4;

/// Whether a run of `budget` ticks pays for loading `memory` into the
/// machine-private arena ([`super::arena`]) and unloading it: every
/// register small enough to be copied, and all of them together no more
/// than [`ARENA_CONSES`] conses per [`ARENA_PER_TICKS`] ticks. Loading is
/// then bounded by the budget.
fn arena_pays(budget: u64, memory: &[Register]) -> bool {
    let mut size: u64 = 0;
    for register in memory {
        let tree = register.contents.size();
        if tree > COPY_LIMIT {
            return false;
        }
        size = size.saturating_add(tree);
    }
    size.saturating_mul(ARENA_PER_TICKS) <= budget.saturating_mul(ARENA_CONSES)
}

/// [`Running::run`] in the machine-private arena ([`run_capped`] with no
/// cap): the same ticks, result and memory.
fn run_in_arena(memory: &mut [Register], budget: u64) -> (u64, Result<bool, MachineError>) {
    match run_capped(memory, budget, u64::MAX) {
        (ticks, Pause::Halted) => (ticks, Ok(true)),
        (ticks, Pause::Failed(e)) => (ticks, Err(e)),
        // Without a cap the run never stops before its budget.
        (ticks, Pause::Budget | Pause::Stopped) => (ticks, Ok(false)),
    }
}

/// Why [`run_until`] returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pause {
    /// The program register is Nil (or the memory empty): the run is over.
    Halted,
    /// The ticks allowed ran out.
    Budget,
    /// The `stop` test held before the next instruction.
    Stopped,
    /// The next instruction fails. The memory may be partly written by it
    /// (the report wipes it anyway); the ticks count only the instructions
    /// that succeeded before it.
    Failed(MachineError),
}

/// Runs up to `budget` ticks, testing `stop` before each instruction (but
/// the first, when `skip_first`) with the program register and the memory
/// (whose register 0 is empty while the machine runs). Returns the ticks
/// executed and why it paused. A debugger runs a machine under control with
/// it at nearly the machine's full speed.
pub fn run_until(
    memory: &mut [Register],
    budget: u64,
    skip_first: bool,
    stop: &mut dyn FnMut(&Tree, &[Register]) -> bool,
) -> (u64, Pause) {
    if memory.is_empty() {
        return (0, Pause::Halted);
    }
    let mut running = Running::<false>::new(memory);
    let mut ticks = 0;
    let pause = loop {
        if ticks >= budget {
            break Pause::Budget;
        }
        if running.program.current().is_nil() {
            break Pause::Halted;
        }
        if (ticks > 0 || !skip_first) && stop(running.program.current(), running.memory) {
            break Pause::Stopped;
        }
        let result = running
            .fetch()
            .and_then(|i| i.map_or(Ok(()), |i| execute_instruction(&mut running, i)));
        if let Err(e) = result {
            break Pause::Failed(e);
        }
        ticks += 1;
    };
    running.stop();
    (ticks, pause)
}

/// The report's `runMachine`: `runFor`, and on error every register is wiped
/// to Nil with its limit kept.
pub fn run_machine(speed: i64, memory: &mut [Register]) -> Result<RunReport, MachineError> {
    let result = run_for(speed, memory);
    if result.is_err() {
        wipe(memory);
    }
    result
}

/// Every register set to Nil, limits kept (`map (forceR Nil)`).
pub fn wipe(memory: &mut [Register]) {
    for r in memory {
        r.contents = Tree::NIL;
    }
}

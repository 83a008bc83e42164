//! Running a machine: `execute`, `runFor` and `runMachine` of the report.

use super::arena::COPY_LIMIT;
use super::cycle::{Watch, cycle_skip};
use super::instruction::memoised;
use super::store::{Checked, Operand, Store, execute_instruction, execute_parts};
use super::{Instruction, MachineError, Register, run_capped};
use crate::encoding::Decode;
use crate::tree::Tree;
use std::mem::ManuallyDrop;

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

/// A memory while it runs. Register 0's tree is held apart (`anchor`),
/// and the program runs along its right spine: register 0's contents are
/// the program's position as a copy of its pointer that owns nothing, so
/// that popping an instruction is a pointer move and every register is
/// read alike. With `WATCH`, writes that put another tree in a register but
/// the program are noted in `changed` (for [`Watch`]).
///
/// The invariant, on which the copy and the unchecked reads rest: `memory`
/// is not empty; register 0's contents are a node on `anchor`'s right spine
/// (or `anchor` itself), counted by nobody, replaced without being dropped
/// and given back owned when the `Running` is dropped; and a register index
/// that reaches the [`Store`] methods is below the memory's length (an
/// operand is checked against it when its code is memoised, [`memoised`],
/// or when it is used).
pub(super) struct Running<'m, const WATCH: bool> {
    /// What register 0 was last set to (owned).
    anchor: Tree,
    memory: &'m mut [Register],
    changed: bool,
}

impl<const WATCH: bool> Drop for Running<'_, WATCH> {
    /// Puts register 0's tree back, owned, in place of the copy.
    fn drop(&mut self) {
        let position = ManuallyDrop::new(std::mem::take(&mut self.memory[0].contents));
        self.memory[0].contents = if position.ptr_eq(&self.anchor) {
            std::mem::take(&mut self.anchor)
        } else {
            Tree::clone(&position)
        };
    }
}

impl<'m, const WATCH: bool> Running<'m, WATCH> {
    /// Starts running; `memory` must not be empty.
    pub(super) fn new(memory: &'m mut [Register]) -> Running<'m, WATCH> {
        let anchor = std::mem::take(&mut memory[0].contents);
        // SAFETY: `anchor` owns the node until the `Running` is dropped,
        // which replaces the copy without dropping it.
        memory[0].contents = ManuallyDrop::into_inner(unsafe { anchor.alias() });
        Running {
            anchor,
            memory,
            changed: false,
        }
    }

    /// Puts register 0's contents back.
    pub(super) fn stop(self) {
        drop(self);
    }

    /// The running memory, for as long as it is borrowed.
    #[inline(always)]
    fn machine(&mut self) -> Machine<'_, WATCH> {
        Machine {
            // SAFETY: register 0's contents are such a copy (the invariant).
            program: unsafe { self.memory[0].contents.alias() },
            anchor: &mut self.anchor,
            memory: &mut *self.memory,
            changed: self.changed,
        }
    }

    /// Up to `budget` ticks: the ticks executed, and whether the program
    /// halted (a Nil program) or the error of the instruction that failed
    /// (not counted).
    #[inline(always)]
    pub(super) fn run(&mut self, budget: u64) -> (u64, Result<bool, MachineError>) {
        let mut machine = self.machine();
        // Counted down: one instruction fewer a tick than counting up.
        let mut left = budget;
        let result = loop {
            if left == 0 {
                break Ok(false);
            }
            let Some(head) = machine.program.front() else {
                break Ok(true);
            };
            let word = head.memo_word();
            let outcome;
            (machine, outcome) = machine.execute(word);
            if let Err(e) = outcome {
                break Err(e);
            }
            left -= 1;
        };
        self.changed = machine.changed;
        (budget - left, result)
    }

    /// Pops the next instruction off register 0 and runs it, as the report
    /// does (decoded and checked): `None` when the program is Nil.
    fn tick(&mut self) -> Option<Result<Instruction, MachineError>> {
        let mut machine = self.machine();
        let fetched = machine.fetch().transpose()?;
        Some(fetched.and_then(|instruction| {
            execute_instruction(&mut machine, instruction).map(|()| instruction)
        }))
    }
}

/// A borrowed [`Running`], which the tick loop holds in registers: the
/// program's position (the same copy as register 0's contents), the
/// anchor, the memory and `changed`. Dropping it drops nothing.
struct Machine<'r, const WATCH: bool> {
    program: ManuallyDrop<Tree>,
    anchor: &'r mut Tree,
    memory: &'r mut [Register],
    changed: bool,
}

impl<const WATCH: bool> Machine<'_, WATCH> {
    /// Puts the program's position in register 0, in place of the copy
    /// there (not dropped: it owns nothing).
    #[inline(always)]
    fn mirror(&mut self) {
        debug_assert!(!self.memory.is_empty());
        // SAFETY: register 0 exists, and its contents are a copy that owns
        // nothing (the invariant of `Running`).
        unsafe {
            let slot = &mut self.memory.get_unchecked_mut(0).contents;
            std::mem::forget(std::mem::replace(
                slot,
                ManuallyDrop::into_inner(self.program.alias()),
            ));
        }
    }

    /// Moves the program past the instruction at its head, which is not
    /// Nil: register 0 holds the rest of the program before the instruction
    /// runs (no limit check: the rest is smaller than what was there).
    #[inline(always)]
    fn advance(&mut self) {
        if let Some(rest) = self.program.back() {
            // SAFETY: `rest` is on the anchor's right spine, as the program
            // was.
            self.program = unsafe { rest.alias() };
        }
        self.mirror();
    }

    /// The tree in register `slot` (below the memory's length).
    #[inline(always)]
    fn tree(&self, slot: usize) -> &Tree {
        debug_assert!(slot < self.memory.len());
        // SAFETY: `slot` is below the memory's length (the invariant of
        // `Running`).
        unsafe { &self.memory.get_unchecked(slot).contents }
    }

    /// Pops the next instruction off register 0, or `None` when the program
    /// is Nil.
    #[inline(always)]
    fn fetch(&mut self) -> Result<Option<Instruction>, MachineError> {
        let Some(head) = self.program.front() else {
            return Ok(None);
        };
        let Some(instruction) = Instruction::decode(head) else {
            return Err(MachineError::BadInstruction(Tree::clone(&self.program)));
        };
        self.advance();
        Ok(Some(instruction))
    }

    /// One tick: `Ok(false)` when the program is Nil (nothing ran).
    #[inline(always)]
    fn step(self) -> (Self, Result<bool, MachineError>) {
        let Some(head) = self.program.front() else {
            return (self, Ok(false));
        };
        let word = head.memo_word();
        let (machine, outcome) = self.execute(word);
        (machine, outcome.map(|()| true))
    }

    /// One tick of a program that is not Nil, whose head has the memo word
    /// `word`. An instruction whose decoding is memoised with operands that
    /// all name registers runs without decoding or checking them again, by
    /// one jump on its tag and whether it may write register 0; any other
    /// is decoded and checked as the report does. Takes and gives back the
    /// machine whole (instead of a reference to it), so that the loops keep
    /// it in registers.
    #[inline(always)]
    fn execute(mut self, word: u64) -> (Self, Result<(), MachineError>) {
        let outcome = match memoised(word, self.memory.len()) {
            Some(code) => {
                self.advance();
                let operands = code.operands.map(Checked);
                // Each kind an arm of its own: one jump.
                match code.kind {
                    0 => execute_parts(&mut Body(&mut self), 0, operands),
                    1 => execute_parts(&mut Body(&mut self), 1, operands),
                    2 => execute_parts(&mut Body(&mut self), 2, operands),
                    3 => execute_parts(&mut Body(&mut self), 3, operands),
                    4 => execute_parts(&mut self, 0, operands),
                    5 => execute_parts(&mut self, 1, operands),
                    6 => execute_parts(&mut self, 2, operands),
                    _ => execute_parts(&mut self, 3, operands),
                }
            }
            None => {
                let outcome;
                (self, outcome) = self.step_decoding();
                outcome
            }
        };
        (self, outcome)
    }

    /// A tick of an instruction not memoised (or with an operand that names
    /// no register), the program not Nil: decoded, which memoises it, and
    /// checked as the report does.
    #[cold]
    #[inline(never)]
    fn step_decoding(mut self) -> (Self, Result<(), MachineError>) {
        let outcome = match self.fetch() {
            Ok(Some(instruction)) => execute_instruction(&mut self, instruction),
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        };
        (self, outcome)
    }

    /// The limit of register `slot` (below the memory's length).
    #[inline(always)]
    fn limit(&self, slot: usize) -> i64 {
        debug_assert!(slot < self.memory.len());
        // SAFETY: `slot` is below the memory's length (the invariant of
        // `Running`).
        unsafe { self.memory.get_unchecked(slot).limit }
    }

    /// The tree in register `slot`, not 0 (whose copy of the program's
    /// position must not be dropped), and below the memory's length.
    #[inline(always)]
    fn register(&mut self, slot: usize) -> &mut Tree {
        debug_assert!(slot != 0 && slot < self.memory.len());
        // SAFETY: `slot` is below the memory's length (the invariant of
        // `Running`).
        unsafe { &mut self.memory.get_unchecked_mut(slot).contents }
    }

    /// Puts `tree` in register `slot`, not 0, if it fits the register's
    /// limit. With `WATCH`, a write that puts another tree there is noted
    /// in `changed`.
    #[inline(always)]
    fn write_register(&mut self, slot: usize, tree: Tree) -> bool {
        debug_assert!(slot != 0 && slot < self.memory.len());
        // SAFETY: `slot` is below the memory's length (the invariant of
        // `Running`).
        let register = unsafe { self.memory.get_unchecked_mut(slot) };
        if !tree.fits(register.limit) {
            return false;
        }
        if WATCH && !register.contents.ptr_eq(&tree) {
            self.changed = true;
        }
        register.contents = tree;
        true
    }
}

impl<const WATCH: bool> Store for Machine<'_, WATCH> {
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
        Tree::cons_inline(front, back)
    }

    /// A write to register 0 starts the program over at the tree written.
    #[inline(always)]
    fn write(&mut self, slot: usize, tree: Tree) -> bool {
        if slot != 0 {
            return self.write_register(slot, tree);
        }
        if !tree.fits(self.memory[0].limit) {
            return false;
        }
        *self.anchor = tree;
        // SAFETY: the anchor owns the node; register 0's copy of the old
        // position is replaced right after, without being read.
        self.program = unsafe { self.anchor.alias() };
        self.mirror();
        true
    }
}

/// A running memory as an instruction that writes no register 0 sees it
/// ([`super::instruction::Code::kind`] below 4): its writes need
/// not ask whether they write the program.
struct Body<'a, 'r, const WATCH: bool>(&'a mut Machine<'r, WATCH>);

impl<const WATCH: bool> Store for Body<'_, '_, WATCH> {
    type Tree = Tree;

    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }

    #[inline(always)]
    fn get(&self, slot: usize) -> Tree {
        self.0.get(slot)
    }

    #[inline(always)]
    fn is_nil(&self, slot: usize) -> bool {
        self.0.is_nil(slot)
    }

    #[inline(always)]
    fn split(&self, slot: usize) -> Option<(Tree, Tree)> {
        self.0.split(slot)
    }

    #[inline(always)]
    fn nil(&self) -> Tree {
        Tree::NIL
    }

    #[inline(always)]
    fn cons(&mut self, front: Tree, back: Tree) -> Tree {
        self.0.cons(front, back)
    }

    #[inline(always)]
    fn write(&mut self, slot: usize, tree: Tree) -> bool {
        self.0.write_register(slot, tree)
    }

    /// `Deconstruct` of a tree nobody else holds whose children both fit
    /// their targets: the children are moved out of it (no count changed)
    /// and written, front first, then back, as the report does, and the
    /// node is freed. `slot` is a target, so not 0. With `WATCH`, this
    /// counts as a change: the tree is replaced with one of its children,
    /// another tree.
    #[inline(always)]
    fn deconstruct_in_place<O: Operand>(&mut self, slot: usize, targets: [O; 2]) -> bool {
        let len = self.len();
        let (Ok(front_at), Ok(back_at)) = (targets[0].slot(len), targets[1].slot(len)) else {
            return false;
        };
        let machine = &mut *self.0;
        let tree = machine.tree(slot);
        let Some((front, back)) = tree.split() else {
            return false;
        };
        if tree.is_shared()
            || !front.fits(machine.limit(front_at))
            || !back.fits(machine.limit(back_at))
        {
            return false;
        }
        if WATCH {
            machine.changed = true;
        }
        let tree = std::mem::take(machine.register(slot));
        if let Some((front, back)) = tree.into_children() {
            *machine.register(front_at) = front;
            *machine.register(back_at) = back;
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
            let program = &self.memory[0].contents;
            if let Some(length) = watch.look(ticks, program, &mut self.changed) {
                ticks += (budget - ticks) / length * length;
                let (rest, result) = self.run(budget - ticks);
                return (ticks + rest, result);
            }
            let mut machine = self.machine();
            let outcome;
            (machine, outcome) = machine.step();
            self.changed = machine.changed;
            match outcome {
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
    let result = execute_instruction(&mut running.machine(), instruction);
    running.stop();
    result
}

/// One tick of `runFor`: pop the next instruction off register 0 and run it.
pub fn tick(memory: &mut [Register]) -> Result<Tick, MachineError> {
    if memory.is_empty() {
        return Ok(Tick::Halted);
    }
    let mut running = Running::<false>::new(memory);
    let result = running.tick().transpose().map(|fetched| match fetched {
        None => Tick::Halted,
        Some(instruction) => Tick::Executed(instruction),
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
        if running.memory[0].contents.is_nil() {
            break Pause::Halted;
        }
        if ticks > 0 || !skip_first {
            // The test sees register 0 empty, the program apart.
            let program = ManuallyDrop::new(std::mem::take(&mut running.memory[0].contents));
            let stopped = stop(&program, running.memory);
            running.memory[0].contents = ManuallyDrop::into_inner(program);
            if stopped {
                break Pause::Stopped;
            }
        }
        if let Some(Err(e)) = running.tick() {
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

//! Running a machine: `execute`, `runFor` and `runMachine` of the report.

use super::{Instruction, MachineError, Register};
use crate::encoding::Decode;
use crate::tree::Tree;

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
    if speed < 0 { NEGATIVE_SPEED_TICKS } else { speed as u64 }
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

#[inline(always)]
fn slot(index: i64, len: usize) -> Result<usize, MachineError> {
    match usize::try_from(index) {
        Ok(i) if i < len => Ok(i),
        _ => Err(MachineError::NoSuchRegister(index)),
    }
}

/// The report's `getTree`.
#[inline(always)]
fn get_tree(memory: &[Register], index: i64) -> Result<&Tree, MachineError> {
    Ok(&memory[slot(index, memory.len())?].contents)
}

/// The report's `setTree`: a checked write.
#[inline(always)]
fn set_tree(memory: &mut [Register], index: i64, tree: Tree) -> Result<(), MachineError> {
    let target = &mut memory[slot(index, memory.len())?];
    if !tree.fits(target.limit) {
        return Err(MachineError::OutOfMemory(index));
    }
    target.contents = tree;
    Ok(())
}

/// The report's `execute`, in place. On error the memory may be partly
/// written; callers discard it (the run fails and the robot is wiped).
#[inline(always)]
pub fn execute(instruction: Instruction, memory: &mut [Register]) -> Result<(), MachineError> {
    match instruction {
        Instruction::Nilify(tgt) => set_tree(memory, tgt, Tree::NIL),
        Instruction::Construct(fnt, bck, tgt) => {
            let front = get_tree(memory, fnt)?.clone();
            let back = get_tree(memory, bck)?.clone();
            set_tree(memory, tgt, Tree::cons(front, back))
        }
        Instruction::Deconstruct(src, fnt, bck) => {
            let Some((front, back)) = get_tree(memory, src)?.split() else {
                return Err(MachineError::DeconstructNil(src));
            };
            let (front, back) = (front.clone(), back.clone());
            // Front first, then back: with fnt == bck the back wins.
            set_tree(memory, fnt, front)?;
            set_tree(memory, bck, back)
        }
        Instruction::CopyIfNil(tst, src, tgt) => {
            // With a non-Nil test, src and tgt are not even checked.
            if get_tree(memory, tst)?.is_nil() {
                let source = get_tree(memory, src)?.clone();
                set_tree(memory, tgt, source)
            } else {
                Ok(())
            }
        }
    }
}

/// Pops the next instruction off register 0, or `None` when the machine
/// halts (empty memory or Nil program).
#[inline(always)]
fn fetch(memory: &mut [Register]) -> Result<Option<Instruction>, MachineError> {
    let Some(program) = memory.first_mut() else {
        return Ok(None);
    };
    let Some((head, rest)) = program.contents.split() else {
        return Ok(None);
    };
    let Some(instruction) = Instruction::decode(head) else {
        return Err(MachineError::BadInstruction(program.contents.clone()));
    };
    // Register 0 holds the rest of the program before the instruction runs
    // (no limit check: the rest is smaller than what was there).
    program.contents = rest.clone();
    Ok(Some(instruction))
}

/// One tick of `runFor`: pop the next instruction off register 0 and run it.
pub fn tick(memory: &mut [Register]) -> Result<Tick, MachineError> {
    match fetch(memory)? {
        None => Ok(Tick::Halted),
        Some(instruction) => {
            execute(instruction, memory)?;
            Ok(Tick::Executed(instruction))
        }
    }
}

/// The report's `runFor`: at most `speed` ticks (see [`tick_budget`] for
/// negative speeds), stopping early on a Nil program.
pub fn run_for(speed: i64, memory: &mut [Register]) -> Result<RunReport, MachineError> {
    let budget = tick_budget(speed);
    let mut ticks = 0;
    while ticks < budget {
        let Some(instruction) = fetch(memory)? else {
            return Ok(RunReport { ticks, halted: true });
        };
        execute(instruction, memory)?;
        ticks += 1;
    }
    Ok(RunReport { ticks, halted: false })
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

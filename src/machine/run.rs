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

fn register(memory: &[Register], index: i64) -> Result<&Register, MachineError> {
    usize::try_from(index)
        .ok()
        .and_then(|i| memory.get(i))
        .ok_or(MachineError::NoSuchRegister(index))
}

/// The report's `getTree`.
fn get_tree(memory: &[Register], index: i64) -> Result<Tree, MachineError> {
    register(memory, index).map(|r| r.contents.clone())
}

/// The report's `setTree`: a checked write.
fn set_tree(memory: &mut [Register], index: i64, tree: Tree) -> Result<(), MachineError> {
    let slot = usize::try_from(index)
        .ok()
        .and_then(|i| memory.get_mut(i))
        .ok_or(MachineError::NoSuchRegister(index))?;
    if !tree.fits(slot.limit) {
        return Err(MachineError::OutOfMemory(index));
    }
    slot.contents = tree;
    Ok(())
}

/// The report's `execute`, in place. On error the memory may be partly
/// written; callers discard it (the run fails and the robot is wiped).
pub fn execute(instruction: Instruction, memory: &mut [Register]) -> Result<(), MachineError> {
    match instruction {
        Instruction::Nilify(tgt) => set_tree(memory, tgt, Tree::NIL),
        Instruction::Construct(fnt, bck, tgt) => {
            let front = get_tree(memory, fnt)?;
            let back = get_tree(memory, bck)?;
            set_tree(memory, tgt, Tree::cons(front, back))
        }
        Instruction::Deconstruct(src, fnt, bck) => {
            let source = get_tree(memory, src)?;
            let Some((front, back)) = source.split() else {
                return Err(MachineError::DeconstructNil(src));
            };
            // Front first, then back: with fnt == bck the back wins.
            set_tree(memory, fnt, front.clone())?;
            set_tree(memory, bck, back.clone())
        }
        Instruction::CopyIfNil(tst, src, tgt) => {
            // With a non-Nil test, src and tgt are not even checked.
            if register(memory, tst)?.contents.is_nil() {
                let source = get_tree(memory, src)?;
                set_tree(memory, tgt, source)
            } else {
                Ok(())
            }
        }
    }
}

/// One tick of `runFor`: pop the next instruction off register 0 and run it.
pub fn tick(memory: &mut [Register]) -> Result<Tick, MachineError> {
    let Some(program) = memory.first_mut() else {
        return Ok(Tick::Halted);
    };
    let Some((head, rest)) = program.contents.split() else {
        return Ok(Tick::Halted);
    };
    let Some(instruction) = Instruction::decode(head) else {
        return Err(MachineError::BadInstruction(program.contents.clone()));
    };
    // Register 0 holds the rest of the program before the instruction runs
    // (no limit check: the rest is smaller than what was there).
    program.contents = rest.clone();
    execute(instruction, memory)?;
    Ok(Tick::Executed(instruction))
}

/// The report's `runFor`: at most `speed` ticks (see [`tick_budget`] for
/// negative speeds), stopping early on a Nil program.
pub fn run_for(speed: i64, memory: &mut [Register]) -> Result<RunReport, MachineError> {
    let budget = tick_budget(speed);
    let mut ticks = 0;
    while ticks < budget {
        if tick(memory)? == Tick::Halted {
            return Ok(RunReport { ticks, halted: true });
        }
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

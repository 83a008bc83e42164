//! The constree register machine (the report's Appendix "Constree Language").
//!
//! A memory is a list of registers, each a tree with a size limit. Register 0
//! is the program, 1 the input, 2 the output; the rest are workspace. One tick
//! pops the next instruction off register 0 and executes it; a Nil program
//! stops the machine. Any error ends the run, and a robot whose run ended in
//! an error has every register wiped to Nil ([`run_machine`]).

mod arena;
mod capped;
mod cycle;
mod document;
mod error;
mod instruction;
mod outcome;
mod register;
mod run;
mod store;

pub use arena::forget_read_registers;
pub use capped::run_capped;
pub use cycle::{
    BadCycleSkip, CYCLE_SKIP_VARIABLE, MAX_SPAN, cycle_skip, cycle_skip_from_environment,
    set_cycle_skip,
};
pub use document::MachineDocument;
pub use error::MachineError;
pub use instruction::Instruction;
pub use outcome::Outcome;
pub use register::{Memory, Register, trim};
pub use run::{
    NEGATIVE_SPEED_TICKS, Pause, RunReport, Tick, execute, run_for, run_for_with, run_machine,
    run_until, tick, tick_budget, wipe,
};

#[cfg(test)]
mod tests;

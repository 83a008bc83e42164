//! The result of `runFor` in the interchange format.

use super::{MachineError, Memory, run_for, wipe};
use serde::{Deserialize, Serialize};

/// `{"ok": Memory}` when `runFor` returned `Right`, or
/// `{"err": Error, "wiped": Memory}` when it returned `Left`; `wiped` is the
/// memory with every register emptied, what `runMachine` leaves in a robot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Outcome {
    /// The run ended normally.
    Ok {
        /// The memory after the run.
        ok: Memory,
    },
    /// The run failed.
    Err {
        /// Why.
        err: MachineError,
        /// The memory, wiped.
        wiped: Memory,
    },
}

impl Outcome {
    /// Runs `runFor speed` on a memory and reports the outcome.
    pub fn of_run(speed: i64, mut memory: Memory) -> Outcome {
        match run_for(speed, &mut memory) {
            Ok(_) => Outcome::Ok { ok: memory },
            Err(err) => {
                wipe(&mut memory);
                Outcome::Err { err, wiped: memory }
            }
        }
    }
}

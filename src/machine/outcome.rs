//! The result of `runFor` in the interchange format.

use super::{MachineError, Memory, Pause, run_capped, run_for, tick_budget, wipe};
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

    /// [`Outcome::of_run`], stopped (with `Err` giving the ticks run) as
    /// soon as the memory holds more than `max_nodes` tree nodes that the
    /// run built ([`run_capped`]): a program that grows a list every tick
    /// for a billion ticks is stopped before it takes the machine's memory.
    pub fn of_run_capped(speed: i64, mut memory: Memory, max_nodes: u64) -> Result<Outcome, u64> {
        let (ticks, pause) = run_capped(&mut memory, tick_budget(speed), max_nodes);
        match pause {
            Pause::Halted | Pause::Budget => Ok(Outcome::Ok { ok: memory }),
            Pause::Failed(err) => {
                wipe(&mut memory);
                Ok(Outcome::Err { err, wiped: memory })
            }
            Pause::Stopped => Err(ticks),
        }
    }
}

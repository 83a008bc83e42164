//! The machine's errors (the report's `data Error`).

use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// Why a machine run failed. Any of these wipes the robot's memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum MachineError {
    /// Register 0 does not start with an instruction; carries the whole
    /// program register.
    #[error("bad instruction: the program register does not start with an instruction")]
    BadInstruction(Tree),
    /// An instruction named a register that does not exist.
    #[error("no such register: {0}")]
    NoSuchRegister(i64),
    /// `Deconstruct` of a register holding Nil.
    #[error("deconstruct of Nil in register {0}")]
    DeconstructNil(i64),
    /// A write would exceed the register's limit.
    #[error("out of memory in register {0}")]
    OutOfMemory(i64),
    /// Declared by the report but never produced by its code; kept so that
    /// the interchange format can name it.
    #[error("invalid output")]
    InvalidOutput,
}

impl MachineError {
    /// The error's text with the register it names given as `NAME (rN)`,
    /// where `name` knows the register's name (else as the report says it).
    pub fn named(&self, name: &dyn Fn(usize) -> Option<String>) -> String {
        let register = |r: i64| {
            usize::try_from(r)
                .ok()
                .and_then(name)
                .map_or_else(|| format!("register {r}"), |n| format!("{n} (r{r})"))
        };
        match self {
            MachineError::DeconstructNil(r) => format!("deconstruct of Nil in {}", register(*r)),
            MachineError::OutOfMemory(r) => format!("out of memory in {}", register(*r)),
            other => other.to_string(),
        }
    }
}

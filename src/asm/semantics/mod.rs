//! The source semantics: what a program means, defined on its source.
//!
//! An interpreter that runs a program as `docs/language.md` ("What a
//! program means") describes it, after macro expansion: labels, falling
//! through from one block into the next, jumps, branches, `call` and `ret`
//! through the call convention, constants, `entry` and `code(LABEL)`. It
//! knows nothing of how the assembler numbers code and constant registers,
//! lays out blocks, shares suffixes or encodes code: code is a symbol, "the
//! code that starts at this instruction" ([`Value::Code`]).
//!
//! It shares the lexer, the parser, the macro expander and the evaluator of
//! constant values with the assembler, and nothing after them: it is the
//! definition that the assembler's output is checked against
//! (`tests/semantics.rs`).

mod operands;
mod program;
mod run;
mod value;

pub use program::{Instr, Op, Operand, Program, Register, Undefined};
pub use run::{Fault, Outcome, Run, run};
pub use value::{Pair, Pos, Value};

use super::macros;
use super::source::{Loader, SourceFile};

/// Expands a program given its main file and reads it as the semantics
/// sees it.
pub fn load(loader: &dyn Loader, main: SourceFile) -> Result<Program, Undefined> {
    Program::from_expansion(&macros::expand(loader, main))
}

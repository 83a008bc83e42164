//! The source semantics: what a program means, defined on its source.
//!
//! An interpreter that runs a program as `docs/language.md` ("What a
//! program means") describes it, after macro expansion: labels, falling
//! through from one block into the next, jumps, branches, `call` and `ret`
//! through the call convention, constants, `entry`, `code(LABEL)` and
//! `image(FILE)`. It
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
use super::source::{Loader, ModulePath, SourceFile, Span};
use std::cell::RefCell;
use std::rc::Rc;

/// Expands a program given its main file and reads it as the semantics
/// sees it (and the programs its `image(...)`s name, likewise).
pub fn load(loader: &dyn Loader, main: SourceFile) -> Result<Program, Undefined> {
    Loading {
        loader,
        open: RefCell::new(Vec::new()),
    }
    .program(main)
}

/// Programs being read, for `image(...)` of programs that embed others.
struct Loading<'l> {
    loader: &'l dyn Loader,
    /// The files being read, outermost first.
    open: RefCell<Vec<String>>,
}

impl Loading<'_> {
    fn program(&self, main: SourceFile) -> Result<Program, Undefined> {
        let key = main
            .path
            .as_ref()
            .map_or_else(|| main.name.clone(), |p| p.display().to_string());
        if self.open.borrow().contains(&key) {
            return Err(Undefined {
                span: None,
                message: format!("`{key}` embeds itself"),
            });
        }
        self.open.borrow_mut().push(key);
        let from = main.path.clone();
        let expansion = macros::expand(self.loader, main);
        let images = |file: &str, span: Span| {
            let source = self
                .loader
                .load(&ModulePath::File(file.into()), from.as_deref())
                .map_err(|m| Undefined::at(span, m))?;
            self.program(source).map(Rc::new)
        };
        let program = Program::from_expansion(&expansion, &images);
        self.open.borrow_mut().pop();
        program
    }
}

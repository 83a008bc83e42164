//! What name resolution produces: the registers, code blocks and constants
//! of a program, every name resolved.

use crate::asm::ast::{Expr, Ident, Name};
use crate::asm::macros::Chain;
use crate::asm::source::Span;
use crate::tree::Tree;
use rustc_hash::FxHashMap as HashMap;

/// Limit of a declared register without one.
pub const DEFAULT_LIMIT: i64 = 4096;
/// Limit of `in` unless declared.
pub const DEFAULT_INPUT_LIMIT: i64 = 4096;
/// Limit of `out` unless declared.
pub const DEFAULT_OUTPUT_LIMIT: i64 = 1024;

/// The four instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Opcode {
    /// `nilify t`
    Nilify,
    /// `construct f, b, t`
    Construct,
    /// `deconstruct s, f, b`
    Deconstruct,
    /// `copyifnil t, s, d`
    CopyIfNil,
}

impl Opcode {
    /// The four, in the report's order.
    pub const ALL: [Opcode; 4] = [
        Opcode::Nilify,
        Opcode::Construct,
        Opcode::Deconstruct,
        Opcode::CopyIfNil,
    ];

    /// Every instruction takes this many ticks.
    pub const TICKS: u64 = 1;

    /// Its operands, as `docs/language.md` names them.
    pub fn operands(self) -> &'static str {
        match self {
            Opcode::Nilify => "t",
            Opcode::Construct => "f, b, t",
            Opcode::Deconstruct => "s, f, b",
            Opcode::CopyIfNil => "t, s, d",
        }
    }

    /// What it does, as the table of `docs/language.md` says (checked
    /// there).
    pub fn effect(self) -> &'static str {
        match self {
            Opcode::Nilify => "`t := Nil`",
            Opcode::Construct => "`t := Cons f b`",
            Opcode::Deconstruct => "`f := front s`, then `b := back s` (error if `s` is Nil)",
            Opcode::CopyIfNil => "if `t` is Nil then `d := s`",
        }
    }

    /// The opcode of a mnemonic (any case).
    pub fn parse(name: &str) -> Option<Opcode> {
        let all = [
            Opcode::Nilify,
            Opcode::Construct,
            Opcode::Deconstruct,
            Opcode::CopyIfNil,
        ];
        // Mostly written in lower case: compared as it is first.
        all.into_iter()
            .find(|op| op.mnemonic() == name)
            .or_else(|| {
                all.into_iter()
                    .find(|op| op.mnemonic().eq_ignore_ascii_case(name))
            })
    }

    /// Number of operands.
    pub fn arity(self) -> usize {
        if self == Opcode::Nilify { 1 } else { 3 }
    }

    /// The mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            Opcode::Nilify => "nilify",
            Opcode::Construct => "construct",
            Opcode::Deconstruct => "deconstruct",
            Opcode::CopyIfNil => "copyifnil",
        }
    }

    /// The engine's instruction with these operands.
    pub fn instruction(self, o: [i64; 3]) -> crate::machine::Instruction {
        use crate::machine::Instruction as I;
        match self {
            Opcode::Nilify => I::Nilify(o[0]),
            Opcode::Construct => I::Construct(o[0], o[1], o[2]),
            Opcode::Deconstruct => I::Deconstruct(o[0], o[1], o[2]),
            Opcode::CopyIfNil => I::CopyIfNil(o[0], o[1], o[2]),
        }
    }

    /// The operands this instruction writes (for `copyifnil`, the target,
    /// if the test is Nil).
    pub fn targets(self, o: [i64; 3]) -> impl Iterator<Item = i64> {
        super::written_operands(self).iter().map(move |&k| o[k])
    }

    /// The operands this instruction reads.
    pub fn sources(self, o: [i64; 3]) -> impl Iterator<Item = i64> {
        super::read_operands(self).iter().map(move |&k| o[k])
    }
}

/// How a register's limit is given.
#[derive(Debug, Clone)]
pub enum LimitSpec {
    /// Not given: this default.
    Default(i64),
    /// `auto`: the size of its initial contents (or code).
    Auto,
    /// Given in the source (and where).
    Given(i64, Span),
}

/// What a register is for.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// `prog`, `in` or `out`.
    Predeclared,
    /// Declared with `reg`.
    Declared,
    /// A hand-laid `block`; its index in [`Resolved::blocks`].
    HandBlock(usize),
    /// The code of an automatic block; its index in [`Resolved::blocks`].
    Code(usize),
    /// A constant; its index in [`Resolved::constants`].
    Constant(usize),
}

/// A register of the program.
#[derive(Debug, Clone)]
pub struct RegInfo {
    /// Its name (constants and code registers get descriptive names).
    pub name: Name,
    /// Where it was declared.
    pub span: Option<Span>,
    /// Its limit.
    pub limit: LimitSpec,
    /// Its initial contents, if declared with a value.
    pub init: Option<Box<Expr>>,
    /// What it is for.
    pub role: Role,
}

/// An instruction with its operands resolved to register indices.
#[derive(Debug, Clone)]
pub struct Instr {
    /// Which instruction.
    pub op: Opcode,
    /// Register indices (unused ones 0).
    pub operands: [i64; 3],
    /// The operands as written (empty once resolved into `operands`, in
    /// the code that runs).
    pub exprs: Box<[Expr]>,
    /// Where each operand was written.
    pub operand_spans: [Span; 3],
    /// Where the instruction was written.
    pub span: Span,
    /// The macro expansions it came from.
    pub chain: Chain,
}

/// A block of code: what follows a label, up to the next label.
#[derive(Debug, Clone)]
pub struct Block {
    /// Its labels (several labels may start the same block).
    pub labels: Vec<Ident>,
    /// Its instructions.
    pub instrs: Vec<Instr>,
    /// The section it is in.
    pub section: usize,
    /// The block laid out after it in the same section.
    pub next: Option<usize>,
    /// For a hand-laid block: its register, and the register its code
    /// continues with (`tail`), with labels at offsets (boxed: most blocks
    /// are not hand-laid, and a program may have hundreds of thousands).
    pub hand: Option<Box<HandLayout>>,
    /// Where it starts.
    pub span: Span,
}

/// The layout of a hand-laid `block`.
#[derive(Debug, Clone)]
pub struct HandLayout {
    /// Its register.
    pub register: usize,
    /// The register whose contents follow its instructions (resolved once
    /// labels have their registers).
    pub tail: Option<(usize, Span)>,
    /// The name given to `tail`.
    pub tail_name: Option<Ident>,
    /// Labels inside it: `(label, offset)`.
    pub labels: Vec<(Ident, usize)>,
}

/// A constant operand.
#[derive(Debug, Clone)]
pub struct Constant {
    /// The expression.
    pub expr: Expr,
    /// Its value when it could be computed before layout (so constants are
    /// shared by value); `None` when it needs code (`code(label)`).
    pub early: Option<Tree>,
}

/// A program with every name resolved.
#[derive(Debug, Default)]
pub struct Resolved {
    /// Registers by index.
    pub registers: Vec<RegInfo>,
    /// Code blocks.
    pub blocks: Vec<Block>,
    /// The entry block (the first block of the main file, or `entry`).
    pub entry: Option<usize>,
    /// The constant operands.
    pub constants: Vec<Constant>,
    /// Labels: name to block (automatic labels start their block).
    pub labels: HashMap<Name, usize>,
    /// The call convention: `(stack, link)` registers.
    pub callstack: Option<(usize, usize)>,
    /// Which sections are the main file's.
    pub main_sections: Vec<bool>,
    /// Per block: whether code that can run reaches it (only those are laid
    /// out; the others only have their names checked).
    pub reached: Vec<bool>,
}

#[cfg(test)]
mod tests {
    use super::Opcode;

    #[test]
    fn the_instructions_are_the_language_docs_table() {
        let docs = include_str!("../../../docs/language.md");
        for op in Opcode::ALL {
            let row = format!(
                "| `{} {}` | {} |",
                op.mnemonic(),
                op.operands(),
                op.effect()
            );
            assert!(docs.contains(&row), "docs/language.md lacks {row}");
        }
    }
}

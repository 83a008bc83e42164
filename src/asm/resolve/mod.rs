//! Name resolution: registers, labels and constants; register numbering;
//! instruction operands.
//!
//! Registers are numbered: `prog` 0, `in` 1, `out` 2, then declared
//! registers (explicit `@N` indices first, the others in order, filling the
//! lowest free index), then hand-laid `block` registers, then one code
//! register per label that is jumped to (or otherwise named as a register),
//! then constant registers, one per distinct constant operand.
//!
//! The passes, in order, are in `declarations.rs` (registers and their
//! numbers), `blocks.rs` (code blocks, code registers, tails) and
//! `operands.rs` (operands, constant registers, directives); `program.rs`
//! holds what they produce ([`Resolved`]).

mod blocks;
mod declarations;
mod operands;
mod program;

pub(crate) use blocks::into_instruction;
pub use program::{
    Block, Constant, DEFAULT_INPUT_LIMIT, DEFAULT_LIMIT, DEFAULT_OUTPUT_LIMIT, HandLayout, Instr,
    LimitSpec, Opcode, RegInfo, Resolved, Role,
};

use super::Faults;
use super::ast::{Expr, ExprKind, Name};
use super::macros::{Expansion, Item, Section};
use super::source::Span;
use crate::diagnostic::{Code, Diagnostic};
use crate::tree::{NodeTable, Tree};
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

/// What a name in the global namespace is. Indices are `u32` so that the
/// table of names costs 32 bytes a name (programs may declare millions);
/// an assembly expands to far fewer than 2^32 statements
/// ([`crate::limits::MAX_EXPANDED`]).
#[derive(Debug, Clone, Copy)]
enum Symbol {
    /// A register, by index.
    Register(u32),
    /// A label, by block.
    Label(u32),
    /// A constant.
    Const,
}

impl Symbol {
    /// Register `index`.
    fn register(index: usize) -> Symbol {
        Symbol::Register(compact(index))
    }

    /// The label that starts block `block`.
    fn label(block: usize) -> Symbol {
        Symbol::Label(compact(block))
    }
}

/// An index of a register or block, as [`Symbol`] keeps it.
fn compact(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

struct Resolver<'e> {
    /// The expansion (its sections are in `sections`).
    expansion: &'e Expansion,
    /// The expansion's sections, shared with the passes that walk them
    /// while changing the resolver. Once the blocks are found they hold
    /// every statement but the instructions, which moved into the blocks
    /// (all of them stay when `keep_instructions`).
    sections: Rc<Vec<Section>>,
    /// Whether the sections keep the instructions (for the symbol index).
    keep_instructions: bool,
    out: Resolved,
    diagnostics: Vec<Diagnostic>,
    /// Every name, and what it is (where it was defined is kept with what
    /// it names: see `defined_at`).
    names: HashMap<Name, Symbol>,
    /// Where each label was defined.
    label_spans: HashMap<Name, Span>,
    /// Constant registers by value (or by expression, for values that need
    /// code).
    constant_by_value: HashMap<ConstantKey, usize>,
    /// The constant registers of operands that are a lone number or name
    /// with a value known before layout: found once, not evaluated again
    /// at every use (the names and constants are all known by then, so an
    /// equal operand always gives the same register).
    simple_constants: HashMap<SimpleConstant, usize>,
    /// Ids of the constants' trees: equal trees get equal ids, at a cost in
    /// proportion to their distinct nodes (never their logical size).
    tree_ids: NodeTable,
    /// Every tree given an id: the table knows nodes by address, so they
    /// live as long as it does.
    identified: Vec<Tree>,
}

/// An operand whose constant register [`Resolver::simple_constants`]
/// remembers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum SimpleConstant {
    /// A number (`#42`).
    Number(u64),
    /// A constant's or a built-in value's name.
    Name(Name),
}

impl SimpleConstant {
    /// The operand, if it is a lone number or name.
    fn of(e: &Expr) -> Option<SimpleConstant> {
        match &e.kind {
            ExprKind::Number(n) => Some(SimpleConstant::Number(*n)),
            ExprKind::Name(n) => Some(SimpleConstant::Name(n.clone())),
            _ => None,
        }
    }
}

/// What makes two constant operands the same register.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum ConstantKey {
    /// A value known before layout: its tree's id in [`Resolver::tree_ids`].
    Tree(u64),
    /// A value that needs code (`code(label)`): the expression, as text.
    Expr(String),
}

/// Resolves an expanded program. The instructions of its sections move
/// into the blocks of the result, unless `keep_instructions` (the sections
/// then stay whole, for [`crate::asm::index::build`]).
pub fn resolve(
    expansion: &mut Expansion,
    faults: Faults,
    keep_instructions: bool,
) -> (Resolved, Vec<Diagnostic>) {
    let sections = Rc::new(std::mem::take(&mut expansion.sections));
    let mut r = Resolver {
        expansion,
        sections,
        keep_instructions,
        out: Resolved::default(),
        diagnostics: Vec::new(),
        names: HashMap::default(),
        label_spans: HashMap::default(),
        constant_by_value: HashMap::default(),
        simple_constants: HashMap::default(),
        tree_ids: NodeTable::default(),
        identified: Vec::new(),
    };
    r.predeclare();
    r.declarations();
    r.blocks();
    // Where the program starts decides which code runs: it must be known
    // before reachability, code registers and operands are worked out.
    if !faults.late_entry {
        r.entry();
    }
    r.code_registers();
    r.tails();
    r.operands();
    if faults.late_entry {
        r.entry();
    }
    r.callstack();
    let Resolver {
        out,
        diagnostics,
        sections,
        ..
    } = r;
    expansion.sections = Rc::try_unwrap(sections).unwrap_or_else(|shared| (*shared).clone());
    (out, diagnostics)
}

/// Lines of one section with the blocks they belong to, for the passes.
fn all_items(sections: &[Section]) -> impl Iterator<Item = (usize, &Item)> {
    sections.iter().enumerate().flat_map(|(s, section)| {
        section
            .items
            .iter()
            .flat_map(move |i| std::iter::once(i).chain(i.body.iter()))
            .map(move |i| (s, i))
    })
}

/// The operand positions an instruction writes.
fn written_operands(op: Opcode) -> &'static [usize] {
    match op {
        Opcode::Nilify => &[0],
        Opcode::Construct | Opcode::CopyIfNil => &[2],
        Opcode::Deconstruct => &[1, 2],
    }
}

/// The operand positions an instruction reads.
fn read_operands(op: Opcode) -> &'static [usize] {
    match op {
        Opcode::Nilify => &[],
        Opcode::Construct | Opcode::CopyIfNil => &[0, 1],
        Opcode::Deconstruct => &[0],
    }
}

/// Calls `f` on every name in an expression.
pub fn walk_names(e: &Expr, f: &mut dyn FnMut(&Name)) {
    match &e.kind {
        ExprKind::Name(n) => f(n),
        ExprKind::Number(_) | ExprKind::Str(_) => {}
        ExprKind::Neg(x) | ExprKind::Not(x) | ExprKind::Pool(x) | ExprKind::RegisterIndex(x) => {
            walk_names(x, f)
        }
        ExprKind::Binary(binary) => {
            walk_names(&binary.1, f);
            walk_names(&binary.2, f);
        }
        ExprKind::List(list) => list.0.iter().chain(&list.1).for_each(|x| walk_names(x, f)),
        ExprKind::Tuple(items) => items.iter().for_each(|x| walk_names(x, f)),
        ExprKind::Apply(application) => {
            f(&application.0.name());
            application.1.iter().for_each(|x| walk_names(x, f));
        }
    }
}

/// A text that identifies an expression regardless of where it was written.
pub fn expr_key(e: &Expr) -> String {
    strip(e)
}

fn strip(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Name(n) => format!("{n:?}"),
        ExprKind::Number(n) => n.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Neg(x) => format!("(-{})", strip(x)),
        ExprKind::Not(x) => format!("(not {})", strip(x)),
        ExprKind::Pool(x) => format!("#{}", strip(x)),
        ExprKind::RegisterIndex(x) => format!("@{}", strip(x)),
        ExprKind::Binary(binary) => {
            let (op, a, b) = &**binary;
            format!("({} {op:?} {})", strip(a), strip(b))
        }
        ExprKind::List(list) => format!(
            "[{}{}]",
            list.0.iter().map(strip).collect::<Vec<_>>().join(","),
            list.1
                .as_ref()
                .map_or(String::new(), |t| format!("|{}", strip(t)))
        ),
        ExprKind::Tuple(items) => format!(
            "({})",
            items.iter().map(strip).collect::<Vec<_>>().join(",")
        ),
        ExprKind::Apply(application) => format!(
            "({} {})",
            application.0.text,
            application
                .1
                .iter()
                .map(strip)
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::macros;
    use crate::asm::source::{Loader, MemoryLoader, ModulePath, SourceFile};

    /// What resolution gives, written out: the blocks with their
    /// instructions (macro chains by their sites), the entry, what is
    /// reached, the registers and the diagnostics.
    fn resolved(expansion: &mut Expansion) -> String {
        let (out, diagnostics) = resolve(expansion, Faults::default(), false);
        let blocks: Vec<String> = out
            .blocks
            .iter()
            .map(|b| {
                let instrs: Vec<String> = b
                    .instrs
                    .iter()
                    .map(|i| {
                        let sites = i.chain.sites();
                        let exprs = &i.exprs;
                        format!(
                            "{:?} {:?} {:?} {:?} {sites:?} {exprs:?}",
                            i.op, i.operands, i.operand_spans, i.span
                        )
                    })
                    .collect();
                format!(
                    "{:?} section {} next {:?} hand {:?} at {:?}: {instrs:#?}",
                    b.labels, b.section, b.next, b.hand, b.span
                )
            })
            .collect();
        let registers: Vec<String> = out
            .registers
            .iter()
            .map(|r| format!("{:?} {:?} {:?}", r.name, r.span, r.role))
            .collect();
        format!(
            "{blocks:#?}\nentry {:?}\nreached {:?}\n{registers:#?}\n{diagnostics:#?}",
            out.entry, out.reached
        )
    }

    #[test]
    fn instructions_made_in_expansion_resolve_as_expanded_statements_do() {
        let module = "use std/control\nroutine:\n    mov a, b\n    ret\n";
        let programs = [
            // Instructions before the first label, labels that share a
            // block, a register between instructions, macros.
            "use std/control\nreg a\nreg b\n    nilify a\nfirst:\nsecond:\n    mov a, b\nreg c\n    construct a, b, c\n    jnil a, first\n    halt\n",
            // Bad instructions (unknown, wrong count) first, between and
            // last; a macro defined further on.
            "bogus a\nreg a\nstart:\n    nilify a, a\n    nilify a\n    later a\n    construct a\nmacro later x\n    nilify x\nend\n    nilify\n",
            // Hand-laid blocks with labels, macros and a tail inside, code
            // around them, and a module with routines.
            "use std/control\nuse \"lib.cta\"\nreg a\nreg b\nmain:\n    call routine\n    nilify a\nblock b\n    nilify a\ninner:\n    mov a, b\n    tail a\nend\n    construct a, a, a\nafter:\n    jnil a, main\n    halt\n",
            // An include, a bad statement inside a block, and a block inside
            // a macro's expansion.
            "use std/control\ninclude \"part.cta\"\nreg a\nmacro wrap r\nblock r\n    nilify a\nend\nend\nreg q\nwrap q\nblock a\n    reg z\n    nilify a\nend\n    mov a, q\n",
        ];
        for program in programs {
            let loader = MemoryLoader::default()
                .with("main.cta", program)
                .with("lib.cta", module)
                .with("part.cta", "part:\n    nilify a\nbogus\n    nilify a\n");
            let main = || {
                loader
                    .load(&ModulePath::File("main.cta".into()), None)
                    .unwrap_or_else(|_| SourceFile::new("main.cta".into(), None, String::new()))
            };
            let mut items = macros::expand(&loader, main());
            let mut made = macros::expand_to_instructions(&loader, main());
            assert!(items.sections.iter().all(|s| s.runs.is_empty()));
            assert!(!made.sections[0].runs.is_empty(), "{program}");
            assert_eq!(resolved(&mut made), resolved(&mut items), "{program}");
        }
    }
}

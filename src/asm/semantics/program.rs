//! A program as its source describes it: declared registers, labels and
//! instructions whose operands are registers or values, and for each
//! instruction the one that follows it.
//!
//! Built from the macro expander's output alone: nothing here numbers code
//! or constant registers, lays out blocks or encodes code.

use super::operands::{self, Markers, Operands};
use super::value::{Pos, Value};
use crate::asm::ast::{Expr, Ident, Name, Stmt};
use crate::asm::eval::Env;
use crate::asm::macros::{Chain, Expansion, Item};
use crate::asm::source::Span;
use crate::diagnostic::{Code, Diagnostic};
use std::collections::HashMap;
use std::rc::Rc;

/// Something the source semantics does not define (or a program that does
/// not assemble): the program is outside what it can run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undefined {
    /// Where, if the cause is in the source.
    pub span: Option<Span>,
    /// What.
    pub message: String,
}

impl Undefined {
    /// An `Undefined` at a place of the source.
    pub fn at(span: Span, message: impl std::fmt::Display) -> Undefined {
        Undefined {
            span: Some(span),
            message: message.to_string(),
        }
    }
}

/// The four instructions of the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `nilify t`
    Nilify,
    /// `construct f, b, t`
    Construct,
    /// `deconstruct s, f, b`
    Deconstruct,
    /// `copyifnil t, s, d`
    CopyIfNil,
}

impl Op {
    /// The instruction a mnemonic (in any case) names, with its arity.
    fn parse(mnemonic: &str) -> Option<(Op, usize)> {
        Some(match mnemonic.to_ascii_lowercase().as_str() {
            "nilify" => (Op::Nilify, 1),
            "construct" => (Op::Construct, 3),
            "deconstruct" => (Op::Deconstruct, 3),
            "copyifnil" => (Op::CopyIfNil, 3),
            _ => return None,
        })
    }
}

/// What an operand denotes.
#[derive(Debug, Clone)]
pub enum Operand {
    /// A declared register (an index into [`Program::registers`]).
    Register(usize),
    /// A value that cannot be written: a label's code, a constant.
    Value(Value),
    /// An operand that means nothing (an unknown name, a value that cannot
    /// be computed): an error only if the instruction runs, since the
    /// assembler leaves out code that nothing reaches.
    Undefined(Undefined),
}

/// One instruction of the expanded program.
#[derive(Debug, Clone)]
pub struct Instr {
    /// Which instruction.
    pub op: Op,
    /// Its operands (one for `nilify`, three for the others).
    pub operands: Vec<Operand>,
    /// The instruction that runs after it, if the code goes on.
    pub next: Option<Pos>,
    /// Where it was written.
    pub span: Span,
    /// The macro invocations it came from.
    pub chain: Chain,
}

/// A register the program declares (or `prog`, `in`, `out`).
#[derive(Debug, Clone)]
pub struct Register {
    /// Its name.
    pub name: Name,
    /// Its number in the memory.
    pub number: i64,
    /// Its limit (`prog` without a declared limit: `i64::MAX`, since its
    /// limit is made to hold every code jumped into it).
    pub limit: i64,
    /// Its contents when the program starts.
    pub init: Value,
    /// Whether its declaration gives a value (`reg r = VALUE`).
    pub valued: bool,
}

/// A program as its source describes it.
#[derive(Debug, Clone)]
pub struct Program {
    /// The instructions, section by section, in the order written.
    pub instrs: Vec<Instr>,
    /// The declared registers; `prog`, `in` and `out` are 0, 1 and 2.
    pub registers: Vec<Register>,
    /// Labels: the first instruction at or after each (`None`: none follows
    /// in its section).
    pub labels: HashMap<Name, Option<Pos>>,
    /// Where the program starts (`None`: the main file has no code).
    pub start: Option<Pos>,
    /// Whether `entry` chose code other than the main file's first block.
    pub entry_moved: bool,
    /// `callstack STACK, LINK`: the two registers.
    pub callstack: Option<(usize, usize)>,
}

/// The program of the file an `image(FILE)` names.
pub type Images<'a> = &'a dyn Fn(&str, Span) -> Result<Rc<Program>, Undefined>;

/// Limit of a declared register without one.
const DEFAULT_LIMIT: i64 = 4096;
/// Limit of `out` unless declared.
const DEFAULT_OUTPUT_LIMIT: i64 = 1024;

/// A `reg` statement, before numbering.
struct Declared<'e> {
    name: &'e Ident,
    index: Option<&'e Expr>,
    limit: Option<Option<&'e Expr>>,
    init: Option<&'e Expr>,
}

impl Register {
    /// Whether it can only ever hold Nil: a declared register (not `prog`,
    /// `in` or `out`) with a limit of 0 or less and no value.
    pub fn always_nil(&self) -> bool {
        self.number >= 3 && self.limit <= 0 && !self.valued
    }
}

impl Program {
    /// The program an expansion describes; `images` gives the program of
    /// the file an `image(FILE)` names.
    pub fn from_expansion(expansion: &Expansion, images: Images<'_>) -> Result<Program, Undefined> {
        if let Some(d) = expansion.diagnostics.iter().find(|d| d.is_error()) {
            return Err(Undefined::at(
                d.primary.0,
                format!("does not expand: {}", d.message),
            ));
        }
        let items: Vec<(usize, &Item)> = expansion
            .sections
            .iter()
            .enumerate()
            .flat_map(|(s, section)| section.items.iter().map(move |i| (s, i)))
            .collect();
        let labels = label_positions(expansion)?;
        let mut registers = vec![
            predeclared("prog", 0, i64::MAX),
            predeclared("in", 1, DEFAULT_LIMIT),
            predeclared("out", 2, DEFAULT_OUTPUT_LIMIT),
        ];
        let mut declared = Vec::new();
        let mut resizes = Vec::new();
        let mut entry = None;
        let mut callstack = None;
        for (_, item) in &items {
            match &item.stmt {
                Stmt::Reg {
                    name,
                    index,
                    limit,
                    init,
                } => declared.push(Declared {
                    name,
                    index: index.as_deref(),
                    limit: limit.as_ref().map(|l| l.as_deref()),
                    init: init.as_deref(),
                }),
                Stmt::Resize { name, limit } => resizes.push((name, limit)),
                Stmt::Entry(name) if entry.is_none() => entry = Some(name),
                Stmt::Entry(name) => return Err(Undefined::at(name.span, "a second `entry`")),
                Stmt::CallStack { stack, link } => callstack = Some((stack, link)),
                Stmt::Block { .. } | Stmt::Tail(_) => {
                    return Err(Undefined::at(
                        item.span,
                        "hand-laid blocks choose their layout: outside the source semantics",
                    ));
                }
                _ => {}
            }
        }
        number_registers(&mut registers, &declared, expansion)?;
        let numbers: HashMap<Name, i64> = registers
            .iter()
            .map(|r| (r.name.clone(), r.number))
            .collect();
        let register = |n: &Name| numbers.get(n).copied();
        let markers = Markers::default();
        let code = |label: &Ident| Operands::marker(&markers, &labels, label);
        let image = |file: &str, span: Span| {
            images(file, span)
                .map(|program| Operands::image_marker(&markers, program))
                .map_err(|u| Diagnostic::error(Code::E0420, span, u.message))
        };
        let env = Operands::env(expansion, &register, &code, &image);
        let mut values = Vec::new();
        for d in &declared {
            let init = match d.init {
                Some(init) => Some(Operands::new(&env, &registers, &labels, &markers).value(init)?),
                None => None,
            };
            values.push(init);
        }
        for (d, init) in declared.iter().zip(values) {
            let r = find(&registers, d.name)?;
            if let Some(init) = init {
                registers[r].init = init;
                registers[r].valued = true;
            }
            match d.limit {
                None => {}
                Some(None) => {
                    registers[r].limit =
                        registers[r].init.size().map(|s| s as i64).ok_or_else(|| {
                            Undefined::at(d.name.span, "`auto` limit of a value holding code")
                        })?;
                }
                Some(Some(e)) => registers[r].limit = operands::int(e, &env)?,
            }
        }
        for (name, limit) in resizes {
            let r = find(&registers, name)?;
            registers[r].limit = operands::int(limit, &env)?;
        }
        let callstack = match callstack {
            Some((s, l)) => Some((find(&registers, s)?, find(&registers, l)?)),
            None => None,
        };
        let ops = Operands::new(&env, &registers, &labels, &markers);
        let instrs = instructions(&items, &ops, &registers)?;
        let first = main_start(expansion, &instrs);
        let start = match entry {
            Some(name) => *labels
                .get(&name.name())
                .ok_or_else(|| Undefined::at(name.span, "`entry` of an unknown label"))?,
            None => first,
        };
        Ok(Program {
            instrs,
            entry_moved: start != first,
            registers,
            labels,
            start,
            callstack,
        })
    }

    /// The code that follows an instruction, as a value (Nil where the code
    /// ends).
    pub fn code(&self, pos: Option<Pos>) -> Value {
        pos.map_or(Value::NIL, Value::Code)
    }

    /// The register a register number names, if the program declares it.
    pub fn register_numbered(&self, number: i64) -> Option<usize> {
        self.registers.iter().position(|r| r.number == number)
    }
}

fn predeclared(name: &str, number: i64, limit: i64) -> Register {
    Register {
        name: Name::root(name),
        number,
        limit,
        init: Value::NIL,
        valued: false,
    }
}

fn find(registers: &[Register], name: &Ident) -> Result<usize, Undefined> {
    registers
        .iter()
        .position(|r| r.name == name.name())
        .ok_or_else(|| Undefined::at(name.span, format!("`{}` is not a register", name.text)))
}

/// Labels to the first instruction at or after them in their section.
fn label_positions(expansion: &Expansion) -> Result<HashMap<Name, Option<Pos>>, Undefined> {
    let mut labels = HashMap::new();
    let mut pos = 0;
    for section in &expansion.sections {
        let mut waiting = Vec::new();
        for item in &section.items {
            match &item.stmt {
                Stmt::Label(name) => waiting.push(name),
                Stmt::Op { .. } => {
                    for name in waiting.drain(..) {
                        define(&mut labels, name, Some(pos))?;
                    }
                    pos += 1;
                }
                _ => {}
            }
        }
        for name in waiting {
            define(&mut labels, name, None)?;
        }
    }
    Ok(labels)
}

fn define(
    labels: &mut HashMap<Name, Option<Pos>>,
    name: &Ident,
    pos: Option<Pos>,
) -> Result<(), Undefined> {
    match labels.insert(name.name(), pos) {
        None => Ok(()),
        Some(_) => Err(Undefined::at(name.span, "a label defined twice")),
    }
}

/// Numbers the declared registers after `prog`, `in` and `out`: those with
/// an explicit `@N` first, then the others in order, each at the lowest
/// free number. `reg prog|in|out` configures a predeclared register.
fn number_registers(
    registers: &mut Vec<Register>,
    declared: &[Declared<'_>],
    expansion: &Expansion,
) -> Result<(), Undefined> {
    let env = Env::expanding(&expansion.consts);
    let mut explicit = Vec::new();
    let mut others = Vec::new();
    for d in declared {
        if registers.iter().take(3).any(|r| r.name == d.name.name()) {
            continue;
        }
        match d.index {
            Some(e) => explicit.push((d.name, operands::int(e, &env)?)),
            None => others.push(d.name),
        }
    }
    let mut taken: std::collections::HashSet<i64> = (0..3).collect();
    let add = |name: &Ident, number: i64, registers: &mut Vec<Register>| {
        registers.push(Register {
            name: name.name(),
            number,
            limit: DEFAULT_LIMIT,
            init: Value::NIL,
            valued: false,
        });
    };
    for (name, number) in explicit {
        if !taken.insert(number) {
            return Err(Undefined::at(name.span, "a register number taken twice"));
        }
        add(name, number, registers);
    }
    let mut free = 3;
    for name in others {
        while taken.contains(&free) {
            free += 1;
        }
        taken.insert(free);
        add(name, free, registers);
    }
    Ok(())
}

/// The main file's first instruction, where the program starts unless
/// `entry` says otherwise.
fn main_start(expansion: &Expansion, instrs: &[Instr]) -> Option<Pos> {
    let main = expansion.sections.iter().position(|s| s.main)?;
    let before: usize = expansion.sections[..main]
        .iter()
        .map(|s| {
            s.items
                .iter()
                .filter(|i| matches!(i.stmt, Stmt::Op { .. }))
                .count()
        })
        .sum();
    let has_code = expansion.sections[main]
        .items
        .iter()
        .any(|i| matches!(i.stmt, Stmt::Op { .. }));
    (has_code && before < instrs.len()).then_some(before)
}

/// The instructions with their operands, and what follows each: the next
/// instruction of the section, except after the last instruction of a
/// block that ends (see [`block_ends`]) and at the end of a section.
/// (Empty blocks fall through.)
fn instructions(
    items: &[(usize, &Item)],
    ops: &Operands<'_>,
    registers: &[Register],
) -> Result<Vec<Instr>, Undefined> {
    let mut instrs: Vec<Instr> = Vec::new();
    // The instructions of the block being read, and its section.
    let mut block: Vec<Pos> = Vec::new();
    let mut section = None;
    // The instruction the next one of the section follows, if any.
    let mut open: Option<Pos> = None;
    for &(s, item) in items {
        if section != Some(s) {
            (block, open, section) = (Vec::new(), None, Some(s));
        }
        let Stmt::Op { name, args } = &item.stmt else {
            if matches!(item.stmt, Stmt::Label(_)) && !block.is_empty() {
                let tail: Vec<&Instr> = block[block.len().saturating_sub(2)..]
                    .iter()
                    .map(|&p| &instrs[p])
                    .collect();
                if block_ends(&tail, registers) {
                    open = None;
                }
                block.clear();
            }
            continue;
        };
        let (op, arity) = Op::parse(&name.text).ok_or_else(|| {
            Undefined::at(name.span, format!("`{}` is not an instruction", name.text))
        })?;
        if args.len() != arity {
            return Err(Undefined::at(item.span, "wrong number of operands"));
        }
        let operands = args
            .iter()
            .map(|a| ops.operand(a).unwrap_or_else(Operand::Undefined))
            .collect();
        if let Some(before) = open {
            instrs[before].next = Some(instrs.len());
        }
        open = Some(instrs.len());
        block.push(instrs.len());
        instrs.push(Instr {
            op,
            operands,
            next: None,
            span: item.span,
            chain: item.chain.clone(),
        });
    }
    Ok(instrs)
}

/// Whether nothing falls through from a block ending with `tail` (its last
/// one or two instructions): its last instruction always writes `prog` (a
/// jump through an always-Nil register, a halt, a `construct` or
/// `deconstruct` into `prog`), and the one before it does not read `prog`
/// as data (as `call` does: its return continuation goes on after the
/// jump).
fn block_ends(tail: &[&Instr], registers: &[Register]) -> bool {
    let is = |o: &Operand, r: usize| matches!(o, Operand::Register(x) if *x == r);
    let prog = |o: &Operand| is(o, 0);
    let always_nil = |o: &Operand| matches!(o, Operand::Register(x) if registers[*x].always_nil());
    let terminator = |i: &Instr| match i.op {
        Op::Nilify => prog(&i.operands[0]),
        Op::Construct => prog(&i.operands[2]),
        Op::Deconstruct => prog(&i.operands[1]) || prog(&i.operands[2]),
        Op::CopyIfNil => prog(&i.operands[2]) && always_nil(&i.operands[0]),
    };
    let reads_prog = |i: &Instr| match i.op {
        Op::Nilify => false,
        Op::Construct | Op::CopyIfNil => prog(&i.operands[0]) || prog(&i.operands[1]),
        Op::Deconstruct => prog(&i.operands[0]),
    };
    match tail {
        [before, last] => terminator(last) && !reads_prog(before),
        [last] => terminator(last),
        _ => false,
    }
}

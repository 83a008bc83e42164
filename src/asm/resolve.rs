//! Name resolution: registers, labels and constants; register numbering;
//! instruction operands.
//!
//! Registers are numbered: `prog` 0, `in` 1, `out` 2, then declared
//! registers (explicit `@N` indices first, the others in order, filling the
//! lowest free index), then hand-laid `block` registers, then one code
//! register per label that is jumped to (or otherwise named as a register),
//! then constant registers, one per distinct constant operand.

use super::ast::{Expr, ExprKind, Name, Stmt};
use super::diagnostics::Diagnostic;
use super::eval::{Env, Value, eval};
use super::macros::{Chain, Expansion, Item};
use super::source::Span;
use crate::tree::Tree;
use std::collections::HashMap;

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
    /// The opcode of a mnemonic (any case).
    pub fn parse(name: &str) -> Option<Opcode> {
        Some(match name.to_ascii_lowercase().as_str() {
            "nilify" => Opcode::Nilify,
            "construct" => Opcode::Construct,
            "deconstruct" => Opcode::Deconstruct,
            "copyifnil" => Opcode::CopyIfNil,
            _ => return None,
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
    pub fn targets(self, o: [i64; 3]) -> Vec<i64> {
        match self {
            Opcode::Nilify => vec![o[0]],
            Opcode::Construct => vec![o[2]],
            Opcode::Deconstruct => vec![o[1], o[2]],
            Opcode::CopyIfNil => vec![o[2]],
        }
    }

    /// The operands this instruction reads.
    pub fn sources(self, o: [i64; 3]) -> Vec<i64> {
        match self {
            Opcode::Nilify => vec![],
            Opcode::Construct => vec![o[0], o[1]],
            Opcode::Deconstruct => vec![o[0]],
            Opcode::CopyIfNil => vec![o[0], o[1]],
        }
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
    pub name: String,
    /// Where it was declared.
    pub span: Option<Span>,
    /// Its limit.
    pub limit: LimitSpec,
    /// Its initial contents, if declared with a value.
    pub init: Option<Expr>,
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
    /// The operands as written.
    pub exprs: Vec<Expr>,
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
    pub labels: Vec<Name>,
    /// Its instructions.
    pub instrs: Vec<Instr>,
    /// The section it is in.
    pub section: usize,
    /// The block laid out after it in the same section.
    pub next: Option<usize>,
    /// For a hand-laid block: its register, and the register its code
    /// continues with (`tail`), with labels at offsets.
    pub hand: Option<HandLayout>,
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
    pub tail_name: Option<Name>,
    /// Labels inside it: `(label, offset)`.
    pub labels: Vec<(Name, usize)>,
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
    pub labels: HashMap<String, usize>,
    /// The call convention: `(stack, link)` registers.
    pub callstack: Option<(usize, usize)>,
    /// Which sections are the main file's.
    pub main_sections: Vec<bool>,
    /// Per block: whether code that can run reaches it (only those are laid
    /// out; the others only have their names checked).
    pub reached: Vec<bool>,
}

/// What a name in the global namespace is.
#[derive(Debug, Clone, Copy)]
enum Symbol {
    Register(usize),
    Label(usize),
    Const,
}

struct Resolver<'e> {
    expansion: &'e Expansion,
    out: Resolved,
    diagnostics: Vec<Diagnostic>,
    names: HashMap<String, (Symbol, Span)>,
    /// Constant registers by value (or by expression, for values that need
    /// code).
    constant_by_tree: HashMap<String, usize>,
}

/// Resolves an expanded program.
pub fn resolve(expansion: &Expansion) -> (Resolved, Vec<Diagnostic>) {
    let mut r = Resolver {
        expansion,
        out: Resolved::default(),
        diagnostics: Vec::new(),
        names: HashMap::new(),
        constant_by_tree: HashMap::new(),
    };
    r.predeclare();
    r.declarations();
    r.blocks();
    r.code_registers();
    r.tails();
    r.operands();
    r.directives();
    (r.out, r.diagnostics)
}

/// Lines of one section with the blocks they belong to, for the passes.
fn all_items(expansion: &Expansion) -> impl Iterator<Item = (usize, &Item)> {
    expansion
        .sections
        .iter()
        .enumerate()
        .flat_map(|(s, section)| {
            section
                .items
                .iter()
                .flat_map(move |i| std::iter::once(i).chain(i.body.iter()))
                .map(move |i| (s, i))
        })
}

impl Resolver<'_> {
    fn predeclare(&mut self) {
        for (name, limit) in [
            ("prog", LimitSpec::Auto),
            ("in", LimitSpec::Default(DEFAULT_INPUT_LIMIT)),
            ("out", LimitSpec::Default(DEFAULT_OUTPUT_LIMIT)),
        ] {
            self.out.registers.push(RegInfo {
                name: name.into(),
                span: None,
                limit,
                init: None,
                role: Role::Predeclared,
            });
            self.names.insert(
                name.into(),
                (
                    Symbol::Register(self.out.registers.len() - 1),
                    Span::default(),
                ),
            );
        }
        for (name, (_, span)) in &self.expansion.consts {
            self.names.insert(name.clone(), (Symbol::Const, *span));
        }
    }

    fn declare(&mut self, name: &Name, symbol: Symbol) -> bool {
        if let Some((_, previous)) = self.names.get(&name.text) {
            let kind = match self.names[&name.text].0 {
                Symbol::Register(_) => "a register",
                Symbol::Label(_) => "a label",
                Symbol::Const => "a constant",
            };
            let mut d = Diagnostic::error(
                "E0501",
                name.span,
                format!("`{}` is already defined", display(&name.text)),
            )
            .label("defined again here");
            if *previous != Span::default() {
                d = d.with_label(*previous, format!("first defined here, as {kind}"));
            } else {
                d = d.note(format!("`{}` is predeclared ({kind})", name.text));
            }
            self.diagnostics.push(d);
            return false;
        }
        self.names.insert(name.text.clone(), (symbol, name.span));
        true
    }

    /// `reg` and `block` declarations (and configuration of `prog`, `in`,
    /// `out`), then their indices.
    fn declarations(&mut self) {
        let expansion = self.expansion;
        let mut configured = [false; 3];
        let mut declared: Vec<(RegInfo, Option<(i64, Span)>)> = Vec::new();
        for (_, item) in all_items(expansion) {
            let (name, index, limit, init, is_block) = match &item.stmt {
                Stmt::Reg {
                    name,
                    index,
                    limit,
                    init,
                } => (name, index, limit.clone(), init.clone(), false),
                Stmt::Block { name, index, limit } => {
                    (name, index, Some(limit.clone()), None, true)
                }
                _ => continue,
            };
            let limit = match limit {
                None if is_block => LimitSpec::Auto,
                None => LimitSpec::Default(DEFAULT_LIMIT),
                Some(None) => LimitSpec::Auto,
                Some(Some(e)) => match self.constant_int(&e) {
                    Some(n) => LimitSpec::Given(n, e.span),
                    None => LimitSpec::Default(DEFAULT_LIMIT),
                },
            };
            if let Some(k) = ["prog", "in", "out"].iter().position(|p| *p == name.text) {
                // `block prog` lays out the program's first code by hand.
                let bad_block = is_block && k != 0;
                if bad_block || configured[k] || index.is_some() {
                    let d = Diagnostic::error(
                        "E0502",
                        name.span,
                        format!("`{}` is predeclared as register {k}", name.text),
                    )
                    .label(if configured[k] {
                        "configured twice"
                    } else {
                        "cannot be moved or made a block"
                    })
                    .help(format!(
                        "`reg {} LIMIT = VALUE` sets its limit and first contents, once",
                        name.text
                    ));
                    self.diagnostics.push(d);
                    continue;
                }
                configured[k] = true;
                let reg = &mut self.out.registers[k];
                if !matches!(limit, LimitSpec::Default(_)) {
                    reg.limit = limit;
                }
                if is_block {
                    reg.role = Role::HandBlock(usize::MAX);
                }
                reg.init = init;
                reg.span = Some(name.span);
                continue;
            }
            if !self.declare(name, Symbol::Register(usize::MAX)) {
                continue;
            }
            let index = index
                .as_ref()
                .and_then(|e| self.constant_int(e).map(|i| (i, e.span)));
            let role = if is_block {
                Role::HandBlock(usize::MAX)
            } else {
                Role::Declared
            };
            let reg = RegInfo {
                name: name.text.clone(),
                span: Some(name.span),
                limit,
                init,
                role,
            };
            declared.push((reg, index));
        }
        self.place(declared);
        self.resizes();
    }

    /// `resize NAME LIMIT`: a new limit for a register declared anywhere
    /// (for example one a module declares), once.
    fn resizes(&mut self) {
        let expansion = self.expansion;
        let mut resized: HashMap<usize, Span> = HashMap::new();
        for (_, item) in all_items(expansion) {
            let Stmt::Resize { name, limit } = &item.stmt else {
                continue;
            };
            let register = match self.names.get(&name.text) {
                Some((Symbol::Register(r), _)) => *r,
                _ => {
                    let d = Diagnostic::error(
                        "E0515",
                        name.span,
                        format!("`resize` names no register: `{}`", display(&name.text)),
                    )
                    .label("not a declared register");
                    self.diagnostics.push(d);
                    continue;
                }
            };
            if let Some(previous) = resized.insert(register, name.span) {
                let d = Diagnostic::error(
                    "E0516",
                    name.span,
                    format!("`{}` is resized twice", display(&name.text)),
                )
                .label("second resize")
                .with_label(previous, "first resize");
                self.diagnostics.push(d);
                continue;
            }
            if let Some(n) = self.constant_int(limit) {
                self.out.registers[register].limit = LimitSpec::Given(n, limit.span);
            }
        }
    }

    /// Gives declared registers their indices: explicit ones first, then the
    /// others in order, each at the lowest free index.
    fn place(&mut self, declared: Vec<(RegInfo, Option<(i64, Span)>)>) {
        let mut slots: Vec<Option<RegInfo>> = vec![None; 3];
        let mut rest = Vec::new();
        for (reg, index) in declared {
            let Some((index, span)) = index else {
                rest.push(reg);
                continue;
            };
            let bad = !(3..=1_000_000).contains(&index);
            let taken = !bad && slots.get(index as usize).is_some_and(Option::is_some);
            if bad || taken {
                let d = Diagnostic::error(
                    "E0503",
                    span,
                    format!("register index {index} cannot be used"),
                )
                .label(if bad {
                    "indices run from 3 (0, 1, 2 are prog, in, out) to 1000000"
                } else {
                    "already taken"
                });
                self.diagnostics.push(d);
                rest.push(reg);
                continue;
            }
            let index = index as usize;
            if slots.len() <= index {
                slots.resize(index + 1, None);
            }
            slots[index] = Some(reg);
        }
        for reg in rest {
            match slots.iter().skip(3).position(Option::is_none) {
                Some(free) => slots[free + 3] = Some(reg),
                None => slots.push(Some(reg)),
            }
        }
        for (i, slot) in slots.into_iter().enumerate().skip(3) {
            let reg = slot.unwrap_or_else(|| RegInfo {
                name: format!("r{i}"),
                span: None,
                limit: LimitSpec::Default(0),
                init: None,
                role: Role::Declared,
            });
            if let Some((symbol, _)) = self.names.get_mut(&reg.name) {
                *symbol = Symbol::Register(i);
            }
            self.out.registers.push(reg);
        }
    }

    fn constant_int(&mut self, e: &Expr) -> Option<i64> {
        let env = Env::expanding(&self.expansion.consts);
        match eval(e, &env) {
            Ok(Value::Int(n)) => Some(n),
            Ok(other) => {
                self.diagnostics.push(
                    Diagnostic::error(
                        "E0504",
                        e.span,
                        format!("expected a number, found {}", other.describe()),
                    )
                    .label("here"),
                );
                None
            }
            Err(d) => {
                self.diagnostics.push(d);
                None
            }
        }
    }

    /// Splits every section into blocks at its labels.
    fn blocks(&mut self) {
        let sections = &self.expansion.sections;
        self.out.main_sections = sections.iter().map(|s| s.main).collect();
        for (s, section) in sections.iter().enumerate() {
            let mut current: Option<usize> = None;
            let mut previous: Option<usize> = None;
            for item in &section.items {
                match &item.stmt {
                    Stmt::Label(name) => {
                        let starts_new =
                            current.is_none_or(|b| !self.out.blocks[b].instrs.is_empty());
                        let b = if starts_new {
                            let b = self.new_block(s, item.span, previous);
                            previous = Some(b);
                            // The first block of the main file is the entry.
                            if section.main && self.out.entry.is_none() {
                                self.out.entry = Some(b);
                            }
                            b
                        } else {
                            current.expect("checked")
                        };
                        current = Some(b);
                        if self.declare(name, Symbol::Label(b)) {
                            self.out.blocks[b].labels.push(name.clone());
                            self.out.labels.insert(name.text.clone(), b);
                        }
                    }
                    Stmt::Op { .. } => {
                        let b = match current {
                            Some(b) => b,
                            None => {
                                let b = self.new_block(s, item.span, previous);
                                previous = Some(b);
                                current = Some(b);
                                if section.main && self.out.entry.is_none() {
                                    self.out.entry = Some(b);
                                }
                                b
                            }
                        };
                        if let Some(instr) = self.placeholder_instr(item) {
                            self.out.blocks[b].instrs.push(instr);
                        }
                    }
                    Stmt::Block { name, .. } => {
                        let b = self.hand_block(s, item, name);
                        // A hand-laid block interrupts fall-through.
                        current = None;
                        previous = None;
                        let _ = b;
                    }
                    _ => {}
                }
            }
        }
        // A `block` whose body was never laid out (one written inside another
        // block, which is an error reported there) is a plain register.
        for (i, reg) in self.out.registers.iter_mut().enumerate() {
            if reg.role == Role::HandBlock(usize::MAX) {
                reg.role = if i == 0 {
                    Role::Predeclared
                } else {
                    Role::Declared
                };
            }
        }
        // With `block prog`, the program starts with that block.
        if let Role::HandBlock(b) = self.out.registers[0].role {
            self.out.entry = Some(b);
        }
    }

    fn new_block(&mut self, section: usize, span: Span, previous: Option<usize>) -> usize {
        let b = self.out.blocks.len();
        self.out.blocks.push(Block {
            labels: Vec::new(),
            instrs: Vec::new(),
            section,
            next: None,
            hand: None,
            span,
        });
        if let Some(p) = previous {
            self.out.blocks[p].next = Some(b);
        }
        b
    }

    fn hand_block(&mut self, section: usize, item: &Item, name: &Name) -> usize {
        let b = self.new_block(section, item.span, None);
        let register = match self.names.get(&name.text) {
            Some((Symbol::Register(r), _)) => *r,
            _ => usize::MAX,
        };
        if let Some(reg) = self.out.registers.get_mut(register) {
            reg.role = Role::HandBlock(b);
        }
        let mut labels = Vec::new();
        let mut tail = None;
        for inner in &item.body {
            match &inner.stmt {
                Stmt::Label(l) => {
                    let offset = self.out.blocks[b].instrs.len();
                    labels.push((l.clone(), offset));
                    // A label at the start may repeat the block's own name.
                    let own_name = offset == 0 && l.text == name.text;
                    if own_name || self.declare(l, Symbol::Label(b)) {
                        self.out.labels.insert(l.text.clone(), b);
                    }
                }
                Stmt::Op { .. } => {
                    if tail.is_some() {
                        self.diagnostics.push(
                            Diagnostic::error(
                                "E0505",
                                inner.span,
                                "nothing can follow `tail` in a block",
                            )
                            .label("after the tail"),
                        );
                    }
                    if let Some(instr) = self.placeholder_instr(inner) {
                        self.out.blocks[b].instrs.push(instr);
                    }
                }
                Stmt::Tail(t) => tail = Some(t.clone()),
                _ => self.diagnostics.push(
                    Diagnostic::error(
                        "E0506",
                        inner.span,
                        "only labels, instructions and `tail` can be inside a `block`",
                    )
                    .label("not allowed here"),
                ),
            }
        }
        self.out.blocks[b].labels = labels
            .iter()
            .filter(|(_, o)| *o == 0)
            .map(|(l, _)| l.clone())
            .collect();
        self.out.blocks[b].hand = Some(HandLayout {
            register,
            tail: None,
            tail_name: tail,
            labels,
        });
        b
    }

    /// An instruction whose operands are filled in later; checks the
    /// mnemonic and the operand count.
    fn placeholder_instr(&mut self, item: &Item) -> Option<Instr> {
        let Stmt::Op { name, args } = &item.stmt else {
            return None;
        };
        let Some(op) = Opcode::parse(&name.text) else {
            let d = Diagnostic::error(
                "E0508",
                name.span,
                format!("unknown instruction or macro `{}`", name.text),
            )
            .label("not an instruction, and no macro has this name")
            .expanded_from(&item.chain.sites());
            self.diagnostics.push(d);
            return None;
        };
        if args.len() != op.arity() {
            let d = Diagnostic::error(
                "E0509",
                name.span,
                format!(
                    "`{}` takes {} operand{}, found {}",
                    op.mnemonic(),
                    op.arity(),
                    if op.arity() == 1 { "" } else { "s" },
                    args.len()
                ),
            )
            .label("here")
            .expanded_from(&item.chain.sites());
            self.diagnostics.push(d);
            return None;
        }
        let mut spans = [name.span; 3];
        for (k, a) in args.iter().enumerate() {
            spans[k] = a.span;
        }
        Some(Instr {
            op,
            operands: [0; 3],
            exprs: args.clone(),
            operand_spans: spans,
            span: item.span,
            chain: item.chain.clone(),
        })
    }

    /// The registers that hand-laid blocks continue with.
    fn tails(&mut self) {
        for b in 0..self.out.blocks.len() {
            let Some(name) = self.out.blocks[b]
                .hand
                .as_ref()
                .and_then(|h| h.tail_name.clone())
            else {
                continue;
            };
            let tail = match self.names.get(&name.text) {
                Some((Symbol::Register(r), _)) => Some((*r, name.span)),
                _ => {
                    let d = Diagnostic::error(
                        "E0507",
                        name.span,
                        format!("`{}` is not a register", display(&name.text)),
                    )
                    .label("`tail` names the register whose contents follow");
                    self.diagnostics.push(d);
                    None
                }
            };
            if let Some(hand) = self.out.blocks[b].hand.as_mut() {
                hand.tail = tail;
            }
        }
    }

    /// Which blocks need a code register: those whose label is named by
    /// code that can run (reached from the entry or from a hand-laid block,
    /// following jumps and fall-through), by a register's initial value, or
    /// by a `tail`, directly or through constants. Routines of a module that
    /// nothing calls get no registers.
    fn wanted_code(&self) -> (Vec<bool>, Vec<bool>) {
        let blocks = &self.out.blocks;
        let mut wanted = vec![false; blocks.len()];
        let mut reached = vec![false; blocks.len()];
        let mut work: Vec<usize> = self.out.entry.into_iter().collect();
        let mut exprs: Vec<&Expr> = Vec::new();
        let mut seen_consts: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for (b, block) in blocks.iter().enumerate() {
            if let Some(hand) = &block.hand {
                work.push(b);
                if let Some(Some((Symbol::Label(t), _))) =
                    hand.tail_name.as_ref().map(|n| self.names.get(&n.text))
                {
                    wanted[*t] = true;
                    work.push(*t);
                }
            }
        }
        for (_, item) in all_items(self.expansion) {
            if let Stmt::Reg { init: Some(e), .. } = &item.stmt {
                exprs.push(e);
            }
        }
        let always_nil = |r: i64| super::layout::always_nil(&self.out, r);
        loop {
            // Names in expressions: labels are wanted and reached; constants
            // are looked into.
            while let Some(e) = exprs.pop() {
                walk_names(e, &mut |n| match self.names.get(n) {
                    Some((Symbol::Label(b), _)) => {
                        wanted[*b] = true;
                        work.push(*b);
                    }
                    Some((Symbol::Const, _)) => {
                        if let Some((name, (def, _))) = self.expansion.consts.get_key_value(n)
                            && seen_consts.insert(name.as_str())
                        {
                            exprs.push(def);
                        }
                    }
                    _ => {}
                });
            }
            let Some(b) = work.pop() else { break };
            if std::mem::replace(&mut reached[b], true) {
                continue;
            }
            let block = &blocks[b];
            exprs.extend(block.instrs.iter().flat_map(|i| &i.exprs));
            let last_two: Vec<super::layout::InstrShape> = block.instrs
                [block.instrs.len().saturating_sub(2)..]
                .iter()
                .map(|i| {
                    (
                        i.op,
                        [0, 1, 2].map(|k| i.exprs.get(k).and_then(|e| self.register_number(e))),
                    )
                })
                .collect();
            if block.hand.is_none() && !super::layout::block_ends(&last_two, &always_nil) {
                work.extend(block.next);
            }
        }
        (wanted, reached)
    }

    /// The register an operand names before code registers exist: a number,
    /// or a declared register's name.
    fn register_number(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Number(n) => i64::try_from(*n).ok(),
            ExprKind::Name(n) => match self.names.get(n) {
                Some((Symbol::Register(r), _)) => Some(*r as i64),
                _ => None,
            },
            _ => None,
        }
    }

    /// Every label named as a register (an operand, or inside a constant)
    /// gets a code register, in the order of the blocks.
    fn code_registers(&mut self) {
        let (wanted, reached) = self.wanted_code();
        self.out.reached = reached;
        for (b, block) in self.out.blocks.iter().enumerate() {
            if wanted[b] && block.hand.is_none() {
                // A label the user wrote names the register, rather than
                // one local to a macro expansion (`ready@7`).
                let name = block
                    .labels
                    .iter()
                    .find(|l| !l.text.contains('@'))
                    .or(block.labels.first())
                    .map_or_else(|| format!("block{b}"), |l| l.text.clone());
                self.out.registers.push(RegInfo {
                    name,
                    span: Some(block.span),
                    limit: LimitSpec::Auto,
                    init: None,
                    role: Role::Code(b),
                });
            }
        }
        // Labels now name their code register.
        for (i, reg) in self.out.registers.iter().enumerate() {
            if let Role::Code(b) = reg.role {
                for l in &self.out.blocks[b].labels {
                    self.names
                        .insert(l.text.clone(), (Symbol::Register(i), l.span));
                }
            }
        }
        for block in &self.out.blocks {
            if let Some(hand) = &block.hand {
                for (l, offset) in &hand.labels {
                    if *offset == 0 && hand.register != usize::MAX {
                        self.names
                            .insert(l.text.clone(), (Symbol::Register(hand.register), l.span));
                    }
                }
            }
        }
    }

    /// The register index of an operand, adding a constant register when the
    /// operand is a value.
    fn operand(&mut self, e: &Expr, chain: &Chain) -> Option<i64> {
        match &e.kind {
            ExprKind::Number(n) => match i64::try_from(*n) {
                Ok(i) => Some(i),
                Err(_) => {
                    self.diagnostics.push(
                        Diagnostic::error("E0510", e.span, "register number too large")
                            .label("here"),
                    );
                    None
                }
            },
            ExprKind::Name(n) => match self.names.get(n) {
                Some((Symbol::Register(r), _)) => Some(*r as i64),
                Some((Symbol::Label(_), _)) => {
                    // A label inside a hand-laid block, not at its start.
                    let d = Diagnostic::error(
                        "E0511",
                        e.span,
                        format!("label `{}` is not the start of a register", display(n)),
                    )
                    .label("cannot be jumped to")
                    .note("only a label at the start of a block has a register of its own")
                    .expanded_from(&chain.sites());
                    self.diagnostics.push(d);
                    None
                }
                Some((Symbol::Const, _)) => self.constant(e, chain),
                None if super::eval::is_builtin_name(n) => self.constant(e, chain),
                None => {
                    let d = Diagnostic::error(
                        "E0512",
                        e.span,
                        format!("unknown register or label `{}`", display(n)),
                    )
                    .label("not defined")
                    .expanded_from(&chain.sites());
                    let d = match self.similar(n) {
                        Some(s) => d.help(format!("did you mean `{s}`?")),
                        None => d,
                    };
                    self.diagnostics.push(d);
                    None
                }
            },
            ExprKind::Pool(inner) => self.constant(inner, chain),
            _ => self.constant(e, chain),
        }
    }

    /// A defined name that looks like `name`.
    fn similar(&self, name: &str) -> Option<String> {
        let mut candidates: Vec<(usize, &String)> = self
            .names
            .keys()
            .filter(|c| !c.contains('@'))
            .map(|c| (edit_distance(name, c), c))
            .filter(|(d, _)| *d <= 2.max(name.len() / 4) && *d < name.len())
            .collect();
        candidates.sort();
        candidates.first().map(|(_, s)| (*s).clone())
    }

    /// The constant register holding the value of `e`.
    fn constant(&mut self, e: &Expr, chain: &Chain) -> Option<i64> {
        let early = {
            let registers = |n: &str| match self.names.get(n) {
                Some((Symbol::Register(r), _)) => Some(*r as i64),
                _ => None,
            };
            let mut env = Env::expanding(&self.expansion.consts);
            env.registers = Some(&registers);
            match eval(e, &env) {
                Ok(v) => match v.encode() {
                    Ok(t) => Some(t),
                    Err(m) => {
                        self.diagnostics.push(
                            Diagnostic::error("E0411", e.span, m)
                                .label("cannot be put in a register")
                                .expanded_from(&chain.sites()),
                        );
                        return None;
                    }
                },
                // Values that need code are computed after layout; other
                // errors are reported then too.
                Err(_) => None,
            }
        };
        let key = match &early {
            Some(t) => format!("tree:{}", t.to_bits()),
            None => format!("expr:{}", expr_key(e)),
        };
        if let Some(&register) = self.constant_by_tree.get(&key) {
            return Some(register as i64);
        }
        // Nil needs no register of its own when one can only hold Nil.
        if early.as_ref().is_some_and(Tree::is_nil)
            && let Some(zero) = self.out.registers.iter().position(|r| {
                r.role == Role::Declared
                    && r.init.is_none()
                    && matches!(r.limit, LimitSpec::Default(l) | LimitSpec::Given(l, _) if l <= 0)
            })
        {
            self.constant_by_tree.insert(key, zero);
            return Some(zero as i64);
        }
        let c = self.out.constants.len();
        self.out.constants.push(Constant {
            expr: e.clone(),
            early,
        });
        self.out.registers.push(RegInfo {
            name: format!("const{c}"),
            span: Some(e.span),
            limit: LimitSpec::Auto,
            init: None,
            role: Role::Constant(c),
        });
        let register = self.out.registers.len() - 1;
        self.constant_by_tree.insert(key, register);
        Some(register as i64)
    }

    /// Resolves every instruction's operands.
    fn operands(&mut self) {
        for b in 0..self.out.blocks.len() {
            if !self.out.reached[b] {
                self.check_names(b);
                continue;
            }
            for k in 0..self.out.blocks[b].instrs.len() {
                let instr = &mut self.out.blocks[b].instrs[k];
                let (exprs, chain, op) = (
                    std::mem::take(&mut instr.exprs),
                    instr.chain.clone(),
                    instr.op,
                );
                let written = written_operands(op);
                let mut operands = [0i64; 3];
                for (j, e) in exprs.iter().enumerate() {
                    if written.contains(&j) && !self.names_register(e) {
                        let d = Diagnostic::error("E0606", e.span, "cannot write to a value")
                            .label("this operand is written, so it must be a register")
                            .note("a value here would be a constant register")
                            .expanded_from(&chain.sites());
                        self.diagnostics.push(d);
                        continue;
                    }
                    operands[j] = self.operand(e, &chain).unwrap_or(0);
                }
                let instr = &mut self.out.blocks[b].instrs[k];
                instr.operands = operands;
                instr.exprs = exprs;
            }
        }
    }

    /// In a block no running code reaches (left out of the image): only
    /// report names that are not defined.
    fn check_names(&mut self, b: usize) {
        let mut unknown: Vec<(String, Span, Chain)> = Vec::new();
        for instr in &self.out.blocks[b].instrs {
            for e in &instr.exprs {
                if let ExprKind::Name(n) = &e.kind
                    && !self.names.contains_key(n)
                    && !super::eval::is_builtin_name(n)
                {
                    unknown.push((n.clone(), e.span, instr.chain.clone()));
                }
            }
        }
        for (n, span, chain) in unknown {
            let d = Diagnostic::error(
                "E0512",
                span,
                format!("unknown register or label `{}`", display(&n)),
            )
            .label("not defined")
            .expanded_from(&chain.sites());
            self.diagnostics.push(d);
        }
    }

    /// Whether an operand names a register (by name, label or number)
    /// rather than a value.
    fn names_register(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Number(_) => true,
            ExprKind::Name(n) => match self.names.get(n) {
                Some((Symbol::Const, _)) => false,
                Some(_) => true,
                None => !super::eval::is_builtin_name(n),
            },
            _ => false,
        }
    }

    /// `entry` and `callstack`.
    fn directives(&mut self) {
        let expansion = self.expansion;
        for (_, item) in all_items(expansion) {
            match &item.stmt {
                Stmt::Entry(name) => {
                    let hand = self.out.registers.iter().find_map(|r| match r.role {
                        Role::HandBlock(b) if r.name == name.text => Some(b),
                        _ => None,
                    });
                    match self.out.labels.get(&name.text).copied().or(hand) {
                        Some(b) => self.out.entry = Some(b),
                        None => self.diagnostics.push(
                            Diagnostic::error(
                                "E0513",
                                name.span,
                                format!(
                                    "`entry` names no label or block: `{}`",
                                    display(&name.text)
                                ),
                            )
                            .label("not a label"),
                        ),
                    }
                }
                Stmt::CallStack { stack, link } => {
                    let register = |r: &mut Self, n: &Name| match r.names.get(&n.text) {
                        Some((Symbol::Register(i), _)) => Some(*i),
                        _ => {
                            r.diagnostics.push(
                                Diagnostic::error(
                                    "E0514",
                                    n.span,
                                    format!("`{}` is not a register", display(&n.text)),
                                )
                                .label("`callstack` names two registers"),
                            );
                            None
                        }
                    };
                    let (s, l) = (register(self, stack), register(self, link));
                    if let (Some(s), Some(l)) = (s, l) {
                        self.out.callstack = Some((s, l));
                    }
                }
                _ => {}
            }
        }
    }
}

/// The operand positions an instruction writes.
fn written_operands(op: Opcode) -> &'static [usize] {
    match op {
        Opcode::Nilify => &[0],
        Opcode::Construct | Opcode::CopyIfNil => &[2],
        Opcode::Deconstruct => &[1, 2],
    }
}

/// Calls `f` on every name in an expression.
pub fn walk_names(e: &Expr, f: &mut dyn FnMut(&str)) {
    match &e.kind {
        ExprKind::Name(n) => f(n),
        ExprKind::Number(_) | ExprKind::Str(_) => {}
        ExprKind::Neg(x) | ExprKind::Not(x) | ExprKind::Pool(x) => walk_names(x, f),
        ExprKind::Binary(_, a, b) => {
            walk_names(a, f);
            walk_names(b, f);
        }
        ExprKind::List(items, tail) => {
            items.iter().for_each(|x| walk_names(x, f));
            if let Some(t) = tail {
                walk_names(t, f);
            }
        }
        ExprKind::Tuple(items) => items.iter().for_each(|x| walk_names(x, f)),
        ExprKind::Apply(head, args) => {
            f(&head.text);
            args.iter().for_each(|x| walk_names(x, f));
        }
    }
}

/// A text that identifies an expression regardless of where it was written.
pub fn expr_key(e: &Expr) -> String {
    let mut names = Vec::new();
    walk_names(e, &mut |n| names.push(n.to_string()));
    format!("{:?}", strip(e))
}

fn strip(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Name(n) => n.clone(),
        ExprKind::Number(n) => n.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Neg(x) => format!("(-{})", strip(x)),
        ExprKind::Not(x) => format!("(not {})", strip(x)),
        ExprKind::Pool(x) => format!("#{}", strip(x)),
        ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", strip(a), strip(b)),
        ExprKind::List(items, tail) => format!(
            "[{}{}]",
            items.iter().map(strip).collect::<Vec<_>>().join(","),
            tail.as_ref()
                .map_or(String::new(), |t| format!("|{}", strip(t)))
        ),
        ExprKind::Tuple(items) => format!(
            "({})",
            items.iter().map(strip).collect::<Vec<_>>().join(",")
        ),
        ExprKind::Apply(h, args) => format!(
            "({} {})",
            h.text,
            args.iter().map(strip).collect::<Vec<_>>().join(" ")
        ),
    }
}

/// A name as the user wrote it (macro-local names carry `@N` inside).
pub fn display(name: &str) -> &str {
    name.split('@').next().unwrap_or(name)
}

/// Edit distance with transpositions (optimal string alignment).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

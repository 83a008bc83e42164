//! The passes over code: blocks at labels, hand-laid `block`s, code
//! registers, `tail`.

use super::*;
use crate::asm::ast::{Ident, Name, Stmt};
use crate::asm::eval::Env;

impl Resolver<'_> {
    /// Splits every section into blocks at its labels.
    pub(super) fn blocks(&mut self) {
        let sections = std::mem::take(&mut self.sections);
        let mut sections = Rc::try_unwrap(sections).unwrap_or_else(|shared| (*shared).clone());
        self.out.main_sections = sections.iter().map(|s| s.main).collect();
        // A block's instructions are reserved at once (they grew by
        // doubling, copying them each time): `runs[s][run]` instructions
        // follow the start of section `s` or its `run`th label or `block`.
        let all_runs: Vec<Vec<usize>> = sections
            .iter()
            .map(|section| instruction_runs(&section.items))
            .collect();
        // Each block starts at one of those places: the blocks, the labels
        // and the names are reserved at once too (they are many, and large).
        let places: usize = all_runs.iter().map(Vec::len).sum();
        self.out.blocks.reserve_exact(places);
        self.out.labels.reserve(places);
        self.names.reserve(places);
        for ((s, section), runs) in sections.iter_mut().enumerate().zip(all_runs) {
            let main = section.main;
            let mut current: Option<usize> = None;
            let mut previous: Option<usize> = None;
            let wanted = |run: usize| runs.get(run).copied().unwrap_or(0);
            let mut run = 0;
            // The instructions expansion made: each run goes in before the
            // item it comes before (`k` counts the items).
            let mut converted = std::mem::take(&mut section.runs).into_iter().peekable();
            let mut k = 0;
            let mut runs_before = |this: &mut Self,
                                   k: usize,
                                   current: &mut Option<usize>,
                                   previous: &mut Option<usize>| {
                while let Some((_, instrs)) = converted.next_if(|(start, _)| *start <= k) {
                    this.take_run(s, main, instrs, current, previous);
                }
            };
            // The instructions move into the blocks, in place (a program
            // may have millions).
            section.items.retain_mut(|item| {
                runs_before(self, k, &mut current, &mut previous);
                k += 1;
                match &item.stmt {
                    Stmt::Label(name) => {
                        run += 1;
                        let starts_new =
                            current.is_none_or(|b| !self.out.blocks[b].instrs.is_empty());
                        let b = if starts_new {
                            self.code_block(s, main, item.span, &mut current, &mut previous)
                        } else {
                            current.expect("checked")
                        };
                        self.out.blocks[b].instrs.reserve_exact(wanted(run));
                        if self.declare(name, Symbol::label(b)) {
                            // Mostly one label a block: room for one first.
                            let labels = &mut self.out.blocks[b].labels;
                            labels.reserve_exact(1);
                            labels.push(name.clone());
                            self.out.labels.insert(name.name(), b);
                        }
                    }
                    Stmt::Op { .. } => {
                        let b = match current {
                            Some(b) => b,
                            None => {
                                let b = self.code_block(
                                    s,
                                    main,
                                    item.span,
                                    &mut current,
                                    &mut previous,
                                );
                                self.out.blocks[b].instrs.reserve_exact(wanted(run));
                                b
                            }
                        };
                        if let Some(mut instr) = self.instruction(item) {
                            let keep = self.keep_instructions;
                            if let Stmt::Op { args, .. } = &mut item.stmt {
                                instr.exprs = if keep {
                                    args.as_slice().into()
                                } else {
                                    std::mem::take(args).into_boxed_slice()
                                };
                            }
                            self.out.blocks[b].instrs.push(instr);
                            return keep;
                        }
                    }
                    Stmt::Block { name, .. } => {
                        run += 1;
                        self.hand_block(s, item, name);
                        // A hand-laid block interrupts fall-through.
                        current = None;
                        previous = None;
                    }
                    _ => {}
                }
                true
            });
            runs_before(self, usize::MAX, &mut current, &mut previous);
            section.items.shrink_to_fit();
        }
        self.sections = Rc::new(sections);
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

    /// A new block of code in section `section` at `span`, after
    /// `previous`, when no block is `current`: it is then the current and
    /// the previous block (and the entry, when it is the main file's first).
    fn code_block(
        &mut self,
        section: usize,
        main: bool,
        span: Span,
        current: &mut Option<usize>,
        previous: &mut Option<usize>,
    ) -> usize {
        let b = self.new_block(section, span, *previous);
        *previous = Some(b);
        *current = Some(b);
        if main && self.out.entry.is_none() {
            self.out.entry = Some(b);
        }
        b
    }

    /// Instructions that expansion made ([`Section::runs`]) into the
    /// current block, or a new one (as their first would start as a
    /// statement). They are moved in whole when the block has none yet.
    fn take_run(
        &mut self,
        section: usize,
        main: bool,
        instrs: Vec<Instr>,
        current: &mut Option<usize>,
        previous: &mut Option<usize>,
    ) {
        let Some(first) = instrs.first() else {
            return;
        };
        let b = match *current {
            Some(b) => b,
            None => self.code_block(section, main, first.span, current, previous),
        };
        let block = &mut self.out.blocks[b].instrs;
        if block.is_empty() {
            *block = instrs;
        } else {
            block.extend(instrs);
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

    fn hand_block(&mut self, section: usize, item: &Item, name: &Ident) -> usize {
        let b = self.new_block(section, item.span, None);
        let register = match self.names.get(&name.name()) {
            Some(Symbol::Register(r)) => *r as usize,
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
                    let own_name = offset == 0 && l.name() == name.name();
                    if own_name || self.declare(l, Symbol::label(b)) {
                        self.out.labels.insert(l.name(), b);
                    }
                }
                Stmt::Op { .. } => {
                    if tail.is_some() {
                        self.diagnostics.push(
                            Diagnostic::error(
                                Code::E0505,
                                inner.span,
                                "nothing can follow `tail` in a block",
                            )
                            .label("after the tail"),
                        );
                    }
                    if let Some(mut instr) = self.instruction(inner) {
                        if let Stmt::Op { args, .. } = &inner.stmt {
                            instr.exprs = args.as_slice().into();
                        }
                        self.out.blocks[b].instrs.push(instr);
                    }
                }
                Stmt::Tail(t) => tail = Some(t.clone()),
                _ => self.diagnostics.push(
                    Diagnostic::error(
                        Code::E0506,
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
        self.out.blocks[b].hand = Some(Box::new(HandLayout {
            register,
            tail: None,
            tail_name: tail,
            labels,
        }));
        b
    }

    /// E0508 for a statement that is neither an instruction nor a macro,
    /// with help: the macro defined only further on, the instruction or
    /// macro it looks like, the missing colon
    /// of a label (a name alone on its line), or where macros come from.
    fn unknown_op(&self, name: &Ident, alone: bool) -> Diagnostic {
        let d = Diagnostic::error(
            Code::E0508,
            name.span,
            format!("unknown instruction or macro `{}`", name.text),
        );
        if self.expansion.macro_names.iter().any(|m| **m == *name.text) {
            return d.label("no macro of this name is defined above").help(format!(
                "the macro `{}` is defined further on: a macro must be defined before the lines that use it",
                name.text
            ));
        }
        let d = d.label("not an instruction, and no macro has this name");
        let mnemonics = ["nilify", "construct", "deconstruct", "copyifnil"];
        let macros = self.expansion.macro_names.iter().map(String::as_str);
        if let Some(s) = crate::asm::suggest::nearest(&name.text, macros.chain(mnemonics)) {
            let case = if s.eq_ignore_ascii_case(&name.text) && !mnemonics.contains(&s) {
                " (macro names are case-sensitive)"
            } else {
                ""
            };
            return d.help(format!("did you mean `{s}`?{case}"));
        }
        if alone {
            return d.help(format!(
                "a label is written with a colon: `{}:`; otherwise, the instructions are nilify, construct, deconstruct and copyifnil, and macros come from the file or the modules it `use`s",
                name.text
            ));
        }
        if self.expansion.macro_names.iter().any(|m| m == "mov") {
            return d.help(
                "the instructions are nilify, construct, deconstruct and copyifnil; macros come from this file and the modules it `use`s (docs/stdlib.md lists the standard library's)",
            );
        }
        d
    }

    /// An instruction whose operands are filled in later; checks the
    /// mnemonic and the operand count.
    fn instruction(&mut self, item: &Item) -> Option<Instr> {
        let Stmt::Op { name, args } = &item.stmt else {
            return None;
        };
        let Some(op) = Opcode::parse(&name.text) else {
            let d = self
                .unknown_op(name, args.is_empty())
                .expanded_from(&item.chain.sites());
            self.diagnostics.push(d);
            return None;
        };
        if args.len() != op.arity() {
            let d = Diagnostic::error(
                Code::E0509,
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
        Some(shell(op, name, args, item))
    }

    /// The registers that hand-laid blocks continue with.
    pub(super) fn tails(&mut self) {
        for b in 0..self.out.blocks.len() {
            let Some(name) = self.out.blocks[b]
                .hand
                .as_ref()
                .and_then(|h| h.tail_name.clone())
            else {
                continue;
            };
            let tail = match self.names.get(&name.name()) {
                Some(Symbol::Register(r)) => Some((*r as usize, name.span)),
                _ => {
                    let d = Diagnostic::error(
                        Code::E0507,
                        name.span,
                        format!("`{}` is not a register", name.text),
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
        let mut seen_consts: rustc_hash::FxHashSet<&Name> = rustc_hash::FxHashSet::default();
        for (b, block) in blocks.iter().enumerate() {
            if let Some(hand) = &block.hand {
                work.push(b);
                if let Some(Some(Symbol::Label(t))) =
                    hand.tail_name.as_ref().map(|n| self.names.get(&n.name()))
                {
                    wanted[*t as usize] = true;
                    work.push(*t as usize);
                }
            }
        }
        let sections = Rc::clone(&self.sections);
        for (_, item) in all_items(&sections) {
            if let Stmt::Reg { init: Some(e), .. } = &item.stmt {
                exprs.push(e);
            }
        }
        let always_nil = |r: i64| crate::asm::layout::always_nil(&self.out, r);
        loop {
            // Names in expressions: labels are wanted and reached; constants
            // are looked into.
            while let Some(e) = exprs.pop() {
                walk_names(e, &mut |n| match self.names.get(n) {
                    Some(Symbol::Label(b)) => {
                        wanted[*b as usize] = true;
                        work.push(*b as usize);
                    }
                    Some(Symbol::Const) => {
                        if let Some((name, (def, _))) = self.expansion.consts.get_key_value(n)
                            && seen_consts.insert(name)
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
            let last_two: Vec<crate::asm::layout::InstrShape> = block.instrs
                [block.instrs.len().saturating_sub(2)..]
                .iter()
                .map(|i| {
                    (
                        i.op,
                        [0, 1, 2].map(|k| i.exprs.get(k).and_then(|e| self.register_number(e))),
                    )
                })
                .collect();
            if block.hand.is_none() && !crate::asm::layout::block_ends(&last_two, &always_nil) {
                work.extend(block.next);
            }
        }
        (wanted, reached)
    }

    /// The register an operand names before code registers exist: a number,
    /// `@` and a number, or a declared register's name.
    fn register_number(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Number(n) => i64::try_from(*n).ok(),
            ExprKind::RegisterIndex(index) => {
                match crate::asm::eval::eval(index, &Env::expanding(&self.expansion.consts)) {
                    Ok(crate::asm::eval::Value::Int(n)) => Some(n),
                    _ => None,
                }
            }
            ExprKind::Name(n) => match self.names.get(n) {
                Some(Symbol::Register(r)) => Some(*r as i64),
                _ => None,
            },
            _ => None,
        }
    }

    /// Every label named as a register (an operand, or inside a constant)
    /// gets a code register, in the order of the blocks.
    pub(super) fn code_registers(&mut self) {
        let (wanted, reached) = self.wanted_code();
        self.out.reached = reached;
        // Reserved at once: a program may have many.
        let code = self.out.blocks.iter().zip(&wanted);
        let more = code
            .filter(|(block, w)| **w && block.hand.is_none())
            .count();
        self.out.registers.reserve(more);
        for (b, block) in self.out.blocks.iter().enumerate() {
            if wanted[b] && block.hand.is_none() {
                // A label the user wrote names the register, rather than
                // one local to a macro expansion.
                let name = block
                    .labels
                    .iter()
                    .find(|l| l.scope.is_root())
                    .or(block.labels.first())
                    .map_or_else(|| Name::root(&format!("block{b}")), Ident::name);
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
                    self.names.insert(l.name(), Symbol::register(i));
                }
            }
        }
        for block in &self.out.blocks {
            if let Some(hand) = &block.hand {
                for (l, offset) in &hand.labels {
                    if *offset == 0 && hand.register != usize::MAX {
                        self.names.insert(l.name(), Symbol::register(hand.register));
                    }
                }
            }
        }
    }
}

/// How many instructions follow the start of a section and each label and
/// `block` in it, up to the next label or `block`, in order.
fn instruction_runs(items: &[Item]) -> Vec<usize> {
    let mut runs = vec![0];
    for item in items {
        match item.stmt {
            Stmt::Label(_) | Stmt::Block { .. } => runs.push(0),
            Stmt::Op { .. } => {
                if let Some(last) = runs.last_mut() {
                    *last += 1;
                }
            }
            _ => {}
        }
    }
    runs
}

/// The instruction an expanded statement is, its operands moved into it
/// (`exprs`), when it is an instruction with as many operands as it
/// takes; the statement back otherwise (resolution explains it then).
pub(crate) fn into_instruction(mut item: Item) -> Result<Instr, Item> {
    let Stmt::Op { name, args } = &item.stmt else {
        return Err(item);
    };
    let Some(op) = Opcode::parse(&name.text).filter(|op| args.len() == op.arity()) else {
        return Err(item);
    };
    let mut instr = shell(op, name, args, &item);
    if let Stmt::Op { args, .. } = &mut item.stmt {
        instr.exprs = std::mem::take(args).into_boxed_slice();
    }
    Ok(instr)
}

/// Instruction `op`, written as `name` with operands `args` (as many as
/// it takes) in the statement `item`: every operand register 0, and no
/// operand expressions (`exprs` is empty).
fn shell(op: Opcode, name: &Ident, args: &[Expr], item: &Item) -> Instr {
    let mut spans = [name.span; 3];
    for (k, a) in args.iter().enumerate() {
        spans[k] = a.span;
    }
    Instr {
        op,
        operands: [0; 3],
        exprs: Box::default(),
        operand_spans: spans,
        span: item.span,
        chain: item.chain.clone(),
    }
}

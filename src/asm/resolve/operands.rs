//! The passes over instructions: operands (registers, labels, constant
//! registers) and the directives that name registers.

use super::*;
use crate::asm::ast::{Ident, Name, Stmt};
use crate::asm::eval::{Env, eval};
use crate::asm::macros::Chain;
use crate::tree::Tree;

impl Resolver<'_> {
    /// The register index of an operand, adding a constant register when the
    /// operand is a value.
    fn operand(&mut self, e: &Expr, chain: &Chain) -> Option<i64> {
        match &e.kind {
            ExprKind::Number(n) => match i64::try_from(*n) {
                Ok(i) => Some(i),
                Err(_) => {
                    self.diagnostics.push(
                        Diagnostic::error(Code::E0510, e.span, "register number too large")
                            .label("here"),
                    );
                    None
                }
            },
            ExprKind::Name(n) => match self.names.get(n) {
                Some(Symbol::Register(r)) => Some(*r as i64),
                Some(Symbol::Label(_)) => {
                    // A label inside a hand-laid block, not at its start.
                    let d = Diagnostic::error(
                        Code::E0511,
                        e.span,
                        format!("label `{n}` is not the start of a register"),
                    )
                    .label("cannot be jumped to")
                    .note("only a label at the start of a block has a register of its own")
                    .expanded_from(&chain.sites());
                    self.diagnostics.push(d);
                    None
                }
                Some(Symbol::Const) => self.constant(e, chain),
                None if crate::asm::eval::is_builtin_name(n) => self.constant(e, chain),
                None => {
                    let d = self.unknown_operand(n, e.span, chain);
                    self.diagnostics.push(d);
                    None
                }
            },
            ExprKind::Pool(inner) => self.constant(inner, chain),
            ExprKind::RegisterIndex(index) => self.constant_int(index),
            _ => self.constant(e, chain),
        }
    }

    /// E0512 for an operand that names nothing, with the most useful help:
    /// how to write a constructor given without its arguments, a name that
    /// looks like it, or the line that lacks its label's colon.
    fn unknown_operand(&self, n: &Name, span: Span, chain: &Chain) -> Diagnostic {
        let d = Diagnostic::error(
            Code::E0512,
            span,
            format!("unknown register or label `{n}`"),
        )
        .label("not defined")
        .expanded_from(&chain.sites());
        if let Some(usage) = crate::asm::constructors::usage(&n.text) {
            return d.help(format!("`{n}` needs its arguments: {usage}"));
        }
        if let Some(s) = self.similar(&n.text) {
            return d.help(format!("did you mean `{s}`?"));
        }
        match self.bare_line(&n.text) {
            Some(line) => d.help(format!(
                "a label is written with a colon: `{n}` alone on line {line} should be `{n}:`"
            )),
            None => d,
        }
    }

    /// A defined name, or a built-in value, that looks like `name`.
    fn similar(&self, name: &str) -> Option<String> {
        let builtins = crate::asm::eval::builtin_names();
        let defined = self
            .names
            .keys()
            .filter(|c| c.scope.is_root())
            .map(|c| &*c.text);
        crate::asm::suggest::nearest(name, defined.chain(builtins.iter().map(String::as_str)))
            .map(str::to_string)
    }

    /// The line (1-based) of a statement that is `name` alone, as a label
    /// written without its colon would be, in the file of the main section.
    fn bare_line(&self, name: &str) -> Option<usize> {
        let section = self.sections.iter().find(|s| s.main)?;
        let item = section.items.iter().find(|item| {
            matches!(&item.stmt, Stmt::Op { name: op, args } if args.is_empty() && *op.text == *name)
        })?;
        let file = self.expansion.sources.get(item.span.file);
        Some(file.line_col(item.span.start as usize).0)
    }

    /// The constant register holding the value of `e`.
    fn constant(&mut self, e: &Expr, chain: &Chain) -> Option<i64> {
        let simple = SimpleConstant::of(e);
        if let Some(&register) = simple.as_ref().and_then(|s| self.simple_constants.get(s)) {
            return Some(register as i64);
        }
        let register = self.new_constant(e, chain);
        if let (Some(simple), Some((register, true))) = (simple, register) {
            self.simple_constants.insert(simple, register);
        }
        register.map(|(register, _)| register as i64)
    }

    /// [`Resolver::constant`] worked out: the register, and whether the
    /// value was known before layout.
    fn new_constant(&mut self, e: &Expr, chain: &Chain) -> Option<(usize, bool)> {
        let early = {
            let registers = |n: &Name| match self.names.get(n) {
                Some(Symbol::Register(r)) => Some(*r as i64),
                _ => None,
            };
            let mut env = Env::expanding(&self.expansion.consts);
            env.registers = Some(&registers);
            match eval(e, &env) {
                Ok(v) => match v.encode() {
                    Ok(t) => Some(t),
                    Err(m) => {
                        self.diagnostics.push(
                            Diagnostic::error(Code::E0411, e.span, m)
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
            Some(t) => {
                self.identified.push(t.clone());
                ConstantKey::Tree(self.tree_ids.id(t))
            }
            None => ConstantKey::Expr(expr_key(e)),
        };
        let known = early.is_some();
        if let Some(&register) = self.constant_by_value.get(&key) {
            return Some((register, known));
        }
        // Nil needs no register of its own when one can only hold Nil.
        if early.as_ref().is_some_and(Tree::is_nil)
            && let Some(zero) = self.out.registers.iter().position(|r| {
                r.role == Role::Declared
                    && r.init.is_none()
                    && matches!(r.limit, LimitSpec::Default(l) | LimitSpec::Given(l, _) if l <= 0)
            })
        {
            self.constant_by_value.insert(key, zero);
            return Some((zero, known));
        }
        let c = self.out.constants.len();
        self.out.constants.push(Constant {
            expr: e.clone(),
            early,
        });
        self.out.registers.push(RegInfo {
            name: Name::root(&format!("const{c}")),
            span: Some(e.span),
            limit: LimitSpec::Auto,
            init: None,
            role: Role::Constant(c),
        });
        let register = self.out.registers.len() - 1;
        self.constant_by_value.insert(key, register);
        Some((register, known))
    }

    /// Resolves every instruction's operands.
    pub(super) fn operands(&mut self) {
        // Bare numbers read as registers: `(span, register, chain)`.
        let mut bare: Vec<(Span, i64, Chain)> = Vec::new();
        for b in 0..self.out.blocks.len() {
            if !self.out.reached[b] {
                self.check_names(b);
                continue;
            }
            for k in 0..self.out.blocks[b].instrs.len() {
                let instr = &mut self.out.blocks[b].instrs[k];
                // The chain is lent, not cloned: a clone touches its link,
                // one more cache miss an instruction.
                let (exprs, chain, op) = (
                    std::mem::take(&mut instr.exprs),
                    std::mem::take(&mut instr.chain),
                    instr.op,
                );
                let written = written_operands(op);
                let mut operands = [0i64; 3];
                for (j, e) in exprs.iter().enumerate() {
                    if written.contains(&j) && !self.names_register(e) {
                        let d = Diagnostic::error(Code::E0606, e.span, "cannot write to a value")
                            .label("this operand is written, so it must be a register")
                            .note("a value here would be a constant register")
                            .expanded_from(&chain.sites());
                        self.diagnostics.push(d);
                        continue;
                    }
                    let register = self.operand(e, &chain);
                    if let Some(r) = register
                        && matches!(e.kind, ExprKind::Number(_))
                        && read_operands(op).contains(&j)
                    {
                        bare.push((e.span, r, chain.clone()));
                    }
                    operands[j] = register.unwrap_or(0);
                }
                // The expressions are not needed once resolved: they go
                // before the code is laid out (a program may have millions).
                let instr = &mut self.out.blocks[b].instrs[k];
                instr.operands = operands;
                instr.chain = chain;
            }
        }
        for (span, register, chain) in bare {
            let d = self
                .bare_number(span, register)
                .expanded_from(&chain.sites());
            self.diagnostics.push(d);
        }
    }

    /// W0706: a number alone as an operand that is read is a register, which
    /// is rarely what was meant (`mov x, 4` copies register 4).
    fn bare_number(&self, span: Span, register: i64) -> Diagnostic {
        let which = match usize::try_from(register)
            .ok()
            .and_then(|r| self.out.registers.get(r))
        {
            Some(reg) if matches!(reg.role, Role::Constant(_)) => " (a constant register)".into(),
            Some(reg) => format!(" (`{}`)", reg.name),
            None => " (which does not exist)".into(),
        };
        Diagnostic::warning(
            Code::W0706,
            span,
            format!("`{register}` reads register {register}{which}, not the number {register}"),
        )
        .label("a number alone names a register")
        .help(format!(
            "write `#{register}` for the number {register}, or `@{register}` for register {register}"
        ))
    }

    /// In a block no running code reaches (left out of the image): only
    /// report names that are not defined.
    fn check_names(&mut self, b: usize) {
        let mut unknown: Vec<(Name, Span, Chain)> = Vec::new();
        for instr in &self.out.blocks[b].instrs {
            for e in &instr.exprs {
                if let ExprKind::Name(n) = &e.kind
                    && !self.names.contains_key(n)
                    && !crate::asm::eval::is_builtin_name(n)
                {
                    unknown.push((n.clone(), e.span, instr.chain.clone()));
                }
            }
        }
        for (n, span, chain) in unknown {
            let d = self.unknown_operand(&n, span, &chain);
            self.diagnostics.push(d);
        }
    }

    /// Whether an operand names a register (by name, label or number)
    /// rather than a value.
    fn names_register(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Number(_) | ExprKind::RegisterIndex(_) => true,
            ExprKind::Name(n) => match self.names.get(n) {
                Some(Symbol::Const) => false,
                Some(_) => true,
                None => !crate::asm::eval::is_builtin_name(n),
            },
            _ => false,
        }
    }

    /// `entry LABEL`: the block the program starts with, in place of the
    /// main file's first block. Given at most once, and not together with
    /// `block prog` (which lays out the start by hand).
    pub(super) fn entry(&mut self) {
        let sections = Rc::clone(&self.sections);
        let mut given: Option<Span> = None;
        for (_, item) in all_items(&sections) {
            let Stmt::Entry(name) = &item.stmt else {
                continue;
            };
            let bad = |message: String, label: &str| {
                Diagnostic::error(Code::E0513, name.span, message).label(label.to_string())
            };
            if let Some(first) = given {
                self.diagnostics.push(
                    bad("`entry` is given twice".into(), "second `entry`")
                        .with_label(first, "first `entry`"),
                );
                continue;
            }
            given = Some(name.span);
            if matches!(self.out.registers[0].role, Role::HandBlock(_)) {
                self.diagnostics.push(
                    bad(
                        "`entry` with `block prog`".into(),
                        "the program already starts with `block prog`",
                    )
                    .help("keep one of the two: `block prog` lays out the start by hand"),
                );
                continue;
            }
            let hand = self.out.registers.iter().find_map(|r| match r.role {
                Role::HandBlock(b) if r.name == name.name() => Some(b),
                _ => None,
            });
            match self.out.labels.get(&name.name()).copied().or(hand) {
                Some(b) => self.out.entry = Some(b),
                None => self.diagnostics.push(bad(
                    format!("`entry` names no label or block: `{}`", name.text),
                    "not a label",
                )),
            }
        }
    }

    /// `callstack STACK, LINK`.
    pub(super) fn callstack(&mut self) {
        let sections = Rc::clone(&self.sections);
        for (_, item) in all_items(&sections) {
            let Stmt::CallStack { stack, link } = &item.stmt else {
                continue;
            };
            let register = |r: &mut Self, n: &Ident| match r.names.get(&n.name()) {
                Some(Symbol::Register(i)) => Some(*i as usize),
                _ => {
                    r.diagnostics.push(
                        Diagnostic::error(
                            Code::E0514,
                            n.span,
                            format!("`{}` is not a register", n.text),
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
    }
}

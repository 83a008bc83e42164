//! The passes over declarations: the predeclared registers, `reg`,
//! `resize`, register numbering.

use super::*;
use crate::asm::ast::{Name, Stmt};
use crate::asm::eval::{Env, Value, eval};

/// A declared register (taken out when it is placed) and the index it asks
/// for, with where.
type Declaration = (Option<RegInfo>, Option<(i64, Span)>);

impl Resolver<'_> {
    pub(super) fn predeclare(&mut self) {
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

    pub(super) fn declare(&mut self, name: &Name, symbol: Symbol) -> bool {
        if let Some((_, previous)) = self.names.get(&name.text) {
            let kind = match self.names[&name.text].0 {
                Symbol::Register(_) => "a register",
                Symbol::Label(_) => "a label",
                Symbol::Const => "a constant",
            };
            let mut d = Diagnostic::error(
                Code::E0501,
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
    pub(super) fn declarations(&mut self) {
        let expansion = self.expansion;
        let mut configured = [false; 3];
        let mut declared: Vec<Declaration> = Vec::new();
        for (_, item) in all_items(expansion) {
            let (name, index, limit, init, is_block) = match &item.stmt {
                Stmt::Reg {
                    name,
                    index,
                    limit,
                    init,
                } => (
                    name,
                    index,
                    limit.as_ref().map(|l| l.as_deref()),
                    init.clone(),
                    false,
                ),
                Stmt::Block { name, index, limit } => {
                    (name, index, Some(limit.as_deref()), None, true)
                }
                _ => continue,
            };
            let limit = match limit {
                None if is_block => LimitSpec::Auto,
                None => LimitSpec::Default(DEFAULT_LIMIT),
                Some(None) => LimitSpec::Auto,
                Some(Some(e)) => match self.constant_int(e) {
                    Some(n) => LimitSpec::Given(n, e.span),
                    None => LimitSpec::Default(DEFAULT_LIMIT),
                },
            };
            if let Some(k) = ["prog", "in", "out"].iter().position(|p| *p == name.text) {
                // `block prog` lays out the program's first code by hand.
                let bad_block = is_block && k != 0;
                if bad_block || configured[k] || index.is_some() {
                    let d = Diagnostic::error(
                        Code::E0502,
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
            declared.push((Some(reg), index));
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
                        Code::E0515,
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
                    Code::E0516,
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
    /// others in order, each at the lowest free index. Declarations are
    /// moved once, into the registers (a program may declare millions).
    fn place(&mut self, mut declared: Vec<Declaration>) {
        // Which declaration each register index holds (a position in
        // `declared`), and the declarations still without one.
        let mut slots: Vec<Option<usize>> = vec![None; 3];
        let mut rest = Vec::new();
        for (k, (_, index)) in declared.iter().enumerate() {
            let Some((index, span)) = *index else {
                rest.push(k);
                continue;
            };
            let bad = !(3..=1_000_000).contains(&index);
            let taken = !bad && slots.get(index as usize).is_some_and(Option::is_some);
            if bad || taken {
                let d = Diagnostic::error(
                    Code::E0503,
                    span,
                    format!("register index {index} cannot be used"),
                )
                .label(if bad {
                    "indices run from 3 (0, 1, 2 are prog, in, out) to 1000000"
                } else {
                    "already taken"
                });
                self.diagnostics.push(d);
                rest.push(k);
                continue;
            }
            let index = index as usize;
            if slots.len() <= index {
                slots.resize(index + 1, None);
            }
            slots[index] = Some(k);
        }
        // Each register without an index takes the first free slot from 3
        // on; slots only fill, so the search goes on from the last one
        // taken (linear in the registers, not quadratic).
        let mut free = 3;
        for k in rest {
            while slots.get(free).is_some_and(Option::is_some) {
                free += 1;
            }
            match slots.get_mut(free) {
                Some(slot) => *slot = Some(k),
                None => slots.push(Some(k)),
            }
        }
        self.out.registers.reserve(slots.len().saturating_sub(3));
        for (i, slot) in slots.into_iter().enumerate().skip(3) {
            let reg = slot
                .and_then(|k| declared[k].0.take())
                .unwrap_or_else(|| RegInfo {
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

    pub(super) fn constant_int(&mut self, e: &Expr) -> Option<i64> {
        let env = Env::expanding(&self.expansion.consts);
        match eval(e, &env) {
            Ok(Value::Int(n)) => Some(n),
            Ok(other) => {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::E0504,
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
}

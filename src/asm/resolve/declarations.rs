//! The passes over declarations: the predeclared registers, `reg`,
//! `resize`, register numbering.

use super::*;
use crate::asm::ast::{Ident, Name, Stmt};
use crate::asm::eval::{Env, Value, eval};

/// A declaration that asks for an index: which declaration (counted from
/// the first after `prog`, `in` and `out`), the index, and where.
type Explicit = (usize, i64, Span);

/// No declaration in this slot, or no slot for this declaration yet.
const NONE: u32 = u32::MAX;

impl Resolver<'_> {
    pub(super) fn predeclare(&mut self) {
        for (name, limit) in [
            ("prog", LimitSpec::Auto),
            ("in", LimitSpec::Default(DEFAULT_INPUT_LIMIT)),
            ("out", LimitSpec::Default(DEFAULT_OUTPUT_LIMIT)),
        ] {
            let name = Name::root(name);
            self.out.registers.push(RegInfo {
                name: name.clone(),
                span: None,
                limit,
                init: None,
                role: Role::Predeclared,
            });
            let index = self.out.registers.len() - 1;
            self.names.insert(name, Symbol::register(index));
        }
        for name in self.expansion.consts.keys() {
            self.names.insert(name.clone(), Symbol::Const);
        }
    }

    /// Where a name was first defined (`None` for `prog`, `in` and `out`).
    fn defined_at(&self, name: &Name, symbol: Symbol) -> Option<Span> {
        match symbol {
            Symbol::Register(r) if r < 3 => None,
            Symbol::Register(r) => self.out.registers.get(r as usize)?.span,
            Symbol::Label(_) => self.label_spans.get(name).copied(),
            Symbol::Const => self.expansion.consts.get(name).map(|c| c.1),
        }
    }

    pub(super) fn declare(&mut self, name: &Ident, symbol: Symbol) -> bool {
        if let Some(&symbol) = self.names.get(&name.name()) {
            let kind = match symbol {
                Symbol::Register(_) => "a register",
                Symbol::Label(_) => "a label",
                Symbol::Const => "a constant",
            };
            let mut d = Diagnostic::error(
                Code::E0501,
                name.span,
                format!("`{}` is already defined", name.text),
            )
            .label("defined again here");
            if let Some(previous) = self.defined_at(&name.name(), symbol) {
                d = d.with_label(previous, format!("first defined here, as {kind}"));
            } else {
                d = d.note(format!("`{}` is predeclared ({kind})", name.text));
            }
            self.diagnostics.push(d);
            return false;
        }
        self.names.insert(name.name(), symbol);
        if let Symbol::Label(_) = symbol {
            self.label_spans.insert(name.name(), name.span);
        }
        true
    }

    /// `reg` and `block` declarations (and configuration of `prog`, `in`,
    /// `out`), then their indices.
    pub(super) fn declarations(&mut self) {
        let sections = Rc::clone(&self.sections);
        let mut configured = [false; 3];
        // Declared registers go straight after the predeclared ones, in
        // order; `place` moves them where they belong.
        let mut explicit: Vec<Explicit> = Vec::new();
        // Room for every register and name at once, rather than doubling
        // (and copying) through millions of declarations.
        let (registers, names) =
            all_items(&sections).fold((0, 0), |(r, n), (_, item)| match item.stmt {
                Stmt::Reg { .. } | Stmt::Block { .. } => (r + 1, n + 1),
                Stmt::Label(_) => (r, n + 1),
                _ => (r, n),
            });
        self.out.registers.reserve(registers);
        self.names.reserve(names);
        for (_, item) in all_items(&sections) {
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
            if let Some(k) = ["prog", "in", "out"]
                .iter()
                .position(|p| name.scope.is_root() && **p == *name.text)
            {
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
            let k = self.out.registers.len() - 3;
            if !self.declare(name, Symbol::register(k + 3)) {
                continue;
            }
            if let Some((i, span)) = index
                .as_ref()
                .and_then(|e| self.constant_int(e).map(|i| (i, e.span)))
            {
                explicit.push((k, i, span));
            }
            let role = if is_block {
                Role::HandBlock(usize::MAX)
            } else {
                Role::Declared
            };
            let reg = RegInfo {
                name: name.name(),
                span: Some(name.span),
                limit,
                init,
                role,
            };
            self.out.registers.push(reg);
        }
        self.place(&explicit);
        self.resizes();
    }

    /// `resize NAME LIMIT`: a new limit for a register declared anywhere
    /// (for example one a module declares), once.
    fn resizes(&mut self) {
        let sections = Rc::clone(&self.sections);
        let mut resized: HashMap<usize, Span> = HashMap::default();
        for (_, item) in all_items(&sections) {
            let Stmt::Resize { name, limit } = &item.stmt else {
                continue;
            };
            let register = match self.names.get(&name.name()) {
                Some(Symbol::Register(r)) => *r as usize,
                _ => {
                    let d = Diagnostic::error(
                        Code::E0515,
                        name.span,
                        format!("`resize` names no register: `{}`", name.text),
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
                    format!("`{}` is resized twice", name.text),
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
    /// others in order, each at the lowest free index. The registers were
    /// declared in order after `prog`, `in` and `out`, and are moved into
    /// their places there (a program may declare millions).
    fn place(&mut self, explicit: &[Explicit]) {
        let declared = self.out.registers.len() - 3;
        // Which declaration each register index holds, and the index of
        // each declaration.
        let mut slots: Vec<u32> = vec![NONE; 3];
        let mut target: Vec<u32> = vec![NONE; declared];
        for &(k, index, span) in explicit {
            let bad = !(3..=1_000_000).contains(&index);
            let taken = !bad && slots.get(index as usize).is_some_and(|&s| s != NONE);
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
                continue;
            }
            let index = index as usize;
            if slots.len() <= index {
                slots.resize(index + 1, NONE);
            }
            slots[index] = k as u32;
            target[k] = index as u32;
        }
        // Each register without an index takes the first free slot from 3
        // on; slots only fill, so the search goes on from the last one
        // taken (linear in the registers, not quadratic).
        let mut free = 3;
        for (k, slot) in target.iter_mut().enumerate() {
            if *slot != NONE {
                continue;
            }
            while slots.get(free).is_some_and(|&s| s != NONE) {
                free += 1;
            }
            match slots.get_mut(free) {
                Some(s) => *s = k as u32,
                None => slots.push(k as u32),
            }
            *slot = free as u32;
        }
        // Free slots below the highest index hold empty registers, added
        // after the declared ones and moved into place with them.
        for (i, slot) in slots.iter().enumerate().skip(3) {
            if *slot == NONE {
                target.push(i as u32);
                self.out.registers.push(RegInfo {
                    name: Name::root(&format!("r{i}")),
                    span: None,
                    limit: LimitSpec::Default(0),
                    init: None,
                    role: Role::Declared,
                });
            }
        }
        // Names of registers that move now name their index.
        for (k, &i) in target.iter().enumerate().take(declared) {
            if i as usize != k + 3
                && let Some(symbol) = self.names.get_mut(&self.out.registers[k + 3].name)
            {
                *symbol = Symbol::Register(i);
            }
        }
        // Moves each register to its index: each swap puts one in its place.
        let registers = &mut self.out.registers[3..];
        for p in 0..target.len() {
            while target[p] as usize - 3 != p {
                let d = target[p] as usize - 3;
                registers.swap(p, d);
                target.swap(p, d);
            }
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

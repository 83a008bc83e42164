//! The symbol index: every register, label, macro, constant and module of
//! a program, where each is defined and every place it is named, the
//! instructions that write each register and what each macro call expands
//! to, for an editor (go to definition, references, rename, hover, inlay
//! hints).
//!
//! It is taken from the compiler's own passes, never from a second reading
//! of the text: the expander records the macros it defines and invokes,
//! the modules it reads and the names in `if` conditions (a [`Recording`],
//! made only when asked for, see [`crate::asm::check_indexed`]); then
//! [`build`] walks the expanded statements and what resolution made of
//! them. Each name costs one hash lookup, and the occurrences are sorted
//! once (`n log n`); nothing here changes what is assembled.
//!
//! Known gaps: names in a macro's body are found where the macro is
//! expanded (a macro never invoked names nothing), and in an `if` branch
//! that is not taken; a name defined twice (an error) keeps its first
//! definition.

use super::ast::{Expr, ExprKind, Ident, Name, Stmt, Text};
use super::eval::{Env, Value, eval};
use super::macros::{Expansion, Item, statement_parts};
use super::resolve::{Block, LimitSpec, Resolved, Role};
use super::source::{FileId, Sources, Span};
use std::collections::HashMap;

/// What the expander saw while expanding, for [`build`].
#[derive(Debug, Default)]
pub struct Recording {
    /// Macros defined: their name, parameters and the file they are in.
    macros: Vec<(Ident, Vec<String>)>,
    /// Macro invocations: the macro's name and where it was written (once
    /// per expansion: the same place may come several times).
    macro_uses: Vec<(Text, Span)>,
    /// `use` and `include` lines: the line, the file read, and whether it
    /// is a standard module.
    modules: Vec<(Span, FileId, bool)>,
    /// The files read for modules, by the expander's key.
    module_files: HashMap<String, FileId>,
    /// Names in `if` conditions.
    names: Vec<(Name, Span)>,
}

impl Recording {
    /// A macro defined.
    pub(super) fn macro_def(&mut self, name: &Ident, params: &[Ident]) {
        let params = params.iter().map(|p| p.text.to_string()).collect();
        self.macros.push((name.clone(), params));
    }

    /// A macro invoked at `span`.
    pub(super) fn macro_use(&mut self, name: &Text, span: Span) {
        self.macro_uses.push((name.clone(), span));
    }

    /// A module read by the line at `span` (`key` as the expander knows
    /// the file; `file` when it was read now, `None` when it was read
    /// before).
    pub(super) fn module(&mut self, span: Span, key: &str, file: Option<FileId>, standard: bool) {
        let file = match file {
            Some(file) => {
                self.module_files.insert(key.to_string(), file);
                file
            }
            None => match self.module_files.get(key) {
                Some(&file) => file,
                None => return,
            },
        };
        self.modules.push((span, file, standard));
    }

    /// The names in an `if` condition.
    pub(super) fn condition(&mut self, condition: &Expr) {
        names_in(condition, &mut |name, span| {
            self.names.push((name.clone(), span))
        });
    }
}

/// What a symbol is, with what a hover shows of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detail {
    /// A register declared with `reg` or `block`, or predeclared.
    Register {
        /// Its number.
        number: usize,
        /// Its limit as declared (`None`: `auto`, worked out later).
        limit: Option<i64>,
        /// Its start value as written.
        start: Option<Span>,
        /// `prog`, `in` or `out`.
        predeclared: bool,
        /// The instructions that write it, in the order of the code.
        writes: Vec<Write>,
    },
    /// A label.
    Label {
        /// Its code register, when it has one (a label only fallen into
        /// has none).
        register: Option<usize>,
        /// The instructions of its block from the label on (those it falls
        /// into not counted).
        instructions: usize,
    },
    /// A macro.
    Macro {
        /// Its parameters.
        params: Vec<String>,
        /// The comment lines just above its definition, without `;`.
        doc: Vec<String>,
    },
    /// A constant.
    Constant {
        /// Its value as written.
        value: Span,
        /// Its value when it is a number.
        number: Option<i64>,
        /// The conses of its encoding, when it has one.
        size: Option<u64>,
    },
    /// A module read with `use` or `include`.
    Module {
        /// The file.
        file: FileId,
        /// Whether it is a standard module (`std/NAME`).
        standard: bool,
    },
}

/// An instruction that writes a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Write {
    /// Where it is written: the macro call the user wrote when it comes
    /// from one (each call once), else the instruction.
    pub at: Span,
    /// The label of its block (an index into [`SymbolIndex::symbols`]),
    /// when the block has one.
    pub label: Option<usize>,
}

/// What a macro call expands to: its first expansion's instructions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expanded {
    /// The first [`SHOWN_EXPANSION`] instructions, as written (the
    /// operands as the source has them).
    pub lines: Vec<String>,
    /// How many instructions there are.
    pub instructions: usize,
}

/// At most this many instructions of a macro call's expansion are kept.
pub const SHOWN_EXPANSION: usize = 40;

/// An operand of an expansion's instruction is kept up to this many
/// characters.
const SHOWN_OPERAND: usize = 60;

/// A named thing of the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Its name as the program spells it (`main.loop` for `.loop` under
    /// `main:`; a module's file name).
    pub name: String,
    /// Where it is defined (`None` for a predeclared register not
    /// configured; a module's is its file's start).
    pub definition: Option<Span>,
    /// Whether it is local to a macro's expansions (a label in a macro).
    pub local: bool,
    /// What it is.
    pub detail: Detail,
}

impl Symbol {
    /// "register", "label", "macro", "constant" or "module".
    pub fn kind(&self) -> &'static str {
        match self.detail {
            Detail::Register { .. } => "register",
            Detail::Label { .. } => "label",
            Detail::Macro { .. } => "macro",
            Detail::Constant { .. } => "constant",
            Detail::Module { .. } => "module",
        }
    }
}

/// One place a symbol is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occurrence {
    /// Where.
    pub span: Span,
    /// Which symbol (an index into [`SymbolIndex::symbols`]).
    pub symbol: usize,
    /// Whether this is its definition.
    pub definition: bool,
}

/// The symbols of a program and every place each is named.
#[derive(Debug, Default)]
pub struct SymbolIndex {
    /// The symbols.
    pub symbols: Vec<Symbol>,
    /// Every occurrence, sorted by file and place.
    occurrences: Vec<Occurrence>,
    /// What each macro call expands to, by the span of the macro's name
    /// at the call.
    expansions: HashMap<Span, Expanded>,
    /// Every register's limit, by number, as the program's image would
    /// give it (automatic limits worked out); `None` when the program has
    /// errors (it has no image).
    pub limits: Option<Vec<i64>>,
}

impl SymbolIndex {
    /// The occurrence at a byte offset of a file (a name the offset is in,
    /// or just after).
    pub fn at(&self, file: FileId, offset: usize) -> Option<Occurrence> {
        let offset = offset as u32;
        let after = self
            .occurrences
            .partition_point(|o| (o.span.file, o.span.start) <= (file, offset));
        self.occurrences[..after]
            .iter()
            .rev()
            .take_while(|o| o.span.file == file)
            .take(4)
            .find(|o| o.span.end >= offset)
            .copied()
    }

    /// Every occurrence of a symbol, its definition included.
    pub fn occurrences_of(&self, symbol: usize) -> impl Iterator<Item = Occurrence> + '_ {
        self.occurrences
            .iter()
            .filter(move |o| o.symbol == symbol)
            .copied()
    }

    /// Every occurrence, by file and place.
    pub fn occurrences(&self) -> &[Occurrence] {
        &self.occurrences
    }

    /// What the macro call whose name is at `site` expands to.
    pub fn expansion(&self, site: Span) -> Option<&Expanded> {
        self.expansions.get(&site)
    }
}

/// Builds the index of an expanded and resolved program (its expansion
/// recorded: see [`Recording`]).
pub fn build(expansion: &Expansion, resolved: &Resolved) -> SymbolIndex {
    let mut index = Builder::default();
    index.registers(resolved);
    index.labels(resolved);
    index.code(resolved, &expansion.sources);
    index.constants(expansion);
    let recording = expansion.recording.as_deref();
    if let Some(recording) = recording {
        index.macros(recording, &expansion.sources);
        index.modules(recording, &expansion.sources);
    }
    index.uses(expansion, recording);
    index.finish()
}

#[derive(Default)]
struct Builder {
    symbols: Vec<Symbol>,
    occurrences: Vec<Occurrence>,
    /// Registers, labels and constants by name.
    by_name: HashMap<Name, usize>,
    /// Names local to a macro expansion, by where they are defined: every
    /// expansion's name is one symbol.
    local: HashMap<(Span, Text), usize>,
    macros: HashMap<Text, usize>,
    /// Registers' symbols, by number.
    registers: HashMap<usize, usize>,
    expansions: HashMap<Span, Expanded>,
}

impl Builder {
    /// Adds a symbol named `name` (unless the name is known already).
    fn define(&mut self, name: &Name, definition: Option<Span>, detail: Detail) {
        if self.by_name.contains_key(name) {
            return;
        }
        if !name.scope.is_root()
            && let Some(span) = definition
            && let Some(&id) = self.local.get(&(span, name.text.clone()))
        {
            self.by_name.insert(name.clone(), id);
            return;
        }
        let id = self.add(name.text.to_string(), definition, detail);
        self.symbols[id].local = !name.scope.is_root();
        self.by_name.insert(name.clone(), id);
        if !name.scope.is_root()
            && let Some(span) = definition
        {
            self.local.insert((span, name.text.clone()), id);
        }
    }

    fn add(&mut self, name: String, definition: Option<Span>, detail: Detail) -> usize {
        let id = self.symbols.len();
        self.symbols.push(Symbol {
            name,
            definition,
            local: false,
            detail,
        });
        id
    }

    fn registers(&mut self, resolved: &Resolved) {
        for (number, reg) in resolved.registers.iter().enumerate() {
            let predeclared = reg.role == Role::Predeclared;
            let declared = matches!(reg.role, Role::Declared | Role::HandBlock(_));
            // Numbers left free between declared ones have no declaration.
            if !(predeclared || declared && reg.span.is_some()) {
                continue;
            }
            let limit = match reg.limit {
                LimitSpec::Default(n) | LimitSpec::Given(n, _) => Some(n),
                LimitSpec::Auto => None,
            };
            let detail = Detail::Register {
                number,
                limit,
                start: reg.init.as_ref().map(|e| e.span),
                predeclared: number < 3,
                writes: Vec::new(),
            };
            self.define(&reg.name, reg.span, detail);
            if let Some(&id) = self.by_name.get(&reg.name) {
                self.registers.insert(number, id);
            }
        }
    }

    fn labels(&mut self, resolved: &Resolved) {
        let mut code = HashMap::new();
        for (number, reg) in resolved.registers.iter().enumerate() {
            if let Role::Code(b) = reg.role {
                code.insert(b, number);
            }
        }
        for (b, block) in resolved.blocks.iter().enumerate() {
            let instructions = block.instrs.len();
            let labels: Vec<(&Ident, usize, Option<usize>)> = match &block.hand {
                Some(hand) => hand
                    .labels
                    .iter()
                    .map(|(l, offset)| {
                        let register =
                            (*offset == 0 && hand.register != usize::MAX).then_some(hand.register);
                        (l, instructions.saturating_sub(*offset), register)
                    })
                    .collect(),
                None => block
                    .labels
                    .iter()
                    .map(|l| (l, instructions, code.get(&b).copied()))
                    .collect(),
            };
            for (label, instructions, register) in labels {
                let name = label.name();
                if resolved.labels.get(&name) == Some(&b) {
                    let detail = Detail::Label {
                        register,
                        instructions,
                    };
                    self.define(&name, Some(label.span), detail);
                }
            }
        }
    }

    /// What writes each register, and what each macro call expands to,
    /// from the instructions of every block.
    fn code(&mut self, resolved: &Resolved, sources: &Sources) {
        // Instructions of one expansion share their chain's links.
        let mut first: HashMap<Span, usize> = HashMap::new();
        for block in &resolved.blocks {
            for (i, instr) in block.instrs.iter().enumerate() {
                let at = instr.chain.outermost().unwrap_or(instr.span);
                let label = self.label_of(block, i);
                for target in instr.op.targets(instr.operands) {
                    let Some(&id) = usize::try_from(target)
                        .ok()
                        .and_then(|t| self.registers.get(&t))
                    else {
                        continue;
                    };
                    if let Detail::Register { writes, .. } = &mut self.symbols[id].detail
                        && writes.last().is_none_or(|w| w.at != at)
                    {
                        writes.push(Write { at, label });
                    }
                }
                let mut line = None;
                for (link, site) in instr.chain.invocations() {
                    if *first.entry(site).or_insert(link) != link {
                        continue;
                    }
                    let expanded = self.expansions.entry(site).or_default();
                    expanded.instructions += 1;
                    if expanded.lines.len() < SHOWN_EXPANSION {
                        let line = line.get_or_insert_with(|| written(instr, sources));
                        expanded.lines.push(line.clone());
                    }
                }
            }
        }
    }

    /// The label's symbol of the `i`th instruction of a block.
    fn label_of(&self, block: &Block, i: usize) -> Option<usize> {
        let label = match &block.hand {
            Some(hand) => hand
                .labels
                .iter()
                .filter(|(_, offset)| *offset <= i)
                .max_by_key(|(_, offset)| *offset)
                .map(|(l, _)| l),
            None => block.labels.first(),
        }?;
        self.by_name.get(&label.name()).copied()
    }

    fn constants(&mut self, expansion: &Expansion) {
        let mut consts: Vec<(&Name, &(Expr, Span))> = expansion.consts.iter().collect();
        consts.sort_by_key(|(_, (_, span))| (span.file, span.start));
        let env = Env::expanding(&expansion.consts);
        for (name, (value, span)) in consts {
            let named = Expr {
                kind: ExprKind::Name(name.clone()),
                span: *span,
            };
            let evaluated = eval(&named, &env).ok();
            let number = match evaluated {
                Some(Value::Int(n)) => Some(n),
                _ => None,
            };
            let size = evaluated
                .and_then(|v| v.encode().ok())
                .map(|tree| tree.size());
            let detail = Detail::Constant {
                value: value.span,
                number,
                size,
            };
            self.define(name, Some(*span), detail);
        }
    }

    fn macros(&mut self, recording: &Recording, sources: &Sources) {
        for (name, params) in &recording.macros {
            let doc = doc_comment(&sources.get(name.span.file).text, name.span.start as usize);
            let detail = Detail::Macro {
                params: params.clone(),
                doc,
            };
            let id = self.add(name.text.to_string(), Some(name.span), detail);
            self.macros.insert(name.text.clone(), id);
        }
    }

    fn modules(&mut self, recording: &Recording, sources: &Sources) {
        let mut by_file: HashMap<FileId, usize> = HashMap::new();
        for &(line, file, standard) in &recording.modules {
            let id = *by_file.entry(file).or_insert_with(|| {
                let name = sources.get(file).name.clone();
                let detail = Detail::Module { file, standard };
                let start = Span::new(file, 0..0);
                self.add(name, Some(start), detail)
            });
            self.occur(line, id);
        }
    }

    fn occur(&mut self, span: Span, symbol: usize) {
        let definition = self.symbols[symbol].definition == Some(span);
        self.occurrences.push(Occurrence {
            span,
            symbol,
            definition,
        });
    }

    /// A name written at `span`, if it names a symbol.
    fn name(&mut self, name: &Name, span: Span) {
        if let Some(&id) = self.by_name.get(name) {
            self.occur(span, id);
        }
    }

    fn expr(&mut self, expr: &Expr) {
        names_in(expr, &mut |name, span| self.name(name, span));
    }

    fn uses(&mut self, expansion: &Expansion, recording: Option<&Recording>) {
        // Every definition is an occurrence (some are in no statement).
        for id in 0..self.symbols.len() {
            if let Some(span) = self.symbols[id].definition
                && !matches!(self.symbols[id].detail, Detail::Module { .. })
            {
                self.occur(span, id);
            }
        }
        for section in &expansion.sections {
            for item in &section.items {
                for item in std::iter::once(item).chain(&item.body) {
                    self.item(item);
                }
            }
        }
        for (value, _) in expansion.consts.values() {
            self.expr(value);
        }
        if let Some(recording) = recording {
            for (name, span) in &recording.names {
                self.name(name, *span);
            }
            for (name, span) in &recording.macro_uses {
                if let Some(&id) = self.macros.get(name) {
                    self.occur(*span, id);
                }
            }
        }
    }

    fn item(&mut self, item: &Item) {
        let (mut names, exprs) = statement_parts(&item.stmt);
        if let Stmt::Label(name) = &item.stmt {
            names.push(name);
        }
        for name in names {
            self.name(&name.name(), name.span);
        }
        exprs.into_iter().for_each(|e| self.expr(e));
    }

    fn finish(mut self) -> SymbolIndex {
        self.occurrences
            .sort_by_key(|o| (o.span.file, o.span.start, o.span.end, o.symbol));
        self.occurrences
            .dedup_by_key(|o| (o.span.file, o.span.start, o.span.end, o.symbol));
        SymbolIndex {
            symbols: self.symbols,
            occurrences: self.occurrences,
            expansions: self.expansions,
            // Worked out after the index, by code generation.
            limits: None,
        }
    }
}

/// An instruction as written: its mnemonic, then its operands as the
/// source has them.
fn written(instr: &super::resolve::Instr, sources: &Sources) -> String {
    let operands: Vec<String> = instr.operand_spans[..instr.op.arity()]
        .iter()
        .map(|span| {
            let text = sources.get(span.file).text.get(span.range()).unwrap_or("");
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            match text.char_indices().nth(SHOWN_OPERAND) {
                Some((i, _)) => format!("{} ...", &text[..i]),
                None => text,
            }
        })
        .collect();
    format!("{} {}", instr.op.mnemonic(), operands.join(", "))
}

/// Calls `f` on every name in an expression with where it is written,
/// walking with an explicit stack.
fn names_in(expr: &Expr, f: &mut dyn FnMut(&Name, Span)) {
    let mut pending = vec![expr];
    while let Some(e) = pending.pop() {
        if let ExprKind::Name(name) = &e.kind {
            f(name, e.span);
        }
        pending.extend(e.children());
    }
}

/// The comment lines just above the line at `offset` (none when a blank
/// line or code comes between), without their `;`.
fn doc_comment(text: &str, offset: usize) -> Vec<String> {
    let before = text.get(..offset).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let mut doc: Vec<String> = before[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .take_while(|l| l.starts_with(';'))
        .map(|l| l.trim_start_matches(';').trim().to_string())
        .collect();
    doc.reverse();
    doc
}

#[cfg(test)]
mod tests;

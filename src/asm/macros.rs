//! Expansion: modules (`use`, `include`), macros and conditional assembly.
//!
//! The output is a list of *sections*: the main file (with everything it
//! `include`s, in place) and one section per module it `use`s. Code never
//! falls through from one section into another.

use super::ast::{BinOp, Expr, ExprKind, Line, ModuleRef, Name, Stmt};
use super::eval::{Env, Value, eval};
use super::lexer::MAX_EXPRESSION_DEPTH;
use super::parser::parse_file;
use super::source::{FileId, Loader, ModulePath, SourceFile, Sources, Span};
use crate::diagnostic::{Code, Diagnostic};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

/// Macros may expand inside macros at most this deep.
pub const MAX_MACRO_DEPTH: usize = 64;
/// Files may include files at most this deep.
pub const MAX_INCLUDE_DEPTH: usize = 32;
/// At most this many macro invocations are expanded in one assembly (guards
/// against macros that invoke each other without end but emit nothing).
pub const MAX_INVOCATIONS: u32 = 1_000_000;

/// The macro invocations a statement came from, innermost first.
#[derive(Debug, Clone, Default)]
pub struct Chain(Option<Rc<ChainLink>>);

/// One macro invocation in a [`Chain`].
#[derive(Debug)]
struct ChainLink {
    name: Rc<str>,
    site: Span,
    outer: Chain,
    depth: usize,
}

impl Chain {
    /// This chain inside one more invocation (O(1): chains share their
    /// outer links).
    fn inside(&self, name: Rc<str>, site: Span) -> Chain {
        Chain(Some(Rc::new(ChainLink {
            name,
            site,
            outer: self.clone(),
            depth: self.depth() + 1,
        })))
    }

    /// An address that identifies this chain while it lives (0 for none).
    pub fn id(&self) -> usize {
        self.0.as_ref().map_or(0, |l| Rc::as_ptr(l) as usize)
    }

    /// How many invocations.
    pub fn depth(&self) -> usize {
        self.0.as_ref().map_or(0, |l| l.depth)
    }

    /// The invocation the user wrote (outermost), if any.
    pub fn outermost(&self) -> Option<Span> {
        let mut link = self.0.as_ref()?;
        while let Some(outer) = &link.outer.0 {
            link = outer;
        }
        Some(link.site)
    }

    /// `(macro, call site)` of every invocation, innermost first.
    pub fn sites(&self) -> Vec<(String, Span)> {
        let mut sites = Vec::with_capacity(self.depth());
        let mut link = &self.0;
        while let Some(l) = link {
            sites.push((l.name.to_string(), l.site));
            link = &l.outer.0;
        }
        sites
    }
}

/// A statement after expansion, with where it came from.
#[derive(Debug, Clone)]
pub struct Item {
    /// The statement (`Op` is an instruction now; names are renamed for
    /// hygiene, parameters substituted).
    pub stmt: Stmt,
    /// Where it was written.
    pub span: Span,
    /// The macro invocations it came from.
    pub chain: Chain,
    /// For a `block`: its body.
    pub body: Vec<Item>,
}

/// A sequence of code that is laid out on its own.
#[derive(Debug, Clone)]
pub struct Section {
    /// The file the section comes from.
    pub file: FileId,
    /// Whether this is the main file (its code is the entry; its blocks are
    /// checked for reachability).
    pub main: bool,
    /// The statements.
    pub items: Vec<Item>,
}

/// A macro definition.
#[derive(Debug)]
struct MacroDef {
    name: Name,
    /// The name, shared by every expansion's chain.
    shown_name: Rc<str>,
    params: Vec<Name>,
    body: Vec<Line>,
    /// Labels defined in the body: local to each expansion.
    locals: Vec<String>,
    file: FileId,
}

/// The result of expansion.
#[derive(Debug, Default)]
pub struct Expansion {
    /// Every file read.
    pub sources: Sources,
    /// The sections, main first.
    pub sections: Vec<Section>,
    /// Constants, by name: their expression and the span of their definition.
    pub consts: HashMap<String, (Expr, Span)>,
    /// Diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// The names of the macros defined (in the program and the modules it
    /// uses), sorted: for "did you mean".
    pub macro_names: Vec<String>,
}

/// What the expander is inside of.
enum Frame {
    /// `if` ... `else` ... `end`.
    If {
        taking: bool,
        taken: bool,
        seen_else: bool,
        span: Span,
    },
    /// `block` ... `end`: the block's header and the output position where
    /// its body starts.
    Block { header: Box<Item>, start: usize },
}

/// A macro argument, with its [`Expr::shape`] (terms, depth).
#[derive(Clone)]
struct Arg {
    expr: Expr,
    shape: (usize, usize),
}

/// Substitutions of one macro expansion.
#[derive(Clone, Default)]
struct Scope {
    params: HashMap<String, Arg>,
    locals: HashMap<String, String>,
    chain: Chain,
    depth: usize,
}

struct Expander<'a> {
    loader: &'a dyn Loader,
    out: Expansion,
    macros: HashMap<String, Rc<MacroDef>>,
    used: HashSet<String>,
    /// Files being read, outermost first: `(key, display name)`.
    including: Vec<(String, String)>,
    expansions: u32,
    /// Statements and expression terms expanded so far.
    expanded: usize,
    /// Files included or used so far, and their bytes (each time counted).
    included: (u64, u64),
    gave_up: bool,
    /// A runaway expansion was reported: skip the rest of it quietly.
    gave_up_on_macro: bool,
}

/// Expands a program, starting from its main file.
pub fn expand(loader: &dyn Loader, main: SourceFile) -> Expansion {
    let mut expander = Expander {
        loader,
        out: Expansion::default(),
        macros: HashMap::new(),
        used: HashSet::new(),
        including: Vec::new(),
        expansions: 0,
        expanded: 0,
        included: (0, 0),
        gave_up: false,
        gave_up_on_macro: false,
    };
    let key = module_key(&main);
    let name = main.name.clone();
    let file = expander.out.sources.add(main);
    expander.used.insert(key.clone());
    expander.including.push((key, name));
    let mut items = Vec::new();
    expander.file(file, &mut items, 0);
    expander.out.sections.insert(
        0,
        Section {
            file,
            main: true,
            items,
        },
    );
    let mut names: Vec<String> = expander.macros.keys().cloned().collect();
    names.sort();
    expander.out.macro_names = names;
    expander.out
}

fn module_key(file: &SourceFile) -> String {
    match &file.path {
        Some(p) => std::fs::canonicalize(p)
            .unwrap_or_else(|_| p.clone())
            .display()
            .to_string(),
        None => file.name.clone(),
    }
}

impl Expander<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.out.diagnostics.push(d);
    }

    /// Parses and expands one file into `out`.
    fn file(&mut self, file: FileId, out: &mut Vec<Item>, include_depth: usize) {
        let (lines, diagnostics) = parse_file(file, &self.out.sources.get(file).text);
        self.out.diagnostics.extend(diagnostics);
        // Most lines give one item: room for them at once, rather than
        // doubling (and copying) through a program of millions of lines.
        out.reserve(lines.len());
        self.lines(&lines, &Scope::default(), out, include_depth, file);
    }

    /// Expands a sequence of statements (a file, or a macro body).
    fn lines(
        &mut self,
        lines: &[Line],
        scope: &Scope,
        out: &mut Vec<Item>,
        include_depth: usize,
        file: FileId,
    ) {
        let mut frames: Vec<Frame> = Vec::new();
        let mut global_label: Option<String> = None;
        let mut k = 0;
        while k < lines.len() {
            if self.gave_up {
                return;
            }
            let line = &lines[k];
            k += 1;
            let active = frames
                .iter()
                .all(|f| !matches!(f, Frame::If { taking: false, .. }));
            match &line.stmt {
                Stmt::If(condition) => {
                    let taking = active && self.condition(condition, scope);
                    frames.push(Frame::If {
                        taking,
                        taken: taking || !active,
                        seen_else: false,
                        span: line.span,
                    });
                }
                Stmt::Else => match frames.last_mut() {
                    Some(Frame::If {
                        taking,
                        taken,
                        seen_else,
                        span,
                    }) => {
                        if *seen_else {
                            let d = Diagnostic::error(
                                Code::E0201,
                                line.span,
                                "a second `else` for one `if`",
                            )
                            .with_label(*span, "this `if`");
                            self.error(d);
                        }
                        *seen_else = true;
                        *taking = !*taken;
                        *taken = true;
                    }
                    _ => self.error(
                        Diagnostic::error(Code::E0202, line.span, "`else` without `if`")
                            .label("no `if` is open here"),
                    ),
                },
                Stmt::End => match frames.pop() {
                    Some(Frame::If { .. }) => {}
                    Some(Frame::Block { mut header, start }) => {
                        header.body = out.split_off(start);
                        out.push(*header);
                    }
                    None => self.error(
                        Diagnostic::error(
                            Code::E0203,
                            line.span,
                            "`end` without an open `if`, `macro` or `block`",
                        )
                        .label("nothing to end here"),
                    ),
                },
                _ if !active => {
                    // Skip a macro definition in a branch not taken as a whole.
                    if let Stmt::Macro { .. } = line.stmt {
                        k = self.macro_body_end(lines, k, line.span).0;
                    }
                }
                Stmt::Macro { name, params } => {
                    let (next, body) = self.macro_body_end(lines, k, line.span);
                    k = next;
                    if scope.depth > 0 {
                        self.error(
                            Diagnostic::error(
                                Code::E0204,
                                name.span,
                                "a macro cannot be defined inside a macro",
                            )
                            .label("defined inside another macro's expansion"),
                        );
                        continue;
                    }
                    self.define_macro(name, params, body, file);
                }
                Stmt::Block { .. } => {
                    if !self.fits(&statement_exprs(&line.stmt), scope, line.span) {
                        continue;
                    }
                    let mut header = self.item(line, scope);
                    substitute_stmt(&mut header.stmt, scope, &global_label);
                    frames.push(Frame::Block {
                        header: Box::new(header),
                        start: out.len(),
                    });
                }
                Stmt::Use(module) | Stmt::Include(module) => {
                    let is_use = matches!(line.stmt, Stmt::Use(_));
                    self.module(module, is_use, line.span, out, include_depth, file);
                }
                Stmt::Op { name, args } if self.macros.contains_key(&name.text) => {
                    let def = Rc::clone(&self.macros[&name.text]);
                    if !self.fits(&args.iter().collect::<Vec<_>>(), scope, line.span) {
                        continue;
                    }
                    let mut args = args.clone();
                    for a in &mut args {
                        substitute(a, scope, &global_label);
                        fold(a);
                    }
                    self.invoke(&def, name, args, scope, out, include_depth);
                }
                Stmt::Const { name, value } => {
                    if !self.fits(&[value], scope, line.span) {
                        continue;
                    }
                    let mut value = value.clone();
                    substitute(&mut value, scope, &global_label);
                    self.define_const(name, *value);
                }
                Stmt::Label(name) => {
                    let renamed = local_name(&name.text, scope, &global_label);
                    if scope.depth == 0 && !name.text.starts_with('.') {
                        global_label = Some(name.text.clone());
                    }
                    let mut item = self.item(line, scope);
                    item.stmt = Stmt::Label(Name {
                        text: renamed,
                        span: name.span,
                    });
                    self.emit(out, item);
                }
                _ => {
                    if !self.fits(&statement_exprs(&line.stmt), scope, line.span) {
                        continue;
                    }
                    let mut item = self.item(line, scope);
                    substitute_stmt(&mut item.stmt, scope, &global_label);
                    self.emit(out, item);
                }
            }
        }
        for frame in frames.into_iter().rev() {
            match frame {
                Frame::If { span, .. } => self.error(
                    Diagnostic::error(Code::E0205, span, "`if` without `end`")
                        .label("this `if` is never closed"),
                ),
                Frame::Block { header, start } => {
                    self.error(
                        Diagnostic::error(Code::E0206, header.span, "`block` without `end`")
                            .label("this block is never closed"),
                    );
                    let mut header = *header;
                    header.body = out.split_off(start);
                    out.push(header);
                }
            }
        }
    }

    fn emit(&mut self, out: &mut Vec<Item>, item: Item) {
        if self.charge(1, item.span, &item.chain) {
            out.push(item);
        }
    }

    /// Counts `amount` statements or terms against [`crate::limits::MAX_EXPANDED`]: false,
    /// and expansion stops (reported once), when the budget is spent.
    fn charge(&mut self, amount: usize, span: Span, chain: &Chain) -> bool {
        if self.gave_up {
            return false;
        }
        self.expanded = self.expanded.saturating_add(amount);
        let budget = crate::limits::MAX_EXPANDED.get();
        if self.expanded as u64 <= budget {
            return true;
        }
        let d = Diagnostic::error(
            Code::E0207,
            span,
            format!("the program expands to more than {budget} statements and expression terms"),
        )
        .label("expansion stopped here")
        .expanded_from(&chain.sites())
        .note("a macro probably expands itself without end, or passes an argument on that grows at every level");
        self.error(d);
        self.gave_up = true;
        false
    }

    /// Whether the expressions of a statement, once the scope's arguments
    /// are substituted in, stay within the expansion budget and the depth
    /// cap (reported when they do not): checked before they are built.
    fn fits(&mut self, exprs: &[&Expr], scope: &Scope, span: Span) -> bool {
        let stands_for = |n: &str| scope.params.get(n).map(|a| a.shape);
        let (mut terms, mut depth) = (0usize, 0usize);
        for e in exprs {
            let (t, d) = e.shape_with(&stands_for);
            terms = terms.saturating_add(t);
            depth = depth.max(d);
        }
        if depth > MAX_EXPRESSION_DEPTH {
            let d = Diagnostic::error(
                Code::E0004,
                span,
                format!(
                    "expression too deep: more than {MAX_EXPRESSION_DEPTH} nested operators, values and brackets once the macro's arguments are put in"
                ),
            )
            .label(format!("{depth} deep here"))
            .expanded_from(&scope.chain.sites());
            self.error(d);
            self.gave_up_on_macro = true;
            return false;
        }
        self.charge(terms, span, &scope.chain)
    }

    fn item(&self, line: &Line, scope: &Scope) -> Item {
        Item {
            stmt: line.stmt.clone(),
            span: line.span,
            chain: scope.chain.clone(),
            body: Vec::new(),
        }
    }

    /// The index after the `end` of a macro body starting at `k`, and the
    /// body. Reports a missing `end`.
    fn macro_body_end(&mut self, lines: &[Line], k: usize, span: Span) -> (usize, Vec<Line>) {
        let mut depth = 0usize;
        for (j, line) in lines.iter().enumerate().skip(k) {
            match line.stmt {
                Stmt::If(_) | Stmt::Block { .. } | Stmt::Macro { .. } => depth += 1,
                Stmt::End if depth == 0 => return (j + 1, lines[k..j].to_vec()),
                Stmt::End => depth -= 1,
                _ => {}
            }
        }
        self.error(
            Diagnostic::error(Code::E0208, span, "`macro` without `end`")
                .label("this macro is never closed"),
        );
        (lines.len(), lines[k..].to_vec())
    }

    fn define_macro(&mut self, name: &Name, params: &[Name], body: Vec<Line>, file: FileId) {
        if let Some(previous) = self.macros.get(&name.text) {
            let d = Diagnostic::error(
                Code::E0209,
                name.span,
                format!("macro `{}` is defined twice", name.text),
            )
            .label("second definition")
            .with_label(previous.name.span, "first definition");
            self.error(d);
            return;
        }
        if super::ast::KEYWORDS.contains(&name.text.as_str())
            || super::resolve::Opcode::parse(&name.text).is_some()
        {
            let d = Diagnostic::error(
                Code::E0210,
                name.span,
                format!("`{}` cannot be a macro name", name.text),
            )
            .label("an instruction or keyword");
            self.error(d);
            return;
        }
        let mut seen: HashSet<&str> = HashSet::new();
        for p in params {
            if !seen.insert(&p.text) {
                self.error(
                    Diagnostic::error(
                        Code::E0211,
                        p.span,
                        format!("parameter `{}` is listed twice", p.text),
                    )
                    .label("again"),
                );
            }
        }
        let locals = body
            .iter()
            .filter_map(|l| match &l.stmt {
                Stmt::Label(n) => Some(n.text.clone()),
                _ => None,
            })
            .collect();
        self.macros.insert(
            name.text.clone(),
            Rc::new(MacroDef {
                name: name.clone(),
                shown_name: Rc::from(name.text.as_str()),
                params: params.to_vec(),
                body,
                locals,
                file,
            }),
        );
    }

    fn define_const(&mut self, name: &Name, value: Expr) {
        if let Some((_, previous)) = self.out.consts.get(&name.text) {
            let d = Diagnostic::error(
                Code::E0212,
                name.span,
                format!("constant `{}` is defined twice", name.text),
            )
            .label("second definition")
            .with_label(*previous, "first definition");
            self.error(d);
            return;
        }
        self.out
            .consts
            .insert(name.text.clone(), (value, name.span));
    }

    fn invoke(
        &mut self,
        def: &MacroDef,
        call: &Name,
        args: Vec<Expr>,
        scope: &Scope,
        out: &mut Vec<Item>,
        include_depth: usize,
    ) {
        if self.gave_up_on_macro && scope.depth > 0 {
            return;
        }
        if scope.depth == 0 {
            self.gave_up_on_macro = false;
        }
        if args.len() != def.params.len() {
            let d = Diagnostic::error(
                Code::E0213,
                call.span,
                format!(
                    "macro `{}` takes {} argument{}, but {} {} given",
                    def.name.text,
                    def.params.len(),
                    if def.params.len() == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
            )
            .label("in this invocation")
            .with_label(def.name.span, "defined here")
            .expanded_from(&scope.chain.sites());
            self.error(d);
            return;
        }
        if scope.depth >= MAX_MACRO_DEPTH {
            // Point at the invocation the user wrote, and at the one inside
            // the macros that went too deep.
            let outermost = scope.chain.outermost().unwrap_or(call.span);
            let d = Diagnostic::error(
                Code::E0214,
                outermost,
                format!("macros expand more than {MAX_MACRO_DEPTH} levels deep"),
            )
            .label("expanding this never ends")
            .with_label(
                call.span,
                format!(
                    "`{}` is invoked again here, {MAX_MACRO_DEPTH} levels down",
                    def.name.text
                ),
            );
            self.error(d);
            self.gave_up_on_macro = true;
            return;
        }
        if self.expansions >= MAX_INVOCATIONS {
            if !self.gave_up {
                let outermost = scope.chain.outermost().unwrap_or(call.span);
                let d = Diagnostic::error(
                    Code::E0207,
                    outermost,
                    format!("more than {MAX_INVOCATIONS} macro invocations: expansion stopped"),
                )
                .label("this expansion does not end")
                .note("a macro that invokes itself more than once per level grows exponentially");
                self.error(d);
                self.gave_up = true;
            }
            return;
        }
        self.expansions += 1;
        let suffix = self.expansions;
        let chain = scope.chain.inside(Rc::clone(&def.shown_name), call.span);
        let inner = Scope {
            params: def
                .params
                .iter()
                .map(|p| p.text.clone())
                .zip(args.into_iter().map(|expr| Arg {
                    shape: expr.shape(),
                    expr,
                }))
                .collect(),
            locals: def
                .locals
                .iter()
                .map(|l| (l.clone(), format!("{l}@{suffix}")))
                .collect(),
            chain,
            depth: scope.depth + 1,
        };
        self.lines(&def.body, &inner, out, include_depth, def.file);
    }

    fn condition(&mut self, condition: &Expr, scope: &Scope) -> bool {
        if !self.fits(&[condition], scope, condition.span) {
            return false;
        }
        let mut condition = condition.clone();
        substitute(&mut condition, scope, &None);
        let env = Env::expanding(&self.out.consts);
        match eval(&condition, &env) {
            Ok(Value::Int(n)) => n != 0,
            Ok(Value::Bool(b)) => b,
            Ok(other) => {
                let d = Diagnostic::error(
                    Code::E0215,
                    condition.span,
                    "an `if` needs a number or a boolean",
                )
                .label(format!("this is {}", other.describe()))
                .expanded_from(&scope.chain.sites());
                self.error(d);
                false
            }
            Err(d) => {
                self.error(d.expanded_from(&scope.chain.sites()));
                false
            }
        }
    }

    fn module(
        &mut self,
        module: &ModuleRef,
        is_use: bool,
        span: Span,
        out: &mut Vec<Item>,
        include_depth: usize,
        from: FileId,
    ) {
        let path = match module {
            ModuleRef::Std(name) => ModulePath::Std(name.clone()),
            ModuleRef::File(path) => ModulePath::File(PathBuf::from(path)),
        };
        let from_path = self.out.sources.get(from).path.clone();
        let file = match self.loader.load(&path, from_path.as_deref()) {
            Ok(f) => f,
            Err(message) => {
                let d =
                    Diagnostic::error(Code::E0216, span, format!("cannot load module: {message}"))
                        .label("named here");
                let d = match module {
                    ModuleRef::Std(_) => d.help(format!(
                        "use one of the standard modules: {}",
                        super::source::embedded_stdlib()
                            .iter()
                            .map(|(n, _)| format!("std/{n}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                    ModuleRef::File(_) => d,
                };
                self.error(d);
                return;
            }
        };
        let key = module_key(&file);
        if is_use {
            if !self.used.insert(key.clone()) {
                return;
            }
        } else if self.including.iter().any(|(k, _)| *k == key) {
            let chain: Vec<&str> = self.including.iter().map(|(_, n)| n.as_str()).collect();
            let d = Diagnostic::error(
                Code::E0217,
                span,
                format!("`{}` includes itself", file.name),
            )
            .label("this include closes a cycle")
            .note(format!(
                "include chain: {} -> {}",
                chain.join(" -> "),
                file.name
            ));
            self.error(d);
            return;
        }
        if include_depth >= MAX_INCLUDE_DEPTH {
            let d = Diagnostic::error(
                Code::E0218,
                span,
                format!("files include files more than {MAX_INCLUDE_DEPTH} levels deep"),
            )
            .label("too deep here");
            self.error(d);
            return;
        }
        let (files, bytes) = (
            self.included.0 + 1,
            self.included.1.saturating_add(file.text.len() as u64),
        );
        self.included = (files, bytes);
        let max_files = crate::limits::MAX_INCLUDED_FILES.get();
        let max_bytes = crate::limits::MAX_INCLUDED_BYTES.get();
        if files > max_files || bytes > max_bytes {
            let d = Diagnostic::error(
                Code::E0220,
                span,
                format!(
                    "the program includes more than {max_files} files or {max_bytes} bytes"
                ),
            )
            .label(format!("file {files} ({bytes} bytes in all) is included here"))
            .note("a file that includes another twice, level after level, includes the last one 2^levels times");
            self.error(d);
            self.gave_up = true;
            return;
        }
        let name = file.name.clone();
        let id = self.out.sources.add(file);
        self.including.push((key, name));
        if is_use {
            let mut items = Vec::new();
            self.file(id, &mut items, include_depth + 1);
            self.check_module_code(&items);
            self.out.sections.push(Section {
                file: id,
                main: false,
                items,
            });
        } else {
            self.file(id, out, include_depth + 1);
        }
        self.including.pop();
    }

    /// In a used module, code must follow a label: there is nothing to fall
    /// into it from.
    fn check_module_code(&mut self, items: &[Item]) {
        for item in items {
            match &item.stmt {
                Stmt::Label(_) | Stmt::Block { .. } => return,
                Stmt::Op { .. } => {
                    let d = Diagnostic::error(Code::E0219, item.span, "code in a module must follow a label")
                        .label("no label before this instruction")
                        .note("a `use`d module is laid out on its own: nothing can reach code before its first label")
                        .expanded_from(&item.chain.sites());
                    self.error(d);
                    return;
                }
                _ => {}
            }
        }
    }
}

/// The name a label gets: macro-local labels are renamed per expansion, and
/// `.name` labels outside macros belong to the last global label.
fn local_name(name: &str, scope: &Scope, global_label: &Option<String>) -> String {
    if let Some(renamed) = scope.locals.get(name) {
        return renamed.clone();
    }
    match global_label {
        Some(g) if name.starts_with('.') && scope.depth == 0 => format!("{g}{name}"),
        _ => name.to_string(),
    }
}

/// Replaces macro parameters by their arguments and renames local names in
/// an expression, in place.
fn substitute(expr: &mut Expr, scope: &Scope, g: &Option<String>) {
    match &mut expr.kind {
        ExprKind::Name(n) => {
            if let Some(arg) = scope.params.get(n.as_str()) {
                *expr = arg.expr.clone();
            } else {
                rename(n, scope, g);
            }
        }
        ExprKind::Number(_) | ExprKind::Str(_) => {}
        ExprKind::Neg(e) | ExprKind::Not(e) | ExprKind::Pool(e) | ExprKind::RegisterIndex(e) => {
            substitute(e, scope, g)
        }
        ExprKind::Binary(_, a, b) => {
            substitute(a, scope, g);
            substitute(b, scope, g);
        }
        ExprKind::List(items, tail) => {
            items.iter_mut().for_each(|e| substitute(e, scope, g));
            if let Some(t) = tail {
                substitute(t, scope, g);
            }
        }
        ExprKind::Tuple(items) => items.iter_mut().for_each(|e| substitute(e, scope, g)),
        ExprKind::Apply(head, args) => {
            substitute_name(head, scope, g);
            args.iter_mut().for_each(|e| substitute(e, scope, g));
        }
    }
}

/// Computes arithmetic on plain numbers inside a macro argument now, so that
/// an argument like `n - 1` passed down a recursion stays small instead of
/// growing with every level.
///
/// The argument itself stays an operation (`4 - 1`, not `3`): as an operand,
/// a number names a register but any other expression is a value, and an
/// argument must mean what it would mean written in the macro's place.
fn fold(expr: &mut Expr) {
    if let ExprKind::Binary(_, a, b) = &mut expr.kind {
        fold_numbers(a);
        fold_numbers(b);
    }
}

/// Replaces an operation on plain numbers (at any depth) by its result.
fn fold_numbers(expr: &mut Expr) {
    if let ExprKind::Binary(op, a, b) = &mut expr.kind {
        fold_numbers(a);
        fold_numbers(b);
        if let (ExprKind::Number(x), ExprKind::Number(y)) = (&a.kind, &b.kind) {
            let (x, y) = (*x, *y);
            let value = match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                BinOp::Mul => x.checked_mul(y),
                BinOp::Div => x.checked_div(y),
                BinOp::Rem => x.checked_rem(y),
                _ => None,
            };
            // Only results that are plain numbers again (and fit an Int).
            if let Some(v) = value.filter(|v| *v <= i64::MAX as u64) {
                expr.kind = ExprKind::Number(v);
            }
        }
    }
}

/// Renames a local name: see [`local_name`].
fn rename(name: &mut String, scope: &Scope, g: &Option<String>) {
    if scope.locals.contains_key(name.as_str())
        || (name.starts_with('.') && g.is_some() && scope.depth == 0)
    {
        *name = local_name(name, scope, g);
    }
}

/// A name in a statement: a parameter standing for a name, or a local name.
fn substitute_name(name: &mut Name, scope: &Scope, g: &Option<String>) {
    match scope
        .params
        .get(name.text.as_str())
        .and_then(|a| a.expr.as_name())
    {
        Some(n) => name.text = n.to_string(),
        None => rename(&mut name.text, scope, g),
    }
}

/// The expressions of a statement (those [`substitute_stmt`] substitutes
/// in).
fn statement_exprs(stmt: &Stmt) -> Vec<&Expr> {
    match stmt {
        Stmt::Op { args, .. } => args.iter().collect(),
        Stmt::Reg {
            index, limit, init, ..
        } => index
            .as_deref()
            .into_iter()
            .chain(limit.iter().flatten().map(|e| &**e))
            .chain(init.as_deref())
            .collect(),
        Stmt::Resize { limit, .. } => vec![limit],
        Stmt::Block { index, limit, .. } => index
            .as_deref()
            .into_iter()
            .chain(limit.as_deref())
            .collect(),
        _ => Vec::new(),
    }
}

/// [`substitute`] over a statement.
fn substitute_stmt(stmt: &mut Stmt, scope: &Scope, g: &Option<String>) {
    let e = |x: &mut Expr| substitute(x, scope, g);
    let b = |x: &mut Box<Expr>| substitute(x, scope, g);
    let n = |x: &mut Name| substitute_name(x, scope, g);
    match stmt {
        Stmt::Op { args, .. } => args.iter_mut().for_each(e),
        Stmt::Reg {
            name,
            index,
            limit,
            init,
        } => {
            n(name);
            index.iter_mut().for_each(b);
            limit.iter_mut().flatten().for_each(b);
            init.iter_mut().for_each(b);
        }
        Stmt::Resize { name, limit } => {
            n(name);
            e(limit);
        }
        Stmt::Entry(name) | Stmt::Tail(name) => n(name),
        Stmt::CallStack { stack, link } => {
            n(stack);
            n(link);
        }
        Stmt::Block { name, index, limit } => {
            n(name);
            index.iter_mut().for_each(b);
            limit.iter_mut().for_each(b);
        }
        _ => {}
    }
}

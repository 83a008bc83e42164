//! Expansion: modules (`use`, `include`), macros and conditional assembly.
//!
//! The output is a list of *sections*: the main file (with everything it
//! `include`s, in place) and one section per module it `use`s. Code never
//! falls through from one section into another.

use super::ast::{
    BinOp, Body, Expr, ExprKind, Ident, Line, ModuleRef, Name, Node, ScopeId, Stmt, Text,
};
use super::eval::{Env, Value, eval};
use super::lexer::MAX_EXPRESSION_DEPTH;
use super::parse_ahead;
use super::resolve::{Instr, into_instruction};
use super::source::{FileId, Loader, ModulePath, SourceFile, Sources, Span};
use crate::diagnostic::{Code, Diagnostic};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::rc::Rc;

/// Macros may expand inside macros at most this deep.
pub const MAX_MACRO_DEPTH: usize = 64;
/// Files may include files at most this deep.
pub const MAX_INCLUDE_DEPTH: usize = 32;
/// At most this many macro invocations are expanded in one assembly (guards
/// against macros that invoke each other without end but emit nothing).
pub const MAX_INVOCATIONS: u32 = 1_000_000;
// Every expansion gets a scope of its own.
const _: () = assert!(MAX_INVOCATIONS <= ScopeId::MAX);

/// The macro invocations a statement came from, innermost first.
#[derive(Debug, Clone, Default)]
pub struct Chain(Option<Rc<ChainLink>>);

/// One macro invocation in a [`Chain`].
#[derive(Debug)]
struct ChainLink {
    name: Rc<str>,
    site: Span,
    outer: Chain,
    /// How many invocations, this one included (at most
    /// [`MAX_MACRO_DEPTH`]; 32 bits keep a link in 56 bytes).
    depth: u32,
}

impl Chain {
    /// This chain inside one more invocation (O(1): chains share their
    /// outer links).
    fn inside(&self, name: Rc<str>, site: Span) -> Chain {
        Chain(Some(Rc::new(ChainLink {
            name,
            site,
            outer: self.clone(),
            depth: self.0.as_ref().map_or(0, |l| l.depth) + 1,
        })))
    }

    /// An address that identifies this chain while it lives (0 for none).
    pub fn id(&self) -> usize {
        self.0.as_ref().map_or(0, |l| Rc::as_ptr(l) as usize)
    }

    /// How many invocations.
    pub fn depth(&self) -> usize {
        self.0.as_ref().map_or(0, |l| l.depth as usize)
    }

    /// The invocation the user wrote (outermost), if any.
    pub fn outermost(&self) -> Option<Span> {
        let mut link = self.0.as_ref()?;
        while let Some(outer) = &link.outer.0 {
            link = outer;
        }
        Some(link.site)
    }

    /// `(id, call site)` of every invocation, innermost first: the id
    /// names one expansion while the chain lives.
    pub fn invocations(&self) -> impl Iterator<Item = (usize, Span)> + '_ {
        std::iter::successors(self.0.as_ref(), |l| l.outer.0.as_ref())
            .map(|l| (Rc::as_ptr(l) as usize, l.site))
    }

    /// The innermost invocation: its macro, its call site and the chain
    /// it is inside (`None` outside any macro).
    pub fn innermost(&self) -> Option<(&Rc<str>, Span, &Chain)> {
        self.0.as_ref().map(|l| (&l.name, l.site, &l.outer))
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
    /// For a `block`: its body (a boxed slice, so that every item stays
    /// small).
    pub body: Box<[Item]>,
}

/// A sequence of code that is laid out on its own.
#[derive(Debug, Clone)]
pub struct Section {
    /// The file the section comes from.
    pub file: FileId,
    /// Whether this is the main file (its code is the entry; its blocks are
    /// checked for reachability).
    pub main: bool,
    /// The statements (but those in `runs`).
    pub items: Vec<Item>,
    /// The instructions expansion made into [`Instr`]s (of the main file,
    /// outside hand-laid `block`s, by [`expand_to_instructions`]): each run
    /// is `(k, instructions)`, the instructions that come after
    /// `items[..k]` and before `items[k..]`, in order. The instructions of
    /// a block are one run, moved into it whole.
    pub runs: Vec<(usize, Vec<Instr>)>,
}

/// Where expansion puts a section's statements.
struct Output {
    /// The statements.
    items: Vec<Item>,
    /// The instructions taken out of `items` ([`Section::runs`]), but the
    /// last run's.
    runs: Vec<(usize, Vec<Instr>)>,
    /// The last run: where it is, and its instructions so far (one vector
    /// for every run, each run then allocated at its length).
    run: (usize, Vec<Instr>),
    /// Whether instructions go into `runs` (they stay items otherwise).
    converting: bool,
    /// How many hand-laid `block`s are open: their statements stay items,
    /// to become the block's body.
    in_blocks: usize,
}

impl Output {
    /// Statements that all stay items.
    fn items() -> Output {
        Output {
            items: Vec::new(),
            runs: Vec::new(),
            run: (0, Vec::new()),
            converting: false,
            in_blocks: 0,
        }
    }

    /// Adds a statement: an instruction (right mnemonic, right number of
    /// operands) to the current run when converting and outside a
    /// `block`, anything else to the items.
    fn push(&mut self, item: Item) {
        if !self.converting || self.in_blocks > 0 {
            self.items.push(item);
            return;
        }
        match into_instruction(item) {
            Ok(instr) => {
                let k = self.items.len();
                if self.run.0 != k {
                    self.end_run();
                    self.run.0 = k;
                }
                self.run.1.push(instr);
            }
            Err(item) => self.items.push(item),
        }
    }

    /// Moves the last run's instructions, if any, into `runs`.
    fn end_run(&mut self) {
        let (k, run) = &mut self.run;
        if !run.is_empty() {
            // At its length; `run` keeps its room for the next.
            let mut exact = Vec::with_capacity(run.len());
            exact.append(run);
            self.runs.push((*k, exact));
        }
    }

    /// The section of these statements.
    fn section(mut self, file: FileId, main: bool) -> Section {
        self.end_run();
        Section {
            file,
            main,
            items: self.items,
            runs: self.runs,
        }
    }
}

/// A macro definition.
#[derive(Debug)]
struct MacroDef {
    name: Ident,
    /// The name as the chains of its expansions give it.
    chain_name: Rc<str>,
    params: Vec<Ident>,
    body: Body,
    /// Labels defined in the body: local to each expansion.
    locals: Rc<HashSet<Name>>,
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
    pub consts: HashMap<Name, (Expr, Span)>,
    /// Diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// The names of the macros defined (in the program and the modules it
    /// uses), sorted: for "did you mean".
    pub macro_names: Vec<String>,
    /// What an editor's symbol index needs, when asked for
    /// ([`expand_recording`]).
    pub recording: Option<Box<super::index::Recording>>,
}

/// Where the walk of a body is: the nodes left in a part, or a `block`
/// whose body is being expanded (and the output position where it starts).
enum Walk<'n> {
    Nodes(std::slice::Iter<'n, Node>),
    Block { header: Box<Item>, start: usize },
}

/// A macro argument, with its [`Expr::shape`] (terms, depth).
#[derive(Clone)]
struct Arg {
    expr: Expr,
    shape: (usize, usize),
}

/// A macro expansion's arguments, by parameter.
///
/// Most macros have a few parameters: they are looked up in a list, and
/// only a macro with more than [`Params::FEW`] gets a hash map (built for
/// every expansion, it cost more than the lookups it saved). A parameter
/// listed twice (an error, reported) stands for its last argument.
#[derive(Clone, Default)]
struct Params {
    /// Each parameter and its argument, in order.
    list: Vec<(Name, Arg)>,
    /// Where each parameter is in `list`, when it is longer than `FEW`.
    map: HashMap<Name, usize>,
}

impl Params {
    /// Up to this many parameters are looked up in the list.
    const FEW: usize = 8;

    fn new(list: Vec<(Name, Arg)>) -> Params {
        let map = if list.len() > Params::FEW {
            list.iter()
                .enumerate()
                .map(|(k, (name, _))| (name.clone(), k))
                .collect()
        } else {
            HashMap::default()
        };
        Params { list, map }
    }

    /// The argument of a parameter.
    fn get(&self, name: &Name) -> Option<&Arg> {
        if self.list.len() > Params::FEW {
            return self
                .map
                .get(name)
                .and_then(|&k| self.list.get(k))
                .map(|(_, arg)| arg);
        }
        self.list
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, arg)| arg)
    }
}

/// Substitutions of one macro expansion.
#[derive(Clone, Default)]
struct Scope {
    /// The expansion's scope: its local labels are named in it.
    id: ScopeId,
    params: Params,
    /// The macro's local labels, as written in its body.
    locals: Rc<HashSet<Name>>,
    chain: Chain,
    depth: usize,
}

/// What a body is expanded in: the macro expansion's substitutions, how
/// deep files include files, and the file it was written in.
struct Context<'s> {
    scope: &'s Scope,
    include_depth: usize,
    file: FileId,
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
    expand_with(loader, main, None, false)
}

/// [`expand`], the main file's instructions made [`Instr`]s as they are
/// expanded ([`Section::runs`]): each is built once, and the statements
/// held are the others. For resolution, which takes them as they are.
pub fn expand_to_instructions(loader: &dyn Loader, main: SourceFile) -> Expansion {
    expand_with(loader, main, None, true)
}

/// [`expand`], recording the macros, modules and `if` conditions for
/// [`super::index::build`].
pub fn expand_recording(loader: &dyn Loader, main: SourceFile) -> Expansion {
    expand_with(loader, main, Some(Box::default()), false)
}

fn expand_with(
    loader: &dyn Loader,
    main: SourceFile,
    recording: Option<Box<super::index::Recording>>,
    converting: bool,
) -> Expansion {
    let mut expander = Expander {
        loader,
        out: Expansion {
            recording,
            ..Expansion::default()
        },
        macros: HashMap::default(),
        used: HashSet::default(),
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
    // About one statement a line: the main file's items are reserved at
    // once rather than grown by doubling, which copies them all each time
    // and leaves the old copies to the allocator. Memory reserved and not
    // written takes no pages; when none can be had, they grow as before.
    let lines = expander.out.sources.get(file).line_count();
    let mut out = Output {
        converting,
        ..Output::items()
    };
    out.items.try_reserve_exact(lines).ok();
    expander.file(file, &mut out, 0);
    expander.out.sections.insert(0, out.section(file, true));
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

    /// Records something for the symbol index, when it is asked for.
    fn record(&mut self, f: impl FnOnce(&mut super::index::Recording)) {
        if let Some(recording) = self.out.recording.as_deref_mut() {
            f(recording);
        }
    }

    /// Parses and expands one file into `out`, a top-level node at a time:
    /// its lines are moved into the output, never all held at once.
    fn file(&mut self, file: FileId, out: &mut Output, include_depth: usize) {
        // The text is lent to the parser while the expander adds files.
        let text = std::mem::take(self.out.sources.text_mut(file));
        let mut global_label = None;
        let scope = Scope::default();
        let diagnostics = parse_ahead::each_node(file, &text, |node| {
            if self.gave_up {
                return ControlFlow::Break(());
            }
            let context = Context {
                scope: &scope,
                include_depth,
                file,
            };
            match node {
                Node::Line(line) => self.line(line, &context, out, &mut global_label),
                node => self.walk(
                    std::slice::from_ref(&node),
                    &context,
                    out,
                    &mut global_label,
                ),
            }
            ControlFlow::Continue(())
        });
        self.out.diagnostics.extend(diagnostics);
        *self.out.sources.text_mut(file) = text;
    }

    /// Expands nodes (a file's, or a macro's body), walking what they nest
    /// with an explicit stack.
    fn walk(
        &mut self,
        nodes: &[Node],
        context: &Context<'_>,
        out: &mut Output,
        global_label: &mut Option<Text>,
    ) {
        let scope = context.scope;
        let mut stack = vec![Walk::Nodes(nodes.iter())];
        while let Some(top) = stack.last_mut() {
            if self.gave_up {
                let open = stack.iter().filter(|w| matches!(w, Walk::Block { .. }));
                out.in_blocks -= open.count();
                return;
            }
            let node = match top {
                Walk::Nodes(nodes) => match nodes.next() {
                    Some(node) => node,
                    None => {
                        stack.pop();
                        continue;
                    }
                },
                Walk::Block { .. } => {
                    if let Some(Walk::Block { mut header, start }) = stack.pop() {
                        header.body = out.items.split_off(start).into_boxed_slice();
                        out.in_blocks -= 1;
                        out.push(*header);
                    }
                    continue;
                }
            };
            match node {
                // An instruction of a macro's body is built with the
                // arguments put in (what `line` does to a copy of it).
                Node::Line(Line {
                    stmt: Stmt::Op { name, args },
                    span,
                }) if !self.macros.contains_key(&*name.text) => {
                    if self.fits(args, scope, *span) {
                        let args = args
                            .iter()
                            .map(|a| substituted(a, scope, global_label))
                            .collect();
                        let stmt = Stmt::Op {
                            name: name.clone(),
                            args,
                        };
                        let item = self.item(Line { stmt, span: *span }, scope);
                        self.emit(out, item);
                    }
                }
                Node::Line(line) => self.line(line.clone(), context, out, global_label),
                Node::If {
                    condition,
                    then,
                    otherwise,
                    ..
                } => {
                    let part = if self.condition(condition, scope) {
                        then
                    } else {
                        otherwise
                    };
                    stack.push(Walk::Nodes(part.iter()));
                }
                Node::Macro {
                    name, params, body, ..
                } => {
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
                    self.define_macro(name, params, body.clone(), context.file);
                }
                Node::Block { header, body } => {
                    if self.fits(statement_parts(&header.stmt).1, scope, header.span) {
                        let mut header = self.item(header.clone(), scope);
                        substitute_stmt(&mut header.stmt, scope, global_label);
                        stack.push(Walk::Block {
                            header: Box::new(header),
                            start: out.items.len(),
                        });
                        out.in_blocks += 1;
                    }
                    stack.push(Walk::Nodes(body.iter()));
                }
            }
        }
    }

    /// Expands one statement that does not nest.
    fn line(
        &mut self,
        line: Line,
        context: &Context<'_>,
        out: &mut Output,
        global_label: &mut Option<Text>,
    ) {
        let scope = context.scope;
        match &line.stmt {
            Stmt::Use(module) | Stmt::Include(module) => {
                let is_use = matches!(line.stmt, Stmt::Use(_));
                self.module(
                    module,
                    is_use,
                    line.span,
                    out,
                    context.include_depth,
                    context.file,
                );
            }
            Stmt::Op { name, .. } if self.macros.contains_key(&*name.text) => {
                let def = Rc::clone(&self.macros[&*name.text]);
                self.record(|r| r.macro_use(&name.text, name.span));
                let Stmt::Op { name, mut args } = line.stmt else {
                    return;
                };
                if !self.fits(&args, scope, line.span) {
                    return;
                }
                for a in &mut args {
                    substitute(a, scope, global_label);
                    fold(a);
                }
                self.invoke(&def, &name, args, scope, out, context.include_depth);
            }
            Stmt::Const { name, value } => {
                if !self.fits([&**value], scope, line.span) {
                    return;
                }
                let mut value = value.clone();
                substitute(&mut value, scope, global_label);
                self.define_const(name, *value);
            }
            Stmt::Label(name) => {
                let renamed = local_name(&name.name(), scope, global_label);
                if scope.depth == 0 && !name.text.starts_with('.') {
                    *global_label = Some(name.text.clone());
                }
                let span = name.span;
                let mut item = self.item(line, scope);
                item.stmt = Stmt::Label(Ident::new(renamed, span));
                self.emit(out, item);
            }
            _ => {
                let fits = match &line.stmt {
                    Stmt::Op { args, .. } => self.fits(args, scope, line.span),
                    stmt => self.fits(statement_parts(stmt).1, scope, line.span),
                };
                if !fits {
                    return;
                }
                let mut item = self.item(line, scope);
                substitute_stmt(&mut item.stmt, scope, global_label);
                self.emit(out, item);
            }
        }
    }

    fn emit(&mut self, out: &mut Output, item: Item) {
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
    fn fits<'x>(
        &mut self,
        exprs: impl IntoIterator<Item = &'x Expr>,
        scope: &Scope,
        span: Span,
    ) -> bool {
        let stands_for = |n: &Name| scope.params.get(n).map(|a| a.shape);
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

    fn item(&self, line: Line, scope: &Scope) -> Item {
        Item {
            stmt: line.stmt,
            span: line.span,
            chain: scope.chain.clone(),
            body: Box::default(),
        }
    }

    fn define_macro(&mut self, name: &Ident, params: &[Ident], body: Body, file: FileId) {
        if let Some(previous) = self.macros.get(&*name.text) {
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
        if super::ast::KEYWORDS.contains(&&*name.text)
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
        let mut seen: HashSet<&str> = HashSet::default();
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
        // Labels anywhere in the body, however deep.
        let mut locals = HashSet::default();
        let mut pending: Vec<&Node> = body.iter().collect();
        while let Some(node) = pending.pop() {
            match node {
                Node::Line(Line {
                    stmt: Stmt::Label(n),
                    ..
                }) => {
                    locals.insert(n.name());
                }
                node => pending.extend(node.bodies().into_iter().flat_map(|b| b.iter())),
            }
        }
        self.record(|r| r.macro_def(name, params));
        self.macros.insert(
            name.text.to_string(),
            Rc::new(MacroDef {
                name: name.clone(),
                chain_name: Rc::from(&*name.text),
                params: params.to_vec(),
                body,
                locals: Rc::new(locals),
                file,
            }),
        );
    }

    fn define_const(&mut self, name: &Ident, value: Expr) {
        if let Some((_, previous)) = self.out.consts.get(&name.name()) {
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
        self.out.consts.insert(name.name(), (value, name.span));
    }

    fn invoke(
        &mut self,
        def: &MacroDef,
        call: &Ident,
        args: Vec<Expr>,
        scope: &Scope,
        out: &mut Output,
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
        let chain = scope.chain.inside(Rc::clone(&def.chain_name), call.span);
        let inner = Scope {
            id: ScopeId::expansion(self.expansions),
            params: Params::new(
                def.params
                    .iter()
                    .map(Ident::name)
                    .zip(args.into_iter().map(|expr| Arg {
                        shape: expr.shape(),
                        expr,
                    }))
                    .collect(),
            ),
            locals: Rc::clone(&def.locals),
            chain,
            depth: scope.depth + 1,
        };
        let context = Context {
            scope: &inner,
            include_depth,
            file: def.file,
        };
        self.walk(&def.body, &context, out, &mut None);
    }

    fn condition(&mut self, condition: &Expr, scope: &Scope) -> bool {
        if !self.fits([condition], scope, condition.span) {
            return false;
        }
        let mut condition = condition.clone();
        substitute(&mut condition, scope, &None);
        self.record(|r| r.condition(&condition));
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
        out: &mut Output,
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
        let standard = matches!(module, ModuleRef::Std(_));
        if is_use {
            if !self.used.insert(key.clone()) {
                self.record(|r| r.module(span, &key, None, standard));
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
        self.record(|r| r.module(span, &key, Some(id), standard));
        self.including.push((key, name));
        if is_use {
            let mut items = Output::items();
            self.file(id, &mut items, include_depth + 1);
            self.check_module_code(&items.items);
            self.out.sections.push(items.section(id, false));
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

/// The name a label gets: a macro's local labels are named in the scope of
/// their expansion, and `.name` labels outside macros belong to the last
/// global label (`main.loop`).
fn local_name(name: &Name, scope: &Scope, global_label: &Option<Text>) -> Name {
    if scope.locals.contains(name) {
        return Name {
            text: name.text.clone(),
            scope: scope.id,
        };
    }
    match global_label {
        Some(g) if name.text.starts_with('.') && scope.depth == 0 => {
            Name::root(&format!("{g}{}", name.text))
        }
        _ => name.clone(),
    }
}

/// Replaces macro parameters by their arguments and renames local names in
/// an expression, in place.
fn substitute(expr: &mut Expr, scope: &Scope, g: &Option<Text>) {
    match &mut expr.kind {
        ExprKind::Name(n) => {
            if let Some(arg) = scope.params.get(n) {
                *expr = arg.expr.clone();
            } else {
                rename(n, scope, g);
            }
        }
        ExprKind::Number(_) | ExprKind::Str(_) => {}
        ExprKind::Neg(e) | ExprKind::Not(e) | ExprKind::Pool(e) | ExprKind::RegisterIndex(e) => {
            substitute(e, scope, g)
        }
        ExprKind::Binary(binary) => {
            substitute(&mut binary.1, scope, g);
            substitute(&mut binary.2, scope, g);
        }
        ExprKind::List(list) => {
            let (items, tail) = &mut **list;
            items
                .iter_mut()
                .chain(tail)
                .for_each(|e| substitute(e, scope, g));
        }
        ExprKind::Tuple(items) => items.iter_mut().for_each(|e| substitute(e, scope, g)),
        ExprKind::Apply(application) => {
            let (head, args) = &mut **application;
            substitute_name(head, scope, g);
            args.iter_mut().for_each(|e| substitute(e, scope, g));
        }
    }
}

/// [`substitute`] on a copy of `expr`, without copying a lone name that a
/// parameter replaces.
fn substituted(expr: &Expr, scope: &Scope, g: &Option<Text>) -> Expr {
    if let ExprKind::Name(n) = &expr.kind {
        if let Some(arg) = scope.params.get(n) {
            return arg.expr.clone();
        }
        let mut name = n.clone();
        rename(&mut name, scope, g);
        return Expr {
            kind: ExprKind::Name(name),
            span: expr.span,
        };
    }
    let mut copy = expr.clone();
    substitute(&mut copy, scope, g);
    copy
}

/// Computes arithmetic on plain numbers inside a macro argument now, so that
/// an argument like `n - 1` passed down a recursion stays small instead of
/// growing with every level.
///
/// The argument itself stays an operation (`4 - 1`, not `3`): as an operand,
/// a number names a register but any other expression is a value, and an
/// argument must mean what it would mean written in the macro's place.
fn fold(expr: &mut Expr) {
    if let ExprKind::Binary(binary) = &mut expr.kind {
        fold_numbers(&mut binary.1);
        fold_numbers(&mut binary.2);
    }
}

/// Replaces an operation on plain numbers (at any depth) by its result.
fn fold_numbers(expr: &mut Expr) {
    if let ExprKind::Binary(binary) = &mut expr.kind {
        let (op, a, b) = &mut **binary;
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
fn rename(name: &mut Name, scope: &Scope, g: &Option<Text>) {
    if scope.locals.contains(name)
        || (name.text.starts_with('.') && g.is_some() && scope.depth == 0)
    {
        *name = local_name(name, scope, g);
    }
}

/// A name in a statement: a parameter standing for a name, or a local name.
fn substitute_name(name: &mut Ident, scope: &Scope, g: &Option<Text>) {
    let mut renamed = name.name();
    match scope.params.get(&renamed).and_then(|a| a.expr.as_name()) {
        Some(n) => renamed = n.clone(),
        None => rename(&mut renamed, scope, g),
    }
    name.rename(renamed);
}

/// The names and expressions of a statement, as [`substitute_stmt`]
/// substitutes in them (a label's name is renamed elsewhere); the symbol
/// index reads names from the same list.
pub(super) fn statement_parts(stmt: &Stmt) -> (Vec<&Ident>, Vec<&Expr>) {
    match stmt {
        Stmt::Op { args, .. } => (Vec::new(), args.iter().collect()),
        Stmt::Reg {
            name,
            index,
            limit,
            init,
        } => (
            vec![name],
            index
                .as_deref()
                .into_iter()
                .chain(limit.iter().flatten().map(|e| &**e))
                .chain(init.as_deref())
                .collect(),
        ),
        Stmt::Resize { name, limit } => (vec![name], vec![limit]),
        Stmt::Entry(name) | Stmt::Tail(name) => (vec![name], Vec::new()),
        Stmt::CallStack { stack, link } => (vec![stack, link], Vec::new()),
        Stmt::Block { name, index, limit } => (
            vec![name],
            index
                .as_deref()
                .into_iter()
                .chain(limit.as_deref())
                .collect(),
        ),
        _ => (Vec::new(), Vec::new()),
    }
}

/// [`substitute`] over a statement.
fn substitute_stmt(stmt: &mut Stmt, scope: &Scope, g: &Option<Text>) {
    let e = |x: &mut Expr| substitute(x, scope, g);
    let b = |x: &mut Box<Expr>| substitute(x, scope, g);
    let n = |x: &mut Ident| substitute_name(x, scope, g);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Parameters named by `names`, the `k`th standing for the number `k`.
    fn params(names: &[&str]) -> Params {
        let arg = |k: usize| {
            let expr = Expr {
                kind: ExprKind::Number(k as u64),
                span: Span::default(),
            };
            Arg {
                shape: expr.shape(),
                expr,
            }
        };
        Params::new(
            names
                .iter()
                .enumerate()
                .map(|(k, n)| (Name::root(n), arg(k)))
                .collect(),
        )
    }

    fn number(params: &Params, name: &str) -> Option<u64> {
        match params.get(&Name::root(name))?.expr.kind {
            ExprKind::Number(n) => Some(n),
            _ => None,
        }
    }

    #[test]
    fn a_parameter_listed_twice_stands_for_its_last_argument_in_the_list_and_the_map() {
        let few = params(&["a", "b", "a"]);
        let many = params(&["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "a"]);
        assert!(few.map.is_empty() && !many.map.is_empty());
        for p in [&few, &many] {
            assert_eq!(number(p, "a"), Some(p.list.len() as u64 - 1));
            assert_eq!(number(p, "b"), Some(1));
            assert_eq!(number(p, "z"), None);
        }
        assert_eq!(number(&many, "j"), Some(9));
    }
}

//! The constree assembler: `.cta` source to memory images.
//!
//! `source -> lex (lexer) -> parse (parser) -> expand macros and modules
//! (macros) -> resolve names and number registers (resolve) -> lay out
//! blocks into registers (layout) -> encode and build the image (codegen)`.
//! Every phase returns what it could build together with its diagnostics,
//! so one run reports everything it can. Files are read through a
//! [`source::Loader`], so the compiler runs without a disk in tests.

// Phases return `Result<_, Diagnostic>`: a diagnostic is large, but errors
// are the cold path, and a plain value keeps every phase simple.
#![allow(clippy::result_large_err)]

pub mod ast;
pub mod calls;
pub mod codegen;
pub mod constructors;
pub mod disasm;
pub mod eval;
pub mod fmt;
pub mod index;
pub mod layout;
pub mod lexer;
pub mod listing;
pub mod macros;
pub mod parse_ahead;
pub mod parser;
pub mod resolve;
pub mod semantics;
pub mod show;
pub mod source;
pub mod suggest;

use crate::diagnostic::{Code, Diagnostic};
use crate::image::Image;
use source::{Loader, ModulePath, SourceFile, Sources, Span};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::Path;

/// The result of assembling a program.
#[derive(Debug)]
pub struct Assembly {
    /// The image, if there were no errors.
    pub image: Option<Image>,
    /// Every file read.
    pub sources: Sources,
    /// Errors and warnings, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// What the phases built on the way (the resolved program and its
    /// layout), held until the assembly goes: a caller about to exit
    /// skips freeing them one by one with `std::mem::forget` of the
    /// assembly, as the command line does. Never read.
    _workings: Workings,
}

/// [`Assembly`]'s intermediate structures, if any (held, never read).
#[derive(Default)]
struct Workings {
    _held: Option<Box<(resolve::Resolved, layout::Layout)>>,
}

impl std::fmt::Debug for Workings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Workings")
    }
}

impl Assembly {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The diagnostics rendered for a terminal (or plain, without colour).
    pub fn render(&self, colour: bool) -> String {
        crate::diagnostic::render(&self.diagnostics, &self.sources, colour)
    }
}

/// Assembles the program in a file.
pub fn assemble_file(loader: &dyn Loader, path: &Path) -> Assembly {
    load_and(loader, path, assemble)
}

/// Checks the program in a file: every diagnostic [`assemble_file`] gives,
/// without building the image (the assembly's `image` is always `None`).
pub fn check_file(loader: &dyn Loader, path: &Path) -> Assembly {
    load_and(loader, path, check)
}

/// Checks a program given its main file: [`check_file`]'s work.
pub fn check(loader: &dyn Loader, main: SourceFile) -> Assembly {
    let images = RefCell::new(Images::default());
    let build = Build {
        faults: Faults::default(),
        indexing: false,
        image: false,
    };
    assemble_nested(loader, main, &images, build).0
}

/// Reads a file and gives it to `then` (an assembly with the reading error
/// when it cannot be read).
fn load_and(
    loader: &dyn Loader,
    path: &Path,
    then: impl FnOnce(&dyn Loader, SourceFile) -> Assembly,
) -> Assembly {
    let module = ModulePath::File(path.to_path_buf());
    match loader.load(&module, None) {
        Ok(file) => then(loader, file),
        Err(message) => {
            let mut sources = Sources::default();
            let id = sources.add(SourceFile::new(
                path.display().to_string(),
                None,
                String::new(),
            ));
            Assembly {
                image: None,
                sources,
                diagnostics: vec![Diagnostic::error(Code::E0000, Span::new(id, 0..0), message)],
                _workings: Workings::default(),
            }
        }
    }
}

/// Assembles a program given its main file.
pub fn assemble(loader: &dyn Loader, main: SourceFile) -> Assembly {
    assemble_with_faults(loader, main, Faults::default())
}

/// Miscompiles the assembler can be told to make on purpose, so that a test
/// of the assembler (a differential test against the language's semantics)
/// can show that it catches them. [`Faults::default`] makes none; nothing
/// but tests sets a fault.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Faults {
    /// Apply `entry LABEL` only after reachability, code registers and
    /// operands were worked out from the main file's first block: the
    /// operands of code that only the real entry reaches stay register 0,
    /// and blocks it calls are reported unreachable and left out.
    pub late_entry: bool,
}

/// [`assemble`], making the given [`Faults`] on purpose (for tests of the
/// tests only). The programs `image(...)` embeds are assembled with the
/// same faults.
#[doc(hidden)]
pub fn assemble_with_faults(loader: &dyn Loader, main: SourceFile, faults: Faults) -> Assembly {
    let images = RefCell::new(Images::default());
    assemble_nested(loader, main, &images, Build::image(faults)).0
}

/// [`check`], also giving the program's [`index::SymbolIndex`] (its
/// names, where each is defined and used, and its registers' limits), for
/// an editor. The diagnostics are [`assemble`]'s; no image is built.
pub fn check_indexed(loader: &dyn Loader, main: SourceFile) -> (Assembly, index::SymbolIndex) {
    let images = RefCell::new(Images::default());
    let build = Build {
        faults: Faults::default(),
        indexing: true,
        image: false,
    };
    let (assembly, index) = assemble_nested(loader, main, &images, build);
    (assembly, index.unwrap_or_default())
}

/// What one run of the assembler builds besides the diagnostics.
#[derive(Clone, Copy)]
struct Build {
    /// Miscompiles to make (tests only).
    faults: Faults,
    /// Whether to build the symbol index.
    indexing: bool,
    /// Whether to build the image (`check` does not).
    image: bool,
}

impl Build {
    /// The image, with the given faults and no index.
    fn image(faults: Faults) -> Build {
        Build {
            faults,
            indexing: false,
            image: true,
        }
    }
}

/// The programs `image(...)` embeds, in one assembly: each is assembled
/// once per path and content, however many times it is embedded.
#[derive(Default)]
struct Images {
    /// The programs being assembled, outermost (the main program) first.
    compiling: Vec<String>,
    /// What each program assembled to, by path and a hash of its text: its
    /// image, or its errors.
    done: HashMap<(String, u64), Result<crate::image::Image, Failed>>,
}

/// Why an embedded program did not assemble.
#[derive(Clone)]
struct Failed {
    /// How many errors it has.
    errors: usize,
    /// The first, with where it is (the innermost cause, through images
    /// inside images).
    first: String,
    /// Whether that cause is images nested too deep (reported as such at
    /// every level, E0423, not as a program that does not assemble).
    too_deep: bool,
}

/// A name for a source file: its path, or its name when it has none.
fn source_key(file: &SourceFile) -> String {
    file.path
        .as_ref()
        .map_or_else(|| file.name.clone(), |p| p.display().to_string())
}

fn assemble_nested(
    loader: &dyn Loader,
    main: SourceFile,
    images: &RefCell<Images>,
    build: Build,
) -> (Assembly, Option<index::SymbolIndex>) {
    let Build {
        faults,
        indexing,
        image: want_image,
    } = build;
    images.borrow_mut().compiling.push(source_key(&main));
    let main_path = main.path.clone();
    let mut expansion = if indexing {
        macros::expand_recording(loader, main)
    } else {
        macros::expand_to_instructions(loader, main)
    };
    let (resolved, resolve_diagnostics) = resolve::resolve(&mut expansion, faults, indexing);
    let mut index = indexing.then(|| index::build(&expansion, &resolved));
    // Resolution took what it needs from the statements: they go before
    // the image is built (a program may have millions).
    expansion.sections = Vec::new();
    let layout = layout::lay_out(&resolved);
    // The images embedded, each once, for the debugger.
    let embedded: RefCell<Vec<crate::image::Image>> = RefCell::default();
    let compile = |file: &str, span: Span| {
        let image = compile_image(loader, file, span, main_path.as_deref(), images, faults)?;
        let memory = image.memory();
        let mut embedded = embedded.borrow_mut();
        if !embedded.contains(&image) {
            embedded.push(image);
        }
        Ok(memory)
    };
    let earlier_errors = expansion
        .diagnostics
        .iter()
        .chain(&resolve_diagnostics)
        .any(Diagnostic::is_error);
    let generated = codegen::generate(
        &expansion,
        &resolved,
        &layout,
        &compile,
        earlier_errors,
        want_image,
    );
    let mut image = generated.image;
    if let Some(image) = &mut image {
        image.images = embedded.into_inner();
    }
    if let Some(index) = &mut index {
        index.limits = generated.limits;
    }
    images.borrow_mut().compiling.pop();
    let mut diagnostics = expansion.diagnostics;
    diagnostics.extend(resolve_diagnostics);
    diagnostics.extend(generated.diagnostics);
    diagnostics.sort_by_key(|d| (d.primary.0.file, d.primary.0.start, d.severity));
    let assembly = Assembly {
        image,
        sources: expansion.sources,
        diagnostics,
        _workings: Workings {
            _held: Some(Box::new((resolved, layout))),
        },
    };
    (assembly, index)
}

/// `image("file.cta")`: assembles another program and gives its image
/// (once per path and content: an image embedded again is the same).
fn compile_image(
    loader: &dyn Loader,
    file: &str,
    span: Span,
    from: Option<&Path>,
    images: &RefCell<Images>,
    faults: Faults,
) -> Result<crate::image::Image, Diagnostic> {
    let module = ModulePath::File(file.into());
    let source = loader.load(&module, from).map_err(|m| {
        Diagnostic::error(Code::E0420, span, format!("cannot load the program: {m}"))
            .label("named here")
    })?;
    let key = (source_key(&source), {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        source.text.hash(&mut hasher);
        hasher.finish()
    });
    let compiling = images.borrow().compiling.clone();
    if compiling.contains(&key.0) {
        return Err(
            Diagnostic::error(Code::E0421, span, format!("`{file}` embeds itself"))
                .label("this image(...) closes a cycle")
                .note(format!(
                    "programs being assembled: {}",
                    compiling.join(" -> ")
                )),
        );
    }
    let max_depth = crate::limits::MAX_IMAGE_DEPTH.get();
    if compiling.len() as u64 > max_depth {
        return Err(Diagnostic::error(
            Code::E0423,
            span,
            format!("images embed images more than {max_depth} levels deep"),
        )
        .label("too deep here")
        .note(format!("first error: {}", compiling.join(" -> "))));
    }
    let known = images.borrow().done.get(&key).cloned();
    let result = match known {
        Some(result) => result,
        None if images.borrow().done.len() as u64 >= crate::limits::MAX_IMAGES.get() => {
            let most = crate::limits::MAX_IMAGES.get();
            return Err(Diagnostic::error(
                Code::E0423,
                span,
                format!("more than {most} programs embedded with image(...)"),
            )
            .label("one too many here"));
        }
        None => {
            let nested = assemble_nested(loader, source, images, Build::image(faults)).0;
            let result = match nested.image {
                Some(image) => Ok(image),
                None => {
                    let errors: Vec<&Diagnostic> =
                        nested.diagnostics.iter().filter(|d| d.is_error()).collect();
                    // An error inside an image inside it: the innermost
                    // cause, as that image's own error gives it.
                    let first = errors
                        .first()
                        .map(|d| match d.notes.first() {
                            Some(note) if matches!(d.code, Code::E0422 | Code::E0423) => note
                                .strip_prefix("first error: ")
                                .unwrap_or(note)
                                .to_string(),
                            _ => format!("{}: {}", nested.sources.location(d.primary.0), d.message),
                        })
                        .unwrap_or_default();
                    Err(Failed {
                        errors: errors.len(),
                        first,
                        too_deep: errors.first().is_some_and(|d| d.code == Code::E0423),
                    })
                }
            };
            images.borrow_mut().done.insert(key, result.clone());
            result
        }
    };
    result.map_err(|failed| {
        if failed.too_deep {
            return Diagnostic::error(
                Code::E0423,
                span,
                format!("`{file}` embeds images more than {max_depth} levels deep"),
            )
            .label("embedded here")
            .note(format!("first error: {}", failed.first));
        }
        Diagnostic::error(
            Code::E0422,
            span,
            format!(
                "`{file}` does not assemble ({} error{})",
                failed.errors,
                if failed.errors == 1 { "" } else { "s" }
            ),
        )
        .label("embedded here")
        .note(format!("first error: {}", failed.first))
        .help(format!("run `constree check {file}` to see them all"))
    })
}

/// Why a literal given on a command line cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LiteralError {
    /// It does not parse or evaluate: the diagnostic's message.
    #[error("{}", .0.message)]
    Invalid(Box<Diagnostic>),
    /// It is a line of another kind than a value.
    #[error("expected a value")]
    NotAValue,
    /// Its value has no encoding.
    #[error(transparent)]
    NoEncoding(#[from] eval::NoEncoding),
}

/// Reads one literal (e.g. `[1, 2, 3]` or `Move N`) given on a command line
/// and encodes it. Only built-in names are known.
pub fn parse_literal(text: &str) -> Result<crate::tree::Tree, LiteralError> {
    let mut sources = Sources::default();
    let line = format!("const literal = {text}");
    let file = sources.add(SourceFile::new("<literal>".into(), None, line.clone()));
    let mut nodes = parser::Nodes::new(file, &line);
    let first = nodes.next();
    if let Some(d) = nodes.into_diagnostics().into_iter().next() {
        return Err(LiteralError::Invalid(Box::new(d)));
    }
    let Some(ast::Node::Line(ast::Line {
        stmt: ast::Stmt::Const { value, .. },
        ..
    })) = &first
    else {
        return Err(LiteralError::NotAValue);
    };
    let consts = rustc_hash::FxHashMap::default();
    let env = eval::Env::expanding(&consts);
    let value = eval::eval(value, &env).map_err(|d| LiteralError::Invalid(Box::new(d)))?;
    Ok(value.encode()?)
}

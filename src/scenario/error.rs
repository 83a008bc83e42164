//! Errors in scenario files: diagnostics ([`Diagnostic`]) at the file's
//! spans, each naming its field, all of them from one load; a robot's
//! program that does not assemble brings its own diagnostics along.

use crate::diagnostic::{Code, Diagnostic, FileId, Sources, Span};
use std::fmt;

/// A scenario that cannot be loaded: every error found, and the files
/// they point into (the scenario first, then the programs it names).
#[derive(Debug, Clone)]
pub struct ScenarioError {
    /// The scenario file, then the files of its programs' diagnostics.
    pub sources: Sources,
    /// The errors (and a refused program's warnings), in the order found.
    pub diagnostics: Vec<Diagnostic>,
}

impl ScenarioError {
    /// The errors drawn for a terminal (or plain, without colour).
    pub fn render(&self, colour: bool) -> String {
        crate::diagnostic::render(&self.diagnostics, &self.sources, colour)
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.render(false).trim_end())
    }
}

impl std::error::Error for ScenarioError {}

impl crate::diagnostic::Diagnose for ScenarioError {
    fn diagnose(&self, sources: &mut Sources) -> Vec<Diagnostic> {
        let offset = sources.append(self.sources.clone());
        self.diagnostics
            .iter()
            .map(|d| d.clone().shift_files(offset))
            .collect()
    }
}

/// The errors that refuse a part of a scenario: one of the scenario's own,
/// or a program's error followed by the assembler's diagnostics.
#[derive(Debug)]
pub(super) struct Refused(pub(super) Vec<Diagnostic>);

impl From<Diagnostic> for Refused {
    fn from(d: Diagnostic) -> Refused {
        Refused(vec![d])
    }
}

/// A robot's program that cannot be loaded.
#[derive(Debug, Clone)]
pub enum ProgramError {
    /// No such file or image: what is missing.
    Missing(String),
    /// An image that cannot be read: its diagnostics (`E10..`).
    Image {
        /// The image's path, as shown.
        path: String,
        /// The files they point into.
        sources: Sources,
        /// The image's errors.
        diagnostics: Vec<Diagnostic>,
    },
    /// A source that does not assemble, or that warns under
    /// `--deny warnings`: its diagnostics.
    Assembly {
        /// The program's path, as shown.
        path: String,
        /// Whether it assembled, with warnings that are denied.
        denied: bool,
        /// The files the assembler read.
        sources: Sources,
        /// The assembler's diagnostics.
        diagnostics: Vec<Diagnostic>,
    },
}

impl ProgramError {
    /// The headline: what is wrong with the program.
    pub fn headline(&self) -> String {
        match self {
            ProgramError::Missing(message) => message.clone(),
            ProgramError::Image { path, .. } => format!("{path} cannot be loaded"),
            ProgramError::Assembly {
                path, denied: true, ..
            } => format!("{path} has warnings, and warnings are denied (--deny warnings)"),
            ProgramError::Assembly { path, .. } => format!("{path} does not assemble"),
        }
    }
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramError::Missing(message) => f.write_str(message),
            ProgramError::Image {
                sources,
                diagnostics,
                ..
            }
            | ProgramError::Assembly {
                sources,
                diagnostics,
                ..
            } => {
                let rendered = crate::diagnostic::render(diagnostics, sources, false);
                write!(f, "{}:\n{rendered}", self.headline())
            }
        }
    }
}

impl std::error::Error for ProgramError {}

impl From<String> for ProgramError {
    fn from(message: String) -> ProgramError {
        ProgramError::Missing(message)
    }
}

impl From<(&std::path::Path, crate::image::format::ImageError)> for ProgramError {
    /// An image that cannot be read, at a path.
    fn from((path, error): (&std::path::Path, crate::image::format::ImageError)) -> ProgramError {
        let mut sources = Sources::default();
        let diagnostics = crate::diagnostic::Diagnose::diagnose(&error, &mut sources);
        ProgramError::Image {
            path: path.display().to_string(),
            sources,
            diagnostics,
        }
    }
}

/// Turns byte offsets of the scenario file (the first of its
/// [`Sources`]) into diagnostics that name their field.
pub struct Locator<'a> {
    file: &'a str,
    text: &'a str,
}

impl<'a> Locator<'a> {
    /// The scenario file's id in its sources.
    pub const FILE: FileId = FileId(0);

    /// For a file with this name and text.
    pub fn new(file: &'a str, text: &'a str) -> Locator<'a> {
        Locator { file, text }
    }

    /// The file's name.
    pub fn file(&self) -> &str {
        self.file
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }

    /// An error at a byte range of the file, its message led by the field
    /// (which labels the range too).
    pub fn error(
        &self,
        code: Code,
        span: std::ops::Range<usize>,
        field: impl AsRef<str>,
        message: impl AsRef<str>,
    ) -> Diagnostic {
        let field = field.as_ref();
        Diagnostic::error(
            code,
            Span::new(Self::FILE, span),
            fielded(field, message.as_ref()),
        )
        .label(if field.is_empty() { "here" } else { field })
    }

    /// An error of the whole file, its message led by the field.
    pub fn whole(
        &self,
        code: Code,
        field: impl AsRef<str>,
        message: impl AsRef<str>,
    ) -> Diagnostic {
        Diagnostic::about_file(code, Self::FILE, fielded(field.as_ref(), message.as_ref()))
    }

    /// The field (`expect.robot[0].name`) whose key or value holds a byte
    /// offset of the file, as deep as it goes; empty when none does (or
    /// the file is not TOML).
    pub fn field_at(&self, offset: usize) -> String {
        toml::de::DeTable::parse(self.text)
            .ok()
            .and_then(|root| table_field(root.get_ref(), offset))
            .unwrap_or_default()
    }
}

/// A message led by its field (`robot[0].at: (1, 0) is a wall`).
fn fielded(field: &str, message: &str) -> String {
    if field.is_empty() {
        message.to_string()
    } else {
        format!("{field}: {message}")
    }
}

/// The path below a table to the deepest key or value that holds
/// `offset` (`item[0].cargo`), walked with an explicit stack: nesting in
/// the file never deepens the Rust stack.
fn table_field(root: &toml::de::DeTable<'_>, offset: usize) -> Option<String> {
    use toml::de::DeValue;
    enum Node<'t, 'a> {
        Table(&'t toml::de::DeTable<'a>),
        Value(&'t toml::Spanned<DeValue<'a>>),
    }
    let join = |path: &str, key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    // The deepest holder found so far: (depth, path).
    let mut best: Option<(usize, String)> = None;
    let mut found = |depth: usize, path: String| {
        if best.as_ref().is_none_or(|(d, _)| depth > *d) {
            best = Some((depth, path));
        }
    };
    let mut stack = vec![(0, String::new(), Node::Table(root))];
    while let Some((depth, path, node)) = stack.pop() {
        match node {
            Node::Table(table) => {
                for (key, value) in table.iter() {
                    let path = join(&path, key.get_ref());
                    if key.span().contains(&offset) {
                        found(depth + 1, path.clone());
                    }
                    stack.push((depth + 1, path, Node::Value(value)));
                }
            }
            Node::Value(value) => {
                if value.span().contains(&offset) {
                    found(depth, path.clone());
                }
                match value.get_ref() {
                    DeValue::Table(table) => stack.push((depth, path, Node::Table(table))),
                    DeValue::Array(items) => {
                        for (i, item) in items.iter().enumerate() {
                            stack.push((depth + 1, format!("{path}[{i}]"), Node::Value(item)));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    best.map(|(_, path)| path)
}

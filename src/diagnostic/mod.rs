//! Diagnostics: every phase's errors and warnings, in the assembler,
//! scenarios, images, replays, tournaments, the debugger and the command
//! line, map to one renderer-neutral [`Diagnostic`] with a [`Code`],
//! rendered by [`render`] (ariadne) for terminals and by [`render_json`]
//! for tools. An error type of any layer becomes diagnostics through
//! [`Diagnose`].

mod code;
mod json;
mod render;
mod source;

pub use code::Code;
pub use json::{render_json, to_json};
pub use render::{MAX_SHOWN, render};
pub(crate) use source::newline_marks;
#[cfg(test)]
pub(crate) use source::texts_with_newlines;
pub use source::{FileId, SourceFile, Sources, Span};

/// An error that can be shown as diagnostics: each error type of the
/// crate says what its code is, and where, through this one trait.
pub trait Diagnose {
    /// The error as diagnostics; the files they point into are added to
    /// `sources`.
    fn diagnose(&self, sources: &mut Sources) -> Vec<Diagnostic>;
}

/// An error of reading or writing a file of one of the crate's JSON
/// formats (an image, a replay): an error of one file, with the file's
/// text when the error inside is at a line and column of its JSON, or an
/// error of no file. Its diagnostic ([`Diagnose`]) is at that line and
/// column, else about the file, else about no file.
pub trait FileError: std::fmt::Display {
    /// The code of its kind.
    fn code(&self) -> Code;
    /// When it is the error of one file: the file's name as shown, its
    /// text (for an error with a place in it) and the error inside.
    fn in_file(&self) -> Option<(&str, Option<&str>, &Self)>;
    /// The 1-based line and column (as serde_json counts them) of an error
    /// in a file's JSON.
    fn json_at(&self) -> Option<(usize, usize)>;
}

/// Implements [`FileError`] for an error enum with an inherent `code`
/// method, whose `File { name, text, error }` variant is the error of one
/// file and whose `Json { at, .. }` variant is an error at a line and
/// column of a file's JSON (images' and replays' errors).
macro_rules! file_error {
    ($error:ident) => {
        impl $crate::diagnostic::FileError for $error {
            fn code(&self) -> $crate::diagnostic::Code {
                $error::code(self)
            }

            fn in_file(&self) -> Option<(&str, Option<&str>, &Self)> {
                match self {
                    $error::File { name, text, error } => Some((name, text.as_deref(), error)),
                    _ => None,
                }
            }

            fn json_at(&self) -> Option<(usize, usize)> {
                match self {
                    $error::Json { at, .. } => Some(*at),
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use file_error;

impl<E: FileError> Diagnose for E {
    fn diagnose(&self, sources: &mut Sources) -> Vec<Diagnostic> {
        let Some((name, text, error)) = self.in_file() else {
            return vec![Diagnostic::nowhere(self.code(), self)];
        };
        let at = error.json_at();
        vec![Diagnostic::in_file(
            sources,
            error.code(),
            name,
            text,
            at,
            error,
        )]
    }
}

/// Where a diagnostic points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// At its primary span.
    Span,
    /// At its file as a whole, not a place in it (the primary span is
    /// then empty, at the file's start, and not shown).
    WholeFile,
    /// At no file: a command line's option, the environment, a terminal
    /// (the primary span is then meaningless).
    Nowhere,
}

/// How bad it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Suspicious but assembled.
    Warning,
    /// No image is produced.
    Error,
}

/// One message about the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What kind of problem it is: a stable code, e.g. `E0101`.
    pub code: Code,
    /// The headline.
    pub message: String,
    /// Where, and what to say there.
    pub primary: (Span, String),
    /// Other places worth showing.
    pub labels: Vec<(Span, String)>,
    /// Extra facts.
    pub notes: Vec<String>,
    /// What to do next: the place that reports it may say more than the
    /// code's general help line ([`Code::help`]).
    pub help: Option<String>,
    /// The macro invocations the primary span was expanded from, innermost
    /// first: `(macro name, call site)`.
    pub expansion: Vec<(String, Span)>,
    /// Where it points: its span, its file as a whole, or nowhere.
    pub place: Place,
}

impl Diagnostic {
    /// An error at a span, with its code's general help line.
    pub fn error(code: Code, span: Span, message: impl std::fmt::Display) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, span, message)
    }

    /// A warning at a span.
    pub fn warning(code: Code, span: Span, message: impl std::fmt::Display) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, span, message)
    }

    fn new(
        severity: Severity,
        code: Code,
        span: Span,
        message: impl std::fmt::Display,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.to_string(),
            primary: (span, String::new()),
            labels: Vec::new(),
            notes: Vec::new(),
            help: Some(code.help().to_string()),
            expansion: Vec::new(),
            place: Place::Span,
        }
    }

    /// An error about a whole file, not a place in it.
    pub fn about_file(code: Code, file: FileId, message: impl std::fmt::Display) -> Diagnostic {
        Diagnostic {
            place: Place::WholeFile,
            ..Diagnostic::error(code, Span::new(file, 0..0), message)
        }
    }

    /// An error in a file read whole, added to `sources` with its `text`:
    /// at a 1-based `line` and `column` (as serde_json counts them) when
    /// there is one and a text to show it in, else about the file.
    pub fn in_file(
        sources: &mut Sources,
        code: Code,
        name: &str,
        text: Option<&str>,
        at: Option<(usize, usize)>,
        message: impl std::fmt::Display,
    ) -> Diagnostic {
        let file = SourceFile::new(name.to_string(), None, text.unwrap_or_default().to_string());
        let place = at
            .filter(|_| text.is_some())
            .map(|(l, c)| file.char_at(l, c));
        let id = sources.add(file);
        match place {
            Some(range) => Diagnostic::error(code, Span::new(id, range), message).label("here"),
            None => Diagnostic::about_file(code, id, message),
        }
    }

    /// An error about no file: an option, the environment, a terminal.
    pub fn nowhere(code: Code, message: impl std::fmt::Display) -> Diagnostic {
        Diagnostic {
            place: Place::Nowhere,
            ..Diagnostic::error(code, Span::default(), message)
        }
    }

    /// Sets the text under the primary span.
    pub fn label(mut self, text: impl Into<String>) -> Diagnostic {
        self.primary.1 = text.into();
        self
    }

    /// Adds a secondary span.
    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.labels.push((span, text.into()));
        self
    }

    /// Adds a note.
    pub fn note(mut self, text: impl Into<String>) -> Diagnostic {
        self.notes.push(text.into());
        self
    }

    /// Sets the help line, in place of the code's general one.
    pub fn help(mut self, text: impl Into<String>) -> Diagnostic {
        self.help = Some(text.into());
        self
    }

    /// Records the macro expansions the primary span came from.
    pub fn expanded_from(mut self, chain: &[(String, Span)]) -> Diagnostic {
        self.expansion = chain.to_vec();
        self
    }

    /// The same diagnostic with its spans in files numbered `offset`
    /// further on (its files appended to other [`Sources`]).
    pub fn shift_files(mut self, offset: u32) -> Diagnostic {
        let shift = |s: &mut Span| s.file.0 += offset;
        if self.place != Place::Nowhere {
            shift(&mut self.primary.0);
        }
        self.labels.iter_mut().for_each(|(s, _)| shift(s));
        self.expansion.iter_mut().for_each(|(_, s)| shift(s));
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

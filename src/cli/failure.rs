//! [`Failure`], the one error of the command line: each kind a variant
//! with its code (`E12..`), or the error of a layer below with its own
//! codes; shown through the shared renderers ([`super::messages`]).

use crate::debugger::DebugError;
use crate::diagnostic::{Code, Diagnose, Diagnostic, Sources};
use crate::image::format::ImageError;
use crate::scenario::replay::ReplayError;
use crate::scenario::tournament::TournamentError;
use crate::scenario::{ProgramError, ScenarioError};

/// An error that ends a command: its diagnostics are printed on standard
/// error, exit code 1.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// An image that cannot be read or written (`E10..`).
    #[error(transparent)]
    Image(#[from] ImageError),
    /// A replay that cannot be read or written (`E110.`).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A replay the viewer cannot show (`E1105`).
    #[error(transparent)]
    View(#[from] crate::viewer::ViewError),
    /// A tournament that cannot be set up or played (`E111.`).
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// A scenario that does not load (`E08..` and its programs' codes).
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// A program that cannot be loaded (`E10..` or the assembler's codes).
    #[error(transparent)]
    Program(#[from] ProgramError),
    /// A debugger's command that fails (`E09..`).
    #[error(transparent)]
    Debug(#[from] DebugError),
    /// A file of a kind the command does not take: what it is, what takes
    /// it (`E1200`).
    #[error("{0}")]
    WrongKind(String),
    /// A file that cannot be read (`E1201`).
    #[error(transparent)]
    Read(#[from] crate::files::ReadError),
    /// An input that cannot be read or parsed (`E1201`).
    #[error("{path}: {reason}")]
    Input {
        /// The file or folder, as shown.
        path: String,
        /// Why.
        reason: String,
    },
    /// An output that cannot be written (`E1202`).
    #[error("{path}: {reason}")]
    Output {
        /// The file or folder, as shown (after its option, if one named it).
        path: String,
        /// Why.
        reason: String,
    },
    /// An option's value, or options together, that cannot be used
    /// (`E1203`): what is wrong.
    #[error("{0}")]
    Usage(String),
    /// A name or number the input does not have (`E1204`): which, and what
    /// there is.
    #[error("{0}")]
    NoSuch(String),
    /// Nothing to do (`E1205`): why.
    #[error("{0}")]
    Nothing(String),
    /// An environment variable's value (`E1206`).
    #[error(transparent)]
    Limit(#[from] crate::limits::LimitError),
    /// `CONSTREE_CYCLE_SKIP`'s value (`E1206`).
    #[error(transparent)]
    CycleSkip(#[from] crate::machine::BadCycleSkip),
    /// A program that does not assemble or parse where it must (`E1207`):
    /// which, and how.
    #[error("{0}")]
    Unassembled(String),
    /// Standard input or output, or the terminal, that fails (`E1208`).
    #[error("{0}")]
    Stdio(String),
    /// A bare machine without a speed or past the node cap (`E1209`).
    #[error("{0}")]
    Machine(String),
    /// A conformance vector file or folder (`E1210`).
    #[error(transparent)]
    Conformance(#[from] crate::conformance::ConformanceError),
    /// A client that breaks the Language Server Protocol (`E1211`).
    #[error("{0}")]
    Protocol(String),
}

impl From<std::io::Error> for Failure {
    /// Standard output that cannot be written.
    fn from(error: std::io::Error) -> Failure {
        Failure::Stdio(format!("standard output: {error}"))
    }
}

impl Failure {
    /// The code of the command line's own kinds; `None` for an error of a
    /// layer below, which has its own.
    fn code(&self) -> Option<Code> {
        Some(match self {
            Failure::Image(_)
            | Failure::Replay(_)
            | Failure::Tournament(_)
            | Failure::Scenario(_)
            | Failure::Program(_)
            | Failure::Debug(_) => return None,
            Failure::View(_) => Code::E1105,
            Failure::WrongKind(_) => Code::E1200,
            Failure::Read(_) | Failure::Input { .. } => Code::E1201,
            Failure::Output { .. } => Code::E1202,
            Failure::Usage(_) => Code::E1203,
            Failure::NoSuch(_) => Code::E1204,
            Failure::Nothing(_) => Code::E1205,
            Failure::Limit(_) | Failure::CycleSkip(_) => Code::E1206,
            Failure::Unassembled(_) => Code::E1207,
            Failure::Stdio(_) => Code::E1208,
            Failure::Machine(_) => Code::E1209,
            Failure::Conformance(_) => Code::E1210,
            Failure::Protocol(_) => Code::E1211,
        })
    }

    /// An output that cannot be written, named as its option names it
    /// (`--record FILE`).
    pub fn output(option: &str, path: &std::path::Path, reason: impl std::fmt::Display) -> Failure {
        let path = path.display();
        Failure::Output {
            path: if option.is_empty() {
                path.to_string()
            } else {
                format!("{option} {path}")
            },
            reason: reason.to_string(),
        }
    }

    /// An input that cannot be read or parsed.
    pub fn input(path: &std::path::Path, reason: impl std::fmt::Display) -> Failure {
        Failure::Input {
            path: crate::files::display(path),
            reason: reason.to_string(),
        }
    }
}

impl Diagnose for Failure {
    fn diagnose(&self, sources: &mut Sources) -> Vec<Diagnostic> {
        match self {
            Failure::Image(e) => e.diagnose(sources),
            Failure::Replay(e) => e.diagnose(sources),
            Failure::Tournament(e) => e.diagnose(sources),
            Failure::Scenario(e) => e.diagnose(sources),
            Failure::Debug(e) => vec![Diagnostic::nowhere(e.code(), e)],
            Failure::Program(e) => program(e, sources),
            _ => self
                .code()
                .map(|code| Diagnostic::nowhere(code, self))
                .into_iter()
                .collect(),
        }
    }
}

/// A program that cannot be loaded: its image's diagnostics, or the
/// assembler's after a headline (it does not assemble, or its warnings are
/// denied).
fn program(e: &ProgramError, sources: &mut Sources) -> Vec<Diagnostic> {
    match e {
        ProgramError::Missing(message) => vec![Diagnostic::nowhere(Code::E1204, message)],
        ProgramError::Image {
            sources: theirs,
            diagnostics,
            ..
        }
        | ProgramError::Assembly {
            sources: theirs,
            diagnostics,
            ..
        } => {
            let offset = sources.append(theirs.clone());
            let headline = matches!(e, ProgramError::Assembly { .. })
                .then(|| Diagnostic::nowhere(Code::E1207, e.headline()));
            headline
                .into_iter()
                .chain(diagnostics.iter().map(|d| d.clone().shift_files(offset)))
                .collect()
        }
    }
}

//! Why a command line of the general kind fails: a count, an unknown
//! command, `goto`, `restart`, `source`, `advance`. Each error's text is
//! the one-line `error:` of the transcripts.

use std::fmt;

/// A command line that cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    /// A count argument that is not a number (the text as typed).
    NotACount(String),
    /// A count of 0.
    ZeroCount,
    /// A word that is no command, and the nearest command's name.
    Unknown {
        /// The word typed.
        word: String,
        /// The command (or short form) it is nearest to, if one is near.
        nearest: Option<&'static str>,
    },
    /// Arguments to a command that takes none.
    NoArguments(&'static str),
    /// `end` with no `commands` or `define` block open.
    EndWithoutBlock,
    /// A `goto` position that is not a number.
    NotANumber(String),
    /// `goto step 0 tick T`.
    StepZeroTicks,
    /// `goto` not followed by `step S [tick T]`.
    GotoUsage,
    /// `restart N` beyond the checkpoints made.
    NoCheckpoint {
        /// The checkpoint asked for.
        n: u64,
        /// How many were made.
        made: usize,
    },
    /// `source` without a file.
    SourceWhat,
    /// `source` inside `source` too deep (the file).
    SourceDepth {
        /// The file.
        path: String,
        /// The depth allowed.
        depth: usize,
    },
    /// A file `source` cannot read.
    Read {
        /// The file.
        path: String,
        /// Why.
        error: String,
    },
    /// `advance` without a location.
    AdvanceWhere,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::NotACount(args) => write!(f, "{args:?} is not a count"),
            CommandError::ZeroCount => write!(f, "a count is at least 1"),
            CommandError::Unknown {
                word,
                nearest: Some(name),
            } => write!(
                f,
                "unknown command {word:?}: did you mean `{name}`? (`help` lists the commands)"
            ),
            CommandError::Unknown {
                word,
                nearest: None,
            } => write!(f, "unknown command {word:?}: `help` lists the commands"),
            CommandError::NoArguments(name) => write!(f, "`{name}` takes no arguments"),
            CommandError::EndWithoutBlock => write!(
                f,
                "`end` closes a `commands` or `define` block: none is open"
            ),
            CommandError::NotANumber(word) => write!(f, "{word:?} is not a number"),
            CommandError::StepZeroTicks => {
                write!(f, "step 0 has no ticks: the game starts after it")
            }
            CommandError::GotoUsage => write!(f, "goto step S [tick T]"),
            CommandError::NoCheckpoint { n, made } => {
                write!(f, "no checkpoint {n} ({made} made)")
            }
            CommandError::SourceWhat => write!(f, "source what? a file of commands"),
            CommandError::SourceDepth { path, depth } => {
                write!(f, "{path}: files sourced inside one another {depth} deep")
            }
            CommandError::Read { path, error } => write!(f, "{path}: {error}"),
            CommandError::AdvanceWhere => {
                write!(f, "advance where? a LOCATION, as `break` takes it")
            }
        }
    }
}

/// For the callers that still report errors as text.
impl From<CommandError> for String {
    fn from(error: CommandError) -> String {
        error.to_string()
    }
}

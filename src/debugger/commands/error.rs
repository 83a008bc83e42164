//! Why a command line fails: [`CommandError`] for the general kind (a
//! count, an unknown command, `goto`, `restart`, `source`, `advance`,
//! blocks and user commands), [`InspectError`] for looking at the robot,
//! [`RunError`] for running and going back. Each error's text is the
//! one-line `error:` of the transcripts.

use crate::asm::LiteralError;

/// A command line that cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A count argument that is not a number (the text as typed).
    #[error("{0:?} is not a count")]
    NotACount(String),
    /// A count of 0.
    #[error("a count is at least 1")]
    ZeroCount,
    /// A word that is no command, and the nearest command's name.
    #[error(
        "unknown command {word:?}: {}",
        match .nearest {
            Some(name) => format!("did you mean `{name}`? (`help` lists the commands)"),
            None => "`help` lists the commands".to_string(),
        }
    )]
    Unknown {
        /// The word typed.
        word: String,
        /// The command (or short form) it is nearest to, if one is near.
        nearest: Option<&'static str>,
    },
    /// Arguments to a command that takes none.
    #[error("`{0}` takes no arguments")]
    NoArguments(&'static str),
    /// `end` with no `commands` or `define` block open.
    #[error("`end` closes a `commands` or `define` block: none is open")]
    EndWithoutBlock,
    /// A `goto` position that is not a number.
    #[error("{0:?} is not a number")]
    NotANumber(String),
    /// `goto step 0 tick T`.
    #[error("step 0 has no ticks: the game starts after it")]
    StepZeroTicks,
    /// `goto` not followed by `step S [tick T]`.
    #[error("goto step S [tick T]")]
    GotoUsage,
    /// `restart N` beyond the checkpoints made.
    #[error("no checkpoint {n} ({made} made)")]
    NoCheckpoint {
        /// The checkpoint asked for.
        n: u64,
        /// How many were made.
        made: usize,
    },
    /// `source` without a file.
    #[error("source what? a file of commands")]
    SourceWhat,
    /// `source` inside `source` too deep (the file).
    #[error("{path}: files sourced inside one another {depth} deep")]
    SourceDepth {
        /// The file.
        path: String,
        /// The depth allowed.
        depth: usize,
    },
    /// A file `source` cannot read.
    #[error("{path}: {error}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        error: String,
    },
    /// `advance` without a location.
    #[error("advance where? a LOCATION, as `break` takes it")]
    AdvanceWhere,
    /// Commands that ended inside a `commands` or `define` block (what
    /// they were).
    #[error("{0} ended inside a block: `end` is missing")]
    Unclosed(String),
    /// A block longer than it may be (the most lines).
    #[error("a block holds at most {0} lines: dropped")]
    BlockFull(usize),
    /// `define` without a name of its form.
    #[error("define NAME: a name of letters, digits, - and _")]
    DefineUsage,
    /// `define` of a command's name.
    #[error("`{0}` is a command of the debugger")]
    DefineCommand(String),
    /// User commands calling one another too deep (the depth allowed).
    #[error("user commands called inside one another {0} deep")]
    CallDepth(usize),
}

/// Looking at the robot or its program that cannot be done.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InspectError {
    /// Both a format and a type.
    #[error("give a format (`/list`) or a type (`: [int]`), not both")]
    FormatAndType,
    /// `print` or `display` of nothing.
    #[error("print what? a register or a path into it (`in.1.0`)")]
    PrintWhat,
    /// A display number that is not a number.
    #[error("{0:?} is not a display number")]
    NotADisplayNumber(String),
    /// A display number that names none.
    #[error("no display {0}")]
    NoDisplay(usize),
    /// `info` of something it does not show.
    #[error("info {0:?}? registers [PATTERN], breakpoints, display, robot or frame")]
    InfoWhat(String),
    /// `info registers PATTERN` that no name matches.
    #[error("no register's name contains {0:?}")]
    NoRegisterMatches(String),
    /// `list` where the current instruction has no line.
    #[error("the current instruction has no source line: give FILE:LINE or a label")]
    NoCurrentLine,
    /// `list -` at a file's start (the file).
    #[error("already at the start of {0}")]
    AtStart(String),
    /// A source whose text the program does not have (the file).
    #[error("the source of {0} cannot be read")]
    Unreadable(String),
    /// A line past the file's end.
    #[error("line {line} is out of range: {file} has {count} lines")]
    LineOutOfRange {
        /// The line asked for.
        line: u32,
        /// The file.
        file: String,
        /// Its lines.
        count: u32,
    },
    /// A label without a source line.
    #[error("{0} has no source line")]
    NoSourceLine(String),
    /// A file the program does not have.
    #[error("no source file {0:?} in the program")]
    NoSourceFile(String),
    /// A `list` argument of none of the forms.
    #[error("{0:?} is not a line number, a label or FILE:LINE")]
    NotALine(String),
    /// `set` without `=` or `output`.
    #[error("set REG = LITERAL, or set output LITERAL")]
    SetUsage,
    /// `set` of a literal that is not one.
    #[error("bad literal {text:?}: {error}")]
    BadLiteral {
        /// The literal as typed.
        text: String,
        /// Why it is none.
        error: LiteralError,
    },
    /// A register number the robot does not have.
    #[error("there is no register {0}")]
    NoRegister(usize),
    /// `set` of a value larger than the register's limit.
    #[error("{literal} is {size} conses: it does not fit {register}'s limit {limit}")]
    DoesNotFit {
        /// The literal as typed.
        literal: String,
        /// Its conses.
        size: u64,
        /// The register.
        register: String,
        /// Its limit.
        limit: i64,
    },
}

/// A run or a way back that cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// `until-output` for a robot without output register.
    #[error("the focused robot has no output register")]
    NoOutputRegister,
    /// `finish` for a program without call stack.
    #[error("the focused program has no call stack (no `callstack` in its image)")]
    NoCallStack,
    /// `finish` outside calls.
    #[error("not inside a call: the stack is empty")]
    EmptyStack,
    /// `reverse-finish` of a call made before the recorded history.
    #[error("the call is before the start of history")]
    BeforeHistory,
    /// `profile` before a whole game step was run.
    #[error("no complete game step to profile yet: `gstep` first")]
    NothingToProfile,
}

//! Why a debugger command fails. [`DebugError`] is the one error of the
//! debugger's commands: its text is the transcript's one-line `error:`, and
//! [`DebugError::diagnostic`] makes it a [`Diagnostic`] with a code of its
//! kind (`E09..`, listed in docs/debugger.md).

use super::commands::{CommandError, InspectError, RunError};
use super::view::{FormatError, PathError, ReadError, ShowError, TypeError, ViewError};
use crate::asm::LiteralError;
use crate::diagnostic::{Code, Diagnostic, FileId, Span};

/// A command that cannot run, or a run of commands that stopped at one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DebugError {
    /// A command line of the general kind (a count, an unknown command,
    /// `goto`, `source`, blocks and user commands).
    #[error(transparent)]
    Command(#[from] CommandError),
    /// A robot that cannot be selected or is not there.
    #[error(transparent)]
    Select(#[from] SelectError),
    /// A breakpoint, watchpoint, catchpoint or condition.
    #[error(transparent)]
    Point(#[from] PointError),
    /// `print`, `display`, `info`, `list`, `set`.
    #[error(transparent)]
    Inspect(#[from] InspectError),
    /// Running or going back.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A path, format, type or value to show.
    #[error(transparent)]
    View(#[from] ViewError),
    /// A command of a file, a user command or a point's commands failed
    /// after others printed `output`.
    #[error("{output}\n{error}")]
    After {
        /// What the commands before it printed.
        output: String,
        /// Why it failed.
        error: Box<DebugError>,
    },
    /// A command of a `source`d file failed.
    #[error("{file}: {error}")]
    In {
        /// The file.
        file: String,
        /// Why.
        error: Box<DebugError>,
    },
}

/// The view's own errors become the debugger's through [`ViewError`].
macro_rules! through_view {
    ($($error:ty),*) => {
        $(impl From<$error> for DebugError {
            fn from(error: $error) -> DebugError {
                DebugError::View(error.into())
            }
        })*
    };
}

through_view!(PathError, FormatError, TypeError, ReadError, ShowError);

impl DebugError {
    /// The code of its kind.
    pub fn code(&self) -> Code {
        match self {
            DebugError::Command(_) => Code::E0900,
            DebugError::Select(_) => Code::E0901,
            DebugError::Point(_) => Code::E0902,
            DebugError::Inspect(_) => Code::E0903,
            DebugError::Run(_) => Code::E0904,
            DebugError::View(_) => Code::E0905,
            DebugError::After { error, .. } | DebugError::In { error, .. } => error.code(),
        }
    }

    /// The error as a diagnostic about the command line, which is file
    /// `line` of its [`Sources`](crate::diagnostic::Sources): the message
    /// is the text of the transcript's `error:` line.
    pub fn diagnostic(&self, line: FileId) -> Diagnostic {
        Diagnostic::about_file(self.code(), line, self)
    }

    /// What the commands before the failing one printed (the `output` of
    /// each [`DebugError::After`], in order), and the error's message
    /// without it (led by the files it was sourced from).
    pub fn printed(&self) -> (Vec<&str>, String) {
        let mut outputs = Vec::new();
        let mut files = String::new();
        let mut error = self;
        loop {
            match error {
                DebugError::After { output, error: e } => {
                    outputs.push(output.as_str());
                    error = e;
                }
                DebugError::In { file, error: e } => {
                    files.push_str(&format!("{file}: "));
                    error = e;
                }
                _ => return (outputs, format!("{files}{error}")),
            }
        }
    }

    /// The error as a diagnostic at the command that failed: `span` is
    /// its line in the script it came from; the message is
    /// [`DebugError::printed`]'s, without what earlier commands printed.
    pub fn diagnostic_at(&self, span: Span) -> Diagnostic {
        Diagnostic::error(self.code(), span, self.printed().1).label("this command")
    }

    /// The error after what earlier commands printed (`output` lines).
    pub(crate) fn after(self, output: String) -> DebugError {
        DebugError::After {
            output,
            error: Box::new(self),
        }
    }
}

/// A robot or register that cannot be worked with: none in focus, or a
/// selection that names none.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// A register number the robot does not have.
    #[error("there is no register {index}: the robot has {count}")]
    NoRegister {
        /// The number.
        index: usize,
        /// The robot's registers.
        count: usize,
    },
    /// A register name the robot does not have.
    #[error("no register named {0:?}")]
    UnknownRegister(String),
    /// A scenario without robots.
    #[error("the scenario has no robot to debug")]
    NoRobots,
    /// No robot in focus.
    #[error("no robot in focus")]
    NoFocus,
    /// No robot in focus, for a command about a program.
    #[error("no robot in focus: `focus` picks one")]
    NoFocusPick,
    /// A focused robot without source map; what it would be for.
    #[error("the focused robot has no source map{0}")]
    NoSourceMap(String),
    /// A scenario robot that has been destroyed.
    #[error("{0} has been destroyed")]
    Destroyed(String),
    /// `X,Y#I` with an `I` that is not a number.
    #[error("{0:?} is not an index in the square")]
    NotAnIndex(String),
    /// Neither a robot's name nor `X,Y`.
    #[error("no robot {selection:?}: give a name ({names}) or X,Y[#I]")]
    NoSuchRobot {
        /// The selection.
        selection: String,
        /// The scenario robots' names, comma-separated.
        names: String,
    },
    /// A coordinate that is not a number.
    #[error("{0:?} is not a coordinate")]
    NotACoordinate(String),
    /// A square off the grid.
    #[error("({0}, {1}) is off the grid")]
    OffGrid(i64, i64),
    /// A robot index beyond the robots of a square.
    #[error("there is no robot #{index} at ({x}, {y}) ({count} there)")]
    NoRobotAt {
        /// The index asked for.
        index: usize,
        /// The column.
        x: i64,
        /// The row.
        y: i64,
        /// The robots there.
        count: usize,
    },
}

/// A breakpoint, watchpoint, catchpoint, its location or condition that
/// cannot be set or found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    /// A test of none of the forms.
    #[error(
        "bad test {0:?}: expected `PATH is nil`, `PATH is cons`, `size(PATH) OP N`, \
         `PATH == VALUE` or `PATH OP N` (OP: <, <=, >, >=, ==, !=)"
    )]
    BadTest(String),
    /// `size(PATH) OP N` with an `N` that is not a number.
    #[error("{0:?} is not a size (a number of conses)")]
    NotASize(String),
    /// An order comparison with a value that is not a number.
    #[error("{0:?} is not a number: only == and != compare values")]
    NotOrdered(String),
    /// `PATH == VALUE` with a value that is not a literal.
    #[error("bad value {text:?}: {error}")]
    BadValue {
        /// The value as typed.
        text: String,
        /// Why it is none.
        error: LiteralError,
    },
    /// More tests than a condition may have (the most).
    #[error("a condition has at most {0} tests")]
    TooManyTests(usize),
    /// `and` or `or` without a test on one side.
    #[error("bad condition {0:?}: a test is missing")]
    MissingTest(String),
    /// `catch build` twice.
    #[error("catchpoint {0} already catches builds")]
    CatchingBuilds(usize),
    /// `catch command` or `catch action` without its kind.
    #[error("catch {what} KIND: KIND is one of {}", .kinds.join(", "))]
    CatchKind {
        /// `command` or `action`.
        what: &'static str,
        /// The kinds.
        kinds: &'static [&'static str],
    },
    /// A kind of command or action that does not exist.
    #[error("no {what} kind {word:?}: one of {}", .kinds.join(", "))]
    NoKind {
        /// `command` or `action`.
        what: &'static str,
        /// The word typed.
        word: String,
        /// The kinds.
        kinds: &'static [&'static str],
    },
    /// `catch` of nothing it knows.
    #[error("{}", super::catchpoints::CATCH_HELP)]
    CatchUsage,
    /// Words after a catchpoint's happening.
    #[error("unexpected {0:?}: {help}", help = super::catchpoints::CATCH_HELP)]
    CatchExtra(String),
    /// `catch` for the focused robot, and none is in focus.
    #[error("no robot in focus: `catch ... any` catches any robot")]
    CatchNoFocus,
    /// `break` without a location.
    #[error("break where? LABEL, FILE:LINE or REG:OFFSET")]
    BreakWhere,
    /// A location in no program.
    #[error("no program of the scenario has a place {0:?}")]
    NoPlace(String),
    /// `FILE:LINE` or `REG:OFFSET` with a number that is not one.
    #[error("{0:?} is not a line or offset number")]
    NotALineOrOffset(String),
    /// `FILE:LINE` with no code from that line on.
    #[error("no code on line {line} of {file} or after it")]
    NoCode {
        /// The line.
        line: u32,
        /// The file.
        file: String,
    },
    /// `LABEL:N`, which is written `LABEL+N`.
    #[error("{name:?} is a label: `{name}+{offset}` is {offset} instructions past it")]
    LabelOffset {
        /// The label.
        name: String,
        /// The offset.
        offset: u32,
    },
    /// `X:N` where `X` is neither a file nor a register.
    #[error("{0:?} is neither a source file of the program nor a register")]
    NeitherFileNorRegister(String),
    /// `REG:OFFSET` past the register's code.
    #[error("register {register} has no instruction at offset {offset}")]
    NoInstruction {
        /// The register as typed.
        register: String,
        /// The offset.
        offset: u32,
    },
    /// A line number without its file.
    #[error("no label {spec:?}: a line is given with its file, `{file}:{spec}`")]
    LineWithoutFile {
        /// The location as typed.
        spec: String,
        /// The main file's last component.
        file: String,
    },
    /// `NAME+K` past the code named after `NAME`.
    #[error("no instruction is named {spec:?}: the code named after `{name}` ends before it")]
    PastNamedCode {
        /// The location as typed.
        spec: String,
        /// The name.
        name: String,
    },
    /// A label that does not exist, and the nearest one.
    #[error("no label {spec:?}: did you mean `{nearest}`?")]
    NoLabelNear {
        /// The location as typed.
        spec: String,
        /// The nearest label.
        nearest: String,
    },
    /// A label that does not exist, and none near it.
    #[error("no label {0:?}: give a label, FILE:LINE or REG:OFFSET")]
    NoLabel(String),
    /// `watch` without a place.
    #[error("watch what? a register or a path into it (`in.2.0`)")]
    WatchWhat,
    /// A point number that is not a number.
    #[error("{0:?} is not a breakpoint number")]
    NotAPointNumber(String),
    /// A point number that names no point.
    #[error("no breakpoint, watchpoint or catchpoint {0}")]
    NoPoint(usize),
    /// A command on every point, and there are none.
    #[error("no breakpoints, watchpoints or catchpoints")]
    NoPoints,
    /// A command about one point without its number (its usage).
    #[error("{0}: which breakpoint?")]
    WhichPoint(&'static str),
    /// `ignore` without its two numbers.
    #[error("ignore N COUNT")]
    IgnoreUsage,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_code_and_a_run_of_commands_keeps_the_failing_ones() {
        let kinds: [(DebugError, Code); 6] = [
            (CommandError::ZeroCount.into(), Code::E0900),
            (SelectError::NoFocus.into(), Code::E0901),
            (PointError::NoPoint(4).into(), Code::E0902),
            (InspectError::NoDisplay(2).into(), Code::E0903),
            (RunError::EmptyStack.into(), Code::E0904),
            (PathError::Empty.into(), Code::E0905),
        ];
        for (error, code) in kinds {
            assert_eq!(error.code(), code, "{error}");
            let d = error.diagnostic(FileId::default());
            assert_eq!((d.code, d.message), (code, error.to_string()));
        }
        let sourced = DebugError::In {
            file: "setup.cmds".into(),
            error: Box::new(PointError::NoPoint(4).into()),
        }
        .after("> info breakpoints\nNo breakpoints.".into());
        assert_eq!(sourced.code(), Code::E0902);
        assert_eq!(
            sourced.to_string(),
            "> info breakpoints\nNo breakpoints.\nsetup.cmds: no breakpoint, watchpoint or catchpoint 4"
        );
        let (printed, message) = sourced.printed();
        assert_eq!(printed, ["> info breakpoints\nNo breakpoints."]);
        assert_eq!(
            message,
            "setup.cmds: no breakpoint, watchpoint or catchpoint 4"
        );
        let d = sourced.diagnostic_at(Span::new(FileId(0), 3..20));
        assert_eq!(
            (d.code, d.message, d.primary.0.range()),
            (Code::E0902, message, 3..20)
        );
    }
}

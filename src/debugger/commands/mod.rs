//! The debugger's command language: gdb's names and short forms, one line
//! per command, each giving its output text or a one-line error.

mod breaks;
mod control;
mod error;
mod inspect;
mod reverse;
mod run;

pub use control::Block;
pub use error::{CommandError, InspectError, RunError};
pub use inspect::INFO_SUBCOMMANDS;

use super::Debugger;
use super::error::DebugError;
use super::session::{Event, Limit, Pos};

/// A command: its name, short forms, usage, help, what completes its
/// arguments and what runs it. [`COMMANDS`] is the one table: the line
/// parser, `help`, the interactive completion and the tests of
/// docs/debugger.md all read it.
pub struct CommandInfo {
    /// The name.
    pub name: &'static str,
    /// Short forms.
    pub aliases: &'static [&'static str],
    /// Arguments, as help shows them (empty: it takes none).
    pub usage: &'static str,
    /// What it does.
    pub help: &'static str,
    /// What completes its arguments.
    pub completion: Completion,
    /// What runs it.
    pub handler: Handler,
}

/// What completes a command's arguments at the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
    /// Nothing: the command takes no arguments.
    Nothing,
    /// The program's symbols (labels, registers, files).
    Symbols,
    /// The first argument from these words, then symbols.
    Subcommand(&'static [&'static str]),
    /// A value: symbols, a format after `/`, a type's words after `:`.
    Value,
}

/// What a command does with its arguments' text.
#[derive(Clone, Copy)]
pub enum Handler {
    /// Runs and gives its output.
    Run(fn(&mut Debugger, &str) -> Result<String, DebugError>),
    /// Leaves the debugger (only `quit`).
    Quit,
}

use Completion::{Nothing, Subcommand, Symbols, Value};
use Handler::{Quit, Run};

macro_rules! commands {
    ($($name:literal [$($alias:literal),*] $usage:literal $completion:expr, $help:literal => $handler:expr;)*) => {
        /// Every command.
        pub static COMMANDS: &[CommandInfo] = &[
            $(CommandInfo {
                name: $name,
                aliases: &[$($alias),*],
                usage: $usage,
                help: $help,
                completion: $completion,
                handler: $handler,
            },)*
        ];
    };
}

commands! {
    "stepi" ["si"] "[N]" Symbols,
        "Run N machine instructions (default 1), stopping at breakpoints and watchpoints."
        => Run(|d, a| d.stepi(count(a)?));
    "step" ["s"] "[N]" Symbols,
        "Run until the source line shown changes, into calls (N times); a macro's expansion is its line."
        => Run(|d, a| d.step_line(count(a)?, false));
    "next" ["n"] "[N]" Symbols,
        "Run until the source line shown changes in this frame: calls run whole (N times)."
        => Run(|d, a| d.step_line(count(a)?, true));
    "finish" ["fin"] "" Nothing,
        "Run until the current call returns (the stack register loses its top frame)."
        => Run(|d, _| d.finish());
    "continue" ["c", "cont"] "[N]" Symbols,
        "Run to the Nth next breakpoint or watchpoint hit (default 1), a machine error or halt, or the end of the game."
        => Run(|d, a| d.cont(count(a)?));
    "tick" [] "N" Symbols,
        "Run N machine instructions, ignoring breakpoints and watchpoints."
        => Run(|d, a| d.tick(count(a)?));
    "gstep" ["gs"] "[N]" Symbols,
        "Finish the current game step and N-1 more (default 1); stops only at machine errors."
        => Run(|d, a| d.gstep(count(a)?));
    "until-output" ["uo"] "" Nothing,
        "Run until the machine writes a command into its output register."
        => Run(|d, _| d.until_output());
    "reverse-stepi" ["rsi"] "[N]" Symbols,
        "Go back N machine instructions (default 1), exactly."
        => Run(|d, a| d.reverse_stepi(count(a)?));
    "reverse-step" ["rs"] "[N]" Symbols,
        "Go back to the start of the previous source line (N times)."
        => Run(|d, a| d.reverse_line(count(a)?, false));
    "reverse-next" ["rn"] "[N]" Symbols,
        "Go back to the start of the previous source line in this frame: calls run whole (N times)."
        => Run(|d, a| d.reverse_line(count(a)?, true));
    "reverse-finish" [] "" Nothing,
        "Go back to the call of the current routine (the instruction that pushed its frame)."
        => Run(|d, _| d.reverse_finish());
    "until" ["u"] "[LOCATION]" Symbols,
        "Without LOCATION: as `next`, but a jump back to an earlier line (a loop) does not stop it. With one: run until LOCATION (as `break` takes it) is reached or the current call returns."
        => Run(Debugger::until);
    "advance" [] "LOCATION" Symbols,
        "Run until LOCATION (as `break` takes it) is reached or the current call returns."
        => Run(Debugger::advance);
    "reverse-continue" ["rc"] "[N]" Symbols,
        "Go back to the Nth last breakpoint or watchpoint hit before now (default 1), or the start of history."
        => Run(|d, a| d.reverse_continue(count(a)?));
    "reverse-gstep" ["rgs"] "[N]" Symbols,
        "Go back to the start of the current game step (N-1 steps further back)."
        => Run(|d, a| d.reverse_gstep(count(a)?));
    "goto" [] "step S [tick T]" Symbols,
        "Go to a position of the game, back or forward: tick T of step S, or the end of step S."
        => Run(Debugger::goto_position);
    "checkpoint" [] "" Nothing,
        "Remember the present position (as rr's checkpoints); `restart N` goes back to it."
        => Run(|d, _| Ok(d.checkpoint()));
    "restart" [] "N" Symbols,
        "Go to checkpoint N."
        => Run(|d, a| d.restart(count(a)?));
    "source" [] "FILE" Symbols,
        "Run the commands of a file, one a line (`#` comments), as batch mode does; the first error or a `quit` ends the file."
        => Run(Debugger::source);
    "break" ["b"] "LABEL | FILE:LINE | REG:OFFSET [if COND]" Symbols,
        "Stop before the instruction there. COND: tests joined by `and` and `or` (`and` first): `PATH is nil`, `PATH is cons`, `size(PATH) OP N`, `PATH == VALUE`, `PATH != VALUE`, `PATH OP N` (an int; OP: <, <=, >, >=, ==, !=), as in `break seek if next == Move W and in.2.0 is cons`."
        => Run(|d, a| d.add_break(a, false));
    "tbreak" ["tb"] "LABEL | FILE:LINE | REG:OFFSET [if COND]" Symbols,
        "A breakpoint deleted when first hit."
        => Run(|d, a| d.add_break(a, true));
    "watch" ["w"] "REG | PATH [if COND]" Symbols,
        "Stop when the value of a register or of a path into one (`in.2.0`, `plan.0`) changes (by the machine, or by the engine at a step's start), showing the old and the new value."
        => Run(Debugger::add_watch);
    "catch" [] "build | destroyed | inspected | built | lifted | dropped | command KIND | action KIND [any]" Symbols,
        "Stop as a step begins in which the focused robot (any robot with `any`) is destroyed, inspected, builds a child (which starts running), lifts or drops an item, gives a command of KIND or takes an action of KIND. `catch build` stops where the focused robot builds and says how to `focus` on the child, which is then followed from its first instruction with its program's source map."
        => Run(Debugger::catch);
    "delete" ["d"] "[ID...]" Symbols,
        "Delete breakpoints, watchpoints and catchpoints (all without IDs)."
        => Run(Debugger::delete);
    "condition" [] "N [COND]" Symbols,
        "Stop at breakpoint, watchpoint or catchpoint N only when COND holds (as `break ... if COND`); without COND, always."
        => Run(Debugger::set_condition);
    "ignore" [] "N COUNT" Symbols,
        "Pass over the next COUNT hits of N going forward (they are counted, as in gdb)."
        => Run(Debugger::ignore);
    "enable" [] "[N...]" Symbols,
        "Enable breakpoints, watchpoints and catchpoints (all without IDs)."
        => Run(|d, a| d.enable(a, true));
    "disable" [] "[N...]" Symbols,
        "Disable breakpoints, watchpoints and catchpoints (all without IDs): kept, never hit."
        => Run(|d, a| d.enable(a, false));
    "commands" [] "[N...]" Symbols,
        "Commands to run when N (the last point set without N) stops the program: one a line, then `end`; an empty list removes them."
        => Run(Debugger::commands);
    "define" [] "NAME" Symbols,
        "A user command: its lines follow, then `end`; `NAME ARGS` runs them with $arg0, $arg1, ... and $argc replaced."
        => Run(Debugger::define);
    "print" ["p"] "EXPR [/FMT | : TYPE]" Value,
        "Show a register or a path into it (`in.1.0`, `in.~4`, `r3.f.b`). FMT: /auto /tree /bits /int /list /command /instr /input. TYPE reads the value whole: int bool dir command instr action tree [T] (T1, T2, ...) maybe T, as in `print moves : [((int, int), dir)]`."
        => Run(|d, a| d.print(a));
    "display" [] "EXPR [/FMT | : TYPE]" Value,
        "Print EXPR after every stop."
        => Run(Debugger::display);
    "undisplay" [] "[ID...]" Symbols,
        "Stop displaying (all without IDs)."
        => Run(Debugger::undisplay);
    "info" ["i"] "registers [PATTERN] | breakpoints | display | robot | frame" Subcommand(&INFO_SUBCOMMANDS),
        "Registers (name, index, limit, size, a decoded guess; those whose name contains PATTERN; the program's own first, then the standard library's), breakpoints, displays, the focused robot, where the machine is."
        => Run(|d, a| d.info(a));
    "list" ["l"] "[LINE | FILE:LINE | LABEL | -]" Symbols,
        "Show the source around the current instruction (or a place); `>` marks the current line. Again: the lines after; `list -`: the lines before."
        => Run(Debugger::list);
    "backtrace" ["bt", "where"] "" Nothing,
        "The call stack: the current place, then every return continuation on the stack register."
        => Run(|d, _| d.backtrace());
    "world" [] "" Nothing,
        "Draw the world as the report does."
        => Run(|d, _| Ok(d.world_map()));
    "robots" [] "" Nothing,
        "Every robot: where it is, its frame, its last action."
        => Run(|d, _| Ok(d.robots_list()));
    "items" [] "" Nothing,
        "The items lying on each square."
        => Run(|d, _| Ok(d.items_list()));
    "score" [] "" Nothing,
        "The players' scores now."
        => Run(|d, _| Ok(d.score()));
    "focus" [] "NAME | X,Y[#I]" Symbols,
        "Follow another robot (one built in the present step from its first instruction; history is kept: going back before the change follows the robot focused then)."
        => Run(Debugger::focus_on);
    "set" [] "REG = LITERAL | output LITERAL" Symbols,
        "Change a register of the focused robot (any literal of the language)."
        => Run(Debugger::set);
    "profile" [] "[N]" Symbols,
        "Ticks spent per code block in the last N complete game steps, against the robot's speed."
        => Run(|d, a| d.profile(count(a)?));
    "help" ["h", "?"] "[COMMAND]" Symbols,
        "List the commands, or explain one."
        => Run(|_, a| Ok(help(a)?));
    "quit" ["q", "exit"] "" Nothing,
        "Leave the debugger."
        => Quit;
}

/// What a command line asks for.
pub enum Outcome {
    /// Its output (possibly empty).
    Output(String),
    /// Leave the debugger.
    Quit,
}

/// Finds a command by name or short form.
pub fn find(word: &str) -> Option<&'static CommandInfo> {
    COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word))
}

/// A count argument (default 1; at least 1).
fn count(args: &str) -> Result<u64, CommandError> {
    let args = args.trim();
    if args.is_empty() {
        return Ok(1);
    }
    match args.parse::<u64>() {
        Ok(0) => Err(CommandError::ZeroCount),
        Ok(n) => Ok(n),
        Err(_) => Err(CommandError::NotACount(args.to_string())),
    }
}

fn help(args: &str) -> Result<String, CommandError> {
    let args = args.trim();
    if args.is_empty() {
        let mut out =
            String::from("Commands (short forms in brackets; `help COMMAND` for more):\n");
        for c in COMMANDS {
            let short = if c.aliases.is_empty() {
                String::new()
            } else {
                format!(" [{}]", c.aliases.join(", "))
            };
            out.push_str(&format!("  {}{short} {}\n", c.name, c.usage));
        }
        out.push_str("An empty line repeats the last command.");
        return Ok(out);
    }
    match find(args) {
        Some(c) => Ok(format!("{} {}\n  {}", c.name, c.usage, c.help)),
        None => Err(unknown(args)),
    }
}

/// Why a word is no command, with the nearest command's name.
fn unknown(word: &str) -> CommandError {
    let names = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()));
    CommandError::Unknown {
        word: word.to_string(),
        nearest: crate::asm::suggest::nearest(word, names),
    }
}

/// Files `source` reads inside one another at most.
const SOURCE_DEPTH: usize = 16;

impl Debugger {
    /// `goto step S [tick T]`.
    fn goto_position(&mut self, args: &str) -> Result<String, DebugError> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let number = |w: &str| {
            w.parse::<u64>()
                .map_err(|_| CommandError::NotANumber(w.to_string()))
        };
        let pos = match words.as_slice() {
            ["step", s] => Pos::done(number(s)?),
            ["step", s, "tick", t] => {
                let (step, tick) = (number(s)?, number(t)?);
                if step == 0 {
                    return Err(CommandError::StepZeroTicks.into());
                }
                Pos { step, tick }
            }
            _ => return Err(CommandError::GotoUsage.into()),
        };
        if pos > self.session.pos() {
            // Forward: a run Ctrl-C can stop.
            let event = self
                .session
                .advance(Limit::To(pos), false, &mut |_, _| false);
            if event == Event::Interrupted {
                return Ok(self.stop_report(&event, None));
            }
        } else {
            self.session.goto(pos);
        }
        let reached = self.session.pos();
        let note = if reached == pos {
            String::new()
        } else {
            format!(
                "{pos} is not in the game (the machine ran fewer ticks, or the game is over): now {reached}.\n"
            )
        };
        Ok(format!("{note}{}", self.stop_report(&Event::Reached, None)))
    }

    fn checkpoint(&mut self) -> String {
        self.checkpoints.push(self.session.pos());
        format!(
            "Checkpoint {} at {}.",
            self.checkpoints.len(),
            self.session.pos()
        )
    }

    fn restart(&mut self, n: u64) -> Result<String, DebugError> {
        let pos = *self
            .checkpoints
            .get(n as usize - 1)
            .ok_or(CommandError::NoCheckpoint {
                n,
                made: self.checkpoints.len(),
            })?;
        self.session.goto(pos);
        Ok(self.stop_report(&Event::Reached, None))
    }

    /// `source FILE`: every command of the file, echoed as `> COMMAND`;
    /// the first error stops it.
    fn source(&mut self, args: &str) -> Result<String, DebugError> {
        let path = args.trim();
        if path.is_empty() {
            return Err(CommandError::SourceWhat.into());
        }
        if self.sourcing >= SOURCE_DEPTH {
            return Err(CommandError::SourceDepth {
                path: path.to_string(),
                depth: SOURCE_DEPTH,
            }
            .into());
        }
        let text = std::fs::read_to_string(path).map_err(|e| CommandError::Read {
            path: path.to_string(),
            error: e.to_string(),
        })?;
        self.sourcing += 1;
        let mut out = Vec::new();
        let mut result = Ok(());
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            out.push(format!("> {line}"));
            match self.execute(line) {
                Ok(Outcome::Output(text)) if !text.is_empty() => out.push(text),
                Ok(Outcome::Output(_)) => {}
                // `quit` ends the file (the debugger stays).
                Ok(Outcome::Quit) => break,
                Err(e) => {
                    let e = DebugError::In {
                        file: path.to_string(),
                        error: Box::new(e),
                    };
                    result = Err(e.after(out.join("\n")));
                    break;
                }
            }
        }
        self.sourcing -= 1;
        if result.is_ok()
            && let Err(e) = self.unclosed_block(path)
        {
            result = Err(e.after(out.join("\n")));
        }
        result.map(|()| out.join("\n"))
    }

    /// Runs one command line (a line of a `commands` or `define` block
    /// being read is taken into it), then the commands of the points its
    /// stop hit.
    pub fn execute(&mut self, line: &str) -> Result<Outcome, DebugError> {
        let line = line.trim();
        if self.reading_block() {
            return self.block_line(line).map(Outcome::Output);
        }
        match self.execute_line(line)? {
            Outcome::Output(out) => self.run_pending(out),
            Outcome::Quit => Ok(Outcome::Quit),
        }
    }

    /// Runs one command line: a command of the table or a user command.
    fn execute_line(&mut self, line: &str) -> Result<Outcome, DebugError> {
        let line = line.trim();
        let (word, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if let Some(body) = self.user_command(word) {
            return self.call_user(body, args);
        }
        if word == "end" {
            return Err(CommandError::EndWithoutBlock.into());
        }
        let Some(command) = find(word) else {
            return Err(unknown(word).into());
        };
        if command.usage.is_empty() && !args.trim().is_empty() {
            return Err(CommandError::NoArguments(command.name).into());
        }
        match command.handler {
            Handler::Run(run) => run(self, args).map(Outcome::Output),
            Handler::Quit => Ok(Outcome::Quit),
        }
    }

    /// `advance LOCATION`: `until` with a location it cannot do without.
    fn advance(&mut self, args: &str) -> Result<String, DebugError> {
        if args.trim().is_empty() {
            return Err(CommandError::AdvanceWhere.into());
        }
        self.until(args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name and short form finds its own entry of the table (so the
    /// line parser runs that entry's handler), none is taken twice, and
    /// only `quit` leaves.
    #[test]
    fn every_entry_dispatches_to_its_own_handler() {
        let mut seen = Vec::new();
        for c in COMMANDS {
            for word in std::iter::once(c.name).chain(c.aliases.iter().copied()) {
                assert!(!seen.contains(&word), "`{word}` names two commands");
                seen.push(word);
                let found = find(word).unwrap_or_else(|| panic!("`{word}` is not found"));
                assert!(std::ptr::eq(found, c), "`{word}` finds `{}`", found.name);
            }
            assert_eq!(
                matches!(c.handler, Handler::Quit),
                c.name == "quit",
                "{}",
                c.name
            );
            assert_eq!(
                c.completion == Completion::Nothing,
                c.usage.is_empty(),
                "{}",
                c.name
            );
        }
    }
}

//! The debugger's command language: gdb's names and short forms, one line
//! per command, each giving its output text or a one-line error.

mod breaks;
mod control;
mod inspect;
mod reverse;
mod run;

pub use control::Block;

use super::Debugger;
use super::session::{Event, Limit, Pos};

/// A command: its name, short forms, usage and help.
pub struct CommandInfo {
    /// The name.
    pub name: &'static str,
    /// Short forms.
    pub aliases: &'static [&'static str],
    /// Arguments, as help shows them.
    pub usage: &'static str,
    /// What it does.
    pub help: &'static str,
}

macro_rules! commands {
    ($($name:literal [$($alias:literal),*] $usage:literal $help:literal;)*) => {
        /// Every command.
        pub const COMMANDS: &[CommandInfo] = &[
            $(CommandInfo { name: $name, aliases: &[$($alias),*], usage: $usage, help: $help },)*
        ];
    };
}

commands! {
    "stepi" ["si"] "[N]" "Run N machine instructions (default 1), stopping at breakpoints and watchpoints.";
    "step" ["s"] "[N]" "Run until the source line shown changes, into calls (N times); a macro's expansion is its line.";
    "next" ["n"] "[N]" "Run until the source line shown changes in this frame: calls run whole (N times).";
    "finish" ["fin"] "" "Run until the current call returns (the stack register loses its top frame).";
    "continue" ["c", "cont"] "[N]" "Run to the Nth next breakpoint or watchpoint hit (default 1), a machine error or halt, or the end of the game.";
    "tick" [] "N" "Run N machine instructions, ignoring breakpoints and watchpoints.";
    "gstep" ["gs"] "[N]" "Finish the current game step and N-1 more (default 1); stops only at machine errors.";
    "until-output" ["uo"] "" "Run until the machine writes a command into its output register.";
    "reverse-stepi" ["rsi"] "[N]" "Go back N machine instructions (default 1), exactly.";
    "reverse-step" ["rs"] "[N]" "Go back to the start of the previous source line (N times).";
    "reverse-next" ["rn"] "[N]" "Go back to the start of the previous source line in this frame: calls run whole (N times).";
    "reverse-finish" [] "" "Go back to the call of the current routine (the instruction that pushed its frame).";
    "until" ["u"] "[LOCATION]" "Without LOCATION: as `next`, but a jump back to an earlier line (a loop) does not stop it. With one: run until LOCATION (as `break` takes it) is reached or the current call returns.";
    "advance" [] "LOCATION" "Run until LOCATION (as `break` takes it) is reached or the current call returns.";
    "reverse-continue" ["rc"] "[N]" "Go back to the Nth last breakpoint or watchpoint hit before now (default 1), or the start of history.";
    "reverse-gstep" ["rgs"] "[N]" "Go back to the start of the current game step (N-1 steps further back).";
    "goto" [] "step S [tick T]" "Go to a position of the game, back or forward: tick T of step S, or the end of step S.";
    "checkpoint" [] "" "Remember the present position (as rr's checkpoints); `restart N` goes back to it.";
    "restart" [] "N" "Go to checkpoint N.";
    "source" [] "FILE" "Run the commands of a file, one a line (`#` comments), as batch mode does; the first error or a `quit` ends the file.";
    "break" ["b"] "LABEL | FILE:LINE | REG:OFFSET [if COND]" "Stop before the instruction there. COND: tests joined by `and` and `or` (`and` first): `PATH is nil`, `PATH is cons`, `size(PATH) OP N`, `PATH == VALUE`, `PATH != VALUE`, `PATH OP N` (an int; OP: <, <=, >, >=, ==, !=), as in `break seek if next == Move W and in.2.0 is cons`.";
    "tbreak" ["tb"] "LABEL | FILE:LINE | REG:OFFSET [if COND]" "A breakpoint deleted when first hit.";
    "watch" ["w"] "REG | PATH [if COND]" "Stop when the value of a register or of a path into one (`in.2.0`, `plan.0`) changes (by the machine, or by the engine at a step's start), showing the old and the new value.";
    "catch" [] "build | destroyed | inspected | built | lifted | dropped | command KIND | action KIND [any]" "Stop as a step begins in which the focused robot (any robot with `any`) is destroyed, inspected, builds a child (which starts running), lifts or drops an item, gives a command of KIND or takes an action of KIND. `catch build` stops where the focused robot builds and says how to `focus` on the child, which is then followed from its first instruction with its program's source map.";
    "delete" ["d"] "[ID...]" "Delete breakpoints, watchpoints and catchpoints (all without IDs).";
    "condition" [] "N [COND]" "Stop at breakpoint, watchpoint or catchpoint N only when COND holds (as `break ... if COND`); without COND, always.";
    "ignore" [] "N COUNT" "Pass over the next COUNT hits of N going forward (they are counted, as in gdb).";
    "enable" [] "[N...]" "Enable breakpoints, watchpoints and catchpoints (all without IDs).";
    "disable" [] "[N...]" "Disable breakpoints, watchpoints and catchpoints (all without IDs): kept, never hit.";
    "commands" [] "[N...]" "Commands to run when N (the last point set without N) stops the program: one a line, then `end`; an empty list removes them.";
    "define" [] "NAME" "A user command: its lines follow, then `end`; `NAME ARGS` runs them with $arg0, $arg1, ... and $argc replaced.";
    "print" ["p"] "EXPR [/FMT | : TYPE]" "Show a register or a path into it (`in.1.0`, `in.~4`, `r3.f.b`). FMT: /auto /tree /bits /int /list /command /instr /input. TYPE reads the value whole: int bool dir command instr action tree [T] (T1, T2, ...) maybe T, as in `print moves : [((int, int), dir)]`.";
    "display" [] "EXPR [/FMT | : TYPE]" "Print EXPR after every stop.";
    "undisplay" [] "[ID...]" "Stop displaying (all without IDs).";
    "info" ["i"] "registers [PATTERN] | breakpoints | display | robot | frame" "Registers (name, index, limit, size, a decoded guess; those whose name contains PATTERN; the program's own first, then the standard library's), breakpoints, displays, the focused robot, where the machine is.";
    "list" ["l"] "[LINE | FILE:LINE | LABEL | -]" "Show the source around the current instruction (or a place); `>` marks the current line. Again: the lines after; `list -`: the lines before.";
    "backtrace" ["bt", "where"] "" "The call stack: the current place, then every return continuation on the stack register.";
    "world" [] "" "Draw the world as the report does.";
    "robots" [] "" "Every robot: where it is, its frame, its last action.";
    "items" [] "" "The items lying on each square.";
    "score" [] "" "The players' scores now.";
    "focus" [] "NAME | X,Y[#I]" "Follow another robot (one built in the present step from its first instruction; history is kept: going back before the change follows the robot focused then).";
    "set" [] "REG = LITERAL | output LITERAL" "Change a register of the focused robot (any literal of the language).";
    "profile" [] "[N]" "Ticks spent per code block in the last N complete game steps, against the robot's speed.";
    "help" ["h", "?"] "[COMMAND]" "List the commands, or explain one.";
    "quit" ["q", "exit"] "" "Leave the debugger.";
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
fn count(args: &str) -> Result<u64, String> {
    let args = args.trim();
    if args.is_empty() {
        return Ok(1);
    }
    match args.parse::<u64>() {
        Ok(0) => Err("a count is at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{args:?} is not a count")),
    }
}

fn help(args: &str) -> Result<String, String> {
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
fn unknown(word: &str) -> String {
    let names = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()));
    match crate::asm::suggest::nearest(word, names) {
        Some(name) => {
            format!("unknown command {word:?}: did you mean `{name}`? (`help` lists the commands)")
        }
        None => format!("unknown command {word:?}: `help` lists the commands"),
    }
}

/// Files `source` reads inside one another at most.
const SOURCE_DEPTH: usize = 16;

impl Debugger {
    /// `goto step S [tick T]`.
    fn goto_position(&mut self, args: &str) -> Result<String, String> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let number = |w: &str| {
            w.parse::<u64>()
                .map_err(|_| format!("{w:?} is not a number"))
        };
        let pos = match words.as_slice() {
            ["step", s] => Pos::done(number(s)?),
            ["step", s, "tick", t] => {
                let (step, tick) = (number(s)?, number(t)?);
                if step == 0 {
                    return Err("step 0 has no ticks: the game starts after it".into());
                }
                Pos { step, tick }
            }
            _ => return Err("goto step S [tick T]".into()),
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

    fn restart(&mut self, n: u64) -> Result<String, String> {
        let pos = *self
            .checkpoints
            .get(n as usize - 1)
            .ok_or_else(|| format!("no checkpoint {n} ({} made)", self.checkpoints.len()))?;
        self.session.goto(pos);
        Ok(self.stop_report(&Event::Reached, None))
    }

    /// `source FILE`: every command of the file, echoed as `> COMMAND`;
    /// the first error stops it.
    fn source(&mut self, args: &str) -> Result<String, String> {
        let path = args.trim();
        if path.is_empty() {
            return Err("source what? a file of commands".into());
        }
        if self.sourcing >= SOURCE_DEPTH {
            return Err(format!(
                "{path}: files sourced inside one another {SOURCE_DEPTH} deep"
            ));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
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
                    result = Err(format!("{}\n{path}: {e}", out.join("\n")));
                    break;
                }
            }
        }
        self.sourcing -= 1;
        if result.is_ok()
            && let Err(e) = self.unclosed_block(path)
        {
            result = Err(format!("{}\n{e}", out.join("\n")));
        }
        result.map(|()| out.join("\n"))
    }

    /// Runs one command line (a line of a `commands` or `define` block
    /// being read is taken into it), then the commands of the points its
    /// stop hit.
    pub fn execute(&mut self, line: &str) -> Result<Outcome, String> {
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
    fn execute_line(&mut self, line: &str) -> Result<Outcome, String> {
        let line = line.trim();
        let (word, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if let Some(body) = self.user_command(word) {
            return self.call_user(body, args);
        }
        if word == "end" {
            return Err("`end` closes a `commands` or `define` block: none is open".into());
        }
        let Some(command) = find(word) else {
            return Err(unknown(word));
        };
        if command.usage.is_empty() && !args.trim().is_empty() {
            return Err(format!("`{}` takes no arguments", command.name));
        }
        let out = match command.name {
            "stepi" => self.stepi(count(args)?)?,
            "step" => self.step_line(count(args)?, false)?,
            "next" => self.step_line(count(args)?, true)?,
            "finish" => self.finish()?,
            "continue" => self.cont(count(args)?)?,
            "tick" => self.tick(count(args)?)?,
            "gstep" => self.gstep(count(args)?)?,
            "until-output" => self.until_output()?,
            "reverse-stepi" => self.reverse_stepi(count(args)?)?,
            "reverse-step" => self.reverse_line(count(args)?, false)?,
            "reverse-next" => self.reverse_line(count(args)?, true)?,
            "reverse-finish" => self.reverse_finish()?,
            "until" => self.until(args)?,
            "advance" if args.trim().is_empty() => {
                return Err("advance where? a LOCATION, as `break` takes it".into());
            }
            "advance" => self.until(args)?,
            "reverse-continue" => self.reverse_continue(count(args)?)?,
            "reverse-gstep" => self.reverse_gstep(count(args)?)?,
            "goto" => self.goto_position(args)?,
            "checkpoint" => self.checkpoint(),
            "restart" => self.restart(count(args)?)?,
            "source" => self.source(args)?,
            "break" => self.add_break(args, false)?,
            "tbreak" => self.add_break(args, true)?,
            "watch" => self.add_watch(args)?,
            "catch" => self.catch(args)?,
            "delete" => self.delete(args)?,
            "condition" => self.set_condition(args)?,
            "ignore" => self.ignore(args)?,
            "enable" => self.enable(args, true)?,
            "disable" => self.enable(args, false)?,
            "commands" => self.commands(args)?,
            "define" => self.define(args)?,
            "print" => self.print(args)?,
            "display" => self.display(args)?,
            "undisplay" => self.undisplay(args)?,
            "info" => self.info(args)?,
            "list" => self.list(args)?,
            "backtrace" => self.backtrace()?,
            "world" => self.world_map(),
            "robots" => self.robots_list(),
            "items" => self.items_list(),
            "score" => self.score(),
            "focus" => self.focus_on(args)?,
            "set" => self.set(args)?,
            "profile" => self.profile(count(args)?)?,
            "help" => help(args)?,
            "quit" => return Ok(Outcome::Quit),
            // Every command of the table has its arm above (a test runs
            // each one): a name without one is an error, never a way out.
            other => return Err(format!("`{other}` is not implemented")),
        };
        Ok(Outcome::Output(out))
    }
}

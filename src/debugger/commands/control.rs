//! What is done with breakpoints, watchpoints and catchpoints once set
//! (`condition`, `ignore`, `enable`, `disable`, `commands`), `catch`, and
//! user commands (`define`).
//!
//! `commands N` and `define NAME` read the lines after them, up to `end`,
//! as gdb does: [`Block`] gathers them, one line per call of
//! [`Debugger::execute`], so batch files, `source` and the terminal read
//! them alike.

use super::super::Debugger;
use super::super::catchpoints::Catchpoint;
use super::super::error::{DebugError, PointError};
use super::super::points::Settings;
use super::CommandError;
use super::{Outcome, find};

/// User commands run inside one another at most.
const CALL_DEPTH: usize = 16;

/// Rounds of breakpoint commands one command line runs at most (each round
/// the commands of one stop; a `continue` among them makes another).
const COMMAND_ROUNDS: usize = 1000;

/// Lines a `commands` or `define` block holds at most.
const BLOCK_LINES: usize = 1000;

/// What a block of lines is for.
#[derive(Debug, Clone)]
enum BlockFor {
    /// `commands N...`: the commands of these points.
    Commands(Vec<usize>),
    /// `define NAME`: a user command.
    Define(String),
}

/// The lines of a `commands` or `define` being typed, until `end`.
#[derive(Debug, Clone)]
pub struct Block {
    what: BlockFor,
    lines: Vec<String>,
    /// Blocks begun inside it (their `end` is a line of this one).
    inner: usize,
}

/// Whether a line begins a block of its own (`commands`, `define`).
fn begins_block(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    matches!(word, "commands" | "define")
}

impl Debugger {
    /// Whether the lines typed now go into a `commands` or `define` block.
    pub fn reading_block(&self) -> bool {
        self.block.is_some()
    }

    /// An error when lines that have ended (a file, a user command) left a
    /// block open: it is dropped.
    pub(crate) fn unclosed_block(&mut self, what: &str) -> Result<(), DebugError> {
        match self.block.take() {
            Some(_) => Err(CommandError::Unclosed(what.to_string()).into()),
            None => Ok(()),
        }
    }

    /// Takes one line into the block being read; `end` closes it.
    pub(super) fn block_line(&mut self, line: &str) -> Result<String, DebugError> {
        let block = self.block.as_mut().expect("a block is being read");
        if line == "end" && block.inner == 0 {
            let block = self.block.take().expect("a block is being read");
            return Ok(self.close_block(block));
        }
        if line == "end" {
            block.inner -= 1;
        } else if begins_block(line) {
            block.inner += 1;
        }
        if block.lines.len() >= BLOCK_LINES {
            self.block = None;
            return Err(CommandError::BlockFull(BLOCK_LINES).into());
        }
        block.lines.push(line.to_string());
        Ok(String::new())
    }

    fn close_block(&mut self, block: Block) -> String {
        match block.what {
            BlockFor::Commands(ids) => {
                for id in &ids {
                    if let Ok(s) = self.settings_mut(*id) {
                        s.commands = block.lines.clone();
                    }
                }
                String::new()
            }
            BlockFor::Define(name) => {
                self.defined.retain(|(n, _)| *n != name);
                self.defined.push((name, block.lines));
                String::new()
            }
        }
    }

    /// The IDs a command is given (`[N...]`), checked; none is every one
    /// when `all` is given, else the last point set.
    fn ids(&self, args: &str, all: bool) -> Result<Vec<usize>, DebugError> {
        let mut ids = Vec::new();
        for word in args.split_whitespace() {
            let id = word
                .parse::<usize>()
                .map_err(|_| PointError::NotAPointNumber(word.to_string()))?;
            self.settings(id)?;
            ids.push(id);
        }
        if ids.is_empty() {
            let every = self.breakpoints.iter().map(|b| b.id);
            let every = every.chain(self.watches.iter().map(|w| w.id));
            let mut every: Vec<usize> = every.chain(self.catches.iter().map(|c| c.id)).collect();
            every.sort_unstable();
            ids = if all {
                every
            } else {
                every.last().copied().into_iter().collect()
            };
            if ids.is_empty() {
                return Err(PointError::NoPoints.into());
            }
        }
        Ok(ids)
    }

    /// `condition N [COND]`: sets or (without COND) removes a condition.
    pub(super) fn set_condition(&mut self, args: &str) -> Result<String, DebugError> {
        let args = args.trim();
        let (id, text) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        let id = self.one_id(id, "condition N [COND]")?;
        let condition = match text.trim() {
            "" => None,
            text => Some(self.condition(text)?),
        };
        let settings = self.settings_mut(id)?;
        let out = match &condition {
            Some(c) => format!("Breakpoint {id} stops only if {}.", c.text),
            None => format!("Breakpoint {id} now unconditional."),
        };
        settings.condition = condition;
        Ok(out)
    }

    fn one_id(&self, word: &str, usage: &'static str) -> Result<usize, DebugError> {
        if word.is_empty() {
            return Err(PointError::WhichPoint(usage).into());
        }
        let id = word
            .parse::<usize>()
            .map_err(|_| PointError::NotAPointNumber(word.to_string()))?;
        self.settings(id)?;
        Ok(id)
    }

    /// `ignore N COUNT`: the next COUNT hits of N going forward do not stop.
    pub(super) fn ignore(&mut self, args: &str) -> Result<String, DebugError> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let [id, count] = words[..] else {
            return Err(PointError::IgnoreUsage.into());
        };
        let id = self.one_id(id, "ignore N COUNT")?;
        let count = count
            .parse::<u64>()
            .map_err(|_| CommandError::NotACount(count.to_string()))?;
        self.settings_mut(id)?.ignore.set(count);
        Ok(match count {
            0 => format!("Will stop next time breakpoint {id} is reached."),
            1 => format!("Will ignore next crossing of breakpoint {id}."),
            n => format!("Will ignore next {n} crossings of breakpoint {id}."),
        })
    }

    /// `enable [N...]` / `disable [N...]` (all without IDs).
    pub(super) fn enable(&mut self, args: &str, enabled: bool) -> Result<String, DebugError> {
        for id in self.ids(args, true)? {
            self.settings_mut(id)?.enabled = enabled;
        }
        Ok(String::new())
    }

    /// `commands [N...]`: starts reading the commands of N (the last point
    /// set without N), up to `end`; an empty block removes them.
    pub(super) fn commands(&mut self, args: &str) -> Result<String, DebugError> {
        let ids = self.ids(args, false)?;
        self.block = Some(Block {
            what: BlockFor::Commands(ids),
            lines: Vec::new(),
            inner: 0,
        });
        Ok(String::new())
    }

    /// `define NAME`: starts reading a user command, up to `end`.
    pub(super) fn define(&mut self, args: &str) -> Result<String, DebugError> {
        let name = args.trim();
        let good = name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if name.is_empty() || !good {
            return Err(CommandError::DefineUsage.into());
        }
        if find(name).is_some() {
            return Err(CommandError::DefineCommand(name.to_string()).into());
        }
        self.block = Some(Block {
            what: BlockFor::Define(name.to_string()),
            lines: Vec::new(),
            inner: 0,
        });
        Ok(String::new())
    }

    /// A user command's body, if `word` names one.
    pub(super) fn user_command(&self, word: &str) -> Option<Vec<String>> {
        self.defined
            .iter()
            .find(|(n, _)| n == word)
            .map(|(_, body)| body.clone())
    }

    /// Runs a user command: its lines, echoed, with `$arg0`... replaced by
    /// its arguments; the first error ends it.
    pub(super) fn call_user(
        &mut self,
        body: Vec<String>,
        args: &str,
    ) -> Result<Outcome, DebugError> {
        if self.calling >= CALL_DEPTH {
            return Err(CommandError::CallDepth(CALL_DEPTH).into());
        }
        let args: Vec<&str> = args.split_whitespace().collect();
        self.calling += 1;
        let result = self.run_lines(body.iter().map(|line| {
            let mut line = line.clone();
            // The highest numbers first, so that `$arg1` is not read in `$arg10`.
            for (i, a) in args.iter().enumerate().rev() {
                line = line.replace(&format!("$arg{i}"), a);
            }
            line.replace("$argc", &args.len().to_string())
        }));
        self.calling -= 1;
        self.unclosed_block("the user command")?;
        result
    }

    /// Runs lines, each echoed as `> LINE` before its output; the first
    /// error ends them (with what they printed before it), a `quit` too.
    pub(super) fn run_lines(
        &mut self,
        lines: impl Iterator<Item = String>,
    ) -> Result<Outcome, DebugError> {
        let mut out = Vec::new();
        for line in lines {
            out.push(format!("> {line}"));
            match self.execute(&line) {
                Ok(Outcome::Output(text)) if !text.is_empty() => out.push(text),
                Ok(Outcome::Output(_)) => {}
                Ok(Outcome::Quit) => return Ok(Outcome::Quit),
                Err(e) => return Err(e.after(out.join("\n"))),
            }
        }
        Ok(Outcome::Output(out.join("\n")))
    }

    /// After a command: the commands of the points its stop hit, then of
    /// the stops those make, a round at a time (a command that runs the
    /// machine ends its round, as in gdb).
    pub(super) fn run_pending(&mut self, mut out: String) -> Result<Outcome, DebugError> {
        for _ in 0..COMMAND_ROUNDS {
            if self.pending.is_empty() {
                return Ok(Outcome::Output(out));
            }
            let commands = std::mem::take(&mut self.pending);
            for line in commands {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&format!("> {line}"));
                match self.execute_line(&line) {
                    Ok(Outcome::Output(text)) if !text.is_empty() => {
                        out.push('\n');
                        out.push_str(&text);
                    }
                    Ok(Outcome::Output(_)) => {}
                    Ok(Outcome::Quit) => return Ok(Outcome::Quit),
                    Err(e) => {
                        self.pending.clear();
                        return Err(e.after(out));
                    }
                }
                if !self.pending.is_empty() {
                    break;
                }
            }
        }
        self.pending.clear();
        Ok(Outcome::Output(format!(
            "{out}\nBreakpoint commands stopped after {COMMAND_ROUNDS} stops."
        )))
    }

    /// `catch HAPPENING [any]`.
    pub(super) fn catch(&mut self, args: &str) -> Result<String, DebugError> {
        if args.trim() == "build" {
            return self.catch_build();
        }
        let (happening, any) = Catchpoint::parse(args)?;
        if !any && self.session.focus().is_none() {
            return Err(PointError::CatchNoFocus.into());
        }
        let id = self.new_id();
        let point = Catchpoint {
            id,
            happening,
            any,
            settings: Settings::default(),
        };
        let text = format!("Catchpoint {id} ({})", point.what());
        self.catches.push(point);
        Ok(text)
    }
}

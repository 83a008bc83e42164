//! `constree debug`: the debugger's front ends. Interactive on a terminal
//! (rustyline: history, completion, hints, a coloured prompt, Ctrl-C to
//! interrupt a long run), batch otherwise (`--batch FILE` or commands on
//! standard input): every command echoed as `> COMMAND`, errors as
//! `error: ...`, exit code 1 if any command failed.

use super::asm::AssemblyOptions;
use super::messages::{self, MessageFormat, MessageFormatOption};
use super::{Failure, kind};
use crate::asm::source::DiskLoader;
use crate::debugger::commands::{self, COMMANDS, Completion, Outcome};
use crate::debugger::view::{Format, ValueType};
use crate::debugger::{DebugError, Debugger, INTERRUPT, STEPS_BEGUN};
use crate::diagnostic::{FileId, SourceFile, Sources, Span};
use crate::scenario::replay::{Replay, ReplayError};
use crate::scenario::{Scenario, builtin, load_program_denying};
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::borrow::Cow;
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// `constree debug`.
#[derive(clap::Args)]
pub struct DebugArgs {
    /// A scenario (`.toml`), or a program (`.cta`, `.ctm`) to place in a
    /// small default world; without one, the built-in game.
    target: Option<PathBuf>,
    /// The robot to follow: its name in the scenario, or `X,Y[#I]`
    /// (position and index in the square). Default: the first robot.
    #[arg(long, value_name = "SEL")]
    robot: Option<String>,
    /// Debug a recorded game (`run --record`).
    #[arg(long, value_name = "FILE", conflicts_with = "target")]
    replay: Option<PathBuf>,
    /// Read the commands from this file instead of the terminal.
    #[arg(long, value_name = "FILE")]
    batch: Option<PathBuf>,
    /// Run the commands of this file first (as `source FILE`), then read
    /// commands as usual (repeatable; before the `-ex` commands).
    #[arg(short = 'x', value_name = "FILE")]
    x: Vec<PathBuf>,
    /// Run this command first, then read commands as usual (repeatable, in
    /// order): `-ex 'goto step 40 tick 0'`.
    #[arg(long = "ex", value_name = "COMMAND")]
    ex: Vec<String>,
    /// A program (`.cta`, or a `.ctm` image) whose source map a robot built
    /// during the game gets when its memory came from it (repeatable).
    #[arg(long = "image", value_name = "FILE")]
    image: Vec<PathBuf>,
    #[command(flatten)]
    assembly: AssemblyOptions,
    #[command(flatten)]
    messages: MessageFormatOption,
}

/// The name of the commands given by `-x FILE` and `-ex COMMAND`, in their
/// errors' spans.
const COMMAND_LINE: &str = "<command line>";

/// `constree debug -ex COMMAND` as gdb spells it: `-ex` is read as
/// `--ex` (the command line's parser knows one-letter short options only).
pub fn gdb_style(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if let Some(at) = args.iter().position(|a| a == "debug") {
        // Not an `-ex` that is the value of another option (`--batch -ex`).
        for k in at + 1..args.len() {
            if args[k] == "-ex" && args[k - 1].to_str().is_none_or(|a| !a.starts_with("--")) {
                args[k] = "--ex".into();
            }
        }
    }
    args
}

/// The default world of a lone program: 5 x 5, the robot in the middle.
fn lone_program_scenario(path: &Path) -> String {
    format!(
        "name = {:?}\nsteps = 100\n[world]\nsize = [5, 5]\n[[robot]]\nname = \"bot\"\nat = [2, 2]\nprogram = \"program\"\n",
        path.display().to_string()
    )
}

/// A scenario to debug and built-in sources `(file name, text)`.
type Loaded = (Scenario, Vec<(String, String)>);

/// What `constree debug` was given: a replay, a scenario, a lone program,
/// or nothing (the built-in game).
fn load(args: &DebugArgs) -> Result<Loaded, Failure> {
    if let Some(file) = &args.replay {
        kind::REPLAY.check("debug --replay", file)?;
        let replay = Replay::load(file)?;
        let scenario = replay.scenario()?;
        let (world, _) = scenario.world(scenario.seed);
        if replay.first_world() != Some(&world) {
            return Err(Failure::Replay(ReplayError::File {
                name: crate::files::display(file),
                text: None,
                error: Box::new(ReplayError::Corrupt(
                    "the recorded start differs from its scenario's".into(),
                )),
            }));
        }
        return Ok((scenario, Vec::new()));
    }
    let Some(target) = &args.target else {
        let builtins = builtin::programs()
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        return Ok((builtin::scenario()?, builtins));
    };
    kind::SCENARIO_OR_PROGRAM.check("debug", target)?;
    let is_program = target.extension().is_some_and(|e| e == "cta" || e == "ctm");
    if !is_program {
        let assembling = args.assembly.assembling();
        return Ok((Scenario::load_text_with(target, &assembling)?.0, Vec::new()));
    }
    if !target.is_file() {
        return Err(Failure::NoSuch(format!(
            "there is no program file {}",
            target.display()
        )));
    }
    let loader = DiskLoader::new(args.assembly.stdlib.dir());
    let programs = |_: &str| load_program_denying(&loader, target, args.assembly.deny.warnings());
    let text = lone_program_scenario(target);
    let scenario = Scenario::from_text(&target.display().to_string(), &text, &programs)?;
    Ok((scenario, Vec::new()))
}

/// Notes, on standard error, the programs whose images carry no sources
/// (images and replays of format version 1): the debugger shows no source
/// for them, rather than opening the paths they name.
fn note_missing_sources(scenario: &Scenario) {
    let mut noted = std::collections::BTreeSet::new();
    for robot in &scenario.robots {
        let Some(image) = &robot.image else { continue };
        for file in image.files.iter().filter(|f| f.text.is_none()) {
            if !file.name.starts_with("std/") && noted.insert(file.name.clone()) {
                eprintln!(
                    "note: {}'s program was built by an older constree and carries no sources: \
                     {} is not shown",
                    crate::files::escape_controls(&robot.name),
                    crate::files::escape_controls(&file.name)
                );
            }
        }
    }
}

fn debugger(args: &DebugArgs) -> Result<Debugger, Failure> {
    let (scenario, builtins) = load(args)?;
    note_missing_sources(&scenario);
    let mut debugger = Debugger::for_scenario(scenario, builtins)?;
    let loader = DiskLoader::new(args.assembly.stdlib.dir());
    for file in &args.image {
        let image = load_program_denying(&loader, file, args.assembly.deny.warnings())?;
        debugger.add_image(image);
    }
    if let Some(sel) = &args.robot {
        let place = debugger.select(sel)?;
        debugger.set_focus(Some(place));
    }
    Ok(debugger)
}

/// The first lines: what is debugged and where it stands.
fn banner(d: &Debugger) -> String {
    let name = d
        .focus_robot()
        .map_or("a robot", |k| d.session.scenario.robots[k].name.as_str());
    let name = crate::files::escape_controls(name);
    format!(
        "Debugging {} ({} steps), focus on {name}. `help` lists the commands.\n{}",
        crate::files::escape_controls(&d.session.scenario.name),
        d.session.scenario.steps,
        d.here()
    )
}

pub fn run(args: DebugArgs) -> Result<ExitCode, Failure> {
    args.messages.install();
    let mut debugger = debugger(&args)?;
    // `-x FILE` and `-ex COMMAND`: run first, echoed as in batch mode.
    let first: Vec<String> = (args.x.iter())
        .map(|f| format!("source {}", f.display()))
        .chain(args.ex.iter().cloned())
        .collect();
    match &args.batch {
        Some(file) => {
            let text = crate::files::read_input_text(file)?;
            let lines = text.lines().map(str::to_string);
            let script = Script::new(crate::files::display(file));
            Ok(batch(&mut debugger, first, script, lines))
        }
        None if !std::io::stdin().is_terminal() => {
            let lines = std::io::stdin().lock().lines().map_while(Result::ok);
            Ok(batch(&mut debugger, first, Script::new("<stdin>"), lines))
        }
        None => interactive(&mut debugger, &first),
    }
}

/// Where commands come from (a script, the command line's `-x` and
/// `-ex`, the terminal), for their errors' spans under
/// `--message-format json`: its name, and its lines so far.
struct Script {
    name: String,
    text: String,
}

impl Script {
    /// An empty script with this name.
    fn new(name: impl Into<String>) -> Script {
        Script {
            name: name.into(),
            text: String::new(),
        }
    }

    /// Adds a line; gives its byte range (without its newline).
    fn push(&mut self, line: &str) -> std::ops::Range<usize> {
        let start = self.text.len();
        self.text.push_str(line);
        self.text.push('\n');
        start..start + line.len()
    }

    /// Runs a command read at `at` and prints what it gave, with control
    /// characters escaped (names and values from files reach the terminal
    /// as text, never as escape sequences; the debugger's own output has
    /// none); whether it quits and whether it failed.
    fn report(
        &self,
        result: Result<Outcome, DebugError>,
        at: std::ops::Range<usize>,
        error_label: &str,
    ) -> (bool, bool) {
        match result {
            Ok(Outcome::Output(text)) if !text.is_empty() => {
                println!("{}", crate::files::escape_controls(&text))
            }
            Ok(Outcome::Output(_)) => {}
            Ok(Outcome::Quit) => return (true, false),
            Err(e) => {
                self.print_error(&e, at, error_label);
                return (false, true);
            }
        }
        (false, false)
    }

    /// A command's error: in the transcript as its diagnostic's plain line
    /// (`error: MESSAGE`), or under `--message-format json` what earlier
    /// commands printed in the transcript and the diagnostic, at the
    /// command's line, as one JSON object on standard error.
    fn print_error(&self, error: &DebugError, at: std::ops::Range<usize>, label: &str) {
        if messages::format() == MessageFormat::Human {
            let diagnostic = error.diagnostic(FileId::default());
            let message = crate::files::escape_controls(&diagnostic.message);
            println!("{label} {message}");
            return;
        }
        for output in error.printed().0 {
            println!("{}", crate::files::escape_controls(output));
        }
        let mut sources = Sources::default();
        let file = sources.add(SourceFile::new(self.name.clone(), None, self.text.clone()));
        messages::report(&[error.diagnostic_at(Span::new(file, at))], &sources);
    }
}

/// Runs the `-x` and `-ex` commands, then those of a file or a pipe; a
/// plain, deterministic transcript.
fn batch(
    debugger: &mut Debugger,
    first: Vec<String>,
    mut script: Script,
    lines: impl Iterator<Item = String>,
) -> ExitCode {
    println!("{}", banner(debugger));
    let mut failed = false;
    let mut given = Script::new(COMMAND_LINE);
    let commands = (first.into_iter().map(|l| (true, l))).chain(lines.map(|l| (false, l)));
    for (from_command_line, line) in commands {
        let from = if from_command_line {
            &mut given
        } else {
            &mut script
        };
        let at = from.push(&line);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        println!("> {}", crate::files::escape_controls(line));
        let (quit, error) = from.report(debugger.execute(line), at, "error:");
        failed |= error;
        if quit {
            break;
        }
    }
    if let Err(e) = debugger.unclosed_block("the commands") {
        let end = script.text.len();
        script.print_error(&e, end..end, "error:");
        failed = true;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

extern "C" fn on_interrupt(_: libc::c_int) {
    INTERRUPT.store(true, Ordering::Relaxed);
}

/// The history file: `$CONSTREE_HISTORY`, else `~/.constree_history`.
fn history_file() -> Option<PathBuf> {
    std::env::var_os("CONSTREE_HISTORY")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".constree_history")))
}

fn interactive(debugger: &mut Debugger, first: &[String]) -> Result<ExitCode, Failure> {
    // Tab completes as far as the candidates agree, a second Tab lists
    // them (as a shell does), rather than inserting the first.
    let config = rustyline::Config::builder()
        .completion_type(rustyline::CompletionType::List)
        .build();
    let mut editor: Editor<DebugHelper, rustyline::history::DefaultHistory> =
        Editor::with_config(config).map_err(|e| Failure::Stdio(e.to_string()))?;
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    println!("{}", banner(debugger));
    let colour = super::style::colour(super::style::Stream::Stdout);
    let paint = |code: &str, text: &str| {
        if colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    };
    let mut given = Script::new(COMMAND_LINE);
    for line in first {
        println!("> {}", crate::files::escape_controls(line));
        let at = given.push(line);
        if given
            .report(debugger.execute(line), at, &paint("31", "error:"))
            .0
        {
            return Ok(ExitCode::SUCCESS);
        }
    }
    let mut typed = Script::new("<terminal>");
    let mut last = String::new();
    loop {
        let prompt = if debugger.reading_block() {
            ">".to_string()
        } else {
            format!("({}) ", debugger.position())
        };
        editor.set_helper(Some(DebugHelper {
            symbols: debugger.symbols(),
            prompt: paint("1;36", &prompt),
            hint_style: colour.then_some("2"),
        }));
        let line = match editor.readline(&prompt) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(Failure::Stdio(e.to_string())),
        };
        let line = if line.trim().is_empty() {
            last.clone()
        } else {
            let _ = editor.add_history_entry(line.as_str());
            line
        };
        if line.trim().is_empty() {
            continue;
        }
        last = line.clone();
        // Ctrl-C while a command runs interrupts it. (While a line is read,
        // rustyline sees Ctrl-C as a key; it installs a handler of its own
        // for every line, replaced here.)
        INTERRUPT.store(false, Ordering::Relaxed);
        // SAFETY: the handler only stores to an atomic.
        unsafe {
            libc::signal(
                libc::SIGINT,
                on_interrupt as *const () as libc::sighandler_t,
            );
        }
        let at = typed.push(&line);
        if typed
            .report(
                with_progress(|| debugger.execute(&line)),
                at,
                &paint("31", "error:"),
            )
            .0
        {
            break;
        }
    }
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs a command while a thread counts the game steps it plays
/// ([`STEPS_BEGUN`]) on a progress counter (drawn after a second, on a
/// terminal, as every progress bar).
fn with_progress<T>(command: impl FnOnce() -> T) -> T {
    use std::sync::mpsc::{RecvTimeoutError, channel};
    let (finished, wait) = channel::<()>();
    let start = STEPS_BEGUN.load(Ordering::Relaxed);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let progress = super::style::Progress::counter(
                "{spinner} {pos} game steps played, {elapsed} (Ctrl-C stops)",
            );
            let mut shown = start;
            // Until the command ends (the sender is dropped).
            while let Err(RecvTimeoutError::Timeout) =
                wait.recv_timeout(std::time::Duration::from_millis(100))
            {
                let now = STEPS_BEGUN.load(Ordering::Relaxed);
                if now > shown {
                    progress.inc(now - shown);
                    shown = now;
                }
            }
        });
        let result = command();
        drop(finished);
        result
    })
}

/// Completion of commands, labels, registers, robots and formats; hints
/// with a command's arguments; the coloured prompt.
struct DebugHelper {
    symbols: Vec<String>,
    prompt: String,
    /// The SGR code hints are drawn in, when colour is on.
    hint_style: Option<&'static str>,
}

impl Completer for DebugHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let before = &line[..pos];
        let start = before
            .rfind(|c: char| c.is_whitespace())
            .map_or(0, |i| i + 1);
        let word = &before[start..];
        // After `print EXPR :` (or `display`), the words of a type
        // (`[(int, d` -> `dir`).
        let command = before.split_whitespace().next().and_then(commands::find);
        if command.is_some_and(|c| c.completion == Completion::Value) && before.contains(':') {
            let start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |i| i + 1);
            let word = &before[start..];
            let words = ValueType::WORDS.iter().filter(|w| w.starts_with(word));
            return Ok((start, words.map(|w| w.to_string()).collect()));
        }
        let candidates = self.candidates(before, start, word);
        Ok((start, candidates))
    }
}

impl DebugHelper {
    /// What completes `word` (from `start` in `before`): a command, or what
    /// the command's [`Completion`] offers (a subcommand as its first
    /// argument, a format after `/`, a symbol; nothing for a command that
    /// takes no arguments); a unique candidate gets the
    /// space that follows it.
    fn candidates(&self, before: &str, start: usize, word: &str) -> Vec<String> {
        let words: Vec<&str> = before[..start].split_whitespace().collect();
        let completion = words
            .first()
            .and_then(|w| commands::find(w))
            .map(|c| c.completion);
        let offered = |list: &mut dyn Iterator<Item = String>| -> Vec<String> {
            list.filter(|c| c.starts_with(word)).collect()
        };
        let mut candidates: Vec<String> = match completion {
            _ if start == 0 => offered(&mut COMMANDS.iter().map(|c| c.name.to_string())),
            Some(Completion::Nothing) => Vec::new(),
            Some(Completion::Value) if word.starts_with('/') => {
                offered(&mut Format::NAMES.iter().map(|f| format!("/{f}")))
            }
            Some(Completion::Subcommand(subcommands)) if words.len() == 1 => {
                offered(&mut subcommands.iter().map(|s| s.to_string()))
            }
            // Also after a user command (`define`), which the table lacks.
            _ => offered(&mut self.symbols.iter().cloned()),
        };
        if let [only] = candidates.as_mut_slice() {
            only.push(' ');
        }
        candidates
    }
}

impl Hinter for DebugHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _: &Context<'_>) -> Option<String> {
        if pos < line.len() {
            return None;
        }
        let word = line.strip_suffix(' ')?;
        let command = commands::find(word.trim())?;
        (!command.usage.is_empty()).then(|| command.usage.to_string())
    }
}

impl Highlighter for DebugHelper {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        default: bool,
    ) -> Cow<'b, str> {
        if default {
            Cow::Borrowed(&self.prompt)
        } else {
            Cow::Borrowed(prompt)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        match self.hint_style {
            Some(code) => Cow::Owned(format!("\x1b[{code}m{hint}\x1b[0m")),
            None => Cow::Borrowed(hint),
        }
    }
}

impl Validator for DebugHelper {}

impl Helper for DebugHelper {}

#[cfg(test)]
mod tests {
    use super::DebugHelper;

    fn helper() -> DebugHelper {
        DebugHelper {
            symbols: ["main", "plan", "ready.1", "registers_of"]
                .map(String::from)
                .to_vec(),
            prompt: String::new(),
            hint_style: None,
        }
    }

    fn complete(line: &str) -> Vec<String> {
        let start = line.rfind(' ').map_or(0, |i| i + 1);
        helper().candidates(line, start, &line[start..])
    }

    #[test]
    fn info_offers_its_subcommands_only() {
        assert_eq!(
            complete("info "),
            ["registers", "breakpoints", "display", "robot", "frame"]
        );
        assert_eq!(complete("info re"), ["registers "]);
        // Its pattern argument completes symbols.
        assert_eq!(complete("info registers pl"), ["plan "]);
    }

    /// What completes arguments comes from the command table.
    #[test]
    fn arguments_complete_as_the_command_table_says() {
        assert_eq!(complete("finish "), Vec::<String>::new());
        assert_eq!(complete("break pl"), ["plan "]);
        assert_eq!(complete("p plan /b"), ["/bits "]);
        assert_eq!(complete("i "), complete("info "));
    }

    #[test]
    fn a_unique_completion_ends_with_a_space() {
        assert_eq!(complete("cont"), ["continue "]);
        assert_eq!(complete("break ma"), ["main "]);
        assert_eq!(complete("print plan /ins"), ["/instr "]);
        // reverse-stepi, -step, -next, -finish, -continue, -gstep, restart.
        assert_eq!(complete("re").len(), 7);
        assert!(complete("re").iter().all(|c| !c.ends_with(' ')));
    }
}

//! The `constree` command line.

mod asm;
mod conformance;
mod debug;
mod exec;
mod failure;
mod fmt;
mod image;
mod input;
mod kind;
mod lsp;
mod machine;
mod messages;
mod new;
pub mod reference;
mod render;
mod run;
mod setup;
pub mod style;
mod test;
mod tournament;
mod view;
mod world;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// A toolchain for Botworld robot programs.
#[derive(Parser)]
#[command(name = "constree", version, about, long_about = None, after_help = "Start here:
  constree run                          play the built-in game (Harvest) and show the scores
  constree new mybot                    make a bot project: mybot/bot.cta, mybot/game.toml
  cd mybot && constree test             play its game and check what it expects
  constree debug game.toml              follow the robot's machine, step by step

`constree help COMMAND` (or `COMMAND --help`) shows a command's options and examples.
The constree repository's docs/tutorial.md is the guided tour.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    global: style::GlobalOptions,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble a program into a memory image.
    #[command(after_help = "Examples:
  constree asm examples/walker.cta                     # writes examples/walker.ctm
  constree asm examples/walker.cta -o /tmp/walker.ctm --listing")]
    Asm(asm::AsmArgs),
    /// Turn a memory image back into source.
    #[command(after_help = "Examples:
  constree asm examples/count.cta -o /tmp/count.ctm
  constree disasm /tmp/count.ctm > /tmp/count.cta      # assembles to the same memory")]
    Disasm(asm::DisasmArgs),
    /// Report a program's errors and warnings without writing an image.
    #[command(after_help = "Examples:
  constree check examples/walker.cta                   # silent, exit code 0, when all is well
  constree check bot.cta --stdlib stdlib/              # with the standard library from a directory")]
    Check(asm::CheckArgs),
    /// Lay out programs the one canonical way (docs/fmt.md), in place.
    #[command(after_help = "Examples:
  constree fmt bot.cta lib.cta                         # rewrites each file whose layout changes
  constree fmt --check *.cta                           # lists the files not formatted, exit code 1 if any
  constree fmt - < bot.cta > /tmp/bot.cta              # standard input to standard output")]
    Fmt(fmt::FmtArgs),
    /// Serve the Language Server Protocol on standard input and output, for editors.
    #[command(after_help = "Examples:
  constree lsp                                         # started by an editor (docs/editors.md)
  constree lsp --stdlib stdlib/                        # with the standard library from a directory")]
    Lsp(lsp::LspArgs),
    /// Run one program's machine outside any world, step by step.
    #[command(
        after_help = "Each step does for the machine what the engine does for a robot, in this order:
read `out` (printed as the command the engine would take) and clear it; write the
`--input` value into `in`, if given (`in` is left as it is otherwise); run `--speed` ticks.

Examples:
  constree exec examples/walker.cta --speed 20 --steps 3
  constree exec examples/echo.cta --input \"[S, W]\" --steps 2
  constree exec examples/count.cta --speed 30 --show 'dst:[dir],item'   # dst read as a list of directions"
    )]
    Exec(exec::ExecArgs),
    /// Play a scenario (or the built-in game) and show the world and scores.
    #[command(after_help = "Examples:
  constree run                                         # the built-in game, Harvest
  constree run examples/walk/walk.toml --trace walker  # what a robot does every step
  constree run examples/fight/fight.toml --watch       # the world after every step
  constree run --steps 100 --record /tmp/game.json     # a replay for `replay` and `debug --replay`")]
    Run(run::RunArgs),
    /// Show a step of a recorded game.
    #[command(after_help = "Examples:
  constree run --record /tmp/game.json
  constree replay /tmp/game.json --step 5")]
    Replay(run::ReplayArgs),
    /// Write a recorded game as one HTML page to watch in a browser.
    #[command(after_help = "Examples:
  constree run examples/fight/fight.toml --record /tmp/fight.json
  constree view /tmp/fight.json -o /tmp/fight.html      # open it in any browser, offline")]
    View(view::ViewArgs),
    /// Play many seeded rounds of a scenario between player programs and rank them.
    #[command(after_help = "Examples:
  constree tournament --game examples/arena/arena.toml --rounds 20 \\
      --players examples/arena/hunter.cta examples/arena/breeder.cta examples/arena/passer.cta
  constree tournament --game examples/arena/arena.toml --seed 7 --format json \\
      --players examples/arena/hunter.cta examples/arena/random.cta
  constree tournament --game examples/arena/arena.toml --rounds 5 --record-round 3 /tmp/round.json \\
      --players examples/arena/hunter.cta examples/arena/guard.cta
  constree debug --replay /tmp/round.json --robot hunter   # step through that round")]
    Tournament(tournament::TournamentArgs),
    /// Play scenarios and check their expectations (`[expect]`).
    Test(test::TestArgs),
    /// Make a new bot project: a program, a game, expectations.
    New(new::NewArgs),
    /// Debug a robot's program inside a live game: step, break, watch, print, go back
    #[command(after_help = "Examples:
  constree debug                                       # the built-in game, robot `red`
  constree debug examples/fight/fight.toml --robot blue
  constree debug examples/calls.cta                    # a lone program in a 5 x 5 world
  constree debug game.toml --batch session.dbg         # commands from a file

Inside, `help` lists the debugger's commands (docs/debugger.md).")]
    Debug(debug::DebugArgs),
    /// Check every conformance vector file in a directory.
    #[command(after_help = "Examples:
  constree conformance tests/conformance               # ends with `N passed, M failed`
  constree conformance /tmp/vectors --generate --seed 7")]
    Conformance(conformance::Args),
    /// Work with worlds in the interchange format.
    #[command(subcommand)]
    World(world::Command),
    /// Work with bare register machines.
    #[command(subcommand)]
    Machine(machine::Command),
    /// Work with memory images: convert between the JSON and the binary form.
    #[command(subcommand)]
    Image(image::Command),
    /// Install the man pages and the bash, zsh and fish completions
    /// (under ~/.local by default).
    Setup(setup::SetupArgs),
    /// Print a shell completion script.
    #[command(after_help = "Examples:
  constree completions bash > ~/.local/share/bash-completion/completions/constree
  constree completions zsh > ~/.zfunc/_constree        # with ~/.zfunc in $fpath
  constree completions fish > ~/.config/fish/completions/constree.fish
  constree completions elvish > ~/.config/elvish/lib/constree.elv   # then `use constree` in rc.elv
  constree completions powershell >> $PROFILE")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// Clap's error for an unknown subcommand, with the suggestion made by
/// the rule used for every name constree suggests
/// ([`crate::asm::suggest::nearest`]: `rn` is `run`), among the
/// subcommands of the command the unknown word was given to; other errors
/// unchanged.
fn suggest_subcommand(error: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::InvalidSubcommand {
        return error;
    }
    let Some(ContextValue::String(word)) = error.get(ContextKind::InvalidSubcommand).cloned()
    else {
        return error;
    };
    let mut command = <Cli as clap::CommandFactory>::command();
    for arg in std::env::args().skip(1) {
        if arg == word {
            break;
        }
        if let Some(sub) = command.find_subcommand(&arg).cloned() {
            command = sub;
        }
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    let nearest = crate::asm::suggest::nearest(&word, names.iter().map(String::as_str));
    let mut answer = clap::Error::new(ErrorKind::InvalidSubcommand).with_cmd(&command);
    answer.insert(
        ContextKind::InvalidSubcommand,
        ContextValue::String(word.clone()),
    );
    if let Some(nearest) = nearest {
        answer.insert(
            ContextKind::SuggestedSubcommand,
            ContextValue::Strings(vec![nearest.to_string()]),
        );
    }
    if let Some(usage) = error.get(ContextKind::Usage).cloned() {
        answer.insert(ContextKind::Usage, usage);
    }
    answer
}

/// Parses the command line. Clap draws its own help and errors, so it is
/// told the `--color` choice before parsing (read from the arguments as
/// they are, like cargo does); `NO_COLOR` and `CLICOLOR_FORCE` it reads
/// itself.
fn parse() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let args = debug::gdb_style(std::env::args_os().collect());
    let mut choice = None;
    for (i, arg) in args.iter().enumerate() {
        let arg = arg.to_string_lossy();
        let value = match arg.strip_prefix("--color") {
            Some("") => args.get(i + 1).map(|v| v.to_string_lossy().into_owned()),
            Some(rest) => rest.strip_prefix('=').map(str::to_string),
            None => None,
        };
        match value.as_deref() {
            Some("always") => choice = Some(clap::ColorChoice::Always),
            Some("never") => choice = Some(clap::ColorChoice::Never),
            Some("auto") => choice = Some(clap::ColorChoice::Auto),
            _ => {}
        }
    }
    let mut command = Cli::command();
    if let Some(choice) = choice {
        command = command.color(choice);
    }
    Cli::from_arg_matches(&command.try_get_matches_from(args)?)
}

pub use failure::Failure;

/// A word for a POSIX shell: as it is when it holds only characters a shell
/// reads literally, else in single quotes (a `'` written `'\''`).
pub fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-+./:=@%,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The command line's definition: every command, argument and option.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Runs the command line and returns the process's exit code.
pub fn main() -> ExitCode {
    let cli = parse().unwrap_or_else(|e| suggest_subcommand(e).exit());
    style::set(cli.global.clone());
    let environment = || -> Result<(), Failure> {
        crate::limits::check_environment()?;
        crate::machine::cycle_skip_from_environment()?;
        Ok(())
    };
    if let Err(failure) = environment() {
        messages::failure(&failure);
        return ExitCode::FAILURE;
    }
    crate::files::guard_inputs();
    let result = match cli.command {
        Command::Asm(args) => asm::run_asm(args),
        Command::Check(args) => asm::run_check(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Disasm(args) => asm::run_disasm(args),
        Command::Conformance(args) => conformance::run(args),
        Command::Exec(args) => exec::run(args),
        Command::Run(args) => run::run(args),
        Command::Replay(args) => run::replay(args),
        Command::View(args) => view::run(args),
        Command::Test(args) => test::run(args),
        Command::New(args) => new::run(args),
        Command::Debug(args) => debug::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::World(cmd) => world::run(cmd),
        Command::Machine(cmd) => machine::run(cmd),
        Command::Image(cmd) => image::run(cmd),
        Command::Setup(args) => setup::run(args),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "constree", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(failure) => {
            messages::failure(&failure);
            ExitCode::FAILURE
        }
    }
}

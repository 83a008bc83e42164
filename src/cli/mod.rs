//! The `constree` command line.

mod asm;
mod conformance;
mod debug;
mod exec;
mod input;
mod machine;
mod new;
mod render;
mod run;
mod test;
mod world;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// A toolchain for Botworld robot programs.
#[derive(Parser)]
#[command(name = "constree", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble a program into a memory image.
    Asm(asm::AsmArgs),
    /// Turn a memory image back into source.
    Disasm(asm::DisasmArgs),
    /// Report a program's errors and warnings without writing an image.
    Check(asm::CheckArgs),
    /// Run one program's machine outside any world, step by step.
    Exec(exec::ExecArgs),
    /// Play a scenario (or the built-in game) and show the world and scores.
    Run(run::RunArgs),
    /// Show a step of a recorded game.
    Replay(run::ReplayArgs),
    /// Play scenarios and check their expectations (`[expect]`).
    Test(test::TestArgs),
    /// Make a new bot project: a program, a game, expectations.
    New(new::NewArgs),
    /// Debug a robot's program inside a live game: step, break, watch, print, go back
    Debug(debug::DebugArgs),
    /// Check every conformance vector file in a directory.
    Conformance(conformance::Args),
    /// Work with worlds in the interchange format.
    #[command(subcommand)]
    World(world::Command),
    /// Work with bare register machines.
    #[command(subcommand)]
    Machine(machine::Command),
}

/// An error that ends a command: printed as `error: ...`, exit code 1.
#[derive(Debug)]
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

/// Runs the command line and returns the process's exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Asm(args) => asm::run_asm(args),
        Command::Check(args) => asm::run_check(args),
        Command::Disasm(args) => asm::run_disasm(args),
        Command::Conformance(args) => conformance::run(args),
        Command::Exec(args) => exec::run(args),
        Command::Run(args) => run::run(args),
        Command::Replay(args) => run::replay(args),
        Command::Test(args) => test::run(args),
        Command::New(args) => new::run(args),
        Command::Debug(args) => debug::run(args),
        Command::World(cmd) => world::run(cmd),
        Command::Machine(cmd) => machine::run(cmd),
    };
    match result {
        Ok(code) => code,
        Err(Failure(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

//! The `constree` command line.

mod conformance;
mod input;
mod machine;
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
        Command::Conformance(args) => conformance::run(args),
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

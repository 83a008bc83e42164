//! `constree machine ...`: bare register machines.

use super::input::{print_json, read_json};
use super::{Failure, kind};
use crate::machine::{MachineDocument, Outcome};
use std::path::PathBuf;
use std::process::ExitCode;

/// Subcommands of `constree machine`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Run a memory with `runFor` and print the result object
    /// (`{"ok": Memory}` or `{"err": E, "wiped": Memory}`).
    #[command(after_help = r#"Examples:
  echo '[{"limit":10,"contents":"11010110000"},{"limit":0,"contents":"0"},{"limit":5,"contents":"100"}]' \
    | constree machine run - --speed 5"#)]
    Run {
        /// A Memory, or `{"speed": n, "memory": Memory}` (a machine.jsonl
        /// line works; other fields are ignored); `-` reads standard input.
        file: PathBuf,
        /// Ticks to run (overrides the file's speed).
        #[arg(long, allow_negative_numbers = true)]
        speed: Option<i64>,
        /// Print the result in the shared form: every tree a node of one
        /// table, for results whose trees share nodes.
        #[arg(long)]
        shared: bool,
    },
}

pub fn run(command: Command) -> Result<ExitCode, Failure> {
    match command {
        Command::Run {
            file,
            speed,
            shared,
        } => {
            kind::MEMORY.check("machine run", &file)?;
            let MachineDocument {
                speed: file_speed,
                memory,
            } = read_json(&file)?;
            let speed = speed.or(file_speed).ok_or_else(|| {
                Failure::Machine(format!(
                    "{}: no speed: give --speed or a \"speed\" field",
                    file.display()
                ))
            })?;
            let cap = crate::limits::MAX_MACHINE_NODES.get();
            let outcome = Outcome::of_run_capped(speed, memory, cap).map_err(|ticks| {
                Failure::Machine(format!(
                    "{}: after {ticks} ticks the machine holds more than {cap} tree nodes, \
                     the most `machine run` lets it build (CONSTREE_MAX_NODES=NODES raises the limit)",
                    crate::files::display(&file)
                ))
            })?;
            print_json(&outcome, shared)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

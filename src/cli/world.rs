//! `constree world ...`: worlds in the interchange format.

use super::input::{print_json, read_json};
use super::{Failure, kind};
use crate::conformance::fnv1a;
use crate::scenario::replay::Replay;
use crate::world::render::visualize;
use crate::world::{GameConfig, WorldDocument, update};
use std::path::PathBuf;
use std::process::ExitCode;

/// Subcommands of `constree world`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Step a world and print the result as compact JSON.
    #[command(after_help = "Examples:
  constree run examples/walk/walk.toml --steps 0 --format json > /tmp/world.json
  constree world step /tmp/world.json --steps 8 --render
  constree world step - --digest < /tmp/world.json
  constree world step /tmp/world.json --steps 50 --record /tmp/steps.json   # then `constree view`")]
    Step {
        /// A World, or any object with a "world" field (a world.jsonl line);
        /// `-` reads standard input.
        file: PathBuf,
        /// How many steps.
        #[arg(long, default_value_t = 1)]
        steps: u64,
        /// Print the report's visualisation instead of JSON.
        #[arg(long, conflicts_with = "digest")]
        render: bool,
        /// Print the FNV-1a digest of the JSON instead of the JSON.
        #[arg(long)]
        digest: bool,
        /// Print the world in the shared form: every tree a node of one
        /// table, for worlds whose trees share nodes.
        #[arg(long, conflicts_with_all = ["render", "digest"])]
        shared: bool,
        /// Also record the steps in a replay FILE (for `constree view`; it
        /// has no scenario, so `replay` and `debug --replay` do not read it).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
}

pub fn run(command: Command) -> Result<ExitCode, Failure> {
    match command {
        Command::Step {
            file,
            steps,
            render,
            digest,
            shared,
            record,
        } => {
            kind::WORLD.check("world step", &file)?;
            if let Some(path) = &record {
                crate::files::check_output(path)
                    .map_err(|e| Failure::output("--record", path, e))?;
            }
            let WorldDocument(mut world) = read_json(&file)?;
            let mut replay = record.as_ref().map(|_| {
                let name = file.display().to_string();
                let mut replay = Replay::new(name, String::new(), Vec::new());
                replay.push(&world);
                replay
            });
            for _ in 0..steps {
                world = update(world);
                if let Some(replay) = &mut replay {
                    replay.push(&world);
                }
            }
            if let (Some(path), Some(replay)) = (&record, &replay) {
                replay.save(path)?;
            }
            if render {
                print!(
                    "{}",
                    visualize(&world, &GameConfig::cargo_by_type(Vec::new()))
                );
            } else if digest {
                println!(
                    "{}",
                    fnv1a(
                        serde_json::to_string(&world)
                            .map_err(|e| Failure::Stdio(e.to_string()))?
                            .as_bytes()
                    )
                );
            } else {
                print_json(&world, shared)?;
            }
            // The process ends now: freeing a large world node by node would
            // only cost time.
            std::mem::forget(world);
            Ok(ExitCode::SUCCESS)
        }
    }
}

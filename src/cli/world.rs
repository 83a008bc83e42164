//! `constree world ...`: worlds in the interchange format.

use super::input::{parse_json, print_json, read_text};
use super::{Failure, kind};
use crate::conformance::fnv1a;
use crate::scenario::replay::Replay;
use crate::world::json::write_world;
use crate::world::render::visualize;
use crate::world::{GameConfig, World, WorldDocument, update};
use std::io::Write;
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
            // Robots often hold the same programs: equal texts are read as
            // one shared tree. A world in the form constree writes is read
            // without serde; any other text with it.
            let text = read_text(&file)?;
            let mut world = match crate::world::read_canonical(&text) {
                Some(world) => world,
                None => {
                    crate::tree::read_deduplicated(|| parse_json::<WorldDocument>(&file, &text))?.0
                }
            };
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
            } else if shared {
                print_json(&world, shared)?;
            } else {
                print_world(&world, digest)?;
            }
            // The process ends now: freeing a large world node by node would
            // only cost time.
            std::mem::forget(world);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints the world's compact JSON and a newline, or with `digest` the
/// FNV-1a digest of that JSON, through the fast writer
/// ([`crate::world::json`]); a world it cannot write (a tree's text over
/// the limit, or the whole over it) goes through serde, whose error says
/// why.
fn print_world(world: &World, digest: bool) -> Result<(), Failure> {
    let mut out = Vec::new();
    let written = write_world(world, &mut out).is_ok();
    if digest {
        let json = if written {
            out
        } else {
            serde_json::to_vec(world).map_err(|e| Failure::Stdio(e.to_string()))?
        };
        println!("{}", fnv1a(&json));
        return Ok(());
    }
    if !written || out.len() as u64 > crate::tree::max_text() {
        return print_json(world, false);
    }
    out.push(b'\n');
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(())
}

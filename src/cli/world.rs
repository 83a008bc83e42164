//! `constree world ...`: worlds in the interchange format.

use super::Failure;
use super::input::{print_json, read_json};
use crate::conformance::fnv1a;
use crate::world::render::visualize;
use crate::world::{GameConfig, World, update};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

/// Subcommands of `constree world`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Step a world and print the result as compact JSON.
    #[command(after_help = "Examples:
  constree run examples/walk/walk.toml --steps 0 --format json > /tmp/world.json
  constree world step /tmp/world.json --steps 8 --render
  constree world step - --digest < /tmp/world.json")]
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
        } => {
            let WorldDocument(mut world) = read_json(&file)?;
            for _ in 0..steps {
                world = update(world);
            }
            if render {
                print!(
                    "{}",
                    visualize(&world, &GameConfig::cargo_by_type(Vec::new()))
                );
            } else if digest {
                println!("{}", fnv1a(serde_json::to_string(&world)?.as_bytes()));
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

/// A World, or an object with a `world` field whose other fields are ignored.
struct WorldDocument(World);

impl<'de> Deserialize<'de> for WorldDocument {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(WorldDocumentVisitor)
    }
}

struct WorldDocumentVisitor;

impl<'de> Visitor<'de> for WorldDocumentVisitor {
    type Value = WorldDocument;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a World ({\"dims\": ..., \"cells\": ...}) or an object with a \"world\" field")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WorldDocument, A::Error> {
        let mut dims: Option<(i64, i64)> = None;
        let mut cells = None;
        let mut wrap = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "world" => return finish_with_world(map),
                "dims" => dims = Some(map.next_value()?),
                "cells" => cells = Some(map.next_value()?),
                "wrap" => wrap = Some(map.next_value()?),
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        let dims = dims.ok_or_else(|| de::Error::missing_field("dims"))?;
        let cells = cells.ok_or_else(|| de::Error::missing_field("cells"))?;
        let shape =
            crate::world::Shape::new(dims, wrap.unwrap_or(true)).map_err(de::Error::custom)?;
        World::new(shape, cells)
            .map(WorldDocument)
            .map_err(de::Error::custom)
    }
}

/// Reads the `world` field's value and skips the rest of the object.
fn finish_with_world<'de, A: MapAccess<'de>>(mut map: A) -> Result<WorldDocument, A::Error> {
    let world: World = map.next_value()?;
    while map.next_key::<de::IgnoredAny>()?.is_some() {
        map.next_value::<de::IgnoredAny>()?;
    }
    Ok(WorldDocument(world))
}

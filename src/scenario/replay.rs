//! Replays: a whole game in one file, compact and versioned.
//!
//! A replay holds the scenario's text, the image of every robot's program
//! (so a debugger has their symbols and source maps) and the world after
//! every step. Trees are stored once in a node table shared by all steps
//! (a register that does not change costs nothing from step to step), and
//! each step after the first lists only the squares that changed, so a
//! long game of a busy world stays small.
//!
//! ```json
//! {"format": "constree-replay", "version": 1, "name": "Harvest",
//!  "scenario": "…the scenario's TOML…",
//!  "images": [{"program": "red.cta", "image": {…a .ctm image…}}],
//!  "nodes": [[0, 0], …],
//!  "start": {"dims": [8, 4], "wrap": true, "cells": [{"robots": […]}, {}, null, …]},
//!  "steps": [[[0, {"robots": […], "items": […]}], [1, {}]], …]}
//! ```

use crate::image::Image;
use crate::image::format::check_format;
use crate::machine::Register;
use crate::tree::Tree;
use crate::tree::{NodeTable, trees_from_nodes};
use crate::world::{Cell, Frame, Item, Processor, Robot, Shape, Square, World};
use serde::{Deserialize, Serialize};
use std::path::Path;

const FORMAT: &str = "constree-replay";
const VERSION: u32 = 1;

/// A recorded game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The scenario's name.
    pub name: String,
    /// The scenario's text.
    pub scenario: String,
    /// Each program, as the scenario names it, and its image.
    pub images: Vec<(String, Image)>,
    /// The world before the first step, then after each step.
    pub worlds: Vec<World>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    name: String,
    scenario: String,
    images: Vec<ImageEntry>,
    nodes: Vec<(u64, u64)>,
    /// The world before the first step (absent in an empty replay).
    start: Option<WorldJson>,
    /// For each step: the squares that changed, `[cell, square or null]`.
    steps: Vec<Vec<(usize, Option<SquareJson>)>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageEntry {
    program: String,
    image: serde_json::Value,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WorldJson {
    dims: (i64, i64),
    wrap: bool,
    cells: Vec<Option<SquareJson>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SquareJson {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    robots: Vec<RobotJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    items: Vec<ItemJson>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RobotJson {
    frame: Frame,
    inventory: Vec<ItemJson>,
    processor: Processor,
    memory: Vec<(i64, u64)>,
}

/// An item, with a register part's contents as a node id.
#[derive(Serialize, Deserialize)]
enum ItemJson {
    Cargo(i64, i64),
    ProcessorPart(Processor),
    RegisterPart(i64, u64),
    FramePart(Frame),
    Shield,
}

/// Why a replay could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ReplayError(pub String);

fn item_json(item: &Item, table: &mut NodeTable) -> ItemJson {
    match item {
        Item::Cargo(t, w) => ItemJson::Cargo(*t, *w),
        Item::ProcessorPart(p) => ItemJson::ProcessorPart(*p),
        Item::RegisterPart(r) => ItemJson::RegisterPart(r.limit, table.id(&r.contents)),
        Item::FramePart(f) => ItemJson::FramePart(*f),
        Item::Shield => ItemJson::Shield,
    }
}

fn square_json(sq: &Square, table: &mut NodeTable) -> SquareJson {
    SquareJson {
        robots: sq
            .robots
            .iter()
            .map(|r| RobotJson {
                frame: r.frame,
                inventory: r.inventory.iter().map(|i| item_json(i, table)).collect(),
                processor: r.processor,
                memory: r
                    .memory
                    .iter()
                    .map(|m| (m.limit, table.id(&m.contents)))
                    .collect(),
            })
            .collect(),
        items: sq.items.iter().map(|i| item_json(i, table)).collect(),
    }
}

fn cell_json(cell: &Cell, table: &mut NodeTable) -> Option<SquareJson> {
    cell.as_ref().map(|sq| square_json(sq, table))
}

/// Rebuilds trees, items and squares from their ids.
struct Reader {
    trees: Vec<Tree>,
}

impl Reader {
    fn tree(&self, id: u64) -> Result<Tree, ReplayError> {
        self.trees
            .get(id as usize)
            .cloned()
            .ok_or_else(|| ReplayError(format!("corrupt replay: node {id} does not exist")))
    }

    fn item(&self, i: &ItemJson) -> Result<Item, ReplayError> {
        Ok(match i {
            ItemJson::Cargo(t, w) => Item::Cargo(*t, *w),
            ItemJson::ProcessorPart(p) => Item::ProcessorPart(*p),
            ItemJson::RegisterPart(limit, id) => {
                Item::RegisterPart(Register::new(*limit, self.tree(*id)?))
            }
            ItemJson::FramePart(f) => Item::FramePart(*f),
            ItemJson::Shield => Item::Shield,
        })
    }

    fn robot(&self, r: &RobotJson) -> Result<Robot, ReplayError> {
        Ok(Robot {
            frame: r.frame,
            inventory: r
                .inventory
                .iter()
                .map(|i| self.item(i))
                .collect::<Result<_, _>>()?,
            processor: r.processor,
            memory: r
                .memory
                .iter()
                .map(|(l, id)| Ok(Register::new(*l, self.tree(*id)?)))
                .collect::<Result<_, ReplayError>>()?,
        })
    }

    fn cell(&self, c: &Option<SquareJson>) -> Result<Cell, ReplayError> {
        let Some(sq) = c else { return Ok(None) };
        Ok(Some(Square {
            robots: sq
                .robots
                .iter()
                .map(|r| self.robot(r))
                .collect::<Result<_, _>>()?,
            items: sq
                .items
                .iter()
                .map(|i| self.item(i))
                .collect::<Result<_, _>>()?,
        }))
    }
}

impl Replay {
    /// The replay's JSON text.
    pub fn to_json(&self) -> String {
        let mut table = NodeTable::default();
        let start = self.worlds.first().map(|w| WorldJson {
            dims: w.shape().dims(),
            wrap: w.shape().wraps(),
            cells: w.cells.iter().map(|c| cell_json(c, &mut table)).collect(),
        });
        let steps = self
            .worlds
            .windows(2)
            .map(|pair| {
                let (before, after) = (&pair[0].cells, &pair[1].cells);
                (0..after.len())
                    .filter(|&k| before.get(k) != Some(&after[k]))
                    .map(|k| (k, cell_json(&after[k], &mut table)))
                    .collect()
            })
            .collect();
        let file = File {
            format: FORMAT.into(),
            version: VERSION,
            name: self.name.clone(),
            scenario: self.scenario.clone(),
            images: self
                .images
                .iter()
                .map(|(program, image)| ImageEntry {
                    program: program.clone(),
                    image: serde_json::from_str(&crate::image::format::to_json(image))
                        .unwrap_or_default(),
                })
                .collect(),
            nodes: table.into_nodes(),
            start,
            steps,
        };
        let mut text = serde_json::to_string(&file).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a replay from its JSON text, checking that it holds together.
    pub fn from_json(text: &str) -> Result<Replay, ReplayError> {
        check_format(text, FORMAT, VERSION, "replay").map_err(ReplayError)?;
        let file: File = serde_json::from_str(text)
            .map_err(|e| ReplayError(format!("not a constree replay: {e}")))?;
        let trees = trees_from_nodes(&file.nodes)
            .map_err(|e| ReplayError(format!("corrupt replay: {e}")))?;
        let reader = Reader { trees };
        let mut worlds = Vec::with_capacity(file.steps.len() + 1);
        if let Some(start) = &file.start {
            let shape = Shape::new(start.dims, start.wrap)
                .map_err(|e| ReplayError(format!("corrupt replay: the start: {e}")))?;
            let cells = start
                .cells
                .iter()
                .map(|c| reader.cell(c))
                .collect::<Result<Vec<Cell>, _>>()?;
            let mut world = World::new(shape, cells)
                .map_err(|e| ReplayError(format!("corrupt replay: the start: {e}")))?;
            worlds.push(world.clone());
            for (k, changes) in file.steps.iter().enumerate() {
                for (cell, square) in changes {
                    let slot = world.cells.get_mut(*cell).ok_or_else(|| {
                        ReplayError(format!(
                            "corrupt replay: step {}: there is no cell {cell}",
                            k + 1
                        ))
                    })?;
                    *slot = reader.cell(square)?;
                }
                worlds.push(world.clone());
            }
        } else if !file.steps.is_empty() {
            return Err(ReplayError(
                "corrupt replay: steps without a starting world".into(),
            ));
        }
        let images = file
            .images
            .iter()
            .map(|e| {
                crate::image::format::from_json(&e.image.to_string())
                    .map(|image| (e.program.clone(), image))
                    .map_err(|err| {
                        ReplayError(format!(
                            "corrupt replay: the image of `{}`: {err}",
                            e.program
                        ))
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(Replay {
            name: file.name,
            scenario: file.scenario,
            images,
            worlds,
        })
    }

    /// The recorded scenario, its programs taken from the recorded images.
    pub fn scenario(&self) -> Result<super::Scenario, super::ScenarioError> {
        let programs = |name: &str| {
            self.images
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, image)| image.clone())
                .ok_or_else(|| format!("the replay has no image of {name}"))
        };
        super::Scenario::from_text(&self.name, &self.scenario, &programs)
    }

    /// Reads a replay file.
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let text = crate::files::read_input_text(path).map_err(ReplayError)?;
        Replay::from_json(&text)
            .map_err(|e| ReplayError(format!("{}: {}", crate::files::display(path), e.0)))
    }

    /// Writes a replay file, safely (see [`crate::files`]).
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        crate::files::write_output(path, self.to_json().as_bytes())
            .map_err(|e| ReplayError(format!("{}: {e}", path.display())))
    }
}

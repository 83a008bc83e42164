//! Replays: a whole game in one file, compact and versioned.
//!
//! A replay holds the scenario's text, the image of every robot's program
//! (so a debugger has their symbols and source maps) and the world after
//! every step. Trees are stored once in a node table shared by all steps
//! (a register that does not change costs nothing from step to step), so a
//! long game of a busy world stays small.

use crate::image::Image;
use crate::image::format::{NodeTable, trees_from_nodes, write_atomically};
use crate::machine::Register;
use crate::tree::Tree;
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
    worlds: Vec<WorldJson>,
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
    robots: Vec<RobotJson>,
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

fn world_json(world: &World, table: &mut NodeTable) -> WorldJson {
    let shape = world.shape();
    WorldJson {
        dims: shape.dims(),
        wrap: shape.wraps(),
        cells: world
            .cells
            .iter()
            .map(|c| {
                c.as_ref().map(|sq| SquareJson {
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
                })
            })
            .collect(),
    }
}

impl Replay {
    /// The replay's JSON text.
    pub fn to_json(&self) -> String {
        let mut table = NodeTable::default();
        let worlds = self
            .worlds
            .iter()
            .map(|w| world_json(w, &mut table))
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
            worlds,
        };
        let mut text = serde_json::to_string(&file).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a replay from its JSON text, checking that it holds together.
    pub fn from_json(text: &str) -> Result<Replay, ReplayError> {
        let file: File = serde_json::from_str(text)
            .map_err(|e| ReplayError(format!("not a constree replay: {e}")))?;
        if file.format != FORMAT {
            return Err(ReplayError(format!(
                "format is {:?}, expected {FORMAT:?}",
                file.format
            )));
        }
        if file.version != VERSION {
            return Err(ReplayError(format!(
                "replay version {} is not supported (this constree reads version {VERSION})",
                file.version
            )));
        }
        let trees = trees_from_nodes(&file.nodes)
            .map_err(|e| ReplayError(format!("corrupt replay: {e}")))?;
        let tree = |id: u64| -> Result<Tree, ReplayError> {
            trees
                .get(id as usize)
                .cloned()
                .ok_or_else(|| ReplayError(format!("corrupt replay: node {id} does not exist")))
        };
        let item = |i: &ItemJson| -> Result<Item, ReplayError> {
            Ok(match i {
                ItemJson::Cargo(t, w) => Item::Cargo(*t, *w),
                ItemJson::ProcessorPart(p) => Item::ProcessorPart(*p),
                ItemJson::RegisterPart(limit, id) => {
                    Item::RegisterPart(Register::new(*limit, tree(*id)?))
                }
                ItemJson::FramePart(f) => Item::FramePart(*f),
                ItemJson::Shield => Item::Shield,
            })
        };
        let mut worlds = Vec::with_capacity(file.worlds.len());
        for (k, w) in file.worlds.iter().enumerate() {
            let shape = Shape::new(w.dims, w.wrap)
                .map_err(|e| ReplayError(format!("corrupt replay: world {k}: {e}")))?;
            let cells = w
                .cells
                .iter()
                .map(|c| -> Result<Cell, ReplayError> {
                    let Some(sq) = c else { return Ok(None) };
                    Ok(Some(Square {
                        robots: sq
                            .robots
                            .iter()
                            .map(|r| {
                                Ok(Robot {
                                    frame: r.frame,
                                    inventory: r
                                        .inventory
                                        .iter()
                                        .map(item)
                                        .collect::<Result<_, _>>()?,
                                    processor: r.processor,
                                    memory: r
                                        .memory
                                        .iter()
                                        .map(|(l, id)| Ok(Register::new(*l, tree(*id)?)))
                                        .collect::<Result<_, ReplayError>>()?,
                                })
                            })
                            .collect::<Result<_, ReplayError>>()?,
                        items: sq.items.iter().map(item).collect::<Result<_, _>>()?,
                    }))
                })
                .collect::<Result<Vec<Cell>, _>>()?;
            worlds.push(
                World::new(shape, cells)
                    .map_err(|e| ReplayError(format!("corrupt replay: world {k}: {e}")))?,
            );
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

    /// Reads a replay file.
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ReplayError(format!("{}: {e}", path.display())))?;
        Replay::from_json(&text).map_err(|e| ReplayError(format!("{}: {}", path.display(), e.0)))
    }

    /// Writes a replay file, atomically.
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        write_atomically(path, self.to_json().as_bytes())
            .map_err(|e| ReplayError(format!("{}: {e}", path.display())))
    }
}

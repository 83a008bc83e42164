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

use crate::diagnostic::Code;
use crate::image::Image;
use crate::image::format::check_format;
use crate::machine::Register;
use crate::tree::Tree;
use crate::tree::{NodeTable, trees_from_nodes};
use crate::world::{Cell, Frame, Item, Processor, Robot, Shape, Square, World};
use serde::{Deserialize, Serialize};
use std::path::Path;

const FORMAT: &str = "constree-replay";
/// Version 2: the images carry their sources.
const VERSION: u32 = 2;

/// The oldest version read: version 1 replays' images carry no sources.
const OLDEST: u32 = 1;

/// A recorded game. Its worlds (the start, then the world after each step)
/// are held as the first world and, for each step, the squares that
/// changed: the memory a replay takes grows with what changes in the game,
/// not with its length times the world's size. [`Replay::world`] and
/// [`Replay::worlds`] rebuild them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The scenario's name.
    pub name: String,
    /// The scenario's text.
    pub scenario: String,
    /// Each program, as the scenario names it, and its image.
    pub images: Vec<(String, Image)>,
    /// The world before the first step.
    start: Option<World>,
    /// For each step, the cells that changed and what they became.
    steps: Steps<Cell>,
    /// The last world (the start when there is no step).
    last: Option<World>,
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
    steps: Steps<Option<SquareJson>>,
}

/// A list of steps, each a list of `(cell, value)` changes, kept in one
/// flat list: a step costs a word besides its changes, so a replay of
/// millions of steps that change nothing stays small, in memory and while
/// it is read (written as a JSON list of lists).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Steps<T> {
    changes: Vec<(usize, T)>,
    /// Where each step's changes end in `changes`.
    ends: Vec<usize>,
}

impl<T> Default for Steps<T> {
    fn default() -> Self {
        Steps {
            changes: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl<T> Steps<T> {
    fn push(&mut self, step: impl IntoIterator<Item = (usize, T)>) {
        self.changes.extend(step);
        self.ends.push(self.changes.len());
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Each step's changes, in order.
    fn iter(&self) -> impl Iterator<Item = &[(usize, T)]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.changes[start..end])
    }
}

impl<T: Serialize> Serialize for Steps<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Steps<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{DeserializeSeed, SeqAccess, Visitor};
        use std::marker::PhantomData;
        struct Outer<T>(PhantomData<T>);
        /// One step, appended to the flat list.
        struct Step<'a, T>(&'a mut Vec<(usize, T)>);
        impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Step<'_, T> {
            type Value = ();
            fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_seq(self)
            }
        }
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Step<'_, T> {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of [cell, square] changes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
                while let Some(change) = seq.next_element()? {
                    self.0.push(change);
                }
                Ok(())
            }
        }
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Outer<T> {
            type Value = Steps<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of steps")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Steps<T>, A::Error> {
                let mut steps = Steps::default();
                while seq.next_element_seed(Step(&mut steps.changes))?.is_some() {
                    steps.ends.push(steps.changes.len());
                }
                Ok(steps)
            }
        }
        deserializer.deserialize_seq(Outer(PhantomData))
    }
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

/// Why a replay could not be read or written: each kind is a diagnostic
/// of its own code (`E110.`, see [`ReplayError::code`]).
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file could not be written.
    #[error("{path}: {reason}")]
    Write {
        /// The file, as shown.
        path: String,
        /// Why.
        reason: String,
    },
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] crate::files::ReadError),
    /// A file of another format, or a replay of a version not read.
    #[error(transparent)]
    Unsupported(#[from] crate::image::format::FormatError),
    /// Not valid JSON, or not a replay's fields.
    #[error("not a constree replay: {reason}")]
    Json {
        /// serde_json's words.
        reason: String,
        /// Its 1-based line and column.
        at: (usize, usize),
    },
    /// Valid JSON whose contents do not hold together: what does not.
    #[error("corrupt replay: {0}")]
    Corrupt(String),
    /// An error of one file, with its text when the error has a place in it.
    #[error("{name}: {error}")]
    File {
        /// The file, as shown.
        name: String,
        /// Its text, for a JSON error with a line and column.
        text: Option<String>,
        /// Why.
        error: Box<ReplayError>,
    },
}

impl ReplayError {
    /// The code of its kind.
    pub fn code(&self) -> Code {
        match self {
            ReplayError::Write { .. } => Code::E1100,
            ReplayError::Read(_) => Code::E1101,
            ReplayError::Json { .. } => Code::E1102,
            ReplayError::Unsupported(_) => Code::E1103,
            ReplayError::Corrupt(_) => Code::E1104,
            ReplayError::File { error, .. } => error.code(),
        }
    }
}

crate::diagnostic::file_error!(ReplayError);

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

/// The cells of `after` that differ from `before`'s, in order.
fn changes(before: &[Cell], after: &[Cell]) -> Vec<(usize, Cell)> {
    (0..after.len())
        .filter(|&k| before.get(k) != Some(&after[k]))
        .map(|k| (k, after[k].clone()))
        .collect()
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
            .ok_or_else(|| ReplayError::Corrupt(format!("node {id} does not exist")))
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
    /// A replay with no world yet: [`Replay::push`] adds them.
    pub fn new(name: String, scenario: String, images: Vec<(String, Image)>) -> Replay {
        Replay {
            name,
            scenario,
            images,
            start: None,
            steps: Steps::default(),
            last: None,
        }
    }

    /// Adds the next world of the game: the first is the start, each later
    /// one is kept as the squares that differ from the world before it (the
    /// worlds of a game have one shape).
    pub fn push(&mut self, world: &World) {
        match &mut self.last {
            None => {
                self.start = Some(world.clone());
                self.last = Some(world.clone());
            }
            Some(last) => {
                self.steps.push(changes(&last.cells, &world.cells));
                *last = world.clone();
            }
        }
    }

    /// How many worlds there are: the start and one per step (0 for an
    /// empty replay).
    pub fn len(&self) -> usize {
        self.start.as_ref().map_or(0, |_| self.steps.len() + 1)
    }

    /// Whether the replay holds no world.
    pub fn is_empty(&self) -> bool {
        self.start.is_none()
    }

    /// The world before the first step.
    pub fn first_world(&self) -> Option<&World> {
        self.start.as_ref()
    }

    /// The world after the last step.
    pub fn last_world(&self) -> Option<&World> {
        self.last.as_ref()
    }

    /// World `k` (0 is the start), rebuilt from the start and the changes
    /// of the steps up to `k`.
    pub fn world(&self, k: usize) -> Option<World> {
        let mut world = self.start.clone()?;
        if k > self.steps.len() {
            return None;
        }
        for changes in self.steps.iter().take(k) {
            for (cell, square) in changes {
                world.cells[*cell] = square.clone();
            }
        }
        Some(world)
    }

    /// Every world, the start first, each rebuilt from the one before.
    pub fn worlds(&self) -> impl Iterator<Item = World> + '_ {
        let mut world = self.start.clone();
        let mut steps = self.steps.iter();
        std::iter::from_fn(move || {
            let current = world.clone()?;
            world = steps.next().map(|changes| {
                let mut next = current.clone();
                for (k, cell) in changes {
                    next.cells[*k] = cell.clone();
                }
                next
            });
            Some(current)
        })
    }

    /// The replay's JSON text.
    pub fn to_json(&self) -> String {
        let mut table = NodeTable::default();
        let start = self.start.as_ref().map(|w| WorldJson {
            dims: w.shape().dims(),
            wrap: w.shape().wraps(),
            cells: w.cells.iter().map(|c| cell_json(c, &mut table)).collect(),
        });
        let mut steps = Steps::default();
        for changes in self.steps.iter() {
            steps.push(
                changes
                    .iter()
                    .map(|(k, cell)| (*k, cell_json(cell, &mut table))),
            );
        }
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
        check_format(text, FORMAT, OLDEST..=VERSION, "replay")?;
        let file: File = serde_json::from_str(text).map_err(|e| ReplayError::Json {
            reason: e.to_string(),
            at: (e.line(), e.column()),
        })?;
        let trees =
            trees_from_nodes(&file.nodes).map_err(|e| ReplayError::Corrupt(e.to_string()))?;
        let reader = Reader { trees };
        let mut replay = Replay::new(file.name, file.scenario, Vec::new());
        if let Some(start) = &file.start {
            let shape = Shape::new(start.dims, start.wrap)
                .map_err(|e| ReplayError::Corrupt(format!("the start: {e}")))?;
            let cells = start
                .cells
                .iter()
                .map(|c| reader.cell(c))
                .collect::<Result<Vec<Cell>, _>>()?;
            let mut world = World::new(shape, cells)
                .map_err(|e| ReplayError::Corrupt(format!("the start: {e}")))?;
            replay.push(&world);
            // One world is kept as it changes: the changes of each step are
            // all that is stored (those that change nothing are dropped).
            for (k, changes) in file.steps.iter().enumerate() {
                let mut step = changes
                    .iter()
                    .map(|(cell, square)| {
                        if *cell >= world.cells.len() {
                            return Err(ReplayError::Corrupt(format!(
                                "step {}: there is no cell {cell}",
                                k + 1
                            )));
                        }
                        Ok((*cell, reader.cell(square)?))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                // A cell named twice takes its last value.
                step.reverse();
                step.sort_by_key(|(cell, _)| *cell);
                step.dedup_by_key(|(cell, _)| *cell);
                step.retain(|(cell, square)| world.cells[*cell] != *square);
                for (cell, square) in &step {
                    world.cells[*cell] = square.clone();
                }
                replay.steps.push(step);
            }
            replay.last = Some(world);
        } else if !file.steps.is_empty() {
            return Err(ReplayError::Corrupt(
                "steps without a starting world".into(),
            ));
        }
        replay.images = file
            .images
            .iter()
            .map(|e| {
                crate::image::format::from_json(&e.image.to_string())
                    .map(|image| (e.program.clone(), image))
                    .map_err(|err| {
                        ReplayError::Corrupt(format!("the image of `{}`: {err}", e.program))
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(replay)
    }

    /// The recorded scenario, its programs taken from the recorded images.
    pub fn scenario(&self) -> Result<super::Scenario, super::ScenarioError> {
        let programs = |name: &str| {
            self.images
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, image)| image.clone())
                .ok_or_else(|| format!("the replay has no image of {name}").into())
        };
        super::Scenario::from_text(&self.name, &self.scenario, &programs)
    }

    /// Reads a replay file.
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let text = crate::files::read_input_text(path)?;
        Replay::from_json(&text).map_err(|error| ReplayError::File {
            name: crate::files::display(path),
            text: matches!(error, ReplayError::Json { .. }).then(|| text.clone()),
            error: Box::new(error),
        })
    }

    /// Writes a replay file, safely (see [`crate::files`]).
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        crate::files::write_output(path, self.to_json().as_bytes()).map_err(|e| {
            ReplayError::Write {
                path: path.display().to_string(),
                reason: e.to_string(),
            }
        })
    }
}

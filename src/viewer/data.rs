//! The data a viewer page embeds: the start world and, for each step, the
//! squares whose view changed, every robot with its readings (see
//! [`super::readings`]); the scores after every step; the game's events.
//!
//! The game is played again from the recorded scenario by the engine (so
//! that commands, actions and source lines are the engine's and the
//! debugger's), and every world it reaches is checked against the
//! replay's.

use super::readings::{self, Programs};
use crate::debugger::source::Program;
use crate::machine::MachineError;
use crate::scenario::game::score_players;
use crate::scenario::replay::Replay;
use crate::scenario::{ItemValues, Scenario};
use crate::tree::Tree;
use crate::world::step::{Origin, RobotStep};
use crate::world::{Action, Cell, Color, Item, Robot, World, update_reported};
use serde::Serialize;
use std::collections::HashMap;
use std::rc::Rc;

/// Why a replay cannot be viewed (each kind is code `E1105` at the command
/// line).
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// The replay holds no world at all.
    #[error("{file}: the replay holds no world")]
    NoWorld {
        /// The replay, as shown.
        file: String,
    },
    /// The replay's scenario does not load.
    #[error("{file}: {error}")]
    Scenario {
        /// The replay, as shown.
        file: String,
        /// Why the scenario does not load.
        error: crate::scenario::ScenarioError,
    },
    /// The recorded start is not the world its scenario makes.
    #[error("{file}: the recorded start differs from its scenario's")]
    StartDiffers {
        /// The replay, as shown.
        file: String,
    },
    /// A recorded step is not what the engine makes of the step before.
    #[error("{file}: step {step} of the replay is not what the engine makes of step {}", step - 1)]
    StepDiffers {
        /// The replay, as shown.
        file: String,
        /// The step that differs (1 or more).
        step: usize,
    },
    /// The page's data cannot be written as JSON.
    #[error("the page's data cannot be written: {0}")]
    Data(#[from] serde_json::Error),
    /// The page template lacks one of its markers.
    #[error("the page template lacks {0}")]
    Template(&'static str),
}

/// Distinct texts, each stored once; robots and items refer to them by
/// index.
#[derive(Default)]
struct Texts {
    index: HashMap<String, u32>,
    list: Vec<String>,
}

impl Texts {
    fn id(&mut self, text: String) -> u32 {
        if let Some(&k) = self.index.get(&text) {
            return k;
        }
        let k = self.list.len() as u32;
        self.list.push(text.clone());
        self.index.insert(text, k);
        k
    }
}

/// An item as the page draws it.
#[derive(Serialize)]
struct ItemView {
    /// `cargo`, `shield`, `frame`, `processor` or `register`.
    kind: &'static str,
    /// The debugger's reading.
    text: String,
    /// Its value under the scenario.
    value: i64,
}

/// A robot as the page shows it after a step.
#[derive(Serialize)]
struct RobotView {
    /// Its identity across steps.
    id: u32,
    /// Its frame's colour (index into `colors`).
    c: u8,
    /// Strength and speed.
    s: i64,
    v: i64,
    /// What it carries (indices into `items`).
    inv: Vec<u32>,
    /// The command it gave in the step, and the action (texts), and the
    /// marker of the action; absent at the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    a: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    m: Option<&'static str>,
    /// How its machine's run ended (a text).
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<u32>,
    /// Register names (index into `names`) and readings (texts).
    n: u32,
    r: Vec<u32>,
    /// The input, decoded (a text).
    #[serde(skip_serializing_if = "Option::is_none")]
    i: Option<u32>,
    /// The source line its machine stopped on (a text).
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<u32>,
}

/// A square as the page shows it.
#[derive(Serialize)]
struct SquareView {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    r: Vec<RobotView>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    i: Vec<u32>,
}

/// Something that happened in a step, for the list of events.
#[derive(Serialize)]
struct Event {
    step: usize,
    /// `built`, `destroyed`, `lifted` or `dropped`.
    kind: &'static str,
    text: String,
    /// The robot that did it, and its square (x, y).
    robot: u32,
    x: i64,
    y: i64,
}

/// What the page knows besides the squares.
#[derive(Serialize)]
struct Meta<'a> {
    name: &'a str,
    /// The replay file, as given (for the debugger's command line).
    file: &'a str,
    /// Whether the replay has a scenario (the debugger needs one).
    debug: bool,
    dims: (i64, i64),
    wrap: bool,
    steps: usize,
    colors: Vec<&'static str>,
    players: Vec<PlayerView>,
    /// Per world (the start first): each player's score.
    scores: Vec<Vec<i64>>,
    marks: Vec<(String, i64, i64)>,
    /// The scenario's robots by identity: their names.
    robots: HashMap<u32, String>,
    events: Vec<Event>,
    items: Vec<ItemView>,
    names: Vec<Vec<String>>,
    texts: Vec<String>,
}

#[derive(Serialize)]
struct PlayerView {
    name: String,
    color: Option<&'static str>,
    homes: Vec<(i64, i64)>,
}

/// The marker of an action: what the page draws on a robot.
fn marker(action: &Action) -> Option<&'static str> {
    Some(match action {
        Action::Passed => return None,
        Action::Created => "created",
        Action::MovedIn(_) | Action::MovedOut(_) => "moved",
        Action::Lifted(_) => "lifted",
        Action::Dropped(_) => "dropped",
        Action::Inspected(..) => "inspected",
        Action::Destroyed(_) => "destroyed",
        Action::Built(..) => "built",
        Action::MoveBlocked(_) | Action::InspectBlocked(_) | Action::DestroyBlocked(_) => "blocked",
        Action::CannotFit(_)
        | Action::GrappledOver(_)
        | Action::InspectTargetFled(_)
        | Action::DestroyTargetFled(_)
        | Action::BuildInterrupted(_)
        | Action::Invalid => "failed",
    })
}

fn item_kind(item: &Item) -> &'static str {
    match item {
        Item::Cargo(..) => "cargo",
        Item::Shield => "shield",
        Item::FramePart(_) => "frame",
        Item::ProcessorPart(_) => "processor",
        Item::RegisterPart(_) => "register",
    }
}

/// Builds the page's data as it walks the game.
struct Builder {
    values: ItemValues,
    texts: Texts,
    items: Vec<ItemView>,
    item_index: HashMap<String, u32>,
    names: Vec<Vec<String>>,
    names_index: HashMap<Vec<String>, u32>,
    /// Readings of trees by node: the tree is kept so its node lives on.
    registers: HashMap<usize, (Tree, u32)>,
    inputs: HashMap<(usize, usize), (Tree, u32)>,
    /// Each robot's program (by identity), when known.
    robots: Vec<Option<Rc<Program>>>,
    programs: Programs,
}

impl Builder {
    fn item(&mut self, item: &Item) -> u32 {
        let text = readings::item(item);
        if let Some(&k) = self.item_index.get(&text) {
            return k;
        }
        let k = self.items.len() as u32;
        self.items.push(ItemView {
            kind: item_kind(item),
            text: text.clone(),
            value: self.values.value(item),
        });
        self.item_index.insert(text, k);
        k
    }

    fn names(&mut self, program: Option<&Program>, count: usize) -> u32 {
        let names = readings::register_names(program, count);
        if let Some(&k) = self.names_index.get(&names) {
            return k;
        }
        let k = self.names.len() as u32;
        self.names.push(names.clone());
        self.names_index.insert(names, k);
        k
    }

    fn register(&mut self, tree: &Tree) -> u32 {
        if let Some((_, k)) = self.registers.get(&tree.node_id()) {
            return *k;
        }
        let k = self.texts.id(readings::register(tree));
        self.registers.insert(tree.node_id(), (tree.clone(), k));
        k
    }

    fn input(&mut self, tree: &Tree, program: Option<&Rc<Program>>, limit: i64) -> u32 {
        let key = (
            tree.node_id(),
            program.map_or(0, |p| Rc::as_ptr(p) as usize),
        );
        if let Some((_, k)) = self.inputs.get(&key) {
            return *k;
        }
        let count = program.map_or(0, |p| p.image.registers.len());
        let names = readings::register_names(program.map(|p| &**p), count);
        let text = readings::input(tree, program.map(|p| &**p), &names, limit);
        let k = self.texts.id(text);
        self.inputs.insert(key, (tree.clone(), k));
        k
    }

    /// A robot's view; `step` is what it did in the step (none at the
    /// start).
    fn robot(&mut self, id: u32, robot: &Robot, step: Option<&RobotStep>) -> RobotView {
        let program = self.robots[id as usize].clone();
        let inv = robot.inventory.iter().map(|i| self.item(i)).collect();
        let n = self.names(program.as_deref(), robot.memory.len());
        let r = robot
            .memory
            .iter()
            .map(|reg| self.register(&reg.contents))
            .collect();
        let input = robot.memory.get(crate::world::robot::INPUT);
        let i = input.map(|reg| self.input(&reg.contents, program.as_ref(), reg.limit));
        let code = robot.memory.get(crate::world::robot::PROGRAM);
        let l = program
            .as_ref()
            .zip(code)
            .and_then(|(p, code)| readings::line(p, &code.contents))
            .map(|t| self.texts.id(t));
        let (k, a, m, run) = match step {
            None => (None, None, None, None),
            Some(s) => {
                let run = match &s.run {
                    Ok(r) if r.halted => format!("halted after {} ticks", r.ticks),
                    Ok(r) => format!("ran {} ticks", r.ticks),
                    Err(e) => format!(
                        "machine error: {}; every register wiped",
                        error_text(program.as_deref(), e)
                    ),
                };
                (
                    Some(self.texts.id(readings::command(s.command.as_ref()))),
                    Some(self.texts.id(readings::action(&s.action))),
                    marker(&s.action),
                    Some(self.texts.id(run)),
                )
            }
        };
        RobotView {
            id,
            c: robot.frame.color as u8,
            s: robot.frame.strength,
            v: robot.processor.speed,
            inv,
            k,
            a,
            m,
            run,
            n,
            r,
            i,
            l,
        }
    }

    /// A square's view, as JSON text (`null` for a wall).
    fn square(&mut self, cell: &Cell, ids: &[u32], steps: Option<&[RobotStep]>) -> String {
        let Some(square) = cell else {
            return "null".to_string();
        };
        let r = square
            .robots
            .iter()
            .enumerate()
            .map(|(k, robot)| self.robot(ids[k], robot, steps.and_then(|s| s.get(k))))
            .collect();
        let i = square.items.iter().map(|i| self.item(i)).collect();
        serde_json::to_string(&SquareView { r, i }).unwrap_or_default()
    }

    /// A new identity, for a robot with this program.
    fn new_robot(&mut self, program: Option<Rc<Program>>) -> u32 {
        self.robots.push(program);
        (self.robots.len() - 1) as u32
    }
}

fn error_text(program: Option<&Program>, e: &MachineError) -> String {
    match program {
        Some(p) => p.image.error_text(e),
        None => e.to_string(),
    }
}

/// The scenario a replay records, if it has one (a world recorded by
/// `world step --record` has none), its start and the places of the
/// scenario's robots in it.
type Start = (Option<Scenario>, World, Vec<(usize, usize)>);

fn start(replay: &Replay, file: &str) -> Result<Start, ViewError> {
    let Some(first) = replay.first_world() else {
        return Err(ViewError::NoWorld { file: file.into() });
    };
    if replay.scenario.trim().is_empty() {
        return Ok((None, first.clone(), Vec::new()));
    }
    let scenario = replay.scenario().map_err(|error| ViewError::Scenario {
        file: file.into(),
        error,
    })?;
    let (world, starts) = scenario.world(scenario.seed);
    if *first != world {
        return Err(ViewError::StartDiffers { file: file.into() });
    }
    Ok((Some(scenario), world, starts))
}

/// The page's data for a replay, as JSON text: the engine plays the
/// recorded game again and every world must be the replay's.
pub fn build(replay: &Replay, file: &str) -> Result<String, ViewError> {
    let (scenario, mut world, starts) = start(replay, file)?;
    let shape = world.shape();
    let setups = scenario.as_ref().map_or(&[][..], |s| &s.robots[..]);
    let players = scenario.as_ref().map_or(&[][..], |s| &s.players[..]);
    let images: Vec<Rc<crate::image::Image>> =
        setups.iter().filter_map(|r| r.image.clone()).collect();
    let mut b = Builder {
        values: scenario
            .as_ref()
            .map(|s| s.values.clone())
            .unwrap_or_default(),
        texts: Texts::default(),
        items: Vec::new(),
        item_index: HashMap::new(),
        names: Vec::new(),
        names_index: HashMap::new(),
        registers: HashMap::new(),
        inputs: HashMap::new(),
        robots: Vec::new(),
        programs: Programs::new(images),
    };
    // Identities: the scenario's robots first, in its order.
    let mut ids: Vec<Vec<u32>> = world
        .cells
        .iter()
        .map(|c| vec![u32::MAX; c.as_ref().map_or(0, |s| s.robots.len())])
        .collect();
    let mut programs_by_image: HashMap<usize, Rc<Program>> = HashMap::new();
    let mut robot_names = HashMap::new();
    for (k, setup) in setups.iter().enumerate() {
        let Some(&(cell, index)) = starts.get(k) else {
            continue;
        };
        let program = setup.image.as_ref().map(|image| {
            programs_by_image
                .entry(Rc::as_ptr(image) as usize)
                .or_insert_with(|| Programs::of_image(image.clone()))
                .clone()
        });
        let id = b.new_robot(program);
        ids[cell][index] = id;
        robot_names.insert(id, setup.name.clone());
    }
    for cell_ids in ids.iter_mut() {
        for id in cell_ids.iter_mut().filter(|id| **id == u32::MAX) {
            *id = b.new_robot(None);
        }
    }
    let score = |world: &World| -> Vec<i64> {
        let Some(scenario) = &scenario else {
            return Vec::new();
        };
        score_players(scenario.scoring, &scenario.values, players, world)
            .iter()
            .map(|s| s.score)
            .collect()
    };
    let mut scores = vec![score(&world)];
    let mut shown: Vec<String> = world
        .cells
        .iter()
        .zip(&ids)
        .map(|(cell, ids)| b.square(cell, ids, None))
        .collect();
    let start = format!("[{}]", shown.join(","));
    let mut changes = String::from("[");
    let mut events = Vec::new();
    let mut recorded = replay.worlds().skip(1);
    let steps = replay.len().saturating_sub(1);
    for step in 1..=steps {
        let (next, report) = update_reported(world.clone());
        if recorded.next().as_ref() != Some(&next) {
            return Err(ViewError::StepDiffers {
                file: file.into(),
                step,
            });
        }
        // Events, from what the robots that began the step did.
        for (cell, began) in report.began.iter().enumerate() {
            for (index, (_, action)) in began.iter().enumerate() {
                let kind = match action {
                    Action::Built(..) => "built",
                    Action::Destroyed(_) => "destroyed",
                    Action::Lifted(_) => "lifted",
                    Action::Dropped(_) => "dropped",
                    _ => continue,
                };
                let robot = ids[cell][index];
                let (x, y) = shape.position(cell);
                let who = robot_names
                    .get(&robot)
                    .cloned()
                    .unwrap_or_else(|| format!("robot {robot}"));
                events.push(Event {
                    step,
                    kind,
                    text: format!("{who} at ({x}, {y}): {}", readings::action(action)),
                    robot,
                    x,
                    y,
                });
            }
        }
        // Identities after the step.
        let mut next_ids: Vec<Vec<u32>> = Vec::with_capacity(ids.len());
        for (cell, robot_steps) in report.cells.iter().enumerate() {
            let mut here = Vec::with_capacity(robot_steps.len());
            for (k, s) in robot_steps.iter().enumerate() {
                let id = match s.origin {
                    Origin::Built(_) => {
                        let memory = next.cells[cell]
                            .as_ref()
                            .and_then(|sq| sq.robots.get(k))
                            .map(|r| r.memory.clone())
                            .unwrap_or_default();
                        let program = b.programs.of_memory(&memory);
                        b.new_robot(program)
                    }
                    origin => origin
                        .source(&shape, cell)
                        .and_then(|(c, i)| ids.get(c)?.get(i).copied())
                        .unwrap_or_else(|| b.new_robot(None)),
                };
                here.push(id);
            }
            next_ids.push(here);
        }
        // The squares whose view changed: those the step changed, and
        // those with robots (their commands and actions are new).
        let mut first = true;
        changes.push('[');
        for cell in 0..next.cells.len() {
            let touched = next.cells[cell] != world.cells[cell]
                || !next_ids[cell].is_empty()
                || !ids[cell].is_empty();
            if !touched {
                continue;
            }
            let view = b.square(
                &next.cells[cell],
                &next_ids[cell],
                Some(&report.cells[cell]),
            );
            if view != shown[cell] {
                if !first {
                    changes.push(',');
                }
                first = false;
                changes.push_str(&format!("[{cell},{view}]"));
                shown[cell] = view;
            }
        }
        changes.push(']');
        if step < steps {
            changes.push(',');
        }
        scores.push(score(&next));
        world = next;
        ids = next_ids;
    }
    changes.push(']');
    let meta = Meta {
        name: &replay.name,
        file,
        debug: scenario.is_some(),
        dims: shape.dims(),
        wrap: shape.wraps(),
        steps,
        colors: Color::ALL.iter().map(|c| c.code()).collect(),
        players: players
            .iter()
            .map(|p| PlayerView {
                name: p.name.clone(),
                color: p.color.map(Color::code),
                homes: p.homes.clone(),
            })
            .collect(),
        scores,
        marks: scenario
            .iter()
            .flat_map(|s| &s.marks)
            .map(|(name, &(x, y))| (name.clone(), x, y))
            .collect(),
        robots: robot_names,
        events,
        items: b.items,
        names: b.names,
        texts: b.texts.list,
    };
    let meta = serde_json::to_string(&meta)?;
    Ok(format!(
        "{{\"meta\":{meta},\"start\":{start},\"changes\":{changes}}}"
    ))
}

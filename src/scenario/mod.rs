//! Scenarios: whole Botworld games in one TOML file (see [`spec`] for the
//! format): the grid, walls and marks, items, robots and their programs,
//! players and their home squares, item values, the number of steps.
//!
//! [`Scenario::load`] checks everything and assembles the programs, so a
//! scenario that loads can be played; errors name the file, line, column
//! and field.
//!
//! [`game`] plays a scenario step by step; [`tournament`] plays many seeded
//! rounds of its `[[slot]]`s between player programs.

pub mod builtin;
mod check;
mod error;
pub mod expect;
pub mod game;
pub mod random;
pub mod replay;
pub mod spec;
pub mod tournament;

pub use error::{ProgramError, ScenarioError};

use crate::diagnostic::{Code, Diagnostic, SourceFile, Sources};
use crate::image::Image;
use crate::machine::Memory;
use crate::world::{
    Cell, Color, Frame, GameConfig, Item, Position, Processor, Robot, Shape, Square, World,
};
use check::Checker;
use error::Locator;
use spec::ScenarioSpec;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Where something is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// On this square.
    At(Position),
    /// On a square drawn at random (from the scenario's seed).
    Random,
}

/// A robot as the scenario starts it.
#[derive(Debug, Clone)]
pub struct RobotSetup {
    /// Its name (`robotN` when the file gives none).
    pub name: String,
    /// Where it starts.
    pub at: Placement,
    /// Its frame.
    pub frame: Frame,
    /// Its processor's speed.
    pub speed: i64,
    /// What it carries.
    pub inventory: Vec<Item>,
    /// Its registers.
    pub memory: Memory,
    /// The image its memory came from (with its symbols and source map).
    pub image: Option<Rc<Image>>,
    /// The program as the scenario names it.
    pub program: Option<String>,
}

impl RobotSetup {
    /// A machine error of this robot in words, its registers named as its
    /// program names them (when it has an image).
    pub fn error_text(&self, error: &crate::machine::MachineError) -> String {
        match &self.image {
            Some(image) => image.error_text(error),
            None => error.to_string(),
        }
    }

    /// The robot.
    pub fn robot(&self) -> Robot {
        Robot {
            frame: self.frame,
            inventory: self.inventory.clone(),
            processor: Processor { speed: self.speed },
            memory: self.memory.clone(),
        }
    }
}

/// A player: their home squares and the colour of their robots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The name.
    pub name: String,
    /// Home squares.
    pub homes: Vec<Position>,
    /// The frame colour of the player's robots, if the scenario gives it
    /// (the `survivors` rule needs it).
    pub color: Option<Color>,
}

/// A player slot for tournaments: where a player's robot starts.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Where the robot starts.
    pub at: Placement,
    /// Its frame.
    pub frame: Frame,
    /// Its speed.
    pub speed: i64,
    /// The player's home squares (empty: where the robot starts).
    pub homes: Vec<Position>,
    /// What the robot carries.
    pub inventory: Vec<Item>,
}

/// How a game is scored: a tournament's rounds, and every scoreboard and
/// expectation of the scenario ([`game::score_players`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// The report's rule: the value of what robots on the home squares carry.
    Home,
    /// The pRobot rule: 3 points when one owner's robots alone survive, 2
    /// each when two owners' do, 1 to each survivor otherwise.
    Survivors,
}

impl Scoring {
    /// The rule's name in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Home => "home",
            Scoring::Survivors => "survivors",
        }
    }
}

/// Caps for untrusted programs (the scenario's `[limits]`): no processor
/// faster, no register larger. `None`: no cap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// The fastest processor allowed (ticks per step).
    pub speed: Option<i64>,
    /// The largest register limit allowed (conses).
    pub register: Option<i64>,
}

impl Limits {
    /// A register limit over the cap.
    pub fn check_register(&self, what: &str, limit: i64) -> Result<(), OverCap> {
        OverCap::check(what, limit, self.register, "register")
    }

    /// A speed over the cap.
    pub fn check_speed(&self, what: &str, speed: i64) -> Result<(), OverCap> {
        OverCap::check(what, speed, self.speed, "speed")
    }
}

/// A speed or register limit over a scenario's cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverCap {
    /// The key of `[limits]`: `speed` or `register`.
    pub key: &'static str,
    /// What is over the cap, and by how much.
    pub message: String,
}

impl OverCap {
    fn check(what: &str, value: i64, cap: Option<i64>, key: &'static str) -> Result<(), OverCap> {
        match cap {
            Some(cap) if value > cap => Err(OverCap {
                key,
                message: format!("{what} is {value}, over the cap of {cap}"),
            }),
            _ => Ok(()),
        }
    }
}

impl std::fmt::Display for OverCap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (`[limits] {}`)", self.message, self.key)
    }
}

/// What items are worth.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemValues {
    /// Cargo values by type; a type not listed is worth its type.
    pub cargo: BTreeMap<i64, i64>,
    /// A shield's value.
    pub shield: i64,
    /// A frame's value.
    pub frame: i64,
    /// A processor's value.
    pub processor: i64,
    /// A register's value.
    pub register: i64,
}

impl ItemValues {
    /// The value of an item.
    pub fn value(&self, item: &Item) -> i64 {
        match item {
            Item::Cargo(t, _) => self.cargo.get(t).copied().unwrap_or(*t),
            Item::Shield => self.shield,
            Item::FramePart(_) => self.frame,
            Item::ProcessorPart(_) => self.processor,
            Item::RegisterPart(_) => self.register,
        }
    }

    /// The report's game configuration: one entry per home square.
    pub fn config(&self, players: &[Player]) -> GameConfig {
        let values = self.clone();
        GameConfig {
            players: players
                .iter()
                .flat_map(|p| p.homes.iter().map(|h| (*h, p.name.clone())))
                .collect(),
            valuer: Box::new(move |item| values.value(item)),
        }
    }
}

/// A checked scenario, its programs assembled.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Its title.
    pub name: String,
    /// The file it came from.
    pub file: String,
    /// Game steps to play.
    pub steps: u64,
    /// Seed of the random placements.
    pub seed: u64,
    /// The grid's shape.
    pub shape: Shape,
    /// Per cell: a wall?
    pub walls: Vec<bool>,
    /// Marks on the map, by name.
    pub marks: BTreeMap<String, Position>,
    /// Item values.
    pub values: ItemValues,
    /// Items and where they lie.
    pub items: Vec<(Placement, Item)>,
    /// Robots.
    pub robots: Vec<RobotSetup>,
    /// Players.
    pub players: Vec<Player>,
    /// Player slots for tournaments.
    pub slots: Vec<Slot>,
    /// The tournament scoring rule.
    pub scoring: Scoring,
    /// Caps on speeds and register limits.
    pub limits: Limits,
    /// What `constree test` checks (`[expect]`), if anything.
    pub expect: Option<expect::Expectations>,
}

/// Loads the programs a scenario names: a `.cta` source is assembled, a
/// `.ctm` image read.
pub type ProgramLoader<'a> = &'a dyn Fn(&str) -> Result<Image, ProgramError>;

/// How a scenario's `.cta` programs are assembled.
#[derive(Clone, Debug, Default)]
pub struct Assembling {
    /// The standard library's folder (the built-in one when `None`).
    pub stdlib: Option<std::path::PathBuf>,
    /// Whether a program with warnings is refused, as one with errors
    /// (`--deny warnings`).
    pub deny_warnings: bool,
}

/// A robot's program: an image read from a `.ctm` file, or a `.cta` source
/// assembled (the error then holds the assembler's diagnostics).
pub fn load_program(
    loader: &dyn crate::asm::source::Loader,
    path: &std::path::Path,
) -> Result<Image, ProgramError> {
    load_program_denying(loader, path, false)
}

/// [`load_program`]; under `deny_warnings` a program with warnings is
/// refused too.
pub fn load_program_denying(
    loader: &dyn crate::asm::source::Loader,
    path: &std::path::Path,
    deny_warnings: bool,
) -> Result<Image, ProgramError> {
    if path.extension().is_some_and(|e| e == "ctm") {
        return crate::image::format::load(path).map_err(|e| ProgramError::from((path, e)));
    }
    let assembly = crate::asm::assemble_file(loader, path);
    let denied = deny_warnings && !assembly.diagnostics.is_empty() && !assembly.has_errors();
    match assembly.image {
        Some(image) if !denied => Ok(image),
        _ => Err(ProgramError::Assembly {
            path: path.display().to_string(),
            denied,
            sources: assembly.sources,
            diagnostics: assembly.diagnostics,
        }),
    }
}

impl Scenario {
    /// Reads a scenario file; programs are read relative to it.
    pub fn load(
        path: &std::path::Path,
        stdlib: Option<std::path::PathBuf>,
    ) -> Result<Scenario, ScenarioError> {
        Scenario::load_text(path, stdlib).map(|(scenario, _)| scenario)
    }

    /// [`Scenario::load`], also giving the file's text.
    pub fn load_text(
        path: &std::path::Path,
        stdlib: Option<std::path::PathBuf>,
    ) -> Result<(Scenario, String), ScenarioError> {
        let assembling = Assembling {
            stdlib,
            ..Assembling::default()
        };
        Scenario::load_text_with(path, &assembling)
    }

    /// [`Scenario::load_text`], its programs assembled as `assembling`
    /// says.
    pub fn load_text_with(
        path: &std::path::Path,
        assembling: &Assembling,
    ) -> Result<(Scenario, String), ScenarioError> {
        let name = crate::files::display(path);
        let text = crate::files::read_input_text(path).map_err(|e| {
            let mut sources = Sources::default();
            sources.add(SourceFile::new(
                name.clone(),
                Some(path.to_path_buf()),
                String::new(),
            ));
            ScenarioError {
                sources,
                diagnostics: vec![Diagnostic::about_file(
                    Code::E0800,
                    Locator::FILE,
                    format!("cannot read the scenario: {e}"),
                )],
            }
        })?;
        let dir = path
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        Scenario::from_text_with(&name, &text, &dir, assembling).map(|scenario| (scenario, text))
    }

    /// Checks a scenario given as text whose programs are files relative
    /// to `dir`, assembled with the standard library in `stdlib` (the
    /// built-in one when `None`).
    pub fn from_text_in(
        file: &str,
        text: &str,
        dir: &std::path::Path,
        stdlib: Option<std::path::PathBuf>,
    ) -> Result<Scenario, ScenarioError> {
        let assembling = Assembling {
            stdlib,
            ..Assembling::default()
        };
        Scenario::from_text_with(file, text, dir, &assembling)
    }

    /// [`Scenario::from_text_in`], its programs assembled as `assembling`
    /// says.
    pub fn from_text_with(
        file: &str,
        text: &str,
        dir: &std::path::Path,
        assembling: &Assembling,
    ) -> Result<Scenario, ScenarioError> {
        let asm_loader = crate::asm::source::DiskLoader::new(assembling.stdlib.clone());
        let programs = |program: &str| {
            let path = dir.join(program);
            if !path.is_file() {
                return Err(ProgramError::Missing(format!(
                    "there is no program file {}",
                    path.display()
                )));
            }
            load_program_denying(&asm_loader, &path, assembling.deny_warnings)
        };
        Scenario::from_text(file, text, &programs)
    }

    /// Checks a scenario given as text.
    pub fn from_text(
        file: &str,
        text: &str,
        programs: ProgramLoader<'_>,
    ) -> Result<Scenario, ScenarioError> {
        let at = Locator::new(file, text);
        let mut sources = Sources::default();
        sources.add(SourceFile::new(file.to_string(), None, text.to_string()));
        let spec: Result<ScenarioSpec, _> = toml::from_str(text);
        let checked = match spec {
            Ok(spec) => {
                let checker = Checker {
                    at,
                    programs,
                    sources: std::cell::RefCell::new(sources),
                };
                let checked = checker.check(spec);
                sources = checker.sources.into_inner();
                checked
            }
            Err(e) => {
                let message = e.message().trim_end();
                Err(vec![match e.span() {
                    Some(span) => {
                        at.error(Code::E0801, span.clone(), at.field_at(span.start), message)
                    }
                    None => at.whole(Code::E0801, "", message),
                }])
            }
        };
        checked.map_err(|diagnostics| ScenarioError {
            sources,
            diagnostics,
        })
    }

    /// The square of a position, if it lies on the grid.
    pub fn inside(&self, (x, y): Position) -> bool {
        self.shape.contains((x, y))
    }

    /// The starting world: walls, items and robots, random placements drawn
    /// from `seed`. Also gives each robot's starting place `(cell, index)`.
    pub fn world(&self, seed: u64) -> (World, Vec<(usize, usize)>) {
        self.world_with(&mut random::SplitMix64::new(seed))
    }

    /// [`Scenario::world`] with placements drawn from `rng` (items in
    /// order, then robots), which can go on drawing afterwards.
    pub fn world_with(&self, rng: &mut random::SplitMix64) -> (World, Vec<(usize, usize)>) {
        let mut cells: Vec<Cell> = self
            .walls
            .iter()
            .map(|&w| (!w).then(Square::default))
            .collect();
        let open = self.open_cells();
        let mut place = |p: Placement| match p {
            Placement::At(pos) => self.shape.locate(pos),
            Placement::Random => open[rng.below(open.len() as u64) as usize],
        };
        for (p, item) in &self.items {
            let cell = place(*p);
            if let Some(sq) = cells[cell].as_mut() {
                sq.items.push(item.clone());
            }
        }
        let mut starts = Vec::new();
        for r in &self.robots {
            let cell = place(r.at);
            if let Some(sq) = cells[cell].as_mut() {
                starts.push((cell, sq.robots.len()));
                sq.robots.push(r.robot());
            }
        }
        (
            World::new(self.shape, cells).expect("the shape's cell count"),
            starts,
        )
    }

    /// The cells that are not walls, in order.
    pub fn open_cells(&self) -> Vec<usize> {
        (0..self.walls.len()).filter(|&i| !self.walls[i]).collect()
    }

    /// The report's game configuration for scoring.
    pub fn config(&self) -> GameConfig {
        self.values.config(&self.players)
    }

    /// The image of every program the scenario's robots run, once each, as
    /// the scenario names it.
    pub fn images(&self) -> Vec<(String, Image)> {
        let mut images: Vec<(String, Image)> = Vec::new();
        for r in &self.robots {
            if let (Some(program), Some(image)) = (&r.program, &r.image)
                && !images.iter().any(|(p, _)| p == program)
            {
                images.push((program.clone(), (**image).clone()));
            }
        }
        images
    }
}

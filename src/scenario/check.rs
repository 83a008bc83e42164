//! Checking a parsed scenario: every position, item, robot, player and
//! limit, with errors that name the file, line, column and field; the
//! robots' programs are assembled here.

// Checks return `Result<_, Diagnostic>`: a diagnostic is large, but errors
// are the cold path, as in the assembler.
#![allow(clippy::result_large_err)]

use super::error::{Locator, ProgramError, Refused};
use super::spec::{self, ItemSpec, PositionSpec, RegisterSpec, ScenarioSpec};
use super::{
    ItemValues, Limits, OverCap, Placement, Player, ProgramLoader, RobotSetup, Scenario, Scoring,
    Slot,
};
use crate::asm::parse_literal;
use crate::diagnostic::{Code, Diagnostic, Sources};
use crate::image::Image;
use crate::machine::{Memory, Register};
use crate::tree::Tree;
use crate::world::{Color, Frame, Item, Position, Processor, Shape};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use toml::Spanned;

/// The most cells a scenario's grid may have ([`crate::limits::MAX_CELLS`]).
fn max_cells() -> usize {
    usize::try_from(crate::limits::MAX_CELLS.get()).unwrap_or(usize::MAX)
}

/// The most items one entry may stand for ([`crate::limits::MAX_COUNT`]).
fn max_count() -> usize {
    usize::try_from(crate::limits::MAX_COUNT.get()).unwrap_or(usize::MAX)
}

/// The bytes per cell that printing a world as JSON takes at most (the
/// shared form builds the whole document as a JSON value first): measured,
/// about 400 for a grid of empty squares.
const PRINT_BYTES_PER_CELL: usize = 512;

/// About the most bytes a game of a scenario takes while it plays, besides
/// its robots' registers (which its text bounds): per cell, a step's
/// ([`crate::world::STEP_BYTES_PER_CELL`]), a recorded replay's last world
/// and the world printed; per item, the scenario's list, the world and a
/// step's copy; per robot, its setup and two copies.
pub fn world_bytes(cells: u64, items: u64, robots: u64) -> u64 {
    let per_cell = (crate::world::STEP_BYTES_PER_CELL
        + size_of::<crate::world::Cell>()
        + PRINT_BYTES_PER_CELL) as u64;
    let per_item = (3 * size_of::<Item>() + size_of::<Placement>()) as u64;
    let per_robot = (2 * size_of::<crate::world::Robot>() + size_of::<RobotSetup>()) as u64;
    cells
        .saturating_mul(per_cell)
        .saturating_add(items.saturating_mul(per_item))
        .saturating_add(robots.saturating_mul(per_robot))
}

/// The program of a robot without one: registers `prog`, `in`, `out` that
/// do nothing.
fn idle_memory() -> Memory {
    vec![
        Register::new(0, Tree::NIL),
        Register::new(4096, Tree::NIL),
        Register::new(1024, Tree::NIL),
    ]
}

fn color(text: &str) -> Option<Color> {
    Color::ALL
        .into_iter()
        .find(|c| format!("{c:?}").eq_ignore_ascii_case(text))
}

/// Checks a parsed scenario.
pub(super) struct Checker<'a> {
    pub(super) at: Locator<'a>,
    pub(super) programs: ProgramLoader<'a>,
    /// The scenario file, then the files of the programs' diagnostics.
    pub(super) sources: RefCell<Sources>,
}

/// The value of a part that was accepted; the errors of one that was not
/// are added to `errors`.
pub(super) fn keep<T>(
    errors: &mut Vec<Diagnostic>,
    part: Result<T, impl Into<Refused>>,
) -> Option<T> {
    part.map_err(|e| errors.extend(e.into().0)).ok()
}

pub(super) type Grid = (Shape, Vec<bool>, BTreeMap<String, Position>);

impl Checker<'_> {
    /// The scenario, or every error found: the grid and the world's size
    /// first (everything else stands on them), then each item, robot,
    /// player and slot on its own, then the caps and the expectations.
    pub(super) fn check(&self, spec: ScenarioSpec) -> Result<Scenario, Vec<Diagnostic>> {
        let (shape, walls, marks) = self.grid(&spec).map_err(|d| vec![d])?;
        self.check_memory(&spec, shape.cell_count())
            .map_err(|d| vec![d])?;
        let grid = (shape, walls, marks);
        let mut errors = Vec::new();
        let mut items = Vec::new();
        for (k, item) in spec.items.iter().enumerate() {
            if let Some(found) = keep(&mut errors, self.item_on_the_map(k, item, &grid)) {
                items.extend(found);
            }
        }
        let mut robots = Vec::new();
        for (k, robot) in spec.robots.iter().enumerate() {
            robots.extend(keep(&mut errors, self.robot(k, robot, &grid)));
        }
        let scoring = keep(&mut errors, self.scoring(&spec)).unwrap_or(Scoring::Home);
        let mut players = Vec::new();
        for (k, p) in spec.players.iter().enumerate() {
            players.extend(keep(&mut errors, self.player(k, p, &grid, scoring)));
        }
        let mut slots = Vec::new();
        for (k, s) in spec.slots.iter().enumerate() {
            slots.extend(keep(&mut errors, self.slot(k, s, &grid)));
        }
        let cargo = keep(&mut errors, self.cargo_values(&spec));
        let limits = Limits {
            speed: spec.limits.speed,
            register: spec.limits.register,
        };
        let Some(cargo) = cargo.filter(|_| errors.is_empty()) else {
            return Err(errors);
        };
        let values = ItemValues {
            cargo,
            shield: spec.values.shield,
            frame: spec.values.frame,
            processor: spec.values.processor,
            register: spec.values.register,
        };
        self.check_limits(&limits, &items, &robots, &slots)
            .map_err(|d| vec![d])?;
        let steps = spec.steps.unwrap_or(100);
        let expect = spec
            .expect
            .as_ref()
            .map(|e| self.expectations(e, steps, &robots, &players, &grid))
            .transpose()
            .map_err(|Refused(d)| d)?;
        let (shape, walls, marks) = grid;
        Ok(Scenario {
            name: spec.name.unwrap_or_else(|| self.at.file().to_string()),
            file: self.at.file().to_string(),
            steps,
            seed: spec.seed.unwrap_or(0),
            shape,
            walls,
            marks,
            values,
            items,
            robots,
            players,
            slots,
            scoring,
            limits,
            expect,
        })
    }

    /// An entry of `[[item]]`: where it lies, and the items it stands for.
    fn item_on_the_map(
        &self,
        k: usize,
        item: &Spanned<ItemSpec>,
        grid: &Grid,
    ) -> Result<Vec<(Placement, Item)>, Diagnostic> {
        let field = format!("item[{k}]");
        let Some(pos) = &item.get_ref().at else {
            return Err(self.at.error(
                Code::E0805,
                item.span(),
                field,
                "an item on the map needs `at`: [x, y], a mark or \"random\"",
            ));
        };
        let placement = self.placement(pos, grid, &format!("{field}.at"))?;
        let items = self.items(item, &field)?;
        Ok(items.into_iter().map(|it| (placement, it)).collect())
    }

    /// An entry of `[[slot]]`, a player's place in a tournament.
    fn slot(&self, k: usize, s: &Spanned<spec::SlotSpec>, grid: &Grid) -> Result<Slot, Diagnostic> {
        let field = format!("slot[{k}]");
        let slot = s.get_ref();
        let frame = Frame {
            color: self.color(&slot.color, &format!("{field}.color"))?,
            strength: slot.strength.unwrap_or(100),
        };
        let homes = slot
            .homes
            .iter()
            .enumerate()
            .map(|(h, home)| self.home(home, grid, &format!("{field}.homes[{h}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut inventory = Vec::new();
        for (i, it) in slot.inventory.iter().enumerate() {
            inventory.extend(self.items(it, &format!("{field}.inventory[{i}]"))?);
        }
        Ok(Slot {
            at: self.placement(&slot.at, grid, &format!("{field}.at"))?,
            frame,
            speed: slot.speed.unwrap_or(1000),
            homes,
            inventory,
        })
    }

    /// `[values] cargo`: the value of each cargo type.
    fn cargo_values(&self, spec: &ScenarioSpec) -> Result<BTreeMap<i64, i64>, Diagnostic> {
        spec.values
            .cargo
            .iter()
            .map(|(k, v)| {
                k.parse::<i64>().map(|t| (t, *v)).map_err(|_| {
                    self.at.whole(
                        Code::E0810,
                        "values.cargo",
                        format!("{k:?} is not a cargo type (a number)"),
                    )
                })
            })
            .collect()
    }

    /// The scoring rule: `home` unless the file says `survivors`.
    fn scoring(&self, spec: &ScenarioSpec) -> Result<Scoring, Diagnostic> {
        match spec
            .scoring
            .as_ref()
            .map(|s| (s.get_ref().as_str(), s.span()))
        {
            None | Some(("home", _)) => Ok(Scoring::Home),
            Some(("survivors", _)) => Ok(Scoring::Survivors),
            Some((other, span)) => Err(self.at.error(
                Code::E0809,
                span,
                "scoring",
                format!("unknown scoring rule {other:?}: expected \"home\" or \"survivors\""),
            )),
        }
    }

    /// A player: their home squares, and their colour (which the
    /// `survivors` rule needs, to count their robots).
    fn player(
        &self,
        k: usize,
        p: &Spanned<spec::PlayerSpec>,
        grid: &Grid,
        scoring: Scoring,
    ) -> Result<Player, Diagnostic> {
        let field = format!("player[{k}]");
        let homes = p
            .get_ref()
            .homes
            .iter()
            .enumerate()
            .map(|(h, home)| self.home(home, grid, &format!("{field}.homes[{h}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let color = p
            .get_ref()
            .color
            .as_ref()
            .map(|c| self.color(c, &format!("{field}.color")))
            .transpose()?;
        if color.is_none() && scoring == Scoring::Survivors {
            return Err(self.at.error(
                Code::E0809,
                p.span(),
                field,
                "the \"survivors\" rule counts a player's robots by their colour: give the player a `color`",
            ));
        }
        Ok(Player {
            name: p.get_ref().name.clone(),
            homes,
            color,
        })
    }

    /// Refuses a scenario whose world would take more memory than
    /// [`crate::limits::MAX_WORLD_MEMORY`], estimated from its grid and its
    /// item and robot counts before any item or robot is built (see
    /// [`world_bytes`]).
    fn check_memory(&self, spec: &ScenarioSpec, cells: usize) -> Result<(), Diagnostic> {
        // An entry over the count cap is refused later, with its own error.
        let count = |items: &[Spanned<ItemSpec>]| -> u64 {
            items
                .iter()
                .map(|i| u64::from(i.get_ref().count.unwrap_or(1)).min(max_count() as u64))
                .sum()
        };
        let items = count(&spec.items)
            + spec
                .robots
                .iter()
                .map(|r| count(&r.get_ref().inventory))
                .sum::<u64>()
            + spec
                .slots
                .iter()
                .map(|s| count(&s.get_ref().inventory))
                .sum::<u64>();
        let robots = (spec.robots.len() + spec.slots.len()) as u64;
        let bytes = world_bytes(cells as u64, items, robots);
        let cap = crate::limits::MAX_WORLD_MEMORY.get();
        if bytes > cap {
            return Err(self.at.whole(Code::E0808,
                "world",
                format!(
                    "the game would take about {bytes} bytes ({cells} cells, {items} items, {robots} robots), \
                     over the limit of {cap} (CONSTREE_MAX_WORLD_MEMORY=BYTES raises it)"
                ),
            ));
        }
        Ok(())
    }

    /// Every speed and register limit in the game within the caps: the
    /// robots', their inventories', the items on the ground, the slots'.
    fn check_limits(
        &self,
        caps: &Limits,
        items: &[(Placement, Item)],
        robots: &[RobotSetup],
        slots: &[Slot],
    ) -> Result<(), Diagnostic> {
        // Without `[limits] speed`, the default cap holds: a robot of speed
        // 2^63 - 1 would never end a step.
        let default_speed = i64::try_from(crate::limits::DEFAULT_SPEED.get()).unwrap_or(i64::MAX);
        let speed_given = caps.speed.is_some();
        let caps = &Limits {
            speed: caps.speed.or(Some(default_speed)),
            register: caps.register,
        };
        let refuse = |e: OverCap| {
            let message = if e.key == "speed" && !speed_given {
                format!(
                    "{} (a scenario without `[limits] speed` caps speeds at {default_speed}; \
                     `[limits] speed = N` sets another cap)",
                    e.message
                )
            } else {
                e.message
            };
            self.at
                .whole(Code::E0808, format!("limits.{}", e.key), message)
        };
        let check_item = |what: String, item: &Item| match item {
            Item::ProcessorPart(p) => caps.check_speed(&what, p.speed),
            Item::RegisterPart(r) => caps.check_register(&what, r.limit),
            _ => Ok(()),
        };
        for (k, (_, item)) in items.iter().enumerate() {
            check_item(format!("the {item} of item[{k}]"), item).map_err(refuse)?;
        }
        for r in robots {
            caps.check_speed(&format!("robot {}'s speed", r.name), r.speed)
                .map_err(refuse)?;
            for (i, reg) in r.memory.iter().enumerate() {
                caps.check_register(&format!("robot {}'s register {i}", r.name), reg.limit)
                    .map_err(refuse)?;
            }
            for item in &r.inventory {
                check_item(format!("the {item} robot {} carries", r.name), item).map_err(refuse)?;
            }
        }
        for (k, s) in slots.iter().enumerate() {
            caps.check_speed(&format!("slot[{k}]'s speed"), s.speed)
                .map_err(refuse)?;
            for item in &s.inventory {
                check_item(format!("the {item} slot[{k}] carries"), item).map_err(refuse)?;
            }
        }
        Ok(())
    }

    /// The grid: from the map (with its marks), or from `size`.
    fn grid(&self, spec: &ScenarioSpec) -> Result<Grid, Diagnostic> {
        let wrap = spec.world.wrap.unwrap_or(true);
        let mut marks = BTreeMap::new();
        let (dims, walls) = match &spec.world.map {
            Some(map) => {
                let rows: Vec<&str> = map
                    .get_ref()
                    .lines()
                    .map(str::trim_end)
                    .filter(|l| !l.is_empty())
                    .collect();
                let width = rows.first().map_or(0, |r| r.chars().count());
                let mut walls = Vec::new();
                for (y, row) in rows.iter().enumerate() {
                    if row.chars().count() != width {
                        return Err(self.at.error(Code::E0802,
                            map.span(),
                            "world.map",
                            format!("row {} has {} squares, the first row has {width}: every row must be as long", y + 1, row.chars().count()),
                        ));
                    }
                    for (x, c) in row.chars().enumerate() {
                        match c {
                            '#' => walls.push(true),
                            '.' => walls.push(false),
                            c if c.is_ascii_alphanumeric() => {
                                walls.push(false);
                                if marks.insert(c.to_string(), (x as i64, y as i64)).is_some() {
                                    return Err(self.at.error(
                                        Code::E0802,
                                        map.span(),
                                        "world.map",
                                        format!("the mark {c:?} is on the map twice"),
                                    ));
                                }
                            }
                            other => {
                                return Err(self.at.error(Code::E0802,
                                    map.span(),
                                    "world.map",
                                    format!("{other:?} at row {}, column {}: expected '#' (wall), '.' (square) or a letter or digit (a marked square)", y + 1, x + 1),
                                ));
                            }
                        }
                    }
                }
                let dims = (width as i64, rows.len() as i64);
                if let Some(size) = &spec.world.size
                    && (size.get_ref()[0], size.get_ref()[1]) != dims
                {
                    return Err(self.at.error(
                        Code::E0802,
                        size.span(),
                        "world.size",
                        format!(
                            "the map is {} x {}, not {} x {}",
                            dims.0,
                            dims.1,
                            size.get_ref()[0],
                            size.get_ref()[1]
                        ),
                    ));
                }
                (dims, walls)
            }
            None => {
                let Some(size) = &spec.world.size else {
                    return Err(self.at.whole(
                        Code::E0802,
                        "world",
                        "give the grid's `size` = [columns, rows], or a `map`",
                    ));
                };
                let [x, y] = *size.get_ref();
                let count = x
                    .checked_mul(y)
                    .and_then(|c| usize::try_from(c).ok())
                    .filter(|&c| c <= max_cells())
                    .ok_or_else(|| {
                        self.at.error(Code::E0802,
                            size.span(),
                            "world.size",
                            format!("a grid of {x} x {y} cells: expected positive sizes and at most {} cells", max_cells()),
                        )
                    })?;
                ((x, y), vec![false; count])
            }
        };
        let shape = Shape::new(dims, wrap).map_err(|e| {
            let span = spec.world.size.as_ref().map(Spanned::span).or(spec
                .world
                .map
                .as_ref()
                .map(Spanned::span));
            match span {
                Some(s) => self.at.error(Code::E0802, s, "world", e.to_string()),
                None => self.at.whole(Code::E0802, "world", e.to_string()),
            }
        })?;
        if shape.cell_count() > max_cells() {
            return Err(self.at.whole(
                Code::E0802,
                "world.size",
                format!("a grid of more than {} cells is too large", max_cells()),
            ));
        }
        Ok((shape, walls, marks))
    }

    pub(super) fn placement(
        &self,
        pos: &Spanned<PositionSpec>,
        grid: &Grid,
        field: &str,
    ) -> Result<Placement, Diagnostic> {
        let (shape, walls, marks) = grid;
        let position = match pos.get_ref() {
            PositionSpec::Named(n) if n == "random" => {
                if walls.iter().all(|w| *w) {
                    return Err(self.at.error(Code::E0803, pos.span(), field, "\"random\" needs a square, and every cell is a wall"));
                }
                return Ok(Placement::Random);
            }
            PositionSpec::Named(n) => *marks.get(n).ok_or_else(|| {
                let known: Vec<&str> = marks.keys().map(String::as_str).collect();
                self.at.error(Code::E0803, pos.span(), field, format!("no mark {n:?} on the map (marks: {}); expected [x, y], a mark or \"random\"", known.join(", ")))
            })?,
            PositionSpec::At([x, y]) => (*x, *y),
        };
        if !shape.contains(position) {
            let (w, h) = shape.dims();
            return Err(self.at.error(
                Code::E0803,
                pos.span(),
                field,
                format!(
                    "{position:?} is off the {w} x {h} grid (columns 0 to {}, rows 0 to {})",
                    w - 1,
                    h - 1
                ),
            ));
        }
        if walls[shape.locate(position)] {
            return Err(self.at.error(
                Code::E0803,
                pos.span(),
                field,
                format!("{position:?} is a wall"),
            ));
        }
        Ok(Placement::At(position))
    }

    /// A square that must be a fixed position: `random` is refused with
    /// `code` and `message` (a home square; a square of an expectation).
    pub(super) fn fixed_position(
        &self,
        pos: &Spanned<PositionSpec>,
        grid: &Grid,
        field: &str,
        (code, message): (Code, &str),
    ) -> Result<Position, Diagnostic> {
        match self.placement(pos, grid, field)? {
            Placement::At(p) => Ok(p),
            Placement::Random => Err(self.at.error(code, pos.span(), field, message)),
        }
    }

    /// A home square: a position (not random).
    fn home(
        &self,
        pos: &Spanned<PositionSpec>,
        grid: &Grid,
        field: &str,
    ) -> Result<Position, Diagnostic> {
        self.fixed_position(
            pos,
            grid,
            field,
            (Code::E0803, "a home square cannot be random"),
        )
    }

    fn color(&self, c: &Spanned<String>, field: &str) -> Result<Color, Diagnostic> {
        color(c.get_ref()).ok_or_else(|| {
            self.at.error(Code::E0804, c.span(), field, format!("{:?} is not a colour: expected Red, Orange, Yellow, Green, Blue, Violet, Black or White", c.get_ref()))
        })
    }

    /// The items an item entry stands for (`count` of them).
    pub(super) fn items(
        &self,
        spec: &Spanned<ItemSpec>,
        field: &str,
    ) -> Result<Vec<Item>, Diagnostic> {
        let s = spec.get_ref();
        let mut kinds: Vec<Item> = Vec::new();
        if let Some([t, w]) = s.cargo {
            kinds.push(Item::Cargo(t, w));
        }
        if s.shield == Some(true) {
            kinds.push(Item::Shield);
        }
        if let Some(f) = &s.frame {
            let color = color(&f.color).ok_or_else(|| {
                self.at.error(
                    Code::E0804,
                    spec.span(),
                    format!("{field}.frame.color"),
                    format!("{:?} is not a colour", f.color),
                )
            })?;
            kinds.push(Item::FramePart(Frame {
                color,
                strength: f.strength,
            }));
        }
        if let Some(speed) = s.processor {
            kinds.push(Item::ProcessorPart(Processor { speed }));
        }
        if let Some(r) = &s.register {
            kinds.push(Item::RegisterPart(match r {
                RegisterSpec::Limit(limit) => Register::new(*limit, Tree::NIL),
                RegisterSpec::Full { limit, contents } => {
                    let tree = parse_literal(contents).map_err(|m| {
                        self.at.error(
                            Code::E0805,
                            spec.span(),
                            format!("{field}.register.contents"),
                            format!("not a value of the language: {m}"),
                        )
                    })?;
                    Register::new(*limit, tree)
                }
            }));
        }
        match kinds.len() {
            1 => {}
            0 => {
                return Err(self.at.error(Code::E0805,
                    spec.span(),
                    field,
                    "an item needs one of: cargo = [type, weight], shield = true, frame = { color, strength }, processor = SPEED, register = LIMIT",
                ));
            }
            _ => return Err(self.at.error(
                Code::E0805,
                spec.span(),
                field,
                "an item is one thing: give only one of cargo, shield, frame, processor, register",
            )),
        }
        let count = s.count.unwrap_or(1) as usize;
        if count > max_count() {
            return Err(self.at.error(
                Code::E0805,
                spec.span(),
                format!("{field}.count"),
                format!("{count} items: at most {} in one entry", max_count()),
            ));
        }
        Ok(std::iter::repeat_n(kinds.remove(0), count).collect())
    }

    fn robot(
        &self,
        k: usize,
        spec: &Spanned<spec::RobotSpec>,
        grid: &Grid,
    ) -> Result<RobotSetup, Refused> {
        let r = spec.get_ref();
        let field = format!("robot[{k}]");
        let at = self.placement(&r.at, grid, &format!("{field}.at"))?;
        let frame = Frame {
            color: match &r.color {
                Some(c) => self.color(c, &format!("{field}.color"))?,
                None => Color::Red,
            },
            strength: r.strength.unwrap_or(100),
        };
        let mut inventory = Vec::new();
        for (i, it) in r.inventory.iter().enumerate() {
            if it.get_ref().at.is_some() {
                return Err(self
                    .at
                    .error(
                        Code::E0805,
                        it.span(),
                        format!("{field}.inventory[{i}]"),
                        "an item carried by a robot has no `at`",
                    )
                    .into());
            }
            inventory.extend(self.items(it, &format!("{field}.inventory[{i}]"))?);
        }
        let (memory, image) = match &r.program {
            None => (idle_memory(), None),
            Some(program) => {
                let image = (self.programs)(program.get_ref())
                    .map_err(|e| self.program_error(e, program.span(), &field))?;
                (image.memory(), Some(Rc::new(image)))
            }
        };
        let memory = match (&r.registers, &r.program) {
            (Some(limits), _) => self.with_limits(
                memory,
                limits.get_ref(),
                limits.span(),
                image.as_deref(),
                &format!("{field}.registers"),
            )?,
            // An image read from a file may hold more than its limits.
            (None, Some(program)) => {
                let limits: Vec<i64> = memory.iter().map(|r| r.limit).collect();
                self.with_limits(
                    memory,
                    &limits,
                    program.span(),
                    image.as_deref(),
                    &format!("{field}.program"),
                )?
            }
            (None, None) => memory,
        };
        Ok(RobotSetup {
            program: r.program.as_ref().map(|p| p.get_ref().clone()),
            name: r.name.clone().unwrap_or_else(|| format!("robot{k}")),
            at,
            frame,
            speed: r.speed.unwrap_or(1000),
            inventory,
            memory,
            image,
        })
    }

    /// The errors of a robot's program that cannot be loaded: the
    /// scenario's, at `program = ...`, then the assembler's own, their
    /// files added to the scenario's sources.
    fn program_error(&self, e: ProgramError, span: std::ops::Range<usize>, field: &str) -> Refused {
        let headline = self
            .at
            .error(Code::E0806, span, format!("{field}.program"), e.headline());
        let mut errors = vec![headline];
        if let ProgramError::Assembly {
            sources,
            diagnostics,
            ..
        }
        | ProgramError::Image {
            sources,
            diagnostics,
            ..
        } = e
        {
            let offset = self.sources.borrow_mut().append(sources);
            errors.extend(diagnostics.into_iter().map(|d| d.shift_files(offset)));
        }
        Refused(errors)
    }

    /// The program's memory with the scenario's limits: every register's
    /// contents must fit its new limit (never the silent Nil of the report's
    /// `initialize`).
    fn with_limits(
        &self,
        memory: Memory,
        list: &[i64],
        span: std::ops::Range<usize>,
        image: Option<&Image>,
        field: &str,
    ) -> Result<Memory, Diagnostic> {
        if list.len() < memory.len() {
            return Err(self.at.error(Code::E0807,
                span,
                field,
                format!("the program has {} registers, but {} limits are listed: its registers would be lost", memory.len(), list.len()),
            ));
        }
        let mut out = Vec::with_capacity(list.len());
        for (i, &limit) in list.iter().enumerate() {
            let contents = memory
                .get(i)
                .map(|r| r.contents.clone())
                .unwrap_or_default();
            if !(contents.is_nil() || contents.fits(limit)) {
                let name = image.and_then(|im| im.registers.get(i)).map_or_else(
                    || format!("register {i}"),
                    |r| format!("register {i} (`{}`)", r.name),
                );
                return Err(self.at.error(
                    Code::E0807,
                    span,
                    field,
                    format!(
                        "{name} holds {} conses, which do not fit the limit {limit}",
                        contents.size()
                    ),
                ));
            }
            out.push(Register::new(limit, contents));
        }
        Ok(out)
    }
}

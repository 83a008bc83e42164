//! Expectations (`[expect]`): what a scenario's game should come to, checked
//! by `constree test`: players' scores, robots' places and register
//! values, and the items lying on squares, after some steps.

// Checks return `Result<_, Diagnostic>`: a diagnostic is large, but errors
// are the cold path, as in the assembler.
#![allow(clippy::result_large_err)]

use super::check::{Checker, Grid, keep};
use super::error::Refused;
use super::game::{Game, RobotEvent};
use super::spec::{ExpectSpec, RobotExpectSpec, SquareExpectSpec};
use super::{RobotSetup, Scoring};
use crate::asm::{parse_literal, show};
use crate::diagnostic::{Code, Diagnostic};
use crate::tree::Tree;
use crate::world::{Item, Position};
use toml::Spanned;

/// A scenario's expectations, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectations {
    /// Steps to play.
    pub steps: u64,
    /// The checks, in the order of the file.
    pub checks: Vec<Check>,
}

/// One thing to check after some steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Where the check is written: `file:line`.
    pub place: String,
    /// After how many steps.
    pub after: u64,
    /// What must hold.
    pub expected: Expected,
}

/// What must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// A player's points under the scenario's scoring rule.
    Score {
        /// The player.
        player: String,
        /// The points.
        score: i64,
    },
    /// No robot's machine fails in the steps played.
    NoMachineErrors,
    /// A robot's square.
    Place {
        /// The robot (index among the scenario's robots).
        robot: usize,
        /// Where it stands.
        at: Position,
    },
    /// A robot's register.
    Register {
        /// The robot (index among the scenario's robots).
        robot: usize,
        /// The register's number.
        register: usize,
        /// How the file names it.
        name: String,
        /// Its contents.
        value: Tree,
        /// The contents as the file writes them.
        written: String,
    },
    /// The items lying on a square: exactly these, in any order.
    Items {
        /// The square.
        at: Position,
        /// The items.
        items: Vec<Item>,
    },
}

/// The result of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The check.
    pub check: Check,
    /// What was expected, in words (`Red scores 5 after 12 steps`).
    pub description: String,
    /// Why it failed: what was found instead.
    pub failure: Option<String>,
}

impl Checker<'_> {
    /// Checks the `[expect]` table against the scenario's robots, players
    /// and grid: every expectation on its own, all the errors found.
    pub(super) fn expectations(
        &self,
        spec: &ExpectSpec,
        default_steps: u64,
        robots: &[RobotSetup],
        players: &[super::Player],
        grid: &Grid,
    ) -> Result<Expectations, Refused> {
        let steps = spec.steps.as_ref().map_or(default_steps, |s| *s.get_ref());
        let mut checks = Vec::new();
        let mut errors = Vec::new();
        for (player, score) in &spec.scores {
            if !players.iter().any(|p| &p.name == player) {
                let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
                errors.push(self.at.error(
                    Code::E0811,
                    score.span(),
                    format!("expect.scores.{player}"),
                    format!("no player named {player:?} (players: {})", names.join(", ")),
                ));
                continue;
            }
            checks.push(Check {
                place: self.place(score.span()),
                after: steps,
                expected: Expected::Score {
                    player: player.clone(),
                    score: *score.get_ref(),
                },
            });
        }
        if let Some(allowed) = spec.machine_errors.as_ref().filter(|m| !*m.get_ref()) {
            checks.push(Check {
                place: self.place(allowed.span()),
                after: steps,
                expected: Expected::NoMachineErrors,
            });
        }
        for (k, r) in spec.robot.iter().enumerate() {
            let field = format!("expect.robot[{k}]");
            let found = self.robot_expectations(r, &field, steps, robots, grid);
            checks.extend(keep(&mut errors, found).into_iter().flatten());
        }
        for (k, square) in spec.square.iter().enumerate() {
            let field = format!("expect.square[{k}]");
            let found = self.square_expectation(square, &field, steps, grid);
            checks.extend(keep(&mut errors, found));
        }
        if errors.is_empty() {
            Ok(Expectations { steps, checks })
        } else {
            Err(Refused(errors))
        }
    }

    /// `after`, checked against the steps the test plays (default: all).
    fn after(
        &self,
        after: Option<&Spanned<u64>>,
        field: &str,
        steps: u64,
    ) -> Result<u64, Diagnostic> {
        match after {
            Some(a) if *a.get_ref() > steps => Err(self.at.error(
                Code::E0811,
                a.span(),
                format!("{field}.after"),
                format!(
                    "after {} steps, but the test plays {steps} (expect.steps)",
                    a.get_ref()
                ),
            )),
            Some(a) => Ok(*a.get_ref()),
            None => Ok(steps),
        }
    }

    /// A square given by `at` of an expectation: a place on the grid.
    fn expected_position(
        &self,
        pos: &Spanned<super::spec::PositionSpec>,
        grid: &Grid,
        field: &str,
    ) -> Result<Position, Diagnostic> {
        let refusal = (Code::E0811, "expected [x, y] or a mark, not \"random\"");
        self.fixed_position(pos, grid, field, refusal)
    }

    fn square_expectation(
        &self,
        spec: &Spanned<SquareExpectSpec>,
        field: &str,
        steps: u64,
        grid: &Grid,
    ) -> Result<Check, Diagnostic> {
        let s = spec.get_ref();
        let after = self.after(s.after.as_ref(), field, steps)?;
        let at = self.expected_position(&s.at, grid, &format!("{field}.at"))?;
        let mut items = Vec::new();
        for (i, item) in s.items.get_ref().iter().enumerate() {
            let field = format!("{field}.items[{i}]");
            if let Some(place) = &item.get_ref().at {
                return Err(self.at.error(Code::E0811,
                    place.span(),
                    format!("{field}.at"),
                    "an item of a square's `items` has no `at` of its own: the square's `at` says where",
                ));
            }
            items.extend(self.items(item, &field)?);
        }
        Ok(Check {
            place: self.place(s.items.span()),
            after,
            expected: Expected::Items { at, items },
        })
    }

    fn robot_expectations(
        &self,
        spec: &Spanned<RobotExpectSpec>,
        field: &str,
        steps: u64,
        robots: &[RobotSetup],
        grid: &Grid,
    ) -> Result<Vec<Check>, Diagnostic> {
        let mut checks = Vec::new();
        let r = spec.get_ref();
        let name = r.name.get_ref();
        let robot = robots.iter().position(|s| &s.name == name).ok_or_else(|| {
            let names: Vec<&str> = robots.iter().map(|s| s.name.as_str()).collect();
            self.at.error(
                Code::E0811,
                r.name.span(),
                format!("{field}.name"),
                format!("no robot named {name:?} (robots: {})", names.join(", ")),
            )
        })?;
        let after = self.after(r.after.as_ref(), field, steps)?;
        if r.at.is_none() && r.registers.is_empty() {
            return Err(self.at.error(Code::E0811,
                spec.span(),
                field,
                "nothing to check: give `at` = [x, y] or a mark, or `registers` = { NAME = \"VALUE\" }",
            ));
        }
        if let Some(pos) = &r.at {
            let at = self.expected_position(pos, grid, &format!("{field}.at"))?;
            checks.push(Check {
                place: self.place(pos.span()),
                after,
                expected: Expected::Place { robot, at },
            });
        }
        for (register, value) in &r.registers {
            let field = format!("{field}.registers.{register}");
            let index = register_index(&robots[robot], register).ok_or_else(|| {
                self.at.error(Code::E0811,
                    value.span(),
                    &field,
                    format!(
                        "robot {name:?} has no register {register:?} (a name from its program, or a number below {})",
                        robots[robot].memory.len()
                    ),
                )
            })?;
            let tree = parse_literal(value.get_ref()).map_err(|m| {
                self.at.error(
                    Code::E0811,
                    value.span(),
                    &field,
                    format!("not a value of the language: {m}"),
                )
            })?;
            checks.push(Check {
                place: self.place(value.span()),
                after,
                expected: Expected::Register {
                    robot,
                    register: index,
                    name: register.clone(),
                    value: tree,
                    written: value.get_ref().clone(),
                },
            });
        }
        Ok(checks)
    }

    /// `file:line` of a byte range.
    fn place(&self, span: std::ops::Range<usize>) -> String {
        format!("{}:{}", self.at.file(), self.at.line_col(span.start).0)
    }
}

/// A register of a robot by the name its program gives it, or by number.
fn register_index(robot: &RobotSetup, name: &str) -> Option<usize> {
    let by_name = robot
        .image
        .as_ref()
        .and_then(|im| im.registers.iter().position(|r| r.name == name));
    by_name
        .or_else(|| name.parse::<usize>().ok())
        .filter(|&k| k < robot.memory.len())
}

/// Whether two lists hold the same items, in any order: sorted by a key
/// of what can be ordered; registers with the same key (limit) are then
/// matched by their contents, so the cost stays near-linear unless many
/// registers share a limit.
fn same_items(expected: &[Item], found: &[Item]) -> bool {
    fn key(item: &Item) -> (u8, i64, i64) {
        match item {
            Item::Cargo(t, w) => (0, *t, *w),
            Item::ProcessorPart(p) => (1, p.speed, 0),
            Item::FramePart(f) => (2, f.color as i64, f.strength),
            Item::Shield => (3, 0, 0),
            Item::RegisterPart(r) => (4, r.limit, 0),
        }
    }
    fn sorted(items: &[Item]) -> Vec<&Item> {
        let mut v: Vec<&Item> = items.iter().collect();
        v.sort_by_key(|i| key(i));
        v
    }
    let (a, b) = (sorted(expected), sorted(found));
    if a.len() != b.len() || a.iter().zip(&b).any(|(x, y)| key(x) != key(y)) {
        return false;
    }
    // Same keys in the same order: only registers of one limit can differ.
    let mut start = 0;
    while start < a.len() {
        let end = start
            + a[start..]
                .iter()
                .take_while(|i| key(i) == key(a[start]))
                .count();
        let mut left: Vec<&Item> = b[start..end].to_vec();
        for item in &a[start..end] {
            match left.iter().position(|f| f == item) {
                Some(k) => {
                    left.swap_remove(k);
                }
                None => return false,
            }
        }
        start = end;
    }
    true
}

/// `nothing`, or the items (`cargo 5 (weight 3), shield`), a long list
/// cut short.
fn item_list(items: &[Item]) -> String {
    const SHOWN: usize = 8;
    if items.is_empty() {
        return "nothing".to_string();
    }
    let mut words: Vec<String> = items.iter().take(SHOWN).map(Item::to_string).collect();
    if items.len() > SHOWN {
        words.push(format!("and {} more", items.len() - SHOWN));
    }
    words.join(", ")
}

/// `1 step`, `2 steps`.
fn steps(n: u64) -> String {
    format!("{n} step{}", if n == 1 { "" } else { "s" })
}

/// A robot whose machine failed while a test played: its first failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineFailure {
    /// The robot (index among the scenario's robots).
    pub robot: usize,
    /// The step of its first failure (1 for the first step).
    pub step: u64,
    /// The machine error.
    pub error: String,
    /// The instruction that failed and where it is written, when known.
    pub fault: Option<String>,
    /// How many steps its machine failed in.
    pub count: usize,
}

/// What playing a scenario's expectations came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestRun {
    /// Every check's result, in the order they were checked.
    pub outcomes: Vec<Outcome>,
    /// Every robot whose machine failed, in the order of their first
    /// failures.
    pub failures: Vec<MachineFailure>,
}

impl Expectations {
    /// Plays the scenario's game for `steps` steps, checks every
    /// expectation at its step, and notes the robots whose machines fail.
    pub fn run(&self, scenario: &super::Scenario) -> TestRun {
        let mut game = Game::new(scenario);
        let everyone: Vec<usize> = (0..scenario.robots.len()).collect();
        let mut outcomes = Vec::new();
        let mut failures: Vec<MachineFailure> = Vec::new();
        loop {
            for check in self.checks.iter().filter(|c| c.after == game.step) {
                outcomes.push(check.outcome(&game, &failures));
            }
            if game.step >= self.steps {
                break;
            }
            let (_, events) = game.play_step_following(&everyone);
            for (robot, event) in events.iter().enumerate() {
                MachineFailure::note(&mut failures, scenario, robot, event);
            }
        }
        TestRun { outcomes, failures }
    }
}

impl MachineFailure {
    /// Adds scenario robot `robot`'s machine failure in a step (its event)
    /// to the list, or counts it if the robot failed before; nothing when
    /// its machine did not fail.
    pub fn note(
        failures: &mut Vec<MachineFailure>,
        scenario: &super::Scenario,
        robot: usize,
        event: &RobotEvent,
    ) {
        let Some(Err(error)) = &event.run else {
            return;
        };
        match failures.iter_mut().find(|f| f.robot == robot) {
            Some(earlier) => earlier.count += 1,
            None => failures.push(MachineFailure {
                robot,
                step: event.step,
                error: scenario.robots[robot].error_text(error),
                fault: event.fault.clone(),
                count: 1,
            }),
        }
    }

    /// The failure in words: the robot, the step, the error and where the
    /// failing instruction is written.
    pub fn describe(&self, scenario: &super::Scenario) -> String {
        let place = self
            .fault
            .as_ref()
            .map_or_else(String::new, |f| format!(", in {f}"));
        let more = match self.count {
            1 => String::new(),
            n => format!(" (it failed in {})", steps(n as u64)),
        };
        format!(
            "{}'s machine failed in step {}: {}; every register wiped{place}{more}",
            crate::files::escape_controls(&scenario.robots[self.robot].name),
            self.step,
            self.error
        )
    }
}

impl Check {
    /// Checks this against a game at the check's step, after the machine
    /// failures so far.
    fn outcome(&self, game: &Game<'_>, failures: &[MachineFailure]) -> Outcome {
        let scenario = game.scenario;
        let after = format!("after {}", steps(self.after));
        let robot_name = |k: usize| scenario.robots[k].name.as_str();
        let gone = |k: usize| format!("{} is gone (destroyed)", robot_name(k));
        let (description, failure) = match &self.expected {
            Expected::Score { player, score } => {
                let scoring = scenario.scoring;
                let found = game.scores().into_iter().find(|s| &s.player == player);
                (
                    format!("{player} scores {score} {after}"),
                    found.filter(|s| s.points != *score).map(|s| match scoring {
                        Scoring::Home => format!("{player} scores {}", s.points),
                        Scoring::Survivors => {
                            format!("{player} scores {} ({})", s.points, s.basis(scoring))
                        }
                    }),
                )
            }
            Expected::NoMachineErrors => (
                format!("no robot's machine fails in {}", steps(self.after)),
                failures.first().map(|f| {
                    let others = failures.len() - 1;
                    format!(
                        "{}'s machine failed in step {}{}",
                        robot_name(f.robot),
                        f.step,
                        match others {
                            0 => String::new(),
                            n => format!(" (and {n} more robot{})", if n == 1 { "" } else { "s" }),
                        }
                    )
                }),
            ),
            Expected::Place { robot, at } => {
                let now = game.robots[*robot].map(|(cell, _)| game.world.shape().position(cell));
                (
                    format!("{} is at {at:?} {after}", robot_name(*robot)),
                    match now {
                        None => Some(gone(*robot)),
                        Some(p) if p != *at => Some(format!("it is at {p:?}")),
                        Some(_) => None,
                    },
                )
            }
            Expected::Register {
                robot,
                register,
                name,
                value,
                written,
            } => {
                let contents = game
                    .robot(*robot)
                    .map(|r| r.memory.get(*register).map(|r| r.contents.clone()));
                (
                    format!("{}'s {name} is {written} {after}", robot_name(*robot)),
                    match contents {
                        None => Some(gone(*robot)),
                        Some(None) => Some(format!("it has no register {register} now")),
                        Some(Some(t)) if t != *value => {
                            Some(format!("it is {}", show::like(&t, written, 60)))
                        }
                        Some(Some(_)) => None,
                    },
                )
            }
            Expected::Items { at, items } => {
                let (x, y) = at;
                let cell = game.world.at(*at);
                let found = cell.as_ref().map_or(&[][..], |square| &square.items[..]);
                (
                    format!("({x}, {y}) holds {} {after}", item_list(items)),
                    (!same_items(items, found)).then(|| format!("it holds {}", item_list(found))),
                )
            }
        };
        Outcome {
            check: self.clone(),
            description,
            failure,
        }
    }
}

//! Expectations (`[expect]`): what a scenario's game should come to, checked
//! by `constree test`: players' scores, and robots' places and register
//! values after some steps.

use super::check::{Checker, Grid};
use super::game::{Game, RobotEvent};
use super::spec::{ExpectSpec, RobotExpectSpec};
use super::{Placement, RobotSetup, ScenarioError, Scoring};
use crate::asm::{parse_literal, show};
use crate::tree::Tree;
use crate::world::Position;
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
    /// and grid.
    pub(super) fn expectations(
        &self,
        spec: &ExpectSpec,
        default_steps: u64,
        robots: &[RobotSetup],
        players: &[super::Player],
        grid: &Grid,
    ) -> Result<Expectations, ScenarioError> {
        let steps = spec.steps.as_ref().map_or(default_steps, |s| *s.get_ref());
        let mut checks = Vec::new();
        for (player, score) in &spec.scores {
            if !players.iter().any(|p| &p.name == player) {
                let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
                return Err(self.at.error(
                    score.span(),
                    format!("expect.scores.{player}"),
                    format!("no player named {player:?} (players: {})", names.join(", ")),
                ));
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
            self.robot_expectations(
                r,
                &format!("expect.robot[{k}]"),
                steps,
                robots,
                grid,
                &mut checks,
            )?;
        }
        Ok(Expectations { steps, checks })
    }

    fn robot_expectations(
        &self,
        spec: &Spanned<RobotExpectSpec>,
        field: &str,
        steps: u64,
        robots: &[RobotSetup],
        grid: &Grid,
        checks: &mut Vec<Check>,
    ) -> Result<(), ScenarioError> {
        let r = spec.get_ref();
        let name = r.name.get_ref();
        let robot = robots.iter().position(|s| &s.name == name).ok_or_else(|| {
            let names: Vec<&str> = robots.iter().map(|s| s.name.as_str()).collect();
            self.at.error(
                r.name.span(),
                format!("{field}.name"),
                format!("no robot named {name:?} (robots: {})", names.join(", ")),
            )
        })?;
        let after = match &r.after {
            Some(a) if *a.get_ref() > steps => {
                return Err(self.at.error(
                    a.span(),
                    format!("{field}.after"),
                    format!(
                        "after {} steps, but the test plays {steps} (expect.steps)",
                        a.get_ref()
                    ),
                ));
            }
            Some(a) => *a.get_ref(),
            None => steps,
        };
        if r.at.is_none() && r.registers.is_empty() {
            return Err(self.at.error(
                spec.span(),
                field,
                "nothing to check: give `at` = [x, y] or a mark, or `registers` = { NAME = \"VALUE\" }",
            ));
        }
        if let Some(pos) = &r.at {
            let at = match self.placement(pos, grid, &format!("{field}.at"))? {
                Placement::At(p) => p,
                Placement::Random => {
                    return Err(self.at.error(
                        pos.span(),
                        format!("{field}.at"),
                        "expected [x, y] or a mark, not \"random\"",
                    ));
                }
            };
            checks.push(Check {
                place: self.place(pos.span()),
                after,
                expected: Expected::Place { robot, at },
            });
        }
        for (register, value) in &r.registers {
            let field = format!("{field}.registers.{register}");
            let index = register_index(&robots[robot], register).ok_or_else(|| {
                self.at.error(
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
        Ok(())
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
            for (robot, event) in events.into_iter().enumerate() {
                let setup = &game.scenario.robots[robot];
                note_failure(&mut failures, robot, event, setup);
            }
        }
        TestRun { outcomes, failures }
    }
}

/// Adds a robot's machine failure in a step to the list (or counts it, if
/// the robot failed before).
fn note_failure(
    failures: &mut Vec<MachineFailure>,
    robot: usize,
    event: RobotEvent,
    setup: &crate::scenario::RobotSetup,
) {
    let Some(Err(error)) = event.run else {
        return;
    };
    match failures.iter_mut().find(|f| f.robot == robot) {
        Some(earlier) => earlier.count += 1,
        None => failures.push(MachineFailure {
            robot,
            step: event.step,
            error: setup.error_text(&error),
            fault: event.fault,
            count: 1,
        }),
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
        };
        Outcome {
            check: self.clone(),
            description,
            failure,
        }
    }
}

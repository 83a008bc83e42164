//! Playing a scenario: the world step by step, following the scenario's
//! robots from square to square, and the scores.

use super::{ItemValues, Player, Scenario, Scoring};
use crate::asm::listing;
use crate::image::Image;
use crate::machine::{MachineError, RunReport, Tick, tick};
use crate::world::step::{PendingRobot, RobotStep};
use crate::world::{Action, Color, Command, Position, Robot, StepReport, World, update_with};
use std::collections::HashMap;

/// A game in progress.
pub struct Game<'s> {
    /// The scenario being played.
    pub scenario: &'s Scenario,
    /// The world now.
    pub world: World,
    /// Steps played.
    pub step: u64,
    /// Where each of the scenario's robots is now: `(cell, index)`, or
    /// `None` once it is gone (destroyed).
    pub robots: Vec<Option<(usize, usize)>>,
}

/// What a followed robot did in one step.
#[derive(Debug, Clone)]
pub struct RobotEvent {
    /// The step (1 for the first).
    pub step: u64,
    /// Where the robot is after the step.
    pub at: Option<Position>,
    /// Its command.
    pub command: Option<Command>,
    /// Its action.
    pub action: Option<Action>,
    /// How its machine run ended.
    pub run: Option<Result<RunReport, MachineError>>,
    /// For a machine error: the instruction that failed, and where it was
    /// written (when the robot's program has a source map).
    pub fault: Option<String>,
}

/// A player's result under a scenario's scoring rule ([`Scoring`]), as a
/// tournament scores a round.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Score {
    /// The player.
    pub player: String,
    /// Their home squares.
    pub homes: Vec<Position>,
    /// Robots of the player's colour in the world (`None` when the
    /// scenario gives the player no colour).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robots: Option<usize>,
    /// The score: the value the robots on the home squares carry (`home`),
    /// or the robots of the player's colour (`survivors`).
    pub score: i64,
    /// The points the rule gives: the score (`home`), or 3, 2 or 1 when
    /// one, two or more players have robots left and 0 without
    /// (`survivors`).
    pub points: i64,
}

impl Score {
    /// A scoreboard line: the name padded to `width`, the points, what
    /// they come from ([`Score::basis`]).
    pub fn line(&self, scoring: Scoring, width: usize) -> String {
        let unit = match scoring {
            Scoring::Home => "",
            Scoring::Survivors => " points",
        };
        format!(
            "{:<width$}  {:>6}{unit}   {}",
            self.player,
            self.points,
            self.basis(scoring)
        )
    }

    /// What the points come from, in words: the home squares (`home (0,
    /// 0)`), or the robots left (`2 robots`).
    pub fn basis(&self, scoring: Scoring) -> String {
        match scoring {
            Scoring::Home => {
                let homes: Vec<String> = self
                    .homes
                    .iter()
                    .map(|(x, y)| format!("({x}, {y})"))
                    .collect();
                let label = if self.homes.len() == 1 {
                    "home"
                } else {
                    "homes"
                };
                format!("{label} {}", homes.join(", "))
            }
            Scoring::Survivors => {
                let n = self.robots.unwrap_or(0);
                format!("{n} robot{}", if n == 1 { "" } else { "s" })
            }
        }
    }
}

impl<'s> Game<'s> {
    /// The scenario's starting world.
    pub fn new(scenario: &'s Scenario) -> Game<'s> {
        let (world, starts) = scenario.world(scenario.seed);
        Game {
            scenario,
            world,
            step: 0,
            robots: starts.into_iter().map(Some).collect(),
        }
    }

    /// One game step. `watch` names a scenario robot to follow closely: its
    /// event (with the failing instruction, if its machine fails) is
    /// returned.
    pub fn play_step(&mut self, watch: Option<usize>) -> (StepReport, Option<RobotEvent>) {
        let (report, mut events) = self.play_step_following(watch.as_slice());
        (report, events.pop())
    }

    /// One game step, following the scenario robots `follow` closely: an
    /// event for each, in that order (with the failing instruction when
    /// its machine fails).
    pub fn play_step_following(&mut self, follow: &[usize]) -> (StepReport, Vec<RobotEvent>) {
        let shape = self.world.shape();
        let followed: Vec<Option<(usize, usize)>> = follow
            .iter()
            .map(|&r| self.robots.get(r).copied().flatten())
            .collect();
        let images: HashMap<(usize, usize), Option<&Image>> = follow
            .iter()
            .zip(&followed)
            .filter_map(|(&r, place)| {
                let image = self.scenario.robots.get(r)?.image.as_deref();
                Some(((*place)?, image))
            })
            .collect();
        let mut faults: HashMap<(usize, usize), String> = HashMap::new();
        let world = std::mem::take(&mut self.world);
        let (world, report) = update_with(world, &mut |cell, pending: PendingRobot| {
            let Some(previous) = pending.origin.source(&shape, cell) else {
                return pending.run();
            };
            let Some(image) = images.get(&previous) else {
                return pending.run();
            };
            let before = pending.robot.memory.clone();
            let speed = pending.robot.processor.speed;
            let (robot, step) = pending.run();
            if step.run.is_err() {
                faults.insert(previous, locate_fault(before, speed, *image));
            }
            (robot, step)
        });
        self.world = world;
        self.step += 1;
        let moves = moves(&shape, &report);
        for place in self.robots.iter_mut() {
            *place = place.and_then(|p| moves.get(&p).copied());
        }
        let events = follow
            .iter()
            .zip(&followed)
            .map(|(&r, before)| {
                let now = self.robots.get(r).copied().flatten();
                let step: Option<&RobotStep> = now.and_then(|(cell, k)| report.cells[cell].get(k));
                RobotEvent {
                    step: self.step,
                    at: now.map(|(cell, _)| shape.position(cell)),
                    command: step.and_then(|s| s.command.clone()),
                    action: step.map(|s| s.action.clone()),
                    run: step.map(|s| s.run.clone()),
                    fault: before.and_then(|p| faults.get(&p).cloned()),
                }
            })
            .collect();
        (report, events)
    }

    /// The scores under the scenario's rule, highest points first, ties by
    /// name ([`scores`]).
    pub fn scores(&self) -> Vec<Score> {
        scores(self.scenario, &self.world)
    }

    /// A scenario robot now, if it is still there.
    pub fn robot(&self, k: usize) -> Option<&Robot> {
        let (cell, i) = self.robots.get(k).copied().flatten()?;
        self.world.cells[cell].as_ref()?.robots.get(i)
    }
}

/// The scores of a world under a scenario's rule, highest points first,
/// ties by name.
pub fn scores(scenario: &Scenario, world: &World) -> Vec<Score> {
    let mut scores = score_players(scenario.scoring, &scenario.values, &scenario.players, world);
    scores.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then_with(|| a.player.cmp(&b.player))
    });
    scores
}

/// Scores players in a world under a rule, in the players' order: the one
/// function that scores games, for `run`, `replay`, `test`, the debugger
/// and every tournament round.
///
/// - `home`: score and points are the value (by `values`) of what the
///   robots on the player's home squares carry, each square counted once;
/// - `survivors`: the score is the number of robots of the player's
///   colour; the points are 3 when one player has robots left, 2 each
///   when exactly two have, 1 each otherwise, 0 for a player with none.
pub fn score_players(
    scoring: Scoring,
    values: &ItemValues,
    players: &[Player],
    world: &World,
) -> Vec<Score> {
    let config = values.config(&[]);
    let mut scores: Vec<Score> = players
        .iter()
        .map(|p| {
            let mut homes: Vec<Position> = Vec::new();
            for h in &p.homes {
                if !homes.contains(h) {
                    homes.push(*h);
                }
            }
            let robots = p.color.map(|c| robots_of(world, c));
            let score = match scoring {
                Scoring::Home => homes
                    .iter()
                    .fold(0i64, |s, h| s.wrapping_add(config.score(world, *h))),
                Scoring::Survivors => robots.unwrap_or(0) as i64,
            };
            Score {
                player: p.name.clone(),
                homes,
                robots,
                score,
                points: score,
            }
        })
        .collect();
    if scoring == Scoring::Survivors {
        let points = match scores.iter().filter(|s| s.score > 0).count() {
            1 => 3,
            2 => 2,
            _ => 1,
        };
        for s in &mut scores {
            s.points = if s.score > 0 { points } else { 0 };
        }
    }
    scores
}

/// The robots of a colour anywhere in a world.
fn robots_of(world: &World, color: Color) -> usize {
    world
        .cells
        .iter()
        .flatten()
        .flat_map(|sq| &sq.robots)
        .filter(|r| r.frame.color == color)
        .count()
}

/// For every robot of the old world that is still there: old place to new.
pub fn moves(
    shape: &crate::world::Shape,
    report: &StepReport,
) -> HashMap<(usize, usize), (usize, usize)> {
    let mut moves = HashMap::new();
    for (cell, steps) in report.cells.iter().enumerate() {
        for (k, s) in steps.iter().enumerate() {
            if let Some(previous) = s.origin.source(shape, cell) {
                moves.insert(previous, (cell, k));
            }
        }
    }
    moves
}

/// Runs a machine again, tick by tick, from the memory it had before a run
/// that failed, to find the instruction that failed: `` `INSTRUCTION` at PLACE ``.
pub fn locate_fault(
    mut memory: crate::machine::Memory,
    speed: i64,
    image: Option<&crate::image::Image>,
) -> String {
    let index = image.map(crate::image::Image::code_index);
    for _ in 0..crate::machine::tick_budget(speed) {
        let code = memory
            .first()
            .map(|r| r.contents.clone())
            .unwrap_or_default();
        match tick(&mut memory) {
            Ok(Tick::Executed(_)) => continue,
            Ok(Tick::Halted) => break,
            Err(_) => {
                let names: Vec<String> = image
                    .map(|im| im.registers.iter().map(|r| r.name.clone()).collect())
                    .unwrap_or_default();
                let instruction = code
                    .front()
                    .and_then(crate::encoding::Decode::decode)
                    .map(|i| crate::asm::show::instruction(i, &names))
                    .unwrap_or_else(|| "(not an instruction)".to_string());
                let place = index
                    .as_ref()
                    .zip(image)
                    .and_then(|(ix, im)| {
                        let (r, o) = ix.place(&code)?;
                        im.location(r, o).map(|l| listing::location(im, l))
                    })
                    .unwrap_or_else(|| "code built at run time".to_string());
                return format!("`{instruction}` at {place}");
            }
        }
    }
    "the failing instruction was not found again".to_string()
}

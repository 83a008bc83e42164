//! Tournaments: many rounds of one scenario between player programs.
//!
//! The scenario's `[[slot]]`s say where the players' robots start (colour,
//! strength, speed, inventory, home squares). Every round:
//!
//! 1. its **seed** is the k-th number SplitMix64 draws from the
//!    tournament's seed (k = 1 for the first round), shifted right by one
//!    bit so that it fits a TOML integer;
//! 2. a generator seeded with it draws, in this order: the scenario's
//!    random placements (items, then robots, as [`Scenario::world`] does),
//!    the squares of the `"random"` slots (in slot order, each among the
//!    open squares that hold no robot yet, if any is left), a random
//!    **assignment** of players to slots (a uniform permutation of the
//!    slots: player i gets slot `order[i]`, so no player keeps a slot's
//!    advantage; with fewer players than slots some slots stay empty),
//!    and for each player, in order, a 31-bit number for its `seed`
//!    register;
//! 3. each player's robot is the slot's frame, speed and inventory with the
//!    player's memory; a register named `seed` in a player's image
//!    ([`SEED_REGISTER`]) starts the round holding that player's number as
//!    an Int, so a program can vary its choices from round to round;
//! 4. the scenario's steps are played, and the round is scored with the
//!    scenario's rule ([`Scoring`]). An owner is a frame colour: the slot's
//!    colour, and any robot built later counts for the colour of its frame.
//!
//! Rounds are played in parallel with rayon and collected in round order:
//! the results never depend on the thread count. Trees belong to the thread
//! that made them, so each batch of rounds a thread plays loads its own
//! copy of the scenario and the players' images from a [`Tournament`]'s
//! portable form (text and image JSON).
//!
//! A tournament can also be split into [`shard`]s, each playing a share
//! of the rounds (on other machines), and the shards' results merged into
//! exactly the whole tournament's.

pub mod shard;

use super::game::score_players;
use super::random::SplitMix64;
use super::replay::Replay;
use super::{OverCap, Placement, Player, Scenario, ScenarioError, Scoring};
use crate::diagnostic::{Code, Diagnose, Diagnostic, Sources};
use crate::encoding::Encode;
use crate::image::Image;
use crate::image::format::{from_json, to_json};
use crate::machine::Memory;
use crate::world::{Color, Position, Processor, Robot, World, update};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shard::{Shard, ShardInfo};
use std::ops::RangeInclusive;

/// The register that receives a per-round number (see the module's doc).
pub const SEED_REGISTER: &str = "seed";

/// Bits of the number a player's `seed` register receives.
const SEED_BITS: u32 = 31;

/// The most conses that number can take: one per bit and one per 1 bit.
const SEED_CONSES: i64 = 2 * SEED_BITS as i64;

/// The most rounds a tournament plays (its results are kept in memory).
pub const MAX_ROUNDS: usize = 1_000_000;

/// The most threads a tournament starts.
pub const MAX_JOBS: usize = 256;

/// A player: a name and a program.
#[derive(Debug, Clone)]
pub struct Entrant {
    /// The name in the results.
    pub name: String,
    /// The program.
    pub image: Image,
}

/// Why a tournament cannot be set up or played: each kind is a
/// diagnostic of its own code (`E111.`, see [`TournamentError::code`]).
#[derive(Debug, Clone, thiserror::Error)]
pub enum TournamentError {
    /// The scenario and the players do not make a tournament.
    #[error("{file}: {reason}")]
    Setup {
        /// The scenario, as shown.
        file: String,
        /// What is missing or wrong.
        reason: String,
    },
    /// A player's program does not fit the scenario's slots.
    #[error("player {player}: {reason}")]
    Player {
        /// The player's name.
        player: String,
        /// Why.
        reason: String,
    },
    /// A number of threads out of range, or threads that cannot start.
    #[error("{0}")]
    Threads(String),
    /// A round the tournament does not have.
    #[error("there is no round {round} (rounds 1 to {rounds})")]
    NoRound {
        /// The round asked for.
        round: usize,
        /// The tournament's rounds.
        rounds: usize,
    },
    /// Shard results that do not merge: why.
    #[error("{0}")]
    Shards(String),
    /// The scenario does not load again on a thread: its errors.
    #[error(transparent)]
    Scenario(Box<ScenarioError>),
}

impl TournamentError {
    /// The code of its kind (a scenario's errors have their own codes).
    pub fn code(&self) -> Option<Code> {
        match self {
            TournamentError::Setup { .. } => Some(Code::E1110),
            TournamentError::Player { .. } => Some(Code::E1111),
            TournamentError::Threads(_) => Some(Code::E1112),
            TournamentError::NoRound { .. } => Some(Code::E1113),
            TournamentError::Shards(_) => Some(Code::E1114),
            TournamentError::Scenario(_) => None,
        }
    }
}

impl Diagnose for TournamentError {
    fn diagnose(&self, sources: &mut Sources) -> Vec<Diagnostic> {
        match self {
            TournamentError::Scenario(e) => e.diagnose(sources),
            _ => self
                .code()
                .map(|code| Diagnostic::nowhere(code, self))
                .into_iter()
                .collect(),
        }
    }
}

/// A tournament ready to play, in a form every thread can load.
#[derive(Debug, Clone)]
pub struct Tournament {
    name: String,
    file: String,
    text: String,
    scoring: Scoring,
    /// The scenario's own programs: name and image JSON.
    programs: Vec<(String, String)>,
    /// The players: name and image JSON.
    players: Vec<(String, String)>,
    rounds: usize,
    seed: u64,
}

/// A player's place in a round and what it got.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRound {
    /// The player.
    pub player: String,
    /// The slot it played (0-based, in the scenario's order).
    pub slot: usize,
    /// Its robots' colour.
    pub color: Color,
    /// Where its robot started.
    pub start: Position,
    /// Its points under the scenario's rule.
    pub points: i64,
    /// Its score: the robots of its colour at the end (`survivors`), or the
    /// value carried on its home squares (`home`).
    pub score: i64,
    /// Robots of its colour at the end.
    pub robots: usize,
}

/// One round's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundResult {
    /// The round (1 for the first).
    pub round: usize,
    /// The round's seed.
    pub seed: u64,
    /// Every player, in the tournament's order.
    pub players: Vec<PlayerRound>,
    /// The players with robots at the end, in the tournament's order.
    pub survivors: Vec<String>,
    /// The player with more points than every other, if there is one.
    pub winner: Option<String>,
}

/// A player's totals over all rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Standing {
    /// 1 for the first.
    pub rank: usize,
    /// The player.
    pub player: String,
    /// Points over all rounds.
    pub points: i64,
    /// Rounds won (more points than every other player).
    pub wins: usize,
    /// Rounds that ended with robots of its colour.
    pub survived: usize,
    /// The sum of its scores.
    pub total_score: i64,
    /// Its average score per round.
    pub average_score: f64,
}

/// A whole tournament's results, or a shard's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The scenario's name.
    pub game: String,
    /// The scoring rule: `survivors` or `home`.
    pub scoring: String,
    /// The tournament's seed.
    pub seed: u64,
    /// For a shard's results only: which share of the rounds it played,
    /// and what its merge needs to know of the whole tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    /// Every round played, in order.
    pub rounds: Vec<RoundResult>,
    /// The players ranked over those rounds: most points first, then most
    /// wins, then by name.
    pub standings: Vec<Standing>,
}

/// The seed of round `round` (1-based) of a tournament seeded `seed`: the
/// round-th number SplitMix64 draws from `seed`, shifted right one bit.
pub fn round_seed(seed: u64, round: usize) -> u64 {
    let skipped = SplitMix64::GAMMA.wrapping_mul((round as u64).wrapping_sub(1));
    let start = seed.wrapping_add(skipped);
    SplitMix64::new(start).next_u64() >> 1
}

impl Tournament {
    /// Checks the players against the scenario: no more players than slots,
    /// slots of distinct colours, register limits within the scenario's
    /// caps, contents that fit their limits, a `seed` register large enough.
    pub fn new(
        scenario: &Scenario,
        text: &str,
        players: &[Entrant],
        rounds: usize,
        seed: u64,
    ) -> Result<Tournament, TournamentError> {
        let fail = |reason: String| {
            Err(TournamentError::Setup {
                file: scenario.file.clone(),
                reason,
            })
        };
        if scenario.slots.is_empty() {
            return fail("the scenario has no [[slot]] for the players' robots".into());
        }
        if players.is_empty() {
            return fail("a tournament needs at least one player".into());
        }
        if players.len() > scenario.slots.len() {
            return fail(format!(
                "{} players, but the scenario has only {} slots",
                players.len(),
                scenario.slots.len()
            ));
        }
        if rounds == 0 || rounds > MAX_ROUNDS {
            return fail(format!(
                "{rounds} rounds: a tournament plays 1 to {MAX_ROUNDS} rounds"
            ));
        }
        for (k, slot) in scenario.slots.iter().enumerate() {
            if let Some(j) = scenario.slots[..k]
                .iter()
                .position(|s| s.frame.color == slot.frame.color)
            {
                return fail(format!(
                    "slot[{j}] and slot[{k}] are both {:?}: players are told apart by their colours",
                    slot.frame.color
                ));
            }
        }
        for p in players {
            check_player(scenario, p).map_err(|e| TournamentError::Player {
                player: p.name.clone(),
                reason: e.to_string(),
            })?;
        }
        Ok(Tournament {
            name: scenario.name.clone(),
            file: scenario.file.clone(),
            text: text.to_string(),
            scoring: scenario.scoring,
            programs: scenario
                .images()
                .iter()
                .map(|(name, image)| (name.clone(), to_json(image)))
                .collect(),
            players: players
                .iter()
                .map(|p| (p.name.clone(), to_json(&p.image)))
                .collect(),
            rounds,
            seed,
        })
    }

    /// The number of rounds.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The players' names, in order.
    pub fn players(&self) -> Vec<&str> {
        self.players.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// Plays every round on `jobs` threads (`None`: one per core; at most
    /// [`MAX_JOBS`]), calling
    /// `on_round` after each, and ranks the players.
    pub fn play(
        &self,
        jobs: Option<usize>,
        on_round: &(dyn Fn() + Sync),
    ) -> Result<Outcome, TournamentError> {
        let rounds = self.play_rounds(1..=self.rounds, jobs, on_round)?;
        Ok(self.outcome(rounds, None))
    }

    /// Plays only a shard's share of the rounds ([`Shard::rounds`]), as
    /// [`Tournament::play`] would play them, and ranks the players over
    /// them; the outcome says which shard it is, for
    /// [`shard::merge`].
    pub fn play_shard(
        &self,
        shard: Shard,
        jobs: Option<usize>,
        on_round: &(dyn Fn() + Sync),
    ) -> Result<Outcome, TournamentError> {
        let rounds = self.play_rounds(shard.rounds(self.rounds), jobs, on_round)?;
        let info = ShardInfo {
            index: shard.index,
            count: shard.count,
            rounds: self.rounds,
            players: self.players().into_iter().map(str::to_string).collect(),
        };
        Ok(self.outcome(rounds, Some(info)))
    }

    /// The rounds `which`, played on `jobs` threads, in round order.
    fn play_rounds(
        &self,
        which: RangeInclusive<usize>,
        jobs: Option<usize>,
        on_round: &(dyn Fn() + Sync),
    ) -> Result<Vec<RoundResult>, TournamentError> {
        if jobs.is_some_and(|j| j == 0 || j > MAX_JOBS) {
            return Err(TournamentError::Threads(format!(
                "a tournament runs on 1 to {MAX_JOBS} threads"
            )));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.unwrap_or(0))
            .build()
            .map_err(|e| TournamentError::Threads(format!("cannot start the threads: {e}")))?;
        let results: Vec<Result<RoundResult, TournamentError>> = pool.install(|| {
            which
                .into_par_iter()
                .map_init(
                    || self.arena(),
                    |arena, k| {
                        let result = arena.as_ref().map_err(Clone::clone).map(|a| a.round(k));
                        on_round();
                        result
                    },
                )
                .collect()
        });
        results.into_iter().collect()
    }

    /// Plays one round on this thread.
    pub fn play_round(&self, round: usize) -> Result<RoundResult, TournamentError> {
        self.check_round(round)?;
        Ok(self.arena()?.round(round))
    }

    fn check_round(&self, round: usize) -> Result<(), TournamentError> {
        if round == 0 || round > self.rounds {
            return Err(TournamentError::NoRound {
                round,
                rounds: self.rounds,
            });
        }
        Ok(())
    }

    /// Plays one round on this thread and records it as a replay that
    /// `constree debug --replay` and `constree replay` load: its scenario is
    /// the tournament's with the round's seed and the players' robots
    /// written in at their starting squares (named after the players), and
    /// its images the players' with their `seed` registers set.
    pub fn record_round(&self, round: usize) -> Result<(RoundResult, Replay), TournamentError> {
        self.check_round(round)?;
        let arena = self.arena()?;
        let setup = arena.setup(round);
        let text = self.round_text(&arena, &setup)?;
        let mut images = arena.scenario.images();
        for placed in &setup.placed {
            let mut image = arena.players[placed.player].1.clone();
            if let (Some(k), Some(n)) = (image.register(SEED_REGISTER), placed.seed) {
                image.registers[k].contents = n.encode();
            }
            images.push((player_program(&self.players[placed.player].0), image));
        }
        let mut replay = Replay::new(format!("{}, round {round}", self.name), text, images);
        replay.push(&setup.world);
        let result = arena.play_setup(setup, &mut |w| replay.push(w));
        Ok((result, replay))
    }

    /// The scenario and players loaded on this thread.
    fn arena(&self) -> Result<Arena, TournamentError> {
        let programs = |name: &str| {
            let (_, json) = self
                .programs
                .iter()
                .find(|(n, _)| n == name)
                .ok_or_else(|| super::ProgramError::Missing(format!("no image of {name}")))?;
            from_json(json).map_err(|e| super::ProgramError::from((std::path::Path::new(name), e)))
        };
        let scenario = Scenario::from_text(&self.file, &self.text, &programs)
            .map_err(|e| TournamentError::Scenario(Box::new(e)))?;
        let players = self
            .players
            .iter()
            .map(|(name, json)| {
                from_json(json)
                    .map(|image| (name.clone(), image))
                    .map_err(|e| TournamentError::Player {
                        player: name.clone(),
                        reason: e.to_string(),
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(Arena {
            scenario,
            players,
            seed: self.seed,
        })
    }

    /// The scenario of one round, as TOML: the tournament's, with the
    /// round's seed, a `[[robot]]` for each player's robot at its starting
    /// square and a `[[player]]` with its home squares and colour.
    fn round_text(&self, arena: &Arena, setup: &Setup) -> Result<String, TournamentError> {
        let corrupt = |reason: String| TournamentError::Setup {
            file: self.file.clone(),
            reason,
        };
        let mut table: toml::Table =
            toml::from_str(&self.text).map_err(|e| corrupt(e.to_string()))?;
        let slots = table
            .get("slot")
            .and_then(toml::Value::as_array)
            .cloned()
            .ok_or_else(|| corrupt("no [[slot]]".into()))?;
        let mut robots = Vec::new();
        let mut players = Vec::new();
        for placed in &setup.placed {
            let name = &self.players[placed.player].0;
            let mut robot = slots
                .get(placed.slot)
                .and_then(toml::Value::as_table)
                .cloned()
                .ok_or_else(|| corrupt(format!("no slot[{}]", placed.slot)))?;
            robot.remove("homes");
            robot.insert("name".into(), name.clone().into());
            robot.insert("at".into(), position_value(placed.start));
            robot.insert("program".into(), player_program(name).into());
            robots.push(toml::Value::Table(robot));
            let mut player = toml::Table::new();
            player.insert("name".into(), name.clone().into());
            player.insert(
                "homes".into(),
                toml::Value::Array(placed.homes.iter().map(|h| position_value(*h)).collect()),
            );
            player.insert("color".into(), format!("{:?}", placed.color).into());
            players.push(toml::Value::Table(player));
        }
        for (key, entries) in [("robot", robots), ("player", players)] {
            let list = table
                .entry(key)
                .or_insert_with(|| toml::Value::Array(Vec::new()));
            if let toml::Value::Array(list) = list {
                list.extend(entries);
            }
        }
        table.insert("seed".into(), toml::Value::Integer(setup.seed as i64));
        table.insert(
            "name".into(),
            format!("{}, round {}", arena.scenario.name, setup.round).into(),
        );
        toml::to_string(&table).map_err(|e| corrupt(e.to_string()))
    }

    fn outcome(&self, rounds: Vec<RoundResult>, shard: Option<ShardInfo>) -> Outcome {
        let names: Vec<String> = self.players.iter().map(|(n, _)| n.clone()).collect();
        Outcome {
            game: self.name.clone(),
            scoring: self.scoring.name().to_string(),
            seed: self.seed,
            shard,
            standings: standings(&names, &rounds),
            rounds,
        }
    }
}

/// The players ranked over `rounds`, in which every round lists the
/// `players` in this order: most points first, then most wins, then by
/// name.
fn standings(players: &[String], rounds: &[RoundResult]) -> Vec<Standing> {
    let mut standings: Vec<Standing> = players
        .iter()
        .enumerate()
        .map(|(p, name)| {
            let mine = || rounds.iter().map(move |r| &r.players[p]);
            let total_score = mine().fold(0i64, |s, r| s.wrapping_add(r.score));
            Standing {
                rank: 0,
                player: name.clone(),
                points: mine().fold(0i64, |s, r| s.wrapping_add(r.points)),
                wins: rounds
                    .iter()
                    .filter(|r| r.winner.as_ref() == Some(name))
                    .count(),
                survived: mine().filter(|r| r.robots > 0).count(),
                total_score,
                average_score: total_score as f64 / rounds.len().max(1) as f64,
            }
        })
        .collect();
    standings.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.wins.cmp(&a.wins))
            .then_with(|| a.player.cmp(&b.player))
    });
    for (k, s) in standings.iter_mut().enumerate() {
        s.rank = k + 1;
    }
    standings
}

/// The program name a player's robot has in a round's scenario.
fn player_program(name: &str) -> String {
    format!("player:{name}")
}

fn position_value((x, y): Position) -> toml::Value {
    toml::Value::Array(vec![x.into(), y.into()])
}

/// Why a player's image cannot play in a tournament.
#[derive(Debug, thiserror::Error)]
enum PlayerError {
    /// A register limit over the scenario's cap.
    #[error("{0}")]
    OverCap(OverCap),
    /// Initial contents that do not fit their register's limit.
    #[error("register {index} (`{name}`) holds {size} conses, which do not fit its limit {limit}")]
    Contents {
        /// The register.
        index: usize,
        /// Its name.
        name: String,
        /// The conses it holds.
        size: u64,
        /// Its limit.
        limit: i64,
    },
    /// A `seed` register too small for the player's number.
    #[error(
        "register {index} (`{SEED_REGISTER}`) receives a {SEED_BITS}-bit number every round: its limit must be at least {SEED_CONSES}, not {limit}"
    )]
    Seed {
        /// The register.
        index: usize,
        /// Its limit.
        limit: i64,
    },
}

/// A player's image against the scenario's caps; contents that fit; a
/// `seed` register that can hold its number.
fn check_player(scenario: &Scenario, player: &Entrant) -> Result<(), PlayerError> {
    for (i, r) in player.image.registers.iter().enumerate() {
        let what = format!("register {i} (`{}`)'s limit", r.name);
        scenario
            .limits
            .check_register(&what, r.limit)
            .map_err(PlayerError::OverCap)?;
        if !(r.contents.is_nil() || r.contents.fits(r.limit)) {
            return Err(PlayerError::Contents {
                index: i,
                name: r.name.clone(),
                size: r.contents.size(),
                limit: r.limit,
            });
        }
    }
    if let Some(k) = player.image.register(SEED_REGISTER)
        && player.image.registers[k].limit < SEED_CONSES
    {
        return Err(PlayerError::Seed {
            index: k,
            limit: player.image.registers[k].limit,
        });
    }
    Ok(())
}

/// A tournament's scenario and players, loaded on one thread.
struct Arena {
    scenario: Scenario,
    /// Name and image of every player.
    players: Vec<(String, Image)>,
    /// The tournament's seed.
    seed: u64,
}

/// A player's robot as a round places it.
struct Placed {
    player: usize,
    slot: usize,
    start: Position,
    homes: Vec<Position>,
    color: Color,
    /// The number its `seed` register gets, if it has one.
    seed: Option<i64>,
}

/// A round before its first step.
struct Setup {
    round: usize,
    seed: u64,
    world: World,
    /// In slot order.
    placed: Vec<Placed>,
}

impl Arena {
    /// The round's world, its players placed (see the module's doc).
    fn setup(&self, round: usize) -> Setup {
        let seed = round_seed(self.seed, round);
        let mut rng = SplitMix64::new(seed);
        let scenario = &self.scenario;
        let (mut world, _) = scenario.world_with(&mut rng);
        let shape = world.shape();
        let open = scenario.open_cells();
        let mut free: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| {
                world.cells[c]
                    .as_ref()
                    .is_some_and(|sq| sq.robots.is_empty())
            })
            .collect();
        let cells: Vec<usize> = scenario
            .slots
            .iter()
            .map(|slot| match slot.at {
                Placement::At(p) => shape.locate(p),
                Placement::Random if free.is_empty() => open[rng.below(open.len() as u64) as usize],
                Placement::Random => free.swap_remove(rng.below(free.len() as u64) as usize),
            })
            .collect();
        let mut order: Vec<usize> = (0..scenario.slots.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let seeds: Vec<i64> = (0..self.players.len())
            .map(|_| (rng.next_u64() >> (64 - SEED_BITS)) as i64)
            .collect();
        let mut placed = Vec::new();
        for (s, slot) in scenario.slots.iter().enumerate() {
            let Some(player) = order.iter().take(self.players.len()).position(|&o| o == s) else {
                continue;
            };
            let image = &self.players[player].1;
            let seed_register = image.register(SEED_REGISTER);
            let mut memory: Memory = image.memory();
            if let Some(k) = seed_register {
                memory[k].contents = seeds[player].encode();
            }
            if let Some(sq) = world.cells[cells[s]].as_mut() {
                sq.robots.push(Robot {
                    frame: slot.frame,
                    inventory: slot.inventory.clone(),
                    processor: Processor { speed: slot.speed },
                    memory,
                });
            }
            let start = shape.position(cells[s]);
            placed.push(Placed {
                player,
                slot: s,
                start,
                homes: if slot.homes.is_empty() {
                    vec![start]
                } else {
                    slot.homes.clone()
                },
                color: slot.frame.color,
                seed: seed_register.map(|_| seeds[player]),
            });
        }
        Setup {
            round,
            seed,
            world,
            placed,
        }
    }

    /// Plays and scores a round.
    fn round(&self, round: usize) -> RoundResult {
        self.play_setup(self.setup(round), &mut |_| {})
    }

    /// Plays a round that is set up, calling `after_step` with the world
    /// after every step, and scores it.
    fn play_setup(&self, setup: Setup, after_step: &mut dyn FnMut(&World)) -> RoundResult {
        let mut world = setup.world;
        for _ in 0..self.scenario.steps {
            world = update(world);
            after_step(&world);
        }
        let owners: Vec<Player> = setup.placed.iter().map(|p| self.owner(p)).collect();
        let scores = score_players(
            self.scenario.scoring,
            &self.scenario.values,
            &owners,
            &world,
        );
        let mut players: Vec<PlayerRound> = setup
            .placed
            .iter()
            .zip(scores)
            .map(|(p, score)| PlayerRound {
                player: score.player,
                slot: p.slot,
                color: p.color,
                start: p.start,
                points: score.points,
                score: score.score,
                robots: score.robots.unwrap_or(0),
            })
            .collect();
        players.sort_by_key(|p| self.players.iter().position(|(n, _)| *n == p.player));
        let best = players.iter().map(|p| p.points).max();
        let mut leaders = players.iter().filter(|p| Some(p.points) == best);
        let winner = match (leaders.next(), leaders.next()) {
            (Some(p), None) => Some(p.player.clone()),
            _ => None,
        };
        RoundResult {
            round: setup.round,
            seed: setup.seed,
            survivors: players
                .iter()
                .filter(|p| p.robots > 0)
                .map(|p| p.player.clone())
                .collect(),
            players,
            winner,
        }
    }

    /// A placed player as the scoring sees it: its name, home squares and
    /// colour.
    fn owner(&self, placed: &Placed) -> Player {
        Player {
            name: self.players[placed.player].0.clone(),
            homes: placed.homes.clone(),
            color: Some(placed.color),
        }
    }
}

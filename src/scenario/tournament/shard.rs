//! Tournaments past one machine: a tournament of R rounds split into N
//! shards, each played by its own process (on its own machine), and the
//! shards' results merged into exactly the whole tournament's.
//!
//! Shard K of N plays the consecutive rounds `(K-1)·R/N + 1` to `K·R/N`
//! (divisions rounded down): every round belongs to exactly one shard, the
//! shares differ by at most one round, and a shard plays its rounds with
//! the seeds the whole tournament gives them ([`super::round_seed`]), so
//! its rounds are the whole tournament's. A shard's [`Outcome`] carries a
//! [`ShardInfo`]; [`merge`] checks that the shards are all of one
//! tournament and complete, puts their rounds in order and ranks the
//! players over all of them, as [`super::Tournament::play`] does.

use super::{MAX_ROUNDS, Outcome, TournamentError, round_seed, standings};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// The most shards a tournament is split into.
pub const MAX_SHARDS: usize = MAX_ROUNDS;

/// The most missing shards an error names one by one.
const MISSING_NAMED: usize = 5;

/// Which share of a tournament's rounds a process plays: shard `index` of
/// `count`, both counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1 to `count`.
    pub index: usize,
    /// How many shards share the rounds.
    pub count: usize,
}

/// Why a shard's name, or a shard's results, do not hold together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// A `--shard` that is not `K/N` (the text).
    #[error("{0:?} is not K/N (shard K of N, as in 2/5)")]
    Malformed(String),
    /// A `--shard` whose N is 0 or over [`MAX_SHARDS`] (the text).
    #[error("{0:?}: N must be 1 to {MAX_SHARDS}")]
    Count(String),
    /// A `--shard` whose K is 0 or over N.
    #[error("{text:?}: K must be 1 to N ({count})")]
    Index {
        /// The text.
        text: String,
        /// N.
        count: usize,
    },
    /// Results whose shard is not K/N with 1 <= K <= N <= [`MAX_SHARDS`].
    #[error("shard {index}/{count}: a shard is K/N with 1 <= K <= N <= {MAX_SHARDS}")]
    BadShard {
        /// K.
        index: usize,
        /// N.
        count: usize,
    },
    /// Results of a tournament of 0 or over [`MAX_ROUNDS`] rounds.
    #[error("{0} rounds: a tournament plays 1 to {MAX_ROUNDS} rounds")]
    Rounds(usize),
    /// Results of a tournament without players.
    #[error("a tournament has at least one player")]
    NoPlayers,
    /// Results that hold other rounds than the shard's share.
    #[error(
        "shard {shard} of a {rounds}-round tournament plays {}, but its results hold {} round{} ({})",
        share(.shard.rounds(*.rounds)),
        .found.len(),
        if .found.len() == 1 { "" } else { "s" },
        summary(.found)
    )]
    Share {
        /// The shard.
        shard: Shard,
        /// The tournament's rounds.
        rounds: usize,
        /// The rounds the results hold.
        found: Vec<usize>,
    },
    /// A round whose seed is not the tournament's seed's.
    #[error(
        "round {round} has the seed {seed}, but the tournament's seed {tournament} gives it {expected}"
    )]
    Seed {
        /// The round.
        round: usize,
        /// Its seed.
        seed: u64,
        /// The tournament's seed.
        tournament: u64,
        /// The round's seed by the tournament's.
        expected: u64,
    },
    /// A round with other players than the tournament's.
    #[error("round {round} lists the players {players:?}, not the tournament's {expected:?}")]
    Players {
        /// The round.
        round: usize,
        /// Its players.
        players: Vec<String>,
        /// The tournament's.
        expected: Vec<String>,
    },
}

/// A shard's share of rounds in words.
fn share(rounds: RangeInclusive<usize>) -> String {
    if rounds.is_empty() {
        "no rounds".to_string()
    } else {
        format!("rounds {} to {}", rounds.start(), rounds.end())
    }
}

impl Shard {
    /// Reads `K/N` (1 <= K <= N <= [`MAX_SHARDS`]).
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let malformed = || ShardError::Malformed(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(malformed)?;
        let number = |s: &str| {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed());
            }
            s.parse::<usize>().map_err(|_| malformed())
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 || count > MAX_SHARDS {
            return Err(ShardError::Count(text.to_string()));
        }
        if index == 0 || index > count {
            return Err(ShardError::Index {
                text: text.to_string(),
                count,
            });
        }
        Ok(Shard { index, count })
    }

    /// The rounds (1-based) this shard plays of a tournament of `total`
    /// rounds; empty when there are fewer rounds than shards and this one
    /// gets none.
    pub fn rounds(self, total: usize) -> RangeInclusive<usize> {
        let bound = |k: usize| ((k as u128 * total as u128) / self.count as u128) as usize;
        bound(self.index - 1) + 1..=bound(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a shard's results say of the whole tournament, for [`merge`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardInfo {
    /// This shard: 1 to `count`.
    pub index: usize,
    /// How many shards share the rounds.
    pub count: usize,
    /// The whole tournament's rounds.
    pub rounds: usize,
    /// The players, in the tournament's order.
    pub players: Vec<String>,
}

impl ShardInfo {
    fn shard(&self) -> Shard {
        Shard {
            index: self.index,
            count: self.count,
        }
    }
}

/// Merges shards' results, each with the name of the file it came from
/// (for the errors), into the whole tournament's outcome: exactly what
/// [`super::Tournament::play`] returns for the tournament they share.
/// Refuses results that are not a shard's, shards of different
/// tournaments, a shard given twice or missing, and rounds that are not
/// the shard's (numbers, seeds, players).
pub fn merge(shards: &[(String, Outcome)]) -> Result<Outcome, TournamentError> {
    let fail = |m: String| Err(TournamentError::Shards(m));
    let mut infos = Vec::with_capacity(shards.len());
    for (file, outcome) in shards {
        let Some(info) = &outcome.shard else {
            return fail(format!(
                "{file}: these are not a shard's results (they have no `shard`): \
                 `constree tournament --shard K/N --format json` prints them"
            ));
        };
        check_info(info).map_err(|m| TournamentError::Shards(format!("{file}: {m}")))?;
        infos.push(info);
    }
    let Some(((first_file, first), first_info)) = shards.iter().zip(&infos).next() else {
        return fail("no shards to merge".into());
    };
    for ((file, outcome), info) in shards.iter().zip(&infos) {
        let differ = [
            ("game", outcome.game != first.game),
            ("scoring", outcome.scoring != first.scoring),
            ("seed", outcome.seed != first.seed),
            ("shard count", info.count != first_info.count),
            ("number of rounds", info.rounds != first_info.rounds),
            ("players", info.players != first_info.players),
        ];
        if let Some((what, _)) = differ.iter().find(|(_, d)| *d) {
            return fail(format!(
                "{file} and {first_file} differ in their {what}: they are shards of different tournaments"
            ));
        }
    }
    let mut by_index: Vec<Option<usize>> = vec![None; first_info.count];
    for (k, info) in infos.iter().enumerate() {
        if let Some(other) = by_index[info.index - 1].replace(k) {
            return fail(format!(
                "{} and {} are both shard {}",
                shards[other].0,
                shards[k].0,
                info.shard()
            ));
        }
    }
    let missing: Vec<String> = (1..=first_info.count)
        .filter(|k| by_index[k - 1].is_none())
        .map(|k| format!("{k}/{}", first_info.count))
        .collect();
    if !missing.is_empty() {
        let named = missing[..missing.len().min(MISSING_NAMED)].join(", ");
        let more = if missing.len() > MISSING_NAMED {
            format!(" ({} in all)", missing.len())
        } else {
            String::new()
        };
        return fail(format!("shards missing: {named}{more}"));
    }
    let mut rounds = Vec::with_capacity(first_info.rounds);
    for k in by_index.into_iter().flatten() {
        let (file, outcome) = &shards[k];
        check_rounds(outcome, infos[k])
            .map_err(|m| TournamentError::Shards(format!("{file}: {m}")))?;
        rounds.extend(outcome.rounds.iter().cloned());
    }
    Ok(Outcome {
        game: first.game.clone(),
        scoring: first.scoring.clone(),
        seed: first.seed,
        shard: None,
        standings: standings(&first_info.players, &rounds),
        rounds,
    })
}

/// A shard's description on its own.
fn check_info(info: &ShardInfo) -> Result<(), ShardError> {
    if info.count == 0 || info.count > MAX_SHARDS || info.index == 0 || info.index > info.count {
        return Err(ShardError::BadShard {
            index: info.index,
            count: info.count,
        });
    }
    if info.rounds == 0 || info.rounds > MAX_ROUNDS {
        return Err(ShardError::Rounds(info.rounds));
    }
    if info.players.is_empty() {
        return Err(ShardError::NoPlayers);
    }
    Ok(())
}

/// A shard's rounds are its share, in order, with the tournament's seeds
/// and players.
fn check_rounds(outcome: &Outcome, info: &ShardInfo) -> Result<(), ShardError> {
    let expected: Vec<usize> = info.shard().rounds(info.rounds).collect();
    let found: Vec<usize> = outcome.rounds.iter().map(|r| r.round).collect();
    if found != expected {
        return Err(ShardError::Share {
            shard: info.shard(),
            rounds: info.rounds,
            found,
        });
    }
    for round in &outcome.rounds {
        let seed = round_seed(outcome.seed, round.round);
        if round.seed != seed {
            return Err(ShardError::Seed {
                round: round.round,
                seed: round.seed,
                tournament: outcome.seed,
                expected: seed,
            });
        }
        let players: Vec<String> = round.players.iter().map(|p| p.player.clone()).collect();
        if players != info.players {
            return Err(ShardError::Players {
                round: round.round,
                players,
                expected: info.players.clone(),
            });
        }
    }
    Ok(())
}

/// Round numbers in short: the first few, then how many more.
fn summary(rounds: &[usize]) -> String {
    let shown: Vec<String> = rounds
        .iter()
        .take(MISSING_NAMED)
        .map(usize::to_string)
        .collect();
    let more = rounds.len().saturating_sub(MISSING_NAMED);
    match (shown.is_empty(), more) {
        (true, _) => "none".into(),
        (false, 0) => shown.join(", "),
        (false, more) => format!("{}, and {more} more", shown.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_round_once_in_order() {
        for total in [1, 2, 3, 7, 10, 100] {
            for count in [1, 2, 3, 4, 11] {
                let all: Vec<usize> = (1..=count)
                    .flat_map(|index| Shard { index, count }.rounds(total))
                    .collect();
                assert_eq!(all, (1..=total).collect::<Vec<_>>(), "{total} {count}");
                let sizes: Vec<usize> = (1..=count)
                    .map(|index| Shard { index, count }.rounds(total).count())
                    .collect();
                let (min, max) = (sizes.iter().min(), sizes.iter().max());
                assert!(max.unwrap() - min.unwrap() <= 1, "{sizes:?}");
            }
        }
    }

    #[test]
    fn parse_reads_k_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("2/5"), Ok(Shard { index: 2, count: 5 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard { index: 1, count: 1 }));
        for bad in [
            "", "2", "0/3", "4/3", "1/0", "-1/3", "+1/3", "1/3/4", "a/b", " 1/3",
        ] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(
            Shard::parse("1/1000001")
                .unwrap_err()
                .to_string()
                .contains("1 to 1000000")
        );
    }
}

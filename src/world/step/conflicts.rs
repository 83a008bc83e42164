//! Contested items and shields: the data the report computes before it
//! resolves any command.

use super::{TakenSquare, nth};
use crate::world::{Command, Robot, item::construct};

/// `itemTargets`, `attacks` and `shielded` of the report.
pub struct Conflicts {
    /// `itemTargets`: for each entry of `uses`, the index of its item in the
    /// square, or `None` when the item is contested.
    ///
    /// Note the report's quirk: this list is indexed by position in `uses`
    /// (valid lifts, then the parts of valid builds, in robot order), not by
    /// item index, although `Lift i` and `Build is` look it up with item
    /// indices. A robot alone lifting item 1 finds `itemTargets !!? 1` empty
    /// and its command is `Invalid`.
    pub targets: Vec<Option<usize>>,
    /// `attacks`: per robot, the number of `Inspect` and `Destroy` commands
    /// aimed at its index, whatever becomes of them.
    pub attacks: Vec<usize>,
    /// `shielded`: per robot, whether `attacks <= shields` (a tie blocks).
    pub shielded: Vec<bool>,
}

impl Conflicts {
    /// Computes the conflicts of a square whose outputs were taken.
    pub fn new(here: &TakenSquare) -> Conflicts {
        let uses = uses(here);
        // Most steps nobody lifts or builds: no table of demand then.
        let targets = if uses.is_empty() {
            Vec::new()
        } else {
            let mut demand = vec![0u32; here.items.len()];
            for &k in &uses {
                demand[k] += 1;
            }
            uses.iter()
                .map(|&k| (demand[k] == 1).then_some(k))
                .collect()
        };

        let mut attacks = vec![0usize; here.robots.len()];
        for intent in here.intents.iter().flatten() {
            if let Command::Inspect(i) | Command::Destroy(i) = intent
                && let Some(count) = usize::try_from(*i).ok().and_then(|i| attacks.get_mut(i))
            {
                *count += 1;
            }
        }
        let shielded = here
            .robots
            .iter()
            .zip(&attacks)
            .map(|(r, &a)| a <= r.shields())
            .collect();
        Conflicts {
            targets,
            attacks,
            shielded,
        }
    }
}

/// The report's `uses = validLifts ++ concat validBuilds`: item indices, each
/// valid for the square's item list.
fn uses(here: &TakenSquare) -> Vec<usize> {
    let items = &here.items;
    let valid_lifts =
        here.robots
            .iter()
            .zip(&here.intents)
            .filter_map(|(r, intent)| match intent {
                Some(Command::Lift(i)) => is_valid_lift(r, items, *i),
                _ => None,
            });
    let valid_builds = here.intents.iter().filter_map(|intent| match intent {
        Some(Command::Build(is, _)) => valid_build(items, is),
        _ => None,
    });
    valid_lifts.chain(valid_builds.flatten()).collect()
}

/// `isValidLift`: the index names an item the robot could carry.
fn is_valid_lift(robot: &Robot, items: &[crate::world::Item], i: i64) -> Option<usize> {
    let item = nth(items, i)?;
    robot.can_lift(item).then_some(i as usize)
}

/// `isValidBuild`: every index names an item and together they make a robot.
fn valid_build(items: &[crate::world::Item], is: &[i64]) -> Option<Vec<usize>> {
    let indices: Vec<usize> = is
        .iter()
        .map(|&i| nth(items, i).map(|_| i as usize))
        .collect::<Option<_>>()?;
    construct(indices.iter().map(|&k| &items[k]))?;
    Some(indices)
}

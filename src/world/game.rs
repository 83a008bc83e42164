//! Games: who plays where and what items are worth (the report's section
//! "Games").
//!
//! Players are not robots. Each player has a home square; at the end of the
//! game a player scores the value of everything carried by the robots that
//! stand on it.

use super::{Item, Position, Robot, World};

/// The report's `GameConfig`: players with their home squares, and the value
/// of each item.
pub struct GameConfig {
    /// `(home, name)` for each player, in order.
    pub players: Vec<(Position, String)>,
    /// What each item is worth.
    pub valuer: Box<dyn Fn(&Item) -> i64>,
}

impl GameConfig {
    /// A game whose cargo is worth its type and everything else nothing (the
    /// valuer of the report's examples and of the conformance vectors).
    pub fn cargo_by_type(players: Vec<(Position, String)>) -> GameConfig {
        GameConfig {
            players,
            valuer: Box::new(|item| match item {
                Item::Cargo(t, _) => *t,
                _ => 0,
            }),
        }
    }

    /// The value of an item.
    pub fn value(&self, item: &Item) -> i64 {
        (self.valuer)(item)
    }

    /// The report's `points`: the value of a robot's inventory (summed with
    /// GHC's wrapping `Int`).
    pub fn points(&self, robot: &Robot) -> i64 {
        robot
            .inventory
            .iter()
            .fold(0i64, |sum, i| sum.wrapping_add(self.value(i)))
    }

    /// The report's `score`: the points of every robot in a square (0 for a
    /// wall). Positions wrap.
    pub fn score(&self, world: &World, p: Position) -> i64 {
        world.at(p).as_ref().map_or(0, |sq| {
            sq.robots
                .iter()
                .fold(0i64, |sum, r| sum.wrapping_add(self.points(r)))
        })
    }
}

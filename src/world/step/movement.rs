//! Robots moving between squares: the report's `incomingFrom`.
//!
//! A move into a square always succeeds, so the robots that enter a square
//! are exactly the robots of its neighbours that move towards it. constree
//! first lists every square's departures, then hands each departing robot to
//! the one square it enters.

use super::{Openings, TakenSquare};
use crate::world::{Command, Direction, Robot};

/// A robot leaving its square this step.
#[derive(Debug, Clone)]
pub struct Departure {
    /// Its index in its old square's robot list.
    pub index: usize,
    /// The direction it moves in.
    pub toward: Direction,
    /// The robot as its old square left it (output taken, inventory as it
    /// was: a moving robot is not attacked). Taken by the square it enters.
    pub robot: Option<Robot>,
}

/// A robot entering a square.
#[derive(Debug, Clone)]
pub struct Arrival {
    /// The robot.
    pub robot: Robot,
    /// The direction of the square it came from, seen from here.
    pub from: Direction,
    /// Its index in that square's robot list.
    pub index: usize,
}

/// The robots of a square that move into an open neighbour.
pub fn departures(here: &TakenSquare, open: &Openings) -> Vec<Departure> {
    here.robots
        .iter()
        .zip(&here.intents)
        .enumerate()
        .filter_map(|(index, (robot, intent))| match intent {
            Some(Command::Move(d)) if open[d.index()] => Some(Departure {
                index,
                toward: *d,
                robot: Some(robot.clone()),
            }),
            _ => None,
        })
        .collect()
}

/// The robots entering a square, given the departures of every cell and the
/// indices of this square's neighbours (`N .. NW`; `None` past the edge of a
/// bounded grid). Neighbours are visited in the order `N .. NW`, and their
/// robots in their order there.
///
/// In a grid one cell wide a square is its own neighbour, and a robot that
/// moves "out" of it re-enters it.
pub fn arrivals(departures: &mut [Vec<Departure>], neighbours: [Option<usize>; 8]) -> Vec<Arrival> {
    let mut arrivals = Vec::new();
    for (from, neighbour) in Direction::ALL.into_iter().zip(neighbours) {
        let Some(n) = neighbour else { continue };
        for departure in departures[n]
            .iter_mut()
            .filter(|d| d.toward == from.opposite())
        {
            if let Some(robot) = departure.robot.take() {
                arrivals.push(Arrival {
                    robot,
                    from,
                    index: departure.index,
                });
            }
        }
    }
    arrivals
}

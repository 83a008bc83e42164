//! The report's `incomingFrom`: robots entering from the neighbours.

use super::Neighbourhood;
use crate::world::{Command, Direction, Robot};

/// A robot arriving in a square.
pub struct Arrival {
    /// The robot as its old square left it (output taken, inventory as it
    /// was: a moving robot is not attacked).
    pub robot: Robot,
    /// The direction of the square it came from, seen from here.
    pub from: Direction,
    /// Its index in that square's robot list.
    pub index: usize,
    /// Its command (a move towards here).
    pub command: Command,
}

/// Every robot of a neighbour that moves towards this square, neighbours in
/// the order `N .. NW`, robots in their order there. A move into a square
/// always succeeds, so nothing else is checked.
///
/// In a grid one cell wide a square is its own neighbour, and a robot that
/// moves "out" of it re-enters it.
pub fn arrivals(around: &Neighbourhood<'_>) -> Vec<Arrival> {
    let mut arrivals = Vec::new();
    for (from, neighbour) in Direction::ALL.into_iter().zip(around) {
        let Some(square) = neighbour else { continue };
        for (index, (robot, intent)) in square.robots.iter().zip(&square.intents).enumerate() {
            if let Some(command @ Command::Move(d)) = intent
                && from == d.opposite()
            {
                arrivals.push(Arrival {
                    robot: robot.clone(),
                    from,
                    index,
                    command: command.clone(),
                });
            }
        }
    }
    arrivals
}

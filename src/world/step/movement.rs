//! Robots moving between squares: the report's `incomingFrom`.
//!
//! A move into a square always succeeds, so the robots that enter a square
//! are exactly the robots of its neighbours that move towards it. constree
//! lists each departing robot with the one square it enters ([`depart`]),
//! then puts the list in the order of the squares and each square's
//! arrivals in the report's order ([`order_arrivals`]); squares no robot
//! moves into cost nothing.

use super::Openings;
use crate::world::{Command, Direction, Robot};

/// A robot entering a square.
#[derive(Debug, Clone)]
pub struct Arrival {
    /// The robot as its old square left it (output taken, inventory as it
    /// was: a moving robot is not attacked).
    pub robot: Robot,
    /// The direction of the square it came from, seen from here.
    pub from: Direction,
    /// Its index in that square's robot list.
    pub index: usize,
}

/// Hands every robot of a square that moves into an open neighbour to the
/// arrivals of that neighbour, given the square's robots (their outputs
/// taken), their commands, and the indices of its neighbours (`N .. NW`;
/// `None` past the edge of a bounded grid).
///
/// The robot that leaves is a copy: the old square still lists it (its
/// frame and inventory are in the other robots' inputs there).
pub fn depart(
    robots: &[Robot],
    intents: &[Option<Command>],
    open: &Openings,
    neighbours: &[Option<usize>; 8],
    arrivals: &mut Vec<(usize, Arrival)>,
) {
    for (index, (robot, intent)) in robots.iter().zip(intents).enumerate() {
        if let Some(Command::Move(toward)) = intent
            && open[toward.index()]
            && let Some(to) = neighbours[toward.index()]
        {
            let arrival = Arrival {
                robot: robot.clone(),
                from: toward.opposite(),
                index,
            };
            arrivals.push((to, arrival));
        }
    }
}

/// Puts the arrivals in the order of the cells they enter, and each
/// cell's in the report's order: neighbours in the order `N .. NW`, and
/// their robots in their order there, given that [`depart`] ran over the
/// squares in order.
///
/// The squares in two directions are always two different squares, except
/// in a grid one cell wide or tall, where a square is its own neighbour
/// (and a robot that moves "out" of it re-enters it); either way one
/// direction names one square, so a stable sort by cell and direction is
/// the report's order.
pub fn order_arrivals(arrivals: &mut [(usize, Arrival)]) {
    arrivals.sort_by_key(|(to, a)| (*to, a.from.index()));
}

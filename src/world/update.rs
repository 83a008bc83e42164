//! The report's `update`: one step of the whole grid.

use super::step::{Neighbourhood, RobotStep, TakenSquare, step};
use super::{Direction, Shape, World};

/// What happened in one step, cell by cell: for every robot of the new
/// world, where it came from, its command and action, and how its machine
/// run ended.
#[derive(Debug, Clone, Default)]
pub struct StepReport {
    /// Per cell (same order as the world's cells); empty for walls.
    pub cells: Vec<Vec<RobotStep>>,
}

/// One step of the world: every square is stepped with its neighbours.
pub fn update(world: World) -> World {
    update_reported(world).0
}

/// One step of the world, with the report of what each robot did.
pub fn update_reported(world: World) -> (World, StepReport) {
    let (shape, cells) = world.into_parts();
    let taken: Vec<Option<TakenSquare>> = cells.into_iter().map(|c| c.map(TakenSquare::take)).collect();
    let mut cells = Vec::with_capacity(taken.len());
    let mut report = StepReport {
        cells: Vec::with_capacity(taken.len()),
    };
    for (index, here) in taken.iter().enumerate() {
        match here {
            None => {
                cells.push(None);
                report.cells.push(Vec::new());
            }
            Some(here) => {
                let around = neighbourhood(&shape, &taken, index);
                let (square, steps) = step(here, &around);
                cells.push(Some(square));
                report.cells.push(steps);
            }
        }
    }
    (World::stepped(shape, cells), report)
}

/// The eight neighbours of a cell, walls as `None`.
pub fn neighbourhood<'a>(shape: &Shape, taken: &'a [Option<TakenSquare>], index: usize) -> Neighbourhood<'a> {
    Direction::ALL.map(|d| shape.neighbour(index, d).and_then(|n| taken[n].as_ref()))
}

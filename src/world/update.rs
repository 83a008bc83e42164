//! The report's `update`: one step of the whole grid.

use super::step::{
    Arrival, Openings, PendingRobot, ResolvedSquare, RobotStep, TakenSquare, depart, order_arrivals,
};
use super::{Action, Cell, Command, Robot, Shape, Square, World};

/// About the most bytes a step takes per cell of the grid, besides what
/// the squares hold: the world before and after it, and its own tables.
pub const STEP_BYTES_PER_CELL: usize = 2 * size_of::<Cell>()
    + size_of::<Option<TakenSquare>>()
    + size_of::<Openings>()
    + size_of::<Vec<Arrival>>()
    + size_of::<Vec<RobotStep>>()
    + size_of::<Vec<(Option<Command>, Action)>>();

/// What happened in one step, cell by cell: for every robot of the new
/// world, where it came from, its command and action, and how its machine
/// run ended.
#[derive(Debug, Clone, Default)]
pub struct StepReport {
    /// Per cell (same order as the world's cells); empty for walls.
    pub cells: Vec<Vec<RobotStep>>,
    /// Per cell: every robot that began the step there, by its index then
    /// (also those destroyed, and those that left): its command and its
    /// action (the report's `localActions`).
    pub began: Vec<Vec<(Option<Command>, Action)>>,
}

/// One step of the world: every square is stepped with its neighbours.
pub fn update(world: World) -> World {
    update_reported(world).0
}

/// One step of the world, with the report of what each robot did.
///
/// Every square's outputs are taken first, then every square's departures
/// are listed, and then each square is stepped with the robots that enter it.
pub fn update_reported(world: World) -> (World, StepReport) {
    update_with(world, &mut |_, pending| pending.run())
}

/// One step of the world, running every machine with `runner`, which gets
/// the cell's index and the robot with its input written (see
/// [`PendingRobot::run`], the report's `runMachine`).
pub fn update_with(
    world: World,
    runner: &mut dyn FnMut(usize, PendingRobot) -> (Robot, RobotStep),
) -> (World, StepReport) {
    let Taken {
        shape,
        squares,
        openings,
        entering,
    } = take_all(world);
    let mut cells = Vec::with_capacity(squares.len());
    let mut report = StepReport {
        cells: Vec::with_capacity(squares.len()),
        began: Vec::with_capacity(squares.len()),
    };
    for (index, (here, entering)) in squares.into_iter().zip(entering).enumerate() {
        match here {
            None => {
                cells.push(None);
                report.cells.push(Vec::new());
                report.began.push(Vec::new());
            }
            // No robot began the step here or enters: the square keeps its
            // items, as resolving, settling and running it would leave it,
            // without their tables.
            Some(here) if here.robots.is_empty() && entering.is_empty() => {
                cells.push(Some(Square {
                    robots: here.robots,
                    items: here.items,
                }));
                report.cells.push(Vec::new());
                report.began.push(Vec::new());
            }
            Some(here) => {
                let mut settled =
                    ResolvedSquare::resolve(here, &openings[index], entering).settle();
                report.began.push(std::mem::take(&mut settled.began));
                let (square, steps) = settled.run_with(&mut |pending| runner(index, pending));
                cells.push(Some(square));
                report.cells.push(steps);
            }
        }
    }
    (World::stepped(shape, cells), report)
}

/// The whole grid after step 1, with the robots that move: what each
/// square needs to resolve its robots' commands.
pub struct Taken {
    /// The grid's shape.
    pub shape: Shape,
    /// Every cell, its robots' outputs taken.
    pub squares: Vec<Option<TakenSquare>>,
    /// Per cell, which of its neighbours are squares; all closed for a cell
    /// that holds no robot (only robots' commands look at them).
    pub openings: Vec<Openings>,
    /// Per cell, the robots entering it, in the report's order.
    pub entering: Vec<Vec<Arrival>>,
}

/// Step 1 for every square, then every robot that moves handed to the
/// square it enters. Only squares with robots look at their neighbours.
pub fn take_all(world: World) -> Taken {
    let (shape, cells) = world.into_parts();
    let squares: Vec<Option<TakenSquare>> = cells
        .into_iter()
        .map(|c| c.map(TakenSquare::take))
        .collect();
    let mut openings = vec![[false; 8]; squares.len()];
    let mut entering: Vec<Vec<Arrival>> = std::iter::repeat_with(Vec::new)
        .take(squares.len())
        .collect();
    for (index, here) in squares.iter().enumerate() {
        let Some(here) = here.as_ref().filter(|h| !h.robots.is_empty()) else {
            continue;
        };
        let neighbours = shape.neighbours(index);
        openings[index] = neighbours.map(|n| n.is_some_and(|n| squares[n].is_some()));
        depart(here, &openings[index], &neighbours, &mut entering);
    }
    order_arrivals(&mut entering);
    Taken {
        shape,
        squares,
        openings,
        entering,
    }
}

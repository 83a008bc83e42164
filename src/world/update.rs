//! The report's `update`: one step of the whole grid.

use super::step::{
    Departure, Openings, PendingRobot, ResolvedSquare, RobotStep, TakenSquare, arrivals, departures,
};
use super::{Action, Cell, Command, Robot, World};

/// About the most bytes a step takes per cell of the grid, besides what
/// the squares hold: the world before and after it, and its own tables.
pub const STEP_BYTES_PER_CELL: usize = 2 * size_of::<Cell>()
    + size_of::<Option<TakenSquare>>()
    + size_of::<[Option<usize>; 8]>()
    + size_of::<Openings>()
    + size_of::<Vec<Departure>>()
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
    let (shape, cells) = world.into_parts();
    let taken: Vec<Option<TakenSquare>> = cells
        .into_iter()
        .map(|c| c.map(TakenSquare::take))
        .collect();
    let neighbours: Vec<[Option<usize>; 8]> =
        (0..taken.len()).map(|i| shape.neighbours(i)).collect();
    let openings: Vec<Openings> = neighbours.iter().map(|n| openings(n, &taken)).collect();
    let mut leaving: Vec<Vec<Departure>> = taken
        .iter()
        .zip(&openings)
        .map(|(here, open)| here.as_ref().map_or_else(Vec::new, |h| departures(h, open)))
        .collect();
    let mut cells = Vec::with_capacity(taken.len());
    let mut report = StepReport {
        cells: Vec::with_capacity(taken.len()),
        began: Vec::with_capacity(taken.len()),
    };
    for (index, here) in taken.into_iter().enumerate() {
        match here {
            None => {
                cells.push(None);
                report.cells.push(Vec::new());
                report.began.push(Vec::new());
            }
            Some(here) => {
                let entering = arrivals(&mut leaving, neighbours[index]);
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

/// Which neighbours of a cell are squares.
fn openings(neighbours: &[Option<usize>; 8], cells: &[Option<TakenSquare>]) -> Openings {
    neighbours.map(|n| n.is_some_and(|n| cells[n].is_some()))
}

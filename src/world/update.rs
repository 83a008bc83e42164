//! The report's `update`: one step of the whole grid.

use super::step::{
    Arrival, Openings, PendingRobot, ResolvedSquare, RobotStep, TakenSquare, depart,
    order_arrivals, take_outputs,
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
///
/// The same world as [`update_reported`]'s, without the report: nothing of
/// what each robot did is kept.
pub fn update(world: World) -> World {
    step_cells(world, &mut Quiet)
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
    let cells = world.cells.len();
    let mut reporting = Reporting {
        runner,
        report: StepReport {
            cells: Vec::with_capacity(cells),
            began: Vec::with_capacity(cells),
        },
    };
    let world = step_cells(world, &mut reporting);
    (world, reporting.report)
}

/// What a step does with the squares it visits: settles and runs them, and
/// records what it needs of them.
trait Stepper {
    /// Steps 7 and 8 for the square at `index`: its new square.
    fn square(&mut self, index: usize, resolved: ResolvedSquare) -> Square;
    /// The next `cells` cells, which no robot began the step in or
    /// entered (walls, and squares that keep their items).
    fn skipped(&mut self, cells: usize);
}

/// [`update`]'s stepper: every machine run with [`PendingRobot::run`],
/// nothing recorded.
struct Quiet;

impl Stepper for Quiet {
    fn square(&mut self, _: usize, resolved: ResolvedSquare) -> Square {
        resolved.settle_and_run()
    }

    fn skipped(&mut self, _: usize) {}
}

/// [`update_with`]'s stepper: machines run by the caller's runner, what
/// happened recorded in a [`StepReport`].
struct Reporting<'a> {
    runner: &'a mut dyn FnMut(usize, PendingRobot) -> (Robot, RobotStep),
    report: StepReport,
}

impl Stepper for Reporting<'_> {
    fn square(&mut self, index: usize, resolved: ResolvedSquare) -> Square {
        let mut settled = resolved.settle();
        self.report.began.push(std::mem::take(&mut settled.began));
        let runner = &mut *self.runner;
        let (square, steps) = settled.run_with(&mut |pending| runner(index, pending));
        self.report.cells.push(steps);
        square
    }

    fn skipped(&mut self, cells: usize) {
        let cells = self.report.cells.len() + cells;
        self.report.cells.resize_with(cells, Vec::new);
        self.report.began.resize_with(cells, Vec::new);
    }
}

/// The step of every cell: squares that robots began the step in or enter
/// are resolved and handed to `stepper`, in the order of the cells; the
/// others keep their items, in place.
fn step_cells(world: World, stepper: &mut impl Stepper) -> World {
    let TakenInPlace {
        shape,
        mut cells,
        occupied,
        arrivals,
    } = take_in_place(world);
    let mut occupied = occupied.into_iter().peekable();
    let mut arrivals = arrivals.into_iter().peekable();
    // The first cell not yet stepped or skipped.
    let mut next = 0;
    loop {
        // The next square that a robot began the step in or enters.
        let index = match (occupied.peek(), arrivals.peek()) {
            (None, None) => break,
            (Some(taken), None) => taken.cell,
            (None, Some((to, _))) => *to,
            (Some(taken), Some((to, _))) => taken.cell.min(*to),
        };
        stepper.skipped(index - next);
        next = index + 1;
        let (intents, open) = match occupied.next_if(|taken| taken.cell == index) {
            Some(taken) => (taken.intents, taken.open),
            None => (Vec::new(), [false; 8]),
        };
        let mut entering = Vec::new();
        while let Some((_, arrival)) = arrivals.next_if(|(to, _)| *to == index) {
            entering.push(arrival);
        }
        let Square { robots, items } = cells[index]
            .take()
            .expect("robots are in squares and move only into squares");
        let here = TakenSquare {
            robots,
            intents,
            items,
        };
        let resolved = ResolvedSquare::resolve(here, &open, entering);
        cells[index] = Some(stepper.square(index, resolved));
    }
    stepper.skipped(cells.len() - next);
    World::stepped(shape, cells)
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
    let TakenInPlace {
        shape,
        cells,
        occupied,
        arrivals,
    } = take_in_place(world);
    let mut openings = vec![[false; 8]; cells.len()];
    let mut intents: Vec<Vec<Option<Command>>> =
        std::iter::repeat_with(Vec::new).take(cells.len()).collect();
    for taken in occupied {
        openings[taken.cell] = taken.open;
        intents[taken.cell] = taken.intents;
    }
    let mut entering: Vec<Vec<Arrival>> =
        std::iter::repeat_with(Vec::new).take(cells.len()).collect();
    for (to, arrival) in arrivals {
        entering[to].push(arrival);
    }
    let squares = cells
        .into_iter()
        .zip(intents)
        .map(|(cell, intents)| {
            cell.map(|square| TakenSquare {
                robots: square.robots,
                intents,
                items: square.items,
            })
        })
        .collect();
    Taken {
        shape,
        squares,
        openings,
        entering,
    }
}

/// [`Taken`], its squares left in the world's cells, with tables only for
/// the squares that robots are in or enter.
struct TakenInPlace {
    shape: Shape,
    /// Every cell, its robots' outputs taken.
    cells: Vec<Cell>,
    /// Every square that holds robots, in the order of the cells.
    occupied: Vec<Occupied>,
    /// Every robot that moves and the cell it enters, by cell, each cell's
    /// in the report's order.
    arrivals: Vec<(usize, Arrival)>,
}

/// A square that holds robots, after step 1.
struct Occupied {
    /// Its cell.
    cell: usize,
    /// Its robots' commands.
    intents: Vec<Option<Command>>,
    /// Which of its neighbours are squares.
    open: Openings,
}

/// [`take_all`] without moving the squares: every square's outputs taken
/// and its robots that move handed on, in one pass in the order of the
/// cells (a robot that leaves is copied after its own square's outputs
/// were taken, as when every square's are taken first).
fn take_in_place(world: World) -> TakenInPlace {
    let (shape, mut cells) = world.into_parts();
    let mut occupied = Vec::new();
    let mut arrivals = Vec::new();
    for index in 0..cells.len() {
        if cells[index]
            .as_ref()
            .is_none_or(|square| square.robots.is_empty())
        {
            continue;
        }
        let neighbours = shape.neighbours(index);
        let mut open = [false; 8];
        for (open, neighbour) in open.iter_mut().zip(neighbours) {
            *open = neighbour.is_some_and(|n| cells[n].is_some());
        }
        if let Some(square) = &mut cells[index] {
            let intents = take_outputs(&mut square.robots);
            depart(&square.robots, &intents, &open, &neighbours, &mut arrivals);
            occupied.push(Occupied {
                cell: index,
                intents,
                open,
            });
        }
    }
    order_arrivals(&mut arrivals);
    TakenInPlace {
        shape,
        cells,
        occupied,
        arrivals,
    }
}

//! What the fuzz targets share: a bound on the work an input asks for, so
//! that every input stays quick.

pub mod hostile;

use constree::scenario::Scenario;
use constree::world::{Item, World};

/// The most machine ticks a scenario input may ask for in all: robots and
/// slots (and robots built from processors lying about) times their speed
/// times the steps.
pub const MAX_TICKS: u64 = 300_000;

/// The most squares a scenario input's world may have.
pub const MAX_CELLS: usize = 4096;

/// The most steps a scenario input may ask for.
pub const MAX_STEPS: u64 = 40;

/// A processor's speed.
fn processor_speed(item: &Item) -> Option<i64> {
    match item {
        Item::ProcessorPart(p) => Some(p.speed),
        _ => None,
    }
}

/// Whether playing `steps` steps of a scenario stays within [`MAX_TICKS`]
/// and [`MAX_STEPS`]; a negative speed (10^8 ticks) never does.
pub fn quick_scenario(scenario: &Scenario, steps: u64) -> bool {
    let speeds: Vec<i64> = scenario
        .robots
        .iter()
        .map(|r| r.speed)
        .chain(scenario.slots.iter().map(|s| s.speed))
        .chain(
            scenario
                .items
                .iter()
                .filter_map(|(_, item)| processor_speed(item)),
        )
        .chain(
            scenario
                .robots
                .iter()
                .flat_map(|r| &r.inventory)
                .filter_map(processor_speed),
        )
        .chain(
            scenario
                .slots
                .iter()
                .flat_map(|s| &s.inventory)
                .filter_map(processor_speed),
        )
        .collect();
    scenario.shape.cell_count() <= MAX_CELLS && quick(&speeds, steps)
}

/// Whether stepping a world `steps` times stays within [`MAX_TICKS`]
/// (robots and processors anywhere in it counted), with at most 64 cells.
pub fn quick_world(world: &World, steps: u64) -> bool {
    let squares = || world.cells.iter().flatten();
    let speeds: Vec<i64> = squares()
        .flat_map(|s| &s.robots)
        .flat_map(|r| {
            std::iter::once(r.processor.speed).chain(r.inventory.iter().filter_map(processor_speed))
        })
        .chain(squares().flat_map(|s| &s.items).filter_map(processor_speed))
        .collect();
    world.cells.len() <= 64 && quick(&speeds, steps)
}

fn quick(speeds: &[i64], steps: u64) -> bool {
    if steps > MAX_STEPS || speeds.iter().any(|&s| s < 0) {
        return false;
    }
    let most = speeds.iter().copied().max().unwrap_or(0) as u64;
    (speeds.len() as u64)
        .saturating_mul(most)
        .saturating_mul(steps)
        <= MAX_TICKS
}

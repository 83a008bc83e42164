//! The world step on arbitrary small worlds (the interchange JSON, seeded
//! with the conformance worlds): a new world, never a panic; stepping keeps
//! the grid's shape.
#![no_main]

use constree::world::{World, update};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(world) = serde_json::from_slice::<World>(data) else {
        return;
    };
    // Keep inputs small and quick: few cells, modest speeds.
    let robots: usize = world.cells.iter().flatten().map(|s| s.robots.len()).sum();
    let slow = world
        .cells
        .iter()
        .flatten()
        .flat_map(|s| &s.robots)
        .all(|r| (0..=2000).contains(&r.processor.speed));
    if world.cells.len() > 64 || robots > 32 || !slow {
        return;
    }
    let shape = world.shape();
    let next = update(world);
    assert_eq!(next.shape(), shape);
});

//! The benchmark inputs give the reference's digests (`benches/data/README.md`).

use constree::conformance::fnv1a;
use constree::machine::{Memory, Outcome};
use constree::world::{World, update};
use serde::Deserialize;

fn data(name: &str) -> String {
    let path = format!("{}/benches/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[derive(Deserialize)]
struct MachineInput {
    memory: Memory,
}

fn world_digest(name: &str, steps: usize) -> String {
    let mut world: World = serde_json::from_str(&data(name)).unwrap();
    for _ in 0..steps {
        world = update(world);
    }
    fnv1a(serde_json::to_string(&world).unwrap().as_bytes())
}

#[test]
fn machine_loop_million_ticks() {
    let input: MachineInput = serde_json::from_str(&data("bench_machine_loop.json")).unwrap();
    let outcome = Outcome::of_run(1_000_000, input.memory);
    assert_eq!(
        fnv1a(serde_json::to_string(&outcome).unwrap().as_bytes()),
        "858e1d1f0490df06"
    );
}

#[test]
fn machine_loop_ten_million_ticks() {
    let input: MachineInput = serde_json::from_str(&data("bench_machine_loop.json")).unwrap();
    let outcome = Outcome::of_run(10_000_000, input.memory);
    assert_eq!(
        fnv1a(serde_json::to_string(&outcome).unwrap().as_bytes()),
        "19e53147cc295b31"
    );
}

#[test]
fn small_world_hundred_steps() {
    assert_eq!(
        world_digest("bench_world_small.json", 100),
        "eada43c2c2a0e6c8"
    );
}

#[test]
fn large_world_one_and_ten_steps() {
    assert_eq!(
        world_digest("bench_world_large.json", 1),
        "2c5c1051e95c2f80"
    );
    assert_eq!(
        world_digest("bench_world_large.json", 10),
        "175782732267fa7e"
    );
}

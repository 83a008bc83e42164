//! The reference's benchmark inputs (`benches/data/`) and the digest it
//! gives a result, for the engine benchmarks and `tests/bench_digests.rs`.

use constree::conformance::fnv1a;
use constree::machine::Memory;
use constree::world::{World, update};
use serde::{Deserialize, Serialize};

fn data(name: &str) -> String {
    let path = format!("{}/benches/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[derive(Deserialize)]
struct MachineInput {
    memory: Memory,
}

/// The memory of `bench_machine_loop.json`.
pub fn machine_loop() -> Memory {
    serde_json::from_str::<MachineInput>(&data("bench_machine_loop.json"))
        .unwrap()
        .memory
}

/// The world of `benches/data/NAME`.
pub fn world(name: &str) -> World {
    serde_json::from_str(&data(name)).unwrap()
}

/// The world after `n` steps.
pub fn steps(world: World, n: usize) -> World {
    (0..n).fold(world, |w, _| update(w))
}

/// The reference's digest of a result: FNV-1a of its compact JSON.
pub fn digest<T: Serialize>(value: &T) -> String {
    fnv1a(serde_json::to_string(value).unwrap().as_bytes())
}

//! Engine benchmarks on the reference's benchmark inputs (`benches/data/`):
//! machine ticks per second and world steps per second. Each benchmark first
//! checks that its result has the reference digest.

use constree::conformance::fnv1a;
use constree::machine::{Memory, Outcome, run_for};
use constree::world::{World, update};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use serde::Deserialize;
use std::hint::black_box;

fn data(name: &str) -> String {
    let path = format!("{}/benches/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[derive(Deserialize)]
struct MachineInput {
    memory: Memory,
}

fn digest<T: serde::Serialize>(value: &T) -> String {
    fnv1a(serde_json::to_string(value).unwrap().as_bytes())
}

fn machine(c: &mut Criterion) {
    let memory = serde_json::from_str::<MachineInput>(&data("bench_machine_loop.json"))
        .unwrap()
        .memory;
    let ticks = 1_000_000u64;
    assert_eq!(
        digest(&Outcome::of_run(ticks as i64, memory.clone())),
        "858e1d1f0490df06"
    );
    let mut group = c.benchmark_group("machine");
    group.throughput(Throughput::Elements(ticks));
    group.bench_function("bench_machine_loop/1e6 ticks", |b| {
        b.iter_batched_ref(
            || memory.clone(),
            |m| run_for(black_box(ticks as i64), m).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn steps(world: World, n: usize) -> World {
    (0..n).fold(world, |w, _| update(w))
}

fn world(c: &mut Criterion) {
    let mut group = c.benchmark_group("world");
    group.sample_size(20);
    for (name, n, reference) in [
        ("bench_world_small.json", 100, "eada43c2c2a0e6c8"),
        ("bench_world_large.json", 10, "175782732267fa7e"),
    ] {
        let world: World = serde_json::from_str(&data(name)).unwrap();
        assert_eq!(digest(&steps(world.clone(), n)), reference, "{name}");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("{name}/{n} steps"), |b| {
            b.iter_batched(|| world.clone(), |w| steps(w, n), BatchSize::LargeInput)
        });
    }
    group.finish();
}

criterion_group!(benches, machine, world);
criterion_main!(benches);

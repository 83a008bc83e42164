//! Engine benchmarks on the reference's benchmark inputs (`benches/data/`):
//! machine ticks per second and world steps per second. Each benchmark first
//! checks that its result has the reference digest.

mod reference;

use constree::machine::{Outcome, run_capped, run_for};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use reference::{digest, steps};
use std::hint::black_box;

fn machine(c: &mut Criterion) {
    let memory = reference::machine_loop();
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
    // `machine run`'s way: the machine-private arena, with no node cap.
    group.bench_function("bench_machine_loop/1e6 ticks, arena", |b| {
        b.iter_batched_ref(
            || memory.clone(),
            |m| run_capped(m, black_box(ticks), u64::MAX),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn world(c: &mut Criterion) {
    let mut group = c.benchmark_group("world");
    group.sample_size(20);
    for (name, n, expected) in [
        ("bench_world_small.json", 100, "eada43c2c2a0e6c8"),
        ("bench_world_large.json", 10, "175782732267fa7e"),
    ] {
        let world = reference::world(name);
        assert_eq!(digest(&steps(world.clone(), n)), expected, "{name}");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("{name}/{n} steps"), |b| {
            b.iter_batched(|| world.clone(), |w| steps(w, n), BatchSize::LargeInput)
        });
    }
    group.finish();
}

criterion_group!(benches, machine, world);
criterion_main!(benches);

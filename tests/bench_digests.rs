//! The benchmark inputs give the reference's digests (`benches/data/README.md`).

#[path = "../benches/reference/mod.rs"]
mod reference;

use constree::machine::Outcome;
use reference::{digest, machine_loop, steps, world};

fn world_digest(name: &str, n: usize) -> String {
    digest(&steps(world(name), n))
}

fn machine_digest(ticks: i64) -> String {
    digest(&Outcome::of_run(ticks, machine_loop()))
}

#[test]
fn machine_loop_million_ticks() {
    assert_eq!(machine_digest(1_000_000), "858e1d1f0490df06");
}

#[test]
fn machine_loop_ten_million_ticks() {
    assert_eq!(machine_digest(10_000_000), "19e53147cc295b31");
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

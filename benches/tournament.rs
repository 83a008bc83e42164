//! Tournament throughput: the fight arena's four players (hunter, breeder,
//! guard, random) for 20 rounds of 200 steps, on one thread and on two,
//! and on one thread with the machine's cycle fast path off (as before it
//! existed). Criterion reports the throughput in rounds per second
//! (`elem/s`).

use constree::asm::source::DiskLoader;
use constree::scenario::tournament::{Entrant, Tournament};
use constree::scenario::{Scenario, load_program};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::PathBuf;

const ROUNDS: usize = 20;

fn tournament() -> Tournament {
    let arena = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/arena");
    let (scenario, text) = Scenario::load_text(&arena.join("arena.toml"), None).unwrap();
    let players: Vec<Entrant> = ["hunter", "breeder", "guard", "random"]
        .iter()
        .map(|name| Entrant {
            name: name.to_string(),
            image: load_program(&DiskLoader::new(None), &arena.join(format!("{name}.cta")))
                .unwrap(),
        })
        .collect();
    Tournament::new(&scenario, &text, &players, ROUNDS, 1).unwrap()
}

fn arena(c: &mut Criterion) {
    let t = tournament();
    let mut group = c.benchmark_group("tournament");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ROUNDS as u64));
    for jobs in [1, 2] {
        group.bench_function(
            format!("arena, 4 players x {ROUNDS} rounds, {jobs} jobs"),
            |b| b.iter(|| t.play(Some(jobs), &|| {}).unwrap()),
        );
    }
    constree::machine::set_cycle_skip(false);
    group.bench_function(
        format!("arena, 4 players x {ROUNDS} rounds, 1 jobs, cycle fast path off"),
        |b| b.iter(|| t.play(Some(1), &|| {}).unwrap()),
    );
    constree::machine::set_cycle_skip(true);
    group.finish();
}

criterion_group!(benches, arena);
criterion_main!(benches);

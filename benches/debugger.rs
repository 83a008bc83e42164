//! The debugger's cost: `continue` to a breakpoint 10^7 ticks away against
//! the plain engine running the same ticks, and reverse steps: a single
//! one, `reverse-stepi 10^6` and `reverse-continue` to a hit 10^6 ticks
//! back, against running 10^6 ticks forward.
//!
//! The walker spins in its wait loop for the whole of step 1 (10^7 ticks at
//! speed 10^7) and reaches `main` again as step 2 begins.

use constree::debugger::Debugger;
use constree::debugger::commands::Outcome;
use constree::scenario::Scenario;
use constree::world::update;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::path::{Path, PathBuf};

const TICKS: u64 = 10_000_000;

fn scenario() -> Scenario {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let walker = root.join("examples/walker.cta");
    let text = format!(
        "steps = 10\n[world]\nsize = [3, 3]\n[[robot]]\nname = \"walker\"\nat = [0, 0]\nspeed = {TICKS}\nprogram = {:?}\n",
        walker.display().to_string()
    );
    Scenario::from_text_in("bench.toml", &text, Path::new(""), None).unwrap()
}

fn run(d: &mut Debugger, command: &str) -> String {
    match d.execute(command) {
        Ok(Outcome::Output(text)) => text,
        other => panic!("{command}: {:?}", other.err()),
    }
}

fn debugger() -> Debugger {
    let mut d = Debugger::for_scenario(scenario(), Vec::new()).unwrap();
    run(&mut d, "stepi");
    run(&mut d, "break main");
    d
}

fn continue_to_breakpoint(c: &mut Criterion) {
    let scenario = scenario();
    let mut check = debugger();
    let stop = run(&mut check, "continue");
    assert!(stop.starts_with("Breakpoint 1, main"), "{stop}");
    assert_eq!(check.session.pos().step, 2);
    let mut group = c.benchmark_group("debugger");
    group.sample_size(10);
    group.bench_function("plain engine: step 1 (1e7 ticks)", |b| {
        b.iter_batched(|| scenario.world(0).0, update, BatchSize::LargeInput)
    });
    group.bench_function("continue to a breakpoint 1e7 ticks away", |b| {
        b.iter_batched_ref(debugger, |d| run(d, "continue"), BatchSize::LargeInput)
    });
    group.bench_function("reverse-stepi at 1e7 ticks", |b| {
        b.iter_batched_ref(
            || {
                let mut d = debugger();
                run(&mut d, "continue");
                d
            },
            |d| run(d, "reverse-stepi"),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// At the breakpoint (as step 2 begins), then 10^6 ticks on.
fn a_million_ticks_past_the_breakpoint() -> Debugger {
    let mut d = debugger();
    run(&mut d, "continue");
    run(&mut d, &format!("tick {MILLION}"));
    d
}

const MILLION: u64 = 1_000_000;

fn a_million_ticks_back(c: &mut Criterion) {
    let mut check = a_million_ticks_past_the_breakpoint();
    let hit = check.session.pos().tick - MILLION;
    let back = run(&mut check, "reverse-continue");
    assert!(back.starts_with("Breakpoint 1, main"), "{back}");
    assert_eq!(check.session.pos().tick, hit);
    let mut group = c.benchmark_group("debugger");
    group.sample_size(10);
    group.bench_function("tick 1e6 (forward)", |b| {
        b.iter_batched_ref(
            debugger,
            |d| run(d, &format!("tick {MILLION}")),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("reverse-stepi 1e6", |b| {
        b.iter_batched_ref(
            a_million_ticks_past_the_breakpoint,
            |d| run(d, &format!("reverse-stepi {MILLION}")),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("reverse-continue to a hit 1e6 ticks back", |b| {
        b.iter_batched_ref(
            a_million_ticks_past_the_breakpoint,
            |d| run(d, "reverse-continue"),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, continue_to_breakpoint, a_million_ticks_back);
criterion_main!(benches);

//! The debugger's cost: `continue` to a breakpoint 10^7 ticks away against
//! the plain engine running the same ticks, and reverse steps.
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

criterion_group!(benches, continue_to_breakpoint);
criterion_main!(benches);

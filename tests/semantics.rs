//! The assembler against the source semantics (`constree::asm::semantics`):
//! every program's image, run by the engine, does what its source says.

mod semantics_gen;

use constree::asm::Faults;
use constree::asm::source::MemoryLoader;
use semantics_gen::generate::{Generated, generate};
use semantics_gen::literals::Rng;
use semantics_gen::{Checked, check};

fn agree(text: &str, budget: u64) -> Checked {
    let loader = MemoryLoader::default().with("main.cta", text);
    check(&loader, "main.cta", budget, Faults::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Defect 1 of the issue: a routine before `entry main`.
const ROUTINE_BEFORE_ENTRY: &str = include_str!("programs/routine_before_entry.cta");

#[test]
fn a_routine_written_before_the_entry_runs_as_written() {
    let checked = agree(ROUTINE_BEFORE_ENTRY, 1000);
    assert!(checked.entry_moved);
    assert_eq!(checked.ending, "halted");
}

#[test]
fn the_late_entry_fault_is_caught() {
    let loader = MemoryLoader::default().with("main.cta", ROUTINE_BEFORE_ENTRY);
    let faulty = check(&loader, "main.cta", 1000, Faults { late_entry: true });
    let why = faulty.expect_err("the fault went unnoticed");
    eprintln!("{why}");
}

#[test]
fn fall_through_loops_and_branches_agree() {
    let checked = agree(
        "use std/control
reg n = [1, 1, 1, 1]
reg acc
start:
    jnil n, done
    pop n, scratch
    push acc, scratch
    jmp start
done:
    mov out, Move E
first:
    jcons acc, second
    halt
second:
    pop acc, scratch
    jmp first
",
        1000,
    );
    assert!(checked.backward_jumps > 0);
    assert_eq!(checked.ending, "halted");
}

#[test]
fn recursion_six_deep_agrees() {
    let checked = agree(
        "use std/control
reg n = [0, 0, 0, 0, 0, 0, 0]
reg seen
main:
    call down
    halt
down:
    jnil n, .bottom
    pop n, scratch
    push seen, scratch
    call down
.bottom:
    ret
",
        10_000,
    );
    assert!(checked.deepest_recursion >= 6, "{checked:?}");
}

#[test]
fn machine_errors_agree_in_kind_place_and_ticks() {
    let nil = agree(
        "use std/control\nreg a = [1]\nreg b\nmain:\n    pop a, b\n    pop a, b\n    halt\n",
        100,
    );
    assert_eq!(nil.ending, "DeconstructNil a");
    let full = agree(
        "use std/control\nreg a 3\nmain:\n    push a, #1\n    jmp main\n",
        100,
    );
    assert_eq!(full.ending, "OutOfMemory a");
}

#[test]
fn a_program_still_running_agrees_at_every_budget() {
    for budget in 0..12 {
        let checked = agree(
            "use std/control\nreg a\nloop:\n    push a, #2\n    pop a, scratch\n    jmp loop\n",
            budget,
        );
        assert_eq!(checked.ending, "running");
    }
}

#[test]
fn code_values_and_continuations_agree() {
    agree(
        "use std/control
const TARGET = code(there)
reg keep = [code(there), 5]
reg k
main:
    mov k, TARGET
    mov link, there
    jmp k
there:
    push keep, there
    halt
",
        100,
    );
}

#[test]
fn images_of_other_programs_agree_and_a_miscompiled_one_is_caught() {
    let loader = MemoryLoader::default()
        .with(
            "main.cta",
            "use std/control\nreg keep 100000\nmain:\n    mov keep, image(\"kid.cta\")\n    push keep, Build [0] image(\"kid.cta\")\n    halt\n",
        )
        .with(
            "kid.cta",
            "use std/control\nreg k = [1, 2]\nback:\n    push k, #3\n    ret\nentry go\ngo:\n    call back\n    halt\n",
        );
    check(&loader, "main.cta", 100, Faults::default()).unwrap_or_else(|e| panic!("{e}"));
    // The parent has no `entry`: only its embedded image is miscompiled.
    let why = check(&loader, "main.cta", 100, Faults { late_entry: true })
        .expect_err("the miscompiled image went unnoticed");
    assert!(why.contains("register keep"), "{why}");
}

/// Found by the generator (the semantics, not the assembler, was wrong):
/// code that falls off the end of the main file through empty blocks ends
/// there, and a limit-0 register declared with a value is not a register
/// that can only hold Nil, so a jump through it does not end its block.
#[test]
fn regressions_of_the_semantics() {
    let checked = agree(
        "use std/control\nreg a\nmain:\n    push a, #1\nthen:\nlast:\n",
        100,
    );
    assert_eq!(checked.ending, "halted");
    let checked = agree(
        "use std/control\nreg z 0 = nil\nreg a\nmain:\n    copyifnil z, next, prog\nnext:\n    push a, #1\n    halt\n",
        100,
    );
    assert_eq!(checked.ending, "halted");
}

/// Programs checked per run: `CONSTREE_SEMANTICS_CASES` (default 2,000).
fn cases() -> u64 {
    std::env::var("CONSTREE_SEMANTICS_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

/// The first seed: `CONSTREE_SEMANTICS_SEED` (default 0).
fn first_seed() -> u64 {
    std::env::var("CONSTREE_SEMANTICS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// The loader holding a generated program's files.
fn loader_of(generated: &Generated) -> MemoryLoader {
    generated
        .files
        .iter()
        .fold(MemoryLoader::default(), |l, (p, t)| l.with(p, t))
}

/// The budget a generated program runs for: one tick more than its bound
/// (a program that ends halts within it), or (one program in six) fewer
/// ticks, to stop it while it runs.
fn budget_of(seed: u64, generated: &Generated) -> u64 {
    let mut rng = Rng::new(seed ^ 0xB0D6E7);
    if !generated.spins && rng.chance(16) {
        rng.below(generated.bound + 1)
    } else {
        generated.bound + 1
    }
}

/// Counts of the hard cases and outcomes over a run of the generator.
#[derive(Debug, Default)]
struct Counts {
    programs: u64,
    entry_not_first: u64,
    backward_jumps: u64,
    recursion_6_deep: u64,
    calls_6_deep: u64,
    shared_suffixes: u64,
    shared_constants: u64,
    images: u64,
    halted: u64,
    failed: u64,
    running: u64,
    /// Failures by fault and register (numbers dropped from names).
    faults: std::collections::BTreeMap<String, u64>,
}

#[test]
fn generated_programs_run_as_their_source_says() {
    let mut counts = Counts::default();
    for seed in first_seed()..first_seed() + cases() {
        let generated = generate(seed);
        let budget = budget_of(seed, &generated);
        let checked = check(
            &loader_of(&generated),
            "main.cta",
            budget,
            Faults::default(),
        )
        .unwrap_or_else(|e| panic!("seed {seed}, budget {budget}: {e}\n{}", generated.show()));
        assert!(
            checked.ending != "running" || generated.spins || budget <= generated.bound,
            "seed {seed}: runs past the generator's bound {}\n{}",
            generated.bound,
            generated.show()
        );
        counts.programs += 1;
        counts.entry_not_first += u64::from(checked.entry_moved);
        counts.backward_jumps += u64::from(checked.backward_jumps > 0);
        counts.recursion_6_deep += u64::from(checked.deepest_recursion >= 6);
        counts.calls_6_deep += u64::from(checked.deepest_calls >= 6);
        counts.shared_suffixes += u64::from(checked.shares_suffixes);
        counts.shared_constants += u64::from(checked.shares_constants);
        counts.images += u64::from(checked.embeds_image);
        match checked.ending.as_str() {
            "halted" => counts.halted += 1,
            "running" => counts.running += 1,
            fault => {
                counts.failed += 1;
                *counts.faults.entry(fault.to_string()).or_default() += 1;
            }
        }
    }
    eprintln!("{counts:#?}");
    let Counts {
        programs: _,
        entry_not_first,
        backward_jumps,
        recursion_6_deep,
        calls_6_deep,
        shared_suffixes,
        shared_constants,
        images,
        halted,
        failed,
        running,
        faults: _,
    } = &counts;
    for (what, n) in [
        ("entry not the first block", entry_not_first),
        ("backward jumps", backward_jumps),
        ("recursion 6 deep", recursion_6_deep),
        ("calls nested 6 deep", calls_6_deep),
        ("shared suffixes", shared_suffixes),
        ("shared constants", shared_constants),
        ("an image of another program", images),
        ("halted", halted),
        ("failed", failed),
        ("still running", running),
    ] {
        let n = *n;
        assert!(n > 0, "no program with {what}: {counts:?}");
    }
}

#[test]
fn the_late_entry_fault_breaks_generated_programs() {
    let caught = (0..200).any(|seed| {
        let generated = generate(seed);
        check(
            &loader_of(&generated),
            "main.cta",
            generated.bound,
            Faults { late_entry: true },
        )
        .is_err()
    });
    assert!(
        caught,
        "200 programs ran the same with the late-entry fault"
    );
}

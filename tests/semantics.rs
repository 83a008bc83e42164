//! The assembler against the source semantics (`constree::asm::semantics`):
//! every program's image, run by the engine, does what its source says.

mod semantics_gen;

use constree::asm::Faults;
use constree::asm::source::MemoryLoader;
use semantics_gen::{Checked, check};

fn agree(text: &str, budget: u64) -> Checked {
    let loader = MemoryLoader::default().with("main.cta", text);
    check(&loader, "main.cta", budget, Faults::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Defect 1 of the issue: a routine before `entry main`.
const ROUTINE_BEFORE_ENTRY: &str = "use std/control
reg r
helper:
    push r, #9
    ret
entry main
main:
    call helper
    call helper
    halt
";

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
    assert_eq!(nil.ending, "failed");
    let full = agree(
        "use std/control\nreg a 3\nmain:\n    push a, #1\n    jmp main\n",
        100,
    );
    assert_eq!(full.ending, "failed");
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

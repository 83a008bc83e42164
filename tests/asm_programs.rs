//! Programs with jumps, branches, calls and macros, assembled and run in the
//! machine; the registers afterwards are checked against values computed
//! with the engine's encoders.

mod machine_common;

use constree::asm::assemble;
use constree::asm::source::{MemoryLoader, SourceFile};
use constree::encoding::{Decode, Encode};
use constree::image::Image;
use constree::machine::{RunReport, run_for};
use constree::tree::Tree;
use constree::world::{Command, Direction};
use machine_common::{register, run};

fn build(source: &str) -> Image {
    let assembly = assemble(
        &MemoryLoader::default(),
        SourceFile::new("test.cta".into(), None, source.into()),
    );
    assert!(
        assembly.diagnostics.is_empty(),
        "{}",
        assembly.render(false)
    );
    assembly.image.expect("no errors")
}

#[test]
fn a_loop_reverses_a_list() {
    let image = build(
        "use std/control
reg src = [1, 2, 3, 4]
reg dst
reg item
main:
    jnil src, done
    pop src, item
    push dst, item
    jmp main
done:
    halt
",
    );
    let (memory, report) = run(&image, 1000);
    assert!(report.halted);
    // Four turns of 4 ticks, the final test and the halt.
    assert_eq!(report.ticks, 4 * 4 + 2);
    assert_eq!(
        Vec::<i64>::decode(register(&image, &memory, "dst")),
        Some(vec![4, 3, 2, 1])
    );
    assert!(register(&image, &memory, "src").is_nil());
}

#[test]
fn falling_through_costs_nothing() {
    let image = build(
        "use std/control
reg a
reg b
first:
    load a, 1
second:
    load b, 2
    halt
",
    );
    let (memory, report) = run(&image, 100);
    assert_eq!(
        report,
        RunReport {
            ticks: 3,
            halted: true
        }
    );
    assert_eq!(i64::decode(register(&image, &memory, "a")), Some(1));
    assert_eq!(i64::decode(register(&image, &memory, "b")), Some(2));
}

#[test]
fn branches_on_nil_and_on_cons() {
    let image = build(
        "use std/control
reg full = [1]
reg empty = nil
reg seen
main:
    jcons empty, wrong
    jcons full, right
wrong:
    load seen, 0
    halt
right:
    load seen, 1
    jnil empty, done
    load seen, 2
done:
    halt
",
    );
    let (memory, _) = run(&image, 100);
    assert_eq!(i64::decode(register(&image, &memory, "seen")), Some(1));
}

#[test]
fn calls_nest_and_return() {
    let image = build(
        "use std/control
reg log
reg mark
main:
    call outer
    load mark, 9
    push log, mark
    halt
outer:
    load mark, 1
    push log, mark
    call inner
    call inner
    load mark, 3
    push log, mark
    ret
inner:
    load mark, 2
    push log, mark
    ret
",
    );
    let (memory, report) = run(&image, 1000);
    assert!(report.halted);
    assert_eq!(
        Vec::<i64>::decode(register(&image, &memory, "log")),
        Some(vec![9, 3, 2, 2, 1])
    );
    assert!(register(&image, &memory, "stack").is_nil());
    assert_eq!(image.callstack.map(|c| c.stack), image.register("stack"));
}

#[test]
fn recursion_through_the_stack() {
    // count(n): push n on `out_list`, then count(n - 1) until n is Nil;
    // numbers are unary lists here.
    let image = build(
        "use std/control
reg n = [[], [], [], [], []]
reg out_list
reg head
main:
    call count
    halt
count:
    jnil n, .base
    push out_list, n
    pop n, head
    call count
.base:
    ret
",
    );
    let (memory, report) = run(&image, 10_000);
    assert!(report.halted);
    let lengths: Vec<usize> = register(&image, &memory, "out_list")
        .iter_list()
        .map(Tree::list_len)
        .collect();
    assert_eq!(lengths, vec![1, 2, 3, 4, 5]);
    assert!(register(&image, &memory, "stack").is_nil());
}

#[test]
fn macros_with_local_labels_expand_many_times() {
    let image = build(
        "use std/control
reg a = [1]
reg b = nil
reg hits
reg one = [[]]
macro bump_if_cons r
    jnil r, skip
    push hits, one
skip:
end
main:
    bump_if_cons a
    bump_if_cons b
    bump_if_cons a
    halt
",
    );
    let (memory, _) = run(&image, 1000);
    assert_eq!(register(&image, &memory, "hits").list_len(), 2);
}

#[test]
fn a_recursive_macro_stops_with_if() {
    let image = build(
        "use std/control
reg count
reg one = [[]]
macro repeat n
    if n > 0
        push count, one
        repeat n - 1
    end
end
main:
    repeat 7
    halt
",
    );
    let (memory, report) = run(&image, 1000);
    assert_eq!(register(&image, &memory, "count").list_len(), 7);
    assert_eq!(report.ticks, 8);
}

#[test]
fn an_expression_argument_means_what_it_means_in_place() {
    // `2 + 3` as an operand is the value 5 (only a number alone names a
    // register), written directly or passed through macros, however deep:
    // the assembler computes such arguments early, but keeps them values.
    let image = build(
        "use std/control
reg direct
reg through_mov
reg through_two
reg counted
reg register_five @5 = 55
macro copy_in dst, src
    mov dst, src
end
macro count_down n, dst
    if n > 1
        count_down n - 1, dst
    else
        mov dst, n + 6
    end
end
main:
    copyifnil zero, 2 + 3, direct
    mov through_mov, 2 + 3
    copy_in through_two, 2 + 3
    count_down 4, counted
    halt
",
    );
    assert_eq!(image.register("register_five"), Some(5));
    let (memory, _) = run(&image, 100);
    for name in ["direct", "through_mov", "through_two"] {
        assert_eq!(
            i64::decode(register(&image, &memory, name)),
            Some(5),
            "`{name}` holds the value 5, not register 5's contents"
        );
    }
    assert_eq!(i64::decode(register(&image, &memory, "counted")), Some(7));
}

#[test]
fn code_is_data() {
    // Copy a block's code into a register, then jump to the copy.
    let image = build(
        "use std/control
reg copy
reg done_flag
main:
    load copy, code(target)
    jmp copy
target:
    load done_flag, 1
    halt
",
    );
    let (memory, _) = run(&image, 100);
    assert_eq!(i64::decode(register(&image, &memory, "done_flag")), Some(1));
}

#[test]
fn hand_laid_blocks_have_exactly_their_code() {
    let image = build(
        "reg zero 0
reg a
block finish
    nilify prog
end
block start
    construct zero, zero, a
    tail finish
end
entry start
",
    );
    let start = &image.registers[image.register("start").unwrap()].contents;
    assert_eq!(start.list_len(), 2);
    let (memory, report) = run(&image, 100);
    assert!(report.halted);
    assert_eq!(register(&image, &memory, "a"), &Tree::unit());
}

#[test]
fn the_first_command_and_waiting_for_steps() {
    // Emits Move N, Move E, Move S, then halts; one command per game step.
    let image = build(
        "use std/control
reg out = Move N
main:
    wait_step
    emit Move E
    emit Move S
    halt
",
    );
    let mut memory = image.memory();
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(Command::decode(&memory[2].contents));
        memory[2].contents = Tree::NIL;
        run_for(1000, &mut memory).unwrap();
    }
    let moves = |d| Some(Command::Move(d));
    assert_eq!(
        seen,
        vec![
            moves(Direction::N),
            moves(Direction::E),
            moves(Direction::S),
            None
        ]
    );
}

#[test]
fn the_same_source_gives_the_same_image_bytes() {
    let source = "use std/control
reg out = Pass
reg list = [1, 2, Move E, (3, 4)]
main:
    jcons list, go
    halt
go:
    pop list, scratch
    call main
";
    let a = constree::image::format::to_json(&build(source));
    let b = constree::image::format::to_json(&build(source));
    assert_eq!(a, b);
    let reread = constree::image::format::from_json(&a).unwrap();
    assert_eq!(reread, build(source));
    assert_eq!(
        Command::Move(Direction::E).encode(),
        reread.registers[reread.register("list").unwrap()]
            .contents
            .iter_list()
            .nth(2)
            .unwrap()
            .clone()
    );
}

#[test]
fn the_stack_check_is_exact() {
    let source = "use std/control
resize stack 132
main:
    call a
    halt
a:
    call b
    ret
b:
    call c
    ret
c:
    ret
";
    let image = build(source);
    let (_, report) = run(&image, 1000);
    assert!(report.halted);
    // One conse less and the deepest call wipes the machine.
    let mut memory = image.memory();
    let stack = image.register("stack").unwrap();
    memory[stack].limit = 131;
    assert_eq!(
        run_for(1000, &mut memory),
        Err(constree::machine::MachineError::OutOfMemory(stack as i64))
    );
    let too_small = source.replace("resize stack 132", "resize stack 131");
    let assembly = assemble(
        &MemoryLoader::default(),
        SourceFile::new("t.cta".into(), None, too_small),
    );
    assert_eq!(
        assembly
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect::<Vec<_>>(),
        vec!["E0607"]
    );
}

/// A routine, then `entry` and the code that calls the routine twice.
const ROUTINE_BEFORE_ENTRY: &str = include_str!("programs/routine_before_entry.cta");

/// `entry` after a routine: the routine is reached through the calls of
/// the real entry, and every operand of those calls is resolved.
#[test]
fn entry_after_a_routine_that_it_calls() {
    let image = build(ROUTINE_BEFORE_ENTRY);
    let (memory, report) = run(&image, 1000);
    assert!(report.halted);
    assert_eq!(
        Vec::<i64>::decode(register(&image, &memory, "r")),
        Some(vec![9, 9])
    );
    assert!(register(&image, &memory, "stack").is_nil());
    // Two calls (2 ticks each), two pushes, two returns (2 each), the halt.
    assert_eq!(report.ticks, 2 * (2 + 1 + 2) + 1);
}

/// The entry block jumps back to a block written before it.
#[test]
fn entry_jumps_back_to_an_earlier_block() {
    let image = build(
        "use std/control
reg a
reg b
earlier:
    load b, 2
    halt
entry start
start:
    load a, 1
    jmp earlier
",
    );
    let (memory, report) = run(&image, 100);
    assert!(report.halted);
    assert_eq!(i64::decode(register(&image, &memory, "a")), Some(1));
    assert_eq!(i64::decode(register(&image, &memory, "b")), Some(2));
    assert_eq!(report.ticks, 4);
}

/// `entry` skips the first block: that block is never reached (and said
/// so), the program starts at the entry and falls through from it.
#[test]
fn entry_skips_the_first_block() {
    let source = "use std/control
reg a
reg b
first:
    load a, 1
    halt
entry second
second:
    load b, 2
third:
    load b, 3
    halt
";
    let assembly = assemble(
        &MemoryLoader::default(),
        SourceFile::new("test.cta".into(), None, source.into()),
    );
    let codes: Vec<&str> = assembly
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, vec!["W0701"], "{}", assembly.render(false));
    assert!(assembly.diagnostics[0].message.contains("`first`"));
    let image = assembly.image.expect("only a warning");
    let (memory, report) = run(&image, 100);
    assert!(report.halted);
    assert!(register(&image, &memory, "a").is_nil());
    assert_eq!(i64::decode(register(&image, &memory, "b")), Some(3));
    assert_eq!(report.ticks, 3);
    let prog = image.register("prog").unwrap();
    assert_eq!(image.registers[prog].contents.list_len(), 3);
}

/// The test-only fault that applies `entry` late reproduces the miscompile
/// the tests above guard against (so a differential test can show it
/// catches it).
#[test]
fn the_late_entry_fault_miscompiles() {
    let assembly = constree::asm::assemble_with_faults(
        &MemoryLoader::default(),
        SourceFile::new("test.cta".into(), None, ROUTINE_BEFORE_ENTRY.into()),
        constree::asm::Faults { late_entry: true },
    );
    let image = assembly.image.expect("assembles");
    let first = image.registers[0].contents.front().unwrap();
    assert_eq!(
        constree::machine::Instruction::decode(first),
        Some(constree::machine::Instruction::Construct(0, 0, 0))
    );
    // `construct prog, prog, prog` doubles the program until it does not fit.
    let mut memory = image.memory();
    assert_eq!(
        run_for(1000, &mut memory),
        Err(constree::machine::MachineError::OutOfMemory(0))
    );
}

#[test]
fn a_macros_labels_are_named_in_each_expansion() {
    // A macro's local label is a different name in each expansion, and
    // neither is the user's own label of the same text: three code
    // registers, the macro's spelt with their expansion's number.
    let image = build(
        "use std/control\nreg x = 1\nreg y\nmacro wait\nspin:\n    jnil x, spin\nend\nspin:\n    nilify y\n    wait\n    wait\n    jnil x, spin\n    halt\n",
    );
    let mut names: Vec<&str> = image
        .registers
        .iter()
        .map(|r| r.name.as_str())
        .filter(|n| n.starts_with("spin"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(names[0], "spin");
    for local in &names[1..] {
        let number = local.strip_prefix("spin.").expect("spelt `spin.N`");
        assert!(number.parse::<u32>().is_ok_and(|n| n > 0), "{local}");
    }
    assert_ne!(names[1], names[2]);
    // Only the user's label is a symbol of the image.
    let labels: Vec<&str> = image.labels.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        labels.iter().filter(|l| l.starts_with("spin")).count(),
        1,
        "{labels:?}"
    );
}

//! The machine's exact shortcuts: the cycle fast path
//! (`constree::machine::run_for_with`) ends every run in exactly the
//! plain run's state; `run_capped` (the machine-private arena) stops where
//! a test before every tick stops, and ends where a plain interpreter of
//! the report's semantics, written out here, ends.

use constree::encoding::{Decode, Encode};
use constree::machine::{
    Instruction, MAX_SPAN, MachineError, Memory, Pause, Register, RunReport, forget_read_registers,
    run_capped, run_for_with, run_until,
};
use constree::tree::Tree;
use proptest::prelude::*;
use std::collections::HashSet;

/// Registers of the random memories: 0 the program, 1 and 2 data, 3 and 4
/// code to jump to, 5 data, 6 always Nil (its limit is 0).
const REGISTERS: i64 = 7;

/// An operand: mostly a register of the memory, sometimes one past it or
/// negative (an error).
fn operand() -> impl Strategy<Value = i64> {
    prop_oneof![
        10 => 0..REGISTERS,
        1 => Just(REGISTERS),
        1 => Just(-1i64),
    ]
}

/// A jump to the code in register 3 or 4, mostly taken (tested on the
/// Nil register 6).
fn jump() -> impl Strategy<Value = Instruction> {
    (prop_oneof![3 => Just(6i64), 1 => operand()], 3..5i64)
        .prop_map(|(t, s)| Instruction::CopyIfNil(t, s, 0))
}

/// Instructions weighted towards jumps, so that loops, and loops that
/// change no register, are common.
fn instruction() -> impl Strategy<Value = Instruction> {
    prop_oneof![
        3 => jump(),
        2 => (operand(), operand(), operand()).prop_map(|(a, b, c)| Instruction::CopyIfNil(a, b, c)),
        2 => (operand(), operand(), operand()).prop_map(|(a, b, c)| Instruction::Construct(a, b, c)),
        2 => (operand(), operand(), operand())
            .prop_map(|(a, b, c)| Instruction::Deconstruct(a, b, c)),
        1 => operand().prop_map(Instruction::Nilify),
    ]
}

/// A memory to build: a program, data and code to jump to.
#[derive(Debug, Clone)]
struct Spec {
    program: Vec<Instruction>,
    /// Registers 1, 2 and 5: Nil or an Int, and a limit.
    data: [(Option<i64>, i64); 3],
    /// Registers 3 and 4.
    code: [Vec<Instruction>; 2],
}

impl Spec {
    fn build(&self) -> Memory {
        let roomy = 10_000;
        let data = |(value, limit): (Option<i64>, i64)| {
            let tree = value.map_or(Tree::NIL, |n| n.encode());
            Register::new(limit, if tree.fits(limit) { tree } else { Tree::NIL })
        };
        vec![
            Register::new(roomy, self.program.encode()),
            data(self.data[0]),
            data(self.data[1]),
            Register::new(roomy, self.code[0].encode()),
            Register::new(roomy, self.code[1].encode()),
            data(self.data[2]),
            Register::new(0, Tree::NIL),
        ]
    }
}

/// Code that ends with a jump, mostly.
fn block() -> impl Strategy<Value = Vec<Instruction>> {
    (
        prop::collection::vec(instruction(), 0..6),
        prop::option::weighted(0.8, jump()),
    )
        .prop_map(|(mut code, end)| {
            code.extend(end);
            if code.is_empty() {
                code.push(Instruction::Nilify(1));
            }
            code
        })
}

/// A data register: Nil or a small Int, and a limit, mostly roomy,
/// sometimes tight enough to fail a write.
fn data() -> impl Strategy<Value = (Option<i64>, i64)> {
    (
        prop::option::of(0i64..40),
        prop_oneof![4 => Just(10_000i64), 1 => 0..8i64],
    )
}

fn memory() -> impl Strategy<Value = Spec> {
    (block(), [data(), data(), data()], [block(), block()]).prop_map(|(program, data, code)| Spec {
        program,
        data,
        code,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_cycle_fast_path_ends_in_the_plain_runs_state(spec in memory(), speed in 0i64..3000) {
        let mut plain = spec.build();
        let mut skipping = spec.build();
        let expected = run_for_with(speed, &mut plain, false);
        let got = run_for_with(speed, &mut skipping, true);
        prop_assert_eq!(got, expected);
        prop_assert_eq!(skipping, plain);
    }

    #[test]
    fn run_capped_stops_where_a_test_before_every_tick_stops(
        spec in memory(),
        budget in 0u64..2000,
        cap in 0u64..30,
    ) {
        let mut tested = spec.build();
        let mut capped = tested.clone();
        // Held to the end, so that no node of the start is freed and its
        // address taken by a node the run builds.
        let start = tested.clone();
        let initial = reachable(&start, None, &HashSet::new());
        let mut over = |program: &Tree, memory: &[Register]| {
            reachable(memory, Some(program), &initial).len() as u64 > cap
        };
        let expected = run_until(&mut tested, budget, false, &mut over);
        let got = run_capped(&mut capped, budget, cap);
        prop_assert_eq!(got, expected);
        prop_assert_eq!(capped, tested);
    }

    #[test]
    fn the_arena_ends_in_the_plain_runs_state(
        (spec, ties) in shared(),
        speed in prop_oneof![0i64..200, 200i64..3000],
    ) {
        // Plain trees, a test before every tick that never stops the run.
        let mut plain = ties.build(&spec);
        let expected = run_until(&mut plain, speed as u64, false, &mut |_, _| false);
        // The arena, three times from the same trees: the first having
        // forgotten which registers runs read (each register but the
        // program is loaded only when an instruction reads it, the run
        // starting again then), the second meeting the trees with more
        // than one owner again (which caches them), the third finding them
        // in the arena's cache and leaving out the registers no run of
        // this thread has read.
        for round in 0..3 {
            if round == 0 {
                forget_read_registers();
            }
            let mut arena = ties.build(&spec);
            let got = run_capped(&mut arena, speed as u64, u64::MAX);
            prop_assert_eq!(&got, &expected);
            prop_assert_eq!(&arena, &plain);
        }
        // `run_for_with`, which takes the arena when it pays.
        let mut chosen = ties.build(&spec);
        let report = run_for_with(speed, &mut chosen, false);
        let (ticks, pause) = expected;
        let plain_report = match pause {
            Pause::Failed(e) => Err(e),
            pause => Ok(RunReport { ticks, halted: pause == Pause::Halted }),
        };
        prop_assert_eq!(report, plain_report);
        prop_assert_eq!(&chosen, &plain);
    }

    #[test]
    fn run_capped_ends_where_a_plain_interpreter_ends(
        spec in memory(),
        budget in prop_oneof![0u64..3000, 30_000u64..40_000],
    ) {
        let mut capped = spec.build();
        let mut plain = capped.clone();
        let expected = interpret(&mut plain, budget);
        let got = run_capped(&mut capped, budget, u64::MAX);
        prop_assert_eq!(got, expected);
        prop_assert_eq!(capped, plain);
    }
}

/// How [`shared`] ties a memory's registers together: register 3 holds
/// the program itself, register 5 the back of the code in register 4,
/// register 1 a tree of astronomic size (too large to copy into the
/// arena), register 2 a tree exactly at its limit.
#[derive(Debug, Clone, Copy)]
struct Ties {
    program_twice: bool,
    code_inside: bool,
    astronomic: bool,
    at_limit: bool,
}

/// A memory of [`memory`] with some registers tied as [`Ties`] says.
fn shared() -> impl Strategy<Value = (Spec, Ties)> {
    (memory(), any::<[bool; 4]>()).prop_map(|(spec, [a, b, c, d])| {
        let ties = Ties {
            program_twice: a,
            code_inside: b,
            astronomic: c,
            at_limit: d,
        };
        (spec, ties)
    })
}

impl Ties {
    fn build(self, spec: &Spec) -> Memory {
        let mut memory = spec.build();
        if self.program_twice {
            memory[3].contents = memory[0].contents.clone();
        }
        if self.code_inside {
            memory[5] = Register::new(
                10_000,
                memory[4].contents.back().cloned().unwrap_or_default(),
            );
        }
        if self.astronomic {
            let doubled = (0..60).fold(Tree::unit(), |t, _| Tree::cons(t.clone(), t));
            memory[1] = Register::new(i64::MAX, doubled);
        }
        if self.at_limit {
            let tree = memory[4].contents.clone();
            memory[2] = Register::new(tree.size() as i64, tree);
        }
        memory
    }
}

/// The distinct nodes reachable from the memory's registers (register 0,
/// when `program` is given, from it instead), but those in `known`.
fn reachable(
    memory: &[Register],
    program: Option<&Tree>,
    known: &HashSet<usize>,
) -> HashSet<usize> {
    let mut seen = HashSet::new();
    let mut pending: Vec<&Tree> = memory.iter().map(|r| &r.contents).collect();
    if let Some(program) = program {
        pending[0] = program;
    }
    while let Some(tree) = pending.pop() {
        if let Some((front, back)) = tree.split()
            && !known.contains(&tree.node_id())
            && seen.insert(tree.node_id())
        {
            pending.push(front);
            pending.push(back);
        }
    }
    seen
}

/// The report's `runFor`, tick by tick on plain trees, as the report
/// writes it: pop the instruction (`BadInstruction` with the whole
/// program when it is none), then `execute` with `getTree` and `setTree`.
/// The ticks run and why it stopped, as `run_capped` says it.
fn interpret(memory: &mut [Register], budget: u64) -> (u64, Pause) {
    fn get(memory: &[Register], r: i64) -> Result<Tree, MachineError> {
        usize::try_from(r)
            .ok()
            .and_then(|i| memory.get(i))
            .map(|register| register.contents.clone())
            .ok_or(MachineError::NoSuchRegister(r))
    }
    fn set(memory: &mut [Register], r: i64, tree: Tree) -> Result<(), MachineError> {
        let register = usize::try_from(r)
            .ok()
            .and_then(|i| memory.get_mut(i))
            .ok_or(MachineError::NoSuchRegister(r))?;
        if register.limit < 0 || tree.size() > register.limit as u64 {
            return Err(MachineError::OutOfMemory(r));
        }
        register.contents = tree;
        Ok(())
    }
    fn execute(memory: &mut [Register], instruction: Instruction) -> Result<(), MachineError> {
        match instruction {
            Instruction::Nilify(t) => set(memory, t, Tree::NIL),
            Instruction::Construct(f, b, t) => {
                let tree = Tree::cons(get(memory, f)?, get(memory, b)?);
                set(memory, t, tree)
            }
            Instruction::Deconstruct(s, f, b) => {
                let source = get(memory, s)?;
                let (front, back) = source.split().ok_or(MachineError::DeconstructNil(s))?;
                set(memory, f, front.clone())?;
                set(memory, b, back.clone())
            }
            Instruction::CopyIfNil(t, s, g) => {
                if get(memory, t)?.is_nil() {
                    let source = get(memory, s)?;
                    set(memory, g, source)
                } else {
                    Ok(())
                }
            }
        }
    }
    for ticks in 0..budget {
        let Some(program) = memory.first().map(|r| r.contents.clone()) else {
            return (ticks, Pause::Halted);
        };
        let Some((head, rest)) = program.split() else {
            return (ticks, Pause::Halted);
        };
        let Some(instruction) = Instruction::decode(head) else {
            return (
                ticks,
                Pause::Failed(MachineError::BadInstruction(program.clone())),
            );
        };
        memory[0].contents = rest.clone();
        if let Err(e) = execute(memory, instruction) {
            return (ticks, Pause::Failed(e));
        }
    }
    (budget, Pause::Budget)
}

/// `wait_step`'s loop: `copyifnil out, ready, prog` then `copyifnil zero,
/// spin, prog`, with `out` full, in registers 2 (out), 3 (zero), 4 (spin).
fn spinner() -> Memory {
    let spin = vec![
        Instruction::CopyIfNil(2, 5, 0),
        Instruction::CopyIfNil(3, 4, 0),
    ]
    .encode();
    vec![
        Register::new(100, spin.clone()),
        Register::new(100, Tree::NIL),
        Register::new(100, 7i64.encode()),
        Register::new(100, Tree::NIL),
        Register::new(100, spin),
        Register::new(100, Tree::NIL),
    ]
}

#[test]
fn a_spinning_machine_skips_a_trillion_ticks_to_the_state_of_an_odd_or_even_count() {
    // A plain run of 10^12 ticks would take hours: the fast path counts
    // them. After an even count the program is at the loop's start, after
    // an odd one at its second instruction.
    for (speed, at_start) in [(1_000_000_000_000i64, true), (1_000_000_000_001, false)] {
        let mut memory = spinner();
        let report = run_for_with(speed, &mut memory, true).unwrap();
        assert_eq!((report.ticks, report.halted), (speed as u64, false));
        let mut short = spinner();
        run_for_with(if at_start { 4 } else { 5 }, &mut short, false).unwrap();
        assert_eq!(memory, short);
    }
}

#[test]
fn a_cycle_longer_than_the_span_runs_in_full_with_the_same_result() {
    // A loop of MAX_SPAN + 1 jumps changes no register but is too long to
    // be looked for: the fast path runs it tick by tick, to the same end.
    let turn = (MAX_SPAN + 1) as usize;
    let mut code = vec![Instruction::CopyIfNil(1, 1, 1); turn - 1];
    code.push(Instruction::CopyIfNil(1, 3, 0));
    let mut memory: Memory = vec![
        Register::new(100_000, code.encode()),
        Register::new(100, Tree::NIL),
        Register::new(100, Tree::NIL),
        Register::new(100_000, code.encode()),
    ];
    let mut plain = memory.clone();
    let speed = 3 * turn as i64 + 5;
    let skipped = run_for_with(speed, &mut memory, true);
    assert_eq!(skipped, run_for_with(speed, &mut plain, false));
    assert_eq!(memory, plain);
}

/// A spine of `n` conses down the fronts (a left spine), the deepest
/// shape for anything that would recurse.
fn left_spine(n: usize) -> Tree {
    (0..n).fold(Tree::NIL, |t, _| Tree::cons(t, Tree::NIL))
}

/// A tree of 2^levels - 1 logical conses and `levels` distinct nodes.
fn doubling(levels: usize) -> Tree {
    (0..levels).fold(Tree::NIL, |t, _| Tree::cons(t.clone(), t))
}

#[test]
fn run_capped_collects_garbage_and_gives_back_the_memorys_own_trees() {
    // `construct 2 = cons(1, 1)` then a jump back, a million times: a
    // node a tick, each garbage the next turn, so the arena is collected
    // many times. Registers 4 and 5 hold a deep spine and a tree of 2^60
    // logical conses that the run never touches, and register 1 a shared
    // tree the run conses onto.
    let code = vec![
        Instruction::Construct(1, 1, 2),
        Instruction::CopyIfNil(6, 3, 0),
    ]
    .encode();
    let spine = left_spine(1_000_000);
    let shared = doubling(60);
    let memory: Memory = vec![
        Register::new(100, code.clone()),
        Register::new(i64::MAX, shared.clone()),
        Register::new(i64::MAX, Tree::NIL),
        Register::new(100, code),
        Register::new(i64::MAX, spine.clone()),
        Register::new(i64::MAX, shared.clone()),
        Register::new(0, Tree::NIL),
    ];
    let mut plain = memory.clone();
    let mut capped = memory;
    let expected = run_for_with(2_000_001, &mut plain, false).unwrap();
    assert_eq!(
        run_capped(&mut capped, 2_000_001, u64::MAX),
        (expected.ticks, Pause::Budget)
    );
    assert_eq!(capped, plain);
    assert!(capped[4].contents.ptr_eq(&spine));
    assert!(capped[5].contents.ptr_eq(&shared));
    assert!(capped[1].contents.ptr_eq(&shared));
    let (front, back) = capped[2].contents.split().unwrap();
    assert!(front.ptr_eq(&shared) && back.ptr_eq(&shared));
}

#[test]
fn run_capped_stops_exactly_when_the_run_holds_more_than_the_cap() {
    // Each turn builds a garbage node and grows a list by one: the arena's
    // collections find the list ever nearer the cap, and the run ends on
    // plain trees. It stops where a test before every tick stops.
    let code = vec![
        Instruction::Construct(3, 3, 2),
        Instruction::Construct(3, 1, 1),
        Instruction::CopyIfNil(5, 4, 0),
    ]
    .encode();
    let memory: Memory = vec![
        Register::new(100, code.clone()),
        Register::new(i64::MAX, Tree::NIL),
        Register::new(i64::MAX, Tree::NIL),
        Register::new(1, Tree::unit()),
        Register::new(100, code),
        Register::new(0, Tree::NIL),
    ];
    let cap = 1000;
    let mut tested = memory.clone();
    let mut capped = memory.clone();
    let initial = reachable(&memory, None, &HashSet::new());
    let mut over = |program: &Tree, memory: &[Register]| {
        reachable(memory, Some(program), &initial).len() as u64 > cap
    };
    let expected = run_until(&mut tested, 10_000, false, &mut over);
    assert_eq!(expected.1, Pause::Stopped);
    assert_eq!(run_capped(&mut capped, 10_000, cap), expected);
    assert_eq!(capped, tested);
}

#[test]
fn run_capped_loads_and_gives_back_deep_trees_without_recursion() {
    // A program that walks down a deep left spine, one front a tick.
    let depth = 1_000_000;
    let code = vec![
        Instruction::Deconstruct(1, 1, 2),
        Instruction::CopyIfNil(4, 3, 0),
    ]
    .encode();
    let memory: Memory = vec![
        Register::new(100, code.clone()),
        Register::new(i64::MAX, left_spine(depth)),
        Register::new(i64::MAX, Tree::NIL),
        Register::new(100, code),
        Register::new(0, Tree::NIL),
    ];
    let mut plain = memory.clone();
    let mut capped = memory;
    let expected = run_for_with(i64::MAX, &mut plain, false);
    assert_eq!(expected, Err(MachineError::DeconstructNil(1)));
    assert_eq!(
        run_capped(&mut capped, u64::MAX, u64::MAX),
        (
            2 * depth as u64,
            Pause::Failed(MachineError::DeconstructNil(1))
        )
    );
    assert_eq!(capped, plain);
}

#[test]
fn the_arenas_cache_checks_operands_against_each_memory() {
    // The same program, with more than one owner (so the arena caches
    // it), runs in a memory of 4 registers, then fails in one of 3, where
    // its operand 3 names no register.
    let program = vec![Instruction::CopyIfNil(1, 3, 2)].encode();
    let memory = |registers: usize| -> Memory {
        (0..registers)
            .map(|i| Register::new(100, if i == 0 { program.clone() } else { Tree::NIL }))
            .collect()
    };
    for _ in 0..2 {
        let mut four = memory(4);
        assert_eq!(run_capped(&mut four, 10, u64::MAX), (1, Pause::Halted));
        let mut three = memory(3);
        assert_eq!(
            run_capped(&mut three, 10, u64::MAX),
            (0, Pause::Failed(MachineError::NoSuchRegister(3)))
        );
    }
}

#[test]
fn registers_read_late_or_never_end_as_on_plain_trees() {
    // Register 1 is never touched, register 4 only written, registers 3
    // and 5 read only after 300 ticks: in the arena, 1 and 4 are never
    // loaded and the run starts again when it first reads 5 (then 3).
    let mut program = vec![Instruction::Nilify(4); 300];
    program.extend([
        Instruction::Construct(5, 3, 2),
        Instruction::Deconstruct(2, 4, 3),
    ]);
    let untouched = 12_345i64.encode();
    let memory: Memory = vec![
        Register::new(10_000, program.encode()),
        Register::new(100, untouched.clone()),
        Register::new(1_000, Tree::NIL),
        Register::new(100, 7i64.encode()),
        Register::new(100, 99i64.encode()),
        Register::new(100, vec![1i64, 2, 3].encode()),
    ];
    let mut plain = memory.clone();
    let expected = run_until(&mut plain, 1_000, false, &mut |_, _| false);
    assert_eq!(expected, (302, Pause::Halted));
    // Forgotten, then learned: only register 1 is left out the second
    // time (4 is written before it is read, and 3 and 5 are read).
    for round in 0..2 {
        if round == 0 {
            forget_read_registers();
        }
        let mut arena = memory.clone();
        assert_eq!(run_capped(&mut arena, 1_000, u64::MAX), expected);
        assert_eq!(arena, plain);
        assert!(arena[1].contents.ptr_eq(&untouched));
        // Stopped before the late reads: registers 3, 4 and 5 as they
        // were but 4, Nil.
        let mut early = memory.clone();
        assert_eq!(run_capped(&mut early, 300, u64::MAX), (300, Pause::Budget));
        assert_eq!(early[4].contents, Tree::NIL);
        assert!(early[5].contents.ptr_eq(&memory[5].contents));
    }
}

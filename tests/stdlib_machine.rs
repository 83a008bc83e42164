//! std/machine: a constree machine run inside one, checked against the
//! engine's own `run_for` on random memories (instructions whose register
//! numbers are Ints in every form the decoder reads, instructions that are
//! not instructions, limits that are too small, negative or huge), on the
//! register numbers alone (`machine.locate`), on inputs trimmed into the
//! input register (`machine.set_input`), and on real programs.

mod stdlib_common;

use constree::encoding::Encode;
use constree::machine::{Instruction, Memory, Register, run_for, wipe};
use constree::tree::Tree;
use proptest::prelude::*;
use stdlib_common::{bits, neg_tag, program, tagged};

thread_local! {
    /// The program under test, assembled once per thread.
    static RUNNER: stdlib_common::Program = runner();
}

/// The program under test: runs `mem` for as many ticks as `fuel` has
/// elements, stopping at an output if `until` is not Nil.
fn runner() -> stdlib_common::Program {
    program(
        "machine",
        &["mem", "fuel", "until"],
        "mov machine.memory, mem
         mov machine.fuel, fuel
         mov machine.until_output, until
         call machine.run",
    )
}

/// A unary number: a list of `n` Nils.
fn unary(n: usize) -> Tree {
    Tree::list(std::iter::repeat_n(Tree::NIL, n))
}

/// What the simulator leaves: the memory, the fuel left, halted, failed.
fn simulate(
    runner: &stdlib_common::Program,
    memory: &Memory,
    fuel: usize,
    until: bool,
) -> (Memory, usize, bool, bool) {
    let until = if until { Tree::unit() } else { Tree::NIL };
    let run = runner.run(&[
        ("mem", memory.encode()),
        ("fuel", unary(fuel)),
        ("until", until),
    ]);
    let decoded: Memory = constree::encoding::Decode::decode(run.get("machine.memory"))
        .expect("the simulated memory is a memory");
    (
        decoded,
        run.get("machine.fuel").list_len(),
        run.get("machine.halted").is_cons(),
        run.get("machine.failed").is_cons(),
    )
}

/// The engine's run: the memory after at most `fuel` ticks (wiped on an
/// error), whether the program register ended Nil, whether it failed.
fn engine(memory: &Memory, fuel: usize) -> (Memory, bool, bool) {
    let mut m = memory.clone();
    match run_for(fuel as i64, &mut m) {
        Ok(_) => {
            let halted = m.first().is_some_and(|r| r.contents.is_nil());
            (m, halted, false)
        }
        Err(_) => {
            wipe(&mut m);
            (m, false, true)
        }
    }
}

/// An Int in one of the forms the decoder reads: canonical, with trailing
/// zero bits, with an even or odd number of extra tags, or as 64 or more
/// bits that wrap to it.
fn int_form(n: i64, form: u8) -> Tree {
    let canonical = n.encode();
    match form % 6 {
        0 | 1 => canonical,
        2 => {
            // Trailing zero bits.
            let magnitude = n.unsigned_abs();
            let mut b: Vec<bool> = (0..64 - magnitude.leading_zeros())
                .map(|i| magnitude >> i & 1 == 1)
                .collect();
            b.extend([false, false]);
            if n < 0 { tagged(bits(&b)) } else { bits(&b) }
        }
        3 => tagged(tagged(canonical)),
        4 => {
            // 2^64 + n as 65 bits: the 65th vanishes.
            let mut b: Vec<bool> = (0..64).map(|i| (n as u64) >> i & 1 == 1).collect();
            b.push(true);
            bits(&b)
        }
        _ => {
            // -(2^64 - n): 64 bits of 2^64 - n under one tag.
            let m = (n as u64).wrapping_neg();
            let b: Vec<bool> = (0..64).map(|i| m >> i & 1 == 1).collect();
            tagged(bits(&b))
        }
    }
}

/// Trees that are not Ints.
fn not_int(k: u8) -> Tree {
    match k % 3 {
        0 => Tree::list([Tree::cons(Tree::unit(), Tree::NIL)]),
        1 => Tree::list([Tree::NIL, Tree::cons(Tree::NIL, Tree::unit())]),
        _ => Tree::cons(neg_tag(), Tree::list([neg_tag()])),
    }
}

/// A register number operand: mostly registers of the memory, sometimes
/// one past the end or negative, in any form; rarely not an Int.
fn operand(registers: usize) -> impl Strategy<Value = Tree> {
    prop_oneof![
        60 => (0..registers as i64, any::<u8>()).prop_map(|(n, f)| int_form(n, f)),
        2 => (prop_oneof![Just(registers as i64), Just(-1i64), Just(i64::MIN), Just(1i64 << 40)], any::<u8>())
            .prop_map(|(n, f)| int_form(n, f)),
        1 => any::<u8>().prop_map(not_int),
    ]
}

/// An instruction tree: mostly a real instruction, sometimes a bad tag, a
/// missing operand, or Nil.
fn instruction(registers: usize) -> impl Strategy<Value = Tree> {
    let op = || operand(registers);
    prop_oneof![
        3 => op().prop_map(|t| Tree::cons(0i64.encode(), t)),
        4 => (op(), op(), op()).prop_map(|(a, b, c)| Tree::cons(1i64.encode(), Tree::cons(a, Tree::cons(b, c)))),
        4 => (op(), op(), op()).prop_map(|(a, b, c)| Tree::cons(2i64.encode(), Tree::cons(a, Tree::cons(b, c)))),
        6 => (op(), op(), op()).prop_map(|(a, b, c)| Tree::cons(3i64.encode(), Tree::cons(a, Tree::cons(b, c)))),
        1 => (op(), any::<u8>()).prop_map(|(a, f)| Tree::cons(int_form(3, f), Tree::cons(a, Tree::NIL))),
        1 => (prop_oneof![Just(4i64), Just(-1i64), Just(7i64)], op()).prop_map(|(t, a)| Tree::cons(t.encode(), a)),
        1 => Just(Tree::NIL),
        1 => (op(), op(), op(), any::<u8>()).prop_map(|(a, b, c, f)| Tree::cons(int_form(2, f), Tree::cons(a, Tree::cons(b, c)))),
    ]
}

/// A small random tree.
fn small_tree() -> impl Strategy<Value = Tree> {
    let leaf = Just(Tree::NIL);
    leaf.prop_recursive(4, 16, 2, |inner| {
        (inner.clone(), inner).prop_map(|(a, b)| Tree::cons(a, b))
    })
}

/// A memory whose registers' contents fit their limits (as every robot's
/// do): a program of random instructions in register 0, small trees
/// elsewhere; sometimes register 1 holds the program too, so that a copy
/// into register 0 jumps back to its start and the run goes on.
fn memory() -> impl Strategy<Value = Memory> {
    (2usize..8).prop_flat_map(|n| {
        (
            prop::collection::vec(instruction(n), 0..12),
            prop::collection::vec(
                (
                    prop_oneof![8 => 4i64..80, 1 => -3i64..4, 1 => Just(1i64 << 50)],
                    small_tree(),
                ),
                n - 1,
            ),
            any::<bool>(),
        )
            .prop_map(|(code, rest, looping)| {
                let program = Tree::list(code);
                let mut memory = vec![Register::new(program.size() as i64 + 5, program.clone())];
                for (limit, tree) in rest {
                    let contents = if tree.fits(limit) { tree } else { Tree::NIL };
                    memory.push(Register::new(limit, contents));
                }
                if looping {
                    memory[1] = Register::new(program.size() as i64, program);
                }
                memory
            })
    })
}

/// A memory whose program runs long: canonical register numbers of the
/// work registers (2 and up, limit 1000) only, and register 1 holding the
/// program, which its last instruction (and any `CopyIfNil x 1 0` with a
/// Nil x) starts again.
fn busy_memory() -> impl Strategy<Value = Memory> {
    (3usize..7).prop_flat_map(|n| {
        let reg = move || (2..n as u64).prop_map(|r| r as i64);
        let instr = prop_oneof![
            1 => reg().prop_map(Instruction::Nilify),
            3 => (reg(), reg(), reg()).prop_map(|(a, b, c)| Instruction::Construct(a, b, c)),
            3 => (reg(), reg(), reg()).prop_map(|(a, b, c)| Instruction::Deconstruct(a, b, c)),
            3 => (reg(), reg(), reg()).prop_map(|(a, b, c)| Instruction::CopyIfNil(a, b, c)),
            1 => reg().prop_map(|a| Instruction::CopyIfNil(a, 1, 0)),
        ];
        (
            prop::collection::vec(instr, 1..16),
            prop::collection::vec(small_tree(), n - 2),
        )
            .prop_map(move |(mut code, rest)| {
                // At the end, back to the start: register n is always Nil.
                code.push(Instruction::CopyIfNil(n as i64, 1, 0));
                let program = Tree::list(code.iter().map(Encode::encode));
                let mut memory = vec![
                    Register::new(program.size() as i64, program.clone()),
                    Register::new(program.size() as i64, program),
                ];
                memory.extend(rest.into_iter().map(|t| Register::new(1000, t)));
                memory.push(Register::new(0, Tree::NIL));
                memory
            })
    })
}

/// Runs the simulator and the engine on one memory and compares them.
fn same_as_engine(memory: &Memory, fuel: usize) -> Result<(), TestCaseError> {
    let (sim, left, halted, failed) = RUNNER.with(|r| simulate(r, memory, fuel, false));
    let (real, real_halted, real_failed) = engine(memory, fuel);
    prop_assert_eq!(&sim, &real);
    prop_assert_eq!(failed, real_failed);
    if !failed {
        prop_assert_eq!(halted, real_halted && left > 0);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn the_simulator_runs_as_the_engine_does(memory in memory(), fuel in 0usize..30) {
        same_as_engine(&memory, fuel)?;
    }

    #[test]
    fn long_runs_agree_with_the_engine(memory in busy_memory(), fuel in 0usize..200) {
        same_as_engine(&memory, fuel)?;
    }
}

#[test]
fn a_program_that_loops_uses_all_its_fuel() {
    // Register 0 copies itself back from register 1 forever.
    let code = Tree::list([Instruction::CopyIfNil(2, 1, 0).encode()]);
    let memory = vec![
        Register::new(100, code.clone()),
        Register::new(100, code),
        Register::new(0, Tree::NIL),
    ];
    let (sim, left, halted, failed) = simulate(&runner(), &memory, 50, false);
    assert_eq!((left, halted, failed), (0, false, false));
    assert_eq!(sim, engine(&memory, 50).0);
}

#[test]
fn the_run_stops_at_the_first_output() {
    // Write register 2, then keep going: with `until`, the run stops after
    // the write.
    let code = Tree::list([
        Instruction::CopyIfNil(3, 4, 2).encode(),
        Instruction::Nilify(4).encode(),
        Instruction::Nilify(2).encode(),
    ]);
    let memory = vec![
        Register::new(100, code),
        Register::new(10, Tree::NIL),
        Register::new(10, Tree::NIL),
        Register::new(10, Tree::NIL),
        Register::new(10, 5i64.encode()),
    ];
    let runner = runner();
    let (sim, left, _, _) = simulate(&runner, &memory, 10, true);
    assert_eq!(left, 9);
    assert_eq!(sim, engine(&memory, 1).0);
    assert_eq!(sim[2].contents, 5i64.encode());
    let (sim, left, halted, _) = simulate(&runner, &memory, 10, false);
    assert_eq!((left, halted), (7, true));
    assert_eq!(sim, engine(&memory, 10).0);
}

/// `machine.locate` on one key: (at, prefix, bad, miss).
fn locate(key: &Tree, list: &Tree) -> (Tree, Tree, bool, bool) {
    thread_local! {
        static LOCATE: stdlib_common::Program = program(
            "machine",
            &["key", "list"],
            "mov machine.key, key
             mov machine.list, list
             call machine.locate",
        );
    }
    LOCATE.with(|p| {
        let run = p.run(&[("key", key.clone()), ("list", list.clone())]);
        (
            run.get("machine.at").clone(),
            run.get("machine.prefix").clone(),
            run.get("machine.bad").is_cons(),
            run.get("machine.miss").is_cons(),
        )
    })
}

/// What locate must give: the decoder's reading of the key as an index.
fn expected_locate(key: &Tree, list: &[Tree]) -> (Tree, Tree, bool, bool) {
    use constree::encoding::Decode;
    match i64::decode(key) {
        None => (Tree::NIL, Tree::NIL, true, true),
        Some(n) if n >= 0 && (n as u64) < list.len() as u64 => {
            let n = n as usize;
            let prefix = Tree::list(list[..n].iter().rev().cloned());
            (Tree::list(list[n..].iter().cloned()), prefix, false, false)
        }
        Some(_) => (Tree::NIL, Tree::NIL, false, true),
    }
}

fn check_locate(key: &Tree, len: usize) -> Result<(), TestCaseError> {
    let list: Vec<Tree> = (0..len as i64).map(|i| i.encode()).collect();
    let (at, prefix, bad, miss) = locate(key, &Tree::list(list.iter().cloned()));
    let (want_at, want_prefix, want_bad, want_miss) = expected_locate(key, &list);
    prop_assert_eq!(bad, want_bad, "bad for {:?}", key);
    prop_assert_eq!(miss, want_miss, "miss for {:?}", key);
    if !miss {
        prop_assert_eq!(at, want_at);
        prop_assert_eq!(prefix, want_prefix);
    }
    Ok(())
}

#[test]
fn locate_reads_register_numbers_as_the_decoder_does() {
    let mut keys = vec![
        Tree::NIL,
        neg_tag(),
        tagged(Tree::NIL),
        Tree::cons(neg_tag(), neg_tag()),
    ];
    for n in [
        0i64,
        1,
        2,
        3,
        5,
        6,
        7,
        8,
        9,
        15,
        16,
        17,
        -1,
        -2,
        -7,
        i64::MIN,
        i64::MAX,
        1 << 62,
    ] {
        for form in 0..6 {
            keys.push(int_form(n, form));
        }
    }
    // 2^63 as 64 bits is negative; under a tag it is -2^63 too.
    let mut top = vec![false; 63];
    top.push(true);
    keys.push(bits(&top));
    keys.push(tagged(bits(&top)));
    // 64 ones: -1; under a tag: 1.
    keys.push(bits(&[true; 64]));
    keys.push(tagged(bits(&[true; 64])));
    // A bit that is not a bit after the 64th still makes it no Int.
    let mut long = vec![Tree::unit(); 70];
    long.push(Tree::cons(Tree::unit(), Tree::NIL));
    keys.push(Tree::list(long));
    for k in 0..3 {
        keys.push(not_int(k));
    }
    for key in &keys {
        for len in [0, 1, 2, 3, 4, 8, 9, 17] {
            check_locate(key, len).unwrap();
        }
    }
}

/// A random tree, sometimes shaped like an Int.
fn key_tree() -> impl Strategy<Value = Tree> {
    prop_oneof![
        (any::<i64>(), any::<u8>()).prop_map(|(n, f)| int_form(n % 40, f)),
        (any::<i64>(), any::<u8>()).prop_map(|(n, f)| int_form(n, f)),
        small_tree(),
        prop::collection::vec(prop_oneof![Just(Tree::NIL), Just(Tree::unit())], 0..80)
            .prop_map(Tree::list),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn locate_agrees_with_the_decoder(key in key_tree(), len in 0usize..45) {
        check_locate(&key, len)?;
    }

    #[test]
    fn set_input_trims_as_the_engine_does(
        limit in prop_oneof![0i64..30, Just(-1i64), Just(1000i64)],
        value in small_tree(),
        parts in prop::collection::vec(small_tree(), 0..6),
        registers in 0usize..4,
    ) {
        // A tuple without terminal Nil, as the engine's input is.
        let mut tuple = value;
        for p in parts {
            tuple = Tree::cons(p, tuple);
        }
        let memory: Memory = (0..registers)
            .map(|i| Register::new(if i == 1 { limit } else { 7 }, Tree::NIL))
            .collect();
        thread_local! {
            static SET: stdlib_common::Program = program(
                "machine",
                &["mem", "value"],
                "mov machine.memory, mem
                 mov machine.value, value
                 call machine.set_input",
            );
        }
        let got = SET.with(|p| {
            p.run(&[("mem", memory.encode()), ("value", tuple.clone())])
                .get("machine.memory")
                .clone()
        });
        let mut want = memory.clone();
        if let Some(r) = want.get_mut(1) {
            r.fit_tree(tuple);
        }
        prop_assert_eq!(got, want.encode());
    }
}

#[test]
fn whole_steps_of_real_robots_run_as_in_the_engine() {
    // The temple game's visitors (a pilgrim; a raider using std/input and
    // std/commands), each step: the memory a robot starts its run with, run
    // by the simulator for the robot's speed, ends as the engine's run
    // leaves it.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/inspection/temple.toml");
    let scenario =
        constree::scenario::Scenario::load(&path, None).unwrap_or_else(|e| panic!("{e}"));
    let (mut world, _) = scenario.world(0);
    let mut runs = Vec::new();
    for _ in 0..6 {
        let (next, _) = constree::world::update_with(world, &mut |_, pending| {
            let before = pending.robot.memory.clone();
            let speed = pending.robot.processor.speed;
            let (robot, step) = pending.run();
            if speed <= 2000 {
                runs.push((before, speed as usize, robot.memory.clone()));
            }
            (robot, step)
        });
        world = next;
    }
    assert!(runs.len() >= 10, "the visitors' runs");
    for (before, speed, after) in &runs {
        let (sim, left, _, failed) = RUNNER.with(|r| simulate(r, before, *speed, false));
        assert!(!failed);
        assert_eq!(left, 0, "the visitors spin until the step ends");
        assert_eq!(&sim, after);
    }
}

#[test]
fn the_documented_example_runs() {
    let p = stdlib_common::doc_example("machine");
    let run = p.run(&[]);
    let memory: Memory = constree::encoding::Decode::decode(run.get("out2")).unwrap();
    assert_eq!(memory[2].contents, 5i64.encode());
    assert_eq!(memory[3].contents, vec![6i64].encode());
    assert_eq!(memory[1].contents, vec![7i64].encode());
    assert_eq!(run.get("machine.fuel").list_len(), 9);
    assert!(run.get("machine.failed").is_nil());
}

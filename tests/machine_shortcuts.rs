//! The machine's exact shortcuts: the cycle fast path
//! (`constree::machine::run_for_with`) ends every run in exactly the
//! plain run's state, and `run_capped` stops where a test before every
//! tick stops.

use constree::encoding::Encode;
use constree::machine::{
    Instruction, MAX_SPAN, Memory, Register, run_capped, run_for_with, run_until,
};
use constree::tree::Tree;
use proptest::prelude::*;

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

/// A memory to build: plain data, so that two runs can start from
/// memories that share no node (the nodes alive, which `run_capped`
/// counts, then depend on one run only).
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
        let mut capped = spec.build();
        let start = constree::tree::nodes_alive();
        let mut over = |_: &Tree, _: &[Register]| {
            constree::tree::nodes_alive().saturating_sub(start) > cap
        };
        let expected = run_until(&mut tested, budget, false, &mut over);
        let got = run_capped(&mut capped, budget, cap);
        prop_assert_eq!(got, expected);
        prop_assert_eq!(capped, tested);
    }
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

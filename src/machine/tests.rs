use super::*;
use crate::encoding::{Decode, Encode};
use crate::tree::Tree;

fn program(instructions: &[Instruction]) -> Tree {
    instructions.to_vec().encode()
}

fn memory(limits: &[i64]) -> Memory {
    limits
        .iter()
        .map(|&l| Register::new(l, Tree::NIL))
        .collect()
}

#[test]
fn instruction_codec_round_trips() {
    for i in [
        Instruction::Nilify(3),
        Instruction::Construct(1, 2, 3),
        Instruction::Deconstruct(0, -1, 7),
        Instruction::CopyIfNil(1 << 30, 2, 3),
        Instruction::Construct(4094, 4095, 4096),
        Instruction::Construct(65535, 1, 0),
        Instruction::Deconstruct(0, 65536, 1),
    ] {
        let t = i.encode();
        assert_eq!(Instruction::decode(&t), Some(i));
        // The second decode reads the memo.
        assert_eq!(Instruction::decode(&t), Some(i));
    }
    assert_eq!(Instruction::decode(&Tree::NIL), None);
    let bad_tag = (4i64, (1i64, 2i64, 3i64)).encode();
    assert_eq!(Instruction::decode(&bad_tag), None);
    assert_eq!(Instruction::decode(&bad_tag), None);
}

#[test]
fn a_memoised_instruction_checks_its_operands_against_each_memory() {
    // The same instruction node in two memories: the first run memoises
    // it, the second reads the memo; both report the missing register.
    for operand in [5, 4094, 4095, 4100, 70_000] {
        let jump = Instruction::CopyIfNil(3, operand, 1).encode();
        for _ in 0..2 {
            let mut m = memory(&[100, 10, 10, 10]);
            m[0].contents = Tree::list([jump.clone()]);
            assert_eq!(
                run_for(1, &mut m),
                Err(MachineError::NoSuchRegister(operand))
            );
        }
        let mut big = memory(&[100; 4101]);
        big[0].contents = Tree::list([jump.clone()]);
        let expected = if operand < 4101 {
            Ok(1)
        } else {
            Err(MachineError::NoSuchRegister(operand))
        };
        assert_eq!(run_for(1, &mut big).map(|r| r.ticks), expected);
    }
}

#[test]
fn program_register_holds_the_rest_while_an_instruction_runs() {
    // Copy register 0 (the rest of the program) into register 3.
    let mut m = memory(&[100, 0, 0, 100]);
    m[0].contents = program(&[Instruction::CopyIfNil(1, 0, 3), Instruction::Nilify(2)]);
    let report = run_for(10, &mut m).unwrap();
    assert_eq!(
        report,
        RunReport {
            ticks: 2,
            halted: true
        }
    );
    assert_eq!(m[3].contents, program(&[Instruction::Nilify(2)]));
}

#[test]
fn deconstruct_writes_front_then_back() {
    let mut m = memory(&[100, 10, 10]);
    m[0].contents = program(&[Instruction::Deconstruct(1, 2, 2)]);
    m[1].contents = Tree::cons(Tree::unit(), Tree::NIL);
    run_for(1, &mut m).unwrap();
    assert_eq!(m[2].contents, Tree::NIL);
}

#[test]
fn errors_in_the_reports_order() {
    let mut m = memory(&[100, 10]);
    m[0].contents = program(&[Instruction::Deconstruct(1, 5, 6)]);
    assert_eq!(run_for(1, &mut m), Err(MachineError::DeconstructNil(1)));
    let mut m = memory(&[100, 10]);
    m[0].contents = program(&[Instruction::Nilify(-1)]);
    assert_eq!(run_for(1, &mut m), Err(MachineError::NoSuchRegister(-1)));
    let mut m = memory(&[100, -1]);
    m[0].contents = program(&[Instruction::Nilify(1)]);
    assert_eq!(run_for(1, &mut m), Err(MachineError::OutOfMemory(1)));
    // A non-Nil test does not check the other operands.
    let mut m = memory(&[100, 10]);
    m[1].contents = Tree::unit();
    m[0].contents = program(&[Instruction::CopyIfNil(1, 99, 99)]);
    assert!(run_for(1, &mut m).is_ok());
}

#[test]
fn bad_instruction_carries_the_program() {
    let mut m = memory(&[100]);
    let junk = (7i64, Tree::NIL).encode();
    m[0].contents = Tree::cons(junk.clone(), Tree::NIL);
    let err = run_machine(5, &mut m).unwrap_err();
    assert_eq!(
        err,
        MachineError::BadInstruction(Tree::cons(junk, Tree::NIL))
    );
    assert!(m[0].contents.is_nil());
    assert_eq!(m[0].limit, 100);
}

#[test]
fn speed_zero_and_empty_memory() {
    let mut m = memory(&[100, 0]);
    m[0].contents = program(&[Instruction::Nilify(7)]);
    assert_eq!(
        run_for(0, &mut m),
        Ok(RunReport {
            ticks: 0,
            halted: false
        })
    );
    assert_eq!(
        run_for(5, &mut []),
        Ok(RunReport {
            ticks: 0,
            halted: true
        })
    );
}

#[test]
fn negative_speed_runs_to_the_halt() {
    let mut m = memory(&[100, 0, 0]);
    m[0].contents = program(&[Instruction::Nilify(2); 7]);
    assert_eq!(
        run_for(-1, &mut m),
        Ok(RunReport {
            ticks: 7,
            halted: true
        })
    );
}

#[test]
fn trim_walks_the_right_spine_only() {
    let list = Tree::list([Tree::unit(), Tree::unit(), Tree::unit()]);
    // Each element costs 2 conses (its cons and its Cons Nil Nil).
    assert_eq!(trim(6, &list), list);
    assert_eq!(trim(5, &list), Tree::list([Tree::unit(), Tree::unit()]));
    assert_eq!(trim(2, &list), Tree::list([Tree::unit()]));
    // The front must fit strictly: size 1 < 1 fails.
    assert_eq!(trim(1, &list), Tree::NIL);
    assert_eq!(trim(-5, &list), Tree::NIL);
}

#[test]
fn force_and_fit() {
    let mut r = Register::new(1, Tree::NIL);
    r.force(Tree::list([Tree::NIL, Tree::NIL]));
    assert!(r.contents.is_nil());
    r.fit(&vec![false, false]);
    assert_eq!(r.contents, Tree::list([Tree::NIL]));
}

#[test]
fn code_built_at_run_time_runs_in_the_arena_as_on_plain_trees() {
    use Instruction::*;
    // Register 1 holds an instruction, register 2 a program; the program
    // conses the instruction onto it twice (two new program nodes whose
    // head nobody has decoded yet) and jumps to the first; the rest jumps
    // to the second, which finds its head decoded through the first. It
    // loops until register 3 outgrows its limit: each budget stops it
    // somewhere else. Every memory is encoded anew, so that the arena
    // (run first) meets the instructions not decoded.
    let fresh = |limit| {
        let mut m = memory(&[100, 100, 100, limit, 100, 100, 100]);
        m[0].contents = program(&[Construct(1, 2, 5), Construct(1, 2, 6), CopyIfNil(4, 5, 0)]);
        m[1].contents = Construct(3, 3, 3).encode();
        m[2].contents = program(&[CopyIfNil(4, 6, 0)]);
        m
    };
    for budget in 0..40 {
        for limit in [1_000, 20] {
            let mut arena = fresh(limit);
            let outcome = run_capped(&mut arena, budget, u64::MAX);
            let mut plain = fresh(limit);
            let expected = run_until(&mut plain, budget, false, &mut |_, _| false);
            assert_eq!(outcome, expected, "budget {budget}, limit {limit}");
            assert_eq!(arena, plain, "budget {budget}, limit {limit}");
        }
    }
}

//! The machine on arbitrary memories: bytes become register limits and
//! preorder trees; `runMachine` runs them for a few hundred ticks.
#![no_main]

use constree::machine::{Register, run_machine};
use constree::tree::Tree;
use libfuzzer_sys::fuzz_target;

/// A tree from bits (1 = Cons, 0 = Nil), completed with Nils.
fn tree(bits: &mut impl Iterator<Item = bool>, budget: &mut usize) -> Tree {
    // Iterative preorder build: a stack of pending fronts.
    let mut stack: Vec<Option<Tree>> = Vec::new();
    let mut result;
    loop {
        let cons = *budget > 0 && bits.next().unwrap_or(false);
        if cons {
            *budget -= 1;
            stack.push(None);
            continue;
        }
        result = Tree::NIL;
        loop {
            match stack.pop() {
                None => return result,
                Some(None) => {
                    stack.push(Some(result));
                    break;
                }
                Some(Some(front)) => result = Tree::cons(front, result),
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let registers = usize::from(data[0] % 8) + 1;
    let speed = i64::from(data[1]);
    let mut rest = data[2..].iter().copied();
    let mut memory = Vec::new();
    for _ in 0..registers {
        let limit = i64::from(rest.next().unwrap_or(0) as i8) * 4;
        let byte_bits: Vec<bool> = rest
            .by_ref()
            .take(8)
            .flat_map(|b| (0..8).map(move |i| b >> i & 1 == 1))
            .collect();
        let mut budget = 40;
        let contents = tree(&mut byte_bits.into_iter(), &mut budget);
        memory.push(Register::new(limit, contents));
    }
    let before = memory.clone();
    let result = run_machine(speed, &mut memory);
    if result.is_err() {
        assert!(
            memory.iter().all(|r| r.contents.is_nil()),
            "a failed run wipes"
        );
        assert_eq!(
            memory.iter().map(|r| r.limit).collect::<Vec<_>>(),
            before.iter().map(|r| r.limit).collect::<Vec<_>>()
        );
    }
});

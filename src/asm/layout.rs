//! Layout: blocks of code become trees of instructions in registers.
//!
//! A block's code is its instructions followed by the code of the block after
//! it in the same section, unless its last instruction always writes `prog`
//! (a jump, a return, a halt) that does not directly follow an instruction
//! reading `prog` as data (as `call` does, to come back). Falling through therefore costs no tick: the
//! two blocks share the following block's tree (a shared suffix), and only
//! the logical size of the first grows. A label that is jumped to gets a
//! register holding its block's code; a block reached only by falling
//! through needs none.

use super::resolve::{Block, LimitSpec, Opcode, Resolved, Role};
use crate::encoding::Encode;
use crate::tree::Tree;
use rustc_hash::FxHashMap;

/// Code trees and the fall-through structure of a program.
#[derive(Debug, Default)]
pub struct Layout {
    /// Per block: its code (its instructions and everything it falls into).
    pub code: Vec<Tree>,
    /// Per block: the block it falls through into.
    pub falls_into: Vec<Option<usize>>,
    /// Per block: whether the entry or a named label reaches it.
    pub reachable: Vec<bool>,
}

/// Whether a register can only ever hold Nil: its declared limit is 0 or
/// less and it starts empty (the conventional `zero`).
pub fn always_nil(resolved: &Resolved, register: i64) -> bool {
    let Some(reg) = usize::try_from(register)
        .ok()
        .and_then(|r| resolved.registers.get(r))
    else {
        return false;
    };
    let limit = match reg.limit {
        LimitSpec::Default(n) | LimitSpec::Given(n, _) => Some(n),
        LimitSpec::Auto => None,
    };
    reg.role == Role::Declared && reg.init.is_none() && limit.is_some_and(|l| l <= 0)
}

/// An instruction with its register operands (`None` where an operand is a
/// value, or not known yet).
pub type InstrShape = (Opcode, [Option<i64>; 3]);

/// Whether a block ends, so that nothing falls through from it: its last
/// instruction always replaces the program (a jump through an always-Nil
/// register, a halt, any `construct` or `deconstruct` into `prog`), and the
/// instruction before it did not read `prog` as data (as `call` does, to
/// come back).
pub fn block_ends(instrs: &[InstrShape], always_nil: &dyn Fn(i64) -> bool) -> bool {
    let prog = Some(0);
    let terminator = |(op, o): &InstrShape| match op {
        Opcode::Nilify => o[0] == prog,
        Opcode::Construct => o[2] == prog,
        Opcode::Deconstruct => o[1] == prog || o[2] == prog,
        Opcode::CopyIfNil => o[2] == prog && o[0].is_some_and(always_nil),
    };
    let reads_prog = |(op, o): &InstrShape| match op {
        Opcode::Nilify => false,
        Opcode::Construct | Opcode::CopyIfNil => o[0] == prog || o[1] == prog,
        Opcode::Deconstruct => o[0] == prog,
    };
    match instrs {
        [.., before, last] => terminator(last) && !reads_prog(before),
        [last] => terminator(last),
        [] => false,
    }
}

/// Builds every automatic block's code tree (hand-laid blocks are built when
/// register contents are known).
pub fn lay_out(resolved: &Resolved) -> Layout {
    let n = resolved.blocks.len();
    let mut layout = Layout {
        code: vec![Tree::NIL; n],
        falls_into: vec![None; n],
        reachable: vec![false; n],
    };
    // Equal instructions share one encoded tree: a program repeats few
    // distinct instructions, so this keeps the code's nodes (and the
    // time to build and number them) in proportion to the distinct ones.
    let mut encoded: FxHashMap<(Opcode, [i64; 3]), Tree> = FxHashMap::default();
    for b in (0..n).rev() {
        let block = &resolved.blocks[b];
        if block.hand.is_some() {
            continue;
        }
        // A jump right after an instruction that read `prog` as data (the
        // `construct prog, stack, stack` of a `call`) is not the end: the
        // rest of the code was pushed, and `ret` comes back to it.
        let tail_shapes: Vec<InstrShape> = block.instrs[block.instrs.len().saturating_sub(2)..]
            .iter()
            .map(|i| (i.op, i.operands.map(Some)))
            .collect();
        let ends = block_ends(&tail_shapes, &|r| always_nil(resolved, r));
        let next = if ends { None } else { block.next };
        layout.falls_into[b] = next;
        let tail = next.map_or(Tree::NIL, |k| layout.code[k].clone());
        layout.code[b] = block.instrs.iter().rev().fold(tail, |t, i| {
            let instruction = encoded
                .entry((i.op, i.operands))
                .or_insert_with(|| i.op.instruction(i.operands).encode());
            Tree::cons(instruction.clone(), t)
        });
    }
    mark_reachable(resolved, &mut layout);
    layout
}

/// A block is reachable from the entry, from a label that has a register,
/// or from a hand-laid block's labels, following fall-through.
fn mark_reachable(resolved: &Resolved, layout: &mut Layout) {
    let mut roots: Vec<usize> = resolved.entry.into_iter().collect();
    for reg in &resolved.registers {
        if let Role::Code(b) | Role::HandBlock(b) = reg.role
            && b < resolved.blocks.len()
        {
            roots.push(b);
        }
    }
    for root in roots {
        let mut b = Some(root);
        while let Some(k) = b {
            if layout.reachable[k] {
                break;
            }
            layout.reachable[k] = true;
            b = layout.falls_into[k];
        }
    }
}

/// The blocks whose instructions make up a block's code, in order.
pub fn chain(layout: &Layout, first: usize) -> Vec<usize> {
    let mut blocks = vec![first];
    while let Some(next) = layout.falls_into[*blocks.last().expect("not empty")] {
        blocks.push(next);
    }
    blocks
}

/// The label to show for a block.
pub fn block_name(block: &Block, index: usize) -> String {
    block
        .labels
        .first()
        .map_or_else(|| format!("block{index}"), |l| l.text.to_string())
}

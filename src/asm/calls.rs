//! How deep calls nest, where that can be known: the check that the call
//! stack is large enough.
//!
//! A call (`construct prog, STACK, STACK` followed by a jump to a label)
//! pushes the rest of the current code onto the stack: `size + 1` conses. A
//! routine is the code reachable from its label without passing a return
//! or another call. When no routine can reach itself and every jump goes to
//! a label, the deepest chain of calls from the entry is known, and so is
//! the most the stack ever holds.

use super::diagnostics::Diagnostic;
use super::layout::{Layout, always_nil};
use super::resolve::{Opcode, Resolved, Role};
use std::collections::HashMap;

/// A call in a block: the callee's block and the size of what it pushes.
struct Call {
    callee: usize,
    pushed: u64,
}

/// The stack needed by the program, if it can be known, with the deepest
/// chain of calls (labels).
fn stack_needed(resolved: &Resolved, layout: &Layout, stack: usize) -> Option<(u64, Vec<usize>)> {
    let entry = resolved.entry?;
    let block_of = |register: i64| -> Option<usize> {
        let reg = resolved.registers.get(usize::try_from(register).ok()?)?;
        match reg.role {
            Role::Code(b) | Role::HandBlock(b) => Some(b),
            _ => None,
        }
    };
    let mut memo: HashMap<usize, Option<(u64, Vec<usize>)>> = HashMap::new();
    let mut visiting: Vec<usize> = Vec::new();
    need(
        entry,
        resolved,
        layout,
        stack,
        &block_of,
        &mut memo,
        &mut visiting,
    )
}

/// What a routine starting at block `start` needs below it on the stack.
fn need(
    start: usize,
    resolved: &Resolved,
    layout: &Layout,
    stack: usize,
    block_of: &dyn Fn(i64) -> Option<usize>,
    memo: &mut HashMap<usize, Option<(u64, Vec<usize>)>>,
    visiting: &mut Vec<usize>,
) -> Option<(u64, Vec<usize>)> {
    if let Some(known) = memo.get(&start) {
        return known.clone();
    }
    if visiting.contains(&start) {
        return None; // recursion: unknown depth
    }
    visiting.push(start);
    let result = (|| {
        let mut deepest = (0u64, Vec::new());
        for call in calls_of_routine(start, resolved, layout, stack, block_of)? {
            let (below, mut chain) = need(
                call.callee,
                resolved,
                layout,
                stack,
                block_of,
                memo,
                visiting,
            )?;
            let total = call.pushed.saturating_add(1).saturating_add(below);
            if total > deepest.0 {
                chain.insert(0, call.callee);
                deepest = (total, chain);
            }
        }
        Some(deepest)
    })();
    visiting.pop();
    memo.insert(start, result.clone());
    result
}

/// The calls made by the routine whose code starts at `start`, or `None` if
/// it jumps somewhere that is not a label.
fn calls_of_routine(
    start: usize,
    resolved: &Resolved,
    layout: &Layout,
    stack: usize,
    block_of: &dyn Fn(i64) -> Option<usize>,
) -> Option<Vec<Call>> {
    let stack = stack as i64;
    let mut calls = Vec::new();
    let mut seen = vec![false; resolved.blocks.len()];
    let mut work = vec![start];
    while let Some(b) = work.pop() {
        if std::mem::replace(&mut seen[b], true) {
            continue;
        }
        let instrs = &resolved.blocks[b].instrs;
        let code = &layout.code[b];
        for (k, instr) in instrs.iter().enumerate() {
            let o = instr.operands;
            let is_push = instr.op == Opcode::Construct && o == [0, stack, stack];
            if is_push
                && let Some(next) = instrs.get(k + 1)
                && next.op == Opcode::CopyIfNil
                && next.operands[2] == 0
                && always_nil(resolved, next.operands[0])
            {
                // The continuation is the code from the jump on.
                let pushed = code.iter_list_from(k + 1).size();
                calls.push(Call {
                    callee: block_of(next.operands[1])?,
                    pushed,
                });
                continue;
            }
            let writes_prog = instr.op.targets(o).contains(&0);
            if !writes_prog {
                continue;
            }
            match instr.op {
                // A jump or branch to a label stays in the routine (unless it
                // completes a call, handled above).
                Opcode::CopyIfNil if k == 0 || !is_call_push(&instrs[k - 1], stack) => {
                    work.push(block_of(o[1])?)
                }
                Opcode::CopyIfNil => {}
                // A return (`deconstruct link, link, prog`) or a halt ends it;
                // anything else writing prog is beyond this analysis.
                Opcode::Deconstruct if o[2] == 0 && o[0] == o[1] => {}
                Opcode::Nilify => {}
                _ => return None,
            }
        }
        if let Some(next) = layout.falls_into[b] {
            work.push(next);
        }
    }
    Some(calls)
}

fn is_call_push(instr: &super::resolve::Instr, stack: i64) -> bool {
    instr.op == Opcode::Construct && instr.operands == [0, stack, stack]
}

/// An error when the call stack cannot hold the deepest chain of calls.
pub fn check_stack(resolved: &Resolved, layout: &Layout, limits: &[i64]) -> Option<Diagnostic> {
    let (stack, _) = resolved.callstack?;
    let (needed, chain) = stack_needed(resolved, layout, stack)?;
    let limit = *limits.get(stack)?;
    if needed <= limit.max(0) as u64 {
        return None;
    }
    let reg = &resolved.registers[stack];
    let names: Vec<String> = chain
        .iter()
        .map(|&b| super::layout::block_name(&resolved.blocks[b], b))
        .collect();
    let span = match reg.limit {
        super::resolve::LimitSpec::Given(_, s) => s,
        _ => reg.span.unwrap_or_default(),
    };
    Some(
        Diagnostic::error(
            "E0607",
            span,
            format!("the call stack `{}` is too small", reg.name),
        )
        .label(format!(
            "holds {limit} conses; the deepest calls need {needed}"
        ))
        .note(format!("deepest chain of calls: {}", names.join(" > ")))
        .note("a call pushes the rest of the caller's code: its size plus one")
        .help(format!(
            "write `resize {} {needed}` after `use std/control`",
            reg.name
        )),
    )
}

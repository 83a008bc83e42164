//! How deep calls nest, where that can be known: the check that the call
//! stack is large enough.
//!
//! A call (`construct prog, STACK, STACK` followed by a jump to a label)
//! pushes the rest of the current code onto the stack: `size + 1` conses. A
//! routine is the code reachable from its label without passing a return
//! or another call. When no routine can reach itself and every jump goes to
//! a label, the deepest chain of calls from the entry is known, and so is
//! the most the stack ever holds.

use super::layout::{Layout, always_nil};
use super::resolve::{Opcode, Resolved, Role};
use crate::diagnostic::{Code, Diagnostic};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

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
    // Depth first over the call graph, with an explicit stack (a chain of
    // calls may be as long as the program): a routine is left once every
    // routine it calls is known. What each needs below it, and the callee
    // of its deepest call; `None` when unknown (a recursive call, or a jump
    // this analysis does not follow).
    let mut need: HashMap<usize, Option<(u64, Option<usize>)>> = HashMap::default();
    let mut on_path: HashSet<usize> = HashSet::default();
    let mut work = vec![Visit::Enter(entry)];
    while let Some(visit) = work.pop() {
        match visit {
            Visit::Enter(routine) => {
                if need.contains_key(&routine) || !on_path.insert(routine) {
                    continue;
                }
                let Some(calls) = calls_of_routine(routine, resolved, layout, stack, &block_of)
                else {
                    on_path.remove(&routine);
                    need.insert(routine, None);
                    continue;
                };
                let callees: Vec<usize> = calls.iter().rev().map(|c| c.callee).collect();
                work.push(Visit::Leave(routine, calls));
                work.extend(callees.into_iter().map(Visit::Enter));
            }
            Visit::Leave(routine, calls) => {
                on_path.remove(&routine);
                // A callee still unknown is on the path: a recursive call.
                let mut deepest = Some((0u64, None));
                for call in calls {
                    let Some(Some((below, _))) = need.get(&call.callee).copied() else {
                        deepest = None;
                        break;
                    };
                    let total = call.pushed.saturating_add(1).saturating_add(below);
                    if let Some((most, _)) = deepest
                        && total > most
                    {
                        deepest = Some((total, Some(call.callee)));
                    }
                }
                need.insert(routine, deepest);
            }
        }
    }
    let (needed, mut next) = need.get(&entry).copied().flatten()?;
    let mut chain = Vec::new();
    while let Some(callee) = next {
        chain.push(callee);
        next = need.get(&callee).copied().flatten().and_then(|(_, n)| n);
    }
    Some((needed, chain))
}

/// A step of the walk over the call graph.
enum Visit {
    /// Work out what a routine calls.
    Enter(usize),
    /// Every routine it calls is known: work out what it needs.
    Leave(usize, Vec<Call>),
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
    let mut seen = HashSet::default();
    let mut work = vec![start];
    while let Some(b) = work.pop() {
        if !seen.insert(b) {
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
            let writes_prog = instr.op.targets(o).any(|t| t == 0);
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
            Code::E0607,
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

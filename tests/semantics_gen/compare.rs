//! The differential check: a program's image run by the engine against the
//! source semantics' run of its source.
//!
//! Data is compared as trees. Code is compared as what it does: an engine
//! tree agrees with the semantics' code starting at instruction `p` when its
//! first element is an instruction with the same opcode and operands
//! denoting the same things (the same declared register; a register whose
//! contents agree with the constant or the label's code), and its rest
//! agrees with the code after `p`. Pairs already assumed equal are not
//! visited again, so loops in code and shared trees end.

use constree::asm::semantics::{Fault, Op, Operand, Outcome, Program, Run, Value};
use constree::encoding::Decode;
use constree::image::Image;
use constree::machine::{Instruction, MachineError, Memory, Register, Tick, tick};
use constree::tree::Tree;
use std::borrow::Cow;
use std::collections::HashSet;
use std::rc::Rc;

/// How the engine's run ended.
#[derive(Debug)]
pub enum EngineEnd {
    /// `prog` became Nil.
    Halted,
    /// The budget ran out.
    Running,
    /// An instruction failed; the program register before that tick.
    Failed(MachineError, Tree),
}

/// The engine's run of an image.
pub struct EngineRun {
    /// How it ended.
    pub end: EngineEnd,
    /// Instructions run (not counting one that failed).
    pub ticks: u64,
    /// The memory at the end (before the wipe an error causes).
    pub memory: Memory,
}

/// Runs an image's memory for at most `budget` ticks.
pub fn run_engine(image: &Image, budget: u64) -> EngineRun {
    let mut memory = image.memory();
    let mut ticks = 0;
    let end = loop {
        if ticks == budget {
            break EngineEnd::Running;
        }
        let before = memory[0].contents.clone();
        match tick(&mut memory) {
            Ok(Tick::Halted) => break EngineEnd::Halted,
            Ok(Tick::Executed(_)) => ticks += 1,
            Err(e) => break EngineEnd::Failed(e, before),
        }
    };
    EngineRun { end, ticks, memory }
}

/// The differences between the two runs (empty: they agree).
pub fn differences(program: &Program, sem: &Run, engine: &EngineRun) -> Vec<String> {
    let mut found = Vec::new();
    let mut same = Agreement::new(program, &engine.memory);
    match (&sem.outcome, &engine.end) {
        (Outcome::Undefined(why), _) => {
            found.push(format!("the semantics does not define it: {why}"))
        }
        (Outcome::Halted, EngineEnd::Halted) | (Outcome::Running, EngineEnd::Running) => {}
        (Outcome::Failed { fault, code, at }, EngineEnd::Failed(error, before)) => {
            let same_kind = matches!(
                (fault, error),
                (Fault::DeconstructNil(a), MachineError::DeconstructNil(b))
                    | (Fault::OutOfMemory(a), MachineError::OutOfMemory(b)) if a == b
            );
            if !same_kind {
                found.push(format!(
                    "semantics: {fault:?} at instruction {at}; engine: {error:?}"
                ));
            }
            if let Err(why) = same.check(before, code) {
                found.push(format!("the failing code differs: {why}"));
            }
        }
        (s, e) => found.push(format!("semantics ends {}; engine ends {e:?}", describe(s))),
    }
    if sem.ticks != engine.ticks {
        found.push(format!(
            "ticks: semantics {}, engine {}",
            sem.ticks, engine.ticks
        ));
    }
    if !matches!(sem.outcome, Outcome::Failed { .. }) {
        for (r, value) in program.registers.iter().zip(&sem.registers) {
            let Some(register) = usize::try_from(r.number)
                .ok()
                .and_then(|n| engine.memory.get(n))
            else {
                found.push(format!(
                    "register {} (r{}) is not in the image",
                    r.name, r.number
                ));
                continue;
            };
            if r.number != 0 && register.limit != r.limit {
                found.push(format!(
                    "limit of {}: semantics {}, image {}",
                    r.name, r.limit, register.limit
                ));
            }
            if let Err(why) = same.check(&register.contents, value) {
                found.push(format!("register {} (r{}): {why}", r.name, r.number));
            }
        }
    }
    found
}

fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Halted => "halted".into(),
        Outcome::Running => "still running".into(),
        Outcome::Failed { fault, at, .. } => format!("with {fault:?} at instruction {at}"),
        Outcome::Undefined(why) => format!("undefined ({why})"),
    }
}

/// Key of a semantic value for the pairs assumed equal.
fn key(value: &Value) -> Option<(u8, usize)> {
    match value {
        Value::Data(_) => None,
        Value::Code(p) => Some((0, *p)),
        Value::Instr(p) => Some((1, *p)),
        Value::Cons(pair) => Some((2, Rc::as_ptr(pair) as usize)),
        Value::Image(program) => Some((3, Rc::as_ptr(program) as usize)),
    }
}

/// A program and the memory its code registers and constants are read
/// from: the main program and the engine's memory, or a program embedded
/// with `image(...)` and the memory its image holds.
struct Context<'a> {
    program: Cow<'a, Program>,
    memory: Cow<'a, Memory>,
}

/// A pair to compare: an engine tree, a semantic value, and the context.
type Pair = (Tree, Value, usize);

struct Agreement<'a> {
    contexts: Vec<Context<'a>>,
    assumed: HashSet<(usize, (u8, usize), usize)>,
}

impl<'a> Agreement<'a> {
    fn new(program: &'a Program, memory: &'a Memory) -> Agreement<'a> {
        Agreement {
            contexts: vec![Context {
                program: Cow::Borrowed(program),
                memory: Cow::Borrowed(memory),
            }],
            assumed: HashSet::new(),
        }
    }

    /// Whether an engine tree agrees with a semantic value of the main
    /// program (see the module doc), without recursion.
    fn check(&mut self, tree: &Tree, value: &Value) -> Result<(), String> {
        let mut work: Vec<Pair> = vec![(tree.clone(), value.clone(), 0)];
        while let Some((tree, value, c)) = work.pop() {
            if let Some(k) = key(&value)
                && !self.assumed.insert((tree.node_id(), k, c))
            {
                continue;
            }
            match &value {
                Value::Data(t) => {
                    if *t != tree {
                        return Err(format!(
                            "data differs: expected {} conses, found {}",
                            t.size(),
                            tree.size()
                        ));
                    }
                }
                Value::Cons(pair) => {
                    let Some((f, b)) = tree.split() else {
                        return Err("expected a cons holding code, found Nil".into());
                    };
                    work.push((f.clone(), pair.front.clone(), c));
                    work.push((b.clone(), pair.back.clone(), c));
                }
                Value::Code(p) => {
                    let Some((f, b)) = tree.split() else {
                        return Err(format!("expected the code at instruction {p}, found Nil"));
                    };
                    self.instruction(f, *p, c, &mut work)?;
                    let program = &self.contexts[c].program;
                    work.push((b.clone(), program.code(program.instrs[*p].next), c));
                }
                Value::Instr(p) => self.instruction(&tree, *p, c, &mut work)?,
                Value::Image(child) => self.image(&tree, child, &mut work)?,
            }
        }
        Ok(())
    }

    /// Whether an engine tree is the memory of an image of `child`: its
    /// declared registers with their limits and initial contents, `prog`
    /// its code; pushes what must agree, in a context of its own.
    fn image(
        &mut self,
        tree: &Tree,
        child: &Rc<Program>,
        work: &mut Vec<Pair>,
    ) -> Result<(), String> {
        let Some(memory) = <Vec<Register>>::decode(tree) else {
            return Err("expected the memory of an image, found no memory".into());
        };
        for r in &child.registers {
            let Some(register) = usize::try_from(r.number).ok().and_then(|n| memory.get(n)) else {
                return Err(format!(
                    "the image has no register {} (r{})",
                    r.name, r.number
                ));
            };
            if r.number != 0 && register.limit != r.limit {
                return Err(format!(
                    "the image's {} has limit {}, not {}",
                    r.name, register.limit, r.limit
                ));
            }
        }
        let c = self.contexts.len();
        for (r, register) in child.registers.iter().zip(0..) {
            let init = if register == 0 {
                child.code(child.start)
            } else {
                r.init.clone()
            };
            work.push((memory[r.number as usize].contents.clone(), init, c));
        }
        self.contexts.push(Context {
            program: Cow::Owned((**child).clone()),
            memory: Cow::Owned(memory),
        });
        Ok(())
    }

    /// Whether an engine tree is instruction `p` of context `c`, pushing
    /// what its operands must agree with.
    fn instruction(
        &self,
        tree: &Tree,
        p: usize,
        c: usize,
        work: &mut Vec<Pair>,
    ) -> Result<(), String> {
        let Context { program, memory } = &self.contexts[c];
        let instr = &program.instrs[p];
        let Some(decoded) = Instruction::decode(tree) else {
            return Err(format!("expected instruction {p}, found no instruction"));
        };
        let (op, numbers) = match decoded {
            Instruction::Nilify(t) => (Op::Nilify, vec![t]),
            Instruction::Construct(a, b, c) => (Op::Construct, vec![a, b, c]),
            Instruction::Deconstruct(a, b, c) => (Op::Deconstruct, vec![a, b, c]),
            Instruction::CopyIfNil(a, b, c) => (Op::CopyIfNil, vec![a, b, c]),
        };
        if op != instr.op {
            return Err(format!(
                "instruction {p}: expected {:?}, found {decoded:?}",
                instr.op
            ));
        }
        for (operand, &n) in instr.operands.iter().zip(&numbers) {
            match operand {
                Operand::Register(r) => {
                    let expected = program.registers[*r].number;
                    if expected != n {
                        return Err(format!(
                            "instruction {p}: register r{expected} expected, found r{n}"
                        ));
                    }
                }
                Operand::Value(v) => {
                    let declared = program.register_numbered(n);
                    let always_nil =
                        declared.is_some_and(|r| program.registers[r].always_nil() && v.is_nil());
                    if declared.is_some() && !always_nil {
                        return Err(format!(
                            "instruction {p}: a value expected, found declared register r{n}"
                        ));
                    }
                    let Some(register) = usize::try_from(n).ok().and_then(|n| memory.get(n)) else {
                        return Err(format!("instruction {p}: register r{n} does not exist"));
                    };
                    work.push((register.contents.clone(), v.clone(), c));
                }
                Operand::Undefined(u) => {
                    return Err(format!(
                        "instruction {p}: an operand the semantics does not define: {}",
                        u.message
                    ));
                }
            }
        }
        Ok(())
    }
}

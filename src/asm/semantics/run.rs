//! Running a program as its source describes it.
//!
//! One tick takes the next instruction off `prog` and runs it, as the
//! machine does: while it runs, `prog` holds the code after it. A Nil
//! `prog` stops the program; an error stops it too (the machine would wipe
//! every register).

use super::program::{Op, Operand, Program};
use super::value::{Pos, Value};

/// A machine error, naming registers by their numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// `deconstruct` of a register holding Nil.
    DeconstructNil(i64),
    /// A write of a value larger than the register's limit.
    OutOfMemory(i64),
}

/// How a run ended.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// `prog` became Nil.
    Halted,
    /// The budget of ticks ran out first.
    Running,
    /// An instruction failed.
    Failed {
        /// Why.
        fault: Fault,
        /// The code whose first instruction failed (`prog` before the
        /// tick).
        code: Value,
        /// That instruction.
        at: Pos,
    },
    /// The program did something the semantics does not define (for
    /// example running data as code).
    Undefined(String),
}

/// What a program did, and facts about how.
#[derive(Debug, Clone)]
pub struct Run {
    /// How it ended.
    pub outcome: Outcome,
    /// Instructions run (the one that failed not counted).
    pub ticks: u64,
    /// Every declared register's contents at the end (as
    /// [`Program::registers`]; `prog` holds the code not yet run).
    pub registers: Vec<Value>,
    /// Jumps taken to an instruction at or before the jump.
    pub backward_jumps: u64,
    /// The most return continuations on the call stack at once.
    pub deepest_calls: usize,
    /// The most return continuations on the call stack at once that jump
    /// to the same routine (a recursion that deep).
    pub deepest_recursion: usize,
}

/// Runs a program for at most `budget` ticks.
pub fn run(program: &Program, budget: u64) -> Run {
    let mut machine = Machine {
        program,
        registers: program.registers.iter().map(|r| r.init.clone()).collect(),
        run: None,
        backward_jumps: 0,
        deepest_calls: 0,
        deepest_recursion: 0,
    };
    machine.registers[0] = program.code(program.start);
    let mut ticks = 0;
    let outcome = loop {
        if ticks == budget {
            break Outcome::Running;
        }
        let code = machine.registers[0].clone();
        let (at, rest) = match &code {
            Value::Data(t) if t.is_nil() => break Outcome::Halted,
            Value::Code(p) => (*p, program.code(program.instrs[*p].next)),
            Value::Cons(pair) => match pair.front {
                Value::Instr(p) => (p, pair.back.clone()),
                _ => break Outcome::Undefined("`prog` holds data that is not code".into()),
            },
            _ => break Outcome::Undefined("`prog` holds data that is not code".into()),
        };
        machine.registers[0] = rest;
        machine.run = Some(at);
        match machine.execute(at) {
            Ok(()) => ticks += 1,
            Err(Stop::Fault(fault)) => break Outcome::Failed { fault, code, at },
            Err(Stop::Undefined(why)) => break Outcome::Undefined(why),
        }
    };
    Run {
        outcome,
        ticks,
        registers: machine.registers,
        backward_jumps: machine.backward_jumps,
        deepest_calls: machine.deepest_calls,
        deepest_recursion: machine.deepest_recursion,
    }
}

/// Why an instruction stopped the program.
enum Stop {
    Fault(Fault),
    Undefined(String),
}

struct Machine<'p> {
    program: &'p Program,
    registers: Vec<Value>,
    /// The instruction running.
    run: Option<Pos>,
    backward_jumps: u64,
    deepest_calls: usize,
    deepest_recursion: usize,
}

impl Machine<'_> {
    /// Runs one instruction (the machine's `execute`): reads in operand
    /// order; `deconstruct` writes the front, then the back.
    fn execute(&mut self, at: Pos) -> Result<(), Stop> {
        let instr = &self.program.instrs[at];
        let o = &instr.operands;
        match instr.op {
            Op::Nilify => self.set(&o[0], Value::NIL),
            Op::Construct => {
                let front = self.get(&o[0])?;
                let back = self.get(&o[1])?;
                self.set(&o[2], Value::cons(front, back))
            }
            Op::Deconstruct => {
                let (front, back) = self.split(&o[0])?;
                self.set(&o[1], front)?;
                self.set(&o[2], back)
            }
            Op::CopyIfNil => {
                if self.get(&o[0])?.is_nil() {
                    let source = self.get(&o[1])?;
                    self.set(&o[2], source)
                } else {
                    Ok(())
                }
            }
        }
    }

    fn get(&self, operand: &Operand) -> Result<Value, Stop> {
        match operand {
            Operand::Register(r) => Ok(self.registers[*r].clone()),
            Operand::Value(v) => Ok(v.clone()),
            Operand::Undefined(u) => Err(Stop::Undefined(u.message.clone())),
        }
    }

    /// The front and back of an operand's contents: code's front is its
    /// first instruction, its back the code after that instruction.
    fn split(&self, operand: &Operand) -> Result<(Value, Value), Stop> {
        match self.get(operand)? {
            Value::Data(t) => match t.split() {
                Some((f, b)) => Ok((Value::Data(f.clone()), Value::Data(b.clone()))),
                None => Err(Stop::Fault(Fault::DeconstructNil(self.number(operand)?))),
            },
            Value::Cons(pair) => Ok((pair.front.clone(), pair.back.clone())),
            Value::Code(p) => Ok((
                Value::Instr(p),
                self.program.code(self.program.instrs[p].next),
            )),
            Value::Instr(_) | Value::Image(_) => Err(Stop::Undefined(
                "an instruction or an image taken apart: its encoding depends on layout".into(),
            )),
        }
    }

    fn number(&self, operand: &Operand) -> Result<i64, Stop> {
        match operand {
            Operand::Register(r) => Ok(self.program.registers[*r].number),
            _ => Err(Stop::Undefined(
                "an error in a constant or code register: its number depends on layout".into(),
            )),
        }
    }

    /// A checked write: a value larger than the register's limit is an
    /// error. A value holding code is taken to fit unless even its least
    /// possible size does not.
    fn set(&mut self, operand: &Operand, value: Value) -> Result<(), Stop> {
        let r = match operand {
            Operand::Register(r) => r,
            Operand::Value(_) => {
                return Err(Stop::Undefined("a write to a constant or a label".into()));
            }
            Operand::Undefined(u) => return Err(Stop::Undefined(u.message.clone())),
        };
        let r = *r;
        let limit = self.program.registers[r].limit;
        let fits = match value.size() {
            Some(size) => limit >= 0 && size <= limit as u64,
            None => limit >= 0 && value.least_size() <= limit as u64,
        };
        if !fits {
            return Err(Stop::Fault(Fault::OutOfMemory(
                self.program.registers[r].number,
            )));
        }
        if r == 0
            && let (Value::Code(to), Some(from)) = (&value, self.run)
            && *to <= from
        {
            self.backward_jumps += 1;
        }
        self.registers[r] = value;
        if self.program.callstack.is_some_and(|(stack, _)| stack == r) {
            self.measure_stack(r);
        }
        Ok(())
    }

    /// Counts the return continuations on the stack, and of them the most
    /// that jump to one routine.
    fn measure_stack(&mut self, stack: usize) {
        let (items, _) = self.registers[stack].spine();
        self.deepest_calls = self.deepest_calls.max(items.len());
        let mut callees: std::collections::HashMap<Pos, usize> = Default::default();
        for item in &items {
            if let Value::Code(p) = item
                && let Some(Operand::Value(Value::Code(callee))) =
                    self.program.instrs[*p].operands.get(1)
            {
                *callees.entry(*callee).or_default() += 1;
            }
        }
        let most = callees.values().copied().max().unwrap_or(0);
        self.deepest_recursion = self.deepest_recursion.max(most);
    }
}

//! The values of the source semantics: trees in which code is a symbol.
//!
//! A register of the source semantics holds a tree, as a register of the
//! machine does, except that code is not encoded: the code that starts at
//! an instruction of the program is the symbol [`Value::Code`], and an
//! instruction taken off the front of code is [`Value::Instr`]. How code is
//! encoded depends on how registers are numbered and blocks laid out, which
//! the semantics leaves to the assembler; what code *does* does not. So
//! does the image of another program ([`Value::Image`]).

use crate::tree::Tree;
use std::rc::Rc;

/// The index of an instruction of a [`super::Program`].
pub type Pos = usize;

/// A tree whose parts may be code.
#[derive(Debug, Clone)]
pub enum Value {
    /// A tree without code.
    Data(Tree),
    /// The code that starts at an instruction: that instruction, then the
    /// code after it (see [`super::Program::next`]).
    Code(Pos),
    /// One instruction, as the front of a [`Value::Code`].
    Instr(Pos),
    /// `Cons front back` where a part holds code.
    Cons(Rc<Pair>),
    /// The memory another program's image starts with (`image(FILE)`):
    /// its registers, with their declared limits and initial contents, and
    /// its code.
    Image(Rc<super::Program>),
}

/// The two parts of a [`Value::Cons`], with facts about them cached.
#[derive(Debug)]
pub struct Pair {
    /// The front.
    pub front: Value,
    /// The back.
    pub back: Value,
    /// A lower bound of the size (code and instructions count one cons).
    least: u64,
}

impl Drop for Pair {
    /// Takes long chains of pairs apart one at a time (a program can build a
    /// list of any length: dropping it must not recurse on its length).
    fn drop(&mut self) {
        let mut pending: Vec<Value> = Vec::new();
        let take = |v: &mut Value, pending: &mut Vec<Value>| {
            if let Value::Cons(_) = v {
                pending.push(std::mem::replace(v, Value::NIL));
            }
        };
        take(&mut self.front, &mut pending);
        take(&mut self.back, &mut pending);
        while let Some(v) = pending.pop() {
            if let Value::Cons(rc) = v
                && let Ok(mut pair) = Rc::try_unwrap(rc)
            {
                take(&mut pair.front, &mut pending);
                take(&mut pair.back, &mut pending);
            }
        }
    }
}

impl Value {
    /// Nil.
    pub const NIL: Value = Value::Data(Tree::NIL);

    /// `Cons front back`: plain data when neither part holds code.
    pub fn cons(front: Value, back: Value) -> Value {
        match (front, back) {
            (Value::Data(f), Value::Data(b)) => Value::Data(Tree::cons(f, b)),
            (front, back) => {
                let least = front.least_size().saturating_add(back.least_size()) + 1;
                Value::Cons(Rc::new(Pair { front, back, least }))
            }
        }
    }

    /// Whether this is Nil (code is never Nil).
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Data(t) if t.is_nil())
    }

    /// The size of a value without code, `None` for one that holds code
    /// (its size depends on how the assembler numbers registers).
    pub fn size(&self) -> Option<u64> {
        match self {
            Value::Data(t) => Some(t.size()),
            _ => None,
        }
    }

    /// A lower bound of the size: exact without code; code and an
    /// instruction count at least one cons each.
    pub fn least_size(&self) -> u64 {
        match self {
            Value::Data(t) => t.size(),
            Value::Code(_) | Value::Instr(_) | Value::Image(_) => 1,
            Value::Cons(p) => p.least,
        }
    }

    /// The elements of a list (a spine of conses), with what ends it.
    pub fn spine(&self) -> (Vec<Value>, Value) {
        let mut items = Vec::new();
        let mut rest = self.clone();
        loop {
            rest = match &rest {
                Value::Data(t) => match t.split() {
                    Some((f, b)) => {
                        items.push(Value::Data(f.clone()));
                        Value::Data(b.clone())
                    }
                    None => return (items, rest),
                },
                Value::Cons(p) => {
                    items.push(p.front.clone());
                    p.back.clone()
                }
                Value::Code(_) | Value::Instr(_) | Value::Image(_) => return (items, rest),
            };
        }
    }
}

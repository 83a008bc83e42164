//! What operands and values mean, as the language's docs define them.
//!
//! Values are computed by the assembler's evaluator of constants, which
//! knows nothing of layout: where it asks for the code of a label, it is
//! given a *marker*, a node of its own, which becomes [`Value::Code`] when
//! the value is read back.

use super::program::{Operand, Program, Register, Undefined};
use super::value::{Pos, Value};
use crate::asm::ast::{Expr, ExprKind, Ident, Name};
use crate::asm::eval::{self, Env};
use crate::asm::macros::Expansion;
use crate::asm::source::Span;
use crate::diagnostic::{Code, Diagnostic};
use crate::machine::Memory;
use crate::tree::Tree;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The marker nodes handed out for `code(LABEL)` and `image(FILE)`, by
/// node identity.
#[derive(Default)]
pub struct Markers {
    /// Node id to the instruction the code starts at.
    by_node: RefCell<HashMap<usize, Pos>>,
    /// Label to its marker (kept alive, so that node ids stay unique).
    by_label: RefCell<HashMap<Name, Tree>>,
    /// Node id to the program of an image, with the marker (kept alive).
    images: RefCell<HashMap<usize, (Rc<Program>, Tree)>>,
}

impl Markers {
    /// The stand-in tree for the code of a label (Nil where no code
    /// follows the label).
    fn code(&self, label: &Ident, labels: &HashMap<Name, Option<Pos>>) -> Result<Tree, Diagnostic> {
        let Some(&pos) = labels.get(&label.name()) else {
            return Err(Diagnostic::error(
                Code::E0601,
                label.span,
                format!("`{}` is not a label", label.text),
            ));
        };
        let Some(pos) = pos else {
            return Ok(Tree::NIL);
        };
        let mut by_label = self.by_label.borrow_mut();
        let marker = by_label
            .entry(label.name())
            .or_insert_with(Tree::unit)
            .clone();
        self.by_node.borrow_mut().insert(marker.node_id(), pos);
        Ok(marker)
    }

    /// The stand-in memory for the image of a program: one register whose
    /// contents are a marker. Encoded, it is the list
    /// `[Cons 0 MARKER]`, which [`Markers::read`] recognises.
    fn image(&self, program: Rc<Program>) -> Memory {
        let marker = Tree::unit();
        self.images
            .borrow_mut()
            .insert(marker.node_id(), (program, marker.clone()));
        vec![crate::machine::Register::new(0, marker)]
    }

    /// The program whose stand-in memory a list node is, if it is one.
    fn image_of(&self, node: &Tree) -> Option<Rc<Program>> {
        let (register, rest) = node.split()?;
        let (limit, contents) = register.split()?;
        if !rest.is_nil() || !limit.is_nil() {
            return None;
        }
        let images = self.images.borrow();
        images.get(&contents.node_id()).map(|(p, _)| Rc::clone(p))
    }

    /// A tree with markers read back as a [`Value`]: each distinct node is
    /// visited once, without recursion.
    fn read(&self, tree: &Tree) -> Value {
        let by_node = self.by_node.borrow();
        if by_node.is_empty() && self.images.borrow().is_empty() {
            return Value::Data(tree.clone());
        }
        let mut done: HashMap<usize, Value> = HashMap::new();
        let mut work = vec![(tree.clone(), false)];
        while let Some((t, expanded)) = work.pop() {
            let Some((front, back)) = t.split() else {
                continue;
            };
            if done.contains_key(&t.node_id()) {
                continue;
            }
            if let Some(&pos) = by_node.get(&t.node_id()) {
                done.insert(t.node_id(), Value::Code(pos));
            } else if let Some(program) = self.image_of(&t) {
                done.insert(t.node_id(), Value::Image(program));
            } else if expanded {
                let part = |p: &Tree| match p.split() {
                    None => Value::NIL,
                    Some(_) => done[&p.node_id()].clone(),
                };
                let value = Value::cons(part(front), part(back));
                done.insert(t.node_id(), value);
            } else {
                let (front, back) = (front.clone(), back.clone());
                work.push((t, true));
                work.push((front, false));
                work.push((back, false));
            }
        }
        match tree.split() {
            None => Value::NIL,
            Some(_) => done.remove(&tree.node_id()).expect("every node is read"),
        }
    }
}

/// Reads operands and values of one program.
pub struct Operands<'a> {
    env: &'a Env<'a>,
    registers: &'a [Register],
    labels: &'a HashMap<Name, Option<Pos>>,
    markers: &'a Markers,
}

impl<'a> Operands<'a> {
    /// Operands of a program whose registers and labels are known; `env`
    /// evaluates with `markers` for code.
    pub fn new(
        env: &'a Env<'a>,
        registers: &'a [Register],
        labels: &'a HashMap<Name, Option<Pos>>,
        markers: &'a Markers,
    ) -> Operands<'a> {
        Operands {
            env,
            registers,
            labels,
            markers,
        }
    }

    /// The evaluator's environment for a program: its constants, its
    /// register numbers (for `index(...)`) and markers for `code(...)`.
    pub fn env(
        expansion: &'a Expansion,
        register: &'a dyn Fn(&Name) -> Option<i64>,
        code: &'a dyn Fn(&Ident) -> Result<Tree, Diagnostic>,
        image: &'a dyn Fn(&str, Span) -> Result<Memory, Diagnostic>,
    ) -> Env<'a> {
        let mut env = Env::expanding(&expansion.consts);
        env.registers = Some(register);
        env.code = Some(code);
        env.image = Some(image);
        env
    }

    /// The stand-in for the memory of an image (see [`Markers`]).
    pub fn image_marker(markers: &Markers, program: Rc<Program>) -> Memory {
        markers.image(program)
    }

    /// The stand-in for the code of a label (see [`Markers`]).
    pub fn marker(
        markers: &Markers,
        labels: &HashMap<Name, Option<Pos>>,
        label: &Ident,
    ) -> Result<Tree, Diagnostic> {
        markers.code(label, labels)
    }

    /// What an operand denotes: a number alone or `@N` the register with
    /// that number; a register's name that register; a label's name its
    /// code; `#e` and any other expression a value.
    pub fn operand(&self, e: &Expr) -> Result<Operand, Undefined> {
        match &e.kind {
            ExprKind::Number(n) => self.numbered(i64::try_from(*n).ok(), e),
            ExprKind::RegisterIndex(index) => self.numbered(Some(self.int(index)?), e),
            ExprKind::Name(n) => {
                if let Some(r) = self.registers.iter().position(|r| r.name == *n) {
                    Ok(Operand::Register(r))
                } else if let Some(&pos) = self.labels.get(n) {
                    Ok(Operand::Value(pos.map_or(Value::NIL, Value::Code)))
                } else {
                    Ok(Operand::Value(self.value(e)?))
                }
            }
            ExprKind::Pool(inner) => Ok(Operand::Value(self.value(inner)?)),
            _ => Ok(Operand::Value(self.value(e)?)),
        }
    }

    fn numbered(&self, number: Option<i64>, e: &Expr) -> Result<Operand, Undefined> {
        number
            .and_then(|n| self.registers.iter().position(|r| r.number == n))
            .map(Operand::Register)
            .ok_or_else(|| Undefined::at(e.span, "a register number the program does not declare"))
    }

    /// The value of an expression, as a register would hold it.
    pub fn value(&self, e: &Expr) -> Result<Value, Undefined> {
        let v = eval::eval(e, self.env).map_err(|d| Undefined::at(d.primary.0, d.message))?;
        let tree = v.encode().map_err(|m| Undefined::at(e.span, m))?;
        Ok(self.markers.read(&tree))
    }

    /// The number an expression gives (a limit, an index).
    pub fn int(&self, e: &Expr) -> Result<i64, Undefined> {
        int(e, self.env)
    }
}

/// The number an expression gives in an environment.
pub fn int(e: &Expr, env: &Env<'_>) -> Result<i64, Undefined> {
    match eval::eval(e, env).map_err(|d| Undefined::at(d.primary.0, d.message))? {
        eval::Value::Int(n) => Ok(n),
        _ => Err(Undefined::at(e.span, "not a number")),
    }
}

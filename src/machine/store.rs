//! The report's `execute`, written once for every representation of a
//! running memory: the plain trees of [`super::run`] and the machine-private
//! arena of [`super::arena`]. Each implements [`Store`]; the order of the
//! checks and writes, and so the errors, are the same in both.

use super::{Instruction, MachineError};

/// A register operand: an index as instructions carry it, checked against
/// the memory when used (`i64`), or one known to name a register
/// ([`Checked`]).
pub(super) trait Operand: Copy {
    /// The register it names in a memory of `len` registers.
    fn slot(self, len: usize) -> Result<usize, MachineError>;
    /// The index, as errors name it.
    fn index(self) -> i64;
}

impl Operand for i64 {
    /// A negative index, as an unsigned number, is above any length: one
    /// comparison checks both ends.
    #[inline(always)]
    fn slot(self, len: usize) -> Result<usize, MachineError> {
        if (self as u64) < len as u64 {
            Ok(self as usize)
        } else {
            Err(MachineError::NoSuchRegister(self))
        }
    }

    #[inline(always)]
    fn index(self) -> i64 {
        self
    }
}

/// An operand already checked to be below the memory's length.
#[derive(Clone, Copy)]
pub(super) struct Checked(pub(super) usize);

impl Operand for Checked {
    #[inline(always)]
    fn slot(self, _len: usize) -> Result<usize, MachineError> {
        Ok(self.0)
    }

    #[inline(always)]
    fn index(self) -> i64 {
        self.0 as i64
    }
}

/// A memory while it runs, in some representation of trees.
pub(super) trait Store {
    /// A tree (owned: cloning it may cost a reference count).
    type Tree;
    /// The number of registers.
    fn len(&self) -> usize;
    /// The tree in register `slot` (below [`Store::len`]).
    fn get(&self, slot: usize) -> Self::Tree;
    /// Whether register `slot` (below [`Store::len`]) holds Nil.
    fn is_nil(&self, slot: usize) -> bool;
    /// The children of the tree in register `slot` (below [`Store::len`]),
    /// or `None` for Nil.
    fn split(&self, slot: usize) -> Option<(Self::Tree, Self::Tree)>;
    /// The tree Nil.
    fn nil(&self) -> Self::Tree;
    /// A new `Cons front back`.
    fn cons(&mut self, front: Self::Tree, back: Self::Tree) -> Self::Tree;
    /// Puts a tree in register `slot` (below [`Store::len`]) if it fits the
    /// register's limit; `false` (nothing written) if it does not.
    fn write(&mut self, slot: usize, tree: Self::Tree) -> bool;
    /// [`Store::get`] of a register the instruction writes next: the store
    /// may move the tree out instead of copying it (what the register holds
    /// until it is written does not matter: the write either replaces it or
    /// fails, which ends the run).
    #[inline(always)]
    fn take(&mut self, slot: usize) -> Self::Tree {
        self.get(slot)
    }
    /// [`Store::split`] of a register the instruction writes next (as for
    /// [`Store::take`]).
    #[inline(always)]
    fn split_taken(&mut self, slot: usize) -> Option<(Self::Tree, Self::Tree)> {
        self.split(slot)
    }
}

/// The register an operand names in `store`.
#[inline(always)]
fn slot<S: Store>(store: &S, index: impl Operand) -> Result<usize, MachineError> {
    index.slot(store.len())
}

/// The report's `setTree`: a checked write.
#[inline(always)]
fn set<S: Store>(store: &mut S, index: impl Operand, tree: S::Tree) -> Result<(), MachineError> {
    let slot = slot(store, index)?;
    if store.write(slot, tree) {
        Ok(())
    } else {
        Err(MachineError::OutOfMemory(index.index()))
    }
}

/// The report's `execute` of a decoded instruction.
#[inline(always)]
pub(super) fn execute_instruction<S: Store>(
    store: &mut S,
    instruction: Instruction,
) -> Result<(), MachineError> {
    match instruction {
        Instruction::Nilify(tgt) => execute_parts(store, 0, [tgt, 0, 0]),
        Instruction::Construct(fnt, bck, tgt) => execute_parts(store, 1, [fnt, bck, tgt]),
        Instruction::Deconstruct(src, fnt, bck) => execute_parts(store, 2, [src, fnt, bck]),
        Instruction::CopyIfNil(tst, src, tgt) => execute_parts(store, 3, [tst, src, tgt]),
    }
}

/// The report's `execute` of an instruction given as its tag (0 `Nilify`,
/// 1 `Construct`, 2 `Deconstruct`, 3 `CopyIfNil`) and operands (see
/// [`super::instruction::memoised`]), each checked when it is used.
#[inline(always)]
pub(super) fn execute_parts<S: Store, O: Operand>(
    store: &mut S,
    tag: u64,
    [a, b, c]: [O; 3],
) -> Result<(), MachineError> {
    match tag {
        // Nilify tgt
        0 => {
            let nil = store.nil();
            set(store, a, nil)
        }
        // Construct fnt bck tgt (the back taken when it is the target, as
        // in pushing onto a list)
        1 => {
            let front = store.get(slot(store, a)?);
            let back = slot(store, b)?;
            let back = if b.index() == c.index() {
                store.take(back)
            } else {
                store.get(back)
            };
            let tree = store.cons(front, back);
            set(store, c, tree)
        }
        // Deconstruct src fnt bck (the source taken when it is a target, as
        // in popping off a list)
        2 => {
            let source = slot(store, a)?;
            let split = if a.index() == b.index() || a.index() == c.index() {
                store.split_taken(source)
            } else {
                store.split(source)
            };
            let Some((front, back)) = split else {
                return Err(MachineError::DeconstructNil(a.index()));
            };
            // Front first, then back: with fnt == bck the back wins.
            set(store, b, front)?;
            set(store, c, back)
        }
        // CopyIfNil tst src tgt: with a non-Nil test, src and tgt are not
        // even checked.
        _ => {
            if store.is_nil(slot(store, a)?) {
                let source = store.get(slot(store, b)?);
                set(store, c, source)
            } else {
                Ok(())
            }
        }
    }
}

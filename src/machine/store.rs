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
    /// `Deconstruct` of register `slot` into the registers `targets`
    /// (front, then back), one of which is `slot`, done by the store
    /// without copying the children when it can be done so with no check
    /// failing: `true` when it was done (the memory as the report's
    /// `Deconstruct` leaves it), `false` when nothing was done.
    #[inline(always)]
    fn deconstruct_in_place<O: Operand>(&mut self, slot: usize, targets: [O; 2]) -> bool {
        let _ = (slot, targets);
        false
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
        // Construct fnt bck tgt
        1 => {
            let front = store.get(slot(store, a)?);
            let back = store.get(slot(store, b)?);
            let tree = store.cons(front, back);
            set(store, c, tree)
        }
        // Deconstruct src fnt bck (in place when the source is a target, as
        // in popping off a list)
        2 => {
            let source = slot(store, a)?;
            if (a.index() == b.index() || a.index() == c.index())
                && store.deconstruct_in_place(source, [b, c])
            {
                return Ok(());
            }
            let Some((front, back)) = store.split(source) else {
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

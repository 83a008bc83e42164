//! A position along the right spine of a tree, moved without touching any
//! reference count.

use super::Tree;
use std::mem::ManuallyDrop;

/// Owns a tree and points at one of the subtrees along its right spine (the
/// tree itself, its back, its back's back, ...). Moving along the spine costs
/// no reference counting, which is what the machine does with its program
/// register on every tick.
pub struct SpineCursor {
    anchor: Tree,
    /// The subtree the cursor is at, as a copy of its pointer that owns
    /// nothing: a node on the anchor's spine (or the anchor itself), kept
    /// alive by `anchor`. Nodes never change, so it stays valid until
    /// `anchor` is replaced, and it is replaced with it.
    at: ManuallyDrop<Tree>,
}

impl SpineCursor {
    /// A cursor at the root of `tree`.
    pub fn new(tree: Tree) -> SpineCursor {
        SpineCursor {
            // SAFETY: `anchor` owns the node while `at` is used.
            at: unsafe { tree.alias() },
            anchor: tree,
        }
    }

    /// The subtree the cursor is at.
    #[inline(always)]
    pub fn current(&self) -> &Tree {
        &self.at
    }

    /// Moves to the back of the current subtree (no move on Nil).
    #[inline(always)]
    pub fn advance(&mut self) {
        if let Some(back) = self.at.back() {
            // SAFETY: `back` is on the anchor's spine, which owns it.
            self.at = unsafe { back.alias() };
        }
    }

    /// Starts over at the root of another tree.
    #[inline(always)]
    pub fn reset(&mut self, tree: Tree) {
        // SAFETY: `tree` becomes the anchor, which owns it.
        self.at = unsafe { tree.alias() };
        self.anchor = tree;
    }

    /// The current subtree, owned.
    pub fn into_current(self) -> Tree {
        if self.at.ptr_eq(&self.anchor) {
            self.anchor
        } else {
            self.current().clone()
        }
    }
}

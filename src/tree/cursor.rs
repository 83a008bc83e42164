//! A position along the right spine of a tree, moved without touching any
//! reference count.

use super::Tree;
use std::ptr::NonNull;

/// Owns a tree and points at one of the subtrees along its right spine (the
/// tree itself, its back, its back's back, ...). Moving along the spine costs
/// no reference counting, which is what the machine does with its program
/// register on every tick.
pub struct SpineCursor {
    anchor: Tree,
    /// The `back` field of a node on the anchor's spine, or `None` for the
    /// anchor itself. That node is kept alive by `anchor`, and nodes never
    /// change, so the pointer stays valid until `anchor` is replaced.
    at: Option<NonNull<Tree>>,
}

impl SpineCursor {
    /// A cursor at the root of `tree`.
    pub fn new(tree: Tree) -> SpineCursor {
        SpineCursor {
            anchor: tree,
            at: None,
        }
    }

    /// The subtree the cursor is at.
    #[inline]
    pub fn current(&self) -> &Tree {
        match self.at {
            None => &self.anchor,
            // SAFETY: `at` points into a node owned (transitively) by
            // `self.anchor`, which lives as long as `self`.
            Some(p) => unsafe { p.as_ref() },
        }
    }

    /// Moves to the back of the current subtree (no move on Nil).
    #[inline]
    pub fn advance(&mut self) {
        if let Some(back) = self.current().back() {
            self.at = Some(NonNull::from(back));
        }
    }

    /// Starts over at the root of another tree.
    #[inline]
    pub fn reset(&mut self, tree: Tree) {
        self.at = None;
        self.anchor = tree;
    }

    /// The current subtree, owned.
    pub fn into_current(self) -> Tree {
        match self.at {
            None => self.anchor,
            Some(_) => self.current().clone(),
        }
    }
}

//! Persistent binary cons-trees, the only data of a constree machine.
//!
//! The report defines `data Constree = Cons Constree Constree | Nil`. Here a
//! [`Tree`] is either Nil or a shared pointer to an immutable [`Node`]. Nodes
//! never change after they are built, so any number of registers, robots,
//! items and snapshots can hold the same subtree: copying a tree is a pointer
//! copy, and a tree of astronomic logical size may have only a few distinct
//! nodes.
//!
//! Every node caches its size (the report's `size`, the number of conses), so
//! [`Tree::size`] is O(1). The cached size saturates at `u64::MAX` instead of
//! overflowing.
//!
//! Nothing in this module recurses on the shape of a tree: dropping, equality,
//! printing and parsing all use explicit stacks, so a 10^7-deep spine is as
//! safe as a short one.

mod equality;
pub mod json;
mod node;
mod serde;
mod table;
mod text;

pub use serde::{max_text, read_deduplicated, read_shared, write_shared};
pub use table::{ForwardNode, NodeTable, trees_from_nodes};
pub use text::{ParseTreeError, ReadableTree};

use node::Node;
use std::mem::ManuallyDrop;

/// How many cons nodes this thread has built so far (each [`Tree::cons`]
/// builds one). The difference over an operation measures the nodes it
/// allocated: a test of bounded work on shared trees counts with it.
pub fn nodes_built() -> u64 {
    node::built()
}

/// How many cons nodes of this thread are alive now: the memory its trees
/// take, in nodes, however large they are logically.
pub fn nodes_alive() -> u64 {
    node::alive()
}
use std::cell::Cell;
use std::ptr::NonNull;

/// A cons-tree: `Nil`, or an owned reference to a shared, immutable `Cons`
/// node. Cloning adds an owner; dropping removes one.
#[repr(transparent)]
#[derive(Default)]
pub struct Tree(Option<NonNull<Node>>);

impl Clone for Tree {
    #[inline(always)]
    fn clone(&self) -> Tree {
        if let Some(n) = self.0 {
            node::retain(n);
        }
        Tree(self.0)
    }
}

impl Drop for Tree {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(n) = self.0 {
            node::release(n);
        }
    }
}

impl Tree {
    /// The empty tree, `Nil`.
    pub const NIL: Tree = Tree(None);

    /// `Cons front back`, in O(1).
    #[inline]
    pub fn cons(front: Tree, back: Tree) -> Tree {
        Tree::cons_inline(front, back)
    }

    /// [`Tree::cons`], always inlined: the machine's tick conses with it.
    #[inline(always)]
    pub(crate) fn cons_inline(front: Tree, back: Tree) -> Tree {
        let size = front.size().saturating_add(back.size()).saturating_add(1);
        Tree(Some(node::new_node(front, back, size)))
    }

    /// The node behind a `Cons`.
    #[inline(always)]
    fn node(&self) -> Option<&Node> {
        // SAFETY: this tree owns a reference, so the node lives at least as
        // long as the borrow of `self`.
        self.0.map(|n| unsafe { &*n.as_ptr() })
    }

    /// Gives up ownership without releasing the node.
    #[inline(always)]
    fn into_raw(self) -> Option<NonNull<Node>> {
        let raw = self.0;
        std::mem::forget(self);
        raw
    }

    /// `Cons Nil Nil`, the encoding of `True` and of the bit 1.
    pub fn unit() -> Tree {
        Tree::cons(Tree::NIL, Tree::NIL)
    }

    /// Whether this is `Nil`.
    #[inline]
    pub fn is_nil(&self) -> bool {
        self.0.is_none()
    }

    /// Whether this is a `Cons`.
    pub fn is_cons(&self) -> bool {
        self.0.is_some()
    }

    /// The two children of a `Cons`, or `None` for `Nil`.
    #[inline]
    pub fn split(&self) -> Option<(&Tree, &Tree)> {
        self.node().map(|n| (&n.front, &n.back))
    }

    /// The two children of a `Cons`, or `None` for `Nil`, giving up this
    /// tree: when nobody else holds its node, the children are moved out
    /// and the node is freed, with no count changed but its own.
    #[inline(always)]
    pub(crate) fn into_children(self) -> Option<(Tree, Tree)> {
        self.into_raw().map(node::into_children)
    }

    /// The front (left) child of a `Cons`, or `None` for `Nil`.
    #[inline]
    pub fn front(&self) -> Option<&Tree> {
        self.node().map(|n| &n.front)
    }

    /// The back (right) child of a `Cons`, or `None` for `Nil`.
    #[inline]
    pub fn back(&self) -> Option<&Tree> {
        self.node().map(|n| &n.back)
    }

    /// The report's `size`: the number of conses, saturating at `u64::MAX`.
    #[inline]
    pub fn size(&self) -> u64 {
        self.node().map_or(0, |n| n.size)
    }

    /// Whether the tree fits a register of the given limit (`size t <= limit`).
    #[inline]
    pub fn fits(&self, limit: i64) -> bool {
        limit >= 0 && self.size() <= limit as u64
    }

    /// Whether both trees are the very same node (or both `Nil`).
    #[inline]
    pub fn ptr_eq(&self, other: &Tree) -> bool {
        self.0 == other.0
    }

    /// The memo word of a `Cons` node: a slot in which the machine caches the
    /// decoded instruction of this subtree (0 means "not computed"). Since
    /// nodes are immutable, anything cached there stays valid.
    #[inline]
    pub fn memo(&self) -> Option<&Cell<u64>> {
        self.node().map(|n| &n.memo)
    }

    /// The memo word's value ([`Tree::memo`]), 0 for `Nil`.
    #[inline(always)]
    pub fn memo_word(&self) -> u64 {
        self.node().map_or(0, |n| n.memo.get())
    }

    /// A copy of this tree's pointer that owns nothing (no count is
    /// added): a way to keep a position in a tree that something else
    /// owns without counting references.
    ///
    /// # Safety
    /// The copy must never be dropped as a [`Tree`] (only forgotten), and
    /// must not be used once the node's last owner has let it go.
    #[inline(always)]
    pub(crate) unsafe fn alias(&self) -> ManuallyDrop<Tree> {
        ManuallyDrop::new(Tree(self.0))
    }

    /// An address that identifies this node while it lives (0 for `Nil`).
    pub fn node_id(&self) -> usize {
        self.0.map_or(0, |n| n.as_ptr() as usize)
    }

    /// Whether more than one owner holds this node (so it may be reached twice).
    pub(crate) fn is_shared(&self) -> bool {
        self.0.is_some_and(node::is_shared)
    }

    /// The list `[x1, ..., xn]` as `Cons x1 (... (Cons xn Nil))`.
    pub fn list<I>(items: I) -> Tree
    where
        I: IntoIterator<Item = Tree>,
        I::IntoIter: DoubleEndedIterator,
    {
        items
            .into_iter()
            .rev()
            .fold(Tree::NIL, |tail, head| Tree::cons(head, tail))
    }

    /// Iterates the elements of the list this tree encodes: the fronts along
    /// its right spine. The iterator stops at the first `Nil` back; use
    /// [`ListIter::rest`] to see the final back.
    pub fn iter_list(&self) -> ListIter<'_> {
        ListIter { rest: self }
    }

    /// The list from its `k`-th element on (the back after `k` steps along
    /// the spine; Nil if the list is shorter).
    pub fn iter_list_from(&self, k: usize) -> &Tree {
        let mut rest = self;
        for _ in 0..k {
            match rest.back() {
                Some(b) => rest = b,
                None => break,
            }
        }
        rest
    }

    /// The number of elements on the right spine.
    pub fn list_len(&self) -> usize {
        self.iter_list().count()
    }

    /// Follows a path of `0` (front) and `1` (back) steps.
    pub fn at_path(&self, path: &[bool]) -> Option<&Tree> {
        path.iter().try_fold(self, |t, &back| {
            let (f, b) = t.split()?;
            Some(if back { b } else { f })
        })
    }
}

/// Iterator over the elements of a list-shaped tree.
pub struct ListIter<'a> {
    rest: &'a Tree,
}

impl<'a> ListIter<'a> {
    /// What remains of the spine: `Nil` once a proper list is exhausted.
    pub fn rest(&self) -> &'a Tree {
        self.rest
    }
}

impl<'a> Iterator for ListIter<'a> {
    type Item = &'a Tree;
    fn next(&mut self) -> Option<&'a Tree> {
        let (front, back) = self.rest.split()?;
        self.rest = back;
        Some(front)
    }
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const SHOWN: usize = 200;
        let bits = self.bits_prefix(SHOWN);
        if (self.size() as u128) * 2 + 1 > SHOWN as u128 {
            write!(f, "Tree({bits}… size {})", self.size())
        } else {
            write!(f, "Tree({bits})")
        }
    }
}

/// A small random generator for unit tests (xorshift64 from `seed`): each
/// call gives a number below `n`.
#[cfg(test)]
pub(crate) fn random_below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

#[cfg(test)]
mod tests;

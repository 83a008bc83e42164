//! The memory behind trees: reference-counted nodes from a per-thread pool.
//!
//! This is the only `unsafe` code of the crate. A node is allocated once and
//! never changes until its last owner lets go. Freed nodes go back to a
//! per-thread free list (up to [`POOL_CAPACITY`] of them) so the machine's
//! constant consing and unconsing rarely reaches the global allocator.
//!
//! Releasing a tree never recurses: when a count drops to zero, the dead node
//! is threaded onto a list through its own `link` word, and its children are
//! released one after another from that list. Freeing a 10^7-deep spine takes
//! no stack.
//!
//! Trees are `!Send` (a node pointer is), so a node is always allocated,
//! shared and freed by one thread, and plain `Cell` counts are enough.

use super::Tree;
use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::cell::Cell;
use std::ptr::{self, NonNull};

/// One `Cons` cell.
pub(super) struct Node {
    /// Number of owners.
    refs: Cell<usize>,
    pub(super) front: Tree,
    pub(super) back: Tree,
    /// The cached size; while the node sits on a free or release list, the
    /// address of the next node on that list.
    pub(super) size: u64,
    /// A word in which higher layers memoise a pure function of the subtree.
    pub(super) memo: Cell<u64>,
}

/// Freed nodes kept per thread for reuse (about 40 MiB).
pub const POOL_CAPACITY: usize = 1 << 20;

struct Pool {
    free: Cell<*mut Node>,
    len: Cell<usize>,
}

impl Drop for Pool {
    fn drop(&mut self) {
        let mut p = self.free.get();
        while !p.is_null() {
            // SAFETY: every node on the free list is a dead allocation of
            // `Layout::new::<Node>()` whose `size` word links to the next.
            unsafe {
                let next = (*p).size as usize as *mut Node;
                dealloc(p.cast(), Layout::new::<Node>());
                p = next;
            }
        }
    }
}

thread_local! {
    static POOL: Pool = const { Pool { free: Cell::new(ptr::null_mut()), len: Cell::new(0) } };
}

/// A new node owned by the caller (count 1).
#[inline]
pub(super) fn new_node(front: Tree, back: Tree, size: u64) -> NonNull<Node> {
    let recycled = POOL
        .try_with(|pool| {
            let p = pool.free.get();
            if !p.is_null() {
                // SAFETY: `p` is a dead node on the free list.
                pool.free.set(unsafe { (*p).size } as usize as *mut Node);
                pool.len.set(pool.len.get() - 1);
            }
            p
        })
        .unwrap_or(ptr::null_mut());
    let p = if recycled.is_null() {
        let layout = Layout::new::<Node>();
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { alloc(layout) }.cast::<Node>();
        if p.is_null() {
            handle_alloc_error(layout);
        }
        p
    } else {
        recycled
    };
    // SAFETY: `p` is valid for writes of a `Node` and holds no live value
    // (fresh memory, or a dead node whose fields were moved out).
    unsafe {
        ptr::write(
            p,
            Node {
                refs: Cell::new(1),
                front,
                back,
                size,
                memo: Cell::new(0),
            },
        );
        NonNull::new_unchecked(p)
    }
}

/// Adds an owner.
#[inline]
pub(super) fn retain(node: NonNull<Node>) {
    // SAFETY: the caller owns a reference, so the node is alive.
    let refs = unsafe { &node.as_ref().refs };
    refs.set(refs.get() + 1);
}

/// Whether more than one owner holds the node.
#[inline]
pub(super) fn is_shared(node: NonNull<Node>) -> bool {
    // SAFETY: the caller owns a reference, so the node is alive.
    unsafe { node.as_ref().refs.get() > 1 }
}

/// Removes an owner; the last owner frees the node and releases its children.
#[inline]
pub(super) fn release(node: NonNull<Node>) {
    // SAFETY: the caller gives up a reference it owned.
    let refs = unsafe { &node.as_ref().refs };
    let left = refs.get() - 1;
    if left == 0 {
        free_dead(node.as_ptr());
    } else {
        refs.set(left);
    }
}

/// Frees a node whose count reached zero, and every node that dies with it.
fn free_dead(first: *mut Node) {
    // SAFETY: `first` had count zero: nobody else can reach it. Each node put
    // on the list below also had its count drop to zero here. A dead node's
    // children are moved out with `ptr::read` exactly once, and its `size`
    // word is free to serve as the list link.
    unsafe {
        (*first).size = 0;
        let mut pending = first;
        while !pending.is_null() {
            let dead = pending;
            pending = (*dead).size as usize as *mut Node;
            for child in [ptr::read(&(*dead).front), ptr::read(&(*dead).back)] {
                let Some(c) = child.into_raw() else { continue };
                let refs = &(*c.as_ptr()).refs;
                let left = refs.get() - 1;
                if left == 0 {
                    (*c.as_ptr()).size = pending as usize as u64;
                    pending = c.as_ptr();
                } else {
                    refs.set(left);
                }
            }
            recycle(dead);
        }
    }
}

/// Puts a dead node (fields already moved out) on the free list, or returns
/// it to the allocator when the list is full.
fn recycle(dead: *mut Node) {
    let kept = POOL
        .try_with(|pool| {
            if pool.len.get() >= POOL_CAPACITY {
                return false;
            }
            // SAFETY: `dead` is a dead node; its `size` word becomes the link.
            unsafe { (*dead).size = pool.free.get() as usize as u64 };
            pool.free.set(dead);
            pool.len.set(pool.len.get() + 1);
            true
        })
        .unwrap_or(false);
    if !kept {
        // SAFETY: allocated with this layout in `new_node`.
        unsafe { dealloc(dead.cast(), Layout::new::<Node>()) };
    }
}

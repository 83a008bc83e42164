//! The memory behind trees: reference-counted nodes from a per-thread pool.
//!
//! This is the only `unsafe` code of the crate. A node is allocated once and
//! never changes until its last owner lets go. Nodes come from per-thread
//! slabs of 4096 and freed nodes go back to the thread's free list, so the
//! machine's constant consing and unconsing never reaches the global
//! allocator. The pool counts its live nodes: when the thread ends, its
//! slabs are returned if no node in them is alive, and otherwise left as
//! they are, so that a tree kept somewhere destroyed after the pool's guard
//! (another thread-local) is still released into valid memory. Until then a
//! thread's memory for nodes is the most it ever had alive at once.
//!
//! The pool itself is a thread-local without a destructor, so that reaching
//! it is one address computation (a thread-local with a destructor is
//! checked for being alive at every access); returning the slabs is the
//! work of a second thread-local, [`SlabGuard`], whose destructor is
//! registered when the first slab is taken.
//!
//! Releasing a tree never recurses: when a count drops to zero, the dead node
//! is threaded onto a list through its own `link` word, and its children are
//! released one after another from that list. Freeing a 10^7-deep spine takes
//! no stack.
//!
//! Trees are `!Send` (a node pointer is), so a node is always allocated,
//! shared and freed by one thread, and plain `Cell` counts are enough.

use super::Tree;
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

/// Nodes per slab: the pool takes memory from the allocator in slabs.
const SLAB_NODES: usize = 4096;

/// A block of nodes, and the link to the previously allocated slab.
struct Slab {
    previous: *mut Slab,
    nodes: [std::mem::MaybeUninit<Node>; SLAB_NODES],
}

/// A thread's nodes: the slabs it allocated and a list of free nodes.
struct Pool {
    free: Cell<*mut Node>,
    slabs: Cell<*mut Slab>,
    /// Nodes handed out so far.
    taken: Cell<u64>,
    /// Nodes given back so far: `taken - given` are alive.
    given: Cell<u64>,
}

/// Returns the thread's slabs when the thread ends (see [`Pool::return_slabs`]).
struct SlabGuard;

impl Drop for SlabGuard {
    fn drop(&mut self) {
        POOL.with(Pool::return_slabs);
    }
}

thread_local! {
    static POOL: Pool = const {
        Pool {
            free: Cell::new(ptr::null_mut()),
            slabs: Cell::new(ptr::null_mut()),
            taken: Cell::new(0),
            given: Cell::new(0),
        }
    };
    static GUARD: SlabGuard = const { SlabGuard };
}

impl Pool {
    /// A free node, taking a new slab when none is left.
    #[inline]
    fn take(&self) -> *mut Node {
        if self.free.get().is_null() {
            self.grow();
        }
        self.taken.set(self.taken.get() + 1);
        let p = self.free.get();
        // SAFETY: `p` is a dead node on the free list; its `size` word links
        // to the next free node.
        self.free.set(unsafe { (*p).size } as usize as *mut Node);
        p
    }

    /// Takes a new slab. The first one registers the guard's destructor,
    /// which returns the slabs when the thread ends; a slab taken after the
    /// guard is gone (by another thread-local's destructor) is never
    /// returned.
    #[cold]
    fn grow(&self) {
        let _ = GUARD.try_with(|_| ());
        let slab = Box::into_raw(Box::<Slab>::new_uninit()).cast::<Slab>();
        // SAFETY: the slab was just allocated; its link is written first, and
        // threading its nodes onto the free list writes only their `size`
        // words. The nodes themselves stay uninitialised until used.
        unsafe {
            ptr::addr_of_mut!((*slab).previous).write(self.slabs.get());
            self.slabs.set(slab);
            let first = (*slab).nodes.as_mut_ptr().cast::<Node>();
            for k in 0..SLAB_NODES {
                let next = if k + 1 < SLAB_NODES {
                    first.add(k + 1)
                } else {
                    self.free.get()
                };
                ptr::addr_of_mut!((*first.add(k)).size).write(next as usize as u64);
            }
            self.free.set(first);
        }
    }

    /// Puts a dead node back on the free list.
    #[inline]
    fn give(&self, dead: *mut Node) {
        // SAFETY: `dead` is a dead node; its `size` word becomes the link.
        unsafe { (*dead).size = self.free.get() as usize as u64 };
        self.free.set(dead);
        self.given.set(self.given.get() + 1);
    }

    /// Returns every slab as the thread ends, unless a node in them is
    /// still alive: then the slabs stay, for that node's owner (a
    /// thread-local destroyed after the guard) to release it into. Trees
    /// are `!Send`, so only this thread, which is ending, can reach them.
    /// The free list is emptied with them: a node taken later comes from a
    /// new slab.
    fn return_slabs(&self) {
        if self.taken.get() != self.given.get() {
            return;
        }
        self.free.set(ptr::null_mut());
        let mut slab = self.slabs.replace(ptr::null_mut());
        while !slab.is_null() {
            // SAFETY: every slab on the list came from `Box::into_raw`, and
            // no node in it is alive or on the free list any more.
            let boxed = unsafe { Box::from_raw(slab) };
            slab = boxed.previous;
        }
    }
}

/// How many of this thread's nodes are alive now.
pub(super) fn alive() -> u64 {
    POOL.with(|p| p.taken.get() - p.given.get())
}

/// How many nodes this thread has built so far.
pub(super) fn built() -> u64 {
    POOL.with(|p| p.taken.get())
}

/// A new node owned by the caller (count 1).
#[inline(always)]
pub(super) fn new_node(front: Tree, back: Tree, size: u64) -> NonNull<Node> {
    let p = POOL.with(Pool::take);
    // SAFETY: `p` is valid for writes of a `Node` and holds no live value
    // (a node of a slab never used, or a dead node whose fields were moved
    // out).
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
#[inline(always)]
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
#[inline(always)]
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

/// The children of a node, whose owner gives it up: moved out of it when
/// that owner was the only one (the node is freed, the children's counts
/// stay as they were), copied otherwise.
#[inline(always)]
pub(super) fn into_children(node: NonNull<Node>) -> (Tree, Tree) {
    // SAFETY: the caller gives up a reference it owned, so the node is
    // alive. With count 1 nobody else can reach it: its children are moved
    // out with `ptr::read` exactly once and it goes back to the pool.
    unsafe {
        let n = node.as_ptr();
        if (*n).refs.get() == 1 {
            let children = (ptr::read(&(*n).front), ptr::read(&(*n).back));
            recycle(n);
            children
        } else {
            let children = ((*n).front.clone(), (*n).back.clone());
            (*n).refs.set((*n).refs.get() - 1);
            children
        }
    }
}

/// Frees a node whose count reached zero, and every node that dies with it.
/// Out of line: the caller's common case (a count that stays above zero)
/// stays small. Most often the node dies alone (its children have other
/// owners), which takes no loop: the nodes that die with it are freed by
/// [`free_pending`].
#[inline(never)]
fn free_dead(first: *mut Node) {
    // SAFETY: `first` had count zero: nobody else can reach it. Its children
    // are moved out with `ptr::read` exactly once, and it goes back to the
    // pool after.
    unsafe {
        let front = ptr::read(&(*first).front).into_raw();
        let back = ptr::read(&(*first).back).into_raw();
        let pending = release_child(front, ptr::null_mut());
        let pending = release_child(back, pending);
        recycle(first);
        if !pending.is_null() {
            free_pending(pending);
        }
    }
}

/// Frees the dead nodes on the list that starts at `pending` (linked
/// through their `size` words), and every node that dies with them.
#[inline(never)]
fn free_pending(mut pending: *mut Node) {
    // SAFETY: every node on the list had its count drop to zero: nobody
    // else can reach it. A dead node's children are moved out with
    // `ptr::read` exactly once, and its `size` word is free to serve as the
    // list link.
    unsafe {
        while !pending.is_null() {
            let dead = pending;
            pending = (*dead).size as usize as *mut Node;
            let front = ptr::read(&(*dead).front).into_raw();
            let back = ptr::read(&(*dead).back).into_raw();
            pending = release_child(front, pending);
            pending = release_child(back, pending);
            recycle(dead);
        }
    }
}

/// Removes the owner a dead node had of its child; a child that dies too is
/// put in front of `pending`, which is returned.
///
/// # Safety
/// `child` was owned by a dead node whose fields were moved out.
#[inline(always)]
unsafe fn release_child(child: Option<NonNull<Node>>, pending: *mut Node) -> *mut Node {
    let Some(c) = child else { return pending };
    // SAFETY: the dead parent owned a reference, so `c` is alive.
    unsafe {
        let refs = &(*c.as_ptr()).refs;
        let left = refs.get() - 1;
        if left == 0 {
            (*c.as_ptr()).size = pending as usize as u64;
            return c.as_ptr();
        }
        refs.set(left);
    }
    pending
}

/// Puts a dead node (fields already moved out) back in the pool.
#[inline(always)]
fn recycle(dead: *mut Node) {
    POOL.with(|pool| pool.give(dead));
}

//! A machine-private arena: a running memory whose trees are indices into
//! vectors of nodes (children, sizes, decoded instructions), built by
//! bumping their end, with no reference counts.
//!
//! [`Arena::load`] converts a memory's trees into the arena (each distinct
//! node once: a node with more than one owner is looked up by identity, so
//! sharing is kept and a tree of astronomic logical size costs its distinct
//! nodes), [`Arena::unload`] converts them back, giving every node that
//! came from the memory back as the very tree it was and building each
//! node the run made once. In between, the instructions run on indices:
//! consing pushes a node, reading a register copies an index, popping an
//! instruction reads one.
//!
//! **Order.** A node's children always have smaller indices than the node:
//! loading converts children first, a cons is pushed after its children
//! exist, and collection keeps the order. So a single sweep down the
//! indices marks everything a set of roots reaches, and a single sweep up
//! rebuilds it; nothing recurses or needs a stack.
//!
//! **Collection** ([`Arena::collect`]) keeps the nodes the registers reach
//! and slides them down in order, so that the arena holds the live nodes
//! only; decoded instructions move with their nodes.
//!
//! The first [`Arena::loaded`] indices after Nil are the nodes that came from
//! the memory (their trees are kept, in order, in `origins`); every node
//! above them was built by the run. [`Arena::built`] counts those; right
//! after a collection it is exactly the run's nodes the memory reaches.

use super::instruction::memoised_word;
use super::store::{Checked, Store, execute_instruction, execute_parts};
use super::{Instruction, MachineError, Register};
use crate::encoding::Decode;
use crate::tree::Tree;
use rustc_hash::FxHashMap;

/// A tree in the arena: 0 is Nil, any other value the node at that index.
pub(super) type Ref = u32;

/// The index of Nil (its node is a placeholder of size 0).
const NIL: Ref = 0;

/// A `Cons` node's children. Its size and its code are kept in arrays of
/// their own ([`Arena::sizes`], [`Arena::codes`]): the tick reads each of
/// the three with one instruction, an array of 8-byte elements needing no
/// multiplication of the index.
#[derive(Clone, Copy)]
struct Node {
    front: Ref,
    back: Ref,
}

/// Nil's node, and what the room for new nodes holds (with size 0 and
/// [`Code::NONE`]).
const PLACEHOLDER: Node = Node {
    front: NIL,
    back: NIL,
};

/// An instruction as a node keeps it, ready to run: each part a half-word
/// of its own, so that the tick reads it without unpacking.
#[derive(Clone, Copy)]
struct Code {
    /// 0 when no instruction is known (see [`code`]), else its tag (0
    /// `Nilify`, 1 `Construct`, 2 `Deconstruct`, 3 `CopyIfNil`) plus 1 for
    /// an instruction that writes no register 0, plus 5 for one that may
    /// (the tick reads the program back from register 0 after those only).
    tag: u32,
    /// The operands (below [`super::instruction::MAX_OPERAND`], as
    /// memoised), each naming a register.
    operands: [u32; 3],
}

impl Code {
    /// No instruction known.
    const NONE: Code = Code {
        tag: 0,
        operands: [0; 3],
    };
}

/// An instruction as a node keeps it, ready to run in a memory of
/// `registers` registers, from the memo word of its tree
/// ([`super::instruction::memoised`]): [`Code::NONE`] when none is known
/// (not decoded yet, not an instruction, or an operand that names no
/// register).
fn code(memo: u64, registers: usize) -> Code {
    match memoised_word(memo, registers) {
        Some((tag, operands)) => {
            // The operands it writes: Nilify's first, Construct's and
            // CopyIfNil's third, Deconstruct's second and third.
            let [a, b, c] = operands;
            let writes_program = match tag {
                0 => a == 0,
                2 => b == 0 || c == 0,
                _ => c == 0,
            };
            Code {
                tag: tag as u32 + if writes_program { 5 } else { 1 },
                operands: operands.map(|o| o as u32),
            }
        }
        _ => Code::NONE,
    }
}

/// A running memory in an arena.
pub(super) struct Arena {
    /// Nil's placeholder, then the nodes, children before parents, up to
    /// `top`; above it, room for new nodes.
    nodes: Vec<Node>,
    /// The report's `size` of each node's subtree, saturating like
    /// [`Tree::size`] (as long as `nodes`).
    sizes: Vec<u64>,
    /// Each node's subtree as an instruction ready to run ([`code`]; as
    /// long as `nodes`).
    codes: Vec<Code>,
    /// The number of nodes in use (with Nil's placeholder).
    top: usize,
    /// The trees that the nodes `1..=origins.len()` came from.
    origins: Vec<Tree>,
    /// The registers' trees; register 0 is the program from its next
    /// instruction.
    trees: Vec<Ref>,
    /// For each register, one more than its limit (0 for a negative limit):
    /// a tree fits when its size is below this.
    rooms: Vec<u64>,
    /// Scratch for collection (kept to reuse its memory; all 0 between
    /// collections).
    forward: Vec<Ref>,
}

impl Arena {
    /// Converts a memory into an arena; the memory is left as it is.
    pub(super) fn load(memory: &[Register]) -> Arena {
        let mut arena = Arena {
            nodes: vec![PLACEHOLDER],
            sizes: vec![0],
            codes: vec![Code::NONE],
            top: 1,
            origins: Vec::new(),
            trees: Vec::with_capacity(memory.len()),
            rooms: Vec::with_capacity(memory.len()),
            forward: Vec::new(),
        };
        let mut shared = FxHashMap::default();
        for register in memory {
            let tree = arena.convert(&register.contents, memory.len(), &mut shared);
            let room = u64::try_from(register.limit).map_or(0, |limit| limit + 1);
            arena.trees.push(tree);
            arena.rooms.push(room);
        }
        arena
    }

    /// Converts one tree of a memory of `registers` registers, children
    /// first, without recursion; `shared` maps the nodes with more than one
    /// owner already converted.
    fn convert<'t>(
        &mut self,
        root: &'t Tree,
        registers: usize,
        shared: &mut FxHashMap<usize, Ref>,
    ) -> Ref {
        // (tree, whether its children are converted), and the converted
        // trees waiting for their parent.
        let mut work: Vec<(&'t Tree, bool)> = vec![(root, false)];
        let mut done: Vec<Ref> = Vec::new();
        while let Some((tree, children_done)) = work.pop() {
            let Some((front, back)) = tree.split() else {
                done.push(NIL);
                continue;
            };
            if children_done {
                let back = done.pop().unwrap_or(NIL);
                let front = done.pop().unwrap_or(NIL);
                let index = self.push(
                    Node { front, back },
                    tree.size(),
                    tree.memo()
                        .map_or(Code::NONE, |memo| code(memo.get(), registers)),
                );
                self.origins.push(tree.clone());
                if tree.is_shared() {
                    shared.insert(tree.node_id(), index);
                }
                done.push(index);
            } else if let Some(&index) = shared.get(&tree.node_id()) {
                done.push(index);
            } else {
                work.push((tree, true));
                work.push((back, false));
                work.push((front, false));
            }
        }
        done.pop().unwrap_or(NIL)
    }

    /// Adds a node at the top of a full arena (no room above it).
    fn push(&mut self, node: Node, size: u64, code: Code) -> Ref {
        let index = self.nodes.len() as Ref;
        self.nodes.push(node);
        self.sizes.push(size);
        self.codes.push(code);
        self.top = self.nodes.len();
        index
    }

    /// Puts the registers' trees back into `memory` (the one it was loaded
    /// from), and returns the trees its nodes came from: whoever keeps them
    /// keeps those nodes alive.
    pub(super) fn unload(self, memory: &mut [Register]) -> Vec<Tree> {
        let mut built = FxHashMap::default();
        for (register, &root) in memory.iter_mut().zip(&self.trees) {
            register.contents = tree(&self.nodes, &self.origins, root, &mut built);
        }
        self.origins
    }

    /// The nodes in use (with Nil's placeholder).
    pub(super) fn size(&self) -> usize {
        self.top
    }

    /// The nodes the run built that are still in the arena: after
    /// [`Arena::collect`], exactly those the registers reach; at any time
    /// at least those.
    pub(super) fn built(&self) -> u64 {
        (self.top - 1 - self.origins.len()) as u64
    }

    /// Whether the program register is Nil.
    pub(super) fn halted(&self) -> bool {
        self.trees[0] == NIL
    }

    /// Makes room for the arena to grow to `size` nodes (below 2^32, so
    /// that a [`Ref`] can name them).
    pub(super) fn reserve(&mut self, size: usize) {
        if self.nodes.len() < size {
            let more = size - self.nodes.len();
            self.nodes.reserve_exact(more);
            self.nodes.resize(size, PLACEHOLDER);
            self.sizes.reserve_exact(more);
            self.sizes.resize(size, 0);
            self.codes.reserve_exact(more);
            self.codes.resize(size, Code::NONE);
        }
    }

    /// Keeps only the nodes the registers reach, in their order, and the
    /// trees of those that came from the memory, in time proportional to
    /// the live nodes when they are few (a run's garbage is not looked at):
    /// the live nodes are found from the registers with a stack, put in
    /// order by sorting them (or, when they are many, by a sweep over the
    /// arena), and slid down. No recursion.
    pub(super) fn collect(&mut self) {
        let n = self.top;
        // `forward` is all 0 between collections (and as long as the arena
        // has ever been). Here it marks the live nodes (1), then maps each
        // to its new index; children come first in `live`'s order, so they
        // are mapped before their parents read them. Nil stays 0.
        let mut forward = std::mem::take(&mut self.forward);
        if forward.len() < n {
            forward.resize(n, 0);
        }
        let mut live = Vec::new();
        let mut stack = self.trees.clone();
        while let Some(index) = stack.pop() {
            let index = index as usize;
            if index != NIL as usize && forward[index] == 0 {
                forward[index] = 1;
                live.push(index as Ref);
                let node = self.nodes[index];
                stack.push(node.front);
                stack.push(node.back);
            }
        }
        // Sorting `live` costs about its length times its logarithm;
        // sweeping, the arena's size.
        if live.len() < n / 32 {
            live.sort_unstable();
        } else {
            live.clear();
            live.extend((1..n as Ref).filter(|&index| forward[index as usize] != 0));
        }
        for (next, &index) in (1..).zip(&live) {
            let (from, to) = (index as usize, next as usize);
            let node = self.nodes[from];
            self.nodes[to] = Node {
                front: forward[node.front as usize],
                back: forward[node.back as usize],
            };
            self.sizes[to] = self.sizes[from];
            self.codes[to] = self.codes[from];
            forward[index as usize] = next;
        }
        self.top = live.len() + 1;
        let mut index = 0;
        self.origins.retain(|_| {
            index += 1;
            forward[index] != 0
        });
        for root in &mut self.trees {
            *root = forward[*root as usize];
        }
        for &index in &live {
            forward[index as usize] = 0;
        }
        self.forward = forward;
    }

    /// Up to `budget` ticks, building at most one node each: the arena must
    /// have room ([`Arena::reserve`]) for `budget` more nodes. Returns the
    /// ticks executed, and whether the program halted (a Nil program) or
    /// the error of the instruction that failed (not counted).
    pub(super) fn run(&mut self, budget: u64) -> (u64, Result<bool, MachineError>) {
        // What makes [`Running`]'s unchecked reads sound: room for a node
        // a tick, and a program register.
        assert!(
            (self.top as u64).saturating_add(budget) <= self.nodes.len() as u64
                && self.sizes.len() == self.nodes.len()
                && self.codes.len() == self.nodes.len()
                && !self.trees.is_empty(),
            "no room for {budget} ticks"
        );
        let mut running = Running {
            nodes: &mut self.nodes,
            sizes: &mut self.sizes,
            codes: &mut self.codes,
            program: self.trees[0],
            // Below 2^32, as the arena's room is (`Arena::reserve`).
            top: self.top as Ref,
            trees: &mut self.trees,
            rooms: &self.rooms,
            origins: &self.origins,
        };
        // Counted down: one instruction fewer a tick than counting up.
        let mut left = budget;
        let result = loop {
            if left == 0 {
                break Ok(false);
            }
            let program = running.program;
            if program == NIL {
                break Ok(true);
            }
            let Node {
                front: head,
                back: rest,
                ..
            } = *running.node(program);
            let code = *running.code(head);
            let outcome = if code.tag != 0 {
                // Register 0 holds the rest of the program before the
                // instruction runs.
                running.advance(rest);
                let operands = code.operands.map(|o| Checked(o as usize));
                if code.tag <= 4 {
                    execute_parts(&mut running, u64::from(code.tag - 1), operands)
                } else {
                    let outcome = execute_parts(&mut running, u64::from(code.tag - 5), operands);
                    running.program = running.get(0);
                    outcome
                }
            } else {
                let outcome;
                (running, outcome) = running.step_decoding();
                outcome
            };
            if let Err(e) = outcome {
                break Err(e);
            }
            left -= 1;
        };
        self.top = running.top as usize;
        (budget - left, result)
    }
}

/// The tree at `root`: a node that came from the memory is its tree (from
/// `origins`), and a node the run built is built as a tree once (`built`
/// maps those already built). Children first, without recursion.
fn tree(nodes: &[Node], origins: &[Tree], root: Ref, built: &mut FxHashMap<Ref, Tree>) -> Tree {
    let mut work: Vec<(Ref, bool)> = vec![(root, false)];
    let mut done: Vec<Tree> = Vec::new();
    while let Some((index, children_done)) = work.pop() {
        let node = nodes[index as usize];
        if children_done {
            let back = done.pop().unwrap_or(Tree::NIL);
            let front = done.pop().unwrap_or(Tree::NIL);
            let tree = Tree::cons(front, back);
            built.insert(index, tree.clone());
            done.push(tree);
        } else if index == NIL {
            done.push(Tree::NIL);
        } else if let Some(origin) = origins.get(index as usize - 1) {
            done.push(origin.clone());
        } else if let Some(tree) = built.get(&index) {
            done.push(tree.clone());
        } else {
            work.push((index, true));
            work.push((node.back, false));
            work.push((node.front, false));
        }
    }
    done.pop().unwrap_or(Tree::NIL)
}

/// An arena while a stretch of ticks runs: the top of the arena is a copy
/// held apart ([`Arena::top`] is written back when the stretch ends), so
/// that the loop keeps it in a register.
///
/// It reads nodes and registers without bounds checks, which the tick's
/// instruction count measured worth it (see `docs/performance.md`, "Issue
/// 20, fifth round"), on this invariant:
/// - every tree in a register, and every child of a node below `top`, is
///   below `top` (loading and consing put children before their parents,
///   collection keeps the order, and a node is only made from trees of
///   the arena);
/// - `top` plus the ticks left in the stretch is at most `nodes.len()`,
///   which is `sizes.len()` and `codes.len()`
///   (checked when the stretch begins: a tick builds at most one node);
/// - a register index passed to the [`Store`] methods is below
///   `trees.len()` (= `rooms.len()`), which never changes ([`Store`]'s
///   contract: the operands of a [`code`] are checked against it when it
///   is made, any other operand when it is used), and `trees` is not
///   empty.
struct Running<'a> {
    /// Register 0's tree, which is also in `trees[0]` between ticks: the
    /// loop's copy in a register, so that the next tick's fetch does not
    /// wait for the last one's store to come back from memory. Writes go
    /// to `trees` only; the loop reads register 0 back after an
    /// instruction that may have written it (its [`Code::tag`] says so).
    program: Ref,
    nodes: &'a mut [Node],
    sizes: &'a mut [u64],
    codes: &'a mut [Code],
    /// A [`Ref`], so that the tick reads a new node's size back from the
    /// register that wrote it, not from memory.
    top: Ref,
    trees: &'a mut [Ref],
    rooms: &'a [u64],
    origins: &'a [Tree],
}

impl Running<'_> {
    /// The node of a tree of the arena (not Nil: Nil's placeholder is read
    /// only for its size).
    #[inline(always)]
    fn node(&self, tree: Ref) -> &Node {
        debug_assert!(tree < self.top);
        // SAFETY: a tree of the arena is below `top` (the invariant), and
        // `top <= nodes.len()`.
        unsafe { self.nodes.get_unchecked(tree as usize) }
    }

    /// The size of a tree of the arena (Nil's is 0).
    #[inline(always)]
    fn size(&self, tree: Ref) -> u64 {
        debug_assert!(tree < self.top);
        // SAFETY: a tree of the arena is below `top` (the invariant), and
        // `top <= sizes.len()`.
        *unsafe { self.sizes.get_unchecked(tree as usize) }
    }

    /// The code of a tree of the arena.
    #[inline(always)]
    fn code(&self, tree: Ref) -> &Code {
        debug_assert!(tree < self.top);
        // SAFETY: a tree of the arena is below `top` (the invariant), and
        // `top <= codes.len()`.
        unsafe { self.codes.get_unchecked(tree as usize) }
    }

    /// The tree of register `slot`, below `trees.len()` (the invariant).
    #[inline(always)]
    fn tree(&mut self, slot: usize) -> &mut Ref {
        debug_assert!(slot < self.trees.len());
        // SAFETY: `slot < trees.len()` (the invariant).
        unsafe { self.trees.get_unchecked_mut(slot) }
    }

    /// Puts the rest of the program in register 0 before the instruction
    /// runs.
    #[inline(always)]
    fn advance(&mut self, rest: Ref) {
        self.program = rest;
        *self.tree(0) = rest;
    }

    /// A tick of an instruction not memoised (or with an operand that names
    /// no register), the program not Nil: decoded from its tree, which
    /// memoises it. Takes and gives back the running arena whole (instead
    /// of a reference to it), so that the loop in [`Arena::run`] keeps it
    /// in registers.
    #[cold]
    #[inline(never)]
    fn step_decoding(mut self) -> (Self, Result<(), MachineError>) {
        let outcome = self.decode_and_execute();
        (self, outcome)
    }

    /// [`Running::step_decoding`]'s work.
    fn decode_and_execute(&mut self) -> Result<(), MachineError> {
        let program = self.program;
        let Node {
            front: head,
            back: rest,
            ..
        } = self.nodes[program as usize];
        let mut built = FxHashMap::default();
        let instruction_tree = tree(self.nodes, self.origins, head, &mut built);
        let decoded = Instruction::decode(&instruction_tree);
        if let Some(memo) = instruction_tree.memo() {
            self.codes[head as usize] = code(memo.get(), self.trees.len());
        }
        let Some(instruction) = decoded else {
            let program = tree(self.nodes, self.origins, program, &mut built);
            return Err(MachineError::BadInstruction(program));
        };
        // Register 0 holds the rest of the program before the instruction
        // runs.
        self.advance(rest);
        let outcome = execute_instruction(self, instruction);
        self.program = self.get(0);
        outcome
    }
}

impl Store for Running<'_> {
    type Tree = Ref;

    #[inline(always)]
    fn len(&self) -> usize {
        self.trees.len()
    }

    #[inline(always)]
    fn get(&self, slot: usize) -> Ref {
        debug_assert!(slot < self.trees.len());
        // SAFETY: `slot < trees.len()` (the invariant of [`Running`]).
        *unsafe { self.trees.get_unchecked(slot) }
    }

    #[inline(always)]
    fn is_nil(&self, slot: usize) -> bool {
        self.get(slot) == NIL
    }

    #[inline(always)]
    fn split(&self, slot: usize) -> Option<(Ref, Ref)> {
        let tree = self.get(slot);
        if tree == NIL {
            return None;
        }
        let node = self.node(tree);
        Some((node.front, node.back))
    }

    #[inline(always)]
    fn nil(&self) -> Ref {
        NIL
    }

    /// Takes the next node of the room above the top.
    #[inline(always)]
    fn cons(&mut self, front: Ref, back: Ref) -> Ref {
        let size = self
            .size(front)
            .saturating_add(self.size(back))
            .saturating_add(1);
        let index = self.top;
        debug_assert!((index as usize) < self.nodes.len());
        // SAFETY: the stretch has room for a node a tick below
        // `nodes.len()`, which is `sizes.len()` and `codes.len()` (the
        // invariant of [`Running`]), and a tick conses at most once.
        unsafe {
            *self.nodes.get_unchecked_mut(index as usize) = Node { front, back };
            *self.sizes.get_unchecked_mut(index as usize) = size;
            *self.codes.get_unchecked_mut(index as usize) = Code::NONE;
        }
        self.top += 1;
        index
    }

    #[inline(always)]
    fn write(&mut self, slot: usize, tree: Ref) -> bool {
        debug_assert!(slot < self.rooms.len());
        // SAFETY: `slot < rooms.len()` (the invariant of [`Running`]).
        let fits = self.size(tree) < *unsafe { self.rooms.get_unchecked(slot) };
        if fits {
            *self.tree(slot) = tree;
        }
        fits
    }
}

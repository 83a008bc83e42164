//! A machine-private arena: a running memory whose trees are indices into
//! one vector of nodes, built by bumping its end, with no reference counts.
//!
//! [`Arena::load`] converts a memory's trees into the arena, and
//! [`Arena::unload`] converts them back. In between, the instructions run
//! on indices: consing pushes a node, reading a register copies an index,
//! popping an instruction reads one.
//!
//! **Loading.** A register's tree of at most [`COPY_LIMIT`] conses is
//! copied node by node in one preorder walk, without looking any node up
//! (a subtree shared inside the memory is copied once per owner, so the
//! copy takes at most the tree's size in nodes); a larger tree is converted
//! by identity, each distinct node once, so that a tree of astronomic
//! logical size costs its distinct nodes. Each register's nodes form a
//! block ([`Sources`]) that says which tree each node came from.
//!
//! **Unloading** gives every register the run did not change back as it
//! is (nothing is built), gives a node that came from the memory back as
//! the very tree it was, and builds each node the run made once.
//!
//! **Order.** A node's children always have smaller indices than the node:
//! a copied tree is laid out in reverse preorder, the converted one
//! children first, a cons is pushed after its children exist, and
//! collection keeps the order. So a single sweep down the indices marks
//! everything a set of roots reaches, and a single sweep up rebuilds it;
//! nothing recurses or needs a stack.
//!
//! **Collection** ([`Arena::collect`]) keeps the nodes the run built that
//! the registers reach and slides them down in order; the memory's nodes
//! stay where they are (their trees are alive anyway, held by the memory
//! or by the [`Sources`]). Decoded instructions move with their nodes.
//!
//! The first [`Arena::loaded`] indices after Nil are the nodes that came from
//! the memory; every node above them was built by the run. [`Arena::built`]
//! counts those; right after a collection it is exactly the run's nodes the
//! memory reaches.
//!
//! **Buffers.** The vectors of the arena are kept per thread from one run
//! to the next, so that a run allocates nothing and fills no room it does
//! not use (the nodes above the top are garbage until a cons writes them).

use super::instruction::memoised_word;
use super::store::{Checked, Store, execute_instruction, execute_parts};
use super::{Instruction, MachineError, Register};
use crate::encoding::Decode;
use crate::tree::Tree;
use rustc_hash::FxHashMap;
use std::cell::Cell;

/// A tree in the arena: 0 is Nil, any other value the node at that index.
pub(super) type Ref = u32;

/// The index of Nil (its node is a placeholder of size 0).
const NIL: Ref = 0;

/// The largest tree (in conses) that loading copies node by node; a larger
/// one is converted by identity.
pub(super) const COPY_LIMIT: u64 = 1 << 12;

/// A `Cons` node.
#[derive(Clone, Copy)]
struct Node {
    front: Ref,
    back: Ref,
    /// The report's `size` of the subtree, saturating like [`Tree::size`].
    size: u64,
    /// The subtree as an instruction ready to run ([`code`]).
    code: u64,
}

/// Nil's node, and what the room for new nodes holds.
const PLACEHOLDER: Node = Node {
    front: NIL,
    back: NIL,
    size: 0,
    code: 0,
};

/// The node of a tree that came from a memory of `registers` registers,
/// whose children are at `front` and `back`.
#[inline(always)]
fn loaded_node(tree: &Tree, front: Ref, back: Ref, registers: usize) -> Node {
    Node {
        front,
        back,
        size: tree.size(),
        code: tree.memo().map_or(0, |memo| code(memo.get(), registers)),
    }
}

/// An instruction as a node keeps it, ready to run in a memory of
/// `registers` registers, from the memo word of its tree
/// ([`super::instruction::memoised`]): 0 when none is known (not decoded
/// yet, not an instruction, or an operand that names no register), else
/// bit 0 set, the tag in bits 1 and 2, and the three operands, 20 bits
/// each, from bit 3.
fn code(memo: u64, registers: usize) -> u64 {
    match memoised_word(memo, registers) {
        Some((tag, operands)) => {
            let [a, b, c] = operands.map(|o| o as u64);
            1 | tag << 1 | a << 3 | b << 23 | c << 43
        }
        _ => 0,
    }
}

/// A register: its tree and the sizes that fit it.
#[derive(Clone, Copy)]
struct Slot {
    tree: Ref,
    /// One more than the register's limit (0 for a negative limit): a tree
    /// fits when its size is below this.
    room: u64,
}

/// The nodes of one register's tree as loaded: `start..end`.
struct Block {
    start: Ref,
    end: Ref,
    kind: Kind,
}

/// How a [`Block`] was loaded.
enum Kind {
    /// Copied from this tree: the node at preorder position p of the tree
    /// (0 its root) is at `end - 1 - p`.
    Copy(Tree),
    /// Converted by identity: the node at `start + k` came from the tree
    /// at `offset + k` of [`Sources::origins`].
    Shared(usize),
}

/// Where the nodes that came from the memory came from. Whoever keeps it
/// keeps those nodes' trees alive.
#[derive(Default)]
pub(super) struct Sources {
    /// The trees of the cache's nodes (the first nodes), by index.
    kept: Vec<Tree>,
    /// The blocks of the nodes above the cache's, in the order of their
    /// indices.
    blocks: Vec<Block>,
    /// The trees of the nodes converted by identity.
    origins: Vec<Tree>,
    /// The number of nodes that came from the memory: `1..=loaded`.
    loaded: usize,
}

impl Sources {
    /// The tree the memory's node `index` (in `1..=loaded`) came from,
    /// walking down a copied tree at most `steps` more steps; `None` when
    /// the walk would take more.
    fn origin(&self, index: Ref, steps: &mut u64) -> Option<Tree> {
        if let Some(tree) = self.kept.get(index as usize) {
            return Some(tree.clone());
        }
        let block = self
            .blocks
            .get(self.blocks.partition_point(|b| b.end <= index))?;
        match &block.kind {
            Kind::Shared(offset) => self
                .origins
                .get(offset + (index - block.start) as usize)
                .cloned(),
            Kind::Copy(root) => {
                let mut position = u64::from(block.end - 1 - index);
                let mut tree = root;
                while position > 0 {
                    *steps = steps.checked_sub(1)?;
                    let (front, back) = tree.split()?;
                    if position <= front.size() {
                        position -= 1;
                        tree = front;
                    } else {
                        position -= 1 + front.size();
                        tree = back;
                    }
                }
                Some(tree.clone())
            }
        }
    }
}

/// The arena's vectors between runs (empty, their memory kept), and the
/// cache of shared trees.
struct Spare {
    nodes: Vec<Node>,
    slots: Vec<Slot>,
    roots: Vec<Ref>,
    forward: Vec<Ref>,
    scratch: Scratch,
    cache: Cache,
}

/// The trees with more than one owner (a program and its code blocks,
/// shared between registers and robots, the rest of a program from an
/// instruction on) that earlier runs of this thread copied, kept in the
/// arena's first nodes from one run to the next, so that a memory that
/// holds them again finds them there instead of copying them. The cache
/// holds each tree (its blocks do), so its address names it while it is
/// cached. It is emptied when it has grown past [`CACHE_LIMIT`] nodes, or
/// for a memory of another number of registers (the nodes' [`code`]
/// depends on it).
#[derive(Default)]
struct Cache {
    /// The cached trees' roots, by address.
    roots: FxHashMap<usize, Ref>,
    /// The tree of each of the cache's nodes, by index (Nil's first): the
    /// cache's nodes are those below its length.
    kept: Vec<Tree>,
    /// The number of registers of the memories the nodes were copied for.
    registers: usize,
}

/// The most nodes the [`Cache`] holds (but for the trees of the memory
/// that passes it).
const CACHE_LIMIT: usize = 1 << 16;

impl Cache {
    /// Ready for a memory of `registers` registers: emptied if it holds
    /// trees for another number of registers or has grown too large.
    fn prepare(&mut self, registers: usize) {
        if self.registers != registers || self.kept.len() > CACHE_LIMIT || self.kept.is_empty() {
            self.roots.clear();
            self.kept.clear();
            self.kept.push(Tree::NIL);
            self.registers = registers;
        }
    }
}

thread_local! {
    /// This thread's [`Spare`], while no arena is loaded.
    static SPARE: Cell<Option<Spare>> = const { Cell::new(None) };
}

/// A running memory in an arena.
pub(super) struct Arena {
    /// Nil's placeholder, then the nodes, children before parents, up to
    /// `top`; above it, room for new nodes (garbage until written).
    nodes: Vec<Node>,
    /// The number of nodes in use (with Nil's placeholder).
    top: usize,
    /// Where the nodes `1..=sources.loaded` came from.
    sources: Sources,
    /// The registers; register 0 is the program from its next instruction.
    slots: Vec<Slot>,
    /// Each register's tree as loaded.
    roots: Vec<Ref>,
    /// Scratch for collection (kept to reuse its memory).
    forward: Vec<Ref>,
    /// Scratch for unloading.
    scratch: Scratch,
    /// The cache (its blocks are the first of `sources.blocks`).
    cache: Cache,
}

impl Arena {
    /// Converts a memory into an arena; the memory is left as it is. Its
    /// trees with more than one owner small enough to copy are found in
    /// the cache or copied into it; the others are copied or converted
    /// above it, for this run only.
    pub(super) fn load(memory: &[Register]) -> Arena {
        let mut spare = SPARE.take().unwrap_or_else(|| Spare {
            nodes: vec![PLACEHOLDER],
            slots: Vec::new(),
            roots: Vec::new(),
            forward: Vec::new(),
            scratch: Scratch::default(),
            cache: Cache::default(),
        });
        spare.cache.prepare(memory.len());
        let mut arena = Arena {
            nodes: spare.nodes,
            top: spare.cache.kept.len(),
            sources: Sources {
                kept: std::mem::take(&mut spare.cache.kept),
                blocks: Vec::with_capacity(memory.len()),
                ..Sources::default()
            },
            slots: spare.slots,
            roots: spare.roots,
            forward: spare.forward,
            scratch: spare.scratch,
            cache: spare.cache,
        };
        let mut pending = Vec::new();
        // First the cached trees, so that the cache's nodes stay below the
        // run's.
        for register in memory {
            let room = u64::try_from(register.limit).map_or(0, |limit| limit + 1);
            let contents = &register.contents;
            let tree = if contents.is_nil() {
                NIL
            } else if let Some(&tree) = arena.cache.roots.get(&contents.node_id()) {
                tree
            } else if contents.is_shared() && contents.size() <= COPY_LIMIT {
                let tree = arena.copy::<true>(contents, memory.len(), &mut pending);
                arena.cache.roots.insert(contents.node_id(), tree);
                tree
            } else {
                // Loaded below, for this run only.
                NIL
            };
            arena.slots.push(Slot { tree, room });
        }
        let mut shared = FxHashMap::default();
        for (index, register) in memory.iter().enumerate() {
            let contents = &register.contents;
            if arena.slots[index].tree != NIL || contents.is_nil() {
                continue;
            }
            arena.slots[index].tree = if contents.size() <= COPY_LIMIT {
                arena.copy_block(contents, memory.len(), &mut pending)
            } else {
                let start = arena.top as Ref;
                let offset = arena.sources.origins.len();
                let tree = arena.convert(contents, memory.len(), &mut shared);
                let end = arena.top as Ref;
                if end > start {
                    let kind = Kind::Shared(offset);
                    arena.sources.blocks.push(Block { start, end, kind });
                }
                tree
            };
        }
        arena.roots.extend(arena.slots.iter().map(|slot| slot.tree));
        arena.sources.loaded = arena.top - 1;
        arena
    }

    /// [`Arena::copy`] of a register's tree, with its block.
    fn copy_block<'t>(
        &mut self,
        tree: &'t Tree,
        registers: usize,
        pending: &mut Vec<(&'t Tree, usize)>,
    ) -> Ref {
        let start = self.top as Ref;
        let root = self.copy::<false>(tree, registers, pending);
        let end = self.top as Ref;
        let kind = Kind::Copy(tree.clone());
        self.sources.blocks.push(Block { start, end, kind });
        root
    }

    /// Copies a tree of at most [`COPY_LIMIT`] conses from a memory of
    /// `registers` registers above the top, in reverse preorder (its root
    /// last), without recursion: a node's children are at known places,
    /// its front right below it and its back below the front's subtree.
    /// `pending` is scratch (the backs still to copy, with their places).
    /// With `KEEP`, the copy goes into the cache: each node's tree is kept.
    fn copy<'t, const KEEP: bool>(
        &mut self,
        root: &'t Tree,
        registers: usize,
        pending: &mut Vec<(&'t Tree, usize)>,
    ) -> Ref {
        let end = self.top + root.size() as usize;
        if end == self.top {
            return NIL;
        }
        if self.nodes.len() < end {
            self.nodes.resize(end, PLACEHOLDER);
        }
        if KEEP {
            self.sources.kept.resize(end, Tree::NIL);
        }
        let mut tree = root;
        let mut at = end - 1;
        loop {
            if let Some((front, back)) = tree.split() {
                let front_size = front.size() as usize;
                let front_at = if front_size == 0 {
                    NIL
                } else {
                    (at - 1) as Ref
                };
                let back_at = if back.is_nil() {
                    NIL
                } else {
                    (at - 1 - front_size) as Ref
                };
                self.nodes[at] = loaded_node(tree, front_at, back_at, registers);
                if KEEP {
                    self.sources.kept[at] = tree.clone();
                }
                if back_at != NIL {
                    pending.push((back, back_at as usize));
                }
                if front_at != NIL {
                    tree = front;
                    at -= 1;
                    continue;
                }
            }
            match pending.pop() {
                Some((next, next_at)) => (tree, at) = (next, next_at),
                None => break,
            }
        }
        self.top = end;
        (end - 1) as Ref
    }

    /// Puts a node above the top.
    fn push(&mut self, node: Node) -> Ref {
        if self.top < self.nodes.len() {
            self.nodes[self.top] = node;
        } else {
            self.nodes.push(node);
        }
        self.top += 1;
        (self.top - 1) as Ref
    }

    /// Converts one tree of a memory of `registers` registers by identity,
    /// children first, without recursion; `shared` maps the nodes with more
    /// than one owner already converted. Each node converted gets its tree
    /// in [`Sources::origins`].
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
                let index = self.push(loaded_node(tree, front, back, registers));
                self.sources.origins.push(tree.clone());
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

    /// Puts the trees of the registers the run changed back into `memory`
    /// (the one it was loaded from, as it was), and returns where the
    /// memory's nodes came from: whoever keeps that keeps those trees alive.
    /// The arena's vectors go back to the thread for the next run.
    pub(super) fn unload(mut self, memory: &mut [Register]) -> Sources {
        let scratch = std::mem::take(&mut self.scratch);
        let mut unloading =
            Unloading::new(&self.nodes, &self.sources, scratch, self.built() as usize);
        for ((register, slot), &root) in memory.iter_mut().zip(&self.slots).zip(&self.roots) {
            if slot.tree != root {
                register.contents = unloading.tree(slot.tree);
            }
        }
        let scratch = unloading.into_scratch();
        self.slots.clear();
        self.roots.clear();
        self.cache.kept = std::mem::take(&mut self.sources.kept);
        SPARE.set(Some(Spare {
            nodes: self.nodes,
            slots: self.slots,
            roots: self.roots,
            forward: self.forward,
            scratch,
            cache: self.cache,
        }));
        self.sources
    }

    /// The nodes in use (with Nil's placeholder).
    pub(super) fn size(&self) -> usize {
        self.top
    }

    /// The nodes the run built that are still in the arena: after
    /// [`Arena::collect`], exactly those the registers reach; at any time
    /// at least those.
    pub(super) fn built(&self) -> u64 {
        (self.top - 1 - self.sources.loaded) as u64
    }

    /// Whether the program register is Nil.
    pub(super) fn halted(&self) -> bool {
        self.slots[0].tree == NIL
    }

    /// Makes room for the arena to grow to `size` nodes (below 2^32, so
    /// that a [`Ref`] can name them); the room kept from earlier runs is
    /// not filled again, and the vector grows by doubling, so that a run
    /// that needs a little more room than the last does not copy it.
    pub(super) fn reserve(&mut self, size: usize) {
        if self.nodes.len() < size {
            self.nodes.reserve(size - self.nodes.len());
            self.nodes.resize(size, PLACEHOLDER);
        }
    }

    /// Keeps only the nodes the run built that the registers reach, in
    /// their order (the memory's nodes stay where they are): two sweeps
    /// over the run's nodes, no recursion.
    pub(super) fn collect(&mut self) {
        let n = self.top;
        let loaded = self.sources.loaded;
        // First `forward` marks the live nodes (1), then it maps each live
        // node to its new index; children come first, so they are mapped
        // before their parents read them. The memory's nodes map to
        // themselves.
        let mut forward = std::mem::take(&mut self.forward);
        forward.clear();
        forward.resize(n, 0);
        for slot in &self.slots {
            forward[slot.tree as usize] = 1;
        }
        for index in (loaded + 1..n).rev() {
            if forward[index] != 0 {
                let node = self.nodes[index];
                forward[node.front as usize] = 1;
                forward[node.back as usize] = 1;
            }
        }
        for (index, to) in forward.iter_mut().enumerate().take(loaded + 1) {
            *to = index as Ref;
        }
        let mut next = loaded + 1;
        for index in loaded + 1..n {
            if forward[index] != 0 {
                let node = self.nodes[index];
                self.nodes[next] = Node {
                    front: forward[node.front as usize],
                    back: forward[node.back as usize],
                    ..node
                };
                forward[index] = next as Ref;
                next += 1;
            }
        }
        self.top = next;
        for slot in &mut self.slots {
            slot.tree = forward[slot.tree as usize];
        }
        self.forward = forward;
    }

    /// Up to `budget` ticks, building at most one node each: the arena must
    /// have room ([`Arena::reserve`]) for `budget` more nodes. Returns the
    /// ticks executed, and whether the program halted (a Nil program) or
    /// the error of the instruction that failed (not counted).
    pub(super) fn run(&mut self, budget: u64) -> (u64, Result<bool, MachineError>) {
        let mut running = Running {
            program: self.slots[0].tree,
            nodes: &mut self.nodes,
            top: self.top,
            slots: &mut self.slots,
            sources: &self.sources,
        };
        let mut ticks = 0;
        let result = loop {
            if ticks >= budget {
                break Ok(false);
            }
            let outcome = match running.step() {
                Some(outcome) => outcome,
                None => {
                    let (back, outcome) = running.step_decoding();
                    running = back;
                    outcome
                }
            };
            match outcome {
                Ok(true) => ticks += 1,
                Ok(false) => break Ok(true),
                Err(e) => break Err(e),
            }
        };
        let (program, top) = (running.program, running.top);
        self.slots[0].tree = program;
        self.top = top;
        (ticks, result)
    }
}

/// Trees made of an arena's nodes: a node that came from the memory is
/// its tree ([`Sources::origin`]), and a node the run built is built as a
/// tree once.
struct Unloading<'a> {
    nodes: &'a [Node],
    sources: &'a Sources,
    /// Its vectors.
    scratch: Scratch,
    /// The trees of the other nodes built so far: the run's nodes above
    /// those of `built`, and the memory's nodes built as new trees when
    /// walking down to their own would take too long.
    rebuilt: FxHashMap<Ref, Tree>,
    /// The steps left for walking down copied trees: as many as the memory
    /// has nodes, so that unloading takes time linear in the arena.
    steps: u64,
}

/// The vectors of an [`Unloading`], kept from one run to the next (empty
/// between them, `dense` all 0).
#[derive(Default)]
struct Scratch {
    /// For the run's first nodes, by index above [`Sources::loaded`]: 0,
    /// or one more than the place of the node's tree in `made`.
    dense: Vec<Ref>,
    /// The trees of the nodes of `dense` built so far.
    made: Vec<Tree>,
    /// (node, whether its children are built), and the trees waiting for
    /// their parent.
    work: Vec<(Ref, bool)>,
    done: Vec<Tree>,
}

impl<'a> Unloading<'a> {
    /// Ready to build trees of the nodes, finding those of the run's
    /// first `dense` nodes through [`Scratch::dense`], the rest in a map.
    fn new(
        nodes: &'a [Node],
        sources: &'a Sources,
        mut scratch: Scratch,
        dense: usize,
    ) -> Unloading<'a> {
        scratch.dense.resize(dense, 0);
        Unloading {
            nodes,
            sources,
            scratch,
            rebuilt: FxHashMap::default(),
            steps: sources.loaded as u64,
        }
    }

    /// The vectors, emptied.
    fn into_scratch(self) -> Scratch {
        let mut scratch = self.scratch;
        scratch.dense.clear();
        scratch.made.clear();
        scratch
    }

    /// The tree of node `index`, if it is known without building it.
    fn known(&mut self, index: Ref) -> Option<Tree> {
        if index == NIL {
            return Some(Tree::NIL);
        }
        match (index as usize).checked_sub(self.sources.loaded + 1) {
            Some(k) if k < self.scratch.dense.len() => match self.scratch.dense[k] {
                0 => None,
                place => self.scratch.made.get(place as usize - 1).cloned(),
            },
            Some(_) => self.rebuilt.get(&index).cloned(),
            None => match self.rebuilt.get(&index) {
                Some(tree) => Some(tree.clone()),
                None => self.sources.origin(index, &mut self.steps),
            },
        }
    }

    /// Notes the tree built for node `index`.
    fn remember(&mut self, index: Ref, tree: &Tree) {
        match (index as usize).checked_sub(self.sources.loaded + 1) {
            Some(k) if k < self.scratch.dense.len() => {
                self.scratch.made.push(tree.clone());
                self.scratch.dense[k] = self.scratch.made.len() as Ref;
            }
            _ => {
                self.rebuilt.insert(index, tree.clone());
            }
        }
    }

    /// The tree at `root`, children first, without recursion.
    fn tree(&mut self, root: Ref) -> Tree {
        self.scratch.work.push((root, false));
        while let Some((index, children_done)) = self.scratch.work.pop() {
            if children_done {
                let back = self.scratch.done.pop().unwrap_or(Tree::NIL);
                let front = self.scratch.done.pop().unwrap_or(Tree::NIL);
                let tree = Tree::cons(front, back);
                self.remember(index, &tree);
                self.scratch.done.push(tree);
            } else if let Some(tree) = self.known(index) {
                self.scratch.done.push(tree);
            } else {
                let node = self.nodes[index as usize];
                self.scratch.work.push((index, true));
                self.scratch.work.push((node.back, false));
                self.scratch.work.push((node.front, false));
            }
        }
        self.scratch.done.pop().unwrap_or(Tree::NIL)
    }
}

/// An arena while a stretch of ticks runs: the program register and the
/// top of the arena are copies held apart (`slots[0]` and [`Arena::top`]
/// are written back when the stretch ends), so that the loop keeps them
/// in registers.
struct Running<'a> {
    program: Ref,
    nodes: &'a mut [Node],
    top: usize,
    slots: &'a mut [Slot],
    sources: &'a Sources,
}

impl Running<'_> {
    /// One tick: `Ok(false)` when the program is Nil (nothing ran). An
    /// instruction whose [`code`] is known runs from it; for any other,
    /// `None`: [`Running::step_decoding`] runs it.
    #[inline(always)]
    fn step(&mut self) -> Option<Result<bool, MachineError>> {
        if self.program == NIL {
            return Some(Ok(false));
        }
        let Node {
            front: head,
            back: rest,
            ..
        } = self.nodes[self.program as usize];
        let code = self.nodes[head as usize].code;
        if code != 0 {
            let operand = |k: u32| Checked(((code >> (3 + k * 20)) & 0xf_ffff) as usize);
            self.program = rest;
            return Some(
                execute_parts(self, (code >> 1) & 3, [operand(0), operand(1), operand(2)])
                    .map(|()| true),
            );
        }
        None
    }

    /// A tick of an instruction not memoised (or with an operand that names
    /// no register): decoded from its tree, which memoises it. Takes and
    /// gives back the running arena whole (instead of a reference to it),
    /// so that the loop around [`Running::step`] keeps it in registers.
    #[cold]
    #[inline(never)]
    fn step_decoding(mut self) -> (Self, Result<bool, MachineError>) {
        let outcome = self.decode_and_execute();
        (self, outcome)
    }

    /// [`Running::step_decoding`]'s work.
    fn decode_and_execute(&mut self) -> Result<bool, MachineError> {
        let Node {
            front: head,
            back: rest,
            ..
        } = self.nodes[self.program as usize];
        let instruction_tree =
            Unloading::new(self.nodes, self.sources, Scratch::default(), 0).tree(head);
        let decoded = Instruction::decode(&instruction_tree);
        if let Some(memo) = instruction_tree.memo() {
            self.nodes[head as usize].code = code(memo.get(), self.slots.len());
        }
        let Some(instruction) = decoded else {
            let program =
                Unloading::new(self.nodes, self.sources, Scratch::default(), 0).tree(self.program);
            return Err(MachineError::BadInstruction(program));
        };
        // Register 0 holds the rest of the program before the instruction
        // runs.
        self.program = rest;
        execute_instruction(self, instruction).map(|()| true)
    }
}

impl Store for Running<'_> {
    type Tree = Ref;

    #[inline(always)]
    fn len(&self) -> usize {
        self.slots.len()
    }

    #[inline(always)]
    fn get(&self, slot: usize) -> Ref {
        if slot == 0 {
            self.program
        } else {
            self.slots[slot].tree
        }
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
        let node = self.nodes[tree as usize];
        Some((node.front, node.back))
    }

    #[inline(always)]
    fn nil(&self) -> Ref {
        NIL
    }

    /// Takes the next node of the room above the top.
    #[inline(always)]
    fn cons(&mut self, front: Ref, back: Ref) -> Ref {
        let size = self.nodes[front as usize]
            .size
            .saturating_add(self.nodes[back as usize].size)
            .saturating_add(1);
        let index = self.top;
        self.nodes[index] = Node {
            front,
            back,
            size,
            code: 0,
        };
        self.top += 1;
        index as Ref
    }

    #[inline(always)]
    fn write(&mut self, slot: usize, tree: Ref) -> bool {
        let fits = self.nodes[tree as usize].size < self.slots[slot].room;
        if fits {
            if slot == 0 {
                self.program = tree;
            } else {
                self.slots[slot].tree = tree;
            }
        }
        fits
    }
}

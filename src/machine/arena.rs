//! A machine-private arena: a running memory whose trees are indices into
//! vectors of nodes (children, sizes, decoded instructions), built by
//! bumping their end, with no reference counts.
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
//! **Lazy registers.** A register that no instruction of this thread has
//! read yet ([`Arena::lazy`]) is not loaded: it holds [`LAZY`] until an
//! instruction reads it, and then the run starts again from its first
//! tick with that register loaded ([`Arena::restart`]; nothing of the run
//! is visible until it unloads, so starting again changes nothing but the
//! time). An instruction that reads such a register never has a code
//! ready to run ([`code`]), so the tick's fast path never meets one; the
//! decoding path checks. A world's robots never read their input register,
//! which the world writes anew every step: it is never copied.
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
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::Cell;

/// A tree in the arena: 0 is Nil, any other value the node at that index.
pub(super) type Ref = u32;

/// The index of Nil (its node is a placeholder of size 0).
const NIL: Ref = 0;

/// What a register not loaded yet holds ([`Arena::lazy`]): a placeholder
/// node like Nil's, so that reading it by mistake could give a wrong tree
/// but never read outside the arena. No instruction reads it (the codes
/// and the decoding path see to that); unloading finds it unchanged.
const LAZY: Ref = 1;

/// The registers [`Arena::lazy`] starts with: all but the program's.
const ALL_LAZY: u64 = !1;

/// Register `slot` as a set of [`Arena::lazy`] (empty from 64 on).
fn bit(slot: usize) -> u64 {
    if slot < 64 { 1 << slot } else { 0 }
}

/// The registers an instruction given by its tag (0 `Nilify`, 1
/// `Construct`, 2 `Deconstruct`, 3 `CopyIfNil`) and operands reads, as a
/// set of [`Arena::lazy`] (registers from 64 on are never lazy, so they
/// are left out). `CopyIfNil` counts its source, which it reads only when
/// the test is Nil.
fn reads(tag: u64, [a, b, _]: [usize; 3]) -> u64 {
    match tag {
        0 => 0,
        2 => bit(a),
        _ => bit(a) | bit(b),
    }
}

/// The largest tree (in conses) that loading copies node by node; a larger
/// one is converted by identity.
pub(super) const COPY_LIMIT: u64 = 1 << 12;

/// A `Cons` node's children. Its size and its codes are kept in arrays of
/// their own ([`Arena::sizes`], [`Arena::codes`]): the tick reads each
/// with one instruction, an array of 8-byte elements needing no
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
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Code {
    /// 0 when no instruction is known (see [`code`]), else its tag (0
    /// `Nilify`, 1 `Construct`, 2 `Deconstruct`, 3 `CopyIfNil`) plus 1 for
    /// an instruction that writes no register 0, plus 5 for one that may
    /// (only those move the tick's copy of the program, [`Jumping`]).
    tag: u32,
    /// The operands (below [`super::instruction::MAX_OPERAND`], as
    /// memoised), each naming a register.
    operands: [u32; 3],
}

/// A node's codes ([`Arena::codes`]).
#[derive(Clone, Copy)]
struct Codes {
    /// The node's subtree as an instruction ready to run ([`code`]).
    own: Code,
    /// The instruction a program at the node runs next: its front's
    /// `own`, as it is or was when the node was made, or [`Code::NONE`].
    /// The tick reads it from the program's node, beside the rest of the
    /// program, instead of reading the front's code after the front: one
    /// load fewer in the chain from one tick's program to the next tick's
    /// instruction (a jump's target is read through its operands). A code,
    /// once known, never changes (only its registers' leaving
    /// [`Arena::lazy`] could make another, and that set only shrinks), so
    /// `head` is always the front's current code or [`Code::NONE`].
    ///
    /// Nil's placeholder (node 0) has none, ever (its codes are written
    /// only when the arena is made: loading, consing, decoding and
    /// collection write nodes above it, and Nil has no memo word to
    /// decode), so a Nil program takes the tick's decoding path, which
    /// finds it halted: the tick does not test for Nil.
    head: Code,
}

impl Codes {
    /// No instruction known.
    const NONE: Codes = Codes {
        own: Code::NONE,
        head: Code::NONE,
    };
}

impl Code {
    /// No instruction known.
    const NONE: Code = Code {
        tag: 0,
        operands: [0; 3],
    };
}

/// The node, size and code of a tree that came from a memory of
/// `registers` registers with the registers `lazy` not loaded, whose
/// children are at `front` and `back`.
#[inline(always)]
fn loaded_node(
    tree: &Tree,
    front: Ref,
    back: Ref,
    registers: usize,
    lazy: u64,
) -> (Node, u64, Code) {
    let code = tree
        .memo()
        .map_or(Code::NONE, |memo| code(memo.get(), registers, lazy));
    (Node { front, back }, tree.size(), code)
}

/// An instruction as a node keeps it, ready to run in a memory of
/// `registers` registers of which those in `lazy` may not be loaded, from
/// the memo word of its tree ([`super::instruction::memoised`]):
/// [`Code::NONE`] when none is known (not decoded yet, not an instruction,
/// or an operand that names no register) or when it reads a register of
/// `lazy`.
fn code(memo: u64, registers: usize, lazy: u64) -> Code {
    match memoised_word(memo, registers) {
        Some((tag, operands)) if reads(tag, operands) & lazy == 0 => {
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

/// The trees with more than one owner (a program and its code blocks,
/// shared between registers and robots, the rest of a program from an
/// instruction on) that earlier runs of this thread copied, kept in the
/// arena's first nodes from one run to the next, so that a memory that
/// holds them again finds them there instead of copying them. The cache
/// holds each tree (its blocks do), so its address names it while it is
/// cached. It is emptied when it has grown past [`CACHE_LIMIT`] nodes, or
/// for a memory of another number of registers (the nodes' [`code`]
/// depends on it).
///
/// A tree goes in when a run meets it the second time (`seen`): a robot's
/// own trees often have a second owner after its run (a register and the
/// register it was taken from), and caching them all filled the cache
/// with trees no other run holds, emptying it every couple of steps of
/// the large benchmark world.
#[derive(Default)]
struct Cache {
    /// The cached trees' roots, by address.
    roots: FxHashMap<usize, Ref>,
    /// The addresses of the trees with more than one owner that runs met
    /// and did not cache (not held: an address may since name another
    /// tree, which is then cached the first time, harmlessly); emptied
    /// with the cache or past [`CACHE_LIMIT`] addresses.
    seen: FxHashSet<usize>,
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
            self.seen.clear();
            self.kept.clear();
            // Nil's placeholder and [`LAZY`]'s.
            self.kept.extend([Tree::NIL, Tree::NIL]);
            self.registers = registers;
        }
        if self.seen.len() > CACHE_LIMIT {
            self.seen.clear();
        }
    }

    /// Whether the tree at `address` is met the second time (noting it).
    fn second_time(&mut self, address: usize) -> bool {
        !self.seen.insert(address)
    }
}

thread_local! {
    /// This thread's arena while none is loaded: its vectors (empty but
    /// the nodes, their memory kept) and the cache of shared trees.
    static SPARE: Cell<Option<Arena>> = const { Cell::new(None) };
}

/// Makes this thread's machine-private arena forget which registers its
/// runs have read: the next runs leave every register but the program
/// out of loading again until an instruction reads it (and empty the
/// cache of shared trees, whose instructions were made ready for the
/// registers read so far). Runs end in the same state either way; tests
/// use it to run registers loaded late.
pub fn forget_read_registers() {
    if let Some(mut arena) = SPARE.take() {
        arena.lazy = ALL_LAZY;
        arena.cache.kept.clear();
        SPARE.set(Some(arena));
    }
}

/// A running memory in an arena.
pub(super) struct Arena {
    /// Nil's placeholder, then the nodes, children before parents, up to
    /// `top`; above it, room for new nodes (garbage until written).
    nodes: Vec<Node>,
    /// The report's `size` of each node's subtree, saturating like
    /// [`Tree::size`] (as long as `nodes`).
    sizes: Vec<u64>,
    /// Each node's subtree as an instruction ready to run, and its
    /// front's (as long as `nodes`): one array, so that the tick keeps
    /// one address fewer in a register.
    codes: Vec<Codes>,
    /// The number of nodes in use (with Nil's placeholder).
    top: usize,
    /// Where the nodes `1..=sources.loaded` came from.
    sources: Sources,
    /// The registers' trees; register 0 is the program from its next
    /// instruction.
    trees: Vec<Ref>,
    /// For each register, one more than its limit (0 for a negative limit):
    /// a tree fits when its size is below this.
    rooms: Vec<u64>,
    /// Each register's tree as loaded.
    roots: Vec<Ref>,
    /// Scratch for collection (kept to reuse its memory; all 0 between
    /// collections).
    forward: Vec<Ref>,
    /// Scratch for unloading.
    scratch: Scratch,
    /// The cache (its blocks are the first of `sources.blocks`).
    cache: Cache,
    /// The registers (below 64) that loading leaves out, holding [`LAZY`]
    /// unless they are Nil or cached: at first all but the program's; a
    /// register leaves the set for good (until [`forget_read_registers`])
    /// when an instruction of this thread reads it. No [`code`] of the
    /// arena reads a register of the set, which only shrinks, so the
    /// tick's fast path never meets [`LAZY`].
    lazy: u64,
}

impl Arena {
    /// Converts a memory into an arena; the memory is left as it is. Its
    /// trees with more than one owner small enough to copy are found in
    /// the cache or copied into it (when met the second time); the others
    /// are copied or converted above it, for this run only, but those of
    /// the registers of [`Arena::lazy`], which hold [`LAZY`].
    pub(super) fn load(memory: &[Register]) -> Arena {
        let mut arena = SPARE.take().unwrap_or_else(|| Arena {
            nodes: vec![PLACEHOLDER; 2],
            sizes: vec![0; 2],
            codes: vec![Codes::NONE; 2],
            top: 2,
            sources: Sources::default(),
            trees: Vec::new(),
            rooms: Vec::new(),
            roots: Vec::new(),
            forward: Vec::new(),
            scratch: Scratch::default(),
            cache: Cache::default(),
            lazy: ALL_LAZY,
        });
        arena.cache.prepare(memory.len());
        arena.top = arena.cache.kept.len();
        arena.sources = Sources {
            kept: std::mem::take(&mut arena.cache.kept),
            blocks: Vec::with_capacity(memory.len()),
            ..Sources::default()
        };
        let mut pending = Vec::new();
        // First the cached trees, so that the cache's nodes stay below the
        // run's.
        for (index, register) in memory.iter().enumerate() {
            let room = u64::try_from(register.limit).map_or(0, |limit| limit + 1);
            let contents = &register.contents;
            let tree = if contents.is_nil() {
                NIL
            } else if let Some(&tree) = arena.cache.roots.get(&contents.node_id()) {
                tree
            } else if bit(index) & arena.lazy != 0 {
                LAZY
            } else if contents.is_shared()
                && contents.size() <= COPY_LIMIT
                && arena.cache.second_time(contents.node_id())
            {
                let tree = arena.copy::<true>(contents, memory.len(), &mut pending);
                arena.cache.roots.insert(contents.node_id(), tree);
                tree
            } else {
                // Loaded below, for this run only.
                NIL
            };
            arena.trees.push(tree);
            arena.rooms.push(room);
        }
        let mut shared = FxHashMap::default();
        for (index, register) in memory.iter().enumerate() {
            let contents = &register.contents;
            if arena.trees[index] != NIL || contents.is_nil() {
                continue;
            }
            arena.trees[index] =
                arena.load_block(contents, memory.len(), &mut pending, &mut shared);
        }
        arena.roots.extend_from_slice(&arena.trees);
        arena.sources.loaded = arena.top - 1;
        arena
    }

    /// A register's tree loaded above the top for this run only: copied
    /// when small enough, else converted by identity (`shared`: the nodes
    /// with more than one owner converted so far), in a block of its own.
    fn load_block<'t>(
        &mut self,
        contents: &'t Tree,
        registers: usize,
        pending: &mut Vec<(&'t Tree, usize)>,
        shared: &mut FxHashMap<usize, Ref>,
    ) -> Ref {
        if contents.size() <= COPY_LIMIT {
            return self.copy_block(contents, registers, pending);
        }
        let start = self.top as Ref;
        let offset = self.sources.origins.len();
        let tree = self.convert(contents, registers, shared);
        let end = self.top as Ref;
        if end > start {
            let kind = Kind::Shared(offset);
            self.sources.blocks.push(Block { start, end, kind });
        }
        tree
    }

    /// Starts the run again from its first tick, with register `slot` of
    /// `memory` (the memory the arena was loaded from, as it was), which
    /// holds [`LAZY`], loaded and out of [`Arena::lazy`] for good: the
    /// run's nodes are dropped (they are above the memory's, which stay)
    /// and every register holds its tree as loaded. The register's tree
    /// becomes the memory's last block.
    pub(super) fn restart(&mut self, memory: &[Register], slot: usize) {
        debug_assert_eq!(self.roots[slot], LAZY);
        self.lazy &= !bit(slot);
        self.top = self.sources.loaded + 1;
        let tree = self.load_block(
            &memory[slot].contents,
            memory.len(),
            &mut Vec::new(),
            &mut FxHashMap::default(),
        );
        self.roots[slot] = tree;
        self.trees.copy_from_slice(&self.roots);
        self.sources.loaded = self.top - 1;
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
        self.grow(end);
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
                self.set(
                    at,
                    loaded_node(tree, front_at, back_at, registers, self.lazy),
                );
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
        let start = self.top;
        self.top = end;
        self.fill_heads(start);
        (end - 1) as Ref
    }

    /// Gives the nodes from `start` to the top their heads' codes
    /// ([`Codes::head`]), their fronts' codes being written.
    fn fill_heads(&mut self, start: usize) {
        for at in start..self.top {
            self.codes[at].head = self.codes[self.nodes[at].front as usize].own;
        }
    }

    /// Makes the arrays of nodes at least `len` long (the room above the
    /// top is Nil's placeholder where it is new).
    fn grow(&mut self, len: usize) {
        if self.nodes.len() < len {
            self.nodes.resize(len, PLACEHOLDER);
            self.sizes.resize(len, 0);
            self.codes.resize(len, Codes::NONE);
        }
    }

    /// Writes node `at`: its children, size and code.
    fn set(&mut self, at: usize, (node, size, code): (Node, u64, Code)) {
        self.nodes[at] = node;
        self.sizes[at] = size;
        self.codes[at].own = code;
    }

    /// Puts a node above the top.
    fn push(&mut self, node: (Node, u64, Code)) -> Ref {
        let at = self.top;
        self.grow(at + 1);
        self.set(at, node);
        self.top += 1;
        at as Ref
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
        let start = self.top;
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
                let index = self.push(loaded_node(tree, front, back, registers, self.lazy));
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
        self.fill_heads(start);
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
        for ((register, &tree), &root) in memory.iter_mut().zip(&self.trees).zip(&self.roots) {
            if tree != root {
                register.contents = unloading.tree(tree);
            }
        }
        self.scratch = unloading.into_scratch();
        self.trees.clear();
        self.rooms.clear();
        self.roots.clear();
        let mut sources = std::mem::take(&mut self.sources);
        self.cache.kept = std::mem::take(&mut sources.kept);
        SPARE.set(Some(self));
        sources
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
        self.trees[0] == NIL
    }

    /// Makes room for the arena to grow to `size` nodes (below 2^32, so
    /// that a [`Ref`] can name them); the room kept from earlier runs is
    /// not filled again.
    pub(super) fn reserve(&mut self, size: usize) {
        if self.nodes.len() < size {
            // Amortized: the cache's nodes make the size asked for creep
            // up from one run to the next.
            let more = size - self.nodes.len();
            self.nodes.reserve(more);
            self.sizes.reserve(more);
            self.codes.reserve(more);
            self.grow(size);
        }
    }

    /// Keeps only the nodes the run built that the registers reach, in
    /// their order (the memory's nodes stay where they are), in time
    /// proportional to the live nodes when they are few (a run's garbage
    /// is not looked at): the live nodes are found from the registers with
    /// a stack, put in order by sorting them (or, when they are many, by a
    /// sweep over the run's nodes), and slid down. No recursion.
    pub(super) fn collect(&mut self) {
        let n = self.top;
        let loaded = self.sources.loaded;
        // `forward` is all 0 between collections (and as long as the arena
        // has ever been). Here it marks the run's live nodes (1), then maps
        // each to its new index; children come first in `live`'s order, so
        // they are mapped before their parents read them. The memory's
        // nodes (Nil's among them) map to themselves.
        let mut forward = std::mem::take(&mut self.forward);
        if forward.len() < n {
            forward.resize(n, 0);
        }
        let mut live = Vec::new();
        let mut stack = self.trees.clone();
        while let Some(index) = stack.pop() {
            let index = index as usize;
            if index > loaded && forward[index] == 0 {
                forward[index] = 1;
                live.push(index as Ref);
                let node = self.nodes[index];
                stack.push(node.front);
                stack.push(node.back);
            }
        }
        // Sorting `live` costs about its length times its logarithm;
        // sweeping, the run's nodes.
        if live.len() < (n - loaded) / 32 {
            live.sort_unstable();
        } else {
            live.clear();
            live.extend(
                (loaded as Ref + 1..n as Ref).filter(|&index| forward[index as usize] != 0),
            );
        }
        let moved = |forward: &[Ref], tree: Ref| {
            if tree as usize > loaded {
                forward[tree as usize]
            } else {
                tree
            }
        };
        for (next, &index) in (loaded as Ref + 1..).zip(&live) {
            let (from, to) = (index as usize, next as usize);
            let node = self.nodes[from];
            self.nodes[to] = Node {
                front: moved(&forward, node.front),
                back: moved(&forward, node.back),
            };
            self.sizes[to] = self.sizes[from];
            self.codes[to] = self.codes[from];
            forward[from] = next;
        }
        self.top = loaded + 1 + live.len();
        for root in &mut self.trees {
            *root = moved(&forward, *root);
        }
        for &index in &live {
            forward[index as usize] = 0;
        }
        self.forward = forward;
    }

    /// Up to `budget` ticks, building at most one node each: the arena must
    /// have room ([`Arena::reserve`]) for `budget` more nodes. Returns the
    /// ticks executed, and whether the program halted (a Nil program) or
    /// why the next instruction did not run (not counted).
    pub(super) fn run(&mut self, budget: u64) -> (u64, Result<bool, Interrupt>) {
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
            sources: &self.sources,
            lazy: self.lazy,
        };
        // Counted down: one instruction fewer a tick than counting up.
        let mut left = budget;
        let result = loop {
            if left == 0 {
                break Ok(false);
            }
            // The next instruction's code, read from the program's node
            // (not after its front). Nil's has none: a Nil program takes
            // the decoding path, which finds it halted.
            let program = running.program;
            let code = running.codes(program).head;
            let operands = code.operands.map(|o| Checked(o as usize));
            // One jump on the tag.
            let outcome = match code.tag {
                0 => {
                    let outcome;
                    (running, outcome) = running.step_decoding();
                    match outcome {
                        Ok(Decoded::Ran) => Ok(()),
                        // The program's node has its head's code now: run it.
                        Ok(Decoded::Ready) => continue,
                        Ok(Decoded::Halted) => break Ok(true),
                        Err(Interrupt::Failed(e)) => Err(e),
                        Err(load) => break Err(load),
                    }
                }
                1 => running.execute(program, 0, operands),
                2 => running.execute(program, 1, operands),
                3 => running.execute(program, 2, operands),
                4 => running.execute(program, 3, operands),
                5 => Jumping(&mut running).execute(program, 0, operands),
                6 => Jumping(&mut running).execute(program, 1, operands),
                7 => Jumping(&mut running).execute(program, 2, operands),
                _ => Jumping(&mut running).execute(program, 3, operands),
            };
            if let Err(e) = outcome {
                break Err(Interrupt::Failed(e));
            }
            left -= 1;
        };
        self.top = running.top as usize;
        self.lazy = running.lazy;
        (budget - left, result)
    }
}

/// Why [`Arena::run`] stopped before its ticks ran out, the program not
/// Nil.
#[derive(Debug)]
pub(super) enum Interrupt {
    /// The next instruction fails.
    Failed(MachineError),
    /// The next instruction reads this register, which is not loaded
    /// ([`LAZY`]): the run must start again with it ([`Arena::restart`]).
    Load(usize),
}

/// The registers of a memory of `registers` registers that `instruction`
/// reads (as [`reads`] counts them).
fn read_slots(instruction: Instruction, registers: usize) -> impl Iterator<Item = usize> {
    let (a, b) = match instruction {
        Instruction::Nilify(_) => (None, None),
        Instruction::Deconstruct(a, ..) => (Some(a), None),
        Instruction::Construct(a, b, _) | Instruction::CopyIfNil(a, b, _) => (Some(a), Some(b)),
    };
    [a, b]
        .into_iter()
        .flatten()
        .filter_map(move |operand| usize::try_from(operand).ok().filter(|&s| s < registers))
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
///   the arena; [`LAZY`] is a node of its own, below any other);
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
    /// wait for the last one's store to come back from memory. The
    /// instructions that may write register 0 (their [`Code::tag`] says
    /// so) write it here too ([`Jumping`]); the decoding path reads it
    /// back.
    program: Ref,
    nodes: &'a mut [Node],
    sizes: &'a mut [u64],
    codes: &'a mut [Codes],
    /// A [`Ref`], so that the tick reads a new node's size back from the
    /// register that wrote it, not from memory.
    top: Ref,
    trees: &'a mut [Ref],
    rooms: &'a [u64],
    sources: &'a Sources,
    /// [`Arena::lazy`], shrunk as the decoding path meets reads.
    lazy: u64,
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

    /// The codes of a tree of the arena.
    #[inline(always)]
    fn codes(&self, tree: Ref) -> &Codes {
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

    /// The program's node without its head's code ([`Codes::head`]):
    /// [`Decoded::Halted`] for a Nil program; when the head's own code is
    /// known, the node takes it and nothing runs ([`Decoded::Ready`]);
    /// else a tick of an instruction not memoised (or with an operand that
    /// names no register), decoded from its tree, which memoises it
    /// ([`Decoded::Ran`]). Takes and gives back the running arena whole
    /// (instead of a reference to it), so that the loop in [`Arena::run`]
    /// keeps it in registers.
    #[cold]
    #[inline(never)]
    fn step_decoding(mut self) -> (Self, Result<Decoded, Interrupt>) {
        let outcome = if self.program == NIL {
            Ok(Decoded::Halted)
        } else {
            self.decode_and_execute()
        };
        (self, outcome)
    }

    /// [`Running::step_decoding`]'s work. An instruction that reads a
    /// register not loaded runs only when the run starts again with it
    /// ([`Interrupt::Load`]); the registers it reads leave
    /// [`Arena::lazy`] before its code is kept.
    fn decode_and_execute(&mut self) -> Result<Decoded, Interrupt> {
        let program = self.program;
        let Node {
            front: head,
            back: rest,
            ..
        } = self.nodes[program as usize];
        let known = self.codes[head as usize].own;
        if known.tag != 0 {
            self.codes[program as usize].head = known;
            return Ok(Decoded::Ready);
        }
        let instruction_tree =
            Unloading::new(self.nodes, self.sources, Scratch::default(), 0).tree(head);
        let Some(instruction) = Instruction::decode(&instruction_tree) else {
            let program =
                Unloading::new(self.nodes, self.sources, Scratch::default(), 0).tree(program);
            return Err(Interrupt::Failed(MachineError::BadInstruction(program)));
        };
        for slot in read_slots(instruction, self.trees.len()) {
            if self.trees[slot] == LAZY {
                return Err(Interrupt::Load(slot));
            }
            self.lazy &= !bit(slot);
        }
        if let Some(memo) = instruction_tree.memo() {
            // Nil has no memo word: Nil's codes stay as they are.
            debug_assert_ne!(head, NIL);
            let code = code(memo.get(), self.trees.len(), self.lazy);
            self.codes[head as usize].own = code;
            self.codes[program as usize].head = code;
        }
        // Register 0 holds the rest of the program before the instruction
        // runs.
        self.advance(rest);
        let outcome = execute_instruction(self, instruction).map_err(Interrupt::Failed);
        self.program = self.get(0);
        outcome.map(|()| Decoded::Ran)
    }
}

/// What [`Running::step_decoding`] did.
enum Decoded {
    /// The program is Nil: nothing ran.
    Halted,
    /// The program's node has its head's code now: nothing ran.
    Ready,
    /// A tick ran.
    Ran,
}

/// A running arena as an instruction with a code sees it: [`Running`]
/// for one that writes no register 0, [`Jumping`] for one that may.
trait Execute: Store<Tree = Ref> + Sized {
    /// Puts the rest of `program` (the program's node, not Nil) in
    /// register 0.
    fn advance_past(&mut self, program: Ref);

    /// A tick of the instruction at the head of `program` (the program's
    /// node, not Nil), whose code has the tag `tag` and `operands`.
    #[inline(always)]
    fn execute(
        &mut self,
        program: Ref,
        tag: u64,
        operands: [Checked; 3],
    ) -> Result<(), MachineError> {
        // Register 0 holds the rest of the program before the instruction
        // runs.
        self.advance_past(program);
        execute_parts(self, tag, operands)
    }
}

impl Execute for Running<'_> {
    #[inline(always)]
    fn advance_past(&mut self, program: Ref) {
        debug_assert_ne!(program, NIL);
        debug_assert!(self.codes(self.node(program).front).own == self.codes(program).head);
        let rest = self.node(program).back;
        self.advance(rest);
    }
}

impl Execute for Jumping<'_, '_> {
    #[inline(always)]
    fn advance_past(&mut self, program: Ref) {
        self.0.advance_past(program);
    }
}

/// A running arena as an instruction that may write register 0 sees it
/// ([`Code::tag`] from 5): a write to register 0 also moves the loop's
/// copy of the program ([`Running::program`]), so that the next tick's
/// fetch does not wait for the write to come back from memory.
struct Jumping<'r, 'a>(&'r mut Running<'a>);

impl Store for Jumping<'_, '_> {
    type Tree = Ref;

    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }

    #[inline(always)]
    fn get(&self, slot: usize) -> Ref {
        self.0.get(slot)
    }

    #[inline(always)]
    fn is_nil(&self, slot: usize) -> bool {
        self.0.is_nil(slot)
    }

    #[inline(always)]
    fn split(&self, slot: usize) -> Option<(Ref, Ref)> {
        self.0.split(slot)
    }

    #[inline(always)]
    fn nil(&self) -> Ref {
        NIL
    }

    #[inline(always)]
    fn cons(&mut self, front: Ref, back: Ref) -> Ref {
        self.0.cons(front, back)
    }

    #[inline(always)]
    fn write(&mut self, slot: usize, tree: Ref) -> bool {
        let fits = self.0.write(slot, tree);
        if fits && slot == 0 {
            self.0.program = tree;
        }
        fits
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
        let tree = *unsafe { self.trees.get_unchecked(slot) };
        // No instruction reads a register not loaded ([`Arena::lazy`]).
        debug_assert_ne!(tree, LAZY, "register {slot} read before it was loaded");
        tree
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
            // Field by field, the front's code read after the first write
            // (which LLVM cannot tell apart from it): read before, it was
            // kept on the stack.
            self.codes.get_unchecked_mut(index as usize).own = Code::NONE;
            let head = self.codes(front).own;
            self.codes.get_unchecked_mut(index as usize).head = head;
            *self.nodes.get_unchecked_mut(index as usize) = Node { front, back };
            *self.sizes.get_unchecked_mut(index as usize) = size;
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

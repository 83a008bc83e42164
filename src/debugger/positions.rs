//! Exact source positions in code that several places share.
//!
//! An image stores every distinct subtree once, so two places of the source
//! whose code is equal from some instruction on (two routines ending in
//! `mov input.miss, true` then `ret`, every `ret` jumped to) run the very
//! same code nodes: a node alone does not say which place the machine is
//! at. A *position* does: one instruction of the source map (a segment's
//! instruction, numbered in the order the code was written), and
//! [`PositionMap`] lists, per code node, every position whose code it is.
//!
//! A [`Tracker`] follows the focused machine through positions, before
//! every instruction it runs, by how execution arrived at a node:
//!
//! - falling through (the node is the back of the previous one): the
//!   position written after the previous one;
//! - a jump (`copyifnil T, R, prog`): the position where the code of
//!   register `R` starts;
//! - a return to code a `call` pushed (an instruction that reads `prog` as
//!   data records the position after the following jump, and a later
//!   arrival at that code takes it back, last pushed first);
//! - otherwise, if the node has one position, that one; if several, the
//!   first of them (the code was reached by a way the tracker cannot
//!   follow: changed by `set`, or built at run time).

use crate::encoding::Decode;
use crate::image::Image;
use crate::machine::Instruction;
use crate::tree::Tree;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// A position: an instruction of the source map, numbered in the order
/// the code was written (the segments in turn, instruction after
/// instruction).
pub type Position = u32;

/// No position.
const NONE: u32 = u32::MAX;

/// Continuations remembered per code node at most (the oldest are
/// forgotten: a program that pushes its code without returning to it
/// keeps the map bounded).
const RETURNS_PER_NODE: usize = 64;

/// What an instruction does to the program register, as far as positions
/// are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Nothing that matters here.
    None,
    /// Jumps to the code of a register (`copyifnil T, R, prog`).
    Jump(usize),
    /// Reads `prog` as data: pushes the code after it (a `call`).
    Pushes,
}

/// Every position of an image's code and the code node at each.
#[derive(Debug, Default)]
pub struct PositionMap {
    /// Per position: its code (Nil: no code laid out there).
    code: Vec<Tree>,
    /// Per position: its index in the source map's locations.
    location: Vec<u32>,
    /// Per position: the one written after it in the code (fall-through).
    succ: Vec<u32>,
    /// Per position: the one written before it in the code.
    pred: Vec<u32>,
    /// Per position: its instruction's effect on `prog`.
    effect: Vec<Effect>,
    /// Code node to its positions, the first found first (registers in
    /// turn, the start state's `prog` last).
    at_node: FxHashMap<usize, Vec<Position>>,
    /// Code register to the position its code starts at.
    starts: FxHashMap<usize, Position>,
}

impl PositionMap {
    /// The positions of an image's code (linear in the source map's size:
    /// a segment's nodes are found once, however many registers share it).
    pub fn new(image: &Image) -> PositionMap {
        let map = &image.source_map;
        let mut first = Vec::with_capacity(map.segments.len());
        let mut total = 0usize;
        for segment in &map.segments {
            first.push(total as u32);
            total += segment.locations.len();
        }
        let mut positions = PositionMap {
            code: vec![Tree::NIL; total],
            location: map
                .segments
                .iter()
                .flat_map(|s| s.locations.iter().copied())
                .collect(),
            succ: vec![NONE; total],
            pred: vec![NONE; total],
            effect: vec![Effect::None; total],
            ..PositionMap::default()
        };
        for (s, segment) in map.segments.iter().enumerate() {
            let start = first[s];
            let len = segment.locations.len() as u32;
            for k in 0..len {
                let p = start + k;
                let after = if k + 1 < len {
                    Some(p + 1)
                } else {
                    following(map, &first, segment.next)
                };
                if let Some(q) = after {
                    positions.succ[p as usize] = q;
                    positions.pred[q as usize] = p;
                }
            }
        }
        let mut registers: Vec<_> = map.registers.iter().collect();
        // The start state's `prog` last, so that code is first named by the
        // register (and label) it was written in.
        registers.sort_by_key(|m| m.register == 0);
        for m in registers {
            let (Some(register), Some(&start)) = (
                image.registers.get(m.register),
                first.get(m.segment as usize),
            ) else {
                continue;
            };
            if map.segments[m.segment as usize].locations.is_empty() {
                continue;
            }
            positions.starts.insert(m.register, start);
            positions.lay(start, &register.contents);
        }
        positions
    }

    /// Records the nodes of `code` from position `p` on, until a position
    /// already laid (the rest of a shared chain) or the end of either.
    fn lay(&mut self, mut p: Position, code: &Tree) {
        let mut rest = code;
        while p != NONE && self.code[p as usize].is_nil() {
            let Some((instruction, back)) = rest.split() else {
                break;
            };
            let node = rest.node_id();
            self.code[p as usize] = rest.clone();
            self.effect[p as usize] = effect(instruction);
            self.at_node.entry(node).or_default().push(p);
            rest = back;
            p = self.succ[p as usize];
        }
    }

    /// Every position of a code node (empty: not the image's code).
    pub fn of(&self, node: usize) -> &[Position] {
        self.at_node.get(&node).map_or(&[], Vec::as_slice)
    }

    /// The first position of a code node.
    pub fn first(&self, node: usize) -> Option<Position> {
        self.of(node).first().copied()
    }

    /// The code node at a position (`None`: no code laid out there).
    pub fn node(&self, p: Position) -> Option<usize> {
        self.code(p).map(Tree::node_id)
    }

    /// The code at a position (from its instruction on).
    pub fn code(&self, p: Position) -> Option<&Tree> {
        self.code.get(p as usize).filter(|t| t.is_cons())
    }

    /// The index in the source map's locations of a position's location.
    pub fn location(&self, p: Position) -> Option<u32> {
        self.location.get(p as usize).copied()
    }

    /// Every position of a code node (none for code not laid out).
    pub fn laid(&self) -> impl Iterator<Item = (Position, usize)> + '_ {
        (0..self.code.len() as u32).filter_map(|p| Some((p, self.node(p)?)))
    }

    /// The position written before `p` in its code.
    pub fn before(&self, p: Position) -> Option<Position> {
        self.pred.get(p as usize).copied().filter(|&q| q != NONE)
    }

    /// The position where a code register's code starts.
    pub fn start(&self, register: usize) -> Option<Position> {
        self.starts.get(&register).copied()
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// Whether the image has no code.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    fn succ_of(&self, p: Position) -> Option<Position> {
        self.succ.get(p as usize).copied().filter(|&q| q != NONE)
    }
}

/// The first position of the first segment with instructions from
/// segment `next` on (bounded by the number of segments, in case a file
/// links them in a loop).
fn following(map: &crate::image::SourceMap, first: &[u32], mut next: Option<u32>) -> Option<u32> {
    for _ in 0..map.segments.len() {
        let n = next? as usize;
        let segment = map.segments.get(n)?;
        if !segment.locations.is_empty() {
            return Some(first[n]);
        }
        next = segment.next;
    }
    None
}

fn effect(instruction: &Tree) -> Effect {
    match Instruction::decode(instruction) {
        Some(Instruction::CopyIfNil(_, src, 0)) if src > 0 => Effect::Jump(src as usize),
        Some(Instruction::Construct(a, b, _)) if a == 0 || b == 0 => Effect::Pushes,
        Some(Instruction::CopyIfNil(_, 0, _)) | Some(Instruction::Deconstruct(0, _, _)) => {
            Effect::Pushes
        }
        _ => Effect::None,
    }
}

/// Follows one machine through the positions of its image (see the
/// module's documentation). Cloned into every snapshot of the game.
#[derive(Debug, Clone)]
pub struct Tracker {
    map: Rc<PositionMap>,
    /// The position of the instruction observed last.
    at: Option<Position>,
    /// The node of that instruction, and of its back (where falling
    /// through leads).
    node: usize,
    expect: usize,
    /// Per code node a `call` pushed: the positions it was pushed from,
    /// last on top (shared between snapshots until changed).
    returns: Rc<FxHashMap<usize, Vec<Position>>>,
    /// The moment observed last, as the session counts them (so that an
    /// instruction observed twice is followed once).
    pub stamp: Option<(u64, u64)>,
}

impl Tracker {
    /// A tracker on a map, at no position yet.
    pub fn new(map: Rc<PositionMap>) -> Tracker {
        Tracker {
            map,
            at: None,
            node: 0,
            expect: 0,
            returns: Rc::default(),
            stamp: None,
        }
    }

    /// The position of the instruction observed last.
    pub fn at(&self) -> Option<Position> {
        self.at
    }

    /// The map it follows positions in.
    pub fn map(&self) -> &Rc<PositionMap> {
        &self.map
    }

    /// Forgets how execution got here: the next instruction observed is
    /// placed by its node alone (after the user changed `prog`).
    pub fn lose_context(&mut self) {
        self.at = None;
        self.node = 0;
        self.expect = 0;
    }

    /// The machine is about to run the instruction at the front of
    /// `prog`: follows it.
    #[inline]
    pub fn observe(&mut self, prog: &Tree) {
        let id = prog.node_id();
        let fell = self
            .at
            .filter(|_| id == self.expect)
            .and_then(|p| self.map.succ_of(p))
            .filter(|&q| self.map.code[q as usize].node_id() == id);
        let now = match fell {
            Some(q) => Some(q),
            None => self.arrive(id),
        };
        if let Some(p) = now
            && self.map.effect[p as usize] == Effect::Pushes
        {
            self.push_return(p);
        }
        self.at = now;
        self.node = id;
        self.expect = prog.back().map_or(0, Tree::node_id);
    }

    /// The position of `id` reached otherwise than by falling through.
    fn arrive(&mut self, id: usize) -> Option<Position> {
        let map = self.map.clone();
        let candidates = map.of(id);
        match candidates {
            [] => return None,
            [only] => return Some(*only),
            _ => {}
        }
        let jumped = self.at.and_then(|p| match self.map.effect[p as usize] {
            Effect::Jump(r) => self.map.start(r),
            _ => None,
        });
        if let Some(p) = jumped.filter(|p| candidates.contains(p)) {
            return Some(p);
        }
        if let Some(p) = self.pop_return(candidates) {
            return Some(p);
        }
        if self.at.is_none()
            && let Some(p) = self.map.start(0).filter(|p| candidates.contains(p))
        {
            return Some(p);
        }
        Some(candidates[0])
    }

    /// A `call` at `p` pushes the code after it: its jump, whose back is
    /// the code the call returns to.
    fn push_return(&mut self, p: Position) {
        let Some(back) = self.map.succ_of(p).and_then(|j| self.map.succ_of(j)) else {
            return;
        };
        let Some(node) = self.map.node(back) else {
            return;
        };
        let returns = Rc::make_mut(&mut self.returns);
        let list = returns.entry(node).or_default();
        if list.len() == RETURNS_PER_NODE {
            list.remove(0);
        }
        list.push(back);
    }

    /// The position a return arrives at among `candidates`: the one pushed
    /// last for that code.
    fn pop_return(&mut self, candidates: &[Position]) -> Option<Position> {
        let node = self.map.node(candidates[0])?;
        let top = *self.returns.get(&node)?.last()?;
        if !candidates.contains(&top) {
            return None;
        }
        let returns = Rc::make_mut(&mut self.returns);
        if let Some(list) = returns.get_mut(&node) {
            list.pop();
            if list.is_empty() {
                returns.remove(&node);
            }
        }
        Some(top)
    }

    /// The positions of the first `count` continuations on a call stack,
    /// top first:
    /// each frame (the code of a call's jump) at the position it was
    /// pushed from, as far as this tracker saw the pushes; `None` for a
    /// frame it did not see.
    pub fn frames(&self, stack: &Tree, count: usize) -> Vec<Option<Position>> {
        let mut used: FxHashMap<usize, usize> = FxHashMap::default();
        stack
            .iter_list()
            .take(count)
            .map(|frame| {
                let back = frame.back()?.node_id();
                let list = self.returns.get(&back)?;
                let k = used.entry(back).or_default();
                let p = *list.get(list.len().checked_sub(1 + *k)?)?;
                *k += 1;
                self.map.before(p)
            })
            .collect()
    }
}

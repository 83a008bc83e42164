//! Node tables: trees written as numbered nodes, each the pair of its
//! halves' numbers, so that a subtree shared a million times is written once.
//! Images, replays and the shared JSON form (see [`super::write_shared`])
//! use them.

use super::Tree;
use rustc_hash::FxHashMap;

/// Assigns node ids, sharing equal subtrees: node `k` (1-based) is the pair
/// of the ids of its front and back, 0 is Nil.
#[derive(Default)]
pub struct NodeTable {
    nodes: Vec<(u64, u64)>,
    /// The ids of the nodes by their pair: an open-addressing table of
    /// node ids (0 is an empty slot), whose keys are in `nodes`, each with
    /// the high half of its pair's hash (so that a search reads `nodes`
    /// only for a likely match). Its length is 0 or a power of two, at
    /// most half full.
    by_pair: Vec<(u32, u32)>,
    /// The id of each tree passed to [`NodeTable::id`] and of each shared
    /// node met, by the node's address. A node held once is met only
    /// through its one owner, so it is walked at most as often as the
    /// nearest of these above it: once.
    by_node: FxHashMap<usize, u64>,
}

impl NodeTable {
    /// The id of a tree, adding its nodes (post-order, front first).
    pub fn id(&mut self, tree: &Tree) -> u64 {
        if let Some(&id) = self.by_node.get(&tree.node_id()) {
            return id;
        }
        // Explicit stack: (tree, children done?).
        let mut stack: Vec<(&Tree, bool)> = vec![(tree, false)];
        let mut ids: Vec<u64> = Vec::new();
        while let Some((t, expanded)) = stack.pop() {
            let Some((front, back)) = t.split() else {
                ids.push(0);
                continue;
            };
            if expanded {
                let back_id = ids.pop().unwrap_or(0);
                let front_id = ids.pop().unwrap_or(0);
                let id = self.pair_id(front_id, back_id);
                if t.is_shared() {
                    self.by_node.insert(t.node_id(), id);
                }
                ids.push(id);
            } else if let Some(&id) = t
                .is_shared()
                .then(|| self.by_node.get(&t.node_id()))
                .flatten()
            {
                ids.push(id);
            } else {
                stack.push((t, true));
                stack.push((back, false));
                stack.push((front, false));
            }
        }
        let id = ids.pop().unwrap_or(0);
        if !tree.is_nil() {
            self.by_node.insert(tree.node_id(), id);
        }
        id
    }

    /// The id of the node `(front, back)`, added if it is new.
    fn pair_id(&mut self, front: u64, back: u64) -> u64 {
        if self.nodes.len() + 1 > self.by_pair.len() / 2 {
            self.grow();
        }
        let mask = self.by_pair.len() - 1;
        let hash = pair_hash(front, back);
        let tag = (hash >> 32) as u32;
        let mut slot = hash as usize & mask;
        loop {
            match self.by_pair[slot] {
                (0, _) => break,
                (id, t) if t == tag && self.nodes[id as usize - 1] == (front, back) => {
                    return id.into();
                }
                _ => slot = (slot + 1) & mask,
            }
        }
        self.nodes.push((front, back));
        let id = self.nodes.len();
        let id32 = u32::try_from(id).expect("fewer than 2^32 nodes in a table");
        self.by_pair[slot] = (id32, tag);
        id as u64
    }

    /// Doubles `by_pair` (at least 1024 slots) and places every node again.
    fn grow(&mut self) {
        let len = (self.by_pair.len() * 2).max(1024);
        let mask = len - 1;
        let mut slots = vec![(0u32, 0u32); len];
        for (k, &(front, back)) in self.nodes.iter().enumerate() {
            let hash = pair_hash(front, back);
            let mut slot = hash as usize & mask;
            while slots[slot].0 != 0 {
                slot = (slot + 1) & mask;
            }
            slots[slot] = (k as u32 + 1, (hash >> 32) as u32);
        }
        self.by_pair = slots;
    }
}

/// Where the search for a pair starts in [`NodeTable`]'s `by_pair`: the
/// two ids mixed (a multiplication, then MurmurHash3's finalizer), so that
/// the low bits depend on every bit of both.
fn pair_hash(front: u64, back: u64) -> u64 {
    let mut h = front.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ back;
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h
}

impl NodeTable {
    /// The table: `(front, back)` per node.
    pub fn into_nodes(self) -> Vec<(u64, u64)> {
        self.nodes
    }
}

/// A node of a node table that refers to itself or to a node after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("node {id} refers to a node that is not before it")]
pub struct ForwardNode {
    /// The node's id (1 is the first).
    pub id: u64,
}

/// The trees of a node table (index = id, 0 = Nil), checking that every
/// node refers only to nodes before it.
pub fn trees_from_nodes(nodes: &[(u64, u64)]) -> Result<Vec<Tree>, ForwardNode> {
    let mut trees: Vec<Tree> = Vec::with_capacity(nodes.len() + 1);
    trees.push(Tree::NIL);
    for (k, &(front, back)) in nodes.iter().enumerate() {
        let id = k as u64 + 1;
        if front >= id || back >= id {
            return Err(ForwardNode { id });
        }
        trees.push(Tree::cons(
            trees[front as usize].clone(),
            trees[back as usize].clone(),
        ));
    }
    Ok(trees)
}

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
    /// Per node (id 1 first), its front's and back's ids: node ids fit in
    /// 32 bits ([`NodeTable::id`] refuses more), so a node takes 8 bytes.
    nodes: Vec<(u32, u32)>,
    /// Per id (0 is Nil), the first node made with it as its back, 0 while
    /// there is none. That node is filed here only: a pair whose back has
    /// no node over it yet is new without a search, and code's spines
    /// (each cons over a back made just before it) never enter `by_pair`.
    first_over: Vec<u32>,
    /// The ids of the other nodes by their pair: an open-addressing table
    /// of node ids (0 is an empty slot), whose keys are in `nodes`, each
    /// with the high half of its pair's hash, from which its first slot is
    /// taken (so that a search reads `nodes` only for a likely match, and
    /// growing reads no node). Its length is 0 or a power of two, at most
    /// half full.
    by_pair: Vec<(u32, u32)>,
    /// How many nodes `by_pair` holds.
    in_pairs: usize,
    /// The id of each tree passed to [`NodeTable::id`] and of each shared
    /// node met, by the node's address. A node held once is met only
    /// through its one owner, so it is walked at most as often as the
    /// nearest of these above it: once.
    by_node: FxHashMap<usize, u64>,
}

impl NodeTable {
    /// A table with room for about `nodes` nodes before its lists grow
    /// (room only: memory not filled is not touched).
    pub fn with_capacity(nodes: usize) -> Self {
        NodeTable {
            nodes: Vec::with_capacity(nodes),
            first_over: Vec::with_capacity(nodes + 1),
            ..NodeTable::default()
        }
    }

    /// The id of a tree, adding its nodes (post-order, front first).
    pub fn id(&mut self, tree: &Tree) -> u64 {
        if let Some(&id) = self.by_node.get(&tree.node_id()) {
            return id;
        }
        // Explicit stack of the trees to number, with beside it whether each
        // one's halves are done (a bit apart, so that an entry is 8 bytes:
        // down a code register's spine the stack holds a tree per cons),
        // and the ids made and not yet used (node ids fit in 32 bits).
        // Down a spine each holds about one entry a cons. The first tree
        // numbered (in an image, `prog`'s code: the longest spine) gets
        // room for as many as it has conses, at most the room made for
        // nodes (see [`NodeTable::with_capacity`]), so that its walk does
        // not grow them by copying; the others, which mostly meet numbered
        // nodes soon, start small.
        let room = if self.nodes.is_empty() {
            usize::try_from(tree.size())
                .unwrap_or(usize::MAX)
                .min(self.nodes.capacity())
                + 1
        } else {
            1
        };
        let mut stack: Vec<&Tree> = Vec::with_capacity(room);
        let mut halves_done: Vec<bool> = Vec::with_capacity(room);
        let mut ids: Vec<u32> = Vec::with_capacity(room);
        stack.push(tree);
        halves_done.push(false);
        while let (Some(t), Some(expanded)) = (stack.pop(), halves_done.pop()) {
            let Some((front, back)) = t.split() else {
                ids.push(0);
                continue;
            };
            if expanded {
                let back_id = ids.pop().unwrap_or(0);
                let front_id = ids.pop().unwrap_or(0);
                let id = self.pair_id(front_id, back_id);
                if t.is_shared() {
                    self.by_node.insert(t.node_id(), id.into());
                }
                ids.push(id);
            } else if let Some(&id) = t
                .is_shared()
                .then(|| self.by_node.get(&t.node_id()))
                .flatten()
            {
                ids.push(u32::try_from(id).expect("node ids fit in 32 bits"));
            } else {
                stack.extend([t, back, front]);
                halves_done.extend([true, false, false]);
            }
        }
        let id = ids.pop().unwrap_or(0).into();
        if !tree.is_nil() {
            self.by_node.insert(tree.node_id(), id);
        }
        id
    }

    /// The id of the node `(front, back)`, added if it is new.
    fn pair_id(&mut self, front: u32, back: u32) -> u32 {
        if self.first_over.is_empty() {
            // Nil's entry.
            self.first_over.push(0);
        }
        debug_assert!(front as usize <= self.nodes.len() && back as usize <= self.nodes.len());
        let first = self.first_over[back as usize];
        if first != 0 && self.nodes[first as usize - 1] == (front, back) {
            return first;
        }
        let new = u32::try_from(self.nodes.len() + 1).expect("fewer than 2^32 nodes in a table");
        if first == 0 {
            // No node has this back: the pair is new.
            self.first_over[back as usize] = new;
        } else {
            if self.in_pairs + 1 > self.by_pair.len() / 2 {
                self.grow();
            }
            let tag = (pair_hash(front.into(), back.into()) >> 32) as u32;
            let nodes = &self.nodes;
            match probe(&self.by_pair, tag, |id| {
                nodes[id as usize - 1] == (front, back)
            }) {
                Ok(id) => return id,
                Err(slot) => self.by_pair[slot] = (new, tag),
            }
            self.in_pairs += 1;
        }
        self.nodes.push((front, back));
        self.first_over.push(0);
        new
    }

    /// Doubles `by_pair` (at least 1024 slots) and places every node again,
    /// in the order of their slots: a node's first slot in the new table is
    /// its first slot in the old one or that plus the old length, so the
    /// writes go forward through two runs.
    fn grow(&mut self) {
        let len = (self.by_pair.len() * 2).max(1024);
        let mut slots = vec![(0u32, 0u32); len];
        for &(id, tag) in &self.by_pair {
            if id != 0 {
                // The ids in a table are distinct: nothing is equal to it.
                if let Err(slot) = probe(&slots, tag, |_| false) {
                    slots[slot] = (id, tag);
                }
            }
        }
        self.by_pair = slots;
    }
}

/// Linear probing in a [`NodeTable`]'s `by_pair` (its length a power of
/// two, with an empty slot) from the first slot of `tag`: `Ok` with the id
/// of a slot of that tag for which `matches` holds, else `Err` with the
/// empty slot where the search ended.
fn probe(slots: &[(u32, u32)], tag: u32, matches: impl Fn(u32) -> bool) -> Result<u32, usize> {
    debug_assert!(slots.len().is_power_of_two());
    let mask = slots.len() - 1;
    let mut slot = tag as usize & mask;
    loop {
        match slots[slot] {
            (0, _) => return Err(slot),
            (id, t) if t == tag && matches(id) => return Ok(id),
            _ => slot = (slot + 1) & mask,
        }
    }
}

/// The hash of a pair in [`NodeTable`]'s `by_pair` (whose high half is
/// kept): the two ids mixed (a multiplication, then MurmurHash3's
/// finalizer), so that its bits depend on every bit of both.
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
            .into_iter()
            .map(|(front, back)| (front.into(), back.into()))
            .collect()
    }

    /// The table as it is: `(front, back)` per node, without a copy.
    pub fn pairs(&self) -> &[(u32, u32)] {
        &self.nodes
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The reference: every tree numbered by a plain post-order walk with
    /// one map by pair, nothing remembered by address.
    fn plain_numbering(roots: &[&Tree]) -> (Vec<u64>, Vec<(u64, u64)>) {
        let mut nodes = Vec::new();
        let mut by_pair = HashMap::new();
        let ids = roots
            .iter()
            .map(|root| {
                let mut stack = vec![(*root, false)];
                let mut ids = Vec::new();
                while let Some((t, expanded)) = stack.pop() {
                    match (t.split(), expanded) {
                        (None, _) => ids.push(0),
                        (Some(_), true) => {
                            let back = ids.pop().unwrap();
                            let front = ids.pop().unwrap();
                            let id = *by_pair.entry((front, back)).or_insert_with(|| {
                                nodes.push((front, back));
                                nodes.len() as u64
                            });
                            ids.push(id);
                        }
                        (Some((front, back)), false) => {
                            stack.push((t, true));
                            stack.push((back, false));
                            stack.push((front, false));
                        }
                    }
                }
                ids.pop().unwrap()
            })
            .collect();
        (ids, nodes)
    }

    #[test]
    fn ids_and_nodes_are_those_of_a_plain_numbering() {
        let mut next = crate::tree::random_below(0x2545_f491_4f6c_dd1d);
        // Trees that share nodes (kept in `pool` and in their parents),
        // trees that hold nodes once (the inner cons of a nested pair), and
        // equal trees built apart (fresh pairs of Nil).
        let mut pool = vec![Tree::NIL];
        for _ in 0..3000 {
            let (a, b, c) = (next(pool.len()), next(pool.len()), next(pool.len()));
            let tree = match next(3) {
                0 => Tree::cons(pool[a].clone(), pool[b].clone()),
                1 => Tree::cons(
                    Tree::cons(pool[a].clone(), pool[b].clone()),
                    pool[c].clone(),
                ),
                _ => Tree::cons(Tree::cons(Tree::NIL, Tree::NIL), pool[a].clone()),
            };
            pool.push(tree);
        }
        // A tree held only here, passed twice.
        let alone = Tree::cons(Tree::cons(Tree::NIL, Tree::NIL), Tree::NIL);
        let mut roots: Vec<&Tree> = (0..500).map(|_| &pool[next(pool.len())]).collect();
        roots.push(&alone);
        roots.push(&alone);
        let mut table = NodeTable::default();
        let ids: Vec<u64> = roots.iter().map(|t| table.id(t)).collect();
        let (plain_ids, plain_nodes) = plain_numbering(&roots);
        assert_eq!(ids, plain_ids);
        assert!(table.by_pair.len() > 1024, "the table of pairs grew");
        assert_eq!(table.into_nodes(), plain_nodes);
    }
}

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
    by_pair: FxHashMap<(u64, u64), u64>,
    by_node: FxHashMap<usize, u64>,
}

impl NodeTable {
    /// The id of a tree, adding its nodes (post-order, front first).
    pub fn id(&mut self, tree: &Tree) -> u64 {
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
                let id = *self.by_pair.entry((front_id, back_id)).or_insert_with(|| {
                    self.nodes.push((front_id, back_id));
                    self.nodes.len() as u64
                });
                self.by_node.insert(t.node_id(), id);
                ids.push(id);
            } else if let Some(&id) = self.by_node.get(&t.node_id()) {
                ids.push(id);
            } else {
                stack.push((t, true));
                stack.push((back, false));
                stack.push((front, false));
            }
        }
        ids.pop().unwrap_or(0)
    }
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

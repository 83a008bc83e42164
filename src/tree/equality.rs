//! Structural equality that stays cheap on shared structure.
//!
//! Two trees are compared with an explicit stack. Pairs of nodes that are the
//! same node are equal at once; pairs whose cached sizes differ are unequal at
//! once. A pair in which either node is shared (held by more than one owner) is
//! remembered, so it is compared only once however many paths lead to it: two
//! independently built trees of 2^40 logical conses but a few dozen distinct
//! nodes compare in time proportional to their distinct nodes. Nodes held by a
//! single owner can be reached only through their one parent, so they need no
//! memo and a plain 10^7-node list is compared without any hashing.

use super::Tree;
use std::collections::HashSet;

impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        let mut stack: Vec<(&Tree, &Tree)> = vec![(self, other)];
        let mut seen: HashSet<(usize, usize)> = HashSet::new();
        while let Some((a, b)) = stack.pop() {
            if a.ptr_eq(b) {
                continue;
            }
            if a.size() != b.size() {
                return false;
            }
            let (Some((af, ab)), Some((bf, bb))) = (a.split(), b.split()) else {
                // Equal sizes and not both Nil: only Nil has size 0.
                return false;
            };
            if (a.is_shared() || b.is_shared()) && !seen.insert((a.node_id(), b.node_id())) {
                continue;
            }
            stack.push((ab, bb));
            stack.push((af, bf));
        }
        true
    }
}

impl Eq for Tree {}

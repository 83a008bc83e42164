//! The robots' input: `(index, allRobots, allActions, items, private)`.

use super::ResolvedSquare;
use super::remembered::{encode_frame, encode_items};
use crate::encoding::Encode;
use crate::tree::Tree;
use crate::world::Action;

/// The parts of the input that every robot of a square shares, encoded once.
pub struct SharedInput {
    robots: Tree,
    actions: Tree,
    items: Tree,
}

impl SharedInput {
    /// Encodes the robot list (frames and inventories only), the action list
    /// (`Passed` and `Invalid` alike, results hidden) and the items as
    /// `(unaffected, dropped, fallen)`.
    /// Item lists and frames are encoded through [`encode_items`] and
    /// [`encode_frame`], so those that did not change since they were last
    /// encoded are not encoded again.
    pub fn new(square: &ResolvedSquare) -> SharedInput {
        // `encode (f, i)` for every robot (see `Robot`'s `Encode`).
        let robots = square
            .all_robots
            .iter()
            .map(|r| Tree::cons(encode_frame(&r.frame), encode_items(&r.inventory)));
        let items = Tree::cons(
            encode_items(&square.unaffected),
            Tree::cons(encode_items(&square.dropped), square.fallen.encode()),
        );
        SharedInput {
            robots: Tree::list(robots),
            actions: square.all_actions.encode(),
            items,
        }
    }

    /// The 5-tuple for the robot at `index` of `allRobots`, whose action was
    /// `action`. Tuples have no terminal Nil, so trimming to the input
    /// register cuts the private part first, then the items, and so on.
    pub fn input_for(&self, index: usize, action: &Action) -> Tree {
        let tail = Tree::cons(self.items.clone(), private_input(action));
        let tail = Tree::cons(self.actions.clone(), tail);
        Tree::cons(index.encode(), Tree::cons(self.robots.clone(), tail))
    }
}

/// The report's `privateInput`: `1` after an invalid command, the inspected
/// robot's `(processor, number of registers, registers)` after a successful
/// `Inspect`, else `0`.
pub fn private_input(action: &Action) -> Tree {
    match action {
        Action::Invalid => 1i64.encode(),
        Action::Inspected(_, r) => (r.processor, r.memory.len(), &r.memory).encode(),
        _ => 0i64.encode(),
    }
}

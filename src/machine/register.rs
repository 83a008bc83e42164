//! Registers and the three ways a tree is put into one: `setTree` (checked,
//! see [`super::execute`]), `forceR` ([`Register::force`]) and `fitR`
//! ([`Register::fit`], which [`trim`]s).

use crate::encoding::Encode;
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// A register: a tree and the largest size it may hold (the report's `R`).
///
/// Limits are the report's `Int` and may be negative; a register with a
/// negative limit cannot hold even Nil through a checked write.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Register {
    /// Maximum number of conses the register may hold.
    pub limit: i64,
    /// The tree it holds.
    pub contents: Tree,
}

/// A machine's memory: register 0 program, 1 input, 2 output, then workspace.
pub type Memory = Vec<Register>;

impl Register {
    /// A register with the given limit and contents (not checked).
    pub fn new(limit: i64, contents: Tree) -> Self {
        Register { limit, contents }
    }

    /// The report's `forceR`: the tree if it fits the limit, else Nil.
    pub fn force(&mut self, tree: Tree) {
        self.contents = if tree.fits(self.limit) {
            tree
        } else {
            Tree::NIL
        };
    }

    /// `forceR` as a new register.
    pub fn forced(&self, tree: Tree) -> Register {
        let mut r = Register::new(self.limit, Tree::NIL);
        r.force(tree);
        r
    }

    /// The report's `fitR`: the encoding, trimmed from the right to the limit.
    pub fn fit<T: Encode + ?Sized>(&mut self, value: &T) {
        self.fit_tree(value.encode());
    }

    /// `fitR` on an already encoded tree.
    pub fn fit_tree(&mut self, tree: Tree) {
        let trimmed = trim(self.limit, &tree);
        self.force(trimmed);
    }
}

/// The report's `trim`: cut a tree from the right until it has at most
/// `limit` conses.
///
/// Only the right spine is walked. Each front that fits *strictly* within the
/// remaining budget is kept whole (with its cons); at the first front that
/// does not, the rest of the spine becomes Nil. Nothing inside a front is
/// ever trimmed. The untouched part is shared, not copied.
pub fn trim(limit: i64, tree: &Tree) -> Tree {
    let mut kept: Vec<&Tree> = Vec::new();
    let mut budget = limit;
    let mut rest = tree;
    let tail = loop {
        let Some((front, back)) = rest.split() else {
            break Tree::NIL;
        };
        if rest.fits(budget) {
            break rest.clone();
        }
        if budget > 0 && front.size() < budget as u64 {
            kept.push(front);
            budget -= front.size() as i64 + 1;
            rest = back;
        } else {
            break Tree::NIL;
        }
    };
    kept.into_iter()
        .rev()
        .fold(tail, |t, front| Tree::cons(front.clone(), t))
}

/// `encode r = encode (limit r, contents r)`.
impl Encode for Register {
    fn encode(&self) -> Tree {
        Tree::cons(self.limit.encode(), self.contents.clone())
    }
}

impl crate::encoding::Decode for Register {
    fn decode(tree: &Tree) -> Option<Self> {
        let (limit, contents) = <(i64, Tree)>::decode(tree)?;
        Some(Register { limit, contents })
    }
}

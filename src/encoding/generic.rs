//! The generic instances: Constree, Bool, Maybe, lists and tuples.

use super::{Decode, Encode};
use crate::tree::Tree;

impl Encode for Tree {
    fn encode(&self) -> Tree {
        self.clone()
    }
}

impl Decode for Tree {
    fn decode(tree: &Tree) -> Option<Self> {
        Some(tree.clone())
    }
}

impl Encode for bool {
    fn encode(&self) -> Tree {
        if *self { Tree::unit() } else { Tree::NIL }
    }
}

impl Decode for bool {
    fn decode(tree: &Tree) -> Option<Self> {
        match tree.split() {
            None => Some(false),
            Some((f, b)) if f.is_nil() && b.is_nil() => Some(true),
            Some(_) => None,
        }
    }
}

impl<T: Encode> Encode for Option<T> {
    fn encode(&self) -> Tree {
        match self {
            None => Tree::NIL,
            Some(x) => Tree::cons(Tree::NIL, x.encode()),
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    fn decode(tree: &Tree) -> Option<Self> {
        match tree.split() {
            None => Some(None),
            Some((f, x)) if f.is_nil() => T::decode(x).map(Some),
            Some(_) => None,
        }
    }
}

impl<T: Encode> Encode for [T] {
    fn encode(&self) -> Tree {
        Tree::list(self.iter().map(Encode::encode))
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self) -> Tree {
        self.as_slice().encode()
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(tree: &Tree) -> Option<Self> {
        let mut elements = tree.iter_list();
        let decoded = elements
            .by_ref()
            .map(T::decode)
            .collect::<Option<Vec<T>>>()?;
        // A list spine always ends in Nil, so nothing is left over.
        debug_assert!(elements.rest().is_nil());
        Some(decoded)
    }
}

impl<A: Encode, B: Encode> Encode for (A, B) {
    fn encode(&self) -> Tree {
        Tree::cons(self.0.encode(), self.1.encode())
    }
}

impl<A: Decode, B: Decode> Decode for (A, B) {
    fn decode(tree: &Tree) -> Option<Self> {
        let (a, b) = tree.split()?;
        Some((A::decode(a)?, B::decode(b)?))
    }
}

impl<A: Encode, B: Encode, C: Encode> Encode for (A, B, C) {
    fn encode(&self) -> Tree {
        Tree::cons(
            self.0.encode(),
            Tree::cons(self.1.encode(), self.2.encode()),
        )
    }
}

impl<A: Decode, B: Decode, C: Decode> Decode for (A, B, C) {
    fn decode(tree: &Tree) -> Option<Self> {
        let (a, (b, c)) = <(A, (B, C))>::decode(tree)?;
        Some((a, b, c))
    }
}

impl<A: Encode, B: Encode, C: Encode, D: Encode, E: Encode> Encode for (A, B, C, D, E) {
    fn encode(&self) -> Tree {
        let tail = Tree::cons(self.3.encode(), self.4.encode());
        let tail = Tree::cons(self.2.encode(), tail);
        Tree::cons(self.0.encode(), Tree::cons(self.1.encode(), tail))
    }
}

impl<A: Decode, B: Decode, C: Decode, D: Decode, E: Decode> Decode for (A, B, C, D, E) {
    fn decode(tree: &Tree) -> Option<Self> {
        let (a, (b, (c, (d, e)))) = <(A, (B, (C, (D, E))))>::decode(tree)?;
        Some((a, b, c, d, e))
    }
}

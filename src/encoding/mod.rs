//! The report's `Encodable` and `Decodable` classes and their generic
//! instances (Appendix "Encoding and Decoding").
//!
//! | type | encoding |
//! |---|---|
//! | `Constree` | itself |
//! | `Bool` | `False` = `Nil`, `True` = `Cons Nil Nil` |
//! | `Maybe t` | `Nothing` = `Nil`, `Just x` = `Cons Nil x` |
//! | `[t]` | `Cons x1 (Cons x2 ... Nil)` |
//! | `(a, b)` | `Cons a b` (no terminal `Nil`) |
//! | `(a, b, c)` | `(a, (b, c))`; 5-tuples nest the same way |
//! | `Int` | see [`int`]: a little-endian bit list, negatives tagged |
//!
//! Decoding is partial (`Option`). Lists are walked along their spine
//! without recursion, so a 10^7-element list decodes safely.

mod generic;
pub mod int;

use crate::tree::Tree;

/// Types with a constree encoding (the report's `Encodable`).
pub trait Encode {
    /// The report's `encode`.
    fn encode(&self) -> Tree;
}

/// Types that can be read back from a constree (the report's `Decodable`).
pub trait Decode: Sized {
    /// The report's `decode`: `None` when the tree is not an encoding.
    fn decode(tree: &Tree) -> Option<Self>;
}

impl<T: Encode + ?Sized> Encode for &T {
    fn encode(&self) -> Tree {
        (**self).encode()
    }
}

#[cfg(test)]
mod tests;

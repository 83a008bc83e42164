//! Trees in the interchange format: the preorder bit string.

use super::Tree;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

impl Serialize for Tree {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_bits())
    }
}

struct BitsVisitor;

impl Visitor<'_> for BitsVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a constree as a preorder string of '0' (Nil) and '1' (Cons)")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Tree, E> {
        Tree::from_bits(text).map_err(|e| E::custom(format!("bad constree: {e}")))
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tree, D::Error> {
        deserializer.deserialize_str(BitsVisitor)
    }
}

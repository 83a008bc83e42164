//! Trees in the interchange format: the preorder bit string.

use super::Tree;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// The longest preorder text a tree is written as: 64 MiB, or
/// `$CONSTREE_MAX_TEXT` bytes. The text cannot express shared nodes, so a
/// tree of a few dozen nodes can stand for terabytes of it.
pub fn max_text() -> u64 {
    static MAX: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        std::env::var("CONSTREE_MAX_TEXT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(64 << 20)
    })
}

/// The preorder bit string; a tree whose text would pass [`max_text`] is
/// an error that says so (rather than gigabytes of output).
impl Serialize for Tree {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let chars = self.size().saturating_mul(2).saturating_add(1);
        if chars > max_text() {
            return Err(serde::ser::Error::custom(format!(
                "a tree of {} conses would be {chars} characters of preorder text, over the limit of {} \
                 (its nodes are shared, which the text cannot express; a replay or an image stores it compactly; \
                 CONSTREE_MAX_TEXT=BYTES raises the limit)",
                self.size(),
                max_text()
            )));
        }
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

//! Trees in the interchange format: the preorder bit string, or, in the
//! shared form, the number of a node in a node table (see [`write_shared`]).

use super::Tree;
use super::table::{ForwardNode, NodeTable, trees_from_nodes};
use rustc_hash::FxHashMap;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::cell::RefCell;
use std::fmt;

thread_local! {
    /// While [`write_shared`] runs: the table trees are written into.
    static WRITING: RefCell<Option<NodeTable>> = const { RefCell::new(None) };
    /// While [`read_shared`] runs: the trees node numbers stand for.
    static READING: RefCell<Option<Vec<Tree>>> = const { RefCell::new(None) };
    /// While [`read_deduplicated`] runs: the trees read so far, by their
    /// preorder text.
    static TEXTS: RefCell<Option<FxHashMap<Box<str>, Tree>>> = const { RefCell::new(None) };
}

/// Texts shorter than this are read anew each time: they build few nodes.
const DEDUPLICATED_TEXT: usize = 16;

/// Runs `f` (which deserializes something) with equal preorder texts read
/// as one tree: the second time a text (of 16 characters or more) occurs,
/// it is the tree read the first time, shared, not a copy. Trees are
/// immutable, so the value read is the same; it takes fewer nodes and
/// less time (a world's robots often hold the same programs).
pub fn read_deduplicated<R>(f: impl FnOnce() -> R) -> R {
    let previous = TEXTS.with(|t| t.replace(Some(FxHashMap::default())));
    let result = f();
    TEXTS.with(|t| t.replace(previous));
    result
}

/// The tree of a preorder text, from the texts [`read_deduplicated`] saw
/// when it runs and the text is long enough.
fn tree_of_text(text: &str) -> Result<Tree, super::ParseTreeError> {
    if text.len() < DEDUPLICATED_TEXT {
        return Tree::from_bits(text);
    }
    TEXTS.with(|t| match t.borrow_mut().as_mut() {
        None => Tree::from_bits(text),
        Some(texts) => {
            if let Some(tree) = texts.get(text) {
                return Ok(tree.clone());
            }
            let tree = Tree::from_bits(text)?;
            texts.insert(text.into(), tree.clone());
            Ok(tree)
        }
    })
}

/// Runs `f` (which serializes something) with every tree written as the
/// number of its node in one node table instead of its preorder text, and
/// gives the table: `(front, back)` per node, 0 for Nil, as in images. A
/// tree's nodes are written once however often they are shared, so the
/// output grows with the distinct nodes, not with the logical size.
pub fn write_shared<R>(f: impl FnOnce() -> R) -> (R, Vec<(u64, u64)>) {
    let previous = WRITING.with(|w| w.replace(Some(NodeTable::default())));
    let result = f();
    let table = WRITING.with(|w| w.replace(previous)).unwrap_or_default();
    (result, table.into_nodes())
}

/// Runs `f` (which deserializes something) with tree numbers read as the
/// trees of `nodes`, a node table as [`write_shared`] gives it; preorder
/// text is still read as well. A table whose nodes refer forward is an
/// error.
pub fn read_shared<R>(nodes: &[(u64, u64)], f: impl FnOnce() -> R) -> Result<R, ForwardNode> {
    let trees = trees_from_nodes(nodes)?;
    let previous = READING.with(|r| r.replace(Some(trees)));
    let result = f();
    READING.with(|r| r.replace(previous));
    Ok(result)
}

/// The longest preorder text a tree is written as:
/// [`crate::limits::MAX_TEXT`] (64 MiB, or `$CONSTREE_MAX_TEXT` bytes). The
/// text cannot express shared nodes, so a tree of a few dozen nodes can
/// stand for terabytes of it.
pub fn max_text() -> u64 {
    crate::limits::MAX_TEXT.get()
}

/// The preorder bit string; a tree whose text would pass [`max_text`] is
/// an error that says so (rather than gigabytes of output). Inside
/// [`write_shared`], the number of its node.
impl Serialize for Tree {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(id) = WRITING.with(|w| w.borrow_mut().as_mut().map(|t| t.id(self))) {
            return serializer.serialize_u64(id);
        }
        let chars = self.size().saturating_mul(2).saturating_add(1);
        if chars > max_text() {
            return Err(serde::ser::Error::custom(format!(
                "a tree of {} conses would be {chars} characters of preorder text, over the limit of {} \
                 (--shared prints every tree as a node of one table, which is small when its nodes are \
                 shared; CONSTREE_MAX_TEXT=BYTES raises the limit)",
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
        tree_of_text(text).map_err(|e| E::custom(format!("bad constree: {e}")))
    }

    fn visit_u64<E: de::Error>(self, id: u64) -> Result<Tree, E> {
        READING.with(|r| match r.borrow().as_ref() {
            Some(trees) => trees.get(id as usize).cloned().ok_or_else(|| {
                E::custom(format!(
                    "node {id} is not in the node table ({} nodes)",
                    trees.len() - 1
                ))
            }),
            None => Err(E::custom(
                "a node number, but this is not the shared form (no node table)",
            )),
        })
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tree, D::Error> {
        if READING.with(|r| r.borrow().is_some()) {
            deserializer.deserialize_any(BitsVisitor)
        } else {
            deserializer.deserialize_str(BitsVisitor)
        }
    }
}

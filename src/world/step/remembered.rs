//! Item lists' and frames' encodings, remembered from one step to the next.
//!
//! Most squares' items and most robots' inventories and frames are the same
//! as in the step before, and every robot that stays reads them in its
//! input. Each thread keeps the encodings of the item lists it encoded
//! lately, keyed by the items themselves (a register part by its limit and
//! the address of its contents' node), and of the frames, so an unchanged
//! list or frame is the same tree again instead of a new encoding built and
//! freed every step.
//!
//! A remembered encoding holds the register parts' contents, so their nodes
//! live as long as the entry does and no other node can take their address
//! meanwhile: equal keys are equal items.

use crate::encoding::Encode;
use crate::tree::Tree;
use crate::world::{Frame, Item};
use rustc_hash::{FxHashMap, FxHasher};
use std::cell::RefCell;
use std::hash::{Hash, Hasher};

/// The most lists (and the most frames) a thread remembers; past it, it
/// forgets them all.
const REMEMBERED_LISTS: usize = 4096;

/// An item as a key: equal keys are equal items.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum ItemKey {
    Cargo(i64, i64),
    Register(i64, usize),
    Processor(i64),
    Frame(u8, i64),
    Shield,
}

impl ItemKey {
    fn of(item: &Item) -> ItemKey {
        match item {
            Item::Cargo(t, w) => ItemKey::Cargo(*t, *w),
            Item::RegisterPart(r) => ItemKey::Register(r.limit, r.contents.node_id()),
            Item::ProcessorPart(p) => ItemKey::Processor(p.speed),
            Item::FramePart(f) => ItemKey::Frame(f.color as u8, f.strength),
            Item::Shield => ItemKey::Shield,
        }
    }
}

/// Remembered encodings by the hash of their list's keys.
type Lists = FxHashMap<u64, (Box<[ItemKey]>, Tree)>;

thread_local! {
    static LISTS: RefCell<Lists> = RefCell::new(Lists::default());
    static FRAMES: RefCell<FxHashMap<Frame, Tree>> = RefCell::new(FxHashMap::default());
}

/// `frame.encode()`, the remembered tree when the same frame was encoded
/// before on this thread.
pub fn encode_frame(frame: &Frame) -> Tree {
    let found = FRAMES.try_with(|frames| frames.borrow().get(frame).cloned());
    if let Ok(Some(tree)) = found {
        return tree;
    }
    let tree = frame.encode();
    // While the thread ends, the frame is not remembered.
    let _ = FRAMES.try_with(|frames| {
        let mut frames = frames.borrow_mut();
        if frames.len() >= REMEMBERED_LISTS {
            frames.clear();
        }
        frames.insert(*frame, tree.clone());
    });
    tree
}

/// `items.encode()`, the remembered tree when the same list was encoded
/// before on this thread.
pub fn encode_items(items: &[Item]) -> Tree {
    if items.is_empty() {
        return Tree::NIL;
    }
    let mut hasher = FxHasher::default();
    for item in items {
        ItemKey::of(item).hash(&mut hasher);
    }
    let hash = hasher.finish();
    let same = |keys: &[ItemKey]| {
        keys.len() == items.len() && keys.iter().zip(items).all(|(k, i)| *k == ItemKey::of(i))
    };
    let found = LISTS.try_with(|lists| {
        lists
            .borrow()
            .get(&hash)
            .filter(|(keys, _)| same(keys))
            .map(|(_, tree)| tree.clone())
    });
    if let Ok(Some(tree)) = found {
        return tree;
    }
    let tree = items.encode();
    let keys: Box<[ItemKey]> = items.iter().map(ItemKey::of).collect();
    // While the thread ends, the list is not remembered.
    let _ = LISTS.try_with(|lists| {
        let mut lists = lists.borrow_mut();
        if lists.len() >= REMEMBERED_LISTS {
            lists.clear();
        }
        lists.insert(hash, (keys, tree.clone()));
    });
    tree
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Register;
    use crate::world::{Color, Frame, Processor};

    fn items(contents: &Tree) -> Vec<Item> {
        vec![
            Item::Cargo(-1, 7),
            Item::RegisterPart(Register::new(4096, contents.clone())),
            Item::ProcessorPart(Processor { speed: 3 }),
            Item::FramePart(Frame {
                color: Color::Violet,
                strength: 100,
            }),
            Item::Shield,
        ]
    }

    #[test]
    fn the_same_list_is_the_same_tree() {
        let contents = Tree::list([Tree::unit(), Tree::NIL]);
        let list = items(&contents);
        let first = encode_items(&list);
        assert_eq!(first, list.encode());
        assert!(encode_items(&list).ptr_eq(&first));
        assert!(encode_items(&[]).is_nil());
    }

    #[test]
    fn the_same_frame_is_the_same_tree() {
        let frame = Frame {
            color: Color::Violet,
            strength: -3,
        };
        let first = encode_frame(&frame);
        assert_eq!(first, frame.encode());
        assert!(encode_frame(&frame).ptr_eq(&first));
        let other = Frame {
            strength: 3,
            ..frame
        };
        assert_eq!(encode_frame(&other), other.encode());
        assert_ne!(encode_frame(&other), first);
    }

    #[test]
    fn a_changed_list_is_encoded_again() {
        let contents = Tree::list([Tree::unit(), Tree::NIL]);
        let list = items(&contents);
        let first = encode_items(&list);
        // Equal contents in another node: a new key, the same value.
        let mut other = items(&Tree::list([Tree::unit(), Tree::NIL]));
        assert_eq!(encode_items(&other), first);
        other[0] = Item::Cargo(-1, 8);
        assert_eq!(encode_items(&other), other.encode());
        other.pop();
        assert_eq!(encode_items(&other), other.encode());
        assert_ne!(encode_items(&other), first);
    }
}

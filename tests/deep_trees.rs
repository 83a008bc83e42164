//! Trees of 10^7 nodes, as long lists and as deep left spines: built,
//! compared, printed, parsed and dropped without overflowing the stack.

use constree::encoding::{Decode, Encode};
use constree::tree::Tree;

const N: usize = 10_000_000;

fn long_list() -> Tree {
    (0..N).fold(Tree::NIL, |t, _| Tree::cons(Tree::NIL, t))
}

fn left_spine() -> Tree {
    (0..N).fold(Tree::NIL, |t, _| Tree::cons(t, Tree::NIL))
}

fn exercise(build: fn() -> Tree) {
    let a = build();
    let b = build();
    assert_eq!(a.size(), N as u64);
    assert!(!a.ptr_eq(&b));
    assert_eq!(a, b);
    let text = a.to_bits();
    assert_eq!(text.len(), 2 * N + 1);
    let parsed = Tree::from_bits(&text).unwrap();
    assert_eq!(parsed, a);
    let shown = a.readable().limit(100).to_string();
    assert!(shown.ends_with('…'));
    let different = Tree::cons(Tree::unit(), a.back().cloned().unwrap_or_default());
    assert_ne!(different, b);
    drop((a, b, parsed, different));
}

#[test]
fn long_lists() {
    exercise(long_list);
}

#[test]
fn deep_left_spines() {
    exercise(left_spine);
}

#[test]
fn long_lists_encode_and_decode() {
    let bits = vec![true; N];
    let t = bits.encode();
    assert_eq!(Vec::<bool>::decode(&t).map(|v| v.len()), Some(N));
    // A 10^7-bit Int decodes too (GHC keeps the low 64 bits).
    assert_eq!(i64::decode(&t), Some(-1));
}

#[test]
fn readable_form_of_a_deep_spine() {
    let depth = 1_000_000;
    let t = (0..depth).fold(Tree::NIL, |t, _| Tree::cons(t, Tree::NIL));
    let text = t.readable().to_string();
    assert_eq!(text.len(), 2 * depth + 2);
    assert_eq!(Tree::from_readable(&text).unwrap(), t);
}

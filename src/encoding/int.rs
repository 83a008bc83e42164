//! `Int`: the report's bit-list encoding, with GHC's 64-bit arithmetic.
//!
//! A non-negative `n` is the list of its bits, least significant first, with
//! no terminator and no trailing zero: `0` is `[]` (Nil), `6` is
//! `[False, True, True]`. A negative `n` is `Cons NEG (encode (negate n))`
//! where `NEG = Cons Nil (Cons Nil Nil)`, a tree that is not a Bool, so it can
//! never be mistaken for a bit.
//!
//! Decoding follows the report's code exactly:
//! * the tag may nest: `--5` decodes to `5` and `-0` to `0`;
//! * trailing `False` bits are accepted;
//! * the value is computed as GHC's `Int` would: bits at position 64 and above
//!   vanish (2^64 wraps to 0) and `negate` wraps, so a long bit list or a huge
//!   negation decodes to the same number the reference gets.
//!
//! One corner differs from the report, because the report never ends:
//! `encode minBound` there is an infinite tree (`negate minBound == minBound`).
//! constree encodes `i64::MIN` as the tag followed by the 64 bits of 2^63,
//! which decodes back to `i64::MIN`.

use super::{Decode, Encode};
use crate::tree::Tree;

/// The negative tag, `Cons Nil (Cons Nil Nil)`.
pub fn negative_tag() -> Tree {
    Tree::cons(Tree::NIL, Tree::unit())
}

fn is_negative_tag(t: &Tree) -> bool {
    matches!(t.split(), Some((f, b)) if f.is_nil() && b.size() == 1)
}

/// Magnitudes below this are encoded once per thread and shared.
const SHARED_MAGNITUDES: u64 = 4096;

thread_local! {
    /// The encodings of `0 .. SHARED_MAGNITUDES`. Each shares its tail with
    /// the encoding of half its value. The table is never dropped (its nodes
    /// go with the thread's node pool), so no destructor touches a tree while
    /// the thread ends.
    static MAGNITUDES: std::cell::OnceCell<std::mem::ManuallyDrop<Vec<Tree>>> =
        const { std::cell::OnceCell::new() };
}

fn magnitude_table() -> Vec<Tree> {
    let unit = Tree::unit();
    let mut table: Vec<Tree> = Vec::with_capacity(SHARED_MAGNITUDES as usize);
    table.push(Tree::NIL);
    for n in 1..SHARED_MAGNITUDES as usize {
        let bit = if n & 1 == 1 { unit.clone() } else { Tree::NIL };
        table.push(Tree::cons(bit, table[n >> 1].clone()));
    }
    table
}

/// The encoding of `n < SHARED_MAGNITUDES` from the thread's table (`None`
/// while the thread ends and its table is gone).
fn shared_magnitude(n: u64) -> Option<Tree> {
    MAGNITUDES
        .try_with(|t| {
            t.get_or_init(|| std::mem::ManuallyDrop::new(magnitude_table()))[n as usize].clone()
        })
        .ok()
}

/// The bit list of a magnitude, least significant bit first: the shared
/// encoding of its high bits (below [`SHARED_MAGNITUDES`]) with its low
/// bits consed in front, without a buffer.
pub fn encode_magnitude(n: u64) -> Tree {
    let mut shift = 0;
    while n >> shift >= SHARED_MAGNITUDES {
        shift += 1;
    }
    let (mut tree, mut shift) = match shared_magnitude(n >> shift) {
        Some(tail) => (tail, shift),
        None => (Tree::NIL, 64 - n.leading_zeros()),
    };
    while shift > 0 {
        shift -= 1;
        tree = Tree::cons((n >> shift & 1 == 1).encode(), tree);
    }
    tree
}

impl Encode for i64 {
    fn encode(&self) -> Tree {
        let magnitude = encode_magnitude(self.unsigned_abs());
        if *self < 0 {
            Tree::cons(negative_tag(), magnitude)
        } else {
            magnitude
        }
    }
}

impl Decode for i64 {
    fn decode(tree: &Tree) -> Option<Self> {
        let mut negations = 0u32;
        let mut t = tree;
        while let Some((front, back)) = t.split() {
            if !is_negative_tag(front) {
                break;
            }
            negations ^= 1;
            t = back;
        }
        let mut value: u64 = 0;
        for (position, bit) in t.iter_list().enumerate() {
            if bool::decode(bit)? && position < 64 {
                value |= 1 << position;
            }
        }
        let value = value as i64;
        Some(if negations == 1 {
            value.wrapping_neg()
        } else {
            value
        })
    }
}

impl Encode for usize {
    fn encode(&self) -> Tree {
        (*self as i64).encode()
    }
}

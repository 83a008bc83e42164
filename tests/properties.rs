//! Property tests: decoding an encoding gives the value back, for every type
//! the report can decode, and the text forms of trees round-trip.

mod strategies;

use constree::encoding::{Decode, Encode};
use constree::machine::{Memory, Register};
use constree::tree::Tree;
use constree::world::Command;
use proptest::prelude::*;
use strategies::{direction, instruction};

fn tree() -> impl Strategy<Value = Tree> {
    strategies::tree(12, 200)
}

fn register() -> impl Strategy<Value = Register> {
    strategies::register(tree())
}

fn memory() -> impl Strategy<Value = Memory> {
    prop::collection::vec(register(), 0..6)
}

fn command() -> impl Strategy<Value = Command> {
    strategies::command(0..5, memory())
}

fn round_trips<T: Encode + Decode + PartialEq + std::fmt::Debug>(value: &T) {
    assert_eq!(T::decode(&value.encode()).as_ref(), Some(value));
}

proptest! {
    #[test]
    fn ints(n in any::<i64>()) {
        round_trips(&n);
    }

    #[test]
    fn bools(b in any::<bool>()) {
        round_trips(&b);
    }

    #[test]
    fn maybes(m in prop::option::of(any::<i64>())) {
        round_trips(&m);
    }

    #[test]
    fn lists(v in prop::collection::vec(any::<i64>(), 0..20)) {
        round_trips(&v);
    }

    #[test]
    fn tuples(t in (any::<i64>(), any::<bool>(), prop::collection::vec(any::<bool>(), 0..4))) {
        round_trips(&(t.0, t.1));
        round_trips(&t);
        round_trips(&(t.0, t.1, t.2.clone(), Some(t.0), t.1));
    }

    #[test]
    fn constrees(t in tree()) {
        round_trips(&t);
    }

    #[test]
    fn instructions(i in instruction()) {
        round_trips(&i);
    }

    #[test]
    fn commands(c in command()) {
        round_trips(&c);
    }

    #[test]
    fn directions(d in direction()) {
        round_trips(&d);
    }

    #[test]
    fn registers(r in register()) {
        round_trips(&r);
    }

    #[test]
    fn memories(m in memory()) {
        round_trips(&m);
    }

    #[test]
    fn preorder_text(t in tree()) {
        let text = t.to_bits();
        prop_assert_eq!(text.len() as u64, 2 * t.size() + 1);
        prop_assert_eq!(Tree::from_bits(&text).unwrap(), t);
    }

    #[test]
    fn readable_text(t in tree()) {
        let text = t.readable().to_string();
        prop_assert_eq!(Tree::from_readable(&text).unwrap(), t);
    }

    #[test]
    fn non_canonical_ints_decode_to_the_same_number(n in 0i64..1_000_000, zeros in 0usize..5, negations in 0usize..4) {
        // Trailing False bits and nested negative tags.
        let mut bits: Vec<Tree> = n.encode().iter_list().cloned().collect();
        bits.extend(std::iter::repeat_n(Tree::NIL, zeros));
        let mut t = Tree::list(bits);
        for _ in 0..negations {
            t = Tree::cons(constree::encoding::int::negative_tag(), t);
        }
        let expected = if negations % 2 == 1 { -n } else { n };
        prop_assert_eq!(i64::decode(&t), Some(expected));
    }
}

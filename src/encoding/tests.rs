use super::*;
use crate::tree::Tree;

fn bits(s: &str) -> Tree {
    Tree::from_bits(s).unwrap()
}

#[test]
fn ints_encode_as_little_endian_bits() {
    assert_eq!(0i64.encode().to_bits(), "0");
    assert_eq!(1i64.encode().to_bits(), "11000");
    assert_eq!(2i64.encode().to_bits(), "1011000");
    assert_eq!((-1i64).encode().to_bits(), "11010011000");
}

#[test]
fn ints_decode_the_reports_quirks() {
    // Trailing false bits.
    assert_eq!(i64::decode(&bits("1100100")), Some(1));
    // Negative zero and double negation.
    assert_eq!(i64::decode(&bits("1101000")), Some(0));
    let minus_minus_one = Tree::cons(int::negative_tag(), (-1i64).encode());
    assert_eq!(i64::decode(&minus_minus_one), Some(1));
    // A bit that is not a Bool.
    assert_eq!(i64::decode(&bits("1110000")), None);
    // The tag is only a tag in front.
    let tag_as_bit = Tree::list([Tree::NIL, int::negative_tag()]);
    assert_eq!(i64::decode(&tag_as_bit), None);
}

#[test]
fn ints_wrap_like_ghc() {
    // 65 bits: the 2^64 bit vanishes.
    let mut list: Vec<Tree> = vec![Tree::NIL; 64];
    list.push(Tree::unit());
    list[0] = Tree::unit();
    assert_eq!(i64::decode(&Tree::list(list)), Some(1));
    assert_eq!(i64::decode(&i64::MIN.encode()), Some(i64::MIN));
    assert_eq!(i64::decode(&i64::MAX.encode()), Some(i64::MAX));
    let two_to_63 = encode_bits_of(1u64 << 63);
    assert_eq!(i64::decode(&two_to_63), Some(i64::MIN));
}

fn encode_bits_of(n: u64) -> Tree {
    int::encode_magnitude(n)
}

#[test]
fn generic_instances() {
    assert_eq!(true.encode(), Tree::unit());
    assert_eq!(bool::decode(&bits("11000")), None);
    assert_eq!(Some(3i64).encode(), Tree::cons(Tree::NIL, 3i64.encode()));
    assert_eq!(Option::<i64>::decode(&Tree::NIL), Some(None));
    assert_eq!(Option::<i64>::decode(&bits("1100100")), None);
    let pair = (1i64, true).encode();
    assert_eq!(<(i64, bool)>::decode(&pair), Some((1, true)));
    assert_eq!(<(i64, bool)>::decode(&Tree::NIL), None);
    let triple = (1i64, 2i64, 3i64).encode();
    assert_eq!(triple, (1i64, (2i64, 3i64)).encode());
    assert_eq!(<(i64, i64, i64)>::decode(&triple), Some((1, 2, 3)));
    let v = vec![1i64, -2, 3];
    assert_eq!(Vec::<i64>::decode(&v.encode()), Some(v));
}

#[test]
fn long_lists_decode_without_recursion() {
    let n = 1_000_000;
    let t = Tree::list((0..n).map(|_| Tree::unit()));
    let v = Vec::<bool>::decode(&t).unwrap();
    assert_eq!(v.len(), n);
}

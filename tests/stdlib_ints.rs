//! `std/ints` in the machine: every routine on edge cases (zero, negative
//! numbers, 64-bit extremes, numbers wider than 64 bits, non-canonical
//! forms: trailing zero bits, -0, nested tags), against values computed in
//! Rust; proptests of the arithmetic against Rust's integers; and every
//! routine's tick cost against the formula documented in
//! `stdlib/ints.cta` and docs/stdlib.md (std/ints).
//!
//! Results are checked exactly (as `i128`, structurally against the
//! canonical encoding) and as the engine decodes them (`i64::decode`, which
//! wraps like Haskell's `Int`, so it must agree with Rust's wrapping
//! arithmetic).

mod stdlib_common;

use constree::encoding::{Decode, Encode};
use constree::tree::Tree;
use proptest::prelude::*;
use stdlib_common::*;

// ---------------------------------------------------------------------------
// Forms of an Int.

/// An encoding of `value` with `zeros` trailing 0 bits and `tags` negative
/// tags (odd for a negative value, even for a positive one, any for 0).
fn form(value: i128, zeros: usize, tags: usize) -> Tree {
    assert!(
        value == 0 || (value < 0) == (tags % 2 == 1),
        "tags must match the sign"
    );
    let mut magnitude = value.unsigned_abs();
    let mut list = Vec::new();
    while magnitude != 0 {
        list.push(magnitude & 1 == 1);
        magnitude >>= 1;
    }
    list.extend(std::iter::repeat_n(false, zeros));
    let mut t = bits(&list);
    for _ in 0..tags {
        t = tagged(t);
    }
    t
}

/// The shape of an encoding: its number of tags, the length of its bit
/// list and its exact value.
struct Shape {
    tags: u64,
    len: u64,
    value: i128,
}

fn shape(t: &Tree) -> Shape {
    let mut tags = 0;
    let mut rest = t;
    while let Some((f, b)) = rest.split() {
        if *f != neg_tag() {
            break;
        }
        tags += 1;
        rest = b;
    }
    Shape {
        tags,
        len: rest.list_len() as u64,
        value: dec128(t).expect("an Int"),
    }
}

impl Shape {
    fn magnitude(&self) -> u128 {
        self.value.unsigned_abs()
    }
    /// Whether the sign the routines see is negative (an odd number of
    /// tags), whatever the value.
    fn negative(&self) -> bool {
        self.tags % 2 == 1
    }
    /// The strip cost s: 2 + 7 per tag + 1 per pair of tags + 4 if the bit
    /// list is not empty.
    fn s(&self) -> u64 {
        2 + 7 * self.tags + self.tags / 2 + if self.len > 0 { 4 } else { 0 }
    }
    /// Trailing zeros beyond the canonical bits.
    fn z(&self) -> u64 {
        self.len - bitlen(self.magnitude())
    }
}

/// Every form of `n` the tests try: canonical, with trailing zeros, with
/// extra pairs of tags, -0 variants for 0.
fn forms(n: i128) -> Vec<Tree> {
    let base = usize::from(n < 0);
    let mut v = vec![
        form(n, 0, base),
        form(n, 1, base),
        form(n, 3, base),
        form(n, 0, base + 2),
        form(n, 2, base + 4),
    ];
    if n == 0 {
        v.extend([form(0, 0, 1), form(0, 2, 1), form(0, 1, 3)]);
    }
    v
}

fn small_values() -> Vec<i128> {
    let mut v: Vec<i128> = (-9..=9).collect();
    v.extend([
        15,
        16,
        17,
        -15,
        -16,
        -17,
        255,
        -256,
        1 << 40,
        -(1 << 40) - 1,
    ]);
    v
}

// ---------------------------------------------------------------------------
// The documented costs (docs/stdlib.md (std/ints)), for any form.

fn inc_cost(x: &Shape) -> u64 {
    let m = x.magnitude();
    if !x.negative() {
        let c = trailing_ones(m);
        14 + x.s() + 9 * c + if c < x.len { 2 } else { 0 }
    } else if m == 0 {
        12 + x.s() + 5 * x.len
    } else {
        let t = trailing_zeros(m);
        16 + x.s() + 9 * t + if t + 1 < x.len { 2 } else { 0 }
    }
}

fn dec_cost(x: &Shape) -> u64 {
    let m = x.magnitude();
    if x.negative() {
        let c = trailing_ones(m);
        15 + x.s() + 9 * c + if c < x.len { 2 } else { 0 }
    } else if m == 0 {
        11 + x.s() + 5 * x.len
    } else {
        let t = trailing_zeros(m);
        15 + x.s() + 9 * t + if t + 1 < x.len { 2 } else { 0 }
    }
}

fn neg_cost(x: &Shape) -> u64 {
    10 + x.s()
}

fn abs_cost(x: &Shape) -> u64 {
    7 + x.s()
}

fn zero_cost(x: &Shape) -> u64 {
    if x.value == 0 {
        8 + x.s() + 3 * x.len
    } else {
        10 + x.s() + 3 * trailing_zeros(x.magnitude())
    }
}

fn canon_cost(x: &Shape) -> u64 {
    12 + x.s() + 8 * bitlen(x.magnitude()) + 7 * x.z()
}

/// Upper bounds for canonical arguments, L = the longer bit list.
fn add_bound(same_sign: bool, l: u64) -> u64 {
    if same_sign { 50 + 12 * l } else { 60 + 19 * l }
}

fn compare_bound(l: u64) -> u64 {
    45 + 7 * l
}

// ---------------------------------------------------------------------------
// Programs.

fn unary(op: &str) -> Program {
    program("ints", &["x", "r"], &format!("int.{op} r, x"))
}

fn binary(op: &str) -> Program {
    program("ints", &["x", "y", "r"], &format!("int.{op} r, x, y"))
}

fn compare() -> Program {
    program("ints", &["x", "y"], "int.cmp x, y")
}

/// The registers every routine leaves Nil.
const CLEAN: &[&str] = &["int.low", "stack"];

/// Runs a one-argument routine on `x`; checks the result's value, that the
/// internal registers are clean and the cost; returns the result.
fn check_unary(p: &Program, x: &Tree, expected: i128, cost: u64) -> Tree {
    let run = p.run(&[("x", x.clone())]);
    assert_eq!(
        dec128(run.get("r")),
        Some(expected),
        "{} of {x:?} gives {:?}",
        p.source,
        run.get("r")
    );
    run.assert_nil(CLEAN);
    assert_eq!(run.cost(), cost, "cost of {} on {x:?}", p.source);
    run.get("r").clone()
}

// ---------------------------------------------------------------------------
// inc, dec

#[test]
fn inc_and_dec_of_interesting_values() {
    let inc = unary("inc");
    let dec = unary("dec");
    for n in interesting_i64() {
        let x = n.encode();
        let s = shape(&x);
        let up = check_unary(&inc, &x, i128::from(n) + 1, inc_cost(&s));
        assert_eq!(up, enc128(i128::from(n) + 1), "inc {n} is canonical");
        assert_eq!(i64::decode(&up), Some(n.wrapping_add(1)));
        let down = check_unary(&dec, &x, i128::from(n) - 1, dec_cost(&s));
        assert_eq!(down, enc128(i128::from(n) - 1), "dec {n} is canonical");
        assert_eq!(i64::decode(&down), Some(n.wrapping_sub(1)));
    }
}

#[test]
fn inc_and_dec_of_non_canonical_forms() {
    let inc = unary("inc");
    let dec = unary("dec");
    for n in small_values() {
        for x in forms(n) {
            let s = shape(&x);
            check_unary(&inc, &x, n + 1, inc_cost(&s));
            check_unary(&dec, &x, n - 1, dec_cost(&s));
        }
    }
}

#[test]
fn inc_costs_follow_the_carry() {
    // The documented examples: 20 + 9c (+2) for n > 0.
    let inc = unary("inc");
    let cost = |n: i64| inc.run(&[("x", n.encode())]).cost();
    assert_eq!(cost(0), 16);
    assert_eq!(cost(6), 22);
    assert_eq!(cost(1), 29);
    assert_eq!(cost(5), 31);
    assert_eq!(cost(7), 47);
    assert_eq!(cost(11), 40);
    assert_eq!(cost(i64::MAX), 20 + 9 * 63);
    assert_eq!(cost(-1), 29);
    assert_eq!(cost(-8), 56);
    // Independent of the length: 2^62 + 2 costs what 2 costs.
    assert_eq!(cost((1 << 62) + 2), cost(2));
    let dec = unary("dec");
    let cost = |n: i64| dec.run(&[("x", n.encode())]).cost();
    assert_eq!(cost(0), 13);
    assert_eq!(cost(1), 21);
    assert_eq!(cost(3), 23);
    assert_eq!(cost(8), 48);
    assert_eq!(cost(-1), 37);
    assert_eq!(cost(i64::MIN), 30);
}

// ---------------------------------------------------------------------------
// neg, abs, zero, canon

#[test]
fn neg_abs_zero_canon_of_interesting_values() {
    let neg = unary("neg");
    let abs = unary("abs");
    let zero = unary("zero");
    let canon = unary("canon");
    for n in interesting_i64() {
        let x = n.encode();
        let s = shape(&x);
        let v = i128::from(n);
        let r = check_unary(&neg, &x, -v, neg_cost(&s));
        assert_eq!(r, enc128(-v));
        assert_eq!(i64::decode(&r), Some(n.wrapping_neg()));
        let r = check_unary(&abs, &x, v.abs(), abs_cost(&s));
        assert_eq!(r, enc128(v.abs()));
        assert_eq!(i64::decode(&r), Some(n.wrapping_abs()));
        let run = zero.run(&[("x", x.clone())]);
        assert_eq!(run.get("r"), &(n == 0).encode());
        assert_eq!(run.cost(), zero_cost(&s));
        let r = check_unary(&canon, &x, v, canon_cost(&s));
        assert_eq!(r, x, "canon keeps a canonical {n}");
    }
}

#[test]
fn neg_abs_zero_canon_of_non_canonical_forms() {
    let neg = unary("neg");
    let abs = unary("abs");
    let zero = unary("zero");
    let canon = unary("canon");
    for n in small_values() {
        for x in forms(n) {
            let s = shape(&x);
            let r = check_unary(&neg, &x, -n, neg_cost(&s));
            if n == 0 && s.len == 0 {
                assert!(
                    r.is_nil(),
                    "-0 (any number of tags) is Nil, got {r:?} from {x:?}"
                );
            }
            check_unary(&abs, &x, n.abs(), abs_cost(&s));
            let run = zero.run(&[("x", x.clone())]);
            assert_eq!(run.get("r"), &(n == 0).encode(), "zero of {x:?}");
            assert_eq!(run.cost(), zero_cost(&s), "zero of {x:?}");
            let r = check_unary(&canon, &x, n, canon_cost(&s));
            assert_eq!(r, enc128(n), "canon of {x:?}");
        }
    }
}

#[test]
fn canon_examples() {
    let canon = unary("canon");
    let cases = [
        (bits(&[true, false, false]), enc128(1), 40),
        (form(0, 0, 1), Tree::NIL, 21),
        (form(0, 2, 1), Tree::NIL, 39),
        (form(5, 0, 2), enc128(5), 57),
        (form(-5, 1, 3), enc128(-5), 71),
        (Tree::NIL, Tree::NIL, 14),
    ];
    for (x, expected, cost) in cases {
        let run = canon.run(&[("x", x.clone())]);
        assert_eq!(run.get("r"), &expected, "canon of {x:?}");
        assert_eq!(run.cost(), cost, "canon of {x:?}");
    }
}

// ---------------------------------------------------------------------------
// add, sub

fn check_add_sub(add: &Program, sub: &Program, a: &Tree, b: &Tree) {
    let (x, y) = (dec128(a).unwrap(), dec128(b).unwrap());
    let l = shape(a).len.max(shape(b).len);
    let both_canonical = canonical(a) && canonical(b);
    for (p, expected, same_sign) in [
        (add, x + y, shape(a).negative() == shape(b).negative()),
        (sub, x - y, shape(a).negative() != shape(b).negative()),
    ] {
        let run = p.run(&[("x", a.clone()), ("y", b.clone())]);
        let r = run.get("r");
        assert_eq!(dec128(r), Some(expected), "{} on {a:?}, {b:?}", p.source);
        run.assert_nil(CLEAN);
        if both_canonical {
            assert_eq!(
                r,
                &enc128(expected),
                "{}: canonical in, canonical out",
                p.source
            );
            assert!(
                run.cost() <= add_bound(same_sign, l),
                "{} on {x}, {y}: {} ticks, more than {}",
                p.source,
                run.cost(),
                add_bound(same_sign, l)
            );
        }
    }
}

#[test]
fn add_and_sub_of_interesting_values() {
    let add = binary("add");
    let sub = binary("sub");
    let values = interesting_i64();
    for &a in values.iter().step_by(2) {
        for &b in values.iter().step_by(5) {
            check_add_sub(&add, &sub, &a.encode(), &b.encode());
            let run = add.run(&[("x", a.encode()), ("y", b.encode())]);
            assert_eq!(i64::decode(run.get("r")), Some(a.wrapping_add(b)));
            let run = sub.run(&[("x", a.encode()), ("y", b.encode())]);
            assert_eq!(i64::decode(run.get("r")), Some(a.wrapping_sub(b)));
        }
    }
}

#[test]
fn add_and_sub_of_non_canonical_forms() {
    let add = binary("add");
    let sub = binary("sub");
    let values = [0, 1, -1, 2, -3, 5, -8, 12, -12, 255];
    for a in values {
        for b in values {
            for fa in forms(a) {
                for fb in forms(b) {
                    check_add_sub(&add, &sub, &fa, &fb);
                }
            }
        }
    }
}

#[test]
fn add_and_sub_cost_examples() {
    let add = binary("add");
    let sub = binary("sub");
    let cost = |p: &Program, a: i64, b: i64| p.run(&[("x", a.encode()), ("y", b.encode())]).cost();
    let cases: [(&Program, i64, i64, u64); 12] = [
        (&add, 0, 0, 21),
        (&add, 1, 1, 43),
        (&add, 5, 3, 63),
        (&add, 1000, 24, 132),
        (&add, -7, -9, 89),
        (&add, 7, -9, 111),
        (&add, i64::MAX, 1, 600),
        (&add, i64::MAX, i64::MIN, 1068),
        (&sub, 100, 100, 81),
        (&sub, 0, 1, 46),
        (&sub, i64::MAX, 1, 65),
        (&sub, i64::MAX, i64::MAX - 1, 1174),
    ];
    for (p, a, b, ticks) in cases {
        assert_eq!(cost(p, a, b), ticks, "{} on {a}, {b}", p.source);
    }
}

// ---------------------------------------------------------------------------
// compare and the comparison macros

fn check_compare(p: &Program, a: &Tree, b: &Tree) {
    let (x, y) = (dec128(a).unwrap(), dec128(b).unwrap());
    let run = p.run(&[("x", a.clone()), ("y", b.clone())]);
    let flags = (
        run.flag("int.less"),
        run.flag("int.equal"),
        run.flag("int.more"),
    );
    assert_eq!(flags, (x < y, x == y, x > y), "compare {a:?} with {b:?}");
    for r in ["int.less", "int.equal", "int.more"] {
        assert!(
            run.get(r).is_nil() || run.get(r) == &Tree::unit(),
            "{r} is a Bool"
        );
    }
    run.assert_nil(CLEAN);
    if canonical(a) && canonical(b) {
        let l = shape(a).len.max(shape(b).len);
        assert!(
            run.cost() <= compare_bound(l),
            "compare {x}, {y}: {} ticks, more than {}",
            run.cost(),
            compare_bound(l)
        );
    }
}

#[test]
fn compare_interesting_values() {
    let p = compare();
    let values = interesting_i64();
    for &a in values.iter().step_by(2) {
        for &b in values.iter().step_by(3) {
            check_compare(&p, &a.encode(), &b.encode());
        }
    }
}

#[test]
fn compare_non_canonical_forms_as_numbers() {
    let p = compare();
    let values = [0, 1, -1, 2, -2, 5, -5, 16, -16];
    for a in values {
        for b in values {
            for fa in forms(a) {
                for fb in forms(b) {
                    check_compare(&p, &fa, &fb);
                }
            }
        }
    }
}

#[test]
fn compare_cost_examples() {
    let p = compare();
    let cost = |a: i64, b: i64| p.run(&[("x", a.encode()), ("y", b.encode())]).cost();
    let cases = [
        (0, 0, 20),
        (3, 5, 44),
        (5, 5, 48),
        (100, 100, 73),
        (-5, 3, 34),
        (-5, -3, 58),
        (i64::MAX, i64::MAX - 1, 468),
        (i64::MIN, i64::MAX, 223),
    ];
    for (a, b, ticks) in cases {
        assert_eq!(cost(a, b), ticks, "compare {a}, {b}");
    }
}

#[test]
fn comparison_macros() {
    let p = program(
        "ints",
        &["x", "y", "lt", "le", "gt", "ge", "eq", "ne"],
        "int.lt lt, x, y
         int.le le, x, y
         int.gt gt, x, y
         int.ge ge, x, y
         int.eq eq, x, y
         int.ne ne, x, y",
    );
    let values = [i64::MIN, -3, -1, 0, 1, 2, i64::MAX];
    for a in values {
        for b in values {
            let run = p.run(&[("x", a.encode()), ("y", b.encode())]);
            let got: Vec<bool> = ["lt", "le", "gt", "ge", "eq", "ne"]
                .iter()
                .map(|r| {
                    assert!(run.get(r).is_nil() || run.get(r) == &Tree::unit());
                    run.flag(r)
                })
                .collect();
            assert_eq!(
                got,
                vec![a < b, a <= b, a > b, a >= b, a == b, a != b],
                "{a} vs {b}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Numbers wider than 64 bits (exact), and the register limit.

/// Bits of 2^k - 1 and 2^k.
fn ones(k: usize) -> Tree {
    bits(&vec![true; k])
}

fn power(k: usize) -> Tree {
    let mut v = vec![false; k];
    v.push(true);
    bits(&v)
}

#[test]
fn numbers_of_a_thousand_bits() {
    let inc = unary("inc");
    let run = inc.run(&[("x", ones(1000))]);
    assert_eq!(run.get("r"), &power(1000));
    assert_eq!(run.cost(), 20 + 9 * 1000);
    let dec = unary("dec");
    assert_eq!(dec.run(&[("x", power(1000))]).get("r"), &ones(1000));
    let add = binary("add");
    let run = add.run(&[("x", ones(1000)), ("y", ones(1000))]);
    // (2^1000 - 1) * 2 = 2^1001 - 2: a 0 bit, then 1000 ones.
    let mut v = vec![false];
    v.extend(vec![true; 1000]);
    assert_eq!(run.get("r"), &bits(&v));
    assert!(run.cost() <= add_bound(true, 1000));
    let sub = binary("sub");
    let run = sub.run(&[("x", power(1000)), ("y", ones(1000))]);
    assert_eq!(run.get("r"), &enc128(1));
    let run = sub.run(&[("x", ones(1000)), ("y", power(1000))]);
    assert_eq!(run.get("r"), &enc128(-1));
    let p = compare();
    let run = p.run(&[("x", power(1000)), ("y", ones(1000))]);
    assert!(run.flag("int.more"));
    let run = p.run(&[("x", tagged(power(1000))), ("y", tagged(ones(1000)))]);
    assert!(run.flag("int.less"));
}

#[test]
fn the_register_limits_hold_two_thousand_bits() {
    // 2^2040 - 1: 2040 ones = 4080 conses, within int.a's 4096.
    let p = binary("add");
    let run = p.run(&[("x", ones(2040)), ("y", enc128(1))]);
    assert_eq!(run.get("r"), &power(2040));
    assert_eq!(p.image.registers[p.index("int.a")].limit, 4096);
}

// ---------------------------------------------------------------------------
// Properties against Rust's integers.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn add_sub_compare_agree_with_rust(a in any::<i64>(), b in any::<i64>(), shift in 0u32..64) {
        // Shifting spreads the lengths: from 64 bits down to 1.
        let b = b >> shift;
        let add = binary("add");
        let sub = binary("sub");
        for (x, y) in [(a, b), (b, a)] {
            check_add_sub(&add, &sub, &x.encode(), &y.encode());
            let run = add.run(&[("x", x.encode()), ("y", y.encode())]);
            prop_assert_eq!(i64::decode(run.get("r")), Some(x.wrapping_add(y)));
            let run = sub.run(&[("x", x.encode()), ("y", y.encode())]);
            prop_assert_eq!(i64::decode(run.get("r")), Some(x.wrapping_sub(y)));
            check_compare(&compare(), &x.encode(), &y.encode());
        }
    }

    #[test]
    fn inc_dec_agree_with_rust(a in any::<i64>(), shift in 0u32..64) {
        let a = a >> shift;
        let x = a.encode();
        let s = shape(&x);
        let r = check_unary(&unary("inc"), &x, i128::from(a) + 1, inc_cost(&s));
        prop_assert_eq!(i64::decode(&r), Some(a.wrapping_add(1)));
        let r = check_unary(&unary("dec"), &x, i128::from(a) - 1, dec_cost(&s));
        prop_assert_eq!(i64::decode(&r), Some(a.wrapping_sub(1)));
    }

    #[test]
    fn non_canonical_arithmetic(a in -1000i64..1000, b in -1000i64..1000,
                                za in 0usize..4, zb in 0usize..4, ta in 0usize..3, tb in 0usize..3) {
        let fa = form(i128::from(a), za, 2 * ta + usize::from(a < 0));
        let fb = form(i128::from(b), zb, 2 * tb + usize::from(b < 0));
        check_add_sub(&binary("add"), &binary("sub"), &fa, &fb);
        check_compare(&compare(), &fa, &fb);
        check_unary(&unary("canon"), &fa, i128::from(a), canon_cost(&shape(&fa)));
    }
}

#[test]
fn the_documented_example() {
    let p = doc_example("ints");
    let run = p.run(&[]);
    assert_eq!(run.int("n"), -23);
    assert!(run.flag("big"));
}

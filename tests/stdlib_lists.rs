//! `std/lists` in the machine: every routine and loop on edge cases (Nil,
//! one element, Nil elements, long lists, indices past the end, negative
//! and non-canonical indices), against values computed in Rust with the
//! engine's encoders; and every routine's tick cost against the formula
//! documented in `stdlib/lists.cta` and docs/stdlib.md (std/lists).

mod stdlib_common;

use constree::encoding::{Decode, Encode};
use constree::tree::Tree;
use proptest::prelude::*;
use stdlib_common::*;

/// A list of Ints as a tree.
fn list(xs: &[i64]) -> Tree {
    xs.encode()
}

/// Lists worth trying: empty, one element, Nil elements, nested lists,
/// longer ones.
fn sample_lists() -> Vec<Tree> {
    let mut v = vec![
        Tree::NIL,
        list(&[7]),
        list(&[0]),
        list(&[0, 0, 0]),
        list(&[1, 2, 3]),
        list(&[-1, i64::MIN, i64::MAX, 0, 5]),
        vec![vec![1i64, 2], vec![], vec![3]].encode(),
        Tree::list([
            Tree::unit(),
            Tree::NIL,
            Tree::cons(Tree::unit(), Tree::unit()),
        ]),
    ];
    for n in [2usize, 4, 5, 8, 15, 16, 17, 100, 255, 256, 1000] {
        v.push(list(&(0..n as i64).collect::<Vec<_>>()));
    }
    v
}

fn elements(t: &Tree) -> Vec<Tree> {
    t.iter_list().cloned().collect()
}

const CLEAN: &[&str] = &["list.low", "list.u", "list.saved", "stack"];

// ---------------------------------------------------------------------------
// The documented costs.

fn length_cost(n: u64) -> u64 {
    let n128 = u128::from(n);
    9 + 6 * n + 10 * bitlen(n128) - 4 * popcount(n128)
}

/// list.drop and list.nth for a canonical N with 0 <= N <= length.
fn drop_cost(n: u64) -> u64 {
    let n128 = u128::from(n);
    let s = if n == 0 { 2 } else { 6 };
    13 + s + 9 * bitlen(n128) + 6 * n - 2 * popcount(n128)
}

// ---------------------------------------------------------------------------
// head, tail, cons

#[test]
fn head_tail_cons() {
    let p = program(
        "lists",
        &["xs", "x", "h", "t", "c"],
        "list.head h, xs
         list.tail t, xs
         list.cons c, x, xs",
    );
    for xs in sample_lists() {
        let run = p.run(&[("xs", xs.clone()), ("x", 42i64.encode())]);
        let (h, t) = xs
            .split()
            .map_or((Tree::NIL, Tree::NIL), |(h, t)| (h.clone(), t.clone()));
        assert_eq!(run.get("h"), &h);
        assert_eq!(run.get("t"), &t);
        assert_eq!(run.get("c"), &Tree::cons(42i64.encode(), xs.clone()));
        assert_eq!(run.get("xs"), &xs, "the list is left alone");
        assert_eq!(run.cost(), 3 + 3 + 1);
    }
}

#[test]
fn head_and_tail_in_place() {
    let p = program(
        "lists",
        &["xs", "ys"],
        "list.head xs, xs
         list.tail ys, ys",
    );
    let run = p.run(&[("xs", list(&[4, 5])), ("ys", list(&[4, 5]))]);
    assert_eq!(run.int("xs"), 4);
    assert_eq!(run.ints("ys"), vec![5]);
}

// ---------------------------------------------------------------------------
// length, reverse, append, last

#[test]
fn length_of_sample_lists() {
    let p = program("lists", &["xs", "n"], "list.length n, xs");
    for xs in sample_lists() {
        let run = p.run(&[("xs", xs.clone())]);
        let n = xs.list_len() as u64;
        assert_eq!(run.get("n"), &enc128(i128::from(n)), "length is canonical");
        run.assert_nil(CLEAN);
        assert_eq!(run.cost(), length_cost(n), "length of {n} elements");
    }
}

#[test]
fn length_cost_examples() {
    let p = program("lists", &["xs", "n"], "list.length n, xs");
    let cost = |n: usize| p.run(&[("xs", Tree::list(vec![Tree::NIL; n]))]).cost();
    assert_eq!(cost(0), 9);
    assert_eq!(cost(1), 21);
    assert_eq!(cost(10), 101);
    assert_eq!(cost(1000), 6085);
}

#[test]
fn reverse_append_last() {
    let p = program(
        "lists",
        &["xs", "ys", "r", "a", "l"],
        "list.reverse r, xs
         list.append a, xs, ys
         list.last l, xs",
    );
    let one = program("lists", &["xs", "r"], "list.reverse r, xs");
    let app = program("lists", &["xs", "ys", "r"], "list.append r, xs, ys");
    let last = program("lists", &["xs", "r"], "list.last r, xs");
    let samples = sample_lists();
    for xs in &samples {
        for ys in samples.iter().take(8) {
            let run = p.run(&[("xs", xs.clone()), ("ys", ys.clone())]);
            let mut e = elements(xs);
            let l = e.last().cloned().unwrap_or(Tree::NIL);
            let mut appended = e.clone();
            appended.extend(elements(ys));
            e.reverse();
            assert_eq!(run.get("r"), &Tree::list(e));
            assert_eq!(run.get("a"), &Tree::list(appended));
            assert_eq!(run.get("l"), &l);
            run.assert_nil(CLEAN);
            let n = xs.list_len() as u64;
            assert_eq!(one.run(&[("xs", xs.clone())]).cost(), 8 + 4 * n);
            let cost = app.run(&[("xs", xs.clone()), ("ys", ys.clone())]).cost();
            assert_eq!(cost, 11 + 8 * n);
            let cost = last.run(&[("xs", xs.clone())]).cost();
            assert_eq!(cost, if n == 0 { 8 } else { 7 + 3 * n });
        }
    }
}

// ---------------------------------------------------------------------------
// nth, drop

#[test]
fn nth_and_drop_of_every_index() {
    let nth = program("lists", &["xs", "i", "r"], "list.nth r, xs, i");
    let drop = program("lists", &["xs", "i", "r"], "list.drop r, xs, i");
    for xs in sample_lists().iter().filter(|xs| xs.list_len() <= 300) {
        let e = elements(xs);
        let len = e.len() as i64;
        for i in (-3..len + 3).chain([1 << 20, i64::MAX, i64::MIN]) {
            let run = nth.run(&[("xs", xs.clone()), ("i", i.encode())]);
            let expected = usize::try_from(i)
                .ok()
                .and_then(|i| e.get(i))
                .cloned()
                .unwrap_or(Tree::NIL);
            assert_eq!(run.get("r"), &expected, "nth {i} of {xs:?}");
            run.assert_nil(CLEAN);
            let nth_cost = run.cost();
            let run = drop.run(&[("xs", xs.clone()), ("i", i.encode())]);
            let expected = if i < 0 {
                xs.clone()
            } else {
                Tree::list(e.iter().skip(i as usize).cloned())
            };
            assert_eq!(run.get("r"), &expected, "drop {i} of {xs:?}");
            run.assert_nil(CLEAN);
            if (0..=len).contains(&i) {
                assert_eq!(run.cost(), drop_cost(i as u64), "drop {i}");
                assert_eq!(nth_cost, drop_cost(i as u64) + 2, "nth {i}");
            } else if i < 0 {
                let tz = trailing_zeros(u128::from(i.unsigned_abs()));
                assert_eq!(run.cost(), 26 + 3 * tz, "drop {i}");
                assert_eq!(nth_cost, 26 + 3 * tz, "nth {i}");
            } else {
                // Past the end: it stops when the list runs out.
                let b = bitlen(u128::from(i as u64));
                assert!(run.cost() <= 30 + 13 * b + 6 * len as u64, "drop {i}");
                assert!(nth_cost <= 32 + 13 * b + 6 * len as u64, "nth {i}");
            }
        }
    }
}

#[test]
fn nth_with_non_canonical_indices() {
    let nth = program("lists", &["xs", "i", "r"], "list.nth r, xs, i");
    let xs = list(&[10, 11, 12, 13, 14, 15]);
    let neg = |t: Tree| tagged(t);
    // (index, element, extra ticks over a canonical index of that value)
    let cases = [
        (bits(&[true, false, false, false]), 11, 27), // 1 with 3 trailing zeros: 9 each
        (bits(&[false, false]), 10, 22),              // 0 as [0, 0]
        (neg(neg(enc128(3))), 13, 15),                // --3: two tags, 7 + 8
        (neg(neg(neg(neg(enc128(2))))), 12, 30),      // ----2
        (bits(&[true, false, true, false, false]), 15, 18), // 5
    ];
    for (i, expected, extra) in cases {
        let run = nth.run(&[("xs", xs.clone()), ("i", i.clone())]);
        assert_eq!(run.get("r"), &(expected as i64).encode(), "nth {i:?}");
        run.assert_nil(CLEAN);
        let value = dec128(&i).unwrap() as u64;
        assert_eq!(run.cost(), drop_cost(value) + 2 + extra, "nth {i:?}");
    }
    // -0 is 0, not negative; ---2 is -2.
    let run = nth.run(&[("xs", xs.clone()), ("i", neg(Tree::NIL))]);
    assert_eq!(run.int("r"), 10);
    let run = nth.run(&[("xs", xs.clone()), ("i", neg(neg(neg(enc128(2)))))]);
    assert!(run.get("r").is_nil());
}

#[test]
fn nth_cost_examples() {
    let nth = program("lists", &["xs", "i", "r"], "list.nth r, xs, i");
    let xs = Tree::list(vec![Tree::NIL; 1000]);
    let cost = |i: i64| nth.run(&[("xs", xs.clone()), ("i", i.encode())]).cost();
    assert_eq!(cost(0), 17);
    assert_eq!(cost(1), 34);
    assert_eq!(cost(5), 74);
    assert_eq!(cost(999), 6089);
    assert_eq!(cost(-1), 26);
    // Far past the end: the doubling stops when the list runs out.
    assert!(cost(i64::MAX) < cost(999) + 9 * 64);
}

// ---------------------------------------------------------------------------
// each, map, filter

#[test]
fn each_visits_every_element_in_order() {
    let p = build(
        "use std/control
use std/lists
reg xs 1000000 = nil
reg seen 1000000
main:
    list.each xs, visit
    halt
visit:                      ; R = 3 ticks
    push seen, list.x
    ret
",
    );
    for xs in sample_lists() {
        let run = p.run(&[("xs", xs.clone())]);
        let mut e = elements(&xs);
        e.reverse();
        assert_eq!(run.get("seen"), &Tree::list(e));
        run.assert_nil(CLEAN);
        assert_eq!(
            run.get("list.rest"),
            &Tree::NIL,
            "the loop state is restored"
        );
        let n = xs.list_len() as u64;
        assert_eq!(run.cost(), 4 + n * (5 + 3));
    }
}

#[test]
fn map_applies_a_routine() {
    let p = build(
        "use std/control
use std/lists
reg xs 1000000 = nil
reg ys 1000000
main:
    list.map ys, xs, twice
    halt
twice:                      ; R = 3 ticks: x := (x, x)
    cons list.x, list.x, list.x
    ret
",
    );
    for xs in sample_lists() {
        let run = p.run(&[("xs", xs.clone())]);
        let expected: Vec<Tree> = elements(&xs)
            .into_iter()
            .map(|x| Tree::cons(x.clone(), x))
            .collect();
        assert_eq!(run.get("ys"), &Tree::list(expected));
        run.assert_nil(CLEAN);
        let n = xs.list_len() as u64;
        assert_eq!(run.cost(), 15 + n * (10 + 3));
    }
}

#[test]
fn filter_keeps_what_the_routine_flags() {
    let p = build(
        "use std/control
use std/lists
reg xs 1000000 = nil
reg ys 1000000
main:
    list.filter ys, xs, non_nil
    halt
non_nil:                    ; R = 3 ticks: keep non-Nil elements
    mov list.flag, list.x
    ret
",
    );
    for xs in sample_lists() {
        let run = p.run(&[("xs", xs.clone())]);
        let kept: Vec<Tree> = elements(&xs).into_iter().filter(Tree::is_cons).collect();
        let k = kept.len() as u64;
        assert_eq!(run.get("ys"), &Tree::list(kept));
        run.assert_nil(CLEAN);
        let n = xs.list_len() as u64;
        assert_eq!(run.cost(), 17 + n * (6 + 3) + 6 * k);
    }
}

#[test]
fn loops_nest_and_use_other_modules() {
    // For every row of a list of lists of Ints: keep the positive ones
    // (std/ints compare), add one to each (std/ints inc), and record the
    // row's length; the rows themselves are visited by list.map.
    let p = build(
        "use std/control
use std/lists
use std/ints
reg rows 1000000 = nil
reg out 1000000
reg lengths 1000000
main:
    list.map out, rows, row
    halt
row:
    list.filter list.x, list.x, positive
    list.map list.x, list.x, plus_one
    list.length list.result, list.x
    push lengths, list.result
    ret
positive:
    int.gt list.flag, list.x, #0
    ret
plus_one:
    int.inc list.x, list.x
    ret
",
    );
    let rows: Vec<Vec<i64>> = vec![
        vec![],
        vec![-1, 0, 1, 2],
        vec![5],
        vec![i64::MIN, i64::MAX - 1, -7, 3, 0],
        vec![0, 0],
    ];
    let run = p.run(&[("rows", rows.encode())]);
    let expected: Vec<Vec<i64>> = rows
        .iter()
        .map(|r| r.iter().filter(|&&x| x > 0).map(|x| x + 1).collect())
        .collect();
    assert_eq!(
        Vec::<Vec<i64>>::decode(run.get("out")),
        Some(expected.clone())
    );
    let mut lengths: Vec<i64> = expected.iter().map(|r| r.len() as i64).collect();
    lengths.reverse();
    assert_eq!(run.ints("lengths"), lengths);
    run.assert_nil(CLEAN);
    run.assert_nil(&["list.rest", "list.acc", "list.elem", "int.low"]);
}

#[test]
fn each_inside_each() {
    // All pairs (x, y) of two lists, by nested list.each.
    let p = build(
        "use std/control
use std/lists
reg xs 1000000 = nil
reg ys 1000000 = nil
reg x 1000000
reg pairs 1000000
main:
    list.each xs, outer
    halt
outer:
    mov x, list.x
    list.each ys, inner
    ret
inner:
    cons scratch, x, list.x
    push pairs, scratch
    ret
",
    );
    let run = p.run(&[("xs", list(&[1, 2, 3])), ("ys", list(&[10, 20]))]);
    let pairs = Vec::<(i64, i64)>::decode(run.get("pairs")).unwrap();
    assert_eq!(
        pairs,
        vec![(3, 20), (3, 10), (2, 20), (2, 10), (1, 20), (1, 10)]
    );
    run.assert_nil(CLEAN);
}

// ---------------------------------------------------------------------------
// Limits

#[test]
fn long_lists_fit_the_registers() {
    // 60000 elements: within the 65536 conses of list.a and list.result.
    let xs = Tree::list(vec![Tree::NIL; 60000]);
    let p = program(
        "lists",
        &["xs", "n", "r", "l"],
        "list.length n, xs
         list.reverse r, xs
         list.nth l, xs, #59999",
    );
    let run = p.run(&[("xs", xs.clone())]);
    assert_eq!(run.int("n"), 60000);
    assert_eq!(run.get("r"), &xs);
    assert_eq!(run.get("l"), &Tree::NIL);
    assert_eq!(p.image.registers[p.index("list.a")].limit, 65536);
    run.assert_nil(CLEAN);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn list_routines_agree_with_rust(
        xs in proptest::collection::vec(any::<i64>(), 0..60),
        ys in proptest::collection::vec(any::<i64>(), 0..20),
        i in -5i64..70,
    ) {
        let p = program(
            "lists",
            &["xs", "ys", "i", "n", "r", "a", "l", "e", "d"],
            "list.length n, xs
             list.reverse r, xs
             list.append a, xs, ys
             list.last l, xs
             list.nth e, xs, i
             list.drop d, xs, i",
        );
        let run = p.run(&[("xs", xs.encode()), ("ys", ys.encode()), ("i", i.encode())]);
        prop_assert_eq!(run.int("n"), xs.len() as i64);
        let mut r = xs.clone();
        r.reverse();
        prop_assert_eq!(run.ints("r"), r);
        let mut a = xs.clone();
        a.extend(&ys);
        prop_assert_eq!(run.ints("a"), a);
        prop_assert_eq!(run.get("l"), &xs.last().map_or(Tree::NIL, Encode::encode));
        let e = usize::try_from(i).ok().and_then(|i| xs.get(i));
        prop_assert_eq!(run.get("e"), &e.map_or(Tree::NIL, Encode::encode));
        let d: Vec<i64> = xs.iter().skip(i.max(0) as usize).copied().collect();
        prop_assert_eq!(run.ints("d"), d);
        run.assert_nil(CLEAN);
    }
}

#[test]
fn the_documented_example() {
    let p = doc_example("lists");
    let run = p.run(&[]);
    assert_eq!(run.ints("kept"), vec![4, 5, 6]);
    assert_eq!(run.int("n"), 3);
    assert_eq!(run.int("third"), 6);
}

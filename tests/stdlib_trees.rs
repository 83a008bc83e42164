//! `std/trees` in the machine: structural equality, bounded size and
//! subtrees by path, on edge cases (Nil, deep trees on either side, big
//! trees near the register limits, paths that run off the tree) and random
//! trees, against the engine's own trees; and every routine's tick cost
//! against the formula documented in `stdlib/trees.cta` and
//! docs/stdlib.md (std/trees).

mod stdlib_common;

use constree::encoding::{Decode, Encode};
use constree::tree::Tree;
use proptest::prelude::*;
use stdlib_common::*;

// ---------------------------------------------------------------------------
// Trees to try.

/// A deterministic pseudo-random tree of exactly `size` conses, built
/// without sharing (every node is a fresh cons).
fn random_tree(seed: u64, size: u64) -> Tree {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Builds bottom-up from a preorder shape to stay iterative.
    fn build(size: u64, next: &mut dyn FnMut() -> u64) -> Tree {
        if size == 0 {
            return Tree::NIL;
        }
        let front = next() % size;
        let f = build(front, next);
        let b = build(size - 1 - front, next);
        Tree::cons(f, b)
    }
    build(size, &mut next)
}

/// A left comb (each front is the rest) and a right comb (a list of Nils),
/// ending in `end`.
fn left_comb_on(n: usize, end: Tree) -> Tree {
    (0..n).fold(end, |t, _| Tree::cons(t, Tree::NIL))
}

fn right_comb_on(n: usize, end: Tree) -> Tree {
    (0..n).fold(end, |t, _| Tree::cons(Tree::NIL, t))
}

fn left_comb(n: usize) -> Tree {
    left_comb_on(n, Tree::NIL)
}

fn right_comb(n: usize) -> Tree {
    right_comb_on(n, Tree::NIL)
}

fn sample_trees() -> Vec<Tree> {
    let mut v = vec![
        Tree::NIL,
        Tree::unit(),
        Tree::cons(Tree::unit(), Tree::NIL),
        Tree::cons(Tree::NIL, Tree::unit()),
        left_comb(10),
        right_comb(10),
        vec![1i64, -2, 3].encode(),
        (vec![vec![1i64], vec![]], 7i64).encode(),
    ];
    for (seed, size) in [(1, 5), (2, 20), (3, 100), (4, 300)] {
        v.push(random_tree(seed, size));
    }
    v
}

/// Every tree that differs from `t` by one change: a leaf grown into a
/// cons, or a cons cut to a leaf, at some node (preorder index `k`).
fn mutate(t: &Tree, k: u64) -> Tree {
    fn go(t: &Tree, k: &mut u64) -> Tree {
        if *k == 0 {
            *k = u64::MAX;
            return if t.is_nil() { Tree::unit() } else { Tree::NIL };
        }
        *k -= 1;
        match t.split() {
            None => Tree::NIL,
            Some((f, b)) => {
                let f = go(f, k);
                let b = go(b, k);
                Tree::cons(f, b)
            }
        }
    }
    let mut k = k;
    go(t, &mut k)
}

/// All paths to the nodes of a tree (conses and leaves).
fn paths(t: &Tree) -> Vec<Vec<bool>> {
    let mut out = vec![vec![]];
    let mut todo = vec![(t.clone(), vec![])];
    while let Some((t, path)) = todo.pop() {
        if let Some((f, b)) = t.split() {
            for (child, dir) in [(f, false), (b, true)] {
                let mut p: Vec<bool> = path.clone();
                p.push(dir);
                out.push(p.clone());
                todo.push((child.clone(), p));
            }
        }
    }
    out
}

/// `t` with the subtree at `path` replaced (the path must exist).
fn replace(t: &Tree, path: &[bool], new: &Tree) -> Tree {
    match path.split_first() {
        None => new.clone(),
        Some((&dir, rest)) => {
            let (f, b) = t.split().expect("the path exists");
            if dir {
                Tree::cons(f.clone(), replace(b, rest, new))
            } else {
                Tree::cons(replace(f, rest, new), b.clone())
            }
        }
    }
}

const CLEAN: &[&str] = &["tree.sa", "tree.sb", "tree.low", "int.low", "stack"];

// ---------------------------------------------------------------------------
// eq

fn eq_program() -> Program {
    program("trees", &["a", "b", "r"], "tree.eq r, a, b")
}

fn check_eq(p: &Program, a: &Tree, b: &Tree) {
    let run = p.run(&[("a", a.clone()), ("b", b.clone())]);
    let equal = a == b;
    assert_eq!(run.get("r"), &equal.encode(), "eq of {a:?} and {b:?}");
    run.assert_nil(CLEAN);
    let (sa, sb) = (a.size(), b.size());
    if equal {
        assert_eq!(run.cost(), 11 + 13 * sa);
    } else {
        assert!(
            run.cost() <= 13 + 13 * sa.min(sb),
            "eq of sizes {sa}, {sb}: {} ticks",
            run.cost()
        );
    }
}

#[test]
fn eq_on_samples_and_their_mutations() {
    let p = eq_program();
    let samples = sample_trees();
    for a in &samples {
        for b in &samples {
            check_eq(&p, a, b);
        }
        // A copy that shares nothing is still equal.
        let copy = Tree::from_bits(&a.to_bits()).unwrap();
        check_eq(&p, a, &copy);
        for k in 0..(2 * a.size() + 1).min(60) {
            let m = mutate(a, k);
            check_eq(&p, a, &m);
            check_eq(&p, &m, a);
        }
    }
}

#[test]
fn eq_cost_examples() {
    let p = eq_program();
    let cost = |a: &Tree, b: &Tree| p.run(&[("a", a.clone()), ("b", b.clone())]).cost();
    assert_eq!(cost(&Tree::NIL, &Tree::NIL), 11);
    assert_eq!(cost(&Tree::unit(), &Tree::unit()), 24);
    assert_eq!(cost(&Tree::unit(), &Tree::NIL), 12);
    assert_eq!(cost(&Tree::NIL, &Tree::unit()), 13);
    let big = random_tree(9, 1000);
    assert_eq!(cost(&big, &big), 13_011);
    // The first difference is found early: here at the root's front.
    assert_eq!(
        cost(
            &Tree::cons(Tree::unit(), big.clone()),
            &Tree::cons(Tree::NIL, big.clone())
        ),
        19
    );
}

#[test]
fn eq_on_deep_trees_within_the_limits() {
    // 65000 conses on the left or the right, a balanced-ish random one: the
    // stacks (limit 65536, like tree.a) never overflow.
    let p = eq_program();
    // The deep combs differ only at their deepest leaf.
    let pairs = [
        (left_comb(65000), left_comb_on(64999, Tree::unit())),
        (right_comb(65000), right_comb_on(64999, Tree::unit())),
        (
            random_tree(5, 65000),
            mutate(&random_tree(5, 65000), 64_000),
        ),
    ];
    for (t, m) in pairs {
        check_eq(&p, &t, &t.clone());
        check_eq(&p, &t, &m);
        check_eq(&p, &m, &t);
    }
    assert_eq!(p.image.registers[p.index("tree.sa")].limit, 65536);
}

// ---------------------------------------------------------------------------
// size

fn size_program() -> Program {
    program(
        "trees",
        &["t", "bound", "n", "fits"],
        "tree.size n, fits, t, bound",
    )
}

/// The documented bound for tree.size with a canonical BOUND: O(count +
/// bits of BOUND).
fn size_bound(counted: u64, bound_bits: u64) -> u64 {
    120 + 22 * counted + 36 * bound_bits
}

fn check_size(p: &Program, t: &Tree, bound: &Tree) {
    let run = p.run(&[("t", t.clone()), ("bound", bound.clone())]);
    let size = i128::from(t.size());
    let b = dec128(bound).unwrap().max(0);
    let expected = size.min(b);
    assert_eq!(
        run.get("n"),
        &enc128(expected),
        "size of {t:?} bounded by {bound:?}"
    );
    assert_eq!(run.get("fits"), &(size <= b).encode());
    run.assert_nil(CLEAN);
    if canonical(bound) {
        let bits = bitlen(dec128(bound).unwrap().unsigned_abs());
        let limit = size_bound(expected as u64, bits);
        assert!(
            run.cost() <= limit,
            "size {size} bound {b}: {} > {limit}",
            run.cost()
        );
    }
}

#[test]
fn size_with_bounds() {
    let p = size_program();
    for t in sample_trees() {
        let s = t.size() as i64;
        for b in [
            0,
            1,
            2,
            s - 1,
            s,
            s + 1,
            2 * s,
            -1,
            -5,
            1 << 40,
            i64::MAX,
            i64::MIN,
        ] {
            check_size(&p, &t, &b.encode());
        }
        // Non-canonical bounds: trailing zeros, -0, a double tag.
        for bound in [
            bits(&[true, false, false]),
            tagged(Tree::NIL),
            tagged(tagged(enc128(i128::from(s)))),
            tagged(tagged(tagged(enc128(3)))),
        ] {
            check_size(&p, &t, &bound);
        }
    }
}

#[test]
fn size_stops_at_the_bound() {
    // A huge tree with a small bound costs as little as a small tree.
    let p = size_program();
    let cost = |t: &Tree, b: i64| p.run(&[("t", t.clone()), ("bound", b.encode())]).cost();
    let small = right_comb(10);
    let big = right_comb(60000);
    assert_eq!(cost(&small, 5), cost(&big, 5));
    assert!(cost(&big, 5) < 300);
    let examples = [
        (Tree::NIL, 0, 55),
        (Tree::unit(), 100, 280),
        (right_comb(10), 5, 194),
        (right_comb(100), 1000, 2513),
        (random_tree(3, 1000), 1 << 20, 22670),
    ];
    for (t, b, ticks) in examples {
        assert_eq!(cost(&t, b), ticks, "size of {t:?} bounded by {b}");
    }
}

// ---------------------------------------------------------------------------
// get, set

fn get_program() -> Program {
    program(
        "trees",
        &["t", "path", "r", "found"],
        "tree.get r, found, t, path",
    )
}

fn set_program() -> Program {
    program(
        "trees",
        &["t", "path", "new", "r", "found"],
        "tree.set r, found, t, path, new",
    )
}

#[test]
fn get_and_set_every_path() {
    let get = get_program();
    let set = set_program();
    let new = vec![9i64, 9].encode();
    for t in sample_trees().iter().filter(|t| t.size() <= 100) {
        for path in paths(t) {
            let p = path.encode();
            let k = path.len() as u64;
            let run = get.run(&[("t", t.clone()), ("path", p.clone())]);
            assert_eq!(run.get("r"), t.at_path(&path).unwrap(), "get {path:?}");
            assert!(run.flag("found"));
            assert_eq!(run.cost(), 11 + 6 * k);
            run.assert_nil(CLEAN);
            let run = set.run(&[("t", t.clone()), ("path", p.clone()), ("new", new.clone())]);
            assert_eq!(run.get("r"), &replace(t, &path, &new), "set {path:?}");
            assert!(run.flag("found"));
            assert_eq!(run.cost(), 14 + 14 * k);
            run.assert_nil(CLEAN);
        }
    }
}

#[test]
fn get_and_set_off_the_tree() {
    let get = get_program();
    let set = set_program();
    let t = vec![1i64, 2].encode(); // Cons 1 (Cons 2 Nil)
    let cases: [(&[bool], u64); 5] = [
        (&[true, true, false], 2), // into the final Nil
        (&[true, true, true, true], 2),
        (&[false, false, false, false], 3), // 1 is [True]; True's front is Nil
        (&[false, true, false], 2),
        (&[true, false, false, false], 3),
    ];
    for (path, steps) in cases {
        let p = path.to_vec().encode();
        let run = get.run(&[("t", t.clone()), ("path", p.clone())]);
        assert!(run.get("r").is_nil());
        assert!(!run.flag("found"), "get {path:?}");
        assert_eq!(run.cost(), 12 + 6 * steps, "get {path:?}");
        let run = set.run(&[("t", t.clone()), ("path", p.clone()), ("new", Tree::unit())]);
        assert_eq!(run.get("r"), &t, "set {path:?} leaves the tree");
        assert!(!run.flag("found"));
        assert_eq!(run.cost(), 15 + 8 * steps, "set {path:?}");
        run.assert_nil(CLEAN);
    }
    // On Nil, only the empty path exists.
    let run = get.run(&[("t", Tree::NIL), ("path", Vec::<bool>::new().encode())]);
    assert!(run.flag("found"));
    let run = get.run(&[("t", Tree::NIL), ("path", vec![false].encode())]);
    assert!(!run.flag("found"));
}

#[test]
fn get_reads_any_non_nil_step_as_back() {
    let get = get_program();
    let t = (1i64, (2i64, 3i64)).encode();
    let path = Tree::list([Tree::cons(Tree::unit(), Tree::unit()), 5i64.encode()]);
    let run = get.run(&[("t", t), ("path", path)]);
    assert_eq!(i64::decode(run.get("r")), Some(3));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_trees(seed in any::<u64>(), size in 0u64..200, k in any::<u64>(), bound in -3i64..250) {
        let t = random_tree(seed, size);
        let m = mutate(&t, k % (2 * size + 1));
        check_eq(&eq_program(), &t, &m);
        check_eq(&eq_program(), &t, &random_tree(seed, size));
        check_size(&size_program(), &t, &bound.encode());
        let all = paths(&t);
        let path = &all[(k % all.len() as u64) as usize];
        let get = get_program();
        let run = get.run(&[("t", t.clone()), ("path", path.encode())]);
        prop_assert_eq!(run.get("r"), t.at_path(path).unwrap());
    }
}

#[test]
fn the_documented_example() {
    let p = doc_example("trees");
    let run = p.run(&[]);
    assert!(!run.flag("same"));
    assert_eq!(run.int("n"), 10);
    assert!(!run.flag("fits"));
    assert_eq!(run.ints("sub"), vec![2, 3]);
    let expected = Tree::list([
        1i64.encode(),
        Tree::list([1i64.encode(), vec![2i64, 3].encode(), (4i64, 6i64).encode()]),
        (4i64, 5i64).encode(),
    ]);
    assert_eq!(run.get("a"), &expected);
    assert!(run.flag("found"));
}

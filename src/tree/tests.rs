use super::*;

fn bits(s: &str) -> Tree {
    Tree::from_bits(s).unwrap()
}

#[test]
fn cons_caches_size() {
    let t = Tree::cons(Tree::unit(), Tree::cons(Tree::NIL, Tree::unit()));
    assert_eq!(t.size(), 4);
    assert_eq!(Tree::NIL.size(), 0);
}

#[test]
fn size_saturates_instead_of_overflowing() {
    let mut t = Tree::unit();
    for _ in 0..70 {
        t = Tree::cons(t.clone(), t);
    }
    assert_eq!(t.size(), u64::MAX);
}

#[test]
fn bits_round_trip() {
    for s in ["0", "100", "11000", "1011000", "110100100"] {
        assert_eq!(bits(s).to_bits(), s);
    }
}

#[test]
fn bits_errors_say_where() {
    let e = Tree::from_bits("10").unwrap_err();
    assert_eq!(e.offset, 2);
    assert!(e.message.contains("ends early"), "{e}");
    let e = Tree::from_bits("1002").unwrap_err();
    assert_eq!(e.offset, 3);
    let e = Tree::from_bits("1x0").unwrap_err();
    assert_eq!(e.offset, 1);
    assert!(Tree::from_bits("").is_err());
}

#[test]
fn readable_form() {
    assert_eq!(Tree::NIL.readable().to_string(), "[]");
    assert_eq!(Tree::unit().readable().to_string(), "[[]]");
    assert_eq!(bits("11000").readable().to_string(), "[[[]]]");
    assert_eq!(bits("1010100").readable().to_string(), "[[], [], []]");
    assert_eq!(bits("101011000").readable().to_string(), "[[], [], [[]]]");
    for s in ["[]", "[[]]", "[[], [[], []], []]"] {
        assert_eq!(Tree::from_readable(s).unwrap().readable().to_string(), s);
    }
    assert_eq!(Tree::from_readable("[[] | [[]]]").unwrap(), bits("10100"));
    assert_eq!(
        Tree::from_readable(" [ [ ] , [ ] ] ").unwrap(),
        bits("10100")
    );
    assert!(Tree::from_readable("[[]").is_err());
    assert!(Tree::from_readable("[] []").is_err());
    assert!(Tree::from_readable("[a]").is_err());
    assert!(Tree::from_readable("[[] | [], []]").is_err());
}

#[test]
fn readable_form_can_be_cut_short() {
    let t = Tree::list((0..100).map(|_| Tree::NIL));
    let shown = t.readable().limit(10).to_string();
    assert!(shown.ends_with('…'), "{shown}");
    assert!(shown.len() < 20, "{shown}");
}

#[test]
fn equality_is_structural() {
    assert_eq!(bits("11000"), bits("11000"));
    assert_ne!(bits("11000"), bits("10100"));
    assert_ne!(bits("0"), bits("100"));
}

#[test]
fn equality_of_shared_towers_is_cheap() {
    // Two independently built trees of 2^60 logical conses.
    let tower = |n, base: &str| {
        let mut t = bits(base);
        for _ in 0..n {
            t = Tree::cons(t.clone(), t);
        }
        t
    };
    let (a, b) = (tower(60, "10100"), tower(60, "10100"));
    assert!(!a.ptr_eq(&b));
    assert_eq!(a, b);
    let c = tower(60, "11000");
    assert_eq!(a.size(), c.size());
    assert_ne!(a, c);
}

#[test]
fn list_helpers() {
    let t = Tree::list([Tree::NIL, Tree::unit()]);
    assert_eq!(t.to_bits(), "1011000");
    assert_eq!(t.list_len(), 2);
    assert_eq!(t.at_path(&[true, false]), Some(&Tree::unit()));
    assert_eq!(t.at_path(&[false, false]), None);
}

#[test]
fn json_documents_in_both_forms() {
    // A tree of 2^40 conses in 41 nodes, beside a small one.
    let mut tower = bits("100");
    for _ in 0..40 {
        tower = Tree::cons(tower.clone(), tower);
    }
    let small = bits("11000");
    let write = |value: &Vec<Tree>, shared| {
        let mut out = Vec::new();
        json::to_writer(&mut out, value, shared).map(|()| String::from_utf8(out).unwrap())
    };
    let shared = write(&vec![tower.clone(), small.clone()], true).unwrap();
    assert!(shared.starts_with(r#"{"format":"constree-shared","version":1,"nodes":"#));
    assert!(shared.len() < 1000, "{shared}");
    assert_eq!(
        json::from_str::<Vec<Tree>>(&shared).unwrap(),
        [tower.clone(), small.clone()]
    );
    // The plain form: the small tree as text, the tower refused.
    assert_eq!(write(&vec![small.clone()], false).unwrap(), r#"["11000"]"#);
    assert!(write(&vec![tower], false).is_err());
    assert_eq!(
        json::from_str::<Vec<Tree>>(r#"["11000"]"#).unwrap(),
        [small]
    );
    // Node numbers only in the shared form; other versions refused.
    assert!(json::from_str::<Vec<Tree>>("[1]").is_err());
    let version_2 = shared.replace(r#""version":1"#, r#""version":2"#);
    assert_eq!(
        json::from_str::<Vec<Tree>>(&version_2)
            .unwrap_err()
            .to_string(),
        "shared form version 2 (this constree reads version 1)"
    );
    let past_the_end = r#"{"format":"constree-shared","version":1,"nodes":[],"value":[1]}"#;
    let error = json::from_str::<Vec<Tree>>(past_the_end)
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("in \"value\": node 1 is not in the node table"),
        "{error}"
    );
}

#[test]
fn into_children_moves_out_of_a_node_nobody_else_holds() {
    let front = bits("1100100");
    let back = bits("100");
    let alive = nodes_alive();
    let (f, b) = Tree::cons(front.clone(), back.clone())
        .into_children()
        .unwrap();
    // The node is freed; the children are the very nodes, each held by
    // the caller's copy and the one given back, no more.
    assert_eq!(nodes_alive(), alive);
    assert!(f.ptr_eq(&front) && b.ptr_eq(&back));
    assert!(f.is_shared() && b.is_shared());
    drop((f, b));
    assert!(!front.is_shared() && !back.is_shared());
    assert!(Tree::NIL.into_children().is_none());
}

#[test]
fn into_children_copies_out_of_a_shared_node() {
    let tree = bits("1100100");
    let other = tree.clone();
    let alive = nodes_alive();
    let (f, b) = other.into_children().unwrap();
    // The node stays, held by `tree` alone again; its children have one
    // more owner each.
    assert_eq!(nodes_alive(), alive);
    assert!(!tree.is_shared());
    assert!(f.ptr_eq(tree.front().unwrap()) && b.ptr_eq(tree.back().unwrap()));
    assert!(f.is_shared() && b.is_shared());
    assert_eq!(tree, Tree::cons(f, b));
}

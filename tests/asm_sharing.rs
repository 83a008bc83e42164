//! Constants that share their parts: 60 doubling constants make trees of
//! 2^60 logical conses out of 60 distinct nodes. Assembling, listing and
//! disassembling such a program works on the distinct nodes: the tests
//! count the tree nodes built (`tree::nodes_built`) and the text written,
//! and check every value against a twin built in Rust.

use constree::asm::disasm::disassemble;
use constree::asm::listing::listing;
use constree::asm::source::{MemoryLoader, SourceFile};
use constree::asm::{Assembly, assemble};
use constree::encoding::Encode;
use constree::image::Image;
use constree::tree::{Tree, nodes_built};
use constree::world::{Command, Direction};

const DOUBLINGS: usize = 60;

/// `t0` .. `t60` doubling with `cons`, `l0` .. with lists `[l | l]`, `p0`
/// .. with tuples `(p, p)`, `m0` .. with `some`; every kind used as an
/// operand, as a register's value and inside other values.
fn program() -> String {
    let mut text = String::from(
        "use std/control\n\
         reg r\n\
         reg lists auto = l60\n\
         reg tuples auto = [p60, Move E]\n\
         reg maybes auto = m60\n\
         const t0 = cons(nil, nil)\n\
         const l0 = [nil]\n\
         const p0 = (nil, nil)\n\
         const m0 = nil\n",
    );
    for k in 1..=DOUBLINGS {
        let j = k - 1;
        text.push_str(&format!(
            "const t{k} = cons(t{j}, t{j})\nconst l{k} = [l{j} | l{j}]\nconst p{k} = (p{j}, p{j})\nconst m{k} = some [m{j}, m{j}]\n"
        ));
    }
    text.push_str(
        "const HUGE = size(t60) > 1000000\n\
         main:\n\
         \x20   mov r, t60\n\
         \x20   mov r, [t59, t59 | t59]\n\
         \x20   mov r, #l60\n\
         \x20   halt\n",
    );
    text
}

/// The tree of `t{n}`, `l{n}` and `p{n}` (all three are the same tree:
/// `Cons x x`, doubled), built in Rust.
fn doubled(n: usize) -> Tree {
    (0..n).fold(Tree::unit(), |t, _| Tree::cons(t.clone(), t))
}

/// The tree of `m{n}`: `some [m, m]` = `Cons Nil (Cons m (Cons m Nil))`.
fn maybes(n: usize) -> Tree {
    (0..n).fold(Tree::NIL, |m, _| {
        Tree::cons(Tree::NIL, Tree::list([m.clone(), m]))
    })
}

fn assemble_text(text: &str) -> Assembly {
    assemble(
        &MemoryLoader::default(),
        SourceFile::new("doubling.cta".into(), None, text.into()),
    )
}

fn contents<'a>(image: &'a Image, name: &str) -> &'a Tree {
    &image.registers[image.register(name).unwrap_or_else(|| panic!("{name}"))].contents
}

/// Runs `f` and gives its result and the tree nodes it built.
fn counting<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = nodes_built();
    let value = f();
    (value, nodes_built() - before)
}

#[test]
fn doubling_constants_assemble_by_their_distinct_nodes() {
    let text = program();
    let (assembly, built) = counting(|| assemble_text(&text));
    assert!(
        assembly.diagnostics.is_empty(),
        "{}",
        assembly.render(false)
    );
    let image = assembly.image.expect("no errors");
    // A few hundred distinct nodes per constant kind, for every use.
    assert!(built < 200_000, "{built} nodes built");
    let t60 = doubled(DOUBLINGS);
    assert_eq!(t60.size(), (1u64 << 61) - 1);
    assert_eq!(contents(&image, "lists"), &t60);
    assert_eq!(
        contents(&image, "tuples"),
        &Tree::list([t60.clone(), Command::Move(Direction::E).encode()])
    );
    assert_eq!(contents(&image, "maybes"), &maybes(DOUBLINGS));
    // The operands: `t60` (and `#l60`, the same tree) share one constant
    // register, `[t59, t59 | t59]` is another.
    let constants: Vec<&Tree> = image
        .registers
        .iter()
        .filter(|r| r.name.starts_with("const"))
        .map(|r| &r.contents)
        .collect();
    let t59 = doubled(DOUBLINGS - 1);
    assert_eq!(
        constants,
        vec![&t60, &Tree::cons(t59.clone(), Tree::cons(t59.clone(), t59))]
    );
}

#[test]
fn a_listing_of_doubling_constants_is_short() {
    let image = assemble_text(&program()).image.expect("assembles");
    let (text, built) = counting(|| listing(&image));
    assert!(built < 10_000, "{built} nodes built");
    assert!(text.len() < 5_000, "{} characters:\n{text}", text.len());
    assert!(
        text.contains(&format!("size {}", (1u64 << 61) - 1)),
        "{text}"
    );
}

#[test]
fn doubling_constants_disassemble_to_a_chain_of_constants() {
    let image = assemble_text(&program()).image.expect("assembles");
    let (text, built) = counting(|| disassemble(&image));
    assert!(built < 10_000, "{built} nodes built");
    // One short definition per distinct large node.
    assert!(text.len() < 20_000, "{} characters:\n{text}", text.len());
    assert!(text.lines().all(|l| l.len() < 300), "{text}");
    let definitions = text.lines().filter(|l| l.starts_with("const ")).count();
    assert!(
        (DOUBLINGS..4 * DOUBLINGS).contains(&definitions),
        "{definitions} constants:\n{text}"
    );
    let (again, built) = counting(|| assemble_text(&text));
    assert!(built < 200_000, "{built} nodes built");
    let again = again.image.unwrap_or_else(|| panic!("{text}"));
    assert_eq!(again.registers.len(), image.registers.len());
    for (a, b) in image.registers.iter().zip(&again.registers) {
        assert_eq!((&a.name, a.limit), (&b.name, b.limit));
        assert_eq!(a.contents, b.contents, "register {}", a.name);
    }
}

/// A large tree that shares nothing is written as one bits string, and a
/// large tree that shares a part with another register names it once.
#[test]
fn large_values_are_written_by_what_they_share() {
    let list = |from: i64| {
        let items: Vec<String> = (from..from + 400).map(|k| format!("[{k}]")).collect();
        format!("[{}]", items.join(", "))
    };
    let text = format!(
        "const big = {}\nreg alone auto = {}\nreg a auto = [big, 1]\nreg b auto = [big, 2]\nmain:\n    nilify prog\n",
        list(0),
        list(1000)
    );
    let image = assemble_text(&text).image.expect("assembles");
    let written = disassemble(&image);
    let bits = written.matches("bits(").count();
    // `alone` is a bits string; `big`, shared by `a` and `b`, is too, once,
    // in a constant both use.
    assert_eq!(bits, 2, "{written}");
    let again = assemble_text(&written)
        .image
        .unwrap_or_else(|| panic!("{written}"));
    for (a, b) in image.registers.iter().zip(&again.registers) {
        assert_eq!(a.contents, b.contents, "register {}", a.name);
    }
}

/// `==` on two doubling lists built apart compares their distinct parts
/// once each.
#[test]
fn doubling_values_compare_by_their_distinct_parts() {
    let mut text = String::from("const a0 = [nil]\nconst b0 = [nil]\nconst c0 = [1]\n");
    for k in 1..=DOUBLINGS {
        let j = k - 1;
        text.push_str(&format!(
            "const a{k} = [a{j} | a{j}]\nconst b{k} = [b{j} | b{j}]\nconst c{k} = [c{j} | c{j}]\n"
        ));
    }
    text.push_str("reg same = a60 == b60\nreg different = a60 == c60\nmain:\n    nilify prog\n");
    let image = assemble_text(&text).image.expect("assembles");
    assert_eq!(contents(&image, "same"), &true.encode());
    assert_eq!(contents(&image, "different"), &false.encode());
}

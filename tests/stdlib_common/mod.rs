//! Helpers shared by the standard library tests (`tests/stdlib_*.rs`):
//! assembling small programs that use a module, running them in the
//! machine, reading registers, and building Int encodings (canonical or not,
//! wider than 64 bits) to compare results against.
//!
//! Programs are assembled with the standard library built into the binary;
//! `$CONSTREE_STDLIB` (a directory) overrides it, as for `constree asm`.

#![allow(dead_code)]

#[path = "../stdlib_docs/mod.rs"]
pub mod docs;

use constree::asm::assemble;
use constree::asm::source::{DiskLoader, SourceFile};
use constree::encoding::{Decode, Encode};
use constree::image::Image;
use constree::machine::{Memory, run_for};
use constree::tree::Tree;

/// The largest number of ticks any test program may take.
pub const BUDGET: i64 = 50_000_000;

/// An assembled program.
pub struct Program {
    /// The image.
    pub image: Image,
    /// The source it was assembled from.
    pub source: String,
}

/// Assembles `source`; any diagnostic, warnings included, fails the test.
pub fn build(source: &str) -> Program {
    let assembly = assemble(
        &DiskLoader::new(None),
        SourceFile::new("test.cta".into(), None, source.into()),
    );
    assert!(
        assembly.diagnostics.is_empty(),
        "diagnostics for\n{source}\n{}",
        assembly.render(false)
    );
    Program {
        image: assembly.image.expect("no errors, so an image"),
        source: source.to_string(),
    }
}

/// A program that uses `std/MODULE`, declares the registers `regs` (limit
/// 1,000,000 each) and runs `body` (lines of code) once, then halts.
pub fn program(module: &str, regs: &[&str], body: &str) -> Program {
    let mut source = format!("use std/control\nuse std/{module}\n");
    for r in regs {
        source.push_str(&format!("reg {r} 1000000 = nil\n"));
    }
    source.push_str("main:\n");
    for line in body.lines() {
        source.push_str(&format!("    {}\n", line.trim()));
    }
    source.push_str("    halt\n");
    build(&source)
}

/// The first program (```-fenced block) of `std/NAME`'s section of
/// `docs/stdlib.md`, assembled.
pub fn doc_example(name: &str) -> Program {
    let blocks = docs::blocks(name);
    let block = blocks
        .first()
        .unwrap_or_else(|| panic!("the docs of std/{name} have no example"));
    build(block)
}

/// A finished run: the memory and the ticks spent.
pub struct Run<'p> {
    /// The program that ran.
    pub program: &'p Program,
    /// The memory after the run.
    pub memory: Memory,
    /// Ticks, the final `halt` included.
    pub ticks: u64,
}

impl Program {
    /// The index of a register.
    pub fn index(&self, name: &str) -> usize {
        self.image
            .register(name)
            .unwrap_or_else(|| panic!("no register `{name}` in\n{}", self.source))
    }

    /// Runs the program with some registers set first; it must halt without
    /// a machine error.
    pub fn run(&self, inputs: &[(&str, Tree)]) -> Run<'_> {
        let mut memory = self.image.memory();
        for (name, tree) in inputs {
            let i = self.index(name);
            assert!(tree.fits(memory[i].limit), "`{name}` cannot hold the input");
            memory[i].contents = tree.clone();
        }
        let report = run_for(BUDGET, &mut memory).unwrap_or_else(|e| {
            panic!(
                "machine error {e:?} for inputs {inputs:?} in\n{}",
                self.source
            )
        });
        assert!(
            report.halted,
            "no halt within {BUDGET} ticks for {inputs:?}"
        );
        Run {
            program: self,
            memory,
            ticks: report.ticks,
        }
    }
}

impl Run<'_> {
    /// A register's contents.
    pub fn get(&self, name: &str) -> &Tree {
        &self.memory[self.program.index(name)].contents
    }

    /// The ticks of the body, without the final `halt`.
    pub fn cost(&self) -> u64 {
        self.ticks - 1
    }

    /// A register decoded as the engine decodes an Int.
    pub fn int(&self, name: &str) -> i64 {
        i64::decode(self.get(name))
            .unwrap_or_else(|| panic!("`{name}` is not an Int: {:?}", self.get(name)))
    }

    /// A register decoded as a list of Ints.
    pub fn ints(&self, name: &str) -> Vec<i64> {
        Vec::<i64>::decode(self.get(name))
            .unwrap_or_else(|| panic!("`{name}` is not a list of Ints: {:?}", self.get(name)))
    }

    /// Whether a register holds a non-Nil tree.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name).is_cons()
    }

    /// Asserts that every named register is Nil (internal stacks between
    /// calls).
    pub fn assert_nil(&self, names: &[&str]) {
        for name in names {
            assert!(
                self.get(name).is_nil(),
                "`{name}` is left holding {:?}",
                self.get(name)
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Ints, exactly (wider than 64 bits) and in non-canonical forms.

/// The negative tag, `Cons Nil (Cons Nil Nil)`.
pub fn neg_tag() -> Tree {
    Tree::cons(Tree::NIL, Tree::unit())
}

/// A raw bit list, least significant first.
pub fn bits(bits: &[bool]) -> Tree {
    bits.encode()
}

/// `Cons NEG t`.
pub fn tagged(t: Tree) -> Tree {
    Tree::cons(neg_tag(), t)
}

/// The canonical encoding of any `i128` (for `i64` values it equals the
/// engine's `encode`).
pub fn enc128(n: i128) -> Tree {
    let mut magnitude = n.unsigned_abs();
    let mut list = Vec::new();
    while magnitude != 0 {
        list.push(magnitude & 1 == 1);
        magnitude >>= 1;
    }
    let t = bits(&list);
    if n < 0 { tagged(t) } else { t }
}

/// The exact value of an Int encoding (any form the engine's decoder
/// accepts), or `None` if it is not one or does not fit 127 bits.
pub fn dec128(t: &Tree) -> Option<i128> {
    let mut negative = false;
    let mut t = t;
    while let Some((f, b)) = t.split() {
        if f.is_nil() || *f != neg_tag() {
            break;
        }
        negative = !negative;
        t = b;
    }
    let mut value: u128 = 0;
    for (i, bit) in t.iter_list().enumerate() {
        if bool::decode(bit)? {
            if i >= 127 {
                return None;
            }
            value |= 1 << i;
        }
    }
    let value = value as i128;
    Some(if negative { -value } else { value })
}

/// Whether an Int encoding is canonical: what `enc128` writes for its value.
pub fn canonical(t: &Tree) -> bool {
    dec128(t).is_some_and(|v| enc128(v) == *t)
}

/// The length of a number's canonical bit list.
pub fn bitlen(n: u128) -> u64 {
    u64::from(128 - n.leading_zeros())
}

/// Trailing 1 bits.
pub fn trailing_ones(n: u128) -> u64 {
    u64::from(n.trailing_ones())
}

/// Trailing 0 bits (0 for 0).
pub fn trailing_zeros(n: u128) -> u64 {
    if n == 0 {
        0
    } else {
        u64::from(n.trailing_zeros())
    }
}

/// Set bits.
pub fn popcount(n: u128) -> u64 {
    u64::from(n.count_ones())
}

/// Samples of interesting `i64` values: small ones, powers of two and their
/// neighbours, the extremes.
pub fn interesting_i64() -> Vec<i64> {
    let mut v: Vec<i64> = (-20..=20).collect();
    for k in 1..63 {
        let p = 1i64 << k;
        v.extend([p - 1, p, p + 1, -p + 1, -p, -p - 1]);
    }
    v.extend([
        i64::MAX,
        i64::MAX - 1,
        i64::MIN,
        i64::MIN + 1,
        0x5555_5555_5555_5555,
        -0x5555_5555_5555_5555,
        0x1234_5678_9abc_def0,
    ]);
    v.sort_unstable();
    v.dedup();
    v
}

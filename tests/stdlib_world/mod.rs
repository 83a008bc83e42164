//! Shared helpers for the standard library tests (`stdlib_input`,
//! `stdlib_commands`, `stdlib_memory`): assembling programs that use
//! `std/...` modules, running them in the machine with registers addressed
//! by name, and building small worlds whose robots run such programs, with
//! the engine's own view of each step (what it will write into every
//! robot's input) for comparison.

#![allow(dead_code)]

#[path = "../stdlib_docs/mod.rs"]
pub mod docs;

use constree::asm::source::{MemoryLoader, SourceFile};
use constree::asm::{Assembly, assemble};
use constree::encoding::{Decode, Encode};
use constree::image::Image;
use constree::machine::{Memory, Register, RunReport, run_for, trim};
use constree::tree::Tree;
use constree::world::step::{ResolvedSquare, private_input};
use constree::world::update::take_all;
use constree::world::{
    Action, Cell, Color, Command, Frame, Item, Processor, Robot, Shape, Square, StepReport, World,
    update_reported,
};

/// Assembles a program as `test.cta` (the standard library is the
/// built-in one).
fn assembly(source: &str) -> Assembly {
    assemble(
        &MemoryLoader::default(),
        SourceFile::new("test.cta".into(), None, source.into()),
    )
}

/// Assembles a program; a diagnostic whose code is not in `allowed` fails
/// the test.
fn build_allowing(source: &str, allowed: &[&str]) -> Image {
    let assembly = assembly(source);
    assert!(
        assembly
            .diagnostics
            .iter()
            .all(|d| allowed.contains(&d.code.as_str())),
        "{}\n--- source:\n{source}",
        assembly.render(false)
    );
    assembly.image.expect("no errors")
}

/// Assembles a program (the standard library is the built-in one). Any
/// diagnostic, warnings included, fails the test.
pub fn build(source: &str) -> Image {
    build_allowing(source, &[])
}

/// Assembles a program allowing W0702 (a register read but never written):
/// for programs whose registers the test sets from Rust before a run.
pub fn build_lenient(source: &str) -> Image {
    build_allowing(source, &["W0702"])
}

/// Checks that the section of `docs/stdlib.md` about `std/MODULE` shows
/// one whole program, and that it assembles without a diagnostic.
pub fn assert_the_docs_program_assembles(module: &str) {
    let programs = docs::programs(module);
    assert_eq!(programs.len(), 1);
    for p in programs {
        build(&p);
    }
}

/// Assembles a program and returns the codes of its diagnostics.
pub fn diagnostics(source: &str) -> Vec<&'static str> {
    let assembly = assembly(source);
    assembly
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect()
}

/// A program that `use`s the given modules, calls `routine` once and halts.
/// Its run takes the routine's ticks (call and ret included) plus 1.
pub fn caller(modules: &[&str], routine: &str) -> String {
    let mut source = String::from("use std/control\n");
    for m in modules {
        source.push_str(&format!("use std/{m}\n"));
    }
    source.push_str(&format!("main:\n    call {routine}\n    halt\n"));
    source
}

/// A machine: an image's memory with its registers addressed by name.
#[derive(Clone)]
pub struct Machine {
    /// The program.
    pub image: Image,
    /// Its memory as the last run left it.
    pub memory: Memory,
}

impl Machine {
    /// Assembles `source` (no diagnostic allowed) into a fresh machine.
    pub fn new(source: &str) -> Machine {
        let image = build(source);
        let memory = image.memory();
        Machine { image, memory }
    }

    /// A program whose registers the test sets (W0702 allowed), such as
    /// those [`caller`] makes.
    pub fn lenient(source: &str) -> Machine {
        let image = build_lenient(source);
        let memory = image.memory();
        Machine { image, memory }
    }

    /// A fresh memory of the same program.
    pub fn reset(&mut self) {
        self.memory = self.image.memory();
    }

    /// The number of register `name`.
    pub fn index(&self, name: &str) -> usize {
        self.image
            .register(name)
            .unwrap_or_else(|| panic!("no register `{name}`"))
    }

    /// The contents of register `name`.
    pub fn get(&self, name: &str) -> &Tree {
        &self.memory[self.index(name)].contents
    }

    /// Register `name` decoded as a `T`; one that does not decode fails
    /// the test.
    pub fn read<T: Decode>(&self, name: &str) -> T {
        T::decode(self.get(name)).unwrap_or_else(|| {
            panic!(
                "`{name}` does not decode as {}: {:?}",
                std::any::type_name::<T>(),
                self.get(name)
            )
        })
    }

    /// Sets a register (the tree must fit its limit).
    pub fn set_tree(&mut self, name: &str, tree: Tree) {
        let i = self.index(name);
        assert!(
            tree.fits(self.memory[i].limit),
            "`{name}` (limit {}) cannot hold a tree of size {}",
            self.memory[i].limit,
            tree.size()
        );
        self.memory[i].contents = tree;
    }

    /// Sets a register to a value's encoding (which must fit its limit).
    pub fn set<T: Encode + ?Sized>(&mut self, name: &str, value: &T) {
        self.set_tree(name, value.encode());
    }

    /// Writes the input as the engine does: trimmed to fit `in`.
    pub fn set_input(&mut self, input: &Tree) {
        self.memory[1].fit_tree(input.clone());
    }

    /// Runs until the program halts (at most `ticks`); a machine error or a
    /// program that does not halt fails the test. Returns the ticks used.
    pub fn run(&mut self, ticks: i64) -> u64 {
        let report = self.run_report(ticks);
        assert!(report.halted, "did not halt within {ticks} ticks");
        report.ticks
    }

    /// Runs for at most `ticks`; a machine error fails the test.
    pub fn run_report(&mut self, ticks: i64) -> RunReport {
        run_for(ticks, &mut self.memory).unwrap_or_else(|e| panic!("machine error {e:?}"))
    }

    /// Runs a program made by [`caller`] and returns the routine's ticks
    /// (the halt taken off).
    pub fn call_ticks(&mut self) -> u64 {
        self.run(10_000_000) - 1
    }
}

/// Reads a register of a robot whose memory came from `image`.
pub fn robot_reg<'a>(image: &Image, robot: &'a Robot, name: &str) -> &'a Tree {
    let i = image
        .register(name)
        .unwrap_or_else(|| panic!("no register `{name}`"));
    &robot.memory[i].contents
}

// ---------------------------------------------------------------------------
// Values.

/// An Int's encoding.
pub fn int(n: i64) -> Tree {
    n.encode()
}

/// The encoding of a list of Ints.
pub fn ints(ns: &[i64]) -> Tree {
    ns.to_vec().encode()
}

/// `true` as the machine sees it: Cons Nil Nil.
pub fn yes() -> Tree {
    true.encode()
}

/// An image's memory, with its register `flag` set to [`yes`] when `set`.
pub fn memory_with_flag(image: &Image, flag: &str, set: bool) -> Memory {
    let mut memory = image.memory();
    if set {
        memory[image.register(flag).unwrap()].contents = yes();
    }
    memory
}

/// A unary number: a list of `n` Nils.
pub fn unary(n: usize) -> Tree {
    Tree::list(std::iter::repeat_n(Tree::NIL, n))
}

/// A frame of a colour and strength.
pub fn frame(color: Color, strength: i64) -> Frame {
    Frame { color, strength }
}

/// A cargo of a kind and weight.
pub fn cargo(kind: i64, weight: i64) -> Item {
    Item::Cargo(kind, weight)
}

/// An empty register part of a limit.
pub fn register_part(limit: i64) -> Item {
    Item::RegisterPart(Register::new(limit, Tree::NIL))
}

/// The register parts a robot needs to hold `memory` (same limits).
pub fn parts_for(memory: &Memory) -> Vec<Item> {
    memory
        .iter()
        .map(|r| Item::RegisterPart(Register::new(r.limit, Tree::NIL)))
        .collect()
}

// ---------------------------------------------------------------------------
// Robots and worlds.

/// A robot with this memory, frame, processor speed and inventory.
pub fn robot(
    memory: Memory,
    color: Color,
    strength: i64,
    speed: i64,
    inventory: Vec<Item>,
) -> Robot {
    Robot {
        frame: frame(color, strength),
        inventory,
        processor: Processor { speed },
        memory,
    }
}

/// A robot that gives the commands of `script`, one a step: the first one
/// is its initial output (the command of step 1), the others follow, then
/// it passes forever. It needs 4 ticks a step at most.
pub fn scripted(script: &[Command], color: Color, strength: i64, inventory: Vec<Item>) -> Robot {
    let image = script_image();
    let mut memory = image.memory();
    let mut commands = script.iter();
    let first = commands.next().cloned().unwrap_or(Command::Pass);
    memory[2].contents = first.encode();
    let rest: Vec<Command> = commands.cloned().collect();
    let i = image.register("script").unwrap();
    memory[i].contents = rest.encode();
    robot(memory, color, strength, 100, inventory)
}

/// The program of [`scripted`] robots: each step it moves the next
/// command of `script` into `out`, then passes when none is left.
pub fn script_image() -> Image {
    build(
        "use std/control
reg out 100000 = Pass
reg script 100000
main:
    wait_step
    jnil script, .idle
    pop script, out
    jmp main
.idle:
    mov out, Pass
    jmp main
",
    )
}

/// A square (a cell that is not a wall) with robots and items.
pub fn square(robots: Vec<Robot>, items: Vec<Item>) -> Cell {
    Some(Square { robots, items })
}

/// A world of `dims` cells, wrapping at its edges when `wrap`.
pub fn world(dims: (i64, i64), wrap: bool, cells: Vec<Cell>) -> World {
    World::new(Shape::new(dims, wrap).unwrap(), cells).unwrap()
}

/// The square at a position (panics on a wall).
pub fn at(world: &World, p: (i64, i64)) -> &Square {
    world.at(p).as_ref().expect("a square")
}

/// One step of the world, with the engine's resolution of that step for
/// every cell (before the machines run): what each robot's input is made of.
pub fn step(world: World) -> (World, StepReport, Vec<Option<ResolvedSquare>>) {
    let resolved = resolve(&world);
    let (next, report) = update_reported(world);
    (next, report, resolved)
}

/// The engine's resolution of the next step of every cell, as
/// `update_reported` computes it (through the same `take_all`).
pub fn resolve(world: &World) -> Vec<Option<ResolvedSquare>> {
    let taken = take_all(world.clone());
    taken
        .squares
        .into_iter()
        .zip(taken.openings)
        .zip(taken.entering)
        .map(|((here, open), entering)| {
            here.map(|here| ResolvedSquare::resolve(here, &open, entering))
        })
        .collect()
}

/// The whole input of robot `i` of a resolved square, encoded with the
/// engine's encoders: `(i, allRobots, allActions, (unaffected, dropped,
/// fallen), privateInput action)`, before it is trimmed to fit.
pub fn full_input(sq: &ResolvedSquare, i: usize) -> Tree {
    (
        i,
        &sq.all_robots,
        &sq.all_actions,
        (&sq.unaffected, &sq.dropped, &sq.fallen),
        private_input(&sq.all_actions[i]),
    )
        .encode()
}

/// The input as it lands in a register of this limit.
pub fn trimmed(limit: i64, tree: &Tree) -> Tree {
    let t = trim(limit, tree);
    if t.fits(limit) { t } else { Tree::NIL }
}

/// For each robot of a resolved square, its index among the robots that
/// stay (the next step's command indices), `None` if it goes.
pub fn next_indices(sq: &ResolvedSquare) -> Vec<Option<usize>> {
    let mut next = 0;
    (0..sq.all_robots.len())
        .map(|i| {
            sq.present(i).then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// The tag of an action in the input (`Passed` and `Invalid` are both 0).
pub fn action_tag(a: &Action) -> i64 {
    i64::decode(a.encode().front().unwrap()).unwrap()
}

// ---------------------------------------------------------------------------
// Cost formulas of std/input's routines (docs/stdlib.md (std/input)), in ticks,
// call and ret included.

/// `(L, p)`: the bit length of `n` and its number of 1 bits.
pub fn bits(n: u64) -> (u64, u64) {
    (64 - n.leading_zeros() as u64, n.count_ones() as u64)
}

/// input.unary on N.
pub fn unary_ticks(n: u64) -> u64 {
    let (l, p) = bits(n);
    if n == 0 {
        7
    } else {
        4 * n + 6 * l + 2 * p + (1 << (l + 1))
    }
}

/// input.drop of N elements from a list long enough.
pub fn drop_ticks(n: u64) -> u64 {
    let (l, p) = bits(n);
    if n == 0 {
        7
    } else {
        5 * n + 6 * l + 2 * p + (1 << (l + 1))
    }
}

/// input.int on a list of `m` elements.
pub fn int_ticks(m: u64) -> u64 {
    let (l, p) = bits(m);
    8 + 6 * m - 3 * p + 8 * l
}

/// input.inc on N.
pub fn inc_ticks(n: u64) -> u64 {
    let t = n.trailing_ones() as u64;
    if n == (1 << t) - 1 {
        8 + 9 * t
    } else {
        10 + 9 * t
    }
}

/// input.eq on two bit lists (Nil = 0, Cons = 1).
pub fn eq_ticks(a: &[bool], b: &[bool]) -> u64 {
    let mut ticks = 0;
    for k in 0.. {
        match (a.get(k), b.get(k)) {
            (None, _) | (_, None) => return ticks + 5,
            (Some(x), Some(y)) if x == y => ticks += if *x { 7 } else { 6 },
            (Some(true), Some(false)) => return ticks + 9,
            (Some(false), Some(true)) => return ticks + 10,
            _ => unreachable!(),
        }
    }
    unreachable!()
}

/// The bits of `n` as a `u64`, lowest first, up to its highest 1 (for
/// `n >= 0`, the bit list of its encoding).
pub fn int_bits(n: i64) -> Vec<bool> {
    let mut bits = Vec::new();
    let mut n = n as u64;
    while n > 0 {
        bits.push(n & 1 == 1);
        n >>= 1;
    }
    bits
}

/// input.eq on two Ints.
pub fn eq_int_ticks(a: i64, b: i64) -> u64 {
    eq_ticks(&int_bits(a), &int_bits(b))
}

/// input.nth of element N, when the list has it.
pub fn nth_ticks(n: u64) -> u64 {
    drop_ticks(n) + 7
}

/// The per-action cost of input.staying's scan.
pub fn scan_ticks(tag: i64) -> u64 {
    match tag {
        0 => 6,
        t if t % 2 == 1 => 9,
        4 | 8 | 12 | 16 => 10,
        2 => 11,
        10 => 13,
        6 => 14,
        14 => 15,
        _ => unreachable!(),
    }
}

/// input.staying on a step's actions.
pub fn staying_ticks(actions: &[Action]) -> u64 {
    let mut ticks = 12 + 4 * actions.len() as u64;
    for a in actions {
        ticks += scan_ticks(action_tag(a));
        if let Action::Destroyed(d) = a {
            let d = *d as u64;
            ticks += 7 + unary_ticks(d) + 9 * d;
        }
    }
    ticks
}

/// input.next_index for input index k; `gone[j]` says robot j goes.
pub fn next_index_ticks(k: usize, gone: &[bool]) -> u64 {
    let u = unary_ticks(k as u64);
    let m = gone.len();
    if k > m {
        let s = gone.iter().filter(|g| !**g).count() as u64;
        return u + 6 * m as u64 + s + 11;
    }
    let s = gone[..k].iter().filter(|g| !**g).count() as u64;
    if k == m {
        u + 6 * k as u64 + s + 10
    } else if gone[k] {
        u + 6 * k as u64 + s + 13
    } else {
        u + 6 * k as u64 + s + 8 + int_ticks(s)
    }
}

/// input.eq with its call.
pub fn eq_call_ticks(a: i64, b: i64) -> u64 {
    eq_int_ticks(a, b) + 2
}

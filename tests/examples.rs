//! The example programs of `examples/`: every one assembles without a
//! diagnostic, its listing matches its snapshot (`tests/snapshots/`), the
//! commands its header documents run, and it does what it says, checked
//! against values the engine's own encoders compute.
//!
//! Every `examples/*.cta` is picked up from the directory; a new example must
//! also get a behaviour test below and be named in [`BEHAVIOUR_TESTED`].

mod examples_common;

use constree::asm::parse_literal;
use constree::encoding::{Decode, Encode};
use constree::image::Image;
use constree::machine::{Memory, Register, RunReport, run_for, run_machine};
use constree::tree::Tree;
use constree::world::robot::{INPUT, OUTPUT};
use constree::world::{
    Action, Color, Command, Direction, Frame, Item, Processor, Robot, Shape, Square, World,
};
use examples_common::{
    assemble, documented_commands, examples_dir, portable_listing, run_documented_commands, source,
};

/// The examples with a behaviour test of their own in this file.
const BEHAVIOUR_TESTED: &[&str] = &[
    "binary_increment",
    "builder",
    "calls",
    "child",
    "count",
    "echo",
    "macros",
    "walker",
];

/// The names (without `.cta`) of every example, sorted.
fn example_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(examples_dir())
        .expect("examples/ exists")
        .map(|e| e.expect("examples/ is readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cta"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// An example's machine, with its registers addressed by name.
struct Machine {
    name: String,
    image: Image,
    memory: Memory,
}

impl Machine {
    fn new(name: &str) -> Machine {
        let image = assemble(name);
        let memory = image.memory();
        Machine {
            name: name.to_string(),
            image,
            memory,
        }
    }

    fn index(&self, register: &str) -> usize {
        self.image
            .register(register)
            .unwrap_or_else(|| panic!("{}.cta has no register `{register}`", self.name))
    }

    fn get(&self, register: &str) -> &Tree {
        &self.memory[self.index(register)].contents
    }

    /// Decodes a register, failing the test if it does not decode.
    fn read<T: Decode>(&self, register: &str) -> T {
        T::decode(self.get(register)).unwrap_or_else(|| {
            panic!(
                "{}.cta: `{register}` does not decode as {}: {:?}",
                self.name,
                std::any::type_name::<T>(),
                self.get(register)
            )
        })
    }

    /// Sets a register before a run (the value must fit its limit).
    fn set<T: Encode + ?Sized>(&mut self, register: &str, value: &T) {
        let i = self.index(register);
        let tree = value.encode();
        assert!(
            tree.fits(self.memory[i].limit),
            "{register} cannot hold {tree:?}"
        );
        self.memory[i].contents = tree;
    }

    /// One run of `runMachine`; a machine error fails the test.
    fn run(&mut self, speed: i64) -> RunReport {
        run_machine(speed, &mut self.memory)
            .unwrap_or_else(|e| panic!("{}.cta: machine error {e:?}", self.name))
    }

    /// One game step as `constree exec` (and the engine) does it: take the
    /// output register and clear it, write the input (trimmed to fit), run.
    /// Returns the command taken.
    fn step(&mut self, speed: i64, input: Option<&Tree>) -> Tree {
        let out = std::mem::take(&mut self.memory[OUTPUT].contents);
        if let Some(input) = input {
            self.memory[INPUT].fit_tree(input.clone());
        }
        let report = self.run(speed);
        assert!(
            !report.halted,
            "{}.cta halted in a step after {} ticks",
            self.name, report.ticks
        );
        out
    }
}

fn command(out: &Tree) -> Command {
    Command::decode(out).unwrap_or_else(|| panic!("not a command: {out:?}"))
}

// ---------------------------------------------------------------------------
// Every example.

#[test]
fn every_example_assembles_without_diagnostics() {
    let names = example_names();
    assert!(names.len() >= 6, "too few examples: {names:?}");
    for name in &names {
        let image = assemble(name);
        assert!(
            image.registers.len() > 3 && image.registers[0].contents.is_cons(),
            "{name}.cta: no program"
        );
    }
}

#[test]
fn every_example_has_a_behaviour_test() {
    assert_eq!(
        example_names(),
        BEHAVIOUR_TESTED,
        "add a behaviour test for the new example to tests/examples.rs"
    );
}

#[test]
fn every_example_has_a_header_saying_what_and_how() {
    for name in example_names() {
        let text = source(&name);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!("; {name}.cta: ")),
            "{name}.cta must start with `; {name}.cta: what it shows`, found {first:?}"
        );
        assert!(
            !documented_commands(&name).is_empty(),
            "{name}.cta's header must show how to run it (`;     constree exec examples/{name}.cta ...`)"
        );
    }
}

#[test]
fn example_listings() {
    for name in example_names() {
        let image = assemble(&name);
        insta::assert_snapshot!(format!("listing_{name}"), portable_listing(&image));
    }
}

#[test]
fn the_commands_in_the_headers_run() {
    let mut ran = 0;
    for name in example_names() {
        ran += run_documented_commands(&name).len();
    }
    assert!(ran >= example_names().len(), "only {ran} commands found");
}

// ---------------------------------------------------------------------------
// count.cta

#[test]
fn count_reverses_its_list() {
    let mut m = Machine::new("count");
    let report = m.run(30);
    assert!(report.halted);
    assert_eq!(report.ticks, 22, "4 ticks an element, 2 to finish");
    assert_eq!(m.read::<Vec<i64>>("dst"), vec![5, 4, 3, 2, 1]);
    assert!(m.get("src").is_nil());
}

#[test]
fn count_reverses_other_lists() {
    let lists: Vec<Vec<i64>> = vec![
        vec![],
        vec![7],
        vec![-1, 0, 1],
        (0..100).collect(),
        vec![i64::MAX, i64::MIN, 0],
    ];
    for list in lists {
        let mut m = Machine::new("count");
        m.set("src", &list);
        let report = m.run(10_000);
        assert!(report.halted);
        assert_eq!(report.ticks, 4 * list.len() as u64 + 2);
        let reversed: Vec<i64> = list.iter().rev().copied().collect();
        assert_eq!(m.get("dst"), &reversed.encode());
        assert!(m.get("src").is_nil());
    }
}

#[test]
fn count_stops_where_its_ticks_run_out() {
    // After 2 turns of the loop (8 ticks) two elements have moved.
    let mut m = Machine::new("count");
    let report = run_for(8, &mut m.memory).unwrap();
    assert!(!report.halted);
    assert_eq!(m.read::<Vec<i64>>("dst"), vec![2, 1]);
    assert_eq!(m.read::<Vec<i64>>("src"), vec![3, 4, 5]);
    // And it carries on from there.
    assert!(m.run(100).halted);
    assert_eq!(m.read::<Vec<i64>>("dst"), vec![5, 4, 3, 2, 1]);
}

// ---------------------------------------------------------------------------
// walker.cta

#[test]
fn walker_moves_east_every_step() {
    let east = Command::Move(Direction::E).encode();
    for speed in [3, 4, 20, 1000] {
        let mut m = Machine::new("walker");
        for step in 1..=10 {
            let out = m.step(speed, None);
            assert_eq!(out, east, "speed {speed}, step {step}");
            assert_eq!(command(&out), Command::Move(Direction::E));
        }
    }
}

#[test]
fn walker_needs_three_ticks_a_step() {
    // With 2 ticks a step the program falls behind: some steps find `out`
    // empty, as the engine would.
    let mut m = Machine::new("walker");
    let outs: Vec<Tree> = (0..6).map(|_| m.step(2, None)).collect();
    assert!(outs.iter().any(Tree::is_nil), "{outs:?}");
}

// ---------------------------------------------------------------------------
// calls.cta

#[test]
fn calls_flattens_its_rows() {
    let mut m = Machine::new("calls");
    let report = m.run(10_000);
    assert!(report.halted);
    assert_eq!(m.read::<Vec<i64>>("flat"), vec![1, 2, 3, 4, 5, 6]);
    assert!(m.get("rows").is_nil());
    assert!(m.get("saved").is_nil());
    assert!(m.get("stack").is_nil(), "every call returned");
}

#[test]
fn calls_flattens_other_rows() {
    let cases: Vec<Vec<Vec<i64>>> = vec![
        vec![],
        vec![vec![]],
        vec![vec![1]],
        vec![vec![], vec![], vec![-3, 4]],
        (0..12).map(|i| (0..i).collect()).collect(),
    ];
    for rows in cases {
        let mut m = Machine::new("calls");
        m.set("rows", &rows);
        let report = m.run(1_000_000);
        assert!(report.halted, "{rows:?}");
        let flat: Vec<i64> = rows.concat();
        assert_eq!(m.get("flat"), &flat.encode(), "{rows:?}");
        assert!(m.get("stack").is_nil());
    }
}

#[test]
fn calls_recursion_uses_the_stack() {
    // The stack holds one return continuation per active call: main's, then
    // one per row as `flatten` recurses (the 5th call finds no rows), and
    // `prepend` is reached by a jump, so its call of `move_all` adds one to
    // the 4 left after the deepest `flatten` returns.
    let mut m = Machine::new("calls");
    let mut deepest = 0;
    let mut depths = Vec::new();
    while !m.memory[0].contents.is_nil() {
        run_for(1, &mut m.memory).unwrap();
        let depth = m.get("stack").list_len();
        deepest = deepest.max(depth);
        if depths.last() != Some(&depth) {
            depths.push(depth);
        }
    }
    assert_eq!(deepest, 5, "main's call and 4 recursive calls");
    assert_eq!(&depths[..6], &[0, 1, 2, 3, 4, 5], "{depths:?}");
    assert!(m.get("stack").is_nil());
}

// ---------------------------------------------------------------------------
// binary_increment.cta

#[test]
fn binary_increment_adds_by_counting() {
    let mut m = Machine::new("binary_increment");
    let report = m.run(100_000);
    assert!(report.halted);
    assert_eq!(m.read::<i64>("n"), 1024);
    assert!(m.get("k").is_nil(), "k is 0");
    // Canonical encodings: no trailing 0 bit.
    assert_eq!(m.get("n"), &1024i64.encode());
}

#[test]
fn binary_increment_adds_any_two_small_numbers() {
    let image = assemble("binary_increment");
    let (n, k) = (image.register("n").unwrap(), image.register("k").unwrap());
    let mut values: Vec<i64> = (0..40).collect();
    values.extend([63, 64, 127, 128, 255, 256, 1023]);
    for &a in &values {
        for &b in &values {
            let mut memory = image.memory();
            memory[n].contents = a.encode();
            memory[k].contents = b.encode();
            let report = run_machine(10_000_000, &mut memory).unwrap();
            assert!(report.halted);
            assert_eq!(memory[n].contents, (a + b).encode(), "{a} + {b}");
            assert!(memory[k].contents.is_nil(), "{a} + {b}");
        }
    }
}

#[test]
fn binary_increment_carries_into_high_bits() {
    // 2^40 - 1 plus 1: a carry through 40 bits.
    let mut m = Machine::new("binary_increment");
    m.set("n", &((1i64 << 40) - 1));
    m.set("k", &3i64);
    assert!(m.run(100_000).halted);
    assert_eq!(m.get("n"), &((1i64 << 40) + 2).encode());
}

// ---------------------------------------------------------------------------
// echo.cta

fn literal(text: &str) -> Tree {
    parse_literal(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn echo_moves_towards_the_first_direction() {
    let input = literal("[S, W]");
    assert_eq!(input, vec![Direction::S, Direction::W].encode());
    let mut m = Machine::new("echo");
    assert_eq!(command(&m.step(50, Some(&input))), Command::Pass);
    for _ in 0..3 {
        assert_eq!(
            m.step(50, Some(&input)),
            Command::Move(Direction::S).encode()
        );
    }
    assert_eq!(m.read::<Direction>("heading"), Direction::S);
}

#[test]
fn echo_answers_each_input_in_the_next_step() {
    // Every direction, and an empty input (Pass) between them.
    let mut m = Machine::new("echo");
    let mut inputs: Vec<Tree> = Vec::new();
    for d in Direction::ALL {
        inputs.push(vec![d, Direction::N].encode());
        inputs.push(Tree::NIL);
    }
    let mut expected = vec![Command::Pass];
    for d in Direction::ALL {
        expected.push(Command::Move(d));
        expected.push(Command::Pass);
    }
    let mut outs = Vec::new();
    for input in &inputs {
        outs.push(command(&m.step(9, Some(input))));
    }
    outs.push(command(&m.step(9, None)));
    assert_eq!(outs, expected);
}

#[test]
fn echo_without_input_passes() {
    let mut m = Machine::new("echo");
    for _ in 0..4 {
        assert_eq!(m.step(50, None), Command::Pass.encode());
    }
    assert!(m.get("heading").is_nil());
}

// ---------------------------------------------------------------------------
// macros.cta

#[test]
fn macros_builds_splits_and_rejoins_the_squares() {
    let mut m = Machine::new("macros");
    let report = m.run(1000);
    assert!(report.halted);
    assert_eq!(report.ticks, 52);
    assert_eq!(m.read::<Vec<i64>>("squares"), vec![16, 25, 36, 1, 4, 9]);
    assert!(m.get("small").is_nil());
    assert!(m.get("big").is_nil());
}

#[test]
fn macros_unrolls_at_assembly_time() {
    // One constant register per square, each holding k*k.
    let image = assemble("macros");
    let mut constants: Vec<i64> = image
        .registers
        .iter()
        .filter(|r| r.name.starts_with("const"))
        .map(|r| i64::decode(&r.contents).unwrap())
        .collect();
    constants.sort();
    assert_eq!(constants, vec![1, 4, 9, 16, 25, 36]);
    // The main code holds 6 pushes, then the 3 unrolled moves of `take 3`.
    let code = &image.registers[0].contents;
    assert_eq!(code.list_len(), 6 + 3 * 3 + 4);
}

// ---------------------------------------------------------------------------
// child.cta and builder.cta

fn child_memory() -> Memory {
    assemble("child").memory()
}

#[test]
fn child_lifts_then_walks_north() {
    let mut m = Machine::new("child");
    assert_eq!(command(&m.step(10, None)), Command::Lift(0));
    for _ in 0..5 {
        assert_eq!(command(&m.step(10, None)), Command::Move(Direction::N));
    }
    assert_eq!(m.image.registers.len(), 7, "the header says 7 registers");
}

#[test]
fn child_keeps_its_first_command_when_run_before_a_step() {
    // A robot runs in the step it is built, before its output is read.
    let mut m = Machine::new("child");
    m.run(10);
    assert_eq!(command(m.get("out")), Command::Lift(0));
}

#[test]
fn builder_builds_once_then_passes() {
    let mut m = Machine::new("builder");
    let build = Command::Build((0..=8).collect(), child_memory());
    assert_eq!(command(&m.step(20, None)), Command::Pass);
    assert_eq!(command(&m.step(20, None)), build);
    for _ in 0..4 {
        assert_eq!(command(&m.step(20, None)), Command::Pass);
    }
}

fn register_parts(memory: &Memory) -> Vec<Item> {
    memory
        .iter()
        .map(|r| Item::RegisterPart(Register::new(r.limit, Tree::NIL)))
        .collect()
}

/// The builder in a 1 x 3 world, on the middle square, with the parts for
/// the child and a cargo.
#[test]
fn builder_builds_a_child_that_carries_the_cargo_north() {
    let child = child_memory();
    let builder = Robot {
        frame: Frame {
            color: Color::Red,
            strength: 100,
        },
        inventory: vec![],
        processor: Processor { speed: 20 },
        memory: assemble("builder").memory(),
    };
    let cargo = Item::Cargo(7, 5);
    let mut items = vec![
        Item::FramePart(Frame {
            color: Color::Blue,
            strength: 10,
        }),
        Item::ProcessorPart(Processor { speed: 10 }),
    ];
    items.extend(register_parts(&child));
    items.push(cargo.clone());
    let shape = Shape::new((1, 3), true).unwrap();
    let cells = vec![
        Some(Square::default()),
        Some(Square {
            robots: vec![builder],
            items,
        }),
        Some(Square::default()),
    ];
    let mut world = World::new(shape, cells).unwrap();
    let square = |w: &World, row: i64| w.at((0, row)).clone().unwrap();

    // Step 1: the builder passes.
    let (next, report) = constree::world::update_reported(world);
    world = next;
    assert_eq!(report.cells[1][0].command, Some(Command::Pass));
    assert_eq!(square(&world, 1).robots.len(), 1);

    // Step 2: it builds; the parts are used up, the cargo is left.
    let (next, report) = constree::world::update_reported(world);
    world = next;
    let here = square(&world, 1);
    assert_eq!(here.robots.len(), 2, "{:?}", report.cells[1]);
    assert!(matches!(report.cells[1][0].action, Action::Built(..)));
    assert_eq!(here.items, vec![cargo.clone()]);
    let newborn = &here.robots[1];
    assert_eq!(newborn.frame.color, Color::Blue);
    // It ran at once, and kept `Lift 0` for its first command.
    assert_eq!(
        Command::decode(&newborn.memory[OUTPUT].contents),
        Some(Command::Lift(0))
    );

    // Step 3: the child lifts the cargo.
    let (next, report) = constree::world::update_reported(world);
    world = next;
    assert_eq!(report.cells[1][1].action, Action::Lifted(0));
    assert_eq!(square(&world, 1).robots[1].inventory, vec![cargo.clone()]);
    assert!(square(&world, 1).items.is_empty());

    // Step 4: it carries it north (row 0); the builder stays and passes.
    let (next, report) = constree::world::update_reported(world);
    world = next;
    assert_eq!(report.cells[1][0].command, Some(Command::Pass));
    let north = square(&world, 0);
    assert_eq!(north.robots.len(), 1);
    assert_eq!(north.robots[0].inventory, vec![cargo]);
    assert_eq!(square(&world, 1).robots.len(), 1);
    // Step 5: on north again, to row 2 (the grid wraps).
    world = constree::world::update(world);
    assert_eq!(square(&world, 2).robots.len(), 1);
    assert!(square(&world, 0).robots.is_empty());
}

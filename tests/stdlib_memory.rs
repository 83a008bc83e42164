//! `std/memory`: memories built from named registers, read and patched by
//! register number, taken from inspections; a robot that inspects itself
//! and builds a copy of itself (a fork, and a fresh start), in a world.
//! Checked against the engine's encoders and `initialize`; tick costs
//! against docs/stdlib.md (std/memory).

mod stdlib_world;

use constree::encoding::{Decode, Encode};
use constree::machine::{Memory, Register};
use constree::tree::Tree;
use constree::world::step::private_input;
use constree::world::{Action, Color, Command, Direction, Item, Processor};
use stdlib_world::*;

/// memory.get when register k exists.
fn get_ticks(k: u64) -> u64 {
    drop_ticks(k) + 15
}

/// memory.set on a memory of `len` registers.
fn set_ticks(k: u64, len: u64) -> u64 {
    if len > k {
        unary_ticks(k) + 15 + 10 * k
    } else {
        unary_ticks(k) + 13 + 9 * k + len
    }
}

fn from_inspection_ticks(count: u64) -> u64 {
    unary_ticks(count) + 5 * count + 19
}

fn mem(contents: &[Tree]) -> Memory {
    contents
        .iter()
        .map(|t| Register::new(0, t.clone()))
        .collect()
}

#[test]
fn push_builds_a_memory_from_named_registers() {
    let mut m = Machine::new(
        "use std/control
use std/memory
reg a = 5
reg b = [1, 2]
main:
    memory.clear
    memory.push b
    memory.push Move E
    memory.push a
    memory.push nil
    halt
",
    );
    // 1 + 4 pushes of 2 ticks + halt.
    assert_eq!(m.run(100), 10);
    let expected = mem(&[
        Tree::NIL,
        int(5),
        Command::Move(Direction::E).encode(),
        ints(&[1, 2]),
    ]);
    assert_eq!(m.get("memory.image"), &expected.encode());
}

#[test]
fn get_and_set_by_register_number() {
    let memory: Memory = (0..12)
        .map(|i| Register::new(100 + i, int(i * 3)))
        .collect();
    let mut get = Machine::lenient(&caller(&["memory"], "memory.get"));
    let mut set = Machine::lenient(&caller(&["memory"], "memory.set"));
    let value = ints(&[7, 7, 7]);
    for k in 0..16u64 {
        get.reset();
        get.set("memory.image", &memory);
        get.set("input.n", &(k as i64));
        let ticks = get.call_ticks();
        match memory.get(k as usize) {
            Some(r) => {
                assert_eq!(get.get("memory.value"), &r.contents, "get {k}");
                assert!(get.get("input.miss").is_nil());
                assert_eq!(ticks, get_ticks(k), "get {k}");
            }
            None => {
                assert!(get.get("memory.value").is_nil(), "get {k}");
                assert_eq!(get.get("input.miss"), &yes());
            }
        }

        set.reset();
        set.set("memory.image", &memory);
        set.set("input.n", &(k as i64));
        set.set_tree("memory.value", value.clone());
        assert_eq!(
            set.call_ticks(),
            set_ticks(k, memory.len() as u64),
            "set {k}"
        );
        let mut expected = memory.clone();
        while expected.len() <= k as usize {
            expected.push(Register::new(0, Tree::NIL));
        }
        expected[k as usize].contents = value.clone();
        assert_eq!(set.get("memory.image"), &expected.encode(), "set {k}");
    }
    // An empty memory grows as needed.
    set.reset();
    set.set("input.n", &3i64);
    set.set_tree("memory.value", int(9));
    assert_eq!(set.call_ticks(), set_ticks(3, 0));
    assert_eq!(
        set.get("memory.image"),
        &mem(&[Tree::NIL, Tree::NIL, Tree::NIL, int(9)]).encode()
    );
}

#[test]
fn copy_puts_a_register_at_its_own_number() {
    // The program's own memory as data; `memory.copy x` puts x's value now
    // at x's number.
    let source = "use std/control
use std/memory
reg x = 1
reg y = 2
main:
    load x, 40
    memory.copy x
    memory.copy y
    halt
";
    let mut m = Machine::lenient(source);
    let own = m.image.memory();
    m.set("memory.image", &own);
    let ticks = m.run(100_000);
    let (xi, yi) = (m.index("x"), m.index("y"));
    let mut expected = own.clone();
    expected[xi].contents = int(40);
    expected[yi].contents = int(2);
    assert_eq!(m.get("memory.image"), &expected.encode());
    assert_eq!(
        ticks,
        1 + (2 + set_ticks(xi as u64, own.len() as u64))
            + (2 + set_ticks(yi as u64, own.len() as u64))
            + 1
    );
}

#[test]
fn from_build_takes_the_memory_of_a_build_command() {
    let mut m = Machine::lenient(
        "use std/control
use std/memory
reg c = nil
main:
    memory.from_build c
    halt
",
    );
    let memory = script_image().memory();
    m.set("c", &Command::Build(vec![0, 1, 2], memory.clone()));
    assert_eq!(m.run(10), 3);
    assert_eq!(m.get("memory.image"), &memory.encode());
}

#[test]
fn from_inspection_whole_cut_and_absent() {
    let mut m = Machine::lenient(&caller(&["memory"], "memory.from_inspection"));
    let target = robot(
        script_image().memory(),
        Color::Blue,
        10,
        77,
        vec![Item::Shield],
    );
    let private = private_input(&Action::Inspected(0, target.clone()));
    let count = target.memory.len() as u64;
    // Whole.
    m.set_tree("input.private", private.clone());
    assert_eq!(m.call_ticks(), from_inspection_ticks(count));
    assert!(m.get("input.miss").is_nil());
    assert!(m.get("memory.cut").is_nil());
    assert_eq!(m.get("memory.speed"), &int(77));
    assert_eq!(m.get("memory.count"), &int(count as i64));
    assert_eq!(m.get("memory.image"), &target.memory.encode());
    // Cut to every size: registers go from the end, then the count.
    for limit in 0..private.size() as i64 {
        let cut = trimmed(limit, &private);
        m.reset();
        m.set_tree("input.private", cut.clone());
        m.call_ticks();
        if cut.is_nil() {
            assert_eq!(m.get("input.miss"), &yes(), "{limit}");
            continue;
        }
        assert!(m.get("input.miss").is_nil(), "{limit}");
        assert_eq!(m.get("memory.cut"), &yes(), "{limit}");
        assert_eq!(m.get("memory.speed"), &int(77));
        let regs = m.get("memory.image").clone();
        let arrived: Vec<Register> = Vec::decode(&regs).unwrap();
        assert_eq!(arrived[..], target.memory[..arrived.len()], "{limit}");
        assert!(arrived.len() < target.memory.len());
    }
    // No inspection: 0, or 1 after an invalid command.
    m.reset();
    assert_eq!(m.call_ticks(), 10);
    assert_eq!(m.get("input.miss"), &yes());
    m.reset();
    m.set_tree("input.private", int(1));
    m.set_tree("input.invalid", yes());
    assert_eq!(m.call_ticks(), 12);
    assert_eq!(m.get("input.miss"), &yes());
    assert!(m.get("memory.image").is_nil());
}

// ---------------------------------------------------------------------------
// A robot that copies itself.

const REPLICATOR: &str = "use std/control
use std/input
use std/commands
use std/memory
reg in 10000000
reg out 10000000 = Pass
reg restart = nil           ; non-Nil: the child starts afresh at main
reg role = nil              ; 1 in a child
reg built = nil             ; the parent builds once
reg steps = nil             ; a count of the steps it has run

main:
    wait_step
    push steps, zero
    call input.parse
    call input.self
    car input.a, input.my_action
    mov input.b, #1
    call input.eq               ; Created: a fork's first step
    jnil input.miss, .child
    jcons role, .idle
    jcons built, .idle
    call memory.from_inspection
    jnil input.miss, .build
    call memory.inspect_self    ; no inspection yet: inspect myself
    mov out, commands.out
    jmp main
.build:
    jnil restart, .parts
    mov memory.value, code(main)  ; a fresh start: the entry code,
    load input.n, 0
    call memory.set
    mov memory.value, nil         ; no old input,
    load input.n, 1
    call memory.set
    mov memory.value, Pass        ; a first command,
    load input.n, 2
    call memory.set
    mov memory.value, #1          ; and role 1
    mov input.n, #index(role)
    call memory.set
    mov memory.value, nil         ; no steps yet
    mov input.n, #index(steps)
    call memory.set
.parts:
    mov input.u, memory.image   ; a frame, a processor, a part per register
    push input.u, zero
    push input.u, zero
    call input.int
    call commands.range
    commands.build out, commands.parts, memory.image
    mov built, true
    jmp main
.child:
    load role, 1
.idle:
    mov out, Pass
    jmp main
";

/// A square with a robot that leaves, then the replicator, and the parts
/// for a copy of it.
fn replicator_world(restart: bool) -> (constree::image::Image, constree::world::World) {
    let image = build(REPLICATOR);
    let memory = memory_with_flag(&image, "restart", restart);
    let replicator = robot(memory.clone(), Color::Green, 10, 10_000_000, vec![]);
    let mut items = vec![
        Item::FramePart(frame(Color::White, 20)),
        Item::ProcessorPart(Processor { speed: 10_000_000 }),
    ];
    items.extend(parts_for(&memory));
    let w = world(
        (1, 2),
        false,
        vec![
            square(
                vec![
                    scripted(&[Command::Move(Direction::S)], Color::Red, 10, vec![]),
                    replicator,
                ],
                items,
            ),
            square(vec![], vec![]),
        ],
    );
    (image, w)
}

#[test]
fn a_robot_inspects_itself_and_forks() {
    let (image, w) = replicator_world(false);
    // Step 1: it is robot 1 of its input; the mover leaves, so next step
    // it is robot 0, and it inspects robot 0.
    let (w, _, _) = step(w);
    let parent = &at(&w, (0, 0)).robots[0];
    assert_eq!(
        Command::decode(&parent.memory[2].contents),
        Some(Command::Inspect(0))
    );
    let before = {
        let mut m = parent.memory.clone();
        m[2].contents = Tree::NIL; // the engine clears `out` first
        m
    };
    // Step 2: the inspection shows its own memory as the step began; it
    // builds a robot with that memory.
    let (w, report, _) = step(w);
    let Action::Inspected(0, seen) = &report.cells[0][0].action else {
        panic!("{:?}", report.cells[0][0].action)
    };
    assert_eq!(seen.memory, before);
    let parent = &at(&w, (0, 0)).robots[0];
    let n = 2 + before.len() as i64;
    assert_eq!(
        Command::decode(&parent.memory[2].contents),
        Some(Command::Build((0..n).collect(), before.clone()))
    );
    // Step 3: the child exists and has run: a fork, it went on from where
    // the parent waited, saw `Created`, and took role 1.
    let (w, report, _) = step(w);
    assert!(matches!(report.cells[0][0].action, Action::Built(..)));
    let sq = at(&w, (0, 0));
    assert_eq!(sq.robots.len(), 2);
    let (parent, child) = (&sq.robots[0], &sq.robots[1]);
    assert_eq!(child.frame.color, Color::White);
    assert!(report.cells[0][1].run.is_ok());
    assert_eq!(robot_reg(&image, child, "role"), &int(1));
    assert!(robot_reg(&image, parent, "role").is_nil());
    // It carries the parent's state: the steps counted before the fork.
    let parent_steps = robot_reg(&image, parent, "steps").list_len();
    let child_steps = robot_reg(&image, child, "steps").list_len();
    assert_eq!((parent_steps, child_steps), (3, 2));
    // Same program: every code and constant register is the parent's.
    for (r, reg) in image.registers.iter().enumerate() {
        if image
            .labels
            .iter()
            .any(|l| l.register == r && l.offset == 0)
            || reg.name.starts_with("const")
        {
            assert_eq!(child.memory[r].contents, reg.contents, "{}", reg.name);
        }
    }
    assert_eq!(
        Command::decode(&child.memory[2].contents),
        Some(Command::Pass)
    );
    // Step 4: both live on.
    let (w, report, _) = step(w);
    assert_eq!(report.cells[0].len(), 2);
    assert_eq!(report.cells[0][1].action, Action::Passed);
    assert!(at(&w, (0, 0)).items.is_empty());
}

#[test]
fn a_robot_builds_a_fresh_copy_of_itself() {
    let (image, w) = replicator_world(true);
    let (w, _, _) = step(w);
    let (w, _, _) = step(w);
    let (w, report, _) = step(w);
    let Action::Built(_, built) = &report.cells[0][0].action else {
        panic!("{:?}", report.cells[0][0].action)
    };
    // Its memory: the program's registers as the parent had them, with the
    // entry code, no input, Pass, role 1 and no steps.
    let parent = &at(&w, (0, 0)).robots[0];
    let role = image.register("role").unwrap();
    let steps = image.register("steps").unwrap();
    assert_eq!(built.memory[0].contents, image.registers[0].contents);
    assert!(built.memory[1].contents.is_nil());
    assert_eq!(built.memory[2].contents, Command::Pass.encode());
    assert_eq!(built.memory[role].contents, int(1));
    assert!(built.memory[steps].contents.is_nil());
    // A fresh start: it spins in wait_step until its Pass is taken, then
    // runs main with role 1 and idles.
    let child = &at(&w, (0, 0)).robots[1];
    assert!(robot_reg(&image, child, "steps").is_nil());
    assert!(robot_reg(&image, parent, "role").is_nil());
    let (w, report, _) = step(w);
    assert_eq!(report.cells[0][1].action, Action::Passed);
    let child = &at(&w, (0, 0)).robots[1];
    assert_eq!(robot_reg(&image, child, "steps").list_len(), 1);
    assert_eq!(robot_reg(&image, child, "role"), &int(1));
}

#[test]
fn a_shielded_robot_cannot_inspect_itself() {
    let (_, w) = replicator_world(false);
    let (mut w, _, _) = step(w);
    // Give it a shield now: the inspection is blocked and costs the shield.
    let (shape, mut cells) = w.into_parts();
    cells[0].as_mut().unwrap().robots[0]
        .inventory
        .push(Item::Shield);
    w = constree::world::World::new(shape, cells).unwrap();
    let (w, report, _) = step(w);
    assert_eq!(report.cells[0][0].action, Action::InspectBlocked(0));
    assert!(at(&w, (0, 0)).robots[0].inventory.is_empty());
}

#[test]
fn inspect_self_aims_at_the_next_step_index() {
    let actions = vec![
        Action::MovedOut(Direction::S),
        Action::Passed,
        Action::Destroyed(3),
        Action::Passed,
        Action::Created,
    ];
    let gone = [true, false, false, true, false];
    let mut m = Machine::lenient(&caller(&["memory"], "memory.inspect_self"));
    for (index, expected) in [
        (1, Command::Inspect(0)),
        (2, Command::Inspect(1)),
        (3, Command::Pass),
        (4, Command::Inspect(2)),
    ] {
        m.reset();
        m.set("input.index", &(index as i64));
        m.set("input.actions", &actions);
        let ticks = m.call_ticks();
        assert_eq!(
            Command::decode(m.get("commands.out")),
            Some(expected.clone())
        );
        assert_eq!(m.get("input.mask"), &gone.to_vec().encode());
        let extra = if expected == Command::Pass { 9 } else { 8 };
        assert_eq!(
            ticks,
            staying_ticks(&actions) + next_index_ticks(index, &gone) + extra,
            "{index}"
        );
    }
}

#[test]
fn a_builder_patches_its_childs_first_command() {
    // The child's memory is data; its `out` (register 2) is set to a Move
    // computed at run time before the Build.
    let image = build(
        "use std/control
use std/input
use std/commands
use std/memory
reg out 1000000 = Pass
reg child 1000000 = nil     ; the child's memory (set by the test)
reg heading = 4             ; S
main:
    wait_step
    mov memory.image, child
    commands.move memory.value, heading
    load input.n, 2
    call memory.set
    mov input.u, memory.image
    push input.u, zero
    push input.u, zero
    call input.int
    call commands.range
    commands.build out, commands.parts, memory.image
.idle:
    wait_step
    mov out, Pass
    jmp .idle
",
    );
    let child = script_image().memory();
    let mut memory = image.memory();
    memory[image.register("child").unwrap()].contents = child.encode();
    let builder = robot(memory, Color::Violet, 10, 100_000, vec![]);
    let mut items = vec![
        Item::FramePart(frame(Color::Black, 20)),
        Item::ProcessorPart(Processor { speed: 50 }),
    ];
    items.extend(parts_for(&child));
    let w = world(
        (1, 2),
        false,
        vec![square(vec![builder], items), square(vec![], vec![])],
    );
    let (w, _, _) = step(w);
    let (w, report, _) = step(w);
    let Action::Built(_, built) = &report.cells[0][0].action else {
        panic!("{:?}", report.cells[0][0].action)
    };
    assert_eq!(
        Command::decode(&built.memory[2].contents),
        Some(Command::Move(Direction::S))
    );
    for r in (0..child.len()).filter(|r| *r != 2) {
        assert_eq!(built.memory[r].contents, child[r].contents);
    }
    // The child's first command: it goes south.
    let (w, report, _) = step(w);
    assert_eq!(report.cells[0].len(), 1);
    assert_eq!(report.cells[1][0].action, Action::MovedIn(Direction::N));
    assert_eq!(at(&w, (0, 1)).robots[0].frame.color, Color::Black);
}

#[test]
fn the_programs_in_the_docs_assemble() {
    assert_the_docs_program_assembles("memory");
}

#[test]
fn no_routine_wipes_the_machine_on_a_cut_input() {
    // An input with every part (an inspection in the private part), cut
    // to every size, through every routine that reads the input.
    let everything = "use std/control
use std/input
use std/commands
use std/memory
reg in 10000000
reg t = nil
main:
    call input.parse
    call input.self
    call input.staying
    mov input.n, input.index
    call commands.destroy_robot
    call memory.inspect_self
    call memory.from_inspection
    call input.all_items
    mov input.list, input.items
    call input.find_cargo
    mov commands.holding, true
    call commands.fetch
    mov input.n, #1
    call commands.inspect_robot
    call input.find_stranger
    mov input.list, input.robots
    call input.find_armed
    input.search input.actions, input.tag_is, #11
    halt
";
    let target = scripted(&[Command::Pass], Color::Blue, 10, vec![Item::Shield]);
    let looker = scripted(&[Command::Inspect(2)], Color::Red, 10, vec![]);
    let robots = vec![
        scripted(&[Command::Move(Direction::S)], Color::Green, 10, vec![]),
        looker,
        target,
        scripted(&[Command::Destroy(2)], Color::White, 10, vec![]),
        scripted(&[Command::Destroy(2)], Color::Black, 10, vec![]),
    ];
    let w = world(
        (1, 2),
        false,
        vec![
            square(robots, vec![cargo(1, 1), Item::Shield]),
            square(vec![], vec![]),
        ],
    );
    let resolved = resolve(&w);
    let sq = resolved[0].as_ref().unwrap();
    assert!(matches!(sq.all_actions[1], Action::Inspected(2, _)));
    let full = full_input(sq, 1);
    assert!(full.size() > 500, "{}", full.size());
    let mut m = Machine::new(everything);
    for limit in 0..=full.size() as i64 + 1 {
        m.reset();
        m.memory[1].limit = limit;
        m.set_input(&full);
        let report = m.run_report(10_000_000);
        assert!(report.halted, "limit {limit}");
    }
}

//! `std/commands`: commands built from computed values, checked against the
//! engine's encoders; the routines that aim at the right robot and fetch
//! the right item, run in worlds where the naive index misses; tick costs
//! against the formulas of docs/stdlib.md (std/commands).

mod stdlib_world;

use constree::encoding::{Decode, Encode};
use constree::tree::Tree;
use constree::world::{Action, Color, Command, Direction, Item};
use stdlib_world::*;

fn range_ticks(n: u64) -> u64 {
    unary_ticks(n) + 8 + 8 * n + (0..n).map(inc_ticks).sum::<u64>()
}

fn opposite_ticks(d: i64) -> u64 {
    match d {
        0 => 6,
        1 => 8,
        2 | 3 => 10,
        4 | 5 => 12,
        _ => 11,
    }
}

// ---------------------------------------------------------------------------
// The macros.

#[test]
fn macros_build_every_command_from_registers() {
    let mut m = Machine::lenient(
        "use std/control
use std/commands
reg d
reg i
reg mem
reg parts
reg c.move
reg c.lift
reg c.drop
reg c.inspect
reg c.destroy
reg c.build
reg c.pass
main:
    commands.move c.move, d
    commands.lift c.lift, i
    commands.drop c.drop, i
    commands.inspect c.inspect, i
    commands.destroy c.destroy, i
    commands.build c.build, parts, mem
    commands.pass c.pass
    halt
",
    );
    let memory = script_image().memory();
    for d in Direction::ALL {
        for i in [0i64, 1, 2, 7, 100, -1] {
            m.reset();
            m.set("d", &(d.index() as i64));
            m.set("i", &i);
            m.set("mem", &memory);
            m.set("parts", &vec![i, 0, 3]);
            // 1 tick each, 2 for Build, 1 for the halt.
            assert_eq!(m.run(100), 1 + 1 + 1 + 1 + 1 + 2 + 1 + 1);
            let read = |name: &str| Command::decode(m.get(name)).unwrap();
            assert_eq!(read("c.move"), Command::Move(d));
            assert_eq!(read("c.lift"), Command::Lift(i));
            assert_eq!(read("c.drop"), Command::Drop(i));
            assert_eq!(read("c.inspect"), Command::Inspect(i));
            assert_eq!(read("c.destroy"), Command::Destroy(i));
            assert_eq!(
                read("c.build"),
                Command::Build(vec![i, 0, 3], memory.clone())
            );
            assert_eq!(read("c.pass"), Command::Pass);
        }
    }
}

#[test]
fn macros_take_values_too() {
    let mut m = Machine::new(
        "use std/control
use std/commands
reg a
reg b
main:
    commands.lift a, #3
    commands.move b, #6
    halt
",
    );
    m.run(10);
    assert_eq!(m.get("a"), &Command::Lift(3).encode());
    assert_eq!(m.get("b"), &Command::Move(Direction::W).encode());
}

#[test]
fn opposite_directions() {
    let mut m = Machine::lenient(&caller(&["commands"], "commands.opposite"));
    for d in Direction::ALL {
        m.reset();
        m.set("input.n", &(d.index() as i64));
        assert_eq!(m.call_ticks(), opposite_ticks(d.index() as i64), "{d:?}");
        assert_eq!(m.get("input.n"), &d.opposite().encode(), "{d:?}");
    }
}

#[test]
fn range_counts_up() {
    let mut m = Machine::lenient(&caller(&["commands"], "commands.range"));
    for n in 0..40i64 {
        m.reset();
        m.set("input.n", &n);
        assert_eq!(m.call_ticks(), range_ticks(n as u64), "{n}");
        assert_eq!(
            m.get("commands.parts"),
            &(0..n).collect::<Vec<i64>>().encode()
        );
        assert_eq!(m.get("input.n"), &int(n));
    }
}

// ---------------------------------------------------------------------------
// Robots: aiming at the robot the input showed.

const HUNTER: &str = "use std/control
use std/input
use std/commands
reg out = Pass
reg naive = nil             ; non-Nil: aim with the input index as it is
reg aimed                   ; the last command it gave
main:
    wait_step
    call input.parse
    call input.self
    call input.staying
    call input.find_stranger
    jcons input.miss, .idle
    jcons naive, .naive
    call commands.destroy_robot
    mov out, commands.out
    jmp .done
.naive:
    commands.destroy out, input.n
    jmp .done
.idle:
    mov out, Pass
.done:
    mov aimed, out
    jmp main
";

/// A 1 x 2 bounded world: on the top square a red robot leaves south, the
/// red hunter, and a blue robot, the hunter's target.
fn hunting_world(naive: bool) -> (constree::image::Image, constree::world::World) {
    let image = build(HUNTER);
    let memory = memory_with_flag(&image, "naive", naive);
    let hunter = robot(memory, Color::Red, 10, 100_000, vec![]);
    let robots = vec![
        scripted(&[Command::Move(Direction::S)], Color::Red, 10, vec![]),
        hunter,
        scripted(&[Command::Pass], Color::Blue, 10, vec![]),
    ];
    let w = world(
        (1, 2),
        false,
        vec![square(robots, vec![]), square(vec![], vec![])],
    );
    (image, w)
}

#[test]
fn the_hunter_destroys_the_robot_it_saw() {
    let (image, w) = hunting_world(false);
    let (w, _, resolved) = step(w);
    let sq = resolved[0].as_ref().unwrap();
    // In its input the target is robot 2; the mover is gone next step.
    assert_eq!(sq.all_robots[2].frame.color, Color::Blue);
    let hunter = &at(&w, (0, 0)).robots[0];
    assert_eq!(
        Command::decode(robot_reg(&image, hunter, "aimed")),
        Some(Command::Destroy(1))
    );
    let (w, report, _) = step(w);
    assert_eq!(report.cells[0][0].action, Action::Destroyed(1));
    let left: Vec<Color> = at(&w, (0, 0))
        .robots
        .iter()
        .map(|r| r.frame.color)
        .collect();
    assert_eq!(left, vec![Color::Red]);
    assert_eq!(
        at(&w, (0, 0)).items.len(),
        2 + script_image().memory().len()
    );
}

#[test]
fn the_naive_hunter_misses() {
    let (image, w) = hunting_world(true);
    let (w, _, _) = step(w);
    let hunter = &at(&w, (0, 0)).robots[0];
    assert_eq!(
        Command::decode(robot_reg(&image, hunter, "aimed")),
        Some(Command::Destroy(2))
    );
    let (w, report, _) = step(w);
    assert_eq!(
        report.cells[0][0].action,
        Action::Invalid,
        "robot 2 is no more"
    );
    assert_eq!(at(&w, (0, 0)).robots.len(), 2);
}

#[test]
fn aiming_routines_on_the_engines_masks() {
    // Every robot of a square where robots leave, are destroyed and arrive.
    let gone = [false, true, false, true, true, false, false, false];
    for routine in ["commands.inspect_robot", "commands.destroy_robot"] {
        let mut m = Machine::lenient(&caller(&["commands"], routine));
        for k in 0..=gone.len() + 1 {
            m.reset();
            m.set("input.mask", &gone.to_vec());
            m.set("input.n", &k);
            let ticks = m.call_ticks();
            let out = Command::decode(m.get("commands.out")).unwrap();
            match gone.get(k) {
                Some(false) => {
                    let next = gone[..k].iter().filter(|g| !**g).count() as i64;
                    let expected = if routine.contains("inspect") {
                        Command::Inspect(next)
                    } else {
                        Command::Destroy(next)
                    };
                    assert_eq!(out, expected, "{routine} {k}");
                    assert!(m.get("input.miss").is_nil());
                    assert_eq!(ticks, next_index_ticks(k, &gone) + 6, "{routine} {k}");
                }
                _ => {
                    assert_eq!(out, Command::Pass, "{routine} {k}");
                    assert_eq!(m.get("input.miss"), &yes());
                    assert_eq!(ticks, next_index_ticks(k, &gone) + 7, "{routine} {k}");
                }
            }
        }
    }
}

const INSPECTOR: &str = "use std/control
use std/input
use std/commands
reg in 1000000
reg out = Pass
reg aimed
main:
    wait_step
    call input.parse
    call input.staying
    input.search input.robots, input.color_is, Orange
    jcons input.miss, .idle
    call commands.inspect_robot
    mov out, commands.out
    jmp .done
.idle:
    mov out, Pass
.done:
    mov aimed, out
    jmp main
";

#[test]
fn the_inspector_reaches_an_arrival() {
    // The inspector is alone with a robot that leaves; an orange robot
    // arrives from the north. In the input it is robot 2; next step, 1.
    let image = build(INSPECTOR);
    let inspector = robot(image.memory(), Color::Red, 10, 100_000, vec![]);
    let w = world(
        (1, 3),
        false,
        vec![
            square(
                vec![scripted(
                    &[Command::Move(Direction::S)],
                    Color::Orange,
                    10,
                    vec![],
                )],
                vec![],
            ),
            square(
                vec![
                    inspector,
                    scripted(&[Command::Move(Direction::S)], Color::Blue, 10, vec![]),
                ],
                vec![],
            ),
            square(vec![], vec![]),
        ],
    );
    let (w, _, resolved) = step(w);
    let sq = resolved[1].as_ref().unwrap();
    assert_eq!(sq.all_actions[2], Action::MovedIn(Direction::N));
    let me = &at(&w, (0, 1)).robots[0];
    assert_eq!(
        Command::decode(robot_reg(&image, me, "aimed")),
        Some(Command::Inspect(1))
    );
    let (w, report, _) = step(w);
    let Action::Inspected(1, seen) = &report.cells[1][0].action else {
        panic!("{:?}", report.cells[1][0].action)
    };
    assert_eq!(seen.frame.color, Color::Orange);
    // And the inspection is in its private input now.
    let me = &at(&w, (0, 1)).robots[0];
    let private = robot_reg(&image, me, "input.private");
    assert_eq!(
        private,
        &constree::world::step::private_input(&report.cells[1][0].action)
    );
}

// ---------------------------------------------------------------------------
// Items: fetching the first cargo of the square.

const FETCHER: &str = "use std/control
use std/input
use std/commands
reg out = Pass
reg stuck                   ; true once a lift out of the way failed
reg t                       ; where the cargo was, each step
main:
    wait_step
    call input.parse
    call input.self
    call input.all_items
    mov input.list, input.items
    call input.find_cargo
    jcons input.miss, .idle
    mov t, input.n
    call commands.fetch
    mov out, commands.out
    jnil input.miss, main
    mov stuck, true
    jmp main
.idle:
    mov out, Pass
    jmp main
";

fn fetcher_world(items: Vec<Item>) -> (constree::image::Image, constree::world::World) {
    let image = build(FETCHER);
    let fetcher = robot(image.memory(), Color::Green, 10, 100_000, vec![]);
    (
        image,
        world((1, 1), false, vec![square(vec![fetcher], items)]),
    )
}

#[test]
fn fetching_the_third_item() {
    let c = cargo(3, 2);
    let (image, mut w) = fetcher_world(vec![Item::Shield, register_part(5), c.clone()]);
    let mut actions = Vec::new();
    let mut ts = Vec::new();
    for _ in 0..7 {
        let (next, report, _) = step(w);
        w = next;
        actions.push(report.cells[0][0].action.clone());
        let me = &at(&w, (0, 0)).robots[0];
        ts.push(i64::decode(robot_reg(&image, me, "t")).unwrap());
    }
    assert_eq!(
        actions,
        vec![
            Action::Passed,
            Action::Lifted(0),
            Action::Dropped(Item::Shield),
            Action::Lifted(0),
            Action::Dropped(register_part(5)),
            Action::Lifted(0),
            Action::Passed,
        ]
    );
    // Where the cargo was: 2, 1, 1, 0, 0, then taken (t stays).
    assert_eq!(ts, vec![2, 1, 1, 0, 0, 0, 0]);
    let sq = at(&w, (0, 0));
    assert_eq!(sq.robots[0].inventory, vec![c]);
    assert_eq!(sq.items, vec![Item::Shield, register_part(5)]);
    assert!(robot_reg(&image, &sq.robots[0], "stuck").is_nil());
}

#[test]
fn lifting_the_third_item_directly_is_invalid() {
    let w = world(
        (1, 1),
        false,
        vec![square(
            vec![scripted(&[Command::Lift(2)], Color::Green, 10, vec![])],
            vec![Item::Shield, register_part(5), cargo(3, 2)],
        )],
    );
    let (_, report, _) = step(w);
    assert_eq!(report.cells[0][0].action, Action::Invalid);
}

#[test]
fn fetching_behind_a_frame_is_stuck() {
    // A frame weighs 100: a robot of strength 10 cannot lift it out of the
    // way. Alone, its lift is not even a valid request, so the action is
    // Invalid (not CannotFit). The plan says so and passes, then tries again.
    let (image, mut w) = fetcher_world(vec![Item::FramePart(frame(Color::Red, 5)), cargo(1, 1)]);
    let mut actions = Vec::new();
    for _ in 0..5 {
        let (next, report, _) = step(w);
        w = next;
        actions.push(report.cells[0][0].action.clone());
    }
    assert_eq!(
        actions,
        vec![
            Action::Passed,
            Action::Invalid,
            Action::Passed,
            Action::Invalid,
            Action::Passed,
        ]
    );
    assert_eq!(
        robot_reg(&image, &at(&w, (0, 0)).robots[0], "stuck"),
        &yes()
    );
}

#[test]
fn fetch_step_by_step() {
    let mut m = Machine::lenient(&caller(&["commands"], "commands.fetch"));
    let lifted = Action::Lifted(0).encode();
    let cases: Vec<(Tree, i64, Tree, Command, Tree, bool, u64)> = vec![
        // holding, t, my action -> command, holding, miss, ticks
        (
            Tree::NIL,
            0,
            Tree::NIL,
            Command::Lift(0),
            Tree::NIL,
            false,
            8,
        ),
        (Tree::NIL, 3, Tree::NIL, Command::Lift(0), yes(), false, 9),
        (
            yes(),
            3,
            lifted.clone(),
            Command::Drop(0),
            Tree::NIL,
            false,
            13 + eq_call_ticks(5, 5),
        ),
        (
            yes(),
            0,
            lifted,
            Command::Drop(0),
            Tree::NIL,
            false,
            13 + eq_call_ticks(5, 5),
        ),
        (
            yes(),
            2,
            Action::CannotFit(0).encode(),
            Command::Pass,
            Tree::NIL,
            true,
            12 + eq_call_ticks(6, 5),
        ),
        (
            yes(),
            2,
            Action::GrappledOver(0).encode(),
            Command::Pass,
            Tree::NIL,
            true,
            12 + eq_call_ticks(7, 5),
        ),
        (
            yes(),
            2,
            Action::Passed.encode(),
            Command::Pass,
            Tree::NIL,
            true,
            12 + eq_call_ticks(0, 5),
        ),
        // A cut input: no action known.
        (yes(), 2, Tree::NIL, Command::Pass, Tree::NIL, true, 9),
    ];
    for (holding, t, action, command, holding_after, miss, ticks) in cases {
        m.reset();
        m.set_tree("commands.holding", holding.clone());
        m.set("input.n", &t);
        m.set_tree("input.my_action", action.clone());
        m.set_tree("input.miss", yes());
        assert_eq!(m.call_ticks(), ticks, "{holding:?} {t} {action:?}");
        assert_eq!(Command::decode(m.get("commands.out")), Some(command));
        assert_eq!(m.get("commands.holding"), &holding_after);
        assert_eq!(m.get("input.miss").is_cons(), miss);
    }
}

// ---------------------------------------------------------------------------
// Build: the part indices counted, the memory carried as data.

const BUILDER: &str = "use std/control
use std/input
use std/commands
reg out 100000 = Pass
reg child 100000 = nil      ; the child's memory (set by the test)
main:
    wait_step
    mov input.u, child      ; parts: a frame, a processor, one per register
    push input.u, zero
    push input.u, zero
    call input.int
    call commands.range
    commands.build out, commands.parts, child
.idle:
    wait_step
    mov out, Pass
    jmp .idle
";

#[test]
fn the_builder_counts_its_parts() {
    let image = build(BUILDER);
    let child = script_image().memory();
    let mut memory = image.memory();
    memory[image.register("child").unwrap()].contents = child.encode();
    let builder = robot(memory, Color::Violet, 10, 100_000, vec![]);
    let mut items = vec![
        Item::FramePart(frame(Color::Black, 20)),
        Item::ProcessorPart(constree::world::Processor { speed: 50 }),
    ];
    items.extend(parts_for(&child));
    items.push(cargo(1, 1));
    let w = world((1, 1), false, vec![square(vec![builder], items)]);
    let (w, _, _) = step(w);
    let out = Command::decode(&at(&w, (0, 0)).robots[0].memory[2].contents).unwrap();
    let n = 2 + child.len() as i64;
    assert_eq!(out, Command::Build((0..n).collect(), child.clone()));
    let (w, report, _) = step(w);
    assert!(
        matches!(&report.cells[0][0].action, Action::Built(is, _) if *is == (0..n).collect::<Vec<_>>())
    );
    let sq = at(&w, (0, 0));
    assert_eq!(sq.robots.len(), 2);
    assert_eq!(sq.robots[1].frame.color, Color::Black);
    assert_eq!(sq.items, vec![cargo(1, 1)]);
    // The child's code registers are the image's.
    for (r, reg) in child.iter().enumerate().filter(|(r, _)| *r > 2) {
        if image.registers.len() > r {
            assert_eq!(sq.robots[1].memory[r].limit, reg.limit);
        }
    }
}

#[test]
fn a_lone_builder_must_build_from_the_first_items() {
    // The same parts one place further on: `Build [1 ..]` looks its
    // indices up in the list of requests, which has n entries, so index n
    // is missing and the command is Invalid.
    let child = script_image().memory();
    let n = 2 + child.len() as i64;
    let mut items = vec![
        cargo(1, 1),
        Item::FramePart(frame(Color::Black, 20)),
        Item::ProcessorPart(constree::world::Processor { speed: 50 }),
    ];
    items.extend(parts_for(&child));
    let builder = |is: Vec<i64>, items: &Vec<Item>| {
        world(
            (1, 1),
            false,
            vec![square(
                vec![scripted(
                    &[Command::Build(is, child.clone())],
                    Color::Violet,
                    10,
                    vec![],
                )],
                items.clone(),
            )],
        )
    };
    let (_, report, _) = step(builder((1..=n).collect(), &items));
    assert_eq!(report.cells[0][0].action, Action::Invalid);
    // With the cargo moved to the end, Build [0 .. n-1] works.
    items.rotate_left(1);
    let (w, report, _) = step(builder((0..n).collect(), &items));
    assert!(matches!(report.cells[0][0].action, Action::Built(..)));
    assert_eq!(at(&w, (0, 0)).items, vec![cargo(1, 1)]);
}

#[test]
fn the_programs_in_the_docs_assemble() {
    assert_the_docs_program_assembles("commands");
}

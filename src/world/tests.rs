//! The report's odd corners, one test each (see `docs/engine.md`).

use super::step::Origin;
use super::*;
use crate::encoding::{Decode, Encode};
use crate::machine::{Instruction, Register};
use crate::tree::Tree;

/// A robot with an empty program, a roomy input register and `command` in
/// its output register.
fn robot(strength: i64, command: Command, inventory: Vec<Item>) -> Robot {
    Robot {
        frame: Frame {
            color: Color::Red,
            strength,
        },
        inventory,
        processor: Processor { speed: 10 },
        memory: vec![
            Register::new(0, Tree::NIL),
            Register::new(10_000, Tree::NIL),
            Register::new(10_000, command.encode()),
        ],
    }
}

fn one_square(robots: Vec<Robot>, items: Vec<Item>) -> World {
    let shape = Shape::new((3, 3), true).unwrap();
    let mut cells = vec![Some(Square::default()); 9];
    cells[4] = Some(Square { robots, items });
    World::new(shape, cells).unwrap()
}

/// `update_reported`, checking that `update` makes the same world.
fn reported(world: World) -> (World, StepReport) {
    let quiet = update(world.clone());
    let (next, report) = update_reported(world);
    assert_eq!(quiet, next, "update and update_reported differ");
    (next, report)
}

fn actions_at(world: World, cell: usize) -> (World, Vec<Action>) {
    let (next, report) = reported(world);
    let actions = report.cells[cell]
        .iter()
        .map(|s| s.action.clone())
        .collect();
    (next, actions)
}

fn frame_part() -> Item {
    Item::FramePart(Frame {
        color: Color::Blue,
        strength: 500,
    })
}

fn processor_part() -> Item {
    Item::ProcessorPart(Processor { speed: 5 })
}

fn register_part() -> Item {
    Item::RegisterPart(Register::new(4, Tree::NIL))
}

#[test]
fn lone_lift_of_item_one_is_invalid() {
    let world = one_square(
        vec![robot(10, Command::Lift(1), vec![])],
        vec![Item::Cargo(1, 1), Item::Cargo(2, 1)],
    );
    let (_, actions) = actions_at(world, 4);
    assert_eq!(actions, vec![Action::Invalid]);
}

#[test]
fn lifted_past_the_end_of_the_items_lifts_nothing() {
    let items = vec![
        frame_part(),
        processor_part(),
        register_part(),
        frame_part(),
        processor_part(),
    ];
    let robots = vec![
        robot(1000, Command::Build(vec![2, 2, 0, 1], vec![]), vec![]),
        robot(1000, Command::Build(vec![3, 4], vec![]), vec![]),
        robot(1000, Command::Lift(5), vec![]),
    ];
    let (next, actions) = actions_at(one_square(robots, items.clone()), 4);
    assert_eq!(actions[0], Action::BuildInterrupted(vec![2, 2, 0, 1]));
    assert!(matches!(actions[1], Action::Built(_, _)));
    assert_eq!(actions[2], Action::Lifted(5));
    let square = next.cells[4].as_ref().unwrap();
    assert!(square.robots[2].inventory.is_empty());
    // removeIndices [5, 3, 4]: items 4 and 3 go, 5 is past the end.
    assert_eq!(square.items, items[..3].to_vec());
}

#[test]
fn remove_indices_is_a_right_fold() {
    // Two robots lift items 1 and 0 in that order: [1, 0] removes the
    // original items 0 and 2 (request-order targets make both valid).
    let items = vec![Item::Cargo(10, 1), Item::Cargo(11, 1), Item::Cargo(12, 1)];
    let robots = vec![
        robot(10, Command::Lift(1), vec![]),
        robot(10, Command::Lift(0), vec![]),
    ];
    let (next, actions) = actions_at(one_square(robots, items), 4);
    assert_eq!(actions, vec![Action::Lifted(1), Action::Lifted(0)]);
    let square = next.cells[4].as_ref().unwrap();
    assert_eq!(square.items, vec![Item::Cargo(11, 1)]);
    assert_eq!(square.robots[0].inventory, vec![Item::Cargo(11, 1)]);
    assert_eq!(square.robots[1].inventory, vec![Item::Cargo(10, 1)]);
}

#[test]
fn a_tie_of_attacks_and_shields_blocks() {
    let robots = vec![
        robot(10, Command::Pass, vec![Item::Shield]),
        robot(10, Command::Destroy(0), vec![]),
    ];
    let (next, actions) = actions_at(one_square(robots, vec![]), 4);
    assert_eq!(actions, vec![Action::Passed, Action::DestroyBlocked(0)]);
    // The blocking shield is used up.
    assert!(
        next.cells[4].as_ref().unwrap().robots[0]
            .inventory
            .is_empty()
    );
}

#[test]
fn a_dropped_shield_can_block_and_fall() {
    let robots = vec![
        robot(10, Command::Drop(0), vec![Item::Shield]),
        robot(10, Command::Inspect(0), vec![]),
    ];
    let (next, actions) = actions_at(one_square(robots, vec![]), 4);
    assert_eq!(
        actions,
        vec![Action::Dropped(Item::Shield), Action::InspectBlocked(0)]
    );
    let square = next.cells[4].as_ref().unwrap();
    assert!(square.robots[0].inventory.is_empty());
    assert_eq!(square.items, vec![Item::Shield]);
}

#[test]
fn destroyed_robots_fall_apart() {
    let robots = vec![
        robot(10, Command::Lift(0), vec![Item::Shield, Item::Cargo(3, 1)]),
        robot(10, Command::Destroy(0), vec![]),
        robot(10, Command::Destroy(0), vec![]),
    ];
    let (next, actions) = actions_at(one_square(robots, vec![Item::Cargo(7, 1)]), 4);
    // The destroyed robot is gone from the new square and its report.
    assert_eq!(actions, vec![Action::Destroyed(0), Action::Destroyed(0)]);
    let square = next.cells[4].as_ref().unwrap();
    assert_eq!(square.robots.len(), 2);
    let kinds: Vec<&Item> = square.items.iter().collect();
    // Frame, processor, three emptied registers, then the cargo it carried
    // (including what it lifted this step) without shields.
    assert!(matches!(kinds[0], Item::FramePart(_)));
    assert!(matches!(kinds[1], Item::ProcessorPart(_)));
    assert!(
        kinds[2..5]
            .iter()
            .all(|i| matches!(i, Item::RegisterPart(r) if r.contents.is_nil()))
    );
    assert_eq!(kinds[5..], [&Item::Cargo(7, 1), &Item::Cargo(3, 1)]);
}

#[test]
fn a_one_wide_grid_is_its_own_neighbour() {
    let shape = Shape::new((1, 1), true).unwrap();
    let world = World::new(
        shape,
        vec![Some(Square {
            robots: vec![robot(10, Command::Move(Direction::E), vec![])],
            items: vec![],
        })],
    )
    .unwrap();
    let (next, report) = reported(world);
    let square = next.cells[0].as_ref().unwrap();
    assert_eq!(square.robots.len(), 1);
    assert_eq!(report.cells[0][0].action, Action::MovedIn(Direction::W));
    assert_eq!(
        report.cells[0][0].origin,
        Origin::Arrived {
            from: Direction::W,
            index: 0
        }
    );
    // Its input lists it twice: as MovedOut and as MovedIn.
    let input = &square.robots[0].memory[1].contents;
    let (index, (robots, (actions, _))) = <(i64, (Tree, (Tree, Tree)))>::decode(input).unwrap();
    assert_eq!(index, 1);
    assert_eq!(robots.list_len(), 2);
    assert_eq!(
        actions,
        vec![
            Action::MovedOut(Direction::E),
            Action::MovedIn(Direction::W)
        ]
        .encode()
    );
}

#[test]
fn bounded_grids_have_walls_past_the_edge() {
    let shape = Shape::new((2, 1), false).unwrap();
    let square = |c| {
        Some(Square {
            robots: vec![robot(10, c, vec![])],
            items: vec![],
        })
    };
    let world = World::new(
        shape,
        vec![
            square(Command::Move(Direction::W)),
            square(Command::Move(Direction::W)),
        ],
    )
    .unwrap();
    let (next, report) = reported(world);
    assert_eq!(report.cells[0][0].action, Action::MoveBlocked(Direction::W));
    assert_eq!(report.cells[0][1].action, Action::MovedIn(Direction::E));
    assert_eq!(next.cells[0].as_ref().unwrap().robots.len(), 2);
    assert!(next.cells[1].as_ref().unwrap().robots.is_empty());
}

#[test]
fn children_come_from_their_builder_and_run_at_once() {
    // The child's program writes Pass into its output register: it runs in
    // the step it is built.
    let child_program = vec![Instruction::CopyIfNil(2, 3, 2)].encode();
    let m = vec![
        Register::new(0, child_program),
        Register::new(0, Tree::NIL),
        Register::new(0, Tree::NIL),
        Register::new(0, Command::Pass.encode()),
    ];
    let limits = [100, 100, 100, 100];
    let mut items = vec![frame_part(), processor_part()];
    items.extend(
        limits
            .iter()
            .map(|&l| Item::RegisterPart(Register::new(l, Tree::NIL))),
    );
    let builder = robot(10, Command::Build((0..6).collect(), m), vec![]);
    let (next, report) = reported(one_square(vec![builder], items));
    let steps = &report.cells[4];
    assert_eq!(steps[1].origin, Origin::Built(0));
    assert_eq!(steps[1].action, Action::Created);
    let child = &next.cells[4].as_ref().unwrap().robots[1];
    assert_eq!(child.memory[2].contents, Command::Pass.encode());
    assert!(next.cells[4].as_ref().unwrap().items.is_empty());
}

#[test]
fn machine_errors_are_reported_and_wipe_the_robot() {
    let mut r = robot(10, Command::Pass, vec![]);
    r.memory[0] = Register::new(100, vec![Instruction::Deconstruct(0, 1, 1)].encode());
    let (next, report) = reported(one_square(vec![r], vec![]));
    assert_eq!(
        report.cells[4][0].run,
        Err(crate::machine::MachineError::DeconstructNil(0))
    );
    let wiped = &next.cells[4].as_ref().unwrap().robots[0];
    assert!(wiped.memory.iter().all(|r| r.contents.is_nil()));
}

#[test]
fn worlds_are_checked_when_built() {
    assert!(matches!(
        Shape::new((0, 3), true),
        Err(WorldError::BadDimensions(0, 3))
    ));
    let shape = Shape::new((2, 2), true).unwrap();
    assert!(matches!(
        World::new(shape, vec![None; 3]),
        Err(WorldError::WrongCellCount { .. })
    ));
    let text = r#"{"dims":[2,1],"cells":[null]}"#;
    let err = serde_json::from_str::<World>(text).unwrap_err().to_string();
    assert!(err.contains("needs 2 cells"), "{err}");
    let bounded = r#"{"dims":[1,1],"cells":[null],"wrap":false}"#;
    let world: World = serde_json::from_str(bounded).unwrap();
    assert_eq!(serde_json::to_string(&world).unwrap(), bounded);
}

#[test]
fn update_and_update_reported_make_the_same_worlds() {
    let mut worlds: Vec<World> = super::samples::benchmark_texts()
        .map(|text| serde_json::from_str(&text).unwrap())
        .collect();
    worlds.extend([true, false].map(|wrap| super::samples::every_kind(wrap, 50)));
    for world in worlds {
        let mut quiet = world.clone();
        let mut reported = world;
        for _ in 0..3 {
            quiet = update(quiet);
            reported = update_reported(reported).0;
            assert_eq!(quiet, reported);
        }
    }
}

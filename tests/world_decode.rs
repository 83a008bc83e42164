//! The engine decodes its own values (`constree::world::decode`): random
//! values round-trip through their encoding, the conformance vectors'
//! encodings decode to their values, the inputs the engine writes on the
//! conformance worlds decode whole, and a tree that is not an encoding
//! says what was expected where.

// Shared strategies: this test uses some of them.
#[allow(dead_code)]
mod strategies;

use constree::encoding::Encode;
use constree::machine::Register;
use constree::tree::Tree;
use constree::world::decode::{Decode, DecodeError, Expected, Place, decode};
use constree::world::observed::{Fallen, InputItems, Private};
use constree::world::{
    Action, Color, Frame, Input, Item, ObservedAction, ObservedRobot, Processor, Robot, World,
    update,
};
use proptest::prelude::*;
use serde_json::Value;
use std::fmt::Debug;
use std::io::{BufRead, BufReader};

fn small_tree() -> impl Strategy<Value = Tree> {
    strategies::tree(5, 24)
}

fn frame() -> impl Strategy<Value = Frame> {
    ((0usize..8), any::<i64>()).prop_map(|(c, strength)| Frame {
        color: Color::ALL[c],
        strength,
    })
}

fn item() -> impl Strategy<Value = Item> {
    let i = any::<i64>;
    prop_oneof![
        (i(), i()).prop_map(|(t, w)| Item::Cargo(t, w)),
        strategies::register(small_tree()).prop_map(Item::RegisterPart),
        i().prop_map(|speed| Item::ProcessorPart(Processor { speed })),
        frame().prop_map(Item::FramePart),
        Just(Item::Shield),
    ]
}

fn items() -> impl Strategy<Value = Vec<Item>> {
    prop::collection::vec(item(), 0..5)
}

fn observed_robot() -> impl Strategy<Value = ObservedRobot> {
    (frame(), items()).prop_map(|(frame, inventory)| ObservedRobot { frame, inventory })
}

fn robot() -> impl Strategy<Value = Robot> {
    (
        observed_robot(),
        any::<i64>(),
        prop::collection::vec(strategies::register(small_tree()), 0..4),
    )
        .prop_map(|(seen, speed, memory)| Robot {
            frame: seen.frame,
            inventory: seen.inventory,
            processor: Processor { speed },
            memory,
        })
}

/// Every action of the report, with any arguments.
fn action() -> impl Strategy<Value = Action> {
    let i = any::<i64>;
    let d = strategies::direction;
    let is = || prop::collection::vec(any::<i64>(), 0..6);
    prop_oneof![
        Just(Action::Created),
        Just(Action::Passed),
        Just(Action::Invalid),
        d().prop_map(Action::MoveBlocked),
        d().prop_map(Action::MovedOut),
        d().prop_map(Action::MovedIn),
        i().prop_map(Action::CannotFit),
        i().prop_map(Action::GrappledOver),
        i().prop_map(Action::Lifted),
        item().prop_map(Action::Dropped),
        i().prop_map(Action::InspectTargetFled),
        i().prop_map(Action::InspectBlocked),
        (i(), robot()).prop_map(|(i, r)| Action::Inspected(i, r)),
        i().prop_map(Action::DestroyTargetFled),
        i().prop_map(Action::DestroyBlocked),
        i().prop_map(Action::Destroyed),
        is().prop_map(Action::BuildInterrupted),
        (is(), robot()).prop_map(|(is, r)| Action::Built(is, r)),
    ]
}

fn private() -> impl Strategy<Value = Private> {
    prop_oneof![
        Just(Private::Nothing),
        Just(Private::Invalid),
        (
            any::<i64>(),
            any::<i64>(),
            prop::collection::vec(strategies::register(small_tree()), 0..4)
        )
            .prop_map(|(speed, count, memory)| Private::Inspection {
                processor: Processor { speed },
                count,
                memory,
            }),
    ]
}

fn input() -> impl Strategy<Value = Input> {
    let fallen = (items(), items()).prop_map(|(parts, carried)| Fallen { parts, carried });
    (
        any::<i64>(),
        prop::collection::vec(observed_robot(), 0..4),
        prop::collection::vec(action(), 0..4),
        (items(), items(), prop::collection::vec(fallen, 0..3)),
        private(),
    )
        .prop_map(
            |(index, robots, actions, (unaffected, dropped, fallen), private)| Input {
                index,
                robots,
                actions: actions.iter().map(ObservedAction::from).collect(),
                items: InputItems {
                    unaffected,
                    dropped,
                    fallen,
                },
                private,
            },
        )
}

fn round_trips<T: Decode + Encode + PartialEq + Debug>(value: &T) -> Result<(), TestCaseError> {
    let decoded = decode::<T>(&value.encode());
    prop_assert_eq!(decoded.as_ref(), Ok(value));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn items_frames_and_registers_round_trip(
        i in item(),
        f in frame(),
        r in strategies::register(small_tree()),
    ) {
        round_trips(&i)?;
        round_trips(&f)?;
        let decoded = decode::<Register>(&r.encode());
        prop_assert_eq!(decoded, Ok(r));
    }

    #[test]
    fn robots_as_seen_round_trip(r in robot()) {
        let seen = ObservedRobot::from(&r);
        prop_assert_eq!(seen.encode(), r.encode());
        round_trips(&seen)?;
    }

    /// An action is seen as the engine encodes it, and read back.
    #[test]
    fn actions_as_seen_round_trip(a in action()) {
        let seen = ObservedAction::from(&a);
        prop_assert_eq!(seen.encode(), a.encode());
        round_trips(&seen)?;
    }

    #[test]
    fn inputs_round_trip(input in input()) {
        round_trips(&input)?;
    }

    /// Whatever the tree, decoding answers (a value or an error), and a
    /// value decoded encodes back to a tree that decodes to it again.
    #[test]
    fn any_tree_decodes_or_says_why(tree in strategies::tree(8, 64)) {
        if let Ok(i) = decode::<Item>(&tree) {
            prop_assert_eq!(decode::<Item>(&i.encode()), Ok(i));
        }
        if let Ok(a) = decode::<ObservedAction>(&tree) {
            prop_assert_eq!(decode::<ObservedAction>(&a.encode()), Ok(a));
        }
        if let Err(e) = decode::<Input>(&tree) {
            prop_assert!(e.to_string().starts_with("expected "), "{}", e);
        }
    }
}

#[test]
fn errors_say_what_was_expected_and_where() {
    let error = |tree: Tree| decode::<Input>(&tree).unwrap_err();
    let robot = |color: i64| Tree::cons((color, 5i64).encode(), Tree::NIL);
    let input = |robots: Tree, actions: Tree| {
        let items = (Tree::NIL, Tree::NIL, Tree::NIL);
        (2i64, robots, actions, items, 0i64).encode()
    };
    let bad_colour = error(input(Tree::list([robot(0), robot(9)]), Tree::NIL));
    assert_eq!(
        bad_colour,
        DecodeError {
            expected: Expected::Color,
            at: vec![
                Place::Field("robots"),
                Place::Element(1),
                Place::Field("frame"),
                Place::Field("colour"),
            ],
        }
    );
    assert_eq!(
        bad_colour.to_string(),
        "expected a colour (an Int 0 to 7) at robots[1].frame.colour"
    );
    let bad_tag = error(input(Tree::NIL, Tree::list([(17i64, Tree::NIL).encode()])));
    assert_eq!(
        bad_tag.to_string(),
        "expected an action tag (an Int 0 to 16) at actions[0].tag"
    );
    assert_eq!(
        decode::<Item>(&(4i64, 1i64).encode())
            .unwrap_err()
            .to_string(),
        "expected Nil at argument"
    );
    assert_eq!(
        decode::<Frame>(&Tree::NIL).unwrap_err().to_string(),
        "expected a pair (colour, strength)"
    );
    // An Int longer than the engine ever writes is not read to its end.
    let long = Tree::list((0..5000).map(|_| Tree::NIL));
    assert_eq!(
        decode::<Register>(&Tree::cons(long, Tree::NIL))
            .unwrap_err()
            .to_string(),
        "expected an Int (a bit list of at most 4096 bits) at limit"
    );
}

/// The words for actions: the engine's account and what robots see share
/// one table.
#[test]
fn action_words() {
    let red = Robot {
        frame: Frame {
            color: Color::Green,
            strength: 1,
        },
        inventory: vec![],
        processor: Processor { speed: 1 },
        memory: vec![],
    };
    let built = Action::Built((0..17).collect(), red.clone());
    assert_eq!(
        built.to_string(),
        "built a GRN robot from items [0, 1, ..., 16]"
    );
    assert_eq!(
        ObservedAction::from(&built).to_string(),
        "built a robot from items [0, 1, ..., 16]"
    );
    assert_eq!(Action::Invalid.to_string(), "invalid command");
    assert_eq!(Action::Passed.to_string(), "passed");
    assert_eq!(
        ObservedAction::from(&Action::Invalid).to_string(),
        "passed or invalid"
    );
    assert_eq!(Action::Dropped(Item::Shield).to_string(), "dropped shield");
    assert_eq!(ObservedAction::Dropped.to_string(), "dropped an item");
    assert_eq!(
        Action::Inspected(3, red).to_string(),
        "inspected robot 3 (GRN frame, 0 registers)"
    );
    let scattered: Vec<i64> = (0..60).map(|i| i * 2).collect();
    let text = ObservedAction::BuildInterrupted(scattered).to_string();
    assert!(text.ends_with(", 96, 98, …]"), "{text}");
}

/// The lines of a gzipped conformance vector file.
fn vector_lines(stem: &str) -> Vec<Value> {
    let path = format!(
        "{}/tests/conformance/{stem}.jsonl.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    BufReader::new(flate2::read::MultiGzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .collect()
}

fn value<T: serde::de::DeserializeOwned>(v: &Value) -> T {
    serde_json::from_value(v.clone()).unwrap()
}

/// Every item, frame, register, robot and action of `encode.jsonl` decodes
/// from the reference's tree to what robots can see of it.
#[test]
fn conformance_encodings_decode() {
    let mut checked = 0;
    for line in vector_lines("encode") {
        let tree: Tree = value(&line["tree"]);
        let v = &line["value"];
        match line["kind"].as_str().unwrap() {
            "item" => assert_eq!(decode::<Item>(&tree), Ok(value(v))),
            "frame" => assert_eq!(decode::<Frame>(&tree), Ok(value(v))),
            "register" => assert_eq!(decode::<Register>(&tree), Ok(value(v))),
            "robot" => assert_eq!(
                decode::<ObservedRobot>(&tree),
                Ok(ObservedRobot::from(&value::<Robot>(v)))
            ),
            "action" => assert_eq!(
                decode::<ObservedAction>(&tree),
                Ok(ObservedAction::from(&value::<Action>(v)))
            ),
            _ => continue,
        }
        checked += 1;
    }
    assert!(checked > 100, "only {checked} lines checked");
}

/// Every world of `world.jsonl`, stepped once with machines that do not run
/// (speed 0) and input registers that take any input (no trimming): every
/// input the engine writes decodes whole, encodes back to itself, and
/// agrees with the robot that received it (robots built in the step, whose
/// input registers may cut it, are left out).
#[test]
fn conformance_inputs_decode() {
    let mut inputs = 0;
    let mut inspections = 0;
    for line in vector_lines("world") {
        let worlds = std::iter::once(&line["world"]).chain(line["steps"].as_array().unwrap());
        for w in worlds {
            let mut world: World = value(w);
            for robot in world.cells.iter_mut().flatten().flat_map(|s| &mut s.robots) {
                robot.processor.speed = 0;
                if let Some(input) = robot.memory.get_mut(1) {
                    input.limit = i64::MAX;
                }
            }
            for robot in update(world).cells.iter().flatten().flat_map(|s| &s.robots) {
                // Robots built in the step keep the limits of their parts.
                let Some(register) = robot.memory.get(1).filter(|r| r.limit == i64::MAX) else {
                    continue;
                };
                let input = decode::<Input>(&register.contents)
                    .unwrap_or_else(|e| panic!("{e}: {}", register.contents.readable()));
                assert_eq!(input.encode(), register.contents);
                assert_eq!(input.robots.len(), input.actions.len());
                let me = usize::try_from(input.index).unwrap();
                assert_eq!(input.robots[me].frame, robot.frame);
                let own = &input.actions[me];
                match &input.private {
                    Private::Inspection { count, memory, .. } => {
                        assert_eq!(own.tag(), ObservedAction::INSPECTED);
                        assert_eq!(*count, memory.len() as i64);
                        inspections += 1;
                    }
                    Private::Invalid => assert_eq!(*own, ObservedAction::PassedOrInvalid),
                    Private::Nothing => {}
                }
                inputs += 1;
            }
        }
    }
    assert!(inputs > 1000, "only {inputs} inputs");
    assert!(inspections > 0, "no inspection");
}

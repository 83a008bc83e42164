//! Worlds for the tests of the world's JSON reader and writer.

use crate::encoding::Encode;
use crate::machine::Register;
use crate::tree::Tree;
use crate::world::{Color, Frame, Item, Processor, Robot, Shape, Square, World};

/// A 3x1 world (wrapping or bounded) with every colour, every kind of item,
/// negative and extreme numbers, a wall, an empty square, and one register
/// written many times; its robots' processors have the given speed.
pub fn every_kind(wrap: bool, speed: i64) -> World {
    let register = Register::new(-3, Tree::list((0..40i64).map(|k| k.encode())));
    let robot = |color| Robot {
        frame: Frame {
            color,
            strength: -7,
        },
        inventory: vec![Item::Shield, Item::Cargo(i64::MIN, i64::MAX)],
        processor: Processor { speed },
        memory: vec![register.clone(), Register::new(0, Tree::NIL)],
    };
    let items = vec![
        Item::Cargo(3, -4),
        Item::ProcessorPart(Processor { speed: 9 }),
        Item::RegisterPart(register.clone()),
        Item::FramePart(Frame {
            color: Color::White,
            strength: 100,
        }),
        Item::Shield,
    ];
    let square = Square {
        robots: Color::ALL.iter().map(|&c| robot(c)).collect(),
        items,
    };
    let shape = Shape::new((3, 1), wrap).unwrap();
    World::new(shape, vec![Some(square), None, Some(Square::default())]).unwrap()
}

/// The texts of the benchmark worlds (`benches/data`).
pub fn benchmark_texts() -> impl Iterator<Item = String> {
    ["bench_world_small.json", "bench_world_large.json"]
        .map(|name| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("benches/data")
                .join(name);
            std::fs::read_to_string(path).unwrap()
        })
        .into_iter()
}

//! Items, frames and processors, and building robots from parts
//! (the report's sections "Robots" and "Items").

use super::Robot;
use crate::encoding::Encode;
use crate::machine::Register;
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// A frame's paint. The order matters: robots are drawn sorted by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Color {
    /// `RED`
    Red,
    /// `RNG`
    Orange,
    /// `YLO`
    Yellow,
    /// `GRN`
    Green,
    /// `BLU`
    Blue,
    /// `VLT`
    Violet,
    /// `BLK`
    Black,
    /// `WYT`
    White,
}

impl Color {
    /// All colours in the report's order.
    pub const ALL: [Color; 8] = [
        Color::Red,
        Color::Orange,
        Color::Yellow,
        Color::Green,
        Color::Blue,
        Color::Violet,
        Color::Black,
        Color::White,
    ];

    /// The three-letter code of the report's `Show Color` instance.
    pub fn code(self) -> &'static str {
        ["RED", "RNG", "YLO", "GRN", "BLU", "VLT", "BLK", "WYT"][self as usize]
    }

    /// The letter of a frame of this colour in the map (`[R]`).
    pub fn frame_letter(self) -> char {
        ['R', 'O', 'Y', 'G', 'B', 'V', 'K', 'W'][self as usize]
    }
}

/// `encode = encode . fromEnum`.
impl Encode for Color {
    fn encode(&self) -> Tree {
        (*self as i64).encode()
    }
}

/// A robot's frame: its colour and how much weight it can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Frame {
    /// The paint.
    pub color: Color,
    /// The most total weight the inventory may have.
    pub strength: i64,
}

/// `encode (F c s) = encode (c, s)`.
impl Encode for Frame {
    fn encode(&self) -> Tree {
        (self.color, self.strength).encode()
    }
}

/// A processor: the number of ticks the machine runs per step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Processor {
    /// Ticks per game step.
    pub speed: i64,
}

/// `encode (P s) = encode s`.
impl Encode for Processor {
    fn encode(&self) -> Tree {
        self.speed.encode()
    }
}

/// Something that lies in a square or is carried by a robot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    /// Cargo of a type (a number the game values) and a weight.
    Cargo(i64, i64),
    /// A processor, to build a robot with.
    ProcessorPart(Processor),
    /// A register, to build a robot with.
    RegisterPart(Register),
    /// A frame, to build a robot with.
    FramePart(Frame),
    /// Blocks one attack.
    Shield,
}

/// A short readable name: `cargo 5 (weight 3)`, `shield`, `frame RED 10`,
/// `processor 100`, `register 64`.
impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Item::Cargo(t, w) => write!(f, "cargo {t} (weight {w})"),
            Item::ProcessorPart(p) => write!(f, "processor {}", p.speed),
            Item::RegisterPart(r) => write!(f, "register {}", r.limit),
            Item::FramePart(fr) => write!(f, "frame {} {}", fr.color.code(), fr.strength),
            Item::Shield => write!(f, "shield"),
        }
    }
}

impl Item {
    /// The report's `weight`: cargo its own, frames 100, all else 1.
    pub fn weight(&self) -> i64 {
        match self {
            Item::Cargo(_, w) => *w,
            Item::FramePart(_) => 100,
            Item::Shield | Item::RegisterPart(_) | Item::ProcessorPart(_) => 1,
        }
    }

    /// `isPart`: a frame, processor or register.
    pub fn is_part(&self) -> bool {
        matches!(
            self,
            Item::RegisterPart(_) | Item::ProcessorPart(_) | Item::FramePart(_)
        )
    }

    /// `isShield`.
    pub fn is_shield(&self) -> bool {
        matches!(self, Item::Shield)
    }
}

/// `Cargo t w` = `(0, t, w)`, `RegisterPart r` = `(1, r)`,
/// `ProcessorPart p` = `(2, p)`, `FramePart f` = `(3, f)`, `Shield` = `(4, Nil)`.
impl Encode for Item {
    fn encode(&self) -> Tree {
        match self {
            Item::Cargo(t, w) => (0i64, *t, *w).encode(),
            Item::RegisterPart(r) => (1i64, r).encode(),
            Item::ProcessorPart(p) => (2i64, p).encode(),
            Item::FramePart(f) => (3i64, f).encode(),
            Item::Shield => (4i64, Tree::NIL).encode(),
        }
    }
}

/// The report's `construct`: exactly one frame, exactly one processor, any
/// number of registers (in order), and nothing else. The new robot carries
/// nothing.
pub fn construct<'a, I>(parts: I) -> Option<Robot>
where
    I: IntoIterator<Item = &'a Item>,
    I::IntoIter: Clone,
{
    let parts = parts.into_iter();
    let mut frames = parts.clone().filter_map(|i| match i {
        Item::FramePart(f) => Some(*f),
        _ => None,
    });
    let frame = frames.next().filter(|_| frames.next().is_none())?;
    let mut processors = parts.clone().filter_map(|i| match i {
        Item::ProcessorPart(p) => Some(*p),
        _ => None,
    });
    let processor = processors.next().filter(|_| processors.next().is_none())?;
    if !parts.clone().all(Item::is_part) {
        return None;
    }
    let memory = parts
        .filter_map(|i| match i {
            Item::RegisterPart(r) => Some(r.clone()),
            _ => None,
        })
        .collect();
    Some(Robot {
        frame,
        inventory: Vec::new(),
        processor,
        memory,
    })
}

/// The report's `shatter`: frame, processor, then every register emptied
/// (limits kept).
pub fn shatter(robot: &Robot) -> Vec<Item> {
    let mut parts = Vec::with_capacity(robot.memory.len() + 2);
    parts.push(Item::FramePart(robot.frame));
    parts.push(Item::ProcessorPart(robot.processor));
    parts.extend(
        robot
            .memory
            .iter()
            .map(|r| Item::RegisterPart(r.forced(Tree::NIL))),
    );
    parts
}

//! The eight directions (Appendix "Directions").

use crate::encoding::{Decode, Encode};
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// A compass direction, in the report's order `N .. NW`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// North: `(0, -1)`.
    N,
    /// North-east: `(1, -1)`.
    NE,
    /// East: `(1, 0)`.
    E,
    /// South-east: `(1, 1)`.
    SE,
    /// South: `(0, 1)`.
    S,
    /// South-west: `(-1, 1)`.
    SW,
    /// West: `(-1, 0)`.
    W,
    /// North-west: `(-1, -1)`.
    NW,
}

impl Direction {
    /// All directions in the report's order (`[N ..]`).
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// `fromEnum`: the position in [`Direction::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// `toEnum` for indices 0..8.
    pub fn from_index(index: i64) -> Option<Direction> {
        usize::try_from(index)
            .ok()
            .and_then(|i| Direction::ALL.get(i).copied())
    }

    /// The report's `opposite`: four steps around the compass.
    pub fn opposite(self) -> Direction {
        Direction::ALL[(self.index() + 4) % 8]
    }

    /// The report's `towards`: the offset `(dx, dy)`; y grows southwards.
    pub fn offset(self) -> (i64, i64) {
        const DX: [i64; 8] = [0, 1, 1, 1, 0, -1, -1, -1];
        const DY: [i64; 8] = [-1, -1, 0, 1, 1, 1, 0, -1];
        (DX[self.index()], DY[self.index()])
    }

    /// The short name used in files and listings (`"NE"`).
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
        NAMES[self.index()]
    }
}

/// `encode = encode . fromEnum`.
impl Encode for Direction {
    fn encode(&self) -> Tree {
        (self.index() as i64).encode()
    }
}

/// `decode t = ([N ..] !!?) =<< decode t`: an Int in 0..8.
impl Decode for Direction {
    fn decode(tree: &Tree) -> Option<Self> {
        Direction::from_index(i64::decode(tree)?)
    }
}

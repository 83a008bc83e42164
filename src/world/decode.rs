//! Reading the engine's values back from trees, saying what was expected
//! and where when a tree is not one.
//!
//! The report decodes only what robots write (`Decodable Command`); this
//! module reads what the engine writes for robots to read: items, frames,
//! registers, robots as others see them, actions as robots see them and
//! the whole input tuple ([`super::observed`]). Each decoder is the inverse
//! of the encoding (`decode (encode x) == x`), with the report's generic
//! decoding for the parts: an Int need not be canonical, a list is the
//! fronts along a spine.
//!
//! Work is bounded by the part decoded: trees are walked with loops, never
//! recursion, and an Int whose bit list is longer than [`INT_SPINE`] (the
//! engine writes at most 65 bits) is refused rather than read to its end.

use super::observed::{Fallen, Input, InputItems, ObservedAction, ObservedRobot, Private};
use super::{Color, Direction, Frame, Item, Processor};
use crate::machine::Register;
use crate::tree::Tree;
use std::fmt;

/// The longest bit list read as an Int (a canonical Int has at most 65
/// bits, after at most one negative tag).
pub const INT_SPINE: usize = 4096;

/// Values that can be read back from the engine's encoding.
pub trait Decode: Sized {
    /// The value `tree` encodes, or what was expected where it is not one.
    fn decode(tree: &Tree) -> Result<Self, DecodeError>;
}

/// `T::decode(tree)`, for callers that also see the report's partial
/// [`crate::encoding::Decode`].
pub fn decode<T: Decode>(tree: &Tree) -> Result<T, DecodeError> {
    T::decode(tree)
}

/// What a decoder expected and did not find.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// An Int: a bit list of at most [`INT_SPINE`] bits after any negative
    /// tags.
    Int,
    /// Nil (the argument of `Shield`, `Passed`, `Created`, `Dropped`).
    Nil,
    /// A pair (a cons) of the two named parts.
    Pair(&'static str),
    /// A colour, an Int 0 to 7.
    Color,
    /// A direction, an Int 0 to 7.
    Direction,
    /// An item's tag, 0 to 4.
    ItemTag,
    /// An action's tag, 0 to 16.
    ActionTag,
    /// The private part: 0, 1 or an inspection.
    Private,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Int => write!(f, "an Int (a bit list of at most {INT_SPINE} bits)"),
            Expected::Nil => write!(f, "Nil"),
            Expected::Pair(parts) => write!(f, "a pair {parts}"),
            Expected::Color => write!(f, "a colour (an Int 0 to 7)"),
            Expected::Direction => write!(f, "a direction (an Int 0 to 7)"),
            Expected::ItemTag => write!(
                f,
                "an item tag (0 Cargo, 1 RegisterPart, 2 ProcessorPart, 3 FramePart, 4 Shield)"
            ),
            Expected::ActionTag => write!(f, "an action tag (an Int 0 to 16)"),
            Expected::Private => write!(
                f,
                "the private part (0, 1, or (processor, register count, registers))"
            ),
        }
    }
}

/// One step from a value to one of its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A named part (`frame`, `tag`, `argument`).
    Field(&'static str),
    /// An element of a list.
    Element(usize),
}

/// A tree that is not an encoding: what was expected, and where, as the
/// path from the decoded value to the part that does not fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// What the part should have been.
    pub expected: Expected,
    /// The path to the part, outermost first.
    pub at: Vec<Place>,
}

impl DecodeError {
    /// `expected` at the root of the tree being decoded.
    pub fn new(expected: Expected) -> DecodeError {
        DecodeError {
            expected,
            at: Vec::new(),
        }
    }

    /// The same error one level further out: the part was at `place` of the
    /// value now being decoded.
    fn within(mut self, place: Place) -> DecodeError {
        self.at.insert(0, place);
        self
    }
}

/// `expected a colour (an Int 0 to 7) at robots[2].frame.colour`.
impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected)?;
        for (k, place) in self.at.iter().enumerate() {
            match (k, place) {
                (0, Place::Field(name)) => write!(f, " at {name}")?,
                (0, Place::Element(i)) => write!(f, " at [{i}]")?,
                (_, Place::Field(name)) => write!(f, ".{name}")?,
                (_, Place::Element(i)) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for DecodeError {}

/// Decodes a part of a value, naming the part in the error.
fn part<T: Decode>(tree: &Tree, name: &'static str) -> Result<T, DecodeError> {
    T::decode(tree).map_err(|e| e.within(Place::Field(name)))
}

/// The front and back of a pair `parts` (`"(colour, strength)"`).
fn pair<'t>(tree: &'t Tree, parts: &'static str) -> Result<(&'t Tree, &'t Tree), DecodeError> {
    tree.split()
        .ok_or_else(|| DecodeError::new(Expected::Pair(parts)))
}

/// The report's Int decoding (negative tags nest, trailing zero bits and
/// bits past 64 are accepted), refusing bit lists longer than
/// [`INT_SPINE`].
pub fn int(tree: &Tree) -> Result<i64, DecodeError> {
    use crate::encoding::Decode as _;
    let tag = crate::encoding::int::negative_tag();
    let mut bits = tree;
    while let Some((front, back)) = bits.split()
        && *front == tag
    {
        bits = back;
    }
    if bits.iter_list().nth(INT_SPINE).is_some() {
        return Err(DecodeError::new(Expected::Int));
    }
    i64::decode(tree).ok_or_else(|| DecodeError::new(Expected::Int))
}

/// An Int as a value.
struct Int(i64);

impl Decode for Int {
    fn decode(tree: &Tree) -> Result<Int, DecodeError> {
        int(tree).map(Int)
    }
}

/// A list: the fronts along the spine, each decoded.
impl<T: Decode> Decode for Vec<T> {
    fn decode(tree: &Tree) -> Result<Vec<T>, DecodeError> {
        tree.iter_list()
            .enumerate()
            .map(|(k, e)| T::decode(e).map_err(|err| err.within(Place::Element(k))))
            .collect()
    }
}

/// An Int list, as a `Vec<i64>`.
fn ints(tree: &Tree) -> Result<Vec<i64>, DecodeError> {
    Ok(Vec::<Int>::decode(tree)?.into_iter().map(|i| i.0).collect())
}

/// `fromEnum`: an Int 0 to 7.
impl Decode for Color {
    fn decode(tree: &Tree) -> Result<Color, DecodeError> {
        usize::try_from(int(tree)?)
            .ok()
            .and_then(|c| Color::ALL.get(c).copied())
            .ok_or_else(|| DecodeError::new(Expected::Color))
    }
}

/// `fromEnum`: an Int 0 to 7.
impl Decode for Direction {
    fn decode(tree: &Tree) -> Result<Direction, DecodeError> {
        Direction::from_index(int(tree)?).ok_or_else(|| DecodeError::new(Expected::Direction))
    }
}

/// `(colour, strength)`.
impl Decode for Frame {
    fn decode(tree: &Tree) -> Result<Frame, DecodeError> {
        let (color, strength) = pair(tree, "(colour, strength)")?;
        Ok(Frame {
            color: part(color, "colour")?,
            strength: part::<Int>(strength, "strength")?.0,
        })
    }
}

/// `(limit, contents)`.
impl Decode for Register {
    fn decode(tree: &Tree) -> Result<Register, DecodeError> {
        let (limit, contents) = pair(tree, "(limit, contents)")?;
        Ok(Register::new(
            part::<Int>(limit, "limit")?.0,
            contents.clone(),
        ))
    }
}

/// `(tag, argument)`: `Cargo` `(0, t, w)`, `RegisterPart` `(1, r)`,
/// `ProcessorPart` `(2, p)`, `FramePart` `(3, f)`, `Shield` `(4, Nil)`.
impl Decode for Item {
    fn decode(tree: &Tree) -> Result<Item, DecodeError> {
        let (tag, arg) = pair(tree, "(tag, argument)")?;
        let argument = |e: DecodeError| e.within(Place::Field("argument"));
        match part::<Int>(tag, "tag")?.0 {
            0 => {
                let (kind, weight) = pair(arg, "(type, weight)").map_err(argument)?;
                let kind = part::<Int>(kind, "type").map_err(argument)?.0;
                let weight = part::<Int>(weight, "weight").map_err(argument)?.0;
                Ok(Item::Cargo(kind, weight))
            }
            1 => part(arg, "argument").map(Item::RegisterPart),
            2 => Ok(Item::ProcessorPart(Processor {
                speed: part::<Int>(arg, "argument")?.0,
            })),
            3 => part(arg, "argument").map(Item::FramePart),
            4 if arg.is_nil() => Ok(Item::Shield),
            4 => Err(argument(DecodeError::new(Expected::Nil))),
            _ => Err(DecodeError::new(Expected::ItemTag).within(Place::Field("tag"))),
        }
    }
}

/// `(frame, inventory)`.
impl Decode for ObservedRobot {
    fn decode(tree: &Tree) -> Result<ObservedRobot, DecodeError> {
        let (frame, inventory) = pair(tree, "(frame, inventory)")?;
        Ok(ObservedRobot {
            frame: part(frame, "frame")?,
            inventory: part(inventory, "inventory")?,
        })
    }
}

/// `(tag, argument)` as the report's `Encodable Action` writes it.
impl Decode for ObservedAction {
    fn decode(tree: &Tree) -> Result<ObservedAction, DecodeError> {
        use ObservedAction as A;
        let (tag, arg) = pair(tree, "(tag, argument)")?;
        let nil = |action: A| match arg.is_nil() {
            true => Ok(action),
            false => Err(DecodeError::new(Expected::Nil).within(Place::Field("argument"))),
        };
        let d = || part::<Direction>(arg, "argument");
        let i = || part::<Int>(arg, "argument").map(|i| i.0);
        let is = || ints(arg).map_err(|e| e.within(Place::Field("argument")));
        match part::<Int>(tag, "tag")?.0 {
            0 => nil(A::PassedOrInvalid),
            1 => nil(A::Created),
            2 => d().map(A::MovedOut),
            3 => d().map(A::MovedIn),
            4 => d().map(A::MoveBlocked),
            5 => i().map(A::Lifted),
            6 => i().map(A::CannotFit),
            7 => i().map(A::GrappledOver),
            8 => nil(A::Dropped),
            9 => i().map(A::InspectTargetFled),
            10 => i().map(A::InspectBlocked),
            A::INSPECTED => i().map(A::Inspected),
            12 => i().map(A::DestroyTargetFled),
            13 => i().map(A::DestroyBlocked),
            14 => i().map(A::Destroyed),
            15 => is().map(A::Built),
            16 => is().map(A::BuildInterrupted),
            _ => Err(DecodeError::new(Expected::ActionTag).within(Place::Field("tag"))),
        }
    }
}

/// `(parts, carried)`.
impl Decode for Fallen {
    fn decode(tree: &Tree) -> Result<Fallen, DecodeError> {
        let (parts, carried) = pair(tree, "(parts, carried)")?;
        Ok(Fallen {
            parts: part(parts, "parts")?,
            carried: part(carried, "carried")?,
        })
    }
}

/// `(unaffected, dropped, fallen)`.
impl Decode for InputItems {
    fn decode(tree: &Tree) -> Result<InputItems, DecodeError> {
        let shape = "(unaffected, dropped, fallen)";
        let (unaffected, rest) = pair(tree, shape)?;
        let (dropped, fallen) = pair(rest, shape)?;
        Ok(InputItems {
            unaffected: part(unaffected, "unaffected")?,
            dropped: part(dropped, "dropped")?,
            fallen: part(fallen, "fallen")?,
        })
    }
}

/// `0` (Nil), `1` (exactly as the engine writes it), or `(processor,
/// count, registers)`.
impl Decode for Private {
    fn decode(tree: &Tree) -> Result<Private, DecodeError> {
        if tree.is_nil() {
            return Ok(Private::Nothing);
        }
        if *tree == crate::encoding::Encode::encode(&1i64) {
            return Ok(Private::Invalid);
        }
        let not_private = || DecodeError::new(Expected::Private);
        let (speed, rest) = tree.split().ok_or_else(not_private)?;
        let (count, memory) = rest.split().ok_or_else(not_private)?;
        Ok(Private::Inspection {
            processor: Processor {
                speed: part::<Int>(speed, "processor")?.0,
            },
            count: part::<Int>(count, "count")?.0,
            memory: part(memory, "registers")?,
        })
    }
}

/// `(index, robots, actions, items, private)`.
impl Decode for Input {
    fn decode(tree: &Tree) -> Result<Input, DecodeError> {
        let shape = "(index, robots, actions, items, private)";
        let (index, rest) = pair(tree, shape)?;
        let (robots, rest) = pair(rest, shape)?;
        let (actions, rest) = pair(rest, shape)?;
        let (items, private) = pair(rest, shape)?;
        Ok(Input {
            index: part::<Int>(index, "index")?.0,
            robots: part(robots, "robots")?,
            actions: part(actions, "actions")?,
            items: part(items, "items")?,
            private: part(private, "private")?,
        })
    }
}

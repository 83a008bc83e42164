//! The check of one line, for each kind of vector file.

use super::FileKind;
use super::diff::first_difference;
use crate::encoding::{Decode, Encode};
use crate::machine::{Instruction, Memory, Outcome, Register};
use crate::tree::Tree;
use crate::world::render::{scoreboard, visualize};
use crate::world::{
    Action, Color, Command, Direction, Frame, GameConfig, Item, Position, Robot, World, update,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why one line of a vector file fails: it cannot be read, or the crate
/// computes something else than the line expects.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The line is not JSON of its file's form.
    #[error("cannot read the line: {0}")]
    Line(serde_json::Error),
    /// A value inside the line is not of its kind's form.
    #[error("cannot read the {what}: {source}")]
    Value {
        /// The kind of value.
        what: String,
        /// Why.
        source: serde_json::Error,
    },
    /// A `kind` the file does not have.
    #[error("unknown kind {0:?}")]
    UnknownKind(String),
    /// A computed value differs from the expected one.
    #[error("{what} differs {diff}")]
    Differs {
        /// What was computed.
        what: String,
        /// Where their JSON forms first differ, and how.
        diff: String,
    },
    /// A computed text differs from the expected one at a line.
    #[error("{what} differs at line {line}:\n  expected: {expected:?}\n  actual:   {actual:?}")]
    TextDiffers {
        /// What was computed.
        what: &'static str,
        /// The first line that differs, 1-based.
        line: usize,
        /// The expected line (`<end>` past the last).
        expected: String,
        /// The computed line (`<end>` past the last).
        actual: String,
    },
}

pub fn check(kind: FileKind, line: &str) -> Result<(), LineError> {
    match kind {
        FileKind::Ints => check_int(line),
        FileKind::Encode => check_encode(line),
        FileKind::Decode => check_decode(line),
        FileKind::Machine => check_machine(line),
        FileKind::World => check_world(line),
        FileKind::Render => check_render(line),
    }
}

fn parse<T: DeserializeOwned>(text: &str) -> Result<T, LineError> {
    serde_json::from_str(text).map_err(LineError::Line)
}

fn from_value<T: DeserializeOwned>(what: &str, v: Value) -> Result<T, LineError> {
    serde_json::from_value(v).map_err(|source| LineError::Value {
        what: what.to_string(),
        source,
    })
}

/// `Ok` if equal, else the first difference of their JSON forms.
fn same<T: Serialize + PartialEq>(what: &str, expected: &T, actual: &T) -> Result<(), LineError> {
    if expected == actual {
        return Ok(());
    }
    let json = |v: &T| serde_json::to_value(v).unwrap_or_else(|e| Value::String(format!("<{e}>")));
    let diff = first_difference(&json(expected), &json(actual))
        .unwrap_or_else(|| "(same JSON, different values)".into());
    Err(LineError::Differs {
        what: what.to_string(),
        diff,
    })
}

#[derive(Deserialize)]
#[serde(untagged)]
enum IntLine {
    Value { value: i64, tree: Tree },
    Decoded { tree: Tree, decoded: Option<i64> },
}

fn check_int(line: &str) -> Result<(), LineError> {
    match parse::<IntLine>(line)? {
        IntLine::Value { value, tree } => {
            same(&format!("encode {value}"), &tree, &value.encode())?;
            same("decode", &Some(value), &i64::decode(&tree))
        }
        IntLine::Decoded { tree, decoded } => same("decode", &decoded, &i64::decode(&tree)),
    }
}

#[derive(Deserialize)]
struct EncodeLine {
    kind: String,
    value: Value,
    tree: Tree,
}

fn encoding_of<T: DeserializeOwned + Encode>(kind: &str, v: Value) -> Result<Tree, LineError> {
    Ok(from_value::<T>(kind, v)?.encode())
}

fn check_encode(line: &str) -> Result<(), LineError> {
    let EncodeLine { kind, value, tree } = parse(line)?;
    let actual = match kind.as_str() {
        "instruction" => encoding_of::<Instruction>(&kind, value)?,
        "command" => encoding_of::<Command>(&kind, value)?,
        "item" => encoding_of::<Item>(&kind, value)?,
        "action" => encoding_of::<Action>(&kind, value)?,
        "direction" => encoding_of::<Direction>(&kind, value)?,
        "register" => encoding_of::<Register>(&kind, value)?,
        "robot" => encoding_of::<Robot>(&kind, value)?,
        "frame" => encoding_of::<Frame>(&kind, value)?,
        "color" => encoding_of::<Color>(&kind, value)?,
        other => return Err(LineError::UnknownKind(other.to_string())),
    };
    same(&format!("encoding of the {kind}"), &tree, &actual)
}

#[derive(Deserialize)]
struct DecodeLine {
    kind: String,
    tree: Tree,
    decoded: Value,
}

fn decoding<T: DeserializeOwned + Decode + Serialize + PartialEq>(
    kind: &str,
    tree: &Tree,
    expected: Value,
) -> Result<(), LineError> {
    let expected: Option<T> = from_value(kind, expected)?;
    same(&format!("decoded {kind}"), &expected, &T::decode(tree))
}

fn check_decode(line: &str) -> Result<(), LineError> {
    let DecodeLine {
        kind,
        tree,
        decoded,
    } = parse(line)?;
    match kind.as_str() {
        "instruction" => decoding::<Instruction>(&kind, &tree, decoded),
        "command" => decoding::<Command>(&kind, &tree, decoded),
        "direction" => decoding::<Direction>(&kind, &tree, decoded),
        other => Err(LineError::UnknownKind(other.to_string())),
    }
}

#[derive(Deserialize)]
struct MachineLine {
    speed: i64,
    memory: Memory,
    result: Outcome,
}

fn check_machine(line: &str) -> Result<(), LineError> {
    let MachineLine {
        speed,
        memory,
        result,
    } = parse(line)?;
    same("result", &result, &Outcome::of_run(speed, memory))
}

#[derive(Deserialize)]
struct WorldLine {
    world: World,
    steps: Vec<World>,
}

fn check_world(line: &str) -> Result<(), LineError> {
    let WorldLine { world, steps } = parse(line)?;
    let mut current = world;
    for (k, expected) in steps.iter().enumerate() {
        current = update(current);
        same(&format!("world after step {}", k + 1), expected, &current)?;
    }
    Ok(())
}

#[derive(Deserialize)]
struct RenderLine {
    world: World,
    players: Vec<(Position, String)>,
    visualize: String,
    scoreboard: String,
}

fn check_render(line: &str) -> Result<(), LineError> {
    let RenderLine {
        world,
        players,
        visualize: expected_map,
        scoreboard: expected_scores,
    } = parse(line)?;
    let config = GameConfig::cargo_by_type(players);
    same_text("visualize", &expected_map, &visualize(&world, &config))?;
    same_text("scoreboard", &expected_scores, &scoreboard(&world, &config))
}

/// `Ok` if equal, else the first line that differs.
fn same_text(what: &'static str, expected: &str, actual: &str) -> Result<(), LineError> {
    let mut e = expected.split('\n');
    let mut a = actual.split('\n');
    let mut line = 1;
    loop {
        match (e.next(), a.next()) {
            (None, None) => return Ok(()),
            (x, y) if x != y => {
                return Err(LineError::TextDiffers {
                    what,
                    line,
                    expected: x.unwrap_or("<end>").to_string(),
                    actual: y.unwrap_or("<end>").to_string(),
                });
            }
            _ => line += 1,
        }
    }
}

//! The scenario file as written (TOML), before it is checked.
//!
//! ```toml
//! steps = 100                 # game steps (default 100)
//! seed = 7                    # for random placements (default 0)
//!
//! [world]
//! wrap = true                 # wrapping (the report's) or bounded edges
//! size = [8, 4]               # columns, rows (or given by the map)
//! map = """
//! A.....#.
//! ......#.
//! ........
//! .B......
//! """                         # '#' wall, '.' square, a letter: a square with a mark
//!
//! [values]                    # what items are worth when the game is scored
//! cargo = { 3 = 30 }          # by cargo type (a type not listed is worth its type)
//! shield = 0                  # and the parts (default 0)
//!
//! [[item]]
//! at = "B"                    # a mark, [x, y], or "random"
//! cargo = [3, 10]             # type and weight; or shield = true, frame = {...},
//! count = 2                   # processor = SPEED, register = LIMIT
//!
//! [[robot]]
//! name = "lifter"
//! at = "A"
//! color = "Red"
//! strength = 100
//! speed = 1000
//! program = "lifter.cta"      # or an image, .ctm
//! registers = [300, 4096, 64] # optional: the limits (the image's contents must fit)
//! inventory = [{ shield = true }]
//!
//! [[player]]
//! name = "Red"
//! homes = ["A"]
//! color = "Red"               # its robots' colour (the "survivors" rule counts them)
//!
//! [limits]                    # caps for untrusted programs (optional)
//! speed = 100000              # no processor faster
//! register = 1000000          # no register larger
//!
//! [[slot]]                    # for tournaments: where each player's robot starts
//! at = "random"
//! color = "Blue"
//!
//! [expect]                    # what `constree test` checks (optional)
//! steps = 12                  # play this many steps (default: `steps` above)
//! scores = { Red = 5 }        # players' scores after them
//! machine_errors = false      # no robot's machine fails (default: only warned about)
//!
//! [[expect.robot]]
//! name = "lifter"             # a robot named above
//! after = 4                   # after this many steps (default: expect.steps)
//! at = [3, 0]                 # where it stands: [x, y] or a mark
//! registers = { trail = "[nil, nil, nil]", out = "Lift 0" }  # by name or number
//! ```

use serde::Deserialize;
use toml::Spanned;

/// A whole scenario file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSpec {
    /// A title for listings and replays.
    pub name: Option<String>,
    /// Game steps to play.
    pub steps: Option<u64>,
    /// Seed of the random placements.
    pub seed: Option<u64>,
    /// The grid.
    pub world: WorldSpec,
    /// Item values for scoring.
    #[serde(default)]
    pub values: ValuesSpec,
    /// Items lying on squares.
    #[serde(default, rename = "item")]
    pub items: Vec<Spanned<ItemSpec>>,
    /// Robots.
    #[serde(default, rename = "robot")]
    pub robots: Vec<Spanned<RobotSpec>>,
    /// Players and their home squares.
    #[serde(default, rename = "player")]
    pub players: Vec<Spanned<PlayerSpec>>,
    /// Player slots for tournaments.
    #[serde(default, rename = "slot")]
    pub slots: Vec<Spanned<SlotSpec>>,
    /// How the game is scored (tournament rounds, scoreboards,
    /// expectations): `"home"` (the report's rule, the default) or
    /// `"survivors"` (the pRobot 3/2/1 rule).
    pub scoring: Option<Spanned<String>>,
    /// Caps for untrusted programs: no processor faster, no register
    /// larger, anywhere in the game.
    #[serde(default)]
    pub limits: LimitsSpec,
    /// What `constree test` checks.
    pub expect: Option<ExpectSpec>,
}

/// Expectations: scores after the game, robots' places and registers after
/// some steps.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectSpec {
    /// Steps to play (default: the scenario's).
    pub steps: Option<Spanned<u64>>,
    /// Players' scores after `steps`, by player name.
    #[serde(default)]
    pub scores: std::collections::BTreeMap<String, Spanned<i64>>,
    /// Robots checked.
    #[serde(default)]
    pub robot: Vec<Spanned<RobotExpectSpec>>,
    /// Squares checked: the items lying on them.
    #[serde(default)]
    pub square: Vec<Spanned<SquareExpectSpec>>,
    /// `false`: no robot's machine may fail in the steps played (a failed
    /// check for each that does); `true` (the default): failures are
    /// reported as warnings only.
    pub machine_errors: Option<Spanned<bool>>,
}

/// What one robot should be like after some steps.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotExpectSpec {
    /// The robot's name (a `[[robot]]` of the scenario).
    pub name: Spanned<String>,
    /// After how many steps (default: the expectation's `steps`).
    pub after: Option<Spanned<u64>>,
    /// Where it stands: `[x, y]` or a mark.
    pub at: Option<Spanned<PositionSpec>>,
    /// Register values, by register name (or number): literals of the
    /// language (`"[1, 2]"`, `"Move N"`, `"nil"`).
    #[serde(default)]
    pub registers: std::collections::BTreeMap<String, Spanned<String>>,
}

/// What should lie on one square after some steps.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquareExpectSpec {
    /// The square: `[x, y]` or a mark.
    pub at: Spanned<PositionSpec>,
    /// After how many steps (default: the expectation's `steps`).
    pub after: Option<Spanned<u64>>,
    /// Exactly the items lying there, in any order, written as `[[item]]`
    /// entries without `at` (`count` for several alike); `[]` for none.
    pub items: Spanned<Vec<Spanned<ItemSpec>>>,
}

/// Caps on speeds and register limits. Robots are built only from parts
/// already in the world, so caps checked when the scenario loads hold for
/// the whole game.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSpec {
    /// The fastest processor allowed (ticks per step).
    pub speed: Option<i64>,
    /// The largest register limit allowed (conses).
    pub register: Option<i64>,
}

/// The grid.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldSpec {
    /// `[columns, rows]`.
    pub size: Option<Spanned<[i64; 2]>>,
    /// Whether the edges wrap (default true).
    pub wrap: Option<bool>,
    /// Rows of `#` (wall), `.` (square) and letters or digits (marked squares).
    pub map: Option<Spanned<String>>,
}

/// Values of items.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValuesSpec {
    /// Cargo values by type (as strings, TOML keys); other types are worth
    /// their type.
    #[serde(default)]
    pub cargo: std::collections::BTreeMap<String, i64>,
    /// A shield's value.
    #[serde(default)]
    pub shield: i64,
    /// A frame's value.
    #[serde(default)]
    pub frame: i64,
    /// A processor's value.
    #[serde(default)]
    pub processor: i64,
    /// A register's value.
    #[serde(default)]
    pub register: i64,
}

/// A position: `[x, y]`, the name of a mark on the map, or `"random"`.
#[derive(Debug, Clone, Deserialize)]
#[serde(
    untagged,
    expecting = "a position: [x, y], a mark on the map (\"A\") or \"random\""
)]
pub enum PositionSpec {
    /// Coordinates.
    At([i64; 2]),
    /// A mark on the map, or `random`.
    Named(String),
}

/// An item: exactly one kind. Items on the map say where they lie; items
/// in an inventory do not.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemSpec {
    /// Where it lies (items on the map only).
    pub at: Option<Spanned<PositionSpec>>,
    /// `[type, weight]`.
    pub cargo: Option<[i64; 2]>,
    /// A shield.
    pub shield: Option<bool>,
    /// A frame part.
    pub frame: Option<FrameSpec>,
    /// A processor part of this speed.
    pub processor: Option<i64>,
    /// A register part: its limit, or its limit and contents.
    pub register: Option<RegisterSpec>,
    /// How many of it (default 1).
    pub count: Option<u32>,
}

/// A frame: colour and strength.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameSpec {
    /// `"Red"` ... `"White"`.
    pub color: String,
    /// Strength.
    pub strength: i64,
}

/// A register part.
#[derive(Debug, Clone, Deserialize)]
#[serde(
    untagged,
    expecting = "a register: its limit (16), or { limit = 16, contents = \"[1, 2]\" }"
)]
pub enum RegisterSpec {
    /// Just a limit; the contents are Nil.
    Limit(i64),
    /// A limit and contents written as a literal of the language.
    Full {
        /// Its limit.
        limit: i64,
        /// Its contents, a literal (`"[1, 2]"`, `"Move N"`).
        contents: String,
    },
}

/// A robot.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotSpec {
    /// Its name, for `--trace` and the debugger.
    pub name: Option<String>,
    /// Where it starts.
    pub at: Spanned<PositionSpec>,
    /// Its frame's colour (default Red).
    pub color: Option<Spanned<String>>,
    /// Its frame's strength (default 100).
    pub strength: Option<i64>,
    /// Its processor's speed (default 1000).
    pub speed: Option<i64>,
    /// Its program: a `.cta` source or a `.ctm` image, relative to the
    /// scenario file.
    pub program: Option<Spanned<String>>,
    /// The limits of its registers; the program's contents must fit them.
    pub registers: Option<Spanned<Vec<i64>>>,
    /// What it carries.
    #[serde(default)]
    pub inventory: Vec<Spanned<ItemSpec>>,
}

/// A player.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    /// The player's name.
    pub name: String,
    /// Home squares.
    pub homes: Vec<Spanned<PositionSpec>>,
    /// The colour of the player's robots (needed by the `survivors` rule,
    /// which counts them).
    pub color: Option<Spanned<String>>,
}

/// A player slot for tournaments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotSpec {
    /// Where the player's robot starts.
    pub at: Spanned<PositionSpec>,
    /// Its colour.
    pub color: Spanned<String>,
    /// Its strength (default 100).
    pub strength: Option<i64>,
    /// Its speed (default 1000).
    pub speed: Option<i64>,
    /// The player's home squares (default: where the robot starts).
    #[serde(default)]
    pub homes: Vec<Spanned<PositionSpec>>,
    /// What the robot carries.
    #[serde(default)]
    pub inventory: Vec<Spanned<ItemSpec>>,
}

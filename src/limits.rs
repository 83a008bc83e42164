//! Every cap constree puts on what an input may cost, in one table
//! ([`LIMITS`]), with the environment variable that changes it, if any.
//! `docs/limits.md` lists the same table; a test holds the two together.
//!
//! A setting that is not a whole number of the cap's unit (`abc`, `-1`,
//! `1.5`, empty) is an error: the command line refuses it before it does
//! anything ([`check_environment`]). A library caller that skips that check
//! gets the default for a setting it cannot read.

use std::sync::OnceLock;

/// One cap.
#[derive(Debug)]
pub struct Limit {
    /// What it caps, in a few words.
    pub name: &'static str,
    /// The environment variable that sets it, if one does.
    pub env: Option<&'static str>,
    /// Its value when the variable is not set.
    pub default: u64,
    /// The unit of the value (`bytes`, `cells`...).
    pub unit: &'static str,
    /// What happens at the cap, in a sentence.
    pub effect: &'static str,
    value: OnceLock<u64>,
}

impl Limit {
    const fn new(
        name: &'static str,
        env: Option<&'static str>,
        default: u64,
        unit: &'static str,
        effect: &'static str,
    ) -> Limit {
        Limit {
            name,
            env,
            default,
            unit,
            effect,
            value: OnceLock::new(),
        }
    }

    /// The value in force: the environment variable's, else the default.
    pub fn get(&self) -> u64 {
        *self
            .value
            .get_or_init(|| self.from_environment().unwrap_or(self.default))
    }

    /// The environment variable's value, the default when it is not set, or
    /// an error naming the variable when it is set to anything but a whole
    /// number.
    pub fn from_environment(&self) -> Result<u64, LimitError> {
        let Some(var) = self.env else {
            return Ok(self.default);
        };
        let refuse = |text| LimitError {
            var,
            text,
            name: self.name,
            unit: self.unit,
            default: self.default,
        };
        match std::env::var(var) {
            Err(std::env::VarError::NotPresent) => Ok(self.default),
            Err(std::env::VarError::NotUnicode(_)) => Err(refuse(None)),
            Ok(text) => text.trim().parse::<u64>().map_err(|_| refuse(Some(text))),
        }
    }
}

/// A cap's environment variable set to something other than a whole
/// number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitError {
    /// The variable.
    pub var: &'static str,
    /// What it holds, when that is text.
    pub text: Option<String>,
    /// What the cap caps ([`Limit::name`]).
    pub name: &'static str,
    /// The cap's unit.
    pub unit: &'static str,
    /// The cap's default.
    pub default: u64,
}

impl std::fmt::Display for LimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let LimitError {
            var,
            name,
            unit,
            default,
            ..
        } = self;
        match &self.text {
            None => write!(f, "{var} is not a number of {unit} (it is not even text)"),
            Some(text) => write!(
                f,
                "{var}={text:?} is not a whole number of {unit} (the {name}; default {default})"
            ),
        }
    }
}

impl std::error::Error for LimitError {}

/// The most bytes read from one input: a file named on the command line or
/// inside another file, or standard input.
pub static MAX_INPUT: Limit = Limit::new(
    "size of one input file",
    Some("CONSTREE_MAX_INPUT"),
    64 << 20,
    "bytes",
    "a larger input (or `/dev/zero`) is an error naming the file",
);

/// The longest preorder text a tree, or a JSON result, is written as.
pub static MAX_TEXT: Limit = Limit::new(
    "preorder text of a tree, JSON printed",
    Some("CONSTREE_MAX_TEXT"),
    64 << 20,
    "bytes",
    "an error that says so; nothing is printed (`--shared` prints shared trees compactly)",
);

/// The most cells a scenario's grid may have.
pub static MAX_CELLS: Limit = Limit::new(
    "cells of a scenario's grid",
    None,
    1 << 24,
    "cells",
    "the scenario is refused",
);

/// The most items one `[[item]]` or inventory entry may stand for.
pub static MAX_COUNT: Limit = Limit::new(
    "count of one `[[item]]` or inventory entry",
    None,
    1 << 16,
    "items",
    "the scenario is refused",
);

/// The most memory a scenario's world may be estimated to take before it
/// is built.
pub static MAX_WORLD_MEMORY: Limit = Limit::new(
    "estimated memory of a scenario's world",
    Some("CONSTREE_MAX_WORLD_MEMORY"),
    512 << 20,
    "bytes",
    "the scenario is refused before anything is allocated, with the estimate",
);

/// The fastest processor a scenario without `speed` in `[limits]` may hold.
pub static DEFAULT_SPEED: Limit = Limit::new(
    "robot speed in a scenario without `[limits] speed`",
    None,
    10_000_000,
    "ticks per step",
    "the scenario is refused; `[limits] speed = N` sets another cap (`world step` and `conformance` have none)",
);

/// The most tree nodes built by `machine run` that its registers may still reach (the input's own nodes are not counted).
pub static MAX_MACHINE_NODES: Limit = Limit::new(
    "tree nodes that `machine run` built and its registers still reach",
    Some("CONSTREE_MAX_NODES"),
    1 << 23,
    "nodes",
    "the run stops with an error that gives the ticks it ran",
);

/// The most statements and expression terms one assembly may expand to.
pub static MAX_EXPANDED: Limit = Limit::new(
    "statements and expression terms an assembly expands to",
    None,
    4_000_000,
    "statements and terms",
    "the assembler stops with error E0207 (a macro that never ends, or an argument that doubles at every level)",
);

/// The most files one assembly may `include` or `use`, counting each time.
pub static MAX_INCLUDED_FILES: Limit = Limit::new(
    "files an assembly includes, each time counted",
    None,
    10_000,
    "files",
    "the assembler stops with error E0220",
);

/// The most bytes one assembly may read through `include` and `use`.
pub static MAX_INCLUDED_BYTES: Limit = Limit::new(
    "bytes an assembly reads through `include` and `use`",
    None,
    64 << 20,
    "bytes",
    "the assembler stops with error E0220",
);

/// How deep `image(...)` may embed programs that embed programs.
pub static MAX_IMAGE_DEPTH: Limit = Limit::new(
    "levels of `image(...)` inside `image(...)`",
    None,
    32,
    "levels",
    "error E0423; each program is assembled once per path and content, however often it is embedded",
);

/// How many programs `image(...)` may assemble in one assembly (each once).
pub static MAX_IMAGES: Limit = Limit::new(
    "programs `image(...)` assembles in one assembly",
    None,
    1000,
    "programs",
    "error E0423",
);

/// The most nodes the node table of a binary image may have (each node
/// costs memory; its two numbers may take only two bytes of the file).
pub static MAX_IMAGE_NODES: Limit = Limit::new(
    "nodes of a binary image's node table",
    Some("CONSTREE_MAX_IMAGE_NODES"),
    1 << 23,
    "nodes",
    "the image is refused before its trees are built",
);

/// Every cap, in the order `docs/limits.md` lists them.
pub static LIMITS: &[&Limit] = &[
    &MAX_INPUT,
    &MAX_TEXT,
    &MAX_CELLS,
    &MAX_COUNT,
    &MAX_WORLD_MEMORY,
    &DEFAULT_SPEED,
    &MAX_MACHINE_NODES,
    &MAX_EXPANDED,
    &MAX_INCLUDED_FILES,
    &MAX_INCLUDED_BYTES,
    &MAX_IMAGE_DEPTH,
    &MAX_IMAGES,
    &MAX_IMAGE_NODES,
];

/// Checks every cap's environment variable: the first that is set to
/// something other than a whole number is the error.
pub fn check_environment() -> Result<(), LimitError> {
    LIMITS
        .iter()
        .try_for_each(|limit| limit.from_environment().map(drop))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's rows as `docs/limits.md` writes them.
    fn row(limit: &Limit) -> String {
        format!(
            "| {} | {} | {} {} | {} |",
            limit.name,
            limit
                .env
                .map_or_else(|| "—".to_string(), |v| format!("`{v}`")),
            limit.default,
            limit.unit,
            limit.effect
        )
    }

    #[test]
    fn docs_limits_lists_every_cap_as_the_code_has_it() {
        let doc = include_str!("../docs/limits.md");
        let rows: Vec<&str> = doc
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| cap ") && !l.starts_with("|-"))
            .collect();
        let expected: Vec<String> = LIMITS.iter().map(|l| row(l)).collect();
        assert_eq!(rows, expected, "docs/limits.md's table");
    }
}

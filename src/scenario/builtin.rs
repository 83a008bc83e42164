//! The game `constree run` plays when given no scenario: the files of
//! `examples/harvest/`, built into the binary.

use super::{Scenario, ScenarioError, load_program};
use crate::asm::source::MemoryLoader;
use std::path::Path;

/// The scenario file's name, as messages show it.
pub const NAME: &str = "examples/harvest/harvest.toml (built in)";

const SCENARIO: &str = include_str!("../../examples/harvest/harvest.toml");

const PROGRAMS: &[(&str, &str)] = &[
    ("red.cta", include_str!("../../examples/harvest/red.cta")),
    ("blue.cta", include_str!("../../examples/harvest/blue.cta")),
    ("plan.cta", include_str!("../../examples/harvest/plan.cta")),
];

/// The built-in scenario, its programs assembled.
pub fn scenario() -> Result<Scenario, ScenarioError> {
    let loader = PROGRAMS
        .iter()
        .fold(MemoryLoader::default(), |l, (name, text)| {
            l.with(name, text)
        });
    let programs = |name: &str| load_program(&loader, Path::new(name));
    Scenario::from_text(NAME, SCENARIO, &programs)
}

/// The built-in programs: `(file name, text)`.
pub fn programs() -> &'static [(&'static str, &'static str)] {
    PROGRAMS
}

/// The built-in scenario's text.
pub fn text() -> &'static str {
    SCENARIO
}

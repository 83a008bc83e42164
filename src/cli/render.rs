//! Showing worlds on a terminal: the report's drawing, with colours when
//! the output is a terminal.

use crate::scenario::{Scenario, game};
use crate::world::render::visualize;
use crate::world::{Color, GameConfig, World};

/// ANSI colour of a robot's three-letter code.
fn ansi(c: Color) -> &'static str {
    match c {
        Color::Red => "\x1b[1;31m",
        Color::Orange => "\x1b[1;38;5;208m",
        Color::Yellow => "\x1b[1;33m",
        Color::Green => "\x1b[1;32m",
        Color::Blue => "\x1b[1;34m",
        Color::Violet => "\x1b[1;35m",
        Color::Black => "\x1b[1;90m",
        Color::White => "\x1b[1;97m",
    }
}

/// The report's drawing of a world, coloured if asked: robots in their
/// colours, walls dimmed.
pub fn map(world: &World, config: &GameConfig, colour: bool) -> String {
    let text = visualize(world, config);
    if !colour {
        return text;
    }
    let mut out = text.replace("/////////", "\x1b[2m/////////\x1b[0m");
    for c in Color::ALL {
        out = out.replace(c.code(), &format!("{}{}\x1b[0m", ansi(c), c.code()));
    }
    out
}

/// The scoreboard of a world under a scenario's rule ([`game::scores`]),
/// highest points first: name, points and what they come from (home
/// squares or robots left).
pub fn scores(scenario: &Scenario, world: &World) -> String {
    let scores = game::scores(scenario, world);
    if scores.is_empty() {
        let hint = if scenario.slots.is_empty() {
            ""
        } else {
            " (its [[slot]]s are played by `constree tournament`)"
        };
        return format!("Scores: the scenario has no players{hint}\n");
    }
    let width = scores
        .iter()
        .map(|s| s.player.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::from("Scores\n");
    for s in &scores {
        let line = s.line(scenario.scoring, width);
        out.push_str(&format!("  {}\n", crate::files::escape_controls(&line)));
    }
    out
}

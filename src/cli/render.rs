//! Showing worlds on a terminal: the report's drawing, with colours when
//! the output is a terminal.

use crate::scenario::game::Score;
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

/// The players' scores, highest first: name, score, home squares.
pub fn scores(scores: &[Score]) -> String {
    let width = scores
        .iter()
        .map(|s| s.player.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::from("Scores\n");
    for s in scores {
        let homes: Vec<String> = s.homes.iter().map(|(x, y)| format!("({x}, {y})")).collect();
        let label = if s.homes.len() == 1 { "home" } else { "homes" };
        out.push_str(&format!(
            "  {:<width$}  {:>6}   {label} {}\n",
            s.player,
            s.score,
            homes.join(", ")
        ));
    }
    out
}

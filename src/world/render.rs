//! The report's visualisation (Appendix "Visualization"): `visualize` draws
//! the grid, `scoreboard` lists the players' scores. Output is byte for byte
//! the report's.

use super::{Cell, GameConfig, Item, Position, Robot, Square, World};

const EMPTY: &str = "         ";
const WALL: &str = "/////////";

/// Haskell's `printf "%3s"`: right-aligned in three characters, never cut.
fn pad3(s: &str) -> String {
    format!("{s:>3}")
}

/// Three cells' worth of text for up to two things, `…` when there are more.
fn two_of(things: &[String]) -> String {
    match things {
        [] => EMPTY.to_string(),
        [a] => format!("   {}   ", pad3(a)),
        [a, b] => format!(" {} {} ", pad3(a), pad3(b)),
        [a, b, ..] => format!(" {} {}\u{2026}", pad3(a), pad3(b)),
    }
}

/// How an item looks in the map: frames `[R]`, processors `[#]`, registers
/// `[|]`, shields `\X/`, cargo its value.
fn show_value(item: &Item, config: &GameConfig) -> String {
    match item {
        Item::FramePart(f) => format!("[{}]", f.color.frame_letter()),
        Item::ProcessorPart(_) => "[#]".to_string(),
        Item::RegisterPart(_) => "[|]".to_string(),
        Item::Shield => "\\X/".to_string(),
        Item::Cargo(..) => format!("${}", config.value(item)),
    }
}

/// An item's weight: `99+` over 99, else `Ng` (negative weights as they are).
fn show_weight(item: &Item) -> String {
    let w = item.weight();
    if w > 99 {
        "99+".to_string()
    } else {
        format!("{w}g")
    }
}

/// Items by value, most valuable first (stable).
fn items_by_value<'a>(square: &'a Square, config: &GameConfig) -> Vec<&'a Item> {
    let mut items: Vec<&Item> = square.items.iter().collect();
    items.sort_by_key(|i| std::cmp::Reverse(config.value(i)));
    items
}

fn cell_values(square: &Square, config: &GameConfig) -> String {
    let shown: Vec<String> = items_by_value(square, config)
        .iter()
        .take(3)
        .map(|i| show_value(i, config))
        .collect();
    two_of(&shown)
}

fn cell_weights(square: &Square, config: &GameConfig) -> String {
    let shown: Vec<String> = items_by_value(square, config)
        .iter()
        .take(3)
        .map(|i| show_weight(i))
        .collect();
    two_of(&shown)
}

/// Robots by colour, `Red` first (stable).
fn cell_robots(square: &Square) -> String {
    let mut robots: Vec<&Robot> = square.robots.iter().collect();
    robots.sort_by_key(|r| r.frame.color);
    let shown: Vec<String> = robots
        .iter()
        .take(3)
        .map(|r| r.frame.color.code().to_string())
        .collect();
    two_of(&shown)
}

fn show_cells(cells: &[&Cell], show: impl Fn(&Square) -> String) -> String {
    let strs: Vec<String> = cells
        .iter()
        .map(|c| c.as_ref().map_or(WALL.to_string(), &show))
        .collect();
    format!("|{}|\n", strs.join("|"))
}

/// The report's `visualize`: three lines per row of cells (item values,
/// item weights, robot colours), at most two things per cell.
pub fn visualize(world: &World, config: &GameConfig) -> String {
    let width = world.dims().0 as usize;
    let rows: Vec<&[Cell]> = world.cells.chunks(width).collect();
    let max_len = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let line = format!("{}+\n", "+---------".repeat(max_len));
    let mut out = String::new();
    for row in rows {
        // Short rows are padded with walls, as `pad` does.
        let wall: Cell = None;
        let cells: Vec<&Cell> = row
            .iter()
            .chain(std::iter::repeat_n(&wall, max_len - row.len()))
            .collect();
        out.push_str(&line);
        out.push_str(&show_cells(&cells, |sq| cell_values(sq, config)));
        out.push_str(&show_cells(&cells, |sq| cell_weights(sq, config)));
        out.push_str(&show_cells(&cells, cell_robots));
    }
    out.push_str(&line);
    out
}

/// The report's `scoreboard`: players by score, highest first (stable), each
/// with a divider and the points of every robot on their home square.
///
/// As in the report, a position listed twice names its first player both
/// times.
pub fn scoreboard(world: &World, config: &GameConfig) -> String {
    let mut ranked: Vec<(Position, i64)> = config
        .players
        .iter()
        .map(|(p, _)| (*p, config.score(world, *p)))
        .collect();
    ranked.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    let mut out = String::new();
    for (p, total) in ranked {
        let name = config.players.iter().find(|(q, _)| *q == p).map_or_else(
            || format!("Player at ({},{})", p.0, p.1),
            |(_, n)| n.clone(),
        );
        let header = format!("{name} ${total}");
        out.push_str(&header);
        out.push('\n');
        out.push_str(&"-".repeat(header.chars().count()));
        out.push('\n');
        match world.at(p) {
            Some(sq) if !sq.robots.is_empty() => {
                for r in &sq.robots {
                    out.push_str(&format!(
                        "  {} robot: ${}\n",
                        r.frame.color.code(),
                        config.points(r)
                    ));
                }
            }
            _ => out.push_str("  No robots in square.\n"),
        }
    }
    out
}

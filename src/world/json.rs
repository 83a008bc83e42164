//! Writing a world as compact JSON, fast: the bytes `serde_json` writes for
//! [`World`]'s `Serialize` (the interchange format), without serde's
//! machinery, each preorder text written straight into the output, and the
//! text of a tree that appears again (robots with the same program) copied
//! from where it was first written instead of walked again.
//!
//! The tests check the bytes against `serde_json`'s for every world of the
//! conformance vectors and the benchmarks.

use super::{Color, Item, Robot, Square, World};
use crate::machine::Register;
use crate::tree::Tree;
use rustc_hash::FxHashMap;

/// Trees of fewer conses are written anew each time they appear.
const REMEMBERED_SIZE: u64 = 16;

/// A tree whose preorder text would pass [`crate::tree::max_text`]: the
/// plain form cannot hold it (`serde_json` with the tree's `Serialize` says
/// so, with the sizes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeTooLong;

/// Appends the world's compact JSON (no newline) to `out`, as
/// `serde_json::to_writer` would write it; an error, and `out` in an
/// unspecified state, when a tree's text would be over the limit.
pub fn write_world(world: &World, out: &mut Vec<u8>) -> Result<(), TreeTooLong> {
    let mut writer = Writer {
        out,
        written: FxHashMap::default(),
        max_chars: crate::tree::max_text(),
    };
    let (x, y) = world.dims();
    writer.raw(b"{\"dims\":[");
    writer.int(x);
    writer.raw(b",");
    writer.int(y);
    writer.raw(b"],\"cells\":[");
    for (k, cell) in world.cells.iter().enumerate() {
        if k > 0 {
            writer.raw(b",");
        }
        match cell {
            None => writer.raw(b"null"),
            Some(square) => writer.square(square)?,
        }
    }
    writer.raw(b"]");
    if !world.shape().wraps() {
        writer.raw(b",\"wrap\":false");
    }
    writer.raw(b"}");
    Ok(())
}

/// The output and the trees written so far: node address to the range of
/// its text in the output. The world is borrowed throughout, so no node
/// dies and no address is reused while the table lives.
struct Writer<'a> {
    out: &'a mut Vec<u8>,
    written: FxHashMap<usize, (usize, usize)>,
    max_chars: u64,
}

impl Writer<'_> {
    fn raw(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    fn int(&mut self, n: i64) {
        let mut digits = [0u8; 20];
        let mut k = digits.len();
        let mut m = n.unsigned_abs();
        loop {
            k -= 1;
            digits[k] = b'0' + (m % 10) as u8;
            m /= 10;
            if m == 0 {
                break;
            }
        }
        if n < 0 {
            self.out.push(b'-');
        }
        self.out.extend_from_slice(&digits[k..]);
    }

    fn square(&mut self, square: &Square) -> Result<(), TreeTooLong> {
        self.raw(b"{\"robots\":[");
        for (k, robot) in square.robots.iter().enumerate() {
            if k > 0 {
                self.raw(b",");
            }
            self.robot(robot)?;
        }
        self.raw(b"],\"items\":");
        self.items(&square.items)?;
        self.raw(b"}");
        Ok(())
    }

    fn robot(&mut self, robot: &Robot) -> Result<(), TreeTooLong> {
        self.raw(b"{\"frame\":");
        self.frame(robot.frame.color, robot.frame.strength);
        self.raw(b",\"inventory\":");
        self.items(&robot.inventory)?;
        self.raw(b",\"processor\":");
        self.processor(robot.processor.speed);
        self.raw(b",\"memory\":[");
        for (k, register) in robot.memory.iter().enumerate() {
            if k > 0 {
                self.raw(b",");
            }
            self.register(register)?;
        }
        self.raw(b"]}");
        Ok(())
    }

    fn frame(&mut self, color: Color, strength: i64) {
        self.raw(b"{\"color\":\"");
        self.raw(color_name(color).as_bytes());
        self.raw(b"\",\"strength\":");
        self.int(strength);
        self.raw(b"}");
    }

    fn processor(&mut self, speed: i64) {
        self.raw(b"{\"speed\":");
        self.int(speed);
        self.raw(b"}");
    }

    fn register(&mut self, register: &Register) -> Result<(), TreeTooLong> {
        self.raw(b"{\"limit\":");
        self.int(register.limit);
        self.raw(b",\"contents\":\"");
        self.tree(&register.contents)?;
        self.raw(b"\"}");
        Ok(())
    }

    fn items(&mut self, items: &[Item]) -> Result<(), TreeTooLong> {
        self.raw(b"[");
        for (k, item) in items.iter().enumerate() {
            if k > 0 {
                self.raw(b",");
            }
            match item {
                Item::Cargo(t, w) => {
                    self.raw(b"{\"Cargo\":[");
                    self.int(*t);
                    self.raw(b",");
                    self.int(*w);
                    self.raw(b"]}");
                }
                Item::ProcessorPart(p) => {
                    self.raw(b"{\"ProcessorPart\":");
                    self.processor(p.speed);
                    self.raw(b"}");
                }
                Item::RegisterPart(r) => {
                    self.raw(b"{\"RegisterPart\":");
                    self.register(r)?;
                    self.raw(b"}");
                }
                Item::FramePart(f) => {
                    self.raw(b"{\"FramePart\":");
                    self.frame(f.color, f.strength);
                    self.raw(b"}");
                }
                Item::Shield => self.raw(b"\"Shield\""),
            }
        }
        self.raw(b"]");
        Ok(())
    }

    /// The preorder text, copied from its first occurrence when the same
    /// node was written before.
    fn tree(&mut self, tree: &Tree) -> Result<(), TreeTooLong> {
        let chars = tree.size().saturating_mul(2).saturating_add(1);
        if chars > self.max_chars {
            return Err(TreeTooLong);
        }
        if tree.size() < REMEMBERED_SIZE {
            tree.write_bits(self.out);
            return Ok(());
        }
        if let Some(&(start, end)) = self.written.get(&tree.node_id()) {
            self.out.extend_from_within(start..end);
            return Ok(());
        }
        let start = self.out.len();
        tree.write_bits(self.out);
        self.written.insert(tree.node_id(), (start, self.out.len()));
        Ok(())
    }
}

/// The name `serde` gives a colour (its variant's name).
pub(super) fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Orange => "Orange",
        Color::Yellow => "Yellow",
        Color::Green => "Green",
        Color::Blue => "Blue",
        Color::Violet => "Violet",
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::samples;

    fn written(world: &World) -> String {
        let mut out = Vec::new();
        write_world(world, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Every colour, every kind of item, negative numbers, walls, a bounded
    /// grid and a tree written twice.
    #[test]
    fn writes_what_serde_json_writes() {
        for wrap in [true, false] {
            let world = samples::every_kind(wrap, 12);
            assert_eq!(written(&world), serde_json::to_string(&world).unwrap());
        }
    }

    /// The benchmark worlds, read and written back byte for byte.
    #[test]
    fn writes_the_benchmark_worlds_back() {
        for text in samples::benchmark_texts() {
            let world: World =
                crate::tree::read_deduplicated(|| serde_json::from_str(&text)).unwrap();
            let out = written(&world);
            assert_eq!(out, serde_json::to_string(&world).unwrap());
            assert_eq!(out, text.trim_end());
        }
    }
}

//! Reading a world fast when its JSON is in the canonical form: the bytes
//! [`super::json::write_world`] (and so `serde_json`) writes, with any
//! whitespace around it. `constree world step` writes worlds in this form,
//! and the benchmark worlds are in it.
//!
//! [`read_canonical`] reads that form and nothing else, byte by byte
//! without serde's machinery, with equal preorder texts (of 16 characters
//! or more) read once and shared, as [`crate::tree::read_deduplicated`]
//! does. Any other text, valid or not (another key order, spaces inside,
//! escapes, a document with a `world` field, a world that cannot exist),
//! gives `None`: the caller reads it with serde, whose value is the same
//! and whose errors say where and why. Nothing here recurses: the form
//! nests to a fixed depth.

use super::{Color, Frame, Item, Processor, Robot, Shape, Square, World};
use crate::machine::Register;
use crate::tree::Tree;
use rustc_hash::FxHashMap;

/// Texts shorter than this are read anew each time: they build few nodes.
const DEDUPLICATED_TEXT: usize = 16;

/// The world in `text`, if `text` is the canonical JSON of one (with
/// whitespace around it); `None` for anything else.
pub fn read_canonical(text: &str) -> Option<World> {
    let text = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    let mut reader = Reader {
        text,
        at: 0,
        texts: FxHashMap::default(),
    };
    let world = reader.world()?;
    (reader.at == text.len()).then_some(world)
}

/// The text and the position reached; the trees of the long texts read
/// so far.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    texts: FxHashMap<&'a str, Tree>,
}

impl<'a> Reader<'a> {
    /// Passes over `literal`, if it comes next.
    fn eat(&mut self, literal: &str) -> Option<()> {
        let found = self.text.as_bytes()[self.at..].starts_with(literal.as_bytes());
        found.then(|| self.at += literal.len())
    }

    /// The next byte, not passed over.
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// An integer as the canonical form writes it: an optional `-`, then
    /// `0` or digits without a leading zero, within `i64`.
    fn int(&mut self) -> Option<i64> {
        let negative = self.eat("-").is_some();
        let start = self.at;
        let mut magnitude: u64 = 0;
        while let Some(digit) = self.peek().filter(u8::is_ascii_digit) {
            magnitude = magnitude
                .checked_mul(10)?
                .checked_add(u64::from(digit - b'0'))?;
            self.at += 1;
        }
        let digits = self.at - start;
        if digits == 0 || (digits > 1 && self.text.as_bytes()[start] == b'0') {
            return None;
        }
        if negative {
            // `-0` is not written.
            (magnitude > 0).then_some(())?;
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        }
    }

    /// `[a,b,...]` of what `element` reads.
    fn list<T>(&mut self, element: impl Fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat("[")?;
        let mut list = Vec::new();
        if self.eat("]").is_some() {
            return Some(list);
        }
        loop {
            list.push(element(self)?);
            if self.eat("]").is_some() {
                return Some(list);
            }
            self.eat(",")?;
        }
    }

    fn world(&mut self) -> Option<World> {
        self.eat("{\"dims\":[")?;
        let x = self.int()?;
        self.eat(",")?;
        let y = self.int()?;
        self.eat("],\"cells\":")?;
        let cells = self.list(|r| match r.eat("null") {
            Some(()) => Some(None),
            None => r.square().map(Some),
        })?;
        let wrap = self.eat(",\"wrap\":false").is_none();
        self.eat("}")?;
        World::new(Shape::new((x, y), wrap).ok()?, cells).ok()
    }

    fn square(&mut self) -> Option<Square> {
        self.eat("{\"robots\":")?;
        let robots = self.list(Self::robot)?;
        self.eat(",\"items\":")?;
        let items = self.list(Self::item)?;
        self.eat("}")?;
        Some(Square { robots, items })
    }

    fn robot(&mut self) -> Option<Robot> {
        self.eat("{\"frame\":")?;
        let frame = self.frame()?;
        self.eat(",\"inventory\":")?;
        let inventory = self.list(Self::item)?;
        self.eat(",\"processor\":")?;
        let processor = self.processor()?;
        self.eat(",\"memory\":")?;
        let memory = self.list(Self::register)?;
        self.eat("}")?;
        Some(Robot {
            frame,
            inventory,
            processor,
            memory,
        })
    }

    fn frame(&mut self) -> Option<Frame> {
        self.eat("{\"color\":\"")?;
        let color = Color::ALL.into_iter().find(|&c| {
            let name = super::json::color_name(c);
            self.text.as_bytes()[self.at..].starts_with(name.as_bytes())
                && self.text.as_bytes().get(self.at + name.len()) == Some(&b'"')
        })?;
        self.at += super::json::color_name(color).len();
        self.eat("\",\"strength\":")?;
        let strength = self.int()?;
        self.eat("}")?;
        Some(Frame { color, strength })
    }

    fn processor(&mut self) -> Option<Processor> {
        self.eat("{\"speed\":")?;
        let speed = self.int()?;
        self.eat("}")?;
        Some(Processor { speed })
    }

    fn register(&mut self) -> Option<Register> {
        self.eat("{\"limit\":")?;
        let limit = self.int()?;
        self.eat(",\"contents\":")?;
        let contents = self.tree()?;
        self.eat("}")?;
        Some(Register { limit, contents })
    }

    fn item(&mut self) -> Option<Item> {
        if self.eat("\"Shield\"").is_some() {
            return Some(Item::Shield);
        }
        let item = if self.eat("{\"Cargo\":[").is_some() {
            let kind = self.int()?;
            self.eat(",")?;
            let weight = self.int()?;
            self.eat("]")?;
            Item::Cargo(kind, weight)
        } else if self.eat("{\"ProcessorPart\":").is_some() {
            Item::ProcessorPart(self.processor()?)
        } else if self.eat("{\"RegisterPart\":").is_some() {
            Item::RegisterPart(self.register()?)
        } else {
            self.eat("{\"FramePart\":")?;
            Item::FramePart(self.frame()?)
        };
        self.eat("}")?;
        Some(item)
    }

    /// A preorder text in quotes; a long one read before is the tree read
    /// then.
    fn tree(&mut self) -> Option<Tree> {
        self.eat("\"")?;
        let length = self.text.get(self.at..)?.find('"')?;
        let text = self.text.get(self.at..self.at + length)?;
        self.at += length + 1;
        if text.len() < DEDUPLICATED_TEXT {
            return Tree::from_bits(text).ok();
        }
        if let Some(tree) = self.texts.get(text) {
            return Some(tree.clone());
        }
        let tree = Tree::from_bits(text).ok()?;
        self.texts.insert(text, tree.clone());
        Some(tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::samples;

    fn serde_read(text: &str) -> Option<World> {
        serde_json::from_str(text).ok()
    }

    /// Every colour, every kind of item, negative and extreme numbers,
    /// walls, both kinds of grid: read back as serde reads them.
    #[test]
    fn reads_what_the_writer_writes() {
        for wrap in [true, false] {
            let world = samples::every_kind(wrap, 0);
            let text = serde_json::to_string(&world).unwrap();
            assert_eq!(read_canonical(&text), Some(world.clone()));
            assert_eq!(read_canonical(&format!(" \n{text}\n")), Some(world));
        }
    }

    /// The benchmark worlds.
    #[test]
    fn reads_the_benchmark_worlds() {
        for text in samples::benchmark_texts() {
            let world = read_canonical(&text).unwrap();
            assert_eq!(Some(world), serde_read(&text));
        }
    }

    /// Texts that are not the canonical form give `None`, whether serde
    /// reads them or not.
    #[test]
    fn anything_else_is_left_to_serde() {
        let good = r#"{"dims":[1,1],"cells":[{"robots":[],"items":[{"Cargo":[1,2]}]}]}"#;
        assert!(read_canonical(good).is_some());
        let others = [
            // Valid JSON, other forms.
            r#"{"cells":[null],"dims":[1,1]}"#,
            r#"{"dims": [1,1],"cells":[null]}"#,
            r#"{"dims":[1,1],"cells":[null],"wrap":true}"#,
            r#"{"world":{"dims":[1,1],"cells":[null]}}"#,
            r#"{"dims":[1,1],"cells":[{"robots":[],"items":["\u0053hield"]}]}"#,
            r#"{"dims":[1,1],"cells":[{"robots":[],"items":[{"Cargo":[-0,2]}]}]}"#,
            // Not a world, or not JSON.
            r#"{"dims":[1,2],"cells":[null]}"#,
            r#"{"dims":[0,1],"cells":[]}"#,
            r#"{"dims":[1,1],"cells":[null]"#,
            r#"{"dims":[1,1],"cells":[null]}x"#,
            r#"{"dims":[1,1],"cells":[null,]}"#,
            r#"{"dims":[01,1],"cells":[null]}"#,
            r#"{"dims":[9223372036854775808,1],"cells":[null]}"#,
            r#"{"dims":[1,1],"cells":[{"robots":[],"items":[{"RegisterPart":{"limit":1,"contents":"12"}}]}]}"#,
            r#"{"dims":[1,1],"cells":[{"robots":[],"items":[{"FramePart":{"color":"Redd","strength":1}}]}]}"#,
            "",
        ];
        for text in others {
            assert_eq!(read_canonical(text), None, "{text}");
        }
        // The extreme integers are read.
        let extremes = r#"{"dims":[1,1],"cells":[{"robots":[],"items":[{"Cargo":[-9223372036854775808,9223372036854775807]}]}]}"#;
        assert_eq!(read_canonical(extremes), serde_read(extremes));
        assert!(read_canonical(extremes).is_some());
    }
}

//! A world to step, in the interchange format.

use super::{Shape, World};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;

/// What `constree world step` reads: a World, or an object with a `world`
/// field whose other fields are ignored (a `world.jsonl` conformance line,
/// the output of `constree run --format json`).
pub struct WorldDocument(pub World);

impl<'de> Deserialize<'de> for WorldDocument {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(WorldDocumentVisitor)
    }
}

struct WorldDocumentVisitor;

impl<'de> Visitor<'de> for WorldDocumentVisitor {
    type Value = WorldDocument;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a World ({\"dims\": ..., \"cells\": ...}) or an object with a \"world\" field")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WorldDocument, A::Error> {
        let mut dims: Option<(i64, i64)> = None;
        let mut cells = None;
        let mut wrap = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "world" => return finish_with_world(map),
                "dims" => dims = Some(map.next_value()?),
                "cells" => cells = Some(map.next_value()?),
                "wrap" => wrap = Some(map.next_value()?),
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        let dims = dims.ok_or_else(|| de::Error::missing_field("dims"))?;
        let cells = cells.ok_or_else(|| de::Error::missing_field("cells"))?;
        let shape = Shape::new(dims, wrap.unwrap_or(true)).map_err(de::Error::custom)?;
        World::new(shape, cells)
            .map(WorldDocument)
            .map_err(de::Error::custom)
    }
}

/// Reads the `world` field's value and skips the rest of the object.
fn finish_with_world<'de, A: MapAccess<'de>>(mut map: A) -> Result<WorldDocument, A::Error> {
    let world: World = map.next_value()?;
    while map.next_key::<de::IgnoredAny>()?.is_some() {
        map.next_value::<de::IgnoredAny>()?;
    }
    Ok(WorldDocument(world))
}

//! A machine to run, in the interchange format.

use super::Memory;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// What `constree machine run` reads: a Memory, or an object with `memory`
/// and optionally `speed` (a `machine.jsonl` conformance line is one; other
/// fields are ignored).
pub struct MachineDocument {
    /// The ticks to run, if the document says.
    pub speed: Option<i64>,
    /// The memory.
    pub memory: Memory,
}

impl<'de> Deserialize<'de> for MachineDocument {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MachineDocumentVisitor)
    }
}

struct MachineDocumentVisitor;

impl<'de> Visitor<'de> for MachineDocumentVisitor {
    type Value = MachineDocument;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Memory (a list of registers) or an object with \"speed\" and \"memory\"")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<MachineDocument, A::Error> {
        let memory = Memory::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        Ok(MachineDocument {
            speed: None,
            memory,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MachineDocument, A::Error> {
        let mut speed = None;
        let mut memory = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "speed" => speed = Some(map.next_value()?),
                "memory" => memory = Some(map.next_value()?),
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        let memory = memory.ok_or_else(|| de::Error::missing_field("memory"))?;
        Ok(MachineDocument { speed, memory })
    }
}

//! JSON documents holding trees, in the plain form (every tree its
//! preorder text) or the shared form (every tree the number of a node of
//! one table, see [`super::write_shared`]):
//!
//! ```json
//! {"format": "constree-shared", "version": 1, "nodes": [[0, 0], ...], "value": ...}
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::Write;

/// The `format` of a document in the shared form.
pub const SHARED_FORMAT: &str = "constree-shared";

/// The version of the shared form this constree reads and writes.
pub const SHARED_VERSION: u32 = 1;

/// A document in the shared form: every tree in `value` is the number of a
/// node of `nodes` (as in images), so shared subtrees are written once.
#[derive(Serialize, Deserialize)]
struct SharedDocument<V> {
    format: String,
    version: u32,
    nodes: Vec<(u64, u64)>,
    value: V,
}

/// Just the `format` field of a document, if it has one.
#[derive(Deserialize)]
struct FormatProbe {
    format: Option<String>,
}

/// Reads a JSON document in the plain form or the shared form (told apart
/// by a `format` field of `"constree-shared"`). The error says what is
/// wrong and where (line and column, the node table, or `value`), without
/// naming the file.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    let shared = may_name_format(text)
        && serde_json::from_str::<FormatProbe>(text)
            .is_ok_and(|p| p.format.as_deref() == Some(SHARED_FORMAT));
    if !shared {
        return serde_json::from_str(text).map_err(JsonError::Json);
    }
    let document: SharedDocument<serde_json::Value> =
        serde_json::from_str(text).map_err(JsonError::Json)?;
    if document.version != SHARED_VERSION {
        return Err(JsonError::Version(document.version));
    }
    super::read_shared(&document.nodes, || serde_json::from_value(document.value))
        .map_err(JsonError::NodeTable)?
        .map_err(JsonError::Value)
}

/// Why a JSON document cannot be read by [`from_str`]: what is wrong and
/// where, without naming the file.
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    /// Not JSON, or not of the value's form (with line and column).
    #[error("{0}")]
    Json(serde_json::Error),
    /// The shared form in a version this constree does not read.
    #[error("shared form version {0} (this constree reads version {SHARED_VERSION})")]
    Version(u32),
    /// A node table whose nodes refer forward.
    #[error("bad node table: {0}")]
    NodeTable(super::ForwardNode),
    /// A shared document's `value` that is not of the value's form.
    #[error("in \"value\": {0}")]
    Value(serde_json::Error),
}

/// Whether the text may have a `format` key: it has `"format"` or an
/// escape (through which a key can be spelled otherwise). A text without
/// either is read once, without probing it first.
fn may_name_format(text: &str) -> bool {
    text.contains("\"format\"") || text.as_bytes().contains(&b'\\')
}

/// Writes a value as compact JSON to `writer`, in the plain form or, with
/// `shared`, in the shared form. A tree whose preorder text would pass
/// [`super::max_text`] is an error in the plain form (see the [`Tree`]'s
/// `Serialize`).
///
/// [`Tree`]: super::Tree
pub fn to_writer<T: Serialize, W: Write>(
    writer: W,
    value: &T,
    shared: bool,
) -> serde_json::Result<()> {
    if !shared {
        return serde_json::to_writer(writer, value);
    }
    let (value, nodes) = super::write_shared(|| serde_json::to_value(value));
    let document = SharedDocument {
        format: SHARED_FORMAT.to_string(),
        version: SHARED_VERSION,
        nodes,
        value: value?,
    };
    serde_json::to_writer(writer, &document)
}

//! Reading input files (`-` is standard input) and writing JSON output.

use super::Failure;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;

/// The whole text of a file, or of standard input for `-`.
pub fn read_text(path: &Path) -> Result<String, Failure> {
    let mut text = String::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure(format!("<stdin>: {e}")))?;
    } else {
        text = std::fs::read_to_string(path)
            .map_err(|e| Failure(format!("{}: {e}", path.display())))?;
    }
    Ok(text)
}

/// The shared form of a JSON document: every tree in `value` is the number
/// of a node of `nodes` (as in images), so shared subtrees are written once.
#[derive(Serialize, Deserialize)]
struct SharedDocument<V> {
    format: String,
    version: u32,
    nodes: Vec<(u64, u64)>,
    value: V,
}

/// The `format` of [`SharedDocument`].
const SHARED_FORMAT: &str = "constree-shared";

/// Just the `format` field of a document, if it has one.
#[derive(Deserialize)]
struct FormatProbe {
    format: Option<String>,
}

/// Reads a JSON file, in the plain form or the shared form (`--shared`
/// output); errors name the file, line and column.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    let text = read_text(path)?;
    let name = if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    };
    let shared = serde_json::from_str::<FormatProbe>(&text)
        .is_ok_and(|p| p.format.as_deref() == Some(SHARED_FORMAT));
    if !shared {
        return serde_json::from_str(&text).map_err(|e| Failure(format!("{name}: {e}")));
    }
    let document: SharedDocument<serde_json::Value> =
        serde_json::from_str(&text).map_err(|e| Failure(format!("{name}: {e}")))?;
    if document.version != 1 {
        return Err(Failure(format!(
            "{name}: shared form version {} (this constree reads version 1)",
            document.version
        )));
    }
    crate::tree::read_shared(&document.nodes, || serde_json::from_value(document.value))
        .map_err(|e| Failure(format!("{name}: bad node table: {e}")))?
        .map_err(|e| Failure(format!("{name}: in \"value\": {e}")))
}

/// A writer that refuses to write more than `left` bytes in all.
struct Capped<W> {
    inner: W,
    left: u64,
}

impl<W: Write> Write for Capped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() as u64 > self.left {
            return Err(std::io::Error::other(format!(
                "it is more than {} bytes of JSON",
                crate::tree::max_text()
            )));
        }
        let n = self.inner.write(buf)?;
        self.left -= n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes a value as compact JSON and a newline to standard output, in the
/// plain form or, with `shared`, in the shared form (trees as node numbers
/// of one table); a result of more than [`crate::tree::max_text`] bytes is
/// an error that says so (and nothing is printed).
pub fn print_json<T: Serialize>(value: &T, shared: bool) -> Result<(), Failure> {
    // Built whole first, so that a result too large prints nothing.
    let mut out = Capped {
        inner: Vec::new(),
        left: crate::tree::max_text(),
    };
    let written = if shared {
        let (value, nodes) = crate::tree::write_shared(|| serde_json::to_value(value));
        let document = SharedDocument {
            format: SHARED_FORMAT.to_string(),
            version: 1,
            nodes,
            value: value?,
        };
        serde_json::to_writer(&mut out, &document)
    } else {
        serde_json::to_writer(&mut out, value)
    };
    written.map_err(|e| {
        Failure(format!(
            "the result cannot be printed: {e}{}",
            if e.is_io() {
                " (CONSTREE_MAX_TEXT=BYTES raises the limit)"
            } else {
                ""
            }
        ))
    })?;
    out.inner.push(b'\n');
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out.inner)?;
    stdout.flush()?;
    Ok(())
}

//! Reading input files (`-` is standard input) and writing JSON output.

use super::Failure;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::Write;
use std::path::Path;

/// The whole text of a file, or of standard input for `-` (see
/// [`crate::files::read_input`]).
pub fn read_text(path: &Path) -> Result<String, Failure> {
    Ok(crate::files::read_input_text(path)?)
}

/// Reads a JSON file, in the plain form or the shared form (`--shared`
/// output, see [`crate::tree::json`]); errors name the file, line and
/// column.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    parse_json(path, &read_text(path)?)
}

/// [`read_json`] of a file's text already read.
pub fn parse_json<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, Failure> {
    crate::tree::json::from_str(text).map_err(|e| Failure::input(path, e))
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
    crate::tree::json::to_writer(&mut out, value, shared).map_err(|e| {
        Failure::Stdio(format!(
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

//! Reading input files (`-` is standard input) and writing JSON output.

use super::Failure;
use serde::Serialize;
use serde::de::DeserializeOwned;
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

/// Reads a JSON file; errors name the file, line and column.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    let text = read_text(path)?;
    let name = if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    };
    serde_json::from_str(&text).map_err(|e| Failure(format!("{name}: {e}")))
}

/// Writes a value as compact JSON and a newline to standard output.
pub fn print_json<T: Serialize>(value: &T) -> Result<(), Failure> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    serde_json::to_writer(&mut out, value)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

//! The embedded standard library as files an editor can open.
//!
//! Go to definition into `std/control` must open a text the editor can
//! show. The modules built into `constree` have no file, so the server
//! writes them once into a cache folder, read-only, and points at them with
//! `file:` URIs: every editor opens those without help, where a URI scheme
//! of our own (`constree-std:`) would need code in each client to ask the
//! server for the text. The folder is
//! `$XDG_CACHE_HOME/constree/stdlib-HASH/` (else `~/.cache/...`), `HASH`
//! naming the modules' texts, so two versions of `constree` never share
//! one; the files are never written again once there. With `--stdlib DIR`
//! the modules are files already, and those are used.

use crate::asm::source::embedded_stdlib;
use std::hash::{Hash, Hasher};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why the standard library cannot be shown in the editor.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StdlibError {
    /// No cache folder to write it to.
    #[error("neither $XDG_CACHE_HOME nor $HOME is set: nowhere to write the standard library")]
    NoCache,
    /// The folder cannot be written.
    #[error("cannot write {}: {}", .0.display(), .1)]
    Write(PathBuf, Arc<std::io::Error>),
    /// A path that makes no URI.
    #[error("{0} is not a URI")]
    NotAUri(String),
}

/// The folder holding the embedded modules as `NAME.cta`, written when
/// missing.
pub fn folder() -> Result<PathBuf, StdlibError> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .ok_or(StdlibError::NoCache)?;
    let mut hasher = std::hash::DefaultHasher::new();
    embedded_stdlib().hash(&mut hasher);
    let dir = base
        .join("constree")
        .join(format!("stdlib-{:016x}", hasher.finish()));
    if dir.is_dir() {
        return Ok(dir);
    }
    let parent = dir.parent().unwrap_or(&base);
    let failed = |e: std::io::Error| StdlibError::Write(dir.clone(), Arc::new(e));
    std::fs::create_dir_all(parent).map_err(failed)?;
    crate::files::write_folder(&dir, false, |tmp| {
        for (name, text) in embedded_stdlib() {
            let path = tmp.join(format!("{name}.cta"));
            std::fs::write(&path, text)?;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444))?;
        }
        Ok(())
    })
    .or_else(|e| if dir.is_dir() { Ok(()) } else { Err(e) })
    .map_err(failed)?;
    Ok(dir)
}

/// The standard module a file of the folder is (`control` for
/// `.../stdlib-HASH/control.cta`).
pub fn module_of(folder: &Path, path: &Path) -> Option<String> {
    let name = path
        .strip_prefix(folder)
        .ok()?
        .to_str()?
        .strip_suffix(".cta")?;
    embedded_stdlib()
        .iter()
        .any(|(n, _)| *n == name)
        .then(|| name.to_string())
}

//! Source files, spans, and the loader through which the assembler reads
//! files (injected, so the compiler can be tested without a disk).

use std::path::{Path, PathBuf};

/// The files and spans diagnostics point into, which the assembler reads.
pub use crate::diagnostic::{FileId, SourceFile, Sources, Span};

/// Where a module named in `use`/`include` is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModulePath {
    /// `std/NAME`: a module of the standard library.
    Std(String),
    /// A path relative to the including file (or absolute).
    File(PathBuf),
}

/// Why a module cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A standard module's file in the standard library's directory that
    /// cannot be read.
    #[error("{0}")]
    StdFile(crate::files::ReadError),
    /// A standard module that does not exist.
    #[error("there is no standard module `std/{0}`")]
    NoStdModule(String),
    /// A file that cannot be read.
    #[error("cannot read {0}")]
    File(crate::files::ReadError),
    /// A file the [`MemoryLoader`] does not hold.
    #[error("cannot read {}: no such file", .0.display())]
    NoSuchFile(PathBuf),
}

/// Reads source files for the assembler.
pub trait Loader {
    /// Loads a module, given the disk path of the file that names it (if it
    /// has one). Returns the display name, the disk path (if any) and text.
    fn load(&self, module: &ModulePath, from: Option<&Path>) -> Result<SourceFile, LoadError>;
}

/// The standard library modules built into the binary: `(name, text)`.
pub fn embedded_stdlib() -> &'static [(&'static str, &'static str)] {
    include!(concat!(env!("OUT_DIR"), "/stdlib_files.rs"))
}

/// Reads files from disk, and the standard library from the binary or from
/// an override directory.
#[derive(Debug, Clone, Default)]
pub struct DiskLoader {
    /// A directory to read `std/NAME` modules from instead of the embedded
    /// ones (for stdlib development).
    pub stdlib_dir: Option<PathBuf>,
}

impl DiskLoader {
    /// A loader that uses `--stdlib DIR` if given, else `$CONSTREE_STDLIB`,
    /// else the embedded standard library.
    pub fn new(stdlib_dir: Option<PathBuf>) -> DiskLoader {
        let stdlib_dir =
            stdlib_dir.or_else(|| std::env::var_os("CONSTREE_STDLIB").map(PathBuf::from));
        DiskLoader { stdlib_dir }
    }
}

impl Loader for DiskLoader {
    fn load(&self, module: &ModulePath, from: Option<&Path>) -> Result<SourceFile, LoadError> {
        match module {
            ModulePath::Std(name) => {
                let display = format!("std/{name}.cta");
                if let Some(dir) = &self.stdlib_dir {
                    let path = dir.join(format!("{name}.cta"));
                    let text = crate::files::read_named_text(&path).map_err(LoadError::StdFile)?;
                    return Ok(SourceFile::new(display, Some(path), text));
                }
                embedded_stdlib()
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, text)| SourceFile::new(display, None, text.to_string()))
                    .ok_or_else(|| LoadError::NoStdModule(name.clone()))
            }
            ModulePath::File(path) => {
                let full = match from.and_then(Path::parent) {
                    Some(dir) if path.is_relative() => dir.join(path),
                    _ => path.clone(),
                };
                // The root file is named on the command line; the others
                // inside files.
                let text = match from {
                    None => crate::files::read_input_text(&full),
                    Some(_) => crate::files::read_named_text(&full),
                }
                .map_err(LoadError::File)?;
                Ok(SourceFile::new(
                    full.display().to_string(),
                    Some(full),
                    text,
                ))
            }
        }
    }
}

/// Files held in memory, for tests: names map to texts; `std/NAME` falls
/// back to the embedded standard library.
#[derive(Debug, Clone, Default)]
pub struct MemoryLoader {
    /// `(path, text)` pairs.
    pub files: Vec<(PathBuf, String)>,
}

impl MemoryLoader {
    /// Adds a file.
    pub fn with(mut self, path: &str, text: &str) -> MemoryLoader {
        self.files.push((PathBuf::from(path), text.to_string()));
        self
    }
}

impl Loader for MemoryLoader {
    fn load(&self, module: &ModulePath, from: Option<&Path>) -> Result<SourceFile, LoadError> {
        match module {
            ModulePath::Std(_) => DiskLoader::default().load(module, from),
            ModulePath::File(path) => {
                let full = match from.and_then(Path::parent) {
                    Some(dir) if path.is_relative() && !dir.as_os_str().is_empty() => {
                        dir.join(path)
                    }
                    _ => path.clone(),
                };
                self.files
                    .iter()
                    .find(|(p, _)| *p == full)
                    .map(|(p, t)| {
                        SourceFile::new(p.display().to_string(), Some(p.clone()), t.clone())
                    })
                    .ok_or(LoadError::NoSuchFile(full))
            }
        }
    }
}

//! Source files, spans, and the loader through which the assembler reads
//! files (injected, so the compiler can be tested without a disk).

use std::path::{Path, PathBuf};

/// Index of a file in [`Sources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span in a file.
    pub fn new(file: FileId, range: std::ops::Range<usize>) -> Span {
        Span {
            file,
            start: range.start as u32,
            end: range.end as u32,
        }
    }

    /// The byte range.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The smallest span covering both (same file).
    pub fn join(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in messages (a path, or `std/NAME.cta`).
    pub name: String,
    /// Where it was found on disk, if it was (stdlib modules are embedded).
    pub path: Option<PathBuf>,
    /// The text.
    pub text: String,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// A file from its name, optional disk path and text.
    pub fn new(name: String, path: Option<PathBuf>, text: String) -> SourceFile {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            name,
            path,
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.line_starts[line];
        let column = self
            .text
            .get(start..offset.min(self.text.len()))
            .map_or(0, |s| s.chars().count());
        (line + 1, column + 1)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e - 1);
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r')
    }
}

/// Every file an assembly read, by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// The text of a file, to lend it out while the file is expanded (it
    /// must be given back unchanged: its line starts are kept).
    pub(super) fn text_mut(&mut self, id: FileId) -> &mut String {
        &mut self.files[id.0 as usize].text
    }

    /// All files in the order they were read.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// `file:line:column` of the start of a span.
    pub fn location(&self, span: Span) -> String {
        let file = self.get(span.file);
        let (line, col) = file.line_col(span.start as usize);
        format!("{}:{line}:{col}", file.name)
    }
}

/// Where a module named in `use`/`include` is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModulePath {
    /// `std/NAME`: a module of the standard library.
    Std(String),
    /// A path relative to the including file (or absolute).
    File(PathBuf),
}

/// Reads source files for the assembler.
pub trait Loader {
    /// Loads a module, given the disk path of the file that names it (if it
    /// has one). Returns the display name, the disk path (if any) and text.
    fn load(&self, module: &ModulePath, from: Option<&Path>) -> Result<SourceFile, String>;
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
    fn load(&self, module: &ModulePath, from: Option<&Path>) -> Result<SourceFile, String> {
        match module {
            ModulePath::Std(name) => {
                let display = format!("std/{name}.cta");
                if let Some(dir) = &self.stdlib_dir {
                    let path = dir.join(format!("{name}.cta"));
                    let text = crate::files::read_named_text(&path)?;
                    return Ok(SourceFile::new(display, Some(path), text));
                }
                embedded_stdlib()
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, text)| SourceFile::new(display, None, text.to_string()))
                    .ok_or_else(|| format!("there is no standard module `std/{name}`"))
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
                .map_err(|e| format!("cannot read {e}"))?;
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
    fn load(&self, module: &ModulePath, from: Option<&Path>) -> Result<SourceFile, String> {
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
                    .ok_or_else(|| format!("cannot read {}: no such file", full.display()))
            }
        }
    }
}

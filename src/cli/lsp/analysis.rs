//! What the server knows of an open document after its last check: the
//! assembly and its symbol index, and how the files it read are named in
//! the editor.

use super::stdlib::{self, StdlibError};
use super::text::{Lines, path_to_uri, uri_to_path};
use crate::asm::Assembly;
use crate::asm::index::{Detail, Occurrence, SymbolIndex};
use crate::diagnostic::{FileId, Span};
use lsp_types::{Location, Position, Range, Uri};
use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The main file of an assembly: the first one read.
pub const MAIN: FileId = FileId(0);

/// A document's last check.
pub struct Analysis {
    /// The document assembled.
    pub uri: Uri,
    /// The assembly.
    pub assembly: Assembly,
    /// Its symbols.
    pub index: SymbolIndex,
}

/// A file as the editor names it: one key for it in every analysis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Place {
    /// A document or a file on disk, by its `file:` URI (or the document's
    /// URI when it is not a file).
    Uri(String),
    /// A module of the embedded standard library, by name (`control`).
    Standard(String),
}

/// Where the embedded standard library is written for the editor, found
/// (and written) once, when first needed.
#[derive(Default)]
pub struct StdlibFolder(OnceCell<Result<PathBuf, StdlibError>>);

impl StdlibFolder {
    /// The folder, or why there is none.
    pub fn get(&self) -> Result<&Path, StdlibError> {
        self.0
            .get_or_init(stdlib::folder)
            .as_deref()
            .map_err(Clone::clone)
    }

    /// The place of a document: a standard module when it is one of the
    /// folder's files.
    pub fn place_of(&self, uri: &Uri) -> Place {
        if let Some(path) = uri_to_path(uri.as_str())
            && path.components().any(|c| c.as_os_str() == "constree")
            && let Ok(folder) = self.get()
            && let Some(module) = stdlib::module_of(folder, &path)
        {
            return Place::Standard(module);
        }
        match uri_to_path(uri.as_str()) {
            Some(path) => Place::Uri(path_to_uri(&path)),
            None => Place::Uri(uri.as_str().to_string()),
        }
    }

    /// The URI of a place (writing the standard library when it is one of
    /// its modules).
    pub fn uri(&self, place: &Place) -> Result<Uri, StdlibError> {
        let text = match place {
            Place::Uri(uri) => uri.clone(),
            Place::Standard(name) => path_to_uri(&self.get()?.join(format!("{name}.cta"))),
        };
        text.parse().map_err(|_| StdlibError::NotAUri(text))
    }
}

impl Analysis {
    /// The place of one of its files.
    pub fn place(&self, file: FileId) -> Place {
        let source = self.assembly.sources.get(file);
        match &source.path {
            Some(path) => Place::Uri(path_to_uri(path)),
            None if file == MAIN => Place::Uri(self.uri.as_str().to_string()),
            None => {
                let name = source.name.strip_prefix("std/").unwrap_or(&source.name);
                Place::Standard(name.strip_suffix(".cta").unwrap_or(name).to_string())
            }
        }
    }

    /// Which of its files a place is, if it read it.
    pub fn file_of(&self, place: &Place) -> Option<FileId> {
        if *place == Place::Uri(self.uri.as_str().to_string()) {
            return Some(MAIN);
        }
        self.assembly
            .sources
            .iter()
            .map(|(id, _)| id)
            .find(|&id| self.place(id) == *place)
    }

    /// The text of one of its files.
    pub fn text(&self, file: FileId) -> &str {
        &self.assembly.sources.get(file).text
    }

    /// The text at a span.
    pub fn written(&self, span: Span) -> &str {
        self.text(span.file).get(span.range()).unwrap_or("")
    }

    /// The files of standard modules (read-only to an editor).
    pub fn standard_files(&self) -> Vec<FileId> {
        self.index
            .symbols
            .iter()
            .filter_map(|s| match s.detail {
                Detail::Module {
                    file,
                    standard: true,
                } => Some(file),
                _ => None,
            })
            .collect()
    }
}

/// Spans of one analysis as protocol ranges and locations, with each
/// file's lines worked out once.
pub struct Locator<'a> {
    pub analysis: &'a Analysis,
    stdlib: &'a StdlibFolder,
    lines: HashMap<FileId, Lines<'a>>,
}

impl<'a> Locator<'a> {
    pub fn new(analysis: &'a Analysis, stdlib: &'a StdlibFolder) -> Locator<'a> {
        Locator {
            analysis,
            stdlib,
            lines: HashMap::new(),
        }
    }

    fn lines(&mut self, file: FileId) -> &Lines<'a> {
        let analysis = self.analysis;
        self.lines
            .entry(file)
            .or_insert_with(|| Lines::new(analysis.text(file)))
    }

    pub fn range(&mut self, span: Span) -> Range {
        self.lines(span.file).range(span.range())
    }

    /// The byte offset of a position in a file.
    pub fn offset(&mut self, file: FileId, position: Position) -> usize {
        self.lines(file).offset(position)
    }

    pub fn location(&mut self, span: Span) -> Result<Location, StdlibError> {
        let uri = self.stdlib.uri(&self.analysis.place(span.file))?;
        Ok(Location::new(uri, self.range(span)))
    }

    /// The occurrence at a position of a file.
    pub fn occurrence(&mut self, file: FileId, position: Position) -> Option<Occurrence> {
        let offset = self.offset(file, position);
        self.analysis.index.at(file, offset)
    }
}

/// What identifies a symbol in every analysis: where it is defined, or
/// (for `prog`, `in` and `out` as predeclared) its name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    At(Place, u32, u32),
    Predeclared(String),
}

/// The key of a symbol of an analysis.
pub fn key(analysis: &Analysis, symbol: usize) -> Key {
    let s = &analysis.index.symbols[symbol];
    match s.definition {
        Some(span) => Key::At(analysis.place(span.file), span.start, span.end),
        None => Key::Predeclared(s.name.clone()),
    }
}

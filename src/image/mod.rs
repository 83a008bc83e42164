//! Memory images: what the assembler produces and robots are loaded with.
//!
//! An image is a memory (registers: limit and contents) together with what a
//! debugger needs to talk about it in source terms: register names, labels
//! (register and offset), the call convention, and a source map from every
//! instruction of every code register back to its file, line and column and
//! the macro expansions it came from. Images are stored as `.ctm` files,
//! as JSON (see [`mod@format`]) or in a binary form (see [`binary`]), both
//! with every distinct subtree stored once.

pub(crate) mod beside;
pub mod binary;
pub mod format;
mod json_writer;
pub mod sources;

use crate::machine::{Memory, Register};
use crate::tree::Tree;
use std::rc::Rc;

/// A compiled program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// The registers, by index.
    pub registers: Vec<ImageRegister>,
    /// Labels: where each starts.
    pub labels: Vec<LabelSymbol>,
    /// The registers of the call convention, if the program declares one.
    pub callstack: Option<CallStack>,
    /// Where each instruction came from.
    pub source_map: SourceMap,
    /// The files the image was built from.
    pub files: Vec<FileRecord>,
    /// `constree VERSION`.
    pub compiler: String,
    /// SHA-256 over every file's name and text, in order (hex).
    pub sources_hash: String,
    /// The images of the programs it embeds (`image("file.cta")`), each
    /// once, so that a robot built with one's memory can be debugged in
    /// source terms.
    pub images: Vec<Image>,
}

/// A register of an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRegister {
    /// Its name in the source (constants: `const0`, ...).
    pub name: String,
    /// Its limit.
    pub limit: i64,
    /// Its initial contents.
    pub contents: Tree,
}

/// A label: the instruction at `offset` along the list in `register`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelSymbol {
    /// The label.
    pub name: String,
    /// The register whose code contains it.
    pub register: usize,
    /// How many instructions precede it there.
    pub offset: usize,
}

/// The call convention: `call` pushes the rest of the current code onto
/// `stack` (so each stack element is a return continuation whose first
/// instruction is the jump into the callee); `ret` pops it into `link` and
/// continues after that jump.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallStack {
    /// The stack register.
    pub stack: usize,
    /// The scratch register of `ret`.
    pub link: usize,
}

/// Source positions of the instructions of every code register.
///
/// Code is stored as *segments*: the instructions of one block, written in
/// one place, and the segment its code continues with (a block's code falls
/// through into the next block's, and the two share that tree). A code
/// register starts at a segment. This keeps the map linear in the program's
/// size, however many registers share its code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMap {
    /// Distinct positions.
    pub locations: Vec<Location>,
    /// The segments.
    pub segments: Vec<Segment>,
    /// Per code register: its first segment.
    pub registers: Vec<RegisterMap>,
}

/// A run of instructions and what follows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Index into [`SourceMap::locations`] per instruction, in order.
    pub locations: Vec<u32>,
    /// The segment the code continues with.
    pub next: Option<u32>,
}

/// Where a code register's code starts in the source map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterMap {
    /// The register.
    pub register: usize,
    /// Index into [`SourceMap::segments`].
    pub segment: u32,
}

/// A position in a source file, with the macro invocations that led there.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// Index into [`Image::files`].
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The macro invocations, innermost first (shared by the locations
    /// of one expansion).
    pub expansion: Rc<[ExpansionSite]>,
}

/// A macro invocation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExpansionSite {
    /// The macro.
    pub macro_name: Rc<str>,
    /// Index into [`Image::files`].
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// A source file an image was built from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRecord {
    /// Its name (a path, or `std/NAME.cta`).
    pub name: String,
    /// SHA-256 of its text (hex).
    pub hash: String,
    /// Its text, when the image carries it (images of format version 1
    /// do not).
    pub text: Option<String>,
}

/// Where pieces of code came from, found by the identity of their nodes:
/// valid while the image's trees are alive (a machine loaded from the image
/// shares them).
#[derive(Debug, Default)]
pub struct CodeIndex {
    places: rustc_hash::FxHashMap<usize, (usize, usize)>,
}

impl CodeIndex {
    /// `(register, offset)` of the code whose first instruction is the front
    /// of `code`, if `code` is (a suffix of) the image's code.
    pub fn place(&self, code: &Tree) -> Option<(usize, usize)> {
        self.places.get(&code.node_id()).copied()
    }
}

impl Image {
    /// A machine error's text with the register it names given by its name
    /// in this program (`deconstruct of Nil in trail (r3)`).
    pub fn error_text(&self, error: &crate::machine::MachineError) -> String {
        error.named(&|r| Some(self.registers.get(r)?.name.clone()))
    }

    /// The index of the code of every code register.
    pub fn code_index(&self) -> CodeIndex {
        let mut places = rustc_hash::FxHashMap::default();
        for m in &self.source_map.registers {
            let Some(register) = self.registers.get(m.register) else {
                continue;
            };
            let mut rest = &register.contents;
            let mut offset = 0;
            while let Some((_, back)) = rest.split() {
                // The rest of a spine seen before is indexed already.
                match places.entry(rest.node_id()) {
                    std::collections::hash_map::Entry::Occupied(_) => break,
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert((m.register, offset));
                    }
                }
                rest = back;
                offset += 1;
            }
        }
        CodeIndex { places }
    }

    /// About how many distinct nodes the image's trees have, to size a
    /// node table: two per instruction of its code and one per register
    /// (a guess; the table grows past it).
    pub(crate) fn node_hint(&self) -> usize {
        let code: usize = self
            .source_map
            .segments
            .iter()
            .map(|s| s.locations.len())
            .sum();
        2 * code + self.registers.len()
    }

    /// The texts of its files, when it carries them all.
    pub(crate) fn texts(&self) -> Option<Vec<&str>> {
        self.files.iter().map(|f| f.text.as_deref()).collect()
    }

    /// How many bytes of text its files carry.
    pub(crate) fn text_bytes(&self) -> usize {
        self.files
            .iter()
            .filter_map(|f| f.text.as_ref())
            .map(String::len)
            .sum()
    }

    /// The memory a machine starts with.
    pub fn memory(&self) -> Memory {
        self.registers
            .iter()
            .map(|r| Register::new(r.limit, r.contents.clone()))
            .collect()
    }

    /// The index of a register by name.
    pub fn register(&self, name: &str) -> Option<usize> {
        self.registers.iter().position(|r| r.name == name)
    }

    /// Whether a register starts out holding code written in the source.
    pub fn is_code(&self, register: usize) -> bool {
        self.source_map
            .registers
            .iter()
            .any(|m| m.register == register)
    }

    /// The source location of instruction `offset` of a register's code.
    pub fn location(&self, register: usize, offset: usize) -> Option<&Location> {
        let (segment, index) = self.segment_position(register, offset)?;
        let k = self.source_map.segments[segment as usize].locations[index];
        self.source_map.locations.get(k as usize)
    }

    /// Where instruction `offset` of a register's code is in the source
    /// map: its segment and its index in it.
    pub fn segment_position(&self, register: usize, offset: usize) -> Option<(u32, usize)> {
        let map = self
            .source_map
            .registers
            .iter()
            .find(|m| m.register == register)?;
        let mut s = map.segment;
        let mut offset = offset;
        // Bounded by the number of segments, in case a file links them in a
        // loop.
        for _ in 0..=self.source_map.segments.len() {
            let segment = self.source_map.segments.get(s as usize)?;
            if offset < segment.locations.len() {
                return Some((s, offset));
            }
            offset -= segment.locations.len();
            s = segment.next?;
        }
        None
    }
}

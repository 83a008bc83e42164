//! The focused program in source terms: where an instruction was written,
//! which label it belongs to, the source text around it, the call stack.

use super::positions::{Position, PositionMap};
use crate::asm::source::embedded_stdlib;
use crate::image::{Image, Location};
use crate::tree::Tree;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A source line: file index and line number.
pub type LineKey = (u32, u32);

/// The line a location is shown at: the outermost one (the line that
/// invoked the macros).
pub fn shown(l: &Location) -> LineKey {
    match l.expansion.last() {
        Some(site) => (site.file, site.line),
        None => (l.file, l.line),
    }
}

/// `NAME+K`, or `NAME` when K is 0.
fn join(name: String, offset: usize) -> String {
    match offset {
        0 => name,
        d => format!("{name}+{d}"),
    }
}

/// A program's symbols and source map, and its source files' text.
pub struct Program {
    /// The image.
    pub image: Rc<Image>,
    /// Code node to place; the start state's `prog` last, so that code is
    /// named by the register (and label) it was written in.
    places: rustc_hash::FxHashMap<usize, Place>,
    /// Every position of the code (the source map's instructions in the
    /// order written) and the code node at each.
    pub positions: Rc<PositionMap>,
    /// The labels by position: `(position, file of the line shown for
    /// its code, index in the image's labels)`, sorted.
    labels: Vec<(Position, u32, usize)>,
    /// Per segment of the source map: its first position.
    segment_starts: Vec<usize>,
    texts: RefCell<HashMap<u32, Option<Rc<str>>>>,
    /// Built-in files by name (the built-in game's programs).
    builtin: Vec<(String, String)>,
}

/// A piece of code the image knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The code register.
    pub register: usize,
    /// The instruction's offset in it.
    pub offset: usize,
}

impl Program {
    /// The program of an image; its sources are the texts the image
    /// carries, else the built-in files and the embedded standard library.
    /// No file is read: a path an image names is never opened.
    pub fn new(image: Rc<Image>, builtin: Vec<(String, String)>) -> Program {
        let mut program = Program {
            places: Default::default(),
            positions: Rc::new(PositionMap::new(&image)),
            labels: Vec::new(),
            segment_starts: Vec::new(),
            image,
            texts: RefCell::default(),
            builtin,
        };
        program.places = program
            .instructions()
            .into_iter()
            .map(|(tree, place)| (tree.node_id(), place))
            .collect();
        program.order_code();
        program
    }

    /// Fills [`Program::labels`].
    fn order_code(&mut self) {
        let image = &self.image;
        let mut total = 0;
        self.segment_starts = image
            .source_map
            .segments
            .iter()
            .map(|s| {
                total += s.locations.len();
                total - s.locations.len()
            })
            .collect();
        self.labels = image
            .labels
            .iter()
            .enumerate()
            .filter_map(|(k, l)| {
                let file = shown(image.location(l.register, l.offset)?).0;
                Some((self.label_position(l.register, l.offset)?, file, k))
            })
            .collect();
        self.labels.sort_unstable();
    }

    /// The position of instruction `offset` of a register's code.
    pub fn label_position(&self, register: usize, offset: usize) -> Option<Position> {
        let (segment, k) = self.image.segment_position(register, offset)?;
        Some((self.segment_starts[segment as usize] + k) as Position)
    }

    /// The position of a piece of code: `at` when that is one of its
    /// positions (where a tracker found the machine), else its first.
    pub fn position(&self, code: &Tree, at: Option<Position>) -> Option<Position> {
        let all = self.positions.of(code.node_id());
        match at {
            Some(p) if all.contains(&p) => Some(p),
            _ => all.first().copied(),
        }
    }

    /// The source location of a position.
    pub fn location_at(&self, p: Position) -> Option<&Location> {
        let k = self.positions.location(p)?;
        self.image.source_map.locations.get(k as usize)
    }

    /// The line a position is shown at (the line that invoked the macros).
    pub fn line_at(&self, p: Position) -> Option<LineKey> {
        self.location_at(p).map(shown)
    }

    /// `label+offset` of a position, as [`Program::name`].
    pub fn name_at(&self, p: Position) -> Option<String> {
        let (name, offset) = self.block_at(p)?;
        Some(join(name, offset))
    }

    /// The label [`Program::name_at`] names a position by, and the
    /// instructions it is past it.
    pub fn block_at(&self, p: Position) -> Option<(String, usize)> {
        let node = self.positions.node(p)?;
        if let Some(file) = self.line_at(p).map(|l| l.0) {
            let before = self.labels.partition_point(|&(g, _, _)| g <= p);
            let nearest = self.labels[..before].iter().rev().find(|l| l.1 == file);
            if let Some(&(g, _, k)) = nearest {
                return Some((self.image.labels[k].name.clone(), (p - g) as usize));
            }
        }
        self.register_block(node)
    }

    /// A piece of code named by its register's name and its offset there.
    fn register_block(&self, node: usize) -> Option<(String, usize)> {
        let place = self.place_of(node)?;
        let register = self.image.registers.get(place.register);
        let name = register.map_or_else(|| format!("r{}", place.register), |r| r.name.clone());
        Some((name, place.offset))
    }

    /// Where a piece of code is, if it is the image's code.
    pub fn place(&self, code: &Tree) -> Option<Place> {
        self.place_of(code.node_id())
    }

    /// Where the code whose node is `node` is, if it is the image's code.
    fn place_of(&self, node: usize) -> Option<Place> {
        self.places.get(&node).copied()
    }

    /// The source location of a piece of code (at its first position).
    pub fn location(&self, code: &Tree) -> Option<&Location> {
        self.location_at(self.position(code, None)?)
    }

    /// The source line of a piece of code as the debugger shows it: the
    /// outermost one (the line that invoked the macros), at its first
    /// position.
    pub fn outer_line(&self, code: &Tree) -> Option<LineKey> {
        self.line_of(code.node_id())
    }

    /// [`Program::outer_line`] of the code whose node is `node`.
    pub fn line_of(&self, node: usize) -> Option<LineKey> {
        self.line_at(self.positions.first(node)?)
    }

    /// `label+offset` of a piece of the image's code (at its first
    /// position): the label written nearest before it in its file,
    /// counting the instructions written between (labels local to a
    /// macro's expansion are not in the image: code after `wait_step` is
    /// named by the user's label before it); else its register's name and
    /// its offset there.
    pub fn name(&self, code: &Tree) -> Option<String> {
        let (name, offset) = self.block(code.node_id())?;
        Some(join(name, offset))
    }

    /// The label [`Program::name`] names the code whose node is `node` by,
    /// and the instructions it is past it.
    pub fn block(&self, node: usize) -> Option<(String, usize)> {
        match self.positions.first(node) {
            Some(p) => self.block_at(p),
            None => self.register_block(node),
        }
    }

    /// The code a name stands for, as stops print it: a label, or
    /// `NAME+K` (K instructions past the label NAME, or at offset K of the
    /// register NAME where no label names the code): every piece of code
    /// [`Program::name`] names so.
    pub fn named(&self, spec: &str) -> Vec<Tree> {
        let nodes: std::collections::HashSet<usize> = self
            .named_positions(spec)
            .into_iter()
            .filter_map(|p| self.positions.node(p))
            .collect();
        self.instructions()
            .into_iter()
            .filter(|(tree, _)| nodes.contains(&tree.node_id()))
            .map(|(tree, _)| tree)
            .collect()
    }

    /// The positions a name stands for, as [`Program::named`]: a label's
    /// own position, or every position [`Program::name_at`] names so.
    pub fn named_positions(&self, spec: &str) -> Vec<Position> {
        if let Some(l) = self.image.labels.iter().find(|l| l.name == spec) {
            return self
                .label_position(l.register, l.offset)
                .filter(|&p| self.positions.node(p).is_some())
                .into_iter()
                .collect();
        }
        let (name, k) = match spec.rsplit_once('+') {
            Some((name, k)) => match k.trim().parse::<usize>() {
                Ok(k) => (name.trim(), k),
                Err(_) => return Vec::new(),
            },
            None => (spec, 0),
        };
        self.positions
            .laid()
            .filter(|&(p, _)| self.block_at(p).is_some_and(|(n, d)| n == name && d == k))
            .map(|(p, _)| p)
            .collect()
    }

    /// Whether register `r` belongs to the standard library rather than to
    /// the program's own files: its code was written in a `std/` module (a
    /// macro's expansion belongs to the line that invokes it), or, for a
    /// register without code, its name is in the namespace of such code
    /// (`input.` in `input.index`).
    pub fn is_library_register(&self, r: usize) -> bool {
        let in_std = |l: &Location| self.file_name(shown(l).0).starts_with("std/");
        if let Some(l) = self.image.location(r, 0) {
            return in_std(l);
        }
        let Some((space, _)) = self
            .image
            .registers
            .get(r)
            .and_then(|x| x.name.split_once('.'))
        else {
            return false;
        };
        self.image.labels.iter().any(|l| {
            l.name.split_once('.').is_some_and(|(s, _)| s == space)
                && self
                    .image
                    .location(l.register, l.offset)
                    .is_some_and(in_std)
        })
    }

    /// A file's name.
    pub fn file_name(&self, file: u32) -> &str {
        self.image
            .files
            .get(file as usize)
            .map_or("?", |f| f.name.as_str())
    }

    /// `file:line (macro > macro)` of a location.
    pub fn describe(&self, l: &Location) -> String {
        crate::asm::listing::location(&self.image, l)
    }

    /// A source file's text, if it can be found, its control characters
    /// escaped (see [`crate::files::escape_controls`]).
    pub fn text(&self, file: u32) -> Option<Rc<str>> {
        self.texts
            .borrow_mut()
            .entry(file)
            .or_insert_with(|| {
                self.find_text(file)
                    .map(|t| Rc::from(crate::files::escape_controls(&t).as_ref()))
            })
            .clone()
    }

    fn find_text(&self, file: u32) -> Option<String> {
        let record = self.image.files.get(file as usize)?;
        if let Some(text) = &record.text {
            return Some(text.clone());
        }
        let name = record.name.clone();
        if let Some(module) = name.strip_prefix("std/") {
            let module = module.strip_suffix(".cta").unwrap_or(module);
            return embedded_stdlib()
                .iter()
                .find(|(n, _)| *n == module)
                .map(|(_, t)| t.to_string());
        }
        self.builtin
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.clone())
    }

    /// The text of one line of a file (escaped as [`Program::text`]).
    pub fn source_line(&self, key: LineKey) -> Option<String> {
        let text = self.text(key.0)?;
        text.lines()
            .nth(key.1.checked_sub(1)? as usize)
            .map(str::to_string)
    }

    /// Every instruction of the image's code: its tree (the code from it
    /// on) and its place, each node once.
    pub fn instructions(&self) -> Vec<(Tree, Place)> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut registers: Vec<_> = self.image.source_map.registers.iter().collect();
        // Register 0 (the start state's `prog`) last.
        registers.sort_by_key(|m| m.register == 0);
        for m in registers {
            let Some(register) = self.image.registers.get(m.register) else {
                continue;
            };
            let mut rest = register.contents.clone();
            let mut offset = 0;
            while rest.is_cons() && seen.insert(rest.node_id()) {
                out.push((
                    rest.clone(),
                    Place {
                        register: m.register,
                        offset,
                    },
                ));
                rest = rest.back().cloned().unwrap_or_default();
                offset += 1;
            }
        }
        out
    }

    /// The code at `offset` of a register of the image.
    pub fn code_at(&self, register: usize, offset: usize) -> Option<Tree> {
        let contents = &self.image.registers.get(register)?.contents;
        let mut rest = contents;
        for _ in 0..offset {
            rest = rest.back()?;
        }
        rest.is_cons().then(|| rest.clone())
    }

    /// The first line of `file` from `from` on that has code (its own, or
    /// a macro invocation's).
    pub fn next_code_line(&self, file: u32, from: u32) -> Option<u32> {
        self.positions
            .laid()
            .filter_map(|(p, _)| self.location_at(p))
            .flat_map(|l| {
                let own = (l.file == file).then_some(l.line);
                own.into_iter().chain(
                    l.expansion
                        .iter()
                        .filter(|s| s.file == file)
                        .map(|s| s.line),
                )
            })
            .filter(|&line| line >= from)
            .min()
    }

    /// The name of the program's main file (the first the image names).
    pub fn main_file_name(&self) -> &str {
        self.image.files.first().map_or("FILE", |f| f.name.as_str())
    }

    /// The file index of a file named `name` (or ending in `/name`).
    pub fn file_index(&self, name: &str) -> Option<u32> {
        self.image
            .files
            .iter()
            .position(|f| f.name == name || f.name.ends_with(&format!("/{name}")))
            .map(|i| i as u32)
    }
}

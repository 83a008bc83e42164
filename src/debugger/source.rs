//! The focused program in source terms: where an instruction was written,
//! which label it belongs to, the source text around it, the call stack.

use crate::asm::source::embedded_stdlib;
use crate::image::{Image, Location};
use crate::tree::Tree;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

/// A source line: file index and line number.
pub type LineKey = (u32, u32);

/// A program's symbols and source map, and its source files' text.
pub struct Program {
    /// The image.
    pub image: Rc<Image>,
    /// Code node to place; the start state's `prog` last, so that code is
    /// named by the register (and label) it was written in.
    places: rustc_hash::FxHashMap<usize, Place>,
    texts: RefCell<HashMap<u32, Option<Rc<str>>>>,
    /// Built-in files by name (the built-in game's programs).
    builtin: Vec<(String, String)>,
    /// The scenario's directory, to find program files.
    dir: PathBuf,
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
    /// The program of an image; its sources are read from `dir`, the
    /// built-in files, and the embedded standard library.
    pub fn new(image: Rc<Image>, dir: PathBuf, builtin: Vec<(String, String)>) -> Program {
        let mut program = Program {
            places: Default::default(),
            image,
            texts: RefCell::default(),
            builtin,
            dir,
        };
        program.places = program
            .instructions()
            .into_iter()
            .map(|(tree, place)| (tree.node_id(), place))
            .collect();
        program
    }

    /// Where a piece of code is, if it is the image's code.
    pub fn place(&self, code: &Tree) -> Option<Place> {
        self.places.get(&code.node_id()).copied()
    }

    /// The source location of a piece of code.
    pub fn location(&self, code: &Tree) -> Option<&Location> {
        let p = self.place(code)?;
        self.image.location(p.register, p.offset)
    }

    /// The innermost source line of a piece of code (a macro's own line
    /// when it came from one).
    pub fn line(&self, code: &Tree) -> Option<LineKey> {
        self.location(code).map(|l| (l.file, l.line))
    }

    /// The outermost source line (the line that invoked the macros).
    pub fn outer_line(&self, code: &Tree) -> Option<LineKey> {
        self.location(code).map(|l| match l.expansion.last() {
            Some(site) => (site.file, site.line),
            None => (l.file, l.line),
        })
    }

    /// `label+offset` of a place: the nearest label at or before it in its
    /// register, else the register's name.
    pub fn label(&self, p: Place) -> String {
        let best = self
            .image
            .labels
            .iter()
            .filter(|l| l.register == p.register && l.offset <= p.offset)
            .max_by_key(|l| l.offset);
        let (name, base) = match best {
            Some(l) => (l.name.clone(), l.offset),
            None => (
                self.image
                    .registers
                    .get(p.register)
                    .map_or_else(|| format!("r{}", p.register), |r| r.name.clone()),
                0,
            ),
        };
        match p.offset - base {
            0 => name,
            d => format!("{name}+{d}"),
        }
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

    /// A source file's text, if it can be found.
    pub fn text(&self, file: u32) -> Option<Rc<str>> {
        self.texts
            .borrow_mut()
            .entry(file)
            .or_insert_with(|| self.find_text(file).map(Rc::from))
            .clone()
    }

    fn find_text(&self, file: u32) -> Option<String> {
        let name = self.image.files.get(file as usize)?.name.clone();
        if let Some(module) = name.strip_prefix("std/") {
            let module = module.strip_suffix(".cta").unwrap_or(module);
            return embedded_stdlib()
                .iter()
                .find(|(n, _)| *n == module)
                .map(|(_, t)| t.to_string());
        }
        if let Some((_, t)) = self.builtin.iter().find(|(n, _)| *n == name) {
            return Some(t.clone());
        }
        let path = PathBuf::from(&name);
        std::fs::read_to_string(&path)
            .or_else(|_| std::fs::read_to_string(self.dir.join(&path)))
            .ok()
    }

    /// The text of one line of a file.
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

    /// The file index of a file named `name` (or ending in `/name`).
    pub fn file_index(&self, name: &str) -> Option<u32> {
        self.image
            .files
            .iter()
            .position(|f| f.name == name || f.name.ends_with(&format!("/{name}")))
            .map(|i| i as u32)
    }
}

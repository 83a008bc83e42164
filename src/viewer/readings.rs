//! The one place the viewer reads values: commands, actions, items,
//! registers, inputs and source lines, as the debugger shows them (its
//! printers in [`crate::debugger::view`] and its source maps in
//! [`crate::debugger::source`]), so the page shows what `constree debug`
//! says and never decodes a tree itself.

use crate::debugger::children::Library;
use crate::debugger::source::Program;
use crate::debugger::view::{self, Format, ViewContext};
use crate::machine::Memory;
use crate::tree::Tree;
use crate::world::{Action, Command, Item};
use std::rc::Rc;

/// Characters of a register's one-line reading (as `info registers`).
const REGISTER_CHARS: usize = 60;

/// A command as `info robot` shows it (`no command` for none).
pub fn command(command: Option<&Command>) -> String {
    command.map_or_else(|| "no command".to_string(), crate::asm::show::summary)
}

/// An action as `info robot` and `robots` show it.
pub fn action(action: &Action) -> String {
    action.to_string()
}

/// An item as the debugger lists an inventory.
pub fn item(item: &Item) -> String {
    item.to_string()
}

/// A register's reading, as `info registers` shows it.
pub fn register(tree: &Tree) -> String {
    view::summary(tree, REGISTER_CHARS)
}

/// The input register read as the debugger's `print in /input`.
pub fn input(tree: &Tree, program: Option<&Program>, names: &[String], limit: i64) -> String {
    let ctx = ViewContext {
        image: program.map(|p| &*p.image),
        register_names: names,
        input_limit: Some(limit),
    };
    view::show(tree, Format::Input, &ctx).unwrap_or_else(|e| e.to_string())
}

/// The register names of a program (`rN` where it has none), for a memory
/// of `count` registers, as `info registers` names them.
pub fn register_names(program: Option<&Program>, count: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            program
                .and_then(|p| p.image.registers.get(i))
                .map_or_else(|| format!("r{i}"), |r| r.name.clone())
        })
        .collect()
}

/// The source line of the code a machine will run next (its program
/// register): `FILE:LINE | TEXT`, as `list` marks it.
pub fn line(program: &Program, code: &Tree) -> Option<String> {
    let key = program
        .position(code, None)
        .and_then(|p| program.line_at(p))?;
    let text = program.source_line(key).unwrap_or_default();
    Some(format!(
        "{}:{} | {}",
        program.file_name(key.0),
        key.1,
        text.trim_end()
    ))
}

/// The programs of a game's robots: each scenario robot's image, and for
/// a robot built during the game the image its memory came from (as the
/// debugger finds it).
pub struct Programs {
    library: Library,
}

impl Programs {
    /// The programs of these images.
    pub fn new(images: impl IntoIterator<Item = Rc<crate::image::Image>>) -> Programs {
        let mut library = Library::default();
        for image in images {
            library.add(image);
        }
        Programs { library }
    }

    /// A scenario robot's program.
    pub fn of_image(image: Rc<crate::image::Image>) -> Rc<Program> {
        Rc::new(Program::new(image, Vec::new()))
    }

    /// The program a built robot's memory came from, if any is known.
    pub fn of_memory(&self, memory: &Memory) -> Option<Rc<Program>> {
        self.library.program_for(memory)
    }
}

//! Source maps for robots built during the game: a robot that is not one
//! of the scenario's gets the program of the image its memory came from,
//! found by content among the images the debugger knows (the scenario's,
//! those they embed with `image(...)`, and those given with `--image`).

use super::Debugger;
use super::error::{DebugError, PointError};
use super::session::Place;
use super::source::Program;
use crate::image::Image;
use crate::machine::Register;
use std::rc::Rc;

/// The images a robot's memory is matched against, and the programs
/// found for memories so far.
#[derive(Default)]
pub struct Library {
    images: Vec<Rc<Image>>,
    /// The programs found so far.
    found: std::cell::RefCell<Vec<Found>>,
}

/// A program found for a memory: the image's index, the code nodes of the
/// memory (its code registers but `prog`), and the program.
type Found = (usize, Vec<usize>, Rc<Program>);

impl Library {
    /// Adds an image and every image it embeds (each once).
    pub fn add(&mut self, image: Rc<Image>) {
        let mut pending = vec![image];
        while let Some(image) = pending.pop() {
            if self.images.iter().any(|i| **i == *image) {
                continue;
            }
            pending.extend(image.images.iter().cloned().map(Rc::new));
            self.images.push(image);
        }
    }

    /// The program of the image a memory came from: one whose code
    /// registers (all but `prog`, at least one) hold what the memory's
    /// do (the memory may have more registers), with the memory's own
    /// trees (so that its code is found by node).
    pub fn program_for(&self, memory: &[Register]) -> Option<Rc<Program>> {
        let nodes = |image: &Image| -> Vec<usize> {
            code_registers(image)
                .map(|r| memory[r].contents.node_id())
                .collect()
        };
        for (k, key, program) in self.found.borrow().iter() {
            let image = &self.images[*k];
            if fits(image, memory) && nodes(image) == *key {
                return Some(program.clone());
            }
        }
        let k = self.images.iter().position(|image| {
            fits(image, memory)
                && code_registers(image).next().is_some()
                && code_registers(image).all(|r| memory[r].contents == image.registers[r].contents)
        })?;
        let mut rebased = (*self.images[k]).clone();
        for r in code_registers(&self.images[k]) {
            rebased.registers[r].contents = memory[r].contents.clone();
        }
        if let (Some(first), Some(prog)) = (rebased.registers.first_mut(), memory.first())
            && first.contents == prog.contents
        {
            first.contents = prog.contents.clone();
        }
        let program = Rc::new(Program::new(Rc::new(rebased), Vec::new()));
        let key = nodes(&self.images[k]);
        self.found.borrow_mut().push((k, key, program.clone()));
        Some(program)
    }
}

/// Whether a memory can have come from an image: it has the image's
/// registers, and maybe more (a robot built with more register parts than
/// the memory has registers gets the rest empty).
fn fits(image: &Image, memory: &[Register]) -> bool {
    memory.len() >= image.registers.len()
}

/// The code registers of an image but `prog`.
fn code_registers(image: &Image) -> impl Iterator<Item = usize> + '_ {
    image
        .source_map
        .registers
        .iter()
        .map(|m| m.register)
        .filter(|&r| r != 0 && r < image.registers.len())
}

impl Debugger {
    /// Makes an image's source map available to robots whose memory came
    /// from it (`--image FILE`).
    pub fn add_image(&mut self, image: Image) {
        self.library.add(Rc::new(image));
        self.track_focus();
    }

    /// The program of a robot that is not one of the scenario's, found by
    /// its memory's content.
    pub(crate) fn child_program(&self) -> Option<Rc<Program>> {
        let robot = self.session.focused()?;
        self.library.program_for(&robot.memory)
    }
}

impl Debugger {
    /// `catch build`: stop as a step begins in which the focused robot
    /// built a robot.
    pub(crate) fn catch_build(&mut self) -> Result<String, DebugError> {
        if let Some((id, _)) = self.catch_build {
            return Err(PointError::CatchingBuilds(id).into());
        }
        let id = self.new_id();
        self.catch_build = Some((id, 0));
        self.session.catch_built = true;
        Ok(format!(
            "Catchpoint {id} (build): stops as a step begins in which the focused robot builds a robot"
        ))
    }

    /// Deletes the `catch build` catchpoint if it is `id` (or any, for
    /// `None`); whether there was one.
    pub(crate) fn delete_catch(&mut self, id: Option<usize>) -> bool {
        match self.catch_build {
            Some((c, _)) if id.is_none_or(|i| i == c) => {
                self.catch_build = None;
                self.session.catch_built = false;
                true
            }
            _ => false,
        }
    }

    /// The row of `info breakpoints` for the `catch build` catchpoint.
    pub(crate) fn catch_row(&self) -> Option<(usize, String)> {
        let (id, hits) = self.catch_build?;
        Some((
            id,
            format!("{id:<4} {:<11} {:<3} {hits:>4}  build", "catchpoint", "y"),
        ))
    }

    /// What a stop at a build says: the robots built, and how to follow
    /// one.
    pub(crate) fn built_text(&mut self) -> String {
        let id = match &mut self.catch_build {
            Some((id, hits)) => {
                *hits += 1;
                *id
            }
            None => 0,
        };
        let shape = self.session.world().shape();
        let places: Vec<String> = self
            .built_robots()
            .into_iter()
            .map(|(cell, k)| {
                let (x, y) = shape.position(cell);
                format!("{x},{y}#{k}")
            })
            .collect();
        let first = places.first().cloned().unwrap_or_default();
        format!(
            "Catchpoint {id} (build): the focused robot built the robot at {} in step {}: \
             `focus {first}` follows it from its first instruction",
            places.join(", "),
            self.session.pos().step
        )
    }

    /// The robots the focused robot built in the step begun last.
    fn built_robots(&self) -> Vec<Place> {
        use crate::world::step::Origin;
        let Some((cell, k)) = self.session.focus() else {
            return Vec::new();
        };
        let Some(steps) = self.session.report().cells.get(cell) else {
            return Vec::new();
        };
        let builder = match steps.get(k).map(|s| s.origin) {
            Some(Origin::Stayed(b)) => b,
            _ => return Vec::new(),
        };
        steps
            .iter()
            .enumerate()
            .filter(|(_, s)| s.origin == Origin::Built(builder))
            .map(|(i, _)| (cell, i))
            .collect()
    }
}

impl Debugger {
    /// `focus` on a robot built in the present step: followed from its
    /// first instruction (see [`super::session::Session::focus_child`]).
    /// `None` when `place` is no such robot.
    pub(crate) fn focus_new_child(&mut self, place: Place) -> Option<String> {
        use crate::world::step::Origin;
        if self.session.pos().is_done() {
            return None;
        }
        let (cell, k) = place;
        let origin = self.session.report().cells.get(cell)?.get(k)?.origin;
        let Origin::Built(builder) = origin else {
            return None;
        };
        if !self.session.focus_child((cell, builder)) {
            return Some("The child did not run: no robot in focus.".to_string());
        }
        self.track_focus();
        self.session.edited();
        self.rebind_breakpoints();
        Some(self.here())
    }
}

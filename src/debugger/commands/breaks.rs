//! `break`, `tbreak`, `watch`, `delete` and `info breakpoints`.

use super::super::Debugger;
use super::super::conditions::{Condition, Place};
use super::super::error::{DebugError, PointError, SelectError};
use super::super::points::{Breakpoint, Settings, Watchpoint};
use super::super::positions::Position;
use super::super::source::Program;
use rustc_hash::FxHashSet;
use std::rc::Rc;

/// Where a breakpoint location is: its code nodes, its source positions,
/// and a description.
pub(crate) struct Resolved {
    pub(crate) nodes: FxHashSet<usize>,
    pub(crate) positions: FxHashSet<Position>,
    pub(crate) place: String,
}

impl Debugger {
    /// A register of the focused robot by name or number (`r3`, `3`).
    pub(crate) fn register_index(&self, name: &str) -> Result<usize, DebugError> {
        let names = self.register_names();
        if let Some(i) = names.iter().position(|n| n == name) {
            return Ok(i);
        }
        let number = name.strip_prefix('r').unwrap_or(name);
        match number.parse::<usize>() {
            Ok(i) if i < names.len() => Ok(i),
            Ok(i) => Err(SelectError::NoRegister {
                index: i,
                count: names.len(),
            }
            .into()),
            Err(_) => Err(SelectError::UnknownRegister(name.to_string()).into()),
        }
    }

    /// A condition over the focused robot's registers.
    pub(crate) fn condition(&self, text: &str) -> Result<Condition, DebugError> {
        Condition::parse(text, &self.register_names())
    }

    /// The code nodes and source positions a breakpoint location names,
    /// and a description.
    pub(crate) fn resolve(&self, program: &Program, spec: &str) -> Result<Resolved, DebugError> {
        // A label, or `NAME+K` as stops print places.
        let named = program.named_positions(spec);
        if !named.is_empty() {
            return Ok(self.at_positions(program, named, String::new()));
        }
        let Some((left, right)) = spec.rsplit_once(':') else {
            return Err(Self::no_label(program, spec).into());
        };
        let number = right
            .trim()
            .parse::<u32>()
            .map_err(|_| PointError::NotALineOrOffset(right.to_string()))?;
        // FILE:LINE; a line without code (a label alone, a comment) means
        // the next line that has some, as in gdb.
        if let Some(file) = program.file_index(left) {
            let no_code = || PointError::NoCode {
                line: number,
                file: left.to_string(),
            };
            let line = program.next_code_line(file, number).ok_or_else(no_code)?;
            let starts = Self::line_starts(program, file, line);
            if starts.is_empty() {
                return Err(no_code().into());
            }
            let moved = if line == number {
                String::new()
            } else {
                format!(" (line {number} has no code: set on line {line})")
            };
            return Ok(self.at_positions(program, starts, moved));
        }
        // REG:OFFSET.
        let register = self.register_index(left).map_err(|_| {
            if program.image.labels.iter().any(|l| l.name == left) {
                PointError::LabelOffset {
                    name: left.to_string(),
                    offset: number,
                }
            } else {
                PointError::NeitherFileNorRegister(left.to_string())
            }
        })?;
        let code = program.code_at(register, number as usize).ok_or_else(|| {
            PointError::NoInstruction {
                register: left.to_string(),
                offset: number,
            }
        })?;
        let at = program
            .label_position(register, number as usize)
            .filter(|&p| program.positions.node(p) == Some(code.node_id()));
        let text = self.instruction_text_at(&code, at);
        Ok(Resolved {
            nodes: std::iter::once(code.node_id()).collect(),
            positions: at.into_iter().collect(),
            place: text,
        })
    }

    /// A breakpoint at source positions (not empty), described by the
    /// first and how many more there are.
    fn at_positions(
        &self,
        program: &Program,
        mut positions: Vec<Position>,
        note: String,
    ) -> Resolved {
        positions.sort_unstable();
        let first = positions[0];
        let text = program
            .positions
            .code(first)
            .map_or_else(String::new, |code| {
                self.instruction_text_at(code, Some(first))
            });
        let more = match positions.len() {
            1 => String::new(),
            n => format!(" (and {} more places)", n - 1),
        };
        Resolved {
            nodes: positions
                .iter()
                .filter_map(|&p| program.positions.node(p))
                .collect(),
            positions: positions.into_iter().collect(),
            place: format!("{text}{more}{note}"),
        }
    }

    /// The positions where line `number` of `file` starts: its own code,
    /// or the expansions of the macros it invokes, where the code before
    /// is not of that line.
    fn line_starts(program: &Program, file: u32, number: u32) -> Vec<Position> {
        let on_line = |p: Position| {
            program.location_at(p).is_some_and(|l| {
                (l.file == file && l.line == number)
                    || l.expansion
                        .iter()
                        .any(|s| s.file == file && s.line == number)
            })
        };
        program
            .positions
            .laid()
            .map(|(p, _)| p)
            .filter(|&p| on_line(p) && !program.positions.before(p).is_some_and(on_line))
            .collect()
    }

    /// Why a breakpoint spec that is not FILE:LINE or REG:OFFSET names
    /// nothing: a line number given alone, or a label that looks like one
    /// of the program's.
    fn no_label(program: &Program, spec: &str) -> PointError {
        if spec.parse::<u32>().is_ok() {
            // The file's last component is enough to name it.
            let name = program.main_file_name();
            let file = name.rsplit('/').next().unwrap_or(name);
            return PointError::LineWithoutFile {
                spec: spec.to_string(),
                file: file.to_string(),
            };
        }
        if let Some((name, k)) = spec.rsplit_once('+')
            && k.trim().parse::<usize>().is_ok()
            && !program.named(name.trim()).is_empty()
        {
            return PointError::PastNamedCode {
                spec: spec.to_string(),
                name: name.trim().to_string(),
            };
        }
        let labels = program.image.labels.iter().map(|l| l.name.as_str());
        match crate::asm::suggest::nearest(spec, labels) {
            Some(label) => PointError::NoLabelNear {
                spec: spec.to_string(),
                nearest: label.to_string(),
            },
            None => PointError::NoLabel(spec.to_string()),
        }
    }

    pub(crate) fn add_break(&mut self, args: &str, temporary: bool) -> Result<String, DebugError> {
        let (spec, condition) = match args.split_once(" if ") {
            Some((s, c)) => (s.trim(), Some(c.trim())),
            None => (args.trim(), None),
        };
        if spec.is_empty() {
            return Err(PointError::BreakWhere.into());
        }
        let condition = condition.map(|c| self.condition(c)).transpose()?;
        let kind = if temporary {
            "Temporary breakpoint"
        } else {
            "Breakpoint"
        };
        let (nodes, positions, place) = if self.session.focus().is_some() {
            let program = self.source_program(" to set breakpoints in")?;
            let r = self.resolve(&program, spec)?;
            (r.nodes, r.positions, r.place)
        } else {
            // No robot in focus (the focused one was destroyed): the
            // breakpoint waits for a robot whose program has the place.
            let found = self
                .programs
                .iter()
                .flatten()
                .any(|p| self.resolve(p, spec).is_ok());
            if !found {
                return Err(PointError::NoPlace(spec.to_string()).into());
            }
            (FxHashSet::default(), FxHashSet::default(), String::new())
        };
        let id = self.new_id();
        let text = if place.is_empty() {
            format!("{kind} {id} pending: set when `focus` picks a robot whose program has {spec}")
        } else {
            format!("{kind} {id} at {place}")
        };
        let place = if place.is_empty() {
            "(pending)".to_string()
        } else {
            place
        };
        self.breakpoints.push(Breakpoint {
            id,
            spec: spec.to_string(),
            nodes,
            positions,
            place,
            temporary,
            settings: Settings {
                condition,
                ..Settings::default()
            },
        });
        Ok(text)
    }

    /// Sets every breakpoint again in the focused robot's program when it
    /// is not the one they are set in (after a change of focus, or going
    /// back to before one); one its program has no place for never hits.
    pub(crate) fn rebind_breakpoints(&mut self) {
        let program = self.program();
        let key = program.as_ref().map(Rc::as_ptr);
        if key == self.bound_to {
            return;
        }
        self.bound_to = key;
        let mut breakpoints = std::mem::take(&mut self.breakpoints);
        for b in &mut breakpoints {
            match program.as_ref().map(|p| self.resolve(p, &b.spec)) {
                Some(Ok(r)) => {
                    b.nodes = r.nodes;
                    b.positions = r.positions;
                    b.place = r.place;
                }
                _ => {
                    b.nodes.clear();
                    b.positions.clear();
                }
            }
        }
        self.breakpoints = breakpoints;
        self.rebind_conditions();
    }

    pub(crate) fn add_watch(&mut self, args: &str) -> Result<String, DebugError> {
        let (what, condition) = match args.split_once(" if ") {
            Some((w, c)) => (w.trim(), Some(c.trim())),
            None => (args.trim(), None),
        };
        if what.is_empty() {
            return Err(PointError::WatchWhat.into());
        }
        let names = self.register_names();
        let place = Place::parse(what, &names)?;
        let condition = condition.map(|c| self.condition(c)).transpose()?;
        let name = format!(
            "{}{}",
            names[place.register],
            place
                .steps
                .iter()
                .map(ToString::to_string)
                .collect::<String>()
        );
        let id = self.new_id();
        let text = format!("Watchpoint {id}: {name}");
        self.watches.push(Watchpoint {
            id,
            place,
            name,
            settings: Settings {
                condition,
                ..Settings::default()
            },
        });
        Ok(text)
    }

    pub(crate) fn delete(&mut self, args: &str) -> Result<String, DebugError> {
        if args.trim().is_empty() {
            let count = |n: usize, what: &str| match n {
                0 => None,
                1 => Some(format!("1 {what}")),
                n => Some(format!("{n} {what}s")),
            };
            let parts: Vec<String> = [
                count(self.breakpoints.len(), "breakpoint"),
                count(self.watches.len(), "watchpoint"),
                count(
                    self.catches.len() + usize::from(self.catch_build.is_some()),
                    "catchpoint",
                ),
            ]
            .into_iter()
            .flatten()
            .collect();
            self.delete_catch(None);
            self.breakpoints.clear();
            self.watches.clear();
            self.catches.clear();
            return Ok(if parts.is_empty() {
                "No breakpoints, watchpoints or catchpoints to delete.".to_string()
            } else {
                format!("Deleted {}.", parts.join(" and "))
            });
        }
        let mut deleted = Vec::new();
        for word in args.split_whitespace() {
            let id: usize = word
                .parse()
                .map_err(|_| PointError::NotAPointNumber(word.to_string()))?;
            if self.catch_build.map(|(c, _)| c) != Some(id) {
                self.settings(id)?;
            }
            self.breakpoints.retain(|b| b.id != id);
            self.watches.retain(|w| w.id != id);
            self.catches.retain(|c| c.id != id);
            self.delete_catch(Some(id));
            deleted.push(word);
        }
        Ok(format!("Deleted {}.", deleted.join(", ")))
    }

    pub(crate) fn info_breakpoints(&self) -> String {
        if self.breakpoints.is_empty()
            && self.watches.is_empty()
            && self.catches.is_empty()
            && self.catch_build.is_none()
        {
            return "No breakpoints, watchpoints or catchpoints.".to_string();
        }
        let mut out = String::from("Num  Type        Enb Hits  What");
        let mut rows: Vec<(usize, String)> = Vec::new();
        for b in &self.breakpoints {
            let kind = if b.temporary { "tbreak" } else { "breakpoint" };
            let what = format!("{}: {}", b.spec, b.place);
            rows.push((b.id, row(b.id, kind, &b.settings, &what)));
        }
        for w in &self.watches {
            rows.push((w.id, row(w.id, "watchpoint", &w.settings, &w.name)));
        }
        for c in &self.catches {
            rows.push((c.id, row(c.id, "catchpoint", &c.settings, &c.what())));
        }
        rows.extend(self.catch_row());
        rows.sort();
        for (_, row) in rows {
            out.push('\n');
            out.push_str(&row);
        }
        out
    }
}

/// A row of `info breakpoints`.
fn row(id: usize, kind: &str, settings: &Settings, what: &str) -> String {
    let enabled = if settings.enabled { "y" } else { "n" };
    format!(
        "{id:<4} {kind:<11} {enabled:<3} {:>4}  {what}{}",
        settings.hits.get(),
        settings.notes()
    )
}

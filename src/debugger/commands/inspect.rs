//! Looking and changing: `print`, `display`, `info`, `list`, `backtrace`,
//! the world, robots, items and scores, `focus` and `set`.

use super::super::Debugger;
use super::super::error::{DebugError, SelectError};
use super::super::view::{self, Format, RegisterRef, ValueType, ViewContext, ViewError};
use super::InspectError;
use crate::scenario::game::scores;

/// How `print` and `display` show a value: in a format, or read as a type.
enum Reading {
    /// `/auto`, `/list`, ...
    Format(Format),
    /// `: [(int, dir)]`.
    As(ValueType),
}

/// `info`'s subcommands (completion offers them after `info `).
pub const INFO_SUBCOMMANDS: [&str; 5] = ["registers", "breakpoints", "display", "robot", "frame"];

/// Source lines shown around the current one by `list`.
const LIST_CONTEXT: u32 = 5;

impl Debugger {
    /// Splits `EXPR [/FMT]` (the format may come first too) or
    /// `EXPR : TYPE`.
    fn expression(args: &str) -> Result<(String, Reading), DebugError> {
        let (args, reading) = match args.split_once(':') {
            Some((expr, ty)) => (expr, Reading::As(ValueType::parse(ty)?)),
            None => (args, Reading::Format(Format::Auto)),
        };
        let mut reading = reading;
        let mut expr = Vec::new();
        for word in args.split_whitespace() {
            if word.starts_with('/') {
                if let Reading::As(_) = reading {
                    return Err(InspectError::FormatAndType.into());
                }
                reading = Reading::Format(Format::parse(word).map_err(ViewError::from)?);
            } else {
                expr.push(word);
            }
        }
        if expr.is_empty() {
            return Err(InspectError::PrintWhat.into());
        }
        Ok((expr.join(""), reading))
    }

    /// The value of an expression, shown.
    fn evaluate(&self, expr: &str, reading: &Reading) -> Result<String, DebugError> {
        let robot = self.session.focused().ok_or(SelectError::NoFocus)?;
        let names = self.register_names();
        let path = view::parse_path(expr, &names)?;
        let index = match &path.register {
            RegisterRef::Index(i) => *i,
            RegisterRef::Name(n) => self.register_index(n)?,
        };
        let register = robot.memory.get(index).ok_or(SelectError::NoRegister {
            index,
            count: robot.memory.len(),
        })?;
        let tree = view::follow(&register.contents, &path)?;
        let program = self.program();
        let ctx = ViewContext {
            image: program.as_ref().map(|p| &*p.image),
            register_names: &names,
            input_limit: robot.memory.get(1).map(|r| r.limit),
        };
        let shown = match reading {
            Reading::Format(format) => view::show(&tree, *format, &ctx).map_err(ViewError::from),
            Reading::As(ty) => view::show_as(&tree, ty, expr, &ctx).map_err(ViewError::from),
        };
        Ok(shown?)
    }

    pub(crate) fn print(&self, args: &str) -> Result<String, DebugError> {
        let (expr, reading) = Self::expression(args)?;
        let shown = self.evaluate(&expr, &reading)?;
        let named = self.named_expression(&expr);
        // A list is one element per line however short it is.
        let one_per_line = matches!(reading, Reading::Format(Format::List));
        Ok(if one_per_line || shown.contains('\n') {
            format!("{named} =\n{shown}")
        } else {
            format!("{named} = {shown}")
        })
    }

    /// An expression as `print` heads its value: with the register's name
    /// when it was given by number (`16 (plan)`, `r3.0 (trail.0)`).
    fn named_expression(&self, expr: &str) -> String {
        let names = self.register_names();
        let Ok(path) = view::parse_path(expr, &names) else {
            return expr.to_string();
        };
        let RegisterRef::Index(index) = path.register else {
            return expr.to_string();
        };
        let end = expr.find(['.', '~']).unwrap_or(expr.len());
        match names.get(index) {
            Some(name) if name != &expr[..end] => format!("{expr} ({name}{})", &expr[end..]),
            _ => expr.to_string(),
        }
    }

    pub(crate) fn display(&mut self, args: &str) -> Result<String, DebugError> {
        let (expr, reading) = Self::expression(args)?;
        // The expression must name something; its value may not read in
        // the format yet (`out /command` while `out` is Nil).
        self.evaluate(&expr, &Reading::Format(Format::Auto))?;
        let shown = self
            .evaluate(&expr, &reading)
            .unwrap_or_else(|e| format!("<{e}>"));
        let id = self.next_display;
        self.next_display += 1;
        let spec = match &reading {
            Reading::Format(Format::Auto) => expr.clone(),
            Reading::Format(f) => format!("{expr} {f}"),
            Reading::As(ty) => format!("{expr} : {ty}"),
        };
        let line = format!("{id}: {spec} = {shown}");
        self.displays.push((id, spec));
        Ok(line)
    }

    pub(crate) fn undisplay(&mut self, args: &str) -> Result<String, DebugError> {
        if args.trim().is_empty() {
            self.displays.clear();
            return Ok("No more displays.".into());
        }
        for word in args.split_whitespace() {
            let id: usize = word
                .parse()
                .map_err(|_| InspectError::NotADisplayNumber(word.to_string()))?;
            let before = self.displays.len();
            self.displays.retain(|(i, _)| *i != id);
            if self.displays.len() == before {
                return Err(InspectError::NoDisplay(id).into());
            }
        }
        Ok(String::new())
    }

    /// The displays, evaluated now.
    pub(crate) fn show_displays(&self) -> Vec<String> {
        self.displays
            .iter()
            .map(|(id, spec)| {
                let shown = Self::expression(spec)
                    .and_then(|(expr, reading)| self.evaluate(&expr, &reading))
                    .unwrap_or_else(|e| format!("<{e}>"));
                format!("{id}: {spec} = {shown}")
            })
            .collect()
    }

    /// `info registers [PATTERN] | breakpoints | display | robot | frame`.
    pub(crate) fn info(&self, args: &str) -> Result<String, DebugError> {
        match args.trim() {
            "registers" | "r" | "reg" => self.info_registers(""),
            "breakpoints" | "b" | "break" | "watchpoints" => Ok(self.info_breakpoints()),
            "display" => Ok(if self.displays.is_empty() {
                "No displays.".to_string()
            } else {
                self.show_displays().join("\n")
            }),
            "robot" => self.info_robot(),
            "frame" | "f" => Ok(self.here()),
            other => match other.split_once(char::is_whitespace) {
                Some(("registers" | "r" | "reg", pattern)) => self.info_registers(pattern.trim()),
                _ => Err(InspectError::InfoWhat(other.to_string()).into()),
            },
        }
    }

    /// `info registers [PATTERN]`: the registers whose name contains the
    /// pattern, the program's own first, then the standard library's.
    fn info_registers(&self, pattern: &str) -> Result<String, DebugError> {
        let robot = self.session.focused().ok_or(SelectError::NoFocus)?;
        let names = self.register_names();
        let program = self.program();
        let (library, own): (Vec<usize>, Vec<usize>) = (0..robot.memory.len())
            .filter(|&i| names[i].contains(pattern))
            .partition(|&i| program.as_ref().is_some_and(|p| p.is_library_register(i)));
        if own.is_empty() && library.is_empty() {
            return Err(InspectError::NoRegisterMatches(pattern.to_string()).into());
        }
        // The name and limit columns fit their longest entry.
        let width = names.iter().map(String::len).max().unwrap_or(0).max(12);
        let limits = robot.memory.iter().map(|r| r.limit.to_string().len());
        let limit = limits.max().unwrap_or(0).max(6);
        let mut out = format!(
            "  #  {:<width$} {:>limit$} {:>9}  value",
            "name", "limit", "size"
        );
        let row = |i: usize| {
            let r = &robot.memory[i];
            format!(
                "\n{i:>3}  {:<width$} {:>limit$} {:>9}  {}",
                names[i],
                r.limit,
                r.contents.size(),
                super::super::view::summary(&r.contents, 60)
            )
        };
        for &i in &own {
            out.push_str(&row(i));
        }
        if !library.is_empty() {
            out.push_str("\n  the standard library's registers:");
            for &i in &library {
                out.push_str(&row(i));
            }
        }
        Ok(out)
    }

    fn info_robot(&self) -> Result<String, DebugError> {
        let place = self.session.focus().ok_or(SelectError::NoFocus)?;
        let robot = self.session.focused().ok_or(SelectError::NoFocus)?;
        let (x, y) = self.session.world().shape().position(place.0);
        let name = self.focus_robot().map_or_else(
            || "(not a scenario robot)".to_string(),
            |k| self.session.scenario.robots[k].name.clone(),
        );
        let inventory: Vec<String> = robot.inventory.iter().map(ToString::to_string).collect();
        let mut out = format!(
            "{name} at ({x}, {y}) #{}: {} frame, strength {}, speed {}, {} registers\n  carries: {}",
            place.1,
            robot.frame.color.code(),
            robot.frame.strength,
            robot.processor.speed,
            robot.memory.len(),
            if inventory.is_empty() {
                "nothing".to_string()
            } else {
                inventory.join(", ")
            }
        );
        if let Some(run) = self.session.run() {
            let command = run
                .command
                .as_ref()
                .map_or_else(|| "no command".to_string(), crate::asm::show::summary);
            out.push_str(&format!(
                "\n  this step: {command} -> {}; {} ticks to run",
                run.action, run.budget
            ));
        }
        Ok(out)
    }

    pub(crate) fn list(&mut self, args: &str) -> Result<String, DebugError> {
        let program = self.source_program("")?;
        let current = self.line_here(&program);
        let args = args.trim();
        let span = 2 * LIST_CONTEXT;
        let around = |(file, line): (u32, u32)| (file, line.saturating_sub(LIST_CONTEXT).max(1));
        let here = || current.ok_or(InspectError::NoCurrentLine);
        let (file, first, asked) = match (args, self.listed) {
            ("", Some((file, _, last))) => (file, last + 1, last + 1),
            ("", None) => {
                let (file, first) = around(here()?);
                (file, first, first)
            }
            ("-", listed) => {
                let (file, before) = match listed {
                    Some((file, first, _)) => (file, first),
                    None => around(here()?),
                };
                if before <= 1 {
                    return Err(InspectError::AtStart(program.file_name(file).to_string()).into());
                }
                (file, before.saturating_sub(span + 1).max(1), 1)
            }
            _ => {
                let (file, line) = self.list_place(&program, args, current)?;
                (file, around((file, line)).1, line)
            }
        };
        let last = match (args, self.listed) {
            ("-", Some((_, before, _))) => before - 1,
            _ => first + span,
        };
        let name = program.file_name(file).to_string();
        let text = program
            .text(file)
            .ok_or_else(|| InspectError::Unreadable(name.to_string()))?;
        let count = text.lines().count() as u32;
        if asked > count {
            return Err(InspectError::LineOutOfRange {
                line: asked,
                file: name.to_string(),
                count,
            }
            .into());
        }
        let last = last.min(count);
        // The lines shown since the last stop, as one range.
        let shown = match self.listed {
            Some((f, a, b)) if f == file && args.is_empty() | (args == "-") => {
                (file, a.min(first), b.max(last))
            }
            _ => (file, first, last),
        };
        let mut out = vec![format!("{name}:")];
        for (k, line) in text
            .lines()
            .enumerate()
            .take(last as usize)
            .skip(first as usize - 1)
        {
            let n = k as u32 + 1;
            let mark = if Some((file, n)) == current { ">" } else { " " };
            out.push(format!("{mark}{n:>5} | {line}"));
        }
        self.listed = Some(shown);
        Ok(out.join("\n"))
    }

    /// The line `list PLACE` is centred on: a label (or `LABEL+K`),
    /// `FILE:LINE`, or a line of the current file.
    fn list_place(
        &self,
        program: &super::super::source::Program,
        args: &str,
        current: Option<(u32, u32)>,
    ) -> Result<(u32, u32), DebugError> {
        if let Some(&p) = program.named_positions(args).first() {
            return program
                .line_at(p)
                .ok_or_else(|| InspectError::NoSourceLine(args.to_string()).into());
        }
        let (file, line) = match args.rsplit_once(':') {
            Some((f, l)) => (
                program
                    .file_index(f)
                    .ok_or_else(|| InspectError::NoSourceFile(f.to_string()))?,
                l,
            ),
            None => (current.map_or(0, |c| c.0), args),
        };
        let line = line
            .parse::<u32>()
            .map_err(|_| InspectError::NotALine(line.to_string()))?;
        Ok((file, line))
    }

    pub(crate) fn backtrace(&self) -> Result<String, DebugError> {
        let robot = self.session.focused().ok_or(SelectError::NoFocus)?;
        let mut out = vec![format!(
            "#0  {}",
            self.instruction_text_at(&self.prog(), self.session.position())
        )];
        let program = self.program();
        let Some(cs) = program.as_ref().and_then(|p| p.image.callstack) else {
            return Ok(out.join("\n"));
        };
        let stack = robot
            .memory
            .get(cs.stack)
            .map(|r| r.contents.clone())
            .unwrap_or_default();
        // Where the tracker saw each frame pushed (a frame's code may be
        // shared by several call sites).
        let pushed = self
            .session
            .tracker()
            .map(|t| t.frames(&stack, 102))
            .unwrap_or_default();
        for (k, frame) in stack.iter_list().enumerate() {
            // A frame is the code of the `call`'s jump: its location is the
            // call site, and the routine returns to the code after it.
            let at = pushed.get(k).copied().flatten();
            out.push(format!(
                "#{}  {}",
                k + 1,
                self.instruction_text_at(frame, at)
            ));
            if k >= 100 {
                out.push(format!("… {} frames in all", stack.list_len()));
                break;
            }
        }
        Ok(out.join("\n"))
    }

    pub(crate) fn world_map(&self) -> String {
        let config = self.session.scenario.config();
        format!(
            "{}\n{}",
            self.position(),
            crate::world::render::visualize(self.session.world(), &config)
        )
    }

    pub(crate) fn robots_list(&self) -> String {
        let world = self.session.world();
        let shape = world.shape();
        let mut out = vec![format!("{}:", self.position())];
        for (cell, square) in world.cells.iter().enumerate() {
            let Some(square) = square else { continue };
            for (k, robot) in square.robots.iter().enumerate() {
                let (x, y) = shape.position(cell);
                let name = self
                    .session
                    .robots()
                    .iter()
                    .position(|p| *p == Some((cell, k)))
                    .map_or("", |i| self.session.scenario.robots[i].name.as_str());
                let focus = if self.session.focus() == Some((cell, k)) {
                    "*"
                } else {
                    " "
                };
                let action = self
                    .session
                    .report()
                    .cells
                    .get(cell)
                    .and_then(|s| s.get(k))
                    .map_or_else(String::new, |s| format!("  last action: {}", s.action));
                out.push(format!(
                    "{focus} ({x}, {y})#{k} {name:<10} {} strength {}, {} items{action}",
                    robot.frame.color.code(),
                    robot.frame.strength,
                    robot.inventory.len()
                ));
            }
        }
        out.join("\n")
    }

    pub(crate) fn items_list(&self) -> String {
        let world = self.session.world();
        let shape = world.shape();
        let mut out = Vec::new();
        for (cell, square) in world.cells.iter().enumerate() {
            let Some(square) = square else { continue };
            if square.items.is_empty() {
                continue;
            }
            let (x, y) = shape.position(cell);
            let items: Vec<String> = square
                .items
                .iter()
                .enumerate()
                .map(|(i, it)| format!("[{i}] {it}"))
                .collect();
            out.push(format!("({x}, {y}): {}", items.join(", ")));
        }
        if out.is_empty() {
            "No items lie on the ground.".to_string()
        } else {
            out.join("\n")
        }
    }

    pub(crate) fn score(&self) -> String {
        let scenario = &self.session.scenario;
        let scores = scores(scenario, self.session.world());
        if scores.is_empty() {
            return "No players.".to_string();
        }
        scores
            .iter()
            .map(|s| s.line(scenario.scoring, 10))
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(crate) fn focus_on(&mut self, args: &str) -> Result<String, DebugError> {
        let place = self.select(args.trim())?;
        if let Some(first_run) = self.focus_new_child(place) {
            return Ok(format!(
                "Focus on {}, built in this step, from its first instruction.\n{first_run}",
                args.trim()
            ));
        }
        // Only a robot focused as its step begins runs under control: the
        // current step is finished first.
        self.session.finish_step();
        let place = self.select(args.trim())?;
        self.set_focus(Some(place));
        self.rebind_breakpoints();
        Ok(format!(
            "Focus on {} (going back before now follows the robot focused then).\n{}",
            args.trim(),
            self.here()
        ))
    }

    pub(crate) fn set(&mut self, args: &str) -> Result<String, DebugError> {
        let args = args.trim();
        let (name, literal) = match args.strip_prefix("output ") {
            Some(rest) => ("out", rest.trim()),
            None => {
                let (n, l) = args.split_once('=').ok_or(InspectError::SetUsage)?;
                (n.trim(), l.trim())
            }
        };
        let index = if name == "out" && !self.register_names().iter().any(|n| n == "out") {
            2
        } else {
            self.register_index(name)?
        };
        let tree =
            crate::asm::parse_literal(literal).map_err(|error| InspectError::BadLiteral {
                text: literal.to_string(),
                error,
            })?;
        let robot = self.session.focused().ok_or(SelectError::NoFocus)?;
        let limit = robot
            .memory
            .get(index)
            .ok_or(InspectError::NoRegister(index))?
            .limit;
        if !(tree.is_nil() || tree.fits(limit)) {
            return Err(InspectError::DoesNotFit {
                literal: literal.to_string(),
                size: tree.size(),
                register: name.to_string(),
                limit,
            }
            .into());
        }
        // Checked: the change is made (and the future dropped) only now.
        if let Some(register) = self
            .session
            .focused_memory_mut()
            .and_then(|m| m.get_mut(index))
        {
            register.contents = tree;
        }
        self.session.edited();
        self.print(name)
    }
}

//! Code generation: register contents and limits, the checks that need
//! them, and the image with its symbols and source map.

use super::ast::{Ident, Name};
use super::eval::{Env, ImageCompiler, eval};
use super::layout::{Layout, always_nil, block_name};
use super::macros::{Chain, Expansion};
use super::resolve::{LimitSpec, Opcode, Resolved, Role};
use super::source::{Sources, Span};
use crate::diagnostic::{Code, Diagnostic, newline_marks};
use crate::image::beside::beside;
use crate::image::{
    CallStack, ExpansionSite, FileRecord, Image, ImageRegister, LabelSymbol, Location, RegisterMap,
    Segment, SourceMap,
};
use crate::tree::Tree;
use rustc_hash::FxHashMap;
use sha2::{Digest, Sha256};
use std::rc::Rc;

/// What [`generate`] gives.
pub struct Generated {
    /// The image: `None` when there are errors (from earlier phases or from
    /// these checks) or when it was not wanted.
    pub image: Option<Image>,
    /// Every register's limit, by number, as the image gives it (`None`
    /// when there are errors).
    pub limits: Option<Vec<i64>>,
    /// This phase's diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks the program, works out its registers' limits and builds its
/// image when `want_image` is true.
pub fn generate(
    expansion: &Expansion,
    resolved: &Resolved,
    layout: &Layout,
    compile: ImageCompiler<'_>,
    earlier_errors: bool,
    want_image: bool,
) -> Generated {
    let mut g = Generator {
        expansion,
        resolved,
        layout,
        diagnostics: Vec::new(),
        contents: vec![None; resolved.registers.len()],
        hand_code: FxHashMap::default(),
        tail_values: FxHashMap::default(),
    };
    g.contents(compile);
    let limits = g.limits();
    g.check_sizes(&limits);
    g.check_operands(&limits);
    g.lints();
    g.diagnostics
        .extend(super::calls::check_stack(resolved, layout, &limits));
    let failed = earlier_errors || g.diagnostics.iter().any(Diagnostic::is_error);
    let image = (want_image && !failed).then(|| g.image(&limits));
    Generated {
        image,
        limits: (!failed).then_some(limits),
        diagnostics: g.diagnostics,
    }
}

struct Generator<'a> {
    expansion: &'a Expansion,
    resolved: &'a Resolved,
    layout: &'a Layout,
    diagnostics: Vec<Diagnostic>,
    contents: Vec<Option<Tree>>,
    hand_code: FxHashMap<usize, Tree>,
    /// Initial values of declared registers that hand-laid blocks end with.
    tail_values: FxHashMap<usize, Tree>,
}

impl Generator<'_> {
    fn register_index(&self, name: &Name) -> Option<i64> {
        self.resolved
            .registers
            .iter()
            .position(|r| r.name == *name && r.role != Role::Constant(usize::MAX))
            .or_else(|| {
                let b = *self.resolved.labels.get(name)?;
                self.resolved
                    .registers
                    .iter()
                    .position(|r| matches!(r.role, Role::Code(c) | Role::HandBlock(c) if c == b))
            })
            .map(|i| i as i64)
    }

    /// The code that starts at a label (for `code(label)`).
    fn code_of(&self, name: &Ident) -> Result<Tree, Diagnostic> {
        let Some(&b) = self.resolved.labels.get(&name.name()) else {
            return Err(Diagnostic::error(
                Code::E0601,
                name.span,
                format!("`{}` is not a label", name.text),
            )
            .label("code(...) takes a label"));
        };
        Ok(self.block_code(b))
    }

    fn block_code(&self, b: usize) -> Tree {
        match self.resolved.blocks[b].hand {
            Some(_) => self.hand_code.get(&b).cloned().unwrap_or_default(),
            None => self.layout.code[b].clone(),
        }
    }

    /// Every register's initial contents.
    fn contents(&mut self, compile: ImageCompiler<'_>) {
        self.hand_blocks();
        let registers = |n: &Name| self.register_index(n);
        let code = |n: &Ident| self.code_of(n);
        let mut env = Env::expanding(&self.expansion.consts);
        env.registers = Some(&registers);
        env.code = Some(&code);
        env.image = Some(compile);
        let mut contents = vec![None; self.resolved.registers.len()];
        let mut errors = Vec::new();
        for (i, reg) in self.resolved.registers.iter().enumerate() {
            let value = match (&reg.role, &reg.init) {
                // The very tree a hand-laid block ends with, so the two share it.
                (_, Some(_)) if self.tail_values.contains_key(&i) => {
                    self.tail_values.get(&i).cloned()
                }
                (_, Some(init)) => match eval(init, &env).and_then(|v| {
                    v.encode().map_err(|m| {
                        Diagnostic::error(Code::E0411, init.span, m)
                            .label("cannot be put in a register")
                    })
                }) {
                    Ok(t) => Some(t),
                    Err(d) => {
                        errors.push(d);
                        None
                    }
                },
                (Role::Predeclared, None) if i == 0 => Some(
                    self.resolved
                        .entry
                        .map_or(Tree::NIL, |b| self.block_code(b)),
                ),
                (Role::Code(b) | Role::HandBlock(b), None) => Some(self.block_code(*b)),
                (Role::Constant(c), None) => {
                    let constant = &self.resolved.constants[*c];
                    match &constant.early {
                        Some(t) => Some(t.clone()),
                        None => match eval(&constant.expr, &env).and_then(|v| {
                            v.encode().map_err(|m| {
                                Diagnostic::error(Code::E0411, constant.expr.span, m)
                                    .label("cannot be put in a register")
                            })
                        }) {
                            Ok(t) => Some(t),
                            Err(d) => {
                                errors.push(d);
                                None
                            }
                        },
                    }
                }
                _ => None,
            };
            contents[i] = value;
        }
        self.diagnostics.extend(errors);
        self.contents = contents;
    }

    /// Hand-laid blocks: their instructions, then their tail's contents.
    fn hand_blocks(&mut self) {
        // Tails that are declared registers continue with their initial value.
        self.tail_values = {
            let registers = |n: &Name| self.register_index(n);
            let mut env = Env::expanding(&self.expansion.consts);
            env.registers = Some(&registers);
            self.resolved
                .blocks
                .iter()
                .filter_map(|b| b.hand.as_ref()?.tail)
                .filter_map(|(r, _)| {
                    let reg = &self.resolved.registers[r];
                    let init = reg.init.as_ref()?;
                    let tree = eval(init, &env).ok()?.encode().ok()?;
                    Some((r, tree))
                })
                .collect()
        };
        // Tails may name other hand-laid blocks: resolve in dependency order.
        let mut pending: Vec<usize> = (0..self.resolved.blocks.len())
            .filter(|&b| self.resolved.blocks[b].hand.is_some())
            .collect();
        let mut progress = true;
        while progress && !pending.is_empty() {
            progress = false;
            pending.retain(|&b| {
                let layout = self.resolved.blocks[b].hand.as_ref().expect("hand-laid");
                let tail = match layout.tail {
                    None => Some(Tree::NIL),
                    Some((r, _)) => match &self.resolved.registers[r].role {
                        Role::HandBlock(t) => self.hand_code.get(t).cloned(),
                        Role::Code(t) => Some(self.layout.code[*t].clone()),
                        _ => Some(self.tail_values.get(&r).cloned().unwrap_or_default()),
                    },
                };
                let Some(tail) = tail else { return true };
                let code = self.resolved.blocks[b]
                    .instrs
                    .iter()
                    .rev()
                    .fold(tail, |t, i| {
                        Tree::cons(
                            crate::encoding::Encode::encode(&i.op.instruction(i.operands)),
                            t,
                        )
                    });
                self.hand_code.insert(b, code);
                progress = true;
                false
            });
        }
        for b in pending {
            let span = self.resolved.blocks[b]
                .hand
                .as_ref()
                .and_then(|h| h.tail)
                .map_or(self.resolved.blocks[b].span, |t| t.1);
            self.diagnostics.push(
                Diagnostic::error(
                    Code::E0602,
                    span,
                    "blocks whose tails lead back to themselves",
                )
                .label("this tail is part of a cycle")
                .note("a tree cannot contain itself"),
            );
        }
    }

    /// Every register's limit.
    fn limits(&self) -> Vec<i64> {
        let size = |t: &Option<Tree>| {
            t.as_ref()
                .map_or(0, |t| t.size().min(i64::MAX as u64) as i64)
        };
        let mut limits: Vec<i64> = self
            .resolved
            .registers
            .iter()
            .enumerate()
            .map(|(i, r)| match r.limit {
                LimitSpec::Default(n) | LimitSpec::Given(n, _) => n,
                LimitSpec::Auto => size(&self.contents[i]),
            })
            .collect();
        // prog holds whatever is jumped into it: its automatic limit is the
        // largest code it can receive.
        if matches!(self.resolved.registers[0].limit, LimitSpec::Auto) {
            let largest_jump = self
                .jump_sources()
                .map(|(src, _)| limits.get(src).copied().unwrap_or(0))
                .max()
                .unwrap_or(0);
            limits[0] = limits[0].max(largest_jump);
        }
        limits
    }

    /// `(source register, instruction span)` of every write into `prog`
    /// with `copyifnil`.
    fn jump_sources(&self) -> impl Iterator<Item = (usize, Span)> + '_ {
        self.resolved
            .blocks
            .iter()
            .flat_map(|b| &b.instrs)
            .filter_map(|i| match i.op {
                Opcode::CopyIfNil if i.operands[2] == 0 => usize::try_from(i.operands[1])
                    .ok()
                    .map(|s| (s, i.operand_spans[1])),
                _ => None,
            })
    }

    fn check_sizes(&mut self, limits: &[i64]) {
        for (i, reg) in self.resolved.registers.iter().enumerate() {
            let Some(t) = &self.contents[i] else { continue };
            // Nil is nothing: it is never too big, even for a negative limit.
            if t.is_nil() || t.fits(limits[i]) {
                continue;
            }
            let span = match reg.limit {
                LimitSpec::Given(_, s) => Some(s),
                _ => reg.span,
            };
            let what = match reg.role {
                Role::HandBlock(_) | Role::Code(_) => "its code",
                _ => "its initial value",
            };
            let mut d = Diagnostic::error(
                Code::E0603,
                span.unwrap_or_default(),
                format!("register `{}` is too small for {what}", reg.name),
            )
            .label(format!(
                "{what} has {} conses, the limit is {}",
                t.size(),
                limits[i]
            ));
            if i == 0 {
                d = d.note("prog starts with the entry block's code");
            }
            self.diagnostics.push(d);
        }
        for (src, span) in self.jump_sources().collect::<Vec<_>>() {
            let size = self
                .contents
                .get(src)
                .and_then(|c| c.as_ref())
                .map_or(0, Tree::size);
            if !(Tree::NIL.fits(limits[0]) && size <= limits[0].max(0) as u64) {
                let name = self.resolved.registers[src].name.to_string();
                self.diagnostics.push(
                    Diagnostic::warning(
                        Code::W0705,
                        span,
                        format!("`{name}` is too big to be jumped to"),
                    )
                    .label(format!(
                        "{size} conses, but `prog` holds at most {}",
                        limits[0]
                    ))
                    .note("this jump would wipe the machine: OutOfMemory on register 0"),
                );
            }
        }
    }

    /// Register numbers in range.
    fn check_operands(&mut self, _limits: &[i64]) {
        let count = self.resolved.registers.len() as i64;
        for block in &self.resolved.blocks {
            for instr in &block.instrs {
                for k in 0..instr.op.arity() {
                    let r = instr.operands[k];
                    if r < 0 || r >= count {
                        self.diagnostics.push(
                            Diagnostic::error(Code::E0605, instr.operand_spans[k], format!("register {r} does not exist"))
                                .label(format!("the program has registers 0 to {}", count - 1))
                                .note("running this would stop the machine with NoSuchRegister and wipe it")
                                .expanded_from(&instr.chain.sites()),
                        );
                    }
                }
            }
        }
    }

    fn lints(&mut self) {
        let resolved = self.resolved;
        // Unreachable blocks of the main file. A block that a macro's
        // expansion starts (its labels are the macro's own) is the user's
        // business only when the block the macro was written in is reached:
        // then it is shown with the expansion it came from.
        let mut written_in_reached = true;
        for (b, block) in resolved.blocks.iter().enumerate() {
            let from_macro =
                !block.labels.is_empty() && block.labels.iter().all(|l| !l.scope.is_root());
            if !from_macro {
                written_in_reached = self.layout.reachable[b];
            }
            if self.layout.reachable[b]
                || !resolved.main_sections[block.section]
                || block.instrs.is_empty()
                || (from_macro && !written_in_reached)
            {
                continue;
            }
            let mut d = Diagnostic::warning(
                Code::W0701,
                block.span,
                format!("block `{}` is never reached", block_name(block, b)),
            )
            .label("no jump leads here, and the code before it never falls through")
            .note("it is left out of the image");
            if from_macro {
                d = d.expanded_from(&block.instrs[0].chain.sites());
            }
            self.diagnostics.push(d);
        }
        let mut written = vec![false; resolved.registers.len()];
        let mut read: Vec<Option<Span>> = vec![None; resolved.registers.len()];
        let in_image = resolved
            .blocks
            .iter()
            .enumerate()
            .filter(|(b, block)| block.hand.is_some() || self.layout.reachable[*b])
            .map(|(_, block)| block);
        for block in in_image {
            for instr in &block.instrs {
                for t in instr.op.targets(instr.operands) {
                    if let Some(w) = usize::try_from(t).ok().and_then(|t| written.get_mut(t)) {
                        *w = true;
                    }
                    if t == 1 {
                        let k = (0..3).rev().find(|&k| instr.operands[k] == 1).unwrap_or(0);
                        self.diagnostics.push(
                            Diagnostic::warning(
                                Code::W0703,
                                instr.operand_spans[k],
                                "writing to `in`",
                            )
                            .label("the engine overwrites `in` at every step")
                            .expanded_from(&instr.chain.sites()),
                        );
                    }
                }
                for (k, s) in instr.op.sources(instr.operands).enumerate() {
                    if let Some(slot) = usize::try_from(s).ok().and_then(|s| read.get_mut(s)) {
                        slot.get_or_insert(instr.operand_spans[k]);
                    }
                }
                if instr.op == Opcode::Deconstruct && self.never_holds_anything(instr.operands[0]) {
                    self.diagnostics.push(
                        Diagnostic::warning(
                            Code::W0704,
                            instr.operand_spans[0],
                            "deconstructing a register that is always Nil",
                        )
                        .label("always Nil here")
                        .note("this stops the machine with DeconstructNil and wipes it")
                        .expanded_from(&instr.chain.sites()),
                    );
                }
            }
        }
        for (i, reg) in resolved.registers.iter().enumerate() {
            if reg.role == Role::Declared
                && reg.init.is_none()
                && !written[i]
                && !always_nil(resolved, i as i64)
                && let (Some(use_site), Some(decl)) = (read[i], reg.span)
            {
                self.diagnostics.push(
                    Diagnostic::warning(Code::W0702, decl, format!("register `{}` is read but never written", reg.name))
                        .label("declared without a value")
                        .with_label(use_site, "read here")
                        .note("it is always Nil; a register meant to be Nil is usually declared `reg NAME 0`"),
                );
            }
        }
    }

    /// A register that can hold nothing but Nil at any time.
    fn never_holds_anything(&self, r: i64) -> bool {
        always_nil(self.resolved, r)
    }

    /// The source map (one segment of locations per block in the image,
    /// linked as the code falls through) and every label's register and
    /// offset. Both are linear in the program's size, however many
    /// registers share its code.
    fn source_map_and_labels(&self, sources: &Sources) -> (SourceMap, Vec<LabelSymbol>) {
        let resolved = self.resolved;
        let blocks = &resolved.blocks;
        let in_image = |b: usize| blocks[b].hand.is_some() || self.layout.reachable[b];
        let (count, segment_count) = (0..blocks.len())
            .filter(|&b| in_image(b))
            .fold((0, 0), |(count, segments), b| {
                (count + blocks[b].instrs.len(), segments + 1)
            });
        let mut locations = Locations::new(sources, count);
        let mut segments: Vec<Segment> = Vec::with_capacity(segment_count);
        let mut segment_of: Vec<Option<u32>> = vec![None; blocks.len()];
        for (b, block) in blocks.iter().enumerate() {
            if in_image(b) {
                segment_of[b] = Some(segments.len() as u32);
                let here = block
                    .instrs
                    .iter()
                    .map(|i| locations.of(i.span, &i.chain))
                    .collect();
                segments.push(Segment {
                    locations: here,
                    next: None,
                });
            }
        }
        // The register whose code starts with each block.
        let mut own: Vec<Option<usize>> = vec![None; blocks.len()];
        for (i, reg) in resolved.registers.iter().enumerate() {
            if let Role::Code(b) | Role::HandBlock(b) = reg.role
                && b < blocks.len()
                && reg.init.is_none()
            {
                own[b] = Some(i);
            }
        }
        for (b, block) in blocks.iter().enumerate() {
            let Some(s) = segment_of[b] else { continue };
            let next = match &block.hand {
                Some(h) => h.tail.and_then(|(r, _)| match resolved.registers[r].role {
                    Role::Code(t) | Role::HandBlock(t) => segment_of.get(t).copied().flatten(),
                    _ => None,
                }),
                None => self.layout.falls_into[b].and_then(|n| segment_of[n]),
            };
            segments[s as usize].next = next;
        }
        let mut registers: Vec<RegisterMap> = Vec::with_capacity(segment_count + 1);
        if resolved.registers[0].init.is_none()
            && let Some(segment) = resolved.entry.and_then(|e| segment_of[e])
        {
            registers.push(RegisterMap {
                register: 0,
                segment,
            });
        }
        for (b, reg) in own.iter().enumerate() {
            if let (Some(register), Some(segment)) = (reg, segment_of[b]) {
                registers.push(RegisterMap {
                    register: *register,
                    segment,
                });
            }
        }
        registers.sort_by_key(|m| m.register);
        registers.dedup_by_key(|m| m.register);
        // Each block's place: its own register, else where the code before
        // it (or the entry) leaves off.
        let mut falls_from: Vec<Option<usize>> = vec![None; blocks.len()];
        for (p, next) in self.layout.falls_into.iter().enumerate() {
            if let Some(n) = next {
                falls_from[*n] = Some(p);
            }
        }
        let mut place: Vec<Option<(usize, usize)>> = vec![None; blocks.len()];
        for (b, block) in blocks.iter().enumerate() {
            place[b] = own[b].map(|r| (r, 0)).or_else(|| {
                if resolved.entry == Some(b) && resolved.registers[0].init.is_none() {
                    return Some((0, 0));
                }
                let previous = falls_from[b]?;
                let (r, o) = place[previous]?;
                Some((r, o + blocks[previous].instrs.len()))
            });
            if block.hand.is_none() && !self.layout.reachable[b] {
                place[b] = None;
            }
        }
        // About one label a block.
        let mut labels: Vec<LabelSymbol> = Vec::with_capacity(segment_count);
        for (b, block) in blocks.iter().enumerate() {
            let Some((register, offset)) = place[b] else {
                continue;
            };
            let inner: Vec<(&Ident, usize)> = match &block.hand {
                Some(h) => h.labels.iter().map(|(l, o)| (l, *o)).collect(),
                None => block.labels.iter().map(|l| (l, 0)).collect(),
            };
            for (label, at) in inner {
                if label.scope.is_root() {
                    labels.push(LabelSymbol {
                        name: label.text.to_string(),
                        register,
                        offset: offset + at,
                    });
                }
            }
        }
        labels
            .sort_by(|a, b| (a.register, a.offset, &a.name).cmp(&(b.register, b.offset, &b.name)));
        let source_map = SourceMap {
            locations: locations.table,
            segments,
            registers,
        };
        (source_map, labels)
    }

    /// The image. The files' records (their texts hashed and copied) are
    /// made on a second thread while the source map is built ([`beside`]).
    fn image(&self, limits: &[i64]) -> Image {
        let resolved = self.resolved;
        let sources = &self.expansion.sources;
        let registers = resolved
            .registers
            .iter()
            .enumerate()
            .map(|(i, r)| ImageRegister {
                name: r.name.image_text(),
                limit: limits[i],
                contents: self.contents[i].clone().unwrap_or_default(),
            })
            .collect();
        let files: Vec<(&str, &str)> = sources
            .iter()
            .map(|(_, f)| (f.name.as_str(), f.text.as_str()))
            .collect();
        let bytes = files.iter().map(|(_, text)| text.len()).sum();
        let ((records, sources_hash), (source_map, labels)) = beside(
            bytes,
            || {
                let records: Vec<FileRecord> = files
                    .iter()
                    .map(|&(name, text)| FileRecord {
                        name: name.to_string(),
                        hash: crate::image::sources::hash(text),
                        text: Some(text.to_string()),
                    })
                    .collect();
                (records, sources_hash(&files))
            },
            || self.source_map_and_labels(sources),
        );
        Image {
            registers,
            labels,
            callstack: resolved
                .callstack
                .map(|(stack, link)| CallStack { stack, link }),
            source_map,
            files: records,
            compiler: format!("constree {}", env!("CARGO_PKG_VERSION")),
            sources_hash,
            // Filled in by the assembler, which compiles them.
            images: Vec::new(),
        }
    }
}

/// SHA-256 over every file's name and text (`(name, text)` per file, in
/// the order they were read).
fn sources_hash(files: &[(&str, &str)]) -> String {
    let mut hasher = Sha256::new();
    for (name, text) in files {
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update((text.len() as u64).to_le_bytes());
        hasher.update(text.as_bytes());
    }
    crate::image::sources::hex(&hasher.finalize())
}

/// Interns source locations.
struct Locations<'s> {
    sources: &'s Sources,
    table: Vec<Location>,
    /// Each location's index, by its position and the id of its expansion
    /// (a location is built only once, into the table).
    index: LocationIndex,
    /// Expansion ids by value: the innermost invocation (macro, file,
    /// line, column) and the id of the expansion it is inside. Id 0 is
    /// outside any macro.
    expansions: FxHashMap<Invocation, u32>,
    /// Per file, the ids of invocations outside any macro whose positions
    /// came in increasing order (the others are in `expansions`).
    outside: Vec<Vec<(u64, u32)>>,
    /// The sites of each expansion, innermost first, by id (id 0, outside
    /// any macro, has none): the locations of one expansion share them.
    sites: Vec<Rc<[ExpansionSite]>>,
    /// The expansion ids of chains met lately, by [`Chain::id`] (valid
    /// while the chains live, which they do as long as the resolved
    /// program): a direct-mapped cache of [`CHAIN_CACHE`] slots. A chain
    /// not found is numbered from `expansions` as if new, to the same id.
    chains: Vec<(usize, u32)>,
    /// Per file, the last position found in it, from which the next is
    /// found (instructions come mostly in source order).
    cursors: Vec<Cursor>,
    /// Positions found lately, (file, offset, line, column), by
    /// [`found_slot`]: a direct-mapped cache of [`FOUND`] slots (empty
    /// until the first position is found).
    found: Vec<Option<(usize, usize, u32, u32)>>,
}

/// The slots of [`Locations`]' cache of positions (a power of two).
const FOUND: usize = 1024;

/// A position's slot in [`Locations`]' cache of positions.
fn found_slot(file: usize, offset: usize) -> usize {
    ((offset ^ (file << 32)) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) as usize
        >> (usize::BITS - FOUND.trailing_zeros())
}

/// How many line breaks (`\n`) `bytes` has, and where the last is: a word
/// of 8 bytes at a time ([`newline_marks`]).
fn line_breaks(bytes: &[u8]) -> (usize, Option<usize>) {
    let mut count = 0;
    let mut last = None;
    let mut words = bytes.chunks_exact(8);
    for (k, word) in words.by_ref().enumerate() {
        let marks = newline_marks(word.try_into().unwrap_or_default());
        if marks != 0 {
            count += marks.count_ones() as usize;
            last = Some(k * 8 + 7 - marks.leading_zeros() as usize / 8);
        }
    }
    let tail = bytes.len() - words.remainder().len();
    for (k, &b) in words.remainder().iter().enumerate() {
        if b == b'\n' {
            count += 1;
            last = Some(tail + k);
        }
    }
    (count, last)
}

/// A position in a file of [`Locations`]: its byte offset, its 0-based
/// line and the offset where that line starts.
#[derive(Debug, Clone, Copy, Default)]
struct Cursor {
    offset: usize,
    line: usize,
    start: usize,
}

/// How far past a file's [`Cursor`] [`Locations::position`] walks the text
/// to a position; a position further, or before it, is searched for.
const WALK: usize = 256;

/// A macro invocation in [`Locations`]: the macro, the file, line and
/// column of its call site, and the id of the expansion it is inside.
type Invocation = (Rc<str>, u32, u32, u32, u32);

/// The slots of [`Locations`]' cache of chains (a power of two).
const CHAIN_CACHE: usize = 1024;

/// A chain's slot in [`Locations`]' cache of chains.
fn chain_slot(id: usize) -> usize {
    (id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) as usize
        >> (usize::BITS - CHAIN_CACHE.trailing_zeros())
}

impl<'s> Locations<'s> {
    /// Interning for about `count` locations: the lists that grow with
    /// them have room for that many from the start, so that they do not
    /// grow by copying (room not filled is not touched). The main file,
    /// file 0, has most of a program's instructions.
    fn new(sources: &'s Sources, count: usize) -> Self {
        let mut sites: Vec<Rc<[ExpansionSite]>> = Vec::with_capacity(count + 1);
        sites.push(Rc::from([]));
        Locations {
            sources,
            table: Vec::with_capacity(count),
            index: LocationIndex::with_room(count),
            expansions: FxHashMap::default(),
            outside: vec![Vec::with_capacity(count)],
            sites,
            chains: vec![(0, 0); CHAIN_CACHE],
            cursors: Vec::new(),
            found: Vec::new(),
        }
    }

    /// The file, 1-based line and column (in characters) of a span's start,
    /// as [`SourceFile::line_col`](crate::diagnostic::source::SourceFile::line_col)
    /// gives them: walked to from the file's cursor when it is a little
    /// ahead (counting the line breaks passed); else, as a macro's body is
    /// met again at every invocation, found in `found`, or searched for.
    fn position(&mut self, span: Span) -> (u32, u32, u32) {
        let f = span.file.0 as usize;
        if self.cursors.len() <= f {
            self.cursors.resize(f + 1, Cursor::default());
        }
        let file = self.sources.get(span.file);
        let text = file.text.as_bytes();
        let offset = (span.start as usize).min(text.len());
        let cursor = &mut self.cursors[f];
        let walked = (cursor.offset..=cursor.offset.saturating_add(WALK)).contains(&offset);
        if walked {
            let (count, last) = line_breaks(&text[cursor.offset..offset]);
            cursor.line += count;
            if let Some(k) = last {
                cursor.start = cursor.offset + k + 1;
            }
        } else {
            if let Some(&(_, _, line, column)) = self
                .found
                .get(found_slot(f, offset))
                .and_then(Option::as_ref)
                .filter(|&&(g, o, _, _)| (g, o) == (f, offset))
            {
                // The cursor stays: it is still a place the walk can start.
                return (span.file.0, line, column);
            }
            let near = if offset < cursor.offset {
                0
            } else {
                cursor.line
            };
            cursor.line = file.line_col_near(offset, near).1;
            cursor.start = text[..offset]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |k| k + 1);
        }
        cursor.offset = offset;
        let column = file
            .text
            .get(cursor.start..offset)
            .map_or(0, |s| s.chars().count());
        let position = (span.file.0, cursor.line as u32 + 1, column as u32 + 1);
        if !walked {
            if self.found.is_empty() {
                self.found = vec![None; FOUND];
            }
            self.found[found_slot(f, offset)] = Some((f, offset, position.1, position.2));
        }
        position
    }

    /// The id of a chain's expansion: equal expansions (the same
    /// invocations at the same places) get equal ids. Walks out to the
    /// first chain met before, then numbers back in (no recursion).
    fn expansion(&mut self, chain: &Chain) -> u32 {
        let mut unknown: Vec<&Chain> = Vec::new();
        let mut at = chain;
        let mut id = loop {
            let (known, id) = self.chains[chain_slot(at.id())];
            if known == at.id() && known != 0 {
                break id;
            }
            match at.innermost() {
                Some((_, _, outer)) => {
                    unknown.push(at);
                    at = outer;
                }
                None => break 0,
            }
        };
        for chain in unknown.into_iter().rev() {
            if let Some((name, site, _)) = chain.innermost() {
                let (file, line, column) = self.position(site);
                id = self.invocation(name, (file, line, column), id);
                self.chains[chain_slot(chain.id())] = (chain.id(), id);
            }
        }
        id
    }

    /// The expansion id of an invocation of `name` at a position, inside
    /// expansion `outer`, numbered if new. Invocations outside any macro
    /// are filed by position (they come in source order); the others, and
    /// those out of order, in `expansions`.
    fn invocation(
        &mut self,
        name: &Rc<str>,
        (file, line, column): (u32, u32, u32),
        outer: u32,
    ) -> u32 {
        let new = self.sites.len() as u32;
        let filed = if outer == 0 {
            let f = file as usize;
            if self.outside.len() <= f {
                self.outside.resize_with(f + 1, Vec::new);
            }
            file_in_order(&mut self.outside[f], (line, column), new)
        } else {
            Filed::Before
        };
        let known = match filed {
            Filed::New => None,
            // An id filed here is outside any macro: its one site is this
            // invocation's, but for the macro's name.
            Filed::At(id) if self.sites[id as usize][0].macro_name == *name => Some(id),
            Filed::At(_) | Filed::Before => {
                match self
                    .expansions
                    .entry((Rc::clone(name), file, line, column, outer))
                {
                    std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(new);
                        None
                    }
                }
            }
        };
        known.unwrap_or_else(|| {
            let site = ExpansionSite {
                macro_name: Rc::clone(name),
                file,
                line,
                column,
            };
            let outer = &self.sites[outer as usize];
            let sites = std::iter::once(site).chain(outer.iter().cloned());
            self.sites.push(sites.collect());
            new
        })
    }

    fn of(&mut self, span: Span, chain: &Chain) -> u32 {
        let (file, line, column) = self.position(span);
        let expansion_id = self.expansion(chain);
        let key = (file, line, column, expansion_id);
        let k = self.table.len() as u32;
        if let Some(known) = self.index.find_or_add(&self.table, key, k) {
            return known;
        }
        let expansion = Rc::clone(&self.sites[expansion_id as usize]);
        self.table.push(Location {
            file,
            line,
            column,
            expansion,
        });
        k
    }
}

/// The locations of [`Locations`] by their key (file, line, column,
/// expansion id), kept where the next search is cheap: nearly every
/// location is new, and a hash map of them all was most of the source
/// map's time (a cache miss for every instruction).
#[derive(Default)]
struct LocationIndex {
    /// Per file, the locations outside any macro whose positions came in
    /// increasing order: (line and column, location), sorted.
    outside: Vec<Vec<(u64, u32)>>,
    /// Per expansion id (from 1), the last location of its list and the
    /// list's length: the first [`EXPANSION_LIST`] locations of an
    /// expansion, linked through `previous`.
    lists: Vec<(u32, u32)>,
    /// Per location, the one before it in its expansion's list (0 for
    /// the first of a list, and for a location in no list).
    previous: Vec<u32>,
    /// The link of the location being filed.
    link: u32,
    /// Every other location.
    rest: FxHashMap<(u32, u32, u32, u32), u32>,
}

/// Where [`file_in_order`] found a position.
enum Filed {
    /// Past every position filed: filed now.
    New,
    /// Filed before, with this value.
    At(u32),
    /// Not filed, and before the last position filed: the caller files it
    /// elsewhere.
    Before,
}

/// Looks for a (line, column) position in `sorted`, where positions are
/// filed only in increasing order, and files it with `new` when it is past
/// them all (so a position before the last one, not found, was never
/// filed here).
fn file_in_order(sorted: &mut Vec<(u64, u32)>, (line, column): (u32, u32), new: u32) -> Filed {
    let position = (u64::from(line) << 32) | u64::from(column);
    if sorted.last().is_none_or(|&(p, _)| p < position) {
        sorted.push((position, new));
        return Filed::New;
    }
    match sorted.binary_search_by_key(&position, |&(p, _)| p) {
        Ok(at) => Filed::At(sorted[at].1),
        Err(_) => Filed::Before,
    }
}

/// How many locations of one expansion are found by walking its list
/// (the rest are in the map).
const EXPANSION_LIST: u32 = 8;

impl LocationIndex {
    /// An index with room for `count` locations (see [`Locations::new`]).
    fn with_room(count: usize) -> Self {
        LocationIndex {
            outside: vec![Vec::with_capacity(count)],
            lists: Vec::with_capacity(count + 1),
            previous: Vec::with_capacity(count),
            ..LocationIndex::default()
        }
    }

    /// The location of `key` if `table` has it; else `None`, and the
    /// location about to be pushed as `new` is filed under it.
    fn find_or_add(
        &mut self,
        table: &[Location],
        key: (u32, u32, u32, u32),
        new: u32,
    ) -> Option<u32> {
        debug_assert_eq!(table.len(), new as usize);
        debug_assert_eq!(self.previous.len(), new as usize);
        let found = self.find_or_file(table, key, new);
        if found.is_none() {
            // `find_or_file` set the link of a location it put in a list.
            self.previous.push(self.link);
        }
        found
    }

    fn find_or_file(
        &mut self,
        table: &[Location],
        key: (u32, u32, u32, u32),
        new: u32,
    ) -> Option<u32> {
        let (file, line, column, expansion) = key;
        self.link = 0;
        if expansion == 0 {
            let f = file as usize;
            if self.outside.len() <= f {
                self.outside.resize_with(f + 1, Vec::new);
            }
            match file_in_order(&mut self.outside[f], (line, column), new) {
                Filed::New => return None,
                Filed::At(k) => return Some(k),
                Filed::Before => {}
            }
        } else {
            let e = expansion as usize - 1;
            if self.lists.len() <= e {
                self.lists.resize(e + 1, (0, 0));
            }
            let (last, len) = self.lists[e];
            let mut at = last;
            for _ in 0..len {
                let l = &table[at as usize];
                if (l.file, l.line, l.column) == (file, line, column) {
                    return Some(at);
                }
                at = self.previous[at as usize];
            }
            if len < EXPANSION_LIST {
                self.link = last;
                self.lists[e] = (new, len + 1);
                return None;
            }
        }
        match self.rest.entry(key) {
            std::collections::hash_map::Entry::Occupied(o) => Some(*o.get()),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(new);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn line_breaks_are_those_of_a_plain_scan() {
        for text in crate::diagnostic::texts_with_newlines(200) {
            let bytes = text.as_bytes();
            let plain = (
                bytes.iter().filter(|&&b| b == b'\n').count(),
                bytes.iter().rposition(|&b| b == b'\n'),
            );
            assert_eq!(line_breaks(bytes), plain, "{text:?}");
        }
    }

    #[test]
    fn positions_are_those_of_line_col() {
        use super::super::source::{FileId, SourceFile};
        let mut next = crate::tree::random_below(0x2545_f491_4f6c_dd1d);
        // Lines short and long (past the walk), with characters of several
        // bytes and carriage returns.
        let mut sources = Sources::default();
        for _ in 0..3 {
            let mut text = String::new();
            while text.len() < 40_000 {
                match next(6) {
                    0 => text.push_str(&"y".repeat(next(2 * WALK))),
                    1 => text.push_str("é\r\n"),
                    2 => text.push('\n'),
                    _ => text.push_str("    push b, a ; ü\n"),
                }
            }
            sources.add(SourceFile::new("f.cta".into(), None, text));
        }
        let mut locations = Locations::new(&sources, 0);
        let mut offsets = [0usize; 3];
        for _ in 0..20_000 {
            let f = next(3);
            let text = &sources.get(FileId(f as u32)).text;
            // Mostly forward by a little, sometimes far, sometimes back.
            let mut at = match next(10) {
                0 => next(text.len() + 1),
                1 => offsets[f] + next(3 * WALK),
                _ => offsets[f] + next(40),
            }
            .min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            offsets[f] = at;
            let span = Span::new(FileId(f as u32), at..at);
            let (line, column) = sources.get(FileId(f as u32)).line_col(at);
            assert_eq!(
                locations.position(span),
                (f as u32, line as u32, column as u32),
                "file {f}, offset {at}"
            );
        }
    }

    #[test]
    fn the_location_index_finds_what_a_map_of_every_key_finds() {
        let mut below = crate::tree::random_below(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u32| below(n as usize) as u32;
        let mut index = LocationIndex::default();
        let mut table: Vec<Location> = Vec::new();
        let mut map: HashMap<(u32, u32, u32, u32), u32> = HashMap::new();
        let mut line = 1;
        for _ in 0..20_000 {
            // Mostly in source order, sometimes back; few expansions, so
            // that their lists fill up.
            line = if next(4) == 0 {
                1 + next(line + 1)
            } else {
                line + next(3)
            };
            let key = (next(2), line, 1 + next(3), next(6));
            let new = table.len() as u32;
            let expected = *map.entry(key).or_insert(new);
            let found = index.find_or_add(&table, key, new);
            assert_eq!(found.unwrap_or(new), expected, "key {key:?}");
            if found.is_none() {
                table.push(Location {
                    file: key.0,
                    line: key.1,
                    column: key.2,
                    expansion: Rc::from([]),
                });
            }
        }
        assert!(!index.rest.is_empty(), "keys went to the map too");
    }
}

//! The disassembler: a memory image back to `.cta` source.
//!
//! Every register is written in index order, with its exact limit:
//!
//! * code (a register the image's source map marks as code, whose contents
//!   are a list of instructions) as a hand-laid `block` (`block prog` for
//!   register 0): one instruction per line, with register names as operands,
//!   the labels that point into it at their offsets, and `tail OTHER` where
//!   the rest of its list is another register's contents (shared code);
//! * anything else as `reg NAME @INDEX LIMIT = VALUE`, the value written as a
//!   number, a command, a readable list or a `bits("...")` string; a large
//!   value by its distinct parts, each a `const` defined once after the
//!   registers (so a tree of 2^60 shared conses takes 60 lines).
//!
//! Hand-laid blocks hold exactly what they say, so assembling the text gives
//! back the same registers (limits and contents), names and labels. Names
//! the language cannot spell (empty, reserved words, repeated) become
//! `rN`. A register whose contents do not fit its limit (possible only in an
//! image not made by the assembler) cannot be written back; a comment says
//! so.

use super::ast::KEYWORDS;
use super::show;
use crate::encoding::Decode;
use crate::image::Image;
use crate::machine::Instruction;
use crate::tree::{NodeTable, Tree, trees_from_nodes};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Longest value written as a readable literal; longer ones use `bits`.
const READABLE_CHARS: usize = 2000;

/// The source text of an image.
pub fn disassemble(image: &Image) -> String {
    let names = names(image);
    let mut out = String::new();
    let files = image.files.len();
    let _ = writeln!(
        out,
        "; disassembled from an image built by {} from {files} file{} (sources hash {})",
        image.compiler,
        if files == 1 { "" } else { "s" },
        image.sources_hash
    );
    let _ = writeln!(
        out,
        "; every register in index order; code is laid out by hand (`block`)"
    );
    let mut tails = Tails::new(image);
    // Code is written as blocks (not `in` or `out`: the engine writes
    // them), everything else as values.
    let layouts: Vec<_> = (0..image.registers.len())
        .map(|i| code_layout(image, i, &mut tails).filter(|_| i != 1 && i != 2))
        .collect();
    let values: Vec<&Tree> = image
        .registers
        .iter()
        .zip(&layouts)
        .filter(|(_, layout)| layout.is_none())
        .map(|(r, _)| &r.contents)
        .collect();
    let large = LargeValues::new(image, &names, &values);
    let mut labels_written: HashSet<&str> = HashSet::new();
    for (i, reg) in image.registers.iter().enumerate() {
        out.push('\n');
        if !reg.contents.fits(reg.limit) {
            let _ = writeln!(
                out,
                "; NOTE: r{i} holds {} conses, more than its limit {}: the assembler cannot write this back",
                reg.contents.size(),
                reg.limit
            );
        }
        let header = match i {
            0..=2 => names[i].clone(),
            _ => format!("{} @{i}", names[i]),
        };
        match &layouts[i] {
            Some((instrs, tail)) => {
                let _ = writeln!(out, "block {header} {}", reg.limit);
                // Labels at every offset, up to the tail.
                for offset in 0..=instrs.len() {
                    for label in image
                        .labels
                        .iter()
                        .filter(|l| l.register == i && l.offset == offset)
                    {
                        if writable_label(&label.name, i, &names)
                            && labels_written.insert(&label.name)
                        {
                            let _ = writeln!(out, "{}:", label.name);
                        }
                    }
                    if let Some(instr) = instrs.get(offset) {
                        let _ = writeln!(out, "    {}", show::instruction(*instr, &names));
                    }
                }
                if let Some(t) = tail {
                    let _ = writeln!(out, "    tail {}", names[*t]);
                }
                let _ = writeln!(out, "end");
            }
            _ => {
                let _ = write!(out, "reg {header} {}", reg.limit);
                if reg.contents.is_cons() {
                    let _ = write!(out, " = {}", large.value(&reg.contents));
                }
                out.push('\n');
            }
        }
    }
    large.write_definitions(&mut out);
    if let Some(c) = image.callstack {
        let _ = writeln!(out, "\ncallstack {}, {}", names[c.stack], names[c.link]);
    }
    let lost: Vec<&str> = image
        .labels
        .iter()
        .map(|l| l.name.as_str())
        .filter(|l| !labels_written.contains(l))
        .collect();
    if !lost.is_empty() {
        let _ = writeln!(
            out,
            "\n; labels that cannot be written here: {}",
            lost.join(", ")
        );
    }
    out
}

/// Whether a name can be written as a name in source.
fn spellable(name: &str) -> bool {
    let mut chars = name.chars();
    // A leading `.` would make it local to the label before it.
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !KEYWORDS.contains(&name)
}

/// A name for every register: its own when the language can spell it and no
/// earlier register has it, else `rN`.
fn names(image: &Image) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::new();
    let own: HashSet<&str> = image.registers.iter().map(|r| r.name.as_str()).collect();
    image
        .registers
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let predeclared = ["prog", "in", "out"];
            let name = if i < 3 {
                predeclared[i].to_string()
            } else if spellable(&r.name)
                && !predeclared.contains(&r.name.as_str())
                && !taken.contains(&r.name)
            {
                r.name.clone()
            } else {
                let mut n = format!("r{i}");
                while taken.contains(&n) || own.contains(n.as_str()) {
                    n.push('_');
                }
                n
            };
            taken.insert(name.clone());
            name
        })
        .collect()
}

/// A label can be written inside register `i`'s block if the language can
/// spell it and it does not name another register.
fn writable_label(label: &str, i: usize, names: &[String]) -> bool {
    spellable(label) && names.iter().enumerate().all(|(k, n)| n != label || k == i)
}

/// Registers by contents: for every tree some register holds (compared by
/// structure, through a node table's ids), the registers holding it.
struct Tails {
    table: NodeTable,
    holders: HashMap<u64, Vec<usize>>,
}

impl Tails {
    fn new(image: &Image) -> Tails {
        let mut table = NodeTable::default();
        let mut holders: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, r) in image.registers.iter().enumerate() {
            if r.contents.is_cons() {
                holders.entry(table.id(&r.contents)).or_default().push(i);
            }
        }
        Tails { table, holders }
    }

    /// A register other than `i` holding exactly this tree, that register
    /// `i`'s block may end with: any, past the first instruction (the rest
    /// is smaller, so tails never loop); at the start, one written as data
    /// or an earlier register, `prog` counting as the last (so `prog` is
    /// written as the code of the label it starts with).
    fn tail_for(&mut self, image: &Image, i: usize, tree: &Tree, at_start: bool) -> Option<usize> {
        if tree.is_nil() {
            return None;
        }
        let id = self.table.id(tree);
        self.holders
            .get(&id)?
            .iter()
            .copied()
            .find(|&t| t != i && (!at_start || rank(t) < rank(i) || !image.is_code(t)))
    }
}

/// The order in which registers may start with another's code: `prog`
/// last.
fn rank(i: usize) -> usize {
    if i == 0 { usize::MAX } else { i }
}

/// Register `i` as code: its instructions up to where its list goes on with
/// another register's contents (and that register), if it is code whose
/// operands all name registers of the image.
fn code_layout(
    image: &Image,
    i: usize,
    tails: &mut Tails,
) -> Option<(Vec<Instruction>, Option<usize>)> {
    if !image.is_code(i) {
        return None;
    }
    let count = image.registers.len() as i64;
    let mut instrs = Vec::new();
    let mut rest: &Tree = &image.registers[i].contents;
    // Labels of this register must stay in its block, before any tail.
    let last_label = image
        .labels
        .iter()
        .filter(|l| l.register == i)
        .map(|l| l.offset)
        .max()
        .unwrap_or(0);
    loop {
        if instrs.len() >= last_label
            && let Some(t) = tails.tail_for(image, i, rest, instrs.is_empty())
        {
            return Some((instrs, Some(t)));
        }
        let Some((front, back)) = rest.split() else {
            return Some((instrs, None));
        };
        // Only instructions written the way the assembler writes them (a
        // non-canonical encoding stays data).
        let instr =
            Instruction::decode(front).filter(|i| &crate::encoding::Encode::encode(i) == front)?;
        let operands = match instr {
            Instruction::Nilify(a) => vec![a],
            Instruction::Construct(a, b, c)
            | Instruction::Deconstruct(a, b, c)
            | Instruction::CopyIfNil(a, b, c) => vec![a, b, c],
        };
        if operands.iter().any(|r| !(0..count).contains(r)) {
            return None;
        }
        instrs.push(instr);
        rest = back;
    }
}

/// Values written as literals (a tree too large for one as `const`
/// definitions, each shared subtree defined once).
///
/// A value of at most [`READABLE_CHARS`] characters is a literal. A larger
/// tree is written by its distinct subtrees (a node table gives equal
/// subtrees one id), each written once: a small one as a literal where it
/// is used; one whose large parts are used nowhere else as a `bits("...")`
/// string, as long as its distinct nodes (small literals aside); any other
/// as a list along its right spine, `[FRONT, FRONT, ... | BACK]`, whose
/// large fronts and shared backs are constants of their own. A subtree used
/// more than once is a constant. The text grows with the number of distinct
/// nodes, never with the logical size: 60 doubling conses (2^60 logical
/// ones) are 60 short lines.
struct LargeValues {
    /// The trees by id (0 is Nil), and the ids of their halves.
    trees: Vec<Tree>,
    halves: Vec<(usize, usize)>,
    /// The id of each large value written, by node.
    ids: HashMap<usize, usize>,
    /// Per id: how it is written where it is used.
    form: Vec<Form>,
    /// Per id: whether its halves are literals or bits strings (so it is
    /// one bits string, as long as its distinct nodes, small literals
    /// aside).
    alone: Vec<bool>,
    /// The prefix of the constants' names (no register or label starts
    /// with it).
    prefix: String,
}

/// How a subtree of a large value is written where it is used.
#[derive(Debug, Clone, PartialEq)]
enum Form {
    /// A literal of at most [`ELEMENT_CHARS`] characters.
    Literal(String),
    /// A bits string: used once, and its halves are literals or bits
    /// strings.
    Bits,
    /// The name of a constant.
    Constant,
    /// Used once, as the back of a larger tree: written on the same list
    /// as that tree, in its constant.
    Spine,
}

/// Longest literal written inside a constant's definition.
const ELEMENT_CHARS: usize = 64;

impl LargeValues {
    /// The forms of the given values' parts (names are the registers',
    /// which the constants' names must not start like).
    fn new(image: &Image, names: &[String], values: &[&Tree]) -> LargeValues {
        let mut table = NodeTable::default();
        let mut roots = Vec::new();
        for tree in values {
            if show::literal(tree, READABLE_CHARS).is_none() {
                roots.push((tree.node_id(), table.id(tree) as usize));
            }
        }
        let nodes = table.into_nodes();
        let trees = trees_from_nodes(&nodes).expect("a node table refers to earlier nodes only");
        let halves: Vec<(usize, usize)> = nodes
            .iter()
            .map(|&(f, b)| (f as usize, b as usize))
            .collect();
        // References to each id: from the registers, and as a half.
        let mut references = vec![0u32; trees.len()];
        let mut backs = vec![false; trees.len()];
        for &(_, id) in &roots {
            references[id] = references[id].saturating_add(1);
        }
        for &(f, b) in &halves {
            references[f] = references[f].saturating_add(1);
            references[b] = references[b].saturating_add(1);
            backs[b] = true;
        }
        let mut form = vec![Form::Literal("nil".into()); trees.len()];
        let mut alone = vec![false; trees.len()];
        for id in 1..trees.len() {
            let (f, b) = halves[id - 1];
            alone[id] = [f, b]
                .iter()
                .all(|&h| matches!(form[h], Form::Literal(_) | Form::Bits));
            form[id] = match show::literal(&trees[id], ELEMENT_CHARS) {
                Some(text) => Form::Literal(text),
                None if references[id] == 1 && alone[id] => Form::Bits,
                None if references[id] == 1 && backs[id] => Form::Spine,
                None => Form::Constant,
            };
        }
        let taken = |p: &str| {
            names.iter().any(|n| n.starts_with(p))
                || image.labels.iter().any(|l| l.name.starts_with(p))
        };
        let mut prefix = String::from("_t");
        while taken(&prefix) {
            prefix.push('_');
        }
        LargeValues {
            trees,
            halves,
            ids: roots.into_iter().collect(),
            form,
            alone,
            prefix,
        }
    }

    /// A value given to [`LargeValues::new`]: a literal, or the text that
    /// gives the large tree.
    fn value(&self, tree: &Tree) -> String {
        match self.ids.get(&tree.node_id()) {
            Some(&id) => self.inline(id),
            None => show::literal(tree, READABLE_CHARS).expect("a large value has an id"),
        }
    }

    /// A subtree where it is used.
    fn inline(&self, id: usize) -> String {
        match &self.form[id] {
            Form::Literal(text) => text.clone(),
            Form::Bits => format!("bits(\"{}\")", self.trees[id].to_bits()),
            Form::Constant | Form::Spine => format!("{}{id}", self.prefix),
        }
    }

    /// The constants, each after the ones it uses.
    fn write_definitions(&self, out: &mut String) {
        let constants: Vec<usize> = (1..self.trees.len())
            .filter(|&id| self.form[id] == Form::Constant)
            .collect();
        if constants.is_empty() {
            return;
        }
        let _ = writeln!(
            out,
            "\n; values too large to write out, by their distinct parts"
        );
        for id in constants {
            if self.alone[id] {
                let bits = self.trees[id].to_bits();
                let _ = writeln!(out, "const {}{id} = bits(\"{bits}\")", self.prefix);
                continue;
            }
            let mut items = Vec::new();
            let mut at = id;
            let back = loop {
                let (front, back) = self.halves[at - 1];
                items.push(self.inline(front));
                if self.form[back] == Form::Spine {
                    at = back;
                } else {
                    break back;
                }
            };
            let tail = match back {
                0 => String::new(),
                b => format!(" | {}", self.inline(b)),
            };
            let _ = writeln!(
                out,
                "const {}{id} = [{}{tail}]",
                self.prefix,
                items.join(", ")
            );
        }
    }
}

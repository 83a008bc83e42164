//! Registers as values: paths into trees and the formats of `print`.
//!
//! `print PATH [/FORMAT]` names a register and steps into its tree
//! ([`parse_path`], [`follow`]) and shows the value in one of the formats
//! of [`Format`] ([`show`]).
//!
//! Every printer is bounded: trees are walked with explicit loops (never
//! recursion), lists are shown up to a fixed number of elements, texts up
//! to a fixed number of characters, and the readings of [`show::guess`]
//! (which cost time proportional to a tree's logical size) are tried only
//! on trees small enough. A tree of 2^60 logical conses sharing a few dozen
//! nodes prints as fast as a small one, and a 10^7-deep tree does not
//! overflow the stack.

use crate::asm::{listing, show};
use crate::encoding::{Decode, Encode};
use crate::image::{CodeIndex, Image};
use crate::machine::{Instruction, Register};
use crate::tree::Tree;
use crate::world::{Color, Command, Direction, Frame, Item, Processor};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;

/// Characters of the readable form in a one-line description.
const AUTO_CHARS: usize = 100;
/// Characters of an element's description in a list.
const ELEMENT_CHARS: usize = 80;
/// Characters of the readable form of something that is not an item.
const ITEM_CHARS: usize = 30;
/// Characters of the `/tree` form.
const TREE_CHARS: usize = 4000;
/// Characters of the `/bits` form.
const BITS_CHARS: usize = 4000;
/// Elements shown by `/list` (and by lists inside `/input`, `/command`).
const LIST_SHOWN: usize = 50;
/// Elements of a list shown in `/input` before giving up on one whose
/// elements do not decode.
const BAD_SHOWN: usize = 3;
/// Items shown in one robot's inventory in `/input`.
const INVENTORY_SHOWN: usize = 20;
/// Destroyed robots shown in `/input`.
const FALLEN_SHOWN: usize = 10;
/// Instructions listed by `/instr`.
const INSTR_SHOWN: usize = 200;
/// Trees up to this logical size are described by [`show::guess`].
const GUESS_SIZE: u64 = 1 << 22;
/// Elements up to this logical size are described by [`show::guess`].
const ELEMENT_GUESS_SIZE: u64 = 100_000;
/// Ints with a longer spine are not read (a canonical Int has at most 65).
const INT_SPINE: usize = 4096;

// ---------------------------------------------------------------------------
// Formats.

/// How `print` shows a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// What the tree reads as ([`show::guess`]) and its size.
    #[default]
    Auto,
    /// The readable list form (`[[], [[]]]`).
    Tree,
    /// The preorder bit string (`1` Cons, `0` Nil).
    Bits,
    /// The report's Int, saying when the form is not canonical.
    Int,
    /// One element per line.
    List,
    /// A command, as the engine reads the output register.
    Command,
    /// Code: one instruction per line, with source locations when known.
    Instr,
    /// The robot's input, the report's 5-tuple, as a report.
    Input,
}

impl Format {
    /// The names, for completion and help, without their slash (typed
    /// after `print PATH` as `/auto`, `/tree`, ...).
    pub const NAMES: [&'static str; 8] = [
        "auto", "tree", "bits", "int", "list", "command", "instr", "input",
    ];

    /// Every format, in the order of [`Format::NAMES`].
    const ALL: [Format; 8] = [
        Format::Auto,
        Format::Tree,
        Format::Bits,
        Format::Int,
        Format::List,
        Format::Command,
        Format::Instr,
        Format::Input,
    ];

    /// Parses `/auto`, `/tree`, `/bits`, `/int`, `/list`, `/command`,
    /// `/instr`, `/input` (also without the slash); otherwise an error
    /// that lists the formats.
    pub fn parse(text: &str) -> Result<Format, String> {
        let text = text.trim();
        let bare = text.strip_prefix('/').unwrap_or(text);
        Format::NAMES
            .iter()
            .position(|n| *n == bare)
            .map(|i| Format::ALL[i])
            .ok_or_else(|| {
                let names: Vec<String> = Format::ALL.iter().map(Format::to_string).collect();
                format!("unknown format `{text}`: use one of {}", names.join(", "))
            })
    }

    /// The name without its slash (`auto`).
    pub fn name(self) -> &'static str {
        Format::NAMES[self as usize]
    }
}

impl fmt::Display for Format {
    /// The name as typed, with its slash (`/auto`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}", self.name())
    }
}

// ---------------------------------------------------------------------------
// Paths.

/// A register of the machine, by name or number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegisterRef {
    /// Register number N (typed `N` or `rN`).
    Index(usize),
    /// A register name of the program (`in`, `list.a`).
    Name(String),
}

impl fmt::Display for RegisterRef {
    /// `rN` for a number, the name otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterRef::Index(i) => write!(f, "r{i}"),
            RegisterRef::Name(n) => f.write_str(n),
        }
    }
}

/// A step into a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `.N`: element N of a list (the front after N backs); also component
    /// N of a tuple (but the last component of a tuple is a tail: use `~N`).
    Element(usize),
    /// `~N`: the tree after N backs (the last component of an N+1-tuple;
    /// `~0` is the tree itself).
    Tail(usize),
    /// `.f` (also `.front`): the front of a cons.
    Front,
    /// `.b` (also `.back`): the back of a cons.
    Back,
}

impl fmt::Display for Step {
    /// As typed: `.N`, `.~N`, `.f`, `.b`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Element(n) => write!(f, ".{n}"),
            Step::Tail(n) => write!(f, ".~{n}"),
            Step::Front => f.write_str(".f"),
            Step::Back => f.write_str(".b"),
        }
    }
}

/// `REG` followed by steps: `in.1.0` is component 1 of the input tuple,
/// element 0 of that list; `in.~4` is the 5th (last) component of the input
/// 5-tuple (the private input); `r7.f.b` front then back of register 7; `3`
/// or `r3` register 3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// The register the path starts from.
    pub register: RegisterRef,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

impl fmt::Display for Path {
    /// The path as it can be typed again (`in.1.0`, `r7.f.b`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.register)?;
        self.steps.iter().try_for_each(|s| write!(f, "{s}"))
    }
}

/// Parses a path. Register names may contain dots (`list.a`, `int.x`), so
/// the register is the longest prefix, ending before a `.` or `~` (or at
/// the end), that is one of `register_names`: `list.a.0` is register
/// `list.a`, step `.0`. When no prefix is a name, the path must start with
/// a number `N` or `rN`. Steps are `.N`, `.~N` (or `~N`), `.f`, `.front`,
/// `.b`, `.back`.
pub fn parse_path(text: &str, register_names: &[String]) -> Result<Path, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("empty path: {PATH_HELP}"));
    }
    let (register, rest) = parse_register(text, register_names)?;
    let steps = parse_steps(rest).map_err(|e| format!("`{text}`: {e}"))?;
    Ok(Path { register, steps })
}

const PATH_HELP: &str = "give a register (its name, its number N or rN) followed by \
    steps: .N (element N), .~N (the tree after N backs), .f (front), .b (back)";

/// The register at the start of a path, and the text of the steps.
fn parse_register<'t>(text: &'t str, names: &[String]) -> Result<(RegisterRef, &'t str), String> {
    let ends = text
        .char_indices()
        .filter(|&(_, c)| c == '.' || c == '~')
        .map(|(i, _)| i)
        .chain([text.len()]);
    let ends: Vec<usize> = ends.collect();
    if let Some(&end) = ends
        .iter()
        .rev()
        .find(|&&end| names.iter().any(|n| n == &text[..end]))
    {
        return Ok((RegisterRef::Name(text[..end].to_string()), &text[end..]));
    }
    let first = &text[..ends[0]];
    let digits = first.strip_prefix('r').unwrap_or(first);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let index = digits
            .parse()
            .map_err(|_| format!("register number `{first}` is too large"))?;
        return Ok((RegisterRef::Index(index), &text[ends[0]..]));
    }
    if first.is_empty() {
        return Err(format!("`{text}` names no register: {PATH_HELP}"));
    }
    Err(format!("no register named `{first}`: {PATH_HELP}"))
}

/// The steps of a path (the text after its register, which starts with
/// `.` or `~`).
fn parse_steps(mut text: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    while !text.is_empty() {
        let body = match text.strip_prefix('.') {
            Some(body) => body,
            None if text.starts_with('~') => text,
            None => return Err(format!("expected a step at `{text}`: {PATH_HELP}")),
        };
        // A step runs to the next separator; its own leading `~` belongs to it.
        let skip = usize::from(body.starts_with('~'));
        let end = body[skip..]
            .find(['.', '~'])
            .map_or(body.len(), |i| i + skip);
        steps.push(parse_step(&body[..end])?);
        text = &body[end..];
    }
    Ok(steps)
}

/// One step without its leading dot: `3`, `~3`, `f`, `front`, `b`, `back`.
fn parse_step(word: &str) -> Result<Step, String> {
    let number = |digits: &str| -> Option<usize> {
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())
            .flatten()
    };
    match word {
        "f" | "front" => Ok(Step::Front),
        "b" | "back" => Ok(Step::Back),
        _ => match word.strip_prefix('~') {
            Some(digits) => number(digits).map(Step::Tail),
            None => number(word).map(Step::Element),
        }
        .ok_or_else(|| format!("`{word}` is not a step: {PATH_HELP}")),
    }
}

/// Follows the steps from the register's tree. Errors say which step met
/// Nil: `in.1.3: the list has only 3 elements`, `r4.f: r4 is Nil`,
/// `in.~7: in is Nil after 4 backs`.
pub fn follow(tree: &Tree, path: &Path) -> Result<Tree, String> {
    let mut current = tree;
    let mut shown = path.register.to_string();
    for step in &path.steps {
        let here = format!("{shown}{step}");
        current = take_step(current, *step).map_err(|why| match why {
            Missing::Nil => format!("{here}: {shown} is Nil"),
            Missing::Elements(n) => {
                format!("{here}: the list has only {}", count(n as u64, "element"))
            }
            Missing::Backs(n) => {
                format!("{here}: {shown} is Nil after {}", count(n as u64, "back"))
            }
        })?;
        shown = here;
    }
    Ok(current.clone())
}

/// Why a step could not be taken.
enum Missing {
    /// The tree is Nil.
    Nil,
    /// The list has only this many elements (at least 1).
    Elements(usize),
    /// The tree is Nil after this many backs (at least 1).
    Backs(usize),
}

fn take_step(tree: &Tree, step: Step) -> Result<&Tree, Missing> {
    match step {
        Step::Front => tree.front().ok_or(Missing::Nil),
        Step::Back => tree.back().ok_or(Missing::Nil),
        Step::Element(n) => backs(tree, n).ok().and_then(Tree::front).ok_or_else(|| {
            match tree.iter_list().take(n).count() {
                0 => Missing::Nil,
                k => Missing::Elements(k),
            }
        }),
        Step::Tail(n) => backs(tree, n).map_err(|k| match k {
            0 => Missing::Nil,
            k => Missing::Backs(k),
        }),
    }
}

/// The tree after `n` backs, or the number of backs taken before Nil.
fn backs(tree: &Tree, n: usize) -> Result<&Tree, usize> {
    let mut t = tree;
    for k in 0..n {
        t = t.back().ok_or(k)?;
    }
    Ok(t)
}

// ---------------------------------------------------------------------------
// Showing values.

/// What the printers need to know.
#[derive(Debug, Clone, Copy, Default)]
pub struct ViewContext<'a> {
    /// The robot's image (symbols, source map), if it has one.
    pub image: Option<&'a Image>,
    /// The register names (index = register number), for instruction
    /// listings.
    pub register_names: &'a [String],
    /// The input register's limit (to explain where the engine cut the
    /// input short).
    pub input_limit: Option<i64>,
}

/// The text `print` shows (may be several lines; no trailing newline).
/// Errors when the tree cannot be read in the format: `/int` on a tree that
/// is not an Int, `/command` on one that is not a command.
pub fn show(tree: &Tree, format: Format, ctx: &ViewContext) -> Result<String, String> {
    match format {
        Format::Auto => Ok(auto(tree)),
        Format::Tree => Ok(readable(tree)),
        Format::Bits => Ok(bits(tree)),
        Format::Int => int(tree),
        Format::List => Ok(list(tree)),
        Format::Command => command(tree),
        Format::Instr => Ok(instructions(tree, ctx)),
        Format::Input => Ok(input(tree, ctx)),
    }
}

/// `n conses`, `1 cons`; the saturated size says "at least".
fn conses(n: u64) -> String {
    match n {
        u64::MAX => format!("at least {n} conses"),
        _ => count(n, "cons"),
    }
}

/// `n things`, `1 thing`.
fn count(n: u64, thing: &str) -> String {
    let plural = match (n, thing.ends_with('s')) {
        (1, _) => "",
        (_, true) => "es",
        _ => "s",
    };
    format!("{n} {thing}{plural}")
}

/// A short description: [`show::guess`] when the tree is small enough
/// (`guess` costs time in proportion to the logical size), else a bounded
/// one.
fn describe(tree: &Tree, max: usize, guess_size: u64) -> String {
    if tree.size() <= guess_size {
        return show::guess(tree, max);
    }
    match decode_command(tree) {
        Ok(Command::Build(_, memory)) => {
            format!("command Build ({})", count(memory.len() as u64, "register"))
        }
        _ => tree.readable().limit(max).to_string(),
    }
}

/// A one-line description of a value (what `info registers` and
/// watchpoints show): bounded work whatever the tree's logical size.
pub fn summary(tree: &Tree, max: usize) -> String {
    describe(tree, max, GUESS_SIZE)
}

/// A description for an element of a list.
fn element(tree: &Tree) -> String {
    describe(tree, ELEMENT_CHARS, ELEMENT_GUESS_SIZE)
}

/// `/auto`: what the tree reads as, and its size.
fn auto(tree: &Tree) -> String {
    format!(
        "{}   [{}]",
        describe(tree, AUTO_CHARS, GUESS_SIZE),
        conses(tree.size())
    )
}

/// `/tree`: the readable form, cut with `…` and the size past
/// [`TREE_CHARS`].
fn readable(tree: &Tree) -> String {
    let text = tree.readable().limit(TREE_CHARS).to_string();
    if text.ends_with('…') {
        format!("{text} ({})", conses(tree.size()))
    } else {
        text
    }
}

/// `/bits`: the preorder bit string, cut with `… (N conses)` past
/// [`BITS_CHARS`].
fn bits(tree: &Tree) -> String {
    let out = tree.bits_prefix(BITS_CHARS);
    // The whole string has a `1` per cons and a `0` per Nil leaf.
    if (out.len() as u64) < tree.size().saturating_mul(2).saturating_add(1) {
        format!("{out}… ({})", conses(tree.size()))
    } else {
        out
    }
}

/// The number of elements of a list (bounded by the nodes in memory: a
/// spine never repeats a node).
fn length(tree: &Tree) -> usize {
    tree.list_len()
}

/// `… N more` after the first `shown` elements of a list, if it has more.
fn more(tree: &Tree, shown: usize) -> Option<String> {
    let rest = tree.iter_list_from(shown);
    rest.is_cons().then(|| format!("… {} more", length(rest)))
}

// ---------------------------------------------------------------------------
// /int

/// An Int as the engine reads it, when its spine is short enough to be
/// worth reading (every canonical Int is).
fn small_int(tree: &Tree) -> Option<i64> {
    (tree.iter_list().take(INT_SPINE + 1).count() <= INT_SPINE)
        .then(|| i64::decode(tree))
        .flatten()
}

/// `/int`: the value, and why the form is not canonical when it is not.
fn int(tree: &Tree) -> Result<String, String> {
    let Some(n) = i64::decode(tree) else {
        return Err(format!("not an Int: {}", why_not_int(tree)));
    };
    if n.encode() == *tree {
        return Ok(n.to_string());
    }
    Ok(format!(
        "{n} (not canonical: {})",
        why_not_canonical(tree, n)
    ))
}

/// The negative tags at the head of an Int, and the bit list after them.
fn sign_and_bits(tree: &Tree) -> (usize, &Tree) {
    let tag = crate::encoding::int::negative_tag();
    let mut tags = 0;
    let mut t = tree;
    while let Some((front, back)) = t.split()
        && *front == tag
    {
        tags += 1;
        t = back;
    }
    (tags, t)
}

fn why_not_int(tree: &Tree) -> String {
    let (_, bit_list) = sign_and_bits(tree);
    let bad = bit_list
        .iter_list()
        .enumerate()
        .find(|(_, b)| bool::decode(b).is_none());
    match bad {
        Some((k, b)) => format!(
            "bit {k} is {}, not 0 (Nil) or 1 (Cons Nil Nil)",
            b.readable().limit(ELEMENT_CHARS)
        ),
        None => "it does not read as a bit list".to_string(),
    }
}

fn why_not_canonical(tree: &Tree, n: i64) -> String {
    let (tags, bit_list) = sign_and_bits(tree);
    let (mut length, mut last_one) = (0usize, None);
    for (k, bit) in bit_list.iter_list().enumerate() {
        length = k + 1;
        if bit.is_cons() {
            last_one = Some(k);
        }
    }
    let mut reasons = Vec::new();
    if tags >= 2 {
        reasons.push(format!("{tags} negative tags (they cancel in pairs)"));
    }
    if tags % 2 == 1 && last_one.is_none() {
        reasons.push("a negative tag on 0".to_string());
    }
    let trailing = length - last_one.map_or(0, |k| k + 1);
    if trailing > 0 {
        reasons.push(count(trailing as u64, "trailing zero bit"));
    }
    if last_one.is_some_and(|k| k >= 64) {
        reasons.push("bits at positions 64 and above, which GHC's Int drops".to_string());
    }
    if reasons.is_empty() {
        reasons.push(format!("the engine writes {n} as {}", bits(&n.encode())));
    }
    reasons.join(", ")
}

// ---------------------------------------------------------------------------
// /list

/// `/list`: `[k] <description>` per element, at most [`LIST_SHOWN`].
fn list(tree: &Tree) -> String {
    if tree.is_nil() {
        return "[] (the empty list)".to_string();
    }
    let mut lines: Vec<String> = tree
        .iter_list()
        .take(LIST_SHOWN)
        .enumerate()
        .map(|(k, e)| format!("[{k}] {}", element(e)))
        .collect();
    lines.extend(more(tree, LIST_SHOWN));
    lines.join("\n")
}

// ---------------------------------------------------------------------------
// /command

/// `/command`: the command the engine would read from this tree.
fn command(tree: &Tree) -> Result<String, String> {
    let decoded = if tree.size() <= GUESS_SIZE {
        Command::decode(tree).ok_or_else(|| why_not_command(tree))
    } else {
        decode_command(tree)
    };
    let c = decoded.map_err(|why| format!("not a command (the engine reads Invalid): {why}"))?;
    let mut text = match &c {
        Command::Build(items, memory) => build(items, memory),
        other => show::command(other).unwrap_or_default(),
    };
    if c.encode() != *tree {
        text.push_str("   (not canonical: the engine reads it as this command)");
    }
    Ok(text)
}

/// Why the engine does not read a tree as a command.
fn why_not_command(tree: &Tree) -> String {
    decode_command(tree)
        .err()
        .unwrap_or_else(|| "an Int in it is too long to read".to_string())
}

/// `Build from items [..] with N registers:` and the registers.
fn build(items: &[i64], memory: &[Register]) -> String {
    let mut lines = vec![format!(
        "Build from items {} with {}:",
        int_list(items),
        count(memory.len() as u64, "register")
    )];
    lines.extend(registers(memory.iter().map(|r| (r.limit, &r.contents))));
    if memory.len() > LIST_SHOWN {
        lines.push(format!("  … {} more", memory.len() - LIST_SHOWN));
    }
    lines.join("\n")
}

/// `  [k] limit L: <description>` for the first [`LIST_SHOWN`] registers.
fn registers<'t>(regs: impl Iterator<Item = (i64, &'t Tree)>) -> Vec<String> {
    regs.take(LIST_SHOWN)
        .enumerate()
        .map(|(k, (limit, contents))| format!("  [{k}] limit {limit}: {}", element(contents)))
        .collect()
}

/// `[0, 1, 2]`, at most [`LIST_SHOWN`] numbers.
fn int_list(ns: &[i64]) -> String {
    let shown: Vec<String> = ns.iter().take(LIST_SHOWN).map(i64::to_string).collect();
    let more = if ns.len() > LIST_SHOWN { ", …" } else { "" };
    format!("[{}{more}]", shown.join(", "))
}

/// The report's command decoding, with the reason when it fails. Ints
/// with a spine longer than [`INT_SPINE`] are not read.
fn decode_command(tree: &Tree) -> Result<Command, String> {
    let (tag, arg) = tree
        .split()
        .ok_or("Nil is no command (an empty output register)")?;
    let tag = small_int(tag).ok_or("its tag (the front) is not an Int")?;
    let index = |name: &str| small_int(arg).ok_or(format!("{name} needs an Int argument"));
    match tag {
        0 => small_int(arg)
            .and_then(Direction::from_index)
            .map(Command::Move)
            .ok_or_else(|| "Move needs a direction (an Int 0..7) as argument".to_string()),
        1 => index("Lift").map(Command::Lift),
        2 => index("Drop").map(Command::Drop),
        3 => index("Inspect").map(Command::Inspect),
        4 => index("Destroy").map(Command::Destroy),
        5 => decode_build(arg),
        6 if arg.is_nil() => Ok(Command::Pass),
        6 => Err("Pass needs Nil as argument".to_string()),
        n => Err(format!(
            "tag {n} is no command (0 Move, 1 Lift, 2 Drop, 3 Inspect, 4 Destroy, 5 Build, 6 Pass)"
        )),
    }
}

fn decode_build(arg: &Tree) -> Result<Command, String> {
    let (items, memory) = arg
        .split()
        .ok_or("Build needs (item indices, memory) as argument")?;
    let items = items
        .iter_list()
        .map(small_int)
        .collect::<Option<Vec<i64>>>()
        .ok_or("Build's item indices are not a list of Ints")?;
    let memory = memory
        .iter_list()
        .map(decode_register)
        .collect::<Option<Vec<Register>>>()
        .ok_or("Build's memory is not a list of registers (limit, contents)")?;
    Ok(Command::Build(items, memory))
}

fn decode_register(tree: &Tree) -> Option<Register> {
    let (limit, contents) = tree.split()?;
    Some(Register::new(small_int(limit)?, contents.clone()))
}

// ---------------------------------------------------------------------------
// /instr

/// Where the image's code came from: its code index and its labels by node.
struct Places<'a> {
    image: &'a Image,
    index: CodeIndex,
    labels: HashMap<usize, Vec<&'a str>>,
}

impl<'a> Places<'a> {
    /// Labels are the image's labels, and the names of the code registers
    /// where their code starts (blocks such as a macro's local labels),
    /// except the program register.
    fn new(image: &'a Image) -> Places<'a> {
        let mut labels: HashMap<usize, Vec<&str>> = HashMap::new();
        let starts = image.labels.iter().map(|l| (l.register, l.offset, &l.name));
        let blocks = (image.source_map.registers.iter())
            .filter(|m| m.register != crate::world::robot::PROGRAM)
            .filter_map(|m| Some((m.register, 0, &image.registers.get(m.register)?.name)));
        for (register, offset, name) in starts.chain(blocks) {
            let code = image
                .registers
                .get(register)
                .map(|r| r.contents.iter_list_from(offset))
                .filter(|c| c.is_cons());
            if let Some(code) = code {
                let names = labels.entry(code.node_id()).or_default();
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        Places {
            image,
            index: image.code_index(),
            labels,
        }
    }

    /// The source location of the code whose first instruction is the front
    /// of `code`.
    fn location(&self, code: &Tree) -> Option<String> {
        let (register, offset) = self.index.place(code)?;
        let l = self.image.location(register, offset)?;
        Some(listing::location(self.image, l))
    }

    /// The labels that start at `code`.
    fn labels(&self, code: &Tree) -> &[&'a str] {
        self.labels.get(&code.node_id()).map_or(&[], Vec::as_slice)
    }
}

/// `/instr`: one instruction per line with its offset and, when the image
/// knows this code, its labels and source location.
fn instructions(tree: &Tree, ctx: &ViewContext) -> String {
    if tree.is_nil() {
        return "Nil: no code (a machine with this program halts)".to_string();
    }
    let places = ctx.image.map(Places::new);
    let mut lines = Vec::new();
    let mut rest = tree;
    let mut offset = 0;
    while let Some((front, back)) = rest.split() {
        if offset == INSTR_SHOWN {
            lines.push(format!("… {} more", length(rest)));
            break;
        }
        if let Some(p) = &places {
            lines.extend(p.labels(rest).iter().map(|l| format!("{l}:")));
        }
        let Some(instr) = Instruction::decode(front) else {
            lines.push(format!(
                "{offset:>4}  {}   <- not an instruction: the machine fails here",
                element(front)
            ));
            break;
        };
        let text = show::instruction(instr, ctx.register_names);
        lines.push(match places.as_ref().and_then(|p| p.location(rest)) {
            Some(at) => format!("{offset:>4}  {text:<40} ; {at}"),
            None => format!("{offset:>4}  {text}"),
        });
        rest = back;
        offset += 1;
    }
    lines.join("\n")
}

// ---------------------------------------------------------------------------
// /input

/// The components of the input 5-tuple `(index, robots, actions, items,
/// private)`, `None` from the first one that is missing (the tuple has no
/// terminal Nil, so the private part is the rest after four fronts).
fn input_parts(tree: &Tree) -> [Option<&Tree>; 5] {
    let mut parts = [None; 5];
    let mut rest = tree;
    for part in parts.iter_mut().take(4) {
        let Some((front, back)) = rest.split() else {
            return parts;
        };
        *part = Some(front);
        rest = back;
    }
    parts[4] = Some(rest);
    parts
}

/// The names of the components, for notes.
const PART_NAMES: [&str; 5] = [
    "the index",
    "the robots",
    "the actions",
    "the items",
    "the private part",
];

/// What the input says about the robot that reads it.
struct Me {
    /// Its index in the robot and action lists.
    index: Option<usize>,
    /// The tag of its own action.
    tag: Option<i64>,
    /// Whether its last command was invalid (`None`: the private part that
    /// tells did not arrive).
    invalid: Option<bool>,
}

impl Me {
    fn new(tree: &Tree, parts: &[Option<&Tree>; 5], ctx: &ViewContext) -> Me {
        let index = parts[0]
            .and_then(small_int)
            .and_then(|i| usize::try_from(i).ok());
        let tag = parts[2]
            .zip(index)
            .and_then(|(actions, i)| actions.iter_list().nth(i))
            .and_then(Tree::front)
            .and_then(small_int);
        let invalid = parts[4]
            .filter(|p| p.is_cons() || left_in_limit(tree, ctx).is_none_or(|left| left >= 2))
            .map(|p| *p == 1i64.encode() && tag != Some(INSPECTED));
        Me {
            index,
            tag,
            invalid,
        }
    }
}

/// The tag of `Inspected` in the action list.
const INSPECTED: i64 = 11;

/// `/input`: the report's 5-tuple as a readable report, saying where it
/// stops early.
fn input(tree: &Tree, ctx: &ViewContext) -> String {
    let Some(index) = tree.front() else {
        return nothing_arrived(ctx);
    };
    let parts = input_parts(tree);
    let me = Me::new(tree, &parts, ctx);
    let mut lines = vec![match small_int(index) {
        Some(i) => format!("index {i}"),
        None => format!("index: {}", undecodable("not an Int", index)),
    }];
    for (p, part) in parts.iter().enumerate().skip(1) {
        let Some(part) = part else {
            lines.push(cut_note(tree, ctx, PART_NAMES[p]));
            break;
        };
        match p {
            1 => section(&mut lines, "robots", part, me.index, robot),
            2 => section(&mut lines, "actions", part, me.index, |k, t| {
                action(t, me.index == Some(k), me.invalid)
            }),
            3 => items(&mut lines, part),
            _ => private(&mut lines, part, &me, tree, ctx),
        }
    }
    lines.join("\n")
}

fn nothing_arrived(ctx: &ViewContext) -> String {
    let trimmed = ctx
        .input_limit
        .map(|l| {
            format!(
                ", or the engine trimmed it all to fit in {}",
                conses(l.max(0) as u64)
            )
        })
        .unwrap_or_default();
    format!("nothing: the input is Nil (no step has written it yet{trimmed})")
}

/// `(does not decode here: WHY: <description>)`.
fn undecodable(why: &str, tree: &Tree) -> String {
    format!("(does not decode here: {why}: {})", element(tree))
}

/// Where the input stops early. When the input register's limit is known
/// and the input fits it, the engine's `trim` explains it: `what` was the
/// first front that did not fit in what was left of the limit.
fn cut_note(tree: &Tree, ctx: &ViewContext, what: &str) -> String {
    match left_in_limit(tree, ctx) {
        Some(left) => format!(
            "(cut here: the engine trimmed the input to fit in {}; {what} did not fit \
             in the {left} left, and nothing after that arrived)",
            conses(tree.size() + left)
        ),
        None => format!("(does not decode here: the input ends before {what})"),
    }
}

/// A list as `title:` and `  [k] <line>` for its first elements, marking
/// this robot's.
fn section(
    lines: &mut Vec<String>,
    title: &str,
    list: &Tree,
    mine: Option<usize>,
    line: impl Fn(usize, &Tree) -> Result<String, String>,
) {
    if list.is_nil() {
        lines.push(format!("{title}: none"));
        return;
    }
    lines.push(format!("{title}:"));
    let (texts, more) = elements(list, LIST_SHOWN, |k, t| {
        let mark = if mine == Some(k) {
            "   <- this robot"
        } else {
            ""
        };
        let text = |l| format!("  [{k}] {l}{mark}");
        line(k, t).map(text).map_err(text)
    });
    lines.extend(texts);
    lines.extend(more.map(|m| format!("  {m}")));
}

/// The texts of a list's first elements, at most `max` of them and none
/// after the [`BAD_SHOWN`]-th that does not decode (`line` gives `Err`
/// for those), and `… N more` if some are left.
fn elements(
    list: &Tree,
    max: usize,
    line: impl Fn(usize, &Tree) -> Result<String, String>,
) -> (Vec<String>, Option<String>) {
    let mut texts = Vec::new();
    let mut bad = 0;
    for (k, t) in list.iter_list().enumerate() {
        if texts.len() == max || bad == BAD_SHOWN {
            break;
        }
        texts.push(line(k, t).unwrap_or_else(|text| {
            bad += 1;
            text
        }));
    }
    let rest = more(list, texts.len());
    (texts, rest)
}

/// A robot of the input: `RED 100 carrying [shield]`.
fn robot(_: usize, tree: &Tree) -> Result<String, String> {
    match tree.split() {
        Some((frame, inventory)) if let Some(frame) = decode_frame(frame) => Ok(format!(
            "{} {} carrying {}",
            frame.color.code(),
            frame.strength,
            item_list(inventory)
        )),
        _ => Err(undecodable(
            "not a robot ((colour, strength), inventory)",
            tree,
        )),
    }
}

/// An inventory: `nothing` or `[cargo 5 (weight 3), shield]`.
fn item_list(list: &Tree) -> String {
    if list.is_nil() {
        return "nothing".to_string();
    }
    let (mut texts, rest) = elements(list, INVENTORY_SHOWN, |_, t| item(t));
    texts.extend(rest);
    format!("[{}]", texts.join(", "))
}

/// An item: `cargo 5 (weight 3)`, `register 8 holding int 3`, ...
fn item(tree: &Tree) -> Result<String, String> {
    match decode_item(tree) {
        Some(Item::RegisterPart(r)) if r.contents.is_cons() => Ok(format!(
            "register {} holding {}",
            r.limit,
            element(&r.contents)
        )),
        Some(i) => Ok(i.to_string()),
        None => Err(format!(
            "(not an item: {})",
            tree.readable().limit(ITEM_CHARS)
        )),
    }
}

/// `Cargo` `(0, t, w)`, `RegisterPart` `(1, r)`, `ProcessorPart` `(2, p)`,
/// `FramePart` `(3, f)`, `Shield` `(4, Nil)`.
fn decode_item(tree: &Tree) -> Option<Item> {
    let (tag, arg) = tree.split()?;
    Some(match small_int(tag)? {
        0 => {
            let (kind, weight) = arg.split()?;
            Item::Cargo(small_int(kind)?, small_int(weight)?)
        }
        1 => Item::RegisterPart(decode_register(arg)?),
        2 => Item::ProcessorPart(Processor {
            speed: small_int(arg)?,
        }),
        3 => Item::FramePart(decode_frame(arg)?),
        4 if arg.is_nil() => Item::Shield,
        _ => return None,
    })
}

/// A frame `(colour, strength)`.
fn decode_frame(tree: &Tree) -> Option<Frame> {
    let (color, strength) = tree.split()?;
    let color = usize::try_from(small_int(color)?).ok()?;
    Some(Frame {
        color: *Color::ALL.get(color)?,
        strength: small_int(strength)?,
    })
}

/// An action of the input: `(tag, argument)`.
fn action(tree: &Tree, own: bool, invalid: Option<bool>) -> Result<String, String> {
    decode_action(tree, own, invalid)
        .ok_or_else(|| undecodable("not an action (tag, argument)", tree))
}

fn decode_action(tree: &Tree, own: bool, invalid: Option<bool>) -> Option<String> {
    let (tag, arg) = tree.split()?;
    let i = || small_int(arg);
    let d = || {
        small_int(arg)
            .and_then(Direction::from_index)
            .map(Direction::name)
    };
    let is = || {
        let ns = arg
            .iter_list()
            .map(small_int)
            .collect::<Option<Vec<i64>>>()?;
        Some(int_list(&ns))
    };
    Some(match small_int(tag)? {
        0 if arg.is_nil() => match (own, invalid) {
            (true, Some(true)) => "invalid command".to_string(),
            (true, Some(false)) => "passed".to_string(),
            _ => "passed or invalid".to_string(),
        },
        1 if arg.is_nil() => "created".to_string(),
        2 => format!("moved out {}", d()?),
        3 => format!("moved in from {}", d()?),
        4 => format!("move {} blocked by a wall", d()?),
        5 => format!("lifted item {}", i()?),
        6 => format!("too weak to lift item {}", i()?),
        7 => format!("grappled over item {}", i()?),
        8 if arg.is_nil() => "dropped an item".to_string(),
        9 => format!("inspect: robot {} fled", i()?),
        10 => format!("inspect: robot {}'s shields held", i()?),
        INSPECTED => format!("inspected robot {}", i()?),
        12 => format!("destroy: robot {} fled", i()?),
        13 => format!("destroy: robot {}'s shields held", i()?),
        14 => format!("destroyed robot {}", i()?),
        15 => format!("built a robot from items {}", is()?),
        16 => format!("build interrupted over items {}", is()?),
        _ => return None,
    })
}

/// The items `(unaffected, dropped, fallen)`, numbered as the next step's
/// item list `unaffected ++ dropped ++ (parts ++ carried of each fallen)`.
fn items(lines: &mut Vec<String>, tree: &Tree) {
    let triple = tree
        .split()
        .and_then(|(u, rest)| rest.split().map(|(d, f)| (u, d, f)));
    let Some((unaffected, dropped, fallen)) = triple else {
        let why = "not a triple (unaffected, dropped, fallen)";
        lines.push(format!("items: {}", undecodable(why, tree)));
        return;
    };
    lines.push("items (numbered as in the next step's item list):".to_string());
    let mut next = 0;
    lines.push(format!(
        "  unaffected: {}",
        numbered(unaffected, &mut next, LIST_SHOWN)
    ));
    lines.push(format!(
        "  dropped: {}",
        numbered(dropped, &mut next, LIST_SHOWN)
    ));
    if fallen.is_nil() {
        lines.push("  fallen: none".to_string());
    }
    for (k, robot) in fallen.iter_list().take(FALLEN_SHOWN).enumerate() {
        let text = match robot.split() {
            Some((parts, carried)) => format!(
                "parts {}; carried {}",
                numbered(parts, &mut next, INVENTORY_SHOWN),
                numbered(carried, &mut next, INVENTORY_SHOWN)
            ),
            None => undecodable("not a pair (parts, carried items)", robot),
        };
        lines.push(format!("  fallen robot {k}: {text}"));
    }
    lines.extend(more(fallen, FALLEN_SHOWN).map(|m| format!("  {m} fallen robots")));
}

/// `[n] item, [n+1] item` from `next` on, the first `shown` of them;
/// `next` moves past the list.
fn numbered(list: &Tree, next: &mut usize, shown: usize) -> String {
    if list.is_nil() {
        return "none".to_string();
    }
    let first = *next;
    let (mut texts, rest) = elements(list, shown, |k, t| {
        let number = |text| format!("[{}] {text}", first + k);
        item(t).map(number).map_err(number)
    });
    texts.extend(rest);
    *next += length(list);
    texts.join(", ")
}

/// The private part: `0`, `1` after an invalid command, or the inspected
/// robot's `(speed, count, registers)`.
fn private(lines: &mut Vec<String>, part: &Tree, me: &Me, tree: &Tree, ctx: &ViewContext) {
    let inspected = me.tag == Some(INSPECTED);
    if part.is_nil() && inspected {
        lines.push(format!(
            "private: {}",
            cut_note(tree, ctx, "the inspection")
        ));
    } else if part.is_nil() {
        lines.push(format!(
            "private: 0 (nothing to report){}",
            lost_one(tree, ctx)
        ));
    } else if me.invalid == Some(true) {
        lines.push("private: 1 (this robot's last command was invalid)".to_string());
    } else {
        inspection(lines, part, tree, ctx);
    }
}

/// A `1` (2 conses) is lost when fewer than 2 conses of the limit were left.
fn lost_one(tree: &Tree, ctx: &ViewContext) -> String {
    match left_in_limit(tree, ctx) {
        Some(left) if left < 2 => format!(
            " (or a 1 that the engine trimmed away: only {} of the limit was left)",
            conses(left)
        ),
        _ => String::new(),
    }
}

/// How much of the input register's limit the input leaves, when the limit
/// is known and the input fits it (so the engine's `trim` may have cut it).
fn left_in_limit(tree: &Tree, ctx: &ViewContext) -> Option<u64> {
    let limit = u64::try_from(ctx.input_limit?).ok()?;
    limit.checked_sub(tree.size())
}

/// An inspection `(speed, count, registers)`, maybe cut short.
fn inspection(lines: &mut Vec<String>, part: &Tree, tree: &Tree, ctx: &ViewContext) {
    let why = "neither 0, 1 nor an inspection (speed, register count, registers)";
    let Some((speed, rest)) = part.split() else {
        lines.push(format!("private: {}", undecodable(why, part)));
        return;
    };
    let Some(speed) = small_int(speed) else {
        lines.push(format!("private: {}", undecodable(why, part)));
        return;
    };
    let header = format!("private: inspected a robot: processor speed {speed}");
    let Some((count, registers)) = rest.split() else {
        lines.push(header);
        lines.push(format!("  {}", cut_note(tree, ctx, "the register count")));
        return;
    };
    let Some(count) = small_int(count) else {
        lines.push(format!("private: {}", undecodable(why, part)));
        return;
    };
    lines.push(format!("{header}, {}", count_i64(count, "register")));
    inspected_registers(lines, registers, count, tree, ctx);
}

/// `n things` for a count that may be negative.
fn count_i64(n: i64, thing: &str) -> String {
    match u64::try_from(n) {
        Ok(n) => count(n, thing),
        Err(_) => format!("{n} {thing}s"),
    }
}

fn inspected_registers(
    lines: &mut Vec<String>,
    list: &Tree,
    count: i64,
    tree: &Tree,
    ctx: &ViewContext,
) {
    for (k, r) in list.iter_list().take(LIST_SHOWN).enumerate() {
        lines.push(match decode_register(r) {
            Some(r) => format!("  [{k}] limit {}: {}", r.limit, element(&r.contents)),
            None => format!(
                "  [{k}] {}",
                undecodable("not a register (limit, contents)", r)
            ),
        });
    }
    lines.extend(more(list, LIST_SHOWN).map(|m| format!("  {m}")));
    let arrived = length(list);
    let arrived_i64 = i64::try_from(arrived).unwrap_or(i64::MAX);
    match arrived_i64.cmp(&count) {
        Ordering::Less => lines.push(format!(
            "  {}",
            cut_note(tree, ctx, &format!("register {arrived}"))
        )),
        Ordering::Greater => lines.push(format!(
            "  (does not decode here: {} for a count of {count})",
            count_i64(arrived_i64, "register")
        )),
        Ordering::Equal => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{Robot, Shape, Square, World, update_reported};

    fn ctx() -> ViewContext<'static> {
        ViewContext::default()
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn name(n: &str) -> RegisterRef {
        RegisterRef::Name(n.to_string())
    }

    fn path(register: RegisterRef, steps: &[Step]) -> Path {
        Path {
            register,
            steps: steps.to_vec(),
        }
    }

    fn view(tree: &Tree, format: Format) -> Result<String, String> {
        show(tree, format, &ctx())
    }

    #[test]
    fn formats_parse_with_or_without_slash() {
        assert_eq!(Format::parse("/auto"), Ok(Format::Auto));
        assert_eq!(Format::parse("input"), Ok(Format::Input));
        assert_eq!(Format::parse(" /instr "), Ok(Format::Instr));
        for (name, format) in Format::NAMES.iter().zip(Format::ALL) {
            assert_eq!(Format::parse(name), Ok(format));
            assert_eq!(format.name(), *name);
            assert_eq!(Format::parse(&format.to_string()), Ok(format));
            assert_eq!(format.to_string(), format!("/{name}"));
        }
        assert_eq!(
            Format::parse("/hex"),
            Err(
                "unknown format `/hex`: use one of /auto, /tree, /bits, /int, /list, \
                 /command, /instr, /input"
                    .to_string()
            )
        );
        assert!(Format::parse("").is_err());
        assert!(Format::parse("/").is_err());
        assert!(Format::parse("//auto").is_err());
    }

    #[test]
    fn paths_take_the_longest_register_name() {
        use Step::*;
        let names = strings(&["prog", "in", "out", "list", "list.a", "list.b", "spin.3"]);
        let p = |text: &str| parse_path(text, &names).unwrap();
        assert_eq!(p("in.1.0"), path(name("in"), &[Element(1), Element(0)]));
        assert_eq!(p("in.~4"), path(name("in"), &[Tail(4)]));
        assert_eq!(p("in~4"), path(name("in"), &[Tail(4)]));
        assert_eq!(
            p("in.1~2.f"),
            path(name("in"), &[Element(1), Tail(2), Front])
        );
        assert_eq!(p("list.a.0"), path(name("list.a"), &[Element(0)]));
        assert_eq!(p("list.b.b"), path(name("list.b"), &[Back]));
        assert_eq!(p("list.back"), path(name("list"), &[Back]));
        assert_eq!(p("spin.3.front.back"), path(name("spin.3"), &[Front, Back]));
        assert_eq!(p("r7.f.b"), path(RegisterRef::Index(7), &[Front, Back]));
        assert_eq!(p("3"), path(RegisterRef::Index(3), &[]));
        assert_eq!(p(" r3 "), path(RegisterRef::Index(3), &[]));
        assert_eq!(p("12.~0"), path(RegisterRef::Index(12), &[Tail(0)]));
        // A name wins over the number it looks like.
        let r_names = strings(&["r0", "r1"]);
        assert_eq!(
            parse_path("r1.0", &r_names),
            Ok(path(name("r1"), &[Element(0)]))
        );
        assert_eq!(
            parse_path("r2.0", &[]),
            Ok(path(RegisterRef::Index(2), &[Element(0)]))
        );
        for (text, shown) in [
            ("in.1.0", "in.1.0"),
            ("in~4", "in.~4"),
            ("7.front.back", "r7.f.b"),
            ("list.a.2", "list.a.2"),
        ] {
            assert_eq!(p(text).to_string(), shown);
        }
    }

    #[test]
    fn bad_paths_are_errors() {
        let names = strings(&["in", "list.a"]);
        for bad in [
            "",
            "foo",
            "foo.1",
            "in.",
            "in..1",
            "in.x",
            "in.~",
            "in.~x",
            "in.-1",
            "in.1.",
            "r",
            "rx",
            ".1",
            "~1",
            "in.f b",
            "in .1",
            "list",
            "r99999999999999999999999",
            "in.99999999999999999999999",
        ] {
            assert!(parse_path(bad, &names).is_err(), "{bad:?} parsed");
        }
        assert_eq!(
            parse_path("foo.1", &names),
            Err(format!("no register named `foo`: {PATH_HELP}"))
        );
        assert_eq!(
            parse_path("in.x", &names),
            Err(format!("`in.x`: `x` is not a step: {PATH_HELP}"))
        );
        assert_eq!(
            parse_path("  ", &names),
            Err(format!("empty path: {PATH_HELP}"))
        );
    }

    #[test]
    fn follow_says_which_step_met_nil() {
        let list = vec![10i64, 20, 30].encode();
        let input = (2i64, list.clone(), Tree::NIL, Tree::unit(), 1i64).encode();
        let names = strings(&["in"]);
        let at = |text: &str| follow(&input, &parse_path(text, &names).unwrap());
        assert_eq!(at("in.0"), Ok(2i64.encode()));
        assert_eq!(at("in.1.2"), Ok(30i64.encode()));
        assert_eq!(at("in.~4"), Ok(1i64.encode()));
        assert_eq!(at("in.~1.f"), Ok(list));
        assert_eq!(at("in.~0"), Ok(input.clone()));
        assert_eq!(at("in.1.~3"), Ok(Tree::NIL));
        let error = |text: &str| at(text).unwrap_err();
        assert_eq!(error("in.1.3"), "in.1.3: the list has only 3 elements");
        assert_eq!(error("in.3.1"), "in.3.1: the list has only 1 element");
        assert_eq!(error("in.2.0"), "in.2.0: in.2 is Nil");
        assert_eq!(error("in.2.f"), "in.2.f: in.2 is Nil");
        assert_eq!(error("in.2.b.f"), "in.2.b: in.2 is Nil");
        assert_eq!(error("in.2.~1"), "in.2.~1: in.2 is Nil");
        assert_eq!(error("in.1.~7"), "in.1.~7: in.1 is Nil after 3 backs");
        assert_eq!(error("in.3.~2"), "in.3.~2: in.3 is Nil after 1 back");
        let r4 = path(RegisterRef::Index(4), &[Step::Front]);
        assert_eq!(follow(&Tree::NIL, &r4), Err("r4.f: r4 is Nil".to_string()));
        assert_eq!(
            follow(&Tree::NIL, &path(RegisterRef::Index(4), &[])),
            Ok(Tree::NIL)
        );
    }

    #[test]
    fn auto_reads_and_counts() {
        assert_eq!(
            view(&4i64.encode(), Format::Auto),
            Ok("int 4 (or command Move E)   [4 conses]".to_string())
        );
        assert_eq!(
            view(&Tree::NIL, Format::Auto),
            Ok("nil   [0 conses]".to_string())
        );
        assert_eq!(
            view(&Tree::unit(), Format::Auto),
            Ok("command Move N (or list [0])   [1 cons]".to_string())
        );
        let odd = Tree::cons(Tree::NIL, Tree::cons(Tree::unit(), Tree::unit()));
        assert_eq!(
            view(&odd, Format::Auto),
            Ok("[[], [[]], []]   [4 conses]".to_string())
        );
    }

    #[test]
    fn tree_and_bits_forms() {
        let t = Tree::cons(Tree::unit(), Tree::NIL);
        assert_eq!(view(&t, Format::Tree), Ok("[[[]]]".to_string()));
        assert_eq!(view(&t, Format::Bits), Ok("11000".to_string()));
        assert_eq!(view(&Tree::NIL, Format::Tree), Ok("[]".to_string()));
        assert_eq!(view(&Tree::NIL, Format::Bits), Ok("0".to_string()));
        let long = Tree::list((0..10_000).map(|_| Tree::NIL));
        let bits = view(&long, Format::Bits).unwrap();
        assert_eq!(
            bits,
            format!("{}… (10000 conses)", "10".repeat(BITS_CHARS / 2))
        );
        let tree = view(&long, Format::Tree).unwrap();
        assert!(tree.starts_with("[[], [], "), "{tree}");
        assert!(tree.ends_with("… (10000 conses)"), "{tree}");
        assert!(tree.len() < TREE_CHARS + 40);
    }

    #[test]
    fn ints_canonical_or_not() {
        let int = |t: &Tree| view(t, Format::Int);
        let ok = |s: &str| Ok(s.to_string());
        let bits = |bs: &[bool]| bs.to_vec().encode();
        assert_eq!(int(&6i64.encode()), ok("6"));
        assert_eq!(int(&(-6i64).encode()), ok("-6"));
        assert_eq!(int(&Tree::NIL), ok("0"));
        assert_eq!(int(&i64::MIN.encode()), ok("-9223372036854775808"));
        assert_eq!(
            int(&bits(&[false, true, true, false, false])),
            ok("6 (not canonical: 2 trailing zero bits)")
        );
        let neg = crate::encoding::int::negative_tag();
        let twice = Tree::cons(neg.clone(), Tree::cons(neg.clone(), 5i64.encode()));
        assert_eq!(
            int(&twice),
            ok("5 (not canonical: 2 negative tags (they cancel in pairs))")
        );
        assert_eq!(
            int(&Tree::cons(neg, bits(&[false]))),
            ok("0 (not canonical: a negative tag on 0, 1 trailing zero bit)")
        );
        let mut wide = vec![false; 64];
        wide.push(true);
        assert_eq!(
            int(&bits(&wide)),
            ok("0 (not canonical: bits at positions 64 and above, which GHC's Int drops)")
        );
        let mut top = vec![false; 63];
        top.push(true);
        let text = int(&bits(&top)).unwrap();
        assert!(
            text.starts_with(
                "-9223372036854775808 (not canonical: the engine writes -9223372036854775808 as 1"
            ),
            "{text}"
        );
        let not_int = Tree::list([Tree::unit(), Tree::list([Tree::unit()])]);
        assert_eq!(
            int(&not_int),
            Err("not an Int: bit 1 is [[[]]], not 0 (Nil) or 1 (Cons Nil Nil)".to_string())
        );
    }

    #[test]
    fn lists_one_element_a_line() {
        let t = Tree::list([5i64.encode(), Tree::NIL, Command::Drop(1).encode()]);
        assert_eq!(
            view(&t, Format::List),
            Ok("[0] int 5\n[1] nil\n[2] command Drop 1 (or code, 2 instructions)".to_string())
        );
        assert_eq!(
            view(&Tree::NIL, Format::List),
            Ok("[] (the empty list)".to_string())
        );
        let long = (0..120i64).collect::<Vec<_>>().encode();
        let text = view(&long, Format::List).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), LIST_SHOWN + 1);
        assert_eq!(lines[49], "[49] int 49");
        assert_eq!(lines[50], "… 70 more");
    }

    #[test]
    fn commands_as_the_engine_reads_them() {
        let command = |t: &Tree| view(t, Format::Command);
        let ok = |s: &str| Ok(s.to_string());
        assert_eq!(command(&Command::Move(Direction::E).encode()), ok("Move E"));
        assert_eq!(command(&Command::Lift(-2).encode()), ok("Lift (-2)"));
        assert_eq!(command(&Command::Pass.encode()), ok("Pass"));
        let build = Command::Build(
            vec![0, 2],
            vec![Register::new(8, 5i64.encode()), Register::new(3, Tree::NIL)],
        );
        assert_eq!(
            command(&build.encode()),
            ok(
                "Build from items [0, 2] with 2 registers:\n  [0] limit 8: int 5\n  [1] limit 3: nil"
            )
        );
        let four = vec![false, false, true, false].encode();
        assert_eq!(
            command(&Tree::cons(four, 1i64.encode())),
            ok("Destroy 1   (not canonical: the engine reads it as this command)")
        );
        let error = |t: &Tree| command(t).unwrap_err();
        let invalid = "not a command (the engine reads Invalid): ";
        assert_eq!(
            error(&Tree::NIL),
            format!("{invalid}Nil is no command (an empty output register)")
        );
        assert_eq!(
            error(&(9i64, Tree::NIL).encode()),
            format!(
                "{invalid}tag 9 is no command (0 Move, 1 Lift, 2 Drop, 3 Inspect, 4 Destroy, \
                 5 Build, 6 Pass)"
            )
        );
        assert_eq!(
            error(&(0i64, 8i64).encode()),
            format!("{invalid}Move needs a direction (an Int 0..7) as argument")
        );
        assert_eq!(
            error(&(6i64, 1i64).encode()),
            format!("{invalid}Pass needs Nil as argument")
        );
        assert_eq!(
            error(&(1i64, Tree::list([Tree::list([Tree::unit()])])).encode()),
            format!("{invalid}Lift needs an Int argument")
        );
        assert_eq!(
            error(&Tree::cons(
                Tree::list([Tree::list([Tree::unit()])]),
                Tree::NIL
            )),
            format!("{invalid}its tag (the front) is not an Int")
        );
        assert_eq!(
            error(&(5i64, Tree::NIL).encode()),
            format!("{invalid}Build needs (item indices, memory) as argument")
        );
    }

    const BOT: &str = "use std/control

reg out = Move E

main:
    emit Move E
    jmp main
";

    /// BOT assembled, with its register names.
    struct Bot {
        image: Image,
        names: Vec<String>,
    }

    impl Bot {
        fn assembled() -> Bot {
            let assembly = crate::asm::assemble(
                &crate::asm::source::MemoryLoader::default(),
                crate::asm::source::SourceFile::new("bot.cta".into(), None, BOT.into()),
            );
            assert!(
                assembly.diagnostics.is_empty(),
                "{}",
                assembly.render(false)
            );
            let image = assembly.image.unwrap();
            let names = image.registers.iter().map(|r| r.name.clone()).collect();
            Bot { image, names }
        }

        /// A context with BOT's symbols and source map.
        fn context(&self) -> ViewContext<'_> {
            ViewContext {
                image: Some(&self.image),
                register_names: &self.names,
                input_limit: None,
            }
        }
    }

    #[test]
    fn instructions_with_their_source_lines() {
        let bot = Bot::assembled();
        let image = &bot.image;
        let c = bot.context();
        let main = "main:
   0  copyifnil zero, const0, out              ; bot.cta:6 (emit > mov)
spin.3:
   1  copyifnil out, ready.3, prog             ; bot.cta:6 (emit > wait_step)
   2  copyifnil zero, spin.3, prog             ; bot.cta:6 (emit > wait_step)";
        let program = &image.registers[0].contents;
        assert_eq!(show(program, Format::Instr, &c), Ok(main.to_string()));
        let main_register = image.register("main").unwrap();
        let code = &image.registers[main_register].contents;
        assert_eq!(show(code, Format::Instr, &c), Ok(main.to_string()));
        let ready = &image.registers[image.register("ready.3").unwrap()].contents;
        assert_eq!(
            show(ready, Format::Instr, &c),
            Ok("ready.3:
   0  copyifnil zero, main, prog               ; bot.cta:7 (jmp)"
                .to_string())
        );
        // The rest of a program, as register 0 holds it while it runs.
        let rest = program.back().unwrap();
        assert_eq!(
            show(rest, Format::Instr, &c),
            Ok(main
                .lines()
                .skip(2)
                .collect::<Vec<_>>()
                .join("\n")
                .replace("   1  ", "   0  ")
                .replace("   2  ", "   1  "))
        );
        // Without an image: numbers for names, no locations.
        assert_eq!(
            view(program, Format::Instr),
            Ok(
                "   0  copyifnil 3, 10, 2\n   1  copyifnil 2, 9, 0\n   2  copyifnil 3, 8, 0"
                    .to_string()
            )
        );
    }

    #[test]
    fn code_built_at_run_time() {
        let bot = Bot::assembled();
        let c = bot.context();
        let built = Tree::list([
            Instruction::Nilify(3).encode(),
            Instruction::Construct(1, 2, 40).encode(),
            (9i64, Tree::NIL).encode(),
            Instruction::Nilify(0).encode(),
        ]);
        assert_eq!(
            show(&built, Format::Instr, &c),
            Ok("   0  nilify zero
   1  construct in, out, 40
   2  list [9] (or code, 1 instruction)   <- not an instruction: the machine fails here"
                .to_string())
        );
        assert_eq!(
            view(&Tree::NIL, Format::Instr),
            Ok("Nil: no code (a machine with this program halts)".to_string())
        );
        let long = Tree::list((0..250).map(|_| Instruction::Nilify(1).encode()));
        let text = view(&long, Format::Instr).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), INSTR_SHOWN + 1);
        assert_eq!(lines[199], " 199  nilify 1");
        assert_eq!(lines[200], "… 50 more");
    }

    fn machine(out: Option<Command>, extra: Vec<Register>) -> Vec<Register> {
        let mut memory = vec![
            Register::new(0, Tree::NIL),
            Register::new(10_000, Tree::NIL),
            Register::new(1000, out.map(|c| c.encode()).unwrap_or_default()),
        ];
        memory.extend(extra);
        memory
    }

    fn bot(color: Color, strength: i64, inventory: Vec<Item>, memory: Vec<Register>) -> Robot {
        Robot {
            frame: Frame { color, strength },
            inventory,
            processor: Processor { speed: 5 },
            memory,
        }
    }

    /// One step of a 1x1 bounded world: the inputs the engine wrote into
    /// the survivors' register 1 (their machines halt at once: they have
    /// no program), and the square's items after the step.
    fn engine_step() -> (Vec<Tree>, Vec<Item>) {
        let robots = vec![
            bot(
                Color::Red,
                100,
                vec![],
                machine(None, vec![Register::new(64, 42i64.encode())]),
            ),
            bot(
                Color::Blue,
                50,
                vec![Item::Shield],
                machine(Some(Command::Lift(0)), vec![]),
            ),
            bot(
                Color::Green,
                10,
                vec![],
                machine(Some(Command::Inspect(0)), vec![]),
            ),
            bot(
                Color::Yellow,
                100,
                vec![Item::Cargo(7, 2)],
                machine(Some(Command::Destroy(3)), vec![]),
            ),
            bot(
                Color::White,
                100,
                vec![Item::Cargo(9, 1)],
                machine(Some(Command::Drop(0)), vec![]),
            ),
        ];
        let square = Square {
            robots,
            items: vec![Item::Cargo(5, 3), Item::Shield],
        };
        let world = World::new(Shape::new((1, 1), false).unwrap(), vec![Some(square)]).unwrap();
        let (world, _) = update_reported(world);
        let square = world.cells[0].as_ref().unwrap();
        let inputs = square
            .robots
            .iter()
            .map(|r| r.memory[1].contents.clone())
            .collect();
        (inputs, square.items.clone())
    }

    const ROBOTS: &str = "robots:
  [0] RED 100 carrying nothing
  [1] BLU 50 carrying [cargo 5 (weight 3), shield]
  [2] GRN 10 carrying nothing
  [3] YLO 100 carrying [cargo 7 (weight 2)]
  [4] WYT 100 carrying nothing";

    const ITEMS: &str = "items (numbered as in the next step's item list):
  unaffected: [0] shield
  dropped: [1] cargo 9 (weight 1)
  fallen robot 0: parts [2] frame YLO 100, [3] processor 5, [4] register 0, \
[5] register 10000, [6] register 1000; carried [7] cargo 7 (weight 2)";

    /// The robot and action lists with this robot's lines marked.
    fn marked(text: &str, index: usize) -> String {
        let line = format!("  [{index}] ");
        text.lines()
            .map(|l| {
                if l.starts_with(&line) {
                    format!("{l}   <- this robot")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn actions(own: usize, own_text: &str) -> String {
        let mut lines = [
            "actions:".to_string(),
            "  [0] passed or invalid".to_string(),
            "  [1] lifted item 0".to_string(),
            "  [2] inspected robot 0".to_string(),
            "  [3] destroyed robot 3".to_string(),
            "  [4] dropped an item".to_string(),
        ];
        lines[own + 1] = format!("  [{own}] {own_text}   <- this robot");
        lines.join("\n")
    }

    const INSPECTION: &str = "private: inspected a robot: processor speed 5, 4 registers
  [0] limit 0: nil
  [1] limit 10000: nil
  [2] limit 1000: nil
  [3] limit 64: int 42";

    #[test]
    fn inputs_the_engine_wrote() {
        let (inputs, items) = engine_step();
        // The numbering is the next step's item list.
        let shown: Vec<String> = items.iter().map(Item::to_string).collect();
        assert_eq!(
            shown,
            [
                "shield",
                "cargo 9 (weight 1)",
                "frame YLO 100",
                "processor 5",
                "register 0",
                "register 10000",
                "register 1000",
                "cargo 7 (weight 2)"
            ]
        );
        let input = |k: usize| view(&inputs[k], Format::Input).unwrap();
        assert_eq!(
            input(0),
            format!(
                "index 0\n{}\n{}\n{ITEMS}\nprivate: 1 (this robot's last command was invalid)",
                marked(ROBOTS, 0),
                actions(0, "invalid command")
            )
        );
        assert_eq!(
            input(1),
            format!(
                "index 1\n{}\n{}\n{ITEMS}\nprivate: 0 (nothing to report)",
                marked(ROBOTS, 1),
                actions(1, "lifted item 0")
            )
        );
        assert_eq!(
            input(2),
            format!(
                "index 2\n{}\n{}\n{ITEMS}\n{INSPECTION}",
                marked(ROBOTS, 2),
                actions(2, "inspected robot 0")
            )
        );
        // The white robot is the fourth survivor but the fifth robot of the
        // step.
        assert!(input(3).starts_with("index 4\n"));
    }

    #[test]
    fn trimmed_inputs_say_where_the_engine_cut() {
        let (inputs, _) = engine_step();
        let full = &inputs[2];
        assert_eq!(full.size(), 336);
        let cut = |limit: i64| {
            let c = ViewContext {
                input_limit: Some(limit),
                ..ctx()
            };
            show(&crate::machine::trim(limit, full), Format::Input, &c).unwrap()
        };
        let note = |limit: i64, what: &str, left: u64| {
            format!(
                "(cut here: the engine trimmed the input to fit in {limit} conses; {what} did \
                 not fit in the {left} left, and nothing after that arrived)"
            )
        };
        let robots = marked(ROBOTS, 2);
        let actions = actions(2, "inspected robot 0");
        assert_eq!(cut(336), view(full, Format::Input).unwrap());
        assert_eq!(
            cut(3),
            "nothing: the input is Nil (no step has written it yet, or the engine trimmed it \
             all to fit in 3 conses)"
        );
        assert_eq!(cut(4), format!("index 2\n{}", note(4, "the robots", 0)));
        assert_eq!(
            cut(111),
            format!("index 2\n{}", note(111, "the robots", 107))
        );
        assert_eq!(
            cut(120),
            format!("index 2\n{robots}\n{}", note(120, "the actions", 8))
        );
        assert_eq!(
            cut(200),
            format!(
                "index 2\n{robots}\n{actions}\n{}",
                note(200, "the items", 49)
            )
        );
        assert_eq!(
            cut(268),
            format!(
                "index 2\n{robots}\n{actions}\n{ITEMS}\nprivate: {}",
                note(268, "the inspection", 3)
            )
        );
        assert_eq!(
            cut(273),
            format!(
                "index 2\n{robots}\n{actions}\n{ITEMS}\n\
                 private: inspected a robot: processor speed 5\n  {}",
                note(273, "the register count", 2)
            )
        );
        let first_two: Vec<&str> = INSPECTION.lines().take(3).collect();
        assert_eq!(
            cut(300),
            format!(
                "index 2\n{robots}\n{actions}\n{ITEMS}\n{}\n  {}",
                first_two.join("\n"),
                note(300, "register 2", 1)
            )
        );
        // Without the limit, or with a limit the input does not fit, the
        // engine cannot be blamed.
        let trimmed = crate::machine::trim(120, full);
        let unknown = view(&trimmed, Format::Input).unwrap();
        assert!(
            unknown.ends_with("\n  [4] WYT 100 carrying nothing\n(does not decode here: the input ends before the actions)"),
            "{unknown}"
        );
        let c = ViewContext {
            input_limit: Some(100),
            ..ctx()
        };
        assert_eq!(show(&trimmed, Format::Input, &c).unwrap(), unknown);
    }

    #[test]
    fn a_lost_one_is_not_taken_for_a_pass() {
        let (inputs, _) = engine_step();
        let full = &inputs[0];
        let limit = full.size() as i64 - 1;
        let c = ViewContext {
            input_limit: Some(limit),
            ..ctx()
        };
        let text = show(&crate::machine::trim(limit, full), Format::Input, &c).unwrap();
        assert_eq!(
            text,
            format!(
                "index 0\n{}\n{}\n{ITEMS}\nprivate: 0 (nothing to report) (or a 1 that the \
                 engine trimmed away: only 1 cons of the limit was left)",
                marked(ROBOTS, 0),
                actions(0, "passed or invalid")
            )
        );
    }

    #[test]
    fn inputs_made_by_hand() {
        let empty = (
            0i64,
            Tree::NIL,
            Tree::NIL,
            (Tree::NIL, Tree::NIL, Tree::NIL),
            0i64,
        );
        assert_eq!(
            view(&empty.encode(), Format::Input),
            Ok("index 0
robots: none
actions: none
items (numbered as in the next step's item list):
  unaffected: none
  dropped: none
  fallen: none
private: 0 (nothing to report)"
                .to_string())
        );
        let robot = |inventory: Tree| Tree::cons((9i64, 1i64).encode(), inventory);
        let strange = (
            -1i64,
            Tree::list([
                robot(Tree::NIL),
                Tree::NIL,
                robot(Tree::list([Tree::unit()])),
            ]),
            Tree::list([(17i64, Tree::NIL).encode(), (2i64, 3i64).encode()]),
            Tree::unit(),
            Tree::list([1i64.encode()]),
        );
        assert_eq!(
            view(&strange.encode(), Format::Input),
            Ok("index -1
robots:
  [0] (does not decode here: not a robot ((colour, strength), inventory): [[[[[]], [], [], [[]]], [[]]]])
  [1] (does not decode here: not a robot ((colour, strength), inventory): nil)
  [2] (does not decode here: not a robot ((colour, strength), inventory): [[[[[]], [], [], [[]]], [[]]], [[]]])
actions:
  [0] (does not decode here: not an action (tag, argument): list [17] (or code, 1 instruction))
  [1] moved out SE
items: (does not decode here: not a triple (unaffected, dropped, fallen): command Move N (or list [0]))
private: inspected a robot: processor speed 1
  (does not decode here: the input ends before the register count)"
                .to_string())
        );
        assert_eq!(
            view(&Tree::NIL, Format::Input),
            Ok("nothing: the input is Nil (no step has written it yet)".to_string())
        );
    }

    /// Every format on a tree, errors included.
    fn every_format(tree: &Tree) -> Vec<String> {
        let names = strings(&["prog", "in", "out"]);
        let c = ViewContext {
            image: None,
            register_names: &names,
            input_limit: Some(1000),
        };
        Format::ALL
            .iter()
            .map(|f| show(tree, *f, &c).unwrap_or_else(|e| e))
            .collect()
    }

    #[test]
    fn deep_and_shared_trees_print_quickly_and_bounded() {
        let start = std::time::Instant::now();
        let bits = Tree::list((0..1_000_000).map(|_| Tree::unit()));
        let deep = (0..1_000_000).fold(Tree::NIL, |t, _| Tree::cons(t, Tree::NIL));
        let mut shared = Tree::NIL;
        for _ in 0..60 {
            shared = Tree::cons(shared.clone(), shared);
        }
        assert_eq!(shared.size(), (1 << 60) - 1);
        for tree in [&bits, &deep, &shared] {
            for (format, text) in Format::ALL.iter().zip(every_format(tree)) {
                assert!(text.len() < 40_000, "{format}: {} bytes", text.len());
            }
        }
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
        let shown = every_format(&bits);
        assert_eq!(shown[0], "code, 1000000 instructions   [2000000 conses]");
        assert!(shown[3].starts_with("-1 (not canonical: "), "{}", shown[3]);
        assert!(shown[4].ends_with("\n[49] command Move N (or list [0])\n… 999950 more"));
        assert!(shown[6].ends_with("\n 199  nilify prog\n… 999800 more"));
        let shown = every_format(&shared);
        assert!(
            shown[0].ends_with("…   [1152921504606846975 conses]"),
            "{}",
            shown[0]
        );
        assert!(shown[2].ends_with("… (1152921504606846975 conses)"));
        assert!(
            shown[3].starts_with("not an Int: bit 0 is [[[[[["),
            "{}",
            shown[3]
        );
        let shown = every_format(&deep);
        assert!(shown[1].starts_with("[[[[[[[[[["));
        assert!(shown[1].ends_with("… (1000000 conses)"));
    }
}

//! Registers as values: paths into trees and the formats of `print`.
//!
//! `print PATH [/FORMAT]` names a register and steps into its tree
//! ([`parse_path`], [`follow`]) and shows the value in one of the formats
//! of [`Format`] ([`show()`]).
//!
//! Every printer is bounded: trees are walked with explicit loops (never
//! recursion), lists are shown up to a fixed number of elements, texts up
//! to a fixed number of characters, and the readings of [`show::guess`]
//! (which cost time proportional to a tree's logical size) are tried only
//! on trees small enough. A tree of 2^60 logical conses sharing a few dozen
//! nodes prints as fast as a small one, and a 10^7-deep tree does not
//! overflow the stack.

mod input;
mod instructions;
mod path;
mod typed;

pub use path::{Missing, Path, PathError, RegisterRef, Step, StepError, follow, parse_path, reach};
pub use typed::{ReadError, TypeError, TypeProblem, ValueType, show_as};

use crate::asm::show;
use crate::encoding::{Decode, Encode};
use crate::image::Image;
use crate::machine::Register;
use crate::tree::Tree;
use crate::world::{Command, Direction, decode};
use input::input;
use instructions::instructions;
use std::fmt;

/// Characters of the readable form in a one-line description.
const AUTO_CHARS: usize = 100;
/// Characters of an element's description in a list.
const ELEMENT_CHARS: usize = 80;
/// Characters of the `/tree` form.
const TREE_CHARS: usize = 4000;
/// Characters of the `/bits` form.
const BITS_CHARS: usize = 4000;
/// Elements shown by `/list` (and by lists inside `/input`, `/command`).
const LIST_SHOWN: usize = 50;
/// Trees up to this logical size are described by [`show::guess`].
const GUESS_SIZE: u64 = 1 << 22;
/// Elements up to this logical size are described by [`show::guess`].
const ELEMENT_GUESS_SIZE: u64 = 100_000;

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
    pub fn parse(text: &str) -> Result<Format, FormatError> {
        let text = text.trim();
        let bare = text.strip_prefix('/').unwrap_or(text);
        Format::NAMES
            .iter()
            .position(|n| *n == bare)
            .map(|i| Format::ALL[i])
            .ok_or_else(|| FormatError(text.to_string()))
    }

    /// The name without its slash (`auto`).
    pub fn name(self) -> &'static str {
        Format::NAMES[self as usize]
    }
}

/// A format that does not exist (the text as typed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError(pub String);

/// `unknown format `/hex`: use one of /auto, /tree, ...`.
impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = Format::ALL.iter().map(Format::to_string).collect();
        write!(
            f,
            "unknown format `{}`: use one of {}",
            self.0,
            names.join(", ")
        )
    }
}

/// Why a tree cannot be shown in a format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShowError {
    /// `/int` on a tree that is not an Int: why not.
    NotAnInt(String),
    /// `/command` on a tree the engine reads as Invalid.
    NotACommand(NotACommand),
}

/// `not an Int: ...`, `not a command (the engine reads Invalid): ...`.
impl fmt::Display for ShowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShowError::NotAnInt(why) => write!(f, "not an Int: {why}"),
            ShowError::NotACommand(why) => {
                write!(f, "not a command (the engine reads Invalid): {why}")
            }
        }
    }
}

/// Why the engine reads a tree as no command (the report's decoding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotACommand {
    /// Nil: an empty output register.
    Nil,
    /// The front is not an Int.
    TagNotInt,
    /// A tag past 6.
    UnknownTag(i64),
    /// `Move` without a direction.
    MoveDirection,
    /// `Lift`, `Drop`, `Inspect` or `Destroy` without an Int.
    IndexNotInt(&'static str),
    /// `Pass` with something other than Nil.
    PassArgument,
    /// `Build` whose argument is not a pair.
    BuildPair,
    /// `Build` whose indices are not Ints.
    BuildIndices,
    /// `Build` whose memory is not registers.
    BuildMemory,
    /// An Int longer than the debugger reads ([`decode::INT_SPINE`]).
    IntTooLong,
}

impl fmt::Display for NotACommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotACommand::Nil => write!(f, "Nil is no command (an empty output register)"),
            NotACommand::TagNotInt => write!(f, "its tag (the front) is not an Int"),
            NotACommand::UnknownTag(n) => write!(
                f,
                "tag {n} is no command (0 Move, 1 Lift, 2 Drop, 3 Inspect, 4 Destroy, 5 Build, 6 Pass)"
            ),
            NotACommand::MoveDirection => {
                write!(f, "Move needs a direction (an Int 0 to 7) as argument")
            }
            NotACommand::IndexNotInt(name) => write!(f, "{name} needs an Int argument"),
            NotACommand::PassArgument => write!(f, "Pass needs Nil as argument"),
            NotACommand::BuildPair => write!(f, "Build needs (item indices, memory) as argument"),
            NotACommand::BuildIndices => write!(f, "Build's item indices are not a list of Ints"),
            NotACommand::BuildMemory => write!(
                f,
                "Build's memory is not a list of registers (limit, contents)"
            ),
            NotACommand::IntTooLong => write!(f, "an Int in it is too long to read"),
        }
    }
}

/// Why `print` cannot show a value: its path, its format, its type, or
/// the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewError {
    /// The path does not parse or meets Nil.
    Path(PathError),
    /// The format does not exist.
    Format(FormatError),
    /// The type does not parse.
    Type(TypeError),
    /// The value does not fit the type.
    Read(ReadError),
    /// The value cannot be shown in the format.
    Show(ShowError),
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::Path(e) => e.fmt(f),
            ViewError::Format(e) => e.fmt(f),
            ViewError::Type(e) => e.fmt(f),
            ViewError::Read(e) => e.fmt(f),
            ViewError::Show(e) => e.fmt(f),
        }
    }
}

macro_rules! view_error_from {
    ($($variant:ident($error:ty)),*) => {
        $(impl From<$error> for ViewError {
            fn from(error: $error) -> ViewError {
                ViewError::$variant(error)
            }
        })*
    };
}

impl std::error::Error for ViewError {}

view_error_from!(
    Path(PathError),
    Format(FormatError),
    Type(TypeError),
    Read(ReadError),
    Show(ShowError)
);

impl fmt::Display for Format {
    /// The name as typed, with its slash (`/auto`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}", self.name())
    }
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
pub fn show(tree: &Tree, format: Format, ctx: &ViewContext) -> Result<String, ShowError> {
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

/// An Int as the engine's decoder reads it: not when its spine is too long
/// to be worth reading ([`decode::INT_SPINE`]; every canonical Int is
/// short).
fn small_int(tree: &Tree) -> Option<i64> {
    decode::int(tree).ok()
}

/// `/int`: the value, and why the form is not canonical when it is not.
fn int(tree: &Tree) -> Result<String, ShowError> {
    let Some(n) = i64::decode(tree) else {
        return Err(ShowError::NotAnInt(why_not_int(tree)));
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
fn command(tree: &Tree) -> Result<String, ShowError> {
    let decoded = if tree.size() <= GUESS_SIZE {
        Command::decode(tree).ok_or_else(|| why_not_command(tree))
    } else {
        decode_command(tree)
    };
    let c = decoded.map_err(ShowError::NotACommand)?;
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
fn why_not_command(tree: &Tree) -> NotACommand {
    decode_command(tree)
        .err()
        .unwrap_or(NotACommand::IntTooLong)
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
/// with a spine longer than [`decode::INT_SPINE`] are not read.
fn decode_command(tree: &Tree) -> Result<Command, NotACommand> {
    let (tag, arg) = tree.split().ok_or(NotACommand::Nil)?;
    let tag = small_int(tag).ok_or(NotACommand::TagNotInt)?;
    let index = |name| small_int(arg).ok_or(NotACommand::IndexNotInt(name));
    match tag {
        0 => small_int(arg)
            .and_then(Direction::from_index)
            .map(Command::Move)
            .ok_or(NotACommand::MoveDirection),
        1 => index("Lift").map(Command::Lift),
        2 => index("Drop").map(Command::Drop),
        3 => index("Inspect").map(Command::Inspect),
        4 => index("Destroy").map(Command::Destroy),
        5 => decode_build(arg),
        6 if arg.is_nil() => Ok(Command::Pass),
        6 => Err(NotACommand::PassArgument),
        n => Err(NotACommand::UnknownTag(n)),
    }
}

fn decode_build(arg: &Tree) -> Result<Command, NotACommand> {
    let (items, memory) = arg.split().ok_or(NotACommand::BuildPair)?;
    let items = items
        .iter_list()
        .map(small_int)
        .collect::<Option<Vec<i64>>>()
        .ok_or(NotACommand::BuildIndices)?;
    let memory = memory
        .iter_list()
        .map(decode::decode::<Register>)
        .collect::<Result<Vec<Register>, _>>()
        .map_err(|_| NotACommand::BuildMemory)?;
    Ok(Command::Build(items, memory))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn ctx() -> ViewContext<'static> {
        ViewContext::default()
    }

    pub(super) fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    pub(super) fn view(tree: &Tree, format: Format) -> Result<String, String> {
        show(tree, format, &ctx()).map_err(|e| e.to_string())
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
            Format::parse("/hex").map_err(|e| e.to_string()),
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
    fn auto_reads_and_counts() {
        assert_eq!(
            view(&4i64.encode(), Format::Auto),
            Ok("int 4 (or direction S, or command Move E)   [4 conses]".to_string())
        );
        assert_eq!(
            view(&Tree::NIL, Format::Auto),
            Ok("nil   [0 conses]".to_string())
        );
        assert_eq!(
            view(&Tree::unit(), Format::Auto),
            Ok("command Move N (or list [0], or true)   [1 cons]".to_string())
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
            format!("{invalid}Move needs a direction (an Int 0 to 7) as argument")
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
            .map(|f| show(tree, *f, &c).unwrap_or_else(|e| e.to_string()))
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
        assert!(shown[4].ends_with("\n[49] command Move N (or list [0], or true)\n… 999950 more"));
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

//! The disassembler: a memory image back to `.cta` source.
//!
//! [`disassemble`] writes a program that the assembler turns back into the
//! same image. It reconstructs how the assembler laid the program out
//! (declared registers, code registers from labels, fall through between
//! them, constants), assembles what it wrote and compares; when that does
//! not give the image back, it tries other layouts, then plainer forms.
//! So the text it returns is checked against the assembler of this very
//! build. Two of the assembler's layout rules (whether a block ends after
//! a `call`, and which register a label that several code registers reach
//! belongs to) it learns once, by assembling two small programs.

use super::ast::KEYWORDS;
use super::show;
use super::source::{MemoryLoader, SourceFile};
use crate::encoding::{Decode, Encode};
use crate::image::{Image, LabelSymbol};
use crate::machine::Instruction;
use crate::tree::Tree;
use crate::world::Command;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// How many places for prog's own code are tried (see [`ProgCode`]).
const PROG_PLACES: usize = 12;

/// At most this many different texts of the first form are assembled and
/// compared before the plainer forms are tried.
const FAITHFUL_TRIES: usize = 48;

/// The `.cta` source of an image.
///
/// For every image the assembler makes, assembling the text gives back an
/// image with the same registers (count, names, limits and contents, equal
/// as trees), the same labels (name, register, offset) and the same call
/// stack. Any other image comes back with the same memory (limits and
/// contents), and with its names where they can be written. The text is
/// checked before it is returned: it is the first of these forms that the
/// assembler turns back into the image.
///
/// 1. **As the assembler lays programs out.** A header comment names the
///    compiler, the number of files and their hash. `prog`, `in` and `out`
///    are configured with `reg prog|in|out LIMIT [= VALUE]`. The declared
///    registers follow *in index order*: `reg NAME LIMIT [= VALUE]`, or,
///    for hand-laid code (a register the source map has instructions for),
///    `block NAME LIMIT` with its instructions, its labels and a
///    `tail OTHER` when its list ends in another register's contents. A
///    `; rN` comment gives each index: registers are not written `@N`,
///    because `reg NAME @N LIMIT` does not parse (`N LIMIT` reads as an
///    application), and declaring every register in order gives the same
///    indices. Then come `callstack` and `entry`, and the *code registers*:
///    every label that is jumped to, in index order, `NAME:` followed by
///    its instructions as mnemonics with register names for operands
///    (`copyifnil zero, main, prog`). These are labels, not `block`s,
///    because a label inside a block cannot have the block's own name,
///    and they must come after every declared register, as they do in the
///    assembler. A code register whose list goes on with the next one's
///    falls through into it, as the assembler laid it out; labels inside
///    are written at their offsets. `prog` is the code at `entry` (its own
///    code, a code register, or a hand-laid block), or the code of the
///    first block no label starts. The program's constants (`const0`, ...)
///    are written where the code uses them, as values
///    (`copyifnil zero, #7, acc`); when the code does not use them in their
///    order, a block that never runs names them first.
///
///    Names the assembler gave inside macro expansions (`rest@4`, from the
///    4th expansion) come from macros of the text's own: a macro whose
///    local label is `rest`, expanded fourth (macros that expand to nothing
///    make up the count), and operands name such registers by number, with
///    a comment. Several registers may share a name the same way.
/// 2. **Everything declared.** Every register is a `reg` or a `block`, in
///    index order; `prog` is configured with its contents as a value
///    (`[CopyIfNil 6 10 0, Nilify 0]`), `code(label)` being of no use for
///    a register that is not laid out from labels. Labels that cannot be
///    written are listed in a comment.
/// 3. **Data only.** Every register is a `reg NAME LIMIT [= VALUE]`; names
///    that cannot be declared (not identifiers, reserved words, `prog` at
///    another index, shared by several registers) become `rN` (`rN_` if
///    that is taken).
///
/// Values are numbers, commands, instructions and lists of them where that
/// gives the tree exactly (an `out` that reads as a command is written as
/// one), else `bits("...")`, which writes any tree.
///
/// A register holding more than its limit allows, or a negative limit for
/// `prog` (which always has contents), cannot come from source: the
/// assembler rejects it with E0603. Only a loaded image can have one. Such
/// a register is written with its exact limit and contents after a `NOTE`
/// comment that says so and gives its size: with the limit raised to that
/// size the text assembles to the image but for that limit (that is how
/// the rest of the text is checked).
pub fn disassemble(image: &Image) -> String {
    let facts = Facts::new(image);
    let mut tiers = Vec::new();
    for prog_chain in [true, false] {
        for minimal_run in [false, true] {
            for prog_place in 0..PROG_PLACES {
                for dummy_late in [true, false] {
                    for nil_values in [false, true] {
                        tiers.push(Tier::Faithful {
                            prog_chain,
                            minimal_run,
                            prog_place,
                            dummy_late,
                            nil_values,
                        });
                    }
                }
            }
        }
    }
    tiers.extend([
        Tier::Declared {
            blocks: true,
            keep_names: true,
        },
        Tier::Declared {
            blocks: false,
            keep_names: true,
        },
        Tier::Declared {
            blocks: false,
            keep_names: false,
        },
    ]);
    let mut tried = HashSet::new();
    let mut faithful_tries = 0;
    for tier in tiers {
        let faithful = matches!(tier, Tier::Faithful { .. });
        if faithful && faithful_tries >= FAITHFUL_TRIES {
            continue;
        }
        let Some(plan) = Plan::new(&facts, tier) else {
            continue;
        };
        let checked = plan.render(&facts, false);
        if !tried.insert(checked.clone()) {
            continue;
        }
        faithful_tries += usize::from(faithful);
        if plan.verify(&facts, &checked) {
            return plan.render(&facts, true);
        }
    }
    let data = Tier::Declared {
        blocks: false,
        keep_names: false,
    };
    match Plan::new(&facts, data) {
        Some(plan) => plan.render(&facts, true),
        None => String::new(),
    }
}

/// When the assembler ends a block whose last instruction always replaces
/// `prog`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EndsRule {
    /// Always.
    Always,
    /// Unless the instruction before it reads `prog` (a `call`).
    UnlessAfterRead,
    /// Unless any instruction of the block reads `prog`.
    UnlessBlockReads,
}

/// Which register and offset the assembler gives a label that several
/// code registers reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LabelRule {
    /// The first code that reaches it: prog's, then by register.
    FirstReached,
    /// Its block's own register, else the entry's (prog) if it is the
    /// entry, else that of the block that falls into it, further on.
    Structural,
}

/// How the assembler of this build lays code out, where it matters here.
#[derive(Debug, Clone, Copy)]
struct Rules {
    ends: EndsRule,
    labels: LabelRule,
}

/// The assembler's rules, found out once by assembling two small programs
/// (the assembler is the reference: this keeps the text right as it
/// changes).
fn rules() -> Rules {
    static RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
    *RULES.get_or_init(|| {
        let assemble = |text: &str| {
            super::assemble(
                &MemoryLoader::default(),
                SourceFile::new("probe.cta".into(), None, text.to_string()),
            )
            .image
        };
        let length = |image: &Image, name: &str| {
            image
                .register(name)
                .map(|r| exact_prefix(&image.registers[r].contents).0.len())
        };
        let ends = assemble(
            "reg zero 0\nreg x 1\na:\n    construct prog, x, x\n    nilify x\n    \
             copyifnil zero, a, prog\nb:\n    construct prog, x, x\n    copyifnil zero, b, prog\n\
             c:\n    nilify x\n",
        )
        .map(|image| match (length(&image, "a"), length(&image, "b")) {
            (Some(3), Some(2)) => EndsRule::Always,
            (Some(3), _) => EndsRule::UnlessAfterRead,
            _ => EndsRule::UnlessBlockReads,
        })
        .unwrap_or(EndsRule::UnlessAfterRead);
        let labels =
            assemble("reg v 1\na:\n    nilify v\nb:\n    nilify v\nc:\n    copyifnil v, b, prog\n")
                .and_then(|image| {
                    image
                        .labels
                        .iter()
                        .find(|l| l.name == "c")
                        .map(|l| l.register)
                })
                .map_or(LabelRule::Structural, |r| {
                    if r == 0 {
                        LabelRule::FirstReached
                    } else {
                        LabelRule::Structural
                    }
                });
        Rules { ends, labels }
    })
}

/// What the disassembler knows about an image's registers.
struct Facts<'a> {
    image: &'a Image,
    /// Per register: its longest prefix of exactly encoded instructions, and
    /// the tree after it.
    code: Vec<(Vec<Instruction>, Tree)>,
    /// Per register: whether the source map has its instructions.
    mapped: Vec<bool>,
    /// Per register: whether its contents exceed its limit (no source can
    /// give it).
    over: Vec<bool>,
    /// Per register: whether its instructions name only registers that
    /// exist.
    in_range: Vec<bool>,
}

impl<'a> Facts<'a> {
    fn new(image: &'a Image) -> Facts<'a> {
        let n = image.registers.len();
        let code: Vec<(Vec<Instruction>, Tree)> = image
            .registers
            .iter()
            .map(|r| exact_prefix(&r.contents))
            .collect();
        // (The source map's entries name the registers that hold code.)
        let mapped = (0..n)
            .map(|i| image.source_map.registers.iter().any(|m| m.register == i))
            .collect();
        // Only prog always has contents in the assembler (Nil when nothing
        // runs), so only its limit is checked when it holds Nil.
        let over = image
            .registers
            .iter()
            .enumerate()
            .map(|(i, r)| (i == 0 || !r.contents.is_nil()) && !r.contents.fits(r.limit))
            .collect();
        let in_range = code
            .iter()
            .map(|(instrs, _)| {
                instrs
                    .iter()
                    .all(|i| operands(i).iter().all(|&o| o >= 0 && (o as u64) < n as u64))
            })
            .collect();
        Facts {
            image,
            code,
            mapped,
            over,
            in_range,
        }
    }

    fn n(&self) -> usize {
        self.image.registers.len()
    }

    fn name(&self, i: usize) -> &str {
        &self.image.registers[i].name
    }

    /// The limit the text gives a register: exact, or for a register whose
    /// contents do not fit, its size (to check the rest of the text).
    fn limit(&self, i: usize, exact: bool) -> i64 {
        let reg = &self.image.registers[i];
        if self.over[i] && !exact {
            reg.contents.size().min(i64::MAX as u64) as i64
        } else {
            reg.limit
        }
    }

    /// Whether a register can be laid out as an automatic code register:
    /// instructions ending in Nil, limit equal to its size, a name that can
    /// be a label.
    fn auto_ok(&self, i: usize) -> bool {
        let reg = &self.image.registers[i];
        self.mapped[i]
            && self.code[i].1.is_nil()
            && self.in_range[i]
            && !self.over[i]
            && reg.limit >= 0
            && reg.limit as u64 == reg.contents.size()
            && name_kind(&reg.name) != NameKind::Bad
    }

    /// The labels pointing into a register.
    fn labels_of(&self, register: usize) -> impl Iterator<Item = &LabelSymbol> {
        self.image
            .labels
            .iter()
            .filter(move |l| l.register == register)
    }
}

/// The longest prefix of a list whose elements are exact instruction
/// encodings, and the tree after it.
fn exact_prefix(tree: &Tree) -> (Vec<Instruction>, Tree) {
    let mut instrs = Vec::new();
    let mut t = tree;
    while let Some((front, back)) = t.split() {
        match Instruction::decode(front) {
            Some(i) if &i.encode() == front => {
                instrs.push(i);
                t = back;
            }
            _ => break,
        }
    }
    (instrs, t.clone())
}

/// An instruction's operands.
fn operands(i: &Instruction) -> Vec<i64> {
    match *i {
        Instruction::Nilify(a) => vec![a],
        Instruction::Construct(a, b, c)
        | Instruction::Deconstruct(a, b, c)
        | Instruction::CopyIfNil(a, b, c) => vec![a, b, c],
    }
}

/// Whether operand `k` of an instruction is written.
fn written(i: &Instruction, k: usize) -> bool {
    match i {
        Instruction::Nilify(_) => k == 0,
        Instruction::Construct(..) | Instruction::CopyIfNil(..) => k == 2,
        Instruction::Deconstruct(..) => k >= 1,
    }
}

fn mnemonic(i: &Instruction) -> &'static str {
    match i {
        Instruction::Nilify(_) => "nilify",
        Instruction::Construct(..) => "construct",
        Instruction::Deconstruct(..) => "deconstruct",
        Instruction::CopyIfNil(..) => "copyifnil",
    }
}

/// Whether a name can be written as a register or label name: an
/// identifier that is not a reserved word (names beginning with `.` are
/// renamed after the label before them, so they are left out too).
fn is_ident(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !KEYWORDS.contains(&name)
}

/// What a register's name allows.
#[derive(Debug, Clone, PartialEq, Eq)]
enum NameKind {
    /// An identifier: declared, or a label, as it is.
    Plain,
    /// `BASE@N`: the local name `BASE` of the `N`th macro expansion.
    Numbered(String, u32),
    /// Cannot be written.
    Bad,
}

fn name_kind(name: &str) -> NameKind {
    if let Some((base, number)) = name.rsplit_once('@')
        && is_ident(base)
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && let Ok(n) = number.parse::<u32>()
        && n > 0
    {
        return NameKind::Numbered(base.to_string(), n);
    }
    if is_ident(name) {
        NameKind::Plain
    } else {
        NameKind::Bad
    }
}

/// A name local to a macro of the text's own: several registers may share
/// its base, and `number` is the expansion it must come from (`None`: any).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Local {
    base: String,
    number: Option<u32>,
}

impl Local {
    /// The local name a register's name asks for.
    fn of(name: &str) -> Option<Local> {
        match name_kind(name) {
            NameKind::Plain => Some(Local {
                base: name.to_string(),
                number: None,
            }),
            NameKind::Numbered(base, n) => Some(Local {
                base,
                number: Some(n),
            }),
            NameKind::Bad => None,
        }
    }
}

/// Which form of text to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    /// As the assembler lays programs out: code registers as labels,
    /// constants as values. `prog_chain`: `prog` as the code at its entry
    /// (else as a value); `minimal_run`: as few code registers laid out
    /// automatically as the names need (else as many as can be);
    /// `prog_place`: which place to try for prog's own code (just before
    /// the code register it ends with, first, last);
    /// `dummy_late`: constants that the code does not number in order are
    /// named by a block after the first code that numbers some in order
    /// (else by one at the start); `nil_values`: empty registers with limit
    /// 0 are written `= nil` (then `copyifnil r, L, prog` may fall through,
    /// as for the assembler they might hold something).
    Faithful {
        prog_chain: bool,
        minimal_run: bool,
        prog_place: usize,
        dummy_late: bool,
        nil_values: bool,
    },
    /// Every register declared: `blocks` for code as `block`s (else as
    /// data); `keep_names`: names of macro expansions kept (else `rN`).
    Declared { blocks: bool, keep_names: bool },
}

/// How a register is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `prog`, `in`, `out`.
    Predeclared,
    /// `reg NAME LIMIT [= VALUE]`.
    Data,
    /// `block NAME LIMIT`: its first `own` instructions, then `tail`.
    Block { own: usize, tail: Option<usize> },
    /// A code register laid out from labels.
    Auto,
    /// A constant register, made by a value operand.
    Constant,
}

/// Where a block that never runs names the constants, so that they are
/// numbered as in the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dummy {
    /// Not needed: the code uses them in order.
    None,
    /// First: it numbers them all.
    Top,
    /// After this segment (which does not fall through into it): the code
    /// before it numbers the first ones, it the rest.
    After(usize),
}

/// How `prog` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProgForm {
    /// `reg prog LIMIT [= VALUE]`.
    Value,
    /// `reg prog LIMIT` and the code at `entry`.
    Chain,
}

/// Where `prog`'s own code goes among the code registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProgCode {
    /// prog is a value, or exactly a code register's contents.
    None,
    /// Before every code register.
    Front,
    /// After every code register.
    Back,
    /// Just before this code register, falling through into it.
    Before(usize),
    /// Just after this code register, which falls through into it.
    After(usize),
}

/// A run of automatically laid-out code: a code register, or `prog`'s own
/// code.
#[derive(Debug, Clone)]
struct Segment {
    /// The code register (`None`: prog's code).
    register: Option<usize>,
    /// All its instructions.
    full: Vec<Instruction>,
    /// How many of them it writes (the rest it falls through into).
    own: usize,
    /// Whether it falls through into the next segment.
    falls: bool,
    /// Labels: `(offset in its own instructions, name)`.
    labels: Vec<(usize, String)>,
    /// Whether `prog` starts here.
    entry: bool,
}

/// Everything needed to write the text.
struct Plan {
    tier: Tier,
    forms: Vec<Form>,
    /// The name each register will have in the image.
    names: Vec<String>,
    /// The name operands use for a register (`None`: its number, or a
    /// constant's value).
    plain: Vec<Option<String>>,
    /// Registers named inside a macro of their own (their name is shared,
    /// or comes from a macro expansion).
    local: Vec<Option<Local>>,
    /// Labels of hand-laid blocks: `(offset, name)`.
    block_labels: Vec<Vec<(usize, String)>>,
    prog: ProgForm,
    segments: Vec<Segment>,
    /// Declared registers written before the code registers.
    top: Vec<usize>,
    /// Declared registers written after segment `k` (to stop its fall
    /// through), by `k`.
    breaks: HashMap<usize, Vec<usize>>,
    /// The hand-laid block prog starts with, if it does.
    entry_block: Option<usize>,
    /// Empty registers with limit 0 are written `= nil`.
    nil_values: bool,
    /// The first constant register (`n` if none).
    first_constant: usize,
    /// Where a block that never runs names the constants.
    dummy: Dummy,
    /// The labels the text gives.
    labels: Vec<LabelSymbol>,
    /// Labels that could not be written.
    dropped: Vec<String>,
    /// `callstack A, B`.
    callstack: Option<(String, String)>,
    /// Whether the image's call stack is written.
    callstack_kept: bool,
    /// Names taken, for internal names.
    taken: HashSet<String>,
}

/// Registers `[first, n)` named `const0`, `const1`, ... in order, each with
/// its size as limit and all different: the shape of the assembler's
/// constants.
fn constant_suffix(facts: &Facts) -> usize {
    let n = facts.n();
    let Some(last) = facts
        .name(n - 1)
        .strip_prefix("const")
        .and_then(|k| k.parse::<usize>().ok())
    else {
        return 0;
    };
    let k = last + 1;
    if k > n - 3 {
        return 0;
    }
    let mut seen = HashSet::new();
    for j in 0..k {
        let i = n - k + j;
        let reg = &facts.image.registers[i];
        if reg.name != format!("const{j}")
            || facts.over[i]
            || reg.limit < 0
            || reg.limit as u64 != reg.contents.size()
            || !seen.insert(reg.contents.to_bits())
        {
            return 0;
        }
    }
    k
}

impl Plan {
    fn new(facts: &Facts, tier: Tier) -> Option<Plan> {
        let n = facts.n();
        let mut plan = Plan {
            tier,
            forms: vec![Form::Data; n],
            names: facts
                .image
                .registers
                .iter()
                .map(|r| r.name.clone())
                .collect(),
            plain: vec![None; n],
            local: vec![None; n],
            block_labels: vec![Vec::new(); n],
            prog: ProgForm::Value,
            segments: Vec::new(),
            top: Vec::new(),
            breaks: HashMap::new(),
            entry_block: None,
            nil_values: false,
            first_constant: n,
            dummy: Dummy::None,
            labels: Vec::new(),
            dropped: Vec::new(),
            callstack: None,
            callstack_kept: false,
            taken: HashSet::new(),
        };
        for (i, predeclared) in ["prog", "in", "out"].iter().enumerate().take(n) {
            plan.forms[i] = Form::Predeclared;
            plan.names[i] = predeclared.to_string();
            plan.plain[i] = Some(predeclared.to_string());
        }
        plan.taken
            .extend(facts.image.registers.iter().map(|r| r.name.clone()));
        plan.taken
            .extend(facts.image.labels.iter().map(|l| l.name.clone()));
        let ok = match tier {
            Tier::Faithful {
                prog_chain,
                minimal_run,
                prog_place,
                dummy_late,
                nil_values,
            } => {
                plan.nil_values = nil_values;
                plan.faithful(facts, prog_chain, minimal_run, prog_place, dummy_late)
            }
            Tier::Declared { blocks, keep_names } => plan.declared(facts, blocks, keep_names),
        };
        ok.then_some(plan)
    }

    /// The faithful form; `false` if the image does not have its shape.
    fn faithful(
        &mut self,
        facts: &Facts,
        prog_chain: bool,
        minimal_run: bool,
        prog_place: usize,
        dummy_late: bool,
    ) -> bool {
        let n = facts.n();
        if n < 3 || (0..3).any(|i| facts.name(i) != self.names[i]) {
            return false;
        }
        let k = constant_suffix(facts);
        let c0 = n - k;
        // Registers named after a label at their start must be code
        // registers laid out from labels.
        let needs_auto = |i: usize| {
            facts
                .labels_of(i)
                .any(|l| l.offset == 0 && l.name == facts.name(i))
        };
        let mut d = c0;
        while d > 3 && facts.auto_ok(d - 1) {
            d -= 1;
        }
        if (3..d).any(needs_auto) {
            return false;
        }
        if minimal_run {
            match (d..c0).find(|&i| needs_auto(i)) {
                Some(first) if first > d => d = first,
                None if d < c0 => d = c0,
                _ => return false,
            }
        }
        self.first_constant = c0;
        // `= nil` matters only for a register a jump tests.
        if self.nil_values {
            let tested = |t: i64| {
                usize::try_from(t).is_ok_and(|t| {
                    t >= 3
                        && t < d
                        && facts.image.registers[t].contents.is_nil()
                        && facts.image.registers[t].limit == 0
                })
            };
            let relevant = facts.code.iter().any(|(instrs, _)| {
                instrs
                    .iter()
                    .any(|i| matches!(*i, Instruction::CopyIfNil(t, _, 0) if tested(t)))
            });
            if !relevant {
                return false;
            }
        }
        // Labels: identifiers, each once.
        let mut label_names = HashSet::new();
        for l in &facts.image.labels {
            if !is_ident(&l.name) || !label_names.insert(l.name.as_str()) {
                return false;
            }
        }
        // Names.
        let mut count: HashMap<&str, usize> = HashMap::new();
        for i in 3..c0 {
            *count.entry(facts.name(i)).or_default() += 1;
        }
        for i in 3..c0 {
            let name = facts.name(i);
            if ["prog", "in", "out"].contains(&name) {
                return false;
            }
            let plain = name_kind(name) == NameKind::Plain
                && count[name] == 1
                && if i >= d {
                    needs_auto(i)
                } else {
                    !label_names.contains(name)
                };
            if i >= d {
                self.forms[i] = Form::Auto;
            }
            if plain {
                self.plain[i] = Some(name.to_string());
            } else {
                match Local::of(name) {
                    Some(local) => self.local[i] = Some(local),
                    None => return false,
                }
            }
        }
        for i in c0..n {
            self.forms[i] = Form::Constant;
        }
        // prog: the code at its entry when the source map has it.
        let at_zero: Vec<&LabelSymbol> = facts.labels_of(0).collect();
        let mapped =
            prog_chain && facts.mapped[0] && !facts.over[0] && facts.image.registers[0].limit >= 0;
        if mapped {
            self.prog = ProgForm::Chain;
        }
        // Hand-laid blocks.
        for i in 3..d {
            if facts.mapped[i] {
                self.forms[i] = self.block_form(facts, i, d);
            }
        }
        // prog may start with a hand-laid block. Where prog's code
        // reaches first, its labels are prog's; else they stay the block's.
        let prog = &facts.image.registers[0].contents;
        let first_reached = rules().labels == LabelRule::FirstReached;
        let entry_block = (3..d).filter(|_| mapped).find(|&h| {
            matches!(self.forms[h], Form::Block { own, .. }
                if at_zero.iter().all(|l| l.offset <= own))
                && self.local[h].is_none()
                && if first_reached {
                    facts.labels_of(h).next().is_none()
                } else {
                    at_zero.is_empty()
                }
                && facts.image.registers[h].contents == *prog
        });
        let chainable = mapped && facts.code[0].1.is_nil() && facts.in_range[0];
        let mut prog_code = ProgCode::None;
        let mut equals: Option<usize> = None;
        if let Some(h) = entry_block {
            self.entry_block = Some(h);
            for l in &at_zero {
                self.block_labels[h].push((l.offset, l.name.clone()));
            }
        } else if chainable {
            let instrs = &facts.code[0].0;
            // Where prog's code reaches first, labels past a code
            // register's start in prog's chain would be prog's.
            let free = |j: &usize| {
                rules().labels == LabelRule::Structural
                    || !facts.labels_of(*j).any(|l| l.offset > 0)
            };
            let same = (d..c0)
                .filter(free)
                .find(|&j| facts.image.registers[j].contents.ptr_eq(prog))
                .or_else(|| (d..c0).filter(free).find(|&j| facts.code[j].0 == *instrs));
            // A label at prog's start would belong to that register (and
            // with the structural rule so would every label of its code).
            let starts_labelled = match rules().labels {
                LabelRule::FirstReached => at_zero.iter().any(|l| l.offset == 0),
                LabelRule::Structural => !at_zero.is_empty(),
            };
            if let Some(j) = same.filter(|_| !starts_labelled) {
                equals = Some(j);
            } else {
                // The longest code register that prog's code ends with.
                let suffix = (d..c0)
                    .filter(free)
                    .filter(|&j| {
                        let len = facts.code[j].0.len();
                        len < instrs.len() && instrs[instrs.len() - len..] == facts.code[j].0[..]
                    })
                    .max_by_key(|&j| facts.code[j].0.len());
                prog_code = match suffix {
                    Some(j) => ProgCode::Before(j),
                    None => ProgCode::Front,
                };
            }
        } else if at_zero.is_empty() {
            self.prog = ProgForm::Value;
        } else {
            return false;
        }
        for l in &facts.image.labels {
            if l.register >= 3 && l.register < d {
                match self.forms[l.register] {
                    Form::Block { own, .. }
                        if l.offset <= own && self.local[l.register].is_none() =>
                    {
                        self.block_labels[l.register].push((l.offset, l.name.clone()));
                    }
                    _ => return false,
                }
            }
        }
        // Code registers, and where prog's code goes.
        let mut attempts = vec![prog_code];
        if prog_code == ProgCode::Front {
            attempts.push(ProgCode::Back);
        }
        if let ProgCode::Before(_) = prog_code {
            attempts.push(ProgCode::Front);
            attempts.push(ProgCode::Back);
        }
        if prog_code != ProgCode::None {
            // Or after any code register (falling through into it when its
            // list ends with prog's).
            for place in (d..c0).map(ProgCode::After) {
                if !attempts.contains(&place) {
                    attempts.push(place);
                }
            }
        }
        // Declared registers: the last hand-laid blocks stop fall through
        // where needed; each comes with the registers declared after it.
        let blocks: Vec<usize> = (3..d)
            .filter(|&i| matches!(self.forms[i], Form::Block { .. }))
            .collect();
        let laid_out = attempts.get(prog_place).and_then(|&p| {
            self.lay_out(facts, d, c0, p, equals)
                .filter(|(_, breaks)| breaks.len() <= blocks.len())
        });
        let Some((segments, breaks)) = laid_out else {
            return false;
        };
        self.segments = segments;
        let chosen = &blocks[blocks.len() - breaks.len()..];
        let first_break = chosen.first().copied().unwrap_or(d);
        self.top = (3..first_break).collect();
        let mut next = first_break;
        for (t, &after) in breaks.iter().enumerate() {
            let until = chosen.get(t + 1).copied().unwrap_or(d);
            self.breaks.insert(after, (next..until).collect());
            next = until;
        }
        // Constants are numbered in order of first use.
        let (uses, after) = self.constant_uses(facts);
        let all: Vec<usize> = (c0..n).collect();
        self.dummy = if uses == all {
            Dummy::None
        } else if dummy_late {
            // After a segment that nothing falls out of, once the code
            // before has numbered constants in order.
            let place = (0..self.segments.len()).find(|&s| {
                let seg = &self.segments[s];
                let start = seg
                    .labels
                    .iter()
                    .map(|(o, _)| *o)
                    .filter(|&o| o < seg.own)
                    .max()
                    .unwrap_or(0);
                let closed = self.breaks.contains_key(&s)
                    || (!seg.falls && self.ends(facts, &seg.full[start..seg.own]));
                closed && all.starts_with(&uses[..after[s]])
            });
            match place {
                Some(s) => Dummy::After(s),
                None => return false,
            }
        } else {
            Dummy::Top
        };
        // Call stack.
        if let Some(cs) = facts.image.callstack {
            match (&self.plain[cs.stack], &self.plain[cs.link]) {
                (Some(s), Some(l)) => {
                    self.callstack = Some((s.clone(), l.clone()));
                    self.callstack_kept = true;
                }
                _ => return false,
            }
        }
        self.labels = facts.image.labels.clone();
        true
    }

    /// A hand-laid block for register `i` (its instructions and a tail),
    /// or data when its list cannot be written so. Tails may name
    /// registers below `declared` (and `prog`, `in`, `out`).
    fn block_form(&self, facts: &Facts, i: usize, declared: usize) -> Form {
        let reg = &facts.image.registers[i];
        let (instrs, rest) = &facts.code[i];
        if !facts.in_range[i] || (reg.contents.is_nil() && reg.limit < 0) {
            return Form::Data;
        }
        let lowest = facts.labels_of(i).map(|l| l.offset).max().unwrap_or(0);
        if lowest > instrs.len() {
            return Form::Data;
        }
        // Registers a tail can name, whose contents the assembler gives it.
        let size = reg.contents.size();
        let target_ok = |t: usize, own: usize| {
            if t == i || self.plain[t].is_none() || self.local[t].is_some() {
                return false;
            }
            let contents = &facts.image.registers[t].contents;
            match self.forms[t] {
                Form::Predeclared if t == 0 => self.prog == ProgForm::Value || contents.is_nil(),
                Form::Predeclared => true,
                Form::Auto | Form::Constant => false,
                _ if t >= declared => false,
                // Mapped registers may become blocks: their tails only get
                // shorter, so no cycle.
                _ if facts.mapped[t] => own > 0 && contents.size() < size,
                _ => true,
            }
        };
        // The list after each number of instructions.
        let mut suffixes = Vec::with_capacity(instrs.len() + 1);
        let mut t = &reg.contents;
        suffixes.push(t.clone());
        for _ in 0..instrs.len() {
            t = t.back().expect("an instruction is a cons");
            suffixes.push(t.clone());
        }
        // The longest tail that is another block's code; else none when
        // the list ends there; else the longest that is a value. (By
        // equality, not sharing: the same contents give the same text.)
        let tail = |code: bool| {
            suffixes
                .iter()
                .enumerate()
                .skip(lowest)
                .find_map(|(own, suffix)| {
                    if suffix.is_nil() {
                        return None;
                    }
                    (0..facts.n())
                        .find(|&t| {
                            facts.mapped[t] == code
                                && facts.image.registers[t].contents.size() == suffix.size()
                                && facts.image.registers[t].contents == *suffix
                                && target_ok(t, own)
                        })
                        .map(|t| Form::Block { own, tail: Some(t) })
                })
        };
        if let Some(form) = tail(true) {
            return form;
        }
        if rest.is_nil() {
            return Form::Block {
                own: instrs.len(),
                tail: None,
            };
        }
        if let Some(form) = tail(false) {
            return form;
        }
        Form::Data
    }

    /// Whether register `t` can only ever hold Nil, as the assembler sees
    /// it (a `reg` without a value and with a limit of 0 or less): then
    /// `copyifnil t, L, prog` always jumps and ends its block.
    fn always_nil(&self, facts: &Facts, t: i64) -> bool {
        let Ok(t) = usize::try_from(t) else {
            return false;
        };
        t >= 3
            && t < facts.n()
            && self.forms[t] == Form::Data
            && facts.image.registers[t].contents.is_nil()
            && (facts.image.registers[t].limit < 0
                || (facts.image.registers[t].limit == 0 && !self.nil_values))
    }

    /// Whether an instruction always replaces `prog` (so the assembler
    /// ends its block there).
    fn terminates(&self, facts: &Facts, i: &Instruction) -> bool {
        match *i {
            Instruction::Nilify(a) => a == 0,
            Instruction::Construct(_, _, c) => c == 0,
            Instruction::Deconstruct(_, b, c) => b == 0 || c == 0,
            Instruction::CopyIfNil(a, _, c) => c == 0 && self.always_nil(facts, a),
        }
    }

    /// Whether the assembler ends a block of these instructions (the code
    /// after its last label): its last instruction always replaces `prog`
    /// (and, as the assembler's rule has it, nothing read `prog` for a
    /// `call` to come back to).
    fn ends(&self, facts: &Facts, block: &[Instruction]) -> bool {
        let reads_prog = |i: &Instruction| match *i {
            Instruction::Nilify(_) => false,
            Instruction::Construct(a, b, _) | Instruction::CopyIfNil(a, b, _) => a == 0 || b == 0,
            Instruction::Deconstruct(a, _, _) => a == 0,
        };
        let Some(last) = block.last() else {
            return false;
        };
        self.terminates(facts, last)
            && match rules().ends {
                EndsRule::Always => true,
                EndsRule::UnlessAfterRead => {
                    block.len() < 2 || !reads_prog(&block[block.len() - 2])
                }
                EndsRule::UnlessBlockReads => !block.iter().any(reads_prog),
            }
    }

    /// Lays out the code registers `[d, c0)` and prog's own code: which
    /// falls through into which, where each label goes, and after which
    /// segments a hand-laid block must stop the fall through.
    fn lay_out(
        &self,
        facts: &Facts,
        d: usize,
        c0: usize,
        prog_code: ProgCode,
        equals: Option<usize>,
    ) -> Option<(Vec<Segment>, Vec<usize>)> {
        let segment = |register: Option<usize>| Segment {
            register,
            full: facts.code[register.unwrap_or(0)].0.clone(),
            own: facts.code[register.unwrap_or(0)].0.len(),
            falls: false,
            labels: Vec::new(),
            entry: register.is_none() || register == equals,
        };
        let mut segments = Vec::new();
        if prog_code == ProgCode::Front {
            segments.push(segment(None));
        }
        for r in d..c0 {
            if prog_code == ProgCode::Before(r) {
                segments.push(segment(None));
            }
            segments.push(segment(Some(r)));
            if prog_code == ProgCode::After(r) {
                segments.push(segment(None));
            }
        }
        if prog_code == ProgCode::Back {
            segments.push(segment(None));
        }
        if self.prog == ProgForm::Value {
            for s in &mut segments {
                s.entry = false;
            }
        }
        let label_at = |r: usize, offset: usize| facts.labels_of(r).any(|l| l.offset == offset);
        // Fall through where the next segment is the rest of the list.
        for s in 0..segments.len().saturating_sub(1) {
            let next = segments[s + 1].register;
            let (full, next_full) = (&segments[s].full, &segments[s + 1].full);
            if next_full.len() >= full.len() {
                continue;
            }
            let m = full.len() - next_full.len();
            let here = segments[s].register.unwrap_or(0);
            let start = facts
                .labels_of(here)
                .map(|l| l.offset)
                .filter(|&o| o < m)
                .max()
                .unwrap_or(0);
            // (Where the first code to reach a label takes it, the next
            // register's labels past its start would be this one's.)
            let captured = rules().labels == LabelRule::FirstReached
                && next.is_some_and(|r| facts.labels_of(r).any(|l| l.offset > 0));
            let allowed = full[m..] == next_full[..]
                && !self.ends(facts, &full[start..m])
                && !captured
                && !label_at(here, m);
            if allowed {
                segments[s].falls = true;
                segments[s].own = m;
            } else if let Some(next) = next
                && prog_code == ProgCode::Before(next)
                && segments[s].register.is_none()
            {
                return None;
            }
        }
        // Labels, along the chains. A label where a segment falls through
        // would start the next one's block: that segment writes all its
        // instructions instead, and the labels are placed again.
        let mut trailing;
        'place: loop {
            for seg in &mut segments {
                seg.labels.clear();
            }
            trailing = vec![false; segments.len()];
            for l in &facts.image.labels {
                let start = if l.register == 0 && self.entry_block.is_some() {
                    continue;
                } else if l.register == 0 {
                    segments.iter().position(|s| s.entry)?
                } else if l.register >= d && l.register < c0 {
                    segments
                        .iter()
                        .position(|s| s.register == Some(l.register))?
                } else {
                    continue;
                };
                let (mut s, mut offset) = (start, l.offset);
                loop {
                    let seg = &segments[s];
                    if offset < seg.own || (offset == 0 && s == start) {
                        break;
                    }
                    // Past the segment's own code a label is the next
                    // block's: the next register's (its own, or the one
                    // that reaches it first, by the assembler's rule).
                    let structural = rules().labels == LabelRule::Structural;
                    if seg.falls && (offset == seg.own || structural) {
                        segments[s].falls = false;
                        segments[s].own = segments[s].full.len();
                        continue 'place;
                    }
                    if offset == seg.own {
                        trailing[s] = true;
                        break;
                    }
                    if !seg.falls {
                        return None;
                    }
                    offset -= seg.own;
                    s += 1;
                }
                segments[s].labels.push((offset, l.name.clone()));
            }
            break;
        }
        // Where fall through must be stopped.
        let mut breaks = Vec::new();
        for (s, seg) in segments.iter().enumerate() {
            let start = seg
                .labels
                .iter()
                .map(|(o, _)| *o)
                .filter(|&o| o < seg.own)
                .max()
                .unwrap_or(0);
            let ends = self.ends(facts, &seg.full[start..seg.own]);
            if trailing[s] && ends {
                return None;
            }
            if s + 1 < segments.len() && !seg.falls && (trailing[s] || !ends) {
                breaks.push(s);
            }
        }
        Some((segments, breaks))
    }

    /// Every register declared (`with_blocks`: code as `block`s, else
    /// everything as data).
    fn declared(&mut self, facts: &Facts, with_blocks: bool, keep_names: bool) -> bool {
        let n = facts.n();
        let mut count: HashMap<&str, usize> = HashMap::new();
        for i in 3..n {
            *count.entry(facts.name(i)).or_default() += 1;
        }
        let mut used: HashSet<String> = ["prog", "in", "out"].map(String::from).into();
        for i in 3..n {
            let name = facts.name(i);
            if name_kind(name) == NameKind::Plain
                && count[name] == 1
                && !["prog", "in", "out"].contains(&name)
            {
                self.plain[i] = Some(name.to_string());
                used.insert(name.to_string());
            }
        }
        for i in 3..n {
            if self.plain[i].is_some() {
                continue;
            }
            let name = facts.name(i);
            if keep_names
                && !["prog", "in", "out"].contains(&name)
                && let Some(local) = Local::of(name)
            {
                self.local[i] = Some(local);
                continue;
            }
            let mut renamed = format!("r{i}");
            while used.contains(&renamed) || self.taken.contains(&renamed) {
                renamed.push('_');
            }
            used.insert(renamed.clone());
            self.taken.insert(renamed.clone());
            self.names[i] = renamed.clone();
            self.plain[i] = Some(renamed);
        }
        if with_blocks {
            for i in 3..n {
                if facts.mapped[i] {
                    self.forms[i] = self.block_form(facts, i, n);
                }
            }
            let mut label_names = HashSet::new();
            for l in &facts.image.labels {
                let placed = l.register >= 3
                    && self.local[l.register].is_none()
                    && matches!(self.forms[l.register], Form::Block { own, .. } if l.offset <= own)
                    && is_ident(&l.name)
                    && !used.contains(&l.name)
                    && label_names.insert(l.name.clone());
                if placed {
                    self.block_labels[l.register].push((l.offset, l.name.clone()));
                    self.labels.push(l.clone());
                } else {
                    self.dropped
                        .push(format!("{} (r{}, offset {})", l.name, l.register, l.offset));
                }
            }
        } else {
            for l in &facts.image.labels {
                self.dropped
                    .push(format!("{} (r{}, offset {})", l.name, l.register, l.offset));
            }
        }
        self.top = (3..n).collect();
        if let Some(cs) = facts.image.callstack
            && let (Some(s), Some(l)) = (&self.plain[cs.stack], &self.plain[cs.link])
        {
            self.callstack = Some((s.clone(), l.clone()));
            self.callstack_kept = true;
        }
        true
    }

    /// The constant registers in the order the text first uses them
    /// (blocks in text order, operands in order).
    /// Also, per segment, how many constants the text has used after it
    /// (and the blocks that follow it).
    fn constant_uses(&self, facts: &Facts) -> (Vec<usize>, Vec<usize>) {
        let visit = |seen: &mut Vec<usize>, instrs: &[Instruction]| {
            for i in instrs {
                for (k, &o) in operands(i).iter().enumerate() {
                    if let Ok(o) = usize::try_from(o)
                        && o >= self.first_constant
                        && o < self.forms.len()
                        && !written(i, k)
                        && !seen.contains(&o)
                    {
                        seen.push(o);
                    }
                }
            }
        };
        let block = |r: usize| match self.forms[r] {
            Form::Block { own, .. } => &facts.code[r].0[..own],
            _ => &[],
        };
        let mut seen = Vec::new();
        for &r in &self.top {
            visit(&mut seen, block(r));
        }
        let mut after = Vec::new();
        for (s, seg) in self.segments.iter().enumerate() {
            visit(&mut seen, &seg.full[..seg.own]);
            for &r in self.breaks.get(&s).map_or(&[][..], Vec::as_slice) {
                visit(&mut seen, block(r));
            }
            after.push(seen.len());
        }
        (seen, after)
    }

    /// Assembles the text and compares it with the image.
    fn verify(&self, facts: &Facts, text: &str) -> bool {
        let assembly = super::assemble(
            &MemoryLoader::default(),
            SourceFile::new("<disassembly>".into(), None, text.to_string()),
        );
        let Some(out) = assembly.image else {
            return false;
        };
        if out.registers.len() != facts.n() {
            return false;
        }
        for (i, (got, want)) in out.registers.iter().zip(&facts.image.registers).enumerate() {
            if got.name != self.names[i]
                || got.limit != facts.limit(i, false)
                || got.contents != want.contents
            {
                return false;
            }
        }
        let sorted = |labels: &[LabelSymbol]| {
            let mut v: Vec<(String, usize, usize)> = labels
                .iter()
                .map(|l| (l.name.clone(), l.register, l.offset))
                .collect();
            v.sort();
            v
        };
        if sorted(&out.labels) != sorted(&self.labels) {
            return false;
        }
        let callstack = if self.callstack_kept {
            facts.image.callstack
        } else {
            None
        };
        out.callstack == callstack
    }
}

/// Hands out names for the text's own macros and constants that clash with
/// nothing in the image.
struct Fresh {
    taken: HashSet<String>,
    next: usize,
}

impl Fresh {
    fn name(&mut self, hint: &str) -> String {
        loop {
            let name = format!("_dis{}_{hint}", self.next);
            self.next += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

/// The text being written.
struct Writer<'p, 'f> {
    plan: &'p Plan,
    facts: &'p Facts<'f>,
    exact: bool,
    out: String,
    fresh: Fresh,
    /// Registers some operand names: their labels are jumped to.
    named: HashSet<usize>,
    /// Macro invocations so far: the assembler numbers local names with
    /// this count.
    count: u64,
    /// Macros that expand to nothing, 1, 11, 111, ... expansions in all, to
    /// bring the count up to a local name's number.
    fillers: Vec<String>,
    /// The registers named inside the macro being written.
    group: Vec<usize>,
}

impl Plan {
    /// The text; `exact`: registers whose contents exceed their limit get
    /// that limit (else their size, to check the rest).
    fn render(&self, facts: &Facts, exact: bool) -> String {
        let mut w = Writer {
            plan: self,
            facts,
            exact,
            out: String::new(),
            fresh: Fresh {
                taken: self.taken.clone(),
                next: 0,
            },
            named: HashSet::new(),
            count: 0,
            fillers: Vec::new(),
            group: Vec::new(),
        };
        w.write();
        w.out
    }
}

/// `1, 11, 111, ...`: the expansions of the filler macros.
fn repunit(level: usize) -> u64 {
    (0..level).fold(1u64, |r, _| r.saturating_mul(10).saturating_add(1))
}

impl Writer<'_, '_> {
    fn line(&mut self, text: impl AsRef<str>) {
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    /// A line with a `; comment` lined up after it.
    fn commented(&mut self, text: &str, comment: &str) {
        let _ = writeln!(self.out, "{text:<31} ; {comment}");
    }

    fn write(&mut self) {
        let (plan, facts) = (self.plan, self.facts);
        let image = facts.image;
        let compiler = if image.compiler.is_empty() {
            "an unknown compiler".to_string()
        } else {
            image.compiler.clone()
        };
        let hash = if image.sources_hash.is_empty() {
            "unknown".to_string()
        } else {
            image.sources_hash.clone()
        };
        self.line(format!(
            "; disassembled from an image built by {compiler} from {} file{} (sources hash {hash})",
            image.files.len(),
            if image.files.len() == 1 { "" } else { "s" }
        ));
        self.line(match plan.tier {
            Tier::Faithful { .. } => {
                "; registers are declared in index order (`; rN`); the code registers follow, in order"
            }
            Tier::Declared { blocks: true, .. } => {
                "; every register is declared, in index order (`; rN`)"
            }
            Tier::Declared { blocks: false, .. } => {
                "; every register is declared with its contents, in index order (`; rN`)"
            }
        });
        self.filler_macros();
        if plan.dummy == Dummy::Top {
            self.line("");
            self.dummy();
        }
        for i in 0..facts.n().min(3) {
            self.predeclared(i);
        }
        self.declarations(&plan.top);
        if let Some((stack, link)) = &plan.callstack {
            self.line(format!("callstack {stack}, {link}"));
        } else if let Some(cs) = image.callstack {
            self.line(format!(
                "; the call stack (r{}, r{}) has no names to write `callstack` with",
                cs.stack, cs.link
            ));
        }
        if let Some(entry) = self.plain_entry() {
            self.line(format!("entry {entry}"));
        }
        let mut s = 0;
        while s < plan.segments.len() {
            let group = self.segment_group(s);
            let last = s + group - 1;
            self.segments(s, last);
            for k in s..=last {
                if let Some(regs) = plan.breaks.get(&k) {
                    self.line("");
                    self.line("; (a hand-laid block ends the fall through)");
                    self.declarations(regs);
                }
                if plan.dummy == Dummy::After(k) {
                    self.line("");
                    let label = self.fresh.name("constants");
                    self.line(format!("{label}:"));
                    self.dummy();
                }
            }
            s = last + 1;
        }
        self.wanted();
        if !plan.dropped.is_empty() {
            self.line("");
            self.line("; labels this form cannot write:");
            for d in &plan.dropped {
                self.line(format!(";   {d}"));
            }
        }
    }

    /// The filler macros, if some local name has a number.
    fn filler_macros(&mut self) {
        let highest = self
            .plan
            .local
            .iter()
            .flatten()
            .filter_map(|l| l.number)
            .max()
            .unwrap_or(0);
        if highest < 2 {
            return;
        }
        let mut levels = 1;
        while repunit(levels) < u64::from(highest) {
            levels += 1;
        }
        self.line("");
        self.line("; macros that expand to nothing: names local to a macro expansion are");
        self.line("; numbered by the expansions before it, and these make up the count");
        for level in 0..levels {
            let name = self.fresh.name(&format!("skip{}", repunit(level)));
            self.line(format!("macro {name}"));
            if let Some(inner) = self.fillers.last().cloned() {
                for _ in 0..10 {
                    self.line(format!("    {inner}"));
                }
            }
            self.line("end");
            self.fillers.push(name);
        }
    }

    /// Invokes a macro of the text's own, first bringing the expansion
    /// count to `number - 1` when the macro's local names need a number.
    fn invoke(&mut self, name: &str, number: Option<u32>, comment: &str) {
        if let Some(n) = number {
            let mut gap = u64::from(n).saturating_sub(self.count + 1);
            for level in (0..self.fillers.len()).rev() {
                while gap >= repunit(level) {
                    let filler = self.fillers[level].clone();
                    self.line(filler);
                    gap -= repunit(level);
                    self.count += repunit(level);
                }
            }
        }
        self.commented(name, comment);
        self.count += 1;
    }

    /// A block that never runs and names every constant, so that they are
    /// numbered as in the image.
    fn dummy(&mut self) {
        self.line("; never runs: names the constants in their order (they are numbered as");
        self.line("; blocks first use them)");
        for c in self.plan.first_constant..self.facts.n() {
            let v = value(&self.facts.image.registers[c].contents, false);
            self.commented(&format!("    copyifnil #{v}, #{v}, out"), &format!("r{c}"));
        }
        self.line("    nilify prog");
        self.line("");
    }

    /// The comment lines before a register whose contents exceed its
    /// limit.
    fn over_note(&mut self, r: usize) {
        let reg = &self.facts.image.registers[r];
        if !self.facts.over[r] {
            return;
        }
        self.line(format!(
            "; NOTE: r{r} holds {} conses, more than its limit {} allows: no source gives",
            reg.contents.size(),
            reg.limit
        ));
        self.line(format!(
            "; such an image, and the assembler rejects this line (E0603). With the limit {}",
            reg.contents.size()
        ));
        self.line("; the text assembles, to this image but for that limit.");
    }

    fn predeclared(&mut self, i: usize) {
        let (plan, facts) = (self.plan, self.facts);
        let reg = &facts.image.registers[i];
        let name = &plan.names[i];
        let limit = facts.limit(i, self.exact);
        self.over_note(i);
        if facts.name(i) != name {
            self.line(format!(
                "; r{i} is named {:?} in the image; it can only be `{name}`",
                facts.name(i)
            ));
        }
        let top_level_code = plan.dummy != Dummy::None || !plan.segments.is_empty();
        let text = if i == 0 && plan.prog == ProgForm::Chain {
            format!("reg prog {limit}")
        } else if reg.contents.is_nil() && !(i == 0 && top_level_code) {
            format!("reg {name} {limit}")
        } else {
            let shown = if i == 2 {
                command_value(&reg.contents)
            } else {
                value(&reg.contents, i == 0 && facts.mapped[0])
            };
            format!("reg {name} {limit} = {shown}")
        };
        let comment = match (i, plan.prog) {
            (0, ProgForm::Chain) => "r0, starts with the code at `entry`".to_string(),
            _ => format!("r{i}"),
        };
        self.commented(&text, &comment);
    }

    /// Declared registers, in order; those with local names inside macros
    /// of their own (one per expansion number).
    fn declarations(&mut self, regs: &[usize]) {
        let plan = self.plan;
        let mut k = 0;
        while k < regs.len() {
            let r = regs[k];
            let Some(local) = &plan.local[r] else {
                self.declaration(r);
                k += 1;
                continue;
            };
            let mut group = vec![r];
            if local.number.is_some() {
                while let Some(&next) = regs.get(k + group.len())
                    && plan.local[next]
                        .as_ref()
                        .is_some_and(|l| l.number == local.number)
                {
                    group.push(next);
                }
            }
            let m = self.fresh.name(&format!("r{r}"));
            let described: Vec<String> = group
                .iter()
                .map(|&g| format!("r{g} `{}`", plan.names[g]))
                .collect();
            self.line("");
            self.line(format!(
                "; {}: local to a macro expansion",
                described.join(", ")
            ));
            self.line(format!("macro {m}"));
            self.line("if 0");
            for &g in &group {
                if let Some(l) = &plan.local[g] {
                    self.line(format!("{}:", l.base));
                }
            }
            self.line("end");
            self.group = group.clone();
            for &g in &group {
                self.declaration(g);
            }
            self.group.clear();
            self.line("end");
            self.invoke(&m, local.number, &format!("r{r}"));
            k += group.len();
        }
    }

    /// The name a register is declared with here.
    fn declared_name(&self, r: usize) -> String {
        match &self.plan.local[r] {
            Some(l) => l.base.clone(),
            None => self.plan.names[r].clone(),
        }
    }

    /// A declared register: `reg` or `block`.
    fn declaration(&mut self, r: usize) {
        let (plan, facts) = (self.plan, self.facts);
        let reg = &facts.image.registers[r];
        let name = self.declared_name(r);
        let limit = facts.limit(r, self.exact);
        self.over_note(r);
        if facts.name(r) != plan.names[r] {
            self.line(format!(
                "; r{r} is named {:?} in the image, which cannot be written",
                facts.name(r)
            ));
        }
        match plan.forms[r] {
            Form::Block { own, tail } => {
                self.line("");
                let count = facts.code[r].0.len();
                let plural = if count == 1 { "" } else { "s" };
                self.commented(
                    &format!("block {name} {limit}"),
                    &format!("r{r}, {count} instruction{plural}"),
                );
                let labels = &plan.block_labels[r];
                let instrs = &facts.code[r].0[..own];
                for (o, instr) in instrs.iter().enumerate() {
                    self.labels_at(labels, o);
                    let text = self.instruction(instr);
                    self.line(format!("    {text}"));
                }
                self.labels_at(labels, own);
                if let Some(t) = tail {
                    let target = plan.plain[t].clone().unwrap_or_default();
                    self.line(format!("    tail {target}"));
                }
                self.line("end");
            }
            _ => {
                let nil_value = plan.nil_values && reg.limit == 0;
                let text = if reg.contents.is_nil() && !nil_value {
                    format!("reg {name} {limit}")
                } else {
                    format!(
                        "reg {name} {limit} = {}",
                        value(&reg.contents, facts.mapped[r])
                    )
                };
                self.commented(&text, &format!("r{r}"));
            }
        }
    }

    fn labels_at(&mut self, labels: &[(usize, String)], offset: usize) {
        for (o, l) in labels {
            if *o == offset {
                self.line(format!("{l}:"));
            }
        }
    }

    /// The label `entry` names at the top level, if prog's code starts at
    /// a plain label.
    fn plain_entry(&self) -> Option<String> {
        let plan = self.plan;
        if plan.prog != ProgForm::Chain {
            return None;
        }
        if let Some(h) = plan.entry_block {
            return plan.plain[h].clone();
        }
        let seg = plan.segments.iter().find(|s| s.entry)?;
        match seg.register {
            Some(r) => plan.plain[r].clone(),
            None => seg
                .labels
                .iter()
                .find(|(o, _)| *o == 0)
                .map(|(_, l)| l.clone()),
        }
    }

    /// How many segments from `s` on are named by one macro: code
    /// registers whose local names have the same number.
    fn segment_group(&self, s: usize) -> usize {
        let plan = self.plan;
        let local = |k: usize| {
            plan.segments
                .get(k)
                .and_then(|seg| seg.register)
                .and_then(|r| plan.local[r].as_ref())
        };
        let Some(first) = local(s) else {
            return 1;
        };
        if first.number.is_none() {
            return 1;
        }
        let mut n = 1;
        while local(s + n).is_some_and(|l| l.number == first.number) {
            n += 1;
        }
        n
    }

    /// Code registers `first..=last` laid out from labels (or prog's own
    /// code): plain labels, or local ones from one macro.
    fn segments(&mut self, first: usize, last: usize) {
        let plan = self.plan;
        let seg = &plan.segments[first];
        self.line("");
        let entry_here = |seg: &Segment| seg.entry && plan.prog == ProgForm::Chain;
        match seg.register {
            Some(r) if plan.local[r].is_none() => {
                let name = plan.plain[r].clone().unwrap_or_default();
                self.commented(&format!("{name}:"), &format!("r{r}"));
                self.segment_body(first, Some(&name));
            }
            Some(r) => {
                let m = self.fresh.name(&format!("r{r}"));
                let group: Vec<usize> = (first..=last)
                    .filter_map(|k| plan.segments[k].register)
                    .collect();
                let described: Vec<String> = group
                    .iter()
                    .map(|&g| format!("r{g} `{}`", plan.names[g]))
                    .collect();
                self.line(format!(
                    "; {}: local to a macro expansion",
                    described.join(", ")
                ));
                self.line(format!("macro {m}"));
                self.group = group;
                for k in first..=last {
                    let seg = &plan.segments[k];
                    let Some(g) = seg.register else { continue };
                    let base = plan.local[g].as_ref().map_or("", |l| l.base.as_str());
                    let c = self.fresh.name("code");
                    self.line(format!("{base}:"));
                    self.line(format!("const {c} = code({base})"));
                    if entry_here(seg) {
                        self.line(format!("entry {base}"));
                    }
                    if k < last {
                        self.segment_body(k, None);
                    }
                }
                self.group.clear();
                self.line("end");
                let number = plan.local[r].as_ref().and_then(|l| l.number);
                self.invoke(&m, number, &format!("r{r}"));
                self.segment_body(last, None);
            }
            None => {
                let labelled = seg.labels.iter().any(|(o, _)| *o == 0);
                // The first block that no label starts (at the start, or
                // after a hand-laid block) is prog's by itself; else a
                // label of no name starts prog's code, through `entry`.
                let by_itself = plan.dummy != Dummy::Top
                    && seg.own > 0
                    && (first == 0
                        || (plan.breaks.contains_key(&(first - 1))
                            && plan.dummy != Dummy::After(first - 1)));
                if entry_here(seg) && !labelled && !by_itself {
                    let m = self.fresh.name("entry");
                    self.line(format!("macro {m}"));
                    self.line("start:");
                    self.line("entry start");
                    self.line("end");
                    self.invoke(&m, None, "r0: prog's own code starts here");
                } else {
                    self.line("; prog's own code starts here");
                }
                self.segment_body(first, None);
            }
        }
    }

    /// A segment's labels and instructions (after its naming label).
    fn segment_body(&mut self, s: usize, naming: Option<&str>) {
        let plan = self.plan;
        let seg = &plan.segments[s];
        for (o, l) in &seg.labels {
            if *o == 0 && Some(l.as_str()) != naming {
                self.line(format!("{l}:"));
            }
        }
        for o in 0..seg.own {
            if o > 0 {
                self.labels_at(&seg.labels, o);
            }
            let text = self.instruction(&seg.full[o]);
            self.line(format!("    {text}"));
        }
        if seg.own > 0 {
            self.labels_at(&seg.labels, seg.own);
        }
        if seg.falls
            && let Some(next) = plan.segments.get(s + 1).and_then(|n| n.register)
        {
            self.line(format!("    ; falls through into r{next}"));
        }
    }

    /// Code registers with a plain label that no operand names: a constant
    /// names them, so the assembler gives them their register.
    fn wanted(&mut self) {
        let plan = self.plan;
        let mut lines = Vec::new();
        for seg in &plan.segments {
            if let Some(r) = seg.register
                && plan.local[r].is_none()
                && let Some(name) = &plan.plain[r]
                && !self.named.contains(&r)
            {
                let c = self.fresh.name("code");
                lines.push(format!("const {c} = code({name})"));
            }
        }
        if !lines.is_empty() {
            self.line("");
            self.line(
                "; code registers no instruction names (a label that is named gets a register)",
            );
            for l in lines {
                self.line(l);
            }
        }
    }

    /// An instruction with register names, constants as values; a comment
    /// names the registers written as numbers.
    fn instruction(&mut self, i: &Instruction) -> String {
        let ops: Vec<String> = operands(i)
            .iter()
            .enumerate()
            .map(|(k, &o)| self.operand(i, k, o))
            .collect();
        let text = format!("{} {}", mnemonic(i), ops.join(", "));
        let mut notes: Vec<String> = Vec::new();
        for (op, &o) in ops.iter().zip(operands(i).iter()) {
            if let Ok(r) = usize::try_from(o)
                && *op == o.to_string()
                && r < self.facts.n()
            {
                let note = format!("{r}: {}", self.plan.names[r]);
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
        if notes.is_empty() {
            text
        } else {
            format!("{text:<27} ; {}", notes.join(", "))
        }
    }

    fn operand(&mut self, i: &Instruction, k: usize, o: i64) -> String {
        let plan = self.plan;
        let Ok(r) = usize::try_from(o) else {
            return o.to_string();
        };
        if r >= plan.forms.len() {
            return o.to_string();
        }
        if plan.forms[r] == Form::Constant && !written(i, k) {
            return format!("#{}", value(&self.facts.image.registers[r].contents, false));
        }
        // Inside a macro, its local names stand for its own registers.
        if self.group.contains(&r)
            && let Some(l) = &plan.local[r]
        {
            return l.base.clone();
        }
        match &plan.plain[r] {
            Some(name)
                if !self
                    .group
                    .iter()
                    .any(|&g| plan.local[g].as_ref().is_some_and(|l| l.base == *name)) =>
            {
                self.named.insert(r);
                name.clone()
            }
            _ => o.to_string(),
        }
    }
}

/// Brackets nest at most this deep in the values written (the assembler
/// takes 200).
const MAX_NESTING: usize = 100;

/// A value that assembles to exactly `tree`: a number, a command, a list of
/// them (or of instructions when `code` and the tree is a code list), else
/// `bits("...")`.
pub(crate) fn value(tree: &Tree, code: bool) -> String {
    if tree.is_nil() {
        return "nil".to_string();
    }
    if let Some(text) = scalar(tree) {
        return text;
    }
    if let Some(text) = code_list(tree, code) {
        return text;
    }
    let bits = format!("bits(\"{}\")", tree.to_bits());
    match list(tree, 1) {
        Some(text) if text.len() <= 2 * bits.len() || tree.size() <= 40 => text,
        _ => bits,
    }
}

/// A value, read as a command when it is one (for `out`).
fn command_value(tree: &Tree) -> String {
    match Command::decode(tree) {
        Some(c) if &c.encode() == tree => show::command(&c).unwrap_or_else(|| value(tree, false)),
        _ => value(tree, false),
    }
}

/// A number or a command without a memory (`show::literal` gives those
/// whatever the size; its readable lists are left to [`list`]).
fn scalar(tree: &Tree) -> Option<String> {
    show::literal(tree, 0).filter(|t| !t.starts_with('['))
}

/// An instruction as a value: `CopyIfNil 6 10 0`.
fn instruction_value(i: &Instruction) -> String {
    let arg = |n: i64| {
        if n < 0 {
            format!("({n})")
        } else {
            n.to_string()
        }
    };
    match *i {
        Instruction::Nilify(a) => format!("Nilify {}", arg(a)),
        Instruction::Construct(a, b, c) => {
            format!("Construct {} {} {}", arg(a), arg(b), arg(c))
        }
        Instruction::Deconstruct(a, b, c) => {
            format!("Deconstruct {} {} {}", arg(a), arg(b), arg(c))
        }
        Instruction::CopyIfNil(a, b, c) => {
            format!("CopyIfNil {} {} {}", arg(a), arg(b), arg(c))
        }
    }
}

/// A list of instructions, `[Nilify 0, CopyIfNil 6 10 0]`: when `code`, or
/// when some element does not read as a number.
fn code_list(tree: &Tree, code: bool) -> Option<String> {
    let (instrs, rest) = exact_prefix(tree);
    if instrs.is_empty() || !rest.is_nil() {
        return None;
    }
    let numbers = tree
        .iter_list()
        .all(|e| i64::decode(e).is_some_and(|n| &n.encode() == e));
    if numbers && !code {
        return None;
    }
    let items: Vec<String> = instrs.iter().map(instruction_value).collect();
    Some(format!("[{}]", items.join(", ")))
}

/// A list whose elements are numbers, commands, instructions or such lists,
/// `[a, b, c]`, ending `| n` when the rest of the spine is a number.
fn list(tree: &Tree, depth: usize) -> Option<String> {
    if depth > MAX_NESTING {
        return None;
    }
    let mut items = Vec::new();
    let mut tail = None;
    let mut t = tree;
    let mut all_numbers = true;
    while let Some((front, back)) = t.split() {
        let item = if front.is_nil() {
            None
        } else if let Some(s) = scalar(front) {
            all_numbers &= i64::decode(front).is_some_and(|n| &n.encode() == front);
            Some(s)
        } else if let Some(i) = Instruction::decode(front).filter(|i| &i.encode() == front) {
            all_numbers = false;
            Some(instruction_value(&i))
        } else {
            all_numbers = false;
            Some(list(front, depth + 1)?)
        };
        items.push(item);
        if back.is_cons()
            && let Some(n) = i64::decode(back).filter(|n| &n.encode() == back)
        {
            tail = Some(n);
            break;
        }
        t = back;
    }
    let nil = if all_numbers { "0" } else { "nil" };
    let items: Vec<String> = items
        .into_iter()
        .map(|i| i.unwrap_or_else(|| nil.to_string()))
        .collect();
    Some(match tail {
        Some(n) => format!("[{} | {n}]", items.join(", ")),
        None => format!("[{}]", items.join(", ")),
    })
}

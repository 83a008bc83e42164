//! The disassembler: assembling its output gives the image back.
//!
//! * every example program (and the Shot solver, in a folder), every
//!   assembler test case that assembles, and programs written here (most of
//!   them `use std/control`) go source -> image -> text -> image, and the
//!   two images must have the same registers (names, limits, contents),
//!   labels and call stack;
//! * random programs made of random pieces do the same (a property);
//! * random images, not made by the assembler, come back with the same
//!   memory (limits and contents);
//! * the text for a small program is kept as a snapshot.

use constree::asm::disasm::disassemble;
use constree::asm::source::{DiskLoader, MemoryLoader, SourceFile};
use constree::asm::{assemble, assemble_file};
use constree::encoding::Encode;
use constree::image::format::{from_json, to_json};
use constree::image::{CallStack, Image, ImageRegister, LabelSymbol};
use constree::machine::Instruction;
use constree::tree::Tree;
use proptest::prelude::*;
use std::path::Path;

/// Assembles a program held in memory (`std/...` modules are the built-in
/// ones).
fn assemble_text(name: &str, text: &str) -> Result<Image, String> {
    let assembly = assemble(
        &MemoryLoader::default(),
        SourceFile::new(name.to_string(), None, text.to_string()),
    );
    let rendered = assembly.render(false);
    assembly.image.ok_or(rendered)
}

/// `(name, register, offset)`, sorted.
fn labels(image: &Image) -> Vec<(String, usize, usize)> {
    let mut v: Vec<_> = image
        .labels
        .iter()
        .map(|l| (l.name.clone(), l.register, l.offset))
        .collect();
    v.sort();
    v
}

/// Panics with both images' differences and the text when `again` is not
/// `image` (registers by name, limit and contents; labels; call stack).
fn assert_same(image: &Image, again: &Image, text: &str, what: &str) {
    let describe = |i: &Image| {
        i.registers
            .iter()
            .enumerate()
            .map(|(k, r)| {
                format!(
                    "r{k} {} limit {} size {}",
                    r.name,
                    r.limit,
                    r.contents.size()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        image.registers.len(),
        again.registers.len(),
        "{what}: register count\n{}\n---\n{}\n---\n{text}",
        describe(image),
        describe(again)
    );
    for (k, (a, b)) in image.registers.iter().zip(&again.registers).enumerate() {
        assert!(
            a.name == b.name && a.limit == b.limit && a.contents == b.contents,
            "{what}: register {k} differs: {} limit {} size {} vs {} limit {} size {}\n---\n{text}",
            a.name,
            a.limit,
            a.contents.size(),
            b.name,
            b.limit,
            b.contents.size()
        );
    }
    assert_eq!(labels(image), labels(again), "{what}: labels\n---\n{text}");
    assert_eq!(
        image.callstack, again.callstack,
        "{what}: call stack\n---\n{text}"
    );
}

/// Disassembles, assembles the text and compares; returns the text.
fn round_trip(image: &Image, what: &str) -> String {
    let text = disassemble(image);
    let again = assemble_text("disassembly.cta", &text)
        .unwrap_or_else(|e| panic!("{what}: the disassembly does not assemble:\n{e}\n---\n{text}"));
    assert_same(image, &again, &text, what);
    text
}

/// The text without its first line (which names the sources).
fn body(text: &str) -> String {
    text.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// The full round trip of an assembled program: its text assembles to it,
/// the text of that image is the same text, and an image read back from
/// its `.ctm` JSON (where equal subtrees are one node) gives an image equal
/// to it too.
fn check_program(image: &Image, what: &str) {
    let text = round_trip(image, what);
    let again = assemble_text("disassembly.cta", &text).expect("checked");
    assert_eq!(
        body(&disassemble(&again)),
        body(&text),
        "{what}: not a fixed point"
    );
    let loaded = from_json(&to_json(image)).expect("an image reads back");
    round_trip(&loaded, &format!("{what} (read from JSON)"));
}

fn cta_files(dir: &str) -> Vec<String> {
    let mut paths: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path().display().to_string())
                .filter(|p| p.ends_with(".cta"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
}

#[test]
fn every_example_round_trips() {
    let paths = cta_files("examples");
    assert!(!paths.is_empty(), "no examples/*.cta");
    for path in paths {
        let assembly = assemble_file(&DiskLoader::default(), Path::new(&path));
        let Some(image) = &assembly.image else {
            panic!("{path} does not assemble:\n{}", assembly.render(false));
        };
        check_program(image, &path);
    }
}

#[test]
fn the_shot_solver_round_trips() {
    // An example in a folder, with modules of its own and 700 registers of
    // unrolled code.
    let path = "examples/shot/shot.cta";
    let assembly = assemble_file(&DiskLoader::default(), Path::new(path));
    let image = assembly.image.expect("shot.cta assembles");
    check_program(&image, path);
}

#[test]
fn every_assembler_case_that_assembles_round_trips() {
    let mut checked = 0;
    for path in cta_files("tests/asm/cases") {
        let assembly = assemble_file(&DiskLoader::default(), Path::new(&path));
        if let Some(image) = assembly.image {
            check_program(&image, &path);
            checked += 1;
        }
    }
    assert!(checked > 0, "no case assembles");
}

/// Programs that use the standard library and the corners of layout.
const SAMPLES: &[(&str, &str)] = &[
    (
        "calls",
        r#"
use std/control
reg out = Pass
reg items = [3, 1, 2]
reg acc
reg tmp 100
main:
    jcons items, .work
    emit Move N
    jmp main
.work:
    pop items, acc
    call double
    swap acc, tmp
    push items, tmp
    car acc, items
    cdr tmp, items
    cons acc, tmp, acc
    jnil acc, main
    emit Lift (-1)
    jmp main
double:
    cons tmp, acc, acc
    load acc, 7
    ret
"#,
    ),
    (
        "entry_falls_into_label",
        r#"
use std/control
reg n = 3
    clear n
    mov n, 5
loop:
    jnil n, done
    cdr n, n
    jmp loop
done:
    halt
"#,
    ),
    (
        "entry_in_the_middle",
        r#"
use std/control
reg a
first:
    clear a
middle:
    load a, [1, 2]
    clear a
last:
    halt
entry middle
"#,
    ),
    (
        "label_at_the_end",
        r#"
reg x = 9
start:
    nilify x
    copyifnil x, x, x
tail_end:
"#,
    ),
    (
        "hand_laid_blocks",
        r#"
use std/control
reg x = [Nilify 5]
block head 100
    nilify x
inner:
    copyifnil zero, head, prog
    tail x
end
block other
    nilify 3
    tail head
end
main:
    jmp head
"#,
    ),
    (
        "hand_block_ends_a_chain",
        r#"
reg zero 0
reg v = 1
a:
    nilify v
block hb 10
    nilify v
end
b:
    copyifnil zero, a, v
    copyifnil zero, b, prog
"#,
    ),
    (
        "prog_as_a_value",
        r#"
use std/control
reg prog 200 = [Nilify 4, CopyIfNil 3 2 1]
reg x auto = bits("1100100")
reg y -5
reg z 0 = nil
main:
    jmp main
"#,
    ),
    (
        "unreachable_constants",
        r#"
use std/control
reg r
main:
    load r, 11
    halt
never:
    load r, 22
    load r, 33
    halt
again:
    load r, 22
    load r, 44
    jmp main
"#,
    ),
    (
        "in_out_configured",
        r#"
use std/control
reg in 10
reg out 2000 = Build [0, 1] [Register 5 bits("100"), Register 3 nil]
reg data = [Frame Red 100, Cargo 1 2, Shield, MovedIn NW, some (1, 2), none]
main:
    wait_step
    emit Inspect 3
    emit Destroy 0
    jmp main
"#,
    ),
    (
        "macros_with_local_labels",
        r#"
use std/control
macro twice r
again:
    nilify r
    jnil r, again
end
reg a
reg b 40 = [true, false]
main:
    twice a
    twice b
    jcons a, main
    jcons b, main
    halt
"#,
    ),
    (
        "fixed_indices_and_gaps",
        r#"
reg a @9
reg b
reg c = Move SW
main:
    nilify a
    nilify 7
    copyifnil b, main, prog
"#,
    ),
    (
        "no_code",
        r#"
reg prog 3
reg a = 5
reg b 1
"#,
    ),
    (
        "code_constant",
        r#"
use std/control
reg saved
main:
    mov saved, code(second)
    mov saved, code(main)
second:
    halt
"#,
    ),
];

#[test]
fn samples_round_trip() {
    for (name, source) in SAMPLES {
        let image = assemble_text(&format!("{name}.cta"), source)
            .unwrap_or_else(|e| panic!("sample {name} does not assemble:\n{e}"));
        check_program(&image, name);
    }
}

// ---------------------------------------------------------------------
// Random programs.

/// Values of every kind, all small enough for the limits used below.
const VALUES: &[&str] = &[
    "5",
    "-3",
    "0x7f",
    "[1, 2, 3]",
    "Move N",
    "Pass",
    "Lift (-2)",
    "bits(\"1100100\")",
    "[Nilify 3, CopyIfNil 0 1 2]",
    "(1, 2)",
    "some 4",
    "true",
    "[[], [[]]]",
    "Frame Red 7",
    "[Shield, Cargo 1 2]",
    "nil",
];

/// One line of a random program.
#[derive(Debug, Clone)]
enum Op {
    /// A raw instruction: opcode and operand choices.
    Raw(u8, [u8; 3]),
    /// A jump (`copyifnil zero, L, prog`) or branch on a register.
    Jump(Option<u8>, u8),
    /// A `std/control` macro with operand choices.
    Macro(u8, [u8; 3]),
    /// A label (`k` of the labels; `.` local when `local`).
    Label(u8, bool),
    /// A hand-laid block: its instruction choices, inner label, tail.
    Block(Vec<(u8, [u8; 3])>, Option<u8>, Option<u8>, bool),
}

#[derive(Debug, Clone)]
struct Program {
    use_std: bool,
    /// Per register: limit choice, value choice, explicit index.
    regs: Vec<(u8, Option<u8>, Option<u8>)>,
    ops: Vec<Op>,
    /// 0: nothing; 1: `reg prog = VALUE`; 2: `reg prog LIMIT`; 3: `entry`.
    prog: (u8, u8),
    out: Option<u8>,
}

fn program() -> impl Strategy<Value = Program> {
    let reg = (
        0u8..6,
        proptest::option::of(0u8..VALUES.len() as u8),
        proptest::option::weighted(0.15, 0u8..4),
    );
    let operands = [any::<u8>(), any::<u8>(), any::<u8>()];
    let op = prop_oneof![
        4 => (0u8..4, operands).prop_map(|(o, a)| Op::Raw(o, a)),
        2 => (proptest::option::of(any::<u8>()), any::<u8>()).prop_map(|(t, l)| Op::Jump(t, l)),
        4 => (0u8..17, operands).prop_map(|(m, a)| Op::Macro(m, a)),
        3 => (any::<u8>(), proptest::bool::weighted(0.2)).prop_map(|(l, d)| Op::Label(l, d)),
        1 => (
            proptest::collection::vec((0u8..4, operands), 0..4),
            proptest::option::of(any::<u8>()),
            proptest::option::of(any::<u8>()),
            any::<bool>(),
        )
            .prop_map(|(i, l, t, lim)| Op::Block(i, l, t, lim)),
    ];
    (
        any::<bool>(),
        proptest::collection::vec(reg, 1..6),
        proptest::collection::vec(op, 0..24),
        (0u8..4, any::<u8>()),
        proptest::option::of(0u8..VALUES.len() as u8),
    )
        .prop_map(|(use_std, regs, ops, prog, out)| Program {
            use_std,
            regs,
            ops,
            prog,
            out,
        })
}

impl Program {
    /// The program's text.
    fn source(&self) -> String {
        let mut out = String::new();
        let mut line = |s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        if self.use_std {
            line("use std/control".into());
        } else {
            line("reg zero 0".into());
        }
        let mut names: Vec<String> = vec!["prog".into(), "in".into(), "out".into(), "zero".into()];
        if self.use_std {
            names.extend(["stack", "link", "scratch"].map(String::from));
        }
        for (k, (limit, value, index)) in self.regs.iter().enumerate() {
            let name = format!("v{k}");
            let value = value.map(|v| VALUES[v as usize]);
            let index = index.map_or(String::new(), |i| format!(" @{}", 9 + i));
            // `reg x @N LIMIT` does not parse (`N LIMIT` is an application):
            // registers with an index keep the default limit.
            let limit = match (limit, value, index.is_empty()) {
                (_, _, false) => "",
                (0, _, _) => "",
                (1, Some(_), _) => " auto",
                (2, _, _) => " 100000",
                (3, None, _) => " -7",
                (4, None, _) => " 0",
                _ => " 500",
            };
            let value = value.map_or(String::new(), |v| format!(" = {v}"));
            line(format!("reg {name}{index}{limit}{value}"));
            names.push(name);
        }
        if let Some(v) = self.out {
            line(format!("reg out 2000 = {}", VALUES[v as usize]));
        }
        let labels: Vec<String> = (0..6).map(|k| format!("l{k}")).collect();
        let blocks: Vec<String> = self
            .ops
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o, Op::Block(..)))
            .map(|(k, _)| format!("h{k}"))
            .collect();
        let count = names.len();
        // Registers written: names; read: names, numbers or values.
        let target = |c: u8| names[3 + (c as usize) % (count - 3)].clone();
        let target_any = |c: u8| names[(c as usize) % count].clone();
        let source = |c: u8| match c % 8 {
            0 => format!("{}", c as usize % count),
            1 => format!("#{}", VALUES[c as usize % VALUES.len()]),
            2 => "Move E".to_string(),
            _ => names[(c as usize) % count].clone(),
        };
        let raw = |o: u8, a: [u8; 3]| match o {
            0 => format!("nilify {}", target_any(a[0])),
            1 => format!(
                "construct {}, {}, {}",
                source(a[0]),
                source(a[1]),
                target(a[2])
            ),
            2 => format!(
                "deconstruct {}, {}, {}",
                target(a[0]),
                target(a[1]),
                target(a[2])
            ),
            _ => format!(
                "copyifnil {}, {}, {}",
                source(a[0]),
                source(a[1]),
                target_any(a[2])
            ),
        };
        let mut defined = Vec::new();
        let mut current_global: Option<String> = None;
        let mut text = Vec::new();
        for (k, op) in self.ops.iter().enumerate() {
            match op {
                Op::Raw(o, a) => text.push(format!("    {}", raw(*o, *a))),
                Op::Jump(test, l) => {
                    // To a label, or to a hand-laid block by its name.
                    let targets: Vec<&String> = labels.iter().chain(&blocks).collect();
                    let l = targets[*l as usize % targets.len()];
                    let test = test.map_or("zero".to_string(), &target_any);
                    text.push(format!("    copyifnil {test}, {l}, prog"));
                }
                Op::Macro(m, a) if self.use_std => {
                    let l = &labels[a[0] as usize % labels.len()];
                    let v = VALUES[a[1] as usize % VALUES.len()];
                    let (r1, r2, r3) = (target(a[0]), target(a[1]), target(a[2]));
                    text.push(match m {
                        0 => format!("    jmp {l}"),
                        1 => format!("    jnil {r2}, {l}"),
                        2 => format!("    jcons {r2}, {l}"),
                        3 => format!("    mov {r1}, {r2}"),
                        4 => format!("    load {r1}, {v}"),
                        5 => format!("    clear {r1}"),
                        6 => "    halt".to_string(),
                        7 => format!("    call {l}"),
                        8 => "    ret".to_string(),
                        9 => format!("    push {r1}, {r2}"),
                        10 => format!("    pop {r1}, {r2}"),
                        11 => format!("    car {r1}, {r2}"),
                        12 => format!("    cdr {r1}, {r2}"),
                        13 => format!("    cons {r1}, {r2}, {r3}"),
                        14 => format!("    swap {r1}, {r2}"),
                        15 => "    wait_step".to_string(),
                        _ => format!("    emit {v}"),
                    });
                }
                Op::Macro(m, a) => text.push(format!("    {}", raw(*m % 4, *a))),
                Op::Label(l, local) => {
                    let name = &labels[*l as usize % labels.len()];
                    if *local && let Some(g) = &current_global {
                        let full = format!("{g}.{name}");
                        if !defined.contains(&full) {
                            text.push(format!(".{name}:"));
                            defined.push(full);
                        }
                    } else if !defined.contains(name) {
                        text.push(format!("{name}:"));
                        defined.push(name.clone());
                        current_global = Some(name.clone());
                    }
                }
                Op::Block(instrs, inner, tail, limit) => {
                    let name = format!("h{k}");
                    text.push(format!(
                        "block {name}{}",
                        if *limit { " 100000" } else { "" }
                    ));
                    let at = inner.map(|i| i as usize % (instrs.len() + 1));
                    for (j, (o, a)) in instrs.iter().enumerate() {
                        if at == Some(j) {
                            text.push(format!("{name}_in:"));
                        }
                        text.push(format!("    {}", raw(*o, *a)));
                    }
                    if at == Some(instrs.len()) {
                        text.push(format!("{name}_in:"));
                    }
                    // Tails: a register declared with a value, or an
                    // earlier block (never a cycle).
                    if let Some(t) = tail {
                        let earlier: Vec<&String> =
                            blocks.iter().take_while(|b| **b != name).collect();
                        let choice = *t as usize;
                        if choice.is_multiple_of(2) && !earlier.is_empty() {
                            text.push(format!("    tail {}", earlier[choice / 2 % earlier.len()]));
                        } else if !self.regs.is_empty() {
                            text.push(format!("    tail v{}", choice % self.regs.len()));
                        }
                    }
                    text.push("end".into());
                }
            }
        }
        // Jumps to labels that are not defined go to a final block.
        for l in &labels {
            if !defined.contains(l) {
                text.push(format!("{l}:"));
                defined.push(l.clone());
            }
        }
        match self.prog {
            (1, v) => line(format!("reg prog = {}", VALUES[v as usize % VALUES.len()])),
            (2, _) => line("reg prog 100000".into()),
            (3, l) => {
                // A label, a hand-laid block, or a label inside one.
                let inner: Vec<String> = self
                    .ops
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| matches!(o, Op::Block(_, Some(_), _, _)))
                    .map(|(k, _)| format!("h{k}_in"))
                    .collect();
                let targets: Vec<&String> = labels.iter().chain(&blocks).chain(&inner).collect();
                line(format!("entry {}", targets[l as usize % targets.len()]));
            }
            _ => {}
        }
        for t in text {
            line(t);
        }
        out
    }
}

proptest! {
    // (Failures are printed in full, with the program; no seed file.)
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_global_rejects: 3000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_programs_round_trip(p in program()) {
        let source = p.source();
        let image = assemble_text("random.cta", &source);
        prop_assume!(image.is_ok());
        let image = image.expect("assumed");
        check_program(&image, &format!("random program\n{source}"));
    }
}

// ---------------------------------------------------------------------
// Random images.

/// A tree from a preorder bit string cut anywhere (missing children are
/// Nil).
fn tree_from(bits: &[bool]) -> Tree {
    // Conses under construction: their front once it is complete.
    let mut open: Vec<Option<Tree>> = Vec::new();
    let mut done: Option<Tree> = None;
    let complete = |mut t: Tree, open: &mut Vec<Option<Tree>>| loop {
        match open.last_mut() {
            None => return Some(t),
            Some(slot @ None) => {
                *slot = Some(t);
                return None;
            }
            Some(Some(_)) => {
                let front = open.pop().flatten().unwrap_or_default();
                t = Tree::cons(front, t);
            }
        }
    };
    for &b in bits {
        if done.is_some() {
            break;
        }
        if b {
            open.push(None);
        } else {
            done = complete(Tree::NIL, &mut open);
        }
    }
    while done.is_none() {
        done = complete(Tree::NIL, &mut open);
    }
    done.unwrap_or_default()
}

/// Names of every sort: identifiers, shared, reserved, built-in,
/// impossible, automatic, numbered.
const NAMES: &[&str] = &[
    "a",
    "b",
    "a",
    "main",
    "N",
    "nil",
    "Pass",
    "end",
    "reg",
    "two words",
    "",
    "9x",
    "x@3",
    "rest@2",
    "rest@2",
    "r5",
    "const0",
    ".dot",
    "auto",
    "nilify",
    "zero",
    "prog",
    "in",
];

#[derive(Debug, Clone)]
enum Contents {
    Nil,
    Bits(Vec<bool>),
    Code(Vec<(u8, [i64; 3])>),
    Int(i64),
}

impl Contents {
    fn tree(&self) -> Tree {
        match self {
            Contents::Nil => Tree::NIL,
            Contents::Bits(b) => tree_from(b),
            Contents::Code(instrs) => Tree::list(instrs.iter().map(|(op, o)| {
                match op % 4 {
                    0 => Instruction::Nilify(o[0]),
                    1 => Instruction::Construct(o[0], o[1], o[2]),
                    2 => Instruction::Deconstruct(o[0], o[1], o[2]),
                    _ => Instruction::CopyIfNil(o[0], o[1], o[2]),
                }
                .encode()
            })),
            Contents::Int(n) => n.encode(),
        }
    }
}

fn contents() -> impl Strategy<Value = Contents> {
    prop_oneof![
        1 => Just(Contents::Nil),
        3 => proptest::collection::vec(any::<bool>(), 0..60).prop_map(Contents::Bits),
        3 => proptest::collection::vec((any::<u8>(), [-1i64..12, -1i64..12, -1i64..12]), 0..6)
            .prop_map(Contents::Code),
        1 => any::<i64>().prop_map(Contents::Int),
    ]
}

/// Per register: name choice, limit choice and extra, contents, mapped.
type RegisterSpec = (u8, u8, i64, Contents, bool);

/// An assembled image to make others from (so that the tests need not
/// know every field of an image).
fn template() -> Image {
    assemble_text("template.cta", "block code 2\n    nilify 0\nend\n").expect("assembles")
}

/// An image from its parts (the rest taken from [`template`]).
fn image_of(
    registers: Vec<ImageRegister>,
    labels: Vec<LabelSymbol>,
    mapped: &[usize],
    callstack: Option<CallStack>,
    compiler: &str,
) -> Image {
    let mut image = template();
    // A source map entry that says "code here", made from the template's.
    let model = image
        .source_map
        .registers
        .iter()
        .find(|m| m.register == 3)
        .cloned()
        .expect("the template's block is code");
    image.source_map.registers = mapped
        .iter()
        .map(|&i| {
            let mut m = model.clone();
            m.register = i;
            m
        })
        .collect();
    image.registers = registers;
    image.labels = labels;
    image.callstack = callstack;
    image.files = Vec::new();
    image.compiler = compiler.to_string();
    image.sources_hash = String::new();
    image
}

fn image_strategy() -> impl Strategy<Value = Image> {
    let register = (any::<u8>(), 0u8..5, 0i64..100, contents(), any::<bool>());
    let label = (any::<u8>(), any::<u8>(), 0usize..6);
    (
        proptest::collection::vec(register, 3..10),
        proptest::collection::vec(label, 0..5),
        proptest::option::of((any::<u8>(), any::<u8>())),
        any::<bool>(),
    )
        .prop_map(
            |(specs, labels, callstack, named): (Vec<RegisterSpec>, _, _, bool)| {
                let n = specs.len();
                let registers: Vec<ImageRegister> = specs
                    .iter()
                    .enumerate()
                    .map(|(i, (name, limit, extra, contents, _))| {
                        let contents = contents.tree();
                        let size = contents.size() as i64;
                        let name = if i < 3 && name % 8 != 0 {
                            ["prog", "in", "out"][i].to_string()
                        } else {
                            NAMES[*name as usize % NAMES.len()].to_string()
                        };
                        // Contents always fit (prog always has contents); only
                        // an empty register may have a negative limit.
                        let limit = match limit {
                            0 => size,
                            1 => size + extra,
                            2 => 4096,
                            3 if contents.is_nil() && i != 0 => -extra - 1,
                            _ => size + 1,
                        };
                        ImageRegister {
                            name,
                            limit,
                            contents,
                        }
                    })
                    .collect();
                let mapped: Vec<usize> = (0..n).filter(|&i| specs[i].4).collect();
                let labels = labels
                    .into_iter()
                    .map(|(name, register, offset)| LabelSymbol {
                        name: ["l", "main", "a", "x y", "rest"][name as usize % 5].to_string()
                            + &(name / 5 % 3).to_string(),
                        register: register as usize % n,
                        offset,
                    })
                    .collect();
                let callstack = callstack.map(|(s, l)| CallStack {
                    stack: s as usize % n,
                    link: l as usize % n,
                });
                image_of(
                    registers,
                    labels,
                    &mapped,
                    callstack,
                    if named { "somewhere" } else { "" },
                )
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any image comes back with the same memory; names that can be
    /// written are kept.
    #[test]
    fn random_images_keep_their_memory(image in image_strategy()) {
        let text = disassemble(&image);
        let again = assemble_text("disassembly.cta", &text)
            .unwrap_or_else(|e| panic!("does not assemble:\n{e}\n---\n{text}"));
        prop_assert_eq!(again.registers.len(), image.registers.len(), "{}", text);
        prop_assert_eq!(again.memory(), image.memory(), "{}", text);
        for (i, (a, b)) in image.registers.iter().zip(&again.registers).enumerate() {
            let unique = image.registers.iter().filter(|r| r.name == a.name).count() == 1;
            let writable = a.name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && a.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                && !["end", "reg", "prog", "in", "out"].contains(&a.name.as_str());
            if i >= 3 && unique && writable {
                prop_assert_eq!(&a.name, &b.name, "{}", text);
            }
        }
    }
}

#[test]
fn contents_larger_than_the_limit_are_written_as_they_are() {
    let big = Tree::list((1..=5i64).map(|n| n.encode()));
    let image = image_of(
        vec![
            ImageRegister {
                name: "prog".into(),
                limit: 0,
                contents: Tree::NIL,
            },
            ImageRegister {
                name: "in".into(),
                limit: 4096,
                contents: Tree::NIL,
            },
            ImageRegister {
                name: "out".into(),
                limit: 1024,
                contents: Tree::NIL,
            },
            ImageRegister {
                name: "tight".into(),
                limit: 3,
                contents: big.clone(),
            },
            ImageRegister {
                name: "empty".into(),
                limit: -4,
                contents: Tree::NIL,
            },
        ],
        Vec::new(),
        &[],
        None,
        "constree 0.1.0",
    );
    let text = disassemble(&image);
    let size = big.size();
    assert!(text.contains("NOTE: r3 holds"), "{text}");
    assert!(text.contains("reg tight @3 3 = [1, 2, 3, 4, 5]"), "{text}");
    // As written, the assembler refuses it...
    let refused = assemble_text("over.cta", &text).expect_err("E0603 expected");
    assert!(refused.contains("E0603"), "{refused}");
    // ... and with the limit raised to the size it gives the image but for
    // that limit.
    let raised = text.replace("reg tight @3 3 =", &format!("reg tight @3 {size} ="));
    let again = assemble_text("raised.cta", &raised).expect("assembles");
    let mut expected = image.clone();
    expected.registers[3].limit = size as i64;
    assert_eq!(again.memory(), expected.memory());
    assert_eq!(again.registers[4].limit, -4);
}

/// A small program with macros of its own (so the text does not depend on
/// the standard library).
const SMALL: &str = r#"
; jumps, a branch with a local label, a hand-laid block, constants
reg zero 0
reg count = [1, 2, 3]
reg item
reg out = Move N
macro jmp target
    copyifnil zero, target, prog
end
macro jcons test, target
    copyifnil test, rest, prog
    copyifnil zero, target, prog
rest:
end
block done 10
    nilify prog
end
main:
    jcons count, take
    copyifnil zero, Pass, out
    jmp done
take:
    deconstruct count, item, count
    copyifnil zero, #7, item
    jmp main
"#;

#[test]
fn small_program_snapshot() {
    let image = assemble_text("small.cta", SMALL).expect("assembles");
    let text = round_trip(&image, "small program");
    // The first line names the sources (and their hash); the rest is the
    // program.
    insta::assert_snapshot!(body(&text), @r#"
    ; every register in index order; code is laid out by hand (`block`)

    block prog 62
        tail main
    end

    reg in 4096

    reg out 1024 = Move N

    reg zero @3 0

    reg count @4 4096 = [1, 2, 3]

    reg item @5 4096

    block done @6 10
        nilify prog
    end

    block main @7 35
    main:
        copyifnil count, rest.1, prog
        copyifnil zero, take, prog
    end

    block rest.1 @8 38
        copyifnil zero, const0, out
        copyifnil zero, done, prog
    end

    block take @9 62
    take:
        deconstruct count, item, count
        copyifnil zero, const1, item
        copyifnil zero, main, prog
    end

    reg const0 @10 6 = Pass

    reg const1 @11 6 = 7
    "#);
}

/// Assembles `main` as `main.cta`, beside a `lib.cta` that declares
/// `counter` and the labels `helper` and `other`.
fn with_lib(main: &str) -> Image {
    let loader = MemoryLoader::default()
        .with(
            "lib.cta",
            "reg counter = 3\nhelper:\n    nilify counter\nother:\n    copyifnil counter, helper, prog\n",
        )
        .with("main.cta", main);
    let assembly = assemble_file(&loader, Path::new("main.cta"));
    let Some(image) = assembly.image else {
        panic!("does not assemble:\n{}", assembly.render(false));
    };
    image
}

/// Programs in several files: each `use`d module is laid out on its own.
#[test]
fn programs_with_modules_round_trip() {
    let image = &with_lib(
        "use std/control\nuse \"lib.cta\"\nmain:\n    jnil counter, helper\n    jcons counter, last\n    jmp other\nlast:\n    clear counter\n",
    );
    check_program(image, "modules");
}

/// Two chains that end without a jump, one per file: one file cannot lay
/// them out apart (only the end of a file or a hand-laid block stops fall
/// through), so the text declares every register. The memory still comes
/// back, and the labels it cannot write are listed.
#[test]
fn chains_ending_in_two_files_keep_their_memory() {
    let image = &with_lib(
        "reg zero 0\nmain:\n    copyifnil counter, helper, prog\n    copyifnil counter, last, prog\n    copyifnil zero, other, prog\nlast:\n    nilify counter\nuse \"lib.cta\"\n",
    );
    let text = disassemble(image);
    let again = assemble_text("disassembly.cta", &text).expect("assembles");
    assert_eq!(again.memory(), image.memory(), "{text}");
    let names = |i: &Image| {
        i.registers
            .iter()
            .map(|r| r.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&again), names(image), "{text}");
    assert_eq!(labels(&again), labels(image), "{text}");
}

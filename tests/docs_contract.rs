//! `docs/language.md` as a contract. Each rule the document states has a
//! test here that quotes it ([`states`] fails when the sentence is no
//! longer in the document, white space aside) and checks that the
//! assembler, and the machine running what it built, behave as it says.
//! Tick counts are measured by running the machine.

mod machine_common;
mod semantics_gen;

use constree::asm::ast::KEYWORDS;
use constree::asm::source::{MemoryLoader, SourceFile};
use constree::asm::{Assembly, Faults, assemble, assemble_file, semantics};
use constree::diagnostic::{Code, Severity};
use constree::encoding::{Decode, Encode};
use constree::image::Image;
use constree::machine::{Instruction, MachineError, Register, run_for, run_machine};
use constree::tree::Tree;
use constree::world::{Action, Color, Command, Direction, Frame, Item, Processor, Robot};
use machine_common::{register, run};
use std::path::Path;

const LANGUAGE: &str = "docs/language.md";

/// Runs of white space as one space, so a sentence can be quoted across
/// the document's line breaks.
fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Fails unless docs/language.md states `sentence`.
fn states(sentence: &str) {
    let doc = normalise(&std::fs::read_to_string(LANGUAGE).expect("the doc"));
    assert!(
        doc.contains(&normalise(sentence)),
        "{LANGUAGE} no longer says: {sentence}"
    );
}

fn assembly(source: &str) -> Assembly {
    assemble(
        &MemoryLoader::default(),
        SourceFile::new("test.cta".into(), None, source.into()),
    )
}

/// The codes of a program's diagnostics, in order.
fn codes(source: &str) -> Vec<&'static str> {
    assembly(source)
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect()
}

/// The image of a program that must assemble without any diagnostic.
fn image(source: &str) -> Image {
    let assembly = assembly(source);
    assert!(
        assembly.diagnostics.is_empty(),
        "{source}\n{}",
        assembly.render(false)
    );
    assembly.image.expect("no errors")
}

/// The image of an assembly that must have no error.
fn built(assembly: &Assembly) -> Image {
    assembly
        .image
        .clone()
        .unwrap_or_else(|| panic!("{}", assembly.render(false)))
}

fn contents<'a>(image: &'a Image, name: &str) -> &'a Tree {
    &image.registers[image
        .register(name)
        .unwrap_or_else(|| panic!("no register {name}"))]
    .contents
}

fn limit(image: &Image, name: &str) -> i64 {
    image.registers[image
        .register(name)
        .unwrap_or_else(|| panic!("no register {name}"))]
    .limit
}

/// The tree a literal (or any value) assembles to.
fn value(literal: &str) -> Tree {
    let source = format!("reg v auto = {literal}\nmain:\n    nilify prog\n");
    contents(&image(&source), "v").clone()
}

/// The ticks a program takes to halt.
fn ticks(source: &str) -> u64 {
    let (_, report) = run(&image(source), 10_000);
    assert!(report.halted, "{source}");
    report.ticks
}

fn int(n: i64) -> Tree {
    n.encode()
}

// ---------------------------------------------------------------------
// The machine, briefly

#[test]
fn the_four_instructions_and_errors_that_wipe() {
    states("| `nilify t` | `t := Nil` |");
    states("| `construct f, b, t` | `t := Cons f b` |");
    states("| `deconstruct s, f, b` | `f := front s`, then `b := back s` (error if `s` is Nil) |");
    states("| `copyifnil t, s, d` | if `t` is Nil then `d := s` |");
    states(
        "One tick pops the next instruction off `prog` and runs it; a Nil `prog` stops the machine. Any error (a bad instruction, a missing register, deconstructing Nil, a write that exceeds a limit) wipes every register.",
    );
    let program = image(
        "reg a = [1]\nreg b = 5\nreg f\nreg k\nreg nothing = nil\nmain:\n    construct a, b, k\n    deconstruct k, f, k\n    copyifnil nothing, b, a\n    copyifnil b, f, nothing\n    nilify b\n",
    );
    let (memory, report) = run(&program, 100);
    assert_eq!((report.ticks, report.halted), (5, true));
    assert_eq!(register(&program, &memory, "f"), &value("[1]"));
    assert_eq!(register(&program, &memory, "k"), &int(5));
    assert_eq!(register(&program, &memory, "a"), &int(5));
    assert!(register(&program, &memory, "nothing").is_nil());
    assert!(register(&program, &memory, "b").is_nil());
    // `f := front s`, then `b := back s`: with f = b, b gets the back.
    let program = image("reg s = (1, 2)\nreg x\nmain:\n    deconstruct s, x, x\n    nilify prog\n");
    let (memory, _) = run(&program, 10);
    assert_eq!(register(&program, &memory, "x"), &int(2));
    // Deconstructing Nil wipes every register.
    let assembly = assembly("reg s = nil\nreg x = 5\nmain:\n    deconstruct s, x, x\n");
    let mut memory = built(&assembly).memory();
    assert_eq!(
        run_machine(10, &mut memory),
        Err(MachineError::DeconstructNil(3))
    );
    assert!(memory.iter().all(|r| r.contents.is_nil()));
}

// ---------------------------------------------------------------------
// Lexical structure

#[test]
fn statements_continue_after_an_operator_or_inside_brackets() {
    states(
        "after a line that ends with `=` or a binary operator (`+ - * / % << >> == != < <= > >= and or`), inside brackets or not: `reg r =` followed by `5` on the next line is `reg r = 5`, and a `-` at the end of a line is a minus between two operands;",
    );
    states(
        "inside brackets, after a line that ends with `[`, `(`, `,` or `|`, or before a line that starts with `]`, `)`, `,` or `|`.",
    );
    states(
        "A comment between the operator and the end of the line changes nothing (`x + ; more below` goes on), and blank or comment-only lines in between are skipped.",
    );
    let program = image(
        "const K = 7
reg r =
    5
const X =
    1
const SMALL = (K <=
    20)
const Y = X + ; a comment
    ; a comment line

    10 -
    1
const BOTH = X == 1 and
    K > 3
const EITHER = X == 2 or
    K * 2 == 14
const OPS = 1 << 4 >>
    2 * 3 / 2 % 5
reg list = [Y, SMALL,
    BOTH
    , EITHER
    | OPS
]
main:
    nilify prog
",
    );
    assert_eq!(contents(&program, "r"), &int(5));
    assert_eq!(
        contents(&program, "list"),
        &Tree::cons(
            int(10),
            Tree::cons(
                true.encode(),
                Tree::cons(true.encode(), Tree::cons(true.encode(), int(2)))
            )
        )
    );
    // Outside brackets, a line ending with `,` ends the statement.
    assert!(codes("main:\n    nilify prog,\n    nilify out\n").contains(&"E0100"));
}

#[test]
fn comments_run_to_the_end_of_the_line() {
    states("Comments run from `;` to the end of the line.");
    assert_eq!(value("[1, ; 2, 3\n 4]"), value("[1, 4]"));
}

#[test]
fn names_and_mnemonics() {
    states(
        "Names: `[A-Za-z_.][A-Za-z0-9_.]*`. Names are case-sensitive; the four mnemonics are not (`NILIFY` works).",
    );
    let program = image(
        "reg Count = 1\nreg count = 2\nreg _a.b9 = 3\nmain:\n    NILIFY count\n    CopyIfNil count, Count, _a.b9\n    nilify prog\n",
    );
    let (memory, _) = run(&program, 10);
    assert_eq!(register(&program, &memory, "_a.b9"), &int(1));
    assert_eq!(codes("main:\n    Halt\n"), vec!["E0508"]);
}

#[test]
fn numbers_in_three_bases_with_separators() {
    states(
        "Numbers: decimal `42`, hexadecimal `0x2A`, binary `0b101010`, with `_` separators. They must fit 64 bits.",
    );
    for text in [
        "42",
        "0x2A",
        "0X2a",
        "0b101010",
        "0B10_1010",
        "4_2",
        "0x_2_A",
    ] {
        assert_eq!(value(text), int(42), "{text}");
    }
    assert_eq!(value("0x7fff_ffff_ffff_ffff"), int(i64::MAX));
    assert_eq!(codes("reg r = 18446744073709551616\n"), vec!["E0002"]);
    // 2^63 is written only negated.
    assert_eq!(value("-9223372036854775808"), int(i64::MIN));
    assert_eq!(codes("reg r = 9223372036854775808\n"), vec!["E0401"]);
}

#[test]
fn strings_and_their_escapes() {
    states(r#"Strings: `"..."` with `\"`, `\\`, `\n`, `\t`."#);
    // A string names the file of `image(...)`: each escape is one character.
    let child = "reg x = 5\nmain:\n    nilify prog\n";
    for (written, file) in [
        (r#"q\"uote.cta"#, "q\"uote.cta"),
        (r#"back\\slash.cta"#, "back\\slash.cta"),
        (r#"new\nline.cta"#, "new\nline.cta"),
        (r#"t\tab.cta"#, "t\tab.cta"),
    ] {
        let loader = MemoryLoader::default().with(file, child).with(
            "main.cta",
            &format!("reg m = image(\"{written}\")\nmain:\n    nilify prog\n"),
        );
        let assembly = assemble_file(&loader, Path::new("main.cta"));
        assert!(
            assembly.diagnostics.is_empty(),
            "{}",
            assembly.render(false)
        );
    }
}

#[test]
fn brackets_nest_at_most_200_deep() {
    states("Brackets nest at most 200 deep (deeper is error E0003).");
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(codes(&format!("reg r = {}\n", nested(200))).is_empty());
    assert_eq!(codes(&format!("reg r = {}\n", nested(201))), vec!["E0003"]);
}

#[test]
fn lines_are_at_most_500_deep() {
    states("A line is at most 500 deep (deeper is error E0004)");
    states("`reg r = 1 + 1 + ... + 1` with 250 terms is too deep, a list");
    let sum = |terms: usize| format!("reg r = {}\n", vec!["1"; terms].join(" + "));
    assert!(codes(&sum(249)).is_empty());
    assert_eq!(codes(&sum(250)), vec!["E0004"]);
    let list: Vec<String> = (0..10_000).map(|k| k.to_string()).collect();
    assert!(codes(&format!("reg r auto = [{}]\n", list.join(", "))).is_empty());
    assert!(codes(&format!("reg r = {}0\n", "- ".repeat(496))).is_empty());
    assert_eq!(
        codes(&format!("reg r = {}0\n", "- ".repeat(497))),
        vec!["E0004"]
    );
}

#[test]
fn reserved_words_cannot_be_names() {
    states(
        "Reserved words: `reg resize const macro if else end use include entry callstack block tail and or not`.",
    );
    assert_eq!(
        KEYWORDS.join(" "),
        "reg resize const macro if else end use include entry callstack block tail and or not"
    );
    for word in KEYWORDS {
        let reg = assembly(&format!("reg {word}\n"));
        assert!(
            reg.diagnostics.iter().any(|d| d.code.as_str() == "E0100"
                && d.help
                    .as_deref()
                    .is_some_and(|h| h.contains("reserved word"))),
            "{word}: {}",
            reg.render(false)
        );
    }
}

// ---------------------------------------------------------------------
// Grammar

#[test]
fn a_label_and_a_statement_share_a_line() {
    states("line = [ label \":\" ] [ statement ]");
    let program = image("reg a\nstart: nilify a\n    nilify prog\n");
    assert_eq!(program.labels[0].name, "start");
    assert_eq!(contents(&program, "prog").list_len(), 2);
}

#[test]
fn application_binds_tighter_than_operators() {
    states(
        "Application binds tighter than operators, and its arguments are atoms: write `Lift (i + 1)` and `Lift (-1)`.",
    );
    states(
        "A name written directly before `(` is a call, one atom: `cons(a, b)`, `bits(\"100\")`, `Move(E)`, so `Build [0, 1, 2] image(\"child.cta\")` and `Register 5 bits(\"100\")` need no extra parentheses.",
    );
    assert_eq!(value("Lift (2 + 1)"), Command::Lift(3).encode());
    assert_eq!(value("Lift (-1)"), Command::Lift(-1).encode());
    assert_eq!(value("Move(E)"), Command::Move(Direction::E).encode());
    assert_eq!(value("cons(nil, nil)"), Tree::unit());
    assert_eq!(
        value("Register 5 bits(\"100\")"),
        Register::new(5, Tree::unit()).encode()
    );
    // `Lift 2 + 1` is `(Lift 2) + 1`: a command is not a number.
    assert_eq!(codes("reg r = Lift 2 + 1\n"), vec!["E0407"]);
}

#[test]
fn parentheses_make_nil_the_value_or_a_tuple() {
    states("(nothing: Nil; one: itself; more: a tuple)");
    assert_eq!(value("()"), Tree::NIL);
    assert_eq!(value("(5)"), int(5));
    assert_eq!(value("(1, 2)"), Tree::cons(int(1), int(2)));
}

#[test]
fn register_declarations_take_an_index_a_limit_and_a_value() {
    states("statement = \"reg\" name [ \"@\" index ] [ expr | \"auto\" ] [ \"=\" expr ]");
    states("index = number | name | \"(\" expr \")\"");
    let program = image(
        "const BASE = 5\nreg a @7 16 = 3\nreg b @BASE\nreg c @(BASE + 1) auto = [1]\nreg d 2 * 8\nmain:\n    nilify prog\n",
    );
    assert_eq!(program.register("a"), Some(7));
    assert_eq!(program.register("b"), Some(5));
    assert_eq!(program.register("c"), Some(6));
    assert_eq!((limit(&program, "a"), limit(&program, "d")), (16, 16));
    assert_eq!(limit(&program, "c"), value("[1]").size() as i64);
}

// ---------------------------------------------------------------------
// Registers

#[test]
fn the_predeclared_registers_and_their_limits() {
    states("`prog` (0), `in` (1) and `out` (2) are predeclared.");
    states("The default limit is 4096 (for `in` also 4096, for `out` 1024).");
    let program = image(
        "reg count\nreg table 100 = [1, 2, 3]\nreg big auto = bits(\"11000\")\nreg fixed @7 16\nreg zero 0\nmain:\n    nilify prog\n",
    );
    let names: Vec<&str> = program.registers[..3]
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(names, ["prog", "in", "out"]);
    assert_eq!(
        (limit(&program, "in"), limit(&program, "out")),
        (4096, 1024)
    );
    assert_eq!(limit(&program, "count"), 4096);
    assert!(contents(&program, "count").is_nil());
    assert_eq!(limit(&program, "table"), 100);
    assert_eq!(limit(&program, "big"), 2);
    assert_eq!(program.register("fixed"), Some(7));
    assert_eq!(limit(&program, "fixed"), 16);
    assert_eq!(limit(&program, "zero"), 0);
}

#[test]
fn prog_holds_the_largest_code_jumped_into_it() {
    states(
        "`prog`'s limit is, unless declared, the size of its first code or of the largest code that can be jumped into it, whichever is larger.",
    );
    let program = image(
        "use std/control\nmain:\n    jmp big\nbig:\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    halt\n",
    );
    let big = contents(&program, "big").size() as i64;
    assert!(contents(&program, "prog").size() as i64 <= big);
    assert_eq!(limit(&program, "prog"), big);
    // Its own code is larger than what is jumped into it.
    let program = image(
        "use std/control\nmain:\n    nilify out\n    nilify out\n    jmp small\nsmall:\n    halt\n",
    );
    let own = contents(&program, "prog").size() as i64;
    assert!(own > contents(&program, "small").size() as i64);
    assert_eq!(limit(&program, "prog"), own);
}

#[test]
fn predeclared_registers_are_configured_once() {
    states(
        "`reg prog|in|out [LIMIT] [= VALUE]` configures a predeclared register, once: `reg out = Pass` sets the robot's first command.",
    );
    let program = image("reg out = Pass\nmain:\n    nilify prog\n");
    assert_eq!(contents(&program, "out"), &Command::Pass.encode());
    assert_eq!(
        codes("reg out = Pass\nreg out 5\nmain:\n    nilify prog\n"),
        vec!["E0502"]
    );
    assert_eq!(codes("reg out @5\nmain:\n    nilify prog\n"), vec!["E0502"]);
}

#[test]
fn resize_changes_a_limit_declared_elsewhere() {
    states(
        "`resize NAME LIMIT` changes the limit of a register declared elsewhere (for example `resize stack 200000` after `use std/control`).",
    );
    let program = image("use std/control\nresize stack 200000\nmain:\n    halt\n");
    assert_eq!(limit(&program, "stack"), 200000);
    assert_eq!(
        codes(
            "use std/control\nresize stack 5\nresize stack 6\nresize nothing 7\nmain:\n    halt\n"
        ),
        vec!["E0516", "E0515"]
    );
}

#[test]
fn registers_are_numbered_in_a_documented_order() {
    states(
        "Numbering: `prog`, `in`, `out`; then declared registers and `block`s (explicit `@N` first, the others in order, each at the lowest free index); then one *code register* per label that is jumped to; then one *constant register* per distinct constant operand.",
    );
    states("The main file's registers are numbered before a module's even when `use` comes first.");
    let loader = MemoryLoader::default()
        .with("module.cta", "reg theirs\nroutine:\n    nilify theirs\n    nilify prog\n")
        .with(
            "main.cta",
            "use \"module.cta\"\nreg first\nreg pinned @4\nreg second\nblock hand\n    nilify prog\nend\nmain:\n    copyifnil first, target, prog\n    copyifnil first, #9, first\ntarget:\n    copyifnil first, routine, prog\n    nilify prog\n",
        );
    let assembly = assemble_file(&loader, Path::new("main.cta"));
    let program = built(&assembly);
    let names: Vec<&str> = program.registers.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "prog", "in", "out", "first", "pinned", "second", "hand", "theirs", "target",
            "routine", "const0"
        ]
    );
}

#[test]
fn a_value_must_fit_its_register() {
    states("A value that does not fit its register's limit is an error (E0603).");
    assert_eq!(
        codes("reg r 2 = [1, 2]\nmain:\n    nilify prog\n"),
        vec!["E0603"]
    );
    assert!(codes("reg r 7 = [1, 2]\nmain:\n    nilify prog\n").is_empty());
}

// ---------------------------------------------------------------------
// Operands

#[test]
fn operands_name_registers() {
    states("| `out`, `count` | the register with that name |");
    states(
        "| `@7`, `@BASE`, `@(BASE + 1)` | register number 7 (or the number a constant, or a parenthesised expression, gives), written as in `reg NAME @INDEX` |",
    );
    states("| `main` (a label) | the code register of label `main` |");
    states(
        "| a constant's name, `Move E`, `[1, 2]`, `-1`, `nil` | a *constant register* holding that value |",
    );
    let program = image(
        "const BASE = 6\nconst MOVE = Move E\nreg a @6\nreg b @7\nmain:\n    copyifnil out, @6, @7\n    copyifnil out, @BASE, b\n    copyifnil out, @(BASE + 1), b\n    copyifnil out, MOVE, a\n    copyifnil out, Move E, b\n    copyifnil out, -1, b\n    copyifnil out, main, b\n    nilify prog\n",
    );
    let code = contents(&program, "prog");
    let instrs: Vec<Instruction> = code
        .iter_list()
        .map(|i| Instruction::decode(i).unwrap())
        .collect();
    let main = program.register("main").unwrap() as i64;
    let moves = program.register("const0").unwrap() as i64;
    let minus_one = program.register("const1").unwrap() as i64;
    assert_eq!(
        instrs[..7],
        [
            Instruction::CopyIfNil(2, 6, 7),
            Instruction::CopyIfNil(2, 6, 7),
            Instruction::CopyIfNil(2, 7, 7),
            Instruction::CopyIfNil(2, moves, 6),
            Instruction::CopyIfNil(2, moves, 7),
            Instruction::CopyIfNil(2, minus_one, 7),
            Instruction::CopyIfNil(2, main, 7),
        ]
    );
    assert_eq!(
        contents(&program, "const0"),
        &Command::Move(Direction::E).encode()
    );
    assert_eq!(contents(&program, "const1"), &int(-1));
}

#[test]
fn a_bare_number_is_a_register_and_a_warning() {
    states("| `7` | register number 7, with warning W0706 where the operand is read |");
    states(
        "| `#e` | the constant register holding the value of `e` (`#5` is the number 5, where `5` alone is register 5) |",
    );
    states(
        "`mov x, 4` copies register 4, not the number 4. Where an instruction reads such an operand, the assembler warns (W0706) and suggests `#4`; write `@4` to say \"register 4\" without the warning. The warning points at the number where it was written, through the macros it went into.",
    );
    let source = "use std/control\nreg x\nreg y = 7\nmain:\n    mov x, 4\n    halt\n";
    let assembly = assembly(source);
    let warning = &assembly.diagnostics[0];
    assert_eq!(
        (
            warning.code.as_str(),
            warning.severity,
            assembly.diagnostics.len()
        ),
        ("W0706", Severity::Warning, 1)
    );
    assert!(
        warning.message.contains("register 4 (`y`)"),
        "{}",
        warning.message
    );
    assert!(warning.help.as_deref().unwrap().contains("`#4`"));
    let file = assembly.sources.get(warning.primary.0.file);
    assert_eq!(&file.text[warning.primary.0.range()], "4");
    assert_eq!(warning.expansion[0].0, "mov");
    // It runs as it says: x gets y's contents.
    let program = assembly.image.expect("a warning only");
    let (memory, _) = run(&program, 100);
    assert_eq!(register(&program, &memory, "x"), &int(7));
    // `#4` and `@4` do not warn; a number written to does not either.
    assert!(codes("use std/control\nreg x\nreg y = 7\nmain:\n    mov x, #4\n    mov x, @4\n    nilify 3\n    halt\n").is_empty());
}

#[test]
fn constant_registers_are_shared_and_read_only() {
    states(
        "Constant registers are shared by value: every `Move E` in a program reads the same register. Writing to a constant register is an error (E0606).",
    );
    let program = image(
        "const EAST = Move E\nreg a = nil\nmain:\n    copyifnil a, Move E, out\n    copyifnil a, EAST, out\n    copyifnil a, #(2 + 2), out\n    copyifnil a, #(Move E), out\n    nilify prog\n",
    );
    let constants = program
        .registers
        .iter()
        .filter(|r| r.name.starts_with("const"))
        .count();
    // Move E and the number 4 encode alike: one register.
    assert_eq!(constants, 1);
    assert_eq!(codes("main:\n    nilify Move E\n"), vec!["E0606"]);
    assert_eq!(codes("const C = 1\nmain:\n    nilify C\n"), vec!["E0606"]);
}

// ---------------------------------------------------------------------
// Values and literals

#[test]
fn every_literal_encodes_as_the_engine_does() {
    states(
        "Every value that reaches a register is encoded exactly as the engine encodes it (the report's `Encodable` instances).",
    );
    let frame = Frame {
        color: Color::Red,
        strength: 100,
    };
    let robot = Robot {
        frame: Frame {
            color: Color::Red,
            strength: 10,
        },
        inventory: vec![Item::Shield],
        processor: Processor { speed: 0 },
        memory: Vec::new(),
    };
    let cases: Vec<(&str, &str, Tree)> = vec![
        (
            "| `42`, `-7`, `0xff` | an `Int` (little-endian bit list, negatives tagged) |",
            "-7",
            int(-7),
        ),
        ("", "0xff", int(255)),
        ("| `true`, `false` | a `Bool` |", "true", true.encode()),
        ("", "false", false.encode()),
        ("| `nil`, `[]`, `()` | Nil |", "nil", Tree::NIL),
        ("", "[]", Tree::NIL),
        (
            "| `[a, b, c]`, `[a, b | t]` | a list; with `| t` it ends in the tree `t` |",
            "[1, 2, 3]",
            Tree::list([int(1), int(2), int(3)]),
        ),
        (
            "",
            "[1, 2 | 3]",
            Tree::cons(int(1), Tree::cons(int(2), int(3))),
        ),
        (
            "| `(a, b)`, `(a, b, c)` | a tuple: `Cons a b`, `Cons a (Cons b c)` (no terminal Nil) |",
            "(1, 2, 3)",
            Tree::cons(int(1), Tree::cons(int(2), int(3))),
        ),
        (
            "| `none`, `some x` | a `Maybe` |",
            "none",
            None::<i64>.encode(),
        ),
        ("", "some 5", Some(5i64).encode()),
        (
            "| `cons(a, b)` | `Cons a b` of two trees |",
            "cons(1, 2)",
            Tree::cons(int(1), int(2)),
        ),
        (
            "| `bits(\"1100100\")` | a raw tree in preorder (`1` Cons, `0` Nil) |",
            "bits(\"1100100\")",
            Tree::from_bits("1100100").unwrap(),
        ),
        (
            "| `[[], [[]]]` | raw trees in the readable list form |",
            "[[], [[]]]",
            Tree::from_readable("[[], [[]]]").unwrap(),
        ),
        (
            "| `N NE E SE S SW W NW` | directions |",
            "SW",
            Direction::SW.encode(),
        ),
        (
            "| `Red Orange Yellow Green Blue Violet Black White` | colours |",
            "Violet",
            Color::Violet.encode(),
        ),
        (
            "| `Move E`, `Lift 0`, `Drop 1`, `Inspect 2`, `Destroy 3`, `Pass` | commands |",
            "Drop 1",
            Command::Drop(1).encode(),
        ),
        ("", "Destroy 3", Command::Destroy(3).encode()),
        (
            "| `Frame Red 100`, `Processor 10`, `Register 50 nil` | frames, processors, registers |",
            "Frame Red 100",
            frame.encode(),
        ),
        ("", "Register 50 nil", Register::new(50, Tree::NIL).encode()),
        (
            "| `Cargo 3 10`, `Shield`, `FramePart f`, `ProcessorPart p`, `RegisterPart r` | items (a frame, processor or register value also works where an item is expected) |",
            "Cargo 3 10",
            Item::Cargo(3, 10).encode(),
        ),
        (
            "",
            "FramePart (Frame Red 100)",
            Item::FramePart(frame).encode(),
        ),
        (
            "| `Nilify 3`, `Construct a b c`, `Deconstruct a b c`, `CopyIfNil a b c` | instructions as data; register and label names are their numbers here |",
            "Construct 3 4 5",
            Instruction::Construct(3, 4, 5).encode(),
        ),
        (
            "| `Passed`, `MovedIn N`, `Lifted 0`, ... every `Action` | actions (encoded as the engine does: `Passed` = `Invalid`) |",
            "Passed",
            Action::Invalid.encode(),
        ),
        ("", "MovedIn N", Action::MovedIn(Direction::N).encode()),
        (
            "| `Robot (Frame Red 10) [Shield]` | a robot as other robots see it: frame and inventory |",
            "Robot (Frame Red 10) [Shield]",
            robot.encode(),
        ),
        (
            "| `size(v)` | the number of conses of a value |",
            "size([1, 2])",
            int(Tree::list([int(1), int(2)]).size() as i64),
        ),
    ];
    for (row, literal, tree) in cases {
        if !row.is_empty() {
            states(row);
        }
        assert_eq!(value(literal), tree, "{literal}");
    }
    // An item is expected: a frame value works.
    assert_eq!(
        value("Robot (Frame Red 10) [Frame Red 100]"),
        Robot {
            inventory: vec![Item::FramePart(frame)],
            ..robot
        }
        .encode()
    );
}

#[test]
fn build_commands_index_and_code_values() {
    states(
        "| `Build [0, 1, 2] MEMORY` | a build command; MEMORY is a list of `Register`s or `image \"file.cta\"` |",
    );
    states(
        "| `image \"child.cta\"` | the memory of another compiled program (for `Build`): its registers, each with its declared limit and its initial contents |",
    );
    states("| `index(r)` | the number of register (or label) `r` |");
    states("| `code(label)` | the code tree that starts at a label of this program |");
    let loader = MemoryLoader::default()
        .with("child.cta", "reg seed 77 = [1, 2]\nmain:\n    nilify prog\n")
        .with(
            "main.cta",
            "reg a @5\nreg kid = Build [0, 1] image(\"child.cta\")\nreg memory = image \"child.cta\"\nreg regs = Build [2] [Register 3 nil]\nreg where = index(a)\nreg code = code(main)\nreg instr = Construct a a a\nmain:\n    nilify prog\n",
        );
    let assembly = assemble_file(&loader, Path::new("main.cta"));
    let program = built(&assembly);
    let child = assemble_file(&loader, Path::new("child.cta"))
        .image
        .unwrap()
        .memory();
    assert_eq!(child[3].limit, 77);
    assert_eq!(contents(&program, "memory"), &child.encode());
    assert_eq!(
        contents(&program, "kid"),
        &Command::Build(vec![0, 1], child).encode()
    );
    assert_eq!(
        contents(&program, "regs"),
        &Command::Build(vec![2], vec![Register::new(3, Tree::NIL)]).encode()
    );
    assert_eq!(contents(&program, "where"), &int(5));
    assert_eq!(contents(&program, "code"), contents(&program, "prog"));
    assert_eq!(
        contents(&program, "instr"),
        &Instruction::Construct(5, 5, 5).encode()
    );
}

#[test]
fn registers_and_labels_are_not_values() {
    states(
        "Outside instruction literals and `index(...)`, a register or label name is not a value (E0405): `mov d, r` copies register `r`, and `load d, r` is an error rather than loading `r`'s number by surprise.",
    );
    assert_eq!(
        codes("use std/control\nreg d\nreg r\nmain:\n    load d, r\n    halt\n"),
        vec!["E0405"]
    );
    assert_eq!(
        codes("reg d = main\nmain:\n    nilify prog\n"),
        vec!["E0405"]
    );
    let program = image("use std/control\nreg d\nreg r = 3\nmain:\n    mov d, r\n    halt\n");
    let (memory, _) = run(&program, 10);
    assert_eq!(register(&program, &memory, "d"), &int(3));
}

#[test]
fn arithmetic_is_exact_or_an_error() {
    states("Overflow and division by zero are errors.");
    states(
        "Numbers are the report's 64-bit `Int`: a result outside -2^63 to 2^63 - 1 is error E0408, and division (or `%`) by zero is error E0409.",
    );
    states(
        "`/` rounds toward zero and `%` takes the sign of the dividend: `-7 / 2` is -3 and `-7 % 2` is -1.",
    );
    states(
        "`x << s` is x times 2^s: it overflows like `*` (`3 << 62`, `1 << 63` and `-2 << 63` are E0408; `-1 << 63` is -2^63), and `0 << s` is 0.",
    );
    states(
        "`x >> s` is x divided by 2^s, rounded down: `-7 >> 1` is -4, and shifting by 64 or more gives 0 (-1 for a negative x).",
    );
    states("Shifting by a negative amount is error E0408.");
    for (text, expected) in [
        ("-7 / 2", -3),
        ("-7 % 2", -1),
        ("7 % -2", 1),
        ("-1 << 63", i64::MIN),
        ("0 << 500", 0),
        ("-7 >> 1", -4),
        ("5 >> 64", 0),
        ("-5 >> 64", -1),
        ("1 + 2 * 3 << 1", 14),
        ("-9223372036854775808 % -1", 0),
    ] {
        assert_eq!(value(text), int(expected), "{text}");
    }
    for (text, code) in [
        ("9223372036854775807 + 1", "E0408"),
        ("-9223372036854775807 - 2", "E0408"),
        ("4611686018427387904 * 2", "E0408"),
        ("-9223372036854775808 / -1", "E0408"),
        ("3 << 62", "E0408"),
        ("1 << 63", "E0408"),
        ("-2 << 63", "E0408"),
        ("1 << -1", "E0408"),
        ("1 >> -1", "E0408"),
        ("1 / 0", "E0409"),
        ("1 % 0", "E0409"),
    ] {
        assert_eq!(codes(&format!("reg r = {text}\n")), vec![code], "{text}");
    }
}

#[test]
fn comparisons_and_booleans() {
    states(
        "`==` and `!=` compare two values as they are written: values of different kinds differ even where they encode alike (`E == 2` is false, `[1, 2] == [1, 2]` is true). `< <= > >=` compare numbers; `and`, `or` and `not` take booleans or numbers (non-zero is true).",
    );
    for (text, expected) in [
        ("E == 2", false),
        ("[1, 2] == [1, 2]", true),
        ("Move E != Move E", false),
        ("3 < 4 and 4 <= 4", true),
        ("2 > 3 or 3 >= 4", false),
        ("not 0", true),
        ("5 and true", true),
    ] {
        assert_eq!(value(text), expected.encode(), "{text}");
    }
    assert_eq!(codes("reg r = Move E < 3\n"), vec!["E0407"]);
}

#[test]
fn constants_may_be_used_before_their_definition() {
    states(
        "`const NAME = VALUE` defines a constant. Constants may be used before their definition, except in an `if` condition, which is decided while macros are expanded and sees only the constants defined above it.",
    );
    let program = image("reg r = LATER\nconst LATER = 5\nmain:\n    nilify prog\n");
    assert_eq!(contents(&program, "r"), &int(5));
    assert_eq!(
        codes("if LATER\nreg r\nend\nconst LATER = 1\nmain:\n    nilify prog\n"),
        vec!["E0406"]
    );
}

// ---------------------------------------------------------------------
// Labels, blocks and layout

#[test]
fn the_entry_is_the_first_block_or_the_one_entry_names() {
    states(
        "The first block of the main file is the *entry*: `prog` starts with its code. `entry LABEL` chooses another.",
    );
    states(
        "`entry` may come before or after its label, in any file of the program, once (a second `entry` is error E0513, as is `entry` with `block prog`, which lays out the start by hand). Code written before the entry runs only when something jumps to it or falls into it: a block before the entry that nothing reaches is warning W0701.",
    );
    let first =
        image("reg a\nreg b\nfirst:\n    nilify a\nsecond:\n    nilify b\n    nilify prog\n");
    assert_eq!(contents(&first, "prog").list_len(), 3);
    // A routine before the entry, called from it.
    let program = image(
        "use std/control\nreg r\nhelper:\n    push r, #9\n    ret\nentry main\nmain:\n    call helper\n    call helper\n    halt\n",
    );
    let (memory, report) = run(&program, 100);
    assert!(report.halted);
    assert_eq!(
        register(&program, &memory, "r"),
        &Tree::list([int(9), int(9)])
    );
    // `entry` before its label, skipping a block nothing reaches.
    assert_eq!(
        codes("entry second\nreg b\nfirst:\n    nilify b\nsecond:\n    nilify prog\n"),
        vec!["W0701"]
    );
    // (The first `entry` holds: `b` is never reached.)
    assert_eq!(
        codes("entry a\nentry b\na:\n    nilify prog\nb:\n    nilify prog\n"),
        vec!["E0513", "W0701"]
    );
    assert_eq!(
        codes("entry a\nblock prog\n    nilify prog\nend\na:\n    nilify prog\n"),
        vec!["E0513", "W0701"]
    );
    assert_eq!(
        codes("entry nowhere\nmain:\n    nilify prog\n"),
        vec!["E0513"]
    );
}

#[test]
fn falling_through_shares_code_and_costs_no_tick() {
    states(
        "So falling through from one block into the next costs **no tick**: the two share the next block's tree.",
    );
    states("| fall through into the next block | 0 | none |");
    states("A block reached only by falling through needs no register.");
    let source = "use std/control\nreg a\nreg b\nfirst:\n    load a, 1\nsecond:\n    load b, 2\n    jmp second\n";
    let program = image(source);
    // `first` falls into `second`: prog's code goes on with the very tree
    // of second's code register.
    let prog = contents(&program, "prog");
    assert!(prog.back().unwrap().ptr_eq(contents(&program, "second")));
    assert!(program.register("first").is_none());
    // Ticks: load, load, then the loop.
    let mut memory = program.memory();
    let report = run_for(2, &mut memory).unwrap();
    assert_eq!(report.ticks, 2);
    assert_eq!(register(&program, &memory, "b"), &int(2));
}

#[test]
fn a_block_ends_where_its_code_always_writes_prog() {
    states(
        "A block's code is a list of instructions: its own, followed by the code of the block after it in the file, unless its last instruction always writes `prog` (a jump `copyifnil zero, L, prog`, a `ret`, a halt `nilify prog`, any `construct`/`deconstruct` into `prog`).",
    );
    for ending in [
        "jmp other",
        "ret",
        "halt",
        "construct out, out, prog",
        "deconstruct out, out, prog",
    ] {
        // (`other` is never reached when nothing falls into it: W0701.)
        let program = built(&assembly(&format!(
            "use std/control\nmain:\n    nilify out\n    {ending}\nother:\n    halt\n"
        )));
        let own = if ending.starts_with("ret") { 3 } else { 2 };
        assert_eq!(contents(&program, "prog").list_len(), own, "{ending}");
    }
    // A conditional jump falls through.
    let program =
        image("use std/control\nreg r = nil\nmain:\n    jnil r, other\nother:\n    halt\n");
    assert_eq!(contents(&program, "prog").list_len(), 2);
}

#[test]
fn jumped_to_labels_get_code_registers_of_their_size() {
    states(
        "A label that is jumped to (named as an operand) gets a *code register* holding its block's code; its limit is that code's size.",
    );
    let program =
        image("use std/control\nmain:\n    jmp there\nthere:\n    nilify out\n    halt\n");
    let there = contents(&program, "there");
    assert_eq!(there.list_len(), 2);
    assert_eq!(limit(&program, "there"), there.size() as i64);
}

/// The costs table, measured: ticks to halt with and without the
/// construct, and the registers it adds.
#[test]
fn the_costs_are_measured_ticks() {
    states("| `jmp L` | 1 | `L`'s code register |");
    states("| `jnil r, L` | 1 (taken or not) | `L`'s code register |");
    states(
        "| `jcons r, L` | 1 not taken, 2 taken | `L`'s and one for the code after the `jcons` |",
    );
    states("| `call L` / `ret` | 2 / 2 | `L`'s, plus `stack` and `link` |");
    let base = "use std/control\nreg full = [1]\nreg empty = nil\n";
    let code_registers = |source: &str| {
        image(source)
            .source_map
            .registers
            .iter()
            .filter(|m| m.register != 0)
            .count()
    };
    states("| `jmp L` | jump | 1 |");
    states("| `jnil r, L` | jump if `r` is Nil | 1 |");
    states("| `jcons r, L` | jump if `r` is not Nil | 1 not taken, 2 taken |");
    states("| `call L`, `ret` | call and return through `stack` | 2, 2 |");
    // jmp: 1 tick, and L's register.
    let jump = format!("{base}main:\n    jmp l\nl:\n    halt\n");
    assert_eq!(ticks(&jump), 1 + 1);
    assert_eq!(code_registers(&jump), 1);
    // jnil: 1 taken, 1 not taken.
    assert_eq!(
        ticks(&format!("{base}main:\n    jnil empty, l\nl:\n    halt\n")),
        2
    );
    assert_eq!(
        ticks(&format!("{base}main:\n    jnil full, l\nl:\n    halt\n")),
        2
    );
    // jcons: 1 not taken, 2 taken; two registers.
    let not_taken = format!("{base}main:\n    jcons empty, l\n    halt\nl:\n    halt\n");
    assert_eq!(ticks(&not_taken), 1 + 1);
    assert_eq!(code_registers(&not_taken), 2);
    assert_eq!(
        ticks(&format!(
            "{base}main:\n    jcons full, l\n    halt\nl:\n    halt\n"
        )),
        2 + 1
    );
    // call and ret: 2 each.
    let calls = format!("{base}main:\n    call l\n    halt\nl:\n    ret\n");
    assert_eq!(ticks(&calls), 2 + 2 + 1);
    let program = image(&calls);
    let callstack = program.callstack.expect("call needs the call stack");
    assert_eq!(
        (callstack.stack, callstack.link),
        (
            program.register("stack").unwrap(),
            program.register("link").unwrap()
        )
    );
}

#[test]
fn sizes_and_the_limit_of_prog() {
    states(
        "Sizes: code counts every instruction of the block and everything it falls into. `prog` must hold the largest code jumped into it; by default its limit is computed for that, and a declared limit too small for a jump target is warning W0705 (the jump would wipe the machine).",
    );
    let source = "use std/control\nmain:\n    jmp big\nbig:\n    nilify out\nmore:\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    nilify out\n    halt\n";
    let program = image(source);
    let big = contents(&program, "big");
    assert_eq!(big.list_len(), 12);
    // A limit that holds the first code but not what it jumps to.
    let first = contents(&program, "prog").size();
    assert!(first < big.size());
    let tiny = source.replace(
        "use std/control\n",
        &format!("use std/control\nreg prog {first}\n"),
    );
    assert_eq!(codes(&tiny), vec!["W0705"]);
    let mut memory = built(&assembly(&tiny)).memory();
    assert_eq!(run_for(10, &mut memory), Err(MachineError::OutOfMemory(0)));
}

#[test]
fn local_labels_belong_to_the_label_before_them() {
    states(
        "Labels beginning with `.` belong to the label before them: `.loop` under `main:` is `main.loop`. Labels inside macros are local to each expansion.",
    );
    let program = image(
        "use std/control\nreg n = [1, 1]\nreg x\nmain:\n.loop:\n    jnil n, .done\n    pop n, x\n    jmp main.loop\n.done:\n    halt\n",
    );
    let labels: Vec<&str> = program.labels.iter().map(|l| l.name.as_str()).collect();
    assert!(
        labels.contains(&"main.loop") && labels.contains(&"main.done"),
        "{labels:?}"
    );
    let (memory, report) = run(&program, 100);
    assert!(report.halted && register(&program, &memory, "n").is_nil());
}

#[test]
fn hand_laid_blocks_hold_exactly_their_instructions() {
    states(
        "`block NAME [@INDEX] [LIMIT] ... end` declares a register whose contents are exactly the instructions inside, optionally followed by another register's contents (`tail OTHER`). Labels inside mark offsets.",
    );
    let program = image(
        "reg data = [7]\nblock code @9 50\n    nilify out\ninside:\n    nilify out\n    tail data\nend\nmain:\n    nilify prog\n",
    );
    assert_eq!(program.register("code"), Some(9));
    assert_eq!(limit(&program, "code"), 50);
    let code = contents(&program, "code");
    assert_eq!(
        code,
        &Tree::cons(
            Instruction::Nilify(2).encode(),
            Tree::cons(Instruction::Nilify(2).encode(), value("[7]"))
        )
    );
    let inside = program.labels.iter().find(|l| l.name == "inside").unwrap();
    assert_eq!((inside.register, inside.offset), (9, 1));
}

// ---------------------------------------------------------------------
// Macros

#[test]
fn macro_arguments_mean_what_they_mean_in_place() {
    states(
        "`macro NAME PARAM, ...` up to `end`. A macro is invoked like an instruction: `jcons items, grab`. Arguments are expressions, substituted for the parameters wherever they appear, and an argument means what it would mean written in the macro's place: `mov d, n + 1` with `n` = 4 moves the value 5 (only a number alone, `5`, names a register).",
    );
    let program = image(
        "use std/control\nconst n = 4\nreg d\nmacro put target, v\n    mov target, v\nend\nmain:\n    put d, n + 1\n    halt\n",
    );
    let (memory, _) = run(&program, 10);
    assert_eq!(register(&program, &memory, "d"), &int(5));
}

#[test]
fn macro_labels_are_local_to_each_expansion() {
    states(
        "Labels defined in a macro body are local to each expansion, so a macro can be used any number of times.",
    );
    let program = image(
        "use std/control\nreg seen = [0]\nreg e = nil\nmacro skip_if_nil r\n    jnil r, over\n    push seen, #1\nover:\nend\nmain:\n    skip_if_nil e\n    skip_if_nil seen\n    skip_if_nil seen\n    halt\n",
    );
    let (memory, _) = run(&program, 100);
    assert_eq!(
        Vec::<i64>::decode(register(&program, &memory, "seen")),
        Some(vec![1, 1, 0])
    );
}

#[test]
fn macros_are_known_from_their_definition_on() {
    states(
        "A macro is known from its definition on: a line above the definition that invokes it is error E0508.",
    );
    let assembly =
        assembly("main:\n    twice\n    nilify prog\nmacro twice\n    nilify out\nend\n");
    assert_eq!(assembly.diagnostics.len(), 1);
    assert_eq!(assembly.diagnostics[0].code.as_str(), "E0508");
    assert!(
        assembly.diagnostics[0]
            .help
            .as_deref()
            .unwrap()
            .contains("defined further on")
    );
}

#[test]
fn macros_recurse_with_if_at_most_64_deep() {
    states(
        "Macros may invoke macros (at most 64 levels deep: E0214) and themselves, with `if` to stop: a macro that never stops is reported, not run forever.",
    );
    states(
        "`if COND ... else ... end` keeps or drops lines while expanding; COND is a number (non-zero is true) or a boolean.",
    );
    let program = image(
        "use std/control\nreg log\nmacro count n\n    if n\n        push log, #n\n        count n - 1\n    else\n        push log, #0\n    end\nend\nmain:\n    count 3\n    halt\n",
    );
    let (memory, _) = run(&program, 100);
    assert_eq!(
        Vec::<i64>::decode(register(&program, &memory, "log")),
        Some(vec![0, 1, 2, 3])
    );
    let recursion = |depth: i64| {
        format!(
            "macro down n\n    if n > 0\n        down n - 1\n    end\nend\ndown {depth}\nmain:\n    nilify prog\n"
        )
    };
    assert!(codes(&recursion(63)).is_empty());
    assert_eq!(codes(&recursion(64)), vec!["E0214"]);
    assert_eq!(
        codes("macro forever\n    forever\nend\nforever\n"),
        vec!["E0214"]
    );
    assert_eq!(codes("if Move E\nend\n"), vec!["E0215"]);
}

// ---------------------------------------------------------------------
// Modules

#[test]
fn used_modules_are_read_once_and_laid_out_on_their_own() {
    states(
        "`use \"path.cta\"` reads a file relative to the file that names it. A module is read once however often it is used; its code is laid out on its own (nothing falls into it), so it must start with a label, and its blocks that nothing reaches are left out of the image.",
    );
    let loader = MemoryLoader::default()
        .with("lib/util.cta", "reg util.count\nutil.bump:\n    construct util.count, util.count, util.count\n    nilify prog\nutil.unused:\n    nilify out\n    nilify prog\n")
        .with("lib/both.cta", "use \"util.cta\"\n")
        .with("main.cta", "use \"lib/util.cta\"\nuse \"lib/both.cta\"\nmain:\n    nilify out\n");
    let assembly = assemble_file(&loader, Path::new("main.cta"));
    let program = built(&assembly);
    // Read once: one `util.count`; nothing falls into the module, and its
    // unreached blocks are not in the image.
    assert_eq!(assembly.sources.iter().count(), 3);
    assert_eq!(contents(&program, "prog").list_len(), 1);
    assert!(program.labels.iter().all(|l| !l.name.starts_with("util.")));
    let code_first = MemoryLoader::default()
        .with("m.cta", "nilify out\n")
        .with("main.cta", "use \"m.cta\"\nmain:\n    nilify prog\n");
    let codes: Vec<&str> = assemble_file(&code_first, Path::new("main.cta"))
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, vec!["E0219"]);
}

#[test]
fn the_standard_library_is_built_in() {
    states(
        "`use std/NAME` reads a module of the standard library (built into the binary; `--stdlib DIR` or `$CONSTREE_STDLIB` reads them from a directory).",
    );
    for module in [
        "control", "input", "ints", "lists", "trees", "commands", "memory", "machine",
    ] {
        let source = format!("use std/{module}\nmain:\n    nilify prog\n");
        assert!(assembly(&source).image.is_some(), "std/{module}");
    }
}

#[test]
fn include_reads_a_file_in_place_every_time() {
    states(
        "`include \"path.cta\"` reads a file in place, every time; a file that includes itself is an error (E0217).",
    );
    let loader = MemoryLoader::default()
        .with("one.cta", "nilify out\n")
        .with(
            "main.cta",
            "main:\n    include \"one.cta\"\n    include \"one.cta\"\n    nilify prog\n",
        )
        .with("self.cta", "include \"self.cta\"\n");
    let program = assemble_file(&loader, Path::new("main.cta")).image.unwrap();
    assert_eq!(contents(&program, "prog").list_len(), 3);
    let codes: Vec<&str> = assemble_file(&loader, Path::new("self.cta"))
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, vec!["E0217"]);
}

// ---------------------------------------------------------------------
// The call convention

#[test]
fn a_call_pushes_the_rest_of_the_callers_code() {
    states(
        "`std/control` declares `stack` and `link` and says so with `callstack stack, link`. `call L` pushes the rest of the current code (whose first instruction is the jump to `L`) onto `stack` and jumps; `ret` pops it into `link` and continues after that jump.",
    );
    states("Each call pushes the rest of the caller's code: its size plus one cons.");
    let program =
        image("use std/control\nmain:\n    call f\n    nilify out\n    halt\nf:\n    halt\n");
    let mut memory = program.memory();
    let before = memory[0].contents.clone();
    run_for(1, &mut memory).unwrap();
    let stack = &memory[program.register("stack").unwrap()].contents;
    let pushed = stack.front().unwrap();
    // The rest of the code: the jump to `f`, then what follows it.
    assert!(pushed.ptr_eq(before.back().unwrap()));
    assert_eq!(stack.size(), pushed.size() + 1);
    assert_eq!(
        Instruction::decode(pushed.front().unwrap()),
        Some(Instruction::CopyIfNil(
            program.register("zero").unwrap() as i64,
            program.register("f").unwrap() as i64,
            0
        ))
    );
}

#[test]
fn the_stack_is_checked_against_the_deepest_calls() {
    states(
        "When no routine can reach itself again and every jump goes to a label, the assembler knows the deepest chain of calls and checks that `stack` can hold it (E0607, with the chain and the size needed).",
    );
    let source = |limit: i64| {
        format!(
            "use std/control\nresize stack {limit}\nmain:\n    call a\n    halt\na:\n    call b\n    ret\nb:\n    ret\n"
        )
    };
    // Find the least limit the assembler accepts: it is exactly what the
    // machine needs.
    let least = (1..1000).find(|&l| codes(&source(l)).is_empty()).unwrap();
    assert_eq!(codes(&source(least - 1)), vec!["E0607"]);
    let program = image(&source(least));
    let (_, report) = run(&program, 100);
    assert!(report.halted);
    let mut memory = program.memory();
    memory[program.register("stack").unwrap()].limit = least - 1;
    assert!(matches!(
        run_for(100, &mut memory),
        Err(MachineError::OutOfMemory(_))
    ));
}

// ---------------------------------------------------------------------
// The standard library's costs

#[test]
fn std_control_costs_are_measured_ticks() {
    let cases = [
        (
            "| `mov d, s` | `d := s` (s a register or a value) | 1 |",
            "mov a, b",
            1,
        ),
        (
            "| `load d, v` | `d := v`, for values `mov` would read as a register (numbers) | 1 |",
            "load a, 5",
            1,
        ),
        ("| `clear r` | `r := Nil` | 1 |", "clear a", 1),
        (
            "| `push list, r` | `list := Cons r list` | 1 |",
            "push a, b",
            1,
        ),
        (
            "| `pop list, r` | `r := head list`, `list := tail list` | 1 |",
            "pop b, a",
            1,
        ),
        (
            "| `car d, s`, `cdr d, s` | front, back (clobber `scratch`) | 1 |",
            "car a, b",
            1,
        ),
        ("", "cdr a, b", 1),
        (
            "| `cons d, f, b` | `d := Cons f b` | 1 |",
            "cons a, b, b",
            1,
        ),
        (
            "| `swap a, b` | exchange (clobbers `scratch`) | 3 |",
            "swap a, b",
            3,
        ),
        ("| `halt` | stop for good | 1 |", "", 0),
    ];
    for (row, line, cost) in cases {
        if !row.is_empty() {
            states(row);
        }
        let source =
            format!("use std/control\nreg a\nreg b = [1, 2]\nmain:\n    {line}\n    halt\n");
        assert_eq!(ticks(&source), cost + 1, "{line}");
    }
    states("| `wait_step` | spin until the engine has read `out` | 2 per turn |");
    states(
        "| `emit c` | `out := c` (a command value or a register), then `wait_step` | 1 + wait |",
    );
    // `out` already read (Nil): one tick to find it so; then emit's move.
    assert_eq!(
        ticks("use std/control\nmain:\n    wait_step\n    halt\n"),
        1 + 1
    );
    let emit = image("use std/control\nmain:\n    emit Pass\n    halt\n");
    let mut memory = emit.memory();
    // 1 tick to write `out`, 1 to test it, then 2 per turn while it waits.
    assert_eq!(run_for(2, &mut memory).unwrap().ticks, 2);
    let waiting = memory[0].contents.clone();
    run_for(2, &mut memory).unwrap();
    assert_eq!(memory[0].contents, waiting);
    assert_eq!(memory[2].contents, Command::Pass.encode());
    // The engine reads and clears `out`: the wait ends.
    memory[2].contents = Tree::NIL;
    let report = run_for(10, &mut memory).unwrap();
    assert!(report.halted && report.ticks <= 3);
}

// ---------------------------------------------------------------------
// Diagnostics

#[test]
fn errors_stop_the_image_and_warnings_do_not() {
    states(
        "Errors stop the image from being written; warnings do not. Every message has a code, points at the source (and at the macro invocations it came from), and ends with a `Help:` line saying what to do next",
    );
    let warned =
        assembly("reg never\nreg sink\nmain:\n    copyifnil never, never, sink\n    nilify prog\n");
    assert_eq!(warned.diagnostics[0].code.as_str(), "W0702");
    assert!(warned.image.is_some());
    let failed = assembly("main:\n    nilify nowhere\n");
    assert!(failed.image.is_none());
    let rendered = failed.render(false);
    assert!(
        rendered.contains("[E0512] Error") && rendered.contains("Help: "),
        "{rendered}"
    );
}

/// The example of the section, as it is shown.
#[test]
fn the_example_diagnostic() {
    states("[E0512] Error: unknown register or label `cout`");
    states("Help: did you mean `out`?");
    let assembly = assembly("use std/control\n\n\nmain:\n    mov cout, Move E\n    halt\n");
    let rendered = assembly.render(false);
    assert!(
        rendered.starts_with("[E0512] Error: unknown register or label `cout`"),
        "{rendered}"
    );
    assert!(
        rendered.contains("in this expansion of `mov`"),
        "{rendered}"
    );
    assert!(rendered.contains("Help: did you mean `out`?"), "{rendered}");
    assert!(rendered.ends_with("1 error, 0 warnings\n"), "{rendered}");
}

#[test]
fn at_most_50_diagnostics_are_shown_in_full() {
    states("At most 50 diagnostics are shown in full; the rest are counted.");
    let source: String = (0..60).map(|k| format!("nilify nowhere{k}\n")).collect();
    let assembly = assembly(&format!("main:\n{source}"));
    assert_eq!(assembly.diagnostics.len(), 60);
    let rendered = assembly.render(false);
    assert_eq!(rendered.matches("[E0512] Error").count(), 50, "{rendered}");
    assert!(rendered.contains("60 errors"), "{rendered}");
}

/// There is no E0604, and the docs say so (`tests/diagnostic_codes.rs`
/// checks the code table against the codes).
#[test]
fn there_is_no_e0604() {
    states("There is no E0604: a register that does not exist is E0605.");
    assert!(Code::ALL.iter().all(|c| c.as_str() != "E0604"));
    assert!(Code::ALL.contains(&Code::E0605));
}

// What a program means: each rule of the source semantics, checked on the
// semantics (`constree::asm::semantics`) and, through the differential
// harness, on the engine's run of the assembler's image.

/// A program's meaning and the check that the image does the same.
fn meaning(source: &str, budget: u64) -> (semantics::Program, semantics::Run) {
    let loader = MemoryLoader::default().with("main.cta", source);
    semantics_gen::check(&loader, "main.cta", budget, Faults::default())
        .unwrap_or_else(|e| panic!("{e}\n{source}"));
    let program = semantics::load(
        &loader,
        SourceFile::new("main.cta".into(), Some("main.cta".into()), source.into()),
    )
    .expect("the semantics defines it");
    let run = semantics::run(&program, budget);
    (program, run)
}

/// The instruction positions of a program's labels.
fn at(program: &semantics::Program, label: &str) -> Option<usize> {
    program.labels[&constree::asm::ast::Name::root(label)]
}

#[test]
fn semantics_labels_denote_the_code_after_them() {
    states(
        "A label denotes the code that starts at the first instruction after it in its sequence (Nil if none follows).",
    );
    let (program, run) = meaning(
        "use std/control\nmain:\n    jmp empty\nfull:\n\nlast:\n    halt\nempty:\n",
        10,
    );
    assert_eq!(at(&program, "full"), at(&program, "last"));
    assert_eq!(at(&program, "empty"), None);
    // Jumping to `empty` writes Nil to prog: the program halts.
    assert!(matches!(run.outcome, semantics::Outcome::Halted));
    assert_eq!(run.ticks, 1);
}

#[test]
fn semantics_what_follows_an_instruction() {
    states(
        "**What follows an instruction** is the next instruction of its sequence, except at the end of the sequence and after the last instruction of a block that ends",
    );
    states(
        "unless the instruction before it in the block reads `prog` as data. There the code ends: nothing follows.",
    );
    states("A block that ends with a `call` is the exception");
    let (program, _) = meaning(
        "use std/control\nreg r\nreg z 0 = nil\nmain:\n    jnil r, a\na:\n    call f\nb:\n    copyifnil z, b, prog\nc:\n    jmp d\nd:\n    halt\nf:\n    ret\n",
        100,
    );
    let next = |k: usize| program.instrs[k].next;
    // jnil falls through; call's jump goes on into `b`.
    assert_eq!(next(0), at(&program, "a"));
    assert_eq!(next(2), at(&program, "b"));
    // `z` has a value, so it is not a register that can only hold Nil.
    assert_eq!(next(3), at(&program, "c"));
    // A jump ends its block; so does a halt; so does the end of the code.
    assert_eq!(next(4), None);
    assert_eq!(next(5), None);
}

#[test]
fn semantics_the_start_and_a_tick() {
    states(
        "**The start.** `prog` holds the code of the label `entry` names, or else the code starting at the main file's first instruction.",
    );
    states(
        "Every instruction run is one tick; nothing else costs a tick, so falling into the next block is free, and a macro costs the instructions it expands to.",
    );
    let (program, run) = meaning(
        "use std/control\nreg a = 1\nreg b = 2\nhelper:\n    swap a, b\n    ret\nentry main\nmain:\n    call helper\nnext:\n    halt\n",
        100,
    );
    assert_eq!(program.start, at(&program, "main"));
    assert!(program.entry_moved);
    // call 2, swap 3, ret 2, halt 1.
    assert_eq!(run.ticks, 8);
    assert_eq!(
        run.registers[program.register_numbered(3).unwrap()].size(),
        Some(int(2).size())
    );
}

#[test]
fn semantics_operands_and_instructions() {
    states(
        "A register's name, `@N` and a number alone denote a declared register, which instructions read and write. A label denotes its code, and a constant, `#e` or any other value denotes that value: these are read, never written.",
    );
    states(
        "The front of code is its first instruction, and its back the code after that instruction.",
    );
    let (program, run) = meaning(
        "use std/control\nreg a\nreg b\nreg c @9\nmain:\n    mov a, there\n    deconstruct a, b, @9\n    construct 3, #5, a\n    jmp c\nthere:\n    nilify b\n    halt\n",
        100,
    );
    use semantics::{Operand, Value};
    let value = |r: usize| &run.registers[program.register_numbered(r as i64).unwrap()];
    let there = at(&program, "there").unwrap();
    assert!(matches!(program.instrs[0].operands[1], Operand::Value(Value::Code(p)) if p == there));
    assert!(matches!(
        program.instrs[2].operands[0],
        Operand::Register(_)
    ));
    // b holds the instruction `nilify b`, c the code after it (a halt),
    // and a is `Cons a 5`.
    assert!(matches!(value(4), Value::Instr(p) if *p == there));
    assert!(matches!(value(9), Value::Code(p) if Some(*p) == program.instrs[there].next));
    assert!(matches!(value(3), Value::Cons(_)));
    assert!(matches!(run.outcome, semantics::Outcome::Halted));
}

#[test]
fn semantics_errors_stop_the_program() {
    states(
        "`deconstruct` of a register holding Nil is an error in that register; writing a value larger than a register's limit is an error in that register.",
    );
    let (_, run) = meaning("use std/control\nreg a\nmain:\n    pop a, out\n", 10);
    assert!(matches!(
        run.outcome,
        semantics::Outcome::Failed {
            fault: semantics::Fault::DeconstructNil(3),
            ..
        }
    ));
    let (_, run) = meaning(
        "use std/control\nreg a 2\nmain:\n    load a, [0]\n    load a, [0, 0, 0]\n",
        10,
    );
    assert!(matches!(
        run.outcome,
        semantics::Outcome::Failed {
            fault: semantics::Fault::OutOfMemory(3),
            ..
        }
    ));
    assert_eq!(run.ticks, 1);
}

#[test]
fn semantics_calls_return_after_the_call() {
    states(
        "pops that code and continues with what follows the jump: the instruction after the `call`.",
    );
    let (program, run) = meaning(
        "use std/control\nreg n = [0, 0, 0]\nreg trail\nmain:\n    call down\n    halt\ndown:\n    jnil n, .out\n    pop n, scratch\n    push trail, n\n    call down\n.out:\n    ret\n",
        1000,
    );
    assert!(matches!(run.outcome, semantics::Outcome::Halted));
    // main's call and three recursive ones, all to `down`.
    assert_eq!(run.deepest_recursion, 4);
    assert!(program.callstack.is_some());
}

#[test]
fn semantics_images_are_the_memory_of_another_program() {
    states(
        "`image(FILE)` denotes the memory that the image of the program in FILE starts with: that program's declared registers, each with its declared limit and value, and its `prog` holding its start",
    );
    let loader = MemoryLoader::default()
        .with(
            "main.cta",
            "use std/control\nreg keep 100000\nmain:\n    mov keep, image(\"kid.cta\")\n    halt\n",
        )
        .with("kid.cta", "reg k 7 = [1]\nmain:\n    nilify k\n");
    semantics_gen::check(&loader, "main.cta", 10, Faults::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let program = semantics::load(
        &loader,
        SourceFile::new("main.cta".into(), Some("main.cta".into()), String::new() + "use std/control\nreg keep 100000\nmain:\n    mov keep, image(\"kid.cta\")\n    halt\n"),
    )
    .expect("loads");
    let semantics::Operand::Value(semantics::Value::Image(kid)) = &program.instrs[0].operands[1]
    else {
        panic!("not an image");
    };
    let k = &kid.registers[kid.register_numbered(3).expect("k is r3")];
    assert_eq!((&*k.name.text, k.limit), ("k", 7));
    assert_eq!(kid.start, Some(0));
}

#[test]
fn semantics_leaves_layout_open() {
    states("running data that is not code, `index(...)` of a label, and hand-laid blocks.");
    let load = |source: &str| {
        let loader = MemoryLoader::default();
        semantics::load(
            &loader,
            SourceFile::new("t.cta".into(), None, source.into()),
        )
    };
    assert!(load("block b\n    nilify out\nend\n").is_err());
    let program = load("use std/control\nmain:\n    load out, index(main)\n").expect("loads");
    let run = semantics::run(&program, 10);
    assert!(matches!(run.outcome, semantics::Outcome::Undefined(_)));
}

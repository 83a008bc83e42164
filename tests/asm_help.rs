//! Every kind of assembler diagnostic says what to do next: a `Help:` line,
//! shown here for each code (a snapshot), from real programs: the
//! assembler cases of `tests/asm/cases/` and a few programs made here.

use constree::asm::assemble_file;
use constree::asm::source::{DiskLoader, MemoryLoader};
use constree::diagnostic::Code;
use std::collections::BTreeMap;
use std::path::Path;

/// Codes no input can produce: E0101 is the parser's custom error, which
/// no rule of the grammar raises today.
const UNREACHABLE: &[Code] = &[Code::E0101];

/// Programs for the codes that no case file has (they need files that
/// cannot be read, or are too large to keep).
fn made_programs() -> Vec<(MemoryLoader, &'static str)> {
    let mut deep = MemoryLoader::default();
    for k in 0..40 {
        deep = deep.with(
            &format!("f{k}.cta"),
            &format!("include \"f{}.cta\"\n", k + 1),
        );
    }
    let breadth = "macro m n\n    if n > 0\n        m n - 1\n        m n - 1\n    end\nend\nm 60\n";
    // Each file includes the next twice: 2^20 inclusions of the last.
    let mut fanout = MemoryLoader::default();
    for k in 0..20 {
        fanout = fanout.with(
            &format!("g{k}.cta"),
            &format!("include \"g{0}.cta\"\ninclude \"g{0}.cta\"\n", k + 1),
        );
    }
    fanout = fanout.with("g20.cta", "; the last\n");
    // Each program embeds the next, 40 deep.
    let mut images = MemoryLoader::default();
    for k in 0..40 {
        images = images.with(
            &format!("p{k}.cta"),
            &format!("reg i = image(\"p{}.cta\")\nmain:\n    nilify i\n", k + 1),
        );
    }
    let long = format!("reg r = {}\n", vec!["1"; 600].join(" + "));
    let mut nested = String::from("const c0 = 1\n");
    for k in 1..1100 {
        nested.push_str(&format!("const c{k} = [c{}]\n", k - 1));
    }
    nested.push_str("reg r = c1099\n");
    vec![
        (MemoryLoader::default().with("long.cta", &long), "long.cta"),
        (fanout, "g0.cta"),
        (images, "p0.cta"),
        (
            MemoryLoader::default().with("nested.cta", &nested),
            "nested.cta",
        ),
        (MemoryLoader::default(), "nowhere.cta"),
        (deep, "f0.cta"),
        (
            MemoryLoader::default().with("breadth.cta", breadth),
            "breadth.cta",
        ),
    ]
}

/// The first diagnostic of each code: its message, help and rendering.
fn diagnostics_by_code() -> BTreeMap<Code, (String, Option<String>, String)> {
    let mut cases: Vec<_> = std::fs::read_dir("tests/asm/cases")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_str().unwrap().ends_with(".inc.cta"))
        .collect();
    cases.sort();
    let mut assemblies: Vec<_> = cases
        .iter()
        .map(|p| assemble_file(&DiskLoader::default(), p))
        .collect();
    for (loader, main) in made_programs() {
        assemblies.push(assemble_file(&loader, Path::new(main)));
    }
    let mut found = BTreeMap::new();
    for assembly in &assemblies {
        for d in &assembly.diagnostics {
            found.entry(d.code).or_insert_with(|| {
                let one =
                    constree::diagnostic::render(std::slice::from_ref(d), &assembly.sources, false);
                (d.message.clone(), d.help.clone(), one)
            });
        }
    }
    found
}

#[test]
fn every_kind_of_diagnostic_says_what_to_do_next() {
    let found = diagnostics_by_code();
    let mut shown = String::new();
    for (code, (message, help, rendered)) in &found {
        let help = help
            .as_deref()
            .unwrap_or_else(|| panic!("{code} has no help:\n{rendered}"));
        assert!(!help.trim().is_empty(), "{code}: an empty help line");
        assert!(
            rendered.contains(&format!("Help: {help}")),
            "{code}: the rendering shows no help line:\n{rendered}"
        );
        shown.push_str(&format!("{code} {message}\n      help: {help}\n"));
    }
    insta::assert_snapshot!("help_of_every_code", shown);
    // The scenarios' codes (`E08..`) and some of the images', replays',
    // tournaments' and the command line's (`E10..`-`E12..`) are shown by
    // tests/message_format.rs, the debugger's (`E09..`) by the unit tests
    // of src/debugger/error.rs; none of them is the assembler's.
    let theirs = ["E08", "E09", "E10", "E11", "E12"];
    let missing: Vec<&Code> = Code::ALL
        .iter()
        .filter(|c| !theirs.iter().any(|p| c.as_str().starts_with(p)))
        .filter(|c| !found.contains_key(c) && !UNREACHABLE.contains(c))
        .collect();
    assert!(missing.is_empty(), "no program shows {missing:?}");
}

#[test]
fn the_operands_e0403_suggests_assemble() {
    // E0403's help shows `#` and `@` where they belong: each example in
    // backquotes, put in a program, assembles (`load r, #5` once did not:
    // `load` puts its own `#` in front).
    let help = Code::E0403.help();
    let examples: Vec<&str> = help.split('`').skip(1).step_by(2).collect();
    let operands: Vec<&&str> = examples.iter().filter(|e| e.contains(' ')).collect();
    assert!(!operands.is_empty(), "no example in {help:?}");
    for example in operands {
        let source = format!("use std/control\nreg r\nmain:\n    {example}\n    halt\n");
        let loader = MemoryLoader::default().with("main.cta", &source);
        let assembly = assemble_file(&loader, Path::new("main.cta"));
        assert!(
            assembly.image.is_some(),
            "`{example}` does not assemble: {:?}",
            assembly
                .diagnostics
                .iter()
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        );
    }
}

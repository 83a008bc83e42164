//! Hostile inputs on the assembler's surfaces: long operator chains, deep
//! nesting, constants defined through each other, doubling macros, fan-out
//! includes and images, and the same long expressions wherever a literal
//! is read (`exec --input`, the debugger's `set`, scenarios, `[expect]`, a
//! tournament's player). Each case runs in a child process under the caps
//! of `hostile_common` (1 GiB, 10 s of CPU, the ordinary 8 MiB main
//! stack), at the size that once crashed it and at ten times that, and
//! checks for a clean error (exit code 1, a diagnostic saying where and
//! why) or a bounded success, with the files around it untouched.

#[allow(dead_code)]
#[path = "../fuzz/src/hostile.rs"]
mod hostile;
mod hostile_common;

use hostile::Files;
use hostile_common::{Capped, Scratch, run_capped, snapshot};

/// The largest argument one command-line word may be (Linux's
/// `MAX_ARG_STRLEN` is 128 KiB): literals given as arguments are cut to it.
const MAX_ARGUMENT: usize = 120_000;

/// Writes `files` into a fresh folder, runs `constree ARGS` there under the
/// caps, checks that nothing in the folder changed, and gives the result.
fn run_on(name: &str, files: &[(String, String)], args: &[&str]) -> Capped {
    let scratch = Scratch::new(name);
    for (path, text) in files {
        scratch.write(path, text);
    }
    let before = snapshot(scratch.path());
    let out = run_capped(scratch.path(), args, b"");
    assert!(
        out.signal.is_none() && !out.timed_out,
        "{name}: {args:?} did not end by itself: {out:#?}"
    );
    assert_eq!(
        snapshot(scratch.path()),
        before,
        "{name}: {args:?} changed files"
    );
    out
}

/// `constree check main.cta` on `files`.
fn check(name: &str, files: &[(String, String)]) -> Capped {
    run_on(name, files, &["check", "main.cta"])
}

/// One main file.
fn main_file(text: String) -> Files {
    vec![("main.cta".to_string(), text)]
}

/// Panics unless `out` is a clean error with diagnostic `code` located in
/// `file` (`file:LINE:COLUMN`).
fn error_at(out: &Capped, code: &str, file: &str) {
    out.assert_error(&format!("[{code}]"));
    assert!(
        out.stderr.contains(&format!("{file}:")),
        "the error should say where, in {file}: {out:#?}"
    );
}

// Long expressions in a program.

#[test]
fn a_chain_of_binary_operators_is_a_clean_error() {
    for terms in [7_000, 70_000] {
        let out = check(
            "plus",
            &main_file(hostile::program_with(&hostile::plus_chain(terms))),
        );
        error_at(&out, "E0004", "main.cta");
    }
    // A chain within the cap assembles.
    let out = check(
        "plus-ok",
        &main_file(hostile::program_with(&hostile::plus_chain(200))),
    );
    out.assert_success();
}

#[test]
fn long_prefix_chains_are_clean_errors() {
    for count in [40_000, 400_000] {
        let out = check(
            "neg",
            &main_file(hostile::program_with(&hostile::neg_chain(count))),
        );
        error_at(&out, "E0004", "main.cta");
    }
    for count in [30_000, 300_000] {
        let out = check(
            "not",
            &main_file(hostile::program_with(&hostile::not_chain(count))),
        );
        error_at(&out, "E0004", "main.cta");
    }
}

#[test]
fn constants_defined_through_each_other_are_bounded() {
    // A plain copy down a chain: nothing nests, so it assembles.
    for count in [4_000, 40_000] {
        check("consts", &main_file(hostile::const_chain(count, "{}"))).assert_success();
        check("sums", &main_file(hostile::const_chain(count, "{} + 1"))).assert_success();
    }
    // Each constant a list around the one before: the value nests deeper
    // than the cap.
    for count in [4_000, 40_000] {
        let out = check("lists", &main_file(hostile::const_chain(count, "[{}]")));
        error_at(&out, "E0424", "main.cta");
    }
}

#[test]
fn macro_arguments_cannot_nest_an_expression_past_the_cap() {
    // Each level wraps the argument once more: the nesting grows with the
    // macro depth, not with any one line.
    let text = "use std/control\nmacro m n, x\nif n > 0\nm n - 1, - - - - - - - - - - - - - - - - x\nelse\nreg r = x\nend\nend\nm 60, 1\nmain:\n    halt\n";
    let out = check("macro-nest", &main_file(text.to_string()));
    error_at(&out, "E0004", "main.cta");
}

// Budgets.

#[test]
fn a_macro_whose_argument_doubles_is_stopped_early() {
    for levels in [22, 220] {
        let out = check("doubling", &main_file(hostile::doubling_macro(levels)));
        out.assert_error("main.cta:");
        assert!(
            out.stderr.contains("[E0207]") || out.stderr.contains("[E0214]"),
            "{out:#?}"
        );
    }
}

#[test]
fn a_macro_that_invokes_itself_twice_per_level_is_stopped() {
    let out = check("branching", &main_file(hostile::branching_macro(22)));
    error_at(&out, "E0207", "main.cta");
    // Past 64 levels the depth cap speaks first.
    let out = check("branching-deep", &main_file(hostile::branching_macro(220)));
    error_at(&out, "E0214", "main.cta");
}

#[test]
fn includes_that_fan_out_are_stopped_by_the_budget() {
    for depth in [20, 30] {
        let out = check("include-fanout", &hostile::include_fanout(depth));
        out.assert_error("[E0220]");
    }
    // Ten times deeper: the depth cap speaks first.
    let out = check("include-deep", &hostile::include_fanout(200));
    out.assert_error("[E0218]");
    // A few levels fit the budget.
    check("include-small", &hostile::include_fanout(6)).assert_success();
}

#[test]
fn include_refuses_devices_and_fifos() {
    let out = check(
        "include-zero",
        &main_file("use std/control\ninclude \"/dev/zero\"\nmain:\n    halt\n".into()),
    );
    error_at(&out, "E0216", "main.cta");
    let scratch = Scratch::new("include-fifo");
    scratch.write(
        "main.cta",
        "use std/control\ninclude \"pipe.cta\"\nmain:\n    halt\n",
    );
    let fifo = scratch.path().join("pipe.cta");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a plain system call on a valid path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let before = snapshot(scratch.path());
    let out = run_capped(scratch.path(), &["check", "main.cta"], b"");
    error_at(&out, "E0216", "main.cta");
    assert_eq!(snapshot(scratch.path()), before);
}

#[test]
fn an_image_chain_is_stopped_by_the_depth_cap() {
    for depth in [1_500, 15_000] {
        let out = check("image-chain", &hostile::image_nest(depth, 1));
        out.assert_error("[E0423]");
    }
    // Within the cap it assembles.
    check("image-short", &hostile::image_nest(10, 1)).assert_success();
}

#[test]
fn images_that_fan_out_are_assembled_once_each() {
    // Each program embeds the next twice: 2^15 embeddings, 15 programs.
    let out = check("image-fanout", &hostile::image_nest(15, 2));
    out.assert_success();
}

#[test]
fn images_of_too_many_programs_are_refused() {
    // 1,001 distinct programs, each a file of its own.
    let mut files = vec![("main.cta".to_string(), String::from("use std/control\n"))];
    for k in 0..1_001 {
        files[0]
            .1
            .push_str(&format!("reg i{k} auto = image(\"p{k}.cta\")\n"));
        files.push((
            format!("p{k}.cta"),
            "use std/control\nmain:\n    halt\n".into(),
        ));
    }
    files[0].1.push_str("main:\n    halt\n");
    let out = check("image-count", &files);
    error_at(&out, "E0423", "main.cta");
    assert!(out.stderr.contains("more than 1000 programs"), "{out:#?}");
}

#[test]
fn many_register_declarations_assemble() {
    for count in [200_000, 2_000_000] {
        let files = main_file(hostile::many_registers(count));
        check("regs", &files).assert_success();
        run_on("regs-asm", &files, &["asm", "main.cta", "-o", "/dev/null"]).assert_success();
    }
}

#[test]
fn deeply_nested_ifs_assemble() {
    // `if` nests without bound, in a file and in a macro's body: the
    // parser and the expander follow it with explicit stacks.
    for depth in [30_000, 300_000] {
        let nest = |inner: &str| {
            format!(
                "{}{inner}\n{}",
                "if 1\n".repeat(depth),
                "end\n".repeat(depth)
            )
        };
        let text = format!(
            "use std/control\n{}macro m\n{}end\nm\nmain:\n    halt\n",
            nest("reg r"),
            nest("reg q")
        );
        check("nested-ifs", &main_file(text)).assert_success();
    }
}

#[test]
fn statements_stay_small() {
    // Every line of a program is held as a statement, then as an expanded
    // item: at these sizes 200,000 `reg` lines fit in a few hundred MiB.
    // A new field or variant that regrows them fails here first.
    use constree::asm::{ast, macros, resolve};
    use std::mem::size_of;
    let sizes = [
        ("Expr", size_of::<ast::Expr>(), 32),
        ("Stmt", size_of::<ast::Stmt>(), 80),
        ("Line", size_of::<ast::Line>(), 96),
        ("Item", size_of::<macros::Item>(), 112),
        // The main file's instructions are built as they are expanded.
        ("Instr", size_of::<resolve::Instr>(), 104),
    ];
    for (name, size, most) in sizes {
        assert!(
            size <= most,
            "{name} is {size} bytes, more than {most}: {sizes:?}"
        );
    }
}

#[test]
fn a_long_chain_of_calls_is_checked_without_recursion() {
    // The call-stack check follows the chain of calls: 20,000 routines
    // deep once took quadratic memory (over 1 GiB), 100,000 overflowed the
    // stack.
    let out = check("calls", &main_file(hostile::call_chain(20_000)));
    out.assert_success();
}

// The same long expressions wherever a literal is read.

/// The hostile literals: a binary chain and a prefix chain, at the size
/// that once crashed and ten times that (as long as one argument may be).
fn hostile_literals() -> Vec<String> {
    let mut literals = Vec::new();
    for scale in [1, 10] {
        literals.push(hostile::plus_chain(7_000 * scale));
        literals.push(hostile::neg_chain(40_000 * scale));
        literals.push(hostile::not_chain(30_000 * scale));
    }
    literals
}

#[test]
fn exec_input_refuses_a_long_literal() {
    let count = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/count.cta"),
    )
    .unwrap();
    for literal in hostile_literals() {
        let literal: String = literal.chars().take(MAX_ARGUMENT).collect();
        let files = main_file(count.clone());
        let out = run_on(
            "exec-input",
            &files,
            &["exec", "main.cta", &format!("--input={literal}")],
        );
        out.assert_error("--input");
        assert!(out.stderr.contains("too deep"), "{out:#?}");
    }
}

#[test]
fn the_debuggers_set_refuses_a_long_literal() {
    let count = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/count.cta"),
    )
    .unwrap();
    for literal in hostile_literals() {
        let files = vec![
            ("main.cta".to_string(), count.clone()),
            ("cmds.txt".to_string(), format!("set item = {literal}\n")),
        ];
        let out = run_on(
            "debug-set",
            &files,
            &["debug", "main.cta", "--batch", "cmds.txt"],
        );
        out.assert_bounded();
        assert!(
            out.stdout.contains("too deep") || out.stderr.contains("too deep"),
            "{out:#?}"
        );
    }
}

/// A one-robot scenario with a register item holding `contents` and an
/// `[expect]` on the robot's `out` register.
fn scenario(contents: &str, expected: &str) -> Files {
    vec![
        (
            "game.toml".to_string(),
            format!(
                "name = \"hostile\"\nsteps = 1\n\n[world]\nmap = \"A.\"\n\n[[item]]\nat = [1, 0]\nregister = {{ limit = 100000000, contents = \"{contents}\" }}\n\n[[robot]]\nname = \"r\"\nat = \"A\"\nprogram = \"main.cta\"\n\n[[player]]\nname = \"P\"\nhomes = [\"A\"]\n\n[expect]\n[[expect.robot]]\nname = \"r\"\nafter = 0\nregisters = {{ out = \"{expected}\" }}\n"
            ),
        ),
        (
            "main.cta".to_string(),
            "use std/control\nmain:\n    halt\n".to_string(),
        ),
    ]
}

#[test]
fn scenario_literals_and_expectations_refuse_long_literals() {
    for literal in hostile_literals() {
        let out = run_on(
            "scenario-literal",
            &scenario(&literal, "nil"),
            &["run", "game.toml"],
        );
        out.assert_error("game.toml");
        assert!(out.stderr.contains("too deep"), "{out:#?}");
        // `test` reports the scenario that does not load on standard
        // output, its errors on standard error.
        let out = run_on(
            "expect-literal",
            &scenario("nil", &literal),
            &["test", "game.toml"],
        );
        assert_eq!(out.code, Some(1), "{:?}", out.code);
        assert!(
            out.stdout.contains("game.toml: the scenario does not load"),
            "{}",
            out.stdout
        );
        assert!(
            out.stderr.contains("too deep"),
            "{}",
            &out.stderr[..out.stderr.len().min(2000)]
        );
    }
}

#[test]
fn one_bad_player_does_not_crash_a_tournament() {
    let arena = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/arena");
    let mut files: Files = ["arena.toml", "passer.cta", "common.cta"]
        .iter()
        .map(|f| {
            (
                f.to_string(),
                std::fs::read_to_string(arena.join(f)).unwrap(),
            )
        })
        .collect();
    files.push((
        "bad.cta".to_string(),
        hostile::program_with(&hostile::plus_chain(70_000)),
    ));
    let out = run_on(
        "tournament",
        &files,
        &[
            "tournament",
            "--game",
            "arena.toml",
            "--players",
            "passer.cta",
            "bad.cta",
            "--rounds",
            "1",
        ],
    );
    error_at(&out, "E0004", "bad.cta");
}

// Structure-aware generators, run as a bounded loop.

/// Programs from the generators of `fuzz/src/hostile.rs` (the same ones
/// the fuzz targets use), run in-process: every one gets diagnostics or an
/// image, never a crash, within the test thread's ordinary stack.
#[test]
fn generated_hostile_programs_get_an_answer() {
    use constree::asm::source::MemoryLoader;
    for seed in 0..200 {
        let files = hostile::random_program(seed, 3_000);
        let mut loader = MemoryLoader::default();
        for (path, text) in &files {
            loader = loader.with(path, text);
        }
        let assembly = constree::asm::assemble_file(&loader, std::path::Path::new("main.cta"));
        if assembly.has_errors() {
            assert!(
                assembly
                    .diagnostics
                    .iter()
                    .all(|d| d.code.as_str().starts_with('E') || d.code.as_str().starts_with('W')),
                "seed {seed}"
            );
        } else {
            assert!(
                assembly.image.is_some(),
                "seed {seed}: no errors and no image"
            );
        }
    }
}

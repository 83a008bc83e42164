//! The command line's conventions, for every command: walks clap's tree of
//! commands (a command added later fails here until it has its row in
//! `ERRORS`), and checks `docs/cli.md` against clap's definitions.

mod cli_common;

use cli_common::{scratch_dir, text};
use std::process::{Command, Output};

/// Runs `constree ARGS` with extra environment variables, colour variables
/// cleared first so the caller's terminal settings do not leak in.
fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
        .output()
        .expect("constree runs")
}

/// Every command that does something (no subcommands of its own, or
/// subcommands it does not require, as `tournament` and `tournament
/// merge`), as words after `constree`.
fn leaf_commands() -> Vec<Vec<String>> {
    let mut leaves = Vec::new();
    let mut pending = vec![(Vec::new(), constree::cli::command())];
    while let Some((path, command)) = pending.pop() {
        let children: Vec<_> = command
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .collect();
        if children.is_empty() || !command.is_subcommand_required_set() {
            leaves.push(path.clone());
        }
        for child in children {
            let mut words = path.clone();
            words.push(child.get_name().to_string());
            pending.push((words, child.clone()));
        }
    }
    leaves.sort();
    leaves
}

/// For each command, arguments (after the command's words) that make it
/// fail because of its input, or `None` for a command no input can fail
/// (it takes only words that clap checks).
const ERRORS: &[(&str, Option<&[&str]>)] = &[
    ("asm", Some(&["BAD/bad.cta"])),
    ("check", Some(&["BAD/bad.cta"])),
    ("completions", None),
    ("conformance", Some(&["BAD/no-such-folder"])),
    ("debug", Some(&["BAD/bad.cta", "--batch", "BAD/empty.dbg"])),
    ("disasm", Some(&["BAD/bad.ctm"])),
    ("exec", Some(&["BAD/bad.cta"])),
    ("fmt", Some(&["BAD/syntax.cta"])),
    (
        "image convert",
        Some(&["BAD/bad.ctm", "--to", "binary", "-o", "BAD/out.ctm"]),
    ),
    // Its input is the protocol on standard input, which is empty here:
    // the client never initializes the server.
    ("lsp", Some(&[])),
    ("machine run", Some(&["BAD/bad.json"])),
    ("new", Some(&["BAD"])),
    ("replay", Some(&["BAD/bad.json"])),
    ("run", Some(&["BAD/bad.toml"])),
    // A prefix that is a file: no folder can be made in it.
    ("setup", Some(&["--prefix", "BAD/bad.cta"])),
    ("test", Some(&["BAD/bad.toml"])),
    ("view", Some(&["BAD/bad.json"])),
    (
        "tournament",
        Some(&[
            "--game",
            "BAD/bad.toml",
            "--players",
            "BAD/bad.cta",
            "BAD/bad.cta",
        ]),
    ),
    ("tournament merge", Some(&["BAD/bad.json"])),
    ("world step", Some(&["BAD/bad.json"])),
];

/// A folder of bad inputs: a program with an error, one that does not
/// parse, an image, JSON and TOML that do not parse, an empty debugger
/// script.
fn bad_inputs() -> String {
    let dir = scratch_dir("conventions");
    std::fs::write(dir.join("bad.cta"), "main:\n  bogus r0\n").unwrap();
    std::fs::write(dir.join("syntax.cta"), "main:\n  mov r0, (1\n").unwrap();
    std::fs::write(dir.join("bad.ctm"), "{ not an image").unwrap();
    std::fs::write(dir.join("bad.json"), "{ not json").unwrap();
    std::fs::write(dir.join("bad.toml"), "name = \n").unwrap();
    std::fs::write(dir.join("empty.dbg"), "").unwrap();
    dir.to_str().unwrap().to_string()
}

/// The command's words followed by its failing arguments, with `BAD`
/// standing for the folder of bad inputs.
fn failing_invocation(words: &[String], bad: &str) -> Option<Vec<String>> {
    let name = words.join(" ");
    let row = ERRORS.iter().find(|(n, _)| *n == name).unwrap_or_else(|| {
        panic!("`constree {name}` has no row in ERRORS: add the arguments that make it fail")
    });
    let args = row.1?;
    let mut all = words.to_vec();
    all.extend(args.iter().map(|a| a.replace("BAD", bad)));
    Some(all)
}

/// For each command that reads files, arguments that read one from
/// standard input (`-`), the file (from the repository, or `SCRATCH/` for
/// one the test makes) given on standard input, the folder to run in (from the repository), and the text its
/// output starts with; `None` for a command that reads no file.
type DashCase = (
    &'static [&'static str],
    &'static str,
    &'static str,
    &'static str,
);
const DASH: &[(&str, Option<DashCase>)] = &[
    (
        "asm",
        Some((
            &["-", "-o", "-", "--image-format", "json"],
            "examples/count.cta",
            ".",
            "{\"format\":\"constree-image\"",
        )),
    ),
    ("check", Some((&["-"], "examples/count.cta", ".", ""))),
    ("completions", None),
    ("conformance", None),
    ("setup", None),
    (
        "debug",
        Some((
            &["-", "--batch", "/dev/null"],
            "examples/walk/walk.toml",
            "examples/walk",
            "Debugging Walk",
        )),
    ),
    (
        "disasm",
        Some((&["-"], "SCRATCH/count.ctm", ".", "; disassembled")),
    ),
    (
        "exec",
        Some((&["-", "--steps", "1"], "examples/count.cta", ".", "step 1:")),
    ),
    (
        "fmt",
        Some((&["-"], "examples/count.cta", ".", "; count.cta")),
    ),
    (
        "image convert",
        Some((
            &["-", "--to", "json", "-o", "-"],
            "SCRATCH/count.ctm",
            ".",
            "{\"format\":\"constree-image\"",
        )),
    ),
    (
        "machine run",
        Some((&["-"], "benches/data/bench_machine_loop.json", ".", "{")),
    ),
    ("lsp", None),
    ("new", None),
    (
        "replay",
        Some((
            &["-", "--step", "0"],
            "SCRATCH/walk.replay.json",
            ".",
            "Walk",
        )),
    ),
    (
        "run",
        Some((
            &["-", "--steps", "1"],
            "examples/walk/walk.toml",
            "examples/walk",
            "Walk",
        )),
    ),
    (
        "test",
        Some((
            &["-"],
            "docs/tutorial/haul.toml",
            "docs/tutorial",
            "<stdin>: Haul",
        )),
    ),
    (
        "tournament",
        Some((
            &[
                "--game",
                "-",
                "--rounds",
                "1",
                "--players",
                "hunter.cta",
                "passer.cta",
            ],
            "examples/arena/arena.toml",
            "examples/arena",
            "",
        )),
    ),
    (
        "view",
        Some((
            &["-", "-o", "-"],
            "SCRATCH/walk.replay.json",
            ".",
            "<!DOCTYPE html>",
        )),
    ),
    (
        "tournament merge",
        Some((&["-"], "SCRATCH/shard.json", ".", "Arena: 1 round,")),
    ),
    (
        "world step",
        Some((&["-"], "benches/data/bench_world_small.json", ".", "{")),
    ),
];

fn has_escape(output: &Output) -> bool {
    output.stdout.contains(&0x1b) || output.stderr.contains(&0x1b)
}

#[test]
fn every_command_fails_on_bad_input_with_code_1_and_a_message() {
    let bad = bad_inputs();
    for words in leaf_commands() {
        let Some(args) = failing_invocation(&words, &bad) else {
            continue;
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args, &[]);
        assert_eq!(out.status.code(), Some(1), "constree {args:?}: {out:?}");
        // `test` reports a failed expectation on standard output, as test
        // runners do; everything else on standard error.
        assert!(
            !out.stderr.is_empty() || (words[0] == "test" && !out.stdout.is_empty()),
            "constree {args:?} says nothing"
        );
    }
}

#[test]
fn every_command_reads_dash_as_standard_input() {
    let root = env!("CARGO_MANIFEST_DIR");
    let scratch = scratch_dir("dash_inputs");
    let made = |args: &[&str], dir: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_constree"))
            .args(args)
            .current_dir(format!("{root}/{dir}"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    };
    let image = scratch.join("count.ctm");
    made(
        &["asm", "count.cta", "-o", image.to_str().unwrap()],
        "examples",
    );
    let replay = scratch.join("walk.replay.json");
    made(
        &[
            "run",
            "walk.toml",
            "--steps",
            "2",
            "--record",
            replay.to_str().unwrap(),
        ],
        "examples/walk",
    );
    let shard = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(["tournament", "--game", "arena.toml", "--rounds", "1"])
        .args(["--shard", "1/1", "--format", "json"])
        .args(["--players", "hunter.cta", "passer.cta"])
        .current_dir(format!("{root}/examples/arena"))
        .output()
        .unwrap();
    assert!(shard.status.success(), "{shard:?}");
    std::fs::write(scratch.join("shard.json"), &shard.stdout).unwrap();
    for words in leaf_commands() {
        let name = words.join(" ");
        let row = DASH.iter().find(|(n, _)| *n == name).unwrap_or_else(|| {
            panic!("`constree {name}` has no row in DASH: how does it read standard input?")
        });
        let Some((args, input, dir, start)) = row.1 else {
            continue;
        };
        let mut all: Vec<&str> = words.iter().map(String::as_str).collect();
        all.extend(args);
        let out = Command::new(env!("CARGO_BIN_EXE_constree"))
            .args(&all)
            .current_dir(format!("{root}/{dir}"))
            .stdin(
                std::fs::File::open(match input.strip_prefix("SCRATCH/") {
                    Some(made) => scratch.join(made),
                    None => format!("{root}/{input}").into(),
                })
                .unwrap(),
            )
            .output()
            .unwrap();
        let stdout = text(&out.stdout);
        // `test` fails here: the tutorial's scenario has a bug to find.
        let code = if name == "test" { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(code), "constree {all:?}: {out:?}");
        assert!(stdout.starts_with(start), "constree {all:?}: {stdout}");
    }
}

#[test]
fn dash_as_output_writes_standard_output() {
    let root = env!("CARGO_MANIFEST_DIR");
    let file = scratch_dir("dash_output").join("count.ctm");
    let source = format!("{root}/examples/count.cta");
    let to_file = run(&["asm", &source, "-o", file.to_str().unwrap()], &[]);
    assert!(to_file.status.success());
    let to_stdout = run(&["asm", &source, "-o", "-"], &[]);
    assert!(to_stdout.status.success());
    assert_eq!(to_stdout.stdout, std::fs::read(&file).unwrap());
}

#[test]
fn every_command_answers_a_usage_error_with_code_2() {
    for words in leaf_commands() {
        let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
        args.push("--no-such-option");
        let out = run(&args, &[]);
        assert_eq!(out.status.code(), Some(2), "constree {args:?}: {out:?}");
        assert!(text(&out.stderr).contains("--no-such-option"));
    }
}

#[test]
fn no_colour_under_no_color_or_color_never_even_when_forced() {
    let bad = bad_inputs();
    for words in leaf_commands() {
        let Some(args) = failing_invocation(&words, &bad) else {
            continue;
        };
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        let forced = run(&args, &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]);
        assert!(
            !has_escape(&forced),
            "NO_COLOR: constree {args:?}: {forced:?}"
        );
        args.extend(["--color", "never"]);
        let never = run(&args, &[("CLICOLOR_FORCE", "1")]);
        assert!(
            !has_escape(&never),
            "--color never: constree {args:?}: {never:?}"
        );
    }
}

#[test]
fn colour_follows_the_choice_and_is_off_into_a_pipe() {
    let bad = bad_inputs();
    let check = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["check".to_string(), format!("{bad}/bad.cta")];
        args.extend(extra.iter().map(|a| a.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        has_escape(&run(&args, env))
    };
    // Standard error is a pipe here.
    assert!(!check(&[], &[]));
    assert!(check(&["--color", "always"], &[]));
    assert!(check(&["--color=always"], &[("NO_COLOR", "1")]));
    assert!(check(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!check(&[], &[("CLICOLOR_FORCE", "0")]));
    // The board of `run` is coloured the same way.
    assert!(has_escape(&run(
        &["run", "--steps", "1", "--color", "always"],
        &[]
    )));
    assert!(!has_escape(&run(&["run", "--steps", "1"], &[])));
}

#[test]
fn docs_cli_md_is_what_the_code_defines() {
    let generated = constree::cli::reference::markdown(&constree::cli::command());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md");
    if std::env::var_os("CONSTREE_BLESS").is_some() {
        std::fs::write(path, &generated).unwrap();
    }
    let written = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        written == generated,
        "docs/cli.md differs from the commands' definitions; \
         CONSTREE_BLESS=1 cargo test --release --test cli_conventions writes it"
    );
}

#[test]
fn every_command_is_in_docs_cli_md() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    for words in leaf_commands() {
        let heading = format!("### `constree {}`", words.join(" "));
        assert!(page.contains(&heading), "docs/cli.md lacks {heading}");
    }
}

//! The command line on good and bad input: exit codes and messages.

mod cli_common;

use cli_common::{constree, stdout_of, text};
use constree::diagnostic::Code;

const WORLD: &str = r#"{"dims":[2,1],"cells":[{"robots":[{"frame":{"color":"Red","strength":5},"inventory":[],"processor":{"speed":3},"memory":[{"limit":0,"contents":"0"},{"limit":50,"contents":"0"},{"limit":20,"contents":"1101100110000"}]}],"items":[]},null]}"#;

#[test]
fn world_step_reads_stdin_and_prints_compact_json() {
    let out = constree(&["world", "step", "-", "--steps", "0"], WORLD);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{WORLD}\n"));
    // A world.jsonl line works too: its "world" field is used.
    let line = format!(r#"{{"world":{WORLD},"steps":[]}}"#);
    let out = constree(&["world", "step", "-", "--steps", "0"], &line);
    assert_eq!(text(&out.stdout), format!("{WORLD}\n"));
}

#[test]
fn world_step_steps() {
    let out = constree(&["world", "step", "-", "--steps", "2"], WORLD);
    assert!(out.status.success());
    let world: constree::world::World = serde_json::from_slice(&out.stdout).unwrap();
    let mut expected: constree::world::World = serde_json::from_str(WORLD).unwrap();
    for _ in 0..2 {
        expected = constree::world::update(expected);
    }
    assert_eq!(world, expected);
}

#[test]
fn malformed_worlds_say_where() {
    let out = constree(
        &["world", "step", "-"],
        r#"{"dims":[2,1],"cells":[null, "x"]}"#,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.starts_with("[E1201] Error: <stdin>:"), "{err}");
    assert!(err.contains("line 1 column"), "{err}");
    let out = constree(&["world", "step", "-"], r#"{"dims":[0,1],"cells":[]}"#);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("dimensions must be positive"));
    let bad_tree = WORLD.replace("1101100110000", "110110011000");
    let out = constree(&["world", "step", "-"], &bad_tree);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("bad constree"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn missing_files_are_errors() {
    let out = constree(&["world", "step", "/no/such/file.json"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/no/such/file.json"));
}

#[test]
fn machine_run_prints_the_result_object() {
    // Nilify 2 then stop: speed from the file, or from --speed.
    let memory = r#"[{"limit":10,"contents":"11010110000"},{"limit":0,"contents":"0"},{"limit":5,"contents":"100"}]"#;
    let out = constree(&["machine", "run", "-", "--speed", "5"], memory);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"ok\":[{\"limit\":10,\"contents\":\"0\"},{\"limit\":0,\"contents\":\"0\"},{\"limit\":5,\"contents\":\"0\"}]}\n"
    );
    let line = format!(r#"{{"speed":0,"memory":{memory},"result":null}}"#);
    let out = constree(&["machine", "run", "-"], &line);
    assert!(text(&out.stdout).contains("11010110000"));
}

#[test]
fn machine_errors_still_exit_zero() {
    let memory = r#"[{"limit":20,"contents":"11110011001100000"}]"#;
    let out = constree(&["machine", "run", "-", "--speed", "1"], memory);
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "{\"err\":{\"BadInstruction\":\"11110011001100000\"},\"wiped\":[{\"limit\":20,\"contents\":\"0\"}]}\n"
    );
}

#[test]
fn machine_run_needs_a_speed() {
    let out = constree(&["machine", "run", "-"], "[]");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no speed"));
    let out = constree(&["machine", "run", "-"], "[{]");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("line 1 column"));
}

#[test]
fn conformance_reports_failures_with_line_numbers() {
    let dir = std::env::temp_dir().join(format!("constree-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = r#"{"value":1,"tree":"11000"}"#;
    let bad = r#"{"value":2,"tree":"11000"}"#;
    std::fs::write(dir.join("ints.jsonl"), format!("{good}\n{bad}\nnot json\n")).unwrap();
    let out = constree(&["conformance", dir.to_str().unwrap()], "");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("ints.jsonl: 1 passed, 2 failed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ints.jsonl:2: encode 2 differs"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ints.jsonl:3: cannot read the line"),
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 2 failed\n"), "{stdout}");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = constree(&["conformance", empty.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no conformance files"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generated_vectors_are_well_formed_and_pass() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("generated_vectors");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let generate = || {
        constree(
            &[
                "conformance",
                d,
                "--generate",
                "--seed",
                "7",
                "--machines",
                "300",
                "--worlds",
                "30",
            ],
            "",
        )
    };
    let out = generate();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = constree(&["conformance", d], "");
    assert!(out.status.success());
    assert!(
        text(&out.stdout).ends_with("330 passed, 0 failed\n"),
        "{}",
        text(&out.stdout)
    );
    // The same seed gives the same vectors.
    let first = std::fs::read(dir.join("world.jsonl")).unwrap();
    generate();
    assert_eq!(std::fs::read(dir.join("world.jsonl")).unwrap(), first);
}

#[test]
fn exec_shows_the_registers_asked_for() {
    let count = cli_common::example("count.cta");
    let all = stdout_of(&["exec", cli_common::arg(&count), "--speed", "30"]);
    assert!(all.contains("r10  main"), "{all}");
    let some = stdout_of(&[
        "exec",
        cli_common::arg(&count),
        "--speed",
        "30",
        "--show",
        "dst,5",
    ]);
    let shown: Vec<&str> = some.lines().filter(|l| l.starts_with('r')).collect();
    assert_eq!(shown.len(), 2, "{some}");
    assert!(shown[0].starts_with("r4   dst") && shown[0].contains("list [5, 4, 3, 2, 1]"));
    assert!(shown[1].starts_with("r5   item") && shown[1].contains("int 5"));
    // An Int that reads as a command too is a direction as well.
    let dir = cli_common::scratch_dir("exec_direction");
    let source = dir.join("heading.cta");
    std::fs::write(
        &source,
        "use std/control\nreg heading = S\nmain:\n    halt\n",
    )
    .unwrap();
    let shown = stdout_of(&["exec", cli_common::arg(&source), "--show", "heading"]);
    assert!(
        shown.contains("int 4 (or direction S, or command Move E)\n"),
        "{shown}"
    );
    // A register the program does not have is an error before anything runs.
    let err = cli_common::failure_of(&["exec", cli_common::arg(&count), "--show", "dst,nosuch"]);
    assert!(err.contains("--show: no register `nosuch`"), "{err}");
}

#[test]
fn exec_reads_registers_as_the_types_given() {
    let count = cli_common::example("count.cta");
    let run = |show: &str| {
        stdout_of(&[
            "exec",
            cli_common::arg(&count),
            "--speed",
            "30",
            "--show",
            show,
        ])
    };
    // Commas inside a type do not separate registers; --show may repeat.
    let out = run("dst:[(bool, int)],item:int");
    let shown: Vec<&str> = out.lines().filter(|l| l.starts_with('r')).collect();
    assert_eq!(shown.len(), 2, "{out}");
    // 5, 4, ... are bit lists: 5 = [true, false, true] reads as (true, 2).
    assert!(
        shown[0].ends_with("[(true, 2), (false, 2), (true, 1), (false, 1), (true, 0)]"),
        "{out}"
    );
    assert!(shown[1].ends_with(" 5"), "{out}");
    // A type that does not fit names the part, and the run still shows.
    let out = run("dst:[dir],main:[dir]");
    assert!(out.contains("[SW, S, SE, E, NE]"), "{out}");
    assert!(
        out.contains("<main.0 is not a direction (an Int 0..7): it is `"),
        "{out}"
    );
    // A type that does not parse is an error before anything runs.
    let err = cli_common::failure_of(&["exec", cli_common::arg(&count), "--show", "dst:[int"]);
    assert!(
        err.contains("--show dst:[int: in the type `[int`, at column 5: expected `]`"),
        "{err}"
    );
}

/// Each step of `exec`, in the order its help gives: read `out` and clear
/// it, write the input, run.
#[test]
fn exec_steps_in_the_engines_order() {
    let dir = cli_common::scratch_dir("exec_step_order");
    let source = dir.join("order.cta");
    std::fs::write(
        &source,
        "use std/control\nreg out = Pass\nreg seen\nmain:\n    mov seen, in\n    halt\n",
    )
    .unwrap();
    let shown = stdout_of(&[
        "exec",
        cli_common::arg(&source),
        "--input",
        "5",
        "--steps",
        "2",
        "--show",
        "seen:int,out",
    ]);
    // Step 1 reads the first command; step 2 finds `out` cleared.
    assert!(shown.contains("step 1: out = Pass\n"), "{shown}");
    assert!(
        shown.contains("step 2: out = nothing (Invalid)\n"),
        "{shown}"
    );
    // The input was in `in` before the machine ran.
    assert!(
        shown
            .lines()
            .any(|l| l.contains("seen") && l.ends_with(" 5")),
        "{shown}"
    );
}

/// `NAME:tree` shows the value whole up to 4,000 characters
/// (docs/debugger.md), not cut like a guess.
#[test]
fn exec_shows_a_tree_whole() {
    let (source, elements) = cli_common::wide_program("exec_tree_whole");
    let shown = stdout_of(&["exec", cli_common::arg(&source), "--show", "wide:tree"]);
    assert!(shown.contains(&format!("[{elements}]\n")), "{shown}");
    assert!(!shown.contains('…'), "{shown}");
}

#[test]
fn a_file_of_the_wrong_kind_gets_one_line_saying_what_to_run() {
    let root = env!("CARGO_MANIFEST_DIR");
    let haul = format!("{root}/docs/tutorial/haul.toml");
    let count = format!("{root}/examples/count.cta");
    let cases: &[(&[&str], String)] = &[
        (
            &["exec", &haul],
            format!(
                "{haul} is a scenario, not a program: `constree run {haul}` plays it; `exec` takes a .cta program or .ctm image"
            ),
        ),
        (
            &["check", &haul],
            format!(
                "{haul} is a scenario, not a program source: `constree run {haul}` plays it; `check` takes a .cta program"
            ),
        ),
        (
            &["run", &count],
            format!(
                "{count} is a program, not a scenario: `constree exec {count}` runs it; `run` takes a .toml scenario"
            ),
        ),
        (
            &["test", &count],
            format!(
                "{count} is a program, not a scenario: `constree exec {count}` runs it; `test` takes a .toml scenario"
            ),
        ),
        (
            &["machine", "run", &count],
            format!(
                "{count} is a program, not a memory (JSON): `constree exec {count}` runs it; `machine run` takes a memory as JSON (docs/formats.md)"
            ),
        ),
        (
            &["replay", &haul],
            format!(
                "{haul} is a scenario, not a replay: `constree run {haul}` plays it; `replay` takes a .json replay (`run --record` writes one)"
            ),
        ),
        (
            &["debug", "/tmp/game.json"],
            "/tmp/game.json is JSON, not a scenario or a program: `constree replay /tmp/game.json` shows it if it is a recorded game; `debug` takes a .toml scenario, a .cta program or a .ctm image (`--replay FILE` a recorded game)".to_string(),
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(
            cli_common::failure_of(args),
            cli_common::placeless_error(Code::E1200, expected),
            "{args:?}"
        );
    }
    // An unusual extension is left to the reader, as before.
    let err = cli_common::failure_of(&["run", &format!("{root}/README.md")]);
    assert!(
        err.contains("[E0801] Error: key with no value") && err.contains("README.md:3:10 ]"),
        "{err}"
    );
}

#[test]
fn exec_fails_with_code_1_naming_the_register_and_line_when_the_machine_fails() {
    let dir = cli_common::scratch_dir("exec_machine_error");
    let source = dir.join("bad.cta");
    std::fs::write(
        &source,
        "use std/control\nreg heading\nreg trail\nmain:\n  mov heading, #3\n  deconstruct trail, trail, trail\n  halt\n",
    )
    .unwrap();
    let out = cli_common::constree(
        &["exec", cli_common::arg(&source), "--show", "heading:dir"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = cli_common::text(&out.stdout);
    assert!(
        stdout.contains("machine error: deconstruct of Nil in trail"),
        "{stdout}"
    );
    assert!(stdout.contains("bad.cta:6"), "{stdout}");
    assert!(
        stdout.contains("empty (wiped by the machine error)"),
        "{stdout}"
    );
    assert!(cli_common::text(&out.stderr).contains("the machine failed at step 1"));
}

#[test]
fn deny_warnings_makes_a_warning_fail_asm_check_and_exec() {
    let dir = cli_common::scratch_dir("deny_warnings");
    let source = dir.join("warn.cta");
    std::fs::write(
        &source,
        "use std/control\nreg x\nmain:\n  mov x, 4\n  halt\n",
    )
    .unwrap();
    let image = dir.join("warn.ctm");
    let file = cli_common::arg(&source);
    // Without it the warning is shown and the command succeeds.
    let out = cli_common::constree(&["check", file], "");
    assert!(out.status.success());
    assert!(cli_common::text(&out.stderr).contains("W0706"));
    for args in [
        vec!["check", file, "--deny", "warnings"],
        vec!["exec", file, "--deny", "warnings"],
        vec![
            "asm",
            file,
            "-o",
            cli_common::arg(&image),
            "--deny",
            "warnings",
        ],
    ] {
        let out = cli_common::constree(&args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = cli_common::text(&out.stderr);
        assert!(
            stderr.contains("W0706") && stderr.contains("--deny warnings"),
            "{stderr}"
        );
    }
    assert!(!image.exists(), "no image is written under --deny warnings");
}

#[test]
fn deny_warnings_refuses_a_scenarios_program_with_warnings() {
    let dir = cli_common::scratch_dir("deny_warnings_scenario");
    std::fs::write(
        dir.join("warn.cta"),
        "use std/control\nreg x\nmain:\n  mov x, 4\n  halt\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("game.toml"),
        "steps = 2\n[world]\nmap = \"\"\"\nA.\n\"\"\"\n[[robot]]\nname = \"w\"\nat = \"A\"\nprogram = \"warn.cta\"\n[expect]\n[[expect.robot]]\nname = \"w\"\nat = \"A\"\n",
    )
    .unwrap();
    let game = dir.join("game.toml");
    let game = cli_common::arg(&game);
    let warn = dir.join("warn.cta");
    let warn = cli_common::arg(&warn);
    let arena = cli_common::example("arena/arena.toml");
    let commands: [Vec<&str>; 4] = [
        vec!["run", game],
        vec!["test", game],
        vec!["debug", game, "--batch", "-"],
        vec![
            "tournament",
            "--game",
            cli_common::arg(&arena),
            "--players",
            warn,
            warn,
            "--rounds",
            "1",
        ],
    ];
    for args in commands {
        // Without it the program plays.
        let out = cli_common::constree(&args, "");
        let stderr = cli_common::text(&out.stderr);
        assert!(!stderr.contains("W0706"), "{args:?}: {stderr}");
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
        let mut denying = args.clone();
        denying.extend(["--deny", "warnings"]);
        let out = cli_common::constree(&denying, "");
        let all = format!(
            "{}{}",
            cli_common::text(&out.stdout),
            cli_common::text(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(1), "{denying:?}: {all}");
        assert!(
            all.contains("W0706") && all.contains("warnings are denied (--deny warnings)"),
            "{denying:?}: {all}"
        );
    }
}

#[test]
fn the_listing_shows_each_instructions_source_line_with_control_characters_escaped() {
    let dir = cli_common::scratch_dir("listing_source");
    let source = dir.join("loop.cta");
    std::fs::write(
        &source,
        "use std/control\nreg src = [1]\nmain:\n    jnil src, done   ; \u{1b}[31mred\n    jmp main\ndone:\n    halt\n",
    )
    .unwrap();
    let image = dir.join("loop.ctm");
    let listing = stdout_of(&[
        "asm",
        cli_common::arg(&source),
        "-o",
        cli_common::arg(&image),
        "--listing",
    ]);
    let line = listing
        .lines()
        .find(|l| l.contains("copyifnil src, done, prog"))
        .unwrap_or_else(|| panic!("{listing}"));
    assert!(line.contains("loop.cta:4"), "{line}");
    assert!(line.contains("jnil src, done   ; \\u{1b}[31mred"), "{line}");
    assert!(!listing.contains('\u{1b}'), "{listing}");
    assert!(listing.contains("loop.cta:7 (halt)  halt"), "{listing}");
}

/// A robot's machine error is part of the game: `run` plays on and exits
/// 0, with a warning on standard error naming the robot, the step, the
/// error and the failing instruction's source line.
#[test]
fn run_warns_of_a_robots_machine_error_and_succeeds() {
    let dir = cli_common::scratch_dir("run_machine_error");
    std::fs::copy("tests/debugger/faulty.cta", dir.join("faulty.cta")).unwrap();
    std::fs::write(
        dir.join("game.toml"),
        "steps = 3\n[world]\nmap = \"\"\"\nA.\n\"\"\"\n[[robot]]\nname = \"f\"\nat = \"A\"\nprogram = \"faulty.cta\"\n",
    )
    .unwrap();
    let game = dir.join("game.toml");
    let out = cli_common::constree(&["run", cli_common::arg(&game)], "");
    assert_eq!(out.status.code(), Some(0));
    let stderr = cli_common::text(&out.stderr);
    assert!(
        stderr.starts_with("warning: f's machine failed in step 2: deconstruct of Nil in x (r3); every register wiped, in `deconstruct x, x, scratch` at ")
            && stderr.ends_with("faulty.cta:7 (car)\n"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// `constree setup --prefix DIR` installs a man page for every command and
/// subcommand clap knows, and completions for bash, zsh and fish where
/// those shells look; bash loads its script.
#[test]
fn setup_installs_man_pages_and_completions() {
    let dir = cli_common::scratch_dir("setup");
    let prefix = dir.join("prefix");
    for _ in 0..2 {
        // A second run replaces the files in place.
        let out = cli_common::constree(&["setup", "--prefix", cli_common::arg(&prefix)], "");
        assert!(out.status.success(), "{}", cli_common::text(&out.stderr));
    }
    let man = prefix.join("share/man/man1");
    let mut expected = Vec::new();
    let mut pending = vec![("constree".to_string(), constree::cli::command())];
    while let Some((name, command)) = pending.pop() {
        for sub in command.get_subcommands() {
            pending.push((format!("{name}-{}", sub.get_name()), sub.clone()));
        }
        expected.push(name);
    }
    for name in &expected {
        let page = std::fs::read_to_string(man.join(format!("{name}.1")))
            .unwrap_or_else(|e| panic!("{name}.1: {e}"));
        assert!(page.contains(&format!(".TH {name} 1")), "{name}.1:\n{page}");
        assert!(page.contains(".SH SYNOPSIS"), "{name}.1");
    }
    let pages = std::fs::read_dir(&man).unwrap().count();
    assert_eq!(pages, expected.len(), "one page per command");
    for place in [
        "share/bash-completion/completions/constree",
        "share/zsh/site-functions/_constree",
        "share/fish/vendor_completions.d/constree.fish",
    ] {
        let text = std::fs::read_to_string(prefix.join(place)).unwrap();
        assert!(
            text.contains("constree") && text.contains("tournament"),
            "{place}"
        );
    }
    let bash = prefix.join("share/bash-completion/completions/constree");
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("source {:?} && complete -p constree", bash))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(cli_common::text(&out.stdout).contains("constree"));
}

/// Names from a scenario reach the debugger's transcript with their
/// control characters escaped, whatever command prints them.
#[test]
fn the_debugger_escapes_control_characters_in_what_it_prints() {
    let dir = cli_common::scratch_dir("debug_escapes");
    std::fs::write(
        dir.join("game.toml"),
        format!(
            "name = \"Esc\\u001b[2J\"\nsteps = 2\n[world]\nmap = \"\"\"\nA.\n\"\"\"\n[[robot]]\nname = \"r\\u001b[31mred\"\nat = \"A\"\nprogram = {:?}\n",
            cli_common::arg(&cli_common::example("walker.cta"))
        ),
    )
    .unwrap();
    let game = dir.join("game.toml");
    let out = cli_common::constree(
        &["debug", cli_common::arg(&game), "--batch", "-"],
        "info robot\nrobots\nscore\nfocus r\u{1b}[31mred\ngstep\nprint \u{1b}[2J\n",
    );
    let printed = cli_common::text(&out.stdout);
    assert!(!printed.contains('\u{1b}'), "{printed:?}");
    assert!(printed.contains("r\\u{1b}[31mred"), "{printed}");
}

#[test]
fn a_cap_set_to_anything_but_a_whole_number_is_an_error_naming_it() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(["check", "examples/count.cta"])
        .env("CONSTREE_MAX_INPUT", "abc")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        cli_common::text(&out.stderr),
        cli_common::placeless_error(
            Code::E1206,
            "CONSTREE_MAX_INPUT=\"abc\" is not a whole number of bytes \
             (the size of one input file; default 67108864)"
        )
    );
}

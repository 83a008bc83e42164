//! `--message-format json`: one JSON object per diagnostic, one per line,
//! on standard error, for `asm`, `check`, `run`, `test` and `debug` (its
//! batch mode's command errors too), the command line's own errors as well
//! as its inputs' (snapshots of the objects; docs/formats.md describes the
//! fields).

mod cli_common;

use cli_common::{scratch_dir, text};
use std::path::Path;
use std::process::Command;

/// Runs `constree ARGS` in `dir`; gives the exit code and standard error,
/// each of whose lines must be one JSON object.
fn json_lines(dir: &Path, args: &[&str]) -> (i32, Vec<serde_json::Value>) {
    let out = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("constree runs");
    let err = text(&out.stderr);
    let lines = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: not JSON: {l}\n{err}")))
        .collect();
    (out.status.code().unwrap_or(-1), lines)
}

/// Pretty JSON of every line, for a snapshot.
fn pretty(lines: &[serde_json::Value]) -> String {
    lines
        .iter()
        .map(|l| serde_json::to_string_pretty(l).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A program with an error inside a macro's expansion and a warning.
const PROGRAM: &str = "use std/control\nreg x\nmain:\n    mov cout, Move E\n    mov x, 4\n";

#[test]
fn check_prints_an_error_and_a_warning_with_their_expansions() {
    let dir = scratch_dir("message_format_check");
    std::fs::write(dir.join("bot.cta"), PROGRAM).unwrap();
    let (code, lines) = json_lines(&dir, &["check", "bot.cta", "--message-format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 2, "one line per diagnostic, no summary");
    insta::assert_snapshot!("check_error_and_warning", pretty(&lines));
}

#[test]
fn asm_prints_an_unreadable_file_and_denied_warnings() {
    let dir = scratch_dir("message_format_asm");
    std::fs::write(
        dir.join("warns.cta"),
        "use std/control\nreg x\nreg y = 7\nmain:\n    mov x, 4\n    halt\n",
    )
    .unwrap();
    let (code, missing) = json_lines(&dir, &["asm", "nowhere.cta", "--message-format", "json"]);
    assert_eq!(code, 1);
    let (code, denied) = json_lines(
        &dir,
        &[
            "asm",
            "warns.cta",
            "--deny",
            "warnings",
            "--message-format",
            "json",
        ],
    );
    assert_eq!(code, 1);
    assert!(!dir.join("warns.ctm").exists());
    insta::assert_snapshot!(
        "asm_unreadable_and_denied",
        pretty(&[missing, denied].concat())
    );
}

#[test]
fn without_the_flag_diagnostics_are_drawn() {
    let dir = scratch_dir("message_format_human");
    std::fs::write(dir.join("bot.cta"), PROGRAM).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(["check", "bot.cta", "--color", "never"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(
        err.contains("[E0512] Error: unknown register or label `cout`"),
        "{err}"
    );
    assert!(err.ends_with("1 error, 1 warning\n"), "{err}");
}

/// A scenario with an error in each of several entries, and a robot whose
/// program does not assemble.
const SCENARIO: &str = "[world]\nmap = \"\"\"\nA#.\n...\n\"\"\"\n\
    [[robot]]\nat = [1, 0]\n\
    [[robot]]\nat = [0, 0]\ncolor = \"Pink\"\n\
    [[robot]]\nat = \"A\"\nprogram = \"broken.cta\"\n\
    [[item]]\nat = [3, 0]\nshield = true\n\
    [[player]]\nname = \"P\"\nhomes = [\"Z\"]\n";

/// A folder with [`SCENARIO`] and its broken program.
fn bad_game(name: &str) -> std::path::PathBuf {
    let dir = scratch_dir(name);
    std::fs::write(dir.join("game.toml"), SCENARIO).unwrap();
    std::fs::write(
        dir.join("broken.cta"),
        "use std/control\nmain:\n    jmp nowhere\n",
    )
    .unwrap();
    dir
}

#[test]
fn run_reports_every_error_of_a_scenario_at_once() {
    let dir = bad_game("message_format_run");
    let (code, lines) = json_lines(&dir, &["run", "game.toml", "--message-format", "json"]);
    assert_eq!(code, 1);
    let codes: Vec<&str> = lines.iter().map(|l| l["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        ["E0803", "E0803", "E0804", "E0806", "E0512", "E0803"],
        "{lines:#?}"
    );
    insta::assert_snapshot!("run_every_scenario_error", pretty(&lines));
}

#[test]
fn test_reports_a_scenario_that_does_not_load_on_both_streams() {
    let dir = bad_game("message_format_test");
    let out = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(["test", "game.toml", "--message-format", "json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "FAILED  game.toml: the scenario does not load\n0 passed, 1 failed\n"
    );
    let (_, lines) = json_lines(&dir, &["test", "game.toml", "--message-format", "json"]);
    assert_eq!(lines.len(), 6, "{lines:#?}");
    let drawn = text(&out.stderr);
    assert!(drawn.lines().all(|l| l.starts_with('{')), "{drawn}");
}

#[test]
fn a_whole_file_error_names_the_file_without_a_place() {
    let dir = scratch_dir("message_format_whole");
    std::fs::write(
        dir.join("huge.toml"),
        "[world]\nsize = [8, 8]\n[values]\ncargo = { x = 3 }\n",
    )
    .unwrap();
    let (code, lines) = json_lines(&dir, &["run", "huge.toml", "--message-format", "json"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("run_whole_file_error", pretty(&lines));
    let drawn = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(["run", "huge.toml", "--color", "never"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(
        text(&drawn.stderr).lines().next(),
        Some("[E0810] Error: huge.toml: values.cargo: \"x\" is not a cargo type (a number)")
    );
}

/// Runs `constree ARGS` in `dir` with colour off; gives standard error.
fn drawn(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(args)
        .args(["--color", "never"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    text(&out.stderr)
}

#[test]
fn a_robot_whose_image_does_not_parse_shows_the_image_at_its_line() {
    let dir = scratch_dir("message_format_image");
    std::fs::write(
        dir.join("bot.ctm"),
        "{\"format\": \"constree-image\",\n \"version\": 2, oops}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("game.toml"),
        "[world]\nsize = [3, 3]\n[[robot]]\nat = [0, 0]\nprogram = \"bot.ctm\"\n",
    )
    .unwrap();
    let (code, lines) = json_lines(&dir, &["run", "game.toml", "--message-format", "json"]);
    assert_eq!(code, 1);
    let codes: Vec<&str> = lines.iter().map(|l| l["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["E0806", "E1002"], "{lines:#?}");
    insta::assert_snapshot!("run_image_error", pretty(&lines));
    let err = drawn(&dir, &["run", "game.toml"]);
    assert!(
        err.contains(
            "[E1002] Error: not a constree image: key must be a string at line 2 column 16"
        ),
        "{err}"
    );
    assert!(err.contains("bot.ctm:2:16"), "{err}");
    // The image alone, where a command loads it itself.
    let err = drawn(&dir, &["disasm", "bot.ctm"]);
    assert!(
        err.starts_with("[E1002] Error: not a constree image"),
        "{err}"
    );
}

#[test]
fn the_command_lines_own_errors_are_objects_with_codes() {
    let dir = scratch_dir("message_format_cli");
    std::fs::write(dir.join("bot.cta"), PROGRAM).unwrap();
    let (code, kind) = json_lines(&dir, &["test", "bot.cta", "--message-format", "json"]);
    assert_eq!(code, 1);
    let (code, robot) = json_lines(
        &dir,
        &[
            "run",
            "--trace",
            "nobody",
            "--steps",
            "1",
            "--message-format",
            "json",
        ],
    );
    assert_eq!(code, 1);
    let (code, denied) = json_lines(&dir, &["asm", "-", "--message-format", "json"]);
    assert_eq!(code, 1);
    let all = [kind, robot, denied].concat();
    assert!(
        all.iter().all(|l| l["spans"] == serde_json::json!([])),
        "{all:#?}"
    );
    insta::assert_snapshot!("cli_errors", pretty(&all));
}

#[test]
fn the_debuggers_batch_mode_prints_each_command_error_as_an_object() {
    let dir = scratch_dir("message_format_debug");
    std::fs::write(
        dir.join("session.dbg"),
        "step\nfocus nobody\n\n# a comment\nsource setup.dbg\nbreak nowhere\n",
    )
    .unwrap();
    std::fs::write(dir.join("setup.dbg"), "info breakpoints\nprint $nosuch\n").unwrap();
    let args = [
        "debug",
        "--batch",
        "session.dbg",
        "-ex",
        "frobnicate",
        "--message-format",
        "json",
    ];
    let (code, lines) = json_lines(&dir, &args);
    assert_eq!(code, 1);
    let at: Vec<(&str, &str, u64)> = lines
        .iter()
        .map(|l| {
            let span = &l["spans"][0];
            let file = span["file"].as_str().unwrap();
            (
                l["code"].as_str().unwrap(),
                file,
                span["line_start"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        at,
        [
            ("E0900", "<command line>", 1),
            ("E0901", "session.dbg", 2),
            ("E0905", "session.dbg", 5),
            ("E0902", "session.dbg", 6),
        ],
        "{lines:#?}"
    );
    insta::assert_snapshot!("debug_batch_errors", pretty(&lines));
    // The transcript keeps the commands and what they print, the error
    // lines aside; what the sourced file printed before its error too.
    let out = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(args)
        .current_dir(&dir)
        .output()
        .unwrap();
    let transcript = text(&out.stdout);
    assert!(!transcript.contains("error:"), "{transcript}");
    assert!(
        transcript.contains("> focus nobody\n> source setup.dbg\n"),
        "{transcript}"
    );
    assert!(
        transcript.contains("> info breakpoints\nNo breakpoints"),
        "{transcript}"
    );
}

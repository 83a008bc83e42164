//! `--message-format json`: one JSON object per diagnostic, one per line,
//! on standard error, for `asm` and `check` (snapshots of
//! the objects; docs/formats.md describes the fields).

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

//! A real editor on `constree lsp`: Neovim (Debian's 0.7), headless, with
//! `editors/nvim/constree.lua` as its only configuration and
//! `tests/neovim/driver.lua` doing what a user would: opening a program
//! with a mistake, waiting for the diagnostic, and going to a label's
//! definition. The driver writes what Neovim saw as JSON; the assertions
//! are here.
//!
//! Without `nvim` on the PATH the tests say so and pass, except under CI
//! (the variable `CI` set, as `.ci/run` does after installing Neovim),
//! where a missing editor fails them.

mod hostile_common;

use hostile_common::Scratch;
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long Neovim may run before the test calls it stuck: a guard against
/// a hang, longer than the driver's own limits (120 s per wait).
const GUARD: Duration = Duration::from_secs(300);

/// The program the editor opens: `bogus` is not an instruction (E0508),
/// and `jmp again` names the label `again`.
const PROGRAM: &str = "\
; a bot with a mistake
use std/control

reg a

main:
    nilify a
    jmp again

again:
    bogus a
    jmp main
";

/// The 0-based index of the line of `PROGRAM` that is `line`.
fn line_of(line: &str) -> usize {
    PROGRAM
        .lines()
        .position(|l| l == line)
        .unwrap_or_else(|| panic!("{line:?} is a line of the program"))
}

/// Whether Neovim can run here. Absent, a test skips, outside CI only.
fn nvim_available() -> bool {
    let found = Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "nvim is not installed, and CI is set: .ci/run installs Debian's `neovim`"
        );
        eprintln!("skipped: nvim is not installed (apt-get install neovim); CI fails instead");
    }
    found
}

/// Runs Neovim headless on `PROGRAM`, with the cursor for a definition
/// when given ("ROW,COL", 1-based row), and gives the driver's report.
fn run_neovim(name: &str, cursor: Option<String>) -> Value {
    let scratch = Scratch::new(name);
    let file = scratch.write("bot.cta", PROGRAM);
    let report = scratch.path().join("report.json");
    let root = env!("CARGO_MANIFEST_DIR");
    let mut command = Command::new("nvim");
    command
        .args([
            "--headless",
            "-u",
            &format!("{root}/editors/nvim/constree.lua"),
        ])
        .arg("--cmd")
        .arg(format!(
            "let g:constree_path = '{}'",
            env!("CARGO_BIN_EXE_constree")
        ))
        .arg("-c")
        .arg(format!("luafile {root}/tests/neovim/driver.lua"))
        .current_dir(scratch.path())
        .env("CONSTREE_NVIM_FILE", &file)
        .env("CONSTREE_NVIM_REPORT", &report)
        // Neovim's own files (the LSP log, shada) stay in the scratch folder.
        .env("XDG_CONFIG_HOME", scratch.path().join("config"))
        .env("XDG_DATA_HOME", scratch.path().join("data"))
        .env("XDG_CACHE_HOME", scratch.path().join("cache"))
        .env("XDG_STATE_HOME", scratch.path().join("state"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(cursor) = cursor {
        command.env("CONSTREE_NVIM_CURSOR", cursor);
    }
    let mut child = command.spawn().expect("nvim starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > GUARD {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("nvim still running after {GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "nvim exited with {status}");
    let text = std::fs::read_to_string(&report).expect("the driver wrote its report");
    serde_json::from_str(&text).expect("the report is JSON")
}

#[test]
fn the_diagnostic_arrives_in_neovim() {
    if !nvim_available() {
        return;
    }
    let report = run_neovim("nvim_diagnostic", None);
    assert_eq!(report["filetype"], "constree", "{report}");
    assert_eq!(report["clients"], 1, "one server attached: {report}");
    assert_eq!(report["diagnostics_arrived"], true, "{report}");
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{report}");
    assert_eq!(diagnostics[0]["code"], "E0508", "{report}");
    assert_eq!(diagnostics[0]["line"], line_of("    bogus a"), "{report}");
    assert_eq!(
        diagnostics[0]["message"],
        "unknown instruction or macro `bogus`"
    );
}

#[test]
fn go_to_definition_moves_the_cursor_to_the_label_in_neovim() {
    if !nvim_available() {
        return;
    }
    let jump = line_of("    jmp again");
    // On `again` in `jmp again` (Neovim's rows are 1-based).
    let cursor = format!("{},{}", jump + 1, "    jmp ag".len());
    let report = run_neovim("nvim_definition", Some(cursor));
    assert_eq!(report["diagnostics_arrived"], true, "{report}");
    assert_eq!(report["definition_provider"], true, "{report}");
    assert_eq!(report["cursor_moved"], true, "{report}");
    let label = line_of("again:");
    // The cursor is on the label's line, at its start.
    assert_eq!(
        report["cursor_after"],
        serde_json::json!([label + 1, 0]),
        "{report}"
    );
    assert!(
        report["file_after"].as_str().unwrap().ends_with("bot.cta"),
        "{report}"
    );
}

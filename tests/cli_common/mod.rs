//! Running the `constree` binary from tests, and the files tests work on:
//! scratch directories, the examples and their scenarios.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `constree ARGS` with `stdin` as its standard input.
pub fn constree(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("constree runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `constree ARGS` and returns its standard output; panics with its
/// standard error when it fails.
pub fn stdout_of(args: &[&str]) -> String {
    let out = constree(args, "");
    assert!(
        out.status.success(),
        "constree {args:?} failed:\n{}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs `constree ARGS`, expects exit code 1 and returns its standard
/// error (which must not be a panic).
pub fn failure_of(args: &[&str]) -> String {
    let out = constree(args, "");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "constree {args:?}:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// A fresh empty directory for one test's files.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A program whose register `wide` holds a list of 300 `[[]]` (1,802
/// characters in the readable form), written in a fresh directory: its
/// path, and the text of the list's elements.
pub fn wide_program(name: &str) -> (PathBuf, String) {
    let source = scratch_dir(name).join("wide.cta");
    let elements = vec!["[[]]"; 300].join(", ");
    std::fs::write(
        &source,
        format!("use std/control\nreg wide = [{elements}]\nmain:\n    halt\n"),
    )
    .unwrap();
    (source, elements)
}

/// A path as a `&str` argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// A path under `examples/`.
pub fn example(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(path)
}

/// Loads a scenario; a scenario that does not load fails the test.
pub fn load(path: &Path) -> constree::scenario::Scenario {
    constree::scenario::Scenario::load(path, None).unwrap_or_else(|e| panic!("{e}"))
}

/// What a command prints for an error of the command line's own that has
/// no place (a code of `E12..` or an input's): the header with its code,
/// the code's help line and the summary.
pub fn placeless_error(code: constree::diagnostic::Code, message: &str) -> String {
    format!(
        "[{code}] Error: {message}\n   = Help: {}\n1 error, 0 warnings\n",
        code.help()
    )
}

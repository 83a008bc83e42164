//! Every conformance vector (computed by the report's own code) must pass.
//! The files live in `tests/conformance/`; a missing file fails the test.

use constree::conformance::{FileKind, run_file};
use std::path::Path;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance"))
}

fn expected_lines(kind: FileKind) -> usize {
    let manifest = std::fs::read_to_string(dir().join("manifest.json"))
        .expect("tests/conformance/manifest.json is missing");
    let manifest: serde_json::Value =
        serde_json::from_str(&manifest).expect("manifest.json is not JSON");
    manifest["files"][format!("{}.jsonl", kind.stem())]
        .as_u64()
        .unwrap_or_else(|| panic!("manifest.json has no line count for {}", kind.stem()))
        as usize
}

fn check(kind: FileKind) {
    let path = dir().join(format!("{}.jsonl.gz", kind.stem()));
    assert!(path.exists(), "{} is missing", path.display());
    let report = run_file(&path, kind).unwrap_or_else(|e| panic!("{e}"));
    let failures: Vec<String> = report
        .failures
        .iter()
        .map(|f| format!("line {}: {}", f.line, f.message))
        .collect();
    assert_eq!(
        report.failed,
        0,
        "{} failed:\n{}",
        path.display(),
        failures.join("\n")
    );
    assert_eq!(
        report.passed,
        expected_lines(kind),
        "{}: not every line was checked",
        path.display()
    );
}

#[test]
fn ints() {
    check(FileKind::Ints);
}

#[test]
fn encode() {
    check(FileKind::Encode);
}

#[test]
fn decode() {
    check(FileKind::Decode);
}

#[test]
fn machine() {
    check(FileKind::Machine);
}

#[test]
fn world() {
    check(FileKind::World);
}

#[test]
fn render() {
    check(FileKind::Render);
}

#[test]
fn a_corrupted_line_is_reported_with_its_reason() {
    let line = r#"{"speed":3,"memory":[],"result":{"ok":[{"limit":1,"contents":"0"}]}}"#;
    let message = constree::conformance::check_line(FileKind::Machine, line)
        .unwrap_err()
        .to_string();
    assert!(message.starts_with("result differs at .ok:"), "{message}");
    let message = constree::conformance::check_line(FileKind::World, "{\"world\": 3}")
        .unwrap_err()
        .to_string();
    assert!(message.contains("cannot read the line"), "{message}");
    assert!(message.contains("column"), "{message}");
}

//! Errors are typed: no `Result<_, String>` in `src/` (an error enum per
//! module, whose text is its `Display`), except the formatting helpers of
//! [`ALLOWED`], where `Err` holds the text to show in place of a value.

use std::path::{Path, PathBuf};

/// `(file under src/, text of its line, why)`: the places a `String` error
/// is the point.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "debugger/view/input.rs",
        "line: impl Fn(usize, &Tree) -> Result<String, String>,",
        "a formatting helper: Err is the text shown for an element that does not decode",
    ),
    (
        "debugger/view/input.rs",
        "fn robot(_: usize, tree: &Tree) -> Result<String, String> {",
        "a formatting helper: Err is the text shown for a robot that does not decode",
    ),
    (
        "debugger/view/input.rs",
        "fn item(tree: &Tree) -> Result<String, String> {",
        "a formatting helper: Err is the text shown for an item that does not decode",
    ),
    (
        "debugger/view/input.rs",
        "fn action(tree: &Tree, own: bool, invalid: Option<bool>) -> Result<String, String> {",
        "a formatting helper: Err is the text shown for an action that does not decode",
    ),
    (
        "debugger/view/typed.rs",
        "fn read(literal: &str, ty: &str) -> Result<String, String> {",
        "a test's formatting helper: the text shown, or the error's",
    ),
    (
        "debugger/view/mod.rs",
        "pub(super) fn view(tree: &Tree, format: Format) -> Result<String, String> {",
        "a test's formatting helper: the text shown, or the error's",
    ),
];

/// The Rust files below a directory.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The type arguments of the `Result<...>` that starts at `text`'s start
/// (after `Result<`), split at their top-level commas; `None` if the
/// brackets do not close.
fn arguments(text: &str) -> Option<Vec<String>> {
    let mut depth = 0usize;
    let mut parts = vec![String::new()];
    let mut previous = ' ';
    for c in text.chars() {
        // The `>` of an arrow (`Fn() -> T`) closes nothing.
        let arrow = c == '>' && previous == '-';
        previous = c;
        match c {
            _ if arrow => {}
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' if depth == 0 => return Some(parts),
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut()?.push(c);
    }
    None
}

/// The lines (1-based) of a text whose `Result<T, String>` has `String`
/// for its error, including signatures written over several lines.
fn string_errors(text: &str) -> Vec<usize> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("Result<") {
        let mut args = arguments(&text[at + "Result<".len()..]).unwrap_or_default();
        // A trailing comma.
        if args.last().is_some_and(|a| a.trim().is_empty()) {
            args.pop();
        }
        if args.len() == 2 && args[1].split_whitespace().eq(["String"]) {
            found.push(text[..at].matches('\n').count() + 1);
        }
    }
    found
}

#[test]
fn the_scan_finds_string_errors_and_only_them() {
    let text = "fn a() -> Result<Vec<u8>, String> {}\n\
                fn b() -> Result<String, Error> {}\n\
                fn c() -> rustyline::Result<(usize, Vec<String>)> {}\n\
                fn e() -> Result<Box<dyn Fn() -> u8>, Error> {}\n\
                fn d(\n) -> Result<\n    Vec<(u8, u8)>,\n    String,\n> {}\n";
    assert_eq!(string_errors(text), [1, 6]);
}

#[test]
fn no_string_errors_outside_the_formatting_helpers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offending = Vec::new();
    let mut allowed_seen = vec![false; ALLOWED.len()];
    for path in rust_files(&src) {
        let name = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for line in string_errors(&text) {
            let written = lines[line - 1].trim();
            let allowed = ALLOWED
                .iter()
                .position(|(file, text, _)| *file == name && *text == written);
            match allowed {
                Some(k) => allowed_seen[k] = true,
                None => offending.push(format!("src/{name}:{line}: {written}")),
            }
        }
    }
    assert!(
        offending.is_empty(),
        "Result<_, String> outside the formatting helpers (give the module an error enum):\n{}",
        offending.join("\n")
    );
    let stale: Vec<_> = ALLOWED
        .iter()
        .zip(allowed_seen)
        .filter(|(_, seen)| !seen)
        .map(|((file, text, _), _)| format!("src/{file}: {text}"))
        .collect();
    assert!(stale.is_empty(), "allowed, but not found: {stale:?}");
}

//! The assembler's test cases: `tests/asm/cases/NAME.cta`, each with the
//! diagnostics it must produce written inline, on the line they point at:
//!
//! ```text
//!     jmp nowhere        ; error: E0512
//!     nilify in          ; warning: W0703
//! ```
//!
//! Files a case reads (`NAME.inc.cta`) carry their own annotations. A case
//! without annotations must assemble cleanly, and `check` must report
//! exactly what assembling does, without an image. Every case's rendered
//! diagnostics are also kept as an `insta` snapshot. `build.rs` makes one
//! test per case.

use constree::asm::source::{DiskLoader, Sources};
use constree::asm::{assemble_file, check_file};
use constree::diagnostic::{Diagnostic, Severity};
use std::path::Path;

const CASES: &str = "tests/asm/cases/";

/// `(file, line, "error" | "warning", code)` expected by the annotations of
/// every case file the assembly read.
fn expected(sources: &Sources) -> Vec<(String, usize, String, String)> {
    let mut out = Vec::new();
    for (_, file) in sources.iter().filter(|(_, f)| f.name.starts_with(CASES)) {
        out.extend(
            annotations(&file.text)
                .into_iter()
                .map(|(l, k, c)| (file.name.clone(), l, k, c)),
        );
    }
    out.sort();
    out
}

/// `(line, kind, code)` of one file's annotations.
fn annotations(text: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(comment) = line.find(';').map(|k| &line[k..]) else {
            continue;
        };
        let words: Vec<&str> = comment.split_whitespace().collect();
        for pair in words.windows(2) {
            if let Some(kind) = pair[0].strip_suffix(':')
                && (kind == "error" || kind == "warning")
            {
                out.push((n + 1, kind.to_string(), pair[1].to_string()));
            }
        }
    }
    out
}

/// The case file and line a diagnostic belongs to: where it points, or the
/// outermost macro invocation in a case file (for diagnostics inside the
/// standard library).
fn place(d: &Diagnostic, sources: &Sources) -> (String, usize) {
    let spans = std::iter::once(d.primary.0).chain(d.expansion.iter().rev().map(|(_, s)| *s));
    for span in spans {
        let file = sources.get(span.file);
        if file.name.starts_with(CASES) {
            return (file.name.clone(), file.line_col(span.start as usize).0);
        }
    }
    (String::new(), 0)
}

fn check_case(name: &str) {
    let path = format!("{CASES}{name}.cta");
    let assembly = assemble_file(&DiskLoader::default(), Path::new(&path));
    let rendered = assembly.render(false);
    let mut actual: Vec<(String, usize, String, String)> = assembly
        .diagnostics
        .iter()
        .map(|d| {
            let kind = if d.severity == Severity::Error {
                "error"
            } else {
                "warning"
            };
            let (file, line) = place(d, &assembly.sources);
            (file, line, kind.to_string(), d.code.to_string())
        })
        .collect();
    actual.sort();
    assert_eq!(
        actual,
        expected(&assembly.sources),
        "{path}: diagnostics differ from the annotations:\n{rendered}"
    );
    let errors = actual.iter().any(|(_, _, kind, _)| kind == "error");
    assert_eq!(
        assembly.image.is_some(),
        !errors,
        "{path}: an image exactly when there is no error"
    );
    let checked = check_file(&DiskLoader::default(), Path::new(&path));
    assert_eq!(
        checked.render(false),
        rendered,
        "{path}: `check` reports what assembling does"
    );
    assert!(checked.image.is_none(), "{path}: `check` builds no image");
    insta::assert_snapshot!(name, rendered);
}

include!(concat!(env!("OUT_DIR"), "/asm_cases.rs"));

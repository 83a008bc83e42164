//! Embeds the standard library (`stdlib/*.cta`) into the binary, and turns
//! every assembler test case in `tests/asm/cases/` into a test function.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    println!("cargo:rerun-if-changed=stdlib");
    let mut modules: Vec<(String, String)> = std::fs::read_dir("stdlib")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "cta"))
                .map(|p| {
                    let name = p
                        .file_stem()
                        .and_then(|s| s.to_str())
                        .unwrap_or_default()
                        .to_string();
                    let full = std::fs::canonicalize(&p).unwrap_or(p);
                    (name, full.display().to_string())
                })
                .collect()
        })
        .unwrap_or_default();
    modules.sort();
    let mut code = String::from("&[\n");
    for (name, path) in &modules {
        println!("cargo:rerun-if-changed={path}");
        writeln!(code, "    ({name:?}, include_str!({path:?})),").unwrap();
    }
    code.push(']');
    std::fs::write(Path::new(&out_dir).join("stdlib_files.rs"), code).expect("OUT_DIR is writable");
    write_case_tests(&out_dir);
}

/// One `#[test]` per `tests/asm/cases/NAME.cta` (files ending `.inc.cta`
/// are helpers that cases include), so a new case cannot be forgotten.
fn write_case_tests(out_dir: &str) {
    println!("cargo:rerun-if-changed=tests/asm/cases");
    let mut names: Vec<String> = std::fs::read_dir("tests/asm/cases")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .filter(|n| n.ends_with(".cta") && !n.ends_with(".inc.cta"))
                .map(|n| n.trim_end_matches(".cta").to_string())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut code = String::new();
    for name in names {
        let ident: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        writeln!(
            code,
            "#[test]\nfn case_{ident}() {{\n    check_case({name:?});\n}}"
        )
        .unwrap();
    }
    std::fs::write(Path::new(out_dir).join("asm_cases.rs"), code).expect("OUT_DIR is writable");
}

//! Embeds the standard library (`stdlib/*.cta`) into the binary.

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
}

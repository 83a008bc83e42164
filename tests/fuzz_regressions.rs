//! Inputs the fuzzers of `fuzz/` found crashing, kept so that they never
//! crash again: each file of `tests/fuzz_regressions/TARGET/` is fed to
//! what that target feeds (see docs/testing.md).

use constree::asm::source::MemoryLoader;
use std::path::Path;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_regressions")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

/// Found by `assemble`: a diagnostic with labels in two files, after
/// multi-byte characters, made ariadne slice a line mid-character.
#[test]
fn assemble() {
    for (name, data) in inputs("assemble") {
        let text = String::from_utf8_lossy(&data);
        let loader = MemoryLoader::default().with("fuzz.cta", &text);
        let assembly = constree::asm::assemble_file(&loader, Path::new("fuzz.cta"));
        let rendered = assembly.render(false);
        assert!(rendered.contains("error"), "{name}: {rendered}");
    }
}

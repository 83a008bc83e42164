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

/// Found by `debugger_commands`: `profile 0` subtracted past zero.
#[test]
fn debugger_commands() {
    let walker = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/walker.cta");
    let text = format!(
        "steps = 6\n[world]\nsize = [3, 2]\n[[item]]\nat = [1, 0]\ncargo = [3, 2]\n[[robot]]\nname = \"walker\"\nat = [0, 0]\nspeed = 40\nprogram = {:?}\n",
        walker.display().to_string()
    );
    let debugger = || {
        let scenario =
            constree::scenario::Scenario::from_text_in("fuzz.toml", &text, Path::new(""), None)
                .unwrap();
        constree::debugger::Debugger::for_scenario(scenario, Vec::new()).unwrap()
    };
    for (_, data) in inputs("debugger_commands") {
        let mut debugger = debugger();
        for line in String::from_utf8_lossy(&data).lines().take(16) {
            let long_number = line
                .split(|c: char| !c.is_ascii_digit())
                .any(|n| n.len() > 3);
            if !long_number {
                let _ = debugger.execute(line);
            }
        }
    }
    let mut debugger = debugger();
    for bad in ["profile 0", "stepi 0", "gstep 0", "reverse-gstep 0"] {
        assert!(debugger.execute(bad).is_err(), "{bad}");
    }
}

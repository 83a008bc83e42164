//! Garbage in: the assembler reports and exits, never panics, never
//! overflows its stack, never runs forever.

use constree::asm::assemble;
use constree::asm::source::{MemoryLoader, SourceFile};
use proptest::prelude::*;
use std::time::{Duration, Instant};

fn assemble_text(text: &str) -> constree::asm::Assembly {
    assemble(
        &MemoryLoader::default(),
        SourceFile::new("garbage.cta".into(), None, text.into()),
    )
}

fn assert_fails(text: &str, code: &str) {
    let assembly = assemble_text(text);
    assert!(assembly.image.is_none());
    assert!(
        assembly.diagnostics.iter().any(|d| d.code.as_str() == code),
        "expected {code}, got:\n{}",
        assembly.render(false)
    );
    // Rendering never fails either.
    assert!(!assembly.render(false).is_empty());
}

/// Every source file of the project, for truncation and mutation.
fn corpus() -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["stdlib", "examples", "tests/asm/cases"] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == "cta")
                && let Ok(text) = std::fs::read_to_string(e.path())
            {
                files.push(text);
            }
        }
    }
    assert!(files.len() > 20, "the corpus is missing");
    files
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = assemble_text(&text).render(false);
    }

    #[test]
    fn random_tokens(words in prop::collection::vec(prop::sample::select(vec![
        "reg", "const", "macro", "end", "if", "else", "use", "include", "block", "tail", "entry", "callstack",
        "resize", "nilify", "construct", "copyifnil", "deconstruct", "a", "b", "main", ":", ",", "(", ")", "[",
        "]", "|", "=", "#", "@", "-", "+", "*", "/", "%", "<<", "==", "1", "0", "9223372036854775808", "\"s\"",
        "\n", "\n", "\n", "Move", "E", "Build", "image", "code", "cons", "bits", "std/control", "jmp", "call",
    ]), 0..60)) {
        let text = words.join(" ");
        let _ = assemble_text(&text).render(false);
    }

    #[test]
    fn truncated_and_mutated_sources(pick in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>(), flip in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let files = corpus();
        let text = pick.get(&files);
        let mut bytes = text.as_bytes()[..cut.index(text.len() + 1)].to_vec();
        if !bytes.is_empty() {
            let k = flip.index(bytes.len());
            bytes[k] = byte;
        }
        let _ = assemble_text(&String::from_utf8_lossy(&bytes)).render(false);
    }
}

#[test]
fn brackets_nested_a_hundred_thousand_deep() {
    let depth = 100_000;
    let text = format!("const X = {}{}\n", "[".repeat(depth), "]".repeat(depth));
    assert_fails(&text, "E0003");
    let parens = format!("reg r = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
    assert_fails(&parens, "E0003");
    let unclosed = format!("reg r = {}\n", "[".repeat(depth));
    assert_fails(&unclosed, "E0003");
}

#[test]
fn a_macro_that_expands_forever() {
    assert_fails("macro m\n    m\nend\nmain:\n    m\n", "E0214");
    // Exponential breadth that emits nothing.
    let breadth = "macro m n\n    if n > 0\n        m n - 1\n        m n - 1\n    end\nend\nm 60\n";
    let started = Instant::now();
    assert_fails(breadth, "E0207");
    assert!(started.elapsed() < Duration::from_secs(30));
    // Exponential breadth that emits code.
    let emitting = "macro m n\n    if n > 0\n        m n - 1\n        m n - 1\n    else\n        nilify out\n    end\nend\nm 40\n";
    assert_fails(emitting, "E0207");
}

#[test]
fn a_million_lines() {
    let mut text = String::from("reg a\nmain:\n");
    for k in 0..1_000_000 {
        text.push_str(if k % 2 == 0 {
            "    nilify a\n"
        } else {
            "    construct a, a, a ; comment\n"
        });
    }
    text.push_str("    nilify prog\n");
    let assembly = assemble_text(&text);
    assert!(
        assembly.diagnostics.is_empty(),
        "{}",
        assembly.render(false)
    );
    let image = assembly.image.expect("assembles");
    assert_eq!(image.registers[0].contents.list_len(), 1_000_001);
}

#[test]
fn a_million_bad_lines_are_counted_not_all_shown() {
    let text = "nilify ,\n".repeat(1_000_000);
    let assembly = assemble_text(&text);
    assert_eq!(assembly.diagnostics.len(), 1_000_000);
    let rendered = assembly.render(false);
    assert!(
        rendered.contains("... and 999950 more diagnostics not shown"),
        "{}",
        &rendered[rendered.len() - 200..]
    );
    assert!(rendered.ends_with("1000000 errors, 0 warnings\n"));
}

#[test]
fn missing_files_and_bad_utf8() {
    let loader = MemoryLoader::default();
    let assembly = constree::asm::assemble_file(&loader, std::path::Path::new("nowhere.cta"));
    assert!(assembly.image.is_none());
    assert_eq!(assembly.diagnostics[0].code.as_str(), "E0000");
    assert!(!assembly.render(false).is_empty());
}

#[test]
fn includes_nested_past_the_limit_are_an_error() {
    // f0 includes f1, which includes f2, ... 40 files deep (no cycle).
    let depth = 40;
    let mut loader = MemoryLoader::default();
    for k in 0..depth {
        let text = if k + 1 < depth {
            format!("include \"f{}.cta\"\n", k + 1)
        } else {
            "reg x = 1\n".to_string()
        };
        loader = loader.with(&format!("f{k}.cta"), &text);
    }
    let assembly = constree::asm::assemble_file(&loader, std::path::Path::new("f0.cta"));
    assert!(assembly.image.is_none());
    let codes: Vec<&str> = assembly
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, ["E0218"], "{}", assembly.render(false));
    assert!(assembly.render(false).contains("more than 32 levels deep"));
}

//! The lexer, parser and assembler on arbitrary bytes: diagnostics, never a
//! panic.
#![no_main]

use constree::asm::source::MemoryLoader;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let loader = MemoryLoader::default().with("fuzz.cta", &text);
    let assembly = constree::asm::assemble_file(&loader, Path::new("fuzz.cta"));
    let _ = assembly.render(false);
});

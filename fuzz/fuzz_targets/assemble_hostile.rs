//! The assembler on hostile programs made by the structure-aware generators
//! of `constree_fuzz::hostile` (long chains, deep nesting, constants defined
//! through each other, doubling macros, fan-out includes and images): the
//! input's bytes choose the shape, the size and the random parts.
//! Diagnostics or an image, never a crash.
#![no_main]

use constree::asm::source::MemoryLoader;
use constree_fuzz::hostile::random_program;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let mut seed = [0u8; 8];
    let n = data.len().min(8);
    seed[..n].copy_from_slice(&data[..n]);
    let scale = 1 + data.get(8).copied().unwrap_or(0) as usize * 40;
    let files = random_program(u64::from_le_bytes(seed), scale);
    let mut loader = MemoryLoader::default();
    for (path, text) in &files {
        loader = loader.with(path, text);
    }
    let assembly = constree::asm::assemble_file(&loader, Path::new("main.cta"));
    assert!(assembly.has_errors() || assembly.image.is_some());
});

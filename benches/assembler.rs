//! The assembler on a 100,000-line program: lines per second.

use constree::asm::assemble;
use constree::asm::source::{MemoryLoader, SourceFile};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// A program of `lines` lines: declarations, constants, labels, the four
/// instructions and std/control macros, with comments.
pub fn program(lines: usize) -> String {
    let mut text = String::from(
        "use std/control\nreg out = Pass\nreg a\nreg b = [1, 2, 3]\nconst STEP = Move E\n",
    );
    let mut k = 0;
    while text.lines().count() < lines {
        text.push_str(&format!("block{k}:          ; block {k}\n"));
        text.push_str(
            "    construct a, b, a\n    deconstruct a, a, scratch\n    copyifnil b, zero, a\n",
        );
        text.push_str("    mov out, STEP\n    push b, a\n    pop b, a\n    load a, 42\n");
        text.push_str(&format!("    jnil a, block{k}\n"));
        k += 1;
    }
    text.push_str("    halt\n");
    text
}

fn assembler(c: &mut Criterion) {
    let text = program(100_000);
    let lines = text.lines().count() as u64;
    let assembled = assemble(
        &MemoryLoader::default(),
        SourceFile::new("big.cta".into(), None, text.clone()),
    );
    assert!(assembled.image.is_some(), "{}", assembled.render(false));
    let mut group = c.benchmark_group("assembler");
    group.sample_size(10);
    group.throughput(Throughput::Elements(lines));
    group.bench_function("100k lines", |b| {
        b.iter(|| {
            assemble(
                &MemoryLoader::default(),
                SourceFile::new("big.cta".into(), None, text.clone()),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, assembler);
criterion_main!(benches);

//! The assembler on a 100,000-line program: lines per second. And a
//! program of 60 doubling constants (trees of 2^60 logical conses, 60
//! distinct nodes) assembled, listed and disassembled: the cost follows
//! the distinct nodes, so each takes well under a millisecond. And the
//! 100,000-line program's image saved and loaded in both forms, JSON and
//! binary.

use constree::asm::assemble;
use constree::asm::disasm::disassemble;
use constree::asm::listing::listing;
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

/// 60 constants, each the cons (or the list `[x | x]`) of the one before,
/// used as an operand and as a register's value.
pub fn doubling_program(doublings: usize) -> String {
    let mut text = String::from(
        "use std/control\nreg r\nreg lists auto = l{doublings}\nconst t0 = cons(nil, nil)\nconst l0 = [nil]\n",
    )
    .replace("{doublings}", &doublings.to_string());
    for k in 1..=doublings {
        let j = k - 1;
        text.push_str(&format!(
            "const t{k} = cons(t{j}, t{j})\nconst l{k} = [l{j} | l{j}]\n"
        ));
    }
    text.push_str(&format!("main:\n    mov r, t{doublings}\n    halt\n"));
    text
}

fn doubling(c: &mut Criterion) {
    let text = doubling_program(60);
    let source = || SourceFile::new("doubling.cta".into(), None, text.clone());
    let image = assemble(&MemoryLoader::default(), source())
        .image
        .expect("assembles");
    let written = disassemble(&image);
    let mut group = c.benchmark_group("doubling constants");
    group.bench_function("assemble 60", |b| {
        b.iter(|| assemble(&MemoryLoader::default(), source()))
    });
    group.bench_function("listing 60", |b| b.iter(|| listing(&image)));
    group.bench_function("disassemble 60", |b| b.iter(|| disassemble(&image)));
    group.bench_function("reassemble 60", |b| {
        b.iter(|| {
            assemble(
                &MemoryLoader::default(),
                SourceFile::new("again.cta".into(), None, written.clone()),
            )
        })
    });
    group.finish();
}

/// The image of the 100,000-line program written and read in each form
/// (in memory: the files' reading and writing aside).
fn images(c: &mut Criterion) {
    use constree::image::binary::{from_binary, to_binary};
    use constree::image::format::{from_json, to_json};
    let image = assemble(
        &MemoryLoader::default(),
        SourceFile::new("big.cta".into(), None, program(100_000)),
    )
    .image
    .expect("assembles");
    let json = to_json(&image);
    let binary = to_binary(&image);
    println!(
        "image of 100k lines: JSON {} bytes, binary {} bytes",
        json.len(),
        binary.len()
    );
    let mut group = c.benchmark_group("image 100k lines");
    group.sample_size(10);
    group.bench_function("save json", |b| b.iter(|| to_json(&image)));
    group.bench_function("save binary", |b| b.iter(|| to_binary(&image)));
    group.bench_function("load json", |b| b.iter(|| from_json(&json)));
    group.bench_function("load binary", |b| b.iter(|| from_binary(&binary)));
    group.finish();
}

criterion_group!(benches, assembler, doubling, images);
criterion_main!(benches);

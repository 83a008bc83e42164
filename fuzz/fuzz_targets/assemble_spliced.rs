//! Valid programs with arbitrary text spliced in: the first byte picks an
//! example, the next two where the rest of the input goes.
#![no_main]

use constree::asm::source::MemoryLoader;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const PROGRAMS: &[&str] = &[
    include_str!("../../examples/walker.cta"),
    include_str!("../../examples/calls.cta"),
    include_str!("../../examples/macros.cta"),
    include_str!("../../examples/builder.cta"),
    include_str!("../../examples/binary_increment.cta"),
    include_str!("../../stdlib/lists.cta"),
    include_str!("../../stdlib/ints.cta"),
    include_str!("../../stdlib/input.cta"),
    include_str!("../../stdlib/machine.cta"),
    include_str!("../../stdlib/memory.cta"),
    include_str!("../../stdlib/trees.cta"),
    include_str!("../../stdlib/commands.cta"),
    include_str!("../../examples/knapsack/knapsack.cta"),
    include_str!("../../examples/replicator/replicator.cta"),
    include_str!("../../examples/inspection/guard.cta"),
    include_str!("../../examples/arena/hunter.cta"),
];

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let program = PROGRAMS[data[0] as usize % PROGRAMS.len()];
    let mut at = (usize::from(data[1]) << 8 | usize::from(data[2])) % (program.len() + 1);
    while !program.is_char_boundary(at) {
        at -= 1;
    }
    let text = format!(
        "{}{}{}",
        &program[..at],
        String::from_utf8_lossy(&data[3..]),
        &program[at..]
    );
    let loader = MemoryLoader::default()
        .with("fuzz.cta", &text)
        .with("child.cta", include_str!("../../examples/child.cta"))
        .with(
            "common.cta",
            include_str!("../../examples/arena/common.cta"),
        );
    let assembly = constree::asm::assemble_file(&loader, Path::new("fuzz.cta"));
    let _ = assembly.render(false);
});

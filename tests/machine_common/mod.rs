//! Running an assembled image in the machine, and reading its registers
//! by name afterwards.

#![allow(dead_code)]

use constree::image::Image;
use constree::machine::{Memory, RunReport, run_for};
use constree::tree::Tree;

/// The image's memory after at most `ticks` ticks (no machine error).
pub fn run(image: &Image, ticks: i64) -> (Memory, RunReport) {
    let mut memory = image.memory();
    let report = run_for(ticks, &mut memory).expect("runs without error");
    (memory, report)
}

/// The contents of the image's register `name` in `memory`.
pub fn register<'a>(image: &Image, memory: &'a Memory, name: &str) -> &'a Tree {
    &memory[image
        .register(name)
        .unwrap_or_else(|| panic!("no register {name}"))]
    .contents
}

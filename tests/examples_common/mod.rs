//! Helpers shared by the tests of the example programs (`tests/examples.rs`
//! for `examples/*.cta`, and the tests of the examples in folders): an
//! example's source and image, its listing for snapshots, and the commands
//! its header documents.
//!
//! An example is named by its path under `examples/` without `.cta`
//! (`walker`, `shot/shot`).

#![allow(dead_code)]

use constree::asm::assemble_file;
use constree::asm::listing::listing;
use constree::asm::source::DiskLoader;
use constree::image::Image;
use std::path::{Path, PathBuf};

pub const MANIFEST: &str = env!("CARGO_MANIFEST_DIR");

/// `examples/` of the crate.
pub fn examples_dir() -> PathBuf {
    Path::new(MANIFEST).join("examples")
}

/// An example's source text.
pub fn source(name: &str) -> String {
    std::fs::read_to_string(examples_dir().join(format!("{name}.cta"))).expect("example exists")
}

/// Assembles an example with the built-in standard library; any diagnostic,
/// warnings included, fails the test.
pub fn assemble(name: &str) -> Image {
    let path = examples_dir().join(format!("{name}.cta"));
    let assembly = assemble_file(&DiskLoader::default(), &path);
    assert!(
        assembly.diagnostics.is_empty(),
        "examples/{name}.cta has diagnostics:\n{}",
        assembly.render(false)
    );
    assembly
        .image
        .unwrap_or_else(|| panic!("examples/{name}.cta gives no image"))
}

/// A listing with the checkout's path taken out, so snapshots do not depend
/// on where the crate lives.
pub fn portable_listing(image: &Image) -> String {
    listing(image).replace(&format!("{MANIFEST}/"), "")
}

/// The `constree ...` command lines of an example's header comment.
pub fn documented_commands(name: &str) -> Vec<Vec<String>> {
    source(name)
        .lines()
        .take_while(|l| l.starts_with(';'))
        .filter_map(|l| l.trim_start_matches(';').trim().strip_prefix("constree "))
        .map(|command| {
            // Words, with "..." quoting; any trailing `(comment)` dropped.
            let command = command.split("  ").next().unwrap_or_default();
            let mut words = Vec::new();
            let mut word = String::new();
            let mut quoted = false;
            for c in command.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ' ' if !quoted => {
                        if !word.is_empty() {
                            words.push(std::mem::take(&mut word));
                        }
                    }
                    c => word.push(c),
                }
            }
            if !word.is_empty() {
                words.push(word);
            }
            words
        })
        .filter(|words| words.iter().any(|w| w == &format!("examples/{name}.cta")))
        .collect()
}

/// Runs the `constree` commands of an example's header (images that `asm`
/// writes go to a scratch directory); each must succeed without a word on
/// standard error or a machine error. Returns their outputs.
pub fn run_documented_commands(name: &str) -> Vec<String> {
    let scratch = std::env::temp_dir().join(format!(
        "constree-examples-{}-{}",
        std::process::id(),
        name.replace('/', "-")
    ));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut outputs = Vec::new();
    for mut args in documented_commands(name) {
        if args[0] == "asm" {
            // Keep the image out of the source tree.
            let ctm = scratch.join("image.ctm");
            args.extend(["-o".to_string(), ctm.display().to_string()]);
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_constree"))
            .args(&args)
            .current_dir(MANIFEST)
            .env_remove("CONSTREE_STDLIB")
            .output()
            .expect("constree runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.is_empty(),
            "constree {}: {}\n{stdout}{stderr}",
            args.join(" "),
            out.status
        );
        assert!(!stdout.contains("machine error"), "{stdout}");
        outputs.push(stdout);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    outputs
}

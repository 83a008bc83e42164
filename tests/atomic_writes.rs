//! Files are written atomically: a writer that fails midway leaves the old
//! file as it was and no temporary file behind.

mod cli_common;

use cli_common::scratch_dir;
use constree::files::{write_output, write_output_with};
use std::io::Write;
use std::path::Path;

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_writer_that_fails_midway_changes_nothing() {
    let dir = scratch_dir("atomic_writes");
    let path = dir.join("bot.ctm");
    write_output(&path, b"the old image").unwrap();
    let result = write_output_with(&path, |f| {
        f.write_all(b"half of the new ")?;
        Err(std::io::Error::other("the disk is full"))
    });
    assert_eq!(result.unwrap_err().to_string(), "the disk is full");
    assert_eq!(std::fs::read(&path).unwrap(), b"the old image");
    assert_eq!(files_in(&dir), ["bot.ctm"], "no temporary file is left");
    // A successful write replaces the file whole.
    write_output(&path, b"the new image").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"the new image");
    assert_eq!(files_in(&dir), ["bot.ctm"]);
    // A directory that does not exist: an error, nothing written.
    assert!(write_output(&dir.join("no/such/dir/x.ctm"), b"x").is_err());
    assert_eq!(files_in(&dir), ["bot.ctm"]);
}

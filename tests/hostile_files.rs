//! Hostile inputs on the file surfaces: what constree reads and writes. Each
//! case runs in a child process under the caps of `hostile_common` and checks
//! that the files around it are untouched.

mod hostile_common;

use hostile_common::{Scratch, run_capped, snapshot};

#[test]
fn a_missing_source_is_a_clean_error_and_changes_nothing() {
    let scratch = Scratch::new("missing");
    scratch.write("other.cta", "halt\n");
    let before = snapshot(scratch.path());
    let out = run_capped(scratch.path(), &["check", "nosuch.cta"], b"");
    out.assert_error("nosuch.cta");
    assert_eq!(snapshot(scratch.path()), before);
}

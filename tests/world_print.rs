//! `world step` prints through a fast JSON writer; a world it cannot write
//! within `CONSTREE_MAX_TEXT` gets serde's refusal, word for word, and
//! prints nothing; `--digest` is the digest of the same bytes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `constree world step - ARGS` on `input`, with `CONSTREE_MAX_TEXT` set.
fn world_step(input: &str, max_text: &str, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(["world", "step", "-", "--steps", "0"])
        .args(args)
        .env("CONSTREE_MAX_TEXT", max_text)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A 1 x 1 world whose robot holds a tree of `conses` conses.
fn world(conses: usize) -> String {
    let contents = format!("{}0", "10".repeat(conses));
    format!(
        r#"{{"dims":[1,1],"cells":[{{"robots":[{{"frame":{{"color":"Red","strength":1}},"inventory":[],"processor":{{"speed":1}},"memory":[{{"limit":1000,"contents":"{contents}"}}]}}],"items":["Shield"]}}]}}"#
    )
}

#[test]
fn a_world_within_the_limit_prints_as_it_was_read() {
    let input = world(40);
    let out = world_step(&input, "100000", &[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{input}\n"));
    let digest = world_step(&input, "100000", &["--digest"]);
    let expected = constree::conformance::fnv1a(input.as_bytes());
    assert_eq!(
        String::from_utf8(digest.stdout).unwrap(),
        format!("{expected}\n")
    );
}

#[test]
fn a_tree_over_the_limit_is_refused_with_serdes_message() {
    // The JSON before the tree fits in 200 bytes, the tree's 241 do not.
    let out = world_step(&world(120), "200", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("the result cannot be printed: a tree of 120 conses would be 241 characters")
            && err.contains("over the limit of 200"),
        "{err}"
    );
}

#[test]
fn a_world_over_the_limit_is_refused_whole() {
    // Every tree fits, the whole does not.
    let out = world_step(&world(40), "150", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("the result cannot be printed") && err.contains("more than 150 bytes of JSON"),
        "{err}"
    );
}

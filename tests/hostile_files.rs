//! Hostile inputs on the file surfaces: what constree reads and writes. Each
//! case runs in a child process under the caps of `hostile_common` and checks
//! that the files around it are untouched.

mod hostile_common;

use hostile_common::{Entry, Scratch, run_capped, run_capped_with, snapshot};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// The repository's `examples/` folder.
fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// A scratch folder holding copies of the named example files (paths under
/// `examples/`, copied flat).
fn with_examples(name: &str, files: &[&str]) -> Scratch {
    let scratch = Scratch::new(name);
    for file in files {
        let text = std::fs::read(examples().join(file)).unwrap();
        scratch.write(Path::new(file).file_name().unwrap().to_str().unwrap(), text);
    }
    scratch
}

/// Runs `args` in `scratch`, expects a clean error mentioning `needle`, and
/// checks that nothing in the folder changed.
fn refused(scratch: &Scratch, args: &[&str], needle: &str) {
    let before = snapshot(scratch.path());
    let out = run_capped(scratch.path(), args, b"");
    out.assert_error(needle);
    assert_eq!(snapshot(scratch.path()), before, "{args:?} changed files");
}

#[test]
fn a_missing_source_is_a_clean_error_and_changes_nothing() {
    let scratch = Scratch::new("missing");
    scratch.write("other.cta", "halt\n");
    refused(&scratch, &["check", "nosuch.cta"], "nosuch.cta");
}

// Output onto input.

#[test]
fn asm_does_not_write_its_image_onto_its_source_or_an_included_file() {
    let scratch = with_examples("asm-onto-source", &["count.cta"]);
    refused(
        &scratch,
        &["asm", "count.cta", "-o", "count.cta"],
        "reads that file",
    );
    scratch.write(
        "main.cta",
        "use std/control\ninclude \"lib.cta\"\nmain: halt\n",
    );
    scratch.write("lib.cta", "reg x = 1\n");
    refused(
        &scratch,
        &["asm", "main.cta", "-o", "lib.cta"],
        "reads that file",
    );
    // Through a symlink or a hard link to the source: the same file.
    std::os::unix::fs::symlink("count.cta", scratch.path().join("link.ctm")).unwrap();
    refused(
        &scratch,
        &["asm", "count.cta", "-o", "link.ctm"],
        "reads that file",
    );
    std::fs::hard_link(
        scratch.path().join("count.cta"),
        scratch.path().join("hard.ctm"),
    )
    .unwrap();
    refused(
        &scratch,
        &["asm", "count.cta", "-o", "hard.ctm"],
        "reads that file",
    );
}

#[test]
fn run_does_not_record_onto_the_scenario_or_its_programs() {
    let scratch = with_examples(
        "record-onto-input",
        &[
            "harvest/harvest.toml",
            "harvest/red.cta",
            "harvest/blue.cta",
            "harvest/plan.cta",
        ],
    );
    for target in ["red.cta", "harvest.toml", "plan.cta"] {
        refused(
            &scratch,
            &["run", "harvest.toml", "--steps", "2", "--record", target],
            "reads that file",
        );
    }
}

#[test]
fn a_tournament_does_not_record_a_round_onto_a_player() {
    let scratch = with_examples(
        "round-onto-player",
        &[
            "arena/arena.toml",
            "arena/hunter.cta",
            "arena/random.cta",
            "arena/common.cta",
        ],
    );
    refused(
        &scratch,
        &[
            "tournament",
            "--game",
            "arena.toml",
            "--rounds",
            "1",
            "--record-round",
            "1",
            "hunter.cta",
            "--players",
            "hunter.cta",
            "random.cta",
        ],
        "reads that file",
    );
}

// Output onto what is not a regular file.

#[test]
fn an_output_onto_a_directory_is_refused() {
    let scratch = with_examples("onto-dir", &["count.cta"]);
    std::fs::create_dir(scratch.path().join("out.ctm")).unwrap();
    refused(
        &scratch,
        &["asm", "count.cta", "-o", "out.ctm"],
        "is a directory",
    );
}

#[test]
fn dev_null_stays_a_device() {
    let scratch = with_examples("dev-null", &["count.cta"]);
    let before = snapshot(scratch.path());
    let out = run_capped(
        scratch.path(),
        &["asm", "count.cta", "-o", "/dev/null"],
        b"",
    );
    out.assert_success();
    assert_eq!(snapshot(scratch.path()), before);
    let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
    assert!(kind.is_char_device(), "/dev/null is still a device");
}

/// The first bytes of what `constree asm` writes: the binary form's magic.
const IMAGE: &[u8] = constree::image::binary::MAGIC;

#[test]
fn a_fifo_is_written_into_not_replaced() {
    let scratch = with_examples("fifo-out", &["count.cta"]);
    let fifo = scratch.path().join("image.fifo");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    let reader = std::thread::spawn(move || std::fs::read(fifo).unwrap());
    let out = run_capped(
        scratch.path(),
        &["asm", "count.cta", "-o", "image.fifo"],
        b"",
    );
    out.assert_success();
    let written = reader.join().unwrap();
    assert!(
        written.starts_with(IMAGE),
        "the image came through the FIFO"
    );
    let snap = snapshot(scratch.path());
    assert_eq!(snap[Path::new("image.fifo")], Entry::Fifo);
    assert_eq!(snap.len(), 2, "no temporary file left: {snap:?}");
}

#[test]
fn a_symlink_output_is_written_through_and_stays_a_link() {
    let scratch = with_examples("symlink-out", &["count.cta"]);
    scratch.write("real.ctm", "old");
    std::os::unix::fs::symlink("real.ctm", scratch.path().join("link.ctm")).unwrap();
    let out = run_capped(scratch.path(), &["asm", "count.cta", "-o", "link.ctm"], b"");
    out.assert_success();
    let snap = snapshot(scratch.path());
    assert_eq!(
        snap[Path::new("link.ctm")],
        Entry::Symlink(PathBuf::from("real.ctm"))
    );
    let Entry::File(image) = &snap[Path::new("real.ctm")] else {
        panic!("real.ctm is a file")
    };
    assert!(
        image.starts_with(IMAGE),
        "the image replaced the file the link names"
    );
    assert_eq!(snap.len(), 3, "no temporary file left: {snap:?}");
    // A link to nothing is refused.
    std::os::unix::fs::symlink("nowhere/x.ctm", scratch.path().join("dangling.ctm")).unwrap();
    refused(
        &scratch,
        &["asm", "count.cta", "-o", "dangling.ctm"],
        "does not exist",
    );
}

#[test]
fn planted_symlinks_under_temporary_names_redirect_nothing() {
    let scratch = with_examples("planted", &["count.cta"]);
    scratch.write("victim", "precious");
    // Every name the old scheme could use (`.NAME.PID.tmp`), for a range of
    // process ids, and a few guesses at other patterns.
    for pid in 1..2000 {
        std::os::unix::fs::symlink("victim", scratch.path().join(format!(".out.ctm.{pid}.tmp")))
            .unwrap();
    }
    std::os::unix::fs::symlink("victim", scratch.path().join(".out.ctm.tmp")).unwrap();
    let before = snapshot(scratch.path()).len();
    let out = run_capped(scratch.path(), &["asm", "count.cta", "-o", "out.ctm"], b"");
    out.assert_success();
    let snap = snapshot(scratch.path());
    assert_eq!(snap[Path::new("victim")], Entry::File(b"precious".to_vec()));
    assert!(matches!(&snap[Path::new("out.ctm")], Entry::File(b) if b.starts_with(IMAGE)));
    assert_eq!(snap.len(), before + 1, "only out.ctm was added");
}

// Generators.

#[test]
fn conformance_generate_does_not_replace_a_folder_of_vectors_unless_asked() {
    let scratch = Scratch::new("generate");
    scratch.write("vectors/machine.jsonl", "{\"precious\": true}\n");
    scratch.write("vectors/notes.txt", "mine");
    refused(
        &scratch,
        &[
            "conformance",
            "vectors",
            "--generate",
            "--machines",
            "3",
            "--worlds",
            "1",
        ],
        "--replace",
    );
    // A file where the folder would go.
    scratch.write("afile", "x");
    refused(
        &scratch,
        &[
            "conformance",
            "afile",
            "--generate",
            "--machines",
            "3",
            "--worlds",
            "1",
        ],
        "not a folder",
    );
    // With --replace: the folder is replaced whole.
    let out = run_capped(
        scratch.path(),
        &[
            "conformance",
            "vectors",
            "--generate",
            "--machines",
            "3",
            "--worlds",
            "1",
            "--replace",
        ],
        b"",
    );
    out.assert_success();
    let snap = snapshot(&scratch.path().join("vectors"));
    let names: Vec<_> = snap.keys().map(|p| p.display().to_string()).collect();
    assert_eq!(
        names,
        [
            "decode.jsonl",
            "encode.jsonl",
            "ints.jsonl",
            "machine.jsonl",
            "render.jsonl",
            "world.jsonl"
        ]
    );
    let Entry::File(machines) = &snap[Path::new("machine.jsonl")] else {
        panic!()
    };
    assert_eq!(machines.iter().filter(|&&b| b == b'\n').count(), 3);
    // Nothing else is left beside it.
    assert_eq!(
        std::fs::read_dir(scratch.path()).unwrap().count(),
        2,
        "vectors and afile only"
    );
}

#[test]
fn conformance_generate_refuses_counts_that_cannot_fit_before_writing() {
    let scratch = Scratch::new("generate-huge");
    for machines in ["18446744073709551615", "1000000000000"] {
        refused(
            &scratch,
            &[
                "conformance",
                "vectors",
                "--generate",
                "--machines",
                machines,
            ],
            "free",
        );
    }
}

// Settings.

#[test]
fn limit_settings_that_are_not_numbers_are_errors() {
    let scratch = with_examples("settings", &["count.cta"]);
    for var in ["CONSTREE_MAX_TEXT", "CONSTREE_MAX_INPUT"] {
        for value in ["abc", "-1", "1.5", ""] {
            let before = snapshot(scratch.path());
            let out = run_capped_with(
                scratch.path(),
                &["check", "count.cta"],
                b"",
                &[(var, value)],
            );
            out.assert_error(var);
            assert_eq!(snapshot(scratch.path()), before);
        }
    }
    let out = run_capped_with(
        scratch.path(),
        &["check", "count.cta"],
        b"",
        &[("CONSTREE_MAX_INPUT", "100000")],
    );
    out.assert_success();
}

// Inputs.

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn every_command_that_reads_a_file_reads_standard_input_for_dash() {
    let scratch = with_examples(
        "stdin",
        &[
            "count.cta",
            "harvest/harvest.toml",
            "harvest/red.cta",
            "harvest/blue.cta",
            "harvest/plan.cta",
            "arena/arena.toml",
            "arena/hunter.cta",
            "arena/random.cta",
            "arena/common.cta",
        ],
    );
    let read = |name: &str| std::fs::read(scratch.path().join(name)).unwrap();
    let image = run_capped(
        scratch.path(),
        &["asm", "count.cta", "-o", "count.ctm"],
        b"",
    );
    image.assert_success();
    let replay = run_capped(
        scratch.path(),
        &[
            "run",
            "harvest.toml",
            "--steps",
            "2",
            "--record",
            "game.json",
        ],
        b"",
    );
    replay.assert_success();
    let before = snapshot(scratch.path());
    let cases: Vec<(Vec<&str>, Vec<u8>, &str)> = vec![
        (vec!["check", "-"], read("count.cta"), ""),
        (
            vec!["exec", "-", "--steps", "1"],
            read("count.cta"),
            "step 1",
        ),
        (vec!["asm", "-", "-o", "/dev/null"], read("count.cta"), ""),
        (vec!["disasm", "-"], read("count.ctm"), "reg src"),
        (
            vec!["run", "-", "--steps", "1"],
            read("harvest.toml"),
            "Scores",
        ),
        (vec!["replay", "-"], read("game.json"), "step 2 of 2"),
        (vec!["test", "-"], read("harvest.toml"), "0 passed"),
        (
            vec![
                "tournament",
                "--game",
                "-",
                "--rounds",
                "1",
                "--players",
                "hunter.cta",
                "random.cta",
            ],
            read("arena.toml"),
            "rank",
        ),
        (
            vec![
                "tournament",
                "--game",
                "arena.toml",
                "--rounds",
                "1",
                "--players",
                "-",
                "random.cta",
            ],
            read("hunter.cta"),
            "rank",
        ),
        (
            vec!["debug", "--replay", "-"],
            read("game.json"),
            "Debugging",
        ),
        (vec!["debug", "-"], read("harvest.toml"), "Debugging"),
    ];
    for (args, stdin, needle) in cases {
        let out = run_capped(scratch.path(), &args, &stdin);
        assert!(
            matches!(out.code, Some(0) | Some(1)) && out.stdout.contains(needle),
            "{args:?}: {out:#?}"
        );
        assert!(!out.stderr.contains("cannot read"), "{args:?}: {out:#?}");
    }
    assert_eq!(snapshot(scratch.path()), before);
}

#[test]
fn a_fifo_named_on_the_command_line_is_read() {
    let scratch = with_examples("fifo-in", &["count.cta"]);
    let fifo = scratch.path().join("source.cta");
    mkfifo(&fifo);
    let text = std::fs::read(scratch.path().join("count.cta")).unwrap();
    let writer = std::thread::spawn(move || std::fs::write(fifo, text).unwrap());
    let out = run_capped(scratch.path(), &["check", "source.cta"], b"");
    writer.join().unwrap();
    out.assert_success();
}

#[test]
fn a_scenario_program_that_is_a_fifo_is_refused_without_blocking() {
    let scratch = with_examples(
        "fifo-program",
        &[
            "harvest/harvest.toml",
            "harvest/blue.cta",
            "harvest/plan.cta",
        ],
    );
    // Nobody ever writes red.cta: opening it would block forever.
    mkfifo(&scratch.path().join("red.cta"));
    refused(
        &scratch,
        &["run", "harvest.toml", "--steps", "1"],
        "red.cta",
    );
}

#[test]
fn inputs_are_read_up_to_the_cap_and_no_further() {
    let scratch = Scratch::new("input-cap");
    // An endless input: an error once the cap is passed.
    refused(&scratch, &["check", "/dev/zero"], "larger than");
    // Each kind of file at twice the cap and at 20 times.
    for size in [20_000, 200_000] {
        let text = "; a comment line of forty characters...\n".repeat(size / 40);
        for name in ["big.cta", "big.ctm", "big.toml", "big.json"] {
            scratch.write(name, &text);
        }
        for args in [
            vec!["check", "big.cta"],
            vec!["exec", "big.cta"],
            vec!["disasm", "big.ctm"],
            vec!["run", "big.toml"],
            vec!["replay", "big.json"],
            vec!["world", "step", "big.json"],
            vec!["machine", "run", "big.json"],
            vec!["check", "-"],
        ] {
            let before = snapshot(scratch.path());
            let out = run_capped_with(
                scratch.path(),
                &args,
                text.as_bytes(),
                &[("CONSTREE_MAX_INPUT", "10000")],
            );
            out.assert_error("larger than 10000 bytes");
            assert_eq!(snapshot(scratch.path()), before);
        }
    }
}

// Bounds.

/// A scenario of `size` x `size` squares with `items` entries of `count`
/// shields each.
fn scenario(size: usize, items: usize, count: u32) -> String {
    let mut text = format!("name = \"big\"\nsteps = 1\n[world]\nsize = [{size}, {size}]\n");
    for _ in 0..items {
        text.push_str(&format!(
            "[[item]]\nat = \"random\"\nshield = true\ncount = {count}\n"
        ));
    }
    text
}

#[test]
fn scenarios_too_large_for_memory_are_refused_before_they_are_built() {
    let scratch = Scratch::new("big-scenarios");
    // The largest grid the cell cap allows, and 300 entries of the largest
    // count; then ten times as many entries (a grid ten times larger is
    // past the cell cap).
    scratch.write("grid.toml", scenario(4096, 0, 1));
    scratch.write("items.toml", scenario(8, 300, 65_536));
    scratch.write("items10.toml", scenario(8, 3_000, 65_536));
    scratch.write("grid10.toml", scenario(12_953, 0, 1));
    for file in ["grid.toml", "items.toml", "items10.toml"] {
        for command in [vec!["run", file], vec!["debug", file]] {
            refused(&scratch, &command, "CONSTREE_MAX_WORLD_MEMORY");
        }
        // `test` reports each scenario on standard output, the errors of
        // one that does not load on standard error.
        let before = snapshot(scratch.path());
        let out = run_capped(scratch.path(), &["test", file], b"");
        assert_eq!(out.code, Some(1), "{out:#?}");
        assert!(
            out.stdout.contains("the scenario does not load"),
            "{out:#?}"
        );
        assert!(out.stderr.contains("CONSTREE_MAX_WORLD_MEMORY"), "{out:#?}");
        assert_eq!(snapshot(scratch.path()), before);
    }
    refused(&scratch, &["run", "grid10.toml"], "cells");
}

#[test]
fn robot_speed_is_capped_by_default_and_a_scenario_can_raise_the_cap() {
    let scratch = with_examples("speed", &["walker.cta"]);
    let robot = "[[robot]]\nname = \"fast\"\nat = [0, 0]\nprogram = \"walker.cta\"\n";
    let base = format!("name = \"fast\"\nsteps = 2\n[world]\nsize = [3, 3]\n{robot}");
    scratch.write(
        "endless.toml",
        format!("{base}speed = 9223372036854775807\n"),
    );
    refused(&scratch, &["run", "endless.toml"], "[limits] speed");
    // Just over the default cap, and ten times over.
    scratch.write("over.toml", format!("{base}speed = 10000001\n"));
    refused(&scratch, &["run", "over.toml"], "caps speeds at 10000000");
    scratch.write("over10.toml", format!("{base}speed = 100000000\n"));
    refused(&scratch, &["run", "over10.toml"], "caps speeds at 10000000");
    // A scenario that sets its own cap gets it.
    scratch.write(
        "raised.toml",
        format!("{base}speed = 20000000\n[limits]\nspeed = 20000000\n"),
    );
    run_capped(scratch.path(), &["run", "raised.toml", "--steps", "1"], b"").assert_success();
}

#[test]
fn replays_of_many_empty_steps_are_read_in_proportion_to_their_changes() {
    let scratch = with_examples(
        "empty-steps",
        &[
            "harvest/harvest.toml",
            "harvest/red.cta",
            "harvest/blue.cta",
            "harvest/plan.cta",
        ],
    );
    run_capped(
        scratch.path(),
        &[
            "run",
            "harvest.toml",
            "--steps",
            "1",
            "--record",
            "one.json",
        ],
        b"",
    )
    .assert_success();
    let one = std::fs::read_to_string(scratch.path().join("one.json")).unwrap();
    let at = one.find("\"steps\":[").expect("a steps field") + "\"steps\":[".len();
    for (name, steps) in [("million.json", 1_000_000), ("ten.json", 10_000_000)] {
        let mut text = one[..at].to_string();
        text.push_str(&"[],".repeat(steps));
        text.push_str(&one[at..]);
        scratch.write(name, text);
        let before = snapshot(scratch.path());
        for args in [
            vec!["replay", name],
            vec!["replay", name, "--step", "2"],
            vec!["replay", name, "--format", "json"],
        ] {
            let out = run_capped(scratch.path(), &args, b"");
            out.assert_success();
        }
        assert_eq!(snapshot(scratch.path()), before);
        std::fs::remove_file(scratch.path().join(name)).unwrap();
    }
}

#[test]
fn machine_run_of_a_growing_list_stops_at_the_node_cap() {
    let scratch = Scratch::new("growing");
    let source = "use std/control\nreg list 9223372036854775807\nreg one = [1]\nmain:\n    construct list, one, list\n    jmp main\n";
    let loader = constree::asm::source::MemoryLoader::default().with("grow.cta", source);
    let image = constree::asm::assemble_file(&loader, Path::new("grow.cta"))
        .image
        .unwrap();
    for speed in [100_000_000i64, 1_000_000_000, -1] {
        let input = serde_json::json!({ "speed": speed, "memory": image.memory() }).to_string();
        scratch.write("grow.json", &input);
        let before = snapshot(scratch.path());
        let out = run_capped(scratch.path(), &["machine", "run", "grow.json"], b"");
        out.assert_error("more than 8388608 tree nodes");
        assert!(!out.stderr.contains("shared"), "{}", out.stderr);
        assert_eq!(snapshot(scratch.path()), before);
    }
    // Below the cap it runs as the report says.
    let input = serde_json::json!({ "speed": 1000, "memory": image.memory() }).to_string();
    let out = run_capped(scratch.path(), &["machine", "run", "-"], input.as_bytes());
    out.assert_success();
}

// What the debugger shows.

#[test]
fn the_debugger_shows_sources_from_the_image_never_from_a_path_it_names() {
    let scratch = with_examples("sources", &["count.cta"]);
    scratch.write("secret.txt", "THE SECRET\n");
    run_capped(
        scratch.path(),
        &[
            "asm",
            "count.cta",
            "-o",
            "count.ctm",
            "--image-format",
            "json",
        ],
        b"",
    )
    .assert_success();
    std::fs::remove_file(scratch.path().join("count.cta")).unwrap();
    scratch.write("list.dbg", "list\n");
    // The image carries its sources: shown with the file gone.
    let out = run_capped(
        scratch.path(),
        &["debug", "count.ctm", "--batch", "list.dbg"],
        b"",
    );
    out.assert_success();
    assert!(out.stdout.contains("jnil src, done"), "{out:#?}");
    // An image of format version 1 (no sources) whose file is renamed to
    // another path: a note, and the file is not opened.
    let image = std::fs::read_to_string(scratch.path().join("count.ctm")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&image).unwrap();
    json["version"] = 1.into();
    json.as_object_mut().unwrap().remove("sources");
    for path in [
        scratch.path().join("secret.txt").display().to_string(),
        "secret.txt".into(),
        "/dev/zero".into(),
    ] {
        json["files"][0]["name"] = path.clone().into();
        scratch.write("old.ctm", json.to_string());
        let before = snapshot(scratch.path());
        let out = run_capped(
            scratch.path(),
            &["debug", "old.ctm", "--batch", "list.dbg"],
            b"",
        );
        out.assert_bounded();
        assert!(!out.stdout.contains("THE SECRET"), "{path}: {out:#?}");
        assert!(
            out.stderr.contains("carries no sources"),
            "{path}: {out:#?}"
        );
        assert_eq!(snapshot(scratch.path()), before);
    }
}

#[test]
fn names_and_sources_reach_the_terminal_with_control_characters_escaped() {
    let scratch = with_examples("escapes", &["walker.cta"]);
    let evil = "\u{1b}]0;owned\u{7}\u{1b}[2J";
    let source = std::fs::read_to_string(scratch.path().join("walker.cta")).unwrap();
    scratch.write("evil.cta", format!("; {evil}\n{source}"));
    // The same characters in a TOML string.
    let toml: String = evil
        .chars()
        .map(|c| {
            if c.is_control() {
                format!("\\u{:04X}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect();
    scratch.write(
        "evil.toml",
        format!(
            "name = \"{}\"\nsteps = 2\n[world]\nsize = [3, 3]\n[[robot]]\nname = \"r{}\"\nat = [0, 0]\nprogram = \"evil.cta\"\n[[player]]\nname = \"p{}\"\nhomes = [[0, 0]]\n",
            toml, toml, toml
        ),
    );
    scratch.write("list.dbg", "list 1\n");
    let robot = format!("r{evil}");
    for args in [
        vec!["run", "evil.toml"],
        vec!["run", "evil.toml", "--trace", &robot],
        vec!["run", "evil.toml", "--record", "evil.json"],
        vec!["replay", "evil.json"],
        vec!["debug", "evil.toml", "--batch", "list.dbg"],
        vec!["debug", "--replay", "evil.json", "--batch", "list.dbg"],
    ] {
        let out = run_capped(scratch.path(), &args, b"");
        out.assert_success();
        for text in [&out.stdout, &out.stderr] {
            assert!(
                !text.contains('\u{1b}') && !text.contains('\u{7}'),
                "{args:?}: {text}"
            );
        }
        assert!(out.stdout.contains("\\u{1b}"), "{args:?}: {out:#?}");
    }
}

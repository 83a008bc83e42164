//! `constree new` and `constree test`: a scaffolded project passes its own
//! expectations; a failing expectation is reported with its place; bad
//! expectations are load errors naming the file, line and field.

mod cli_common;

use cli_common::{arg, constree, scratch_dir, text};
use std::path::Path;
use std::process::{Command, Output};

/// `constree ARGS` run in a directory.
fn constree_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn a_new_project_passes_its_tests() {
    let root = scratch_dir("project_new");
    let out = constree_in(&root, &["new", "mybot"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "Created mybot: bot.cta, game.toml, README.md\nNext: cd mybot && constree test\n"
    );
    let project = root.join("mybot");
    let game = std::fs::read_to_string(project.join("game.toml")).unwrap();
    assert!(game.contains("name = \"mybot\""), "{game}");
    let out = constree_in(&project, &["test"]);
    assert_eq!(
        text(&out.stdout),
        "game.toml: mybot, 10 steps\n  ok      bot is at (4, 0) after 4 steps\n  ok      bot's trail is [nil, nil, nil, nil] after 4 steps\n  ok      Red scores 7 after 10 steps\n  ok      no robot's machine fails in 10 steps\n4 passed, 0 failed\n"
    );
    assert!(out.status.success());
    // The program assembles without a warning.
    let out = constree_in(&project, &["check", "bot.cta"]);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_next_step_is_a_command_a_shell_can_run() {
    let root = scratch_dir("project_quoted");
    for (name, quoted) in [("my bot", "'my bot'"), ("it's", "'it'\\''s'")] {
        let out = constree_in(&root, &["new", name]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let next = format!("Next: cd {quoted} && constree test\n");
        assert!(text(&out.stdout).ends_with(&next), "{}", text(&out.stdout));
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("cd {quoted} && pwd"))
            .current_dir(&root)
            .output()
            .unwrap();
        assert!(text(&out.stdout).trim_end().ends_with(name), "{name}");
    }
}

#[test]
fn a_failing_expectation_is_reported_where_it_is_written() {
    let root = scratch_dir("project_failing");
    assert!(constree_in(&root, &["new", "p"]).status.success());
    let project = root.join("p");
    let game = project.join("game.toml");
    let text_of = std::fs::read_to_string(&game).unwrap();
    let line = text_of.lines().position(|l| l.contains("trail =")).unwrap() + 1;
    std::fs::write(
        &game,
        text_of
            .replace("Red = 7", "Red = 8")
            .replace("[nil, nil, nil, nil]", "[nil, nil, nil]"),
    )
    .unwrap();
    let out = constree_in(&project, &["test", "game.toml"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("  FAILED  game.toml:{line}: expected bot's trail is [nil, nil, nil] after 4 steps, but it is list [nil, nil, nil, nil]\n")),
        "{stdout}"
    );
    assert!(
        stdout.contains("expected Red scores 8 after 10 steps, but Red scores 7"),
        "{stdout}"
    );
    assert!(stdout.ends_with("2 passed, 2 failed\n"), "{stdout}");
}

#[test]
fn machine_errors_are_warned_about_and_can_fail_the_test() {
    let root = scratch_dir("project_machine_error");
    assert!(constree_in(&root, &["new", "p"]).status.success());
    let project = root.join("p");
    // Without its test for the end of the trail, the bot pops Nil once it
    // is home: its machine fails, and every register is wiped.
    let bot = project.join("bot.cta");
    let source = std::fs::read_to_string(&bot).unwrap();
    let line = source
        .lines()
        .position(|l| l.split_whitespace().take(2).eq(["pop", "trail,"]))
        .unwrap();
    std::fs::write(
        &bot,
        source.replace("    jnil trail, rest ", "    ; jnil trail, rest "),
    )
    .unwrap();
    let warning = format!(
        "  warning bot's machine failed in step 9: deconstruct of Nil in trail (r3); every register wiped, in `deconstruct trail, scratch, trail` at bot.cta:{} (pop)\n",
        line + 1
    );
    let out = constree_in(&project, &["test"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("  FAILED  game.toml:29: expected no robot's machine fails in 10 steps, but bot's machine failed in step 9\n"),
        "{stdout}"
    );
    assert!(stdout.contains(&warning), "{stdout}");
    // Allowed, machine errors are only warned about.
    let game = project.join("game.toml");
    let text_of = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text_of.replace("machine_errors = false", "machine_errors = true"),
    )
    .unwrap();
    let out = constree_in(&project, &["test"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.ends_with(&format!("{warning}3 passed, 0 failed\n")),
        "{stdout}"
    );
}

#[test]
fn new_refuses_a_directory_that_is_not_empty() {
    let root = scratch_dir("project_refuse");
    std::fs::write(root.join("keep.txt"), "mine").unwrap();
    let out = constree(&["new", arg(&root)], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("already exists and is not empty"));
    assert_eq!(
        std::fs::read_to_string(root.join("keep.txt")).unwrap(),
        "mine"
    );
    assert!(!root.join("bot.cta").exists());
    // An empty directory is fine.
    let empty = root.join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert!(constree(&["new", arg(&empty)], "").status.success());
    assert!(empty.join("bot.cta").is_file());
}

#[test]
fn test_without_scenarios_or_expectations_fails() {
    let root = scratch_dir("project_nothing");
    let out = constree_in(&root, &["test"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no scenario (.toml) in this directory"));
    let out = constree(&["test", "examples/walk/walk.toml"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("examples/walk/walk.toml: no [expect] table, nothing checked")
    );
    assert!(text(&out.stderr).contains("nothing was checked"));
    // A scenario that does not load counts as a failure.
    let out = constree(&["test", "nowhere.toml"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("FAILED  nowhere.toml: the scenario does not load"));
    assert!(text(&out.stderr).contains("nowhere.toml: cannot read the scenario"));
}

/// A scenario with the given `[expect]` table, loaded.
fn load(expect: &str) -> Result<constree::scenario::Scenario, String> {
    let text = format!(
        "steps = 5\n[world]\nmap = \"A.B\"\n[[robot]]\nname = \"r\"\nat = \"A\"\nprogram = \"p.cta\"\n[[player]]\nname = \"Red\"\nhomes = [\"A\"]\n{expect}"
    );
    let programs = |_: &str| -> Result<constree::image::Image, constree::scenario::ProgramError> {
        let loader = constree::asm::source::MemoryLoader::default()
            .with("p.cta", "use std/control\nreg out = Move E\nreg count = 3\nreg heading = S\nreg marks = [nil]\nmain:\n    emit Pass\n    jmp main\n");
        constree::scenario::load_program(&loader, Path::new("p.cta"))
    };
    constree::scenario::Scenario::from_text("s.toml", &text, &programs).map_err(|e| e.to_string())
}

#[test]
fn bad_expectations_name_the_line_and_field() {
    for (expect, message) in [
        (
            "[expect]\nscores = { Blue = 1 }\n",
            "s.toml:12:19: expect.scores.Blue: no player named \"Blue\" (players: Red)",
        ),
        (
            "[[expect.robot]]\nname = \"q\"\nat = \"B\"\n",
            "s.toml:12:8: expect.robot[0].name: no robot named \"q\" (robots: r)",
        ),
        (
            "[[expect.robot]]\nname = \"r\"\n",
            "s.toml:11:1: expect.robot[0]: nothing to check",
        ),
        (
            "[[expect.robot]]\nname = \"r\"\nafter = 9\nat = \"B\"\n",
            "s.toml:13:9: expect.robot[0].after: after 9 steps, but the test plays 5",
        ),
        (
            "[[expect.robot]]\nname = \"r\"\nat = \"Z\"\n",
            "s.toml:13:6: expect.robot[0].at: no mark \"Z\"",
        ),
        (
            "[[expect.robot]]\nname = \"r\"\nregisters = { nothing = \"1\" }\n",
            "s.toml:13:25: expect.robot[0].registers.nothing: robot \"r\" has no register \"nothing\"",
        ),
        (
            "[[expect.robot]]\nname = \"r\"\nregisters = { count = \"[1,\" }\n",
            "s.toml:13:23: expect.robot[0].registers.count: not a value of the language",
        ),
        ("[expect]\nsteps = -1\n", "s.toml:12:9"),
        ("[expect]\nscore = 3\n", "unknown field `score`"),
        (
            "[expect]\nscores = { Red = \"x\" }\n",
            "s.toml:12:18: expect.scores.Red: invalid type: string \"x\", expected i64",
        ),
        (
            "[[expect.robot]]\nname = \"r\"\nafter = true\n",
            "s.toml:13:9: expect.robot[0].after: invalid type: boolean `true`",
        ),
        (
            "[expect]\nmachine_errors = \"no\"\n",
            "s.toml:12:18: expect.machine_errors: invalid type: string \"no\", expected a boolean",
        ),
    ] {
        let error = load(expect).expect_err(expect);
        // `s.toml:LINE:COLUMN: MESSAGE`: the place heads the drawn source
        // (`╭─[ s.toml:LINE:COLUMN ]`), the message the error.
        let mut parts = message.splitn(4, ':');
        let (file, line, column) = (parts.next(), parts.next(), parts.next());
        let (place, text) = match (file, line, column, parts.next()) {
            (Some("s.toml"), Some(l), Some(c), rest) => (
                Some(format!("s.toml:{l}:{c} ]")),
                rest.map_or("", str::trim_start),
            ),
            _ => (None, message),
        };
        assert!(
            place.is_none_or(|p| error.contains(&p)) && error.contains(text),
            "{expect}:\n{error}\nexpected: {message}"
        );
    }
}

#[test]
fn a_value_found_is_shown_in_the_kind_expected() {
    let scenario = load(
        "[[expect.robot]]\nname = \"r\"\nafter = 0\nregisters = { marks = \"[nil, nil]\", heading = \"W\", count = \"[nil]\", out = \"Move S\", 2 = \"5\" }\n",
    )
    .unwrap();
    let run = scenario.expect.as_ref().unwrap().run(&scenario);
    let failures: Vec<String> = run
        .outcomes
        .iter()
        .map(|o| {
            format!(
                "{}: {}",
                o.description,
                o.failure.as_deref().unwrap_or("ok")
            )
        })
        .collect();
    assert_eq!(
        failures,
        [
            "r's 2 is 5 after 0 steps: it is int 4",
            "r's count is [nil] after 0 steps: it is list [[nil], [nil]]",
            "r's heading is W after 0 steps: it is direction S",
            "r's marks is [nil, nil] after 0 steps: it is list [nil]",
            "r's out is Move S after 0 steps: it is command Move E",
        ]
        .map(String::from)
    );
}

#[test]
fn expectations_are_checked_at_their_steps() {
    let scenario = load(
        "[expect]\nsteps = 3\nscores = { Red = 0 }\n[[expect.robot]]\nname = \"r\"\nafter = 0\nat = \"A\"\nregisters = { count = \"3\", 2 = \"Move E\" }\n[[expect.robot]]\nname = \"r\"\nafter = 1\nat = [1, 0]\nregisters = { out = \"Pass\" }\n",
    )
    .unwrap();
    let expect = scenario.expect.as_ref().unwrap();
    assert_eq!(expect.steps, 3);
    let outcomes = expect.run(&scenario).outcomes;
    let shown: Vec<String> = outcomes
        .iter()
        .map(|o| format!("{}: {} {:?}", o.check.place, o.description, o.failure))
        .collect();
    assert_eq!(
        shown,
        [
            "s.toml:17: r is at (0, 0) after 0 steps None",
            "s.toml:18: r's 2 is Move E after 0 steps None",
            "s.toml:18: r's count is 3 after 0 steps None",
            "s.toml:22: r is at (1, 0) after 1 step None",
            "s.toml:23: r's out is Pass after 1 step None",
            "s.toml:13: Red scores 0 after 3 steps None",
        ]
        .map(String::from)
    );
}

#[test]
fn filter_quiet_and_verbose_choose_what_test_checks_and_prints() {
    let root = scratch_dir("project_filter");
    assert!(constree_in(&root, &["new", "p"]).status.success());
    let project = root.join("p");
    let game = project.join("game.toml");
    let original = std::fs::read_to_string(&game).unwrap();
    std::fs::write(&game, original.replace("Red = 7", "Red = 8")).unwrap();
    // Only the checks whose description contains the text are checked.
    let out = constree_in(&project, &["test", "--filter", "trail"]);
    assert_eq!(
        text(&out.stdout),
        "game.toml: p, 10 steps\n  ok      bot's trail is [nil, nil, nil, nil] after 4 steps\n1 passed, 0 failed\n"
    );
    assert!(out.status.success());
    // Quiet: the failure under its file, and the count; nothing that passed.
    let out = constree_in(&project, &["test", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("game.toml: p, 10 steps\n  FAILED  game.toml:"),
        "{stdout}"
    );
    assert!(!stdout.contains("ok "), "{stdout}");
    assert!(stdout.ends_with("3 passed, 1 failed\n"), "{stdout}");
    // Verbose: where each check that passed is written.
    let line = original
        .lines()
        .position(|l| l.contains("trail ="))
        .unwrap()
        + 1;
    let out = constree_in(&project, &["test", "--verbose", "--filter", "trail"]);
    assert!(
        text(&out.stdout).contains(&format!("after 4 steps (game.toml:{line}")),
        "{}",
        text(&out.stdout)
    );
    // A filter that matches nothing is an error, not a pass.
    let out = constree_in(&project, &["test", "--filter", "no such check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no expectation's description contains"));
}

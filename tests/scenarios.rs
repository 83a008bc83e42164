//! Scenarios and `constree run` / `constree replay`: every example game
//! played to its scores and golden boards, the JSON output against the
//! library's engine, replays step by step, and bad scenarios.

mod cli_common;

use cli_common::{arg, constree, example, failure_of, load, scratch_dir, stdout_of, text};
use constree::scenario::Scenario;
use constree::scenario::game::Game;
use constree::scenario::replay::Replay;
use constree::world::World;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Every example scenario, its final scores (highest first) and where its
/// robots end. A scenario added to `examples/` without an entry here fails
/// [`every_example_scenario_is_tested`].
const EXAMPLES: &[(&str, &[(&str, i64)])] = &[
    // A tournament game: its players are the tournament's (tests/arena.rs);
    // `run` shows the arena without them.
    ("arena/arena.toml", &[]),
    ("builder/workshop.toml", &[("Green", 30)]),
    ("fight/fight.toml", &[("Blue", 10), ("Red", 0)]),
    ("harvest/harvest.toml", &[("Red", 16), ("Blue", 4)]),
    ("inspection/temple.toml", &[("Guard", 3)]),
    ("knapsack/knapsack.toml", &[("Green", 38)]),
    ("replicator/replicator.toml", &[("Green", 35)]),
    ("walk/walk.toml", &[("Green", 0)]),
];

/// The library's game after `steps` steps.
fn played(scenario: &Scenario, steps: u64) -> World {
    let mut game = Game::new(scenario);
    for _ in 0..steps {
        game.play_step(None);
    }
    game.world
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).expect("run --format json prints JSON")
}

fn world_of(result: &Value) -> World {
    serde_json::from_value(result["world"].clone()).expect("a world in the conformance schema")
}

fn scores_of(result: &Value) -> Vec<(String, i64)> {
    result["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|s| {
            (
                s["player"].as_str().unwrap().to_string(),
                s["score"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_example_scenario_is_tested() {
    let mut found = Vec::new();
    for dir in std::fs::read_dir(example("")).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            for file in std::fs::read_dir(&dir).unwrap() {
                let file = file.unwrap().path();
                if file.extension().is_some_and(|e| e == "toml") {
                    let rel = file.strip_prefix(example("")).unwrap();
                    found.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    found.sort();
    let listed: Vec<String> = EXAMPLES.iter().map(|(p, _)| p.to_string()).collect();
    assert_eq!(found, listed);
}

#[test]
fn example_scenarios_play_to_their_scores_and_boards() {
    for (path, expected) in EXAMPLES {
        let file = example(path);
        let name = path.split('/').next().unwrap();
        let first = stdout_of(&["run", arg(&file), "--steps", "0"]);
        let last = stdout_of(&["run", arg(&file)]);
        assert!(!last.contains('\x1b'), "plain output when piped");
        insta::assert_snapshot!(format!("{name}_first"), first);
        insta::assert_snapshot!(format!("{name}_last"), last);
        let result = json(&["run", arg(&file), "--format", "json"]);
        let want: Vec<(String, i64)> = expected.iter().map(|(p, s)| (p.to_string(), *s)).collect();
        assert_eq!(scores_of(&result), want, "{path}");
    }
}

#[test]
fn run_and_test_score_by_the_scenarios_rule() {
    // Two Red robots and a Blue one stand on a square each; under the
    // survivors rule each player's score is its robots left, 2 points each
    // for the two players with robots.
    let dir = scratch_dir("survivors_rule");
    let game = dir.join("game.toml");
    std::fs::write(
        &game,
        "steps = 1\nscoring = \"survivors\"\n[world]\nsize = [4, 1]\n\
         [[robot]]\nat = [0, 0]\n[[robot]]\nat = [1, 0]\n[[robot]]\nat = [2, 0]\ncolor = \"Blue\"\n\
         [[player]]\nname = \"reds\"\nhomes = []\ncolor = \"Red\"\n\
         [[player]]\nname = \"blues\"\nhomes = []\ncolor = \"Blue\"\n\
         [[player]]\nname = \"greens\"\nhomes = []\ncolor = \"Green\"\n\
         [expect]\nscores = { reds = 2, greens = 0, blues = 3 }\n",
    )
    .unwrap();
    let shown = stdout_of(&["run", arg(&game)]);
    assert!(
        shown.ends_with(
            "Scores\n  blues        2 points   1 robot\n  reds         2 points   2 robots\n  greens       0 points   0 robots\n"
        ),
        "{shown}"
    );
    let result = json(&["run", arg(&game), "--format", "json"]);
    assert_eq!(result["scores"][1]["robots"], 2, "{result}");
    assert_eq!(result["scores"][1]["points"], 2, "{result}");
    let out = constree(&["test", arg(&game)], "");
    let report = text(&out.stdout);
    assert!(report.contains("  ok      reds scores 2"), "{report}");
    assert!(
        report.contains("expected blues scores 3 after 1 step, but blues scores 2 (1 robot)"),
        "{report}"
    );
    assert!(report.ends_with("2 passed, 1 failed\n"), "{report}");
}

#[test]
fn watch_shows_the_starting_world_then_every_step() {
    let walk = example("walk/walk.toml");
    let shown = stdout_of(&["run", arg(&walk), "--watch", "--delay", "0", "--steps", "2"]);
    let headings: Vec<&str> = shown.lines().filter(|l| l.starts_with("Walk — ")).collect();
    assert_eq!(
        headings,
        [
            "Walk — step 0 of 2",
            "Walk — step 1 of 2",
            "Walk — step 2 of 2"
        ]
    );
    let start = stdout_of(&["run", arg(&walk), "--steps", "0"]);
    let first_board = start.split_once('\n').unwrap().1;
    assert!(shown.contains(first_board), "{shown}");
}

#[test]
fn the_built_in_game_is_the_harvest_example() {
    let builtin = stdout_of(&["run", "--format", "json"]);
    let file = stdout_of(&[
        "run",
        arg(&example("harvest/harvest.toml")),
        "--format",
        "json",
    ]);
    assert_eq!(builtin, file);
    assert!(stdout_of(&["run"]).starts_with("Harvest — after 20 steps\n"));
}

#[test]
fn the_walker_ends_against_the_east_wall() {
    let result = json(&["run", arg(&example("walk/walk.toml")), "--format", "json"]);
    let world = world_of(&result);
    let squares: Vec<usize> = world
        .cells
        .iter()
        .map(|c| c.as_ref().map_or(0, |s| s.robots.len()))
        .collect();
    assert_eq!(squares, [0, 0, 0, 0, 0, 1]);
}

#[test]
fn json_output_is_the_engines_own_world() {
    for (path, _) in EXAMPLES {
        let file = example(path);
        let scenario = load(&file);
        for steps in [0, 1, scenario.steps] {
            let result = json(&[
                "run",
                arg(&file),
                "--steps",
                &steps.to_string(),
                "--format",
                "json",
            ]);
            assert_eq!(
                world_of(&result),
                played(&scenario, steps),
                "{path} after {steps} steps"
            );
        }
    }
}

#[test]
fn run_agrees_with_world_step_from_the_initial_world() {
    for (path, _) in EXAMPLES {
        let file = example(path);
        let steps = load(&file).steps.to_string();
        let start = json(&["run", arg(&file), "--steps", "0", "--format", "json"]);
        let end = json(&["run", arg(&file), "--format", "json"]);
        let initial = serde_json::to_string(&start["world"]).unwrap();
        let out = constree(&["world", "step", "-", "--steps", &steps], &initial);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stepped: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(stepped, end["world"], "{path}");
    }
}

#[test]
fn a_replay_gives_back_every_step() {
    let dir = scratch_dir("replay_every_step");
    for (path, _) in EXAMPLES {
        let file = example(path);
        let scenario = load(&file);
        let record = dir.join("game.json");
        stdout_of(&["run", arg(&file), "--record", arg(&record)]);
        let replay = Replay::load(&record).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(replay.name, scenario.name);
        assert_eq!(replay.len() as u64, scenario.steps + 1);
        let mut game = Game::new(&scenario);
        for (k, world) in replay.worlds().enumerate() {
            assert_eq!(world, game.world, "{path}: step {k}");
            game.play_step(None);
        }
        // Saved again, it reads back the same.
        let again = dir.join("again.json");
        replay.save(&again).unwrap();
        assert_eq!(Replay::load(&again).unwrap(), replay);
        // `replay --step K` shows what `run --steps K` shows.
        for k in [0, 1, scenario.steps] {
            let shown = stdout_of(&[
                "replay",
                arg(&record),
                "--step",
                &k.to_string(),
                "--format",
                "json",
            ]);
            let run = stdout_of(&[
                "run",
                arg(&file),
                "--steps",
                &k.to_string(),
                "--format",
                "json",
            ]);
            assert_eq!(shown, run, "{path}: step {k}");
        }
        let last = stdout_of(&["replay", arg(&record)]);
        assert!(
            last.contains(&format!("step {} of {}", scenario.steps, scenario.steps)),
            "{last}"
        );
    }
}

/// Records the walk example into `dir/game.json`.
fn record_walk(dir: &Path) -> PathBuf {
    let record = dir.join("game.json");
    stdout_of(&[
        "run",
        arg(&example("walk/walk.toml")),
        "--record",
        arg(&record),
    ]);
    record
}

#[test]
fn replay_errors_say_what_is_wrong() {
    let dir = scratch_dir("replay_errors");
    let record = record_walk(&dir);
    let err = failure_of(&["replay", arg(&record), "--step", "9"]);
    assert!(err.contains("there is no step 9 (steps 0 to 8)"), "{err}");
    let broken = dir.join("broken.json");
    let full = std::fs::read_to_string(&record).unwrap();
    std::fs::write(&broken, &full[..full.len() / 2]).unwrap();
    failure_of(&["replay", arg(&broken)]);
    std::fs::write(&broken, full.replace("\"version\":2", "\"version\":99")).unwrap();
    let err = failure_of(&["replay", arg(&broken)]);
    assert!(err.contains("version"), "{err}");
    // A later version's fields are not looked at: its version is the answer.
    std::fs::write(
        &broken,
        r#"{"format": "constree-replay", "version": 3, "title": "Harvest"}"#,
    )
    .unwrap();
    assert_eq!(
        failure_of(&["replay", arg(&broken)]),
        cli_common::placeless_error(
            constree::diagnostic::Code::E1103,
            &format!(
                "{}: replay format version 3 is not supported (this constree reads versions 1 to 2)",
                arg(&broken)
            )
        )
    );
    assert!(
        full.contains("\"steps\":[[[0,"),
        "the walker's first step changes cell 0"
    );
    std::fs::write(
        &broken,
        full.replace("\"steps\":[[[0,", "\"steps\":[[[999,"),
    )
    .unwrap();
    let err = failure_of(&["replay", arg(&broken)]);
    assert!(
        err.contains("corrupt replay: step 1: there is no cell 999"),
        "{err}"
    );
    failure_of(&["replay", arg(&dir.join("missing.json"))]);
}

#[test]
fn a_failed_run_leaves_an_earlier_recording_alone() {
    let dir = scratch_dir("record_kept");
    let record = record_walk(&dir);
    let before = std::fs::read(&record).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[world]\nsize = [2, 2]\n[[robot]]\nat = [5, 5]\n").unwrap();
    failure_of(&["run", arg(&bad), "--record", arg(&record)]);
    assert_eq!(std::fs::read(&record).unwrap(), before);
    // A recording into a missing directory fails before anything is played.
    let err = failure_of(&[
        "run",
        arg(&example("walk/walk.toml")),
        "--record",
        arg(&dir.join("no/such/dir/r.json")),
    ]);
    assert!(err.contains("r.json"), "{err}");
}

/// A program that passes twice, then takes Nil apart: the machine fails in
/// its third step and the engine wipes it.
const FAULTY: &str = "\
use std/control
reg out = Pass
reg x
main:
    emit Pass
    car x, x
    jmp main
";

#[test]
fn trace_shows_commands_actions_and_the_failing_line() {
    let dir = scratch_dir("trace");
    std::fs::write(dir.join("faulty.cta"), FAULTY).unwrap();
    std::fs::write(
        dir.join("game.toml"),
        "steps = 3\n[world]\nsize = [3, 1]\n[[robot]]\nname = \"bot\"\nat = [0, 0]\nspeed = 50\nprogram = \"faulty.cta\"\n",
    )
    .unwrap();
    let out = stdout_of(&["run", arg(&dir.join("game.toml")), "--trace", "bot"]);
    let trace: Vec<&str> = out
        .lines()
        .take_while(|l| l.starts_with("step ") || l.starts_with("    "))
        .collect();
    insta::assert_snapshot!("trace_faulty", trace.join("\n").replace(arg(&dir), "DIR"));
    assert!(out.contains("machine error"), "{out}");
    assert!(
        out.contains("faulty.cta:6"),
        "the failing `car` is on line 6:\n{out}"
    );
    let err = failure_of(&["run", arg(&dir.join("game.toml")), "--trace", "nobody"]);
    assert!(
        err.contains("no robot named \"nobody\" (robots: bot)"),
        "{err}"
    );
}

#[test]
fn fight_trace_follows_the_winner() {
    let out = stdout_of(&["run", arg(&example("fight/fight.toml")), "--trace", "red"]);
    assert!(out.contains("step 4: red is gone (destroyed)"), "{out}");
    let out = stdout_of(&["run", arg(&example("fight/fight.toml")), "--trace", "blue"]);
    assert!(
        out.contains("step 4: blue at (2, 1): Destroy 0 -> destroyed robot 0"),
        "{out}"
    );
}

/// Writes `files` into a fresh directory and runs `constree run` on the
/// first; returns its standard error (exit code 1, no panic).
fn bad_run(test: &str, files: &[(&str, &str)]) -> String {
    let dir = scratch_dir(test);
    for (name, body) in files {
        std::fs::write(dir.join(name), body).unwrap();
    }
    failure_of(&["run", arg(&dir.join(files[0].0))]).replace(arg(&dir), "DIR")
}

const GRID: &str = "[world]\nmap = \"\"\"\nA#.\n...\n\"\"\"\n";

#[test]
fn bad_scenarios_name_file_line_and_field() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "unknown_key",
            "[world]\nsize = [2, 2]\ncolour = 3\n",
            "bad.toml:3:1: world.colour: unknown field `colour`, expected one of `size`, `wrap`, `map`",
        ),
        (
            "unknown_robot_key",
            "[world]\nsize = [2, 2]\n[[robot]]\nat = [0, 0]\nspeeed = 3\n",
            "bad.toml:5:1: robot[0].speeed: unknown field `speeed`",
        ),
        (
            "on_a_wall",
            &format!("{GRID}[[robot]]\nat = [1, 0]\n"),
            "bad.toml:7:6: robot[0].at: (1, 0) is a wall",
        ),
        (
            "off_the_grid",
            &format!("{GRID}[[item]]\nat = [3, 0]\nshield = true\n"),
            "bad.toml:7:6: item[0].at: (3, 0) is off the 3 x 2 grid (columns 0 to 2, rows 0 to 1)",
        ),
        (
            "no_such_mark",
            &format!("{GRID}[[player]]\nname = \"P\"\nhomes = [\"Z\"]\n"),
            "bad.toml:8:10: player[0].homes[0]: no mark \"Z\" on the map (marks: A)",
        ),
        (
            "bad_colour",
            "[world]\nsize = [2, 2]\n[[robot]]\nat = [0, 0]\ncolor = \"Pink\"\n",
            "robot[0].color: \"Pink\" is not a colour",
        ),
        (
            "two_kinds",
            "[world]\nsize = [2, 2]\n[[item]]\nat = [0, 0]\nshield = true\nprocessor = 3\n",
            "item[0]: an item is one thing",
        ),
        (
            "ragged_map",
            "[world]\nmap = \"\"\"\n...\n..\n\"\"\"\n",
            "world.map: row 2 has 2 squares, the first row has 3",
        ),
        (
            "huge_grid",
            "[world]\nsize = [4294967296, 4294967296]\n",
            "world.size: a grid of 4294967296 x 4294967296 cells",
        ),
        (
            "huge_count",
            "[world]\nsize = [2, 2]\n[[item]]\nat = [0, 0]\nshield = true\ncount = 4000000000\n",
            "item[0].count: 4000000000 items",
        ),
        (
            "survivors_player_without_colour",
            "scoring = \"survivors\"\n[world]\nsize = [2, 2]\n[[player]]\nname = \"P\"\nhomes = []\n",
            "bad.toml:4:1: player[0]: the \"survivors\" rule counts a player's robots by their colour",
        ),
        ("not_toml", "[world\n", "bad.toml:1:7:"),
        (
            "short_cargo",
            "[world]\nsize = [2, 2]\n[[item]]\nat = [0, 0]\ncargo = [1]\n",
            "bad.toml:5:9: item[0].cargo: invalid length 1, expected an array of length 2",
        ),
        (
            "nested_value",
            "[world]\nsize = [2, 2]\n[[player]]\nname = \"P\"\nhomes = [[0, \"x\"]]\n",
            "bad.toml:5:9: player[0].homes: a position: [x, y], a mark on the map (\"A\") or \"random\"",
        ),
        (
            "missing_program",
            "[world]\nsize = [2, 2]\n[[robot]]\nat = [0, 0]\nprogram = \"nothere.cta\"\n",
            "bad.toml:5:11: robot[0].program: there is no program file DIR/nothere.cta",
        ),
    ];
    for (test, scenario, expected) in cases {
        let err = bad_run(test, &[("bad.toml", scenario)]);
        assert!(err.starts_with("[E08"), "{test}: {err}");
        // `bad.toml:LINE:COLUMN: MESSAGE`: the place heads the drawn
        // source (`╭─[ DIR/bad.toml:LINE:COLUMN ]`), the message the error.
        let (place, message) = match expected.strip_prefix("bad.toml:") {
            Some(rest) => {
                let mut parts = rest.splitn(3, ':');
                let (line, column) = (parts.next().unwrap(), parts.next().unwrap());
                let message = parts.next().unwrap().trim_start();
                (Some(format!("DIR/bad.toml:{line}:{column} ]")), message)
            }
            None => (None, *expected),
        };
        if let Some(place) = place {
            assert!(err.contains(&place), "{test}: expected {place:?} in\n{err}");
        }
        assert!(
            err.contains(message),
            "{test}: expected {message:?} in\n{err}"
        );
    }
}

#[test]
fn a_program_that_does_not_assemble_shows_its_diagnostics() {
    let err = bad_run(
        "does_not_assemble",
        &[
            (
                "bad.toml",
                "[world]\nsize = [2, 2]\n[[robot]]\nat = [0, 0]\nprogram = \"broken.cta\"\n",
            ),
            ("broken.cta", "use std/control\nmain:\n    jmp nowhere\n"),
        ],
    );
    assert!(
        err.contains("[E0806] Error: robot[0].program: DIR/broken.cta does not assemble")
            && err.contains("DIR/bad.toml:5:11 ]"),
        "{err}"
    );
    assert!(
        err.contains("nowhere"),
        "the assembler's diagnostic is shown:\n{err}"
    );
    assert!(
        err.contains("broken.cta:3:"),
        "with the source position:\n{err}"
    );
}

#[test]
fn register_limits_must_hold_the_program() {
    let walker = example("walker.cta");
    let scenario = |limits: &str| {
        format!(
            "[world]\nsize = [2, 2]\n[[robot]]\nat = [0, 0]\nprogram = {:?}\nregisters = {limits}\n",
            arg(&walker)
        )
    };
    // The walker's image: prog, in, out, then its own registers.
    let image = load_image_limits(&walker);
    let fitting: Vec<String> = image.iter().map(|l| l.to_string()).collect();
    let dir = scratch_dir("limits_ok");
    std::fs::write(
        dir.join("ok.toml"),
        scenario(&format!("[{}]", fitting.join(", "))),
    )
    .unwrap();
    stdout_of(&["run", arg(&dir.join("ok.toml")), "--steps", "1"]);
    // `out` holds `Move E` (4 conses): a limit of 2 cannot hold it.
    let mut small = fitting.clone();
    small[2] = "2".to_string();
    let err = bad_run(
        "limits_small",
        &[("bad.toml", &scenario(&format!("[{}]", small.join(", "))))],
    );
    assert!(
        err.contains(
            "robot[0].registers: register 2 (`out`) holds 4 conses, which do not fit the limit 2"
        ),
        "{err}"
    );
    let err = bad_run("limits_few", &[("bad.toml", &scenario("[100, 100, 100]"))]);
    assert!(
        err.contains(&format!(
            "the program has {} registers, but 3 limits are listed",
            image.len()
        )),
        "{err}"
    );
}

/// The register limits of a program's image.
fn load_image_limits(program: &Path) -> Vec<i64> {
    let dir = scratch_dir("limits_image");
    std::fs::write(
        dir.join("s.toml"),
        format!(
            "[world]\nsize = [1, 1]\n[[robot]]\nat = [0, 0]\nprogram = {:?}\n",
            arg(program)
        ),
    )
    .unwrap();
    load(&dir.join("s.toml")).robots[0]
        .memory
        .iter()
        .map(|r| r.limit)
        .collect()
}

#[test]
fn a_missing_scenario_is_an_error() {
    let err = failure_of(&["run", "no/such/scenario.toml"]);
    assert!(
        err.contains("no/such/scenario.toml") && err.contains("cannot read the scenario"),
        "{err}"
    );
}

#[test]
fn random_placement_follows_the_seed() {
    let dir = scratch_dir("random");
    let scenario = |seed: u64| {
        format!(
            "seed = {seed}\n[world]\nsize = [8, 8]\n[[item]]\nat = \"random\"\ncargo = [1, 1]\ncount = 5\n"
        )
    };
    let world = |seed: u64| {
        std::fs::write(dir.join("s.toml"), scenario(seed)).unwrap();
        world_of(&json(&[
            "run",
            arg(&dir.join("s.toml")),
            "--steps",
            "0",
            "--format",
            "json",
        ]))
    };
    let items = |w: &World| -> Vec<usize> {
        w.cells
            .iter()
            .map(|c| c.as_ref().map_or(0, |s| s.items.len()))
            .collect()
    };
    let (a, b, c) = (world(1), world(1), world(2));
    assert_eq!(a, b, "the same seed places alike");
    assert_eq!(items(&a).iter().sum::<usize>(), 5);
    assert_ne!(items(&a), items(&c), "another seed places elsewhere");
}

#[test]
fn an_image_that_overflows_its_own_limits_is_refused() {
    let dir = scratch_dir("image_overflow");
    let ctm = dir.join("walker.ctm");
    stdout_of(&[
        "asm",
        arg(&example("walker.cta")),
        "-o",
        arg(&ctm),
        "--image-format",
        "json",
    ]);
    let text = std::fs::read_to_string(&ctm).unwrap();
    let out = "\"name\":\"out\",\"limit\":1024";
    assert!(text.contains(out), "{text}");
    std::fs::write(&ctm, text.replace(out, "\"name\":\"out\",\"limit\":1")).unwrap();
    std::fs::write(
        dir.join("s.toml"),
        "[world]\nsize = [1, 1]\n[[robot]]\nat = [0, 0]\nprogram = \"walker.ctm\"\n",
    )
    .unwrap();
    let err = failure_of(&["run", arg(&dir.join("s.toml"))]);
    assert!(
        err.contains("s.toml:5:11 ]")
            && err.contains(
                "robot[0].program: register 2 (`out`) holds 4 conses, which do not fit the limit 1"
            ),
        "{err}"
    );
}

#[test]
fn caps_on_speeds_and_registers_hold_for_every_part() {
    let walker = example("walker.cta");
    let base = format!(
        "[world]\nsize = [2, 2]\n[[robot]]\nname = \"w\"\nat = [0, 0]\nspeed = 500\nprogram = {:?}\n",
        arg(&walker)
    );
    let dir = scratch_dir("caps_ok");
    std::fs::write(
        dir.join("ok.toml"),
        format!("{base}[limits]\nspeed = 500\nregister = 65536\n"),
    )
    .unwrap();
    stdout_of(&["run", arg(&dir.join("ok.toml")), "--steps", "1"]);
    for (test, extra, message) in [
        (
            "caps_speed",
            "[limits]\nspeed = 100\n",
            "limits.speed: robot w's speed is 500, over the cap of 100",
        ),
        (
            "caps_register",
            "[limits]\nregister = 1000\n",
            "limits.register: robot w's register 1 is 4096, over the cap of 1000",
        ),
        (
            "caps_item",
            "[[item]]\nat = [1, 1]\nprocessor = 9000\n[limits]\nspeed = 600\n",
            "the processor 9000 of item[0] is 9000, over the cap of 600",
        ),
        (
            "caps_unknown",
            "[limits]\nticks = 3\n",
            "unknown field `ticks`",
        ),
    ] {
        let err = bad_run(test, &[("bad.toml", &format!("{base}{extra}"))]);
        assert!(err.contains(message), "{test}: {err}");
    }
}

/// `[[expect.square]]` checks the items lying on a square, in any order:
/// the tutorial's hauler lifts the cargo from `C` in step 4 and never
/// brings it home.
#[test]
fn expectations_on_squares_check_the_items_lying_there() {
    let dir = scratch_dir("expect_square");
    let game = std::fs::read_to_string("docs/tutorial/haul.toml").unwrap();
    let program = std::fs::read_to_string("docs/tutorial/hauler.cta").unwrap();
    let (head, _) = game.split_once("[expect]").unwrap();
    let scenario = format!(
        "{head}[expect]\n\
         [[expect.square]]\nat = \"C\"\nafter = 3\nitems = [{{ cargo = [5, 3] }}]\n\
         [[expect.square]]\nat = [3, 0]\nafter = 4\nitems = []\n\
         [[expect.square]]\nat = \"H\"\nitems = [{{ cargo = [5, 3] }}, {{ shield = true, count = 2 }}]\n"
    );
    std::fs::write(dir.join("haul.toml"), &scenario).unwrap();
    std::fs::write(dir.join("hauler.cta"), program).unwrap();
    let out = constree(&["test", arg(&dir.join("haul.toml"))], "");
    let printed = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{printed}");
    assert!(
        printed.contains("ok      (3, 0) holds cargo 5 (weight 3) after 3 steps\n"),
        "{printed}"
    );
    assert!(
        printed.contains("ok      (3, 0) holds nothing after 4 steps\n"),
        "{printed}"
    );
    assert!(
        printed.contains(
            "haul.toml:40: expected (0, 0) holds cargo 5 (weight 3), shield, shield after 10 steps, but it holds nothing"
        ),
        "{printed}"
    );
    assert!(printed.contains("2 passed, 1 failed"), "{printed}");
}

#[test]
fn expectations_on_squares_are_checked_when_the_scenario_loads() {
    let base = "[world]\nmap = \"\"\"\nA.\n\"\"\"\n[expect]\nsteps = 2\n";
    let cases: &[(&str, String, &str)] = &[
        (
            "square_random",
            format!("{base}[[expect.square]]\nat = \"random\"\nitems = []\n"),
            "expect.square[0].at: expected [x, y] or a mark, not \"random\"",
        ),
        (
            "square_item_at",
            format!(
                "{base}[[expect.square]]\nat = \"A\"\nitems = [{{ at = \"A\", shield = true }}]\n"
            ),
            "expect.square[0].items[0].at: an item of a square's `items` has no `at` of its own",
        ),
        (
            "square_after",
            format!("{base}[[expect.square]]\nat = [1, 0]\nafter = 3\nitems = []\n"),
            "expect.square[0].after: after 3 steps, but the test plays 2",
        ),
        (
            "square_two_kinds",
            format!(
                "{base}[[expect.square]]\nat = \"A\"\nitems = [{{ shield = true, processor = 3 }}]\n"
            ),
            "expect.square[0].items[0]: an item is one thing",
        ),
    ];
    for (test, scenario, expected) in cases {
        let err = bad_run(test, &[("bad.toml", scenario)]);
        assert!(
            err.contains(expected),
            "{test}: expected {expected:?} in\n{err}"
        );
    }
}

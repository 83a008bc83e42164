//! Tournaments (`constree::scenario::tournament`, `constree tournament`):
//! the scoring rules, the assignment of players to slots, the round seeds,
//! the checks on players, replays of a round, determinism whatever the
//! thread count, and hostile players.

mod cli_common;

use cli_common::{arg, failure_of, scratch_dir, stdout_of};
use constree::asm::source::{DiskLoader, MemoryLoader};
use constree::encoding::Decode;
use constree::image::Image;
use constree::scenario::game::scores;
use constree::scenario::tournament::{Entrant, Outcome, Tournament, round_seed};
use constree::scenario::{Scenario, load_program};
use constree::world::update;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A program from source text.
fn program(source: &str) -> Image {
    let loader = MemoryLoader::default().with("p.cta", source);
    let assembly = constree::asm::assemble_file(&loader, Path::new("p.cta"));
    let rendered = assembly.render(false);
    assembly.image.unwrap_or_else(|| panic!("{rendered}"))
}

/// A program from a file of the repository.
fn program_file(path: &str) -> Image {
    load_program(&DiskLoader::new(None), &repo(path)).expect("assembles")
}

fn entrant(name: &str, image: Image) -> Entrant {
    Entrant {
        name: name.into(),
        image,
    }
}

/// A scenario without robots of its own.
fn scenario(text: &str) -> Scenario {
    Scenario::from_text("t.toml", text, &|name: &str| {
        Err(format!("no {name}").into())
    })
    .expect("loads")
}

fn tournament(text: &str, players: &[Entrant], rounds: usize) -> Tournament {
    Tournament::new(&scenario(text), text, players, rounds, 7).expect("sets up")
}

fn error(text: &str, players: &[Entrant], rounds: usize) -> String {
    Tournament::new(&scenario(text), text, players, rounds, 7)
        .expect_err("refused")
        .to_string()
}

fn passer() -> Image {
    program("use std/control\nreg out = Pass\nmain:\n    emit Pass\n    jmp main\n")
}

fn striker() -> Image {
    program_file("examples/fight/striker.cta")
}

fn play(t: &Tournament, jobs: usize) -> Outcome {
    t.play(Some(jobs), &|| {}).expect("plays")
}

/// Three slots on squares of their own, or all on one.
fn slots(same_square: bool, inventory: &str) -> String {
    let mut text = String::from("steps = 4\nscoring = \"survivors\"\n[world]\nsize = [3, 1]\n");
    for (k, color) in ["Red", "Blue", "Green"].iter().enumerate() {
        let x = if same_square { 0 } else { k };
        text.push_str(&format!(
            "[[slot]]\nat = [{x}, 0]\ncolor = \"{color}\"\ninventory = [{inventory}]\n"
        ));
    }
    text
}

#[test]
fn survivors_score_three_two_or_one() {
    let three = [
        entrant("a", passer()),
        entrant("b", passer()),
        entrant("c", passer()),
    ];
    let text = slots(false, "");
    for (players, points) in [(&three[..], 1), (&three[..2], 2), (&three[..1], 3)] {
        let outcome = play(&tournament(&text, players, 3), 1);
        for round in &outcome.rounds {
            assert_eq!(round.survivors.len(), players.len());
            for p in &round.players {
                assert_eq!((p.points, p.score, p.robots), (points, 1, 1), "{round:?}");
            }
            assert_eq!(round.winner.is_some(), players.len() == 1);
        }
        assert!(
            outcome
                .standings
                .iter()
                .all(|s| s.points == 3 * points && s.survived == 3)
        );
    }
}

#[test]
fn the_last_owner_standing_takes_three_points() {
    // A striker and an unshielded passer on one square: the passer is
    // destroyed in step 2, whichever slot each gets.
    let text = slots(true, "");
    let players = [entrant("striker", striker()), entrant("passer", passer())];
    let outcome = play(&tournament(&text, &players, 6), 2);
    for round in &outcome.rounds {
        assert_eq!(round.survivors, ["striker"]);
        assert_eq!(round.winner.as_deref(), Some("striker"));
        let [s, p] = &round.players[..] else { panic!() };
        assert_eq!((s.player.as_str(), s.points, s.robots), ("striker", 3, 1));
        assert_eq!((p.player.as_str(), p.points, p.robots), ("passer", 0, 0));
    }
    let top = &outcome.standings[0];
    assert_eq!(
        (top.rank, top.player.as_str(), top.points, top.wins),
        (1, "striker", 18, 6)
    );
    // Shielded, the passer outlasts the four steps.
    let text = slots(true, "{ shield = true, count = 4 }");
    let outcome = play(&tournament(&text, &players, 2), 1);
    assert!(outcome.rounds.iter().all(|r| r.survivors.len() == 2));
}

#[test]
fn home_scores_what_robots_carry_on_the_home_squares() {
    let text = "steps = 2\n[world]\nsize = [4, 1]\n[values]\nshield = 10\n\
        [[slot]]\nat = [0, 0]\ncolor = \"Red\"\ninventory = [{ shield = true, count = 2 }]\n\
        [[slot]]\nat = [2, 0]\ncolor = \"Blue\"\nhomes = [[3, 0]]\ninventory = [{ shield = true }]\n";
    let players = [entrant("a", passer()), entrant("b", passer())];
    let outcome = play(&tournament(text, &players, 8), 1);
    assert_eq!(outcome.scoring, "home");
    for round in &outcome.rounds {
        for p in &round.players {
            // Slot 0 is at home where it starts; slot 1's home is elsewhere.
            let expected = if p.slot == 0 { 20 } else { 0 };
            assert_eq!((p.score, p.points), (expected, expected), "{round:?}");
        }
        let home = round.players.iter().find(|p| p.slot == 0).unwrap();
        assert_eq!(round.winner.as_ref(), Some(&home.player));
    }
    // Both players got the good slot in some round.
    assert!(
        outcome.standings.iter().all(|s| s.wins > 0),
        "{:?}",
        outcome.standings
    );
}

#[test]
fn slots_are_shuffled_and_random_slots_drawn_per_round() {
    let text = "steps = 1\n[world]\nsize = [5, 5]\n\
        [[slot]]\nat = \"random\"\ncolor = \"Red\"\n[[slot]]\nat = \"random\"\ncolor = \"Blue\"\n\
        [[slot]]\nat = \"random\"\ncolor = \"Green\"\n";
    let players = [entrant("a", passer()), entrant("b", passer())];
    let outcome = play(&tournament(text, &players, 20), 1);
    let slots_of_a: std::collections::BTreeSet<usize> =
        outcome.rounds.iter().map(|r| r.players[0].slot).collect();
    assert_eq!(slots_of_a.len(), 3, "player a played every slot");
    let starts: std::collections::BTreeSet<_> =
        outcome.rounds.iter().map(|r| r.players[0].start).collect();
    assert!(starts.len() > 5, "{starts:?}");
    for r in &outcome.rounds {
        assert_ne!(
            r.players[0].start, r.players[1].start,
            "random slots get squares of their own"
        );
        assert_ne!(r.players[0].slot, r.players[1].slot);
        assert_eq!(r.seed, round_seed(7, r.round));
    }
    let seeds: std::collections::BTreeSet<u64> = outcome.rounds.iter().map(|r| r.seed).collect();
    assert_eq!(seeds.len(), 20);
    assert!(seeds.iter().all(|&s| s <= i64::MAX as u64));
}

#[test]
fn players_that_do_not_fit_are_refused() {
    let text = slots(false, "");
    let four: Vec<Entrant> = (0..4)
        .map(|k| entrant(&format!("p{k}"), passer()))
        .collect();
    let e = error(&text, &four, 1);
    assert!(e.contains("4 players") && e.contains("only 3 slots"), "{e}");
    assert!(error(&text, &[], 1).contains("at least one player"));
    assert!(
        error(&text, &four[..1], 0).contains("0 rounds: a tournament plays 1 to 1000000 rounds")
    );
    assert!(error(&text, &four[..1], 1 << 40).contains("a tournament plays 1 to 1000000 rounds"));
    let e = error("[world]\nsize = [2, 2]\n", &four[..1], 1);
    assert!(e.contains("no [[slot]]"), "{e}");
    let e = error(
        "[world]\nsize = [2, 2]\n[[slot]]\nat = [0, 0]\ncolor = \"Red\"\n[[slot]]\nat = [1, 0]\ncolor = \"Red\"\n",
        &four[..1],
        1,
    );
    assert!(e.contains("slot[0] and slot[1] are both Red"), "{e}");
}

#[test]
fn the_scenarios_caps_apply_to_the_players() {
    let text = format!("{}[limits]\nregister = 100000\n", slots(false, ""));
    let greedy = program("reg out = Pass\nreg hoard 10000000000\nmain:\n    nilify hoard\n");
    let e = error(&text, &[entrant("greedy", greedy)], 1);
    assert!(
        e.contains("player greedy: register 3 (`hoard`)'s limit is 10000000000, over the cap of 100000 (`[limits] register`)"),
        "{e}"
    );
    // An image (read from a .ctm file, say) whose contents exceed a limit.
    let mut overfull = passer();
    overfull.registers[2].limit = 1;
    let e = error(&text, &[entrant("overfull", overfull)], 1);
    assert!(
        e.contains(
            "player overfull: register 2 (`out`) holds 6 conses, which do not fit its limit 1"
        ),
        "{e}"
    );
    let modest = program("reg out = Pass\nreg hoard 100000\nmain:\n    nilify hoard\n");
    Tournament::new(&scenario(&text), &text, &[entrant("modest", modest)], 1, 0).expect("fits");
}

#[test]
fn a_seed_register_gets_a_number_of_its_own_every_round() {
    let text = slots(false, "");
    let seeded = program("reg out = Pass\nreg seed 62\nmain:\n    nilify seed\n");
    let players = [entrant("a", seeded.clone()), entrant("b", seeded)];
    let t = tournament(&text, &players, 3);
    let mut numbers = Vec::new();
    for round in 1..=3 {
        let (_, replay) = t.record_round(round).expect("records");
        for name in ["player:a", "player:b"] {
            let image = &replay.images.iter().find(|(n, _)| n == name).unwrap().1;
            let k = image.register("seed").unwrap();
            let n = i64::decode(&image.registers[k].contents).unwrap();
            assert!((0..1 << 31).contains(&n), "{n}");
            numbers.push(n);
        }
    }
    numbers.sort_unstable();
    numbers.dedup();
    assert_eq!(numbers.len(), 6, "a number per player and round");
    let small = program("reg out = Pass\nreg seed 61\nmain:\n    nilify seed\n");
    let e = error(&text, &[entrant("small", small)], 1);
    assert!(
        e.contains("`seed`") && e.contains("at least 62, not 61"),
        "{e}"
    );
}

#[test]
fn the_random_bot_varies_from_round_to_round() {
    let text = slots(false, "").replace("steps = 4", "steps = 12");
    let random = program_file("examples/arena/random.cta");
    let t = tournament(&text, &[entrant("random", random)], 4);
    let mut paths = std::collections::BTreeSet::new();
    for round in 1..=4 {
        let (result, replay) = t.record_round(round).unwrap();
        let cell_of = |w: &constree::world::World| {
            w.cells
                .iter()
                .position(|c| c.as_ref().is_some_and(|sq| !sq.robots.is_empty()))
        };
        let path: Vec<_> = replay.worlds().map(|w| cell_of(&w)).collect();
        assert_eq!(path[0], Some(result.players[0].start.0 as usize));
        paths.insert(path);
    }
    assert!(paths.len() > 1, "the same walk every round");
}

#[test]
fn a_recorded_round_is_the_round_played() {
    let text = slots(true, "{ shield = true }").replace("steps = 4", "steps = 6");
    let players = [entrant("striker", striker()), entrant("passer", passer())];
    let t = tournament(&text, &players, 5);
    let outcome = play(&t, 2);
    for round in [1, 5] {
        let (result, replay) = t.record_round(round).expect("records");
        assert_eq!(result, outcome.rounds[round - 1]);
        assert_eq!(result, t.play_round(round).unwrap());
        assert_eq!(replay.len(), 7);
        // Its scenario gives its start (what `debug --replay` checks), and
        // the engine takes the start to the end.
        let scenario = replay.scenario().expect("the replay's scenario loads");
        assert_eq!(Some(&scenario.world(scenario.seed).0), replay.first_world());
        let mut names: Vec<&str> = scenario.robots.iter().map(|r| r.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["passer", "striker"]);
        let end = (0..6).fold(replay.world(0).unwrap(), |w, _| update(w));
        assert_eq!(&end, replay.last_world().unwrap());
    }
    assert!(
        t.record_round(6)
            .unwrap_err()
            .to_string()
            .contains("no round 6")
    );
}

/// Every player's points and score, by name, as a round's replay scores
/// its last world (what `replay`, `debug` and `test` show).
fn replay_scores(replay: &constree::scenario::replay::Replay) -> Vec<(String, i64, i64)> {
    let scenario = replay.scenario().expect("the replay's scenario loads");
    let mut scores: Vec<_> = scores(&scenario, replay.last_world().unwrap())
        .into_iter()
        .map(|s| (s.player, s.points, s.score))
        .collect();
    scores.sort();
    scores
}

#[test]
fn a_recorded_round_scores_as_the_tournament_scored_it() {
    let survivors = slots(true, "");
    let home = "steps = 2\n[world]\nsize = [4, 1]\n[values]\nshield = 10\n\
        [[slot]]\nat = [0, 0]\ncolor = \"Red\"\ninventory = [{ shield = true, count = 2 }]\n\
        [[slot]]\nat = [2, 0]\ncolor = \"Blue\"\nhomes = [[3, 0]]\n";
    let players = [entrant("striker", striker()), entrant("passer", passer())];
    for text in [&survivors[..], home] {
        let t = tournament(text, &players, 3);
        for round in 1..=3 {
            let (result, replay) = t.record_round(round).expect("records");
            let mut want: Vec<_> = result
                .players
                .iter()
                .map(|p| (p.player.clone(), p.points, p.score))
                .collect();
            want.sort();
            assert_eq!(replay_scores(&replay), want, "{text}");
        }
    }
}

#[test]
fn results_do_not_depend_on_the_threads() {
    let text = slots(false, "").replace("steps = 4", "steps = 10");
    let players = [
        entrant("a", passer()),
        entrant("striker", striker()),
        entrant("random", program_file("examples/arena/random.cta")),
    ];
    let t = tournament(&text, &players, 12);
    let one = serde_json::to_string(&play(&t, 1)).unwrap();
    assert_eq!(one, serde_json::to_string(&play(&t, 3)).unwrap());
    assert!(!one.contains("time"));
    let counted = std::sync::atomic::AtomicUsize::new(0);
    t.play(Some(2), &|| {
        counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(counted.into_inner(), 12);
}

/// Hostile players under a scenario's caps: a register doubled until it
/// reaches the cap, an inspector of it every step, and a builder that
/// fills its square with spinning robots from the parts lying there. Every
/// processor in the world is capped, and robots are built only from parts,
/// so a round costs at most (the sum of all speeds) x steps ticks.
#[test]
fn hostile_players_finish_in_time_bounded_by_speeds_and_steps() {
    let kits = 30;
    let parts = "[[item]]\nat = [0, 0]\nframe = { color = \"Black\", strength = 10 }\n\
                 [[item]]\nat = [0, 0]\nprocessor = 20000\n"
        .repeat(kits);
    let text = format!(
        "steps = 40\nscoring = \"survivors\"\n[world]\nsize = [1, 1]\n[limits]\nspeed = 20000\nregister = 1000000\n\
         {parts}[[slot]]\nat = [0, 0]\ncolor = \"Red\"\nspeed = 20000\n\
         [[slot]]\nat = [0, 0]\ncolor = \"Blue\"\nspeed = 20000\n\
         [[slot]]\nat = [0, 0]\ncolor = \"Green\"\nspeed = 20000\n"
    );
    let mut doubler = String::from("use std/control\nreg out = Pass\nreg a 1000000 = [1]\nmain:\n");
    doubler.push_str(&"    construct a, a, a\n".repeat(17));
    doubler.push_str("spin:\n    jmp spin\n");
    let inspector = "use std/control\nreg in 1000000\nreg out = Inspect 0\nmain:\n    emit Inspect 1\n    emit Inspect 2\n    emit Inspect 0\n    jmp main\n";
    // Build [0, 1] from the frames and processors that come to the front in
    // turn; the children have no registers.
    let builder = "use std/control\nreg out = Build [0, 1] []\nmain:\n    emit Build [0, 1] []\n    jmp main\n";
    let players = [
        entrant("doubler", program(&doubler)),
        entrant("inspector", program(inspector)),
        entrant("builder", program(builder)),
    ];
    let t = tournament(&text, &players, 2);
    let start = Instant::now();
    let outcome = play(&t, 2);
    let elapsed = start.elapsed();
    // 3 players and at most 30 children at 20,000 ticks for 40 steps: at
    // most 2.6e7 ticks a round (a quarter of a second at the machine's
    // speed); the guard is generous.
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    let (_, replay) = t.record_round(1).unwrap();
    let last = replay.last_world().unwrap();
    let robots = last.cells[0].as_ref().unwrap().robots.len();
    assert!(robots > 3, "the builder built: {robots} robots");
    assert!(robots <= 3 + kits, "no more robots than frames: {robots}");
    let largest = last.cells[0]
        .as_ref()
        .unwrap()
        .robots
        .iter()
        .flat_map(|r| &r.memory)
        .map(|r| r.contents.size())
        .max();
    assert_eq!(
        largest,
        Some(4 * (1 << 17) - 1),
        "the doubled register is alive"
    );
    assert_eq!(outcome.rounds.len(), 2);
    let greedy =
        program("reg out = Pass\nreg a 9223372036854775807 = [1]\nmain:\n    construct a, a, a\n");
    let e = error(&text, &[entrant("greedy", greedy)], 1);
    assert!(e.contains("over the cap of 1000000"), "{e}");
}

#[test]
fn the_command_line_plays_and_records() {
    let dir = scratch_dir("tournament_cli");
    let game = dir.join("g.toml");
    std::fs::write(&game, slots(true, "")).unwrap();
    std::fs::write(
        dir.join("passer.cta"),
        "use std/control\nreg out = Pass\nmain:\n    emit Pass\n    jmp main\n",
    )
    .unwrap();
    let striker = repo("examples/fight/striker.cta");
    let passer = dir.join("passer.cta");
    let replay = dir.join("round.json");
    let base = [
        "tournament",
        "--game",
        arg(&game),
        "--rounds",
        "4",
        "--seed",
        "3",
        "--players",
        arg(&striker),
        arg(&passer),
        arg(&passer),
    ];
    let table = stdout_of(&base);
    assert!(
        table.starts_with(&format!(
            "{}: 4 rounds, seed 3, scoring survivors\n",
            arg(&game)
        )),
        "{table}"
    );
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[1],
        "rank  player    points  wins  survived  average score"
    );
    assert_eq!(
        lines[2],
        "   1  striker       12     4         4           1.00"
    );
    assert!(
        lines[3].contains("passer") && lines[4].contains("passer#2"),
        "{table}"
    );
    let json = |jobs: &str| {
        let mut args = base.to_vec();
        args.extend(["--format", "json", "--jobs", jobs]);
        stdout_of(&args)
    };
    assert_eq!(json("1"), json("2"));
    let mut args = base.to_vec();
    args.extend(["--record-round", "2", arg(&replay)]);
    stdout_of(&args);
    // A debugger session on the recording, following the striker.
    let script = dir.join("script");
    let debug = |commands: &str| {
        std::fs::write(&script, commands).unwrap();
        stdout_of(&[
            "debug",
            "--replay",
            arg(&replay),
            "--robot",
            "striker",
            "--batch",
            arg(&script),
        ])
    };
    let session = debug("gstep 2\nrobots\n");
    assert!(session.contains("focus on striker"), "{session}");
    let shown = stdout_of(&["replay", arg(&replay)]);
    assert!(shown.contains("round 2"), "{shown}");
    // Round 2 went to the striker, the last one standing: 3 points.
    assert!(
        shown.contains("striker        3 points   1 robot\n"),
        "{shown}"
    );
    let score = debug("gstep 4\nscore\n");
    assert!(
        score.contains("striker          3 points   1 robot\n"),
        "{score}"
    );
    for (extra, message) in [
        (&["--jobs", "0"][..], "--jobs must be 1 to 256"),
        (&["--jobs", "100000"], "--jobs must be 1 to 256"),
        (&["--record-round", "9", "x.json"], "there is no round 9"),
        (
            &["--record-round", "two", "x.json"],
            "is not a round number",
        ),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        let e = failure_of(&args);
        assert!(e.contains(message), "{extra:?}: {e}");
    }
    let e = failure_of(&[
        "tournament",
        "--game",
        arg(&game),
        "--players",
        "missing.cta",
    ]);
    assert!(e.contains("there is no program file missing.cta"), "{e}");
    std::fs::write(dir.join("bad.toml"), "[world]\nsize = [0, 3]\n").unwrap();
    let e = failure_of(&[
        "tournament",
        "--game",
        arg(&dir.join("bad.toml")),
        "--players",
        arg(&passer),
    ]);
    assert!(e.contains("bad.toml"), "{e}");
    std::fs::write(dir.join("broken.cta"), "main:\n    jmp nowhere\n").unwrap();
    let e = failure_of(&[
        "tournament",
        "--game",
        arg(&game),
        "--players",
        arg(&dir.join("broken.cta")),
    ]);
    assert!(e.contains("does not assemble"), "{e}");
}

#[test]
fn round_seeds_are_the_draws_of_one_generator() {
    let mut rng = constree::scenario::random::SplitMix64::new(42);
    for round in 1..=50 {
        assert_eq!(round_seed(42, round), rng.next_u64() >> 1);
    }
}

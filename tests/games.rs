//! The example games of `examples/` played to their end: the knapsack
//! picker against an exact knapsack solver on the example world and on
//! random ones, the builder and its child, the replicator, the guard of the
//! inspection game. Each game's replay is loaded in the debugger.

mod cli_common;

use cli_common::{arg, constree, example, load, scratch_dir, stdout_of, text};
use constree::scenario::Scenario;
use constree::scenario::game::{Game, Score};
use constree::scenario::random::SplitMix64;
use constree::world::{Command, Item, World};
use std::fmt::Write as _;
use std::path::Path;

/// Plays a whole scenario with the library's engine.
fn play(scenario: &Scenario) -> Game<'_> {
    let mut game = Game::new(scenario);
    for _ in 0..scenario.steps {
        game.play_step(None);
    }
    game
}

fn score_of(scores: &[Score], player: &str) -> i64 {
    scores
        .iter()
        .find(|s| s.player == player)
        .unwrap_or_else(|| panic!("no player {player}"))
        .score
}

/// Records a game with `run --record`, replays it in the debugger to its
/// last step, and checks that the debugger's scores are the game's.
fn replay_in_debugger(scenario: &Path, robot: &str, name: &str) {
    let dir = scratch_dir(&format!("games_replay_{name}"));
    let record = dir.join("game.json");
    let shown = stdout_of(&["run", arg(scenario), "--record", arg(&record)]);
    let steps = load(scenario).steps;
    let out = constree(
        &["debug", "--replay", arg(&record), "--robot", robot],
        &format!("gstep {steps}\nscore\nquit\n"),
    );
    let transcript = text(&out.stdout);
    assert!(out.status.success(), "{transcript}{}", text(&out.stderr));
    assert!(
        transcript.contains(&format!("focus on {robot}")),
        "{transcript}"
    );
    // The scoreboard's lines (`  Green      38   home (0, 0)`) appear in
    // the debugger's `score` as in `run`.
    let board = shown.split("Scores\n").nth(1).expect("run prints scores");
    for line in board.lines().filter(|l| !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().take(2).collect();
        let found = transcript.lines().any(|l| {
            let w: Vec<&str> = l.split_whitespace().take(2).collect();
            w == words
        });
        assert!(
            found,
            "{words:?} not in the debugger's score:\n{transcript}"
        );
    }
}

// ---------------------------------------------------------------------------
// Knapsack.

/// The best total value of cargo of total weight at most `capacity` (0/1
/// knapsack by dynamic programming; weights are positive).
fn best_load(cargo: &[(i64, i64)], capacity: i64) -> i64 {
    let capacity = capacity.max(0) as usize;
    let mut best = vec![0i64; capacity + 1];
    for &(value, weight) in cargo {
        let w = weight as usize;
        for c in (w..=capacity).rev() {
            best[c] = best[c].max(best[c - w] + value);
        }
    }
    best[capacity]
}

/// Every cargo lying in a world, as (value, weight): a cargo is worth its
/// type.
fn cargo_of(world: &World) -> Vec<(i64, i64)> {
    world
        .cells
        .iter()
        .flatten()
        .flat_map(|sq| sq.items.iter())
        .filter_map(|item| match item {
            Item::Cargo(kind, weight) => Some((*kind, *weight)),
            _ => None,
        })
        .collect()
}

/// Plays a knapsack scenario; gives (the picker's score, the best value
/// that fits its strength).
fn knapsack_outcome(scenario: &Scenario) -> (i64, i64) {
    let (world, _) = scenario.world(scenario.seed);
    let strength = scenario.robots[0].frame.strength;
    let best = best_load(&cargo_of(&world), strength);
    let game = play(scenario);
    let scores = game.scores();
    (score_of(&scores, "Green"), best)
}

#[test]
fn the_knapsack_solver_is_right_on_small_cases() {
    assert_eq!(best_load(&[], 10), 0);
    assert_eq!(best_load(&[(5, 11)], 10), 0);
    // Greedy by value/weight takes (6, 2) and (10, 5): 16; the best is 22.
    assert_eq!(best_load(&[(6, 2), (10, 5), (12, 6)], 8), 18);
    assert_eq!(best_load(&[(60, 10), (100, 20), (120, 30)], 50), 220);
}

#[test]
fn the_knapsack_picker_brings_home_the_best_load() {
    let scenario = load(&example("knapsack/knapsack.toml"));
    let (score, best) = knapsack_outcome(&scenario);
    assert_eq!(best, 38);
    assert!(score * 10 >= best * 9, "{score} of {best}");
    assert_eq!(score, best, "the picker's choice is exact");
}

/// A random knapsack world: a bounded grid of `w` x `h` squares, the picker
/// at home in the north-west corner, cargo on distinct squares.
fn random_knapsack(seed: u64, program: &Path) -> String {
    let mut rng = SplitMix64::new(seed);
    let w = 2 + rng.below(6);
    let h = 1 + rng.below(5);
    let squares = w * h;
    let count = (3 + rng.below(12)).min(squares);
    let strength = 8 + rng.below(33);
    let mut free: Vec<u64> = (0..squares).collect();
    let mut toml = format!(
        "name = \"Knapsack {seed}\"\nsteps = {}\n\n[world]\nwrap = false\nsize = [{w}, {h}]\n",
        2 * squares + h + count + 4
    );
    for _ in 0..count {
        let cell = free.swap_remove(rng.below(free.len() as u64) as usize);
        let value = 1 + rng.below(30);
        let weight = 1 + rng.below(16);
        let _ = write!(
            toml,
            "\n[[item]]\nat = [{}, {}]\ncargo = [{value}, {weight}]\n",
            cell % w,
            cell / w
        );
    }
    let _ = write!(
        toml,
        "\n[[robot]]\nname = \"picker\"\nat = [0, 0]\ncolor = \"Green\"\nstrength = {strength}\n\
         speed = 100000\nprogram = {:?}\n\n[[player]]\nname = \"Green\"\nhomes = [[0, 0]]\n",
        program.to_str().unwrap()
    );
    toml
}

#[test]
fn the_knapsack_picker_is_exact_on_random_worlds() {
    let dir = scratch_dir("games_knapsack");
    let program = example("knapsack/knapsack.cta");
    let mut total = (0, 0);
    for seed in 1..=12 {
        let file = dir.join(format!("knapsack_{seed}.toml"));
        std::fs::write(&file, random_knapsack(seed, &program)).unwrap();
        let scenario = load(&file);
        let (score, best) = knapsack_outcome(&scenario);
        assert!(score * 10 >= best * 9, "seed {seed}: {score} of {best}");
        assert_eq!(score, best, "seed {seed}");
        total = (total.0 + score, total.1 + best);
    }
    assert!(total.1 > 0);
}

#[test]
fn the_knapsack_replay_loads_in_the_debugger() {
    replay_in_debugger(&example("knapsack/knapsack.toml"), "picker", "knapsack");
}

// ---------------------------------------------------------------------------
// The builder.

/// The robots on a square of the world.
fn robots_at(world: &World, (x, y): (i64, i64)) -> &[constree::world::Robot] {
    let cell = world.shape().locate((x, y));
    world.cells[cell].as_ref().map_or(&[], |sq| &sq.robots)
}

#[test]
fn the_builder_builds_a_worker_that_fetches_the_cargo() {
    use constree::encoding::Encode;
    use constree::world::Direction;
    let scenario = load(&example("builder/workshop.toml"));
    let mut game = Game::new(&scenario);
    // Play until the worker appears: built at home from the parts.
    let worker = loop {
        assert!(game.step < scenario.steps, "no robot was built");
        game.play_step(None);
        if let Some(w) = robots_at(&game.world, (0, 0)).get(1) {
            break w.clone();
        }
    };
    assert_eq!(worker.frame.strength, 20, "the frame part lying at (1, 0)");
    assert_eq!(worker.processor.speed, 2000);
    assert_eq!(worker.memory.len(), 15, "one register per register part");
    assert!(worker.memory.iter().all(|r| r.limit == 500));
    // Its plan, computed by the builder: the cargo lies 6 squares east.
    let mut plan = vec![Command::Move(Direction::E); 6];
    plan.push(Command::Lift(0));
    plan.extend(vec![Command::Move(Direction::W); 6]);
    assert_eq!(worker.memory[3].contents, plan.encode());
    // Its code is worker.cta's.
    let image = constree::scenario::load_program(
        &constree::asm::source::DiskLoader::new(None),
        &example("builder/worker.cta"),
    )
    .unwrap();
    assert_eq!(worker.memory[9].contents, image.memory()[9].contents);

    while game.step < scenario.steps {
        game.play_step(None);
    }
    let home = robots_at(&game.world, (0, 0));
    assert_eq!(home.len(), 2, "builder and worker end at home");
    assert_eq!(home[1].inventory, [Item::Cargo(30, 10)]);
    assert!(
        home[0].inventory.is_empty(),
        "the builder dropped every part"
    );
    assert_eq!(score_of(&game.scores(), "Green"), 30);
}

#[test]
fn the_builder_replay_loads_in_the_debugger() {
    replay_in_debugger(&example("builder/workshop.toml"), "builder", "builder");
}

// ---------------------------------------------------------------------------
// The replicator.

#[test]
fn the_replicator_copies_itself_and_its_copies_copy_themselves() {
    let scenario = load(&example("replicator/replicator.toml"));
    let image = scenario.robots[0].image.clone().expect("a program");
    let game = play(&scenario);
    let row: Vec<&[constree::world::Robot]> =
        (0..8).map(|x| robots_at(&game.world, (x, 0))).collect();
    // One robot on every square: the origin and seven generations.
    assert!(
        row.iter().all(|r| r.len() == 1),
        "{:?}",
        row.iter().map(|r| r.len()).collect::<Vec<_>>()
    );
    let code: Vec<usize> = image
        .labels
        .iter()
        .filter(|l| l.offset == 0)
        .map(|l| l.register)
        .collect();
    assert!(code.len() > 50);
    for (x, robots) in row.iter().enumerate() {
        let robot = &robots[0];
        // Built from a kit's parts: its registers are the parts' (the
        // origin's are the program's own).
        assert_eq!(robot.memory.len(), image.registers.len(), "square {x}");
        if x > 0 {
            assert_eq!(robot.processor.speed, 100_000);
            assert!(robot.memory.iter().all(|r| r.limit == 10_000_000));
        }
        // The same program: every code register is the origin's.
        for &r in &code {
            assert_eq!(
                robot.memory[r].contents, image.registers[r].contents,
                "square {x}, register {r}"
            );
        }
        // Each robot on a kit built its copy and took the kit's cargo; the
        // last copy found no kit.
        let carried: &[Item] = if x < 7 { &[Item::Cargo(5, 1)] } else { &[] };
        assert_eq!(robot.inventory, carried, "square {x}");
    }
    // Every kit was used up.
    assert!(
        game.world
            .cells
            .iter()
            .flatten()
            .all(|sq| sq.items.is_empty())
    );
    assert_eq!(score_of(&game.scores(), "Green"), 35);
}

#[test]
fn the_replicator_replay_loads_in_the_debugger() {
    replay_in_debugger(
        &example("replicator/replicator.toml"),
        "origin",
        "replicator",
    );
}

// ---------------------------------------------------------------------------
// The inspection game.

/// Plays a scenario; gives each scenario robot's command at every step
/// (`None` once it is gone) and the finished game.
fn commands_by_step(scenario: &Scenario) -> (Vec<Vec<Option<Command>>>, Game<'_>) {
    let mut game = Game::new(scenario);
    let mut commands = vec![Vec::new(); scenario.robots.len()];
    for _ in 0..scenario.steps {
        let (report, _) = game.play_step(None);
        for (r, place) in game.robots.iter().enumerate() {
            let command = place.and_then(|(cell, k)| report.cells[cell][k].command.clone());
            commands[r].push(command);
        }
    }
    (commands, game)
}

/// The temple with other visitors (each of the pilgrim's and the raider's
/// entries starting at a mark and running a program) and a guard with
/// `shields` shields.
fn temple_with(pilgrim: (&str, &str), raider: (&str, &str), shields: u32) -> Scenario {
    let dir = example("inspection");
    let mut text = std::fs::read_to_string(dir.join("temple.toml"))
        .unwrap()
        .replace("count = 5", &format!("count = {shields}"));
    for ((mark, program), (at, file)) in [
        (pilgrim, ("P", "pilgrim.cta")),
        (raider, ("R", "raider.cta")),
    ] {
        text = text
            .replace(&format!("at = \"{at}\""), &format!("at = \"{mark}\""))
            .replace(
                &format!("program = \"{file}\""),
                &format!("program = \"{program}\""),
            );
    }
    let file = dir.join("temple.toml");
    Scenario::from_text_in(file.to_str().unwrap(), &text, &dir, None)
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_guard_spares_the_pilgrim_and_destroys_the_raider() {
    let scenario = load(&example("inspection/temple.toml"));
    let (commands, game) = commands_by_step(&scenario);
    let [guard, pilgrim, raider] = &commands[..] else {
        panic!("three robots")
    };
    // The guard inspects the pilgrim (step 3), then the raider (step 4),
    // destroys the raider (step 5), and keeps inspecting the pilgrim.
    let shown: Vec<String> = guard
        .iter()
        .map(|c| c.as_ref().map_or("-".into(), constree::asm::show::summary))
        .collect();
    assert_eq!(
        shown[..6],
        [
            "Pass",
            "Pass",
            "Inspect 1",
            "Inspect 2",
            "Destroy 2",
            "Inspect 1"
        ]
    );
    assert!(shown[5..].iter().all(|c| c == "Inspect 1"), "{shown:?}");
    // The pilgrim never attacks; the raider attacked until it was destroyed.
    assert!(pilgrim[2..].iter().all(|c| c == &Some(Command::Pass)));
    assert!(matches!(raider[3], Some(Command::Destroy(0))), "{raider:?}");
    assert!(
        raider[5..].iter().all(Option::is_none),
        "destroyed at step 5"
    );
    assert_eq!(game.robots[2], None);
    // In the temple: the guard with the shields the raider's two attacks
    // left, the pilgrim, and the raider's remains.
    let temple = robots_at(&game.world, (2, 0));
    assert_eq!(temple.len(), 2);
    assert_eq!(temple[0].inventory, vec![Item::Shield; 3]);
    assert_eq!(temple[1].frame.color, constree::world::Color::Blue);
    let cell = game.world.shape().locate((2, 0));
    let remains = &game.world.cells[cell].as_ref().unwrap().items;
    assert!(remains.iter().any(|i| matches!(i, Item::FramePart(_))));
    assert_eq!(score_of(&game.scores(), "Guard"), 3);
}

#[test]
fn the_guard_destroys_every_raider() {
    // Two raiders attack twice a step: the guard needs more shields.
    let scenario = temple_with(("R", "raider.cta"), ("R", "raider.cta"), 9);
    let (commands, game) = commands_by_step(&scenario);
    assert_eq!(game.robots[1..], [None, None], "{:?}", commands[0]);
    assert!(game.robots[0].is_some(), "the guard survives");
}

#[test]
fn the_guard_spares_every_pilgrim() {
    let scenario = temple_with(("P", "pilgrim.cta"), ("P", "pilgrim.cta"), 5);
    let (commands, game) = commands_by_step(&scenario);
    let inspections = commands[0]
        .iter()
        .filter(|c| matches!(c, Some(Command::Inspect(_))))
        .count();
    assert!(inspections >= 8, "{:?}", commands[0]);
    assert!(
        commands[0]
            .iter()
            .all(|c| !matches!(c, Some(Command::Destroy(_)))),
        "{:?}",
        commands[0]
    );
    let temple = robots_at(&game.world, (2, 0));
    assert_eq!(temple.len(), 3, "the guard and two pilgrims");
    assert_eq!(temple[0].inventory.len(), 5, "no shield lost");
}

#[test]
fn the_inspection_replay_loads_in_the_debugger() {
    replay_in_debugger(&example("inspection/temple.toml"), "guard", "inspection");
}

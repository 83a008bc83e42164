//! The fight arena (`examples/arena/`): every strategy bot beats the
//! passing bot and the random bot in at least 80% of 20 seeded rounds, the
//! bots do what their headers say (hunt, collect shields, build pups or
//! mines), and a tournament of four players is the same whatever the
//! thread count.

mod cli_common;

use cli_common::{arg, scratch_dir, stdout_of};
use constree::asm::source::DiskLoader;
use constree::scenario::replay::Replay;
use constree::scenario::tournament::{Entrant, Outcome, Tournament};
use constree::scenario::{Scenario, load_program};
use constree::world::{Color, Item, World};
use std::path::{Path, PathBuf};

const STRATEGIES: [&str; 3] = ["hunter", "breeder", "guard"];

fn arena_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/arena")
        .join(name)
}

fn entrant(name: &str) -> Entrant {
    let path = arena_file(&format!("{name}.cta"));
    let assembly = constree::asm::assemble_file(&DiskLoader::new(None), &path);
    assert!(
        assembly.diagnostics.is_empty(),
        "{name}.cta:\n{}",
        assembly.render(false)
    );
    Entrant {
        name: name.into(),
        image: load_program(&DiskLoader::new(None), &path).expect("assembles"),
    }
}

fn arena(players: &[&str], rounds: usize, seed: u64) -> Tournament {
    let path = arena_file("arena.toml");
    let (scenario, text) = Scenario::load_text(&path, None).expect("the arena loads");
    let entrants: Vec<Entrant> = players.iter().map(|p| entrant(p)).collect();
    Tournament::new(&scenario, &text, &entrants, rounds, seed).expect("sets up")
}

fn play(t: &Tournament, jobs: usize) -> Outcome {
    t.play(Some(jobs), &|| {}).expect("plays")
}

#[test]
fn every_strategy_beats_the_passer_and_the_random_bot() {
    for bot in STRATEGIES {
        for opponent in ["passer", "random"] {
            let outcome = play(&arena(&[bot, opponent], 20, 1), 2);
            let won = outcome
                .rounds
                .iter()
                .filter(|r| r.players[0].points > r.players[1].points)
                .count();
            assert!(won >= 16, "{bot} beat {opponent} in {won} of 20 rounds");
        }
    }
}

/// The robots of a colour in a world.
fn robots_of(world: &World, color: Color) -> impl Iterator<Item = &constree::world::Robot> {
    world
        .cells
        .iter()
        .flatten()
        .flat_map(|sq| &sq.robots)
        .filter(move |r| r.frame.color == color)
}

fn shields(robot: &constree::world::Robot) -> usize {
    robot
        .inventory
        .iter()
        .filter(|i| matches!(i, Item::Shield))
        .count()
}

/// Rounds of a bot against the passer, recorded: the bot's colour and the
/// worlds of each.
fn recorded(bot: &str, rounds: usize) -> Vec<(Color, Replay)> {
    let t = arena(&[bot, "passer"], rounds, 1);
    (1..=rounds)
        .map(|k| {
            let (result, replay) = t.record_round(k).expect("records");
            (result.players[0].color, replay)
        })
        .collect()
}

#[test]
fn the_bots_hunt_collect_shields_and_build() {
    for bot in STRATEGIES {
        let games = recorded(bot, 4);
        // Each destroys the passer, whose two shields it must break first.
        let killed = games
            .iter()
            .filter(|(c, r)| {
                let last = r.last_world().unwrap();
                robots_of(last, *c).count() > 0
                    && last
                        .cells
                        .iter()
                        .flatten()
                        .all(|sq| sq.robots.iter().all(|x| x.frame.color == *c))
            })
            .count();
        assert!(
            killed >= 3,
            "{bot} destroyed the passer in {killed} of 4 rounds"
        );
        let most_robots = games
            .iter()
            .flat_map(|(c, r)| r.worlds().map(move |w| robots_of(&w, *c).count()))
            .max()
            .unwrap();
        let most_shields = games
            .iter()
            .flat_map(|(c, r)| {
                r.worlds()
                    .flat_map(move |w| robots_of(&w, *c).map(shields).collect::<Vec<_>>())
            })
            .max()
            .unwrap();
        match bot {
            // The hunter collects shields and builds nothing.
            "hunter" => {
                assert!(
                    most_shields > 2,
                    "hunter held at most {most_shields} shields"
                );
                assert_eq!(most_robots, 1);
            }
            // The breeder builds pups, the guard mines, on the kits.
            _ => assert!(most_robots >= 3, "{bot} had at most {most_robots} robots"),
        }
    }
}

#[test]
fn the_guards_mines_stay_and_the_breeders_pups_move() {
    for (bot, moving) in [("breeder", true), ("guard", false)] {
        let (color, replay) = recorded(bot, 1).remove(0);
        // A child has 24 registers (the kit's register parts); the bots 162.
        let children = |w: &World| -> Vec<usize> {
            w.cells
                .iter()
                .enumerate()
                .filter_map(|(k, c)| c.as_ref().map(|sq| (k, sq)))
                .flat_map(|(k, sq)| {
                    sq.robots
                        .iter()
                        .filter(|r| r.frame.color == color && r.memory.len() == 24)
                        .map(move |_| k)
                })
                .collect()
        };
        let born = replay
            .worlds()
            .position(|w| !children(&w).is_empty())
            .unwrap_or_else(|| panic!("{bot} built no child"));
        let first = children(&replay.world(born).unwrap())[0];
        let later = children(&replay.world((born + 6).min(replay.len() - 1)).unwrap());
        assert_eq!(
            !later.contains(&first),
            moving,
            "{bot}'s child at cell {first}, then {later:?}"
        );
    }
}

#[test]
fn a_four_player_tournament_is_the_same_on_one_or_two_threads() {
    let players = ["hunter", "breeder", "guard", "random"];
    let t = arena(&players, 20, 5);
    let one = play(&t, 1);
    let two = play(&t, 2);
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        serde_json::to_string(&two).unwrap()
    );
    assert_eq!(one.rounds.len(), 20);
    assert!(one.rounds.iter().all(|r| r.players.len() == 4));
    // The strategies finish ahead of the random bot.
    assert_eq!(one.standings.last().unwrap().player, "random");
    // The command line prints the same bytes on one or two threads.
    let game = arena_file("arena.toml");
    let paths: Vec<PathBuf> = players
        .iter()
        .map(|p| arena_file(&format!("{p}.cta")))
        .collect();
    let run = |format: &str, jobs: &str| {
        let mut args = vec![
            "tournament",
            "--game",
            arg(&game),
            "--rounds",
            "20",
            "--seed",
            "5",
            "--format",
            format,
            "--jobs",
            jobs,
            "--players",
        ];
        args.extend(paths.iter().map(|p| arg(p)));
        stdout_of(&args)
    };
    let text = run("json", "1");
    assert_eq!(text, run("json", "2"));
    assert_eq!(text, format!("{}\n", serde_json::to_string(&one).unwrap()));
    insta::assert_snapshot!("arena_tournament_table", run("text", "2"));
}

#[test]
fn an_arena_round_replays_in_the_debugger() {
    let dir = scratch_dir("arena_replay");
    let replay = dir.join("round.json");
    let game = arena_file("arena.toml");
    let (hunter, random) = (arena_file("hunter.cta"), arena_file("random.cta"));
    stdout_of(&[
        "tournament",
        "--game",
        arg(&game),
        "--rounds",
        "3",
        "--players",
        arg(&hunter),
        arg(&random),
        "--record-round",
        "3",
        arg(&replay),
    ]);
    let script = dir.join("script");
    std::fs::write(&script, "break main\ncontinue\ncontinue\ninfo robot\n").unwrap();
    let session = stdout_of(&[
        "debug",
        "--replay",
        arg(&replay),
        "--robot",
        "hunter",
        "--batch",
        arg(&script),
    ]);
    assert!(
        session.contains("Debugging Arena, round 3 (200 steps), focus on hunter"),
        "{session}"
    );
    assert!(session.contains("hunter.cta"), "{session}");
    assert!(session.contains("hunter at ("), "{session}");
}

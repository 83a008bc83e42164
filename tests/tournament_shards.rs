//! Tournaments past one machine: `--shard K/N` plays a share of the rounds,
//! `tournament merge` combines the shares into exactly the whole
//! tournament's results (`constree::scenario::tournament::shard`), here
//! also run as GNU parallel runs them (docs/scaling.md).

mod cli_common;

use cli_common::{arg, failure_of, scratch_dir, stdout_of, text};
use constree::asm::source::DiskLoader;
use constree::scenario::tournament::shard::{Shard, merge};
use constree::scenario::tournament::{Entrant, Outcome, Tournament};
use constree::scenario::{Scenario, load_program};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

const PLAYERS: [&str; 3] = ["hunter", "passer", "random"];

/// The arena between three of its bots, `rounds` rounds, seed 5.
fn arena(rounds: usize) -> Tournament {
    let game = repo("examples/arena/arena.toml");
    let text = std::fs::read_to_string(&game).unwrap();
    let scenario = Scenario::load(&game, None).expect("loads");
    let players: Vec<Entrant> = PLAYERS
        .iter()
        .map(|name| Entrant {
            name: name.to_string(),
            image: load_program(
                &DiskLoader::new(None),
                &repo(&format!("examples/arena/{name}.cta")),
            )
            .expect("assembles"),
        })
        .collect();
    Tournament::new(&scenario, &text, &players, rounds, 5).expect("sets up")
}

fn shard(t: &Tournament, index: usize, count: usize) -> (String, Outcome) {
    let outcome = t
        .play_shard(Shard { index, count }, Some(1), &|| {})
        .expect("plays");
    (format!("shard-{index}.json"), outcome)
}

fn json(outcome: &Outcome) -> String {
    serde_json::to_string(outcome).unwrap()
}

#[test]
fn shards_merge_into_the_whole_tournament_in_any_order() {
    let t = arena(5);
    let whole = json(&t.play(Some(1), &|| {}).unwrap());
    // 7 shards of 5 rounds: two of them play no round.
    for count in [1, 2, 3, 7] {
        let mut shards: Vec<_> = (1..=count).map(|k| shard(&t, k, count)).collect();
        shards.reverse();
        assert_eq!(json(&merge(&shards).expect("merges")), whole, "{count}");
        let played: usize = shards.iter().map(|(_, o)| o.rounds.len()).sum();
        assert_eq!(played, 5);
    }
}

#[test]
fn merge_refuses_shards_that_do_not_make_one_whole_tournament() {
    let t = arena(4);
    let shards: Vec<_> = (1..=3).map(|k| shard(&t, k, 3)).collect();
    let refused = |shards: &[(String, Outcome)]| merge(shards).unwrap_err().to_string();

    assert_eq!(refused(&shards[..2]), "shards missing: 3/3");
    let twice = [shards[0].clone(), shards[1].clone(), shards[1].clone()];
    assert_eq!(
        refused(&twice),
        "shard-2.json and shard-2.json are both shard 2/3"
    );
    assert_eq!(refused(&[]), "no shards to merge");

    let whole = ("whole.json".to_string(), t.play(Some(1), &|| {}).unwrap());
    assert!(refused(&[whole]).starts_with("whole.json: these are not a shard's results"));

    let mut other = shards.clone();
    other[2] = shard(&arena(5), 3, 3);
    assert_eq!(
        refused(&other),
        "shard-3.json and shard-1.json differ in their number of rounds: \
         they are shards of different tournaments"
    );

    let mut forged = shards.clone();
    forged[1].1.rounds[0].seed ^= 1;
    assert!(
        refused(&forged).starts_with("shard-2.json: round 2 has the seed"),
        "{}",
        refused(&forged)
    );

    let mut short = shards.clone();
    short[2].1.rounds.pop();
    assert_eq!(
        refused(&short),
        "shard-3.json: shard 3/3 of a 4-round tournament plays rounds 3 to 4, \
         but its results hold 1 round (3)"
    );

    let mut renamed = shards;
    renamed[0].1.rounds[0].players.swap(0, 1);
    assert!(refused(&renamed).starts_with("shard-1.json: round 1 lists the players"));
}

/// The whole tournament's command line, with `--shard` and its value
/// added when given.
fn tournament_args(shard: Option<&str>) -> Vec<String> {
    let mut args: Vec<String> = ["tournament", "--game", "arena.toml", "--rounds", "8"]
        .into_iter()
        .chain(["--seed", "5", "--format", "json"])
        .map(str::to_string)
        .collect();
    if let Some(shard) = shard {
        args.extend(["--shard".to_string(), shard.to_string()]);
    }
    args.push("--players".into());
    args.extend(PLAYERS.iter().map(|p| format!("{p}.cta")));
    args
}

/// The block of docs/scaling.md marked `sh test=local`.
fn local_recipe() -> String {
    let page = std::fs::read_to_string(repo("docs/scaling.md")).unwrap();
    let (_, rest) = page
        .split_once("```sh test=local\n")
        .expect("docs/scaling.md has the local recipe");
    rest.split_once("```").expect("closed").0.to_string()
}

#[test]
fn three_shards_run_by_gnu_parallel_merge_to_the_unsharded_json_byte_for_byte() {
    // The recipe of docs/scaling.md, from a folder that has the
    // repository's examples, with the built constree on the PATH.
    let dir = scratch_dir("tournament_shards_parallel");
    std::os::unix::fs::symlink(repo("examples"), dir.join("examples")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_constree"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let recipe = local_recipe();
    assert!(recipe.contains("parallel") && recipe.contains("--shard {}/3"));
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &recipe])
        .env("PATH", &path)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| dir.join(format!("shard-{k}.json")))
        .collect();
    assert!(shards.iter().all(|s| s.exists()));

    let whole = Command::new(bin)
        .args(tournament_args(None))
        .current_dir(repo("examples/arena"))
        .output()
        .unwrap();
    assert!(whole.status.success(), "{whole:?}");
    let merged = std::fs::read(dir.join("tournament.json")).unwrap();
    assert_eq!(text(&merged), text(&whole.stdout));
    assert!(text(&merged).contains("\"round\":8,"));

    // The table too is the unsharded tournament's.
    let mut merge_args = vec!["tournament", "merge"];
    merge_args.extend(shards.iter().rev().map(|p| arg(p)));
    let mut table_args = tournament_args(None);
    table_args.retain(|a| a != "json" && a != "--format");
    let table = Command::new(bin)
        .args(&table_args)
        .current_dir(repo("examples/arena"))
        .output()
        .unwrap();
    assert_eq!(stdout_of(&merge_args), text(&table.stdout));

    // Two shards are not the tournament.
    let err = failure_of(&["tournament", "merge", arg(&shards[0]), arg(&shards[2])]);
    assert_eq!(
        err,
        cli_common::placeless_error(constree::diagnostic::Code::E1114, "shards missing: 2/3")
    );
}

#[test]
fn a_shard_needs_json_and_a_well_formed_k_of_n() {
    let arena = repo("examples/arena/arena.toml");
    let hunter = repo("examples/arena/hunter.cta");
    let base = [
        "tournament",
        "--game",
        arg(&arena),
        "--players",
        arg(&hunter),
    ];
    for (extra, message) in [
        (&["--shard", "1/2"][..], "it needs --format json"),
        (
            &["--shard", "3/2", "--format", "json"][..],
            "K must be 1 to N",
        ),
        (&["--shard", "1-2", "--format", "json"][..], "is not K/N"),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        let out = cli_common::constree(&args, "");
        let err = cli_common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let err = failure_of(&["tournament", "merge", "-", "-"]);
    assert!(err.contains("standard input (`-`) once"), "{err}");
}

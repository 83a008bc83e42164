//! `constree tournament`: many seeded rounds of a scenario between player
//! programs, in parallel, ranked; `--shard K/N` plays a share of them, and
//! `constree tournament merge` combines the shares.

use super::asm::AssemblyOptions;
use super::{Failure, kind};
use crate::asm::source::DiskLoader;
use crate::scenario::tournament::shard::{Shard, merge};
use crate::scenario::tournament::{Entrant, MAX_JOBS, Outcome, Tournament};
use crate::scenario::{Assembling, Scenario, load_program_denying};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How to print the results.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A ranked table.
    Text,
    /// Every round's details and the standings (no timings).
    Json,
}

/// `constree tournament`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TournamentArgs {
    #[command(subcommand)]
    command: Option<TournamentCommand>,
    /// The scenario: its `[[slot]]`s place the players' robots, its
    /// `scoring` rule scores the rounds.
    #[arg(long, required = true, value_name = "SCENARIO")]
    game: Option<PathBuf>,
    /// The players' programs (`.cta` sources or `.ctm` images); a player is
    /// named after its file.
    #[arg(long, required = true, num_args = 1.., value_name = "PROGRAM")]
    players: Vec<PathBuf>,
    /// Rounds to play.
    #[arg(long, default_value_t = 10)]
    rounds: usize,
    /// The tournament's seed: every round's placements and assignment of
    /// players to slots follow from it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Threads playing rounds (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Also record round K in a replay FILE (for `constree debug --replay`).
    #[arg(long, num_args = 2, value_names = ["K", "FILE"])]
    record_round: Option<Vec<String>>,
    /// Record every round in DIR (`round-K.json`, and its viewer page
    /// `round-K.html`) and write the standings page `DIR/index.html`
    /// linking them.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
    /// Play only shard K of N: rounds (K-1)*R/N+1 to K*R/N of the R rounds
    /// (rounded down), with the seeds the whole tournament gives them;
    /// needs `--format json`, whose results `tournament merge` combines.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    #[command(flatten)]
    assembly: AssemblyOptions,
}

/// The subcommands of `constree tournament`.
#[derive(clap::Subcommand)]
enum TournamentCommand {
    /// Combine the results of a tournament's shards (`--shard K/N --format
    /// json`) into the whole tournament's.
    #[command(
        after_help = "Every shard must be given once; the result is exactly what the tournament
prints unsharded, in either format.

Examples:
  for k in 1 2 3; do
    constree tournament --game examples/arena/arena.toml --rounds 30 --shard $k/3 --format json \\
        --players examples/arena/hunter.cta examples/arena/passer.cta > shard-$k.json
  done
  constree tournament merge shard-*.json                   # the ranked table
  constree tournament merge shard-*.json --format json     # every round and the standings"
    )]
    Merge(MergeArgs),
}

/// `constree tournament merge`.
#[derive(clap::Args)]
struct MergeArgs {
    /// The shards' results (`-` for standard input, once).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Players named after their files; a name taken already gets `#2`, `#3`...
fn entrants(paths: &[PathBuf], assembling: &Assembling) -> Result<Vec<Entrant>, Failure> {
    let loader = DiskLoader::new(assembling.stdlib.clone());
    let mut entrants: Vec<Entrant> = Vec::new();
    for path in paths {
        kind::PROGRAM.check("tournament --players", path)?;
        if path != Path::new("-") && !path.exists() {
            return Err(Failure::NoSuch(format!(
                "there is no program file {}",
                path.display()
            )));
        }
        let image = load_program_denying(&loader, path, assembling.deny_warnings)?;
        let stem = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        let mut name = stem.clone();
        let mut k = 1;
        while entrants.iter().any(|e| e.name == name) {
            k += 1;
            name = format!("{stem}#{k}");
        }
        entrants.push(Entrant { name, image });
    }
    Ok(entrants)
}

/// `--record-round K FILE`.
fn record_request(values: &Option<Vec<String>>) -> Result<Option<(usize, PathBuf)>, Failure> {
    let Some(values) = values else {
        return Ok(None);
    };
    let [k, file] = values.as_slice() else {
        return Err(Failure::Usage(
            "--record-round takes a round and a file".into(),
        ));
    };
    let round = k.parse::<usize>().map_err(|_| {
        Failure::Usage(format!(
            "--record-round: {k:?} is not a round number (1 for the first)"
        ))
    })?;
    Ok(Some((round, PathBuf::from(file))))
}

pub fn run(args: TournamentArgs) -> Result<ExitCode, Failure> {
    if let Some(TournamentCommand::Merge(merge)) = args.command {
        return run_merge(merge);
    }
    let Some(game) = &args.game else {
        return Err(Failure::Usage("a tournament needs --game".into()));
    };
    if args.jobs.is_some_and(|j| j == 0 || j > MAX_JOBS) {
        return Err(Failure::Usage(format!("--jobs must be 1 to {MAX_JOBS}")));
    }
    if args.shard.is_some() && args.format != Format::Json {
        clap::Error::raw(
            clap::error::ErrorKind::ArgumentConflict,
            "--shard prints results for `tournament merge`: it needs --format json\n",
        )
        .exit();
    }
    let record = record_request(&args.record_round)?;
    kind::SCENARIO.check("tournament --game", game)?;
    let assembling = args.assembly.assembling();
    let (scenario, text) = Scenario::load_text_with(game, &assembling)?;
    let players = entrants(&args.players, &assembling)?;
    if let Some((_, file)) = &record {
        crate::files::check_output(file).map_err(|e| Failure::output("--record-round", file, e))?;
    }
    let tournament = Tournament::new(&scenario, &text, &players, args.rounds, args.seed)?;
    if let Some((round, _)) = &record
        && (*round == 0 || *round > args.rounds)
    {
        return Err(Failure::NoSuch(format!(
            "--record-round: there is no round {round} (rounds 1 to {})",
            args.rounds
        )));
    }
    let share = args
        .shard
        .map_or(args.rounds, |s| s.rounds(args.rounds).count());
    let progress =
        super::style::Progress::bar(share as u64, "{bar:40} {pos}/{len} rounds, {eta} left");
    let on_round = || progress.inc(1);
    let outcome = match args.shard {
        Some(shard) => tournament.play_shard(shard, args.jobs, &on_round)?,
        None => tournament.play(args.jobs, &on_round)?,
    };
    drop(progress);
    if let Some((round, file)) = &record {
        save_round(&tournament, *round, file)?;
    }
    if let Some(dir) = &args.html {
        write_pages(&tournament, &outcome, dir)?;
    }
    print_outcome(&outcome, args.format)
}

/// `constree tournament merge`.
fn run_merge(args: MergeArgs) -> Result<ExitCode, Failure> {
    if args.files.iter().filter(|f| *f == Path::new("-")).count() > 1 {
        return Err(Failure::Usage(
            "tournament merge reads standard input (`-`) once only".into(),
        ));
    }
    let mut shards = Vec::with_capacity(args.files.len());
    for file in &args.files {
        kind::SHARD.check("tournament merge", file)?;
        let outcome: Outcome = super::input::read_json(file)?;
        shards.push((crate::files::display(file), outcome));
    }
    print_outcome(&merge(&shards)?, args.format)
}

/// Prints the results: the ranked table and its legend, or JSON.
fn print_outcome(outcome: &Outcome, format: Format) -> Result<ExitCode, Failure> {
    match format {
        Format::Json => super::input::print_json(outcome, false)?,
        Format::Text => {
            print!("{}", table(outcome));
            if !super::style::quiet() {
                print!("{}", legend(&outcome.scoring));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn save_round(tournament: &Tournament, round: usize, file: &Path) -> Result<(), Failure> {
    let (_, replay) = tournament.record_round(round)?;
    replay.save(file)?;
    Ok(())
}

/// `--html DIR`: every round's replay and viewer page, and the standings
/// page linking them.
fn write_pages(tournament: &Tournament, outcome: &Outcome, dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| Failure::output("--html", dir, e))?;
    let name = |k: usize, extension: &str| format!("round-{k}.{extension}");
    for round in outcome.rounds.iter().map(|r| r.round) {
        let (_, replay) = tournament.record_round(round)?;
        let file = dir.join(name(round, "json"));
        replay.save(&file)?;
        super::view::write_page(&replay, &file, &dir.join(name(round, "html")))?;
    }
    let page = crate::viewer::standings::page(outcome, &|k| name(k, "html"));
    let index = dir.join("index.html");
    crate::files::write_output(&index, page.as_bytes()).map_err(|e| Failure::output("", &index, e))
}

/// What the table's columns mean, under a scoring rule.
fn legend(scoring: &str) -> String {
    let score = if scoring == "survivors" {
        "the robots of its colour left at the end"
    } else {
        "the value its robots carry home"
    };
    format!(
        "\npoints: the scoring rule's points, summed over the rounds; wins: rounds with more\n\
         points than every other player; survived: rounds ending with robots of its colour;\n\
         average score: its score per round ({scoring}: {score}).\n"
    )
}

/// The ranked table.
fn table(outcome: &Outcome) -> String {
    let rounds = outcome.rounds.len();
    let mut out = format!(
        "{}: {rounds} round{}, seed {}, scoring {}\n",
        crate::files::escape_controls(&outcome.game),
        if rounds == 1 { "" } else { "s" },
        outcome.seed,
        outcome.scoring
    );
    let width = outcome
        .standings
        .iter()
        .map(|s| s.player.chars().count())
        .chain(["player".len()])
        .max()
        .unwrap_or(0);
    out.push_str(&format!(
        "rank  {:<width$}  points  wins  survived  average score\n",
        "player"
    ));
    for s in &outcome.standings {
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>6}  {:>4}  {:>8}  {:>13.2}\n",
            s.rank,
            crate::files::escape_controls(&s.player),
            s.points,
            s.wins,
            s.survived,
            s.average_score
        ));
    }
    out
}

//! `constree run` and `constree replay`: play a scenario, show a recorded
//! game.

use super::asm::AssemblyOptions;
use super::messages::{self, MessageFormatOption};
use super::render::{self, map};
use super::{Failure, kind};
use crate::scenario::expect::MachineFailure;
use crate::scenario::game::{Game, RobotEvent, scores};
use crate::scenario::replay::Replay;
use crate::scenario::{RobotSetup, Scenario, ScenarioError, builtin};
use crate::words::count;
use crate::world::World;
use std::path::PathBuf;
use std::process::ExitCode;

/// How to print the result.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The report's drawing and scoreboard.
    Text,
    /// `{"world": World, "scores": [...]}`.
    Json,
}

/// `constree run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// A scenario (`.toml`); without one, the built-in game
    /// (examples/harvest/harvest.toml).
    scenario: Option<PathBuf>,
    /// Game steps (default: the scenario's).
    #[arg(long)]
    steps: Option<u64>,
    /// Show the world after every step.
    #[arg(long)]
    watch: bool,
    /// Milliseconds between steps with --watch.
    #[arg(long, default_value_t = 200)]
    delay: u64,
    /// The output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// JSON in the shared form, every tree a node of one table (for
    /// worlds whose trees share nodes); implies `--format json`.
    #[arg(long)]
    shared: bool,
    /// Record the game in a replay file.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Also write the recorded game as a viewer page (`constree view`).
    #[arg(long, value_name = "FILE", requires = "record")]
    html: Option<PathBuf>,
    /// Print what this robot (by name) does every step, and where its
    /// machine fails.
    #[arg(long, value_name = "ROBOT")]
    trace: Option<String>,
    #[command(flatten)]
    assembly: AssemblyOptions,
    #[command(flatten)]
    messages: MessageFormatOption,
}

/// `constree replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A replay file (written by `run --record`).
    file: PathBuf,
    /// The step to show (0 = the start; default: the last).
    #[arg(long)]
    step: Option<usize>,
    /// The output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// JSON in the shared form, every tree a node of one table (for
    /// worlds whose trees share nodes); implies `--format json`.
    #[arg(long)]
    shared: bool,
}

/// The scenario and its text; a scenario that does not load is
/// `Ok(Err(..))`, its errors to be reported as diagnostics.
fn load(args: &RunArgs) -> Result<Result<(Scenario, String), ScenarioError>, Failure> {
    match &args.scenario {
        Some(path) => {
            kind::SCENARIO.check("run", path)?;
            Ok(Scenario::load_text_with(path, &args.assembly.assembling()))
        }
        None => Ok(builtin::scenario().map(|s| (s, builtin::text().to_string()))),
    }
}

/// A line for `--trace`.
fn trace_line(robot: &RobotSetup, event: &RobotEvent) -> String {
    let name = crate::files::escape_controls(&robot.name);
    let Some((x, y)) = event.at else {
        return format!("step {}: {name} is gone (destroyed)", event.step);
    };
    let command = event
        .command
        .as_ref()
        .map_or_else(|| "no command".to_string(), crate::asm::show::summary);
    let action = event
        .action
        .as_ref()
        .map_or_else(String::new, |a| a.to_string());
    let run = match &event.run {
        Some(Ok(r)) if r.halted => format!("halted after {}", count(r.ticks, "tick")),
        Some(Ok(r)) => format!("ran {}", count(r.ticks, "tick")),
        Some(Err(e)) => format!(
            "machine error: {}; every register wiped{}",
            robot.error_text(e),
            event
                .fault
                .as_ref()
                .map_or_else(String::new, |f| format!("\n    in {f}"))
        ),
        None => String::new(),
    };
    format!(
        "step {}: {name} at ({x}, {y}): {command} -> {action}; {run}",
        event.step
    )
}

pub fn run(args: RunArgs) -> Result<ExitCode, Failure> {
    args.messages.install();
    let (scenario, text) = match load(&args)? {
        Ok(loaded) => loaded,
        Err(e) => {
            messages::report(&e.diagnostics, &e.sources);
            return Ok(ExitCode::FAILURE);
        }
    };
    if let Some(path) = &args.record {
        crate::files::check_output(path).map_err(|e| Failure::output("--record", path, e))?;
    }
    if let Some(path) = &args.html {
        crate::files::check_output(path).map_err(|e| Failure::output("--html", path, e))?;
    }
    let steps = args.steps.unwrap_or(scenario.steps);
    let traced = match &args.trace {
        None => None,
        Some(name) => Some(
            scenario
                .robots
                .iter()
                .position(|r| &r.name == name)
                .ok_or_else(|| {
                    let names: Vec<&str> =
                        scenario.robots.iter().map(|r| r.name.as_str()).collect();
                    Failure::NoSuch(format!(
                        "no robot named {name:?} (robots: {})",
                        names.join(", ")
                    ))
                })?,
        ),
    };
    let colour = super::style::colour(super::style::Stream::Stdout);
    let config = scenario.config();
    let mut game = Game::new(&scenario);
    let mut replay = args.record.as_ref().map(|_| {
        let mut replay = Replay::new(scenario.name.clone(), text, scenario.images());
        replay.push(&game.world);
        replay
    });
    let watching = args.watch && args.format == Format::Text;
    let show = |game: &Game<'_>| {
        if colour {
            print!("\x1b[2J\x1b[H");
        }
        println!(
            "{} — step {} of {steps}",
            crate::files::escape_controls(&scenario.name),
            game.step
        );
        print!(
            "{}\n{}",
            map(&game.world, &config, colour),
            render::scores(&scenario, &game.world)
        );
    };
    if watching {
        show(&game);
    }
    let mut tracing = traced;
    let everyone: Vec<usize> = (0..scenario.robots.len()).collect();
    let mut failures = Vec::new();
    let progress = (!watching)
        .then(|| super::style::Progress::bar(steps, "{bar:40} step {pos}/{len}, {eta} left"));
    for _ in 0..steps {
        let (_, events) = game.play_step_following(&everyone);
        for (robot, event) in events.iter().enumerate() {
            MachineFailure::note(&mut failures, &scenario, robot, event);
        }
        if let Some(k) = tracing {
            let event = &events[k];
            let line = trace_line(&scenario.robots[k], event);
            match &progress {
                Some(progress) => progress.println(&line),
                None => println!("{line}"),
            }
            if event.at.is_none() {
                tracing = None;
            }
        }
        if let Some(replay) = &mut replay {
            replay.push(&game.world);
        }
        if watching {
            std::thread::sleep(std::time::Duration::from_millis(args.delay));
            show(&game);
        }
        if let Some(progress) = &progress {
            progress.inc(1);
        }
    }
    drop(progress);
    if let (Some(path), Some(replay)) = (&args.record, &replay) {
        replay.save(path)?;
        if let Some(page) = &args.html {
            super::view::write_page(replay, path, page)?;
        }
    }
    match args.format {
        _ if args.shared => print_result(&game.world, &scores(&scenario, &game.world), true)?,
        Format::Json => print_result(&game.world, &scores(&scenario, &game.world), false)?,
        Format::Text if !args.watch => {
            println!(
                "{} — after {}",
                crate::files::escape_controls(&scenario.name),
                count(game.step, "step")
            );
            print!(
                "{}\n{}",
                map(&game.world, &config, colour),
                render::scores(&scenario, &game.world)
            );
        }
        Format::Text => {}
    }
    // A machine error is part of the game (the robot plays on, wiped):
    // a warning, not a failure.
    for failure in &failures {
        eprintln!("warning: {}", failure.describe(&scenario));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_result(
    world: &World,
    scores: &[crate::scenario::game::Score],
    shared: bool,
) -> Result<(), Failure> {
    #[derive(serde::Serialize)]
    struct Result<'a> {
        world: &'a World,
        scores: &'a [crate::scenario::game::Score],
    }
    super::input::print_json(&Result { world, scores }, shared)
}

pub fn replay(args: ReplayArgs) -> Result<ExitCode, Failure> {
    kind::REPLAY.check("replay", &args.file)?;
    let replay = Replay::load(&args.file)?;
    let last = replay.len().saturating_sub(1);
    let k = args.step.unwrap_or(last);
    let world = replay.world(k).ok_or_else(|| {
        Failure::NoSuch(format!(
            "{}: there is no step {k} (steps 0 to {last})",
            args.file.display()
        ))
    })?;
    let scenario = replay.scenario()?;
    match args.format {
        _ if args.shared => print_result(&world, &scores(&scenario, &world), true)?,
        Format::Json => print_result(&world, &scores(&scenario, &world), false)?,
        Format::Text => {
            println!(
                "{} — step {k} of {last}",
                crate::files::escape_controls(&replay.name)
            );
            let colour = super::style::colour(super::style::Stream::Stdout);
            print!(
                "{}\n{}",
                map(&world, &scenario.config(), colour),
                render::scores(&scenario, &world)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

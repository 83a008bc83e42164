//! `constree test`: play scenarios and check their `[expect]` tables.

use super::asm::AssemblyOptions;
use super::messages::{self, MessageFormatOption};
use super::{Failure, kind};
use crate::scenario::{Assembling, Scenario};
use crate::words::count;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `constree test`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  constree test                         # every scenario (.toml) in this directory
  constree test game.toml               # one scenario
  constree test docs/tutorial/haul.toml

A scenario's expectations are its [expect] table (docs/formats.md):
  [expect]
  scores = { Red = 5 }
  machine_errors = false              # no robot's machine may fail (default: a warning)
  [[expect.robot]]
  name = \"hauler\"
  after = 3
  registers = { trail = \"[nil, nil, nil]\" }

`--quiet` prints only failures, warnings and the count; `--verbose` also
prints where each check that passed is written (FILE:LINE:COLUMN).")]
pub struct TestArgs {
    /// Scenarios (`.toml`) with an `[expect]` table (default: the `.toml`
    /// files of the current directory).
    scenarios: Vec<PathBuf>,
    /// Check only the expectations whose description contains TEXT (as
    /// printed: `Red scores 5`, `hauler's trail after step 3`).
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    #[command(flatten)]
    assembly: AssemblyOptions,
    #[command(flatten)]
    messages: MessageFormatOption,
}

/// The `.toml` files of a directory, sorted.
fn scenarios_in(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Failure::input(dir, format!("cannot list the directory: {e}")))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.strip_prefix(dir).map(Path::to_path_buf).unwrap_or(p))
        .collect();
    found.sort();
    Ok(found)
}

pub fn run(args: TestArgs) -> Result<ExitCode, Failure> {
    args.messages.install();
    let files = if args.scenarios.is_empty() {
        let files = scenarios_in(Path::new("."))?;
        if files.is_empty() {
            return Err(Failure::Nothing(
                "no scenario (.toml) in this directory: name one, or `constree new NAME` makes a project"
                    .into(),
            ));
        }
        files
    } else {
        for file in &args.scenarios {
            kind::SCENARIO.check("test", file)?;
        }
        args.scenarios
    };
    let (mut passed, mut failed) = (0usize, 0usize);
    for file in &files {
        let (p, f) = test_file(file, &args.assembly.assembling(), args.filter.as_deref());
        passed += p;
        failed += f;
    }
    println!("{passed} passed, {failed} failed");
    if passed + failed == 0
        && let Some(filter) = &args.filter
    {
        return Err(Failure::Nothing(format!(
            "no expectation's description contains {filter:?} (`constree test` without --filter lists them)"
        )));
    }
    if passed + failed == 0 {
        return Err(Failure::Nothing(
            "nothing was checked: add an [expect] table to a scenario (docs/formats.md)".into(),
        ));
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Plays one scenario and checks its expectations, printing a line per
/// check and a warning per robot whose machine failed; gives the checks
/// passed and failed (a scenario that does not load is one failure).
fn test_file(file: &Path, assembling: &Assembling, filter: Option<&str>) -> (usize, usize) {
    let quiet = super::style::quiet();
    let scenario = match Scenario::load_text_with(file, assembling).map(|(s, _)| s) {
        Ok(s) => s,
        Err(e) => {
            println!(
                "FAILED  {}: the scenario does not load",
                crate::files::display(file)
            );
            messages::report(&e.diagnostics, &e.sources);
            return (0, 1);
        }
    };
    let Some(expect) = &scenario.expect else {
        if !quiet {
            println!(
                "{}: no [expect] table, nothing checked",
                crate::files::display(file)
            );
        }
        return (0, 0);
    };
    let header = format!(
        "{}: {}, {}",
        crate::files::display(file),
        crate::files::escape_controls(&scenario.name),
        count(expect.steps, "step")
    );
    if !quiet {
        println!("{header}");
    }
    let run = expect.run(&scenario);
    let (mut passed, mut failed) = (0usize, 0usize);
    let chosen = run
        .outcomes
        .iter()
        .filter(|o| filter.is_none_or(|f| o.description.contains(f)));
    for outcome in chosen {
        match &outcome.failure {
            None => {
                passed += 1;
                if super::style::verbose() {
                    println!(
                        "  ok      {} ({})",
                        outcome.description, outcome.check.place
                    );
                } else if !quiet {
                    println!("  ok      {}", outcome.description);
                }
            }
            Some(found) => {
                failed += 1;
                if quiet && failed == 1 {
                    println!("{header}");
                }
                println!(
                    "  FAILED  {}: expected {}, but {found}",
                    outcome.check.place, outcome.description
                );
            }
        }
    }
    if quiet && failed == 0 && !run.failures.is_empty() {
        println!("{header}");
    }
    for failure in &run.failures {
        println!("  warning {}", failure.describe(&scenario));
    }
    (passed, failed)
}

//! `constree test`: play scenarios and check their `[expect]` tables.

use super::asm::StdlibOption;
use super::{Failure, kind};
use crate::scenario::Scenario;
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
  [[expect.robot]]
  name = \"hauler\"
  after = 3
  registers = { trail = \"[nil, nil, nil]\" }")]
pub struct TestArgs {
    /// Scenarios (`.toml`) with an `[expect]` table (default: the `.toml`
    /// files of the current directory).
    scenarios: Vec<PathBuf>,
    #[command(flatten)]
    stdlib: StdlibOption,
}

/// The `.toml` files of a directory, sorted.
fn scenarios_in(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Failure(format!("{}: cannot list the directory: {e}", dir.display())))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.strip_prefix(dir).map(Path::to_path_buf).unwrap_or(p))
        .collect();
    found.sort();
    Ok(found)
}

pub fn run(args: TestArgs) -> Result<ExitCode, Failure> {
    let files = if args.scenarios.is_empty() {
        let files = scenarios_in(Path::new("."))?;
        if files.is_empty() {
            return Err(Failure(
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
        let scenario = match Scenario::load(file, args.stdlib.dir()) {
            Ok(s) => s,
            Err(e) => {
                println!("FAILED  {e}");
                failed += 1;
                continue;
            }
        };
        let Some(expect) = &scenario.expect else {
            println!("{}: no [expect] table, nothing checked", file.display());
            continue;
        };
        println!(
            "{}: {}, {} step{}",
            file.display(),
            scenario.name,
            expect.steps,
            if expect.steps == 1 { "" } else { "s" }
        );
        for outcome in expect.run(&scenario) {
            match &outcome.failure {
                None => {
                    passed += 1;
                    println!("  ok      {}", outcome.description);
                }
                Some(found) => {
                    failed += 1;
                    println!(
                        "  FAILED  {}: expected {}, but {found}",
                        outcome.check.place, outcome.description
                    );
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if passed + failed == 0 {
        return Err(Failure(
            "nothing was checked: add an [expect] table to a scenario (docs/formats.md)".into(),
        ));
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

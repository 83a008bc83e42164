//! `constree conformance DIR`.

use super::Failure;
use crate::conformance::{run_file_counting, vector_files};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `constree conformance`.
#[derive(clap::Args)]
pub struct Args {
    /// A directory of vector files (`.jsonl` or `.jsonl.gz`).
    dir: PathBuf,
    /// Instead of checking DIR, write random machine and world vectors
    /// computed by constree into it, for the reference's `oracle check DIR`.
    /// DIR is made whole (a new folder, renamed into place); counts that
    /// would not fit on the disk are refused before anything is written.
    #[arg(long)]
    generate: bool,
    /// With --generate: replace DIR whole when it holds files (without it, a
    /// folder that is not empty is refused).
    #[arg(long, requires = "generate")]
    replace: bool,
    /// With --generate: the random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// With --generate: how many machine runs.
    #[arg(long, default_value_t = 1000)]
    machines: usize,
    /// With --generate: how many worlds.
    #[arg(long, default_value_t = 100)]
    worlds: usize,
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    if args.generate {
        crate::conformance::generate::generate(
            &args.dir,
            args.seed,
            args.machines,
            args.worlds,
            args.replace,
        )
        .map_err(|e| Failure::output("", &args.dir, e))?;
        println!(
            "{}: {} machines and {} worlds from seed {}",
            args.dir.display(),
            args.machines,
            args.worlds,
            args.seed
        );
        return Ok(ExitCode::SUCCESS);
    }
    let (mut passed, mut failed) = (0, 0);
    let progress =
        super::style::Progress::counter("{spinner} {pos} vectors checked ({per_sec}), {elapsed}");
    for (path, kind) in vector_files(&args.dir)? {
        let report = run_file_counting(&path, kind, &mut || progress.inc(1))?;
        progress.println(&format!(
            "{}: {} passed, {} failed",
            path.display(),
            report.passed,
            report.failed
        ));
        for f in &report.failures {
            progress.println(&format!(
                "  {}:{}: {}",
                path.display(),
                f.line,
                f.message.replace('\n', "\n    ")
            ));
        }
        if report.failed > report.failures.len() {
            progress.println(&format!(
                "  ... and {} more failures",
                report.failed - report.failures.len()
            ));
        }
        passed += report.passed;
        failed += report.failed;
    }
    drop(progress);
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

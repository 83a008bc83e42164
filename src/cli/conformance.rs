//! `constree conformance DIR`.

use super::Failure;
use crate::conformance::{run_file, vector_files};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `constree conformance`.
#[derive(clap::Args)]
pub struct Args {
    /// A directory of vector files (`.jsonl` or `.jsonl.gz`).
    dir: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let (mut passed, mut failed) = (0, 0);
    for (path, kind) in vector_files(&args.dir)? {
        let report = run_file(&path, kind)?;
        println!(
            "{}: {} passed, {} failed",
            path.display(),
            report.passed,
            report.failed
        );
        for f in &report.failures {
            println!(
                "  {}:{}: {}",
                path.display(),
                f.line,
                f.message.replace('\n', "\n    ")
            );
        }
        if report.failed > report.failures.len() {
            println!(
                "  ... and {} more failures",
                report.failed - report.failures.len()
            );
        }
        passed += report.passed;
        failed += report.failed;
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

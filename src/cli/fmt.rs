//! `constree fmt`: lays out `.cta` sources the one canonical way
//! ([`crate::asm::fmt`], docs/fmt.md).

use super::{Failure, kind, messages};
use crate::asm::source::{SourceFile, Sources};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `constree fmt`.
#[derive(clap::Args)]
pub struct FmtArgs {
    /// The programs (`.cta`), each rewritten in place when its layout
    /// changes; `-` reads standard input and writes the result to standard
    /// output.
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Write nothing: print the name of each file that is not formatted,
    /// one per line, and exit with 1 if there is any.
    #[arg(long)]
    check: bool,
}

/// What became of one file.
enum Outcome {
    /// Formatted already (or now).
    Done,
    /// Not formatted (under `--check`).
    Unformatted,
    /// Refused: it does not parse, or could not be read or written.
    Failed,
}

pub fn run(args: FmtArgs) -> Result<ExitCode, Failure> {
    let mut failed = false;
    for path in &args.files {
        let outcome = match one(path, args.check) {
            Ok(outcome) => outcome,
            Err(failure) => {
                messages::failure(&failure);
                Outcome::Failed
            }
        };
        failed |= !matches!(outcome, Outcome::Done);
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Formats one file (`-`: standard input to standard output).
fn one(path: &Path, check: bool) -> Result<Outcome, Failure> {
    kind::SOURCE.check("fmt", path)?;
    let name = crate::files::display(path);
    let text = super::input::read_text(path)?;
    let mut sources = Sources::default();
    let file = sources.add(SourceFile::new(name.clone(), None, text.clone()));
    let formatted = match crate::asm::fmt::format(file, &text) {
        Ok(formatted) => formatted,
        Err(errors) => {
            messages::report(&errors, &sources);
            let first = sources.location(errors[0].primary.0);
            return Err(Failure::Unassembled(format!(
                "{first}: not formatted: the file does not parse ({})",
                crate::words::count(errors.len() as u64, "error")
            )));
        }
    };
    if check {
        if formatted == text {
            return Ok(Outcome::Done);
        }
        println!("{name}");
        return Ok(Outcome::Unformatted);
    }
    if path == Path::new("-") {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(formatted.as_bytes())?;
        stdout.flush()?;
    } else if formatted != text {
        crate::files::rewrite(path, formatted.as_bytes()).map_err(|e| Failure::Output {
            path: name.to_string(),
            reason: format!("not written: {e}"),
        })?;
    }
    Ok(Outcome::Done)
}

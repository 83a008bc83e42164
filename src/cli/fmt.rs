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

/// Refuses to rewrite in place what is not a regular file (a FIFO, a
/// device, a socket), before opening it: opening a FIFO would wait for a
/// writer, and what is read from it cannot be written back.
fn regular(path: &Path, name: &str) -> Result<(), Failure> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => Err(Failure::Output {
            path: name.to_string(),
            reason: format!(
                "not rewritten: it is {}, and only a regular file is rewritten in place \
                 (`constree fmt - < FILE` formats it to standard output)",
                crate::files::kind(&meta)
            ),
        }),
        // Reading says what is wrong with a directory or a missing file.
        _ => Ok(()),
    }
}

/// Formats one file (`-`: standard input to standard output).
fn one(path: &Path, check: bool) -> Result<Outcome, Failure> {
    kind::SOURCE.check("fmt", path)?;
    let name = crate::files::display(path);
    if !check && path != Path::new("-") {
        regular(path, &name)?;
    }
    let text = super::input::read_text(path)?;
    let mut sources = Sources::default();
    let file = sources.add(SourceFile::new(name.clone(), None, text));
    let text = sources.get(file).text.as_str();
    let refused = |errors: Vec<crate::diagnostic::Diagnostic>| {
        messages::report(&errors, &sources);
        let first = sources.location(errors[0].primary.0);
        Failure::Unassembled(format!(
            "{first}: not formatted: the file does not parse ({})",
            crate::words::count(errors.len() as u64, "error")
        ))
    };
    if check {
        // Compared a line at a time, never gathered.
        let mut at = 0;
        let same = crate::asm::fmt::format_with(file, text, |line| {
            if text.as_bytes()[at..].starts_with(line.as_bytes()) {
                at += line.len();
                Ok(())
            } else {
                Err(())
            }
        })
        .map_err(refused)?;
        if same.is_ok() && at == text.len() {
            return Ok(Outcome::Done);
        }
        println!("{name}");
        return Ok(Outcome::Unformatted);
    }
    if path == Path::new("-") {
        // Written a line at a time, never gathered.
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        crate::asm::fmt::format_with(file, text, |line| stdout.write_all(line.as_bytes()))
            .map_err(refused)??;
        stdout.flush()?;
        return Ok(Outcome::Done);
    }
    let formatted = crate::asm::fmt::format(file, text).map_err(refused)?;
    if formatted != text {
        crate::files::rewrite(path, formatted.as_bytes()).map_err(|e| Failure::Output {
            path: name.to_string(),
            reason: format!("not written: {e}"),
        })?;
    }
    Ok(Outcome::Done)
}

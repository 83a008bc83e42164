//! `constree view`: a replay as one self-contained HTML page.

use super::{Failure, kind};
use crate::scenario::replay::Replay;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `constree view`.
#[derive(clap::Args)]
pub struct ViewArgs {
    /// A replay file (written by `run --record`).
    file: PathBuf,
    /// The page to write (default: the replay's name with `.html`; for a
    /// replay read from standard input, standard output); `-` writes
    /// standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Writes the viewer page of a replay to `path`; `file` is how the page
/// names the replay (in its debugger command).
pub fn write_page(replay: &Replay, file: &Path, path: &Path) -> Result<(), Failure> {
    let page = crate::viewer::page(replay, &file.display().to_string())?;
    crate::files::write_output(path, page.as_bytes()).map_err(|e| Failure::output("", path, e))
}

pub fn run(args: ViewArgs) -> Result<ExitCode, Failure> {
    kind::REPLAY.check("view", &args.file)?;
    let output = args.output.unwrap_or_else(|| match &args.file {
        file if file == Path::new("-") => PathBuf::from("-"),
        file => file.with_extension("html"),
    });
    crate::files::check_output(&output).map_err(|e| Failure::output("-o", &output, e))?;
    let replay = Replay::load(&args.file)?;
    write_page(&replay, &args.file, &output)?;
    Ok(ExitCode::SUCCESS)
}

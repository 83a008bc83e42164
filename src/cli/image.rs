//! `constree image ...`: memory images in their two forms, JSON and binary
//! (docs/formats.md).

use super::{Failure, kind};
use crate::image::format::{Form, load, save_as};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The form an image is written in.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormArg {
    /// JSON with a node table: readable, and what older constrees read.
    Json,
    /// The binary form: smaller, and faster to read and write.
    Binary,
}

impl From<FormArg> for Form {
    fn from(form: FormArg) -> Form {
        match form {
            FormArg::Json => Form::Json,
            FormArg::Binary => Form::Binary,
        }
    }
}

/// Subcommands of `constree image`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Write an image in the form `--to` names: both forms carry the same
    /// image, and every command that reads an image reads either.
    #[command(after_help = "Examples:
  constree asm examples/count.cta -o /tmp/count.ctm
  constree image convert /tmp/count.ctm --to json -o /tmp/count.json.ctm
  constree image convert /tmp/count.json.ctm --to binary -o /tmp/again.ctm   # the same bytes as /tmp/count.ctm")]
    Convert {
        /// The image (`.ctm`, either form); `-` reads standard input.
        file: PathBuf,
        /// The form to write.
        #[arg(long, value_enum)]
        to: FormArg,
        /// Where to write it; `-` writes standard output (not a terminal,
        /// for the binary form). Never the file read.
        #[arg(short, long)]
        output: PathBuf,
    },
}

pub fn run(command: Command) -> Result<ExitCode, Failure> {
    match command {
        Command::Convert { file, to, output } => {
            kind::IMAGE.check("image convert", &file)?;
            let image = load(&file)?;
            write(&image, &output, to)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Writes an image in a form, refusing to send the binary form to a
/// terminal.
pub fn write(image: &crate::image::Image, output: &Path, form: FormArg) -> Result<(), Failure> {
    if form == FormArg::Binary && output == Path::new("-") && std::io::stdout().is_terminal() {
        return Err(Failure::Usage(
            "the binary form is not for a terminal: -o FILE writes it to a file, and \
             the JSON form (--image-format json, or --to json) can be printed"
                .into(),
        ));
    }
    save_as(image, output, form.into())?;
    Ok(())
}

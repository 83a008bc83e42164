//! How a command reports diagnostics: drawn for people (ariadne), or as
//! JSON lines for tools (`--message-format json`), on standard error
//! either way.

use crate::diagnostic::{Diagnose, Diagnostic, Sources};
use std::sync::OnceLock;

/// The form of diagnostics (`--message-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    /// Drawn for a person: the source lines, underlined, and a summary.
    #[default]
    Human,
    /// One JSON object per diagnostic, one per line (docs/formats.md).
    Json,
}

/// `--message-format`, for the commands that assemble programs or load
/// scenarios.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct MessageFormatOption {
    /// How to print errors and warnings: `human` draws them, `json` prints
    /// one JSON object per diagnostic per line on standard error (the
    /// fields are in docs/formats.md).
    #[arg(long, value_enum, default_value_t, value_name = "FORMAT")]
    message_format: MessageFormat,
}

static FORMAT: OnceLock<MessageFormat> = OnceLock::new();

impl MessageFormatOption {
    /// Makes this the form of every message for the rest of the process
    /// (the first call wins).
    pub fn install(self) {
        let _ = FORMAT.set(self.message_format);
    }
}

/// The form chosen (human unless a command installed another).
pub fn format() -> MessageFormat {
    FORMAT.get().copied().unwrap_or_default()
}

/// Prints diagnostics on standard error in the chosen form.
pub fn report(diagnostics: &[Diagnostic], sources: &Sources) {
    if diagnostics.is_empty() {
        return;
    }
    let text = match format() {
        MessageFormat::Human => crate::diagnostic::render(
            diagnostics,
            sources,
            super::style::colour(super::style::Stream::Stderr),
        ),
        MessageFormat::Json => crate::diagnostic::render_json(diagnostics, sources),
    };
    eprint!("{text}");
}

/// Prints the diagnostics of a command's failure in the chosen form.
pub fn failure(failure: &super::Failure) {
    let mut sources = Sources::default();
    let diagnostics = failure.diagnose(&mut sources);
    report(&diagnostics, &sources);
}

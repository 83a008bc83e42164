//! How output looks, decided once for the whole command from the global
//! options and the environment: colour (`--color`, `NO_COLOR`,
//! `CLICOLOR_FORCE`), quietness (`--quiet`) and verbosity (`--verbose`).

use std::io::IsTerminal;
use std::sync::OnceLock;

/// When to colour output (`--color WHEN`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set; `CLICOLOR_FORCE` forces it.
    #[default]
    Auto,
    /// Always, even into a file or a pipe.
    Always,
    /// Never.
    Never,
}

/// The options every command takes.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct GlobalOptions {
    /// When to colour output: `auto` colours on a terminal unless `NO_COLOR`
    /// is set (`CLICOLOR_FORCE` colours even off a terminal).
    #[arg(long, value_enum, default_value_t, global = true, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Print only results and errors: no progress bars, no notes.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more about what is being done.
    #[arg(short, long, global = true)]
    pub verbose: bool,
}

/// An output stream of the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn is_terminal(self) -> bool {
        match self {
            Stream::Stdout => std::io::stdout().is_terminal(),
            Stream::Stderr => std::io::stderr().is_terminal(),
        }
    }
}

static OPTIONS: OnceLock<GlobalOptions> = OnceLock::new();

/// Sets the options for the rest of the process (the first call wins).
pub fn set(options: GlobalOptions) {
    let _ = OPTIONS.set(options);
}

fn options() -> GlobalOptions {
    OPTIONS.get().cloned().unwrap_or_default()
}

/// Whether to colour what is written to `stream`.
pub fn colour(stream: Stream) -> bool {
    decide(
        options().color,
        std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0"),
        stream.is_terminal(),
    )
}

/// The colour rule: the command line wins; then `NO_COLOR` (any non-empty
/// value) turns colour off; then `CLICOLOR_FORCE` (non-empty, not `0`) turns
/// it on; otherwise colour exactly when the stream is a terminal.
fn decide(choice: ColorChoice, no_color: bool, force: bool, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => !no_color && (force || terminal),
    }
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    options().quiet
}

/// Whether `--verbose` was given.
pub fn verbose() -> bool {
    options().verbose
}

/// Whether a progress bar may be drawn: standard error is a terminal and the
/// command is not quiet.
pub fn progress() -> bool {
    !quiet() && Stream::Stderr.is_terminal()
}

/// A progress bar on standard error for work that may take a while: it
/// appears only after the work has run for a second, only when
/// [`progress`] allows it (a terminal, not `--quiet`), and is cleared when
/// dropped. It can be advanced from several threads.
pub struct Progress {
    started: std::time::Instant,
    /// The total, when known (a bar); `None` draws a counter.
    total: Option<u64>,
    /// The indicatif template (`{pos}`, `{len}`, `{eta}`, ...).
    template: &'static str,
    allowed: bool,
    /// Work done so far, and the bar once it is drawn.
    state: std::sync::Mutex<(u64, Option<indicatif::ProgressBar>)>,
}

impl Progress {
    /// A bar towards `total`, drawn with `template`.
    pub fn bar(total: u64, template: &'static str) -> Progress {
        Progress::new(Some(total), template)
    }

    /// A counter of work whose total is not known.
    pub fn counter(template: &'static str) -> Progress {
        Progress::new(None, template)
    }

    fn new(total: Option<u64>, template: &'static str) -> Progress {
        Progress {
            started: std::time::Instant::now(),
            total,
            template,
            allowed: progress(),
            state: std::sync::Mutex::new((0, None)),
        }
    }

    /// `n` more done.
    pub fn inc(&self, n: u64) {
        if !self.allowed {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (done, bar) = &mut *state;
        *done += n;
        if let Some(bar) = bar {
            bar.set_position(*done);
        } else if self.started.elapsed() >= std::time::Duration::from_secs(1) {
            let new = match self.total {
                Some(total) => indicatif::ProgressBar::new(total),
                None => indicatif::ProgressBar::new_spinner(),
            };
            if let Ok(style) = indicatif::ProgressStyle::with_template(self.template) {
                new.set_style(style);
            }
            new.set_position(*done);
            *bar = Some(new);
        }
    }

    /// Prints a line on standard output without breaking the bar.
    pub fn println(&self, line: &str) {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match &state.1 {
            Some(bar) => bar.suspend(|| println!("{line}")),
            None => println!("{line}"),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bar) = &state.1 {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ColorChoice, decide};

    #[test]
    fn the_command_line_wins_then_no_color_then_force_then_the_terminal() {
        use ColorChoice::*;
        for (no_color, force, terminal) in [
            (false, false, false),
            (true, true, true),
            (false, true, false),
            (true, false, true),
        ] {
            assert!(decide(Always, no_color, force, terminal));
            assert!(!decide(Never, no_color, force, terminal));
        }
        assert!(decide(Auto, false, false, true));
        assert!(!decide(Auto, false, false, false));
        assert!(!decide(Auto, true, false, true));
        assert!(!decide(Auto, true, true, true));
        assert!(decide(Auto, false, true, false));
    }
}

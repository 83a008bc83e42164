//! The kinds of files the commands take, told apart by their extensions,
//! so that a file of the wrong kind gets one line saying what to run
//! instead of the errors of a reader that does not understand it.

use super::Failure;
use std::path::Path;

/// A kind of file, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A program source, `.cta`.
    Source,
    /// A memory image, `.ctm`.
    Image,
    /// A scenario, `.toml`.
    Scenario,
    /// A JSON document (a replay, a world, a memory), `.json`.
    Json,
}

impl Kind {
    /// The kind a file's extension says, if it is one of the four.
    pub fn of(path: &Path) -> Option<Kind> {
        match path.extension()?.to_str()? {
            "cta" => Some(Kind::Source),
            "ctm" => Some(Kind::Image),
            "toml" => Some(Kind::Scenario),
            "json" => Some(Kind::Json),
            _ => None,
        }
    }

    /// The kind in words, with its article.
    fn noun(self) -> &'static str {
        match self {
            Kind::Source => "a program",
            Kind::Image => "a memory image",
            Kind::Scenario => "a scenario",
            Kind::Json => "JSON",
        }
    }

    /// The command that takes a file of this kind, and what it does.
    fn hint(self, file: &str) -> String {
        match self {
            Kind::Source | Kind::Image => format!("`constree exec {file}` runs it"),
            Kind::Scenario => format!("`constree run {file}` plays it"),
            Kind::Json => format!("`constree replay {file}` shows it if it is a recorded game"),
        }
    }
}

/// What a command takes: the kinds it reads and how to say so.
#[derive(Debug, Clone, Copy)]
pub struct Takes {
    /// The kinds it reads.
    pub kinds: &'static [Kind],
    /// What it is, in words (`a program`).
    pub noun: &'static str,
    /// What it is, with its extensions (`a .cta program or .ctm image`).
    pub files: &'static str,
}

/// A program: a source or an image.
pub const PROGRAM: Takes = Takes {
    kinds: &[Kind::Source, Kind::Image],
    noun: "a program",
    files: "a .cta program or .ctm image",
};

/// A program source.
pub const SOURCE: Takes = Takes {
    kinds: &[Kind::Source],
    noun: "a program source",
    files: "a .cta program",
};

/// A memory image.
pub const IMAGE: Takes = Takes {
    kinds: &[Kind::Image],
    noun: "a memory image",
    files: "a .ctm image (`constree asm` writes one)",
};

/// A scenario.
pub const SCENARIO: Takes = Takes {
    kinds: &[Kind::Scenario],
    noun: "a scenario",
    files: "a .toml scenario",
};

/// A scenario or a lone program (`debug`).
pub const SCENARIO_OR_PROGRAM: Takes = Takes {
    kinds: &[Kind::Scenario, Kind::Source, Kind::Image],
    noun: "a scenario or a program",
    files: "a .toml scenario, a .cta program or a .ctm image (`--replay FILE` a recorded game)",
};

/// A recorded game.
pub const REPLAY: Takes = Takes {
    kinds: &[Kind::Json],
    noun: "a replay",
    files: "a .json replay (`run --record` writes one)",
};

/// A bare memory as JSON.
pub const MEMORY: Takes = Takes {
    kinds: &[Kind::Json],
    noun: "a memory (JSON)",
    files: "a memory as JSON (docs/formats.md)",
};

/// A world as JSON.
pub const WORLD: Takes = Takes {
    kinds: &[Kind::Json],
    noun: "a world (JSON)",
    files: "a world as JSON (`run --format json` prints one)",
};

/// A tournament shard's results.
pub const SHARD: Takes = Takes {
    kinds: &[Kind::Json],
    noun: "a tournament shard's results (JSON)",
    files: "a shard's results as JSON (`tournament --shard K/N --format json` prints them)",
};

impl Takes {
    /// Refuses a file whose extension says it is of a kind `command` does
    /// not take, in one line that says what the file is, what to run on
    /// it, and what `command` takes. Files without one of the known
    /// extensions (and `-`, standard input) pass: their reader decides.
    pub fn check(&self, command: &str, path: &Path) -> Result<(), Failure> {
        match Kind::of(path) {
            Some(kind) if !self.kinds.contains(&kind) => {
                let file = path.display().to_string();
                Err(Failure::WrongKind(format!(
                    "{file} is {}, not {}: {}; `{command}` takes {}",
                    kind.noun(),
                    self.noun,
                    kind.hint(&super::shell_word(&file)),
                    self.files
                )))
            }
            _ => Ok(()),
        }
    }
}

//! Running the conformance vectors: files of JSON lines whose expected values
//! were computed by the report's own code (see `tests/conformance/README.md`).
//!
//! Each file is named after what it tests (`ints`, `encode`, `decode`,
//! `machine`, `world`, `render`), plain (`.jsonl`) or gzipped
//! (`.jsonl.gz`). Every line is checked on its own; a line that cannot be
//! read counts as a failure with its reason, never as a crash.

mod cases;
mod diff;
mod digest;
pub mod generate;

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

pub use cases::LineError;
pub use diff::first_difference;
pub use digest::fnv1a;

/// The kinds of vector file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileKind {
    /// `encode`/`decode` of `Int`.
    Ints,
    /// `encode` of every encodable type.
    Encode,
    /// `decode` of instructions, commands and directions.
    Decode,
    /// `runFor`.
    Machine,
    /// `update`, step by step.
    World,
    /// `visualize` and `scoreboard`.
    Render,
}

impl FileKind {
    /// All kinds, in the order they are run.
    pub const ALL: [FileKind; 6] = [
        FileKind::Ints,
        FileKind::Encode,
        FileKind::Decode,
        FileKind::Machine,
        FileKind::World,
        FileKind::Render,
    ];

    /// The file stem: `ints`, `encode`, ...
    pub fn stem(self) -> &'static str {
        match self {
            FileKind::Ints => "ints",
            FileKind::Encode => "encode",
            FileKind::Decode => "decode",
            FileKind::Machine => "machine",
            FileKind::World => "world",
            FileKind::Render => "render",
        }
    }

    /// The kind a file name stands for (`world.jsonl`, `world.jsonl.gz`).
    pub fn of_file_name(name: &str) -> Option<FileKind> {
        let stem = name
            .strip_suffix(".gz")
            .unwrap_or(name)
            .strip_suffix(".jsonl")?;
        FileKind::ALL.into_iter().find(|k| k.stem() == stem)
    }
}

/// One failed line.
#[derive(Debug, Clone)]
pub struct Failure {
    /// 1-based line number.
    pub line: usize,
    /// What went wrong, readable: a parse error, or a diff of expected
    /// against actual.
    pub message: String,
}

/// The result of one file.
#[derive(Debug, Clone)]
pub struct FileReport {
    /// The file.
    pub path: PathBuf,
    /// Lines that passed.
    pub passed: usize,
    /// Lines that failed.
    pub failed: usize,
    /// The first failures, at most [`MAX_FAILURES_KEPT`].
    pub failures: Vec<Failure>,
}

/// How many failures a report keeps per file.
pub const MAX_FAILURES_KEPT: usize = 5;

/// Why a file could not be checked at all.
#[derive(Debug, thiserror::Error)]
pub enum ConformanceError {
    /// The file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The directory holds no vector files.
    #[error(
        "{0}: no conformance files (ints/encode/decode/machine/world/render .jsonl or .jsonl.gz)"
    )]
    Empty(PathBuf),
}

/// Checks one line of a vector file.
pub fn check_line(kind: FileKind, line: &str) -> Result<(), LineError> {
    cases::check(kind, line)
}

/// Checks every line of one file.
pub fn run_file(path: &Path, kind: FileKind) -> Result<FileReport, ConformanceError> {
    run_file_counting(path, kind, &mut || {})
}

/// [`run_file`], calling `checked` after each vector.
pub fn run_file_counting(
    path: &Path,
    kind: FileKind,
    checked: &mut dyn FnMut(),
) -> Result<FileReport, ConformanceError> {
    let io_error = |source| ConformanceError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io_error)?;
    let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut report = FileReport {
        path: path.to_path_buf(),
        passed: 0,
        failed: 0,
        failures: Vec::new(),
    };
    for (index, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(io_error)?;
        if line.trim().is_empty() {
            continue;
        }
        let result = check_line(kind, &line);
        checked();
        match result {
            Ok(()) => report.passed += 1,
            Err(error) => {
                report.failed += 1;
                if report.failures.len() < MAX_FAILURES_KEPT {
                    report.failures.push(Failure {
                        line: index + 1,
                        message: error.to_string(),
                    });
                }
            }
        }
    }
    Ok(report)
}

/// The vector files of a directory, in the order of [`FileKind::ALL`].
pub fn vector_files(dir: &Path) -> Result<Vec<(PathBuf, FileKind)>, ConformanceError> {
    let entries = std::fs::read_dir(dir).map_err(|source| ConformanceError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files: Vec<(PathBuf, FileKind)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let kind = FileKind::of_file_name(e.file_name().to_str()?)?;
            Some((e.path(), kind))
        })
        .collect();
    if files.is_empty() {
        return Err(ConformanceError::Empty(dir.to_path_buf()));
    }
    files.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    Ok(files)
}

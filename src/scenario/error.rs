//! Errors in scenario files: the file, line and column, the field, and what
//! was expected.

use std::fmt;

/// A scenario that cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The scenario file.
    pub file: String,
    /// 1-based line and column, when the problem has a place.
    pub at: Option<(usize, usize)>,
    /// The field, e.g. `robot[2].program`.
    pub field: String,
    /// What is wrong and what was expected.
    pub message: String,
    /// More, e.g. a program's rendered diagnostics.
    pub details: Option<String>,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "{}:{line}:{column}: ", self.file)?,
            None => write!(f, "{}: ", self.file)?,
        }
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)?;
        if let Some(details) = &self.details {
            write!(f, "\n{}", details.trim_end())?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioError {}

/// Turns byte offsets of one file into errors with line and column.
pub struct Locator<'a> {
    file: &'a str,
    text: &'a str,
}

impl<'a> Locator<'a> {
    /// For a file with this name and text.
    pub fn new(file: &'a str, text: &'a str) -> Locator<'a> {
        Locator { file, text }
    }

    /// The file's name.
    pub fn file(&self) -> &str {
        self.file
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }

    /// An error at a byte range of the file.
    pub fn error(
        &self,
        span: std::ops::Range<usize>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> ScenarioError {
        ScenarioError {
            file: self.file.to_string(),
            at: Some(self.line_col(span.start)),
            field: field.into(),
            message: message.into(),
            details: None,
        }
    }

    /// An error of the whole file.
    pub fn whole(&self, field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            file: self.file.to_string(),
            at: None,
            field: field.into(),
            message: message.into(),
            details: None,
        }
    }
}

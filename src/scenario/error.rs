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

    /// The field (`expect.robot[0].name`) whose key or value holds a byte
    /// offset of the file, as deep as it goes; empty when none does (or
    /// the file is not TOML).
    pub fn field_at(&self, offset: usize) -> String {
        toml::de::DeTable::parse(self.text)
            .ok()
            .and_then(|root| table_field(root.get_ref(), offset))
            .unwrap_or_default()
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

/// The path below a table to the deepest key or value that holds
/// `offset` (`item[0].cargo`), walked with an explicit stack: nesting in
/// the file never deepens the Rust stack.
fn table_field(root: &toml::de::DeTable<'_>, offset: usize) -> Option<String> {
    use toml::de::DeValue;
    enum Node<'t, 'a> {
        Table(&'t toml::de::DeTable<'a>),
        Value(&'t toml::Spanned<DeValue<'a>>),
    }
    let join = |path: &str, key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    // The deepest holder found so far: (depth, path).
    let mut best: Option<(usize, String)> = None;
    let mut found = |depth: usize, path: String| {
        if best.as_ref().is_none_or(|(d, _)| depth > *d) {
            best = Some((depth, path));
        }
    };
    let mut stack = vec![(0, String::new(), Node::Table(root))];
    while let Some((depth, path, node)) = stack.pop() {
        match node {
            Node::Table(table) => {
                for (key, value) in table.iter() {
                    let path = join(&path, key.get_ref());
                    if key.span().contains(&offset) {
                        found(depth + 1, path.clone());
                    }
                    stack.push((depth + 1, path, Node::Value(value)));
                }
            }
            Node::Value(value) => {
                if value.span().contains(&offset) {
                    found(depth, path.clone());
                }
                match value.get_ref() {
                    DeValue::Table(table) => stack.push((depth, path, Node::Table(table))),
                    DeValue::Array(items) => {
                        for (i, item) in items.iter().enumerate() {
                            stack.push((depth + 1, format!("{path}[{i}]"), Node::Value(item)));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    best.map(|(_, path)| path)
}

//! Rendering diagnostics for terminals, with ariadne.

use super::{Diagnostic, FileId, Place, Severity, Sources, Span};
use ariadne::{Color, Config, Label, Report, ReportKind};
use std::fmt::Write;

/// Most diagnostics shown in full; the rest are counted.
pub const MAX_SHOWN: usize = 50;

/// Renders diagnostics with ariadne, errors and warnings in source order,
/// at most [`MAX_SHOWN`] in full, then a count of the rest and a summary.
pub fn render(diagnostics: &[Diagnostic], sources: &Sources, colour: bool) -> String {
    let mut out = String::new();
    let mut chars = CharIndexes::default();
    for d in diagnostics.iter().take(MAX_SHOWN) {
        out.push_str(&render_one(d, sources, colour, &mut chars));
    }
    if diagnostics.len() > MAX_SHOWN {
        let _ = writeln!(
            out,
            "... and {} more diagnostics not shown",
            diagnostics.len() - MAX_SHOWN
        );
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    if errors + warnings > 0 {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let _ = writeln!(
            out,
            "{}, {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        );
    }
    out
}

/// Source cache for ariadne keyed by file name.
struct Cache<'a> {
    sources: &'a Sources,
    loaded: Vec<(String, ariadne::Source<String>)>,
}

impl ariadne::Cache<String> for Cache<'_> {
    type Storage = String;

    fn fetch(&mut self, id: &String) -> Result<&ariadne::Source<String>, impl std::fmt::Debug> {
        if let Some(k) = self.loaded.iter().position(|(n, _)| n == id) {
            return Ok::<_, String>(&self.loaded[k].1);
        }
        let text = self
            .sources
            .iter()
            .find(|(_, f)| &f.name == id)
            .map(|(_, f)| f.text.clone())
            .ok_or_else(|| format!("no source named {id}"))?;
        self.loaded.push((id.clone(), ariadne::Source::from(text)));
        Ok(&self.loaded.last().expect("just pushed").1)
    }

    fn display<'b>(&self, id: &'b String) -> Option<impl std::fmt::Display + 'b> {
        Some(id.clone())
    }
}

/// Character offsets of byte offsets, per file. Spans are byte ranges;
/// ariadne is given character ranges (its byte mode mixes the two when a
/// report has labels in several files).
#[derive(Default)]
struct CharIndexes {
    /// Per file: (byte, char) offsets of every line start.
    files: std::collections::HashMap<u32, Vec<(usize, usize)>>,
}

impl CharIndexes {
    fn offset(&mut self, sources: &Sources, file: FileId, byte: usize) -> usize {
        let text = &sources.get(file).text;
        let lines = self.files.entry(file.0).or_insert_with(|| {
            let mut starts = vec![(0, 0)];
            let mut chars = 0;
            for (i, c) in text.char_indices() {
                chars += 1;
                if c == '\n' {
                    starts.push((i + 1, chars));
                }
            }
            starts
        });
        let k = lines.partition_point(|(b, _)| *b <= byte).saturating_sub(1);
        let (line_byte, line_char) = lines[k];
        let mut end = byte.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        line_char + text[line_byte.min(end)..end].chars().count()
    }

    fn range(&mut self, sources: &Sources, span: Span) -> std::ops::Range<usize> {
        let start = self.offset(sources, span.file, span.start as usize);
        let end = self.offset(sources, span.file, span.end as usize);
        start..end.max(start)
    }
}

/// A diagnostic about a file with no text (one that could not be read),
/// about a whole file, or about no file: there is no line to underline, so
/// it is the header (with the file's name, for a whole file), then its
/// notes and help, each on a line of its own.
fn render_without_snippet(d: &Diagnostic, sources: &Sources, colour: bool) -> String {
    let (word, sgr) = match d.severity {
        Severity::Error => ("Error", "31"),
        Severity::Warning => ("Warning", "33"),
    };
    let header = format!("[{}] {word}:", d.code);
    let message = if d.place == Place::WholeFile {
        format!("{}: {}", sources.get(d.primary.0.file).name, d.message)
    } else {
        d.message.clone()
    };
    let mut out = if colour {
        format!("\x1b[{sgr}m{header}\x1b[0m {message}\n")
    } else {
        format!("{header} {message}\n")
    };
    for n in &d.notes {
        out.push_str(&format!("   = Note: {n}\n"));
    }
    if let Some(h) = &d.help {
        out.push_str(&format!("   = Help: {h}\n"));
    }
    out
}

fn render_one(d: &Diagnostic, sources: &Sources, colour: bool, chars: &mut CharIndexes) -> String {
    let name = |s: Span| sources.get(s.file).name.clone();
    let mut range = |s: Span| chars.range(sources, s);
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let main_colour = if d.is_error() {
        Color::Red
    } else {
        Color::Yellow
    };
    let (span, text) = &d.primary;
    if d.place != Place::Span || (sources.get(span.file).text.is_empty() && d.labels.is_empty()) {
        return render_without_snippet(d, sources, colour);
    }
    let mut report = Report::build(kind, (name(*span), range(*span)))
        .with_config(
            Config::new()
                .with_color(colour)
                .with_index_type(ariadne::IndexType::Char),
        )
        .with_code(d.code)
        .with_message(&d.message);
    let mut primary = Label::new((name(*span), range(*span))).with_color(main_colour);
    if !text.is_empty() {
        primary = primary.with_message(text);
    }
    report = report.with_label(primary);
    for (s, t) in &d.labels {
        report = report.with_label(
            Label::new((name(*s), range(*s)))
                .with_message(t)
                .with_color(Color::Blue),
        );
    }
    for (macro_name, site) in &d.expansion {
        report = report.with_label(
            Label::new((name(*site), range(*site)))
                .with_message(format!("in this expansion of `{macro_name}`"))
                .with_color(Color::Cyan),
        );
    }
    for n in &d.notes {
        report = report.with_note(n);
    }
    if let Some(h) = &d.help {
        report = report.with_help(h);
    }
    let mut bytes = Vec::new();
    let cache = Cache {
        sources,
        loaded: Vec::new(),
    };
    if report.finish().write(cache, &mut bytes).is_err() {
        return format!("{}: {}: {}\n", sources.location(*span), d.code, d.message);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

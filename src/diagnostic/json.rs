//! Diagnostics as JSON for tools (`--message-format json`): one object per
//! diagnostic, on one line, in the manner of rustc's and cargo's JSON
//! messages.
//!
//! ```json
//! {"code": "E0512", "level": "error", "message": "unknown register or label `cout`",
//!  "spans": [{"file": "bot.cta", "byte_start": 40, "byte_end": 44,
//!             "line_start": 5, "column_start": 9, "line_end": 5, "column_end": 13,
//!             "is_primary": true, "label": "not defined"}],
//!  "children": [{"level": "help", "message": "did you mean `out`?"}],
//!  "expansion": [{"macro": "mov", "span": {...}}]}
//! ```
//!
//! `spans` holds the primary span first, then the other labelled places;
//! `children` the notes (`"level": "note"`) and the help line
//! (`"level": "help"`); `expansion` the macro invocations the primary
//! span was expanded from, innermost first. Lines and columns are 1-based,
//! columns counted in characters, the end exclusive; a diagnostic about a
//! whole file (a scenario over a cap) has a primary span with its file and
//! `null` positions, and one about no file (an option of the command line)
//! has no spans.

use super::{Diagnostic, Place, Severity, Sources, Span};
use serde_json::{Value, json};

/// A span as JSON, with its label (`null` when it has none).
fn span(sources: &Sources, span: Span, label: &str, primary: bool) -> Value {
    let file = sources.get(span.file);
    let (line_start, column_start) = file.line_col(span.start as usize);
    let (line_end, column_end) = file.line_col(span.end as usize);
    json!({
        "file": file.name,
        "byte_start": span.start,
        "byte_end": span.end,
        "line_start": line_start,
        "column_start": column_start,
        "line_end": line_end,
        "column_end": column_end,
        "is_primary": primary,
        "label": (!label.is_empty()).then_some(label),
    })
}

/// The word for a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The span of a diagnostic about a whole file: the file, no place in it.
fn whole_file(sources: &Sources, span: Span) -> Value {
    json!({
        "file": sources.get(span.file).name,
        "byte_start": null,
        "byte_end": null,
        "line_start": null,
        "column_start": null,
        "line_end": null,
        "column_end": null,
        "is_primary": true,
        "label": null,
    })
}

/// One diagnostic as a JSON value.
pub fn to_json(d: &Diagnostic, sources: &Sources) -> Value {
    let (primary, label) = &d.primary;
    let first = match d.place {
        Place::Span => Some(span(sources, *primary, label, true)),
        Place::WholeFile => Some(whole_file(sources, *primary)),
        Place::Nowhere => None,
    };
    let spans: Vec<Value> = first
        .into_iter()
        .chain(d.labels.iter().map(|(s, t)| span(sources, *s, t, false)))
        .collect();
    let children: Vec<Value> = d
        .notes
        .iter()
        .map(|n| json!({"level": "note", "message": n}))
        .chain(
            d.help
                .iter()
                .map(|h| json!({"level": "help", "message": h})),
        )
        .collect();
    let expansion: Vec<Value> = d
        .expansion
        .iter()
        .map(|(name, site)| json!({"macro": name, "span": span(sources, *site, "", false)}))
        .collect();
    json!({
        "code": d.code.as_str(),
        "level": level(d.severity),
        "message": d.message,
        "spans": spans,
        "children": children,
        "expansion": expansion,
    })
}

/// Diagnostics as JSON lines, one object per line, every one of them
/// (there is no cap on how many, as there is for terminals).
pub fn render_json(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&to_json(d, sources).to_string());
        out.push('\n');
    }
    out
}

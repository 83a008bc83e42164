//! The assembler's diagnostics as the protocol's: every diagnostic of an
//! assembly is shown in the document that was assembled.

use super::text::{Lines, path_to_uri};
use crate::asm::Assembly;
use crate::diagnostic::{FileId, Severity, Span};
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range,
    Uri,
};

/// The main file of an assembly: the first one read.
const MAIN: FileId = FileId(0);

/// The diagnostics of an assembly of the document `uri`, for
/// `textDocument/publishDiagnostics`. One in the document is at its place;
/// one in another file (an included module, the standard library) is at
/// the outermost macro call in the document it came from, else at the
/// document's start, and says where it is in its first related item.
pub fn convert(assembly: &Assembly, uri: &Uri) -> Vec<Diagnostic> {
    let places = Places::new(assembly, uri);
    assembly
        .diagnostics
        .iter()
        .map(|d| one(d, &places))
        .collect()
}

/// Where spans are, as protocol locations.
struct Places<'a> {
    assembly: &'a Assembly,
    uri: &'a Uri,
    /// The lines of each file, by [`FileId`].
    lines: Vec<Lines<'a>>,
}

impl<'a> Places<'a> {
    fn new(assembly: &'a Assembly, uri: &'a Uri) -> Places<'a> {
        let lines = assembly
            .sources
            .iter()
            .map(|(_, f)| Lines::new(&f.text))
            .collect();
        Places {
            assembly,
            uri,
            lines,
        }
    }

    fn range(&self, span: Span) -> Range {
        self.lines[span.file.0 as usize].range(span.range())
    }

    /// The location of a span: in the document, or in a file on disk
    /// (`None` for an embedded standard module, which has no URI).
    fn location(&self, span: Span) -> Option<Location> {
        let uri = if span.file == MAIN {
            self.uri.clone()
        } else {
            let path = self.assembly.sources.get(span.file).path.as_ref()?;
            path_to_uri(path).parse().ok()?
        };
        Some(Location::new(uri, self.range(span)))
    }

    /// `file:line:column` of a span, for a message.
    fn named(&self, span: Span) -> String {
        self.assembly.sources.location(span)
    }
}

fn one(d: &crate::diagnostic::Diagnostic, places: &Places) -> Diagnostic {
    let span = d.primary.0;
    // Where to show it in the document.
    let shown = if span.file == MAIN {
        places.range(span)
    } else {
        d.expansion
            .iter()
            .rev()
            .find(|(_, site)| site.file == MAIN)
            .map_or_else(Range::default, |(_, site)| places.range(*site))
    };
    let here = Location::new(places.uri.clone(), shown);
    // A related item at a span, or (in a file without a URI) at the place
    // shown, naming where it is.
    let at = |span: Span, text: &str| match places.location(span) {
        Some(location) => (location, text.to_string()),
        None => (here.clone(), format!("{}: {text}", places.named(span))),
    };
    let mut related = Vec::new();
    if span.file != MAIN || !d.primary.1.is_empty() {
        let what = if d.primary.1.is_empty() {
            "here"
        } else {
            &d.primary.1
        };
        related.push(at(span, what));
    }
    related.extend(d.labels.iter().map(|(s, text)| at(*s, text)));
    related.extend(
        d.expansion
            .iter()
            .map(|(name, site)| at(*site, &format!("in this expansion of macro `{name}`"))),
    );
    related.extend(d.notes.iter().map(|n| (here.clone(), format!("note: {n}"))));
    related.extend(d.help.iter().map(|h| (here.clone(), format!("help: {h}"))));
    Diagnostic {
        range: shown,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("constree".to_string()),
        message: d.message.clone(),
        related_information: Some(
            related
                .into_iter()
                .map(|(location, message)| DiagnosticRelatedInformation { location, message })
                .collect(),
        ),
        ..Diagnostic::default()
    }
}

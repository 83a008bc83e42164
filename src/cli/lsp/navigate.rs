//! Requests about a symbol's places: go to definition, find references,
//! rename, and the document's outline.
//!
//! A symbol is known by where it is defined (a file and a span, or the
//! name of a predeclared register), the same in the analysis of every open
//! document that read its file: references and renames gather the places
//! from all of them.

use super::analysis::{Analysis, Locator, MAIN, key};
use super::{RequestError, Server};
use crate::asm::ast::{KEYWORDS, Name};
use crate::asm::index::{Detail, Occurrence, Symbol};
use crate::asm::resolve::Opcode;
use lsp_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams,
    GotoDefinitionResponse, Location, ReferenceParams, RenameParams, SymbolInformation, SymbolKind,
    TextDocumentPositionParams, TextEdit, Uri, WorkspaceEdit, WorkspaceSymbolParams,
    WorkspaceSymbolResponse,
};
use std::collections::{HashMap, HashSet};

impl Server {
    /// The symbol named at a position: from the first analysis that names
    /// one there (the document's own, then those of the documents that
    /// read it), with the occurrence.
    pub(super) fn symbol_at(
        &self,
        at: &TextDocumentPositionParams,
    ) -> Option<(&Analysis, Occurrence)> {
        self.analyses_of(&at.text_document.uri)
            .into_iter()
            .find_map(|(analysis, file)| {
                let occurrence =
                    Locator::new(analysis, &self.stdlib_folder).occurrence(file, at.position)?;
                Some((analysis, occurrence))
            })
    }

    pub(super) fn definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>, RequestError> {
        let Some((analysis, occurrence)) = self.symbol_at(&params.text_document_position_params)
        else {
            return Ok(None);
        };
        let Some(span) = analysis.index.symbols[occurrence.symbol].definition else {
            return Ok(None);
        };
        let location = Locator::new(analysis, &self.stdlib_folder).location(span)?;
        Ok(Some(GotoDefinitionResponse::Scalar(location)))
    }

    /// Every place the symbol of an analysis is named, in every open
    /// document's analysis (grouped by analysis), each place once.
    fn everywhere(&self, analysis: &Analysis, symbol: usize) -> Vec<(&Analysis, Vec<Occurrence>)> {
        let wanted = key(analysis, symbol);
        let name = &analysis.index.symbols[symbol].name;
        let mut seen = HashSet::new();
        let mut found = Vec::new();
        for other in self.documents.values().filter_map(|d| d.analysis.as_ref()) {
            let mut places = HashMap::new();
            let mut here = Vec::new();
            for (id, s) in other.index.symbols.iter().enumerate() {
                if s.name != *name || key(other, id) != wanted {
                    continue;
                }
                for o in other.index.occurrences_of(id) {
                    let place = places
                        .entry(o.span.file)
                        .or_insert_with(|| other.place(o.span.file));
                    if seen.insert((place.clone(), o.span.start, o.span.end)) {
                        here.push(o);
                    }
                }
            }
            if !here.is_empty() {
                found.push((other, here));
            }
        }
        found
    }

    pub(super) fn references(
        &self,
        params: ReferenceParams,
    ) -> Result<Option<Vec<Location>>, RequestError> {
        let Some((analysis, occurrence)) = self.symbol_at(&params.text_document_position) else {
            return Ok(None);
        };
        let declaration = params.context.include_declaration;
        let mut locations = Vec::new();
        for (other, occurrences) in self.everywhere(analysis, occurrence.symbol) {
            let mut locator = Locator::new(other, &self.stdlib_folder);
            for o in occurrences
                .into_iter()
                .filter(|o| declaration || !o.definition)
            {
                locations.push(locator.location(o.span)?);
            }
        }
        Ok(Some(locations))
    }

    /// Renames a register, label, macro or constant everywhere it is
    /// named, or refuses (a predeclared register, a module, a name that is
    /// not one or is taken, a place in the standard library or written
    /// through a macro's parameter).
    // `WorkspaceEdit::changes` is keyed by `Uri` (lsp-types' choice), which
    // is never changed once a key.
    #[allow(clippy::mutable_key_type)]
    pub(super) fn rename(
        &self,
        params: RenameParams,
    ) -> Result<Option<WorkspaceEdit>, RequestError> {
        let refuse = |why: String| Err(RequestError::Refused(why));
        let Some((analysis, occurrence)) = self.symbol_at(&params.text_document_position) else {
            return refuse("there is no register, label, macro or constant here".into());
        };
        let symbol = &analysis.index.symbols[occurrence.symbol];
        let new = params.new_name.as_str();
        match symbol.detail {
            Detail::Module { .. } => {
                return refuse("a module is renamed by renaming its file".into());
            }
            Detail::Register {
                predeclared: true, ..
            } => return refuse(format!("`{}` is predeclared", symbol.name)),
            _ => {}
        }
        if let Some(why) = not_a_name(new) {
            return refuse(format!("`{new}` {why}"));
        }
        // `.loop` under `main:` is `main.loop`: the part written here is
        // what changes.
        let here = analysis.written(occurrence.span).to_string();
        let prefix = symbol.name.strip_suffix(here.as_str()).unwrap_or("");
        let new_full = format!("{prefix}{new}");
        let places = self.everywhere(analysis, occurrence.symbol);
        for (other, occurrences) in &places {
            let first = occurrences[0];
            if let Some(taken) = taken(other, &other.index.symbols[first.symbol], &new_full) {
                let at = taken.definition.unwrap_or(first.span);
                return refuse(format!(
                    "`{new_full}` is already defined, as a {} at {}",
                    taken.kind(),
                    other.assembly.sources.location(at)
                ));
            }
        }
        let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
        for (other, occurrences) in places {
            let standard = other.standard_files();
            let mut locator = Locator::new(other, &self.stdlib_folder);
            for o in occurrences {
                let at = other.assembly.sources.location(o.span);
                if standard.contains(&o.span.file) {
                    return refuse(format!(
                        "`{}` is named in the standard library ({at}), which is read-only",
                        symbol.name
                    ));
                }
                let written = other.written(o.span);
                let Some(before) = written.strip_suffix(here.as_str()) else {
                    return refuse(format!(
                        "`{}` is written `{written}` at {at} (a macro's parameter?): rename it there by hand",
                        symbol.name
                    ));
                };
                let location = locator.location(o.span)?;
                changes
                    .entry(location.uri)
                    .or_default()
                    .push(TextEdit::new(location.range, format!("{before}{new}")));
            }
        }
        Ok(Some(WorkspaceEdit::new(changes)))
    }

    /// The outline: the registers, labels, macros and constants defined in
    /// the document, in order.
    pub(super) fn document_symbols(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>, RequestError> {
        let uri = &params.text_document.uri;
        let analysis = self.analysis(uri)?;
        let mut locator = Locator::new(analysis, &self.stdlib_folder);
        let mut defined: Vec<(u32, &Symbol)> = analysis
            .index
            .symbols
            .iter()
            .filter(|s| !s.local)
            .filter_map(|s| match s.definition {
                Some(span) if span.file == MAIN => Some((span.start, s)),
                _ => None,
            })
            .collect();
        defined.sort_by_key(|(start, _)| *start);
        let symbols = defined
            .into_iter()
            .filter_map(|(_, s)| {
                let range = locator.range(s.definition?);
                #[allow(deprecated)]
                Some(DocumentSymbol {
                    name: s.name.clone(),
                    detail: Some(super::hover::summary(analysis, s)),
                    kind: symbol_kind(s),
                    tags: None,
                    deprecated: None,
                    range,
                    selection_range: range,
                    children: None,
                })
            })
            .collect();
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }
}

/// At most this many symbols answer `workspace/symbol`.
const MOST_WORKSPACE_SYMBOLS: usize = 500;

impl Server {
    /// `workspace/symbol`: the registers, labels, macros and constants of
    /// every open document's last check whose name holds the query (any
    /// case), each once, at most [`MOST_WORKSPACE_SYMBOLS`].
    pub(super) fn workspace_symbols(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>, RequestError> {
        let query = params.query.to_lowercase();
        let mut seen = HashSet::new();
        let mut found = Vec::new();
        for analysis in self.documents.values().filter_map(|d| d.analysis.as_ref()) {
            let mut locator = Locator::new(analysis, &self.stdlib_folder);
            for (id, s) in analysis.index.symbols.iter().enumerate() {
                let wanted = !s.local
                    && !matches!(s.detail, Detail::Module { .. })
                    && s.name.to_lowercase().contains(&query);
                let Some(span) = s.definition.filter(|_| wanted) else {
                    continue;
                };
                if found.len() == MOST_WORKSPACE_SYMBOLS || !seen.insert(key(analysis, id)) {
                    continue;
                }
                #[allow(deprecated)]
                found.push(SymbolInformation {
                    name: s.name.clone(),
                    kind: symbol_kind(s),
                    tags: None,
                    deprecated: None,
                    location: locator.location(span)?,
                    container_name: None,
                });
            }
        }
        Ok(Some(WorkspaceSymbolResponse::Flat(found)))
    }
}

/// The protocol's kind of a symbol.
pub fn symbol_kind(s: &Symbol) -> SymbolKind {
    match s.detail {
        Detail::Register { .. } => SymbolKind::VARIABLE,
        Detail::Label { .. } => SymbolKind::FUNCTION,
        Detail::Macro { .. } => SymbolKind::OPERATOR,
        Detail::Constant { .. } => SymbolKind::CONSTANT,
        Detail::Module { .. } => SymbolKind::MODULE,
    }
}

/// Why a text cannot be a new name (the lexer's names, none reserved).
fn not_a_name(text: &str) -> Option<&'static str> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    if first.is_ascii_digit() || !name_char(first) || !chars.all(name_char) {
        return Some(
            "is not a name: a name is a letter, `_` or `.`, then letters, digits, `_` and `.`",
        );
    }
    if KEYWORDS.contains(&text) || Opcode::parse(text).is_some() {
        return Some("is a reserved word or an instruction");
    }
    if crate::asm::eval::is_builtin_name(&Name::root(text))
        || crate::asm::constructors::find(text).is_some()
    {
        return Some("is a built-in name (a literal or a constructor)");
    }
    None
}

/// The symbol of an analysis that already has the name `new` in the
/// namespace of `renamed` (macros have theirs), other than `renamed`.
fn taken<'a>(analysis: &'a Analysis, renamed: &Symbol, new: &str) -> Option<&'a Symbol> {
    let macro_ = |s: &Symbol| matches!(s.detail, Detail::Macro { .. });
    analysis
        .index
        .symbols
        .iter()
        .find(|s| s.name == new && !s.local && macro_(s) == macro_(renamed) && *s != renamed)
}

#[cfg(test)]
mod tests {
    use super::not_a_name;

    #[test]
    fn new_names_are_names() {
        assert_eq!(not_a_name("count2"), None);
        assert_eq!(not_a_name(".again"), None);
        assert!(not_a_name("2x").is_some());
        assert!(not_a_name("a-b").is_some());
        assert!(not_a_name("end").is_some());
        assert!(not_a_name("NILIFY").is_some());
        assert!(not_a_name("Move").is_some());
        assert!(not_a_name("N").is_some());
    }
}

//! Code actions: the fixes a diagnostic's help names, as quick fixes
//! ("did you mean `push`?" replaces the name; W0706's "write `#4` ... or
//! `@4` ..." offers both).

use super::text::Lines;
use super::{RequestError, Server};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    Diagnostic, NumberOrString, TextEdit, WorkspaceEdit,
};
use std::collections::HashMap;

impl Server {
    /// `textDocument/codeAction`: a quick fix for each replacement the help
    /// of a diagnostic (of those the client sends back) names, where the
    /// diagnostic's range is a word of the document.
    // `WorkspaceEdit::changes` is keyed by `Uri` (lsp-types' choice), which
    // is never changed once a key.
    #[allow(clippy::mutable_key_type)]
    pub(super) fn code_actions(
        &self,
        params: CodeActionParams,
    ) -> Result<Option<CodeActionResponse>, RequestError> {
        let uri = &params.text_document.uri;
        let text = &self.document(uri)?.text;
        let lines = Lines::new(text);
        let mut actions = Vec::new();
        for diagnostic in &params.context.diagnostics {
            let range = diagnostic.range;
            let (start, end) = (lines.offset(range.start), lines.offset(range.end));
            let word = &text[start..end.max(start)];
            if word.is_empty() || word.contains(char::is_whitespace) {
                continue;
            }
            for fix in fixes(diagnostic) {
                let edit = TextEdit::new(range, fix.clone());
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Replace `{word}` with `{fix}`"),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic.clone()]),
                    edit: Some(WorkspaceEdit::new(HashMap::from([(
                        uri.clone(),
                        vec![edit],
                    )]))),
                    ..CodeAction::default()
                }));
            }
        }
        Ok(Some(actions))
    }
}

/// The replacements a constree diagnostic's help names (its related
/// items `help: ...`, see `diagnostics.rs`).
fn fixes(diagnostic: &Diagnostic) -> Vec<String> {
    if diagnostic.source.as_deref() != Some("constree") {
        return Vec::new();
    }
    let code = match &diagnostic.code {
        Some(NumberOrString::String(code)) => code.as_str(),
        _ => "",
    };
    let helps = diagnostic
        .related_information
        .iter()
        .flatten()
        .filter_map(|r| r.message.strip_prefix("help: "));
    let mut fixes = Vec::new();
    for help in helps {
        if let Some(rest) = help.strip_prefix("did you mean `") {
            fixes.extend(rest.split('`').next().map(str::to_string));
        } else if code == "W0706" {
            // "write `#4` for the number 4, or `@4` for register 4"
            fixes.extend(help.split('`').skip(1).step_by(2).map(str::to_string));
        }
    }
    fixes
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{DiagnosticRelatedInformation, Location, Range, Uri};

    fn diagnostic(code: &str, help: &str) -> Diagnostic {
        let uri: Uri = "file:///x.cta".parse().unwrap();
        Diagnostic {
            code: Some(NumberOrString::String(code.into())),
            source: Some("constree".into()),
            related_information: Some(vec![DiagnosticRelatedInformation {
                location: Location::new(uri, Range::default()),
                message: format!("help: {help}"),
            }]),
            ..Diagnostic::default()
        }
    }

    #[test]
    fn the_help_names_the_fixes() {
        assert_eq!(
            fixes(&diagnostic("E0508", "did you mean `push`?")),
            ["push"]
        );
        assert_eq!(
            fixes(&diagnostic(
                "W0706",
                "write `#4` for the number 4, or `@4` for register 4"
            )),
            ["#4", "@4"]
        );
        let other = diagnostic(
            "E0512",
            "`Move` needs its arguments: write it `Move DIRECTION`",
        );
        assert_eq!(fixes(&other), Vec::<String>::new());
    }
}

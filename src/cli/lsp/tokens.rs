//! Semantic tokens (`textDocument/semanticTokens/full`): every word of a
//! document classified by what it is, for the editor to colour.
//!
//! The text is read once with the assembler's own lexer; a name is what the
//! symbol index of the document's last check says it is (a register, a
//! label, a macro, a constant, a module), else a macro's parameter (in the
//! macro's definition), an instruction, a reserved word, a literal
//! constructor or a built-in value. Comments are the text
//! the lexer skips from `;`. A name the last check does not know (the
//! document changed since, or the name is in an `if` branch not taken) gets
//! no token.

use super::analysis::Analysis;
use super::text::Cursor;
use super::{RequestError, Server};
use crate::asm::ast::{KEYWORDS, Name};
use crate::asm::index::{Detail, Occurrence};
use crate::asm::lexer::Token;
use crate::asm::resolve::Opcode;
use crate::diagnostic::FileId;
use logos::Logos;
use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens,
    SemanticTokensFullOptions, SemanticTokensLegend, SemanticTokensOptions, SemanticTokensParams,
    SemanticTokensResult, SemanticTokensServerCapabilities,
};
use std::collections::HashMap;

/// What a token is: its index in the legend's types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A register.
    Register,
    /// A label.
    Label,
    /// A macro, defined or invoked.
    Macro,
    /// A macro's parameter, in its definition.
    Parameter,
    /// A constant (`const`).
    Constant,
    /// A module's path after `use` or `include`.
    Module,
    /// One of the four instructions.
    Mnemonic,
    /// A reserved word (`reg`, `macro`, `end`, ...).
    Keyword,
    /// A literal constructor (`Move`, `Build`) or built-in (`cons`).
    Constructor,
    /// A built-in value (`N`, `Red`, `nil`, ...).
    Value,
    Comment,
    Number,
    String,
}

/// The legend's token types: the protocol's standard ones, which every
/// editor's theme colours.
const TYPES: [SemanticTokenType; 11] = [
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::MACRO,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::KEYWORD,
    SemanticTokenType::TYPE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
];

/// The legend's modifiers, bit `i` for the `i`th.
const MODIFIERS: [SemanticTokenModifier; 3] = [
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::READONLY,
    SemanticTokenModifier::DEFAULT_LIBRARY,
];
const DECLARATION: u32 = 1;
const READONLY: u32 = 2;
const DEFAULT_LIBRARY: u32 = 4;

/// The legend `initialize` announces ([`TYPES`], [`MODIFIERS`]).
pub fn capability() -> SemanticTokensServerCapabilities {
    SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
        legend: SemanticTokensLegend {
            token_types: TYPES.to_vec(),
            token_modifiers: MODIFIERS.to_vec(),
        },
        range: None,
        full: Some(SemanticTokensFullOptions::Bool(true)),
        ..SemanticTokensOptions::default()
    })
}

/// A kind's type and modifiers: a register is a `variable`, a constant a
/// `variable` that is `readonly`; a label a `function`; a macro a `macro`
/// and its parameters `parameter`s;
/// a module's path a `namespace`; a reserved word a `keyword`, an
/// instruction a `keyword` of the `defaultLibrary`; a literal constructor a
/// `type` and a built-in value an `enumMember`, both of the
/// `defaultLibrary`; comments, numbers and strings theirs. Where a name is
/// defined it is also a `declaration`.
fn encode(kind: Kind, declaration: bool) -> (u32, u32) {
    let (token_type, modifiers) = match kind {
        Kind::Register => (SemanticTokenType::VARIABLE, 0),
        Kind::Constant => (SemanticTokenType::VARIABLE, READONLY),
        Kind::Label => (SemanticTokenType::FUNCTION, 0),
        Kind::Macro => (SemanticTokenType::MACRO, 0),
        Kind::Parameter => (SemanticTokenType::PARAMETER, 0),
        Kind::Module => (SemanticTokenType::NAMESPACE, 0),
        Kind::Keyword => (SemanticTokenType::KEYWORD, 0),
        Kind::Mnemonic => (SemanticTokenType::KEYWORD, DEFAULT_LIBRARY),
        Kind::Constructor => (SemanticTokenType::TYPE, DEFAULT_LIBRARY),
        Kind::Value => (SemanticTokenType::ENUM_MEMBER, DEFAULT_LIBRARY),
        Kind::Comment => (SemanticTokenType::COMMENT, 0),
        Kind::Number => (SemanticTokenType::NUMBER, 0),
        Kind::String => (SemanticTokenType::STRING, 0),
    };
    let index = TYPES.iter().position(|t| *t == token_type).unwrap_or(0);
    let declaration = if declaration { DECLARATION } else { 0 };
    (index as u32, modifiers | declaration)
}

impl Server {
    pub(super) fn semantic_tokens(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>, RequestError> {
        let uri = &params.text_document.uri;
        let text = &self.document(uri)?.text;
        let names = self.checked(uri).map(|(a, file)| Names::new(a, file));
        let data = encoded(text, &classify(text, names.as_ref()));
        Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        })))
    }
}

/// The symbols named in one file of an analysis, by where each name starts.
struct Names<'a> {
    analysis: &'a Analysis,
    at: HashMap<u32, Occurrence>,
}

impl<'a> Names<'a> {
    fn new(analysis: &'a Analysis, file: FileId) -> Names<'a> {
        let at = analysis
            .index
            .occurrences()
            .iter()
            .filter(|o| o.span.file == file)
            .map(|o| (o.span.start, *o))
            .collect();
        Names { analysis, at }
    }

    /// What the name at `start..end` is, if the index knows it.
    fn kind(&self, start: usize, end: usize) -> Option<(Kind, bool)> {
        let o = self.at.get(&(start as u32))?;
        if o.span.end as usize != end {
            return None;
        }
        let kind = match self.analysis.index.symbols[o.symbol].detail {
            Detail::Register { .. } => Kind::Register,
            Detail::Label { .. } => Kind::Label,
            Detail::Macro { .. } => Kind::Macro,
            Detail::Constant { .. } => Kind::Constant,
            Detail::Module { .. } => return None,
        };
        Some((kind, o.definition))
    }
}

/// Every token of a text, in order: byte range, kind, whether it defines
/// its name.
fn classify(text: &str, names: Option<&Names>) -> Vec<(usize, usize, Kind, bool)> {
    let mut out = Vec::new();
    let mut lexer = Token::lexer(text);
    let mut last_end = 0;
    // The statement so far on this line: its first word, and how many
    // tokens.
    let mut first: Option<&str> = None;
    let mut count = 0usize;
    // The `macro`, `block` and `if` not yet ended (whether each is a
    // `macro`), and the parameters of the macro being defined.
    let mut open: Vec<bool> = Vec::new();
    let mut params: Vec<&str> = Vec::new();
    let comment = |out: &mut Vec<_>, from: usize, to: usize| {
        if let Some(at) = text[from..to].find(';') {
            let end = text[from + at..to].trim_end().len() + from + at;
            out.push((from + at, end, Kind::Comment, false));
        }
    };
    while let Some(token) = lexer.next() {
        let span = lexer.span();
        comment(&mut out, last_end, span.start);
        last_end = span.end;
        let kind = match token {
            Ok(Token::Newline) => {
                (first, count) = (None, 0);
                continue;
            }
            Ok(Token::Int(_)) => Some((Kind::Number, false)),
            Ok(Token::Str(_)) if matches!(first, Some("use" | "include")) => {
                Some((Kind::Module, false))
            }
            Ok(Token::Str(_)) => Some((Kind::String, false)),
            Ok(Token::Ident(word)) => {
                let module = count > 0 && matches!(first, Some("use" | "include"));
                // `macro NAME PARAM, ...`: the words after the name.
                let param = count >= 2 && first == Some("macro");
                if count == 0 {
                    first = Some(word);
                    match word {
                        "macro" => {
                            open.push(true);
                            params.clear();
                        }
                        "block" | "if" => open.push(false),
                        "end" if open.pop() == Some(true) => params.clear(),
                        _ => {}
                    }
                }
                match names.and_then(|n| n.kind(span.start, span.end)) {
                    Some(known) => Some(known),
                    None if module => Some((Kind::Module, false)),
                    None if param => {
                        params.push(word);
                        Some((Kind::Parameter, true))
                    }
                    None if params.contains(&word) => Some((Kind::Parameter, false)),
                    None => word_kind(word).map(|k| (k, false)),
                }
            }
            _ => None,
        };
        count += 1;
        if let Some((kind, declaration)) = kind {
            out.push((span.start, span.end, kind, declaration));
        }
    }
    comment(&mut out, last_end, text.len());
    out
}

/// What a word that names no symbol is.
fn word_kind(word: &str) -> Option<Kind> {
    if Opcode::parse(word).is_some() {
        Some(Kind::Mnemonic)
    } else if KEYWORDS.contains(&word) {
        Some(Kind::Keyword)
    } else if crate::asm::constructors::find(word).is_some() {
        Some(Kind::Constructor)
    } else if crate::asm::eval::is_builtin_name(&Name::root(word)) {
        Some(Kind::Value)
    } else {
        None
    }
}

/// Tokens as the protocol sends them: each relative to the one before, in
/// UTF-16 units (a token over several lines is left out).
fn encoded(text: &str, tokens: &[(usize, usize, Kind, bool)]) -> Vec<SemanticToken> {
    let mut cursor = Cursor::new(text);
    let mut previous = lsp_types::Position::new(0, 0);
    let mut data = Vec::with_capacity(tokens.len());
    for &(start, end, kind, declaration) in tokens {
        let written = &text[start..end];
        if written.contains('\n') {
            continue;
        }
        let at = cursor.position(start);
        let delta_line = at.line - previous.line;
        let delta_start = if delta_line == 0 {
            at.character - previous.character
        } else {
            at.character
        };
        let (token_type, token_modifiers_bitset) = encode(kind, declaration);
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: written.chars().map(char::len_utf16).sum::<usize>() as u32,
            token_type,
            token_modifiers_bitset,
        });
        previous = at;
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_comments_numbers_and_strings_without_an_index() {
        let text = "use \"x.cta\" ; a\nmain: nilify out ; é\n  mov a, Move N, 0x1f\n";
        let kinds: Vec<(&str, Kind)> = classify(text, None)
            .into_iter()
            .map(|(s, e, k, _)| (&text[s..e], k))
            .collect();
        assert_eq!(
            kinds,
            [
                ("use", Kind::Keyword),
                ("\"x.cta\"", Kind::Module),
                ("; a", Kind::Comment),
                ("nilify", Kind::Mnemonic),
                ("; é", Kind::Comment),
                ("Move", Kind::Constructor),
                ("N", Kind::Value),
                ("0x1f", Kind::Number),
            ]
        );
    }

    #[test]
    fn parameters_are_known_up_to_their_macros_end() {
        let text = "macro m a, b\n    if 1\n    nilify a\n    end\n    nilify b\nend\nnilify a\n";
        let params: Vec<(usize, bool)> = classify(text, None)
            .into_iter()
            .filter(|t| t.2 == Kind::Parameter)
            .map(|(s, _, _, declaration)| (s, declaration))
            .collect();
        let at = |needle: &str| text.find(needle).unwrap() + needle.len() - 1;
        assert_eq!(
            params,
            [
                (at("m a"), true),
                (at(", b"), true),
                (at("nilify a"), false),
                (at("nilify b"), false)
            ]
        );
    }

    #[test]
    fn kinds_differ_in_type_or_modifiers() {
        use Kind::*;
        let kinds = [
            Register,
            Label,
            Macro,
            Parameter,
            Constant,
            Module,
            Mnemonic,
            Keyword,
            Constructor,
            Value,
            Comment,
            Number,
            String,
        ];
        let encoded: Vec<(u32, u32)> = kinds.iter().map(|k| encode(*k, false)).collect();
        for (i, a) in encoded.iter().enumerate() {
            assert!(encoded[i + 1..].iter().all(|b| a != b), "{:?}", kinds[i]);
        }
        let declared = encode(Register, true);
        assert_eq!((declared.0, declared.1 & DECLARATION), (0, DECLARATION));
    }
}

//! Completion: module paths after `use std/` (or `include std/`), and
//! after `use "` or `include "` the files and folders beside the document;
//! instructions and macros where a statement begins; registers, labels,
//! constants, built-in values and literal constructors (with snippets of
//! their arguments) at an operand.

use super::text::Lines;
use super::{RequestError, Server};
use crate::asm::constructors::{CONSTRUCTORS, Constructor};
use crate::asm::index::Detail;
use crate::asm::resolve::Opcode;
use crate::asm::source::embedded_stdlib;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, Documentation,
    InsertTextFormat, MarkupContent, MarkupKind,
};

impl Server {
    pub(super) fn completion(
        &self,
        params: CompletionParams,
    ) -> Result<Option<CompletionResponse>, RequestError> {
        let at = &params.text_document_position;
        let document = self.document(&at.text_document.uri)?;
        let offset = Lines::new(&document.text).offset(at.position);
        let line_start = document.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let before = &document.text[line_start..offset];
        let items = match position(before) {
            Position::Comment => Vec::new(),
            Position::Module(typed) => {
                let mut items = modules();
                if !typed.starts_with("std/") {
                    items.extend(files(document.path.as_deref(), typed, Written::Bare));
                }
                items
            }
            Position::File(typed) => files(document.path.as_deref(), typed, Written::Quoted),
            Position::Statement => {
                let mut items = instructions();
                items.extend(self.symbols(&at.text_document.uri, true));
                items
            }
            Position::Operand => {
                let mut items = self.symbols(&at.text_document.uri, false);
                items.extend(literals());
                items
            }
        };
        Ok(Some(CompletionResponse::Array(items)))
    }

    /// The document's macros (`macros`), or its registers, labels and
    /// constants, from its last check.
    fn symbols(&self, uri: &lsp_types::Uri, macros: bool) -> Vec<CompletionItem> {
        let Ok(analysis) = self.analysis(uri) else {
            return Vec::new();
        };
        let mut items = Vec::new();
        for s in analysis.index.symbols.iter().filter(|s| !s.local) {
            let detail = super::hover::summary(analysis, s);
            let item = match (&s.detail, macros) {
                (Detail::Macro { params, doc }, true) => CompletionItem {
                    kind: Some(CompletionItemKind::FUNCTION),
                    documentation: (!doc.is_empty()).then(|| markdown(doc.join("\n"))),
                    insert_text: Some(placeholders(&s.name, " ", params, ", ", "")),
                    insert_text_format: Some(InsertTextFormat::SNIPPET),
                    ..item(&s.name, detail)
                },
                (Detail::Macro { .. } | Detail::Module { .. }, _) | (_, true) => continue,
                (Detail::Register { .. }, false) => CompletionItem {
                    kind: Some(CompletionItemKind::VARIABLE),
                    ..item(&s.name, detail)
                },
                (Detail::Label { .. }, false) => CompletionItem {
                    kind: Some(CompletionItemKind::REFERENCE),
                    ..item(&s.name, detail)
                },
                (Detail::Constant { .. }, false) => CompletionItem {
                    kind: Some(CompletionItemKind::CONSTANT),
                    ..item(&s.name, detail)
                },
            };
            items.push(item);
        }
        items
    }
}

/// What the text before the cursor, on its line, asks for.
#[derive(Debug, PartialEq, Eq)]
enum Position<'a> {
    Comment,
    /// After `use ` or `include `: the path typed so far.
    Module(&'a str),
    /// After `use "` or `include "`: the path typed so far.
    File(&'a str),
    /// The first word of a statement.
    Statement,
    Operand,
}

fn position(before: &str) -> Position<'_> {
    if before.contains(';') {
        return Position::Comment;
    }
    let line = before.trim_start();
    // A label before the statement: `main: ...`.
    let line = match line.split_once(':') {
        Some((label, rest)) if !label.contains(char::is_whitespace) => rest.trim_start(),
        _ => line,
    };
    let first = line.split_whitespace().next().unwrap_or("");
    if matches!(first, "use" | "include") && line.len() > first.len() {
        return match line[first.len()..].trim_start().strip_prefix('"') {
            Some(typed) => Position::File(typed),
            None => Position::Module(line[first.len()..].trim_start()),
        };
    }
    if line.contains(char::is_whitespace) {
        Position::Operand
    } else {
        Position::Statement
    }
}

fn item(label: &str, detail: String) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        detail: Some(detail),
        ..CompletionItem::default()
    }
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

/// The standard modules, as `std/NAME`.
fn modules() -> Vec<CompletionItem> {
    embedded_stdlib()
        .iter()
        .map(|(name, text)| {
            let first = text.lines().next().unwrap_or("").trim_start_matches(';');
            CompletionItem {
                kind: Some(CompletionItemKind::MODULE),
                filter_text: Some(format!("std/{name}")),
                ..item(name, first.trim().to_string())
            }
        })
        .collect()
}

/// At most this many files and folders are offered.
const MOST_FILES: usize = 500;

/// How a module's path is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    /// In quotes: `"lib/walk.cta"`.
    Quoted,
    /// Bare: `lib/walk`, names (`.cta` left out).
    Bare,
}

/// The `.cta` files and the folders in the folder a path typed so far
/// names, relative to the document's (none for a document that is not a
/// file): folders end with `/`, names that start with `.` are left out
/// (and for a bare path, those that are not names and the files' `.cta`),
/// in order, at most [`MOST_FILES`].
fn files(document: Option<&std::path::Path>, typed: &str, written: Written) -> Vec<CompletionItem> {
    let Some(dir) = document.and_then(std::path::Path::parent) else {
        return Vec::new();
    };
    let folder = typed.rfind('/').map_or("", |i| &typed[..=i]);
    let Ok(entries) = std::fs::read_dir(dir.join(folder)) else {
        return Vec::new();
    };
    let mut found: Vec<(String, bool)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let is_dir = e.file_type().ok()?.is_dir();
            let wanted = !name.starts_with('.') && (is_dir || name.ends_with(".cta"));
            let name = match written {
                Written::Bare if !is_dir => name.strip_suffix(".cta")?.to_string(),
                _ => name,
            };
            let bare_name = name.chars().enumerate().all(|(i, c)| {
                c.is_ascii_alphabetic() || c == '_' || (i > 0 && (c.is_ascii_digit() || c == '.'))
            });
            let wanted = wanted && (written == Written::Quoted || bare_name);
            wanted.then_some((name, is_dir))
        })
        .collect();
    found.sort();
    found.truncate(MOST_FILES);
    found
        .into_iter()
        .map(|(name, is_dir)| {
            let label = if is_dir { format!("{name}/") } else { name };
            CompletionItem {
                kind: Some(if is_dir {
                    CompletionItemKind::FOLDER
                } else {
                    CompletionItemKind::FILE
                }),
                filter_text: Some(format!("{folder}{label}")),
                ..item(&label, format!("{folder}{label}"))
            }
        })
        .collect()
}

/// The four instructions, with their operands as a snippet.
fn instructions() -> Vec<CompletionItem> {
    Opcode::ALL
        .iter()
        .map(|op| {
            let operands: Vec<&str> = op.operands().split(", ").collect();
            CompletionItem {
                kind: Some(CompletionItemKind::KEYWORD),
                documentation: Some(markdown(super::hover::instruction(*op))),
                insert_text: Some(placeholders(op.mnemonic(), " ", &operands, ", ", "")),
                insert_text_format: Some(InsertTextFormat::SNIPPET),
                ..item(op.mnemonic(), op.effect().to_string())
            }
        })
        .collect()
}

/// The literal constructors and built-ins, with their arguments as a
/// snippet, and the built-in values (directions, colours, `nil`, ...).
fn literals() -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = CONSTRUCTORS
        .iter()
        .map(|c| CompletionItem {
            kind: Some(if c.builtin {
                CompletionItemKind::FUNCTION
            } else {
                CompletionItemKind::CONSTRUCTOR
            }),
            insert_text: Some(snippet(c)),
            insert_text_format: Some(InsertTextFormat::SNIPPET),
            ..item(c.name, c.usage.to_string())
        })
        .collect();
    let values = crate::asm::eval::builtin_names()
        .into_iter()
        .filter(|n| crate::asm::constructors::find(n).is_none());
    items.extend(values.map(|name| CompletionItem {
        kind: Some(CompletionItemKind::ENUM_MEMBER),
        ..item(&name, "built-in value".into())
    }));
    items
}

/// A constructor's usage as a snippet: `Move ${1:DIRECTION}`,
/// `cons(${1:FRONT}, ${2:BACK})`.
fn snippet(c: &Constructor) -> String {
    let rest = c.usage.strip_prefix(c.name).unwrap_or("");
    if let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let args: Vec<&str> = inner.split(", ").collect();
        return placeholders(c.name, "(", &args, ", ", ")");
    }
    placeholders(c.name, " ", &words(rest), " ", "")
}

/// The words of a usage, a bracketed list one word (`[INDEX, ...] MEMORY`
/// is two).
fn words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 => {
                if let Some(s) = start.take() {
                    words.push(&text[s..i]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(i);
    }
    words.extend(start.map(|s| &text[s..]));
    words
}

/// `head`, then each argument as a numbered placeholder: `head`, `open`,
/// the arguments joined by `between`, `close` (just `head` without
/// arguments).
fn placeholders<S: AsRef<str>>(
    head: &str,
    open: &str,
    args: &[S],
    between: &str,
    close: &str,
) -> String {
    if args.is_empty() {
        return head.to_string();
    }
    let args: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let escaped: String = a
                .as_ref()
                .chars()
                .flat_map(|c| match c {
                    '$' | '}' | '\\' => vec!['\\', c],
                    c => vec![c],
                })
                .collect();
            format!("${{{}:{escaped}}}", i + 1)
        })
        .collect();
    format!("{head}{open}{}{close}", args.join(between))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_so_far_says_what_is_wanted() {
        assert_eq!(position("use std/"), Position::Module("std/"));
        assert_eq!(position("  include "), Position::Module(""));
        assert_eq!(position("include \"lib/"), Position::File("lib/"));
        assert_eq!(position("use \""), Position::File(""));
        assert_eq!(position("  mo"), Position::Statement);
        assert_eq!(position("main: jn"), Position::Statement);
        assert_eq!(position("    mov out, "), Position::Operand);
        assert_eq!(position("    mov "), Position::Operand);
        assert_eq!(position("  nilify x ; a c"), Position::Comment);
    }

    #[test]
    fn every_constructor_has_a_placeholder_per_argument() {
        for c in CONSTRUCTORS {
            let s = snippet(c);
            assert_eq!(s.matches("${").count(), c.arity, "{s}");
            assert!(s.starts_with(c.name), "{s}");
        }
        let find = |n| snippet(crate::asm::constructors::find(n).unwrap());
        assert_eq!(find("Move"), "Move ${1:DIRECTION}");
        assert_eq!(find("Build"), "Build ${1:[INDEX, ...]} ${2:MEMORY}");
        assert_eq!(find("cons"), "cons(${1:FRONT}, ${2:BACK})");
    }
}

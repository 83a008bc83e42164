//! Hover: what a name is (a register's number, limit and start value; a
//! label's register and instructions; a macro's signature and doc comment;
//! a constant's value and size), or what an instruction does and costs, or
//! how a literal constructor is written.

use super::analysis::Analysis;
use super::text::Lines;
use super::{RequestError, Server};
use crate::asm::constructors;
use crate::asm::index::{Detail, Symbol};
use crate::asm::resolve::Opcode;
use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

/// A value as written is shown up to this many bytes.
const SHOWN: usize = 200;

impl Server {
    pub(super) fn hover(&self, params: HoverParams) -> Result<Option<Hover>, RequestError> {
        let at = &params.text_document_position_params;
        let text = if let Some((analysis, occurrence)) = self.symbol_at(at) {
            describe(analysis, &analysis.index.symbols[occurrence.symbol])
        } else {
            let document = self.document(&at.text_document.uri)?;
            let offset = Lines::new(&document.text).offset(at.position);
            match word_at(&document.text, offset).and_then(builtin) {
                Some(text) => text,
                None => return Ok(None),
            }
        };
        Ok(Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range: None,
        }))
    }
}

/// The name around a byte offset of a text (the offset in it or just
/// after it).
pub fn word_at(text: &str, offset: usize) -> Option<&str> {
    let offset = offset.min(text.len());
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| name_char(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .char_indices()
        .find(|(_, c)| !name_char(*c))
        .map_or(text.len(), |(i, _)| offset + i);
    (start < end).then(|| &text[start..end])
}

/// What an instruction or a constructor is.
fn builtin(word: &str) -> Option<String> {
    if let Some(op) = Opcode::parse(word) {
        return Some(instruction(op));
    }
    let c = constructors::find(word)?;
    let what = if c.builtin {
        "built-in"
    } else {
        "literal constructor"
    };
    let s = if c.arity == 1 { "" } else { "s" };
    Some(format!(
        "```cta\n{}\n```\n{what}, {} argument{s}",
        c.usage, c.arity
    ))
}

/// An instruction: how it is written, what it does, what it costs.
pub fn instruction(op: Opcode) -> String {
    let ticks = Opcode::TICKS;
    let s = if ticks == 1 { "" } else { "s" };
    format!(
        "```cta\n{} {}\n```\n{}; {ticks} tick{s}",
        op.mnemonic(),
        op.operands(),
        op.effect()
    )
}

/// A value as written, cut short.
fn shown(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.char_indices().nth(SHOWN) {
        Some((i, _)) => format!("{} ...", &text[..i]),
        None => text,
    }
}

/// One line about a symbol (an outline's detail).
pub fn summary(analysis: &Analysis, s: &Symbol) -> String {
    match &s.detail {
        Detail::Register { number, limit, .. } => {
            let limit = match limit {
                Some(n) => n.to_string(),
                None => match analysis
                    .assembly
                    .image
                    .as_ref()
                    .and_then(|i| i.registers.get(*number))
                {
                    Some(r) => format!("{} (auto)", r.limit),
                    None => "auto".into(),
                },
            };
            format!("register {number}, limit {limit}")
        }
        Detail::Label {
            register,
            instructions,
        } => {
            let register = match register {
                Some(r) => format!("code register {r}"),
                None => "no code register (only fallen into)".into(),
            };
            let s = if *instructions == 1 { "" } else { "s" };
            format!("label: {register}, {instructions} instruction{s} in its block")
        }
        Detail::Macro { params, .. } => format!("macro {} {}", s.name, params.join(", ")),
        Detail::Constant { value, .. } => format!("= {}", shown(analysis.written(*value))),
        Detail::Module { standard, .. } => {
            if *standard {
                "standard module (read-only)".into()
            } else {
                "module".into()
            }
        }
    }
}

/// The hover of a symbol, in Markdown.
pub fn describe(analysis: &Analysis, s: &Symbol) -> String {
    let mut text = match &s.detail {
        Detail::Macro { params, doc } => {
            let mut text = format!("```cta\nmacro {} {}\n```", s.name, params.join(", "));
            if !doc.is_empty() {
                text.push_str("\n\n");
                text.push_str(&doc.join("\n"));
            }
            text
        }
        Detail::Register { start, .. } => {
            let start = match start {
                Some(span) => format!("`{}`", shown(analysis.written(*span))),
                None => "Nil".into(),
            };
            format!("`{}`: {}; starts as {start}", s.name, summary(analysis, s))
        }
        Detail::Constant {
            value,
            number,
            size,
        } => {
            let mut text = format!("constant `{}` {}", s.name, summary(analysis, s));
            if let Some(n) = number
                && analysis.written(*value) != n.to_string()
            {
                text.push_str(&format!(" (the number {n})"));
            }
            if let Some(size) = size {
                let s = if *size == 1 { "" } else { "s" };
                text.push_str(&format!("; {size} cons{s} as a tree"));
            }
            text
        }
        Detail::Label { .. } | Detail::Module { .. } => {
            format!("`{}`: {}", s.name, summary(analysis, s))
        }
    };
    if let Some(span) = s.definition {
        text.push_str(&format!(
            "\n\ndefined at {}",
            analysis.assembly.sources.location(span)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_around_a_place() {
        let text = "  jnil main.loop, x\n";
        assert_eq!(word_at(text, 4), Some("jnil"));
        assert_eq!(word_at(text, 6), Some("jnil"), "just after");
        assert_eq!(word_at(text, 9), Some("main.loop"));
        assert_eq!(word_at(text, 1), None);
        assert_eq!(word_at(text, 99), None);
    }

    #[test]
    fn instructions_and_constructors_are_described() {
        assert_eq!(
            builtin("NILIFY").as_deref(),
            Some("```cta\nnilify t\n```\n`t := Nil`; 1 tick")
        );
        assert!(builtin("Move").unwrap().contains("Move DIRECTION"));
        assert_eq!(builtin("count"), None);
    }
}

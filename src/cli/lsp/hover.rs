//! Hover: what a name is (a register's number, limit, start value and the
//! instructions that write it; a label's register, instructions and ticks;
//! a macro's signature and doc comment, and at a call what it expands to;
//! a constant's value and size), or what an instruction does and costs, or
//! how a literal constructor is written.

use super::analysis::Analysis;
use super::text::Lines;
use super::{RequestError, Server};
use crate::asm::constructors;
use crate::asm::index::{Detail, Expanded, Symbol, Write};
use crate::asm::resolve::Opcode;
use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

/// A value as written is shown up to this many characters.
const SHOWN: usize = 200;

/// At most this many of the instructions that write a register are shown.
const SHOWN_WRITES: usize = 10;

/// A line of code is shown up to this many characters.
const SHOWN_LINE: usize = 80;

impl Server {
    pub(super) fn hover(&self, params: HoverParams) -> Result<Option<Hover>, RequestError> {
        let at = &params.text_document_position_params;
        let text = if let Some((analysis, occurrence)) = self.symbol_at(at) {
            let mut text = describe(analysis, &analysis.index.symbols[occurrence.symbol]);
            if let Some(expanded) = analysis.index.expansion(occurrence.span) {
                text.push_str(&expansion(expanded));
            }
            text
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
    cut(text, SHOWN)
}

/// A text on one line (each run of white space one space), cut after
/// `most` characters.
fn cut(text: &str, most: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.char_indices().nth(most) {
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
                None => match analysis.index.limits.as_ref().and_then(|l| l.get(*number)) {
                    Some(limit) => format!("{limit} (auto)"),
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
        Detail::Register { start, writes, .. } => {
            let start = match start {
                Some(span) => format!("`{}`", shown(analysis.written(*span))),
                None => "Nil".into(),
            };
            let mut text = format!("`{}`: {}; starts as {start}", s.name, summary(analysis, s));
            text.push_str(&writers(analysis, writes));
            text
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
        Detail::Label { instructions, .. } => {
            let ticks = *instructions as u64 * Opcode::TICKS;
            format!(
                "`{}`: {}; {} from the label to the block's end",
                s.name,
                summary(analysis, s),
                count(ticks as usize, "tick")
            )
        }
        Detail::Module { .. } => format!("`{}`: {}", s.name, summary(analysis, s)),
    };
    if let Some(span) = s.definition {
        text.push_str(&format!(
            "\n\ndefined at {}",
            analysis.assembly.sources.location(span)
        ));
    }
    text
}

/// The instructions that write a register, each on its line of code,
/// with its label and place.
fn writers(analysis: &Analysis, writes: &[Write]) -> String {
    if writes.is_empty() {
        return "\n\nno instruction writes it".into();
    }
    let mut text = format!("\n\nwritten by {}:", count(writes.len(), "instruction"));
    for w in writes.iter().take(SHOWN_WRITES) {
        let source = analysis.text(w.at.file);
        let start = w.at.start as usize;
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let code = source[line_start..line_end].split(';').next().unwrap_or("");
        text.push_str(&format!("\n- `{}`", cut(code, SHOWN_LINE)));
        if let Some(label) = w.label {
            text.push_str(&format!(" in `{}`", analysis.index.symbols[label].name));
        }
        text.push_str(&format!(" ({})", analysis.assembly.sources.location(w.at)));
    }
    if writes.len() > SHOWN_WRITES {
        text.push_str(&format!("\n- and {} more", writes.len() - SHOWN_WRITES));
    }
    text
}

/// What a macro call expands to, and its cost.
fn expansion(expanded: &Expanded) -> String {
    let ticks = expanded.instructions as u64 * Opcode::TICKS;
    let mut text = format!(
        "\n\nthis call expands to {} ({}):\n```cta\n",
        count(expanded.instructions, "instruction"),
        count(ticks as usize, "tick")
    );
    for line in &expanded.lines {
        text.push_str(line);
        text.push('\n');
    }
    if expanded.instructions > expanded.lines.len() {
        text.push_str(&format!(
            "; ... and {} more\n",
            expanded.instructions - expanded.lines.len()
        ));
    }
    text.push_str("```");
    text
}

/// `n` and a noun, plural unless `n` is 1.
fn count(n: usize, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {noun}{s}")
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

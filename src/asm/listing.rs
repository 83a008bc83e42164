//! The listing of an image: every register, its limit and size, and its
//! code with the source lines it came from.

use super::show;
use crate::image::Image;
use std::fmt::Write;

/// The text of a source line: file index (as in [`Image::files`]) and
/// 1-based line number to the line, where the source is at hand.
pub type LineText<'a> = &'a dyn Fn(u32, u32) -> Option<String>;

/// The listing text. A code register shows the instructions that are its
/// own; where its code goes on into code another register starts with (a
/// block falling through into a labelled one), the listing says so instead
/// of repeating it, so every instruction is listed once. Each instruction
/// names the source line it came from.
pub fn listing(image: &Image) -> String {
    listing_with(image, &|_, _| None)
}

/// [`listing`] with the text of each instruction's source line beside it,
/// read from the sources the image was assembled from (files are matched
/// by name and content hash).
pub fn listing_with_sources(image: &Image, sources: &super::source::Sources) -> String {
    let texts: Vec<Option<&str>> = image
        .files
        .iter()
        .map(|f| {
            sources
                .iter()
                .map(|(_, s)| s)
                .find(|s| s.name == f.name)
                .map(|s| s.text.as_str())
        })
        .collect();
    listing_with(image, &|file, line| {
        let text = texts.get(file as usize).copied().flatten()?;
        let line = text.lines().nth((line as usize).checked_sub(1)?)?;
        Some(crate::words::escaped(line.trim()))
    })
}

fn listing_with(image: &Image, line_text: LineText) -> String {
    let names: Vec<String> = image.registers.iter().map(|r| r.name.clone()).collect();
    let mut out = String::new();
    for (i, reg) in image.registers.iter().enumerate() {
        let _ = writeln!(
            out,
            "r{i:<3} {:<16} limit {:<8} size {}",
            reg.name,
            reg.limit,
            reg.contents.size()
        );
        match (code_start(image, i), show::code(&reg.contents)) {
            (Some(segment), Some(instrs)) if !instrs.is_empty() => {
                code(image, &names, i, segment, &instrs, line_text, &mut out)
            }
            _ if reg.contents.is_cons() => {
                let _ = writeln!(out, "     = {}", show::guess(&reg.contents, 100));
            }
            _ => {}
        }
    }
    out
}

/// The first source-map segment of a code register.
fn code_start(image: &Image, register: usize) -> Option<u32> {
    image
        .source_map
        .registers
        .iter()
        .find(|m| m.register == register)
        .map(|m| m.segment)
}

/// The register (other than `except`) whose code starts at a segment.
fn starts_at(image: &Image, segment: u32, except: usize) -> Option<usize> {
    image
        .source_map
        .registers
        .iter()
        .find(|m| m.segment == segment && m.register != except)
        .map(|m| m.register)
}

fn code(
    image: &Image,
    names: &[String],
    register: usize,
    first: u32,
    instrs: &[crate::machine::Instruction],
    line_text: LineText,
    out: &mut String,
) {
    let mut offset = 0usize;
    let mut segment = Some(first);
    while let Some(s) = segment {
        if let Some(other) = starts_at(image, s, register)
            && (offset > 0 || register == 0)
        {
            let _ = if offset == 0 {
                writeln!(out, "     = the code of `{}` (r{other})", names[other])
            } else {
                writeln!(
                    out,
                    "           ... continues with the code of `{}` (r{other})",
                    names[other]
                )
            };
            return;
        }
        let Some(seg) = image.source_map.segments.get(s as usize) else {
            return;
        };
        for _ in 0..seg.locations.len() {
            let Some(instr) = instrs.get(offset) else {
                return;
            };
            for label in image
                .labels
                .iter()
                .filter(|l| l.register == register && l.offset == offset)
            {
                let _ = writeln!(out, "     {}:", label.name);
            }
            let text = show::instruction(*instr, names);
            let place = image.location(register, offset);
            let at = place.map(|l| location(image, l)).unwrap_or_default();
            let source = place
                .and_then(|l| {
                    let (file, line) = l
                        .expansion
                        .last()
                        .map_or((l.file, l.line), |o| (o.file, o.line));
                    line_text(file, line)
                })
                .map(|t| format!("  {t}"))
                .unwrap_or_default();
            let _ = writeln!(out, "     {offset:>4}  {text:<40} ; {at}{source}");
            offset += 1;
        }
        segment = seg.next;
    }
}

/// Where an instruction was written: the outermost source line (the user's
/// macro invocation, if it came from one), then the macros it went through,
/// outermost first.
pub fn location(image: &Image, l: &crate::image::Location) -> String {
    let file = |f: u32| image.files.get(f as usize).map_or("?", |r| r.name.as_str());
    match l.expansion.last() {
        None => format!("{}:{}", file(l.file), l.line),
        Some(outer) => {
            let macros: Vec<&str> = l.expansion.iter().rev().map(|e| &*e.macro_name).collect();
            format!(
                "{}:{} ({})",
                file(outer.file),
                outer.line,
                macros.join(" > ")
            )
        }
    }
}

//! The listing of an image: every register, its limit and size, and its
//! code with the source lines it came from.

use super::show;
use crate::image::Image;
use std::fmt::Write;

/// The listing text. A code register shows the instructions that are its
/// own; where its code goes on into code another register starts with (a
/// block falling through into a labelled one), the listing says so instead
/// of repeating it, so every instruction is listed once.
pub fn listing(image: &Image) -> String {
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
                code(image, &names, i, segment, &instrs, &mut out)
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
            let at = image
                .location(register, offset)
                .map(|l| location(image, l))
                .unwrap_or_default();
            let _ = writeln!(out, "     {offset:>4}  {text:<40} ; {at}");
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
            let macros: Vec<&str> = l
                .expansion
                .iter()
                .rev()
                .map(|e| e.macro_name.as_str())
                .collect();
            format!(
                "{}:{} ({})",
                file(outer.file),
                outer.line,
                macros.join(" > ")
            )
        }
    }
}

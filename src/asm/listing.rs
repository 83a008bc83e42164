//! The listing of an image: every register, its limit and size, and its
//! code with the source lines it came from.

use super::show;
use crate::image::Image;
use std::fmt::Write;

/// The listing text.
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
        let mapped = image.source_map.registers.iter().any(|m| m.register == i);
        match show::code(&reg.contents) {
            Some(instrs) if mapped && !instrs.is_empty() => {
                for (offset, instr) in instrs.iter().enumerate() {
                    for label in image
                        .labels
                        .iter()
                        .filter(|l| l.register == i && l.offset == offset)
                    {
                        let _ = writeln!(out, "     {}:", label.name);
                    }
                    let text = show::instruction(*instr, &names);
                    let at = image
                        .location(i, offset)
                        .map(|l| location(image, l))
                        .unwrap_or_default();
                    let _ = writeln!(out, "     {offset:>4}  {text:<40} ; {at}");
                }
            }
            _ if reg.contents.is_cons() => {
                let _ = writeln!(out, "     = {}", show::guess(&reg.contents, 100));
            }
            _ => {}
        }
    }
    out
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

//! `/instr`: code, one instruction per line, with its labels and source
//! locations when the image knows it.

use super::{ViewContext, element, length};
use crate::asm::{listing, show};
use crate::encoding::Decode;
use crate::image::{CodeIndex, Image};
use crate::machine::Instruction;
use crate::tree::Tree;
use std::collections::HashMap;

/// Instructions listed by `/instr`.
const INSTR_SHOWN: usize = 200;

/// Where the image's code came from: its code index and its labels by node.
struct Places<'a> {
    image: &'a Image,
    index: CodeIndex,
    labels: HashMap<usize, Vec<&'a str>>,
}

impl<'a> Places<'a> {
    /// Labels are the image's labels, and the names of the code registers
    /// where their code starts (blocks such as a macro's local labels),
    /// except the program register.
    fn new(image: &'a Image) -> Places<'a> {
        let mut labels: HashMap<usize, Vec<&str>> = HashMap::new();
        let starts = image.labels.iter().map(|l| (l.register, l.offset, &l.name));
        let blocks = (image.source_map.registers.iter())
            .filter(|m| m.register != crate::world::robot::PROGRAM)
            .filter_map(|m| Some((m.register, 0, &image.registers.get(m.register)?.name)));
        for (register, offset, name) in starts.chain(blocks) {
            let code = image
                .registers
                .get(register)
                .map(|r| r.contents.iter_list_from(offset))
                .filter(|c| c.is_cons());
            if let Some(code) = code {
                let names = labels.entry(code.node_id()).or_default();
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        Places {
            image,
            index: image.code_index(),
            labels,
        }
    }

    /// The source location of the code whose first instruction is the front
    /// of `code`.
    fn location(&self, code: &Tree) -> Option<String> {
        let (register, offset) = self.index.place(code)?;
        let l = self.image.location(register, offset)?;
        Some(listing::location(self.image, l))
    }

    /// The labels that start at `code`.
    fn labels(&self, code: &Tree) -> &[&'a str] {
        self.labels.get(&code.node_id()).map_or(&[], Vec::as_slice)
    }
}

/// `/instr`: one instruction per line with its offset and, when the image
/// knows this code, its labels and source location.
pub(super) fn instructions(tree: &Tree, ctx: &ViewContext) -> String {
    if tree.is_nil() {
        return "Nil: no code (a machine with this program halts)".to_string();
    }
    let places = ctx.image.map(Places::new);
    let mut lines = Vec::new();
    let mut rest = tree;
    let mut offset = 0;
    while let Some((front, back)) = rest.split() {
        if offset == INSTR_SHOWN {
            lines.push(format!("… {} more", length(rest)));
            break;
        }
        if let Some(p) = &places {
            lines.extend(p.labels(rest).iter().map(|l| format!("{l}:")));
        }
        let Some(instr) = Instruction::decode(front) else {
            lines.push(format!(
                "{offset:>4}  {}   <- not an instruction: the machine fails here",
                element(front)
            ));
            break;
        };
        let text = show::instruction(instr, ctx.register_names);
        lines.push(match places.as_ref().and_then(|p| p.location(rest)) {
            Some(at) => format!("{offset:>4}  {text:<40} ; {at}"),
            None => format!("{offset:>4}  {text}"),
        });
        rest = back;
        offset += 1;
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::super::tests::view;
    use super::super::{Format, show};
    use super::*;
    use crate::encoding::Encode;

    const BOT: &str = "use std/control

reg out = Move E

main:
    emit Move E
    jmp main
";

    /// BOT assembled, with its register names.
    struct Bot {
        image: Image,
        names: Vec<String>,
    }

    impl Bot {
        fn assembled() -> Bot {
            let assembly = crate::asm::assemble(
                &crate::asm::source::MemoryLoader::default(),
                crate::asm::source::SourceFile::new("bot.cta".into(), None, BOT.into()),
            );
            assert!(
                assembly.diagnostics.is_empty(),
                "{}",
                assembly.render(false)
            );
            let image = assembly.image.unwrap();
            let names = image.registers.iter().map(|r| r.name.clone()).collect();
            Bot { image, names }
        }

        /// A context with BOT's symbols and source map.
        fn context(&self) -> ViewContext<'_> {
            ViewContext {
                image: Some(&self.image),
                register_names: &self.names,
                input_limit: None,
            }
        }
    }

    #[test]
    fn instructions_with_their_source_lines() {
        let bot = Bot::assembled();
        let image = &bot.image;
        let c = bot.context();
        let main = "main:
   0  copyifnil zero, const0, out              ; bot.cta:6 (emit > mov)
spin.3:
   1  copyifnil out, ready.3, prog             ; bot.cta:6 (emit > wait_step)
   2  copyifnil zero, spin.3, prog             ; bot.cta:6 (emit > wait_step)";
        let program = &image.registers[0].contents;
        assert_eq!(show(program, Format::Instr, &c), Ok(main.to_string()));
        let main_register = image.register("main").unwrap();
        let code = &image.registers[main_register].contents;
        assert_eq!(show(code, Format::Instr, &c), Ok(main.to_string()));
        let ready = &image.registers[image.register("ready.3").unwrap()].contents;
        assert_eq!(
            show(ready, Format::Instr, &c),
            Ok("ready.3:
   0  copyifnil zero, main, prog               ; bot.cta:7 (jmp)"
                .to_string())
        );
        // The rest of a program, as register 0 holds it while it runs.
        let rest = program.back().unwrap();
        assert_eq!(
            show(rest, Format::Instr, &c),
            Ok(main
                .lines()
                .skip(2)
                .collect::<Vec<_>>()
                .join("\n")
                .replace("   1  ", "   0  ")
                .replace("   2  ", "   1  "))
        );
        // Without an image: numbers for names, no locations.
        assert_eq!(
            view(program, Format::Instr),
            Ok(
                "   0  copyifnil 3, 10, 2\n   1  copyifnil 2, 9, 0\n   2  copyifnil 3, 8, 0"
                    .to_string()
            )
        );
    }

    #[test]
    fn code_built_at_run_time() {
        let bot = Bot::assembled();
        let c = bot.context();
        let built = Tree::list([
            Instruction::Nilify(3).encode(),
            Instruction::Construct(1, 2, 40).encode(),
            (9i64, Tree::NIL).encode(),
            Instruction::Nilify(0).encode(),
        ]);
        assert_eq!(
            show(&built, Format::Instr, &c),
            Ok("   0  nilify zero
   1  construct in, out, 40
   2  list [9] (or code, 1 instruction)   <- not an instruction: the machine fails here"
                .to_string())
        );
        assert_eq!(
            view(&Tree::NIL, Format::Instr),
            Ok("Nil: no code (a machine with this program halts)".to_string())
        );
        let long = Tree::list((0..250).map(|_| Instruction::Nilify(1).encode()));
        let text = view(&long, Format::Instr).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), INSTR_SHOWN + 1);
        assert_eq!(lines[199], " 199  nilify 1");
        assert_eq!(lines[200], "… 50 more");
    }
}

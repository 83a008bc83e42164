//! The differential harness of the source semantics: a program is
//! assembled and run by the engine, and run by the semantics
//! (`constree::asm::semantics`); the two must agree (see [`compare`]).

#![allow(dead_code)]

pub mod compare;
pub mod generate;
pub mod literals;

use constree::asm::source::{MemoryLoader, SourceFile};
use constree::asm::{Faults, assemble_with_faults, disasm, semantics};
use constree::image::Image;
use std::collections::HashMap;

/// What checking one program found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Whether the entry is not the main file's first block.
    pub entry_moved: bool,
    /// Jumps taken backwards.
    pub backward_jumps: u64,
    /// The deepest recursion (continuations of one routine on the stack).
    pub deepest_recursion: usize,
    /// The most continuations on the stack at once (calls nested).
    pub deepest_calls: usize,
    /// Whether two code registers of the image share a suffix.
    pub shares_suffixes: bool,
    /// Whether one constant value is an operand more than once.
    pub shares_constants: bool,
    /// Whether an operand is the image of another program.
    pub embeds_image: bool,
    /// How the semantics' run ended: "halted", "running", or the fault
    /// and the register it names ("DeconstructNil stack").
    pub ending: String,
}

/// Assembles `main` (with `faults`), runs it both ways for `budget` ticks,
/// and checks that disassembling and assembling again gives the same
/// registers. `Err` says what differs.
pub fn check(
    loader: &MemoryLoader,
    main: &str,
    budget: u64,
    faults: Faults,
) -> Result<Checked, String> {
    let source = |loader: &MemoryLoader| {
        let text = &loader
            .files
            .iter()
            .find(|(p, _)| p.to_str() == Some(main))
            .expect("main file")
            .1;
        SourceFile::new(main.into(), Some(main.into()), text.clone())
    };
    let assembly = assemble_with_faults(loader, source(loader), faults);
    let Some(image) = assembly.image.as_ref().filter(|_| !assembly.has_errors()) else {
        return Err(format!("does not assemble:\n{}", assembly.render(false)));
    };
    let program =
        semantics::load(loader, source(loader)).map_err(|u| format!("semantics: {}", u.message))?;
    let run = semantics::run(&program, budget);
    let engine = compare::run_engine(image, budget);
    let found = compare::differences(&program, &run, &engine);
    if !found.is_empty() {
        return Err(found.join("\n"));
    }
    roundtrip(image)?;
    Ok(Checked {
        entry_moved: program.entry_moved,
        backward_jumps: run.backward_jumps,
        deepest_recursion: run.deepest_recursion,
        deepest_calls: run.deepest_calls,
        shares_suffixes: shares_suffixes(image),
        shares_constants: shares_constants(&program),
        embeds_image: program.instrs.iter().any(|i| {
            i.operands.iter().any(|o| match o {
                semantics::Operand::Value(v) => v
                    .spine()
                    .0
                    .iter()
                    .chain([v])
                    .any(|v| matches!(v, semantics::Value::Image(_))),
                _ => false,
            })
        }),
        ending: match &run.outcome {
            semantics::Outcome::Halted => "halted".into(),
            semantics::Outcome::Running => "running".into(),
            semantics::Outcome::Failed { fault, .. } => {
                let (kind, number) = match fault {
                    semantics::Fault::DeconstructNil(r) => ("DeconstructNil", r),
                    semantics::Fault::OutOfMemory(r) => ("OutOfMemory", r),
                };
                let name = program
                    .register_numbered(*number)
                    .map_or("?", |r| &program.registers[r].name.text);
                format!("{kind} {}", name.trim_end_matches(char::is_numeric))
            }
            semantics::Outcome::Undefined(_) => "undefined".into(),
        },
    })
}

/// `disasm` then `asm` gives the same registers (limits and contents).
fn roundtrip(image: &Image) -> Result<(), String> {
    let text = disasm::disassemble(image);
    let loader = MemoryLoader::default().with("disassembled.cta", &text);
    let again = constree::asm::assemble(
        &loader,
        SourceFile::new(
            "disassembled.cta".into(),
            Some("disassembled.cta".into()),
            text.clone(),
        ),
    );
    let Some(second) = again.image.as_ref() else {
        return Err(format!(
            "the disassembly does not assemble:\n{}\n{text}",
            again.render(false)
        ));
    };
    if second.memory() != image.memory() {
        return Err(format!("disasm then asm changes the registers:\n{text}"));
    }
    Ok(())
}

/// Whether a node of one code register's code is also in another's.
fn shares_suffixes(image: &Image) -> bool {
    let mut owner: HashMap<usize, usize> = HashMap::new();
    for m in &image.source_map.registers {
        let mut rest = &image.registers[m.register].contents;
        while let Some((_, back)) = rest.split() {
            match owner.insert(rest.node_id(), m.register) {
                Some(other) if other != m.register => return true,
                Some(_) => break,
                None => {}
            }
            rest = back;
        }
    }
    false
}

/// Whether one constant value (not code) is an operand more than once.
fn shares_constants(program: &semantics::Program) -> bool {
    let mut seen = Vec::new();
    for instr in &program.instrs {
        for o in &instr.operands {
            if let semantics::Operand::Value(semantics::Value::Data(t)) = o {
                if !t.is_nil() && seen.contains(t) {
                    return true;
                }
                seen.push(t.clone());
            }
        }
    }
    false
}

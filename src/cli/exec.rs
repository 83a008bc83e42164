//! `constree exec`: one machine outside any world.

use super::asm::{AssemblyOptions, load_program};
use super::{Failure, kind};
use crate::asm::{parse_literal, show};
use crate::debugger::view::{ValueType, ViewContext, show_as};
use crate::machine::run_machine;
use crate::scenario::game::locate_fault;
use crate::words::count;
use crate::world::robot::{INPUT, OUTPUT};
use std::path::PathBuf;
use std::process::ExitCode;

/// `constree exec`.
#[derive(clap::Args)]
pub struct ExecArgs {
    /// The program (`.cta` or `.ctm`).
    file: PathBuf,
    /// Ticks per step.
    #[arg(long, default_value_t = 10_000, allow_negative_numbers = true)]
    speed: i64,
    /// A value written into `in` at every step, as the engine writes input
    /// (trimmed from the right to fit).
    #[arg(long, value_name = "LITERAL")]
    input: Option<String>,
    /// How many steps.
    #[arg(long, default_value_t = 1)]
    steps: u64,
    /// Show only these registers at the end (names or numbers, separated
    /// by commas); all of them without it. `NAME:TYPE` reads a register
    /// as a value of TYPE (`moves:[((int, int), dir)]`; types: int bool
    /// dir command instr tree [T] (T1, T2, ...) maybe T).
    #[arg(long, value_name = "REGISTERS")]
    show: Vec<String>,
    #[command(flatten)]
    assembly: AssemblyOptions,
}

pub fn run(args: ExecArgs) -> Result<ExitCode, Failure> {
    kind::PROGRAM.check("exec", &args.file)?;
    let image = load_program(&args.file, &args.assembly.stdlib, &args.assembly.deny)?;
    let input = match &args.input {
        Some(text) => {
            Some(parse_literal(text).map_err(|m| Failure::Usage(format!("--input: {m}")))?)
        }
        None => None,
    };
    let shown = registers_to_show(&args.show, &image)?;
    let register_names: Vec<String> = image.registers.iter().map(|r| r.name.clone()).collect();
    let mut memory = image.memory();
    let mut failed_at = None;
    for step in 1..=args.steps {
        // As the engine does: read and clear the output, write the input, run.
        let output = memory.get(OUTPUT).map(|r| r.contents.clone());
        if let Some(out) = &output
            && let Some(register) = memory.get_mut(OUTPUT)
        {
            println!("step {step}: out = {}", show::output(out));
            register.force(crate::tree::Tree::NIL);
        }
        if let (Some(input), Some(register)) = (&input, memory.get_mut(INPUT)) {
            register.fit_tree(input.clone());
        }
        let before = memory.clone();
        match run_machine(args.speed, &mut memory) {
            Ok(report) if report.halted => {
                println!("step {step}: halted after {}", count(report.ticks, "tick"))
            }
            Ok(report) => println!("step {step}: ran {}", count(report.ticks, "tick")),
            Err(e) => {
                println!(
                    "step {step}: machine error: {}; every register was wiped\n    in {}",
                    image.error_text(&e),
                    locate_fault(before, args.speed, Some(&image))
                );
                failed_at.get_or_insert(step);
            }
        }
    }
    println!();
    let ctx = ViewContext {
        image: Some(&image),
        register_names: &register_names,
        input_limit: memory.get(INPUT).map(|r| r.limit),
    };
    for (i, r) in memory.iter().enumerate() {
        let ty = match &shown {
            None => None,
            Some(shown) => match shown.iter().find(|(k, _)| *k == i) {
                Some((_, ty)) => ty.as_ref(),
                None => continue,
            },
        };
        let name = image.registers.get(i).map_or("", |r| r.name.as_str());
        let is_code = image.source_map.registers.iter().any(|m| m.register == i);
        let shown = match (ty, show::code(&r.contents)) {
            (Some(_), _) if r.contents.is_nil() && failed_at.is_some() => {
                "empty (wiped by the machine error)".to_string()
            }
            (Some(ty), _) => {
                let label = if name.is_empty() {
                    format!("r{i}")
                } else {
                    name.to_string()
                };
                show_as(&r.contents, ty, &label, &ctx).unwrap_or_else(|e| format!("<{e}>"))
            }
            (None, Some(instrs)) if is_code => format!(
                "code, {} instruction{}",
                instrs.len(),
                if instrs.len() == 1 { "" } else { "s" }
            ),
            (None, _) => show::guess(&r.contents, 120),
        };
        println!("r{i:<3} {name:<16} size {:<8} {shown}", r.contents.size());
    }
    Ok(match failed_at {
        // The machine failed: exit code 1, as for any check that fails.
        Some(step) => {
            eprintln!("error: the machine failed at step {step} (see above)");
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    })
}

/// A register `--show` names, and the type to read it as if one is given.
type Shown = (usize, Option<ValueType>);

/// The registers `--show` names (by name or number), each with the type
/// to read it as if one is given, or `None` for every register.
fn registers_to_show(
    arguments: &[String],
    image: &crate::image::Image,
) -> Result<Option<Vec<Shown>>, Failure> {
    if arguments.is_empty() {
        return Ok(None);
    }
    arguments
        .iter()
        .flat_map(|a| top_level_items(a))
        .map(|entry| {
            let (n, ty) = match entry.split_once(':') {
                Some((n, ty)) => (
                    n.trim(),
                    Some(ValueType::parse(ty).map_err(|e| Failure::Usage(format!("--show {entry}: {e}")))?),
                ),
                None => (entry.trim(), None),
            };
            let index = image
                .register(n)
                .or_else(|| n.parse().ok().filter(|&i: &usize| i < image.registers.len()))
                .ok_or_else(|| {
                    Failure::NoSuch(format!(
                        "--show: no register `{n}` (the program has {} registers; `constree asm FILE --listing` lists them)",
                        image.registers.len()
                    ))
                })?;
            Ok((index, ty))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// `a, b:[(int, int)], c` split at the commas outside brackets.
fn top_level_items(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&text[start..]);
    items
}

//! Random vectors computed by constree, for the reference to check
//! (`oracle check DIR`): the other direction of differential testing.
//!
//! Memories hold random programs (instructions with register indices in
//! and out of range), random data and limits (tight, zero, negative);
//! worlds are small wrapping grids with walls, items and robots whose
//! output registers hold random commands and whose programs are random.

use crate::encoding::Encode;
use crate::machine::{Instruction, Memory, Outcome, Register};
use crate::scenario::random::SplitMix64;
use crate::tree::Tree;
use crate::world::{
    Cell, Color, Command, Direction, Frame, Item, Processor, Robot, Shape, Square, World, update,
};
use std::io::Write;
use std::path::Path;

/// A random source with the helpers the generators need.
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.below(n.max(1))
    }

    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A random tree of at most `nodes` conses (built without recursion).
    fn tree(&mut self, nodes: u64) -> Tree {
        let n = self.below(nodes + 1);
        let mut pool = vec![Tree::NIL];
        for _ in 0..n {
            let a = pool[self.below(pool.len() as u64) as usize].clone();
            let b = pool[self.below(pool.len() as u64) as usize].clone();
            pool.push(Tree::cons(a, b));
        }
        pool.pop().unwrap_or_default()
    }

    fn instruction(&mut self, registers: i64) -> Instruction {
        let mut r = || self.int(-1, registers);
        let (a, b, c) = (r(), r(), r());
        match self.below(4) {
            0 => Instruction::Nilify(a),
            1 => Instruction::Construct(a, b, c),
            2 => Instruction::Deconstruct(a, b, c),
            _ => Instruction::CopyIfNil(a, b, c),
        }
    }

    /// A program: random instructions, sometimes ending in a jump back
    /// (a loop through a register holding the program).
    fn program(&mut self, registers: i64) -> Tree {
        let count = self.below(12);
        let instructions: Vec<Tree> = (0..count)
            .map(|_| self.instruction(registers).encode())
            .collect();
        Tree::list(instructions)
    }

    fn memory(&mut self, registers: usize) -> Memory {
        let n = registers as i64;
        (0..registers)
            .map(|i| {
                let contents = match (i, self.below(3)) {
                    (0, _) | (_, 0) => self.program(n),
                    _ => self.tree(12),
                };
                let limit = match self.below(6) {
                    0 => self.int(-3, 2),
                    1 => contents.size() as i64,
                    _ => self.int(0, 400),
                };
                Register::new(limit, contents)
            })
            .collect()
    }

    fn command(&mut self) -> Command {
        match self.below(7) {
            0 => Command::Move(Direction::ALL[self.below(8) as usize]),
            1 => Command::Lift(self.int(-1, 3)),
            2 => Command::Drop(self.int(-1, 3)),
            3 => Command::Inspect(self.int(-1, 3)),
            4 => Command::Destroy(self.int(-1, 3)),
            5 => {
                let parts = (0..self.below(4)).map(|_| self.int(0, 4)).collect();
                let registers = self.below(3) as usize;
                Command::Build(parts, self.memory(registers))
            }
            _ => Command::Pass,
        }
    }

    fn item(&mut self) -> Item {
        match self.below(5) {
            0 => Item::Cargo(self.int(0, 9), self.int(1, 60)),
            1 => Item::ProcessorPart(Processor {
                speed: self.int(0, 50),
            }),
            2 => Item::RegisterPart(Register::new(self.int(0, 200), self.tree(4))),
            3 => Item::FramePart(self.frame()),
            _ => Item::Shield,
        }
    }

    fn frame(&mut self) -> Frame {
        Frame {
            color: Color::ALL[self.below(8) as usize],
            strength: self.int(0, 200),
        }
    }

    fn robot(&mut self) -> Robot {
        let registers = 3 + self.below(4) as usize;
        let mut memory = self.memory(registers);
        // The output register holds a command, the input register room.
        memory[2] = Register::new(self.int(20, 2000), self.command().encode());
        memory[1] = Register::new(self.int(0, 3000), Tree::NIL);
        if memory[2].contents.size() as i64 > memory[2].limit {
            memory[2].limit = memory[2].contents.size() as i64;
        }
        Robot {
            frame: self.frame(),
            inventory: (0..self.below(4)).map(|_| self.item()).collect(),
            processor: Processor {
                speed: self.int(0, 60),
            },
            memory,
        }
    }

    fn world(&mut self) -> World {
        let (x, y) = (self.int(1, 5), self.int(1, 5));
        let cells: Vec<Cell> = (0..x * y)
            .map(|_| {
                (!self.chance(15)).then(|| Square {
                    robots: (0..self.below(4)).map(|_| self.robot()).collect(),
                    items: (0..self.below(4)).map(|_| self.item()).collect(),
                })
            })
            .collect();
        let shape = Shape::new((x, y), true).expect("a positive size");
        World::new(shape, cells).expect("x * y cells")
    }
}

/// About how many bytes a machine vector takes (the mean of 3,000).
const MACHINE_BYTES: u64 = 450;
/// About how many bytes a world vector takes (the mean of 300).
const WORLD_BYTES: u64 = 21_000;

/// About how many bytes [`generate`] writes for `machines` and `worlds`
/// vectors; `None` when that is past counting.
pub fn estimate(machines: usize, worlds: usize) -> Option<u64> {
    (machines as u64)
        .checked_mul(MACHINE_BYTES)?
        .checked_add((worlds as u64).checked_mul(WORLD_BYTES)?)
}

/// Writes the folder `dir` (see [`crate::files::write_folder`]; with
/// `replace` a folder holding files is replaced whole): `machine.jsonl`
/// (`machines` random runs) and `world.jsonl` (`worlds` random worlds
/// stepped 1 to 4 times), with empty files for the other kinds, all
/// computed by constree from `seed`. Counts whose [`estimate`] passes the
/// space free on the disk are refused before anything is written.
pub fn generate(
    dir: &Path,
    seed: u64,
    machines: usize,
    worlds: usize,
    replace: bool,
) -> std::io::Result<()> {
    let free = crate::files::free_space(dir)?;
    match estimate(machines, worlds) {
        Some(bytes) if bytes <= free => {}
        bytes => {
            return Err(std::io::Error::other(format!(
                "{machines} machines and {worlds} worlds take {} bytes, but the disk has {free} free",
                bytes.map_or_else(|| "more than 2^64".to_string(), |b| format!("about {b}"))
            )));
        }
    }
    crate::files::write_folder(dir, replace, |dir| fill(dir, seed, machines, worlds))
}

fn fill(dir: &Path, seed: u64, machines: usize, worlds: usize) -> std::io::Result<()> {
    let mut rng = Rng(SplitMix64::new(seed));
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join("machine.jsonl"))?);
    for _ in 0..machines {
        let registers = rng.below(6) as usize;
        let memory = rng.memory(registers);
        let speed = rng.int(0, 200);
        let result = Outcome::of_run(speed, memory.clone());
        let line = serde_json::json!({ "speed": speed, "memory": memory, "result": result });
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join("world.jsonl"))?);
    for _ in 0..worlds {
        let start = rng.world();
        let count = 1 + rng.below(4);
        let mut steps = Vec::new();
        let mut world = start.clone();
        for _ in 0..count {
            world = update(world);
            steps.push(world.clone());
        }
        let line = serde_json::json!({ "world": start, "steps": steps });
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    for empty in ["ints", "encode", "decode", "render"] {
        std::fs::write(dir.join(format!("{empty}.jsonl")), "")?;
    }
    Ok(())
}

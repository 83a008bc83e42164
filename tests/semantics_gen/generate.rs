//! A generator of random valid programs (in the manner of Csmith): a main
//! file whose blocks are laid out in any order with `entry` anywhere,
//! chains of blocks falling through into each other, counted loops,
//! routines calling routines (a chain of them, and a recursion 5 to 9
//! deep), macros with local labels and `if`/`else`, an included file of
//! constants and macros, a file of code included several times, a `use`d
//! module of routines, constants and expressions, every literal form, and
//! operations that may fail on purpose (taking Nil apart, overfilling a
//! small register).
//!
//! Control flow is structured so that every program ends: blocks of the main
//! chain only branch forward, loops are counted by a list register reset
//! before each loop, routines call only routines generated before them or
//! themselves with a depth list. The generator adds up, for each piece, the
//! most ticks it can take: [`Generated::bound`].

use super::literals::{Literals, Rng};

/// A generated program.
#[derive(Debug, Clone)]
pub struct Generated {
    /// `(path, text)` of every file; the main file is `main.cta`.
    pub files: Vec<(String, String)>,
    /// The most ticks the program can run before it ends (it may end
    /// sooner, by a machine error or a branch), or, for a program that
    /// spins forever on purpose, the ticks after which it is stopped.
    pub bound: u64,
    /// Whether the program spins forever on purpose.
    pub spins: bool,
}

impl Generated {
    /// The whole program, for a failure message.
    pub fn show(&self) -> String {
        self.files
            .iter()
            .map(|(p, t)| format!("==> {p} <==\n{t}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Ticks a program may take at most, beyond which a piece is made simpler.
const MAX_BOUND: u64 = 40_000;

/// A routine that can be called, with the most ticks a call takes (the
/// `call` and the `ret` included).
#[derive(Clone)]
struct Routine {
    name: String,
    /// How a call is written (with the depth list set first, for a
    /// recursive routine).
    call: String,
    bound: u64,
}

/// A group of lines of the main file that must stay together.
enum Run {
    /// A routine.
    Routine(Vec<String>),
    /// Blocks of the main chain, ending with a jump.
    Main(Vec<String>),
    /// The last blocks of the main chain.
    Last(Vec<String>),
}

/// A macro and how to invoke it with random arguments.
#[derive(Clone, Copy)]
enum MacroKind {
    /// `NAME dst, src`: pushes `src` on `dst` unless `src` is Nil (a local
    /// label). 2 ticks at most.
    GuardPush,
    /// `NAME dst, k`: `if k > 3` pushes `#k`, `else` loads `k * 2`. 1 tick.
    Choose,
    /// `NAME dst, n`: pushes n, n - 1, ..., 1 (invokes itself, `if` to
    /// stop). n ticks.
    Countdown,
    /// `NAME a, b`: a guard push, then a choice (macros in macros): 3 ticks.
    Both,
}

struct Gen {
    rng: Rng,
    /// Data registers of the main file and the module.
    data: Vec<String>,
    /// Registers with small limits (writes may overflow them).
    tiny: Vec<String>,
    /// Whether `child/main.cta`, a program to embed, exists.
    child: bool,
    /// Numeric constants.
    consts: Vec<String>,
    /// Whether the register `sized` (limit `auto`) is declared.
    sized: bool,
    /// Labels whose code may be taken as a value.
    labels: Vec<String>,
    macros: Vec<(String, MacroKind)>,
    /// Routines callable from what is generated next.
    routines: Vec<Routine>,
    /// Declarations of loop counters and depth lists.
    counters: Vec<String>,
    fresh: u32,
    /// Whether `piece.cta` (code included in place) exists.
    piece: Option<u64>,
}

/// Generates the program of a seed.
pub fn generate(seed: u64) -> Generated {
    build(seed, true)
}

/// The program of a seed; one in five programs that `may_embed` embeds
/// the image of another generated program (`child/main.cta`).
fn build(seed: u64, may_embed: bool) -> Generated {
    let mut rng = Rng::new(seed);
    let child = (may_embed && rng.chance(20)).then(|| build(seed ^ 0xC41D_C41D, false));
    let mut g = Gen {
        rng,
        child: child.is_some(),
        data: Vec::new(),
        tiny: Vec::new(),
        consts: Vec::new(),
        sized: false,
        labels: Vec::new(),
        macros: Vec::new(),
        routines: Vec::new(),
        counters: Vec::new(),
        fresh: 0,
        piece: None,
    };
    let mut generated = g.program();
    if let Some(child) = child {
        generated.files.extend(
            child
                .files
                .into_iter()
                .map(|(p, t)| (format!("child/{p}"), t)),
        );
    }
    generated
}

impl Gen {
    fn fresh(&mut self, stem: &str) -> String {
        self.fresh += 1;
        format!("{stem}{}", self.fresh)
    }

    /// A random number, in any form of a number.
    fn int(&mut self) -> String {
        let lits = Literals {
            registers: &self.data,
            consts: &self.consts,
        };
        lits.int(&mut self.rng)
    }

    /// A random value.
    fn value(&mut self) -> String {
        let lits = Literals {
            registers: &self.data,
            consts: &self.consts,
        };
        lits.value(&mut self.rng, 2)
    }

    /// A random value as an operand (a number alone is a register: `#` in
    /// front of one).
    fn operand_value(&mut self) -> String {
        let v = self.value();
        if v.starts_with(|c: char| c.is_ascii_digit()) {
            format!("#{v}")
        } else {
            v
        }
    }

    fn program(&mut self) -> Generated {
        let mut files = Vec::new();
        let mut head = vec!["use std/control".to_string()];
        // Registers of the main file, some with small limits, one numbered.
        let mut decls = Vec::new();
        for k in 0..self.rng.range(3, 6) {
            let name = format!("d{k}");
            let init = if self.rng.chance(60) {
                format!(" = {}", self.value())
            } else {
                String::new()
            };
            decls.push(format!("reg {name}{init}"));
            self.data.push(name);
        }
        decls.push("reg nilvalued 0 = nil".into());
        for k in 0..self.rng.range(0, 2) {
            let name = format!("tiny{k}");
            let limit = self.rng.range(0, 12);
            decls.push(format!("reg {name} {limit}"));
            self.tiny.push(name.clone());
        }
        if self.rng.chance(50) {
            decls.push("reg big @40 1000000 = [code(main), 7]".into());
        } else {
            decls.push("reg big @40 1000000".into());
        }
        if self.rng.chance(50) {
            // A limit of exactly its value's size: read, never written.
            decls.push(format!("reg sized auto = {}", self.value()));
            self.sized = true;
        }
        // Constants, some used before their definition.
        let mut consts = Vec::new();
        for k in 0..self.rng.range(1, 4) {
            let name = format!("K{k}");
            let value = self.int();
            consts.push(format!("const {name} = {value}"));
            self.consts.push(name);
        }
        if self.rng.chance(30) {
            // Doubling constants: logical size 2^n, n + 1 distinct nodes.
            let n = self.rng.range(8, 40);
            consts.push("const t0 = [1]".into());
            for k in 1..=n {
                consts.push(format!("const t{k} = cons(t{}, t{})", k - 1, k - 1));
            }
            consts.push(format!("const DOUBLED = [size([1]), t{}]", n.min(9)));
        }
        let defs = self.rng.chance(50);
        let macro_text = self.macros_text();
        if defs {
            files.push((
                "defs.cta".to_string(),
                format!(
                    "; constants and macros\n{}\n{}\n",
                    consts.join("\n"),
                    macro_text
                ),
            ));
            head.push("include \"defs.cta\"".into());
        }
        // A module of routines.
        let module = self.rng.chance(60);
        if module {
            let text = self.module_text();
            files.push(("lib.cta".into(), text));
        }
        // Code included in place (several times).
        if self.rng.chance(40) {
            let (lines, bound) = self.ops((1, 3), &[], 2);
            self.piece = Some(bound);
            files.push((
                "piece.cta".into(),
                format!("; included in place\n{}\n", lines.join("\n")),
            ));
        }
        // Routines of the main file: a chain, then a recursion.
        let mut runs: Vec<Run> = Vec::new();
        for _ in 0..self.rng.range(2, 7) {
            let lines = self.routine();
            runs.push(Run::Routine(lines));
        }
        runs.push(Run::Routine(self.recursive()));
        let longest = self.routines.iter().map(|r| r.bound).max().unwrap_or(0);
        // The main chain.
        let (chain, mut bound, spins) = self.main_chain();
        let last = chain.len() - 1;
        for (k, lines) in chain.into_iter().enumerate() {
            runs.push(if k == last {
                Run::Last(lines)
            } else {
                Run::Main(lines)
            });
        }
        // Lay the runs out in any order.
        for k in (1..runs.len()).rev() {
            let j = self.rng.below(k as u64 + 1) as usize;
            runs.swap(k, j);
        }
        // The end of the main chain may fall off the end of the file or
        // into a routine (whose `ret` finds the stack empty), but not back
        // into the main chain.
        if let Some(k) = runs.iter().position(|r| matches!(r, Run::Last(_)))
            && let Some(next) = runs.get(k + 1)
        {
            let into_chain = matches!(next, Run::Main(_));
            if let Run::Last(lines) = &mut runs[k]
                && into_chain
            {
                lines.push("    halt".into());
            }
            bound += longest + 2;
        }
        let mut body: Vec<String> = Vec::new();
        let count = runs.len();
        // `entry` in the included file, or anywhere among the runs.
        let entry_at = if defs && self.rng.chance(20) {
            files[0].1.push_str("entry main\n");
            usize::MAX
        } else {
            self.rng.below(count as u64 + 1) as usize
        };
        for (k, run) in runs.into_iter().enumerate() {
            if k == entry_at {
                body.push("entry main".into());
            }
            let (Run::Routine(lines) | Run::Main(lines) | Run::Last(lines)) = run;
            body.extend(lines);
        }
        if entry_at == count {
            body.push("entry main".into());
        }
        let mut main = head;
        if module {
            // `use` may come anywhere: before or after the code.
            if self.rng.chance(50) {
                main.push("use \"lib.cta\"".into());
            } else {
                body.push("use \"lib.cta\"".into());
            }
        }
        main.extend(decls);
        main.append(&mut self.counters);
        if !defs {
            main.extend(consts);
            main.push(macro_text);
        }
        main.extend(body);
        files.insert(0, ("main.cta".into(), main.join("\n") + "\n"));
        Generated {
            files,
            bound,
            spins,
        }
    }

    /// Definitions of a few macros.
    fn macros_text(&mut self) -> String {
        let mut text = Vec::new();
        for k in 0..self.rng.range(1, 4) {
            let kind = *self.rng.pick(&[
                MacroKind::GuardPush,
                MacroKind::Choose,
                MacroKind::Countdown,
                MacroKind::Both,
            ]);
            let name = format!("m{k}");
            let definition = match kind {
                MacroKind::GuardPush => format!(
                    "macro {name} dst, src\n    jnil src, skip\n    push dst, src\nskip:\nend"
                ),
                MacroKind::Choose => format!(
                    "macro {name} dst, k\n    if k > 3\n        push dst, #k\n    else\n        load dst, k * 2\n    end\nend"
                ),
                MacroKind::Countdown => format!(
                    "macro {name} dst, n\n    if n > 0\n        push dst, #n\n        {name} dst, n - 1\n    end\nend"
                ),
                MacroKind::Both => {
                    // Uses two macros defined just above.
                    text.push(format!(
                        "macro {name}g dst, src\n    jcons src, more\n    push dst, #0\nmore:\nend"
                    ));
                    text.push(format!(
                        "macro {name}c dst, k\n    if k == 0 or k > 5\n        clear dst\n    else\n        push dst, #(k - 1)\n    end\nend"
                    ));
                    format!("macro {name} a, b\n    {name}g a, b\n    {name}c a, 3\nend")
                }
            };
            text.push(definition);
            self.macros.push((name, kind));
        }
        text.join("\n")
    }

    /// `lib.cta`: registers and routines calling each other.
    fn module_text(&mut self) -> String {
        let mut lines = vec![
            "; a module of routines".to_string(),
            "use std/control".into(),
            "reg lib.r = [1, 2]".into(),
            "reg lib.s = [3, 4, 5]".into(),
        ];
        self.data.push("lib.r".into());
        self.data.push("lib.s".into());
        let mut prev: Option<Routine> = None;
        for k in 0..self.rng.range(1, 3) {
            let name = format!("lib.f{k}");
            let mut body = vec![format!("{name}:")];
            let mut bound = 4;
            let ops = [
                "    push lib.s, lib.r".to_string(),
                "    pop lib.s, lib.r".into(),
                format!("    mov lib.r, {}", self.operand_value()),
                "    swap lib.r, lib.s".into(),
            ];
            for _ in 0..self.rng.range(1, 3) {
                body.push(self.rng.pick(&ops).clone());
                bound += 3;
            }
            if let Some(p) = &prev {
                body.push(p.call.clone());
                bound += p.bound;
            }
            body.push("    ret".into());
            lines.extend(body);
            let routine = Routine {
                call: format!("    call {name}"),
                name,
                bound,
            };
            prev = Some(routine.clone());
            self.routines.push(routine);
        }
        lines.join("\n") + "\n"
    }

    /// A routine: random operations (calling earlier routines), then `ret`.
    fn routine(&mut self) -> Vec<String> {
        let name = self.fresh("f");
        let out = format!("{name}.out");
        let mut lines = vec![format!("{name}:")];
        let (ops, bound) = self.ops((1, 5), &[".out".to_string()], 1);
        lines.extend(ops);
        lines.push(".out:".into());
        lines.push("    ret".into());
        self.labels.push(out);
        self.routines.push(Routine {
            call: format!("    call {name}"),
            name,
            bound: bound + 4,
        });
        lines
    }

    /// A routine calling itself as often as its depth list is long.
    fn recursive(&mut self) -> Vec<String> {
        let name = self.fresh("rec");
        let depth = format!("{name}.depth");
        self.counters.push(format!("reg {depth}"));
        let n = self.rng.range(5, 9);
        let mut lines = vec![
            format!("{name}:"),
            format!("    jnil {depth}, .base"),
            format!("    pop {depth}, scratch"),
        ];
        let (before, b1) = self.ops((0, 2), &[".base".to_string()], 2);
        lines.extend(before);
        lines.push(format!("    call {name}"));
        let (after, b2) = self.ops((0, 2), &[], 2);
        lines.extend(after);
        lines.push(".base:".into());
        lines.push("    ret".into());
        let zeros = vec!["0"; n as usize].join(", ");
        self.routines.push(Routine {
            call: format!("    load {depth}, [{zeros}]\n    call {name}"),
            name,
            bound: 1 + (n + 1) * (2 + 2 + b1 + 2 + b2 + 2) + 4,
        });
        lines
    }

    /// The main chain: blocks that fall through or jump to the next, branch
    /// forward, and end with a halt, a spin or a deliberate error. Returns
    /// the runs (groups of blocks that must stay together), the bound and
    /// whether it spins.
    fn main_chain(&mut self) -> (Vec<Vec<String>>, u64, bool) {
        let blocks = self.rng.range(2, 6) as usize;
        let names: Vec<String> = (0..blocks)
            .map(|k| {
                if k == 0 {
                    "main".to_string()
                } else {
                    format!("main.b{k}")
                }
            })
            .collect();
        self.labels.extend(names.iter().skip(1).cloned());
        let mut runs = vec![Vec::new()];
        let mut bound = 0;
        // Some blocks have an empty block in front (two labels in a row),
        // which branches may name too.
        let aliases: Vec<Option<String>> = (0..blocks)
            .map(|k| (k > 0 && self.rng.chance(25)).then(|| format!("main.e{k}")))
            .collect();
        let targets: Vec<Vec<String>> = (0..blocks)
            .map(|k| {
                (k + 1..blocks)
                    .flat_map(|j| std::iter::once(names[j].clone()).chain(aliases[j].clone()))
                    .collect()
            })
            .collect();
        for k in 0..blocks {
            let run = runs.last_mut().expect("a run");
            run.extend(aliases[k].iter().map(|a| format!("{a}:")));
            run.push(format!("{}:", names[k]));
            let later = &targets[k];
            let (ops, b) = self.ops((1, 6), later, 0);
            bound += b;
            runs.last_mut().expect("a run").extend(ops);
            if k + 1 < blocks {
                match self.rng.below(3) {
                    0 => {
                        bound += 1;
                        runs.last_mut()
                            .expect("a run")
                            .push(format!("    jmp {}", names[k + 1]));
                        runs.push(Vec::new());
                    }
                    1 => {
                        // A computed jump through a register holding code.
                        bound += 2;
                        runs.last_mut().expect("a run").extend([
                            format!("    mov big, {}", names[k + 1]),
                            "    jmp big".into(),
                        ]);
                        runs.push(Vec::new());
                    }
                    2 if self.rng.chance(40) => {
                        // A jump through a limit-0 register declared with a
                        // value: not "always Nil", so the block goes on.
                        bound += 1;
                        runs.last_mut()
                            .expect("a run")
                            .push(format!("    copyifnil nilvalued, {}, prog", names[k + 1]));
                    }
                    _ => {} // falls through
                }
            }
        }
        let run = runs.last_mut().expect("a run");
        let spins = self.rng.chance(8);
        match self.rng.below(12) {
            _ if spins => {
                run.extend([
                    "spin:".to_string(),
                    "    push d0, #1".into(),
                    "    pop d0, scratch".into(),
                    "    jmp spin".into(),
                ]);
                bound += self.rng.range(0, 50);
            }
            0 => {
                run.push("    pop zero, d0 ; Nil: wipes the machine".into());
                bound += 1;
            }
            1 => {
                run.push("    mov zero, #1 ; zero holds Nil only: wipes the machine".into());
                bound += 1;
            }
            2 => {} // falls off the end when laid out last, else into a routine
            _ => {
                run.push("    halt".into());
                bound += 1;
            }
        }
        (runs, bound, spins)
    }

    /// `lo` to `hi` random operations; `forward` are labels a branch may go to
    /// (forward in the code), `depth` how deep in loops and routines.
    fn ops(&mut self, (lo, hi): (u64, u64), forward: &[String], depth: u32) -> (Vec<String>, u64) {
        let n = self.rng.range(lo, hi);
        let mut lines = Vec::new();
        let mut bound = 0;
        for _ in 0..n {
            let (more, b) = self.op(forward, depth, bound);
            lines.extend(more);
            bound += b;
        }
        (lines, bound)
    }

    fn data(&mut self) -> String {
        self.rng.pick(&self.data).clone()
    }

    /// One operation, with its bound, given what the piece already takes.
    fn op(&mut self, forward: &[String], depth: u32, so_far: u64) -> (Vec<String>, u64) {
        let a = self.data();
        let b = self.data();
        let c = self.data();
        let one = |s: String| (vec![format!("    {s}")], 1);
        match self.rng.below(26) {
            0 => one(format!("mov {a}, {b}")),
            1 | 2 => {
                let v = self.operand_value();
                one(format!("mov {a}, {v}"))
            }
            3 => {
                let v = self.int();
                one(format!("load {a}, {v}"))
            }
            4 | 5 => one(format!("push {a}, {b}")),
            // Operations that may fail (Nil taken apart, a small register
            // overfilled), rarely, so that most programs run a while.
            6 if self.rng.chance(25) => one(format!("pop {a}, {b}")),
            7 if self.rng.chance(25) => one(format!("{} {a}, {b}", self.rng.pick(&["car", "cdr"]))),
            8 => one(format!("cons {a}, {b}, {c}")),
            9 => (vec![format!("    swap {a}, {b}")], 3),
            10 => one(format!("clear {a}")),
            11 => {
                let v = self.operand_value();
                one(format!("copyifnil {a}, {v}, {b}"))
            }
            12 => one(format!("construct @40, {b}, @40 ; big := Cons {b} big")),
            22 if self.rng.chance(30) => {
                one(format!("construct 40, {b}, @40 ; 40 alone is register 40"))
            }
            13 if !self.tiny.is_empty() && self.rng.chance(30) => {
                let t = self.rng.pick(&self.tiny).clone();
                one(format!("push {t}, {a}"))
            }
            14 if !self.labels.is_empty() => {
                let l = self.rng.pick(&self.labels).clone();
                if self.rng.chance(50) {
                    one(format!("push big, {l}"))
                } else {
                    one(format!("mov big, code({l})"))
                }
            }
            15 | 16 if !self.macros.is_empty() => {
                let (name, kind) = self.rng.pick(&self.macros).clone();
                let k = self.rng.below(8);
                match kind {
                    MacroKind::GuardPush => one(format!("{name} {a}, {b}")).with_bound(2),
                    MacroKind::Choose => one(format!("{name} {a}, {k}")),
                    MacroKind::Countdown => one(format!("{name} {a}, {k}")).with_bound(k),
                    MacroKind::Both => one(format!("{name} {a}, {b}")).with_bound(4),
                }
            }
            17 | 18 if !forward.is_empty() => {
                let target = self.rng.pick(forward).clone();
                let jump = self.rng.pick(&["jnil", "jcons"]);
                one(format!("{jump} {a}, {target}")).with_bound(2)
            }
            19 | 20 if !self.routines.is_empty() => {
                let r = self.rng.pick(&self.routines).clone();
                if so_far + r.bound > MAX_BOUND / 4 {
                    return one(format!("push {a}, {b}"));
                }
                (r.call.lines().map(String::from).collect(), r.bound)
            }
            21 if depth < 2 => self.counted_loop(depth, so_far),
            22 if self.piece.is_some() => (
                vec!["    include \"piece.cta\"".into()],
                self.piece.unwrap_or(0),
            ),
            23 => one(format!("mov {a}, #({} + K0)", self.rng.below(9))),
            // The main file's registers are numbered first, in order:
            // d0 is register 3 (docs/language.md, "Registers").
            25 => {
                let k = self.rng.below(3);
                let j = (k + 1) % 3;
                one(format!(
                    "push @{}, @({} + 0) ; d{k} := Cons d{j} d{k}",
                    3 + k,
                    3 + j
                ))
            }
            24 if self.sized => one(format!("push {a}, sized")),
            // The image of another program, as a value and in a command
            // (in `big`, which has room for code).
            24 if self.child => {
                if self.rng.chance(50) {
                    one("mov big, image(\"child/main.cta\")".into())
                } else {
                    one(format!(
                        "push big, Build [{}] image(\"child/main.cta\")",
                        self.rng.below(3)
                    ))
                }
            }
            _ => one(format!("push {a}, #{}", self.rng.below(5))),
        }
    }

    /// A loop run 0 to 3 times, counted by a list register.
    fn counted_loop(&mut self, depth: u32, so_far: u64) -> (Vec<String>, u64) {
        let counter = self.fresh("count");
        self.counters.push(format!("reg {counter}"));
        let times = self.rng.range(0, 3);
        let top = self.fresh(".loop");
        let done = self.fresh(".done");
        let (body, b) = self.ops((1, 3), &[], depth + 1);
        let bound = 1 + (times + 1) + times * (2 + b);
        if so_far + bound > MAX_BOUND / 4 {
            return (vec![format!("    clear {counter}")], 1);
        }
        let zeros = vec!["0"; times as usize].join(", ");
        let mut lines = vec![
            format!("    load {counter}, [{zeros}]"),
            format!("{top}:"),
            format!("    jnil {counter}, {done}"),
            format!("    pop {counter}, scratch"),
        ];
        lines.extend(body);
        lines.push(format!("    jmp {top}"));
        lines.push(format!("{done}:"));
        (lines, bound)
    }
}

trait WithBound {
    fn with_bound(self, bound: u64) -> Self;
}

impl WithBound for (Vec<String>, u64) {
    fn with_bound(self, bound: u64) -> Self {
        (self.0, bound)
    }
}

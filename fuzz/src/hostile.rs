//! Structure-aware generators of hostile assembler inputs: long operator
//! chains, deep nesting, constants defined through each other, macros whose
//! argument doubles, files that include or embed others many times over.
//! Small texts that ask for a great deal of work, which byte-level fuzzing
//! rarely finds. Plain functions of sizes (and, for [`random_program`], of a
//! seed), shared by the fuzz targets and by `tests/hostile_asm.rs`.

/// Files of a generated program: `(path, text)`, the main file first.
pub type Files = Vec<(String, String)>;

/// `1 + 1 + ... + 1` with `terms` terms.
pub fn plus_chain(terms: usize) -> String {
    vec!["1"; terms.max(1)].join(" + ")
}

/// `- - ... - 1` with `count` minus signs.
pub fn neg_chain(count: usize) -> String {
    format!("{}1", "- ".repeat(count))
}

/// `not not ... not 0` with `count` `not`s.
pub fn not_chain(count: usize) -> String {
    format!("{}0", "not ".repeat(count))
}

/// `((( ... 1 ... )))`, `depth` parentheses deep.
pub fn paren_nest(depth: usize) -> String {
    format!("{}1{}", "(".repeat(depth), ")".repeat(depth))
}

/// A program whose register `r` holds `value`.
pub fn program_with(value: &str) -> String {
    format!("use std/control\nreg r = {value}\nmain:\n    halt\n")
}

/// `count` constants, each defined by the one before (`wrap` turns the
/// previous name into the next value: `"{}"` for a plain copy, `"[{}]"` to
/// nest a list one level deeper each time), and a register holding the
/// last.
pub fn const_chain(count: usize, wrap: &str) -> String {
    let mut text = String::from("use std/control\nconst c0 = 1\n");
    for k in 1..count.max(1) {
        let previous = format!("c{}", k - 1);
        text.push_str(&format!("const c{k} = {}\n", wrap.replace("{}", &previous)));
    }
    text.push_str(&format!("reg r = c{}\nmain:\n    halt\n", count.max(1) - 1));
    text
}

/// A macro that passes its argument on doubled, `levels` times: `m 22`.
pub fn doubling_macro(levels: usize) -> String {
    format!(
        "use std/control\nmacro m n, x\nif n > 0\nm n - 1, (x, x)\nelse\nreg r = x\nend\nend\nm {levels}, 1\nmain:\n    halt\n"
    )
}

/// A macro that invokes itself twice per level, `levels` levels: 2^levels
/// invocations.
pub fn branching_macro(levels: usize) -> String {
    format!(
        "use std/control\nmacro m n\nif n > 0\nm n - 1\nm n - 1\nend\nend\nm {levels}\nmain:\n    halt\n"
    )
}

/// `main.cta` and files `f1.cta` ... `fN.cta`, each including the next
/// twice (2^depth inclusions of the last).
pub fn include_fanout(depth: usize) -> Files {
    let mut files = vec![(
        "main.cta".to_string(),
        "use std/control\ninclude \"f1.cta\"\nmain:\n    halt\n".to_string(),
    )];
    for k in 1..=depth {
        let text = if k == depth {
            "; the last file\n".to_string()
        } else {
            format!("include \"f{0}.cta\"\ninclude \"f{0}.cta\"\n", k + 1)
        };
        files.push((format!("f{k}.cta"), text));
    }
    files
}

/// `main.cta` and programs `p1.cta` ... `pN.cta`, each embedding the next
/// with `image(...)` (`copies` times: 1 for a chain, 2 to double per level).
pub fn image_nest(depth: usize, copies: usize) -> Files {
    let embeds = |k: usize| {
        (0..copies)
            .map(|c| format!("reg i{c} auto = image(\"p{k}.cta\")\n"))
            .collect::<String>()
    };
    let mut files = vec![(
        "main.cta".to_string(),
        format!("use std/control\n{}main:\n    halt\n", embeds(1)),
    )];
    for k in 1..=depth {
        let body = if k == depth {
            String::new()
        } else {
            embeds(k + 1)
        };
        files.push((
            format!("p{k}.cta"),
            format!("use std/control\n{body}main:\n    halt\n"),
        ));
    }
    files
}

/// `count` register declarations and a program that halts.
pub fn many_registers(count: usize) -> String {
    let mut text = String::from("use std/control\n");
    for k in 0..count {
        text.push_str(&format!("reg r{k}\n"));
    }
    text.push_str("main:\n    halt\n");
    text
}

/// `count` routines, each calling the next (a chain of calls as deep as
/// the program is long), from a main that calls the first.
pub fn call_chain(count: usize) -> String {
    let mut text =
        String::from("use std/control\nresize stack 1000000000\nmain:\n    call f0\n    halt\n");
    for k in 0..count {
        text.push_str(&format!("f{k}:\n"));
        if k + 1 < count {
            text.push_str(&format!("    call f{}\n", k + 1));
        }
        text.push_str("    ret\n");
    }
    text
}

/// A small deterministic generator (xorshift), so that a seed names a
/// program.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next number below `bound` (at least 1).
    pub fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound.max(1)
    }
}

/// A random expression of about `budget` tokens, mixing long chains,
/// prefixes and nesting.
pub fn random_expr(rng: &mut Rng, budget: usize) -> String {
    let mut out = String::new();
    let mut left = budget;
    while left > 0 {
        left -= 1;
        match rng.below(10) {
            0..=2 => out.push_str("- "),
            3 => out.push_str("not "),
            4 | 5 => out.push('('),
            6 => out.push_str("[1, "),
            _ => {
                out.push('1');
                out.push_str(if rng.below(2) == 0 { " + " } else { " * " });
            }
        }
    }
    out.push('1');
    // Close the lists and parentheses, innermost first.
    let closers: String = out
        .chars()
        .rev()
        .filter_map(|c| match c {
            '(' => Some(')'),
            '[' => Some(']'),
            _ => None,
        })
        .collect();
    out.push_str(&closers);
    out
}

/// A random hostile program of one of the shapes above, at a random size
/// up to about `scale` (the shape and size follow from the seed).
pub fn random_program(seed: u64, scale: usize) -> Files {
    let mut rng = Rng::new(seed);
    let size = 1 + rng.below(scale as u64) as usize;
    let main = |text: String| vec![("main.cta".to_string(), text)];
    match rng.below(10) {
        0 => main(program_with(&plus_chain(size))),
        1 => main(program_with(&neg_chain(size))),
        2 => main(program_with(&not_chain(size))),
        3 => main(program_with(&paren_nest(size % 400))),
        4 => main(const_chain(
            size,
            if rng.below(2) == 0 { "{}" } else { "[{}]" },
        )),
        5 => main(doubling_macro(size % 40)),
        6 => main(branching_macro(size % 30)),
        7 => include_fanout(1 + size % 40),
        8 => image_nest(1 + size % 60, 1 + rng.below(2) as usize),
        9 if rng.below(2) == 0 => main(call_chain(size)),
        _ => main(program_with(&random_expr(&mut rng, size))),
    }
}

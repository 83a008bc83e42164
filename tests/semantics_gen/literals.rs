//! Random values written in every literal form of `docs/language.md`
//! ("Values and literals"), and a small random number generator.

/// SplitMix64: a seeded, reproducible source of random numbers.
pub struct Rng(u64);

impl Rng {
    /// A generator for one seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent`%.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One of the items.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const DIRECTIONS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const COLOURS: [&str; 8] = [
    "Red", "Orange", "Yellow", "Green", "Blue", "Violet", "Black", "White",
];

/// Writes random values; `registers` are register names (for instructions
/// as data and `index(...)`), `consts` numeric constants.
pub struct Literals<'a> {
    /// Declared register names.
    pub registers: &'a [String],
    /// Constants holding numbers.
    pub consts: &'a [String],
}

impl Literals<'_> {
    /// A number, in one of the forms of a number literal or a small
    /// expression.
    pub fn int(&self, rng: &mut Rng) -> String {
        let n = rng.below(300) as i64 - 100;
        match rng.below(9) {
            0 => format!("0x{:x}", n.unsigned_abs()),
            1 => format!("0b{:b}", n.unsigned_abs()),
            2 => format!("1_{:03}", n.unsigned_abs() % 1000),
            3 if !self.consts.is_empty() => format!("({} + {n})", rng.pick(self.consts)),
            4 => format!("({} * 3 - {})", n, rng.below(50)),
            5 => format!("({} << {} >> 1)", n, rng.below(5)),
            6 => format!("({} / 7 + {} % 5)", n, n),
            7 => format!("-0x{:x}", n.unsigned_abs()),
            _ => n.to_string(),
        }
    }

    fn small(&self, rng: &mut Rng) -> u64 {
        rng.below(8)
    }

    /// A random value in any literal form, at most `depth` levels nested.
    pub fn value(&self, rng: &mut Rng, depth: u32) -> String {
        let nested = |rng: &mut Rng| {
            if depth == 0 {
                self.int(rng)
            } else {
                self.value(rng, depth - 1)
            }
        };
        match rng.below(38) {
            0..=3 => self.int(rng),
            4 => rng.pick(&["true", "false"]).to_string(),
            5 => rng.pick(&["nil", "[]", "()"]).to_string(),
            6 | 7 => {
                let n = rng.below(4);
                let items: Vec<String> = (0..n).map(|_| nested(rng)).collect();
                match rng.below(3) {
                    0 if n > 0 => format!("[{} | {}]", items.join(", "), nested(rng)),
                    1 if n > 0 => format!("[{},]", items.join(", ")),
                    _ => format!("[{}]", items.join(", ")),
                }
            }
            8 => format!("({}, {})", nested(rng), nested(rng)),
            9 => format!("({}, {}, {})", nested(rng), nested(rng), nested(rng)),
            10 => "none".into(),
            11 => format!("some ({})", nested(rng)),
            12 => format!("cons({}, {})", nested(rng), nested(rng)),
            13 => format!("bits(\"{}\")", bits(rng, 6)),
            14 => rng
                .pick(&["[[], [[]]]", "[[[]], [], [[], []]]", "[[]]"])
                .to_string(),
            15 => rng.pick(&DIRECTIONS).to_string(),
            16 => rng.pick(&COLOURS).to_string(),
            17 => format!("Move {}", rng.pick(&DIRECTIONS)),
            18 => format!(
                "{} {}",
                rng.pick(&["Lift", "Drop", "Inspect", "Destroy"]),
                self.small(rng)
            ),
            19 => "Pass".into(),
            20 => format!(
                "Build [{}, {}] [Register {} nil, Register 3 [1]]",
                self.small(rng),
                self.small(rng),
                rng.range(1, 9)
            ),
            21 => format!("Frame {} {}", rng.pick(&COLOURS), rng.below(200)),
            22 => format!("Processor {}", rng.below(20)),
            23 => format!("Register {} [{}]", rng.range(1, 50), self.int(rng)),
            24 => format!("Cargo {} {}", self.small(rng), rng.below(30)),
            25 => "Shield".into(),
            26 => rng
                .pick(&[
                    "FramePart (Frame Blue 5)",
                    "ProcessorPart (Processor 2)",
                    "RegisterPart (Register 4 [1])",
                ])
                .to_string(),
            27 => format!("Nilify {}", self.register_number(rng)),
            28 => format!(
                "{} {} {} {}",
                rng.pick(&["Construct", "Deconstruct", "CopyIfNil"]),
                self.register_number(rng),
                self.register_number(rng),
                self.register_number(rng)
            ),
            29 if !self.registers.is_empty() => {
                format!("index({})", rng.pick(self.registers))
            }
            30 => rng.pick(&["Passed", "Invalid", "Created"]).to_string(),
            31 => format!(
                "{} {}",
                rng.pick(&["MovedIn", "MovedOut", "MoveBlocked"]),
                rng.pick(&DIRECTIONS)
            ),
            32 => format!(
                "{} {}",
                rng.pick(&[
                    "Lifted",
                    "CannotFit",
                    "GrappledOver",
                    "InspectBlocked",
                    "Destroyed"
                ]),
                self.small(rng)
            ),
            33 => format!(
                "Robot (Frame {} 10) [Shield, Cargo 1 2]",
                rng.pick(&COLOURS)
            ),
            34 => format!("size([{}, {}])", self.int(rng), self.int(rng)),
            35 => "Dropped Shield".into(),
            36 => format!("Inspected {} (Robot (Frame Red 1) [])", self.small(rng)),
            _ => format!("[{}, {}]", nested(rng), nested(rng)),
        }
    }

    /// A register name, or a small number, as instructions written as data
    /// take them.
    fn register_number(&self, rng: &mut Rng) -> String {
        if !self.registers.is_empty() && rng.chance(50) {
            rng.pick(self.registers).clone()
        } else {
            rng.below(12).to_string()
        }
    }
}

/// The preorder bits of a random tree of at most `budget` conses.
fn bits(rng: &mut Rng, budget: u32) -> String {
    let mut out = String::new();
    let mut pending = 1u32;
    let mut left = budget;
    while pending > 0 {
        pending -= 1;
        if left > 0 && rng.chance(55) {
            left -= 1;
            out.push('1');
            pending += 2;
        } else {
            out.push('0');
        }
    }
    out
}

//! Adversarial trees: a register doubled every tick up to 2^40 logical
//! conses out of a few dozen real nodes. Everything constree does with it
//! (size, equality, trimming into an input register, decoding, the
//! debugger's views, replays, JSON output) works on the distinct nodes, not
//! the logical size; a time guard catches anything that does not.

mod cli_common;

use cli_common::{constree, text};
use constree::asm::source::MemoryLoader;
use constree::debugger::view::{self, Format, ViewContext};
use constree::encoding::Decode;
use constree::machine::{Instruction, run_for, trim};
use constree::scenario::replay::Replay;
use constree::tree::Tree;
use constree::world::{Color, Command, Frame, Processor, Robot, Shape, Square, World};
use std::path::Path;
use std::time::{Duration, Instant};

const DOUBLINGS: usize = 40;

/// A program that doubles register `a` every tick.
fn doubler() -> String {
    let mut source = String::from("reg a 9223372036854775807 = [1]\nmain:\n");
    for _ in 0..DOUBLINGS {
        source.push_str("    construct a, a, a\n");
    }
    source.push_str("    nilify prog\n");
    source
}

/// The same tree built independently, in Rust.
fn twin() -> Tree {
    let one = Tree::cons(Tree::cons(Tree::unit(), Tree::NIL), Tree::NIL);
    (0..DOUBLINGS).fold(one, |t, _| Tree::cons(t.clone(), t))
}

/// Runs `f` and fails if it takes longer than a generous guard.
fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{what} took {:?}: it must not depend on the logical size",
        start.elapsed()
    );
    value
}

fn doubled_memory() -> constree::machine::Memory {
    let loader = MemoryLoader::default().with("doubler.cta", &doubler());
    let assembly = constree::asm::assemble_file(&loader, Path::new("doubler.cta"));
    let image = assembly.image.expect("assembles");
    let mut memory = image.memory();
    let report = run_for(1000, &mut memory).unwrap();
    assert!(report.halted);
    memory
}

#[test]
fn a_doubled_register_costs_its_distinct_nodes() {
    let memory = doubled_memory();
    let a = &memory[3].contents;
    // [1] is 3 conses; doubling makes s -> 2s + 1.
    let expected = 4 * (1u64 << DOUBLINGS) - 1;
    assert_eq!(twin().size(), expected);
    assert_eq!(quickly("size", || a.size()), expected);
    assert!(a.size() > 1 << 40);
    let b = twin();
    assert!(!a.ptr_eq(&b));
    assert!(quickly("equality with a twin", || a == &b));
    let different = Tree::cons(b.clone(), Tree::NIL);
    assert!(quickly("inequality", || a != &different));
    // Trimmed into an input register of 4096 conses (as the engine trims
    // inputs: from the right, elements that do not fit are dropped).
    let trimmed = quickly("trim", || trim(4096, a));
    assert!(trimmed.size() <= 4096, "{}", trimmed.size());
    let list = Tree::list([Tree::unit(), a.clone(), Tree::unit()]);
    let trimmed = quickly("trim of a list", || trim(4096, &list));
    assert!(
        trimmed.size() <= 4096 && trimmed.size() > 0,
        "{}",
        trimmed.size()
    );
    // Decoded as an instruction, a command, an int: answers, quickly.
    quickly("decoding", || {
        let _ = Instruction::decode(a);
        let _ = Command::decode(a);
        let _ = i64::decode(a);
    });
    // The debugger's views are bounded.
    let names: Vec<String> = (0..memory.len()).map(|i| format!("r{i}")).collect();
    let ctx = ViewContext {
        image: None,
        register_names: &names,
        input_limit: Some(4096),
    };
    for format in Format::NAMES.map(|n| Format::parse(n).unwrap()) {
        let shown = quickly("print", || view::show(a, format, &ctx));
        if let Ok(text) = shown {
            assert!(text.len() < 200_000, "{format}: {} bytes", text.len());
        }
    }
}

#[test]
fn a_replay_stores_shared_nodes_once() {
    let memory = doubled_memory();
    let robot = Robot {
        frame: Frame {
            color: Color::Red,
            strength: 10,
        },
        inventory: Vec::new(),
        processor: Processor { speed: 10 },
        memory,
    };
    let cells = vec![Some(Square {
        robots: vec![robot],
        items: Vec::new(),
    })];
    let world = World::new(Shape::new((1, 1), true).unwrap(), cells).unwrap();
    let replay = Replay {
        name: "doubled".into(),
        scenario: String::new(),
        images: Vec::new(),
        worlds: vec![world.clone(), world],
    };
    let json = quickly("a replay", || replay.to_json());
    assert!(json.len() < 20_000, "{} bytes", json.len());
    let back = quickly("reading it back", || Replay::from_json(&json).unwrap());
    assert_eq!(back, replay);
}

#[test]
fn json_output_of_a_doubled_register_is_refused_clearly() {
    let memory = doubled_memory();
    // The memory before the run, as `machine run` reads it: the program
    // doubles the register when run.
    let loader = MemoryLoader::default().with("doubler.cta", &doubler());
    let image = constree::asm::assemble_file(&loader, Path::new("doubler.cta"))
        .image
        .unwrap();
    let input = serde_json::json!({ "speed": 1000, "memory": image.memory() }).to_string();
    drop(memory);
    let out = quickly("machine run", || constree(&["machine", "run", "-"], &input));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing is printed");
    let err = text(&out.stderr);
    assert!(
        err.contains("the result cannot be printed: a tree of")
            && err.contains("over the limit of 67108864")
            && err.contains("CONSTREE_MAX_TEXT"),
        "{err}"
    );
}

/// Two hostile robots in one square: each doubles a register to 2^42
/// conses, then inspects the other every step, so the engine encodes the
/// other's memory into its input and trims it into the input register.
#[test]
fn hostile_robots_finish_in_bounded_time_and_space() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut program =
        String::from("use std/control\nreg out = Pass\nreg a 9223372036854775807 = [1]\nmain:\n");
    for _ in 0..DOUBLINGS {
        program.push_str("    construct a, a, a\n");
    }
    program.push_str("loop:\n    emit Inspect 0\n    emit Inspect 1\n    jmp loop\n");
    std::fs::write(dir.join("hostile.cta"), program).unwrap();
    std::fs::write(
        dir.join("game.toml"),
        "steps = 30\n[world]\nsize = [2, 2]\n[[robot]]\nname = \"a\"\nat = [0, 0]\nspeed = 200\nprogram = \"hostile.cta\"\n[[robot]]\nname = \"b\"\nat = [0, 0]\ncolor = \"Blue\"\nspeed = 200\nprogram = \"hostile.cta\"\n",
    )
    .unwrap();
    let game = dir.join("game.toml");
    let record = dir.join("game.json");
    let game = game.to_str().unwrap();
    let out = quickly("30 hostile steps", || {
        constree(&["run", game, "--record", record.to_str().unwrap()], "")
    });
    assert!(out.status.success(), "{}", text(&out.stderr));
    let size = std::fs::metadata(&record).unwrap().len();
    assert!(size < 200_000, "the replay is {size} bytes");
    // The JSON world would be terabytes of preorder text: refused clearly.
    let out = quickly("json", || constree(&["run", game, "--format", "json"], ""));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot be printed"));
    assert!(out.stdout.is_empty());
}

//! Adversarial trees: a register doubled every tick up to 2^40 logical
//! conses out of a few dozen real nodes. Everything constree does with it
//! (size, equality, trimming into an input register, decoding, the
//! debugger's views, replays, JSON output) works on the distinct nodes, not
//! the logical size: the tests count the tree nodes each operation builds
//! (`tree::nodes_built`) and its other heap allocations (a counting global
//! allocator), and a time guard catches a hang.

mod cli_common;

use cli_common::{constree, scratch_dir, text};
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

/// Counts this thread's heap allocations, so that a test can assert how
/// many nodes (and other buffers) an operation allocates.
struct Counting;

thread_local! {
    static ALLOCATED: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

// SAFETY: every call goes to the system allocator unchanged; the counter
// is a thread-local cell without a destructor.
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let _ = ALLOCATED.try_with(|c| {
            let (n, bytes) = c.get();
            c.set((n + 1, bytes + layout.size() as u64));
        });
        // SAFETY: the caller's layout goes to the system allocator as is.
        unsafe { std::alloc::System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from `alloc` above, that is from `System`.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Runs `f`; gives its result and what it allocated on this thread: tree
/// nodes, other heap blocks and their bytes.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, [u64; 3]) {
    let before = (
        constree::tree::nodes_built(),
        ALLOCATED.with(std::cell::Cell::get),
    );
    let value = f();
    let after = (
        constree::tree::nodes_built(),
        ALLOCATED.with(std::cell::Cell::get),
    );
    let counts = [
        after.0 - before.0,
        after.1.0 - before.1.0,
        after.1.1 - before.1.1,
    ];
    (value, counts)
}

/// Runs `f` under the time guard and fails if it builds more than `nodes`
/// tree nodes or makes more than `blocks` other allocations: the work
/// must follow the distinct nodes (a few dozen here), never the logical
/// size (2^42 conses).
fn bounded<T>(what: &str, nodes: u64, blocks: u64, f: impl FnOnce() -> T) -> T {
    let (value, [built, count, bytes]) = quickly(what, || allocations(f));
    assert!(
        built <= nodes && count <= blocks,
        "{what}: {built} nodes and {count} other allocations ({bytes} bytes); at most {nodes} and {blocks}"
    );
    value
}

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

/// A one-square world whose robot holds the doubled register.
fn doubled_world() -> World {
    let robot = Robot {
        frame: Frame {
            color: Color::Red,
            strength: 10,
        },
        inventory: Vec::new(),
        processor: Processor { speed: 10 },
        memory: doubled_memory(),
    };
    let cells = vec![Some(Square {
        robots: vec![robot],
        items: Vec::new(),
    })];
    World::new(Shape::new((1, 1), true).unwrap(), cells).unwrap()
}

#[test]
fn a_doubled_register_costs_its_distinct_nodes() {
    let memory = doubled_memory();
    let a = &memory[3].contents;
    // [1] is 3 conses; doubling makes s -> 2s + 1.
    let expected = 4 * (1u64 << DOUBLINGS) - 1;
    assert_eq!(twin().size(), expected);
    assert_eq!(bounded("size", 0, 0, || a.size()), expected);
    assert!(a.size() > 1 << 40);
    let b = bounded("building the twin", DOUBLINGS as u64 + 3, 0, twin);
    assert!(!a.ptr_eq(&b));
    assert!(bounded("equality with a twin", 0, 64, || a == &b));
    let different = Tree::cons(b.clone(), Tree::NIL);
    assert!(bounded("inequality", 0, 64, || a != &different));
    // Trimmed into an input register of 4096 conses (as the engine trims
    // inputs: from the right, elements that do not fit are dropped).
    let trimmed = bounded("trim", 64, 64, || trim(4096, a));
    assert!(trimmed.size() <= 4096, "{}", trimmed.size());
    let list = Tree::list([Tree::unit(), a.clone(), Tree::unit()]);
    let trimmed = bounded("trim of a list", 64, 64, || trim(4096, &list));
    assert!(
        trimmed.size() <= 4096 && trimmed.size() > 0,
        "{}",
        trimmed.size()
    );
    // Decoded as an instruction, a command, an int: answers, quickly.
    bounded("decoding", 0, 64, || {
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
        let shown = bounded("print", 10_000, 20_000, || view::show(a, format, &ctx));
        if let Ok(text) = shown {
            assert!(text.len() < 200_000, "{format}: {} bytes", text.len());
        }
    }
}

#[test]
fn a_replay_stores_shared_nodes_once() {
    let world = doubled_world();
    let mut replay = Replay::new("doubled".into(), String::new(), Vec::new());
    replay.push(&world);
    replay.push(&world);
    let json = bounded("a replay", 0, 5_000, || replay.to_json());
    assert!(json.len() < 20_000, "{} bytes", json.len());
    let back = bounded("reading it back", 500, 5_000, || {
        Replay::from_json(&json).unwrap()
    });
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
            && err.contains("--shared")
            && err.contains("CONSTREE_MAX_TEXT"),
        "{err}"
    );
    // The shared form prints it: each distinct node once.
    let out = quickly("machine run --shared", || {
        constree(&["machine", "run", "-", "--shared"], &input)
    });
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.len() < 20_000, "{} bytes", out.stdout.len());
    let shared: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shared["format"], "constree-shared");
    let nodes: Vec<(u64, u64)> = serde_json::from_value(shared["nodes"].clone()).unwrap();
    let trees = constree::tree::trees_from_nodes(&nodes).unwrap();
    let a = shared["value"]["ok"][3]["contents"]
        .as_u64()
        .expect("a node number");
    assert_eq!(trees[a as usize], twin());
}

#[test]
fn worlds_go_round_in_the_shared_form() {
    // A world whose robot holds the doubled register, stepped by
    // `world step --shared`, read back by `world step` in the shared form.
    let world = doubled_world();
    let (plain, nodes) = constree::tree::write_shared(|| serde_json::to_value(&world).unwrap());
    let input = serde_json::json!({"format": "constree-shared", "version": 1, "nodes": nodes, "value": plain})
        .to_string();
    let once = quickly("world step --shared", || {
        constree(&["world", "step", "-", "--shared"], &input)
    });
    assert!(once.status.success(), "{}", text(&once.stderr));
    let twice = quickly("world step of the shared form", || {
        constree(&["world", "step", "-", "--shared"], &text(&once.stdout))
    });
    assert!(twice.status.success(), "{}", text(&twice.stderr));
    let shared: serde_json::Value = serde_json::from_slice(&twice.stdout).unwrap();
    let nodes: Vec<(u64, u64)> = serde_json::from_value(shared["nodes"].clone()).unwrap();
    let stepped: World = constree::tree::read_shared(&nodes, || {
        serde_json::from_value(shared["value"].clone()).unwrap()
    })
    .unwrap();
    let expected = constree::world::update(constree::world::update(world));
    assert_eq!(stepped, expected);
    // Without --shared the same world is refused, clearly.
    let plain = constree(&["world", "step", "-"], &input);
    assert_eq!(plain.status.code(), Some(1));
    assert!(text(&plain.stderr).contains("--shared"));
    // A node table that refers forward, or a number past its end, is an
    // error that says so.
    for (nodes, what) in [
        ("[[2, 0], [0, 0]]", "not before it"),
        ("[]", "not in the node table"),
    ] {
        let bad = input.replacen(
            &format!(
                "\"nodes\":{}",
                serde_json::to_string(&shared_nodes(&input)).unwrap()
            ),
            &format!("\"nodes\":{nodes}"),
            1,
        );
        let out = constree(&["world", "step", "-"], &bad);
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stderr).contains(what), "{}", text(&out.stderr));
    }
}

fn shared_nodes(document: &str) -> serde_json::Value {
    serde_json::from_str::<serde_json::Value>(document).unwrap()["nodes"].clone()
}

/// Two hostile robots in one square: each doubles a register to 2^42
/// conses, then inspects the other every step, so the engine encodes the
/// other's memory into its input and trims it into the input register.
#[test]
fn hostile_robots_finish_in_bounded_time_and_space() {
    let dir = scratch_dir("hostile");
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

/// The storm's programs: a robot of generation k builds a robot of
/// generation k + 1 from the first `parts` items of its square, moves east,
/// and again; the last generation only moves.
fn storm_sources(parts: usize) -> MemoryLoader {
    let indices: Vec<String> = (0..parts).map(|i| i.to_string()).collect();
    let mut loader = MemoryLoader::default();
    for k in 1..=3 {
        let build = if k == 3 {
            String::new()
        } else {
            format!(
                "reg kid = Build [{}] image(\"storm{}.cta\")\n",
                indices.join(", "),
                k + 1
            )
        };
        let emit = if k == 3 { "" } else { "    emit kid\n" };
        loader = loader.with(
            &format!("storm{k}.cta"),
            &format!(
                "use std/control\nreg in 64\nreg out 1000\n{build}main:\n{emit}    emit Move E\n    jmp main\n"
            ),
        );
    }
    loader
}

#[test]
fn a_build_storm_costs_what_its_robots_do() {
    // A 5 x 5 torus; on every square a robot of the first generation and
    // twelve kits. Every robot
    // that can builds a child every step, and children build too: the
    // squares fill with robots until the kits run out.
    // A kit: a frame, a processor, a register part for every register of
    // the children (which the length of their Build command does not change).
    let registers = constree::scenario::load_program(&storm_sources(0), Path::new("storm2.cta"))
        .unwrap()
        .registers
        .len();
    let loader = storm_sources(registers + 2);
    let programs = |p: &str| constree::scenario::load_program(&loader, Path::new(p));
    let mut toml = String::from("name = \"Storm\"\nsteps = 20\n[world]\nsize = [5, 5]\n");
    for cell in 0..25 {
        let at = format!("[{}, {}]", cell % 5, cell / 5);
        for _ in 0..12 {
            for item in [
                "frame = { color = \"Red\", strength = 10 }",
                "processor = 100",
                &format!("register = 1000\ncount = {registers}"),
            ] {
                toml.push_str(&format!("[[item]]\nat = {at}\n{item}\n"));
            }
        }
        toml.push_str(&format!(
            "[[robot]]\nat = {at}\nspeed = 100\nprogram = \"storm1.cta\"\n"
        ));
    }
    let scenario = constree::scenario::Scenario::from_text("storm.toml", &toml, &programs)
        .unwrap_or_else(|e| panic!("{e}"));
    let frames = 25 * 12;
    let (mut world, _) = scenario.world(0);
    let mut ticks = 0u64;
    let mut robot_steps = 0u64;
    let (_, [built, _, _]) = quickly("the storm", || {
        allocations(|| {
            for _ in 0..scenario.steps {
                let (next, report) = constree::world::update_reported(world.clone());
                world = next;
                for steps in &report.cells {
                    for s in steps {
                        robot_steps += 1;
                        let run = s.run.as_ref().expect("no machine fails");
                        assert!(run.ticks <= 100, "a machine runs at most its speed");
                        ticks += run.ticks;
                    }
                }
            }
        })
    });
    let robots: usize = world.cells.iter().flatten().map(|sq| sq.robots.len()).sum();
    assert!(robots > 25 * 4, "the storm grew: {robots} robots");
    assert!(
        robots <= 25 + frames,
        "{robots} robots from {frames} frames"
    );
    // These programs build no trees; a robot's step builds its input
    // (trimmed to its 64-cons register; about 62 nodes measured) and a
    // child is made of trees that exist already: the nodes follow the
    // robots' steps, never the robots squared or the logical sizes.
    assert!(
        built <= robot_steps * 100,
        "{built} nodes for {robot_steps} robot steps ({ticks} ticks)"
    );
}

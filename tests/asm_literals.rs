//! Literals of every type the report encodes: a value written as a literal
//! and assembled gives exactly the engine's encoding of the value (and, for
//! types the report can decode, decodes back to the value).

mod strategies;

use constree::asm::assemble;
use constree::asm::source::{MemoryLoader, SourceFile};
use constree::encoding::{Decode, Encode};
use constree::machine::{Instruction, Register};
use constree::tree::Tree;
use constree::world::{Action, Color, Command, Direction, Frame, Item, Processor, Robot};
use proptest::prelude::*;

fn int(n: i64) -> String {
    if n < 0 {
        format!("({n})")
    } else {
        n.to_string()
    }
}

fn tree_literal(t: &Tree) -> String {
    if t.size().is_multiple_of(2) {
        t.readable().to_string()
    } else {
        format!("bits(\"{}\")", t.to_bits())
    }
}

fn register(r: &Register) -> String {
    format!("(Register {} {})", int(r.limit), tree_literal(&r.contents))
}

fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    format!("[{}]", items.iter().map(f).collect::<Vec<_>>().join(", "))
}

fn direction(d: Direction) -> String {
    d.name().to_string()
}

fn color(c: Color) -> String {
    format!("{c:?}")
}

fn frame(f: &Frame) -> String {
    format!("(Frame {} {})", color(f.color), int(f.strength))
}

fn instruction(i: &Instruction) -> String {
    match *i {
        Instruction::Nilify(a) => format!("(Nilify {})", int(a)),
        Instruction::Construct(a, b, c) => format!("(Construct {} {} {})", int(a), int(b), int(c)),
        Instruction::Deconstruct(a, b, c) => {
            format!("(Deconstruct {} {} {})", int(a), int(b), int(c))
        }
        Instruction::CopyIfNil(a, b, c) => format!("(CopyIfNil {} {} {})", int(a), int(b), int(c)),
    }
}

fn command(c: &Command) -> String {
    match c {
        Command::Move(d) => format!("(Move {})", direction(*d)),
        Command::Lift(i) => format!("(Lift {})", int(*i)),
        Command::Drop(i) => format!("(Drop {})", int(*i)),
        Command::Inspect(i) => format!("(Inspect {})", int(*i)),
        Command::Destroy(i) => format!("(Destroy {})", int(*i)),
        Command::Build(is, m) => format!("(Build {} {})", list(is, |i| int(*i)), list(m, register)),
        Command::Pass => "Pass".into(),
    }
}

fn item(i: &Item) -> String {
    match i {
        Item::Cargo(t, w) => format!("(Cargo {} {})", int(*t), int(*w)),
        Item::ProcessorPart(p) => format!("(ProcessorPart (Processor {}))", int(p.speed)),
        Item::RegisterPart(r) => format!("(RegisterPart {})", register(r)),
        Item::FramePart(f) => format!("(FramePart {})", frame(f)),
        Item::Shield => "Shield".into(),
    }
}

fn robot(r: &Robot) -> String {
    format!("(Robot {} {})", frame(&r.frame), list(&r.inventory, item))
}

fn action(a: &Action) -> String {
    match a {
        Action::Created => "Created".into(),
        Action::Passed => "Passed".into(),
        Action::Invalid => "Invalid".into(),
        Action::MoveBlocked(d) => format!("(MoveBlocked {})", direction(*d)),
        Action::MovedOut(d) => format!("(MovedOut {})", direction(*d)),
        Action::MovedIn(d) => format!("(MovedIn {})", direction(*d)),
        Action::CannotFit(i) => format!("(CannotFit {})", int(*i)),
        Action::GrappledOver(i) => format!("(GrappledOver {})", int(*i)),
        Action::Lifted(i) => format!("(Lifted {})", int(*i)),
        Action::Dropped(x) => format!("(Dropped {})", item(x)),
        Action::InspectTargetFled(i) => format!("(InspectTargetFled {})", int(*i)),
        Action::InspectBlocked(i) => format!("(InspectBlocked {})", int(*i)),
        Action::Inspected(i, r) => format!("(Inspected {} {})", int(*i), robot(r)),
        Action::DestroyTargetFled(i) => format!("(DestroyTargetFled {})", int(*i)),
        Action::DestroyBlocked(i) => format!("(DestroyBlocked {})", int(*i)),
        Action::Destroyed(i) => format!("(Destroyed {})", int(*i)),
        Action::BuildInterrupted(is) => format!("(BuildInterrupted {})", list(is, |i| int(*i))),
        Action::Built(is, r) => format!("(Built {} {})", list(is, |i| int(*i)), robot(r)),
    }
}

/// The contents of register `v` after assembling `reg v auto = LITERAL`.
fn assembled(literal: &str) -> Tree {
    let source = format!("reg v auto = {literal}\n");
    let assembly = assemble(
        &MemoryLoader::default(),
        SourceFile::new("literal.cta".into(), None, source),
    );
    let image = assembly.image.unwrap_or_else(|| {
        panic!(
            "`{literal}` does not assemble:\n{}",
            assembly
                .diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    image.registers[image.register("v").unwrap()]
        .contents
        .clone()
}

fn small_tree() -> impl Strategy<Value = Tree> {
    strategies::tree(6, 40)
}

fn any_register() -> impl Strategy<Value = Register> {
    strategies::register(small_tree())
}

fn any_color() -> impl Strategy<Value = Color> {
    (0usize..8).prop_map(|i| Color::ALL[i])
}

fn any_frame() -> impl Strategy<Value = Frame> {
    (any_color(), any::<i64>()).prop_map(|(color, strength)| Frame { color, strength })
}

fn any_item() -> impl Strategy<Value = Item> {
    prop_oneof![
        (any::<i64>(), any::<i64>()).prop_map(|(t, w)| Item::Cargo(t, w)),
        any::<i64>().prop_map(|speed| Item::ProcessorPart(Processor { speed })),
        any_register().prop_map(Item::RegisterPart),
        any_frame().prop_map(Item::FramePart),
        Just(Item::Shield),
    ]
}

fn any_robot() -> impl Strategy<Value = Robot> {
    (any_frame(), prop::collection::vec(any_item(), 0..4)).prop_map(|(frame, inventory)| Robot {
        frame,
        inventory,
        processor: Processor { speed: 0 },
        memory: Vec::new(),
    })
}

fn any_command() -> impl Strategy<Value = Command> {
    strategies::command(0..4, prop::collection::vec(any_register(), 0..4))
}

fn any_action() -> impl Strategy<Value = Action> {
    let i = any::<i64>;
    let is = || prop::collection::vec(any::<i64>(), 0..4);
    prop_oneof![
        Just(Action::Created),
        Just(Action::Passed),
        Just(Action::Invalid),
        strategies::direction().prop_map(Action::MoveBlocked),
        strategies::direction().prop_map(Action::MovedOut),
        strategies::direction().prop_map(Action::MovedIn),
        i().prop_map(Action::CannotFit),
        i().prop_map(Action::GrappledOver),
        i().prop_map(Action::Lifted),
        any_item().prop_map(Action::Dropped),
        i().prop_map(Action::InspectTargetFled),
        i().prop_map(Action::InspectBlocked),
        (i(), any_robot()).prop_map(|(k, r)| Action::Inspected(k, r)),
        i().prop_map(Action::DestroyTargetFled),
        i().prop_map(Action::DestroyBlocked),
        i().prop_map(Action::Destroyed),
        is().prop_map(Action::BuildInterrupted),
        (is(), any_robot()).prop_map(|(k, r)| Action::Built(k, r)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ints(n in any::<i64>()) {
        prop_assert_eq!(i64::decode(&assembled(&int(n))), Some(n));
    }

    #[test]
    fn int_expressions(a in -1000i64..1000, b in 1i64..1000) {
        let t = assembled(&format!("{} * {} + {} / {} - {} % {}", int(a), int(b), int(a), int(b), int(a), int(b)));
        prop_assert_eq!(i64::decode(&t), Some(a * b + a / b - a % b));
    }

    #[test]
    fn bools_maybes_lists_tuples(b in any::<bool>(), n in any::<i64>(), v in prop::collection::vec(any::<i64>(), 0..6)) {
        prop_assert_eq!(bool::decode(&assembled(&b.to_string())), Some(b));
        prop_assert_eq!(Option::<i64>::decode(&assembled(&format!("some {}", int(n)))), Some(Some(n)));
        prop_assert_eq!(Option::<i64>::decode(&assembled("none")), Some(None));
        prop_assert_eq!(Vec::<i64>::decode(&assembled(&list(&v, |x| int(*x)))), Some(v.clone()));
        prop_assert_eq!(<(i64, bool)>::decode(&assembled(&format!("({}, {b})", int(n)))), Some((n, b)));
        prop_assert_eq!(<(i64, bool, Vec<i64>)>::decode(&assembled(&format!("({}, {b}, {})", int(n), list(&v, |x| int(*x))))), Some((n, b, v)));
    }

    #[test]
    fn raw_trees(t in small_tree()) {
        prop_assert_eq!(&assembled(&t.readable().to_string()), &t);
        prop_assert_eq!(&assembled(&format!("bits(\"{}\")", t.to_bits())), &t);
    }

    #[test]
    fn instructions(i in strategies::instruction()) {
        prop_assert_eq!(Instruction::decode(&assembled(&instruction(&i))), Some(i));
    }

    #[test]
    fn commands(c in any_command()) {
        prop_assert_eq!(Command::decode(&assembled(&command(&c))), Some(c));
    }

    #[test]
    fn directions(d in strategies::direction()) {
        prop_assert_eq!(Direction::decode(&assembled(&direction(d))), Some(d));
    }

    #[test]
    fn registers_and_memories(m in prop::collection::vec(any_register(), 0..4)) {
        prop_assert_eq!(Vec::<Register>::decode(&assembled(&list(&m, register))), Some(m));
    }

    #[test]
    fn items_frames_colors(i in any_item(), f in any_frame(), c in any_color()) {
        prop_assert_eq!(assembled(&item(&i)), i.encode());
        prop_assert_eq!(assembled(&frame(&f)), f.encode());
        prop_assert_eq!(assembled(&color(c)), c.encode());
    }

    #[test]
    fn actions(a in any_action()) {
        prop_assert_eq!(assembled(&action(&a)), a.encode());
    }

    #[test]
    fn robots(r in any_robot()) {
        prop_assert_eq!(assembled(&robot(&r)), r.encode());
    }
}

#[test]
fn the_smallest_int() {
    assert_eq!(
        i64::decode(&assembled("-9223372036854775808")),
        Some(i64::MIN)
    );
    assert_eq!(
        i64::decode(&assembled("0x7fff_ffff_ffff_ffff")),
        Some(i64::MAX)
    );
    assert_eq!(i64::decode(&assembled("0b101")), Some(5));
}

#[test]
fn an_embedded_program_is_a_memory() {
    let child = "reg out = Pass\nmain:\n    nilify out\n";
    let parent = "reg build auto = Build [0, 1, 2] (image \"child.cta\")\n";
    let loader = MemoryLoader::default().with("child.cta", child);
    let assembly = assemble(
        &loader,
        SourceFile::new(
            "parent.cta".into(),
            Some("parent.cta".into()),
            parent.into(),
        ),
    );
    let image = assembly.image.expect("assembles");
    let child_image = assemble(
        &loader,
        SourceFile::new("child.cta".into(), Some("child.cta".into()), child.into()),
    )
    .image
    .unwrap();
    let expected = Command::Build(vec![0, 1, 2], child_image.memory());
    assert_eq!(
        Command::decode(&image.registers[image.register("build").unwrap()].contents),
        Some(expected)
    );
}

/// A value of the kind each argument word of a usage text stands for.
fn example_argument(word: &str) -> &'static str {
    match word {
        "DIRECTION" => "N",
        "INDEX" | "TYPE" => "1",
        "WEIGHT" => "2",
        "STRENGTH" => "3",
        "SPEED" => "4",
        "LIMIT" => "5",
        "VALUE" => "7",
        "MEMORY" => "[]",
        "CONTENTS" | "FRONT" | "BACK" => "nil",
        "COLOUR" => "Red",
        "FRAME" => "(Frame Red 3)",
        "PROCESSOR" => "(Processor 4)",
        "REGISTER" => "(Register 5 nil)",
        "ITEM" => "Shield",
        "ROBOT" => "(Robot (Frame Red 3) [])",
        "R" | "A" | "B" | "C" => "0",
        "LABEL" => "main",
        "NAME" => "x",
        other => panic!("no example for the argument `{other}`: add one here"),
    }
}

/// A usage text with an example in place of each argument word (a word in
/// capitals); `[X, ...]` becomes `[X]`.
fn example_of(usage: &str) -> String {
    let usage = usage.replace(", ...]", "]");
    let mut out = String::new();
    let mut word = String::new();
    for c in usage.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() {
            word.push(c);
            continue;
        }
        if !word.is_empty() && word.chars().all(|c| c.is_ascii_uppercase()) {
            out.push_str(example_argument(&word));
        } else {
            out.push_str(&word);
        }
        word.clear();
        out.push(c);
    }
    out.trim_end().to_string()
}

/// The arguments a usage text shows: words after the name outside
/// brackets, or the items of a call's parentheses.
fn arguments_shown(usage: &str, name: &str) -> usize {
    let rest = &usage[name.len()..];
    if let Some(inner) = rest.strip_prefix('(') {
        return inner.trim_end_matches(')').split(", ").count();
    }
    let (mut count, mut depth, mut in_word) = (0, 0, false);
    for c in rest.chars() {
        match c {
            '[' | '(' => {
                if depth == 0 {
                    count += 1;
                }
                depth += 1;
            }
            ']' | ')' => depth -= 1,
            ' ' => in_word = false,
            _ if depth == 0 && !in_word => {
                in_word = true;
                count += 1;
            }
            _ => {}
        }
    }
    count
}

#[test]
fn every_constructor_is_written_as_its_usage_says() {
    // The usage text of each entry of the table shows as many arguments as
    // the entry takes, and with an example of each it assembles.
    let loader = MemoryLoader::default().with("program.cta", "main:\n    nilify out\n");
    for c in constree::asm::constructors::CONSTRUCTORS {
        assert!(c.usage.starts_with(c.name), "{}: {}", c.name, c.usage);
        assert_eq!(arguments_shown(c.usage, c.name), c.arity, "{}", c.usage);
        let example = example_of(c.usage);
        let source = format!("reg x\nreg v auto = {example}\nmain:\n    nilify x\n");
        let assembly = assemble(
            &loader,
            SourceFile::new("usage.cta".into(), Some("usage.cta".into()), source),
        );
        assert!(
            assembly.image.is_some(),
            "`{example}` (from `{}`) does not assemble: {:?}",
            c.usage,
            assembly
                .diagnostics
                .iter()
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn docs_list_every_constructor() {
    // docs/language.md holds the table generated from the constructors'
    // (`CONSTREE_BLESS=1 cargo test --release --test asm_literals` writes it).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md");
    let docs = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = (
        "<!-- constructors: generated -->\n",
        "<!-- constructors: end -->\n",
    );
    let start = docs.find(begin).expect("the begin marker") + begin.len();
    let stop = docs.find(end).expect("the end marker");
    let table = constree::asm::constructors::markdown_table();
    if docs[start..stop] != table {
        if std::env::var_os("CONSTREE_BLESS").is_some() {
            let written = format!("{}{table}{}", &docs[..start], &docs[stop..]);
            std::fs::write(&path, written).unwrap();
        } else {
            panic!(
                "docs/language.md's table of constructors is out of date: \
                 CONSTREE_BLESS=1 cargo test --release --test asm_literals writes it"
            );
        }
    }
}

//! `/input`: the robot's input, the report's 5-tuple `(index, robots,
//! actions, items, private)`, as a readable report that says where it
//! stops early.

use super::{LIST_SHOWN, ViewContext, conses, count, element, length, more, small_int};
use crate::encoding::Encode;
use crate::machine::Register;
use crate::tree::Tree;
use crate::world::decode::decode;
use crate::world::observed::{ActionWords, Detail};
use crate::world::{Frame, Item, ObservedAction};
use std::cmp::Ordering;

/// Characters of the readable form of something that is not an item.
const ITEM_CHARS: usize = 30;
/// Elements of a list shown in `/input` before giving up on one whose
/// elements do not decode.
const BAD_SHOWN: usize = 3;
/// Items shown in one robot's inventory in `/input`.
const INVENTORY_SHOWN: usize = 20;
/// Destroyed robots shown in `/input`.
const FALLEN_SHOWN: usize = 10;

/// The components of the input 5-tuple `(index, robots, actions, items,
/// private)`, `None` from the first one that is missing (the tuple has no
/// terminal Nil, so the private part is the rest after four fronts).
fn input_parts(tree: &Tree) -> [Option<&Tree>; 5] {
    let mut parts = [None; 5];
    let mut rest = tree;
    for part in parts.iter_mut().take(4) {
        let Some((front, back)) = rest.split() else {
            return parts;
        };
        *part = Some(front);
        rest = back;
    }
    parts[4] = Some(rest);
    parts
}

/// The names of the components, for notes.
const PART_NAMES: [&str; 5] = [
    "the index",
    "the robots",
    "the actions",
    "the items",
    "the private part",
];

/// What the input says about the robot that reads it.
struct Me {
    /// Its index in the robot and action lists.
    index: Option<usize>,
    /// The tag of its own action.
    tag: Option<i64>,
    /// Whether its last command was invalid (`None`: the private part that
    /// tells did not arrive).
    invalid: Option<bool>,
}

impl Me {
    fn new(tree: &Tree, parts: &[Option<&Tree>; 5], ctx: &ViewContext) -> Me {
        let index = parts[0]
            .and_then(small_int)
            .and_then(|i| usize::try_from(i).ok());
        let tag = parts[2]
            .zip(index)
            .and_then(|(actions, i)| actions.iter_list().nth(i))
            .and_then(Tree::front)
            .and_then(small_int);
        let invalid = parts[4]
            .filter(|p| p.is_cons() || left_in_limit(tree, ctx).is_none_or(|left| left >= 2))
            .map(|p| *p == 1i64.encode() && tag != Some(ObservedAction::INSPECTED));
        Me {
            index,
            tag,
            invalid,
        }
    }
}

/// `/input`: the report's 5-tuple as a readable report, saying where it
/// stops early.
pub(super) fn input(tree: &Tree, ctx: &ViewContext) -> String {
    let Some(index) = tree.front() else {
        return nothing_arrived(ctx);
    };
    let parts = input_parts(tree);
    let me = Me::new(tree, &parts, ctx);
    let mut lines = vec![match small_int(index) {
        Some(i) => format!("index {i}"),
        None => format!("index: {}", undecodable("not an Int", index)),
    }];
    for (p, part) in parts.iter().enumerate().skip(1) {
        let Some(part) = part else {
            lines.push(cut_note(tree, ctx, PART_NAMES[p]));
            break;
        };
        match p {
            1 => section(&mut lines, "robots", part, me.index, robot),
            2 => section(&mut lines, "actions", part, me.index, |k, t| {
                action(t, me.index == Some(k), me.invalid)
            }),
            3 => items(&mut lines, part),
            _ => private(&mut lines, part, &me, tree, ctx),
        }
    }
    lines.join("\n")
}

fn nothing_arrived(ctx: &ViewContext) -> String {
    let trimmed = ctx
        .input_limit
        .map(|l| {
            format!(
                ", or the engine trimmed it all to fit in {}",
                conses(l.max(0) as u64)
            )
        })
        .unwrap_or_default();
    format!("nothing: the input is Nil (no step has written it yet{trimmed})")
}

/// `(does not decode here: WHY: <description>)`.
fn undecodable(why: &str, tree: &Tree) -> String {
    format!("(does not decode here: {why}: {})", element(tree))
}

/// Where the input stops early. When the input register's limit is known
/// and the input fits it, the engine's `trim` explains it: `what` was the
/// first front that did not fit in what was left of the limit.
fn cut_note(tree: &Tree, ctx: &ViewContext, what: &str) -> String {
    match left_in_limit(tree, ctx) {
        Some(left) => format!(
            "(cut here: the engine trimmed the input to fit in {}; {what} did not fit \
             in the {left} left, and nothing after that arrived)",
            conses(tree.size() + left)
        ),
        None => format!("(does not decode here: the input ends before {what})"),
    }
}

/// A list as `title:` and `  [k] <line>` for its first elements, marking
/// this robot's.
fn section(
    lines: &mut Vec<String>,
    title: &str,
    list: &Tree,
    mine: Option<usize>,
    line: impl Fn(usize, &Tree) -> Result<String, String>,
) {
    if list.is_nil() {
        lines.push(format!("{title}: none"));
        return;
    }
    lines.push(format!("{title}:"));
    let (texts, more) = elements(list, LIST_SHOWN, |k, t| {
        let mark = if mine == Some(k) {
            "   <- this robot"
        } else {
            ""
        };
        let text = |l| format!("  [{k}] {l}{mark}");
        line(k, t).map(text).map_err(text)
    });
    lines.extend(texts);
    lines.extend(more.map(|m| format!("  {m}")));
}

/// The texts of a list's first elements, at most `max` of them and none
/// after the [`BAD_SHOWN`]-th that does not decode (`line` gives `Err`
/// for those), and `… N more` if some are left.
fn elements(
    list: &Tree,
    max: usize,
    line: impl Fn(usize, &Tree) -> Result<String, String>,
) -> (Vec<String>, Option<String>) {
    let mut texts = Vec::new();
    let mut bad = 0;
    for (k, t) in list.iter_list().enumerate() {
        if texts.len() == max || bad == BAD_SHOWN {
            break;
        }
        texts.push(line(k, t).unwrap_or_else(|text| {
            bad += 1;
            text
        }));
    }
    let rest = more(list, texts.len());
    (texts, rest)
}

/// A robot of the input: `RED 100 carrying [shield]`.
fn robot(_: usize, tree: &Tree) -> Result<String, String> {
    match tree.split() {
        Some((frame, inventory)) if let Ok(frame) = decode::<Frame>(frame) => Ok(format!(
            "{} {} carrying {}",
            frame.color.code(),
            frame.strength,
            item_list(inventory)
        )),
        _ => Err(undecodable(
            "not a robot ((colour, strength), inventory)",
            tree,
        )),
    }
}

/// An inventory: `nothing` or `[cargo 5 (weight 3), shield]`.
fn item_list(list: &Tree) -> String {
    if list.is_nil() {
        return "nothing".to_string();
    }
    let (mut texts, rest) = elements(list, INVENTORY_SHOWN, |_, t| item(t));
    texts.extend(rest);
    format!("[{}]", texts.join(", "))
}

/// An item: `cargo 5 (weight 3)`, `register 8 holding int 3`, ...
fn item(tree: &Tree) -> Result<String, String> {
    match decode::<Item>(tree) {
        Ok(Item::RegisterPart(r)) if r.contents.is_cons() => Ok(format!(
            "register {} holding {}",
            r.limit,
            element(&r.contents)
        )),
        Ok(i) => Ok(i.to_string()),
        Err(_) => Err(format!(
            "(not an item: {})",
            tree.readable().limit(ITEM_CHARS)
        )),
    }
}

/// An action of the input in words; for the robot's `own` action,
/// `invalid` tells its Passed from its Invalid (they encode alike).
fn action(tree: &Tree, own: bool, invalid: Option<bool>) -> Result<String, String> {
    let detail = match (own, invalid) {
        (true, Some(true)) => Detail::Invalid,
        (true, Some(false)) => Detail::Passed,
        _ => Detail::Unknown,
    };
    decode::<ObservedAction>(tree)
        .map(|action| {
            ActionWords {
                action: &action,
                detail,
            }
            .to_string()
        })
        .map_err(|_| undecodable("not an action (tag, argument)", tree))
}

/// The items `(unaffected, dropped, fallen)`, numbered as the next step's
/// item list `unaffected ++ dropped ++ (parts ++ carried of each fallen)`.
fn items(lines: &mut Vec<String>, tree: &Tree) {
    let triple = tree
        .split()
        .and_then(|(u, rest)| rest.split().map(|(d, f)| (u, d, f)));
    let Some((unaffected, dropped, fallen)) = triple else {
        let why = "not a triple (unaffected, dropped, fallen)";
        lines.push(format!("items: {}", undecodable(why, tree)));
        return;
    };
    lines.push("items (numbered as in the next step's item list):".to_string());
    let mut next = 0;
    lines.push(format!(
        "  unaffected: {}",
        numbered(unaffected, &mut next, LIST_SHOWN)
    ));
    lines.push(format!(
        "  dropped: {}",
        numbered(dropped, &mut next, LIST_SHOWN)
    ));
    if fallen.is_nil() {
        lines.push("  fallen: none".to_string());
    }
    for (k, robot) in fallen.iter_list().take(FALLEN_SHOWN).enumerate() {
        let text = match robot.split() {
            Some((parts, carried)) => format!(
                "parts {}; carried {}",
                numbered(parts, &mut next, INVENTORY_SHOWN),
                numbered(carried, &mut next, INVENTORY_SHOWN)
            ),
            None => undecodable("not a pair (parts, carried items)", robot),
        };
        lines.push(format!("  fallen robot {k}: {text}"));
    }
    lines.extend(more(fallen, FALLEN_SHOWN).map(|m| format!("  {m} fallen robots")));
}

/// `[n] item, [n+1] item` from `next` on, the first `shown` of them;
/// `next` moves past the list.
fn numbered(list: &Tree, next: &mut usize, shown: usize) -> String {
    if list.is_nil() {
        return "none".to_string();
    }
    let first = *next;
    let (mut texts, rest) = elements(list, shown, |k, t| {
        let number = |text| format!("[{}] {text}", first + k);
        item(t).map(number).map_err(number)
    });
    texts.extend(rest);
    *next += length(list);
    texts.join(", ")
}

/// The private part: `0`, `1` after an invalid command, or the inspected
/// robot's `(speed, count, registers)`.
fn private(lines: &mut Vec<String>, part: &Tree, me: &Me, tree: &Tree, ctx: &ViewContext) {
    let inspected = me.tag == Some(ObservedAction::INSPECTED);
    if part.is_nil() && inspected {
        lines.push(format!(
            "private: {}",
            cut_note(tree, ctx, "the inspection")
        ));
    } else if part.is_nil() {
        lines.push(format!(
            "private: 0 (nothing to report){}",
            lost_one(tree, ctx)
        ));
    } else if me.invalid == Some(true) {
        lines.push("private: 1 (this robot's last command was invalid)".to_string());
    } else {
        inspection(lines, part, tree, ctx);
    }
}

/// A `1` (2 conses) is lost when fewer than 2 conses of the limit were left.
fn lost_one(tree: &Tree, ctx: &ViewContext) -> String {
    match left_in_limit(tree, ctx) {
        Some(left) if left < 2 => format!(
            " (or a 1 that the engine trimmed away: only {} of the limit was left)",
            conses(left)
        ),
        _ => String::new(),
    }
}

/// How much of the input register's limit the input leaves, when the limit
/// is known and the input fits it (so the engine's `trim` may have cut it).
fn left_in_limit(tree: &Tree, ctx: &ViewContext) -> Option<u64> {
    let limit = u64::try_from(ctx.input_limit?).ok()?;
    limit.checked_sub(tree.size())
}

/// An inspection `(speed, count, registers)`, maybe cut short.
fn inspection(lines: &mut Vec<String>, part: &Tree, tree: &Tree, ctx: &ViewContext) {
    let why = "neither 0, 1 nor an inspection (speed, register count, registers)";
    let Some((speed, rest)) = part.split() else {
        lines.push(format!("private: {}", undecodable(why, part)));
        return;
    };
    let Some(speed) = small_int(speed) else {
        lines.push(format!("private: {}", undecodable(why, part)));
        return;
    };
    let header = format!("private: inspected a robot: processor speed {speed}");
    let Some((count, registers)) = rest.split() else {
        lines.push(header);
        lines.push(format!("  {}", cut_note(tree, ctx, "the register count")));
        return;
    };
    let Some(count) = small_int(count) else {
        lines.push(format!("private: {}", undecodable(why, part)));
        return;
    };
    lines.push(format!("{header}, {}", count_i64(count, "register")));
    inspected_registers(lines, registers, count, tree, ctx);
}

/// `n things` for a count that may be negative.
fn count_i64(n: i64, thing: &str) -> String {
    match u64::try_from(n) {
        Ok(n) => count(n, thing),
        Err(_) => format!("{n} {thing}s"),
    }
}

fn inspected_registers(
    lines: &mut Vec<String>,
    list: &Tree,
    count: i64,
    tree: &Tree,
    ctx: &ViewContext,
) {
    for (k, r) in list.iter_list().take(LIST_SHOWN).enumerate() {
        lines.push(match decode::<Register>(r) {
            Ok(r) => format!("  [{k}] limit {}: {}", r.limit, element(&r.contents)),
            Err(_) => format!(
                "  [{k}] {}",
                undecodable("not a register (limit, contents)", r)
            ),
        });
    }
    lines.extend(more(list, LIST_SHOWN).map(|m| format!("  {m}")));
    let arrived = length(list);
    let arrived_i64 = i64::try_from(arrived).unwrap_or(i64::MAX);
    match arrived_i64.cmp(&count) {
        Ordering::Less => lines.push(format!(
            "  {}",
            cut_note(tree, ctx, &format!("register {arrived}"))
        )),
        Ordering::Greater => lines.push(format!(
            "  (does not decode here: {} for a count of {count})",
            count_i64(arrived_i64, "register")
        )),
        Ordering::Equal => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ctx, view};
    use super::super::{Format, show};
    use super::*;
    use crate::world::{Color, Command, Processor, Robot, Shape, Square, World, update_reported};

    fn machine(out: Option<Command>, extra: Vec<Register>) -> Vec<Register> {
        let mut memory = vec![
            Register::new(0, Tree::NIL),
            Register::new(10_000, Tree::NIL),
            Register::new(1000, out.map(|c| c.encode()).unwrap_or_default()),
        ];
        memory.extend(extra);
        memory
    }

    fn bot(color: Color, strength: i64, inventory: Vec<Item>, memory: Vec<Register>) -> Robot {
        Robot {
            frame: Frame { color, strength },
            inventory,
            processor: Processor { speed: 5 },
            memory,
        }
    }

    /// One step of a 1x1 bounded world: the inputs the engine wrote into
    /// the survivors' register 1 (their machines halt at once: they have
    /// no program), and the square's items after the step.
    fn engine_step() -> (Vec<Tree>, Vec<Item>) {
        let robots = vec![
            bot(
                Color::Red,
                100,
                vec![],
                machine(None, vec![Register::new(64, 42i64.encode())]),
            ),
            bot(
                Color::Blue,
                50,
                vec![Item::Shield],
                machine(Some(Command::Lift(0)), vec![]),
            ),
            bot(
                Color::Green,
                10,
                vec![],
                machine(Some(Command::Inspect(0)), vec![]),
            ),
            bot(
                Color::Yellow,
                100,
                vec![Item::Cargo(7, 2)],
                machine(Some(Command::Destroy(3)), vec![]),
            ),
            bot(
                Color::White,
                100,
                vec![Item::Cargo(9, 1)],
                machine(Some(Command::Drop(0)), vec![]),
            ),
        ];
        let square = Square {
            robots,
            items: vec![Item::Cargo(5, 3), Item::Shield],
        };
        let world = World::new(Shape::new((1, 1), false).unwrap(), vec![Some(square)]).unwrap();
        let (world, _) = update_reported(world);
        let square = world.cells[0].as_ref().unwrap();
        let inputs = square
            .robots
            .iter()
            .map(|r| r.memory[1].contents.clone())
            .collect();
        (inputs, square.items.clone())
    }

    const ROBOTS: &str = "robots:
  [0] RED 100 carrying nothing
  [1] BLU 50 carrying [cargo 5 (weight 3), shield]
  [2] GRN 10 carrying nothing
  [3] YLO 100 carrying [cargo 7 (weight 2)]
  [4] WYT 100 carrying nothing";

    const ITEMS: &str = "items (numbered as in the next step's item list):
  unaffected: [0] shield
  dropped: [1] cargo 9 (weight 1)
  fallen robot 0: parts [2] frame YLO 100, [3] processor 5, [4] register 0, \
[5] register 10000, [6] register 1000; carried [7] cargo 7 (weight 2)";

    /// The robot and action lists with this robot's lines marked.
    fn marked(text: &str, index: usize) -> String {
        let line = format!("  [{index}] ");
        text.lines()
            .map(|l| {
                if l.starts_with(&line) {
                    format!("{l}   <- this robot")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn actions(own: usize, own_text: &str) -> String {
        let mut lines = [
            "actions:".to_string(),
            "  [0] passed or invalid".to_string(),
            "  [1] lifted item 0".to_string(),
            "  [2] inspected robot 0".to_string(),
            "  [3] destroyed robot 3".to_string(),
            "  [4] dropped an item".to_string(),
        ];
        lines[own + 1] = format!("  [{own}] {own_text}   <- this robot");
        lines.join("\n")
    }

    const INSPECTION: &str = "private: inspected a robot: processor speed 5, 4 registers
  [0] limit 0: nil
  [1] limit 10000: nil
  [2] limit 1000: nil
  [3] limit 64: int 42";

    #[test]
    fn inputs_the_engine_wrote() {
        let (inputs, items) = engine_step();
        // The numbering is the next step's item list.
        let shown: Vec<String> = items.iter().map(Item::to_string).collect();
        assert_eq!(
            shown,
            [
                "shield",
                "cargo 9 (weight 1)",
                "frame YLO 100",
                "processor 5",
                "register 0",
                "register 10000",
                "register 1000",
                "cargo 7 (weight 2)"
            ]
        );
        let input = |k: usize| view(&inputs[k], Format::Input).unwrap();
        assert_eq!(
            input(0),
            format!(
                "index 0\n{}\n{}\n{ITEMS}\nprivate: 1 (this robot's last command was invalid)",
                marked(ROBOTS, 0),
                actions(0, "invalid command")
            )
        );
        assert_eq!(
            input(1),
            format!(
                "index 1\n{}\n{}\n{ITEMS}\nprivate: 0 (nothing to report)",
                marked(ROBOTS, 1),
                actions(1, "lifted item 0")
            )
        );
        assert_eq!(
            input(2),
            format!(
                "index 2\n{}\n{}\n{ITEMS}\n{INSPECTION}",
                marked(ROBOTS, 2),
                actions(2, "inspected robot 0")
            )
        );
        // The white robot is the fourth survivor but the fifth robot of the
        // step.
        assert!(input(3).starts_with("index 4\n"));
    }

    #[test]
    fn trimmed_inputs_say_where_the_engine_cut() {
        let (inputs, _) = engine_step();
        let full = &inputs[2];
        assert_eq!(full.size(), 336);
        let cut = |limit: i64| {
            let c = ViewContext {
                input_limit: Some(limit),
                ..ctx()
            };
            show(&crate::machine::trim(limit, full), Format::Input, &c).unwrap()
        };
        let note = |limit: i64, what: &str, left: u64| {
            format!(
                "(cut here: the engine trimmed the input to fit in {limit} conses; {what} did \
                 not fit in the {left} left, and nothing after that arrived)"
            )
        };
        let robots = marked(ROBOTS, 2);
        let actions = actions(2, "inspected robot 0");
        assert_eq!(cut(336), view(full, Format::Input).unwrap());
        assert_eq!(
            cut(3),
            "nothing: the input is Nil (no step has written it yet, or the engine trimmed it \
             all to fit in 3 conses)"
        );
        assert_eq!(cut(4), format!("index 2\n{}", note(4, "the robots", 0)));
        assert_eq!(
            cut(111),
            format!("index 2\n{}", note(111, "the robots", 107))
        );
        assert_eq!(
            cut(120),
            format!("index 2\n{robots}\n{}", note(120, "the actions", 8))
        );
        assert_eq!(
            cut(200),
            format!(
                "index 2\n{robots}\n{actions}\n{}",
                note(200, "the items", 49)
            )
        );
        assert_eq!(
            cut(268),
            format!(
                "index 2\n{robots}\n{actions}\n{ITEMS}\nprivate: {}",
                note(268, "the inspection", 3)
            )
        );
        assert_eq!(
            cut(273),
            format!(
                "index 2\n{robots}\n{actions}\n{ITEMS}\n\
                 private: inspected a robot: processor speed 5\n  {}",
                note(273, "the register count", 2)
            )
        );
        let first_two: Vec<&str> = INSPECTION.lines().take(3).collect();
        assert_eq!(
            cut(300),
            format!(
                "index 2\n{robots}\n{actions}\n{ITEMS}\n{}\n  {}",
                first_two.join("\n"),
                note(300, "register 2", 1)
            )
        );
        // Without the limit, or with a limit the input does not fit, the
        // engine cannot be blamed.
        let trimmed = crate::machine::trim(120, full);
        let unknown = view(&trimmed, Format::Input).unwrap();
        assert!(
            unknown.ends_with("\n  [4] WYT 100 carrying nothing\n(does not decode here: the input ends before the actions)"),
            "{unknown}"
        );
        let c = ViewContext {
            input_limit: Some(100),
            ..ctx()
        };
        assert_eq!(show(&trimmed, Format::Input, &c).unwrap(), unknown);
    }

    #[test]
    fn a_lost_one_is_not_taken_for_a_pass() {
        let (inputs, _) = engine_step();
        let full = &inputs[0];
        let limit = full.size() as i64 - 1;
        let c = ViewContext {
            input_limit: Some(limit),
            ..ctx()
        };
        let text = show(&crate::machine::trim(limit, full), Format::Input, &c).unwrap();
        assert_eq!(
            text,
            format!(
                "index 0\n{}\n{}\n{ITEMS}\nprivate: 0 (nothing to report) (or a 1 that the \
                 engine trimmed away: only 1 cons of the limit was left)",
                marked(ROBOTS, 0),
                actions(0, "passed or invalid")
            )
        );
    }

    #[test]
    fn inputs_made_by_hand() {
        let empty = (
            0i64,
            Tree::NIL,
            Tree::NIL,
            (Tree::NIL, Tree::NIL, Tree::NIL),
            0i64,
        );
        assert_eq!(
            view(&empty.encode(), Format::Input),
            Ok("index 0
robots: none
actions: none
items (numbered as in the next step's item list):
  unaffected: none
  dropped: none
  fallen: none
private: 0 (nothing to report)"
                .to_string())
        );
        let robot = |inventory: Tree| Tree::cons((9i64, 1i64).encode(), inventory);
        let strange = (
            -1i64,
            Tree::list([
                robot(Tree::NIL),
                Tree::NIL,
                robot(Tree::list([Tree::unit()])),
            ]),
            Tree::list([(17i64, Tree::NIL).encode(), (2i64, 3i64).encode()]),
            Tree::unit(),
            Tree::list([1i64.encode()]),
        );
        assert_eq!(
            view(&strange.encode(), Format::Input),
            Ok("index -1
robots:
  [0] (does not decode here: not a robot ((colour, strength), inventory): [[[[[]], [], [], [[]]], [[]]]])
  [1] (does not decode here: not a robot ((colour, strength), inventory): nil)
  [2] (does not decode here: not a robot ((colour, strength), inventory): [[[[[]], [], [], [[]]], [[]]], [[]]])
actions:
  [0] (does not decode here: not an action (tag, argument): list [17] (or code, 1 instruction))
  [1] moved out SE
items: (does not decode here: not a triple (unaffected, dropped, fallen): command Move N (or list [0], or true))
private: inspected a robot: processor speed 1
  (does not decode here: the input ends before the register count)"
                .to_string())
        );
        assert_eq!(
            view(&Tree::NIL, Format::Input),
            Ok("nothing: the input is Nil (no step has written it yet)".to_string())
        );
    }
}

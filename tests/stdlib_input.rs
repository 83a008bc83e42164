//! `std/input`: every routine assembled into a small program and run in the
//! machine, on inputs the engine itself wrote in real game steps (worlds
//! with movers, arrivals, destroyed robots, children, inspections, invalid
//! commands, and input registers too small for the whole input), checked
//! against values computed in Rust with the engine's encoders; tick costs
//! checked against the formulas of docs/stdlib.md (std/input).

mod stdlib_world;

use constree::encoding::{Decode, Encode};
use constree::tree::Tree;
use constree::world::step::ResolvedSquare;
use constree::world::{Action, Color, Command, Direction, Item, Robot};
use stdlib_world::*;

/// input.parse on an input as it landed in `in`.
fn parse_ticks(input: &Tree) -> u64 {
    let parts = spine(input);
    match parts.len() {
        0 => 14,
        1 => 15,
        2 => 16,
        3 => 17,
        _ => {
            let private = input.iter_list_from(4);
            match private.split() {
                None => 17,
                Some((speed, _)) if speed.is_nil() => 19,
                Some(_) => 25,
            }
        }
    }
}

/// The parts of a (possibly cut) input: index, robots, actions, items, as
/// far as they arrived.
fn spine(input: &Tree) -> Vec<Tree> {
    let mut parts = Vec::new();
    let mut t = input.clone();
    while parts.len() < 4 {
        let Some((front, back)) = t.split() else {
            break;
        };
        parts.push(front.clone());
        t = back.clone();
    }
    parts
}

fn all_items_ticks(sq: &ResolvedSquare) -> u64 {
    21 + 8 * sq.new_items().len() as u64 + 15 * sq.fallen.len() as u64
}

fn self_ticks(index: u64) -> u64 {
    2 * nth_ticks(index) + 10
}

/// Predicates (call and ret included).
fn item_tag(item: &Item) -> i64 {
    match item {
        Item::Cargo(..) => 0,
        Item::RegisterPart(_) => 1,
        Item::ProcessorPart(_) => 2,
        Item::FramePart(_) => 3,
        Item::Shield => 4,
    }
}

fn is_shield_ticks(item: &Item) -> u64 {
    match item_tag(item) {
        0 => 7,
        1 | 3 => 9,
        _ => 11,
    }
}

fn armed_ticks(robot: &Robot) -> u64 {
    let mut ticks = 4;
    for item in &robot.inventory {
        match item_tag(item) {
            4 => return ticks + 11,
            0 => ticks += 4,
            2 => ticks += 9,
            _ => ticks += 7,
        }
    }
    ticks + 3
}

/// input.find over elements with per-element predicate costs `p`, the
/// first match at `hit`.
fn find_ticks(p: &[u64], hit: Option<usize>) -> u64 {
    match hit {
        Some(m) => 3 + p[..m].iter().map(|t| t + 5).sum::<u64>() + p[m] + 7 + int_ticks(m as u64),
        None => 3 + p.iter().map(|t| t + 5).sum::<u64>() + 6,
    }
}

/// What the observer records for a search: (miss, (n, found)).
fn record(hit: Option<(usize, Tree)>) -> Tree {
    match hit {
        Some((n, t)) => Tree::cons(Tree::NIL, Tree::cons(int(n as i64), t)),
        None => Tree::cons(yes(), Tree::cons(Tree::NIL, Tree::NIL)),
    }
}

fn first<T>(list: &[T], skip: usize, pred: impl Fn(&T) -> bool) -> Option<usize> {
    list.iter()
        .enumerate()
        .skip(skip)
        .find(|(_, x)| pred(x))
        .map(|(i, _)| i)
}

// ---------------------------------------------------------------------------
// The observer: a robot that takes its input apart every step with every
// routine of std/input and keeps the results.

const OBSERVER: &str = "use std/control
use std/input
reg in 1000000
reg out 10000 = Pass
reg script 10000            ; its commands for steps 2, 3, ...
reg seen 1000000            ; the raw input
reg r.me 100000
reg r.my_action
reg r.self_miss
reg r.mask
reg r.next                  ; new index per robot (-1: gone), last first
reg r.k
reg r.walk
reg r.items 100000
reg r.cargo                 ; each search: (miss, (position, found))
reg r.cargo2
reg r.shield
reg r.stranger
reg r.armed
reg r.color
reg r.created

macro record dst
    cons dst, input.n, input.found
    cons dst, input.miss, dst
end

main:
    wait_step
    jnil script, .pass
    pop script, out
    jmp .go
.pass:
    mov out, Pass
.go:
    mov seen, in
    call input.parse
    call input.self
    mov r.self_miss, input.miss
    mov r.me, input.me
    mov r.my_action, input.my_action
    call input.staying
    mov r.mask, input.mask
    nilify r.next
    nilify r.k
    mov r.walk, input.mask
.k:
    jnil r.walk, .kdone
    pop r.walk, scratch
    mov input.n, r.k
    call input.next_index
    jnil input.miss, .present
    mov input.n, -1
.present:
    push r.next, input.n
    mov input.n, r.k
    call input.inc
    mov r.k, input.n
    jmp .k
.kdone:
    call input.all_items
    mov r.items, input.items
    mov input.list, input.items
    call input.find_cargo
    record r.cargo
    call input.find_next
    record r.cargo2
    mov input.list, input.items
    call input.find_shield
    record r.shield
    call input.find_stranger
    record r.stranger
    mov input.list, input.robots
    call input.find_armed
    record r.armed
    input.search input.robots, input.color_is, Orange
    record r.color
    input.search input.actions, input.tag_is, #1
    record r.created
    jmp main
";

fn observer_image() -> constree::image::Image {
    build(OBSERVER)
}

/// An observer robot: `script` gives its commands (the first is step 1's).
fn observer(
    image: &constree::image::Image,
    color: Color,
    in_limit: i64,
    script: &[Command],
) -> Robot {
    let mut memory = image.memory();
    memory[1].limit = in_limit;
    let mut commands = script.iter().cloned();
    memory[2].contents = commands.next().unwrap_or(Command::Pass).encode();
    let rest: Vec<Command> = commands.collect();
    memory[image.register("script").unwrap()].contents = rest.encode();
    robot(memory, color, 1000, 10_000_000, vec![])
}

/// The three item groups of an input's item triple (Nil if cut).
fn item_groups(items: &Tree) -> (Tree, Tree, Tree) {
    match items.split() {
        None => (Tree::NIL, Tree::NIL, Tree::NIL),
        Some((u, rest)) => {
            let (d, f) = rest.split().expect("a triple");
            (u.clone(), d.clone(), f.clone())
        }
    }
}

/// Everything the observer (robot `k` of the resolved square, input register
/// limit `limit`) computed, against the engine's data.
fn check_observer(
    image: &constree::image::Image,
    robot: &Robot,
    sq: &ResolvedSquare,
    k: usize,
    limit: i64,
) {
    let reg = |name: &str| robot_reg(image, robot, name).clone();
    let full = full_input(sq, k);
    let input = trimmed(limit, &full);
    assert_eq!(reg("seen"), input, "the raw input (limit {limit})");
    let parts = spine(&input);
    let part = |j: usize| parts.get(j).cloned().unwrap_or(Tree::NIL);
    let whole = parts.len() == 4;
    let ctx = format!("limit {limit}, {} parts", parts.len());

    // input.parse
    assert_eq!(reg("input.index"), part(0), "{ctx}");
    assert_eq!(reg("input.robots"), part(1), "{ctx}");
    assert_eq!(reg("input.actions"), part(2), "{ctx}");
    let (u, d, f) = item_groups(&part(3));
    assert_eq!(reg("input.unaffected"), u, "{ctx}");
    assert_eq!(reg("input.dropped"), d, "{ctx}");
    assert_eq!(reg("input.fallen"), f, "{ctx}");
    let private = if whole {
        input.iter_list_from(4).clone()
    } else {
        Tree::NIL
    };
    assert_eq!(reg("input.private"), private, "{ctx}");
    assert_eq!(
        reg("input.cut"),
        if whole { Tree::NIL } else { yes() },
        "{ctx}"
    );
    let invalid = private == 1i64.encode();
    assert_eq!(
        reg("input.invalid"),
        if invalid { yes() } else { Tree::NIL },
        "{ctx}"
    );
    // The parts are the engine's own lists.
    if parts.len() > 1 {
        assert_eq!(part(0), int(k as i64));
        assert_eq!(part(1), sq.all_robots.encode());
    }
    if parts.len() > 2 {
        assert_eq!(part(2), sq.all_actions.encode());
    }
    if whole {
        assert_eq!(u, sq.unaffected.encode());
        assert_eq!(d, sq.dropped.encode());
        assert_eq!(f, sq.fallen.encode());
        let engine_private = constree::world::step::private_input(&sq.all_actions[k]);
        if full.size() as i64 <= limit {
            assert_eq!(private, engine_private);
        }
    }

    // input.self
    let robots: &[Robot] = if parts.len() > 1 { &sq.all_robots } else { &[] };
    let actions: &[Action] = if parts.len() > 2 {
        &sq.all_actions
    } else {
        &[]
    };
    let me = robots.get(k).map_or(Tree::NIL, |r| r.encode());
    assert_eq!(reg("r.me"), me, "{ctx}");
    assert_eq!(
        reg("r.my_action"),
        actions.get(k).map_or(Tree::NIL, |a| a.encode()),
        "{ctx}"
    );
    assert_eq!(
        reg("r.self_miss"),
        if actions.is_empty() { yes() } else { Tree::NIL }
    );

    // input.staying, input.next_index
    let gone: Vec<bool> = (0..actions.len()).map(|j| !sq.present(j)).collect();
    assert_eq!(reg("r.mask"), gone.encode(), "{ctx}");
    let next: Vec<i64> = if actions.is_empty() {
        vec![]
    } else {
        next_indices(sq)
            .iter()
            .rev()
            .map(|n| n.map_or(-1, |n| n as i64))
            .collect()
    };
    assert_eq!(reg("r.next"), next.encode(), "{ctx}");

    // input.all_items and the searches
    let items: Vec<Item> = if whole { sq.new_items() } else { vec![] };
    assert_eq!(reg("r.items"), items.encode(), "{ctx}");
    let hit = |i: Option<usize>, list: &[Item]| i.map(|i| (i, list[i].encode()));
    let is_cargo = |x: &Item| matches!(x, Item::Cargo(..));
    let c1 = first(&items, 0, is_cargo);
    assert_eq!(reg("r.cargo"), record(hit(c1, &items)), "{ctx}");
    let c2 = c1.and_then(|c| first(&items, c + 1, is_cargo));
    assert_eq!(reg("r.cargo2"), record(hit(c2, &items)), "{ctx}");
    let s = first(&items, 0, |x| matches!(x, Item::Shield));
    assert_eq!(reg("r.shield"), record(hit(s, &items)), "{ctx}");
    let rhit = |i: Option<usize>| i.map(|i| (i, robots[i].encode()));
    let mine = robots.get(k).map(|r| r.frame.color);
    let stranger = mine.and_then(|c| first(robots, 0, |r| r.frame.color != c));
    assert_eq!(reg("r.stranger"), record(rhit(stranger)), "{ctx}");
    let armed = first(robots, 0, |r| r.inventory.contains(&Item::Shield));
    assert_eq!(reg("r.armed"), record(rhit(armed)), "{ctx}");
    let orange = first(robots, 0, |r| r.frame.color == Color::Orange);
    assert_eq!(reg("r.color"), record(rhit(orange)), "{ctx}");
    let created = first(actions, 0, |a| *a == Action::Created);
    assert_eq!(
        reg("r.created"),
        record(created.map(|i| (i, actions[i].encode()))),
        "{ctx}"
    );
}

/// The routines' tick costs on an input the engine wrote, against the
/// formulas.
fn check_ticks(sq: &ResolvedSquare, k: usize, input: &Tree, limit: i64) {
    // input.parse, on the input as it landed.
    let mut m = Machine::lenient(&caller(&["input"], "input.parse"));
    m.memory[1].limit = limit;
    m.memory[1].contents = input.clone();
    assert_eq!(m.call_ticks(), parse_ticks(input), "parse, limit {limit}");
    if spine(input).len() < 4 {
        return;
    }
    // The others, on the engine's lists.
    let mut m = Machine::lenient(&caller(&["input"], "input.self"));
    m.set("input.index", &k);
    m.set("input.robots", &sq.all_robots);
    m.set("input.actions", &sq.all_actions);
    assert_eq!(m.call_ticks(), self_ticks(k as u64), "self");
    assert_eq!(m.get("input.me"), &sq.all_robots[k].encode());

    let mut m = Machine::lenient(&caller(&["input"], "input.staying"));
    m.set("input.actions", &sq.all_actions);
    assert_eq!(m.call_ticks(), staying_ticks(&sq.all_actions), "staying");
    let gone: Vec<bool> = (0..sq.all_robots.len()).map(|j| !sq.present(j)).collect();
    assert_eq!(m.get("input.mask"), &gone.encode());

    let next = next_indices(sq);
    for j in 0..=gone.len() + 1 {
        let mut m = Machine::lenient(&caller(&["input"], "input.next_index"));
        m.set("input.mask", &gone);
        m.set("input.n", &j);
        assert_eq!(m.call_ticks(), next_index_ticks(j, &gone), "next_index {j}");
        match next.get(j).copied().flatten() {
            Some(n) => {
                assert_eq!(m.get("input.n"), &int(n as i64));
                assert!(m.get("input.miss").is_nil());
            }
            None => {
                assert!(m.get("input.n").is_nil());
                assert_eq!(m.get("input.miss"), &yes());
            }
        }
    }

    let mut m = Machine::lenient(&caller(&["input"], "input.all_items"));
    m.set("input.unaffected", &sq.unaffected);
    m.set("input.dropped", &sq.dropped);
    m.set("input.fallen", &sq.fallen);
    assert_eq!(m.call_ticks(), all_items_ticks(sq), "all_items");
    let items = sq.new_items();
    assert_eq!(m.get("input.items"), &items.encode());

    // Searches: the wrappers cost input.find + 2 (+ 6 for find_stranger).
    let search = |routine: &str,
                  list: Tree,
                  key: Option<i64>,
                  p: Vec<u64>,
                  hit: Option<usize>,
                  extra: u64| {
        let mut m = Machine::lenient(&caller(&["input"], routine));
        m.set_tree("input.list", list);
        if let Some(key) = key {
            m.set("input.key", &key);
        }
        m.set("input.me", &sq.all_robots[k]);
        m.set("input.robots", &sq.all_robots);
        assert_eq!(m.call_ticks(), find_ticks(&p, hit) + extra, "{routine}");
        assert_eq!(m.get("input.n"), &hit.map_or(Tree::NIL, |h| int(h as i64)));
    };
    let cargo_hit = first(&items, 0, |x| matches!(x, Item::Cargo(..)));
    search(
        "input.find_cargo",
        items.encode(),
        None,
        vec![5; items.len()],
        cargo_hit,
        2,
    );
    let shield_hit = first(&items, 0, |x| matches!(x, Item::Shield));
    let p = items.iter().map(is_shield_ticks).collect();
    search("input.find_shield", items.encode(), None, p, shield_hit, 2);
    for kind in 0..=4 {
        let hit = first(&items, 0, |x| item_tag(x) == kind);
        let p = items
            .iter()
            .map(|x| eq_call_ticks(item_tag(x), kind) + 3)
            .collect();
        search("input.find_kind", items.encode(), Some(kind), p, hit, 2);
    }
    let robots = &sq.all_robots;
    for color in [Color::Red, Color::Orange, Color::White] {
        let c = color as i64;
        let hit = first(robots, 0, |r| r.frame.color == color);
        let p = robots
            .iter()
            .map(|r| eq_call_ticks(r.frame.color as i64, c) + 4)
            .collect();
        search("input.find_color", robots.encode(), Some(c), p, hit, 2);
    }
    let hit = first(robots, 0, |r| r.inventory.contains(&Item::Shield));
    let p = robots.iter().map(armed_ticks).collect();
    search("input.find_armed", robots.encode(), None, p, hit, 2);
    let mine = robots[k].frame.color as i64;
    let hit = first(robots, 0, |r| r.frame.color as i64 != mine);
    let p = robots
        .iter()
        .map(|r| eq_call_ticks(r.frame.color as i64, mine) + 10)
        .collect();
    search("input.find_stranger", Tree::NIL, None, p, hit, 6);
    let actions = &sq.all_actions;
    for tag in [0, 1, 2, 3, 5, 14, 15] {
        let hit = first(actions, 0, |a| action_tag(a) == tag);
        let p = actions
            .iter()
            .map(|a| eq_call_ticks(action_tag(a), tag) + 3)
            .collect();
        search("input.find_kind", actions.encode(), Some(tag), p, hit, 2);
    }
}

// ---------------------------------------------------------------------------
// A busy square: the centre of a 3 x 3 wrapping world where, in step 1, a
// robot leaves, two robots destroy a third, one builds a child, one drops
// an item, and two robots arrive (from the north and from the west).

const CENTRE: (i64, i64) = (1, 1);
const CENTRE_CELL: usize = 4;

fn child_memory() -> constree::machine::Memory {
    script_image().memory()
}

/// The busy world; the observer is robot 0 of the centre, its input
/// register limited to `limit`.
fn busy_world(
    image: &constree::image::Image,
    limit: i64,
    observer_script: &[Command],
) -> constree::world::World {
    let child = child_memory();
    let parts = 2 + child.len() as i64;
    let build = Command::Build((0..parts).collect(), child.clone());
    let centre_robots = vec![
        observer(image, Color::Red, limit, observer_script),
        scripted(&[Command::Move(Direction::E)], Color::Blue, 10, vec![]),
        scripted(
            &[Command::Pass],
            Color::Green,
            50,
            vec![cargo(5, 1), cargo(6, 2)],
        ),
        scripted(&[Command::Destroy(2)], Color::Yellow, 10, vec![]),
        scripted(&[Command::Destroy(2)], Color::Black, 10, vec![]),
        scripted(&[build], Color::Violet, 10, vec![]),
        scripted(
            &[Command::Drop(1)],
            Color::White,
            10,
            vec![Item::Shield, cargo(7, 3)],
        ),
    ];
    let mut items = vec![
        Item::FramePart(frame(Color::Blue, 50)),
        Item::ProcessorPart(constree::world::Processor { speed: 7 }),
    ];
    items.extend(parts_for(&child));
    items.extend([cargo(1, 10), Item::Shield, cargo(2, 20)]);
    let mut cells: Vec<_> = (0..9).map(|_| square(vec![], vec![])).collect();
    cells[CENTRE_CELL] = square(centre_robots, items);
    // (1, 0): north of the centre; (0, 1): west of it.
    cells[1] = square(
        vec![scripted(
            &[Command::Move(Direction::S)],
            Color::Orange,
            10,
            vec![Item::Shield],
        )],
        vec![],
    );
    cells[3] = square(
        vec![scripted(
            &[Command::Move(Direction::E)],
            Color::Orange,
            10,
            vec![],
        )],
        vec![],
    );
    world((3, 3), true, cells)
}

#[test]
fn the_busy_square_as_the_engine_resolves_it() {
    // The scenario itself: what the observer should see.
    let image = observer_image();
    let w = busy_world(&image, 1_000_000, &[]);
    let resolved = resolve(&w);
    let sq = resolved[CENTRE_CELL].as_ref().unwrap();
    let colors: Vec<Color> = sq.all_robots.iter().map(|r| r.frame.color).collect();
    use Color::*;
    assert_eq!(
        colors,
        vec![
            Red, Blue, Green, Yellow, Black, Violet, White, Orange, Orange, Blue
        ]
    );
    assert_eq!(sq.all_actions[1], Action::MovedOut(Direction::E));
    assert_eq!(sq.all_actions[3], Action::Destroyed(2));
    assert_eq!(sq.all_actions[4], Action::Destroyed(2));
    assert!(matches!(sq.all_actions[5], Action::Built(..)));
    assert!(matches!(sq.all_actions[6], Action::Dropped(_)));
    assert_eq!(sq.all_actions[7], Action::MovedIn(Direction::N));
    assert_eq!(sq.all_actions[8], Action::MovedIn(Direction::W));
    assert_eq!(sq.all_actions[9], Action::Created);
    assert_eq!(
        next_indices(sq),
        vec![
            Some(0),
            None,
            None,
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(5),
            Some(6),
            Some(7)
        ]
    );
    assert_eq!(sq.fallen.len(), 1);
    assert_eq!(sq.dropped, vec![cargo(7, 3)]);
}

#[test]
fn an_observer_on_the_busy_square_takes_its_input_apart() {
    let image = observer_image();
    let w = busy_world(&image, 1_000_000, &[]);
    let (next, report, resolved) = step(w);
    let sq = resolved[CENTRE_CELL].as_ref().unwrap();
    let here = at(&next, CENTRE);
    let obs = &here.robots[0];
    assert!(report.cells[CENTRE_CELL][0].run.is_ok());
    check_observer(&image, obs, sq, 0, 1_000_000);
    // The new indices it computed are where the robots are now.
    let computed: Vec<i64> = Vec::<i64>::decode(robot_reg(&image, obs, "r.next"))
        .unwrap()
        .into_iter()
        .rev()
        .collect();
    for (k, n) in computed.iter().enumerate() {
        if *n >= 0 {
            let now = &here.robots[*n as usize];
            assert_eq!(now.frame, sq.all_robots[k].frame, "robot {k}");
            assert_eq!(now.inventory, sq.all_robots[k].inventory, "robot {k}");
        }
    }
    assert_eq!(
        here.robots.len(),
        computed.iter().filter(|n| **n >= 0).count()
    );
    let seen = robot_reg(&image, obs, "seen").clone();
    check_ticks(sq, 0, &seen, 1_000_000);

    // Step 2: the square has settled; the observer is still robot 0.
    let (next, _, resolved) = step(next);
    let sq = resolved[CENTRE_CELL].as_ref().unwrap();
    assert!(sq.all_actions.iter().all(|a| matches!(a, Action::Passed)));
    check_observer(&image, &at(&next, CENTRE).robots[0], sq, 0, 1_000_000);
}

#[test]
fn cut_inputs_read_nil_from_the_cut_on() {
    // First the whole input, to find where the cuts fall.
    let image = observer_image();
    let resolved = resolve(&busy_world(&image, 1_000_000, &[]));
    let full = full_input(resolved[CENTRE_CELL].as_ref().unwrap(), 0);
    let mut limits = vec![0, 1, 2, full.size() as i64, full.size() as i64 - 1];
    // Around every boundary: a part is kept when it fits strictly in what
    // is left of the budget after the parts before it.
    let mut used = 0i64;
    let mut t = full.clone();
    for _ in 0..5 {
        let Some((front, back)) = t.split() else {
            break;
        };
        let need = used + front.size() as i64 + 1;
        limits.extend([need - 1, need, need + 1]);
        used += front.size() as i64 + 1;
        t = back.clone();
    }
    limits.sort();
    limits.dedup();
    let mut seen_parts = std::collections::BTreeSet::new();
    for limit in limits {
        let (next, report, resolved) = step(busy_world(&image, limit, &[]));
        let sq = resolved[CENTRE_CELL].as_ref().unwrap();
        assert!(report.cells[CENTRE_CELL][0].run.is_ok(), "limit {limit}");
        let obs = &at(&next, CENTRE).robots[0];
        check_observer(&image, obs, sq, 0, limit);
        let seen = robot_reg(&image, obs, "seen").clone();
        seen_parts.insert(spine(&seen).len());
        check_ticks(sq, 0, &seen, limit);
    }
    assert_eq!(
        seen_parts.into_iter().collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4],
        "every cut was tried"
    );
}

// ---------------------------------------------------------------------------
// Other steps the engine can write.

/// Steps a one-square world once and checks the observer (robot `k`).
fn observe_once(
    image: &constree::image::Image,
    robots: Vec<Robot>,
    items: Vec<Item>,
    k: usize,
    limit: i64,
) -> (constree::world::World, ResolvedSquare) {
    let w = world((1, 1), false, vec![square(robots, items)]);
    let (next, report, resolved) = step(w);
    let sq = resolved[0].clone().unwrap();
    let n = next_indices(&sq)[k].expect("the observer stays");
    assert!(report.cells[0][n].run.is_ok());
    let obs = &at(&next, (0, 0)).robots[n];
    check_observer(image, obs, &sq, k, limit);
    let seen = robot_reg(image, obs, "seen").clone();
    check_ticks(&sq, k, &seen, limit);
    (next, sq)
}

#[test]
fn a_robot_that_leaves_a_one_cell_world_comes_back_as_another() {
    // In a wrapping 1 x 1 world every neighbour is the square itself: the
    // mover is listed twice, MovedOut then MovedIn, and only the second
    // counts for the next step.
    let image = observer_image();
    let w = world(
        (1, 1),
        true,
        vec![square(
            vec![
                scripted(&[Command::Move(Direction::N)], Color::Blue, 10, vec![]),
                observer(&image, Color::Red, 1_000_000, &[]),
            ],
            vec![cargo(3, 3)],
        )],
    );
    let (next, _, resolved) = step(w);
    let sq = resolved[0].as_ref().unwrap();
    assert_eq!(
        sq.all_actions[..2],
        [Action::MovedOut(Direction::N), Action::Passed]
    );
    assert_eq!(sq.all_actions[2], Action::MovedIn(Direction::S));
    assert_eq!(next_indices(sq), vec![None, Some(0), Some(1)]);
    let obs = &at(&next, (0, 0)).robots[0];
    check_observer(&image, obs, sq, 1, 1_000_000);
    assert_eq!(robot_reg(&image, obs, "r.next"), &ints(&[1, 0, -1]));
}

#[test]
fn destroyed_robots_and_self_destruction() {
    // Robot 2 destroys itself, robot 3 destroys robot 5 (after it), robot
    // 4 leaves: the mask marks 2, 4 and 5.
    let image = observer_image();
    let robots = vec![
        scripted(&[Command::Pass], Color::Green, 10, vec![]),
        observer(&image, Color::Red, 1_000_000, &[]),
        scripted(&[Command::Destroy(2)], Color::Blue, 10, vec![cargo(1, 1)]),
        scripted(&[Command::Destroy(5)], Color::White, 10, vec![]),
        scripted(&[Command::Move(Direction::S)], Color::Black, 10, vec![]),
        scripted(&[Command::Lift(0)], Color::Yellow, 10, vec![cargo(4, 1)]),
    ];
    // Bounded 1 x 1: the move is blocked, so use a 1 x 2 world.
    let w = world(
        (1, 2),
        false,
        vec![square(robots, vec![cargo(9, 1)]), square(vec![], vec![])],
    );
    let (next, _, resolved) = step(w);
    let sq = resolved[0].as_ref().unwrap();
    assert_eq!(sq.all_actions[2], Action::Destroyed(2));
    assert_eq!(sq.all_actions[3], Action::Destroyed(5));
    assert_eq!(sq.all_actions[4], Action::MovedOut(Direction::S));
    assert_eq!(sq.all_actions[5], Action::Lifted(0));
    assert_eq!(
        next_indices(sq),
        vec![Some(0), Some(1), None, Some(2), None, None]
    );
    assert_eq!(sq.fallen.len(), 2);
    let obs = &at(&next, (0, 0)).robots[1];
    check_observer(&image, obs, sq, 1, 1_000_000);
    check_ticks(sq, 1, robot_reg(&image, obs, "seen"), 1_000_000);
}

#[test]
fn an_invalid_command_shows_only_in_the_private_part() {
    // The item trap: alone on the square, `Lift 1` is Invalid although
    // there are two items; `Lift 0` works.
    let image = observer_image();
    let obs = observer(
        &image,
        Color::Red,
        1_000_000,
        &[Command::Lift(1), Command::Lift(0)],
    );
    let items = vec![Item::Shield, cargo(1, 1)];
    let (next, sq) = observe_once(&image, vec![obs], items, 0, 1_000_000);
    assert_eq!(sq.all_actions[0], Action::Invalid);
    let me = &at(&next, (0, 0)).robots[0];
    assert_eq!(robot_reg(&image, me, "input.invalid"), &yes());
    // Everyone else sees a pass.
    assert_eq!(
        robot_reg(&image, me, "r.my_action"),
        &Action::Passed.encode()
    );
    let (next, report, resolved) = step(next);
    assert_eq!(report.cells[0][0].action, Action::Lifted(0));
    let me = &at(&next, (0, 0)).robots[0];
    check_observer(&image, me, resolved[0].as_ref().unwrap(), 0, 1_000_000);
    assert!(robot_reg(&image, me, "input.invalid").is_nil());
    assert_eq!(me.inventory, vec![Item::Shield]);
}

#[test]
fn inspections_whole_and_cut() {
    // The observer inspects robot 1 (speed 100), then robot 2 (speed 0).
    let image = observer_image();
    let slow = {
        let mut r = scripted(&[Command::Pass], Color::Blue, 10, vec![]);
        r.processor.speed = 0;
        r
    };
    let robots = |limit| {
        vec![
            observer(
                &image,
                Color::Red,
                limit,
                &[Command::Inspect(1), Command::Inspect(2)],
            ),
            scripted(&[Command::Pass], Color::Green, 10, vec![]),
            slow.clone(),
        ]
    };
    let (next, sq) = observe_once(&image, robots(1_000_000), vec![], 0, 1_000_000);
    assert!(matches!(sq.all_actions[0], Action::Inspected(1, _)));
    let me = &at(&next, (0, 0)).robots[0];
    assert!(robot_reg(&image, me, "input.invalid").is_nil());
    let full = full_input(&sq, 0);
    // Step 2: a robot of speed 0 (its speed encodes as Nil).
    let (next2, _, resolved) = step(next);
    let sq2 = resolved[0].as_ref().unwrap();
    assert!(matches!(sq2.all_actions[0], Action::Inspected(2, _)));
    let me = &at(&next2, (0, 0)).robots[0];
    check_observer(&image, me, sq2, 0, 1_000_000);
    let seen = robot_reg(&image, me, "seen").clone();
    assert_eq!(parse_ticks(&seen), 19);
    check_ticks(sq2, 0, &seen, 1_000_000);
    // Cut inside the private part: the registers go first, then the count,
    // and a lone speed never reads as 1 (invalid).
    let private_start = full.size() as i64 - full.iter_list_from(4).size() as i64;
    for cut in [1, 2, 5, 20, 100] {
        let limit = full.size() as i64 - cut;
        if limit <= private_start {
            continue;
        }
        let (next, sq) = observe_once(&image, robots(limit), vec![], 0, limit);
        let me = &at(&next, (0, 0)).robots[0];
        let private = robot_reg(&image, me, "input.private");
        assert!(private.is_cons(), "cut {cut}");
        assert!(private.size() < full.iter_list_from(4).size());
        assert!(robot_reg(&image, me, "input.invalid").is_nil());
        assert!(robot_reg(&image, me, "input.cut").is_nil());
        let _ = sq;
    }
}

// ---------------------------------------------------------------------------
// The Int and list routines on their own.

#[test]
fn unary_int_and_inc_on_many_numbers() {
    let mut unary_m = Machine::lenient(&caller(&["input"], "input.unary"));
    let mut int_m = Machine::lenient(&caller(&["input"], "input.int"));
    let mut inc_m = Machine::lenient(&caller(&["input"], "input.inc"));
    for n in (0..70u64).chain([127, 128, 255, 256, 511, 1000]) {
        unary_m.reset();
        unary_m.set("input.n", &(n as i64));
        assert_eq!(unary_m.call_ticks(), unary_ticks(n), "unary {n}");
        assert_eq!(unary_m.get("input.u"), &unary(n as usize));
        assert!(unary_m.get("input.n").is_nil());

        int_m.reset();
        int_m.set_tree("input.u", unary(n as usize));
        assert_eq!(int_m.call_ticks(), int_ticks(n), "int {n}");
        assert_eq!(int_m.get("input.n"), &int(n as i64), "canonical {n}");
        assert!(int_m.get("input.u").is_nil());

        inc_m.reset();
        inc_m.set("input.n", &(n as i64));
        assert_eq!(inc_m.call_ticks(), inc_ticks(n), "inc {n}");
        assert_eq!(
            inc_m.get("input.n"),
            &int(n as i64 + 1),
            "canonical {n} + 1"
        );
    }
    // Any list counts by its length.
    int_m.reset();
    int_m.set("input.u", &vec![Command::Pass; 5]);
    int_m.call_ticks();
    assert_eq!(int_m.get("input.n"), &int(5));
}

#[test]
fn eq_compares_ints() {
    let mut m = Machine::lenient(&caller(&["input"], "input.eq"));
    let values: Vec<i64> = (0..20).chain([31, 32, 64, 100]).collect();
    for &a in &values {
        for &b in &values {
            m.reset();
            m.set("input.a", &a);
            m.set("input.b", &b);
            assert_eq!(m.call_ticks(), eq_call_ticks(a, b), "{a} == {b}");
            let expected = if a == b { Tree::NIL } else { yes() };
            assert_eq!(m.get("input.miss"), &expected, "{a} == {b}");
        }
    }
}

#[test]
fn drop_and_nth_index_lists() {
    let list: Vec<i64> = (100..140).collect();
    let mut drop_m = Machine::lenient(&caller(&["input"], "input.drop"));
    let mut nth_m = Machine::lenient(&caller(&["input"], "input.nth"));
    for n in 0..45usize {
        drop_m.reset();
        drop_m.set("input.list", &list);
        drop_m.set("input.n", &n);
        let ticks = drop_m.call_ticks();
        let rest: Vec<i64> = list.iter().skip(n).copied().collect();
        assert_eq!(drop_m.get("input.list"), &rest.encode(), "drop {n}");
        assert!(drop_m.get("input.n").is_nil());

        nth_m.reset();
        nth_m.set("input.list", &list);
        nth_m.set("input.n", &n);
        let nth_t = nth_m.call_ticks();
        if n <= list.len() {
            assert_eq!(ticks, drop_ticks(n as u64), "drop {n}");
            assert!(drop_m.get("input.miss").is_nil(), "drop {n}");
        } else {
            assert_eq!(drop_m.get("input.miss"), &yes(), "drop {n} (short)");
        }
        match list.get(n) {
            Some(x) => {
                assert_eq!(nth_t, nth_ticks(n as u64), "nth {n}");
                assert_eq!(nth_m.get("input.found"), &int(*x));
                assert!(nth_m.get("input.miss").is_nil());
                assert_eq!(nth_m.get("input.list"), &rest.encode());
            }
            None => {
                assert!(nth_m.get("input.found").is_nil(), "nth {n}");
                assert_eq!(nth_m.get("input.miss"), &yes(), "nth {n}");
            }
        }
    }
}

#[test]
fn predicates_on_every_kind_of_item_and_robot() {
    let items = vec![
        cargo(1, 2),
        register_part(5),
        Item::ProcessorPart(constree::world::Processor { speed: 3 }),
        Item::FramePart(frame(Color::Black, 7)),
        Item::Shield,
    ];
    let run = |pred: &str, found: Tree, key: i64| {
        let mut m = Machine::lenient(&caller(&["input"], pred));
        m.set_tree("input.found", found);
        m.set("input.key", &key);
        let t = m.call_ticks();
        (m.get("input.miss").is_nil(), t)
    };
    for item in &items {
        let tag = item_tag(item);
        assert_eq!(run("input.is_cargo", item.encode(), 0), (tag == 0, 5));
        assert_eq!(
            run("input.is_shield", item.encode(), 0),
            (tag == 4, is_shield_ticks(item))
        );
        for key in 0..=5 {
            assert_eq!(
                run("input.tag_is", item.encode(), key),
                (tag == key, eq_call_ticks(tag, key) + 3)
            );
        }
    }
    for (inventory, armed) in [
        (vec![], false),
        (vec![Item::Shield], true),
        (items.clone(), true),
        (items[..4].to_vec(), false),
        (
            vec![cargo(1, 1), register_part(2), Item::Shield, cargo(3, 3)],
            true,
        ),
    ] {
        for color in Color::ALL {
            let r = robot(vec![], color, 10, 1, inventory.clone());
            assert_eq!(run("input.armed", r.encode(), 0), (armed, armed_ticks(&r)));
            for key in Color::ALL {
                let (c, k) = (color as i64, key as i64);
                assert_eq!(
                    run("input.color_is", r.encode(), k),
                    (c == k, eq_call_ticks(c, k) + 4)
                );
                assert_eq!(
                    run("input.color_not", r.encode(), k),
                    (c != k, eq_call_ticks(c, k) + 10)
                );
            }
        }
    }
}

#[test]
fn find_next_goes_on_after_each_match() {
    // Every cargo of a list, one search after another, with the macro.
    let mut m = Machine::new(
        "use std/control
use std/input
reg list = [Cargo 1 1, Shield, Cargo 2 2, Cargo 3 3, Shield, Cargo 4 4]
reg hits
main:
    input.search list, input.is_cargo, nil
.more:
    jcons input.miss, .done
    push hits, input.n
    call input.find_next
    jmp .more
.done:
    halt
",
    );
    m.run(100_000);
    assert_eq!(m.get("hits"), &ints(&[5, 3, 2, 0]));
    assert!(m.get("input.list").is_nil());
}

#[test]
fn the_module_costs_registers() {
    // std/input declares 24 registers (std/control 4); every label that is
    // jumped to needs one more, and so does every constant.
    let image = build("use std/control\nuse std/input\nmain:\n    halt\n");
    let names: Vec<&str> = image.registers.iter().map(|r| r.name.as_str()).collect();
    let declared = names
        .iter()
        .filter(|n| n.starts_with("input.") && image.labels.iter().all(|l| l.name != **n))
        .count();
    assert_eq!(declared, 24, "{names:?}");
    // Code and constant registers: see docs/stdlib.md (std/input).
    assert!(names.len() <= 7 + 24 + 75, "{} registers", names.len());
}

#[test]
fn the_programs_in_the_docs_assemble() {
    assert_the_docs_program_assembles("input");
}

#[test]
fn the_docs_example_lifts_a_cargo_at_the_front() {
    let image = build(&docs::programs("input")[0]);
    let me = robot(image.memory(), Color::Red, 10, 100_000, vec![]);
    let w = world(
        (1, 1),
        false,
        vec![square(vec![me], vec![cargo(1, 1), Item::Shield])],
    );
    let (w, _, _) = step(w);
    let (w, report, _) = step(w);
    assert_eq!(report.cells[0][0].action, Action::Lifted(0));
    assert_eq!(at(&w, (0, 0)).robots[0].inventory, vec![cargo(1, 1)]);
}

#[test]
fn the_search_macro_costs_three_ticks_more() {
    let mut m = Machine::new(
        "use std/control
use std/input
reg list = [Shield, Cargo 1 1, Shield]
main:
    input.search list, input.is_cargo, nil
    halt
",
    );
    assert_eq!(m.run(10_000), 3 + find_ticks(&[5, 5, 5], Some(1)) + 1);
    assert_eq!(m.get("input.n"), &int(1));
}

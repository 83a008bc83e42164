//! The Shot solver, `examples/shot/shot.cta`: the boards it is given and
//! the moves it leaves, checked against the seed's rules written in Rust
//! (`tests/shot_common/`). Every solution is replayed from the input board
//! move by move; boards come from a generator that makes them solvable by
//! construction, and boards without a solution from random boards that the
//! Rust solver rejects.
//!
//! The seed's three-move example: its pictures (whose whitespace the copy
//! of the seed lost) show one row of four balls, at x = 0, 2, 4 and 5. Move
//! 1 knocks the ball at 0 right: it stops at 1, the ball at 2 rolls to 3,
//! the ball at 4 touches the one at 5, which leaves. Moves 2 and 3 leave one
//! ball. It is played here on row 0, on row 5 and down column 3.

mod examples_common;
mod shot_common;

use constree::asm::parse_literal;
use constree::encoding::{Decode, Encode};
use constree::image::Image;
use constree::machine::{Memory, run_for};
use constree::scenario::random::SplitMix64;
use constree::tree::Tree;
use constree::world::robot::INPUT;
use shot_common::{
    Ball, Dir, Move, Order, apply_move, generate, is_legal, random_board, replay, same_balls,
    solve, solve_plain,
};

const NAME: &str = "shot/shot";

/// More ticks than any board of these tests needs.
const TICKS: i64 = 1_000_000_000;

thread_local! {
    /// The solver's image, assembled once per test thread (trees are not
    /// shared between threads).
    static IMAGE: Image = examples_common::assemble(NAME);
}

/// A fresh memory of the solver.
fn memory() -> Memory {
    IMAGE.with(Image::memory)
}

/// What the program left.
#[derive(Debug)]
struct Answer {
    solved: bool,
    invalid: bool,
    /// `moves` decoded; `None` if it is not a list of `((x, y), d)`.
    moves: Option<Vec<Move>>,
    ticks: u64,
}

fn register<'m>(memory: &'m Memory, name: &str) -> &'m Tree {
    let i = IMAGE
        .with(|image| image.register(name))
        .unwrap_or_else(|| panic!("shot.cta has no register `{name}`"));
    &memory[i].contents
}

/// Runs the program on an input tree (as `constree exec --input` writes it)
/// until it halts.
fn run(input: &Tree) -> Answer {
    let mut memory = memory();
    memory[INPUT].fit_tree(input.clone());
    let report = run_for(TICKS, &mut memory).expect("no machine error");
    assert!(report.halted, "no answer within {TICKS} ticks");
    answer(&memory, report.ticks)
}

fn answer(memory: &Memory, ticks: u64) -> Answer {
    let moves = <Vec<((i64, i64), i64)>>::decode(register(memory, "moves")).and_then(|list| {
        list.into_iter()
            .map(|(ball, code)| Dir::from_code(code).map(|d| (ball, d)))
            .collect()
    });
    Answer {
        solved: register(memory, "solved").is_cons(),
        invalid: register(memory, "invalid").is_cons(),
        moves,
        ticks,
    }
}

/// Runs the program on a board.
fn solve_in_machine(board: &[Ball]) -> Answer {
    run(&board.to_vec().encode())
}

/// The program's answer to a board that has a solution: legal moves, from
/// the input board to one ball, and the very moves the Rust solver finds
/// in the program's order. Returns the ticks and the boards searched.
fn check_solved(board: &[Ball]) -> (u64, u64) {
    let answer = solve_in_machine(board);
    assert!(answer.solved && !answer.invalid, "{board:?}: {answer:?}");
    let moves = answer.moves.expect("moves decode");
    assert_eq!(moves.len(), board.len() - 1, "{board:?}");
    let end = replay(board, &moves).unwrap_or_else(|e| panic!("{board:?}: {e}"));
    assert_eq!(end.len(), 1, "{board:?}: {moves:?} leaves {end:?}");
    let expected = solve(board, Order::Program);
    assert_eq!(Some(moves), expected.solution, "{board:?}");
    assert!(
        answer.ticks <= tick_bound(board.len(), expected.nodes),
        "{board:?}: {} ticks for {} boards",
        answer.ticks,
        expected.nodes
    );
    (answer.ticks, expected.nodes)
}

/// The documented budget (docs/games.md): for a board of n balls, at most
/// 100 + 200 n ticks to read it, set up and write the answer, and 740 + 120
/// n for each board the search visits.
fn tick_bound(balls: usize, nodes: u64) -> u64 {
    let balls = balls as u64;
    100 + 200 * balls + nodes * (740 + 120 * balls)
}

/// The boards of the tests: solvable by construction, one each of 4 to 11
/// balls and 32 of 12.
fn generated_boards() -> Vec<Vec<Ball>> {
    let mut rng = SplitMix64::new(2024);
    let mut sizes: Vec<usize> = (4..=11).collect();
    sizes.extend([12; 32]);
    sizes.iter().map(|&n| generate(&mut rng, n)).collect()
}

// ---------------------------------------------------------------------------
// The Rust rules and solvers.

/// The seed's example, on row `y`.
fn seed_example_on_row(y: i64) -> Vec<Ball> {
    vec![(0, y), (2, y), (4, y), (5, y)]
}

#[test]
fn the_rules_play_the_seeds_example() {
    let board = seed_example_on_row(0);
    let first = ((0, 0), Dir::Right);
    assert!(is_legal(&board, first));
    let after = apply_move(&board, first);
    assert!(same_balls(&after, &[(1, 0), (3, 0), (4, 0)]), "{after:?}");
    let second = ((3, 0), Dir::Left);
    let after = apply_move(&after, second);
    assert!(same_balls(&after, &[(2, 0), (4, 0)]), "{after:?}");
    let third = ((2, 0), Dir::Right);
    assert_eq!(apply_move(&after, third), vec![(3, 0)]);
}

#[test]
fn the_rules_forbid_what_the_seed_forbids() {
    // Off the board directly, and into an adjacent ball.
    assert!(!is_legal(&[(3, 4), (3, 6)], ((3, 4), Dir::Up)));
    assert!(is_legal(&[(3, 4), (3, 6)], ((3, 4), Dir::Down)));
    assert!(!is_legal(&[(3, 4), (3, 5)], ((3, 4), Dir::Down)));
    assert!(!is_legal(&[(3, 4), (4, 4)], ((3, 4), Dir::Right)));
    // A ball that touches the next one passes the blow on without moving.
    let after = apply_move(&[(0, 2), (3, 2), (4, 2), (5, 2)], ((0, 2), Dir::Right));
    assert!(same_balls(&after, &[(2, 2), (3, 2), (4, 2)]), "{after:?}");
}

#[test]
fn the_seed_solves_its_example_in_three_moves() {
    for order in [Order::Seed, Order::Program] {
        let search = solve(&seed_example_on_row(0), order);
        let moves = search.solution.expect("a solution");
        assert_eq!(moves.len(), 3);
        assert_eq!(replay(&seed_example_on_row(0), &moves).unwrap().len(), 1);
    }
}

#[test]
fn skipping_boards_met_before_finds_the_seeds_solution() {
    let mut rng = SplitMix64::new(11);
    for n in 2..=8 {
        for _ in 0..30 {
            let board = random_board(&mut rng, n);
            for order in [Order::Seed, Order::Program] {
                let plain = solve_plain(&board, order);
                let skipping = solve(&board, order);
                assert_eq!(plain.solution, skipping.solution, "{board:?} {order:?}");
                assert!(skipping.nodes <= plain.nodes);
            }
        }
    }
}

#[test]
fn generated_boards_are_solvable_and_as_large_as_asked() {
    let mut rng = SplitMix64::new(5);
    for n in 1..=12 {
        let board = generate(&mut rng, n);
        assert_eq!(board.len(), n);
        assert!(
            board
                .iter()
                .all(|&(x, y)| (0..7).contains(&x) && (0..8).contains(&y))
        );
        let moves = solve(&board, Order::Seed).solution.expect("solvable");
        assert_eq!(replay(&board, &moves).unwrap().len(), 1, "{board:?}");
    }
}

// ---------------------------------------------------------------------------
// The program.

#[test]
fn the_seeds_example_is_solved_as_the_seed_shows() {
    let answer = solve_in_machine(&seed_example_on_row(0));
    assert!(answer.solved);
    assert_eq!(
        answer.moves,
        Some(vec![
            ((0, 0), Dir::Right),
            ((3, 0), Dir::Left),
            ((2, 0), Dir::Right)
        ])
    );
    check_solved(&seed_example_on_row(0));
}

#[test]
fn the_seeds_example_on_another_row_and_down_a_column() {
    check_solved(&seed_example_on_row(5));
    let column: Vec<Ball> = seed_example_on_row(3)
        .iter()
        .map(|&(x, y)| (y, x))
        .collect();
    check_solved(&column);
    let moves = solve_in_machine(&column).moves.unwrap();
    assert_eq!(moves[0], ((3, 0), Dir::Down));
}

#[test]
fn the_generated_boards_are_solved() {
    let boards = generated_boards();
    assert!(boards.len() >= 20);
    assert!(boards.iter().filter(|b| b.len() == 12).count() >= 30);
    for board in &boards {
        check_solved(board);
    }
}

#[test]
fn the_order_of_the_balls_in_the_input_does_not_matter() {
    let board = &generated_boards()[10];
    let mut reversed = board.clone();
    reversed.reverse();
    let a = solve_in_machine(board);
    let b = solve_in_machine(&reversed);
    assert_eq!(a.moves, b.moves);
    assert!(a.solved && b.solved);
}

#[test]
fn boards_without_a_solution_are_reported() {
    // Random boards of 3 to 10 balls, two of each size, that the seed's
    // solver rejects; the program searches all of each.
    let mut rng = SplitMix64::new(99);
    let mut found = 0;
    while found < 16 {
        let board = random_board(&mut rng, 3 + found % 8);
        if solve(&board, Order::Seed).solution.is_some() {
            continue;
        }
        found += 1;
        let expected = solve(&board, Order::Program);
        assert_eq!(expected.solution, None);
        let answer = solve_in_machine(&board);
        assert!(!answer.solved && !answer.invalid, "{board:?}: {answer:?}");
        assert_eq!(answer.moves, Some(vec![]), "{board:?}");
        assert!(
            answer.ticks <= tick_bound(board.len(), expected.nodes),
            "{board:?}"
        );
    }
    // Two balls side by side, or on no common line.
    for board in [vec![(2, 2), (3, 2)], vec![(0, 0), (6, 7)]] {
        let answer = solve_in_machine(&board);
        assert!(!answer.solved && !answer.invalid, "{board:?}");
    }
}

#[test]
fn a_board_of_one_ball_is_solved_without_a_move() {
    for ball in [(0, 0), (6, 7), (3, 4)] {
        let answer = solve_in_machine(&[ball]);
        assert!(answer.solved && !answer.invalid);
        assert_eq!(answer.moves, Some(vec![]));
    }
}

#[test]
fn inputs_that_are_not_boards_are_reported() {
    let literals = [
        "[]",
        "[(7, 0)]",
        "[(0, 8)]",
        "[(-1, 0)]",
        "[(0, -3)]",
        "[(1, 1), (2, 1), (1, 1)]",
        "[(100, 2)]",
        "[nil]",
        "[(1, 2), nil]",
        "[((1, 2), 3)]",
        "[([false], 0)]",
        "[(1, [true, false])]",
        "Move N",
    ];
    for text in literals {
        let input = parse_literal(text).unwrap();
        let answer = run(&input);
        assert!(answer.invalid && !answer.solved, "{text}: {answer:?}");
        assert_eq!(answer.moves, Some(vec![]), "{text}");
    }
}

#[test]
fn the_solver_runs_across_steps_as_exec_runs_it() {
    // A slow processor: the input is written again every step, the machine
    // goes on where it stopped, and the answer is the same.
    let board = &generated_boards()[12];
    let input = board.encode();
    let fast = solve_in_machine(board);
    let speed = 1_000;
    let mut memory = memory();
    let mut ticks = 0;
    for _ in 0..fast.ticks.div_ceil(speed as u64) + 1 {
        memory[INPUT].fit_tree(input.clone());
        ticks += run_for(speed, &mut memory).expect("no machine error").ticks;
    }
    let slow = answer(&memory, ticks);
    assert_eq!(slow.ticks, fast.ticks);
    assert_eq!(slow.moves, fast.moves);
    assert!(slow.solved);
}

// ---------------------------------------------------------------------------
// As an example program: header, listing, the command it documents.

#[test]
fn the_example_has_a_header_and_its_command_runs() {
    let text = examples_common::source(NAME);
    assert!(text.starts_with("; shot.cta: "));
    let outputs = examples_common::run_documented_commands(NAME);
    assert_eq!(outputs.len(), 1, "one command in the header");
    // What it shows of the answer (the listing of the whole image, over
    // 5,000 lines of unrolled code, is not worth a snapshot).
    let answer: Vec<&str> = outputs[0]
        .lines()
        .filter(|l| {
            l.starts_with("step ")
                || ["solved", "moves", "invalid"]
                    .contains(&l.split_whitespace().nth(1).unwrap_or(""))
        })
        .collect();
    insta::assert_snapshot!("exec_shot", answer.join("\n"));
}

/// The figures of docs/games.md: ticks and boards searched over the test
/// boards, and over 200 more boards of 12 balls.
/// `cargo test --release --test shot -- --ignored --nocapture`.
#[test]
#[ignore]
fn tick_figures() {
    let mut rng = SplitMix64::new(1);
    let more: Vec<Vec<Ball>> = (0..200).map(|_| generate(&mut rng, 12)).collect();
    // A quantile of a sorted list.
    let at = |v: &[u64], q: f64| v[((v.len() - 1) as f64 * q) as usize];
    let mut plain: Vec<u64> = more
        .iter()
        .map(|b| solve_plain(b, Order::Program).nodes)
        .collect();
    plain.sort();
    println!(
        "12 balls, without skipping boards met before: boards searched median {}, 90% {}, largest {}",
        at(&plain, 0.5),
        at(&plain, 0.9),
        at(&plain, 1.0)
    );
    for (title, boards) in [("test boards", generated_boards()), ("12 balls", more)] {
        let mut runs: Vec<(u64, u64)> = boards.iter().map(|b| check_solved(b)).collect();
        let hardest = (0..boards.len()).max_by_key(|&i| runs[i].0).unwrap();
        println!("{title}: the most ticks for {:?}", boards[hardest]);
        runs.sort();
        let per_board = runs
            .iter()
            .map(|&(t, n)| t as f64 / n as f64)
            .fold(0.0, f64::max);
        let (ticks, nodes): (Vec<u64>, Vec<u64>) = runs.iter().copied().unzip();
        let mut nodes = nodes;
        nodes.sort();
        println!(
            "{title}: {} boards; ticks median {}, 90% {}, largest {}; \
             boards searched median {}, largest {}; at most {per_board:.0} ticks per board searched",
            runs.len(),
            at(&ticks, 0.5),
            at(&ticks, 0.9),
            at(&ticks, 1.0),
            at(&nodes, 0.5),
            at(&nodes, 1.0),
        );
    }
}

//! The Shot puzzle in Rust, written from the seed's Haskell code
//! (`shot-solver.lhs`): its rules (`isLegal`, `applyMove`, `isSolved`), its
//! backtracking solver, and a generator of boards that are solvable by
//! construction (random reverse moves from a single ball).
//!
//! A board is a list of balls `(x, y)` on a grid 7 wide (x 0..6) and 8 high
//! (y 0..7). A move knocks one ball in one of four directions; the seed's
//! `Up` is y - 1, `Down` y + 1, `Left` x - 1, `Right` x + 1.

use constree::scenario::random::SplitMix64;
use std::collections::HashSet;

/// A ball: `(x, y)`.
pub type Ball = (i64, i64);

/// The grid's width (x 0..6) and height (y 0..7): the seed's `outsideBounds`.
pub const WIDTH: i64 = 7;
pub const HEIGHT: i64 = 8;

/// A direction, as the seed names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    /// The seed's order of directions in `possibleMoves`.
    pub const SEED_ORDER: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The report's direction Int: N = 0 (up), E = 2, S = 4, W = 6.
    pub fn code(self) -> i64 {
        match self {
            Dir::Up => 0,
            Dir::Right => 2,
            Dir::Down => 4,
            Dir::Left => 6,
        }
    }

    /// The direction of a report's direction Int, if it is one of the four.
    pub fn from_code(code: i64) -> Option<Dir> {
        Dir::SEED_ORDER.into_iter().find(|d| d.code() == code)
    }

    /// One square on: the seed's `newCoords`.
    pub fn step(self, (x, y): Ball) -> Ball {
        match self {
            Dir::Up => (x, y - 1),
            Dir::Down => (x, y + 1),
            Dir::Left => (x - 1, y),
            Dir::Right => (x + 1, y),
        }
    }
}

/// A move: the ball knocked and its direction (the seed's `Step`).
pub type Move = (Ball, Dir);

/// The seed's `outsideBounds`.
pub fn outside((x, y): Ball) -> bool {
    !(0..WIDTH).contains(&x) || !(0..HEIGHT).contains(&y)
}

/// The seed's `isLegal`: the square next to the ball is free, and some ball
/// further on in that direction will stop it.
pub fn is_legal(board: &[Ball], (ball, dir): Move) -> bool {
    let will_be_stopped = board.iter().any(|&b| ahead(ball, dir, b));
    let not_adjacent = !board.contains(&dir.step(ball));
    not_adjacent && will_be_stopped
}

/// Whether the ball `(bx, by)` lies past `(x, y)` on its line in direction
/// `dir` (the seed's `checkFor`).
fn ahead((x, y): Ball, dir: Dir, (bx, by): Ball) -> bool {
    match dir {
        Dir::Up => bx == x && by < y,
        Dir::Down => bx == x && by > y,
        Dir::Left => bx < x && by == y,
        Dir::Right => bx > x && by == y,
    }
}

/// The seed's `applyMove`: the ball rolls until the square before the next
/// ball, which it strikes; the struck ball rolls on in the same direction
/// (even when it was touching the one that hit it), and so on; the last one
/// leaves the grid and is removed. The balls that moved go to the front of
/// the list, as in the seed (which changes the order of its search).
pub fn apply_move(board: &[Ball], (ball, dir): Move) -> Vec<Ball> {
    // `moveBall` looks at the board the move started from.
    let roll = |mut b: Ball| {
        while !outside(b) && !board.contains(&dir.step(b)) {
            b = dir.step(b);
        }
        b
    };
    let mut current = board.to_vec();
    let mut ball = ball;
    loop {
        let moved = roll(ball);
        let next = dir.step(moved);
        let before = current.clone();
        if let Some(i) = current.iter().position(|&b| b == ball) {
            current.remove(i);
        }
        current.insert(0, moved);
        if before.contains(&next) {
            ball = next;
        } else {
            break;
        }
    }
    current.retain(|&b| !outside(b));
    current
}

/// The seed's `isSolved`: one ball left.
pub fn is_solved(board: &[Ball]) -> bool {
    board.len() == 1
}

/// The order in which a solver tries the moves of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// The seed's `possibleMoves`: the balls in the board's list order
    /// (which `apply_move` changes), each Up, Down, Left, Right.
    Seed,
    /// The order of `examples/shot/shot.cta`: the rows from the top, each
    /// row's balls knocked right from the left, then left from the right;
    /// then the columns from the left, each column's balls knocked down from
    /// the top, then up from the bottom.
    Program,
}

/// The legal moves of a board, in a solver's order.
pub fn legal_moves(board: &[Ball], order: Order) -> Vec<Move> {
    let candidates: Vec<Move> = match order {
        Order::Seed => board
            .iter()
            .flat_map(|&b| Dir::SEED_ORDER.map(|d| (b, d)))
            .collect(),
        Order::Program => {
            let mut by_row = board.to_vec();
            by_row.sort_by_key(|&(x, y)| (y, x));
            let mut by_column = board.to_vec();
            by_column.sort();
            let lines = |balls: &[Ball], line: fn(Ball) -> i64, forward: Dir, back: Dir| {
                let mut moves = Vec::new();
                for group in balls.chunk_by(|a, b| line(*a) == line(*b)) {
                    moves.extend(group.iter().map(|&b| (b, forward)));
                    moves.extend(group.iter().rev().map(|&b| (b, back)));
                }
                moves
            };
            let mut moves = lines(&by_row, |b| b.1, Dir::Right, Dir::Left);
            moves.extend(lines(&by_column, |b| b.0, Dir::Down, Dir::Up));
            moves
        }
    };
    candidates
        .into_iter()
        .filter(|&m| is_legal(board, m))
        .collect()
}

/// What a backtracking search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// The first solution in the search order (the seed's `solve`), or
    /// `None` when the board has none.
    pub solution: Option<Vec<Move>>,
    /// The boards visited (calls of `solve`), the first included.
    pub nodes: u64,
}

/// The seed's `solve` (depth first, the first legal move first, stopping at
/// the first solution), skipping the boards of three balls or more that it
/// has met before, as `shot.cta` does. A board met again had no solution the
/// first time, so the solution found is the seed's: see [`solve_plain`].
pub fn solve(board: &[Ball], order: Order) -> Search {
    search(board, order, true)
}

/// The seed's `solve` exactly, without skipping any board.
pub fn solve_plain(board: &[Ball], order: Order) -> Search {
    search(board, order, false)
}

fn search(board: &[Ball], order: Order, memo: bool) -> Search {
    struct State {
        order: Order,
        memo: bool,
        seen: HashSet<Vec<Ball>>,
        nodes: u64,
    }
    fn go(board: &[Ball], s: &mut State) -> Option<Vec<Move>> {
        s.nodes += 1;
        if is_solved(board) {
            return Some(Vec::new());
        }
        if s.memo && board.len() >= 3 {
            let mut key = board.to_vec();
            key.sort();
            if !s.seen.insert(key) {
                return None;
            }
        }
        for m in legal_moves(board, s.order) {
            if let Some(mut rest) = go(&apply_move(board, m), s) {
                rest.insert(0, m);
                return Some(rest);
            }
        }
        None
    }
    let mut state = State {
        order,
        memo,
        seen: HashSet::new(),
        nodes: 0,
    };
    let solution = go(board, &mut state);
    Search {
        solution,
        nodes: state.nodes,
    }
}

/// Plays `moves` from `board`, checking that each is legal (the ball is on
/// the board and `is_legal`), and returns the final board, or the first
/// move that cannot be played.
pub fn replay(board: &[Ball], moves: &[Move]) -> Result<Vec<Ball>, String> {
    let mut board = board.to_vec();
    for (k, &m) in moves.iter().enumerate() {
        if !board.contains(&m.0) {
            return Err(format!("move {k} {m:?}: no ball there on {board:?}"));
        }
        if !is_legal(&board, m) {
            return Err(format!("move {k} {m:?} is illegal on {board:?}"));
        }
        board = apply_move(&board, m);
    }
    Ok(board)
}

/// The same set of balls.
pub fn same_balls(a: &[Ball], b: &[Ball]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort();
    b.sort();
    a == b
}

/// A board of `balls` balls, solvable by construction: from a random single
/// ball, random reverse moves, each one checked by playing it forwards (a
/// board P is a predecessor of B when some legal move on P gives B). The
/// balls come sorted by row, then column, as the seed's `strToBoard` reads
/// a picture.
pub fn generate(rng: &mut SplitMix64, balls: usize) -> Vec<Ball> {
    let mut board = vec![random_square(rng)];
    let mut tries = 0;
    while board.len() < balls {
        match random_predecessor(rng, &board) {
            Some(predecessor) => board = predecessor,
            // Some boards have no predecessor (a lone ball in a corner, or
            // balls on every edge square of their lines): start again.
            None if tries > GIVE_UP => {
                board = vec![random_square(rng)];
                tries = 0;
            }
            None => tries += 1,
        }
    }
    board.sort_by_key(|&(x, y)| (y, x));
    board
}

/// Failed tries at a predecessor before [`generate`] starts again.
const GIVE_UP: u32 = 10_000;

fn random_square(rng: &mut SplitMix64) -> Ball {
    (
        rng.below(WIDTH as u64) as i64,
        rng.below(HEIGHT as u64) as i64,
    )
}

/// One try at undoing a move: a random free square for the knocked ball and
/// a random direction. The move's effect on its line is a shift: from the
/// knocked ball's square on, every square takes what the next square held,
/// and the last square of the line becomes free. So the board before it
/// has the knocked ball on its square and every ball after it one square
/// further on. `None` when that board does not exist or the move would not
/// give `board` back.
fn random_predecessor(rng: &mut SplitMix64, board: &[Ball]) -> Option<Vec<Ball>> {
    let start = random_square(rng);
    let dir = Dir::SEED_ORDER[rng.below(4) as usize];
    if board.contains(&start) {
        return None;
    }
    let mut before: Vec<Ball> = board
        .iter()
        .map(|&b| if ahead(start, dir, b) { dir.step(b) } else { b })
        .collect();
    before.push(start);
    let m = (start, dir);
    let valid = before.iter().all(|&b| !outside(b))
        && is_legal(&before, m)
        && same_balls(&apply_move(&before, m), board);
    valid.then_some(before)
}

/// `count` distinct random squares, sorted by row, then column.
pub fn random_board(rng: &mut SplitMix64, count: usize) -> Vec<Ball> {
    let mut board = Vec::new();
    while board.len() < count {
        let b = random_square(rng);
        if !board.contains(&b) {
            board.push(b);
        }
    }
    board.sort_by_key(|&(x, y)| (y, x));
    board
}

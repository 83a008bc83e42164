//! The tree pool's memory safety: a tree that outlives its thread's pool
//! (kept in a thread-local destroyed after it) is released into memory that
//! is still the pool's, and a short game allocates and frees as it should.
//! CI runs this binary under valgrind as well (`.ci/run`): test binaries use
//! the system allocator, which shows freed slabs to valgrind.

use constree::scenario::builtin;
use constree::scenario::game::Game;
use constree::tree::Tree;
use constree::world::World;
use std::cell::RefCell;

thread_local! {
    /// Trees kept until the thread ends.
    static KEPT: RefCell<Vec<Tree>> = const { RefCell::new(Vec::new()) };
    /// Worlds kept until the thread ends.
    static WORLDS: RefCell<Vec<World>> = const { RefCell::new(Vec::new()) };
}

/// A list of `n` nodes, each a fresh cons.
fn spine(n: usize) -> Tree {
    Tree::list((0..n).map(|_| Tree::unit()))
}

#[test]
fn a_tree_in_a_thread_local_destroyed_after_the_pool_is_released_safely() {
    std::thread::spawn(|| {
        // KEPT is set up before the thread's first tree: thread-locals are
        // destroyed in the reverse order, so it is destroyed after the pool.
        KEPT.with(|k| k.borrow_mut().reserve(4));
        // Many slabs, so the trees kept lie in slabs the pool would return.
        let garbage: Vec<Tree> = (0..8).map(|_| spine(20_000)).collect();
        let kept = spine(50_000);
        let shared = Tree::cons(kept.clone(), garbage[3].clone());
        drop(garbage);
        KEPT.with(|k| k.borrow_mut().extend([kept, shared]));
    })
    .join()
    .expect("the thread ends cleanly");
    // The pool must still serve new threads after that.
    std::thread::spawn(|| assert_eq!(spine(10_000).size(), 20_000))
        .join()
        .unwrap();
}

#[test]
fn a_short_game_plays_on_threads_that_come_and_go() {
    for _ in 0..2 {
        std::thread::spawn(|| {
            WORLDS.with(|w| w.borrow_mut().reserve(1));
            let scenario = builtin::scenario().unwrap();
            let mut game = Game::new(&scenario);
            for _ in 0..5 {
                game.play_step(None);
            }
            WORLDS.with(|w| w.borrow_mut().push(game.world.clone()));
        })
        .join()
        .unwrap();
    }
}

//! `run_capped`: a run stopped when the trees it built take more than a
//! number of nodes, in the machine-private arena ([`super::arena`]).

use super::arena::{Arena, Interrupt};
use super::run::Running;
use super::{Pause, Register};

/// The arena's size at which it is first collected; afterwards it is
/// collected when it has doubled since the last collection.
const FIRST_COLLECTION: usize = 1 << 14;

/// The most nodes the arena holds: a run that keeps more alive goes on on
/// plain trees, whose memory grows and shrinks with them.
const LARGEST: usize = 1 << 22;

/// The arena's size at which it is next collected, when it holds `size`
/// nodes and can take `room` more before the run might hold more than its
/// cap: twice its size, but no more than the cap needs or [`LARGEST`].
fn collection_size(size: usize, room: u64) -> usize {
    let room = usize::try_from(room.saturating_add(1)).unwrap_or(usize::MAX);
    (2 * size)
        .max(FIRST_COLLECTION)
        .min(size.saturating_add(room))
        .min(LARGEST)
}

/// Runs up to `budget` ticks, stopping before the first instruction (the
/// program register not Nil) at which more than `max_nodes` nodes that the
/// run built are reachable from the memory (register 0 from the program's
/// next instruction): the memory the run takes, in nodes, however large
/// its trees are logically. Returns the ticks executed and why it paused;
/// the memory is left as [`super::run_until`] with that test before every
/// tick leaves it.
///
/// The run goes in stretches in the arena: a tick builds at most one node,
/// and the nodes built since the last collection bound those reachable
/// from above, so only when that bound passes `max_nodes` (or the arena
/// has doubled) is it collected, which counts them exactly. When the nodes
/// the run holds come so near `max_nodes` that collections would come
/// every few ticks, the rest of the run is on plain trees, counting the
/// nodes alive after each stretch ([`run_trees`]); so does a run that holds
/// more than half of [`LARGEST`]. A run that reads a register the arena did
/// not load starts again with it loaded ([`Arena::restart`]).
pub fn run_capped(memory: &mut [Register], budget: u64, max_nodes: u64) -> (u64, Pause) {
    if memory.is_empty() {
        return (0, Pause::Halted);
    }
    let mut arena = Arena::load(memory);
    let (ticks, ending) = loop {
        match run_loaded(&mut arena, budget, max_nodes) {
            Ok(done) => break done,
            Err(slot) => arena.restart(memory, slot),
        }
    };
    let origins = arena.unload(memory);
    match ending {
        Ok(pause) => (ticks, pause),
        Err(built) => {
            // The memory's own nodes stay alive (held by `origins`), so
            // the nodes alive beyond `base` are the run's.
            let base = crate::tree::nodes_alive().saturating_sub(built);
            let (more, pause) = run_trees(memory, budget - ticks, max_nodes, base);
            drop(origins);
            (ticks + more, pause)
        }
    }
}

/// [`run_capped`] in the arena as loaded: the ticks executed, and why the
/// run paused, or the number of nodes the run holds when the rest must be
/// run on plain trees; `Err` with a register the next instruction reads
/// that is not loaded.
fn run_loaded(
    arena: &mut Arena,
    budget: u64,
    max_nodes: u64,
) -> Result<(u64, Result<Pause, u64>), usize> {
    // A tick builds at most one node: the run never needs room for more
    // than its budget.
    let mut collect_at = collection_size(arena.size(), max_nodes.min(budget));
    arena.reserve(collect_at);
    let mut ticks = 0;
    let ending = loop {
        if ticks >= budget {
            break Ok(Pause::Budget);
        }
        if arena.halted() {
            break Ok(Pause::Halted);
        }
        let mut built = arena.built();
        if built > max_nodes || arena.size() >= collect_at {
            arena.collect();
            built = arena.built();
            if built > max_nodes {
                break Ok(Pause::Stopped);
            }
            let room = (max_nodes - built).saturating_add(1);
            if room.saturating_mul(8) < arena.size() as u64 || arena.size() > LARGEST / 2 {
                break Err(built);
            }
            collect_at = collection_size(arena.size(), max_nodes - built);
            arena.reserve(collect_at);
        }
        // Before the k-th tick of the stretch at most `built + k` nodes
        // are the run's: not more than `max_nodes` while k < stretch.
        let stretch = (max_nodes - built)
            .saturating_add(1)
            .min((collect_at - arena.size()) as u64)
            .min(budget - ticks);
        let (done, result) = arena.run(stretch);
        ticks += done;
        match result {
            Ok(_) => {}
            Err(Interrupt::Failed(e)) => break Ok(Pause::Failed(e)),
            Err(Interrupt::Load(slot)) => return Err(slot),
        }
    };
    Ok((ticks, ending))
}

/// The rest of [`run_capped`] on plain trees, when more than `max_nodes`
/// nodes alive beyond `base` are the run's: in stretches that cannot pass
/// `max_nodes`, counting the nodes alive after each, with the program
/// register put back between stretches (so that the instructions already
/// run are not held).
fn run_trees(memory: &mut [Register], budget: u64, max_nodes: u64, base: u64) -> (u64, Pause) {
    let mut ticks = 0;
    let pause = loop {
        if ticks >= budget {
            break Pause::Budget;
        }
        if memory[0].contents.is_nil() {
            break Pause::Halted;
        }
        let over = crate::tree::nodes_alive().saturating_sub(base);
        if over > max_nodes {
            break Pause::Stopped;
        }
        let stretch = (max_nodes - over).saturating_add(1).min(budget - ticks);
        let mut running = Running::<false>::new(memory);
        let (done, result) = running.run(stretch);
        running.stop();
        ticks += done;
        if let Err(e) = result {
            break Pause::Failed(e);
        }
    };
    (ticks, pause)
}

//! The JSON readers of `world step` and `machine run` on arbitrary bytes, in
//! the plain form and the shared form (`{"format": "constree-shared",
//! "version": 1, "nodes": [...], "value": ...}`): a document or an error,
//! never a panic. What reads is written back in both forms and read again to
//! the same value, then stepped (a world) or run (a machine), twice to the
//! same result, and the result goes round the shared form too.
#![no_main]

use constree::machine::{MachineDocument, Outcome};
use constree::tree::json;
use constree::world::{WorldDocument, update};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// The most bytes of plain JSON written back (a few shared nodes can stand
/// for gigabytes of preorder text).
const MAX_PLAIN: usize = 1 << 20;

/// A writer that fails past [`MAX_PLAIN`] bytes.
struct Capped(Vec<u8>);

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len() + buf.len() > MAX_PLAIN {
            return Err(std::io::Error::other("too long for the fuzzer"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes `value` in the shared form (and in the plain form, when that is
/// short) and reads each back as `T`, which must give `value` again.
fn round_trip<V, T>(value: &V, back: impl Fn(T) -> V)
where
    V: Serialize + PartialEq + Debug,
    T: DeserializeOwned,
{
    for shared in [true, false] {
        let mut out = Capped(Vec::new());
        if json::to_writer(&mut out, value, shared).is_err() {
            assert!(!shared, "the shared form writes whatever the trees' size");
            continue;
        }
        let text = String::from_utf8(out.0).expect("JSON is UTF-8");
        let read = json::from_str::<T>(&text)
            .unwrap_or_else(|e| panic!("what was written reads back: {e}\n{text}"));
        assert_eq!(&back(read), value, "shared: {shared}");
    }
}

fn world(WorldDocument(world): WorldDocument) {
    round_trip(&world, |WorldDocument(w)| w);
    if !constree_fuzz::quick_world(&world, 1) {
        return;
    }
    let shape = world.shape();
    let next = update(world.clone());
    assert_eq!(next.shape(), shape);
    assert_eq!(update(world), next, "a step is deterministic");
    round_trip(&next, |WorldDocument(w)| w);
}

fn machine(MachineDocument { speed, memory }: MachineDocument) {
    round_trip(&memory, |MachineDocument { memory, .. }| memory);
    let speed = speed.unwrap_or(100);
    if !(0..=2000).contains(&speed) {
        return;
    }
    let outcome = Outcome::of_run(speed, memory.clone());
    assert_eq!(
        Outcome::of_run(speed, memory),
        outcome,
        "a run is deterministic"
    );
    if let Outcome::Err { wiped, .. } = &outcome {
        assert!(
            wiped.iter().all(|r| r.contents.is_nil()),
            "a failed run wipes"
        );
    }
    round_trip(&outcome, |o: Outcome| o);
}

fn documents(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(document) = json::from_str::<WorldDocument>(text) {
        world(document);
    }
    if let Ok(document) = json::from_str::<MachineDocument>(text) {
        machine(document);
    }
}

fuzz_target!(
    init: {
        // Plain text of at most 1 MiB a tree, as `CONSTREE_MAX_TEXT` sets it
        // for the command line.
        // SAFETY: set once, before the fuzzer reads anything, on its one thread.
        unsafe { std::env::set_var("CONSTREE_MAX_TEXT", MAX_PLAIN.to_string()) };
    },
    |data: &[u8]| documents(data)
);

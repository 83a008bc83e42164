//! Tournaments on arbitrary scenario text (seeded with the example games,
//! `[[slot]]`s and all) between up to four small players of the examples:
//! a tournament of two rounds is set up (or refused with an error) and its
//! first round played twice and recorded, never a panic. The round is
//! deterministic (the same result each time), the recording is the round
//! played, and the recorded scenario starts at the recorded start, which
//! the engine takes to the recorded end; the replay's JSON reads back.
#![no_main]

use constree::asm::source::{DiskLoader, MemoryLoader};
use constree::scenario::replay::Replay;
use constree::scenario::tournament::{Entrant, Tournament};
use constree::scenario::{Scenario, load_program};
use constree::world::update;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// The players' programs, from the examples.
const PLAYERS: [&str; 4] = [
    "examples/fight/striker.cta",
    "examples/arena/random.cta",
    "examples/arena/hunter.cta",
    "examples/arena/passer.cta",
];

thread_local! {
    /// The players, assembled once.
    static ENTRANTS: Vec<Entrant> = PLAYERS
        .iter()
        .map(|path| {
            let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
            let image = load_program(&DiskLoader::new(None), &file)
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            let name = file.file_stem().unwrap().to_string_lossy().into_owned();
            Entrant { name, image }
        })
        .collect();
}

/// The scenario's own robots all run a program that passes.
fn programs(name: &str) -> Result<constree::image::Image, String> {
    let source = "use std/control\nreg out = Pass\nmain:\n    emit Pass\n    jmp main\n";
    let loader = MemoryLoader::default().with(name, source);
    load_program(&loader, Path::new(name))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(scenario) = Scenario::from_text("fuzz.toml", &text, &programs) else {
        return;
    };
    if !constree_fuzz::quick_scenario(&scenario, scenario.steps) {
        return;
    }
    ENTRANTS.with(|entrants| {
        // As many players as slots (one to four), rotated by the text's length.
        let count = scenario.slots.len().clamp(1, entrants.len());
        let players: Vec<Entrant> = (0..count)
            .map(|k| entrants[(k + text.len()) % entrants.len()].clone())
            .collect();
        let Ok(tournament) = Tournament::new(&scenario, &text, &players, 2, text.len() as u64)
        else {
            return;
        };
        let first = tournament.play_round(1).expect("a set-up tournament plays");
        assert_eq!(tournament.play_round(1).unwrap(), first, "deterministic");
        let (recorded, replay) = tournament.record_round(1).expect("a round records");
        assert_eq!(recorded, first, "the recording is the round played");
        let text = replay.to_json();
        assert_eq!(
            Replay::from_json(&text).expect("a replay reads back"),
            replay
        );
        let start = replay.scenario().expect("the recorded scenario loads");
        assert_eq!(Some(&start.world(start.seed).0), replay.first_world());
        let end = (0..scenario.steps).fold(replay.world(0).unwrap(), |w, _| update(w));
        assert_eq!(&end, replay.last_world().unwrap());
    });
});

//! The debugger's command language on arbitrary lines, on the walk
//! example: output or a one-line error, never a panic. Counts are capped so
//! that one input stays quick.
#![no_main]

use constree::debugger::Debugger;
use constree::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

const SCENARIO: &str = "steps = 6\n[world]\nsize = [3, 2]\n[[item]]\nat = [1, 0]\ncargo = [3, 2]\n[[robot]]\nname = \"walker\"\nat = [0, 0]\nspeed = 40\nprogram = \"walker.cta\"\n";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let programs = |name: &str| {
        let loader = constree::asm::source::MemoryLoader::default()
            .with(name, include_str!("../../examples/walker.cta"));
        constree::scenario::load_program(&loader, std::path::Path::new(name))
    };
    let scenario = Scenario::from_text("fuzz.toml", SCENARIO, &programs).unwrap();
    let mut debugger = Debugger::for_scenario(scenario, Vec::new()).unwrap();
    for line in text.lines().take(16) {
        // No number of more than 3 digits: runs stay short.
        let long_number = line
            .split(|c: char| !c.is_ascii_digit())
            .any(|n| n.len() > 3);
        if long_number {
            continue;
        }
        let _ = debugger.execute(line);
    }
});

//! The scenario loader on arbitrary text: a scenario or a located error;
//! what loads builds its world, and its `[expect]` table, if any, is
//! checked (when the game it plays is short), the same way twice.
#![no_main]

use constree::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let programs = |name: &str| -> Result<constree::image::Image, String> {
        let source = "use std/control\nreg out = Pass\nmain:\n    emit Pass\n    jmp main\n";
        let loader = constree::asm::source::MemoryLoader::default().with(name, source);
        constree::scenario::load_program(&loader, std::path::Path::new(name))
    };
    if let Ok(scenario) = Scenario::from_text("fuzz.toml", &text, &programs) {
        let (world, _) = scenario.world(scenario.seed);
        let _ = constree::scenario::game::scores(&scenario, &world);
        if let Some(expect) = &scenario.expect
            && constree_fuzz::quick_scenario(&scenario, expect.steps)
        {
            let run = expect.run(&scenario);
            assert_eq!(run.outcomes.len(), expect.checks.len(), "every check is made");
            assert_eq!(expect.run(&scenario), run, "deterministic");
        }
    }
});

//! The debugger: scripted sessions (golden transcripts of `constree debug
//! --batch`), exact reverse execution, and the world after every complete
//! step against the plain engine's.

mod cli_common;

use cli_common::{constree, scratch_dir, text};
use std::path::Path;

/// Runs every `.dbg` script of `folder` (under the repository) in batch
/// mode, its first line `# args: ...` giving the command line (with each
/// `{KEY}` of `substitutions` replaced), and checks each transcript and
/// exit code against the golden `PREFIX_NAME` snapshot. Gives the count.
fn golden_scripts(folder: &str, prefix: &str, substitutions: &[(&str, &str)]) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dbg"))
        .collect();
    scripts.sort();
    for script in &scripts {
        let body = std::fs::read_to_string(script).unwrap();
        let mut args = body
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# args:"))
            .expect("a script starts with `# args:`")
            .to_string();
        for (key, value) in substitutions {
            args = args.replace(&format!("{{{key}}}"), value);
        }
        let rel = script.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
        let rel = rel.to_str().unwrap().trim_start_matches('/');
        let mut argv = vec!["debug"];
        argv.extend(args.split_whitespace());
        argv.extend(["--batch", rel]);
        let out = constree(&argv, "");
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        let transcript = format!(
            "{}exit code: {}\n{stderr}",
            text(&out.stdout),
            out.status.code().unwrap_or(-1)
        );
        let name = script.file_stem().unwrap().to_str().unwrap().to_string();
        insta::assert_snapshot!(format!("{prefix}_{name}"), transcript);
    }
    scripts.len()
}

/// Every `tests/debugger/*.dbg` script, run in batch mode; its first line
/// `# args: ...` gives the command line. The transcript and the exit code
/// are golden.
#[test]
fn scripted_sessions() {
    assert!(golden_scripts("tests/debugger", "debug", &[]) >= 6);
}

/// Every `tests/debugger/recorded/*.dbg` script, on recorded games: its
/// `# args:` may name `{arena}`, a round of the arena between `breeder`
/// and `hunter` recorded for the test. The transcript is golden.
#[test]
fn scripted_sessions_on_recorded_games() {
    let dir = scratch_dir("debug_recorded");
    let arena = dir.join("arena.json");
    let out = constree(
        &[
            "tournament",
            "--game",
            "examples/arena/arena.toml",
            "--rounds",
            "1",
            "--record-round",
            "1",
            arena.to_str().unwrap(),
            "--players",
            "examples/arena/breeder.cta",
            "examples/arena/hunter.cta",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let recorded = [("arena", arena.to_str().unwrap())];
    assert!(golden_scripts("tests/debugger/recorded", "debug_recorded", &recorded) >= 1);
    positions_printed_in_stops_are_breakpoint_locations(&arena);
}

/// A child whose parent's image does not embed its program (an image
/// built by an older constree) gets the source map of a program named with
/// `--image`, and has none without it.
#[test]
fn images_named_on_the_command_line_map_children() {
    let dir = scratch_dir("debug_image_option");
    let image = dir.join("builder.ctm");
    let out = constree(
        &[
            "asm",
            "examples/builder/builder.cta",
            "-o",
            image.to_str().unwrap(),
            "--image-format",
            "json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // As an older constree wrote it: no embedded images.
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&image).unwrap()).unwrap();
    assert!(json.as_object_mut().unwrap().remove("images").is_some());
    std::fs::write(&image, json.to_string()).unwrap();
    let scenario = std::fs::read_to_string("examples/builder/workshop.toml")
        .unwrap()
        .replace("program = \"builder.cta\"", "program = \"builder.ctm\"");
    let workshop = dir.join("workshop.toml");
    std::fs::write(&workshop, scenario).unwrap();
    let commands = "catch build\ncontinue\nfocus 0,0#1\nlist\n";
    let without = constree(&["debug", workshop.to_str().unwrap()], commands);
    assert!(
        text(&without.stdout).contains("error: the focused robot has no source map"),
        "{}",
        text(&without.stdout)
    );
    let with = constree(
        &[
            "debug",
            workshop.to_str().unwrap(),
            "--image",
            "examples/builder/worker.cta",
        ],
        commands,
    );
    let transcript = text(&with.stdout);
    assert!(with.status.success(), "{transcript}");
    assert!(
        transcript.contains(">   11 |     wait_step"),
        "{transcript}"
    );
}

/// The place every stop prints (`LABEL`, `LABEL+K`), typed back to
/// `break`, sets a breakpoint at that very place: over 7,000 instructions
/// of the arena's `breeder`, whose code shares much with the standard
/// library's.
fn positions_printed_in_stops_are_breakpoint_locations(replay: &Path) {
    let replay = replay.to_str().unwrap();
    let steps = "stepi 13\n".repeat(600);
    let out = constree(&["debug", "--replay", replay, "--robot", "breeder"], &steps);
    let transcript = text(&out.stdout);
    let mut places: Vec<String> = transcript
        .lines()
        .filter_map(|l| l.split_once(" of 4000: ")?.1.split_once(" `"))
        .map(|(place, _)| place.to_string())
        .collect();
    places.sort();
    places.dedup();
    assert!(places.len() > 30, "{transcript}");
    assert!(places.iter().any(|p| p.contains('+')), "{places:?}");
    let breaks: String = places.iter().map(|p| format!("break {p}\n")).collect();
    let out = constree(
        &["debug", "--replay", replay, "--robot", "breeder"],
        &breaks,
    );
    let transcript = text(&out.stdout);
    assert!(out.status.success(), "{transcript}");
    for (k, place) in places.iter().enumerate() {
        let set = format!("Breakpoint {} at {place} `", k + 1);
        assert!(transcript.contains(&set), "{set}\n{transcript}");
    }
}

#[test]
fn commands_on_standard_input_are_a_batch() {
    let out = constree(
        &["debug", "examples/walk/walk.toml"],
        "stepi\nprint out /command\n",
    );
    assert!(out.status.success());
    let transcript = text(&out.stdout);
    assert!(
        transcript.contains("> stepi\nstep 1, tick 1 of 1000"),
        "{transcript}"
    );
    assert!(
        transcript.contains("> print out /command\nout = Move E"),
        "{transcript}"
    );
    let out = constree(&["debug", "examples/walk/walk.toml"], "nonsense\nstepi\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("error: unknown command \"nonsense\""));
}

/// The commands a table of docs/debugger.md names in its column `column`
/// (the first table after `heading`), each checked to be a command of the
/// debugger's table (or a short form of one).
fn commands_named_in(heading: &str, column: usize) -> Vec<&'static str> {
    use constree::debugger::commands::find;
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/debugger.md"))
            .unwrap();
    let section = page.split(heading).nth(1).unwrap();
    let rows: Vec<String> = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.replace("\\|", "/"))
        .collect();
    assert!(rows.len() > 20, "{rows:?}");
    let mut named = Vec::new();
    for row in &rows {
        let cells: Vec<&str> = row.split('|').collect();
        assert_eq!(cells.len(), 4, "{row}");
        for span in cells[column].split('`').skip(1).step_by(2) {
            let word = span.split_whitespace().next().unwrap_or("");
            // The line that closes `commands` and `define`.
            if word == "end" {
                continue;
            }
            let command = find(word).unwrap_or_else(|| panic!("`{word}` is no command: {row}"));
            named.push(command.name);
        }
    }
    named
}

/// docs/debugger.md's table of gdb and rr commands, and its table of
/// commands, name every command of the debugger's table, and name only
/// commands (or their short forms) in their constree column.
#[test]
fn the_docs_tables_name_every_command_and_only_commands() {
    use constree::debugger::commands::COMMANDS;
    for (heading, column) in [("## gdb and rr commands", 2), ("## Commands", 1)] {
        let named = commands_named_in(heading, column);
        for c in COMMANDS {
            assert!(named.contains(&c.name), "{heading}: no `{}`", c.name);
        }
    }
}

/// `print NAME : tree` shows the value whole up to 4,000 characters, as
/// `/tree` does (docs/debugger.md).
#[test]
fn print_as_tree_shows_the_value_whole() {
    let (source, elements) = cli_common::wide_program("debug_tree_whole");
    let out = constree(
        &["debug", source.to_str().unwrap()],
        "print wide : tree\nprint wide /tree\n",
    );
    let transcript = text(&out.stdout);
    let whole = format!("wide = [{elements}]\n");
    assert_eq!(transcript.matches(&whole).count(), 2, "{transcript}");
}

#[test]
fn bad_targets_are_errors() {
    for (args, message) in [
        (
            &["debug", "nowhere.cta"][..],
            "there is no program file nowhere.cta",
        ),
        (&["debug", "nowhere.toml"], "cannot read the scenario"),
        (&["debug", "--replay", "nowhere.json"], "nowhere.json"),
        (
            &["debug", "examples/walk/walk.toml", "--robot", "nobody"],
            "no robot \"nobody\"",
        ),
        (
            &["debug", "examples/walk/walk.toml", "--robot", "3,0"],
            "there is no robot #0 at (3, 0)",
        ),
    ] {
        let out = constree(args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

mod library {
    use constree::debugger::Debugger;
    use constree::debugger::commands::Outcome;
    use constree::debugger::session::Pos;
    use constree::scenario::Scenario;
    use constree::world::{World, update};
    use proptest::prelude::*;
    use std::path::{Path, PathBuf};

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }

    fn debugger_on(scenario: Scenario) -> Debugger {
        Debugger::for_scenario(scenario, Vec::new()).unwrap()
    }

    fn load(path: &str) -> Scenario {
        Scenario::load(&root().join(path), None).unwrap()
    }

    fn run(d: &mut Debugger, command: &str) -> String {
        match d.execute(command) {
            Ok(Outcome::Output(text)) => text,
            Ok(Outcome::Quit) => String::new(),
            Err(e) => panic!("{command}: {e}"),
        }
    }

    /// A lone program in a 5 x 5 world, as `constree debug FILE.cta` plays it.
    fn load_program(path: &str) -> Scenario {
        let text = format!(
            "steps = 100\n[world]\nsize = [5, 5]\n[[robot]]\nname = \"bot\"\nat = [2, 2]\nspeed = 1000\nprogram = {:?}\n",
            root().join(path).display().to_string()
        );
        Scenario::from_text_in("lone.toml", &text, Path::new(""), None).unwrap()
    }

    fn state(d: &Debugger) -> (Pos, World) {
        (d.session.pos(), d.session.world().clone())
    }

    #[test]
    fn reverse_execution_returns_to_exactly_the_earlier_state() {
        let mut d = debugger_on(load("examples/harvest/harvest.toml"));
        let start = state(&d);
        run(&mut d, "stepi 37");
        let a = state(&d);
        run(&mut d, "stepi");
        let b = state(&d);
        run(&mut d, "reverse-stepi");
        assert_eq!(state(&d), a, "one instruction back");
        run(&mut d, "break main");
        run(&mut d, "continue");
        let c = state(&d);
        run(&mut d, "gstep 3");
        let e = state(&d);
        run(&mut d, "tick 250");
        run(&mut d, "reverse-continue");
        let back = state(&d);
        assert!(back.0 > e.0 && back.1 != e.1, "a later stop at `main`");
        run(&mut d, "reverse-gstep");
        run(&mut d, "reverse-gstep");
        assert_eq!(d.session.pos(), Pos::done(back.0.step - 2));
        for (what, s) in [
            ("a", &a),
            ("b", &b),
            ("c", &c),
            ("e", &e),
            ("start", &start),
        ] {
            d.session.goto(s.0);
            assert_eq!(&state(&d), s, "back to {what}");
        }
        // Stepping back over a step boundary reaches the last instruction
        // of the step before.
        d.session.goto(Pos::done(2));
        let done = state(&d);
        run(&mut d, "reverse-stepi");
        assert_eq!(d.session.pos(), Pos { step: 2, tick: 199 });
        run(&mut d, "stepi");
        assert_eq!(state(&d), done);
    }

    /// A debugger on the tutorial's game, focused on its robot.
    fn haul() -> Debugger {
        debugger_on(load("docs/tutorial/haul.toml"))
    }

    /// The source line shown for the focused machine's next instruction:
    /// `FILE:LINE`.
    fn shown_line(d: &Debugger) -> String {
        let program = d.program().unwrap();
        let prog = &d.session.focused().unwrap().memory[0].contents;
        let (file, line) = program.outer_line(prog).unwrap();
        format!("{}:{line}", program.file_name(file))
    }

    /// Asserts the line shown ends with `line` (`FILE:LINE`).
    #[track_caller]
    fn assert_at(d: &Debugger, line: &str) {
        let shown = shown_line(d);
        assert!(shown.ends_with(line), "at {shown}, not {line}");
    }

    #[test]
    fn next_over_a_call_stops_back_in_the_caller() {
        let mut d = haul();
        run(&mut d, "break hauler.cta:14");
        run(&mut d, "continue");
        run(&mut d, "next");
        assert_at(&d, "docs/tutorial/hauler.cta:15");
        // Also over a recursive routine's call.
        let mut d = debugger_on(load_program("examples/calls.cta"));
        run(&mut d, "break calls.cta:50");
        run(&mut d, "continue");
        run(&mut d, "next");
        assert_at(&d, "examples/calls.cta:51");
    }

    #[test]
    fn a_breakpoint_on_a_spinning_line_stops_when_control_arrives() {
        let mut d = haul();
        run(&mut d, "break walk");
        let stops: Vec<Pos> = (0..3)
            .map(|_| {
                run(&mut d, "continue");
                d.session.pos()
            })
            .collect();
        // At the start, then after `jmp walk` in step 1, then in step 2:
        // never while `wait_step` spins on the line.
        assert_eq!(stops[0], Pos { step: 1, tick: 0 });
        assert_eq!(stops[1].step, 1);
        assert_eq!(stops[2].step, 2, "{stops:?}");
        assert_eq!(stops[2].tick, stops[1].tick);
        run(&mut d, "reverse-continue");
        assert_eq!(d.session.pos(), stops[1]);
        // After a whole game step, the spin does not count as an arrival.
        run(&mut d, "gstep");
        run(&mut d, "continue");
        assert_eq!(
            d.session.pos(),
            Pos {
                step: 2,
                ..stops[1]
            }
        );
    }

    #[test]
    fn next_and_step_get_off_a_spinning_line() {
        for command in ["next", "step"] {
            let mut d = haul();
            run(&mut d, "break walk");
            run(&mut d, "continue");
            run(&mut d, "continue");
            run(&mut d, command);
            assert_at(&d, "docs/tutorial/hauler.cta:14");
            assert_eq!(d.session.pos().step, 2, "{command}");
        }
    }

    #[test]
    fn step_and_reverse_step_move_by_the_lines_shown() {
        let mut d = haul();
        run(&mut d, "break hauler.cta:14");
        run(&mut d, "continue");
        // The `call` runs whole: its two instructions are one line.
        run(&mut d, "step");
        assert_at(&d, "std/input.cta:94");
        run(&mut d, "delete");
        run(&mut d, "break hauler.cta:17");
        run(&mut d, "continue");
        // Back over the call: to the start of the routine's last line, its
        // `ret`, not its middle.
        let out = run(&mut d, "reverse-step");
        assert_at(&d, "std/input.cta:532");
        assert!(out.contains("`deconstruct stack, link, stack`"), "{out}");
        run(&mut d, "reverse-step");
        assert_at(&d, "std/input.cta:531");
    }

    #[test]
    fn the_profile_gives_ticks_to_the_label_that_holds_them() {
        let mut d = haul();
        run(&mut d, "gstep 5");
        let out = run(&mut d, "profile 1");
        // In step 5 the robot walks home: `grab` (one `mov`) never runs.
        assert!(out.contains("%  home\n"), "{out}");
        assert!(!out.contains("grab"), "{out}");
        assert!(!out.contains("ready."), "{out}");
    }

    #[test]
    fn places_inside_macros_are_named_by_the_users_labels() {
        let mut d = haul();
        run(&mut d, "watch trail");
        let out = run(&mut d, "continue");
        assert!(out.contains("tick 32 of 100: walk+9 `"), "{out}");
    }

    #[test]
    fn register_columns_fit_the_longest_name() {
        let mut d = haul();
        let out = run(&mut d, "info registers");
        let header = out.lines().next().unwrap();
        let end = header.find("size").unwrap() + "size".len();
        // The rows (the standard library's after a heading of their own).
        for row in out.lines().skip(1).filter(|r| !r.ends_with(':')) {
            assert!(row.as_bytes()[end - 1].is_ascii_digit(), "{out}");
            assert_eq!(row.as_bytes()[end], b' ', "{out}");
        }
    }

    /// Only `quit` leaves: every other command of the table, with no
    /// arguments and with a wrong one, gives output or an error.
    #[test]
    fn no_command_but_quit_leaves_the_debugger() {
        use constree::debugger::commands::COMMANDS;
        for c in COMMANDS {
            for args in ["", " x", " 0"] {
                let mut d = haul();
                let line = format!("{}{args}", c.name);
                let quits = matches!(d.execute(&line), Ok(Outcome::Quit));
                assert_eq!(quits, c.name == "quit" && args.is_empty(), "{line}");
            }
        }
    }

    #[test]
    fn machine_errors_name_the_register() {
        let mut d = debugger_on(load_program("tests/debugger/faulty.cta"));
        let out = run(&mut d, "continue");
        assert!(out.contains("deconstruct of Nil in x (r3)"), "{out}");
    }

    /// The engine's worlds: the start, then after each step, computed as
    /// far as asked.
    struct Engine(Vec<World>);

    impl Engine {
        fn new(scenario: &Scenario) -> Engine {
            Engine(vec![scenario.world(scenario.seed).0])
        }

        fn after(&mut self, step: usize) -> &World {
            while self.0.len() <= step {
                let next = update(self.0.last().unwrap().clone());
                self.0.push(next);
            }
            &self.0[step]
        }
    }

    const PROGRAMS: &[&str] = &[
        "examples/walker.cta",
        "examples/harvest/red.cta",
        "examples/harvest/blue.cta",
        "examples/fight/striker.cta",
        "examples/calls.cta",
        "examples/count.cta",
        "tests/debugger/faulty.cta",
    ];

    const COLORS: &[&str] = &["Red", "Blue", "Green", "Black"];

    /// A random scenario: a small grid, cargo and shields lying about,
    /// robots running the example programs at various speeds.
    fn scenario() -> impl Strategy<Value = String> {
        let robot = (
            0..PROGRAMS.len(),
            0..COLORS.len(),
            0i64..6,
            0i64..6,
            1i64..400,
            0u32..3,
        );
        (
            (2i64..6, 1i64..5, any::<bool>()),
            proptest::collection::vec(robot, 1..5),
            proptest::collection::vec((0i64..6, 0i64..6, 1i64..9), 0..5),
        )
            .prop_map(|((w, h, wrap), robots, items)| {
                let mut text = format!("steps = 6\n[world]\nsize = [{w}, {h}]\nwrap = {wrap}\n");
                for (x, y, t) in items {
                    text.push_str(&format!("[[item]]\nat = [{}, {}]\ncargo = [{t}, {t}]\n", x % w, y % h));
                }
                for (k, (p, c, x, y, speed, shields)) in robots.into_iter().enumerate() {
                    let program = Path::new(env!("CARGO_MANIFEST_DIR")).join(PROGRAMS[p]);
                    text.push_str(&format!(
                        "[[robot]]\nname = \"r{k}\"\nat = [{}, {}]\ncolor = {:?}\nspeed = {speed}\nprogram = {:?}\n",
                        x % w,
                        y % h,
                        COLORS[c],
                        program.display().to_string()
                    ));
                    if shields > 0 {
                        text.push_str(&format!("inventory = [{{ shield = true, count = {shields} }}]\n"));
                    }
                }
                text
            })
    }

    /// Commands that look and move but change nothing (and set
    /// breakpoints, watchpoints and catchpoints, which stop runs).
    fn command() -> impl Strategy<Value = String> {
        prop_oneof![
            (1u64..300).prop_map(|n| format!("stepi {n}")),
            (1u64..500).prop_map(|n| format!("tick {n}")),
            (1u64..3).prop_map(|n| format!("gstep {n}")),
            (1u64..40).prop_map(|n| format!("reverse-stepi {n}")),
            (1u64..3000).prop_map(|n| format!("reverse-stepi {n}")),
            Just("reverse-gstep".to_string()),
            (1u64..4).prop_map(|n| format!("reverse-step {n}")),
            (1u64..3).prop_map(|n| format!("reverse-continue {n}")),
            (1u64..3).prop_map(|n| format!("continue {n}")),
            Just("step".to_string()),
            Just("next 2".to_string()),
            Just("finish".to_string()),
            Just("until-output".to_string()),
            Just("break main".to_string()),
            Just("watch out".to_string()),
            Just("delete".to_string()),
            Just("print in /input".to_string()),
            Just("info registers".to_string()),
            Just("robots".to_string()),
            Just("profile".to_string()),
            (0usize..4).prop_map(|k| format!("focus r{k}")),
            (1u64..4).prop_map(|n| format!("reverse-next {n}")),
            Just("reverse-finish".to_string()),
            Just("until".to_string()),
            Just("advance main".to_string()),
            Just("break main if out is nil or size(in) > 3".to_string()),
            Just("watch in.2.0".to_string()),
            Just("ignore 1 2".to_string()),
            Just("disable 1".to_string()),
            Just("enable".to_string()),
            prop_oneof![
                Just("destroyed"),
                Just("inspected"),
                Just("built"),
                Just("lifted any"),
                Just("dropped any"),
                Just("command move"),
                Just("action passed any"),
                Just("destroyed any"),
            ]
            .prop_map(|c| format!("catch {c}")),
        ]
    }

    /// Commands that change the game: the focused robot's registers.
    fn change() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("set out = Move N".to_string()),
            Just("set out = Pass".to_string()),
            Just("set in = []".to_string()),
            Just("set r3 = [1, 2]".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn complete_steps_are_the_engines(text in scenario(), commands in proptest::collection::vec(command(), 1..14)) {
            let scenario = Scenario::from_text_in("random.toml", &text, Path::new(""), None).unwrap();
            let mut engine = Engine::new(&scenario);
            let mut d = debugger_on(scenario);
            for c in &commands {
                // Errors (`finish` outside a call, ...) are fine: state is what matters.
                let _ = d.execute(c);
                // The step under way, finished, is the engine's; then back.
                let pos = d.session.pos();
                d.session.finish_step();
                let step = d.session.pos().step as usize;
                prop_assert_eq!(d.session.world(), engine.after(step), "after {:?} at {}", c, pos);
                d.session.goto(pos);
                prop_assert_eq!(d.session.pos(), pos);
            }
            // And every complete step on the way back (a change of focus
            // does not cut history).
            let last = d.session.pos().step;
            for step in (0..=last).rev() {
                d.session.goto(Pos::done(step));
                prop_assert_eq!(d.session.world(), engine.after(step as usize));
            }
        }

        /// With changes (`set`) and changes of focus among the commands,
        /// history is exact: every position seen is found again, with the
        /// same world, by going there from anywhere.
        #[test]
        fn history_with_changes_is_exact(
            text in scenario(),
            commands in proptest::collection::vec(prop_oneof![3 => command(), 1 => change()], 1..14),
        ) {
            let scenario = Scenario::from_text_in("random.toml", &text, Path::new(""), None).unwrap();
            let mut d = debugger_on(scenario);
            let mut seen = Vec::new();
            for c in &commands {
                let done = d.execute(c).is_ok();
                if done && (c.starts_with("set ") || c.starts_with("focus ")) {
                    // The present and the future were changed (a change
                    // of focus is made after the step, and positions count
                    // the focused robot's ticks): what was seen there is
                    // no longer history.
                    let now = d.session.pos();
                    seen.retain(|(_, s): &(String, (Pos, World))| s.0 < now);
                }
                seen.push((c.clone(), state(&d)));
            }
            for (c, s) in seen.iter().rev() {
                d.session.goto(s.0);
                prop_assert!(&state(&d) == s, "after {:?}", c);
            }
        }

        /// `reverse-stepi N` goes in one replay where N single steps back
        /// go, each found by the instruction before.
        #[test]
        fn reverse_stepi_n_is_n_single_steps_back(text in scenario(), a in 1u64..3000, k in 1u64..600) {
            let scenario = Scenario::from_text_in("random.toml", &text, Path::new(""), None).unwrap();
            let mut d = debugger_on(scenario);
            let _ = d.execute(&format!("tick {a}"));
            let _ = d.execute("gstep");
            let _ = d.execute(&format!("tick {a}"));
            let here = d.session.pos();
            let mut one_by_one = Some(here);
            for _ in 0..k {
                one_by_one = d.session.previous_instruction();
                match one_by_one {
                    Some(p) => d.session.goto(p),
                    None => break,
                }
            }
            d.session.goto(here);
            prop_assert_eq!(d.session.instructions_back(k), one_by_one);
            let _ = d.execute(&format!("reverse-stepi {k}"));
            prop_assert_eq!(d.session.pos(), one_by_one.unwrap_or(Pos::done(0)));
        }
    }
}

#[test]
fn a_recorded_game_is_debugged_with_its_images() {
    let dir = scratch_dir("debug_replay");
    let record = dir.join("harvest.json");
    let record = record.to_str().unwrap();
    let out = constree(&["run", "--record", record], "");
    assert!(out.status.success());
    let out = constree(
        &["debug", "--replay", record, "--robot", "blue"],
        "break main\ncontinue\ngstep 4\nrobots\n",
    );
    let transcript = text(&out.stdout);
    assert!(out.status.success(), "{transcript}");
    assert!(transcript.contains("focus on blue"), "{transcript}");
    assert!(transcript.contains("Breakpoint 1, main"), "{transcript}");
    // The debugger's world after step 4 is the recorded one.
    let replay = constree::scenario::replay::Replay::load(Path::new(record)).unwrap();
    let shown = constree(&["replay", record, "--step", "4"], "");
    let board = text(&shown.stdout);
    let blue = board.lines().filter(|l| l.contains("BLU")).count();
    assert!(blue > 0);
    assert_eq!(replay.len(), 21);
    assert!(transcript.contains("after step 4"), "{transcript}");
}

/// Every place a stop can print (`LABEL`, `LABEL+K`, `REG+K`) names the
/// very code it was printed for when typed back, in the example programs
/// and the standard library they use.
#[test]
fn every_printed_place_can_be_typed_back() {
    use constree::debugger::source::Program;
    use std::rc::Rc;
    for path in [
        "examples/calls.cta",
        "examples/harvest/red.cta",
        "examples/arena/breeder.cta",
        "docs/tutorial/hauler.cta",
    ] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let loader = constree::asm::source::DiskLoader::new(None);
        let image = constree::scenario::load_program(&loader, &root.join(path)).unwrap();
        // As stored (`asm`'s `.ctm`, a replay): equal code is one node.
        let stored =
            constree::image::format::from_json(&constree::image::format::to_json(&image)).unwrap();
        let shared = Program::new(Rc::new(stored), Vec::new());
        for (p, _) in shared.positions.laid() {
            let name = shared.name_at(p).unwrap();
            assert!(
                shared.named_positions(&name).contains(&p),
                "{path}: {name} names other places"
            );
        }
        let program = Program::new(Rc::new(image), Vec::new());
        let mut checked = 0;
        for (code, _) in program.instructions() {
            let name = program.name(&code).unwrap();
            let named = program.named(&name);
            assert!(
                named.iter().any(|t| t.ptr_eq(&code)),
                "{path}: {name} names other code"
            );
            checked += 1;
        }
        assert!(checked > 0, "{path}");
    }
}

//! The replay viewer (`constree view`, docs/viewer.md) in a real browser:
//! headless Chromium driven by WebDriver, on recorded games of every
//! example scenario. The board the page draws is the engine's world, a
//! clicked robot's panel says what the debugger says, the slider, the keys
//! and the URL fragment agree, a screenshot is not blank, and the page
//! sends no request.

mod browser_common;
mod cli_common;

use browser_common::{ARROW_LEFT, ARROW_RIGHT, Browser, END, HOME, png_colours};
use cli_common::{arg, example, scratch_dir, stdout_of};
use constree::scenario::replay::Replay;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A recorded game: its name, replay file and viewer page.
struct Recorded {
    name: String,
    replay: PathBuf,
    page: PathBuf,
}

/// Every example game, recorded (`run --record`; the arena, whose players
/// fill slots, as a tournament's recorded round) and written as a page.
fn recorded_games(dir: &Path) -> Vec<Recorded> {
    let mut scenarios: Vec<PathBuf> = std::fs::read_dir(example(""))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .flat_map(|e| std::fs::read_dir(e.path()).unwrap().flatten())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    scenarios.sort();
    assert!(scenarios.len() >= 7, "the example games: {scenarios:?}");
    scenarios
        .iter()
        .map(|scenario| {
            let name = scenario.file_stem().unwrap().to_string_lossy().into_owned();
            let replay = dir.join(format!("{name}.json"));
            let page = dir.join(format!("{name}.html"));
            if std::fs::read_to_string(scenario)
                .unwrap()
                .contains("[[slot]]")
            {
                let players = [example("arena/hunter.cta"), example("arena/breeder.cta")];
                stdout_of(&[
                    "tournament",
                    "--game",
                    arg(scenario),
                    "--rounds",
                    "1",
                    "--record-round",
                    "1",
                    arg(&replay),
                    "--players",
                    arg(&players[0]),
                    arg(&players[1]),
                ]);
            } else {
                stdout_of(&["run", arg(scenario), "--record", arg(&replay)]);
            }
            stdout_of(&["view", arg(&replay), "-o", arg(&page)]);
            Recorded { name, replay, page }
        })
        .collect()
}

fn url(page: &Path) -> String {
    format!("file://{}", page.canonicalize().unwrap().display())
}

/// The squares of a world that are not empty, as the page's `dump()`
/// gives them (robots without their identity).
fn engine_squares(replay: &Replay, step: usize) -> Value {
    let world = replay.world(step).expect("the step exists");
    let shape = world.shape();
    let mut out = Vec::new();
    for (cell, square) in world.cells.iter().enumerate() {
        let (x, y) = shape.position(cell);
        let Some(square) = square else {
            out.push(json!({"x": x, "y": y, "wall": true}));
            continue;
        };
        if square.robots.is_empty() && square.items.is_empty() {
            continue;
        }
        let robots: Vec<Value> = square
            .robots
            .iter()
            .map(|r| {
                json!({"color": r.frame.color.code(), "strength": r.frame.strength,
                "speed": r.processor.speed,
                "inventory": r.inventory.iter().map(ToString::to_string).collect::<Vec<_>>()})
            })
            .collect();
        let items: Vec<String> = square.items.iter().map(ToString::to_string).collect();
        out.push(json!({"x": x, "y": y, "robots": robots, "items": items}));
    }
    Value::Array(out)
}

/// The page's squares at a step, without the robots' identities.
fn page_squares(browser: &Browser, step: usize) -> Value {
    let mut dump = browser.script(
        "constreeViewer.goTo(arguments[0]); return constreeViewer.dump();",
        json!([step]),
    );
    for square in dump.as_array_mut().unwrap() {
        let robots = square.get_mut("robots").and_then(Value::as_array_mut);
        for robot in robots.into_iter().flatten() {
            robot.as_object_mut().unwrap().remove("id");
        }
    }
    dump
}

#[test]
fn the_board_is_the_engines_world_at_the_first_second_and_last_step() {
    let dir = scratch_dir("viewer_boards");
    let browser = Browser::start(1300, 900);
    for game in recorded_games(&dir) {
        let replay = Replay::load(&game.replay).unwrap();
        let last = replay.len() - 1;
        assert!(last >= 1, "{}: a game of at least one step", game.name);
        browser.open(&url(&game.page));
        for step in [0, 1, last] {
            assert_eq!(
                page_squares(&browser, step),
                engine_squares(&replay, step),
                "{}: step {step}",
                game.name
            );
        }
        // Back to the start, after every step applied: the changes undo.
        assert_eq!(page_squares(&browser, 0), engine_squares(&replay, 0));
        // The log sees the page's own request, and nothing else.
        let requests = browser.requests();
        assert!(requests.contains(&url(&game.page)), "{requests:?}");
        assert!(
            requests.iter().all(|u| *u == url(&game.page)),
            "{}: the page asked for {requests:?}",
            game.name
        );
    }
}

/// What the debugger says of a robot in a step: `(command, action)` of
/// `info robot` as the step's run begins, and the source line `list`
/// marks after it (`FILE:LINE | TEXT`).
fn debugger_says(replay: &Path, robot: &str, step: usize) -> (String, String, String) {
    let script = replay.with_extension(format!("{robot}.{step}.dbg"));
    std::fs::write(
        &script,
        format!("goto step {step} tick 0\ninfo robot\ngoto step {step}\nlist\n"),
    )
    .unwrap();
    let out = stdout_of(&[
        "debug",
        "--replay",
        arg(replay),
        "--robot",
        robot,
        "--batch",
        arg(&script),
    ]);
    let this_step = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("this step: "))
        .unwrap_or_else(|| panic!("no `this step` in:\n{out}"));
    let (command, rest) = this_step.split_once(" -> ").unwrap();
    let action = rest.rsplit_once("; ").unwrap().0;
    let listing = out.split("> list\n").nth(1).unwrap();
    let file = listing.lines().next().unwrap().trim_end_matches(':');
    let marked = listing
        .lines()
        .find_map(|l| l.strip_prefix('>'))
        .unwrap_or_else(|| panic!("no marked line in:\n{listing}"));
    let (number, text) = marked.split_once(" | ").unwrap();
    let line = format!("{file}:{} | {}", number.trim(), text.trim_end());
    (command.to_string(), action.to_string(), line)
}

#[test]
fn a_clicked_robot_shows_what_the_debugger_reports() {
    let dir = scratch_dir("viewer_click");
    let browser = Browser::start(1300, 900);
    let mut compared = 0;
    for game in recorded_games(&dir) {
        let replay = Replay::load(&game.replay).unwrap();
        let step = 3.min(replay.len() - 1);
        browser.open(&format!("{}#step={step}", url(&game.page)));
        let names = browser.script("return constreeViewer.names;", json!([]));
        let dump = browser.script("return constreeViewer.dump();", json!([]));
        // The first scenario robot still in the world, and where it is.
        let found = dump.as_array().unwrap().iter().find_map(|square| {
            square["robots"]
                .as_array()?
                .iter()
                .enumerate()
                .find_map(|(k, r)| {
                    let name = names.get(r["id"].to_string())?.as_str()?.to_string();
                    Some((square["x"].as_i64()?, square["y"].as_i64()?, k, name))
                })
        });
        let Some((x, y, index, name)) = found else {
            continue;
        };
        let point = browser.script(
            "return constreeViewer.robotPoint(arguments[0], arguments[1], arguments[2]);",
            json!([x, y, index]),
        );
        browser.click_at(point[0].as_f64().unwrap(), point[1].as_f64().unwrap());
        assert_eq!(browser.text("#p-name"), name, "{}", game.name);
        let (command, action, line) = debugger_says(&game.replay, &name, step);
        assert_eq!(browser.text("#p-command"), command, "{} {name}", game.name);
        assert_eq!(browser.text("#p-action"), action, "{} {name}", game.name);
        assert_eq!(browser.text("#p-line"), line, "{} {name}", game.name);
        let debug = browser.script(
            "return document.querySelector('#p-debug').value;",
            json!([]),
        );
        assert_eq!(
            debug.as_str().unwrap(),
            format!(
                "constree debug --replay {} --robot {name} -ex 'goto step {step}'",
                game.replay.display()
            ),
        );
        compared += 1;
    }
    assert!(compared >= 6, "robots compared in {compared} games");
}

#[test]
fn slider_keys_and_fragment_show_the_same_step() {
    let dir = scratch_dir("viewer_controls");
    let games = recorded_games(&dir);
    let game = games.iter().find(|g| g.name == "harvest").unwrap();
    let browser = Browser::start(1300, 900);
    browser.open(&format!("{}#step=2", url(&game.page)));
    let shown = || {
        let v = browser.script(
            "return [constreeViewer.step(), Number(document.getElementById('slider').value), \
             location.hash, document.getElementById('stepLabel').textContent];",
            json!([]),
        );
        (
            v[0].as_u64().unwrap(),
            v[1].as_u64().unwrap(),
            v[2].as_str().unwrap().to_string(),
            v[3].as_str().unwrap().to_string(),
        )
    };
    let at = |step: u64| {
        let (page, slider, hash, label) = shown();
        assert_eq!((page, slider), (step, step));
        assert_eq!(hash, format!("#step={step}"));
        assert!(label.starts_with(&format!("step {step} of ")), "{label}");
    };
    at(2);
    browser.key(ARROW_RIGHT);
    at(3);
    browser.key(ARROW_LEFT);
    browser.key(ARROW_LEFT);
    at(1);
    browser.key(END);
    let last = shown().0;
    assert_eq!(last, Replay::load(&game.replay).unwrap().len() as u64 - 1);
    at(last);
    browser.key(HOME);
    at(0);
    browser.script(
        "const s = document.getElementById('slider'); s.value = 5; \
         s.dispatchEvent(new Event('input'));",
        json!([]),
    );
    at(5);
    browser.script("location.hash = '#step=7';", json!([]));
    // The fragment's change arrives as an event: wait for it.
    for _ in 0..100 {
        if shown().0 == 7 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    at(7);
}

#[test]
fn a_mid_game_screenshot_is_not_blank() {
    let dir = scratch_dir("viewer_screenshot");
    let games = recorded_games(&dir);
    let artefacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewer-artefacts");
    std::fs::create_dir_all(&artefacts).unwrap();
    let browser = Browser::start(1300, 900);
    for game in games
        .iter()
        .filter(|g| ["harvest", "fight"].contains(&&*g.name))
    {
        let steps = Replay::load(&game.replay).unwrap().len() - 1;
        let step = steps / 2;
        browser.open(&format!("{}#step={step}", url(&game.page)));
        let png = browser.screenshot();
        let file = artefacts.join(format!("{}-step-{step}.png", game.name));
        std::fs::write(&file, &png).unwrap();
        let colours = png_colours(&png);
        assert!(
            colours >= 8,
            "{}: {colours} colours in the screenshot",
            file.display()
        );
        // The board itself is drawn: its canvas has squares and robots.
        let board = browser.script(
            "const c = document.getElementById('board'); \
             const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; \
             const seen = new Set(); \
             for (let i = 0; i < d.length; i += 4) seen.add(d[i] << 16 | d[i+1] << 8 | d[i+2]); \
             return seen.size;",
            json!([]),
        );
        assert!(
            board.as_u64().unwrap() >= 4,
            "{}: the board {board}",
            game.name
        );
        assert!(browser.requests().iter().all(|u| u.starts_with("file://")));
    }
}

#[test]
fn the_large_benchmark_world_plays_at_three_steps_a_second_or_more() {
    let dir = scratch_dir("viewer_large");
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/bench_world_large.json");
    let replay = dir.join("large.json");
    let page = dir.join("large.html");
    stdout_of(&[
        "world",
        "step",
        arg(&world),
        "--steps",
        "100",
        "--record",
        arg(&replay),
        "--digest",
    ]);
    stdout_of(&["view", arg(&replay), "-o", arg(&page)]);
    // The size budget: at most 1.5 times the replay, plus 2 MB.
    let (replay_size, page_size) = (
        std::fs::metadata(&replay).unwrap().len(),
        std::fs::metadata(&page).unwrap().len(),
    );
    assert!(
        page_size <= replay_size * 3 / 2 + 2_000_000,
        "page {page_size} bytes for a replay of {replay_size}"
    );
    let browser = Browser::start(1300, 900);
    browser.open(&url(&page));
    // Every step applied and drawn, one after the other, timed by the page.
    let millis = browser.script(
        "const t = performance.now(); \
         for (let k = 1; k <= constreeViewer.steps; k++) constreeViewer.goTo(k); \
         return performance.now() - t;",
        json!([]),
    );
    let rate = 100.0 / (millis.as_f64().unwrap() / 1000.0);
    let artefacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewer-artefacts");
    std::fs::create_dir_all(&artefacts).unwrap();
    std::fs::write(
        artefacts.join("large-world-rate.txt"),
        format!("{rate:.1} steps/s (page {page_size} bytes, replay {replay_size} bytes)\n"),
    )
    .unwrap();
    println!("large world: {rate:.1} steps a second");
    assert_eq!(
        browser.script("return constreeViewer.step();", json!([])),
        json!(100)
    );
    assert!(rate >= 3.0, "{rate:.1} steps a second");
}

#[test]
fn run_and_tournament_write_pages() {
    let dir = scratch_dir("viewer_pages");
    let (replay, page) = (dir.join("walk.json"), dir.join("walk.html"));
    let scenario = example("walk/walk.toml");
    stdout_of(&[
        "run",
        arg(&scenario),
        "--record",
        arg(&replay),
        "--html",
        arg(&page),
    ]);
    let viewed = dir.join("viewed.html");
    stdout_of(&["view", arg(&replay), "-o", arg(&viewed)]);
    assert_eq!(
        std::fs::read(&page).unwrap(),
        std::fs::read(&viewed).unwrap()
    );
    // A page names its replay: --html needs --record.
    let out = cli_common::constree(&["run", arg(&scenario), "--html", arg(&page)], "");
    assert_eq!(out.status.code(), Some(2));
    let pages = dir.join("arena");
    stdout_of(&[
        "tournament",
        "--game",
        arg(&example("arena/arena.toml")),
        "--rounds",
        "2",
        "--html",
        arg(&pages),
        "--players",
        arg(&example("arena/hunter.cta")),
        arg(&example("arena/passer.cta")),
    ]);
    let index = std::fs::read_to_string(pages.join("index.html")).unwrap();
    assert!(index.contains("<table id=\"standings\">"), "{index}");
    for round in 1..=2 {
        assert!(index.contains(&format!("<a href=\"round-{round}.html\">round {round}</a>")));
        let page = std::fs::read_to_string(pages.join(format!("round-{round}.html"))).unwrap();
        let replay = pages.join(format!("round-{round}.json"));
        assert!(Replay::load(&replay).is_ok());
        // Its debugger command names the round's replay.
        assert!(page.contains(&format!("\"file\":\"{}\"", replay.display())));
    }
    assert!(!pages.join("round-3.html").exists());
}

#[test]
fn a_replay_that_is_not_the_engines_game_is_refused() {
    let dir = scratch_dir("viewer_refused");
    let replay = dir.join("walk.json");
    stdout_of(&[
        "run",
        arg(&example("walk/walk.toml")),
        "--record",
        arg(&replay),
    ]);
    // The recorded walker's last step moved it to another square.
    let text = std::fs::read_to_string(&replay).unwrap();
    let mut file: Value = serde_json::from_str(&text).unwrap();
    let steps = file["steps"].as_array_mut().unwrap();
    assert!(steps.len() >= 2);
    steps.swap(0, 1);
    let bad = dir.join("swapped.json");
    std::fs::write(&bad, file.to_string()).unwrap();
    let err = cli_common::failure_of(&["view", arg(&bad), "-o", arg(&dir.join("bad.html"))]);
    assert!(
        err.contains("is not what the engine makes of step"),
        "{err}"
    );
    assert!(!dir.join("bad.html").exists());
}

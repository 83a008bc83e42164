//! constree in a real terminal (tmux): the debugger's prompt, Tab
//! completion of a label, and Ctrl-C interrupting a long `continue`
//! without leaving the debugger; the progress bar of a long `run`.

mod cli_common;

use cli_common::{example, scratch_dir};
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    session: String,
}

impl Tmux {
    fn start(name: &str, command: &str) -> Tmux {
        let status = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                "160",
                "-y",
                "50",
                command,
            ])
            .status()
            .expect("tmux runs (the CI installs it)");
        assert!(status.success());
        Tmux {
            session: name.to_string(),
        }
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.session])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types text literally (a word like `delete` is not a key name).
    fn text(&self, text: &str) {
        let args = ["send-keys", "-l", "-t", &self.session, text];
        assert!(Command::new("tmux").args(args).status().unwrap().success());
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.session];
        args.extend(keys);
        assert!(Command::new("tmux").args(&args).status().unwrap().success());
    }

    /// Waits until the screen shows `text` (at most 60 s: a guard against
    /// hangs, generous for a loaded machine).
    fn wait_for(&self, text: &str) -> String {
        self.wait_at_most(text, Duration::from_secs(60))
            .unwrap_or_else(|screen| panic!("waited for {text:?}; the screen shows:\n{screen}"))
    }

    /// The screen once it shows `text`, or the last screen seen after `limit`.
    fn wait_at_most(&self, text: &str, limit: Duration) -> Result<String, String> {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return Ok(screen);
            }
            if start.elapsed() >= limit {
                return Err(screen);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Presses Ctrl-C until the screen shows `text`. A Ctrl-C that reaches
    /// the terminal before the debugger has left the line editor is read as
    /// a key at the next prompt instead of interrupting the command, so on
    /// a loaded machine the first one may not be the one that interrupts.
    fn interrupt_until(&self, text: &str) -> String {
        for _ in 0..10 {
            self.keys(&["C-c"]);
            if let Ok(screen) = self.wait_at_most(text, Duration::from_secs(3)) {
                return screen;
            }
        }
        self.wait_for(text)
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.session])
            .status();
    }
}

/// The debugger in tmux on a scenario of `examples/walker.cta` running
/// `speed` ticks a step, its history file in the test's folder; at its
/// first prompt.
fn debug_walker(test: &str, speed: u64) -> (std::path::PathBuf, Tmux) {
    let dir = scratch_dir(test);
    let scenario = dir.join("walker.toml");
    std::fs::write(
        &scenario,
        format!(
            "steps = 100\n[world]\nsize = [3, 3]\n[[robot]]\nname = \"walker\"\nat = [0, 0]\nspeed = {speed}\nprogram = {:?}\n[limits]\nspeed = {speed}\n",
            example("walker.cta").display().to_string()
        ),
    )
    .unwrap();
    let command = format!(
        "CONSTREE_HISTORY={} {} debug {}",
        dir.join("history").display(),
        env!("CARGO_BIN_EXE_constree"),
        scenario.display()
    );
    let tmux = Tmux::start(&format!("constree-{test}-{}", std::process::id()), &command);
    tmux.wait_for("(at the start)");
    (dir, tmux)
}

#[test]
fn prompt_completion_and_interrupt_in_a_terminal() {
    // A robot with two billion ticks a step: `continue` runs for many
    // seconds unless interrupted.
    let (dir, tmux) = debug_walker("debugger_terminal", 2_000_000_000);
    let name = tmux.session.clone();
    // `info ` and Tab twice: its subcommands, not the labels.
    tmux.text("info ");
    tmux.keys(&["Tab", "Tab"]);
    let screen = tmux.wait_for("\nregisters ");
    // What follows the typed `info ` (the banner above names the scenario's
    // path, which may hold any word).
    let offered = &screen[screen.find("info ").unwrap()..];
    assert!(
        offered.contains(" breakpoints ") && !offered.contains("main"),
        "{screen}"
    );
    tmux.keys(&["C-u"]);
    // Tab completes a command and a label, each with the space after it.
    tmux.text("bre");
    tmux.keys(&["Tab"]);
    tmux.wait_for("(at the start) break ");
    tmux.text("ma");
    tmux.keys(&["Tab"]);
    tmux.text("if out is nil");
    tmux.wait_for("break main if out is nil");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Breakpoint 1 at main");
    tmux.text("delete");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Deleted 1 breakpoint.");
    // Several candidates: Tab keeps what they share, a second Tab lists them.
    tmux.text("print in /in");
    tmux.keys(&["Tab", "Tab"]);
    tmux.wait_for("/instr  /input");
    tmux.text("put");
    tmux.keys(&["Enter"]);
    tmux.wait_for("in = nothing: the input is Nil");
    // After a colon, the words of a type.
    tmux.text("print in : [boo");
    tmux.keys(&["Tab"]);
    tmux.wait_for("print in : [bool");
    tmux.text("]");
    tmux.keys(&["Enter"]);
    tmux.wait_for("in = []");
    // A long continue, interrupted.
    tmux.text("continue");
    tmux.keys(&["Enter"]);
    std::thread::sleep(Duration::from_millis(500));
    tmux.interrupt_until("Interrupted.");
    let screen = tmux.wait_for("(step 1, tick ");
    assert!(screen.contains("step 1, tick"), "{screen}");
    // Still alive: a command works, an empty line repeats it.
    tmux.text("info frame");
    tmux.keys(&["Enter"]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("> ");
    assert!(!screen.contains("panicked"), "{screen}");
    tmux.text("quit");
    tmux.keys(&["Enter"]);
    let start = Instant::now();
    while Command::new("tmux")
        .args(["has-session", "-t", &name])
        .status()
        .unwrap()
        .success()
    {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "quit did not end the debugger"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let history = std::fs::read_to_string(dir.join("history")).unwrap();
    assert!(
        history.contains("break main") && history.contains("continue"),
        "{history}"
    );
}

/// A long `run` on a terminal draws a progress bar on standard error (and
/// the same run into a pipe draws none: tests/cli_conventions.rs).
#[test]
fn a_long_run_shows_a_progress_bar_in_a_terminal() {
    let dir = scratch_dir("run_progress");
    std::fs::write(dir.join("spin.cta"), "use std/control\nmain:\n  jmp main\n").unwrap();
    // Ten million ticks a step for 1,000 steps: far longer than the
    // second after which the bar appears (with the cycle fast path off, which
    // would skip the loop's ticks).
    let scenario = dir.join("long.toml");
    std::fs::write(
        &scenario,
        "steps = 1000\n[world]\nmap = \"\"\"\nA.\n\"\"\"\n[[robot]]\nname = \"spin\"\nat = \"A\"\nspeed = 10000000\nprogram = \"spin.cta\"\n",
    )
    .unwrap();
    let command = format!(
        "env CONSTREE_CYCLE_SKIP=off {} run {}",
        env!("CARGO_BIN_EXE_constree"),
        scenario.display()
    );
    let name = format!("constree-progress-{}", std::process::id());
    let tmux = Tmux::start(&name, &command);
    let screen = tmux.wait_for("/1000, ");
    assert!(
        screen.contains("step ") && screen.contains(" left"),
        "{screen}"
    );
    tmux.keys(&["C-c"]);
}

/// A long `gstep` in the debugger counts the game steps played on a
/// terminal, and Ctrl-C stops it.
#[test]
fn a_long_gstep_shows_its_progress_in_a_terminal() {
    let (_, tmux) = debug_walker("gstep_progress", 100);
    tmux.text("gstep 100000000");
    tmux.keys(&["Enter"]);
    tmux.wait_for("game steps played");
    tmux.interrupt_until("Interrupted.");
}

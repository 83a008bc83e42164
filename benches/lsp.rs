//! `constree lsp`'s latency as an editor sees it: from a
//! `textDocument/didChange` written to the server's standard input to the
//! `textDocument/publishDiagnostics` of that version read from its
//! standard output, for a 5,000-line program (docs/performance.md).
//!
//! The server is the built binary, started once as a child process,
//! initialized, with the program open; each iteration edits one line in
//! the middle of the program: a number changed (the program stays
//! correct), a mnemonic misspelt (an error appears) or that mistake
//! corrected (the error goes). Messages are framed by `lsp-server`, as
//! the server frames them.

use criterion::{Criterion, criterion_group, criterion_main};
use lsp_server::Message;
use serde_json::{Value, json};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How many lines the program has.
const LINES: usize = 5_000;

/// A file included by the program, next to it on disk.
const HELPERS: &str = "\
; helpers.cta: registers and macros of the benchmark's program.
reg h.tmp               ; scratch
reg h.count             ; a counter

; twice DST, SRC: push SRC onto DST twice.
macro twice dst, src
    push dst, src
    push dst, src
end

; bump R: R := R + 1 (an Int).
macro bump r
    int.inc h.tmp, r
    mov     r, h.tmp
end
";

/// A program of [`LINES`] lines as people write them: a header comment,
/// standard modules and an included file, registers and constants, then
/// labelled blocks (each with a comment, instructions, standard and local
/// macros, and a jump back), every tenth block with a register of its own.
/// Line [`edited_line`] is `    load a, 42`.
fn program() -> String {
    let mut text = String::from(
        "; bench.cta: a generated program for the language server's benchmark.\n\
         ;\n\
         ; Each block shuffles a few lists and counts its visits.\n\
         \n\
         use std/control\n\
         resize stack 4194304   ; room for the calls of every block\n\
         use std/ints\n\
         use std/lists\n\
         include \"helpers.cta\"\n\
         \n\
         reg out = Pass         ; the robot's command\n\
         reg a                  ; working lists\n\
         reg b = [1, 2, 3]\n\
         reg visits = 0         ; how many blocks ran\n\
         const STEP = Move E\n\
         const LIMIT = 10\n\
         \n\
         ; shuffle X, Y: move the head of X onto Y, keeping X's length.\n\
         macro shuffle x, y\n\
         \x20   pop  x, a\n\
         \x20   push y, a\n\
         \x20   push x, a\n\
         end\n\
         \n\
         main:\n",
    );
    let mut k = 0;
    while text.lines().count() + 12 < LINES {
        if k % 10 == 0 {
            text.push_str(&format!("reg r{k} = [{k}]   ; block {k}'s own list\n"));
        }
        text.push_str(&format!(
            "block{k}:                ; block {k}: shuffle, count, go on\n\
             \x20   construct a, b, a\n\
             \x20   deconstruct a, a, scratch\n\
             \x20   shuffle   a, b\n\
             \x20   twice     b, a\n\
             \x20   bump      visits\n\
             \x20   list.length h.count, b\n\
             \x20   mov       out, STEP\n\
             \x20   load a, 42\n\
             \x20   jnil      a, block{k}\n"
        ));
        k += 1;
    }
    text.push_str("    halt\n");
    while text.lines().count() < LINES {
        text.push_str("; end\n");
    }
    text
}

/// The 0-based number of the line the benchmark edits: a `load a, 42` in
/// the middle of the program.
fn edited_line(text: &str) -> u32 {
    let middle = LINES / 2;
    let found = text
        .lines()
        .enumerate()
        .skip(middle)
        .find(|(_, line)| *line == "    load a, 42");
    found.expect("the program has a load line").0 as u32
}

/// A running `constree lsp` with the program open.
struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    uri: String,
    version: i32,
}

impl Server {
    /// Starts the server in `dir`, initializes it and opens the program,
    /// waiting for its first diagnostics (none).
    fn start(dir: &Path, text: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_constree"))
            .arg("lsp")
            .env("XDG_CACHE_HOME", dir.join("cache"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("constree lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, messages) = channel();
        std::thread::spawn(move || {
            while let Ok(Some(message)) = Message::read(&mut stdout) {
                let message = serde_json::to_value(message).expect("a message is JSON");
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        let uri = format!("file://{}", dir.join("bench.cta").display());
        let mut server = Server {
            child,
            stdin,
            messages,
            uri,
            version: 1,
        };
        server.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"capabilities": {}}}));
        server.until(|m| m["id"] == 1);
        server.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        server.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": server.uri, "languageId": "constree", "version": 1,
                "text": text}}}),
        );
        let diagnostics = server.diagnostics(1);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        server
    }

    fn send(&mut self, message: Value) {
        let message: Message = serde_json::from_value(message).expect("a message");
        message.write(&mut self.stdin).expect("the server reads");
    }

    /// The next message `wanted` accepts (the others are skipped).
    fn until(&self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self
                .messages
                .recv_timeout(Duration::from_secs(120))
                .expect("the server answers");
            if wanted(&message) {
                return message;
            }
        }
    }

    /// The diagnostics published for a version of the program.
    fn diagnostics(&self, version: i32) -> Vec<Value> {
        let message = self.until(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == self.uri
                && m["params"]["version"] == version
        });
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }

    /// Replaces line `line` with `new`, waits for the diagnostics of the
    /// new version and gives them with the time from sending to receiving.
    fn edit(&mut self, line: u32, new: &str) -> (Duration, Vec<Value>) {
        self.version += 1;
        let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": self.uri, "version": self.version},
            "contentChanges": [{"range": {"start": {"line": line, "character": 0},
                "end": {"line": line + 1, "character": 0}}, "text": format!("{new}\n")}]}});
        let start = Instant::now();
        self.send(change);
        let diagnostics = self.diagnostics(self.version);
        (start.elapsed(), diagnostics)
    }

    /// The time the server's threads have run on a processor so far (from
    /// Linux's `/proc/PID/task/*/schedstat`; zero elsewhere): unlike the
    /// latency, it does not grow with the other work on the machine.
    fn cpu_time(&self) -> Duration {
        let tasks = format!("/proc/{}/task", self.child.id());
        let Ok(tasks) = std::fs::read_dir(tasks) else {
            return Duration::ZERO;
        };
        let nanos: u64 = tasks
            .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok())
            .filter_map(|stat| stat.split_whitespace().next()?.parse::<u64>().ok())
            .sum();
        Duration::from_nanos(nanos)
    }

    fn stop(mut self) {
        self.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}));
        self.until(|m| m["id"] == 2);
        self.send(json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// The folder of the program and its included file (written afresh).
fn folder() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lsp_bench");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("helpers.cta"), HELPERS).unwrap();
    dir
}

/// The three edits, each measured over many iterations.
fn latency(c: &mut Criterion) {
    let dir = folder();
    let text = program();
    assert_eq!(text.lines().count(), LINES);
    let line = edited_line(&text);
    let mut server = Server::start(&dir, &text);
    let mut group = c.benchmark_group(format!(
        "lsp didChange to publishDiagnostics, {LINES} lines"
    ));
    group.sample_size(30);
    // A number changed back and forth: the program stays correct.
    let mut flip = false;
    let (mut cpu, mut edits) = (Duration::ZERO, 0);
    group.bench_function("edit", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            let before = server.cpu_time();
            for _ in 0..iterations {
                flip = !flip;
                let new = if flip {
                    "    load a, 43"
                } else {
                    "    load a, 42"
                };
                let (took, diagnostics) = server.edit(line, new);
                assert!(diagnostics.is_empty(), "{diagnostics:?}");
                total += took;
            }
            cpu += server.cpu_time() - before;
            edits += iterations;
            total
        })
    });
    if edits > 0 {
        println!(
            "edit: the server's processor time, all threads: {:.1} ms per edit ({edits} edits)",
            cpu.as_secs_f64() * 1e3 / edits as f64
        );
    }
    // A mnemonic misspelt (measured), then corrected (not measured).
    group.bench_function("introduce an error", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let (took, diagnostics) = server.edit(line, "    lod a, 42");
                assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
                total += took;
                let (_, diagnostics) = server.edit(line, "    load a, 42");
                assert!(diagnostics.is_empty(), "{diagnostics:?}");
            }
            total
        })
    });
    // A mnemonic misspelt (not measured), then corrected (measured).
    group.bench_function("fix the error", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let (_, diagnostics) = server.edit(line, "    lod a, 42");
                assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
                let (took, diagnostics) = server.edit(line, "    load a, 42");
                assert!(diagnostics.is_empty(), "{diagnostics:?}");
                total += took;
            }
            total
        })
    });
    group.finish();
    server.stop();
}

criterion_group!(benches, latency);
criterion_main!(benches);

//! `constree lsp` spoken to as an editor does: the server runs as a child
//! process and the test writes JSON-RPC messages, framed with
//! `Content-Length`, to its standard input and reads its answers.

mod cli_common;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long to wait for one message before calling the server stuck: a
/// guard against a test that hangs, not a measure of speed.
const GUARD: Duration = Duration::from_secs(120);

/// A running server and the messages it sent, in order.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    /// Starts `constree lsp` and initializes it, giving the server's
    /// capabilities.
    fn start() -> (Client, Value) {
        // The embedded standard library is written under the cache folder.
        let cache = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lsp_cache");
        let mut child = Command::new(env!("CARGO_BIN_EXE_constree"))
            .arg("lsp")
            .env("XDG_CACHE_HOME", &cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("constree lsp starts");
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, messages) = channel();
        std::thread::spawn(move || {
            while let Some(message) = read_message(&mut stdout) {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            messages,
            next_id: 0,
        };
        let answer = client.request("initialize", json!({"capabilities": {}}));
        client.notify("initialized", json!({}));
        (client, answer["result"]["capabilities"].clone())
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        let stdin = self.stdin.as_mut().expect("standard input open");
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and gives its response (with `result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.until(|m| m["id"] == id && m.get("method").is_none())
    }

    /// The next message the server sends that `wanted` accepts (the others
    /// are skipped).
    fn until(&self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self
                .messages
                .recv_timeout(GUARD)
                .expect("the server answers");
            if wanted(&message) {
                return message;
            }
        }
    }

    /// The next diagnostics published for a document.
    fn diagnostics(&self, uri: &str) -> Vec<Value> {
        let message = self.until(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "constree", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
    }

    /// `shutdown`, then `exit`: gives the exit code.
    fn stop(mut self) -> Option<i32> {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        assert!(answer.get("error").is_none(), "{answer}");
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        self.child.wait().unwrap().code()
    }
}

/// One framed message, or `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A `file:` URI for a path without characters to escape.
fn uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

const GOOD: &str = "reg a\nmain:\n  nilify a\n";

#[test]
fn diagnostics_follow_the_text_as_it_changes() {
    let dir = cli_common::scratch_dir("lsp_diagnostics");
    let doc = uri(&dir.join("bot.cta"));
    let (mut client, capabilities) = Client::start();
    // Incremental changes (2): ranges of the text, not all of it.
    assert_eq!(capabilities["textDocumentSync"]["change"], 2);
    assert_eq!(capabilities["textDocumentSync"]["openClose"], true);

    client.open(&doc, GOOD);
    assert_eq!(client.diagnostics(&doc), Vec::<Value>::new());

    // `nilify` on line 2 (0-based) becomes `bogus`.
    let range = json!({"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 8}});
    client.change(&doc, 2, json!([{"range": range, "text": "bogus"}]));
    let found = client.diagnostics(&doc);
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert_eq!(d["code"], "E0508", "{d}");
    assert_eq!(d["severity"], 1, "an error: {d}");
    assert_eq!(
        d["range"],
        json!({"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 7}})
    );
    assert_eq!(d["message"], "unknown instruction or macro `bogus`");
    let related: Vec<&str> = d["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["message"].as_str().unwrap())
        .collect();
    assert!(
        related.iter().any(|m| m.starts_with("help: ")),
        "the help is related information: {related:?}"
    );

    // The whole text again, fixed: the diagnostic goes.
    client.change(&doc, 3, json!([{"text": GOOD}]));
    assert_eq!(client.diagnostics(&doc), Vec::<Value>::new());
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn an_included_document_is_read_as_the_editor_has_it() {
    let dir = cli_common::scratch_dir("lsp_include");
    std::fs::write(dir.join("lib.cta"), "reg b\n").unwrap();
    let main = uri(&dir.join("main.cta"));
    let lib = uri(&dir.join("lib.cta"));
    let (mut client, _) = Client::start();
    // On disk `lib.cta` is fine; in the editor it has a mistake, unsaved.
    client.open(&lib, "reg b\nhelper:\n  bogus b\n");
    client.diagnostics(&lib);
    client.open(&main, &format!("include \"lib.cta\"\n{GOOD}"));
    let found = client.diagnostics(&main);
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert_eq!(d["code"], "E0508");
    // Shown at the start of the document, and where it is, in `lib.cta`.
    assert_eq!(d["range"]["start"], json!({"line": 0, "character": 0}));
    let first = &d["relatedInformation"][0];
    assert_eq!(first["location"]["uri"], lib.as_str());
    assert_eq!(
        first["location"]["range"],
        json!({"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 7}})
    );
    // Fixing `lib.cta` checks `main.cta` again, which read it.
    client.change(&lib, 2, json!([{"text": "reg b\n"}]));
    assert_eq!(client.diagnostics(&main), Vec::<Value>::new());
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn a_bad_message_fails_alone() {
    let (mut client, _) = Client::start();
    let answer = client.request("textDocument/codeLens", json!({}));
    assert_eq!(
        answer["error"]["code"], -32601,
        "method not found: {answer}"
    );
    let answer = client.request("textDocument/hover", json!({}));
    assert_eq!(answer["error"]["code"], -32602, "invalid params: {answer}");
    let answer = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.cta"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(answer["error"]["code"], -32803, "request failed: {answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("is not open")
    );
    // A change to a document that is not open, and malformed parameters:
    // the server says why on standard error and goes on.
    client.change("file:///nowhere.cta", 2, json!([{"text": "x"}]));
    client.notify("textDocument/didOpen", json!({"textDocument": 7}));
    let doc = "file:///tmp/constree-lsp-alone.cta";
    client.open(doc, "main:\n  bogus\n");
    assert_eq!(client.diagnostics(doc)[0]["code"], "E0508");
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn exit_without_shutdown_is_a_failure() {
    let (mut client, _) = Client::start();
    client.notify("exit", Value::Null);
    drop(client.stdin.take());
    let out = client.child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`exit` before `shutdown`"));
}

#[test]
fn a_warning_through_a_macro_names_the_expansion() {
    let (mut client, _) = Client::start();
    let doc = "file:///tmp/constree-lsp-warning.cta";
    client.open(
        doc,
        "use std/control\nreg x\nreg y = 7\nmain:\n    mov x, 4\n    halt\n",
    );
    let found = client.diagnostics(doc);
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert_eq!((&d["code"], &d["severity"]), (&json!("W0706"), &json!(2)));
    // At the `4`, where it was written.
    assert_eq!(
        d["range"],
        json!({"start": {"line": 4, "character": 11}, "end": {"line": 4, "character": 12}})
    );
    let expansion = d["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["message"] == "in this expansion of macro `mov`")
        .expect("the macro call is related information");
    assert_eq!(expansion["location"]["uri"], doc);
    assert_eq!(expansion["location"]["range"]["start"]["line"], 4);
    assert_eq!(client.stop(), Some(0));
}

/// The position of the `nth` (from 0) `needle` in a text, plus `shift`
/// characters (texts here are ASCII: bytes are characters).
fn at(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let offset = text.match_indices(needle).nth(nth).expect("in the text").0 + shift;
    let line = text[..offset].matches('\n').count();
    let character = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": character})
}

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}})
}

fn position(uri: &str, at: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "position": at})
}

const LIB: &str = "; the helper\nreg b\nhelper:\n    nilify b\n    jmp main\n";
const MAIN: &str = "\
use std/control
include \"lib.cta\"
const SPEED = 3 + 1
main:
    mov b, Move E
    nilify b
    jmp helper
";

/// A client with `main.cta` (which includes `lib.cta`) open: the client,
/// and the two URIs.
fn with_program(name: &str) -> (Client, String, String) {
    let dir = cli_common::scratch_dir(name);
    std::fs::write(dir.join("lib.cta"), LIB).unwrap();
    let main = uri(&dir.join("main.cta"));
    let lib = uri(&dir.join("lib.cta"));
    let (mut client, _) = Client::start();
    client.open(&main, MAIN);
    let found = client.diagnostics(&main);
    assert_eq!(found, Vec::<Value>::new());
    (client, main, lib)
}

#[test]
fn definition_leads_across_an_include_and_into_the_standard_library() {
    let (mut client, main, lib) = with_program("lsp_definition");
    let answer = client.request(
        "textDocument/definition",
        position(&main, at(MAIN, "helper", 0, 2)),
    );
    let location = &answer["result"];
    assert_eq!(location["uri"], lib.as_str(), "{answer}");
    assert_eq!(location["range"], range((2, 0), (2, 6)));

    // `mov` is a macro of the embedded `std/control`: its text is written,
    // read-only, where the editor can open it.
    let answer = client.request(
        "textDocument/definition",
        position(&main, at(MAIN, "mov", 0, 1)),
    );
    let location = &answer["result"];
    let target = location["uri"].as_str().expect("a location");
    assert!(target.ends_with("/control.cta"), "{target}");
    let path = target.strip_prefix("file://").unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let expected =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/stdlib/control.cta"))
            .unwrap();
    assert_eq!(text, expected);
    assert!(std::fs::metadata(path).unwrap().permissions().readonly());
    let line = text
        .lines()
        .position(|l| l.starts_with("macro mov "))
        .unwrap() as u32;
    assert_eq!(location["range"], range((line, 6), (line, 9)));

    // A module's line leads to its file's start.
    let answer = client.request(
        "textDocument/definition",
        position(&main, at(MAIN, "lib.cta", 0, 0)),
    );
    assert_eq!(answer["result"]["uri"], lib.as_str(), "{answer}");
    assert_eq!(answer["result"]["range"], range((0, 0), (0, 0)));

    // Nothing there: no location.
    let answer = client.request(
        "textDocument/definition",
        position(&main, at(MAIN, "Move", 0, 0)),
    );
    assert_eq!(answer["result"], Value::Null, "{answer}");
    assert_eq!(client.stop(), Some(0));
}

/// `(uri, start line, start character)` of each location, sorted.
fn places(locations: &Value) -> Vec<(String, u64, u64)> {
    let mut places: Vec<(String, u64, u64)> = locations
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| {
            let start = &l["range"]["start"];
            (
                l["uri"].as_str().unwrap().to_string(),
                start["line"].as_u64().unwrap(),
                start["character"].as_u64().unwrap(),
            )
        })
        .collect();
    places.sort();
    places
}

#[test]
fn references_are_found_in_every_file() {
    let (mut client, main, lib) = with_program("lsp_references");
    let mut params = position(&main, at(MAIN, " b,", 0, 1));
    params["context"] = json!({"includeDeclaration": true});
    let answer = client.request("textDocument/references", params.clone());
    let expected = vec![
        (lib.clone(), 1, 4),
        (lib.clone(), 3, 11),
        (main.clone(), 4, 8),
        (main.clone(), 5, 11),
    ];
    assert_eq!(places(&answer["result"]), expected, "{answer}");
    params["context"] = json!({"includeDeclaration": false});
    let answer = client.request("textDocument/references", params);
    assert_eq!(places(&answer["result"]), expected[1..].to_vec());

    // From the included file, once it is open too.
    client.open(&lib, LIB);
    client.diagnostics(&lib);
    let mut params = position(&lib, at(LIB, "main", 0, 0));
    params["context"] = json!({"includeDeclaration": true});
    let answer = client.request("textDocument/references", params);
    assert_eq!(
        places(&answer["result"]),
        vec![(lib.clone(), 4, 8), (main.clone(), 3, 0)],
        "{answer}"
    );
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn rename_edits_every_file_and_refuses_what_would_break() {
    let (mut client, main, lib) = with_program("lsp_rename");
    let mut params = position(&main, at(MAIN, " b,", 0, 1));
    params["newName"] = json!("count");
    let answer = client.request("textDocument/rename", params.clone());
    let changes = &answer["result"]["changes"];
    let edits = |uri: &str| -> Vec<(u64, u64, String)> {
        let mut edits: Vec<(u64, u64, String)> = changes[uri]
            .as_array()
            .unwrap_or_else(|| panic!("edits of {uri}: {answer}"))
            .iter()
            .map(|e| {
                let start = &e["range"]["start"];
                let end = &e["range"]["end"];
                assert_eq!(
                    end["character"].as_u64().unwrap() - start["character"].as_u64().unwrap(),
                    1
                );
                (
                    start["line"].as_u64().unwrap(),
                    start["character"].as_u64().unwrap(),
                    e["newText"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        edits.sort();
        edits
    };
    let count = || "count".to_string();
    assert_eq!(edits(&lib), vec![(1, 4, count()), (3, 11, count())]);
    assert_eq!(edits(&main), vec![(4, 8, count()), (5, 11, count())]);

    // A name that is taken, a reserved word, the standard library, a
    // predeclared register: refused, with why.
    let refused = |client: &mut Client, params: Value, why: &str| {
        let answer = client.request("textDocument/rename", params);
        assert_eq!(answer["error"]["code"], -32803, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{message}");
    };
    params["newName"] = json!("helper");
    refused(
        &mut client,
        params.clone(),
        "`helper` is already defined, as a label",
    );
    params["newName"] = json!("end");
    refused(&mut client, params, "reserved word");
    let mut params = position(&main, at(MAIN, "mov", 0, 0));
    params["newName"] = json!("move");
    refused(&mut client, params, "standard library");
    let mut params = position(&main, at(MAIN, "SPEED", 0, 0));
    params["newName"] = json!("main");
    refused(&mut client, params.clone(), "`main` is already defined");
    params["newName"] = json!("RATE");
    let answer = client.request("textDocument/rename", params);
    assert_eq!(
        answer["result"]["changes"][main.as_str()]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn hover_says_what_a_name_or_an_instruction_is() {
    let (mut client, main, _) = with_program("lsp_hover");
    let hover = |client: &mut Client, needle: &str| -> String {
        let answer = client.request(
            "textDocument/hover",
            position(&main, at(MAIN, needle, 0, 1)),
        );
        assert_eq!(answer["result"]["contents"]["kind"], "markdown", "{answer}");
        answer["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let b = hover(&mut client, " b,");
    assert!(
        b.starts_with("`b`: register 3, limit 4096; starts as Nil"),
        "{b}"
    );
    assert!(b.contains("lib.cta:2:"), "{b}");
    let mov = hover(&mut client, "mov");
    assert!(
        mov.starts_with("```cta\nmacro mov dst, src\n```\n\nmov DST, SRC: DST := SRC."),
        "{mov}"
    );
    assert!(mov.contains("std/control.cta:21:"), "{mov}");
    let speed = hover(&mut client, "SPEED");
    assert!(
        speed.starts_with("constant `SPEED` = 3 + 1 (the number 4)"),
        "{speed}"
    );
    let helper = hover(&mut client, "helper");
    assert!(
        helper.starts_with("`helper`: label: code register"),
        "{helper}"
    );
    assert!(helper.contains("2 instructions"), "{helper}");
    let nilify = hover(&mut client, "nilify");
    assert_eq!(nilify, "```cta\nnilify t\n```\n`t := Nil`; 1 tick");
    let r#move = hover(&mut client, "Move");
    assert!(r#move.contains("Move DIRECTION"), "{move}");
    // Nothing to say about a comment or a blank.
    let answer = client.request(
        "textDocument/hover",
        position(&main, json!({"line": 7, "character": 0})),
    );
    assert_eq!(answer["result"], Value::Null, "{answer}");
    assert_eq!(client.stop(), Some(0));
}

/// The labels of a completion's items.
fn labels(answer: &Value) -> Vec<String> {
    answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("items: {answer}"))
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn completion_offers_modules_names_and_literals() {
    let (mut client, main, _) = with_program("lsp_completion");
    // The text as typed so far, at its end.
    let typed = |client: &mut Client, version: i32, text: &str| -> Value {
        client.change(&main, version, json!([{"text": text}]));
        client.diagnostics(&main);
        let end = at(text, "\n", text.matches('\n').count() - 1, 0);
        client.request("textDocument/completion", position(&main, end))
    };
    let answer = typed(&mut client, 2, &format!("{MAIN}use std/\n"));
    let modules = labels(&answer);
    for module in ["control", "input", "lists"] {
        assert!(modules.contains(&module.to_string()), "{modules:?}");
    }
    let answer = typed(&mut client, 3, &format!("{MAIN}    mov b, \n"));
    let items = answer["result"].as_array().unwrap();
    let named = |label: &str| {
        items
            .iter()
            .find(|i| i["label"] == label)
            .unwrap_or_else(|| panic!("no `{label}` in {answer}"))
    };
    assert_eq!(named("b")["detail"], "register 3, limit 4096");
    assert_eq!(named("helper")["kind"], 18, "a reference");
    assert_eq!(named("SPEED")["kind"], 21, "a constant");
    assert_eq!(named("Move")["insertText"], "Move ${1:DIRECTION}");
    assert_eq!(named("Move")["insertTextFormat"], 2, "a snippet");
    assert_eq!(named("cons")["insertText"], "cons(${1:FRONT}, ${2:BACK})");
    assert!(
        items.iter().all(|i| i["label"] != "nilify"),
        "no instruction at an operand"
    );
    let answer = typed(&mut client, 4, &format!("{MAIN}    n\n"));
    let items = answer["result"].as_array().unwrap();
    let named = |label: &str| items.iter().find(|i| i["label"] == label).cloned();
    assert_eq!(named("nilify").unwrap()["insertText"], "nilify ${1:t}");
    assert_eq!(
        named("mov").unwrap()["insertText"],
        "mov ${1:dst}, ${2:src}"
    );
    assert!(named("b").is_none(), "no register where a statement begins");
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn formatting_is_constree_fmt() {
    let (mut client, _) = Client::start();
    let doc = "file:///tmp/constree-lsp-format.cta";
    let text = "reg a\n main:\n  nilify   a ; x\n";
    client.open(doc, text);
    client.diagnostics(doc);
    let answer = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": doc}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let edits = answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"));
    assert_eq!(edits.len(), 1, "{answer}");
    assert_eq!(edits[0]["range"], range((0, 0), (3, 0)));
    let fmt = cli_common::text(&cli_common::constree(&["fmt", "-"], text).stdout);
    assert_eq!(edits[0]["newText"], fmt.as_str());
    assert_eq!(edits[0]["newText"], "reg a\nmain:\n    nilify a    ; x\n");
    // Formatted already: no edit. Not parsed: why.
    client.change(doc, 2, json!([{"text": fmt}]));
    client.diagnostics(doc);
    let params =
        json!({"textDocument": {"uri": doc}, "options": {"tabSize": 4, "insertSpaces": true}});
    let answer = client.request("textDocument/formatting", params.clone());
    assert_eq!(answer["result"], json!([]), "{answer}");
    client.change(doc, 3, json!([{"text": "reg (\n"}]));
    client.diagnostics(doc);
    let answer = client.request("textDocument/formatting", params);
    assert_eq!(answer["error"]["code"], -32803, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the document does not parse: 1:"),
        "{answer}"
    );
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn the_outline_lists_what_the_document_defines() {
    let (mut client, main, _) = with_program("lsp_outline");
    let answer = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": main}}),
    );
    let symbols: Vec<(String, u64, Value)> = answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["kind"].as_u64().unwrap(),
                s["range"].clone(),
            )
        })
        .collect();
    assert_eq!(
        symbols,
        vec![
            ("SPEED".to_string(), 14, range((2, 6), (2, 11))),
            ("main".to_string(), 12, range((3, 0), (3, 4))),
        ]
    );
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn hover_gives_an_automatic_limit_as_the_image_has_it() {
    let text =
        "reg big auto = bits(\"11000\")\nreg given 7\nmain:\n    nilify big\n    nilify given\n";
    let loader = constree::asm::source::MemoryLoader::default().with("auto.cta", text);
    let image = constree::asm::assemble_file(&loader, std::path::Path::new("auto.cta"))
        .image
        .expect("the program assembles");
    let limit_of = |name: &str| {
        let r = image.registers.iter().find(|r| r.name == name).unwrap();
        r.limit
    };
    let (mut client, _) = Client::start();
    let doc = "file:///tmp/constree-lsp-auto.cta";
    client.open(doc, text);
    assert_eq!(client.diagnostics(doc), Vec::<Value>::new());
    let mut hover = |needle: &str| -> String {
        let answer = client.request("textDocument/hover", position(doc, at(text, needle, 0, 1)));
        answer["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer}"))
            .to_string()
    };
    let big = hover("big auto");
    let expected = format!("limit {} (auto)", limit_of("big"));
    assert!(big.contains(&expected), "{expected} in {big}");
    let given = hover("given 7");
    assert!(given.contains("limit 7;"), "{given}");
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn requests_on_a_broken_or_huge_document_answer_alone() {
    let (mut client, _) = Client::start();
    let doc = "file:///tmp/constree-lsp-broken.cta";
    let mut huge = String::from("use std/control\nreg r\nmain:\n");
    for i in 0..2500 {
        huge.push_str(&format!(
            ".l{i}:\n    mov r, [{i}]\n    jnil r, .l{}\n",
            i / 2
        ));
    }
    huge.push_str("    mov r, ((((\n");
    let texts = [
        "\u{0}\u{1}((((((((\n[[[[[[[ ; \"\n\t\u{feff}é𝄞\n".to_string(),
        format!("reg r = {}{}\n", "[".repeat(400), "]".repeat(400)),
        huge,
    ];
    for (version, text) in texts.iter().enumerate() {
        client.change(doc, version as i32, json!([{"text": text}]));
        if version == 0 {
            client.open(doc, text);
        }
        client.diagnostics(doc);
        let lines = text.matches('\n').count() as u32;
        for line in [0, 1, 2, lines / 2, lines, lines + 10] {
            for character in [0, 3, 200] {
                let p = position(doc, json!({"line": line, "character": character}));
                for method in [
                    "textDocument/hover",
                    "textDocument/definition",
                    "textDocument/completion",
                ] {
                    let answer = client.request(method, p.clone());
                    assert!(
                        answer.get("result").is_some() || answer.get("error").is_some(),
                        "{answer}"
                    );
                }
            }
        }
        let answer = client.request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": doc}, "options": {"tabSize": 4, "insertSpaces": true}}),
        );
        assert!(
            answer.get("result").is_some() || answer.get("error").is_some(),
            "{answer}"
        );
        let answer = client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": doc}}),
        );
        assert!(answer["result"].is_array(), "{answer}");
    }
    assert_eq!(client.stop(), Some(0));
}

/// The methods each capability of the `initialize` answer offers.
const CAPABILITIES: &[(&str, &[&str])] = &[
    (
        "textDocumentSync",
        &[
            "textDocument/didOpen",
            "textDocument/didChange",
            "textDocument/didClose",
        ],
    ),
    ("hoverProvider", &["textDocument/hover"]),
    ("definitionProvider", &["textDocument/definition"]),
    ("referencesProvider", &["textDocument/references"]),
    ("renameProvider", &["textDocument/rename"]),
    ("completionProvider", &["textDocument/completion"]),
    ("documentSymbolProvider", &["textDocument/documentSymbol"]),
    ("documentFormattingProvider", &["textDocument/formatting"]),
    ("codeActionProvider", &["textDocument/codeAction"]),
    ("workspaceSymbolProvider", &["workspace/symbol"]),
    (
        "semanticTokensProvider",
        &["textDocument/semanticTokens/full"],
    ),
    ("foldingRangeProvider", &["textDocument/foldingRange"]),
    ("inlayHintProvider", &["textDocument/inlayHint"]),
];

#[test]
fn the_docs_list_what_the_server_says_it_serves() {
    let (client, capabilities) = Client::start();
    let mut served: Vec<&str> = capabilities
        .as_object()
        .unwrap()
        .keys()
        .flat_map(|key| {
            CAPABILITIES
                .iter()
                .find(|(k, _)| k == key)
                .unwrap_or_else(|| panic!("capability {key}: add its methods to CAPABILITIES"))
                .1
                .iter()
                .copied()
        })
        .collect();
    served.sort();
    let docs = include_str!("../docs/editors.md");
    let table = docs
        .split("<!-- capabilities: checked by tests/lsp.rs -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- end of capabilities -->").next())
        .expect("the table of capabilities in docs/editors.md");
    let mut documented: Vec<&str> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .collect();
    documented.sort();
    assert_eq!(documented, served);
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn workspace_symbols_come_from_every_open_program() {
    let (mut client, _, lib) = with_program("lsp_workspace_symbols");
    let answer = client.request("workspace/symbol", json!({"query": "HELP"}));
    let found = answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"));
    assert_eq!(found.len(), 1, "{answer}");
    assert_eq!(found[0]["name"], "helper");
    assert_eq!(found[0]["location"]["uri"], lib.as_str());
    assert_eq!(found[0]["location"]["range"], range((2, 0), (2, 6)));
    let answer = client.request("workspace/symbol", json!({"query": "jnil"}));
    let uri = answer["result"][0]["location"]["uri"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"));
    assert!(uri.ends_with("/control.cta"), "{answer}");
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn quick_fixes_come_from_the_help() {
    let (mut client, _) = Client::start();
    let doc = "file:///tmp/constree-lsp-fixes.cta";
    let text = "use std/control\nreg x\nmain:\n    pusj x, x\n    mov x, 4\n    halt\n";
    client.open(doc, text);
    let diagnostics = client.diagnostics(doc);
    assert_eq!(diagnostics.len(), 2, "{diagnostics:?}");
    let answer = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": doc},
            "range": range((0, 0), (6, 0)),
            "context": {"diagnostics": diagnostics},
        }),
    );
    let actions: Vec<(String, Value, String)> = answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|a| {
            let edit = &a["edit"]["changes"][doc][0];
            assert_eq!(a["kind"], "quickfix");
            (
                a["title"].as_str().unwrap().to_string(),
                edit["range"].clone(),
                edit["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        actions,
        vec![
            (
                "Replace `pusj` with `push`".to_string(),
                range((3, 4), (3, 8)),
                "push".to_string()
            ),
            (
                "Replace `4` with `#4`".to_string(),
                range((4, 11), (4, 12)),
                "#4".to_string()
            ),
            (
                "Replace `4` with `@4`".to_string(),
                range((4, 11), (4, 12)),
                "@4".to_string()
            ),
        ]
    );
    assert_eq!(client.stop(), Some(0));
}

/// A program with a bit of everything: comments, a string, numbers, a
/// macro defined and called, registers, labels and constants.
const RICH: &str = "\
; a bot
; that walks
use std/control
include \"lib.cta\"
const SPEED = 3 + 1
reg r = [SPEED, 0x10]

; r := Cons r r, twice
macro twice x
    construct x, x, x
    construct x, x, x
end

main:
    mov b, Move E   ; go east
    twice r
    nilify r
.again:
    jnil r, .again
    jmp helper
";

/// A client with `main.cta` (`RICH`, which includes `lib.cta`) open: the
/// client, the server's capabilities, and the URI.
fn with_rich_program(name: &str) -> (Client, Value, String) {
    let dir = cli_common::scratch_dir(name);
    std::fs::write(dir.join("lib.cta"), LIB).unwrap();
    let main = uri(&dir.join("main.cta"));
    let (mut client, capabilities) = Client::start();
    client.open(&main, RICH);
    assert_eq!(client.diagnostics(&main), Vec::<Value>::new());
    (client, capabilities, main)
}

/// The text of a range of a text (one line, ASCII).
fn text_at(text: &str, line: u64, character: u64, length: u64) -> &str {
    let line = text.lines().nth(line as usize).unwrap_or("");
    let start = (character as usize).min(line.len());
    &line[start..(start + length as usize).min(line.len())]
}

#[test]
fn semantic_tokens_say_what_every_word_is() {
    let (mut client, capabilities, main) = with_rich_program("lsp_tokens");
    let legend = &capabilities["semanticTokensProvider"]["legend"];
    let types = legend["tokenTypes"].as_array().unwrap();
    let modifiers = legend["tokenModifiers"].as_array().unwrap();
    let answer = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": main}}),
    );
    let data: Vec<u64> = answer["result"]["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    // Five numbers a token, each place relative to the one before.
    let (mut line, mut character) = (0, 0);
    let mut shown = String::new();
    for token in data.chunks(5) {
        line += token[0];
        character = if token[0] == 0 {
            character + token[1]
        } else {
            token[1]
        };
        let mut kind = types[token[3] as usize].as_str().unwrap().to_string();
        for (bit, modifier) in modifiers.iter().enumerate() {
            if token[4] & (1 << bit) != 0 {
                kind.push_str(&format!(" +{}", modifier.as_str().unwrap()));
            }
        }
        let written = text_at(RICH, line, character, token[2]);
        shown.push_str(&format!("{line}:{character} {written:?} {kind}\n"));
    }
    insta::assert_snapshot!("lsp_semantic_tokens", shown);
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn macros_blocks_labels_and_comments_fold() {
    let (mut client, _, main) = with_rich_program("lsp_folding");
    let answer = client.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": main}}),
    );
    let shown: Vec<String> = answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|f| {
            let (start, end) = (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            );
            let first = RICH.lines().nth(start as usize).unwrap();
            let kind = f["kind"].as_str().unwrap_or("code");
            format!("{start}-{end} {kind}: {first}")
        })
        .collect();
    insta::assert_snapshot!("lsp_folding_ranges", shown.join("\n"));
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn inlay_hints_give_register_numbers_and_ticks() {
    let (mut client, _, main) = with_rich_program("lsp_inlay");
    let lines = RICH.matches('\n').count() as u32;
    let answer = client.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": main}, "range": range((0, 0), (lines, 0))}),
    );
    let shown: Vec<String> = answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|h| {
            let (line, character) = (
                h["position"]["line"].as_u64().unwrap(),
                h["position"]["character"].as_u64().unwrap(),
            );
            let before = text_at(RICH, line, 0, character);
            format!(
                "{line}:{character} {before}‹{}›",
                h["label"].as_str().unwrap()
            )
        })
        .collect();
    insta::assert_snapshot!("lsp_inlay_hints", shown.join("\n"));
    // Only the range asked for.
    let answer = client.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": main}, "range": range((15, 0), (16, 0))}),
    );
    let labels: Vec<&str> = answer["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["@4", "2 ticks"], "`twice r`: {answer}");
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn hover_says_what_writes_a_register_and_what_a_call_expands_to() {
    let (mut client, _, main) = with_rich_program("lsp_hover_more");
    let dir = main
        .strip_prefix("file://")
        .unwrap()
        .trim_end_matches("main.cta");
    let mut hover = |needle: &str, shift: usize| -> String {
        let answer = client.request(
            "textDocument/hover",
            position(&main, at(RICH, needle, 0, shift)),
        );
        let value = answer["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer}"));
        value.replace(dir, "DIR/")
    };
    let shown = [
        ("the register r", hover("reg r", 4)),
        ("the register b", hover("mov b", 4)),
        ("the call of twice", hover("twice r", 1)),
        ("the call of mov", hover("mov b", 1)),
        ("the label main", hover("main:", 1)),
    ]
    .map(|(what, text)| format!("## {what}\n{text}\n"))
    .join("\n");
    insta::assert_snapshot!("lsp_hover_writes_and_expansions", shown);
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn completion_offers_the_files_beside_the_document() {
    let (mut client, main, _) = with_program("lsp_complete_files");
    let dir = std::path::PathBuf::from(main.strip_prefix("file://").unwrap())
        .parent()
        .unwrap()
        .to_path_buf();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/walk.cta"), "").unwrap();
    std::fs::write(dir.join("notes.txt"), "").unwrap();
    std::fs::write(dir.join(".hidden.cta"), "").unwrap();
    let mut complete = |version: i32, line: &str| -> Vec<String> {
        let text = format!("{MAIN}{line}\n");
        client.change(&main, version, json!([{"text": text}]));
        client.diagnostics(&main);
        let end = json!({"line": MAIN.matches('\n').count(), "character": line.len()});
        labels(&client.request("textDocument/completion", position(&main, end)))
    };
    assert_eq!(complete(2, "include \""), ["lib.cta", "sub/"]);
    assert_eq!(complete(3, "use \"sub/"), ["walk.cta"]);
    assert_eq!(complete(4, "include \"nowhere/"), Vec::<String>::new());
    let has = |labels: &[String], label: &str| labels.iter().any(|l| l == label);
    let standard = complete(5, "use std/");
    assert!(
        has(&standard, "control") && !has(&standard, "lib"),
        "{standard:?}"
    );
    // A bare path: names, without `.cta`, and the standard modules.
    let bare = complete(6, "include ");
    for label in ["control", "lib", "sub/"] {
        assert!(has(&bare, label), "{label} in {bare:?}");
    }
    assert!(!has(&bare, "lib.cta") && !has(&bare, "notes"), "{bare:?}");
    let bare = complete(7, "use sub/");
    assert!(has(&bare, "walk") && !has(&bare, "lib"), "{bare:?}");
    assert_eq!(client.stop(), Some(0));
}

/// A small random number generator (xorshift64*), so that the fuzz test
/// is the same on every run of a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (0 for 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The byte offset of a protocol position in a text, as the server reads
/// it: a column counts UTF-16 units, one past its line's end is the end
/// of the line, a line past the text's end is the text's end, and a
/// column inside a character's two units is the character's end.
fn offset_of(text: &str, line: u64, character: u64) -> usize {
    let Some(start) = (0..line).try_fold(0, |at, _| text[at..].find('\n').map(|i| at + i + 1))
    else {
        return text.len();
    };
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        if units >= character {
            return start + i;
        }
        units += c.len_utf16() as u64;
    }
    end
}

/// The protocol position of a byte offset.
fn position_of(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    json!({"line": before.matches('\n').count(), "character": character})
}

/// Text to insert: statements, mistakes, characters outside the language,
/// characters of two UTF-16 units, line ends, and what opens or closes.
const FRAGMENTS: &[&str] = &[
    "nilify r\n",
    "    mov r, Move E\n",
    "main:\n",
    ".loop:\n",
    "    jnil r, .loop\n",
    "reg r\n",
    "reg r2 = [1, 2, 3]\n",
    "const K = 7\n",
    "macro m a\n    nilify a\nend\n",
    "    m r\n",
    "macro deep\n",
    "if K == 7\n",
    "else\n",
    "end\n",
    "use std/control\n",
    "include \"cycle_a.cta\"\n",
    "(((",
    "]]",
    "\"unterminated",
    "é𝄞",
    "𝄞𝄞\u{feff}",
    "\r\n",
    "\n",
    " ; comment\n",
    "\u{0}",
    "bogus x, y\n",
    "    mov r, 4\n",
    "#",
    "@9",
];

/// The structural attacks: deep nesting, long chains, a huge line, an
/// include cycle, many open `if`s, a long list.
const ATTACKS: usize = 6;

/// The `kind`th structural attack.
fn attack(kind: usize) -> String {
    match kind % ATTACKS {
        0 => format!("reg deep = {}{}\n", "[".repeat(10_000), "]".repeat(10_000)),
        1 => format!("const CHAIN = {}\n", vec!["1"; 5_000].join(" + ")),
        2 => format!("    nilify {}\n", "r".repeat(200_000)),
        3 => "include \"cycle_a.cta\"\n".into(),
        4 => "if 1\n".repeat(10_000),
        _ => format!("reg list = [{}]\n", vec!["Move E"; 5_000].join(", ")),
    }
}

/// The program the fuzzed document starts as (and goes back to when it
/// grows too large).
const FUZZ_START: &str =
    "use std/control\nreg r\nmain:\n    mov r, Move E\n.loop:\n    jnil r, .loop\n    jmp main\n";

/// A random position, sometimes past a line's end or the text's end.
fn random_position(rng: &mut Rng, text: &str) -> (u64, u64) {
    let lines: Vec<&str> = text.split('\n').collect();
    let line = rng.below(lines.len() + 2);
    let width = lines
        .get(line)
        .map_or(0, |l| l.chars().map(char::len_utf16).sum::<usize>());
    (line as u64, rng.below(width + 3) as u64)
}

/// One random request at a random place of the document: its method and
/// parameters.
fn random_request(rng: &mut Rng, doc: &str, text: &str) -> (&'static str, Value) {
    let (line, character) = random_position(rng, text);
    let at = position(doc, json!({"line": line, "character": character}));
    let whole = json!({"textDocument": {"uri": doc}});
    match rng.below(9) {
        0 => ("textDocument/hover", at),
        1 => ("textDocument/definition", at),
        2 => ("textDocument/completion", at),
        3 => {
            let mut params = at;
            params["context"] = json!({"includeDeclaration": true});
            ("textDocument/references", params)
        }
        4 => ("textDocument/semanticTokens/full", whole),
        5 => ("textDocument/foldingRange", whole),
        6 => {
            let (end_line, end) = random_position(rng, text);
            let range = json!({"start": {"line": line, "character": character},
                               "end": {"line": end_line, "character": end}});
            (
                "textDocument/inlayHint",
                json!({"textDocument": {"uri": doc}, "range": range}),
            )
        }
        7 => ("textDocument/documentSymbol", whole),
        _ => {
            let mut params = at;
            params["newName"] = json!("renamed");
            ("textDocument/rename", params)
        }
    }
}

/// `(code, severity, message, range)` of each diagnostic, sorted.
type Seen = Vec<(String, u64, String, Value)>;

/// What `constree check --message-format json` says of a file, as [`Seen`]
/// (the range `null` for a diagnostic in another file).
fn checked(path: &std::path::Path, text: &str) -> Seen {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(["check", "--message-format", "json"])
        .arg(path)
        .output()
        .unwrap();
    let mut seen: Seen = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .map(|d| {
            let primary = d["spans"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["is_primary"] == true)
                .cloned()
                .unwrap_or_default();
            let range = if primary["file"] == path.to_str().unwrap() {
                let at = |key: &str| position_of(text, primary[key].as_u64().unwrap() as usize);
                json!({"start": at("byte_start"), "end": at("byte_end")})
            } else {
                Value::Null
            };
            let severity = if d["level"] == "error" { 1 } else { 2 };
            let message = d["message"].as_str().unwrap().to_string();
            (
                d["code"].as_str().unwrap().to_string(),
                severity,
                message,
                range,
            )
        })
        .collect();
    seen.sort_by_key(|d| format!("{d:?}"));
    seen
}

/// Whether the server's diagnostics are `constree check`'s: the same
/// codes, severities and messages, and each of check's in the document at
/// the same range (one in another file is shown where it was reached).
fn same_as_check(published: &[Value], check: &Seen) -> bool {
    let mut server: Seen = published
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
                d["range"].clone(),
            )
        })
        .collect();
    server.sort_by_key(|d| format!("{d:?}"));
    let words = |seen: &Seen| -> Vec<(String, u64, String)> {
        let mut words: Vec<_> = seen
            .iter()
            .map(|(c, s, m, _)| (c.clone(), *s, m.clone()))
            .collect();
        words.sort();
        words
    };
    words(&server) == words(check)
        && check
            .iter()
            .filter(|d| !d.3.is_null())
            .all(|d| server.contains(d))
}

/// Random incremental edits, structural attacks among them, with requests
/// at random places between them: every request is answered (a result or
/// an error), the server lives to the end, and its diagnostics of the
/// final text are `constree check`'s. A few hundred edits here;
/// `CONSTREE_LSP_FUZZ_EDITS=N` (and `CONSTREE_LSP_FUZZ_SEED`) for a
/// longer run.
#[test]
fn random_edits_never_kill_the_server() {
    let edits: usize = std::env::var("CONSTREE_LSP_FUZZ_EDITS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(250);
    let seed: u64 = std::env::var("CONSTREE_LSP_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(21);
    let mut rng = Rng(seed.max(1));
    let dir = cli_common::scratch_dir("lsp_fuzz");
    std::fs::write(dir.join("cycle_a.cta"), "include \"cycle_b.cta\"\n").unwrap();
    std::fs::write(dir.join("cycle_b.cta"), "include \"cycle_a.cta\"\nreg c\n").unwrap();
    let path = dir.join("fuzz.cta");
    let doc = uri(&path);
    let (mut client, _) = Client::start();
    let mut text = FUZZ_START.to_string();
    client.open(&doc, &text);
    let mut last = client.diagnostics(&doc);
    let mut answered = 0;
    for version in 2..edits as i32 + 2 {
        let change = if text.len() > 400_000 {
            text = FUZZ_START.to_string();
            json!({"text": text})
        } else {
            let (start_line, start) = random_position(&mut rng, &text);
            let (end_line, end) = if rng.below(3) == 0 {
                (start_line, start)
            } else {
                random_position(&mut rng, &text)
            };
            // Every attack once in the first `30 * ATTACKS` edits, and then
            // at random.
            let new = match rng.below(40) {
                _ if version % 30 == 0 && version <= 30 * ATTACKS as i32 => {
                    attack(version as usize / 30)
                }
                0 => attack(rng.below(ATTACKS)),
                1..=8 => String::new(),
                _ => rng.pick(FRAGMENTS).to_string(),
            };
            let from = offset_of(&text, start_line, start);
            let to = offset_of(&text, end_line, end).max(from);
            text.replace_range(from..to, &new);
            let range = json!({"start": {"line": start_line, "character": start},
                               "end": {"line": end_line, "character": end}});
            json!({"range": range, "text": new})
        };
        client.change(&doc, version, json!([change]));
        let message = client.until(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == doc.as_str()
                && m["params"]["version"] == version
        });
        last = message["params"]["diagnostics"].as_array().unwrap().clone();
        for _ in 0..rng.below(3) {
            let (method, params) = random_request(&mut rng, &doc, &text);
            let answer = client.request(method, params);
            assert!(
                answer.get("result").is_some() || answer.get("error").is_some(),
                "{method}: {answer}"
            );
            answered += 1;
        }
    }
    assert!(answered > edits / 2, "{answered} requests");
    std::fs::write(&path, &text).unwrap();
    let check = checked(&path, &text);
    assert!(
        same_as_check(&last, &check),
        "server: {last:#?}\ncheck: {check:#?}\nfinal text:\n{text}"
    );
    assert_eq!(client.stop(), Some(0));
}

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
        let mut child = Command::new(env!("CARGO_BIN_EXE_constree"))
            .arg("lsp")
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
    let answer = client.request("textDocument/hover", json!({}));
    assert_eq!(
        answer["error"]["code"], -32601,
        "method not found: {answer}"
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

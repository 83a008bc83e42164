//! A headless Chromium driven through WebDriver (chromedriver), over plain
//! HTTP/1.1 on a local socket: enough of the protocol for the viewer's
//! tests (open a page, run a script, click, press keys, take a
//! screenshot, read the browser's network log).

#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The browser and its driver, as Debian installs them (`.ci/run` installs
/// the packages `chromium` and `chromium-driver` when they are missing).
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// WebDriver's codes for keys.
pub const ARROW_LEFT: &str = "\u{E012}";
pub const ARROW_RIGHT: &str = "\u{E014}";
pub const HOME: &str = "\u{E011}";
pub const END: &str = "\u{E010}";
pub const SPACE: &str = " ";

/// A browser session; the driver is stopped when it is dropped.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// One HTTP request to the driver; the JSON answer's `value`.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream =
        TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()))
        .map_err(|e| format!("send: {e}"))?;
    let (head, body) = read_answer(&mut stream)?;
    let text = if head.contains("transfer-encoding: chunked") {
        dechunk(&body)
    } else {
        body
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{e}: {}", &text[..text.len().min(300)]))?;
    let inner = value.get("value").cloned().unwrap_or(Value::Null);
    if inner.get("error").is_some() {
        return Err(format!("{method} {path}: {inner}"));
    }
    Ok(inner)
}

/// Reads an HTTP answer: its head (in lower case) and body. The driver
/// keeps the connection open, so the body is read to its length.
fn read_answer(stream: &mut TcpStream) -> Result<(String, String), String> {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 65536];
    let split = loop {
        if let Some(k) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break k;
        }
        let n = stream
            .read(&mut buffer)
            .map_err(|e| format!("receive: {e}"))?;
        if n == 0 {
            return Err("the driver closed the connection".into());
        }
        bytes.extend_from_slice(&buffer[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..split]).to_ascii_lowercase();
    let length = head.lines().find_map(|l| {
        let value = l.strip_prefix("content-length:")?;
        value.trim().parse::<usize>().ok()
    });
    let mut body = bytes[split + 4..].to_vec();
    loop {
        let done = match length {
            Some(n) => body.len() >= n,
            None => body.ends_with(b"0\r\n\r\n"),
        };
        if done {
            break;
        }
        let n = stream
            .read(&mut buffer)
            .map_err(|e| format!("receive: {e}"))?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buffer[..n]);
    }
    Ok((head, String::from_utf8_lossy(&body).into_owned()))
}

/// The body of a chunked HTTP answer.
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

impl Browser {
    /// Starts chromedriver and a headless Chromium, `width` x `height`.
    pub fn start(width: u32, height: u32) -> Browser {
        for tool in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                std::path::Path::new(tool).exists(),
                "{tool} is missing: `apt-get install chromium chromium-driver` (.ci/run does)"
            );
        }
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let started = Instant::now();
        while request(port, "GET", "/status", None).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "chromedriver did not answer"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
        };
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", format!("--window-size={width},{height}")],
            },
            "goog:loggingPrefs": {"performance": "ALL"},
        }}});
        let session =
            request(port, "POST", "/session", Some(&capabilities)).expect("a browser session");
        browser.session = session["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        browser
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        request(self.port, method, &path, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens a page.
    pub fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    /// Runs a script (its `arguments` are `args`) and returns its result.
    pub fn script(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// The text of the first element a CSS selector finds.
    pub fn text(&self, selector: &str) -> String {
        self.script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
            json!([selector]),
        )
        .as_str()
        .unwrap_or_else(|| panic!("no element {selector}"))
        .to_string()
    }

    /// A mouse click at a point of the viewport (a real pointer action).
    pub fn click_at(&self, x: f64, y: f64) {
        let actions = json!({"actions": [{"type": "pointer", "id": "mouse",
        "parameters": {"pointerType": "mouse"},
        "actions": [
            {"type": "pointerMove", "x": x.round() as i64, "y": y.round() as i64, "origin": "viewport"},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        ]}]});
        self.call("POST", "/actions", Some(actions));
    }

    /// Presses and releases a key (one of the constants above).
    pub fn key(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard",
            "actions": [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]});
        self.call("POST", "/actions", Some(actions));
    }

    /// A screenshot of the viewport, as PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let text = self.call("GET", "/screenshot", None);
        base64(text.as_str().expect("base64 text"))
    }

    /// The URLs of every request the browser sent since the last call
    /// (from Chromium's network events).
    pub fn requests(&self) -> Vec<String> {
        let log = self.call("POST", "/se/log", Some(json!({"type": "performance"})));
        let mut urls = Vec::new();
        for entry in log.as_array().into_iter().flatten() {
            let Some(message) = entry["message"].as_str() else {
                continue;
            };
            let Ok(event) = serde_json::from_str::<Value>(message) else {
                continue;
            };
            if event["message"]["method"] == "Network.requestWillBeSent"
                && let Some(url) = event["message"]["params"]["request"]["url"].as_str()
            {
                urls.push(url.to_string());
            }
        }
        urls
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = request(self.port, "DELETE", &path, None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Decodes standard base64.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, d)| n | d << (18 - 6 * k));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

/// The number of distinct colours of a PNG image (8-bit RGB or RGBA, not
/// interlaced, as Chromium writes its screenshots).
pub fn png_colours(png: &[u8]) -> usize {
    use std::io::Read as _;
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (mut width, mut height, mut channels) = (0usize, 0usize, 0usize);
    let mut data = Vec::new();
    let mut at = 8;
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let kind = &png[at + 4..at + 8];
        let body = &png[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(body[0..4].try_into().unwrap()) as usize;
                height = u32::from_be_bytes(body[4..8].try_into().unwrap()) as usize;
                assert_eq!(body[8], 8, "8-bit samples");
                channels = match body[9] {
                    2 => 3,
                    6 => 4,
                    other => panic!("colour type {other}"),
                };
                assert_eq!(body[12], 0, "not interlaced");
            }
            b"IDAT" => data.extend_from_slice(body),
            _ => {}
        }
        at += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&data[..])
        .read_to_end(&mut raw)
        .expect("the image data inflates");
    let stride = width * channels;
    let mut previous = vec![0u8; stride];
    let mut colours = std::collections::HashSet::new();
    for row in 0..height {
        let line = &raw[row * (stride + 1)..(row + 1) * (stride + 1)];
        let mut current = line[1..].to_vec();
        for i in 0..stride {
            let a = if i >= channels {
                current[i - channels]
            } else {
                0
            } as i16;
            let b = previous[i] as i16;
            let c = if i >= channels {
                previous[i - channels]
            } else {
                0
            } as i16;
            let add = match line[0] {
                0 => 0,
                1 => a,
                2 => b,
                3 => (a + b) / 2,
                4 => {
                    let p = a + b - c;
                    let (pa, pb, pc) = ((p - a).abs(), (p - b).abs(), (p - c).abs());
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("filter {f}"),
            };
            current[i] = current[i].wrapping_add(add as u8);
        }
        for px in current.chunks(channels) {
            colours.insert((px[0], px[1], px[2]));
        }
        previous = current;
    }
    colours.len()
}

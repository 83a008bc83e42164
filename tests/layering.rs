//! The library's layers, enforced (docs/architecture.md).
//!
//! Every file of `src/` is read as Rust text with its comments, strings
//! and character literals blanked out. Every path that starts at the crate
//! root (`crate::NAME`, `crate::{NAME, ...}`, or as many `super::` as climb
//! there, counting inline `mod NAME { ... }`) names the top-level module it
//! imports. The rule: a module imports only modules of the layers below its
//! own ([`LAYERS`]), and only `src/cli/` and `src/main.rs` name the crates
//! of the command line ([`CLI_CRATES`]). `Cargo.toml` must make those crates
//! optional dependencies reached only through the `cli` feature, so the
//! library built with `--no-default-features` has none of them.
//!
//! docs/architecture.md draws the same layers and names places in the
//! code; the last tests hold it to the code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: a module may import the modules of the layers
/// below its own, never one of its own layer or above. The first four are
/// the shared foundations (limits, words, files, diagnostics); then the
/// engine, lowest first (tree, encoding, machine, world); images; the
/// assembler; scenarios; conformance vectors and the debugger core, which
/// know nothing of each other; the viewer; the command line.
const LAYERS: &[&[&str]] = &[
    &["limits"],
    &["words"],
    &["files"],
    &["diagnostic"],
    &["tree"],
    &["encoding"],
    &["machine"],
    &["world"],
    &["image"],
    &["asm"],
    &["scenario"],
    &["conformance", "debugger"],
    &["viewer"],
    &["cli"],
];

/// The crates of the command line: not dependencies of the library.
const CLI_CRATES: &[&str] = &[
    "clap",
    "clap_complete",
    "clap_mangen",
    "indicatif",
    "libc",
    "lsp_server",
    "lsp_types",
    "rustyline",
];

/// The layer of a top-level module.
fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Rust text with comments, strings and character literals replaced by
/// spaces (line breaks kept, so lines keep their numbers).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let end = if c == '/' && next == Some('/') {
            chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |n| i + n)
        } else if c == '/' && next == Some('*') {
            let (mut depth, mut j) = (0usize, i);
            loop {
                match (chars.get(j), chars.get(j + 1)) {
                    (Some('/'), Some('*')) => (depth, j) = (depth + 1, j + 2),
                    (Some('*'), Some('/')) => {
                        (depth, j) = (depth - 1, j + 2);
                        if depth == 0 {
                            break j;
                        }
                    }
                    (Some(_), _) => j += 1,
                    (None, _) => break j,
                }
            }
        } else if let Some(end) = raw_string(&chars, i).filter(|_| i == 0 || !ident(chars[i - 1])) {
            end
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            j + 1
        } else if c == '\'' && next == Some('\\') {
            let close = chars[i + 2..].iter().position(|&c| c == '\'');
            close.map_or(i + 1, |n| i + 2 + n + 1)
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i + 3
        } else {
            out.push(c);
            i += 1;
            continue;
        };
        let end = end.min(chars.len());
        out.extend(chars[i..end].iter().map(|&c| blank(c)));
        i = end;
    }
    out
}

/// The end of a raw string (`r"…"`, `r#"…"#`, `br"…"`) starting at `i`.
fn raw_string(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    if chars.get(j) != Some(&'"') {
        return None;
    }
    let closing: Vec<char> = std::iter::once('"')
        .chain(std::iter::repeat_n('#', hashes))
        .collect();
    let body = j + 1;
    (body..chars.len())
        .find(|&k| chars[k..].starts_with(&closing))
        .map(|k| k + closing.len())
        .or(Some(chars.len()))
}

/// A token of code-only text: a word, `::`, or one other character.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    Word(&'a str),
    Path,
    Punct(char),
}

/// The tokens of code-only text, each with its 1-based line.
fn tokens(code: &str) -> Vec<(Token<'_>, usize)> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut rest = code.char_indices().peekable();
    while let Some((at, c)) = rest.next() {
        if c == '\n' {
            line += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let mut end = at + c.len_utf8();
            while let Some(&(k, d)) = rest.peek() {
                if !(d.is_alphanumeric() || d == '_') {
                    break;
                }
                end = k + d.len_utf8();
                rest.next();
            }
            out.push((Token::Word(&code[at..end]), line));
        } else if c == ':' && rest.peek().is_some_and(|&(_, d)| d == ':') {
            rest.next();
            out.push((Token::Path, line));
        } else if !c.is_whitespace() {
            out.push((Token::Punct(c), line));
        }
    }
    out
}

/// What one file refers to: the top-level modules reached through the
/// crate root and the external crates named at the start of a path, each
/// with a line where it is.
#[derive(Debug, Default, PartialEq)]
struct References {
    modules: BTreeMap<String, usize>,
    crates: BTreeMap<String, usize>,
}

/// The references of the text of a file that is the module `path` (for
/// `src/debugger/commands/mod.rs`, `["debugger", "commands"]`).
fn references(text: &str, path: &[&str]) -> References {
    let code = code_only(text);
    let tokens = tokens(&code);
    let mut found = References::default();
    // The brace depth at which each open inline module's body started.
    let mut inline: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let word = |k: usize| match tokens.get(k) {
        Some((Token::Word(w), _)) => Some(*w),
        _ => None,
    };
    let is = |k: usize, t: &Token| tokens.get(k).is_some_and(|(u, _)| u == t);
    for k in 0..tokens.len() {
        let line = tokens[k].1;
        match &tokens[k].0 {
            Token::Punct('{') => {
                if k >= 2 && word(k - 2) == Some("mod") && word(k - 1).is_some() {
                    inline.push(depth);
                }
                depth += 1;
                continue;
            }
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
                continue;
            }
            _ => {}
        }
        // Only the start of a path: not after `::`, nor a macro's `$crate`.
        let starts = k == 0 || !matches!(tokens[k - 1].0, Token::Path | Token::Punct('$'));
        let Some(first) = word(k).filter(|_| starts && is(k + 1, &Token::Path)) else {
            continue;
        };
        let root = match first {
            "crate" => Some(k + 2),
            "super" => {
                let mut j = k;
                while word(j) == Some("super") && is(j + 1, &Token::Path) {
                    j += 2;
                }
                let supers = (j - k) / 2;
                (supers == path.len() + inline.len()).then_some(j)
            }
            "self" | "Self" => None,
            name => {
                found.crates.entry(name.to_string()).or_insert(line);
                None
            }
        };
        let Some(root) = root else { continue };
        for name in root_items(&tokens, root) {
            found.modules.entry(name.to_string()).or_insert(line);
        }
    }
    found
}

/// The first names of the paths at `k`, just after `crate::`: one name, or
/// the first name of each item of a `{...}` group.
fn root_items<'a>(tokens: &[(Token<'a>, usize)], k: usize) -> Vec<&'a str> {
    match tokens.get(k) {
        Some((Token::Word(w), _)) => vec![w],
        Some((Token::Punct('{'), _)) => {
            let mut names = Vec::new();
            let mut depth = 0usize;
            let mut item_start = true;
            for (token, _) in &tokens[k..] {
                match token {
                    Token::Punct('{') => depth += 1,
                    Token::Punct('}') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Token::Punct(',') if depth == 1 => item_start = true,
                    Token::Word(w) if depth == 1 && item_start => {
                        names.push(*w);
                        item_start = false;
                    }
                    _ => item_start = false,
                }
            }
            names
        }
        _ => Vec::new(),
    }
}

/// Why a file of module `path` breaks the rule: one line per forbidden
/// reference, as `line N: ...`.
fn violations(text: &str, path: &[&str]) -> Vec<String> {
    let own = path[0];
    let own_layer = layer(own);
    let found = references(text, path);
    let mut out = Vec::new();
    for (module, line) in &found.modules {
        if module == own {
            continue;
        }
        match (own_layer, layer(module)) {
            (Some(mine), Some(theirs)) if theirs < mine => {}
            (_, None) => {} // an item of the crate root, not a module
            (None, _) => out.push(format!("line {line}: `{own}` is in no layer of LAYERS")),
            (Some(_), Some(_)) => out.push(format!(
                "line {line}: `{own}` imports `{module}`, which is not in a layer below it"
            )),
        }
    }
    if own != "cli" {
        for (name, line) in &found.crates {
            if CLI_CRATES.contains(&name.as_str()) {
                out.push(format!(
                    "line {line}: `{own}` uses `{name}`, a crate of the command line only"
                ));
            }
        }
    }
    out
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file of `src/` is, as path segments (`None` for the crate
/// root and the binary).
fn module_path(relative: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    match last.as_str() {
        "lib.rs" | "main.rs" if parts.is_empty() => None,
        "mod.rs" => Some(parts),
        _ => {
            parts.push(last.trim_end_matches(".rs").to_string());
            Some(parts)
        }
    }
}

#[test]
fn no_module_imports_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    let mut imports: BTreeSet<(String, String)> = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src/");
        let Some(path) = module_path(relative) else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("a readable source file");
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        for module in references(&text, &path).modules.into_keys() {
            imports.insert((path[0].to_string(), module));
        }
        for problem in violations(&text, &path) {
            problems.push(format!("src/{}: {problem}", relative.display()));
        }
    }
    // The scan sees the imports that are there.
    for (from, to) in [("asm", "image"), ("scenario", "asm"), ("debugger", "world")] {
        assert!(
            imports.contains(&(from.to_string(), to.to_string())),
            "`{from}` imports `{to}`, but the scan did not see it"
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let layered: BTreeSet<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    assert_eq!(declared, layered, "src/lib.rs's modules and LAYERS differ");
}

#[test]
fn a_forbidden_import_is_caught() {
    let engine = "use crate::tree::Tree;\nfn f() -> crate::asm::Assembly { todo!() }\n";
    assert_eq!(
        violations(engine, &["machine", "run"]),
        ["line 2: `machine` imports `asm`, which is not in a layer below it"]
    );
    // A group, and `super` climbing from `src/world/decode.rs` (inline
    // module `tests` included) to the crate root.
    let grouped = "use crate::{tree::Tree, debugger::Debugger};\n\
                   mod tests {\n    use super::super::super::scenario::Scenario;\n}\n";
    assert_eq!(
        violations(grouped, &["world", "decode"]),
        [
            "line 1: `world` imports `debugger`, which is not in a layer below it",
            "line 3: `world` imports `scenario`, which is not in a layer below it",
        ]
    );
    // Layers of one rank do not import each other; a CLI crate outside cli.
    let sideways = "use crate::conformance::run;\nuse rustyline::Editor;\n";
    assert_eq!(
        violations(sideways, &["debugger"]),
        [
            "line 1: `debugger` imports `conformance`, which is not in a layer below it",
            "line 2: `debugger` uses `rustyline`, a crate of the command line only",
        ]
    );
}

#[test]
fn comments_strings_and_own_paths_are_not_imports() {
    let text = r##"
//! See [`crate::cli::main`] (a doc link, not an import).
/* crate::asm in a /* nested */ block: crate::debugger */
const A: &str = "crate::asm::x";
const B: &str = r#"crate::viewer "quoted" crate::cli"#;
const C: char = '"';
const D: char = '{';
fn f<'a>(x: &'a str) -> &'a str { x }
use super::sibling::Thing; // from src/world/action.rs: still `world`
use crate::world::Item;
use crate::machine::Memory;
"##;
    assert_eq!(violations(text, &["world", "action"]), Vec::<String>::new());
    let found = references(text, &["world", "action"]);
    assert_eq!(
        found.modules.keys().collect::<Vec<_>>(),
        ["machine", "world"]
    );
}

/// The features a feature turns on (itself included, following features
/// that turn on other features) and the optional dependencies they turn on,
/// named as Rust code names them (`lsp-server` is `lsp_server`).
fn closure(
    features: &BTreeMap<String, Vec<String>>,
    optional: &BTreeSet<String>,
    start: &str,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut seen = BTreeSet::new();
    let mut deps = BTreeSet::new();
    let mut work = vec![start.to_string()];
    while let Some(feature) = work.pop() {
        if !seen.insert(feature.clone()) {
            continue;
        }
        for item in features.get(&feature).into_iter().flatten() {
            // `dep:x`, `feature`, `x` (an optional dependency), `x/f` and
            // `x?/f` (which turns on `x` only if something else does).
            let (head, weak) = match item.split_once('/') {
                Some((head, _)) => (head.trim_end_matches('?'), head.ends_with('?')),
                None => (item.as_str(), false),
            };
            if let Some(dep) = head.strip_prefix("dep:") {
                deps.insert(dep.replace('-', "_"));
            } else if features.contains_key(head) {
                work.push(head.to_string());
            } else if optional.contains(&head.replace('-', "_")) && !weak {
                deps.insert(head.replace('-', "_"));
            }
        }
    }
    (seen, deps)
}

/// Why the `cargo metadata --no-deps` output of the package breaks the
/// rule: a crate of the command line is a required dependency, or a
/// feature turns one on without turning on `cli`, or `cli` is not a
/// default feature.
fn dependency_problems(metadata: &serde_json::Value) -> Vec<String> {
    let package = metadata["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "constree"))
        .expect("the constree package");
    let features: BTreeMap<String, Vec<String>> =
        serde_json::from_value(package["features"].clone()).expect("a feature map");
    let normal: Vec<&serde_json::Value> = package["dependencies"]
        .as_array()
        .expect("dependencies")
        .iter()
        .filter(|d| d["kind"].is_null())
        .collect();
    // As Rust code names it: `lsp-server` is `lsp_server`.
    let name = |d: &serde_json::Value| d["name"].as_str().unwrap_or_default().replace('-', "_");
    let optional: BTreeSet<String> = normal
        .iter()
        .filter(|d| d["optional"] == true)
        .map(|d| name(d))
        .collect();
    let mut problems = Vec::new();
    for dep in normal.iter().filter(|d| d["optional"] == false) {
        if CLI_CRATES.contains(&name(dep).as_str()) {
            problems.push(format!("`{}` is a required dependency", name(dep)));
        }
    }
    for feature in features.keys() {
        let (seen, deps) = closure(&features, &optional, feature);
        for dep in deps.iter().filter(|d| CLI_CRATES.contains(&d.as_str())) {
            if !seen.contains("cli") {
                problems.push(format!(
                    "feature `{feature}` turns on `{dep}` without the `cli` feature"
                ));
            }
        }
    }
    if !closure(&features, &optional, "default").0.contains("cli") {
        problems.push("`cli` is not a default feature".into());
    }
    problems
}

#[test]
fn the_library_without_cli_has_none_of_its_crates() {
    let output = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata's JSON");
    assert_eq!(dependency_problems(&metadata), Vec::<String>::new());
}

#[test]
fn a_cli_crate_the_library_keeps_is_caught() {
    let metadata = |optional: bool, features: serde_json::Value| {
        serde_json::json!({"packages": [{
            "name": "constree",
            "features": features,
            "dependencies": [
                {"name": "serde", "kind": null, "optional": false},
                {"name": "clap", "kind": null, "optional": optional},
                {"name": "libc", "kind": "dev", "optional": false},
            ],
        }]})
    };
    let good = serde_json::json!({"default": ["cli"], "cli": ["dep:clap"]});
    assert_eq!(
        dependency_problems(&metadata(true, good.clone())),
        Vec::<String>::new()
    );
    assert_eq!(
        dependency_problems(&metadata(false, good)),
        ["`clap` is a required dependency"]
    );
    let leaky = serde_json::json!({
        "default": ["cli"], "cli": ["dep:clap"], "extra": ["more"], "more": ["clap/derive"],
    });
    assert_eq!(
        dependency_problems(&metadata(true, leaky)),
        [
            "feature `extra` turns on `clap` without the `cli` feature",
            "feature `more` turns on `clap` without the `cli` feature",
        ]
    );
    let off = serde_json::json!({"default": [], "cli": ["dep:clap"]});
    assert_eq!(
        dependency_problems(&metadata(true, off)),
        ["`cli` is not a default feature"]
    );
}

/// docs/architecture.md.
fn architecture_page() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
        .expect("docs/architecture.md")
}

/// The rows of the Markdown table under `heading`, as cells.
fn table_rows(page: &str, heading: &str) -> Vec<Vec<String>> {
    page.lines()
        .skip_while(|l| l.trim() != heading)
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The `code` spans of a text.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn the_architecture_page_draws_these_layers() {
    let rows = table_rows(&architecture_page(), "## Layers");
    let drawn: Vec<Vec<&str>> = rows.iter().map(|r| code_spans(&r[1])).collect();
    let numbers: Vec<String> = rows.iter().map(|r| r[0].clone()).collect();
    let expected: Vec<Vec<&str>> = LAYERS.iter().map(|l| l.to_vec()).collect();
    assert_eq!(drawn, expected);
    let counted: Vec<String> = (1..=LAYERS.len()).map(|n| n.to_string()).collect();
    assert_eq!(numbers, counted);
}

/// Whether `name` is defined in the Rust text (a function, type, constant,
/// static, module or macro) or re-exported by it.
fn defines(text: &str, name: &str) -> bool {
    let code = code_only(text);
    let tokens = tokens(&code);
    tokens.windows(2).any(|w| match (&w[0].0, &w[1].0) {
        (Token::Word(kind), Token::Word(n)) => {
            *n == name
                && [
                    "fn", "struct", "enum", "trait", "type", "const", "static", "mod", "as",
                ]
                .contains(kind)
        }
        (Token::Path, Token::Word(n)) => *n == name && code.contains("pub use"),
        (Token::Punct('!'), Token::Word(n)) => *n == name,
        (Token::Punct('{') | Token::Punct(','), Token::Word(n)) => {
            *n == name && code.contains("pub use")
        }
        _ => false,
    })
}

/// The text of every `.rs` file under `path` (a file or a folder).
fn texts_under(path: &Path) -> Vec<String> {
    let mut files = Vec::new();
    if path.is_dir() {
        rust_files(path, &mut files);
    } else {
        files.push(path.to_path_buf());
    }
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("a readable source file"))
        .collect()
}

/// Why a Rust path the page names (`scenario::game::Game::play_step`) is
/// not in the code: its modules are followed as files and folders of
/// `src/`, then each remaining name must be defined below the last one.
fn missing_item(path: &str) -> Option<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let path = path.strip_prefix("constree::").unwrap_or(path);
    let mut segments = path.split("::").peekable();
    let mut at = src.clone();
    while let Some(&segment) = segments.peek() {
        let folder = at.join(segment);
        let file = at.join(format!("{segment}.rs"));
        if folder.is_dir() {
            at = folder;
        } else if file.is_file() {
            at = file;
        } else {
            break;
        }
        segments.next();
    }
    if at == src {
        return Some(format!("`{path}`: no module of src/ starts it"));
    }
    let texts = texts_under(&at);
    segments
        .find(|name| !texts.iter().any(|t| defines(t, name)))
        .map(|name| format!("`{path}`: nothing named `{name}` in {}", at.display()))
}

#[test]
fn the_architecture_page_names_only_what_exists() {
    let page = architecture_page();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for span in code_spans(&page) {
        let first = span.split("::").next().unwrap_or_default();
        if ["src/", "tests/", "docs/"]
            .iter()
            .any(|p| span.starts_with(p))
        {
            if !root.join(span).exists() {
                problems.push(format!("`{span}`: no such file"));
            }
        } else if span.contains("::")
            && !span.contains(' ')
            && (layer(first).is_some() || first == "constree")
        {
            problems.extend(missing_item(span));
        }
    }
    // Each row: its item is defined in its file, and every other name in
    // the row is in one of the Rust files the row names.
    for row in table_rows(&page, "## Where things are added") {
        let spans: Vec<&str> = row[1..].iter().flat_map(|c| code_spans(c)).collect();
        let texts: Vec<String> = spans
            .iter()
            .filter(|s| s.ends_with(".rs"))
            .map(|f| code_only(&std::fs::read_to_string(root.join(f)).unwrap_or_default()))
            .collect();
        let item = code_spans(&row[2])[0].trim_end_matches('!');
        if !defines(&texts[0], item) {
            problems.push(format!("`{item}` is not defined in {}", spans[0]));
        }
        let word = |s: &str| s.chars().all(|c| c.is_alphanumeric() || c == '_');
        for name in spans.iter().filter(|s| word(s)) {
            if !texts.iter().any(|t| t.contains(name)) {
                problems.push(format!("`{name}` is in none of the files of its row"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_name_the_code_lacks_is_caught() {
    assert_eq!(missing_item("scenario::game::Game::play_step"), None);
    assert_eq!(missing_item("world::update_with"), None);
    assert!(missing_item("scenario::game::Game::fly").is_some());
    assert!(missing_item("nowhere::thing").is_some());
    assert!(defines("macro_rules! codes {}", "codes"));
    assert!(!defines("// fn ghost() {}\nfn real() {}", "ghost"));
}

//! The VS Code extension's files agree with each other and with
//! `docs/editors.md`: the lock file pins what `package.json` asks for, the
//! entry point and the setting exist, and the versions the page states are
//! the ones installed. (`scripts/package-vscode.sh` builds the `.vsix`
//! from them; it needs npm, so CI does not run it.)

use serde_json::Value;

const EXTENSION: &str = "editors/vscode";

fn json(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("{EXTENSION}/{path}")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The version the lock file installs for the package `name`.
fn locked(lock: &Value, name: &str) -> String {
    lock["packages"][format!("node_modules/{name}")]["version"]
        .as_str()
        .unwrap_or_else(|| panic!("{name} is in package-lock.json"))
        .to_string()
}

#[test]
fn the_lock_file_pins_the_dependencies_the_package_names() {
    let package = json("package.json");
    let lock = json("package-lock.json");
    let root = &lock["packages"][""];
    for field in ["dependencies", "devDependencies"] {
        assert_eq!(root[field], package[field], "{field}: run npm install");
        for (name, version) in package[field].as_object().unwrap() {
            // Exact versions, so the .vsix is the same from one run to the next.
            assert_eq!(locked(&lock, name), version.as_str().unwrap(), "{name}");
        }
    }
}

#[test]
fn the_extension_starts_the_server_with_its_setting() {
    let package = json("package.json");
    let main = package["main"].as_str().unwrap();
    let code = std::fs::read_to_string(format!("{EXTENSION}/{main}")).unwrap();
    assert!(code.contains("require(\"vscode-languageclient/node\")"));
    assert!(code.contains("args: [\"lsp\"]"));
    let settings = package["contributes"]["configuration"]["properties"]
        .as_object()
        .unwrap();
    let names: Vec<&String> = settings.keys().collect();
    assert_eq!(names, ["constree.server.path"]);
    // Read as `server.path` of the `constree` section.
    assert!(code.contains("getConfiguration(\"constree\").get(\"server.path\")"));
    assert_eq!(package["activationEvents"][0], "onLanguage:constree");
}

#[test]
fn docs_state_the_versions_installed() {
    let package = json("package.json");
    let lock = json("package-lock.json");
    let page = std::fs::read_to_string("docs/editors.md").unwrap();
    // The page's words, whatever the line breaks.
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let engine = package["engines"]["vscode"].as_str().unwrap();
    let engine = engine.trim_start_matches('^');
    let stated = [
        format!(
            "`vscode-languageclient` ({}, from npm; VS Code {} or later)",
            locked(&lock, "vscode-languageclient"),
            engine.strip_suffix(".0").unwrap_or(engine),
        ),
        format!(
            "(`@vscode/vsce` {}, a development dependency",
            locked(&lock, "@vscode/vsce")
        ),
        format!(
            "target/vscode/constree-{}.vsix",
            package["version"].as_str().unwrap()
        ),
    ];
    for sentence in stated {
        assert!(
            page.contains(&sentence),
            "docs/editors.md says {sentence:?}"
        );
    }
}

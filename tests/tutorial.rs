//! `docs/tutorial.md` is true: its listings are the files of
//! `docs/tutorial/`, and its commands, run with the built binary from a
//! copy of the repository's tutorial files under git (the tutorial's
//! edits applied as it makes them, in the copy it tells the reader to
//! make), print exactly what it shows and leave that checkout clean. So are the examples of `README.md`,
//! `docs/language.md`, `docs/debugger.md` and `docs/games.md`, run in the
//! repository.
//!
//! The page's blocks:
//! - ```` ```LANG file=PATH ```` lists a file: it must equal PATH in the
//!   repository (and the file of that name in the folder the commands
//!   run in, as edited so far);
//! - ```` ```diff file=PATH ```` is an edit: ` ` lines stay, `-` lines go,
//!   `+` lines come; it is applied to PATH in the folder the commands run
//!   in;
//! - ```` ```cta ```` without a file is a whole program: it must assemble
//!   without a diagnostic;
//! - ```` ```console ```` holds commands (`$ ...`, with the lines of a
//!   `<<'EOF'` here-document) each followed by its output, standard output
//!   and error together; a command `cd DIR` alone changes the folder the
//!   next commands run in.

mod cli_common;

use constree::asm::assemble_file;
use constree::asm::source::MemoryLoader;
use std::path::Path;
use std::process::Command;

const PAGE: &str = "docs/tutorial.md";

/// A fenced block of the page.
struct Block {
    /// The line of its opening fence.
    line: usize,
    /// The word after the fence.
    lang: String,
    /// Its `file=`, if any.
    file: Option<String>,
    /// Its lines.
    body: Vec<String>,
}

fn blocks(page: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = page.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let lang = words.next().unwrap_or("").to_string();
        let file = words
            .find_map(|w| w.strip_prefix("file="))
            .map(str::to_string);
        let body = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| *l != "```")
            .map(str::to_string)
            .collect();
        out.push(Block {
            line: n + 1,
            lang,
            file,
            body,
        });
    }
    out
}

/// The commands of a console block with the output shown for each.
fn commands(body: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut k = 0;
    while k < body.len() {
        let command = body[k]
            .strip_prefix("$ ")
            .unwrap_or_else(|| panic!("a console block starts with a command: {:?}", body[k]));
        let mut script = vec![command.to_string()];
        k += 1;
        if let Some(end) = command
            .split("<<'")
            .nth(1)
            .and_then(|r| r.strip_suffix('\''))
        {
            while k < body.len() && body[k] != end {
                script.push(body[k].clone());
                k += 1;
            }
            script.push(end.to_string());
            k += 1;
        }
        let mut output = Vec::new();
        while k < body.len() && !body[k].starts_with("$ ") {
            output.push(body[k].as_str());
            k += 1;
        }
        let mut shown = output.join("\n");
        if !output.is_empty() {
            shown.push('\n');
        }
        out.push((script.join("\n"), shown));
    }
    out
}

/// Applies a diff block to a text.
fn apply(text: &str, diff: &[String]) -> String {
    let side = |skip: char| -> String {
        diff.iter()
            .filter(|l| !l.starts_with(skip))
            .map(|l| format!("{}\n", l.get(1..).unwrap_or("")))
            .collect()
    };
    let (old, new) = (side('+'), side('-'));
    assert_eq!(
        text.matches(&old).count(),
        1,
        "the edit's lines are not in the file once:\n{old}"
    );
    text.replacen(&old, &new, 1)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Checks one page: its listings against the repository's files, its
/// commands run from `root` (following its `cd`s), its edits applied in
/// the folder the commands run in. Returns the number of listings, edits
/// and commands.
fn check_page(page: &str, root: &Path) -> (usize, usize, usize) {
    let mut cwd = root.to_path_buf();
    let text = std::fs::read_to_string(page).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_constree")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut listings, mut edits, mut runs) = (0, 0, 0);
    for block in blocks(&text) {
        let at = format!("{page}:{}", block.line);
        match (block.lang.as_str(), &block.file) {
            ("diff", Some(file)) => {
                let copy = cwd.join(file);
                let text = std::fs::read_to_string(&copy)
                    .unwrap_or_else(|e| panic!("{at}: {}: {e}", copy.display()));
                std::fs::write(&copy, apply(&text, &block.body)).unwrap();
                edits += 1;
            }
            (_, Some(file)) => {
                let mut shown = block.body.join("\n");
                shown.push('\n');
                let text =
                    std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{at}: {file}: {e}"));
                assert_eq!(shown, text, "{at}: the listing differs from {file}");
                let name = Path::new(file).file_name().unwrap();
                if let Ok(copy) = std::fs::read_to_string(cwd.join(name)) {
                    assert_eq!(
                        shown,
                        copy,
                        "{at}: the listing differs from {} as edited so far",
                        cwd.join(name).display()
                    );
                }
                listings += 1;
            }
            ("cta", None) => {
                // A whole program shown without a file: it assembles cleanly.
                let source = block.body.join("\n");
                let loader = MemoryLoader::default().with("shown.cta", &source);
                let assembly = assemble_file(&loader, Path::new("shown.cta"));
                assert!(
                    assembly.image.is_some() && assembly.diagnostics.is_empty(),
                    "{at}: the program does not assemble cleanly:\n{}",
                    assembly.render(false)
                );
                listings += 1;
            }
            ("console", None) => {
                for (script, shown) in commands(&block.body) {
                    if let Some(dir) = script.strip_prefix("cd ").filter(|d| !d.contains(' ')) {
                        cwd = cwd.join(dir);
                        assert!(cwd.is_dir(), "{at}: `{script}`: no such folder");
                        assert_eq!(shown, "", "{at}: `{script}` prints nothing");
                        runs += 1;
                        continue;
                    }
                    let out = Command::new("sh")
                        .arg("-c")
                        .arg(format!("exec 2>&1\n{script}"))
                        .current_dir(&cwd)
                        .env("PATH", &path)
                        .output()
                        .unwrap();
                    let printed = String::from_utf8_lossy(&out.stdout);
                    assert!(!printed.contains("panicked"), "{at}: {script}\n{printed}");
                    assert_eq!(printed, shown, "{at}: `{script}` prints something else");
                    runs += 1;
                }
            }
            _ => {}
        }
    }
    (listings, edits, runs)
}

#[test]
fn the_tutorial_shows_what_constree_does() {
    // The reader starts at the root of a checkout: here, a repository
    // holding the tutorial's files, committed; `../` of it is free for
    // the copies the page makes.
    let scratch = cli_common::scratch_dir("tutorial");
    let root = scratch.join("constree");
    copy_dir(Path::new("docs/tutorial"), &root.join("docs/tutorial"));
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(&root)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    git(&["init", "--quiet"]);
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "the tutorial's files"]);
    let (listings, edits, runs) = check_page(PAGE, &root);
    assert!(
        listings >= 2 && edits >= 1 && runs >= 10,
        "{listings} listings, {edits} edits, {runs} commands"
    );
    assert_eq!(
        git(&["status", "--porcelain", "--untracked-files=all"]),
        "",
        "following the tutorial changed the checkout it starts in"
    );
    // The fix was made, in the reader's copy.
    let fixed = std::fs::read_to_string(scratch.join("haul/hauler.cta")).unwrap();
    let first = std::fs::read_to_string("docs/tutorial/hauler.cta").unwrap();
    assert_ne!(
        fixed, first,
        "the tutorial's edit was not applied to the copy"
    );
}

#[test]
fn the_readme_the_language_debugger_and_games_pages_show_what_constree_does() {
    // These pages change nothing: their commands run in the repository.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (listings, _, runs) = check_page("README.md", root);
    assert!(
        listings >= 1 && runs >= 1,
        "README.md: {listings} listings, {runs} commands"
    );
    let (programs, _, _) = check_page("docs/language.md", root);
    assert!(programs >= 1, "docs/language.md: {programs} programs");
    let (_, _, runs) = check_page("docs/debugger.md", root);
    assert!(runs >= 4, "docs/debugger.md: {runs} commands");
    let (_, _, runs) = check_page("docs/games.md", root);
    assert!(runs >= 1, "docs/games.md: {runs} commands");
}

#[test]
fn the_debugger_page_has_an_example_of_every_command() {
    let page = std::fs::read_to_string("docs/debugger.md").unwrap();
    let used: Vec<String> = blocks(&page)
        .into_iter()
        .filter(|b| b.lang == "console")
        .flat_map(|b| commands(&b.body))
        .flat_map(|(script, _)| {
            script
                .lines()
                .skip(1)
                .filter_map(|l| l.split_whitespace().next().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .collect();
    for command in constree::debugger::commands::COMMANDS {
        assert!(
            used.iter().any(|u| u == command.name),
            "docs/debugger.md has no example of `{}`",
            command.name
        );
    }
}

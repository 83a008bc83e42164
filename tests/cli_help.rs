//! The command line's help (`--help` of every command, snapshots) and its
//! shell completions.

mod cli_common;

use cli_common::stdout_of;

/// Every command and subcommand, as words after `constree`.
const COMMANDS: &[&[&str]] = &[
    &[],
    &["asm"],
    &["disasm"],
    &["check"],
    &["lsp"],
    &["exec"],
    &["run"],
    &["replay"],
    &["view"],
    &["tournament"],
    &["tournament", "merge"],
    &["test"],
    &["new"],
    &["debug"],
    &["conformance"],
    &["world"],
    &["world", "step"],
    &["machine"],
    &["machine", "run"],
    &["image"],
    &["image", "convert"],
    &["completions"],
];

#[test]
fn every_command_has_help_with_examples() {
    for words in COMMANDS {
        let mut args = words.to_vec();
        args.push("--help");
        let help = stdout_of(&args);
        let name = if words.is_empty() {
            "constree".to_string()
        } else {
            words.join("_")
        };
        // A group lists its subcommands; every other command shows examples.
        let group = matches!(*words, ["world"] | ["machine"] | ["image"]);
        assert!(
            group || help.contains("Examples:") || help.contains("Start here:"),
            "constree {} --help has no examples:\n{help}",
            words.join(" ")
        );
        insta::assert_snapshot!(format!("help_{name}"), help);
    }
}

#[test]
fn the_help_lists_every_command() {
    let help = stdout_of(&["--help"]);
    for words in COMMANDS.iter().filter(|w| w.len() == 1) {
        assert!(help.contains(&format!("  {} ", words[0])), "{}", words[0]);
    }
}

#[test]
fn completions_for_every_shell() {
    let top: Vec<&str> = COMMANDS
        .iter()
        .filter(|w| w.len() == 1)
        .map(|w| w[0])
        .collect();
    for (shell, marker) in [
        ("bash", "complete -F _constree"),
        ("zsh", "#compdef constree"),
        ("fish", "complete -c constree"),
        ("elvish", "edit:completion:arg-completer[constree]"),
        (
            "powershell",
            "Register-ArgumentCompleter -Native -CommandName 'constree'",
        ),
    ] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains(marker), "{shell}:\n{script}");
        for command in &top {
            assert!(script.contains(command), "{shell}: no {command}");
        }
        // Options of subcommands are completed too.
        assert!(script.contains("trace"), "{shell}: no --trace");
    }
    // The bash script is valid bash.
    if let Ok(status) = std::process::Command::new("bash")
        .args(["-n", "-c", &stdout_of(&["completions", "bash"])])
        .status()
    {
        assert!(status.success());
    }
}

#[test]
fn the_readme_lists_the_shells_the_command_takes() {
    use clap::ValueEnum;
    let shells: Vec<String> = clap_complete::Shell::value_variants()
        .iter()
        .filter_map(|s| s.to_possible_value().map(|v| v.get_name().to_string()))
        .collect();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| `constree completions "))
        .expect("a completions row");
    let listed = row["| `constree completions ".len()..]
        .split('`')
        .next()
        .unwrap();
    let mut listed: Vec<&str> = listed.split("\\|").collect();
    let mut shells: Vec<&str> = shells.iter().map(String::as_str).collect();
    listed.sort_unstable();
    shells.sort_unstable();
    assert_eq!(listed, shells, "{row}");
}

#[test]
fn an_unknown_shell_is_an_error() {
    let err = cli_common::constree(&["completions", "tcsh"], "");
    assert_eq!(err.status.code(), Some(2));
    assert!(cli_common::text(&err.stderr).contains("possible values: bash"));
}

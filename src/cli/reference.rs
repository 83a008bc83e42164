//! `docs/cli.md`, written from clap's own definitions of the commands, the
//! table of exit codes and the table of environment variables, so the page
//! cannot drift from the code (a test compares them).

use clap::{Arg, Command};

/// What an exit code means: the same for every command.
pub const EXIT_CODES: &[(u8, &str)] = &[
    (
        0,
        "Success: the command did what was asked, and every check it made passed. \
         A game played to its end is a success even when robots' machines failed \
         (`run`, `replay`, `tournament`: a machine error is part of the game, the robot \
         plays on with its registers wiped); `run` prints a warning on standard error \
         for each robot of the scenario whose machine failed.",
    ),
    (
        1,
        "The input is wrong or a check failed: a program that does not assemble, a \
         machine that ends in an error (`exec`), an expectation that fails (`test`), a \
         conformance vector that fails, a file that cannot be read or written, a \
         warning under `--deny warnings`. The message on standard error says where and why.",
    ),
    (
        2,
        "Usage: the command line itself is wrong (an unknown command or option, a \
         missing or malformed argument). Nothing was read or written.",
    ),
];

/// The environment variables constree reads besides the caps of
/// [`crate::limits::LIMITS`], and what each does.
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "CONSTREE_STDLIB",
        "A folder to read `std/NAME` modules from instead of the built-in standard \
         library (`--stdlib` wins over it).",
    ),
    (
        "CONSTREE_HISTORY",
        "The debugger's history file (default `~/.constree_history`).",
    ),
    (
        "NO_COLOR",
        "Any non-empty value: no colour (under `--color auto`, the default).",
    ),
    (
        "CONSTREE_CYCLE_SKIP",
        "`off` turns off the machine's cycle fast path (a robot whose memory comes back \
         to an earlier state within a step skips the rest of its ticks modulo the cycle; \
         the results are the same either way); `on`, the default, leaves it on.",
    ),
    (
        "CLICOLOR_FORCE",
        "Any non-empty value but `0`: colour even when the output is not a terminal \
         (under `--color auto`, unless `NO_COLOR` is set).",
    ),
];

/// Every environment variable and what it does: [`ENVIRONMENT`], then each
/// cap's variable (docs/limits.md has the caps in full).
pub fn environment() -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = ENVIRONMENT
        .iter()
        .map(|(name, effect)| (name.to_string(), effect.to_string()))
        .collect();
    for limit in crate::limits::LIMITS {
        if let Some(var) = limit.env {
            all.push((
                var.to_string(),
                format!(
                    "The cap on {}, in {} (default {}): {}",
                    limit.name, limit.unit, limit.default, limit.effect
                ),
            ));
        }
    }
    all
}

/// The section of the command line's own diagnostic codes (`E12..`), a
/// table of their titles (`tests/diagnostic_codes.rs` checks it too).
fn error_codes() -> String {
    use crate::diagnostic::Code;
    let mut out = String::from(
        "\n## Errors\n\nEvery error is a diagnostic with a code, drawn on standard error, or \
         printed as one JSON object by the commands that take `--message-format json` \
         (docs/formats.md). Errors of the files a command reads have their files' codes \
         (docs/language.md, docs/formats.md, docs/debugger.md); the command line's own:\n\n\
         <!-- generated: the command line's codes -->\n| code | meaning |\n|---|---|\n",
    );
    for code in Code::ALL.iter().filter(|c| c.as_str().starts_with("E12")) {
        out.push_str(&format!("| {code} | {} |\n", code.title()));
    }
    out.push_str("<!-- end of the generated codes -->\n");
    out
}

/// The whole page, in Markdown.
pub fn markdown(command: &Command) -> String {
    let mut page = String::from(
        "# The command line\n\n\
         This page is generated from constree's own definitions of its commands, and a \
         test fails when the two differ (`CONSTREE_BLESS=1 cargo test --release --test \
         cli_conventions` writes it again). `constree COMMAND --help` shows the same \
         options with examples.\n\n",
    );
    page.push_str(
        "## Exit codes\n\nThe same for every command.\n\n| Code | Meaning |\n|---|---|\n",
    );
    for (code, meaning) in EXIT_CODES {
        page.push_str(&format!("| {code} | {meaning} |\n"));
    }
    page.push_str(&error_codes());
    page.push_str("\n## Environment\n\n| Variable | Effect |\n|---|---|\n");
    for (name, effect) in environment() {
        page.push_str(&format!("| `{name}` | {effect} |\n"));
    }
    let mut command = command.clone();
    command.build();
    page.push_str("\n## Options of every command\n\n");
    page.push_str(&options_table(
        command.get_arguments().filter(|a| a.is_global_set()),
    ));
    page.push_str("\n## Commands\n");
    let mut pending = vec![(String::from("constree"), command)];
    while let Some((path, mut command)) = pending.pop() {
        if path != "constree" {
            page.push_str(&section(&path, &mut command));
        }
        let mut children: Vec<(String, Command)> = command
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .map(|c| (format!("{path} {}", c.get_name()), c.clone()))
            .collect();
        children.reverse();
        pending.extend(children);
    }
    page
}

/// One command's section: what it does, its usage, its arguments and
/// options (the global ones are listed once, above).
fn section(path: &str, command: &mut Command) -> String {
    let about = command
        .get_about()
        .map(|a| a.to_string())
        .unwrap_or_default();
    let usage = command.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ");
    let mut text = format!("\n### `{path}`\n\n{about}\n\n```\n{usage}\n```\n\n");
    let own: Vec<&Arg> = command
        .get_arguments()
        .filter(|a| !a.is_global_set() && !matches!(a.get_id().as_str(), "help" | "version"))
        .collect();
    if !own.is_empty() {
        text.push_str(&options_table(own.into_iter()));
    }
    text
}

/// A table of arguments: how each is written, its default, what it does.
fn options_table<'a>(arguments: impl Iterator<Item = &'a Arg>) -> String {
    let mut table = String::from("| Argument | Default | What it does |\n|---|---|---|\n");
    for arg in arguments {
        let flag = !arg.get_num_args().is_some_and(|r| r.takes_values());
        let default: Vec<String> = arg
            .get_default_values()
            .iter()
            .filter(|_| !flag)
            .map(|v| format!("`{}`", v.to_string_lossy()))
            .collect();
        let help = arg
            .get_help()
            .map(|h| h.to_string().replace('\n', " ").replace('|', "\\|"))
            .unwrap_or_default();
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| format!("`{}`", v.get_name()))
            .collect();
        let help = if values.is_empty() || flag {
            help
        } else {
            format!("{help} (one of {})", values.join(", "))
        };
        table.push_str(&format!(
            "| {} | {} | {help} |\n",
            written(arg),
            default.join(", ")
        ));
    }
    table
}

/// How an argument is written on the command line: `-o, --output <FILE>`,
/// `<FILE>`.
fn written(arg: &Arg) -> String {
    let names: Vec<String> = arg
        .get_value_names()
        .map(|v| v.iter().map(|n| format!("<{n}>")).collect())
        .unwrap_or_else(|| vec![format!("<{}>", arg.get_id().as_str().to_uppercase())]);
    if arg.is_positional() {
        let many = matches!(arg.get_num_args(), Some(r) if r.max_values() > 1);
        return format!("`{}{}`", names.join(" "), if many { "..." } else { "" });
    }
    let mut flags = Vec::new();
    if let Some(short) = arg.get_short() {
        flags.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        flags.push(format!("--{long}"));
    }
    let takes_value = arg.get_num_args().is_some_and(|r| r.takes_values());
    let value = if takes_value {
        format!(" {}", names.join(" "))
    } else {
        String::new()
    };
    format!("`{}{value}`", flags.join(", "))
}

//! `constree setup`: the man pages and the shell completions, installed
//! under a prefix (by default `~/.local`) where `man`, bash, zsh and fish
//! look for them.

use super::Failure;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `constree setup`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  constree setup                       # under ~/.local: man constree, Tab in bash, zsh, fish
  constree setup --prefix /usr/local   # for every user (as root)")]
pub struct SetupArgs {
    /// The prefix to install under: man pages in `PREFIX/share/man/man1`,
    /// completions in `PREFIX/share/bash-completion/completions`,
    /// `PREFIX/share/zsh/site-functions` and
    /// `PREFIX/share/fish/vendor_completions.d` (default: `~/.local`).
    #[arg(long, value_name = "PREFIX")]
    prefix: Option<PathBuf>,
}

/// The shells completed, and where under the prefix each looks.
const SHELLS: &[(clap_complete::Shell, &str)] = &[
    (
        clap_complete::Shell::Bash,
        "share/bash-completion/completions/constree",
    ),
    (
        clap_complete::Shell::Zsh,
        "share/zsh/site-functions/_constree",
    ),
    (
        clap_complete::Shell::Fish,
        "share/fish/vendor_completions.d/constree.fish",
    ),
];

/// Every man page: `(file name, roff text)`, one for `constree` and one
/// for each command and subcommand (`constree-world-step.1`).
pub fn man_pages() -> Result<Vec<(String, Vec<u8>)>, Failure> {
    let mut root = super::command();
    root.build();
    let mut pages = Vec::new();
    // Commands to render, with their full names; walked with a stack.
    let mut pending = vec![("constree".to_string(), root)];
    while let Some((name, command)) = pending.pop() {
        let mut text = Vec::new();
        clap_mangen::Man::new(command.clone())
            .render(&mut text)
            .map_err(|e| Failure::Stdio(format!("cannot write the man page of {name}: {e}")))?;
        pages.push((format!("{name}.1"), text));
        for sub in command.get_subcommands() {
            if sub.get_name() != "help" {
                pending.push((format!("{name}-{}", sub.get_name()), sub.clone()));
            }
        }
    }
    pages.sort();
    Ok(pages)
}

/// The completion script of a shell.
fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut command = super::command();
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut command, "constree", &mut text);
    text
}

/// Writes a file, making its folder.
fn install(path: &Path, text: &[u8]) -> Result<(), Failure> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::output("", dir, format!("cannot create the folder: {e}")))?;
    }
    crate::files::write_output(path, text).map_err(|e| Failure::output("", path, e))
}

pub fn run(args: SetupArgs) -> Result<ExitCode, Failure> {
    let prefix = match args.prefix {
        Some(p) => p,
        None => std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(|h| PathBuf::from(h).join(".local"))
            .ok_or_else(|| Failure::Usage("HOME is not set: give --prefix".into()))?,
    };
    let man = prefix.join("share/man/man1");
    let pages = man_pages()?;
    for (file, text) in &pages {
        install(&man.join(file), text)?;
    }
    println!(
        "Installed {} in {}",
        crate::words::count(pages.len(), "man page"),
        man.display()
    );
    for (shell, place) in SHELLS {
        let path = prefix.join(place);
        install(&path, &completions(*shell))?;
        println!("Installed the {shell} completions in {}", path.display());
    }
    if !super::style::quiet() {
        println!(
            "Next: `man constree` (with {} on your PATH); in zsh, add {} to $fpath before compinit.",
            prefix.join("bin").display(),
            prefix.join("share/zsh/site-functions").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

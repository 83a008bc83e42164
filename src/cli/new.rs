//! `constree new NAME`: a new bot project in a new directory; `constree new
//! --tutorial NAME`: a copy of the tutorial's files to follow
//! `docs/tutorial.md` on.

use super::Failure;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `constree new`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  constree new mybot          # makes mybot/ with bot.cta, game.toml, README.md
  cd mybot && constree test   # plays game.toml and checks its [expect] table
  constree new --tutorial ../haul   # the tutorial's files, to follow docs/tutorial.md")]
pub struct NewArgs {
    /// The directory to make (it must not exist, or be empty); its name
    /// names the project.
    name: PathBuf,
    /// Make a copy of the tutorial's files (`haul.toml`, `hauler.cta`, the
    /// robot as first written, with its mistake) instead of a project.
    #[arg(long)]
    tutorial: bool,
}

/// The files of a new project: `(file name, template)`. `NAME` in a
/// template is the project's name.
const FILES: &[(&str, &str)] = &[
    ("bot.cta", include_str!("new/bot.cta")),
    ("game.toml", include_str!("new/game.toml")),
    ("README.md", include_str!("new/README.md")),
];

/// The tutorial's files (`docs/tutorial/`), copied as they are.
const TUTORIAL: &[(&str, &str)] = &[
    ("haul.toml", include_str!("../../docs/tutorial/haul.toml")),
    ("hauler.cta", include_str!("../../docs/tutorial/hauler.cta")),
];

/// A template with the project's name filled in (quoted in TOML).
fn fill(file: &str, template: &str, name: &str) -> String {
    if file.ends_with(".toml") {
        template.replace("NAME", &toml::Value::String(name.to_string()).to_string())
    } else {
        template.replace("NAME", name)
    }
}

/// Whether a directory is missing or empty.
fn free(dir: &Path) -> Result<bool, Failure> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => Ok(entries.next().is_none()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) if dir.is_file() => Err(Failure::output(
            "",
            dir,
            format!("a file, not a directory: {e}"),
        )),
        Err(e) => Err(Failure::output("", dir, e)),
    }
}

pub fn run(args: NewArgs) -> Result<ExitCode, Failure> {
    let dir = &args.name;
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.is_empty() && *n != "." && *n != "..")
        .ok_or_else(|| {
            Failure::Usage(format!(
                "{}: give the new project's directory a name",
                dir.display()
            ))
        })?
        .to_string();
    if !free(dir)? {
        return Err(Failure::Usage(format!(
            "{} already exists and is not empty: choose a new directory",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::output("", dir, format!("cannot create the directory: {e}")))?;
    let files = if args.tutorial { TUTORIAL } else { FILES };
    for (file, template) in files {
        let path = dir.join(file);
        let text = if args.tutorial {
            template.to_string()
        } else {
            fill(file, template, &name)
        };
        crate::files::write_output(&path, text.as_bytes())
            .map_err(|e| Failure::output("", &path, e))?;
    }
    let names: Vec<&str> = files.iter().map(|(f, _)| *f).collect();
    println!("Created {}: {}", dir.display(), names.join(", "));
    let dir = super::shell_word(&dir.display().to_string());
    if args.tutorial {
        println!("Next: cd {dir} and follow docs/tutorial.md");
    } else {
        println!("Next: cd {dir} && constree test");
    }
    Ok(ExitCode::SUCCESS)
}

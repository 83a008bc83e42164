//! `constree asm`, `check`, `exec`: the assembler's commands.

use super::messages::{self, MessageFormatOption};
use super::{Failure, kind};
use crate::asm::source::DiskLoader;
use crate::asm::{Assembly, assemble_file, check_file};
use crate::image::Image;
use crate::image::format::load;
use crate::scenario::Assembling;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options shared by the commands that assemble.
#[derive(clap::Args, Clone)]
pub struct StdlibOption {
    /// Read `std/NAME` modules from this directory instead of the built-in
    /// standard library (also `$CONSTREE_STDLIB`).
    #[arg(long, value_name = "DIR")]
    stdlib: Option<PathBuf>,
}

impl StdlibOption {
    /// The directory given, if any.
    pub fn dir(&self) -> Option<PathBuf> {
        self.stdlib.clone()
    }
}

/// `--deny warnings`, for the commands that assemble programs.
#[derive(clap::Args, Clone, Default)]
pub struct DenyOption {
    /// `--deny warnings` makes the assembler's warnings errors: a program
    /// with warnings is refused and the exit code is 1 (as rustc's
    /// `-D warnings`).
    #[arg(long, value_name = "LINTS", value_parser = ["warnings"])]
    deny: Option<String>,
}

impl DenyOption {
    /// Whether warnings are errors.
    pub fn warnings(&self) -> bool {
        self.deny.is_some()
    }
}

/// `--stdlib` and `--deny warnings`: how the commands that assemble
/// programs assemble them.
#[derive(clap::Args, Clone)]
pub struct AssemblyOptions {
    #[command(flatten)]
    pub stdlib: StdlibOption,
    #[command(flatten)]
    pub deny: DenyOption,
}

impl AssemblyOptions {
    /// How a scenario's programs are assembled under these options.
    pub fn assembling(&self) -> Assembling {
        Assembling {
            stdlib: self.stdlib.dir(),
            deny_warnings: self.deny.warnings(),
        }
    }
}

/// `constree asm`.
#[derive(clap::Args)]
pub struct AsmArgs {
    /// The program (`.cta`).
    file: PathBuf,
    /// Where to write the image (default: the file with `.ctm`; needed when
    /// the program is `-`, standard input). Never a file the program reads.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Print each register, its limit, size and code with source lines.
    #[arg(long)]
    listing: bool,
    /// The image's form: the binary form (from half the JSON form's size
    /// for a small program to a fifth for a large one, and faster to read
    /// and write), or JSON (readable); `constree image convert` turns one
    /// into the other, and every command reads both.
    #[arg(long, value_enum, value_name = "FORM", default_value = "binary")]
    image_format: super::image::FormArg,
    #[command(flatten)]
    assembly: AssemblyOptions,
    #[command(flatten)]
    messages: MessageFormatOption,
}

/// `constree disasm`.
#[derive(clap::Args)]
pub struct DisasmArgs {
    /// The image (`.ctm`).
    file: PathBuf,
}

/// `constree check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The program (`.cta`).
    file: PathBuf,
    #[command(flatten)]
    assembly: AssemblyOptions,
    #[command(flatten)]
    messages: MessageFormatOption,
}

/// Assembles a file, printing its diagnostics to standard error in the
/// chosen form ([`messages`]). Under `--deny warnings` a warning leaves
/// the assembly without an image.
pub fn assemble_reporting(file: &Path, stdlib: &StdlibOption, deny: &DenyOption) -> Assembly {
    reporting(file, stdlib, deny, assemble_file).0
}

/// Runs `assemble` (assembling or only checking) on a file and prints its
/// diagnostics as [`assemble_reporting`] does; gives the assembly and
/// whether it passed (no errors, nor warnings under `--deny warnings`,
/// whose assembly is left without an image).
fn reporting(
    file: &Path,
    stdlib: &StdlibOption,
    deny: &DenyOption,
    assemble: fn(&dyn crate::asm::source::Loader, &Path) -> Assembly,
) -> (Assembly, bool) {
    let loader = DiskLoader::new(stdlib.stdlib.clone());
    let mut assembly = assemble(&loader, file);
    messages::report(&assembly.diagnostics, &assembly.sources);
    if deny.warnings() && !assembly.diagnostics.is_empty() && !assembly.has_errors() {
        messages::failure(&Failure::Unassembled(format!(
            "{}: warnings are denied (--deny warnings)",
            crate::files::display(file)
        )));
        assembly.image = None;
        return (assembly, false);
    }
    let passed = !assembly.has_errors();
    (assembly, passed)
}

/// An image from a `.ctm` file, or by assembling a `.cta` file.
pub fn load_program(
    file: &Path,
    stdlib: &StdlibOption,
    deny: &DenyOption,
) -> Result<Image, Failure> {
    if file.extension().is_some_and(|e| e == "ctm") {
        return load(file).map_err(Failure::from);
    }
    assemble_reporting(file, stdlib, deny)
        .image
        .ok_or_else(|| Failure::Unassembled(format!("{} does not assemble", file.display())))
}

pub fn run_asm(args: AsmArgs) -> Result<ExitCode, Failure> {
    args.messages.install();
    kind::SOURCE.check("asm", &args.file)?;
    let assembly = assemble_reporting(&args.file, &args.assembly.stdlib, &args.assembly.deny);
    let Some(image) = &assembly.image else {
        return Ok(ExitCode::FAILURE);
    };
    let output = match args.output {
        Some(output) => output,
        None if args.file == Path::new("-") => {
            return Err(Failure::Usage(
                "a program read from standard input needs -o FILE for its image".into(),
            ));
        }
        None => args.file.with_extension("ctm"),
    };
    super::image::write(image, &output, args.image_format)?;
    if args.listing {
        let listing = crate::asm::listing::listing_with_sources(image, &assembly.sources);
        print!("{listing}");
    }
    // The process ends now: its memory goes back with it, without freeing
    // the image's trees, names and source map one by one.
    std::mem::forget(assembly);
    Ok(ExitCode::SUCCESS)
}

pub fn run_check(args: CheckArgs) -> Result<ExitCode, Failure> {
    args.messages.install();
    kind::SOURCE.check("check", &args.file)?;
    // Checking builds no image.
    let (assembly, passed) = reporting(
        &args.file,
        &args.assembly.stdlib,
        &args.assembly.deny,
        check_file,
    );
    // The process ends now: its memory goes back with it, without freeing
    // the program's statements, blocks and names one by one.
    std::mem::forget(assembly);
    Ok(if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

pub fn run_disasm(args: DisasmArgs) -> Result<ExitCode, Failure> {
    kind::IMAGE.check("disasm", &args.file)?;
    let image = load(&args.file)?;
    print!("{}", crate::asm::disasm::disassemble(&image));
    Ok(ExitCode::SUCCESS)
}

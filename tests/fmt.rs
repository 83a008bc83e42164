//! `constree fmt` (docs/fmt.md): each layout rule on a misformatted input
//! (snapshots; a formatter that changed nothing would fail every one), and,
//! for every example, every stdlib module and generated programs, that
//! formatting is idempotent, keeps the tokens and every comment, and
//! assembles to the same image. Then the command: `--check`, rewriting in
//! place, `-`, refusing a file that does not parse, and hostile inputs
//! under the caps of `hostile_common`.

#[allow(dead_code)]
#[path = "../fuzz/src/hostile.rs"]
mod hostile;
mod hostile_common;
mod semantics_gen;

use constree::asm::lexer;
use constree::asm::source::{
    DiskLoader, FileId, LoadError, Loader, MemoryLoader, ModulePath, SourceFile, Span,
};
use constree::asm::{Assembly, assemble};
use hostile_common::{Scratch, run_capped, snapshot};
use std::path::{Path, PathBuf};

/// The file formatted, or a panic with its errors.
fn format(text: &str) -> String {
    constree::asm::fmt::format(FileId(0), text)
        .unwrap_or_else(|errors| panic!("does not format: {errors:?}\n{text}"))
}

/// The statements of a file as tokens with their texts (a label is a
/// statement of its own, whether or not one follows it on its line).
fn tokens(text: &str) -> Vec<Vec<(lexer::Token<'_>, &str)>> {
    let (lines, errors) = lexer::lex(FileId(0), text);
    assert!(errors.is_empty(), "{errors:?}");
    let mut statements = Vec::new();
    for line in lines {
        let mut line: Vec<_> = line
            .into_iter()
            .map(|(t, s): (_, Span)| (t, &text[s.range()]))
            .collect();
        if matches!(line.get(1), Some((lexer::Token::Colon, _))) {
            let rest = line.split_off(2);
            statements.push(line);
            line = rest;
        }
        if !line.is_empty() {
            statements.push(line);
        }
    }
    statements
}

/// The comments of a file, in order, trimmed.
fn comments(text: &str) -> Vec<String> {
    let (lines, _) = lexer::lex(FileId(0), text);
    // The text between tokens holds the comments; strings are tokens.
    let mut found = Vec::new();
    let mut from = 0;
    let spans = lines.iter().flatten().map(|(_, s)| s.range());
    for range in spans.chain(std::iter::once(text.len()..text.len())) {
        for line in text[from..range.start].split('\n') {
            if let Some(at) = line.find(';') {
                found.push(line[at..].trim_end().to_string());
            }
        }
        from = range.end;
    }
    found
}

/// Checks what formatting must keep: the output is a fixed point, has the
/// same logical lines of tokens and the same comments as `text`.
fn keeps_the_program(text: &str, formatted: &str) {
    assert_eq!(format(formatted), formatted, "not idempotent:\n{formatted}");
    assert_eq!(
        tokens(text),
        tokens(formatted),
        "tokens changed:\n{formatted}"
    );
    assert_eq!(
        comments(text),
        comments(formatted),
        "comments changed:\n{formatted}"
    );
}

/// What an assembly gives that formatting must not change: the image's
/// registers, labels and call convention (not its source map, which
/// points at lines), or the codes of its diagnostics.
fn essence(assembly: &Assembly) -> String {
    let codes: Vec<String> = assembly
        .diagnostics
        .iter()
        .map(|d| d.code.as_str().to_string())
        .collect();
    match &assembly.image {
        Some(image) => format!(
            "{:?}\n{:?}\n{:?}\n{codes:?}",
            image.registers, image.labels, image.callstack
        ),
        None => format!("no image: {codes:?}"),
    }
}

/// Formats a misformatted input for a rule's snapshot: it must change, and
/// the result must keep the program (and assemble alike, when it does).
fn formatted(text: &str) -> String {
    let out = format(text);
    assert_ne!(out, text, "formatting changed nothing");
    keeps_the_program(text, &out);
    let image = |t: &str| {
        let loader = MemoryLoader::default().with("main.cta", t);
        essence(&assemble(
            &loader,
            SourceFile::new("main.cta".into(), Some("main.cta".into()), t.into()),
        ))
    };
    assert_eq!(image(text), image(&out), "the image changed:\n{out}");
    out
}

// One snapshot per rule.

#[test]
fn labels_stand_alone_in_column_zero() {
    insta::assert_snapshot!(formatted(
        "use std/control\nreg x\n   main:   mov x, #1\n  .loop: jnil x, .loop\n        done:\n halt\n"
    ));
}

#[test]
fn statements_are_indented_by_nesting() {
    insta::assert_snapshot!(formatted(
        "use std/control\nreg x\nmacro twice r\npush r, #1\n      if 1\npush r, #2\n else\n   push r, #3\n      end\n        end\n    if 0\nreg y\n  end\nmain:\ntwice x\n        halt\n"
    ));
}

#[test]
fn macro_invocations_outside_code_stand_as_declarations() {
    insta::assert_snapshot!(formatted(
        "use std/control\nmacro board r\nreg r\nend\n  board x\n    board v\nmain:\nboard y\n    if 1\n board u\n  end\n    halt\nreg z\n        board w\n.next:\nboard t\n"
    ));
}

#[test]
fn operands_start_in_one_column() {
    insta::assert_snapshot!(formatted(
        "use std/control\nreg x\nreg y\nmain:\n    mov x, y\n    jnil x, main\n    deconstruct x, y, x\n    jcons    y, main\n    ; a comment does not break the run\n    push x,y\n\n    mov    y, x\n    halt\n"
    ));
}

#[test]
fn trailing_comments_start_in_one_column() {
    insta::assert_snapshot!(formatted(
        "use std/control\nreg x ; the first\nreg longer_name = 5     ; the second\n\nmain:     ; start\n    mov x, #1 ; one\n    halt   ;   stop   \n"
    ));
}

#[test]
fn comments_alone_follow_the_line_after_them() {
    insta::assert_snapshot!(formatted(
        "   ; the header\nuse std/control\n        ; before a macro\nmacro m r\n; inside\n    nilify r\n                ; before its end\nend\n   ; before a label\nmain:\n; before an instruction\n    halt\n      ; at the end"
    ));
}

#[test]
fn blank_lines_are_normalised() {
    insta::assert_snapshot!(formatted(
        "\n\n\nuse std/control\n\n\n\nreg x\nmacro m r\n\n    nilify r\n\nend\n\n\nmain:\n    m x\n\n\n    halt\nif 1 and\n    1\n\n    reg y\nend\n\n\n"
    ));
}

#[test]
fn tokens_are_spaced_one_way() {
    insta::assert_snapshot!(formatted(
        "use   std / control\nconst C=cons( 1 , - 2 )\nreg t\nreg a=[1,2|t]\nreg b @ 7 16\nreg c @( 7+1 ) auto=Lift ( - 1 )\nmain:\n    mov a,#( 1+2 )\n    mov b , - 1\n    mov c,index( a )\n    halt\n"
    ));
}

#[test]
fn broken_statements_keep_their_breaks() {
    insta::assert_snapshot!(formatted(
        "use std/control\nconst ROWS = [\n[1, 2], ; the first row\n        [3,\n  4]\n  ]\nreg r =\n            ROWS\nmain:\n    mov r, [1,\n       ; a comment alone inside\n  2]\n    halt\n"
    ));
}

#[test]
fn docs_fmt_md_examples_format_as_shown_and_its_numbers_are_the_code_s() {
    use constree::asm::fmt::{
        COMMENT_ALIGN_WIDTH, COMMENT_TAB, INDENT, MAX_INDENT_LEVELS, MNEMONIC_ALIGN_WIDTH,
    };
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/fmt.md"))
        .unwrap()
        .replace(char::is_whitespace, " ");
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    for stated in [
        format!("indented {INDENT} spaces for each body"),
        format!("indented as {MAX_INDENT_LEVELS} levels"),
        format!("longer than {MNEMONIC_ALIGN_WIDTH} characters"),
        format!("the first multiple of {COMMENT_TAB}"),
        format!("longer than {COMMENT_ALIGN_WIDTH} characters"),
    ] {
        assert!(page.contains(&stated), "docs/fmt.md should say {stated:?}");
    }
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/fmt.md")).unwrap();
    let block = |start: &str, from: usize| {
        let at = text[from..].find(start)? + from + start.len();
        let end = text[at..].find("```")? + at;
        Some((&text[at..end], end))
    };
    let (mut from, mut pairs) = (0, 0);
    while let Some((before, end)) = block("```cta before\n", from) {
        let (after, end) = block("```cta after\n", end).expect("an after block");
        assert_eq!(formatted(before), after, "docs/fmt.md:\n{before}");
        (from, pairs) = (end, pairs + 1);
    }
    assert_eq!(pairs, 9);
}

#[test]
fn a_file_that_does_not_parse_is_refused_with_where() {
    for text in [
        "main:\n    mov x, $\n",
        "main:\n    mov x, (1\n",
        "if 1\nmain:\n",
        "end\n",
        "reg r = 99999999999999999999\n",
    ] {
        let errors = constree::asm::fmt::format(FileId(0), text).expect_err(text);
        assert!(!errors.is_empty() && errors.iter().all(|e| e.is_error()));
    }
}

// Every example, every stdlib module, generated programs.

/// The `.cta` files under a folder of the repository, found without
/// recursion.
fn sources_under(folder: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join(folder)];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "cta") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Reads files from disk and the standard library from `stdlib/`, each
/// formatted when `formatting`.
struct Disk {
    formatting: bool,
}

impl Loader for Disk {
    fn load(&self, module: &ModulePath, from: Option<&Path>) -> Result<SourceFile, LoadError> {
        let stdlib = Path::new(env!("CARGO_MANIFEST_DIR")).join("stdlib");
        let file = DiskLoader::new(Some(stdlib)).load(module, from)?;
        if !self.formatting {
            return Ok(file);
        }
        let text = format(&file.text);
        Ok(SourceFile::new(file.name, file.path, text))
    }
}

#[test]
fn every_example_stdlib_module_and_tutorial_program_is_formatted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = sources_under("examples");
    files.extend(sources_under("stdlib"));
    files.extend(sources_under("docs/tutorial"));
    let mut args = vec!["fmt".to_string(), "--check".to_string()];
    args.extend(files.iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = fmt_in(root, &args, "");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (Some(0), ""),
        "not formatted (`constree fmt` them):\n{}",
        out.stdout
    );
}

#[test]
fn every_example_stdlib_module_and_tutorial_program_formats_to_the_same_image() {
    let mut files = sources_under("examples");
    files.extend(sources_under("stdlib"));
    files.extend(sources_under("docs/tutorial"));
    assert!(files.len() > 20, "{files:?}");
    let mut images = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        keeps_the_program(&text, &format(&text));
        let main = ModulePath::File(path.clone());
        let assembled = |formatting: bool| {
            let loader = Disk { formatting };
            essence(&assemble(&loader, loader.load(&main, None).unwrap()))
        };
        let before = assembled(false);
        images += usize::from(!before.starts_with("no image"));
        assert_eq!(before, assembled(true), "{}", path.display());
    }
    // Most files are programs that assemble, not fragments.
    assert!(images * 2 > files.len(), "{images} of {}", files.len());
}

/// Assembles generated files as they are and formatted; they must agree.
fn agree_formatted(files: &[(String, String)], what: &str) {
    let loader = |formatting: bool| {
        files.iter().fold(MemoryLoader::default(), |l, (p, t)| {
            let text = if formatting { format(t) } else { t.clone() };
            l.with(p, &text)
        })
    };
    let assembled = |formatting: bool| {
        let loader = loader(formatting);
        let main = loader.files[0].1.clone();
        essence(&assemble(
            &loader,
            SourceFile::new("main.cta".into(), Some("main.cta".into()), main),
        ))
    };
    for (_, text) in files {
        keeps_the_program(text, &format(text));
    }
    assert_eq!(assembled(false), assembled(true), "{what}");
}

#[test]
fn generated_programs_format_to_the_same_image() {
    for seed in 0..150 {
        let generated = semantics_gen::generate::generate(seed);
        assert_eq!(generated.files[0].0, "main.cta");
        agree_formatted(&generated.files, &generated.show());
    }
}

#[test]
fn hostile_programs_format_to_the_same_result() {
    for seed in 0..60 {
        let files = hostile::random_program(seed, 12);
        agree_formatted(&files, &format!("hostile::random_program({seed}, 12)"));
    }
}

/// Whitespace and comment edits that keep a file's tokens: spaces and
/// line breaks added or removed around tokens, comments added. Applied at
/// random places of the examples, they make layouts no example has (a
/// break inside brackets, a comment between an operator and its operand);
/// whatever still parses must format to a fixed point that keeps its
/// tokens and comments.
#[test]
fn randomly_laid_out_examples_format_to_a_fixed_point() {
    let mut rng = semantics_gen::literals::Rng::new(21);
    let files = sources_under("examples");
    let edits: &[&str] = &[
        "",
        " ",
        "\t",
        "\n",
        "\n\n",
        " ; note\n",
        "\n; alone\n",
        "\r\n",
    ];
    let mut formatted = 0;
    for round in 0..400 {
        let path = rng.pick(&files);
        let mut text = std::fs::read_to_string(path).unwrap();
        for _ in 0..rng.range(1, 12) {
            // Somewhere between two characters that are not in a name, a
            // number, a string or a comment's text.
            let at = rng.below(text.len() as u64 + 1) as usize;
            if !text.is_char_boundary(at) {
                continue;
            }
            let edit = *rng.pick(edits);
            let (before, after) = text.split_at(at);
            let inside =
                |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || "_.\"".contains(c));
            let line = before.rsplit('\n').next().unwrap_or("");
            if line.contains(';')
                || line.contains('"')
                || (inside(before.chars().last()) && inside(after.chars().next()))
            {
                continue;
            }
            let (before, after) = (before.to_string(), after.to_string());
            text = match rng.below(3) {
                // Delete the spaces and tabs that follow.
                0 => before + after.trim_start_matches([' ', '\t']),
                _ => before + edit + &after,
            };
        }
        let Ok(out) = constree::asm::fmt::format(FileId(0), &text) else {
            continue;
        };
        formatted += 1;
        let context = format!("round {round}, {}:\n{text}", path.display());
        assert_eq!(format(&out), out, "not idempotent, {context}");
        assert_eq!(tokens(&text), tokens(&out), "tokens changed, {context}");
        assert_eq!(
            comments(&text),
            comments(&out),
            "comments changed, {context}"
        );
    }
    assert!(formatted > 100, "only {formatted} of 400 still parsed");
}

// The command.

/// A misformatted program and its formatted text.
const MISFORMATTED: &str = "use std/control\nmain:   halt\n";
const FORMATTED: &str = "use std/control\nmain:\n    halt\n";

/// Runs `constree ARGS` in `dir` with `stdin`, under the caps.
fn fmt_in(dir: &Path, args: &[&str], stdin: &str) -> hostile_common::Capped {
    let out = run_capped(dir, args, stdin.as_bytes());
    out.assert_bounded();
    out
}

#[test]
fn check_lists_unformatted_files_and_exits_1() {
    let scratch = Scratch::new("fmt-check");
    scratch.write("bad.cta", MISFORMATTED);
    scratch.write("good.cta", FORMATTED);
    let before = snapshot(scratch.path());
    let out = fmt_in(
        scratch.path(),
        &["fmt", "--check", "good.cta", "bad.cta"],
        "",
    );
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert_eq!(out.stdout, "bad.cta\n");
    let out = fmt_in(scratch.path(), &["fmt", "--check", "good.cta"], "");
    out.assert_success();
    assert_eq!(out.stdout, "");
    assert_eq!(snapshot(scratch.path()), before, "--check wrote");
    let out = fmt_in(scratch.path(), &["fmt", "--check", "-"], MISFORMATTED);
    assert_eq!((out.code, out.stdout.as_str()), (Some(1), "<stdin>\n"));
}

#[test]
fn files_are_rewritten_in_place_and_dash_is_standard_output() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new("fmt-write");
    let bad = scratch.write("bad.cta", MISFORMATTED);
    std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o640)).unwrap();
    let good = scratch.write("good.cta", FORMATTED);
    std::os::unix::fs::symlink("bad.cta", scratch.path().join("link.cta")).unwrap();
    let unchanged = std::fs::metadata(&good).unwrap().modified().unwrap();
    let out = fmt_in(scratch.path(), &["fmt", "link.cta", "good.cta"], "");
    out.assert_success();
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), FORMATTED);
    let mode = std::fs::metadata(&bad).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert!(
        std::fs::symlink_metadata(scratch.path().join("link.cta"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A formatted file is not written at all.
    assert_eq!(
        std::fs::metadata(&good).unwrap().modified().unwrap(),
        unchanged
    );
    let names: Vec<_> = std::fs::read_dir(scratch.path()).unwrap().collect();
    assert_eq!(names.len(), 3, "a temporary file was left: {names:?}");
    let out = fmt_in(scratch.path(), &["fmt", "-"], MISFORMATTED);
    out.assert_success();
    assert_eq!(out.stdout, FORMATTED);
}

#[test]
fn a_file_that_does_not_parse_is_left_as_it_is_with_an_error_saying_where() {
    let scratch = Scratch::new("fmt-refuse");
    scratch.write("broken.cta", "main:\n    mov x, (1 +\n  halt\n");
    scratch.write("fine.cta", MISFORMATTED);
    let before = snapshot(scratch.path());
    let out = fmt_in(scratch.path(), &["fmt", "broken.cta"], "");
    out.assert_error("broken.cta:");
    assert!(out.stderr.contains("not formatted"), "{out:#?}");
    assert!(out.stderr.contains("[E0100]"), "{out:#?}");
    assert_eq!(snapshot(scratch.path()), before);
    // The other files are formatted all the same.
    let out = fmt_in(scratch.path(), &["fmt", "broken.cta", "fine.cta"], "");
    assert_eq!(out.code, Some(1));
    assert_eq!(
        std::fs::read_to_string(scratch.path().join("fine.cta")).unwrap(),
        FORMATTED
    );
    let out = fmt_in(scratch.path(), &["fmt", "game.toml"], "");
    out.assert_error("not a program source");
}

#[test]
fn only_regular_files_are_rewritten_in_place() {
    let scratch = Scratch::new("fmt-fifo");
    let fifo = scratch.path().join("pipe.cta");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let before = snapshot(scratch.path());
    // Opening the FIFO would wait for a writer: the cap on time would end it.
    let out = fmt_in(scratch.path(), &["fmt", "pipe.cta"], "");
    out.assert_error("pipe.cta: not rewritten: it is a FIFO");
    assert!(out.stderr.contains("[E1202]"), "{out:#?}");
    assert_eq!(snapshot(scratch.path()), before);
    std::os::unix::fs::symlink("/dev/null", scratch.path().join("null.cta")).unwrap();
    let out = fmt_in(scratch.path(), &["fmt", "null.cta"], "");
    out.assert_error("null.cta: not rewritten: it is a device");
    // Standard input stays the way to format what is not a file.
    let out = fmt_in(scratch.path(), &["fmt", "-"], MISFORMATTED);
    out.assert_success();
    assert_eq!(out.stdout, FORMATTED);
}

#[test]
fn without_files_it_is_a_usage_error_and_reads_nothing() {
    let scratch = Scratch::new("fmt-none");
    let out = run_capped(scratch.path(), &["fmt"], MISFORMATTED.as_bytes());
    assert_eq!((out.code, out.timed_out), (Some(2), false), "{out:#?}");
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("<FILES>"), "{out:#?}");
}

// Hostile inputs: an answer or a clean error, within the caps.

#[test]
fn deep_nesting_of_bodies_is_formatted_with_bounded_indentation() {
    let depth = 100_000;
    let text = format!("{}{}", "if 1\n".repeat(depth), "end\n".repeat(depth));
    let scratch = Scratch::new("fmt-deep");
    let out = fmt_in(scratch.path(), &["fmt", "-"], &text);
    out.assert_success();
    assert_eq!(out.stdout.lines().count(), 2 * depth);
    let widest = out.stdout.lines().map(str::len).max().unwrap();
    let most = constree::asm::fmt::INDENT * constree::asm::fmt::MAX_INDENT_LEVELS;
    assert_eq!(widest, most + "if 1".len());
}

#[test]
fn deep_brackets_and_long_chains_are_clean_errors() {
    let scratch = Scratch::new("fmt-chains");
    for (value, code) in [
        (hostile::paren_nest(100_000), "E0003"),
        (hostile::plus_chain(5_000), "E0004"),
        (hostile::neg_chain(5_000), "E0004"),
        (hostile::not_chain(5_000), "E0004"),
        (vec!["1 +\n"; 5_000].concat() + "1", "E0004"),
    ] {
        let out = fmt_in(
            scratch.path(),
            &["fmt", "-"],
            &hostile::program_with(&value),
        );
        out.assert_error(&format!("[{code}]"));
        assert!(out.stderr.contains("[E1207] Error: <stdin>:"), "{out:#?}");
    }
    // A list of 5,000 items over 5,000 lines is fine.
    let list = format!("[\n{}]", "1,\n".repeat(5_000));
    let out = fmt_in(scratch.path(), &["fmt", "-"], &hostile::program_with(&list));
    out.assert_success();
    assert!(out.stdout.contains("\n    1,\n    1,\n"));
}

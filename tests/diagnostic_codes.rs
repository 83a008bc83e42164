//! The docs' code tables are the [`Code`] enum's: each table is generated
//! from the codes' titles (`CONSTREE_BLESS=1 cargo test --release --test
//! diagnostic_codes` writes it again), every code has exactly one row in
//! `docs/`, and the docs name no code that does not exist.

use constree::diagnostic::Code;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One generated table of codes in the docs.
struct Table {
    /// The page, from the crate's root.
    page: &'static str,
    /// The name in its markers.
    name: &'static str,
    /// Which codes it lists.
    holds: fn(Code) -> bool,
}

/// Where each family of codes is tabled.
const TABLES: &[Table] = &[
    Table {
        page: "docs/language.md",
        name: "the assembler's codes",
        holds: |c| !family(c, &["E08", "E09", "E10", "E11", "E12"]),
    },
    Table {
        page: "docs/formats.md",
        name: "the scenarios' codes",
        holds: |c| family(c, &["E08"]),
    },
    Table {
        page: "docs/debugger.md",
        name: "the debugger's codes",
        holds: |c| family(c, &["E09"]),
    },
    Table {
        page: "docs/formats.md",
        name: "the images', replays' and tournaments' codes",
        holds: |c| family(c, &["E10", "E11"]),
    },
    Table {
        page: "docs/cli.md",
        name: "the command line's codes",
        holds: |c| family(c, &["E12"]),
    },
];

/// Whether a code starts with one of these.
fn family(code: Code, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| code.as_str().starts_with(p))
}

/// The sentence of the docs that names a code on purpose, as one that does
/// not exist.
const NO_SUCH_CODE: &str = "There is no E0604";

/// The table of some codes, as the docs show it.
fn table(codes: impl Iterator<Item = Code>) -> String {
    let mut out = String::from("| code | meaning |\n|---|---|\n");
    for code in codes {
        out.push_str(&format!("| {code} | {} |\n", code.title()));
    }
    out
}

/// The Markdown files below `docs/`.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = Vec::new();
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// Whether a word is written like a code: `E` or `W` and four digits.
fn looks_like_a_code(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 5 && (b[0] == b'E' || b[0] == b'W') && b[1..].iter().all(u8::is_ascii_digit)
}

#[test]
fn the_code_tables_are_generated_from_the_enum() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for Table { page, name, holds } in TABLES {
        let path = root.join(page);
        let text = std::fs::read_to_string(&path).unwrap();
        let start = format!("<!-- generated: {name} -->\n");
        let end = "<!-- end of the generated codes -->";
        let a = text
            .find(&start)
            .unwrap_or_else(|| panic!("{page} lacks {start}"))
            + start.len();
        let b = a + text[a..]
            .find(end)
            .unwrap_or_else(|| panic!("{page} lacks {end}"));
        let generated = table(Code::ALL.iter().copied().filter(|c| holds(*c)));
        let written = format!("{}{generated}{}", &text[..a], &text[b..]);
        if std::env::var_os("CONSTREE_BLESS").is_some() {
            std::fs::write(&path, &written).unwrap();
        }
        assert!(
            text == written,
            "{page}: the table of {name} differs from src/diagnostic/code.rs; \
             CONSTREE_BLESS=1 cargo test --release --test diagnostic_codes writes it"
        );
    }
}

#[test]
fn docs_table_each_code_once_and_name_no_other() {
    let mut rows: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in pages() {
        let text = std::fs::read_to_string(&path).unwrap();
        let page = path.display().to_string();
        for (k, line) in text.lines().enumerate() {
            let first_cell = line
                .strip_prefix('|')
                .and_then(|l| l.split('|').next())
                .map(str::trim);
            if let Some(cell) = first_cell.filter(|c| looks_like_a_code(c)) {
                rows.entry(cell.to_string())
                    .or_default()
                    .push(format!("{page}:{}", k + 1));
            }
            let prose = line.replace(NO_SUCH_CODE, "");
            for word in prose.split(|c: char| !c.is_ascii_alphanumeric()) {
                assert!(
                    !looks_like_a_code(word) || Code::ALL.iter().any(|c| c.as_str() == word),
                    "{page}:{} names {word}, which is no code",
                    k + 1
                );
            }
        }
    }
    for code in Code::ALL {
        let places = rows.remove(code.as_str()).unwrap_or_default();
        assert_eq!(
            places.len(),
            1,
            "{code} has {} rows in docs/: {places:?}",
            places.len()
        );
    }
    assert!(rows.is_empty(), "rows of codes that do not exist: {rows:?}");
}

#[test]
fn each_code_is_written_as_its_name_once() {
    let names: std::collections::BTreeSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(names.len(), Code::ALL.len());
    assert!(Code::ALL.iter().all(|c| looks_like_a_code(c.as_str())));
    assert!(
        Code::ALL
            .iter()
            .all(|c| !c.title().is_empty() && !c.help().is_empty())
    );
}

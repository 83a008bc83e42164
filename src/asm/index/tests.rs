use super::*;
use crate::asm::source::{DiskLoader, MemoryLoader, SourceFile};
use crate::asm::{Assembly, assemble, check_indexed};

const PROGRAM: &str = "\
use std/control
const N = 3
reg count 10 = N + 1

; twice R: R := Cons R R.
; Clobbers nothing.
macro twice r
again:
    construct r, r, r
end

main:
    twice count
.loop:
    twice count
    jnil count, .loop
    jmp main
";

fn index_of(text: &str) -> (Assembly, SymbolIndex) {
    let main = SourceFile::new("main.cta".into(), None, text.into());
    check_indexed(&MemoryLoader::default(), main)
}

/// The symbol named `name`, and its id.
fn find<'i>(index: &'i SymbolIndex, name: &str) -> (usize, &'i Symbol) {
    let id = index
        .symbols
        .iter()
        .position(|s| s.name == name)
        .unwrap_or_else(|| panic!("no symbol `{name}` in {:?}", index.symbols));
    (id, &index.symbols[id])
}

/// The texts (in the main file) of every occurrence of a symbol, with
/// whether each is the definition.
fn written(assembly: &Assembly, index: &SymbolIndex, id: usize) -> Vec<(String, bool)> {
    index
        .occurrences_of(id)
        .map(|o| {
            let text = &assembly.sources.get(o.span.file).text[o.span.range()];
            (text.to_string(), o.definition)
        })
        .collect()
}

/// The line (0-based) of an occurrence.
fn line(assembly: &Assembly, o: Occurrence) -> usize {
    assembly
        .sources
        .get(o.span.file)
        .line_col(o.span.start as usize)
        .0
        - 1
}

#[test]
fn registers_labels_constants_and_macros_are_found_where_written() {
    let (assembly, index) = index_of(PROGRAM);
    assert!(!assembly.has_errors(), "{}", assembly.render(false));

    let (count, symbol) = find(&index, "count");
    let (main, _) = find(&index, "main");
    let (main_loop, _) = find(&index, "main.loop");
    let calls: Vec<Span> = index
        .occurrences_of(find(&index, "twice").0)
        .filter(|o| !o.definition)
        .map(|o| o.span)
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        symbol.detail,
        Detail::Register {
            number: 3,
            limit: Some(10),
            start: symbol.detail_start(),
            predeclared: false,
            writes: vec![
                Write {
                    at: calls[0],
                    label: Some(main)
                },
                Write {
                    at: calls[1],
                    label: Some(main_loop)
                },
            ],
        }
    );
    let expanded = index.expansion(calls[0]).expect("the call's expansion");
    assert_eq!(expanded.lines, ["construct count, count, count"]);
    assert_eq!(expanded.instructions, 1);
    let uses: Vec<usize> = index
        .occurrences_of(count)
        .map(|o| line(&assembly, o))
        .collect();
    assert_eq!(uses, [2, 12, 14, 15], "declared, then each use");
    assert!(
        written(&assembly, &index, count)
            .iter()
            .all(|(t, _)| t == "count")
    );

    let (n, constant) = find(&index, "N");
    let three = Value::Int(3).encode().unwrap().size();
    assert!(
        matches!(constant.detail, Detail::Constant { number: Some(3), size: Some(s), .. } if s == three),
        "{constant:?}"
    );
    assert_eq!(
        written(&assembly, &index, n),
        [("N".to_string(), true), ("N".to_string(), false)]
    );

    let (twice, m) = find(&index, "twice");
    assert_eq!(
        m.detail,
        Detail::Macro {
            params: vec!["r".into()],
            doc: vec!["twice R: R := Cons R R.".into(), "Clobbers nothing.".into()],
        }
    );
    let lines: Vec<usize> = index
        .occurrences_of(twice)
        .map(|o| line(&assembly, o))
        .collect();
    assert_eq!(lines, [6, 12, 14]);

    // `.loop` is `main.loop`, written `.loop` twice.
    let (looped, label) = find(&index, "main.loop");
    assert!(matches!(
        label.detail,
        Detail::Label {
            register: Some(_),
            ..
        }
    ));
    assert_eq!(
        written(&assembly, &index, looped),
        [(".loop".to_string(), true), (".loop".to_string(), false)]
    );
    // `main` is jumped to through `jmp`, whose operand is written here.
    let (main, _) = find(&index, "main");
    assert_eq!(written(&assembly, &index, main).len(), 2);
    // The macro's label, one symbol for both expansions.
    let (again, _) = find(&index, "again");
    assert_eq!(
        written(&assembly, &index, again),
        [("again".to_string(), true)]
    );
    assert_eq!(
        index.symbols.iter().filter(|s| s.name == "again").count(),
        1
    );
}

impl Symbol {
    /// The start value's span of a register (for comparing details).
    fn detail_start(&self) -> Option<Span> {
        match self.detail {
            Detail::Register { start, .. } => start,
            _ => None,
        }
    }
}

#[test]
fn modules_and_standard_names_lead_into_their_files() {
    let (assembly, index) = index_of(PROGRAM);
    let (module, symbol) = find(&index, "std/control.cta");
    let Detail::Module { file, standard } = symbol.detail else {
        panic!("{symbol:?}");
    };
    assert!(standard);
    assert_eq!(symbol.definition, Some(Span::new(file, 0..0)));
    let uses: Vec<Occurrence> = index.occurrences_of(module).collect();
    assert_eq!(uses.len(), 1);
    assert_eq!(
        &assembly.sources.get(uses[0].span.file).text[uses[0].span.range()],
        "use std/control"
    );
    // `jnil` is defined in the module, and named in the main file.
    let (jnil, symbol) = find(&index, "jnil");
    assert_eq!(symbol.definition.map(|s| s.file), Some(file));
    assert!(index.occurrences_of(jnil).any(|o| o.span.file == FileId(0)));
    let (_, zero) = find(&index, "zero");
    assert_eq!(zero.definition.map(|s| s.file), Some(file));
}

#[test]
fn the_occurrence_at_a_place_is_found() {
    let (assembly, index) = index_of(PROGRAM);
    let text = &assembly.sources.get(FileId(0)).text;
    let at = |needle: &str, nth: usize| {
        let offset = text.match_indices(needle).nth(nth).unwrap().0;
        index
            .at(FileId(0), offset + 1)
            .map(|o| index.symbols[o.symbol].name.clone())
    };
    assert_eq!(at("count", 1).as_deref(), Some("count"));
    assert_eq!(at("jnil", 0).as_deref(), Some("jnil"));
    assert_eq!(at(".loop", 1).as_deref(), Some("main.loop"));
    assert_eq!(at("construct", 0), None, "a mnemonic is no symbol");
    // Just after a name is still the name.
    let end = text.find("N + 1").unwrap() + 1;
    assert_eq!(
        index
            .at(FileId(0), end)
            .map(|o| index.symbols[o.symbol].name.as_str()),
        Some("N")
    );
}

#[test]
fn indexing_gives_the_diagnostics_and_limits_of_the_image() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let loader = DiskLoader::new(None);
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "cta") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let file = || SourceFile::new(path.display().to_string(), Some(path.clone()), text.clone());
        let plain = assemble(&loader, file());
        let (indexed, index) = check_indexed(&loader, file());
        assert!(indexed.image.is_none(), "{}", path.display());
        assert_eq!(plain.diagnostics, indexed.diagnostics, "{}", path.display());
        let image_limits = plain
            .image
            .as_ref()
            .map(|i| i.registers.iter().map(|r| r.limit).collect::<Vec<_>>());
        assert!(image_limits.is_some(), "{}", path.display());
        assert_eq!(index.limits, image_limits, "{}", path.display());
        assert!(!index.symbols.is_empty(), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} examples");
}

#[test]
fn a_broken_program_is_indexed_as_far_as_it_goes() {
    let (assembly, index) = index_of("reg a\nmain:\n  bogus a\n  nilify b\n  nilify a\n");
    assert!(assembly.has_errors());
    let (a, _) = find(&index, "a");
    assert_eq!(index.occurrences_of(a).count(), 3);
}

#[test]
fn doc_comments_stop_at_a_gap() {
    let text = "; not this\n\n; this\n;and this\nmacro m\n";
    assert_eq!(
        doc_comment(text, text.find("macro").unwrap()),
        ["this", "and this"]
    );
    assert_eq!(doc_comment("macro m\n", 0), Vec::<String>::new());
}

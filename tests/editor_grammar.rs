//! The TextMate grammar of `editors/vscode`: loaded and run over every
//! program of `examples/`, `stdlib/` and `docs/tutorial/` (and the
//! `constree new` template), each token's scope checked against what the
//! assembler's own lexer says it is.
//!
//! The runner below does what a TextMate engine does on one line: from the
//! current position, every pattern of the current context (and the end
//! pattern of an open `begin`/`end` rule) is searched; the match that
//! starts first wins, ties going to the end pattern, then to the first
//! pattern listed. The grammar keeps to the regular expressions that
//! Oniguruma (TextMate's engine) and the `regex` crate read alike: no
//! look-around, no back-references.

use constree::asm::ast::KEYWORDS;
use constree::asm::lexer::{Token, lex};
use constree::asm::source::FileId;
use regex::Regex;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const GRAMMAR: &str = "editors/vscode/syntaxes/constree.tmLanguage.json";

/// A compiled rule.
enum Rule {
    Match {
        regex: Regex,
        name: Option<String>,
        captures: HashMap<usize, String>,
    },
    Region {
        begin: Regex,
        end: Regex,
        patterns: Vec<usize>,
    },
}

/// The grammar: rules, and the top-level patterns.
struct Grammar {
    rules: Vec<Rule>,
    top: Vec<usize>,
    /// Rules made from each JSON rule (by address), so that regions
    /// including themselves are made once.
    made: HashMap<usize, Vec<usize>>,
}

fn captures(v: &Value) -> HashMap<usize, String> {
    v.as_object()
        .map(|m| {
            m.iter()
                .map(|(k, c)| (k.parse().unwrap(), c["name"].as_str().unwrap().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

impl Grammar {
    fn load() -> Grammar {
        let json: Value = serde_json::from_str(&std::fs::read_to_string(GRAMMAR).unwrap()).unwrap();
        assert_eq!(json["scopeName"], "source.constree");
        let mut g = Grammar {
            rules: Vec::new(),
            top: Vec::new(),
            made: HashMap::new(),
        };
        let repository = &json["repository"];
        g.top = g.patterns(&json["patterns"], repository);
        g
    }

    /// The rules of a `patterns` list, includes resolved.
    fn patterns(&mut self, list: &Value, repository: &Value) -> Vec<usize> {
        let mut out = Vec::new();
        for p in list.as_array().expect("a list of patterns") {
            out.extend(self.rule(p, repository));
        }
        out
    }

    fn rule(&mut self, p: &Value, repository: &Value) -> Vec<usize> {
        let address = p as *const Value as usize;
        if let Some(made) = self.made.get(&address) {
            return made.clone();
        }
        if let Some(include) = p["include"].as_str() {
            let key = include.strip_prefix('#').expect("repository includes only");
            return self.rule(&repository[key], repository);
        }
        if let Some(m) = p["match"].as_str() {
            self.rules.push(Rule::Match {
                regex: Regex::new(m).unwrap_or_else(|e| panic!("{m}: {e}")),
                name: p["name"].as_str().map(str::to_string),
                captures: captures(&p["captures"]),
            });
            self.made.insert(address, vec![self.rules.len() - 1]);
            return vec![self.rules.len() - 1];
        }
        if let Some(begin) = p["begin"].as_str() {
            // Reserve the slot first: the inner patterns may include this rule.
            let k = self.rules.len();
            self.rules.push(Rule::Region {
                begin: Regex::new(begin).unwrap(),
                end: Regex::new(p["end"].as_str().unwrap()).unwrap(),
                patterns: Vec::new(),
            });
            self.made.insert(address, vec![k]);
            let inner = self.patterns(&p["patterns"], repository);
            if let Rule::Region { patterns, .. } = &mut self.rules[k] {
                *patterns = inner;
            }
            return vec![k];
        }
        self.patterns(&p["patterns"], repository)
    }

    /// Scopes of every byte of a file: the innermost scope naming it.
    fn scopes(&self, text: &str) -> Vec<Option<String>> {
        let mut out = vec![None; text.len()];
        let mut stack: Vec<usize> = Vec::new(); // open regions
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let line = line.strip_suffix('\n').unwrap_or(line);
            let mut pos = 0;
            while pos <= line.len() {
                let (patterns, end) = match stack.last() {
                    Some(&r) => match &self.rules[r] {
                        Rule::Region { patterns, end, .. } => (patterns.as_slice(), Some(end)),
                        Rule::Match { .. } => unreachable!(),
                    },
                    None => (self.top.as_slice(), None),
                };
                let mut best: Option<(usize, usize, Option<usize>)> = None; // start, end, rule
                if let Some(m) = end.and_then(|e| e.find_at(line, pos)) {
                    best = Some((m.start(), m.end(), None));
                }
                for &k in patterns {
                    let regex = match &self.rules[k] {
                        Rule::Match { regex, .. } => regex,
                        Rule::Region { begin, .. } => begin,
                    };
                    if let Some(m) = regex.find_at(line, pos)
                        && best.is_none_or(|(s, _, _)| m.start() < s)
                    {
                        best = Some((m.start(), m.end(), Some(k)));
                    }
                }
                let Some((start, stop, rule)) = best else {
                    break;
                };
                match rule {
                    None => {
                        stack.pop();
                    }
                    Some(k) => match &self.rules[k] {
                        Rule::Match {
                            regex,
                            name,
                            captures,
                        } => {
                            let caps = regex.captures_at(line, pos).unwrap();
                            if let Some(name) = name {
                                out[offset + start..offset + stop].fill(Some(name.clone()));
                            }
                            for (g, scope) in captures {
                                if let Some(c) = caps.get(*g) {
                                    out[offset + c.start()..offset + c.end()]
                                        .fill(Some(scope.clone()));
                                }
                            }
                        }
                        Rule::Region { .. } => stack.push(k),
                    },
                }
                pos = if stop > start { stop } else { stop + 1 };
            }
            offset += line.len() + 1;
        }
        out
    }
}

/// The reserved words that begin statements: the language's keywords but
/// the word operators.
fn is_directive(word: &str) -> bool {
    KEYWORDS.contains(&word) && !["and", "or", "not"].contains(&word)
}
const MNEMONICS: &[&str] = &["nilify", "construct", "deconstruct", "copyifnil"];

/// The scope the grammar must give a statement's first word.
fn head_scope(word: &str) -> &'static str {
    if is_directive(word) {
        "keyword.control.directive.constree"
    } else if MNEMONICS.contains(&word.to_ascii_lowercase().as_str()) {
        "keyword.other.instruction.constree"
    } else {
        "entity.name.function.macro.constree"
    }
}

/// Where each comment starts: the first `;` of a line outside a string.
fn comments(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let (mut in_string, mut escaped) = (false, false);
        for (i, c) in body.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if in_string => escaped = true,
                '"' => in_string = !in_string,
                ';' if !in_string => {
                    out.push(offset + i..offset + body.len());
                    break;
                }
                _ => {}
            }
        }
        offset += line.len();
    }
    out
}

/// Checks every token of one file; returns the number of checks made.
fn check_file(grammar: &Grammar, path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let scopes = grammar.scopes(&text);
    let (lines, diagnostics) = lex(FileId(0), &text);
    assert!(diagnostics.is_empty(), "{}: does not lex", path.display());
    // (bytes, the scope they must have, what they are)
    let mut expected: Vec<(std::ops::Range<usize>, &str, &str)> = Vec::new();
    // Names that are neither heads nor mnemonics: never scoped as those.
    let mut plain: Vec<std::ops::Range<usize>> = Vec::new();
    for range in comments(&text) {
        expected.push((range, "comment.line.semicolon.constree", "comment"));
    }
    for line in &lines {
        let mut head = 0;
        if let [(Token::Ident(_), label), (Token::Colon, _), ..] = line.as_slice() {
            let range = label.start as usize..label.end as usize;
            expected.push((range, "entity.name.label.constree", "label"));
            head = 2;
        }
        for (k, (token, span)) in line.iter().enumerate() {
            let range = span.start as usize..span.end as usize;
            match token {
                Token::Int(_) => expected.push((range, "constant.numeric.constree", "number")),
                Token::Str(_) => expected.push((range, "string.quoted.double.constree", "string")),
                Token::Ident(word) if k == head => {
                    expected.push((range, head_scope(word), "statement head"))
                }
                Token::Ident(word) if MNEMONICS.contains(&word.to_ascii_lowercase().as_str()) => {
                    expected.push((range, "keyword.other.instruction.constree", "mnemonic"))
                }
                Token::Ident(_) if k > head => plain.push(range),
                _ => {}
            }
        }
    }
    for (range, scope, what) in &expected {
        for k in range.clone() {
            assert_eq!(
                scopes[k].as_deref(),
                Some(*scope),
                "{}: {what} {:?} (byte {k}) is scoped {:?}, expected {scope}",
                path.display(),
                &text[range.clone()],
                scopes[k]
            );
        }
    }
    let heads = [
        "keyword.control.directive.constree",
        "keyword.other.instruction.constree",
        "entity.name.function.macro.constree",
        "entity.name.label.constree",
    ];
    for range in &plain {
        let scope = scopes[range.start].as_deref();
        assert!(
            !scope.is_some_and(|s| heads.contains(&s)),
            "{}: the name {:?} at byte {} is scoped {scope:?}",
            path.display(),
            &text[range.clone()],
            range.start
        );
    }
    expected.len() + plain.len()
}

fn cta_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            cta_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "cta") {
            out.push(path);
        }
    }
}

#[test]
fn the_grammar_scopes_every_program_as_the_lexer_reads_it() {
    let grammar = Grammar::load();
    let mut files = Vec::new();
    for dir in ["examples", "stdlib", "docs/tutorial", "src/cli/new"] {
        cta_files(Path::new(dir), &mut files);
    }
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    let checks: usize = files.iter().map(|f| check_file(&grammar, f)).sum();
    assert!(checks > 5000, "{checks} checks");
}

#[test]
fn the_runner_scopes_known_lines() {
    // The runner itself, on lines whose scopes are known.
    let grammar = Grammar::load();
    let scopes = grammar.scopes("main:\n    load x, #0x2A ; answer\n");
    let at = |k: usize| scopes[k].as_deref();
    assert_eq!(at(0), Some("entity.name.label.constree"));
    assert_eq!(at(4), Some("punctuation.separator.label.constree"));
    assert_eq!(at(10), Some("entity.name.function.macro.constree"));
    assert_eq!(at(19), Some("constant.numeric.constree"));
    assert_eq!(at(26), Some("comment.line.semicolon.constree"));
    let scopes = grammar.scopes("reg plan = [Move E,\n    nilify 3]\n");
    assert_eq!(
        scopes[0].as_deref(),
        Some("keyword.control.directive.constree")
    );
    // A continuation line inside brackets has no statement head.
    assert_eq!(
        scopes[24].as_deref(),
        Some("keyword.other.instruction.constree")
    );
    assert_eq!(scopes[31].as_deref(), Some("constant.numeric.constree"));
}

#[test]
fn the_extension_names_the_grammar() {
    let package: Value =
        serde_json::from_str(&std::fs::read_to_string("editors/vscode/package.json").unwrap())
            .unwrap();
    let grammar = &package["contributes"]["grammars"][0];
    assert_eq!(grammar["scopeName"], "source.constree");
    let path = Path::new("editors/vscode").join(grammar["path"].as_str().unwrap());
    assert_eq!(
        path,
        Path::new("editors/vscode/./syntaxes/constree.tmLanguage.json")
    );
    assert!(path.is_file());
    let language = &package["contributes"]["languages"][0];
    assert_eq!(language["extensions"][0], ".cta");
    let configuration =
        Path::new("editors/vscode").join(language["configuration"].as_str().unwrap());
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(configuration).unwrap()).unwrap();
    assert_eq!(config["comments"]["lineComment"], ";");
}

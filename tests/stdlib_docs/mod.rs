//! The sections of `docs/stdlib.md`, for tests that check what the docs
//! show.

#![allow(dead_code)]

/// The section of `docs/stdlib.md` about `std/MODULE`: from its heading
/// to the next module's.
pub fn section(module: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/stdlib.md");
    let text = std::fs::read_to_string(&path).expect("docs/stdlib.md exists");
    let heading = format!("## `std/{module}`");
    let start = text
        .find(&heading)
        .unwrap_or_else(|| panic!("docs/stdlib.md has no section {heading}"));
    let rest = &text[start + heading.len()..];
    let end = rest.find("\n## `std/").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The fenced code blocks of a module's section, in order.
pub fn blocks(module: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in section(module).lines() {
        match (&mut current, line.trim_start().starts_with("```")) {
            (None, true) => current = Some(String::new()),
            (Some(block), true) => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), false) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, false) => {}
        }
    }
    blocks
}

/// The whole programs a module's section shows (blocks that start with
/// `use std/control`).
pub fn programs(module: &str) -> Vec<String> {
    blocks(module)
        .into_iter()
        .filter(|b| b.starts_with("use std/control"))
        .collect()
}

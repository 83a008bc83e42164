//! Words for messages: a count with its noun in the right number; text
//! from files made safe for a terminal.

/// `1 step`, `2 steps`, `0 steps`: `n` and `noun`, with an `s` unless `n`
/// is 1.
pub fn count(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `text` with every control character (escape sequences, carriage
/// returns, bells...) written as a Rust escape (`\u{1b}`), so text from a
/// file cannot drive the terminal it is printed on. Tabs stay.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\t' {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(super::count(1u64, "step"), "1 step");
        assert_eq!(super::count(0u64, "step"), "0 steps");
        assert_eq!(super::count(2u32, "tick"), "2 ticks");
        assert_eq!(super::count(-1i64, "tick"), "-1 ticks");
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(super::escaped("a\x1b[2Jb\tc é"), "a\\u{1b}[2Jb\tc é");
        assert_eq!(super::escaped("\r\u{7}"), "\\u{d}\\u{7}");
    }
}

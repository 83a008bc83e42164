//! Words for messages: a count with its noun in the right number.

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

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(super::count(1u64, "step"), "1 step");
        assert_eq!(super::count(0u64, "step"), "0 steps");
        assert_eq!(super::count(2u32, "tick"), "2 ticks");
        assert_eq!(super::count(-1i64, "tick"), "-1 ticks");
    }
}

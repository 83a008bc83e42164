//! "Did you mean": the known name nearest to a misspelt one.
//!
//! Used wherever a name is unknown: registers and labels, constants and
//! the language's built-in values, instructions and macros.

/// The candidate nearest to `name`: one that differs only in case, else the
/// closest by edit distance, if it is close enough to be a likely typo (one
/// edit, or a third of the name's length for longer names: `bogus` is not
/// taken for `focus`), and fewer edits than the name has characters. Ties go to the first in alphabetical order.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let distance = if candidate.eq_ignore_ascii_case(name) {
            0
        } else {
            edit_distance(name, candidate)
        };
        let length = name.chars().count();
        if distance > 1.max(length / 3) || distance >= length {
            continue;
        }
        if best.is_none_or(|(d, c)| (distance, candidate) < (d, c)) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Edit distance with transpositions (optimal string alignment).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_name() {
        let known = ["push", "pop", "mov", "halt", "Pass", "E", "trail"];
        assert_eq!(nearest("psuh", known), Some("push"));
        assert_eq!(nearest("MOV", known), Some("mov"));
        assert_eq!(nearest("Pas", known), Some("Pass"));
        assert_eq!(nearest("e", known), Some("E"));
        assert_eq!(nearest("trial", known), Some("trail"));
        // Too far, or the name itself.
        assert_eq!(nearest("jump", known), None);
        assert_eq!(nearest("x", known), None);
        assert_eq!(nearest("bogus", ["focus"]), None);
        assert_eq!(nearest("inventroy", ["inventory"]), Some("inventory"));
        assert_eq!(nearest("pop", ["pop"]), None);
    }

    #[test]
    fn distance_counts_transpositions_once() {
        assert_eq!(edit_distance("psuh", "push"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}

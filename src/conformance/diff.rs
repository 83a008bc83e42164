//! A readable difference between two JSON values: the path to the first place
//! where they differ, and both values there.

use serde_json::Value;

/// How much of each differing value is shown.
const SHOWN_CHARS: usize = 240;

/// The first difference between `expected` and `actual`, as
/// `at PATH:\n  expected: ...\n  actual:   ...`, or `None` if they are equal.
pub fn first_difference(expected: &Value, actual: &Value) -> Option<String> {
    let mut path = String::new();
    let (e, a) = descend(expected, actual, &mut path)?;
    let place = if path.is_empty() {
        "the top".to_string()
    } else {
        path
    };
    Some(format!(
        "at {place}:\n  expected: {}\n  actual:   {}",
        shorten(e),
        shorten(a)
    ))
}

/// Walks down both values while they have the same shape, extending `path`.
fn descend<'a>(
    mut e: &'a Value,
    mut a: &'a Value,
    path: &mut String,
) -> Option<(&'a Value, &'a Value)> {
    loop {
        if e == a {
            return None;
        }
        match (e, a) {
            (Value::Array(xs), Value::Array(ys)) if xs.len() == ys.len() => {
                let (k, (x, y)) = xs.iter().zip(ys).enumerate().find(|(_, (x, y))| x != y)?;
                path.push_str(&format!("[{k}]"));
                (e, a) = (x, y);
            }
            (Value::Object(xs), Value::Object(ys)) if xs.keys().eq(ys.keys()) => {
                let (key, x) = xs.iter().find(|(k, x)| ys.get(*k) != Some(*x))?;
                path.push_str(&format!(".{key}"));
                (e, a) = (x, &ys[key]);
            }
            (Value::String(x), Value::String(y)) => {
                let at = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
                path.push_str(&format!(" (strings differ from character {at})"));
                return Some((e, a));
            }
            _ => return Some((e, a)),
        }
    }
}

fn shorten(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() <= SHOWN_CHARS {
        text
    } else {
        let cut: String = text.chars().take(SHOWN_CHARS).collect();
        format!("{cut}… ({} characters)", text.chars().count())
    }
}

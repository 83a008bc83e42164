//! Assembly-time arithmetic against a reference computed in 128 bits: a
//! result is the exact integer result when it fits the report's 64-bit
//! Int, and an error (E0408, E0409) otherwise, for every operator.

use constree::asm::parse_literal;
use constree::encoding::{Decode, Encode};
use proptest::prelude::*;

/// What the docs say an operation gives: `Some(n)`, or `None` for an
/// error.
fn reference(x: i64, op: &str, y: i64) -> Option<i64> {
    let (a, b) = (i128::from(x), i128::from(y));
    let exact: i128 = match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        // `/` rounds toward zero; `%` has the sign of the dividend.
        "/" if b != 0 => a / b,
        "%" if b != 0 => a % b,
        "/" | "%" => return None,
        // `x << s` is x * 2^s; `x >> s` is x / 2^s rounded down.
        "<<" | ">>" if b < 0 => return None,
        "<<" if a == 0 => 0,
        "<<" if b >= 64 => return None,
        "<<" => a * (1i128 << b),
        ">>" => a.div_euclid(1i128 << b.min(100)),
        _ => unreachable!("{op}"),
    };
    i64::try_from(exact).ok()
}

/// The assembler's value of `x op y`, or `None` if it reports an error.
fn assembled(x: i64, op: &str, y: i64) -> Option<i64> {
    let text = format!("({x}) {op} ({y})");
    parse_literal(&text).ok().map(|tree| {
        let n = i64::decode(&tree).expect("an Int");
        assert_eq!(n.encode(), tree, "{text}: the canonical encoding");
        n
    })
}

fn operand() -> impl Strategy<Value = i64> {
    prop_oneof![
        -70i64..70,
        any::<i64>(),
        Just(i64::MIN),
        Just(i64::MAX),
        (0u32..63).prop_map(|k| 1i64 << k),
        (0u32..63).prop_map(|k| -(1i64 << k)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn arithmetic_is_exact_or_an_error(
        x in operand(),
        op in prop::sample::select(vec!["+", "-", "*", "/", "%", "<<", ">>"]),
        y in operand(),
    ) {
        prop_assert_eq!(assembled(x, op, y), reference(x, op, y), "{} {} {}", x, op, y);
    }
}

#[test]
fn the_shifts_of_the_docs() {
    for (text, value) in [
        ("1 << 62", Some(1i64 << 62)),
        ("3 << 62", None),
        ("1 << 63", None),
        ("-2 << 63", None),
        ("-1 << 63", Some(i64::MIN)),
        ("0 << 200", Some(0)),
        ("1 << -1", None),
        ("-7 >> 1", Some(-4)),
        ("-7 / 2", Some(-3)),
        ("5 >> 64", Some(0)),
        ("-5 >> 100", Some(-1)),
        ("8 >> -2", None),
    ] {
        assert_eq!(
            parse_literal(text).ok(),
            value.map(|v| v.encode()),
            "{text}"
        );
    }
    let message = parse_literal("3 << 62").unwrap_err().to_string();
    assert!(message.contains("overflows 64 bits"), "{message}");
    let message = parse_literal("1 << -1").unwrap_err().to_string();
    assert!(message.contains("cannot shift by -1"), "{message}");
}

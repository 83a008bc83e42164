//! Typed readings (`print EXPR : TYPE`, `exec --show NAME:TYPE`): a value
//! of a type, written as a literal, reads back as a literal that assembles
//! to the same tree; any text as a type and any tree under any type give an
//! answer or an error, never a panic.

// Only the tree and direction strategies are used here.
#[allow(dead_code)]
mod strategies;

use constree::asm::parse_literal;
use constree::debugger::view::{ValueType, ViewContext, show_as};
use proptest::prelude::*;

/// Types without `instr` and `action` (an instruction reads as assembly,
/// an action in words, not as a literal).
fn value_type() -> impl Strategy<Value = ValueType> {
    let leaf = prop_oneof![
        Just(ValueType::Int),
        Just(ValueType::Bool),
        Just(ValueType::Dir),
        Just(ValueType::Command),
        Just(ValueType::Tree),
    ];
    leaf.prop_recursive(4, 16, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| ValueType::List(Box::new(t))),
            inner.clone().prop_map(|t| ValueType::Maybe(Box::new(t))),
            prop::collection::vec(inner, 2..4).prop_map(ValueType::Tuple),
        ]
    })
}

/// A literal of the language holding a value of `ty`.
fn literal_of(ty: &ValueType) -> BoxedStrategy<String> {
    match ty {
        ValueType::Int => (-300i64..300)
            .prop_map(|n| {
                if n < 0 {
                    format!("({n})")
                } else {
                    n.to_string()
                }
            })
            .boxed(),
        ValueType::Bool => prop_oneof![Just("true".to_string()), Just("false".to_string())].boxed(),
        ValueType::Dir => strategies::direction()
            .prop_map(|d| d.name().to_string())
            .boxed(),
        ValueType::Command => prop_oneof![
            strategies::direction().prop_map(|d| format!("Move {}", d.name())),
            (0i64..5).prop_map(|i| format!("Lift {i}")),
            (0i64..5).prop_map(|i| format!("Drop {i}")),
            (0i64..5).prop_map(|i| format!("Inspect {i}")),
            (0i64..5).prop_map(|i| format!("Destroy {i}")),
            Just("Pass".to_string()),
        ]
        .boxed(),
        ValueType::Tree => strategies::tree(4, 8)
            .prop_map(|t| t.readable().to_string())
            .boxed(),
        ValueType::Instr | ValueType::Action => unreachable!("not generated"),
        ValueType::List(element) => prop::collection::vec(literal_of(element), 0..4)
            .prop_map(|items| format!("[{}]", items.join(", ")))
            .boxed(),
        ValueType::Tuple(parts) => parts
            .iter()
            .map(literal_of)
            .collect::<Vec<_>>()
            .prop_map(|items| format!("({})", items.join(", ")))
            .boxed(),
        ValueType::Maybe(inner) => prop_oneof![
            Just("none".to_string()),
            literal_of(inner).prop_map(|x| format!("some ({x})")),
        ]
        .boxed(),
    }
}

fn typed_value() -> impl Strategy<Value = (ValueType, String)> {
    value_type().prop_flat_map(|ty| {
        let literal = literal_of(&ty);
        (Just(ty), literal)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_value_reads_back_as_a_literal_of_the_same_tree((ty, literal) in typed_value()) {
        let tree = parse_literal(&literal).unwrap();
        let shown = show_as(&tree, &ty, "r", &ViewContext::default())
            .unwrap_or_else(|e| panic!("{literal} as {ty}: {e}"));
        prop_assert_eq!(parse_literal(&shown), Ok(tree), "{} as {} shows {}", literal, ty, shown);
        // A type reads back from its own text.
        prop_assert_eq!(ValueType::parse(&ty.to_string()), Ok(ty));
    }

    #[test]
    fn any_tree_under_any_type_answers(tree in strategies::tree(8, 64), ty in value_type()) {
        match show_as(&tree, &ty, "r", &ViewContext::default()) {
            Ok(text) => prop_assert!(!text.is_empty()),
            Err(e) => {
                let e = e.to_string();
                prop_assert!(e.starts_with('r') && e.contains(" is not "), "{}", e)
            }
        }
    }

    #[test]
    fn any_text_as_a_type_parses_or_says_where(text in "[\\[\\](), a-z]{0,24}") {
        if let Err(e) = ValueType::parse(&text) {
            let e = e.to_string();
            prop_assert!(e.starts_with("in the type `") && e.contains("at column "), "{}", e);
        }
    }
}

/// `action` reads the engine's encoding of an action in words.
#[test]
fn actions_read_in_words() {
    use constree::encoding::Encode;
    use constree::world::{Action, Direction};
    for (action, words) in [
        (Action::MovedOut(Direction::E), "moved out E"),
        (Action::MovedIn(Direction::SW), "moved in from SW"),
        (
            Action::MoveBlocked(Direction::N),
            "move N blocked by a wall",
        ),
        (Action::Lifted(3), "lifted item 3"),
        (Action::Destroyed(1), "destroyed robot 1"),
        (Action::DestroyBlocked(2), "destroy: robot 2's shields held"),
        (Action::Passed, "passed or invalid"),
        (Action::Created, "created"),
    ] {
        let shown = show_as(
            &action.encode(),
            &ValueType::Action,
            "a",
            &ViewContext::default(),
        );
        assert_eq!(shown, Ok(words.to_string()), "{action:?}");
    }
    let not = show_as(
        &parse_literal("[1, 2, 3]").unwrap(),
        &ValueType::Action,
        "a",
        &ViewContext::default(),
    );
    assert!(
        not.unwrap_err()
            .to_string()
            .starts_with("a is not an action")
    );
}

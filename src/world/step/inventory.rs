//! Updated inventories and the new item list.

use super::conflicts::Conflicts;
use super::nth;
use crate::world::item::shatter;
use crate::world::{Action, Item, Robot};

/// The report's `veterans`: every robot that began here, its inventory
/// updated by its action and the attacks on it (`updateInventory`).
///
/// * A robot that moved out is untouched, so travelers keep their shields.
/// * Otherwise one shield is destroyed per attack, in inventory order
///   (`dropN`), blocked or not.
/// * `Lifted n` puts item `n` of the square in front; `Dropped item` removes
///   the first equal item from the *defended* inventory (so a dropped shield
///   may also have been destroyed: one shield both blocks and falls).
/// * Destroyed robots get their update too: they act before they die.
///
/// The report's code crashes on `Lifted n` past the end of the item list
/// (`itemsIn sq !! n`), which its request-order item targets make possible.
/// constree lets such a robot lift nothing.
pub fn veterans(
    robots: Vec<Robot>,
    items: &[Item],
    conflicts: &Conflicts,
    actions: &[Action],
) -> Vec<Robot> {
    robots
        .into_iter()
        .zip(actions)
        .zip(&conflicts.attacks)
        .map(|((mut robot, action), &attacks)| {
            if let Action::MovedOut(_) = action {
                return robot;
            }
            // Updated in place: most robots keep their inventory as it is.
            let defended = &mut robot.inventory;
            drop_shields(defended, attacks);
            match action {
                Action::Lifted(n) => {
                    if let Some(item) = nth(items, *n) {
                        defended.insert(0, item.clone());
                    }
                }
                Action::Dropped(item) => {
                    if let Some(k) = defended.iter().position(|i| i == item) {
                        defended.remove(k);
                    }
                }
                _ => {}
            }
            robot
        })
        .collect()
}

/// The report's `dropN n isShield`: the inventory loses its first `n`
/// shields.
fn drop_shields(inventory: &mut Vec<Item>, n: usize) {
    let mut left = n;
    if left > 0 {
        inventory.retain(|item| {
            if left > 0 && item.is_shield() {
                left -= 1;
                false
            } else {
                true
            }
        });
    }
}

/// The report's `unaffected` and `dropped` item groups.
///
/// `unaffected` is `removeIndices (lifts ++ concat builds)`, a `foldr`: the
/// indices are removed one at a time from the *last* to the first, each from
/// the already shortened list, unsorted. So `[1, 0]` removes the original
/// items 0 and 2, and a repeated index removes two different items.
pub fn remaining_items(items: Vec<Item>, actions: &[Action]) -> (Vec<Item>, Vec<Item>) {
    // Most steps nobody lifts, builds or drops: the items stay as they are.
    let changes = |a: &Action| {
        matches!(
            a,
            Action::Lifted(_) | Action::Built(..) | Action::Dropped(_)
        )
    };
    if !actions.iter().any(changes) {
        return (items, Vec::new());
    }
    let lifts = actions.iter().filter_map(|a| match a {
        Action::Lifted(i) => Some(std::slice::from_ref(i)),
        _ => None,
    });
    let builds = actions.iter().filter_map(|a| match a {
        Action::Built(is, _) => Some(is.as_slice()),
        _ => None,
    });
    let removed: Vec<i64> = lifts.chain(builds).flatten().copied().collect();
    let mut unaffected = items;
    for &i in removed.iter().rev() {
        if let Ok(i) = usize::try_from(i)
            && i < unaffected.len()
        {
            unaffected.remove(i);
        }
    }
    let dropped = actions
        .iter()
        .filter_map(|a| match a {
            Action::Dropped(item) => Some(item.clone()),
            _ => None,
        })
        .collect();
    (unaffected, dropped)
}

/// The report's `fallen`: for each destroyed robot (in order), its parts
/// (`shatter`) and its updated inventory without shields.
pub fn fallen(veterans: &[Robot], survived: &[Option<bool>]) -> Vec<(Vec<Item>, Vec<Item>)> {
    veterans
        .iter()
        .zip(survived)
        .filter(|(_, s)| **s == Some(false))
        .map(|(r, _)| {
            let cargo = r
                .inventory
                .iter()
                .filter(|i| !i.is_shield())
                .cloned()
                .collect();
            (shatter(r), cargo)
        })
        .collect()
}

//! The four instructions and their codec.
//!
//! `encode` gives `(tag, args)`: `Nilify t` is `(0, t)`, and the others are
//! `(1, (a, b, c))`, `(2, ...)`, `(3, ...)` with the 3-tuple nested as
//! `(a, (b, c))`. Decoding reads the tag as an `Int` (so non-canonical ints
//! are accepted) and fails on any other tag.
//!
//! Decoding is the machine's hottest path, so each instruction node remembers
//! its decoded value in its memo word (see [`Tree::memo`]): a loop decodes
//! each of its instructions once, however many times it runs.

use crate::encoding::{Decode, Encode};
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// An instruction of the constree language. Operands are register indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Instruction {
    /// `Nilify tgt`: set register `tgt` to Nil.
    Nilify(i64),
    /// `Construct fnt bck tgt`: `tgt := Cons fnt bck`.
    Construct(i64, i64, i64),
    /// `Deconstruct src fnt bck`: `fnt := front src`, then `bck := back src`.
    Deconstruct(i64, i64, i64),
    /// `CopyIfNil tst src tgt`: if `tst` is Nil then `tgt := src`.
    CopyIfNil(i64, i64, i64),
}

impl Encode for Instruction {
    fn encode(&self) -> Tree {
        match *self {
            Instruction::Nilify(t) => (0i64, t).encode(),
            Instruction::Construct(a, b, c) => (1i64, (a, b, c)).encode(),
            Instruction::Deconstruct(a, b, c) => (2i64, (a, b, c)).encode(),
            Instruction::CopyIfNil(a, b, c) => (3i64, (a, b, c)).encode(),
        }
    }
}

impl Decode for Instruction {
    #[inline]
    fn decode(tree: &Tree) -> Option<Self> {
        let memo = tree.memo()?;
        match Memo::read(memo.get()) {
            Memo::Unknown => {
                let decoded = decode_uncached(tree);
                memo.set(Memo::write(decoded));
                decoded
            }
            Memo::Invalid => None,
            Memo::Valid(instruction) => Some(instruction),
        }
    }
}

/// What [`Instruction::decode`] memoised in an instruction node, when
/// every operand names a register of a memory of `registers` registers:
/// its tag (0 `Nilify`, 1 `Construct`, 2 `Deconstruct`, 3 `CopyIfNil`) and
/// its operands (`Nilify` has one, the others 0). `None` when nothing
/// valid is memoised (not decoded yet, invalid, or an operand of
/// [`MAX_OPERAND`] or more) or an operand names no register. One
/// comparison decides, on the largest operand the word keeps.
#[inline(always)]
pub(super) fn memoised(head: &Tree, registers: usize) -> Option<(u64, [usize; 3])> {
    memoised_word(head.memo()?.get(), registers)
}

/// [`memoised`] of a memo word as it is stored (in a tree's node or in the
/// machine's arena).
#[inline(always)]
pub(super) fn memoised_word(word: u64, registers: usize) -> Option<(u64, [usize; 3])> {
    // One more than the largest operand, 0 unless the word is valid: a word
    // that is not wraps to above any length.
    if (word >> LARGEST_SHIFT).wrapping_sub(1) >= registers as u64 {
        return None;
    }
    let operand = |k: u32| ((word >> (4 + k * OPERAND_BITS)) & OPERAND_MASK) as usize;
    Some(((word >> 2) & 3, [operand(0), operand(1), operand(2)]))
}

fn decode_uncached(tree: &Tree) -> Option<Instruction> {
    let (tag, args) = tree.split()?;
    let operands = || <(i64, i64, i64)>::decode(args);
    match i64::decode(tag)? {
        0 => i64::decode(args).map(Instruction::Nilify),
        1 => operands().map(|(a, b, c)| Instruction::Construct(a, b, c)),
        2 => operands().map(|(a, b, c)| Instruction::Deconstruct(a, b, c)),
        3 => operands().map(|(a, b, c)| Instruction::CopyIfNil(a, b, c)),
        _ => None,
    }
}

/// The decode result as stored in a node's memo word.
///
/// Layout: bits 0-1 state (0 unknown, 1 invalid, 2 valid), bits 2-3 the
/// instruction tag, then three unsigned 16-bit operands, and in bits 52 to
/// 63 one more than the largest operand (0 in a word that is not valid).
/// Instructions with a negative operand or one of [`MAX_OPERAND`] or more
/// stay "unknown" and are decoded every time.
enum Memo {
    Unknown,
    Invalid,
    Valid(Instruction),
}

const OPERAND_BITS: u32 = 16;
const OPERAND_MASK: u64 = (1 << OPERAND_BITS) - 1;
/// Where the memo word keeps one more than its largest operand.
const LARGEST_SHIFT: u32 = 52;
/// Operands below this are memoised (their largest plus one fits the
/// word's top 12 bits).
pub(super) const MAX_OPERAND: i64 = (1 << (64 - LARGEST_SHIFT)) - 1;

impl Memo {
    #[inline(always)]
    fn read(word: u64) -> Memo {
        match word & 3 {
            1 => Memo::Invalid,
            2 => {
                let a = ((word >> 4) & OPERAND_MASK) as i64;
                let b = ((word >> (4 + OPERAND_BITS)) & OPERAND_MASK) as i64;
                let c = ((word >> (4 + 2 * OPERAND_BITS)) & OPERAND_MASK) as i64;
                Memo::Valid(match (word >> 2) & 3 {
                    0 => Instruction::Nilify(a),
                    1 => Instruction::Construct(a, b, c),
                    2 => Instruction::Deconstruct(a, b, c),
                    _ => Instruction::CopyIfNil(a, b, c),
                })
            }
            _ => Memo::Unknown,
        }
    }

    fn write(decoded: Option<Instruction>) -> u64 {
        let Some(instruction) = decoded else {
            return 1;
        };
        let (tag, operands) = match instruction {
            Instruction::Nilify(a) => (0, [a, 0, 0]),
            Instruction::Construct(a, b, c) => (1, [a, b, c]),
            Instruction::Deconstruct(a, b, c) => (2, [a, b, c]),
            Instruction::CopyIfNil(a, b, c) => (3, [a, b, c]),
        };
        if operands.iter().any(|&x| !(0..MAX_OPERAND).contains(&x)) {
            return 0;
        }
        let largest = operands.iter().max().map_or(0, |&x| x as u64);
        operands.iter().enumerate().fold(
            2 | (tag << 2) | ((largest + 1) << LARGEST_SHIFT),
            |word, (k, &x)| word | ((x as u64) << (4 + k as u32 * OPERAND_BITS)),
        )
    }
}

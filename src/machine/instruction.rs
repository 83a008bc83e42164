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

/// A memoised instruction whose operands all name registers of the memory
/// it runs in: what [`memoised`] reads in a memo word.
#[derive(Clone, Copy)]
pub(super) struct Code {
    /// Its tag (0 `Nilify`, 1 `Construct`, 2 `Deconstruct`, 3 `CopyIfNil`),
    /// plus 4 when it may write register 0 (the program): `Nilify`'s first
    /// operand, `Construct`'s or `CopyIfNil`'s third, or `Deconstruct`'s
    /// second or third is 0.
    pub(super) kind: u64,
    /// The operands (`Nilify` has one, the others 0).
    pub(super) operands: [usize; 3],
}

/// What [`Instruction::decode`] memoised in a memo word (as it is stored in
/// a tree's node or in the machine's arena), when every operand names a
/// register of a memory of `registers` registers. `None` when nothing
/// valid is memoised (not decoded yet, invalid, or an operand of
/// [`MAX_OPERAND`] or more), or an operand names no register. One
/// comparison decides, on the largest operand the word keeps.
#[inline(always)]
pub(super) fn memoised(word: u64, registers: usize) -> Option<Code> {
    // One more than the largest operand, 0 unless the word is valid: a word
    // that is not wraps to above any length.
    if (word >> LARGEST_SHIFT).wrapping_sub(1) >= registers as u64 {
        return None;
    }
    Some(Code {
        kind: (word >> TAG_SHIFT) & 7,
        operands: [0, 1, 2].map(|k| operand(word, k) as usize),
    })
}

/// [`memoised`]'s tag and operands.
#[inline(always)]
pub(super) fn memoised_word(word: u64, registers: usize) -> Option<(u64, [usize; 3])> {
    memoised(word, registers).map(|code| (code.kind & 3, code.operands))
}

/// The `k`-th operand field of a memo word.
#[inline(always)]
fn operand(word: u64, k: u32) -> u64 {
    (word >> (k * OPERAND_BITS)) & OPERAND_MASK
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
/// Layout: three unsigned 16-bit operands in bits 0-15, 16-31 and 32-47
/// (each a half-word of its own, so that reading one is one instruction),
/// the instruction tag in bits 48-49, in bit 50 whether the instruction
/// may write register 0 (see [`Code::kind`]), and in bits 52 to
/// 63 one more than the largest operand. A word that is not valid has 0
/// there: 0 is unknown, and [`INVALID`] (bit 51 alone) invalid.
/// Instructions with a negative operand or one of [`MAX_OPERAND`] or more
/// stay "unknown" and are decoded every time.
enum Memo {
    Unknown,
    Invalid,
    Valid(Instruction),
}

const OPERAND_BITS: u32 = 16;
const OPERAND_MASK: u64 = (1 << OPERAND_BITS) - 1;
/// Where the memo word keeps the instruction's tag.
const TAG_SHIFT: u32 = 3 * OPERAND_BITS;
/// The memo word's bit for an instruction that may write register 0.
const WRITES_PROGRAM: u64 = 1 << (TAG_SHIFT + 2);
/// The memo word of an instruction that does not decode.
const INVALID: u64 = 1 << (TAG_SHIFT + 3);
/// Where the memo word keeps one more than its largest operand.
const LARGEST_SHIFT: u32 = TAG_SHIFT + 4;
/// Operands below this are memoised (their largest plus one fits the
/// word's top 12 bits).
pub(super) const MAX_OPERAND: i64 = (1 << (64 - LARGEST_SHIFT)) - 1;

impl Memo {
    #[inline(always)]
    fn read(word: u64) -> Memo {
        if word >> LARGEST_SHIFT == 0 {
            return if word == INVALID {
                Memo::Invalid
            } else {
                Memo::Unknown
            };
        }
        let [a, b, c] = [0, 1, 2].map(|k| operand(word, k) as i64);
        Memo::Valid(match (word >> TAG_SHIFT) & 3 {
            0 => Instruction::Nilify(a),
            1 => Instruction::Construct(a, b, c),
            2 => Instruction::Deconstruct(a, b, c),
            _ => Instruction::CopyIfNil(a, b, c),
        })
    }

    fn write(decoded: Option<Instruction>) -> u64 {
        let Some(instruction) = decoded else {
            return INVALID;
        };
        let (tag, operands, writes_program) = match instruction {
            Instruction::Nilify(a) => (0, [a, 0, 0], a == 0),
            Instruction::Construct(a, b, c) => (1, [a, b, c], c == 0),
            Instruction::Deconstruct(a, b, c) => (2, [a, b, c], b == 0 || c == 0),
            Instruction::CopyIfNil(a, b, c) => (3, [a, b, c], c == 0),
        };
        if operands.iter().any(|&x| !(0..MAX_OPERAND).contains(&x)) {
            return 0;
        }
        let largest = operands.iter().max().map_or(0, |&x| x as u64);
        let flags = if writes_program { WRITES_PROGRAM } else { 0 };
        operands.iter().enumerate().fold(
            (tag << TAG_SHIFT) | flags | ((largest + 1) << LARGEST_SHIFT),
            |word, (k, &x)| word | ((x as u64) << (k as u32 * OPERAND_BITS)),
        )
    }
}

//! Text forms of trees.
//!
//! * The **preorder bit string** of the conformance vectors: `1` for `Cons`
//!   followed by its front and back, `0` for `Nil`. `Cons Nil Nil` is `100`.
//! * A **readable form** for people, which reads every tree as a list:
//!   `[]` is `Nil`, `[a, b]` is `Cons a (Cons b Nil)`, and `[a, b | t]` ends
//!   in the tree `t` instead of `Nil`. So `Cons Nil Nil` is `[[]]`.
//!
//! Printing and parsing use explicit stacks, never recursion.

use super::Tree;
use std::fmt;

/// Why a text could not be read as a tree, and where (a byte offset).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at offset {offset}")]
pub struct ParseTreeError {
    /// Byte offset in the text where reading failed.
    pub offset: usize,
    /// What was wrong there.
    pub message: String,
}

impl ParseTreeError {
    fn new(offset: usize, message: impl Into<String>) -> Self {
        ParseTreeError {
            offset,
            message: message.into(),
        }
    }
}

/// Builds a tree from its preorder description, one event at a time.
#[derive(Default)]
struct PreorderBuilder {
    /// Conses under construction: `None` until their front is complete.
    open: Vec<Option<Tree>>,
    done: Option<Tree>,
}

impl PreorderBuilder {
    fn open_cons(&mut self) {
        self.open.push(None);
    }

    /// A complete subtree arrived; close every cons it completes.
    fn complete(&mut self, mut tree: Tree) {
        loop {
            match self.open.last_mut() {
                None => {
                    self.done = Some(tree);
                    return;
                }
                Some(slot @ None) => {
                    *slot = Some(tree);
                    return;
                }
                Some(Some(_)) => {
                    let front = self.open.pop().flatten().unwrap_or_default();
                    tree = Tree::cons(front, tree);
                }
            }
        }
    }
}

impl Tree {
    /// Reads the preorder bit string (`1` = Cons, `0` = Nil).
    pub fn from_bits(text: &str) -> Result<Tree, ParseTreeError> {
        if is_complete_preorder(text.as_bytes()) {
            return Ok(build_preorder(text.as_bytes()));
        }
        // Not a tree: read it the slow way, which says where and why.
        let mut builder = PreorderBuilder::default();
        for (offset, byte) in text.bytes().enumerate() {
            if builder.done.is_some() {
                return Err(ParseTreeError::new(
                    offset,
                    "text continues after a complete tree",
                ));
            }
            match byte {
                b'1' => builder.open_cons(),
                b'0' => builder.complete(Tree::NIL),
                _ => {
                    return Err(ParseTreeError::new(
                        offset,
                        format!("expected '0' or '1', found {:?}", char_at(text, offset)),
                    ));
                }
            }
        }
        builder.done.ok_or_else(|| {
            ParseTreeError::new(
                text.len(),
                format!(
                    "tree ends early: {} conses still need children",
                    builder.open.len()
                ),
            )
        })
    }

    /// The first `max` characters of the preorder bit string (all of it
    /// when shorter): bounded work whatever the tree's logical size.
    pub fn bits_prefix(&self, max: usize) -> String {
        bits_prefix(self, max)
    }

    /// The preorder bit string as a new `String`.
    pub fn to_bits(&self) -> String {
        let length = self.size().saturating_mul(2).saturating_add(1);
        let mut out: Vec<u8> = Vec::with_capacity(length.min(1 << 24) as usize);
        self.write_bits(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends the preorder bit string (`1` = Cons, `0` = Nil) to `out`,
    /// with an explicit stack of backs still to write.
    pub fn write_bits(&self, out: &mut Vec<u8>) {
        let mut stack: Vec<&Tree> = Vec::new();
        let mut next = Some(self);
        while let Some(mut t) = next {
            // Down the front spine, leaving the backs for later.
            while let Some((front, back)) = t.split() {
                out.push(b'1');
                stack.push(back);
                t = front;
            }
            out.push(b'0');
            next = stack.pop();
        }
    }

    /// Reads the readable form (`[]`, `[a, b]`, `[a | t]`; spaces are free).
    pub fn from_readable(text: &str) -> Result<Tree, ParseTreeError> {
        ReadableParser::new(text).parse()
    }

    /// A value that displays the readable form of this tree.
    pub fn readable(&self) -> ReadableTree<'_> {
        ReadableTree {
            tree: self,
            max_chars: None,
        }
    }
}

/// Whether the bytes are exactly one tree's preorder bit string: only `0`
/// and `1`, and the last byte completes the tree.
fn is_complete_preorder(bytes: &[u8]) -> bool {
    // Subtrees still to read: one to begin with; a `1` opens two in place of
    // one, a `0` closes one.
    let mut wanted: usize = 1;
    for &byte in bytes {
        match (byte, wanted) {
            (_, 0) => return false,
            (b'1', _) => wanted += 1,
            (b'0', _) => wanted -= 1,
            _ => return false,
        }
    }
    wanted == 0
}

/// Builds the tree of a complete preorder bit string, reading it backwards:
/// a `0` pushes Nil, a `1` conses the two subtrees on top (its front, then
/// its back). No recursion; the stack holds at most one tree per byte.
fn build_preorder(bytes: &[u8]) -> Tree {
    let mut stack: Vec<Tree> = Vec::new();
    for &byte in bytes.iter().rev() {
        if byte == b'0' {
            stack.push(Tree::NIL);
        } else {
            let front = stack.pop().unwrap_or_default();
            let back = stack.pop().unwrap_or_default();
            stack.push(Tree::cons(front, back));
        }
    }
    stack.pop().unwrap_or_default()
}

/// At most `max` characters of the preorder bit string.
fn bits_prefix(tree: &Tree, max: usize) -> String {
    let mut out = String::new();
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        if out.len() >= max {
            break;
        }
        match t.split() {
            None => out.push('0'),
            Some((front, back)) => {
                out.push('1');
                stack.push(back);
                stack.push(front);
            }
        }
    }
    out
}

fn char_at(text: &str, offset: usize) -> char {
    text.get(offset..)
        .and_then(|s| s.chars().next())
        .unwrap_or('\u{FFFD}')
}

/// Displays a tree in the readable list form, optionally cut short with `…`.
pub struct ReadableTree<'a> {
    tree: &'a Tree,
    max_chars: Option<usize>,
}

impl ReadableTree<'_> {
    /// Stop after about `max` characters and end with `…`.
    pub fn limit(mut self, max: usize) -> Self {
        self.max_chars = Some(max);
        self
    }
}

/// A list being shown: the part of its spine not yet printed.
struct ShownList<'a> {
    rest: &'a Tree,
    first: bool,
}

impl fmt::Display for ReadableTree<'_> {
    /// Every tree reads as a proper list here (its spine ends in `Nil`), so
    /// printing needs only `[`, `,` and `]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let budget = self.max_chars.unwrap_or(usize::MAX);
        let mut written = 0usize;
        let mut emit = |f: &mut fmt::Formatter<'_>, s: &str| -> Result<bool, fmt::Error> {
            if written >= budget {
                f.write_str("…")?;
                return Ok(false);
            }
            written += s.len();
            f.write_str(s)?;
            Ok(true)
        };
        let mut stack: Vec<ShownList<'_>> = Vec::new();
        let mut next: Option<&Tree> = Some(self.tree);
        loop {
            if let Some(t) = next.take() {
                let opening = if t.is_nil() { "[]" } else { "[" };
                if !emit(f, opening)? {
                    return Ok(());
                }
                if t.is_cons() {
                    stack.push(ShownList {
                        rest: t,
                        first: true,
                    });
                }
            }
            let Some(ShownList { rest, first }) = stack.pop() else {
                return Ok(());
            };
            let piece = match rest.split() {
                None => "]",
                Some((head, tail)) => {
                    stack.push(ShownList {
                        rest: tail,
                        first: false,
                    });
                    next = Some(head);
                    if first { "" } else { ", " }
                }
            };
            if !emit(f, piece)? {
                return Ok(());
            }
        }
    }
}

/// A small hand-written parser for the readable form, with an explicit stack.
struct ReadableParser<'a> {
    text: &'a str,
    pos: usize,
}

/// A list being read: its elements so far, waiting for `,`, `|` or `]`.
struct OpenList {
    elements: Vec<Tree>,
    tail: Option<Tree>,
    after_bar: bool,
}

impl<'a> ReadableParser<'a> {
    fn new(text: &'a str) -> Self {
        ReadableParser { text, pos: 0 }
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.text[self.pos..].chars().next() {
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.as_bytes().get(self.pos).copied()
    }

    fn error(&self, message: impl Into<String>) -> ParseTreeError {
        ParseTreeError::new(self.pos, message)
    }

    fn parse(mut self) -> Result<Tree, ParseTreeError> {
        let mut open: Vec<OpenList> = Vec::new();
        loop {
            // Expect the start of a tree.
            match self.peek() {
                Some(b'[') => {
                    self.pos += 1;
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                    } else {
                        open.push(OpenList {
                            elements: Vec::new(),
                            tail: None,
                            after_bar: false,
                        });
                        continue;
                    }
                }
                Some(_) => {
                    return Err(self.error(format!(
                        "expected '[', found {:?}",
                        char_at(self.text, self.pos)
                    )));
                }
                None => return Err(self.error("expected '[', found the end of the text")),
            }
            // A complete tree was read: hand it to its enclosing list(s).
            let mut done = Tree::NIL;
            loop {
                let Some(list) = open.last_mut() else {
                    return match self.peek() {
                        None => Ok(done),
                        Some(_) => Err(self.error("text continues after a complete tree")),
                    };
                };
                if list.after_bar {
                    list.tail = Some(done);
                    list.after_bar = false;
                } else {
                    list.elements.push(done);
                }
                match self.peek() {
                    Some(b',') if list.tail.is_none() => {
                        self.pos += 1;
                        break;
                    }
                    Some(b'|') if list.tail.is_none() => {
                        self.pos += 1;
                        list.after_bar = true;
                        break;
                    }
                    Some(b']') => {
                        self.pos += 1;
                        let list = open.pop().expect("checked above");
                        let tail = list.tail.unwrap_or_default();
                        done = list
                            .elements
                            .into_iter()
                            .rev()
                            .fold(tail, |t, h| Tree::cons(h, t));
                    }
                    _ if list.tail.is_some() => {
                        return Err(self.error("expected ']' after the tail of a list"));
                    }
                    _ => return Err(self.error("expected ',', '|' or ']'")),
                }
            }
        }
    }
}

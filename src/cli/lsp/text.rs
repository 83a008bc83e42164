//! Text as the protocol addresses it: positions are a 0-based line and a
//! column counted in UTF-16 code units; documents are named by `file:`
//! URIs. The assembler counts bytes and names files by path.

use lsp_types::{Position, Range};
use std::path::{Component, Path, PathBuf};

/// Byte offsets of the start of each line of a text.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// The lines of a text (a line ends at `\n`; a `\r` before it stays in
    /// the line, as the protocol's columns never reach it).
    pub fn new(text: &'a str) -> Lines<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts }
    }

    /// The position of a byte offset (past the end: the end; inside a
    /// character: that character's start).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, column as u32)
    }

    /// The range of a byte span.
    pub fn range(&self, span: std::ops::Range<usize>) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a position: a column past its line's end is the
    /// line's end, a line past the text's end is the text's end (as the
    /// protocol asks).
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

impl Lines<'_> {
    /// The line (0-based) of a byte offset, without counting columns.
    pub fn line(&self, offset: usize) -> u32 {
        (self.starts.partition_point(|&s| s <= offset) - 1) as u32
    }
}

/// Positions of byte offsets of a text asked for in increasing order, each
/// counted on from the last: a walk over the text costs its length once,
/// however long its lines (an offset before the last one starts again from
/// the top).
pub struct Cursor<'a> {
    text: &'a str,
    offset: usize,
    position: Position,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text,
            offset: 0,
            position: Position::new(0, 0),
        }
    }

    /// The position of a byte offset (past the end: the end; inside a
    /// character: that character's start).
    pub fn position(&mut self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.offset {
            *self = Cursor::new(self.text);
        }
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.position.line += 1;
                self.position.character = 0;
            } else {
                self.position.character += c.len_utf16() as u32;
            }
        }
        self.offset = offset;
        self.position
    }
}

/// Applies one change of `textDocument/didChange` to a text: a range and
/// its new text, or (without a range) the whole new text.
pub fn apply_change(text: &mut String, range: Option<Range>, new_text: &str) {
    match range {
        None => *text = new_text.to_string(),
        Some(range) => {
            let lines = Lines::new(text);
            let start = lines.offset(range.start);
            let end = lines.offset(range.end).max(start);
            text.replace_range(start..end, new_text);
        }
    }
}

/// The path a `file:` URI names (percent escapes decoded, `.` and `..`
/// taken away), or `None` for another scheme or a path that is not UTF-8.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only the local host (an empty one) is ours.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let mut bytes = Vec::with_capacity(path.len());
    let mut iter = path.bytes();
    while let Some(b) = iter.next() {
        if b == b'%' {
            let hex = [iter.next()?, iter.next()?];
            let hex = std::str::from_utf8(&hex).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
        } else {
            bytes.push(b);
        }
    }
    Some(normalize(Path::new(&String::from_utf8(bytes).ok()?)))
}

/// The `file:` URI of an absolute path: every byte outside the unreserved
/// characters and `/` percent-escaped.
pub fn path_to_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// A path with its `.` components dropped and each `..` taking away the
/// component before it, without asking the disk (so that a file is one
/// key however an `include` reaches it).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is 2 bytes and 1 unit; `𝄞` is 4 bytes and 2 units.
        let text = "ab\né𝄞x\n";
        let lines = Lines::new(text);
        assert_eq!(lines.position(5), Position::new(1, 1));
        assert_eq!(lines.position(9), Position::new(1, 3));
        assert_eq!(lines.position(4), Position::new(1, 0), "inside `é`");
        assert_eq!(lines.position(7), Position::new(1, 1), "inside `𝄞`");
        assert_eq!(lines.position(99), Position::new(2, 0));
        assert_eq!(lines.offset(Position::new(1, 3)), 9);
        assert_eq!(lines.offset(Position::new(1, 40)), 10);
        assert_eq!(lines.offset(Position::new(7, 0)), text.len());
    }

    #[test]
    fn a_cursor_agrees_with_the_lines() {
        let text = "ab\né𝄞x\n\nlast";
        let lines = Lines::new(text);
        let mut cursor = Cursor::new(text);
        for offset in (0..text.len() + 3).chain([4, 0, 9]) {
            assert_eq!(cursor.position(offset), lines.position(offset), "{offset}");
        }
        assert_eq!(lines.line(9), 1);
        assert_eq!(lines.line(text.len()), 3);
    }

    #[test]
    fn changes_replace_their_range() {
        let mut text = String::from("one\ntwo\nthree\n");
        apply_change(
            &mut text,
            Some(Range::new(Position::new(1, 0), Position::new(2, 2))),
            "TW",
        );
        assert_eq!(text, "one\nTWree\n");
        apply_change(&mut text, None, "all new");
        assert_eq!(text, "all new");
    }

    #[test]
    fn uris_and_paths_round_trip() {
        let path = Path::new("/tmp/a b/é%.cta");
        let uri = path_to_uri(path);
        assert_eq!(uri, "file:///tmp/a%20b/%C3%A9%25.cta");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        assert_eq!(
            uri_to_path("file:///tmp/x/../y/./z.cta").as_deref(),
            Some(Path::new("/tmp/y/z.cta"))
        );
        assert_eq!(uri_to_path("untitled:Untitled-1"), None);
        assert_eq!(uri_to_path("file:///bad%zz"), None);
    }
}

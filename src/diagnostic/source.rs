//! Source files and spans: what a diagnostic points into.

use std::path::PathBuf;

/// Index of a file in [`Sources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span in a file.
    pub fn new(file: FileId, range: std::ops::Range<usize>) -> Span {
        Span {
            file,
            start: range.start as u32,
            end: range.end as u32,
        }
    }

    /// The byte range.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The smallest span covering both (same file).
    pub fn join(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in messages (a path, or `std/NAME.cta`).
    pub name: String,
    /// Where it was found on disk, if it was (stdlib modules are embedded).
    pub path: Option<PathBuf>,
    /// The text.
    pub text: String,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// A file from its name, optional disk path and text.
    pub fn new(name: String, path: Option<PathBuf>, text: String) -> SourceFile {
        let line_starts = line_starts(&text);
        SourceFile {
            name,
            path,
            text,
            line_starts,
        }
    }

    /// How many lines the text has (one more than its newlines).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.line_col_near(offset, 0).0
    }

    /// [`line_col`](Self::line_col), given a 0-based line `near` at or
    /// before the offset's, as when offsets are met in order: a few lines
    /// after it are tried before searching them all. Gives the offset's
    /// 0-based line too, the `near` of the next call.
    pub fn line_col_near(&self, offset: usize, near: usize) -> ((usize, usize), usize) {
        let starts = &self.line_starts;
        let line = (near..starts.len().min(near.saturating_add(4)))
            .find(|&l| starts[l] <= offset && starts.get(l + 1).is_none_or(|&next| offset < next))
            .unwrap_or_else(|| starts.partition_point(|&s| s <= offset).max(1) - 1);
        let start = starts[line];
        let column = self
            .text
            .get(start..offset.min(self.text.len()))
            .map_or(0, |s| s.chars().count());
        ((line + 1, column + 1), line)
    }

    /// The span of the character at a 1-based line and column, the column
    /// counted in bytes as serde_json counts it (0 is the line's start);
    /// a place past the text is the text's end.
    pub fn char_at(&self, line: usize, column: usize) -> std::ops::Range<usize> {
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .map_or(self.text.len(), |s| s + column.saturating_sub(1))
            .min(self.text.len());
        let start = (0..=start)
            .rev()
            .find(|&i| self.text.is_char_boundary(i))
            .unwrap_or(0);
        let end = self.text[start..]
            .chars()
            .next()
            .map_or(start, |c| start + c.len_utf8());
        start..end
    }

    /// The text of a 1-based line, without its newline.
    pub fn line(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e - 1);
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r')
    }
}

/// Where each line of a text starts: 0, and the byte after every newline.
///
/// Eight bytes are tested at a time for a newline (a 100,000-line file is
/// read once for it, at about one instruction a byte; `match_indices` took
/// seven, docs/performance.md, "Issue 20, sixth round: check").
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    let mut chunks = text.as_bytes().chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut marks = newline_marks(chunk.try_into().unwrap_or_default());
        while marks != 0 {
            starts.push(at + marks.trailing_zeros() as usize / 8 + 1);
            marks &= marks - 1;
        }
        at += 8;
    }
    let found = chunks
        .remainder()
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n');
    starts.extend(found.map(|(k, _)| at + k + 1));
    starts
}

/// The newlines among eight bytes, found at once: the high bit of byte `k`
/// of the result (read little-endian) is set exactly when `bytes[k]` is
/// `\n`. Without carries between bytes, so no byte is marked falsely.
pub(crate) fn newline_marks(bytes: [u8; 8]) -> u64 {
    const LOW: u64 = u64::from_le_bytes([0x7f; 8]);
    let x = u64::from_le_bytes(bytes) ^ u64::from_le_bytes([b'\n'; 8]);
    // A byte of `x` is zero exactly at a newline: adding 0x7f to its low
    // seven bits reaches the high bit for every other byte.
    !(((x & LOW) + LOW) | x | LOW)
}

/// Texts for tests of newline scanners: one of every length below
/// `lengths`, of pieces picked by a simple generator, so that newlines fall
/// at every offset in and across the words of eight bytes, in runs, beside
/// bytes one off a newline and inside characters of several bytes.
#[cfg(test)]
pub(crate) fn texts_with_newlines(lengths: usize) -> impl Iterator<Item = String> {
    let pieces = [
        "a", "\n", "\n\n", "é", "\r\n", "\u{b}", "\u{8a}", "\u{10a}", "; x",
    ];
    let mut seed = 7u64;
    (0..lengths).map(move |length| {
        let mut text = String::new();
        while text.len() < length {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
        }
        text
    })
}

/// Every file an assembly read, by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// The text of a file, to lend it out while the file is expanded (it
    /// must be given back unchanged: its line starts are kept).
    pub(crate) fn text_mut(&mut self, id: FileId) -> &mut String {
        &mut self.files[id.0 as usize].text
    }

    /// All files in the order they were read.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// Appends every file of `other`, and gives how far their ids moved
    /// (for [`super::Diagnostic::shift_files`]).
    pub fn append(&mut self, other: Sources) -> u32 {
        let offset = self.files.len() as u32;
        self.files.extend(other.files);
        offset
    }

    /// `file:line:column` of the start of a span.
    pub fn location(&self, span: Span) -> String {
        let file = self.get(span.file);
        let (line, col) = file.line_col(span.start as usize);
        format!("{}:{line}:{col}", file.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where lines start, found one character at a time.
    fn plain_line_starts(text: &str) -> Vec<usize> {
        std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect()
    }

    #[test]
    fn line_starts_are_those_of_a_plain_scan() {
        for text in texts_with_newlines(300) {
            assert_eq!(line_starts(&text), plain_line_starts(&text), "{text:?}");
        }
        for length in 0..300 {
            let all_newlines = "\n".repeat(length);
            assert_eq!(line_starts(&all_newlines), plain_line_starts(&all_newlines));
        }
    }

    #[test]
    fn newline_marks_mark_exactly_the_newlines() {
        // Every byte value at every place, beside newlines and beside
        // bytes one off them (where a carry would mark falsely).
        for place in 0..8 {
            for value in 0..=255u8 {
                for fill in [0u8, b'\n', b'\n' + 1, b'\n' - 1, 0x80, 0xff] {
                    let mut bytes = [fill; 8];
                    bytes[place] = value;
                    let plain = (0..8)
                        .filter(|&k| bytes[k] == b'\n')
                        .fold(0u64, |marks, k| marks | 0x80 << (8 * k));
                    assert_eq!(newline_marks(bytes), plain, "{bytes:?}");
                }
            }
        }
    }
}

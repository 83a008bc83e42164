//! Writing an image's JSON form ([`super::format`]) straight from the
//! image: the bytes serde_json gives for the format's fields, in their
//! order, written as they are made, without first building a document of
//! copied names and locations.
//!
//! Strings are escaped as serde_json escapes them ([`escape_pieces`]),
//! numbers are written in decimal as serde_json writes them, optional
//! fields are left out when
//! absent, and each embedded image goes through a [`serde_json::Value`]
//! (so its keys come out sorted): the bytes of the serde_json serializer
//! this replaced, which the images of `examples/` and `tests/images/`
//! were compared against.
//!
//! The text is made in one buffer of about [`FLUSH_AT`] bytes, handed to
//! the output whenever it is fuller than that (after a list's element or a
//! string), so that writing costs no call per piece and the whole text is
//! never held.

use super::{Image, Location, Segment};
use crate::tree::NodeTable;
use std::io::{self, Write};

/// Writes the JSON text of an image and its final line break. The sources
/// are packed on a second thread while the rest is written
/// ([`super::beside::beside`]).
pub(super) fn write(image: &Image, out: &mut impl Write) -> io::Result<()> {
    let texts = image.texts();
    let (packed, j) = super::beside::beside(
        image.text_bytes(),
        || texts.as_deref().map(super::sources::pack),
        || write_up_to_sources(image, out),
    );
    let mut j = j?;
    if let Some(packed) = packed {
        j.raw(",\"sources\":")?;
        j.str(&packed)?;
    }
    if !image.images.is_empty() {
        j.list("images", &image.images, |j, i| {
            let value: serde_json::Value =
                serde_json::from_str(&super::format::to_json(i)).unwrap_or_default();
            serde_json::to_writer(&mut j.buf, &value).map_err(io::Error::from)
        })?;
    }
    j.raw("}\n")?;
    j.out.write_all(&j.buf)
}

/// The fields of an image's JSON text before its sources, in a writer
/// that has not written the last of its buffer yet.
fn write_up_to_sources<'w, W: Write>(image: &Image, out: &'w mut W) -> io::Result<Json<'w, W>> {
    let mut table = NodeTable::with_capacity(image.node_hint());
    let contents: Vec<u64> = image
        .registers
        .iter()
        .map(|r| table.id(&r.contents))
        .collect();
    let mut j = Json {
        out,
        buf: Vec::with_capacity(FLUSH_AT + FLUSH_AT / 4),
    };
    j.raw("{\"format\":")?;
    j.str(super::format::FORMAT)?;
    j.raw(",\"version\":")?;
    j.uint(super::format::VERSION.into())?;
    j.raw(",\"compiler\":")?;
    j.str(&image.compiler)?;
    j.raw(",\"sources_hash\":")?;
    j.str(&image.sources_hash)?;
    j.list("files", &image.files, |j, f| {
        j.raw("{\"name\":")?;
        j.str(&f.name)?;
        j.raw(",\"hash\":")?;
        j.str(&f.hash)?;
        j.raw("}")
    })?;
    j.list("nodes", table.pairs(), |j, &(front, back)| {
        j.raw("[")?;
        j.uint(front.into())?;
        j.raw(",")?;
        j.uint(back.into())?;
        j.raw("]")
    })?;
    drop(table);
    j.list(
        "registers",
        image.registers.iter().zip(contents),
        |j, (r, id)| {
            j.raw("{\"name\":")?;
            j.str(&r.name)?;
            j.raw(",\"limit\":")?;
            j.int(r.limit)?;
            j.raw(",\"contents\":")?;
            j.uint(id)?;
            j.raw("}")
        },
    )?;
    j.list("labels", &image.labels, |j, l| {
        j.raw("{\"name\":")?;
        j.str(&l.name)?;
        j.raw(",\"register\":")?;
        j.uint(l.register as u64)?;
        j.raw(",\"offset\":")?;
        j.uint(l.offset as u64)?;
        j.raw("}")
    })?;
    if let Some(c) = image.callstack {
        j.raw(",\"callstack\":{\"stack\":")?;
        j.uint(c.stack as u64)?;
        j.raw(",\"link\":")?;
        j.uint(c.link as u64)?;
        j.raw("}")?;
    }
    let map = &image.source_map;
    j.list("locations", &map.locations, Json::location)?;
    j.list("segments", &map.segments, Json::segment)?;
    j.list("source_map", &map.registers, |j, m| {
        j.raw("{\"register\":")?;
        j.uint(m.register as u64)?;
        j.raw(",\"segment\":")?;
        j.uint(m.segment.into())?;
        j.raw("}")
    })?;
    Ok(j)
}

/// How full [`Json`]'s buffer gets before it is written out.
const FLUSH_AT: usize = 1 << 16;

/// The two decimal digits of each number below 100 as a little-endian
/// `u16` (the tens' digit first in memory).
const PAIRS: [u16; 100] = {
    let mut pairs = [0u16; 100];
    let mut n = 0;
    while n < 100 {
        pairs[n] = (b'0' + (n / 10) as u8) as u16 | (((b'0' + (n % 10) as u8) as u16) << 8);
        n += 1;
    }
    pairs
};

/// Appends a string's JSON text, quoted and escaped as serde_json
/// escapes it (see [`escape_pieces`]).
fn quoted(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    escape_pieces(text, |piece| out.extend_from_slice(piece));
    out.push(b'"');
}

/// A string's JSON text without its quotes, in the pieces serde_json
/// writes it in (each run of characters written as they are, then each
/// escape), so that a writer that buffers them gets the same writes:
/// `"` and `\` are written after a backslash, the control characters
/// below U+0020 as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx` (lowercase
/// hex), every other character as it is.
pub(super) fn escape_pieces(text: &str, mut piece: impl FnMut(&[u8])) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    let mut plain = 0;
    let mut k = 0;
    while k < bytes.len() {
        if let Some(word) = bytes.get(k..k + 8) {
            match to_escape(u64::from_le_bytes(word.try_into().unwrap_or_default())) {
                0 => {
                    k += 8;
                    continue;
                }
                // The lowest byte marked is one to escape.
                marks => k += marks.trailing_zeros() as usize / 8,
            }
        }
        let b = bytes[k];
        let unicode;
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\t' => b"\\t",
            b'\r' => b"\\r",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..0x20 => {
                unicode = [
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ];
                &unicode
            }
            _ => {
                k += 1;
                continue;
            }
        };
        if plain < k {
            piece(&bytes[plain..k]);
        }
        piece(escape);
        k += 1;
        plain = k;
    }
    if plain < bytes.len() {
        piece(&bytes[plain..]);
    }
}

/// The bytes of `word` (little-endian) escaped in JSON, below 0x20, `"`
/// or `\`, each marked by its high bit: the classic test for a byte below
/// a bound, or equal to one, in every byte at once. 0 when there is none;
/// else the lowest byte marked is one of them (a borrow may mark bytes
/// above it that are not).
fn to_escape(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & HIGH;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    below(word, 0x20) | below(quote, 1) | below(backslash, 1)
}

/// A JSON writer of the image's parts: the text goes into `buf`, which
/// goes to `out` when it is fuller than [`FLUSH_AT`] (see [`Json::list`])
/// and at the end.
struct Json<'w, W: Write> {
    out: &'w mut W,
    buf: Vec<u8>,
}

impl<W: Write> Json<'_, W> {
    fn raw(&mut self, text: &str) -> io::Result<()> {
        self.buf.extend_from_slice(text.as_bytes());
        Ok(())
    }

    /// A string, escaped as serde_json escapes it.
    fn str(&mut self, text: &str) -> io::Result<()> {
        quoted(&mut self.buf, text);
        self.flush_if_full()
    }

    /// Hands the buffer to the output if it is fuller than [`FLUSH_AT`].
    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// A number in decimal: below 100 (files, columns, most lists' first
    /// elements) at once, else in runs of at most 8 digits.
    #[inline]
    fn uint(&mut self, n: u64) -> io::Result<()> {
        if n < 10 {
            self.buf.push(b'0' + n as u8);
        } else if n < 100 {
            self.buf.extend_from_slice(&PAIRS[n as usize].to_le_bytes());
        } else {
            self.long_uint(n);
        }
        Ok(())
    }

    /// [`Json::uint`] of a number from 100.
    fn long_uint(&mut self, n: u64) {
        const E8: u64 = 100_000_000;
        let width = |n: u64| n.checked_ilog10().map_or(1, |l| l as usize + 1);
        if n < E8 {
            self.digits(n, width(n));
        } else if n < E8 * E8 {
            self.digits(n / E8, width(n / E8));
            self.digits(n % E8, 8);
        } else {
            self.digits(n / (E8 * E8), width(n / (E8 * E8)));
            self.digits(n / E8 % E8, 8);
            self.digits(n % E8, 8);
        }
    }

    /// The last `len` (at most 8) decimal digits of `n`: made in a
    /// register, two at a time from the right (digits written to memory one
    /// by one and read back at once stall the load), appended as 8 bytes
    /// and cut back to `len`.
    fn digits(&mut self, mut n: u64, len: usize) {
        debug_assert!(len <= 8);
        let mut word = 0u64;
        for _ in 0..len / 2 {
            word = (word << 16) | u64::from(PAIRS[(n % 100) as usize]);
            n /= 100;
        }
        if len % 2 == 1 {
            word = (word << 8) | (u64::from(b'0') + n % 10);
        }
        let end = self.buf.len() + len;
        self.buf.extend_from_slice(&word.to_le_bytes());
        self.buf.truncate(end);
    }

    fn int(&mut self, n: i64) -> io::Result<()> {
        if n < 0 {
            self.raw("-")?;
        }
        self.uint(n.unsigned_abs())
    }

    /// `,"key":[...]`, each element written by `element`.
    fn list<T>(
        &mut self,
        key: &str,
        elements: impl IntoIterator<Item = T>,
        mut element: impl FnMut(&mut Self, T) -> io::Result<()>,
    ) -> io::Result<()> {
        self.raw(",\"")?;
        self.raw(key)?;
        self.raw("\":[")?;
        for (k, e) in elements.into_iter().enumerate() {
            if k > 0 {
                self.raw(",")?;
            }
            element(self, e)?;
            self.flush_if_full()?;
        }
        self.raw("]")
    }

    fn location(&mut self, l: &Location) -> io::Result<()> {
        self.raw("{\"file\":")?;
        self.uint(l.file.into())?;
        self.raw(",\"line\":")?;
        self.uint(l.line.into())?;
        self.raw(",\"column\":")?;
        self.uint(l.column.into())?;
        if !l.expansion.is_empty() {
            self.list("expansion", l.expansion.iter(), |j, e| {
                j.raw("{\"macro\":")?;
                j.str(&e.macro_name)?;
                j.raw(",\"file\":")?;
                j.uint(e.file.into())?;
                j.raw(",\"line\":")?;
                j.uint(e.line.into())?;
                j.raw(",\"column\":")?;
                j.uint(e.column.into())?;
                j.raw("}")
            })?;
        }
        self.raw("}")
    }

    fn segment(&mut self, s: &Segment) -> io::Result<()> {
        self.raw("{")?;
        // `list` writes a leading comma: the first key is written by hand.
        self.raw("\"locations\":[")?;
        for (k, &l) in s.locations.iter().enumerate() {
            if k > 0 {
                self.raw(",")?;
            }
            self.uint(l.into())?;
        }
        self.raw("]")?;
        if let Some(next) = s.next {
            self.raw(",\"next\":")?;
            self.uint(next.into())?;
        }
        self.raw("}")
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::{from_json, to_json};
    use super::super::{
        CallStack, ExpansionSite, FileRecord, Image, ImageRegister, LabelSymbol, Location,
        RegisterMap, Segment, SourceMap,
    };
    use crate::tree::Tree;

    /// An image with every optional field, names to escape and a
    /// negative limit.
    fn image(files: Vec<FileRecord>, images: Vec<Image>) -> Image {
        let code = Tree::cons(Tree::unit(), Tree::cons(Tree::unit(), Tree::NIL));
        Image {
            registers: vec![
                ImageRegister {
                    name: "prog".into(),
                    limit: 4,
                    contents: code,
                },
                ImageRegister {
                    name: "q\"\\\n\u{1}ü".into(),
                    limit: -1,
                    contents: Tree::NIL,
                },
            ],
            labels: vec![LabelSymbol {
                name: "main".into(),
                register: 0,
                offset: 1,
            }],
            callstack: Some(CallStack { stack: 1, link: 0 }),
            source_map: SourceMap {
                locations: vec![
                    Location {
                        file: 0,
                        line: 1,
                        column: 2,
                        expansion: [ExpansionSite {
                            macro_name: "m".into(),
                            file: 0,
                            line: 3,
                            column: 4,
                        }]
                        .into(),
                    },
                    Location {
                        file: 0,
                        line: 5,
                        column: 6,
                        expansion: [].into(),
                    },
                ],
                segments: vec![
                    Segment {
                        locations: vec![0],
                        next: Some(1),
                    },
                    Segment {
                        locations: vec![1],
                        next: None,
                    },
                ],
                registers: vec![RegisterMap {
                    register: 0,
                    segment: 0,
                }],
            },
            files,
            compiler: "constree 0.1.0".into(),
            sources_hash: "ab".into(),
            images,
        }
    }

    #[test]
    fn strings_and_numbers_are_serde_jsons() {
        let mut texts: Vec<String> = (0..=0x7f_u8).map(|b| char::from(b).to_string()).collect();
        // Escapes at every place in and across words of 8 bytes.
        for shift in 0..17 {
            texts.push(format!(
                "{}\nü{}\u{1f}\"{}\\",
                "x".repeat(shift),
                "y".repeat(9),
                "z".repeat(shift)
            ));
        }
        texts.push((0..=0x7f_u8).map(char::from).collect());
        texts.push("plain, ünïcode \u{7f}\u{80}\u{2028}\u{10ffff} and a \"quote\"\n".into());
        texts.push(String::new());
        for text in &texts {
            let mut out = Vec::new();
            super::quoted(&mut out, text);
            assert_eq!(out, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
        let mut numbers = vec![0, u64::MAX, i64::MAX as u64];
        for digits in 1..20 {
            let p = 10u64.pow(digits);
            numbers.extend([p - 1, p, p + 1, p / 3, p + p / 7]);
        }
        for n in numbers {
            let mut buf = Vec::new();
            let mut j = super::Json {
                out: &mut Vec::new(),
                buf: Vec::new(),
            };
            j.uint(n).unwrap();
            let negative = -((n % i64::MAX as u64) as i64);
            j.int(negative).unwrap();
            buf.extend_from_slice(&j.buf);
            let expected = format!("{n}{negative}");
            assert_eq!(String::from_utf8(buf).unwrap(), expected);
        }
    }

    #[test]
    fn the_fields_in_order_and_every_image_reads_back() {
        let child = image(
            vec![FileRecord {
                name: "child.cta".into(),
                hash: super::super::sources::hash("halt\n"),
                text: Some("halt\n".into()),
            }],
            Vec::new(),
        );
        let parent = image(
            vec![FileRecord {
                name: "a.cta".into(),
                hash: "00".into(),
                text: None,
            }],
            vec![child],
        );
        let text = to_json(&parent);
        assert!(text.starts_with(
            "{\"format\":\"constree-image\",\"version\":2,\"compiler\":\"constree 0.1.0\",\
             \"sources_hash\":\"ab\",\"files\":[{\"name\":\"a.cta\",\"hash\":\"00\"}],\
             \"nodes\":[[0,0],[1,0],[1,2]],\"registers\":[{\"name\":\"prog\",\"limit\":4,\
             \"contents\":3},{\"name\":\"q\\\"\\\\\\n\\u0001ü\",\"limit\":-1,\"contents\":0}],\
             \"labels\":[{\"name\":\"main\",\"register\":0,\"offset\":1}],\
             \"callstack\":{\"stack\":1,\"link\":0},\"locations\":[{\"file\":0,\"line\":1,\
             \"column\":2,\"expansion\":[{\"macro\":\"m\",\"file\":0,\"line\":3,\"column\":4}]},\
             {\"file\":0,\"line\":5,\"column\":6}],\"segments\":[{\"locations\":[0],\"next\":1},\
             {\"locations\":[1]}],\"source_map\":[{\"register\":0,\"segment\":0}],\
             \"images\":[{\"callstack\":"
        ));
        assert!(text.ends_with("}]}\n"));
        assert_eq!(from_json(&text).expect("reads"), parent);
    }
}

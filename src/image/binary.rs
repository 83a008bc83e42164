//! The binary `.ctm` form: the same image as the JSON form (every field,
//! the source texts included), in fewer bytes and read and written faster.
//!
//! A file starts with the 8 bytes [`MAGIC`], which no JSON text starts
//! with, so [`super::format::load`] tells the two forms apart by them. Then
//! come, as unsigned LEB128 numbers (`int`; a register's limit zigzag-coded
//! first, so that negatives stay short), strings (`str`: the byte length,
//! then UTF-8) and lists (`list`: the count, then the elements):
//!
//! ```text
//! file     = MAGIC version:int nodes:list(node) images:list(image)
//! node     = front:int back:int
//! image    = compiler:str sources_hash:str files:list(name:str hash:str)
//!            texts:(0 | 1 sources) registers:list(name:str limit:int contents:int)
//!            labels:list(name:str register:int offset:int)
//!            callstack:(0 | 1 stack:int link:int)
//!            locations:list(location) segments:list(locations:list(int) next:int)
//!            source_map:list(register:int segment:int) children:list(int)
//! location = file:int line:int column:int expansion:list(macro:str file:int line:int column:int)
//! sources  = length:int, then that many bytes: raw DEFLATE (RFC 1951) of one str per file
//! ```
//!
//! **Trees.** One node table serves every image of the file: node `k`
//! (1-based) is a pair of ids, each written as 0 for Nil or as `k` minus
//! the id (so nearby nodes take one byte), and must refer to nodes before
//! it; a register's `contents` is a node id. Equal subtrees are written
//! once, however often they occur, and reading builds each node once from
//! the ones before it: no recursion, whatever the trees' depth or sharing.
//!
//! **Embedded images.** Image 0 is the file's image; an image's `children`
//! are the indices of the images it embeds, each after it, each image but
//! the first the child of exactly one: the nesting is read without
//! recursion. A segment's `next` is 0 for none, else the segment's index
//! plus 1.
//!
//! **Reading hostile bytes.** Every count is checked against the bytes
//! left before anything is allocated, the node table against
//! [`MAX_IMAGE_NODES`](crate::limits::MAX_IMAGE_NODES), every index
//! against what it indexes, every text against its file's hash; bytes
//! after the last image are an error, and so are sources of more than
//! [`MAX_INPUT`](crate::limits::MAX_INPUT) bytes once decompressed. Errors
//! give the byte offset where the reading stopped (for an error inside the
//! sources, where they start) and why.

use super::format::{ImageError, index_below};
use super::{
    CallStack, ExpansionSite, FileRecord, Image, ImageRegister, LabelSymbol, Location, RegisterMap,
    Segment, SourceMap,
};
use crate::tree::{NodeTable, Tree};
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use std::io::{Read, Write};

/// The first bytes of a binary image: not UTF-8 (so never JSON), with a
/// line break and an end-of-file character that show a file mangled as
/// text.
pub const MAGIC: &[u8; 8] = b"\x89CTM\r\n\x1a\n";

/// The version of the binary form written and read.
const VERSION: u64 = 1;

/// Whether bytes are a binary image (they start with [`MAGIC`]).
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The binary form of an image. The sources are compressed on a second
/// thread while the trees are numbered ([`super::beside::beside`]).
pub fn to_binary(image: &Image) -> Vec<u8> {
    // Breadth first: an image's children get the next free indices.
    let mut order: Vec<&Image> = vec![image];
    let mut k = 0;
    while k < order.len() {
        order.extend(order[k].images.iter());
        k += 1;
    }
    let texts: Vec<Option<Vec<&str>>> = order.iter().map(|i| i.texts()).collect();
    let bytes = order.iter().map(|i| i.text_bytes()).sum();
    let (packed, (contents, table)) = super::beside::beside(
        bytes,
        || {
            texts
                .iter()
                .map(|t| t.as_deref().map(pack))
                .collect::<Vec<_>>()
        },
        || {
            let hint = order.iter().map(|i| i.node_hint()).sum();
            let mut table = NodeTable::with_capacity(hint);
            let contents: Vec<Vec<u64>> = order
                .iter()
                .map(|i| i.registers.iter().map(|r| table.id(&r.contents)).collect())
                .collect();
            (contents, table)
        },
    );
    let nodes = table.pairs();
    let room = order
        .iter()
        .zip(&packed)
        .map(|(image, packed)| room(image, packed.as_deref()))
        .sum::<usize>();
    let mut w = Writer(Vec::with_capacity(64 + nodes.len() * 8 + room));
    w.0.extend_from_slice(MAGIC);
    w.int(VERSION);
    w.int(nodes.len() as u64);
    for (k, &(front, back)) in nodes.iter().enumerate() {
        let id = k as u64 + 1;
        for child in [front, back] {
            w.int(if child == 0 { 0 } else { id - u64::from(child) });
        }
    }
    drop(table);
    w.int(order.len() as u64);
    let mut next_child = 1;
    for ((image, contents), packed) in order.iter().zip(&contents).zip(&packed) {
        w.image(image, contents, packed.as_deref());
        w.int(image.images.len() as u64);
        for _ in &image.images {
            w.int(next_child);
            next_child += 1;
        }
    }
    w.0
}

/// At least about as many bytes as an image's part of the binary form
/// takes, but for the nodes (room for its buffer, so that it does not grow
/// by copying; room not filled is not touched): a number is rarely more
/// than 4 bytes, a name more than 16.
fn room(image: &Image, packed: Option<&[u8]>) -> usize {
    let map = &image.source_map;
    let instructions: usize = map.segments.iter().map(|s| s.locations.len() + 2).sum();
    let sites: usize = map.locations.iter().map(|l| l.expansion.len()).sum();
    256 + packed.map_or(0, <[u8]>::len)
        + 100 * image.files.len()
        + 24 * (image.registers.len() + image.labels.len() + sites)
        + 16 * map.locations.len()
        + 4 * instructions
        + 8 * map.registers.len()
}

/// The raw DEFLATE of the texts, each a `str` of the binary form: written
/// to the compressor as they are, without first copying them together.
fn pack(texts: &[&str]) -> Vec<u8> {
    let mut deflate = DeflateEncoder::new(Vec::new(), Compression::fast());
    for text in texts {
        let mut length = Writer(Vec::with_capacity(10));
        length.int(text.len() as u64);
        // Writing to a Vec cannot fail.
        let _ = deflate.write_all(&length.0);
        let _ = deflate.write_all(text.as_bytes());
    }
    deflate.finish().unwrap_or_default()
}

/// Builds the bytes of a binary image.
struct Writer(Vec<u8>);

impl Writer {
    fn int(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn str(&mut self, s: &str) {
        self.int(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    /// An image without its children, its registers' contents given as
    /// ids and its texts as [`pack`] gives them (`None` when it has none).
    fn image(&mut self, image: &Image, contents: &[u64], packed: Option<&[u8]>) {
        self.str(&image.compiler);
        self.str(&image.sources_hash);
        self.int(image.files.len() as u64);
        for f in &image.files {
            self.str(&f.name);
            self.str(&f.hash);
        }
        match packed {
            Some(packed) => {
                self.int(1);
                self.int(packed.len() as u64);
                self.0.extend_from_slice(packed);
            }
            None => self.int(0),
        }
        self.int(image.registers.len() as u64);
        for (r, &id) in image.registers.iter().zip(contents) {
            self.str(&r.name);
            self.int(zigzag(r.limit));
            self.int(id);
        }
        self.int(image.labels.len() as u64);
        for l in &image.labels {
            self.str(&l.name);
            self.int(l.register as u64);
            self.int(l.offset as u64);
        }
        match image.callstack {
            Some(c) => {
                self.int(1);
                self.int(c.stack as u64);
                self.int(c.link as u64);
            }
            None => self.int(0),
        }
        let map = &image.source_map;
        self.int(map.locations.len() as u64);
        for l in &map.locations {
            self.int(l.file.into());
            self.int(l.line.into());
            self.int(l.column.into());
            self.int(l.expansion.len() as u64);
            for e in l.expansion.iter() {
                self.str(&e.macro_name);
                self.int(e.file.into());
                self.int(e.line.into());
                self.int(e.column.into());
            }
        }
        self.int(map.segments.len() as u64);
        for s in &map.segments {
            self.int(s.locations.len() as u64);
            s.locations.iter().for_each(|&l| self.int(l.into()));
            self.int(s.next.map_or(0, |n| u64::from(n) + 1));
        }
        self.int(map.registers.len() as u64);
        for m in &map.registers {
            self.int(m.register as u64);
            self.int(m.segment.into());
        }
    }
}

fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

fn unzigzag(n: u64) -> i64 {
    (n >> 1) as i64 ^ -((n & 1) as i64)
}

/// Reads an image from its binary form, checking that it holds together.
pub fn from_binary(bytes: &[u8]) -> Result<Image, ImageError> {
    if !is_binary(bytes) {
        return Err(ImageError::Corrupt(
            "not a binary image: it does not start with the binary form's magic bytes".into(),
        ));
    }
    let mut r = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let version = r.int("the version")?;
    if version != VERSION {
        return Err(ImageError::Unsupported(format!(
            "binary image format version {version} is not supported (this constree reads version {VERSION})"
        )));
    }
    let trees = r.nodes()?;
    let count = r.count("the list of images", 1)?;
    let mut images: Vec<Option<Image>> = Vec::with_capacity(count);
    let mut children: Vec<Vec<usize>> = Vec::with_capacity(count);
    let mut adopted = vec![false; count];
    for index in 0..count {
        images.push(Some(r.image(&trees)?));
        let n = r.count("the list of embedded images", 1)?;
        let mut mine = Vec::with_capacity(n);
        for _ in 0..n {
            let at = r.at;
            let child = r.int("an embedded image")?;
            match usize::try_from(child) {
                Ok(c) if c > index && c < count && !adopted[c] => {
                    adopted[c] = true;
                    mine.push(c);
                }
                _ => {
                    return Err(r.corrupt_at(
                        at,
                        format!(
                            "image {index} embeds image {child}, which is not an image after it that no other embeds"
                        ),
                    ));
                }
            }
        }
        children.push(mine);
    }
    if r.at != bytes.len() {
        return Err(r.corrupt("bytes follow the last image".into()));
    }
    if let Some(k) = (1..count).find(|&k| !adopted[k]) {
        return Err(ImageError::Corrupt(format!(
            "image {k} is embedded by no image"
        )));
    }
    // Children come after their parent: the last images are complete first.
    for index in (0..count).rev() {
        let embedded = children[index]
            .iter()
            .map(|&c| {
                images[c]
                    .take()
                    .expect("each image is taken once, by its parent")
            })
            .collect();
        if let Some(image) = images[index].as_mut() {
            image.images = embedded;
        }
    }
    images
        .first_mut()
        .and_then(Option::take)
        .ok_or_else(|| ImageError::Corrupt("the file holds no image".into()))
}

/// A corrupt image's error with the offset where it was found.
fn at_byte(error: ImageError, at: usize) -> ImageError {
    match error {
        ImageError::Corrupt(why) => ImageError::Corrupt(format!("byte {at}: {why}")),
        other => other,
    }
}

/// The reason of an error, without the kind's prefix.
fn reason(error: ImageError) -> String {
    match error {
        ImageError::Corrupt(why) => why,
        other => other.to_string(),
    }
}

/// Reads a binary image, keeping the offset for errors.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn corrupt_at(&self, at: usize, why: String) -> ImageError {
        at_byte(ImageError::Corrupt(why), at)
    }

    fn corrupt(&self, why: String) -> ImageError {
        self.corrupt_at(self.at, why)
    }

    /// An unsigned LEB128 number of at most 64 bits.
    fn int(&mut self, what: &str) -> Result<u64, ImageError> {
        let start = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&byte) = self.bytes.get(self.at) else {
                return Err(self.corrupt_at(start, format!("the file ends inside {what}")));
            };
            self.at += 1;
            let bits = u64::from(byte & 0x7f);
            if shift == 63 && bits > 1 {
                break;
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.corrupt_at(start, format!("{what} is a number of more than 64 bits")))
    }

    /// A number that must fit 32 bits.
    fn int32(&mut self, what: &str) -> Result<u32, ImageError> {
        let at = self.at;
        let n = self.int(what)?;
        u32::try_from(n).map_err(|_| self.corrupt_at(at, format!("{what} is {n}, over 2^32")))
    }

    /// An index (register, offset).
    fn index(&mut self, what: &str) -> Result<usize, ImageError> {
        let at = self.at;
        let n = self.int(what)?;
        usize::try_from(n).map_err(|_| self.corrupt_at(at, format!("{what} is {n}, too large")))
    }

    /// The length of a list whose elements take at least `each` bytes: no
    /// more than the bytes left can hold.
    fn count(&mut self, what: &str, each: usize) -> Result<usize, ImageError> {
        let at = self.at;
        let n = self.int(what)?;
        let left = self.bytes.len() - self.at;
        match usize::try_from(n) {
            Ok(n) if n <= left / each => Ok(n),
            _ => Err(self.corrupt_at(
                at,
                format!("{what} claims {n} elements, but only {left} bytes are left"),
            )),
        }
    }

    fn flag(&mut self, what: &str) -> Result<bool, ImageError> {
        let at = self.at;
        match self.int(what)? {
            0 => Ok(false),
            1 => Ok(true),
            n => Err(self.corrupt_at(at, format!("{what} is {n}, not 0 or 1"))),
        }
    }

    fn str(&mut self, what: &str) -> Result<String, ImageError> {
        let n = self.count(what, 1)?;
        let at = self.at;
        let bytes = &self.bytes[at..at + n];
        self.at += n;
        std::str::from_utf8(bytes)
            .map(str::to_string)
            .map_err(|e| self.corrupt_at(at + e.valid_up_to(), format!("{what} is not UTF-8 text")))
    }

    /// The node table, as trees by id (0 is Nil).
    fn nodes(&mut self) -> Result<Vec<Tree>, ImageError> {
        let at = self.at;
        let count = self.count("the node table", 2)?;
        let cap = crate::limits::MAX_IMAGE_NODES.get();
        if count as u64 > cap {
            return Err(self.corrupt_at(
                at,
                format!(
                    "the node table has {count} nodes, more than {cap} (CONSTREE_MAX_IMAGE_NODES=N raises the limit)"
                ),
            ));
        }
        let mut trees = Vec::with_capacity(count + 1);
        trees.push(Tree::NIL);
        for k in 1..=count as u64 {
            let mut halves = [Tree::NIL, Tree::NIL];
            for half in &mut halves {
                let at = self.at;
                let delta = self.int("the node table")?;
                if delta >= k {
                    return Err(self.corrupt_at(
                        at,
                        format!("node {k} refers to a node that is not before it"),
                    ));
                }
                if delta != 0 {
                    *half = trees[(k - delta) as usize].clone();
                }
            }
            let [front, back] = halves;
            trees.push(Tree::cons(front, back));
        }
        Ok(trees)
    }

    /// An image without its children.
    fn image(&mut self, trees: &[Tree]) -> Result<Image, ImageError> {
        let compiler = self.str("the compiler")?;
        let sources_hash = self.str("the sources' hash")?;
        let count = self.count("the list of files", 2)?;
        let mut files = Vec::with_capacity(count);
        for _ in 0..count {
            let name = self.str("a file's name")?;
            let hash = self.str("a file's hash")?;
            files.push(FileRecord {
                name,
                hash,
                text: None,
            });
        }
        if self.flag("whether the image carries its sources")? {
            self.texts(&mut files)?;
        }
        let count = self.count("the list of registers", 3)?;
        let mut registers = Vec::with_capacity(count);
        for _ in 0..count {
            let name = self.str("a register's name")?;
            let limit = unzigzag(self.int("a register's limit")?);
            let at = self.at;
            let id = self.int("a register's contents")?;
            let contents = usize::try_from(id)
                .ok()
                .and_then(|id| trees.get(id))
                .cloned()
                .ok_or_else(|| {
                    self.corrupt_at(
                        at,
                        format!(
                            "register `{name}` refers to node {id}, but there are {} nodes",
                            trees.len() - 1
                        ),
                    )
                })?;
            registers.push(ImageRegister {
                name,
                limit,
                contents,
            });
        }
        let register_count = registers.len();
        let count = self.count("the list of labels", 3)?;
        let mut labels = Vec::with_capacity(count);
        for _ in 0..count {
            let name = self.str("a label's name")?;
            let register = self.register(register_count, &format!("label `{name}`"))?;
            let offset = self.index("a label's offset")?;
            labels.push(LabelSymbol {
                name,
                register,
                offset,
            });
        }
        let callstack = if self.flag("whether the image has a call stack")? {
            let stack = self.register(register_count, "the call stack")?;
            let link = self.register(register_count, "the call stack")?;
            Some(CallStack { stack, link })
        } else {
            None
        };
        let source_map = self.source_map(files.len() as u32, register_count)?;
        Ok(Image {
            registers,
            labels,
            callstack,
            source_map,
            files,
            compiler,
            sources_hash,
            images: Vec::new(),
        })
    }

    /// The texts of `files`, compressed, each checked against its hash.
    fn texts(&mut self, files: &mut [FileRecord]) -> Result<(), ImageError> {
        let start = self.at;
        let n = self.count("the sources", 1)?;
        let packed = &self.bytes[self.at..self.at + n];
        self.at += n;
        let cap = crate::limits::MAX_INPUT.get();
        let mut plain = Vec::new();
        DeflateDecoder::new(packed)
            .take(cap.saturating_add(1))
            .read_to_end(&mut plain)
            .map_err(|e| self.corrupt_at(start, format!("the sources do not decompress: {e}")))?;
        if plain.len() as u64 > cap {
            return Err(self.corrupt_at(
                start,
                format!(
                    "the sources are more than {cap} bytes once decompressed (CONSTREE_MAX_INPUT=BYTES raises the limit)"
                ),
            ));
        }
        let mut inner = Reader {
            bytes: &plain,
            at: 0,
        };
        for f in files.iter_mut() {
            let text = inner
                .str("a source text")
                .map_err(|e| self.corrupt_at(start, format!("in the sources, {}", reason(e))))?;
            if super::sources::hash(&text) != f.hash {
                return Err(self.corrupt_at(
                    start,
                    format!("the source text of {} does not match its hash", f.name),
                ));
            }
            f.text = Some(text);
        }
        if inner.at != plain.len() {
            return Err(self.corrupt_at(start, "the sources hold more texts than files".into()));
        }
        Ok(())
    }

    /// A register index below `count`; else the error that `who` names
    /// one the image does not have (see [`index_below`]).
    fn register(&mut self, count: usize, who: &str) -> Result<usize, ImageError> {
        let at = self.at;
        let n = self.index(who)?;
        index_below(n, count, who, "register").map_err(|e| at_byte(e, at))
    }

    /// An index below `count` of a `what` (file, location, segment).
    fn index32(&mut self, count: u32, who: &str, what: &str) -> Result<u32, ImageError> {
        let at = self.at;
        let n = self.int32(who)?;
        index_below(n, count, who, what).map_err(|e| at_byte(e, at))
    }

    fn location_part(&mut self, files: u32) -> Result<(u32, u32, u32), ImageError> {
        let file = self.index32(files, "a location", "file")?;
        Ok((file, self.int32("a line")?, self.int32("a column")?))
    }

    fn source_map(&mut self, files: u32, registers: usize) -> Result<SourceMap, ImageError> {
        let count = self.count("the list of locations", 4)?;
        let mut locations = Vec::with_capacity(count);
        for _ in 0..count {
            let (file, line, column) = self.location_part(files)?;
            let n = self.count("a location's expansion", 4)?;
            let mut expansion = Vec::with_capacity(n);
            for _ in 0..n {
                let macro_name = self.str("a macro's name")?;
                let (file, line, column) = self.location_part(files)?;
                expansion.push(ExpansionSite {
                    macro_name: macro_name.into(),
                    file,
                    line,
                    column,
                });
            }
            locations.push(Location {
                file,
                line,
                column,
                expansion: expansion.into(),
            });
        }
        let location_count = locations.len() as u32;
        let count = self.count("the list of segments", 2)?;
        let mut segments = Vec::with_capacity(count);
        // Each segment's `next` is checked once all are known.
        let mut nexts = Vec::with_capacity(count);
        for _ in 0..count {
            let n = self.count("a segment", 1)?;
            let mut ids = Vec::with_capacity(n);
            for _ in 0..n {
                ids.push(self.index32(location_count, "the source map", "location")?);
            }
            let at = self.at;
            let next = self.int32("a segment's next")?;
            nexts.push((at, next));
            segments.push(Segment {
                locations: ids,
                next: None,
            });
        }
        let segment_count = segments.len() as u32;
        for (segment, (at, next)) in segments.iter_mut().zip(nexts) {
            if next > 0 {
                segment.next = Some(
                    index_below(next - 1, segment_count, "the source map", "segment")
                        .map_err(|e| at_byte(e, at))?,
                );
            }
        }
        let count = self.count("the source map", 2)?;
        let mut maps = Vec::with_capacity(count);
        for _ in 0..count {
            let register = self.register(registers, "the source map")?;
            let segment = self.index32(segment_count, "the source map", "segment")?;
            maps.push(RegisterMap { register, segment });
        }
        Ok(SourceMap {
            locations,
            segments,
            registers: maps,
        })
    }
}

//! Writing an image's JSON form ([`super::format`]) straight from the
//! image: the bytes serde_json gives for the format's fields, in their
//! order, written as they are made, without first building a document of
//! copied names and locations.
//!
//! Strings go through serde_json (its escaping), numbers are written in
//! decimal as serde_json writes them, optional fields are left out when
//! absent, and each embedded image goes through a [`serde_json::Value`]
//! (so its keys come out sorted): the bytes of the serde_json serializer
//! this replaced, which the images of `examples/` and `tests/images/`
//! were compared against.

use super::{Image, Location, Segment};
use crate::tree::NodeTable;
use std::io::{self, Write};

/// Writes the JSON text of an image, without its final line break.
pub(super) fn write(image: &Image, out: &mut impl Write) -> io::Result<()> {
    let mut table = NodeTable::default();
    let contents: Vec<u64> = image
        .registers
        .iter()
        .map(|r| table.id(&r.contents))
        .collect();
    let nodes = table.into_nodes();
    let mut j = Json(out);
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
    j.list("nodes", &nodes, |j, &(front, back)| {
        j.raw("[")?;
        j.uint(front)?;
        j.raw(",")?;
        j.uint(back)?;
        j.raw("]")
    })?;
    drop(nodes);
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
    let texts: Option<Vec<&str>> = image.files.iter().map(|f| f.text.as_deref()).collect();
    if let Some(texts) = texts {
        j.raw(",\"sources\":")?;
        j.str(&super::sources::pack(&texts))?;
    }
    if !image.images.is_empty() {
        j.list("images", &image.images, |j, i| {
            let value: serde_json::Value =
                serde_json::from_str(&super::format::to_json(i)).unwrap_or_default();
            serde_json::to_writer(&mut *j.0, &value).map_err(io::Error::from)
        })?;
    }
    j.raw("}")
}

/// A JSON writer of the image's parts.
struct Json<'w, W: Write>(&'w mut W);

impl<W: Write> Json<'_, W> {
    fn raw(&mut self, text: &str) -> io::Result<()> {
        self.0.write_all(text.as_bytes())
    }

    /// A string, escaped as serde_json escapes it.
    fn str(&mut self, text: &str) -> io::Result<()> {
        serde_json::to_writer(&mut *self.0, text).map_err(io::Error::from)
    }

    /// A number in decimal.
    fn uint(&mut self, mut n: u64) -> io::Result<()> {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.0.write_all(&digits[at..])
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

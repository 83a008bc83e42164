//! The `.ctm` file format: JSON with a node table.
//!
//! ```json
//! {"format": "constree-image", "version": 1, "compiler": "constree 0.1.0",
//!  "sources_hash": "…", "files": [{"name": "bot.cta", "hash": "…"}],
//!  "nodes": [[0, 0], [1, 0], …],
//!  "registers": [{"name": "prog", "limit": 57, "contents": 12}, …],
//!  "labels": [{"name": "main", "register": 3, "offset": 0}],
//!  "callstack": {"stack": 4, "link": 5},
//!  "locations": [{"file": 0, "line": 3, "column": 5, "expansion": […]}],
//!  "segments": [{"locations": [0, 1, 2], "next": 1}, {"locations": [3]}],
//!  "source_map": [{"register": 0, "segment": 0}],
//!  "images": [{"format": "constree-image", …}]}
//! ```
//!
//! `images` (optional) holds the images of the programs the image embeds
//! with `image("file.cta")`, each a whole image object.
//!
//! A tree is a node id: 0 is Nil, and node `k` (1-based) is the pair
//! `nodes[k - 1]` of the ids of its front and back, both smaller than `k`.
//! Equal subtrees share one id, so the file grows with the distinct nodes,
//! not the logical size. The same image always gives the same bytes.

use super::{
    CallStack, ExpansionSite, FileRecord, Image, ImageRegister, LabelSymbol, Location, RegisterMap,
    Segment, SourceMap,
};
use crate::diagnostic::Code;
use crate::tree::trees_from_nodes;
use serde::Deserialize;
use std::path::Path;

pub(super) const FORMAT: &str = "constree-image";
pub(super) const VERSION: u32 = 2;

/// The oldest version read: version 1 images carry no sources.
const OLDEST: u32 = 1;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    // Required keys, whose values `check_format` reads first.
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u32,
    compiler: String,
    sources_hash: String,
    files: Vec<FileJson>,
    nodes: Vec<(u64, u64)>,
    registers: Vec<RegisterJson>,
    labels: Vec<LabelJson>,
    #[serde(default)]
    callstack: Option<CallStackJson>,
    locations: Vec<LocationJson>,
    segments: Vec<SegmentJson>,
    source_map: Vec<RegisterMapJson>,
    /// The files' texts (see [`super::sources`]); from version 2.
    #[serde(default)]
    sources: Option<String>,
    /// The images of the programs it embeds, each an image object as this
    /// one (optional: absent in older images and in images that embed
    /// none).
    #[serde(default)]
    images: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileJson {
    name: String,
    hash: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterJson {
    name: String,
    limit: i64,
    contents: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LabelJson {
    name: String,
    register: usize,
    offset: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CallStackJson {
    stack: usize,
    link: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LocationJson {
    file: u32,
    line: u32,
    column: u32,
    #[serde(default)]
    expansion: Vec<ExpansionJson>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpansionJson {
    #[serde(rename = "macro")]
    macro_name: String,
    file: u32,
    line: u32,
    column: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterMapJson {
    register: usize,
    segment: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SegmentJson {
    locations: Vec<u32>,
    #[serde(default)]
    next: Option<u32>,
}

/// Why an image could not be read or written: each kind is a diagnostic
/// of its own code (`E10..`, see [`ImageError::code`]).
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// The file could not be written.
    #[error("{path}: {reason}")]
    Write {
        /// The file, as shown.
        path: String,
        /// Why.
        reason: String,
    },
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] crate::files::ReadError),
    /// Neither UTF-8 text nor the binary form.
    #[error("not a constree image: not UTF-8 text (byte {byte} is not), nor a binary image")]
    NotText {
        /// The first byte that is not UTF-8.
        byte: usize,
    },
    /// Not valid JSON, or not an image's fields.
    #[error("not a constree image: {reason}")]
    Json {
        /// serde_json's words.
        reason: String,
        /// Its 1-based line and column.
        at: (usize, usize),
    },
    /// Valid JSON whose contents do not hold together: what does not.
    #[error("corrupt image: {0}")]
    Corrupt(String),
    /// Another kind of file, or an image of a version this constree does
    /// not read: which.
    #[error("{0}")]
    Unsupported(String),
    /// An error of one file, with its text when the error has a place in it.
    #[error("{name}: {error}")]
    File {
        /// The file, as shown.
        name: String,
        /// Its text, for a JSON error with a line and column.
        text: Option<String>,
        /// Why.
        error: Box<ImageError>,
    },
}

impl ImageError {
    /// The code of its kind.
    pub fn code(&self) -> Code {
        match self {
            ImageError::Write { .. } => Code::E1000,
            ImageError::Read(_) => Code::E1001,
            ImageError::NotText { .. } | ImageError::Json { .. } => Code::E1002,
            ImageError::Unsupported(_) => Code::E1003,
            ImageError::Corrupt(_) => Code::E1004,
            ImageError::File { error, .. } => error.code(),
        }
    }

    /// A serde_json error as a [`ImageError::Json`].
    fn json(error: &serde_json::Error) -> ImageError {
        ImageError::Json {
            reason: error.to_string(),
            at: (error.line(), error.column()),
        }
    }
}

crate::diagnostic::file_error!(ImageError);

/// A versioned JSON file of another kind, or of a version not read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// Its `"format"` names another kind of file.
    #[error("not a constree {what}: its format is {found:?}, expected {expected:?}")]
    Other {
        /// The kind expected (`replay`).
        what: String,
        /// The format it has.
        found: String,
        /// The format expected.
        expected: String,
    },
    /// Its `"version"` is outside the versions read.
    #[error(
        "{what} format version {found} is not supported (this constree reads versions {} to {})",
        .versions.start(),
        .versions.end()
    )]
    Version {
        /// The kind (`replay`).
        what: String,
        /// The version it has.
        found: u32,
        /// The versions read.
        versions: std::ops::RangeInclusive<u32>,
    },
}

/// Checks a versioned JSON file's `"format"` and `"version"` keys before
/// the rest of it is read, so that a file of another kind or version is
/// answered by saying so (`replay format version 2 is not supported`),
/// not by the fields it lacks. `what` names the kind (`replay`). A text
/// whose keys cannot be read passes: the full reading reports it.
pub fn check_format(
    text: &str,
    format: &str,
    versions: std::ops::RangeInclusive<u32>,
    what: &str,
) -> Result<(), FormatError> {
    #[derive(Deserialize)]
    struct Header {
        format: Option<String>,
        version: Option<u32>,
    }
    let Ok(header) = serde_json::from_str::<Header>(text) else {
        return Ok(());
    };
    match (header.format, header.version) {
        (Some(found), _) if found != format => Err(FormatError::Other {
            what: what.to_string(),
            found,
            expected: format.to_string(),
        }),
        (_, Some(found)) if !versions.contains(&found) => Err(FormatError::Version {
            what: what.to_string(),
            found,
            versions,
        }),
        _ => Ok(()),
    }
}

/// The JSON text of an image.
pub fn to_json(image: &Image) -> String {
    let mut text = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_json(image, &mut text);
    // The writer writes UTF-8 only.
    String::from_utf8(text).unwrap_or_default()
}

/// Writes the JSON text of an image ([`to_json`]'s bytes) to `out` as it is
/// made (see [`super::json_writer`]), without holding the whole text in
/// memory.
fn write_json(image: &Image, out: &mut impl std::io::Write) -> std::io::Result<()> {
    super::json_writer::write(image, out)
}

/// Reads an image from its JSON text, checking that it holds together.
pub fn from_json(text: &str) -> Result<Image, ImageError> {
    check_format(text, FORMAT, OLDEST..=VERSION, "image")
        .map_err(|e| ImageError::Unsupported(e.to_string()))?;
    let file: File = serde_json::from_str(text).map_err(|e| ImageError::json(&e))?;
    let trees = trees_from_nodes(&file.nodes).map_err(|e| ImageError::Corrupt(e.to_string()))?;
    let tree = |id: u64, what: &str| {
        trees.get(id as usize).cloned().ok_or_else(|| {
            ImageError::Corrupt(format!(
                "{what} refers to node {id}, but there are {} nodes",
                file.nodes.len()
            ))
        })
    };
    let registers = file
        .registers
        .iter()
        .map(|r| {
            Ok(ImageRegister {
                name: r.name.clone(),
                limit: r.limit,
                contents: tree(r.contents, &format!("register `{}`", r.name))?,
            })
        })
        .collect::<Result<Vec<_>, ImageError>>()?;
    let count = registers.len();
    let check_register = |r: usize, who: &str| index_below(r, count, who, "register");
    let labels = file
        .labels
        .iter()
        .map(|l| {
            Ok(LabelSymbol {
                name: l.name.clone(),
                register: check_register(l.register, &format!("label `{}`", l.name))?,
                offset: l.offset,
            })
        })
        .collect::<Result<Vec<_>, ImageError>>()?;
    let callstack = match &file.callstack {
        Some(c) => Some(CallStack {
            stack: check_register(c.stack, "the call stack")?,
            link: check_register(c.link, "the call stack")?,
        }),
        None => None,
    };
    let files = file.files.len() as u32;
    let check_file = |f: u32| index_below(f, files, "a location", "file");
    let locations = file
        .locations
        .iter()
        .map(|l| {
            Ok(Location {
                file: check_file(l.file)?,
                line: l.line,
                column: l.column,
                expansion: l
                    .expansion
                    .iter()
                    .map(|e| {
                        Ok(ExpansionSite {
                            macro_name: e.macro_name.as_str().into(),
                            file: check_file(e.file)?,
                            line: e.line,
                            column: e.column,
                        })
                    })
                    .collect::<Result<_, ImageError>>()?,
            })
        })
        .collect::<Result<Vec<_>, ImageError>>()?;
    let location_count = locations.len() as u32;
    let segment_count = file.segments.len() as u32;
    let check_segment = |s: u32| index_below(s, segment_count, "the source map", "segment");
    let segments = file
        .segments
        .iter()
        .map(|s| {
            for &l in &s.locations {
                index_below(l, location_count, "the source map", "location")?;
            }
            Ok(Segment {
                locations: s.locations.clone(),
                next: s.next.map(check_segment).transpose()?,
            })
        })
        .collect::<Result<Vec<_>, ImageError>>()?;
    let maps = file
        .source_map
        .iter()
        .map(|m| {
            Ok(RegisterMap {
                register: check_register(m.register, "the source map")?,
                segment: check_segment(m.segment)?,
            })
        })
        .collect::<Result<Vec<_>, ImageError>>()?;
    let texts = match &file.sources {
        None => vec![None; file.files.len()],
        Some(packed) => {
            let texts =
                super::sources::unpack(packed).map_err(|e| ImageError::Corrupt(e.to_string()))?;
            if texts.len() != file.files.len() {
                return Err(ImageError::Corrupt(format!(
                    "{} source texts for {} files",
                    texts.len(),
                    file.files.len()
                )));
            }
            for (text, f) in texts.iter().zip(&file.files) {
                if super::sources::hash(text) != f.hash {
                    return Err(ImageError::Corrupt(format!(
                        "the source text of {} does not match its hash",
                        f.name
                    )));
                }
            }
            texts.into_iter().map(Some).collect()
        }
    };
    Ok(Image {
        registers,
        labels,
        callstack,
        source_map: SourceMap {
            locations,
            segments,
            registers: maps,
        },
        files: file
            .files
            .into_iter()
            .zip(texts)
            .map(|(f, text)| FileRecord {
                name: f.name,
                hash: f.hash,
                text,
            })
            .collect(),
        compiler: file.compiler,
        sources_hash: file.sources_hash,
        images: file
            .images
            .iter()
            .map(|i| from_json(&i.to_string()))
            .collect::<Result<Vec<_>, ImageError>>()
            .map_err(|e| ImageError::Corrupt(format!("an embedded image: {e}")))?,
    })
}

/// `index` if it is below `count`; otherwise the error that `who` names a
/// `what` the image does not have.
pub(super) fn index_below<T: PartialOrd + std::fmt::Display>(
    index: T,
    count: T,
    who: &str,
    what: &str,
) -> Result<T, ImageError> {
    if index < count {
        Ok(index)
    } else {
        Err(ImageError::Corrupt(format!(
            "{who} names {what} {index}, but there are {count}"
        )))
    }
}

/// The two forms of a `.ctm` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// JSON with a node table (this module).
    Json,
    /// The binary form ([`super::binary`]).
    Binary,
}

/// The bytes of an image in a form.
pub fn to_bytes(image: &Image, form: Form) -> Vec<u8> {
    match form {
        Form::Json => to_json(image).into_bytes(),
        Form::Binary => super::binary::to_binary(image),
    }
}

/// Reads an image from the bytes of a `.ctm` file of either form, told
/// apart by the binary form's first bytes, and says which it was.
pub fn from_bytes(bytes: Vec<u8>) -> Result<(Image, Form), ImageError> {
    decode(bytes).map_err(|(error, _)| error)
}

/// [`from_bytes`], giving with a JSON error that has a place the text it
/// is in.
fn decode(bytes: Vec<u8>) -> Result<(Image, Form), (ImageError, Option<String>)> {
    if super::binary::is_binary(&bytes) {
        return Ok((
            super::binary::from_binary(&bytes).map_err(|e| (e, None))?,
            Form::Binary,
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let byte = e.utf8_error().valid_up_to();
        (ImageError::NotText { byte }, None)
    })?;
    match from_json(&text) {
        Ok(image) => Ok((image, Form::Json)),
        Err(e @ ImageError::Json { .. }) => Err((e, Some(text))),
        Err(e) => Err((e, None)),
    }
}

/// Reads an image file of either form (`-` is standard input).
pub fn load(path: &Path) -> Result<Image, ImageError> {
    load_form(path).map(|(image, _)| image)
}

/// [`load`], also saying which form the file has.
pub fn load_form(path: &Path) -> Result<(Image, Form), ImageError> {
    let bytes = crate::files::read_input(path)?;
    decode(bytes).map_err(|(error, text)| ImageError::File {
        name: crate::files::display(path),
        text,
        error: Box::new(error),
    })
}

/// Writes an image to a file as JSON, safely (see [`crate::files`]).
pub fn save(image: &Image, path: &Path) -> Result<(), ImageError> {
    save_as(image, path, Form::Json)
}

/// Writes an image to a file in a form, safely (see [`crate::files`]).
pub fn save_as(image: &Image, path: &Path, form: Form) -> Result<(), ImageError> {
    let written = match form {
        Form::Json => crate::files::write_output_with(path, |f| write_json(image, f)),
        Form::Binary => crate::files::write_output(path, &super::binary::to_binary(image)),
    };
    written.map_err(|e| ImageError::Write {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

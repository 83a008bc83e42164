//! The binary form of images (`src/image/binary.rs`, docs/formats.md):
//! every example image goes JSON -> binary -> JSON unchanged, random images
//! go round, hostile bytes give errors that say where, and JSON images
//! (version 1 and 2) still load.

mod cli_common;
// Only the tree strategy is used here.
#[allow(dead_code)]
mod strategies;

use constree::asm::assemble_file;
use constree::asm::source::DiskLoader;
use constree::image::binary::{MAGIC, from_binary, to_binary};
use constree::image::format::{Form, from_bytes, from_json, to_json};
use constree::image::sources::hash;
use constree::image::{
    CallStack, ExpansionSite, FileRecord, Image, ImageRegister, LabelSymbol, Location, RegisterMap,
    Segment, SourceMap,
};
use constree::tree::Tree;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const MANIFEST: &str = env!("CARGO_MANIFEST_DIR");

/// Every `.cta` file under a folder.
fn sources_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "cta") {
            out.push(path);
        }
    }
}

/// The images of every example program that assembles on its own (the
/// others are modules that programs `use`).
fn example_images() -> Vec<(PathBuf, Image)> {
    let mut files = Vec::new();
    sources_under(&Path::new(MANIFEST).join("examples"), &mut files);
    sources_under(&Path::new(MANIFEST).join("docs/tutorial"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let image = assemble_file(&DiskLoader::default(), &f).image?;
            Some((f, image))
        })
        .collect()
}

#[test]
fn every_example_image_goes_json_to_binary_to_json_unchanged() {
    let images = example_images();
    assert!(images.len() >= 20, "only {} example images", images.len());
    assert!(
        images.iter().any(|(_, i)| !i.images.is_empty()),
        "no example embeds an image"
    );
    for (file, image) in &images {
        let json = to_json(image);
        let from_json_text = from_json(&json).expect("the JSON form reads");
        let binary = to_binary(&from_json_text);
        assert!(binary.starts_with(MAGIC));
        let (back, form) = from_bytes(binary.clone()).expect("the binary form reads");
        assert_eq!(form, Form::Binary);
        assert_eq!(&back, image, "{}", file.display());
        assert_eq!(to_json(&back), json, "{}", file.display());
        assert_eq!(
            to_binary(&back),
            binary,
            "the same image gives the same bytes"
        );
        assert!(
            binary.len() < json.len(),
            "{}: binary {} bytes, JSON {}",
            file.display(),
            binary.len(),
            json.len()
        );
    }
}

#[test]
fn json_images_of_version_1_and_2_still_load() {
    let fixture = Path::new(MANIFEST).join("tests/images/calls-v2.ctm");
    let text = std::fs::read_to_string(&fixture).expect("the fixture");
    let (image, form) = from_bytes(text.clone().into_bytes()).expect("a version 2 image");
    assert_eq!(form, Form::Json);
    assert!(image.files.iter().all(|f| f.text.is_some()));
    let binary = to_binary(&image);
    let back = from_binary(&binary).expect("reads");
    assert_eq!(back, image);
    // The fixture's sources were compressed at another gzip level than
    // today's (docs/formats.md: any level is valid): the rest of the text
    // is written again byte for byte.
    assert_eq!(without_sources(&to_json(&back)), without_sources(&text));
    // Version 1: no `sources`.
    let mut value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    value["version"] = 1.into();
    value.as_object_mut().expect("an object").remove("sources");
    let (old, _) = from_bytes(value.to_string().into_bytes()).expect("a version 1 image");
    assert!(old.files.iter().all(|f| f.text.is_none()));
    assert_eq!(from_binary(&to_binary(&old)).expect("reads"), old);
}

/// An image's JSON text with the packed sources' string left out.
fn without_sources(text: &str) -> String {
    let key = "\"sources\":\"";
    let start = text.find(key).expect("sources") + key.len();
    let end = start + text[start..].find('"').expect("their end");
    format!("{}{}", &text[..start], &text[end..])
}

/// An image of one register holding `tree`.
fn image_of(tree: Tree) -> Image {
    Image {
        registers: vec![ImageRegister {
            name: "r".into(),
            limit: -1,
            contents: tree,
        }],
        labels: Vec::new(),
        callstack: None,
        source_map: SourceMap::default(),
        files: Vec::new(),
        compiler: "test".into(),
        sources_hash: String::new(),
        images: Vec::new(),
    }
}

#[test]
fn a_spine_of_a_hundred_thousand_and_doubling_sharing_go_round() {
    let mut deep = Tree::NIL;
    let mut doubling = Tree::NIL;
    for _ in 0..100_000 {
        deep = Tree::cons(deep, Tree::NIL);
        doubling = Tree::cons(doubling.clone(), doubling);
    }
    assert_eq!(doubling.size(), u64::MAX, "2^100000 conses saturate");
    for tree in [deep, doubling] {
        let image = image_of(tree);
        let bytes = to_binary(&image);
        // Two bytes per node (0 for Nil or 1 for the node before), and a
        // few for the rest.
        assert!(bytes.len() < 200_100, "{} bytes", bytes.len());
        assert_eq!(from_binary(&bytes).expect("reads"), image);
    }
}

/// A small image with every field: sources, labels, a call stack, macro
/// expansions, segments, an embedded image that embeds one.
fn rich_image() -> Image {
    let path = Path::new(MANIFEST).join("examples/builder.cta");
    let image = assemble_file(&DiskLoader::default(), &path)
        .image
        .expect("builder assembles");
    assert!(!image.images.is_empty());
    let mut inner = image.clone();
    inner.images = vec![image.images[0].clone()];
    let mut outer = image;
    outer.images.push(inner);
    outer
}

#[test]
fn every_truncation_is_an_error_that_says_where() {
    let bytes = to_binary(&image_of(Tree::cons(Tree::NIL, Tree::NIL)));
    let mut rich = to_binary(&rich_image());
    rich.truncate(4000);
    for bytes in [bytes, rich] {
        for end in 0..bytes.len() {
            match from_binary(&bytes[..end]) {
                Ok(_) => panic!("{end} bytes of {} read as an image", bytes.len()),
                Err(e) => {
                    let e = e.to_string();
                    assert!(
                        e.contains("byte ") || e.contains("magic") || e.contains("embedded"),
                        "{end}: {e}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_changed_byte_is_read_or_refused_without_a_crash() {
    let bytes = to_binary(&rich_image());
    let end = bytes.len().min(6000);
    for at in 0..end {
        for flip in [0x01, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[at] ^= flip;
            let _ = from_binary(&bad);
        }
    }
}

/// Unsigned LEB128.
fn int(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A binary file from numbers (strings written as their bytes).
fn file(parts: &[&[u64]]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for part in parts {
        for &n in *part {
            int(&mut out, n);
        }
    }
    out
}

/// An image of no files, no sources, no labels, no call stack, no source
/// map, with `registers` registers named `r` and limit 0, holding the given
/// node ids, embedding `children`.
fn plain(contents: &[u64], children: &[u64]) -> Vec<u64> {
    let mut v = vec![0, 0, 0, 0, contents.len() as u64];
    for &c in contents {
        v.extend([1, u64::from(b'r'), 0, c]);
    }
    v.extend([0, 0, 0, 0, 0, children.len() as u64]);
    v.extend(children);
    v
}

fn error_of(bytes: &[u8]) -> String {
    from_binary(bytes).expect_err("refused").to_string()
}

#[test]
fn hostile_files_are_refused_with_where_and_why() {
    // A well-formed file: node 1 = (Nil, Nil), node 2 = (1, 1).
    let good = file(&[&[1, 2, 0, 0, 1, 1, 1], &plain(&[2], &[])]);
    let image = from_binary(&good).expect("a well-formed file");
    assert_eq!(image.registers[0].contents.size(), 3);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            file(&[&[1, 1 << 60]]),
            "byte 9: the node table claims 1152921504606846976 elements, but only 0 bytes are left",
        ),
        (
            file(&[&[1, 2, 0, 0, 2, 0, 1], &plain(&[2], &[])]),
            "byte 12: node 2 refers to a node that is not before it",
        ),
        (
            file(&[&[1, 1, 0, 0, 1], &plain(&[7], &[])]),
            "byte 21: register `r` refers to node 7, but there are 1 nodes",
        ),
        (
            file(&[&[1, 0, 1], &plain(&[], &[0])]),
            "byte 22: image 0 embeds image 0, which is not an image after it that no other embeds",
        ),
        (
            file(&[&[1, 0, 2], &plain(&[], &[]), &plain(&[], &[])]),
            "image 1 is embedded by no image",
        ),
        (
            file(&[&[1, 0, 1], &plain(&[], &[]), &[0]]),
            "byte 22: bytes follow the last image",
        ),
        (
            file(&[&[2]]),
            "binary image format version 2 is not supported (this constree reads version 1)",
        ),
        (
            [MAGIC.as_slice(), &[0xff; 11]].concat(),
            "byte 8: the version is a number of more than 64 bits",
        ),
        (
            file(&[&[1, 0, 1, 2, 0xff]]),
            "byte 12: the compiler is not UTF-8 text",
        ),
        (
            b"{\"format\": \"constree-image\"".to_vec(),
            "does not start with the binary form's magic bytes",
        ),
    ];
    for (bytes, expected) in cases {
        let e = error_of(&bytes);
        assert!(e.contains(expected), "expected {expected:?}, got {e:?}");
    }
}

#[test]
fn a_source_text_that_does_not_match_its_hash_is_refused() {
    let mut image = image_of(Tree::NIL);
    image.files.push(FileRecord {
        name: "a.cta".into(),
        hash: hash("halt\n"),
        text: Some("halt\n".into()),
    });
    assert_eq!(from_binary(&to_binary(&image)).expect("reads"), image);
    image.files[0].text = Some("nilify r\n".into());
    let e = error_of(&to_binary(&image));
    assert!(
        e.contains("the source text of a.cta does not match its hash"),
        "{e}"
    );
}

/// Random images: any trees, names, limits, labels, call stacks, files
/// with or without their texts, locations with expansions, segments, and
/// embedded images two levels deep.
fn image_strategy() -> impl Strategy<Value = Image> {
    let leaf = plain_image();
    leaf.prop_recursive(2, 6, 3, |inner| {
        (plain_image(), prop::collection::vec(inner, 0..3)).prop_map(|(mut image, images)| {
            image.images = images;
            image
        })
    })
}

fn plain_image() -> impl Strategy<Value = Image> {
    let name = "\\PC{0,6}";
    let registers = prop::collection::vec((name, any::<i64>(), strategies::tree(6, 24)), 1..5);
    let files = prop::collection::vec((name, "\\PC{0,40}"), 1..4);
    (
        registers,
        files,
        any::<bool>(),
        prop::collection::vec((name, any::<prop::sample::Index>(), 0usize..1000), 0..4),
        prop::option::of((any::<prop::sample::Index>(), any::<prop::sample::Index>())),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                any::<u32>(),
                any::<u32>(),
                prop::collection::vec((name, any::<prop::sample::Index>(), any::<u32>()), 0..3),
            ),
            1..6,
        ),
        prop::collection::vec(
            (
                prop::collection::vec(any::<prop::sample::Index>(), 0..5),
                prop::option::of(any::<prop::sample::Index>()),
            ),
            1..4,
        ),
        prop::collection::vec(
            (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
            0..3,
        ),
        (name, "[0-9a-f]{0,64}"),
    )
        .prop_map(
            |(registers, files, texts, labels, callstack, locations, segments, maps, meta)| {
                let count = registers.len();
                let file_count = files.len();
                let location_count = locations.len();
                let segment_count = segments.len();
                Image {
                    registers: registers
                        .into_iter()
                        .map(|(name, limit, contents)| ImageRegister {
                            name,
                            limit,
                            contents,
                        })
                        .collect(),
                    labels: labels
                        .into_iter()
                        .map(|(name, r, offset)| LabelSymbol {
                            name,
                            register: r.index(count),
                            offset,
                        })
                        .collect(),
                    callstack: callstack.map(|(s, l)| CallStack {
                        stack: s.index(count),
                        link: l.index(count),
                    }),
                    source_map: SourceMap {
                        locations: locations
                            .into_iter()
                            .map(|(f, line, column, expansion)| Location {
                                file: f.index(file_count) as u32,
                                line,
                                column,
                                expansion: expansion
                                    .into_iter()
                                    .map(|(macro_name, f, line)| ExpansionSite {
                                        macro_name: macro_name.into(),
                                        file: f.index(file_count) as u32,
                                        line,
                                        column: line / 3,
                                    })
                                    .collect(),
                            })
                            .collect(),
                        segments: segments
                            .into_iter()
                            .map(|(locations, next)| Segment {
                                locations: locations
                                    .iter()
                                    .map(|l| l.index(location_count) as u32)
                                    .collect(),
                                next: next.map(|n| n.index(segment_count) as u32),
                            })
                            .collect(),
                        registers: maps
                            .into_iter()
                            .map(|(r, s)| RegisterMap {
                                register: r.index(count),
                                segment: s.index(segment_count) as u32,
                            })
                            .collect(),
                    },
                    files: files
                        .into_iter()
                        .map(|(name, text)| FileRecord {
                            name,
                            hash: hash(&text),
                            text: texts.then_some(text),
                        })
                        .collect(),
                    compiler: meta.0,
                    sources_hash: meta.1,
                    images: Vec::new(),
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_images_go_round_both_forms(image in image_strategy()) {
        let bytes = to_binary(&image);
        let back = from_binary(&bytes).expect("its own bytes read");
        prop_assert_eq!(&back, &image);
        prop_assert_eq!(to_json(&back), to_json(&image));
        let (json_back, form) = from_bytes(to_json(&image).into_bytes()).expect("JSON reads");
        prop_assert_eq!(form, Form::Json);
        prop_assert_eq!(to_binary(&json_back), bytes);
    }
}

/// `constree ARGS` with extra environment variables: its exit code and
/// standard error.
fn constree_env(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_constree"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("constree runs");
    (out.status.code(), cli_common::text(&out.stderr))
}

#[test]
fn the_command_line_writes_converts_and_reads_both_forms() {
    let dir = cli_common::scratch_dir("binary_images_cli");
    let at = |name: &str| dir.join(name).to_str().expect("UTF-8").to_string();
    let source = Path::new(MANIFEST).join("examples/builder.cta");
    let source = source.to_str().expect("UTF-8");
    cli_common::stdout_of(&[
        "asm",
        source,
        "-o",
        &at("json.ctm"),
        "--image-format",
        "json",
    ]);
    // The binary form is what `asm` writes unless asked for JSON.
    cli_common::stdout_of(&["asm", source, "-o", &at("asm.bin")]);
    cli_common::stdout_of(&[
        "asm",
        source,
        "-o",
        &at("asm.named.bin"),
        "--image-format",
        "binary",
    ]);
    cli_common::stdout_of(&[
        "image",
        "convert",
        &at("json.ctm"),
        "--to",
        "binary",
        "-o",
        &at("bin.ctm"),
    ]);
    cli_common::stdout_of(&[
        "image",
        "convert",
        &at("bin.ctm"),
        "--to",
        "json",
        "-o",
        &at("again.ctm"),
    ]);
    let read = |name: &str| std::fs::read(at(name)).expect("written");
    assert!(read("bin.ctm").starts_with(MAGIC));
    assert_eq!(read("asm.bin"), read("bin.ctm"));
    assert_eq!(read("asm.named.bin"), read("bin.ctm"));
    assert!(read("json.ctm").starts_with(b"{"));
    assert_eq!(read("again.ctm"), read("json.ctm"));
    // disasm, exec and the debugger read either form alike.
    let disasm = cli_common::stdout_of(&["disasm", &at("json.ctm")]);
    assert_eq!(cli_common::stdout_of(&["disasm", &at("bin.ctm")]), disasm);
    let exec = |f: &str| cli_common::stdout_of(&["exec", &at(f), "--steps", "2", "--speed", "50"]);
    assert_eq!(exec("bin.ctm"), exec("json.ctm"));
    let script = dir.join("session.dbg");
    std::fs::write(&script, "stepi 3\ninfo frame\nlist\n").expect("written");
    let debug = |f: &str| {
        cli_common::stdout_of(&["debug", &at(f), "--batch", script.to_str().expect("UTF-8")])
            .replace(&at(f), "IMAGE")
    };
    assert_eq!(debug("bin.ctm"), debug("json.ctm"));
    assert!(
        debug("bin.ctm").contains("builder.cta"),
        "{}",
        debug("bin.ctm")
    );
}

#[test]
fn the_caps_hold_for_binary_images_on_the_command_line() {
    let dir = cli_common::scratch_dir("binary_images_caps");
    // A spine of 1000 nodes: refused under a cap of 999 nodes.
    let mut spine = Tree::NIL;
    for _ in 0..1000 {
        spine = Tree::cons(spine, Tree::NIL);
    }
    let deep = dir.join("deep.ctm");
    std::fs::write(&deep, to_binary(&image_of(spine))).expect("written");
    let deep = deep.to_str().expect("UTF-8");
    assert_eq!(constree_env(&["disasm", deep], &[]).0, Some(0));
    let (code, err) = constree_env(&["disasm", deep], &[("CONSTREE_MAX_IMAGE_NODES", "999")]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("deep.ctm: corrupt image: byte 9: the node table has 1000 nodes, more than 999 (CONSTREE_MAX_IMAGE_NODES=N raises the limit)"),
        "{err}"
    );
    // Sources that decompress to more than the input cap.
    let mut image = image_of(Tree::NIL);
    let text = "x".repeat(300_000);
    image.files.push(FileRecord {
        name: "big.cta".into(),
        hash: hash(&text),
        text: Some(text),
    });
    let bomb = dir.join("bomb.ctm");
    let bytes = to_binary(&image);
    assert!(bytes.len() < 10_000, "{} bytes", bytes.len());
    std::fs::write(&bomb, bytes).expect("written");
    let bomb = bomb.to_str().expect("UTF-8");
    let (code, err) = constree_env(&["disasm", bomb], &[("CONSTREE_MAX_INPUT", "100000")]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("the sources are more than 100000 bytes once decompressed"),
        "{err}"
    );
    let (code, err) = constree_env(&["image", "convert", bomb, "--to", "json", "-o", "-"], &[]);
    assert_eq!(code, Some(0), "{err}");
}

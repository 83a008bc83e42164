//! The source texts an image carries (format version 2): the texts of its
//! files, in order, as a JSON list, gzip-compressed and written in base64
//! (RFC 4648, with padding) as one string.

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use std::io::{Read, Write};

/// SHA-256 of a text, in hex: a file's `hash`.
pub fn hash(text: &str) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(text.as_bytes()))
}

/// Bytes in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The texts, packed: their JSON list (serde_json's bytes, written in the
/// pieces serde_json writes, through the same buffer, so that the
/// compressor is given the same writes) is compressed as it is written.
pub fn pack(texts: &[&str]) -> String {
    let mut gz =
        std::io::BufWriter::with_capacity(1 << 16, GzEncoder::new(Vec::new(), Compression::fast()));
    // Writing to a Vec cannot fail.
    let _ = gz.write_all(b"[");
    for (k, text) in texts.iter().enumerate() {
        if k > 0 {
            let _ = gz.write_all(b",");
        }
        let _ = gz.write_all(b"\"");
        super::json_writer::escape_pieces(text, |piece| {
            let _ = gz.write_all(piece);
        });
        let _ = gz.write_all(b"\"");
    }
    let _ = gz.write_all(b"]");
    let _ = gz.flush();
    let bytes = gz
        .into_inner()
        .ok()
        .and_then(|gz| gz.finish().ok())
        .unwrap_or_default();
    encode(&bytes)
}

/// The texts of a packed string; more than
/// [`MAX_INPUT`](crate::limits::MAX_INPUT) bytes once decompressed is an
/// error (a small string can stand for gigabytes).
pub fn unpack(packed: &str) -> Result<Vec<String>, UnpackError> {
    let bytes = decode(packed).ok_or(UnpackError::NotBase64)?;
    let cap = crate::limits::MAX_INPUT.get();
    let mut json = Vec::new();
    GzDecoder::new(bytes.as_slice())
        .take(cap.saturating_add(1))
        .read_to_end(&mut json)
        .map_err(UnpackError::Gzip)?;
    if json.len() as u64 > cap {
        return Err(UnpackError::TooLarge(cap));
    }
    serde_json::from_slice(&json).map_err(UnpackError::NotTexts)
}

/// Why a packed string of sources cannot be unpacked.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    /// Not base64.
    #[error("the sources are not base64")]
    NotBase64,
    /// Not gzip.
    #[error("the sources do not decompress: {0}")]
    Gzip(std::io::Error),
    /// Over the cap once decompressed (the cap).
    #[error(
        "the sources are more than {0} bytes once decompressed (CONSTREE_MAX_INPUT=BYTES raises the limit)"
    )]
    TooLarge(u64),
    /// Not a JSON list of texts.
    #[error("the sources are not a list of texts: {0}")]
    NotTexts(serde_json::Error),
}

fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn decode(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for chunk in text.chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            let v = ALPHABET.iter().position(|&a| a == c)? as u32;
            n = (n << 6) | v;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_go_round_and_base64_is_the_standard_one() {
        assert_eq!(encode(b"Man"), "TWFu");
        assert_eq!(encode(b"Ma"), "TWE=");
        assert_eq!(encode(b"M"), "TQ==");
        for bytes in [&b""[..], b"M", b"Ma", b"Man", b"any carnal pleasure."] {
            assert_eq!(decode(&encode(bytes)).unwrap(), bytes);
        }
        let long = "ü\"\\\t\u{7}x".repeat(40_000);
        let lines = "    construct a, b, a ; ü\n".repeat(20_000);
        let texts = ["main: halt\n", "", "\u{1b}[31m ünïcode", &long, &lines];
        assert_eq!(unpack(&pack(&texts)).unwrap(), texts);
        // The bytes are those of serde_json's writing, through the same
        // buffer.
        let mut gz = std::io::BufWriter::with_capacity(
            1 << 16,
            GzEncoder::new(Vec::new(), Compression::fast()),
        );
        serde_json::to_writer(&mut gz, &texts).unwrap();
        gz.flush().unwrap();
        let serde = gz.into_inner().ok().unwrap().finish().unwrap();
        assert_eq!(pack(&texts), encode(&serde));
        assert!(unpack("not base64!").is_err());
    }
}

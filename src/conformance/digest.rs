//! The benchmark digest: FNV-1a 64 over the compact JSON text of a result.

/// FNV-1a 64-bit hash as 16 lowercase hex digits.
pub fn fnv1a(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

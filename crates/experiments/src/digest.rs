//! Checksums of configurations and traces.

/// SHA-256 of `bytes` as lower-case hex (for trace checksums).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `s` is written as [`sha256_hex`] writes a digest: 64 lowercase
/// hexadecimal digits (for a digest read back from a file).
pub fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

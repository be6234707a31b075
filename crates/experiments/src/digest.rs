//! Checksums of configurations and traces.

/// SHA-256 of `bytes` as lower-case hex (for trace checksums).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

//! Helpers shared by the test modules.

pub mod results;
pub mod spawn;
pub mod tempdir;
pub mod tree;

use std::path::PathBuf;

/// The checkout these tests belong to (the repository root, absolute).
pub fn checkout() -> PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::canonicalize(&root).unwrap_or(root)
}

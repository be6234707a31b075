//! A temporary directory removed on drop, shared by the xtask test binaries
//! that include this file (`#[path = "common/tempdir.rs"] mod tempdir;`).

use std::path::{Path, PathBuf};

/// A temporary directory removed on drop:
/// `<tmp>/xtask-<test binary>-<name>-<pid>`.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty directory for the test `name`.
    pub fn new(name: &str) -> TempDir {
        let binary = env!("CARGO_CRATE_NAME");
        let p = std::env::temp_dir().join(format!("xtask-{binary}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

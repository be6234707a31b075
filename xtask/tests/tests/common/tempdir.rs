//! A temporary directory removed on drop, shared by the test modules.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A temporary directory removed on drop:
/// `<tmp>/xtask-<name>-<pid>-<n>`, `n` counting this process's directories
/// (modules may use the same `name`).
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty directory for the test `name`.
    pub fn new(name: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("xtask-{name}-{}-{n}", std::process::id()));
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

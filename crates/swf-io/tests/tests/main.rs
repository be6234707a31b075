//! The integration tests of swf-io, one binary with a module per area.

mod broken;
mod limits;
mod lublin;
mod props;
#[cfg(feature = "serde")]
mod serde_names;
mod traces;
mod transforms;

use std::path::{Path, PathBuf};

/// The directory of the PWA traces: `TRACES_DIR`, else `shared/traces`
/// beside the workspace. `None` (and a printed note) if it does not exist.
pub fn traces_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("TRACES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/traces"));
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "note: {} does not exist; skipping the tests on real traces",
            dir.display()
        );
        None
    }
}

/// A scratch file path unique to this process and `name`, removed on drop.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(name: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!("swf-io-test-{}-{name}", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

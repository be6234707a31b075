//! Atomic writes: a file or a whole directory appears complete or not at all.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

fn sibling(path: &Path, tag: &str) -> Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| anyhow!("{} has no file name", path.display()))?;
    let parent = path.parent().unwrap_or(Path::new("."));
    Ok(parent.join(format!(
        ".{}.{tag}-{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// Writes `contents` to a temporary sibling of `path`, then renames it into place.
pub fn write_file(path: &Path, contents: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let tmp = sibling(path, "tmp")?;
    let result = fs::write(&tmp, contents)
        .with_context(|| format!("cannot write {}", tmp.display()))
        .and_then(|()| {
            fs::rename(&tmp, path)
                .with_context(|| format!("cannot move {} to {}", tmp.display(), path.display()))
        });
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes `files` into a temporary sibling directory of `dir`, then renames
/// it to `dir`, replacing any previous one. On error nothing is left behind
/// and a previous `dir` is untouched.
pub fn write_dir(dir: &Path, files: &[(&str, String)]) -> Result<()> {
    let parent = dir.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let tmp = sibling(dir, "tmp")?;
    if tmp.exists() {
        fs::remove_dir_all(&tmp)
            .with_context(|| format!("cannot remove the stale {}", tmp.display()))?;
    }
    let result = fill(&tmp, files).and_then(|()| swap_in(&tmp, dir));
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

fn fill(tmp: &Path, files: &[(&str, String)]) -> Result<()> {
    fs::create_dir(tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    for (name, contents) in files {
        let path = tmp.join(name);
        fs::write(&path, contents).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn swap_in(tmp: &Path, dir: &Path) -> Result<()> {
    if !dir.exists() {
        return fs::rename(tmp, dir)
            .with_context(|| format!("cannot move {} to {}", tmp.display(), dir.display()));
    }
    let old = sibling(dir, "old")?;
    fs::rename(dir, &old)
        .with_context(|| format!("cannot move the previous {} aside", dir.display()))?;
    if let Err(e) = fs::rename(tmp, dir) {
        let _ = fs::rename(&old, dir);
        return Err(e)
            .with_context(|| format!("cannot move {} to {}", tmp.display(), dir.display()));
    }
    fs::remove_dir_all(&old)
        .with_context(|| format!("cannot remove the previous results {}", old.display()))
}

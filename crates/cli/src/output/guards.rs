//! Where an output may not go: over one of its inputs, or inside a
//! results directory the tool replaces whole.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use experiments::encode::terminal_path;

use super::{RESULTS_MARKER, parent};
use crate::files::not_regular;

/// Refuses an output file `path` (`flag` names the option it came from,
/// or is empty) that cannot be written as a file, before any work: where
/// something other than a regular file is, a path ending in `/` (a
/// directory's), or one below an existing file (its nearest existing
/// ancestor must be a directory; missing ones are created when written).
pub fn check_file_target(path: &Path, flag: &str) -> Result<()> {
    let flag = if flag.is_empty() {
        String::new()
    } else {
        format!("{flag} ")
    };
    let text = path.as_os_str().as_encoded_bytes();
    if text.ends_with(b"/") || path.file_name().is_none() {
        bail!(
            "{flag}{} names a directory, not a file; give the file's path (e.g. {})",
            terminal_path(path),
            terminal_path(&path.join("out"))
        );
    }
    if let Some(above) = path
        .ancestors()
        .skip(1)
        .filter(|a| !a.as_os_str().is_empty())
        .find(|a| fs::symlink_metadata(a).is_ok())
        && !fs::metadata(above).is_ok_and(|m| m.is_dir())
    {
        bail!(
            "{flag}{} cannot be written: {} is not a directory; choose another path",
            terminal_path(path),
            terminal_path(above)
        );
    }
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Ok(());
    };
    let what = if meta.is_symlink() {
        Some("a symbolic link")
    } else {
        not_regular(&meta)
    };
    if let Some(what) = what {
        bail!(
            "{flag}{} is {what}; an output replaces only a regular file, choose another path",
            terminal_path(path)
        );
    }
    Ok(())
}

/// Refuses an output at `path` inside a results directory the tool wrote
/// (an ancestor holding [`RESULTS_MARKER`]): the next run replaces that
/// directory whole, which would delete the output, or refuses to because
/// of it.
pub fn check_outside_results(path: &Path) -> Result<()> {
    let path = std::path::absolute(path)
        .with_context(|| format!("cannot resolve {}", terminal_path(path)))?;
    if let Some(results) = path
        .ancestors()
        .skip(1)
        .find(|a| fs::symlink_metadata(a.join(RESULTS_MARKER)).is_ok_and(|m| m.is_file()))
    {
        bail!(
            "{} is inside {}, a results directory that cargo xtask replaces whole; choose a \
             path outside it",
            terminal_path(&path),
            terminal_path(results)
        );
    }
    Ok(())
}

/// Refuses the file `path` (given as `flag`) at, inside or holding the
/// output folder `out` of the same command, before any work: the folder
/// holds only results folders the tool replaces whole (so a file there
/// would be deleted by, or stop, the next run), and a file cannot stand
/// where the folder must be.
pub fn refuse_in_out_folder(path: &Path, flag: &str, out: &Path) -> Result<()> {
    let Some(how) = nesting(path, out) else {
        return Ok(());
    };
    bail!(
        "{flag} {} {how} --out {}, which holds only the results folders the tool replaces \
         whole; write {flag} outside it",
        terminal_path(path),
        terminal_path(out)
    );
}

/// How `a` lies against `b` as the file system resolves both: `is`,
/// `is inside` or `holds`; `None` when apart (or unresolvable).
fn nesting(a: &Path, b: &Path) -> Option<&'static str> {
    let (a, b) = (resolved(a)?, resolved(b)?);
    if a == b {
        Some("is")
    } else if a.starts_with(&b) {
        Some("is inside")
    } else if b.starts_with(&a) {
        Some("holds")
    } else {
        None
    }
}

/// `path` as the file system will resolve it: its longest existing
/// ancestor made canonical (links followed), the rest appended as given.
fn resolved(path: &Path) -> Option<std::path::PathBuf> {
    let path = std::path::absolute(path).ok()?;
    let mut rest = Vec::new();
    for dir in path.ancestors() {
        if let Ok(real) = fs::canonicalize(dir) {
            return Some(rest.iter().rev().fold(real, |p, part| p.join(part)));
        }
        rest.push(dir.file_name()?);
    }
    None
}

/// Refuses an output directory (`out`, given as `out_flag`) that is, holds
/// or lies inside the input directory `input` (`input_flag`): results
/// never go into an area the tool reads from, nor an input into an area
/// it replaces.
pub fn refuse_nested(out: &Path, out_flag: &str, input: &Path, input_flag: &str) -> Result<()> {
    let Some(how) = nesting(out, input) else {
        return Ok(());
    };
    bail!(
        "{out_flag} {} {how} {input_flag} {}; results and the cells they are made of go in \
         separate directories, neither inside the other",
        terminal_path(out),
        terminal_path(input)
    );
}

/// Whether `a` and `b` name one file: the same canonical path, or the same
/// device and inode (a hard link).
pub fn same_file(a: &Path, b: &Path) -> bool {
    if let (Ok(x), Ok(y)) = (fs::canonicalize(a), fs::canonicalize(b))
        && x == y
    {
        return true;
    }
    same_inode(a, b)
}

#[cfg(unix)]
fn same_inode(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_inode(_: &Path, _: &Path) -> bool {
    false
}

/// Refuses an output file (`flag` names it in the message) that is one of
/// the `inputs` under another name or the same.
pub fn refuse_input_file(output: &Path, flag: &str, inputs: &[&Path]) -> Result<()> {
    if let Some(input) = inputs.iter().find(|i| same_file(output, i)) {
        bail!(
            "{flag} {} is the input {}; refusing to write over an input, choose another file",
            terminal_path(output),
            terminal_path(input)
        );
    }
    Ok(())
}

/// Refuses to replace the directory `dir` when it is, or holds, one of the
/// `inputs` (a configuration beside its results, say).
pub fn refuse_input_dir(dir: &Path, inputs: &[&Path]) -> Result<()> {
    let Ok(dir_real) = fs::canonicalize(dir) else {
        return Ok(());
    };
    // The input itself, and the entry that names it (a symlink is the user's too).
    let names = |input: &Path| {
        let real = fs::canonicalize(input).ok();
        let entry = input
            .file_name()
            .and_then(|n| Some(fs::canonicalize(parent(input)).ok()?.join(n)));
        [real, entry].into_iter().flatten()
    };
    if let Some(input) = inputs
        .iter()
        .find(|i| names(i).any(|p| p.starts_with(&dir_real)))
    {
        bail!(
            "the results would replace {}, which holds the input {}; refusing to delete an \
             input, choose another --out",
            terminal_path(dir),
            terminal_path(input)
        );
    }
    Ok(())
}

/// Refuses a symbolic link between `root` (the `--out` or `--cells`
/// directory the user gave, which may itself be a link) and `dir` below
/// it: results go into real directories under the root, never through a
/// link to somewhere else (a group folder `root/study` linked elsewhere
/// would have the tool write and replace directories outside the tree).
/// `dir` itself is checked where it is replaced.
pub fn check_no_links_below(root: &Path, dir: &Path) -> Result<()> {
    let Ok(rest) = dir.strip_prefix(root) else {
        return Ok(());
    };
    let mut path = root.to_path_buf();
    let parts: Vec<_> = rest.components().collect();
    for part in parts.iter().take(parts.len().saturating_sub(1)) {
        path.push(part);
        if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            bail!(
                "{} is a symbolic link; results are written only into real directories \
                 below {} (remove the link, or give its target as the output directory)",
                terminal_path(&path),
                terminal_path(root)
            );
        }
    }
    Ok(())
}

/// Refuses an output folder (`out`, given as `flag`) that the tool would
/// share with files it did not make: the source tree at `root` itself or
/// a folder inside its `configs/` (where configurations are read, and a
/// results folder's `run.toml` would be read as one), or a folder that
/// holds anything but what the tool writes there: results folders
/// `<group>/<name>/` (and `<paper>/sensitivity/<name>/`), the partial
/// `REPRODUCTION.md` (which `verify` replaces only if the tool wrote it,
/// or with `--force`), files it marks as its own (a `--combined` table)
/// and hidden entries (the staging folder, debris of older versions). A
/// folder that does not exist or is empty is fine. Results folders themselves are checked where they
/// are replaced ([`super::check_dir_target`]), links where they are
/// written through ([`check_no_links_below`]).
pub fn check_out_dir(out: &Path, flag: &str, root: &Path) -> Result<()> {
    if let (Some(o), Some(r)) = (resolved(out), resolved(root)) {
        let configs = r.join("configs");
        if o == r || o.starts_with(&configs) {
            bail!(
                "{flag} {} is {}; outputs go in a folder of their own, never among \
                 configurations or sources (the default is results/), choose another {flag}",
                terminal_path(out),
                if o == r {
                    "the source tree's root".to_string()
                } else if o == configs {
                    "the source tree's configs/".to_string()
                } else {
                    format!("inside {}", terminal_path(&configs))
                }
            );
        }
    }
    if let Some(foreign) = foreign_entry(out) {
        bail!(
            "{flag} {} holds {}, which cargo xtask did not write; an output folder holds only \
             what the tool makes (results folders <group>/<name>/, its REPRODUCTION.md, files \
             it marks as its own, {}), so nothing else is ever replaced: move that away or \
             choose another {flag}",
            terminal_path(out),
            terminal_path(&foreign),
            super::STAGING
        );
    }
    Ok(())
}

/// The first entry of the output folder `out` (sorted, two levels down)
/// that the tool does not write there, if any. Symbolic links are left to
/// the checks of the paths written through them. At both levels a file
/// the tool marks as its own (a `--combined` table, a picture, a
/// schedule: what a write there was allowed to leave) is the tool's.
fn foreign_entry(out: &Path) -> Option<std::path::PathBuf> {
    let sorted = |dir: &Path| -> Vec<fs::DirEntry> {
        let mut v: Vec<fs::DirEntry> = fs::read_dir(dir)
            .map(|r| r.flatten().collect())
            .unwrap_or_default();
        v.sort_by_key(fs::DirEntry::file_name);
        v
    };
    // Hidden entries: the tool's own names are hidden ones, and so is the
    // debris of its versions before `.usched-staging/`.
    let own = |e: &fs::DirEntry, kind: fs::FileType| {
        kind.is_symlink()
            || e.file_name().to_string_lossy().starts_with('.')
            || (kind.is_file() && super::replace::made_by_tool(&e.path()))
    };
    for entry in sorted(out) {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        // The partial document has its own guard (`verify --force`).
        if own(&entry, kind) || (kind.is_file() && entry.file_name() == "REPRODUCTION.md") {
            continue;
        }
        if !kind.is_dir() {
            return Some(entry.path());
        }
        // A group folder holds results folders (or `sensitivity/`) only,
        // and what is the tool's as above.
        if let Some(inner) = sorted(&entry.path())
            .into_iter()
            .find(|e| e.file_type().is_ok_and(|t| !t.is_dir() && !own(e, t)))
        {
            return Some(inner.path());
        }
    }
    None
}

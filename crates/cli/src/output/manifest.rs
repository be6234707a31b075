//! What a results directory's marker records: every file and folder the
//! tool wrote there, each file with its SHA-256, so the next run replaces
//! the directory only if it still holds exactly that.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File};
use std::io;
use std::path::Path;

use anyhow::{Context, Result, bail};
use experiments::encode::terminal_path;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::RESULTS_MARKER;

/// The marker's opening comment.
const MARKER_HEAD: &str = "# This directory was written by `cargo xtask`. The next run that writes \
                           these results\n# replaces it whole, but only while it holds exactly the \
                           files listed below, unchanged\n# (docs/ARCHITECTURE.md, \"Limits and \
                           guarantees\").\n";

/// The marker of versions before the manifest: its exact text.
pub(super) const LEGACY_MARKER: &str = "This directory was written by `cargo xtask`; the next run \
                                        that writes these results replaces it whole \
                                        (docs/ARCHITECTURE.md, \"Limits and guarantees\").\n";

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    /// The format's version: 1.
    manifest: u32,
    /// Folders, each ending in `/` (`schedules/`).
    #[serde(default)]
    folders: BTreeSet<String>,
    /// Files by path relative to the directory, `/`-separated, to the hex
    /// SHA-256 of their contents.
    #[serde(default)]
    files: BTreeMap<String, String>,
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The marker for a directory of `files` (names ending in `/` are folders).
pub(super) fn marker_text(files: &[(&str, String)]) -> String {
    let mut m = Manifest {
        manifest: 1,
        ..Manifest::default()
    };
    for (name, contents) in files {
        if name.ends_with('/') {
            m.folders.insert((*name).to_string());
        } else {
            m.files.insert(
                (*name).to_string(),
                experiments::sha256_hex(contents.as_bytes()),
            );
        }
    }
    let body =
        experiments::encode::toml_document(&toml::to_string(&m).expect("a manifest is plain TOML"));
    format!("{MARKER_HEAD}{body}")
}

/// How the marker of an existing directory reads.
pub(super) enum Marker {
    /// A manifest: the directory may be replaced if it holds just that.
    Manifest,
    /// The fixed text of versions before the manifest.
    Legacy,
    /// Anything else: not the tool's marker.
    Unknown,
}

/// Reads the marker at `path`, and with a manifest checks `dir` against
/// it: an error names the first entry the tool did not write, or changed.
///
/// Another writer may swap in its own results meanwhile (the last one
/// wins): a difference found while the marker changed under the check is
/// that swap, not a user's file, and the check starts again.
pub(super) fn check(dir: &Path, marker: &Path) -> Result<Marker> {
    let mut attempts = 0;
    loop {
        let text = read_marker(marker)?;
        let Some(m) = parse(&text) else {
            return Ok(if text == LEGACY_MARKER {
                Marker::Legacy
            } else {
                Marker::Unknown
            });
        };
        match walk(dir, &m) {
            Ok(()) => return Ok(Marker::Manifest),
            Err(e) => {
                attempts += 1;
                if attempts >= 100 || read_marker(marker)? == text {
                    return Err(e);
                }
            }
        }
    }
}

/// The marker's text; empty if it is missing, too large or not UTF-8 (a
/// marker is a few kilobytes).
fn read_marker(marker: &Path) -> Result<String> {
    match fs::read(marker) {
        Ok(bytes) if bytes.len() <= 16 << 20 => Ok(String::from_utf8(bytes).unwrap_or_default()),
        Ok(_) => Ok(String::new()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", terminal_path(marker))),
    }
}

/// Whether the marker at `path` is one the tool writes (a manifest, or the
/// fixed text of earlier versions).
pub(super) fn is_tool_marker(path: &Path) -> bool {
    read_marker(path).is_ok_and(|t| t == LEGACY_MARKER || parse(&t).is_some())
}

fn parse(text: &str) -> Option<Manifest> {
    toml::from_str::<Manifest>(text)
        .ok()
        .filter(|m| m.manifest == 1)
}

/// What a directory holds beyond its manifest, or other than it.
enum Difference {
    /// A listed file whose contents changed (its path).
    Changed(std::path::PathBuf),
    /// An entry the manifest does not list (as shown).
    Foreign(String),
}

/// Checks that `dir` holds exactly what `m` lists, each file unchanged.
fn walk(dir: &Path, m: &Manifest) -> Result<()> {
    match differs(dir, m, &[])? {
        None => Ok(()),
        Some(Difference::Changed(path)) => bail!(
            "{} changed since cargo xtask wrote it; refusing to replace {} (that would lose the \
             change): move the file away, or choose another --out",
            terminal_path(&path),
            terminal_path(dir)
        ),
        Some(Difference::Foreign(entry)) => bail!(
            "{} holds {entry}, which cargo xtask did not write there; refusing to replace the \
             directory (that would delete it): move it away, or choose another --out",
            terminal_path(dir)
        ),
    }
}

/// The first entry of `dir` that `m` does not list, or lists with other
/// contents (those of a file in `read`, by its path relative to `dir`,
/// taken as the bytes given); a listed entry that is missing is no
/// difference here.
fn differs(dir: &Path, m: &Manifest, read: &[(&str, &[u8])]) -> Result<Option<Difference>> {
    let mut folders = vec![String::new()];
    while let Some(rel) = folders.pop() {
        let here = dir.join(&rel);
        let entries = match fs::read_dir(&here) {
            Ok(entries) => entries,
            // Another writer moved it aside: nothing left to lose.
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot list {}", terminal_path(&here)));
            }
        };
        for entry in entries {
            let entry = entry.with_context(|| format!("cannot list {}", terminal_path(&here)))?;
            let name = entry.file_name();
            let shown = terminal_path(Path::new(&format!("{rel}{}", name.to_string_lossy())));
            let Some(name) = name.to_str() else {
                return Ok(Some(Difference::Foreign(shown)));
            };
            let path = format!("{rel}{name}");
            if path == RESULTS_MARKER {
                continue;
            }
            let kind = entry
                .file_type()
                .with_context(|| format!("cannot read {}", terminal_path(&entry.path())))?;
            if kind.is_dir() && m.folders.contains(&format!("{path}/")) {
                folders.push(format!("{path}/"));
                continue;
            }
            match m.files.get(&path) {
                Some(sha) if kind.is_file() => {
                    let have = match read.iter().find(|(name, _)| *name == path) {
                        Some((_, bytes)) => experiments::sha256_hex(bytes),
                        None => sha256_file(&entry.path())?,
                    };
                    if &have != sha {
                        return Ok(Some(Difference::Changed(entry.path())));
                    }
                }
                _ => return Ok(Some(Difference::Foreign(shown))),
            }
        }
    }
    Ok(None)
}

/// Whether the results directory `dir` is as the tool wrote it, for
/// `verify`: a manifest marker, every file it lists present and unchanged,
/// nothing else; a file in `read` as the bytes given. `Ok(Err(why))` says
/// what differs.
pub(super) fn intact(
    dir: &Path,
    read: &[(&str, &[u8])],
) -> Result<std::result::Result<(), String>> {
    let marker = dir.join(RESULTS_MARKER);
    let text = read_marker(&marker)?;
    let Some(m) = parse(&text) else {
        let why = if text == LEGACY_MARKER {
            "the marker of an older version of cargo xtask"
        } else {
            "missing, or not the marker cargo xtask wrote"
        };
        return Ok(Err(format!("{}: {why}", terminal_path(&marker))));
    };
    if let Some(missing) = m.files.keys().find(|f| !dir.join(f).is_file()) {
        return Ok(Err(format!(
            "{}: missing, though cargo xtask wrote it",
            terminal_path(&dir.join(missing))
        )));
    }
    Ok(match differs(dir, &m, read)? {
        None => Ok(()),
        Some(Difference::Changed(path)) => Err(format!(
            "{}: changed since cargo xtask wrote it",
            terminal_path(&path)
        )),
        Some(Difference::Foreign(entry)) => Err(format!(
            "{}/{entry}: cargo xtask did not write it there",
            terminal_path(dir)
        )),
    })
}

fn sha256_file(path: &Path) -> Result<String> {
    let mut file =
        File::open(path).with_context(|| format!("cannot read {}", terminal_path(path)))?;
    let mut hasher = Sha256::new();
    io::copy(&mut file, &mut hasher)
        .with_context(|| format!("cannot read {}", terminal_path(path)))?;
    Ok(hex(&hasher.finalize()))
}

//! Crash-safe writes: a file or a whole directory appears complete or not
//! at all, an interrupted swap is repaired by the next run, and no output
//! is ever written over an input.
//!
//! A file is written to a hidden sibling `.NAME.tmp-PID-N` and renamed into
//! place: at every instant the old or the new file is visible.
//!
//! A directory of results is filled as `.NAME.tmp-PID-N`, then swapped in
//! with two renames: the previous directory goes aside as
//! `.NAME.old-PID-N`, the new one takes its name, and the old one is
//! deleted. A process killed between the two renames leaves no directory
//! under the final name, only the hidden previous one; [`recover`] (run by
//! every later write of that name, and by `reproduce`, `run` and `verify`
//! over the whole results directory before they start) puts it back. The
//! same pass deletes temporary copies and set-aside directories (and the
//! trace cache's `.NAME.part-PID` downloads) whose process is gone, which
//! it tells from `/proc/PID`; files of live processes are never touched.
//!
//! Two writers of one directory at once each retry the swap until theirs
//! is in place, so the last one wins, the other's results are gone whole
//! (never mixed) and nothing is left behind.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result, anyhow, bail};

/// The kinds of hidden siblings writers leave while they work.
const TAGS: [&str; 3] = ["tmp", "old", "part"];

/// How often a swap is retried while other writers replace the directory.
const MAX_ATTEMPTS: usize = 100;

/// Numbers the siblings of one process, so threads never share one.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

fn file_name(path: &Path) -> Result<String> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| anyhow!("{} has no file name", path.display()))
}

fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A fresh hidden sibling of `path`: `.NAME.TAG-PID-N`.
fn sibling(path: &Path, tag: &str, pid: u32) -> Result<PathBuf> {
    let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    Ok(parent(path).join(format!(".{}.{tag}-{pid}-{n}", file_name(path)?)))
}

/// A hidden sibling left by a writer: `.NAME.TAG-PID` or `.NAME.TAG-PID-N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Debris {
    /// The final name it belongs to.
    pub name: String,
    /// `tmp` (being filled), `old` (set aside) or `part` (a download).
    pub tag: &'static str,
    /// The process that made it.
    pub pid: u32,
}

impl Debris {
    /// Reads a directory entry's name; `None` if it is not a writer's.
    pub fn parse(entry: &str) -> Option<Debris> {
        let rest = entry.strip_prefix('.')?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        TAGS.iter().find_map(|&tag| {
            let marker = format!(".{tag}-");
            let at = rest.rfind(&marker)?;
            let (name, suffix) = (&rest[..at], &rest[at + marker.len()..]);
            let pid = match suffix.split_once('-') {
                Some((pid, n)) if digits(n) => pid,
                Some(_) => return None,
                None => suffix,
            };
            if name.is_empty() || !digits(pid) {
                return None;
            }
            Some(Debris {
                name: name.to_string(),
                tag,
                pid: pid.parse().ok()?,
            })
        })
    }
}

/// Whether process `pid` may be running: this process, a `/proc/PID`
/// entry, or no `/proc` to tell (then nothing is ever cleaned).
pub fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    pid == std::process::id() || !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

fn exists(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Removes a file, a symlink or a directory tree; gone already is fine.
fn remove(path: &Path) -> io::Result<()> {
    let result = match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) => Err(e),
    };
    match result {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// What [`recover`] did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recovery {
    /// The final path, and the set-aside copy of a dead process put back there.
    pub restored: Option<(PathBuf, Debris)>,
    /// Hidden siblings of dead processes deleted.
    pub removed: Vec<PathBuf>,
}

/// Repairs what dead writers left around `path`: if `path` is missing and
/// a dead process had set the previous version aside, it is put back
/// (the newest, if several); every other sibling of a dead process is
/// deleted. Siblings of live processes are left alone.
pub fn recover(path: &Path) -> Result<Recovery> {
    let name = file_name(path)?;
    let dir = parent(path);
    let mut recovery = Recovery::default();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(recovery),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    };
    let mut dead = Vec::new();
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(debris) = file.to_str().and_then(Debris::parse) else {
            continue;
        };
        if debris.name == name && !process_alive(debris.pid) {
            dead.push((entry.path(), debris));
        }
    }
    if !exists(path) {
        let newest = dead
            .iter()
            .enumerate()
            .filter(|(_, (_, d))| d.tag == "old")
            .max_by_key(|(_, (p, _))| {
                let modified = fs::symlink_metadata(p).and_then(|m| m.modified()).ok();
                (modified, p.clone())
            })
            .map(|(i, _)| i);
        if let Some(i) = newest {
            let (old, debris) = dead.remove(i);
            match fs::rename(&old, path) {
                Ok(()) => recovery.restored = Some((path.to_path_buf(), debris)),
                // Another process restored it, or wrote new results, first.
                Err(_) if exists(path) || !exists(&old) => {}
                Err(e) => {
                    return Err(e).with_context(|| {
                        format!("cannot restore {} from {}", path.display(), old.display())
                    });
                }
            }
        }
    }
    for (p, _) in dead {
        remove(&p).with_context(|| format!("cannot remove the stale {}", p.display()))?;
        recovery.removed.push(p);
    }
    Ok(recovery)
}

/// [`recover`] for every name in `dir` that a dead writer left siblings of.
pub fn recover_dir(dir: &Path) -> Result<Vec<Recovery>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(Debris::parse))
        .filter(|d| !process_alive(d.pid))
        .map(|d| d.name)
        .collect();
    names.sort();
    names.dedup();
    names
        .iter()
        .map(|n| recover(&dir.join(n)))
        .filter(|r| !matches!(r, Ok(r) if *r == Recovery::default()))
        .collect()
}

/// [`recover_dir`] on `root` and on its visible subdirectories, `depth`
/// levels down (symbolic links are not followed).
pub fn recover_tree(root: &Path, depth: usize) -> Result<Vec<Recovery>> {
    let mut out = recover_dir(root)?;
    if depth == 0 {
        return Ok(out);
    }
    let Ok(entries) = fs::read_dir(root) else {
        return Ok(out);
    };
    let mut subdirs: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    subdirs.sort();
    for d in subdirs {
        out.extend(recover_tree(&d, depth - 1)?);
    }
    Ok(out)
}

/// Writes `contents` to a temporary sibling of `path`, then renames it into place.
pub fn write_file(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = parent(path);
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Best effort: a failure to tidy up must not stop the write.
    let _ = recover(path);
    let tmp = sibling(path, "tmp", std::process::id())?;
    let result = fs::write(&tmp, contents)
        .with_context(|| format!("cannot write {}", tmp.display()))
        .and_then(|()| {
            fs::rename(&tmp, path)
                .with_context(|| format!("cannot move {} to {}", tmp.display(), path.display()))
        });
    if result.is_err() {
        let _ = remove(&tmp);
    }
    result
}

/// Writes `files` into a temporary sibling directory of `dir`, then swaps
/// it in for `dir` (see the module docs). On error nothing is left behind
/// and a previous `dir` is in place.
pub fn write_dir(dir: &Path, files: &[(&str, String)]) -> Result<()> {
    DirSwap::stage(dir, files)?.complete()
}

/// One step of a [`DirSwap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The new directory is in place.
    Installed,
    /// The name was taken: its directory was moved aside (or another
    /// writer's moved it first); step again.
    NotYet,
}

/// The steps of [`write_dir`], public so tests can stop between them as a
/// kill would: [`DirSwap::stage`] fills the temporary directory, each
/// [`DirSwap::step`] is one rename, [`DirSwap::finish`] deletes the
/// directories set aside.
#[derive(Debug)]
pub struct DirSwap {
    dir: PathBuf,
    tmp: PathBuf,
    pid: u32,
    aside: Vec<PathBuf>,
    installed: bool,
}

/// Whether a rename onto `dir` failed because the name is taken.
fn taken(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::DirectoryNotEmpty
            | io::ErrorKind::AlreadyExists
            | io::ErrorKind::NotADirectory
    )
}

impl DirSwap {
    /// Repairs what dead writers of `dir` left ([`recover`]), then writes
    /// `files` into a fresh temporary sibling.
    pub fn stage(dir: &Path, files: &[(&str, String)]) -> Result<DirSwap> {
        DirSwap::stage_as(std::process::id(), dir, files)
    }

    /// [`DirSwap::stage`], naming the siblings after process `pid` (tests
    /// use a process that cannot exist, to leave what a killed one would).
    pub fn stage_as(pid: u32, dir: &Path, files: &[(&str, String)]) -> Result<DirSwap> {
        let parent = parent(dir);
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        // Best effort: debris must not stop new results.
        let _ = recover(dir);
        let tmp = sibling(dir, "tmp", pid)?;
        if let Err(e) = fill(&tmp, files) {
            let _ = remove(&tmp);
            return Err(e);
        }
        Ok(DirSwap {
            dir: dir.to_path_buf(),
            tmp,
            pid,
            aside: Vec::new(),
            installed: false,
        })
    }

    /// One rename: the new directory into place, or, if the name is
    /// taken, the directory holding it aside.
    pub fn step(&mut self) -> Result<Step> {
        let err = match fs::rename(&self.tmp, &self.dir) {
            Ok(()) => {
                self.installed = true;
                return Ok(Step::Installed);
            }
            Err(e) if taken(&e) => e,
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot move {} to {}",
                        self.tmp.display(),
                        self.dir.display()
                    )
                });
            }
        };
        let old = sibling(&self.dir, "old", self.pid)?;
        match fs::rename(&self.dir, &old) {
            Ok(()) => {
                self.aside.push(old);
                Ok(Step::NotYet)
            }
            // Another writer moved it first.
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Step::NotYet),
            Err(e) => Err(e).with_context(|| {
                format!(
                    "cannot move the previous {} aside ({err})",
                    self.dir.display()
                )
            }),
        }
    }

    /// Steps until the new directory is in place, then deletes what was
    /// set aside; on error, puts the previous directory back.
    pub fn complete(mut self) -> Result<()> {
        for _ in 0..MAX_ATTEMPTS {
            match self.step() {
                Ok(Step::Installed) => return self.finish(),
                Ok(Step::NotYet) => {}
                Err(e) => {
                    self.abort();
                    return Err(e);
                }
            }
        }
        let dir = self.dir.clone();
        self.abort();
        bail!(
            "{}: other writers replaced it {MAX_ATTEMPTS} times while this one tried to; \
             run one writer at a time",
            dir.display()
        )
    }

    /// Deletes the directories set aside (after [`Step::Installed`]).
    pub fn finish(self) -> Result<()> {
        if !self.installed {
            bail!(
                "{}: the new results are not in place yet",
                self.dir.display()
            );
        }
        for old in &self.aside {
            remove(old)
                .with_context(|| format!("cannot remove the previous results {}", old.display()))?;
        }
        Ok(())
    }

    /// Gives up: the newest directory set aside goes back if the name is
    /// free, everything else of this writer is deleted.
    pub fn abort(mut self) {
        if !self.installed
            && !exists(&self.dir)
            && let Some(last) = self.aside.pop()
            && fs::rename(&last, &self.dir).is_err()
        {
            self.aside.push(last);
        }
        for p in self.aside.iter().chain([&self.tmp]) {
            let _ = remove(p);
        }
    }
}

fn fill(tmp: &Path, files: &[(&str, String)]) -> Result<()> {
    fs::create_dir(tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    for (name, contents) in files {
        let path = tmp.join(name);
        fs::write(&path, contents).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
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
            output.display(),
            input.display()
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
            dir.display(),
            input.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debris_names() {
        let check = |entry: &str, want: Option<(&str, &str, u32)>| {
            let got = Debris::parse(entry);
            let got = got.as_ref().map(|d| (d.name.as_str(), d.tag, d.pid));
            assert_eq!(got, want, "{entry}");
        };
        check(".fig4.tmp-123", Some(("fig4", "tmp", 123)));
        check(".fig4.old-123-7", Some(("fig4", "old", 123)));
        check(".a.swf.gz.part-9", Some(("a.swf.gz", "part", 9)));
        check(".x.tmp-1.old-2", Some(("x.tmp-1", "old", 2)));
        check("fig4.tmp-123", None);
        check(".fig4.tmp-", None);
        check(".fig4.tmp-12a", None);
        check(".fig4.tmp-1-", None);
        check("..tmp-1", None);
        check(".fig4", None);
    }

    #[test]
    fn this_process_is_alive() {
        assert!(process_alive(std::process::id()));
    }
}

//! Crash-safe writes that only ever replace what the tool made: a file or
//! a whole directory appears complete or not at all, an interrupted swap is
//! repaired by the next run, no output is written over an input, and no
//! file of anyone else is touched.
//!
//! **Staging.** Everything a writer makes before it is in place lives in a
//! hidden folder [`STAGING`] (`.usched-staging/`) beside the output, in a
//! subdirectory of its own named by a random token. The subdirectory's
//! first file, `owner`, is created, locked exclusively (`File::lock`) and
//! only then given its contents (the token and the output's name); the
//! writer holds the lock until its subdirectory is gone. A file is written
//! there and renamed into place: at every instant the old or the new file
//! is visible.
//!
//! A directory of results is filled there too, then swapped in with two
//! renames: the previous directory goes into the writer's subdirectory
//! (`old-N`), the new one takes its name, and the old one is deleted with
//! the subdirectory. A process killed between the two renames leaves no
//! directory under the final name; [`recover`] (run by every later write
//! beside it, and by `reproduce`, `run` and `verify` over the results
//! directory before they start) puts the previous one back.
//!
//! **Ownership.** Cleanup removes a staging subdirectory only if it can
//! take the lock on its `owner` file and that file names the subdirectory's
//! token: a live writer (in this process, another process, or another host
//! sharing the file system through a lock-aware file system) holds the
//! lock, so its files are never touched. Nothing outside `.usched-staging/`
//! is ever removed or renamed by name pattern: a user's `.thesis.tex.tmp-1`
//! is just a file. (Debris of versions before this scheme, `.NAME.tmp-PID`
//! and `.NAME.old-PID-N` siblings, is left alone for the same reason.)
//!
//! **What may be replaced.** An output file replaces only a regular file;
//! a symbolic link, FIFO, device, socket or directory in its place is an
//! error naming it. A results directory replaces only a directory the tool
//! wrote and nobody changed: its marker [`RESULTS_MARKER`] lists every
//! file and folder written there, each file with its SHA-256, and the
//! directory is replaced only if it holds just those, unchanged (module
//! `manifest`). A directory whose marker has no such list (an earlier
//! version's marker, or one someone else made) is replaced only if it
//! holds nothing but regular files whose names are among the files being
//! written; one with no marker at all only if it is empty (files named as
//! the tool's own may be a user's). Anything else is an error naming the
//! entry. No output goes inside a results directory ([`check_outside_results`]).
//!
//! Two writers of one directory at once each retry the swap until theirs
//! is in place, so the last one wins, the other's results are gone whole
//! (never mixed) and nothing is left behind.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result, anyhow, bail};
use experiments::encode::terminal_path;

use crate::files::not_regular;

/// The hidden folder, beside every output, where writers stage their work.
pub const STAGING: &str = ".usched-staging";

/// The file in every results directory that marks it as the tool's.
pub const RESULTS_MARKER: &str = ".usched-results";

mod guards;
mod manifest;
mod replace;

pub use guards::{
    check_file_target, check_no_links_below, check_out_dir, check_outside_results,
    refuse_in_out_folder, refuse_input_dir, refuse_input_file, refuse_nested, same_file,
};
pub use replace::{Made, check_replace, write_output};

/// Whether the results directory `dir` holds exactly the files its marker
/// lists, each unchanged (`verify`'s last check); `Ok(Err(why))` names
/// what differs. A file named in `read` (its path relative to `dir`, and
/// the bytes the caller read and checked) is compared as those bytes, so
/// what passes is what was checked, whatever the file holds by now.
pub fn results_intact(
    dir: &Path,
    read: &[(&str, &[u8])],
) -> Result<std::result::Result<(), String>> {
    manifest::intact(dir, read)
}

/// A writer's lock and ownership file in its staging subdirectory.
const OWNER: &str = "owner";

/// The first line of an [`OWNER`] file, before the token.
const OWNER_MAGIC: &str = "usched-staging v1";

/// How often a swap is retried while other writers replace the directory.
const MAX_ATTEMPTS: usize = 100;

/// Numbers tokens made in this process, so they differ even without randomness.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

fn file_name(path: &Path) -> Result<String> {
    let name = path
        .file_name()
        .ok_or_else(|| anyhow!("{} has no file name", terminal_path(path)))?;
    name.to_str()
        .map(str::to_string)
        .ok_or_else(|| anyhow!("{} is not a UTF-8 file name", terminal_path(path)))
}

fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
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

/// 128 random bits: from `/dev/urandom`, else from std's hasher keys
/// (random per process), the clock and a counter.
pub fn random_bytes() -> [u8; 16] {
    let mut bytes = [0u8; 16];
    let urandom = File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if urandom.is_err() {
        use std::hash::{BuildHasher, Hasher};
        let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(n);
            h.write_u128(now);
            h.write_u32(std::process::id());
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes
}

/// 128 random bits as hex ([`random_bytes`]).
fn token() -> String {
    random_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

fn is_token(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A writer's own staging subdirectory, locked while the value lives.
/// Dropping it removes the subdirectory and everything in it.
#[derive(Debug)]
pub struct Staging {
    root: PathBuf,
    dir: PathBuf,
    lock: Option<File>,
}

impl Staging {
    /// A fresh staging subdirectory beside `target` (under `<parent>/.usched-staging/`).
    pub fn new(target: &Path) -> Result<Staging> {
        let name = file_name(target)?;
        let root = parent(target).join(STAGING);
        let mut last = None;
        for _ in 0..100 {
            match fs::create_dir(&root) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot create {}", terminal_path(&root)));
                }
            }
            let meta = match fs::symlink_metadata(&root) {
                Ok(m) => m,
                // Another writer removed the empty staging folder just now.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    last = Some(e);
                    continue;
                }
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot create {}", terminal_path(&root)));
                }
            };
            if !meta.is_dir() {
                bail!(
                    "{} is not a directory (the tool's staging folder must be one); move it away",
                    terminal_path(&root)
                );
            }
            let token = token();
            let dir = root.join(&token);
            match fs::create_dir(&dir) {
                Ok(()) => {}
                // Another writer removed the empty staging folder just now.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    last = Some(e);
                    continue;
                }
                Err(e) => {
                    let _ = fs::remove_dir(&root);
                    return Err(e)
                        .with_context(|| format!("cannot create {}", terminal_path(&dir)));
                }
            }
            let owner = dir.join(OWNER);
            let lock = OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&owner)
                .and_then(|f| f.lock().map(|()| f));
            let lock = match lock {
                Ok(lock) => lock,
                Err(e) => {
                    // Nobody else may touch a subdirectory without a valid owner.
                    let _ = fs::remove_dir_all(&dir);
                    let _ = fs::remove_dir(&root);
                    return Err(e)
                        .with_context(|| format!("cannot create {}", terminal_path(&owner)));
                }
            };
            // From here on, dropping `staging` removes the subdirectory.
            let mut staging = Staging {
                root: root.clone(),
                dir,
                lock: Some(lock),
            };
            // Written only under the lock: a valid owner file with a free
            // lock belongs to a writer that is gone.
            if let Some(lock) = staging.lock.as_mut() {
                lock.write_all(format!("{OWNER_MAGIC} {token}\n{name}\n").as_bytes())
                    .with_context(|| format!("cannot write {}", terminal_path(&owner)))?;
            }
            return Ok(staging);
        }
        Err(last.unwrap_or_else(|| io::Error::other("retries exhausted")))
            .with_context(|| format!("cannot create {}", terminal_path(&root)))
    }

    /// A path inside the subdirectory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Leaves everything as a killed writer would: files stay, the lock
    /// goes (tests use this to stand for a kill).
    pub fn interrupt(mut self) {
        self.lock = None;
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if let Some(lock) = self.lock.take() {
            // Removed while still locked, so no cleaner can take it first.
            let _ = fs::remove_dir_all(&self.dir);
            drop(lock);
            // Only if empty: other writers may be at work.
            let _ = fs::remove_dir(&self.root);
        }
    }
}

/// What [`recover`] did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recovery {
    /// Results put back where an interrupted swap had left nothing.
    pub restored: Vec<PathBuf>,
    /// Staging subdirectories of writers that are gone, deleted.
    pub removed: Vec<PathBuf>,
}

impl Recovery {
    fn extend(&mut self, other: Recovery) {
        self.restored.extend(other.restored);
        self.removed.extend(other.removed);
    }
}

/// The output name a dead writer's staging subdirectory `dir` (named
/// `token`) was for, with the writer's lock taken; `None` if the
/// subdirectory is not provably the tool's or its writer is alive.
fn claim_dead(dir: &Path, token: &str) -> Option<(File, String)> {
    let owner = dir.join(OWNER);
    if !fs::symlink_metadata(&owner).ok()?.is_file() {
        return None;
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&owner)
        .ok()?;
    file.try_lock().ok()?;
    let mut text = String::new();
    Read::by_ref(&mut file)
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    let (first, rest) = text.split_once('\n')?;
    let name = rest.strip_suffix('\n')?;
    (first == format!("{OWNER_MAGIC} {token}") && !name.contains('/') && !name.is_empty())
        .then(|| (file, name.to_string()))
}

/// Repairs what writers that are gone left in `dir`'s staging folder: a
/// results directory an interrupted swap had set aside goes back if its
/// name is free (the newest, if several); the rest of each dead writer's
/// staging subdirectory is deleted. Live writers' work, and anything not
/// provably the tool's, is left alone.
pub fn recover_dir(dir: &Path) -> Result<Recovery> {
    let root = dir.join(STAGING);
    let mut recovery = Recovery::default();
    match fs::symlink_metadata(&root) {
        Ok(m) if m.is_dir() => {}
        _ => return Ok(recovery),
    }
    let entries =
        fs::read_dir(&root).with_context(|| format!("cannot list {}", terminal_path(&root)))?;
    let mut found: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.to_string(), e.path())))
        .filter(|(name, path)| {
            is_token(name) && fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
        })
        .collect();
    found.sort();
    // Every dead writer's lock is held until its subdirectory is gone.
    let dead: Vec<(File, String, PathBuf)> = found
        .into_iter()
        .filter_map(|(token, path)| {
            let (lock, name) = claim_dead(&path, &token)?;
            Some((lock, name, path))
        })
        .collect();
    // A name left empty gets the newest results any dead writer set aside.
    let mut names: Vec<&str> = dead.iter().map(|(_, n, _)| n.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let target = dir.join(name);
        if exists(&target) {
            continue;
        }
        let newest = dead
            .iter()
            .filter(|(_, n, _)| n == name)
            .flat_map(|(_, _, path)| (0..MAX_ATTEMPTS).map(move |i| path.join(format!("old-{i}"))))
            .filter_map(|p| {
                let modified = fs::symlink_metadata(&p).ok()?.modified().ok();
                Some((modified, p))
            })
            .max();
        let Some((_, old)) = newest else {
            continue;
        };
        match fs::rename(&old, &target) {
            Ok(()) => recovery.restored.push(target),
            // Another process wrote new results there first.
            Err(_) if exists(&target) => {}
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot restore {} from {}",
                        terminal_path(&target),
                        terminal_path(&old)
                    )
                });
            }
        }
    }
    for (lock, _, path) in dead {
        remove(&path)
            .with_context(|| format!("cannot remove the stale {}", terminal_path(&path)))?;
        drop(lock);
        recovery.removed.push(path);
    }
    let _ = fs::remove_dir(&root);
    Ok(recovery)
}

/// [`recover_dir`] for the folder `path` is written in.
pub fn recover(path: &Path) -> Result<Recovery> {
    recover_dir(parent(path))
}

/// [`recover_dir`] on `root` and on its visible subdirectories, `depth`
/// levels down (symbolic links are not followed).
pub fn recover_tree(root: &Path, depth: usize) -> Result<Recovery> {
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

/// The longest file name most file systems take, in bytes.
pub const NAME_MAX: usize = 255;

/// Refuses a path with a component longer than [`NAME_MAX`] bytes (`what`
/// names where it came from), before any work is done for it.
pub fn check_name_lengths(path: &Path, what: &str) -> Result<()> {
    if let Some(c) = path
        .components()
        .map(|c| c.as_os_str())
        .find(|c| c.len() > NAME_MAX)
    {
        bail!(
            "{what}: the name '{}…' is {} bytes, above the {NAME_MAX}-byte limit of file names; \
             shorten it",
            c.to_string_lossy().chars().take(32).collect::<String>(),
            c.len()
        );
    }
    Ok(())
}

/// Writes a file at `path` through `fill`, which gets a fresh staging path
/// to write (and may check what it wrote); then renames it into place. On
/// error nothing is left behind.
pub fn write_file_with(path: &Path, fill: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    write_staged(path, fill, |tmp, path| {
        check_file_target(path, "")?;
        move_into_place(tmp, path)
    })
}

/// [`write_file_with`] with the last step, `finish(staged, path)`, the
/// caller's (`replace::write_output` checks again what it may replace).
fn write_staged(
    path: &Path,
    fill: impl FnOnce(&Path) -> Result<()>,
    finish: impl FnOnce(&Path, &Path) -> Result<()>,
) -> Result<()> {
    check_file_target(path, "")?;
    check_outside_results(path)?;
    let dir = parent(path);
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", terminal_path(dir)))?;
    // Best effort: a failure to tidy up must not stop the write.
    let _ = recover_dir(dir);
    let staging = Staging::new(path)?;
    let tmp = staging.path("new");
    fill(&tmp)?;
    finish(&tmp, path)
}

/// Renames the staged file `tmp` onto `path`.
fn move_into_place(tmp: &Path, path: &Path) -> Result<()> {
    fs::rename(tmp, path).with_context(|| {
        format!(
            "cannot move {} to {}",
            terminal_path(tmp),
            terminal_path(path)
        )
    })
}

/// Writes `contents` to a staging file, then renames it onto `path`.
pub fn write_file(path: &Path, contents: &[u8]) -> Result<()> {
    write_file_with(path, |tmp| {
        fs::write(tmp, contents).with_context(|| format!("cannot write {}", terminal_path(path)))
    })
}

/// Refuses to replace `dir` unless it is a results directory the tool
/// wrote (module docs); `names` are the files about to be written.
pub fn check_dir_target(dir: &Path, names: &[&str]) -> Result<()> {
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(_) => return Ok(()),
    };
    if meta.is_symlink() {
        bail!(
            "{} is a symbolic link; results replace only a directory the tool wrote, choose \
             another --out",
            terminal_path(dir)
        );
    }
    if !meta.is_dir() {
        bail!(
            "{} is {}, not a results directory; refusing to replace it, choose another --out",
            terminal_path(dir),
            not_regular(&meta).unwrap_or("a file")
        );
    }
    let marker = dir.join(RESULTS_MARKER);
    let has_marker = fs::symlink_metadata(&marker).is_ok_and(|m| m.is_file());
    let legacy = if has_marker {
        match manifest::check(dir, &marker)? {
            manifest::Marker::Manifest => return Ok(()),
            manifest::Marker::Legacy => true,
            manifest::Marker::Unknown => false,
        }
    } else {
        false
    };
    // Another writer may move the directory aside at any moment (the last
    // one wins): a directory gone is nothing to refuse.
    let gone = |e: &io::Error| e.kind() == io::ErrorKind::NotFound;
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if gone(&e) => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", terminal_path(dir))),
    };
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) if gone(&e) => return Ok(()),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot list {}", terminal_path(dir)));
            }
        };
        let name = entry.file_name();
        // Without a marker, files named as the tool's may be a user's.
        let ours = has_marker
            && name.to_str().is_some_and(|n| {
                names.contains(&n)
                    // Or another writer's results swapped in meanwhile.
                    || (n == RESULTS_MARKER && (legacy || manifest::is_tool_marker(&marker)))
            })
            && entry.file_type().is_ok_and(|t| t.is_file());
        if !ours {
            bail!(
                "{} was not written by cargo xtask (it has no {RESULTS_MARKER} listing its files, \
                 and holds {}); refusing to replace it: move it away or choose another --out",
                terminal_path(dir),
                terminal_path(Path::new(&name))
            );
        }
    }
    Ok(())
}

/// Writes `files` into a staging directory, then swaps it in for `dir`
/// (see the module docs). On error nothing is left behind and a previous
/// `dir` is in place. A name ending in `/` makes that directory (its
/// contents are ignored), for the names after it to fill.
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
/// kill would: [`DirSwap::stage`] fills the staging directory, each
/// [`DirSwap::step`] is one rename, [`DirSwap::finish`] deletes the
/// directories set aside, [`DirSwap::interrupt`] stops as a kill would.
/// Dropped unfinished, it aborts ([`DirSwap::abort`]).
#[derive(Debug)]
pub struct DirSwap {
    dir: PathBuf,
    names: Vec<String>,
    staging: Option<Staging>,
    new: PathBuf,
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
    /// Checks that `dir` may be replaced, repairs what dead writers left
    /// beside it ([`recover`]), then writes `files` into a fresh staging
    /// directory.
    pub fn stage(dir: &Path, files: &[(&str, String)]) -> Result<DirSwap> {
        let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
        check_outside_results(dir)?;
        check_dir_target(dir, &names)?;
        let parent = parent(dir);
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", terminal_path(parent)))?;
        // Best effort: debris must not stop new results.
        let _ = recover_dir(parent);
        let staging = Staging::new(dir)?;
        let new = staging.path("new");
        fill(&new, files).with_context(|| format!("cannot write {}", terminal_path(dir)))?;
        Ok(DirSwap {
            dir: dir.to_path_buf(),
            names: names.iter().map(|n| n.to_string()).collect(),
            staging: Some(staging),
            new,
            aside: Vec::new(),
            installed: false,
        })
    }

    /// One rename: the new directory into place, or, if the name is
    /// taken, the directory holding it aside.
    pub fn step(&mut self) -> Result<Step> {
        let err = match fs::rename(&self.new, &self.dir) {
            Ok(()) => {
                self.installed = true;
                return Ok(Step::Installed);
            }
            Err(e) if taken(&e) => e,
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot move {} to {}",
                        terminal_path(&self.new),
                        terminal_path(&self.dir)
                    )
                });
            }
        };
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        check_dir_target(&self.dir, &names)?;
        let staging = self
            .staging
            .as_ref()
            .ok_or_else(|| anyhow!("{}: the swap was given up", terminal_path(&self.dir)))?;
        let old = staging.path(&format!("old-{}", self.aside.len()));
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
                    terminal_path(&self.dir)
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
            terminal_path(&dir)
        )
    }

    /// Deletes the directories set aside (after [`Step::Installed`]).
    pub fn finish(mut self) -> Result<()> {
        if !self.installed {
            bail!(
                "{}: the new results are not in place yet",
                terminal_path(&self.dir)
            );
        }
        let staging = self.staging.take();
        let dir = staging.as_ref().map(|s| s.dir.clone());
        drop(staging);
        match dir {
            Some(d) if exists(&d) => bail!(
                "cannot remove the previous results in {}",
                terminal_path(&d)
            ),
            _ => Ok(()),
        }
    }

    /// Gives up: the newest directory set aside goes back if the name is
    /// free, everything else of this writer is deleted.
    pub fn abort(mut self) {
        self.give_up();
    }

    fn give_up(&mut self) {
        if !self.installed
            && !exists(&self.dir)
            && let Some(last) = self.aside.last()
        {
            let _ = fs::rename(last, &self.dir);
        }
        self.staging = None;
    }

    /// Stops here, as a kill would: everything stays, the lock goes.
    pub fn interrupt(mut self) {
        if let Some(s) = self.staging.take() {
            s.interrupt();
        }
    }
}

impl Drop for DirSwap {
    fn drop(&mut self) {
        if self.staging.is_some() {
            self.give_up();
        }
    }
}

fn fill(tmp: &Path, files: &[(&str, String)]) -> Result<()> {
    fs::create_dir(tmp).with_context(|| format!("cannot create {}", terminal_path(tmp)))?;
    let marker = manifest::marker_text(files);
    let marker = std::iter::once((RESULTS_MARKER, marker.as_str()));
    for (name, contents) in files.iter().map(|(n, c)| (*n, c.as_str())).chain(marker) {
        let path = tmp.join(name);
        // A name ending in `/` is a directory the names after it fill
        // (`schedules/`, then `schedules/<run>.swf`).
        if name.ends_with('/') {
            fs::create_dir(&path)
                .with_context(|| format!("cannot create {}", terminal_path(&path)))?;
            continue;
        }
        fs::write(&path, contents)
            .with_context(|| format!("cannot write {}", terminal_path(&path)))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_hex() {
        let (a, b) = (token(), token());
        assert!(is_token(&a) && is_token(&b) && a != b, "{a} {b}");
        assert!(!is_token("thesis.tex.tmp-4000000"));
    }
}

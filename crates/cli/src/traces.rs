//! Finding, verifying and reading traces.
//!
//! A trace named in a configuration or on the command line is looked for,
//! in order:
//!
//! 1. a path to an existing `.swf`/`.swf.gz` file (used as it is);
//! 2. `$TRACES_DIR`;
//! 3. the repository's `traces/`, where the logs the reproductions need are
//!    committed;
//! 4. the cache (`traces/cache/`, or `$TRACES_CACHE`);
//! 5. a download of a known trace into the cache with `curl` from
//!    `$TRACES_MIRROR/<name>.swf.gz` (default: the Parallel Workloads
//!    Archive's directory for that trace; `http(s)://` or `file://` only),
//!    tried at most once per trace per process, with connect and total
//!    timeouts, at most [`download_cap`] bytes, staged and verified before
//!    it enters the cache (crate::output);
//! 6. only when asked for (`--stand-in`, or `stand_in = true` on the
//!    workload), a seeded Lublin99 stand-in of the same machine size over
//!    the log's span, announced loudly as NOT the trace; otherwise a
//!    missing trace is an error that names every place looked at (the
//!    default; `--no-stand-in` and `TRACES_NO_STAND_IN=1` are still
//!    accepted and say the same).
//!
//! A known trace is verified by the SHA-256 of its SWF text (after
//! decompression), so the archive's `.swf.gz`, a recompressed copy and a
//! plain `.swf` all verify; a copy with other content is skipped with a
//! warning and the search goes on. Files are read through [`crate::files`]
//! (regular files only, capped) and streamed: checksums and parsing never
//! hold a trace whole in memory.

use crate::exit::say_err;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use anyhow::{Context, Result, bail};
use experiments::encode::{terminal_name, terminal_path};
use experiments::{KNOWN_TRACES, KnownTrace, Source, known_trace};

use crate::{files, output};

/// The Parallel Workloads Archive.
pub const ARCHIVE: &str = "http://www.cs.huji.ac.il/labs/parallel/workload/";

/// `curl --connect-timeout`, seconds.
pub const CONNECT_TIMEOUT_S: u32 = 10;
/// `curl --max-time` (the whole transfer), seconds. The largest known
/// trace is 4 MB compressed.
pub const MAX_TIME_S: u32 = 300;

/// Where traces are looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceSettings {
    /// `$TRACES_DIR`, searched first.
    pub traces_dir: Option<PathBuf>,
    /// The repository's `traces/` (the committed logs), searched second.
    pub repo_traces: Option<PathBuf>,
    /// The download cache, searched third.
    pub cache: PathBuf,
    /// `$TRACES_MIRROR`: base URL replacing the archive (flat layout).
    pub mirror: Option<String>,
    /// Stand-ins are refused (the default; `--stand-in`, or a workload's
    /// `stand_in = true`, allows them): a missing known trace is an error
    /// that lists where it was looked for.
    pub no_stand_in: bool,
}

impl TraceSettings {
    /// Settings from the environment, for the repository at `root`.
    pub fn from_env(root: &Path) -> TraceSettings {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        TraceSettings {
            traces_dir: var("TRACES_DIR").map(PathBuf::from),
            repo_traces: Some(root.join("traces")),
            cache: var("TRACES_CACHE")
                .map_or_else(|| root.join("traces").join("cache"), PathBuf::from),
            mirror: var("TRACES_MIRROR"),
            // Refused unless `--stand-in` or a workload asks for one;
            // TRACES_NO_STAND_IN is accepted and changes nothing.
            no_stand_in: true,
        }
    }

    /// The directories searched, in order, with how they are named in messages.
    fn dirs(&self) -> [(&'static str, Option<&Path>); 3] {
        [
            ("TRACES_DIR", self.traces_dir.as_deref()),
            ("the repository's traces/", self.repo_traces.as_deref()),
            ("the cache", Some(self.cache.as_path())),
        ]
    }
}

/// Where a trace was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A file on disk.
    File {
        /// Its path.
        path: PathBuf,
        /// The known trace it is, if any (then its content was verified).
        known: Option<&'static KnownTrace>,
    },
    /// Nothing found: a generated stand-in.
    StandIn(&'static KnownTrace),
}

/// Whether `--trace` or a config's trace `name` is a file's path (then it
/// is read from there, never looked up): not a known trace's name, and
/// holding a `/` or ending in `.swf` or `.swf.gz`.
pub fn is_path(name: &str) -> bool {
    known_trace(name).is_none() && looks_like_path(name)
}

fn looks_like_path(name: &str) -> bool {
    name.contains('/') || name.contains('\\') || name.ends_with(".swf") || name.ends_with(".swf.gz")
}

/// What `name` (a bare word, read as a trace name) is in `base`, if
/// anything there has that name: a word without a `/` or a `.swf` ending
/// is a trace's name, so a directory or file of that name was not read.
fn bare_word_here(name: &str, base: &Path) -> String {
    let Ok(meta) = std::fs::metadata(base.join(name)) else {
        return String::new();
    };
    let what = if meta.is_dir() {
        "a directory, not a trace file"
    } else {
        "a file; to read it as a trace, give its path"
    };
    format!(
        " '{}' here is {what} (a name without '/' or a .swf/.swf.gz ending is a trace's name; \
         ./{} is a path).",
        terminal_name(name),
        terminal_name(name)
    )
}

/// The files in `dir` that may hold trace `stem`, compressed first.
fn candidates(dir: &Path, stem: &str) -> Vec<PathBuf> {
    [format!("{stem}.swf.gz"), format!("{stem}.swf")]
        .into_iter()
        .map(|f| dir.join(f))
        // A FIFO or device under a trace's name is reported when it is read.
        .filter(|p| std::fs::metadata(p).is_ok())
        .collect()
}

/// Locks a process-wide table; a panic elsewhere does not poison it.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A reader that hashes every byte that passes through it, so a trace is
/// verified while it streams into the parser, never held whole in memory.
struct Hashing<R> {
    inner: R,
    hasher: sha2::Sha256,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use sha2::Digest as _;
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

impl<R: Read> Hashing<R> {
    fn new(inner: R) -> Self {
        use sha2::Digest as _;
        Hashing {
            inner,
            hasher: sha2::Sha256::new(),
        }
    }

    /// Reads what is left and returns the hex SHA-256 of everything read.
    fn finish(mut self) -> std::io::Result<String> {
        use sha2::Digest as _;
        std::io::copy(&mut self, &mut std::io::sink())?;
        Ok(self
            .hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect())
    }
}

/// Where the two checksums of a trace come from while it streams: the
/// file's bytes (`raw`) and its SWF text, decompressed as it is read if
/// the file is gzip (capped at [`files::trace_text`]).
fn text_of<'a>(
    raw: &'a mut Hashing<files::Capped<std::fs::File>>,
    path: &Path,
) -> Result<Box<dyn Read + 'a>> {
    let mut buffered = std::io::BufReader::with_capacity(1 << 16, raw);
    let head = buffered
        .fill_buf()
        .with_context(|| format!("cannot read trace {}", terminal_path(path)))?;
    Ok(if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(files::Capped::new(
            flate2::read::MultiGzDecoder::new(buffered),
            path,
            files::trace_text(crate::config::trace_limits()?.max_bytes),
        ))
    } else {
        Box::new(buffered)
    })
}

/// The cap on a trace file as stored: the reader's byte cap.
fn trace_file_cap() -> Result<files::Cap> {
    Ok(files::trace_file(crate::config::trace_limits()?.max_bytes))
}

fn open_trace(path: &Path) -> Result<Hashing<files::Capped<std::fs::File>>> {
    Ok(Hashing::new(
        files::open(path, trace_file_cap()?).context("cannot read trace")?,
    ))
}

/// SHA-256 of the SWF text of `path`, streamed.
fn stream_sha256(path: &Path) -> Result<String> {
    let mut raw = open_trace(path)?;
    Hashing::new(text_of(&mut raw, path)?)
        .finish()
        .with_context(|| format!("{} is not a valid gzip file", terminal_path(path)))
}

/// A file's identity for the checksum memo: path, length and mtime.
type FileKey = (PathBuf, u64, Option<SystemTime>);

/// Content checksums computed in this process, so a trace used by many
/// experiments is decompressed and hashed for verification once.
static CONTENT_SHA: Mutex<BTreeMap<FileKey, String>> = Mutex::new(BTreeMap::new());

fn file_key(path: &Path) -> Option<FileKey> {
    let meta = std::fs::metadata(path).ok()?;
    Some((path.to_path_buf(), meta.len(), meta.modified().ok()))
}

/// SHA-256 of the SWF text of `path` (decompressed if gzip).
pub fn content_sha256(path: &Path) -> Result<String> {
    let key = file_key(path);
    if let Some(sha) = key
        .as_ref()
        .and_then(|k| lock(&CONTENT_SHA).get(k).cloned())
    {
        return Ok(sha);
    }
    let sha = stream_sha256(path)?;
    if let Some(k) = key {
        lock(&CONTENT_SHA).insert(k, sha.clone());
    }
    Ok(sha)
}

/// Checks that `path` holds the SWF text of `known`; the error says what
/// was found instead.
pub fn verify(path: &Path, known: &KnownTrace) -> Result<()> {
    let sha = content_sha256(path)?;
    if sha != known.content_sha256 {
        bail!(
            "{} is not {}: the sha256 of its SWF text is {sha}, expected {}",
            terminal_path(path),
            known.name,
            known.content_sha256
        );
    }
    Ok(())
}

/// Finds the trace `name` (a known name, another name in the search
/// directories, or a path relative to `base`).
pub fn resolve(name: &str, base: &Path, settings: &TraceSettings) -> Result<Found> {
    // Downloads of processes that died are deleted (crate::output).
    if let Err(e) = output::recover_dir(&settings.cache) {
        say_err!("warning: cannot tidy the trace cache: {e:#}");
    }
    let known = known_trace(name);
    if known.is_none() && looks_like_path(name) {
        // Relative to the current directory, the path as typed (not
        // `./name`, nor `././name` for `./name`).
        let path = if base == Path::new(".") {
            PathBuf::from(name)
        } else {
            base.join(name)
        };
        // Only a path that is not there "does not exist": a link loop or a
        // folder without permission is named by the error of reading it.
        if !matches!(std::fs::metadata(&path), Err(e) if e.kind() == std::io::ErrorKind::NotFound) {
            // Anything but a regular file is refused when it is read.
            if let Err(e) = files::open(&path, trace_file_cap()?) {
                bail!("trace {e:#}");
            }
            return Ok(Found::File { path, known: None });
        }
        bail!(
            "trace file {} does not exist; give an existing .swf or .swf.gz file or a known trace name",
            terminal_path(&path)
        );
    }
    let stem = known.map_or(name, |k| k.name);
    let mut looked = Vec::new();
    for (label, dir) in settings.dirs() {
        let Some(dir) = dir else {
            looked.push(format!("{label}: not set"));
            continue;
        };
        let files = candidates(dir, stem);
        if files.is_empty() {
            // A mistyped directory says so, not only that the trace is not
            // in it.
            let why = match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => String::new(),
                Ok(_) => ", which is not a directory".to_string(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    ", which does not exist".to_string()
                }
                Err(e) => format!(", which cannot be read: {e}"),
            };
            looked.push(format!(
                "{label} ({}{why}): no {stem}.swf.gz or {stem}.swf",
                terminal_path(dir),
                stem = terminal_name(stem)
            ));
        }
        for path in files {
            let Some(known) = known else {
                return Ok(Found::File { path, known: None });
            };
            match verify(&path, known) {
                Ok(()) => {
                    return Ok(Found::File {
                        path,
                        known: Some(known),
                    });
                }
                Err(e) => {
                    say_err!("warning: skipped: {e:#}");
                    looked.push(format!("{label}: {e:#}"));
                }
            }
        }
    }
    let Some(known) = known else {
        let names: Vec<&str> = KNOWN_TRACES.iter().map(|t| t.name).collect();
        bail!(
            "trace '{}' was not found and is not a known trace ({}); give a path to a .swf/.swf.gz file.{} Looked in:\n  {}",
            terminal_name(name),
            names.join(", "),
            bare_word_here(name, base),
            looked.join("\n  ")
        );
    };
    let url = download_url(known, settings.mirror.as_deref());
    match download_once(known, settings) {
        Ok(path) => {
            return Ok(Found::File {
                path,
                known: Some(known),
            });
        }
        Err(e) => looked.push(format!("download from {url}: {e}")),
    }
    if settings.no_stand_in {
        let why = "stand-ins are refused unless asked for (`--stand-in`, or `stand_in = true` on the workload, gives a Lublin99 stand-in)";
        bail!(
            "trace {} is not available and {why}. Looked in:\n  {}\nset TRACES_DIR to a directory holding {} (or .swf), or run from a clone whose traces/ has it",
            known.name,
            looked.join("\n  "),
            known.file_name()
        );
    }
    if lock(&ANNOUNCED).insert(known.name) {
        // One message (one Python warning), its lines together.
        say_err!(
            "{}\nlooked in:\n  {}",
            stand_in_banner(known),
            looked.join("\n  ")
        );
    } else {
        say_err!(
            "STAND-IN for {} (NOT the trace; see the warning above)",
            known.name
        );
    }
    Ok(Found::StandIn(known))
}

/// Known traces whose stand-in banner this process has printed.
static ANNOUNCED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// The loud announcement of a stand-in.
pub fn stand_in_banner(known: &KnownTrace) -> String {
    let line = "!".repeat(78);
    format!(
        "{line}\n!! STAND-IN: {} not found (TRACES_DIR, traces/, cache, download all failed).\n!! Using a seeded Lublin99 workload of {} procs over the log's {} days instead.\n!! Results are NOT those of the trace (nor comparable to a paper). Set TRACES_DIR\n!! to the real traces, or drop --stand-in / `stand_in = true` to make it an error.\n{line}",
        known.file_name(),
        known.procs,
        known.span_days()
    )
}

/// The URL a known trace is downloaded from.
pub fn download_url(known: &KnownTrace, mirror: Option<&str>) -> String {
    match mirror {
        Some(m) => format!("{}/{}", m.trim_end_matches('/'), known.file_name()),
        None => format!("{ARCHIVE}{}/{}", known.archive_dir, known.file_name()),
    }
}

/// Downloads tried in this process, by URL, with their outcome (the path,
/// or why it failed). The lock is held during a download, so threads that
/// want the same trace wait for the one attempt instead of starting another.
static DOWNLOADS: Mutex<BTreeMap<String, Result<PathBuf, String>>> = Mutex::new(BTreeMap::new());

/// How many times this process has run curl for each URL.
static ATTEMPTS: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());

/// How many times this process has run curl for `url` (at most 1).
pub fn download_attempts(url: &str) -> usize {
    lock(&ATTEMPTS).get(url).copied().unwrap_or(0)
}

/// Downloads a known trace into the cache, once per process: a failure is
/// remembered and returned again without a new attempt.
fn download_once(known: &KnownTrace, settings: &TraceSettings) -> Result<PathBuf, String> {
    let url = download_url(known, settings.mirror.as_deref());
    let mut downloads = lock(&DOWNLOADS);
    if let Some(outcome) = downloads.get(&url) {
        return match outcome {
            Ok(path) if path.is_file() => Ok(path.clone()),
            Ok(path) => Err(format!(
                "downloaded earlier in this run to {}, which is gone; not downloading again",
                terminal_path(path)
            )),
            Err(e) => Err(format!("{e} (earlier in this run; not tried again)")),
        };
    }
    // A failure is reported by the caller, with everything else it tried.
    let outcome = download(known, &url, &settings.cache).map_err(|e| format!("{e:#}"));
    downloads.insert(url, outcome.clone());
    outcome
}

/// The most a download of `known` may be: its SWF text is at most one
/// line per job of at most [`swf_io`]'s line length, plus a header, and
/// gzip never needs much more than the text.
pub fn download_cap(known: &KnownTrace) -> files::Cap {
    files::Cap {
        bytes: (known.jobs as u64)
            .saturating_mul(256)
            .saturating_add(1 << 20),
        what: "downloads of this trace",
        hint: "check TRACES_MIRROR: the file there is not the archive's trace",
    }
}

/// Refuses a mirror URL that is not `http://`, `https://` or `file://`, or
/// holds a control character or a space.
pub fn check_mirror(url: &str) -> Result<()> {
    let scheme = ["http://", "https://", "file://"].iter().any(|s| {
        url.get(..s.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(s))
    });
    if !scheme || url.chars().any(|c| c.is_control() || c == ' ') {
        bail!(
            "TRACES_MIRROR is '{}', expected an http://, https:// or file:// URL without spaces              or control characters",
            url.escape_debug()
        );
    }
    Ok(())
}

/// Downloads `url` into the cache as `known`'s file; it is kept only if its
/// SWF text has the known checksum. curl writes to a pipe that this process
/// copies into a staging file, stopping past [`download_cap`].
fn download(known: &KnownTrace, url: &str, cache: &Path) -> Result<PathBuf> {
    check_mirror(url)?;
    std::fs::create_dir_all(cache)
        .with_context(|| format!("cannot create the trace cache {}", terminal_path(cache)))?;
    let dest = cache.join(known.file_name());
    // A download is verified before it is renamed into place, so a file
    // there that is not the trace (the lookup skipped it) was not made by
    // this tool: it is the user's to keep.
    if std::fs::symlink_metadata(&dest).is_ok() {
        bail!(
            "the trace cache holds {}, which is not the archive's trace, and a download would \
             replace it; move it away (or delete it) and run again",
            terminal_path(&dest)
        );
    }
    *lock(&ATTEMPTS).entry(url.to_string()).or_insert(0) += 1;
    let cap = download_cap(known);
    say_err!(
        "downloading {url} (timeouts: connect {CONNECT_TIMEOUT_S} s, total {MAX_TIME_S} s; at most {}) ...",
        files::human(cap.bytes)
    );
    output::write_file_with(&dest, |tmp| {
        fetch(url, tmp, cap)?;
        verify(tmp, known).map_err(|e| anyhow::anyhow!("{e:#}; the download was deleted"))
    })
    .with_context(|| format!("cannot download {}", known.file_name()))?;
    say_err!("saved {} (SWF text sha256 verified)", terminal_path(&dest));
    Ok(dest)
}

/// Runs curl for `url`, copying at most `cap` bytes of what it prints into `tmp`.
fn fetch(url: &str, tmp: &Path, cap: files::Cap) -> Result<()> {
    let child = Command::new("curl")
        .args(["--fail", "--silent", "--show-error", "--location"])
        .args(["--proto", "=http,https,file"])
        .args(["--connect-timeout", &CONNECT_TIMEOUT_S.to_string()])
        .args(["--max-time", &MAX_TIME_S.to_string()])
        .args(["--max-filesize", &cap.bytes.to_string()])
        .args(["--output", "-", "--"])
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => bail!("cannot run curl ({e}); install curl or set TRACES_DIR"),
    };
    let stderr = child.stderr.take().map(|mut err| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.by_ref().take(64 * 1024).read_to_string(&mut text);
            text
        })
    });
    let copied = (|| -> Result<()> {
        let stdout = child.stdout.take().context("curl has no output")?;
        let mut file = std::fs::File::create(tmp)
            .with_context(|| format!("cannot write {}", terminal_path(tmp)))?;
        std::io::copy(
            &mut files::Capped::new(stdout, Path::new(url), cap),
            &mut file,
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(())
    })();
    if copied.is_err() {
        // Our own child: stop it rather than wait for the rest.
        let _ = child.kill();
    }
    let status = child.wait().context("cannot wait for curl")?;
    let said = stderr
        .and_then(|t| t.join().ok())
        .unwrap_or_default()
        .trim()
        .to_string();
    copied?;
    if !status.success() {
        let said = if said.is_empty() {
            "curl failed"
        } else {
            &said
        };
        bail!("{said} ({status}); check the network or TRACES_MIRROR, or set TRACES_DIR");
    }
    Ok(())
}

/// Traces read in this process, by file identity and mode, so that a batch
/// of experiments on one trace decompresses, hashes and parses it once
/// (every experiment reads its traces before the batch runs, one after
/// another). Traces with skipped lines are not kept: their errors cannot
/// be copied.
static READ: Mutex<BTreeMap<(FileKey, bool), Source>> = Mutex::new(BTreeMap::new());

/// The trace files this process has read (or begun to read): an output
/// written after them must not be one of them.
static FILES: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// The trace files this process has read, as they were found.
pub fn files_read() -> Vec<PathBuf> {
    lock(&FILES).iter().cloned().collect()
}

/// A copy of a trace `source` read from a file, unless it is a stand-in or
/// had lines skipped (an error cannot be copied).
fn copy_trace(source: &Source) -> Option<Source> {
    let Source::Trace {
        file,
        sha256,
        file_sha256,
        trace,
        note,
    } = source
    else {
        return None;
    };
    if trace.skipped_count > 0 {
        return None;
    }
    let copy = swf_io::Trace {
        source: trace.source.clone(),
        header: trace.header.clone(),
        records: trace.records.clone(),
        skipped: Vec::new(),
        skipped_count: 0,
    };
    let copy = Source::trace(file.clone(), sha256.clone(), copy, note.clone());
    Some(match file_sha256 {
        Some(sha) => copy.with_file_sha256(sha.clone()),
        None => copy,
    })
}

/// Reads a found trace. The reported checksum is that of its SWF text; the
/// file's own checksum is kept for provenance.
pub fn load(found: &Found, lenient: bool) -> Result<Source> {
    let (path, known) = match found {
        Found::StandIn(known) => return Ok(Source::stand_in(known)),
        Found::File { path, known } => (path, known),
    };
    lock(&FILES).insert(path.clone());
    let key = file_key(path).map(|k| (k, lenient));
    if let Some(read) = key
        .as_ref()
        .and_then(|k| lock(&READ).get(k).and_then(copy_trace))
    {
        if let Source::Trace {
            note: Some(note), ..
        } = &read
        {
            say_err!("warning: {note}");
        }
        return Ok(read);
    }
    let mut raw = open_trace(path)?;
    let mode = if lenient {
        swf_io::Mode::Lenient
    } else {
        swf_io::Mode::Strict
    };
    // The text streams through the hash into the parser; the error names
    // the file, line and field.
    let mut hashing = Hashing::new(text_of(&mut raw, path)?);
    let trace = swf_io::SwfReader::with_limits(
        std::io::BufReader::with_capacity(1 << 16, &mut hashing),
        path.display().to_string(),
        mode,
        crate::config::trace_limits()?,
    )
    .and_then(swf_io::SwfReader::into_trace)
    .map_err(|e| match crate::config::trace_limit_hint(&e) {
        Some(hint) => anyhow::anyhow!("{e}; {hint}"),
        None => e.into(),
    })?;
    let content_sha256 = hashing
        .finish()
        .with_context(|| format!("{} is not a valid gzip file", terminal_path(path)))?;
    // What the decompressor left unread (a gzip trailer) is hashed too.
    let file_sha256 = raw
        .finish()
        .with_context(|| format!("cannot read trace {}", terminal_path(path)))?;
    if let Some(key) = file_key(path) {
        lock(&CONTENT_SHA).insert(key, content_sha256.clone());
    }
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    // `resolve` verified known traces; this catches a file changed since.
    let note = match known {
        Some(k) if content_sha256 != k.content_sha256 => {
            let note = format!(
                "sha256 of the SWF text of {file} differs from the archive's ({}); results may not match",
                k.content_sha256
            );
            say_err!("warning: {note}");
            Some(note)
        }
        _ => None,
    };
    if trace.skipped_count > 0 {
        // One message (one Python warning), the skipped lines under it.
        let mut text = format!(
            "warning: {}: {} skipped (lenient mode):",
            terminal_path(path),
            crate::progress::count(trace.skipped_count, "malformed line")
        );
        // The reader keeps the first few (`swf_io::KEPT_SKIPPED`).
        for skipped in &trace.skipped {
            text.push_str(&format!("\n  {}", skipped.error));
        }
        let more = trace.skipped_count - trace.skipped.len() as u64;
        if more > 0 {
            text.push_str(&format!("\n  ... and {more} more"));
        }
        say_err!("{text}");
    }
    let source = Source::trace(file, content_sha256, trace, note).with_file_sha256(file_sha256);
    if let (Some(k), Some(copy)) = (key, copy_trace(&source)) {
        lock(&READ).insert(k, source);
        return Ok(copy);
    }
    Ok(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trace read twice is parsed once and given back whole; a file
    /// rewritten in between is read again.
    #[test]
    fn a_trace_is_read_once_until_it_changes() {
        let dir = std::env::temp_dir().join(format!("usched-traces-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("two.swf");
        let line = |id: u32| format!("{id} {id}0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n");
        std::fs::write(&path, format!("; MaxProcs: 8\n{}{}", line(1), line(2))).unwrap();
        let found = Found::File {
            path: path.clone(),
            known: None,
        };
        let records = |s: &Source| match s {
            Source::Trace { trace, sha256, .. } => (trace.records.clone(), sha256.clone()),
            _ => panic!("a file, not a stand-in"),
        };
        let first = records(&load(&found, false).unwrap());
        assert_eq!(first.0.len(), 2);
        assert_eq!(records(&load(&found, false).unwrap()), first);
        std::fs::write(
            &path,
            format!("; MaxProcs: 8\n{}{}{}", line(1), line(2), line(3)),
        )
        .unwrap();
        let changed = records(&load(&found, false).unwrap());
        assert_eq!(changed.0.len(), 3);
        assert_ne!(changed.1, first.1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

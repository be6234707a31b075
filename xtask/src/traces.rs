//! Finding and reading traces.
//!
//! A trace named in a configuration or on the command line is looked for,
//! in order: a path to an existing `.swf`/`.swf.gz` file; `$TRACES_DIR`;
//! the cache (`traces/cache/`, or `$TRACES_CACHE`); a download of a known
//! trace into the cache with `curl -fsSL` from `$TRACES_MIRROR/<name>.swf.gz`
//! (default: the Parallel Workloads Archive's directory for that trace),
//! kept only if its SHA-256 matches the table in `experiments`; and, last, a
//! seeded Lublin99 stand-in of the same machine size and job count,
//! announced loudly as NOT comparable to the paper.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use experiments::{KNOWN_TRACES, KnownTrace, Source, known_trace, sha256_hex};

/// The Parallel Workloads Archive.
pub const ARCHIVE: &str = "http://www.cs.huji.ac.il/labs/parallel/workload/";

/// Where traces are looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceSettings {
    /// `$TRACES_DIR`, searched first.
    pub traces_dir: Option<PathBuf>,
    /// The download cache.
    pub cache: PathBuf,
    /// `$TRACES_MIRROR`: base URL replacing the archive (flat layout).
    pub mirror: Option<String>,
    /// Whether a missing known trace may be replaced by a stand-in.
    pub allow_stand_in: bool,
}

impl TraceSettings {
    /// Settings from the environment, with the cache under `root`.
    pub fn from_env(root: &Path) -> TraceSettings {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        TraceSettings {
            traces_dir: var("TRACES_DIR").map(PathBuf::from),
            cache: var("TRACES_CACHE")
                .map_or_else(|| root.join("traces").join("cache"), PathBuf::from),
            mirror: var("TRACES_MIRROR"),
            allow_stand_in: true,
        }
    }
}

/// Where a trace was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A file on disk.
    File {
        /// Its path.
        path: PathBuf,
        /// The known trace it is, if any.
        known: Option<&'static KnownTrace>,
    },
    /// Nothing found: a generated stand-in.
    StandIn(&'static KnownTrace),
}

fn looks_like_path(name: &str) -> bool {
    name.contains('/') || name.contains('\\') || name.ends_with(".swf") || name.ends_with(".swf.gz")
}

fn in_dir(dir: &Path, name: &str) -> Option<PathBuf> {
    [format!("{name}.swf.gz"), format!("{name}.swf")]
        .into_iter()
        .map(|f| dir.join(f))
        .find(|p| p.is_file())
}

/// Finds the trace `name` (a known name, another name in the search
/// directories, or a path relative to `base`).
pub fn resolve(name: &str, base: &Path, settings: &TraceSettings) -> Result<Found> {
    let known = known_trace(name);
    if known.is_none() && looks_like_path(name) {
        let path = base.join(name);
        if path.is_file() {
            return Ok(Found::File { path, known: None });
        }
        bail!(
            "trace file {} does not exist; give an existing .swf or .swf.gz file or a known trace name",
            path.display()
        );
    }
    let stem = known.map_or(name, |k| k.name);
    let dirs = settings
        .traces_dir
        .iter()
        .chain(std::iter::once(&settings.cache));
    if let Some(path) = dirs.filter_map(|d| in_dir(d, stem)).next() {
        return Ok(Found::File { path, known });
    }
    let Some(known) = known else {
        let names: Vec<&str> = KNOWN_TRACES.iter().map(|t| t.name).collect();
        bail!(
            "trace '{name}' is not in TRACES_DIR or {} and is not a known trace ({}); give a path to a .swf/.swf.gz file",
            settings.cache.display(),
            names.join(", ")
        );
    };
    match download(known, settings) {
        Ok(path) => {
            return Ok(Found::File {
                path,
                known: Some(known),
            });
        }
        Err(e) => eprintln!("warning: {e:#}"),
    }
    if !settings.allow_stand_in {
        bail!(
            "trace {} is not available; set TRACES_DIR to a directory holding {}",
            known.name,
            known.file_name()
        );
    }
    eprintln!("{}", stand_in_banner(known));
    Ok(Found::StandIn(known))
}

/// The loud announcement of a stand-in.
pub fn stand_in_banner(known: &KnownTrace) -> String {
    let line = "!".repeat(78);
    format!(
        "{line}\n!! STAND-IN: {} not found (TRACES_DIR, cache, download all failed).\n!! Using a seeded Lublin99 workload of {} procs and {} jobs instead.\n!! Results are NOT comparable to the paper. Set TRACES_DIR to the real traces.\n{line}",
        known.file_name(),
        known.procs,
        known.jobs
    )
}

/// The URL a known trace is downloaded from.
pub fn download_url(known: &KnownTrace, mirror: Option<&str>) -> String {
    match mirror {
        Some(m) => format!("{}/{}", m.trim_end_matches('/'), known.file_name()),
        None => format!("{ARCHIVE}{}/{}", known.archive_dir, known.file_name()),
    }
}

/// Downloads a known trace into the cache; the file is kept only if its
/// SHA-256 matches.
fn download(known: &KnownTrace, settings: &TraceSettings) -> Result<PathBuf> {
    let url = download_url(known, settings.mirror.as_deref());
    std::fs::create_dir_all(&settings.cache)
        .with_context(|| format!("cannot create the trace cache {}", settings.cache.display()))?;
    let dest = settings.cache.join(known.file_name());
    let tmp = settings.cache.join(format!(
        ".{}.part-{}",
        known.file_name(),
        std::process::id()
    ));
    eprintln!("downloading {url} ...");
    let status = Command::new("curl")
        .arg("-fsSL")
        .arg("-o")
        .arg(&tmp)
        .arg(&url)
        .status();
    let ok = matches!(status, Ok(s) if s.success());
    if !ok {
        let _ = std::fs::remove_file(&tmp);
        bail!("download of {url} failed (is curl installed and the mirror reachable?)");
    }
    let bytes = std::fs::read(&tmp)
        .with_context(|| format!("cannot read the download {}", tmp.display()))?;
    let sha = sha256_hex(&bytes);
    if sha != known.sha256 {
        let _ = std::fs::remove_file(&tmp);
        bail!(
            "{url} has sha256 {sha}, expected {}; the download was deleted",
            known.sha256
        );
    }
    std::fs::rename(&tmp, &dest)
        .with_context(|| format!("cannot move the download to {}", dest.display()))?;
    eprintln!("saved {} (sha256 verified)", dest.display());
    Ok(dest)
}

/// Reads a found trace. A known `.swf.gz` whose checksum differs from the
/// archive's is used, with a warning carried into the outputs.
pub fn load(found: &Found, lenient: bool) -> Result<Source> {
    let (path, known) = match found {
        Found::StandIn(known) => return Ok(Source::stand_in(known)),
        Found::File { path, known } => (path, known),
    };
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read trace {}", path.display()))?;
    let sha256 = sha256_hex(&bytes);
    drop(bytes);
    let mode = if lenient {
        swf_io::Mode::Lenient
    } else {
        swf_io::Mode::Strict
    };
    // The error names the file, line and field.
    let trace = swf_io::read_trace(path, mode)?;
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    let note = match known {
        Some(k) if file.ends_with(".gz") && sha256 != k.sha256 => {
            let note = format!(
                "sha256 of {file} differs from the archive's ({}); results may not match",
                k.sha256
            );
            eprintln!("warning: {note}");
            Some(note)
        }
        _ => None,
    };
    if !trace.skipped.is_empty() {
        eprintln!(
            "warning: {}: {} malformed lines skipped (lenient mode):",
            path.display(),
            trace.skipped.len()
        );
        const SHOWN: usize = 20;
        for skipped in trace.skipped.iter().take(SHOWN) {
            eprintln!("  {}", skipped.error);
        }
        if trace.skipped.len() > SHOWN {
            eprintln!("  ... and {} more", trace.skipped.len() - SHOWN);
        }
    }
    Ok(Source::trace(file, sha256, trace, note))
}

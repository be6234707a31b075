//! [`Settings`]: everything a command needs from its environment (the
//! repository root, where results go, where traces are found, threads,
//! verbosity), and what derives from the root (the catalog of `configs/`,
//! paths as shown).

use std::path::{Path, PathBuf};

use anyhow::Result;
use experiments::Registry;

use crate::catalog::{self, Entry};
use crate::progress::Verbosity;
use crate::root::{self, RootError};
use crate::traces::TraceSettings;

/// Everything a command needs from the environment.
///
/// Build it with [`Settings::new`] (or [`Settings::from_env`]) and adjust
/// the fields; a field added later gets its default there.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Settings {
    /// The repository root ([`crate::root`]).
    pub root: PathBuf,
    /// Where results go (`--out DIR`, default `<root>/results`).
    pub results: PathBuf,
    /// Where traces are found.
    pub traces: TraceSettings,
    /// Worker threads.
    pub threads: usize,
    /// How much to print on stderr (`-q`, `-v`).
    pub verbosity: Verbosity,
    /// The kinds and policies configurations can name
    /// ([`Registry::builtin`] unless a front end adds its own).
    pub registry: Registry,
    /// Write every cell's per-job schedule (SWF and Batsim `jobs.csv`) into
    /// `<results>/<id>/schedules/` (`run --schedules`), for kinds that give
    /// one.
    pub schedules: bool,
    /// Leave the claims unchecked (`--no-claims`): no verdicts, no claims
    /// section in `summary.md`.
    pub no_claims: bool,
    /// `--replace`: results of another configuration or other data in
    /// `--out` may be replaced (else that is an error).
    pub replace: bool,
    /// `root` as it was when first resolved, and its real path, for
    /// [`Settings::shown`] (read again if `root` has changed since).
    real_root: std::sync::OnceLock<(PathBuf, Option<PathBuf>)>,
}

impl Settings {
    /// The settings for the repository at `root`: results in
    /// `<root>/results`, traces as the environment says
    /// ([`TraceSettings::from_env`]), a worker thread per CPU, normal
    /// verbosity.
    pub fn new(root: impl Into<PathBuf>) -> Settings {
        let root = root.into();
        Settings {
            results: root.join("results"),
            traces: TraceSettings::from_env(&root),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            verbosity: Verbosity::Normal,
            registry: Registry::builtin(),
            schedules: false,
            no_claims: false,
            replace: false,
            real_root: std::sync::OnceLock::new(),
            root,
        }
    }

    /// [`Settings::new`] for the repository [`root::discover`] finds
    /// (`USCHED_ROOT`, else walking up from the current directory).
    pub fn from_env() -> Result<Settings, RootError> {
        Ok(Settings::new(root::discover(None)?))
    }

    /// The same settings for the repository at `root` (`--root`): the root
    /// and every path that was its default under the old root (results,
    /// the repository's traces, the download cache) move with it; paths
    /// set otherwise stay.
    pub fn rebased(mut self, root: impl Into<PathBuf>) -> Settings {
        let root = root.into();
        let old = std::mem::replace(&mut self.root, root.clone());
        let fresh = Settings::new(&root);
        if self.results == old.join("results") {
            self.results = fresh.results;
        }
        if self.traces.repo_traces.as_deref() == Some(old.join("traces").as_path()) {
            self.traces.repo_traces = fresh.traces.repo_traces;
        }
        if self.traces.cache == old.join("traces").join("cache") {
            self.traces.cache = fresh.traces.cache;
        }
        self
    }

    /// These settings with the kinds and policies of `registry`.
    #[must_use]
    pub fn with_registry(mut self, registry: Registry) -> Settings {
        self.registry = registry;
        self
    }

    /// How a path is shown (and recorded in run.toml): relative to the
    /// repository root when inside it, from whichever directory it was
    /// given; else absolute. Either way one file has one name, however it
    /// was spelt and from wherever: symbolic links, `..` and `.` are
    /// resolved (for a file that exists; `..` and `.` by their text for
    /// one that does not yet), and so is the root itself, so `verify`
    /// finds a configuration outside the repository, and the traces beside
    /// it, from any directory, and shards of one configuration given as
    /// `../cfg/a.toml` and as `/abs/cfg/a.toml` are shards of one run.
    pub fn shown(&self, path: &Path) -> String {
        let resolved = std::fs::canonicalize(path)
            .ok()
            .or_else(|| std::path::absolute(path).ok().map(|a| lexical(&a)));
        let real = || std::fs::canonicalize(&self.root).ok();
        let cached = self.real_root.get_or_init(|| (self.root.clone(), real()));
        let fresh;
        let real_root = if cached.0 == self.root {
            cached.1.as_deref()
        } else {
            fresh = real();
            fresh.as_deref()
        };
        let lexical_root = lexical(&self.root);
        let roots = [real_root, Some(lexical_root.as_path())];
        if let Some(inside) = resolved.as_deref().and_then(|a| {
            roots
                .iter()
                .flatten()
                .find_map(|root| a.strip_prefix(root).ok())
        }) {
            return inside.display().to_string();
        }
        resolved
            .unwrap_or_else(|| lexical(path))
            .display()
            .to_string()
    }

    /// The experiments of the repository's `configs/` ([`catalog::scan`]).
    pub fn catalog(&self) -> Result<Vec<Entry>> {
        catalog::scan(&self.root.join("configs"))
    }

    /// The experiments `ids` select (as for `cargo xtask reproduce`), as
    /// `(config file, id)` jobs for a batch (`batch::run_batch`).
    pub fn select(
        &self,
        ids: &[String],
        sensitivity: bool,
    ) -> Result<Vec<(PathBuf, Option<String>)>> {
        let entries = self.catalog()?;
        Ok(catalog::select(ids, &entries, sensitivity)?
            .into_iter()
            .map(|e| (e.path.clone(), Some(e.id.clone())))
            .collect())
    }
}

/// `path` with its `.` parts dropped and each `..` taking the part before
/// it away, by the text alone (for a path that does not exist yet).
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_that_does_not_exist_is_resolved_by_its_text() {
        assert_eq!(lexical(Path::new("/a/b/../c/./d")), PathBuf::from("/a/c/d"));
        assert_eq!(lexical(Path::new("../x/./y")), PathBuf::from("../x/y"));
        assert_eq!(lexical(Path::new("a/../../b")), PathBuf::from("../b"));
    }

    #[test]
    fn a_root_changed_after_use_is_resolved_again() {
        let base = std::env::temp_dir().join(format!("usched-shown-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        for d in ["a", "b/real"] {
            std::fs::create_dir_all(base.join(d)).unwrap();
        }
        std::fs::write(base.join("b/real/f.toml"), "").unwrap();
        std::os::unix::fs::symlink(base.join("b/real"), base.join("b/link")).unwrap();
        let mut settings = Settings::new(base.join("a"));
        // Outside the first root: shown absolute, its real path.
        let file = base.join("b/link/f.toml");
        let real = std::fs::canonicalize(&file).unwrap();
        assert_eq!(settings.shown(&file), real.display().to_string());
        // The root set to the link afterwards: the file is inside it.
        settings.root = base.join("b/link");
        assert_eq!(settings.shown(&file), "f.toml");
        assert_eq!(settings.shown(&real), "f.toml");
        std::fs::remove_dir_all(&base).unwrap();
    }
}

//! Finding the repository root at run time: `--root DIR`, else the
//! environment variable [`ROOT_ENV`] (`USCHED_ROOT`), else the first
//! directory holding both `Cargo.toml` and `configs/` walking up from the
//! current directory. Nothing is fixed at compile time, so a copied or
//! moved binary works from inside any checkout; outside one, the error
//! names every place it looked.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

use experiments::encode::terminal_path;

/// The environment variable naming the repository root.
pub const ROOT_ENV: &str = "USCHED_ROOT";

/// Whether `dir` is a repository root: it holds `Cargo.toml` and a
/// `configs/` directory.
pub fn is_root(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file() && dir.join("configs").is_dir()
}

/// What a root candidate lacks, for messages (`None`: nothing).
fn lacks(dir: &Path) -> Option<&'static str> {
    if !dir.is_dir() {
        Some("not a directory")
    } else if !dir.join("Cargo.toml").is_file() {
        Some("no Cargo.toml")
    } else if !dir.join("configs").is_dir() {
        Some("no configs/ directory")
    } else {
        None
    }
}

/// Why no repository root was found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RootError {
    /// `--root` or [`ROOT_ENV`] named a directory that is not a root; the
    /// search stops there (an explicit choice is never silently replaced).
    NotARoot {
        /// `--root` or `USCHED_ROOT`.
        given_by: &'static str,
        /// The directory named.
        path: PathBuf,
        /// What it lacks (`no configs/ directory`, ...).
        lacks: &'static str,
    },
    /// Neither was given and no directory from the current one up is a root.
    NotFound {
        /// The directories walked, from the current one up to `/`.
        walked: Vec<PathBuf>,
    },
    /// The current directory cannot be read.
    NoCurrentDir {
        /// The operating system's message.
        error: String,
    },
}

impl fmt::Display for RootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootError::NotARoot {
                given_by,
                path,
                lacks,
            } => write!(
                f,
                "{given_by} is {}, which is not a repository root ({lacks}; a root holds \
                 Cargo.toml and configs/); name a checkout of the repository",
                terminal_path(path)
            ),
            RootError::NotFound { walked } => {
                write!(
                    f,
                    "cannot find the repository root (a directory holding Cargo.toml and \
                     configs/); looked at:\n  --root: not given\n  {ROOT_ENV}: not set"
                )?;
                for dir in walked {
                    write!(f, "\n  {}", terminal_path(dir))?;
                }
                write!(
                    f,
                    "\nrun from inside a checkout, or give --root DIR or {ROOT_ENV}=DIR"
                )
            }
            RootError::NoCurrentDir { error } => write!(
                f,
                "cannot read the current directory ({error}) to find the repository root; \
                 give --root DIR or {ROOT_ENV}=DIR"
            ),
        }
    }
}

impl std::error::Error for RootError {}

/// The repository root: `flag` (`--root`) if given, else `env` (the value
/// of [`ROOT_ENV`], ignored if empty), else the first root walking up from
/// `cwd`. A relative `flag` or `env` is taken relative to `cwd`. The root
/// returned is absolute.
pub fn find_root(
    flag: Option<&Path>,
    env: Option<&OsStr>,
    cwd: &Path,
) -> Result<PathBuf, RootError> {
    let explicit = match (flag, env.filter(|v| !v.is_empty())) {
        (Some(dir), _) => Some(("--root", dir)),
        (None, Some(value)) => Some((ROOT_ENV, Path::new(value))),
        (None, None) => None,
    };
    if let Some((given_by, dir)) = explicit {
        let path = cwd.join(dir);
        return match lacks(&path) {
            None => Ok(path),
            Some(lacks) => Err(RootError::NotARoot {
                given_by,
                path,
                lacks,
            }),
        };
    }
    let mut walked = Vec::new();
    for dir in cwd.ancestors() {
        if is_root(dir) {
            return Ok(dir.to_path_buf());
        }
        walked.push(dir.to_path_buf());
    }
    Err(RootError::NotFound { walked })
}

/// [`find_root`] with this process's environment and current directory.
pub fn discover(flag: Option<&Path>) -> Result<PathBuf, RootError> {
    let cwd = std::env::current_dir().map_err(|e| RootError::NoCurrentDir {
        error: e.to_string(),
    })?;
    let env = std::env::var_os(ROOT_ENV);
    find_root(flag, env.as_deref(), &cwd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("usched-root-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        dir
    }

    #[test]
    fn the_walk_finds_the_nearest_root_and_flags_win() {
        let dir = tmp("walk");
        std::fs::write(dir.join("Cargo.toml"), "").unwrap();
        std::fs::create_dir(dir.join("configs")).unwrap();
        let deep = dir.join("a/b");
        assert_eq!(find_root(None, None, &deep).unwrap(), dir);
        // A root named explicitly wins over the walk, and --root over the variable.
        let other = dir.join("a");
        std::fs::write(other.join("Cargo.toml"), "").unwrap();
        std::fs::create_dir(other.join("configs")).unwrap();
        assert_eq!(find_root(None, Some(OsStr::new("a")), &dir).unwrap(), other);
        assert_eq!(
            find_root(Some(Path::new(".")), Some(OsStr::new("a")), &dir).unwrap(),
            dir.join(".")
        );
        // The nearest root from below.
        assert_eq!(find_root(None, None, &deep).unwrap(), other);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn errors_name_where_they_looked() {
        let dir = tmp("none");
        let deep = dir.join("a/b");
        match find_root(None, Some(OsStr::new("")), &deep) {
            Err(e @ RootError::NotFound { .. }) => {
                let RootError::NotFound { walked } = &e else {
                    unreachable!()
                };
                assert_eq!(walked[..3], [deep.clone(), dir.join("a"), dir.clone()]);
                assert_eq!(walked.last().map(PathBuf::as_path), Some(Path::new("/")));
                let text = e.to_string();
                assert!(text.contains(&terminal_path(&deep)), "{text}");
                assert!(text.contains("USCHED_ROOT: not set"), "{text}");
            }
            other => panic!("{other:?}"),
        }
        let e = find_root(Some(&deep), None, &dir).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("--root is {}", terminal_path(&deep)))
                && e.to_string().contains("no Cargo.toml"),
            "{e}"
        );
        let e = find_root(None, Some(OsStr::new("missing")), &dir).unwrap_err();
        assert!(
            e.to_string().contains("USCHED_ROOT is") && e.to_string().contains("not a directory"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

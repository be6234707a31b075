//! Embeds the code's identity at build time: the git revision of the tree
//! this binary was built from and whether the tree had uncommitted changes
//! (`USCHED_BUILD_REVISION`, read by `usched_cli::identity`).
//!
//! Nothing at run time asks git: not the environment (`GIT_DIR`, ...), not
//! the user running the binary, not the directory it runs in. Here, too, git
//! runs with a cleared environment on this crate's own repository. Without
//! git or outside a repository the revision is `unknown`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let mut cmd = Command::new("git");
    cmd.env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    // The repository may belong to another user (a shared checkout built by
    // root): trust this one directory, nothing else.
    let safe = format!("safe.directory={}", root.display());
    cmd.arg("-c").arg(safe).arg("-C").arg(root).args(args);
    let out = cmd.output().ok().filter(|o| o.status.success())?;
    String::from_utf8(out.stdout)
        .ok()
        .map(|s| s.trim().to_string())
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    // crates/cli -> the workspace root.
    let root = manifest
        .parent()
        .and_then(Path::parent)
        .unwrap_or(&manifest)
        .to_path_buf();
    // Rebuild when the commit or any tracked input of the build changes.
    for rel in ["crates", "xtask/src", "configs", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(rel).display());
    }
    let revision = git(&root, &["rev-parse", "--verify", "HEAD"])
        .filter(|r| r.len() >= 40 && r.bytes().all(|b| b.is_ascii_hexdigit()));
    if let Some(git_dir) = git(&root, &["rev-parse", "--absolute-git-dir"]) {
        let git_dir = PathBuf::from(git_dir);
        for f in ["HEAD", "index", "packed-refs", "refs"] {
            println!("cargo:rerun-if-changed={}", git_dir.join(f).display());
        }
        // A worktree's branch refs live in the common directory.
        if let Some(common) = git(&root, &["rev-parse", "--git-common-dir"]) {
            let common = root.join(common);
            for f in ["packed-refs", "refs"] {
                println!("cargo:rerun-if-changed={}", common.join(f).display());
            }
        }
    }
    let identity = match revision {
        Some(r) => {
            // Tracked files changed and not committed: the revision alone
            // does not name this code.
            // `--no-optional-locks`: status must not rewrite the index, or
            // this script would be rerun by every build.
            let dirty = git(
                &root,
                &[
                    "--no-optional-locks",
                    "status",
                    "--porcelain",
                    "--untracked-files=no",
                ],
            )
            .is_none_or(|s| !s.is_empty());
            if dirty { format!("{r}-dirty") } else { r }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=USCHED_BUILD_REVISION={identity}");
}

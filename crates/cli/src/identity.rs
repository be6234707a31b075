//! The identity of the code that runs: the git revision this binary was
//! built from, embedded at build time by `crates/cli/build.rs`.
//!
//! `run.toml`, the cells of sharded runs and `--version` all name this
//! revision, and `merge` compares it, so it must say which code produced a
//! result whoever runs the binary, wherever, with whatever environment: it
//! is never asked of git at run time (`GIT_DIR`, another user's checkout or
//! the working directory could name other code). A tree with uncommitted
//! changes to tracked files gives `<revision>-dirty`; a build outside a git
//! repository gives `unknown`.
//!
//! Library entry points (`experiments::Provenance`) take the identity from
//! their caller: a program of your own built on the crates records its own.

/// The full revision (`<40 hex digits>`, `<40 hex digits>-dirty` or `unknown`).
pub const REVISION: &str = env!("USCHED_BUILD_REVISION");

/// The version line of `--version`: the crate's version and the revision.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("USCHED_BUILD_REVISION"),
    ")"
);

/// Whether the binary was built from a tree with uncommitted changes.
pub fn dirty() -> bool {
    REVISION.ends_with("-dirty")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_revision_has_a_known_form() {
        let hex = REVISION.strip_suffix("-dirty").unwrap_or(REVISION);
        assert!(
            REVISION == "unknown"
                || (hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit())),
            "{REVISION}"
        );
        assert_eq!(dirty(), REVISION.ends_with("-dirty"));
        assert!(VERSION.contains(REVISION));
    }
}

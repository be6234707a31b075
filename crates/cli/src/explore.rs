//! `cargo xtask explore`: the property suites on a fresh seed with more
//! cases, outside the deterministic gate.
//!
//! The gate runs every suite from `profile::testing::GATE_SEED` with its
//! committed case count. This command runs `cargo test --workspace` with
//! `USCHED_EXPLORE_SEED` (a fresh seed unless `--seed`) and
//! `USCHED_EXPLORE_SCALE` set, which `profile::testing::proptest_config`
//! reads. What it finds proptest shrinks and appends to the suite's
//! `proptest-regressions/` file; this command lists the files that changed,
//! which are committed with the fix (of the class the case stands for).

use crate::exit::say_err;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, Result};
use experiments::encode::terminal_path;

use crate::progress::Verbosity;
use crate::settings::Settings;

/// A fresh seed ([`crate::output::random_bytes`]).
fn fresh_seed() -> u64 {
    let bytes = crate::output::random_bytes();
    u64::from_le_bytes(bytes[..8].try_into().expect("8 of 16 bytes"))
}

/// Every `proptest-regressions/*.txt` under `dir`, with its contents.
fn regressions(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && entry.file_name() != "target" && entry.file_name() != ".git" {
            regressions(&path, out);
        } else if kind.is_file()
            && path.extension().is_some_and(|e| e == "txt")
            && path
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|p| p == "proptest-regressions")
        {
            out.insert(path.clone(), std::fs::read(&path).unwrap_or_default());
        }
    }
}

/// Runs the exploration; the exit status is `cargo test`'s (0: nothing found).
pub fn explore(
    settings: &Settings,
    seed: Option<u64>,
    scale: u32,
    args: &[String],
) -> Result<ExitCode> {
    let seed = seed.unwrap_or_else(fresh_seed);
    let quiet = settings.verbosity == Verbosity::Quiet;
    // Printed first, so a run cut short can be repeated: with the user's
    // arguments to `cargo test`, quoted for the shell.
    let passed = if args.is_empty() {
        String::new()
    } else {
        let quoted: Vec<String> = args.iter().map(|a| crate::script::quote(a)).collect();
        format!(" -- {}", quoted.join(" "))
    };
    say_err!(
        "explore: seed {seed}, {scale}x the gate's cases (repeat with `cargo xtask explore --seed {seed} --scale {scale}{passed}`)"
    );
    let mut before = BTreeMap::new();
    regressions(&settings.root.join("crates"), &mut before);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    // `--workspace` would override the packages the user names.
    let names_packages = args
        .iter()
        .any(|a| a == "-p" || a.starts_with("--package") || (a.starts_with("-p") && a.len() > 2));
    cmd.current_dir(&settings.root).arg("test");
    if !names_packages {
        cmd.arg("--workspace");
    }
    // Every suite runs even when an early one fails: one exploration, all
    // findings. `--quiet` is cargo's: before the user's arguments, which may
    // hold a `--` and the test binaries' own.
    cmd.arg("--no-fail-fast");
    if quiet {
        cmd.arg("--quiet");
    }
    cmd.args(args)
        .env(profile_var("SEED"), seed.to_string())
        .env(profile_var("SCALE"), scale.to_string());
    let status = cmd.status().context("cannot run `cargo test`")?;
    let mut after = BTreeMap::new();
    regressions(&settings.root.join("crates"), &mut after);
    let changed: Vec<_> = after
        .iter()
        .filter(|(p, text)| before.get(*p) != Some(*text))
        .map(|(p, _)| terminal_path(p.strip_prefix(&settings.root).unwrap_or(p)))
        .collect();
    if status.success() {
        say_err!("explore: seed {seed}: every suite passed");
    } else {
        say_err!("explore: seed {seed}: a test failed, or `cargo test` could not run (above)");
    }
    if !changed.is_empty() {
        say_err!(
            "explore: proptest recorded failing cases in:\n  {}\nfix the class of inputs each stands for, then commit these files with the fix",
            changed.join("\n  ")
        );
    }
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        _ => ExitCode::from(crate::exit::EXIT_ERROR),
    })
}

/// `USCHED_EXPLORE_<what>`, the variables `profile::testing` reads.
fn profile_var(what: &str) -> String {
    format!("USCHED_EXPLORE_{what}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_variables_are_the_ones_profile_reads() {
        assert_eq!(
            super::profile_var("SEED"),
            profile::testing::EXPLORE_SEED_VAR
        );
        assert_eq!(
            super::profile_var("SCALE"),
            profile::testing::EXPLORE_SCALE_VAR
        );
    }
}

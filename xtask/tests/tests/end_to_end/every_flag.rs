//! Every flag that takes a value, of every subcommand, given each hostile
//! value of a fixed list: the command takes it or refuses it with an
//! error (exit status 1 or 2) and a short message on stderr; it never
//! panics. The flags are read from the command line's declaration (clap),
//! so a flag added later is covered without a test of its own.
//!
//! Two roots. In an empty directory a value taken leads to an error about
//! the missing root, never to a run, so every subcommand can be asked. In
//! a small real root (one experiment of 30 generated jobs, a trace of ten
//! jobs) a value taken leads to a real run, so a value checked only after
//! the root is found is reached too; there the commands that would start
//! other programs (`bench` and `explore` run cargo, `slurm` sbatch unless
//! `--dry-run`) are left out or dry.

use std::process::Output;

use clap::CommandFactory;

use crate::common::spawn::{offline_xtask, output};
use crate::common::tempdir::TempDir;

/// Numbers out of every range, special floats, text the terminal or a
/// shell would act on, odd separators, and a value of 100,000 characters.
fn hostile() -> Vec<String> {
    [
        "",
        " ",
        "-1",
        "0",
        "18446744073709551616",
        "-9223372036854775809",
        "1e308",
        "nan",
        "inf",
        "-0",
        "0.5",
        "0:0",
        "1:",
        ":",
        ",",
        "a\u{202e}b",
        "\u{1b}[31mred",
        "line\nfeed",
        "$(false)",
        "%n%s",
        "lublin99:procs=0",
        "under-estimate:nan",
    ]
    .into_iter()
    .map(str::to_string)
    .chain(["x".repeat(100_000)])
    .collect()
}

/// A value an argument that must be given takes: the first of its
/// possible values, or one for its name; a new required argument needs
/// one here, or the test names it.
fn placeholder(arg: &clap::Arg) -> Option<String> {
    if let Some(v) = arg.get_possible_values().first() {
        return Some(v.get_name().to_string());
    }
    let value = match arg.get_id().as_str() {
        "ids" | "configs" => "no-such-id",
        "cells" => "no-such-dir",
        "out" => "out",
        "trace" => "no-such-trace",
        "policy" => "easy",
        "procs" => "8",
        "jobs" => "10",
        _ => return None,
    };
    Some(value.to_string())
}

/// The same, in the real root [`real_root`] writes: its experiment, its
/// configuration file and its trace.
fn real_placeholder(arg: &clap::Arg) -> Option<String> {
    let value = match arg.get_id().as_str() {
        "ids" => "tiny/one",
        "configs" => "configs/tiny/one.toml",
        "trace" => "tiny.swf",
        _ => return placeholder(arg),
    };
    Some(value.to_string())
}

/// One experiment of EASY on 30 generated jobs, and a trace of ten jobs.
fn real_root(tmp: &TempDir) {
    let root = tmp.path();
    std::fs::create_dir_all(root.join("configs/tiny")).unwrap();
    std::fs::write(root.join("Cargo.toml"), "[workspace]\n").unwrap();
    std::fs::write(
        root.join("configs/tiny/one.toml"),
        r#"version = 2
id = "tiny/one"
title = "EASY on 30 jobs"
kind = "backfilling"
seed = 1
series = ["easy"]

[[workloads]]
label = "Lublin99, 16 processors, 30 jobs"
lublin99 = { procs = 16, jobs = 30 }

[sweep]
axis = "workload.lublin99.load"
values = [0.5, 0.9]
label = "offered load"

[[panels]]
id = "bsld"
metric = "mean_bsld"

[[claims]]
text = "Bounded slowdown does not fall with the load"
check.rise = { panel = "bsld", series = "easy", from = 0.5, to = 0.9, lo = 0, hi = 1e9 }
"#,
    )
    .unwrap();
    super::write_tiny_trace(&root.join("tiny.swf"), 10);
}

/// Stderr longer than this is a message nobody reads.
const LONG: usize = 4_000;

fn run(tmp: &TempDir, args: &[String]) -> Output {
    let mut cmd = offline_xtask(tmp.path());
    cmd.env("USCHED_ROOT", tmp.path()).args(args);
    output(&mut cmd).unwrap()
}

#[test]
fn every_flag_takes_or_refuses_each_hostile_value_without_a_panic() {
    let tmp = TempDir::new("every-flag");
    let (checked, _) = check_every_flag(&tmp, placeholder, |_| Some(vec![]));
    assert!(
        checked > 500,
        "only {checked} commands: were the flags read?"
    );
}

#[test]
fn in_a_real_root_every_flag_takes_or_refuses_each_hostile_value() {
    let tmp = TempDir::new("every-flag-real");
    real_root(&tmp);
    let (checked, succeeded) = check_every_flag(&tmp, real_placeholder, |sub| match sub {
        "bench" | "explore" => None,
        "slurm" => Some(vec!["--dry-run".to_string()]),
        _ => Some(vec![]),
    });
    assert!(
        checked > 400,
        "only {checked} commands: were the flags read?"
    );
    // Most values are refused, but a real root runs what is taken.
    assert!(
        succeeded > 100,
        "only {succeeded} of {checked} commands succeeded: does the root still run?"
    );
}

/// Runs every subcommand `extra` does not leave out (`None`), with the
/// arguments it adds, once per flag taking a value and hostile value, in
/// `tmp` as the repository root; fails listing every command that
/// panicked, exited outside 0 to 3 or wrote a long stderr. Returns how
/// many commands ran, and how many of them succeeded.
fn check_every_flag(
    tmp: &TempDir,
    place: fn(&clap::Arg) -> Option<String>,
    extra: impl Fn(&str) -> Option<Vec<String>>,
) -> (usize, usize) {
    let mut top = cli::cli::Cli::command();
    top.build();
    let values = hostile();
    let unplaced: Vec<String> = top
        .get_subcommands()
        .flat_map(|sub| sub.get_arguments().map(move |a| (sub, a)))
        .filter(|(_, a)| a.is_required_set() && place(a).is_none())
        .map(|(sub, a)| format!("{} {}", sub.get_name(), a.get_id()))
        .collect();
    assert!(
        unplaced.is_empty(),
        "give these required arguments a placeholder: {unplaced:?}"
    );
    let (mut checked, mut succeeded) = (0, 0);
    let mut bad = Vec::new();
    for sub in top.get_subcommands() {
        let Some(added) = extra(sub.get_name()) else {
            continue;
        };
        let positionals: Vec<String> = sub
            .get_positionals()
            .filter(|a| a.is_required_set())
            .filter_map(place)
            .collect();
        let required: Vec<&clap::Arg> = sub
            .get_arguments()
            .filter(|a| !a.is_positional() && a.is_required_set())
            .collect();
        for arg in sub.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if arg.is_positional() || !arg.get_action().takes_values() {
                continue;
            }
            for value in &values {
                let mut args = vec![sub.get_name().to_string()];
                args.extend(positionals.iter().cloned());
                args.extend(added.iter().cloned());
                for other in required.iter().filter(|r| r.get_id() != arg.get_id()) {
                    let name = other.get_long().expect("a required flag has a long name");
                    args.push(format!("--{name}={}", place(other).unwrap_or_default()));
                }
                args.push(format!("--{long}={value}"));
                let out = run(tmp, &args);
                checked += 1;
                let stderr = String::from_utf8_lossy(&out.stderr);
                let shown = format!(
                    "{} --{long}={}",
                    sub.get_name(),
                    experiments::encode::shorten(&value.escape_debug().to_string())
                );
                let start: String = stderr.chars().take(300).collect();
                match out.status.code() {
                    Some(0) => succeeded += 1,
                    Some(1..=3) => {}
                    other => bad.push(format!("{shown}: exit {other:?}: {start}")),
                }
                if stderr.contains("panicked") || stderr.len() > LONG {
                    bad.push(format!(
                        "{shown}: {} bytes of stderr: {start}",
                        stderr.len()
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {checked}:\n{}",
        bad.len(),
        bad.join("\n")
    );
    (checked, succeeded)
}

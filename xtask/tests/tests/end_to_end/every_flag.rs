//! Every flag that takes a value, of every subcommand, given each hostile
//! value of a fixed list: the command takes it or refuses it with an
//! error (exit status 1 or 2) and a short message on stderr; it never
//! panics. The flags are read from the command line's declaration (clap),
//! so a flag added later is covered without a test of its own.
//!
//! Each command runs in an empty directory that is also its repository
//! root, so no configuration, trace or cluster is there to act on: a value
//! taken leads to an error about the missing root, never to a run.

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
    let mut top = cli::cli::Cli::command();
    top.build();
    let values = hostile();
    let unplaced: Vec<String> = top
        .get_subcommands()
        .flat_map(|sub| sub.get_arguments().map(move |a| (sub, a)))
        .filter(|(_, a)| a.is_required_set() && placeholder(a).is_none())
        .map(|(sub, a)| format!("{} {}", sub.get_name(), a.get_id()))
        .collect();
    assert!(
        unplaced.is_empty(),
        "give these required arguments a placeholder: {unplaced:?}"
    );
    let mut checked = 0;
    let mut bad = Vec::new();
    for sub in top.get_subcommands() {
        let positionals: Vec<String> = sub
            .get_positionals()
            .filter(|a| a.is_required_set())
            .filter_map(placeholder)
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
                for other in required.iter().filter(|r| r.get_id() != arg.get_id()) {
                    let name = other.get_long().expect("a required flag has a long name");
                    args.push(format!(
                        "--{name}={}",
                        placeholder(other).unwrap_or_default()
                    ));
                }
                args.push(format!("--{long}={value}"));
                let out = run(&tmp, &args);
                checked += 1;
                let stderr = String::from_utf8_lossy(&out.stderr);
                let shown = format!(
                    "{} --{long}={}",
                    sub.get_name(),
                    experiments::encode::shorten(&value.escape_debug().to_string())
                );
                let start: String = stderr.chars().take(300).collect();
                match out.status.code() {
                    Some(0..=3) => {}
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
        checked > 500,
        "only {checked} commands: were the flags read?"
    );
    assert!(
        bad.is_empty(),
        "{} of {checked}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

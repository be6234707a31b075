//! A reader that goes away (`cargo xtask simulate ... | head -1`): the
//! command stops quietly with exit status 141, whether the closed pipe is
//! its stdout or its stderr; never a panic message, a backtrace or
//! "internal error".

use std::process::{Command, Stdio};

use crate::common::spawn::{no_spawns, spawn, xtask_in};
use crate::common::tempdir::TempDir;

/// Runs `cmd` with its stdout and/or stderr a pipe whose reading end is
/// closed before the command starts (so every write fails, however fast
/// the command is); the exit status and what the other stream (kept
/// open) received.
fn with_closed(cmd: &mut Command, close_stdout: bool, close_stderr: bool) -> (Option<i32>, String) {
    // No other test's child may hold a copy of the reading end (inherited
    // between its fork and exec) while the command writes.
    let _alone = no_spawns();
    let stream = |closed: bool| {
        if closed {
            let (reader, writer) = std::io::pipe().unwrap();
            drop(reader);
            Stdio::from(writer)
        } else {
            Stdio::piped()
        }
    };
    let mut child = spawn(
        cmd.stdin(Stdio::null())
            .stdout(stream(close_stdout))
            .stderr(stream(close_stderr)),
    )
    .unwrap();
    let reader = |stream: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut stream = stream;
            let mut text = String::new();
            let _ = stream.read_to_string(&mut text);
            text
        })
    };
    let mut kept = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        kept.push(reader(Box::new(stdout)));
    }
    if let Some(stderr) = child.stderr.take() {
        kept.push(reader(Box::new(stderr)));
    }
    let status = child.wait().unwrap();
    let text = kept.into_iter().map(|t| t.join().unwrap()).collect();
    (status.code(), text)
}

fn assert_quiet(what: &str, (code, other): (Option<i32>, String)) {
    assert_eq!(code, Some(141), "{what}: {other}");
    for bad in ["panicked", "internal error", "Broken pipe", "backtrace"] {
        assert!(!other.contains(bad), "{what}: {other}");
    }
}

#[test]
fn simulate_stops_quietly_when_stdout_is_closed() {
    let tmp = TempDir::new("pipe-simulate");
    let mut cmd = xtask_in(tmp.path());
    cmd.args([
        "simulate",
        "--trace",
        "KTH-SP2-1996-2.1-cln",
        "--policy",
        "easy",
    ]);
    assert_quiet("simulate | head", with_closed(&mut cmd, true, false));
}

#[test]
fn an_error_to_a_closed_stderr_stops_quietly() {
    let tmp = TempDir::new("pipe-error");
    let mut cmd = xtask_in(tmp.path());
    cmd.args([
        "simulate",
        "--trace",
        "./no-such-trace.swf",
        "--policy",
        "easy",
    ]);
    assert_quiet("error 2>&1 | head", with_closed(&mut cmd, false, true));
}

#[test]
fn run_stops_quietly_when_its_progress_or_report_reader_is_gone() {
    let tmp = TempDir::new("pipe-run");
    let config = tmp.path().join("ok.toml");
    std::fs::write(
        &config,
        r#"version = 2
id = "study/pipe"
title = "small"
kind = "backfilling"
seed = 1
repetitions = 1
series = ["fcfs", "easy"]

[[workloads]]
label = "KTH"
trace = "KTH-SP2-1996-2.1-cln"
transforms = [{ job_ids = [1, 200] }]

[sweep]
axis = "workload"
label = "trace"

[[panels]]
id = "bsld"
metric = "mean_bsld"
"#,
    )
    .unwrap();
    for (stdout, stderr) in [(true, false), (false, true), (true, true)] {
        let out = tmp.path().join(format!("out-{stdout}-{stderr}"));
        let mut cmd = xtask_in(tmp.path());
        cmd.arg("run")
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .args(["--threads", "1", "-v"]);
        assert_quiet(
            &format!("run, stdout closed {stdout}, stderr closed {stderr}"),
            with_closed(&mut cmd, stdout, stderr),
        );
    }
}

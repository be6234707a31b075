//! Hostile input against `cargo xtask` (issue #19): text that would break
//! out of job scripts, paths that are not regular files, outputs onto
//! links and devices, decoy files that look like old temporary files,
//! live and dead writers' staging folders, downloads, and out-of-range
//! values. Every case runs offline in a temporary directory.

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::tempdir::TempDir;

const CONFIG: &str = r#"version = 2
id = "test/tiny"
title = "Tiny"
paper = "none"
kind = "backfilling"
seed = 3
series = ["fcfs", "easy"]

[[workloads]]
label = "tiny"
trace = "tiny.swf"

[sweep]
axis = "workload"
label = "trace"

[[panels]]
id = "util"
metric = "utilization"
"#;

pub(crate) fn write_tiny_trace(path: &Path) {
    let g = swf_io::lublin99::Lublin99 {
        procs: 64,
        duration: i64::MAX,
        max_jobs: Some(100),
        seed: 11,
        two_class: true,
        ..Default::default()
    };
    let mut bytes = Vec::new();
    swf_io::write_swf(&mut bytes, &g.header(), &g.generate()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

pub(crate) fn setup(name: &str) -> TempDir {
    let tmp = TempDir::new(name);
    write_tiny_trace(&tmp.path().join("tiny.swf"));
    std::fs::write(tmp.path().join("exp.toml"), CONFIG).unwrap();
    tmp
}

pub(crate) fn xtask_env(tmp: &TempDir, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = crate::common::spawn::offline_xtask(tmp.path());
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    crate::common::spawn::output(&mut cmd).unwrap()
}

pub(crate) fn xtask(tmp: &TempDir, args: &[&str]) -> Output {
    xtask_env(tmp, args, &[])
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Asserts the exit status and that stderr holds every needle.
pub(crate) fn check(out: &Output, status: i32, needles: &[&str], case: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "{case}: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{case}: want '{n}' in:\n{stderr}");
    }
}

fn mkfifo(path: &Path) {
    let ok = crate::common::spawn::status(Command::new("mkfifo").arg(path)).unwrap();
    assert!(ok.success());
}

/// Every kind of non-regular file, made at `dir/<name>`: (kind, path).
fn specials(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let socket = dir.join("socket");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    std::mem::forget(listener);
    let null = dir.join("null-link");
    symlink("/dev/null", &null).unwrap();
    let zero = dir.join("zero-link");
    symlink("/dev/zero", &zero).unwrap();
    let sub = dir.join("a-directory");
    std::fs::create_dir_all(&sub).unwrap();
    let mut out = vec![
        ("a FIFO", fifo),
        ("a socket", socket),
        ("a character device", null),
        ("a character device", zero),
        ("a directory", sub),
    ];
    // A device node of its own (as root): never one the system uses.
    let node = dir.join("char-node");
    let made = crate::common::spawn::output(Command::new("mknod").arg(&node).args(["c", "1", "3"]));
    if made.is_ok_and(|o| o.status.success()) {
        out.push(("a character device", node));
    }
    out
}

mod job_scripts {
    use super::*;

    /// Directory names no script may be broken by.
    const HOSTILE: [&str; 14] = [
        "semi;colon",
        "$(touch PWNED)",
        "`touch PWNED`",
        "it's",
        "\"dq\"",
        "%A_%a",
        "100%%",
        "-lead",
        "sp ace",
        "ünï-cödé",
        "#hash",
        "back\\slash",
        "${HOME}",
        "a*b?[c]",
    ];

    /// sbatch's reading of one `#SBATCH` argument (src/sbatch/opt.c,
    /// `_get_argument`): `"` toggles quoting, `\` escapes, an unquoted
    /// blank ends it and an unquoted `#` starts a comment.
    fn sbatch_argument(line: &str) -> String {
        let (mut out, mut quoted, mut escape) = (String::new(), false, false);
        for c in line.chars() {
            if escape {
                escape = false;
            } else if c == '\\' {
                escape = true;
                continue;
            } else if c == '"' {
                quoted = !quoted;
                continue;
            } else if !quoted && (c.is_whitespace() || c == '#') {
                break;
            }
            out.push(c);
        }
        out
    }

    /// The two scripts a dry run prints.
    fn scripts(stdout: &str) -> (Vec<String>, Vec<String>) {
        let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
        let starts: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| *l == "#!/bin/bash")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(starts.len(), 2, "{stdout}");
        let mut shards = lines[starts[0]..starts[1] - 1].to_vec();
        let mut merge = lines[starts[1]..].to_vec();
        for s in [&mut shards, &mut merge] {
            while s.last().is_some_and(|l| l.is_empty()) {
                s.pop();
            }
        }
        (shards, merge)
    }

    /// The arguments the script passes to the binary, by running it with a
    /// binary that prints them one per line.
    fn run_script(tmp: &Path, script: &[String]) -> Vec<String> {
        let file = tmp.join("script.sh");
        std::fs::write(&file, script.join("\n") + "\n").unwrap();
        let parse =
            crate::common::spawn::output(Command::new("bash").arg("-n").arg(&file)).unwrap();
        assert!(parse.status.success(), "bash -n: {}", text(&parse.stderr));
        let out = crate::common::spawn::output(
            Command::new("bash")
                .arg(&file)
                .env("SLURM_ARRAY_TASK_ID", "1")
                .env("SLURM_CPUS_PER_TASK", "3"),
        )
        .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout).lines().map(str::to_string).collect()
    }

    #[test]
    fn hostile_paths_are_quoted_in_every_script_line() {
        let tmp = TempDir::new("scripts");
        for (i, name) in HOSTILE.iter().enumerate() {
            let base = tmp.path().join(format!("{i}")).join(name);
            std::fs::create_dir_all(&base).unwrap();
            let cells = base.join("cells");
            let out_dir = base.join("out");
            let binary = base.join("fake xtask");
            std::fs::write(
                &binary,
                "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n",
            )
            .unwrap();
            std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
            let (cells_s, out_s, bin_s) = (
                cells.to_str().unwrap(),
                out_dir.to_str().unwrap(),
                binary.to_str().unwrap(),
            );
            let out = xtask(
                &tmp,
                &[
                    "slurm",
                    "baseline/backfilling",
                    "--cells",
                    cells_s,
                    "--out",
                    out_s,
                    "--binary",
                    bin_s,
                    "--shards",
                    "2",
                    "--partition",
                    "batch",
                    "--time",
                    "1-00:30:00",
                    "--sbatch-arg=--comment=a;b $(touch PWNED) #x",
                    "--dry-run",
                ],
            );
            if name.contains('\\') {
                // Slurm takes no path with a backslash literally in a file
                // name pattern (it drops the backslashes and expands
                // nothing): refused before anything is written.
                check(&out, 1, &["backslash", "--output"], name);
                assert!(out.stdout.is_empty(), "{name}: a script was printed");
                continue;
            }
            check(&out, 0, &[], name);
            let (shards, merge) = scripts(&text(&out.stdout));
            // Exactly the expected lines, in order.
            let shape = |script: &[String], want: &[&str]| {
                assert_eq!(script.len(), want.len(), "{name}: {script:#?}");
                for (line, prefix) in script.iter().zip(want) {
                    assert!(line.starts_with(prefix), "{name}: '{line}' !~ '{prefix}'");
                }
            };
            shape(
                &shards,
                &[
                    "#!/bin/bash",
                    "# Shards of",
                    "#SBATCH --job-name=usched-shards",
                    "#SBATCH --array=0-1",
                    "#SBATCH --cpus-per-task=1",
                    "#SBATCH --output=",
                    "#SBATCH --partition=batch",
                    "#SBATCH --time=1-00:30:00",
                    "#SBATCH \"--comment=a;b $(touch PWNED) #x\"",
                    "set -euo pipefail",
                    "cd ",
                    "exec ",
                    "    --cells ",
                ],
            );
            shape(
                &merge,
                &[
                    "#!/bin/bash",
                    "# Merge of",
                    "#SBATCH --job-name=usched-merge",
                    "#SBATCH --cpus-per-task=1",
                    "#SBATCH --output=",
                    "#SBATCH --partition=batch",
                    "#SBATCH --time=1-00:30:00",
                    "#SBATCH \"--comment=a;b $(touch PWNED) #x\"",
                    "set -euo pipefail",
                    "cd ",
                    "exec ",
                ],
            );
            // Slurm reads the log path with `%` escaped, the pattern kept.
            let logs = cells.join("slurm/logs");
            let output = sbatch_argument(shards[5].strip_prefix("#SBATCH ").unwrap());
            assert_eq!(
                output,
                format!(
                    "--output={}/shards-%A_%a.log",
                    logs.display().to_string().replace('%', "%%")
                ),
                "{name}"
            );
            let output = sbatch_argument(merge[4].strip_prefix("#SBATCH ").unwrap());
            assert_eq!(
                output,
                format!(
                    "--output={}/merge-%j.log",
                    logs.display().to_string().replace('%', "%%")
                ),
                "{name}"
            );
            // The shell hands the binary exactly the paths given, and the
            // repository root it runs in (the copy cannot find it alone).
            let root = crate::common::checkout();
            let root_s = root.to_str().unwrap();
            assert_eq!(
                run_script(tmp.path(), &shards),
                [
                    "--root",
                    root_s,
                    "reproduce",
                    "--shard",
                    "1/2",
                    "--cells",
                    cells_s,
                    "--threads",
                    "3",
                    "--",
                    "baseline/backfilling",
                ],
                "{name}"
            );
            // Positional values after `--`: a path or id starting with `-`
            // is never read as an option.
            assert_eq!(
                run_script(tmp.path(), &merge),
                ["--root", root_s, "merge", "--out", out_s, "--", cells_s],
                "{name}"
            );
            assert!(!tmp.path().join("PWNED").exists(), "{name}");
        }
    }

    #[test]
    fn shell_quoting_round_trips() {
        for s in HOSTILE
            .iter()
            .copied()
            .chain(["", "'", "''", "a'b'c", "\\'"])
        {
            let out = crate::common::spawn::output(
                Command::new("bash")
                    .arg("-c")
                    .arg(format!("printf %s {}", cli::script::quote(s))),
            )
            .unwrap();
            assert_eq!(text(&out.stdout), s, "{s}");
        }
    }

    #[test]
    fn values_that_would_break_a_script_are_usage_errors() {
        let tmp = TempDir::new("script-values");
        let cases: &[(&str, &str)] = &[
            ("--sbatch-arg", "--account=abc\ntouch PWNED"),
            ("--sbatch-arg", "--account=abc\rtouch PWNED"),
            ("--sbatch-arg", "touch"),
            ("--partition", "batch\ntouch PWNED"),
            ("--partition", "a;b"),
            ("--partition", "-x"),
            ("--partition", "$(x)"),
            ("--partition", ""),
            ("--cells", "c\nd"),
            ("--cells", "c\re"),
            ("--out", "o\u{1b}[31m"),
            ("--binary", "b\nc"),
            ("--time", "1:2:3-4"),
            ("--time", "1:60"),
            ("--time", "1:60:00"),
            ("--time", "1-24"),
            ("--time", "1-1:2:3:4"),
            ("--time", "1::2"),
            ("--time", "-5"),
            ("--time", "9999999999"),
            ("--time", "999999999-0"),
            ("--time", "1:2\n3"),
            ("--time", ""),
        ];
        for (flag, value) in cases {
            let mut args = vec![
                "slurm",
                "baseline/backfilling",
                "--cells",
                "c",
                "--out",
                "o",
                "--dry-run",
            ];
            let arg = format!("{flag}={value}");
            args.push(&arg);
            let out = xtask(&tmp, &args);
            check(&out, 2, &[flag], &format!("{flag} {value:?}"));
            assert!(
                out.stdout.is_empty(),
                "{flag} {value:?}: a script was printed"
            );
        }
        for good in [
            "30",
            "30:00",
            "01:00:00",
            "100:00:00",
            "2-12",
            "2-12:30",
            "2-12:30:15",
        ] {
            let arg = format!("--time={good}");
            let out = xtask(
                &tmp,
                &[
                    "slurm",
                    "baseline/backfilling",
                    "--cells",
                    "c",
                    "--out",
                    "o",
                    "--dry-run",
                    &arg,
                ],
            );
            check(&out, 0, &[], good);
        }
    }
}

mod inputs {
    use super::*;

    #[test]
    fn configs_traces_and_cells_must_be_regular_files() {
        let tmp = setup("inputs");
        let specials = specials(tmp.path());
        for (kind, path) in &specials {
            let p = path.to_str().unwrap();
            let out = xtask(&tmp, &["run", p, "--out", "res"]);
            check(
                &out,
                1,
                &[p, "not a regular file", kind],
                &format!("run {kind}"),
            );
            // A trace that is not a file: named, never waited on.
            let swf = tmp.path().join(format!(
                "t-{}.swf",
                path.file_name().unwrap().to_str().unwrap()
            ));
            symlink(path, &swf).unwrap();
            let out = xtask(
                &tmp,
                &[
                    "simulate",
                    "--trace",
                    swf.to_str().unwrap(),
                    "--policy",
                    "easy",
                ],
            );
            check(
                &out,
                1,
                &["not a regular file"],
                &format!("simulate {kind}"),
            );
        }
        let out = xtask(&tmp, &["run", "missing.toml", "--out", "res"]);
        check(&out, 1, &["missing.toml does not exist"], "missing config");
        let out = xtask(
            &tmp,
            &["simulate", "--trace", "missing.swf", "--policy", "easy"],
        );
        check(&out, 1, &["does not exist"], "missing trace");
        // A relative path is named as typed, not as `./` joined to it.
        for typed in ["missing.swf", "./missing.swf", "../missing.swf"] {
            let out = xtask(&tmp, &["simulate", "--trace", typed, "--policy", "easy"]);
            check(
                &out,
                1,
                &[&format!("trace file {typed} does not exist")],
                typed,
            );
        }

        // Larger than the cap: refused before it is read.
        let big = tmp.path().join("big.toml");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(cli::files::CONFIG.bytes + 1)
            .unwrap();
        let out = xtask(&tmp, &["run", "big.toml", "--out", "res"]);
        check(
            &out,
            1,
            &["big.toml is larger than the 4 MiB cap for configuration files"],
            "big config",
        );

        // A config whose trace is a FIFO.
        mkfifo(&tmp.path().join("fifo.swf"));
        let fifo_trace = CONFIG.replace("tiny.swf", "fifo.swf");
        std::fs::write(tmp.path().join("fifo-trace.toml"), fifo_trace).unwrap();
        let out = xtask(&tmp, &["run", "fifo-trace.toml", "--out", "res"]);
        check(
            &out,
            1,
            &["not a regular file"],
            "config naming a FIFO trace",
        );
    }

    #[test]
    fn merge_never_waits_on_a_fifo_cells_file() {
        let tmp = setup("merge-fifo");
        let out = xtask(
            &tmp,
            &["run", "exp.toml", "--shard", "0/2", "--cells", "cells"],
        );
        check(&out, 0, &[], "shard");
        let dir = tmp.path().join("cells/test/tiny");
        let shard = dir.join("shard-0-of-2.toml");
        std::fs::remove_file(&shard).unwrap();
        mkfifo(&shard);
        let out = xtask(&tmp, &["merge", "cells", "--out", "res"]);
        check(
            &out,
            1,
            &["shard-0-of-2.toml is not a regular file"],
            "fifo shard",
        );
        std::fs::remove_file(&shard).unwrap();
        symlink("/dev/zero", &shard).unwrap();
        let out = xtask(&tmp, &["merge", "cells", "--out", "res"]);
        check(
            &out,
            1,
            &["not a regular file (a character device)"],
            "zero shard",
        );
        std::fs::remove_file(&shard).unwrap();
        std::fs::File::create(&shard)
            .unwrap()
            .set_len(cli::files::CELLS.bytes + 1)
            .unwrap();
        let out = xtask(&tmp, &["merge", "cells", "--out", "res"]);
        check(
            &out,
            1,
            &["larger than the 32 MiB cap for cells files; split the runs"],
            "big shard",
        );
        let identity = dir.join("experiment.toml");
        std::fs::remove_file(&identity).unwrap();
        mkfifo(&identity);
        let out = xtask(&tmp, &["merge", "cells", "--out", "res"]);
        check(
            &out,
            1,
            &["experiment.toml is not a regular file"],
            "fifo identity",
        );
    }

    #[test]
    fn verify_never_waits_on_a_fifo_samples_file() {
        let tmp = setup("verify-fifo");
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(&out, 0, &[], "run");
        // verify reads the catalog's results: plant a FIFO where one's samples go.
        let id = "baseline/backfilling";
        let dir = tmp.path().join("res").join(id);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            tmp.path().join("res/test/tiny/data.csv"),
            dir.join("data.csv"),
        )
        .unwrap();
        mkfifo(&dir.join("samples.csv"));
        let out = xtask(&tmp, &["verify", id, "--out", "res"]);
        check(
            &out,
            1,
            &["samples.csv is not a regular file"],
            "fifo samples",
        );
    }
}

mod outputs {
    use super::*;

    #[test]
    fn outputs_onto_links_fifos_devices_and_sockets_are_refused() {
        let tmp = setup("outputs");
        let victim = tmp.path().join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        let link = tmp.path().join("link.csv");
        symlink(&victim, &link).unwrap();
        let mut targets = specials(tmp.path());
        targets.push(("a symbolic link", link.clone()));
        for (kind, path) in &targets {
            let before = std::fs::symlink_metadata(path).unwrap().file_type();
            for flag in ["--jobs-csv", "--schedule-out", "--gantt", "--timeline"] {
                let p = path.to_str().unwrap();
                let out = xtask(
                    &tmp,
                    &[
                        "simulate", "--trace", "tiny.swf", "--policy", "easy", flag, p,
                    ],
                );
                // An output names what is in its place, a link as a link.
                let want = if std::fs::symlink_metadata(path).unwrap().is_symlink() {
                    "a symbolic link"
                } else {
                    kind
                };
                check(&out, 1, &[flag, p, want], &format!("{flag} onto {kind}"));
                assert!(out.stdout.is_empty(), "{flag} {kind}: it simulated first");
            }
            let after = std::fs::symlink_metadata(path).unwrap().file_type();
            assert_eq!(before, after, "{kind} was replaced");
        }
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");

        // Results directories: a link, a file, a user's directory.
        let user = tmp.path().join("res/test/tiny");
        std::fs::create_dir_all(&user).unwrap();
        std::fs::write(user.join("thesis.tex"), "mine").unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(
            &out,
            1,
            &["was not written by cargo xtask", "thesis.tex"],
            "user dir",
        );
        assert_eq!(
            std::fs::read_to_string(user.join("thesis.tex")).unwrap(),
            "mine"
        );
        std::fs::remove_dir_all(&user).unwrap();
        symlink(tmp.path().join("elsewhere"), &user).unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(&out, 1, &["is a symbolic link"], "linked results");
        assert!(std::fs::symlink_metadata(&user).unwrap().is_symlink());
        std::fs::remove_file(&user).unwrap();
        // Files named as the tool's own but with no marker may be a user's
        // (a data.csv of one's own): refused, and kept.
        std::fs::create_dir_all(&user).unwrap();
        std::fs::write(user.join("data.csv"), "mine").unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(
            &out,
            1,
            &["was not written by cargo xtask", "data.csv"],
            "unmarked results",
        );
        assert_eq!(
            std::fs::read_to_string(user.join("data.csv")).unwrap(),
            "mine"
        );
        // An empty folder holds nothing to lose: results go there.
        std::fs::remove_file(user.join("data.csv")).unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(&out, 0, &[], "empty folder");
        assert!(user.join(cli::output::RESULTS_MARKER).is_file());
    }

    /// A results directory is replaced only while it holds exactly what its
    /// marker lists (each file unchanged); no output goes inside one; two
    /// experiments of one batch never share or nest their directories.
    #[test]
    fn results_are_replaced_only_while_they_hold_just_what_the_tool_wrote() {
        let tmp = setup("manifest");
        let res = tmp.path().join("res/test/tiny");
        let read = |p: &Path| std::fs::read_to_string(p).unwrap();
        check(
            &xtask(&tmp, &["run", "exp.toml", "--out", "res"]),
            0,
            &[],
            "first run",
        );
        check(
            &xtask(&tmp, &["run", "exp.toml", "--out", "res"]),
            0,
            &[],
            "again",
        );
        // Outputs inside results are refused before anything is written.
        let inside = res.join("data.csv");
        let data = read(&inside);
        let out = xtask(
            &tmp,
            &[
                "run",
                "exp.toml",
                "--out",
                "res2",
                "--combined",
                inside.to_str().unwrap(),
            ],
        );
        check(
            &out,
            1,
            &["--combined", "a results directory"],
            "--combined inside",
        );
        // Nor at, inside or around this run's own --out, whose results
        // folders do not exist yet: refused before any run, nothing made.
        for (combined, how) in [
            ("fresh", "is --out"),
            ("fresh/test/tiny/data.csv", "is inside --out"),
            ("fresh/all.csv", "is inside --out"),
        ] {
            let out = xtask(
                &tmp,
                &["run", "exp.toml", "--out", "fresh", "--combined", combined],
            );
            check(&out, 1, &["--combined", how], combined);
            assert!(
                !text(&out.stderr).contains("runs (100%)"),
                "{combined}: no run"
            );
            assert!(
                !tmp.path().join("fresh").exists(),
                "{combined}: nothing made"
            );
        }
        let jobs = res.join("jobs.csv");
        let args = [
            "simulate",
            "--trace",
            "tiny.swf",
            "--policy",
            "easy",
            "--jobs-csv",
        ];
        let out = xtask(&tmp, &[&args[..], &[jobs.to_str().unwrap()]].concat());
        check(&out, 1, &["a results directory"], "--jobs-csv inside");
        assert!(!jobs.exists());
        assert_eq!(read(&inside), data);
        // A user's file among the results, and a result file edited.
        std::fs::write(res.join("plot.py"), "mine").unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(&out, 1, &["holds plot.py", "did not write"], "added file");
        assert_eq!(read(&res.join("plot.py")), "mine");
        std::fs::remove_file(res.join("plot.py")).unwrap();
        let summary = res.join("summary.md");
        let edited = format!("{}\nmy notes\n", read(&summary));
        std::fs::write(&summary, &edited).unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(&out, 1, &["summary.md changed"], "edited file");
        assert_eq!(read(&summary), edited);
        // A forged marker (empty) makes no directory the tool's.
        std::fs::remove_dir_all(&res).unwrap();
        std::fs::create_dir_all(&res).unwrap();
        std::fs::write(res.join(cli::output::RESULTS_MARKER), "").unwrap();
        std::fs::write(res.join("notes.txt"), "mine").unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(
            &out,
            1,
            &["was not written by cargo xtask", "notes.txt"],
            "forged",
        );
        assert_eq!(read(&res.join("notes.txt")), "mine");
        // One batch, one id twice: refused before anything runs.
        std::fs::copy(tmp.path().join("exp.toml"), tmp.path().join("exp2.toml")).unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "exp2.toml", "--out", "res3"]);
        check(&out, 1, &["both have id 'test/tiny'"], "same id twice");
        assert!(!tmp.path().join("res3").exists());
    }

    #[test]
    fn two_outputs_on_one_file_are_usage_errors() {
        let tmp = setup("same-output");
        std::fs::create_dir_all(tmp.path().join("sub")).unwrap();
        std::fs::write(tmp.path().join("f.svg"), "x").unwrap();
        symlink(tmp.path().join("f.svg"), tmp.path().join("alias.svg")).unwrap();
        std::fs::hard_link(tmp.path().join("f.svg"), tmp.path().join("hard.svg")).unwrap();
        let pairs: &[(&str, &str, &str, &str)] = &[
            ("--jobs-csv", "out.csv", "--gantt", "out.csv"),
            ("--gantt", "g.svg", "--timeline", "./sub/../g.svg"),
            ("--gantt", "f.svg", "--timeline", "alias.svg"),
            ("--gantt", "f.svg", "--schedule-out", "hard.svg"),
            ("--schedule-out", "new/x", "--timeline", "new/./x"),
        ];
        for (a, pa, b, pb) in pairs {
            let out = xtask(
                &tmp,
                &[
                    "simulate", "--trace", "tiny.swf", "--policy", "easy", a, pa, b, pb,
                ],
            );
            check(
                &out,
                2,
                &[a, b, "the same file"],
                &format!("{a} {pa} {b} {pb}"),
            );
        }
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("f.svg")).unwrap(),
            "x"
        );
    }
}

mod ownership {
    use cli::output::{DirSwap, Step, write_dir, write_file_with};

    use super::*;

    /// Files that look like the temporary files of older versions.
    const DECOYS: [&str; 6] = [
        ".thesis.tex.tmp-4000000",
        ".data.old-4000000-1",
        ".tiny.tmp-4000000-0",
        ".tiny.old-4000000-2",
        ".KTH-SP2-1996-2.1-cln.swf.gz.part-4000000",
        ".experiment.toml.tmp-host-4000000",
    ];

    fn plant(dir: &Path) -> Vec<PathBuf> {
        std::fs::create_dir_all(dir).unwrap();
        DECOYS
            .iter()
            .map(|d| {
                let p = dir.join(d);
                std::fs::write(&p, format!("user file {d}")).unwrap();
                p
            })
            .collect()
    }

    #[test]
    fn decoys_with_old_debris_names_are_never_touched() {
        let tmp = setup("decoys");
        let mut decoys = Vec::new();
        for dir in [
            "",
            "res",
            "res/test",
            "res/test/sub",
            "cache",
            "cells/test",
            "sub",
        ] {
            decoys.extend(plant(&tmp.path().join(dir)));
        }
        std::fs::create_dir_all(tmp.path().join("res/test/tiny")).unwrap();
        // (arguments, exit status): the download is of a trace not committed.
        // (arguments, exit status); the download is of a trace not committed.
        let runs: &[(&[&str], i32)] = &[
            (&["run", "exp.toml", "--out", "res"], 0),
            (&["run", "exp.toml", "--out", "res"], 0),
            (
                &["run", "exp.toml", "--shard", "0/1", "--cells", "cells"],
                0,
            ),
            (
                &["-q", "reproduce", "baseline/backfilling", "--out", "res"],
                0,
            ),
            (
                &["-q", "reproduce", "baseline/backfilling", "--out", "res"],
                0,
            ),
            (&["merge", "cells", "--out", "res"], 0),
            (&["verify", "--out", "res", "--doc", "res/doc.md"], 0),
            (
                &[
                    "simulate",
                    "--trace",
                    "tiny.swf",
                    "--policy",
                    "easy",
                    "--jobs-csv",
                    "sub/data",
                    "--gantt",
                    "res/test/g.svg",
                ],
                0,
            ),
            (
                &[
                    "--no-stand-in",
                    "simulate",
                    "--trace",
                    "CTC-SP2-1996-3.1-cln",
                    "--policy",
                    "easy",
                ],
                1,
            ),
        ];
        for (args, status) in runs {
            let out = xtask_env(&tmp, args, &[("TRACES_DIR", "/nonexistent")]);
            check(&out, *status, &[], &format!("{args:?}"));
            for d in &decoys {
                let name = d.file_name().unwrap().to_str().unwrap();
                assert_eq!(
                    std::fs::read_to_string(d).unwrap_or_default(),
                    format!("user file {name}"),
                    "{args:?} touched {}",
                    d.display()
                );
            }
        }
        assert!(tmp.path().join("res/test/tiny/data.csv").is_file());
    }

    #[test]
    fn a_live_writers_staging_survives_another_process_cleanup() {
        // Its writers' locks must be free once dropped: no spawn meanwhile.
        let _no_spawns = crate::common::spawn::no_spawns();
        let tmp = setup("live");
        let dir = tmp.path().join("res/test/other");
        let files = [("a.txt", "new".to_string())];
        write_dir(&dir, &[("a.txt", "old".to_string())]).unwrap();
        // This process is the live writer: it holds its lock while another
        // process runs and tidies the same results.
        let mut live = DirSwap::stage(&dir, &files).unwrap();
        assert_eq!(live.step().unwrap(), Step::NotYet);
        let staging = tmp.path().join("res/test/.usched-staging");
        let before = std::fs::read_dir(&staging).unwrap().count();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(&out, 0, &[], "concurrent run");
        assert!(
            !text(&out.stderr).contains("restored"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read_dir(&staging).unwrap().count(), before);
        assert_eq!(live.step().unwrap(), Step::Installed);
        live.finish().unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("a.txt")).unwrap(), "new");
        assert!(
            !staging.exists(),
            "the last writer removes the empty staging folder"
        );

        // A dead writer (lock free) is cleaned, its set-aside results restored.
        let mut dead = DirSwap::stage(&dir, &files).unwrap();
        assert_eq!(dead.step().unwrap(), Step::NotYet);
        dead.interrupt();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        check(&out, 0, &["warning: restored"], "cleanup after a kill");
        assert!(!staging.exists());
        assert_eq!(std::fs::read_to_string(dir.join("a.txt")).unwrap(), "new");
    }

    #[test]
    fn the_newest_results_set_aside_by_dead_writers_come_back() {
        // Its writers' locks must be free once dropped: no spawn meanwhile.
        let _no_spawns = crate::common::spawn::no_spawns();
        let tmp = TempDir::new("newest");
        let dir = tmp.path().join("paper/fig");
        let v = |s: &str| vec![("a.txt", s.to_string())];
        write_dir(&dir, &v("v1")).unwrap();
        // Writer 1 sets v1 aside and installs v2; writer 2 sets v2 aside;
        // both die.
        let mut first = DirSwap::stage(&dir, &v("v2")).unwrap();
        assert_eq!(first.step().unwrap(), Step::NotYet);
        assert_eq!(first.step().unwrap(), Step::Installed);
        let mut second = DirSwap::stage(&dir, &v("v3")).unwrap();
        assert_eq!(second.step().unwrap(), Step::NotYet);
        second.interrupt();
        first.interrupt();
        assert!(!dir.exists());
        let r = cli::output::recover(&dir).unwrap();
        assert_eq!(r.restored, std::slice::from_ref(&dir));
        assert_eq!(r.removed.len(), 2);
        assert_eq!(std::fs::read_to_string(dir.join("a.txt")).unwrap(), "v2");
        let left: Vec<_> = std::fs::read_dir(tmp.path().join("paper"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["fig"]);
    }

    /// A tmpfs mounted for a test, unmounted on drop.
    struct Mount(PathBuf);

    impl Drop for Mount {
        fn drop(&mut self) {
            let _ = crate::common::spawn::status(Command::new("umount").arg(&self.0));
        }
    }

    /// Hidden entries anywhere under `dir`.
    fn hidden(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && name != cli::output::RESULTS_MARKER {
                out.push(p.clone());
            }
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                out.extend(hidden(&p));
            }
        }
        out
    }

    #[test]
    fn a_full_disk_leaves_nothing_behind() {
        let tmp = setup("full-disk");
        let disk = tmp.path().join("disk");
        std::fs::create_dir_all(&disk).unwrap();
        let mounted = crate::common::spawn::output(
            Command::new("mount")
                .args(["-t", "tmpfs", "-o", "size=32k", "tmpfs"])
                .arg(&disk),
        );
        if !mounted.is_ok_and(|o| o.status.success()) {
            eprintln!("skipped: cannot mount a tmpfs here (needs root)");
            return;
        }
        let _mount = Mount(disk.clone());
        let (res, cells) = (disk.join("res"), disk.join("cells"));
        let mut failures = 0;
        for fill in [0u64, 8, 16, 20, 24, 28] {
            for e in std::fs::read_dir(&disk).unwrap().flatten() {
                let _ = std::fs::remove_dir_all(e.path());
                let _ = std::fs::remove_file(e.path());
            }
            if fill > 0 {
                let bytes = vec![0u8; usize::try_from(fill * 1024).unwrap()];
                let _ = std::fs::write(disk.join("fill"), bytes);
            }
            for args in [
                &["run", "exp.toml", "--out", res.to_str().unwrap()][..],
                &[
                    "run",
                    "exp.toml",
                    "--shard",
                    "0/1",
                    "--cells",
                    cells.to_str().unwrap(),
                ],
            ] {
                let out = xtask(&tmp, args);
                if !out.status.success() {
                    failures += 1;
                    assert!(
                        text(&out.stderr).contains("No space left"),
                        "{}",
                        text(&out.stderr)
                    );
                }
                let left = hidden(&disk);
                assert!(left.is_empty(), "fill {fill} KiB, {args:?}: {left:?}");
            }
        }
        assert!(failures > 0, "the disk never filled up");
    }

    #[test]
    fn a_failed_write_leaves_nothing_behind() {
        let tmp = TempDir::new("failed-write");
        let file = tmp.path().join("out.csv");
        std::fs::write(&file, "old").unwrap();
        let e = write_file_with(&file, |tmp| {
            std::fs::write(tmp, "half").unwrap();
            anyhow::bail!("no space left on device (injected)")
        })
        .unwrap_err();
        assert!(format!("{e:#}").contains("injected"));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
        // A directory whose filling fails.
        let dir = tmp.path().join("res");
        let e = write_dir(
            &dir,
            &[("ok.txt", "x".into()), ("no/such/dir.txt", "y".into())],
        )
        .unwrap_err();
        assert!(format!("{e:#}").contains("cannot write"), "{e:#}");
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }
}

mod downloads {
    use cli::traces::{Found, TraceSettings, download_cap, resolve};
    use experiments::known_trace;

    use super::*;

    const KTH: &str = "KTH-SP2-1996-2.1-cln";

    fn settings(tmp: &TempDir, mirror: &str) -> TraceSettings {
        TraceSettings {
            traces_dir: None,
            repo_traces: None,
            cache: tmp.path().join("cache"),
            mirror: Some(mirror.to_string()),
            no_stand_in: true,
        }
    }

    fn shared_kth() -> Option<PathBuf> {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/traces")
            .join(format!("{KTH}.swf.gz"));
        p.is_file().then_some(p)
    }

    #[test]
    fn mirrors_must_be_urls_and_never_options() {
        let tmp = TempDir::new("mirror-scheme");
        for bad in [
            "-K/tmp/x",
            "--config=/etc/passwd",
            "ftp://x/y",
            "/plain/path",
            "file://a\nb",
        ] {
            let e = resolve(KTH, tmp.path(), &settings(&tmp, bad)).unwrap_err();
            let e = format!("{e:#}");
            assert!(e.contains("TRACES_MIRROR"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_mirror_path_starting_with_a_dash_downloads() {
        let Some(real) = shared_kth() else {
            eprintln!("note: the shared KTH trace is absent; skipped");
            return;
        };
        let tmp = TempDir::new("mirror-dash");
        let mirror = tmp.path().join("-mirror");
        std::fs::create_dir_all(&mirror).unwrap();
        std::fs::copy(real, mirror.join(format!("{KTH}.swf.gz"))).unwrap();
        let url = format!("file://{}", mirror.display());
        let found = resolve(KTH, tmp.path(), &settings(&tmp, &url)).unwrap();
        assert!(matches!(found, Found::File { .. }), "{found:?}");
        let cache: Vec<String> = std::fs::read_dir(tmp.path().join("cache"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(cache, [format!("{KTH}.swf.gz")]);
    }

    /// Fetching KTH-SP2 from `mirror` stops at the download cap and leaves
    /// nothing in the cache.
    fn assert_download_capped(tmp: &TempDir, mirror: &std::path::Path) {
        let url = format!("file://{}", mirror.display());
        let e = format!(
            "{:#}",
            resolve(KTH, tmp.path(), &settings(tmp, &url)).unwrap_err()
        );
        assert!(
            e.contains("Maximum file size exceeded") || e.contains("cap for downloads"),
            "{e}"
        );
        let cache: Vec<_> = std::fs::read_dir(tmp.path().join("cache"))
            .unwrap()
            .collect();
        assert!(cache.is_empty(), "{cache:?}");
    }

    #[test]
    fn an_oversized_download_is_stopped_and_deleted() {
        let tmp = TempDir::new("mirror-big");
        let mirror = tmp.path().join("mirror");
        std::fs::create_dir_all(&mirror).unwrap();
        let cap = download_cap(known_trace(KTH).unwrap());
        std::fs::File::create(mirror.join(format!("{KTH}.swf.gz")))
            .unwrap()
            .set_len(cap.bytes + 1)
            .unwrap();
        assert_download_capped(&tmp, &mirror);
    }

    #[test]
    fn an_endless_download_is_stopped_at_the_cap() {
        let tmp = TempDir::new("mirror-endless");
        let mirror = tmp.path().join("mirror");
        std::fs::create_dir_all(&mirror).unwrap();
        // No size to check in advance: only the reader's cap stops it.
        symlink("/dev/zero", mirror.join(format!("{KTH}.swf.gz"))).unwrap();
        assert_download_capped(&tmp, &mirror);
    }
}

mod bounds {
    use super::*;

    #[test]
    fn out_of_range_values_are_refused_before_work() {
        let tmp = setup("bounds");
        let simulate = |extra: &[&str]| {
            let mut args = vec!["simulate", "--trace", "tiny.swf", "--policy", "easy"];
            args.extend_from_slice(extra);
            xtask(&tmp, &args)
        };
        for window in [
            "0:9223372036854775807",
            "-9223372036854775808:0",
            "4503599627370497:4503599627370498",
            "5:5",
            "6:5",
            "1:2:3",
        ] {
            let out = simulate(&["--gantt", "g.svg", &format!("--window={window}")]);
            check(&out, 2, &["--window"], window);
        }
        let long = "x".repeat(300);
        for flag in ["--jobs-csv", "--gantt", "--timeline", "--schedule-out"] {
            let out = simulate(&[flag, &long]);
            check(&out, 1, &[flag, "255-byte"], flag);
            assert!(out.stdout.is_empty(), "{flag}: it simulated first");
        }

        for (args, flag) in [
            (&["run", "exp.toml", "--threads", "4097"][..], "--threads"),
            (&["run", "exp.toml", "--threads", "0"], "--threads"),
            (
                &["run", "exp.toml", "--shard", "2/2", "--cells", "c"],
                "--shard",
            ),
            (
                &[
                    "simulate", "--trace", "tiny.swf", "--policy", "easy", "--procs", "0",
                ],
                "--procs",
            ),
            (&["bench", "--runs", "0"], "--runs"),
        ] {
            check(&xtask(&tmp, args), 2, &[flag], &format!("{args:?}"));
        }

        let id = format!("test/{}", "a".repeat(250));
        std::fs::write(
            tmp.path().join("long.toml"),
            CONFIG.replace("test/tiny", &id),
        )
        .unwrap();
        let out = xtask(&tmp, &["run", "long.toml", "--out", "res"]);
        check(&out, 1, &["id part", "above the limit of 200"], "long id");

        let huge = CONFIG.replace("seed = 3", "seed = 3\nrepetitions = 4294967295");
        std::fs::write(tmp.path().join("huge.toml"), huge).unwrap();
        for (var, value, needles) in [
            (
                "USCHED_MAX_REPETITIONS",
                "18446744073709551615",
                &["USCHED_MAX_REPETITIONS", "absolute ceiling of 1000000"][..],
            ),
            (
                "USCHED_MAX_REPETITIONS",
                "1000000",
                &["`repetitions` is 4294967295", "absolute ceiling of 1000000"][..],
            ),
            (
                "USCHED_MAX_RUNS",
                "18446744073709551615",
                &["USCHED_MAX_RUNS", "ceiling"][..],
            ),
            (
                "USCHED_MAX_GENERATED_JOBS",
                "99999999999999",
                &["USCHED_MAX_GENERATED_JOBS", "ceiling"][..],
            ),
            ("USCHED_MAX_WORKLOADS", "-1", &["USCHED_MAX_WORKLOADS"][..]),
        ] {
            let out = xtask_env(&tmp, &["run", "huge.toml", "--out", "res"], &[(var, value)]);
            check(&out, 1, needles, &format!("{var}={value}"));
        }
    }
}

//! Own studies through the command line, on generated workloads (no trace
//! needed): a second sweep dimension and a coupled sweep with their panel
//! ids, the errors a malformed sweep gets, results of another
//! configuration in `--out` kept unless `--replace`, `--combined`, and
//! `verify` on an own id.

use std::path::Path;
use std::process::Output;

use crate::common::spawn::{offline_xtask, output};
use crate::common::tempdir::TempDir;

/// A study no paper ran: EASY and conservative on a small Lublin99
/// workload, over its offered load (a workload field), `bsld_bound`
/// moving with it, and the estimate model as the grid.
const STUDY: &str = r#"version = 2
id = "study/grid"
title = "A grid and a coupled sweep"
kind = "backfilling"
seed = 7
repetitions = 1
series = ["easy", "conservative"]

[[workloads]]
label = "Lublin99"
lublin99 = { procs = 64, jobs = 2000 }

[sweep]
axis = "workload.lublin99.load"
values = [0.5, 0.9]
label = "offered load"
with = { bsld_bound = [10, 60] }
grid = { axis = "workload.lublin99.estimates", values = ["f:2", "f:10"], label = "estimates" }

[[panels]]
id = "wait"
metric = "mean_wait"

[[claims]]
text = "a claim addresses a panel of the grid"
check.within = { panel = "wait@f:10", series = "easy", at = 0.9, lo = 0, hi = 1e9 }
"#;

fn run(tmp: &TempDir, args: &[&str]) -> Output {
    output(offline_xtask(tmp.path()).args(args)).unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn a_grid_and_a_coupled_sweep_make_a_panel_per_grid_value() {
    let tmp = TempDir::new("studies-grid");
    std::fs::write(tmp.path().join("study.toml"), STUDY).unwrap();
    let out = run(&tmp, &["run", "study.toml", "--out", "res", "-q"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = tmp.path().join("res/study/grid");
    let data = read(&dir.join("data.csv"));
    let rows: Vec<Vec<&str>> = data
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    // 2 grid values × 2 x values × 2 series.
    assert_eq!(rows.len(), 8, "{data}");
    let panels: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(&panels[..4], ["wait@f:2"; 4], "{data}");
    assert_eq!(&panels[4..], ["wait@f:10"; 4], "{data}");
    // The grid value reaches the workload: the estimate models give
    // different waits at the same load.
    let y = |panel: &str, series: &str, x: &str| -> String {
        rows.iter()
            .find(|r| r[0] == panel && r[1] == series && r[2] == x)
            .map(|r| r[3].to_string())
            .unwrap_or_else(|| panic!("no row {panel},{series},{x} in {data}"))
    };
    let values = |panel: &str| -> Vec<&str> {
        rows.iter()
            .filter(|r| r[0] == panel)
            .map(|r| r[3])
            .collect()
    };
    assert_ne!(values("wait@f:2"), values("wait@f:10"), "{data}");
    // The load (the axis) reaches it too.
    assert_ne!(y("wait@f:10", "easy", "0.5"), y("wait@f:10", "easy", "0.9"));
    let summary = read(&dir.join("summary.md"));
    assert!(summary.contains("(estimates = f:10)"), "{summary}");
    assert!(summary.contains("panel `wait@f:10`"), "{summary}");
    assert!(summary.contains("**PASS**"), "{summary}");
    // The run labels name the point: the axis and the grid value.
    let out = run(&tmp, &["run", "study.toml", "--out", "res", "-v"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("at workload.lublin99.load = 0.9, workload.lublin99.estimates = f:10"),
        "{stderr}"
    );
    // Same bytes on one thread.
    let out = run(
        &tmp,
        &["run", "study.toml", "--out", "one", "--threads", "1", "-q"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    for f in ["data.csv", "samples.csv", "figure.svg", "summary.md"] {
        assert_eq!(
            read(&dir.join(f)),
            read(&tmp.path().join("one/study/grid").join(f)),
            "{f}"
        );
    }
}

#[test]
fn a_malformed_sweep_is_an_error_naming_the_line() {
    let tmp = TempDir::new("studies-errors");
    let cases: [(&str, &str, &str); 6] = [
        // On the axis as in the grid (the axis once took it, and each
        // label seeded another generated workload under one name).
        (
            "axis = \"workload.lublin99.load\"\nvalues = [0.5, 0.9]",
            "axis = \"workload.label\"\nvalues = [\"Lublin99\", \"zz\"]",
            "a sweep cannot rename workloads",
        ),
        (
            "with = { bsld_bound = [10, 60] }",
            "with = { bsld_bound = [10] }",
            "`with.bsld_bound` has 1 values, expected 2, one per x value",
        ),
        (
            "with = { bsld_bound = [10, 60] }",
            "with = { \"workload.lublin99.load\" = [0.5, 0.9] }",
            "`workload.lublin99.load` is swept twice",
        ),
        (
            "axis = \"workload.lublin99.estimates\"",
            "axis = \"workload.label\"",
            "a sweep cannot rename workloads",
        ),
        (
            "values = [\"f:2\", \"f:10\"]",
            "values = [\"f:2\", \"sometimes\"]",
            "workload.lublin99.estimates = sometimes: workload 'Lublin99'",
        ),
        (
            "series = [\"easy\", \"conservative\"]",
            "series = [\"easy\", { name = \"c\", params = { policy = \"conservative\", bsld_bound = 5 } }]",
            "series 'c' sets `bsld_bound`, which the sweep sets",
        ),
    ];
    for (from, to, needle) in cases {
        assert!(STUDY.contains(from), "{from}");
        let config = STUDY.replacen(from, to, 1);
        std::fs::write(tmp.path().join("bad.toml"), &config).unwrap();
        let out = run(&tmp, &["run", "bad.toml", "--out", "res", "-q"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        assert!(stderr.contains("bad.toml:"), "{to}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{to}: wanted {needle:?} in {stderr}"
        );
        assert!(!tmp.path().join("res").exists(), "{to}: nothing is written");
    }
}

#[test]
fn results_of_another_configuration_are_kept_unless_replace() {
    let tmp = TempDir::new("studies-replace");
    std::fs::write(tmp.path().join("study.toml"), STUDY).unwrap();
    let out = run(&tmp, &["run", "study.toml", "--out", "res", "-q"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let data = tmp.path().join("res/study/grid/data.csv");
    let before = read(&data);
    // The same id, another seed: other results.
    std::fs::write(
        tmp.path().join("study.toml"),
        STUDY.replacen("seed = 7", "seed = 8", 1),
    )
    .unwrap();
    let out = run(&tmp, &["run", "study.toml", "--out", "res", "-q"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--replace"), "{stderr}");
    assert_eq!(read(&data), before, "kept");
    let combined = tmp.path().join("all.csv");
    let out = run(
        &tmp,
        &[
            "run",
            "study.toml",
            "--out",
            "res",
            "--replace",
            "--combined",
            combined.to_str().unwrap(),
            "-q",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_ne!(read(&data), before, "replaced");
    // The combined CSV: data.csv's rows, the experiment first.
    let all = read(&combined);
    let mut lines = all.lines();
    assert_eq!(
        lines.next(),
        Some("experiment,panel,series,x,y,ci_lo,ci_hi,runs")
    );
    let rows: Vec<&str> = lines.collect();
    let mine: Vec<String> = read(&data)
        .lines()
        .skip(1)
        .map(|l| format!("study/grid,{l}"))
        .collect();
    assert_eq!(rows, mine);
    // verify takes the id of an own study, and then checks that study
    // alone: no reproduction document of the papers, no word about them.
    let out = run(&tmp, &["verify", "study/grid", "--out", "res"]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{}{stderr}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("study/grid:"),
        "{}",
        text(&out.stdout)
    );
    assert!(!stderr.contains("paper figures"), "{stderr}");
    assert!(!stderr.contains("sensitivity"), "{stderr}");
    assert!(!tmp.path().join("res/REPRODUCTION.md").exists());
}

#[test]
fn a_generated_workload_is_a_file_and_a_trace_spec_alike() {
    let tmp = TempDir::new("studies-generate");
    let file = tmp.path().join("l.swf");
    let out = run(
        &tmp,
        &[
            "generate",
            "lublin99",
            "--procs",
            "64",
            "--jobs",
            "500",
            "--load",
            "0.7",
            "--seed",
            "3",
            "--estimates",
            "f:3",
            "--out",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let swf = read(&file);
    assert_eq!(swf.lines().filter(|l| !l.starts_with(';')).count(), 500);
    // The same model as a trace spec replays the same jobs.
    let metrics = |trace: &str| -> Vec<String> {
        let out = run(&tmp, &["simulate", "--trace", trace, "--policy", "easy"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with("wall time"))
            // The trace line: its name differs, its checksum may not.
            .map(|l| match l.find("(sha256") {
                Some(i) if l.starts_with("trace") => l[i..].to_string(),
                _ => l.to_string(),
            })
            .collect()
    };
    let from_file = metrics(file.to_str().unwrap());
    assert!(
        from_file.iter().any(|l| l.starts_with("mean wait")),
        "{from_file:?}"
    );
    assert_eq!(
        from_file,
        metrics("lublin99:procs=64,jobs=500,seed=3,load=0.7,estimates=f:3")
    );
    // A file the tool did not write is never replaced without --force.
    let mine = tmp.path().join("mine.swf");
    std::fs::write(&mine, "; my own log\n").unwrap();
    let out = run(
        &tmp,
        &[
            "generate",
            "lublin99",
            "--procs",
            "8",
            "--jobs",
            "10",
            "--out",
            mine.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--force"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(&mine), "; my own log\n");
}

/// `run` takes files and `reproduce` ids: each given the other's argument
/// says which command takes it, and runs nothing.
#[test]
fn an_id_for_run_or_a_file_for_reproduce_names_the_other_command() {
    let tmp = TempDir::new("studies-commands");
    std::fs::write(tmp.path().join("study.toml"), STUDY).unwrap();
    let out = run(&tmp, &["run", "baseline/backfilling", "--out", "res"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "baseline/backfilling is no file but the id of an experiment in configs/: \
             `cargo xtask reproduce -- baseline/backfilling` runs it"
        ),
        "{stderr}"
    );
    let out = run(&tmp, &["reproduce", "study.toml", "--out", "res"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "'study.toml' is a configuration file, not an experiment id: \
             `cargo xtask run -- study.toml` runs it"
        ),
        "{stderr}"
    );
    assert!(!tmp.path().join("res").exists(), "nothing is written");
}

/// A generated workload drawn anew for each repetition is recorded with
/// its repetition; the check of what `--out` holds read it back without
/// it, so the second run of an unchanged study of several repetitions was
/// refused as "computed from other data" (the same seeds on both sides).
#[test]
fn the_same_study_of_several_repetitions_runs_again_into_its_results() {
    let tmp = TempDir::new("studies-rerun");
    let study = STUDY.replacen("repetitions = 1", "repetitions = 2", 1);
    std::fs::write(tmp.path().join("study.toml"), study).unwrap();
    let out = run(&tmp, &["run", "study.toml", "--out", "res", "-q"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run_toml = read(&tmp.path().join("res/study/grid/run.toml"));
    assert!(run_toml.contains("repetition = 2"), "{run_toml}");
    let data = read(&tmp.path().join("res/study/grid/data.csv"));
    let out = run(&tmp, &["run", "study.toml", "--out", "res"]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("replaced the results of the same configuration and data"),
        "{stderr}"
    );
    assert_eq!(read(&tmp.path().join("res/study/grid/data.csv")), data);
}

/// `verify` of an example's id (a catalog entry that is no paper figure)
/// checked every result in `--out` and wrote a papers' REPRODUCTION.md
/// there ("results for 0 of 20 paper figures"); ids that name no figure
/// are checked alone, as an own study's are, and no document is written.
#[test]
fn verify_of_an_example_checks_it_alone() {
    let tmp = TempDir::new("studies-verify-example");
    let id = "examples/utility-max-ttl";
    let out = run(&tmp, &["reproduce", id, "--out", "res", "-q"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&tmp, &["verify", id, "--out", "res"]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(text(&out.stdout).contains(&format!("{id}:")), "{stderr}");
    assert!(
        stderr.contains("checked the results named only"),
        "{stderr}"
    );
    assert!(!stderr.contains("sensitivity table in"), "{stderr}");
    assert!(!tmp.path().join("res/REPRODUCTION.md").exists());
}

/// One configuration file given two ways (`../cfg/study.toml` from one
/// directory, `/abs/cfg/../cfg/study.toml` with `--root` from another, the
/// root itself through a symbolic link) was two configurations: run.toml
/// named it differently, and the second shard into the same cells was
/// refused as "another run of the same configuration". Now it is one name
/// and one run: the shards merge to the unsharded run's bytes.
#[test]
fn one_configuration_spelt_two_ways_is_one_run() {
    let tmp = TempDir::new("studies-one-name");
    let root = crate::common::checkout();
    let (cfg, work) = (tmp.path().join("cfg"), tmp.path().join("work"));
    std::fs::create_dir_all(&cfg).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(cfg.join("study.toml"), STUDY).unwrap();
    let link = tmp.path().join("root-link");
    std::os::unix::fs::symlink(&root, &link).unwrap();
    let spelt = format!("{}/../cfg/study.toml", cfg.display());
    let in_work = |args: &[&str]| output(offline_xtask(&work).args(args)).unwrap();
    let out = in_work(&["run", "../cfg/study.toml", "--out", "../whole", "-q"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shards = [
        in_work(&[
            "run",
            "../cfg/study.toml",
            "--shard",
            "0/2",
            "--cells",
            "../cells",
        ]),
        output(
            offline_xtask(tmp.path())
                .args(["--root", link.to_str().unwrap(), "run", &spelt])
                .args(["--shard", "1/2", "--cells", "cells"]),
        )
        .unwrap(),
    ];
    for out in &shards {
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let out = run(&tmp, &["merge", "cells", "--out", "merged", "-q"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for file in ["run.toml", "data.csv", "samples.csv", "summary.md"] {
        assert_eq!(
            read(&tmp.path().join("merged/study/grid").join(file)),
            read(&tmp.path().join("whole/study/grid").join(file)),
            "{file}"
        );
    }
    let run_toml = read(&tmp.path().join("whole/study/grid/run.toml"));
    let real = std::fs::canonicalize(cfg.join("study.toml")).unwrap();
    assert!(
        run_toml.contains(&format!("config_file = \"{}\"", real.display())),
        "{run_toml}"
    );
}

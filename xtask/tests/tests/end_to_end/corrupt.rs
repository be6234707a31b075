//! Intermediate files are checked before use: every corruption of a cells
//! directory makes `merge` fail (exit status 1) with an error naming the
//! file, and every corruption of a results directory makes `verify` fail
//! the same way. Each family starts from real, consistent files and breaks
//! one thing.

use super::command_line::{setup, text, xtask};
use super::*;

/// A corruption: its name, and what it does to the directory `dir`.
type Corruption = (&'static str, fn(&Path));

/// Replaces the first line starting with `prefix` in `file`.
fn edit_line(file: &Path, prefix: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut done = false;
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            if !done && l.starts_with(prefix) {
                done = true;
                to.to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(done, "no line starts with {prefix:?} in {}", file.display());
    std::fs::write(file, out.join("\n") + "\n").unwrap();
}

/// The experiment's cells directory in `cells`.
fn tiny(cells: &Path) -> PathBuf {
    cells.join("test/tiny")
}

fn shard0(cells: &Path) -> PathBuf {
    tiny(cells).join("shard-0-of-3.toml")
}

const CELLS: &[Corruption] = &[
    ("a metric dropped", |c| {
        edit_line(&shard0(c), "killed = ", "")
    }),
    ("an unknown metric", |c| {
        edit_line(&shard0(c), "killed = ", "killed = \"0\"\nbogus = \"1\"")
    }),
    ("a sample list of another length", |c| {
        edit_line(&shard0(c), "jobs = ", "jobs = \"300 300\"")
    }),
    ("a negative bounded slowdown", |c| {
        edit_line(&shard0(c), "mean_bsld = ", "mean_bsld = \"-3\"")
    }),
    ("a bounded slowdown below one", |c| {
        edit_line(&shard0(c), "mean_bsld = ", "mean_bsld = \"0.5\"")
    }),
    // Not "NaN": a NaN is a sample without a value, which a kind may
    // return (the provisioning kind's means over no measured job), and
    // `merge` takes it as `run` does, so the same bytes come out sharded
    // or not (`a_sample_without_a_value_merges_as_it_runs`).
    ("infinity", |c| {
        edit_line(&shard0(c), "mean_wait = ", "mean_wait = \"inf\"")
    }),
    ("a utilisation above 100%", |c| {
        edit_line(&shard0(c), "utilization = ", "utilization = \"180\"")
    }),
    ("a negative count", |c| {
        edit_line(&shard0(c), "jobs = ", "jobs = \"-1\"")
    }),
    ("a cell index out of range", |c| {
        edit_line(&shard0(c), "index = ", "index = 999999")
    }),
    ("a cell of another shard", |c| {
        edit_line(&shard0(c), "index = ", "index = 1")
    }),
    ("a run of another cell", |c| {
        edit_line(&shard0(c), "run = ", "run = 2")
    }),
    ("a shard file under another shard's name", |c| {
        std::fs::copy(shard0(c), tiny(c).join("shard-1-of-3.toml")).unwrap();
    }),
    ("the same experiment in two directories", |c| {
        let copy = c.join("copy");
        std::fs::create_dir_all(&copy).unwrap();
        std::fs::copy(
            tiny(c).join("experiment.toml"),
            copy.join("experiment.toml"),
        )
        .unwrap();
    }),
    ("a garbage shard file", |c| {
        std::fs::write(shard0(c), "format = \"usched-cells\"\nversion = 1\n[[[").unwrap()
    }),
    // One shard's account of the workloads edited: that file is named, not
    // the honest shard compared against it.
    ("one shard's machine size", |c| {
        edit_line(&shard0(c), "capacity = ", "capacity = 17")
    }),
    ("the cell count in experiment.toml", |c| {
        edit_line(&tiny(c).join("experiment.toml"), "cells = ", "cells = 4")
    }),
    // Not a hash: a message shows its first characters, which must not cut
    // one in two (this was a panic).
    ("a config_sha256 of other characters", |c| {
        edit_line(
            &tiny(c).join("experiment.toml"),
            "config_sha256 = ",
            "config_sha256 = \"a\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\"",
        )
    }),
];

/// Which file each cells corruption must name.
fn named_file(name: &str) -> &'static str {
    match name {
        "a shard file under another shard's name" => "shard-1-of-3.toml",
        "the same experiment in two directories" => "copy/experiment.toml",
        "the cell count in experiment.toml" => "`cells` is 4 there",
        "a config_sha256 of other characters" => "expected 64 lowercase hexadecimal digits",
        _ => "shard-0-of-3.toml",
    }
}

#[test]
fn every_cells_corruption_stops_merge_naming_the_file() {
    let tmp = setup("corrupt-cells");
    for i in 0..3 {
        let shard = format!("{i}/3");
        let out = xtask(
            &tmp,
            &["run", "exp.toml", "--shard", &shard, "--cells", "clean"],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let clean = tmp.path().join("clean");
    let out = xtask(&tmp, &["merge", "clean", "--out", "merged"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for (n, (name, corrupt)) in CELLS.iter().enumerate() {
        let cells = tmp.path().join(format!("cells-{n}"));
        copy_dir(&clean, &cells);
        corrupt(&cells);
        let dir = format!("cells-{n}");
        let out = xtask(&tmp, &["merge", &dir, "--out", &format!("out-{n}")]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(
            stderr.contains(named_file(name)) && !stderr.contains("panicked"),
            "{name}: the error does not name {}: {stderr}",
            named_file(name)
        );
        assert!(
            !tmp.path()
                .join(format!("out-{n}/test/tiny/data.csv"))
                .exists(),
            "{name}: results were written"
        );
    }
}

#[test]
fn a_cell_in_two_files_with_other_values_names_both() {
    let tmp = setup("corrupt-duplicate");
    for shard in ["0/3", "0/1"] {
        let out = xtask(
            &tmp,
            &["run", "exp.toml", "--shard", shard, "--cells", "cells"],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let cells = tmp.path().join("cells");
    // Equal values in both files merge (shards of two counts).
    let out = xtask(&tmp, &["merge", "cells", "--out", "ok"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let edited = tiny(&cells).join("shard-0-of-1.toml");
    edit_line(&edited, "mean_wait = ", "mean_wait = \"12345\"");
    // Sealed again (its checksum recomputed), as a file measured on other
    // inputs would be: the two files disagree, and both are named.
    let written = std::fs::read_to_string(&edited).unwrap();
    let line = written
        .lines()
        .find(|l| l.starts_with("cells_sha256 = "))
        .unwrap()
        .to_owned();
    let without = written.replacen(&format!("\n{line}\n"), "\n", 1);
    let sealed = format!(
        "\ncells_sha256 = \"{}\"\n",
        experiments::sha256_hex(without.as_bytes())
    );
    std::fs::write(
        &edited,
        written.replacen(&format!("\n{line}\n"), &sealed, 1),
    )
    .unwrap();
    let out = xtask(&tmp, &["merge", "cells", "--out", "bad"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("shard-0-of-1.toml") && stderr.contains("shard-0-of-3.toml"),
        "{stderr}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}

/// The results directory of baseline/backfilling under `res`.
fn baseline(res: &Path) -> PathBuf {
    res.join("baseline/backfilling")
}

/// A results corruption, and the file its error must name.
type ResultsCorruption = (&'static str, &'static str, fn(&Path));

const RESULTS: &[ResultsCorruption] = &[
    ("one data.csv value edited", "data.csv", |d| {
        edit_line(
            &d.join("data.csv"),
            "bsld,easy,SDSC-SP2,",
            "bsld,easy,SDSC-SP2,99999999,,,1",
        )
    }),
    ("a data.csv row dropped", "data.csv", |d| {
        edit_line(&d.join("data.csv"), "util,easy,KTH-SP2,", "")
    }),
    ("a data.csv row of another series", "data.csv", |d| {
        edit_line(
            &d.join("data.csv"),
            "wait,easy,SDSC-SP2,",
            "wait,sjf,SDSC-SP2,1,,,1",
        )
    }),
    ("a run count edited", "data.csv", |d| {
        edit_line(
            &d.join("data.csv"),
            "bsld,easy,SDSC-SP2,",
            "bsld,easy,SDSC-SP2,50,,,7",
        )
    }),
    ("one sample edited", "data.csv", |d| {
        edit_line(
            &d.join("samples.csv"),
            "bsld,easy,SDSC-SP2,",
            "bsld,easy,SDSC-SP2,1,1,51",
        )
    }),
    ("a negative bounded slowdown", "samples.csv", |d| {
        edit_line(
            &d.join("samples.csv"),
            "bsld,easy,SDSC-SP2,",
            "bsld,easy,SDSC-SP2,1,1,-50",
        );
        edit_line(
            &d.join("data.csv"),
            "bsld,easy,SDSC-SP2,",
            "bsld,easy,SDSC-SP2,-50,,,1",
        );
    }),
    ("a NaN sample", "samples.csv", |d| {
        edit_line(
            &d.join("samples.csv"),
            "wait,easy,SDSC-SP2,",
            "wait,easy,SDSC-SP2,1,1,NaN",
        )
    }),
    ("a repetition out of range", "samples.csv", |d| {
        edit_line(
            &d.join("samples.csv"),
            "wait,easy,SDSC-SP2,",
            "wait,easy,SDSC-SP2,2,1,1",
        )
    }),
    ("a unit twice", "samples.csv", |d| {
        edit_line(
            &d.join("samples.csv"),
            "wait,easy,SDSC-SP2,",
            "wait,easy,SDSC-SP2,1,1,1\nwait,easy,SDSC-SP2,1,1,1",
        )
    }),
    ("a point not in the configuration", "samples.csv", |d| {
        edit_line(
            &d.join("samples.csv"),
            "wait,easy,SDSC-SP2,",
            "wait,easy,SDSC-SP2,1,1,1\nwait,sjf,SDSC-SP2,1,1,1",
        )
    }),
    ("samples.csv missing", "samples.csv", |d| {
        std::fs::remove_file(d.join("samples.csv")).unwrap()
    }),
    ("samples.csv emptied", "data.csv", |d| {
        std::fs::write(
            d.join("samples.csv"),
            "panel,series,x,repetition,sample,value\n",
        )
        .unwrap()
    }),
    ("run.toml's hash edited", "run.toml", |d| {
        edit_line(
            &d.join("run.toml"),
            "config_sha256 = ",
            "config_sha256 = \"0000\"",
        )
    }),
    ("run.toml's configuration edited", "run.toml", |d| {
        edit_line(&d.join("run.toml"), "seed = ", "seed = 4")
    }),
    ("a garbage run.toml", "run.toml", |d| {
        std::fs::write(d.join("run.toml"), "this is [not toml\n").unwrap()
    }),
    ("a run.toml without provenance", "run.toml", |d| {
        std::fs::write(
            d.join("run.toml"),
            "[config]\nid = \"baseline/backfilling\"\n",
        )
        .unwrap()
    }),
    ("run.toml missing", "run.toml", |d| {
        std::fs::remove_file(d.join("run.toml")).unwrap()
    }),
    // What the data do not hold, the marker does: the files people read.
    ("summary.md edited", "summary.md", |d| {
        std::fs::write(d.join("summary.md"), "Every claim: PASS\n").unwrap()
    }),
    ("figure.svg edited", "figure.svg", |d| {
        std::fs::write(d.join("figure.svg"), "<svg><!-- drawn by hand --></svg>").unwrap()
    }),
    ("figure.svg missing", "figure.svg", |d| {
        std::fs::remove_file(d.join("figure.svg")).unwrap()
    }),
    ("a file added", "notes.txt", |d| {
        std::fs::write(d.join("notes.txt"), "mine\n").unwrap()
    }),
    ("the marker removed", ".usched-results", |d| {
        std::fs::remove_file(d.join(".usched-results")).unwrap()
    }),
    ("the marker edited", ".usched-results", |d| {
        std::fs::write(d.join(".usched-results"), "manifest = 2\n").unwrap()
    }),
];

const VERIFY: [&str; 6] = [
    "verify",
    "baseline/backfilling",
    "--out",
    "res",
    "--doc",
    "docs/REPRODUCTION.md",
];

#[test]
fn every_results_corruption_stops_verify_naming_the_file() {
    let tmp = setup("corrupt-results");
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/baseline/backfilling.toml");
    let value = |panel: &str, series: &str, _: &str| match (panel, series) {
        ("bsld", "easy") => 50.0,
        ("bsld", _) => 100.0,
        _ => 10.0,
    };
    let res = tmp.path().join("res");
    crate::common::results::write_results(&config, &baseline(&res), &value);
    let out = xtask(&tmp, &VERIFY);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for (name, file, corrupt) in RESULTS {
        std::fs::remove_dir_all(baseline(&res)).unwrap();
        crate::common::results::write_results(&config, &baseline(&res), &value);
        corrupt(&baseline(&res));
        let out = xtask(&tmp, &VERIFY);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        let path = format!("baseline/backfilling/{file}");
        assert!(
            stderr.contains(&path) && !stderr.contains("panicked"),
            "{name}: the error does not name {path}: {stderr}"
        );
        assert!(
            !text(&out.stdout).contains("PASS"),
            "{name}: verdicts printed from corrupt results"
        );
    }
}

/// Results of a configuration outside configs/ (`cargo xtask run`) are
/// checked too, against the configuration their run.toml records: their
/// claims are judged when they check out, and a corruption stops verify
/// naming the file, never skipped silently.
#[test]
fn results_of_own_configs_are_verified_against_their_run_toml() {
    let tmp = setup("own-results");
    let out = xtask(&tmp, &["run", "exp.toml", "--out", "res", "-q"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let verify = ["verify", "--out", "res", "--doc", "res/R.md", "-q"];
    let out = xtask(&tmp, &verify);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("test/tiny") && stdout.contains("PASS") && stdout.contains("FAIL"),
        "{stdout}"
    );
    let dir = tmp.path().join("res/test/tiny");
    type Corruption = (&'static str, &'static str, fn(&str) -> String);
    let corruptions: [Corruption; 4] = [
        ("a data.csv value", "data.csv", |t| {
            let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
            let fields: Vec<&str> = lines[1].split(',').collect();
            let edited = format!(
                "{},{},{},99999999,{}",
                fields[0],
                fields[1],
                fields[2],
                fields[4..].join(",")
            );
            lines[1] = edited;
            lines.join("\n") + "\n"
        }),
        ("a negative sample", "samples.csv", |t| {
            let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
            let (head, _) = lines[1].rsplit_once(',').unwrap();
            lines[1] = format!("{head},-3");
            lines.join("\n") + "\n"
        }),
        ("run.toml garbage", "run.toml", |_| {
            "garbage = [[[".to_string()
        }),
        ("run.toml without a config", "run.toml", |t| {
            t.split("\n[config]").next().unwrap().to_string()
        }),
    ];
    for (name, file, corrupt) in corruptions {
        let path = dir.join(file);
        let original = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, corrupt(&original)).unwrap();
        let out = xtask(&tmp, &verify);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("test/tiny/{file}")),
            "{name}: {stderr}"
        );
        std::fs::write(&path, original).unwrap();
    }
}

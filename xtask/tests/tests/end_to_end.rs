//! Integration tests of `cargo xtask`: trace resolution, atomic outputs and
//! the command line end to end, all in temporary directories and offline.

use std::path::{Path, PathBuf};

use crate::common::tempdir::TempDir;

/// Writes a small generated trace (64 processors) as SWF text.
pub(crate) fn write_tiny_trace(path: &Path, jobs: usize) {
    let g = swf_io::lublin99::Lublin99 {
        procs: 64,
        duration: i64::MAX,
        max_jobs: Some(jobs),
        seed: 11,
        two_class: true,
        ..Default::default()
    };
    let mut bytes = Vec::new();
    swf_io::write_swf(&mut bytes, &g.header(), &g.generate()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// The project's shared traces (beside the repository).
fn shared_traces() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces")
}

/// Entries of a directory, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).map_or(vec![], |d| {
        d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    });
    v.sort();
    v
}

mod resolution {
    use cli::traces::{Found, TraceSettings, load, resolve};
    use experiments::known_trace;

    use super::*;

    const KTH: &str = "KTH-SP2-1996-2.1-cln";

    fn settings(tmp: &TempDir, traces_dir: bool, mirror: Option<String>) -> TraceSettings {
        let dir = tmp.path().join("traces");
        std::fs::create_dir_all(&dir).unwrap();
        TraceSettings {
            traces_dir: traces_dir.then_some(dir),
            repo_traces: None,
            cache: tmp.path().join("cache"),
            mirror,
            no_stand_in: false,
        }
    }

    fn nowhere(tmp: &TempDir) -> Option<String> {
        Some(format!("file://{}", tmp.path().join("no-mirror").display()))
    }

    #[test]
    fn traces_dir_comes_before_the_cache() {
        let tmp = TempDir::new("order");
        let s = settings(&tmp, true, nowhere(&tmp));
        std::fs::create_dir_all(&s.cache).unwrap();
        write_tiny_trace(&tmp.path().join("traces/mine.swf"), 20);
        write_tiny_trace(&s.cache.join("mine.swf"), 30);
        let found = resolve("mine", tmp.path(), &s).unwrap();
        assert_eq!(
            found,
            Found::File {
                path: tmp.path().join("traces/mine.swf"),
                known: None
            }
        );
        let source = load(&found, false).unwrap();
        assert!(!source.is_stand_in());

        let s = settings(&tmp, false, nowhere(&tmp));
        assert_eq!(
            resolve("mine", tmp.path(), &s).unwrap(),
            Found::File {
                path: s.cache.join("mine.swf"),
                known: None
            }
        );
    }

    #[test]
    fn paths_and_unknown_names() {
        let tmp = TempDir::new("paths");
        let s = settings(&tmp, true, nowhere(&tmp));
        write_tiny_trace(&tmp.path().join("x.swf"), 10);
        assert!(matches!(
            resolve("x.swf", tmp.path(), &s).unwrap(),
            Found::File { .. }
        ));
        let e = resolve("y.swf", tmp.path(), &s).unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
        let e = resolve("SOMETHING-ELSE", tmp.path(), &s)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("not a known trace") && e.contains("SDSC-SP2-1998-4.2-cln"),
            "{e}"
        );
        assert!(!e.contains("here is"), "nothing of that name here: {e}");
        // A bare word naming a directory or a file here is a trace's name;
        // the message says what is there and how to give it as a path.
        std::fs::create_dir(tmp.path().join("mydir")).unwrap();
        write_tiny_trace(&tmp.path().join("mytrace"), 10);
        for (word, what) in [
            ("mydir", "'mydir' here is a directory, not a trace file"),
            (
                "mytrace",
                "'mytrace' here is a file; to read it as a trace, give its path",
            ),
        ] {
            let e = resolve(word, tmp.path(), &s).unwrap_err().to_string();
            assert!(
                e.contains(what) && e.contains(&format!("./{word} is a path")),
                "{e}"
            );
        }
        assert!(matches!(
            resolve("./mytrace", tmp.path(), &s).unwrap(),
            Found::File { .. }
        ));
        // A link loop is there but cannot be read: not "does not exist".
        std::os::unix::fs::symlink("loop.swf", tmp.path().join("loop.swf")).unwrap();
        let e = resolve("loop.swf", tmp.path(), &s).unwrap_err().to_string();
        assert!(
            !e.contains("does not exist") && e.contains("symbolic links"),
            "{e}"
        );
    }

    #[test]
    fn mirror_download_is_verified_and_cached() {
        // The checksum must match the archive's, so this needs the real file.
        let real = shared_traces().join(format!("{KTH}.swf.gz"));
        if !real.is_file() {
            assert!(
                std::env::var_os("REQUIRE_SHARED").is_none(),
                "REQUIRE_SHARED is set but {} is missing",
                real.display()
            );
            eprintln!(
                "note: {} not found; mirror download test skipped",
                real.display()
            );
            return;
        }
        let tmp = TempDir::new("mirror-good");
        let mirror = tmp.path().join("mirror");
        std::fs::create_dir_all(&mirror).unwrap();
        std::fs::copy(real, mirror.join(format!("{KTH}.swf.gz"))).unwrap();
        let s = settings(&tmp, true, Some(format!("file://{}", mirror.display())));
        let found = resolve(KTH, tmp.path(), &s).unwrap();
        let cached = s.cache.join(format!("{KTH}.swf.gz"));
        assert_eq!(
            found,
            Found::File {
                path: cached.clone(),
                known: known_trace(KTH)
            }
        );
        assert_eq!(entries(&s.cache), [format!("{KTH}.swf.gz")]);
        // The second time the cache answers, even without a mirror.
        let s = TraceSettings {
            mirror: nowhere(&tmp),
            ..s
        };
        assert_eq!(
            resolve(KTH, tmp.path(), &s).unwrap(),
            Found::File {
                path: cached,
                known: known_trace(KTH)
            }
        );
    }

    #[test]
    fn bad_checksum_is_deleted_and_a_stand_in_follows() {
        let tmp = TempDir::new("mirror-bad");
        let mirror = tmp.path().join("mirror");
        std::fs::create_dir_all(&mirror).unwrap();
        std::fs::write(mirror.join(format!("{KTH}.swf.gz")), b"not the trace").unwrap();
        let s = settings(&tmp, true, Some(format!("file://{}", mirror.display())));
        let found = resolve(KTH, tmp.path(), &s).unwrap();
        assert_eq!(found, Found::StandIn(known_trace(KTH).unwrap()));
        assert!(entries(&s.cache).is_empty(), "{:?}", entries(&s.cache));
        assert!(load(&found, false).unwrap().is_stand_in());
    }

    #[test]
    fn unreachable_mirror_falls_back_to_a_stand_in_unless_forbidden() {
        let tmp = TempDir::new("mirror-none");
        let s = settings(&tmp, true, nowhere(&tmp));
        assert_eq!(
            resolve(KTH, tmp.path(), &s).unwrap(),
            Found::StandIn(known_trace(KTH).unwrap())
        );
        let s = TraceSettings {
            no_stand_in: true,
            ..s
        };
        let e = resolve(KTH, tmp.path(), &s).unwrap_err().to_string();
        assert!(e.contains("set TRACES_DIR"), "{e}");
    }
}

mod output {
    use cli::output::{write_dir, write_file};

    use super::*;

    #[test]
    fn a_failed_write_leaves_nothing_and_keeps_old_results() {
        let tmp = TempDir::new("atomic");
        let dir = tmp.path().join("paper/fig");
        let err = write_dir(
            &dir,
            &[("a.txt", "a".into()), ("no/such/b.txt", "b".into())],
        );
        assert!(err.is_err());
        assert!(!dir.exists());
        assert!(entries(&tmp.path().join("paper")).is_empty());

        write_dir(&dir, &[("a.txt", "old".into())]).unwrap();
        assert!(write_dir(&dir, &[("a.txt", "new".into()), ("no/b.txt", "b".into())]).is_err());
        assert_eq!(std::fs::read_to_string(dir.join("a.txt")).unwrap(), "old");
        write_dir(&dir, &[("a.txt", "new".into())]).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("a.txt")).unwrap(), "new");
        assert_eq!(entries(&tmp.path().join("paper")), ["fig"]);

        write_file(&tmp.path().join("f.txt"), b"x").unwrap();
        assert_eq!(entries(tmp.path()), ["f.txt", "paper"]);
    }
}

mod command_line {
    use std::process::{Command, Output};

    use super::*;

    pub(super) const CONFIG: &str = r#"version = 2
id = "test/tiny"
title = "Tiny end-to-end run"
paper = "none"
kind = "backfilling"
seed = 3
series = ["fcfs", "easy", "conservative"]

[[workloads]]
label = "tiny"
trace = "tiny.swf"

[sweep]
axis = "workload"
label = "trace"

[[panels]]
id = "util"
metric = "utilization"

[[panels]]
id = "bsld"
metric = "mean_bsld"

[[claims]]
text = "utilisation is a percentage"
check.within = { panel = "util", series = "easy", lo = 0, hi = 100 }

[[claims]]
text = "slowdown below one (impossible)"
check.within = { panel = "bsld", series = "easy", lo = 0, hi = 0.5 }
"#;

    /// Runs the xtask binary offline, with traces looked up in `tmp` only.
    pub(super) fn xtask(tmp: &TempDir, args: &[&str]) -> Output {
        crate::common::spawn::output(crate::common::spawn::offline_xtask(tmp.path()).args(args))
            .unwrap()
    }

    pub(super) fn text(b: &[u8]) -> String {
        String::from_utf8_lossy(b).into_owned()
    }

    pub(super) fn setup(name: &str) -> TempDir {
        let tmp = TempDir::new(name);
        write_tiny_trace(&tmp.path().join("tiny.swf"), 300);
        std::fs::write(tmp.path().join("exp.toml"), CONFIG).unwrap();
        tmp
    }

    /// `--no-claims`: the same data and figure, no verdicts and no claims
    /// section; `--strict-claims` with it is a usage error.
    #[test]
    fn no_claims_skips_the_claims_only() {
        let tmp = setup("no-claims");
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "a"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "b", "--no-claims"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            !stdout.contains("PASS") && !stdout.contains("## Claims"),
            "{stdout}"
        );
        let read =
            |d: &str, f: &str| std::fs::read(tmp.path().join(d).join("test/tiny").join(f)).unwrap();
        for f in ["data.csv", "samples.csv", "figure.svg"] {
            assert_eq!(read("a", f), read("b", f), "{f}");
        }
        let summary = text(&read("b", "summary.md"));
        assert!(
            !summary.contains("Claims") && summary.ends_with("|\n"),
            "{summary}"
        );
        let out = xtask(&tmp, &["run", "exp.toml", "--no-claims", "--strict-claims"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    }

    /// `describe` needs no repository; `--markdown` is configs/README.md.
    #[test]
    fn describe_prints_the_schema() {
        let tmp = setup("describe");
        let out = xtask(&tmp, &["describe", "--markdown"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let readme = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/README.md"),
        )
        .unwrap();
        assert!(
            text(&out.stdout) == readme,
            "describe --markdown differs from configs/README.md"
        );
        let out = xtask(&tmp, &["describe", "utility"]);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("mean_interarrival"),
            "{stdout}"
        );
        let out = xtask(&tmp, &["describe", "nope"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stderr).contains("unknown kind 'nope'"));
    }

    #[test]
    fn run_end_to_end_is_deterministic() {
        let tmp = setup("e2e");
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            stdout.contains("**PASS**") && stdout.contains("**FAIL**"),
            "{stdout}"
        );
        // Not a terminal: a plain line when the experiment's runs are done.
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("[1/1] test/tiny: 3/3 runs (100%)") && !stderr.contains("[3/3]"),
            "{stderr}"
        );
        let dir = tmp.path().join("res/test/tiny");
        assert_eq!(
            entries(&dir),
            [
                ".usched-results",
                "data.csv",
                "figure.svg",
                "run.toml",
                "samples.csv",
                "summary.md"
            ]
        );
        let read = |f: &str| std::fs::read(dir.join(f)).unwrap();
        let first: Vec<Vec<u8>> = ["data.csv", "figure.svg", "summary.md"]
            .iter()
            .map(|f| read(f))
            .collect();
        assert!(text(&first[0]).starts_with("panel,series,x,y,ci_lo,ci_hi,runs\nutil,fcfs,tiny,"));
        let run_toml = text(&read("run.toml"));
        assert!(
            run_toml.contains("source = \"tiny.swf\"")
                && run_toml.contains("sha256 = ")
                && run_toml.contains("git_revision"),
            "{run_toml}"
        );
        // run.toml is valid TOML whatever the seeds (derived seeds use all 64 bits).
        let parsed: toml::Table = run_toml.parse().expect("run.toml parses");
        let seeds = parsed["provenance"]["repetition_seeds"].as_array().unwrap();
        assert!(
            !seeds.is_empty() && seeds.iter().all(toml::Value::is_str),
            "{run_toml}"
        );

        let strict = xtask(
            &tmp,
            &[
                "run",
                "exp.toml",
                "--out=res",
                "--strict-claims",
                "--threads=1",
                "-v",
            ],
        );
        // -v: one line per run.
        let stderr = text(&strict.stderr);
        for n in 1..=3 {
            assert!(stderr.contains(&format!("[{n}/3] test/tiny: ")), "{stderr}");
        }
        assert_eq!(strict.status.code(), Some(3), "{}", text(&strict.stderr));
        let second: Vec<Vec<u8>> = ["data.csv", "figure.svg", "summary.md"]
            .iter()
            .map(|f| read(f))
            .collect();
        assert_eq!(first, second);
        assert_eq!(entries(&tmp.path().join("res/test")), ["tiny"]);
    }

    #[test]
    fn run_writes_every_cells_schedule_on_request() {
        let tmp = setup("schedules");
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res", "--schedules"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let dir = tmp.path().join("res/test/tiny");
        assert!(entries(&dir).contains(&"schedules".to_string()));
        let names: Vec<String> = ["fcfs", "easy", "conservative"]
            .iter()
            .flat_map(|s| {
                let stem = format!("{s}_on_tiny");
                [format!("{stem}.jobs.csv"), format!("{stem}.swf")]
            })
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(entries(&dir.join("schedules")), sorted);
        let swf = swf_io::read_trace(
            &dir.join("schedules/easy_on_tiny.swf"),
            swf_io::Mode::Strict,
        )
        .unwrap();
        assert_eq!(swf.records.len(), 300);
        assert!(
            swf.header
                .notes
                .iter()
                .any(|n| n.contains("simulated schedule of test/tiny: easy on tiny")),
            "{:?}",
            swf.header.notes
        );
        let csv = std::fs::read_to_string(dir.join("schedules/easy_on_tiny.jobs.csv")).unwrap();
        assert_eq!(csv.lines().count(), 301);
        // The metrics are those of a run without schedules; a run without
        // the flag leaves no schedules behind.
        let data = std::fs::read(dir.join("data.csv")).unwrap();
        let plain = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        assert!(plain.status.success(), "{}", text(&plain.stderr));
        assert_eq!(std::fs::read(dir.join("data.csv")).unwrap(), data);
        assert!(!entries(&dir).contains(&"schedules".to_string()));
    }

    #[test]
    fn a_bad_trace_line_leaves_no_results() {
        let tmp = setup("bad-trace");
        let good = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        assert!(good.status.success());
        let before = std::fs::read(tmp.path().join("res/test/tiny/data.csv")).unwrap();
        let mut swf = std::fs::read_to_string(tmp.path().join("tiny.swf")).unwrap();
        swf.push_str("999 12 x 1 1 -1 -1 1 1 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
        let bad_line = format!(
            "tiny.swf:{}: field 3 (wait time) is 'x'",
            swf.lines().count()
        );
        std::fs::write(tmp.path().join("tiny.swf"), swf).unwrap();
        for out_dir in ["res", "fresh"] {
            let out = xtask(&tmp, &["run", "exp.toml", "--out", out_dir]);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{stderr}");
            assert!(
                stderr.contains("tiny.swf") && stderr.contains(&bad_line),
                "{stderr}"
            );
            // The configuration's line that names the trace, too.
            assert!(
                stderr.contains("exp.toml:11:9: test/tiny: cannot load trace 'tiny.swf': ")
                    && stderr.contains("11 | trace = \"tiny.swf\""),
                "{stderr}"
            );
        }
        assert!(!tmp.path().join("fresh/test").exists());
        assert_eq!(entries(&tmp.path().join("res/test")), ["tiny"]);
        assert_eq!(
            std::fs::read(tmp.path().join("res/test/tiny/data.csv")).unwrap(),
            before
        );
    }

    #[test]
    fn config_errors_name_file_and_line() {
        let tmp = setup("config-error");
        std::fs::write(
            tmp.path().join("exp.toml"),
            CONFIG.replace("seed = 3", "seed = 3\nsede = 4"),
        )
        .unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("exp.toml:7:1: unknown field `sede`"),
            "{}",
            text(&out.stderr)
        );
        assert!(!tmp.path().join("res").exists());
    }

    #[test]
    fn unknown_ids_list_the_valid_ones() {
        let tmp = setup("ids");
        let out = xtask(&tmp, &["reproduce", "no-such-figure"]);
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("unknown experiment 'no-such-figure'; valid ids:")
                && stderr.contains("baseline/backfilling"),
            "{stderr}"
        );
        let list = xtask(&tmp, &["list"]);
        assert!(
            text(&list.stdout).contains("baseline/backfilling"),
            "{}",
            text(&list.stdout)
        );
    }

    #[test]
    fn simulate_prints_metrics_and_writes_the_schedule() {
        let tmp = setup("simulate");
        let out = xtask(
            &tmp,
            &[
                "simulate",
                "--trace",
                "tiny.swf",
                "--policy",
                "easy-k2",
                "--schedule-out",
                "sched.swf",
            ],
        );
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{}", text(&out.stderr));
        for needle in [
            "jobs simulated         300",
            "mean wait",
            "mean bounded slowdown",
            "utilisation",
            "wall time",
            "machine                64 processors",
        ] {
            assert!(stdout.contains(needle), "{needle}: {stdout}");
        }
        let schedule =
            swf_io::read_trace(&tmp.path().join("sched.swf"), swf_io::Mode::Strict).unwrap();
        assert_eq!(schedule.records.len(), 300);
        let bad = xtask(
            &tmp,
            &["simulate", "--trace", "tiny.swf", "--policy", "sjf"],
        );
        assert!(text(&bad.stderr).contains("unknown policy 'sjf'"));
    }

    /// Writes results for `baseline/backfilling` (one claim PASSes, one
    /// FAILs) into `res/`, with a figure.
    fn baseline_results(tmp: &TempDir) {
        let config =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/baseline/backfilling.toml");
        let dir = tmp.path().join("res/baseline/backfilling");
        let bsld = |series: &str, x: &str| match (x, series) {
            ("SDSC-SP2", "fcfs") => 100.0,
            ("SDSC-SP2", "easy") => 50.0,
            ("SDSC-SP2", _) => 40.0,
            (_, "fcfs") => 80.0,
            (_, "easy") => 90.0,
            _ => 30.0,
        };
        crate::common::results::write_results(&config, &dir, &|panel, series, x| {
            if panel == "bsld" {
                bsld(series, x)
            } else {
                1.0
            }
        });
    }

    const VERIFY: [&str; 7] = [
        "verify",
        "baseline/backfilling",
        "--out",
        "res",
        "--doc",
        "docs/REPRODUCTION.md",
        "--strict-claims",
    ];

    #[test]
    fn verify_with_partial_results_leaves_the_document_alone() {
        let tmp = setup("verify-partial");
        baseline_results(&tmp);
        let tracked = tmp.path().join("docs/REPRODUCTION.md");
        std::fs::create_dir_all(tracked.parent().unwrap()).unwrap();
        std::fs::write(&tracked, "the complete document\n").unwrap();

        let out = xtask(&tmp, &VERIFY);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(3), "{stderr}");
        assert!(
            stdout.contains("FAIL")
                && stdout.contains("easy 90 vs fcfs 80 (difference 10) at KTH-SP2")
                && stdout.contains("PASS"),
            "{stdout}"
        );
        assert_eq!(
            std::fs::read_to_string(&tracked).unwrap(),
            "the complete document\n"
        );
        assert!(!tmp.path().join("docs/figures").exists());
        assert!(
            stderr.contains("docs/REPRODUCTION.md is regenerated only from a complete set")
                && stderr.contains("left unchanged")
                && stderr.contains("res/REPRODUCTION.md")
                && stderr.contains("missing: adaptive/fig4"),
            "{stderr}"
        );
        let partial = std::fs::read_to_string(tmp.path().join("res/REPRODUCTION.md")).unwrap();
        assert!(
            partial.contains("(baseline/backfilling/figure.svg)")
                && partial.contains("| [baseline/backfilling](#baselinebackfilling-")
                && partial.contains(" | 1 | 0 | 1 | ")
                && partial.contains("| claim | paper value | our value | verdict | cause |"),
            "{partial}"
        );

        // Without --strict-claims a FAIL is a result: exit 0.
        let out = xtask(&tmp, &VERIFY[..6]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(
            std::fs::read_to_string(&tracked).unwrap(),
            "the complete document\n"
        );
    }

    #[test]
    fn verify_with_every_figure_regenerates_the_document() {
        let tmp = setup("verify-complete");
        let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
        let figures: Vec<String> = cli::catalog::scan(&configs)
            .unwrap()
            .into_iter()
            .filter(|e| e.is_figure())
            .map(|e| e.id)
            .collect();
        assert!(figures.len() > 10, "{figures:?}");
        for id in &figures {
            let dir = tmp.path().join("res").join(id);
            let entry = cli::catalog::scan(&configs)
                .unwrap()
                .into_iter()
                .find(|e| &e.id == id)
                .unwrap();
            crate::common::results::write_results(&entry.path, &dir, &|_, _, _| 1.0);
        }
        baseline_results(&tmp);
        let tracked = tmp.path().join("docs/REPRODUCTION.md");
        std::fs::create_dir_all(tracked.parent().unwrap()).unwrap();
        // An old document of the tool's (a user's file there is refused:
        // user_files.rs).
        std::fs::write(
            &tracked,
            "# Reproduction status\n\nGenerated by `cargo xtask verify` long ago.\n",
        )
        .unwrap();

        let out = xtask(&tmp, &VERIFY);
        assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
        let doc = std::fs::read_to_string(&tracked).unwrap();
        assert!(
            doc.contains("(figures/baseline-backfilling.svg)") && doc.contains(" | 1 | 0 | 1 | "),
            "{doc}"
        );
        for id in &figures {
            assert!(doc.contains(id.as_str()), "{id} missing from\n{doc}");
        }
        assert_eq!(
            std::fs::read(tmp.path().join("docs/figures/baseline-backfilling.svg")).unwrap(),
            std::fs::read(tmp.path().join("res/baseline/backfilling/figure.svg")).unwrap()
        );
        assert!(!tmp.path().join("res/REPRODUCTION.md").exists());
    }

    #[test]
    fn quiet_keeps_the_report_and_drops_progress() {
        let tmp = setup("quiet");
        let out = xtask(&tmp, &["-q", "run", "exp.toml", "--out", "res"]);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{stderr}");
        assert!(stdout.contains("**PASS**"), "{stdout}");
        assert!(
            !stderr.contains("runs (") && !stderr.contains("wrote") && !stderr.contains("Tiny"),
            "{stderr}"
        );
        // A FAILed claim is still said, as it decides --strict-claims.
        assert!(stderr.contains("1 claim(s) did not PASS"), "{stderr}");
    }

    /// The code's identity comes from the build, never from the
    /// environment of the run: another repository named by `GIT_DIR`, a
    /// working directory outside any repository, another `HOME` or a
    /// broken `git` on the `PATH` change nothing in run.toml or `--version`.
    #[test]
    fn the_revision_is_the_builds_whatever_the_environment() {
        let tmp = setup("identity");
        let fake_git = tmp.path().join("bin");
        std::fs::create_dir_all(&fake_git).unwrap();
        let script = fake_git.join("git");
        std::fs::write(
            &script,
            "#!/bin/sh\necho 0123456789012345678901234567890123456789\n",
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let path = format!(
            "{}:{}",
            fake_git.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let envs: [&[(&str, &str)]; 4] = [
            &[],
            &[("GIT_DIR", "/nonexistent/.git")],
            &[
                ("GIT_DIR", tmp.path().to_str().unwrap()),
                ("HOME", "/nonexistent"),
            ],
            &[("PATH", path.as_str())],
        ];
        for (i, env) in envs.iter().enumerate() {
            let mut cmd = crate::common::spawn::xtask_in(tmp.path());
            cmd.args(["run", "exp.toml", "--out", &format!("res{i}"), "-q"])
                .env("TRACES_DIR", tmp.path());
            for (k, v) in *env {
                cmd.env(k, v);
            }
            let out = crate::common::spawn::output(&mut cmd).unwrap();
            assert!(out.status.success(), "{env:?}: {}", text(&out.stderr));
            let run_toml =
                std::fs::read_to_string(tmp.path().join(format!("res{i}/test/tiny/run.toml")))
                    .unwrap();
            let parsed: toml::Table = run_toml.parse().unwrap();
            assert_eq!(
                parsed["provenance"]["git_revision"].as_str(),
                Some(cli::identity::REVISION),
                "{env:?}"
            );
            let mut version = Command::new(env!("CARGO_BIN_EXE_xtask"));
            version.arg("--version").current_dir(tmp.path());
            for (k, v) in *env {
                version.env(k, v);
            }
            let out = crate::common::spawn::output(&mut version).unwrap();
            assert!(
                text(&out.stdout).contains(cli::identity::REVISION),
                "{env:?}"
            );
        }
    }

    #[test]
    fn help_version_and_usage_errors() {
        let tmp = setup("help");
        for sub in subcommands(&tmp) {
            let out = xtask(&tmp, &[sub.as_str(), "--help"]);
            assert_eq!(out.status.code(), Some(0), "{sub} --help");
            assert!(
                text(&out.stdout).contains(&format!("Usage: cargo xtask {sub}")),
                "{}",
                text(&out.stdout)
            );
        }
        let out = xtask(&tmp, &["--version"]);
        assert_eq!(out.status.code(), Some(0));
        assert!(
            text(&out.stdout).starts_with(&format!("xtask {}", env!("CARGO_PKG_VERSION"))),
            "{}",
            text(&out.stdout)
        );

        let out = xtask(&tmp, &["reproduse", "fig4"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("a similar subcommand exists: 'reproduce'"),
            "{}",
            text(&out.stderr)
        );
        let out = xtask(&tmp, &["run", "exp.toml", "--stric-claims"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("--strict-claims"),
            "{}",
            text(&out.stderr)
        );
        let out = xtask(&tmp, &["run", "exp.toml", "--threads", "0"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(!tmp.path().join("results").exists());
    }

    /// The subcommands `cargo xtask --help` lists.
    fn subcommands(tmp: &TempDir) -> Vec<String> {
        let help = text(&xtask(tmp, &["--help"]).stdout);
        let list: Vec<String> = help
            .lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect();
        assert!(list.len() >= 6, "{help}");
        list
    }

    /// Every `--long-flag` in `text`.
    fn long_flags(text: &str) -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        let b = text.as_bytes();
        let mut i = 0;
        while let Some(at) = text[i..].find("--") {
            let start = i + at;
            let mut end = start + 2;
            while end < b.len() && (b[end].is_ascii_lowercase() || b[end] == b'-') {
                end += 1;
            }
            let flag = text[start..end].trim_end_matches('-');
            let after_word = start > 0 && b[start - 1].is_ascii_alphanumeric();
            if flag.len() > 2 && !after_word {
                out.insert(flag.to_string());
            }
            i = end.max(start + 2);
        }
        out
    }

    /// `## <heading>` of the README, up to the next `## `.
    fn readme_section(heading: &str) -> String {
        let readme =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
                .unwrap();
        let start = readme
            .find(&format!("\n## {heading}\n"))
            .unwrap_or_else(|| panic!("README.md has no '## {heading}'"));
        let rest = &readme[start + 4..];
        rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
    }

    #[test]
    fn readme_and_help_agree() {
        let tmp = setup("readme");
        let section = readme_section("Other commands");
        let documented = long_flags(&section);
        let top = text(&xtask(&tmp, &["--help"]).stdout);
        let mut printed = long_flags(&top);
        for sub in subcommands(&tmp) {
            printed.extend(long_flags(&text(
                &xtask(&tmp, &[sub.as_str(), "--help"]).stdout,
            )));
        }
        let undocumented: Vec<&String> = printed.difference(&documented).collect();
        assert!(
            undocumented.is_empty(),
            "flags in --help but not in README's 'Other commands': {undocumented:?}"
        );
        let unknown: Vec<&String> = documented.difference(&printed).collect();
        assert!(
            unknown.is_empty(),
            "flags in README's 'Other commands' that no --help prints: {unknown:?}"
        );
        // The environment variables and exit statuses --help lists, too.
        let env: Vec<&str> = top
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| w.starts_with("TRACES_"))
            .collect();
        assert!(env.len() >= 4, "{top}");
        for var in env {
            assert!(
                section.contains(&format!("| `{var}` |")),
                "{var} not in README"
            );
        }
        for code in 0..=3 {
            assert!(
                section.contains(&format!("\n| {code} | ")),
                "exit status {code}"
            );
        }
        // Every cap `USCHED_MAX_<KEY>` raises (the row had left out PANELS).
        let caps = section
            .lines()
            .find(|l| l.starts_with("| `USCHED_MAX_<KEY>` |"))
            .expect("README's row of USCHED_MAX_<KEY>");
        for key in experiments::Limits::KEYS {
            let key = key.to_uppercase();
            assert!(caps.contains(&format!("`{key}` (")), "{key} not in {caps}");
        }
    }
}

mod shards;

mod corrupt;

mod hostile;

/// Every flag of every subcommand, given hostile values.
mod every_flag;

/// Isolation of a batch's experiments, crash-safe outputs, inputs never
/// overwritten, caps on configurations.
mod hardening {
    use std::sync::Mutex;

    use cli::output::{
        DirSwap, Step, recover, refuse_input_dir, refuse_input_file, write_dir, write_file,
    };

    use super::command_line::{CONFIG, setup, text, xtask};
    use super::*;

    fn quiet_settings(tmp: &TempDir) -> cli::settings::Settings {
        let mut settings = cli::settings::Settings::from_env().unwrap();
        settings.results = tmp.path().join("res");
        settings.verbosity = cli::progress::Verbosity::Quiet;
        settings
    }

    #[test]
    fn a_panic_or_an_error_fails_only_its_experiment() {
        let tmp = TempDir::new("isolation");
        let settings = quiet_settings(&tmp);
        let jobs: Vec<(PathBuf, Option<String>)> = ["a", "b", "c", "d"]
            .iter()
            .map(|id| (PathBuf::from(format!("{id}.toml")), Some(id.to_string())))
            .collect();
        let ran = Mutex::new(Vec::new());
        let result = cli::batch::run_batch(&settings, &jobs, false, |_, _, _, id| {
            let id = id.unwrap_or_default();
            ran.lock().unwrap().push(id.to_string());
            match id {
                "b" => panic!("a bug in b's pipeline"),
                "c" => anyhow::bail!("c's trace is broken"),
                _ => Ok(0),
            }
        });
        assert_eq!(*ran.lock().unwrap(), ["a", "b", "c", "d"]);
        let e = format!("{:#}", result.unwrap_err());
        assert!(
            e.starts_with("2 of 4 experiments failed")
                && e.contains("\n  b: internal error (a panic: a bug in b's pipeline)")
                && e.contains("\n  c: c's trace is broken")
                && !e.contains("  a:")
                && !e.contains("  d:"),
            "{e}"
        );
        // All passing: the claims decide the status.
        let ok = cli::batch::run_batch(&settings, &jobs, true, |_, _, _, _| Ok(0));
        assert_eq!(ok.unwrap(), std::process::ExitCode::SUCCESS);
    }

    #[test]
    fn a_failing_config_in_a_batch_leaves_the_others_running() {
        let tmp = setup("batch");
        std::fs::write(
            tmp.path().join("other.toml"),
            CONFIG.replace("test/tiny", "test/other"),
        )
        .unwrap();
        std::fs::write(
            tmp.path().join("bad.toml"),
            "version = 2\nkind = \"nope\"\n",
        )
        .unwrap();
        let out = xtask(
            &tmp,
            &["run", "exp.toml", "bad.toml", "other.toml", "--out", "res"],
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("1 of 3 experiments failed") && stderr.contains("  bad.toml: "),
            "{stderr}"
        );
        assert_eq!(entries(&tmp.path().join("res/test")), ["other", "tiny"]);
    }

    const OLD: [(&str, &str); 2] = [("a.txt", "old a"), ("b.txt", "old b")];
    const NEW: [(&str, &str); 2] = [("a.txt", "new a"), ("b.txt", "new b")];

    fn files(f: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
        f.iter().map(|(n, c)| (*n, c.to_string())).collect()
    }

    fn contents(dir: &Path) -> Vec<(String, String)> {
        entries(dir)
            .into_iter()
            .filter(|f| f != cli::output::RESULTS_MARKER)
            .map(|f| {
                let c = std::fs::read_to_string(dir.join(&f)).unwrap();
                (f, c)
            })
            .collect()
    }

    fn as_strings(f: &[(&str, &str)]) -> Vec<(String, String)> {
        f.iter()
            .map(|(n, c)| (n.to_string(), c.to_string()))
            .collect()
    }

    #[test]
    fn a_kill_between_the_two_renames_is_repaired_by_the_next_run() {
        // Its writers' locks must be free once dropped: no spawn meanwhile.
        let _no_spawns = crate::common::spawn::no_spawns();
        let tmp = TempDir::new("kill-swap");
        let dir = tmp.path().join("paper/fig");
        write_dir(&dir, &files(&OLD)).unwrap();
        // A writer that dies after setting the old results aside.
        let mut swap = DirSwap::stage(&dir, &files(&NEW)).unwrap();
        assert_eq!(swap.step().unwrap(), Step::NotYet);
        swap.interrupt();
        assert!(!dir.exists());
        assert_eq!(entries(&tmp.path().join("paper")), [".usched-staging"]);
        let r = recover(&dir).unwrap();
        assert_eq!(r.restored, std::slice::from_ref(&dir));
        assert_eq!(r.removed.len(), 1);
        assert_eq!(contents(&dir), as_strings(&OLD));
        assert_eq!(entries(&tmp.path().join("paper")), ["fig"]);

        // Killed after the new results went in, before the old were deleted.
        let mut swap = DirSwap::stage(&dir, &files(&NEW)).unwrap();
        while swap.step().unwrap() != Step::Installed {}
        swap.interrupt();
        assert_eq!(contents(&dir), as_strings(&NEW));
        assert_eq!(entries(&tmp.path().join("paper")).len(), 2);
        // The next write (not only `recover`) tidies up.
        write_dir(&dir, &files(&OLD)).unwrap();
        assert_eq!(entries(&tmp.path().join("paper")), ["fig"]);
        assert_eq!(contents(&dir), as_strings(&OLD));
    }

    #[test]
    fn the_next_run_restores_interrupted_results_and_says_so() {
        // Its writers' locks must be free once dropped: no spawn meanwhile.
        let _no_spawns = crate::common::spawn::no_spawns();
        let tmp = setup("kill-cli");
        let first = xtask(&tmp, &["run", "exp.toml", "--out", "res"]);
        assert!(first.status.success(), "{}", text(&first.stderr));
        let dir = tmp.path().join("res/test/tiny");
        let before = contents(&dir);
        let mut swap = DirSwap::stage(&dir, &files(&NEW)).unwrap();
        assert_eq!(swap.step().unwrap(), Step::NotYet);
        swap.interrupt();
        assert!(!dir.exists());
        // A run of another experiment on the same results repairs it.
        std::fs::write(
            tmp.path().join("other.toml"),
            CONFIG.replace("test/tiny", "test/other"),
        )
        .unwrap();
        let out = xtask(&tmp, &["run", "other.toml", "--out", "res"]);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "warning: restored {}",
                Path::new("res/test/tiny").display()
            )),
            "{stderr}"
        );
        assert_eq!(contents(&dir), before);
        assert_eq!(entries(&tmp.path().join("res/test")), ["other", "tiny"]);
    }

    #[test]
    fn staging_of_dead_writers_goes_and_live_ones_stay() {
        // Its writers' locks must be free once dropped: no spawn meanwhile.
        let _no_spawns = crate::common::spawn::no_spawns();
        let tmp = TempDir::new("stale");
        let paper = tmp.path().join("paper");
        // A dead writer (its lock is free) and a live one (this test holds it).
        let mut dead = DirSwap::stage(&paper.join("fig"), &files(&OLD)).unwrap();
        assert_eq!(dead.step().unwrap(), Step::Installed);
        let live = DirSwap::stage(&paper.join("other"), &files(&NEW)).unwrap();
        let dead_new = DirSwap::stage(&paper.join("fig"), &files(&NEW)).unwrap();
        dead_new.interrupt();
        let staging = paper.join(".usched-staging");
        assert_eq!(entries(&staging).len(), 3);
        write_file(&paper.join("f.txt"), b"y").unwrap();
        // The first (installed, then interrupted) and the second (interrupted) are gone.
        dead.interrupt();
        write_file(&paper.join("f.txt"), b"z").unwrap();
        assert_eq!(entries(&staging).len(), 1, "the live writer's stays");
        assert_eq!(contents(&paper.join("fig")), as_strings(&OLD));
        live.complete().unwrap();
        assert_eq!(entries(&paper), ["f.txt", "fig", "other"]);
    }

    #[test]
    fn concurrent_writers_leave_one_whole_result_and_no_debris() {
        let tmp = TempDir::new("concurrent");
        let dir = tmp.path().join("paper/fig");
        std::thread::scope(|scope| {
            for t in 0..4 {
                let dir = &dir;
                scope.spawn(move || {
                    for i in 0..25 {
                        let v = format!("writer {t} round {i}");
                        let f = [("a.txt", v.clone()), ("b.txt", v)];
                        write_dir(dir, &f).unwrap();
                    }
                });
            }
        });
        let c = contents(&dir);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].1, c[1].1, "files of two writers mixed: {c:?}");
        assert_eq!(entries(&tmp.path().join("paper")), ["fig"]);
    }

    #[test]
    fn an_output_never_replaces_an_input() {
        let tmp = TempDir::new("inputs");
        let input = tmp.path().join("t.swf");
        std::fs::write(&input, "trace").unwrap();
        std::fs::create_dir_all(tmp.path().join("sub")).unwrap();
        let link = tmp.path().join("hard.swf");
        std::fs::hard_link(&input, &link).unwrap();
        let sym = tmp.path().join("sym.swf");
        std::os::unix::fs::symlink(&input, &sym).unwrap();
        let inputs = [input.as_path()];
        for same in [
            input.clone(),
            tmp.path().join("sub/../t.swf"),
            link.clone(),
            sym.clone(),
        ] {
            let e = refuse_input_file(&same, "--gantt", &inputs).unwrap_err();
            assert!(
                e.to_string().contains("refusing to write over an input"),
                "{e}"
            );
        }
        refuse_input_file(&tmp.path().join("other.swf"), "--gantt", &inputs).unwrap();
        // A results directory that holds an input is not replaced.
        let res = tmp.path().join("res/p/f");
        std::fs::create_dir_all(&res).unwrap();
        let config = res.join("exp.toml");
        std::fs::write(&config, "x").unwrap();
        for dir in [res.clone(), tmp.path().join("res/p")] {
            let e = refuse_input_dir(&dir, &[&config]).unwrap_err();
            assert!(e.to_string().contains("holds the input"), "{e}");
        }
        refuse_input_dir(&tmp.path().join("res/q"), &[&config]).unwrap();
        refuse_input_dir(&tmp.path().join("other"), &[&config]).unwrap();
    }

    #[test]
    fn simulate_refuses_to_write_over_its_trace() {
        let tmp = setup("sacred");
        let trace = tmp.path().join("tiny.swf");
        let before = std::fs::read(&trace).unwrap();
        std::fs::hard_link(&trace, tmp.path().join("link.swf")).unwrap();
        let elsewhere = format!(
            "../{}/tiny.swf",
            tmp.path().file_name().unwrap().to_string_lossy()
        );
        for (flag, out) in [
            ("--schedule-out", "tiny.swf"),
            ("--jobs-csv", "./tiny.swf"),
            ("--gantt", "link.swf"),
            ("--timeline", elsewhere.as_str()),
        ] {
            let run = xtask(
                &tmp,
                &[
                    "simulate", "--trace", "tiny.swf", "--policy", "easy", flag, out,
                ],
            );
            let stderr = text(&run.stderr);
            assert_eq!(run.status.code(), Some(1), "{flag} {out}: {stderr}");
            assert!(
                stderr.contains(&format!("{flag} {out} is the input"))
                    && stderr.contains("refusing to write over an input"),
                "{stderr}"
            );
            assert_eq!(std::fs::read(&trace).unwrap(), before, "{flag} {out}");
        }
    }

    #[test]
    fn results_never_replace_a_directory_holding_the_config() {
        let tmp = setup("sacred-out");
        let home = tmp.path().join("res/test/tiny");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::copy(tmp.path().join("tiny.swf"), home.join("tiny.swf")).unwrap();
        std::fs::write(home.join("exp.toml"), CONFIG).unwrap();
        let out = xtask(&tmp, &["run", "res/test/tiny/exp.toml", "--out", "res"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("holds the input"), "{stderr}");
        assert_eq!(entries(&home), ["exp.toml", "tiny.swf"]);
    }

    #[test]
    fn verify_never_writes_its_document_over_results_it_reads() {
        let tmp = setup("sacred-doc");
        let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
        for e in cli::catalog::scan(&configs).unwrap() {
            let dir = tmp.path().join("res").join(&e.id);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("data.csv"), "panel,series,x,y,ci_lo,ci_hi,runs\n").unwrap();
        }
        let csv = "res/baseline/backfilling/data.csv";
        let before = std::fs::read(tmp.path().join(csv)).unwrap();
        let out = xtask(&tmp, &["verify", "--out", "res", "--doc", csv]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("--doc {csv} is the input")),
            "{stderr}"
        );
        assert_eq!(std::fs::read(tmp.path().join(csv)).unwrap(), before);
    }

    #[test]
    fn caps_on_configurations_are_errors_naming_key_and_cap() {
        let tmp = setup("caps");
        let huge = CONFIG.replace("seed = 3", "seed = 3\nrepetitions = 4294967295");
        std::fs::write(tmp.path().join("huge.toml"), huge).unwrap();
        let out = xtask(&tmp, &["run", "huge.toml", "--out", "res"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("huge.toml:7:15: `repetitions` is 4294967295, above the cap of 100")
                && stderr.contains("USCHED_MAX_REPETITIONS"),
            "{stderr}"
        );
        // An error at parse time (the message names the line and column),
        // and nothing was written.
        assert!(!tmp.path().join("res/test/tiny").exists());

        // The runs cap, lowered from the environment.
        let lowered = |var: &str, value: &str| {
            crate::common::spawn::output(
                crate::common::spawn::xtask_in(tmp.path())
                    .args(["run", "exp.toml", "--out", "res"])
                    .env("TRACES_DIR", tmp.path())
                    .env(var, value),
            )
            .unwrap()
        };
        let out = lowered("USCHED_MAX_RUNS", "2");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(
                "the number of runs (1 points × 3 series × 1 repetitions) is 3, above the cap of 2"
            ),
            "{stderr}"
        );
        let out = lowered("USCHED_MAX_RUNS", "3");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let out = lowered("USCHED_MAX_RUNS", "many");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("USCHED_MAX_RUNS is 'many', expected a positive integer"),
            "{stderr}"
        );
    }

    #[test]
    fn list_takes_no_arguments() {
        let tmp = setup("list-extra");
        let out = xtask(&tmp, &["list", "extra"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("unexpected argument 'extra'"),
            "{}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
    }
}

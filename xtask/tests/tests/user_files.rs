//! What the command line may replace, and what it prints: a user's file
//! at an output's path is never replaced without `--force` (the tool's own
//! files are), results never go through a symbolic link below `--out`,
//! one failing experiment's error is printed once, and hostile traces and
//! generator options are clear errors (duplicate job numbers, a trace past
//! the reader's caps, times past the simulator's range), and a line feed
//! in a name a message quotes is shown `\u{a}`, never a line of its own.

use std::os::unix::fs::symlink;

use crate::hostile_files::{check, setup, text, xtask, xtask_env};

#[test]
fn simulate_replaces_its_own_outputs_and_never_a_users_file_without_force() {
    let tmp = setup("user-files-simulate");
    let p = |n: &str| tmp.path().join(n).display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["simulate", "--trace", "tiny.swf", "--policy", "easy"];
        args.extend_from_slice(extra);
        xtask(&tmp, &args)
    };
    let (swf, svg, csv) = (p("s.swf"), p("g.svg"), p("j.csv"));
    // Written, then replaced again: the tool's own files.
    for _ in 0..2 {
        let out = run(&[
            "--schedule-out",
            &swf,
            "--gantt",
            &svg,
            "--timeline",
            &p("t.svg"),
        ]);
        check(&out, 0, &[], "own outputs");
    }
    // A user's file at each path is kept, and the run does no work.
    for (flag, path) in [
        ("--schedule-out", &swf),
        ("--gantt", &svg),
        ("--jobs-csv", &csv),
    ] {
        std::fs::write(path, "my notes\n").unwrap();
        let out = run(&[flag, path]);
        check(&out, 1, &[flag, "--force to replace it"], flag);
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            "my notes\n",
            "{flag}"
        );
        let out = run(&[flag, path, "--force"]);
        check(&out, 0, &[], flag);
        assert_ne!(
            std::fs::read_to_string(path).unwrap(),
            "my notes\n",
            "{flag}"
        );
    }
    // A jobs.csv reads like Batsim's own: even the tool's needs --force.
    let out = run(&["--jobs-csv", &csv]);
    check(&out, 1, &["may be yours"], "jobs.csv again");
}

#[test]
fn combined_never_replaces_a_users_file_without_force() {
    let tmp = setup("user-files-combined");
    let out_dir = tmp.path().join("out").display().to_string();
    let combined = tmp.path().join("all.csv");
    std::fs::write(&combined, "mine\n").unwrap();
    let combined = combined.display().to_string();
    let args = [
        "run",
        "exp.toml",
        "--out",
        &out_dir,
        "--combined",
        &combined,
    ];
    let out = xtask(&tmp, &args);
    check(
        &out,
        1,
        &["--combined", "--force to replace it"],
        "user's file",
    );
    assert_eq!(std::fs::read_to_string(&combined).unwrap(), "mine\n");
    assert!(
        !tmp.path().join("out/test").exists(),
        "refused before any work"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    check(&xtask(&tmp, &forced), 0, &[], "--force");
    // -q: no informational line, the file written all the same.
    let quiet: Vec<&str> = ["-q"].iter().chain(&args).copied().collect();
    let out = xtask(&tmp, &quiet);
    check(&out, 0, &[], "-q --combined");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("wrote"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Now the tool's own: replaced without --force.
    check(&xtask(&tmp, &args), 0, &[], "own combined");
    assert!(
        std::fs::read_to_string(&combined)
            .unwrap()
            .starts_with("experiment,")
    );
}

/// Outputs never replace what the same command reads, `--force` or not:
/// `--combined` onto a configuration or a trace the runs read; results
/// inside the cells they are merged from, or cells around them; and a
/// misspelt results directory is no empty set of results.
#[test]
fn outputs_never_land_on_or_inside_the_commands_inputs() {
    let tmp = setup("user-files-inputs");
    let keep = |name: &str| std::fs::read(tmp.path().join(name)).unwrap();
    let (config, trace) = (keep("exp.toml"), keep("tiny.swf"));
    for (input, needle) in [("exp.toml", "exp.toml"), ("tiny.swf", "tiny.swf")] {
        let out = xtask(
            &tmp,
            &[
                "run",
                "exp.toml",
                "--out",
                "out",
                "--combined",
                input,
                "--force",
            ],
        );
        check(&out, 1, &["--combined", needle, "is the input"], input);
    }
    assert_eq!(keep("exp.toml"), config);
    assert_eq!(keep("tiny.swf"), trace);
    let shard = ["run", "exp.toml", "--shard", "0/1", "--cells", "cells"];
    check(&xtask(&tmp, &shard), 0, &[], "shard");
    for (out_dir, how) in [
        ("cells", "is the cells directory"),
        ("cells/test", "is inside the cells directory"),
        (".", "holds the cells directory"),
    ] {
        let out = xtask(&tmp, &["merge", "cells", "--out", out_dir]);
        check(&out, 1, &[how], out_dir);
    }
    assert!(!tmp.path().join("cells/test/test").exists());
    check(
        &xtask(&tmp, &["merge", "cells", "--out", "merged"]),
        0,
        &[],
        "merge beside the cells",
    );
    let out = xtask(&tmp, &["verify", "--out", "mergde"]);
    check(
        &out,
        1,
        &["mergde is not a directory of results"],
        "misspelt",
    );
    assert!(!tmp.path().join("mergde").exists());
}

/// A claim at an x value the sweep does not have is left out, but never
/// silently: a warning names it and the swept values, and it counts as not
/// passing, so `--strict-claims` fails.
#[test]
fn a_claim_left_out_is_warned_of_and_fails_strict_claims() {
    let tmp = setup("user-files-claim-left-out");
    let config = std::fs::read_to_string(tmp.path().join("exp.toml")).unwrap()
        + "\n[[claims]]\ntext = \"at a dropped workload\"\n\
           check.within = { panel = \"util\", series = \"easy\", lo = 0, hi = 100, at = \"gone\" }\n";
    std::fs::write(tmp.path().join("left-out.toml"), config).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "left-out.toml", "--out", "out"];
        args.extend_from_slice(extra);
        xtask(&tmp, &args)
    };
    let needles = [
        "warning",
        "at a dropped workload",
        "was not checked",
        "x = gone",
    ];
    check(&run(&[]), 0, &needles, "lenient");
    check(&run(&["--strict-claims"]), 3, &needles, "strict");
    // The results remember the claim: verify leaves it out and says so
    // again, from run.toml alone.
    std::fs::remove_file(tmp.path().join("left-out.toml")).unwrap();
    let verify = |extra: &[&str]| {
        let mut args = vec!["verify", "--out", "out"];
        args.extend_from_slice(extra);
        xtask(&tmp, &args)
    };
    check(&verify(&[]), 0, &needles, "verify");
    check(&verify(&["--strict-claims"]), 3, &needles, "verify, strict");
}

/// Same configuration, same bytes: however its path is spelt, run.toml
/// records one name for it.
#[test]
fn a_configuration_is_recorded_under_one_name_however_its_path_is_spelt() {
    let tmp = setup("user-files-spelling");
    let mut outputs = Vec::new();
    let absolute = tmp.path().join("exp.toml").display().to_string();
    for (config, out) in [
        ("exp.toml", "a"),
        ("./exp.toml", "b"),
        ("././exp.toml", "c"),
        (absolute.as_str(), "d"),
    ] {
        let run = xtask(&tmp, &["run", config, "--out", out, "-q"]);
        check(&run, 0, &[], config);
        let dir = tmp.path().join(out).join("test/tiny");
        let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
        outputs.push((read("run.toml"), read(".usched-results")));
    }
    // Outside the repository, the name is absolute: from any directory,
    // `verify` finds the configuration and the trace beside it.
    let recorded = format!("config_file = \"{absolute}\"");
    assert!(text(&outputs[0].0).contains(&recorded), "{recorded}");
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let out_dir = tmp.path().join("a").display().to_string();
    let mut cmd = crate::common::spawn::offline_xtask(tmp.path());
    cmd.current_dir(&elsewhere)
        .args(["verify", "--out", &out_dir, "--doc", "doc.md"]);
    let out = crate::common::spawn::output(&mut cmd).unwrap();
    check(&out, 0, &[], "verify from elsewhere");
    assert!(
        !text(&out.stderr).contains("were not checked"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn results_never_go_through_a_symbolic_link_below_out() {
    let tmp = setup("user-files-links");
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(tmp.path().join("out")).unwrap();
    symlink(&elsewhere, tmp.path().join("out/test")).unwrap();
    let out = xtask(&tmp, &["run", "exp.toml", "--out", "out"]);
    check(&out, 1, &["out/test is a symbolic link"], "group link");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    // The same for shards' cells.
    std::fs::create_dir_all(tmp.path().join("cells")).unwrap();
    symlink(&elsewhere, tmp.path().join("cells/test")).unwrap();
    let out = xtask(
        &tmp,
        &["run", "exp.toml", "--shard", "0/1", "--cells", "cells"],
    );
    check(&out, 1, &["cells/test is a symbolic link"], "cells link");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn one_failing_experiment_prints_its_error_once() {
    let tmp = setup("user-files-error-once");
    let config = std::fs::read_to_string(tmp.path().join("exp.toml")).unwrap();
    std::fs::write(
        tmp.path().join("exp.toml"),
        config.replace("tiny.swf", "missing.swf"),
    )
    .unwrap();
    let out = xtask(&tmp, &["run", "exp.toml", "--out", "out"]);
    check(&out, 1, &["missing.swf"], "missing trace");
    let stderr = text(&out.stderr);
    // "error:" (the temporary directory's name, which the message may
    // show, holds "error").
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    assert_eq!(stderr.matches("does not exist").count(), 1, "{stderr}");
    // Placed in the file, the error names it once, as it is shown.
    assert_eq!(stderr.matches("exp.toml").count(), 1, "{stderr}");
}

#[test]
fn errors_a_run_finds_in_the_configuration_name_its_file_line_and_field() {
    let tmp = setup("user-files-run-errors");
    let config = std::fs::read_to_string(tmp.path().join("exp.toml")).unwrap();
    let with = |extra: &str| {
        config.replace(
            "trace = \"tiny.swf\"",
            &format!("trace = \"tiny.swf\"\n{extra}"),
        )
    };
    // Valid when read, wrong on this trace's 100 jobs.
    for (extra, place, needle) in [
        (
            "transforms = [{ job_ids = [5000, 6000] }]",
            "exp.toml:12:14: ",
            "has no jobs left",
        ),
        (
            "transforms = [{ scale_load = 1e-300 }]",
            "exp.toml:12:15: ",
            "transform scale_load = 1e-300",
        ),
    ] {
        std::fs::write(tmp.path().join("exp.toml"), with(extra)).unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "out"]);
        // `transforms` is on line 12; the place is the line and the
        // value (the list, or the transform that failed), and the line is
        // shown.
        check(&out, 1, &[place, needle, &format!("12 | {extra}")], extra);
    }
}

#[test]
fn a_configuration_that_is_not_utf8_is_named_with_the_line_and_column_of_its_first_bad_byte() {
    let tmp = setup("user-files-not-utf8");
    let config = std::fs::read(tmp.path().join("exp.toml")).unwrap();
    let title = config
        .windows(7)
        .position(|w| w == b"title =")
        .expect("the configuration has a title");
    let line = config[..title].iter().filter(|&&b| b == b'\n').count() + 1;
    // `title = "é` then the bad bytes: the column counts characters.
    for (bad, shown) in [
        (&b"\xff"[..], "(byte 0xff)"),
        (&b"\xe2\x82"[..], "(bytes 0xe2 0x82)"),
    ] {
        let mut bytes = config[..title].to_vec();
        bytes.extend_from_slice("title = \"é".as_bytes());
        bytes.extend_from_slice(bad);
        bytes.extend_from_slice(&config[title + 9..]);
        std::fs::write(tmp.path().join("exp.toml"), &bytes).unwrap();
        let out = xtask(&tmp, &["run", "exp.toml", "--out", "out"]);
        check(
            &out,
            1,
            &[&format!(
                "error: exp.toml:{line}:11: not UTF-8 text {shown}"
            )],
            shown,
        );
        assert!(
            !text(&out.stderr).contains("cannot read"),
            "{}",
            text(&out.stderr)
        );
    }
    // Cut off inside a character at the very end.
    let mut bytes = config.clone();
    bytes.extend_from_slice(b"# \xe2\x82");
    std::fs::write(tmp.path().join("exp.toml"), &bytes).unwrap();
    let last = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    let out = xtask(&tmp, &["run", "exp.toml", "--out", "out"]);
    check(
        &out,
        1,
        &[&format!(
            "exp.toml:{last}:3: not UTF-8 text (the file ends inside a character: 0xe2 0x82)"
        )],
        "cut off",
    );
}

#[test]
fn hostile_traces_and_generator_options_are_clear_errors() {
    let tmp = setup("user-files-traces");
    let line = |j: u32| format!("{j} 0 5 10 4 -1 -1 4 20 -1 1 3 2 -1 0 -1 -1 -1\n");
    let dup = format!("; MaxProcs: 8\n{}{}{}", line(1), line(2), line(1));
    std::fs::write(tmp.path().join("dup.swf"), dup).unwrap();
    let sim = |trace: &str, extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["simulate", "--trace", trace, "--policy", "easy"];
        args.extend_from_slice(extra);
        xtask_env(&tmp, &args, env)
    };
    let out = sim("dup.swf", &[], &[]);
    check(
        &out,
        1,
        &["dup.swf:4: field 1 (job number) is 1, which line 2"],
        "dup",
    );
    check(
        &sim("dup.swf", &["--lenient"], &[]),
        0,
        &["skipped"],
        "dup lenient",
    );
    let caps = [
        ("USCHED_MAX_TRACE_RECORDS", "50", "more than 50 records"),
        ("USCHED_MAX_TRACE_LINES", "20", "more than 20 lines"),
        // The file is larger than the byte cap: refused before it is read.
        (
            "USCHED_MAX_TRACE_BYTES",
            "3000",
            "larger than the 3000 bytes cap for trace files",
        ),
    ];
    for (var, value, needle) in caps {
        let out = sim("tiny.swf", &[], &[(var, value)]);
        check(&out, 1, &[needle, &format!("raise it with {var}=N")], var);
    }
    // The byte cap governs the file and its text alike: a compressed trace
    // within the cap whose text is not is refused as its text streams, and
    // a cap raised past the text reads it (the caps once stayed at 4 GiB
    // for files and 16 GiB for text whatever the variable said).
    let swf = std::fs::read(tmp.path().join("tiny.swf")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gz, &swf).unwrap();
    let gz = gz.finish().unwrap();
    assert!(gz.len() < swf.len() / 2);
    std::fs::write(tmp.path().join("tiny-gz.swf.gz"), &gz).unwrap();
    let between = ((gz.len() + swf.len()) / 2).to_string();
    let out = sim(
        "tiny-gz.swf.gz",
        &[],
        &[("USCHED_MAX_TRACE_BYTES", between.as_str())],
    );
    check(
        &out,
        1,
        &[
            &format!("{between} bytes"),
            "raise it with USCHED_MAX_TRACE_BYTES=N",
        ],
        "gz text past the cap",
    );
    // Said once: the reader's error holds the cap's, and is not chained to it.
    assert_eq!(
        text(&out.stderr)
            .matches("cap for decompressed traces")
            .count(),
        1,
        "{}",
        text(&out.stderr)
    );
    let exact = swf.len().to_string();
    check(
        &sim(
            "tiny-gz.swf.gz",
            &[],
            &[("USCHED_MAX_TRACE_BYTES", exact.as_str())],
        ),
        0,
        &[],
        "gz text at the cap",
    );
    check(
        &sim("tiny.swf", &[], &[("USCHED_MAX_TRACE_LINES", "0")]),
        1,
        &["USCHED_MAX_TRACE_LINES is '0', expected a positive integer"],
        "zero cap",
    );
    // Generator options that push times past the simulator's range.
    fn gen_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["generate", "lublin99", "--procs", "64", "--jobs", "50"];
        args.extend_from_slice(extra);
        args
    }
    // -q: the file is the result, and nothing is said (no "wrote", no note).
    let mut args = gen_args(&["--out", "quiet.swf"]);
    args.insert(0, "-q");
    let out = xtask(&tmp, &args);
    check(&out, 0, &[], "generate -q");
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "generate -q said {:?} {:?}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(tmp.path().join("quiet.swf").is_file());
    for (extra, needle) in [
        (["--load", "1e-300"], "load 1e-300 spreads"),
        (
            ["--arrival-rate", "1e-300"],
            "arrival rate 1e-300 jobs per hour spreads",
        ),
        (["--estimates", "f:1e300"], "estimate model f:1e300 makes"),
    ] {
        let mut args = gen_args(&extra);
        args.extend_from_slice(&["--out", "g.swf"]);
        check(&xtask(&tmp, &args), 1, &[needle, "2^40"], needle);
        assert!(
            !tmp.path().join("g.swf").exists(),
            "{needle}: nothing written"
        );
        let spec = format!(
            "lublin99:procs=64,jobs=50,seed=1,{}={}",
            &extra[0][2..],
            extra[1]
        );
        let spec = spec.replace("arrival-rate", "arrival_rate");
        check(&sim(&spec, &[], &[]), 1, &[needle], &spec);
    }
    // A spec asking for more than a process may generate is refused before
    // any work (it was generated, for hours), with the cap and its variable.
    for (spec, env, needle) in [
        (
            "lublin99:procs=16,jobs=1000000000000",
            &[][..],
            "jobs is 1000000000000, above the cap of 2500000 per process, and \
             USCHED_MAX_GENERATED_JOBS cannot raise it",
        ),
        (
            "lublin99:procs=16,jobs=60",
            &[("USCHED_MAX_GENERATED_JOBS", "50")][..],
            "jobs is 60, above the cap of 50 per process; use fewer",
        ),
        (
            "lublin99:procs=4294967295,jobs=10",
            &[][..],
            "procs is '4294967295', expected a whole number of processors from 1 to 10000000",
        ),
    ] {
        let out = sim(spec, &[], env);
        check(&out, 1, &[&format!("error: {spec}: {needle}")], spec);
    }
    check(
        &sim(
            "lublin99:procs=16,jobs=50",
            &[],
            &[("USCHED_MAX_GENERATED_JOBS", "50")],
        ),
        0,
        &[],
        "at the cap",
    );
    // A .gz name gets gzip, which reads back as the same workload.
    let mut args = gen_args(&[]);
    args.extend_from_slice(&["--out", "g.swf.gz"]);
    check(&xtask(&tmp, &args), 0, &[], "gz");
    let bytes = std::fs::read(tmp.path().join("g.swf.gz")).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
    let plain = sim("g.swf.gz", &[], &[]);
    check(&plain, 0, &[], "gz read back");
    assert!(text(&plain.stdout).contains("jobs simulated         50"));
    check(&xtask(&tmp, &args), 0, &[], "gz replaced: the tool's own");
}

/// An output path that cannot be a file is refused before any work, so no
/// other output of the command is written; `generate` has the generated
/// jobs' cap, refuses a load its jobs cannot have, and does not take a
/// schedule made from its workload for its own.
#[test]
fn outputs_that_cannot_be_written_and_generated_workloads_are_refused_before_work() {
    let tmp = setup("user-files-output-paths");
    let sim = |extra: &[&str]| {
        let mut args = vec!["simulate", "--trace", "tiny.swf", "--policy", "easy"];
        args.extend_from_slice(extra);
        xtask(&tmp, &args)
    };
    for (extra, needle) in [
        (
            ["--gantt", "newdir/"],
            "--gantt newdir/ names a directory, not a file",
        ),
        (
            ["--timeline", "tiny.swf/t.svg"],
            "--timeline tiny.swf/t.svg cannot be written: tiny.swf is not a directory",
        ),
    ] {
        let mut args = vec!["--schedule-out", "first.swf"];
        args.extend_from_slice(&extra);
        check(&sim(&args), 1, &[needle], needle);
        assert!(
            !tmp.path().join("first.swf").exists(),
            "{needle}: nothing written"
        );
    }
    let gen_args = |extra: &[&'static str]| {
        let mut args = vec!["-q", "generate", "lublin99", "--procs", "16"];
        args.extend_from_slice(extra);
        args
    };
    for (extra, needle) in [
        (
            &["--jobs", "10", "--out", "sub/"][..],
            "--out sub/ names a directory",
        ),
        (
            &["--jobs", "10", "--load", "1e300", "--out", "l.swf"],
            "load 1e300 cannot be reached with these 10 jobs",
        ),
        (
            &["--jobs", "1", "--arrival-rate", "2", "--out", "l.swf"],
            "arrival rate 2.0 jobs per hour needs at least 2 jobs",
        ),
    ] {
        check(&xtask(&tmp, &gen_args(extra)), 1, &[needle], needle);
    }
    assert!(!tmp.path().join("l.swf").exists());
    check(
        &xtask_env(
            &tmp,
            &gen_args(&["--jobs", "10", "--out", "g.swf"]),
            &[("USCHED_MAX_GENERATED_JOBS", "5")],
        ),
        1,
        &["--jobs is 10, above the cap of 5 per process"],
        "the cap",
    );
    // Raised past the old fixed limit of the flag, it is the cap.
    check(
        &xtask_env(
            &tmp,
            &gen_args(&["--jobs", "2600000", "--out", "big.swf"]),
            &[("USCHED_MAX_GENERATED_JOBS", "2500001")],
        ),
        1,
        &["--jobs is 2600000, above the cap of 2500001"],
        "a raised cap",
    );
    check(
        &xtask(&tmp, &gen_args(&["--jobs", "10", "--out", "g.swf"])),
        0,
        &[],
        "gen",
    );
    let g = std::fs::read_to_string(tmp.path().join("g.swf")).unwrap();
    assert!(g.contains(", duration unbounded, max jobs 10"), "{g:.800}");
    check(
        &xtask(
            &tmp,
            &[
                "-q",
                "simulate",
                "--trace",
                "g.swf",
                "--policy",
                "fcfs",
                "--schedule-out",
                "s.swf",
            ],
        ),
        0,
        &[],
        "schedule",
    );
    // A .gz name gets gzip, as `generate`'s does, and reads back.
    check(
        &xtask(
            &tmp,
            &[
                "-q",
                "simulate",
                "--trace",
                "g.swf",
                "--policy",
                "fcfs",
                "--schedule-out",
                "s.swf.gz",
            ],
        ),
        0,
        &[],
        "schedule gz",
    );
    let gz = std::fs::read(tmp.path().join("s.swf.gz")).unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b]);
    let back = xtask(
        &tmp,
        &["simulate", "--trace", "s.swf.gz", "--policy", "fcfs"],
    );
    check(&back, 0, &[], "schedule gz read back");
    let kept = std::fs::read(tmp.path().join("s.swf")).unwrap();
    check(
        &xtask(&tmp, &gen_args(&["--jobs", "3", "--out", "s.swf"])),
        1,
        &["--out s.swf exists and was not written by `generate`"],
        "over a schedule",
    );
    assert_eq!(std::fs::read(tmp.path().join("s.swf")).unwrap(), kept);
    // Its own file it replaces.
    check(
        &xtask(&tmp, &gen_args(&["--jobs", "3", "--out", "g.swf"])),
        0,
        &[],
        "own",
    );
}

#[test]
fn verify_and_merge_check_the_recorded_workloads_against_the_traces_themselves() {
    let tmp = setup("user-files-inputs");
    let trace = tmp.path().join("tiny.swf");
    let original = std::fs::read(&trace).unwrap();
    let run = xtask(&tmp, &["run", "exp.toml", "--out", "out"]);
    check(&run, 0, &[], "run");
    let shard = xtask(
        &tmp,
        &["run", "exp.toml", "--shard", "0/1", "--cells", "cells"],
    );
    check(&shard, 0, &[], "shard");
    check(&xtask(&tmp, &["verify", "--out", "out"]), 0, &[], "verify");
    // The trace file edited after the run (one job dropped): the results
    // and the cells are no longer of these inputs.
    let text = String::from_utf8(original.clone()).unwrap();
    let last = text.trim_end().rfind('\n').unwrap();
    std::fs::write(&trace, &text[..=last]).unwrap();
    let out = xtask(&tmp, &["verify", "--out", "out"]);
    check(
        &out,
        1,
        &[
            "run.toml: workload 'tiny': `file_sha256` is",
            "these inputs give",
            "a trace replaced since the run changes it too",
        ],
        "verify, trace edited",
    );
    let out = xtask(&tmp, &["merge", "cells", "--out", "merged"]);
    check(
        &out,
        1,
        &["shard-0-of-1.toml: workload 'tiny': `file_sha256` is"],
        "merge, trace edited",
    );
    assert!(!tmp.path().join("merged").join("test").exists());
    // Restored, both pass; a repetition seed edited in run.toml does not.
    std::fs::write(&trace, &original).unwrap();
    check(
        &xtask(&tmp, &["verify", "--out", "out"]),
        0,
        &[],
        "restored",
    );
    check(
        &xtask(&tmp, &["merge", "cells", "--out", "merged"]),
        0,
        &[],
        "merge, restored",
    );
    let run_toml = tmp.path().join("out/test/tiny/run.toml");
    let recorded = std::fs::read_to_string(&run_toml).unwrap();
    let seeds = recorded.find("repetition_seeds = [\"").unwrap() + 21;
    // Another seed of the same length: its first digit one less.
    // Smaller, so still a 64-bit seed.
    let digit = ((recorded.as_bytes()[seeds] - 1) as char).to_string();
    let mut edited = recorded.clone();
    edited.replace_range(seeds..=seeds, &digit);
    std::fs::write(&run_toml, edited).unwrap();
    let out = xtask(&tmp, &["verify", "--out", "out"]);
    check(
        &out,
        1,
        &[
            "provenance.repetition_seeds[0] is \"",
            "the configuration's seed derives",
        ],
        "seed edited",
    );
}

#[test]
fn verify_never_replaces_a_users_document_without_force() {
    let tmp = setup("user-files-verify");
    check(
        &xtask(&tmp, &["run", "exp.toml", "--out", "out"]),
        0,
        &[],
        "run",
    );
    // Results of one's own configs only: they are checked and no document
    // is written, so a user's document beside them stays, --force or not
    // (a partial document of the papers' results is refused over it
    // without --force: `output::check_replace` with `Made::Document`).
    let doc = tmp.path().join("out/REPRODUCTION.md");
    std::fs::write(&doc, "my notes\n").unwrap();
    for args in [
        &["verify", "--out", "out"][..],
        &["verify", "--out", "out", "--force"],
    ] {
        let out = xtask(&tmp, args);
        check(
            &out,
            0,
            &["no reproduction document was written"],
            "own results",
        );
        assert_eq!(std::fs::read_to_string(&doc).unwrap(), "my notes\n");
    }
}

/// Asserts that no line of stderr is the faked one and that the name with
/// the line feed is shown `\u{a}`.
fn check_not_faked(out: &std::process::Output, case: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{case}: {stderr}");
    assert!(
        !stderr.lines().any(|l| l.starts_with("error: faked")),
        "{case}: a faked line:\n{stderr}"
    );
    assert!(
        stderr.contains(r"\u{a}error: faked"),
        "{case}: the name is not shown with \\u{{a}}:\n{stderr}"
    );
}

#[test]
fn a_line_feed_in_a_name_never_fakes_an_output_line() {
    let tmp = setup("user-files-line-feed");
    let sim = |trace: &str| xtask(&tmp, &["simulate", "--trace", trace, "--policy", "easy"]);
    check_not_faked(&sim("x\nerror: faked.swf"), "missing trace file");
    // An existing file that swf-io refuses: its error names the file.
    std::fs::write(tmp.path().join("y\nerror: faked.swf"), "1 2 3\n").unwrap();
    let out = sim("y\nerror: faked.swf");
    check_not_faked(&out, "malformed trace file");
    assert!(text(&out.stderr).contains("expected 18 fields"));
    // A trace name in a configuration, and the configuration's own path.
    let config = std::fs::read_to_string(tmp.path().join("exp.toml")).unwrap();
    let faked = config.replace("\"tiny.swf\"", r#""gone\nerror: faked.swf""#);
    std::fs::write(tmp.path().join("exp.toml"), faked).unwrap();
    check_not_faked(&xtask(&tmp, &["run", "exp.toml"]), "trace name in a config");
    let faked = config.replace("\"test/tiny\"", r#""x\nerror: faked""#);
    std::fs::write(tmp.path().join("id.toml"), faked).unwrap();
    check_not_faked(&xtask(&tmp, &["run", "id.toml"]), "id in a config");
    check_not_faked(
        &xtask(&tmp, &["run", "z\nerror: faked.toml"]),
        "missing config path",
    );
}

/// Results whose trace can no longer be found or read are not verified:
/// `verify` fails naming run.toml and the trace, never reports them checked.
#[test]
fn verify_fails_when_a_runs_trace_cannot_be_checked() {
    let tmp = setup("user-files-trace-gone");
    check(
        &xtask(&tmp, &["run", "exp.toml", "--out", "out", "-q"]),
        0,
        &[],
        "run",
    );
    let trace = tmp.path().join("tiny.swf");
    let verify = || xtask(&tmp, &["verify", "--out", "out"]);
    check(&verify(), 0, &[], "the trace in place");
    let kept = std::fs::read(&trace).unwrap();
    std::fs::remove_file(&trace).unwrap();
    let needles = [
        "run.toml: the workloads it records cannot be checked against their traces",
        "tiny.swf",
    ];
    check(&verify(), 1, &needles, "the trace gone");
    // A trace that no longer reads (a job number twice) is the same.
    let text_of = String::from_utf8(kept.clone()).unwrap();
    let data: Vec<&str> = text_of.lines().filter(|l| !l.starts_with(';')).collect();
    let twice = format!("{text_of}{}\n", data[0]);
    std::fs::write(&trace, twice).unwrap();
    check(&verify(), 1, &needles, "the trace unreadable");
    std::fs::write(&trace, kept).unwrap();
    check(&verify(), 0, &[], "the trace back");
}

/// A figure or summary edited together with the manifest that lists its
/// checksum still fails `verify`: both are drawn again from samples.csv
/// and compared, and the error names the file and the line.
#[test]
fn verify_fails_when_a_shown_result_differs_from_the_data() {
    let tmp = setup("user-files-rendered");
    check(
        &xtask(&tmp, &["run", "exp.toml", "--out", "out", "-q"]),
        0,
        &[],
        "run",
    );
    let verify = || xtask(&tmp, &["verify", "--out", "out"]);
    check(&verify(), 0, &[], "as written");
    // A misspelt id is told the studies of one's own found there too.
    check(
        &xtask(&tmp, &["verify", "test/tinx", "--out", "out"]),
        1,
        &[
            "unknown experiment 'test/tinx'",
            "or a study of your own with results in out: test/tiny",
        ],
        "a misspelt study",
    );
    let dir = tmp.path().join("out/test/tiny");
    let marker = dir.join(".usched-results");
    let kept_marker = std::fs::read_to_string(&marker).unwrap();
    for file in ["summary.md", "figure.svg"] {
        let path = dir.join(file);
        let kept = std::fs::read_to_string(&path).unwrap();
        // One digit of the first number shown in a table or a label, changed,
        // and the manifest updated to the edited file's checksum.
        let at = kept
            .match_indices(['|', '>'])
            .map(|(i, _)| i + 1)
            .find(|&i| {
                kept[i..]
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit())
            })
            .unwrap();
        let at = at + kept[at..].find(|c: char| c.is_ascii_digit()).unwrap();
        let digit = kept.as_bytes()[at];
        let other = if digit == b'7' { '8' } else { '7' };
        let edited = format!("{}{other}{}", &kept[..at], &kept[at + 1..]);
        let line = kept[..at].matches('\n').count() + 1;
        std::fs::write(&path, &edited).unwrap();
        let old = experiments::sha256_hex(kept.as_bytes());
        let new = experiments::sha256_hex(edited.as_bytes());
        std::fs::write(&marker, kept_marker.replace(&old, &new)).unwrap();
        check(
            &verify(),
            1,
            &[
                &format!("{file}: line {line} is not what the tool writes for these data"),
                "the results were edited",
            ],
            file,
        );
        std::fs::write(&path, kept).unwrap();
        std::fs::write(&marker, &kept_marker).unwrap();
        check(&verify(), 0, &[], "restored");
    }
}

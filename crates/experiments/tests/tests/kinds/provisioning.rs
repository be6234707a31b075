//! The `provisioning` kind: the base run the pipeline runs once per point
//! and repetition, runs measured against it, its checks and its old keys,
//! on a small generated grid stream.

use std::sync::atomic::{AtomicUsize, Ordering};

use experiments::{Experiment, Progress, Row, RunOptions, Traces, run};

/// The base series and one other on two small clusters, January 1970 of a
/// generated grid stream, swept over the publication interval.
const SMALL: &str = r#"version = 2
id = "test/provisioning"
title = "Provisioning"
paper = "test"
kind = "provisioning"
seed = 3
repetitions = 2
series = ["areb+least-load", "arcb+earliest-partial"]

[[workloads]]
label = "grid"
lublin99 = { procs = 32, jobs = 300 }

[sweep]
axis = "interval_min"
values = [30, 60]
label = "publication interval (minutes)"

[params]
clusters = [32, 32]
grid_months = [1, 1]
trace_start_unix = 0
trace_year = 1970
trace_utc_offset_s = 0
warmup_days = 0
training_from_days = 0
deadline_share = 0.0
base = "areb+least-load"

[[panels]]
id = "grid"
metric = "grid_r"

[[panels]]
id = "local"
metric = "local_r"

[[panels]]
id = "jobs"
metric = "grid_jobs"

[[panels]]
id = "messages"
metric = "messages"
"#;

/// The rows of `panel` for `series`, in x order.
fn ys<'r>(rows: &'r [Row], panel: &str, series: &str) -> Vec<&'r Row> {
    rows.iter()
        .filter(|r| r.panel == panel && r.series == series)
        .collect()
}

/// Runs `text`, returning the rows and how many runs the pipeline made.
fn run_counted(text: &str) -> (Vec<Row>, usize) {
    let e = Experiment::parse(text, "p.toml").unwrap_or_else(|e| panic!("{e}"));
    let total = AtomicUsize::new(0);
    let progress = |p: &Progress<'_>| {
        total.store(p.total, Ordering::Relaxed);
    };
    let options = RunOptions {
        threads: 2,
        progress: Some(&progress),
        cache: None,
    };
    let r = run(&e, &Traces::new(), &options).unwrap_or_else(|e| panic!("{e}"));
    (r.rows, total.load(Ordering::Relaxed))
}

#[test]
fn the_base_runs_once_per_point_and_repetition_and_is_its_own_reference() {
    let (rows, runs) = run_counted(SMALL);
    // 2 repetitions × (the base run + the base series, which neither
    // ArEb nor least-load run differently at another interval, + 2
    // intervals of arcb+earliest-partial).
    assert_eq!(runs, 8);
    for row in ys(&rows, "grid", "areb+least-load").into_iter().chain(ys(
        &rows,
        "local",
        "areb+least-load",
    )) {
        assert_eq!((row.y, row.runs), (0.0, 2), "{row:?}");
    }
    let other = ys(&rows, "local", "arcb+earliest-partial");
    assert!(
        other.iter().all(|r| r.y.is_finite() && r.y != 0.0),
        "{other:?}"
    );
    // Every series measures the same grid jobs, at every interval.
    let jobs = ys(&rows, "jobs", "areb+least-load");
    assert!(jobs[0].y > 0.0);
    assert_eq!(
        jobs.iter().map(|r| r.y).collect::<Vec<_>>(),
        ys(&rows, "jobs", "arcb+earliest-partial")
            .iter()
            .map(|r| r.y)
            .collect::<Vec<_>>()
    );
    // Publishing less often sends fewer messages.
    let messages = ys(&rows, "messages", "arcb+earliest-partial");
    assert!(messages[1].y < messages[0].y, "{messages:?}");
}

#[test]
fn deadline_shares_share_one_base_run() {
    let text = SMALL
        .replace("axis = \"interval_min\"", "axis = \"deadline_share\"")
        .replace("values = [30, 60]", "values = [0.0, 0.5]")
        .replace("deadline_share = 0.0\n", "");
    let (rows, runs) = run_counted(&text);
    // 2 shares × 2 repetitions × 2 series, and one base run per repetition.
    assert_eq!(runs, 10);
    let base = ys(&rows, "grid", "areb+least-load");
    assert_eq!(base[0].y, 0.0);
    assert!(base[1].y.is_finite(), "{base:?}");
}

#[test]
fn grid_months_cut_the_trace_at_local_midnights() {
    // Trace time 0 is 1970-01-31 00:00 at UTC+1: January is its first day.
    let jobs = |months: &str| {
        let text = SMALL
            .replace("repetitions = 2", "repetitions = 1")
            .replace("values = [30, 60]", "values = [60]")
            .replace("trace_start_unix = 0", "trace_start_unix = 2588400")
            .replace("trace_utc_offset_s = 0", "trace_utc_offset_s = 3600")
            .replace("grid_months = [1, 1]", &format!("grid_months = {months}"));
        ys(&run_counted(&text).0, "jobs", "areb+least-load")[0].y
    };
    let (january, february, both) = (jobs("[1, 1]"), jobs("[2, 2]"), jobs("[1, 2]"));
    assert!(january > 0.0 && february > 0.0, "{january} {february}");
    assert_eq!(january + february, both);
    let all = ys(&run_counted(SMALL).0, "jobs", "areb+least-load")[0].y;
    assert_eq!(both, all);
}

#[test]
fn bad_values_and_old_keys_are_named() {
    let check = |from: &str, to: &str, needle: &str| {
        let err = Experiment::parse(&SMALL.replacen(from, to, 1), "p.toml").unwrap_err();
        assert!(err.to_string().contains(needle), "{err}");
    };
    check(
        "deadline_share = 0.0",
        "series = [\"arcb+earliest-ask\"]",
        "params.series was replaced: list the policies as top-level `series = [...]`",
    );
    check(
        "\"arcb+earliest-partial\"]",
        "\"arcb+nearest\"]",
        "unknown gateway policy 'nearest'",
    );
    check(
        "values = [30, 60]",
        "values = [30, 0]",
        "params.interval_min: is 0",
    );
    check(
        "clusters = [32, 32]",
        "clusters = [32, 0]",
        "params.clusters",
    );
    check(
        "grid_months = [1, 1]",
        "grid_months = [3, 2]",
        "params.grid_months",
    );
    check(
        "deadline_share = 0.0",
        "deadline_share = 1.5",
        "params.deadline_share",
    );
    check("base = \"areb+least-load\"", "base = \"areb\"", "base");
    check(
        "deadline_share = 0.0",
        "procs_per_node = 3",
        "params.procs_per_node: is 3, expected at least 1 and a divisor of every cluster's processors [32, 32]",
    );
    check(
        "deadline_share = 0.0",
        "local_max_job = \"cores\"",
        "unknown variant `cores`, expected `nodes` or `processors`",
    );
    check(
        "deadline_share = 0.0",
        "share_from = \"sideways\"",
        "unknown variant `sideways`, expected `forecast` or `actual`",
    );
    check(
        "[[panels]]\nid = \"grid\"",
        "[[workloads]]\nlabel = \"two\"\nlublin99 = { procs = 8, jobs = 10 }\n\n[[panels]]\nid = \"grid\"",
        "exactly one workload",
    );
}

/// Calendar and time parameters so large that the run's arithmetic
/// overflowed panicked (`trace_start_unix = 9223372036854775807`, a UTC
/// offset of `i64::MIN`), and a list of 100,000 clusters drew a workload
/// each until memory ran out. Each is refused at parse time at its key,
/// with the range it may take; the calendar of a trace header's start
/// likewise at run time, and `GridMonths` itself never overflows.
#[test]
fn times_and_counts_past_what_a_run_can_hold_are_refused_at_their_key() {
    let cases = [
        (
            "trace_start_unix = 0",
            "trace_start_unix = 9223372036854775807",
            "params.trace_start_unix: is 9223372036854775807, expected -1099511627776 to 1099511627776",
        ),
        (
            "trace_utc_offset_s = 0",
            "trace_utc_offset_s = -9223372036854775808",
            "params.trace_utc_offset_s: is -9223372036854775808, expected -86400 to 86400",
        ),
        (
            "trace_year = 1970",
            "trace_year = -5",
            "params.trace_year: is -5, expected 1 to 9999",
        ),
        (
            "warmup_days = 0",
            "warmup_days = 9223372036854775807",
            "params.warmup_days: is 9.223372036854776e18, expected a value in [0, 12725829]",
        ),
        (
            "training_from_days = 0",
            "training_from_days = 12725830",
            "params.training_from_days: is 12725830, expected a value in [0, 12725829]",
        ),
        (
            "deadline_share = 0.0",
            "report_every_s = 9223372036854775807",
            "params.report_every_s",
        ),
        (
            "values = [30, 60]",
            "values = [30, 1e300]",
            "params.interval_min: is 1",
        ),
        (
            "clusters = [32, 32]",
            &format!("clusters = [{}]", vec!["2"; 501].join(", ")),
            "params.clusters: lists 501 clusters, expected at most 500",
        ),
    ];
    for (from, to, needle) in cases {
        let text = SMALL.replacen(from, to, 1);
        let err = Experiment::parse(&text, "p.toml").unwrap_err();
        let line = text.lines().position(|l| l == to).map(|i| i + 1);
        assert!(err.to_string().contains(needle), "{err}");
        if from != "values = [30, 60]" {
            assert_eq!(err.line(), line, "{err}");
        }
    }
    // Five hundred clusters are a study.
    let many = SMALL.replacen(
        "clusters = [32, 32]",
        &format!("clusters = [{}]", vec!["2"; 500].join(", ")),
        1,
    );
    Experiment::parse(&many, "p.toml").unwrap();
    // The calendar itself: out-of-range fields give an empty window.
    let months = experiments::GridMonths {
        year: i64::MAX,
        months: [12, 12],
        trace_start_unix: i64::MIN,
        utc_offset_s: i64::MIN,
    };
    let (from, until) = months.window();
    assert!(from >= until || from == i64::MAX, "{from} {until}");
}

//! The record filters among the workload transforms: `keep_status`,
//! `min_procs`, `max_procs`, `min_requested_time`, `max_requested_time` and
//! `job_ids` select SWF records before conversion, so what they remove is
//! transformed away and only what they keep can be unreplayable.

use std::path::Path;

use experiments::{Experiment, RunOptions, Source, Traces, WorkloadFacts, run};
use swf_io::{Mode, SwfHeader, SwfRecord, Trace, read_trace};

use super::BASE;

/// A record with the fields the filters read.
fn record(
    job: i64,
    status: Option<i64>,
    allocated: Option<i64>,
    requested: Option<i64>,
    requested_time: Option<i64>,
    run_time: Option<i64>,
) -> SwfRecord {
    SwfRecord {
        job: Some(job),
        submit: Some(10 * job),
        run_time,
        allocated_procs: allocated,
        requested_procs: requested,
        requested_time,
        status,
        ..SwfRecord::default()
    }
}

/// Eight records on a 64-processor machine: job 3 never started (run time
/// -1, unreplayable), job 5 has only a requested size, job 6 no status and
/// no requested time.
fn trace() -> Source {
    let records = vec![
        record(1, Some(1), Some(4), None, Some(100), Some(50)),
        record(2, Some(0), Some(8), None, Some(200), Some(60)),
        record(3, Some(5), None, Some(16), Some(300), None),
        record(4, Some(5), Some(2), None, Some(50), Some(40)),
        record(5, Some(1), None, Some(32), Some(1000), Some(900)),
        record(6, None, Some(1), None, None, Some(10)),
        record(7, Some(1), Some(64), None, Some(3600), Some(3000)),
        record(8, Some(1), Some(16), None, Some(600), Some(500)),
    ];
    let trace = Trace {
        source: "filters.swf".into(),
        header: SwfHeader {
            max_procs: Some(64),
            ..SwfHeader::default()
        },
        records,
        skipped: vec![],
        skipped_count: 0,
    };
    Source::trace("filters.swf".into(), "00".into(), trace, None)
}

/// The base experiment on the trace named `trace` with `transforms`.
fn experiment(trace: &str, transforms: &str) -> String {
    BASE.replace(
        "lublin99 = { procs = 32, jobs = 200 }",
        &format!("trace = \"{trace}\"\nestimate = \"actual\"\ntransforms = {transforms}"),
    )
}

/// The facts of the one workload after `transforms`.
fn facts(transforms: &str, source: Source, name: &str) -> WorkloadFacts {
    let text = experiment(name, transforms);
    let e = Experiment::parse(&text, "f.toml").unwrap_or_else(|e| panic!("{e}"));
    let mut traces = Traces::new();
    traces.insert(name.into(), source);
    let r = run(&e, &traces, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    r.workloads.into_iter().next().unwrap()
}

/// Runs the hand-made trace through `transforms` and expects `jobs`
/// simulated, `unreplayable` records dropped and `away` transformed away,
/// out of the 8 records read.
fn check(transforms: &str, jobs: usize, unreplayable: usize, away: usize) {
    let f = facts(transforms, trace(), "filters");
    assert_eq!(
        (f.records, f.jobs, f.unreplayable, f.transformed_away),
        (8, jobs, unreplayable, away),
        "{transforms}"
    );
}

#[test]
fn each_filter_selects_records_before_conversion() {
    check("[]", 7, 1, 0);
    // Completed jobs only: 1, 5, 7, 8.
    check("[{ keep_status = [1] }]", 4, 0, 4);
    // Completed and cancelled: the never-started 3 is kept, then unreplayable.
    check("[{ keep_status = [1, 5] }]", 5, 1, 2);
    // -1 is a missing status: job 6.
    check("[{ keep_status = [-1] }]", 1, 0, 7);
    // Size is field 5, else field 8: 3 (16 requested), 5 (32), 7, 8.
    check("[{ min_procs = 16 }]", 3, 1, 4);
    check("[{ max_procs = 4 }]", 3, 0, 5);
    check("[{ min_procs = 8 }, { max_procs = 16 }]", 2, 1, 5);
    // Requested time: job 6 has none and fails either bound.
    check("[{ min_requested_time = 300 }]", 3, 1, 4);
    check("[{ max_requested_time = 200 }]", 3, 0, 5);
    // Job numbers 3 to 6, both included.
    check("[{ job_ids = [3, 6] }]", 3, 1, 4);
}

#[test]
fn filters_combine_and_come_before_job_transforms() {
    check("[{ keep_status = [1] }, { job_ids = [1, 5] }]", 2, 0, 6);
    // The window first, then the replayable jobs of it: last_n counts jobs.
    check("[{ job_ids = [1, 8] }, { last_n = 2 }]", 2, 1, 5);
    // Jobs 5 and 7 are too wide for the filter, then 1, 4 and 6 too short.
    check("[{ max_procs = 16 }, { drop_shorter_than = 55 }]", 2, 1, 5);
}

/// Replaces the transforms of the base and expects a parse error at the
/// workload's label (line 10) containing `needle`.
fn check_error(transforms: &str, needle: &str) {
    let text = experiment("filters", transforms);
    let err = Experiment::parse(&text, "f.toml")
        .expect_err(&format!("{transforms} should be rejected"))
        .to_string();
    assert!(err.contains(needle), "{transforms}: {err}");
}

#[test]
fn bad_filters_are_named() {
    check_error(
        "[{ last_n = 3 }, { keep_status = [1] }]",
        "transform keep_status filters trace records, so it must come before last_n",
    );
    check_error(
        "[{ keep_status = [] }]",
        "keep_status = [] is out of range, expected at least one status",
    );
    check_error("[{ keep_status = [1, 7] }]", "expected SWF statuses");
    check_error("[{ min_procs = 0 }]", "min_procs = 0 is out of range");
    check_error("[{ max_procs = 0 }]", "max_procs = 0 is out of range");
    check_error(
        "[{ max_requested_time = -5 }]",
        "max_requested_time = -5 is out of range, expected seconds >= 0",
    );
    check_error(
        "[{ job_ids = [9, 2] }]",
        "job_ids = [9, 2] is out of range, expected [first, last] job numbers",
    );
    check_error("[{ job_ids = [9] }]", "invalid length 1");
    check_error("[{ job_ids = 9 }]", "invalid type");
}

/// The pricing figures' window: "the last 5000 jobs in the SDSC SP2
/// trace" are its last 5000 records, job numbers 68,497 to 73,496; the
/// 466 that never started are dropped after the window is cut.
#[test]
fn the_last_5000_records_of_sdsc_sp2() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../traces/SDSC-SP2-1998-4.2-cln.swf.gz");
    let trace = read_trace(&path, Mode::Strict).unwrap_or_else(|e| panic!("{e}"));
    let last = trace.records.iter().rev().take(5000).collect::<Vec<_>>();
    assert_eq!(last.last().and_then(|r| r.job), Some(68_497));
    assert_eq!(last.first().and_then(|r| r.job), Some(73_496));
    let source = Source::trace("sdsc".into(), "00".into(), trace, None);
    let f = facts("[{ job_ids = [68497, 73496] }]", source, "sdsc");
    assert_eq!(
        (f.records, f.transformed_away, f.unreplayable, f.jobs),
        (59_715, 54_715, 466, 4_534)
    );
}

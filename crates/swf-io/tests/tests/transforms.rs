//! Workload transforms on hand-computed cases.

use profile::{Job, Outcome, Status, Time};
use swf_io::{
    Estimate, Mode, SwfHeader, SwfReader, SwfRecord, cap_procs, drop_shorter_than, last_n, rebase,
    scale_load, schedule_records, split_intervals, to_jobs, write_swf,
};

const DAY: i64 = 86_400;

/// Jobs submitted at the given times, id = position + 1.
fn at(submits: &[i64]) -> Vec<Job> {
    submits
        .iter()
        .zip(1..)
        .map(|(&s, id)| Job::new(id, Time(s), 1, 10, 10))
        .collect()
}

fn submits(jobs: &[Job]) -> Vec<i64> {
    jobs.iter().map(|j| j.submit.0).collect()
}

fn ids(jobs: &[Job]) -> Vec<u64> {
    jobs.iter().map(|j| j.id).collect()
}

#[track_caller]
fn check_scale(input: &[i64], factor: f64, expected: &[i64]) {
    assert_eq!(
        submits(&scale_load(at(input), factor).unwrap()),
        expected,
        "factor {factor}"
    );
}

#[test]
fn scale_load_cases() {
    // Cumulative rounding: 25/2 = 12.5 rounds to 13 and 26/2 to 13; rounding
    // each gap (5, 7.5, 0.5) would give 0, 5, 13, 14.
    check_scale(&[0, 10, 25, 26], 2.0, &[0, 5, 13, 13]);
    check_scale(&[100, 110, 125], 0.5, &[100, 120, 150]);
    check_scale(&[7, 8, 1000, 1001], 1.0, &[7, 8, 1000, 1001]);
    check_scale(&[], 3.0, &[]);
    // No drift: 1000 one-second gaps at 3x are 333 s in all (per-gap
    // rounding would collapse them to 0).
    let ones: Vec<i64> = (0..1000).collect();
    assert_eq!(
        *submits(&scale_load(at(&ones), 3.0).unwrap())
            .last()
            .unwrap(),
        333
    );
    // Meaningless factors are errors, and so are factors that push a job
    // out of the time domain (2^40 s); nothing is clamped.
    for f in [0.0, -1.0, f64::INFINITY, f64::NAN] {
        let e = scale_load(at(&[0, 10]), f).unwrap_err();
        assert!(e.to_string().starts_with("load factor "), "{e}");
    }
    let e = scale_load(at(&[0, 10]), 1e-300).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a load factor of 1e-300 moves job 2's submit time to 1.0000e301 s, outside the \
         accepted range of ±1099511627776 s (2^40 s); use a factor closer to 1"
    );
    // Deadlines keep their slack.
    let job = Job::new(1, Time(10), 1, 5, 5).with_deadline(Time(20));
    let scaled = scale_load(vec![Job::new(0, Time(0), 1, 1, 1), job], 2.0).unwrap();
    assert_eq!(
        (scaled[1].submit, scaled[1].deadline),
        (Time(5), Some(Time(15)))
    );
}

#[test]
fn split_intervals_cases() {
    let jobs = at(&[DAY / 2, DAY * 9 / 10, DAY * 21 / 10, DAY * 21 / 10 + 5]);
    // One-day windows from 0.5 d: [0.5, 1.5) holds jobs 1 and 2, [1.5, 2.5)
    // jobs 3 and 4; each is rebased to its first job.
    let w = split_intervals(&jobs, 1);
    assert_eq!(
        w.iter().map(|w| ids(w)).collect::<Vec<_>>(),
        vec![vec![1, 2], vec![3, 4]]
    );
    assert_eq!(submits(&w[0]), vec![0, DAY * 4 / 10]);
    assert_eq!(submits(&w[1]), vec![0, 5]);
    // An empty window is dropped: jobs at 0 and 3.5 d make windows 0 and 3.
    let w = split_intervals(&at(&[0, DAY * 7 / 2]), 1);
    assert_eq!(w.len(), 2);
    assert_eq!(
        w.iter().map(|w| submits(w)).collect::<Vec<_>>(),
        vec![vec![0], vec![0]]
    );
    // Two-day windows hold everything in one.
    assert_eq!(split_intervals(&jobs, 2).len(), 1);
    assert_eq!(
        submits(&split_intervals(&jobs, 2)[0]),
        vec![0, DAY * 4 / 10, DAY * 16 / 10, DAY * 16 / 10 + 5]
    );
    assert!(split_intervals(&[], 5).is_empty());
    assert_eq!(split_intervals(&jobs, 0).len(), 1);
}

#[test]
fn last_n_rebase_drop_and_cap() {
    let jobs = at(&[5, 6, 7, 8, 9]);
    assert_eq!(ids(&last_n(jobs.clone(), 2)), vec![4, 5]);
    assert_eq!(ids(&last_n(jobs.clone(), 9)), vec![1, 2, 3, 4, 5]);
    assert!(last_n(jobs.clone(), 0).is_empty());
    assert_eq!(submits(&rebase(jobs.clone())), vec![0, 1, 2, 3, 4]);
    assert!(rebase(Vec::new()).is_empty());

    let mixed = vec![
        Job::new(1, Time(0), 4, 60, 30),
        Job::new(2, Time(1), 200, 90, 90),
        Job::new(3, Time(2), 128, 70, 60),
    ];
    let (kept, dropped) = drop_shorter_than(mixed.clone(), 60);
    assert_eq!((ids(&kept), dropped), (vec![2, 3], 1));
    let (kept, dropped) = cap_procs(mixed, 128);
    assert_eq!((ids(&kept), dropped), (vec![1, 3], 1));
}

/// A record with the fields `to_jobs` reads.
fn rec(job: i64, submit: i64, run: i64, alloc: i64, req_procs: i64, req_time: i64) -> SwfRecord {
    let f = |v: i64| (v != -1).then_some(v);
    SwfRecord {
        job: f(job),
        submit: f(submit),
        run_time: f(run),
        allocated_procs: f(alloc),
        requested_procs: f(req_procs),
        requested_time: f(req_time),
        ..SwfRecord::default()
    }
}

#[test]
fn to_jobs_drops_and_falls_back() {
    let records = [
        rec(1, 0, 100, 4, 4, 300),  // kept as is
        rec(2, 1, -1, 4, 4, 300),   // run time -1: dropped
        rec(3, 2, 50, -1, -1, 300), // no processors: dropped
        rec(4, 3, 50, -1, 8, 300),  // size from field 8
        rec(5, -1, 50, 4, 4, 300),  // submit -1: dropped
        rec(6, 5, 70, 2, 2, -1),    // no estimate: run time
        rec(7, 6, 0, 1, 1, -1),     // no estimate, run 0: estimate 1
        rec(-1, 7, 9, 1, 1, 20),    // no job number: 12 (past 11) + index 7
        rec(9, 8, -5, 1, 1, 20),    // negative run time: dropped
        rec(10, 9, 9, 0, 16, 20),   // 0 allocated: size from field 8
        rec(11, 4, 9, 1, 1, 20),    // out of order: sorted by submit
    ];
    let c = to_jobs(&records, Estimate::Requested);
    assert_eq!((c.unreplayable, c.no_estimate), (4, 2));
    let got: Vec<_> = c
        .jobs
        .iter()
        .map(|j| (j.id, j.submit.0, j.procs, j.estimate, j.run_time))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, 0, 4, 300, 100),
            (4, 3, 8, 300, 50),
            (11, 4, 1, 20, 9),
            (6, 5, 2, 70, 70),
            (7, 6, 1, 1, 0),
            (19, 7, 1, 20, 9),
            (10, 9, 16, 20, 9),
        ]
    );
    let actual = to_jobs(&records, Estimate::Actual);
    assert_eq!((actual.unreplayable, actual.no_estimate), (4, 0));
    assert!(actual.jobs.iter().all(|j| j.estimate == j.run_time.max(1)));
}

#[test]
fn under_estimates() {
    let runs = [100, 3, 1, 0, 7200];
    let records: Vec<_> = runs
        .iter()
        .zip(1..)
        .map(|(&r, i)| rec(i, i, r, 1, 1, -1))
        .collect();
    let est = |x: f64| -> Vec<i64> {
        to_jobs(&records, Estimate::UnderEstimate(x))
            .jobs
            .iter()
            .map(|j| j.estimate)
            .collect()
    };
    // max(1, round(run × (1 − x))): 100 × 0.8 = 80; 3 × 0.5 = 1.5 → 2.
    assert_eq!(est(0.2), vec![80, 2, 1, 1, 5760]);
    assert_eq!(est(0.5), vec![50, 2, 1, 1, 3600]);
    assert_eq!(est(0.0), vec![100, 3, 1, 1, 7200]);
    assert_eq!(est(1.0), vec![1, 1, 1, 1, 1]);
}

#[test]
fn schedules_written_as_swf_replay_back() {
    let jobs = vec![
        Job::new(1, Time(0), 4, 100, 60),
        Job::new(2, Time(10), 2, 30, 50),
        Job::new(3, Time(20), 8, 9, 9),
    ];
    let outcomes = [
        Outcome {
            id: 1,
            start: Time(0),
            end: Time(60),
            status: Status::Completed,
        },
        Outcome {
            id: 2,
            start: Time(60),
            end: Time(90),
            status: Status::Killed,
        },
        Outcome {
            id: 3,
            start: Time(25),
            end: Time(25),
            status: Status::Dropped,
        },
    ];
    let records = schedule_records(&jobs, &outcomes);
    let mut out = Vec::new();
    write_swf(&mut out, &SwfHeader::default(), &records).unwrap();
    let back: Vec<_> = SwfReader::new(&out[..], "sched.swf", Mode::Strict)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back, records);
    assert_eq!(back[1].wait, Some(50));
    assert_eq!(back[1].status, Some(0));
    assert_eq!(
        (back[2].wait, back[2].run_time, back[2].status),
        (None, None, Some(5))
    );
    // The dropped job is unreplayable; the others come back with the run
    // time they had in the schedule.
    let c = to_jobs(&back, Estimate::Requested);
    assert_eq!(c.unreplayable, 1);
    assert_eq!(
        c.jobs
            .iter()
            .map(|j| (j.id, j.run_time, j.estimate))
            .collect::<Vec<_>>(),
        vec![(1, 60, 100), (2, 30, 30)]
    );
}

//! Hand-computed schedules for small cases: `check(policy, jobs, expected starts)`.

use profile::{
    Job, NoObserver, Overrun, Policy, QueueOrder, SchedulerConfig, SimError, Status, Stepper, Time,
    Violation, simulate, simulate_stream, validate, validate_under,
};

/// `(submit, procs, estimate, run)` on a 10-processor machine.
type Spec = (i64, u32, i64, i64);

fn jobs(specs: &[Spec]) -> Vec<Job> {
    specs
        .iter()
        .enumerate()
        .map(|(i, &(s, p, e, r))| Job::new(i as u64 + 1, Time(s), p, e, r))
        .collect()
}

fn check_with(config: SchedulerConfig, specs: &[Spec], expected_starts: &[i64]) {
    let jobs = jobs(specs);
    let out = simulate(&config, &jobs).unwrap();
    validate(config.capacity, &jobs, &out).unwrap();
    let starts: Vec<i64> = out.iter().map(|o| o.start.secs()).collect();
    assert_eq!(starts, expected_starts, "{config:?}");
}

fn check(policy: Policy, specs: &[Spec], expected_starts: &[i64]) {
    check_with(SchedulerConfig::new(10, policy), specs, expected_starts);
}

/// Job 1 holds 6 of 10 processors until 100; job 2 needs all 10; job 3 (4
/// procs) fits beside job 1 but, under EASY, only if it ends by 100.
const BACKFILL: &[Spec] = &[
    (0, 6, 100, 100),
    (1, 10, 50, 50),
    (2, 4, 90, 90),
    (3, 4, 200, 200),
];

#[test]
fn fcfs_never_backfills() {
    check(Policy::Fcfs, BACKFILL, &[0, 100, 150, 150]);
}

#[test]
fn easy_backfills_what_does_not_delay_the_head() {
    // Job 3 ends at 92 <= 100 and backfills; job 4 would end at 203 and waits.
    check(Policy::EASY, BACKFILL, &[0, 100, 2, 150]);
}

#[test]
fn conservative_reserves_everyone() {
    check(Policy::Conservative, BACKFILL, &[0, 100, 2, 150]);
}

#[test]
fn easy_with_two_reservations_protects_the_second_job_too() {
    // Job 2 (6 procs) waits for job 1; job 3 needs the whole machine. Job 4
    // (4 procs, 200 s) does not delay job 2 but would delay job 3: it
    // backfills under classic EASY and waits under k = 2.
    let specs = &[
        (0, 6, 100, 100),
        (1, 6, 50, 50),
        (1, 10, 50, 50),
        (3, 4, 200, 200),
    ];
    check(Policy::EASY, specs, &[0, 100, 203, 3]);
    check(Policy::Easy { reservations: 2 }, specs, &[0, 100, 150, 200]);
}

#[test]
fn conservative_compresses_when_a_job_ends_early() {
    // Job 1 estimates 100 but runs 20; job 2 was reserved at 100 and moves to 20.
    check(
        Policy::Conservative,
        &[(0, 6, 100, 20), (1, 10, 50, 50)],
        &[0, 20],
    );
    // Job 3 was reserved after job 2 (150) and follows it (70).
    check(
        Policy::Conservative,
        &[(0, 6, 100, 20), (1, 10, 50, 50), (2, 10, 10, 10)],
        &[0, 20, 70],
    );
}

#[test]
fn conservative_keeps_the_arrival_reservation_of_an_early_narrow_job() {
    // Job 3 backfills into the hole before job 2 on arrival and keeps it.
    check(
        Policy::Conservative,
        &[(0, 6, 100, 100), (1, 10, 50, 50), (5, 4, 95, 95)],
        &[0, 100, 5],
    );
    // One second longer, it would delay job 2: it goes after job 2.
    check(
        Policy::Conservative,
        &[(0, 6, 100, 100), (1, 10, 50, 50), (5, 4, 96, 96)],
        &[0, 100, 150],
    );
}

#[test]
fn overrunning_jobs_are_killed_by_default() {
    let jobs = jobs(&[(0, 10, 10, 50), (0, 10, 10, 5)]);
    let out = simulate(&SchedulerConfig::new(10, Policy::EASY), &jobs).unwrap();
    assert_eq!(out[0].status, Status::Killed);
    assert_eq!((out[0].start, out[0].end), (Time(0), Time(10)));
    assert_eq!(out[1].start, Time(10));
    validate(10, &jobs, &out).unwrap();
}

#[test]
fn overrun_continue_lets_jobs_finish_and_replans() {
    for policy in [Policy::Fcfs, Policy::EASY, Policy::Conservative] {
        let config = SchedulerConfig::new(10, policy).overrun(Overrun::Continue);
        let jobs = jobs(&[(0, 10, 10, 25), (0, 10, 10, 5)]);
        let out = simulate(&config, &jobs).unwrap();
        assert_eq!(out[0].status, Status::Completed, "{policy:?}");
        assert_eq!(out[0].end, Time(25));
        assert_eq!(out[1].start, Time(25), "{policy:?}");
        validate(10, &jobs, &out).unwrap();
    }
}

#[test]
fn queue_orders_change_who_goes_first() {
    // Job 1 fills the machine; jobs 2 (long) and 3 (short) both need it all.
    let specs: &[Spec] = &[(0, 10, 10, 10), (1, 10, 100, 100), (2, 10, 5, 5)];
    check(Policy::EASY, specs, &[0, 10, 110]);
    let sjf = SchedulerConfig::new(10, Policy::EASY).order(QueueOrder::ShortestEstimate);
    check_with(sjf, specs, &[0, 15, 10]);
    // EDF: job 2 has the earlier deadline.
    let mut edf_jobs = jobs(specs);
    edf_jobs[1].deadline = Some(Time(500));
    edf_jobs[2].deadline = Some(Time(1000));
    let edf = SchedulerConfig::new(10, Policy::Fcfs).order(QueueOrder::EarliestDeadline);
    let out = simulate(&edf, &edf_jobs).unwrap();
    assert_eq!((out[1].start, out[2].start), (Time(10), Time(110)));
}

#[test]
fn expired_jobs_are_dropped_when_asked() {
    let mut js = jobs(&[(0, 10, 100, 100), (1, 10, 10, 10), (2, 10, 10, 10)]);
    js[1].deadline = Some(Time(50)); // cannot start before 100: dropped
    js[2].deadline = Some(Time(110)); // starts at 100, ends at 110: kept
    for policy in [Policy::Fcfs, Policy::EASY, Policy::Conservative] {
        let config = SchedulerConfig::new(10, policy).drop_expired(true);
        let out = simulate(&config, &js).unwrap();
        assert_eq!(out[1].status, Status::Dropped, "{policy:?}");
        assert_eq!(
            (out[2].status, out[2].start),
            (Status::Completed, Time(100)),
            "{policy:?}"
        );
        validate(10, &js, &out).unwrap();
    }
}

#[test]
fn bad_input_is_rejected_with_the_job_named() {
    let config = SchedulerConfig::new(10, Policy::EASY);
    let wide = jobs(&[(0, 11, 10, 10)]);
    assert!(matches!(
        simulate(&config, &wide),
        Err(SimError::BadWidth {
            id: 1,
            procs: 11,
            ..
        })
    ));
    let unsorted = jobs(&[(5, 1, 10, 10), (4, 1, 10, 10)]);
    assert!(matches!(
        simulate(&config, &unsorted),
        Err(SimError::Unsorted { index: 1, id: 2 })
    ));
    let zero = jobs(&[(0, 1, 0, 10)]);
    let err = simulate(&config, &zero).unwrap_err();
    assert!(
        err.to_string().contains("estimate must be at least 1 s"),
        "{err}"
    );
    assert!(simulate(&config, &[]).unwrap().is_empty());
}

#[test]
fn a_repeated_id_is_refused_naming_it_and_both_positions() {
    let job = |id, submit| Job::new(id, Time(submit), 1, 10, 10);
    let config = SchedulerConfig::new(10, Policy::EASY);
    // In order (the linear path) and out of order (the sorted copy).
    let cases = [
        (vec![job(1, 0), job(2, 1), job(2, 2)], (2, 1, 2)),
        (
            vec![job(7, 0), job(3, 1), job(9, 2), job(3, 3), job(7, 4)],
            (3, 1, 3),
        ),
    ];
    for (jobs, (id, first, second)) in cases {
        let want = SimError::DuplicateId { id, first, second };
        assert_eq!(simulate(&config, &jobs), Err(want.clone()));
        assert_eq!(
            Stepper::new(&config, jobs.clone()).map(|_| ()),
            Err(want.clone())
        );
        assert_eq!(
            want.to_string(),
            format!(
                "jobs at positions {first} and {second} both have id {id}; give every job its own id"
            )
        );
        // A schedule of such jobs (here one made as if ids were distinct)
        // is refused by the validator too.
        let mut distinct = jobs.clone();
        for (k, j) in distinct.iter_mut().enumerate() {
            j.id = 100 + k as u64;
        }
        let mut outcomes = simulate(&config, &distinct).unwrap();
        for (o, j) in outcomes.iter_mut().zip(&jobs) {
            o.id = j.id;
        }
        let v = Violation::DuplicateId { id, first, second };
        assert_eq!(validate(10, &jobs, &outcomes), Err(v.clone()));
        assert_eq!(validate_under(&config, &jobs, &outcomes), Err(v.clone()));
        assert_eq!(
            v.to_string(),
            format!(
                "jobs at positions {first} and {second} both have id {id}; give every job its own id"
            )
        );
    }
}

#[test]
fn a_stream_reports_outcomes_as_jobs_start_and_stops_at_a_bad_job() {
    // Job 1 runs [0, 100), job 2 waits for it; job 3 comes late and is too wide.
    let config = SchedulerConfig::new(10, Policy::Conservative);
    let mut js = jobs(&[(0, 6, 100, 100), (1, 10, 50, 50), (300, 11, 10, 10)]);
    let mut got = Vec::new();
    let err = simulate_stream(&config, js.clone(), &mut NoObserver, |index, outcome| {
        got.push((index, outcome.start.secs()))
    })
    .unwrap_err();
    // Job 3 is read as job 2 is submitted (the next submit time must be
    // known), before job 2 starts at 100: only job 1's outcome is out.
    assert!(
        matches!(
            err,
            SimError::BadWidth {
                index: 2,
                id: 3,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(got, vec![(0, 0)]);
    // Without it, every job is reported once, in start order.
    js.pop();
    got.clear();
    let count = simulate_stream(&config, js, &mut NoObserver, |index, outcome| {
        got.push((index, outcome.start.secs()))
    })
    .unwrap();
    assert_eq!(count, 2);
    assert_eq!(got, vec![(0, 0), (1, 100)]);
}

/// The invariant suite's workloads (which every crate's suite builds on)
/// give every job its own id.
#[test]
fn the_suites_workloads_have_distinct_ids() {
    let workloads = profile::testing::sample_workloads(16, 20, 64);
    // 64 in the gate; `cargo xtask explore --scale K` draws K times as many.
    let (_, scale) = profile::testing::seed_and_scale();
    assert_eq!(workloads.len(), 64 * scale as usize);
    for (k, w) in workloads.iter().enumerate() {
        assert_eq!(
            profile::repeated_id(w.iter().map(|j| j.id)),
            None,
            "workload {k}"
        );
    }
}

/// Entries that share an id by design (parts of one request) are validated
/// under their positions as ids, and `map_ids` names the job again.
#[test]
fn map_ids_names_a_violation_by_the_entrys_own_id() {
    let owner = [51u64, 51];
    let parts = vec![
        Job::new(0, Time(10), 4, 5, 5),
        Job::new(1, Time(10), 4, 5, 5),
    ];
    let early = vec![
        profile::Outcome {
            id: 0,
            start: Time(10),
            end: Time(15),
            status: Status::Completed,
        },
        profile::Outcome {
            id: 1,
            start: Time(9),
            end: Time(14),
            status: Status::Completed,
        },
    ];
    let v = validate(8, &parts, &early).unwrap_err();
    assert_eq!(
        v.map_ids(|k| owner[k as usize]),
        Violation::EarlyStart {
            id: 51,
            submit: Time(10),
            start: Time(9)
        }
    );
}

//! The backfilling baselines on small machines, schedules worked by hand:
//! queue orders, the two drop rules, the flat charge.

use pricing::{Baseline, DropRule, PolicyError, QosJob, Rejections, RunStats, backfill};
use profile::Time;

/// `(id, submit, procs, run time, estimate, D, B)`.
type Row = (u64, i64, u32, i64, i64, i64, f64);

fn jobs(rows: &[Row]) -> Vec<QosJob> {
    rows.iter()
        .map(
            |&(id, submit, procs, run_time, estimate, deadline, budget)| QosJob {
                id,
                submit: Time(submit),
                procs,
                run_time,
                estimate,
                deadline,
                budget,
            },
        )
        .collect()
}

/// What a run must report: `(qos_met, accepted, dropped, late, earned)`.
type Expected = (usize, usize, usize, usize, f64);

/// Runs `baseline` with `drop` on `capacity` processors at $1 per second
/// and checks the counts and the money.
fn check(baseline: Baseline, drop: DropRule, capacity: u32, rows: &[Row], expected: Expected) {
    let jobs = jobs(rows);
    let s = backfill(baseline, drop, capacity, 1.0, &jobs).unwrap();
    let m = s.metrics;
    assert_eq!(
        (m.qos_met, m.accepted, s.rejected.deadline, s.late, m.earned),
        expected,
        "{baseline} {drop}"
    );
    let budgets: f64 = jobs.iter().map(|j| j.budget).sum();
    assert_eq!((m.submitted, m.budgets), (jobs.len(), budgets));
    assert_eq!((s.rejected.resources, s.rejected.budget), (0, 0));
}

/// A 1-processor machine busy until 100 with job 1; job 2 (100 s, due at
/// 160) and job 3 (50 s, due at 320) wait.
const DOOMED: [Row; 3] = [
    (1, 0, 1, 100, 100, 1000, 1e6),
    (2, 10, 1, 100, 100, 150, 1e6),
    (3, 20, 1, 50, 50, 300, 1e6),
];

#[test]
fn hopeless_drops_a_job_that_can_no_longer_make_it() {
    // At 100, job 2 would end at 200 > 160: dropped; job 3 runs [100, 150].
    check(
        Baseline::FcfsBf,
        DropRule::Hopeless,
        1,
        &DOOMED,
        (2, 2, 1, 0, 150.0),
    );
}

#[test]
fn lapsed_starts_it_and_it_ends_late() {
    // At 100, job 2's deadline (160) has not passed: it runs [100, 200],
    // late and unpaid; job 3 runs [200, 250], still in time.
    check(
        Baseline::FcfsBf,
        DropRule::Lapsed,
        1,
        &DOOMED,
        (2, 3, 0, 1, 150.0),
    );
}

#[test]
fn queue_orders() {
    // Job 1 holds both processors until 50; jobs 2 (100 s, due at 310) and
    // 3 (60 s, due at 170) then compete for the whole machine.
    let rows = [
        (1, 0, 2, 50, 50, 1000, 1e6),
        (2, 10, 2, 100, 100, 300, 1e6),
        (3, 20, 2, 60, 60, 150, 1e6),
    ];
    // FCFS: job 2 [50, 150]; job 3 could end at 210 > 170 only: dropped.
    check(
        Baseline::FcfsBf,
        DropRule::Hopeless,
        2,
        &rows,
        (2, 2, 1, 0, 150.0),
    );
    // SJF and EDF: job 3 [50, 110], then job 2 [110, 210].
    for b in [Baseline::SjfBf, Baseline::EdfBf] {
        check(b, DropRule::Hopeless, 2, &rows, (3, 3, 0, 0, 210.0));
        check(b, DropRule::Lapsed, 2, &rows, (3, 3, 0, 0, 210.0));
    }
}

#[test]
fn lapsed_edf_still_orders_by_the_true_deadline() {
    // Job 2: 90 s due at 110; job 3: 10 s due at 120. Under `lapsed` the
    // deadlines the scheduler sees are 200 and 130; EDF must still run
    // job 2 first: [50, 140] (late); at 140 job 3's deadline has passed:
    // dropped. Ordered by the shifted deadlines, job 3 would run first.
    let rows = [
        (1, 0, 1, 50, 50, 1000, 1e6),
        (2, 10, 1, 90, 90, 100, 1e6),
        (3, 20, 1, 10, 10, 100, 1e6),
    ];
    check(
        Baseline::EdfBf,
        DropRule::Lapsed,
        1,
        &rows,
        (1, 2, 1, 1, 50.0),
    );
}

#[test]
fn the_flat_charge_needs_the_budget_and_the_deadline() {
    // Budgets below RE · $1 earn nothing even in time; an under-estimated
    // job pays its estimate, and runs on past it (here past its deadline).
    let rows = [
        (1, 0, 1, 100, 100, 500, 99.0),
        (2, 0, 1, 100, 100, 500, 100.0),
        (3, 0, 1, 300, 100, 250, 1e6),
    ];
    check(
        Baseline::FcfsBf,
        DropRule::Hopeless,
        3,
        &rows,
        (1, 3, 0, 1, 100.0),
    );
}

#[test]
fn backfilling_fills_the_hole_before_the_reservation() {
    // Job 1 holds 1 of 2 processors until 100; job 2 needs both and is
    // reserved at 100; job 3 (1 processor, 80 s) fits in the hole.
    let rows = [
        (1, 0, 1, 100, 100, 1000, 1e6),
        (2, 1, 2, 50, 50, 1000, 1e6),
        (3, 2, 1, 80, 80, 100, 1e6),
    ];
    check(
        Baseline::FcfsBf,
        DropRule::Hopeless,
        2,
        &rows,
        (3, 3, 0, 0, 230.0),
    );
}

#[test]
fn bad_input_is_an_error() {
    let rows = [(1, 0, 3, 10, 10, 100, 1.0)];
    assert!(matches!(
        backfill(Baseline::FcfsBf, DropRule::Hopeless, 2, 1.0, &jobs(&rows)),
        Err(PolicyError::Simulation { .. })
    ));
    let rows = [(7, 0, 1, 10, 10, 100, 1.0)];
    let e = backfill(Baseline::SjfBf, DropRule::Hopeless, 2, -1.0, &jobs(&rows)).unwrap_err();
    assert!(matches!(e, PolicyError::Cost { job: 7, .. }), "{e:?}");
    assert!(e.to_string().starts_with("job 7: PBase is -1"), "{e}");
}

#[test]
fn no_jobs() {
    let s = backfill(Baseline::EdfBf, DropRule::Lapsed, 4, 1.0, &[]).unwrap();
    assert_eq!(s, RunStats::default());
    assert_eq!(s.rejected, Rejections::default());
    assert_eq!(s.percent(0), 0.0);
}

/// `BaselineFate::of` once judged any outcome it was handed: another job's,
/// one ending before it started, one starting before the job was
/// submitted. They are refused as a schedule `profile::validate` refuses.
#[test]
fn a_fate_needs_an_outcome_the_job_can_have() {
    use pricing::{BaselineFate, PolicyError};
    use profile::{Outcome, Status, Time, Violation};
    let job = QosJob {
        id: 7,
        submit: Time(100),
        procs: 2,
        run_time: 50,
        estimate: 60,
        deadline: 1000,
        budget: 90.0,
    };
    let outcome = |id, start, end| Outcome {
        id,
        start: Time(start),
        end: Time(end),
        status: Status::Completed,
    };
    let fate = |o: Outcome| BaselineFate::of(&job, &o, 1.0);
    assert!(matches!(
        fate(outcome(77, 100, 150)),
        Err(PolicyError::InvalidSchedule {
            violation: Violation::WrongId { index: 0 }
        })
    ));
    assert!(matches!(
        fate(outcome(7, 5000, 1)),
        Err(PolicyError::InvalidSchedule { .. })
    ));
    assert!(matches!(
        fate(outcome(7, 90, 140)),
        Err(PolicyError::InvalidSchedule {
            violation: Violation::EarlyStart { id: 7, .. }
        })
    ));
    let ok = fate(outcome(7, 100, 150)).unwrap();
    assert!(ok.started && ok.on_time && ok.met_qos);
    assert_eq!(ok.cost, 60.0);
}

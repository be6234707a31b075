//! Hand-computed schedules of EASY and conservative backfilling, partitions,
//! borrowing, priorities, advance reservations and slots, and configuration
//! errors.

use partitions_forecast::{
    Cluster, ClusterConfig, ClusterError, CommitmentKind, ForecastConfig, Notice, Origin,
    PartitionSpec, Predicate, Priority, ProviderPolicy, ReservationError, RunTimeClass, UNLIMITED,
    resize_slots,
};
use profile::{FreeSlot, Job, Time};

fn job(id: u64, submit: i64, procs: u32, dur: i64) -> Job {
    Job::new(id, Time(submit), procs, dur, dur)
}

/// Every job's id and start, in the order they came.
fn starts(c: &Cluster) -> Vec<(u64, Option<Time>)> {
    c.records().iter().map(|r| (r.id, r.start)).collect()
}

/// Runs `jobs` (id, submit, procs, duration, origin) on `config` and checks
/// every job's start against `expected` (id, start).
fn check(config: ClusterConfig, jobs: &[(u64, i64, u32, i64, Origin)], expected: &[(u64, i64)]) {
    let mut c = Cluster::new(config, Time(0)).unwrap();
    for &(id, submit, procs, dur, origin) in jobs {
        c.submit(Time(submit), job(id, submit, procs, dur), origin)
            .unwrap();
    }
    c.drain();
    let records = c.records();
    for &(id, start) in expected {
        let r = records.iter().find(|r| r.id == id).unwrap();
        assert_eq!(r.start, Some(Time(start)), "job {id}");
        assert_eq!(r.end, Some(Time(start + r.run_time)), "job {id}");
    }
}

fn two_partitions(pivots: u32, lends: bool, borrowing: bool) -> ClusterConfig {
    ClusterConfig {
        capacity: 8,
        partitions: vec![
            PartitionSpec::new("local", Predicate::Origin(Origin::Local), 4, pivots),
            PartitionSpec::new("grid", Predicate::Origin(Origin::Grid), 4, pivots).lending(lends),
        ],
        priority: Priority::Arrival,
        borrowing,
        forecast: None,
    }
}

use Origin::{Grid, Local};

#[test]
fn a_job_takes_its_own_partition_first_and_borrows_the_rest() {
    // Local job 1 takes 6: 4 of its own and 2 of the grid partition's.
    // Grid job 2 (2 procs) fits in what is left of the grid partition.
    // Grid job 3 (2 procs) finds nothing free and waits for 100.
    check(
        two_partitions(1, true, true),
        &[
            (1, 0, 6, 100, Local),
            (2, 0, 2, 50, Grid),
            (3, 1, 2, 10, Grid),
        ],
        &[(1, 0), (2, 0), (3, 50)],
    );
}

#[test]
fn without_lending_or_borrowing_partitions_are_walls() {
    // The grid partition does not lend: local job 2 (2 procs) must wait
    // for local job 1 although the grid partition is idle.
    check(
        two_partitions(1, false, true),
        &[(1, 0, 4, 100, Local), (2, 1, 2, 10, Local)],
        &[(1, 0), (2, 100)],
    );
    // No borrowing at all: the same.
    check(
        two_partitions(1, true, false),
        &[(1, 0, 4, 100, Local), (2, 1, 2, 10, Local)],
        &[(1, 0), (2, 100)],
    );
    // A job wider than its partition cannot be submitted without borrowing.
    let mut c = Cluster::new(two_partitions(1, true, false), Time(0)).unwrap();
    assert!(c.submit(Time(0), job(1, 0, 5, 10), Local).is_err());
}

#[test]
fn borrowing_respects_the_other_partitions_pivot() {
    // Local job 1 fills the local partition until 1000; grid job 2 holds 2
    // of the grid partition until 50; grid job 3 (4 procs) is the grid
    // pivot at 50. Local job 4 (2 procs, 100 s) could borrow the 2 idle
    // grid processors now, but only by overlapping the pivot's window: it
    // waits for 150. Local job 5 (2 procs, 40 s) borrows them and ends
    // before the pivot needs them.
    check(
        two_partitions(1, true, true),
        &[
            (1, 0, 4, 1000, Local),
            (2, 0, 2, 50, Grid),
            (3, 1, 4, 100, Grid),
            (4, 2, 2, 100, Local),
            (5, 3, 2, 40, Local),
        ],
        &[(1, 0), (2, 0), (3, 50), (4, 150), (5, 3)],
    );
    // Without the grid pivot, job 4 borrows at once.
    check(
        two_partitions(1, true, true),
        &[(1, 0, 4, 1000, Local), (4, 2, 2, 100, Local)],
        &[(1, 0), (4, 2)],
    );
}

#[test]
fn local_first_priority_lets_local_jobs_backfill_before_earlier_grid_jobs() {
    let config = |priority| ClusterConfig {
        priority,
        ..ClusterConfig::single(4, 1)
    };
    // Job 1 holds all 4 until 100; job 2 (grid, 4 procs) is the pivot at
    // 100. Job 3 (grid, 2 procs) and job 5 (local, 3 procs) wait without a
    // reservation, and cannot run side by side.
    let jobs = [
        (1, 0, 4, 100, Local),
        (2, 1, 4, 100, Grid),
        (3, 2, 2, 50, Grid),
        (5, 3, 3, 50, Local),
    ];
    // Arrival order: after job 2 (100..200), job 3 becomes the pivot at 200
    // and job 5 cannot fit beside it (2 + 3 > 4): 250.
    check(
        config(Priority::Arrival),
        &jobs,
        &[(2, 100), (3, 200), (5, 250)],
    );
    // Local first: job 5 is ahead of job 3, becomes the pivot at 200, and
    // job 3 goes at 250.
    check(
        config(Priority::LocalFirst),
        &jobs,
        &[(2, 100), (5, 200), (3, 250)],
    );
}

#[test]
fn run_time_partitions_separate_short_from_long_jobs() {
    // ArEbM on 12 processors: short, medium and long partitions of 4.
    let arebm = || ProviderPolicy::ArEbM.config(12, &ForecastConfig::paper(3600));
    // A long job takes 8 (its 4 and the short partition's, the first of the
    // idle ones). A short job takes the medium partition's 4 at once; the
    // next short job is the short pivot and goes when the first one ends.
    check(
        arebm(),
        &[
            (1, 0, 8, 20_000, Local),
            (2, 1, 4, 100, Local),
            (3, 2, 4, 100, Local),
        ],
        &[(1, 0), (2, 1), (3, 101)],
    );
    // A short job behind a wide long pivot goes after it: reservations are
    // made in queue order, whatever the partition.
    check(
        arebm(),
        &[
            (1, 0, 12, 20_000, Local),
            (2, 1, 12, 20_000, Local),
            (3, 2, 4, 100, Local),
        ],
        &[(1, 0), (2, 20_000), (3, 40_000)],
    );
    assert_eq!(RunTimeClass::of(100).partition(), 1);
}

#[test]
fn free_slots_are_what_the_commitments_leave() {
    let mut c = Cluster::new(ClusterConfig::single(10, UNLIMITED), Time(0)).unwrap();
    c.submit(Time(0), job(1, 0, 6, 100), Local).unwrap();
    c.submit(Time(0), job(2, 0, 8, 50), Local).unwrap(); // reserved at 100
    let hold = c
        .request_reservation(Time(0), job(3, 0, 2, 30), Time(200))
        .unwrap();
    let kinds: Vec<CommitmentKind> = c.commitments().iter().map(|k| k.kind).collect();
    assert_eq!(
        kinds,
        [
            CommitmentKind::Running,
            CommitmentKind::Reserved,
            CommitmentKind::Held
        ]
    );
    // Free: 4 on [0, 100), 2 on [100, 150), 10 on [150, 200), 8 on
    // [200, 230), 10 from 230.
    let slots = c.free_slots(Time(0), Time::MAX);
    let slot = |start: i64, end: Time, procs: u32| FreeSlot {
        start: Time(start),
        end,
        procs,
    };
    assert_eq!(
        slots,
        vec![
            slot(0, Time(100), 4),
            slot(0, Time::MAX, 2),
            slot(150, Time(200), 10),
            slot(150, Time::MAX, 8),
            slot(230, Time::MAX, 10),
        ]
    );
    c.commit(Time(0), hold).unwrap();
    assert_eq!(c.commitments()[2].kind, CommitmentKind::AdvanceReservation);
    assert_eq!(
        resize_slots(&slots, 0.5)[0],
        FreeSlot {
            start: Time(0),
            end: Time(100),
            procs: 2
        }
    );
}

#[test]
fn a_hold_that_outlives_its_start_cannot_be_committed() {
    let mut c = Cluster::new(ClusterConfig::single(4, UNLIMITED), Time(0)).unwrap();
    let hold = c
        .request_reservation(Time(0), job(1, 0, 4, 10), Time(5))
        .unwrap();
    let err = c.commit(Time(6), hold).unwrap_err();
    assert!(
        matches!(err, ReservationError::InThePast { job: 1, .. }),
        "{err}"
    );
    // The processors are free again.
    assert_eq!(c.profile().free_at(Time(6)), 4);
    assert!(matches!(
        c.abort(Time(6), hold),
        Err(ReservationError::UnknownHold { .. })
    ));
}

#[test]
fn a_reservation_that_would_end_after_latest_is_refused() {
    let mut c = Cluster::new(ClusterConfig::single(4, UNLIMITED), Time(0)).unwrap();
    let last = Time::LATEST.secs() - 10;
    for (id, start) in [(1, last + 1), (2, Time::LATEST.secs()), (3, i64::MAX - 1)] {
        let err = c
            .request_reservation(Time(0), job(id, 0, 4, 10), Time(start))
            .unwrap_err();
        assert_eq!(
            err,
            ReservationError::BeyondLatest {
                job: id,
                start: Time(start)
            }
        );
    }
    // Ending exactly at LATEST is a reservation like any other.
    let hold = c
        .request_reservation(Time(0), job(4, 0, 4, 10), Time(last))
        .unwrap();
    c.commit(Time(0), hold).unwrap();
}

#[test]
fn no_job_is_handed_over_after_the_limit() {
    // A record's submit time is when the job was handed over (submitted
    // or committed): past `Time::LIMIT` no schedule holds it, so each way
    // in is refused there, naming the job, and a refused commit frees
    // its hold.
    let limit = Time::LIMIT.secs();
    let late = |err: &ClusterError, id: u64| matches!(err, ClusterError::BadJob { id: i, reason } if *i == id && reason.contains("after 1099511627776 s"));
    for origin in [Origin::Grid, Origin::Local] {
        let mut c = Cluster::new(ClusterConfig::single(4, UNLIMITED), Time(0)).unwrap();
        c.submit(Time(limit), job(1, 0, 4, 10), origin).unwrap();
        let err = c
            .submit(Time(limit + 1), job(2, 0, 4, 10), origin)
            .unwrap_err();
        assert!(late(&err, 2), "{err}");
        c.drain();
        let records = c.records();
        assert_eq!(records.len(), 1);
        assert_eq!(
            (records[0].submit, records[0].start),
            (Time(limit), Some(Time(limit)))
        );
    }
    let mut c = Cluster::new(ClusterConfig::single(4, UNLIMITED), Time(0)).unwrap();
    let err = c
        .request_reservation(Time(limit + 1), job(3, 0, 4, 10), Time(limit + 5))
        .unwrap_err();
    assert!(
        matches!(&err, ReservationError::Job { error } if late(error, 3)),
        "{err}"
    );
    let mut c = Cluster::new(ClusterConfig::single(4, UNLIMITED), Time(0)).unwrap();
    let hold = c
        .request_reservation(Time(limit), job(4, 0, 4, 10), Time(limit + 5))
        .unwrap();
    let err = c.commit(Time(limit + 1), hold).unwrap_err();
    assert!(
        matches!(&err, ReservationError::Job { error } if late(error, 4)),
        "{err}"
    );
    assert_eq!(c.profile().free_at(Time(limit + 5)), 4);
    // Committed at the limit, it runs.
    let mut c = Cluster::new(ClusterConfig::single(4, UNLIMITED), Time(0)).unwrap();
    let hold = c
        .request_reservation(Time(limit), job(4, 0, 4, 10), Time(limit + 5))
        .unwrap();
    c.commit(Time(limit), hold).unwrap();
    c.drain();
    assert_eq!(starts(&c), vec![(4, Some(Time(limit + 5)))]);
}

#[test]
fn easy_and_conservative_backfill_only_what_delays_no_reservation() {
    // 10 processors. Job 1 holds 6 over [0, 100). Job 2 (8 procs) must
    // wait for 100 and becomes the pivot. Job 3 (4 procs, 100 s) fits
    // now but would overlap job 2's [100, 200) where only 2 are left:
    // it waits, and goes at 200 under both policies. Job 4 (4 procs,
    // 50 s) ends before 100: it backfills at once.
    for pivots in [1, UNLIMITED] {
        let mut c = Cluster::new(ClusterConfig::single(10, pivots), Time(0)).unwrap();
        c.submit(Time(0), job(1, 0, 6, 100), Origin::Local).unwrap();
        c.submit(Time(1), job(2, 1, 8, 100), Origin::Local).unwrap();
        c.submit(Time(2), job(3, 2, 4, 100), Origin::Local).unwrap();
        c.submit(Time(3), job(4, 3, 4, 50), Origin::Local).unwrap();
        let reserved = c.partitions()[0].reserved;
        assert_eq!(reserved, if pivots == 1 { 1 } else { 2 });
        c.drain();
        let s = starts(&c);
        assert_eq!(
            s,
            vec![
                (1, Some(Time(0))),
                (2, Some(Time(100))),
                (3, Some(Time(200))),
                (4, Some(Time(3)))
            ],
            "pivots {pivots}"
        );
    }
}

#[test]
fn conservative_reserves_every_waiting_job_and_easy_only_the_pivot() {
    // 4 processors. Job 1 holds 2 over [0, 100); job 2 (4 procs, 10 s)
    // is the pivot at 100; job 3 (4 procs, 10 s) and job 4 (2 procs,
    // 200 s) cannot start before. Conservative reserves job 3 at 110
    // and job 4 after it at 120. EASY reserves job 3 once job 2 has
    // started (at 110), then job 4 once job 3 has (at 120).
    let mut easy = Cluster::new(ClusterConfig::single(4, 1), Time(0)).unwrap();
    let mut cons = Cluster::new(ClusterConfig::single(4, UNLIMITED), Time(0)).unwrap();
    for c in [&mut easy, &mut cons] {
        c.submit(Time(0), job(1, 0, 2, 100), Origin::Local).unwrap();
        c.submit(Time(1), job(2, 1, 4, 10), Origin::Local).unwrap();
        c.submit(Time(2), job(3, 2, 4, 10), Origin::Local).unwrap();
        c.submit(Time(3), job(4, 3, 2, 200), Origin::Local).unwrap();
    }
    assert_eq!(easy.partitions()[0].reserved, 1);
    assert_eq!(cons.partitions()[0].reserved, 3);
    let expected = vec![
        (1, Some(Time(0))),
        (2, Some(Time(100))),
        (3, Some(Time(110))),
        (4, Some(Time(120))),
    ];
    for c in [&mut easy, &mut cons] {
        c.drain();
        assert_eq!(starts(c), expected);
    }
}

#[test]
fn a_committed_reservation_starts_exactly_on_time() {
    let mut c = Cluster::new(ClusterConfig::single(8, UNLIMITED), Time(0)).unwrap();
    c.submit(Time(0), job(1, 0, 8, 100), Origin::Local).unwrap();
    let hold = c
        .request_reservation(Time(10), job(7, 10, 4, 50), Time(300))
        .unwrap();
    // A hold already blocks the processors.
    assert_eq!(c.profile().free_at(Time(320)), 4);
    c.commit(Time(10), hold).unwrap();
    assert_eq!(
        c.commit(Time(10), hold),
        Err(ReservationError::UnknownHold { hold })
    );
    // A local job wanting all 8 for 250 s goes after the reservation.
    c.submit(Time(20), job(2, 20, 8, 250), Origin::Local)
        .unwrap();
    c.drain();
    let recs = c.records();
    assert_eq!(recs[1].id, 7);
    assert_eq!(recs[1].start, Some(Time(300)));
    assert_eq!(recs[1].reserved_start, Some(Time(300)));
    assert_eq!(recs[2].start, Some(Time(350)));
    let notices = c.take_notices();
    assert!(notices.contains(&Notice::Started {
        id: 7,
        at: Time(300)
    }));
}

#[test]
fn a_reservation_is_refused_when_the_slot_is_gone_and_an_abort_frees_it() {
    let mut c = Cluster::new(ClusterConfig::single(8, UNLIMITED), Time(0)).unwrap();
    c.submit(Time(0), job(1, 0, 6, 100), Origin::Local).unwrap();
    let err = c
        .request_reservation(Time(0), job(9, 0, 4, 10), Time(50))
        .unwrap_err();
    assert!(
        matches!(err, ReservationError::SlotGone { job: 9, .. }),
        "{err}"
    );
    assert!(matches!(
        c.request_reservation(Time(5), job(9, 0, 4, 10), Time(4)),
        Err(ReservationError::InThePast { .. })
    ));
    let hold = c
        .request_reservation(Time(5), job(9, 5, 4, 10), Time(100))
        .unwrap();
    c.submit(Time(6), job(2, 6, 8, 10), Origin::Local).unwrap();
    // Job 2 had to go after the hold (110); aborting moves it to 100.
    c.abort(Time(7), hold).unwrap();
    c.drain();
    assert_eq!(starts(&c), vec![(1, Some(Time(0))), (2, Some(Time(100)))]);
}

#[test]
fn partitions_borrow_idle_processors_without_delaying_other_pivots() {
    // 12 processors in three run-time partitions of 4, EASY.
    let config = ClusterConfig {
        capacity: 12,
        partitions: RunTimeClass::ALL
            .iter()
            .map(|&c| PartitionSpec::new(format!("{c:?}"), Predicate::RunTime(c), 4, 1))
            .collect(),
        priority: Priority::Arrival,
        borrowing: true,
        forecast: None,
    };
    let mut c = Cluster::new(config, Time(0)).unwrap();
    // A long job takes 8: its own 4 plus 4 borrowed.
    c.submit(Time(0), job(1, 0, 8, 20_000), Origin::Local)
        .unwrap();
    assert_eq!(c.records()[0].start, Some(Time(0)));
    // A medium job wanting 6 cannot start (4 free) and becomes the medium pivot.
    c.submit(Time(1), job(2, 1, 6, 5000), Origin::Local)
        .unwrap();
    assert_eq!(c.partitions()[1].reserved, 1);
    // A short job of 4 borrows the medium partition's idle processors:
    // it ends long before the medium pivot needs them at 20000.
    c.submit(Time(2), job(3, 2, 4, 500), Origin::Local).unwrap();
    assert_eq!(c.records()[2].start, Some(Time(2)));
    c.drain();
    assert_eq!(c.records()[1].start, Some(Time(20_000)));
}

#[test]
fn resized_slots_keep_a_share() {
    let slots = [
        FreeSlot {
            start: Time(0),
            end: Time(10),
            procs: 10,
        },
        FreeSlot {
            start: Time(0),
            end: Time::MAX,
            procs: 1,
        },
    ];
    assert_eq!(
        resize_slots(&slots, 0.35),
        vec![FreeSlot {
            start: Time(0),
            end: Time(10),
            procs: 3
        }]
    );
    assert!(resize_slots(&slots, 0.0).is_empty());
}

#[test]
fn bad_configurations_are_errors() {
    let mut config = ClusterConfig::single(8, 1);
    config.partitions[0].size = 7;
    assert_eq!(
        Cluster::new(config, Time(0)).unwrap_err(),
        ClusterError::Sizes {
            sum: 7,
            capacity: 8
        }
    );
    let mut config = ClusterConfig::single(8, 1);
    config.partitions[0].pivots = 0;
    assert!(Cluster::new(config, Time(0)).is_err());
    let mut config = ClusterConfig::single(8, 1);
    config.forecast = Some(ForecastConfig::paper(3600));
    assert_eq!(
        Cluster::new(config, Time(0)).unwrap_err(),
        ClusterError::ForecastPartitions
    );
    let mut c = Cluster::new(ClusterConfig::single(8, 1), Time(0)).unwrap();
    assert!(c.submit(Time(0), job(1, 0, 9, 10), Origin::Local).is_err());
    c.advance(Time(10)).unwrap();
    assert!(matches!(
        c.submit(Time(5), job(2, 5, 1, 10), Origin::Local),
        Err(ClusterError::Past { .. })
    ));
}

/// A notice names a grid job by id alone: a grid id handed over twice
/// (submitted, held or committed) is refused, whichever way it comes; an
/// aborted hold's id may be asked for again, and local jobs are not grid
/// jobs.
#[test]
fn a_grid_id_is_handed_over_once() {
    let mut c = Cluster::new(ClusterConfig::single(10, UNLIMITED), Time(0)).unwrap();
    c.submit(Time(0), job(1, 0, 2, 100), Grid).unwrap();
    let twice = c.submit(Time(0), job(1, 0, 2, 100), Grid).unwrap_err();
    assert_eq!(twice, ClusterError::DuplicateId { id: 1 });
    assert!(twice.to_string().contains("grid job 1"), "{twice}");
    let held = c.request_reservation(Time(0), job(1, 0, 2, 10), Time(500));
    assert!(
        matches!(
            held,
            Err(ReservationError::Job {
                error: ClusterError::DuplicateId { id: 1 }
            })
        ),
        "{held:?}"
    );
    // A hold takes the id until it is aborted.
    let hold = c
        .request_reservation(Time(0), job(2, 0, 2, 10), Time(500))
        .unwrap();
    assert_eq!(
        c.submit(Time(0), job(2, 0, 2, 10), Grid),
        Err(ClusterError::DuplicateId { id: 2 })
    );
    c.abort(Time(0), hold).unwrap();
    let hold = c
        .request_reservation(Time(0), job(2, 0, 2, 10), Time(500))
        .unwrap();
    c.commit(Time(0), hold).unwrap();
    assert_eq!(
        c.submit(Time(1), job(2, 1, 2, 10), Grid),
        Err(ClusterError::DuplicateId { id: 2 })
    );
    // A local job with a grid job's id is another job.
    c.submit(Time(1), job(1, 1, 2, 10), Local).unwrap();
    let grid: Vec<u64> = c
        .records()
        .iter()
        .filter(|r| r.origin == Grid)
        .map(|r| r.id)
        .collect();
    assert_eq!(grid, [1, 2]);
}

/// Local jobs handed over as a list have their own ids, within one list and
/// across lists; the error names the id and both positions among all the
/// local jobs given (in order, or out of order).
#[test]
fn a_repeated_local_id_is_refused_naming_both_positions() {
    let cluster = || Cluster::new(ClusterConfig::single(10, UNLIMITED), Time(0)).unwrap();
    let cases = [
        (
            vec![job(1, 0, 2, 10), job(2, 1, 2, 10), job(2, 2, 2, 10)],
            (2, 1, 2),
        ),
        (
            vec![
                job(7, 0, 2, 10),
                job(3, 1, 2, 10),
                job(9, 2, 2, 10),
                job(3, 3, 2, 10),
            ],
            (3, 1, 3),
        ),
    ];
    for (jobs, (id, first, second)) in cases {
        let want = ClusterError::DuplicateLocalId { id, first, second };
        assert_eq!(
            cluster().with_local_jobs(jobs).map(|_| ()),
            Err(want.clone())
        );
        assert_eq!(
            want.to_string(),
            format!(
                "local jobs at positions {first} and {second} both have id {id}; give every local job its own id"
            )
        );
    }
    let split = cluster()
        .with_local_jobs(vec![job(1, 0, 2, 10), job(2, 1, 2, 10)])
        .unwrap()
        .with_local_jobs(vec![job(3, 2, 2, 10), job(1, 3, 2, 10)]);
    assert_eq!(
        split.map(|_| ()),
        Err(ClusterError::DuplicateLocalId {
            id: 1,
            first: 0,
            second: 3
        })
    );
}

/// A local job given one at a time (`submit` with `Local`) has its own id
/// too, among the local jobs given as lists and one at a time, in either
/// order; the cluster is unchanged by the refusal, and a grid job may still
/// share a local job's id.
#[test]
fn a_local_job_submitted_alone_has_its_own_id() {
    let cluster = || Cluster::new(ClusterConfig::single(10, UNLIMITED), Time(0)).unwrap();
    // Against a list given before: positions 0 to 2 are the list's.
    let mut c = cluster()
        .with_local_jobs(vec![job(1, 0, 2, 10), job(2, 5, 2, 10), job(3, 9, 2, 10)])
        .unwrap();
    c.submit(Time(1), job(4, 1, 2, 10), Local).unwrap();
    let before = c.records();
    assert_eq!(
        c.submit(Time(1), job(3, 1, 2, 10), Local),
        Err(ClusterError::DuplicateLocalId {
            id: 3,
            first: 2,
            second: 4
        })
    );
    assert_eq!(c.records(), before);
    assert_eq!(
        c.submit(Time(2), job(4, 2, 2, 10), Local),
        Err(ClusterError::DuplicateLocalId {
            id: 4,
            first: 3,
            second: 4
        })
    );
    // A grid job with a local job's id is another job.
    c.submit(Time(2), job(4, 2, 2, 10), Grid).unwrap();
    // A list given after a local job came alone is checked against it.
    let c = c
        .with_local_jobs(vec![job(5, 20, 2, 10), job(4, 21, 2, 10)])
        .map(|_| ());
    assert_eq!(
        c,
        Err(ClusterError::DuplicateLocalId {
            id: 4,
            first: 3,
            second: 5
        })
    );
    // Only local jobs given one at a time, then a list repeating within
    // itself.
    let mut c = cluster();
    c.submit(Time(0), job(8, 0, 2, 10), Local).unwrap();
    assert_eq!(
        c.submit(Time(0), job(8, 0, 2, 10), Local),
        Err(ClusterError::DuplicateLocalId {
            id: 8,
            first: 0,
            second: 1
        })
    );
    let c = c
        .with_local_jobs(vec![job(6, 1, 2, 10), job(7, 2, 2, 10), job(6, 3, 2, 10)])
        .map(|_| ());
    assert_eq!(
        c,
        Err(ClusterError::DuplicateLocalId {
            id: 6,
            first: 1,
            second: 3
        })
    );
}

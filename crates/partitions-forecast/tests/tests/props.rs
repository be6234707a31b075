//! Property tests: random clusters (partitions, pivots, priorities,
//! borrowing, lending, forecasts) under random sequences of submissions,
//! advance reservations, resizes, pivot changes and publications.
//!
//! One `check_*` helper per invariant:
//! * the cluster is never over-committed (its schedule passes
//!   `profile::validate`, and its profile equals the sum of its commitments);
//! * every job ends exactly once, and a committed reservation starts
//!   exactly at its reserved start;
//! * no reservation ever moves later, so borrowing never delays another
//!   partition's pivot;
//! * published slots never overlap allocated area at publication time.

use std::collections::HashMap;

use partitions_forecast::{
    Cluster, ClusterConfig, Commitment, ForecastConfig, LoadMeasure, Origin, PartitionSpec,
    Predicate, Priority, ProviderPolicy, RunTimeClass, ShareFrom, UNLIMITED, resize_slots,
};
use profile::{FreeSlot, Job, Outcome, Status, Time};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

#[derive(Clone, Debug)]
enum Op {
    /// Submit a job (origin, procs, estimate, run time).
    Submit(bool, u32, i64, i64),
    /// Request a reservation `offset` seconds ahead; commit it or not.
    Reserve(u32, i64, i64, bool),
    /// Resize by moving `n` processors from the first partition to the last.
    Resize(u32),
    /// Set the pivots of partition `p % n` (0 = unlimited).
    Pivots(usize, u32),
    /// Publish (Algorithm 1 when forecasting) and check the slots.
    Publish,
}

fn op(cap: u32) -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (any::<bool>(), 1..=cap, 1i64..200, 0i64..250).prop_map(|(g, p, e, r)| Op::Submit(g, p, e, r)),
        2 => (1..=cap, 1i64..200, 0i64..300, any::<bool>()).prop_map(|(p, e, o, c)| Op::Reserve(p, e, o, c)),
        1 => (0..=cap).prop_map(Op::Resize),
        1 => (0usize..3, 0u32..3).prop_map(|(p, k)| Op::Pivots(p, k)),
        2 => Just(Op::Publish),
    ]
}

/// A random cluster: 1 to 3 partitions (run-time classes or local/grid),
/// any pivots, priority, borrowing and lending, or an ArEbMf forecast cluster.
fn config() -> impl Strategy<Value = ClusterConfig> {
    (
        2u32..=24,
        0usize..4,
        any::<[bool; 4]>(),
        any::<[u8; 3]>(),
        0u32..5,
    )
        .prop_map(|(cap, shape, flags, pivots, interval)| {
            let piv = |k: u8| match k % 3 {
                0 => 1,
                1 => 2,
                _ => UNLIMITED,
            };
            let priority = if flags[0] {
                Priority::LocalFirst
            } else {
                Priority::Arrival
            };
            match shape {
                0 => ClusterConfig {
                    priority,
                    ..ClusterConfig::single(cap, piv(pivots[0]))
                },
                1 => {
                    let sizes = partitions_forecast::equal_sizes(cap, 3);
                    let partitions = RunTimeClass::ALL
                        .iter()
                        .zip(sizes)
                        .enumerate()
                        .map(|(i, (&c, s))| {
                            let pred = if i == 2 {
                                Predicate::Any
                            } else {
                                Predicate::RunTime(c)
                            };
                            PartitionSpec::new(format!("{c:?}"), pred, s, piv(pivots[i]))
                                .lending(flags[1] || i != 1)
                        })
                        .collect();
                    ClusterConfig {
                        capacity: cap,
                        partitions,
                        priority,
                        borrowing: true,
                        forecast: None,
                    }
                }
                2 => {
                    let half = cap / 2;
                    ClusterConfig {
                        capacity: cap,
                        partitions: vec![
                            PartitionSpec::new(
                                "local",
                                Predicate::Origin(Origin::Local),
                                half,
                                piv(pivots[0]),
                            ),
                            PartitionSpec::new("grid", Predicate::Any, cap - half, piv(pivots[1]))
                                .lending(flags[2]),
                        ],
                        priority,
                        borrowing: flags[3],
                        forecast: None,
                    }
                }
                _ => {
                    let fc = ForecastConfig {
                        window: 3,
                        smoothing: None,
                        interval: 50 * i64::from(interval + 1),
                        checks: 1 + interval % 3,
                        train_from: Time(40),
                        share_from: if flags[1] {
                            ShareFrom::Actual
                        } else {
                            ShareFrom::Forecast
                        },
                        load: if flags[2] {
                            LoadMeasure::Demand
                        } else {
                            LoadMeasure::Utilisation
                        },
                    };
                    ProviderPolicy::ArEbMf.config(cap, &fc)
                }
            }
        })
}

fn scenario() -> impl Strategy<Value = (ClusterConfig, Vec<(i64, Op)>)> {
    config().prop_flat_map(|c| {
        let cap = c.capacity;
        (Just(c), prop::collection::vec((0i64..40, op(cap)), 1..40))
    })
}

/// The schedule of every job that ran passes `profile::validate`.
fn check_not_overcommitted(c: &Cluster) -> Result<(), TestCaseError> {
    let records = c.records();
    let jobs: Vec<Job> = records
        .iter()
        .map(|r| Job::new(r.id, r.submit, r.procs, r.estimate, r.run_time))
        .collect();
    let outcomes: Vec<Outcome> = records
        .iter()
        .map(|r| Outcome {
            id: r.id,
            start: r.start.unwrap_or(r.submit),
            end: r.end.unwrap_or(r.submit),
            status: if r.run_time > r.estimate {
                Status::Killed
            } else {
                Status::Completed
            },
        })
        .collect();
    profile::validate(c.capacity(), &jobs, &outcomes)
        .map_err(|v| TestCaseError::fail(v.to_string()))
}

/// Busy processors at `t` according to the commitments.
fn committed_at(commitments: &[Commitment], t: Time) -> u32 {
    commitments
        .iter()
        .filter(|k| k.start <= t && t < k.end)
        .map(|k| k.procs)
        .sum()
}

/// The availability profile is exactly the capacity minus the commitments
/// (a brute-force twin), and never negative.
fn check_profile_matches_commitments(c: &Cluster) -> Result<(), TestCaseError> {
    let ks = c.commitments();
    let mut points: Vec<Time> = ks
        .iter()
        .flat_map(|k| [k.start, k.end])
        .filter(|&t| t >= c.now())
        .collect();
    points.push(c.now());
    for t in points {
        let busy = committed_at(&ks, t);
        prop_assert!(
            busy <= c.capacity(),
            "{busy} committed at {t} on {}",
            c.capacity()
        );
        prop_assert_eq!(c.profile().free_at(t), c.capacity() - busy, "at {}", t);
    }
    Ok(())
}

/// Slots published at `now` lie entirely in capacity the commitments leave free.
fn check_slots_free(c: &Cluster, slots: &[FreeSlot]) -> Result<(), TestCaseError> {
    let ks = c.commitments();
    for s in slots {
        let mut points: Vec<Time> = ks
            .iter()
            .flat_map(|k| [k.start, k.end])
            .filter(|&t| s.start <= t && t < s.end)
            .collect();
        points.push(s.start);
        for t in points {
            let busy = committed_at(&ks, t);
            prop_assert!(
                busy + s.procs <= c.capacity(),
                "slot {s:?} overlaps {busy} busy at {t}"
            );
        }
        prop_assert!(s.start >= c.now(), "slot {s:?} starts in the past");
    }
    Ok(())
}

/// Every job ended exactly once; committed reservations started on time;
/// no job started after the first reservation it was given.
fn check_jobs_end_and_reservations_hold(
    c: &Cluster,
    submitted: usize,
    first_reserved: &HashMap<u64, Time>,
) -> Result<(), TestCaseError> {
    let records = c.records();
    prop_assert_eq!(records.len(), submitted);
    let mut ids: Vec<u64> = records.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    prop_assert_eq!(ids.len(), submitted, "a job was recorded twice");
    for r in &records {
        let (Some(start), Some(end)) = (r.start, r.end) else {
            return Err(TestCaseError::fail(format!("job {} never ran", r.id)));
        };
        prop_assert!(start >= r.submit && end >= start);
        if let Some(reserved) = r.reserved_start {
            prop_assert_eq!(
                start,
                reserved,
                "advance reservation of job {} not honoured",
                r.id
            );
        }
        if let Some(&first) = first_reserved.get(&r.id) {
            prop_assert!(
                start <= first,
                "job {} reserved at {first} started at {start}",
                r.id
            );
        }
    }
    Ok(())
}

fn play(config: ClusterConfig, ops: Vec<(i64, Op)>) -> Result<(), TestCaseError> {
    let n = config.partitions.len();
    let cap = config.capacity;
    let mut c = Cluster::new(config, Time(0)).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut now = Time(0);
    let mut next_id = 0u64;
    let mut submitted = 0;
    let mut first_reserved: HashMap<u64, Time> = HashMap::new();
    let note = |c: &Cluster, first: &mut HashMap<u64, Time>| {
        for k in c.commitments() {
            if k.kind == partitions_forecast::CommitmentKind::Reserved {
                first.entry(k.id).or_insert(k.start);
            }
        }
    };
    let check_notices = |c: &mut Cluster| -> Result<(), TestCaseError> {
        for n in c.take_notices() {
            if let partitions_forecast::Notice::Published { slots, .. } = n {
                check_slots_free(c, &slots)?;
            }
        }
        Ok(())
    };
    for (gap, op) in ops {
        now += gap;
        next_id += 1;
        // Slots published by a reallocation event are checked against the
        // commitments of that instant, before this operation changes them.
        while let Some(t) = c.next_event().filter(|&t| t <= now) {
            c.advance(t)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            check_notices(&mut c)?;
        }
        c.advance(now)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        match op {
            Op::Submit(grid, procs, est, run) => {
                let origin = if grid { Origin::Grid } else { Origin::Local };
                if c.submit(now, Job::new(next_id, now, procs, est, run), origin)
                    .is_ok()
                {
                    submitted += 1;
                }
            }
            Op::Reserve(procs, est, offset, commit) => {
                let job = Job::new(next_id, now, procs, est, est);
                if let Ok(hold) = c.request_reservation(now, job, now + offset) {
                    if commit {
                        c.commit(now, hold)
                            .map_err(|e| TestCaseError::fail(e.to_string()))?;
                        submitted += 1;
                    } else {
                        c.abort(now, hold)
                            .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    }
                }
            }
            Op::Resize(m) => {
                let mut sizes: Vec<u32> = c.partitions().iter().map(|p| p.size).collect();
                let m = m.min(sizes[0]);
                sizes[0] -= m;
                sizes[n - 1] += m;
                // A resize that would strand a waiting job is refused, and changes nothing.
                match c.resize(now, &sizes) {
                    Ok(()) | Err(partitions_forecast::ClusterError::BadJob { .. }) => {}
                    Err(e) => return Err(TestCaseError::fail(e.to_string())),
                }
            }
            Op::Pivots(p, k) => {
                let k = if k == 0 { UNLIMITED } else { k };
                c.set_pivots(now, p % n, k)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            Op::Publish => {
                let slots = c.free_slots(now, Time::MAX);
                check_slots_free(&c, &slots)?;
                if let Some(published) = c
                    .publish(now, Time::MAX)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?
                {
                    check_slots_free(&c, &published)?;
                    check_slots_free(&c, &resize_slots(&published, 0.5))?;
                }
                if let Some(f) = c.forecast() {
                    prop_assert!((0.0..=1.0).contains(&f), "forecast {f}");
                }
            }
        }
        note(&c, &mut first_reserved);
        check_profile_matches_commitments(&c)?;
        prop_assert!(c.partitions().iter().map(|p| p.size).sum::<u32>() == cap);
    }
    // Run out every event, checking as we go.
    while let Some(t) = c.next_event() {
        c.advance(t)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        note(&c, &mut first_reserved);
        check_profile_matches_commitments(&c)?;
        check_notices(&mut c)?;
    }
    check_not_overcommitted(&c)?;
    check_jobs_end_and_reservations_hold(&c, submitted, &first_reserved)
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(1000))]

    #[test]
    fn cluster_invariants_hold((config, ops) in scenario()) {
        play(config, ops)?;
    }
}

/// With one partition and perfect estimates, the cluster schedules exactly
/// as `profile::simulate` (checked against pyss) does: ArEb as EASY, ArCb
/// as conservative backfilling.
fn check_single_partition_matches_profile(cap: u32, jobs: &[Job]) -> Result<(), TestCaseError> {
    let fc = ForecastConfig::paper(3600);
    for (ours, theirs) in [
        (ProviderPolicy::ArEb, profile::Policy::EASY),
        (ProviderPolicy::ArCb, profile::Policy::Conservative),
    ] {
        let expected = profile::simulate(&profile::SchedulerConfig::new(cap, theirs), jobs)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut c = Cluster::new(ours.config(cap, &fc), Time(0))
            .and_then(|c| c.with_local_jobs(jobs.to_vec()))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        c.drain();
        let got: Vec<Option<Time>> = c.records().iter().map(|r| r.start).collect();
        let want: Vec<Option<Time>> = expected.iter().map(|o| Some(o.start)).collect();
        prop_assert_eq!(got, want, "{}", ours);
    }
    Ok(())
}

fn workload() -> impl Strategy<Value = (u32, Vec<Job>)> {
    (1u32..=16).prop_flat_map(|cap| {
        let jobs = prop::collection::vec((0i64..30, 1..=cap, 1i64..100), 1..60).prop_map(|v| {
            let mut t = 0;
            v.into_iter()
                .enumerate()
                .map(|(i, (gap, procs, dur))| {
                    t += gap;
                    Job::new(i as u64, Time(t), procs, dur, dur)
                })
                .collect::<Vec<Job>>()
        });
        (Just(cap), jobs)
    })
}

proptest! {
    #![proptest_config(profile::testing::proptest_config(500))]

    #[test]
    fn one_partition_is_easy_or_conservative_backfilling((cap, jobs) in workload()) {
        check_single_partition_matches_profile(cap, &jobs)?;
    }
}
